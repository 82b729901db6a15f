//! Comparisons: `setp`'s compare (PTX ISA 9.7.7.4, with the operators of
//! 9.7.7.1 "Comparison Operators"), its boolean combination, `selp`
//! (9.7.7.3) and `testp` (9.7.3.1); the half precision `set` and `setp`
//! forms (`.f16`, `.bf16`, `.f16x2`, `.bf16x2`; "Half Precision Comparison
//! Instructions", 9.7.7.1-2 where 9.7.5 is mixed precision). Pure
//! predicates on register bits.

use super::float::FloatFormat;
use super::int::IntType;
use crate::cvt::round::{decode, Decoded};

/// A comparison operator (`setp.CmpOp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Lo,
    Ls,
    Hi,
    Hs,
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan,
}

impl CmpOp {
    /// The operator a PTX qualifier names (`.lt`, `.gtu`...).
    pub fn from_ptx(q: &str) -> Option<CmpOp> {
        use CmpOp::*;
        Some(match q.strip_prefix('.').unwrap_or(q) {
            "eq" => Eq,
            "ne" => Ne,
            "lt" => Lt,
            "le" => Le,
            "gt" => Gt,
            "ge" => Ge,
            "lo" => Lo,
            "ls" => Ls,
            "hi" => Hi,
            "hs" => Hs,
            "equ" => Equ,
            "neu" => Neu,
            "ltu" => Ltu,
            "leu" => Leu,
            "gtu" => Gtu,
            "geu" => Geu,
            "num" => Num,
            "nan" => Nan,
            _ => return None,
        })
    }
}

/// Integer comparison (PTX ISA 9.7.7.1, Table "Operators for Signed Integer,
/// Unsigned Integer, and Bit-Size Types"): `eq ne lt le gt ge` in the
/// type's signedness, `lo ls hi hs` ("lower", "lower-or-same", "higher",
/// "higher-or-same") as unsigned. `None` for the float-only operators.
pub fn compare_int(ty: IntType, op: CmpOp, a: u64, b: u64) -> Option<bool> {
    use CmpOp::*;
    let (x, y) = (ty.value(a), ty.value(b));
    let (ux, uy) = (a & ty.mask(), b & ty.mask());
    Some(match op {
        Eq => x == y,
        Ne => x != y,
        Lt => x < y,
        Le => x <= y,
        Gt => x > y,
        Ge => x >= y,
        Lo => ux < uy,
        Ls => ux <= uy,
        Hi => ux > uy,
        Hs => ux >= uy,
        _ => return None,
    })
}

/// The exact value of a non-NaN encoding as an `f64` (exact for `.f16
/// .bf16 .f32 .f64`); `None` for NaN.
fn value(fmt: &FloatFormat, bits: u64) -> Option<f64> {
    match decode(fmt, bits) {
        Decoded::Nan { .. } => None,
        d => Some(d.to_f64()),
    }
}

