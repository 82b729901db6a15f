//! Comparisons: `setp`'s compare (PTX ISA 9.7.7.4, with the operators of
//! 9.7.7.1 "Comparison Operators"), its boolean combination, `selp`
//! (9.7.7.3) and `testp` (9.7.3.1). Pure predicates on register bits.

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
