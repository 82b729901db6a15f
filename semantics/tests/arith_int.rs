//! Integer arithmetic, extended precision, logic and shift
//! (`ptx_semantics::arith::int`, PTX ISA 9.7.1, 9.7.2, 9.7.8) against a
//! second formulation written here: Rust's native fixed-width operations
//! (`wrapping_*`, `saturating_*`, casts between `i8..i64`/`u8..u64`), bit
//! loops following the spec's pseudocode, and multiword arithmetic in
//! `u128`. Inputs: every pair of the edge values of each type (0, 1, -1,
//! MIN, MAX, powers of two and their neighbours) and random values from a
//! SplitMix64 stream and from quickcheck.

use ptx_semantics::arith::int::{self, IntType, MulMode, ShiftMode, S16, S32, S64, U16, U32, U64};
use ptx_semantics::arith::{compare, Carry};
use quickcheck::QuickCheck;

struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

const RANDOM: usize = 20_000;

/// Edge values of a `bits`-wide type, as register bits: 0, 1, all ones,
/// MIN and MAX of both signednesses, powers of two and their neighbours.
fn edges(bits: u32) -> Vec<u64> {
    let m = if bits == 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    };
    let mut v = vec![0, 1, m, m >> 1, (m >> 1) + 1, 2, m - 1];
    for k in 0..bits {
        let p = 1u64 << k;
        v.extend([p, p.wrapping_sub(1) & m, p.wrapping_add(1) & m]);
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// Edge pairs and random pairs for a type.
fn pairs(bits: u32, seed: u64) -> Vec<(u64, u64)> {
    let e = edges(bits);
    let m = if bits == 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    };
    let mut out: Vec<(u64, u64)> = e
        .iter()
        .flat_map(|&a| e.iter().map(move |&b| (a, b)))
        .collect();
    let mut r = SplitMix(seed);
    for _ in 0..RANDOM {
        out.push((r.next() & m, r.next() & m));
    }
    out
}

/// Runs a check over a type's pairs; the check returns the expected and
/// actual values. Returns the number of cases.
fn each(bits: u32, seed: u64, name: &str, f: impl Fn(u64, u64) -> (u64, u64)) -> usize {
    let ps = pairs(bits, seed);
    for &(a, b) in &ps {
        let (want, got) = f(a, b);
        assert_eq!(
            got, want,
            "{name} a={a:#x} b={b:#x}: got {got:#x}, want {want:#x}"
        );
    }
    ps.len()
}