/// Float comparison (PTX ISA 9.7.7.1, "Floating-Point Comparison
/// Operators"): "the ordered comparisons are `eq ne lt le gt ge`. If either
/// operand is NaN, the result is False"; the unordered `equ neu ltu leu gtu
/// geu` "If either operand is NaN, the result is True"; "`num` returns true
/// if both operands are numeric values (not NaN), and `nan` returns true if
/// either operand is NaN." `setp.ftz.f32` flushes subnormal inputs to
/// sign-preserving zero. `None` for `lo ls hi hs`.
pub fn compare_float(fmt: &FloatFormat, ftz: bool, op: CmpOp, a: u64, b: u64) -> Option<bool> {
    use CmpOp::*;
    let flush = |x: u64| {
        let exp = (x >> fmt.man_bits) & ((1 << fmt.exp_bits) - 1);
        if ftz && exp == 0 {
            x & fmt.sign_mask()
        } else {
            x
        }
    };
    let (x, y) = (value(fmt, flush(a)), value(fmt, flush(b)));
    let ordered = |f: fn(f64, f64) -> bool| x.zip(y).is_some_and(|(x, y)| f(x, y));
    let unordered = |f: fn(f64, f64) -> bool| x.zip(y).is_none_or(|(x, y)| f(x, y));
    Some(match op {
        Eq => ordered(|x, y| x == y),
        Ne => ordered(|x, y| x != y),
        Lt => ordered(|x, y| x < y),
        Le => ordered(|x, y| x <= y),
        Gt => ordered(|x, y| x > y),
        Ge => ordered(|x, y| x >= y),
        Equ => unordered(|x, y| x == y),
        Neu => unordered(|x, y| x != y),
        Ltu => unordered(|x, y| x < y),
        Leu => unordered(|x, y| x <= y),
        Gtu => unordered(|x, y| x > y),
        Geu => unordered(|x, y| x >= y),
        Num => x.is_some() && y.is_some(),
        Nan => x.is_none() || y.is_none(),
        Lo | Ls | Hi | Hs => return None,
    })
}

/// `setp`'s `.BoolOp` (PTX ISA 9.7.7.4): "the result of the comparison is
/// combined with the predicate operand `c` using the specified Boolean
/// operator".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoolOp {
    And,
    Or,
    Xor,
}

/// `setp.CmpOp.BoolOp`: "`p = BoolOp(t, c); q = BoolOp(!t, c);`".
pub fn setp_combine(op: BoolOp, t: bool, c: bool) -> (bool, bool) {
    let f = |x: bool| match op {
        BoolOp::And => x && c,
        BoolOp::Or => x || c,
        BoolOp::Xor => x ^ c,
    };
    (f(t), f(!t))
}

/// `selp.type` (PTX ISA 9.7.7.3): "`d = (c == 1) ? a : b;`"
pub fn selp(a: u64, b: u64, c: bool) -> u64 {
    if c {
        a
    } else {
        b
    }
}

/// `testp`'s property (PTX ISA 9.7.3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TestOp {
    Finite,
    Infinite,
    Number,
    NotANumber,
    Normal,
    Subnormal,
}

/// `testp.op.type` (PTX ISA 9.7.3.1): "`testp.finite` True if the input is
/// not infinite or NaN"; "`.infinite` True if the input is positive or
/// negative infinity"; "`.number` True if the input is not NaN";
/// "`.notanumber` True if the input is NaN"; "`.normal` True if the input
/// is a normal number (not NaN, not infinity)"; "`.subnormal` True if the
/// input is a subnormal number (not NaN, not infinity)". "As a special
/// case, positive and negative zero are considered normal numbers."
pub fn testp(fmt: &FloatFormat, op: TestOp, a: u64) -> bool {
    let exp = (a >> fmt.man_bits) & ((1 << fmt.exp_bits) - 1);
    let man = a & ((1 << fmt.man_bits) - 1);
    let all_ones = (1 << fmt.exp_bits) - 1;
    let (inf, nan) = (exp == all_ones && man == 0, exp == all_ones && man != 0);
    let subnormal = exp == 0 && man != 0;
    match op {
        TestOp::Finite => !inf && !nan,
        TestOp::Infinite => inf,
        TestOp::Number => !nan,
        TestOp::NotANumber => nan,
        TestOp::Normal => !inf && !nan && !subnormal,
        TestOp::Subnormal => subnormal,
    }
}

// ---- Half Precision Comparison Instructions: set, setp ----

/// `set`'s destination type, by the bits it writes for True (PTX ISA
/// 9.7.7.1, "Half Precision Comparison Instructions: set": "Result of this
/// computation is written in destination register in the following way:
/// If result is True, 0xffffffff is written for destination types
/// .u32/.s32. 0xffff is written for destination types .u16/.s16. 1.0 in target precision floating point
/// format is written for destination type .f16, .bf16. If result is False,
/// 0x0 is written for all integer destination types. 0.0 in target
/// precision floating point format is written").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetDest {
    /// `.u32`, `.s32`.
    U32,
    /// `.u16`, `.s16`.
    U16,
    F32,
    F16,
    BF16,
}

