//! One value converted between two formats under PTX's rules (PTX ISA
//! 9.7.9.21): rounding, flush to zero, `.sat`, `.relu`, `.satfinite`, the
//! NaN rules, and float-to-integer clamping. Packing lanes is `mod.rs`'s
//! business; value rounding is `round.rs`'s.

use super::format::{FloatFormat, IntFormat, F32, F64, TF32};
use super::nan;
use super::round::{decode, encode, round_to_float, round_to_integer, Decoded, Round};

/// What a conversion did, beside its value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flags(pub u16);

impl Flags {
    /// The result differs from the exact value.
    pub const INEXACT: Flags = Flags(1);
    /// The exact value lies beyond the destination's finite range.
    pub const OVERFLOW: Flags = Flags(2);
    /// A clamp acted: `.sat`, `.satfinite`, `.relu`, or the default
    /// float-to-integer clamp.
    pub const SATURATED: Flags = Flags(4);
    /// The source was NaN.
    pub const NAN_INPUT: Flags = Flags(8);
    /// `.ftz` flushed a subnormal input or result to zero.
    pub const FLUSHED: Flags = Flags(16);
    /// Some result bits are unspecified (see `Converted::unspecified`).
    pub const UNSPECIFIED: Flags = Flags(32);

    pub const NAMES: [(Flags, &'static str); 6] = [
        (Flags::INEXACT, "inexact"),
        (Flags::OVERFLOW, "overflow"),
        (Flags::SATURATED, "saturated"),
        (Flags::NAN_INPUT, "nan-input"),
        (Flags::FLUSHED, "flushed"),
        (Flags::UNSPECIFIED, "unspecified"),
    ];

    pub fn contains(self, other: Flags) -> bool {
        self.0 & other.0 == other.0
    }
    pub fn names(self) -> Vec<&'static str> {
        Flags::NAMES
            .iter()
            .filter(|(f, _)| self.contains(*f))
            .map(|(_, n)| *n)
            .collect()
    }
}

impl std::ops::BitOr for Flags {
    type Output = Flags;
    fn bitor(self, o: Flags) -> Flags {
        Flags(self.0 | o.0)
    }
}

impl std::ops::BitOrAssign for Flags {
    fn bitor_assign(&mut self, o: Flags) {
        self.0 |= o.0;
    }
}

/// A converted value: its bits, the bits the spec leaves unspecified (a
/// don't-care mask), what happened, and the spec clause that decided a
/// special case.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Converted {
    pub bits: u64,
    pub unspecified: u64,
    pub flags: Flags,
    pub clause: Option<&'static str>,
}

impl Converted {
    #[inline(always)]
    fn of(bits: u64, flags: Flags) -> Converted {
        Converted {
            bits,
            unspecified: 0,
            flags,
            clause: None,
        }
    }
    #[inline]
    fn with_clause(mut self, clause: &'static str) -> Converted {
        self.clause.get_or_insert(clause);
        self
    }
}

/// The modifiers that act on a value (rounding aside).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Modifiers {
    pub ftz: bool,
    pub sat: bool,
    pub relu: bool,
    pub satfinite: bool,
}

pub const FTZ_CLAUSE: &str =
    "PTX ISA 9.7.9.21: \"Modifier `.ftz` may be specified to flush single-precision \
     subnormal inputs and results to sign-preserving zero.\"";
pub const SAT_FLOAT_CLAUSE: &str =
    "PTX ISA 9.7.9.21: \"For floating-point destination types, `.sat` limits \
     the result to the range [0.0, 1.0]. `NaN` results are flushed to positive zero.\"";
pub const SAT_INT_CLAUSE: &str =
    "PTX ISA 9.7.9.21: \"For integer destination types, `.sat` limits the result \
     to `MININT..MAXINT` for the size of the operation.\"";
pub const CLAMP_CLAUSE: &str =
    "PTX ISA 9.7.9.21: \"For float-to-integer conversions, the result is clamped to \
     the destination range by default\"";
