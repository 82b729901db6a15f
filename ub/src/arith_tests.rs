//! The Z3 reading of `Arith` ([`crate::arith`]) against the simulator's
//! (`ptx_semantics::sim::arith::eval`, over `ptx_semantics::arith`) on
//! concrete inputs: edge values and pseudo-random ones for every form the
//! search interprets. Where the simulator marks bits unspecified, the
//! search must give a fresh value (not a constant); elsewhere the terms
//! must simplify to the simulator's bits, predicate and carry.

use ptx_semantics::arith::compare::{BoolOp, CmpOp, TestOp};
use ptx_semantics::arith::float::{FloatFormat, BF16, F16, F32, F64};
use ptx_semantics::arith::int::{MulMode, ShiftMode, S16, S32, S64, U16, U32, U64};
use ptx_semantics::arith::Carry;
use ptx_semantics::sim::arith::{eval, Arith, ArithInstr};
use ptx_semantics::sim::program::Src;
use z3::ast::{Ast, BV};

use crate::arith::{self, Fresh};

/// The forms checked, each with the width of `d`.
fn forms() -> Vec<(Arith, u16)> {
    let mut out: Vec<(Arith, u16)> = Vec::new();
    let int_tys = [U16, U32, U64, S16, S32, S64];
    for ty in int_tys {
        let b = ty.bits as u16;
        for sat in [false, true] {
            out.push((Arith::Add { ty, sat }, b));
            out.push((Arith::Sub { ty, sat }, b));
        }
        for mode in [MulMode::Lo, MulMode::Hi, MulMode::Wide] {
            let d = if mode == MulMode::Wide {
                (2 * b).min(64)
            } else {
                b
            };
            out.push((Arith::Mul { ty, mode }, d));
            out.push((
                Arith::Mad {
                    ty,
                    mode,
                    sat: false,
                },
                d,
            ));
        }
        out.push((Arith::Sad { ty }, b));
        out.push((Arith::Div { ty }, b));
        out.push((Arith::Rem { ty }, b));
        out.push((Arith::Abs { ty }, b));
        out.push((Arith::Neg { ty }, b));
        for relu in [false, true] {
            out.push((Arith::Min { ty, relu }, b));
            out.push((Arith::Max { ty, relu }, b));
        }
        out.push((Arith::Shr { ty }, b));
        for cmp in [
            CmpOp::Eq,
            CmpOp::Ne,
            CmpOp::Lt,
            CmpOp::Le,
            CmpOp::Gt,
            CmpOp::Ge,
            CmpOp::Lo,
            CmpOp::Ls,
            CmpOp::Hi,
            CmpOp::Hs,
        ] {
            out.push((
                Arith::SetpInt {
                    ty,
                    cmp,
                    combine: None,
                },
                1,
            ));
        }
        for op in [BoolOp::And, BoolOp::Or, BoolOp::Xor] {
            out.push((
                Arith::SetpInt {
                    ty,
                    cmp: CmpOp::Lt,
                    combine: Some(op),
                },
                1,
            ));
        }
    }
    out.push((
        Arith::Mad {
            ty: S32,
            mode: MulMode::Hi,
            sat: true,
        },
        32,
    ));
    for ty in [U32, S32, U64, S64] {
        let b = ty.bits as u16;
        for hi in [false, true] {
            out.push((Arith::MadCc { ty, hi }, b));
            out.push((Arith::Madc { ty, hi }, b));
        }
        out.push((
            Arith::Bfind {
                ty,
                shiftamt: false,
            },
            32,
        ));
        out.push((Arith::Bfind { ty, shiftamt: true }, 32));
        out.push((Arith::Bfe { ty }, b));
    }
    for bits in [32u32, 64] {
        let b = bits as u16;
        out.push((Arith::AddCc { bits }, b));
        out.push((Arith::Addc { bits }, b));
        out.push((Arith::SubCc { bits }, b));
        out.push((Arith::Subc { bits }, b));
        out.push((Arith::Popc { bits }, 32));
        out.push((Arith::Clz { bits }, 32));
        out.push((Arith::Brev { bits }, b));
        out.push((Arith::Bfi { bits }, b));
    }
    for bits in [16u32, 32, 64] {
        let b = bits as u16;
        out.push((Arith::Shl { bits }, b));
        out.push((Arith::And { bits }, b));
        out.push((Arith::Or { bits }, b));
        out.push((Arith::Xor { bits }, b));
        out.push((Arith::Not { bits }, b));
        out.push((Arith::Cnot { bits }, b));
    }
    for signed in [false, true] {
        for hi in [false, true] {
            out.push((Arith::Mul24 { signed, hi }, 32));
            for sat in [false, true] {
                out.push((Arith::Mad24 { signed, hi, sat }, 32));
            }
        }
    }
    for mode in [ShiftMode::Clamp, ShiftMode::Wrap] {
        out.push((Arith::Bmsk { mode }, 32));
        for signed in [false, true] {
            out.push((Arith::Szext { signed, mode }, 32));
        }
        for left in [false, true] {
            out.push((Arith::Shf { left, mode }, 32));
        }
    }
    for a_signed in [false, true] {
        for b_signed in [false, true] {
            out.push((Arith::Dp4a { a_signed, b_signed }, 32));
            for hi in [false, true] {
                out.push((
                    Arith::Dp2a {
                        hi,
                        a_signed,
                        b_signed,
                    },
                    32,
                ));
            }
        }
    }
    for lut in [0x00u8, 0xff, 0xf0, 0xcc, 0xaa, 0x96, 0xe8, 0x1e, 0x80, 0x01] {
        out.push((Arith::Lop3 { lut }, 32));
        out.push((Arith::Lop3Pred { lut, and: true }, 32));
        out.push((Arith::Lop3Pred { lut, and: false }, 32));
    }
    let fmts: [&'static FloatFormat; 4] = [&F16, &BF16, &F32, &F64];
    for fmt in fmts {
        let b = fmt.width() as u16;
        for op in [
            TestOp::Finite,
            TestOp::Infinite,
            TestOp::Number,
            TestOp::NotANumber,
            TestOp::Normal,
            TestOp::Subnormal,
        ] {
            out.push((Arith::Testp { fmt, op }, 1));
        }
        if b >= 32 {
            out.push((Arith::Copysign { fmt }, b));
        }
        for ftz in [false, true] {
            for cmp in [
                CmpOp::Eq,
                CmpOp::Ne,
                CmpOp::Lt,
                CmpOp::Le,
                CmpOp::Gt,
                CmpOp::Ge,
                CmpOp::Equ,
                CmpOp::Neu,
                CmpOp::Ltu,
                CmpOp::Leu,
                CmpOp::Gtu,
                CmpOp::Geu,
                CmpOp::Num,
                CmpOp::Nan,
            ] {
                out.push((
                    Arith::SetpFloat {
                        fmt,
                        ftz,
                        cmp,
                        combine: None,
                    },
                    1,
                ));
            }
            out.push((
                Arith::SetpFloat {
                    fmt,
                    ftz,
                    cmp: CmpOp::Geu,
                    combine: Some(BoolOp::Xor),
                },
                1,
            ));
        }
    }
    // `setp.f16x2`/`.bf16x2 p|q`: a predicate per lane
    for fmt in [&F16, &BF16] {
        for (ftz, cmp, combine) in [
            (false, CmpOp::Lt, None),
            (true, CmpOp::Equ, None),
            (false, CmpOp::Nan, Some(BoolOp::Or)),
            (true, CmpOp::Ge, Some(BoolOp::And)),
            (false, CmpOp::Neu, Some(BoolOp::Xor)),
        ] {
            out.push((
                Arith::SetpFloatX2 {
                    fmt,
                    ftz,
                    cmp,
                    combine,
                },
                1,
            ));
        }
    }
    out
}

/// A float form's operands are registers of the format's width.
fn operand_width(op: &Arith) -> Option<u32> {
    match op {
        Arith::SetpFloat { fmt, .. } | Arith::Testp { fmt, .. } | Arith::Copysign { fmt } => {
            Some(fmt.width())
        }
        Arith::SetpFloatX2 { .. } => Some(32),
        _ => None,
    }
}

/// Edge values: zeros, ones, signs and the ends of each width, small
/// positions and lengths, float specials.
const EDGES: &[u64] = &[
    0,
    1,
    2,
    7,
    8,
    15,
    16,
    17,
    23,
    24,
    31,
    32,
    33,
    63,
    64,
    65,
    0x7f,
    0x80,
    0xff,
    0x100,
    0x7fff,
    0x8000,
    0xffff,
    0x1_0000,
    0x7f_ffff,
    0xff_ffff,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0x1_0000_0000,
    0x7ff0_0000_0000_0000,
    0x7ff8_0000_0000_0001,
    0x8000_0000_0000_0000,
    0x8000_0000_0000_0001,
    0x7fff_ffff_ffff_ffff,
    0xffff_ffff_ffff_ffff,
    0xffff_ffff_ffff_fffe,
    0x7f80_0000,
    0x7fc0_0001,
    0xff80_0000,
    0x0000_0001,
    0x807f_ffff,
    0x7c00,
    0x7e01,
    0xfc00,
    0x03ff,
    0x8001,
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

    /// An edge, a small number, a random value or a random value with few
    /// bits set.
    fn operand(&mut self) -> u64 {
        let r = self.next();
        match r % 5 {
            0 => EDGES[(self.next() % EDGES.len() as u64) as usize],
            1 => self.next() & 0x3f,
            2 => self.next() & 0x1ff,
            3 => self.next() & self.next() & self.next(),
            _ => self.next(),
        }
    }
}

fn konst(t: &BV) -> Option<u64> {
    t.simplify().as_u64()
}

/// Checks one form on `cases` inputs; returns the number compared.
fn check_form(op: Arith, bits: u16, cases: usize, rng: &mut Rng) -> usize {
    let three = matches!(op, Arith::Lop3Pred { .. } | Arith::Bfi { .. });
    let srcs = vec![Src::Imm(0); if three { 4 } else { 3 }];
    let cc = op.reads_carry()
        || matches!(
            op,
            Arith::AddCc { .. } | Arith::SubCc { .. } | Arith::MadCc { .. }
        );
    let mut compared = 0;
    for k in 0..cases {
        for neg_pred in [false, true] {
            let i = ArithInstr {
                op,
                d: Some(0),
                q: Some(1),
                srcs: srcs.clone(),
                neg_pred,
                bits,
                cc,
            };
            let mut v = [0u64; 4];
            for (j, x) in v.iter_mut().enumerate() {
                *x = match EDGES.get(k) {
                    Some(&edge) if j == 0 => edge,
                    _ => rng.operand(),
                };
                if let Some(w) = operand_width(&op) {
                    *x &= u64::MAX >> (64 - w);
                }
            }
            let cf = rng.next() & 1 == 1;
            let want = eval(&i, &v, Carry(cf)).expect("only fns is undefined");
            let terms = v.map(|x| BV::from_u64(x, 64));
            let float = |_: u32| BV::fresh_const("f", 64);
            let opaque = |_: u32| BV::fresh_const("x", 64);
            let open = |_: u32| BV::fresh_const("u", 64);
            let got = arith::eval(
                &i,
                &terms,
                &BV::from_u64(u64::from(cf), 1),
                &Fresh {
                    float: &float,
                    opaque: &opaque,
                    open: &open,
                },
            );
            let m = if bits >= 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
            let ctx = || format!("{op:?} bits {bits} on {v:#x?} cf {cf} neg {neg_pred}");
            if want.unspecified & m != 0 {
                assert_eq!(
                    konst(&got.d),
                    None,
                    "{}: the simulator leaves bits open, the search must too",
                    ctx()
                );
                continue;
            }
            assert_eq!(konst(&got.d), Some(want.d & m), "d: {}", ctx());
            if let Some(q) = &got.q {
                assert_eq!(konst(q), Some(u64::from(want.q)), "q: {}", ctx());
            }
            let carry = got.carry.as_ref().map(|c| konst(c) == Some(1));
            let want_carry = want.carry.filter(|_| cc).map(|Carry(c)| c);
            assert_eq!(carry, want_carry, "carry: {}", ctx());
            compared += 1;
        }
    }
    compared
}

/// Every interpreted form agrees with the simulator on edge and random
/// inputs (471 forms, 2 x 160 inputs each: about 150,000 compared).
#[test]
fn the_z3_reading_of_arith_agrees_with_the_simulator() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut total = 0;
    let forms = forms();
    for (op, bits) in &forms {
        total += check_form(*op, *bits, 160, &mut rng);
    }
    assert!(forms.len() > 450, "{}", forms.len());
    assert!(total > 140_000, "{total}");
}

