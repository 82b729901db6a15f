//! The approximate floating-point instructions (PTX ISA 9.7.3: `.approx`
//! and `.full` forms, `sin`, `cos`, `lg2`, `ex2`, `rsqrt`, `tanh`; 9.7.4:
//! `ex2` and `tanh` on `.f16`/`.bf16`), whose results the spec bounds
//! rather than fixes. Each function gives an [`Approx`]: the correctly
//! rounded exact result (`nominal`) and what the spec allows around it
//! ([`Bound`]): one value where the spec's tables fix it, any NaN, every
//! value of an interval, or bits the spec leaves open. Decoding and
//! registers are the simulator's business; comparing an implementation's
//! result with the bound is [`Approx::contains`].
//!
//! The exact reference is computed in `f64` (IEEE division and square
//! root, and the platform's `sin`, `cos`, `log2`, `exp2`, `tanh`, each
//! within 2 `f64` ulps, a relative error below 2^-51). Every interval is
//! widened by [`REF_MARGIN`] (2^-50 of the reference's magnitude, and 2^-50
//! of an absolute bound) for the reference's own error and the `f64`
//! arithmetic that builds the interval; at 2^-50 this is 8,000 times
//! smaller than an `.f32` ulp, so it never admits a value a tight bound
//! would reject except where the bound falls within 2^-50 of a
//! representable value.
//!
//! Readings where the text is silent, each said where it is used:
//! - "maximum ulp error is n" admits a value within n ulps of the exact
//!   result (the ulp of the exact result's binade, the exponent unbounded
//!   above and clamped to the smallest normal below) and also a value at
//!   most n representable steps from the correctly rounded result (the
//!   reading `ex2` states, "2 ulp from correctly rounded result"); the
//!   interval is the union, so a result that satisfies either conforms.
//! - A relative or absolute bound also admits the two representable values
//!   on either side of the exact result (no result in the format can be
//!   closer; a relative bound cannot otherwise be met where results are
//!   subnormal or overflow).
//! - Infinity follows the largest finite value in the order of the
//!   interval; an exact result beyond the format's range counts the
//!   infinity of its sign as its correctly rounded value.
//! - `.ftz` flushes an interval's subnormal ends to zero of their sign (a
//!   subnormal result would be flushed).
//! - A NaN the spec names without an encoding is any NaN: "Single-precision
//!   instructions return an unspecified NaN" (9.7.3); 9.7.4 is silent for
//!   `.f16`/`.bf16`.

use crate::cvt::format::{FloatFormat, BF16, F16, F32, F64};
use crate::cvt::round::{decode, encode, round_to_float, Decoded, Round};

/// The relative margin added to every interval for the `f64` reference's
/// error: 2^-50.
pub const REF_MARGIN: f64 = 1.0 / (1u64 << 50) as f64;

/// [`Approx::reference`] where there is none: a NaN.
const NO_REFERENCE: u64 = 0x7ff8_0000_0000_0000;

/// The operation of an approximate form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ApproxOp {
    /// `div.approx` (PTX ISA 9.7.3.8).
    DivApprox,
    /// `div.full` (9.7.3.8).
    DivFull,
    /// `rcp.approx` (9.7.3.13, 9.7.3.14).
    Rcp,
    /// `sqrt.approx` (9.7.3.15).
    Sqrt,
    /// `rsqrt.approx` (9.7.3.16, 9.7.3.17).
    Rsqrt,
    /// `sin.approx` (9.7.3.18).
    Sin,
    /// `cos.approx` (9.7.3.19).
    Cos,
    /// `lg2.approx` (9.7.3.20).
    Lg2,
    /// `ex2.approx` (9.7.3.21, 9.7.4.10).
    Ex2,
    /// `tanh.approx` (9.7.3.22, 9.7.4.9).
    Tanh,
}

impl ApproxOp {
    /// The opcode.
    pub const fn opcode(self) -> &'static str {
        match self {
            ApproxOp::DivApprox | ApproxOp::DivFull => "div",
            ApproxOp::Rcp => "rcp",
            ApproxOp::Sqrt => "sqrt",
            ApproxOp::Rsqrt => "rsqrt",
            ApproxOp::Sin => "sin",
            ApproxOp::Cos => "cos",
            ApproxOp::Lg2 => "lg2",
            ApproxOp::Ex2 => "ex2",
            ApproxOp::Tanh => "tanh",
        }
    }

    /// How many source operands.
    pub const fn sources(self) -> usize {
        match self {
            ApproxOp::DivApprox | ApproxOp::DivFull => 2,
            _ => 1,
        }
    }
}

/// One approximate instruction form: the operation, the format of one
/// value, `.ftz`, and whether the operands are packed pairs (`x2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ApproxForm {
    pub op: ApproxOp,
    pub fmt: &'static FloatFormat,
    pub ftz: bool,
    pub packed: bool,
}

const fn form(op: ApproxOp, fmt: &'static FloatFormat, ftz: bool, packed: bool) -> ApproxForm {
    ApproxForm {
        op,
        fmt,
        ftz,
        packed,
    }
}

