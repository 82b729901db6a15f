//! Reports of a [`Results`]: [`html`] to read, [`markdown`] for reviews,
//! [`junit`] for CI. Each is a pure function of the results (no I/O, no
//! clock), built with plain string writing; this module holds what the three
//! share: the status of a group, the order groups are listed in, and the
//! limits on how many failures each shows.

pub mod escape;
mod html;
mod junit;
mod markdown;

pub use html::html;
pub use junit::junit;
pub use markdown::markdown;

use crate::results::{Counts, Field, GroupResult, Results, Status};
use std::collections::BTreeMap;

/// Failing cases shown per group in the HTML report (the rest are counted).
pub const HTML_FAILURES_PER_GROUP: usize = 20;
/// Failing or erroring groups the HTML report shows in full; the others
/// appear only in the table of all groups.
pub const HTML_GROUPS_IN_FULL: usize = 200;
/// Failing cases shown per group in Markdown.
pub const MARKDOWN_FAILURES_PER_GROUP: usize = 5;
/// Failing or erroring groups Markdown lists.
pub const MARKDOWN_GROUPS: usize = 50;
/// Failing cases written into a JUnit `<failure>`.
pub const JUNIT_FAILURES_PER_GROUP: usize = 5;

/// The status of a group as a whole: `error` if any case could not run,
/// else `fail` if any case failed, else `skip` if cases were skipped and
/// none passed, else `pass` (a group with no cases passes).
pub fn group_status(group: &GroupResult) -> Status {
    let c = &group.counts;
    if c.error > 0 {
        Status::Error
    } else if c.fail > 0 {
        Status::Fail
    } else if c.known > 0 {
        Status::Known
    } else if c.pass == 0 && c.skip > 0 {
        Status::Skip
    } else {
        Status::Pass
    }
}

/// The order groups are listed in: failing first, then erroring, skipped,
/// passing; suite order within each. Each comes with its index in `groups`.
pub(crate) fn failures_first(groups: &[GroupResult]) -> Vec<(usize, &GroupResult)> {
    let mut sorted: Vec<(usize, &GroupResult)> = groups.iter().enumerate().collect();
    sorted.sort_by_key(|(_, g)| status_rank(group_status(g)));
    sorted
}

fn status_rank(s: Status) -> u8 {
    match s {
        Status::Fail => 0,
        Status::Error => 1,
        Status::Known => 2,
        Status::Skip => 3,
        Status::Pass => 4,
    }
}

pub(crate) fn status_word(s: Status) -> &'static str {
    match s {
        Status::Pass => "pass",
        Status::Fail => "fail",
        Status::Skip => "skip",
        Status::Error => "error",
        Status::Known => "known",
    }
}

/// `hardware` → `hardware-seen`, `spec` → `spec-only`; other values as
/// written.
pub(crate) fn provenance_words(p: &str) -> &str {
    match p {
        "hardware" => "hardware-seen",
        "spec" => "spec-only",
        other => other,
    }
}

/// What a family holds: its case counts (from [`Results::families`]) and
/// its groups by status (counted from [`Results::groups`]).
pub(crate) struct FamilyRow<'a> {
    pub name: &'a str,
    pub cases: Counts,
    pub groups: Counts,
}

/// One row per family named in `families` or in a group, by name.
pub(crate) fn family_rows(r: &Results) -> Vec<FamilyRow<'_>> {
    let mut rows: BTreeMap<&str, FamilyRow> = BTreeMap::new();
    for (name, counts) in &r.families {
        rows.insert(
            name,
            FamilyRow {
                name,
                cases: *counts,
                groups: Counts::default(),
            },
        );
    }
    for g in &r.groups {
        rows.entry(&g.family)
            .or_insert(FamilyRow {
                name: &g.family,
                cases: Counts::default(),
                groups: Counts::default(),
            })
            .groups
            .add(group_status(g), 1);
    }
    rows.into_values().collect()
}

/// Group counts by status over the whole run.
pub(crate) fn group_totals(r: &Results) -> Counts {
    let mut c = Counts::default();
    for g in &r.groups {
        c.add(group_status(g), 1);
    }
    c
}

/// The distinct reasons of groups of one status, with how many groups and
/// cases gave each; most groups first.
pub(crate) fn reasons(r: &Results, status: Status) -> Vec<(&str, u64, u64)> {
    let mut by_reason: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for g in r.groups.iter().filter(|g| group_status(g) == status) {
        let reason = g.reason.as_deref().unwrap_or("(no reason given)");
        let cases = match status {
            Status::Skip => g.counts.skip,
            Status::Error => g.counts.error,
            Status::Fail => g.counts.fail,
            Status::Pass => g.counts.pass,
            Status::Known => g.counts.known,
        };
        let e = by_reason.entry(reason).or_default();
        e.0 += 1;
        e.1 += cases;
    }
    let mut v: Vec<_> = by_reason.into_iter().map(|(k, (g, c))| (k, g, c)).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    v
}

