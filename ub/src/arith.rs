//! The instructions of `ptx_semantics::arith` (PTX ISA 9.7.1-9.7.4, 9.7.7,
//! 9.7.8), decoded as [`Arith`], as Z3 terms: integer, extended-precision
//! (the carry flag is a 1-bit term), bit-field, shift and logic operations
//! exactly, as bit-vectors; `setp` on integers and on floats (a comparison
//! of encodings: NaN, signed zeros, `.ftz`), `testp` and `copysign`
//! exactly. The IEEE-exact float arithmetic (`add` ... `fma`, `div`,
//! `rcp`, `sqrt`, `min`/`max`, `neg`, `abs`, mixed precision) is
//! `fparith.rs`'s, over Z3's floating-point theory; the approximate forms
//! give fresh values (the spec bounds their error, not their bits). `fns`
//! gives a fresh value too (its loop has no short term); its base rule is
//! a precondition. Where the simulator
//! leaves a result open (division by zero, `MININT / -1`, `rem` of
//! negative numbers), the term is a fresh value on that condition.
//!
//! The tests in `tests.rs` check every operation against
//! `ptx_semantics::sim::arith::eval` on concrete inputs, so that the two
//! readings cannot drift apart.

use ptx_semantics::arith::compare::{BoolOp, CmpOp, TestOp};
use ptx_semantics::arith::int::{IntType, MulMode, ShiftMode};
use ptx_semantics::cvt::format::FloatFormat;
use ptx_semantics::sim::arith::{Arith, ArithInstr};
use z3::ast::{Bool, BV};

use crate::alu::{low, zext64};

/// One lane's result: `d` (zero-extended to 64 bits, in `d`'s width), the
/// second predicate `q` (0 or 1), and the carry-out (1 bit) when the
/// instruction writes one.
pub struct Out {
    pub d: BV,
    pub q: Option<BV>,
    pub carry: Option<BV>,
}

/// Fresh values: `float` for a float result, `opaque` for another result
/// the search does not interpret, `open` for a result the spec leaves
/// unspecified; each of `bits` bits (zero-extended to 64).
pub struct Fresh<'f> {
    pub float: &'f dyn Fn(u32) -> BV,
    pub opaque: &'f dyn Fn(u32) -> BV,
    pub open: &'f dyn Fn(u32) -> BV,
}

fn c(v: u64, n: u32) -> BV {
    BV::from_u64(v, n)
}

fn ones(n: u32) -> BV {
    c(0, n).bvnot()
}

/// The low `n` bits of `x` as `ty` widened to `to` bits.
fn widen(x: &BV, n: u32, to: u32, signed: bool) -> BV {
    crate::alu::widen(x, n, to, signed)
}

/// `x` (of width `from`) resized to `to` bits by zero-extension or
/// truncation.
fn resize(x: &BV, to: u32) -> BV {
    let w = x.get_size();
    if w == to {
        x.clone()
    } else if w < to {
        x.zero_ext(to - w)
    } else {
        x.extract(to - 1, 0)
    }
}

fn bit(x: &BV, k: u32) -> Bool {
    x.extract(k, k).eq(c(1, 1))
}

fn b1(b: &Bool) -> BV {
    b.ite(&c(1, 1), &c(0, 1))
}

/// `v` (of `w` bits, an exact signed or unsigned value of the type widened
/// past its range) clamped to `ty`'s range, then its low bits: `.sat`.
fn saturate(v: &BV, ty: IntType) -> BV {
    let n = ty.width();
    let w = v.get_size();
    let (lo, hi) = if ty.signed {
        (
            c(1, w).bvshl(c(u64::from(n - 1), w)).bvneg(),
            c(1, w).bvshl(c(u64::from(n - 1), w)).bvsub(c(1, w)),
        )
    } else {
        (c(0, w), c(1, w).bvshl(c(u64::from(n), w)).bvsub(c(1, w)))
    };
    let r = v.bvslt(&lo).ite(&lo, &v.bvsgt(&hi).ite(&hi, v));
    r.extract(n - 1, 0)
}

