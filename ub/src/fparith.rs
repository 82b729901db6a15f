//! The IEEE-exact floating-point instructions (PTX ISA 9.7.3, 9.7.4, 9.7.5)
//! and `cvt` between floats and integers (9.7.9.21) as Z3 terms, over Z3's
//! floating-point theory: `add sub mul fma mad div rcp sqrt` in the four
//! rounding modes with `.ftz`, `.sat` and `.relu`, `neg`, `abs`, `min`,
//! `max`, the mixed precision forms, on `.f16 .bf16 .f32 .f64` and the
//! `x2` packs. The meaning is `ptx_semantics::arith::float`'s and
//! `ptx_semantics::cvt::convert`'s, written again as terms (the drift test
//! in `fparith_tests.rs` ties the two together). Where the model leaves a
//! result's bits open (a NaN's sign and payload), the term is a NaN built
//! from a fresh value, any NaN and only a NaN; where it pins them, so does
//! the term. The approximate forms, conversions between floats and how
//! deep a chain of float terms may grow (`exec.rs`) are left to the
//! caller.

use std::cell::RefCell;
use std::collections::HashMap;

use ptx_semantics::arith::float::{FloatFormat, FpMods, MinMaxMods, MixedOp, BF16, F16, F32, F64};
use ptx_semantics::cvt::format::{Format, IntFormat};
use ptx_semantics::cvt::round::Round;
use ptx_semantics::cvt::CvtOp;
use ptx_semantics::sim::arith::{Arith, FloatOp};
use z3::ast::{Ast, Bool, Dynamic, Float, RoundingMode, BV};
use z3::{Solver, Sort};

use crate::alu::{low, zext64};

/// How a conversion reads its bit-vector operand (SMT-LIB `to_fp`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum FromBv {
    /// `((_ to_fp eb sb) bv)`: the operand is an IEEE encoding.
    Bits,
    /// `((_ to_fp eb sb) rm bv)`: a signed integer, rounded.
    Signed,
    /// `((_ to_fp_unsigned eb sb) rm bv)`: an unsigned integer, rounded.
    Unsigned,
}

/// A conversion: how, from how many bits, into which `(eb, sb)` sort.
type ToFpKey = (FromBv, u32, u32, u32);

thread_local! {
    /// A `to_fp` term per conversion, per thread (Z3 contexts are per
    /// thread): its declaration is what [`to_fp_decl`] gives.
    static TO_FP: RefCell<HashMap<ToFpKey, Option<Dynamic>>> = RefCell::new(HashMap::new());
}

/// The declaration of `to_fp` from `width`-bit vectors into the sort
/// `(eb, sb)`. The crate has no constructor for it: it is read from a
/// parsed SMT-LIB term.
fn to_fp_decl(how: FromBv, width: u32, eb: u32, sb: u32) -> Option<z3::FuncDecl> {
    let term = TO_FP.with(|m| {
        m.borrow_mut()
            .entry((how, width, eb, sb))
            .or_insert_with(|| {
                let app = match how {
                    FromBv::Bits => format!("((_ to_fp {eb} {sb}) b)"),
                    FromBv::Signed => format!("((_ to_fp {eb} {sb}) RNE b)"),
                    FromBv::Unsigned => format!("((_ to_fp_unsigned {eb} {sb}) RNE b)"),
                };
                let s = Solver::new();
                s.from_string(format!(
                    "(declare-const b (_ BitVec {width})) (assert (fp.isNaN {app}))"
                ));
                let assertion = s.get_assertions().into_iter().next()?;
                assertion.nth_child(0)
            })
            .clone()
    })?;
    let decl = term.safe_decl().ok()?;
    let arity = if how == FromBv::Bits { 1 } else { 2 };
    (decl.arity() == arity).then_some(decl)
}

/// The formats these terms cover: the IEEE binary formats (`.tf32` and
/// the narrow formats of `cvt` are not).
fn ieee(fmt: &FloatFormat) -> bool {
    [F16, BF16, F32, F64].contains(fmt)
}

