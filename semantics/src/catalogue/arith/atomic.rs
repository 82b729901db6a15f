//! Atomic and reduction operations on memory: `atom` (PTX ISA 9.7.13.5)
//! and `red` (9.7.13.6), numbered as in PTX ISA 9.0. `red.async`
//! (9.7.13.7) is not here: the checker keeps it out of these rows.
//!
//! The manual's syntax block gives `.op` and `.type` as free sets; which
//! operations each type takes comes from its prose ("The bit-size
//! operations are .and, .or, .xor, .cas (compare-and-swap), and .exch";
//! "The integer operations are .add, .inc, .dec, .min, .max"), from the
//! table of later editions ("Atom Scalar Type Operations": `.inc`/`.dec`
//! on `.u32` only, `.add` not on `.s64`, `.b128` with `.exch` and `.cas`
//! only) and from ptxas 13.0, which refuses `add.s64`, `inc.u64`,
//! `dec.u64` ("Operation .inc requires .u32 type for instruction 'atom'")
//! and `atom.exch.b16` ("Arguments mismatch";
//! corpus/simulator/kernels/arith-refused-messages.txt). So each group of
//! operations has rows of its own types.
//!
//! Operands: `d` a register of the type, or the sink (9.7.13.5, Notes:
//! "Simple reductions may be specified by using the bit bucket destination
//! operand _"); `[a]` an address; `b`, `c` a register or an immediate of
//! the type, except the half-precision operands, which are registers (as
//! for half-precision arithmetic, 9.7.4, where ptxas 13.0 takes no
//! immediate; it takes an integer for `.b128`, corpus/legality/arith); the vector forms take brace lists ("operands d and
//! b are brace-enclosed vector expressions, size of which is equal to the
//! size of vector qualifier") or vector variables (6.4.3: "Vector operands
//! are supported by a limited subset of instructions, which include mov,
//! ld, st, atom, red and tex"). Qualifiers come in any order: the manual's
//! own examples write `atom.global.v8.f16.max.noftz`,
//! `atom.add.shared::cluster.noftz.f16`, and nvcc 13.0 writes
//! `atom.add.release.gpu.u32` (corpus/realworld).
//!
//! Requirements are the "PTX ISA Notes" and "Target ISA Notes" of each
//! section; `.noftz` on `.f32` is quoted from PTX ISA 9.4 ("Qualifier .noftz
//! with .f32 type introduced in PTX ISA version 9.4", "requires sm_90").

use crate::catalogue::{Binding, Row, Rule};

// ---- sets ----

const SPACE: &str = ".space = { .global, .shared{::cta, ::cluster} }";
/// Vector forms: "atom{.sem}{.scope}{.global}...".
const SPACE_GLOBAL: &str = ".space = { .global }";
const SEM_ATOM: &str = ".sem = { .relaxed, .acquire, .release, .acq_rel }";
/// 9.7.13.6: "red ... .sem = {.relaxed, .release}".
const SEM_RED: &str = ".sem = { .relaxed, .release }";
const SCOPE: &str = ".scope = { .cta, .cluster, .gpu, .sys }";
const HINT: &str = ".level::cache_hint = { .L2::cache_hint }";
const BIT_OPS: &str = ".op = { .and, .or, .xor }";
const BIT_TYPES: &str = ".type = { .b32, .b64 }";
const MINMAX: &str = ".op = { .min, .max }";
const INT_TYPES: &str = ".type = { .u32, .s32, .u64, .s64 }";
const ADD_TYPES: &str = ".type = { .u32, .s32, .u64 }";
const INCDEC: &str = ".op = { .inc, .dec }";
const FLOAT_TYPES: &str = ".type = { .f32, .f64 }";
const HALF_TYPES: &str = ".type = { .f16, .f16x2, .bf16, .bf16x2 }";
const VEC_OPS: &str = ".op = { .add, .min, .max }";
const VEC_32: &str = ".vec_32_bit = { .v2, .v4 }";
const VEC_16: &str = ".vec_16_bit = { .v2, .v4, .v8 }";
const HALF_WORD: &str = ".half_word_type = { .f16, .bf16 }";
const PACKED: &str = ".packed_type = { .f16x2, .bf16x2 }";

