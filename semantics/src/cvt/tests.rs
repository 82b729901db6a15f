//! Table tests: `(instruction, sources, expected)` rows whose expected bits
//! come from the spec's text and from IEEE 754 encodings worked by hand,
//! not from the code under test.

use super::*;
use crate::catalogue::Catalogue;

fn op(text: &str) -> Conversion {
    let b = Catalogue::get()
        .resolve_text(text)
        .unwrap_or_else(|e| panic!("{text}: {e:?}"));
    Conversion::from_binding(&b).unwrap()
}

fn eval(text: &str, sources: &[u64]) -> u64 {
    op(text).eval(sources).unwrap().bits
}

#[test]
fn literal_qualifiers_are_seen() {
    let Conversion::Cvt(c) = op("cvt.rn.satfinite.e4m3x2.f32") else {
        panic!()
    };
    assert!(c.mods.satfinite);
    assert_eq!(c.round, Some(Round::NearestEven));
    let Conversion::Cvt(c) = op("cvt.rzi.ftz.s32.f32") else {
        panic!()
    };
    assert!(c.integer_rounding && c.mods.ftz);
}

#[rustfmt::skip]
const F32_TO_F16: &[(&str, u32, u64)] = &[
    // 1.0, -2.0, 65504 (max), 65520 (tie above max: to infinity under .rn)
    ("cvt.rn.f16.f32", 0x3f80_0000, 0x3c00),
    ("cvt.rn.f16.f32", 0xc000_0000, 0xc000),
    ("cvt.rn.f16.f32", 0x477f_e000, 0x7bff),
    ("cvt.rn.f16.f32", 0x477f_f000, 0x7c00),
    ("cvt.rz.f16.f32", 0x477f_f000, 0x7bff),
    // 65519 rounds to 65504 under .rn
    ("cvt.rn.f16.f32", 0x477f_ef00, 0x7bff),
    // 2^-24 is the smallest f16 subnormal; 2^-25 is the tie to zero (even)
    ("cvt.rn.f16.f32", 0x3380_0000, 0x0001),
    ("cvt.rn.f16.f32", 0x3300_0000, 0x0000),
    ("cvt.rn.f16.f32", 0x3300_0001, 0x0001),
    // 1 + 2^-11 is the tie between 1 and 1 + 2^-10: to even (1.0)
    ("cvt.rn.f16.f32", 0x3f80_1000, 0x3c00),
    ("cvt.rn.f16.f32", 0x3f80_3000, 0x3c02),
    ("cvt.rp.f16.f32", 0x3f80_0001, 0x3c01),
    ("cvt.rm.f16.f32", 0xbf80_0001, 0xbc01),
    ("cvt.rz.f16.f32", 0xbf80_0001, 0xbc00),
    // infinities stay infinite; satfinite makes them MAX_NORM
    ("cvt.rn.f16.f32", 0xff80_0000, 0xfc00),
    ("cvt.rn.satfinite.f16.f32", 0xff80_0000, 0xfbff),
    ("cvt.rn.satfinite.f16.f32", 0x477f_f000, 0x7bff),
    // .relu: negative results are 0
    ("cvt.rn.relu.f16.f32", 0xbf80_0000, 0x0000),
    ("cvt.rn.relu.f16.f32", 0x3f80_0000, 0x3c00),
];

#[test]
fn f32_to_f16_table() {
    for &(text, a, want) in F32_TO_F16 {
        assert_eq!(eval(text, &[a as u64]), want, "{text} {a:#x}");
    }
}

#[test]
fn f32_to_bf16_and_tf32() {
    // 1 + 2^-8 is the tie between 1 and 1 + 2^-7 in bf16: to even.
    assert_eq!(eval("cvt.rn.bf16.f32", &[0x3f80_8000]), 0x3f80);
    assert_eq!(eval("cvt.rn.bf16.f32", &[0x3f81_8000]), 0x3f82);
    assert_eq!(eval("cvt.rz.bf16.f32", &[0x3f81_ffff]), 0x3f81);
    // tf32 keeps 10 significand bits; .rna rounds ties away.
    assert_eq!(eval("cvt.rna.tf32.f32", &[0x3f80_1000]), 0x3f80_2000);
    assert_eq!(eval("cvt.rn.tf32.f32", &[0x3f80_1000]), 0x3f80_0000);
}

