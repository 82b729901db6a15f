//! Float arithmetic (`ptx_semantics::arith::float`, PTX ISA 9.7.3, 9.7.4)
//! and comparisons (`arith::compare`) against rustc_apfloat (LLVM's
//! APFloat): IEEE add, sub, mul, fma, div in every rounding mode PTX names
//! (`.rn .rz .rm .rp`) on `.f16 .bf16 .f32 .f64`; `sqrt` checked by
//! bracketing (the result squared, and its neighbours and midpoints
//! squared, exactly in a wider apfloat format). PTX's own rules (`.ftz`,
//! `.sat`, `.relu`, NaN results) are written again here from the spec and
//! applied on top; NaN encodings are checked apart from values, as
//! oracles.md asks. Inputs: every pair (and, for fma, triple) of an edge set
//! per format (oracles.md's list) and random bits. The mixed precision
//! forms (9.7.5, `.f32` from `.f16`/`.bf16`) against apfloat and the host's
//! `f32`; the half precision `set`/`setp` (`.f16x2`, `.bf16x2` lanes and
//! destinations) against apfloat's order.

use ptx_semantics::arith::compare::{self, CmpOp, TestOp};
use ptx_semantics::arith::float::{
    self, FloatFormat, FpMods, FpResult, MinMaxMods, BF16, F16, F32, F64,
};
use ptx_semantics::cvt::round::Round;
use rustc_apfloat::ieee::{BFloat, Double, Half, IeeeFloat, Quad, Semantics, Single};
use rustc_apfloat::{Float, FloatConvert, Round as AR, Status, StatusAnd};
use std::cmp::Ordering;

/// Each format's precision with a wider exponent range: rounding there is
/// rounding "with an unbounded exponent" (IEEE 754 7.5), for tininess.
macro_rules! wide {
    ($($name:ident = $sem:ident ($bits:literal : $eb:literal);)*) => {
        $(
            struct $sem;
            impl Semantics for $sem {
                const BITS: usize = $bits;
                const EXP_BITS: usize = $eb;
            }
            type $name = IeeeFloat<$sem>;
        )*
    };
}
wide! {
    WideHalf = WideHalfS (19 : 8);
    WideBFloat = WideBFloatS (19 : 11);
    WideSingle = WideSingleS (35 : 11);
    WideDouble = WideDoubleS (68 : 15);
}

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

const MODES: [(Round, AR); 4] = [
    (Round::NearestEven, AR::NearestTiesToEven),
    (Round::TowardZero, AR::TowardZero),
    (Round::Down, AR::TowardNegative),
    (Round::Up, AR::TowardPositive),
];

/// The layout, written here from IEEE 754's interchange formats.
#[derive(Clone, Copy)]
struct Layout {
    exp: u32,
    man: u32,
}
impl Layout {
    fn of(fmt: &FloatFormat) -> Layout {
        Layout {
            exp: fmt.exp_bits,
            man: fmt.man_bits,
        }
    }
    fn width(self) -> u32 {
        1 + self.exp + self.man
    }
    fn sign(self) -> u64 {
        1 << (self.width() - 1)
    }
    fn man_mask(self) -> u64 {
        (1 << self.man) - 1
    }
    fn inf(self) -> u64 {
        ((1 << self.exp) - 1) << self.man
    }
    fn one(self) -> u64 {
        ((1 << (self.exp - 1)) - 1) << self.man
    }
    fn is_nan(self, x: u64) -> bool {
        x & !self.sign() > self.inf()
    }
    fn is_subnormal(self, x: u64) -> bool {
        x & self.inf() == 0 && x & self.man_mask() != 0
    }
    /// oracles.md's edge values, both signs.
    fn edges(self) -> Vec<u64> {
        let (one, inf, mm) = (self.one(), self.inf(), self.man_mask());
        let min_norm = 1 << self.man;
        let max = inf - 1;
        let quiet = 1 << (self.man - 1);
        let pos = [
            0,
            1,
            2,
            3,
            mm,       // largest subnormal
            min_norm, // smallest normal
            min_norm + 1,
            one,
            one + 1,
            one - 1,
            one + quiet,           // 1.5
            one + (1 << self.man), // 2.0
            one - (1 << self.man), // 0.5
            one + (3 << self.man) + 5,
            max,
            max - 1,
            max - (1 << self.man), // half the largest binade
            inf,
            inf | quiet, // quiet NaN
            inf | 1,     // signalling NaN, lowest payload bit
            inf | mm,    // NaN with every payload bit
        ];
        pos.iter().flat_map(|&x| [x, x | self.sign()]).collect()
    }
    /// Random bits, half of them with exponents near 1.0 (so that sums
    /// cancel and products stay in range).
    fn random(self, r: &mut SplitMix) -> u64 {
        let w = r.next();
        if w.is_multiple_of(2) {
            return r.next() & (self.sign() | (self.sign() - 1));
        }
        let bias = (1u64 << (self.exp - 1)) - 1;
        let spread = (self.man as u64 + 4).min(bias);
        let e = bias + (w >> 8) % (2 * spread) - spread;
        (w & self.sign()) | (e << self.man) | (r.next() & self.man_mask())
    }
}

/// The same operation in apfloat.
#[derive(Clone, Copy, Debug)]
enum Op {
    Add,
    Sub,
    Mul,
    Fma,
    Div,
    Rcp,
}

fn apply<T: Float>(op: Op, a: T, b: T, c: T, mode: AR) -> StatusAnd<T> {
    match op {
        Op::Add => a.add_r(b, mode),
        Op::Sub => a.sub_r(b, mode),
        Op::Mul => a.mul_r(b, mode),
        Op::Fma => a.mul_add_r(b, c, mode),
        Op::Div => a.div_r(b, mode),
        Op::Rcp => T::from_u128(1).value.div_r(a, mode),
    }
}

fn model(fmt: &FloatFormat, op: Op, round: Round, m: FpMods, a: u64, b: u64, c: u64) -> FpResult {
    match op {
        Op::Add => float::add(fmt, round, m, a, b),
        Op::Sub => float::sub(fmt, round, m, a, b),
        Op::Mul => float::mul(fmt, round, m, a, b),
        Op::Fma => float::fma(fmt, round, m, a, b, c),
        Op::Div => float::div(fmt, round, m, a, b),
        Op::Rcp => float::rcp(fmt, round, m, a),
    }
}

/// What PTX says the result is, before NaN encodings: a value's bits, or
/// some NaN (`Nan`), or the canonical NaN (`.relu`).
#[derive(Debug, PartialEq)]
enum Expect {
    Bits(u64),
    Nan,
}