// ---- operands ----

const ATOM_OPS: &str =
    "d: reg type, [a]: addr, b: reg|imm type, cache-policy: reg|num .b64 if .L2::cache_hint";
const ATOM_OPS_REG: &str =
    "d: reg type, [a]: addr, b: reg type, cache-policy: reg|num .b64 if .L2::cache_hint";
const CAS_OPS: &str = "d: reg type, [a]: addr, b: reg|imm type, c: reg|imm type";
const RED_OPS: &str = "[a]: addr, b: reg|imm type, cache-policy: reg|num .b64 if .L2::cache_hint";
const RED_OPS_REG: &str = "[a]: addr, b: reg type, cache-policy: reg|num .b64 if .L2::cache_hint";

// ---- requirements (PTX ISA Notes / Target ISA Notes of 9.7.13.5, 9.7.13.6) ----

/// "Support for .cluster scope qualifier introduced in PTX ISA version
/// 7.8"; "requires sm_90 or higher".
const CLUSTER: (&str, &str) = ("scope=.cluster", "7.8 sm_90");
/// "Support for ::cta and ::cluster sub-qualifiers introduced in PTX ISA
/// version 7.8"; "Sub-qualifier ::cta requires sm_30 or higher";
/// "Sub-qualifier ::cluster requires sm_90 or higher".
const SHARED_CTA: (&str, &str) = (".shared::cta", "7.8 sm_30");
const SHARED_CLUSTER: (&str, &str) = (".shared::cluster", "7.8 sm_90");
/// "Support for .level::cache_hint qualifier introduced in PTX ISA version
/// 7.4"; "requires sm_80 or higher".
const CACHE_HINT: (&str, &str) = (".L2::cache_hint", "7.4 sm_80");
/// "atom.add.f32 ... introduced in PTX ISA 2.0"; "atom.add.f32 requires
/// sm_20 or higher" (red: the same words).
const F32: (&str, &str) = ("type=.f32", "2.0 sm_20");
/// "atom.add.f64 introduced in PTX ISA 5.0"; "requires sm_60 or higher".
const F64: (&str, &str) = ("type=.f64", "5.0 sm_60");
/// "atom.add.noftz.f16x2 introduced in PTX ISA 6.2"; "requires sm_60".
const F16X2: (&str, &str) = ("type=.f16x2", "6.2 sm_60");
/// "atom.add.noftz.f16 and atom.cas.b16 introduced in PTX ISA 6.3";
/// "requires sm_70 or higher".
const F16: (&str, &str) = ("type=.f16", "6.3 sm_70");
const B16: (&str, &str) = ("type=.b16", "6.3 sm_70");
/// "atom.add.noftz.bf16 and atom.add.noftz.bf16x2 introduced in PTX ISA
/// 7.8"; "require sm_90 or higher".
const BF16: (&str, &str) = ("type=.bf16", "7.8 sm_90");
const BF16X2: (&str, &str) = ("type=.bf16x2", "7.8 sm_90");
/// "Support for .b128 type introduced in PTX ISA version 8.3"; "Support
/// for .b128 type requires sm_90 or higher".
const B128: (&str, &str) = ("type=.b128", "8.3 sm_90");
/// PTX ISA 9.4: "Qualifier .noftz with .f32 type introduced in PTX ISA
/// version 9.4"; "Support for .noftz with .f32 type requires sm_90 or
/// higher".
const NOFTZ_F32: (&str, &str) = (".noftz", "9.4 sm_90");

fn shared(b: &Binding) -> bool {
    b.get("space").is_some_and(|s| s.starts_with(".shared"))
}

fn wide(b: &Binding) -> bool {
    b.ty("type").is_some_and(|t| t.bits == 64)
}

