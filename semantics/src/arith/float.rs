//! Floating-point arithmetic (PTX ISA 9.7.3) and half-precision arithmetic
//! (9.7.4): `add sub mul fma mad div rcp sqrt` in their IEEE-exact forms,
//! `min max neg abs copysign`, on `.f16 .bf16 .f32 .f64` and the packed
//! `x2` forms. Values are exact and rounded once (`cvt::round`); PTX's
//! rules (`.ftz`, `.sat`, `.relu`, NaN results) are applied here. The
//! approximate forms (`.approx`, `.full`) are left to others.

pub use crate::cvt::format::{FloatFormat, BF16, F16, F32, F64};
use crate::cvt::round::{decode, encode, round_sig_pub, round_to_float, Decoded, Round};

/// PTX's result modifiers: `.ftz` flushes subnormal inputs and results to
/// sign-preserving zero; `.sat` clamps to [0.0, 1.0] (NaN to +0.0);
/// `.relu` clamps negative results to 0 (NaN to the canonical NaN).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FpMods {
    pub ftz: bool,
    pub sat: bool,
    pub relu: bool,
}

/// A float result: its bits, IEEE flags, and `unspecified`, the bits the
/// spec leaves open (a NaN result whose sign and payload are not
/// specified has the sign and significand bits set here; it is still a
/// NaN).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FpResult {
    pub bits: u64,
    pub inexact: bool,
    pub overflow: bool,
    pub unspecified: u64,
}

impl FpResult {
    const fn exact(bits: u64) -> FpResult {
        FpResult {
            bits,
            inexact: false,
            overflow: false,
            unspecified: 0,
        }
    }
}

fn is_subnormal(fmt: &FloatFormat, bits: u64) -> bool {
    let exp = (bits >> fmt.man_bits) & ((1 << fmt.exp_bits) - 1);
    exp == 0 && bits & ((1 << fmt.man_bits) - 1) != 0
}

fn is_nan(fmt: &FloatFormat, bits: u64) -> bool {
    matches!(decode(fmt, bits), Decoded::Nan { .. })
}

/// The sign and significand bits: what an unspecified NaN leaves open.
fn nan_open_bits(fmt: &FloatFormat) -> u64 {
    fmt.sign_mask() | ((1 << fmt.man_bits) - 1)
}

/// An operand as the instruction sees it: "`.ftz` flushes subnormal inputs
/// ... to sign-preserving zero".
fn input(fmt: &FloatFormat, ftz: bool, bits: u64) -> u64 {
    let bits = bits & width_mask(fmt);
    if ftz && is_subnormal(fmt, bits) {
        bits & fmt.sign_mask()
    } else {
        bits
    }
}

fn width_mask(fmt: &FloatFormat) -> u64 {
    if fmt.width() >= 64 {
        u64::MAX
    } else {
        (1 << fmt.width()) - 1
    }
}

/// The NaN sm_90 gives for an invalid `.f64` operation (`inf - inf`,
/// `0 * inf`, `0 / 0`, `sqrt(-1)`): the negative default NaN.
pub const F64_INVALID_NAN: u64 = 0xfff8_0000_0000_0000;

/// A NaN result from NaN operands (`operands` in the order of preference)
/// or an invalid operation (no operands). `.f64`: "NaN payloads are
/// supported for double-precision instructions": a single NaN operand is
/// passed on, quieted (IEEE 754 6.2.3); which of several is silent, and so
/// is the NaN of an invalid operation: we give sm_90's, marked open (the
/// H100 baseline, corpus/simulator: `add`/`sub`/`mul` take `b`'s NaN before
/// `a`'s, `fma`/`mad` `b`'s, then `c`'s, then `a`'s, `div` `a`'s before
/// `b`'s; an invalid operation gives [`F64_INVALID_NAN`]). Other formats: "Single-precision
/// instructions return an unspecified NaN" (9.7.4 is silent for `.f16` and
/// `.bf16`): the canonical NaN sm_90 gives (`0x7fffffff`, `0x7fff`), sign
/// and payload marked open.
fn nan_result(fmt: &FloatFormat, operands: &[u64]) -> FpResult {
    let open = nan_open_bits(fmt);
    if fmt.width() == 64 {
        let nan_count = operands.iter().filter(|&&x| is_nan(fmt, x)).count();
        // Callers list the operands in sm_90's order of preference.
        let chosen = operands.iter().copied().find(|&x| is_nan(fmt, x));
        return match chosen {
            Some(x) => FpResult {
                bits: x | 1 << (fmt.man_bits - 1),
                unspecified: if nan_count == 1 { 0 } else { open },
                ..FpResult::default()
            },
            None => FpResult {
                bits: F64_INVALID_NAN,
                unspecified: open,
                ..FpResult::default()
            },
        };
    }
    FpResult {
        bits: fmt.canonical_nan.unwrap_or(0),
        unspecified: open,
        ..FpResult::default()
    }
}