/// apfloat's IEEE result with PTX's rules on top: "`.ftz` flushes
/// subnormal inputs and results to sign-preserving zero"; "`.sat` clamps
/// the result to [0.0, 1.0]. NaN results are flushed to +0.0f" (-0.0
/// taken to +0.0, as the model does); "`.relu` clamps the result to 0 if
/// negative. NaN results are converted to canonical NaN".
fn expect<T: Float + FloatConvert<W>, W: Float>(
    l: Layout,
    op: Op,
    mode: AR,
    m: FpMods,
    a: u64,
    b: u64,
    c: u64,
) -> (Expect, Status) {
    let flush = |x: u64| {
        if m.ftz && l.is_subnormal(x) {
            x & l.sign()
        } else {
            x
        }
    };
    let t = |x: u64| T::from_bits(flush(x) as u128);
    let r = apply(op, t(a), t(b), t(c), mode);
    let mut bits = r.value.to_bits() as u64;
    let nan = r.value.is_nan();
    if m.ftz {
        // Tiny after rounding to the precision with an unbounded exponent
        // (sm_90's reading of `.ftz`, see the model's `round_term`).
        let w = |x: u64| -> W { t(x).convert(&mut false).value };
        let rw = apply(op, w(a), w(b), w(c), mode).value;
        let min_normal: W = T::smallest_normalized().convert(&mut false).value;
        if rw.is_finite_non_zero() && rw.abs() < min_normal {
            bits = if rw.is_negative() { l.sign() } else { 0 };
        }
    }
    if m.sat {
        if nan || bits & l.sign() != 0 {
            return (Expect::Bits(0), r.status);
        }
        if T::from_bits(bits as u128) > T::from_u128(1).value {
            return (Expect::Bits(l.one()), r.status);
        }
    }
    if m.relu {
        if nan {
            return (
                Expect::Bits(if l.width() == 16 { 0x7fff } else { 0x7fff_ffff }),
                r.status,
            );
        }
        if bits & l.sign() != 0 {
            return (Expect::Bits(0), r.status);
        }
    }
    (if nan { Expect::Nan } else { Expect::Bits(bits) }, r.status)
}

/// Holds one model result to the expectation; NaN encodings by PTX ISA
/// 9.7.3: "NaN payloads are supported for double-precision instructions
/// ... Single-precision instructions return an unspecified NaN."
fn check_one<T: Float + FloatConvert<W>, W: Float>(
    fmt: &FloatFormat,
    op: Op,
    mode: (Round, AR),
    m: FpMods,
    a: u64,
    b: u64,
    c: u64,
) {
    let l = Layout::of(fmt);
    let got = model(fmt, op, mode.0, m, a, b, c);
    let (want, status) = expect::<T, W>(l, op, mode.1, m, a, b, c);
    let ctx = || {
        format!(
            "{op:?} {} {:?} {m:?} a={a:#x} b={b:#x} c={c:#x}: got {got:x?}, want {want:x?}",
            fmt.name, mode.0
        )
    };
    match want {
        Expect::Bits(w) => {
            assert_eq!(got.bits, w, "{}", ctx());
            assert_eq!(got.unspecified, 0, "{}", ctx());
            if m == FpMods::default() {
                assert_eq!(
                    got.inexact,
                    status.contains(Status::INEXACT),
                    "inexact: {}",
                    ctx()
                );
                // Known difference: apfloat (as LLVM's APFloat) flags
                // overflow only where it rounds to infinity; IEEE 754 7.4
                // (and the model) also where a directed mode gives MAX.
                let max = l.inf() - 1;
                let apfloat_silent = got.bits & !l.sign() == max && got.inexact;
                assert!(
                    got.overflow == status.contains(Status::OVERFLOW)
                        || (got.overflow && apfloat_silent),
                    "overflow: {}",
                    ctx()
                );
            }
        }
        Expect::Nan => {
            assert!(l.is_nan(got.bits), "not a NaN: {}", ctx());
            let open = l.sign() | l.man_mask();
            let inputs: Vec<u64> = match op {
                Op::Rcp => vec![a],
                Op::Fma => vec![a, b, c],
                _ => vec![a, b],
            };
            let nans: Vec<u64> = inputs.into_iter().filter(|&x| l.is_nan(x)).collect();
            if l.width() == 64 && nans.len() == 1 {
                // The one NaN operand, quieted.
                assert_eq!(got.bits, nans[0] | 1 << (l.man - 1), "payload: {}", ctx());
                assert_eq!(got.unspecified, 0, "{}", ctx());
            } else {
                assert_eq!(got.unspecified, open, "NaN bits left open: {}", ctx());
                // Within what is open, sm_90's choice: one of the NaN
                // operands quieted, or its default NaN for `.f64`; the
                // canonical NaN otherwise.
                if l.width() == 64 {
                    let quieted: Vec<u64> = nans.iter().map(|&x| x | 1 << (l.man - 1)).collect();
                    assert!(
                        quieted.contains(&got.bits)
                            || (nans.is_empty() && got.bits == 0xfff8_0000_0000_0000),
                        "f64 NaN: {}",
                        ctx()
                    );
                } else {
                    assert_eq!(
                        Some(got.bits),
                        fmt.canonical_nan,
                        "canonical NaN: {}",
                        ctx()
                    );
                }
            }
        }
    }
}

fn mod_sets(fmt: &FloatFormat) -> Vec<FpMods> {
    let none = FpMods::default();
    let ftz = FpMods { ftz: true, ..none };
    let sat = FpMods { sat: true, ..none };
    let ftz_sat = FpMods {
        ftz: true,
        sat: true,
        ..none
    };
    let relu = FpMods { relu: true, ..none };
    match fmt.name {
        // `.ftz` and `.sat` on .f32; `.ftz .sat .relu` on .f16 (fma);
        // `.relu` on .bf16 (fma); nothing on .f64.
        "f32" => vec![none, ftz, sat, ftz_sat],
        "f16" => vec![
            none,
            ftz,
            sat,
            ftz_sat,
            relu,
            FpMods {
                ftz: true,
                relu: true,
                ..none
            },
        ],
        "bf16" => vec![none, relu],
        _ => vec![none],
    }
}

/// Every edge pair (triple for fma, with a sample of the third operand)
/// and `random` random operand sets, in every mode and modifier set.
fn sweep<T: Float + FloatConvert<W>, W: Float>(
    fmt: &FloatFormat,
    op: Op,
    random: usize,
    seed: u64,
) -> usize {
    let l = Layout::of(fmt);
    let e = l.edges();
    let mods = mod_sets(fmt);
    let mut n = 0;
    let mut r = SplitMix(seed);
    let mut sets: Vec<(u64, u64, u64)> = Vec::new();
    for &a in &e {
        for &b in &e {
            if matches!(op, Op::Fma) {
                for &c in &e {
                    sets.push((a, b, c));
                }
            } else {
                sets.push((a, b, 0));
            }
        }
    }
    for _ in 0..random {
        let (a, b) = (l.random(&mut r), l.random(&mut r));
        let c = match r.next() % 3 {
            0 => l.random(&mut r),
            // The product's negation: sums that cancel.
            1 => {
                let p = T::from_bits(a as u128)
                    .mul_r(T::from_bits(b as u128), AR::NearestTiesToEven)
                    .value;
                (p.to_bits() as u64) ^ l.sign()
            }
            _ => e[r.next() as usize % e.len()],
        };
        sets.push((a, b, c));
    }
    for &(a, b, c) in &sets {
        for mode in MODES {
            for &m in &mods {
                check_one::<T, W>(fmt, op, mode, m, a, b, c);
                n += 1;
            }
        }
    }
    n
}