pub const RELU_CLAUSE: &str =
    "PTX ISA 9.7.9.21: \"`.relu` clamps the result to 0 if negative. `NaN` results \
     are converted to canonical `NaN`.\"";
pub const SATFINITE_CLAUSE: &str = "PTX ISA 9.7.9.21: \"If the absolute value of input (ignoring sign) is \
     greater than MAX_NORM of the specified destination format, then the result is sign-preserved MAX_NORM \
     of the destination format and a positive MAX_NORM in `.ue8m0x2` for which the destination sign is not \
     supported.\"";
pub const SATFINITE_NAN_CLAUSE: &str =
    "PTX ISA 9.7.9.21: \"For `.e2m1x2`, `.e2m3x2`, `.e3m2x2`, `.e2m1x4`, \
     `.e2m3x4`, `.e3m2x4` destination formats `NaN` results are converted to positive MAX_NORM.\"";
pub const INT_NAN_CLAUSE: &str =
    "PTX ISA 9.7.9.21: \"In float-to-integer conversions, depending upon \
     conversion types, `NaN` input results in following value: 1. Zero if source is not `.f64` and \
     destination is not `.s64`, `.u64`. 2. Otherwise 1 << (BitWidth(dst) - 1)\"";
pub const UE8M0_SIGN_CLAUSE: &str =
    "PTX ISA 9.7.9.21 is silent on negative inputs to `.ue8m0x2` below \
     MAX_NORM (the format has no sign): the result is unspecified";
pub const UE8M0_ZERO_CLAUSE: &str =
    "PTX ISA 9.7.9.21 is silent on inputs below the smallest `.ue8m0` value \
     (2^-127; the format has no zero): the result is unspecified";

/// Whether the register form of `fmt` is `.tf32` (an `.f32` layout whose low
/// 13 bits are zero).
#[inline(always)]
fn stored(fmt: &FloatFormat, bits: u64) -> u64 {
    if fmt.id == TF32.id {
        bits << 13
    } else {
        bits
    }
}

/// Converts a float to a float: `cvt{.frnd}{.ftz}{.sat}.dtype.atype` and the
/// packed-format lines, one lane. `round` is the floating-point rounding
/// (widening conversions are exact under any mode).
#[inline(always)]
pub fn float_to_float(
    src: &FloatFormat,
    dst: &FloatFormat,
    bits: u64,
    round: Round,
    m: Modifiers,
) -> Converted {
    let mut flags = Flags::default();
    let mut d = decode(src, bits);
    // "applies only to single precision (`.f32`) inputs and results"
    if m.ftz && src.id == F32.id {
        if let Decoded::Finite { neg, sig, .. } = d {
            if sig < 1 << F32.man_bits {
                d = Decoded::Zero { neg };
                flags |= Flags::FLUSHED;
            }
        }
    }
    let out = match d {
        Decoded::Nan { .. } => {
            flags |= Flags::NAN_INPUT;
            let rule = nan::rule(src, dst, Some(round), false, m.ftz, m.satfinite);
            return nan_to_float(src, dst, bits, rule, m, flags);
        }
        Decoded::Zero { neg } => zero(dst, neg, flags),
        Decoded::Inf { neg } => infinity(dst, neg, m, flags),
        Decoded::Finite { neg, sig, exp } => finite(dst, neg, sig, exp, round, m, flags),
    };
    let out = if flags.contains(Flags::FLUSHED) {
        out.with_clause(FTZ_CLAUSE)
    } else {
        out
    };
    post(dst, tf32_layout(dst, out), m)
}

/// `.tf32` results live in an `.f32` layout: the value's bits shifted up
/// past the 13 low bits (NaNs are written in that layout already).
#[inline(always)]
fn tf32_layout(dst: &FloatFormat, mut c: Converted) -> Converted {
    if dst.id == TF32.id {
        c.bits <<= 13;
    }
    c
}

