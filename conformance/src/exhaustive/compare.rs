//! The model's side of `conform exhaustive`: an implementation's outputs
//! for a chunk of consecutive inputs, compared with the model's on every
//! CPU core. Each thread takes a stretch of the chunk and compares it a
//! block at a time against the model's batch (bits only); a block that
//! differs anywhere is narrowed row by row, each differing row checked
//! again through the per-value model under its don't-care mask.

use ptx_gen::cvt_forms::{Batch, CvtForm};
use ptx_gen::suite::cvt::split_input;

/// Rows the model evaluates at a time.
const BLOCK: usize = 4096;

/// A form under exhaustive test.
pub struct Swept {
    pub form: CvtForm,
    /// Each source operand's field of an input index (shift, width).
    pub fields: Vec<(u32, u32)>,
    /// Bytes per output row (the destination register).
    pub row: usize,
}

impl Swept {
    /// The number of inputs: 2 to the sources' total width.
    pub fn inputs(&self) -> u64 {
        1u64 << self.fields.iter().map(|&(_, w)| w).sum::<u32>()
    }

    /// The source operands of input `x`.
    pub fn operands(&self, x: u64) -> Vec<u64> {
        let mut row = vec![0; self.fields.len()];
        split_input(&self.fields, x, &mut row);
        row
    }

    /// Output row `i` of `out`, little-endian.
    fn actual(&self, out: &[u8], i: usize) -> u64 {
        let mut b = [0u8; 8];
        b[..self.row].copy_from_slice(&out[i * self.row..(i + 1) * self.row]);
        u64::from_le_bytes(b)
    }
}

/// An input whose output differs from the model's outside the don't-care
/// mask.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub input: u64,
    pub expected: u64,
    /// Bits the model leaves unspecified (not compared).
    pub mask: u64,
    pub actual: u64,
}

/// What a comparison found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Inputs whose output was compared with the model's.
    pub compared: u64,
    /// Inputs the model leaves undefined (not compared).
    pub undefined: u64,
    pub mismatches: u64,
    /// The first mismatches, in input order.
    pub examples: Vec<Mismatch>,
}

impl Tally {
    /// Adds `other`, which follows `self` in input order, keeping at most
    /// `keep` examples.
    pub fn merge(&mut self, other: Tally, keep: usize) {
        self.compared += other.compared;
        self.undefined += other.undefined;
        self.mismatches += other.mismatches;
        let room = keep.saturating_sub(self.examples.len());
        self.examples.extend(other.examples.into_iter().take(room));
    }
}

/// Compares `out` (row `i` the output for input `first + i`) with the
/// model on `threads` threads, keeping at most `keep` examples.
pub fn chunk(s: &Swept, first: u64, out: &[u8], threads: usize, keep: usize) -> Tally {
    let rows = out.len() / s.row;
    let threads = threads.clamp(1, rows.div_ceil(BLOCK).max(1));
    let share = rows.div_ceil(threads).div_ceil(BLOCK) * BLOCK;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let lo = (t * share).min(rows);
                let hi = ((t + 1) * share).min(rows);
                scope.spawn(move || stretch(s, first, out, lo..hi, keep))
            })
            .collect();
        let mut total = Tally::default();
        for h in handles {
            // a thread that panicked compared nothing: its rows count as
            // neither passed nor failed, and the caller sees the shortfall
            if let Ok(t) = h.join() {
                total.merge(t, keep);
            }
        }
        total
    })
}

