//! PTX's rules on top of IEEE 754 rounding, written afresh from PTX ISA
//! 9.7.9.21 (`cvt`) and 9.7.9.22 (`cvt.pack`): what a form must give for
//! given source operands. The IEEE rounding itself comes from an engine
//! (Z3 or rustc_apfloat); the NaN a conversion produces where the spec is
//! silent is the documented sm_90 behaviour (docs/cvt-observations.md) as
//! the model's table has it (`semantics/src/cvt/nan.rs`), restated case
//! for case: on those NaNs the oracle is no independent check
//! (docs/oracles-results.md).
//!
//! Narrow destinations without IEEE encodings (`.e4m3`, `.e2m3`, `.e3m2`,
//! `.e2m1`, `.ue8m0`) are rounded in two helper IEEE layouts and encoded
//! here: values at or above the destination's smallest normal in a layout
//! with the destination's precision and an 11-bit exponent (nothing
//! overflows there, so the rounded value is compared with MAX_NORM
//! exactly); smaller values in the IEEE layout with the destination's own
//! exponent width and precision, whose subnormals are the destination's.

use crate::engine::{Engine, IntResult, Mode};
use crate::format::{Class, Fp, Int, Num, Specials, F32, F64, TF32};
use crate::forms::{Operand, Rounding, Spec};
use std::cmp::Ordering;

/// What one lane (or a scalar result) must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// Exactly these bits (register layout, no bit unspecified).
    Bits(u64),
    /// Any NaN of this format: "For `cvt.f32.bf16`, `NaN` input yields
    /// unspecified `NaN`."
    AnyNan(Fp),
    /// The spec says nothing about this result; not compared.
    Silent,
}

/// What a form must give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// Lanes from the most significant down, each `lane_bits` wide (a
    /// scalar result is one lane).
    Lanes { lanes: Vec<Lane>, lane_bits: u32 },
    /// The inputs are outside what the form defines.
    Undefined(&'static str),
}

/// The rounding one lane uses.
#[derive(Clone, Copy, Debug)]
enum LaneRound {
    Ieee(Mode),
    /// `.rs` with `w` random bits `r`.
    Stochastic {
        r: u64,
        w: u32,
    },
}

/// Each format's canonical NaN in register layout: the encoding sm_90
/// writes where it canonicalises (docs/cvt-observations.md, "NaN
/// results").
fn canonical_nan(f: Fp) -> u64 {
    match f.name {
        "f16" | "bf16" => 0x7fff,
        "tf32" => 0x7fff_e000,
        "f32" => 0x7fff_ffff,
        "f64" => 0x7fff_ffff_ffff_ffff,
        "e4m3" | "e5m2" => 0x7f,
        "ue8m0" => 0xff,
        _ => unreachable!("{} has no NaN", f.name),
    }
}

fn sign(f: Fp, neg: bool) -> u64 {
    if neg {
        f.sign_bit()
    } else {
        0
    }
}

fn max_norm(f: Fp, neg: bool) -> u64 {
    // "... and a positive MAX_NORM in `.ue8m0x2` for which the destination
    // sign is not supported."
    sign(f, neg) | f.max_bits()
}