/// The 16-bit forms exhaustively over a grid of `a` and `b` (every value of
/// `a` with 16 values of `b`), where the edges of the narrow types lie.
#[test]
fn sixteen_bit_forms_on_a_grid() {
    let mut rng = Rng(7);
    for ty in [U16, S16] {
        for op in [
            Arith::Add { ty, sat: true },
            Arith::Sub { ty, sat: true },
            Arith::Mul {
                ty,
                mode: MulMode::Hi,
            },
            Arith::Div { ty },
            Arith::Rem { ty },
            Arith::Shr { ty },
        ] {
            for a in (0..=0xffffu64).step_by(97) {
                for b in [0u64, 1, 2, 15, 16, 17, 0x7fff, 0x8000, 0xffff, 0xfffe] {
                    let i = ArithInstr {
                        op,
                        d: Some(0),
                        q: None,
                        srcs: vec![Src::Imm(0); 2],
                        neg_pred: false,
                        bits: 16,
                        cc: false,
                    };
                    let v = [a, b, rng.next(), 0];
                    let want = eval(&i, &v, Carry(false)).unwrap();
                    let float = |_: u32| BV::fresh_const("f", 64);
                    let open = |_: u32| BV::fresh_const("u", 64);
                    let got = arith::eval(
                        &i,
                        &v.map(|x| BV::from_u64(x, 64)),
                        &BV::from_u64(0, 1),
                        &Fresh {
                            float: &float,
                            opaque: &float,
                            open: &open,
                        },
                    );
                    if want.unspecified & 0xffff != 0 {
                        assert_eq!(konst(&got.d), None, "{op:?} {a:#x} {b:#x}");
                    } else {
                        assert_eq!(konst(&got.d), Some(want.d & 0xffff), "{op:?} {a:#x} {b:#x}");
                    }
                }
            }
        }
    }
}

/// A mutation of the reading is caught: `bfe` without its sign fill
/// differs from the simulator on a negative field.
#[test]
fn a_wrong_reading_is_caught() {
    let i = ArithInstr {
        op: Arith::Bfe { ty: S32 },
        d: Some(0),
        q: None,
        srcs: vec![Src::Imm(0); 3],
        neg_pred: false,
        bits: 32,
        cc: false,
    };
    let v = [0xf0, 4, 4, 0];
    let want = eval(&i, &v, Carry(false)).unwrap().d;
    let unsigned = ArithInstr {
        op: Arith::Bfe { ty: U32 },
        ..i.clone()
    };
    let float = |_: u32| BV::fresh_const("f", 64);
    let fresh = Fresh {
        float: &float,
        opaque: &float,
        open: &float,
    };
    let terms = v.map(|x| BV::from_u64(x, 64));
    let cf = BV::from_u64(0, 1);
    assert_eq!(want, 0xffff_ffff);
    assert_eq!(konst(&arith::eval(&i, &terms, &cf, &fresh).d), Some(want));
    assert_ne!(
        konst(&arith::eval(&unsigned, &terms, &cf, &fresh).d),
        Some(want)
    );
}
