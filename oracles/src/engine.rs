//! What an oracle needs from an IEEE 754 implementation: conversions
//! between binary formats, to and from integers, and rounding to an
//! integral value, in the five rounding-direction attributes of IEEE 754
//! (clause 4.3). Everything PTX adds on top is `ptx.rs`'s business.
//!
//! Formats here are genuine IEEE interchange layouts, `Fp::ieee(eb, sb)`;
//! values never are NaN (PTX's NaN rules decide those before an engine is
//! asked).

use crate::format::{Class, Fp, Int, Num};

/// An IEEE 754 rounding-direction attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// roundTiesToEven (PTX `.rn`, `.rni`).
    NearestEven,
    /// roundTiesToAway (PTX `.rna`).
    NearestAway,
    /// roundTowardZero (PTX `.rz`, `.rzi`).
    TowardZero,
    /// roundTowardNegative (PTX `.rm`, `.rmi`).
    Down,
    /// roundTowardPositive (PTX `.rp`, `.rpi`).
    Up,
}

pub const MODES: [Mode; 5] = [
    Mode::NearestEven,
    Mode::NearestAway,
    Mode::TowardZero,
    Mode::Down,
    Mode::Up,
];

/// Where a float rounded to an integer lies against the destination's
/// range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntResult {
    Value(i128),
    Below,
    Above,
}

/// An IEEE 754 implementation the oracle asks. `None` means the engine
/// cannot express the format.
pub trait Engine {
    fn name(&self) -> &'static str;
    /// `x` (an encoding of `src`) rounded into `dst` (IEEE 754
    /// convertFormat; overflow gives infinity or the largest finite number
    /// by the rounding direction).
    fn convert(&mut self, src: Fp, x: u64, dst: Fp, mode: Mode) -> Option<u64>;
    /// roundToIntegral (IEEE 754 5.9) in the same format.
    fn round_integral(&mut self, f: Fp, x: u64, mode: Mode) -> Option<u64>;
    /// convertToInteger (IEEE 754 5.8) into `dst`, with the out-of-range
    /// side reported instead of a value.
    fn convert_to_int(&mut self, src: Fp, x: u64, mode: Mode, dst: Int) -> Option<IntResult>;
    /// convertFromInt (IEEE 754 5.4.1): the integer in the low `src.bits`
    /// bits of `x`.
    fn convert_from_int(&mut self, src: Int, x: u64, dst: Fp, mode: Mode) -> Option<u64>;
    /// Stochastic rounding's decision (PTX ISA 9.7.9.21 `.rs`): with `t`
    /// the value truncated toward zero and `step` the distance to the next
    /// value away from zero, whether the `w` bits just below the kept ones,
    /// `floor((|x| - |t|) / step * 2^w)`, plus the random bits `r` carry
    /// out of `w` bits. The default is exact integer arithmetic; an engine
    /// with arithmetic of its own may answer with it.
    fn stochastic_carry(&mut self, src: Fp, x: u64, t: Num, step: Num, r: u64, w: u32) -> bool {
        let n = match src.decode(x) {
            Class::Num(n) => n,
            _ => return false,
        };
        let rest = n.abs().abs_diff(&t).normalised();
        let step = step.normalised();
        if rest.cmp_abs(&step) != std::cmp::Ordering::Less {
            return true;
        }
        // `step` is a power of two: the division is a shift.
        let shift = rest.exp + w as i32 - step.exp - (127 - step.sig.leading_zeros() as i32);
        let discarded = if shift >= 0 {
            rest.sig << shift
        } else if -shift >= 128 {
            0
        } else {
            rest.sig >> -shift
        };
        discarded + r as u128 >= 1u128 << w
    }
    /// How many roundings the engine itself computed (an engine that
    /// memoises counts each distinct one once).
    fn evaluations(&self) -> u64;
}
