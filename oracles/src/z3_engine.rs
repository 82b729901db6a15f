//! The Z3 engine: every rounding is a term of Z3's floating-point theory
//! (SMT-LIB `FloatingPoint`: `to_fp`, `fp.roundToIntegral`, `fp.to_sbv`,
//! `fp.to_ubv`, `to_fp_signed`/`to_fp_unsigned`) over constant operands,
//! evaluated by Z3's simplifier; the result is read back with
//! `fp.to_ieee_bv`. Z3 is slow per value, so results are memoised (many
//! forms share one IEEE rounding and differ only in PTX's rules).

use crate::engine::{Engine, IntResult, Mode};
use crate::format::{Fp, Int, Num};
use std::collections::HashMap;
use z3::ast::{Ast, Bool, Float, Int as ZInt, Real, BV};
use z3::{Context, Sort};

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Query {
    Convert(u32, u32, u64, u32, u32, Mode),
    Integral(u32, u32, u64, Mode),
    ToInt(u32, u32, u64, Mode, u32, bool),
    FromInt(u32, bool, u64, u32, u32, Mode),
}

#[derive(Clone, Copy)]
enum Answer {
    Bits(u64),
    Int(IntResult),
}

/// Z3, with a memo of the answers it gave.
#[derive(Default)]
pub struct Z3Engine {
    memo: HashMap<Query, Answer>,
    /// How many terms Z3 evaluated (memo hits excluded).
    pub evaluated: u64,
}

impl Z3Engine {
    pub fn new() -> Z3Engine {
        Z3Engine::default()
    }
}

pub(crate) fn rounding(mode: Mode) -> z3::ast::RoundingMode {
    use z3::ast::RoundingMode as R;
    match mode {
        Mode::NearestEven => R::round_nearest_ties_to_even(),
        Mode::NearestAway => R::round_nearest_ties_to_away(),
        Mode::TowardZero => R::round_towards_zero(),
        Mode::Down => R::round_towards_negative(),
        Mode::Up => R::round_towards_positive(),
    }
}

fn sort(f: Fp) -> Sort {
    Sort::float(f.eb, f.precision())
}

/// `((_ to_fp eb sb) bv)`: the float whose IEEE encoding is `bits`.
pub(crate) fn float_from_bits(f: Fp, bits: u64) -> Float {
    let bv = BV::from_u64(bits, f.width());
    let s = sort(f);
    let ctx: &Context = bv.get_ctx();
    // SAFETY: the context, bit-vector and sort are live Z3 objects of this
    // thread's context, and `Z3_mk_fpa_to_fp_bv` returns a new term of it
    // (checked for null) that `wrap` takes a reference on.
    unsafe {
        let raw =
            z3_sys::Z3_mk_fpa_to_fp_bv(ctx.get_z3_context(), bv.get_z3_ast(), s.get_z3_sort())
                .expect("Z3_mk_fpa_to_fp_bv");
        Float::wrap(ctx, raw)
    }
}

/// `((_ to_fp eb sb) rm bv)` read as a signed or unsigned integer.
fn float_from_int(bits: u64, width: u32, signed: bool, dst: Fp, mode: Mode) -> Float {
    let bv = BV::from_u64(bits, width);
    let s = sort(dst);
    let rm = rounding(mode);
    let ctx: &Context = bv.get_ctx();
    // SAFETY: as in `float_from_bits`; `rm` is a live rounding-mode term.
    unsafe {
        let c = ctx.get_z3_context();
        let raw = if signed {
            z3_sys::Z3_mk_fpa_to_fp_signed(c, rm.get_z3_ast(), bv.get_z3_ast(), s.get_z3_sort())
        } else {
            z3_sys::Z3_mk_fpa_to_fp_unsigned(c, rm.get_z3_ast(), bv.get_z3_ast(), s.get_z3_sort())
        }
        .expect("Z3_mk_fpa_to_fp_(un)signed");
        Float::wrap(ctx, raw)
    }
}

/// The IEEE encoding of a constant float term, evaluated by Z3.
pub(crate) fn bits_of(f: &Float) -> u64 {
    f.to_ieee_bv()
        .simplify()
        .as_u64()
        .expect("Z3 evaluates a constant float term to a numeral")
}

fn truth(b: &Bool) -> bool {
    let s = b.simplify();
    s.as_bool()
        .unwrap_or_else(|| panic!("Z3 evaluates a constant comparison: {s}"))
}

