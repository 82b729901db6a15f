//! The arithmetic, logic and comparison instructions the interpreter runs
//! through [`crate::arith`] (PTX ISA 9.7.1-9.7.5, 9.7.7, 9.7.8): the decoded
//! form and one lane's evaluation, so that the interpreter and the pure
//! functions give one meaning. Decoding is `decode/arith.rs`'s business;
//! reading registers, their unspecified bits and the carry flag the
//! machine's.

use super::program::{Reg, Src};
use super::undefined::Undefined;
use crate::arith::approx::ApproxForm;
use crate::arith::compare::{self, BoolOp, CmpOp, TestOp};
use crate::arith::float::{self, FloatFormat, FpMods, FpResult, MinMaxMods, MixedOp};
use crate::arith::int::{self, IntType, MulMode, ShiftMode};
use crate::arith::Carry;
use crate::cvt::round::Round;
use crate::precond::table;

/// The IEEE-exact floating-point operations (PTX ISA 9.7.3, 9.7.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatOp {
    Add,
    Sub,
    Mul,
    /// `fma.rnd` and `mad.rnd` ("`mad.f32` and `fma.f32` are the same").
    Fma,
    Div,
    Rcp,
    Sqrt,
}

/// One instruction's operation with its qualifiers resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arith {
    Add {
        ty: IntType,
        sat: bool,
    },
    Sub {
        ty: IntType,
        sat: bool,
    },
    /// `add.cc`: writes `CC.CF`.
    AddCc {
        bits: u32,
    },
    /// `addc{.cc}`: reads `CC.CF`.
    Addc {
        bits: u32,
    },
    SubCc {
        bits: u32,
    },
    Subc {
        bits: u32,
    },
    Mul {
        ty: IntType,
        mode: MulMode,
    },
    Mad {
        ty: IntType,
        mode: MulMode,
        sat: bool,
    },
    MadCc {
        ty: IntType,
        hi: bool,
    },
    Madc {
        ty: IntType,
        hi: bool,
    },
    Mul24 {
        signed: bool,
        hi: bool,
    },
    Mad24 {
        signed: bool,
        hi: bool,
        sat: bool,
    },
    Sad {
        ty: IntType,
    },
    Div {
        ty: IntType,
    },
    Rem {
        ty: IntType,
    },
    Abs {
        ty: IntType,
    },
    Neg {
        ty: IntType,
    },
    Min {
        ty: IntType,
        relu: bool,
    },
    Max {
        ty: IntType,
        relu: bool,
    },
    Popc {
        bits: u32,
    },
    Clz {
        bits: u32,
    },
    Bfind {
        ty: IntType,
        shiftamt: bool,
    },
    Fns,
    Brev {
        bits: u32,
    },
    Bfe {
        ty: IntType,
    },
    Bfi {
        bits: u32,
    },
    Bmsk {
        mode: ShiftMode,
    },
    Szext {
        signed: bool,
        mode: ShiftMode,
    },
    Shf {
        left: bool,
        mode: ShiftMode,
    },
    Shl {
        bits: u32,
    },
    Shr {
        ty: IntType,
    },
    Dp4a {
        a_signed: bool,
        b_signed: bool,
    },
    Dp2a {
        hi: bool,
        a_signed: bool,
        b_signed: bool,
    },
    And {
        bits: u32,
    },
    Or {
        bits: u32,
    },
    Xor {
        bits: u32,
    },
    Not {
        bits: u32,
    },
    Cnot {
        bits: u32,
    },
    /// `lop3.b32 d, a, b, c, immLut`.
    Lop3 {
        lut: u8,
    },
    /// `lop3.BoolOp.b32 d|p, a, b, c, immLut, q` (`and` for `.and`).
    Lop3Pred {
        lut: u8,
        and: bool,
    },
    /// The IEEE-exact float operations; `packed` for `.f16x2`/`.bf16x2`.
    Float {
        op: FloatOp,
        fmt: &'static FloatFormat,
        round: Round,
        mods: FpMods,
        packed: bool,
    },
    FNeg {
        fmt: &'static FloatFormat,
        ftz: bool,
        packed: bool,
    },
    FAbs {
        fmt: &'static FloatFormat,
        ftz: bool,
        packed: bool,
    },
    FMin {
        fmt: &'static FloatFormat,
        mods: MinMaxMods,
        packed: bool,
    },
    FMax {
        fmt: &'static FloatFormat,
        mods: MinMaxMods,
        packed: bool,
    },
    Copysign {
        fmt: &'static FloatFormat,
    },
    /// `setp.CmpOp{.BoolOp}.type` on integers; `combine` reads the last
    /// source as the predicate `c`.
    SetpInt {
        ty: IntType,
        cmp: CmpOp,
        combine: Option<BoolOp>,
    },
    SetpFloat {
        fmt: &'static FloatFormat,
        ftz: bool,
        cmp: CmpOp,
        combine: Option<BoolOp>,
    },
    /// `setp.CmpOp{.BoolOp}{.ftz}.f16x2 p|q, a, b{, {!}c}` and `.bf16x2`:
    /// `p` and `q` are the lanes' results ([`compare::setp_x2`]).
    SetpFloatX2 {
        fmt: &'static FloatFormat,
        ftz: bool,
        cmp: CmpOp,
        combine: Option<BoolOp>,
    },
    Testp {
        fmt: &'static FloatFormat,
        op: TestOp,
    },
    /// The mixed precision forms (PTX ISA 9.7.5): `add`/`sub{.rnd}{.sat}
    /// .f32.atype d, a, c` and `fma.rnd{.sat}.f32.abtype d, a, b, c`, `src`
    /// the format of `a` (and `b`), `c` and `d` `.f32`.
    MixedFloat {
        op: MixedOp,
        src: &'static FloatFormat,
        round: Round,
        sat: bool,
    },
    /// The approximate forms (`.approx`, `.full`; PTX ISA 9.7.3.8,
    /// 9.7.3.13-22, 9.7.4.9-10), through [`crate::arith::approx`]: the
    /// destination gets the correctly rounded exact result (the nominal
    /// value), and every bit the spec's bound leaves free is marked
    /// unspecified: an interval's whole lane (any value in it conforms, so
    /// the model asserts none of its bits), a NaN's sign and payload, the
    /// open upper word of `rcp.approx.ftz.f64`. Results the spec fixes
    /// (its tables of special values) are defined.
    Approx {
        form: ApproxForm,
    },
}

