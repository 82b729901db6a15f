//! `cvt` (PTX ISA 9.7.9.21) and `cvt.pack` (9.7.9.22).
//!
//! The first two syntax lines of 9.7.9.21 (`cvt{.irnd}{.ftz}{.sat}.dtype.atype`
//! and `cvt{.frnd}{.ftz}{.sat}.dtype.atype`) are split by conversion kind
//! (integer to integer, float to integer, integer to float, float to float)
//! so that the rounding modifier the prose makes mandatory is a required
//! slot. The packed and narrow-format lines are one row each.
//!
//! Qualifiers may come in any order (ptxas of CUDA 13.0 accepts
//! `cvt.relu.rn.f16.f32` and the spec writes `cvt.f64.bf16.rp`), but the
//! first type written is the destination. Free order keeps that only for
//! parts that share one set, so every row names its two types `.dtype.atype`
//! over one shared set, and a rule keeps each to the types of its syntax
//! line (`cvt.rn.satfinite{.relu}.f8x2type.f16x2` has
//! `.dtype = .atype = { .e4m3x2, .e5m2x2, .f16x2 }` and the rule that
//! `.dtype` is `.e4m3x2`/`.e5m2x2` and `.atype` `.f16x2`). `cvt.pack` keeps
//! the syntax order (`Order::Strict`).

use crate::catalogue::types::TypeKind;
use crate::catalogue::{Binding, Fit, Order, Row, Rule};

const IRND: &str = ".irnd = { .rni, .rzi, .rmi, .rpi }";
const FRND: &str = ".frnd = { .rn, .rz, .rm, .rp }";
const FRND2: &str = ".frnd2 = { .rn, .rz }";
const FRND3: &str = ".frnd3 = { .rz, .rp }";

/// The feature list the spec repeats for every FP4/FP6/UE8M0 form: sm_100a,
/// sm_101a, sm_120a from PTX ISA 8.6, and the family-specific targets (which
/// themselves need PTX ISA 8.8).
const NARROW_TARGETS: &str = "8.6 sm_100a|sm_101a|sm_120a|sm_100f|sm_101f|sm_110f|sm_120f";
/// "`.rs` rounding mode is supported on following architectures: sm_100a,
/// sm_103a"; "`.rs` rounding mode introduced in PTX ISA version 8.7."
const RS_TARGETS: &str = "8.7 sm_100a|sm_103a";

fn int(b: &Binding, slot: &str) -> bool {
    b.ty(slot)
        .is_some_and(|t| matches!(t.kind, TypeKind::Unsigned | TypeKind::Signed))
}

fn bits(b: &Binding, slot: &str) -> u32 {
    b.ty(slot).map_or(0, |t| t.bits)
}

fn involves(b: &Binding, ty: &str) -> bool {
    b.is("dtype", ty) || b.is("atype", ty)
}

/// The destination's value range holds the source's, so `.sat` can never
/// act (integer to integer).
fn range_holds(b: &Binding) -> bool {
    let (Some(d), Some(a)) = (b.ty("dtype"), b.ty("atype")) else {
        return false;
    };
    match (d.kind, a.kind) {
        (TypeKind::Unsigned, TypeKind::Unsigned) | (TypeKind::Signed, TypeKind::Signed) => {
            d.bits >= a.bits
        }
        (TypeKind::Signed, TypeKind::Unsigned) => d.bits > a.bits,
        _ => false,
    }
}

/// `.ftz` without an `.f32` source or destination.
fn ftz_without_f32(b: &Binding) -> bool {
    b.has(".ftz") && !involves(b, ".f32")
}

const FTZ_SAYS: &str =
    "Modifier `.ftz` can only be specified when either `.dtype` or `.atype` is `.f32` \
                        and applies only to single precision (`.f32`) inputs and results.";

/// `.sat` with `.bf16`: "[`.sat`] Applies to `.f16`, `.f32`, and `.f64`
/// types." (ptxas of CUDA 13.0 rejects `.sat` with a `.bf16` source or
/// destination, integer partner included).
const SAT_BF16: Rule = Rule::illegal(
    "`.sat`: for floating-point destination types ... Applies to `.f16`, `.f32`, and `.f64` types.",
    |b| b.has(".sat") && involves(b, ".bf16"),
);

const FTZ: Rule = Rule::illegal(FTZ_SAYS, ftz_without_f32);

/// `cvt.bf16.{f16/f64/bf16}` and `cvt.{f16/f64}.bf16` (float to float).
fn bf16_new_pair(b: &Binding) -> bool {
    let other = |slot: &str| {
        b.get(slot)
            .is_some_and(|t| matches!(t, ".f16" | ".f64" | ".bf16"))
    };
    (b.is("dtype", ".bf16") && other("atype")) || (b.is("atype", ".bf16") && other("dtype"))
}

const BF16_PAIR_NEEDS: Rule = Rule::needs(
    "`cvt.bf16.{u8/s8/u16/s16/u32/s32/u64/s64/f16/f64/bf16}`, \
     `cvt.{u8/s8/u16/s16/u32/s32/u64/s64/f16/f64}.bf16` ... introduced in PTX ISA version 7.8 \
     ... require `sm_90` or higher.",
    "7.8 sm_90",
    bf16_new_pair,
);

const FTZ_BF16_NEEDS: Rule = Rule::needs(
    "`.ftz` qualifier for `cvt.f32.bf16` introduced in PTX ISA version 7.8 ... requires `sm_90` or higher.",
    "7.8 sm_90",
    |b| b.has(".ftz") && b.is("dtype", ".f32") && b.is("atype", ".bf16"),
);

