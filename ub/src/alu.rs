//! The plain integer instructions as Z3 terms, written after
//! `ptx_semantics::sim::alu` (values are the low `bits` of a 64-bit
//! register; results are zero-extended).

use ptx_semantics::sim::program::{BinOp, Cmp, IntTy, UnOp};
use z3::ast::{Bool, BV};

/// The low `bits` of `x`.
pub fn low(x: &BV, bits: u32) -> BV {
    if bits >= 64 {
        x.clone()
    } else {
        x.extract(bits - 1, 0)
    }
}

/// `x` (of any width up to 64) zero-extended to 64 bits.
pub fn zext64(x: &BV) -> BV {
    let w = x.get_size();
    if w >= 64 {
        x.clone()
    } else {
        x.zero_ext(64 - w)
    }
}

/// The low `bits` of `x` widened to `to` bits, by sign or zero.
pub fn widen(x: &BV, bits: u32, to: u32, signed: bool) -> BV {
    let v = low(x, bits);
    if to <= bits {
        v
    } else if signed {
        v.sign_ext(to - bits)
    } else {
        v.zero_ext(to - bits)
    }
}

pub fn mask64(x: &BV, bits: u32) -> BV {
    zext64(&low(x, bits.min(64)))
}

/// A binary operation; division by zero gives a fresh value ("Division by
/// zero yields an unspecified, machine-specific value") named after `tag`.
pub fn binary(op: BinOp, ty: IntTy, a: &BV, b: &BV, tag: &str) -> BV {
    let n = u32::from(ty.bits);
    let (x, y) = (low(a, n), low(b, n));
    let r = match op {
        BinOp::Add => x.bvadd(&y),
        BinOp::Sub => x.bvsub(&y),
        BinOp::MulLo => x.bvmul(&y),
        BinOp::MulHi | BinOp::MulWide => {
            let p = widen(a, n, 2 * n, ty.signed).bvmul(widen(b, n, 2 * n, ty.signed));
            if op == BinOp::MulWide {
                return zext64(&p);
            }
            p.extract(2 * n - 1, n)
        }
        BinOp::Min | BinOp::Max => {
            let lt = if ty.signed { x.bvslt(&y) } else { x.bvult(&y) };
            if op == BinOp::Min {
                lt.ite(&x, &y)
            } else {
                lt.ite(&y, &x)
            }
        }
        BinOp::Div | BinOp::Rem => {
            let q = match (op, ty.signed) {
                (BinOp::Div, true) => x.bvsdiv(&y),
                (BinOp::Div, false) => x.bvudiv(&y),
                (_, true) => x.bvsrem(&y),
                (_, false) => x.bvurem(&y),
            };
            let zero = y.eq(BV::from_u64(0, n));
            zero.ite(&BV::fresh_const(tag, n), &q)
        }
        BinOp::And => x.bvand(&y),
        BinOp::Or => x.bvor(&y),
        BinOp::Xor => x.bvxor(&y),
        BinOp::Shl | BinOp::Shr => {
            // "Shift amounts greater than the register width N are
            // clamped to N": the whole 32-bit amount counts.
            let s = zext64(&low(b, 32));
            let over = s.bvuge(BV::from_u64(u64::from(n), 64));
            let amount = low(&s, n);
            let shifted = match (op, ty.signed) {
                (BinOp::Shl, _) => x.bvshl(&amount),
                (_, true) => x.bvashr(&amount),
                (_, false) => x.bvlshr(&amount),
            };
            let clamped = match (op, ty.signed) {
                (BinOp::Shr, true) => x.bvashr(BV::from_u64(u64::from(n - 1), n)),
                _ => BV::from_u64(0, n),
            };
            over.ite(&clamped, &shifted)
        }
    };
    zext64(&r)
}

/// A unary operation (`popc`, `clz`, `brev` as `crate::arith` reads them,
/// after the same functions of `ptx_semantics::arith::int`).
pub fn unary(op: UnOp, ty: IntTy, a: &BV) -> BV {
    let n = u32::from(ty.bits);
    let x = low(a, n);
    let r = match op {
        UnOp::Not => x.bvnot(),
        UnOp::Neg => x.bvneg(),
        UnOp::Abs => x.bvslt(BV::from_u64(0, n)).ite(&x.bvneg(), &x),
        UnOp::Cnot => x
            .eq(BV::from_u64(0, n))
            .ite(&BV::from_u64(1, n), &BV::from_u64(0, n)),
        UnOp::Popc => crate::arith::popc(n, a),
        UnOp::Clz => crate::arith::clz(n, a),
        UnOp::Brev => crate::arith::brev(n, a),
    };
    zext64(&r)
}

/// `bfe.type d, a, b, c` (the plain decoding of PTX ISA 9.7.1.19), read as
/// `Arith::Bfe`: the simulator runs both through `arith::int::bfe`.
pub fn bfe(ty: IntTy, a: &BV, b: &BV, c: &BV) -> BV {
    let t = ptx_semantics::arith::int::IntType {
        bits: u32::from(ty.bits),
        signed: ty.signed,
    };
    zext64(&crate::arith::bfe(t, a, b, c))
}

pub fn compare(cmp: Cmp, ty: IntTy, unsigned: bool, a: &BV, b: &BV) -> Bool {
    let n = u32::from(ty.bits);
    let (x, y) = (low(a, n), low(b, n));
    let signed = ty.signed && !unsigned;
    match cmp {
        Cmp::Eq => x.eq(&y),
        Cmp::Ne => x.eq(&y).not(),
        Cmp::Lt if signed => x.bvslt(&y),
        Cmp::Le if signed => x.bvsle(&y),
        Cmp::Gt if signed => x.bvsgt(&y),
        Cmp::Ge if signed => x.bvsge(&y),
        Cmp::Lt => x.bvult(&y),
        Cmp::Le => x.bvule(&y),
        Cmp::Gt => x.bvugt(&y),
        Cmp::Ge => x.bvuge(&y),
    }
}