/// Compares rows `rows` of a chunk.
fn stretch(s: &Swept, first: u64, out: &[u8], rows: std::ops::Range<usize>, keep: usize) -> Tally {
    let mut t = Tally::default();
    let mut batch = Batch::new(&s.form, BLOCK);
    let mut operands = vec![0u64; s.fields.len()];
    let mut start = rows.start;
    while start < rows.end {
        let n = (rows.end - start).min(BLOCK);
        let base = first + start as u64;
        let undefined = batch.eval(&s.form, base, n, |x, j| {
            let (shift, width) = s.fields[j];
            (x >> shift) & ((1u64 << width) - 1)
        });
        t.undefined += undefined as u64;
        t.compared += (n - undefined) as u64;
        for (i, &want) in batch.registers[..n].iter().enumerate() {
            let got = s.actual(out, start + i);
            if want == got {
                continue;
            }
            // the per-value model: undefined rows are not compared, and
            // unspecified bits are masked
            let x = base + i as u64;
            split_input(&s.fields, x, &mut operands);
            let Some((expected, mask)) = s.form.model(&operands) else {
                continue;
            };
            if (expected ^ got) & !mask == 0 {
                continue;
            }
            t.mismatches += 1;
            if t.examples.len() < keep {
                t.examples.push(Mismatch {
                    input: x,
                    expected,
                    mask,
                    actual: got,
                });
            }
        }
        start += n;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn swept(text: &str) -> Swept {
        let (form, _) = ptx_gen::suite::cvt::all_forms()
            .into_iter()
            .find(|(f, _)| f.text == text)
            .expect(text);
        let fields = ptx_gen::suite::cvt::sweep_fields(&form).expect("32 bits or fewer");
        let row = form.dest_reg as usize / 8;
        Swept { form, fields, row }
    }

    /// `half`'s `cvt.rn.f16.f32` (round to nearest even, as F16C does) for
    /// the finite inputs `range`, as an implementation's output buffer.
    fn half_outputs(range: std::ops::Range<u32>) -> Vec<u8> {
        range
            .flat_map(|x| {
                half::f16::from_f32(f32::from_bits(x))
                    .to_bits()
                    .to_le_bytes()
            })
            .collect()
    }

    /// Around 1.0, the `.f16` maximum and the subnormals, of both signs
    /// (no NaN, whose payload rules `half` does not follow).
    const STARTS: [u32; 4] = [0x3f7f_8000, 0x477f_8000, 0x3380_0000, 0x0000_0000];

    #[test]
    fn agrees_with_an_independent_reference() {
        let s = swept("cvt.rn.f16.f32");
        for start in STARTS {
            for sign in [0, 0x8000_0000] {
                let first = start | sign;
                let out = half_outputs(first..first + 0x10000);
                let t = chunk(&s, first as u64, &out, 2, 10);
                assert_eq!(t.compared, 0x10000, "{first:#x}");
                assert_eq!(t.mismatches, 0, "{first:#x}: {:x?}", t.examples);
            }
        }
    }

    #[test]
    fn narrows_to_the_changed_outputs() {
        let s = swept("cvt.rn.f16.f32");
        let first = 0x3f7f_8000u32;
        let mut out = half_outputs(first..first + 0x10000);
        // 1.0 and the largest f32 below 1.0 + 2^-11 (which rounds to 1.0)
        let changed = [0x3f80_0000u32, 0x3f80_0fff];
        for x in changed {
            let i = (x - first) as usize * 2;
            out[i] ^= 1;
        }
        let t = chunk(&s, first as u64, &out, 2, 10);
        assert_eq!(t.mismatches, 2);
        let inputs: Vec<u64> = t.examples.iter().map(|m| m.input).collect();
        assert_eq!(inputs, changed.map(u64::from));
        for m in &t.examples {
            assert_eq!(m.expected, 0x3c00, "1.0 in .f16");
            assert_eq!(m.actual, 0x3c01);
            assert_eq!(m.mask, 0);
        }
        // fewer examples kept than found: the count stays whole
        let t = chunk(&s, first as u64, &out, 2, 1);
        assert_eq!((t.mismatches, t.examples.len()), (2, 1));
        assert_eq!(t.examples[0].input, 0x3f80_0000);
    }

    #[test]
    fn splits_chunks_of_any_length_over_any_thread_count() {
        let s = swept("cvt.rn.f16.f32");
        let first = 0x3f7f_f000u32;
        for (n, threads) in [(1u32, 1usize), (5, 3), (4097, 2), (12_289, 5)] {
            let mut out = half_outputs(first..first + n);
            let last = (n - 1) as usize * 2;
            out[last + 1] ^= 0x80;
            let t = chunk(&s, first as u64, &out, threads, 10);
            assert_eq!(t.compared, n as u64, "{n} on {threads}");
            assert_eq!(t.mismatches, 1, "{n} on {threads}");
            assert_eq!(t.examples[0].input, (first + n - 1) as u64);
        }
    }

    /// "For `cvt.f32.bf16`, `NaN` input yields unspecified `NaN`" (PTX ISA
    /// 9.7.9.21): a changed bit the model leaves unspecified is not a
    /// mismatch; a changed bit anywhere else is.
    #[test]
    fn unspecified_bits_are_not_compared() {
        let s = swept("cvt.f32.bf16");
        assert_eq!(s.inputs(), 1 << 16);
        let mut out = Vec::new();
        for x in 0..s.inputs() {
            let (v, _) = s.form.model(&s.operands(x)).expect("defined");
            out.extend_from_slice(&v.to_le_bytes()[..s.row]);
        }
        let clean = chunk(&s, 0, &out, 2, 10);
        assert_eq!((clean.compared, clean.mismatches), (1 << 16, 0));
        let nan = 0x7fc1u64;
        let (_, mask) = s.form.model(&s.operands(nan)).expect("defined");
        assert_ne!(mask, 0, "a NaN's payload is unspecified");
        let bit = mask.trailing_zeros() as usize;
        out[nan as usize * s.row + bit / 8] ^= 1 << (bit % 8);
        assert_eq!(chunk(&s, 0, &out, 2, 10).mismatches, 0);
        // 1.0 (0x3f80) with its lowest bit changed
        out[0x3f80 * s.row] ^= 1;
        let t = chunk(&s, 0, &out, 2, 10);
        assert_eq!(t.mismatches, 1);
        assert_eq!(
            (t.examples[0].input, t.examples[0].expected),
            (0x3f80, 0x3f80_0000)
        );
    }
}
