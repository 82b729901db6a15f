//! Half-precision arithmetic (PTX ISA 9.7.4) on `.f16`, `.f16x2`, `.bf16`
//! and `.bf16x2`, whose registers are bit-size registers of their width
//! (or `.f16`, `.f16x2`, `.bf16`, `.bf16x2` registers). "add{.rnd}{.ftz}{.sat}.f16",
//! ".rnd = { .rn }"; "Introduced in PTX ISA version 4.2", "requires sm_53 or
//! higher"; "add{.rnd}.bf16 ... introduced in PTX ISA version 7.8",
//! "requires sm_90 or higher". Operands are registers: ptxas 13.0 takes no
//! immediate for a half-precision operand ("Arguments mismatch" for
//! `0x3C00`, `0x3F80` and `0f3F800000` alike).

use crate::catalogue::Row;

const RN: &str = ".rnd = { .rn }";
const H2: &str = "d: reg type, a: reg type, b: reg type";
const H3: &str = "d: reg type, a: reg type, b: reg type, c: reg type";
const H1: &str = "d: reg type, a: reg type";
const F16: &str = ".type = { .f16, .f16x2 }";
const BF16: &str = ".type = { .bf16, .bf16x2 }";
const ALL4: &str = ".type = { .f16, .f16x2, .bf16, .bf16x2 }";

macro_rules! binary {
    ($op:literal, $sec:literal) => {
        [
            Row {
                instr: $op,
                id: concat!($op, ".f16"),
                section: $sec,
                syntax: concat!($op, "{.rnd}{.ftz}{.sat}.type"),
                operands: H2,
                sets: &[RN, F16],
                since: "4.2 sm_53",
                ..Row::BASE
            },
            Row {
                instr: $op,
                id: concat!($op, ".bf16"),
                section: $sec,
                syntax: concat!($op, "{.rnd}.type"),
                operands: H2,
                sets: &[RN, BF16],
                since: "7.8 sm_90",
                ..Row::BASE
            },
        ]
    };
}

/// 9.7.4.1 add.
pub static ADD: [Row; 2] = binary!("add", "9.7.4.1");
/// 9.7.4.2 sub.
pub static SUB: [Row; 2] = binary!("sub", "9.7.4.2");
/// 9.7.4.3 mul.
pub static MUL: [Row; 2] = binary!("mul", "9.7.4.3");

