//! The meaning of `cvt` (PTX ISA 9.7.9.21) and `cvt.pack` (9.7.9.22): an
//! instruction form, read from its catalogue binding, applied to operand
//! bits. Formats are data (`format.rs`), rounding is `round.rs`, PTX's value
//! rules are `convert.rs`, NaN results `nan.rs`, `cvt.pack` is `pack.rs`.

pub mod convert;
mod dispatch;
pub mod format;
pub mod nan;
pub mod pack;
pub mod round;

use crate::catalogue::Binding;
use convert::{Converted, Flags, Modifiers};
use format::Format;
use round::Round;

/// A conversion form: destination and source formats, rounding and
/// modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CvtOp {
    pub dst: Format,
    pub src: Format,
    /// The rounding qualifier, if any.
    pub round: Option<Round>,
    /// Whether the rounding is an integer one (`.rni` ...).
    pub integer_rounding: bool,
    pub mods: Modifiers,
}

/// A `cvt.pack` form.
pub use pack::PackOp;

/// Any conversion instruction form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Conversion {
    Cvt(CvtOp),
    Pack(PackOp),
}

/// Why an instruction is not a conversion this module evaluates.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormError {
    #[error("`{0}` is not a cvt or cvt.pack form")]
    NotAConversion(String),
    #[error("unknown type `{0}`")]
    UnknownType(String),
}

/// An undefined result and the clause that makes it so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("undefined: {clause}")]
pub struct Undefined {
    pub clause: &'static str,
}

/// Why an evaluation gave no value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    #[error("{0}")]
    Undefined(Undefined),
    #[error("expected {expected} source operands, got {got}")]
    OperandCount { expected: usize, got: usize },
}

impl Conversion {
    /// Reads a form from its catalogue binding (`cvt.rn.f16.f32`).
    pub fn from_binding(b: &Binding) -> Result<Conversion, FormError> {
        let instr = b.form.row.instr;
        if instr == "cvt.pack" {
            return PackOp::from_binding(b).map(Conversion::Pack);
        }
        if instr != "cvt" {
            return Err(FormError::NotAConversion(instr.to_string()));
        }
        let ty = |slot: &str| -> Result<Format, FormError> {
            let name = b.get(slot).unwrap_or("");
            Format::from_ptx(name).ok_or_else(|| FormError::UnknownType(name.to_string()))
        };
        let dst = ty("dtype")?;
        let src = ty("atype")?;
        let mut round = None;
        let mut integer_rounding = false;
        for (_, q) in b.values.iter() {
            if let Some(r) = Round::from_ptx(q) {
                round = Some(r);
                integer_rounding = q.ends_with('i');
            }
        }
        let mods = Modifiers {
            ftz: b.has(".ftz"),
            sat: b.has(".sat"),
            relu: b.has(".relu"),
            satfinite: b.has(".satfinite"),
        };
        Ok(Conversion::Cvt(CvtOp {
            dst,
            src,
            round,
            integer_rounding,
            mods,
        }))
    }

    /// Source operands the form takes (registers after `d`).
    pub fn source_count(&self) -> usize {
        match self {
            Conversion::Pack(p) => p.source_count(),
            Conversion::Cvt(op) => op.source_count(),
        }
    }

    /// The source operands' widths in bits.
    pub fn source_widths(&self) -> Vec<u32> {
        match self {
            Conversion::Pack(p) => p.source_widths(),
            Conversion::Cvt(op) => op.source_widths(),
        }
    }

    /// The destination's width in bits.
    pub fn dest_width(&self) -> u32 {
        match self {
            Conversion::Pack(_) => 32,
            Conversion::Cvt(op) => op.dst.width(),
        }
    }

    /// Applies the form to source operand bits (low bits of each are used:
    /// "The lower `n` bits corresponding to the instruction-type width are
    /// used in the conversion").
    pub fn eval(&self, sources: &[u64]) -> Result<Converted, EvalError> {
        if sources.len() != self.source_count() {
            return Err(EvalError::OperandCount {
                expected: self.source_count(),
                got: sources.len(),
            });
        }
        match self {
            Conversion::Pack(p) => Ok(p.eval(sources)),
            Conversion::Cvt(op) => op.eval(sources).map_err(EvalError::Undefined),
        }
    }
}