/// An output field: its expected and actual values, matched by name
/// (expected order first, then actual fields the expectation lacks).
pub(crate) struct OutputPair<'a> {
    pub name: &'a str,
    pub expected: Option<&'a Field>,
    pub actual: Option<&'a Field>,
}

impl OutputPair<'_> {
    /// The bits differ (ignoring the mask, which covers the whole row).
    pub fn differs(&self) -> bool {
        match (self.expected, self.actual) {
            (Some(e), Some(a)) => !e.hex.eq_ignore_ascii_case(&a.hex),
            _ => true,
        }
    }
}

pub(crate) fn output_pairs<'a>(expected: &'a [Field], actual: &'a [Field]) -> Vec<OutputPair<'a>> {
    let mut pairs: Vec<OutputPair> = expected
        .iter()
        .map(|e| OutputPair {
            name: &e.name,
            expected: Some(e),
            actual: actual.iter().find(|a| a.name == e.name),
        })
        .collect();
    for a in actual {
        if !expected.iter().any(|e| e.name == a.name) {
            pairs.push(OutputPair {
                name: &a.name,
                expected: None,
                actual: Some(a),
            });
        }
    }
    pairs
}

/// `name = 0x… (decoded)`.
pub(crate) fn field_text(f: &Field) -> String {
    if f.decoded.is_empty() {
        format!("{} = {}", f.name, f.hex)
    } else {
        format!("{} = {} ({})", f.name, f.hex, f.decoded)
    }
}

/// The case's index within its group (`#17`) when the case id is
/// `GROUP#INDEX`, else the whole id.
pub(crate) fn case_label<'a>(group: &GroupResult, case: &'a str) -> &'a str {
    match case.strip_prefix(group.id.as_str()) {
        Some(rest) if rest.starts_with('#') => rest,
        _ => case,
    }
}

/// Failing cases of a group that are not shown when `shown` are: the ones
/// the file lists beyond them plus the ones it does not list at all.
pub(crate) fn failures_not_shown(group: &GroupResult, shown: usize) -> u64 {
    group.counts.fail.saturating_sub(shown as u64)
}

/// `4 ms`, `2.42 s`, `12.3 s`, `4 min 05 s`, `2 h 03 min`.
pub(crate) fn duration_words(secs: f64) -> String {
    if !secs.is_finite() || secs < 0.0 {
        return format!("{secs} s");
    }
    if secs < 1.0 {
        format!("{:.0} ms", secs * 1000.0)
    } else if secs < 10.0 {
        format!("{secs:.2} s")
    } else if secs < 60.0 {
        format!("{secs:.1} s")
    } else if secs < 3600.0 {
        let s = secs.round() as u64;
        format!("{} min {:02} s", s / 60, s % 60)
    } else {
        let m = (secs / 60.0).round() as u64;
        format!("{} h {:02} min", m / 60, m % 60)
    }
}

/// The one-line verdict of a run.
pub(crate) fn verdict(r: &Results) -> (Status, String) {
    let t = &r.totals;
    let g = group_totals(r);
    let mut words = Vec::new();
    if t.fail > 0 {
        words.push(format!(
            "{} of {} cases fail in {} {}",
            t.fail,
            t.total(),
            g.fail,
            plural(g.fail, "group", "groups")
        ));
    }
    if t.error > 0 {
        words.push(format!(
            "{} {} ({} cases) could not run",
            g.error,
            plural(g.error, "group", "groups"),
            t.error
        ));
    }
    if t.known > 0 {
        words.push(format!(
            "{} cases in {} {} differ as documented divergences (known)",
            t.known,
            g.known,
            plural(g.known, "group", "groups")
        ));
    }
    let status = if t.fail > 0 {
        Status::Fail
    } else if t.error > 0 {
        Status::Error
    } else if t.pass > 0 {
        words.push(format!(
            "all {} cases that ran pass{}",
            t.pass,
            if t.skip > 0 {
                format!(" ({} skipped)", t.skip)
            } else {
                String::new()
            }
        ));
        Status::Pass
    } else {
        words.push("no case ran".to_string());
        Status::Skip
    };
    (status, words.join("; "))
}

pub(crate) fn plural<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// `N of the suite's M groups ran`, for an interrupted run.
pub(crate) fn interrupted_words(r: &Results) -> String {
    format!(
        "{} of the suite's {} groups ran",
        r.groups.len(),
        r.suite.groups
    )
}

#[cfg(test)]
mod tests {
    use super::duration_words;

    #[test]
    fn durations_read_at_their_scale() {
        assert_eq!(duration_words(0.0), "0 ms");
        assert_eq!(duration_words(0.004), "4 ms");
        assert_eq!(duration_words(2.4249), "2.42 s");
        assert_eq!(duration_words(12.34), "12.3 s");
        assert_eq!(duration_words(245.2), "4 min 05 s");
        assert_eq!(duration_words(7380.0), "2 h 03 min");
        assert_eq!(duration_words(f64::NAN), "NaN s");
    }
}
