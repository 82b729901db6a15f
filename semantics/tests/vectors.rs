//! Vector register variables (PTX ISA 5.4.2), their elements `.x .y .z .w`
//! and `.r .g .b .a` and whole vectors as operands (PTX ISA 6.4.3), the
//! vector `mov`, and `reg+imm` source operands: they parse, print back to
//! the same tree, check clean, run in the simulator; malformed uses are
//! refused with a message located on their line.

use ptx_semantics::check::{check_module, Options};
use ptx_semantics::ptx::{line_col, parse, print};
use ptx_semantics::sim::{self, Arg, Launch, Outcome, WindowProfile};

const DECLS: &str = "\t.reg .v2 .u32 v, v2;\n\t.reg .v4 .u32 w;\n\t.reg .v2 .b16 h;\n\
    \t.reg .v4 .u16 foo;\n\t.reg .v4 .f32 fv;\n\t.reg .v2 .u64 dv;\n\
    \t.reg .u16 %a<4>;\n\t.reg .u32 %r<8>;\n\t.reg .u64 %rd<4>;\n\t.reg .f32 %f<4>;\n\
    \t.reg .pred %p<2>;\n\tld.param.u64 %rd1, [p];\n";

fn module(target: &str, body: &str) -> String {
    format!(
        ".version 8.8\n.target {target}\n.address_size 64\n\
         .visible .entry k(.param .u64 p)\n{{\n{DECLS}{body}\n\tret;\n}}\n"
    )
}

/// The checker's messages for a line (or lines) of body, each with the line
/// it is located on, and the line number of the first line.
fn check_line(target: &str, line: &str) -> (usize, Vec<(usize, String)>) {
    let src = module(target, &format!("\t{line}"));
    let m = parse(&src).unwrap_or_else(|e| panic!("{line}: {e:?}"));
    // the round trip holds for every new shape
    assert_eq!(parse(&print(&m)).expect("reprint parses"), m, "{line}");
    let first = line.lines().next().unwrap_or(line).trim();
    let want_line = src
        .lines()
        .position(|l| l.trim() == first)
        .expect("the line")
        + 1;
    let diags = check_module(&m, &Options::default())
        .into_iter()
        .map(|d| (line_col(&src, d.span.start).0, d.message))
        .collect();
    (want_line, diags)
}

/// Every example of the issue, and the PTX ISA 6.4.3 examples, check clean.
#[test]
fn accepted_forms_check_clean() {
    for line in [
        // elements as scalar registers
        "mov.u32 %r1, v.x;",
        "mov.u32 v.y, %r2;",
        "mov.u32 %r1, w.a;",
        "mov.u32 w.b, w.g;",
        "cvt.u32.u16 %r1, h.x;",
        "cvt.u32.u16 %r1, foo.w;",
        "st.global.u32 [%rd1], v.y;",
        "ld.global.u32 v.x, [%rd1];",
        "ld.global.u64 %rd2, [dv.y];",
        "add.u32 %r1, v.x, v.y;",
        // whole vectors in vector positions
        "ld.v4.u32 w, [%rd1];",
        "ld.global.v4.f32 fv, [%rd1];",
        "ld.global.v2.u64 dv, [%rd1];",
        "st.v2.u32 [%rd1], v;",
        "st.global.v4.u32 [%rd1+16], w;",
        "ld.global.v4.u16 foo, [%rd1];",
        // the vector mov (PTX ISA 6.4.3: `mov.v4.f32 {a,b,c,d}, V;`)
        "mov.v4.u16 foo, {%a0, %a1, %a2, %a3};",
        "mov.v4.u16 {%a0, %a1, %a2, %a3}, foo;",
        "mov.v2.u32 v, v2;",
        "mov.v2.u32 {%r1, %r2}, {%r2, %r1};",
        "mov.v4.f32 {%f0, %f1, %f2, %f3}, fv;",
        // packing and unpacking through a vector variable (9.7.9.4)
        "mov.b32 h, %r1;",
        "mov.b32 %r1, h;",
        "mov.b32 %r1, {h.y, h.x};",
        "mov.b64 %rd2, v;",
        "mov.b64 v, %rd2;",
        // register plus immediate as a source
        "st.u64 [%rd1], %rd1 + 1;",
        "st.global.u32 [%rd1], %r1+4;",
        "mov.u64 %rd2, %rd1 - 8;",
        "mov.u32 %r1, v.x + 1;",
    ] {
        let (_, diags) = check_line("sm_90", line);
        assert!(diags.is_empty(), "{line}: {diags:?}");
    }
}

