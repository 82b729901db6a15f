//! The HTML report: one self-contained file (inline CSS, no script, no
//! external assets) that is also well-formed XML, so tests can parse it.
//! Sections: the run (implementation, suite, timing, totals), families,
//! failing and erroring groups in full, skip reasons, and every group in a
//! collapsible table per family, failures first.

use super::escape::markup as esc;
use super::*;
use crate::results::CaseFailure;
use std::fmt::Write;

const STYLE: &str = r#"
:root { --pass: #1a7f37; --fail: #cf222e; --skip: #6e7781; --error: #b86200;
  --line: #d0d7de; --soft: #f6f8fa; --text: #1f2328; --muted: #59636e; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  color: var(--text); margin: 0 auto; padding: 16px 24px 48px; max-width: 1400px; }
h1 { font-size: 22px; margin: 8px 0 4px; }
h1 code { font-size: 20px; }
h2 { font-size: 18px; margin: 28px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
code, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 12.5px; }
.verdict { display: inline-block; padding: 6px 12px; border-radius: 6px; font-weight: 600; margin: 6px 8px 6px 0; color: #fff; }
.verdict.pass { background: var(--pass); } .verdict.fail { background: var(--fail); }
.verdict.error { background: var(--error); } .verdict.skip { background: var(--skip); }
.verdict.interrupted { background: #fff8c5; color: #7d4e00; border: 1px solid #d4a72c; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin-top: 12px; }
.card { flex: 1 1 300px; border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; min-width: 0; }
.card h3 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 2px 0 6px; }
.card dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
.card dt { color: var(--muted); } .card dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: 6px 0; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
thead th { background: var(--soft); font-weight: 600; position: sticky; top: 0; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.zero { color: #afb8c1; }
td.fail:not(.zero) { color: var(--fail); font-weight: 600; }
td.error:not(.zero) { color: var(--error); font-weight: 600; }
tr.attention > th { color: var(--fail); }
.badge { display: inline-block; min-width: 40px; text-align: center; border-radius: 10px; padding: 0 6px;
  font-size: 12px; font-weight: 600; color: #fff; }
.badge.pass { background: var(--pass); } .badge.fail { background: var(--fail); }
.badge.skip { background: var(--skip); } .badge.error { background: var(--error); }
.badge.known, .verdict.known { background: #7a9cc6; }
.tag { display: inline-block; border: 1px solid var(--line); border-radius: 10px; padding: 0 6px; font-size: 12px; color: var(--muted); }
.tag.spec { border-color: #d4a72c; color: #7d4e00; }
.bar { display: flex; height: 10px; min-width: 120px; border-radius: 3px; overflow: hidden; background: var(--soft); }
.bar span { display: block; height: 100%; }
.bar .pass { background: var(--pass); } .bar .fail { background: var(--fail); }
.bar .skip { background: #c4cad0; } .bar .error { background: var(--error); }
.totals td.n { font-size: 16px; }
details { margin: 6px 0; }
details > summary { cursor: pointer; padding: 4px 6px; border-radius: 4px; }
details > summary:hover { background: var(--soft); }
details.group { border: 1px solid var(--line); border-radius: 6px; padding: 2px 8px 6px; }
details.group.fail { border-left: 4px solid var(--fail); }
details.group.error { border-left: 4px solid var(--error); }
details.group dl { display: flex; flex-wrap: wrap; gap: 2px 18px; margin: 4px 0; }
details.group dt { color: var(--muted); } details.group dd { margin: 0 0 0 -12px; }
table.cases td { font-size: 12.5px; }
table.cases td div { white-space: nowrap; }
.name { color: var(--muted); }
.dec { color: var(--muted); }
.differs { background: #ffebe9; }
.differs .dec { color: var(--fail); }
pre.reason { background: var(--soft); border: 1px solid var(--line); border-radius: 4px; padding: 6px 8px;
  margin: 4px 0; max-height: 320px; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
p.more, p.note { color: var(--muted); margin: 4px 0; }
thead th { white-space: nowrap; }
table.groups { width: 100%; }
div.wide { overflow-x: auto; }
table.groups td.reason { color: var(--muted); overflow-wrap: break-word; min-width: 260px; }
table.groups td.id { overflow-wrap: break-word; }
table.groups td.prov { white-space: nowrap; }
footer { margin-top: 32px; color: var(--muted); font-size: 12px; }
"#;

/// Runs with at most this many groups have their family tables open.
const HTML_GROUPS_OPEN: usize = 50;

/// The HTML report of a run: a single self-contained page.
pub fn html(r: &Results) -> String {
    let mut out = String::with_capacity(64 * 1024 + r.groups.len() * 512);
    let (status, verdict_words) = verdict(r);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n\
         <title>ptx-conform: {} {}: {} pass, {} fail, {} skip, {} error{}</title>\n\
         <style>{STYLE}</style>\n</head>\n<body>\n",
        esc(&r.implementation.name),
        status_word(status).to_uppercase(),
        r.totals.pass,
        r.totals.fail,
        r.totals.skip,
        r.totals.error,
        if r.complete { "" } else { " (interrupted)" },
    );
    header(&mut out, r, status, &verdict_words);
    families(&mut out, r);
    failures(&mut out, r);
    skips(&mut out, r);
    all_groups(&mut out, r);
    let _ = write!(
        out,
        "<footer>Schema <code>{}</code>; report by ptx-reports {}.</footer>\n</body>\n</html>\n",
        esc(&r.schema),
        env!("CARGO_PKG_VERSION")
    );
    out
}

fn header(out: &mut String, r: &Results, status: Status, verdict_words: &str) {
    let imp = &r.implementation;
    let _ = write!(
        out,
        "<header>\n<h1>ptx-conform results: <code>{}</code></h1>\n\
         <div><span class=\"verdict {}\" data-verdict=\"{}\">{}: {}</span>",
        esc(&imp.name),
        status_word(status),
        status_word(status),
        status_word(status).to_uppercase(),
        esc(verdict_words)
    );
    if !r.complete {
        let _ = write!(
            out,
            "<span class=\"verdict interrupted\" data-complete=\"false\">INTERRUPTED: {}</span>",
            esc(&interrupted_words(r))
        );
    }
    out.push_str("</div>\n</header>\n<section id=\"run\">\n<div class=\"cards\">\n");

    out.push_str("<div class=\"card\" id=\"implementation\"><h3>Implementation</h3><dl>\n");
    dl_row(out, "name", &format!("<code>{}</code>", esc(&imp.name)));
    dl_row(out, "version", &or_none(&imp.version));
    dl_row(out, "PTX ISA", &or_none(&imp.ptx_version));
    let targets = if imp.targets.is_empty() {
        "<span class=\"name\">none declared</span>".to_string()
    } else {
        imp.targets
            .iter()
            .map(|t| format!("<code>{}</code>", esc(t)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    dl_row(out, "targets", &targets);
    for (k, v) in &imp.details {
        dl_row(out, &esc(k), &esc(v));
    }
    out.push_str("</dl></div>\n");

    let s = &r.suite;
    out.push_str("<div class=\"card\" id=\"suite\"><h3>Suite</h3><dl>\n");
    dl_row(out, "path", &format!("<code>{}</code>", esc(&s.path)));
    dl_row(
        out,
        "seed",
        &format!("<code data-seed=\"{0}\">{0}</code>", s.seed),
    );
    dl_row(out, "groups", &grouped(s.groups as u64));
    dl_row(out, "cases", &grouped(s.cases));
    dl_row(out, "generator", &or_none(&s.generator));
    out.push_str("</dl></div>\n");

    out.push_str("<div class=\"card\" id=\"timing\"><h3>Run</h3><dl>\n");
    dl_row(out, "started", &or_none(&r.started));
    dl_row(
        out,
        "duration",
        &format!(
            "<span data-seconds=\"{}\">{}</span>",
            r.duration_s,
            duration_words(r.duration_s)
        ),
    );
    let complete = if r.complete {
        "yes: every group of the suite ran".to_string()
    } else {
        format!(
            "<strong>no</strong>: interrupted; {}",
            esc(&interrupted_words(r))
        )
    };
    dl_row(out, "complete", &complete);
    let gt = group_totals(r);
    dl_row(
        out,
        "groups",
        &format!(
            "{} pass, {} fail, {} skip, {} error, {} known",
            gt.pass, gt.fail, gt.skip, gt.error, gt.known
        ),
    );
    out.push_str("</dl></div>\n</div>\n");

    out.push_str(
        "<table class=\"totals\" id=\"totals\"><thead><tr><th class=\"n\">pass</th>\
         <th class=\"n\">fail</th><th class=\"n\">skip</th><th class=\"n\">error</th><th class=\"n\">known</th>\
         <th class=\"n\">cases</th><th>share</th></tr></thead>\n<tbody><tr>",
    );
    count_cells(out, &r.totals);
    let _ = write!(
        out,
        "<td class=\"n\">{}</td><td>",
        grouped(r.totals.total())
    );
    bar(out, &r.totals);
    out.push_str("</td></tr></tbody></table>\n</section>\n");
}

fn families(out: &mut String, r: &Results) {
    out.push_str(
        "<section id=\"families\">\n<h2>By instruction family</h2>\n\
         <table class=\"families\"><thead><tr><th>family</th><th class=\"n\">groups</th>\
         <th class=\"n\">failing groups</th><th class=\"n\">groups in error</th><th class=\"n\">pass</th><th class=\"n\">fail</th>\
         <th class=\"n\">skip</th><th class=\"n\">error</th><th class=\"n\">known</th><th class=\"n\">cases</th>\
         <th>share</th></tr></thead>\n<tbody>\n",
    );
    for f in family_rows(r) {
        let attention = f.cases.fail + f.cases.error > 0;
        let _ = write!(
            out,
            "<tr data-family=\"{0}\"{1}><th><a href=\"#family-{0}\">{0}</a></th>\
             <td class=\"n\">{2}</td><td class=\"n fail{3}\">{4}</td><td class=\"n error{5}\">{6}</td>",
            esc(f.name),
            if attention {
                " class=\"attention\""
            } else {
                ""
            },
            grouped(f.groups.total()),
            zero_class(f.groups.fail),
            grouped(f.groups.fail),
            zero_class(f.groups.error),
            grouped(f.groups.error),
        );
        count_cells(out, &f.cases);
        let _ = write!(out, "<td class=\"n\">{}</td><td>", grouped(f.cases.total()));
        bar(out, &f.cases);
        out.push_str("</td></tr>\n");
    }
    out.push_str("</tbody></table>\n<p class=\"note\">Pass, fail, skip and error count cases. A group is in error when some of its cases could not run, else fails when some of its cases fail.</p>\n</section>\n");
}

fn failures(out: &mut String, r: &Results) {
    let bad: Vec<(usize, &GroupResult)> = failures_first(&r.groups)
        .into_iter()
        .filter(|(_, g)| matches!(group_status(g), Status::Fail | Status::Error))
        .collect();
    let _ = write!(
        out,
        "<section id=\"failures\">\n<h2>Failures and errors ({} {})</h2>\n",
        bad.len(),
        plural(bad.len() as u64, "group", "groups")
    );
    if bad.is_empty() {
        out.push_str("<p class=\"note\">No group failed and every group ran.</p>\n</section>\n");
        return;
    }
    // Where the expectations of the failing groups come from.
    let mut by_provenance: BTreeMap<&str, u64> = BTreeMap::new();
    for (_, g) in bad.iter().filter(|(_, g)| group_status(g) == Status::Fail) {
        *by_provenance
            .entry(provenance_words(&g.provenance))
            .or_default() += 1;
    }
    if !by_provenance.is_empty() {
        let words: Vec<String> = by_provenance
            .iter()
            .map(|(p, n)| format!("{} {}", n, esc(p)))
            .collect();
        let _ = writeln!(
            out,
            "<p class=\"note\" id=\"provenance\">Expectations of the failing groups: {}. \
             Hardware-seen expectations were observed on a GPU; spec-only ones come from the PTX ISA text alone.</p>",
            words.join(", ")
        );
    }
    // Everything open when there is little; else the first few failing
    // groups, so that the page shows a failure without a click.
    let open_all = bad.len() <= 10;
    for (i, &(index, g)) in bad.iter().enumerate() {
        let open = open_all || (i < 3 && group_status(g) == Status::Fail);
        if i == HTML_GROUPS_IN_FULL {
            let _ = writeln!(
                out,
                "<p class=\"more\" data-groups-not-shown=\"{0}\">{0} more failing or erroring groups are not shown in full here; \
                 they are listed in the table of all groups below.</p>",
                bad.len() - HTML_GROUPS_IN_FULL
            );
            break;
        }
        group_in_full(out, g, index, open);
    }
    out.push_str("</section>\n");
}

fn group_in_full(out: &mut String, g: &GroupResult, anchor: usize, open: bool) {
    let status = group_status(g);
    let c = &g.counts;
    let what = match status {
        Status::Error if c.fail > 0 => format!(
            "{} of {} cases could not run, {} fail",
            c.error,
            c.total(),
            c.fail
        ),
        Status::Error => format!("{} of {} cases could not run", c.error, c.total()),
        _ => format!("{} of {} cases fail", c.fail, c.total()),
    };
    let _ = write!(
        out,
        "<details class=\"group {st}\" id=\"g{anchor}\" data-group=\"{id}\"{open}>\n\
         <summary><span class=\"badge {st}\">{st}</span> <code>{id}</code>: {what} \
         <span class=\"tag{spec}\">{prov}</span></summary>\n<dl>",
        st = status_word(status),
        id = esc(&g.id),
        open = if open { " open=\"open\"" } else { "" },
        what = esc(&what),
        spec = if g.provenance == "spec" { " spec" } else { "" },
        prov = esc(provenance_words(&g.provenance)),
    );
    let _ = writeln!(
        out,
        "<dt>form</dt><dd><code>{}</code></dd><dt>spec</dt><dd>PTX ISA {}</dd>\
         <dt>family</dt><dd>{}</dd><dt>expectations</dt><dd>{}</dd><dt>time</dt><dd>{}</dd>\
         <dt>cases</dt><dd>{} pass, {} fail, {} skip, {} error</dd></dl>",
        esc(&g.form),
        esc(&g.section),
        esc(&g.family),
        esc(provenance_words(&g.provenance)),
        duration_words(g.seconds),
        c.pass,
        c.fail,
        c.skip,
        c.error
    );
    if let Some(reason) = &g.reason {
        let _ = writeln!(out, "<pre class=\"reason\">{}</pre>", esc(reason));
    }
    let shown = g.failures.len().min(HTML_FAILURES_PER_GROUP);
    if shown > 0 {
        out.push_str(
            "<div class=\"wide\"><table class=\"cases\"><thead><tr><th>case</th><th>inputs</th><th>expected</th>\
             <th>actual</th><th>mask</th></tr></thead>\n<tbody>\n",
        );
        for f in &g.failures[..shown] {
            case_row(out, g, f);
        }
        out.push_str("</tbody></table></div>\n");
    }
    let rest = failures_not_shown(g, shown);
    if rest > 0 {
        let listed = (g.failures.len() - shown) as u64;
        let _ = writeln!(
            out,
            "<p class=\"more\" data-not-shown=\"{rest}\">{rest} more failing {} not shown{}.</p>",
            plural(rest, "case", "cases"),
            if listed < rest {
                format!(
                    " ({} of them {} not recorded in the results file)",
                    rest - listed,
                    plural(rest - listed, "is", "are")
                )
            } else {
                String::new()
            }
        );
    }
    out.push_str("</details>\n");
}

fn case_row(out: &mut String, g: &GroupResult, f: &CaseFailure) {
    let _ = write!(
        out,
        "<tr data-case=\"{}\"><td><code>{}</code></td><td>",
        esc(&f.case),
        esc(case_label(g, &f.case))
    );
    for field in &f.inputs {
        field_div(out, Some(field), &field.name, false);
    }
    out.push_str("</td><td>");
    let pairs = output_pairs(&f.expected, &f.actual);
    for p in &pairs {
        field_div(out, p.expected, p.name, false);
    }
    out.push_str("</td><td>");
    for p in &pairs {
        field_div(out, p.actual, p.name, p.differs());
    }
    let _ = writeln!(out, "</td><td><code>{}</code></td></tr>", esc(&f.mask));
}

fn field_div(out: &mut String, field: Option<&Field>, name: &str, differs: bool) {
    let class = if differs { " class=\"differs\"" } else { "" };
    match field {
        Some(f) => {
            let _ = write!(
                out,
                "<div{class}><span class=\"name\">{}</span> <code>{}</code>",
                esc(&f.name),
                esc(&f.hex)
            );
            if !f.decoded.is_empty() {
                let _ = write!(out, " <span class=\"dec\">{}</span>", esc(&f.decoded));
            }
            out.push_str("</div>");
        }
        None => {
            let _ = write!(
                out,
                "<div{class}><span class=\"name\">{}</span> <em>missing</em></div>",
                esc(name)
            );
        }
    }
}

fn skips(out: &mut String, r: &Results) {
    let reasons = reasons(r, Status::Skip);
    if reasons.is_empty() {
        return;
    }
    out.push_str(
        "<section id=\"skips\">\n<h2>Skipped groups</h2>\n<table class=\"reasons\"><thead><tr>\
         <th>reason</th><th class=\"n\">groups</th><th class=\"n\">cases</th></tr></thead>\n<tbody>\n",
    );
    for (reason, groups, cases) in reasons {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            esc(reason),
            grouped(groups),
            grouped(cases)
        );
    }
    out.push_str("</tbody></table>\n</section>\n");
}

fn all_groups(out: &mut String, r: &Results) {
    // A small run's tables are open; a large one's wait for a click.
    let open = r.groups.len() <= HTML_GROUPS_OPEN;
    let _ = write!(
        out,
        "<section id=\"groups\">\n<h2>All groups ({})</h2>\n\
         <p class=\"note\">One table per family, failing groups first.{}</p>\n",
        r.groups.len(),
        if open {
            ""
        } else {
            " Open a family to see its groups."
        }
    );
    let sorted = failures_first(&r.groups);
    // Groups shown in full above get a link to it.
    let mut in_full = vec![false; r.groups.len()];
    for (index, _) in sorted
        .iter()
        .filter(|(_, g)| matches!(group_status(g), Status::Fail | Status::Error))
        .take(HTML_GROUPS_IN_FULL)
    {
        in_full[*index] = true;
    }
    for f in family_rows(r) {
        let groups: Vec<&(usize, &GroupResult)> =
            sorted.iter().filter(|(_, g)| g.family == f.name).collect();
        let mut bad = String::new();
        if f.groups.fail > 0 {
            let _ = write!(
                bad,
                ", <span class=\"badge fail\">{} failing</span>",
                f.groups.fail
            );
        }
        if f.groups.error > 0 {
            let _ = write!(
                bad,
                ", <span class=\"badge error\">{} in error</span>",
                f.groups.error
            );
        }
        let _ = writeln!(
            out,
            "<details class=\"family\" id=\"family-{name}\"{open}><summary><strong>{name}</strong>: {n} {groups_word}\
             {bad_words}</summary>",
            name = esc(f.name),
            n = groups.len(),
            groups_word = plural(groups.len() as u64, "group", "groups"),
            bad_words = bad,
            open = if open { " open=\"open\"" } else { "" },
        );
        if groups.is_empty() {
            out.push_str("<p class=\"note\">No group of this family is listed.</p></details>\n");
            continue;
        }
        out.push_str(
            "<div class=\"wide\"><table class=\"groups\"><thead><tr><th>status</th><th>group</th><th>form</th>\
             <th>PTX ISA</th><th>expectations</th><th class=\"n\">pass</th><th class=\"n\">fail</th>\
             <th class=\"n\">skip</th><th class=\"n\">error</th><th class=\"n\">known</th><th class=\"n\">time</th>\
             <th>reason</th></tr></thead>\n<tbody>\n",
        );
        for &&(index, g) in &groups {
            group_row(out, index, in_full[index], g);
        }
        out.push_str("</tbody></table></div>\n</details>\n");
    }
    out.push_str("</section>\n");
}

/// A row of the table of all groups; `linked` when the group is shown in
/// full, under the anchor `g{index}` (its index in the results: ids may
/// repeat, or hold characters that make poor fragment names).
fn group_row(out: &mut String, index: usize, linked: bool, g: &GroupResult) {
    let status = group_status(g);
    // Long ids may break after a slash.
    let breakable = esc(&g.id).replace('/', "/<wbr/>");
    let id = if linked {
        format!("<a href=\"#g{index}\"><code>{breakable}</code></a>")
    } else {
        format!("<code>{breakable}</code>")
    };
    let _ = write!(
        out,
        "<tr data-group=\"{}\"><td><span class=\"badge {st}\">{st}</span></td><td class=\"id\">{id}</td>\
         <td><code>{}</code></td><td>{}</td><td class=\"prov\">{}</td>",
        esc(&g.id),
        esc(&g.form),
        esc(&g.section),
        esc(provenance_words(&g.provenance)),
        st = status_word(status),
    );
    count_cells(out, &g.counts);
    let reason = g.reason.as_deref().unwrap_or("");
    let short: String = reason
        .lines()
        .next()
        .unwrap_or("")
        .chars()
        .take(160)
        .collect();
    let cut = short.len() < reason.len();
    let _ = writeln!(
        out,
        "<td class=\"n\">{}</td><td class=\"reason\">{}{}</td></tr>",
        duration_words(g.seconds),
        esc(&short),
        if cut { "…" } else { "" }
    );
}

fn count_cells(out: &mut String, c: &Counts) {
    for (class, n) in [
        ("pass", c.pass),
        ("fail", c.fail),
        ("skip", c.skip),
        ("error", c.error),
        ("known", c.known),
    ] {
        let _ = write!(
            out,
            "<td class=\"n {class}{}\" data-count=\"{class}\">{}</td>",
            zero_class(n),
            grouped(n)
        );
    }
}

/// `614400` → `614 400`, with a narrow no-break space (U+202F) between
/// groups of three digits.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 * 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push('\u{202f}');
        }
        out.push(c);
    }
    out
}

fn zero_class(n: u64) -> &'static str {
    if n == 0 {
        " zero"
    } else {
        ""
    }
}

fn bar(out: &mut String, c: &Counts) {
    let total = c.total();
    out.push_str("<div class=\"bar\">");
    if total > 0 {
        for (class, n) in [
            ("pass", c.pass),
            ("fail", c.fail),
            ("error", c.error),
            ("skip", c.skip),
        ] {
            if n > 0 {
                // A sliver stays visible for a handful of failures among
                // thousands of passes.
                let pct = (n as f64 * 100.0 / total as f64).max(0.8);
                let _ = write!(
                    out,
                    "<span class=\"{class}\" style=\"width:{pct:.2}%\" title=\"{n} {class}\"></span>"
                );
            }
        }
    }
    out.push_str("</div>");
}

fn dl_row(out: &mut String, term: &str, html_value: &str) {
    let _ = writeln!(out, "<dt>{term}</dt><dd>{html_value}</dd>");
}

fn or_none(s: &str) -> String {
    if s.is_empty() {
        "<span class=\"name\">not given</span>".to_string()
    } else {
        esc(s)
    }
}

#[cfg(test)]
mod tests {
    use super::grouped;

    #[test]
    fn digits_are_grouped_by_three() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1\u{202f}000");
        assert_eq!(grouped(614400), "614\u{202f}400");
        assert_eq!(grouped(12345678), "12\u{202f}345\u{202f}678");
    }
}
