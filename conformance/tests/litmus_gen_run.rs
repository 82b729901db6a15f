//! `conform litmus gen` and `conform litmus run` as a user meets them:
//! the generated families and their verdicts, determinism for a seed, the
//! kernels the harness builds, and tests it cannot map (skipped with the
//! reason, never a crash). The GPU runs themselves are data
//! (litmus/results), not tests: CI has no GPU.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn conform(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_conform"))
        .args(args)
        .output()
        .expect("conform runs")
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("conform-litmus-gen-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn index(dir: &Path) -> serde_json::Value {
    let s = std::fs::read_to_string(dir.join("index.json")).expect("index.json");
    serde_json::from_str(&s).expect("index.json parses")
}

fn entry<'a>(ix: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    ix["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("{name} generated"))
}

#[test]
fn generated_message_passing_has_the_textbook_verdicts() {
    let dir = temp_dir("mp");
    let o = conform(&[
        "litmus",
        "gen",
        "--out",
        dir.to_str().unwrap(),
        "--family",
        "MP,SB",
        "-q",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let ix = index(&dir);
    let tests = ix["tests"].as_array().unwrap();
    // 6 strengths (weak without scope), 4 scopes, 7 placement and space pairs
    assert_eq!(tests.len(), 2 * (1 + 5 * 4) * 7);
    // PTX ISA 8.10: relaxed accesses to different locations may be seen
    // out of order by a thread of another CTA ...
    let relaxed = entry(&ix, "MP+relaxed.gpu.diff-cluster.global");
    assert_eq!(relaxed["cycle_outcome"], serde_json::json!([1, 0]));
    assert_eq!(relaxed["cycle_outcome_allowed"], true);
    // ... but a release store read by an acquire load at a scope that
    // includes both threads synchronizes, so the stale read is forbidden
    let ra = entry(&ix, "MP+rel-acq-sync.gpu.diff-cluster.global");
    assert_eq!(ra["cycle_outcome_allowed"], false);
    // at CTA scope two threads of different CTAs are not morally strong:
    // no synchronization, the stale read is allowed
    let cta = entry(&ix, "MP+rel-acq-sync.cta.diff-cluster.global");
    assert_eq!(cta["cycle_outcome_allowed"], true);
    // SB with fence.sc at gpu scope: Fence-SC order forbids both reading 0
    let sb = entry(&ix, "SB+fence-sc.gpu.same-cluster.global");
    assert_eq!(sb["cycle_outcome_allowed"], false);
    let sb_rel = entry(&ix, "SB+rel-acq.gpu.same-cluster.global");
    assert_eq!(sb_rel["cycle_outcome_allowed"], true);
    // every outcome of a 2-register test over {0, 1} is listed
    assert_eq!(relaxed["outcomes"].as_array().unwrap().len(), 4);
    // the file carries the verdicts in its header and parses back
    let file = dir.join(relaxed["file"].as_str().unwrap());
    let src = std::fs::read_to_string(&file).unwrap();
    assert!(src.contains("P1:r0=1 P1:r1=0: allowed"), "{src}");
    let check = conform(&["litmus", "check", file.to_str().unwrap()]);
    assert!(check.status.success(), "{}", text(&check));
    assert!(
        text(&check).contains(": 1 (exists: reachable)"),
        "{}",
        text(&check)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_same_seed_gives_the_same_files_and_another_seed_other_values() {
    let (a, b, c) = (temp_dir("a"), temp_dir("b"), temp_dir("c"));
    for (d, seed) in [(&a, "5"), (&b, "5"), (&c, "6")] {
        let o = conform(&[
            "litmus",
            "gen",
            "--out",
            d.to_str().unwrap(),
            "--family",
            "IRIW",
            "--seed",
            seed,
            "-q",
        ]);
        assert!(o.status.success(), "{}", text(&o));
    }
    let read = |d: &Path| {
        let mut files: Vec<(String, String)> = std::fs::read_dir(d.join("IRIW"))
            .unwrap()
            .map(|e| {
                let p = e.unwrap().path();
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read_to_string(&p).unwrap(),
                )
            })
            .collect();
        files.sort();
        files
    };
    assert_eq!(read(&a), read(&b));
    assert_ne!(read(&a), read(&c));
    assert_eq!(
        std::fs::read(a.join("index.json")).unwrap(),
        std::fs::read(b.join("index.json")).unwrap()
    );
    for d in [a, b, c] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn an_unknown_family_is_a_usage_error() {
    let dir = temp_dir("bad");
    let o = conform(&[
        "litmus",
        "gen",
        "--out",
        dir.to_str().unwrap(),
        "--family",
        "XYZ",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("no family `XYZ`"), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_kernel_uses_the_test_s_orders_scopes_and_spaces() {
    let dir = temp_dir("ptx");
    let o = conform(&[
        "litmus",
        "gen",
        "--out",
        dir.to_str().unwrap(),
        "--family",
        "MP",
        "-q",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let ptx = |name: &str| {
        let f = dir.join("MP").join(format!("{name}.litmus"));
        let o = conform(&["litmus", "run", "--print-ptx", f.to_str().unwrap()]);
        assert!(o.status.success(), "{}", text(&o));
        text(&o)
    };
    let g = ptx("MP+rel-acq-sync.gpu.diff-cluster.global");
    assert!(g.contains(".visible .entry litmus("), "{g}");
    assert!(g.contains("st.release.gpu.global.u32"), "{g}");
    assert!(g.contains("ld.acquire.gpu.global.u32"), "{g}");
    assert!(!g.contains("mapa"), "{g}");
    let d = ptx("MP+fence-sc.cluster.same-cluster.dsmem");
    assert!(d.contains("mapa.shared::cluster.u32"), "{d}");
    assert!(d.contains("st.relaxed.cluster.shared::cluster.u32"), "{d}");
    assert!(d.contains("fence.sc.cluster;"), "{d}");
    assert!(d.contains("barrier.cluster.wait"), "{d}");
    let w = ptx("MP+weak.noscope.same-warp.shared");
    assert!(w.contains("st.weak.shared::cta.u32"), "{w}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tests_the_harness_cannot_map_are_skipped_with_the_reason() {
    let dir = temp_dir("skip");
    let many: Vec<String> = (0..17).map(|i| format!("P{i}@cta 0,gpu 0")).collect();
    let code: Vec<String> = (0..17).map(|_| "st.relaxed.gpu x, 1".to_string()).collect();
    let big = format!(
        "PTX big\n{{\nx = 0;\n}}\n {} ;\n {} ;\nexists (x == 1)\n",
        many.join(" | "),
        code.join(" | ")
    );
    std::fs::write(dir.join("big.litmus"), big).unwrap();
    let mbar = "PTX bar\n{\nx = 0;\n}\n P0@cta 0,gpu 0      | P1@cta 0,gpu 0       ;\n st.relaxed.gpu x, 1 | bar.cta.sync 0       ;\n bar.cta.sync 0      | ld.relaxed.gpu r0, x ;\nexists (P1:r0 == 0)\n";
    std::fs::write(dir.join("mbar.litmus"), mbar).unwrap();
    let o = conform(&["litmus", "run", "--print-ptx", dir.to_str().unwrap()]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("big.litmus: cannot run: 17 threads"), "{t}");
    assert!(
        t.contains("mbar.litmus: cannot run: CTA and cluster barriers"),
        "{t}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_a_driver_the_run_is_an_error_naming_the_library() {
    let dir = temp_dir("nodrv");
    let o = conform(&[
        "litmus",
        "gen",
        "--out",
        dir.to_str().unwrap(),
        "--family",
        "CoWW",
        "-q",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let missing = dir.join("no-such-libcuda.so");
    let o = conform(&[
        "litmus",
        "run",
        dir.to_str().unwrap(),
        "--libcuda",
        missing.to_str().unwrap(),
        "--out",
        dir.join("results").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("no-such-libcuda.so"), "{}", text(&o));
    assert!(!text(&o).contains("panicked"), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_simulator_runs_every_default_test_and_shows_only_allowed_outcomes() {
    let dir = temp_dir("sim");
    let o = conform(&["litmus", "gen", "--out", dir.to_str().unwrap(), "-q"]);
    assert!(o.status.success(), "{}", text(&o));
    let out = dir.join("results");
    let o = conform(&[
        "litmus",
        "run",
        "--impl",
        "simulator",
        dir.to_str().unwrap(),
        "--instances",
        "500",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    // exit 0: no outcome the model forbids
    assert!(o.status.success(), "{}", text(&o));
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let tests = r["tests"].as_array().unwrap();
    assert!(tests.len() >= 2000, "{}", tests.len());
    // every test runs, the asynchronous families included
    let asynchronous = ["Proxy-", "Bulk-", "StAsync", "CpAsync", "Mbarrier-"];
    let (mut async_instances, mut async_incomplete) = (0, 0);
    for t in tests {
        let name = t["name"].as_str().unwrap();
        assert!(t["skipped"].is_null(), "{name}: {}", t["skipped"]);
        let instances = t["instances"].as_u64().unwrap();
        let incomplete = t["incomplete"].as_u64().unwrap();
        assert!(instances >= 500, "{name}");
        if asynchronous.iter().any(|p| name.starts_with(p)) {
            // a copy that reads generic writes with no proxy fence for
            // their space gets unspecified bits (PTX ISA 9.7.9.25.2): an
            // instance whose values are unspecified is incomplete
            async_instances += instances;
            async_incomplete += incomplete;
        } else {
            assert_eq!(incomplete, 0, "{name}");
        }
        let seen: u64 = t["histogram"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["count"].as_u64().unwrap())
            .sum();
        assert_eq!(seen + incomplete, instances, "{name}");
    }
    assert!(
        async_incomplete * 4 < async_instances,
        "{async_incomplete} of {async_instances} asynchronous instances incomplete"
    );
    // the interpreter interleaves whole threads: message passing never
    // shows its weak outcome there, but the sequential ones appear
    let mp = tests
        .iter()
        .find(|t| t["name"] == "MP+relaxed.gpu.diff-cluster.global")
        .unwrap();
    assert_eq!(mp["exists_seen"], 0);
    for f in ["results.html", "results.junit.xml"] {
        assert!(out.join(f).exists(), "{f}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_gpu_reproducers_have_the_verdicts_the_docs_give() {
    // docs/litmus-gpu.md, findings 1 and 2: the model allows a generic load
    // before a bulk copy to return the copied value unless a proxy fence
    // separates them, and forbids a stale load after a successful
    // try_wait.acquire, branch or no branch
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../litmus/results/repro");
    let o = conform(&["litmus", "check", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let t = text(&o);
    let verdict = |name: &str| {
        t.lines()
            .find(|l| l.contains(&format!("{name}.litmus:")))
            .unwrap_or_else(|| panic!("{name}: {t}"))
            .split(": ")
            .nth(1)
            .unwrap()
            .chars()
            .next()
            .unwrap()
    };
    assert_eq!(verdict("LdCopy-a"), '1');
    assert_eq!(verdict("LdCopy-b-fence"), '0');
    assert_eq!(verdict("LdCopy-c-relaxed"), '1');
    for m in [
        "MbarMP-a-state",
        "MbarMP-b-state-branch",
        "MbarMP-c-parity-count2",
        "MbarMP-d-parity-count1",
        "MbarMP-e-state-relaxed-load",
    ] {
        assert_eq!(verdict(m), '0', "{m}");
    }
}

#[test]
fn a_loop_gives_up_rather_than_hang_the_gpu() {
    // P1 spins until it reads the flag: on a GPU the instance could wait
    // for ever if the flag's store were lost; the kernel bounds the loop
    let dir = temp_dir("loop");
    let spin = "PTX spin\n{\nx = 0;\n}\n P0@cta 0,gpu 0      | P1@cta 1,gpu 0          ;\n st.relaxed.gpu x, 1 | LC00:                   ;\n                     | ld.relaxed.gpu r0, x    ;\n                     | beq r0, 0, LC00         ;\nexists (P1:r0 == 1)\n";
    let f = dir.join("spin.litmus");
    std::fs::write(&f, spin).unwrap();
    let o = conform(&["litmus", "run", "--print-ptx", f.to_str().unwrap()]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("T1_GIVE_UP:") && t.contains("65536"), "{t}");
    assert!(!t.contains("T0_GIVE_UP"), "P0 has no loop: {t}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 14: the outcomes the simulator reaches under every schedule of
/// its asynchronous operations (`--schedule all`, one instance a launch)
/// are outcomes the memory model allows, for our own litmus tests and the
/// generated asynchronous families.
#[test]
fn every_schedule_of_the_async_tests_gives_only_allowed_outcomes() {
    let dir = temp_dir("schedules");
    let families = [
        "Proxy-G2A",
        "Proxy-G2A-MP",
        "Proxy-A2G",
        "Proxy-A2G-remote",
        "Bulk-store",
        "Bulk-reduce",
        "Bulk-read-reuse",
        "StAsync",
        "CpAsync",
        "CpAsync-MP",
        "Mbarrier-MP",
    ];
    let mut args = vec!["litmus", "gen", "--out", dir.to_str().unwrap(), "-q"];
    for f in &families {
        args.extend(["--family", f]);
    }
    let o = conform(&args);
    assert!(o.status.success(), "{}", text(&o));
    let own = concat!(env!("CARGO_MANIFEST_DIR"), "/../memmodel/tests/litmus");
    let out = dir.join("results");
    let o = conform(&[
        "litmus",
        "run",
        "--impl",
        "simulator",
        dir.to_str().unwrap(),
        own,
        "--schedule",
        "all",
        "--instances",
        "1",
        "--iterations",
        "1",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    // exit 0: no outcome the model forbids, under any schedule
    assert!(o.status.success(), "{}", text(&o));
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let tests = r["tests"].as_array().unwrap();
    let ran: Vec<&str> = tests
        .iter()
        .filter(|t| t["skipped"].is_null())
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    // 87 generated, and most of our own 85 (the rest need barriers over
    // every thread, atomics or tensor copies, or have undefined behaviour)
    assert!(ran.len() >= 87 + 50, "{} ran: {ran:?}", ran.len());
    for t in tests {
        let seen: u64 = t["histogram"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|h| h["allowed"] == false)
            .map(|h| h["count"].as_u64().unwrap())
            .sum();
        assert_eq!(seen, 0, "{}", t["name"]);
    }
}
