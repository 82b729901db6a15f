//! The NaN a float-to-float conversion produces from a NaN source, where
//! neither `.relu` nor `.sat` decides it. PTX ISA 9.7.9.21 says only "For
//! `cvt.f32.bf16`, `NaN` input yields unspecified `NaN`" and, for
//! `.satfinite`, "the result is `NaN` in the specified destination format";
//! elsewhere it is silent, and the rules here are what sm_90 produced (an
//! H200, driver 580.159.04, ptxas 13.0; corpus/cvt/hardware and
//! docs/cvt-observations.md).

use super::format::{id, FloatFormat};
use super::round::Round;

pub const BF16_F32_CLAUSE: &str =
    "PTX ISA 9.7.9.21: \"For `cvt.f32.bf16`, `NaN` input yields unspecified `NaN`.\"";
pub const CANONICAL_CLAUSE: &str =
    "PTX ISA 9.7.9.21 is silent on the NaN this conversion produces; sm_90 \
     produces the destination's canonical NaN (docs/cvt-observations.md)";
pub const QUIET_CLAUSE: &str =
    "PTX ISA 9.7.9.21 is silent on the NaN this conversion produces; sm_90 keeps \
     the sign and the leading payload bits and sets the quiet bit (docs/cvt-observations.md)";
pub const PRESERVE_CLAUSE: &str =
    "PTX ISA 9.7.9.21 is silent on the NaN this conversion produces; sm_90 \
     passes the NaN through unchanged, signalling NaNs included (docs/cvt-observations.md)";
pub const SATFINITE_NAN_CLAUSE: &str = "PTX ISA 9.7.9.21: \"[`.satfinite`] if the input value is `NaN`, then \
     the result is `NaN` in the specified destination format\" (sm_90 gives MAX_NORM or infinity here: \
     corpus/cvt/hardware/sm_90/divergences.tsv)";
pub const FIXED_CLAUSE: &str =
    "PTX ISA 9.7.9.21 is silent on the NaN `cvt.ftz.f64.f32` produces; sm_90 \
     gives 0x7fffffffe0000000 for every NaN (docs/cvt-observations.md)";
pub const TRUNCATE_CLAUSE: &str = "PTX ISA 9.7.9.21 is silent on the NaN `cvt.rna.tf32.f32` produces; sm_90 \
     clears the 13 low bits and nothing else, so a signalling NaN with only low payload bits becomes an \
     infinity (docs/cvt-observations.md)";

/// How a NaN crosses a conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NanRule {
    /// The destination's canonical NaN.
    Canonical,
    /// IEEE 754 style: sign kept, the payload's leading bits kept (or
    /// widened with zeros), the quiet bit set.
    Quiet,
    /// The source bits unchanged (same format).
    Preserve,
    /// The source bits with the low 13 cleared (`.tf32` from `.f32`).
    Truncate,
    /// Any NaN (`cvt.f32.bf16`); the mask frees sign and payload, and the
    /// bits given are sm_90's: the source widened exactly (`widened`), or
    /// with `.ftz` the canonical NaN.
    Unspecified { widened: bool },
    /// `cvt.rna.satfinite.tf32.f32`: the low 13 bits cleared, then one
    /// `.tf32` unit subtracted (sm_90's saturation acting on the all-ones
    /// exponent). Where that would leave no NaN (the payload lay in the
    /// cleared bits, or was one unit), the spec's "the result is `NaN`"
    /// rules: the canonical NaN (sm_90 gives MAX_NORM or infinity there).
    TruncateSatfinite,
    /// One fixed encoding: `cvt.ftz.f64.f32` gives `0x7fffffffe0000000`,
    /// the `.f32` canonical NaN widened.
    Fixed(u64),
}

/// The rule for a conversion (`integral`: an integer rounding of a float
/// in its own format; `ftz`: the `.ftz` modifier). A `const fn`, so that
/// the fast kernels (`fast.rs`) fix it when they are compiled.
pub const fn rule(
    src: &FloatFormat,
    dst: &FloatFormat,
    round: Option<Round>,
    integral: bool,
    ftz: bool,
    satfinite: bool,
) -> NanRule {
    use NanRule::*;
    let rna = matches!(round, Some(Round::NearestAway));
    match (src.id, dst.id) {
        (id::BF16, id::F32) => Unspecified { widened: !ftz },
        (id::F64, id::F64) if integral => Quiet,
        (id::F64, id::F64) => Preserve,
        (id::F32, id::F32) if integral || ftz => Canonical,
        (id::F32, id::F32) => Preserve,
        (id::F32, id::TF32) if rna && satfinite => TruncateSatfinite,
        (id::F32, id::TF32) if rna => Truncate,
        (id::F64, id::F32 | id::F16 | id::BF16) => Quiet,
        (id::F32, id::F64) if ftz => Fixed(0x7fff_ffff_e000_0000),
        (id::F16 | id::BF16 | id::F32, id::F64) => Quiet,
        _ => Canonical,
    }
}

/// The result bits, the unspecified mask, and the clause behind them.
#[inline]
pub fn nan_result(
    src: &FloatFormat,
    dst: &FloatFormat,
    bits: u64,
    rule: NanRule,
) -> (u64, u64, &'static str) {
    let canonical = dst.canonical_nan.unwrap_or(0);
    match rule {
        NanRule::Unspecified { widened } => {
            // A NaN, any sign and payload: the exponent is fixed, the rest
            // free (a nonzero significand is implied by "NaN"). The bits
            // given are sm_90's: the source widened exactly, sign and
            // payload kept, a signalling NaN left signalling (`0x7f81`
            // gives `0x7f810000`), and with `.ftz` the canonical NaN
            // (corpus/cvt/hardware/sm_90, edge set).
            let free = dst.sign_mask() | ((1u64 << dst.man_bits) - 1);
            if !widened {
                return (canonical, free, BF16_F32_CLAUSE);
            }
            let payload = (bits & ((1u64 << src.man_bits) - 1)) << (dst.man_bits - src.man_bits);
            let sign = if bits & src.sign_mask() != 0 {
                dst.sign_mask()
            } else {
                0
            };
            (sign | dst.inf() | payload, free, BF16_F32_CLAUSE)
        }
        NanRule::Canonical => (canonical, 0, CANONICAL_CLAUSE),
        NanRule::Fixed(bits) => (bits, 0, FIXED_CLAUSE),
        NanRule::Preserve => (bits, 0, PRESERVE_CLAUSE),
        NanRule::Truncate => (bits & !0x1fff, 0, TRUNCATE_CLAUSE),
        NanRule::TruncateSatfinite => {
            let t = bits & !0x1fff;
            if (t >> 13) & 0x3ff >= 2 {
                (t - 0x2000, 0, TRUNCATE_CLAUSE)
            } else {
                (canonical, 0, SATFINITE_NAN_CLAUSE)
            }
        }
        NanRule::Quiet => {
            let payload = bits & ((1u64 << src.man_bits) - 1);
            let payload = if dst.man_bits >= src.man_bits {
                payload << (dst.man_bits - src.man_bits)
            } else {
                payload >> (src.man_bits - dst.man_bits)
            };
            let sign = if bits & src.sign_mask() != 0 {
                dst.sign_mask()
            } else {
                0
            };
            let quiet = 1u64 << (dst.man_bits - 1);
            (sign | dst.inf() | quiet | payload, 0, QUIET_CLAUSE)
        }
    }
}