impl Engine for Z3Engine {
    fn name(&self) -> &'static str {
        "z3"
    }

    fn convert(&mut self, src: Fp, x: u64, dst: Fp, mode: Mode) -> Option<u64> {
        let q = Query::Convert(src.eb, src.precision(), x, dst.eb, dst.precision(), mode);
        if let Some(Answer::Bits(b)) = self.memo.get(&q) {
            return Some(*b);
        }
        self.evaluated += 1;
        let r = float_from_bits(src, x).to_fp_with_rounding_mode(&rounding(mode), &sort(dst));
        let b = bits_of(&r);
        self.memo.insert(q, Answer::Bits(b));
        Some(b)
    }

    fn round_integral(&mut self, f: Fp, x: u64, mode: Mode) -> Option<u64> {
        let q = Query::Integral(f.eb, f.precision(), x, mode);
        if let Some(Answer::Bits(b)) = self.memo.get(&q) {
            return Some(*b);
        }
        self.evaluated += 1;
        let r = float_from_bits(f, x).round_to_integral_with_rounding_mode(&rounding(mode));
        let b = bits_of(&r);
        self.memo.insert(q, Answer::Bits(b));
        Some(b)
    }

    fn convert_to_int(&mut self, src: Fp, x: u64, mode: Mode, dst: Int) -> Option<IntResult> {
        let q = Query::ToInt(src.eb, src.precision(), x, mode, dst.bits, dst.signed);
        if let Some(Answer::Int(v)) = self.memo.get(&q) {
            return Some(*v);
        }
        self.evaluated += 1;
        let f = float_from_bits(src, x);
        let rm = rounding(mode);
        // fp.to_sbv/fp.to_ubv are unspecified out of range (SMT-LIB): the
        // integral value decides the side first, in exact real arithmetic.
        let integral = f.round_to_integral_with_rounding_mode(&rm);
        let answer = if truth(&integral.is_infinite()) {
            if truth(&integral.is_negative()) {
                IntResult::Below
            } else {
                IntResult::Above
            }
        } else {
            let r = integral.to_real();
            let lo = Real::from_int(&ZInt::from_i128(dst.min()));
            let hi = Real::from_int(&ZInt::from_i128(dst.max()));
            if truth(&r.lt(&lo)) {
                IntResult::Below
            } else if truth(&r.gt(&hi)) {
                IntResult::Above
            } else {
                let bv = if dst.signed {
                    f.to_sbv_with_rounding_mode(&rm, dst.bits)
                } else {
                    f.to_ubv_with_rounding_mode(&rm, dst.bits)
                };
                let raw = bv
                    .simplify()
                    .as_u64()
                    .expect("Z3 evaluates fp.to_*bv in range");
                IntResult::Value(dst.read(raw))
            }
        };
        self.memo.insert(q, Answer::Int(answer));
        Some(answer)
    }

    fn convert_from_int(&mut self, src: Int, x: u64, dst: Fp, mode: Mode) -> Option<u64> {
        let x = x & src.mask();
        let q = Query::FromInt(src.bits, src.signed, x, dst.eb, dst.precision(), mode);
        if let Some(Answer::Bits(b)) = self.memo.get(&q) {
            return Some(*b);
        }
        self.evaluated += 1;
        let r = float_from_int(x, src.bits, src.signed, dst, mode);
        let b = bits_of(&r);
        self.memo.insert(q, Answer::Bits(b));
        Some(b)
    }

    /// The decision in Z3's real arithmetic: `floor((|x| - |t|) * 2^w /
    /// step) + r >= 2^w`, with `|x|` from `fp.to_real`.
    fn stochastic_carry(&mut self, src: Fp, x: u64, t: Num, step: Num, r: u64, w: u32) -> bool {
        self.evaluated += 1;
        let xr = float_from_bits(src, x).unary_abs().to_real();
        let scaled = (xr - real_of(t)) * real_of(Num::pow2(w as i32)) / real_of(step);
        let sum = ZInt::from_real(&scaled) + ZInt::from_u64(r);
        truth(&sum.ge(ZInt::from_u64(1 << w)))
    }

    fn evaluations(&self) -> u64 {
        self.evaluated
    }
}

/// An exact value as a Z3 real: `sig * 2^exp`.
fn real_of(n: Num) -> Real {
    // 2^|exp| by squaring, as numerals (Z3 4.8's simplifier leaves large
    // `^` terms alone).
    let mut p = Real::from_int(&ZInt::from_i64(1));
    let mut sq = Real::from_int(&ZInt::from_i64(2));
    let mut k = n.exp.unsigned_abs();
    while k > 0 {
        if k & 1 == 1 {
            p = (p * &sq).simplify();
        }
        sq = (&sq * &sq).simplify();
        k >>= 1;
    }
    let sig = Real::from_int(&ZInt::from_u128(n.sig));
    let v = if n.exp >= 0 { sig * p } else { sig / p };
    if n.neg {
        -v
    } else {
        v
    }
}