/// `add`/`sub{.sat}.type`: the exact value in `n + 2` bits, wrapped or
/// saturated.
fn add_sub(ty: IntType, sat: bool, a: &BV, b: &BV, sub: bool) -> BV {
    let n = ty.width();
    let (x, y) = (widen(a, n, n + 2, ty.signed), widen(b, n, n + 2, ty.signed));
    let v = if sub { x.bvsub(&y) } else { x.bvadd(&y) };
    if sat {
        saturate(&v, ty)
    } else {
        v.extract(n - 1, 0)
    }
}

/// `mul.mode.type`'s result: `.lo`/`.hi` `n` bits, `.wide` `2n` (at most
/// 64).
fn mul(ty: IntType, mode: MulMode, a: &BV, b: &BV) -> BV {
    let n = ty.width();
    let t = widen(a, n, 2 * n, ty.signed).bvmul(widen(b, n, 2 * n, ty.signed));
    match mode {
        MulMode::Lo => t.extract(n - 1, 0),
        MulMode::Hi => t.extract(2 * n - 1, n),
        MulMode::Wide => t.extract((2 * n).min(64) - 1, 0),
    }
}

/// `addc` in `n` bits: the sum and the carry-out.
fn addc(n: u32, a: &BV, b: &BV, cf: &BV) -> (BV, BV) {
    let t = widen(a, n, n + 1, false)
        .bvadd(widen(b, n, n + 1, false))
        .bvadd(cf.zero_ext(n));
    (t.extract(n - 1, 0), t.extract(n, n))
}

/// `subc` in `n` bits: `a - (b + CC.CF)` and the borrow.
fn subc(n: u32, a: &BV, b: &BV, cf: &BV) -> (BV, BV) {
    let s = widen(b, n, n + 1, false).bvadd(cf.zero_ext(n));
    let x = widen(a, n, n + 1, false);
    (x.bvsub(&s).extract(n - 1, 0), b1(&s.bvugt(&x)))
}

/// `mul24`: the 48-bit product of the low 24 bits, `.hi` its bits 47..16.
fn mul24(signed: bool, hi: bool, a: &BV, b: &BV) -> BV {
    let t = widen(a, 24, 48, signed).bvmul(widen(b, 24, 48, signed));
    if hi {
        t.extract(47, 16)
    } else {
        t.extract(31, 0)
    }
}

/// `popc.type` (PTX ISA 9.7.1.14): the number of one bits in the low
/// `bits` of `a` (32 bits).
pub fn popc(bits: u32, a: &BV) -> BV {
    let x = low(a, bits);
    let mut sum = c(0, 32);
    for k in 0..bits {
        sum = sum.bvadd(x.extract(k, k).zero_ext(31));
    }
    sum
}

/// `clz.type` (PTX ISA 9.7.1.15): leading zeros of the low `bits` of `a`
/// (32 bits; `bits` for a zero input).
pub fn clz(bits: u32, a: &BV) -> BV {
    let x = low(a, bits);
    let mut r = c(u64::from(bits), 32);
    for p in 0..bits {
        r = bit(&x, p).ite(&c(u64::from(bits - 1 - p), 32), &r);
    }
    r
}

/// `brev.type` (PTX ISA 9.7.1.18): the low `bits` of `a` reversed.
pub fn brev(bits: u32, a: &BV) -> BV {
    let x = low(a, bits);
    let mut r = x.extract(0, 0);
    for k in 1..bits {
        r = r.concat(x.extract(k, k));
    }
    r
}

/// `bfe.type` (PTX ISA 9.7.1.19): bit `i` of `d` is `a[pos+i]` for `i <
/// k = min(len, n - pos)`, else the sign bit `a[min(pos+len-1, msb)]`
/// (0 for unsigned types or `len == 0`).
pub fn bfe(ty: IntType, a: &BV, b: &BV, cc: &BV) -> BV {
    let n = ty.width();
    let x = low(a, n);
    let pos = low(b, 32).bvand(c(0xff, 32));
    let len = low(cc, 32).bvand(c(0xff, 32));
    let room = pos
        .bvult(c(u64::from(n), 32))
        .ite(&c(u64::from(n), 32).bvsub(&pos), &c(0, 32));
    let k = len.bvult(&room).ite(&len, &room);
    let mask = c(1, n).bvshl(resize(&k, n)).bvsub(c(1, n));
    let field = x.bvlshr(resize(&pos, n)).bvand(&mask);
    if !ty.signed {
        return field;
    }
    let top = pos.bvadd(&len).bvsub(c(1, 32));
    let msb = c(u64::from(n - 1), 32);
    let at = top.bvult(&msb).ite(&top, &msb);
    let s = x.bvlshr(resize(&at, n)).bvand(c(1, n)).eq(c(1, n));
    let sbit = Bool::and(&[len.eq(c(0, 32)).not(), s]);
    sbit.ite(&field.bvor(mask.bvnot()), &field)
}

