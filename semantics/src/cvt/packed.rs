//! Batches of the packed-source forms (`cvt.rn.satfinite.e4m3x2.f16x2`,
//! `cvt.rn.f16x2.e4m3x2`, `cvt.rz.ue8m0x2.bf16x2`, ...): the same bits as
//! `CvtOp::eval` row by row, a lane at a time. Each lane of the source
//! converts as the scalar form of its lane pair (`CvtOp::eval_scalar`'s
//! bits): over a block of rows through the pair's fast kernel (`fast.rs`)
//! where it has one, else the generic conversion with its formats chosen
//! once; or by looking the lane up in a table of every lane value that the
//! same scalar form built ([`LaneTable`]: per call for lanes of 8 bits,
//! once per [`super::PreparedBatch`] for lanes of 16). `fast_tests.rs`
//! holds both ways to `eval`.

use super::format::Format;
use super::{mask, CvtOp, BLOCK};

/// A packed-source form (no `.rs`) as a table: the destination lane of
/// every source lane value, and how lanes sit in a row.
#[derive(Clone, Debug)]
pub(super) struct LaneTable {
    /// Indexed by a source lane's bits: the destination lane's bits.
    table: Vec<u16>,
    lanes: u32,
    /// Source and destination lane widths in a row.
    sl: u32,
    dl: u32,
    /// Bits of a row that no lane value may have set: a lane value that
    /// does not fit its format (an `.e2m3` lane with its 2 MSBs set) makes
    /// the row undefined (`FP6_INPUT_CLAUSE`).
    spare: u64,
}

/// The parts of a packed-source form: the scalar form of its lanes, the
/// lane count, and the source and destination lane widths.
fn lanes_of(op: &CvtOp) -> Option<(CvtOp, u32, u32, u32, u64)> {
    let (
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
    ) = (op.dst, op.src)
    else {
        return None;
    };
    if op.stochastic() {
        return None;
    }
    let lane_op = CvtOp {
        dst: Format::Float(d),
        src: Format::Float(s),
        integer_rounding: false,
        ..*op
    };
    let spare = if s.width() < sl {
        (0..lanes).fold(0, |m, k| m | (mask(sl) & !mask(s.width())) << (k * sl))
    } else {
        0
    };
    Some((lane_op, lanes, sl, dl, spare))
}

impl LaneTable {
    /// The table of a packed-source form whose lanes take 16 bits or fewer
    /// on both sides; `None` for other forms.
    pub(super) fn of(op: &CvtOp) -> Option<LaneTable> {
        let (lane_op, lanes, sl, dl, spare) = lanes_of(op)?;
        if sl > 16 || dl > 16 {
            return None;
        }
        let values: Vec<u64> = (0..1u64 << sl).collect();
        let mut converted = vec![0u64; values.len()];
        lane_op.eval_scalar_batch(&values, &mut converted);
        Some(LaneTable {
            table: converted.iter().map(|&v| (v & mask(dl)) as u16).collect(),
            lanes,
            sl,
            dl,
            spare,
        })
    }

    /// `dst[i]` from `src[i]` (rows past the shorter are left alone);
    /// returns the number of undefined rows, which get 0.
    pub(super) fn eval(&self, src: &[u64], dst: &mut [u64]) -> usize {
        let t = &self.table[..];
        // the lane widths of the catalogue's x2 forms as constants (code
        // of their own, no bounds checks); any other layout value by value
        let done = self.lanes == 2
            && match (self.sl, self.dl) {
                (16, 8) => two::<16, 8, { 1 << 16 }>(t, src, dst),
                (16, 16) => two::<16, 16, { 1 << 16 }>(t, src, dst),
                (8, 16) => two::<8, 16, { 1 << 8 }>(t, src, dst),
                (8, 8) => two::<8, 8, { 1 << 8 }>(t, src, dst),
                (4, 16) => two::<4, 16, { 1 << 4 }>(t, src, dst),
                _ => false,
            };
        if !done {
            let (sl, dl, lane) = (self.sl, self.dl, mask(self.sl));
            for (o, &x) in dst.iter_mut().zip(src) {
                *o = (0..self.lanes).fold(0, |acc, k| {
                    acc | (t[((x >> (k * sl)) & lane) as usize] as u64) << (k * dl)
                });
            }
        }
        if self.spare == 0 {
            return 0;
        }
        let mut undefined = 0;
        for (o, &x) in dst.iter_mut().zip(src) {
            if x & self.spare != 0 {
                *o = 0;
                undefined += 1;
            }
        }
        undefined
    }
}

/// [`LaneTable::eval`]'s lookups for two lanes of `SL` bits to two of
/// `DL` bits, `t` holding `LEN` (2^`SL`) entries; false if it does not.
#[inline(always)]
fn two<const SL: u32, const DL: u32, const LEN: usize>(
    t: &[u16],
    src: &[u64],
    dst: &mut [u64],
) -> bool {
    let Ok(t) = <&[u16; LEN]>::try_from(t) else {
        return false;
    };
    for (o, &x) in dst.iter_mut().zip(src) {
        let lo = t[x as usize & (LEN - 1)] as u64;
        let hi = t[(x >> SL) as usize & (LEN - 1)] as u64;
        *o = lo | hi << DL;
    }
    true
}

/// `op` (a packed-source form, no `.rs`) over `src` (one row each) into
/// `dst` (rows past the shorter are left alone); returns the number of
/// undefined rows, which get 0. Lanes of 8 bits or fewer go through a
/// [`LaneTable`] built here where the batch has more lane values than the
/// table; the rest a lane at a time over blocks of rows.
pub(super) fn source_batch(op: &CvtOp, src: &[u64], dst: &mut [u64]) -> usize {
    let Some((lane_op, lanes, sl, dl, spare)) = lanes_of(op) else {
        unreachable!("a packed-source form without .rs");
    };
    let rows = src.len().min(dst.len());
    let (src, dst) = (&src[..rows], &mut dst[..rows]);
    if sl <= 8 && rows * lanes as usize >= 1 << sl {
        if let Some(t) = LaneTable::of(op) {
            return t.eval(src, dst);
        }
    }
    let kernel = lane_op.kernel();
    let mut column = [0u64; BLOCK];
    let mut converted = [0u64; BLOCK];
    for (s_block, d_block) in src.chunks(BLOCK).zip(dst.chunks_mut(BLOCK)) {
        let n = s_block.len();
        let (column, converted) = (&mut column[..n], &mut converted[..n]);
        d_block.fill(0);
        for k in 0..lanes {
            for (c, &x) in column.iter_mut().zip(s_block) {
                *c = (x >> (k * sl)) & mask(sl);
            }
            match kernel {
                Some(kernel) => kernel.run(column, converted),
                None => lane_op.eval_scalar_batch_generic(column, converted),
            }
            for (o, &v) in d_block.iter_mut().zip(converted.iter()) {
                *o |= (v & mask(dl)) << (k * dl);
            }
        }
    }
    if spare == 0 {
        return 0;
    }
    let mut undefined = 0;
    for (o, &x) in dst.iter_mut().zip(src) {
        if x & spare != 0 {
            *o = 0;
            undefined += 1;
        }
    }
    undefined
}
