//! Input vectors for `cvt` and `cvt.pack` forms: the edge-case set of
//! `oracles.md` (every rounding threshold around each boundary of the
//! destination, overflow and underflow thresholds, specials, integer bounds),
//! seeded random inputs aimed at the destination's range, and exhaustive
//! sweeps of 16-bit sources. Vectors are rows of source operands, in operand
//! order (`a`, `b`, ..., `rbits`).

use crate::rng::SplitMix64;
use ptx_semantics::cvt::format::{FloatFormat, Format, IntFormat, Specials, F32, F64};
use ptx_semantics::cvt::{Conversion, CvtOp};

/// Which inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputSet {
    /// The edge cases.
    Edge,
    /// `count` seeded random rows.
    Random { count: usize, seed: u64 },
    /// Every value of a 16-bit (or narrower) source.
    Exhaustive,
    /// Integers that a conversion through a wider float rounds wrongly
    /// ([`double_rounding_values`]); not part of the hardware baseline,
    /// which runs the three sets above.
    DoubleRounding,
}

/// Rows of source operands for a form.
pub fn vectors(conv: &Conversion, set: InputSet) -> Vec<Vec<u64>> {
    match conv {
        Conversion::Pack(p) => pack_vectors(p.source_count(), set),
        Conversion::Cvt(op) => cvt_vectors(op, set),
    }
}

/// Whether the form's sources are small enough to sweep (at most 16 bits in
/// one operand).
pub fn exhaustive_possible(conv: &Conversion) -> bool {
    let w = conv.source_widths();
    w.len() == 1 && w[0] <= 16
}

fn cvt_vectors(op: &CvtOp, set: InputSet) -> Vec<Vec<u64>> {
    let n = op.source_count();
    let stochastic = n > 1
        && matches!(
            op.round,
            Some(ptx_semantics::cvt::round::Round::Stochastic { .. })
        );
    let values = n - stochastic as usize;
    let base: Vec<u64> = match set {
        // The whole 16-bit register: narrower sources also show that only
        // their low bits are read.
        InputSet::Exhaustive => (0..1u64 << 16).collect(),
        InputSet::Edge => edge_values(&op.src, &op.dst),
        InputSet::Random { count, seed } => random_values(&op.src, &op.dst, count, seed),
        InputSet::DoubleRounding => double_rounding_values(&op.src, &op.dst),
    };
    let rbits = rbits_values();
    let len = base.len();
    (0..len)
        .map(|i| {
            let mut row: Vec<u64> = (0..values)
                // Lane k reads the list at a different offset, so every lane
                // sees every value, next to different partners.
                .map(|k| base[(i + k * (len / values.max(1)).max(1) + k) % len])
                .collect();
            if stochastic {
                row.push(rbits[i % rbits.len()]);
            }
            row
        })
        .collect()
}

/// Random bits for `.rs`: zero, all ones, single bits and carry points.
fn rbits_values() -> Vec<u64> {
    let mut v = vec![
        0,
        0xffff_ffff,
        0x1fff_1fff,
        0x1000_1000,
        0x0fff_0fff,
        0x8000_8000,
        0x7fff_7fff,
    ];
    for b in 0..32 {
        v.push(1 << b);
    }
    v
}

fn pack_vectors(sources: usize, set: InputSet) -> Vec<Vec<u64>> {
    let mut ints: Vec<u64> = Vec::new();
    for b in [1u32, 2, 3, 4, 7, 8, 15, 16, 31] {
        for d in [-1i64, 0, 1] {
            for s in [1i64, -1] {
                ints.push(((s * (1i64 << b)) + d) as u32 as u64);
            }
        }
    }
    ints.extend([0, 1, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff]);
    let base = match set {
        InputSet::Edge | InputSet::Exhaustive => ints,
        InputSet::Random { count, seed } => {
            let mut r = SplitMix64(seed);
            (0..count).map(|_| r.next_u64() & 0xffff_ffff).collect()
        }
        InputSet::DoubleRounding => Vec::new(),
    };
    let len = base.len();
    (0..len * if set == InputSet::Edge { len } else { 1 })
        .map(|i| {
            let (x, y) = if set == InputSet::Edge {
                (i / len, i % len)
            } else {
                (i, (i * 7 + 3) % len)
            };
            let mut row = vec![base[x % len], base[y]];
            if sources == 3 {
                row.push(base[(x + y) % len] ^ 0xa5a5_5a5a);
            }
            row
        })
        .collect()
}