/// `bfi.type` (PTX ISA 9.7.1.20): the `k = min(len, n - pos)` low bits of
/// `a` at `pos` in `b`.
fn bfi(n: u32, a: &BV, b: &BV, cc: &BV, dd: &BV) -> BV {
    let pos = low(cc, 32).bvand(c(0xff, 32));
    let len = low(dd, 32).bvand(c(0xff, 32));
    let room = pos
        .bvult(c(u64::from(n), 32))
        .ite(&c(u64::from(n), 32).bvsub(&pos), &c(0, 32));
    let k = len.bvult(&room).ite(&len, &room);
    let p = resize(&pos, n);
    let mask = c(1, n).bvshl(resize(&k, n)).bvsub(c(1, n)).bvshl(&p);
    low(b, n)
        .bvand(mask.bvnot())
        .bvor(low(a, n).bvshl(&p).bvand(&mask))
}

/// `bmsk.mode.b32` (PTX ISA 9.7.1.22), after the spec's pseudocode.
fn bmsk(mode: ShiftMode, a: &BV, b: &BV) -> BV {
    let (a, b) = (low(a, 32), low(b, 32));
    let a1 = a.bvand(c(0x1f, 32));
    let b1 = b.bvand(c(0x1f, 32));
    let sum = a1.bvadd(&b1);
    let thirty_two = c(32, 32);
    let clamp = mode == ShiftMode::Clamp;
    let pos_over = Bool::and(&[Bool::from_bool(clamp), a.bvuge(&thirty_two)]);
    let width_over = Bool::and(&[Bool::from_bool(clamp), b.bvuge(&thirty_two)]);
    let mask0 = pos_over.ite(&c(0, 32), &ones(32).bvshl(&a1));
    let mask1 = Bool::or(&[sum.bvuge(&thirty_two), pos_over, width_over]).ite(
        &c(0, 32),
        &b1.eq(c(0, 32)).ite(&ones(32), &ones(32).bvshl(&sum)),
    );
    mask0.bvand(mask1.bvnot())
}

/// `szext.mode.type` (PTX ISA 9.7.1.23), after the spec's pseudocode.
fn szext(signed: bool, mode: ShiftMode, a: &BV, b: &BV) -> BV {
    let (a, b) = (low(a, 32), low(b, 32));
    let b1 = b.bvand(c(0x1f, 32));
    let too_large = Bool::and(&[
        Bool::from_bool(mode == ShiftMode::Clamp),
        b.bvuge(c(32, 32)),
    ]);
    let mask = too_large.ite(&c(0, 32), &ones(32).bvshl(&b1));
    let sign_pos = b1.bvsub(c(1, 32)).bvand(c(0x1f, 32));
    let sign_set = a.bvlshr(&sign_pos).bvand(c(1, 32)).eq(c(1, 32));
    let sign_bit = Bool::and(&[
        Bool::from_bool(signed),
        b1.eq(c(0, 32)).not(),
        too_large.not(),
        sign_set,
    ]);
    a.bvand(mask.bvnot()).bvor(sign_bit.ite(&mask, &c(0, 32)))
}

/// `shf.dir.mode.b32` (PTX ISA 9.7.8.7).
fn shf(left: bool, mode: ShiftMode, a: &BV, b: &BV, cc: &BV) -> BV {
    let cc = low(cc, 32);
    let n = match mode {
        ShiftMode::Clamp => cc.bvult(c(32, 32)).ite(&cc, &c(32, 32)),
        ShiftMode::Wrap => cc.bvand(c(0x1f, 32)),
    };
    let v = low(b, 32).concat(low(a, 32));
    let n = n.zero_ext(32);
    if left {
        v.bvshl(&n).extract(63, 32)
    } else {
        v.bvlshr(&n).extract(31, 0)
    }
}