/// Malformed uses are refused with a message on their own line.
#[test]
fn malformed_forms_are_located() {
    for (line, says) in [
        (
            "mov.u32 %r1, v.z;",
            "`v` is a .v2 vector: it has no element `.z`",
        ),
        ("mov.u32 v.w, %r1;", "no element `.w`"),
        ("mov.u32 %r1, v.q;", "`.q` is not a vector element"),
        ("mov.u32 %r1, %r2.x;", "`%r2` is a scalar `.u32` register"),
        (
            "st.v2.u32 [%rd1], w;",
            "expects a vector of 2, but `w` is a .v4 vector",
        ),
        (
            "ld.v2.u32 w, [%rd1];",
            "expects a vector of 2, but `w` is a .v4 vector",
        ),
        (
            "mov.v4.u16 foo, v;",
            "expects a vector of 4, but `v` is a .v2 vector",
        ),
        // element type against the instruction type
        (
            "mov.u32 %r1, foo.x;",
            "`.u16`, which does not fit type `.u32`",
        ),
        (
            "ld.global.v4.u32 fv, [%rd1];",
            "elements of vector `fv` are `.f32`",
        ),
        ("mov.v2.u32 v, dv;", "elements of vector `dv` are `.u64`"),
        // a vector where a scalar goes, a scalar where a vector goes
        (
            "mov.u32 %r1, v;",
            "`v` is a .v2 `.u32` vector register, not a scalar",
        ),
        (
            "add.u32 %r1, %r2, %r3;\n\tld.global.v2.u32 %rd1, [%rd1];",
            "not allowed here",
        ),
        ("ld.global.u32 %r1, [w];", "vector register, not an address"),
        // register plus immediate only as a source value
        (
            "ld.global.u32 %r1+1, [%rd1];",
            "a destination cannot be `name+offset`",
        ),
        ("mov.pred %p1, %p0 + 1;", "`%p0` is a predicate"),
    ] {
        let last = line.rsplit('\n').next().unwrap_or(line);
        let (first_line, diags) = check_line("sm_90", line);
        let want_line = first_line + line.matches('\n').count();
        assert!(
            diags
                .iter()
                .any(|(l, m)| *l == want_line && m.contains(says)),
            "{line}: wanted `{says}` on line {want_line} ({last}), got {diags:?}"
        );
    }
}

/// PTX ISA 5.4.2: "Vectors of length 2 and 4 of any non-predicate
/// fundamental type can be declared"; "Vectors cannot exceed 128-bits in
/// length; for example, .v4 .f64 is not allowed."
#[test]
fn vector_declarations_follow_5_4_2() {
    for (decl, says) in [
        (".reg .v2 .pred pv;", "vectors of predicates"),
        (".reg .v4 .f64 big;", "cannot exceed 128 bits"),
        (".reg .v2 .b128 huge;", "cannot exceed 128 bits"),
        (".reg .v8 .b32 e;", "vectors of length 2 and 4"),
        (".reg .v8 .u16 e;", "vectors of length 2 and 4"),
    ] {
        let (want_line, diags) = check_line("sm_90", decl);
        assert!(
            diags
                .iter()
                .any(|(l, m)| *l == want_line && m.contains(says)),
            "{decl}: {diags:?}"
        );
    }
    for decl in [".reg .v4 .b32 w4;", ".reg .v2 .f64 d2;", ".reg .v4 .b8 b4;"] {
        let (_, diags) = check_line("sm_90", decl);
        assert!(diags.is_empty(), "{decl}: {diags:?}");
    }
}