/// An exact value `±sig * 2^exp`; `sig == 0` is a signed zero.
#[derive(Clone, Copy, Debug)]
struct Term {
    neg: bool,
    sig: u128,
    exp: i32,
}

fn term(d: Decoded) -> Term {
    match d {
        Decoded::Finite { neg, sig, exp } => Term {
            neg,
            sig: sig as u128,
            exp,
        },
        Decoded::Zero { neg } | Decoded::Inf { neg } | Decoded::Nan { neg, .. } => Term {
            neg,
            sig: 0,
            exp: 0,
        },
    }
}

fn bit_len(x: u128) -> i32 {
    128 - x.leading_zeros() as i32
}

/// The exact sum `x + y`, or a value that rounds the same in every mode:
/// bits of the smaller addend far below the larger one's precision are
/// folded into one sticky bit. IEEE 754 6.3: an exact zero sum of
/// opposite signs is +0, except -0 when rounding toward negative.
fn sum(x: Term, y: Term, round: Round) -> Term {
    if x.sig == 0 && y.sig == 0 {
        let neg = if x.neg == y.neg {
            x.neg
        } else {
            round == Round::Down
        };
        return Term {
            neg,
            sig: 0,
            exp: 0,
        };
    }
    if x.sig == 0 {
        return y;
    }
    if y.sig == 0 {
        return x;
    }
    let top = |t: &Term| t.exp + bit_len(t.sig);
    let (big, small) = if top(&x) >= top(&y) { (x, y) } else { (y, x) };
    // The larger addend with its top bit at bit 124; the smaller aligned
    // to it (its top is no higher), low bits folded into a sticky bit.
    let shift = 125 - bit_len(big.sig);
    let bsig = big.sig << shift;
    let exp = big.exp - shift;
    let ssig = if small.exp >= exp {
        small.sig << (small.exp - exp)
    } else {
        let d = (exp - small.exp) as u32;
        if d >= 128 {
            1
        } else {
            (small.sig >> d) | ((small.sig & ((1u128 << d) - 1)) != 0) as u128
        }
    };
    if big.neg == small.neg {
        return Term {
            neg: big.neg,
            sig: bsig + ssig,
            exp,
        };
    }
    match bsig.cmp(&ssig) {
        std::cmp::Ordering::Greater => Term {
            neg: big.neg,
            sig: bsig - ssig,
            exp,
        },
        std::cmp::Ordering::Less => Term {
            neg: small.neg,
            sig: ssig - bsig,
            exp,
        },
        std::cmp::Ordering::Equal => Term {
            neg: round == Round::Down,
            sig: 0,
            exp: 0,
        },
    }
}