/// Every approximate form sm_90 runs, one row each (PTX ISA 9.7.3.8,
/// 9.7.3.13-9.7.3.22, 9.7.4.9, 9.7.4.10 syntax blocks; `tanh` has no
/// `.ftz`, `ex2.approx` on `.f16` none and on `.bf16` only `.ftz`).
pub const FORMS: &[ApproxForm] = &[
    form(ApproxOp::DivApprox, &F32, false, false),
    form(ApproxOp::DivApprox, &F32, true, false),
    form(ApproxOp::DivFull, &F32, false, false),
    form(ApproxOp::DivFull, &F32, true, false),
    form(ApproxOp::Rcp, &F32, false, false),
    form(ApproxOp::Rcp, &F32, true, false),
    form(ApproxOp::Rcp, &F64, true, false),
    form(ApproxOp::Sqrt, &F32, false, false),
    form(ApproxOp::Sqrt, &F32, true, false),
    form(ApproxOp::Rsqrt, &F32, false, false),
    form(ApproxOp::Rsqrt, &F32, true, false),
    form(ApproxOp::Rsqrt, &F64, false, false),
    form(ApproxOp::Rsqrt, &F64, true, false),
    form(ApproxOp::Sin, &F32, false, false),
    form(ApproxOp::Sin, &F32, true, false),
    form(ApproxOp::Cos, &F32, false, false),
    form(ApproxOp::Cos, &F32, true, false),
    form(ApproxOp::Lg2, &F32, false, false),
    form(ApproxOp::Lg2, &F32, true, false),
    form(ApproxOp::Ex2, &F32, false, false),
    form(ApproxOp::Ex2, &F32, true, false),
    form(ApproxOp::Ex2, &F16, false, false),
    form(ApproxOp::Ex2, &F16, false, true),
    form(ApproxOp::Ex2, &BF16, true, false),
    form(ApproxOp::Ex2, &BF16, true, true),
    form(ApproxOp::Tanh, &F32, false, false),
    form(ApproxOp::Tanh, &F16, false, false),
    form(ApproxOp::Tanh, &F16, false, true),
    form(ApproxOp::Tanh, &BF16, false, false),
    form(ApproxOp::Tanh, &BF16, false, true),
];

impl ApproxForm {
    /// The instruction's spelling (`div.approx.ftz.f32`, `ex2.approx.f16x2`).
    pub fn ptx(&self) -> String {
        let kind = if self.op == ApproxOp::DivFull {
            ".full"
        } else {
            ".approx"
        };
        format!(
            "{}{kind}{}.{}{}",
            self.op.opcode(),
            if self.ftz { ".ftz" } else { "" },
            self.fmt.name,
            if self.packed { "x2" } else { "" }
        )
    }

    /// The form spelled `text`, if sm_90 has it ([`FORMS`]).
    pub fn parse(text: &str) -> Option<ApproxForm> {
        FORMS.iter().copied().find(|f| f.ptx() == text)
    }

    /// The PTX ISA section that gives its bound.
    pub const fn section(&self) -> &'static str {
        let half = self.fmt.width() == 16;
        match self.op {
            ApproxOp::DivApprox | ApproxOp::DivFull => "9.7.3.8",
            ApproxOp::Rcp if self.fmt.width() == 64 => "9.7.3.14",
            ApproxOp::Rcp => "9.7.3.13",
            ApproxOp::Sqrt => "9.7.3.15",
            ApproxOp::Rsqrt if self.fmt.width() == 64 && self.ftz => "9.7.3.17",
            ApproxOp::Rsqrt => "9.7.3.16",
            ApproxOp::Sin => "9.7.3.18",
            ApproxOp::Cos => "9.7.3.19",
            ApproxOp::Lg2 => "9.7.3.20",
            ApproxOp::Ex2 if half => "9.7.4.10",
            ApproxOp::Ex2 => "9.7.3.21",
            ApproxOp::Tanh if half => "9.7.4.9",
            ApproxOp::Tanh => "9.7.3.22",
        }
    }

    /// The register width of `d` and of each source, in bits.
    pub const fn reg_bits(&self) -> u32 {
        self.fmt.width() * if self.packed { 2 } else { 1 }
    }

    /// The result of one value (one lane of a packed form).
    pub fn eval(&self, a: u64, b: u64) -> Approx {
        eval(*self, a, b)
    }

    /// The results of a packed form's two lanes (lane 0 in the low bits:
    /// "`fA[0] = a[0:15]; fA[1] = a[16:31];`", PTX ISA 9.7.4.9/10); a
    /// scalar form's result in lane 0, lane 1 exact zero.
    pub fn eval_lanes(&self, a: u64, b: u64) -> [Approx; 2] {
        if !self.packed {
            return [eval(*self, a, b), Approx::exact(0, "")];
        }
        let w = self.fmt.width();
        let m = (1u64 << w) - 1;
        [
            eval(*self, a & m, b & m),
            eval(*self, (a >> w) & m, (b >> w) & m),
        ]
    }

    /// The register result for the interpreter: the nominal value of each
    /// lane, and the bits it must not assert (see [`Approx::open_bits`]).
    pub fn eval_register(&self, a: u64, b: u64) -> (u64, u64) {
        let lanes = self.eval_lanes(a, b);
        if !self.packed {
            return (lanes[0].nominal, lanes[0].open_bits(self.fmt));
        }
        let w = self.fmt.width();
        (
            lanes[0].nominal | lanes[1].nominal << w,
            lanes[0].open_bits(self.fmt) | lanes[1].open_bits(self.fmt) << w,
        )
    }
}

