//! The interpreter runs PTX's integer, logic and IEEE-exact floating-point
//! instructions through `ptx_semantics::arith` (PTX ISA 9.7.1-9.7.4, 9.7.7,
//! 9.7.8): small kernels whose results are worked out by hand from the
//! spec's text, unspecified results kept as unspecified bytes, and the
//! approximate forms run with their bounded bits left open; the mixed
//! precision forms (9.7.5) also against the host's `f32` arithmetic, and
//! the packed half precision `setp` (`p|q`).

use ptx_semantics::ptx::parse;
use ptx_semantics::sim::{self, Arg, Launch, Outcome, StopKind, WindowProfile};

const HEAD: &str = ".version 8.7\n.target sm_90\n.address_size 64\n";

const REGS: &str = "\t.reg .pred %p<8>;\n\t.reg .b16 %h<8>;\n\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<16>;\n\t.reg .f32 %f<16>;\n\t.reg .f64 %fd<8>;\n\tld.param.u64 %rd1, [p];\n";

fn source(body: &str) -> String {
    format!("{HEAD}.visible .entry k(.param .u64 p)\n{{\n{REGS}{body}\n\tret;\n}}\n")
}

/// Runs `body` on one thread with an `n`-byte buffer (zeros) at `p`.
fn run(body: &str, n: usize) -> Outcome {
    let src = source(body);
    let module = parse(&src).unwrap_or_else(|e| panic!("{e:?}\n{src}"));
    let prog =
        sim::prepare(&module, "k", &WindowProfile::SM90).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let launch = Launch::new(
        [1, 1, 1],
        [1, 1, 1],
        vec![Arg::Buffer {
            addr: None,
            bytes: vec![0; n],
        }],
    );
    sim::run(&prog, &launch).unwrap()
}