/// The amount `min(b, n)` (`b` the unsigned 32-bit operand) in `n` bits.
fn clamped_amount(b: &BV, n: u32) -> BV {
    let b = low(b, 32);
    let nn = c(u64::from(n), 32);
    resize(&b.bvult(&nn).ite(&b, &nn), n)
}

/// Bit `(a << 2) | (b << 1) | c` of `lut`, bitwise (`lop3`).
fn lop3(a: &BV, b: &BV, cc: &BV, lut: u8) -> BV {
    let (a, b, cc) = (low(a, 32), low(b, 32), low(cc, 32));
    let mut d = c(0, 32);
    for k in 0..8u32 {
        if (lut >> k) & 1 == 1 {
            let pick = |x: &BV, i: u32| {
                if (k >> i) & 1 == 1 {
                    x.clone()
                } else {
                    x.bvnot()
                }
            };
            d = d.bvor(pick(&a, 2).bvand(pick(&b, 1)).bvand(pick(&cc, 0)));
        }
    }
    d
}

/// An integer comparison (PTX ISA 9.7.7.1); `None` for the float-only
/// operators (false, as `compare_int` gives).
fn compare_int(ty: IntType, op: CmpOp, a: &BV, b: &BV) -> Bool {
    let n = ty.width();
    let (x, y) = (low(a, n), low(b, n));
    let s = ty.signed;
    match op {
        CmpOp::Eq => x.eq(&y),
        CmpOp::Ne => x.eq(&y).not(),
        CmpOp::Lt if s => x.bvslt(&y),
        CmpOp::Le if s => x.bvsle(&y),
        CmpOp::Gt if s => x.bvsgt(&y),
        CmpOp::Ge if s => x.bvsge(&y),
        CmpOp::Lt | CmpOp::Lo => x.bvult(&y),
        CmpOp::Le | CmpOp::Ls => x.bvule(&y),
        CmpOp::Gt | CmpOp::Hi => x.bvugt(&y),
        CmpOp::Ge | CmpOp::Hs => x.bvuge(&y),
        _ => Bool::from_bool(false),
    }
}

/// A float encoding's fields: NaN, and an unsigned key whose order is the
/// values' (both zeros one key).
fn float_key(fmt: &FloatFormat, ftz: bool, a: &BV) -> (Bool, BV) {
    let w = fmt.width();
    let m = fmt.man_bits;
    let x = low(a, w);
    let exp = x.extract(w - 2, m);
    let man = x.extract(m - 1, 0);
    let sign = bit(&x, w - 1);
    let exp_zero = exp.eq(c(0, fmt.exp_bits));
    let mag_zero = if ftz {
        exp_zero
    } else {
        Bool::and(&[exp_zero, man.eq(c(0, m))])
    };
    let nan = Bool::and(&[exp.eq(ones(fmt.exp_bits)), man.eq(c(0, m)).not()]);
    let top = c(1, w).bvshl(c(u64::from(w - 1), w));
    let key = mag_zero.ite(&top, &sign.ite(&x.bvnot(), &x.bvor(&top)));
    (nan, key)
}

/// A float comparison (PTX ISA 9.7.7.1): ordered operators false on a NaN,
/// unordered true; `setp.ftz` flushes subnormal inputs to zero.
fn compare_float(fmt: &FloatFormat, ftz: bool, op: CmpOp, a: &BV, b: &BV) -> Bool {
    let (na, x) = float_key(fmt, ftz, a);
    let (nb, y) = float_key(fmt, ftz, b);
    let nan = Bool::or(&[na, nb]);
    let ordered = |t: Bool| Bool::and(&[nan.not(), t]);
    let unordered = |t: Bool| Bool::or(&[nan.clone(), t]);
    match op {
        CmpOp::Eq => ordered(x.eq(&y)),
        CmpOp::Ne => ordered(x.eq(&y).not()),
        CmpOp::Lt => ordered(x.bvult(&y)),
        CmpOp::Le => ordered(x.bvule(&y)),
        CmpOp::Gt => ordered(x.bvugt(&y)),
        CmpOp::Ge => ordered(x.bvuge(&y)),
        CmpOp::Equ => unordered(x.eq(&y)),
        CmpOp::Neu => unordered(x.eq(&y).not()),
        CmpOp::Ltu => unordered(x.bvult(&y)),
        CmpOp::Leu => unordered(x.bvule(&y)),
        CmpOp::Gtu => unordered(x.bvugt(&y)),
        CmpOp::Geu => unordered(x.bvuge(&y)),
        CmpOp::Num => nan.not(),
        CmpOp::Nan => nan,
        CmpOp::Lo | CmpOp::Ls | CmpOp::Hi | CmpOp::Hs => Bool::from_bool(false),
    }
}

