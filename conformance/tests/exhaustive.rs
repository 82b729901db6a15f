//! `conform exhaustive` as a user meets it: the simulator over a stretch of
//! inputs, a `command:` implementation with seeded faults (caught, and
//! narrowed to exactly the faulted inputs), and bad arguments.

mod common;

use common::conform;
use std::path::{Path, PathBuf};

/// An empty scratch folder.
fn scratch(name: &str) -> PathBuf {
    let d = common::tmp("conform-exh", name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A `command:` implementation (docs/implementations.md) that runs each job
/// on the simulator through `conform exec`, then sets the low byte of the
/// output of every input in `faults` to 0xff.
fn faulty_adapter(dir: &Path, faults: &[u64], row: usize) -> PathBuf {
    let faults: Vec<String> = faults.iter().map(|f| f.to_string()).collect();
    let script = format!(
        r#"#!/bin/sh
if [ "$1" = "--capabilities" ]; then echo '{{"version": "seeded faults"}}'; exit 0; fi
job=$(cat "$1")
grid=$(printf '%s' "$job" | sed 's/.*"grid":\[\([0-9]*\),.*/\1/')
block=$(printf '%s' "$job" | sed 's/.*"block":\[\([0-9]*\),.*/\1/')
out=$(printf '%s' "$job" | sed 's/.*\({{[^{{}}]*"out.bin"[^{{}}]*}}\).*/\1/')
bytes=$(printf '%s' "$out" | sed 's/.*"bytes":\([0-9]*\).*/\1/')
"{conform}" exec kernel.ptx --kernel k --grid "$grid" --block "$block" \
  --arg buf:file:in.bin --arg "buf:$bytes*0xa5" --out . >/dev/null || exit 1
mv arg1.bin out.bin
first=$(od -An -tu8 -N8 in.bin | tr -d ' ')
count=$(od -An -tu8 -j8 -N8 in.bin | tr -d ' ')
for x in {faults}; do
  if [ "$x" -ge "$first" ] && [ "$x" -lt $((first + count)) ]; then
    printf '\377' | dd of=out.bin bs=1 seek=$(( (x - first) * {row} )) conv=notrunc 2>/dev/null
  fi
done
"#,
        conform = env!("CARGO_BIN_EXE_conform"),
        faults = faults.join(" "),
    );
    let path = dir.join("adapter.sh");
    std::fs::write(&path, script).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

#[test]
fn the_simulator_agrees_with_the_model_over_a_stretch() {
    let dir = scratch("sim");
    let json = dir.join("r.json");
    // 1.0 and its neighbours, in chunks of 2^10 (the last one partial)
    let (rc, out, err) = conform(&[
        "exhaustive",
        "cvt.rn.f16.f32",
        "--impl",
        "simulator",
        "--range",
        "0x3f7ffe00..0x3f800b00",
        "--chunk",
        "10",
        "-q",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(rc, 0, "{out}{err}");
    assert!(out.contains("3328 of 3328 inputs checked"), "{out}");
    assert!(out.contains("0 mismatch"), "{out}");
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(r["compared"], 3328);
    assert_eq!(r["complete"], true);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_16_bit_form_is_checked_over_every_input() {
    let (rc, out, err) = conform(&["exhaustive", "cvt.f32.f16", "--impl", "simulator", "-q"]);
    assert_eq!(rc, 0, "{out}{err}");
    assert!(out.contains("65536 of 65536 inputs checked"), "{out}");
}

#[test]
fn seeded_faults_are_caught_and_narrowed_to_their_inputs() {
    let dir = scratch("faults");
    // 1.0, 2.0, and the first input of the third chunk
    let faults = [0x3f80_0000u64, 0x4000_0000, 0x3f80_0400];
    let adapter = faulty_adapter(&dir, &faults, 2);
    let json = dir.join("r.json");
    let (rc, out, err) = conform(&[
        "exhaustive",
        "cvt.rn.f16.f32",
        "--impl",
        &format!("command:{}", adapter.display()),
        "--range",
        "0x3f7ffc00..0x3f800800",
        "--chunk",
        "10",
        "-q",
        "--json",
        json.to_str().unwrap(),
    ]);
    // 2.0 lies outside the range: two faults in it
    assert_eq!(rc, 1, "{out}{err}");
    assert!(out.contains("2 mismatch(es)"), "{out}");
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("mismatch")).collect();
    assert_eq!(lines.len(), 2, "{out}");
    // 1.0 is 0x3c00 in .f16; the adapter set its low byte
    assert!(
        lines[0].contains("a = 0x3f800000 (1e0): expected 0x3c00 (1e0), got 0x3cff"),
        "{out}"
    );
    assert!(lines[1].contains("a = 0x3f800400"), "{out}");
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let inputs: Vec<u64> = r["examples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["input"].as_u64().unwrap())
        .collect();
    assert_eq!(inputs, [0x3f80_0000, 0x3f80_0400]);
    assert_eq!(r["compared"], 3072);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_failing_implementation_is_reported() {
    let dir = scratch("broken");
    let path = dir.join("broken.sh");
    std::fs::write(&path, "#!/bin/sh\necho 'no GPU here' >&2\nexit 3\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let (rc, out, err) = conform(&[
        "exhaustive",
        "cvt.f32.f16",
        "--impl",
        &format!("command:{}", path.display()),
        "-q",
    ]);
    assert_eq!(rc, 1, "{out}{err}");
    assert!(err.contains("no GPU here"), "{err}");
    assert!(err.contains("on inputs 0x00000000..0x00010000"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    for (args, says) in [
        (
            &["cvt.rn.f16.f33", "--impl", "simulator"][..],
            "not a cvt or cvt.pack form",
        ),
        (
            &["cvt.rn.f16x2.f32", "--impl", "simulator"][..],
            "more than 32 in all",
        ),
        (
            &["cvt.rn.f16.f32", "--impl", "simulator", "--range", "9..3"][..],
            "START must be below END",
        ),
        (
            &[
                "cvt.rn.f16.f32",
                "--impl",
                "simulator",
                "--range",
                "0..0x100000001",
            ][..],
            "END can be at most 0x100000000",
        ),
        (
            &[
                "cvt.f32.f16",
                "--impl",
                "simulator",
                "--range",
                "0..0x10001",
            ][..],
            "END can be at most 0x10000",
        ),
        (
            &[
                "cvt.rn.f16.f32",
                "--impl",
                "simulator",
                "--range",
                "zero..1",
            ][..],
            "give START..END",
        ),
        (
            &["cvt.rn.f16.f32", "--impl", "simulator", "--chunk", "40"][..],
            "--chunk 40",
        ),
        (
            &["cvt.rn.f16.f32", "--impl", "gpu"][..],
            "give simulator, cuda",
        ),
        (
            &["cvt.rn.f16.f32", "--impl", "command:/nonexistent/impl"][..],
            "/nonexistent/impl",
        ),
        (
            &[
                "cvt.rn.f16.f32",
                "--impl",
                "cuda",
                "--libcuda",
                "/nonexistent/libcuda.so",
            ][..],
            "/nonexistent/libcuda.so",
        ),
    ] {
        let mut a = vec!["exhaustive"];
        a.extend_from_slice(args);
        let (rc, out, err) = conform(&a);
        assert_eq!(rc, 2, "{args:?}: {out}{err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
