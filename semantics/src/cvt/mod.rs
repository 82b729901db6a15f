//! The meaning of `cvt` (PTX ISA 9.7.9.21) and `cvt.pack` (9.7.9.22): an
//! instruction form, read from its catalogue binding, applied to operand
//! bits. Formats are data (`format.rs`), rounding is `round.rs`, PTX's value
//! rules are `convert.rs`, NaN results `nan.rs`, `cvt.pack` is `pack.rs`;
//! `fast.rs` has kernels for batches of the hot narrowing forms, `packed.rs`
//! batches of the packed-source forms.

pub mod convert;
mod dispatch;
pub mod fast;
pub mod format;
pub mod nan;
pub mod pack;
mod packed;
pub mod round;

use crate::catalogue::Binding;
use convert::{Converted, Flags, Modifiers};
pub use fast::FastKernel;
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

    /// [`Conversion::eval`] over many rows, given as columns: row `i` takes
    /// `sources[j][i]` as operand `j`, and its result bits go to `dst[i]`
    /// (rows past the shortest column are left alone). A row whose result is
    /// undefined gets 0; the number of those is returned. The bits are
    /// `eval`'s; the work is done by [`CvtOp::eval_batch`] (for `cvt.pack`,
    /// row by row).
    pub fn eval_batch(&self, sources: &[&[u64]], dst: &mut [u64]) -> Result<usize, EvalError> {
        match self {
            Conversion::Cvt(op) => op.eval_batch(sources, dst),
            Conversion::Pack(p) => {
                let rows = batch_rows(sources, dst, p.source_count())?;
                let mut row = [0u64; MAX_SOURCES];
                for (i, d) in dst[..rows].iter_mut().enumerate() {
                    for (r, col) in row.iter_mut().zip(sources) {
                        *r = col[i];
                    }
                    *d = p.eval(&row[..sources.len()]).bits;
                }
                Ok(0)
            }
        }
    }
}

/// A form prepared for many batches: [`Conversion::eval_batch`] with what
/// each call would work out done once (for a packed-source form whose lanes
/// take 16 bits or fewer, a table of the destination lane of every source
/// lane value, built by the lane's scalar form: its fast kernel where it
/// has one). Same bits as `eval_batch`.
#[derive(Clone, Debug)]
pub struct PreparedBatch {
    conv: Conversion,
    lanes: Option<packed::LaneTable>,
}

impl Conversion {
    /// The form prepared for [`PreparedBatch::eval`].
    pub fn prepare_batch(&self) -> PreparedBatch {
        PreparedBatch {
            conv: *self,
            lanes: match self {
                Conversion::Cvt(op) => packed::LaneTable::of(op),
                Conversion::Pack(_) => None,
            },
        }
    }
}

impl PreparedBatch {
    /// [`Conversion::eval_batch`] of the prepared form.
    pub fn eval(&self, sources: &[&[u64]], dst: &mut [u64]) -> Result<usize, EvalError> {
        match &self.lanes {
            Some(t) => {
                let rows = batch_rows(sources, dst, 1)?;
                Ok(t.eval(&sources[0][..rows], &mut dst[..rows]))
            }
            None => self.conv.eval_batch(sources, dst),
        }
    }
}

/// The most source operands a conversion takes (`x4` forms with `rbits`).
const MAX_SOURCES: usize = 5;

/// Rows per block where a batch works through a buffer of its own.
const BLOCK: usize = 256;

