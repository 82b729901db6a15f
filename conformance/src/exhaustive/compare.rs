//! The model's side of `conform exhaustive`: an implementation's outputs
//! for a chunk of consecutive inputs, compared with the model's on every
//! CPU core. The threads take pieces of the chunk in turn and compare each
//! a block at a time against the model's prepared batch (bits only; the
//! fast kernels, or a table of lane values for a packed source); a block
//! that differs anywhere is narrowed row by row, each differing row checked
//! again through the per-value model under its don't-care mask. The
//! comparing loop is compiled for AVX2 as well, and takes that code where
//! the CPU has it.

use ptx_gen::cvt_forms::CvtForm;
use ptx_gen::suite::cvt::split_input;
use ptx_semantics::cvt::format::Format;
use ptx_semantics::cvt::{Conversion, PreparedBatch};

/// Rows the model evaluates at a time.
const BLOCK: usize = 1024;

/// Blocks a comparing thread takes at a time.
const PIECE: usize = 16;

/// A form under exhaustive test.
pub struct Swept {
    pub form: CvtForm,
    /// Each source operand's field of an input index (shift, width).
    pub fields: Vec<(u32, u32)>,
    /// Bytes per output row (the destination register).
    pub row: usize,
    /// The model's batches, prepared once.
    pub batch: PreparedBatch,
}

impl Swept {
    /// The form with the fields of its inputs, its rows
    /// `form.dest_reg / 8` bytes.
    pub fn new(form: CvtForm, fields: Vec<(u32, u32)>) -> Swept {
        Swept {
            row: form.dest_reg as usize / 8,
            batch: form.conv.prepare_batch(),
            form,
            fields,
        }
    }

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
/// model on `threads` threads, keeping at most `keep` examples. The
/// threads take pieces of [`PIECE`] blocks in turn (stretches of NaNs,
/// which take the model longer, are shared out).
pub fn chunk(s: &Swept, first: u64, out: &[u8], threads: usize, keep: usize) -> Tally {
    let rows = out.len() / s.row;
    let piece = PIECE * BLOCK;
    let pieces = rows.div_ceil(piece);
    let threads = threads.clamp(1, pieces.max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let next = &next;
                scope.spawn(move || {
                    let mut t = Tally::default();
                    let mut c = Comparer::new(s);
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if k >= pieces {
                            break t;
                        }
                        let lo = k * piece;
                        c.rows(first, out, lo..(lo + piece).min(rows), keep, &mut t);
                    }
                })
            })
            .collect();
        let mut total = Tally::default();
        for h in handles {
            // a thread that panicked compared nothing: its rows count as
            // neither passed nor failed, and the caller sees the shortfall
            if let Ok(t) = h.join() {
                total.compared += t.compared;
                total.undefined += t.undefined;
                total.mismatches += t.mismatches;
                // each thread's examples are its first, so the first of
                // all are among them
                total.examples.extend(t.examples);
            }
        }
        total.examples.sort_by_key(|m| m.input);
        total.examples.truncate(keep);
        total
    })
}

/// How the model's result bits become the destination register's value
/// (`CvtForm::register`), worked out once for a form.
#[derive(Clone, Copy)]
enum Register {
    /// Zero-extended: the result's own bits (a mask of its width).
    Bits(u64),
    /// A signed integer in a wider register: value by value.
    SignExtended,
}

impl Register {
    fn of(form: &CvtForm) -> Register {
        match &form.conv {
            Conversion::Cvt(op) => match op.dst {
                Format::Int(i) if i.signed && form.dest_reg > i.bits => Register::SignExtended,
                dst => Register::Bits(u64::MAX >> (64 - dst.width())),
            },
            Conversion::Pack(_) => Register::Bits(u64::MAX),
        }
    }
}

/// Output row `i` of `rows` (`N` bytes each, little-endian).
#[inline(always)]
fn row<const N: usize>(rows: &[u8], i: usize) -> u64 {
    let mut b = [0u8; 8];
    b[..N].copy_from_slice(&rows[i * N..i * N + N]);
    u64::from_le_bytes(b)
}

/// One thread's buffers for comparing blocks of rows.
struct Comparer<'a> {
    s: &'a Swept,
    columns: Vec<Vec<u64>>,
    expected: Vec<u64>,
    operands: Vec<u64>,
    register: Register,
}

impl<'a> Comparer<'a> {
    fn new(s: &'a Swept) -> Comparer<'a> {
        Comparer {
            s,
            columns: vec![vec![0u64; BLOCK]; s.fields.len()],
            expected: vec![0u64; BLOCK],
            operands: vec![0u64; s.fields.len()],
            register: Register::of(&s.form),
        }
    }

    /// Compares rows `rows` of a chunk into `t`, as AVX2 code where the
    /// CPU has it.
    fn rows(
        &mut self,
        first: u64,
        out: &[u8],
        rows: std::ops::Range<usize>,
        keep: usize,
        t: &mut Tally,
    ) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            return unsafe { self.rows_avx2(first, out, rows, keep, t) };
        }
        self.rows_any(first, out, rows, keep, t)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn rows_avx2(
        &mut self,
        first: u64,
        out: &[u8],
        rows: std::ops::Range<usize>,
        keep: usize,
        t: &mut Tally,
    ) {
        self.rows_any(first, out, rows, keep, t)
    }

