//! The plain integer, bit and comparison instructions the interpreter ran
//! before `crate::arith` (PTX ISA 9.7.1, 9.7.7, 9.7.8), kept as compact ops
//! with a fast path for the commonest ones; their meaning is
//! `crate::arith`'s. Values are the low `bits` of a `u64`.

use super::program::{BinOp, Cmp, IntTy, UnOp};
use crate::arith::compare::{compare_int, CmpOp};
use crate::arith::int::{self, IntType, MulMode};

#[inline(always)]
pub(crate) fn mask(bits: u32) -> u64 {
    1u64.checked_shl(bits).unwrap_or(0).wrapping_sub(1)
}

/// `x` (the low `bits`) as a signed number.
pub(crate) fn sext(x: u64, bits: u32) -> i64 {
    if bits >= 64 || bits == 0 {
        x as i64
    } else {
        let s = 64 - bits;
        ((x << s) as i64) >> s
    }
}

/// A binary operation; `None` where the result is unspecified ("Division
/// by zero yields an unspecified, machine-specific value", PTX ISA 9.7.1.7).
/// `MulWide` gives a result of twice the width.
#[inline(always)]
pub(crate) fn binary(op: BinOp, ty: IntTy, a: u64, b: u64) -> Option<u64> {
    let m = mask(u32::from(ty.bits));
    match op {
        BinOp::Add => Some(a.wrapping_add(b) & m),
        BinOp::Sub => Some(a.wrapping_sub(b) & m),
        BinOp::MulLo => Some(a.wrapping_mul(b) & m),
        BinOp::And => Some(a & b & m),
        BinOp::Or => Some((a | b) & m),
        BinOp::Xor => Some((a ^ b) & m),
        _ => binary_wide(op, ty, a, b),
    }
}

/// The bits the interpreter writes where [`binary`] gives `None`: still
/// `crate::arith`'s value (sm_90's: all ones for a division by zero),
/// marked unspecified by the caller, so that what a run prints is what
/// the pure functions and `conform eval` give.
pub(crate) fn nominal(op: BinOp, ty: IntTy, a: u64, b: u64) -> u64 {
    let t = int_type(ty);
    match op {
        BinOp::Div => int::div(t, a, b).bits,
        BinOp::Rem => int::rem(t, a, b).bits,
        _ => 0,
    }
}

/// The `crate::arith` type of an operation.
fn int_type(ty: IntTy) -> IntType {
    IntType {
        bits: u32::from(ty.bits),
        signed: ty.signed,
    }
}

/// The operations of [`binary`] that need the operands widened, through
/// `crate::arith` (one meaning for the interpreter and the pure functions).
#[inline(never)]
fn binary_wide(op: BinOp, ty: IntTy, a: u64, b: u64) -> Option<u64> {
    let t = int_type(ty);
    let bits = t.bits;
    Some(match op {
        BinOp::Add => int::add(t, false, a, b),
        BinOp::Sub => int::sub(t, false, a, b),
        BinOp::MulLo => int::mul(t, MulMode::Lo, a, b),
        BinOp::MulHi => int::mul(t, MulMode::Hi, a, b),
        BinOp::MulWide => int::mul(t, MulMode::Wide, a, b),
        BinOp::Min => int::min(t, false, a, b),
        BinOp::Max => int::max(t, false, a, b),
        // division by zero and `MININT / -1`: unspecified
        BinOp::Div => {
            let r = int::div(t, a, b);
            r.unspecified.is_none().then_some(r.bits)?
        }
        // "The behavior for negative numbers is machine-dependent": the
        // interpreter takes the truncating remainder `crate::arith` gives
        // (sm_90's, checked by the simulator baseline) as defined; only
        // division by zero is unspecified
        BinOp::Rem => {
            let r = int::rem(t, a, b);
            (r.unspecified != Some(int::DIV_ZERO)).then_some(r.bits)?
        }
        BinOp::And => int::and(bits, a, b),
        BinOp::Or => int::or(bits, a, b),
        BinOp::Xor => int::xor(bits, a, b),
        // "Shift amounts greater than the register width N are clamped to
        // N": the whole 32-bit amount counts.
        BinOp::Shl => int::shl(bits, a, b as u32),
        BinOp::Shr => int::shr(t, a, b as u32),
    })
}

