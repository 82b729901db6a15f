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

/// `prmt` (9.7.9.7): the generic selectors pick bytes of `{b, a}`, bit 3 of
/// a selector replicates the byte's sign; the modes follow the table.
#[test]
fn prmt_forms() {
    let a = "0x44332281";
    let b = "0x88776655";
    let d = |args: &[&str]| {
        let mut all = vec!["eval"];
        all.extend_from_slice(args);
        let (rc, out, err) = conform(&all, None);
        assert_eq!(rc, 0, "{err}");
        out
    };
    assert_eq!(d(&["prmt.b32", a, b, "0x3210"]), "d = 0x44332281\n");
    assert_eq!(d(&["prmt.b32", a, b, "0x7654"]), "d = 0x88776655\n");
    // byte 0 is 0x81 (sign set), byte 1 is 0x22 (sign clear)
    assert_eq!(d(&["prmt.b32", a, b, "0x9898"]), "d = 0x00ff00ff\n");
    // f4e, selector 1: bytes 4 3 2 1
    assert_eq!(d(&["prmt.b32.f4e", a, b, "1"]), "d = 0x55443322\n");
    // b4e, selector 0: bytes 5 6 7 0
    assert_eq!(d(&["prmt.b32.b4e", a, b, "0"]), "d = 0x66778881\n");
    // rc16, selector 1: bytes 3 2 3 2
    assert_eq!(d(&["prmt.b32.rc16", a, b, "1"]), "d = 0x44334433\n");
    let (rc, out, _) = conform(
        &["eval", "prmt.b32.ecr", "--batch"],
        Some("44332281 88776655 2\n"),
    );
    assert_eq!(rc, 0);
    // ecr, selector 2: bytes 2 2 1 0
    assert_eq!(out, "33332281\n");
}

/// The packing and unpacking `mov` (9.7.9.4): first element lowest.
#[test]
fn mov_pack_and_unpack() {
    let (rc, out, _) = conform(&["eval", "mov.b64", "0x1", "0x2"], None);
    assert_eq!(rc, 0);
    assert_eq!(out, "d = 0x0000000200000001\n");
    let (_, out, _) = conform(&["eval", "mov.b32", "0x11", "0x22", "0x33", "0x44"], None);
    assert_eq!(out, "d = 0x44332211\n");
    let (_, out, _) = conform(&["eval", "mov.b32", "--unpack", "2", "0x44332211"], None);
    assert_eq!(out, "d.x = 0x2211\nd.y = 0x4433\n");
    let (_, out, _) = conform(
        &["eval", "mov.b128", "--unpack", "2", "--batch"],
        Some("1122334455667788aabbccddeeff0011\n"),
    );
    assert_eq!(out, "aabbccddeeff0011 1122334455667788\n");
    // an element wider than its slot, and a shape the spec does not have
    assert_eq!(conform(&["eval", "mov.b32", "0x10000", "0x1"], None).0, 2);
    assert_eq!(
        conform(&["eval", "mov.b16", "0x1", "0x2", "0x3", "0x4"], None).0,
        2
    );
}

/// `shfl.sync` (9.7.9.6) over a whole warp.
#[test]
fn shfl_over_a_warp() {
    // butterfly by 1: lane i reads lane i ^ 1
    let (rc, out, _) = conform(
        &[
            "eval",
            "shfl.sync.bfly.b32",
            "lane",
            "1",
            "0x1f",
            "0xffffffff",
        ],
        None,
    );
    assert_eq!(rc, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 32);
    for (i, l) in lines.iter().enumerate() {
        let want = format!("d = 0x{:08x}  p = 1  (from lane {})", i ^ 1, i ^ 1);
        assert!(l.contains(&want), "lane {i}: {l}");
    }
    // lanes 8.. execute but are not in membermask 0xff: undefined behaviour
    let (_, out, _) = conform(
        &["eval", "shfl.sync.idx.b32", "lane", "5", "0x1f", "0xff"],
        None,
    );
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[3].contains("d = 0x00000005"), "{}", lines[3]);
    assert!(
        lines[8].contains("undefined behaviour") && lines[8].contains("not in the membermask"),
        "{}",
        lines[8]
    );
    // down by 1 with c = 0x1f: lane 31 is past maxLane and keeps its value
    let mut line: Vec<String> = (0..32).map(|i| format!("{:x}", 100 + i)).collect();
    line.extend(["1".into(), "1f".into(), "ffffffff".into()]);
    let (_, out, _) = conform(
        &["eval", "shfl.sync.down.b32", "--batch"],
        Some(&(line.join(" ") + "\n")),
    );
    let want: Vec<String> = (0..32)
        .map(|i| format!("{:x}", 100 + (i + 1).min(31)))
        .collect();
    assert_eq!(out, want.join(" ") + "\n");
    // the deprecated shfl reading an inactive lane: d unspecified
    let (_, out, _) = conform(
        &[
            "eval",
            "shfl.idx.b32",
            "--active",
            "0xf",
            "lane",
            "5",
            "0x1f",
        ],
        None,
    );
    assert!(
        out.lines().next().unwrap().contains("d = unspecified"),
        "{out}"
    );
    assert!(
        out.lines().nth(4).unwrap().contains("does not execute"),
        "{out}"
    );
}

