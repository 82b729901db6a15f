//! The tensor-copy groups of the default suite (`gen/src/suite/tensor.rs`):
//! every group runs on the simulator with every case passing, under the
//! eager, late and a seeded random schedule, with no report and no
//! undefined result; every kernel passes the checker; every sm_90a spelling
//! of the tiled and im2col load forms has a group, and every sm_100a
//! spelling of `.tile::gather4` and `.tile::scatter4` a `spec` one.

use ptx_gen::suite::bulk::spelled;
use ptx_gen::suite::tensor::plans;
use ptx_gen::suite::{Built, Options};
use ptx_semantics::check::{check_module, Options as CheckOptions};
use ptx_semantics::sim::Schedule;

mod common;
use common::simulate;

fn ours() -> Vec<Built> {
    let opts = Options::default();
    plans()
        .into_iter()
        .chain(ptx_gen::suite::tensormap::plans())
        .map(|p| {
            p.build(&opts)
                .unwrap_or_else(|| panic!("{}: no defined case", p.id))
        })
        .collect()
}

#[test]
fn every_tensor_group_passes_on_the_simulator_and_the_checker() {
    let built = ours();
    let mut failures = Vec::new();
    let mut cases = 0;
    for b in &built {
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
        assert_eq!(g.tensor_maps.len(), 1, "{}", g.id);
        for schedule in [Schedule::Eager, Schedule::Late, Schedule::Random(7)] {
            let name = format!("{schedule:?}");
            match simulate(b, schedule) {
                Err(e) => failures.push(format!("{} ({name}): {e}", g.id)),
                Ok(actual) => {
                    let row = g.output.row as usize;
                    if let Some(i) = (0..g.cases as usize).find(|&i| {
                        (i * row..(i + 1) * row).any(|k| {
                            let m = b.mask.get(k).copied().unwrap_or(0);
                            (b.expected[k] ^ actual[k]) & !m != 0
                        })
                    }) {
                        failures.push(format!("{} ({name}): case {i} differs", g.id));
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
        built.len() > 300 && cases > 4500,
        "{} groups, {cases} cases",
        built.len()
    );
}

#[test]
fn every_tiled_spelling_has_a_group() {
    let built = ours();
    let forms: std::collections::HashSet<&str> =
        built.iter().map(|b| b.group.form.as_str()).collect();
    for instr in [
        "cp.async.bulk.tensor",
        "cp.reduce.async.bulk.tensor",
        "cp.async.bulk.prefetch.tensor",
        "tensormap.replace",
    ] {
        let all = spelled(instr, ("8.7", "sm_90a"));
        assert!(!all.is_empty(), "{instr}");
        for text in &all {
            assert!(forms.contains(text.as_str()), "{text}: no group");
        }
    }
}

#[test]
fn every_sm100_gather4_and_scatter4_spelling_has_a_spec_group() {
    use ptx_gen::suite::manifest::Provenance;
    let built = ours();
    let mut n = 0;
    for instr in ["cp.async.bulk.tensor", "cp.async.bulk.prefetch.tensor"] {
        let all = ptx_gen::suite::tensor::rows4_spellings(instr);
        assert!(!all.is_empty(), "{instr}");
        for text in &all {
            let b = built
                .iter()
                .find(|b| b.group.form == *text)
                .unwrap_or_else(|| panic!("{text}: no group"));
            assert_eq!(b.group.provenance, Provenance::Spec, "{text}");
            assert_eq!(b.group.target, "sm_100a", "{text}");
            n += 1;
        }
    }
    // gather4 into .shared::cta and .shared::cluster (with and without
    // multicast), its prefetch, and scatter4, each with and without
    // .L2::cache_hint and .cta_group::1
    assert!(n >= 12, "{n} groups");
}