/// The NaN a float-to-float conversion gives for a NaN source `x`
/// (`integral`: `.rni` and friends in the same format).
fn nan_lane(spec: &Spec, src: Fp, dst: Fp, x: u64, integral: bool) -> Lane {
    // ".sat ... NaN results are flushed to positive zero."
    if spec.sat {
        return Lane::Bits(0);
    }
    // "For .e2m1x2, .e2m3x2, .e3m2x2, .e2m1x4, .e2m3x4, .e3m2x4 destination
    // formats NaN results are converted to positive MAX_NORM."
    if !dst.has_nan() {
        return Lane::Bits(dst.max_bits());
    }
    // ".relu ... NaN results are converted to canonical NaN."
    if spec.relu {
        return Lane::Bits(canonical_nan(dst));
    }
    let neg = x & src.sign_bit() != 0;
    // IEEE style: sign kept, the payload's leading bits kept, quiet bit set.
    let quiet = || {
        let payload = x & ((1u64 << src.mb) - 1);
        let payload = if dst.mb >= src.mb {
            payload << (dst.mb - src.mb)
        } else {
            payload >> (src.mb - dst.mb)
        };
        Lane::Bits(sign(dst, neg) | dst.inf_bits() | (1 << (dst.mb - 1)) | payload)
    };
    let rna = spec.round == Some(Rounding::Ieee(Mode::NearestAway));
    match (src.name, dst.name) {
        ("bf16", "f32") => Lane::AnyNan(F32),
        ("f64", "f64") if integral => quiet(),
        ("f64", "f64") => Lane::Bits(x),
        ("f32", "f32") if integral || spec.ftz => Lane::Bits(canonical_nan(F32)),
        ("f32", "f32") => Lane::Bits(x),
        ("f32", "tf32") if rna && spec.satfinite => {
            // The low 13 bits cleared, then one `.tf32` unit subtracted;
            // where no NaN is left, the spec's "the result is NaN" holds
            // (sm_90 differs there: docs/cvt-observations.md).
            let t = x & !0x1fff;
            if (t >> 13) & 0x3ff >= 2 {
                Lane::Bits(t - 0x2000)
            } else {
                Lane::Bits(canonical_nan(TF32))
            }
        }
        ("f32", "tf32") if rna => Lane::Bits(x & !0x1fff),
        ("f64", "f32" | "f16" | "bf16") => quiet(),
        ("f32", "f64") if spec.ftz => Lane::Bits(0x7fff_ffff_e000_0000),
        ("f16" | "bf16" | "f32", "f64") => quiet(),
        _ => Lane::Bits(canonical_nan(dst)),
    }
}

/// The exact value of an encoding of an IEEE helper layout: `Ok(value)`
/// (zero has `sig == 0`) or `Err(neg)` for an infinity.
fn value_of(f: Fp, bits: u64) -> Result<Num, bool> {
    match f.decode(bits) {
        Class::Num(n) => Ok(n),
        Class::Zero { neg } => Ok(Num::new(neg, 0, 0)),
        Class::Inf { neg } => Err(neg),
        Class::Nan { .. } => unreachable!("no NaN reaches an engine"),
    }
}

/// A source encoding as an IEEE layout an engine can read: IEEE formats as
/// they are, the others re-encoded exactly as `.f32` (every value of them
/// is an `.f32` value).
fn lift(src: Fp, x: u64, n: Num) -> (Fp, u64) {
    match src.specials {
        Specials::Ieee => (Fp::ieee(src.eb, src.precision()), x),
        _ => (F32, F32.encode(n).expect("narrow values are .f32 values")),
    }
}

/// A finite nonzero value rounded into `dst` by the engine: the rounded
/// value (which may exceed MAX_NORM for narrow formats), or `Err(neg)` for
/// an IEEE infinity, or `Ok(None)` for a `.ue8m0` result below its range
/// (it has no zero).
fn round_value(
    e: &mut dyn Engine,
    src: Fp,
    x: u64,
    n: Num,
    dst: Fp,
    mode: Mode,
) -> Option<Result<Option<Num>, bool>> {
    let (s, sx) = lift(src, x, n);
    if dst.specials == Specials::Ieee {
        let d = Fp::ieee(dst.eb, dst.precision());
        return Some(value_of(d, e.convert(s, sx, d, mode)?).map(Some));
    }
    let at_least_normal = n.cmp_abs(&Num::pow2(dst.emin())) != Ordering::Less;
    if at_least_normal {
        let w = Fp::ieee(11, dst.precision().max(2));
        let v = value_of(w, e.convert(s, sx, w, mode)?).expect("no overflow in 11 bits");
        if dst.precision() == 1 {
            // `.ue8m0` has one significant bit; Z3 sorts need two. A
            // directed rounding to two bits followed by the same
            // direction to one bit is the directed rounding to one bit.
            return Some(Ok(Some(to_one_bit(v, mode))));
        }
        return Some(Ok(Some(v)));
    }
    if dst.specials == Specials::Ue8m0 {
        // Below 2^-127: upward gives the smallest value; toward zero there
        // is no zero to give.
        return Some(Ok(match mode {
            Mode::Up => Some(Num::pow2(dst.emin())),
            _ => None,
        }));
    }
    let sub = Fp::ieee(dst.eb, dst.precision());
    Some(value_of(sub, e.convert(s, sx, sub, mode)?).map(Some))
}

