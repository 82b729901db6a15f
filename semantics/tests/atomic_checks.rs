//! The checker on `atom` (PTX ISA 9.7.13.5) and `red` (9.7.13.6), rows in
//! `catalogue::arith` (`atomic.rs`): small modules accepted and refused,
//! each expectation beside the clause of the manual (PTX ISA 9.0, and the
//! "Atom Scalar Type Operations" table of later editions) or the ptxas
//! 13.0 verdict it comes from. `red.async` (9.7.13.7) is not judged by
//! these rows.

use ptx_semantics::check::{check_module, Options};
use ptx_semantics::ptx::parse;
use std::path::PathBuf;

/// A kernel around one instruction, with registers of every width and
/// `.global` and `.shared` variables.
fn kernel(target: &str, ptx: &str, instr: &str) -> String {
    let b128 = ptx
        .split_once('.')
        .and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)))
        .is_some_and(|v| v >= (8, 3));
    format!(
        ".version {ptx}\n.target {target}\n.address_size 64\n\n\
         .global .align 16 .b8 gvar[256];\n\n\
         .visible .entry kern(.param .u64 kp0)\n{{\n\
         \t.shared .align 16 .b8 svar[1024];\n\
         \t.reg .pred %p<4>;\n\t.reg .b16 %h<8>;\n\t.reg .b32 %r<8>;\n\
         \t.reg .b64 %rd<8>;\n\t.reg .f32 %f<8>;\n\t.reg .f64 %fd<8>;\n\
         \t.reg .u32 %u<8>;\n\t.reg .s64 %sd<8>;\n\t.reg .f16 %hf<8>;\n\
         \t.reg .v4 .f32 %vf<2>;\n{}\
         \t{instr};\n\tret;\n}}\n",
        if b128 { "\t.reg .b128 %q<4>;\n" } else { "" }
    )
}

/// The first message of the checker, or `Ok` when it finds nothing.
fn check(target: &str, ptx: &str, instr: &str) -> Result<(), String> {
    let m = parse(&kernel(target, ptx, instr)).map_err(|e| format!("parse: {e}"))?;
    match check_module(&m, &Options::default()).first() {
        None => Ok(()),
        Some(d) => Err(d.message.clone()),
    }
}

macro_rules! accepted {
    ($target:literal, $ptx:literal, $instr:literal) => {
        if let Err(e) = check($target, $ptx, $instr) {
            panic!("{} ({} {}) refused: {e}", $instr, $target, $ptx);
        }
    };
}

macro_rules! refused {
    ($target:literal, $ptx:literal, $instr:literal, $why:literal) => {
        match check($target, $ptx, $instr) {
            Ok(()) => panic!("{} ({} {}) accepted", $instr, $target, $ptx),
            Err(e) if e.starts_with("parse:") => panic!("{}: {e}", $instr),
            Err(e) => assert!(
                e.contains($why),
                "{} ({} {}): `{e}` does not say `{}`",
                $instr,
                $target,
                $ptx,
                $why
            ),
        }
    };
}