/// The seed kernel of the fuzzer checks clean and runs.
#[test]
fn the_vectors_sample_checks_and_runs() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/vectors.ptx");
    let src = std::fs::read_to_string(path).expect("vectors.ptx");
    let m = parse(&src).expect("parses");
    assert_eq!(parse(&print(&m)).expect("reprint parses"), m);
    let diags = check_module(&m, &Options::default());
    assert!(diags.is_empty(), "{diags:?}");
    let bytes: Vec<u8> = (0u8..64).collect();
    let o = run_src(&src, "vectors", bytes.clone());
    let out = &o.buffers[0].bytes;
    // `st.global.v2.u32 [%rd1+32], v` after `v = {5, 7}`
    assert_eq!(&out[32..40], &[5, 0, 0, 0, 7, 0, 0, 0]);
    // `st.global.u32 [%rd1+48], w.a`: `w` was loaded from bytes 0..16
    assert_eq!(&out[48..52], &[12, 13, 14, 15]);
}

// ---- the simulator ----

fn run_src(src: &str, kernel: &str, bytes: Vec<u8>) -> Outcome {
    let m = parse(src).unwrap_or_else(|e| panic!("{e:?}\n{src}"));
    let prog = sim::prepare(&m, kernel, &WindowProfile::SM90).unwrap_or_else(|e| panic!("{e}"));
    let launch = Launch::new(
        [1, 1, 1],
        [1, 1, 1],
        vec![Arg::Buffer { addr: None, bytes }],
    );
    let o = sim::run(&prog, &launch).expect("runs");
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    o
}

/// Runs `body` (after the declarations, `%rd1` = the buffer) on a buffer
/// holding bytes 0, 1, 2, ... and returns the buffer. The module must
/// check clean first.
fn exec(body: &str, n: u8) -> Vec<u8> {
    let src = module(
        "sm_90",
        &format!("\tcvta.to.global.u64 %rd1, %rd1;\n{body}"),
    );
    let m = parse(&src).expect("parses");
    let diags = check_module(&m, &Options::default());
    assert!(diags.is_empty(), "{diags:?}\n{src}");
    run_src(&src, "k", (0..n).collect()).buffers[0]
        .bytes
        .clone()
}

/// Elements are registers of their own: `.x` and `.r` name the first,
/// `.y` and `.g` the second (PTX ISA 6.4.3).
#[test]
fn elements_are_written_and_read_back() {
    let out = exec(
        "\tmov.u32 v.x, 0x11223344;\n\tmov.u32 v.g, 0x55667788;\n\
         \tmov.u32 %r1, v.y;\n\tmov.u32 %r2, v.r;\n\
         \tst.global.u32 [%rd1], %r1;\n\tst.global.u32 [%rd1+4], %r2;\n\
         \tadd.u32 w.w, v.x, 1;\n\tst.global.u32 [%rd1+8], w.a;",
        12,
    );
    assert_eq!(
        out,
        [0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x45, 0x33, 0x22, 0x11]
    );
}

/// `mov.b32 h, a` with `h` a `.v2 .b16` variable unpacks as
/// `mov.b32 {h.x, h.y}, a`: "{ d.x, d.y } = { a[0..15], a[16..31] }"
/// (PTX ISA 9.7.9.4); packing `{h.y, h.x}` gives `h.y | (h.x << 16)`.
#[test]
fn packing_and_unpacking_through_a_vector_variable() {
    let out = exec(
        "\tmov.b32 h, 0x12345678;\n\tst.global.u16 [%rd1], h.y;\n\
         \tst.global.u16 [%rd1+2], h.x;\n\tmov.b32 %r1, {h.y, h.x};\n\
         \tst.global.u32 [%rd1+4], %r1;\n\tmov.b32 %r2, h;\n\tst.global.u32 [%rd1+8], %r2;",
        12,
    );
    assert_eq!(
        out,
        [0x34, 0x12, 0x78, 0x56, 0x34, 0x12, 0x78, 0x56, 0x78, 0x56, 0x34, 0x12]
    );
}

