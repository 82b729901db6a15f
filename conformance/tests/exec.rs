//! `conform exec` as a user meets it: arguments, buffers in and out, the
//! report of a thread that stopped, exit codes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn conform(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_conform"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .output()
        .expect("conform runs")
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("conform-exec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(name: &str, text: &str) -> PathBuf {
    let path = temp_dir().join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const COPY: &str = ".version 8.7
.target sm_90
.address_size 64

// out[i] = prmt(in[i], k, 0x0123) for 8 threads
.visible .entry k(.param .u64 pin, .param .u64 pout, .param .u32 pk)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [pin];
	ld.param.u64 %rd2, [pout];
	ld.param.u32 %r1, [pk];
	mov.u32 %r2, %tid.x;
	mul.wide.u32 %rd3, %r2, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u32 %r3, [%rd4];
	prmt.b32 %r4, %r3, %r1, 0x0123;
	add.s64 %rd5, %rd2, %rd3;
	st.global.u32 [%rd5], %r4;
	ret;
}
";

macro_rules! code {
    ($out:expr) => {
        $out.status.code().expect("exit code")
    };
}

#[test]
fn buffers_in_and_out() {
    let ptx = write("copy.ptx", COPY);
    let dir = temp_dir().join("out");
    let input: Vec<u8> = (0u8..32).collect();
    let inp = temp_dir().join("in.bin");
    std::fs::write(&inp, &input).unwrap();
    let out = conform(&[
        "exec",
        ptx.to_str().unwrap(),
        "--kernel",
        "k",
        "--block",
        "8",
        "--arg",
        &format!("buf:file:{}", inp.display()),
        "--arg",
        "buf:32*0xa5",
        "--arg",
        "u32:0xdeadbeef",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code!(out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    let got = std::fs::read(dir.join("arg1.bin")).unwrap();
    // prmt with selector 0x0123: d.b0 = byte 3, d.b1 = byte 2, d.b2 =
    // byte 1, d.b3 = byte 0 of a: the word byte-reversed (PTX ISA 9.7.9.7)
    for i in 0..8 {
        let w = &input[4 * i..4 * i + 4];
        assert_eq!(&got[4 * i..4 * i + 4], &[w[3], w[2], w[1], w[0]]);
    }
    assert!(!dir.join("arg1.unspecified.bin").exists());
}

#[test]
fn hex_output_and_json() {
    let ptx = write("copy2.ptx", COPY);
    let out = conform(&[
        "exec",
        ptx.to_str().unwrap(),
        "--kernel",
        "k",
        "--block",
        "1",
        "--arg",
        "buf:hex:11223344",
        "--arg",
        "buf:4",
        "--arg",
        "u32:0",
        "--json",
    ]);
    assert_eq!(code!(out), 0);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["buffers"][1]["hex"], "44332211");
    assert_eq!(v["reports"].as_array().unwrap().len(), 0);
}

#[test]
fn undefined_behaviour_is_reported_with_its_clause() {
    // the input buffer is 4 bytes: thread 1 reads outside it, and the
    // output store of thread 0 goes through
    let ptx = write("copy3.ptx", COPY);
    let out = conform(&[
        "exec",
        ptx.to_str().unwrap(),
        "--kernel",
        "k",
        "--block",
        "2",
        "--arg",
        "buf:4",
        "--arg",
        "buf:8",
        "--arg",
        "u32:0",
    ]);
    assert_eq!(code!(out), 1);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("tid=[1, 0, 0]") && text.contains("ld.global.u32"),
        "{text}"
    );
    assert!(text.contains("undefined behaviour"), "{text}");
    assert!(
        text.contains("copy3.ptx:16:"),
        "the report names the line: {text}"
    );
}

#[test]
fn bad_input_exits_two() {
    let ptx = write("copy4.ptx", COPY);
    // wrong number of arguments
    let out = conform(&[
        "exec",
        ptx.to_str().unwrap(),
        "--kernel",
        "k",
        "--arg",
        "buf:4",
    ]);
    assert_eq!(code!(out), 2);
    // no such kernel
    let out = conform(&["exec", ptx.to_str().unwrap(), "--kernel", "nope"]);
    assert_eq!(code!(out), 2);
    // an instruction the simulator does not model
    let fp = write(
        "fp.ptx",
        ".version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\tldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r1}, [%r2];\n\tret;\n}\n",
    );
    let out = conform(&["exec", fp.to_str().unwrap(), "--kernel", "k"]);
    assert_eq!(code!(out), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("not modelled"));
}

#[test]
fn runaway_loop_exits_one_at_the_budget() {
    let ptx = write(
        "loop.ptx",
        ".version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<3>;\nL:\n\tadd.u32 %r1, %r1, 1;\n\tbra L;\n}\n",
    );
    let out = conform(&[
        "exec",
        ptx.to_str().unwrap(),
        "--kernel",
        "k",
        "--budget",
        "1000",
    ]);
    assert_eq!(code!(out), 1);
    assert!(String::from_utf8_lossy(&out.stdout).contains("step budget"));
}

/// `--schedule`: a program that waits gets one outcome under every
/// schedule; one that reads a copy's destination before waiting gets
/// unspecified bytes and a report under the late schedule, and several
/// outcomes under `all`; a bad schedule is a usage error.
#[test]
fn schedules_of_asynchronous_copies() {
    let example = "examples/async/bulk_round_trip.ptx";
    let args = [
        "exec",
        example,
        "--kernel",
        "round_trip",
        "--arg",
        "buf:16384*0x5a",
        "--arg",
        "buf:16384",
        "--arg",
        "u32:1",
        "--json",
    ];
    let mut outs = Vec::new();
    for s in ["eager", "late", "random:1", "random:99", "all"] {
        let o = conform(&[&args[..], &["--schedule", s]].concat());
        assert_eq!(code!(o), 0, "{s}: {}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let v = if s == "all" {
            assert_eq!(v["complete"], true);
            assert!(v["schedules"].as_u64().unwrap() >= 1, "{}", v["schedules"]);
            let outs = v["outcomes"].as_array().unwrap();
            assert_eq!(outs.len(), 1, "one outcome under every schedule");
            outs[0].clone()
        } else {
            v
        };
        assert!(v["buffers"][1]["hex"] == "5a".repeat(16384), "{s}");
        assert!(v["buffers"][1]["unspecified"].is_null(), "{s}");
        outs.push(v);
    }
    // reading the tile before the wait races with the copy
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../")
            .join(example),
    )
    .unwrap()
    .replace(
        "\tand.b32 %r3, %r2, 1;",
        "\tand.b32 %r3, %r2, 1;\n\tld.shared.u32 %r4, [tile];\n\tst.global.u32 [%rd5+16380], %r4;",
    );
    let racy = write("racy.ptx", &src);
    let racy_args = [
        "exec",
        racy.to_str().unwrap(),
        "--kernel",
        "round_trip",
        "--arg",
        "buf:16384*0x5a",
        "--arg",
        "buf:16384",
        "--arg",
        "u32:1",
    ];
    let o = conform(&[&racy_args[..], &["--schedule", "late"]].concat());
    let text = String::from_utf8_lossy(&o.stdout);
    // a race is an undefined result: the run goes on, exit 0
    assert_eq!(code!(o), 0, "{text}");
    assert!(text.contains("9.7.9.25.1"), "{text}");
    assert!(
        text.contains("races with `cp.async.bulk.shared::cta.global"),
        "{text}"
    );
    let o = conform(&[&racy_args[..], &["--schedule", "all", "--json"]].concat());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // every schedule the explorer visits shows the race
    let outs = v["outcomes"].as_array().unwrap();
    assert!(!outs.is_empty());
    assert!(outs
        .iter()
        .all(|o| !o["undefined_results"].as_array().unwrap().is_empty()));
    let o = conform(&[&racy_args[..], &["--schedule", "sometimes"]].concat());
    assert_eq!(code!(o), 2);
    assert!(String::from_utf8_lossy(&o.stderr).contains("eager, late, random:SEED or all"));
}