/// Rounds an exact value into `fmt` (IEEE 754 4.3, overflow as in 7.4: to
/// infinity or to the largest finite number, by the mode). With `ftz`, a
/// tiny result "flushes ... to sign-preserving zero"; the text does not say
/// when a result is tiny: we follow sm_90, which flushes a result that is
/// below the smallest normal number after rounding to the format's
/// precision with an unbounded exponent (IEEE 754 7.5, "after rounding"):
/// `mul.rn.ftz.f32 0x3f7ffffe, 0x00800001` is `0x00800000` there, while
/// `mul.rn.ftz.f32 0x3f7fffff, 0x00800000`, `mul.rp.ftz.f32` of the same,
/// is 0.
fn round_term(fmt: &FloatFormat, round: Round, ftz: bool, t: Term) -> FpResult {
    let sign = if t.neg { fmt.sign_mask() } else { 0 };
    if t.sig == 0 {
        return FpResult::exact(sign);
    }
    // At most 64 significant bits, the rest folded into a sticky bit:
    // far below any of our formats' rounding points.
    let (sig, exp) = if t.sig >> 64 != 0 {
        let sh = 64 - t.sig.leading_zeros();
        let kept = (t.sig >> sh) as u64 | ((t.sig & ((1u128 << sh) - 1)) != 0) as u64;
        (kept, t.exp + sh as i32)
    } else {
        (t.sig as u64, t.exp)
    };
    if ftz && tiny_after_rounding(fmt, round, t.neg, sig, exp) {
        return FpResult {
            bits: sign,
            inexact: true,
            ..FpResult::default()
        };
    }
    let r = round_to_float(fmt, t.neg, sig, exp, round);
    if r.overflow {
        let to_inf = match round {
            Round::TowardZero => false,
            Round::Down => t.neg,
            Round::Up => !t.neg,
            _ => true,
        };
        let bits = sign | if to_inf { fmt.inf() } else { fmt.max_norm() };
        return FpResult {
            bits,
            inexact: true,
            overflow: true,
            unspecified: 0,
        };
    }
    FpResult {
        bits: encode(fmt, &r),
        inexact: r.inexact,
        overflow: false,
        unspecified: 0,
    }
}

/// Whether `±sig * 2^exp` rounded to `fmt`'s precision, its exponent
/// unbounded, is below `fmt`'s smallest normal number.
fn tiny_after_rounding(fmt: &FloatFormat, round: Round, neg: bool, sig: u64, exp: i32) -> bool {
    let p = fmt.precision() as i32;
    let mut top = exp + 63 - sig.leading_zeros() as i32;
    let q = top - (p - 1);
    if q > exp {
        let (kept, _) = round_sig_pub(neg, sig, (q - exp) as u32, round);
        if kept >> p == 1 {
            top += 1;
        }
    }
    top < fmt.emin()
}

/// PTX's result rules, in order: `.ftz` ("flushes ... results to
/// sign-preserving zero"; tiny results are already zero, see
/// [`round_term`]; this catches any subnormal left), then `.sat`
/// ("clamps the result to [0.0, 1.0]. NaN results are flushed to +0.0f")
/// or `.relu` ("clamps the result to 0 if negative. NaN results are
/// converted to canonical NaN"). A negative zero becomes +0.0 under `.sat`
/// and `.relu` (the text is silent on -0.0; sm_90 gives +0.0, as for
/// `cvt`).
fn finish(fmt: &FloatFormat, m: FpMods, mut r: FpResult) -> FpResult {
    let nan = is_nan(fmt, r.bits);
    if m.ftz && is_subnormal(fmt, r.bits) {
        r.bits &= fmt.sign_mask();
    }
    if m.sat {
        let one = (fmt.bias() as u64) << fmt.man_bits;
        if nan || r.bits & fmt.sign_mask() != 0 {
            return FpResult::exact(0);
        }
        if r.bits > one {
            r.bits = one;
        }
    }
    if m.relu {
        if nan {
            return FpResult::exact(fmt.canonical_nan.unwrap_or(0));
        }
        if r.bits & fmt.sign_mask() != 0 {
            return FpResult { bits: 0, ..r };
        }
    }
    r
}

/// `add{.rnd}{.ftz}{.sat}.f32`, `add{.rnd}.f64` (PTX ISA 9.7.3.3) and
/// `add{.rnd}{.ftz}{.sat}.f16`, `add{.rnd}.bf16` (9.7.4.1): "`d = a + b;`",
/// rounded by `.rn .rz .rm .rp` ("mantissa LSB rounds to nearest even" ...).
pub fn add(fmt: &FloatFormat, round: Round, m: FpMods, a: u64, b: u64) -> FpResult {
    let (a, b) = (input(fmt, m.ftz, a), input(fmt, m.ftz, b));
    let r = match (decode(fmt, a), decode(fmt, b)) {
        (Decoded::Nan { .. }, _) | (_, Decoded::Nan { .. }) => nan_result(fmt, &[b, a]),
        (Decoded::Inf { neg: x }, Decoded::Inf { neg: y }) if x != y => nan_result(fmt, &[]),
        (Decoded::Inf { neg }, _) | (_, Decoded::Inf { neg }) => {
            FpResult::exact(fmt.inf() | if neg { fmt.sign_mask() } else { 0 })
        }
        (x, y) => round_term(fmt, round, m.ftz, sum(term(x), term(y), round)),
    };
    finish(fmt, m, r)
}

