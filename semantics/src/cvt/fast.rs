//! Fast kernels for the narrowing float-to-float forms that sweeps spend
//! their time in (`cvt.rn.f16.f32`, `cvt.rz.ftz.bf16.f32`, `cvt.rm.f32.f64`,
//! ...): the same bits as `convert::float_to_float`, computed on the
//! encodings with integer arithmetic and no branches on the value, each form
//! compiled on its own, over slices of values. They give bits only: no
//! flags, and no form here leaves bits unspecified. `CvtOp::kernel` picks
//! one; `fast_tests.rs` holds every kernel to the generic path.

use super::convert::Modifiers;
use super::format::{by_id, id, FloatFormat};
use super::nan::{self, NanRule};
use super::round::Round;

/// Rounding modes, as const parameters.
mod mode {
    /// `.rn`
    pub const RN: u8 = 0;
    /// `.rna`
    pub const RNA: u8 = 1;
    /// `.rz`
    pub const RZ: u8 = 2;
    /// `.rm`
    pub const RM: u8 = 3;
    /// `.rp`
    pub const RP: u8 = 4;
}

/// Modifier sets, as const parameters (one bit each).
mod mods {
    pub const NONE: u8 = 0;
    pub const FTZ: u8 = 1;
    pub const SAT: u8 = 2;
    pub const RELU: u8 = 4;
    pub const SATFINITE: u8 = 8;
    pub const FTZ_SAT: u8 = FTZ | SAT;
    pub const RELU_SATFINITE: u8 = RELU | SATFINITE;
}

/// The kernel of one conversion form: source encodings in, result
/// encodings (as `CvtOp::eval_scalar` gives them) out.
#[derive(Clone, Copy, Debug)]
pub struct FastKernel {
    run: fn(&[u64], &mut [u64]),
}

impl FastKernel {
    /// Converts `src[i]` into `dst[i]` for every `i` both slices have.
    #[inline]
    pub fn run(&self, src: &[u64], dst: &mut [u64]) {
        (self.run)(src, dst)
    }

    /// Converts one value.
    pub fn eval(&self, a: u64) -> u64 {
        let mut d = [0];
        (self.run)(&[a], &mut d);
        d[0]
    }
}

/// The kernel for a float-to-float conversion, where there is one: a
/// narrowing pair below (fewer significand bits, no more exponent bits, an
/// IEEE source), rounding `.rn .rna .rz .rm .rp`, and modifiers `.ftz`,
/// `.sat`, `.ftz.sat`, `.relu`, `.satfinite` or `.relu.satfinite`.
pub fn narrowing(
    src: &FloatFormat,
    dst: &FloatFormat,
    round: Round,
    m: Modifiers,
) -> Option<FastKernel> {
    let mode = match round {
        Round::NearestEven => mode::RN,
        Round::NearestAway => mode::RNA,
        Round::TowardZero => mode::RZ,
        Round::Down => mode::RM,
        Round::Up => mode::RP,
        Round::Stochastic { .. } => return None,
    };
    let mods = m.ftz as u8 * mods::FTZ
        | m.sat as u8 * mods::SAT
        | m.relu as u8 * mods::RELU
        | m.satfinite as u8 * mods::SATFINITE;
    use id::*;
    match (src.id, dst.id) {
        (F32, F16) => pair::<F32, F16>(mode, mods),
        (F32, BF16) => pair::<F32, BF16>(mode, mods),
        (F32, TF32) => pair::<F32, TF32>(mode, mods),
        (F32, E4M3) => pair::<F32, E4M3>(mode, mods),
        (F32, E5M2) => pair::<F32, E5M2>(mode, mods),
        (F64, F32) => pair::<F64, F32>(mode, mods),
        (F64, F16) => pair::<F64, F16>(mode, mods),
        (F64, BF16) => pair::<F64, BF16>(mode, mods),
        (F16, E4M3) => pair::<F16, E4M3>(mode, mods),
        (F16, E5M2) => pair::<F16, E5M2>(mode, mods),
        _ => None,
    }
}