macro_rules! arithmetic {
    ($name:ident, $t:ty, $w:ty, $fmt:expr, $random:expr) => {
        #[test]
        fn $name() {
            let mut n = 0;
            for (i, op) in [Op::Add, Op::Sub, Op::Mul, Op::Fma, Op::Div, Op::Rcp]
                .into_iter()
                .enumerate()
            {
                n += sweep::<$t, $w>(&$fmt, op, $random, 1000 + i as u64);
            }
            eprintln!("{}: {n} cases", stringify!($name));
        }
    };
}

arithmetic!(f16_arithmetic, Half, WideHalf, F16, 20_000);
arithmetic!(bf16_arithmetic, BFloat, WideBFloat, BF16, 20_000);
arithmetic!(f32_arithmetic, Single, WideSingle, F32, 40_000);
arithmetic!(f64_arithmetic, Double, WideDouble, F64, 40_000);

/// sqrt: the result `r` brackets the input in a wider format where squares
/// are exact: `r^2 <= x < next(r)^2` toward zero and down, `prev(r)^2 < x
/// <= r^2` up, and the midpoints around `r` squared bracket `x` to nearest.
fn sqrt_sweep<T: Float + FloatConvert<W>, W: Float>(
    fmt: &FloatFormat,
    random: usize,
    seed: u64,
) -> usize {
    let l = Layout::of(fmt);
    let mut r = SplitMix(seed);
    let mut xs = l.edges();
    for _ in 0..random {
        xs.push(l.random(&mut r));
    }
    let wide = |x: T| -> W { x.convert(&mut false).value };
    let sq = |x: W| x.mul_r(x, AR::NearestTiesToEven).value;
    let half = |x: W, y: W| {
        x.add_r(y, AR::NearestTiesToEven)
            .value
            .div_r(W::from_u128(2).value, AR::NearestTiesToEven)
            .value
    };
    let mut n = 0;
    for &x in &xs {
        for (mode, _) in MODES {
            for ftz in [false, true] {
                if ftz && fmt.name != "f32" {
                    continue;
                }
                n += 1;
                let m = FpMods {
                    ftz,
                    ..FpMods::default()
                };
                let got = float::sqrt(fmt, mode, m, x);
                let xf = if ftz && l.is_subnormal(x) {
                    x & l.sign()
                } else {
                    x
                };
                let v = T::from_bits(xf as u128);
                let ctx = format!(
                    "sqrt {} {mode:?} ftz={ftz} x={x:#x}: got {got:x?}",
                    fmt.name
                );
                if v.is_nan() || (v.is_negative() && !v.is_zero()) {
                    assert!(l.is_nan(got.bits), "{ctx}");
                    continue;
                }
                if v.is_zero() || v.is_infinite() {
                    assert_eq!(got.bits, xf, "{ctx}");
                    continue;
                }
                let res = T::from_bits(got.bits as u128);
                assert!(res.is_finite_non_zero() && !res.is_negative(), "{ctx}");
                let (rw, xw) = (wide(res), wide(v));
                let next = res.next_up().value;
                let prev = res.next_down().value;
                match mode {
                    Round::TowardZero | Round::Down => {
                        assert!(sq(rw) <= xw, "{ctx}");
                        assert!(next.is_infinite() || sq(wide(next)) > xw, "{ctx}");
                    }
                    Round::Up => {
                        assert!(sq(rw) >= xw, "{ctx}");
                        assert!(prev.is_zero() || sq(wide(prev)) < xw, "{ctx}");
                    }
                    _ => {
                        assert!(sq(half(wide(prev), rw)) < xw, "{ctx}");
                        assert!(next.is_infinite() || sq(half(rw, wide(next))) > xw, "{ctx}");
                    }
                }
                assert_eq!(got.inexact, sq(rw) != xw, "inexact {ctx}");
            }
        }
    }
    n
}

#[test]
fn sqrt_brackets() {
    let n = sqrt_sweep::<Half, Double>(&F16, 20_000, 1)
        + sqrt_sweep::<BFloat, Double>(&BF16, 20_000, 2)
        + sqrt_sweep::<Single, Double>(&F32, 50_000, 3)
        + sqrt_sweep::<Double, Quad>(&F64, 50_000, 4);
    // And the host's correctly rounded sqrt, to nearest.
    let mut r = SplitMix(5);
    for _ in 0..50_000 {
        let x = r.next();
        let want = f64::from_bits(x).sqrt();
        let got = float::sqrt(&F64, Round::NearestEven, FpMods::default(), x);
        if want.is_nan() {
            assert!(Layout::of(&F64).is_nan(got.bits));
        } else {
            assert_eq!(got.bits, want.to_bits(), "sqrt.rn.f64 {x:#x}");
        }
    }
    eprintln!("sqrt: {n} bracketed cases, 50000 against the host");
}

/// `min`/`max` written again from PTX ISA 9.7.3.11's pseudocode, with
/// values compared in apfloat.
fn min_max_reference<T: Float>(
    l: Layout,
    is_min: bool,
    m: MinMaxMods,
    a: u64,
    b: u64,
) -> Option<u64> {
    let flush = |x: u64| {
        if m.ftz && l.is_subnormal(x) {
            x & l.sign()
        } else {
            x
        }
    };
    let (a, b) = (flush(a), flush(b));
    let xorsign = (a ^ b) & l.sign();
    let (a, b) = if m.abs {
        (a & !l.sign(), b & !l.sign())
    } else {
        (a, b)
    };
    let (na, nb) = (l.is_nan(a), l.is_nan(b));
    let d = if na && nb || (m.nan && (na || nb)) {
        return None;
    } else if na {
        b
    } else if nb {
        a
    } else {
        let (x, y) = (T::from_bits(a as u128), T::from_bits(b as u128));
        let ord = match x.partial_cmp(&y).unwrap() {
            // "-0.0 < +0.0 here"
            Ordering::Equal => (b & l.sign()).cmp(&(a & l.sign())),
            o => o,
        };
        let a_wins = if is_min {
            ord == Ordering::Less
        } else {
            ord == Ordering::Greater
        };
        if a_wins {
            a
        } else {
            b
        }
    };
    Some(if m.xorsign {
        (d & !l.sign()) | xorsign
    } else {
        d
    })
}

fn min_max_sweep<T: Float>(fmt: &FloatFormat, seed: u64) -> usize {
    let l = Layout::of(fmt);
    let mut xs = l.edges();
    let mut r = SplitMix(seed);
    for _ in 0..300 {
        xs.push(l.random(&mut r));
    }
    let mut n = 0;
    for &a in &xs {
        for &b in &xs {
            for bits in 0..8u32 {
                let m = MinMaxMods {
                    ftz: bits & 1 != 0 && fmt.name != "f64" && fmt.name != "bf16",
                    nan: bits & 2 != 0,
                    abs: bits & 4 != 0,
                    xorsign: bits & 4 != 0,
                };
                for is_min in [true, false] {
                    n += 1;
                    let got = if is_min {
                        float::min(fmt, m, a, b, None)
                    } else {
                        float::max(fmt, m, a, b, None)
                    };
                    match min_max_reference::<T>(l, is_min, m, a, b) {
                        Some(w) => {
                            assert_eq!(got.bits, w, "{} min={is_min} {m:?} {a:#x} {b:#x}", fmt.name)
                        }
                        None => {
                            assert!(l.is_nan(got.bits), "{} {a:#x} {b:#x}", fmt.name);
                            // `.NaN`: "the result is canonical NaN".
                            if m.nan {
                                assert_eq!(got.bits, fmt.canonical_nan.unwrap());
                            }
                        }
                    }
                }
            }
        }
    }
    n
}

