//! The floating-point terms ([`crate::fparith`], through
//! [`crate::arith::eval`]) against the model (`ptx_semantics::sim::arith::
//! eval` over `ptx_semantics::arith::float`, and `ptx_semantics::cvt`) on
//! concrete inputs: each format's edges (zeros, subnormals, the smallest
//! and largest normals, infinities, quiet and signalling NaNs), values near
//! one, near the underflow and overflow thresholds, cancelling pairs and
//! random encodings. Bits the model defines must be the term's, bit for
//! bit; where the model leaves a NaN's sign and payload open, the term
//! must be a NaN in every model of its fresh value and not one constant.

use ptx_semantics::arith::float::{FloatFormat, FpMods, MinMaxMods, MixedOp, BF16, F16, F32, F64};
use ptx_semantics::arith::Carry;
use ptx_semantics::cvt::convert::Modifiers;
use ptx_semantics::cvt::format::{Format, IntFormat};
use ptx_semantics::cvt::round::Round;
use ptx_semantics::cvt::{extend_to_register, CvtOp};
use ptx_semantics::sim::arith::{eval, Arith, ArithInstr, FloatOp};
use ptx_semantics::sim::program::Src;
use z3::ast::{Ast, BV};
use z3::{SatResult, Solver};

use crate::arith::{self, Fresh};

const FORMATS: [&FloatFormat; 4] = [&F16, &BF16, &F32, &F64];
const ROUNDS: [Round; 4] = [
    Round::NearestEven,
    Round::TowardZero,
    Round::Down,
    Round::Up,
];

/// xorshift64*.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

fn mask(w: u32) -> u64 {
    u64::MAX >> (64 - w)
}

/// The edges of a format, both signs.
fn edges(fmt: &FloatFormat) -> Vec<u64> {
    let m = fmt.man_bits;
    let one = (fmt.bias() as u64) << m;
    let inf = fmt.inf();
    let pos = [
        0,
        1,
        2,
        (1 << m) - 1,
        1 << m,
        (1 << m) + 1,
        (2 << m) - 1,
        fmt.max_norm(),
        fmt.max_norm() - 1,
        inf,
        inf | 1,
        inf | 1 << (m - 1),
        inf | ((1 << m) - 1),
        one,
        one + 1,
        one - 1,
        one + (1 << m),
        one - (1 << m),
        one >> 1,
        one + (1 << (m - 1)),
    ];
    pos.iter().flat_map(|&x| [x, x | fmt.sign_mask()]).collect()
}

/// An operand: an edge, a random encoding, one near 1.0, one near the
/// smallest normal, one near the largest, or `prev` slightly changed (for
/// cancellation and ties).
fn operand(fmt: &FloatFormat, rng: &mut Rng, prev: u64) -> u64 {
    let w = fmt.width();
    let m = fmt.man_bits;
    let e = edges(fmt);
    let r = rng.next();
    let man = rng.next() & ((1 << m) - 1);
    let sign = if rng.next() & 1 == 1 {
        fmt.sign_mask()
    } else {
        0
    };
    let biased = |exp: u64| sign | (exp << m) | man;
    let top = (1u64 << fmt.exp_bits) - 2;
    let bias = fmt.bias() as u64;
    let x = match r % 8 {
        0 | 1 => e[(rng.next() % e.len() as u64) as usize],
        2 => rng.next(),
        3 => biased(bias - 2 + rng.next() % 4),
        4 => biased(rng.next() % 3),
        5 => biased(top - rng.next() % 3),
        6 => prev ^ fmt.sign_mask() ^ (rng.next() & 3),
        _ => prev ^ (rng.next() % 7),
    };
    x & mask(w)
}

fn konst(t: &BV) -> Option<u64> {
    t.simplify().as_u64()
}

fn lane_is_nan(d: &BV, lo: u32, fmt: &FloatFormat) -> z3::ast::Bool {
    let w = fmt.width();
    let x = d.extract(lo + w - 1, lo);
    let exp = x.extract(w - 2, fmt.man_bits);
    let man = x.extract(fmt.man_bits - 1, 0);
    z3::ast::Bool::and(&[
        exp.eq(BV::from_u64(mask(fmt.exp_bits), fmt.exp_bits)),
        man.eq(BV::from_u64(0, fmt.man_bits)).not(),
    ])
}