/// The destination type is one of `d` and the source one of `a`.
fn pair(b: &Binding, d: &[&str], a: &[&str]) -> bool {
    b.get("dtype").is_some_and(|t| d.contains(&t)) && b.get("atype").is_some_and(|t| a.contains(&t))
}

/// Floating-point rounding is wanted (or, for `.bf16` sources, allowed):
/// narrowing, `.f16` <-> `.bf16`, and widening from `.bf16`.
fn frnd_allowed(b: &Binding) -> bool {
    let (d, a) = (bits(b, "dtype"), bits(b, "atype"));
    d < a
        || (d == a && b.get("dtype") != b.get("atype"))
        || (b.is("atype", ".bf16") && matches!(b.get("dtype"), Some(".f32" | ".f64")))
}

pub static ROWS: &[Row] = &[
    // ---- 9.7.9.21, `cvt{.irnd}{.ftz}{.sat}.dtype.atype` / `cvt{.frnd}...`,
    // split by conversion kind.
    // Integer to integer: no rounding ("Integer rounding is illegal in all
    // other instances"; "Floating-point rounding is illegal in all other
    // instances"), no `.ftz` (it needs an `.f32`). A special register may be
    // the source (PTX ISA 10.1 `%tid`: "Legacy PTX code that accesses %tid
    // using 16-bit mov and cvt instructions are supported"; ptxas accepts
    // `cvt.u64.u32 %rd1, %tid.x`).
    Row {
        instr: "cvt",
        id: "cvt.int.int",
        section: "9.7.9.21",
        syntax: "cvt{.sat}.dtype.atype",
        operands: "d: reg dtype, a: reg|imm|sreg atype",
        sets: &[".dtype = .atype = { .u8, .u16, .u32, .u64, .s8, .s16, .s32, .s64 }"],
        since: "1.0",
        rules: &[Rule::illegal(
            "The saturation modifier is allowed only in cases where the destination type's value range \
             is not a superset of the source type's value range",
            |b| b.has(".sat") && range_holds(b),
        )],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // Float to integer: "Integer rounding is required for float-to-integer
    // conversions"; "Rounding modifier is mandatory ... All float-to-int
    // conversions". `.sat` is allowed (redundant: "the result is clamped to
    // the destination range by default").
    Row {
        instr: "cvt",
        id: "cvt.irnd.int.float",
        section: "9.7.9.21",
        syntax: "cvt.irnd{.ftz}{.sat}.dtype.atype",
        operands: "d: reg dtype, a: reg|imm atype",
        sets: &[IRND, ".dtype = .atype = { .u8, .u16, .u32, .u64, .s8, .s16, .s32, .s64, .bf16, .f16, .f32, .f64 }"],
        since: "1.0",
        needs: &[("atype=.bf16", "7.8 sm_90"), ("atype=.f64", "sm_13")],
        rules: &[
            Rule::illegal("this form converts a float to an integer", |b| {
                !int(b, "dtype") || int(b, "atype")
            }),
            FTZ,
            SAT_BF16,
        ],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // Integer to float: "Floating-point rounding is required ... for
    // integer-to-float conversions"; "All int-to-float conversions".
    Row {
        instr: "cvt",
        id: "cvt.frnd.float.int",
        section: "9.7.9.21",
        syntax: "cvt.frnd{.ftz}{.sat}.dtype.atype",
        operands: "d: reg dtype, a: reg|imm atype",
        sets: &[FRND, ".dtype = .atype = { .u8, .u16, .u32, .u64, .s8, .s16, .s32, .s64, .bf16, .f16, .f32, .f64 }"],
        since: "1.0",
        needs: &[("dtype=.bf16", "7.8 sm_90"), ("dtype=.f64", "sm_13")],
        rules: &[
            Rule::illegal("this form converts an integer to a float", |b| {
                int(b, "dtype") || !int(b, "atype")
            }),
            FTZ,
            SAT_BF16,
        ],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // Float to float with floating-point rounding: "required for
    // float-to-float conversions that result in loss of precision"
    // (narrowing; `.f16` <-> `.bf16`). Widening from `.bf16` takes an
    // optional rounding: the spec's example `cvt.f64.bf16.rp`.
    Row {
        instr: "cvt",
        id: "cvt.frnd.float.float",
        section: "9.7.9.21",
        syntax: "cvt.frnd{.ftz}{.sat}.dtype.atype",
        operands: "d: reg dtype, a: reg|imm atype",
        sets: &[FRND, ".dtype = .atype = { .bf16, .f16, .f32, .f64 }"],
        since: "1.0",
        needs: &[
            // ".bf16 ... destination formats introduced in PTX ISA version
            // 7.0 ... require sm_80"; "`cvt.f32.bf16` introduced in PTX ISA
            // version 7.1 ... requires sm_80".
            ("dtype=.bf16", "7.0 sm_80"),
            ("atype=.bf16", "7.1 sm_80"),
            ("dtype=.f64", "sm_13"),
            ("atype=.f64", "sm_13"),
        ],
        rules: &[
            Rule::illegal(
                "Floating-point rounding is required for float-to-float conversions that result in loss of \
                 precision, and for integer-to-float conversions. Floating-point rounding is illegal in all \
                 other instances.",
                |b| !frnd_allowed(b),
            ),
            FTZ,
            SAT_BF16,
            BF16_PAIR_NEEDS,
            FTZ_BF16_NEEDS,
        ],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // Float to float without floating-point rounding: widening, the same
    // type, `.f16` <-> `.bf16`; integer rounding only between operands of
    // the same type ("for same-size float-to-float conversions where the
    // value is rounded to an integer").
    Row {
        instr: "cvt",
        id: "cvt.irnd.float.float",
        section: "9.7.9.21",
        syntax: "cvt{.irnd}{.ftz}{.sat}.dtype.atype",
        operands: "d: reg dtype, a: reg|imm atype",
        sets: &[IRND, ".dtype = .atype = { .bf16, .f16, .f32, .f64 }"],
        since: "1.0",
        needs: &[
            ("dtype=.bf16", "7.0 sm_80"),
            ("atype=.bf16", "7.1 sm_80"),
            ("dtype=.f64", "sm_13"),
            ("atype=.f64", "sm_13"),
        ],
        rules: &[
            Rule::illegal(
                "Rounding modifier is mandatory ... float-to-float conversions, when destination type is \
                 smaller than source type",
                |b| bits(b, "dtype") < bits(b, "atype"),
            ),
            Rule::illegal(
                "Integer rounding is required ... for same-size float-to-float conversions where the value \
                 is rounded to an integer. Integer rounding is illegal in all other instances.",
                |b| b.get("irnd").is_some() && b.get("dtype") != b.get("atype"),
            ),
            FTZ,
            SAT_BF16,
            BF16_PAIR_NEEDS,
            FTZ_BF16_NEEDS,
        ],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // ---- 9.7.9.21, `.f16` / `.f16x2` from `.f32`.
    Row {
        instr: "cvt",
        id: "cvt.frnd2.f16.f32",
        section: "9.7.9.21",
        syntax: "cvt.frnd2{.relu}{.satfinite}.dtype.atype",
        operands: "d: reg dtype, a: reg|imm atype",
        sets: &[FRND2, ".dtype = .atype = { .f16, .f32 }"],
        since: "1.0",
        // "`.relu` modifier ... introduced in PTX ISA version 7.0 ... sm_80";
        // "`cvt.satfinite.{f16, bf16, f16x2, bf16x2, tf32}.f32` introduced
        // in PTX ISA version 8.1."
        needs: &[(".relu", "7.0 sm_80"), (".satfinite", "8.1")],
        fit: Fit::Relaxed,
        rules: &[Rule::illegal("syntax `cvt.frnd2{.relu}{.satfinite}.f16.f32`", |b| !pair(b, &[".f16"], &[".f32"]))],
        ..Row::BASE
    },
    // "For `.f16x2` instruction type, destination operand `d` has `.f16x2`
    // or `.b32` type."
    Row {
        instr: "cvt",
        id: "cvt.frnd2.f16x2.f32",
        section: "9.7.9.21",
        syntax: "cvt.frnd2{.relu}{.satfinite}.dtype.atype",
        operands: "d: reg dtype, a: reg|imm atype, b: reg|imm atype",
        sets: &[FRND2, ".dtype = .atype = { .f16x2, .f32 }"],
        since: "7.0 sm_80",
        needs: &[(".satfinite", "8.1")],
        rules: &[Rule::illegal("syntax `cvt.frnd2{.relu}{.satfinite}.f16x2.f32`", |b| !pair(b, &[".f16x2"], &[".f32"]))],
        ..Row::BASE
    },
    // `rbits` "is a `.b32` type register operand".
    Row {
        instr: "cvt",
        id: "cvt.rs.f16x2.f32",
        section: "9.7.9.21",
        syntax: "cvt.rs{.relu}{.satfinite}.dtype.atype",
        operands: "d: reg dtype, a: reg|imm atype, b: reg|imm atype, rbits: reg .b32",
        sets: &[".dtype = .atype = { .f16x2, .f32 }"],
        since: RS_TARGETS,
        rules: &[Rule::illegal("syntax `cvt.rs{.relu}{.satfinite}.f16x2.f32`", |b| !pair(b, &[".f16x2"], &[".f32"]))],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // ---- `.bf16` / `.bf16x2` from `.f32`. "A destination register wider
    // than the specified type may be used, except when the destination
    // operand has `.bf16`, `.bf16x2` or `.tf32` format": exact fit.
    Row {
        instr: "cvt",
        id: "cvt.frnd2.bf16.f32",
        section: "9.7.9.21",
        syntax: "cvt.frnd2{.relu}{.satfinite}.dtype.atype",
        operands: "d: reg dtype, a: reg|imm atype",
        sets: &[FRND2, ".dtype = .atype = { .bf16, .f32 }"],
        since: "7.0 sm_80",
        needs: &[(".satfinite", "8.1")],
        rules: &[Rule::illegal("syntax `cvt.frnd2{.relu}{.satfinite}.bf16.f32`", |b| !pair(b, &[".bf16"], &[".f32"]))],
        ..Row::BASE
    },
    Row {
        instr: "cvt",
        id: "cvt.frnd2.bf16x2.f32",
        section: "9.7.9.21",
        syntax: "cvt.frnd2{.relu}{.satfinite}.dtype.atype",
        operands: "d: reg dtype, a: reg|imm atype, b: reg|imm atype",
        sets: &[FRND2, ".dtype = .atype = { .bf16x2, .f32 }"],
        since: "7.0 sm_80",
        needs: &[(".satfinite", "8.1")],
        rules: &[Rule::illegal("syntax `cvt.frnd2{.relu}{.satfinite}.bf16x2.f32`", |b| !pair(b, &[".bf16x2"], &[".f32"]))],
        ..Row::BASE
    },
    Row {
        instr: "cvt",
        id: "cvt.rs.bf16x2.f32",
        section: "9.7.9.21",
        syntax: "cvt.rs{.relu}{.satfinite}.dtype.atype",
        operands: "d: reg dtype, a: reg|imm atype, b: reg|imm atype, rbits: reg .b32",
        sets: &[".dtype = .atype = { .bf16x2, .f32 }"],
        since: RS_TARGETS,
        rules: &[Rule::illegal("syntax `cvt.rs{.relu}{.satfinite}.bf16x2.f32`", |b| !pair(b, &[".bf16x2"], &[".f32"]))],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // ---- `.tf32` from `.f32`. "For `.tf32` instruction type, operand `d`
    // has `.b32` type."
    Row {
        instr: "cvt",
        id: "cvt.rna.tf32.f32",
        section: "9.7.9.21",
        syntax: "cvt.rna{.satfinite}.dtype.atype",
        operands: "d: reg dtype, a: reg|imm atype",
        sets: &[".dtype = .atype = { .tf32, .f32 }"],
        since: "7.0 sm_80",
        needs: &[(".satfinite", "8.1")],
        rules: &[Rule::illegal("syntax `cvt.rna{.satfinite}.tf32.f32`", |b| !pair(b, &[".tf32"], &[".f32"]))],
        ..Row::BASE
    },
    // "`cvt.tf32.f32.{relu}.{rn/rz}` introduced in PTX ISA version 7.8 ...
    // require `sm_90`"; "`cvt.{rn/rz}.satfinite.tf32.f32` introduced in PTX
    // ISA version 8.6 ... requires `sm_100` or higher."
    Row {
        instr: "cvt",
        id: "cvt.frnd2.tf32.f32",
        section: "9.7.9.21",
        syntax: "cvt.frnd2{.satfinite}{.relu}.dtype.atype",
        operands: "d: reg dtype, a: reg|imm atype",
        sets: &[FRND2, ".dtype = .atype = { .tf32, .f32 }"],
        since: "7.8 sm_90",
        needs: &[(".satfinite", "8.6 sm_100")],
        rules: &[Rule::illegal("syntax `cvt.frnd2{.satfinite}{.relu}.tf32.f32`", |b| !pair(b, &[".tf32"], &[".f32"]))],
        ..Row::BASE
    },
    // ---- FP8 pairs. "`.satfinite` modifier is mandatory for such
    // conversions." "`cvt` with `.e4m3x2`/`.e5m2x2` for `sm_90` or higher
    // introduced in PTX ISA version 7.8"; "... for `sm_89` introduced in
    // PTX ISA version 8.1"; "requires `sm89` or higher." The sm_89 case
    // (8.1) is not expressible here: the row says 7.8 sm_89.
    // "When converting to `.e4m3x2`/`.e5m2x2` data formats, the destination
    // operand `d` has `.b16` type."
    Row {
        instr: "cvt",
        id: "cvt.rn.f8x2.f32",
        section: "9.7.9.21",
        syntax: "cvt.rn.satfinite{.relu}.dtype.atype",
        operands: "d: reg dtype, a: reg|imm atype, b: reg|imm atype",
        sets: &[".dtype = .atype = { .e4m3x2, .e5m2x2, .f32 }"],
        since: "7.8 sm_89",
        rules: &[Rule::illegal("syntax `cvt.rn.satfinite{.relu}.f8x2type.f32`", |b| !pair(b, &[".e4m3x2", ".e5m2x2"], &[".f32"]))],
        ..Row::BASE
    },
    Row {
        instr: "cvt",
        id: "cvt.rn.f8x2.f16x2",
        section: "9.7.9.21",
        syntax: "cvt.rn.satfinite{.relu}.dtype.atype",
        operands: "d: reg dtype, a: reg atype",
        sets: &[".dtype = .atype = { .e4m3x2, .e5m2x2, .f16x2 }"],
        since: "7.8 sm_89",
        rules: &[Rule::illegal("syntax `cvt.rn.satfinite{.relu}.f8x2type.f16x2`", |b| !pair(b, &[".e4m3x2", ".e5m2x2"], &[".f16x2"]))],
        ..Row::BASE
    },
    // The spec writes `cvt.rn.{.relu}.f16x2.f8x2type` (a stray dot). "When
    // converting from `.e4m3x2`/`.e5m2x2` to `.f16x2`, source operand `a`
    // has `.b16` type."
    Row {
        instr: "cvt",
        id: "cvt.rn.f16x2.f8x2",
        section: "9.7.9.21",
        syntax: "cvt.rn{.relu}.dtype.atype",
        operands: "d: reg dtype, a: reg atype",
        sets: &[".dtype = .atype = { .f16x2, .e4m3x2, .e5m2x2 }"],
        since: "7.8 sm_89",
        rules: &[Rule::illegal("syntax `cvt.rn{.relu}.f16x2.f8x2type`", |b| !pair(b, &[".f16x2"], &[".e4m3x2", ".e5m2x2"]))],
        ..Row::BASE
    },
    // "When converting to `.e5m2x4`/`.e4m3x4`/... the destination operand
    // `d` has `.b32` type." "`cvt.rs{.e2m1x4/.e4m3x4/.e5m2x4/.e3m2x4/
    // .e2m3x4}.f32` introduced in PTX ISA version 8.7 ... sm_100a, sm_103a".
    Row {
        instr: "cvt",
        id: "cvt.rs.f8x4.f32",
        section: "9.7.9.21",
        syntax: "cvt.rs{.relu}.satfinite.dtype.atype",
        operands: "d: reg dtype, a: list<4> atype, rbits: reg .b32",
        sets: &[".dtype = .atype = { .e4m3x4, .e5m2x4, .f32 }"],
        since: RS_TARGETS,
        rules: &[Rule::illegal("syntax `cvt.rs{.relu}.satfinite.f8x4type.f32`", |b| !pair(b, &[".e4m3x4", ".e5m2x4"], &[".f32"]))],
        ..Row::BASE
    },
    // ---- FP4. "When converting to `.e2m1x2` data formats, the destination
    // operand `d` has `.b8` type." "`cvt.rn.satfinite{.relu}.{e2m1x2/e2m3x2/
    // e3m2x2/ue8m0x2}.f32` introduced in PTX ISA version 8.6."
    Row {
        instr: "cvt",
        id: "cvt.rn.f4x2.f32",
        section: "9.7.9.21",
        syntax: "cvt.rn.satfinite{.relu}.dtype.atype",
        operands: "d: reg dtype, a: reg|imm atype, b: reg|imm atype",
        sets: &[".dtype = .atype = { .e2m1x2, .f32 }"],
        since: NARROW_TARGETS,
        rules: &[Rule::illegal("syntax `cvt.rn.satfinite{.relu}.f4x2type.f32`", |b| !pair(b, &[".e2m1x2"], &[".f32"]))],
        ..Row::BASE
    },
    // "When converting from `.e2m1x2` to `.f16x2`, source operand `a` has
    // `.b8` type." "`cvt.rn{.relu}.f16x2.{e2m1x2/e2m3x2/e3m2x2}` introduced
    // in PTX ISA version 8.6."
    Row {
        instr: "cvt",
        id: "cvt.rn.f16x2.f4x2",
        section: "9.7.9.21",
        syntax: "cvt.rn{.relu}.dtype.atype",
        operands: "d: reg dtype, a: reg atype",
        sets: &[".dtype = .atype = { .f16x2, .e2m1x2 }"],
        since: NARROW_TARGETS,
        rules: &[Rule::illegal("syntax `cvt.rn{.relu}.f16x2.f4x2type`", |b| !pair(b, &[".f16x2"], &[".e2m1x2"]))],
        ..Row::BASE
    },
    // "When converting to `.e2m1x4` data format, the destination operand
    // `d` has `.b16` type."
    Row {
        instr: "cvt",
        id: "cvt.rs.f4x4.f32",
        section: "9.7.9.21",
        syntax: "cvt.rs{.relu}.satfinite.dtype.atype",
        operands: "d: reg dtype, a: list<4> atype, rbits: reg .b32",
        sets: &[".dtype = .atype = { .e2m1x4, .f32 }"],
        since: RS_TARGETS,
        rules: &[Rule::illegal("syntax `cvt.rs{.relu}.satfinite.f4x4type.f32`", |b| !pair(b, &[".e2m1x4"], &[".f32"]))],
        ..Row::BASE
    },
    // ---- FP6. "When converting to `.e2m3x2`/`.e3m2x2` data formats, the
    // destination operand `d` has `.b16` type."
    Row {
        instr: "cvt",
        id: "cvt.rn.f6x2.f32",
        section: "9.7.9.21",
        syntax: "cvt.rn.satfinite{.relu}.dtype.atype",
        operands: "d: reg dtype, a: reg|imm atype, b: reg|imm atype",
        sets: &[".dtype = .atype = { .e2m3x2, .e3m2x2, .f32 }"],
        since: NARROW_TARGETS,
        rules: &[Rule::illegal("syntax `cvt.rn.satfinite{.relu}.f6x2type.f32`", |b| !pair(b, &[".e2m3x2", ".e3m2x2"], &[".f32"]))],
        ..Row::BASE
    },
    Row {
        instr: "cvt",
        id: "cvt.rn.f16x2.f6x2",
        section: "9.7.9.21",
        syntax: "cvt.rn{.relu}.dtype.atype",
        operands: "d: reg dtype, a: reg atype",
        sets: &[".dtype = .atype = { .f16x2, .e2m3x2, .e3m2x2 }"],
        since: NARROW_TARGETS,
        rules: &[Rule::illegal("syntax `cvt.rn{.relu}.f16x2.f6x2type`", |b| !pair(b, &[".f16x2"], &[".e2m3x2", ".e3m2x2"]))],
        ..Row::BASE
    },
    Row {
        instr: "cvt",
        id: "cvt.rs.f6x4.f32",
        section: "9.7.9.21",
        syntax: "cvt.rs{.relu}.satfinite.dtype.atype",
        operands: "d: reg dtype, a: list<4> atype, rbits: reg .b32",
        sets: &[".dtype = .atype = { .e2m3x4, .e3m2x4, .f32 }"],
        since: RS_TARGETS,
        rules: &[Rule::illegal("syntax `cvt.rs{.relu}.satfinite.f6x4type.f32`", |b| !pair(b, &[".e2m3x4", ".e3m2x4"], &[".f32"]))],
        ..Row::BASE
    },
    // ---- UE8M0. "When converting to `.ue8m0x2` data formats, the
    // destination operand `d` has `.b16` type." "`cvt.{rz/rp}.satfinite.
    // ue8m0x2.f32` introduced in PTX ISA version 8.6." (The PTX ISA Notes
    // also list `cvt.rn.satfinite{.relu}.ue8m0x2.f32`; the syntax block
    // gives `.frnd3 = { .rz, .rp }` and no `.relu`, and ptxas agrees with
    // the syntax block.)
    Row {
        instr: "cvt",
        id: "cvt.frnd3.ue8m0x2.f32",
        section: "9.7.9.21",
        syntax: "cvt.frnd3{.satfinite}.dtype.atype",
        operands: "d: reg dtype, a: reg|imm atype, b: reg|imm atype",
        sets: &[FRND3, ".dtype = .atype = { .ue8m0x2, .f32 }"],
        since: NARROW_TARGETS,
        rules: &[Rule::illegal("syntax `cvt.frnd3{.satfinite}.ue8m0x2.f32`", |b| !pair(b, &[".ue8m0x2"], &[".f32"]))],
        ..Row::BASE
    },
    // "`cvt.{rp/rz}{.satfinite}{.relu}.ue8m0x2.bf16x2` introduced in PTX
    // ISA version 8.6" (the syntax line has no `.relu`).
    Row {
        instr: "cvt",
        id: "cvt.frnd3.ue8m0x2.bf16x2",
        section: "9.7.9.21",
        syntax: "cvt.frnd3{.satfinite}.dtype.atype",
        operands: "d: reg dtype, a: reg atype",
        sets: &[FRND3, ".dtype = .atype = { .ue8m0x2, .bf16x2 }"],
        since: NARROW_TARGETS,
        rules: &[Rule::illegal("syntax `cvt.frnd3{.satfinite}.ue8m0x2.bf16x2`", |b| !pair(b, &[".ue8m0x2"], &[".bf16x2"]))],
        ..Row::BASE
    },
    // "When converting from `.ue8m0x2` to `.bf16x2`, source operand `a` has
    // `.b16` type."
    Row {
        instr: "cvt",
        id: "cvt.rn.bf16x2.ue8m0x2",
        section: "9.7.9.21",
        syntax: "cvt.rn.dtype.atype",
        operands: "d: reg dtype, a: reg atype",
        sets: &[".dtype = .atype = { .bf16x2, .ue8m0x2 }"],
        since: NARROW_TARGETS,
        rules: &[Rule::illegal("syntax `cvt.rn.bf16x2.ue8m0x2`", |b| !pair(b, &[".bf16x2"], &[".ue8m0x2"]))],
        ..Row::BASE
    },
    // ---- 9.7.9.22 `cvt.pack`. "Destination `d` is an unsigned 32-bit
    // integer." "Introduced in PTX ISA version 6.5"; "Requires `sm_72` or
    // higher."
    Row {
        instr: "cvt.pack",
        id: "cvt.pack.sat.16",
        section: "9.7.9.22",
        syntax: "cvt.pack.sat.convertType.abType",
        operands: "d: reg .u32, a: reg|imm abType, b: reg|imm abType",
        sets: &[".convertType = { .u16, .s16 }", ".abType = { .s32 }"],
        since: "6.5 sm_72",
        order: Order::Strict,
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // "If operand `c` is specified then remaining bits of `d` are copied
    // from lower bits of `c`" (the spec's example passes an immediate `0`).
    // "Sub byte types (`.u4`/`.s4` and `.u2`/`.s2`) requires `sm_75` or
    // higher."
    Row {
        instr: "cvt.pack",
        id: "cvt.pack.sat.c",
        section: "9.7.9.22",
        syntax: "cvt.pack.sat.convertType.abType.cType",
        operands: "d: reg .u32, a: reg|imm abType, b: reg|imm abType, c: reg|imm cType",
        sets: &[".convertType = { .u2, .s2, .u4, .s4, .u8, .s8 }", ".abType = { .s32 }", ".cType = { .b32 }"],
        since: "6.5 sm_72",
        needs: &[
            ("convertType=.u4", "sm_75"),
            ("convertType=.s4", "sm_75"),
            ("convertType=.u2", "sm_75"),
            ("convertType=.s2", "sm_75"),
        ],
        order: Order::Strict,
        fit: Fit::Relaxed,
        ..Row::BASE
    },
];

#[cfg(test)]
mod tests {
    use super::super::testing::resolves;
    use crate::catalogue::Catalogue;

    fn id(text: &str) -> Option<&'static str> {
        Catalogue::get()
            .resolve_text(text)
            .ok()
            .map(|b| b.form.row.id)
    }

    /// The "Examples" block of 9.7.9.21, in the spec's qualifier order.
    /// `cvt.rz.relu.satfinite.bf16.f3 2` is read as `.f32` (a typo).
    #[test]
    fn cvt_examples_resolve() {
        for text in [
            "cvt.rni.f32.f32",
            "cvt.f32.f32",
            "cvt.rn.relu.f16.f32",
            "cvt.rz.f16x2.f32",
            "cvt.rn.relu.satfinite.f16x2.f32",
            "cvt.rn.bf16.f32",
            "cvt.rz.relu.satfinite.bf16.f32",
            "cvt.rz.satfinite.bf16x2.f32",
            "cvt.rn.relu.bf16x2.f32",
            "cvt.rna.satfinite.tf32.f32",
            "cvt.rn.relu.tf32.f32",
            "cvt.rn.satfinite.e4m3x2.f32",
            "cvt.rn.relu.satfinite.e5m2x2.f16x2",
            "cvt.rn.f16x2.e4m3x2",
            "cvt.rn.satfinite.tf32.f32",
            "cvt.rn.relu.f16x2.e2m1x2",
            "cvt.rn.satfinite.e2m3x2.f32",
            "cvt.rn.relu.f16x2.e3m2x2",
            "cvt.rs.f16x2.f32",
            "cvt.rs.satfinite.e2m1x4.f32",
        ] {
            assert!(resolves(text), "{text} should resolve");
        }
    }

    /// The examples that write the rounding modifier after the types
    /// (`cvt.f64.bf16.rp`), with the rounding moved first.
    #[test]
    fn cvt_examples_with_rounding_first() {
        for text in [
            "cvt.rp.f64.bf16",
            "cvt.rz.bf16.f16",
            "cvt.rz.bf16.u64",
            "cvt.rpi.s8.bf16",
            "cvt.rpi.bf16.bf16",
        ] {
            assert!(resolves(text), "{text} should resolve");
        }
    }

    /// The same examples as the spec writes them, rounding last.
    #[test]
    fn cvt_examples_with_rounding_last() {
        for text in [
            "cvt.f64.bf16.rp",
            "cvt.bf16.f16.rz",
            "cvt.bf16.u64.rz",
            "cvt.s8.bf16.rpi",
            "cvt.bf16.bf16.rpi",
        ] {
            assert!(resolves(text), "{text} should resolve");
        }
    }

    /// `cvt.f32.s32 f,i;` and `cvt.s32.f64 j,r;` appear among the examples
    /// but contradict the prose: "Rounding modifier is mandatory in all of
    /// the following cases: ... All float-to-int conversions; All
    /// int-to-float conversions". The prose wins.
    #[test]
    fn examples_without_mandatory_rounding_are_illegal() {
        assert!(!resolves("cvt.f32.s32"));
        assert!(!resolves("cvt.s32.f64"));
        assert!(resolves("cvt.rn.f32.s32"));
        assert!(resolves("cvt.rzi.s32.f64"));
    }

    #[test]
    fn rounding_rules() {
        let legal = [
            "cvt.rn.f32.f64",   // narrowing needs .frnd
            "cvt.rm.f16.f32",   // any .frnd for generic narrowing
            "cvt.f64.f32",      // widening: no rounding
            "cvt.f32.f16",      //
            "cvt.rni.f16.f16",  // same type: optional .irnd
            "cvt.rzi.f64.f64",  //
            "cvt.f16.f16",      //
            "cvt.s32.s16",      // int to int: no rounding
            "cvt.u32.u64",      //
            "cvt.rzi.u16.bf16", // bf16 to int
            "cvt.rn.bf16.s32",  // int to bf16
            "cvt.f32.bf16",     // bf16 widening
            "cvt.rn.bf16.f16",  // f16 <-> bf16
            "cvt.bf16.f16",     //
            "cvt.rn.f16.bf16",  //
        ];
        for text in legal {
            assert!(resolves(text), "{text} should resolve");
        }
        let illegal = [
            "cvt.f32.f64",     // narrowing without rounding
            "cvt.f16.f32",     //
            "cvt.bf16.f32",    //
            "cvt.s32.f32",     // float to int without .irnd
            "cvt.rn.s32.f32",  // float to int with .frnd
            "cvt.rni.f32.s32", // int to float with .irnd
            "cvt.rn.f64.f32",  // widening with .frnd
            "cvt.rn.f32.f16",  //
            "cvt.rni.f32.f16", // .irnd between different types
            "cvt.rni.f32.f64", //
            "cvt.rn.f32.f32",  // same type with .frnd
            "cvt.rn.bf16.bf16",
            "cvt.rni.s32.s32", // int to int with rounding
            "cvt.rn.s32.s16",
            "cvt.rna.f16.f32",  // .rna only for .tf32
            "cvt.rm.tf32.f32",  //
            "cvt.tf32.f32",     //
            "cvt.rm.f16x2.f32", // .frnd2 = { .rn, .rz }
            "cvt.rm.relu.f16.f32",
            "cvt.rz.satfinite.e4m3x2.f32", // FP8 only .rn
            "cvt.rz.f16x2.e4m3x2",
            "cvt.f16x2.e4m3x2",
            "cvt.rn.satfinite.ue8m0x2.f32", // .frnd3 = { .rz, .rp }
            "cvt.rn.ue8m0x2.bf16x2",
            "cvt.rs.f16.f32", // .rs only for the x2/x4 forms
        ];
        for text in illegal {
            assert!(!resolves(text), "{text} should not resolve");
        }
    }

    #[test]
    fn ftz_sat_relu_satfinite_rules() {
        let legal = [
            "cvt.ftz.f32.f32",
            "cvt.ftz.f64.f32",
            "cvt.ftz.f32.f16",
            "cvt.rn.ftz.f32.s32",
            "cvt.rzi.ftz.s32.f32",
            "cvt.rn.ftz.bf16.f32",
            "cvt.ftz.f32.bf16",
            "cvt.sat.u32.s32",
            "cvt.sat.s32.u32",
            "cvt.sat.u32.s16",
            "cvt.sat.u16.u32",
            "cvt.sat.u8.s8",
            "cvt.sat.s16.u16",
            "cvt.rzi.sat.s32.f32",
            "cvt.rn.sat.f32.s32",
            "cvt.sat.f32.f32",
            "cvt.sat.f64.f32",
            "cvt.rn.sat.f16.f32",
            "cvt.rn.ftz.sat.f32.f64",
            "cvt.rn.satfinite.f16.f32",
            "cvt.rn.relu.satfinite.f16.f32",
            "cvt.rn.satfinite.relu.tf32.f32",
        ];
        for text in legal {
            assert!(resolves(text), "{text} should resolve");
        }
        let illegal = [
            // ".ftz can only be specified when either .dtype or .atype is .f32"
            "cvt.ftz.f64.f16",
            "cvt.rn.ftz.f16.f64",
            "cvt.rzi.ftz.s32.f64",
            "cvt.rni.ftz.f64.f64",
            "cvt.ftz.u32.u32",
            "cvt.rn.ftz.f16x2.f32",
            "cvt.rn.ftz.relu.f16.f32",
            // .sat only where the destination range is not a superset
            "cvt.sat.s32.s16",
            "cvt.sat.u32.u16",
            "cvt.sat.s32.u16",
            "cvt.sat.u32.u32",
            "cvt.sat.s8.s8",
            "cvt.sat.s16.u8",
            "cvt.sat.s64.u32",
            // .sat applies to .f16, .f32, .f64
            "cvt.rn.sat.bf16.f32",
            "cvt.sat.f32.bf16",
            "cvt.rn.sat.f16x2.f32",
            "cvt.rn.sat.relu.f16.f32",
            // .relu / .satfinite only on the listed forms
            "cvt.rn.relu.f16.f64",
            "cvt.rn.satfinite.f16.f64",
            "cvt.rn.relu.f32.f64",
            "cvt.rn.satfinite.f32.f32",
            "cvt.rn.satfinite.bf16.f16",
            "cvt.rna.relu.tf32.f32",
            "cvt.rp.satfinite.f16.f32",
            "cvt.rz.relu.ue8m0x2.f32",
            "cvt.rp.satfinite.relu.ue8m0x2.bf16x2",
            "cvt.rn.satfinite.f16x2.e4m3x2",
            // .satfinite is mandatory for FP8/FP6/FP4 destinations
            "cvt.rn.e4m3x2.f32",
            "cvt.rn.e2m1x2.f32",
            "cvt.rs.e4m3x4.f32",
            "cvt.rs.relu.e2m1x4.f32",
        ];
        for text in illegal {
            assert!(!resolves(text), "{text} should not resolve");
        }
    }

    /// The first type written is the destination.
    #[test]
    fn types_keep_their_order() {
        assert_eq!(id("cvt.rzi.s32.f32"), Some("cvt.irnd.int.float"));
        assert_eq!(id("cvt.rn.f32.s32"), Some("cvt.frnd.float.int"));
        assert!(!resolves("cvt.rn.s32.f32"));
        assert!(!resolves("cvt.rzi.f32.s32"));
        assert!(!resolves("cvt.rn.satfinite.f32.e4m3x2"));
        assert!(!resolves("cvt.rn.e4m3x2.f16x2"));
        assert!(!resolves("cvt.rn.f32.bf16x2"));
        assert!(!resolves("cvt.pack.sat.s32.s16"));
        let b = Catalogue::get()
            .resolve_text("cvt.f64.bf16.rp")
            .expect("resolves");
        assert_eq!(b.get("dtype"), Some(".f64"));
        assert_eq!(b.get("atype"), Some(".bf16"));
    }

    #[test]
    fn forms_pick_the_expected_row() {
        assert_eq!(id("cvt.rn.f32.f64"), Some("cvt.frnd.float.float"));
        assert_eq!(id("cvt.rni.f32.f32"), Some("cvt.irnd.float.float"));
        assert_eq!(id("cvt.rzi.s32.f32"), Some("cvt.irnd.int.float"));
        assert_eq!(id("cvt.rn.f32.s32"), Some("cvt.frnd.float.int"));
        assert_eq!(id("cvt.sat.u8.s32"), Some("cvt.int.int"));
        assert_eq!(id("cvt.rz.tf32.f32"), Some("cvt.frnd2.tf32.f32"));
        assert_eq!(id("cvt.rna.tf32.f32"), Some("cvt.rna.tf32.f32"));
        assert_eq!(
            id("cvt.rp.satfinite.ue8m0x2.bf16x2"),
            Some("cvt.frnd3.ue8m0x2.bf16x2")
        );
        assert_eq!(id("cvt.rn.bf16x2.ue8m0x2"), Some("cvt.rn.bf16x2.ue8m0x2"));
    }

    /// The "Examples" block of 9.7.9.22 and what its syntax leaves out.
    #[test]
    fn cvt_pack() {
        for text in [
            "cvt.pack.sat.s16.s32",
            "cvt.pack.sat.u8.s32.b32",
            "cvt.pack.sat.u4.s32.b32",
            "cvt.pack.sat.s2.s32.b32",
        ] {
            assert!(resolves(text), "{text} should resolve");
        }
        for text in [
            "cvt.pack.s16.s32",         // .sat is required
            "cvt.pack.sat.u8.s32",      // 8/4/2-bit forms take .cType
            "cvt.pack.sat.u16.s32.b32", // 16-bit forms take none
            "cvt.pack.sat.u16.u32",
            "cvt.pack.sat.u8.s32.u32",
        ] {
            assert!(!resolves(text), "{text} should not resolve");
        }
        let b = Catalogue::get()
            .resolve_text("cvt.pack.sat.s4.s32.b32")
            .expect("resolves");
        assert_eq!(b.form.row.instr, "cvt.pack");
    }
}
