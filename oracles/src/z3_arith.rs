//! IEEE 754 arithmetic from Z3's floating-point theory (SMT-LIB `fp.add`,
//! `fp.sub`, `fp.mul`, `fp.div`, `fp.fma`, `fp.sqrt` over constant
//! operands, evaluated by Z3's simplifier): the oracle for the IEEE-exact
//! floating-point instructions of PTX ISA 9.7.3 and 9.7.4
//! (`ptx_semantics::arith::float`). Only the IEEE operation is here; PTX's
//! own rules (`.ftz`, `.sat`, `.relu`, the canonical NaN) are the test's.

use crate::engine::Mode;
use crate::format::Fp;
use crate::z3_engine::{bits_of, float_from_bits, rounding};
use z3::ast::Ast;

/// An IEEE operation with one rounding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FpOp {
    Add,
    Sub,
    Mul,
    Div,
    /// `a * b + c` with one rounding.
    Fma,
    Sqrt,
    /// `1 / a`, correctly rounded (`rcp.rnd`).
    Rcp,
}

impl FpOp {
    /// How many operands the operation reads.
    pub const fn arity(self) -> usize {
        match self {
            FpOp::Sqrt | FpOp::Rcp => 1,
            FpOp::Fma => 3,
            _ => 2,
        }
    }
}

/// The IEEE encoding of `op` on the encodings `a`, `b`, `c` of format `f`,
/// rounded by `mode` (operands past the operation's arity are ignored).
/// NaN results come back as whatever NaN Z3 gives: compare NaN-ness only.
pub fn z3_fp(op: FpOp, f: Fp, mode: Mode, a: u64, b: u64, c: u64) -> u64 {
    let rm = rounding(mode);
    let x = float_from_bits(f, a);
    let r = match op {
        FpOp::Add => x.add_with_rounding_mode(float_from_bits(f, b), &rm),
        FpOp::Sub => x.sub_with_rounding_mode(float_from_bits(f, b), &rm),
        FpOp::Mul => x.mul_with_rounding_mode(float_from_bits(f, b), &rm),
        FpOp::Div => x.div_with_rounding_mode(float_from_bits(f, b), &rm),
        FpOp::Fma => x.fma_with_rounding_mode(float_from_bits(f, b), float_from_bits(f, c), &rm),
        FpOp::Sqrt => x.sqrt_with_rounding_mode(&rm),
        FpOp::Rcp => {
            let one = float_from_bits(f, one_bits(f));
            one.div_with_rounding_mode(x, &rm)
        }
    };
    // `fp.to_ieee_bv` of a NaN is not a numeral (SMT-LIB leaves its bits
    // open): give the quiet NaN with only the top significand bit.
    if r.is_nan().simplify().as_bool() == Some(true) {
        return (((1u64 << f.eb) - 1) << f.mb) | (1 << (f.mb - 1));
    }
    bits_of(&r)
}

/// The encoding of 1.0 in an IEEE format.
fn one_bits(f: Fp) -> u64 {
    (f.bias() as u64) << f.mb
}
