//! The HTML report, parsed back as XML (it is written well-formed so that
//! these tests can look at its structure rather than at substrings).

use crate::sample::{self, SCRIPT};
use ptx_reports::{render, Counts, Results};
use roxmltree::{Document, Node, ParsingOptions};

fn parse(text: &str) -> Document<'_> {
    let options = ParsingOptions {
        allow_dtd: true,
        ..ParsingOptions::default()
    };
    Document::parse_with_options(text, options)
        .unwrap_or_else(|e| panic!("the HTML report is not well-formed: {e}"))
}

fn all_text(n: Node) -> String {
    n.descendants()
        .filter(|d| d.is_text())
        .filter_map(|d| d.text())
        .collect()
}

fn with_attr<'a, 'i>(doc: &'a Document<'i>, attr: &str, value: &str) -> Vec<Node<'a, 'i>> {
    doc.descendants()
        .filter(|n| n.attribute(attr) == Some(value))
        .collect()
}

fn one<'a, 'i>(doc: &'a Document<'i>, attr: &str, value: &str) -> Node<'a, 'i> {
    let found = with_attr(doc, attr, value);
    assert_eq!(found.len(), 1, "elements with {attr}={value:?}");
    found[0]
}

/// The `data-count` cells under `n`, as counts.
fn counts_in(n: Node) -> Counts {
    let cell = |which: &str| -> u64 {
        let cells: Vec<Node> = n
            .descendants()
            .filter(|d| d.attribute("data-count") == Some(which))
            .collect();
        assert_eq!(cells.len(), 1, "{which} cells");
        // Digits come in groups of three, between narrow spaces.
        all_text(cells[0])
            .replace('\u{202f}', "")
            .parse()
            .expect("a number")
    };
    Counts {
        pass: cell("pass"),
        fail: cell("fail"),
        skip: cell("skip"),
        error: cell("error"),
        known: cell("known"),
    }
}

fn element<'a, 'i>(doc: &'a Document<'i>, id: &str) -> Node<'a, 'i> {
    one(doc, "id", id)
}

#[test]
fn is_one_self_contained_file_without_script() {
    let text = render::html(&sample::run());
    let doc = parse(&text);
    for n in doc.descendants().filter(|n| n.is_element()) {
        let name = n.tag_name().name();
        assert!(
            !matches!(name, "script" | "link" | "img" | "iframe" | "object"),
            "<{name}> in the report"
        );
        for a in n.attributes() {
            assert!(
                !a.name().starts_with("on"),
                "event handler {} in the report",
                a.name()
            );
            if matches!(a.name(), "href" | "src") {
                assert!(a.value().starts_with('#'), "external link {}", a.value());
            }
        }
    }
    assert_eq!(
        doc.descendants()
            .filter(|n| n.has_tag_name("style"))
            .count(),
        1
    );
}

#[test]
fn markup_in_reasons_forms_and_ids_is_text() {
    let r = sample::run();
    let text = render::html(&r);
    assert!(!text.contains(SCRIPT), "unescaped markup in the HTML");
    let doc = parse(&text);
    // The group with markup in its id, form and reason shows them as text.
    let row = one(&doc, "data-group", &r.groups[5].id);
    let row_text = all_text(row);
    assert!(row_text.contains(&r.groups[5].id), "{row_text}");
    assert!(row_text.contains(&r.groups[5].form), "{row_text}");
    assert!(row_text.contains(r.groups[5].reason.as_deref().unwrap()));
    // The erroring group's reason, quotes, line break and tab included.
    let error = doc
        .descendants()
        .find(|n| n.has_tag_name("details") && n.attribute("data-group") == Some(&r.groups[3].id))
        .expect("the erroring group in full");
    let pre = error
        .descendants()
        .find(|n| n.has_tag_name("pre"))
        .expect("its reason");
    assert_eq!(all_text(pre), r.groups[3].reason.clone().unwrap());
    // And a detail of the implementation.
    assert!(all_text(element(&doc, "implementation")).contains("virtual <GPU> 7"));
}

#[test]
fn shows_the_implementation_suite_and_run() {
    let r = sample::run();
    let text = render::html(&r);
    let doc = parse(&text);
    let imp = all_text(element(&doc, "implementation"));
    for want in [
        "command:./my-ptx-vm",
        "my-ptx-vm 2.3.1",
        "8.5",
        "sm_80",
        "sm_90",
        "device",
    ] {
        assert!(imp.contains(want), "{want:?} not in {imp:?}");
    }
    let suite = all_text(element(&doc, "suite"));
    for want in [
        "suites/small.suite",
        "987654321",
        "12",
        "120",
        "ptx-gen 0.1.0",
    ] {
        assert!(suite.contains(want), "{want:?} not in {suite:?}");
    }
    assert_eq!(
        one(&doc, "data-seed", "987654321").tag_name().name(),
        "code"
    );
    let timing = all_text(element(&doc, "timing"));
    assert!(timing.contains("2026-11-02T10:00:00Z"), "{timing}");
    assert!(timing.contains("1 min 15 s"), "{timing}");
    // Interrupted: 8 of the suite's 12 groups ran.
    let banner = all_text(one(&doc, "data-complete", "false"));
    assert!(
        banner.contains("8 of the suite's 12 groups ran"),
        "{banner}"
    );
    assert!(
        timing.contains("no: interrupted; 8 of the suite's 12 groups ran"),
        "{timing}"
    );
}

