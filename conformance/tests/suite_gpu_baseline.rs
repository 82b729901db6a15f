//! The default suite on an NVIDIA H200 (`conform run --impl cuda`, results
//! in corpus/suite/sm_90/gpu-results.json.gz, with per-group digests of
//! what the GPU wrote): the simulator must write the same compared bits in
//! every group where the GPU passed, and the GPU's failures must all be in
//! the forms where sm_90 is known to depart from the spec
//! (corpus/cvt/hardware/sm_90/divergences.tsv).

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::path::Path;
use std::process::Command;

fn conform(args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_conform"))
        .args(args)
        .output()
        .expect("run conform");
    assert!(
        out.status.code() == Some(0),
        "conform {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn read_json(path: &Path) -> serde_json::Value {
    let mut text = Vec::new();
    let f = std::fs::File::open(path).unwrap();
    if path.extension().is_some_and(|e| e == "gz") {
        flate2::read::GzDecoder::new(f)
            .read_to_end(&mut text)
            .unwrap();
    } else {
        std::io::BufReader::new(f).read_to_end(&mut text).unwrap();
    }
    serde_json::from_slice(&text).unwrap()
}

#[test]
fn simulator_reproduces_the_gpu_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let gpu = read_json(&root.join("corpus/suite/sm_90/gpu-results.json.gz"));
    let divergent: HashSet<String> =
        std::fs::read_to_string(root.join("corpus/cvt/hardware/sm_90/divergences.tsv"))
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .map(|l| l.split('\t').next().unwrap().to_string())
            .collect();
    let tmp = std::env::temp_dir().join(format!("ptx-gpu-baseline-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let (suite, out) = (tmp.join("suite"), tmp.join("out"));
    let seed = gpu["suite"]["seed"].as_u64().unwrap().to_string();
    conform(&[
        "gen",
        "-q",
        "--seed",
        &seed,
        "--out",
        suite.to_str().unwrap(),
    ]);
    conform(&[
        "run",
        "--impl",
        "simulator",
        "-q",
        "--suite",
        suite.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let sim = read_json(&out.join("results.json"));
    let sim_groups: HashMap<&str, &serde_json::Value> = sim["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["id"].as_str().unwrap(), g))
        .collect();
    let (mut same, mut cases, mut divergent_cases) = (0, 0u64, 0u64);
    for g in gpu["groups"].as_array().unwrap() {
        let id = g["id"].as_str().unwrap();
        let Some(d) = g.get("digests") else {
            // skipped on the GPU: a form sm_90 rejects
            assert!(g["counts"]["skip"].as_u64().unwrap() > 0, "{id}");
            continue;
        };
        let s = sim_groups.get(id).unwrap_or_else(|| {
            panic!("{id}: not in the regenerated suite (regenerate the baseline)")
        });
        assert_eq!(
            s["digests"]["input"], d["input"],
            "{id}: the suite's inputs changed since the GPU run (regenerate the baseline)"
        );
        let fails = g["counts"]["fail"].as_u64().unwrap();
        if fails == 0 {
            assert_eq!(
                s["digests"]["output"], d["output"],
                "{id}: the simulator and the GPU differ"
            );
            same += 1;
            cases += g["counts"]["pass"].as_u64().unwrap();
        } else {
            let form = g["form"].as_str().unwrap();
            assert!(
                divergent.contains(form),
                "{id}: the GPU failed {fails} case(s) of an unlisted form"
            );
            divergent_cases += fails;
        }
    }
    eprintln!("{same} groups, {cases} cases the same on the simulator and the GPU; {divergent_cases} listed divergences");
    assert!(same > 1700, "{same}");
    let _ = std::fs::remove_dir_all(&tmp);
}
