//! Fast kernels for the narrowing float-to-float forms that sweeps spend
//! their time in (`cvt.rn.f16.f32`, `cvt.rz.ftz.bf16.f32`, `cvt.rm.f32.f64`,
//! ...): the same bits as `convert::float_to_float`, computed on the
//! encodings with integer arithmetic and no branches on the value, each form
//! compiled on its own, over slices of values. A group of values that share
//! an exponent field (a sweep over consecutive encodings is made of them)
//! has what depends on the exponent worked out once, and runs as vector
//! code; other values go one by one through the same formula. They give
//! bits only: no flags, and no form here leaves bits unspecified.
//! `CvtOp::kernel` picks one; `fast_tests.rs` holds every kernel to the
//! generic path.

use super::convert::Modifiers;
use super::format::{by_id, id, FloatFormat};
use super::nan::{self, NanRule};
use super::round::Round;
use std::marker::PhantomData;
use std::ops::{Add, BitAnd, BitOr, Shl, Shr};

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
    let bit = |on: bool, b: u8| if on { b } else { 0 };
    let mods = bit(m.ftz, mods::FTZ)
        | bit(m.sat, mods::SAT)
        | bit(m.relu, mods::RELU)
        | bit(m.satfinite, mods::SATFINITE);
    use id::*;
    match (src.id, dst.id) {
        (F32, F16) => pair::<u32, F32, F16>(mode, mods),
        (F32, BF16) => pair::<u32, F32, BF16>(mode, mods),
        (F32, TF32) => pair::<u32, F32, TF32>(mode, mods),
        (F32, E4M3) => pair::<u32, F32, E4M3>(mode, mods),
        (F32, E5M2) => pair::<u32, F32, E5M2>(mode, mods),
        (F64, F32) => pair::<u64, F64, F32>(mode, mods),
        (F64, F16) => pair::<u64, F64, F16>(mode, mods),
        (F64, BF16) => pair::<u64, F64, BF16>(mode, mods),
        (F16, E4M3) => pair::<u32, F16, E4M3>(mode, mods),
        (F16, E5M2) => pair::<u32, F16, E5M2>(mode, mods),
        _ => None,
    }
}

fn pair<W: Word, const S: u8, const D: u8>(mode: u8, mods: u8) -> Option<FastKernel> {
    match mode {
        mode::RN => with_mode::<W, S, D, { mode::RN }>(mods),
        mode::RNA => with_mode::<W, S, D, { mode::RNA }>(mods),
        mode::RZ => with_mode::<W, S, D, { mode::RZ }>(mods),
        mode::RM => with_mode::<W, S, D, { mode::RM }>(mods),
        mode::RP => with_mode::<W, S, D, { mode::RP }>(mods),
        _ => None,
    }
}

fn with_mode<W: Word, const S: u8, const D: u8, const M: u8>(m: u8) -> Option<FastKernel> {
    use mods::*;
    let run = match m {
        NONE => Narrow::<W, S, D, M, NONE>::run,
        FTZ => Narrow::<W, S, D, M, FTZ>::run,
        SAT => Narrow::<W, S, D, M, SAT>::run,
        FTZ_SAT => Narrow::<W, S, D, M, FTZ_SAT>::run,
        RELU => Narrow::<W, S, D, M, RELU>::run,
        SATFINITE => Narrow::<W, S, D, M, SATFINITE>::run,
        RELU_SATFINITE => Narrow::<W, S, D, M, RELU_SATFINITE>::run,
        _ => return None,
    };
    Some(FastKernel { run })
}

/// The unsigned integer a kernel computes in: `u32` where the source has
/// at most 32 bits (so that four values fit one vector register of the
/// baseline x86-64 target), `u64` for `.f64`.
trait Word:
    Copy
    + Ord
    + Add<Output = Self>
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// The low bits of `v`.
    fn of(v: u64) -> Self;
    fn wide(self) -> u64;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            #[inline(always)]
            fn of(v: u64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn wide(self) -> u64 {
                self as u64
            }
        }
    };
}
word!(u32);
word!(u64);