#[test]
fn totals_and_families_are_the_results_counts() {
    let r = sample::run();
    let text = render::html(&r);
    let doc = parse(&text);
    assert_eq!(counts_in(element(&doc, "totals")), r.totals);
    assert_eq!(
        r.totals,
        Counts {
            pass: 35,
            fail: 28,
            skip: 10,
            error: 8,
            known: 0
        }
    );
    let groups = sample::groups_by_family(&r);
    let rows = doc
        .descendants()
        .filter(|n| n.has_tag_name("tr") && n.attribute("data-family").is_some())
        .collect::<Vec<_>>();
    assert_eq!(rows.len(), r.families.len());
    for row in rows {
        let family = row.attribute("data-family").unwrap();
        assert_eq!(counts_in(row), r.families[family], "family {family}");
        // The cells before the counts: groups, failing groups, groups in error.
        let cells: Vec<String> = row
            .children()
            .filter(|c| c.has_tag_name("td"))
            .map(all_text)
            .collect();
        let g = groups[family];
        assert_eq!(cells[0], g.total().to_string(), "groups of {family}");
        assert_eq!(cells[1], g.fail.to_string(), "failing groups of {family}");
        assert_eq!(cells[2], g.error.to_string(), "groups of {family} in error");
        assert_eq!(
            cells[8],
            r.families[family].total().to_string(),
            "cases of {family}"
        );
    }
    // ld: two groups, both skipped; st: one group in error.
    assert_eq!(
        groups["ld"],
        Counts {
            skip: 2,
            ..Counts::default()
        }
    );
    assert_eq!(
        groups["st"],
        Counts {
            error: 1,
            ..Counts::default()
        }
    );
}

#[test]
fn every_group_has_a_row_with_its_counts() {
    let r = sample::run();
    let text = render::html(&r);
    let doc = parse(&text);
    for g in &r.groups {
        let row = doc
            .descendants()
            .find(|n| n.has_tag_name("tr") && n.attribute("data-group") == Some(&g.id))
            .unwrap_or_else(|| panic!("no row for {}", g.id));
        assert_eq!(counts_in(row), g.counts, "{}", g.id);
        let t = all_text(row);
        assert!(t.contains(&g.section), "{t}");
    }
}

#[test]
fn failing_groups_come_first_in_each_family() {
    let r = sample::run();
    let text = render::html(&r);
    let doc = parse(&text);
    let cvt = element(&doc, "family-cvt");
    let order: Vec<&str> = cvt
        .descendants()
        .filter(|n| n.has_tag_name("tr"))
        .filter_map(|n| n.attribute("data-group"))
        .collect();
    assert_eq!(order, ["cvt.rn.f16.f32/edge", "cvt.rz.f32.f64/random"]);
    // And among the groups shown in full, failures before errors.
    let full: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("details") && n.attribute("data-group").is_some())
        .map(|n| n.attribute("data-group").unwrap())
        .collect();
    assert_eq!(
        full,
        [
            "cvt.rn.f16.f32/edge",
            "prmt.b32/random",
            "st.global.u32/edge"
        ]
    );
}

#[test]
fn failures_show_inputs_expected_actual_mask_section_and_provenance() {
    let r = sample::run();
    let text = render::html(&r);
    let doc = parse(&text);
    let g = &r.groups[0];
    let full = doc
        .descendants()
        .find(|n| n.has_tag_name("details") && n.attribute("data-group") == Some(&g.id))
        .unwrap();
    let t = all_text(full);
    assert!(t.contains("PTX ISA 9.7.9.21"), "{t}");
    assert!(t.contains("spec-only"), "{t}");
    assert!(t.contains("3 of 13 cases fail"), "{t}");
    for f in &g.failures {
        let row = one(&doc, "data-case", &f.case);
        let cells: Vec<String> = row
            .children()
            .filter(|c| c.has_tag_name("td"))
            .map(all_text)
            .collect();
        assert_eq!(cells.len(), 5);
        let case_index = f.case.rsplit('#').next().unwrap();
        assert_eq!(cells[0], format!("#{case_index}"));
        for (cell, fields) in [(1, &f.inputs), (2, &f.expected), (3, &f.actual)] {
            for x in fields.iter() {
                assert!(
                    cells[cell].contains(&x.hex),
                    "{} in {:?}",
                    x.hex,
                    cells[cell]
                );
                assert!(
                    cells[cell].contains(&x.decoded),
                    "{} in {:?}",
                    x.decoded,
                    cells[cell]
                );
                assert!(cells[cell].contains(&x.name));
            }
        }
        assert_eq!(cells[4], f.mask);
    }
    // The differing actual field is marked.
    let row = one(&doc, "data-case", "cvt.rn.f16.f32/edge#4");
    assert!(row
        .descendants()
        .any(|n| n.attribute("class") == Some("differs") && all_text(n).contains("0x7bff")));
    // The provenance of the failing groups: one spec-only, one hardware-seen.
    let p = all_text(element(&doc, "provenance"));
    assert!(
        p.contains("1 hardware-seen") && p.contains("1 spec-only"),
        "{p}"
    );
}