/// What the spec allows for one result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The spec fixes the result: `nominal` is the only conforming value.
    Exact,
    /// The result is a NaN, its sign and payload unspecified.
    AnyNan,
    /// Every non-NaN value `v` of the format with `lo <= v <= hi` in the
    /// order `-inf < ... < -0.0 < +0.0 < ... < +inf` conforms; `lo` and
    /// `hi` are encodings, `lo < hi` (equal ends are [`Bound::Exact`]).
    Within { lo: u64, hi: u64 },
    /// The spec bounds nothing here: the bits set in `open` may be anything
    /// (the others are `nominal`'s).
    Open { open: u64 },
}

/// How the spec measures the error of a bounded result, with the bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// No error bound applies (the result is fixed, a NaN, or open).
    None,
    /// At most this many ulps.
    Ulps(u32),
    /// A relative error of at most this (`f64` bits).
    Rel(u64),
    /// An absolute error of at most this (`f64` bits).
    Abs(u64),
}

/// An approximate result: the correctly rounded exact result (`nominal`,
/// what the interpreter writes), what conforms, the spec's sentence that
/// says so, and for a bounded result the `f64` reference (`reference`,
/// its bits) and how the bound is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Approx {
    pub nominal: u64,
    pub bound: Bound,
    pub rule: &'static str,
    pub reference: u64,
    pub measure: Measure,
}

impl Approx {
    const fn exact(nominal: u64, rule: &'static str) -> Approx {
        Approx {
            nominal,
            bound: Bound::Exact,
            rule,
            reference: NO_REFERENCE,
            measure: Measure::None,
        }
    }

    fn any_nan(fmt: &FloatFormat, rule: &'static str) -> Approx {
        Approx {
            nominal: fmt.canonical_nan.unwrap_or(0),
            bound: Bound::AnyNan,
            rule,
            reference: NO_REFERENCE,
            measure: Measure::None,
        }
    }

    fn open(nominal: u64, open: u64, rule: &'static str) -> Approx {
        Approx {
            nominal,
            bound: Bound::Open { open },
            rule,
            reference: NO_REFERENCE,
            measure: Measure::None,
        }
    }

    /// The error of `y` (one value of `fmt`) in the unit of the spec's
    /// bound: ulps of the exact result's binade ([`ulp_of`]), relative or
    /// absolute; `None` where no bound applies, where `y` or the reference
    /// is not finite in `fmt` (an overflowing result is checked by
    /// [`Approx::contains`] alone), and for a relative bound where the
    /// reference is below the smallest normal number.
    pub fn error(&self, fmt: &FloatFormat, y: u64) -> Option<f64> {
        let x = f64::from_bits(self.reference);
        let y = decode(fmt, y & width_mask(fmt)).to_f64();
        let max = decode(fmt, fmt.max_norm()).to_f64();
        if !y.is_finite() || !x.is_finite() || x.abs() > max {
            return None;
        }
        let min_normal = ((fmt.emin()) as f64).exp2();
        if y == 0.0 && x.abs() < min_normal {
            // a tiny result flushed to zero (`.ftz`): checked by
            // [`Approx::contains`] alone
            return None;
        }
        let d = (y - x).abs();
        match self.measure {
            Measure::None => None,
            Measure::Ulps(_) => Some(d / ulp_of(fmt, x)),
            // below the smallest normal number no value of the format can
            // meet a relative bound (the interval there is the two values
            // around the exact result): not measured
            Measure::Rel(_) if x.abs() < min_normal => None,
            Measure::Rel(_) => Some(d / x.abs()),
            Measure::Abs(_) => Some(d),
        }
    }

    /// The spec's bound in the unit of [`Approx::error`].
    pub fn limit(&self) -> Option<f64> {
        match self.measure {
            Measure::None => None,
            Measure::Ulps(n) => Some(f64::from(n)),
            Measure::Rel(b) | Measure::Abs(b) => Some(f64::from_bits(b)),
        }
    }

    /// Whether `bits` (one value of `fmt`) conforms.
    pub fn contains(&self, fmt: &FloatFormat, bits: u64) -> bool {
        let bits = bits & width_mask(fmt);
        match self.bound {
            Bound::Exact => bits == self.nominal,
            Bound::AnyNan => is_nan(fmt, bits),
            Bound::Within { lo, hi } => {
                !is_nan(fmt, bits) && (key(fmt, lo)..=key(fmt, hi)).contains(&key(fmt, bits))
            }
            Bound::Open { open } => (bits ^ self.nominal) & !open == 0,
        }
    }

    /// The bits of the result the interpreter must not assert: none for an
    /// exact result, the sign and significand of a NaN (the exponent is all
    /// ones in every NaN), every bit of an interval (any value in it
    /// conforms), the open bits of [`Bound::Open`].
    pub fn open_bits(&self, fmt: &FloatFormat) -> u64 {
        match self.bound {
            Bound::Exact => 0,
            Bound::AnyNan => fmt.sign_mask() | ((1u64 << fmt.man_bits) - 1),
            Bound::Within { .. } => width_mask(fmt),
            Bound::Open { open } => open,
        }
    }

    /// The ends of what conforms as encodings, in the order of
    /// [`Bound::Within`]: equal for an exact result; `None` for a NaN or
    /// open bits.
    pub fn interval(&self) -> Option<(u64, u64)> {
        match self.bound {
            Bound::Exact => Some((self.nominal, self.nominal)),
            Bound::Within { lo, hi } => Some((lo, hi)),
            _ => None,
        }
    }
}