/// A NaN source: the destination's NaN under `.relu`/`.satfinite`/`.sat`
/// rules, or the pair's rule (`nan.rs`).
fn nan_to_float(
    src: &FloatFormat,
    dst: &FloatFormat,
    bits: u64,
    rule: nan::NanRule,
    m: Modifiers,
    flags: Flags,
) -> Converted {
    if m.sat {
        return Converted::of(0, flags | Flags::SATURATED).with_clause(SAT_FLOAT_CLAUSE);
    }
    match dst.canonical_nan {
        None => {
            // FP6/FP4 have no NaN: `.satfinite` (mandatory) gives +MAX_NORM.
            Converted::of(dst.max_norm(), flags | Flags::SATURATED)
                .with_clause(SATFINITE_NAN_CLAUSE)
        }
        Some(canonical) if m.relu => Converted::of(canonical, flags).with_clause(RELU_CLAUSE),
        Some(_) => {
            let (bits, unspecified, clause) = nan::nan_result(src, dst, bits, rule);
            let mut c = Converted::of(bits, flags);
            c.unspecified = unspecified;
            if unspecified != 0 {
                c.flags |= Flags::UNSPECIFIED;
            }
            c.with_clause(clause)
        }
    }
}

#[inline(always)]
fn zero(dst: &FloatFormat, neg: bool, flags: Flags) -> Converted {
    if !dst.has_zero() {
        // `.ue8m0`: no zero.
        let mut c = Converted::of(0, flags | Flags::UNSPECIFIED | Flags::INEXACT);
        c.unspecified = 0xff;
        return c.with_clause(UE8M0_ZERO_CLAUSE);
    }
    let sign = if neg { dst.sign_mask() } else { 0 };
    Converted::of(sign, flags)
}

#[inline(always)]
fn infinity(dst: &FloatFormat, neg: bool, m: Modifiers, flags: Flags) -> Converted {
    if m.satfinite || !dst.has_inf() {
        // |inf| > MAX_NORM.
        return max_norm(dst, neg, flags | Flags::SATURATED).with_clause(SATFINITE_CLAUSE);
    }
    let sign = if neg { dst.sign_mask() } else { 0 };
    Converted::of(sign | dst.inf(), flags)
}

#[inline(always)]
fn max_norm(dst: &FloatFormat, neg: bool, flags: Flags) -> Converted {
    let sign = if neg { dst.sign_mask() } else { 0 };
    Converted::of(sign | dst.max_norm(), flags)
}

#[inline(always)]
fn finite(
    dst: &FloatFormat,
    neg: bool,
    sig: u64,
    exp: i32,
    round: Round,
    m: Modifiers,
    mut flags: Flags,
) -> Converted {
    if neg && !dst.signed {
        // `.ue8m0`: magnitudes above MAX_NORM saturate to +MAX_NORM (the
        // clause compares the input, before rounding); the rest is
        // unspecified.
        if m.relu || exceeds_max_norm(dst, sig, exp) {
            return Converted::of(
                if m.relu { 0 } else { dst.max_norm() },
                flags | Flags::SATURATED,
            )
            .with_clause(if m.relu {
                RELU_CLAUSE
            } else {
                SATFINITE_CLAUSE
            });
        }
        let r = round_to_float(dst, false, sig, exp, round);
        let mut c = Converted::of(encode(dst, &r), flags | Flags::UNSPECIFIED);
        c.unspecified = 0xff;
        return c.with_clause(UE8M0_SIGN_CLAUSE);
    }
    // Results: sm_90 flushes a result that is tiny after rounding to the
    // destination's precision with an unbounded exponent (IEEE 754
    // "tininess after rounding"): just below 2^-126, a value that rounds up
    // to 2^-126 is kept.
    if m.ftz && dst.id == F32.id && tiny_after_rounding(&F32, neg, sig, exp, round) {
        let sign = if neg { F32.sign_mask() } else { 0 };
        return Converted::of(sign, flags | Flags::FLUSHED | Flags::INEXACT)
            .with_clause(FTZ_CLAUSE);
    }
    let r = round_to_float(dst, neg, sig, exp, round);
    if r.inexact {
        flags |= Flags::INEXACT;
    }
    if r.overflow {
        flags |= Flags::OVERFLOW;
        if m.satfinite || !dst.has_inf() {
            return max_norm(dst, neg, flags | Flags::SATURATED).with_clause(SATFINITE_CLAUSE);
        }
        // IEEE 754 overflow: to infinity or the largest finite number,
        // by the rounding direction.
        let to_max = match round {
            Round::TowardZero => true,
            Round::Down => !neg,
            Round::Up => neg,
            _ => false,
        };
        return if to_max {
            max_norm(dst, neg, flags)
        } else {
            Converted::of(if neg { dst.sign_mask() } else { 0 } | dst.inf(), flags)
        };
    }
    if r.sig == 0 && !dst.has_zero() {
        let mut c = Converted::of(0, flags | Flags::UNSPECIFIED);
        c.unspecified = 0xff;
        return c.with_clause(UE8M0_ZERO_CLAUSE);
    }
    let bits = encode(dst, &r);
    Converted::of(bits, flags)
}