#[test]
fn min_max_follow_the_pseudocode() {
    let n = min_max_sweep::<Half>(&F16, 1)
        + min_max_sweep::<BFloat>(&BF16, 2)
        + min_max_sweep::<Single>(&F32, 3)
        + min_max_sweep::<Double>(&F64, 4);
    // Three inputs: `d = two_inputs_min(two_inputs_min(a, b), c)`.
    let one = 0x3f80_0000u64;
    let nan = 0x7fc0_0000u64;
    let m = MinMaxMods::default();
    assert_eq!(float::min(&F32, m, nan, nan, Some(one)).bits, one);
    assert_eq!(
        float::max(&F32, m, one, 0x4000_0000, Some(nan)).bits,
        0x4000_0000
    );
    let mn = MinMaxMods { nan: true, ..m };
    assert_eq!(float::min(&F32, mn, one, one, Some(nan)).bits, 0x7fff_ffff);
    // "If values of both inputs are 0.0, then +0.0 > -0.0."
    assert_eq!(float::max(&F32, m, 0x8000_0000, 0, None).bits, 0);
    assert_eq!(float::min(&F32, m, 0, 0x8000_0000, None).bits, 0x8000_0000);
    eprintln!("min/max: {n} cases");
}

fn compare_sweep<T: Float>(fmt: &FloatFormat, seed: u64) -> usize {
    let l = Layout::of(fmt);
    let mut xs = l.edges();
    let mut r = SplitMix(seed);
    for _ in 0..300 {
        let x = l.random(&mut r);
        xs.extend([x, x ^ 1]);
    }
    use CmpOp::*;
    let ops = [
        Eq, Ne, Lt, Le, Gt, Ge, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan,
    ];
    let mut n = 0;
    for &a in &xs {
        for &b in &xs {
            for ftz in [false, true] {
                let flush = |x: u64| {
                    if ftz && l.is_subnormal(x) {
                        x & l.sign()
                    } else {
                        x
                    }
                };
                let o = T::from_bits(flush(a) as u128).partial_cmp(&T::from_bits(flush(b) as u128));
                for op in ops {
                    n += 1;
                    let ordered = |want: &[Ordering]| o.is_some_and(|o| want.contains(&o));
                    let unordered = |want: &[Ordering]| o.is_none_or(|o| want.contains(&o));
                    let want = match op {
                        Eq => ordered(&[Ordering::Equal]),
                        Ne => ordered(&[Ordering::Less, Ordering::Greater]),
                        Lt => ordered(&[Ordering::Less]),
                        Le => ordered(&[Ordering::Less, Ordering::Equal]),
                        Gt => ordered(&[Ordering::Greater]),
                        Ge => ordered(&[Ordering::Greater, Ordering::Equal]),
                        Equ => unordered(&[Ordering::Equal]),
                        Neu => unordered(&[Ordering::Less, Ordering::Greater]),
                        Ltu => unordered(&[Ordering::Less]),
                        Leu => unordered(&[Ordering::Less, Ordering::Equal]),
                        Gtu => unordered(&[Ordering::Greater]),
                        Geu => unordered(&[Ordering::Greater, Ordering::Equal]),
                        Num => o.is_some(),
                        _ => o.is_none(),
                    };
                    assert_eq!(
                        compare::compare_float(fmt, ftz, op, a, b),
                        Some(want),
                        "setp.{op:?} {} {a:#x} {b:#x}",
                        fmt.name
                    );
                }
            }
        }
    }
    assert_eq!(compare::compare_float(fmt, false, Lo, 0, 0), None);
    n
}

#[test]
fn setp_against_apfloat_order() {
    let n = compare_sweep::<Half>(&F16, 1)
        + compare_sweep::<BFloat>(&BF16, 2)
        + compare_sweep::<Single>(&F32, 3)
        + compare_sweep::<Double>(&F64, 4);
    use compare::BoolOp;
    assert_eq!(
        compare::setp_combine(BoolOp::And, true, false),
        (false, false)
    );
    assert_eq!(
        compare::setp_combine(BoolOp::Or, false, false),
        (false, true)
    );
    assert_eq!(
        compare::setp_combine(BoolOp::Xor, true, true),
        (false, true)
    );
    assert_eq!(compare::selp(1, 2, true), 1);
    assert_eq!(compare::selp(1, 2, false), 2);
    eprintln!("setp: {n} cases");
}

#[test]
fn testp_and_bit_ops_against_the_host() {
    let mut r = SplitMix(7);
    let l32 = Layout::of(&F32);
    let mut xs: Vec<u64> = l32.edges();
    for _ in 0..50_000 {
        xs.push(l32.random(&mut r));
    }
    for &x in &xs {
        let v = f32::from_bits(x as u32);
        use std::num::FpCategory::*;
        let cat = v.classify();
        let want = [
            v.is_finite(),
            v.is_infinite(),
            !v.is_nan(),
            v.is_nan(),
            // "As a special case, positive and negative zero are considered normal numbers."
            matches!(cat, Normal | Zero),
            cat == Subnormal,
        ];
        let ops = [
            TestOp::Finite,
            TestOp::Infinite,
            TestOp::Number,
            TestOp::NotANumber,
            TestOp::Normal,
            TestOp::Subnormal,
        ];
        let got = ops.map(|op| compare::testp(&F32, op, x));
        assert_eq!(got.to_vec(), want.to_vec(), "testp {x:#x}");
        let d = f64::from(v).to_bits();
        assert_eq!(
            compare::testp(&F64, TestOp::Normal, d),
            !f64::from(v).is_nan() && !f64::from(v).is_infinite()
        );
        // neg / abs / copysign: the sign bit, subnormals flushed by .ftz.
        let y = r.next() as u32 as u64;
        if !v.is_nan() {
            assert_eq!(float::neg(&F32, false, x).bits, (-v).to_bits() as u64);
            assert_eq!(float::abs(&F32, false, x).bits, v.abs().to_bits() as u64);
            let flushed = if cat == Subnormal {
                0.0f32.copysign(v)
            } else {
                v
            };
            assert_eq!(float::neg(&F32, true, x).bits, (-flushed).to_bits() as u64);
            assert_eq!(
                float::abs(&F32, true, x).bits,
                flushed.abs().to_bits() as u64
            );
        } else {
            assert_eq!(
                float::neg(&F32, false, x).unspecified,
                0x807f_ffff,
                "neg.f32 of NaN is unspecified"
            );
        }
        let fy = f32::from_bits(y as u32);
        assert_eq!(
            float::copysign(&F32, x, y),
            fy.copysign(v).to_bits() as u64,
            "copysign {x:#x} {y:#x}"
        );
    }
    // "For abs.f64, NaN input is passed through unchanged."
    let nan = 0xfff0_0000_0000_0001u64;
    assert_eq!(
        float::abs(&F64, false, nan),
        FpResult {
            bits: nan,
            ..FpResult::default()
        }
    );
}