// The spec's sentences, quoted where each bound or table row is applied.
const NAN_RULE: &str =
    "9.7.3: Single-precision instructions return an unspecified NaN (a NaN operand, or a NaN in the table)";
const DIV_APPROX_RULE: &str = "9.7.3.8: For |b| in [2^-126, 2^126], the maximum ulp error is 2";
const DIV_APPROX_LARGE: &str = "9.7.3.8: For 2^126 < |b| < 2^128, if a is infinity, div.approx.f32 returns NaN, otherwise it returns a sign-preserving zero";
const DIV_APPROX_AS_RCP: &str = "9.7.3.8: div.approx.f32 ... computed as d = a * (1/b), with 1/b from rcp.approx's table (a reading: b = 0 or infinite)";
const DIV_APPROX_OPEN: &str =
    "9.7.3.8: no bound for 0 < |b| < 2^-126 (subnormal b without .ftz): unspecified";
const DIV_FULL_RULE: &str = "9.7.3.8: The maximum ulp error is 2 across the full range of inputs";
const DIV_FULL_SPECIAL: &str = "9.7.3.8: div.full.f32, a zero or infinite quotient (a reading: the exact quotient's limit, as IEEE 754 division)";
const RCP_RULE: &str = "9.7.3.13: The maximum ulp error is 1 across the full range of inputs";
const RCP_TABLE: &str =
    "9.7.3.13: rcp.approx.f32 table (-Inf -> -0.0, -0.0 -> -Inf, +0.0 -> +Inf, +Inf -> +0.0)";
const RCP64_TABLE: &str = "9.7.3.14: rcp.approx.ftz.f64 table on a[63:32] (-Inf -> -0.0, -subnormal -> -Inf, -0.0 -> -Inf, +0.0 -> +Inf, +subnormal -> +Inf, +Inf -> +0.0)";
const RCP64_NAN: &str =
    "9.7.3.14: Input NaNs map to a canonical NaN with encoding 0x7fffffff00000000";
const RCP64_OPEN: &str = "9.7.3.14: a fast, gross approximation (no bound given): d[63:32] unspecified, d[31:0] = 0x00000000";
const SQRT_RULE: &str = "9.7.3.15: The maximum relative error over the entire positive finite floating-point range is 2^-23";
const SQRT_TABLE: &str =
    "9.7.3.15: sqrt table (-Inf, -normal -> NaN, -0.0 -> -0.0, +0.0 -> +0.0, +Inf -> +Inf)";
const RSQRT_RULE: &str = "9.7.3.16: The maximum relative error for rsqrt.f32 over the entire positive finite floating-point range is 2^-22.9";
const RSQRT_TABLE: &str =
    "9.7.3.16: rsqrt table (-Inf, -normal -> NaN, -0.0 -> -Inf, +0.0 -> +Inf, +Inf -> +0.0)";
const RSQRT64_OPEN: &str =
    "9.7.3.16: rsqrt.approx.f64: no error bound is given (only rsqrt.f32's): unspecified";
const RSQRT64FTZ_TABLE: &str = "9.7.3.17: rsqrt.approx.ftz.f64 table on a[63:32] (-Inf -> NaN, -subnormal -> -Inf, -0.0 -> -Inf, +0.0 -> +Inf, +subnormal -> +Inf, +Inf -> +0.0)";
const RSQRT64FTZ_NAN: &str =
    "9.7.3.17: Input NaNs map to a canonical NaN with encoding 0x7fffffff00000000";
const RSQRT64FTZ_OPEN: &str =
    "9.7.3.17: an approximation (no bound given): d[63:32] unspecified, d[31:0] are all zeros";
const SIN_TABLE: &str = "9.7.3.18: sin table (-Inf, +Inf -> NaN, -0.0 -> -0.0, +0.0 -> +0.0)";
const COS_TABLE: &str = "9.7.3.19: cos table (-Inf, +Inf -> NaN, -0.0 -> +1.0, +0.0 -> +1.0)";
const TRIG_NEAR: &str = "9.7.3.18/19: maximum absolute error 2^-20.5 over [-2pi .. 2pi]";
const TRIG_FAR: &str = "9.7.3.18/19: maximum absolute error 2^-14.7 over [-100pi .. +100pi]";
const TRIG_OPEN: &str = "9.7.3.18/19: Outside of the range [-100pi .. +100pi], only best effort is provided. There are no defined error guarantees";
const LG2_TABLE: &str =
    "9.7.3.20: lg2 table (-Inf, -normal -> NaN, -0.0, +0.0 -> -Inf, +Inf -> +Inf)";
const LG2_ABS: &str =
    "9.7.3.20: The maximum absolute error is 2^-22 when the input operand is in the range (0.5, 2)";
const LG2_REL: &str =
    "9.7.3.20: For positive finite inputs outside of this interval, maximum relative error is 2^-22";
const EX2_TABLE: &str =
    "9.7.3.21, 9.7.4.10: ex2 table (-Inf -> +0.0, -0.0, +0.0 -> +1.0, +Inf -> +Inf; .ftz.bf16: ±subnormal -> +1.0)";
