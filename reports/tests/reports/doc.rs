//! The example of `docs/results-schema.md` is a valid results file that
//! keeps the rules the page states.

use crate::sample;
use ptx_reports::{parse, render, Counts, Results, Status};
use std::collections::BTreeMap;

const DOC: &str = include_str!("../../../docs/results-schema.md");

fn example() -> Results {
    let start = DOC.find("```json\n").expect("a json block") + "```json\n".len();
    let len = DOC[start..].find("```").expect("its end");
    parse(
        &DOC.as_bytes()[start..start + len],
        "docs/results-schema.md",
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// The rules the schema page gives for the counts and failures of a file.
fn check_rules(r: &Results) {
    let mut by_family: BTreeMap<String, Counts> = BTreeMap::new();
    let mut totals = Counts::default();
    for g in &r.groups {
        by_family
            .entry(g.family.clone())
            .or_default()
            .merge(&g.counts);
        totals.merge(&g.counts);
        assert!(g.failures.len() as u64 <= g.counts.fail, "{}", g.id);
        for f in &g.failures {
            assert!(f.case.starts_with(&format!("{}#", g.id)), "{}", f.case);
            let names =
                |v: &[ptx_reports::Field]| v.iter().map(|x| x.name.clone()).collect::<Vec<_>>();
            assert_eq!(names(&f.expected), names(&f.actual), "{}", f.case);
            for x in f.inputs.iter().chain(&f.expected).chain(&f.actual) {
                assert!(x.hex.starts_with("0x"), "{}", x.hex);
            }
        }
        assert!(matches!(g.provenance.as_str(), "hardware" | "spec"));
    }
    assert_eq!(by_family, r.families);
    assert_eq!(totals, r.totals);
    if r.complete {
        assert_eq!(r.groups.len(), r.suite.groups);
        assert_eq!(r.totals.total(), r.suite.cases);
    } else {
        assert!(r.groups.len() < r.suite.groups);
    }
}

#[test]
fn the_example_reads_and_keeps_the_rules() {
    let r = example();
    check_rules(&r);
    // What the page says of it: one group of each status.
    let statuses: Vec<Status> = r.groups.iter().map(render::group_status).collect();
    assert_eq!(
        statuses,
        [Status::Fail, Status::Skip, Status::Pass, Status::Error]
    );
    // And every report of it renders.
    assert!(render::html(&r).contains("cvt.rn.f16.f32/edge#4"));
    assert!(render::markdown(&r).contains("SIGABRT"));
    roxmltree::Document::parse(&render::junit(&r)).unwrap();
}

#[test]
fn the_test_sample_keeps_the_rules() {
    check_rules(&sample::run());
    check_rules(&sample::passing_run());
}
