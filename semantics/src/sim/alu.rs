//! Integer, bit and comparison semantics of the plain instructions the
//! interpreter runs besides 9.7.9 (PTX ISA 9.7.1 integer arithmetic, 9.7.2
//! extended precision is not modelled, 9.7.5 logic and shift, 9.7.6
//! comparison and selection). Values are the low `bits` of a `u64`.

use super::program::{BinOp, Cmp, IntTy, UnOp};

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

fn as_i128(x: u64, ty: IntTy) -> i128 {
    if ty.signed {
        i128::from(sext(x, u32::from(ty.bits)))
    } else {
        i128::from(x & mask(u32::from(ty.bits)))
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

/// The operations of [`binary`] that need the operands widened.
#[inline(never)]
fn binary_wide(op: BinOp, ty: IntTy, a: u64, b: u64) -> Option<u64> {
    let bits = u32::from(ty.bits);
    let m = mask(bits);
    let (x, y) = (as_i128(a, ty), as_i128(b, ty));
    Some(match op {
        BinOp::Add => a.wrapping_add(b) & m,
        BinOp::Sub => a.wrapping_sub(b) & m,
        BinOp::MulLo => a.wrapping_mul(b) & m,
        // "the high half of the 2n-bit product"
        BinOp::MulHi => ((x * y) >> bits) as u64 & m,
        BinOp::MulWide => (x * y) as u64 & mask(2 * bits),
        BinOp::Min => (x.min(y)) as u64 & m,
        BinOp::Max => (x.max(y)) as u64 & m,
        BinOp::Div => {
            if y == 0 || (ty.signed && y == -1 && x == i128::from(sext(1u64 << (bits - 1), bits))) {
                return None;
            }
            (x / y) as u64 & m
        }
        BinOp::Rem => {
            if y == 0 || (ty.signed && y == -1 && x == i128::from(sext(1u64 << (bits - 1), bits))) {
                return None;
            }
            (x % y) as u64 & m
        }
        BinOp::And => a & b & m,
        BinOp::Or => (a | b) & m,
        BinOp::Xor => (a ^ b) & m,
        // "Shift amounts greater than the register width N are clamped to
        // N": the whole 32-bit amount counts.
        BinOp::Shl => {
            let s = (b & 0xffff_ffff) as u32;
            if s >= bits {
                0
            } else {
                (a << s) & m
            }
        }
        BinOp::Shr => {
            let s = ((b & 0xffff_ffff) as u32).min(bits);
            if ty.signed {
                let v = sext(a, bits);
                (if s >= bits { v >> (bits - 1) } else { v >> s }) as u64 & m
            } else if s >= bits {
                0
            } else {
                ((a & m) >> s) & m
            }
        }
    })
}

pub(crate) fn unary(op: UnOp, ty: IntTy, a: u64) -> u64 {
    let bits = u32::from(ty.bits);
    let m = mask(bits);
    let a = a & m;
    match op {
        UnOp::Not => !a & m,
        UnOp::Cnot => u64::from(a == 0),
        UnOp::Neg => a.wrapping_neg() & m,
        UnOp::Abs => (sext(a, bits).wrapping_abs() as u64) & m,
        UnOp::Popc => u64::from(a.count_ones()),
        UnOp::Clz => u64::from(a.leading_zeros() - (64 - bits)),
        UnOp::Brev => a.reverse_bits() >> (64 - bits),
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
    let msb = u64::from(ty.bits) - 1;
    let pos = b & 0xff;
    let len = c & 0xff;
    let bit = |i: u64| (a >> i) & 1;
    let sbit = if !ty.signed || len == 0 {
        0
    } else {
        bit((pos + len - 1).min(msb))
    };
    (0..=msb).fold(0u64, |d, i| {
        let v = if i < len && pos + i <= msb {
            bit(pos + i)
        } else {
            sbit
        };
        d | (v << i)
    })
}

#[inline]
pub(crate) fn compare(cmp: Cmp, ty: IntTy, unsigned: bool, a: u64, b: u64) -> bool {
    let t = IntTy {
        bits: ty.bits,
        signed: ty.signed && !unsigned,
    };
    let (x, y) = (as_i128(a, t), as_i128(b, t));
    match cmp {
        Cmp::Eq => x == y,
        Cmp::Ne => x != y,
        Cmp::Lt => x < y,
        Cmp::Le => x <= y,
        Cmp::Gt => x > y,
        Cmp::Ge => x >= y,
    }
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
