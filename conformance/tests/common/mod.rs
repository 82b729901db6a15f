//! What the integration tests of `conform` share: running the binary,
//! scratch folders, and a suite folder's files.
// Each test binary uses its own part of this module.
#![allow(dead_code)]

pub mod sweep;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `conform ARGS`: its exit code, stdout and stderr.
pub fn conform(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_conform"))
        .args(args)
        .output()
        .expect("run conform");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A scratch path under the temporary folder, unique to this process
/// (`prefix` names the test file), removed if it was there.
pub fn tmp(prefix: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("{prefix}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Every file of a suite folder (the manifest, kernels and data), by path,
/// in a fixed order.
pub fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for sub in ["", "kernels", "data"] {
        let mut names: Vec<_> = std::fs::read_dir(dir.join(sub))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .collect();
        names.sort();
        for p in names {
            out.push((
                p.strip_prefix(dir).unwrap().display().to_string(),
                std::fs::read(&p).unwrap(),
            ));
        }
    }
    out
}

/// `conform run --impl simulator -q` over a suite folder, results into
/// `out`: the exit code and standard error.
pub fn run_simulator(suite: &Path, out: &Path) -> (i32, String) {
    let (rc, _, err) = conform(&[
        "run",
        "--impl",
        "simulator",
        "-q",
        "--suite",
        suite.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    (rc, err)
}

/// A results file of `conform run` (gzip when it ends in `.gz`).
pub fn results(path: &Path) -> serde_json::Value {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if path.extension().is_some_and(|e| e == "gz") {
        let mut text = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut text)
            .unwrap();
        serde_json::from_slice(&text).unwrap()
    } else {
        serde_json::from_slice(&bytes).unwrap()
    }
}

/// A results file's groups by id.
pub fn groups_by_id(r: &serde_json::Value) -> std::collections::HashMap<String, serde_json::Value> {
    r["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["id"].as_str().unwrap().to_string(), g.clone()))
        .collect()
}

/// What is wrong, if anything, with a GPU run's record `hw` of a group of
/// `cases` cases that the simulator ran as `sim`: missing, other inputs, or
/// a case that did not pass.
#[allow(dead_code)]
pub fn gpu_group_problem(
    id: &str,
    cases: u64,
    sim: &serde_json::Value,
    hw: Option<&serde_json::Value>,
) -> Option<String> {
    let Some(h) = hw else {
        return Some(format!("{id}: not in the GPU run (run it again)"));
    };
    if sim["digests"]["input"] != h["digests"]["input"] {
        return Some(format!(
            "{id}: the inputs differ from those the GPU ran (run it again)"
        ));
    }
    let n = |k: &str| h["counts"][k].as_u64().unwrap_or(0);
    (n("pass") != cases || n("fail") + n("error") + n("skip") != 0)
        .then(|| format!("{id}: the GPU's counts are {}", h["counts"]))
}