fn pair<const S: u8, const D: u8>(mode: u8, mods: u8) -> Option<FastKernel> {
    match mode {
        mode::RN => with_mode::<S, D, { mode::RN }>(mods),
        mode::RNA => with_mode::<S, D, { mode::RNA }>(mods),
        mode::RZ => with_mode::<S, D, { mode::RZ }>(mods),
        mode::RM => with_mode::<S, D, { mode::RM }>(mods),
        mode::RP => with_mode::<S, D, { mode::RP }>(mods),
        _ => None,
    }
}

fn with_mode<const S: u8, const D: u8, const M: u8>(m: u8) -> Option<FastKernel> {
    use mods::*;
    let run = match m {
        NONE => Narrow::<S, D, M, NONE>::run,
        FTZ => Narrow::<S, D, M, FTZ>::run,
        SAT => Narrow::<S, D, M, SAT>::run,
        FTZ_SAT => Narrow::<S, D, M, FTZ_SAT>::run,
        RELU => Narrow::<S, D, M, RELU>::run,
        SATFINITE => Narrow::<S, D, M, SATFINITE>::run,
        RELU_SATFINITE => Narrow::<S, D, M, RELU_SATFINITE>::run,
        _ => return None,
    };
    Some(FastKernel { run })
}

/// `v / 2^shift`, rounded in mode `M` for a value of sign `neg`
/// (`1 <= shift < 64`, `v < 2^63`).
///
/// The trick: add to `v`, before the shift, the largest amount that must
/// not yet carry into the kept bits. Rounding away from zero adds
/// `2^shift - 1`, so any discarded bit carries one; ties away add
/// `2^(shift-1)`, so a carry comes from one half up; ties to even add
/// `2^(shift-1) - 1` plus the last kept bit, so a carry comes above one half,
/// and at exactly one half only when that bit is odd. Applied to a float's
/// magnitude bits, a carry out of the significand runs into the exponent
/// field, which is right: it is the step to the next binade (or from the
/// largest finite number to infinity), because the encodings of one sign
/// are ordered like their values.
#[inline(always)]
fn shift_round<const M: u8>(v: u64, shift: u32, neg: bool) -> u64 {
    let below = (1u64 << shift) - 1;
    let add = match M {
        mode::RN => (below >> 1) + ((v >> shift) & 1),
        mode::RNA => (below >> 1) + 1,
        mode::RZ => 0,
        mode::RM => below * neg as u64,
        _ => below * !neg as u64,
    };
    (v + add) >> shift
}

/// The conversion from format id `S` to `D` in mode `M` under modifiers
/// `F`, written once over the formats' constants.
struct Narrow<const S: u8, const D: u8, const M: u8, const F: u8>;

impl<const S: u8, const D: u8, const M: u8, const F: u8> Narrow<S, D, M, F> {
    const SRC: FloatFormat = by_id(S);
    const DST: FloatFormat = by_id(D);
    const FTZ: bool = F & mods::FTZ != 0;
    const SAT: bool = F & mods::SAT != 0;
    const RELU: bool = F & mods::RELU != 0;
    const SATFINITE: bool = F & mods::SATFINITE != 0;
    const ROUND: Round = match M {
        mode::RN => Round::NearestEven,
        mode::RNA => Round::NearestAway,
        mode::RZ => Round::TowardZero,
        mode::RM => Round::Down,
        _ => Round::Up,
    };
    /// How a NaN source converts (`nan.rs`).
    const NAN: NanRule = nan::rule(
        &Self::SRC,
        &Self::DST,
        Some(Self::ROUND),
        false,
        Self::FTZ,
        Self::SATFINITE,
    );
    const CANONICAL_NAN: u64 = match Self::DST.canonical_nan {
        Some(n) => n,
        None => 0,
    };
    /// Significand bits dropped.
    const K: u32 = Self::SRC.man_bits - Self::DST.man_bits;
    /// The difference of the exponent biases.
    const REBIAS: u64 = (Self::SRC.bias() - Self::DST.bias()) as u64;
    /// The source's biased exponent where the destination's is 1 (its
    /// smallest normal binade): there and below, the result is built from
    /// the significand.
    const LOW_EXP: u64 = Self::REBIAS + 1;
    /// Beyond this shift every significand lies below one half.
    const MAX_SHIFT: u64 = Self::SRC.man_bits as u64 + 2;
    /// `.tf32` results sit above 13 clear bits of an `.f32` register.
    const LAYOUT: u32 = if D == id::TF32 { 13 } else { 0 };
    /// Whether an infinity (source, or overflow) becomes MAX_NORM.
    const NO_INF: bool = Self::SATFINITE || !Self::DST.has_inf();

