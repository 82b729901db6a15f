//! Comparison and selection (PTX ISA 9.7.6 `set setp selp slct`, and the
//! half-precision `set`/`setp` of 9.7.5). The comparison operators split by
//! type (9.7.6.1, "Operators for signed integer, unsigned integer, and
//! bit-size types" and "Floating-point comparison operators"): `.equ .neu
//! .ltu .leu .gtu .geu .num .nan` compare floating-point values only, and
//! `.lo .ls .hi .hs` unsigned integers (and bit-size values); `.ftz`
//! applies to `.f32` (and the half-precision types).

use crate::catalogue::types::{ptx_type, PtxType, TypeKind};
use crate::catalogue::{Binding, Row, Rule};

const CMP: &str = ".cmp = { .eq, .ne, .lt, .le, .gt, .ge, .lo, .ls, .hi, .hs, .equ, .neu, .ltu, .leu, .gtu, .geu, .num, .nan }";
const BOOL: &str = ".bool = { .and, .or, .xor }";
const TYPES: &str = ".type = { .b16, .b32, .b64, .u16, .u32, .u64, .s16, .s32, .s64, .f32, .f64 }";
const STYPES: &str =
    ".stype = { .b16, .b32, .b64, .u16, .u32, .u64, .s16, .s32, .s64, .f32, .f64 }";
const HALF_STYPES: &str =
    ".stype = { .b16, .b32, .b64, .u16, .u32, .u64, .s16, .s32, .s64, .f16, .f32, .f64 }";

/// The type the operands are compared as: `.stype` or `.type`, else the
/// half-precision type the syntax names (`set.CmpOp.dtype.f16`).
fn compared(b: &Binding) -> Option<PtxType> {
    b.ty("stype").or_else(|| b.ty("type")).or_else(|| {
        b.values
            .iter()
            .filter(|(part, _)| matches!(*part, ".f16" | ".bf16" | ".f16x2" | ".bf16x2"))
            .find_map(|(_, q)| ptx_type(q))
    })
}

/// Whether the comparison operator applies to the compared type. PTX ISA
/// 9.7.6.1: signed integers take `eq ne lt le gt ge`; unsigned integers
/// those and `lo ls hi hs`; bit-size types `eq ne`; floating-point types
/// `eq ne lt le gt ge` and the unordered `equ neu ltu leu gtu geu num nan`
/// (ptxas 13.0: "Mismatch between instruction type and comparison
/// qualifier" otherwise, `.lt` on `.b32` included).
fn operator_mismatch(b: &Binding) -> bool {
    let (Some(op), Some(t)) = (b.get("cmp"), compared(b)) else {
        return false;
    };
    let ordered = matches!(op, ".eq" | ".ne" | ".lt" | ".le" | ".gt" | ".ge");
    let unsigned = matches!(op, ".lo" | ".ls" | ".hi" | ".hs");
    match t.kind {
        TypeKind::Bits => !matches!(op, ".eq" | ".ne"),
        TypeKind::Signed => !ordered,
        TypeKind::Unsigned => !(ordered || unsigned),
        TypeKind::Float | TypeKind::Packed => unsigned,
        TypeKind::Pred => false,
    }
}

/// `.ftz` with a compared type other than `.f32`.
fn ftz_off_f32(b: &Binding) -> bool {
    b.has(".ftz")
        && b.ty("stype")
            .or_else(|| b.ty("type"))
            .is_some_and(|t| t.name != ".f32")
}

const RULES: &[Rule] = &[
    Rule::illegal(
        "the comparison operator does not apply to this type (signed: `eq ne lt le gt ge`; unsigned: also `lo ls hi hs`; bit-size: `eq ne`; floating point: also `equ neu ltu leu gtu geu num nan`)",
        operator_mismatch,
    ),
    Rule::illegal(
        "`.ftz` applies to `.f32` comparisons only",
        ftz_off_f32,
    ),
];

