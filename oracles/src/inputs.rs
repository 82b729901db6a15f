//! Source operands for a form, generated from the oracle's own format
//! table: the edge cases of design/oracles.md ("Conversion edge cases
//! every vector set needs"), seeded random values, and exhaustive sweeps of
//! narrow sources.

use crate::format::{Class, Fp, Int, Num, Specials, F32};
use crate::forms::{Operand, Rounding, Spec};

/// How many inputs to make.
#[derive(Clone, Copy, Debug)]
pub struct Sizes {
    /// Sources of at most this many bits (a whole operand, or one lane) are
    /// swept exhaustively.
    pub exhaustive_bits: u32,
    /// Random values per form, beside the edge cases.
    pub random: usize,
    pub seed: u64,
}

/// A small, seeded generator (splitmix64).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn bits(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.bits() % n.max(1)
    }
}

fn mask(w: u32) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1 << w) - 1
    }
}

/// The value of `dst` next above `v` in magnitude (past MAX_NORM:
/// 2^(emax+1)).
fn next_of(dst: Fp, v: Num) -> Option<Num> {
    let b = dst.encode(v.abs())?;
    if b == dst.max_bits() {
        return Some(Num::pow2(dst.max_value().top() + 1));
    }
    match dst.decode(b + 1) {
        Class::Num(n) => Some(n),
        _ => None,
    }
}

/// The interesting values of a float destination: the ends of its
/// subnormal and normal ranges, one, and a few between.
fn float_boundaries(dst: Fp) -> Vec<Num> {
    let mut out = Vec::new();
    let mut push_bits = |b: u64| {
        if let Class::Num(n) = dst.decode(b) {
            out.push(n);
        }
    };
    let m = 1u64 << dst.mb;
    for b in [1, 2, 3, m - 1, m, m + 1, dst.max_bits() - 1, dst.max_bits()] {
        push_bits(b);
    }
    if dst.specials == Specials::Ue8m0 {
        for b in [0, 1, 126, 127, 128, 253, 254] {
            push_bits(b);
        }
    }
    out.push(Num::pow2(0));
    out.push(Num::new(false, 3, -1));
    out.push(Num::pow2(1));
    out
}

/// The interesting values of an integer destination.
fn int_boundaries(dst: Int) -> Vec<Num> {
    let mut out = vec![
        Num::new(false, 1, -1),
        Num::new(false, 3, -1),
        Num::new(false, 5, -1),
        Num::pow2(0),
        Num::new(false, 3, 0),
    ];
    for k in [7, 8, 15, 16, 31, 32, 63, 64, dst.bits - 1, dst.bits] {
        out.push(Num::pow2(k as i32));
    }
    out.push(Num::new(false, dst.max() as u128, 0));
    out
}

/// Pushes `v` (if `src` holds it) and its neighbours one source ulp away.
fn with_neighbours(src: Fp, v: Num, out: &mut Vec<u64>) {
    if let Some(b) = src.encode(v.abs()) {
        for d in [-1i64, 0, 1] {
            let n = b as i64 + d;
            if n >= 0 && (n as u64) < (1 << (src.width() - src.signed as u32)) {
                out.push(n as u64);
            }
        }
    }
}