/// Compares a term with the model's bits `want` and open bits `open`
/// (lanes of `lane` bits, in format `fmt`, in the low `bits`); panics with
/// `ctx` on a difference.
fn compare(got: &BV, want: u64, open: u64, bits: u32, fmt: &FloatFormat, ctx: &dyn Fn() -> String) {
    let m = mask(bits);
    if open & m == 0 {
        if let Some(k) = konst(got) {
            assert_eq!(k, want & m, "{}", ctx());
        } else {
            // a term over a fresh value the simplifier keeps: equal to the
            // model's bits in every model
            let s = Solver::new();
            s.assert(got.eq(BV::from_u64(want & m, 64)).not());
            assert_eq!(s.check(), SatResult::Unsat, "{}", ctx());
        }
        return;
    }
    let got = got.simplify();
    let defined = m & !open;
    let s = Solver::new();
    // the defined bits are the model's in every case
    s.assert(
        got.bvand(BV::from_u64(defined, 64))
            .eq(BV::from_u64(want & defined, 64))
            .not(),
    );
    assert_eq!(s.check(), SatResult::Unsat, "defined bits: {}", ctx());
    // each open lane is a NaN, always
    let w = fmt.width();
    for lo in (0..bits).step_by(w as usize) {
        if (open >> lo) & mask(w) == 0 {
            continue;
        }
        let s = Solver::new();
        s.assert(lane_is_nan(&got, lo, fmt).not());
        assert_eq!(s.check(), SatResult::Unsat, "NaN in lane {lo}: {}", ctx());
    }
    // and not one constant
    let s = Solver::new();
    s.assert(got.eq(BV::from_u64(want & m, 64)).not());
    assert_eq!(s.check(), SatResult::Sat, "open bits pinned: {}", ctx());
}

/// The term for `i` on `v`.
fn term(i: &ArithInstr, v: &[u64; 4]) -> BV {
    let float = |_: u32| BV::fresh_const("f", 64);
    let opaque = |_: u32| BV::fresh_const("x", 64);
    let open = |_: u32| BV::fresh_const("u", 64);
    arith::eval(
        i,
        &v.map(|x| BV::from_u64(x, 64)),
        &BV::from_u64(0, 1),
        &Fresh {
            float: &float,
            opaque: &opaque,
            open: &open,
        },
    )
    .d
}