/// `mov.v4.u16` moves element by element, every source read before any
/// destination is written (a reversal and a swap).
#[test]
fn vector_mov_moves_each_element() {
    let out = exec(
        "\tmov.u16 %a0, 1;\n\tmov.u16 %a1, 2;\n\tmov.u16 %a2, 3;\n\tmov.u16 %a3, 4;\n\
         \tmov.v4.u16 foo, {%a0, %a1, %a2, %a3};\n\
         \tmov.v4.u16 {%a3, %a2, %a1, %a0}, foo;\n\
         \tst.global.v4.u16 [%rd1], {%a0, %a1, %a2, %a3};\n\
         \tmov.u32 %r1, 0xA;\n\tmov.u32 %r2, 0xB;\n\
         \tmov.v2.u32 {%r1, %r2}, {%r2, %r1};\n\
         \tst.global.v2.u32 [%rd1+8], {%r1, %r2};\n\
         \tmov.v2.u32 v, {%r1, %r2};\n\tmov.v2.u32 v2, v;\n\
         \tst.global.u32 [%rd1+16], v2.y;",
        20,
    );
    assert_eq!(
        out,
        [4, 0, 3, 0, 2, 0, 1, 0, 0xB, 0, 0, 0, 0xA, 0, 0, 0, 0xA, 0, 0, 0]
    );
}

/// `ld.v4.u32 w, [a]` fills `w.x .. w.w` from consecutive words (little
/// endian); `st.v4.u32 [a], w` writes them back.
#[test]
fn whole_vectors_load_and_store() {
    let out = exec(
        "\tld.global.v4.u32 w, [%rd1];\n\tst.global.v4.u32 [%rd1+16], w;\n\
         \tst.global.u32 [%rd1+32], w.z;\n\tld.global.v2.u32 v, [%rd1+8];\n\
         \tst.global.v2.u32 [%rd1+40], v;",
        48,
    );
    let mut want: Vec<u8> = (0..16).collect();
    want.extend(0..16);
    want.extend([8, 9, 10, 11]);
    want.extend(36..40);
    want.extend(8..16);
    assert_eq!(&out[..16], &want[..16]);
    assert_eq!(&out[16..], &want[16..]);
}

/// `reg+imm` is the register's value plus the constant, at the register's
/// width: 5 + 3 = 8; 5 - 6 wraps to 0xFFFFFFFF.
#[test]
fn register_plus_immediate_is_a_sum() {
    let out = exec(
        "\tmov.u32 %r1, 5;\n\tst.global.u32 [%rd1], %r1 + 3;\n\
         \tmov.u32 %r2, %r1 - 6;\n\tst.global.u32 [%rd1+4], %r2;\n\
         \tmov.u32 v.y, 0x10;\n\tst.global.u32 [%rd1+8], v.y+0x20;",
        12,
    );
    assert_eq!(out, [8, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x30, 0, 0, 0]);
}

/// The printer writes the new shapes back as written.
#[test]
fn printing_keeps_the_shapes() {
    let src = module(
        "sm_90",
        "\tmov.u32 %r1, v.x;\n\tst.u64 [%rd1], %rd1+1;\n\tmov.u64 %rd2, %rd1-8;\n\tmov.v2.u32 v, v2;",
    );
    let text = print(&parse(&src).expect("parses"));
    for want in [
        "mov.u32 %r1, v.x;",
        "st.u64 [%rd1], %rd1+1;",
        "mov.u64 %rd2, %rd1-8;",
        "mov.v2.u32 v, v2;",
        ".reg .v4 .u16 foo;",
    ] {
        assert!(text.contains(want), "{want} in\n{text}");
    }
}
