//! Exact values and rounding: decode an encoding into an exact value, round
//! an exact value into a float format or to an integer, in every rounding
//! mode `cvt` names. PTX's own rules (NaN results, saturation, `.relu`,
//! flush to zero) are `convert.rs`'s business.

use super::format::{FloatFormat, Specials};

/// A rounding mode (PTX ISA 9.7.9.21, "Floating Point Notes" and "Integer
/// Notes"). The integer modifiers `.rni .rzi .rmi .rpi` round to an integral
/// value with the same rule as `.rn .rz .rm .rp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Round {
    /// `.rn`: "rounding to nearest, with ties to even".
    NearestEven,
    /// `.rna`: "rounding to nearest, with ties away from zero".
    NearestAway,
    /// `.rz`: "rounding toward zero".
    TowardZero,
    /// `.rm`: "rounding toward negative infinity".
    Down,
    /// `.rp`: "rounding toward positive infinity".
    Up,
    /// `.rs`: "rounded in the direction toward zero or away from zero based
    /// on the carry out of the integer addition of the supplied random bits
    /// (`rbits`) to the truncated off (discarded) bits of mantissa".
    Stochastic { rbits: u32, width: u32 },
}

impl Round {
    /// The mode a PTX rounding qualifier names (`.rn`, `.rzi`...); `.rs`
    /// takes its random bits later.
    pub fn from_ptx(q: &str) -> Option<Round> {
        Some(match q {
            ".rn" | ".rni" => Round::NearestEven,
            ".rna" => Round::NearestAway,
            ".rz" | ".rzi" => Round::TowardZero,
            ".rm" | ".rmi" => Round::Down,
            ".rp" | ".rpi" => Round::Up,
            ".rs" => Round::Stochastic { rbits: 0, width: 0 },
            _ => return None,
        })
    }
}

/// A decoded value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decoded {
    Zero {
        neg: bool,
    },
    Inf {
        neg: bool,
    },
    /// `payload` is the stored significand field.
    Nan {
        neg: bool,
        payload: u64,
    },
    /// `sig * 2^exp`, `sig != 0`.
    Finite {
        neg: bool,
        sig: u64,
        exp: i32,
    },
}

impl Decoded {
    /// The value as an `f64`, exact for every format of 64 bits or fewer
    /// whose exponent range fits `f64`'s (NaN for NaN).
    pub fn to_f64(self) -> f64 {
        match self {
            Decoded::Zero { neg } => {
                if neg {
                    -0.0
                } else {
                    0.0
                }
            }
            Decoded::Inf { neg } => {
                if neg {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                }
            }
            Decoded::Nan { .. } => f64::NAN,
            Decoded::Finite { neg, sig, exp } => {
                // two steps keep every intermediate a normal f64
                let v = sig as f64 * 2f64.powi(exp / 2) * 2f64.powi(exp - exp / 2);
                if neg {
                    -v
                } else {
                    v
                }
            }
        }
    }
}

/// Reads an encoding of `fmt` (the low `fmt.width()` bits of `bits`).
#[inline(always)]
pub fn decode(fmt: &FloatFormat, bits: u64) -> Decoded {
    let m = fmt.man_bits;
    let neg = bits & fmt.sign_mask() != 0;
    let biased = ((bits >> m) & ((1 << fmt.exp_bits) - 1)) as u32;
    let man = bits & ((1u64 << m) - 1);
    let all_ones = (1u32 << fmt.exp_bits) - 1;
    match fmt.specials {
        Specials::Ieee if biased == all_ones => {
            return if man == 0 {
                Decoded::Inf { neg }
            } else {
                Decoded::Nan { neg, payload: man }
            };
        }
        Specials::NanOnly if biased == all_ones && man == (1 << m) - 1 => {
            return Decoded::Nan { neg, payload: man };
        }
        Specials::ExponentOnly => {
            return if biased == all_ones {
                Decoded::Nan { neg, payload: 0 }
            } else {
                Decoded::Finite {
                    neg,
                    sig: 1,
                    exp: biased as i32 - fmt.bias(),
                }
            };
        }
        _ => {}
    }
    let q = fmt.emin() - m as i32;
    if biased == 0 {
        if man == 0 {
            Decoded::Zero { neg }
        } else {
            Decoded::Finite {
                neg,
                sig: man,
                exp: q,
            }
        }
    } else {
        Decoded::Finite {
            neg,
            sig: man | (1 << m),
            exp: q + biased as i32 - 1,
        }
    }
}