const SEM_NEEDS: Rule = Rule::needs(
    ".sem qualifier introduced in PTX ISA version 6.0; .sem qualifier requires sm_70 or higher",
    "6.0 sm_70",
    |b| b.get("sem").is_some(),
);
const SCOPE_NEEDS: Rule = Rule::needs(
    ".scope qualifier introduced in PTX ISA 5.0; .scope qualifier requires sm_60 or higher",
    "5.0 sm_60",
    |b| b.get("scope").is_some(),
);
const GENERIC: Rule = Rule::needs(
    "Use of generic addressing requires sm_20 or higher (generic addressing: PTX ISA 2.0)",
    "2.0 sm_20",
    |b| b.get("space").is_none(),
);
const ATOM_SHARED: Rule = Rule::needs(
    "atom.shared ... introduced in PTX ISA 1.2; atom.shared requires sm_12 or higher",
    "1.2 sm_12",
    shared,
);
const RED_SHARED: Rule = Rule::needs("red.shared requires sm_12 or higher", "1.2 sm_12", shared);
const HINT_SPACE: Rule = Rule::illegal(
    "The qualifier .level::cache_hint is only supported for .global state space and for generic addressing where the address points to the .global state space",
    |b| b.has(".L2::cache_hint") && shared(b),
);
const WIDE_BIT: Rule = Rule::needs(
    "64-bit atom.{and,or,xor,min,max} introduced in PTX ISA 3.1; 64-bit atom.{and,or,xor,min,max} require sm_32 or higher",
    "3.1 sm_32",
    wide,
);
const RED_WIDE_BIT: Rule = Rule::needs(
    "64-bit red.{and,or,xor,min,max} introduced in PTX ISA 3.1; 64-bit red.{and,or,xor,min,max} require sm_32 or higher",
    "3.1 sm_32",
    wide,
);
const WIDE_GLOBAL: Rule = Rule::needs(
    "64-bit atom.global.{add,cas,exch} introduced in PTX ISA 1.2; 64-bit atom.global.{add,cas,exch} require sm_12 or higher",
    "1.2 sm_12",
    wide,
);
const WIDE_SHARED: Rule = Rule::needs(
    "64-bit atom.shared.{add,cas,exch} introduced in PTX ISA 2.0; 64-bit atom.shared.{add,cas,exch} require sm_20 or higher",
    "2.0 sm_20",
    |b| wide(b) && shared(b),
);
const RED_WIDE_GLOBAL: Rule = Rule::needs(
    "red.global.add.u64 requires sm_12 or higher",
    "1.2 sm_12",
    wide,
);
const RED_WIDE_SHARED: Rule = Rule::needs(
    "red.add.f32 and red.shared.add.u64 introduced in PTX ISA 2.0; red.shared.add.u64 requires sm_20 or higher",
    "2.0 sm_20",
    |b| wide(b) && shared(b),
);
const SYS_B128: Rule = Rule::needs(
    "Support for .sys scope with .b128 type introduced in PTX ISA version 8.4",
    "8.4",
    |b| b.is("scope", ".sys") && b.is("type", ".b128"),
);
const NOFTZ_F64: Rule = Rule::illegal(
    "atom/red .add.noftz takes .f16, .f16x2, .bf16, .bf16x2 and (from PTX ISA 9.4) .f32; .f64 is \"noftz by default\" and takes no .noftz",
    |b| b.has(".noftz") && b.is("type", ".f64"),
);
const VECTORS: &str = "8.1 sm_90";