/// Whether the magnitude `sig * 2^exp` is greater than the format's largest
/// finite number: truncated to the format, it overflows, or it lands on
/// that number with bits left over.
#[inline(always)]
fn exceeds_max_norm(fmt: &FloatFormat, sig: u64, exp: i32) -> bool {
    let r = round_to_float(fmt, false, sig, exp, Round::TowardZero);
    r.overflow || (r.inexact && encode(fmt, &r) == fmt.max_norm())
}

/// Whether `sig * 2^exp` lies below the format's smallest normal number
/// after rounding to its precision with no lower exponent limit.
#[inline(always)]
fn tiny_after_rounding(fmt: &FloatFormat, neg: bool, sig: u64, exp: i32, round: Round) -> bool {
    let top = exp + 63 - sig.leading_zeros() as i32;
    if top >= fmt.emin() {
        return false;
    }
    let p = fmt.precision() as i32;
    let q = top - (p - 1);
    if q <= exp {
        return true;
    }
    let (kept, _) = super::round::round_sig_pub(neg, sig, (q - exp) as u32, round);
    // A carry out of the precision reaches the next binade.
    !(kept >> p == 1 && top + 1 >= fmt.emin())
}

/// `.relu` and `.sat` on a float result.
#[inline(always)]
fn post(dst: &FloatFormat, mut c: Converted, m: Modifiers) -> Converted {
    if !(m.relu || m.sat) {
        return c;
    }
    let sign = stored(dst, dst.sign_mask());
    let is_neg = c.bits & sign != 0;
    if is_neg {
        c.bits = 0;
        c.flags |= Flags::SATURATED;
        return c.with_clause(if m.relu {
            RELU_CLAUSE
        } else {
            SAT_FLOAT_CLAUSE
        });
    }
    if m.sat {
        // Above 1.0 (infinity included) limits to 1.0.
        let one = stored(dst, (dst.bias() as u64) << dst.man_bits);
        if c.bits > one {
            c.bits = one;
            c.flags |= Flags::SATURATED;
            return c.with_clause(SAT_FLOAT_CLAUSE);
        }
    }
    c
}

/// Rounds a float to an integral value kept in its own format:
/// `cvt.rni.f32.f32` ("The result is an integral value, stored in
/// floating-point format").
#[inline(always)]
pub fn float_to_integral(fmt: &FloatFormat, bits: u64, round: Round, m: Modifiers) -> Converted {
    let mut flags = Flags::default();
    let mut d = decode(fmt, bits);
    if m.ftz && fmt.id == F32.id {
        if let Decoded::Finite { neg, sig, .. } = d {
            if sig < 1 << F32.man_bits {
                d = Decoded::Zero { neg };
                flags |= Flags::FLUSHED;
            }
        }
    }
    let out = match d {
        Decoded::Nan { .. } => {
            flags |= Flags::NAN_INPUT;
            let rule = nan::rule(fmt, fmt, Some(round), true, m.ftz, m.satfinite);
            return nan_to_float(fmt, fmt, bits, rule, m, flags);
        }
        Decoded::Zero { neg } => zero(fmt, neg, flags),
        Decoded::Inf { neg } => infinity(fmt, neg, m, flags),
        Decoded::Finite { neg, sig, exp } => {
            let (mag, inexact) = round_to_integer(neg, sig, exp, round);
            if inexact {
                flags |= Flags::INEXACT;
            }
            if mag == 0 {
                zero(fmt, neg, flags)
            } else if exp >= 0 {
                Converted::of(bits, flags)
            } else {
                // mag < 2^64 here, and exact in the format (it is no wider
                // than the source's significand, plus a carry).
                let r = round_to_float(fmt, neg, mag as u64, 0, Round::NearestEven);
                Converted::of(encode(fmt, &r), flags)
            }
        }
    };
    post(fmt, out, m)
}