/// The reference for one native type: `$s` signed, `$u` unsigned, `$w`
/// the double-width type of the same signedness (`.wide`).
macro_rules! typed {
    ($fn:ident, $ty:expr, $t:ty, $w:ty, $bits:expr) => {
        #[test]
        fn $fn() {
            let ty: IntType = $ty;
            let x = |a: u64| a as $t;
            let bits = |v: $t| (v as u64) & ty.mask();
            let mut n = 0;
            n += each($bits, 1, "add", |a, b| {
                (bits(x(a).wrapping_add(x(b))), int::add(ty, false, a, b))
            });
            n += each($bits, 2, "sub", |a, b| {
                (bits(x(a).wrapping_sub(x(b))), int::sub(ty, false, a, b))
            });
            n += each($bits, 3, "mul.lo", |a, b| {
                (
                    bits(x(a).wrapping_mul(x(b))),
                    int::mul(ty, MulMode::Lo, a, b),
                )
            });
            n += each($bits, 4, "mul.hi", |a, b| {
                let t = (x(a) as $w as i128).wrapping_mul(x(b) as $w as i128);
                let hi = ((t >> $bits) as u64) & ty.mask();
                (hi, int::mul(ty, MulMode::Hi, a, b))
            });
            let nb: u32 = $bits;
            if nb < 64 {
                n += each($bits, 5, "mul.wide", |a, b| {
                    let t = (x(a) as $w).wrapping_mul(x(b) as $w);
                    (
                        t as u64 & low_mask(2 * nb),
                        int::mul(ty, MulMode::Wide, a, b),
                    )
                });
                n += each($bits, 6, "mad.wide", |a, b| {
                    let c = (a << nb) | b; // a 2n-bit addend from both
                    let t = (x(a) as $w).wrapping_mul(x(b) as $w).wrapping_add(c as $w);
                    (
                        t as u64 & low_mask(2 * nb),
                        int::mad(ty, MulMode::Wide, false, a, b, c),
                    )
                });
            }
            n += each($bits, 7, "mad.lo", |a, b| {
                let c = a ^ b.rotate_left(7) & ty.mask();
                (
                    bits(x(a).wrapping_mul(x(b)).wrapping_add(x(c))),
                    int::mad(ty, MulMode::Lo, false, a, b, c),
                )
            });
            n += each($bits, 8, "mad.hi", |a, b| {
                let c = !a & ty.mask();
                let t = (x(a) as $w as i128).wrapping_mul(x(b) as $w as i128);
                let hi = (t >> $bits) as $t;
                (
                    bits(hi.wrapping_add(x(c))),
                    int::mad(ty, MulMode::Hi, false, a, b, c),
                )
            });
            n += each($bits, 9, "sad", |a, b| {
                let c = a.wrapping_mul(3) & ty.mask();
                let d = if x(a) < x(b) {
                    x(b).wrapping_sub(x(a))
                } else {
                    x(a).wrapping_sub(x(b))
                };
                (bits(x(c).wrapping_add(d)), int::sad(ty, a, b, c))
            });
            n += each($bits, 10, "div", |a, b| {
                let got = int::div(ty, a, b);
                if x(b) == 0 {
                    assert!(got.unspecified.is_some(), "div by zero is unspecified");
                    return (0, 0);
                }
                let q = x(a).checked_div(x(b));
                assert_eq!(
                    got.unspecified.is_some(),
                    q.is_none(),
                    "div overflow a={a:#x} b={b:#x}"
                );
                (bits(x(a).wrapping_div(x(b))), got.bits)
            });
            n += each($bits, 11, "rem", |a, b| {
                let got = int::rem(ty, a, b);
                if x(b) == 0 {
                    assert!(got.unspecified.is_some(), "rem by zero is unspecified");
                    return (0, 0);
                }
                let negative = (x(a) as i128) < 0 || (x(b) as i128) < 0;
                assert_eq!(
                    got.unspecified.is_some(),
                    negative,
                    "rem of negatives a={a:#x} b={b:#x}"
                );
                (bits(x(a).wrapping_rem(x(b))), got.bits)
            });
            n += each($bits, 12, "min", |a, b| {
                (bits(x(a).min(x(b))), int::min(ty, false, a, b))
            });
            n += each($bits, 13, "max", |a, b| {
                (bits(x(a).max(x(b))), int::max(ty, false, a, b))
            });
            n += each($bits, 14, "neg", |a, _| {
                (bits((0 as $t).wrapping_sub(x(a))), int::neg(ty, a))
            });
            n += each($bits, 15, "shr", |a, b| {
                let s = (b % ($bits + 8)) as u32;
                let want = if s >= $bits {
                    if (x(a) as i128) < 0 {
                        ty.mask()
                    } else {
                        0
                    }
                } else {
                    bits(x(a) >> s)
                };
                (want, int::shr(ty, a, s))
            });
            n += each($bits, 16, "setp", |a, b| {
                use compare::CmpOp::*;
                let u = |v: u64| v & ty.mask();
                let want = [
                    x(a) == x(b),
                    x(a) != x(b),
                    x(a) < x(b),
                    x(a) <= x(b),
                    x(a) > x(b),
                    x(a) >= x(b),
                    u(a) < u(b),
                    u(a) <= u(b),
                    u(a) > u(b),
                    u(a) >= u(b),
                ];
                let got = [Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs]
                    .map(|op| compare::compare_int(ty, op, a, b).unwrap());
                (
                    want.iter().fold(0, |s, &w| s * 2 + w as u64),
                    got.iter().fold(0, |s, &w| s * 2 + w as u64),
                )
            });
            eprintln!("{}: {n} cases", stringify!($fn));
        }
    };
}

typed!(u16_ops, U16, u16, u32, 16);
typed!(s16_ops, S16, i16, i32, 16);
typed!(u32_ops, U32, u32, u64, 32);
typed!(s32_ops, S32, i32, i64, 32);
typed!(u64_ops, U64, u64, u128, 64);
typed!(s64_ops, S64, i64, i128, 64);

#[test]
fn signed_abs_and_saturation() {
    for (ty, bits) in [(S16, 16), (S32, 32), (S64, 64)] {
        each(bits, 20, "abs", |a, _| {
            let v = ty.value(a);
            let want = match bits {
                16 => (v as i16).wrapping_abs() as u16 as u64,
                32 => (v as i32).wrapping_abs() as u32 as u64,
                _ => (v as i64).wrapping_abs() as u64,
            };
            (want, int::abs(ty, a))
        });
    }
    let x = |a: u64| a as u32 as i32;
    each(32, 21, "add.sat.s32", |a, b| {
        (
            x(a).saturating_add(x(b)) as u32 as u64,
            int::add(S32, true, a, b),
        )
    });
    each(32, 22, "sub.sat.s32", |a, b| {
        (
            x(a).saturating_sub(x(b)) as u32 as u64,
            int::sub(S32, true, a, b),
        )
    });
    each(32, 23, "mad.hi.sat.s32", |a, b| {
        let c = a.rotate_left(13) & 0xffff_ffff;
        let hi = ((x(a) as i64 * x(b) as i64) >> 32) as i32;
        (
            hi.saturating_add(x(c)) as u32 as u64,
            int::mad(S32, MulMode::Hi, true, a, b, c),
        )
    });
    each(32, 24, "min.relu/max.relu.s32", |a, b| {
        let want = (x(a).min(x(b)).max(0) as u64) << 32 | x(a).max(x(b)).max(0) as u64;
        (
            want,
            int::min(S32, true, a, b) << 32 | int::max(S32, true, a, b),
        )
    });
}