/// The scalar forms of `atom` (9.7.13.5):
/// "atom{.sem}{.scope}{.space}.op{.level::cache_hint}.type d, [a], b{, cache-policy};
/// atom{.sem}{.scope}{.space}.op.type d, [a], b, c;
/// atom{.sem}{.scope}{.space}.cas.b16 d, [a], b, c;
/// atom{.sem}{.scope}{.space}.cas.b128 d, [a], b, c;
/// atom{.sem}{.scope}{.space}.exch{.level::cache_hint}.b128 d, [a], b {, cache-policy};
/// atom{.sem}{.scope}{.space}.add.noftz{.level::cache_hint}.f16 d, [a], b{, cache-policy};
/// ... .f16x2, .bf16, .bf16x2";
/// "32-bit atom.global introduced in PTX ISA version 1.1"; "atom.global
/// requires sm_11 or higher".
pub static ATOM: &[Row] = &[
    // "The bit-size operations are .and, .or, .xor, .cas (compare-and-swap),
    // and .exch (exchange)."
    Row {
        instr: "atom",
        id: "atom.bit",
        section: "9.7.13.5",
        syntax: "atom{.sem}{.scope}{.space}.op{.level::cache_hint}.type",
        operands: ATOM_OPS,
        sets: &[SEM_ATOM, SCOPE, SPACE, BIT_OPS, HINT, BIT_TYPES],
        since: "1.1 sm_11",
        needs: &[CLUSTER, SHARED_CTA, SHARED_CLUSTER, CACHE_HINT],
        rules: &[HINT_SPACE, SEM_NEEDS, SCOPE_NEEDS, GENERIC, ATOM_SHARED, WIDE_BIT],
        ..Row::BASE
    },
    // `.exch` on 32 and 64 bits ("Arguments mismatch" from ptxas 13.0 for
    // `atom.exch.b16`; the `.b16` form is `.cas` only).
    Row {
        instr: "atom",
        id: "atom.exch",
        section: "9.7.13.5",
        syntax: "atom{.sem}{.scope}{.space}.exch{.level::cache_hint}.type",
        operands: ATOM_OPS,
        sets: &[SEM_ATOM, SCOPE, SPACE, HINT, BIT_TYPES],
        since: "1.1 sm_11",
        needs: &[CLUSTER, SHARED_CTA, SHARED_CLUSTER, CACHE_HINT],
        rules: &[
            HINT_SPACE,
            SEM_NEEDS,
            SCOPE_NEEDS,
            GENERIC,
            ATOM_SHARED,
            WIDE_GLOBAL,
            WIDE_SHARED,
        ],
        ..Row::BASE
    },
    // "atom{.sem}{.scope}{.space}.exch{.level::cache_hint}.b128 d, [a], b
    // {, cache-policy}".
    Row {
        instr: "atom",
        id: "atom.exch.b128",
        section: "9.7.13.5",
        syntax: "atom{.sem}{.scope}{.space}.exch{.level::cache_hint}.type",
        // ptxas 13.0 takes an integer immediate for the `.b128` source
        // (`atom.exch.b128 d, [a], 0x3C00`, corpus/legality/arith)
        operands: ATOM_OPS,
        sets: &[SEM_ATOM, SCOPE, SPACE, HINT, ".type = { .b128 }"],
        since: "8.3 sm_90",
        needs: &[CLUSTER, SHARED_CTA, SHARED_CLUSTER, CACHE_HINT, B128],
        rules: &[HINT_SPACE, SEM_NEEDS, SCOPE_NEEDS, SYS_B128],
        ..Row::BASE
    },
    // "atom{.sem}{.scope}{.space}.op.type d, [a], b, c;" with `.cas`
    // ("operand b is the compare value and operand c is the swap value"),
    // and "atom{.sem}{.scope}{.space}.cas.b16 d, [a], b, c"; the syntax
    // gives `.cas` no cache hint.
    Row {
        instr: "atom",
        id: "atom.cas",
        section: "9.7.13.5",
        syntax: "atom{.sem}{.scope}{.space}.cas.type",
        operands: CAS_OPS,
        sets: &[SEM_ATOM, SCOPE, SPACE, ".type = { .b16, .b32, .b64 }"],
        since: "1.1 sm_11",
        needs: &[CLUSTER, SHARED_CTA, SHARED_CLUSTER, B16],
        rules: &[
            SEM_NEEDS,
            SCOPE_NEEDS,
            GENERIC,
            ATOM_SHARED,
            WIDE_GLOBAL,
            WIDE_SHARED,
        ],
        ..Row::BASE
    },
    // "atom{.sem}{.scope}{.space}.cas.b128 d, [a], b, c".
    Row {
        instr: "atom",
        id: "atom.cas.b128",
        section: "9.7.13.5",
        syntax: "atom{.sem}{.scope}{.space}.cas.type",
        // as `exch`: immediates taken (`atom.shared::cta.cas.b128 d, [a], -1, c`)
        operands: CAS_OPS,
        sets: &[SEM_ATOM, SCOPE, SPACE, ".type = { .b128 }"],
        since: "8.3 sm_90",
        needs: &[CLUSTER, SHARED_CTA, SHARED_CLUSTER, B128],
        rules: &[SEM_NEEDS, SCOPE_NEEDS, SYS_B128],
        ..Row::BASE
    },
    // "The integer operations are .add, .inc, .dec, .min, .max"; ptxas
    // 13.0: "Operation .add requires .u32 or .s32 or .u64 or .f64 or f16
    // or f16x2 or .f32 or .bf16 or .bf16x2 type for instruction 'atom'"
    // (`add.s64` refused).
    Row {
        instr: "atom",
        id: "atom.add.int",
        section: "9.7.13.5",
        syntax: "atom{.sem}{.scope}{.space}.add{.level::cache_hint}.type",
        operands: ATOM_OPS,
        sets: &[SEM_ATOM, SCOPE, SPACE, HINT, ADD_TYPES],
        since: "1.1 sm_11",
        needs: &[CLUSTER, SHARED_CTA, SHARED_CLUSTER, CACHE_HINT],
        rules: &[
            HINT_SPACE,
            SEM_NEEDS,
            SCOPE_NEEDS,
            GENERIC,
            ATOM_SHARED,
            WIDE_GLOBAL,
            WIDE_SHARED,
        ],
        ..Row::BASE
    },
    Row {
        instr: "atom",
        id: "atom.minmax.int",
        section: "9.7.13.5",
        syntax: "atom{.sem}{.scope}{.space}.op{.level::cache_hint}.type",
        operands: ATOM_OPS,
        sets: &[SEM_ATOM, SCOPE, SPACE, MINMAX, HINT, INT_TYPES],
        since: "1.1 sm_11",
        needs: &[CLUSTER, SHARED_CTA, SHARED_CLUSTER, CACHE_HINT],
        rules: &[HINT_SPACE, SEM_NEEDS, SCOPE_NEEDS, GENERIC, ATOM_SHARED, WIDE_BIT],
        ..Row::BASE
    },
    // ".inc and .dec are only supported for .u32 type" (PTX ISA 9.4);
    // ptxas 13.0: "Operation .inc requires .u32 type for instruction
    // 'atom'".
    Row {
        instr: "atom",
        id: "atom.incdec",
        section: "9.7.13.5",
        syntax: "atom{.sem}{.scope}{.space}.op{.level::cache_hint}.type",
        operands: ATOM_OPS,
        sets: &[SEM_ATOM, SCOPE, SPACE, INCDEC, HINT, ".type = { .u32 }"],
        since: "1.1 sm_11",
        needs: &[CLUSTER, SHARED_CTA, SHARED_CLUSTER, CACHE_HINT],
        rules: &[HINT_SPACE, SEM_NEEDS, SCOPE_NEEDS, GENERIC, ATOM_SHARED],
        ..Row::BASE
    },
    // "The floating-point operation .add operation rounds to nearest even";
    // `.add.f32`, `.add.f64`, and (PTX ISA 9.4) `.add.noftz.f32`.
    Row {
        instr: "atom",
        id: "atom.add.float",
        section: "9.7.13.5",
        syntax: "atom{.sem}{.scope}{.space}.add{.noftz}{.level::cache_hint}.type",
        operands: ATOM_OPS,
        sets: &[SEM_ATOM, SCOPE, SPACE, HINT, FLOAT_TYPES],
        since: "1.1 sm_11",
        needs: &[
            CLUSTER,
            SHARED_CTA,
            SHARED_CLUSTER,
            CACHE_HINT,
            F32,
            F64,
            NOFTZ_F32,
        ],
        rules: &[
            NOFTZ_F64,
            HINT_SPACE,
            SEM_NEEDS,
            SCOPE_NEEDS,
            GENERIC,
            ATOM_SHARED,
        ],
        ..Row::BASE
    },
    // "atom.add.f16, atom.add.f16x2, atom.add.bf16 and atom.add.bf16x2
    // operation requires the .noftz qualifier".
    Row {
        instr: "atom",
        id: "atom.add.half",
        section: "9.7.13.5",
        syntax: "atom{.sem}{.scope}{.space}.add.noftz{.level::cache_hint}.type",
        operands: ATOM_OPS_REG,
        sets: &[SEM_ATOM, SCOPE, SPACE, HINT, HALF_TYPES],
        since: "1.1 sm_11",
        needs: &[
            CLUSTER,
            SHARED_CTA,
            SHARED_CLUSTER,
            CACHE_HINT,
            F16,
            F16X2,
            BF16,
            BF16X2,
        ],
        rules: &[HINT_SPACE, SEM_NEEDS, SCOPE_NEEDS, GENERIC, ATOM_SHARED],
        ..Row::BASE
    },
    // Vector forms: "atom{.sem}{.scope}{.global}.add{.level::cache_hint}.vec_32_bit.f32
    // d, [a], b{, cache-policy}; atom{.sem}{.scope}{.global}.op.noftz{.level::cache_hint}.vec_16_bit.half_word_type
    // ...; atom{.sem}{.scope}{.global}.op.noftz{.level::cache_hint}.vec_32_bit.packed_type
    // ..."; "atom with vector type may be used only with .global space and
    // with generic addressing"; "Support for vector types introduced in
    // PTX ISA version 8.1"; "requires sm_90 or higher". `.add{.noftz}` on
    // `.f32` from PTX ISA 9.4.
    Row {
        instr: "atom",
        id: "atom.vec.f32",
        section: "9.7.13.5",
        syntax: "atom{.sem}{.scope}{.space}.add{.noftz}{.level::cache_hint}.vec_32_bit.f32",
        operands: "d: vec<vec_32_bit>|sink .f32, [a]: addr, b: vec<vec_32_bit> .f32, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[SEM_ATOM, SCOPE, SPACE_GLOBAL, HINT, VEC_32],
        since: VECTORS,
        needs: &[CLUSTER, CACHE_HINT, NOFTZ_F32],
        rules: &[SEM_NEEDS, SCOPE_NEEDS],
        ..Row::BASE
    },
    Row {
        instr: "atom",
        id: "atom.vec.half",
        section: "9.7.13.5",
        syntax: "atom{.sem}{.scope}{.space}.op.noftz{.level::cache_hint}.vec_16_bit.half_word_type",
        operands: "d: vec<vec_16_bit>|sink half_word_type, [a]: addr, b: vec<vec_16_bit> half_word_type, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[SEM_ATOM, SCOPE, SPACE_GLOBAL, VEC_OPS, HINT, VEC_16, HALF_WORD],
        since: VECTORS,
        needs: &[CLUSTER, CACHE_HINT],
        rules: &[SEM_NEEDS, SCOPE_NEEDS],
        ..Row::BASE
    },
    Row {
        instr: "atom",
        id: "atom.vec.packed",
        section: "9.7.13.5",
        syntax: "atom{.sem}{.scope}{.space}.op.noftz{.level::cache_hint}.vec_32_bit.packed_type",
        operands: "d: vec<vec_32_bit>|sink packed_type, [a]: addr, b: vec<vec_32_bit> packed_type, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[SEM_ATOM, SCOPE, SPACE_GLOBAL, VEC_OPS, HINT, VEC_32, PACKED],
        since: VECTORS,
        needs: &[CLUSTER, CACHE_HINT],
        rules: &[SEM_NEEDS, SCOPE_NEEDS],
        ..Row::BASE
    },
];

