//! `conform litmus` as a user meets it: verdicts, comparison with a CSV of
//! expected verdicts (exit 1 on any mismatch), located syntax errors (exit 2)
//! and the explanation in text and DOT.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn dat3m() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../litmus/tests/dat3m-ptx")
}

fn conform_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_conform"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("conform runs")
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("conform-litmus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn both_public_csvs_agree_through_the_cli() {
    let out = conform_in(
        &dat3m(),
        &[
            "litmus",
            "check",
            "--expected",
            "PTXv7_5-expected.csv",
            "-q",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("264 tests under ptx7.5: 264 agree, 0 disagree, 0 errors"));
    let out = conform_in(
        &dat3m(),
        &[
            "litmus",
            "check",
            "--model",
            "ptx6.0",
            "--expected",
            "PTXv6_0-expected.csv",
            "-q",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("135 tests under ptx6.0: 135 agree, 0 disagree, 0 errors"));
}

#[test]
fn a_wrong_expectation_exits_one() {
    // MP-cta is reachable (Dat3M row `Manual/MP-cta.litmus,1`); claim it is not.
    let csv = temp_dir().join("wrong.csv");
    std::fs::write(&csv, "Manual/MP-cta.litmus,0\nManual/Coherence.litmus,0\n").expect("write CSV");
    let out = conform_in(
        &dat3m(),
        &[
            "litmus",
            "check",
            "--expected",
            csv.to_str().expect("utf-8"),
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.contains("Manual/MP-cta.litmus: 1 (exists: reachable)  MISMATCH"),
        "{text}"
    );
    assert!(text.contains("1 agree, 1 disagree"), "{text}");
}

#[test]
fn a_syntax_error_is_located_and_exits_two() {
    let f = temp_dir().join("bad.litmus");
    std::fs::write(
        &f,
        "PTX bad\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.strong x, 1 ;\nexists (x == 1)\n",
    )
    .expect("write test");
    let out = conform_in(&dat3m(), &["litmus", "check", f.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(2));
    let text = stdout(&out);
    assert!(text.contains("bad.litmus:4:2: `st.strong`"), "{text}");
}

#[test]
fn explain_gives_the_broken_axiom_and_a_dot_graph() {
    let out = conform_in(
        &dat3m(),
        &["litmus", "explain", "Nvidia/Release-acquire-pattern.litmus"],
    );
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.contains("0 (exists: unreachable)"), "{text}");
    assert!(text.contains("breaks Causality (PTX ISA 8.10.6)"), "{text}");
    assert!(text.contains("digraph execution {"), "{text}");
    let out = conform_in(
        &dat3m(),
        &[
            "litmus",
            "explain",
            "--format",
            "dot",
            "Manual/MP-cta.litmus",
        ],
    );
    let text = stdout(&out);
    assert!(
        text.contains("digraph execution {") && text.contains("label=\"rf\""),
        "{text}"
    );
    assert!(!text.contains("A consistent execution"), "{text}");
}

/// `--loop-bound`: a spin loop whose second turn sees the flag reaches
/// `cnt == 2` with two turns, not with the default one; 0 is refused.
#[test]
fn the_loop_bound_lets_a_loop_turn_again() {
    let dir = temp_dir();
    std::fs::write(
        dir.join("loop2.litmus"),
        "PTX loop2\n{\nx=0;\ncnt=0;\nP0:r0=0;\nP0:r2=0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n LC00: | st.relaxed.gpu x, 1 ;\n atom.relaxed.gpu.add r2, cnt, 1 | ;\n ld.relaxed.gpu r0, x | ;\n beq r0, 0, LC00 | ;\nexists\n(cnt == 2)\n",
    )
    .unwrap();
    let once = conform_in(&dir, &["litmus", "check", "loop2.litmus"]);
    assert!(stdout(&once).contains(": 0 "), "{}", stdout(&once));
    let twice = conform_in(
        &dir,
        &["litmus", "check", "--loop-bound", "2", "loop2.litmus"],
    );
    assert!(stdout(&twice).contains(": 1 "), "{}", stdout(&twice));
    let zero = conform_in(
        &dir,
        &["litmus", "check", "--loop-bound", "0", "loop2.litmus"],
    );
    assert_eq!(zero.status.code(), Some(2));
}