/// A form, the format of its lanes, the operand formats and `d`'s width.
struct Form {
    op: Arith,
    lane: &'static FloatFormat,
    srcs: [&'static FloatFormat; 3],
    count: usize,
    bits: u16,
    packed: bool,
}

fn forms() -> Vec<Form> {
    let mut out = Vec::new();
    let mods_list = [
        FpMods::default(),
        FpMods {
            ftz: true,
            ..FpMods::default()
        },
        FpMods {
            sat: true,
            ..FpMods::default()
        },
        FpMods {
            ftz: true,
            sat: true,
            relu: false,
        },
        FpMods {
            relu: true,
            ..FpMods::default()
        },
    ];
    for fmt in FORMATS {
        let w = fmt.width() as u16;
        let packs: &[bool] = if w == 16 { &[false, true] } else { &[false] };
        for &packed in packs {
            let bits = if packed { 32 } else { w };
            for op in [
                FloatOp::Add,
                FloatOp::Sub,
                FloatOp::Mul,
                FloatOp::Fma,
                FloatOp::Div,
                FloatOp::Rcp,
                FloatOp::Sqrt,
            ] {
                for round in ROUNDS {
                    for mods in mods_list {
                        if packed && (round != Round::NearestEven || op == FloatOp::Div) {
                            continue;
                        }
                        out.push(Form {
                            op: Arith::Float {
                                op,
                                fmt,
                                round,
                                mods,
                                packed,
                            },
                            lane: fmt,
                            srcs: [fmt; 3],
                            count: 3,
                            bits,
                            packed,
                        });
                    }
                }
            }
            for ftz in [false, true] {
                out.push(Form {
                    op: Arith::FNeg { fmt, ftz, packed },
                    lane: fmt,
                    srcs: [fmt; 3],
                    count: 1,
                    bits,
                    packed,
                });
                out.push(Form {
                    op: Arith::FAbs { fmt, ftz, packed },
                    lane: fmt,
                    srcs: [fmt; 3],
                    count: 1,
                    bits,
                    packed,
                });
            }
            for (ftz, nan, abs, xorsign) in [
                (false, false, false, false),
                (true, false, false, false),
                (false, true, false, false),
                (false, false, true, false),
                (true, false, true, true),
                (false, true, true, true),
            ] {
                let mods = MinMaxMods {
                    ftz,
                    nan,
                    abs,
                    xorsign,
                };
                for count in [2, 3] {
                    if count == 3 && (packed || xorsign) {
                        continue;
                    }
                    for op in [
                        Arith::FMin { fmt, mods, packed },
                        Arith::FMax { fmt, mods, packed },
                    ] {
                        out.push(Form {
                            op,
                            lane: fmt,
                            srcs: [fmt; 3],
                            count,
                            bits,
                            packed,
                        });
                    }
                }
            }
        }
    }
    for src in [&F16, &BF16] {
        for op in [MixedOp::Add, MixedOp::Sub, MixedOp::Fma] {
            for round in ROUNDS {
                for sat in [false, true] {
                    let srcs = if op == MixedOp::Fma {
                        [src, src, &F32]
                    } else {
                        [src, &F32, &F32]
                    };
                    out.push(Form {
                        op: Arith::MixedFloat {
                            op,
                            src,
                            round,
                            sat,
                        },
                        lane: &F32,
                        srcs,
                        count: 3,
                        bits: 32,
                        packed: false,
                    });
                }
            }
        }
    }
    out
}

/// Checks one form on `cases` inputs; returns the number compared.
fn check_form(f: &Form, cases: usize, rng: &mut Rng) -> usize {
    let i = ArithInstr {
        op: f.op,
        d: Some(0),
        q: None,
        srcs: vec![Src::Imm(0); f.count],
        neg_pred: false,
        bits: f.bits,
        cc: false,
    };
    let mut n = 0;
    let mut prev = [0u64; 3];
    for _ in 0..cases {
        let mut v = [0u64; 4];
        for j in 0..3 {
            let fmt = f.srcs[j];
            v[j] = if f.packed {
                operand(fmt, rng, prev[j]) | operand(fmt, rng, prev[j] >> 16) << 16
            } else {
                operand(fmt, rng, if j > 0 { v[j - 1] } else { prev[j] })
            };
            prev[j] = v[j];
        }
        let want = eval(&i, &v, Carry(false)).expect("float forms are defined");
        let got = term(&i, &v);
        let ctx = || {
            format!(
                "{:?} on {v:#x?}: model {:#x} open {:#x}",
                f.op, want.d, want.unspecified
            )
        };
        compare(
            &got,
            want.d,
            want.unspecified,
            u32::from(f.bits),
            f.lane,
            &ctx,
        );
        n += 1;
    }
    n
}

/// Every float form the terms cover agrees with the model bit for bit on
/// the bits it defines, and is a NaN wherever it leaves bits open.
#[test]
fn float_terms_agree_with_the_model() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let forms = forms();
    let mut total = 0;
    for f in &forms {
        total += check_form(f, 48, &mut rng);
    }
    assert!(forms.len() > 600, "{}", forms.len());
    assert!(total > 30_000, "{total}");
}

/// The `.ftz` results at the smallest normal number, where sm_90 flushes
/// by the value rounded with an unbounded exponent (the model's
/// `round_term`): `mul.rn.ftz.f32 0x3f7ffffe, 0x00800001` is `0x00800000`,
/// `mul.rn.ftz.f32 0x3f7fffff, 0x00800000` is 0; without `.ftz` the second
/// rounds to the smallest normal.
#[test]
fn ftz_flushes_after_rounding() {
    let mul = |ftz: bool, a: u64, b: u64| {
        let i = ArithInstr {
            op: Arith::Float {
                op: FloatOp::Mul,
                fmt: &F32,
                round: Round::NearestEven,
                mods: FpMods {
                    ftz,
                    ..FpMods::default()
                },
                packed: false,
            },
            d: Some(0),
            q: None,
            srcs: vec![Src::Imm(0); 2],
            neg_pred: false,
            bits: 32,
            cc: false,
        };
        let v = [a, b, 0, 0];
        (eval(&i, &v, Carry(false)).unwrap().d, konst(&term(&i, &v)))
    };
    assert_eq!(
        mul(true, 0x3f7f_fffe, 0x0080_0001),
        (0x0080_0000, Some(0x0080_0000))
    );
    assert_eq!(mul(true, 0x3f7f_ffff, 0x0080_0000), (0, Some(0)));
    assert_eq!(
        mul(true, 0xbf7f_ffff, 0x0080_0000),
        (0x8000_0000, Some(0x8000_0000))
    );
    assert_eq!(
        mul(false, 0x3f7f_ffff, 0x0080_0000),
        (0x0080_0000, Some(0x0080_0000))
    );
}