#[test]
fn packed_lanes_are_independent() {
    let mut r = SplitMix(9);
    let l = Layout::of(&F16);
    for _ in 0..20_000 {
        let (a, b, c) = (r.next() as u32, r.next() as u32, r.next() as u32);
        for fmt in [&F16, &BF16] {
            let m = FpMods {
                relu: true,
                ..FpMods::default()
            };
            let got = float::x2(a, b, c, |x, y, z| {
                float::fma(fmt, Round::NearestEven, m, x, y, z)
            });
            let lo = float::fma(
                fmt,
                Round::NearestEven,
                m,
                (a & 0xffff) as u64,
                (b & 0xffff) as u64,
                (c & 0xffff) as u64,
            );
            let hi = float::fma(
                fmt,
                Round::NearestEven,
                m,
                (a >> 16) as u64,
                (b >> 16) as u64,
                (c >> 16) as u64,
            );
            assert_eq!(
                got.bits,
                lo.bits | hi.bits << 16,
                "fma.rn.relu.{}x2 {a:#x} {b:#x} {c:#x}",
                fmt.name
            );
        }
        let (wa, wb) = (r.next(), r.next());
        let m = FpMods {
            ftz: true,
            ..FpMods::default()
        };
        let got = float::f32x2(wa, wb, 0, |x, y, _| float::mul(&F32, Round::Up, m, x, y));
        let lane = |sh: u32| {
            float::mul(
                &F32,
                Round::Up,
                m,
                (wa >> sh) & 0xffff_ffff,
                (wb >> sh) & 0xffff_ffff,
            )
            .bits
        };
        assert_eq!(
            got.bits,
            lane(0) | lane(32) << 32,
            "mul.rp.ftz.f32x2 {wa:#x} {wb:#x}"
        );
        // One NaN lane leaves the other lane's value alone.
        let a_nan = (a & 0xffff_0000) | 0x7e01;
        let got = float::x2(a_nan, b, 0, |x, y, _| {
            float::add(&F16, Round::NearestEven, FpMods::default(), x, y)
        });
        assert!(l.is_nan(got.bits & 0xffff));
        assert_eq!(
            got.unspecified & 0xffff_0000,
            if l.is_nan(got.bits >> 16) {
                0x83ff_0000
            } else {
                0
            }
        );
    }
}