/// `sub` (PTX ISA 9.7.3.4, 9.7.4.2): "`d = a - b;`", as `add` of `-b`.
pub fn sub(fmt: &FloatFormat, round: Round, m: FpMods, a: u64, b: u64) -> FpResult {
    let b_in = input(fmt, m.ftz, b);
    if is_nan(fmt, b_in) {
        // A NaN operand is passed on as it is, not negated.
        return finish(fmt, m, nan_result(fmt, &[b_in, input(fmt, m.ftz, a)]));
    }
    add(fmt, round, m, a, b_in ^ fmt.sign_mask())
}

/// `mul{.rnd}{.ftz}{.sat}.f32`, `mul{.rnd}.f64` (PTX ISA 9.7.3.5) and
/// `mul{.rnd}{.ftz}{.sat}.f16`, `mul{.rnd}.bf16` (9.7.4.3): "`d = a * b;`".
pub fn mul(fmt: &FloatFormat, round: Round, m: FpMods, a: u64, b: u64) -> FpResult {
    let (a, b) = (input(fmt, m.ftz, a), input(fmt, m.ftz, b));
    let (x, y) = (decode(fmt, a), decode(fmt, b));
    let r = match product(fmt, x, y) {
        Prod::Nan => nan_result(fmt, &[b, a]),
        Prod::Invalid => nan_result(fmt, &[]),
        Prod::Inf(neg) => FpResult::exact(fmt.inf() | if neg { fmt.sign_mask() } else { 0 }),
        Prod::Exact(t) => round_term(fmt, round, m.ftz, t),
    };
    finish(fmt, m, r)
}

enum Prod {
    Nan,
    Invalid,
    Inf(bool),
    Exact(Term),
}

/// The exact product of two decoded operands.
fn product(_fmt: &FloatFormat, x: Decoded, y: Decoded) -> Prod {
    use Decoded::*;
    match (x, y) {
        (Nan { .. }, _) | (_, Nan { .. }) => Prod::Nan,
        (Inf { .. }, Zero { .. }) | (Zero { .. }, Inf { .. }) => Prod::Invalid,
        (Inf { neg: p }, other) | (other, Inf { neg: p }) => Prod::Inf(p ^ term(other).neg),
        (x, y) => {
            let (tx, ty) = (term(x), term(y));
            Prod::Exact(Term {
                neg: tx.neg ^ ty.neg,
                sig: tx.sig * ty.sig,
                exp: tx.exp + ty.exp,
            })
        }
    }
}

/// `fma.rnd{.ftz}{.sat}.f32`, `fma.rnd.f64` (PTX ISA 9.7.3.6: "Performs a
/// fused multiply-add with no loss of precision in the intermediate
/// product and addition", `d = a*b+c` "computed to infinite precision and
/// then rounded"), `mad.rnd` of the same (9.7.3.7: "`mad.f32` and
/// `fma.f32` are the same" from sm_20), and `fma.rn{.ftz}{.sat|.relu}.f16`,
/// `fma.rn{.relu}.bf16` (9.7.4.4).
pub fn fma(fmt: &FloatFormat, round: Round, m: FpMods, a: u64, b: u64, c: u64) -> FpResult {
    let (a, b, c) = (
        input(fmt, m.ftz, a),
        input(fmt, m.ftz, b),
        input(fmt, m.ftz, c),
    );
    let z = decode(fmt, c);
    let r = match (product(fmt, decode(fmt, a), decode(fmt, b)), z) {
        (Prod::Nan, _) | (_, Decoded::Nan { .. }) => nan_result(fmt, &[b, c, a]),
        (Prod::Invalid, _) => nan_result(fmt, &[]),
        (Prod::Inf(p), Decoded::Inf { neg }) if p != neg => nan_result(fmt, &[]),
        (Prod::Inf(neg), _) | (Prod::Exact(_), Decoded::Inf { neg }) => {
            FpResult::exact(fmt.inf() | if neg { fmt.sign_mask() } else { 0 })
        }
        (Prod::Exact(t), z) => round_term(fmt, round, m.ftz, sum(t, term(z), round)),
    };
    finish(fmt, m, r)
}