const EX2_RULE: &str = "9.7.3.21: The maximum ulp error is 2 ulp from correctly rounded result across the full range of inputs";
const EX2_F16: &str = "9.7.4.10: The maximum relative error for .f16 type is 2^-9.9";
const EX2_BF16: &str = "9.7.4.10: The maximum relative error for .bf16 type is 2^-7";
const TANH_TABLE: &str =
    "9.7.3.22, 9.7.4.9: tanh table (-Inf -> -1.0, -0.0 -> -0.0, +0.0 -> +0.0, +Inf -> 1.0)";
const TANH_SUB: &str = "9.7.3.22: The subnormal inputs gets passed through to the output";
const TANH_F32: &str =
    "9.7.3.22: The maximum relative error over the entire floating point range is 2^-11";
const TANH_F16: &str = "9.7.4.9: The maximum absolute error for .f16 type is 2^-10.987";
const TANH_BF16: &str = "9.7.4.9: The maximum absolute error for .bf16 type is 2^-8";

/// The result of `form` on one value `a` (and `b` for `div`), each the low
/// bits of one lane.
pub fn eval(form: ApproxForm, a: u64, b: u64) -> Approx {
    let fmt = form.fmt;
    if fmt.width() == 64 {
        return eval_f64(form, a);
    }
    let (a, b) = (input(fmt, form.ftz, a), input(fmt, form.ftz, b));
    let da = decode(fmt, a);
    let x = da.to_f64();
    let b_val = decode(fmt, b).to_f64();
    let r = match form.op {
        ApproxOp::DivApprox => div_approx(fmt, x, b_val),
        ApproxOp::DivFull => div_full(fmt, x, b_val),
        ApproxOp::Rcp => specials(fmt, x, &[(-INF, NZ), (-0.0, -INF), (0.0, INF), (INF, PZ)])
            .map(|v| Approx::exact(v, RCP_TABLE))
            .unwrap_or_else(|| {
                if x.is_nan() {
                    Approx::any_nan(fmt, NAN_RULE)
                } else {
                    ulps(fmt, 1.0 / x, 1, RCP_RULE)
                }
            }),
        ApproxOp::Sqrt => match special_class(x) {
            Class::Nan | Class::NegInf | Class::Neg => Approx::any_nan(fmt, SQRT_TABLE),
            Class::Zero | Class::PosInf => Approx::exact(a, SQRT_TABLE),
            Class::Pos => rel(fmt, x.sqrt(), pow2(-23.0), SQRT_RULE),
        },
        ApproxOp::Rsqrt => match special_class(x) {
            Class::Nan | Class::NegInf | Class::Neg => Approx::any_nan(fmt, RSQRT_TABLE),
            Class::Zero => Approx::exact(enc(fmt, 1.0 / x), RSQRT_TABLE),
            Class::PosInf => Approx::exact(0, RSQRT_TABLE),
            Class::Pos => rel(fmt, 1.0 / x.sqrt(), pow2(-22.9), RSQRT_RULE),
        },
        ApproxOp::Sin | ApproxOp::Cos => {
            let sin = form.op == ApproxOp::Sin;
            let table = if sin { SIN_TABLE } else { COS_TABLE };
            match special_class(x) {
                Class::Nan | Class::NegInf | Class::PosInf => Approx::any_nan(fmt, table),
                Class::Zero if sin => Approx::exact(a, table),
                Class::Zero => Approx::exact(enc(fmt, 1.0), table),
                _ => {
                    let y = if sin { x.sin() } else { x.cos() };
                    let two_pi = 2.0 * std::f64::consts::PI;
                    if x.abs() <= two_pi {
                        abs(fmt, y, pow2(-20.5), TRIG_NEAR)
                    } else if x.abs() <= 50.0 * two_pi {
                        abs(fmt, y, pow2(-14.7), TRIG_FAR)
                    } else {
                        Approx::open(rounded(fmt, y), width_mask(fmt), TRIG_OPEN)
                    }
                }
            }
        }
        ApproxOp::Lg2 => match special_class(x) {
            Class::Nan | Class::NegInf | Class::Neg => Approx::any_nan(fmt, LG2_TABLE),
            Class::Zero => Approx::exact(enc(fmt, -INF), LG2_TABLE),
            Class::PosInf => Approx::exact(a, LG2_TABLE),
            Class::Pos if x > 0.5 && x < 2.0 => abs(fmt, x.log2(), pow2(-22.0), LG2_ABS),
            Class::Pos => rel(fmt, x.log2(), pow2(-22.0), LG2_REL),
        },
        ApproxOp::Ex2 => match special_class(x) {
            Class::Nan => Approx::any_nan(fmt, EX2_TABLE),
            Class::NegInf => Approx::exact(0, EX2_TABLE),
            Class::Zero => Approx::exact(enc(fmt, 1.0), EX2_TABLE),
            Class::PosInf => Approx::exact(a, EX2_TABLE),
            _ if fmt.width() == 32 => ulps(fmt, x.exp2(), 2, EX2_RULE),
            _ if fmt.id == F16.id => rel(fmt, x.exp2(), pow2(-9.9), EX2_F16),
            _ => rel(fmt, x.exp2(), pow2(-7.0), EX2_BF16),
        },
        ApproxOp::Tanh => match special_class(x) {
            Class::Nan => Approx::any_nan(fmt, TANH_TABLE),
            Class::NegInf => Approx::exact(enc(fmt, -1.0), TANH_TABLE),
            Class::PosInf => Approx::exact(enc(fmt, 1.0), TANH_TABLE),
            Class::Zero => Approx::exact(a, TANH_TABLE),
            _ if fmt.width() == 32 && is_subnormal(fmt, a) => Approx::exact(a, TANH_SUB),
            _ if fmt.width() == 32 => rel(fmt, x.tanh(), pow2(-11.0), TANH_F32),
            _ if fmt.id == F16.id => abs(fmt, x.tanh(), pow2(-10.987), TANH_F16),
            _ => abs(fmt, x.tanh(), pow2(-8.0), TANH_BF16),
        },
    };
    finish(fmt, form.ftz, r)
}