#[test]
fn mul24_and_mad24() {
    // 24-bit factors: the low 24 bits, sign-extended through `<< 8 >> 8`.
    let s24 = |a: u64| ((a as u32) << 8) as i32 >> 8;
    let u24 = |a: u64| a as u32 & 0xff_ffff;
    each(32, 30, "mul24", |a, b| {
        let ts = s24(a) as i64 * s24(b) as i64;
        let tu = u24(a) as u64 * u24(b) as u64;
        let want = [
            (ts as u64) as u32,
            ((ts >> 16) as u64) as u32,
            tu as u32,
            (tu >> 16) as u32,
        ];
        let (a32, b32) = (a as u32, b as u32);
        let got = [
            int::mul24(true, false, a32, b32),
            int::mul24(true, true, a32, b32),
            int::mul24(false, false, a32, b32),
            int::mul24(false, true, a32, b32),
        ];
        (
            want.iter().fold(0u64, |s, &w| s.rotate_left(16) ^ w as u64),
            got.iter().fold(0u64, |s, &w| s.rotate_left(16) ^ w as u64),
        )
    });
    each(32, 31, "mad24", |a, b| {
        let c = (a ^ (b << 3)) as u32;
        let hi = ((s24(a) as i64 * s24(b) as i64) >> 16) as i32;
        let lo = (u24(a) as u64 * u24(b) as u64) as u32;
        let want = (hi.saturating_add(c as i32) as u32 as u64) << 32 | lo.wrapping_add(c) as u64;
        let got = (int::mad24(true, true, true, a as u32, b as u32, c) as u64) << 32
            | int::mad24(false, false, false, a as u32, b as u32, c) as u64;
        (want, got)
    });
}

#[test]
fn packed_lanes() {
    each(32, 40, "x4 and x2", |a, b| {
        let (a, b) = (a as u32, b as u32);
        let (ab, bb) = (a.to_le_bytes(), b.to_le_bytes());
        let lanes =
            |f: &dyn Fn(u8, u8) -> u8| u32::from_le_bytes([0, 1, 2, 3].map(|i| f(ab[i], bb[i])));
        let want = [
            lanes(&|x, y| x.wrapping_add(y)),
            lanes(&|x, y| x.saturating_add(y)),
            lanes(&|x, y| (x as i8).saturating_add(y as i8) as u8),
            lanes(&|x, y| (x as i8).saturating_sub(y as i8) as u8),
            lanes(&|x, _| (x as i8).wrapping_neg() as u8),
        ];
        let got = [
            int::add_x4(false, false, a, b),
            int::add_x4(false, true, a, b),
            int::add_x4(true, true, a, b),
            int::sub_x4(true, true, a, b),
            int::neg_s8x4(a),
        ];
        let h = |lo: u32, hi: u32| (lo as u16, hi as u16, (lo >> 16) as u16, (hi >> 16) as u16);
        let (al, _, ah, _) = h(a, 0);
        let (bl, _, bh, _) = h(b, 0);
        let smin = |x: u16, y: u16| (x as i16).min(y as i16).max(0) as u16 as u32;
        let umax = |x: u16, y: u16| x.max(y) as u32;
        let want2 = [
            smin(al, bl) | smin(ah, bh) << 16,
            umax(al, bl) | umax(ah, bh) << 16,
        ];
        let got2 = [
            int::min_x2(true, true, a, b),
            int::max_x2(false, false, a, b),
        ];
        let fold = |v: &[u32]| v.iter().fold(0u64, |s, &w| s.rotate_left(13) ^ w as u64);
        (
            fold(&want) ^ fold(&want2).rotate_left(7),
            fold(&got) ^ fold(&got2).rotate_left(7),
        )
    });
}

#[test]
fn bit_counts_and_reversal() {
    for bits in [32u32, 64] {
        each(bits, 50, "popc/clz/brev", |a, _| {
            let mut pop = 0;
            let mut lz = bits;
            let mut rev = 0u64;
            for i in 0..bits {
                if (a >> i) & 1 == 1 {
                    pop += 1;
                    lz = bits - 1 - i;
                    rev |= 1 << (bits - 1 - i);
                }
            }
            let want = (pop as u64) << 56 ^ (lz as u64) << 48 ^ rev;
            (
                want,
                (int::popc(bits, a) as u64) << 56
                    ^ (int::clz(bits, a) as u64) << 48
                    ^ int::brev(bits, a),
            )
        });
    }
}