const FP6_INPUT_CLAUSE: &str =
    "PTX ISA 9.7.9.21: \"Each 8-bit input value with 2 MSB bits 0 in operand `a` is \
     converted to `.f16` type\": an input whose 2 MSBs are not 0 is outside the form";
const RS_F16_CLAUSE: &str = "PTX ISA 9.7.9.21: \"13 LSBs from upper 16-bits are used as random bits for operand \
     `a` with 3 MSBs are 0 and 13 LSBs from lower 16-bits are used as random bits for operand `b` with 3 MSBs \
     are 0\"";

impl CvtOp {
    /// Whether the form converts two `.f32` (or four, `x4`) sources into a
    /// pack.
    fn scalar_sources(&self) -> usize {
        match (self.dst, self.src) {
            (Format::Pack { lanes, .. }, Format::Float(_)) => lanes as usize,
            _ => 1,
        }
    }

    fn stochastic(&self) -> bool {
        matches!(self.round, Some(Round::Stochastic { .. }))
    }

    pub fn source_count(&self) -> usize {
        self.scalar_sources() + self.stochastic() as usize
    }

    pub fn source_widths(&self) -> Vec<u32> {
        let mut w = vec![self.src.width(); self.scalar_sources()];
        if self.stochastic() {
            w.push(32);
        }
        w
    }

    /// The random bits and their width for lane `lane` of an `.rs` form
    /// (PTX ISA 9.7.9.21, "rbits"). For `.e4m3x4`/`.e5m2x4`/`.e2m3x4`/
    /// `.e3m2x4` the text says "lower 16-bits are used for operands `e`,
    /// `f` and upper 16 bits are used for operands `a`, `b`": each of the
    /// pair takes the whole 16 bits (the figure it cites is not in our copy
    /// of the spec; docs/cvt-observations.md).
    fn rbits(&self, rbits: u32, lane: usize) -> Result<(u32, u32), Undefined> {
        let Format::Pack { of, lanes, .. } = self.dst else {
            return Ok((0, 0));
        };
        let hi = rbits >> 16;
        let lo = rbits & 0xffff;
        Ok(match (of.name, lanes, lane) {
            ("f16", _, _) => {
                if (hi | lo) & 0xe000 != 0 {
                    return Err(Undefined {
                        clause: RS_F16_CLAUSE,
                    });
                }
                (if lane == 0 { hi } else { lo }, 13)
            }
            ("bf16", _, _) => (if lane == 0 { hi } else { lo }, 16),
            // "lower 8-bits from both 16-bits half of `rbits` are used for
            // operands `e`, `f` and upper 8-bits from both 16-bits half of
            // `rbits` are used for operands `a`, `b`."
            ("e2m1", 4, 0) => (rbits >> 24, 8),
            ("e2m1", 4, 1) => ((rbits >> 8) & 0xff, 8),
            ("e2m1", 4, 2) => ((rbits >> 16) & 0xff, 8),
            ("e2m1", 4, _) => (rbits & 0xff, 8),
            (_, _, 0 | 1) => (hi, 16),
            _ => (lo, 16),
        })
    }

    fn round_for_lane(&self, sources: &[u64], lane: usize) -> Result<Round, Undefined> {
        Ok(match self.round {
            Some(Round::Stochastic { .. }) => {
                let r = sources[sources.len() - 1] as u32;
                let (rbits, width) = self.rbits(r, lane)?;
                Round::Stochastic { rbits, width }
            }
            Some(r) => r,
            // Exact conversions (widening, int to int) take no rounding.
            None => Round::NearestEven,
        })
    }

