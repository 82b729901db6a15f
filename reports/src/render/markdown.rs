//! The Markdown report, for a review or an issue: the summary, one table
//! row per family, and the first failures of the first failing groups
//! (GitHub-flavoured tables; `<br>` separates fields within a cell).

use super::escape::{md_code, md_text};
use super::*;
use crate::results::CaseFailure;
use std::fmt::Write;

/// Longest reason (in characters) written for an erroring group.
const REASON_CHARS: usize = 300;

/// The Markdown report of a run.
pub fn markdown(r: &Results) -> String {
    let mut out = String::new();
    let (status, words) = verdict(r);
    let imp = &r.implementation;
    let _ = writeln!(out, "# ptx-conform results: {}\n", md_code(&imp.name));
    let _ = writeln!(
        out,
        "**{}**: {}.",
        status_word(status).to_uppercase(),
        md_text(&words)
    );
    if !r.complete {
        let _ = writeln!(
            out,
            "\n**INTERRUPTED**: {}.",
            md_text(&interrupted_words(r))
        );
    }
    out.push('\n');

    out.push_str("| | |\n|---|---|\n");
    row2(&mut out, "Implementation", &md_code(&imp.name));
    row2(&mut out, "Version", &or_none(&imp.version));
    row2(&mut out, "PTX ISA", &or_none(&imp.ptx_version));
    let targets: Vec<String> = imp.targets.iter().map(|t| md_code(t)).collect();
    row2(
        &mut out,
        "Targets",
        &if targets.is_empty() {
            "none declared".to_string()
        } else {
            targets.join(" ")
        },
    );
    for (k, v) in &imp.details {
        row2(&mut out, &md_text(k), &md_text(v));
    }
    let s = &r.suite;
    row2(&mut out, "Suite", &md_code(&s.path));
    row2(&mut out, "Seed", &s.seed.to_string());
    row2(
        &mut out,
        "Size",
        &format!("{} groups, {} cases", s.groups, s.cases),
    );
    row2(&mut out, "Generator", &or_none(&s.generator));
    row2(&mut out, "Started", &or_none(&r.started));
    row2(&mut out, "Duration", &duration_words(r.duration_s));
    row2(
        &mut out,
        "Complete",
        if r.complete {
            "yes"
        } else {
            "**no** (interrupted)"
        },
    );

    out.push_str(
        "\n## Totals\n\n| | pass | fail | skip | error | total |\n|---|---:|---:|---:|---:|---:|\n",
    );
    counts_row(&mut out, "cases", &r.totals);
    counts_row(&mut out, "groups", &group_totals(r));

    out.push_str(
        "\n## By family\n\n| family | groups | failing groups | groups in error | pass | fail | skip | error | cases |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for f in family_rows(r) {
        let c = &f.cases;
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            md_code(f.name),
            f.groups.total(),
            f.groups.fail,
            f.groups.error,
            c.pass,
            c.fail,
            c.skip,
            c.error,
            c.total()
        );
    }

    failures(&mut out, r);
    errors(&mut out, r);
    skips(&mut out, r);
    out
}

fn failures(out: &mut String, r: &Results) {
    let failing: Vec<&GroupResult> = failures_first(&r.groups)
        .into_iter()
        .map(|(_, g)| g)
        .filter(|g| group_status(g) == Status::Fail)
        .collect();
    if failing.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n## Failures ({} groups)", failing.len());
    for g in failing.iter().take(MARKDOWN_GROUPS) {
        let c = &g.counts;
        let _ = writeln!(
            out,
            "\n### {}: {} of {} cases fail\n\nForm {}, PTX ISA {}, {} expectations.\n",
            md_code(&g.id),
            c.fail,
            c.total(),
            md_code(&g.form),
            md_text(&g.section),
            md_text(provenance_words(&g.provenance))
        );
        let shown = g.failures.len().min(MARKDOWN_FAILURES_PER_GROUP);
        if shown > 0 {
            out.push_str("| case | inputs | expected | actual | mask |\n|---|---|---|---|---|\n");
            for f in &g.failures[..shown] {
                case_row(out, g, f);
            }
        }
        let rest = failures_not_shown(g, shown);
        if rest > 0 {
            let _ = writeln!(
                out,
                "\n{} more failing {}.",
                rest,
                plural(rest, "case", "cases")
            );
        }
    }
    if failing.len() > MARKDOWN_GROUPS {
        let _ = writeln!(
            out,
            "\n{} more failing groups are not listed here.",
            failing.len() - MARKDOWN_GROUPS
        );
    }
}

fn case_row(out: &mut String, g: &GroupResult, f: &CaseFailure) {
    let field = |x: &Field| {
        if x.decoded.is_empty() {
            format!("{} = {}", md_text(&x.name), md_code(&x.hex))
        } else {
            format!(
                "{} = {} ({})",
                md_text(&x.name),
                md_code(&x.hex),
                md_text(&x.decoded)
            )
        }
    };
    let inputs: Vec<String> = f.inputs.iter().map(field).collect();
    let pairs = output_pairs(&f.expected, &f.actual);
    // The expected side, or the actual one with differing fields in bold.
    let side = |actual: bool| -> Vec<String> {
        pairs
            .iter()
            .map(|p| match if actual { p.actual } else { p.expected } {
                Some(x) if actual && p.differs() => format!("**{}**", field(x)),
                Some(x) => field(x),
                None => format!("{} missing", md_text(p.name)),
            })
            .collect()
    };
    let _ = writeln!(
        out,
        "| {} | {} | {} | {} | {} |",
        md_code(case_label(g, &f.case)),
        inputs.join("<br>"),
        side(false).join("<br>"),
        side(true).join("<br>"),
        md_code(&f.mask)
    );
}

fn errors(out: &mut String, r: &Results) {
    let erroring: Vec<&GroupResult> = r
        .groups
        .iter()
        .filter(|g| group_status(g) == Status::Error)
        .collect();
    if erroring.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n## Groups that could not run ({})\n", erroring.len());
    for g in erroring.iter().take(MARKDOWN_GROUPS) {
        let reason = g.reason.as_deref().unwrap_or("no reason given");
        let mut short: String = reason.chars().take(REASON_CHARS).collect();
        if short.len() < reason.len() {
            short.push('…');
        }
        let _ = writeln!(
            out,
            "- {} ({} cases; form {}, PTX ISA {}): {}",
            md_code(&g.id),
            g.counts.error,
            md_code(&g.form),
            md_text(&g.section),
            md_text(&short)
        );
    }
    if erroring.len() > MARKDOWN_GROUPS {
        let _ = writeln!(
            out,
            "- and {} more groups.",
            erroring.len() - MARKDOWN_GROUPS
        );
    }
}

fn skips(out: &mut String, r: &Results) {
    let reasons = reasons(r, Status::Skip);
    if reasons.is_empty() {
        return;
    }
    out.push_str("\n## Skipped groups\n\n| reason | groups | cases |\n|---|---:|---:|\n");
    for (reason, groups, cases) in reasons {
        let _ = writeln!(out, "| {} | {groups} | {cases} |", md_text(reason));
    }
}

fn counts_row(out: &mut String, what: &str, c: &Counts) {
    let _ = writeln!(
        out,
        "| {what} | {} | {} | {} | {} | {} |",
        c.pass,
        c.fail,
        c.skip,
        c.error,
        c.total()
    );
}

fn row2(out: &mut String, key: &str, value: &str) {
    let _ = writeln!(out, "| {key} | {value} |");
}

fn or_none(s: &str) -> String {
    if s.is_empty() {
        "not given".to_string()
    } else {
        md_text(s)
    }
}