const INF: f64 = f64::INFINITY;
const NZ: f64 = -0.0;
const PZ: f64 = 0.0;

fn pow2(e: f64) -> f64 {
    e.exp2()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Nan,
    NegInf,
    PosInf,
    Zero,
    Neg,
    Pos,
}

fn special_class(x: f64) -> Class {
    if x.is_nan() {
        Class::Nan
    } else if x == INF {
        Class::PosInf
    } else if x == -INF {
        Class::NegInf
    } else if x == 0.0 {
        Class::Zero
    } else if x < 0.0 {
        Class::Neg
    } else {
        Class::Pos
    }
}

/// A table's row for `x` (zeros by sign), as an encoding.
fn specials(fmt: &FloatFormat, x: f64, rows: &[(f64, f64)]) -> Option<u64> {
    rows.iter()
        .find(|(i, _)| *i == x && i.is_sign_negative() == x.is_sign_negative())
        .map(|&(_, o)| enc(fmt, o))
}

/// `div.approx{.ftz}.f32` (PTX ISA 9.7.3.8).
fn div_approx(fmt: &FloatFormat, x: f64, y: f64) -> Approx {
    if x.is_nan() || y.is_nan() {
        return Approx::any_nan(fmt, NAN_RULE);
    }
    let sign = (x.is_sign_negative() != y.is_sign_negative()) as u64 * fmt.sign_mask();
    let by = y.abs();
    let (lo_b, hi_b) = (pow2(-126.0), pow2(126.0));
    if (lo_b..=hi_b).contains(&by) {
        return match special_class(x) {
            Class::NegInf | Class::PosInf => Approx::exact(fmt.inf() | sign, DIV_APPROX_RULE),
            Class::Zero => Approx::exact(sign, DIV_APPROX_RULE),
            _ => ulps(fmt, x / y, 2, DIV_APPROX_RULE),
        };
    }
    if by > hi_b && by < pow2(128.0) {
        return if x.is_infinite() {
            Approx::any_nan(fmt, DIV_APPROX_LARGE)
        } else {
            Approx::exact(sign, DIV_APPROX_LARGE)
        };
    }
    // `b` is zero (or flushed to zero) or infinite: a * (1/b) with
    // rcp.approx's table, 0 * inf being invalid.
    if y == 0.0 || y.is_infinite() {
        let r = 1.0 / y;
        let d = x * r;
        return if d.is_nan() {
            Approx::any_nan(fmt, DIV_APPROX_AS_RCP)
        } else {
            Approx::exact(enc(fmt, d), DIV_APPROX_AS_RCP)
        };
    }
    Approx::open(rounded(fmt, x / y), width_mask(fmt), DIV_APPROX_OPEN)
}

/// `div.full{.ftz}.f32` (PTX ISA 9.7.3.8).
fn div_full(fmt: &FloatFormat, x: f64, y: f64) -> Approx {
    if x.is_nan() || y.is_nan() {
        return Approx::any_nan(fmt, NAN_RULE);
    }
    let q = x / y;
    if q.is_nan() {
        return Approx::any_nan(fmt, DIV_FULL_SPECIAL);
    }
    if x == 0.0 || y == 0.0 || x.is_infinite() || y.is_infinite() {
        return Approx::exact(enc(fmt, q), DIV_FULL_SPECIAL);
    }
    ulps(fmt, q, 2, DIV_FULL_RULE)
}