const TENSOR: &str = ".version 8.7
.target sm_90a
.address_size 64

// loads the 16 x 2 u32 box at (4, 1) of a 32 x 4 tensor and copies it out
.visible .entry k(.param .u64 pin, .param .u64 pout, .param .align 64 .b8 map[128])
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.shared .align 128 .b8 tile[128];
	.shared .align 8 .b64 bar;
	ld.param.u64 %rd1, [pout];
	mov.b64 %rd5, map;
	cvta.param.u64 %rd5, %rd5;
	mbarrier.init.shared::cta.b64 [bar], 1;
	fence.mbarrier_init.release.cluster;
	mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [bar], 128;
	cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [tile], [%rd5, {4, 1}], [bar];
WAIT:
	mbarrier.try_wait.parity.shared::cta.b64 %p1, [bar], 0;
	@!%p1 bra WAIT;
	mov.u32 %r1, 0;
LOOP:
	mov.u32 %r2, tile;
	add.u32 %r2, %r2, %r1;
	ld.shared.u32 %r3, [%r2];
	cvt.u64.u32 %rd3, %r1;
	add.u64 %rd4, %rd1, %rd3;
	st.global.u32 [%rd4], %r3;
	add.u32 %r1, %r1, 4;
	setp.lt.u32 %p1, %r1, 128;
	@%p1 bra LOOP;
	ret;
}
";

#[test]
fn a_tensor_map_argument_from_fields() {
    let ptx = write("tensor.ptx", TENSOR);
    let p = ptx.to_str().unwrap();
    // the tensor: u32 element i holds i
    let input: String = (0..128u32)
        .map(|i| format!("{:08x}", i.swap_bytes()))
        .collect();
    let buf = format!("buf:hex:{input}");
    let o = conform(&[
        "exec",
        p,
        "--kernel",
        "k",
        "--arg",
        &buf,
        "--arg",
        "buf:128",
        "--arg",
        "tmap:type=u32,dims=32x4,box=16x2,base=arg0",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // rows 1 and 2, elements 4..20 of each
    let want: String = [1u32, 2]
        .iter()
        .flat_map(|&y| (4..20u32).map(move |x| y * 32 + x))
        .map(|i| format!("{:08x}", i.swap_bytes()))
        .collect();
    assert!(out.contains(&want), "{out}");

    // a field combination the map's rules refuse: exit 2, naming the field
    // and the rule
    for (arg, field) in [
        (
            "tmap:type=u32,dims=32x4,strides=136,box=16x2,base=arg0",
            "globalStrides[0]",
        ),
        ("tmap:type=u32,dims=32x4,box=16x300,base=arg0", "boxDim[1]"),
        (
            "tmap:type=u32,dims=32x4,box=16x2,swizzle=32B,base=arg0",
            "field `swizzle`",
        ),
        ("tmap:type=u33,dims=32x4,box=16x2,base=arg0", "type"),
    ] {
        let o = conform(&[
            "exec", p, "--kernel", "k", "--arg", &buf, "--arg", "buf:128", "--arg", arg,
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{arg}: {err}");
        assert!(err.contains(field), "{arg}: {err}");
    }
    let help = conform(&["exec", "--help"]);
    assert!(String::from_utf8_lossy(&help.stdout).contains("tmap:FIELDS"));
}