impl SetDest {
    /// The destination a `.dtype` qualifier names.
    pub fn from_ptx(q: &str) -> Option<SetDest> {
        Some(match q {
            ".u32" | ".s32" => SetDest::U32,
            ".u16" | ".s16" => SetDest::U16,
            ".f32" => SetDest::F32,
            ".f16" => SetDest::F16,
            ".bf16" => SetDest::BF16,
            _ => return None,
        })
    }

    /// What True writes: all ones, or 1.0 in the destination's format
    /// (`.f32` `0x3f800000`, `.f16` `0x3c00`, `.bf16` `0x3f80`); False
    /// writes 0 (the integer 0 and +0.0 alike).
    pub fn true_bits(self) -> u64 {
        match self {
            SetDest::U32 => 0xffff_ffff,
            SetDest::U16 => 0xffff,
            SetDest::F32 => 0x3f80_0000,
            SetDest::F16 => 0x3c00,
            SetDest::BF16 => 0x3f80,
        }
    }

    /// The destination register's width.
    pub fn bits(self) -> u16 {
        match self {
            SetDest::U32 | SetDest::F32 => 32,
            SetDest::U16 | SetDest::F16 | SetDest::BF16 => 16,
        }
    }
}

/// `BoolOp(t, c)` of `set`/`setp`, `c` already negated for `!c`; without
/// `.BoolOp`, `t`.
fn bool_op(combine: Option<(BoolOp, bool)>, t: bool) -> bool {
    match combine {
        None => t,
        Some((BoolOp::And, c)) => t && c,
        Some((BoolOp::Or, c)) => t || c,
        Some((BoolOp::Xor, c)) => t ^ c,
    }
}

/// `set` with a half-precision destination or source (PTX ISA 9.7.7.1,
/// "Half Precision Comparison Instructions: set"):
/// `set.CmpOp{.BoolOp}{.ftz}.f16.stype`, `set.CmpOp{.BoolOp}.bf16.stype`
/// (`.stype` any integer type of 16 bits or more, `.f16`, `.f32`, `.f64`),
/// `set.CmpOp{.BoolOp}{.ftz}.dtype.f16`, `set.CmpOp{.BoolOp}.dtype.bf16`
/// (`.dtype = { .u16, .s16, .u32, .s32 }`): "`t = (a CmpOp b) ? 1 : 0; d =
/// BoolOp(t, c) ? 1.0 : 0.0;`" for a float destination, "`trueVal =
/// (isU16(dtype) || isS16(dtype)) ? 0xffff : 0xffffffff; ... d = BoolOp(t,
/// c) ? trueVal : 0;`" for an integer one. The pseudocode's branch reads
/// "`else if (dtype == .f16 || stype == .bf16)`"; we read it as `dtype ==
/// .bf16`, as the text's list of results does ("1.0 in target precision
/// floating point format is written for destination type .f16, .bf16"),
/// so that `set.lt.u32.bf16` writes `0xffffffff` (as an H100 does,
/// `semantics/tests/sim_video.rs`). "When `.ftz` modifier is
/// specified then subnormal inputs ... are flushed to sign preserving
/// zero" (a float source only). `None` when the operator does not apply to
/// the source type (`lo` on a float, `ltu` on an integer).
pub fn set_half(
    ty: super::video::SetType,
    op: CmpOp,
    ftz: bool,
    combine: Option<(BoolOp, bool)>,
    dest: SetDest,
    a: u64,
    b: u64,
) -> Option<u64> {
    let t = match ty {
        super::video::SetType::Int(t) => compare_int(t, op, a, b)?,
        super::video::SetType::Float(f) => compare_float(f, ftz, op, a, b)?,
    };
    Some(if bool_op(combine, t) {
        dest.true_bits()
    } else {
        0
    })
}