/// `div.rnd{.ftz}.f32`, `div.rnd.f64` (PTX ISA 9.7.3.8): "`div.rnd` ...
/// IEEE 754 compliant rounding"; `d = a / b`.
pub fn div(fmt: &FloatFormat, round: Round, m: FpMods, a: u64, b: u64) -> FpResult {
    use Decoded::*;
    let (a, b) = (input(fmt, m.ftz, a), input(fmt, m.ftz, b));
    let sign = |neg: bool| if neg { fmt.sign_mask() } else { 0 };
    let r = match (decode(fmt, a), decode(fmt, b)) {
        (Nan { .. }, _) | (_, Nan { .. }) => nan_result(fmt, &[a, b]),
        (Inf { .. }, Inf { .. }) | (Zero { .. }, Zero { .. }) => nan_result(fmt, &[]),
        (Inf { neg: x }, y) => FpResult::exact(fmt.inf() | sign(x ^ term(y).neg)),
        (x, Inf { neg: y }) => FpResult::exact(sign(term(x).neg ^ y)),
        (Zero { neg: x }, y) => FpResult::exact(sign(x ^ term(y).neg)),
        (x, Zero { neg: y }) => FpResult::exact(fmt.inf() | sign(term(x).neg ^ y)),
        (x, y) => {
            let (tx, ty) = (term(x), term(y));
            // The dividend's significand widened to 126 bits: a quotient of
            // at least 72 bits, the remainder folded into a sticky bit.
            let shift = 126 - bit_len(tx.sig);
            let n = tx.sig << shift;
            let q = n / ty.sig;
            let sticky = !n.is_multiple_of(ty.sig) as u128;
            round_term(
                fmt,
                round,
                m.ftz,
                Term {
                    neg: tx.neg ^ ty.neg,
                    sig: q << 1 | sticky,
                    exp: tx.exp - shift - ty.exp - 1,
                },
            )
        }
    };
    finish(fmt, m, r)
}

/// `rcp.rnd{.ftz}.f32`, `rcp.rnd.f64` (PTX ISA 9.7.3.9): "Compute `1/a`,
/// store result in `d`", IEEE-rounded.
pub fn rcp(fmt: &FloatFormat, round: Round, m: FpMods, a: u64) -> FpResult {
    let one = (fmt.bias() as u64) << fmt.man_bits;
    div(fmt, round, m, one, a)
}

fn isqrt(n: u128) -> u128 {
    let (mut n, mut x) = (n, 0u128);
    let mut bit = 1u128 << 126;
    while bit > n {
        bit >>= 2;
    }
    while bit != 0 {
        if n >= x + bit {
            n -= x + bit;
            x = (x >> 1) + bit;
        } else {
            x >>= 1;
        }
        bit >>= 2;
    }
    x
}

/// `sqrt.rnd{.ftz}.f32`, `sqrt.rnd.f64` (PTX ISA 9.7.3.12): "Compute
/// sqrt(`a`) and store the result in `d`", IEEE-rounded; "sqrt(-0.0) =
/// -0.0", negative inputs give NaN.
pub fn sqrt(fmt: &FloatFormat, round: Round, m: FpMods, a: u64) -> FpResult {
    use Decoded::*;
    let a = input(fmt, m.ftz, a);
    let r = match decode(fmt, a) {
        Nan { .. } => nan_result(fmt, &[a]),
        Zero { .. } => FpResult::exact(a),
        Inf { neg: false } => FpResult::exact(a),
        Inf { neg: true } | Finite { neg: true, .. } => nan_result(fmt, &[]),
        Finite { sig, exp, .. } => {
            let sig = sig as u128;
            let mut k = 120 - bit_len(sig);
            if (exp - k) % 2 != 0 {
                k += 1;
            }
            let n = sig << k;
            let root = isqrt(n);
            let sticky = (root * root != n) as u128;
            round_term(
                fmt,
                round,
                m.ftz,
                Term {
                    neg: false,
                    sig: root << 1 | sticky,
                    exp: (exp - k) / 2 - 1,
                },
            )
        }
    };
    finish(fmt, m, r)
}

