//! The NaN a float-to-float conversion produces from a NaN source, where
//! neither `.relu` nor `.sat` decides it. PTX ISA 9.7.9.21 says only "For
//! `cvt.f32.bf16`, `NaN` input yields unspecified `NaN`" and, for
//! `.satfinite`, "the result is `NaN` in the specified destination format";
//! elsewhere it is silent, and the rules here follow what sm_90 produced
//! (corpus/cvt/hardware, see docs/cvt-observations.md).

use super::format::{FloatFormat, BF16, F32};

pub const BF16_F32_CLAUSE: &str = "PTX ISA 9.7.9.21: \"For `cvt.f32.bf16`, `NaN` input yields unspecified `NaN`.\"";
pub const CANONICAL_CLAUSE: &str = "PTX ISA 9.7.9.21 is silent on the NaN a conversion produces; sm_90 \
     produces the destination's canonical NaN (docs/cvt-observations.md)";

/// The result bits, the unspecified mask, and the clause behind them.
pub fn nan_result(src: &FloatFormat, dst: &FloatFormat, _neg: bool, _payload: u64) -> (u64, u64, &'static str) {
    let canonical = dst.canonical_nan.unwrap_or(0);
    if src == &BF16 && dst == &F32 {
        // A NaN, any sign and payload: the exponent is fixed, the rest free
        // (a nonzero significand is implied by "NaN").
        return (canonical, 0x807f_ffff, BF16_F32_CLAUSE);
    }
    (canonical, 0, CANONICAL_CLAUSE)
}