#[test]
fn bfind_follows_the_pseudocode() {
    for ty in [U32, S32, U64, S64] {
        each(ty.bits, 60, "bfind", |a, _| {
            // PTX ISA 9.7.1.16's loop, written out.
            let msb = ty.bits - 1;
            let mut v = a & ty.mask();
            if ty.signed && v >> msb == 1 {
                v = !v & ty.mask();
            }
            let mut d = u32::MAX;
            for i in (0..=msb).rev() {
                if (v >> i) & 1 == 1 {
                    d = i;
                    break;
                }
            }
            let s = if d != u32::MAX { msb - d } else { d };
            (
                (d as u64) << 32 | s as u64,
                (int::bfind(ty, false, a) as u64) << 32 | int::bfind(ty, true, a) as u64,
            )
        });
    }
    // The spec's own statement: no non-sign bit gives 0xffffffff.
    assert_eq!(int::bfind(S32, true, 0xffff_ffff), u32::MAX);
    assert_eq!(int::bfind(U64, false, 0), u32::MAX);
}

#[test]
fn bfe_and_bfi_by_masks() {
    for ty in [U32, S32, U64, S64] {
        let n = ty.bits;
        each(n, 70, "bfe", |a, b| {
            let (pos, len) = ((b & 0xff) as u32, ((b >> 8) & 0xff) as u32);
            let a = a & ty.mask();
            // Field [pos, pos+len) clipped to the register, then extended
            // from its top available bit.
            let want = if len == 0 {
                0
            } else {
                let hi = (pos + len).min(n);
                let field = if pos >= n {
                    0
                } else {
                    (a >> pos) & low_mask(hi - pos)
                };
                let width = hi.saturating_sub(pos);
                let sign = ty.signed && (a >> (pos + len - 1).min(n - 1)) & 1 == 1;
                if sign {
                    (field | !low_mask(width)) & ty.mask()
                } else {
                    field
                }
            };
            (
                want,
                int::bfe(ty, a, b as u32 & 0xff, (b >> 8) as u32 & 0xff),
            )
        });
        each(n, 71, "bfi", |a, b| {
            let (pos, len) = ((a >> 40) as u32 & 0xff, (b >> 48) as u32 & 0xff);
            let b = b & ty.mask();
            let want = if pos >= n || len == 0 {
                b
            } else {
                let w = len.min(n - pos);
                let m = low_mask(w) << pos;
                (b & !m) | ((a << pos) & m)
            };
            (want, int::bfi(n, a, b, pos, len))
        });
    }
}

fn low_mask(w: u32) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1 << w) - 1
    }
}

#[test]
fn bmsk_szext_shf() {
    let mut r = SplitMix(80);
    let mut cases = 0;
    let small = |r: &mut SplitMix| match r.next() % 3 {
        0 => r.next() as u32 % 70,
        1 => r.next() as u32,
        _ => [0, 1, 31, 32, 33, 63, 64, u32::MAX][r.next() as usize % 8],
    };
    for _ in 0..RANDOM {
        let (a, b, x) = (small(&mut r), small(&mut r), r.next() as u32);
        cases += 1;
        // bmsk: bits [start, start+width) of 32, the operands clamped or wrapped.
        let field = |start: u32, width: u32| -> u32 {
            let end = (start + width).min(32);
            (start..end).fold(0, |m, i| m | 1 << i)
        };
        let want = if a >= 32 { 0 } else { field(a, b.min(32)) };
        assert_eq!(
            int::bmsk(ShiftMode::Clamp, a, b),
            want,
            "bmsk.clamp {a} {b}"
        );
        assert_eq!(
            int::bmsk(ShiftMode::Wrap, a, b),
            field(a & 31, b & 31),
            "bmsk.wrap {a} {b}"
        );
        // szext: N = b clamped to 32 or wrapped to 0..31.
        for (mode, n) in [(ShiftMode::Clamp, b.min(32)), (ShiftMode::Wrap, b & 31)] {
            let s = if n == 0 {
                0
            } else if n >= 32 {
                x
            } else {
                (((x << (32 - n)) as i32) >> (32 - n)) as u32
            };
            let u = if n == 0 {
                0
            } else if n >= 32 {
                x
            } else {
                x & ((1 << n) - 1)
            };
            assert_eq!(int::szext(true, mode, x, b), s, "szext.s32 {x:#x} {b}");
            assert_eq!(int::szext(false, mode, x, b), u, "szext.u32 {x:#x} {b}");
        }
        // shf: the spec's formulas, with shifts by 32 giving 0.
        let (lo, hi) = (x, r.next() as u32);
        for (mode, n) in [(ShiftMode::Clamp, a.min(32)), (ShiftMode::Wrap, a & 31)] {
            let shl = |v: u32, s: u32| v.checked_shl(s).unwrap_or(0);
            let shr = |v: u32, s: u32| v.checked_shr(s).unwrap_or(0);
            assert_eq!(
                int::shf(true, mode, lo, hi, a),
                shl(hi, n) | shr(lo, 32 - n),
                "shf.l {lo:#x} {hi:#x} {a}"
            );
            assert_eq!(
                int::shf(false, mode, lo, hi, a),
                shl(hi, 32 - n) | shr(lo, n),
                "shf.r {lo:#x} {hi:#x} {a}"
            );
        }
        // shl: amounts past the width give 0.
        assert_eq!(
            int::shl(32, x as u64, a),
            x.checked_shl(a).unwrap_or(0) as u64
        );
        assert_eq!(
            int::shl(16, x as u64 & 0xffff, a),
            (x as u16).checked_shl(a).unwrap_or(0) as u64
        );
    }
    // The spec's example: "bmsk.wrap.b32 rd, 1, 2; // Creates a bitmask of 0x00000006."
    assert_eq!(int::bmsk(ShiftMode::Wrap, 1, 2), 6);
    // "szext.wrap.u32 rd, 0xffffffff, 0; // Result is 0."
    assert_eq!(int::szext(false, ShiftMode::Wrap, 0xffff_ffff, 0), 0);
    eprintln!("bmsk/szext/shf/shl: {cases} random operand sets");
}