/// `neg{.ftz}.type` (PTX ISA 9.7.3.10, 9.7.4.6): "Negate the sign of `a`";
/// "`NaN` inputs yield an unspecified `NaN`": we give sm_90's (the
/// canonical NaN for `.f32 .f16 .bf16`; for `.f64` the input quieted, its
/// sign kept), sign and payload marked open.
pub fn neg(fmt: &FloatFormat, ftz: bool, a: u64) -> FpResult {
    let a = input(fmt, ftz, a);
    if is_nan(fmt, a) {
        return unspecified_nan_of(fmt, a);
    }
    FpResult::exact(a ^ fmt.sign_mask())
}

/// sm_90's NaN for `neg`/`abs` of a NaN, marked open.
fn unspecified_nan_of(fmt: &FloatFormat, a: u64) -> FpResult {
    let bits = if fmt.width() == 64 {
        a | 1 << (fmt.man_bits - 1)
    } else {
        fmt.canonical_nan.unwrap_or(0)
    };
    FpResult {
        bits,
        unspecified: nan_open_bits(fmt),
        ..FpResult::default()
    }
}

/// `abs{.ftz}.type` (PTX ISA 9.7.3.9, 9.7.4.5): "Take the absolute value of
/// `a`"; "For `abs.f32`, `NaN` input yields unspecified `NaN`. For
/// `abs.f64`, `NaN` input is passed through unchanged" (sign included; sm_90
/// quiets a signalling NaN, against this text); for `.f16`/`.bf16` "`NaN`
/// inputs yield an unspecified `NaN`" (sm_90: the canonical NaN).
pub fn abs(fmt: &FloatFormat, ftz: bool, a: u64) -> FpResult {
    let a = input(fmt, ftz, a);
    if is_nan(fmt, a) {
        if fmt.width() == 64 {
            return FpResult::exact(a);
        }
        return unspecified_nan_of(fmt, a);
    }
    FpResult::exact(a & !fmt.sign_mask())
}

/// `copysign.type` (PTX ISA 9.7.3.2): "Copy sign bit of `a` into value of
/// `b`, and return the result as `d`." A bit operation; the text says
/// nothing of NaNs.
pub fn copysign(fmt: &FloatFormat, a: u64, b: u64) -> u64 {
    let s = fmt.sign_mask();
    (a & s) | (b & width_mask(fmt) & !s)
}

/// `min`/`max` modifiers (PTX ISA 9.7.3.11-12, 9.7.4.7-8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MinMaxMods {
    pub ftz: bool,
    /// `.NaN`: "the result is canonical `NaN` if any of the inputs is `NaN`".
    pub nan: bool,
    /// `.abs`: "the magnitude of destination operand `d` is the minimum of
    /// absolute values".
    pub abs: bool,
    /// `.xorsign` (with `.abs`): "the sign bit of destination `d` is equal
    /// to the XOR of the sign bits of both inputs `a` and `b`".
    pub xorsign: bool,
}

/// `min` (PTX ISA 9.7.3.11, 9.7.4.7), following its pseudocode: `min_num`
/// takes the non-NaN input when one is NaN, `min_nan` (`.NaN`) gives NaN,
/// "-0.0 < +0.0 here"; `.xorsign` "considers the sign bit of both inputs
/// before applying `.abs`"; "If the result of `min` is `NaN` then the
/// `.xorsign` and `.abs` modifiers will be ignored." `c` is the third input
/// of `min{.ftz}{.NaN}{.abs}.f32 d, a, b, c`.
pub fn min(fmt: &FloatFormat, m: MinMaxMods, a: u64, b: u64, c: Option<u64>) -> FpResult {
    min_max(fmt, m, a, b, c, true)
}

/// `max` (PTX ISA 9.7.3.12, 9.7.4.8): as [`min`], "+0.0 > -0.0".
pub fn max(fmt: &FloatFormat, m: MinMaxMods, a: u64, b: u64, c: Option<u64>) -> FpResult {
    min_max(fmt, m, a, b, c, false)
}