pub static ROWS: &[Row] = &[
    // 9.7.4.4 fma: "fma.rnd{.ftz}{.sat}.f16 d, a, b, c; ...
    // fma.rnd{.ftz}.relu.f16 d, a, b, c; fma.rnd{.relu}.bf16 d, a, b, c;
    // fma.rnd.oob{.relu}.type d, a, b, c; .rnd = { .rn }"; ".relu and
    // .bf16/.bf16x2 introduced in PTX ISA version 7.0", "require sm_80";
    // ".oob introduced in PTX ISA version 8.1", "requires sm_90".
    Row {
        instr: "fma",
        id: "fma.f16",
        section: "9.7.4.4",
        syntax: "fma.rnd{.ftz}{.sat}.type",
        operands: H3,
        sets: &[RN, F16],
        since: "4.2 sm_53",
        ..Row::BASE
    },
    Row {
        instr: "fma",
        id: "fma.relu.f16",
        section: "9.7.4.4",
        syntax: "fma.rnd{.ftz}.relu.type",
        operands: H3,
        sets: &[RN, F16],
        since: "7.0 sm_80",
        ..Row::BASE
    },
    // ptxas 13.0 also assembles `fma.{rz,rm,rp}.bf16` and `.bf16x2` for
    // sm_90 (corpus/simulator/README.md, "Forms outside the spec that ptxas
    // takes"), so the rows take every rounding modifier there.
    Row {
        instr: "fma",
        id: "fma.bf16",
        section: "9.7.4.4",
        syntax: "fma.rnd{.relu}.type",
        operands: H3,
        sets: &[".rnd = { .rn, .rz, .rm, .rp }", BF16],
        since: "7.0 sm_80",
        ..Row::BASE
    },
    Row {
        instr: "fma",
        id: "fma.oob",
        section: "9.7.4.4",
        syntax: "fma.rnd.oob{.relu}.type",
        operands: H3,
        sets: &[RN, ALL4],
        since: "8.1 sm_90",
        ..Row::BASE
    },
    // 9.7.4.5 neg, 9.7.4.6 abs: "neg{.ftz}.f16 d, a; neg{.ftz}.f16x2 d, a;
    // neg.bf16 d, a; neg.bf16x2 d, a"; ".f16 ... introduced in PTX ISA
    // version 6.0", "requires sm_53"; ".bf16 ... introduced in PTX ISA
    // version 7.0", "requires sm_80".
    Row {
        instr: "neg",
        id: "neg.f16",
        section: "9.7.4.5",
        syntax: "neg{.ftz}.type",
        operands: H1,
        sets: &[F16],
        since: "6.0 sm_53",
        ..Row::BASE
    },
    Row {
        instr: "neg",
        id: "neg.bf16",
        section: "9.7.4.5",
        syntax: "neg.type",
        operands: H1,
        sets: &[BF16],
        since: "7.0 sm_80",
        ..Row::BASE
    },
    Row {
        instr: "abs",
        id: "abs.f16",
        section: "9.7.4.6",
        syntax: "abs{.ftz}.type",
        operands: H1,
        sets: &[F16],
        since: "6.0 sm_53",
        ..Row::BASE
    },
    Row {
        instr: "abs",
        id: "abs.bf16",
        section: "9.7.4.6",
        syntax: "abs.type",
        operands: H1,
        sets: &[BF16],
        since: "7.0 sm_80",
        ..Row::BASE
    },
    // 9.7.4.7 min, 9.7.4.8 max: "min{.ftz}{.NaN}{.xorsign.abs}.f16 d, a, b;
    // ... min{.NaN}{.xorsign.abs}.bf16 d, a, b"; "Introduced in PTX ISA
    // version 7.0", "requires sm_80"; ".xorsign.abs introduced in PTX ISA
    // version 7.2", "requires sm_86".
    Row {
        instr: "min",
        id: "min.f16",
        section: "9.7.4.7",
        syntax: "min{.ftz}{.NaN}{.xorsign.abs}.type",
        operands: H2,
        sets: &[F16],
        since: "7.0 sm_80",
        needs: &[(".xorsign", "7.2 sm_86")],
        ..Row::BASE
    },
    Row {
        instr: "min",
        id: "min.bf16",
        section: "9.7.4.7",
        syntax: "min{.NaN}{.xorsign.abs}.type",
        operands: H2,
        sets: &[BF16],
        since: "7.0 sm_80",
        needs: &[(".xorsign", "7.2 sm_86")],
        ..Row::BASE
    },
    Row {
        instr: "max",
        id: "max.f16",
        section: "9.7.4.8",
        syntax: "max{.ftz}{.NaN}{.xorsign.abs}.type",
        operands: H2,
        sets: &[F16],
        since: "7.0 sm_80",
        needs: &[(".xorsign", "7.2 sm_86")],
        ..Row::BASE
    },
    Row {
        instr: "max",
        id: "max.bf16",
        section: "9.7.4.8",
        syntax: "max{.NaN}{.xorsign.abs}.type",
        operands: H2,
        sets: &[BF16],
        since: "7.0 sm_80",
        needs: &[(".xorsign", "7.2 sm_86")],
        ..Row::BASE
    },
    // 9.7.4.9 tanh: "tanh.approx.type d, a; .type = { .f16, .f32, .f16x2,
    // .bf16, .bf16x2 }"; ".f16, .f16x2 introduced in PTX ISA version 7.0",
    // "require sm_75"; ".bf16, .bf16x2 introduced in PTX ISA version 7.8",
    // "require sm_90".
    Row {
        instr: "tanh",
        id: "tanh.f16",
        section: "9.7.4.9",
        syntax: "tanh.approx.type",
        operands: H1,
        sets: &[F16],
        since: "7.0 sm_75",
        ..Row::BASE
    },
    Row {
        instr: "tanh",
        id: "tanh.bf16",
        section: "9.7.4.9",
        syntax: "tanh.approx.type",
        operands: H1,
        sets: &[BF16],
        since: "7.8 sm_90",
        ..Row::BASE
    },
    // 9.7.4.10 ex2: "ex2.approx.atype d, a; ex2.approx.ftz.btype d, a;
    // .atype = { .f16, .f16x2 }; .btype = { .bf16, .bf16x2 }"; same versions
    // and targets as tanh.
    Row {
        instr: "ex2",
        id: "ex2.f16",
        section: "9.7.4.10",
        syntax: "ex2.approx.type",
        operands: H1,
        sets: &[F16],
        since: "7.0 sm_75",
        ..Row::BASE
    },
    Row {
        instr: "ex2",
        id: "ex2.bf16",
        section: "9.7.4.10",
        syntax: "ex2.approx.ftz.type",
        operands: H1,
        sets: &[BF16],
        since: "7.8 sm_90",
        ..Row::BASE
    },
];