    /// One conversion: `convert::float_to_float(SRC, DST, x, ROUND, F)`'s
    /// bits.
    #[inline(always)]
    fn one(x: u64) -> u64 {
        let (src, dst) = (Self::SRC, Self::DST);
        let sm = src.man_bits;
        let dm = dst.man_bits;
        let x = x & (u64::MAX >> (64 - src.width()));
        let neg = x & src.sign_mask() != 0;
        let mut a = x & !src.sign_mask();
        // "applies only to single precision (`.f32`) inputs": a subnormal
        // `.f32` input is a zero.
        if Self::FTZ && S == id::F32 && a < 1 << sm {
            a = 0;
        }
        let e = a >> sm;
        // Normal results: the magnitude rounded to the destination's
        // precision (the exponent unbounded), rebased to its bias.
        let n = shift_round::<M>(a, Self::K, neg);
        let normal = n.wrapping_sub(Self::REBIAS << dm);
        // Results in the smallest normal binade and below: the significand,
        // shifted one more bit for each binade under it.
        let sig = (a & ((1 << sm) - 1)) | ((e != 0) as u64) << sm;
        let shift = (Self::K as u64 + Self::LOW_EXP)
            .saturating_sub(e.max(1))
            .clamp(Self::K as u64, Self::MAX_SHIFT);
        let low = shift_round::<M>(sig, shift as u32, neg);
        let small = e <= Self::LOW_EXP;
        let mut mag = if small { low } else { normal };
        // IEEE 754 overflow: to infinity or to MAX_NORM by the rounding
        // direction; `.satfinite` (or a format without infinity) always
        // MAX_NORM.
        let to_max = match M {
            mode::RZ => true,
            mode::RM => !neg,
            mode::RP => neg,
            _ => false,
        };
        let overflowed = if Self::NO_INF || to_max {
            dst.max_norm()
        } else {
            dst.inf()
        };
        if !small && normal > dst.max_norm() {
            mag = overflowed;
        }
        if a == src.inf() {
            mag = if Self::NO_INF {
                dst.max_norm()
            } else {
                dst.inf()
            };
        }
        // `.ftz` on an `.f32` result: tiny after rounding (below 2^-126
        // once rounded with an unbounded exponent) flushes to zero.
        if Self::FTZ && D == id::F32 && n < Self::LOW_EXP << dm {
            mag = 0;
        }
        let sign = if neg { dst.sign_mask() } else { 0 };
        let mut r = (sign | mag) << Self::LAYOUT;
        // `.relu` and `.sat` take negative results (zeros too) to +0; `.sat`
        // limits the rest to 1.0.
        if (Self::RELU || Self::SAT) && neg {
            r = 0;
        }
        if Self::SAT {
            r = r.min((dst.bias() as u64) << dm << Self::LAYOUT);
        }
        if a > src.inf() {
            r = if Self::SAT {
                0
            } else if Self::RELU {
                Self::CANONICAL_NAN
            } else {
                nan::nan_result(&src, &dst, x, Self::NAN).0
            };
        }
        r
    }

    fn run(src: &[u64], dst: &mut [u64]) {
        for (d, &x) in dst.iter_mut().zip(src) {
            *d = Self::one(x);
        }
    }
}