fn sort(fmt: &FloatFormat) -> Sort {
    Sort::float(fmt.exp_bits, fmt.precision())
}

/// The same precision with one more exponent bit: every exact result of
/// one operation on `.ftz`-flushed operands is normal there, so rounding
/// into it is rounding to the format's precision with an unbounded
/// exponent.
fn wide_sort(fmt: &FloatFormat) -> Sort {
    Sort::float(fmt.exp_bits + 1, fmt.precision())
}

/// The float an encoding of `fmt` denotes (`x` exactly `fmt`'s width).
fn float_of(fmt: &FloatFormat, x: &BV) -> Option<Float> {
    let d = to_fp_decl(FromBv::Bits, fmt.width(), fmt.exp_bits, fmt.precision())?;
    d.apply(&[x as &dyn Ast]).as_float()
}

fn rounding(r: Round) -> Option<RoundingMode> {
    Some(match r {
        Round::NearestEven => RoundingMode::round_nearest_ties_to_even(),
        Round::NearestAway => RoundingMode::round_nearest_ties_to_away(),
        Round::TowardZero => RoundingMode::round_towards_zero(),
        Round::Down => RoundingMode::round_towards_negative(),
        Round::Up => RoundingMode::round_towards_positive(),
        Round::Stochastic { .. } => return None,
    })
}

fn c(v: u64, n: u32) -> BV {
    BV::from_u64(v, n)
}

fn ones(n: u32) -> BV {
    c(0, n).bvnot()
}

/// The constant `v` in `fmt` (exact: a power of two or a small integer).
fn konst(fmt: &FloatFormat, v: f64) -> Float {
    Float::from_f64(v)
        .to_fp_with_rounding_mode(&RoundingMode::round_nearest_ties_to_even(), &sort(fmt))
}

/// The fields of an encoding.
struct Fields {
    sign: Bool,
    exp_ones: Bool,
    exp_zero: Bool,
    man_zero: Bool,
}

fn fields(fmt: &FloatFormat, x: &BV) -> Fields {
    let w = fmt.width();
    let m = fmt.man_bits;
    let exp = x.extract(w - 2, m);
    Fields {
        sign: x.extract(w - 1, w - 1).eq(c(1, 1)),
        exp_ones: exp.eq(ones(fmt.exp_bits)),
        exp_zero: exp.eq(c(0, fmt.exp_bits)),
        man_zero: x.extract(m - 1, 0).eq(c(0, m)),
    }
}

fn is_nan(fmt: &FloatFormat, x: &BV) -> Bool {
    let f = fields(fmt, x);
    Bool::and(&[f.exp_ones, f.man_zero.not()])
}

fn is_negative(fmt: &FloatFormat, x: &BV) -> Bool {
    fields(fmt, x).sign
}

/// "`.ftz` flushes subnormal inputs ... to sign-preserving zero".
fn flush(fmt: &FloatFormat, ftz: bool, x: &BV) -> BV {
    if !ftz {
        return x.clone();
    }
    let f = fields(fmt, x);
    let sub = Bool::and(&[f.exp_zero, f.man_zero.not()]);
    sub.ite(&x.bvand(c(fmt.sign_mask(), fmt.width())), x)
}

/// Any NaN of `fmt`, and only a NaN: what the model gives where the spec
/// leaves a NaN's sign and payload open ("Single-precision instructions
/// return an unspecified NaN"). Its sign and significand come from a fresh
/// value; a zero significand (an infinity) is read as the quiet bit.
fn open_nan(fmt: &FloatFormat, open: &dyn Fn(u32) -> BV) -> BV {
    let w = fmt.width();
    let m = fmt.man_bits;
    let f = low(&open(w), w);
    let man = f.extract(m - 1, 0);
    let man = man.eq(c(0, m)).ite(&c(1 << (m - 1), m), &man);
    f.extract(w - 1, w - 1)
        .concat(ones(fmt.exp_bits))
        .concat(&man)
}