/// What an H100 (sm_90, driver 580.159.04, PTX JIT through CuPy) gave for
/// the points the text leaves open or leaves to the reader, one row per
/// probe (inputs in the row, the output sm_90's; probed 2026-11-26 while
/// this module was written): the model gives the same bits.
#[test]
fn open_points_are_sm90s() {
    let rn = Round::NearestEven;
    let none = FpMods::default();
    let ftz = FpMods { ftz: true, ..none };
    let sat = FpMods { sat: true, ..none };
    let relu = FpMods { relu: true, ..none };
    let xa = MinMaxMods {
        abs: true,
        xorsign: true,
        ..MinMaxMods::default()
    };
    let mm = MinMaxMods::default();
    let rows: &[(&str, u64, u64)] = &[
        // "Single-precision instructions return an unspecified NaN."
        (
            "add.f32 sNaN, 1.0",
            float::add(&F32, rn, none, 0x7f80_0001, 0x3f80_0000).bits,
            0x7fff_ffff,
        ),
        (
            "add.f32 NaN, -NaN",
            float::add(&F32, rn, none, 0x7fc1_2345, 0xffc0_0001).bits,
            0x7fff_ffff,
        ),
        (
            "mul.f32 0, inf",
            float::mul(&F32, rn, none, 0, 0x7f80_0000).bits,
            0x7fff_ffff,
        ),
        (
            "div.rn.f32 0, 0",
            float::div(&F32, rn, none, 0, 0).bits,
            0x7fff_ffff,
        ),
        (
            "sqrt.rn.f32 -1",
            float::sqrt(&F32, rn, none, 0xbf80_0000).bits,
            0x7fff_ffff,
        ),
        (
            "sqrt.rn.f32 -0",
            float::sqrt(&F32, rn, none, 0x8000_0000).bits,
            0x8000_0000,
        ),
        (
            "add.f16 sNaN, 1",
            float::add(&F16, rn, none, 0x7c01, 0x3c00).bits,
            0x7fff,
        ),
        (
            "add.f16 inf, -inf",
            float::add(&F16, rn, none, 0x7c00, 0xfc00).bits,
            0x7fff,
        ),
        (
            "add.rn.bf16 NaN, 1",
            float::add(&BF16, rn, none, 0x7f81, 0x3f80).bits,
            0x7fff,
        ),
        // .f64: one NaN passed on quieted; of two, `b`'s; invalid: -qNaN.
        (
            "add.f64 sNaN, 1",
            float::add(&F64, rn, none, 0x7ff0_0000_0000_0001, 0x3ff0_0000_0000_0000).bits,
            0x7ff8_0000_0000_0001,
        ),
        (
            "add.f64 -sNaN, 0",
            float::add(&F64, rn, none, 0xfff4_0000_0000_0001, 0).bits,
            0xfffc_0000_0000_0001,
        ),
        (
            "add.f64 NaN, -NaN",
            float::add(&F64, rn, none, 0x7ff8_0000_0000_1234, 0xfff8_0000_0000_5678).bits,
            0xfff8_0000_0000_5678,
        ),
        (
            "add.f64 sNaN, qNaN",
            float::add(&F64, rn, none, 0x7ff0_0000_0000_0001, 0x7ff8_0000_0000_0002).bits,
            0x7ff8_0000_0000_0002,
        ),
        (
            "add.f64 qNaN, sNaN",
            float::add(&F64, rn, none, 0x7ff8_0000_0000_0002, 0x7ff0_0000_0000_0001).bits,
            0x7ff8_0000_0000_0001,
        ),
        (
            "mul.f64 NaN, NaN",
            float::mul(&F64, rn, none, 0x7ff8_0000_0000_0009, 0x7ff8_0000_0000_0002).bits,
            0x7ff8_0000_0000_0002,
        ),
        (
            "fma.rn.f64 NaN x3",
            float::fma(
                &F64,
                rn,
                none,
                0x7ff8_0000_0000_0001,
                0x7ff8_0000_0000_0002,
                0x7ff8_0000_0000_0003,
            )
            .bits,
            0x7ff8_0000_0000_0002,
        ),
        (
            "fma.rn.f64 1, NaN, NaN",
            float::fma(
                &F64,
                rn,
                none,
                0x3ff0_0000_0000_0000,
                0x7ff8_0000_0000_0002,
                0x7ff8_0000_0000_0003,
            )
            .bits,
            0x7ff8_0000_0000_0002,
        ),
        (
            "add.f64 inf, -inf",
            float::add(&F64, rn, none, 0x7ff0_0000_0000_0000, 0xfff0_0000_0000_0000).bits,
            0xfff8_0000_0000_0000,
        ),
        (
            "div.rn.f64 0, 0",
            float::div(&F64, rn, none, 0, 0).bits,
            0xfff8_0000_0000_0000,
        ),
        (
            "sqrt.rn.f64 -1",
            float::sqrt(&F64, rn, none, 0xbff0_0000_0000_0000).bits,
            0xfff8_0000_0000_0000,
        ),
        // `.sat` and `.relu` of -0.0 give +0.0; NaN under `.sat` gives +0.0.
        (
            "mul.sat.f32 -1, 0",
            float::mul(&F32, rn, sat, 0xbf80_0000, 0).bits,
            0,
        ),
        (
            "add.sat.f32 -0, -0",
            float::add(&F32, rn, sat, 0x8000_0000, 0x8000_0000).bits,
            0,
        ),
        (
            "add.sat.f32 NaN, 0",
            float::add(&F32, rn, sat, 0x7fc0_0001, 0).bits,
            0,
        ),
        (
            "fma.rn.relu.f16 -1, 0, -0",
            float::fma(&F16, rn, relu, 0xbc00, 0, 0x8000).bits,
            0,
        ),
        (
            "fma.rn.sat.f16 -1, 0, -0",
            float::fma(&F16, rn, sat, 0xbc00, 0, 0x8000).bits,
            0,
        ),
        (
            "fma.rn.relu.f16 NaN",
            float::fma(&F16, rn, relu, 0x7c01, 0x3c00, 0).bits,
            0x7fff,
        ),
        // `.ftz`: tiny after rounding with an unbounded exponent.
        (
            "mul.rn.ftz.f32 (1-2^-23) * 2^-126(1+2^-23)",
            float::mul(&F32, rn, ftz, 0x3f7f_fffe, 0x0080_0001).bits,
            0x0080_0000,
        ),
        (
            "mul.rp.ftz.f32 same",
            float::mul(&F32, Round::Up, ftz, 0x3f7f_fffe, 0x0080_0001).bits,
            0x0080_0000,
        ),
        (
            "mul.rn.ftz.f32 (1-2^-24) * 2^-126",
            float::mul(&F32, rn, ftz, 0x3f7f_ffff, 0x0080_0000).bits,
            0,
        ),
        (
            "mul.rp.ftz.f32 (1-2^-24) * 2^-126",
            float::mul(&F32, Round::Up, ftz, 0x3f7f_ffff, 0x0080_0000).bits,
            0,
        ),
        (
            "mul.rz.ftz.f32 (1-2^-24) * 2^-126",
            float::mul(&F32, Round::TowardZero, ftz, 0x3f7f_ffff, 0x0080_0000).bits,
            0,
        ),
        (
            "fma.rn.ftz.f32",
            float::fma(&F32, rn, ftz, 0x3f7f_fffe, 0x0080_0001, 0).bits,
            0x0080_0000,
        ),
        (
            "fma.rn.ftz.f32 tie",
            float::fma(&F32, rn, ftz, 0x3f7f_ffff, 0x0080_0000, 0).bits,
            0,
        ),
        (
            "div.rn.ftz.f32",
            float::div(&F32, rn, ftz, 0x0080_0000, 0x3f80_0001).bits,
            0,
        ),
        (
            "div.rn.ftz.f32 sub",
            float::div(&F32, rn, ftz, 0x007f_ffff, 0x3f7f_ffff).bits,
            0,
        ),
        (
            "mul.rn.ftz.f16",
            float::mul(&F16, rn, ftz, 0x3bfe, 0x0401).bits,
            0x0400,
        ),
        (
            "mul.rn.ftz.f16 tie",
            float::mul(&F16, rn, ftz, 0x3bff, 0x0400).bits,
            0,
        ),
        (
            "fma.rn.ftz.f16",
            float::fma(&F16, rn, ftz, 0x3bfe, 0x0401, 0).bits,
            0x0400,
        ),
        // neg/abs of NaN: "unspecified NaN".
        (
            "abs.f32 -NaN",
            float::abs(&F32, false, 0xffc0_0001).bits,
            0x7fff_ffff,
        ),
        (
            "abs.f32 sNaN",
            float::abs(&F32, false, 0x7f80_0001).bits,
            0x7fff_ffff,
        ),
        (
            "neg.f32 sNaN",
            float::neg(&F32, false, 0x7f80_0001).bits,
            0x7fff_ffff,
        ),
        (
            "neg.f32 -NaN",
            float::neg(&F32, false, 0xffc0_0001).bits,
            0x7fff_ffff,
        ),
        (
            "neg.f32 subnormal",
            float::neg(&F32, false, 1).bits,
            0x8000_0001,
        ),
        (
            "neg.ftz.f32 subnormal",
            float::neg(&F32, true, 1).bits,
            0x8000_0000,
        ),
        ("neg.f16 NaN", float::neg(&F16, false, 0xfe01).bits, 0x7fff),
        ("abs.f16 sNaN", float::abs(&F16, false, 0x7c01).bits, 0x7fff),
        (
            "neg.bf16 NaN",
            float::neg(&BF16, false, 0x7f81).bits,
            0x7fff,
        ),
        (
            "abs.bf16 NaN",
            float::abs(&BF16, false, 0xffc1).bits,
            0x7fff,
        ),
        (
            "neg.f64 sNaN",
            float::neg(&F64, false, 0x7ff0_0000_0000_0001).bits,
            0x7ff8_0000_0000_0001,
        ),
        (
            "neg.f64 -qNaN",
            float::neg(&F64, false, 0xfff8_0000_0000_0001).bits,
            0xfff8_0000_0000_0001,
        ),
        (
            "abs.f64 -qNaN",
            float::abs(&F64, false, 0xfff8_0000_0000_0001).bits,
            0xfff8_0000_0000_0001,
        ),
        // min/max.
        (
            "min.f32 NaN, -NaN",
            float::min(&F32, mm, 0x7fc0_0001, 0xffc0_0002, None).bits,
            0x7fff_ffff,
        ),
        (
            "min.f32 sNaN, 1",
            float::min(&F32, mm, 0x7f80_0001, 0x3f80_0000, None).bits,
            0x3f80_0000,
        ),
        (
            "min.f32 -0, +0",
            float::min(&F32, mm, 0x8000_0000, 0, None).bits,
            0x8000_0000,
        ),
        (
            "min.NaN.f32 sNaN, 1",
            float::min(
                &F32,
                MinMaxMods { nan: true, ..mm },
                0x7f80_0001,
                0x3f80_0000,
                None,
            )
            .bits,
            0x7fff_ffff,
        ),
        (
            "min.f16 NaN, -NaN",
            float::min(&F16, mm, 0x7e01, 0xfe02, None).bits,
            0x7fff,
        ),
        (
            "max.xorsign.abs.f32 -1, 2",
            float::max(&F32, xa, 0xbf80_0000, 0x4000_0000, None).bits,
            0xc000_0000,
        ),
        (
            "max.xorsign.abs.f32 NaN, -1",
            float::max(&F32, xa, 0x7fc0_0001, 0xbf80_0000, None).bits,
            0xbf80_0000,
        ),
        (
            "copysign.f32 -0, NaN",
            float::copysign(&F32, 0x8000_0000, 0x7fc0_0001),
            0xffc0_0001,
        ),
        (
            "testp.normal.f32 +0",
            compare::testp(&F32, TestOp::Normal, 0) as u64,
            1,
        ),
        (
            "testp.normal.f32 -0",
            compare::testp(&F32, TestOp::Normal, 0x8000_0000) as u64,
            1,
        ),
        (
            "testp.normal.f32 0x1",
            compare::testp(&F32, TestOp::Normal, 1) as u64,
            0,
        ),
        (
            "testp.subnormal.f32 0",
            compare::testp(&F32, TestOp::Subnormal, 0) as u64,
            0,
        ),
    ];
    for (what, got, want) in rows {
        assert_eq!(got, want, "{what}: model {got:#x}, sm_90 {want:#x}");
    }
}