    /// Applies the form to its sources.
    pub fn eval(&self, sources: &[u64]) -> Result<Converted, Undefined> {
        match (self.dst, self.src) {
            (
                Format::Pack {
                    of,
                    lanes,
                    lane_bits,
                },
                Format::Float(src),
            ) => {
                let mut out = lanes_result();
                for lane in 0..lanes as usize {
                    let round = self.round_for_lane(sources, lane)?;
                    let c = dispatch::float_to_float(
                        &src,
                        &of,
                        sources[lane] & mask(src.width()),
                        round,
                        self.mods,
                    );
                    place(&mut out, c, lanes, lane_bits, lane);
                }
                Ok(out)
            }
            (
                Format::Pack {
                    of: d,
                    lanes,
                    lane_bits: dl,
                },
                Format::Pack {
                    of: s,
                    lane_bits: sl,
                    ..
                },
            ) => {
                let mut out = lanes_result();
                for lane in 0..lanes as usize {
                    let shift = (lanes as usize - 1 - lane) as u32 * sl;
                    let v = (sources[0] >> shift) & ((1u64 << sl) - 1);
                    if s.width() < sl && v >> s.width() != 0 {
                        return Err(Undefined {
                            clause: FP6_INPUT_CLAUSE,
                        });
                    }
                    let round = self.round_for_lane(sources, lane)?;
                    let c = dispatch::float_to_float(&s, &d, v, round, self.mods);
                    place(&mut out, c, lanes, dl, lane);
                }
                Ok(out)
            }
            (dst, src) => Ok(self.scalar(dst, src, sources[0])),
        }
    }

    #[inline]
    fn scalar(&self, dst: Format, src: Format, a: u64) -> Converted {
        let round = self.round.unwrap_or(Round::NearestEven);
        let a = a & mask(src.width());
        match (dst, src) {
            (Format::Int(d), Format::Int(s)) => convert::int_to_int(s, d, a, self.mods.sat),
            (Format::Int(d), Format::Float(s)) => {
                dispatch::float_to_int(&s, d, a, round, self.mods)
            }
            (Format::Float(d), Format::Int(s)) => {
                dispatch::int_to_float(s, &d, a, round, self.mods)
            }
            (Format::Float(d), Format::Float(s)) => {
                if self.integer_rounding && d == s {
                    convert::float_to_integral(&d, a, round, self.mods)
                } else {
                    dispatch::float_to_float(&s, &d, a, round, self.mods)
                }
            }
            // Packs are handled by `eval`.
            _ => Converted {
                bits: 0,
                unspecified: u64::MAX,
                flags: Flags::UNSPECIFIED,
                clause: None,
            },
        }
    }

    /// `cvt` on one scalar source, for sweeps (the form must have one
    /// non-packed source and destination).
    #[inline]
    pub fn eval_scalar(&self, a: u64) -> Converted {
        self.scalar(self.dst, self.src, a)
    }
}

/// Extends a result to a destination register of `reg_bits` (PTX ISA
/// 9.7.9.21, Notes): "The result of conversion is sign-extended to the
/// destination register width for signed integers, and is zero-extended to
/// the destination register width for unsigned, bit-size, and
/// floating-point types."
pub fn extend_to_register(dst: &Format, bits: u64, reg_bits: u32) -> u64 {
    let w = dst.width();
    match dst {
        Format::Int(i) if i.signed && reg_bits > w && (bits >> (w - 1)) & 1 == 1 => {
            (bits | !mask(w)) & mask(reg_bits)
        }
        _ => bits & mask(w),
    }
}

#[inline]
fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

fn lanes_result() -> Converted {
    Converted {
        bits: 0,
        unspecified: 0,
        flags: Flags::default(),
        clause: None,
    }
}

/// Puts lane `lane` (0 = operand `a`, the most significant) into `out`.
fn place(out: &mut Converted, c: Converted, lanes: u32, lane_bits: u32, lane: usize) {
    let shift = (lanes as usize - 1 - lane) as u32 * lane_bits;
    let m = mask(lane_bits);
    out.bits |= (c.bits & m) << shift;
    out.unspecified |= (c.unspecified & m) << shift;
    out.flags |= c.flags;
    if out.clause.is_none() {
        out.clause = c.clause;
    }
}

#[cfg(test)]
mod tests;