/// The buffer as little-endian words of 4 bytes, for a run without reports.
fn words(body: &str, n: usize) -> Vec<u32> {
    let o = run(body, 4 * n);
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    let b = &o.buffers[0];
    assert!(b.unspecified.iter().all(|&u| u == 0), "{:?}", b.unspecified);
    b.bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn refused(body: &str) -> String {
    let src = source(body);
    let module = parse(&src).unwrap_or_else(|e| panic!("{e:?}\n{src}"));
    match sim::prepare(&module, "k", &WindowProfile::SM90) {
        Ok(_) => panic!("expected a refusal:\n{src}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn carry_chain_adds_and_subtracts_64_bits_in_32_bit_halves() {
    // 9.7.2.1-9.7.2.4: add.cc writes the carry-out into CC.CF, addc adds it
    // in: 0x1_ffffffff + 0x2_00000001 = 0x4_00000000; subc: "d = a - (b +
    // CC.CF)": 0x5_00000000 - 0x1_00000001 = 0x3_ffffffff.
    let body = "\tadd.cc.u32 %r1, 0xffffffff, 1;\n\taddc.u32 %r2, 1, 2;\n\
                \tsub.cc.u32 %r3, 0, 1;\n\tsubc.cc.u32 %r4, 5, 1;\n\
                \tst.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};";
    assert_eq!(words(body, 4), [0, 4, 0xffff_ffff, 3]);
    // mad.lo.cc / madc.hi: the 64-bit product of 0xffffffff and 0xffffffff
    // plus 1, in halves: lo = 0xfffffffe00000001 + 1
    let body = "\tmad.lo.cc.u32 %r1, 0xffffffff, 0xffffffff, 1;\n\
                \tmadc.hi.u32 %r2, 0xffffffff, 0xffffffff, 0;\n\
                \tst.global.v2.u32 [%rd1], {%r1, %r2};";
    assert_eq!(words(body, 2), [2, 0xffff_fffe]);
}

#[test]
fn carry_read_before_any_write_is_unspecified() {
    // The spec gives CC.CF no value before an instruction writes it.
    let o = run("\taddc.u32 %r1, 1, 2;\n\tst.global.u32 [%rd1], %r1;", 4);
    assert!(o.reports.is_empty());
    assert_eq!(o.buffers[0].unspecified, [1; 4]);
}

#[test]
fn integer_modifiers() {
    let body = "\tadd.sat.s32 %r1, 0x7fffffff, 1;\n\tsub.sat.s32 %r2, 0x80000000, 1;\n\
                \tmul24.lo.u32 %r3, 0x01000003, 5;\n\tmad24.lo.u32 %r4, 2, 3, 4;\n\
                \tsad.u32 %r5, 3, 10, 100;\n\tmin.relu.s32 %r6, -5, 7;\n\
                \tbfind.u32 %r7, 0x00010000;\n\tbfind.shiftamt.u32 %r8, 0x00010000;\n\
                \tdp4a.u32.u32 %r9, 0x01020304, 0x01010101, 10;\n\
                \tdp2a.lo.s32.s32 %r10, 0x0002ffff, 0x03030303, 0;\n\
                \tfns.b32 %r11, 0xf0, 0, 2;\n\tmad.hi.sat.s32 %r12, 0x7fffffff, 4, 0x7fffffff;\n\
                \tst.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};\n\
                \tst.global.v4.u32 [%rd1+16], {%r5, %r6, %r7, %r8};\n\
                \tst.global.v4.u32 [%rd1+32], {%r9, %r10, %r11, %r12};";
    assert_eq!(
        words(body, 12),
        [
            0x7fff_ffff,
            0x8000_0000,
            15, // "mul24.lo ... the 24 least significant bits": 3 * 5
            10,
            107,
            0, // max(min(-5, 7), 0)
            16,
            15,
            20,
            // dp2a.lo: a's halves (-1, 2) times b's bytes 0 and 1 (3, 3)
            3,
            // 9.7.1.17's loop from `base` counts `offset` set bits down:
            // the second set bit of 0xf0 from bit 0 is bit 5
            5,
            // (0x7fffffff * 4) >> 32 = 1, + 0x7fffffff saturates
            0x7fff_ffff,
        ]
    );
}

#[test]
fn bit_field_and_funnel_shift_examples() {
    // 9.7.1.19 bfe: pos 8, len 8 of 0x12345678 is 0x56; the signed field
    // 0xf at 12 replicates its top bit.
    // 9.7.1.20 bfi: 0xab into bits 8..16 of 0x12345678.
    // 9.7.8.7 shf: [b, a] = 0x01234567_89abcdef shifted by 8; clamp at 32.
    let body = "\tbfe.u32 %r1, 0x12345678, 8, 8;\n\tbfe.s32 %r2, 0x0000f000, 12, 4;\n\
                \tbfi.b32 %r3, 0xab, 0x12345678, 8, 8;\n\
                \tshf.l.wrap.b32 %r4, 0x89abcdef, 0x01234567, 8;\n\
                \tshf.r.clamp.b32 %r5, 0x89abcdef, 0x01234567, 8;\n\
                \tshf.r.clamp.b32 %r6, 0x89abcdef, 0x01234567, 40;\n\
                \tshf.l.wrap.b32 %r7, 0x89abcdef, 0x01234567, 40;\n\
                \tlop3.b32 %r8, 0xf0f0f0f0, 0xcccccccc, 0xaaaaaaaa, 0x96;\n\
                \tbmsk.clamp.b32 %r9, 4, 8;\n\tszext.wrap.s32 %r10, 0x80, 8;\n\
                \tbrev.b32 %r11, 1;\n\tpopc.b64 %r12, 0xffffffffff;\n\
                \tst.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};\n\
                \tst.global.v4.u32 [%rd1+16], {%r5, %r6, %r7, %r8};\n\
                \tst.global.v4.u32 [%rd1+32], {%r9, %r10, %r11, %r12};";
    assert_eq!(
        words(body, 12),
        [
            0x56,
            0xffff_ffff,
            0x1234_ab78,
            0x2345_6789,
            0x6789_abcd,
            0x0123_4567,
            // wrap: 40 & 31 = 8
            0x2345_6789,
            0xf0f0_f0f0 ^ 0xcccc_cccc ^ 0xaaaa_aaaa,
            // bits 4..12
            0x0000_0ff0,
            0xffff_ff80,
            0x8000_0000,
            40,
        ]
    );
}

#[test]
fn integer_division_by_zero_is_unspecified_and_a_branch_on_it_stops() {
    // 9.7.1.8: "Division by zero yields an unspecified, machine-specific
    // value."
    let o = run(
        "\tdiv.u32 %r1, 7, 0;\n\tdiv.s32 %r2, -7, 2;\n\trem.u32 %r3, 7, 0;\n\
         \tst.global.v2.u32 [%rd1], {%r1, %r2};\n\tst.global.u32 [%rd1+8], %r3;",
        12,
    );
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    let b = &o.buffers[0];
    assert_eq!(b.unspecified, [1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1]);
    assert_eq!(&b.bytes[4..8], &(-3i32).to_le_bytes());
    // a branch that depends on the quotient
    let o = run(
        "\tmov.u32 %r5, 0;\n\tdiv.u32 %r1, 7, %r5;\n\tsetp.eq.u32 %p1, %r1, 0;\n\
         \t@%p1 bra DONE;\n\tst.global.u32 [%rd1], 1;\nDONE:",
        4,
    );
    assert!(matches!(
        o.reports.first().map(|r| &r.kind),
        Some(StopKind::Indeterminate(_))
    ));
}

#[test]
fn fma_rounds_once() {
    // a = b = 1 + 2^-12: a*b = 1 + 2^-11 + 2^-24 exactly. 9.7.3.6 fma:
    // "computed to infinite precision and then rounded", so a*b - 1 is
    // 2^-11 + 2^-24 = 0x3a000400; mul.rn rounds the product first (a tie,
    // to even: 1 + 2^-11), mul.rp up, and mul.rn then add.rn gives 2^-11.
    let body = "\tfma.rn.f32 %f1, 0f3F800800, 0f3F800800, 0fBF800000;\n\
                \tmul.rn.f32 %f2, 0f3F800800, 0f3F800800;\n\
                \tmul.rp.f32 %f3, 0f3F800800, 0f3F800800;\n\
                \tadd.rn.f32 %f4, %f2, 0fBF800000;\n\
                \tmul.rz.f32 %f5, 0f3F800800, 0f3F800800;\n\
                \tsub.rn.f32 %f6, 0f00000000, 0f00000000;\n\
                \tadd.rm.f32 %f7, 0f3F800000, 0fBF800000;\n\
                \tmad.rn.f32 %f8, 0f3F800800, 0f3F800800, 0fBF800000;\n\
                \tst.global.v4.f32 [%rd1], {%f1, %f2, %f3, %f4};\n\
                \tst.global.v4.f32 [%rd1+16], {%f5, %f6, %f7, %f8};";
    assert_eq!(
        words(body, 8),
        [
            0x3a00_0400,
            0x3f80_1000,
            0x3f80_1001,
            0x3a00_0000,
            0x3f80_1000,
            // an exact zero sum is +0 in every mode but .rm, where it is -0
            0x0000_0000,
            0x8000_0000,
            0x3a00_0400,
        ]
    );
}

#[test]
fn ieee_division_reciprocal_and_square_root() {
    let body = "\tdiv.rn.f32 %f1, 0f3F800000, 0f40400000;\n\
                \trcp.rn.f32 %f2, 0f40400000;\n\tsqrt.rn.f32 %f3, 0f40000000;\n\
                \tdiv.rz.f32 %f4, 0f3F800000, 0f40400000;\n\
                \tst.global.v4.f32 [%rd1], {%f1, %f2, %f3, %f4};";
    // 1/3 = 0x3eaaaaab rounded to nearest (0x3eaaaaaa toward zero);
    // sqrt(2) = 0x3fb504f3
    assert_eq!(
        words(body, 4),
        [0x3eaa_aaab, 0x3eaa_aaab, 0x3fb5_04f3, 0x3eaa_aaaa]
    );
    // f64: 1 + 2^-60 rounds to 1 to nearest, to the next double upward
    let o = run(
        "\tadd.rn.f64 %fd1, 0d3FF0000000000000, 0d3C30000000000000;\n\
         \tadd.rp.f64 %fd2, 0d3FF0000000000000, 0d3C30000000000000;\n\
         \tst.global.v2.f64 [%rd1], {%fd1, %fd2};",
        16,
    );
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    let b = &o.buffers[0].bytes;
    assert_eq!(&b[0..8], &0x3ff0_0000_0000_0000u64.to_le_bytes());
    assert_eq!(&b[8..16], &0x3ff0_0000_0000_0001u64.to_le_bytes());
}

#[test]
fn float_modifiers() {
    // .sat clamps to [0, 1]; .ftz flushes a subnormal input to zero;
    // .relu clamps a negative result to 0.
    let body = "\tadd.rn.sat.f32 %f1, 0f3F800000, 0f3F800000;\n\
                \tmul.rn.ftz.f32 %f2, 0f00000001, 0f4B000000;\n\
                \tmul.rn.f32 %f3, 0f00000001, 0f4B000000;\n\
                \tfma.rn.relu.f16 %h1, 0x3c00, 0xbc00, 0xbc00;\n\
                \tcvt.u32.u16 %r1, %h1;\n\tmov.b32 %f4, %r1;\n\
                \tst.global.v4.f32 [%rd1], {%f1, %f2, %f3, %f4};";
    assert_eq!(words(body, 4), [0x3f80_0000, 0, 0x0080_0000, 0]);
}

#[test]
fn comparisons_with_nan() {
    // 9.7.7.1: the unordered comparisons are true when either operand is
    // NaN, the ordered ones false.
    let body = "\tsetp.ltu.f32 %p1, 0f7FC00000, 0f3F800000;\n\
                \tsetp.lt.f32 %p2, 0f7FC00000, 0f3F800000;\n\
                \tsetp.nan.f32 %p3, 0f7FC00000, 0f3F800000;\n\
                \tsetp.ge.and.f32 %p4|%p5, 0f40000000, 0f3F800000, %p1;\n\
                \tselp.u32 %r1, 1, 0, %p1;\n\tselp.u32 %r2, 1, 0, %p2;\n\
                \tselp.u32 %r3, 1, 0, %p3;\n\tselp.u32 %r4, 1, 0, %p4;\n\
                \tselp.u32 %r5, 1, 0, %p5;\n\
                \ttestp.notanumber.f32 %p6, 0f7FC00000;\n\tselp.u32 %r6, 1, 0, %p6;\n\
                \tcopysign.f32 %f1, 0fBF800000, 0f40000000;\n\
                \tmin.f32 %f2, 0f7FC00000, 0f40000000;\n\
                \tst.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};\n\
                \tst.global.v2.u32 [%rd1+16], {%r5, %r6};\n\
                \tst.global.v2.f32 [%rd1+24], {%f1, %f2};";
    assert_eq!(words(body, 8), [1, 0, 1, 1, 0, 1, 0xc000_0000, 0x4000_0000]);
}

#[test]
fn unspecified_nan_bits_stay_unspecified() {
    // 9.7.3.10: "NaN inputs yield an unspecified NaN": the sign and
    // payload are open, the exponent is not.
    let o = run(
        "\tneg.f32 %f1, 0f7FC00000;\n\tst.global.f32 [%rd1], %f1;",
        4,
    );
    assert!(o.reports.is_empty());
    assert_eq!(o.buffers[0].unspecified, [1, 1, 1, 1]);
}

#[test]
fn approximate_forms_write_the_nominal_value_and_leave_bounded_bits_open() {
    // 9.7.3.13's table: rcp.approx(+0.0) = +Inf, fixed; 9.7.3.19's: cos(-0.0)
    // = +1.0; 9.7.3.21's: ex2(-Inf) = +0.0; 9.7.3.18's: sin(-0.0) = -0.0.
    let body = "\trcp.approx.f32 %f1, 0f00000000;\n\tcos.approx.f32 %f2, 0f80000000;\n\
                \tex2.approx.ftz.f32 %f3, 0fFF800000;\n\tsin.approx.f32 %f4, 0f80000000;\n\
                \tst.global.v4.f32 [%rd1], {%f1, %f2, %f3, %f4};";
    assert_eq!(words(body, 4), [0x7f80_0000, 0x3f80_0000, 0, 0x8000_0000]);
    // rcp.approx.f32 of 3.0 is bounded (1 ulp), not fixed: the register
    // holds the correctly rounded 1/3 (0x3eaaaaab), every byte open;
    // div.full.f32 of a NaN is some NaN: sign and payload open.
    let o = run(
        "\trcp.approx.f32 %f1, 0f40400000;\n\tdiv.full.f32 %f2, 0f7FC00000, 0f3F800000;\n\
         \tst.global.v2.f32 [%rd1], {%f1, %f2};",
        8,
    );
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    let b = &o.buffers[0];
    assert_eq!(&b.bytes[0..4], &0x3eaa_aaabu32.to_le_bytes());
    assert_eq!(b.unspecified, [1; 8]);
    // ex2.approx.f16x2 of (+0.0, 1.0): lane 0 is 1.0 by the table (defined),
    // lane 1 is 2.0 within 2^-9.9 (open); rcp.approx.ftz.f64 of 2.0: "d[31:0]
    // = 0x00000000" is defined, the upper word is open.
    let o = run(
        "\tex2.approx.f16x2 %r1, 0x3c000000;\n\trcp.approx.ftz.f64 %fd1, 0d4000000000000000;\n\
         \tst.global.u32 [%rd1], %r1;\n\tst.global.f64 [%rd1+8], %fd1;",
        16,
    );
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    let b = &o.buffers[0];
    assert_eq!(&b.bytes[0..4], &0x4000_3c00u32.to_le_bytes());
    assert_eq!(&b.bytes[8..16], &0x3fe0_0000_0000_0000u64.to_le_bytes());
    assert_eq!(
        b.unspecified,
        [[0, 0, 1, 1], [0; 4], [0; 4], [1; 4]].concat()
    );
}

#[test]
fn approximate_forms_sm_90_lacks_and_legacy_spellings_are_refused() {
    for body in [
        "\trcp.f32 %f1, %f2;",
        "\ttanh.approx.ftz.f32 %f1, %f2;",
        "\trcp.approx.f64 %fd1, %fd2;",
    ] {
        let e = refused(body);
        assert!(
            e.contains("not modelled") || e.contains("approximate"),
            "{e}"
        );
    }
}

#[test]
fn packed_half_precision_lanes() {
    // 9.7.4.1: "input vectors are formed with half-word values from source
    // operands ... processed in parallel": (1.0, 2.0) + (1.0, 1.0) is
    // (2.0, 3.0), lane 0 in the low half; max.NaN of a NaN lane is the
    // canonical NaN (0x7fff).
    let body = "\tmov.b32 %r1, 0x40003c00;\n\tmov.b32 %r2, 0x3c003c00;\n\
                \tadd.rn.f16x2 %r3, %r1, %r2;\n\
                \tmov.b32 %r4, 0x7e003c00;\n\tmax.NaN.f16x2 %r5, %r4, %r2;\n\
                \tneg.bf16x2 %r6, %r2;\n\
                \tmov.u32 %r10, 0;\n\tdiv.u32 %r9, 1, %r10;\n\
                \tsetp.eq.u32 %p7, %r9, 0;\n\
                \tsetp.lt.and.f32 %p1, 0f3F800000, 0f40000000, !%p7;\n\
                \tselp.u32 %r7, 1, 0, %p1;\n\
                \tst.global.v4.u32 [%rd1], {%r3, %r5, %r6, %r7};";
    // %p7 depends on a quotient by zero: the setp's result is unspecified
    let o = run(body, 16);
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    let b = &o.buffers[0];
    assert_eq!(&b.bytes[0..4], &0x4200_4000u32.to_le_bytes());
    assert_eq!(&b.bytes[4..8], &0x7fff_3c00u32.to_le_bytes());
    assert_eq!(&b.bytes[8..12], &0xbc00_bc00u32.to_le_bytes());
    assert_eq!(b.unspecified, [vec![0; 12], vec![1; 4]].concat());
    let body = "\tsetp.ne.u32 %p7, 0, 0;\n\
                \tsetp.lt.and.f32 %p1, 0f3F800000, 0f40000000, !%p7;\n\
                \tsetp.lt.and.f32 _|%p2, 0f3F800000, 0f40000000, !%p7;\n\
                \tselp.u32 %r1, 1, 0, %p1;\n\tselp.u32 %r2, 1, 0, %p2;\n\
                \tst.global.v2.u32 [%rd1], {%r1, %r2};";
    assert_eq!(words(body, 2), [1, 0]);
}

#[test]
fn mixed_precision_rounds_the_exact_result_once() {
    // 9.7.5.1 add.f32.f16: "d = convert(a) + c". (1 + 2^-10) + 2^-24 is a
    // tie between .f32 neighbours (2^-24 is half an ulp at 1.0): .rn keeps
    // the even 1 + 2^-10 (0x3f802000), .rp goes up. 9.7.5.2 sub.f32.bf16:
    // 1.0 - 2^-25 is a tie below 1.0: .rz gives 1 - 2^-24 (0x3f7fffff), .rn
    // the even 1.0. 9.7.5.3 fma.f32.f16: (1 + 2^-10)^2 - 1 = 2^-9 + 2^-20
    // exactly (0x3b001000); fma.sat.f32.bf16 2 * 2 - 1 = 3 clamps to 1.0.
    // A subnormal .f16 (2^-24) is kept: "By default, subnormal numbers are
    // supported" (0x33800000). sub.rm of +0 and +0 is -0 (IEEE 754 6.3).
    let body = "\tmov.b16 %h1, 0x3c01;\n\tmov.b16 %h2, 0x3f80;\n\
                \tmov.b16 %h3, 0x4000;\n\tmov.b16 %h4, 0x0001;\n\tmov.b16 %h5, 0x0000;\n\
                \tadd.rn.f32.f16 %f1, %h1, 0f33800000;\n\
                \tadd.rp.f32.f16 %f2, %h1, 0f33800000;\n\
                \tsub.rz.f32.bf16 %f3, %h2, 0f33000000;\n\
                \tsub.f32.bf16 %f4, %h2, 0f33000000;\n\
                \tfma.rn.f32.f16 %f5, %h1, %h1, 0fBF800000;\n\
                \tfma.rn.sat.f32.bf16 %f6, %h3, %h3, 0fBF800000;\n\
                \tadd.rn.f32.f16 %f7, %h4, 0f00000000;\n\
                \tsub.rm.f32.f16 %f8, %h5, 0f00000000;\n\
                \tst.global.v4.f32 [%rd1], {%f1, %f2, %f3, %f4};\n\
                \tst.global.v4.f32 [%rd1+16], {%f5, %f6, %f7, %f8};";
    assert_eq!(
        words(body, 8),
        [
            0x3f80_2000,
            0x3f80_2001,
            0x3f7f_ffff,
            0x3f80_0000,
            0x3b00_1000,
            0x3f80_0000,
            0x3380_0000,
            0x8000_0000,
        ]
    );
    // A NaN result is add.f32's "unspecified NaN" (sign and payload open,
    // the exponent not); under .sat "NaN results are flushed to +0.0f".
    let o = run(
        "\tmov.b16 %h1, 0x7e00;\n\tadd.rn.f32.f16 %f1, %h1, 0f3F800000;\n\
         \tadd.rn.sat.f32.f16 %f2, %h1, 0f3F800000;\n\
         \tst.global.v2.f32 [%rd1], {%f1, %f2};",
        8,
    );
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    let b = &o.buffers[0];
    assert_eq!(&b.bytes[4..8], &[0; 4]);
    assert_eq!(b.bytes[2] & 0x80, 0x80, "exponent all ones");
    assert_eq!(b.bytes[3] & 0x7f, 0x7f, "exponent all ones");
    assert_eq!(b.unspecified, [1, 1, 1, 1, 0, 0, 0, 0]);
}

#[test]
fn mixed_precision_on_many_threads_against_the_host() {
    // Each thread: add.rn.f32.f16, sub.rn.f32.bf16 and fma.rn.f32.f16 on its
    // own bits, against the host's f32 `+`, `-` and fused `mul_add` after
    // `half`'s exact widening (round to nearest even, one rounding).
    let n = 256usize;
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let mut inputs = Vec::new();
    for _ in 0..n {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        // .f16 halves near 1.0 and anywhere; c near 1.0 or any bits
        let h = |x: u64| {
            if x & 1 == 0 {
                0x3800 | (x as u32 >> 1 & 0x7ff)
            } else {
                x as u32 & 0xffff
            }
        };
        let c = if s >> 60 & 1 == 0 {
            0x3f00_0000 | (s as u32 >> 9 & 0xff_ffff)
        } else {
            (s >> 32) as u32
        };
        inputs.push([h(s >> 5) | h(s >> 21) << 16, c, 0u32, 0u32]);
    }
    let src = format!(
        "{HEAD}.visible .entry k(.param .u64 p)\n{{\n{REGS}\
         \tmov.u32 %r0, %tid.x;\n\tmul.wide.u32 %rd2, %r0, 16;\n\tadd.s64 %rd3, %rd1, %rd2;\n\
         \tld.global.v2.u32 {{%r1, %r2}}, [%rd3];\n\tmov.b32 {{%h1, %h2}}, %r1;\n\
         \tmov.b32 %f1, %r2;\n\
         \tadd.rn.f32.f16 %f2, %h1, %f1;\n\tsub.rn.f32.bf16 %f3, %h2, %f1;\n\
         \tfma.rn.f32.f16 %f4, %h1, %h2, %f1;\n\
         \tst.global.f32 [%rd3+4], %f2;\n\tst.global.f32 [%rd3+8], %f3;\n\tst.global.f32 [%rd3+12], %f4;\n\tret;\n}}\n"
    );
    let module = parse(&src).unwrap_or_else(|e| panic!("{e:?}\n{src}"));
    let prog =
        sim::prepare(&module, "k", &WindowProfile::SM90).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let bytes: Vec<u8> = inputs
        .iter()
        .flatten()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let launch = Launch::new(
        [1, 1, 1],
        [n as u32, 1, 1],
        vec![Arg::Buffer { addr: None, bytes }],
    );
    let o = sim::run(&prog, &launch).unwrap();
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    let b = &o.buffers[0];
    let word = |k: usize| u32::from_le_bytes(b.bytes[k..k + 4].try_into().unwrap());
    for (t, i) in inputs.iter().enumerate() {
        let (lo, hi) = (i[0] as u16, (i[0] >> 16) as u16);
        let c = f32::from_bits(i[1]);
        let f16 = |x: u16| half::f16::from_bits(x).to_f32();
        let want = [
            f16(lo) + c,
            half::bf16::from_bits(hi).to_f32() - c,
            f16(lo).mul_add(f16(hi), c),
        ];
        for (k, w) in want.into_iter().enumerate() {
            let at = 16 * t + 4 + 4 * k;
            let got = word(at);
            if w.is_nan() {
                assert!(f32::from_bits(got).is_nan(), "thread {t} op {k}: {got:#x}");
            } else {
                assert_eq!(got, w.to_bits(), "thread {t} op {k}: {i:x?}");
                assert_eq!(&b.unspecified[at..at + 4], &[0; 4], "thread {t} op {k}");
            }
        }
    }
}

#[test]
fn mixed_precision_qualifiers_the_spec_lacks_are_refused() {
    for body in [
        // "Rounding modifiers(no default)" for fma.f32.abtype
        "\tfma.f32.f16 %f1, %h1, %h2, %f2;",
        // no .ftz, .relu or .f64 in 9.7.5
        "\tadd.rn.ftz.f32.f16 %f1, %h1, %f2;",
        "\tfma.rn.relu.f32.bf16 %f1, %h1, %h2, %f2;",
        "\tadd.rn.f64.f16 %fd1, %h1, %fd2;",
        "\tadd.rn.rz.f32.f16 %f1, %h1, %f2;",
        // 9.7.5 lists add, sub and fma only
        "\tmad.rn.f32.f16 %f1, %h1, %h2, %f2;",
        "\tmul.rn.f32.bf16 %f1, %h1, %h2;",
    ] {
        let e = refused(body);
        assert!(e.contains("not modelled") || e.contains("mixed"), "{e}");
    }
}

#[test]
fn packed_half_setp_writes_each_lane_to_its_own_predicate() {
    // 9.7.7.2 setp.f16x2: "t[0] = (fA[0] CmpOp fB[0]) ? 1 : 0; t[1] = ...;
    // p = BoolOp(t[0], c); q = BoolOp(t[1], c);". a = (2.0, 1.0), b = (1.0,
    // 2.0) in (lane 0, lane 1): lt gives p = 0, q = 1; lt.or with c = 1
    // both 1; bf16x2 gtu of (1.0, 1.0) and (2.0, NaN): 1.0 > 2.0 in lane 0
    // (false), a NaN in lane 1 (unordered: true); .ftz: the subnormals 0x0001 and 0x0002 flush
    // to equal zeros.
    let body = "\tmov.b32 %r1, 0x3c004000;\n\tmov.b32 %r2, 0x40003c00;\n\
                \tmov.b32 %r3, 0x7fc04000;\n\tmov.b32 %r4, 0x3f803f80;\n\
                \tmov.b32 %r5, 0x00010001;\n\tmov.b32 %r6, 0x00020002;\n\
                \tsetp.ne.u32 %p7, 1, 0;\n\
                \tsetp.lt.f16x2 %p1|%p2, %r1, %r2;\n\
                \tsetp.lt.or.f16x2 %p3|%p4, %r1, %r2, %p7;\n\
                \tsetp.gtu.bf16x2 %p5|%p6, %r4, %r3;\n\
                \tselp.u32 %r11, 1, 0, %p1;\n\tselp.u32 %r12, 1, 0, %p2;\n\
                \tselp.u32 %r13, 1, 0, %p3;\n\tselp.u32 %r14, 1, 0, %p4;\n\
                \tselp.u32 %r15, 1, 0, %p5;\n\tselp.u32 %r16, 1, 0, %p6;\n\
                \tsetp.eq.ftz.f16x2 %p1|%p2, %r5, %r6;\n\
                \tsetp.eq.and.f16x2 %p3|%p4, %r5, %r5, !%p7;\n\
                \tselp.u32 %r17, 1, 0, %p1;\n\tselp.u32 %r18, 1, 0, %p2;\n\
                \tselp.u32 %r19, 1, 0, %p3;\n\tselp.u32 %r20, 1, 0, %p4;\n\
                \tst.global.v4.u32 [%rd1], {%r11, %r12, %r13, %r14};\n\
                \tst.global.v4.u32 [%rd1+16], {%r15, %r16, %r17, %r18};\n\
                \tst.global.v2.u32 [%rd1+32], {%r19, %r20};";
    assert_eq!(words(body, 10), [0, 1, 1, 1, 0, 1, 1, 1, 0, 0]);
    for body in [
        // "setp.CmpOp{.ftz}.f16x2 p|q, a, b": two predicates
        "\tsetp.lt.f16x2 %p1, %r1, %r2;",
        // the .bf16x2 lines take no .ftz; lo/ls/hi/hs are integer operators
        "\tsetp.lt.ftz.bf16x2 %p1|%p2, %r1, %r2;",
        "\tsetp.lo.f16x2 %p1|%p2, %r1, %r2;",
    ] {
        refused(body);
    }
}

/// `slct{.ftz}.u32.f32` (PTX ISA 9.7.7.4): "d = (c >= 0) ? a : b"; NaN
/// selects b; `.ftz` flushes a subnormal c to sign-preserving zero, so a
/// negative subnormal selects a with `.ftz` and b without; -0.0 selects a
/// either way. An H100 gave these sixteen values too (2026-11-27, `c` loaded
/// from memory, ptxas 13.0).
#[test]
fn slct_reads_c_as_a_float_with_and_without_ftz() {
    let mut body = String::new();
    let cs = [
        "0f80000001",
        "0f80000000",
        "0fBF800000",
        "0f7FC00000",
        "0f00000001",
        "0f807FFFFF",
        "0f00800000",
        "0f80800000",
    ];
    for (k, c) in cs.iter().enumerate() {
        body.push_str(&format!(
            "\tslct.u32.f32 %r1, 1, 2, {c};\n\tst.global.u32 [%rd1+{}], %r1;\n\
             \tslct.ftz.u32.f32 %r2, 1, 2, {c};\n\tst.global.u32 [%rd1+{}], %r2;\n",
            8 * k,
            8 * k + 4
        ));
    }
    assert_eq!(
        words(&body, 16),
        [2, 1, 1, 1, 2, 2, 2, 2, 1, 1, 2, 1, 1, 1, 2, 2]
    );
}

/// Memory keeps unspecified bits bit by bit: a NaN result whose sign and
/// payload the spec leaves open, stored, loaded back and stored again,
/// keeps its exponent bits defined (all ones) through memory; the buffer
/// marks only the open bits.
#[test]
fn a_stored_nan_keeps_its_defined_bits() {
    let body = "\tadd.f32 %f1, 0f7FC00000, 0f3F800000;\n\
                \tst.global.f32 [%rd1+4], %f1;\n\
                \tld.global.f32 %f2, [%rd1+4];\n\
                \tst.global.f32 [%rd1], %f2;";
    let o = run(body, 8);
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    let b = &o.buffers[0];
    for at in [0, 4] {
        let bits = u32::from_le_bytes(b.unspecified_bits[at..at + 4].try_into().unwrap());
        let v = u32::from_le_bytes(b.bytes[at..at + 4].try_into().unwrap());
        assert_eq!(bits & 0x7f80_0000, 0, "{at}: {bits:#x}");
        assert_eq!(v & 0x7f80_0000, 0x7f80_0000, "{at}: {v:#x}");
        assert_ne!(bits, 0, "{at}: the payload is open");
    }
    // the copy is the original, bits and marks
    assert_eq!(b.bytes[..4], b.bytes[4..]);
    assert_eq!(b.unspecified_bits[..4], b.unspecified_bits[4..]);
    // the byte-wide marks say which bytes have open bits
    assert_eq!(
        b.unspecified,
        b.unspecified_bits
            .iter()
            .map(|&m| u8::from(m != 0))
            .collect::<Vec<_>>()
    );
}