#[test]
fn failures_are_capped_and_the_rest_counted() {
    let r = sample::run();
    let text = render::html(&r);
    let doc = parse(&text);
    let g = &r.groups[2];
    assert_eq!(g.failures.len(), 22);
    let full = doc
        .descendants()
        .find(|n| n.has_tag_name("details") && n.attribute("data-group") == Some(&g.id))
        .unwrap();
    let shown: Vec<&str> = full
        .descendants()
        .filter_map(|n| n.attribute("data-case"))
        .collect();
    let expected: Vec<String> = (0..render::HTML_FAILURES_PER_GROUP)
        .map(|k| format!("prmt.b32/random#{k}"))
        .collect();
    assert_eq!(shown, expected);
    let more = full
        .descendants()
        .find(|n| n.attribute("data-not-shown").is_some())
        .unwrap();
    // 25 failing cases, 20 shown: 5 more, 3 of which the file does not list.
    assert_eq!(more.attribute("data-not-shown"), Some("5"));
    assert!(all_text(more).contains("3 of them are not recorded"));
    // The group with all its failures shown has no such note.
    let g0 = doc
        .descendants()
        .find(|n| {
            n.has_tag_name("details") && n.attribute("data-group") == Some("cvt.rn.f16.f32/edge")
        })
        .unwrap();
    assert!(!g0
        .descendants()
        .any(|n| n.attribute("data-not-shown").is_some()));
}

#[test]
fn skip_reasons_are_grouped() {
    let r = sample::run();
    let text = render::html(&r);
    let doc = parse(&text);
    let skips = element(&doc, "skips");
    let rows: Vec<Vec<String>> = skips
        .descendants()
        .filter(|n| n.has_tag_name("tr"))
        .skip(1)
        .map(|tr| {
            tr.children()
                .filter(|c| c.is_element())
                .map(all_text)
                .collect()
        })
        .collect();
    assert_eq!(rows, [["needs sm_100a | sm_101a", "2", "8"]]);
}

#[test]
fn a_clean_complete_run_says_so() {
    let r: Results = sample::passing_run();
    let text = render::html(&r);
    let doc = parse(&text);
    assert!(with_attr(&doc, "data-complete", "false").is_empty());
    let verdict = doc
        .descendants()
        .find(|n| n.attribute("data-verdict").is_some())
        .unwrap();
    assert_eq!(verdict.attribute("data-verdict"), Some("pass"));
    assert!(!doc.descendants().any(|n| n.has_tag_name("details")
        && n.attribute("class").is_some_and(|c| c.starts_with("group"))));
    let failing_run = parse(&render::html(&sample::run()))
        .descendants()
        .find_map(|n| n.attribute("data-verdict").map(str::to_string));
    assert_eq!(failing_run.as_deref(), Some("fail"));
}

#[test]
fn thousands_of_groups_stay_bounded() {
    // 3000 failing groups of 30 listed failures each: only the first
    // groups are shown in full, 20 failures each.
    let mut r = sample::run();
    let template = r.groups[2].clone();
    r.groups = (0..3000)
        .map(|i| {
            let mut g = template.clone();
            g.id = format!("prmt.b32/random/{i}");
            g.failures = (0..30).map(sample::prmt_failure).collect();
            g
        })
        .collect();
    let text = render::html(&r);
    let doc = parse(&text);
    let in_full = doc
        .descendants()
        .filter(|n| n.has_tag_name("details") && n.attribute("data-group").is_some())
        .count();
    assert_eq!(in_full, render::HTML_GROUPS_IN_FULL);
    let cases = doc
        .descendants()
        .filter(|n| n.has_tag_name("tr") && n.attribute("data-case").is_some())
        .count();
    assert_eq!(
        cases,
        render::HTML_GROUPS_IN_FULL * render::HTML_FAILURES_PER_GROUP
    );
    let rest = doc
        .descendants()
        .find_map(|n| n.attribute("data-groups-not-shown"))
        .unwrap();
    assert_eq!(rest, (3000 - render::HTML_GROUPS_IN_FULL).to_string());
    let rows = doc
        .descendants()
        .filter(|n| n.has_tag_name("tr") && n.attribute("data-group").is_some())
        .count();
    assert_eq!(rows, 3000);
    assert!(text.len() < 8 << 20, "{} bytes", text.len());
}