#[test]
fn packing_puts_a_in_the_upper_half() {
    // "the value converted from input `a` is stored in the upper half of `d`"
    assert_eq!(
        eval("cvt.rn.f16x2.f32", &[0x3f80_0000, 0xc000_0000]),
        0x3c00_c000
    );
    assert_eq!(
        eval("cvt.rn.bf16x2.f32", &[0x3f80_0000, 0x4000_0000]),
        0x3f80_4000
    );
    // e4m3: 1.0 = 0x38, 448 = 0x7e; e5m2: 1.0 = 0x3c.
    assert_eq!(
        eval("cvt.rn.satfinite.e4m3x2.f32", &[0x3f80_0000, 0x43e0_0000]),
        0x387e
    );
    assert_eq!(
        eval("cvt.rn.satfinite.e5m2x2.f32", &[0x3f80_0000, 0xbf80_0000]),
        0x3cbc
    );
    // "the value converted from the upper 16 bits of input `a` is stored in
    // the upper 8 bits of `d`"
    assert_eq!(
        eval("cvt.rn.satfinite.e4m3x2.f16x2", &[0x3c00_bc00]),
        0x38b8
    );
    assert_eq!(eval("cvt.rn.f16x2.e4m3x2", &[0x38b8]), 0x3c00_bc00);
    // e2m1: 1.0 = 0x2, 6.0 = 0x7; a in bits 7:4.
    assert_eq!(
        eval("cvt.rn.satfinite.e2m1x2.f32", &[0x3f80_0000, 0x40c0_0000]),
        0x27
    );
    // e2m3 / e3m2 with the 2 MSBs of each byte zero: 1.0 = 0x08 / 0x0c.
    assert_eq!(
        eval("cvt.rn.satfinite.e2m3x2.f32", &[0x3f80_0000, 0xbf80_0000]),
        0x0828
    );
    assert_eq!(
        eval("cvt.rn.satfinite.e3m2x2.f32", &[0x3f80_0000, 0x3f80_0000]),
        0x0c0c
    );
    // x4: a, b, e, f from the top.
    assert_eq!(
        eval(
            "cvt.rs.satfinite.e4m3x4.f32",
            &[0x3f80_0000, 0x4000_0000, 0x4040_0000, 0x4080_0000, 0]
        ),
        0x3840_4448
    );
}

#[test]
fn satfinite_on_narrow_formats() {
    // "For `.e2m1x2` ... `NaN` results are converted to positive MAX_NORM."
    assert_eq!(
        eval("cvt.rn.satfinite.e2m1x2.f32", &[0x7fc0_0000, 0xffc0_0000]),
        0x77
    );
    // sign-preserved MAX_NORM beyond the range
    assert_eq!(
        eval("cvt.rn.satfinite.e4m3x2.f32", &[0x4700_0000, 0xc700_0000]),
        0x7efe
    );
    // ue8m0: 2^0 = 127, rp rounds 1.5 up to 2 (128), rz down to 1.
    assert_eq!(
        eval("cvt.rp.satfinite.ue8m0x2.f32", &[0x3fc0_0000, 0x3f80_0000]),
        0x807f
    );
    assert_eq!(
        eval("cvt.rz.satfinite.ue8m0x2.f32", &[0x3fc0_0000, 0x7f80_0000]),
        0x7ffe
    );
}