/// Rounds `sig` to a multiple of `2^shift` and divides by it, returning the
/// kept part and whether anything was discarded. Any shift is allowed: from
/// 64 on, every bit is discarded.
#[inline(always)]
fn round_sig(neg: bool, sig: u64, shift: u32, mode: Round) -> (u64, bool) {
    if shift == 0 {
        return (sig, false);
    }
    if shift < 64 {
        let kept = sig >> shift;
        let rem = sig & ((1u64 << shift) - 1);
        if rem == 0 {
            return (kept, false);
        }
        let half = 1u64 << (shift - 1);
        let up = rounds_up(
            mode,
            neg,
            kept & 1 == 1,
            rem >= half,
            rem > half,
            rem,
            shift,
        );
        return (kept + up as u64, true);
    }
    // Everything is discarded; only a shift of exactly 64 reaches one half
    // of the last kept place (`sig`'s top bit).
    if sig == 0 {
        return (0, false);
    }
    let half_or_more = shift == 64 && sig >> 63 == 1;
    let more = half_or_more && sig << 1 != 0;
    let up = rounds_up(mode, neg, false, half_or_more, more, sig, shift);
    (up as u64, true)
}

/// Whether a value that is not a multiple of the last kept place rounds
/// away from zero in `mode`: the last kept bit is `odd`; the discarded part
/// `rem` (the low `shift` bits) is at least one half of the last kept place,
/// or more than one half.
#[inline(always)]
fn rounds_up(
    mode: Round,
    neg: bool,
    odd: bool,
    half_or_more: bool,
    more: bool,
    rem: u64,
    shift: u32,
) -> bool {
    match mode {
        Round::NearestEven => more || (half_or_more && odd),
        Round::NearestAway => half_or_more,
        Round::TowardZero => false,
        Round::Down => neg,
        Round::Up => !neg,
        Round::Stochastic { rbits, width } => stochastic_carry(rem, shift, rbits, width),
    }
}

/// `.rs`: whether the top `width` discarded bits (`rem` holds the `shift`
/// discarded bits) plus the random bits carry out of `width` bits, which
/// rounds away from zero. (`rbits` has 32 bits, so all of it fits in 64.)
#[inline(never)]
fn stochastic_carry(rem: u64, shift: u32, rbits: u32, width: u32) -> bool {
    let width = width.min(32);
    let top = if shift >= width {
        let below = shift - width;
        if below >= 64 {
            0
        } else {
            rem >> below
        }
    } else {
        rem << (width - shift)
    };
    top + (rbits as u64 & ((1u64 << width) - 1)) >= 1u64 << width
}

/// [`round_sig`] for the rest of the crate.
#[inline(always)]
pub(crate) fn round_sig_pub(neg: bool, sig: u64, shift: u32, mode: Round) -> (u64, bool) {
    round_sig(neg, sig, shift.min(65), mode)
}

/// A finite value rounded to a float format's precision and exponent range
/// (subnormals included), before any overflow rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rounded {
    pub neg: bool,
    /// Significand, `< 2^precision`; zero when the value rounded to zero.
    pub sig: u64,
    /// Exponent of the significand's last place.
    pub q: i32,
    pub inexact: bool,
    /// The magnitude exceeds the largest finite number of the format.
    pub overflow: bool,
}

