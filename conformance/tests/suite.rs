//! `conform gen` and `conform run`: deterministic suites, the simulator
//! passing its own suite, failures found where the expectation is wrong,
//! and errors on bad input.

mod common;

use common::{conform, files, tmp};
use std::path::Path;

const FILTER: &[&str] = &[
    "--filter",
    "cvt.rn.f16.f32*",
    "--filter",
    "cvt.rzi.s8.f32*",
    "--filter",
    "prmt.b32*",
    "--filter",
    "mov.b64*",
    "--filter",
    "shfl.sync.idx*",
    "--filter",
    "cvt.pack.sat.s8.s32.b32*",
    "--filter",
    "cvt.rs.satfinite.e4m3x4.f32*",
];

fn gen(dir: &Path, seed: &str) {
    let mut args = vec!["gen", "-q", "--random", "300", "--seed", seed, "--out"];
    let d = dir.to_str().unwrap();
    args.push(d);
    args.extend_from_slice(FILTER);
    let (rc, _, err) = conform(&args);
    assert_eq!(rc, 0, "{err}");
}

#[test]
fn same_seed_same_bytes() {
    let (a, b, c) = (
        tmp("ptx-suite-test", "a"),
        tmp("ptx-suite-test", "b"),
        tmp("ptx-suite-test", "c"),
    );
    gen(&a, "7");
    gen(&b, "7");
    gen(&c, "8");
    let (fa, fb, fc) = (files(&a), files(&b), files(&c));
    assert!(fa.len() > 10);
    assert_eq!(fa, fb, "two suites from seed 7 differ");
    // the random groups depend on the seed
    assert_ne!(fa, fc);
    for d in [a, b, c] {
        let _ = std::fs::remove_dir_all(d);
    }
}

fn results(dir: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join("results.json")).unwrap()).unwrap()
}

#[test]
fn simulator_passes_and_a_wrong_expectation_fails() {
    let s = tmp("ptx-suite-test", "run");
    gen(&s, "1");
    let manifest = std::fs::read_to_string(s.join("manifest.yaml")).unwrap();
    let total: u64 = manifest
        .lines()
        .find_map(|l| l.strip_prefix("cases: "))
        .unwrap()
        .parse()
        .unwrap();
    let out = tmp("ptx-suite-test", "run-out");
    let (rc, stdout, err) = conform(&[
        "run",
        "--impl",
        "simulator",
        "-q",
        "--suite",
        s.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(rc, 0, "{err}");
    assert!(stdout.contains(out.to_str().unwrap()), "{stdout}");
    let r = results(&out);
    assert_eq!(r["totals"]["pass"].as_u64(), Some(total));
    assert_eq!(r["complete"].as_bool(), Some(true));
    for fam in ["cvt", "prmt", "mov", "shfl.sync", "cvt.pack"] {
        assert!(r["families"][fam]["pass"].as_u64().unwrap() > 0, "{fam}");
    }

    // Flip one expected bit of case 3 of the f16 edge group: exactly that
    // case fails, with its inputs and both values.
    let data = s.join("data/cvt.rn.f16.f32-edge.bin");
    let mut bytes = std::fs::read(&data).unwrap();
    let cases = bytes.len() / (4 + 2);
    let at = cases * 4 + 3 * 2;
    bytes[at] ^= 0x10;
    std::fs::write(&data, &bytes).unwrap();
    let out2 = tmp("ptx-suite-test", "run-out2");
    let (rc, _, _) = conform(&[
        "run",
        "--impl",
        "simulator",
        "-q",
        "--suite",
        s.to_str().unwrap(),
        "--out",
        out2.to_str().unwrap(),
    ]);
    assert_eq!(rc, 1);
    let r = results(&out2);
    assert_eq!(r["totals"]["fail"].as_u64(), Some(1));
    let g = r["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == "cvt.rn.f16.f32/edge")
        .unwrap();
    let f = &g["failures"][0];
    assert_eq!(f["case"], "cvt.rn.f16.f32/edge#3");
    let exp = u64::from_str_radix(
        f["expected"][0]["hex"]
            .as_str()
            .unwrap()
            .trim_start_matches("0x"),
        16,
    )
    .unwrap();
    let act = u64::from_str_radix(
        f["actual"][0]["hex"]
            .as_str()
            .unwrap()
            .trim_start_matches("0x"),
        16,
    )
    .unwrap();
    assert_eq!(exp ^ act, 0x10);
    for d in [s, out, out2] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn bad_input_exits_2() {
    // gen into an existing folder
    let d = tmp("ptx-suite-test", "exists");
    std::fs::create_dir_all(&d).unwrap();
    let (rc, _, err) = conform(&[
        "gen",
        "-q",
        "--out",
        d.to_str().unwrap(),
        "--filter",
        "prmt*",
    ]);
    assert_eq!(rc, 2);
    assert!(err.contains("already exists"), "{err}");
    // a manifest with a syntax error: file, line and column
    std::fs::write(
        d.join("manifest.yaml"),
        "format: ptx-conform-suite/1\ngroups: [\n  - id: x\n",
    )
    .unwrap();
    let out = tmp("ptx-suite-test", "exists-out");
    let (rc, err) = common::run_simulator(&d, &out);
    assert_eq!(rc, 2);
    assert!(err.contains("manifest.yaml:"), "{err}");
    // an unknown implementation
    let (rc, _, err) = conform(&["run", "--impl", "nonsense", "--suite", d.to_str().unwrap()]);
    assert_eq!(rc, 2);
    assert!(err.contains("simulator, cuda or command:PROGRAM"), "{err}");
    // a filter matching nothing
    let (rc, _, err) = conform(&[
        "gen",
        "-q",
        "--out",
        tmp("ptx-suite-test", "none").to_str().unwrap(),
        "--filter",
        "zzz*",
    ]);
    assert_eq!(rc, 2);
    assert!(err.contains("no group matches"), "{err}");
    let _ = std::fs::remove_dir_all(d);
    let _ = std::fs::remove_dir_all(out);
}

/// The built-in suite is written once into the cache and reused: the run
/// folder holds the results only; another seed is another suite.
#[test]
fn the_built_in_suite_is_cached_not_copied_into_every_run() {
    let cache = tmp("ptx-suite-test", "cache");
    let run = |out: &Path, seed: &str| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_conform"))
            .args(["run", "--impl", "simulator", "-q", "--seed", seed, "--out"])
            .arg(out)
            .args(["--filter", "prmt.b32*"])
            .env("PTX_CONFORM_CACHE", &cache)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let (a, b, c) = (
        tmp("ptx-suite-test", "cached-a"),
        tmp("ptx-suite-test", "cached-b"),
        tmp("ptx-suite-test", "cached-c"),
    );
    let first = run(&a, "1");
    assert!(first.contains("generated the default suite"), "{first}");
    let second = run(&b, "1");
    assert!(second.contains("generated before"), "{second}");
    for d in [&a, &b] {
        assert!(d.join("results.json").exists());
        assert!(
            !d.join("suite").exists(),
            "no suite copy in {}",
            d.display()
        );
    }
    let same = |d: &Path| results(d)["suite"]["path"].clone();
    assert_eq!(same(&a), same(&b));
    let third = run(&c, "2");
    assert!(third.contains("generated the default suite"), "{third}");
    assert_ne!(same(&a), same(&c));
    let suites = std::fs::read_dir(&cache).unwrap().count();
    assert_eq!(suites, 2, "one suite per seed");
    for d in [a, b, c, cache] {
        let _ = std::fs::remove_dir_all(d);
    }
}