/// "atom{.sem}{.scope}{.space}.op{.level::cache_hint}.type d, [a], b{,
/// cache-policy}"; ".space = { .global, .shared{::cta, ::cluster} }";
/// "If no state space is given, perform the memory accesses using Generic
/// Addressing"; qualifiers in any order (the manual's own examples:
/// `atom.global.v8.f16.max.noftz`, `atom.add.shared::cluster.noftz.f16`).
#[test]
fn scalar_atom_forms_are_accepted() {
    accepted!("sm_90", "8.0", "atom.global.add.u32 %r1, [%rd1], 1");
    accepted!("sm_90", "8.0", "atom.shared.add.u32 %r1, [%r2], %r3");
    accepted!("sm_90", "8.0", "atom.shared::cta.max.u32 %r1, [svar+4], 0");
    accepted!("sm_90", "8.0", "atom.add.u64 %rd1, [%rd2], %rd3");
    accepted!("sm_90", "8.0", "atom.global.add.s32 %r1, [gvar], -1");
    accepted!("sm_90", "8.0", "atom.global.min.s64 %sd1, [%rd1], %sd2");
    accepted!("sm_90", "8.0", "atom.global.max.u64 %rd1, [%rd1], %rd2");
    accepted!("sm_90", "8.0", "atom.global.inc.u32 %u1, [%rd1], 100");
    accepted!("sm_90", "8.0", "atom.dec.u32 %u1, [%rd1], %u2");
    accepted!("sm_90", "8.0", "atom.global.and.b32 %r1, [%rd1], 0xff");
    accepted!("sm_90", "8.0", "atom.global.xor.b64 %rd1, [%rd1], %rd2");
    accepted!("sm_90", "8.0", "atom.global.exch.b32 %r1, [%rd1], %r2");
    accepted!("sm_90", "8.0", "atom.global.cas.b32 %r1, [%rd1], %r2, %r3");
    accepted!("sm_90", "8.0", "atom.global.cas.b64 %rd1, [%rd1], %rd2, 0");
    accepted!("sm_90", "8.0", "atom.global.add.f32 %f1, [%rd1], %f2");
    accepted!("sm_90", "8.0", "atom.shared.add.f64 %fd1, [%r1], %fd2");
    // "atom.global.sys.add.u32 d, [a], 1;
    // atom.global.acquire.sys.inc.u32 ans, [gbl], %r0;
    // atom.global.cluster.relaxed.add.u32 d, [a], 1" (Examples)
    accepted!("sm_90", "8.0", "atom.global.sys.add.u32 %r1, [%rd1], 1");
    accepted!(
        "sm_90",
        "8.0",
        "atom.global.acquire.sys.inc.u32 %r1, [%rd1], %r0"
    );
    accepted!(
        "sm_90",
        "8.0",
        "atom.global.cluster.relaxed.add.u32 %r1, [%rd1], 1"
    );
    // nvcc 13.0 writes the qualifiers in this order (corpus/realworld,
    // accepted by ptxas 13.0).
    accepted!("sm_90", "8.0", "atom.add.release.gpu.u32 %r1, [%rd1], 1");
    accepted!("sm_90", "8.0", "atom.or.acq_rel.cta.b32 %r1, [%rd1], %r2");
    // ".sem ... If the .scope qualifier is absent, .gpu scope is assumed by
    // default": `.sem` alone is complete (nvcc 13.0 writes
    // `atom.relaxed.global.cas.b32`, which ptxas 13.0 accepts).
    accepted!(
        "sm_90",
        "8.0",
        "atom.relaxed.global.cas.b32 %r1, [%rd1], %r2, %r3"
    );
}

/// "atom{.sem}{.scope}{.space}.cas.b16 d, [a], b, c;
/// atom{.sem}{.scope}{.space}.cas.b128 d, [a], b, c;
/// atom{.sem}{.scope}{.space}.exch{.level::cache_hint}.b128 d, [a], b";
/// "atom.add.noftz.f16 and atom.cas.b16 introduced in PTX ISA 6.3";
/// "Support for .b128 type introduced in PTX ISA version 8.3", "requires
/// sm_90 or higher"; "Support for .sys scope with .b128 type introduced in
/// PTX ISA version 8.4".
#[test]
fn sixteen_and_128_bit_forms() {
    accepted!("sm_90", "8.0", "atom.global.cas.b16 %h1, [%rd1], %h2, %h3");
    accepted!("sm_90", "8.3", "atom.global.cas.b128 %q1, [%rd1], %q2, %q3");
    accepted!("sm_90", "8.3", "atom.shared.exch.b128 %q1, [%r1], %q2");
    accepted!(
        "sm_90",
        "8.4",
        "atom.sys.global.cas.b128 %q1, [%rd1], %q2, %q3"
    );
    refused!(
        "sm_90",
        "8.3",
        "atom.sys.global.cas.b128 %q1, [%rd1], %q2, %q3",
        "8.4"
    );
    refused!(
        "sm_80",
        "8.3",
        "atom.global.exch.b128 %q1, [%rd1], %q2",
        "sm_90"
    );
    // ptxas 13.0: "Arguments mismatch for instruction 'atom'" for
    // `atom.exch.b16` (corpus/simulator/kernels/arith-refused-messages.txt).
    refused!(
        "sm_90",
        "8.0",
        "atom.global.exch.b16 %h1, [%rd1], %h2",
        "`.b16` is not allowed"
    );
    // .b128 has exch and cas only (Atom Scalar Type Operations).
    refused!(
        "sm_90",
        "8.3",
        "atom.global.add.b128 %q1, [%rd1], %q2",
        "is not allowed"
    );
    // "atom.cas.b16 requires sm_70 or higher": every target ptxas 13.0
    // takes is sm_75 or higher, so only the version can be short.
    refused!(
        "sm_75",
        "6.2",
        "atom.global.cas.b16 %h1, [%rd1], %h2, %h3",
        "6.3"
    );
}