/// The forms of `red` (9.7.13.6):
/// "red{.sem}{.scope}{.space}.op{.level::cache_hint}.type [a], b{, cache-policy};
/// red{.sem}{.scope}{.space}.add.noftz{.level::cache_hint}.f16 [a], b{, cache-policy};
/// ... .f16x2, .bf16, .bf16x2"; ".op = { .and, .or, .xor, .add, .inc,
/// .dec, .min, .max }" (no `.cas`, no `.exch`); "Introduced in PTX ISA
/// version 1.2"; "red.global requires sm_11 or higher".
pub static RED: &[Row] = &[
    // "The bit-size operations are .and, .or, and .xor."
    Row {
        instr: "red",
        id: "red.bit",
        section: "9.7.13.6",
        syntax: "red{.sem}{.scope}{.space}.op{.level::cache_hint}.type",
        operands: RED_OPS,
        sets: &[SEM_RED, SCOPE, SPACE, BIT_OPS, HINT, BIT_TYPES],
        since: "1.2 sm_11",
        needs: &[CLUSTER, SHARED_CTA, SHARED_CLUSTER, CACHE_HINT],
        rules: &[HINT_SPACE, SEM_NEEDS, SCOPE_NEEDS, GENERIC, RED_SHARED, RED_WIDE_BIT],
        ..Row::BASE
    },
    // "The integer operations are .add, .inc, .dec, .min, .max"; ptxas
    // 13.0 refuses `red.add.s64`, `red.inc.u64`, `red.dec.u64`
    // (corpus/simulator/kernels/arith-refused.json).
    Row {
        instr: "red",
        id: "red.add.int",
        section: "9.7.13.6",
        syntax: "red{.sem}{.scope}{.space}.add{.level::cache_hint}.type",
        operands: RED_OPS,
        sets: &[SEM_RED, SCOPE, SPACE, HINT, ADD_TYPES],
        since: "1.2 sm_11",
        needs: &[CLUSTER, SHARED_CTA, SHARED_CLUSTER, CACHE_HINT],
        rules: &[
            HINT_SPACE,
            SEM_NEEDS,
            SCOPE_NEEDS,
            GENERIC,
            RED_SHARED,
            RED_WIDE_GLOBAL,
            RED_WIDE_SHARED,
        ],
        ..Row::BASE
    },
    Row {
        instr: "red",
        id: "red.minmax.int",
        section: "9.7.13.6",
        syntax: "red{.sem}{.scope}{.space}.op{.level::cache_hint}.type",
        operands: RED_OPS,
        sets: &[SEM_RED, SCOPE, SPACE, MINMAX, HINT, INT_TYPES],
        since: "1.2 sm_11",
        needs: &[CLUSTER, SHARED_CTA, SHARED_CLUSTER, CACHE_HINT],
        rules: &[HINT_SPACE, SEM_NEEDS, SCOPE_NEEDS, GENERIC, RED_SHARED, RED_WIDE_BIT],
        ..Row::BASE
    },
    Row {
        instr: "red",
        id: "red.incdec",
        section: "9.7.13.6",
        syntax: "red{.sem}{.scope}{.space}.op{.level::cache_hint}.type",
        operands: RED_OPS,
        sets: &[SEM_RED, SCOPE, SPACE, INCDEC, HINT, ".type = { .u32 }"],
        since: "1.2 sm_11",
        needs: &[CLUSTER, SHARED_CTA, SHARED_CLUSTER, CACHE_HINT],
        rules: &[HINT_SPACE, SEM_NEEDS, SCOPE_NEEDS, GENERIC, RED_SHARED],
        ..Row::BASE
    },
    // "red.add.f32 ... introduced in PTX ISA 2.0"; "red.add.f64 introduced
    // in PTX ISA 5.0"; "red.add.f64 requires sm_60 or higher".
    Row {
        instr: "red",
        id: "red.add.float",
        section: "9.7.13.6",
        syntax: "red{.sem}{.scope}{.space}.add{.noftz}{.level::cache_hint}.type",
        operands: RED_OPS,
        sets: &[SEM_RED, SCOPE, SPACE, HINT, FLOAT_TYPES],
        since: "1.2 sm_11",
        needs: &[
            CLUSTER,
            SHARED_CTA,
            SHARED_CLUSTER,
            CACHE_HINT,
            F32,
            F64,
            NOFTZ_F32,
        ],
        rules: &[
            NOFTZ_F64,
            HINT_SPACE,
            SEM_NEEDS,
            SCOPE_NEEDS,
            GENERIC,
            RED_SHARED,
        ],
        ..Row::BASE
    },
    // "red.add.f16, red.add.f16x2, red.add.bf16 and red.add.bf16x2
    // operation requires the .noftz qualifier"; "red.add.noftz.f16x2
    // introduced in PTX ISA 6.2", "requires sm_60"; "red.add.noftz.f16
    // introduced in PTX ISA 6.3", "requires sm_70"; bf16: 7.8, sm_90.
    Row {
        instr: "red",
        id: "red.add.half",
        section: "9.7.13.6",
        syntax: "red{.sem}{.scope}{.space}.add.noftz{.level::cache_hint}.type",
        operands: RED_OPS_REG,
        sets: &[SEM_RED, SCOPE, SPACE, HINT, HALF_TYPES],
        since: "1.2 sm_11",
        needs: &[
            CLUSTER,
            SHARED_CTA,
            SHARED_CLUSTER,
            CACHE_HINT,
            F16,
            F16X2,
            BF16,
            BF16X2,
        ],
        rules: &[HINT_SPACE, SEM_NEEDS, SCOPE_NEEDS, GENERIC, RED_SHARED],
        ..Row::BASE
    },
    // Vector forms: "red{.sem}{.scope}{.global}.add{.level::cache_hint}.vec_32_bit.f32
    // [a], b{, cache-policy}; red{.sem}{.scope}{.global}.op.noftz{.level::cache_hint}.vec_16_bit.half_word_type
    // ...; ....vec_32_bit.packed_type ..."; "red with vector type may be
    // used only with .global space and with generic addressing"; vector
    // types: PTX ISA 8.1, sm_90.
    Row {
        instr: "red",
        id: "red.vec.f32",
        section: "9.7.13.6",
        syntax: "red{.sem}{.scope}{.space}.add{.noftz}{.level::cache_hint}.vec_32_bit.f32",
        operands: "[a]: addr, b: vec<vec_32_bit> .f32, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[SEM_RED, SCOPE, SPACE_GLOBAL, HINT, VEC_32],
        since: VECTORS,
        needs: &[CLUSTER, CACHE_HINT, NOFTZ_F32],
        rules: &[SEM_NEEDS, SCOPE_NEEDS],
        ..Row::BASE
    },
    Row {
        instr: "red",
        id: "red.vec.half",
        section: "9.7.13.6",
        syntax: "red{.sem}{.scope}{.space}.op.noftz{.level::cache_hint}.vec_16_bit.half_word_type",
        operands: "[a]: addr, b: vec<vec_16_bit> half_word_type, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[SEM_RED, SCOPE, SPACE_GLOBAL, VEC_OPS, HINT, VEC_16, HALF_WORD],
        since: VECTORS,
        needs: &[CLUSTER, CACHE_HINT],
        rules: &[SEM_NEEDS, SCOPE_NEEDS],
        ..Row::BASE
    },
    Row {
        instr: "red",
        id: "red.vec.packed",
        section: "9.7.13.6",
        syntax: "red{.sem}{.scope}{.space}.op.noftz{.level::cache_hint}.vec_32_bit.packed_type",
        operands: "[a]: addr, b: vec<vec_32_bit> packed_type, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[SEM_RED, SCOPE, SPACE_GLOBAL, VEC_OPS, HINT, VEC_32, PACKED],
        since: VECTORS,
        needs: &[CLUSTER, CACHE_HINT],
        rules: &[SEM_NEEDS, SCOPE_NEEDS],
        ..Row::BASE
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// A row with `.level::cache_hint` takes the policy operand, and only
    /// such a row: "When the optional argument cache-policy is specified,
    /// the qualifier .level::cache_hint is required".
    #[test]
    fn hinted_rows_take_the_policy_operand() {
        for row in ATOM.iter().chain(RED.iter()) {
            assert_eq!(
                row.syntax.contains(".level::cache_hint"),
                row.operands
                    .ends_with("cache-policy: reg|num .b64 if .L2::cache_hint"),
                "{}",
                row.id
            );
        }
    }

    /// `red` has no destination and no `.cas`/`.exch`; `atom` always has
    /// a destination first.
    #[test]
    fn red_has_no_destination() {
        for row in RED {
            assert!(row.operands.starts_with("[a]"), "{}", row.id);
            assert!(!row.syntax.contains(".cas") && !row.syntax.contains(".exch"));
        }
        for row in ATOM {
            assert!(row.operands.starts_with("d: "), "{}", row.id);
        }
    }
}