/// Rounds `sig * 2^exp` (`sig != 0`) into `fmt`.
#[inline(always)]
pub fn round_to_float(fmt: &FloatFormat, neg: bool, sig: u64, exp: i32, mode: Round) -> Rounded {
    let p = fmt.precision() as i32;
    let top = exp + 63 - sig.leading_zeros() as i32;
    let qmin = fmt.emin() - (p - 1);
    let q = (top - (p - 1)).max(qmin);
    let (mut kept, inexact, mut q) = if q <= exp {
        (sig << (exp - q) as u32, false, q)
    } else {
        let shift = (q - exp) as u32;
        let (k, i) = round_sig(neg, sig, shift.min(65), mode);
        (k, i, q)
    };
    if kept == 1 << p {
        kept >>= 1;
        q += 1;
    }
    let max_q = fmt.emax() - (p - 1);
    let overflow = q > max_q || (q == max_q && kept > fmt.max_sig());
    Rounded {
        neg,
        sig: kept,
        q,
        inexact,
        overflow,
    }
}

/// Encodes a rounded, in-range value (no overflow). A zero significand
/// encodes a signed zero; formats without zero are the caller's concern.
#[inline(always)]
pub fn encode(fmt: &FloatFormat, r: &Rounded) -> u64 {
    let sign = if r.neg { fmt.sign_mask() } else { 0 };
    if r.sig == 0 {
        return sign;
    }
    let p = fmt.precision() as i32;
    let implicit = 1u64 << (p - 1);
    if r.sig >= implicit {
        let biased = (r.q + p - 1 + fmt.bias()) as u64;
        sign | (biased << fmt.man_bits) | (r.sig & (implicit - 1))
    } else {
        sign | r.sig
    }
}

/// Rounds `sig * 2^exp` to an integral value, as a magnitude (saturating at
/// `u128::MAX` for values far beyond any integer format).
#[inline]
pub fn round_to_integer(neg: bool, sig: u64, exp: i32, mode: Round) -> (u128, bool) {
    if exp >= 0 {
        if exp >= 64 {
            return (u128::MAX, false);
        }
        return ((sig as u128) << exp, false);
    }
    let (k, inexact) = round_sig(neg, sig, (-exp).min(65) as u32, mode);
    (k as u128, inexact)
}

#[cfg(test)]
mod tests {
    use super::super::format::*;
    use super::*;

    fn value(d: Decoded) -> f64 {
        d.to_f64()
    }

    /// Decoding agrees with the host's own f32 reading for a sample of
    /// encodings (subnormals, normals, specials).
    #[test]
    fn decode_f32_matches_host() {
        for bits in (0u32..=u32::MAX).step_by(9973) {
            let host = f32::from_bits(bits) as f64;
            let ours = value(decode(&F32, bits as u64));
            assert!(
                (host.is_nan() && ours.is_nan()) || host.to_bits() == ours.to_bits(),
                "{bits:#x}"
            );
        }
    }

    /// Rounding an f64 to f32 in round-to-nearest agrees with the host's `as`
    /// conversion (IEEE round to nearest even), overflow included.
    #[test]
    fn f64_to_f32_nearest_matches_host() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let f = f64::from_bits(x);
            if let Decoded::Finite { neg, sig, exp } = decode(&F64, x) {
                let r = round_to_float(&F32, neg, sig, exp, Round::NearestEven);
                let host = f as f32;
                if r.overflow {
                    assert!(host.is_infinite(), "{f:e}");
                } else {
                    assert_eq!(encode(&F32, &r) as u32, host.to_bits(), "{f:e}");
                }
            }
        }
    }

    #[test]
    fn ue8m0_reads_powers_of_two() {
        assert_eq!(value(decode(&UE8M0, 127)), 1.0);
        assert_eq!(value(decode(&UE8M0, 0)), 2f64.powi(-127));
        assert!(matches!(decode(&UE8M0, 0xff), Decoded::Nan { .. }));
        assert!(matches!(decode(&E4M3, 0x7f), Decoded::Nan { .. }));
        assert_eq!(value(decode(&E4M3, 0x7e)), 448.0);
        assert_eq!(value(decode(&E2M1, 0xf)), -6.0);
    }
}