/// "The integer operations are .add, .inc, .dec, .min, .max"; ".inc and
/// .dec are only supported for .u32 type" (PTX ISA 9.4); ptxas 13.0:
/// "Operation .add requires .u32 or .s32 or .u64 or .f64 or f16 or f16x2 or
/// .f32 or .bf16 or .bf16x2 type for instruction 'atom'", "Operation .inc
/// requires .u32 type" (corpus/simulator/kernels/arith-refused-messages.txt);
/// "The bit-size operations are .and, .or, .xor, .cas (compare-and-swap),
/// and .exch (exchange)".
#[test]
fn operations_follow_their_types() {
    refused!(
        "sm_90",
        "8.0",
        "atom.global.add.s64 %sd1, [%rd1], %sd2",
        "`.s64` is not allowed"
    );
    refused!(
        "sm_90",
        "8.0",
        "atom.global.inc.u64 %rd1, [%rd1], %rd2",
        "is not allowed"
    );
    refused!(
        "sm_90",
        "8.0",
        "red.shared.dec.u64 [%r1], %rd2",
        "is not allowed"
    );
    refused!(
        "sm_90",
        "8.0",
        "atom.global.and.u32 %r1, [%rd1], %r2",
        "`.u32` is not allowed"
    );
    refused!(
        "sm_90",
        "8.0",
        "atom.global.min.f32 %f1, [%rd1], %f2",
        "`.f32` is not allowed"
    );
    refused!(
        "sm_90",
        "8.0",
        "atom.global.exch.u32 %r1, [%rd1], %r2",
        "`.u32` is not allowed"
    );
    // `.cas` takes three operands: "atom{.sem}{.scope}{.space}.op.type d,
    // [a], b, c"; every other operation two.
    refused!(
        "sm_90",
        "8.0",
        "atom.global.cas.b32 %r1, [%rd1], %r2",
        "takes 4 operands"
    );
    refused!(
        "sm_90",
        "8.0",
        "atom.global.add.u32 %r1, [%rd1], %r2, %r3",
        "operands"
    );
}