/// A two-bit value rounded to one significant bit, toward zero or upward
/// (the `.ue8m0` modes; positive values only reach here).
fn to_one_bit(v: Num, mode: Mode) -> Num {
    let v = v.normalised();
    if v.sig == 1 {
        return v;
    }
    match mode {
        Mode::Up => Num::pow2(v.top() + 1),
        Mode::TowardZero => Num::pow2(v.top()),
        other => unreachable!(".ue8m0 has no {other:?} form"),
    }
}

/// A rounded value (or infinity) encoded in `dst` under `.satfinite` and
/// the formats without infinity.
fn finish(dst: Fp, r: Result<Option<Num>, bool>, satfinite: bool) -> Lane {
    match r {
        Err(neg) => {
            if satfinite {
                Lane::Bits(dst.to_reg(max_norm(dst, neg)))
            } else {
                Lane::Bits(dst.to_reg(sign(dst, neg) | dst.inf_bits()))
            }
        }
        Ok(None) => Lane::Silent,
        Ok(Some(v)) => {
            if v.cmp_abs(&dst.max_value()) == Ordering::Greater {
                // Beyond MAX_NORM in a format without infinity: only the
                // `.satfinite` rule speaks (mandatory for FP8/FP6/FP4;
                // `.ue8m0x2` without it is not described).
                return if satfinite || dst.specials != Specials::Ue8m0 {
                    Lane::Bits(dst.to_reg(max_norm(dst, v.neg)))
                } else {
                    Lane::Silent
                };
            }
            Lane::Bits(dst.to_reg(dst.encode(v).expect("a rounded value is representable")))
        }
    }
}

/// `.rs`: "rounded in the direction toward zero or away from zero based on
/// the carry out of the integer addition of the supplied random bits
/// (`rbits`) to the truncated off (discarded) bits of mantissa from the
/// input". The `w` random bits are added to the `w` discarded bits just
/// below the kept ones.
fn stochastic(
    e: &mut dyn Engine,
    src: Fp,
    x: u64,
    n: Num,
    dst: Fp,
    r: u64,
    w: u32,
) -> Option<Result<Option<Num>, bool>> {
    let toward = round_value(e, src, x, n, dst, Mode::TowardZero)?;
    let away_mode = if n.neg { Mode::Down } else { Mode::Up };
    let away = round_value(e, src, x, n, dst, away_mode)?;
    let Ok(Some(t)) = toward else {
        return Some(toward);
    };
    if t.cmp_abs(&n) == Ordering::Equal {
        return Some(toward);
    }
    // The next value away from zero (past MAX_NORM: 2^(emax+1)).
    let next = match away {
        Ok(Some(a)) => a,
        Err(_) => Num::pow2(dst.max_value().top() + 1),
        Ok(None) => return Some(Ok(None)),
    };
    let step = next.abs_diff(&t);
    let carry = e.stochastic_carry(src, x, t.abs(), step, r, w);
    Some(if carry { away } else { toward })
}

/// Whether `n` lies below 2^-126 after rounding to 24 bits with an
/// unbounded exponent (the `.f32` results `.ftz` flushes; sm_90 detects
/// tininess after rounding, docs/cvt-observations.md).
fn tiny_f32_result(e: &mut dyn Engine, src: Fp, x: u64, n: Num, mode: Mode) -> Option<bool> {
    if n.top() >= F32.emin() {
        return Some(false);
    }
    let (s, sx) = lift(src, x, n);
    let w = Fp::ieee(11, 24);
    let v = value_of(w, e.convert(s, sx, w, mode)?).expect("finite");
    Some(v.sig == 0 || v.top() < F32.emin())
}

/// `.relu` and `.sat` on a float result.
fn post(spec: &Spec, dst: Fp, lane: Lane) -> Lane {
    let Lane::Bits(b) = lane else { return lane };
    let negative = b & dst.to_reg(dst.sign_bit()) != 0;
    // ".relu clamps the result to 0 if negative"; ".sat limits the result
    // to the range [0.0, 1.0]" (a negative zero counts as negative).
    if (spec.relu || spec.sat) && negative {
        return Lane::Bits(0);
    }
    if spec.sat {
        let one = dst.to_reg(dst.encode(Num::pow2(0)).expect("1.0"));
        let v = dst.decode(b >> dst.reg_shift);
        let above_one = match v {
            Class::Inf { .. } => true,
            Class::Num(n) => n.cmp_abs(&Num::pow2(0)) == Ordering::Greater,
            _ => false,
        };
        if above_one {
            return Lane::Bits(one);
        }
    }
    lane
}