/// How many rows a batch over `sources` into `dst` has, once the operand
/// count is checked.
fn batch_rows(sources: &[&[u64]], dst: &[u64], expected: usize) -> Result<usize, EvalError> {
    if sources.len() != expected || expected > MAX_SOURCES {
        return Err(EvalError::OperandCount {
            expected,
            got: sources.len(),
        });
    }
    Ok(sources.iter().map(|c| c.len()).fold(dst.len(), usize::min))
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

    /// The form's fast kernel (`fast.rs`), where it has one: a narrowing
    /// float-to-float form with a scalar source and destination.
    pub fn kernel(&self) -> Option<FastKernel> {
        match (self.dst, self.src) {
            (Format::Float(d), Format::Float(s)) if !(self.integer_rounding && d == s) => {
                fast::narrowing(&s, &d, self.round.unwrap_or(Round::NearestEven), self.mods)
            }
            _ => None,
        }
    }

    /// [`CvtOp::eval_scalar`]'s bits for every `src[i]`, into `dst[i]`:
    /// through the form's fast kernel where it has one, otherwise through
    /// the generic conversion with its formats chosen once for the slice.
    pub fn eval_scalar_batch(&self, src: &[u64], dst: &mut [u64]) {
        match self.kernel() {
            Some(k) => k.run(src, dst),
            None => self.eval_scalar_batch_generic(src, dst),
        }
    }

    /// [`CvtOp::eval_scalar_batch`] without the fast kernel: the generic
    /// conversion, its formats chosen once for the slice (for forms with no
    /// kernel, and to check and time the kernels against).
    pub fn eval_scalar_batch_generic(&self, src: &[u64], dst: &mut [u64]) {
        let round = self.round.unwrap_or(Round::NearestEven);
        let mask = mask(self.src.width());
        let m = self.mods;
        match (self.dst, self.src) {
            (Format::Int(d), Format::Int(s)) => {
                for (o, &a) in dst.iter_mut().zip(src) {
                    *o = convert::int_to_int(s, d, a & mask, m.sat).bits;
                }
            }
            (Format::Int(d), Format::Float(s)) => {
                dispatch::float_to_int_batch(&s, d, src, mask, dst, round, m)
            }
            (Format::Float(d), Format::Int(s)) => {
                dispatch::int_to_float_batch(s, &d, src, mask, dst, round, m)
            }
            (Format::Float(d), Format::Float(s)) => {
                if self.integer_rounding && d == s {
                    dispatch::float_to_integral_batch(&d, src, mask, dst, round, m)
                } else {
                    dispatch::float_to_float_batch(&s, &d, src, mask, dst, round, m)
                }
            }
            _ => {
                for (o, &a) in dst.iter_mut().zip(src) {
                    *o = self.eval_scalar(a).bits;
                }
            }
        }
    }

    /// [`CvtOp::eval`] over rows given as columns, as
    /// [`Conversion::eval_batch`] describes. Forms with scalar operands go
    /// through [`CvtOp::eval_scalar_batch`]; forms that pack lanes converted
    /// from scalar sources (`cvt.rn.f16x2.f32 d, a, b`) convert each column
    /// that way as a scalar form and place the lanes; forms with a packed
    /// source convert each lane of the source that way (`packed.rs`); the
    /// `.rs` forms go row by row.
    pub fn eval_batch(&self, sources: &[&[u64]], dst: &mut [u64]) -> Result<usize, EvalError> {
        let rows = batch_rows(sources, dst, self.source_count())?;
        let dst = &mut dst[..rows];
        match (self.dst, self.src) {
            (
                Format::Pack {
                    of,
                    lanes,
                    lane_bits,
                },
                Format::Float(_),
            ) if !self.stochastic() => {
                let lane_op = CvtOp {
                    dst: Format::Float(of),
                    integer_rounding: false,
                    ..*self
                };
                let m = mask(lane_bits);
                let mut buf = [0u64; BLOCK];
                for start in (0..rows).step_by(BLOCK) {
                    let end = (start + BLOCK).min(rows);
                    let out = &mut dst[start..end];
                    out.fill(0);
                    for (lane, col) in sources.iter().enumerate() {
                        let shift = (lanes as usize - 1 - lane) as u32 * lane_bits;
                        let b = &mut buf[..end - start];
                        lane_op.eval_scalar_batch(&col[start..end], b);
                        for (o, &v) in out.iter_mut().zip(b.iter()) {
                            *o |= (v & m) << shift;
                        }
                    }
                }
                Ok(0)
            }
            (Format::Pack { .. }, Format::Pack { .. }) if !self.stochastic() => {
                Ok(packed::source_batch(self, &sources[0][..rows], dst))
            }
            (Format::Pack { .. }, _) => {
                let mut undefined = 0;
                let mut row = [0u64; MAX_SOURCES];
                for (i, d) in dst.iter_mut().enumerate() {
                    for (r, col) in row.iter_mut().zip(sources) {
                        *r = col[i];
                    }
                    *d = match self.eval(&row[..sources.len()]) {
                        Ok(c) => c.bits,
                        Err(_) => {
                            undefined += 1;
                            0
                        }
                    };
                }
                Ok(undefined)
            }
            _ => {
                self.eval_scalar_batch(&sources[0][..rows], dst);
                Ok(0)
            }
        }
    }
}

/// Extends a result to a destination register of `reg_bits` (PTX ISA
/// 9.7.9.21, Notes): "The result of conversion is sign-extended to the
/// destination register width for signed integers, and is zero-extended to
/// the destination register width for unsigned, bit-size, and
/// floating-point types."
#[inline]
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
mod fast_tests;
#[cfg(test)]
mod tests;
