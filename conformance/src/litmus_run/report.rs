//! The results of `conform litmus run`: JSON (a histogram per test with the
//! model's verdict per outcome), HTML (tests with forbidden outcomes seen
//! first) and JUnit (a failure per test that showed a forbidden outcome).

use super::TestResult;
use anyhow::Result;
use ptx_reports::render::escape::{markup, xml_attr};
use serde::Serialize;
use std::fmt::Write;
use std::path::Path;

/// The run as a whole.
#[derive(Serialize)]
pub struct Summary {
    pub device: String,
    pub driver: String,
    pub started: String,
    pub seconds: f64,
    pub model: String,
    pub ctas: u32,
    pub block: u32,
    pub test_fraction: f64,
    pub stress: u32,
    pub seed: u64,
    /// CTAs per cluster for tests whose CTAs share one.
    pub cluster_size: u32,
    /// False when the run was interrupted: only the tests listed ran.
    pub complete: bool,
}

#[derive(Serialize)]
struct JsonOutcome<'a> {
    values: &'a [i64],
    count: u64,
    allowed: bool,
}

#[derive(Serialize)]
struct JsonTest<'a> {
    name: &'a str,
    file: &'a str,
    terms: &'a [String],
    exists: Option<&'a [i64]>,
    exists_allowed: Option<bool>,
    exists_seen: u64,
    instances: u64,
    incomplete: u64,
    launches: u64,
    seconds: f64,
    launch_seconds: f64,
    forbidden_seen: u64,
    skipped: Option<&'a str>,
    histogram: Vec<JsonOutcome<'a>>,
}

#[derive(Serialize)]
struct Json<'a> {
    harness: &'static str,
    #[serde(flatten)]
    summary: &'a Summary,
    tests: Vec<JsonTest<'a>>,
}

fn seen(r: &TestResult, v: &[i64]) -> u64 {
    r.histogram.iter().find(|h| h.0 == v).map_or(0, |h| h.1)
}

pub fn write(dir: &Path, s: &Summary, results: &[TestResult]) -> Result<()> {
    let tests = results
        .iter()
        .map(|r| JsonTest {
            name: &r.name,
            file: &r.file,
            terms: &r.terms,
            exists: r.target.as_deref(),
            exists_allowed: r.target_allowed,
            exists_seen: r.target.as_deref().map_or(0, |t| seen(r, t)),
            instances: r.instances,
            incomplete: r.incomplete,
            launches: r.launches,
            seconds: r.seconds,
            launch_seconds: r.launch_seconds,
            forbidden_seen: r.forbidden_seen(),
            skipped: r.skipped.as_deref(),
            histogram: r
                .histogram
                .iter()
                .map(|(v, n, a)| JsonOutcome {
                    values: v,
                    count: *n,
                    allowed: *a,
                })
                .collect(),
        })
        .collect();
    let json = serde_json::to_string_pretty(&Json {
        harness: "conform litmus run",
        summary: s,
        tests,
    })?;
    ptx_reports::write_atomic(dir.join("results.json"), json)?;
    ptx_reports::write_atomic(dir.join("results.html"), html(s, results))?;
    ptx_reports::write_atomic(dir.join("results.junit.xml"), junit(s, results))?;
    ptx_reports::write_atomic(dir.join("results.tsv"), tsv(results))?;
    Ok(())
}

