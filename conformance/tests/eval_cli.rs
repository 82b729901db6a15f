//! `conform eval`: values from the spec and IEEE 754 encodings worked by
//! hand, exit codes, and the batch mode.

use std::io::Write;
use std::process::{Command, Stdio};

fn conform(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_conform"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run conform");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    } else {
        drop(child.stdin.take());
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn evaluates_typed_literals_and_hex() {
    // 1.5 in f16 is 0x3e00.
    let (rc, out, _) = conform(&["eval", "cvt.rn.f16.f32", "1.5"], None);
    assert_eq!(rc, 0);
    assert!(out.starts_with("d = 0x3e00"), "{out}");
    // "float-to-int saturates by default"
    let (_, out, _) = conform(&["eval", "cvt.rzi.s32.f32", "-inf"], None);
    assert!(out.starts_with("d = 0x80000000"), "{out}");
    assert!(out.contains("clamped to the destination range"), "{out}");
    // a in the upper byte: 448 = 0x7e, -448 = 0xfe after satfinite
    let (_, out, _) = conform(
        &["eval", "cvt.rn.satfinite.e4m3x2.f32", "448", "-1e9"],
        None,
    );
    assert!(out.starts_with("d = 0x7efe"), "{out}");
    let (_, out, _) = conform(
        &["eval", "cvt.pack.sat.u8.s32.b32", "0x12c", "5", "0xabcd"],
        None,
    );
    assert!(out.starts_with("d = 0xabcdff05"), "{out}");
}

#[test]
fn undefined_results_say_why() {
    let (rc, out, _) = conform(&["eval", "cvt.rn.f16x2.e2m3x2", "0x4000"], None);
    assert_eq!(rc, 0);
    assert!(
        out.contains("undefined") && out.contains("2 MSB bits 0"),
        "{out}"
    );
}

#[test]
fn bad_input_exits_2() {
    assert_eq!(conform(&["eval", "cvt.rn.f16.f32", "1", "2"], None).0, 2);
    assert_eq!(conform(&["eval", "cvt.xx.f16", "1"], None).0, 2);
    assert_eq!(conform(&["eval", "cvt.rn.f16.f32", "zebra"], None).0, 2);
    let (rc, _, err) = conform(
        &["eval", "cvt.rn.f16.f32", "--batch"],
        Some("3f800000\nxyz\n"),
    );
    assert_eq!(rc, 2);
    assert!(err.contains("<stdin>:2"), "{err}");
}

#[test]
fn batch_writes_one_line_per_input() {
    let (rc, out, _) = conform(
        &["eval", "cvt.rn.f16x2.e2m3x2", "--batch"],
        Some("0808\n4000\n"),
    );
    assert_eq!(rc, 0);
    // e2m3 0x08 is 1.0 in both lanes; 0x4000 has a nonzero MSB: undefined.
    assert_eq!(out, "3c003c00\nundef\n");
}