/// A mutation is caught: `.rz` read as `.rn` differs from the model on
/// `1 + 2^-24 + 2^-47` (`add.f32 1.0, 0x33800001`).
#[test]
fn a_wrong_rounding_is_caught() {
    let form = |round| ArithInstr {
        op: Arith::Float {
            op: FloatOp::Add,
            fmt: &F32,
            round,
            mods: FpMods::default(),
            packed: false,
        },
        d: Some(0),
        q: None,
        srcs: vec![Src::Imm(0); 2],
        neg_pred: false,
        bits: 32,
        cc: false,
    };
    let v = [0x3f80_0000, 0x3380_0001, 0, 0];
    let rz = eval(&form(Round::TowardZero), &v, Carry(false)).unwrap().d;
    assert_eq!(rz, 0x3f80_0000);
    assert_eq!(konst(&term(&form(Round::TowardZero), &v)), Some(rz));
    assert_ne!(konst(&term(&form(Round::NearestEven), &v)), Some(rz));
}

/// Float-to-integer inputs: the integer edges (halves, powers of two at
/// each destination's bounds and the floats just below them) in both
/// signs, the format's edges, and random encodings.
fn cvt_inputs(fmt: &FloatFormat, rng: &mut Rng) -> Vec<u64> {
    let enc = |x: f64| -> u64 {
        if *fmt == F64 {
            x.to_bits()
        } else {
            u64::from((x as f32).to_bits())
        }
    };
    let mut out = edges(fmt);
    if *fmt == F32 || *fmt == F64 {
        for x in [
            0.5, 1.5, 2.5, 0.49, 1.0, 127.5, 128.0, 255.5, 256.0, 32767.5, 32768.0, 65535.5,
            65536.0,
        ] {
            out.push(enc(x));
            out.push(enc(-x));
        }
        for p in [7, 8, 15, 16, 31, 32, 63, 64] {
            let x = 2f64.powi(p);
            for v in [x, -x] {
                let b = enc(v);
                out.extend([b, b - 1, b + 1]);
            }
        }
    }
    for _ in 0..60 {
        let r = rng.next();
        let e = (fmt.bias() as u64 + rng.next() % 70).min((1 << fmt.exp_bits) - 1);
        out.push(r & mask(fmt.width()));
        out.push((r & fmt.sign_mask()) | (e << fmt.man_bits) | (r & ((1 << fmt.man_bits) - 1)));
    }
    out
}