/// One float converted to a float format.
fn float_to_float(
    e: &mut dyn Engine,
    spec: &Spec,
    src: Fp,
    dst: Fp,
    x: u64,
    round: LaneRound,
) -> Option<Lane> {
    let mut class = src.decode(x);
    if let Class::Nan { .. } = class {
        return Some(nan_lane(spec, src, dst, x, false));
    }
    // ".ftz ... flush single-precision subnormal inputs and results to
    // sign-preserving zero."
    if spec.ftz && src == F32 {
        if let Class::Num(n) = class {
            if n.top() < F32.emin() {
                class = Class::Zero { neg: n.neg };
            }
        }
    }
    let lane = match class {
        Class::Nan { .. } => unreachable!(),
        Class::Zero { neg } => {
            if dst.specials == Specials::Ue8m0 {
                Lane::Silent
            } else {
                Lane::Bits(dst.to_reg(sign(dst, neg)))
            }
        }
        Class::Inf { neg } => {
            if spec.satfinite || !dst.has_inf() {
                if !spec.satfinite && dst.specials == Specials::Ue8m0 {
                    Lane::Silent
                } else {
                    Lane::Bits(dst.to_reg(max_norm(dst, neg)))
                }
            } else {
                Lane::Bits(dst.to_reg(sign(dst, neg) | dst.inf_bits()))
            }
        }
        Class::Num(n) => {
            let beyond = n.cmp_abs(&dst.max_value()) == Ordering::Greater;
            if spec.satfinite && beyond {
                // "If the absolute value of input (ignoring sign) is greater
                // than MAX_NORM ... sign-preserved MAX_NORM".
                Lane::Bits(dst.to_reg(max_norm(dst, n.neg)))
            } else if n.neg && !dst.signed {
                // A negative value for `.ue8m0` within MAX_NORM: not
                // described.
                Lane::Silent
            } else {
                let ieee_mode = match round {
                    LaneRound::Ieee(m) => Some(m),
                    LaneRound::Stochastic { .. } => None,
                };
                if let (true, true, Some(m)) = (spec.ftz, dst == F32, ieee_mode) {
                    if tiny_f32_result(e, src, x, n, m)? {
                        return Some(post(spec, dst, Lane::Bits(sign(F32, n.neg))));
                    }
                }
                let r = match round {
                    LaneRound::Ieee(m) => round_value(e, src, x, n, dst, m)?,
                    LaneRound::Stochastic { r, w } => stochastic(e, src, x, n, dst, r, w)?,
                };
                finish(dst, r, spec.satfinite)
            }
        }
    };
    Some(post(spec, dst, lane))
}

/// `cvt.rni.f32.f32` and friends: "The result is an integral value, stored
/// in floating-point format."
fn float_to_integral(e: &mut dyn Engine, spec: &Spec, f: Fp, x: u64, mode: Mode) -> Option<Lane> {
    let mut class = f.decode(x);
    if let Class::Nan { .. } = class {
        return Some(nan_lane(spec, f, f, x, true));
    }
    // "For ... cvt.ftz.f32.f32 float-to-float conversions with integer
    // rounding, subnormal inputs are flushed to sign-preserving zero."
    if spec.ftz && f == F32 {
        if let Class::Num(n) = class {
            if n.top() < F32.emin() {
                class = Class::Zero { neg: n.neg };
            }
        }
    }
    let lane = match class {
        Class::Zero { neg } => Lane::Bits(sign(f, neg)),
        Class::Inf { neg } => Lane::Bits(sign(f, neg) | f.inf_bits()),
        _ => Lane::Bits(e.round_integral(f, x, mode)?),
    };
    Some(post(spec, f, lane))
}