fn html(s: &Summary, results: &[TestResult]) -> String {
    let mut h = String::new();
    let _ = write!(
        h,
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>Litmus results</title>\
         <style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}\
         td,th{{border:1px solid #ccc;padding:2px 6px;text-align:right}}td.o{{text-align:left;font-family:monospace}}\
         .bad{{background:#fbb}}.weak{{background:#ffd}}.bar{{background:#69c;height:10px;display:inline-block}}</style></head><body>\n\
         <h1>Litmus results</h1>\n<p>{} &middot; {} &middot; started {} &middot; {:.1} s &middot; model {} &middot; {} CTAs of {} threads, test fraction {}, stress {}, seed {}</p>\n",
        markup(&s.device),
        markup(&s.driver),
        markup(&s.started),
        s.seconds,
        markup(&s.model),
        s.ctas,
        s.block,
        s.test_fraction,
        s.stress,
        s.seed
    );
    if !s.complete {
        h.push_str("<p><strong>Interrupted:</strong> only the tests below ran.</p>\n");
    }
    let forbidden = results.iter().filter(|r| r.forbidden_seen() > 0).count();
    let skipped = results.iter().filter(|r| r.skipped.is_some()).count();
    let _ = writeln!(
        h,
        "<p>{} tests, {} with a forbidden outcome seen, {} skipped.</p>",
        results.len(),
        forbidden,
        skipped
    );
    let mut order: Vec<&TestResult> = results.iter().collect();
    order.sort_by_key(|r| (r.forbidden_seen() == 0, r.skipped.is_some(), r.name.clone()));
    for r in order {
        let _ = writeln!(
            h,
            "<h3 id=\"{}\">{}</h3>",
            xml_attr(&r.name),
            markup(&r.name)
        );
        if let Some(why) = &r.skipped {
            let _ = writeln!(h, "<p>Skipped: {}</p>", markup(why));
            continue;
        }
        let _ = writeln!(
            h,
            "<p>{} instances in {} launches, {:.2} s{}</p>\n<table><tr><th>outcome</th><th>model</th><th>seen</th><th></th></tr>",
            r.instances,
            r.launches,
            r.seconds,
            if r.incomplete > 0 {
                format!(", {} incomplete", r.incomplete)
            } else {
                String::new()
            }
        );
        let total = r.histogram.iter().map(|x| x.1).sum::<u64>().max(1);
        for (v, n, ok) in &r.histogram {
            let class = if !ok && *n > 0 {
                " class=\"bad\""
            } else if r.target.as_deref() == Some(v) {
                " class=\"weak\""
            } else {
                ""
            };
            let width = (*n as f64 / total as f64 * 300.0).ceil() as u64;
            let _ = writeln!(
                h,
                "<tr{class}><td class=\"o\">{}</td><td>{}</td><td>{n}</td><td style=\"text-align:left\"><span class=\"bar\" style=\"width:{width}px\"></span></td></tr>",
                markup(&r.outcome(v)),
                if *ok { "allowed" } else { "forbidden" }
            );
        }
        let _ = writeln!(h, "</table>");
    }
    h.push_str("</body></html>\n");
    h
}

/// One line per test: instances, the `exists` outcome's verdict and how
/// often it was seen, allowed outcomes seen of allowed, forbidden seen.
fn tsv(results: &[TestResult]) -> String {
    let mut t = String::from(
        "test\tinstances\texists\texists_verdict\texists_seen\tallowed_seen\tallowed\tforbidden_seen\tskipped\n",
    );
    for r in results {
        let allowed = r.histogram.iter().filter(|h| h.2).count();
        let allowed_seen = r.histogram.iter().filter(|h| h.2 && h.1 > 0).count();
        let _ = writeln!(
            t,
            "{}\t{}\t{}\t{}\t{}\t{allowed_seen}\t{allowed}\t{}\t{}",
            r.name,
            r.instances,
            r.target.as_deref().map_or(String::new(), |v| r.outcome(v)),
            match r.target_allowed {
                Some(true) => "allowed",
                Some(false) => "forbidden",
                None => "",
            },
            r.target.as_deref().map_or(0, |v| seen(r, v)),
            r.forbidden_seen(),
            r.skipped
                .as_deref()
                .unwrap_or("")
                .replace(['\t', '\n'], " ")
        );
    }
    t
}

fn junit(s: &Summary, results: &[TestResult]) -> String {
    let failures = results.iter().filter(|r| r.forbidden_seen() > 0).count();
    let skipped = results.iter().filter(|r| r.skipped.is_some()).count();
    let mut x = String::new();
    let _ = writeln!(
        x,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites><testsuite name=\"litmus on {}\" tests=\"{}\" failures=\"{failures}\" skipped=\"{skipped}\" time=\"{:.3}\">",
        xml_attr(&s.device),
        results.len(),
        s.seconds
    );
    for r in results {
        let _ = write!(
            x,
            "<testcase classname=\"litmus\" name=\"{}\" time=\"{:.3}\"",
            xml_attr(&r.name),
            r.seconds
        );
        if let Some(why) = &r.skipped {
            let _ = writeln!(x, "><skipped message=\"{}\"/></testcase>", xml_attr(why));
        } else if r.forbidden_seen() > 0 {
            let bad: Vec<String> = r
                .histogram
                .iter()
                .filter(|h| !h.2 && h.1 > 0)
                .map(|h| format!("{} ({} times)", r.outcome(&h.0), h.1))
                .collect();
            let _ = writeln!(
                x,
                "><failure message=\"forbidden outcome seen: {}\"/></testcase>",
                xml_attr(&bad.join("; "))
            );
        } else {
            let _ = writeln!(x, "/>");
        }
    }
    x.push_str("</testsuite></testsuites>\n");
    x
}
