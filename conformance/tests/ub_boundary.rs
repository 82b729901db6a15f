//! `conform gen --ub-boundary` and `conform run --include-undefined`: the
//! groups on both sides of each precondition's edge. The defined side
//! passes on the simulator with the model's outputs; the undefined side is
//! skipped by default and, when run, detected with the precondition's own
//! clause (by the simulator, and through the command protocol); the
//! groups cover every precondition or say why not; generation is
//! deterministic and leaves the default suite alone. See: issue 7.
#![cfg(feature = "ub")]

mod common;

use common::{conform, files, tmp};
use ptx_gen::suite::boundary::{edges, NOT_AT_AN_EDGE};
use ptx_gen::suite::manifest::{Expect, Manifest, Provenance};
use std::path::Path;

/// The boundary groups only (and `extra` filters), seed `seed`.
fn gen(dir: &Path, seed: &str, ub: bool, filter: &str) {
    let mut args = vec![
        "gen",
        "-q",
        "--seed",
        seed,
        "--out",
        dir.to_str().unwrap(),
        "--filter",
        filter,
    ];
    if ub {
        args.push("--ub-boundary");
    }
    let (rc, _, err) = conform(&args);
    assert_eq!(rc, 0, "{err}");
}

fn run(suite: &Path, out: &Path, imp: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "run",
        "--impl",
        imp,
        "-q",
        "--suite",
        suite.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (rc, _, err) = conform(&args);
    assert!(rc == 0 || rc == 1, "{err}");
    serde_json::from_slice(&std::fs::read(out.join("results.json")).unwrap()).unwrap()
}

const BOUNDARY: &str = "*/boundary/*";