/// `cvt.irnd.dtype.atype` with an integer destination.
fn float_to_int(
    e: &mut dyn Engine,
    spec: &Spec,
    src: Fp,
    dst: Int,
    x: u64,
    mode: Mode,
) -> Option<Lane> {
    let v = match src.decode(x) {
        // "NaN input results in ... 1. Zero if source is not .f64 and
        // destination is not .s64, .u64. 2. Otherwise 1 << (BitWidth(dst) -
        // 1)".
        Class::Nan { .. } => {
            return Some(Lane::Bits(if src != F64 && dst.bits != 64 {
                0
            } else {
                1 << (dst.bits - 1)
            }));
        }
        // "the result is clamped to the destination range by default".
        Class::Inf { neg } => {
            if neg {
                dst.min()
            } else {
                dst.max()
            }
        }
        Class::Zero { .. } => 0,
        Class::Num(n) if spec.ftz && src == F32 && n.top() < F32.emin() => 0,
        Class::Num(_) => match e.convert_to_int(src, x, mode, dst)? {
            IntResult::Value(v) => v,
            IntResult::Below => dst.min(),
            IntResult::Above => dst.max(),
        },
    };
    Some(Lane::Bits(v as u64 & dst.mask()))
}

fn int_to_float(
    e: &mut dyn Engine,
    spec: &Spec,
    src: Int,
    dst: Fp,
    x: u64,
    mode: Mode,
) -> Option<Lane> {
    let b = e.convert_from_int(src, x, Fp::ieee(dst.eb, dst.precision()), mode)?;
    Some(post(spec, dst, Lane::Bits(dst.to_reg(b))))
}

/// Integer to integer: "For integer destination types, .sat limits the
/// result to MININT..MAXINT"; without it the low bits are kept.
fn int_to_int(spec: &Spec, src: Int, dst: Int, x: u64) -> Lane {
    let v = src.read(x);
    let v = if spec.sat {
        v.clamp(dst.min(), dst.max())
    } else {
        v
    };
    Lane::Bits(v as u64 & dst.mask())
}

/// `cvt.pack.sat.convertType.abType{.cType}` (9.7.9.22). The semantics
/// block assigns `ta` twice; the prose ("limits the converted values to
/// MIN(convertType)..MAX(convertedType)") clamps both ways.
fn cvt_pack(t: Int, with_c: bool, sources: &[u64]) -> u64 {
    let clamp = |v: u64| (v as u32 as i32 as i128).clamp(t.min(), t.max()) as u64 & t.mask();
    let (ta, tb) = (clamp(sources[0]), clamp(sources[1]));
    let size = t.bits;
    // td[size-1:0] = tb; td[2*size-1:size] = ta.
    let td = tb | (ta << size);
    if with_c && size < 16 {
        // d[i] = c[i - 2*size] for i in 2*size..=31.
        td | ((sources[2] << (2 * size)) & 0xffff_ffff)
    } else {
        td
    }
}

/// The random bits and their count for lane `lane` of an `.rs` form with
/// destination lanes of `of` (9.7.9.21, `rbits`).
fn rbits(of: Fp, lanes: u32, lane: u32, rbits: u64) -> Result<(u64, u32), &'static str> {
    let hi = (rbits >> 16) & 0xffff;
    let lo = rbits & 0xffff;
    Ok(match (of.name, lanes) {
        // "13 LSBs from upper 16-bits are used as random bits for operand a
        // with 3 MSBs are 0 and 13 LSBs from lower 16-bits ... for operand
        // b with 3 MSBs are 0."
        ("f16", 2) => {
            if (hi | lo) >> 13 != 0 {
                return Err(
                    "PTX ISA 9.7.9.21: the 3 MSBs of each 16-bit half of rbits are 0 for .f16x2",
                );
            }
            (if lane == 0 { hi } else { lo }, 13)
        }
        // "upper 16-bits are used as random bits for operand a and lower
        // 16-bits ... for operand b."
        ("bf16", 2) => (if lane == 0 { hi } else { lo }, 16),
        // "lower 8-bits from both 16-bits half of rbits are used for
        // operands e, f and upper 8-bits from both 16-bits half of rbits
        // are used for operands a, b."
        ("e2m1", 4) => {
            let byte = match lane {
                0 => hi >> 8,
                1 => lo >> 8,
                2 => hi & 0xff,
                _ => lo & 0xff,
            };
            (byte, 8)
        }
        // "lower 16-bits are used for operands e, f and upper 16 bits are
        // used for operands a, b."
        (_, 4) => (if lane < 2 { hi } else { lo }, 16),
        _ => unreachable!(".rs has no {}x{lanes} form", of.name),
    })
}

fn mode_of(spec: &Spec) -> Mode {
    match spec.round {
        Some(Rounding::Ieee(m)) => m,
        // Exact conversions name no rounding; any mode gives the same.
        _ => Mode::NearestEven,
    }
}