/// Edge-case encodings of a float source converted to `target` (a float
/// or an integer destination), both signs.
pub fn float_edges(src: Fp, target: &Operand) -> Vec<u64> {
    let mut mags = Vec::new();
    let top = (1u64 << (src.width() - src.signed as u32)) - 1;
    // Zero, the smallest and largest subnormals and normals of the source,
    // infinity and NaNs: quiet, signalling, all payload bits, the lowest.
    let m = 1u64 << src.mb;
    mags.extend([0, 1, 2, m.saturating_sub(1), m, src.max_bits()]);
    match src.specials {
        Specials::Ieee => {
            let inf = src.inf_bits();
            let quiet = if src.mb > 0 { 1 << (src.mb - 1) } else { 0 };
            mags.extend([inf, inf | quiet, inf | 1, inf | (m - 1), inf | quiet | 1]);
        }
        _ => mags.push(top),
    }
    let boundaries = match target {
        Operand::Int(i) => int_boundaries(*i),
        Operand::Float(d) | Operand::Pack { of: d, .. } => {
            let d = *d;
            let mut b = float_boundaries(d);
            // Midpoints between neighbours, and the overflow tie (MAX_NORM
            // plus half an ulp); half the smallest subnormal.
            let mut mids = Vec::new();
            for v in &b {
                if let Some(n) = next_of(d, *v) {
                    let e = v.exp.min(n.exp) - 1;
                    let s = (v.sig << (v.exp - 1 - e)) + (n.sig << (n.exp - 1 - e));
                    mids.push(Num::new(false, s, e));
                }
            }
            if let Class::Num(min) = d.decode(1) {
                mids.push(Num::new(false, min.sig, min.exp - 1));
            }
            b.extend(mids);
            b
        }
    };
    for v in boundaries {
        with_neighbours(src, v, &mut mags);
    }
    let mut out = Vec::new();
    for b in mags {
        let b = b & top;
        out.push(b);
        if src.signed {
            out.push(b | src.sign_bit());
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Edge-case values of an integer source (two's complement in its
/// width).
pub fn int_edges(src: Int) -> Vec<u64> {
    let mut v: Vec<i128> = vec![
        0,
        1,
        -1,
        2,
        3,
        src.min(),
        src.max(),
        src.min() + 1,
        src.max() - 1,
    ];
    for k in [8, 11, 12, 16, 24, 31, 32, 53, 63] {
        let p = 1i128 << k;
        v.extend([p - 1, p, p + 1, -p - 1, -p, -p + 1]);
    }
    // 65504, 65519, 65520: `.f16`'s MAX_NORM and its overflow tie.
    v.extend([
        65504,
        65519,
        65520,
        65521,
        -65520,
        (1 << 53) + 1,
        (1 << 24) + 3,
    ]);
    let mut out: Vec<u64> = v
        .into_iter()
        .filter(|x| *x >= src.min() && *x <= src.max())
        .map(|x| x as u64 & src.mask())
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Random encodings of `src`: half uniform bit patterns, half values near
/// the range of `target`.
fn float_random(src: Fp, target: &Operand, rng: &mut Rng, n: usize) -> Vec<u64> {
    let (lo, hi) = match target {
        Operand::Int(i) => (-2, i.bits as i32 + 2),
        Operand::Float(d) | Operand::Pack { of: d, .. } => {
            (d.emin() - d.mb as i32 - 3, d.max_value().top() + 3)
        }
    };
    (0..n)
        .map(|i| {
            if i % 2 == 0 {
                return rng.bits() & mask(src.width());
            }
            let e = lo + rng.below((hi - lo + 1) as u64) as i32;
            let sig = (rng.bits() as u128 & ((1u128 << src.mb) - 1)) | (1u128 << src.mb);
            let v = Num::new(rng.bits() & 1 == 1 && src.signed, sig, e - src.mb as i32);
            src.encode(v)
                .unwrap_or_else(|| rng.bits() & mask(src.width()))
        })
        .collect()
}

/// Values for one source lane (or the whole scalar operand).
fn lane_values(
    lane: &Operand,
    target: &Operand,
    integral: bool,
    sizes: &Sizes,
    rng: &mut Rng,
) -> Vec<u64> {
    match lane {
        Operand::Int(i) if i.bits <= sizes.exhaustive_bits => (0..1u64 << i.bits).collect(),
        Operand::Float(f) if f.width() <= sizes.exhaustive_bits => (0..1u64 << f.width()).collect(),
        Operand::Int(i) => {
            let mut v = int_edges(*i);
            v.extend((0..sizes.random).map(|_| rng.bits() & i.mask()));
            v
        }
        Operand::Float(f) => {
            let mut v = float_edges(*f, target);
            v.extend(float_random(*f, target, rng, sizes.random));
            if integral {
                // Rounding to an integral value: the integer thresholds too.
                let int = Operand::Int(Int {
                    bits: 64,
                    signed: true,
                });
                v.extend(float_edges(*f, &int));
                v.extend(float_random(*f, &int, rng, sizes.random));
            }
            v
        }
        Operand::Pack { .. } => unreachable!("lanes are scalars"),
    }
}

/// The random-bit operands an `.rs` form is given: none, all, the carry
/// points of each lane's width, and random ones (the `.f16x2` halves keep
/// their 3 MSBs 0, as the form asks, except for a few that check it).
fn rbits_values(spec: &Spec, rng: &mut Rng, n: usize) -> Vec<u64> {
    let f16 = matches!(spec.dst, Operand::Pack { of, .. } if of.name == "f16");
    let keep = if f16 { 0x1fff_1fff } else { 0xffff_ffff };
    let mut v = vec![
        0,
        keep,
        0x8000_8000 & keep,
        0x0001_0001,
        0x1000_1000,
        0x7f7f_7f7f & keep,
        0x8080_8080 & keep,
        0xff00_ff00 & keep,
        0x00ff_00ff,
    ];
    v.extend((0..n).map(|_| rng.bits() & keep));
    if f16 {
        v.extend([0xffff_ffff, 0x2000_0000, 0x0000_e000]);
    }
    v
}

/// Source rows for `spec`: every lane value in every lane.
pub fn rows(spec: &Spec, sizes: &Sizes) -> Vec<Vec<u64>> {
    let mut rng = Rng::new(sizes.seed ^ 0x5eed);
    if let Some((t, with_c)) = spec.pack {
        let mut v = int_edges(Int {
            bits: 32,
            signed: true,
        });
        for b in [t.min(), t.max()] {
            for d in -1..=1 {
                v.push((b + d) as u64 & 0xffff_ffff);
            }
        }
        v.extend((0..sizes.random).map(|_| rng.bits() & 0xffff_ffff));
        let n = v.len();
        return (0..n * 3)
            .map(|k| {
                let mut r = vec![v[k % n], v[(k / 3 + k * 7 + 1) % n]];
                if with_c {
                    r.push(rng.bits() & 0xffff_ffff);
                }
                r
            })
            .collect();
    }
    let widths = spec.source_widths();
    let stochastic = spec.round == Some(Rounding::Stochastic);
    let operands = widths.len() - stochastic as usize;
    let target = match spec.dst {
        Operand::Pack { of, .. } => Operand::Float(of),
        d => d,
    };
    // A whole small operand (a packed one included) is swept as bits.
    let total: u32 = widths[..operands].iter().sum();
    let mut rows: Vec<Vec<u64>> = if operands == 1 && total <= sizes.exhaustive_bits {
        (0..1u64 << total).map(|x| vec![x]).collect()
    } else {
        let (lane, lanes, lane_bits) = match (spec.dst, spec.src) {
            (
                _,
                Operand::Pack {
                    of,
                    lanes,
                    lane_bits,
                },
            ) => (Operand::Float(of), lanes, lane_bits),
            (Operand::Pack { lanes, .. }, s) => (s, lanes, 0),
            (_, s) => (s, 1, 0),
        };
        let vals = lane_values(&lane, &target, spec.integral, sizes, &mut rng);
        let n = vals.len();
        // Lane j of row k takes value (k + j * stride) mod n: every value
        // visits every lane.
        let stride = (n / lanes as usize).max(1) | 1;
        (0..n)
            .map(|k| {
                let pick = |j: usize| vals[(k + j * stride) % n];
                if lane_bits == 0 {
                    (0..lanes as usize).map(pick).collect()
                } else {
                    let mut w = 0u64;
                    for j in 0..lanes as usize {
                        w = (w << lane_bits) | pick(j);
                    }
                    vec![w]
                }
            })
            .collect()
    };
    if stochastic {
        let rb = rbits_values(spec, &mut rng, 8);
        rows = rows
            .into_iter()
            .enumerate()
            .flat_map(|(k, r)| {
                // Each row with two random-bit operands, rotating.
                (0..2).map({
                    let rb = &rb;
                    let r = r.clone();
                    move |j| {
                        let mut r = r.clone();
                        r.push(rb[(k * 2 + j) % rb.len()]);
                        r
                    }
                })
            })
            .collect();
    }
    rows
}

/// `.f32` bit patterns, for tests that want some.
pub fn some_f32(n: usize, seed: u64) -> Vec<u64> {
    let mut rng = Rng::new(seed);
    let mut v = float_edges(F32, &Operand::Float(F32));
    v.extend((0..n).map(|_| rng.bits() & 0xffff_ffff));
    v
}