/// `rcp.approx.ftz.f64` (9.7.3.14), `rsqrt.approx.f64` (9.7.3.16) and
/// `rsqrt.approx.ftz.f64` (9.7.3.17). The `.ftz` forms read only
/// "`tmp = a[63:32]; // upper word of a, 1.11.20 format`" and write
/// "`d[31:0] = 0x00000000;`"; none of the three has an error bound, so a
/// finite result's upper word (all of `rsqrt.approx.f64`'s result) is open.
fn eval_f64(form: ApproxForm, a: u64) -> Approx {
    let fmt = &F64;
    const UPPER: u64 = 0xffff_ffff_0000_0000;
    const CANONICAL: u64 = 0x7fff_ffff_0000_0000;
    let rsqrt = form.op == ApproxOp::Rsqrt;
    if !form.ftz {
        // rsqrt.approx.f64: 9.7.3.16's table; a negative subnormal reads as
        // -normal (NaN), a positive subnormal as a finite input.
        let x = f64::from_bits(a);
        return match special_class(x) {
            Class::Nan | Class::NegInf | Class::Neg => Approx::any_nan(fmt, RSQRT_TABLE),
            Class::Zero => Approx::exact((1.0 / x).to_bits(), RSQRT_TABLE),
            Class::PosInf => Approx::exact(0, RSQRT_TABLE),
            Class::Pos => Approx::open((1.0 / x.sqrt()).to_bits(), u64::MAX, RSQRT64_OPEN),
        };
    }
    let t = a & UPPER;
    let neg = t >> 63 != 0;
    let exp = (t >> 52) & 0x7ff;
    let man = t & 0x000f_ffff_0000_0000;
    let (table, nan_rule, open_rule) = if rsqrt {
        (RSQRT64FTZ_TABLE, RSQRT64FTZ_NAN, RSQRT64FTZ_OPEN)
    } else {
        (RCP64_TABLE, RCP64_NAN, RCP64_OPEN)
    };
    let signed = |bits: u64| bits | if neg { 1 << 63 } else { 0 };
    if exp == 0x7ff && man != 0 {
        return Approx::exact(CANONICAL, nan_rule);
    }
    if exp == 0x7ff {
        return if rsqrt && neg {
            Approx::any_nan(fmt, table)
        } else {
            Approx::exact(signed(0), table)
        };
    }
    if exp == 0 {
        // ±0.0 and ±subnormal (flushed): ±Inf, the sign kept (also for
        // rsqrt, as its table says).
        return Approx::exact(signed(INF.to_bits()), table);
    }
    let x = f64::from_bits(t);
    if rsqrt && neg {
        // -normal: not in 9.7.3.17's table; NaN as 9.7.3.16's table says
        // (a reading).
        return Approx::any_nan(fmt, RSQRT_TABLE);
    }
    let y = if rsqrt { 1.0 / x.sqrt() } else { 1.0 / x };
    // The nominal upper word: `y` rounded to 20 stored significand bits
    // (1.11.20), a subnormal result flushed ("Subnormal inputs and results
    // are flushed to sign-preserving zero").
    let bits = y.to_bits();
    let mut upper = (bits.wrapping_add(1 << 31)) & UPPER;
    if (upper >> 52) & 0x7ff == 0 {
        upper &= 1 << 63;
    }
    Approx::open(upper, UPPER, open_rule)
}

fn width_mask(fmt: &FloatFormat) -> u64 {
    if fmt.width() >= 64 {
        u64::MAX
    } else {
        (1 << fmt.width()) - 1
    }
}

fn is_nan(fmt: &FloatFormat, bits: u64) -> bool {
    matches!(decode(fmt, bits), Decoded::Nan { .. })
}

fn is_subnormal(fmt: &FloatFormat, bits: u64) -> bool {
    let exp = (bits >> fmt.man_bits) & ((1 << fmt.exp_bits) - 1);
    exp == 0 && bits & ((1 << fmt.man_bits) - 1) != 0
}

/// "`.ftz` flushes subnormal inputs ... to sign-preserving zero".
fn input(fmt: &FloatFormat, ftz: bool, bits: u64) -> u64 {
    let bits = bits & width_mask(fmt);
    if ftz && is_subnormal(fmt, bits) {
        bits & fmt.sign_mask()
    } else {
        bits
    }
}

/// An encoding's position in the order `-inf < ... < -0.0 < +0.0 < ... <
/// +inf` (NaNs beyond the infinities).
pub fn key(fmt: &FloatFormat, bits: u64) -> i64 {
    let bits = bits & width_mask(fmt);
    let mag = (bits & !fmt.sign_mask()) as i64;
    if bits & fmt.sign_mask() != 0 {
        -mag - 1
    } else {
        mag
    }
}

/// The encoding at position `k` of [`key`]'s order.
pub fn unkey(fmt: &FloatFormat, k: i64) -> u64 {
    if k >= 0 {
        k as u64
    } else {
        fmt.sign_mask() | (-(k + 1)) as u64
    }
}

/// `v` rounded into `fmt` by `mode`; beyond the range, rounding toward the
/// value gives infinity, away from it the largest finite value.
pub fn round_f64(fmt: &FloatFormat, v: f64, mode: Round) -> u64 {
    let sign = if v.is_sign_negative() {
        fmt.sign_mask()
    } else {
        0
    };
    if v.is_nan() {
        return fmt.canonical_nan.unwrap_or(0);
    }
    if v.is_infinite() {
        return sign | fmt.inf();
    }
    if v == 0.0 {
        return sign;
    }
    let bits = v.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i32;
    let m = bits & ((1u64 << 52) - 1);
    let (sig, exp) = if e == 0 {
        (m, -1074)
    } else {
        (m | 1 << 52, e - 1075)
    };
    let neg = v < 0.0;
    let r = round_to_float(fmt, neg, sig, exp, mode);
    if r.overflow {
        let to_inf = match mode {
            Round::TowardZero => false,
            Round::Down => neg,
            Round::Up => !neg,
            _ => true,
        };
        return sign | if to_inf { fmt.inf() } else { fmt.max_norm() };
    }
    encode(fmt, &r)
}

/// The correctly rounded (to nearest, ties to even) encoding of `v`.
fn rounded(fmt: &FloatFormat, v: f64) -> u64 {
    round_f64(fmt, v, Round::NearestEven)
}

/// An exactly representable value's encoding.
fn enc(fmt: &FloatFormat, v: f64) -> u64 {
    rounded(fmt, v)
}

