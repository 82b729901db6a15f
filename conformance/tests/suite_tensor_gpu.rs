//! The tensor-copy and tensormap.replace groups of the default suite
//! (gen/src/suite/tensor.rs, tensormap.rs) on
//! an H100: corpus/suite/sm_90/tensor-results.json.gz is `conform run
//! --impl cuda` over `conform gen --filter` of those families (the seed it
//! names; two runs gave the same counts). Every group passed there, every
//! case, with the inputs the regenerated group has; and the simulator
//! passes them too. See: issue 16, docs/tensor-observations.md.

mod common;

use common::{conform, gpu_group_problem, groups_by_id as by_id, results as read, tmp};
use ptx_gen::suite::manifest::{Manifest, Provenance};
use ptx_gen::suite::tensor;
use std::path::Path;

const FILTERS: &[&str] = &[
    "cp.async.bulk.tensor*",
    "cp.reduce.async.bulk.tensor*",
    "cp.async.bulk.prefetch.tensor*",
    "tensormap.replace*",
];

#[test]
fn the_tensor_groups_on_an_h100() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let gpu = read(&root.join(tensor::GPU_RESULTS));
    assert_eq!(gpu["implementation"]["name"], "cuda");
    assert_eq!(gpu["complete"], true);
    let seed = gpu["suite"]["seed"].as_u64().unwrap();
    let (suite, out) = (tmp("ptx-tensor-gpu", "suite"), tmp("ptx-tensor-gpu", "out"));
    let mut args = vec![
        "gen".to_string(),
        "-q".into(),
        "--seed".into(),
        seed.to_string(),
    ];
    args.extend(["--out".into(), suite.display().to_string()]);
    for f in FILTERS {
        args.extend(["--filter".to_string(), f.to_string()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (rc, _, err) = conform(&args);
    assert_eq!(rc, 0, "{err}");
    let (rc, err) = common::run_simulator(&suite, &out);
    assert_eq!(rc, 0, "the simulator fails a tensor group: {err}");
    let sim =
        by_id(&serde_json::from_slice(&std::fs::read(out.join("results.json")).unwrap()).unwrap());
    let hw = by_id(&gpu);
    let m = Manifest::read(&suite).unwrap();
    let mut problems = Vec::new();
    let mut cases = 0;
    let mut spec = 0;
    for g in &m.groups {
        if g.target != "sm_90a" {
            // sm_100 groups (`.tile::gather4`, `.tile::scatter4`): from the
            // spec, not in the GPU run
            assert_eq!(g.provenance, Provenance::Spec, "{}", g.id);
            assert!(
                !hw.contains_key(&g.id),
                "{}: an sm_100 group the GPU ran",
                g.id
            );
            spec += 1;
            continue;
        }
        assert_eq!(g.provenance, Provenance::Hardware, "{}", g.id);
        problems.extend(gpu_group_problem(
            &g.id,
            g.cases,
            &sim[&g.id],
            hw.get(&g.id),
        ));
        cases += g.cases;
    }
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(
        m.groups.len() - spec >= 368 && cases >= 5888,
        "{} groups",
        m.groups.len()
    );
}