#[test]
fn masks_come_beside_the_bits_in_batch_and_json() {
    // "For cvt.f32.bf16, NaN input yields unspecified NaN" (9.7.9.21): the
    // exponent is fixed, sign and significand free (mask 0x807fffff); the
    // bits given are an sm_90's (the bf16 NaN widened, 0x7f81 -> 0x7f810000).
    // 1.0 in bf16 is 0x3f80, in f32 0x3f800000: nothing unspecified.
    let (rc, out, err) = conform(
        &["eval", "cvt.f32.bf16", "--batch", "--mask"],
        Some("7f81\n3f80\n"),
    );
    assert_eq!(rc, 0, "{err}");
    assert_eq!(out, "7f810000:807fffff\n3f800000:0\n");
    // without --mask the batch output is as before
    let (_, out, _) = conform(&["eval", "cvt.f32.bf16", "--batch"], Some("3f80\n"));
    assert_eq!(out, "3f800000\n");
    // JSON, one object per line, with the clause
    let (rc, out, _) = conform(
        &["eval", "cvt.f32.bf16", "--batch", "--json"],
        Some("7f81\n"),
    );
    assert_eq!(rc, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["bits"], "0x7f810000");
    assert_eq!(v["unspecified"], "0x807fffff");
    assert!(
        v["clause"].as_str().unwrap().contains("unspecified `NaN`"),
        "{v}"
    );
    // a single evaluation, the flag written after the operand
    let (rc, out, err) = conform(&["eval", "cvt.rn.f16.f32", "1.5", "--json"], None);
    assert_eq!(rc, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["bits"], "0x3e00");
    assert_eq!(v["unspecified"], "0x0000");
    // prmt leaves nothing unspecified; its JSON says so
    let (_, out, _) = conform(
        &[
            "eval",
            "prmt.b32",
            "0x44332211",
            "0x88776655",
            "0x3210",
            "--json",
        ],
        None,
    );
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["destinations"][0]["bits"], "0x44332211");
    assert_eq!(v["destinations"][0]["unspecified"], "0x00000000");
    // --mask needs --batch
    let (rc, _, err) = conform(&["eval", "cvt.f32.bf16", "0x7f81", "--mask"], None);
    assert_eq!(rc, 2);
    assert!(err.contains("--mask goes with --batch"), "{err}");
}

#[test]
fn options_may_follow_the_operands() {
    // operands may start with `-` (negative numbers), which is why the
    // options are also looked for among them
    let (rc, out, err) = conform(&["eval", "mov.b32", "0x44332211", "--unpack", "4"], None);
    assert_eq!(rc, 0, "{err}");
    assert!(
        out.contains("d.x = 0x11") && out.contains("d.w = 0x44"),
        "{out}"
    );
    let (rc, out, _) = conform(&["eval", "cvt.rn.f16.f32", "-1.5", "--json"], None);
    assert_eq!(rc, 0);
    assert!(out.contains("\"bits\":\"0xbe00\""), "{out}");
    let (rc, _, err) = conform(&["eval", "mov.b32", "0x1", "--unpack"], None);
    assert_eq!(rc, 2);
    assert!(err.contains("--unpack needs a value"), "{err}");
}