    #[inline(always)]
    fn rows_any(
        &mut self,
        first: u64,
        out: &[u8],
        rows: std::ops::Range<usize>,
        keep: usize,
        t: &mut Tally,
    ) {
        match self.s.row {
            1 => self.rows_of::<1>(first, out, rows, keep, t),
            2 => self.rows_of::<2>(first, out, rows, keep, t),
            4 => self.rows_of::<4>(first, out, rows, keep, t),
            8 => self.rows_of::<8>(first, out, rows, keep, t),
            n => unreachable!("a destination register of {n} bytes"),
        }
    }

    /// [`Comparer::rows`] for rows of `N` bytes: a block at a time, the
    /// model's batch (bits only) against the rows; a block that differs
    /// anywhere is narrowed row by row.
    #[inline(always)]
    fn rows_of<const N: usize>(
        &mut self,
        first: u64,
        out: &[u8],
        rows: std::ops::Range<usize>,
        keep: usize,
        t: &mut Tally,
    ) {
        let s = self.s;
        let mut start = rows.start;
        while start < rows.end {
            let n = (rows.end - start).min(BLOCK);
            let base = first + start as u64;
            for (col, &(shift, width)) in self.columns.iter_mut().zip(&s.fields) {
                let m = (1u64 << width) - 1;
                for (i, v) in col[..n].iter_mut().enumerate() {
                    *v = ((base + i as u64) >> shift) & m;
                }
            }
            let cols: Vec<&[u64]> = self.columns.iter().map(|c| &c[..n]).collect();
            let want = &mut self.expected[..n];
            // rows the model leaves undefined get 0 (and so go to the
            // per-value model below, which skips them)
            let undefined = match s.batch.eval(&cols, want) {
                Ok(u) => u,
                Err(_) => {
                    want.fill(0);
                    n
                }
            };
            let got = &out[start * N..(start + n) * N];
            let differ = match self.register {
                Register::Bits(m) => {
                    let mut d = 0;
                    for (i, w) in want.iter_mut().enumerate() {
                        *w &= m;
                        d |= row::<N>(got, i) ^ *w;
                    }
                    d
                }
                Register::SignExtended => want.iter_mut().enumerate().fold(0, |d, (i, w)| {
                    *w = s.form.register(*w);
                    d | (row::<N>(got, i) ^ *w)
                }),
            };
            t.undefined += undefined as u64;
            t.compared += (n - undefined) as u64;
            if differ != 0 {
                for (i, &w) in want.iter().enumerate() {
                    let got = row::<N>(got, i);
                    if w == got {
                        continue;
                    }
                    // the per-value model: undefined rows are not
                    // compared, and unspecified bits are masked
                    let x = base + i as u64;
                    split_input(&s.fields, x, &mut self.operands);
                    let Some((expected, mask)) = s.form.model(&self.operands) else {
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
            }
            start += n;
        }
    }
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
        Swept::new(form, fields)
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

    /// Rows of 2, 4 and 8 bytes, a sign-extended register, a packed source
    /// and inputs the model leaves undefined: outputs as the model gives
    /// them (anything in undefined rows) agree; one changed bit in the
    /// register, its high bytes included, is one mismatch.
    #[test]
    fn every_row_width_register_and_undefined_input() {
        for (text, first, n) in [
            ("cvt.rzi.s8.f32", 0xc2ff_f000u64, 20_000u64),
            ("cvt.f64.f32", 0x7f7f_f000, 20_000),
            ("cvt.rn.satfinite.e4m3x2.f16x2", 0x3c00_0000, 70_000),
            ("cvt.rn.f16x2.e2m3x2", 0, 1 << 16),
        ] {
            let s = swept(text);
            let mut out = Vec::new();
            let mut undefined = 0;
            let mut defined = Vec::new();
            for x in first..first + n {
                let v = match s.form.model(&s.operands(x)) {
                    Some((v, _)) => {
                        defined.push(x);
                        v
                    }
                    None => {
                        undefined += 1;
                        0xabab_abab_abab_abab
                    }
                };
                out.extend_from_slice(&v.to_le_bytes()[..s.row]);
            }
            let t = chunk(&s, first, &out, 3, 10);
            assert_eq!(
                (t.compared, t.undefined, t.mismatches),
                (n - undefined, undefined, 0),
                "{text}"
            );
            // the top bit of a defined row's register (a sign extension's,
            // or the high lane's)
            let x = defined[defined.len() / 2];
            let i = (x - first) as usize * s.row + s.row - 1;
            out[i] ^= 0x80;
            let t = chunk(&s, first, &out, 3, 10);
            assert_eq!(t.mismatches, 1, "{text}");
            assert_eq!(t.examples[0].input, x, "{text}");
        }
        assert!(swept("cvt.rn.f16x2.e2m3x2").form.model(&[0xc0]).is_none());
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