/// `.satfinite` on `.ue8m0x2` compares the input's magnitude with MAX_NORM
/// (2^127) before rounding: above it the lane is positive MAX_NORM (0xfe),
/// whatever the sign; a negative input at or below it is not covered by any
/// clause (the format has no sign), so its lane is unspecified.
#[test]
fn ue8m0_satfinite_compares_before_rounding() {
    let lanes = |text: &str, a: u64, b: u64| {
        let c = op(text).eval(&[a, b]).unwrap();
        (c.bits, c.unspecified)
    };
    // -(2^127 + 2^104): above MAX_NORM, though .rz would land on it.
    assert_eq!(
        lanes("cvt.rz.satfinite.ue8m0x2.f32", 0x3f80_0000, 0xff00_0001),
        (0x7ffe, 0)
    );
    assert_eq!(
        lanes("cvt.rp.satfinite.ue8m0x2.f32", 0xff00_0001, 0x3f80_0000),
        (0xfe7f, 0)
    );
    // -(2^128 - 2^104), the largest finite f32 below zero.
    assert_eq!(
        lanes("cvt.rz.satfinite.ue8m0x2.f32", 0xff7f_ffff, 0x3f80_0000).1,
        0
    );
    // -2^127 exactly: not above MAX_NORM; -1.0: unspecified too.
    assert_eq!(
        lanes("cvt.rz.satfinite.ue8m0x2.f32", 0x3f80_0000, 0xff00_0000).1,
        0x00ff
    );
    assert_eq!(
        lanes("cvt.rz.satfinite.ue8m0x2.f32", 0xbf80_0000, 0x3f80_0000).1,
        0xff00
    );
}

#[test]
fn float_to_int_rules() {
    // "float-to-int saturates by default"
    assert_eq!(eval("cvt.rzi.s32.f32", &[0x4f80_0000]), 0x7fff_ffff);
    assert_eq!(eval("cvt.rzi.s32.f32", &[0xcf80_0000]), 0x8000_0000);
    assert_eq!(eval("cvt.rzi.u32.f32", &[0xbf80_0000]), 0);
    // NaN: zero unless f64 source or 64-bit destination
    assert_eq!(eval("cvt.rzi.s32.f32", &[0x7fc0_0000]), 0);
    assert_eq!(eval("cvt.rzi.s64.f32", &[0x7fc0_0000]), 1 << 63);
    assert_eq!(eval("cvt.rzi.u32.f64", &[0x7ff8_0000_0000_0000]), 1 << 31);
    assert_eq!(eval("cvt.rzi.u16.f64", &[0x7ff8_0000_0000_0000]), 1 << 15);
    // rounding to integers: 2.5 -> 2 (rni), 3 (rpi), -2.5 -> -3 (rmi)
    assert_eq!(eval("cvt.rni.s32.f32", &[0x4020_0000]), 2);
    assert_eq!(eval("cvt.rpi.s32.f32", &[0x4020_0000]), 3);
    assert_eq!(
        eval("cvt.rmi.s32.f32", &[0xc020_0000]),
        (-3i32) as u32 as u64
    );
    assert_eq!(eval("cvt.rni.s8.f32", &[0x4300_0000]), 127);
    // .ftz flushes a subnormal input before rounding up
    assert_eq!(eval("cvt.rpi.s32.f32", &[0x0000_0001]), 1);
    assert_eq!(eval("cvt.rpi.ftz.s32.f32", &[0x0000_0001]), 0);
}

#[test]
fn integer_conversions() {
    assert_eq!(eval("cvt.u16.u32", &[0x1234_5678]), 0x5678);
    assert_eq!(eval("cvt.sat.u16.u32", &[0x1234_5678]), 0xffff);
    assert_eq!(eval("cvt.sat.s8.s32", &[(-1000i32) as u32 as u64]), 0x80);
    assert_eq!(eval("cvt.u64.s32", &[0x8000_0000]), 0xffff_ffff_8000_0000);
    assert_eq!(eval("cvt.s64.u32", &[0x8000_0000]), 0x8000_0000);
    assert_eq!(eval("cvt.sat.u32.s32", &[0x8000_0000]), 0);
    // 2^24 + 1 is not an f32: .rn gives 2^24, .rp 2^24 + 2
    assert_eq!(eval("cvt.rn.f32.s32", &[(1 << 24) + 1]), 0x4b80_0000);
    assert_eq!(eval("cvt.rp.f32.s32", &[(1 << 24) + 1]), 0x4b80_0001);
    assert_eq!(eval("cvt.rn.f32.s32", &[0x8000_0000]), 0xcf00_0000);
    assert_eq!(eval("cvt.rn.f64.u64", &[u64::MAX]), 0x43f0_0000_0000_0000);
    assert_eq!(eval("cvt.rz.f64.u64", &[u64::MAX]), 0x43ef_ffff_ffff_ffff);
    // 65520 in f16 overflows under .rn
    assert_eq!(eval("cvt.rn.f16.u32", &[65520]), 0x7c00);
}