#[test]
fn fns_examples_and_reference() {
    // The spec's examples (PTX ISA 9.7.1.17).
    assert_eq!(int::fns(0xaaaa_aaaa, 3, 1), Some(3));
    assert_eq!(int::fns(0xaaaa_aaaa, 3, -1), Some(3));
    assert_eq!(int::fns(0xaaaa_aaaa, 2, 1), Some(3));
    assert_eq!(int::fns(0xaaaa_aaaa, 2, -1), Some(1));
    assert_eq!(int::fns(1, 32, 1), None, "base > 31 is undefined");
    let mut r = SplitMix(90);
    for _ in 0..RANDOM {
        let mask = r.next() as u32 & r.next() as u32;
        let base = r.next() as u32 % 32;
        let offset = (r.next() % 70) as i32 - 35;
        // The set bits at or above base (offset > 0) or at or below it
        // (offset < 0), nearest first; the |offset|-th of them.
        let want = if offset == 0 {
            if (mask >> base) & 1 == 1 {
                base
            } else {
                u32::MAX
            }
        } else {
            let set: Vec<u32> = if offset > 0 {
                (base..32).filter(|&i| (mask >> i) & 1 == 1).collect()
            } else {
                (0..=base).rev().filter(|&i| (mask >> i) & 1 == 1).collect()
            };
            set.get(offset.unsigned_abs() as usize - 1)
                .copied()
                .unwrap_or(u32::MAX)
        };
        assert_eq!(
            int::fns(mask, base, offset),
            Some(want),
            "fns {mask:#x} {base} {offset}"
        );
    }
}

#[test]
fn dot_products() {
    each(32, 100, "dp4a/dp2a", |a, b| {
        let (a, b) = (a as u32, b as u32);
        let c = a.rotate_left(11) ^ b;
        let (ab, bb) = (a.to_le_bytes(), b.to_le_bytes());
        let byte = |x: u8, s: bool| if s { x as i8 as i32 } else { x as i32 };
        let half = |x: u32, i: u32, s: bool| {
            let h = (x >> (16 * i)) as u16;
            if s {
                h as i16 as i32
            } else {
                h as i32
            }
        };
        let mut want = 0u64;
        let mut got = 0u64;
        for (sa, sb) in [(false, false), (false, true), (true, false), (true, true)] {
            let d4 = (0..4).fold(c as i32, |d, i| {
                d.wrapping_add(byte(ab[i], sa).wrapping_mul(byte(bb[i], sb)))
            });
            let lo = (0..2).fold(c as i32, |d, i| {
                d.wrapping_add(half(a, i as u32, sa).wrapping_mul(byte(bb[i], sb)))
            });
            let hi = (0..2).fold(c as i32, |d, i| {
                d.wrapping_add(half(a, i as u32, sa).wrapping_mul(byte(bb[2 + i], sb)))
            });
            want = want.rotate_left(17)
                ^ d4 as u32 as u64
                ^ (lo as u32 as u64) << 20
                ^ (hi as u32 as u64) << 32;
            got = got.rotate_left(17)
                ^ int::dp4a(sa, sb, a, b, c) as u64
                ^ (int::dp2a(false, sa, sb, a, b, c) as u64) << 20
                ^ (int::dp2a(true, sa, sb, a, b, c) as u64) << 32;
        }
        (want, got)
    });
}

