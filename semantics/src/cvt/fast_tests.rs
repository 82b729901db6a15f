//! The fast paths against the generic path, bit for bit: every fast kernel
//! (each pair, rounding mode and modifier set `fast.rs` has) over every
//! input of a 16-bit source, or over the edge set and a seeded sample of a
//! 32- or 64-bit source; and the batch API (`eval_batch`,
//! `eval_scalar_batch`) against `eval` row by row for every kind of form.
//! The exhaustive 2^32 comparison of the `.f32`-source forms is an ignored
//! test (`cargo test --release -p ptx-semantics exhaustive -- --ignored`).

use super::format::{by_id, id, FloatFormat, Format};
use super::*;
use crate::catalogue::Catalogue;

const ROUNDS: [Round; 5] = [
    Round::NearestEven,
    Round::NearestAway,
    Round::TowardZero,
    Round::Down,
    Round::Up,
];

/// The modifier sets the kernels have: none, `.ftz`, `.sat`, `.ftz.sat`,
/// `.relu`, `.satfinite`, `.relu.satfinite`.
fn modifier_sets() -> Vec<Modifiers> {
    let m = |ftz, sat, relu, satfinite| Modifiers {
        ftz,
        sat,
        relu,
        satfinite,
    };
    vec![
        m(false, false, false, false),
        m(true, false, false, false),
        m(false, true, false, false),
        m(true, true, false, false),
        m(false, false, true, false),
        m(false, false, false, true),
        m(false, false, true, true),
    ]
}

/// The pairs with kernels (`fast::narrowing`).
const PAIRS: [(u8, u8); 10] = [
    (id::F32, id::F16),
    (id::F32, id::BF16),
    (id::F32, id::TF32),
    (id::F32, id::E4M3),
    (id::F32, id::E5M2),
    (id::F64, id::F32),
    (id::F64, id::F16),
    (id::F64, id::BF16),
    (id::F16, id::E4M3),
    (id::F16, id::E5M2),
];

fn scalar_op(src: FloatFormat, dst: FloatFormat, round: Round, mods: Modifiers) -> CvtOp {
    CvtOp {
        dst: Format::Float(dst),
        src: Format::Float(src),
        round: Some(round),
        integer_rounding: false,
        mods,
    }
}

/// Every kernel `fast.rs` has, as the scalar form it stands for.
fn kernel_forms() -> Vec<CvtOp> {
    let mut out = Vec::new();
    for (s, d) in PAIRS {
        for round in ROUNDS {
            for mods in modifier_sets() {
                out.push(scalar_op(by_id(s), by_id(d), round, mods));
            }
        }
    }
    out
}

/// Encodings of `fmt` at every rounding threshold: for every biased
/// exponent (or, for `.f64`, those near the narrow formats' ranges and the
/// extremes), significands whose bits below each rounding position a
/// kernel from `fmt` has are 0, 1, one half minus one, one half, one half
/// plus one and all ones, with the last kept bit odd and even, and with
/// every bit above it clear or set (carries into the exponent); both signs.
fn edge_set(fmt: &FloatFormat) -> Vec<u64> {
    let m = fmt.man_bits;
    let man_mask = (1u64 << m) - 1;
    let mut mans = vec![0, 1, man_mask];
    // Rounding positions: from the fewest bits a destination drops, to
    // below the implicit one and one more (values below one half).
    let fewest = PAIRS
        .iter()
        .filter(|(s, _)| *s == fmt.id)
        .map(|&(_, d)| m - by_id(d).man_bits)
        .min()
        .unwrap_or(1);
    for s in fewest..=(m + 2).min(63) {
        let half = 1u64 << (s - 1);
        for rem in [0, 1, half - 1, half, half + 1, (half << 1) - 1] {
            for lsb in [0, 1] {
                for high in [0, u64::MAX] {
                    let kept = if s < 64 { (high << s) | (lsb << s) } else { 0 };
                    mans.push((kept | rem) & man_mask);
                }
            }
        }
    }
    mans.sort_unstable();
    mans.dedup();
    let all_ones = (1u64 << fmt.exp_bits) - 1;
    let exps: Vec<u64> = if fmt.exp_bits <= 8 {
        (0..=all_ones).collect()
    } else {
        let bias = fmt.bias() as u64;
        (0..=6)
            .chain(bias - 170..bias + 140)
            .chain(all_ones - 6..=all_ones)
            .collect()
    };
    let mut out = Vec::with_capacity(exps.len() * mans.len() * 2);
    for &e in &exps {
        for &man in &mans {
            let v = (e << m) | man;
            out.push(v);
            out.push(v | fmt.sign_mask());
        }
    }
    out
}