/// `v / 2^shift`, rounded in mode `M` for a value of sign `neg`
/// (`1 <= shift`, `v + 2^shift` fits in `W`).
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
fn shift_round<W: Word, const M: u8>(v: W, shift: u32, neg: bool) -> W {
    let below = W::of((1u64 << shift) - 1);
    let (zero, one) = (W::of(0), W::of(1));
    let add = match M {
        mode::RN => (below >> 1) + ((v >> shift) & one),
        mode::RNA => (below >> 1) + one,
        mode::RZ => zero,
        mode::RM => {
            if neg {
                below
            } else {
                zero
            }
        }
        _ => {
            if neg {
                zero
            } else {
                below
            }
        }
    };
    (v + add) >> shift
}

/// Values per group in `Narrow::run`.
const GROUP: usize = 64;

/// What the exponent field shared by a group of values tells `convert`
/// (a const parameter, so that each class gets code of its own).
mod class {
    /// Nothing: any value, overflow and infinities and NaNs included.
    pub const ANY: u8 = 0;
    /// Below the destination's largest binade: no overflow, no special.
    pub const IN_RANGE: u8 = 1;
    /// Above the destination's largest binade and below the all-ones
    /// exponent: every value overflows.
    pub const OVERFLOWS: u8 = 2;
}

/// The conversion from format id `S` to `D` in mode `M` under modifiers
/// `F`, computed in `W`, written once over the formats' constants.
struct Narrow<W, const S: u8, const D: u8, const M: u8, const F: u8>(PhantomData<W>);

impl<W: Word, const S: u8, const D: u8, const M: u8, const F: u8> Narrow<W, S, D, M, F> {
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
    /// The source's biased exponent where the destination's is 1 (its
    /// smallest normal binade): there and below, the result's exponent
    /// field comes from the rounding alone.
    const LOW_EXP: u32 = (Self::SRC.bias() - Self::DST.bias()) as u32 + 1;
    /// Beyond this shift every significand lies below one half.
    const MAX_SHIFT: u32 = Self::SRC.man_bits + 2;
    /// `.tf32` results sit above 13 clear bits of an `.f32` register.
    const LAYOUT: u32 = if D == id::TF32 { 13 } else { 0 };
    /// Whether an infinity (source, or overflow) becomes MAX_NORM.
    const NO_INF: bool = Self::SATFINITE || !Self::DST.has_inf();
    /// The source's biased exponent of the destination's largest binade:
    /// from there up a result can overflow.
    const TOP_EXP: u32 = Self::LOW_EXP - 1 + Self::DST.max_biased_exp();
    /// The all-ones exponent field: infinities and NaNs.
    const SPECIAL_EXP: u32 = (1 << Self::SRC.exp_bits) - 1;

    /// The biased exponent field of `x`.
    #[inline(always)]
    fn exponent(x: W) -> u32 {
        let field = (x >> Self::SRC.man_bits) & W::of((1 << Self::SRC.exp_bits) - 1);
        field.wide() as u32
    }

