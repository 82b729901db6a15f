//! `conform run --impl cuda --libcuda target/release/libcuda.so`: the
//! driver library whose device is the simulator (the `ptx-libcuda` crate)
//! must give every group of a slice of the default suite the result
//! `--impl simulator` gives it: the same counts and the same digests of the
//! output bytes. Groups the driver's device does not claim (a target past
//! sm_90a) are skipped there, and only there. The release library is built
//! when missing (`cargo build --release -p ptx-libcuda`), or `PTX_LIBCUDA`
//! names one. See: issue 20.
#![cfg(feature = "cuda")]

mod common;

use common::{groups_by_id, results, tmp};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Groups of several families: byte permutes, tensor maps and their
/// copies (cuTensorMapEncodeTiled and Im2col through the library),
/// clusters (mapa, getctarank), generic addresses, shuffles, uncached
/// loads, and float division.
const SLICE: &[&str] = &[
    "prmt*",
    "tensormap*",
    "cp.async.bulk.tensor*",
    "mapa*",
    "getctarank*",
    "cvta*",
    "isspacep*",
    "shfl*",
    "ldu*",
    "div*",
];

/// The library: `PTX_LIBCUDA` names it, or the release build's.
fn library() -> PathBuf {
    if let Some(p) = std::env::var_os("PTX_LIBCUDA") {
        return PathBuf::from(p);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    target.join("release/libcuda.so")
}

/// Builds the release library (`cargo build --release -p ptx-libcuda`, the
/// target directory this test runs from) when it is missing, so that
/// `cargo test` alone runs this test; whether it is there after.
fn build_library(lib: &Path) -> bool {
    if lib.is_file() {
        return true;
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
    let status = Command::new(cargo)
        .args([
            "build",
            "--release",
            "-q",
            "-p",
            "ptx-libcuda",
            "--manifest-path",
        ])
        .arg(&manifest)
        .status();
    assert!(
        status.as_ref().is_ok_and(|s| s.success()),
        "cargo build --release -p ptx-libcuda: {status:?}"
    );
    lib.is_file()
}

/// `conform run` of the slice; the library keeps the simulator's bits where
/// they are unspecified (`PTX_LIBCUDA_UNSPECIFIED=keep`), as `--impl
/// simulator` does: its default fill replaces every byte that holds an
/// unspecified bit, defined bits beside them too (docs/libcuda.md).
fn run(implementation: &str, out: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "run",
        "--impl",
        implementation,
        "-q",
        "--out",
        out.to_str().unwrap(),
    ];
    for f in SLICE {
        args.extend(["--filter", f]);
    }
    args.extend(extra);
    let o = Command::new(env!("CARGO_BIN_EXE_conform"))
        .args(&args)
        .env("PTX_LIBCUDA_UNSPECIFIED", "keep")
        .output()
        .expect("run conform");
    assert!(
        o.status.success(),
        "conform run --impl {implementation}:\n{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    results(&out.join("results.json"))
}

#[test]
fn the_simulator_behind_the_driver_api_agrees_with_the_simulator() {
    let lib = library();
    if !build_library(&lib) {
        eprintln!(
            "skipped: {} is missing (cargo build --release -p ptx-libcuda builds it)",
            lib.display()
        );
        return;
    }
    let lib = std::fs::canonicalize(&lib).unwrap();
    let sim_out = tmp("libcuda-self", "simulator");
    let cuda_out = tmp("libcuda-self", "cuda");
    let sim = run("simulator", &sim_out, &[]);
    let cuda = run("cuda", &cuda_out, &["--libcuda", lib.to_str().unwrap()]);
    assert_eq!(
        cuda["implementation"]["details"]["compute_capability"],
        "9.0"
    );
    let (s, c) = (groups_by_id(&sim), groups_by_id(&cuda));
    assert_eq!(s.len(), c.len(), "the same groups");
    let mut compared = 0;
    let mut problems = Vec::new();
    for (id, cg) in &c {
        let sg = &s[id];
        if cg["counts"]["skip"].as_u64() != Some(0) {
            let reason = cg["reason"].as_str().unwrap_or("");
            if !reason.contains("needs sm_1") {
                problems.push(format!("{id}: skipped: {reason}"));
            }
            continue;
        }
        compared += 1;
        if cg["counts"] != sg["counts"] || cg["digests"] != sg["digests"] {
            problems.push(format!(
                "{id}: cuda {} {} / simulator {} {}",
                cg["counts"], cg["digests"], sg["counts"], sg["digests"]
            ));
        }
        if cg["counts"]["pass"].as_u64().unwrap_or(0) == 0 {
            problems.push(format!("{id}: no case passed: {}", cg["counts"]));
        }
    }
    assert!(
        compared >= 100,
        "only {compared} groups ran through the library"
    );
    assert!(
        problems.is_empty(),
        "{} group(s) differ:\n{}",
        problems.len(),
        problems.join("\n")
    );
    let _ = std::fs::remove_dir_all(&sim_out);
    let _ = std::fs::remove_dir_all(&cuda_out);
}