// ---- PTX ISA 9.7.5 mixed precision ----

use float::MixedOp;

/// The value a mixed precision form must give, from apfloat: "Converts
/// input operand `a` from `.atype` into `.f32` type" (apfloat's conversion,
/// exact from `.f16`/`.bf16`), then the `.f32` operation rounded once in
/// the mode (for fma "computes the product of `a` and `b` to infinite
/// precision and then adds `c` to this product, again in infinite
/// precision. The resulting value is then rounded to single precision");
/// "`.sat` clamps the result to [0.0, 1.0]. `NaN` results are flushed to
/// `+0.0f`" (-0.0 taken to +0.0 as for the `.f32` forms).
fn mixed_expect<S: Float + FloatConvert<Single>>(
    op: MixedOp,
    mode: AR,
    sat: bool,
    a: u64,
    b: u64,
    c: u64,
) -> Expect {
    let cv = |x: u64| -> Single { S::from_bits(x as u128).convert(&mut false).value };
    let r = match op {
        MixedOp::Add => cv(a).add_r(Single::from_bits(b as u128), mode),
        MixedOp::Sub => cv(a).sub_r(Single::from_bits(b as u128), mode),
        MixedOp::Fma => cv(a).mul_add_r(cv(b), Single::from_bits(c as u128), mode),
    }
    .value;
    let bits = r.to_bits() as u64;
    if sat {
        if r.is_nan() || r.is_negative() {
            return Expect::Bits(0);
        }
        if r > Single::from_u128(1).value {
            return Expect::Bits(0x3f80_0000);
        }
    }
    if r.is_nan() {
        Expect::Nan
    } else {
        Expect::Bits(bits)
    }
}

/// The same in the host's `f32` (round to nearest even only): `half`'s
/// widening, Rust's `+`, `-` and fused `mul_add`; a second formulation
/// that shares nothing with apfloat or the model.
fn mixed_host(op: MixedOp, src: &FloatFormat, a: u64, b: u64, c: u64) -> f32 {
    let cv = |x: u64| {
        if src.name == "f16" {
            half::f16::from_bits(x as u16).to_f32()
        } else {
            half::bf16::from_bits(x as u16).to_f32()
        }
    };
    match op {
        MixedOp::Add => cv(a) + f32::from_bits(b as u32),
        MixedOp::Sub => cv(a) - f32::from_bits(b as u32),
        MixedOp::Fma => cv(a).mul_add(cv(b), f32::from_bits(c as u32)),
    }
}

/// Every edge combination (16-bit `a`, `b`; `.f32` `c`) and random sets in
/// every mode, with and without `.sat`: the model against apfloat, and at
/// `.rn` against the host. A NaN result is `add.f32`'s: "Single-precision
/// instructions return an unspecified NaN" (the canonical `0x7fffffff`, sign
/// and payload open).
fn mixed_sweep<S: Float + FloatConvert<Single>>(src: &FloatFormat, seed: u64) -> usize {
    let (l16, l32) = (Layout::of(src), Layout::of(&F32));
    let (e16, e32) = (l16.edges(), l32.edges());
    let mut r = SplitMix(seed);
    let mut sets: Vec<(MixedOp, u64, u64, u64)> = Vec::new();
    for op in [MixedOp::Add, MixedOp::Sub, MixedOp::Fma] {
        for &a in &e16 {
            for &c in &e32 {
                if op == MixedOp::Fma {
                    for &b in &e16 {
                        sets.push((op, a, b, c));
                    }
                } else {
                    sets.push((op, a, c, 0));
                }
            }
        }
        // every 16-bit `a` with a random `c` and one that nearly cancels it
        for a in 0..=0xffffu64 {
            let b = l16.random(&mut r);
            let ca = S::from_bits(a as u128).convert(&mut false).value;
            let ca: Single = ca;
            let cancel = (ca.to_bits() as u64) ^ (r.next() & 0xff);
            let near = if op == MixedOp::Add {
                cancel ^ l32.sign()
            } else {
                cancel
            };
            for c in [l32.random(&mut r), near] {
                match op {
                    MixedOp::Fma => {
                        let p: Single = S::from_bits(a as u128)
                            .convert(&mut false)
                            .value
                            .mul_r(
                                S::from_bits(b as u128).convert(&mut false).value,
                                AR::NearestTiesToEven,
                            )
                            .value;
                        let c = if c == near {
                            (p.to_bits() as u64 ^ l32.sign()) ^ (r.next() & 0x3)
                        } else {
                            c
                        };
                        sets.push((op, a, b, c));
                    }
                    _ => sets.push((op, a, c, 0)),
                }
            }
        }
    }
    let mut n = 0;
    for &(op, a, b, c) in &sets {
        for (round, mode) in MODES {
            for sat in [false, true] {
                n += 1;
                let got = float::mixed(op, src, round, sat, a, b, c);
                let ctx = || {
                    format!(
                        "{op:?}.f32.{} {round:?} sat={sat} a={a:#x} b={b:#x} c={c:#x}: {got:x?}",
                        src.name
                    )
                };
                match mixed_expect::<S>(op, mode, sat, a, b, c) {
                    Expect::Bits(w) => {
                        assert_eq!(got.bits, w, "{}", ctx());
                        assert_eq!(got.unspecified, 0, "{}", ctx());
                    }
                    Expect::Nan => {
                        assert_eq!(got.bits, 0x7fff_ffff, "{}", ctx());
                        assert_eq!(got.unspecified, 0x807f_ffff, "{}", ctx());
                    }
                }
                if round == Round::NearestEven && !sat {
                    let h = mixed_host(op, src, a, b, c);
                    if h.is_nan() {
                        assert!(l32.is_nan(got.bits), "host: {}", ctx());
                    } else {
                        assert_eq!(got.bits, u64::from(h.to_bits()), "host: {}", ctx());
                    }
                }
            }
        }
    }
    n
}

#[test]
fn mixed_precision_against_apfloat_and_the_host() {
    let n = mixed_sweep::<Half>(&F16, 51) + mixed_sweep::<BFloat>(&BF16, 52);
    eprintln!("mixed precision: {n} cases");
}