/// `testp.op.type` (PTX ISA 9.7.3.1).
fn testp(fmt: &FloatFormat, op: TestOp, a: &BV) -> Bool {
    let w = fmt.width();
    let m = fmt.man_bits;
    let x = low(a, w);
    let exp = x.extract(w - 2, m);
    let man_zero = x.extract(m - 1, 0).eq(c(0, m));
    let all = exp.eq(ones(fmt.exp_bits));
    let inf = Bool::and(&[all.clone(), man_zero.clone()]);
    let nan = Bool::and(&[all, man_zero.not()]);
    let sub = Bool::and(&[exp.eq(c(0, fmt.exp_bits)), man_zero.not()]);
    match op {
        TestOp::Finite => Bool::or(&[inf, nan]).not(),
        TestOp::Infinite => inf,
        TestOp::Number => nan.not(),
        TestOp::NotANumber => nan,
        TestOp::Normal => Bool::or(&[inf, nan, sub]).not(),
        TestOp::Subnormal => sub,
    }
}

/// `setp`'s `p` and `q` (PTX ISA 9.7.7.4): "`p = BoolOp(t, c); q =
/// BoolOp(!t, c);`".
fn setp(t: Bool, combine: Option<BoolOp>, pc: &Bool) -> (BV, BV) {
    let f = |x: Bool| match combine {
        None => x,
        Some(BoolOp::And) => Bool::and(&[x, pc.clone()]),
        Some(BoolOp::Or) => Bool::or(&[x, pc.clone()]),
        Some(BoolOp::Xor) => x.xor(pc),
    };
    let p = f(t.clone());
    let q = f(t.not());
    (zext64(&b1(&p)), zext64(&b1(&q)))
}