/// Orders two non-NaN values with -0.0 below +0.0: whether `x < y`.
fn less(fmt: &FloatFormat, x: u64, y: u64) -> bool {
    let s = fmt.sign_mask();
    match (x & s != 0, y & s != 0) {
        (true, false) => true,
        (false, true) => false,
        (false, false) => x < y,
        (true, true) => x > y,
    }
}

fn min_max(
    fmt: &FloatFormat,
    m: MinMaxMods,
    a: u64,
    b: u64,
    c: Option<u64>,
    is_min: bool,
) -> FpResult {
    let s = fmt.sign_mask();
    let (mut a, mut b) = (input(fmt, m.ftz, a), input(fmt, m.ftz, b));
    let mut c = c.map(|c| input(fmt, m.ftz, c));
    let xorsign = (a ^ b) & s;
    if m.abs {
        a &= !s;
        b &= !s;
        c = c.map(|c| c & !s);
    }
    let canonical = fmt.canonical_nan.unwrap_or(0);
    // `two_inputs_min`/`two_inputs_max`; a NaN result is the canonical NaN.
    let two = |x: u64, y: u64| -> u64 {
        let (nx, ny) = (is_nan(fmt, x), is_nan(fmt, y));
        if nx || ny {
            if m.nan || (nx && ny) {
                return canonical;
            }
            return if nx { y } else { x };
        }
        let x_first = if is_min {
            less(fmt, x, y)
        } else {
            less(fmt, y, x)
        };
        if x_first {
            x
        } else {
            y
        }
    };
    let mut d = two(a, b);
    if let Some(c) = c {
        d = two(d, c);
    }
    let d = (!is_nan(fmt, d)).then_some(d);
    // Two NaN `.f64` operands: the text says only `NaN`; sm_90 gives `b`
    // quieted (the H100 baseline), kept as the open bits' value.
    let both = fmt.width() == 64 && !m.nan && c.is_none() && is_nan(fmt, a) && is_nan(fmt, b);
    match d {
        None if both => FpResult {
            bits: b | 1 << (fmt.man_bits - 1),
            unspecified: nan_open_bits(fmt),
            ..FpResult::default()
        },
        None => FpResult {
            bits: canonical,
            // `.NaN`: "canonical `NaN`"; otherwise the text says only `NaN`.
            unspecified: if m.nan { 0 } else { nan_open_bits(fmt) },
            ..FpResult::default()
        },
        Some(mut v) => {
            if m.xorsign && c.is_none() {
                v = (v & !s) | xorsign;
            }
            FpResult::exact(v)
        }
    }
}

/// Applies a lane-wise operation to the two 16-bit lanes of `.f16x2` /
/// `.bf16x2` operands (PTX ISA 9.7.4: "input vectors are formed with
/// half-word values from source operands ... processed in parallel"),
/// lane 0 in bits 0..16.
pub fn x2(a: u32, b: u32, c: u32, op: impl Fn(u64, u64, u64) -> FpResult) -> FpResult {
    lanes2(16, a as u64, b as u64, c as u64, op)
}

/// The same for `.f32x2` (PTX ISA 9.7.3.3-9.7.3.6, PTX 8.6, `sm_100`):
/// "`fA[0] = a[0:31]; fA[1] = a[32:63];`".
pub fn f32x2(a: u64, b: u64, c: u64, op: impl Fn(u64, u64, u64) -> FpResult) -> FpResult {
    lanes2(32, a, b, c, op)
}

fn lanes2(width: u32, a: u64, b: u64, c: u64, op: impl Fn(u64, u64, u64) -> FpResult) -> FpResult {
    let mask = (1u64 << width) - 1;
    let mut out = FpResult::default();
    for lane in 0..2 {
        let sh = width * lane;
        let part = |x: u64| (x >> sh) & mask;
        let r = op(part(a), part(b), part(c));
        out.bits |= (r.bits & mask) << sh;
        out.unspecified |= (r.unspecified & mask) << sh;
        out.inexact |= r.inexact;
        out.overflow |= r.overflow;
    }
    out
}

// ---- 9.7.5 mixed precision ----