/// The two lanes' comparisons of an `.f16x2`/`.bf16x2` source (PTX ISA
/// 9.7.7.1-2): "`fA[0] = a[0:15]; fA[1] = a[16:31]; fB[0] = b[0:15]; fB[1]
/// = b[16:31]; t[0] = (fA[0] CmpOp fB[0]) ? 1 : 0; t[1] = (fA[1] CmpOp
/// fB[1]) ? 1 : 0;`".
fn lanes_x2(fmt: &FloatFormat, ftz: bool, op: CmpOp, a: u64, b: u64) -> Option<[bool; 2]> {
    let lane = |x: u64, k: u32| (x >> (16 * k)) & 0xffff;
    Some([
        compare_float(fmt, ftz, op, lane(a, 0), lane(b, 0))?,
        compare_float(fmt, ftz, op, lane(a, 1), lane(b, 1))?,
    ])
}

/// `set.CmpOp{.BoolOp}{.ftz}.dtype.f16x2` (`.dtype = { .f16x2, .u32, .s32
/// }`) and `set.CmpOp{.BoolOp}.dtype.bf16x2` (`.dtype = { .bf16x2, .u32,
/// .s32 }`), PTX ISA 9.7.7.1 (half precision `set`): "If the source type is `.f16x2` or `.bf16x2`
/// then result of individual operations are packed in the 32-bit
/// destination operand": "`d[i] = BoolOp(t[i], c) ? 1.0 : 0.0;`" for a
/// packed float destination (`float_dest`, 1.0 in `fmt`), "`d[i] =
/// BoolOp(t[i], c) ? 0xffff : 0;`" for `.u32`/`.s32`; lane 0 in bits 0..16.
/// The pseudocode's test reads "`if (dtype == .f16x2 || stype ==
/// .bf16x2)`"; we read `dtype == .bf16x2`, as the text's list of results
/// does (integer destinations get all ones; an H100 agrees). `.ftz`:
/// "When `.ftz` modifier is specified then subnormal inputs and results
/// are flushed to sign preserving zero". `None` for `lo ls hi hs`.
pub fn set_x2(
    fmt: &FloatFormat,
    op: CmpOp,
    ftz: bool,
    combine: Option<(BoolOp, bool)>,
    float_dest: bool,
    a: u64,
    b: u64,
) -> Option<u64> {
    let t = lanes_x2(fmt, ftz, op, a, b)?;
    let one = (fmt.bias() as u64) << fmt.man_bits;
    let on = if float_dest { one } else { 0xffff };
    Some((0..2).fold(0, |d, k| {
        d | if bool_op(combine, t[k]) {
            on << (16 * k)
        } else {
            0
        }
    }))
}

/// `setp.CmpOp{.BoolOp}{.ftz}.f16x2 p|q, a, b{, {!}c}` and
/// `setp.CmpOp{.BoolOp}.bf16x2` (PTX ISA 9.7.7.2, "Half Precision
/// Comparison Instructions: setp"): "`p = BoolOp(t[0], c);
/// q = BoolOp(t[1], c);`" (without `.BoolOp`, `p = t[0]`, `q = t[1]`: the
/// lanes' results, not a result and its negation as for the scalar types);
/// "`setp.ftz.{f16,f16x2}` flushes subnormal inputs to sign-preserving
/// zero". `None` for `lo ls hi hs`.
pub fn setp_x2(
    fmt: &FloatFormat,
    op: CmpOp,
    ftz: bool,
    combine: Option<(BoolOp, bool)>,
    a: u64,
    b: u64,
) -> Option<(bool, bool)> {
    let [t0, t1] = lanes_x2(fmt, ftz, op, a, b)?;
    Some((bool_op(combine, t0), bool_op(combine, t1)))
}