/// `cvt` between floats and integers against `ptx_semantics::cvt`, the
/// result extended to the register as the model says.
#[test]
fn cvt_terms_agree_with_the_model() {
    let mut rng = Rng(99);
    let ints = [8u32, 16, 32, 64]
        .iter()
        .flat_map(|&bits| [false, true].map(|signed| IntFormat { bits, signed }))
        .collect::<Vec<_>>();
    let mut n = 0;
    for fmt in FORMATS {
        let inputs = cvt_inputs(fmt, &mut rng);
        for dst in &ints {
            for round in ROUNDS {
                for ftz in [false, true] {
                    let op = CvtOp {
                        dst: Format::Int(*dst),
                        src: Format::Float(*fmt),
                        round: Some(round),
                        integer_rounding: true,
                        mods: Modifiers {
                            ftz,
                            ..Modifiers::default()
                        },
                    };
                    for reg in [dst.bits.max(32), 64] {
                        for &a in &inputs {
                            let want = op.eval_scalar(a);
                            let want = extend_to_register(&op.dst, want.bits, reg);
                            let got = crate::fparith::cvt(&op, &BV::from_u64(a, 64), reg, &|_| {
                                BV::fresh_const("u", 64)
                            })
                            .expect("float-to-integer is covered");
                            assert_eq!(konst(&got), Some(want), "{op:?} reg {reg} on {a:#x}");
                            n += 1;
                        }
                    }
                }
            }
        }
        // integers to this format
        for src in &ints {
            for round in ROUNDS {
                for sat in [false, true] {
                    let op = CvtOp {
                        dst: Format::Float(*fmt),
                        src: Format::Int(*src),
                        round: Some(round),
                        integer_rounding: false,
                        mods: Modifiers {
                            sat,
                            ..Modifiers::default()
                        },
                    };
                    for k in 0..80 {
                        let r = rng.next();
                        let a = match k % 4 {
                            0 => r,
                            1 => r >> (rng.next() % 64),
                            2 => (1u64 << (r % 64))
                                .wrapping_add(rng.next() % 5)
                                .wrapping_sub(2),
                            _ => [
                                0,
                                1,
                                u64::MAX,
                                1 << 31,
                                1 << 63,
                                0xffff_ffff,
                                0x7fff_ffff,
                                2049,
                            ][k / 4 % 8],
                        } & mask(src.bits);
                        let want = op.eval_scalar(a);
                        assert_eq!(want.unspecified, 0);
                        let got =
                            crate::fparith::cvt(&op, &BV::from_u64(a, 64), fmt.width(), &|_| {
                                BV::fresh_const("u", 64)
                            })
                            .expect("integer-to-float is covered");
                        assert_eq!(konst(&got), Some(want.bits), "{op:?} on {a:#x}");
                        n += 1;
                    }
                }
            }
        }
    }
    assert!(n > 30_000, "{n}");
}

/// `cvt` between the IEEE formats (rounded, widened, integer-rounded in
/// place, with `.ftz`, `.sat`, `.relu`) against `ptx_semantics::cvt`,
/// NaN payloads included.
#[test]
fn float_to_float_terms_agree_with_the_model() {
    let mut rng = Rng(7);
    let mut n = 0;
    for src in FORMATS {
        let mut inputs = edges(src);
        let mut prev = 0;
        for _ in 0..40 {
            prev = operand(src, &mut rng, prev);
            inputs.push(prev);
        }
        for dst in FORMATS {
            for round in ROUNDS {
                for integer_rounding in [false, true] {
                    if integer_rounding && src != dst {
                        continue;
                    }
                    for (ftz, sat, relu) in [
                        (false, false, false),
                        (true, false, false),
                        (false, true, false),
                        (false, false, true),
                        (true, true, false),
                    ] {
                        let op = CvtOp {
                            dst: Format::Float(*dst),
                            src: Format::Float(*src),
                            round: Some(round),
                            integer_rounding,
                            mods: Modifiers {
                                ftz,
                                sat,
                                relu,
                                satfinite: false,
                            },
                        };
                        for &a in &inputs {
                            let want = op.eval_scalar(a);
                            let got = crate::fparith::cvt(
                                &op,
                                &BV::from_u64(a, 64),
                                dst.width(),
                                &|_| BV::fresh_const("u", 64),
                            )
                            .expect("IEEE pairs are covered");
                            let ctx = || {
                                format!(
                                    "{op:?} on {a:#x}: model {:#x} open {:#x}",
                                    want.bits, want.unspecified
                                )
                            };
                            compare(&got, want.bits, want.unspecified, dst.width(), dst, &ctx);
                            n += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(n > 20_000, "{n}");
}

/// `slct{.ftz}` with a float `c` against the model's `video::slct`: `-0.0`
/// (and with `.ftz` a negative subnormal) selects `a`, a NaN `b`.
#[test]
fn slct_on_a_float_agrees_with_the_model() {
    let mut rng = Rng(11);
    let mut inputs = edges(&F32);
    for _ in 0..2000 {
        inputs.push(rng.next() & 0xffff_ffff);
    }
    for c in inputs {
        for ftz in [false, true] {
            let want = ptx_semantics::arith::video::slct(true, ftz, 1, 2, c as u32) == 1;
            let got = crate::fparith::f32_at_least_zero(&BV::from_u64(c, 64), ftz)
                .simplify()
                .as_bool();
            assert_eq!(got, Some(want), "{c:#x} ftz {ftz}");
        }
    }
}