#[test]
fn carry_chains_are_multiword_arithmetic() {
    // A 128-bit add and subtract through four 32-bit limbs (add.cc, addc.cc
    // ..., addc) and through two 64-bit limbs, against u128.
    let mut r = SplitMix(110);
    let special = [
        0u128,
        1,
        u128::MAX,
        u64::MAX as u128,
        1 << 64,
        (1 << 64) - 1,
        u32::MAX as u128,
    ];
    for i in 0..RANDOM {
        let pick = |r: &mut SplitMix| {
            if r.next().is_multiple_of(4) {
                special[r.next() as usize % special.len()]
            } else {
                (r.next() as u128) << 64 | r.next() as u128
            }
        };
        let (x, y) = (pick(&mut r), pick(&mut r));
        for limb in [32u32, 64] {
            let n = 128 / limb;
            let m = if limb == 64 {
                u64::MAX
            } else {
                u32::MAX as u64
            };
            let part = |v: u128, k: u32| (v >> (k * limb)) as u64 & m;
            let (mut sum, mut diff) = (0u128, 0u128);
            let (mut cf, mut bf) = (Carry(false), Carry(false));
            for k in 0..n {
                let (s, c) = if k == 0 {
                    int::add_cc(limb, part(x, k), part(y, k))
                } else {
                    int::addc(limb, part(x, k), part(y, k), cf)
                };
                let (d, b) = if k == 0 {
                    int::sub_cc(limb, part(x, k), part(y, k))
                } else {
                    int::subc(limb, part(x, k), part(y, k), bf)
                };
                sum |= (s as u128) << (k * limb);
                diff |= (d as u128) << (k * limb);
                (cf, bf) = (c, b);
            }
            assert_eq!(sum, x.wrapping_add(y), "add chain {i} limb {limb}");
            assert_eq!(cf.0, x.checked_add(y).is_none(), "carry out {i}");
            assert_eq!(diff, x.wrapping_sub(y), "sub chain {i} limb {limb}");
            assert_eq!(bf.0, x < y, "borrow out {i}");
        }
        // A 64x64 -> 128 product from 32-bit limbs with mad.lo.cc, madc.hi.
        let (a, b) = (x as u64, y as u64);
        let (a0, a1, b0, b1) = (a & 0xffff_ffff, a >> 32, b & 0xffff_ffff, b >> 32);
        let mut limbs = [0u64; 4];
        // Schoolbook: each partial product's low half with mad.lo.cc, its
        // high half with madc.hi.cc, the carry rippled up with addc (the
        // partial sums never exceed the 128-bit product).
        for (i, ai) in [a0, a1].into_iter().enumerate() {
            for (j, bj) in [b0, b1].into_iter().enumerate() {
                let (lo, c1) = int::mad_cc(U32, false, ai, bj, limbs[i + j]);
                limbs[i + j] = lo;
                let (hi, mut carry) = int::madc(U32, true, ai, bj, limbs[i + j + 1], c1);
                limbs[i + j + 1] = hi;
                for limb in limbs.iter_mut().skip(i + j + 2) {
                    (*limb, carry) = int::addc(32, *limb, 0, carry);
                }
            }
        }
        let prod = limbs
            .iter()
            .enumerate()
            .fold(0u128, |s, (k, &l)| s | (l as u128) << (32 * k));
        assert_eq!(prod, a as u128 * b as u128, "madc product {a:#x} * {b:#x}");
        let (d, c) = int::mad_cc(U64, false, a, b, x as u64 ^ 5);
        let t = (a.wrapping_mul(b) as u128) + (x as u64 ^ 5) as u128;
        assert_eq!((d, c.0), (t as u64, t >> 64 != 0), "mad.lo.cc.u64");
    }
}