/// "atom.add.f16, atom.add.f16x2, atom.add.bf16 and atom.add.bf16x2
/// operation requires the .noftz qualifier"; "atom.add.noftz.f16x2
/// introduced in PTX ISA 6.2"; "atom.add.noftz.bf16 and
/// atom.add.noftz.bf16x2 introduced in PTX ISA 7.8", "require sm_90";
/// "Qualifier .noftz with .f32 type introduced in PTX ISA version 9.4".
#[test]
fn half_precision_needs_noftz() {
    accepted!("sm_90", "8.0", "atom.global.add.noftz.f16 %h1, [%rd1], %h2");
    accepted!("sm_90", "8.0", "atom.add.noftz.f16x2 %r1, [%rd1], %r2");
    accepted!("sm_90", "8.0", "atom.add.noftz.bf16 %h1, [%rd1], %h2");
    accepted!(
        "sm_90",
        "8.0",
        "atom.add.shared::cluster.noftz.f16 %h1, [%r1], %h2"
    );
    accepted!("sm_90", "8.0", "red.gpu.global.add.noftz.f16x2 [%rd1], %r2");
    refused!(
        "sm_90",
        "8.0",
        "atom.global.add.f16 %h1, [%rd1], %h2",
        "missing `.noftz`"
    );
    refused!(
        "sm_80",
        "8.0",
        "atom.global.add.noftz.bf16x2 %r1, [%rd1], %r2",
        "sm_90"
    );
    refused!(
        "sm_90",
        "8.0",
        "atom.global.add.noftz.f32 %f1, [%rd1], %f2",
        "9.4"
    );
    refused!(
        "sm_90",
        "8.0",
        "atom.global.add.noftz.f64 %fd1, [%rd1], %fd2",
        "noftz"
    );
    // A half-precision operand is a register of its width.
    refused!(
        "sm_90",
        "8.0",
        "atom.global.add.noftz.f16 %r1, [%rd1], %h2",
        "does not fit"
    );
}

/// "Atomic operation with vector type: atom{.sem}{.scope}{.global}.add{.level::cache_hint}.vec_32_bit.f32
/// d, [a], b{, cache-policy}; ....op.noftz....vec_16_bit.half_word_type
/// ...; ....op.noftz....vec_32_bit.packed_type ..."; ".vec_16_bit = { .v2,
/// .v4, .v8 }", ".vec_32_bit = { .v2, .v4 }"; "atom with vector type may be
/// used only with .global space and with generic addressing"; "Support for
/// vector types introduced in PTX ISA version 8.1", "requires sm_90".
#[test]
fn vector_forms() {
    accepted!(
        "sm_90",
        "8.1",
        "atom.global.v4.f32.add {%f0, %f1, %f2, %f3}, [%rd1], {%f4, %f5, %f6, %f7}"
    );
    accepted!(
        "sm_90",
        "8.1",
        "atom.global.v8.f16.max.noftz {%h0, %h1, %h2, %h3, %h4, %h5, %h6, %h7}, [%rd1], {%h0, %h1, %h2, %h3, %h4, %h5, %h6, %h7}"
    );
    accepted!(
        "sm_90",
        "8.1",
        "atom.v2.bf16x2.max.noftz {%r0, %r1}, [%rd1], {%r2, %r3}"
    );
    // 6.4.3: vector variables stand for brace lists with atom and red.
    accepted!("sm_90", "8.1", "red.global.v4.f32.add [%rd1], %vf1");
    accepted!(
        "sm_90",
        "8.1",
        "red.global.v8.bf16.min.noftz [%rd1], {%h0, %h1, %h2, %h3, %h4, %h5, %h6, %h7}"
    );
    refused!(
        "sm_90",
        "8.1",
        "atom.shared.v2.f32.add {%f0, %f1}, [%r1], {%f2, %f3}",
        "`.v2` is not allowed"
    );
    refused!(
        "sm_90",
        "8.0",
        "atom.global.v2.f32.add {%f0, %f1}, [%rd1], {%f2, %f3}",
        "8.1"
    );
    refused!(
        "sm_80",
        "8.1",
        "atom.global.v2.f32.add {%f0, %f1}, [%rd1], {%f2, %f3}",
        "sm_90"
    );
    // .v8 of the packed types and .min/.max of .f32 are not in the table.
    refused!(
        "sm_90",
        "8.1",
        "red.global.v8.f16x2.add.noftz [%rd1], {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}",
        "not allowed"
    );
    refused!(
        "sm_90",
        "8.1",
        "atom.global.v2.f32.max {%f0, %f1}, [%rd1], {%f2, %f3}",
        "not allowed"
    );
    refused!(
        "sm_90",
        "8.1",
        "atom.global.v4.f32.add {%f0, %f1}, [%rd1], {%f2, %f3}",
        "vector of 4"
    );
}