/// What `spec` must give for `sources`, with `e` as the IEEE reference.
/// `None` when the engine cannot express a format the form needs.
pub fn expect(e: &mut dyn Engine, spec: &Spec, sources: &[u64]) -> Option<Expect> {
    let mode = mode_of(spec);
    if let Some((t, with_c)) = spec.pack {
        return Some(Expect::Lanes {
            lanes: vec![Lane::Bits(cvt_pack(t, with_c, sources))],
            lane_bits: 32,
        });
    }
    let scalar = |lane: Lane, bits: u32| Expect::Lanes {
        lanes: vec![lane],
        lane_bits: bits,
    };
    let mask = |w: u32| if w >= 64 { u64::MAX } else { (1 << w) - 1 };
    Some(match (spec.dst, spec.src) {
        (Operand::Int(d), Operand::Int(s)) => scalar(int_to_int(spec, s, d, sources[0]), d.bits),
        (Operand::Int(d), Operand::Float(s)) => scalar(
            float_to_int(e, spec, s, d, sources[0] & mask(s.width()), mode)?,
            d.bits,
        ),
        (Operand::Float(d), Operand::Int(s)) => scalar(
            int_to_float(e, spec, s, d, sources[0] & s.mask(), mode)?,
            d.width() + d.reg_shift,
        ),
        (Operand::Float(d), Operand::Float(s)) => {
            let x = sources[0] & mask(s.width());
            let lane = if spec.integral && d == s {
                float_to_integral(e, spec, d, x, mode)?
            } else {
                float_to_float(e, spec, s, d, x, LaneRound::Ieee(mode))?
            };
            scalar(lane, d.width() + d.reg_shift)
        }
        (
            Operand::Pack {
                of: d,
                lanes,
                lane_bits,
            },
            src,
        ) => {
            let mut out = Vec::new();
            for lane in 0..lanes {
                let (s, x) = match src {
                    // One `.f32` operand per lane: a, b (e, f).
                    Operand::Float(s) => (s, sources[lane as usize] & mask(s.width())),
                    // One packed operand: lane 0 in the upper bits.
                    Operand::Pack {
                        of: s,
                        lane_bits: sl,
                        ..
                    } => {
                        let v = (sources[0] >> ((lanes - 1 - lane) * sl)) & mask(sl);
                        // "Each 8-bit input value with 2 MSB bits 0".
                        if v >> s.width() != 0 {
                            return Some(Expect::Undefined(
                                "PTX ISA 9.7.9.21: FP6 inputs have their 2 MSBs 0",
                            ));
                        }
                        (s, v)
                    }
                    Operand::Int(_) => unreachable!("no integer packs"),
                };
                let round = match spec.round {
                    Some(Rounding::Stochastic) => {
                        let r = sources[sources.len() - 1] & 0xffff_ffff;
                        match rbits(d, lanes, lane, r) {
                            Ok((r, w)) => LaneRound::Stochastic { r, w },
                            Err(why) => return Some(Expect::Undefined(why)),
                        }
                    }
                    _ => LaneRound::Ieee(mode),
                };
                out.push(float_to_float(e, spec, s, d, x, round)?);
            }
            Expect::Lanes {
                lanes: out,
                lane_bits,
            }
        }
        (Operand::Float(_) | Operand::Int(_), Operand::Pack { .. }) => {
            unreachable!("no pack to scalar form")
        }
    })
}

