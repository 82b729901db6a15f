//! `conform run --impl cuda` without a GPU: a stand-in driver library
//! (tests/fake_libcuda/fake_libcuda.c, built here with the system's C
//! compiler) runs the groups, and the batched layout (several workers,
//! modules of many groups, JIT threads) must give every group the result
//! the old layout gives (one worker, one module a group), through JIT
//! errors, faults, a timeout and a worker that dies in the JIT.
#![cfg(feature = "cuda")]

mod common;

use common::{conform, tmp};
use ptx_gen::suite::manifest::Manifest;
use std::path::Path;

/// The stand-in driver, compiled into `dir`; `None` when no C compiler
/// runs here.
fn fake_driver(dir: &Path) -> Option<std::path::PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_libcuda/fake_libcuda.c");
    let lib = dir.join("libfakecuda.so");
    std::fs::create_dir_all(dir).unwrap();
    let built = std::process::Command::new("cc")
        .args(["-shared", "-fPIC", "-O1", "-o"])
        .arg(&lib)
        .arg(&src)
        .status();
    match built {
        Ok(s) if s.success() => Some(lib),
        other => {
            eprintln!("skipped: no C compiler built the stand-in driver ({other:?})");
            None
        }
    }
}

/// Puts `// MARK` on the line before the entry's closing brace.
fn mark(kernel: &Path, mark: &str) {
    let text = std::fs::read_to_string(kernel).unwrap();
    let at = text.rfind("\n}").unwrap();
    let marked = format!("{}\n\t// {mark}{}", &text[..at], &text[at..]);
    std::fs::write(kernel, marked).unwrap();
}

fn results(dir: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join("results.json")).unwrap()).unwrap()
}

#[test]
fn batches_give_every_group_its_result_alone() {
    let work = tmp("ptx-cuda-batches", "work");
    let Some(lib) = fake_driver(&work) else {
        return;
    };
    let suite = work.join("suite");
    let (rc, _, err) = conform(&[
        "gen",
        "-q",
        "--random",
        "16",
        "--out",
        suite.to_str().unwrap(),
        "--filter",
        "prmt.b32*",
        "--filter",
        "mov.b64*",
        "--filter",
        "cvt.rzi.s8.f32*",
        "--filter",
        "cvt.rn.f16.*",
        "--filter",
        "ld.global.v2*",
        // module-scope variables: never merged
        "--filter",
        "cvta.const.u64*",
        // cluster launches
        "--filter",
        "cp.async.bulk.shared::cluster.global*",
    ]);
    assert_eq!(rc, 0, "{err}");
    let m = Manifest::read(&suite).unwrap();
    let runs: Vec<_> = m.groups.iter().filter(|g| g.target == "sm_90").collect();
    assert!(runs.len() > 30, "{}", runs.len());
    // two faults side by side, a JIT error, a worker dying in the JIT, a
    // kernel that never ends
    let marks = [
        (3, "FAULT"),
        (4, "FAULT"),
        (9, "frobnicate"),
        (17, "CRASH"),
        (22, "HANG"),
    ];
    for (i, what) in marks {
        mark(&suite.join(&runs[i].kernel), what);
    }
    let run = |name: &str, layout: &[&str]| {
        let out = work.join(name);
        let mut args = vec![
            "run",
            "--impl",
            "cuda",
            "--libcuda",
            lib.to_str().unwrap(),
            "-q",
            "--timeout",
            "1",
            "--suite",
            suite.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(layout);
        let (rc, stdout, err) = conform(&args);
        assert_eq!(rc, 1, "{stdout}{err}");
        results(&out)
    };
    let alone = run(
        "alone",
        &["-j", "1", "--groups-per-module", "1", "--jit-threads", "1"],
    );
    let batched = run(
        "batched",
        &["-j", "3", "--groups-per-module", "4", "--jit-threads", "2"],
    );
    let details = &batched["implementation"]["details"];
    assert!(
        details["jit"].as_str().unwrap().contains("up to 4 groups"),
        "{details}"
    );
    let (a, b) = (
        alone["groups"].as_array().unwrap(),
        batched["groups"].as_array().unwrap(),
    );
    assert_eq!(a.len(), m.groups.len());
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert_eq!(x["id"], y["id"]);
        for field in ["counts", "reason", "digests", "failures"] {
            assert_eq!(x[field], y[field], "{} {field}", x["id"]);
        }
    }
    // the marked groups, and they alone, are errors, each for its reason
    let reason = |i: usize| {
        let g = b.iter().find(|g| g["id"] == runs[i].id.as_str()).unwrap();
        assert_eq!(g["counts"]["error"], runs[i].cases, "{}", runs[i].id);
        g["reason"].as_str().unwrap().to_string()
    };
    for i in [3, 4] {
        let r = reason(i);
        assert!(
            r.starts_with("the kernel: CUDA_ERROR_ILLEGAL_ADDRESS"),
            "{r}"
        );
        assert!(r.ends_with("its worker process ended, and the next groups run in a new one"));
    }
    assert!(reason(9).starts_with("JIT (cuModuleLoadDataEx): CUDA_ERROR_INVALID_PTX"));
    assert!(
        reason(17).starts_with("the CUDA worker died"),
        "{}",
        reason(17)
    );
    assert!(reason(22).starts_with("the kernel ran past the timeout (1 s)"));
    let errors: u64 = b
        .iter()
        .map(|g| g["counts"]["error"].as_u64().unwrap())
        .sum();
    let marked: u64 = marks.iter().map(|&(i, _)| runs[i].cases).sum();
    assert_eq!(errors, marked);
    let _ = std::fs::remove_dir_all(&work);
}