/// The ulp of the binade of `x` in `fmt`: `2^(e - (p - 1))` with `e` the
/// exponent of `|x|`, clamped below at the smallest normal's (subnormals
/// share its spacing) and unbounded above.
pub fn ulp_of(fmt: &FloatFormat, x: f64) -> f64 {
    let p = fmt.precision() as i32;
    let e = if x == 0.0 || !x.is_finite() {
        fmt.emin()
    } else {
        let bits = x.abs().to_bits();
        let be = ((bits >> 52) & 0x7ff) as i32;
        let e = if be == 0 {
            -1023 - (bits.leading_zeros() as i32 - 12)
        } else {
            be - 1023
        };
        e.max(fmt.emin())
    };
    ((e - (p - 1)) as f64).exp2()
}

/// Finite stand-in for an exact result beyond `f64`'s range.
fn finite(x: f64) -> f64 {
    x.clamp(-f64::MAX, f64::MAX)
}

fn within(
    fmt: &FloatFormat,
    x: f64,
    (lo, hi): (i64, i64),
    measure: Measure,
    rule: &'static str,
) -> Approx {
    let top = key(fmt, fmt.inf());
    let bottom = key(fmt, fmt.inf() | fmt.sign_mask());
    let (lo, hi) = (lo.max(bottom), hi.min(top));
    Approx {
        nominal: rounded(fmt, x),
        bound: Bound::Within {
            lo: unkey(fmt, lo),
            hi: unkey(fmt, hi),
        },
        rule,
        reference: x.to_bits(),
        measure,
    }
}

/// "maximum ulp error is `n`": within `n` ulps of the exact result `x`
/// (reference `x`, widened by [`REF_MARGIN`]), or at most `n` steps from
/// its correctly rounded value; the union.
pub fn ulps(fmt: &FloatFormat, x: f64, n: u32, rule: &'static str) -> Approx {
    let x = finite(x);
    let m = x.abs() * REF_MARGIN;
    let (xl, xh) = (x - m, x + m);
    let u = ulp_of(fmt, x) * f64::from(n);
    let lo1 = key(fmt, round_f64(fmt, xl - u, Round::Up));
    let hi1 = key(fmt, round_f64(fmt, xh + u, Round::Down));
    let lo2 = key(fmt, rounded(fmt, xl)) - i64::from(n);
    let hi2 = key(fmt, rounded(fmt, xh)) + i64::from(n);
    within(fmt, x, (lo1.min(lo2), hi1.max(hi2)), Measure::Ulps(n), rule)
}

/// A relative error of at most `r`: `|y - x| <= r * |x|`, widened by
/// [`REF_MARGIN`], and the two values around `x`.
pub fn rel(fmt: &FloatFormat, x: f64, r: f64, rule: &'static str) -> Approx {
    let x = finite(x);
    let d = (r + REF_MARGIN) * x.abs();
    around(fmt, x, d, Measure::Rel(r.to_bits()), rule)
}

/// An absolute error of at most `e`: `|y - x| <= e`, widened by
/// [`REF_MARGIN`] (of `e` and of `|x|`), and the two values around `x`.
pub fn abs(fmt: &FloatFormat, x: f64, e: f64, rule: &'static str) -> Approx {
    let x = finite(x);
    let d = e * (1.0 + REF_MARGIN) + x.abs() * REF_MARGIN;
    around(fmt, x, d, Measure::Abs(e.to_bits()), rule)
}

fn around(fmt: &FloatFormat, x: f64, d: f64, measure: Measure, rule: &'static str) -> Approx {
    let m = x.abs() * REF_MARGIN;
    let lo = key(fmt, round_f64(fmt, x - d, Round::Up))
        .min(key(fmt, round_f64(fmt, x - m, Round::Down)));
    let hi = key(fmt, round_f64(fmt, x + d, Round::Down))
        .max(key(fmt, round_f64(fmt, x + m, Round::Up)));
    within(fmt, x, (lo, hi), measure, rule)
}

/// `.ftz` on a result: "flushes subnormal ... results to sign-preserving
/// zero", applied to the nominal value and to an interval's ends (a
/// monotone map, so the nominal value stays inside); equal ends make the
/// result exact.
fn finish(fmt: &FloatFormat, ftz: bool, mut r: Approx) -> Approx {
    let flush = |bits: u64| {
        if ftz && is_subnormal(fmt, bits) {
            bits & fmt.sign_mask()
        } else {
            bits
        }
    };
    if !matches!(r.bound, Bound::AnyNan) {
        r.nominal = flush(r.nominal);
    }
    if let Bound::Within { lo, hi } = r.bound {
        let (lo, hi) = (flush(lo), flush(hi));
        r.bound = if lo == hi {
            Bound::Exact
        } else {
            Bound::Within { lo, hi }
        };
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_parses_back() {
        for f in FORMS {
            assert_eq!(ApproxForm::parse(&f.ptx()), Some(*f), "{}", f.ptx());
        }
        assert_eq!(FORMS.len(), 30);
    }

    #[test]
    fn key_orders_zeros_and_infinities() {
        let k = |b| key(&F32, b);
        assert!(k(0xff80_0000) < k(0x8000_0001));
        assert!(k(0x8000_0001) < k(0x8000_0000));
        assert!(k(0x8000_0000) < k(0));
        assert!(k(0x7f7f_ffff) < k(0x7f80_0000));
        for b in [0u64, 0x8000_0000, 0xff80_0000, 0x3f80_0000, 0xbf80_0000] {
            assert_eq!(unkey(&F32, key(&F32, b)), b);
        }
    }
}