#[test]
fn logic_ops() {
    each(64, 120, "lop3/and/or/xor/not/cnot", |a, b| {
        let (x, y, z) = (a as u32, b as u32, (a >> 32) as u32 ^ (b >> 17) as u32);
        let lut = (a ^ b >> 5) as u8;
        let mut want = 0u32;
        for i in 0..32 {
            let idx = ((x >> i) & 1) << 2 | ((y >> i) & 1) << 1 | ((z >> i) & 1);
            want |= (((lut as u32) >> idx) & 1) << i;
        }
        assert_eq!(int::lop3(x, y, z, 0xf0), x);
        assert_eq!(int::lop3(x, y, z, 0xcc), y);
        assert_eq!(int::lop3(x, y, z, 0xaa), z);
        assert_eq!(int::lop3(x, y, z, 0xf0 & 0xcc | 0xaa), (x & y) | z);
        // The spec's examples: "If F = ((a & b | c) ^ a); immLut = ... 0x1A".
        assert_eq!(int::lop3(x, y, z, 0x1a), ((x & y) | z) ^ x);
        assert_eq!(int::lop3(x, y, z, 0x40), x & y & !z);
        let d = ((x & y) | z) ^ x;
        for q in [false, true] {
            assert_eq!(int::lop3_pred(x, y, z, 0x1a, true, q), (d, d != 0 && q));
            assert_eq!(int::lop3_pred(x, y, z, 0x1a, false, q), (d, d != 0 || q));
        }
        assert_eq!(int::and(16, a, b), a & b & 0xffff);
        assert_eq!(int::or(32, a, b), (a | b) & 0xffff_ffff);
        assert_eq!(int::xor(64, a, b), a ^ b);
        assert_eq!(int::not(32, a), !(a as u32) as u64);
        assert_eq!(int::cnot(16, a), (a as u16 == 0) as u64);
        (want as u64, int::lop3(x, y, z, lut) as u64)
    });
}

#[test]
fn quickcheck_arithmetic() {
    fn prop(a: i64, b: i64, c: i64, k: u8) -> bool {
        let (ua, ub, uc) = (a as u64, b as u64, c as u64);
        let k32 = (k % 40) as u32;
        int::mad(S64, MulMode::Lo, false, ua, ub, uc) == a.wrapping_mul(b).wrapping_add(c) as u64
            && int::mul(S64, MulMode::Hi, ua, ub) == ((a as i128 * b as i128) >> 64) as u64
            && int::mul(U64, MulMode::Hi, ua, ub) == ((ua as u128 * ub as u128) >> 64) as u64
            && int::mul(S32, MulMode::Wide, ua, ub)
                == (a as i32 as i64).wrapping_mul(b as i32 as i64) as u64
            && int::add(S32, true, ua, ub) == (a as i32).saturating_add(b as i32) as u32 as u64
            && int::shr(S32, ua, k32) == ((a as i32) >> k32.min(31)) as u32 as u64
            && int::shr(U16, ua, k32) == (a as u16).checked_shr(k32).unwrap_or(0) as u64
            && int::sad(U64, ua, ub, uc) == ua.abs_diff(ub).wrapping_add(uc)
            && int::sad(S64, ua, ub, uc) == a.abs_diff(b).wrapping_add(uc)
            && int::bfind(U32, false, ua) == (a as u32).checked_ilog2().unwrap_or(u32::MAX)
    }
    QuickCheck::new()
        .tests(20_000)
        .quickcheck(prop as fn(i64, i64, i64, u8) -> bool);
}