/// `x` quieted (the top significand bit set).
fn quiet(fmt: &FloatFormat, x: &BV) -> BV {
    x.bvor(c(1 << (fmt.man_bits - 1), fmt.width()))
}

/// The NaN of a NaN result (the model's `nan_result`): `.f64` passes a
/// single NaN operand on quieted ("NaN payloads are supported for
/// double-precision instructions"; `operands` in sm_90's order of
/// preference); several NaN operands, an invalid operation and the other
/// formats give a NaN whose sign and payload the spec leaves open.
fn nan_result(fmt: &FloatFormat, operands: &[BV], open: &dyn Fn(u32) -> BV) -> BV {
    let any = open_nan(fmt, open);
    if fmt.width() != 64 {
        return any;
    }
    let nans: Vec<Bool> = operands.iter().map(|x| is_nan(fmt, x)).collect();
    let mut r = any;
    for (k, x) in operands.iter().enumerate().rev() {
        let alone: Vec<Bool> = nans
            .iter()
            .enumerate()
            .map(|(j, n)| if j == k { n.clone() } else { n.not() })
            .collect();
        r = Bool::and(&alone).ite(&quiet(fmt, x), &r);
    }
    r
}

/// The IEEE operation, on floats of one sort.
fn apply(op: FloatOp, x: &[Float; 3], rm: &RoundingMode, one: &Float) -> Float {
    let [a, b, cc] = x;
    match op {
        FloatOp::Add => a.add_with_rounding_mode(b, rm),
        FloatOp::Sub => a.sub_with_rounding_mode(b, rm),
        FloatOp::Mul => a.mul_with_rounding_mode(b, rm),
        FloatOp::Fma => a.fma_with_rounding_mode(b, cc, rm),
        FloatOp::Div => a.div_with_rounding_mode(b, rm),
        FloatOp::Rcp => one.div_with_rounding_mode(a, rm),
        FloatOp::Sqrt => a.sqrt_with_rounding_mode(rm),
    }
}

/// The operands whose NaN an `.f64` NaN result carries, in sm_90's order
/// (the model: `add`/`sub`/`mul` `b` then `a`, `fma` `b`, `c`, `a`, `div`
/// `a` then `b`).
fn nan_order(op: FloatOp, x: &[BV; 3]) -> Vec<BV> {
    let [a, b, cc] = x;
    match op {
        FloatOp::Add | FloatOp::Sub | FloatOp::Mul => vec![b.clone(), a.clone()],
        FloatOp::Fma => vec![b.clone(), cc.clone(), a.clone()],
        FloatOp::Div => vec![a.clone(), b.clone()],
        FloatOp::Rcp | FloatOp::Sqrt => vec![a.clone()],
    }
}

/// PTX's result rules after the IEEE value (the model's `finish`): `.sat`
/// "clamps the result to [0.0, 1.0]. NaN results are flushed to +0.0f"
/// (and -0.0 to +0.0), `.relu` "clamps the result to 0 if negative. NaN
/// results are converted to canonical NaN". `nan` says whether `r` is a
/// NaN (known before its bits, which may be open).
fn finish(fmt: &FloatFormat, sat: bool, relu: bool, nan: &Bool, r: BV) -> BV {
    let w = fmt.width();
    let neg = is_negative(fmt, &r);
    let mut r = r;
    if sat {
        let one = c((fmt.bias() as u64) << fmt.man_bits, w);
        r = Bool::or(&[nan.clone(), neg.clone()]).ite(&c(0, w), &r.bvugt(&one).ite(&one, &r));
    } else if relu {
        let canonical = c(fmt.canonical_nan.unwrap_or(0), w);
        r = nan.ite(&canonical, &neg.ite(&c(0, w), &r));
    }
    r
}

