//! JUnit XML for CI: one `<testsuite>` per instruction family, one
//! `<testcase>` per group (classname = family, name = group id). A failing
//! group has a `<failure>`, a group that could not run an `<error>`, a
//! group whose cases were all skipped `<skipped>`. An interrupted run adds a
//! suite `conform` with one erroring test case `run complete`, so that CI
//! does not read a partial run as a pass.

use super::escape::{markup as text, xml_attr as attr};
use super::*;
use crate::results::CaseFailure;
use std::fmt::Write;

/// The JUnit XML report of a run.
pub fn junit(r: &Results) -> String {
    // Each suite is written first, so the root's attributes can be sums.
    let mut suites = String::new();
    let mut totals = SuiteTotals::default();
    let properties = properties(r);
    for f in family_rows(r) {
        let mut body = String::new();
        let mut t = SuiteTotals::default();
        for g in r.groups.iter().filter(|g| g.family == f.name) {
            t.tests += 1;
            t.time += g.seconds;
            let _ = write!(
                body,
                "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\"",
                attr(&g.family),
                attr(&g.id),
                g.seconds
            );
            match group_status(g) {
                Status::Pass if g.counts.skip == 0 => body.push_str("/>\n"),
                Status::Pass => {
                    let _ = write!(
                        body,
                        ">\n      <system-out>{} of {} cases skipped: {}</system-out>\n    </testcase>\n",
                        g.counts.skip,
                        g.counts.total(),
                        text(g.reason.as_deref().unwrap_or("no reason given"))
                    );
                }
                Status::Skip => {
                    t.skipped += 1;
                    let _ = write!(
                        body,
                        ">\n      <skipped message=\"{}\"/>\n    </testcase>\n",
                        attr(g.reason.as_deref().unwrap_or("skipped"))
                    );
                }
                Status::Known => {
                    t.skipped += 1;
                    let _ = write!(
                        body,
                        ">\n      <skipped message=\"{} of {} cases differ as a documented divergence: {}\"/>\n    </testcase>\n",
                        g.counts.known,
                        g.counts.total(),
                        attr(g.reason.as_deref().unwrap_or("known divergence"))
                    );
                }
                Status::Fail => {
                    t.failures += 1;
                    let (message, details) = failure_text(g);
                    let _ = write!(
                        body,
                        ">\n      <failure message=\"{}\" type=\"mismatch\">{}</failure>\n    </testcase>\n",
                        attr(&message),
                        text(&details)
                    );
                }
                Status::Error => {
                    t.errors += 1;
                    let reason = g.reason.as_deref().unwrap_or("the group could not run");
                    let message = one_line_reason(reason);
                    let mut details = format!(
                        "{} of {} cases could not run (form {}, PTX ISA {})\n{}\n",
                        g.counts.error,
                        g.counts.total(),
                        g.form,
                        g.section,
                        reason
                    );
                    if g.counts.fail > 0 {
                        details.push_str(&failure_text(g).1);
                    }
                    let _ = write!(
                        body,
                        ">\n      <error message=\"{}\" type=\"error\">{}</error>\n    </testcase>\n",
                        attr(&message),
                        text(&details)
                    );
                }
            }
        }
        suite(&mut suites, f.name, &t, r, &properties, &body);
        totals.add(&t);
    }
    if !r.complete {
        let t = SuiteTotals {
            tests: 1,
            errors: 1,
            ..SuiteTotals::default()
        };
        let words = format!("the run was interrupted: {}", interrupted_words(r));
        let body = format!(
            "    <testcase classname=\"conform\" name=\"run complete\" time=\"0.000\">\n      \
             <error message=\"{}\" type=\"interrupted\">{}</error>\n    </testcase>\n",
            attr(&words),
            text(&words)
        );
        suite(&mut suites, "conform", &t, r, &properties, &body);
        totals.add(&t);
    }
    let mut out = String::with_capacity(suites.len() + 512);
    let _ = write!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3}\">\n{}</testsuites>\n",
        attr(&format!("ptx-conform: {}", r.implementation.name)),
        totals.tests,
        totals.failures,
        totals.errors,
        totals.skipped,
        r.duration_s,
        suites
    );
    out
}