impl Arith {
    /// Whether the operation reads `CC.CF` (PTX ISA 9.7.2).
    pub fn reads_carry(&self) -> bool {
        matches!(
            self,
            Arith::Addc { .. } | Arith::Subc { .. } | Arith::Madc { .. }
        )
    }
}

/// An [`Arith`] with its registers.
#[derive(Clone, Debug, PartialEq)]
pub struct ArithInstr {
    pub op: Arith,
    /// The destination (`p` of `setp`); `None` for the sink `_`.
    pub d: Option<Reg>,
    /// The second destination: `setp`'s `q`, `lop3`'s `p`.
    pub q: Option<Reg>,
    /// The sources in the instruction's order (a predicate last).
    pub srcs: Vec<Src>,
    /// The predicate source is negated (`!c`).
    pub neg_pred: bool,
    /// The width of `d` in bits (1 for a predicate).
    pub bits: u16,
    /// `addc.cc`, `subc.cc`, `madc.cc`: the carry-out is written.
    pub cc: bool,
}

/// One lane's result: `d` with the bits the spec leaves open, the second
/// predicate, and the carry-out when the instruction writes one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub d: u64,
    pub unspecified: u64,
    pub q: bool,
    pub carry: Option<Carry>,
}

impl Out {
    fn value(d: u64) -> Out {
        Out {
            d,
            ..Out::default()
        }
    }

    fn float(r: FpResult) -> Out {
        Out {
            d: r.bits,
            unspecified: r.unspecified,
            ..Out::default()
        }
    }

    fn carried((d, c): (u64, Carry)) -> Out {
        Out {
            d,
            carry: Some(c),
            ..Out::default()
        }
    }
}

/// "Operand `base` must be <= 31, otherwise behavior is undefined": the
/// undefined case of [`table::FNS_BASE`], which `conform ub` asks too.
pub const FNS_BASE: Undefined = table::FNS_BASE.undefined();