#[test]
fn mixed_precision_widening_is_exact() {
    // "Converts input operand a from .atype into .f32 type": every .f16 and
    // .bf16 encoding against `half`'s widening (a NaN to some NaN, its sign
    // kept) and, for .bf16, against the layout (the upper half of .f32).
    for x in 0..=0xffffu64 {
        for (fmt, host) in [
            (&F16, half::f16::from_bits(x as u16).to_f32()),
            (&BF16, half::bf16::from_bits(x as u16).to_f32()),
        ] {
            let w = float::widen_to_f32(fmt, x);
            if host.is_nan() {
                assert!(f32::from_bits(w as u32).is_nan(), "{} {x:#x}", fmt.name);
                assert_eq!(w >> 31, x >> 15, "{} {x:#x}", fmt.name);
            } else {
                assert_eq!(w, u64::from(host.to_bits()), "{} {x:#x}", fmt.name);
            }
            if fmt.name == "bf16" && !host.is_nan() {
                assert_eq!(w, x << 16);
            }
        }
    }
}

// ---- Half Precision Comparison Instructions: set, setp ----

/// One lane's comparison from apfloat's order, PTX's rules written again:
/// ordered operators false on a NaN, unordered true, `num`/`nan`;
/// "`setp.ftz.{f16,f16x2}` flushes subnormal inputs to sign-preserving
/// zero".
fn lane_cmp<T: Float>(l: Layout, op: CmpOp, ftz: bool, a: u64, b: u64) -> bool {
    use CmpOp::*;
    let flush = |x: u64| {
        if ftz && l.is_subnormal(x) {
            x & l.sign()
        } else {
            x
        }
    };
    let o = T::from_bits(flush(a) as u128).partial_cmp(&T::from_bits(flush(b) as u128));
    let is = |want: &[Ordering]| o.is_some_and(|o| want.contains(&o));
    match op {
        Eq => is(&[Ordering::Equal]),
        Ne => is(&[Ordering::Less, Ordering::Greater]),
        Lt => is(&[Ordering::Less]),
        Le => is(&[Ordering::Less, Ordering::Equal]),
        Gt => is(&[Ordering::Greater]),
        Ge => is(&[Ordering::Greater, Ordering::Equal]),
        Equ => o.is_none() || is(&[Ordering::Equal]),
        Neu => o != Some(Ordering::Equal),
        Ltu => o.is_none() || is(&[Ordering::Less]),
        Leu => o != Some(Ordering::Greater),
        Gtu => o.is_none() || is(&[Ordering::Greater]),
        Geu => o != Some(Ordering::Less),
        Num => o.is_some(),
        _ => o.is_none(),
    }
}

/// `.f16x2`/`.bf16x2` `setp` and `set`, and the scalar half `set`, on
/// pairs of lanes from the edges and random bits, every operator, `.ftz`,
/// `.BoolOp` with both values of `c`: "`p = BoolOp(t[0], c); q =
/// BoolOp(t[1], c);`"; "`d[i] = BoolOp(t[i], c) ? 1.0 : 0.0`" for a packed
/// float destination, "`0xffff : 0`" for `.u32`/`.s32`; scalar: "1.0 in
/// target precision floating point format" for `.f16`/`.bf16`, 0xffff for
/// `.u16`/`.s16`, 0xffffffff for `.u32`/`.s32`.
fn half_compare_sweep<T: Float>(fmt: &'static FloatFormat, seed: u64) -> usize {
    use compare::{BoolOp, SetDest};
    use ptx_semantics::arith::video::SetType;
    use CmpOp::*;
    let l = Layout::of(fmt);
    let mut xs = l.edges();
    let mut r = SplitMix(seed);
    for _ in 0..60 {
        let x = l.random(&mut r);
        xs.extend([x, x ^ 1]);
    }
    let ops = [
        Eq, Ne, Lt, Le, Gt, Ge, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan,
    ];
    let combos = [
        None,
        Some((BoolOp::And, true)),
        Some((BoolOp::And, false)),
        Some((BoolOp::Or, true)),
        Some((BoolOp::Or, false)),
        Some((BoolOp::Xor, true)),
        Some((BoolOp::Xor, false)),
    ];
    let bool_op = |k: Option<(BoolOp, bool)>, t: bool| match k {
        None => t,
        Some((BoolOp::And, c)) => t & c,
        Some((BoolOp::Or, c)) => t | c,
        Some((BoolOp::Xor, c)) => t != c,
    };
    let one16 = if fmt.name == "f16" { 0x3c00 } else { 0x3f80 };
    let mut n = 0;
    for (i, &a0) in xs.iter().enumerate() {
        for &b0 in &xs {
            // the other lane: a neighbour's pair, so lanes differ
            let a1 = xs[(i * 7 + 3) % xs.len()];
            let b1 = xs[(i * 13 + 5) % xs.len()];
            let (a, b) = (a0 | a1 << 16, b0 | b1 << 16);
            for ftz in [false, true] {
                for op in ops {
                    let t0 = lane_cmp::<T>(l, op, ftz, a0, b0);
                    let t1 = lane_cmp::<T>(l, op, ftz, a1, b1);
                    for k in combos {
                        n += 1;
                        let (p, q) = (bool_op(k, t0), bool_op(k, t1));
                        let ctx = || format!("{op:?} {k:?} ftz={ftz} {a:#x} {b:#x}");
                        assert_eq!(
                            compare::setp_x2(fmt, op, ftz, k, a, b),
                            Some((p, q)),
                            "setp.{}x2 {}",
                            fmt.name,
                            ctx()
                        );
                        let lanes =
                            |on: u64| (if p { on } else { 0 }) | (if q { on << 16 } else { 0 });
                        assert_eq!(
                            compare::set_x2(fmt, op, ftz, k, true, a, b),
                            Some(lanes(one16)),
                            "set.{0}x2.{0}x2 {1}",
                            fmt.name,
                            ctx()
                        );
                        assert_eq!(
                            compare::set_x2(fmt, op, ftz, k, false, a, b),
                            Some(lanes(0xffff)),
                            "set.u32.{}x2 {}",
                            fmt.name,
                            ctx()
                        );
                        for (dest, on) in [
                            (SetDest::F16, 0x3c00),
                            (SetDest::BF16, 0x3f80),
                            (SetDest::U16, 0xffff),
                            (SetDest::U32, 0xffff_ffff),
                            (SetDest::F32, 0x3f80_0000),
                        ] {
                            assert_eq!(
                                compare::set_half(SetType::Float(fmt), op, ftz, k, dest, a0, b0),
                                Some(if p { on } else { 0 }),
                                "set.{dest:?}.{} {}",
                                fmt.name,
                                ctx()
                            );
                        }
                    }
                }
            }
        }
    }
    for op in [Lo, Ls, Hi, Hs] {
        assert_eq!(compare::setp_x2(fmt, op, false, None, 0, 0), None);
        assert_eq!(compare::set_x2(fmt, op, false, None, true, 0, 0), None);
    }
    n
}

#[test]
fn half_precision_set_and_setp_against_apfloat_order() {
    let n = half_compare_sweep::<Half>(&F16, 61) + half_compare_sweep::<BFloat>(&BF16, 62);
    eprintln!("half set/setp: {n} cases");
}