/// A seeded sample: uniform bits, and (for `.f64`) values with exponents
/// near the narrow formats' ranges.
fn sample(fmt: &FloatFormat, count: usize, seed: u64) -> Vec<u64> {
    let mut x = seed | 1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let width_mask = u64::MAX >> (64 - fmt.width());
    (0..count)
        .map(|i| {
            let r = next();
            if fmt.exp_bits > 8 && i % 2 == 1 {
                let e = fmt.bias() as u64 - 160 + (r >> 54) % 300;
                (r & (fmt.sign_mask() | ((1 << fmt.man_bits) - 1))) | (e << fmt.man_bits)
            } else {
                r & width_mask
            }
        })
        .collect()
}

/// Inputs for a kernel's source: all of them for 16 bits, else the edge
/// set and a seeded sample. Each comes twice: in order (so that runs of
/// values share an exponent, and the kernels take their per-group path)
/// and shuffled (the per-value path).
fn inputs(fmt: &FloatFormat) -> Vec<u64> {
    let mut v: Vec<u64> = if fmt.width() <= 16 {
        (0..1u64 << fmt.width()).collect()
    } else {
        let mut v = edge_set(fmt);
        v.extend(sample(fmt, 1 << 16, 0x5eed_0000 ^ fmt.id as u64));
        v
    };
    let mut shuffled = v.clone();
    let mut x = 0x2545_f491_4f6c_dd1du64;
    for i in (1..shuffled.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        shuffled.swap(i, (x % (i as u64 + 1)) as usize);
    }
    v.extend(shuffled);
    v
}

fn describe(op: &CvtOp) -> String {
    format!(
        "{} -> {} {:?} {:?}",
        op.src.ptx_name(),
        op.dst.ptx_name(),
        op.round,
        op.mods
    )
}

/// One kernel against the generic path on `xs`; returns how many values
/// it checked.
fn check_kernel(op: &CvtOp, xs: &[u64]) -> usize {
    let kernel = op.kernel().unwrap_or_else(|| panic!("{}", describe(op)));
    let mut fast = vec![0u64; xs.len()];
    kernel.run(xs, &mut fast);
    for (&x, &f) in xs.iter().zip(&fast) {
        let g = op.eval_scalar(x);
        assert_eq!(g.unspecified, 0, "{} {x:#x}", describe(op));
        assert_eq!(
            f,
            g.bits,
            "{} on {x:#x}: fast {f:#x}, generic {:#x}",
            describe(op),
            g.bits
        );
    }
    xs.len()
}