/// The result of `i` on the sources `v` (in the order of `i.srcs`) with
/// carry flag `cf`.
pub fn eval(i: &ArithInstr, v: &[u64; 4], cf: Carry) -> Result<Out, Undefined> {
    let [a, b, c, e] = *v;
    let (a32, b32, c32) = (a as u32, b as u32, c as u32);
    let pred = |x: u64| (x & 1 != 0) != i.neg_pred;
    let unspec = |r: crate::arith::IntResult, ty: IntType| Out {
        d: r.bits,
        unspecified: if r.unspecified.is_some() {
            ty.mask()
        } else {
            0
        },
        ..Out::default()
    };
    Ok(match i.op {
        Arith::Add { ty, sat } => Out::value(int::add(ty, sat, a, b)),
        Arith::Sub { ty, sat } => Out::value(int::sub(ty, sat, a, b)),
        Arith::AddCc { bits } => Out::carried(int::add_cc(bits, a, b)),
        Arith::SubCc { bits } => Out::carried(int::sub_cc(bits, a, b)),
        Arith::Addc { bits } => Out::carried(int::addc(bits, a, b, cf)),
        Arith::Subc { bits } => Out::carried(int::subc(bits, a, b, cf)),
        Arith::Mul { ty, mode } => Out::value(int::mul(ty, mode, a, b)),
        Arith::Mad { ty, mode, sat } => Out::value(int::mad(ty, mode, sat, a, b, c)),
        Arith::MadCc { ty, hi } => Out::carried(int::mad_cc(ty, hi, a, b, c)),
        Arith::Madc { ty, hi } => Out::carried(int::madc(ty, hi, a, b, c, cf)),
        Arith::Mul24 { signed, hi } => Out::value(u64::from(int::mul24(signed, hi, a32, b32))),
        Arith::Mad24 { signed, hi, sat } => {
            Out::value(u64::from(int::mad24(signed, hi, sat, a32, b32, c32)))
        }
        Arith::Sad { ty } => Out::value(int::sad(ty, a, b, c)),
        Arith::Div { ty } => unspec(int::div(ty, a, b), ty),
        Arith::Rem { ty } => unspec(int::rem(ty, a, b), ty),
        Arith::Abs { ty } => Out::value(int::abs(ty, a)),
        Arith::Neg { ty } => Out::value(int::neg(ty, a)),
        Arith::Min { ty, relu } => Out::value(int::min(ty, relu, a, b)),
        Arith::Max { ty, relu } => Out::value(int::max(ty, relu, a, b)),
        Arith::Popc { bits } => Out::value(u64::from(int::popc(bits, a))),
        Arith::Clz { bits } => Out::value(u64::from(int::clz(bits, a))),
        Arith::Bfind { ty, shiftamt } => Out::value(u64::from(int::bfind(ty, shiftamt, a))),
        Arith::Fns => Out::value(u64::from(int::fns(a32, b32, c32 as i32).ok_or(FNS_BASE)?)),
        Arith::Brev { bits } => Out::value(int::brev(bits, a)),
        Arith::Bfe { ty } => Out::value(int::bfe(ty, a, b32, c32)),
        Arith::Bfi { bits } => Out::value(int::bfi(bits, a, b, c32, e as u32)),
        Arith::Bmsk { mode } => Out::value(u64::from(int::bmsk(mode, a32, b32))),
        Arith::Szext { signed, mode } => Out::value(u64::from(int::szext(signed, mode, a32, b32))),
        Arith::Shf { left, mode } => Out::value(u64::from(int::shf(left, mode, a32, b32, c32))),
        Arith::Shl { bits } => Out::value(int::shl(bits, a, b32)),
        Arith::Shr { ty } => Out::value(int::shr(ty, a, b32)),
        Arith::Dp4a { a_signed, b_signed } => {
            Out::value(u64::from(int::dp4a(a_signed, b_signed, a32, b32, c32)))
        }
        Arith::Dp2a {
            hi,
            a_signed,
            b_signed,
        } => Out::value(u64::from(int::dp2a(hi, a_signed, b_signed, a32, b32, c32))),
        Arith::And { bits } => Out::value(int::and(bits, a, b)),
        Arith::Or { bits } => Out::value(int::or(bits, a, b)),
        Arith::Xor { bits } => Out::value(int::xor(bits, a, b)),
        Arith::Not { bits } => Out::value(int::not(bits, a)),
        Arith::Cnot { bits } => Out::value(int::cnot(bits, a)),
        Arith::Lop3 { lut } => Out::value(u64::from(int::lop3(a32, b32, c32, lut))),
        Arith::Lop3Pred { lut, and } => {
            let (d, p) = int::lop3_pred(a32, b32, c32, lut, and, pred(e));
            Out {
                d: u64::from(d),
                q: p,
                ..Out::default()
            }
        }
        Arith::Float {
            op,
            fmt,
            round,
            mods,
            packed,
        } => {
            let f = |x: u64, y: u64, z: u64| match op {
                FloatOp::Add => float::add(fmt, round, mods, x, y),
                FloatOp::Sub => float::sub(fmt, round, mods, x, y),
                FloatOp::Mul => float::mul(fmt, round, mods, x, y),
                FloatOp::Fma => float::fma(fmt, round, mods, x, y, z),
                FloatOp::Div => float::div(fmt, round, mods, x, y),
                FloatOp::Rcp => float::rcp(fmt, round, mods, x),
                FloatOp::Sqrt => float::sqrt(fmt, round, mods, x),
            };
            Out::float(if packed {
                float::x2(a32, b32, c32, f)
            } else {
                f(a, b, c)
            })
        }
        Arith::FNeg { fmt, ftz, packed } => {
            let f = |x: u64, _: u64, _: u64| float::neg(fmt, ftz, x);
            Out::float(if packed {
                float::x2(a32, 0, 0, f)
            } else {
                f(a, 0, 0)
            })
        }
        Arith::FAbs { fmt, ftz, packed } => {
            let f = |x: u64, _: u64, _: u64| float::abs(fmt, ftz, x);
            Out::float(if packed {
                float::x2(a32, 0, 0, f)
            } else {
                f(a, 0, 0)
            })
        }
        Arith::FMin { fmt, mods, packed } | Arith::FMax { fmt, mods, packed } => {
            let three = i.srcs.len() == 3;
            let is_min = matches!(i.op, Arith::FMin { .. });
            let f = |x: u64, y: u64, z: u64| {
                let z = three.then_some(z);
                if is_min {
                    float::min(fmt, mods, x, y, z)
                } else {
                    float::max(fmt, mods, x, y, z)
                }
            };
            Out::float(if packed {
                float::x2(a32, b32, c32, f)
            } else {
                f(a, b, c)
            })
        }
        Arith::Copysign { fmt } => Out::value(float::copysign(fmt, a, b)),
        Arith::SetpInt { ty, cmp, combine } => setp(
            compare::compare_int(ty, cmp, a, b).unwrap_or(false),
            combine,
            pred(c),
        ),
        Arith::SetpFloat {
            fmt,
            ftz,
            cmp,
            combine,
        } => setp(
            compare::compare_float(fmt, ftz, cmp, a, b).unwrap_or(false),
            combine,
            pred(c),
        ),
        Arith::SetpFloatX2 {
            fmt,
            ftz,
            cmp,
            combine,
        } => {
            let combine = combine.map(|o| (o, pred(c)));
            let (p, q) = compare::setp_x2(fmt, cmp, ftz, combine, a, b).unwrap_or((false, false));
            Out {
                d: u64::from(p),
                q,
                ..Out::default()
            }
        }
        Arith::Testp { fmt, op } => Out::value(u64::from(compare::testp(fmt, op, a))),
        Arith::MixedFloat {
            op,
            src,
            round,
            sat,
        } => Out::float(float::mixed(op, src, round, sat, a, b, c)),
        Arith::Approx { form } => {
            let (d, open) = form.eval_register(a, b);
            Out {
                d,
                unspecified: open,
                ..Out::default()
            }
        }
    })
}

/// `setp` (PTX ISA 9.7.7.1): "`t = (a CmpOp b) ? 1 : 0; p = BoolOp(t, c);
/// q = BoolOp(!t, c);`".
fn setp(t: bool, combine: Option<BoolOp>, c: bool) -> Out {
    let (p, q) = match combine {
        Some(op) => compare::setp_combine(op, t, c),
        None => (t, !t),
    };
    Out {
        d: u64::from(p),
        q,
        ..Out::default()
    }
}