/// One lane of an IEEE-exact operation (the model's `add` ... `sqrt`):
/// operands flushed under `.ftz`, rounded once by `round`; with `.ftz` a
/// result below the smallest normal number after rounding to the
/// format's precision with an unbounded exponent is a sign-preserving zero
/// (sm_90's reading, the model's `round_term`).
fn float_lane(
    op: FloatOp,
    fmt: &FloatFormat,
    round: Round,
    m: FpMods,
    x: [BV; 3],
    open: &dyn Fn(u32) -> BV,
) -> Option<BV> {
    let w = fmt.width();
    let rm = rounding(round)?;
    let x = x.map(|v| flush(fmt, m.ftz, &low(&v, w)));
    let f = [
        float_of(fmt, &x[0])?,
        float_of(fmt, &x[1])?,
        float_of(fmt, &x[2])?,
    ];
    let one = konst(fmt, 1.0);
    let (nan, r) = if m.ftz {
        let ws = wide_sort(fmt);
        let exact = RoundingMode::round_nearest_ties_to_even();
        let fw = f.clone().map(|v| v.to_fp_with_rounding_mode(&exact, &ws));
        let rw = apply(op, &fw, &rm, &one.to_fp_with_rounding_mode(&exact, &ws));
        let min_normal = konst(fmt, 2f64.powi(fmt.emin())).to_fp_with_rounding_mode(&exact, &ws);
        let tiny = Bool::and(&[rw.is_nan().not(), rw.unary_abs().lt(&min_normal)]);
        let zero = rw.is_negative().ite(&c(fmt.sign_mask(), w), &c(0, w));
        let rounded = rw.to_fp_with_rounding_mode(&rm, &sort(fmt));
        let bits = tiny.ite(&zero, &rounded.to_ieee_bv());
        let nan = rw.is_nan();
        let r = nan.ite(&nan_result(fmt, &nan_order(op, &x), open), &bits);
        (nan, r)
    } else {
        let r = apply(op, &f, &rm, &one);
        let nan = r.is_nan();
        let bits = nan.ite(&nan_result(fmt, &nan_order(op, &x), open), &r.to_ieee_bv());
        (nan, bits)
    };
    Some(finish(fmt, m.sat, m.relu, &nan, r))
}

/// `neg`/`abs` of one lane (the model's `neg`, `abs`): "NaN inputs yield
/// an unspecified NaN", except "For `abs.f64`, NaN input is passed through
/// unchanged".
fn sign_lane(fmt: &FloatFormat, ftz: bool, is_abs: bool, a: &BV, open: &dyn Fn(u32) -> BV) -> BV {
    let w = fmt.width();
    let a = flush(fmt, ftz, &low(a, w));
    let s = c(fmt.sign_mask(), w);
    let v = if is_abs {
        a.bvand(s.bvnot())
    } else {
        a.bvxor(&s)
    };
    let nan = if is_abs && w == 64 {
        a.clone()
    } else {
        open_nan(fmt, open)
    };
    is_nan(fmt, &a).ite(&nan, &v)
}