    /// `convert::float_to_float(SRC, DST, x, ROUND, F)`'s bits, for `x`
    /// whose exponent field is `e`, in class `C` (`class::ANY` unless `e`
    /// is known to be in another). Everything that depends on `e` alone is
    /// worked out first, so that for a group of values sharing it the
    /// compiler does it once and turns the rest into vector code.
    #[inline(always)]
    fn convert<const C: u8>(x: W, e: u32) -> W {
        let (src, dst) = (Self::SRC, Self::DST);
        let (sm, dm) = (src.man_bits, dst.man_bits);
        let w = W::of;
        // The result is `sig / 2^shift`, rounded, plus `base`: `sig` is the
        // significand with its leading one (a subnormal's exponent is the
        // smallest normal one), `shift` drops the bits the destination has
        // no room for (more bits below its normal range), and `base` puts
        // the exponent field in place for a normal result (whose rounded
        // significand still has its leading one, worth one in the field).
        let e1 = e.max(1);
        let shift = (Self::K + Self::LOW_EXP)
            .saturating_sub(e1)
            .clamp(Self::K, Self::MAX_SHIFT);
        let base = (e1.saturating_sub(Self::LOW_EXP) as u64) << dm;
        // "applies only to single precision (`.f32`) inputs": a subnormal
        // `.f32` input is a zero.
        let flush = Self::FTZ && S == id::F32 && e == 0;
        let (man, implicit) = match (flush, e) {
            (true, _) => (0, 0),
            (false, 0) => ((1u64 << sm) - 1, 0),
            (false, _) => ((1u64 << sm) - 1, 1u64 << sm),
        };

        let neg = x & w(src.sign_mask()) != w(0);
        let a = x & w(src.sign_mask() - 1);
        let sig = (a & w(man)) | w(implicit);
        let mut mag = shift_round::<W, M>(sig, shift, neg) + w(base);
        // IEEE 754 overflow: to infinity or to MAX_NORM by the rounding
        // direction; `.satfinite` (or a format without infinity) always
        // MAX_NORM.
        let to_max = match M {
            mode::RZ => true,
            mode::RM => !neg,
            mode::RP => neg,
            _ => false,
        };
        let overflowed = w(if Self::NO_INF || to_max {
            dst.max_norm()
        } else {
            dst.inf()
        });
        if C == class::OVERFLOWS || (C == class::ANY && mag > w(dst.max_norm())) {
            mag = overflowed;
        }
        let special = C == class::ANY && e == Self::SPECIAL_EXP;
        if special && a == w(src.inf()) {
            mag = w(if Self::NO_INF {
                dst.max_norm()
            } else {
                dst.inf()
            });
        }
        // `.ftz` on an `.f32` result: tiny after rounding (below 2^-126
        // once rounded with an unbounded exponent, that is, at the
        // normal-range shift) flushes to zero.
        if Self::FTZ
            && D == id::F32
            && shift_round::<W, M>(a, Self::K, neg) < w((Self::LOW_EXP as u64) << dm)
        {
            mag = w(0);
        }
        let sign = if neg { dst.sign_mask() } else { 0 };
        let mut r = (w(sign) | mag) << Self::LAYOUT;
        // `.relu` and `.sat` take negative results (zeros too) to +0; `.sat`
        // limits the rest to 1.0.
        if (Self::RELU || Self::SAT) && neg {
            r = w(0);
        }
        if Self::SAT {
            r = r.min(w(((dst.bias() as u64) << dm) << Self::LAYOUT));
        }
        if special && a > w(src.inf()) {
            r = w(if Self::SAT {
                0
            } else if Self::RELU {
                Self::CANONICAL_NAN
            } else {
                nan::nan_result(&src, &dst, x.wide(), Self::NAN).0
            });
        }
        r
    }

    /// Converts `src[i]` into `dst[i]`, a group of values at a time: where
    /// the group's values share one exponent field (as in a sweep over
    /// consecutive encodings), with that exponent passed once, and the
    /// group's class.
    fn run(src: &[u64], dst: &mut [u64]) {
        let width_mask = u64::MAX >> (64 - Self::SRC.width());
        let mut xs = [W::of(0); GROUP];
        let mut out = [W::of(0); GROUP];
        for (s, d) in src.chunks(GROUP).zip(dst.chunks_mut(GROUP)) {
            let n = s.len().min(d.len());
            let (xs, out) = (&mut xs[..n], &mut out[..n]);
            let e0 = Self::exponent(W::of(s[0] & width_mask));
            let mut others = 0;
            for (w, &x) in xs.iter_mut().zip(s) {
                *w = W::of(x & width_mask);
                others |= Self::exponent(*w) ^ e0;
            }
            let pairs = out.iter_mut().zip(xs.iter());
            if others != 0 {
                pairs
                    .for_each(|(o, &x)| *o = Self::convert::<{ class::ANY }>(x, Self::exponent(x)));
            } else if e0 < Self::TOP_EXP {
                pairs.for_each(|(o, &x)| *o = Self::convert::<{ class::IN_RANGE }>(x, e0));
            } else if e0 > Self::TOP_EXP && e0 < Self::SPECIAL_EXP {
                pairs.for_each(|(o, &x)| *o = Self::convert::<{ class::OVERFLOWS }>(x, e0));
            } else {
                pairs.for_each(|(o, &x)| *o = Self::convert::<{ class::ANY }>(x, e0));
            }
            for (o, &r) in d.iter_mut().zip(out.iter()) {
                *o = r.wide();
            }
        }
    }
}