/// The result of `i` on the sources `v` (64-bit terms, in the order of
/// `i.srcs`) and the carry flag `cf` (1 bit).
pub fn eval(i: &ArithInstr, v: &[BV; 4], cf: &BV, fresh: &Fresh) -> Out {
    let [a, b, cc, e] = v;
    let pred = |x: &BV| {
        let on = bit(x, 0);
        if i.neg_pred {
            on.not()
        } else {
            on
        }
    };
    let mut q = None;
    let mut carry = None;
    let d: BV = match i.op {
        Arith::Add { ty, sat } => add_sub(ty, sat, a, b, false),
        Arith::Sub { ty, sat } => add_sub(ty, sat, a, b, true),
        Arith::AddCc { bits } | Arith::Addc { bits } => {
            let cin = if i.op.reads_carry() {
                cf.clone()
            } else {
                c(0, 1)
            };
            let (d, co) = addc(bits, a, b, &cin);
            carry = Some(co);
            d
        }
        Arith::SubCc { bits } | Arith::Subc { bits } => {
            let cin = if i.op.reads_carry() {
                cf.clone()
            } else {
                c(0, 1)
            };
            let (d, co) = subc(bits, a, b, &cin);
            carry = Some(co);
            d
        }
        Arith::Mul { ty, mode } => mul(ty, mode, a, b),
        Arith::Mad { ty, mode, sat } => {
            let half = zext64(&mul(ty, mode, a, b));
            let dty = IntType {
                bits: if mode == MulMode::Wide {
                    ty.bits * 2
                } else {
                    ty.bits
                },
                signed: ty.signed,
            };
            add_sub(dty, sat, &half, cc, false)
        }
        Arith::MadCc { ty, hi } | Arith::Madc { ty, hi } => {
            let mode = if hi { MulMode::Hi } else { MulMode::Lo };
            let cin = if i.op.reads_carry() {
                cf.clone()
            } else {
                c(0, 1)
            };
            let (d, co) = addc(ty.bits, &mul(ty, mode, a, b), cc, &cin);
            carry = Some(co);
            d
        }
        Arith::Mul24 { signed, hi } => mul24(signed, hi, a, b),
        Arith::Mad24 { signed, hi, sat } => {
            let ty = IntType { bits: 32, signed };
            add_sub(ty, sat, &mul24(signed, hi, a, b), cc, false)
        }
        Arith::Sad { ty } => {
            let n = ty.width();
            let diff = widen(a, n, n + 1, ty.signed).bvsub(widen(b, n, n + 1, ty.signed));
            let abs = diff.bvslt(c(0, n + 1)).ite(&diff.bvneg(), &diff);
            low(cc, n).bvadd(abs.extract(n - 1, 0))
        }
        Arith::Div { ty } | Arith::Rem { ty } => {
            let n = ty.width();
            let (x, y) = (low(a, n), low(b, n));
            let is_div = matches!(i.op, Arith::Div { .. });
            let r = match (is_div, ty.signed) {
                (true, true) => x.bvsdiv(&y),
                (true, false) => x.bvudiv(&y),
                (false, true) => x.bvsrem(&y),
                (false, false) => x.bvurem(&y),
            };
            let zero = c(0, n);
            let mut open = vec![y.eq(&zero)];
            if ty.signed && is_div {
                // `MININT / -1`: the spec is silent (the simulator marks it)
                let min = c(1, n).bvshl(c(u64::from(n - 1), n));
                open.push(Bool::and(&[x.eq(&min), y.eq(ones(n))]));
            }
            if ty.signed && !is_div {
                // "The behavior for negative numbers is machine-dependent"
                open.push(x.bvslt(&zero));
                open.push(y.bvslt(&zero));
            }
            Bool::or(&open).ite(&low(&(fresh.open)(n), n), &r)
        }
        Arith::Abs { ty } => {
            let n = ty.width();
            let x = low(a, n);
            if ty.signed {
                x.bvslt(c(0, n)).ite(&x.bvneg(), &x)
            } else {
                x
            }
        }
        Arith::Neg { ty } => low(a, ty.width()).bvneg(),
        Arith::Min { ty, relu } | Arith::Max { ty, relu } => {
            let n = ty.width();
            let (x, y) = (low(a, n), low(b, n));
            let lt = if ty.signed { x.bvslt(&y) } else { x.bvult(&y) };
            let r = if matches!(i.op, Arith::Min { .. }) {
                lt.ite(&x, &y)
            } else {
                lt.ite(&y, &x)
            };
            if relu && ty.signed {
                r.bvslt(c(0, n)).ite(&c(0, n), &r)
            } else {
                r
            }
        }
        Arith::Popc { bits } => popc(bits, a),
        Arith::Clz { bits } => clz(bits, a),
        Arith::Bfind { ty, shiftamt } => {
            let n = ty.width();
            let x = low(a, n);
            let x = if ty.signed {
                bit(&x, n - 1).ite(&x.bvnot(), &x)
            } else {
                x
            };
            let mut r = c(u64::from(u32::MAX), 32);
            for p in 0..n {
                let at = if shiftamt { n - 1 - p } else { p };
                r = bit(&x, p).ite(&c(u64::from(at), 32), &r);
            }
            r
        }
        Arith::Fns => low(&(fresh.opaque)(32), 32),
        Arith::Brev { bits } => brev(bits, a),
        Arith::Bfe { ty } => bfe(ty, a, b, cc),
        Arith::Bfi { bits } => bfi(bits, a, b, cc, e),
        Arith::Bmsk { mode } => bmsk(mode, a, b),
        Arith::Szext { signed, mode } => szext(signed, mode, a, b),
        Arith::Shf { left, mode } => shf(left, mode, a, b, cc),
        Arith::Shl { bits } => {
            let x = low(a, bits);
            let s = low(b, 32);
            let over = s.bvuge(c(u64::from(bits), 32));
            over.ite(&c(0, bits), &x.bvshl(clamped_amount(b, bits)))
        }
        Arith::Shr { ty } => {
            let n = ty.width();
            let x = low(a, n);
            let s = clamped_amount(b, n);
            if ty.signed {
                x.bvashr(&s)
            } else {
                x.bvlshr(&s)
            }
        }
        Arith::Dp4a { a_signed, b_signed } => {
            let mut d = low(cc, 32);
            for k in 0..4 {
                let x = widen(&low(a, 32).extract(8 * k + 7, 8 * k), 8, 32, a_signed);
                let y = widen(&low(b, 32).extract(8 * k + 7, 8 * k), 8, 32, b_signed);
                d = d.bvadd(x.bvmul(&y));
            }
            d
        }
        Arith::Dp2a {
            hi,
            a_signed,
            b_signed,
        } => {
            let sel = if hi { 2 } else { 0 };
            let mut d = low(cc, 32);
            for k in 0..2 {
                let x = widen(&low(a, 32).extract(16 * k + 15, 16 * k), 16, 32, a_signed);
                let j = sel + k;
                let y = widen(&low(b, 32).extract(8 * j + 7, 8 * j), 8, 32, b_signed);
                d = d.bvadd(x.bvmul(&y));
            }
            d
        }
        Arith::And { bits } => low(a, bits).bvand(low(b, bits)),
        Arith::Or { bits } => low(a, bits).bvor(low(b, bits)),
        Arith::Xor { bits } => low(a, bits).bvxor(low(b, bits)),
        Arith::Not { bits } => low(a, bits).bvnot(),
        Arith::Cnot { bits } => b1(&low(a, bits).eq(c(0, bits))),
        Arith::Lop3 { lut } => lop3(a, b, cc, lut),
        Arith::Lop3Pred { lut, and } => {
            let d = lop3(a, b, cc, lut);
            let nz = d.eq(c(0, 32)).not();
            let p = if and {
                Bool::and(&[nz, pred(e)])
            } else {
                Bool::or(&[nz, pred(e)])
            };
            q = Some(zext64(&b1(&p)));
            d
        }
        // the IEEE-exact forms as floating-point terms (`fparith.rs`)
        Arith::Float { .. }
        | Arith::FNeg { .. }
        | Arith::FAbs { .. }
        | Arith::FMin { .. }
        | Arith::FMax { .. }
        | Arith::MixedFloat { .. } => crate::fparith::eval(&i.op, i.srcs.len(), v, fresh.open)
            .unwrap_or_else(|| (fresh.float)(u32::from(i.bits))),
        // the spec bounds their error, not their bits
        Arith::Approx { .. } => (fresh.float)(u32::from(i.bits)),
        Arith::Copysign { fmt } => {
            let w = fmt.width();
            let s = c(fmt.sign_mask(), w);
            low(a, w).bvand(&s).bvor(low(b, w).bvand(s.bvnot()))
        }
        Arith::SetpInt { ty, cmp, combine } => {
            let (p, qq) = setp(compare_int(ty, cmp, a, b), combine, &pred(cc));
            q = Some(qq);
            p
        }
        Arith::SetpFloat {
            fmt,
            ftz,
            cmp,
            combine,
        } => {
            let (p, qq) = setp(compare_float(fmt, ftz, cmp, a, b), combine, &pred(cc));
            q = Some(qq);
            p
        }
        // `setp.f16x2`/`.bf16x2`: each lane's comparison, `p` lane 0's and
        // `q` lane 1's (PTX ISA 9.7.7.2, half precision `setp`)
        Arith::SetpFloatX2 {
            fmt,
            ftz,
            cmp,
            combine,
        } => {
            let hi = |x: &BV| x.bvlshr(c(16, 64));
            let (p, _) = setp(compare_float(fmt, ftz, cmp, a, b), combine, &pred(cc));
            let (p1, _) = setp(
                compare_float(fmt, ftz, cmp, &hi(a), &hi(b)),
                combine,
                &pred(cc),
            );
            q = Some(p1);
            p
        }
        Arith::Testp { fmt, op } => b1(&testp(fmt, op, a)),
        // a form added to the simulator after this reading: not
        // interpreted (a fresh value is never wrong, only weaker)
        #[allow(unreachable_patterns)]
        _ => (fresh.opaque)(u32::from(i.bits)),
    };
    let d = mask(&zext64(&d), u32::from(i.bits));
    Out {
        d,
        q,
        carry: carry.filter(|_| i.cc),
    }
}

/// The low `bits` of a 64-bit term, zero-extended.
fn mask(x: &BV, bits: u32) -> BV {
    crate::alu::mask64(x, bits.clamp(1, 64))
}