/// What an H100 (sm_90, driver 580.159.04) gave where the text leaves the
/// value open ("Division by zero yields an unspecified, machine-specific
/// value"; `rem` of negatives "machine-dependent"; `MININT / -1`, `|MININT|`
/// silent): the model gives the same bits (and marks the open ones).
#[test]
fn open_points_are_sm90s() {
    let m32 = 0xffff_ffffu64;
    let rows: &[(&str, u64, u64)] = &[
        ("div.u32 5, 0", int::div(U32, 5, 0).bits, m32),
        ("div.u32 0, 0", int::div(U32, 0, 0).bits, m32),
        ("div.s32 -5, 0", int::div(S32, 0xffff_fffb, 0).bits, m32),
        ("div.s32 MIN, 0", int::div(S32, 0x8000_0000, 0).bits, m32),
        (
            "div.s32 MIN, -1",
            int::div(S32, 0x8000_0000, m32).bits,
            0x8000_0000,
        ),
        ("div.u64 5, 0", int::div(U64, 5, 0).bits, u64::MAX),
        (
            "div.s64 -5, 0",
            int::div(S64, u64::MAX - 4, 0).bits,
            u64::MAX,
        ),
        (
            "div.s64 MIN, -1",
            int::div(S64, 1 << 63, u64::MAX).bits,
            1 << 63,
        ),
        ("div.u16 5, 0", int::div(U16, 5, 0).bits, 0xffff),
        ("div.s16 -5, 0", int::div(S16, 0xfffb, 0).bits, 0xffff),
        (
            "div.s16 MIN, -1",
            int::div(S16, 0x8000, 0xffff).bits,
            0x8000,
        ),
        ("rem.u32 5, 0", int::rem(U32, 5, 0).bits, m32),
        ("rem.s32 -5, 0", int::rem(S32, 0xffff_fffb, 0).bits, m32),
        ("rem.s32 -7, 2", int::rem(S32, 0xffff_fff9, 2).bits, m32),
        ("rem.s32 7, -2", int::rem(S32, 7, 0xffff_fffe).bits, 1),
        (
            "rem.s32 -7, -2",
            int::rem(S32, 0xffff_fff9, 0xffff_fffe).bits,
            m32,
        ),
        ("rem.s32 MIN, -1", int::rem(S32, 0x8000_0000, m32).bits, 0),
        ("rem.s64 5, 0", int::rem(S64, 5, 0).bits, u64::MAX),
        (
            "rem.s64 -7, 2",
            int::rem(S64, u64::MAX - 6, 2).bits,
            u64::MAX,
        ),
        ("rem.u64 5, 0", int::rem(U64, 5, 0).bits, u64::MAX),
        ("rem.u16 5, 0", int::rem(U16, 5, 0).bits, 0xffff),
        ("rem.s16 -7, 0", int::rem(S16, 0xfff9, 0).bits, 0xffff),
        ("abs.s32 MIN", int::abs(S32, 0x8000_0000), 0x8000_0000),
        ("neg.s32 MIN", int::neg(S32, 0x8000_0000), 0x8000_0000),
        ("shl.b32 1, 32", int::shl(32, 1, 32), 0),
        ("shl.b32 1, 0xffffffff", int::shl(32, 1, u32::MAX), 0),
        ("shr.s32 MIN, 40", int::shr(S32, 0x8000_0000, 40), m32),
    ];
    for (what, got, want) in rows {
        assert_eq!(got, want, "{what}: model {got:#x}, sm_90 {want:#x}");
    }
    // Carry chains: a pure sub.cc/subc chain borrows as on sm_90. Mixed
    // chains do not agree (see `Carry`): sm_90 keeps the carry of
    // `a + ~b + 1` after `sub.cc` (0 - 1 leaves CC.CF = 0) and reads it so
    // in `subc`, against the spec's `d = a - (b + CC.CF)`.
    let (_, borrow) = int::sub_cc(32, 0, 1);
    assert_eq!(
        int::subc(32, 0, 0, borrow).0,
        m32,
        "sub.cc 0,1 then subc 0,0 (sm_90: 0xffffffff)"
    );
    let (_, borrow) = int::sub_cc(32, 1, 0);
    assert_eq!(
        int::subc(32, 0, 0, borrow).0,
        0,
        "sub.cc 1,0 then subc 0,0 (sm_90: 0)"
    );
}

/// No width or operand makes a function panic ("no panics on any input"),
/// even widths PTX has no type for; widths are taken into 1..=64.
#[test]
fn odd_widths_do_not_panic() {
    let mut r = SplitMix(130);
    for bits in [0u32, 1, 7, 8, 24, 63, 64, 65, 128, 200, u32::MAX] {
        for signed in [false, true] {
            let ty = IntType { bits, signed };
            for _ in 0..200 {
                let (a, b, c) = (r.next(), r.next(), r.next());
                let k = r.next() as u32;
                for mode in [MulMode::Lo, MulMode::Hi, MulMode::Wide] {
                    let _ = int::mul(ty, mode, a, b);
                    let _ = int::mad(ty, mode, true, a, b, c);
                }
                let _ = (
                    int::add(ty, true, a, b),
                    int::sub(ty, true, a, b),
                    int::sad(ty, a, b, c),
                );
                let _ = (
                    int::div(ty, a, b),
                    int::rem(ty, a, b),
                    int::div(ty, a, 0),
                    int::rem(ty, a, 0),
                );
                let _ = (
                    int::abs(ty, a),
                    int::neg(ty, a),
                    int::min(ty, true, a, b),
                    int::max(ty, true, a, b),
                );
                let _ = (
                    int::bfind(ty, true, a),
                    int::bfe(ty, a, k, k >> 8),
                    int::shr(ty, a, k),
                );
                let _ = (
                    int::popc(bits, a),
                    int::clz(bits, a),
                    int::brev(bits, a),
                    int::bfi(bits, a, b, k, k >> 8),
                );
                let _ = (
                    int::shl(bits, a, k),
                    int::and(bits, a, b),
                    int::or(bits, a, b),
                    int::xor(bits, a, b),
                );
                let _ = (
                    int::not(bits, a),
                    int::cnot(bits, a),
                    int::addc(bits, a, b, Carry(true)),
                    int::subc(bits, a, b, Carry(true)),
                );
                let _ = (
                    int::madc(ty, true, a, b, c, Carry(true)),
                    compare::compare_int(ty, compare::CmpOp::Lt, a, b),
                );
            }
        }
    }
    assert_eq!(
        int::mul(S64, MulMode::Wide, u64::MAX, 2),
        u64::MAX - 1,
        "the low 64 bits of -1 * 2"
    );
}