/// Values of the source format near every boundary of the destination.
pub fn edge_values(src: &Format, dst: &Format) -> Vec<u64> {
    let mut out = Vec::new();
    match src {
        Format::Float(s) => float_source_edges(s, dst, &mut out),
        Format::Int(s) => int_source_edges(s, &mut out),
        Format::Pack {
            of,
            lanes,
            lane_bits,
        } => {
            // Each lane takes every edge value of its format, next to
            // different partners in the other lanes.
            let mut lane_vals = Vec::new();
            float_source_edges(of, dst, &mut lane_vals);
            let n = lane_vals.len();
            for i in 0..n {
                let mut packed = 0u64;
                for l in 0..*lanes as usize {
                    let v = lane_vals[(i + l * 7) % n];
                    packed = (packed << lane_bits) | (v & mask(*lane_bits));
                }
                out.push(packed);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The destination's value boundaries, as exact f64 values (every format
/// here but `.f64` itself is exact in f64).
fn boundaries(dst: &Format) -> Vec<f64> {
    let mut b = vec![0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0];
    match dst {
        Format::Int(i) => {
            for bits in [8, 16, 31, 32, 63, 64] {
                b.push(2f64.powi(bits));
            }
            b.push(i.max() as f64);
        }
        Format::Float(f) | Format::Pack { of: f, .. } => {
            let fmt = f;
            let ulp_min = 2f64.powi(fmt.emin() - fmt.man_bits as i32);
            let max = fmt.max_sig() as f64 * 2f64.powi(fmt.emax() - fmt.man_bits as i32);
            b.extend([
                ulp_min,
                2.0 * ulp_min,
                2f64.powi(fmt.emin()) - ulp_min,
                2f64.powi(fmt.emin()),
                max,
                max - 2f64.powi(fmt.emax() - fmt.man_bits as i32),
                2f64.powi(fmt.emax()),
            ]);
            // Powers of two across the range.
            let mut e = fmt.emin() - fmt.man_bits as i32;
            while e <= fmt.emax() {
                b.push(2f64.powi(e));
                e += 7;
            }
        }
    }
    b.retain(|x| x.is_finite());
    b
}

/// The next value of `dst` above `v` (positive), in f64.
fn next_up(dst: &Format, v: f64) -> f64 {
    match dst {
        Format::Int(_) => v.floor() + 1.0,
        Format::Float(f) | Format::Pack { of: f, .. } => {
            let fmt = f;
            if v == 0.0 {
                return 2f64.powi(fmt.emin() - fmt.man_bits as i32);
            }
            let e = (v.log2().floor() as i32).max(fmt.emin());
            let ulp = 2f64.powi(e - fmt.man_bits as i32);
            v + ulp
        }
    }
}

fn float_source_edges(s: &FloatFormat, dst: &Format, out: &mut Vec<u64>) {
    let w = s.width();
    let sign = s.sign_mask();
    let encode = |x: f64| -> Option<u64> { encode_exact(s, x) };
    let mut positives = Vec::new();
    for v in boundaries(dst) {
        let up = next_up(dst, v);
        let mid = (v + up) / 2.0;
        for x in [v, mid, up, 1.5 * v, v / 2.0, 1.5 * v / 2.0] {
            if let Some(bits) = encode(x) {
                positives.push(bits);
                // plus and minus one source ulp
                positives.push(bits.wrapping_add(1) & mask(w));
                if bits > 0 {
                    positives.push(bits - 1);
                }
            }
        }
    }
    // The source's own specials and boundaries.
    let all_ones_exp = ((1u64 << s.exp_bits) - 1) << s.man_bits;
    let man_mask = (1u64 << s.man_bits) - 1;
    positives.extend([
        0,
        1,
        2,
        man_mask,
        man_mask + 1,
        s.max_norm(),
        s.max_norm() - 1,
    ]);
    if s.specials == Specials::Ieee {
        positives.extend([
            all_ones_exp,                           // infinity
            all_ones_exp | (1 << (s.man_bits - 1)), // quiet NaN
            all_ones_exp | 1,                       // signalling NaN, lowest payload bit
            all_ones_exp | man_mask,                // every payload bit
            all_ones_exp | (man_mask >> 1),         // signalling, all other bits
        ]);
    } else {
        positives.push(all_ones_exp | man_mask);
    }
    for p in positives {
        out.push(p & mask(w));
        if sign != 0 {
            out.push((p | sign) & mask(w));
        }
    }
}

/// The encoding of `x` (positive, finite) in `s`, if exact.
fn encode_exact(s: &FloatFormat, x: f64) -> Option<u64> {
    if !(x.is_finite() && x >= 0.0) {
        return None;
    }
    if s == &F64 {
        return Some(x.to_bits());
    }
    if s == &F32 {
        let f = x as f32;
        return (f as f64 == x && f.is_finite()).then_some(f.to_bits() as u64);
    }
    // Narrow formats: search the encodings (at most 2^16).
    let top = s.max_norm();
    (0..=top).find(|&bits| {
        let d = ptx_semantics::cvt::round::decode(s, bits);
        match d {
            ptx_semantics::cvt::round::Decoded::Zero { .. } => x == 0.0,
            ptx_semantics::cvt::round::Decoded::Finite { sig, exp, .. } => {
                sig as f64 * 2f64.powi(exp) == x
            }
            _ => false,
        }
    })
}

fn int_source_edges(s: &IntFormat, out: &mut Vec<u64>) {
    let mut vals: Vec<i128> = vec![0, 1, 2, 3, s.min(), s.max(), s.min() + 1, s.max() - 1];
    // Around every precision limit of the float destinations (2^p +- 1)
    // and every integer width.
    for p in [3u32, 4, 5, 8, 9, 11, 12, 16, 24, 25, 31, 32, 53, 54, 63] {
        for d in [-1i128, 0, 1, 2, 3] {
            vals.push((1i128 << p) + d);
            vals.push(-(1i128 << p) + d);
        }
    }
    for v in vals {
        if v >= s.min() && v <= s.max() {
            out.push(v as u64 & s.mask());
        }
    }
}

/// Integers whose conversion to `dst` goes wrong when done through a wider
/// intermediate float (`.f32` or `.f64`, rounded to nearest: software that
/// builds a `bfloat16` from a `float`, or a `float` from a `double`): just
/// above a tie of `dst` by less than half a unit of the intermediate (it
/// rounds onto the tie, and the tie goes to even, below), and just below a
/// tie whose lower neighbour is odd (it rounds onto the tie, and the tie
/// goes up). The edge set cannot hold them: its integers lie within a few
/// units of powers of two. Empty where the intermediate holds every source
/// value exactly, or where such values overflow `dst` (`.f16`).
pub fn double_rounding_values(src: &Format, dst: &Format) -> Vec<u64> {
    let (Format::Int(s), Format::Float(d)) = (src, dst) else {
        return Vec::new();
    };
    let p = d.precision();
    let top = s.bits - 1 - s.signed as u32;
    let mut out = Vec::new();
    for mid in [F32.precision(), F64.precision()] {
        if mid <= p {
            continue;
        }
        // `+1` must lie below half a unit of the intermediate at 2^e
        for e in (mid + 1)..=top {
            if e as i32 >= d.emax() {
                break;
            }
            let base = 1i128 << e;
            let half = 1i128 << (e - p);
            for v in [base + half + 1, base + 2 * half + half - 1] {
                out.push(v as u64 & s.mask());
                if s.signed {
                    out.push(-v as u64 & s.mask());
                }
            }
        }
    }
    out
}

/// Random source values: half uniform bit patterns, half aimed at the
/// destination's range (exponents from below its smallest subnormal to
/// above its overflow threshold).
fn random_values(src: &Format, dst: &Format, count: usize, seed: u64) -> Vec<u64> {
    let mut r = SplitMix64(seed);
    let w = src.width();
    let (lo, hi) = match dst {
        Format::Int(i) => (-3, i.bits as i32 + 2),
        Format::Float(f) | Format::Pack { of: f, .. } => {
            (f.emin() - f.man_bits as i32 - 3, f.emax() + 2)
        }
    };
    (0..count)
        .map(|i| {
            let x = r.next_u64();
            if i % 2 == 0 {
                return x & mask(w);
            }
            match src {
                Format::Float(s) => {
                    let span = (hi - lo + 1) as u64;
                    let e = lo + (x % span) as i32;
                    let biased = (e + s.bias()).clamp(0, (1 << s.exp_bits) - 1) as u64;
                    let man = (x >> 16) & ((1 << s.man_bits) - 1);
                    let neg = (x >> 63) & 1;
                    ((neg << (w - 1)) | (biased << s.man_bits) | man) & mask(w)
                }
                // Integers: a random magnitude of a random bit length.
                _ => {
                    let len = (x % w as u64) as u32 + 1;
                    (x >> 8) & mask(len) ^ if (x >> 7) & 1 == 1 { mask(w) } else { 0 }
                }
            }
        })
        .collect()
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptx_semantics::catalogue::Catalogue;

    fn conv(text: &str) -> Conversion {
        Conversion::from_binding(&Catalogue::get().resolve_text(text).unwrap()).unwrap()
    }

    /// The edge set for f32 -> f16 holds the thresholds oracles.md lists.
    #[test]
    fn f32_to_f16_edges_hold_the_thresholds() {
        let v = vectors(&conv("cvt.rn.f16.f32"), InputSet::Edge);
        let flat: Vec<u64> = v.iter().map(|r| r[0]).collect();
        for want in [
            0x477f_e000u64, // 65504, MAX_NORM
            0x477f_f000,    // 65520, the overflow tie
            0x477f_efff,    // just below it
            0x477f_f001,    // just above it
            0x3300_0000,    // half the smallest subnormal
            0x3300_0001,
            0x33c0_0000, // 1.5 times the smallest subnormal
            0x3f80_1000, // 1 + half an f16 ulp
            0x7fc0_0000,
            0xff80_0000,
            0x7f80_0001,
            0x8000_0000,
        ] {
            assert!(flat.contains(&want), "{want:#x} missing");
        }
    }

    /// `(float)(double)x` rounds these wrongly; the direct conversion,
    /// once: 2^63 + 2^39 + 1 lies above the `.f32` tie 2^63 + 2^39, but
    /// `.f64` rounds it onto the tie.
    #[test]
    fn double_rounding_witnesses() {
        let v = vectors(&conv("cvt.rn.f32.u64"), InputSet::DoubleRounding);
        let flat: Vec<u64> = v.iter().map(|r| r[0]).collect();
        assert!(flat.contains(&((1 << 63) + (1 << 39) + 1)));
        let direct = conv("cvt.rn.f32.u64")
            .eval(&[(1 << 63) + (1 << 39) + 1])
            .unwrap();
        assert_eq!(direct.bits, 0x5f00_0001);
        let via_f64 = (((1u64 << 63) + (1 << 39) + 1) as f64) as f32;
        assert_eq!(via_f64.to_bits(), 0x5f00_0000);
        let bf16 = vectors(&conv("cvt.rn.bf16.s32"), InputSet::DoubleRounding);
        assert!(bf16.iter().any(|r| r[0] == (1 << 25) + (1 << 17) + 1));
        assert!(vectors(&conv("cvt.rn.f16.s64"), InputSet::DoubleRounding).is_empty());
        assert!(vectors(&conv("cvt.rn.f64.s64"), InputSet::DoubleRounding).is_empty());
    }

    #[test]
    fn exhaustive_covers_sixteen_bits() {
        let v = vectors(&conv("cvt.f32.f16"), InputSet::Exhaustive);
        assert_eq!(v.len(), 1 << 16);
        assert!(exhaustive_possible(&conv("cvt.f32.f16")));
        assert!(!exhaustive_possible(&conv("cvt.rn.f16.f32")));
    }

    #[test]
    fn same_seed_same_vectors() {
        let c = conv("cvt.rn.f16x2.f32");
        let a = vectors(
            &c,
            InputSet::Random {
                count: 1000,
                seed: 7,
            },
        );
        let b = vectors(
            &c,
            InputSet::Random {
                count: 1000,
                seed: 7,
            },
        );
        assert_eq!(a, b);
        assert!(a.iter().all(|r| r.len() == 2));
    }

    #[test]
    fn integer_bounds_for_float_to_int() {
        let v = vectors(&conv("cvt.rzi.s32.f32"), InputSet::Edge);
        let flat: Vec<u64> = v.iter().map(|r| r[0]).collect();
        // 2^31, 2^32, 2^63, 2^64, 2.5, -0.5, the largest f32 below 2^31
        for want in [
            0x4f00_0000u64,
            0x4f80_0000,
            0x5f00_0000,
            0x5f80_0000,
            0x4020_0000,
            0xbf00_0000,
            0x4eff_ffff,
        ] {
            assert!(flat.contains(&want), "{want:#x} missing");
        }
    }
}
