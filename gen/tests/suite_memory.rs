//! The load/store and generic-address families of the default suite
//! (`gen/src/suite/mem.rs`, `addr.rs`): every group runs on the simulator
//! with every case passing (a harness mistake, such as a wrong expected
//! value, a kernel that writes the wrong row or an address in an output,
//! shows up here), every kernel passes the checker for its own `.version`
//! and `.target`, and every form the catalogue gives sm_90 has a group or a
//! stated reason.

use ptx_gen::suite::manifest::Provenance;
use ptx_gen::suite::{addr, mem, plans, Built, Options};
use ptx_semantics::check::{check_module, Options as CheckOptions};
use ptx_semantics::sim::Schedule;

mod common;

fn simulate(b: &Built) -> Result<Vec<u8>, String> {
    common::simulate(b, Schedule::Eager)
}

/// The families these modules add, by the first word of their forms.
const OPCODES: &[&str] = &[
    "ld",
    "ldu",
    "st",
    "isspacep",
    "cvta",
    "mapa",
    "getctarank",
    "cp",
];

/// Every group of these families, built once for both tests.
fn ours() -> &'static [Built] {
    static BUILT: std::sync::OnceLock<Vec<Built>> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| {
        let opts = Options::default();
        // the asynchronous groups have their own test (suite_bulk.rs)
        let bulk: std::collections::HashSet<String> = ptx_gen::suite::bulk::plans()
            .into_iter()
            .map(|p| p.id)
            .collect();
        plans()
            .into_iter()
            .filter(|p| OPCODES.contains(&p.form.split('.').next().unwrap_or("")))
            .filter(|p| !bulk.contains(&p.id))
            .map(|p| {
                p.build(&opts)
                    .unwrap_or_else(|| panic!("{}: no defined case", p.id))
            })
            .collect()
    })
}

#[test]
fn every_group_passes_on_the_simulator_and_the_checker() {
    let built = ours();
    let mut failures = Vec::new();
    let mut cases = 0u64;
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
        if !diags.is_empty() {
            failures.push(format!("{}: the checker says {:?}", g.id, diags[0].message));
            continue;
        }
        let actual = match simulate(b) {
            Ok(a) => a,
            Err(e) => {
                failures.push(format!("{}: {e}", g.id));
                continue;
            }
        };
        let row = g.output.row as usize;
        for i in 0..g.cases as usize {
            let span = i * row..(i + 1) * row;
            let differs = b.expected[span.clone()]
                .iter()
                .zip(&actual[span.clone()])
                .enumerate()
                .any(|(k, (e, a))| {
                    let m = b.mask.get(i * row + k).copied().unwrap_or(0);
                    (e ^ a) & !m != 0
                });
            if differs {
                failures.push(format!(
                    "{}#{i}: expected {:02x?}, got {:02x?}",
                    g.id,
                    &b.expected[span.clone()],
                    &actual[span]
                ));
                break;
            }
        }
        cases += g.cases;
    }
    assert!(
        failures.is_empty(),
        "{} of {} groups fail, first: {:#?}",
        failures.len(),
        built.len(),
        &failures[..failures.len().min(10)]
    );
    assert!(
        built.len() > 2000 && cases > 100_000,
        "{} groups",
        built.len()
    );
}

#[test]
fn every_form_sm_90_accepts_has_a_group_or_a_reason() {
    let built = ours();
    let have: std::collections::HashMap<&str, Provenance> = built
        .iter()
        .map(|b| (b.group.form.as_str(), b.group.provenance))
        .collect();
    // forms of each family, space, type, vector width and qualifier kind;
    // the first of each group of lines ran on the GPUs (corpus/simulator)
    for (form, provenance) in [
        ("ld.global.nc.v4.u8", Provenance::Hardware),
        ("ld.shared::cluster.b32", Provenance::Hardware),
        ("ld.relaxed.cluster.shared::cta.u32", Provenance::Hardware),
        ("ld.const.s8", Provenance::Hardware),
        ("ld.param::entry.u32", Provenance::Hardware),
        (
            "ld.global.L2::cache_hint.L2::256B.u32",
            Provenance::Hardware,
        ),
        ("ld.local.v4.s16", Provenance::Spec),
        ("ld.param.v2.s16", Provenance::Spec),
        (
            "ld.acquire.sys.global.L1::evict_first.L2::cache_hint.L2::64B.u32",
            Provenance::Spec,
        ),
        ("ldu.global.v2.f64", Provenance::Hardware),
        ("ldu.v4.s8", Provenance::Spec),
        ("st.release.cta.shared::cta.u32", Provenance::Hardware),
        ("st.global.v4.b8", Provenance::Hardware),
        ("st.shared::cluster.v2.f64", Provenance::Spec),
        ("st.local.b128", Provenance::Spec),
        ("st.mmio.relaxed.sys.global.u32", Provenance::Hardware),
        ("isspacep.param::entry", Provenance::Hardware),
        ("cvta.to.shared::cluster.u64", Provenance::Hardware),
        ("cvta.shared::cta.u64", Provenance::Hardware),
        ("cvta.param.u64", Provenance::Spec),
        ("mapa.shared::cluster.u64", Provenance::Hardware),
        ("getctarank.shared::cluster.u64", Provenance::Spec),
        ("getctarank.u64", Provenance::Hardware),
    ] {
        assert_eq!(have.get(form), Some(&provenance), "{form}");
    }
    // sm_100 forms are not sm_90's
    for form in [
        "ld.global.v8.f32",
        "ld.global.v4.u64",
        "st.global.L2::evict_last.v8.b32",
    ] {
        assert!(!have.contains_key(form), "{form}");
    }
    // every catalogue row of these instructions has groups
    let cat = ptx_semantics::catalogue::Catalogue::get();
    let covered: std::collections::HashSet<&str> = built
        .iter()
        .filter_map(|b| cat.resolve_text(&b.group.form).ok())
        .map(|b| b.form.row.id)
        .collect();
    for form in &cat.forms {
        let instr = form.row.instr;
        if [
            "ld",
            "ld.global.nc",
            "ldu",
            "st",
            "isspacep",
            "cvta",
            "mapa",
            "getctarank",
        ]
        .contains(&instr)
        {
            assert!(
                covered.contains(form.row.id),
                "row {} has no group",
                form.row.id
            );
        }
    }
    // what has no group, and why: never a kernel the checker rejects
    let mut skipped = mem::skipped();
    skipped.extend(addr::skipped());
    for (form, why) in &skipped {
        assert!(
            !have.contains_key(form.as_str()),
            "{form} has a group and a reason"
        );
        let known = why.contains(".param::func")
            || why.contains("two 8-byte pointers")
            || why.contains(".address_size 64");
        assert!(known, "{form}: {why}");
    }
    assert_eq!(
        skipped
            .iter()
            .filter(|(f, _)| f.starts_with("cvta"))
            .count(),
        16,
        "the 32-bit cvta forms"
    );
}
