//! The checker on operand syntax (the syntax axis of corpus/legality, and
//! hand-written PTX that ptxas 13.0 accepts): sinks, `reg+imm`, `var+imm`,
//! immediates, vector variables and elements, old declarations, targets.
//! Each row is one instruction in a small kernel, with the verdict ptxas
//! 13.0 gives it (`None`: accepted; `Some(text)`: rejected, and our message
//! contains `text`).

use ptx_semantics::check::{check_module, Diagnostic, Options};
use ptx_semantics::ptx::parse;

fn kernel(version: &str, target: &str, body: &str) -> String {
    format!(
        ".version {version}\n.target {target}\n.address_size 64\n\
         .global .align 8 .b8 gvar[64];\n\
         .visible .entry k(.param .u64 kp0)\n{{\n\
         \t.reg .pred %p<2>;\n\t.reg .b16 %h<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\
         \t.reg .f32 %f<4>;\n\t.reg .u32 %u<2>;\n\t.reg .u64 %ud<2>;\n\
         \t.reg .v2 .b32 v2;\n\t.reg .v4 .b32 v4;\n\t.reg .v4 .f32 vf;\n\
         \t.shared .align 8 .b8 svar[64];\n\
         \t{body}\n\tret;\n}}\n"
    )
}

fn check(src: &str) -> Vec<Diagnostic> {
    let m = parse(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    check_module(&m, &Options::default())
}

fn expect(rows: &[(&str, &str, &str, Option<&str>)]) {
    let mut wrong = Vec::new();
    for (version, target, instr, want) in rows {
        let d = check(&kernel(version, target, instr));
        let ok = match want {
            None => d.is_empty(),
            Some(text) => d.iter().any(|d| d.message.contains(text)),
        };
        if !ok {
            wrong.push(format!("{instr}: want {want:?}, got {d:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The sink `_` stands for elements of a vector destination only (PTX ISA
/// 9.7.9.4, 9.7.9.8); ptxas: "Result discard mode is not allowed".
#[test]
fn sink_only_in_vector_destinations() {
    // See: corpus/legality/syntax, mutation syntax-sink.
    expect(&[
        ("8.6", "sm_90", "mov.b32 _, %r1;", Some("sink")),
        ("8.6", "sm_90", "ld.global.u32 _, [gvar];", Some("sink")),
        (
            "8.6",
            "sm_90",
            "shfl.sync.bfly.b32 _|%p1, %r1, 1, 31, -1;",
            Some("sink"),
        ),
        (
            "8.6",
            "sm_90",
            "cvt.rn.f16x2.f32 _, %f1, %f2;",
            Some("sink"),
        ),
        ("8.6", "sm_90", "mov.b64 {%r1, _}, %rd1;", None),
        ("8.6", "sm_90", "mov.b64 {_, _}, %rd1;", Some("operand `d`")),
        (
            "8.6",
            "sm_90",
            "ld.global.v4.u32 {%r1, _, %r2, %r3}, [gvar];",
            None,
        ),
        ("8.6", "sm_90", "ldu.global.v2.b32 {_, %r1}, [gvar];", None),
        ("8.6", "sm_90", "st.global.v2.b32 [gvar], {%r1, _};", None),
        (
            "8.6",
            "sm_90",
            "cvt.rs.satfinite.e4m3x4.f32 %r1, {%f0, _, %f2, %f3}, %r2;",
            Some("sink"),
        ),
    ]);
}

/// `%r+imm` is a value: ptxas accepts it wherever a source register may
/// stand, never as a destination nor where only an immediate may.
#[test]
fn register_plus_offset_is_a_source_value() {
    // See: corpus/legality/syntax, mutation syntax-reg-imm.
    expect(&[
        ("8.6", "sm_90", "cvt.rn.f16x2.f32 %r1, %f1+4, %f2;", None),
        ("8.6", "sm_90", "cvta.to.global.u64 %rd1, %rd2+8;", None),
        (
            "8.6",
            "sm_90",
            "shfl.sync.bfly.b32 %r1|%p1, %r2+1, 1, 31, -1;",
            None,
        ),
        ("8.6", "sm_90", "mov.b32 %r1+4, %r2;", Some("destination")),
        (
            "8.6",
            "sm_90",
            "cp.async.wait_group %r1+8;",
            Some("not allowed"),
        ),
        ("8.6", "sm_90", "mov.b32 %r1, %p1+1;", Some("predicate")),
    ]);
}

/// `gvar+8` is an address, an integer: it stands where a register or an
/// immediate may, for integer types, but not for the plain numbers of cache
/// policies and masks, nor where only an immediate may.
#[test]
fn variable_plus_offset_is_an_integer_value() {
    // See: corpus/legality/syntax, mutation syntax-var-imm.
    expect(&[
        ("8.6", "sm_90", "prmt.b32 %r1, gvar+8, %r2, %r3;", None),
        ("8.6", "sm_90", "st.global.u32 [gvar], gvar+8;", None),
        ("8.6", "sm_90", "mov.b64 {%r1, %r2}, gvar+8;", None),
        ("8.6", "sm_90", "cvt.sat.u64.s32 %ud1, gvar+8;", None),
        (
            "8.6",
            "sm_90",
            "st.global.f32 [gvar], gvar+8;",
            Some("integer constant"),
        ),
        (
            "8.6",
            "sm_90",
            "ld.global.L2::cache_hint.u32 %r1, [gvar], gvar+8;",
            Some("not allowed"),
        ),
        (
            "8.6",
            "sm_90",
            "cp.async.bulk.wait_group gvar+8;",
            Some("not allowed"),
        ),
        (
            "8.6",
            "sm_90",
            "mapa.u64 %rd1, gvar+8, 1;",
            Some("not allowed"),
        ),
        (
            "8.6",
            "sm_90",
            "getctarank.u64 %r1, gvar+8;",
            Some("`.shared`"),
        ),
        ("8.6", "sm_90", "isspacep.shared %p1, svar+8;", None),
    ]);
}

/// Immediates in source positions the syntax writes as registers: ptxas
/// accepts them, except floating-point constants for half and packed types
/// and integer constants for the half pairs.
#[test]
fn immediates_in_register_positions() {
    // See: corpus/legality/syntax, mutation syntax-imm.
    expect(&[
        (
            "8.6",
            "sm_90",
            "shfl.sync.bfly.b32 %r1|%p1, 0x10, 1, 31, -1;",
            None,
        ),
        ("8.6", "sm_90", "isspacep.local %p1, 1;", None),
        ("8.6", "sm_90", "cvta.to.local.u64 %rd1, 1;", None),
        ("8.6", "sm_90", "mapa.u32 %r1, 4, 1;", None),
        (
            "8.6",
            "sm_90",
            "cvt.rn.satfinite.bf16x2.f32 %r1, 0f3F800000, %f1;",
            None,
        ),
        ("8.6", "sm_90", "createpolicy.cvt.L2.b64 %rd1, 1;", None),
        (
            "8.6",
            "sm_90",
            "cvt.f64.f16 %rd1, 0d3FF0000000000000;",
            Some("cannot stand"),
        ),
        (
            "8.6",
            "sm_90",
            "cvt.rn.bf16x2.ue8m0x2 %r1, 4;",
            Some("immediate is not allowed"),
        ),
        (
            "8.6",
            "sm_90",
            "cvt.rs.f16x2.f32 %r1, %f1, %f2, 4;",
            Some("immediate is not allowed"),
        ),
        (
            "8.6",
            "sm_90",
            "multimem.red.global.add.bf16x2 [%rd1], 4;",
            Some("integer constant"),
        ),
        (
            "8.6",
            "sm_90",
            "multimem.st.global.f16x2 [%rd1], 0f3F800000;",
            Some("cannot stand"),
        ),
        (
            "8.6",
            "sm_100a",
            "multimem.st.global.e5m2x4 [%rd1], 31;",
            None,
        ),
        (
            "8.6",
            "sm_100a",
            "st.bulk.shared::cta [svar], 1, 0;",
            Some("multiple of 8"),
        ),
        (
            "8.6",
            "sm_90",
            "createpolicy.range.L2::evict_last.b64 %rd1, [gvar], -1, 4;",
            Some("primary-size"),
        ),
    ]);
}

/// Vector variables stand for whole vectors of mov, ld and st (PTX ISA
/// 6.4.3), not for the brace lists of multimem or cvt; `.weak` with
/// `.cluster` in st.async (ptxas rejects the pair).
#[test]
fn vector_variables_and_st_async_scope() {
    // See: corpus/legality/syntax, mutations syntax-vector-var, syntax-reg.
    expect(&[
        ("8.6", "sm_90", "ld.global.v4.b32 v4, [gvar];", None),
        ("8.6", "sm_90", "multimem.st.global.v4.f32 [%rd1], vf;", Some("brace list")),
        ("8.6", "sm_100a", "cvt.rs.satfinite.e4m3x4.f32 %r1, vf, %r2;", Some("brace list")),
        ("8.7", "sm_100a", "st.async.weak.cluster.shared::cluster.mbarrier::complete_tx::bytes.b32 [%r1], %r2, [%rd1];", Some("`.weak` cannot be combined")),
        ("8.7", "sm_100a", "st.async.cluster.shared::cluster.mbarrier::complete_tx::bytes.b32 [%r1], %r2, [%rd1];", None),
        ("8.6", "sm_90", "mov.b32 %r1, v2.y;", None),
        ("8.6", "sm_90", "mov.b32 %r1, v2.z;", Some("no element `.z`")),
    ]);
}

/// A `.func`'s `.reg .v2` parameters are vector registers (ZLUDA's
/// spirv_run/vector.ptx, which ptxas 13.0 accepts).
#[test]
fn vector_register_parameters_have_elements() {
    let src = ".version 6.5\n.target sm_60\n.address_size 64\n\
        .func (.reg .v2 .u32 output) impl(.reg .v2 .u32 input)\n{\n\
        \t.reg .v2 .u32 t;\n\t.reg .u32 a;\n\
        \tmov.u32 a, input.x;\n\tmov.u32 t.y, a;\n\tmov.v2.u32 output, t;\n\tret;\n}\n";
    let d = check(src);
    assert!(d.is_empty(), "{d:?}");
}

/// PTX 2.x declarations without `;` (gpuocelot's sdk2.2 files, accepted by
/// ptxas 13.0): the next directive ends them, and they print back as read.
#[test]
fn declarations_without_semicolon() {
    let src = ".version 2.1\n.target sm_20\n\
        .file 1 \"<command-line>\"\n\
        .visible .func (.param .s32 __cudaretf_f) f (.param .s32 __cudaparmf1_f)\n\
        .file 2 \"a.cu\"\n\
        .extern .func g (.param .s32 x)\n\
        .entry k (.param .u32 p)\n{\n\tret;\n}\n\
        .visible .func (.param .s32 r) h (.param .s32 a)\n\
        .visible .func (.param .s32 r) f (.param .s32 __cudaparmf1_f)\n{\n\
        \t.reg .u32 %r<2>;\n\tld.param.u32 %r1, [__cudaparmf1_f];\n\tst.param.s32 [r], %r1;\n\tret;\n}\n";
    let m = parse(src).expect("parses");
    let funcs: Vec<_> = m
        .items
        .iter()
        .filter_map(|i| match i {
            ptx_semantics::ptx::ast::Item::Function(f) => Some(f),
            _ => None,
        })
        .collect();
    assert_eq!(funcs.len(), 5);
    assert!(funcs[0].body.is_none() && !funcs[0].semicolon);
    assert!(funcs[1].body.is_none() && !funcs[1].semicolon);
    assert!(funcs[2].body.is_some());
    assert!(funcs[3].body.is_none() && !funcs[3].semicolon);
    let printed = ptx_semantics::ptx::print(&m);
    let again = parse(&printed).expect("reparses");
    assert_eq!(ptx_semantics::ptx::print(&again), printed);
    assert!(check(src).is_empty(), "{:?}", check(src));
    let with = parse(".version 2.1\n.target sm_20\n.func f (.param .s32 a);\n").expect("parses");
    let again = parse(&ptx_semantics::ptx::print(&with)).expect("reparses");
    assert_eq!(with, again);
}

/// The lowest PTX ISA version of old targets (ptxas 13.0 from sm_30 on,
/// the release history below), and `.address_size`, which needs 2.3.
#[test]
fn old_targets_and_address_size() {
    let module = |v: &str, t: &str, a: bool| {
        format!(
            ".version {v}\n.target {t}\n{}.entry k()\n{{\n\tret;\n}}\n",
            if a { ".address_size 64\n" } else { "" }
        )
    };
    for (v, t, ok) in [
        ("1.4", "sm_10", true),
        ("1.0", "sm_11", true),
        ("1.1", "sm_12", false),
        ("2.1", "sm_20", true),
        ("1.4", "sm_20", false),
        ("3.0", "sm_30", true),
        ("3.1", "sm_35", true),
        ("3.2", "sm_50", false),
        ("4.0", "sm_50", true),
        ("4.2", "sm_53", true),
        ("5.0", "sm_62", true),
        ("6.0", "sm_70", true),
        ("6.0", "sm_72", false),
        ("6.3", "sm_75", true),
        ("7.3", "sm_87", false),
    ] {
        let d = check(&module(v, t, false));
        assert_eq!(d.is_empty(), ok, "{v} {t}: {d:?}");
    }
    let d = check(&module("2.2", "sm_20", true));
    assert!(
        d.iter()
            .any(|d| d.message.contains("`.address_size` needs PTX ISA 2.3")),
        "{d:?}"
    );
    assert!(check(&module("2.3", "sm_20", true)).is_empty());
}
