//! The asynchronous groups of the default suite (`gen/src/suite/bulk.rs`):
//! every group runs on the simulator with every case passing, under the
//! eager schedule (what `conform run --impl simulator` does), the late one
//! (every copy completes as late as the waits allow) and a seeded random
//! one, with no report and no undefined result: so a kernel that reads a
//! destination before its wait, or a wrong expected value, shows up here.
//! Every kernel passes the checker for its own `.version` and `.target`,
//! every bulk spelling the catalogue gives sm_90 has a group, and the
//! groups that show sm_90's documented departure from the spec are the
//! only `spec` groups on sm_90.

use ptx_gen::suite::bulk::{self, plans, spelled};
use ptx_gen::suite::manifest::Provenance;
use ptx_gen::suite::{Built, Options};
use ptx_semantics::check::{check_module, Options as CheckOptions};
use ptx_semantics::sim::Schedule;

mod common;
use common::simulate;

fn ours() -> &'static [Built] {
    static BUILT: std::sync::OnceLock<Vec<Built>> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| {
        let opts = Options::default();
        plans()
            .into_iter()
            .map(|p| {
                p.build(&opts)
                    .unwrap_or_else(|| panic!("{}: no defined case", p.id))
            })
            .collect()
    })
}

fn first_difference(b: &Built, actual: &[u8]) -> Option<String> {
    let g = &b.group;
    let row = g.output.row as usize;
    (0..g.cases as usize).find_map(|i| {
        let span = i * row..(i + 1) * row;
        let differs = span.clone().any(|k| {
            let m = b.mask.get(k).copied().unwrap_or(0);
            (b.expected[k] ^ actual[k]) & !m != 0
        });
        differs.then(|| {
            format!(
                "{}#{i}: expected {:02x?}, got {:02x?}",
                g.id,
                &b.expected[span.clone()],
                &actual[span]
            )
        })
    })
}

#[test]
fn every_group_passes_on_the_simulator_under_every_schedule_and_the_checker() {
    let built = ours();
    let mut failures = Vec::new();
    let mut cases = 0;
    for b in built {
        let g = &b.group;
        let module = ptx_semantics::ptx::parse(&b.ptx).expect("a generated kernel parses");
        let diags = check_module(
            &module,
            &CheckOptions {
                threads: Some(1),
                ..CheckOptions::default()
            },
        );
        if let Some(d) = diags.first() {
            failures.push(format!(
                "{}: the checker says {}: {}",
                g.id, d.rule, d.message
            ));
            continue;
        }
        for schedule in [Schedule::Eager, Schedule::Late, Schedule::Random(7)] {
            let name = format!("{schedule:?}");
            match simulate(b, schedule) {
                Err(e) => failures.push(format!("{} ({name}): {e}", g.id)),
                Ok(actual) => {
                    if let Some(d) = first_difference(b, &actual) {
                        failures.push(format!("{name}: {d}"));
                    }
                }
            }
        }
        cases += g.cases;
    }
    assert!(
        failures.is_empty(),
        "{} failure(s), first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(10)]
    );
    assert!(
        built.len() > 350 && cases > 30_000,
        "{} groups",
        built.len()
    );
}

#[test]
fn every_bulk_spelling_has_a_group_and_only_the_divergences_are_spec() {
    let built = ours();
    let forms: std::collections::HashSet<&str> =
        built.iter().map(|b| b.group.form.as_str()).collect();
    for instr in [
        "cp.async.bulk",
        "cp.reduce.async.bulk",
        "cp.async.bulk.prefetch",
        "cp.async.bulk.commit_group",
        "cp.async.bulk.wait_group",
        "st.async",
    ] {
        let all = spelled(instr, ("8.7", "sm_90"));
        assert!(!all.is_empty(), "{instr}");
        for text in all {
            assert!(forms.contains(text.as_str()), "{text}: no group");
        }
    }
    for text in spelled("st.bulk", ("8.7", "sm_100")) {
        assert!(forms.contains(text.as_str()), "{text}: no group");
    }
    // `.weak` with `.cluster` on st.async: ptxas 13.0 rejects it ("Modifier
    // '.weak' cannot be combined with modifier '.cluster'"), and so does the
    // checker, so the catalogue spells none
    assert!(spelled("st.async", ("8.7", "sm_90"))
        .iter()
        .all(|t| !t.starts_with("st.async.weak.cluster")));
    for b in built {
        let g = &b.group;
        let sm90 = g.target == "sm_90";
        let want = if sm90 && !bulk::divergent(&g.id) {
            Provenance::Hardware
        } else {
            Provenance::Spec
        };
        assert_eq!(g.provenance, want, "{}", g.id);
        if bulk::divergent(&g.id) {
            assert!(g.note.contains("docs/bulk-observations.md"), "{}", g.id);
        }
    }
    // the divergence groups: both .add.f32 spellings
    assert_eq!(
        built
            .iter()
            .filter(|b| bulk::divergent(&b.group.id))
            .count(),
        2
    );
    // clusters of 2 and 4 for the copies into a cluster
    for n in [2, 4] {
        assert!(built.iter().any(|b| b.group.id
            == format!("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster/cluster{n}")
            && b.group.cluster == [n, 1, 1]));
    }
}

/// Every `st.bulk` spelling has a group (the `.shared::cta` ones were
/// held back while the simulator read their space as generic).
#[test]
fn every_st_bulk_spelling_has_a_group_the_simulator_passes() {
    let plans = bulk::st_bulk_plans();
    assert_eq!(
        plans.len(),
        4,
        "{:?}",
        plans.iter().map(|p| &p.id).collect::<Vec<_>>()
    );
    for p in plans {
        let b = p.build(&Options::default()).unwrap();
        let r = simulate(&b, Schedule::Eager);
        assert!(r.is_ok(), "{}: {:?}", p.id, r.err());
    }
}