pub(crate) fn unary(op: UnOp, ty: IntTy, a: u64) -> u64 {
    let t = int_type(ty);
    let bits = t.bits;
    match op {
        UnOp::Not => int::not(bits, a),
        UnOp::Cnot => int::cnot(bits, a),
        UnOp::Neg => int::neg(t, a),
        UnOp::Abs => int::abs(t, a),
        UnOp::Popc => u64::from(int::popc(bits, a)),
        UnOp::Clz => u64::from(int::clz(bits, a)),
        UnOp::Brev => int::brev(bits, a),
    }
}

/// `bfe.type d, a, b, c` (PTX ISA 9.7.1.21):
/// ```text
/// msb = (.type==.u32 || .type==.s32) ? 31 : 63;
/// pos = b & 0xff; len = c & 0xff;
/// sbit = (.type==.u32 || .type==.u64 || len==0) ? 0 : a[min(pos+len-1,msb)];
/// d = 0; for (i=0; i<=msb; i++) d[i] = (i<len && pos+i<=msb) ? a[pos+i] : sbit;
/// ```
pub(crate) fn bfe(ty: IntTy, a: u64, b: u64, c: u64) -> u64 {
    int::bfe(int_type(ty), a, b as u32, c as u32)
}

/// `setp` on integers, through `crate::arith`'s comparison; `unsigned`
/// for `.lo .ls .hi .hs`.
#[inline]
pub(crate) fn compare(cmp: Cmp, ty: IntTy, unsigned: bool, a: u64, b: u64) -> bool {
    let op = match (cmp, unsigned) {
        (Cmp::Eq, _) => CmpOp::Eq,
        (Cmp::Ne, _) => CmpOp::Ne,
        (Cmp::Lt, false) => CmpOp::Lt,
        (Cmp::Le, false) => CmpOp::Le,
        (Cmp::Gt, false) => CmpOp::Gt,
        (Cmp::Ge, false) => CmpOp::Ge,
        (Cmp::Lt, true) => CmpOp::Lo,
        (Cmp::Le, true) => CmpOp::Ls,
        (Cmp::Gt, true) => CmpOp::Hi,
        (Cmp::Ge, true) => CmpOp::Hs,
    };
    compare_int(int_type(ty), op, a, b).unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    const U32: IntTy = IntTy {
        bits: 32,
        signed: false,
    };
    const S32: IntTy = IntTy {
        bits: 32,
        signed: true,
    };

    #[test]
    fn shifts_clamp() {
        assert_eq!(binary(BinOp::Shl, U32, 1, 31), Some(0x8000_0000));
        assert_eq!(binary(BinOp::Shl, U32, 1, 32), Some(0));
        assert_eq!(binary(BinOp::Shr, S32, 0x8000_0000, 40), Some(0xffff_ffff));
        assert_eq!(binary(BinOp::Shr, U32, 0x8000_0000, 40), Some(0));
    }

    #[test]
    fn multiplies() {
        assert_eq!(
            binary(BinOp::MulHi, S32, (-2i32) as u32 as u64, 3),
            Some(0xffff_ffff)
        );
        assert_eq!(
            binary(BinOp::MulWide, S32, (-2i32) as u32 as u64, 3),
            Some((-6i64) as u64)
        );
        assert_eq!(binary(BinOp::Div, U32, 5, 0), None);
    }

    #[test]
    fn bit_field_extract() {
        // the signed field's top bit is replicated
        assert_eq!(bfe(S32, 0b1_0110_0000, 5, 4), 0xffff_fffb);
        assert_eq!(bfe(U32, 0b1_0110_0000, 5, 4), 0b1011);
        assert_eq!(bfe(S32, 0xffff_ffff, 3, 0), 0);
    }
}