/// `min`/`max` of one lane (PTX ISA 9.7.3.11-12, 9.7.4.7-8, the model's
/// `min_max`): "-0.0 < +0.0"; one NaN input gives the other; both NaN (any
/// NaN with `.NaN`) give NaN: "canonical NaN" under `.NaN`, otherwise a
/// NaN the text leaves open; `.abs` compares magnitudes and `.xorsign`
/// gives the XOR of the inputs' signs, ignored when the result is NaN.
fn min_max_lane(
    fmt: &FloatFormat,
    mods: MinMaxMods,
    is_min: bool,
    x: &[BV],
    open: &dyn Fn(u32) -> BV,
) -> BV {
    let w = fmt.width();
    let s = c(fmt.sign_mask(), w);
    let top = c(1 << (w - 1), w);
    let x: Vec<BV> = x.iter().map(|v| flush(fmt, mods.ftz, &low(v, w))).collect();
    let xorsign = x[0].bvxor(&x[1]).bvand(&s);
    let x: Vec<BV> = if mods.abs {
        x.iter().map(|v| v.bvand(s.bvnot())).collect()
    } else {
        x
    };
    let canonical = c(fmt.canonical_nan.unwrap_or(0), w);
    // an order on the encodings with -0.0 below +0.0
    let key = |v: &BV| is_negative(fmt, v).ite(&v.bvnot(), &v.bvor(&top));
    let two = |p: &BV, q: &BV| -> BV {
        let (np, nq) = (is_nan(fmt, p), is_nan(fmt, q));
        let nan = if mods.nan {
            Bool::or(&[np.clone(), nq.clone()])
        } else {
            Bool::and(&[np.clone(), nq.clone()])
        };
        let p_first = if is_min {
            key(p).bvult(key(q))
        } else {
            key(q).bvult(key(p))
        };
        let pick = np.ite(q, &nq.ite(p, &p_first.ite(p, q)));
        nan.ite(&canonical, &pick)
    };
    let mut d = two(&x[0], &x[1]);
    if let Some(third) = x.get(2) {
        d = two(&d, third);
    }
    let nan = is_nan(fmt, &d);
    let value = if mods.xorsign && x.len() == 2 {
        d.bvand(s.bvnot()).bvor(&xorsign)
    } else {
        d
    };
    let nan_value = if mods.nan {
        canonical
    } else {
        open_nan(fmt, open)
    };
    nan.ite(&nan_value, &value)
}

/// A lane-wise operation on `lanes` lanes of `width` bits (PTX ISA 9.7.4:
/// "input vectors are formed with half-word values from source operands"),
/// lane 0 in the low bits.
fn lanes(lanes: u32, width: u32, v: &[BV; 4], f: &dyn Fn(&[BV; 4]) -> Option<BV>) -> Option<BV> {
    let mut out: Option<BV> = None;
    for k in 0..lanes {
        let lane = v
            .clone()
            .map(|x| x.extract(width * k + width - 1, width * k));
        let r = f(&lane)?;
        out = Some(match out {
            None => r,
            Some(lo) => r.concat(&lo),
        });
    }
    out
}

/// The 64-bit sources as `n`-bit operands for one lane (the scalar case).
fn scalar(v: &[BV; 4], n: u32) -> [BV; 4] {
    v.clone().map(|x| low(&x, n))
}

/// The result (zero-extended to 64 bits) of a float instruction on its
/// sources `v` (`count` of them), `None` for one these terms do not cover
/// (the approximate forms, formats other than IEEE's).
pub fn eval(op: &Arith, count: usize, v: &[BV; 4], open: &dyn Fn(u32) -> BV) -> Option<BV> {
    let run = |fmt: &FloatFormat, packed: bool, f: &dyn Fn(&[BV; 4]) -> Option<BV>| {
        if !ieee(fmt) {
            return None;
        }
        let w = fmt.width();
        if packed {
            lanes(2, w, &scalar(v, 2 * w), f)
        } else {
            f(&scalar(v, w))
        }
    };
    let r = match *op {
        Arith::Float {
            op,
            fmt,
            round,
            mods,
            packed,
        } => run(fmt, packed, &|x: &[BV; 4]| {
            float_lane(
                op,
                fmt,
                round,
                mods,
                [x[0].clone(), x[1].clone(), x[2].clone()],
                open,
            )
        }),
        Arith::FNeg { fmt, ftz, packed } => run(fmt, packed, &|x: &[BV; 4]| {
            Some(sign_lane(fmt, ftz, false, &x[0], open))
        }),
        Arith::FAbs { fmt, ftz, packed } => run(fmt, packed, &|x: &[BV; 4]| {
            Some(sign_lane(fmt, ftz, true, &x[0], open))
        }),
        Arith::FMin { fmt, mods, packed } | Arith::FMax { fmt, mods, packed } => {
            let is_min = matches!(op, Arith::FMin { .. });
            let n = if count == 3 { 3 } else { 2 };
            run(fmt, packed, &|x: &[BV; 4]| {
                Some(min_max_lane(fmt, mods, is_min, &x[..n], open))
            })
        }
        Arith::MixedFloat {
            op,
            src,
            round,
            sat,
        } => mixed(op, src, round, sat, v, open),
        _ => None,
    }?;
    Some(zext64(&r))
}