/// ".scope = { .cta, .cluster, .gpu, .sys }"; "Support for .cluster scope
/// qualifier introduced in PTX ISA version 7.8", "requires sm_90 or
/// higher"; ".sem qualifier introduced in PTX ISA version 6.0", "requires
/// sm_70"; "Sub-qualifier ::cluster requires sm_90 or higher".
#[test]
fn scopes_and_spaces_need_their_versions_and_targets() {
    refused!(
        "sm_80",
        "8.0",
        "atom.global.cluster.add.u32 %r1, [%rd1], 1",
        "sm_90"
    );
    refused!(
        "sm_90",
        "7.6",
        "atom.global.cluster.add.u32 %r1, [%rd1], 1",
        "7.8"
    );
    refused!(
        "sm_80",
        "8.0",
        "atom.shared::cluster.add.u32 %r1, [%r1], 1",
        "sm_90"
    );
    refused!(
        "sm_90",
        "8.0",
        "atom.local.add.u32 %r1, [%rd1], 1",
        "`.local` is not allowed"
    );
    refused!(
        "sm_90",
        "8.0",
        "atom.global.weak.add.u32 %r1, [%rd1], 1",
        "`.weak` is not allowed"
    );
    refused!(
        "sm_90",
        "8.0",
        "atom.global.relaxed.relaxed.add.u32 %r1, [%rd1], 1",
        "relaxed"
    );
}

/// "When the optional argument cache-policy is specified, the qualifier
/// .level::cache_hint is required"; "The qualifier .level::cache_hint is
/// only supported for .global state space and for generic addressing";
/// "Support for .level::cache_hint qualifier introduced in PTX ISA version
/// 7.4", "requires sm_80".
#[test]
fn cache_hint_and_its_policy() {
    accepted!(
        "sm_90",
        "8.0",
        "atom.global.add.L2::cache_hint.s32 %r1, [%rd1], 1, %rd2"
    );
    accepted!(
        "sm_90",
        "8.0",
        "red.global.and.L2::cache_hint.b32 [%rd1], 1, %rd2"
    );
    refused!(
        "sm_90",
        "8.0",
        "atom.global.add.s32 %r1, [%rd1], 1, %rd2",
        "operands"
    );
    refused!(
        "sm_90",
        "8.0",
        "atom.global.add.L2::cache_hint.s32 %r1, [%rd1], 1",
        "operands"
    );
    refused!(
        "sm_90",
        "8.0",
        "atom.shared.add.L2::cache_hint.s32 %r1, [%r1], 1, %rd2",
        "only supported for .global"
    );
    refused!(
        "sm_80",
        "7.2",
        "atom.global.add.L2::cache_hint.s32 %r1, [%rd1], 1, %rd2",
        "7.4"
    );
    // The syntax gives `.cas` no cache hint.
    refused!(
        "sm_90",
        "8.0",
        "atom.global.cas.L2::cache_hint.b32 %r1, [%rd1], %r2, %r3, %rd2",
        "not allowed"
    );
}

/// 9.7.13.6: "red{.sem}{.scope}{.space}.op{.level::cache_hint}.type [a],
/// b{, cache-policy}"; ".sem = {.relaxed, .release}"; ".op = { .and, .or,
/// .xor, .add, .inc, .dec, .min, .max }" (no destination, no `.cas`, no
/// `.exch`).
#[test]
fn red_forms() {
    accepted!("sm_90", "8.0", "red.global.add.s32 [%rd1], 1");
    accepted!("sm_90", "8.0", "red.shared::cluster.max.u32 [svar+4], 0");
    accepted!("sm_90", "8.0", "red.and.release.cta.b32 [%rd1], %r2");
    accepted!("sm_90", "8.0", "red.relaxed.gpu.global.add.s32 [%rd1], %r2");
    accepted!("sm_90", "8.0", "red.global.add.f64 [%rd1], %fd1");
    refused!(
        "sm_90",
        "8.0",
        "red.global.add.u32 %r1, [%rd1], 1",
        "takes 2"
    );
    refused!(
        "sm_90",
        "8.0",
        "red.global.cas.b32 [%rd1], %r1, %r2",
        "`.cas` is not allowed"
    );
    refused!(
        "sm_90",
        "8.0",
        "red.global.exch.b32 [%rd1], %r1",
        "`.exch` is not allowed"
    );
    refused!(
        "sm_90",
        "8.0",
        "red.global.acq_rel.gpu.add.u32 [%rd1], 1",
        "`.acq_rel` is not allowed"
    );
}