#[test]
fn sat_and_integral_rounding() {
    // .sat limits to [0, 1]; NaN to +0.
    assert_eq!(eval("cvt.rn.sat.f16.f32", &[0x4000_0000]), 0x3c00);
    assert_eq!(eval("cvt.rn.sat.f16.f32", &[0xc000_0000]), 0x0000);
    assert_eq!(eval("cvt.rn.sat.f16.f32", &[0x7fc0_0000]), 0x0000);
    assert_eq!(eval("cvt.sat.f32.f32", &[0x3f00_0000]), 0x3f00_0000);
    // cvt.rni.f32.f32: 2.5 -> 2.0, -0.5 -> -0.0
    assert_eq!(eval("cvt.rni.f32.f32", &[0x4020_0000]), 0x4000_0000);
    assert_eq!(eval("cvt.rni.f32.f32", &[0xbf00_0000]), 0x8000_0000);
    assert_eq!(eval("cvt.rpi.f32.f32", &[0x3f00_0000]), 0x3f80_0000);
    assert_eq!(
        eval("cvt.rzi.f64.f64", &[0x4004_0000_0000_0000]),
        0x4000_0000_0000_0000
    );
    // widening is exact
    assert_eq!(eval("cvt.f32.f16", &[0x3c00]), 0x3f80_0000);
    assert_eq!(eval("cvt.f32.f16", &[0x0001]), 0x3380_0000);
    assert_eq!(eval("cvt.f64.f32", &[0x0000_0001]), 0x36a0_0000_0000_0000);
    assert_eq!(eval("cvt.ftz.f64.f32", &[0x0000_0001]), 0);
    // f64 -> f32 result flushing under .ftz
    assert_eq!(eval("cvt.rn.f32.f64", &[0x36a0_0000_0000_0000]), 1);
    assert_eq!(eval("cvt.rn.ftz.f32.f64", &[0x36a0_0000_0000_0000]), 0);
}

#[test]
fn cvt_pack_saturates_and_fills_from_c() {
    // cvt.pack.sat.u8.s32.b32 %r7, %r8, %r9, %r4: d = { c[15:0], a, b }
    assert_eq!(
        eval("cvt.pack.sat.u8.s32.b32", &[300, 5, 0xabcd]),
        0xabcd_ff05
    );
    assert_eq!(
        eval("cvt.pack.sat.s16.s32", &[(-40000i32) as u32 as u64, 7]),
        0x8000_0007
    );
    assert_eq!(
        eval("cvt.pack.sat.s2.s32.b32", &[(-5i32) as u32 as u64, 1, 0]),
        0b1001
    );
    assert_eq!(
        eval("cvt.pack.sat.u4.s32.b32", &[3, 20, 0xffff_ffff]),
        0xffff_ff3f
    );
}

#[test]
fn register_extension() {
    let s8 = Format::from_ptx(".s8").unwrap();
    assert_eq!(extend_to_register(&s8, 0x80, 32), 0xffff_ff80);
    let u8_ = Format::from_ptx(".u8").unwrap();
    assert_eq!(extend_to_register(&u8_, 0x80, 32), 0x80);
}

#[test]
fn fp6_inputs_with_high_bits_are_undefined() {
    assert!(op("cvt.rn.f16x2.e2m3x2").eval(&[0x4000]).is_err());
    assert!(op("cvt.rn.f16x2.e2m3x2").eval(&[0x3f3f]).is_ok());
}

#[test]
fn operand_count_is_checked() {
    assert!(matches!(
        op("cvt.rn.f16x2.f32").eval(&[1]),
        Err(EvalError::OperandCount {
            expected: 2,
            got: 1
        })
    ));
}