/// The mixed precision forms (PTX ISA 9.7.5, the model's `mixed`): "`d =
/// convert(a) + c`" ... with `a` (and `b` of `fma`) widened exactly to
/// `.f32`, rounded once, `.sat` as in `add.f32`.
fn mixed(
    op: MixedOp,
    src: &FloatFormat,
    round: Round,
    sat: bool,
    v: &[BV; 4],
    open: &dyn Fn(u32) -> BV,
) -> Option<BV> {
    if !ieee(src) {
        return None;
    }
    let rm = rounding(round)?;
    let exact = RoundingMode::round_nearest_ties_to_even();
    let widen = |x: &BV| -> Option<Float> {
        Some(float_of(src, &low(x, src.width()))?.to_fp_with_rounding_mode(&exact, &sort(&F32)))
    };
    let single = |x: &BV| float_of(&F32, &low(x, 32));
    let r = match op {
        MixedOp::Add => widen(&v[0])?.add_with_rounding_mode(single(&v[1])?, &rm),
        MixedOp::Sub => widen(&v[0])?.sub_with_rounding_mode(single(&v[1])?, &rm),
        MixedOp::Fma => widen(&v[0])?.fma_with_rounding_mode(widen(&v[1])?, single(&v[2])?, &rm),
    };
    let nan = r.is_nan();
    let bits = nan.ite(&open_nan(&F32, open), &r.to_ieee_bv());
    Some(finish(&F32, sat, false, &nan, bits))
}

/// `cvt` between a float and an integer or between the IEEE formats (PTX
/// ISA 9.7.9.21), the result
/// extended to a register of `reg_bits` ("sign-extended to the destination
/// register width for signed integers, and is zero-extended ... for
/// unsigned, bit-size, and floating-point types"); `None` for other
/// conversions.
pub fn cvt(op: &CvtOp, a: &BV, reg_bits: u32, open: &dyn Fn(u32) -> BV) -> Option<BV> {
    let round = op.round.unwrap_or(Round::NearestEven);
    let reg = reg_bits.clamp(1, 64);
    match (op.src, op.dst) {
        (Format::Float(src), Format::Int(dst)) if ieee(&src) && !op.mods.relu => {
            let r = float_to_int(&src, dst, round, op.mods.ftz, &low(a, src.width()))?;
            let w = dst.bits;
            let r = if dst.signed && reg > w {
                r.sign_ext(reg - w)
            } else {
                r
            };
            Some(zext64(&r))
        }
        (Format::Float(src), Format::Float(dst))
            if ieee(&src) && ieee(&dst) && !op.mods.satfinite =>
        {
            let r = float_to_float(op, &src, &dst, round, &low(a, src.width()), open)?;
            Some(zext64(&r))
        }
        (Format::Int(src), Format::Float(dst))
            if ieee(&dst) && !op.mods.relu && !op.mods.satfinite =>
        {
            let r = int_to_float(src, &dst, round, op.mods.sat, &low(a, src.bits))?;
            Some(zext64(&r))
        }
        _ => None,
    }
}