/// Operands: "d" a register of the type or, 9.7.13.5 Notes, "Simple
/// reductions may be specified by using the bit bucket destination operand
/// _"; `[a]` an address in the state space named (a variable of another
/// space is "State space mismatch" for ptxas); an immediate of the type's
/// kind.
#[test]
fn operands() {
    accepted!("sm_90", "8.0", "atom.global.add.u32 _, [%rd1], 1");
    accepted!(
        "sm_90",
        "8.0",
        "atom.global.add.f32 %f1, [gvar+8], 0f3F800000"
    );
    refused!("sm_90", "8.0", "red.global.add.u32 _, [%rd1], 1", "takes 2");
    refused!(
        "sm_90",
        "8.0",
        "atom.global.add.u32 %rd1, [%rd1], 1",
        "does not fit"
    );
    refused!(
        "sm_90",
        "8.0",
        "atom.global.add.f32 %f1, [%rd1], 1",
        "integer constant"
    );
    refused!(
        "sm_90",
        "8.0",
        "atom.global.add.u32 %r1, [svar], 1",
        "`svar` is in `.shared`"
    );
    refused!(
        "sm_90",
        "8.0",
        "atom.global.add.u32 %r1, %rd1, 1",
        "operand `[a]`"
    );
}

/// The address rule of `semantics/tests/address_width.rs` holds on the
/// catalogue's route too: a 32-bit register is no `.global` or generic
/// address under `.address_size 64` (ptxas 13.0: "Program uses 32-bit
/// address ... conflicting with .address_size 64"), but is a `.shared` one.
#[test]
fn address_widths() {
    refused!(
        "sm_90",
        "8.0",
        "atom.global.add.u32 %r1, [%r2], 1",
        "32-bit register"
    );
    refused!("sm_90", "8.0", "red.add.u32 [%r2], 1", "32-bit register");
    refused!(
        "sm_90",
        "8.0",
        "atom.global.add.u32 %r1, [0], 1",
        "immediate address"
    );
    accepted!("sm_90", "8.0", "atom.shared::cta.add.u32 %r1, [%r2], 1");
    accepted!("sm_90", "8.0", "red.shared.add.u32 [%r2], 1");
}

/// `red.async` (9.7.13.7) shares `red`'s first word but none of its rows:
/// its forms pass as before (opcode, names, version and target gates).
#[test]
fn red_async_stays_outside_the_rows() {
    accepted!(
        "sm_90",
        "8.1",
        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32 [%r1], %r2, [%r3]"
    );
    refused!(
        "sm_90",
        "8.0",
        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32 [%r1], %r2, [%r3]",
        "8.1"
    );
}

/// The simulator's `atom.ptx` (corpus/simulator/kernels, `.version 8.7`,
/// `.target sm_90`): every operation and type of atom and red that ptxas
/// 13.0 took, in `.global`, `.shared::cta`, `.shared::cluster` and generic
/// addresses; the checker takes it whole.
#[test]
fn the_simulator_kernel_ptxas_accepted_checks_clean() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/simulator/kernels/atom.ptx");
    let text = std::fs::read_to_string(&path).expect("atom.ptx");
    let atoms = text
        .lines()
        .filter(|l| {
            let l = l.trim_start();
            l.starts_with("atom.") || l.starts_with("red.")
        })
        .count();
    assert!(atoms > 100, "{atoms} atom/red lines");
    let m = parse(&text).expect("parses");
    let diags = check_module(&m, &Options::default());
    assert!(
        diags.is_empty(),
        "{:?}",
        diags.iter().map(|d| &d.message).take(5).collect::<Vec<_>>()
    );
}