/// `.ftz` on a half-precision `set` whose sources are neither `.f32` nor
/// `.f16` (ptxas 13.0: "Illegal modifier '.ftz' for instruction 'set'" for
/// `set.eq.ftz.f16.f64`, `set.ne.ftz.f16.s16`).
fn ftz_off_float_source(b: &Binding) -> bool {
    b.has(".ftz")
        && b.ty("stype")
            .is_some_and(|t| !matches!(t.name, ".f32" | ".f16"))
}

/// The half-precision forms: the operator rules, and `.ftz` for float
/// sources only.
const HALF_RULES: &[Rule] = &[
    Rule::illegal(
        "the comparison operator does not apply to this type (signed: `eq ne lt le gt ge`; unsigned: also `lo ls hi hs`; bit-size: `eq ne`; floating point: also `equ neu ltu leu gtu geu num nan`)",
        operator_mismatch,
    ),
    Rule::illegal(
        "`.ftz` applies to floating-point sources (`.f16`, `.f32`) only",
        ftz_off_float_source,
    ),
];

macro_rules! half_set {
    ($id:literal, $syntax:literal, $ops:literal, $sets:expr, $since:literal) => {
        Row {
            instr: "set",
            id: $id,
            section: "9.7.5.1",
            syntax: $syntax,
            operands: $ops,
            sets: $sets,
            since: $since,
            rules: HALF_RULES,
            ..Row::BASE
        }
    };
}

macro_rules! half_setp {
    ($id:literal, $syntax:literal, $ops:literal, $ty:literal, $with_bool:expr, $since:literal) => {
        Row {
            instr: "setp",
            id: $id,
            section: "9.7.5.2",
            syntax: $syntax,
            operands: $ops,
            sets: if $with_bool {
                &[CMP, BOOL, $ty]
            } else {
                &[CMP, $ty]
            },
            since: $since,
            rules: HALF_RULES,
            ..Row::BASE
        }
    };
}

