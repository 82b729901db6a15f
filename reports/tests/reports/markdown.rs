//! The Markdown report: its tables hold the run's counts, text is escaped,
//! failures are capped.

use crate::sample::{self, SCRIPT};
use ptx_reports::render;

fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

#[test]
fn totals_and_family_rows_are_the_results_counts() {
    let r = sample::run();
    let md = render::markdown(&r);
    let lines = lines(&md);
    let t = r.totals;
    let want = format!(
        "| cases | {} | {} | {} | {} | {} |",
        t.pass,
        t.fail,
        t.skip,
        t.error,
        t.total()
    );
    assert!(lines.contains(&want.as_str()), "no {want:?} in\n{md}");
    // Groups: cvt 1 fail + 1 pass, prmt 1 fail, st 1 error, ld 2 skip, mov 2 pass.
    assert!(lines.contains(&"| groups | 3 | 2 | 2 | 1 | 8 |"), "{md}");
    let groups = sample::groups_by_family(&r);
    for (family, c) in &r.families {
        let g = groups[family];
        let want = format!(
            "| `{family}` | {} | {} | {} | {} | {} | {} | {} | {} |",
            g.total(),
            g.fail,
            g.error,
            c.pass,
            c.fail,
            c.skip,
            c.error,
            c.total()
        );
        assert!(lines.contains(&want.as_str()), "no {want:?} in\n{md}");
    }
}

#[test]
fn says_what_ran_and_that_it_was_interrupted() {
    let md = render::markdown(&sample::run());
    for want in [
        "| Implementation | `command:./my-ptx-vm` |",
        "| Version | my-ptx-vm 2.3.1 |",
        "| PTX ISA | 8.5 |",
        "| Targets | `sm_80` `sm_90` |",
        "| Seed | 987654321 |",
        "| Size | 12 groups, 120 cases |",
        "| Duration | 1 min 15 s |",
        "| Complete | **no** (interrupted) |",
        "**INTERRUPTED**: 8 of the suite's 12 groups ran.",
        "**FAIL**: 28 of 81 cases fail in 2 groups; 1 group (8 cases) could not run.",
    ] {
        assert!(md.lines().any(|l| l == want), "no {want:?} in\n{md}");
    }
    let clean = render::markdown(&sample::passing_run());
    assert!(!clean.contains("INTERRUPTED"), "{clean}");
    assert!(clean.contains("| Complete | yes |"), "{clean}");
    assert!(
        clean.starts_with("# ptx-conform results: `command:./my-ptx-vm`\n\n**PASS**"),
        "{clean}"
    );
}

#[test]
fn markup_is_escaped() {
    let md = render::markdown(&sample::run());
    assert!(!md.contains(SCRIPT), "unescaped markup in\n{md}");
    // The reason of the erroring group, on one line, with its markup escaped.
    assert!(
        md.contains("ptxas said \\<script\\>alert(1)\\</script\\> \\& \"quoted\" 'words' second line after a tab"),
        "{md}"
    );
    // Every table row has as many cells as its header (no stray `|`).
    let mut columns = None;
    for line in md.lines() {
        if !line.starts_with('|') {
            columns = None;
            continue;
        }
        let cells = line.replace("\\|", "").matches('|').count();
        match columns {
            None => columns = Some(cells),
            Some(n) => assert_eq!(n, cells, "{line}"),
        }
    }
}

#[test]
fn failures_show_fields_and_are_capped() {
    let r = sample::run();
    let md = render::markdown(&r);
    assert!(
        md.contains("### `cvt.rn.f16.f32/edge`: 3 of 13 cases fail"),
        "{md}"
    );
    assert!(md.contains("Form `cvt.rn.f16.f32`, PTX ISA 9.7.9.21, spec-only expectations."));
    assert!(
        md.lines().any(|l| l == "| `#4` | a = `0x477ff000` (65520) | d = `0x7c00` (inf) | **d = `0x7bff` (65504)** | `0x0000` |"),
        "{md}"
    );
    let prmt_rows = md
        .lines()
        .filter(|l| l.starts_with("| `#") && l.contains("0xdeadbeef"))
        .count();
    assert_eq!(prmt_rows, render::MARKDOWN_FAILURES_PER_GROUP);
    assert!(md.contains("\n20 more failing cases.\n"), "{md}");
    // Skips by reason.
    assert!(
        md.lines()
            .any(|l| l == "| needs sm\\_100a \\| sm\\_101a | 2 | 8 |"),
        "{md}"
    );
}