/// `cvt.irnd{.ftz}{.sat}.dtype.atype` (the model's `float_to_int`): "the
/// result is clamped to the destination range by default"; "NaN input
/// results in ... Zero if source is not `.f64` and destination is not
/// `.s64`, `.u64`. Otherwise 1 << (BitWidth(dst) - 1)"; `.ftz` "applies
/// only to single precision (`.f32`) inputs".
fn float_to_int(src: &FloatFormat, dst: IntFormat, round: Round, ftz: bool, a: &BV) -> Option<BV> {
    let n = dst.bits;
    if !(1..=64).contains(&n) {
        return None;
    }
    let rm = rounding(round)?;
    let x = flush(src, ftz && src.id == F32.id, a);
    let r = float_of(src, &x)?.round_to_integral_with_rounding_mode(&rm);
    let (lo_v, hi_v) = if dst.signed {
        (-(2f64.powi(n as i32 - 1)), 2f64.powi(n as i32 - 1))
    } else {
        (0.0, 2f64.powi(n as i32))
    };
    // the bounds rounded outward: an integer beyond them is beyond the
    // destination's range (an infinity where the format has no such value)
    let lo = Float::from_f64(lo_v)
        .to_fp_with_rounding_mode(&RoundingMode::round_towards_negative(), &sort(src));
    let hi = Float::from_f64(hi_v)
        .to_fp_with_rounding_mode(&RoundingMode::round_towards_positive(), &sort(src));
    let mask = u64::MAX >> (64 - n);
    let (min, max) = (c(dst.min() as u64 & mask, n), c(dst.max() as u64 & mask, n));
    let rz = RoundingMode::round_towards_zero();
    let (below, inside) = if dst.signed {
        (r.le(&lo), r.to_sbv_with_rounding_mode(&rz, n))
    } else {
        (r.lt(&lo), r.to_ubv_with_rounding_mode(&rz, n))
    };
    let nan_value = if src.width() != 64 && n != 64 {
        0
    } else {
        1u64 << (n - 1)
    };
    let v = below.ite(&min, &r.ge(&hi).ite(&max, &inside));
    Some(r.is_nan().ite(&c(nan_value, n), &v))
}

/// `cvt.frnd{.sat}.dtype.atype` from an integer (the model's
/// `int_to_float`): rounded once by `.frnd`; `.sat` "limits the result to
/// the range [0.0, 1.0]".
fn int_to_float(src: IntFormat, dst: &FloatFormat, round: Round, sat: bool, a: &BV) -> Option<BV> {
    let rm = rounding(round)?;
    let how = if src.signed {
        FromBv::Signed
    } else {
        FromBv::Unsigned
    };
    let d = to_fp_decl(how, src.bits, dst.exp_bits, dst.precision())?;
    let r = d.apply(&[&rm as &dyn Ast, a]).as_float()?;
    Some(finish(
        dst,
        sat,
        false,
        &Bool::from_bool(false),
        r.to_ieee_bv(),
    ))
}

/// The NaN `cvt.dtype.atype` gives for a NaN `x` (the model's `nan::rule`,
/// what sm_90 produced where 9.7.9.21 is silent): "For `cvt.f32.bf16`,
/// `NaN` input yields unspecified `NaN`"; `.f64` to a narrower format and
/// any format to `.f64` keep the sign and the leading payload bits and
/// set the quiet bit (so does an integer rounding of `.f64`);
/// `cvt.ftz.f64.f32` gives `0x7fffffffe0000000`; `.f32` and `.f64` to
/// themselves pass the NaN through, except an integer rounding or `.ftz`
/// of `.f32` (the canonical NaN); every other pair gives the destination's
/// canonical NaN.
fn cvt_nan(
    src: &FloatFormat,
    dst: &FloatFormat,
    integral: bool,
    ftz: bool,
    x: &BV,
    open: &dyn Fn(u32) -> BV,
) -> BV {
    let dw = dst.width();
    let quiet = || {
        let (sm, dm) = (src.man_bits, dst.man_bits);
        let payload = x.extract(sm - 1, 0);
        let payload = if dm > sm {
            payload.concat(c(0, dm - sm))
        } else if dm == sm {
            payload
        } else {
            payload.extract(sm - 1, sm - dm)
        };
        let sign = x.extract(src.width() - 1, src.width() - 1);
        sign.concat(ones(dst.exp_bits))
            .concat(&payload)
            .bvor(c(1 << (dm - 1), dw))
    };
    let canonical = c(dst.canonical_nan.unwrap_or(0), dw);
    match (*src, *dst) {
        (s, d) if s == BF16 && d == F32 => open_nan(dst, open),
        (s, d) if s == F64 && d == F64 => {
            if integral {
                quiet()
            } else {
                x.clone()
            }
        }
        (s, d) if s == F32 && d == F32 => {
            if integral || ftz {
                canonical
            } else {
                x.clone()
            }
        }
        (s, _) if s == F64 => quiet(),
        (s, d) if s == F32 && d == F64 && ftz => c(0x7fff_ffff_e000_0000, 64),
        (_, d) if d == F64 => quiet(),
        _ => canonical,
    }
}