pub static ROWS: &[Row] = &[
    // 9.7.6.1 set: "set.CmpOp{.ftz}.dtype.stype d, a, b;
    // set.CmpOp.BoolOp{.ftz}.dtype.stype d, a, b, {!}c; .dtype = { .u32,
    // .s32, .f32 }".
    Row {
        instr: "set",
        id: "set",
        section: "9.7.6.1",
        syntax: "set.cmp{.ftz}.dtype.stype",
        operands: "d: reg dtype, a: reg|imm stype, b: reg|imm stype",
        sets: &[CMP, ".dtype = { .u32, .s32, .f32 }", STYPES],
        rules: RULES,
        ..Row::BASE
    },
    Row {
        instr: "set",
        id: "set.bool",
        section: "9.7.6.1",
        syntax: "set.cmp.bool{.ftz}.dtype.stype",
        operands: "d: reg dtype, a: reg|imm stype, b: reg|imm stype, c: pred|imm .pred",
        sets: &[CMP, BOOL, ".dtype = { .u32, .s32, .f32 }", STYPES],
        rules: RULES,
        ..Row::BASE
    },
    // 9.7.5.1 set (half precision): "set.CmpOp{.ftz}.f16.stype d, a, b;
    // set.CmpOp.bf16.stype d, a, b; set.CmpOp{.ftz}.dtype.f16 d, a, b;
    // set.CmpOp.dtype.bf16 d, a, b; set.CmpOp{.ftz}.dtype.f16x2 d, a, b;
    // set.CmpOp.dtype.bf16x2 d, a, b" and their `.BoolOp` forms; ".f16
    // ... introduced in PTX ISA version 4.2", "requires sm_53"; ".bf16 ...
    // introduced in PTX ISA version 7.8", "requires sm_90".
    half_set!(
        "set.f16.stype",
        "set.cmp{.ftz}.f16.stype",
        "d: reg .f16, a: reg|imm stype, b: reg|imm stype",
        &[CMP, HALF_STYPES],
        "4.2 sm_53"
    ),
    half_set!(
        "set.bool.f16.stype",
        "set.cmp.bool{.ftz}.f16.stype",
        "d: reg .f16, a: reg|imm stype, b: reg|imm stype, c: pred|imm .pred",
        &[CMP, BOOL, HALF_STYPES],
        "4.2 sm_53"
    ),
    half_set!(
        "set.bf16.stype",
        "set.cmp.bf16.stype",
        "d: reg .bf16, a: reg|imm stype, b: reg|imm stype",
        &[CMP, HALF_STYPES],
        "7.8 sm_90"
    ),
    half_set!(
        "set.bool.bf16.stype",
        "set.cmp.bool.bf16.stype",
        "d: reg .bf16, a: reg|imm stype, b: reg|imm stype, c: pred .pred",
        &[CMP, BOOL, HALF_STYPES],
        "7.8 sm_90"
    ),
    half_set!(
        "set.dtype.f16",
        "set.cmp{.ftz}.dtype.f16",
        "d: reg dtype, a: reg .f16, b: reg .f16",
        &[CMP, ".dtype = { .u16, .s16, .u32, .s32 }"],
        "4.2 sm_53"
    ),
    half_set!(
        "set.bool.dtype.f16",
        "set.cmp.bool{.ftz}.dtype.f16",
        "d: reg dtype, a: reg .f16, b: reg .f16, c: pred|imm .pred",
        &[CMP, BOOL, ".dtype = { .u16, .s16, .u32, .s32 }"],
        "4.2 sm_53"
    ),
    half_set!(
        "set.dtype.bf16",
        "set.cmp.dtype.bf16",
        "d: reg dtype, a: reg .bf16, b: reg .bf16",
        &[CMP, ".dtype = { .u16, .s16, .u32, .s32 }"],
        "7.8 sm_90"
    ),
    half_set!(
        "set.bool.dtype.bf16",
        "set.cmp.bool.dtype.bf16",
        "d: reg dtype, a: reg .bf16, b: reg .bf16, c: pred .pred",
        &[CMP, BOOL, ".dtype = { .u16, .s16, .u32, .s32 }"],
        "7.8 sm_90"
    ),
    half_set!(
        "set.dtype.f16x2",
        "set.cmp{.ftz}.dtype.f16x2",
        "d: reg dtype, a: reg .f16x2, b: reg .f16x2",
        &[CMP, ".dtype = { .f16x2, .u32, .s32 }"],
        "4.2 sm_53"
    ),
    half_set!(
        "set.bool.dtype.f16x2",
        "set.cmp.bool{.ftz}.dtype.f16x2",
        "d: reg dtype, a: reg .f16x2, b: reg .f16x2, c: pred|imm .pred",
        &[CMP, BOOL, ".dtype = { .f16x2, .u32, .s32 }"],
        "4.2 sm_53"
    ),
    half_set!(
        "set.dtype.bf16x2",
        "set.cmp.dtype.bf16x2",
        "d: reg dtype, a: reg .bf16x2, b: reg .bf16x2",
        &[CMP, ".dtype = { .bf16x2, .u32, .s32 }"],
        "7.8 sm_90"
    ),
    half_set!(
        "set.bool.dtype.bf16x2",
        "set.cmp.bool.dtype.bf16x2",
        "d: reg dtype, a: reg .bf16x2, b: reg .bf16x2, c: pred .pred",
        &[CMP, BOOL, ".dtype = { .bf16x2, .u32, .s32 }"],
        "7.8 sm_90"
    ),
    // 9.7.6.2 setp: "setp.CmpOp{.ftz}.type p[|q], a, b;
    // setp.CmpOp.BoolOp{.ftz}.type p[|q], a, b, {!}c"; "Destinations p and
    // q must be .pred variables".
    Row {
        instr: "setp",
        id: "setp",
        section: "9.7.6.2",
        syntax: "setp.cmp{.ftz}.type",
        operands: "p|q?: pred, a: reg|imm type, b: reg|imm type",
        sets: &[CMP, TYPES],
        rules: RULES,
        ..Row::BASE
    },
    Row {
        instr: "setp",
        id: "setp.bool",
        section: "9.7.6.2",
        syntax: "setp.cmp.bool{.ftz}.type",
        operands: "p|q?: pred, a: reg|imm type, b: reg|imm type, c: pred|imm .pred",
        sets: &[CMP, BOOL, TYPES],
        rules: RULES,
        ..Row::BASE
    },
    // 9.7.5.2 setp (half precision): "setp.CmpOp{.ftz}.f16 p, a, b;
    // setp.CmpOp{.ftz}.f16x2 p|q, a, b; setp.CmpOp.bf16 p, a, b;
    // setp.CmpOp.bf16x2 p|q, a, b" and their `.BoolOp` forms.
    half_setp!(
        "setp.f16",
        "setp.cmp{.ftz}.type",
        "p: pred, a: reg type, b: reg type",
        ".type = { .f16 }",
        false,
        "4.2 sm_53"
    ),
    half_setp!(
        "setp.bool.f16",
        "setp.cmp.bool{.ftz}.type",
        "p: pred, a: reg type, b: reg type, c: pred|imm .pred",
        ".type = { .f16 }",
        true,
        "4.2 sm_53"
    ),
    half_setp!(
        "setp.f16x2",
        "setp.cmp{.ftz}.type",
        "p|q?: pred, a: reg type, b: reg type",
        ".type = { .f16x2 }",
        false,
        "4.2 sm_53"
    ),
    half_setp!(
        "setp.bool.f16x2",
        "setp.cmp.bool{.ftz}.type",
        "p|q?: pred, a: reg type, b: reg type, c: pred|imm .pred",
        ".type = { .f16x2 }",
        true,
        "4.2 sm_53"
    ),
    half_setp!(
        "setp.bf16",
        "setp.cmp.type",
        "p: pred, a: reg type, b: reg type",
        ".type = { .bf16 }",
        false,
        "7.8 sm_90"
    ),
    half_setp!(
        "setp.bool.bf16",
        "setp.cmp.bool.type",
        "p: pred, a: reg type, b: reg type, c: pred .pred",
        ".type = { .bf16 }",
        true,
        "7.8 sm_90"
    ),
    half_setp!(
        "setp.bf16x2",
        "setp.cmp.type",
        "p|q?: pred, a: reg type, b: reg type",
        ".type = { .bf16x2 }",
        false,
        "7.8 sm_90"
    ),
    half_setp!(
        "setp.bool.bf16x2",
        "setp.cmp.bool.type",
        "p|q?: pred, a: reg type, b: reg type, c: pred .pred",
        ".type = { .bf16x2 }",
        true,
        "7.8 sm_90"
    ),
    // 9.7.6.3 selp: "selp.type d, a, b, c"; "Operand c is a predicate".
    Row {
        instr: "selp",
        id: "selp",
        section: "9.7.6.3",
        syntax: "selp.type",
        operands: "d: reg type, a: reg|imm type, b: reg|imm type, c: pred|imm .pred",
        sets: &[TYPES],
        ..Row::BASE
    },
    // 9.7.6.4 slct: "slct.dtype.s32 d, a, b, c; slct{.ftz}.dtype.f32 d, a,
    // b, c"; "Operand c must match the second instruction type".
    Row {
        instr: "slct",
        id: "slct.s32",
        section: "9.7.6.4",
        syntax: "slct.dtype.s32",
        operands: "d: reg dtype, a: reg|imm dtype, b: reg|imm dtype, c: reg|imm .s32",
        sets: &[".dtype = { .b16, .b32, .b64, .u16, .u32, .u64, .s16, .s32, .s64, .f32, .f64 }"],
        ..Row::BASE
    },
    Row {
        instr: "slct",
        id: "slct.f32",
        section: "9.7.6.4",
        syntax: "slct{.ftz}.dtype.f32",
        operands: "d: reg dtype, a: reg|imm dtype, b: reg|imm dtype, c: reg|imm .f32",
        sets: &[".dtype = { .b16, .b32, .b64, .u16, .u32, .u64, .s16, .s32, .s64, .f32, .f64 }"],
        ..Row::BASE
    },
];