#[test]
fn same_seed_same_bytes_and_the_default_suite_unchanged() {
    let (a, b) = (tmp("ptx-ub-boundary", "a"), tmp("ptx-ub-boundary", "b"));
    gen(&a, "5", true, BOUNDARY);
    gen(&b, "5", true, BOUNDARY);
    let fa = files(&a);
    assert!(fa.len() > 2 * edges().len(), "{}", fa.len());
    assert_eq!(fa, files(&b), "two boundary suites from seed 5 differ");
    // --ub-boundary adds groups and changes none: a filter that selects
    // none of them gives the same folder with and without it
    let (c, d) = (tmp("ptx-ub-boundary", "c"), tmp("ptx-ub-boundary", "d"));
    gen(&c, "5", true, "prmt*");
    gen(&d, "5", false, "prmt*");
    assert_eq!(files(&c), files(&d));
    let text = std::fs::read_to_string(d.join("manifest.yaml")).unwrap();
    assert!(!text.contains("expect:") && !text.contains("boundary:"));
    for dir in [a, b, c, d] {
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn every_precondition_has_an_edge_or_a_reason() {
    let with_edge: Vec<&str> = edges().iter().map(|e| e.pre.id).collect();
    for p in ptx_semantics::precond::table::all() {
        let listed = NOT_AT_AN_EDGE.iter().any(|(id, _)| *id == p.id);
        assert!(
            with_edge.contains(&p.id) != listed,
            "{}: give it boundary groups or a reason in NOT_AT_AN_EDGE, not both",
            p.id
        );
    }
    for (id, _) in NOT_AT_AN_EDGE {
        assert!(
            ptx_semantics::precond::table::all()
                .iter()
                .any(|p| p.id == *id),
            "{id}: no such precondition"
        );
    }
    // the edges ptx_ub::boundary knows all have groups
    for e in ptx_ub::boundary::standard() {
        assert!(with_edge.contains(&e.pre.id), "{}", e.pre.id);
    }
}

#[test]
fn defined_side_passes_undefined_side_skipped_then_detected() {
    let s = tmp("ptx-ub-boundary", "run");
    gen(&s, "1", true, BOUNDARY);
    let m = Manifest::read(&s).unwrap();
    assert_eq!(m.groups.len(), 2 * edges().len());
    for e in edges() {
        for side in ["defined", "undefined"] {
            let id = e.group_id(side);
            assert!(m.groups.iter().any(|g| g.id == id), "no group {id}");
        }
    }
    // every kernel is legal PTX
    let kernels: Vec<String> = m
        .groups
        .iter()
        .map(|g| s.join(&g.kernel).display().to_string())
        .collect();
    let mut args = vec!["check"];
    args.extend(kernels.iter().map(String::as_str));
    let (rc, out, err) = conform(&args);
    assert_eq!(rc, 0, "{out}{err}");

    let by_id = |r: &serde_json::Value, id: &str| -> serde_json::Value {
        r["groups"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .unwrap_or_else(|| panic!("{id}: not in the results"))
            .clone()
    };
    let out = tmp("ptx-ub-boundary", "run-out");
    let r = run(&s, &out, "simulator", &[]);
    for g in &m.groups {
        let got = by_id(&r, &g.id);
        let b = g.boundary.as_ref().unwrap();
        match g.expect {
            Expect::Defined => {
                assert_eq!(
                    got["counts"]["pass"].as_u64(),
                    Some(g.cases),
                    "{}: {got}",
                    g.id
                );
                assert!(got.get("expect").is_none());
                // the defined side is the last value where it holds (the
                // first, for a lower edge: a range given high end first)
                let e = edges()
                    .into_iter()
                    .find(|e| e.group_id("defined") == g.id)
                    .unwrap();
                assert_eq!(b.value > b.other, e.lower(), "{}", g.id);
            }
            Expect::Undefined => {
                assert_eq!(got["counts"]["skip"].as_u64(), Some(g.cases), "{}", g.id);
                assert!(got["reason"]
                    .as_str()
                    .unwrap()
                    .contains("--include-undefined"));
                assert_eq!(got["expect"], "undefined");
            }
        }
    }
    // with --include-undefined: each detected with its own clause, by the
    // simulator and by conform-faulty through the command protocol
    let faulty = format!("command:{}", env!("CARGO_BIN_EXE_conform-faulty"));
    let (out2, out3) = (
        tmp("ptx-ub-boundary", "run-out2"),
        tmp("ptx-ub-boundary", "run-out3"),
    );
    for (imp, out) in [("simulator", &out2), (faulty.as_str(), &out3)] {
        let r = run(&s, out, imp, &["--include-undefined"]);
        assert_eq!(r["totals"]["fail"].as_u64(), Some(0), "{imp}");
        assert_eq!(r["totals"]["skip"].as_u64(), Some(0), "{imp}");
        for g in m.groups.iter().filter(|g| g.expect == Expect::Undefined) {
            let got = by_id(&r, &g.id);
            let b = g.boundary.as_ref().unwrap();
            assert_eq!(
                got["counts"]["pass"].as_u64(),
                Some(g.cases),
                "{imp} {}",
                g.id
            );
            let said = got["detected"].as_str().unwrap();
            // (the command protocol keeps 400 characters of the program's
            // message: a long clause after a long instruction is cut, and
            // what is left must be the clause's start)
            let head = format!("PTX ISA {}: ", b.section);
            let told = said
                .split_once(&head)
                .map_or("", |(_, rule)| rule.trim_end());
            let whole = told.starts_with(b.rule.as_str());
            let cut = imp != "simulator" && said.chars().count() >= 350 && b.rule.starts_with(told);
            assert!(told.len() >= 40 && (whole || cut), "{imp} {}: {said}", g.id);
        }
    }
    for d in [s, out, out2, out3] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// The simulator counts a detection only when it is the group's own
/// clause: name another in the manifest and the case fails.
#[test]
fn another_clause_is_not_a_detection() {
    let s = tmp("ptx-ub-boundary", "other");
    gen(&s, "1", true, "mapa*/boundary/mapa.rank/*");
    let path = s.join("manifest.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let rank = ptx_semantics::precond::table::MAPA_RANK.rule;
    let address = ptx_semantics::precond::table::MAPA_ADDRESS.rule;
    assert!(text.contains(rank));
    std::fs::write(&path, text.replace(rank, address)).unwrap();
    let out = tmp("ptx-ub-boundary", "other-out");
    let r = run(&s, &out, "simulator", &["--include-undefined"]);
    let g = r["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["expect"] == "undefined")
        .unwrap()
        .clone();
    assert_eq!(g["counts"]["fail"].as_u64(), Some(1), "{g}");
    assert!(
        g["reason"].as_str().unwrap().contains("not reported"),
        "{g}"
    );
    for d in [s, out] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// Every group the generator marks `provenance: hardware` ran on a GPU and
/// passed there: corpus/suite/sm_90/boundary-results.json (`conform run
/// --impl cuda --include-undefined` on an H100, over the boundary groups
/// of the seed it names) holds a group of the same id whose inputs have
/// the same digest as the regenerated group's, with every case passed and
/// none failed, skipped or in error, and whose outputs have the digest the
/// simulator's have. A group that claims `hardware` with no such record
/// fails the test. (The results file itself says `provenance: spec` for
/// these groups: the provenance they had when the GPU ran them.) See:
/// issue 21.
#[test]
fn hardware_provenance_is_a_passing_gpu_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let gpu: serde_json::Value = serde_json::from_slice(
        &std::fs::read(root.join("corpus/suite/sm_90/boundary-results.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(gpu["implementation"]["name"], "cuda");
    assert_eq!(gpu["complete"], true);
    let seed = gpu["suite"]["seed"].as_u64().unwrap().to_string();
    let s = tmp("ptx-ub-boundary", "hw");
    gen(&s, &seed, true, BOUNDARY);
    let m = Manifest::read(&s).unwrap();
    let out = tmp("ptx-ub-boundary", "hw-out");
    let sim = run(&s, &out, "simulator", &[]);
    let find = |r: &serde_json::Value, id: &str| -> Option<serde_json::Value> {
        r["groups"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .cloned()
    };
    let mut problems = Vec::new();
    let mut backed = 0;
    for g in m
        .groups
        .iter()
        .filter(|g| g.provenance == Provenance::Hardware)
    {
        let Some(hw) = find(&gpu, &g.id) else {
            problems.push(format!(
                "{}: hardware provenance, but not in the GPU run",
                g.id
            ));
            continue;
        };
        let counts = &hw["counts"];
        if counts["pass"].as_u64() != Some(g.cases)
            || ["fail", "skip", "error"]
                .iter()
                .any(|k| counts[k].as_u64() != Some(0))
        {
            problems.push(format!(
                "{}: hardware provenance, but the GPU did not pass all {} case(s): {counts}",
                g.id, g.cases
            ));
            continue;
        }
        if !hw["digests"]["output"].is_string() {
            problems.push(format!(
                "{}: hardware provenance, but the GPU run compared no outputs",
                g.id
            ));
            continue;
        }
        let ours = find(&sim, &g.id).unwrap();
        if ours["digests"]["input"] != hw["digests"]["input"] {
            problems.push(format!(
                "{}: the inputs differ from those the GPU ran (regenerate the GPU run)",
                g.id
            ));
            continue;
        }
        if ours["digests"]["output"] != hw["digests"]["output"] {
            problems.push(format!(
                "{}: the simulator's outputs differ from the GPU's",
                g.id
            ));
            continue;
        }
        backed += 1;
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // every edge that says so has its defined side of hardware provenance
    assert_eq!(backed, edges().iter().filter(|e| e.hardware).count());
    for d in [s, out] {
        let _ = std::fs::remove_dir_all(d);
    }
}
