//! The vector `mov` groups of the default suite (gen/src/suite/regs.rs,
//! `mov.v2`/`mov.v4` of every type up to 128 bits) on an H100:
//! corpus/suite/sm_90/mov-vec-results.json is `conform run --impl cuda
//! --filter 'mov.v*'` (driver 580.159.04, CUDA 13.0). Every group passed
//! there, every case, with the inputs the regenerated group has; and the
//! simulator passes them too.

mod common;

use common::{conform, gpu_group_problem, groups_by_id as by_id, results as read, tmp};
use ptx_gen::suite::manifest::{Manifest, Provenance};
use std::path::Path;

#[test]
fn the_vector_mov_groups_on_an_h100() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let gpu = read(&root.join("corpus/suite/sm_90/mov-vec-results.json"));
    assert_eq!(gpu["implementation"]["name"], "cuda");
    assert_eq!(gpu["complete"], true);
    let seed = gpu["suite"]["seed"].as_u64().unwrap().to_string();
    let (suite, out) = (tmp("ptx-movvec-gpu", "suite"), tmp("ptx-movvec-gpu", "out"));
    let suite_s = suite.display().to_string();
    let (rc, _, err) = conform(&[
        "gen", "-q", "--seed", &seed, "--out", &suite_s, "--filter", "mov.v*",
    ]);
    assert_eq!(rc, 0, "{err}");
    let out_s = out.display().to_string();
    let (rc, _, err) = conform(&[
        "run",
        "--impl",
        "simulator",
        "-q",
        "--suite",
        &suite_s,
        "--out",
        &out_s,
    ]);
    assert_eq!(rc, 0, "the simulator fails a vector mov group: {err}");
    let sim =
        by_id(&serde_json::from_slice(&std::fs::read(out.join("results.json")).unwrap()).unwrap());
    let hw = by_id(&gpu);
    let m = Manifest::read(&suite).unwrap();
    assert_eq!(m.groups.len(), 18, "mov.v2 x 11 types, mov.v4 x 7");
    let mut problems = Vec::new();
    for g in &m.groups {
        assert_eq!(g.provenance, Provenance::Hardware, "{}", g.id);
        problems.extend(gpu_group_problem(
            &g.id,
            g.cases,
            &sim[&g.id],
            hw.get(&g.id),
        ));
    }
    assert!(problems.is_empty(), "{problems:#?}");
}