/// Whether `bits` (register layout) is a NaN of `f`.
pub fn is_nan(f: Fp, bits: u64) -> bool {
    matches!(f.decode(bits >> f.reg_shift), Class::Nan { .. })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apfloat_engine::ApfloatEngine;
    use crate::format::{E2M1, E4M3, UE8M0};

    fn one(spec: &str, sources: &[u64]) -> Lane {
        let s = Spec::parse(spec).unwrap();
        match expect(&mut ApfloatEngine::default(), &s, sources).unwrap() {
            Expect::Lanes { lanes, .. } => lanes[0],
            other => panic!("{other:?}"),
        }
    }

    /// Values worked out by hand from the formats' definitions.
    #[test]
    fn hand_worked_values() {
        // 1 + 2^-11 is a tie between 1 and 1 + 2^-10 in .f16.
        assert_eq!(one("cvt.rn.f16.f32", &[0x3f80_1000]), Lane::Bits(0x3c00));
        assert_eq!(one("cvt.rz.f16.f32", &[0x4780_0000]), Lane::Bits(0x7bff));
        assert_eq!(one("cvt.rn.f16.f32", &[0x4780_0000]), Lane::Bits(0x7c00));
        assert_eq!(
            one("cvt.rn.satfinite.f16.f32", &[0x7f80_0000]),
            Lane::Bits(0x7bff)
        );
        // 464 is the tie between 448 and 480 (beyond MAX_NORM).
        let e4m3 = |v: f32| match one("cvt.rn.satfinite.e4m3x2.f32", &[v.to_bits() as u64, 0]) {
            Lane::Bits(b) => b,
            l => panic!("{l:?}"),
        };
        assert_eq!(e4m3(448.0), E4M3.max_bits());
        assert_eq!(e4m3(1000.0), E4M3.max_bits());
        assert_eq!(e4m3(2f32.powi(-10)), 0); // half the smallest subnormal: tie to even
        assert_eq!(e4m3(1.5 * 2f32.powi(-10)), 1);
        assert_eq!(e4m3(-0.0), 0x80);
        let e2m1 = |v: f32| match one("cvt.rn.satfinite.e2m1x2.f32", &[v.to_bits() as u64, 0]) {
            Lane::Bits(b) => b,
            l => panic!("{l:?}"),
        };
        assert_eq!(e2m1(5.0), 0x6); // tie between 4 and 6 goes to 4 (even)
        assert_eq!(e2m1(0.25), 0x0);
        assert_eq!(e2m1(0.75), 0x2);
        assert_eq!(e2m1(f32::NAN), E2M1.max_bits());
        let ue = |spec: &str, v: f32| match one(spec, &[v.to_bits() as u64, 0]) {
            Lane::Bits(b) => b,
            l => panic!("{l:?}"),
        };
        assert_eq!(ue("cvt.rz.satfinite.ue8m0x2.f32", 3.0), 128);
        assert_eq!(ue("cvt.rp.satfinite.ue8m0x2.f32", 3.0), 129);
        assert_eq!(ue("cvt.rp.satfinite.ue8m0x2.f32", 1e-45), 0);
        assert_eq!(
            ue("cvt.rz.satfinite.ue8m0x2.f32", f32::MAX),
            UE8M0.max_bits()
        );
        assert_eq!(
            one("cvt.rzi.s32.f32", &[0xcf00_0001]),
            Lane::Bits(0x8000_0000)
        );
        assert_eq!(one("cvt.rni.u8.f32", &[0x4320_0000]), Lane::Bits(0xa0));
        assert_eq!(
            one("cvt.rni.u8.f64", &[f64::NAN.to_bits()]),
            Lane::Bits(0x80)
        );
        assert_eq!(one("cvt.rni.u8.f32", &[0x7fc0_0000]), Lane::Bits(0));
        assert_eq!(one("cvt.rni.u64.f32", &[0x7fc0_0000]), Lane::Bits(1 << 63));
        assert_eq!(one("cvt.rn.bf16.f32", &[0x3f80_8000]), Lane::Bits(0x3f80));
        assert_eq!(
            one("cvt.rna.tf32.f32", &[0x3f80_1000]),
            Lane::Bits(0x3f80_2000)
        );
        assert_eq!(one("cvt.f32.bf16", &[0x7fc1]), Lane::AnyNan(F32));
    }

    #[test]
    fn stochastic_rounding_adds_random_bits_below_the_kept_ones() {
        let rs = |a: u64, r: u64| match expect(
            &mut ApfloatEngine::default(),
            &Spec::parse("cvt.rs.bf16x2.f32").unwrap(),
            &[a, a, r],
        )
        .unwrap()
        {
            Expect::Lanes { lanes, .. } => lanes,
            other => panic!("{other:?}"),
        };
        // 1 + 2^-23: the 16 discarded bits are 0x0001.
        let x = 0x3f80_0001;
        assert_eq!(
            rs(x, 0xffff_fffe),
            vec![Lane::Bits(0x3f81), Lane::Bits(0x3f80)]
        );
        assert_eq!(rs(x, 0), vec![Lane::Bits(0x3f80), Lane::Bits(0x3f80)]);
    }
}