#[derive(Default)]
struct SuiteTotals {
    tests: u64,
    failures: u64,
    errors: u64,
    skipped: u64,
    time: f64,
}

impl SuiteTotals {
    fn add(&mut self, o: &SuiteTotals) {
        self.tests += o.tests;
        self.failures += o.failures;
        self.errors += o.errors;
        self.skipped += o.skipped;
        self.time += o.time;
    }
}

fn suite(out: &mut String, name: &str, t: &SuiteTotals, r: &Results, props: &str, body: &str) {
    let _ = write!(
        out,
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" \
         time=\"{:.3}\" timestamp=\"{}\">\n{props}{body}  </testsuite>\n",
        attr(name),
        t.tests,
        t.failures,
        t.errors,
        t.skipped,
        t.time,
        attr(&r.started),
    );
}

/// The run's facts, as `<properties>` (repeated in every suite, as JUnit
/// has no properties on the root).
fn properties(r: &Results) -> String {
    let imp = &r.implementation;
    let mut p: Vec<(String, String)> = vec![
        ("implementation".into(), imp.name.clone()),
        ("implementation.version".into(), imp.version.clone()),
        ("implementation.ptx_version".into(), imp.ptx_version.clone()),
        ("implementation.targets".into(), imp.targets.join(" ")),
    ];
    for (k, v) in &imp.details {
        p.push((format!("implementation.{k}"), v.clone()));
    }
    p.push(("suite.path".into(), r.suite.path.clone()));
    p.push(("suite.seed".into(), r.suite.seed.to_string()));
    p.push(("suite.groups".into(), r.suite.groups.to_string()));
    p.push(("suite.cases".into(), r.suite.cases.to_string()));
    p.push(("complete".into(), r.complete.to_string()));
    let mut out = String::from("    <properties>\n");
    for (k, v) in p {
        let _ = writeln!(
            out,
            "      <property name=\"{}\" value=\"{}\"/>",
            attr(&k),
            attr(&v)
        );
    }
    out.push_str("    </properties>\n");
    out
}

/// The `message` (the count and the first failure) and the body (the
/// first failures in full) of a failing group.
fn failure_text(g: &GroupResult) -> (String, String) {
    let c = &g.counts;
    let mut message = format!("{} of {} cases fail", c.fail, c.total());
    if let Some(f) = g.failures.first() {
        let _ = write!(message, "; first {}: {}", f.case, one_line(f));
    }
    let mut body = format!(
        "{} of {} cases fail (form {}, PTX ISA {}, {} expectations)\n",
        c.fail,
        c.total(),
        g.form,
        g.section,
        provenance_words(&g.provenance)
    );
    let shown = g.failures.len().min(JUNIT_FAILURES_PER_GROUP);
    for f in &g.failures[..shown] {
        let fields = |v: &[Field]| v.iter().map(field_text).collect::<Vec<_>>().join(", ");
        let _ = write!(
            body,
            "\n{}\n  inputs:   {}\n  expected: {}\n  actual:   {}\n  mask:     {}\n",
            f.case,
            fields(&f.inputs),
            fields(&f.expected),
            fields(&f.actual),
            f.mask
        );
    }
    let rest = failures_not_shown(g, shown);
    if rest > 0 {
        let _ = write!(
            body,
            "\n{rest} more failing {}.\n",
            plural(rest, "case", "cases")
        );
    }
    (message, body)
}

/// `a = …, b = … -> expected d = …, actual d = …` on one line.
fn one_line(f: &CaseFailure) -> String {
    let fields = |v: &[Field]| v.iter().map(field_text).collect::<Vec<_>>().join(", ");
    format!(
        "{} -> expected {}, actual {}",
        fields(&f.inputs),
        fields(&f.expected),
        fields(&f.actual)
    )
}

/// A reason on one line for a `message` attribute: its non-blank lines,
/// trimmed, joined with ` / `, at most 500 characters.
fn one_line_reason(reason: &str) -> String {
    let joined = reason
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" / ");
    let mut short: String = joined.chars().take(500).collect();
    if short.len() < joined.len() {
        short.push('…');
    }
    short
}