/// Converts a float to an integer: `cvt.irnd{.ftz}{.sat}.dtype.atype`.
#[inline(always)]
pub fn float_to_int(
    src: &FloatFormat,
    dst: IntFormat,
    bits: u64,
    round: Round,
    m: Modifiers,
) -> Converted {
    let mut flags = Flags::default();
    let d = decode(src, bits);
    let (neg, mag) = match d {
        Decoded::Nan { .. } => {
            // "1. Zero if source is not `.f64` and destination is not
            // `.s64`, `.u64`. 2. Otherwise 1 << (BitWidth(dst) - 1)"
            let v = if src.id != F64.id && dst.bits != 64 {
                0
            } else {
                1u64 << (dst.bits - 1)
            };
            return Converted::of(v, Flags::NAN_INPUT).with_clause(INT_NAN_CLAUSE);
        }
        Decoded::Zero { .. } => (false, 0u128),
        Decoded::Inf { neg } => (neg, u128::MAX),
        Decoded::Finite { neg, sig, exp } => {
            if m.ftz && src.id == F32.id && sig < 1 << F32.man_bits {
                flags |= Flags::FLUSHED;
                (neg, 0)
            } else {
                let (mag, inexact) = round_to_integer(neg, sig, exp, round);
                if inexact {
                    flags |= Flags::INEXACT;
                }
                (neg, mag)
            }
        }
    };
    let value: i128 = if mag > i128::MAX as u128 {
        if neg {
            i128::MIN
        } else {
            i128::MAX
        }
    } else if neg {
        -(mag as i128)
    } else {
        mag as i128
    };
    let clamped = value.clamp(dst.min(), dst.max());
    let mut c = Converted::of(clamped as u64 & dst.mask(), flags);
    if clamped != value {
        c.flags |= Flags::SATURATED;
        c = c.with_clause(if m.sat { SAT_INT_CLAUSE } else { CLAMP_CLAUSE });
    }
    if c.flags.contains(Flags::FLUSHED) {
        c = c.with_clause(FTZ_CLAUSE);
    }
    c
}

/// Converts an integer to a float: `cvt.frnd{.ftz}{.sat}.dtype.atype`.
#[inline(always)]
pub fn int_to_float(
    src: IntFormat,
    dst: &FloatFormat,
    bits: u64,
    round: Round,
    m: Modifiers,
) -> Converted {
    let v = src.read(bits);
    let out = if v == 0 {
        zero(dst, false, Flags::default())
    } else {
        let neg = v < 0;
        finite(
            dst,
            neg,
            v.unsigned_abs() as u64,
            0,
            round,
            m,
            Flags::default(),
        )
    };
    post(dst, out, m)
}

/// Converts an integer to an integer: `cvt{.sat}.dtype.atype`. Without
/// `.sat` the value is truncated to the destination's width (its low bits);
/// with it, clamped to the destination's range.
#[inline]
pub fn int_to_int(src: IntFormat, dst: IntFormat, bits: u64, sat: bool) -> Converted {
    let v = src.read(bits);
    if sat {
        let clamped = v.clamp(dst.min(), dst.max());
        let c = Converted::of(clamped as u64 & dst.mask(), Flags::default());
        if clamped != v {
            let mut c = c.with_clause(SAT_INT_CLAUSE);
            c.flags |= Flags::SATURATED;
            return c;
        }
        return c;
    }
    Converted::of(v as u64 & dst.mask(), Flags::default())
}