#[test]
fn every_kernel_matches_the_generic_path() {
    let forms = kernel_forms();
    let sources: Vec<(u8, Vec<u64>)> = [id::F16, id::F32, id::F64]
        .iter()
        .map(|&s| (s, inputs(&by_id(s))))
        .collect();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let checked: usize = std::thread::scope(|s| {
        let hs: Vec<_> = (0..threads)
            .map(|t| {
                let (forms, sources) = (&forms, &sources);
                s.spawn(move || {
                    forms
                        .iter()
                        .skip(t)
                        .step_by(threads)
                        .map(|op| {
                            let Format::Float(src) = op.src else {
                                unreachable!()
                            };
                            let xs = &sources.iter().find(|(i, _)| *i == src.id).unwrap().1;
                            check_kernel(op, xs)
                        })
                        .sum::<usize>()
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).sum()
    });
    assert!(checked > 20_000_000, "{checked}");
}

#[test]
fn kernels_exist_for_the_hot_forms_only() {
    let op = |text: &str| {
        let b = Catalogue::get().resolve_text(text).unwrap();
        match Conversion::from_binding(&b).unwrap() {
            Conversion::Cvt(op) => op,
            Conversion::Pack(_) => panic!(),
        }
    };
    for text in [
        "cvt.rn.f16.f32",
        "cvt.rz.ftz.sat.f16.f32",
        "cvt.rm.ftz.bf16.f32",
        "cvt.rp.f32.f64",
        "cvt.rn.ftz.f32.f64",
        "cvt.rn.relu.satfinite.bf16.f32",
        "cvt.rna.satfinite.tf32.f32",
        "cvt.rz.sat.f16.f64",
    ] {
        assert!(op(text).kernel().is_some(), "{text}");
    }
    for text in [
        "cvt.f32.f16",
        "cvt.rni.f32.f32",
        "cvt.rzi.s32.f32",
        "cvt.rn.f16x2.f32",
        "cvt.rn.f32.s32",
        "cvt.f32.bf16",
    ] {
        assert!(op(text).kernel().is_none(), "{text}");
    }
}

/// Forms of every kind (scalar and packed, fast kernel or not, `.rs`,
/// undefined rows) through `eval_batch`, against `eval` row by row.
#[test]
fn batches_match_row_by_row_evaluation() {
    let forms = [
        "cvt.rn.f16.f32",
        "cvt.rm.ftz.sat.f16.f32",
        "cvt.rni.s32.f32",
        "cvt.rzi.sat.u8.f64",
        "cvt.rpi.ftz.s64.f32",
        "cvt.rmi.f32.f32",
        "cvt.rni.ftz.sat.f32.f32",
        "cvt.rn.f32.s64",
        "cvt.rz.f16.u16",
        "cvt.sat.s8.s32",
        "cvt.u64.s16",
        "cvt.f32.bf16",
        "cvt.ftz.f64.f32",
        "cvt.f32.f32",
        "cvt.rn.f16x2.f32",
        "cvt.rz.relu.satfinite.bf16x2.f32",
        "cvt.rn.satfinite.e4m3x2.f32",
        "cvt.rn.satfinite.relu.e5m2x2.f16x2",
        "cvt.rn.f16x2.e2m3x2",
        "cvt.rs.satfinite.e4m3x4.f32",
        "cvt.rs.relu.satfinite.f16x2.f32",
        "cvt.pack.sat.u8.s32.b32",
    ];
    for text in forms {
        let b = Catalogue::get()
            .resolve_text(text)
            .unwrap_or_else(|e| panic!("{text}: {e:?}"));
        let conv = Conversion::from_binding(&b).unwrap();
        let n = conv.source_count();
        let widths = conv.source_widths();
        let columns: Vec<Vec<u64>> = (0..n)
            .map(|j| {
                let fmt = by_id(if widths[j] > 32 { id::F64 } else { id::F32 });
                let mut c = sample(&fmt, 4000, 0xc01 + j as u64);
                c.extend((0..200u64).map(|i| i.wrapping_mul(0x0101_0101_0101_0101)));
                let mask = u64::MAX >> (64 - widths[j]);
                c.iter_mut().for_each(|v| *v &= mask);
                c
            })
            .collect();
        let cols: Vec<&[u64]> = columns.iter().map(|c| c.as_slice()).collect();
        let rows = cols[0].len();
        let mut out = vec![u64::MAX; rows];
        let undefined = conv.eval_batch(&cols, &mut out).unwrap();
        let mut want_undefined = 0;
        for (i, &o) in out.iter().enumerate() {
            let row: Vec<u64> = cols.iter().map(|c| c[i]).collect();
            let want = match conv.eval(&row) {
                Ok(c) => c.bits,
                Err(_) => {
                    want_undefined += 1;
                    0
                }
            };
            assert_eq!(o, want, "{text} on {row:x?}");
        }
        assert_eq!(undefined, want_undefined, "{text}");
    }
    // A wrong operand count is an error, not a panic.
    let b = Catalogue::get().resolve_text("cvt.rn.f16x2.f32").unwrap();
    let conv = Conversion::from_binding(&b).unwrap();
    assert!(conv.eval_batch(&[&[1]], &mut [0]).is_err());
}

/// Every packed-source form of the catalogue (`cvt.rn.satfinite.e4m3x2.f16x2`,
/// `cvt.rn.f16x2.e2m3x2`, `cvt.rz.ue8m0x2.bf16x2`, ...) through
/// `eval_batch` and `prepare_batch` (`packed.rs`), against `eval` row by
/// row: every input of a 16-bit source; for a 32-bit one, every value of
/// each lane beside eight values of the other lane, and a seeded sample.
/// Each set in order and shuffled; `eval_batch` in batches of several
/// lengths (so that the table path and the lane-by-lane path of 8-bit lanes
/// both run), the prepared form in one.
#[test]
fn packed_source_batches_match_row_by_row_evaluation() {
    let cat = Catalogue::get();
    let mut texts = Vec::new();
    for form in cat.forms.iter().filter(|f| f.row.instr == "cvt") {
        for text in form.spellings(&|_, _| true) {
            let Ok(b) = cat.resolve_text(&text) else {
                continue;
            };
            if let Ok(Conversion::Cvt(op)) = Conversion::from_binding(&b) {
                if matches!(op.src, Format::Pack { .. })
                    && !op.stochastic()
                    && !texts.contains(&text)
                {
                    texts.push(text);
                }
            }
        }
    }
    texts.sort();
    let mut checked = 0;
    for text in &texts {
        let b = cat.resolve_text(text).unwrap();
        let Ok(Conversion::Cvt(op)) = Conversion::from_binding(&b) else {
            unreachable!()
        };
        let Format::Pack { lane_bits, .. } = op.src else {
            unreachable!()
        };
        let width = op.src.width();
        let mut rows: Vec<u64> = if width <= 16 {
            (0..1u64 << width).collect()
        } else {
            assert_eq!((width, lane_bits), (32, 16), "{text}");
            // as .f16: the zeros, the smallest subnormal, 1.0, the largest
            // finite value, an infinity, NaNs
            let partners = [0, 0x8000, 0x0001, 0x3c00, 0x7bff, 0x7c00, 0x7e01, 0xffff];
            let mut v = Vec::new();
            for &p in &partners {
                v.extend((0..1u64 << 16).map(|x| x | p << 16));
                v.extend((0..1u64 << 16).map(|x| x << 16 | p));
            }
            v.extend(sample(&by_id(id::F32), 1 << 16, 0x9ac4 ^ width as u64));
            v
        };
        let mut shuffled = rows.clone();
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for i in (1..shuffled.len()).rev() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            shuffled.swap(i, (x % (i as u64 + 1)) as usize);
        }
        rows.extend(shuffled);
        let conv = Conversion::Cvt(op);
        let mut out = vec![u64::MAX; rows.len()];
        let mut undefined = 0;
        let mut start = 0;
        for len in [1usize, 3, 127, 128, 129, 300, 4096].into_iter().cycle() {
            if start == rows.len() {
                break;
            }
            let end = (start + len).min(rows.len());
            undefined += conv
                .eval_batch(&[&rows[start..end]], &mut out[start..end])
                .unwrap();
            start = end;
        }
        // the prepared form (a table of every lane value), in one batch
        let prepared = conv.prepare_batch();
        let mut whole = vec![u64::MAX; rows.len()];
        let prepared_undefined = prepared.eval(&[&rows], &mut whole).unwrap();
        let mut want_undefined = 0;
        for ((&x, &o), &p) in rows.iter().zip(&out).zip(&whole) {
            let want = match op.eval(&[x]) {
                Ok(c) => c.bits,
                Err(_) => {
                    want_undefined += 1;
                    0
                }
            };
            assert_eq!(o, want, "{text} on {x:#x}: batch {o:#x}, eval {want:#x}");
            assert_eq!(p, want, "{text} on {x:#x}: prepared {p:#x}, eval {want:#x}");
        }
        assert_eq!(undefined, want_undefined, "{text}");
        assert_eq!(prepared_undefined, want_undefined, "{text}");
        checked += rows.len();
    }
    // the forms of docs/status.md ("Conversions"): 4 from .f16x2, 4 from
    // .e4m3x2/.e5m2x2, 6 from the sub-byte formats, 5 with .ue8m0x2
    assert_eq!(texts.len(), 19, "{texts:?}");
    assert!(checked > 15_000_000, "{checked}");
}

/// Every `.f32`-source form with a fast kernel over all 2^32 inputs,
/// against the generic path (`CvtOp::eval_scalar_batch_generic`; the lanes
/// of the packed forms as scalar forms). Long: run it by
/// hand, `cargo test --release -p ptx-semantics exhaustive -- --ignored
/// --nocapture`.
#[test]
#[ignore]
fn exhaustive_f32_kernels_match_the_generic_path() {
    let forms = f32_forms_with_kernels();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()) as u64;
    let all = std::time::Instant::now();
    for op in &forms {
        let kernel = op.kernel().unwrap();
        let start = std::time::Instant::now();
        let bad = std::thread::scope(|s| {
            let hs: Vec<_> = (0..threads)
                .map(|t| {
                    s.spawn(move || {
                        const N: u64 = 4096;
                        let mut xs = vec![0u64; N as usize];
                        let mut fast = vec![0u64; N as usize];
                        let mut generic = vec![0u64; N as usize];
                        let mut bad = 0u64;
                        let mut base = t * N;
                        while base < 1 << 32 {
                            for (i, x) in xs.iter_mut().enumerate() {
                                *x = base + i as u64;
                            }
                            kernel.run(&xs, &mut fast);
                            op.eval_scalar_batch_generic(&xs, &mut generic);
                            for ((&x, &f), &g) in xs.iter().zip(&fast).zip(&generic) {
                                if f != g {
                                    if bad < 4 {
                                        eprintln!("{} on {x:#x}: {f:#x} vs {g:#x}", describe(op));
                                    }
                                    bad += 1;
                                }
                            }
                            base += threads * N;
                        }
                        bad
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).sum::<u64>()
        });
        eprintln!(
            "{}: 2^32 inputs, {bad} differences, {:.1} s",
            describe(op),
            start.elapsed().as_secs_f64()
        );
        assert_eq!(bad, 0, "{}", describe(op));
    }
    eprintln!(
        "{} forms, all 2^32 inputs each, no differences, {:.0} s",
        forms.len(),
        all.elapsed().as_secs_f64()
    );
}

/// The `.f32`-source forms of the catalogue with a fast kernel, as scalar
/// forms (a packed form by its lane).
fn f32_forms_with_kernels() -> Vec<CvtOp> {
    let mut texts = Vec::new();
    for r in ["rn", "rz", "rm", "rp"] {
        for m in ["", ".ftz", ".sat", ".ftz.sat"] {
            texts.push(format!("cvt.{r}{m}.f16.f32"));
        }
        for m in ["", ".ftz"] {
            texts.push(format!("cvt.{r}{m}.bf16.f32"));
        }
    }
    for r in ["rn", "rz"] {
        for m in [".relu", ".satfinite", ".relu.satfinite"] {
            texts.push(format!("cvt.{r}{m}.f16x2.f32"));
            texts.push(format!("cvt.{r}{m}.bf16x2.f32"));
        }
        for m in ["", ".satfinite", ".relu", ".satfinite.relu"] {
            texts.push(format!("cvt.{r}{m}.tf32.f32"));
        }
    }
    texts.push("cvt.rna.tf32.f32".into());
    texts.push("cvt.rna.satfinite.tf32.f32".into());
    for d in ["e4m3x2", "e5m2x2"] {
        texts.push(format!("cvt.rn.satfinite.{d}.f32"));
        texts.push(format!("cvt.rn.satfinite.relu.{d}.f32"));
    }
    texts
        .iter()
        .map(|t| {
            let b = Catalogue::get()
                .resolve_text(t)
                .unwrap_or_else(|e| panic!("{t}: {e:?}"));
            let Ok(Conversion::Cvt(op)) = Conversion::from_binding(&b) else {
                panic!("{t}")
            };
            let op = match op.dst {
                Format::Pack { of, .. } => CvtOp {
                    dst: Format::Float(of),
                    ..op
                },
                _ => op,
            };
            assert!(op.kernel().is_some(), "{t}");
            op
        })
        .collect()
}