/// The mixed precision instructions (PTX ISA 9.7.5: "The mixed precision
/// floating point instructions are: add, sub, fma").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MixedOp {
    Add,
    Sub,
    Fma,
}

/// One mixed precision instruction on its operands: `a, c` for `add` and
/// `sub` (passed here as `a, b`), `a, b, c` for `fma`.
pub fn mixed(
    op: MixedOp,
    src: &FloatFormat,
    round: Round,
    sat: bool,
    a: u64,
    b: u64,
    c: u64,
) -> FpResult {
    match op {
        MixedOp::Add => add_mixed(src, round, sat, a, b),
        MixedOp::Sub => sub_mixed(src, round, sat, a, b),
        MixedOp::Fma => fma_mixed(src, round, sat, a, b, c),
    }
}

/// `convert(a)` of the mixed precision instructions (PTX ISA 9.7.5:
/// "Converts input operand `a` from `.atype` into `.f32` type"): `.f16`
/// and `.bf16` values are all `.f32` values, so the conversion is exact.
/// A NaN stays a NaN (quieted, its sign and the top of its payload kept);
/// which NaN does not matter, as the `.f32` result of a NaN operand is an
/// unspecified NaN.
pub fn widen_to_f32(src: &FloatFormat, a: u64) -> u64 {
    let sign = |neg: bool| if neg { F32.sign_mask() } else { 0 };
    match decode(src, a & width_mask(src)) {
        Decoded::Zero { neg } => sign(neg),
        Decoded::Inf { neg } => sign(neg) | F32.inf(),
        Decoded::Nan { neg, payload } => {
            let payload = payload << (F32.man_bits - src.man_bits);
            sign(neg) | F32.inf() | payload | 1 << (F32.man_bits - 1)
        }
        Decoded::Finite { neg, sig, exp } => encode(
            &F32,
            &round_to_float(&F32, neg, sig, exp, Round::NearestEven),
        ),
    }
}

/// `add{.rnd}{.sat}.f32.atype d, a, c` (PTX ISA 9.7.5.1, `.atype = { .f16,
/// .bf16 }`, PTX 8.6, `sm_100`): "`d = convert(a) + c;`", rounded once by
/// `.rnd` ("The default value of rounding modifier is `.rn`"); "By default,
/// subnormal numbers are supported" (no `.ftz`); "`add.sat` clamps the
/// result to [0.0, 1.0]. `NaN` results are flushed to `+0.0f`". A NaN
/// result is `add.f32`'s: "Single-precision instructions return an
/// unspecified NaN" (the canonical NaN, sign and payload open).
pub fn add_mixed(src: &FloatFormat, round: Round, sat: bool, a: u64, c: u64) -> FpResult {
    let m = FpMods {
        sat,
        ..FpMods::default()
    };
    add(&F32, round, m, widen_to_f32(src, a), c)
}

/// `sub{.rnd}{.sat}.f32.atype d, a, c` (PTX ISA 9.7.5.2): "`d = convert(a)
/// - c;`", with `add.f32.atype`'s rounding, saturation and NaN rules.
pub fn sub_mixed(src: &FloatFormat, round: Round, sat: bool, a: u64, c: u64) -> FpResult {
    let m = FpMods {
        sat,
        ..FpMods::default()
    };
    sub(&F32, round, m, widen_to_f32(src, a), c)
}

/// `fma.rnd{.sat}.f32.abtype d, a, b, c` (PTX ISA 9.7.5.3): "`d =
/// convert(a) * convert(b) + c;`"; "computes the product of `a` and `b` to
/// infinite precision and then adds `c` to this product, again in infinite
/// precision. The resulting value is then rounded to single precision
/// using the rounding mode specified by `.rnd`" ("Rounding modifiers (no
/// default)"); "`fma.sat` clamps the result to [0.0, 1.0]. `NaN` results
/// are flushed to `+0.0f`."
pub fn fma_mixed(src: &FloatFormat, round: Round, sat: bool, a: u64, b: u64, c: u64) -> FpResult {
    let m = FpMods {
        sat,
        ..FpMods::default()
    };
    fma(
        &F32,
        round,
        m,
        widen_to_f32(src, a),
        widen_to_f32(src, b),
        c,
    )
}