/// `cvt{.frnd}{.ftz}{.sat}{.relu}.dtype.atype` between the IEEE formats
/// and `cvt.frnd2i.ftype.ftype` (the model's `float_to_float` and
/// `float_to_integral`): the value rounded once by the mode (widening is
/// exact), "The result is an integral value, stored in floating-point
/// format" for an integer rounding; `.ftz` "applies only to single
/// precision (`.f32`) inputs and results" (a result flushed when tiny
/// after rounding, as sm_90 does); "`.sat` limits the result to the range
/// [0.0, 1.0]. `NaN` results are flushed to positive zero"; "`.relu`
/// clamps the result to 0 if negative. `NaN` results are converted to
/// canonical `NaN`".
fn float_to_float(
    op: &CvtOp,
    src: &FloatFormat,
    dst: &FloatFormat,
    round: Round,
    a: &BV,
    open: &dyn Fn(u32) -> BV,
) -> Option<BV> {
    let m = op.mods;
    let rm = rounding(round)?;
    let integral = op.integer_rounding && src == dst;
    let x = flush(src, m.ftz && *src == F32, a);
    let f = float_of(src, &x)?;
    let dw = dst.width();
    let bits = if integral {
        f.round_to_integral_with_rounding_mode(&rm).to_ieee_bv()
    } else if m.ftz && *dst == F32 {
        let ws = wide_sort(dst);
        let exact = RoundingMode::round_nearest_ties_to_even();
        let rw = f.to_fp_with_rounding_mode(&rm, &ws);
        let min_normal = konst(dst, 2f64.powi(dst.emin())).to_fp_with_rounding_mode(&exact, &ws);
        let tiny = rw.unary_abs().lt(&min_normal);
        let zero = rw.is_negative().ite(&c(dst.sign_mask(), dw), &c(0, dw));
        tiny.ite(
            &zero,
            &rw.to_fp_with_rounding_mode(&rm, &sort(dst)).to_ieee_bv(),
        )
    } else {
        f.to_fp_with_rounding_mode(&rm, &sort(dst)).to_ieee_bv()
    };
    let nan = is_nan(src, &x);
    let r = nan.ite(&cvt_nan(src, dst, integral, m.ftz, &x, open), &bits);
    Some(finish(dst, m.sat, m.relu, &nan, r))
}

/// `slct.dtype.f32 d, a, b, c` (PTX ISA 9.7.7.4): "`d = (c >= 0) ? a :
/// b;`", "If operand c is NaN, the comparison is unordered and operand b
/// is selected": whether `c >= 0.0` (true for -0.0); with `.ftz`
/// ("flushes subnormal values of operand c to sign-preserving zero") a
/// negative subnormal counts as -0.0 too (`arith::video::slct`).
pub fn f32_at_least_zero(c: &BV, ftz: bool) -> Bool {
    let x = low(c, 32);
    let magnitude = if ftz { 0x7f80_0000 } else { 0x7fff_ffff };
    let zero = x.bvand(BV::from_u64(magnitude, 32)).eq(BV::from_u64(0, 32));
    Bool::and(&[
        is_nan(&F32, &x).not(),
        Bool::or(&[is_negative(&F32, &x).not(), zero]),
    ])
}
