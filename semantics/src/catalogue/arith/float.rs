//! Floating-point arithmetic (PTX ISA 9.7.3) on `.f32`, `.f64` and the
//! packed `.f32x2` (whose operands are `.b64`), and the mixed-precision
//! forms with a half-precision source. Sources are registers or `0f`/`0d`
//! immediates.

use crate::catalogue::{Row, Rule};

const RND: &str = ".rnd = { .rn, .rz, .rm, .rp }";
const F32_2: &str = "d: reg .f32, a: reg|imm .f32, b: reg|imm .f32";
const F32_3: &str = "d: reg .f32, a: reg|imm .f32, b: reg|imm .f32, c: reg|imm .f32";
const F64_2: &str = "d: reg .f64, a: reg|imm .f64, b: reg|imm .f64";
const F64_3: &str = "d: reg .f64, a: reg|imm .f64, b: reg|imm .f64, c: reg|imm .f64";
const X2_2: &str = "d: reg .b64, a: reg .b64, b: reg .b64";
const X2_3: &str = "d: reg .b64, a: reg .b64, b: reg .b64, c: reg .b64";
const F32_1: &str = "d: reg .f32, a: reg|imm .f32";
const F64_1: &str = "d: reg .f64, a: reg|imm .f64";

/// "For PTX ISA version 1.4 and later, the .approx modifier is required"
/// (sin, cos, lg2, ex2, rcp, sqrt, rsqrt, div; PTX ISA 9.7.3).
const APPROX_REQUIRED: &str = "a modifier (`.approx`, or a rounding modifier where the form has one) is required from PTX ISA 1.4 on";

macro_rules! binary {
    ($op:literal, $sec:literal) => {
        [
            // "{op}{.rnd}{.ftz}{.sat}.f32 d, a, b"
            Row {
                instr: $op,
                id: concat!($op, ".f32"),
                section: $sec,
                syntax: concat!($op, "{.rnd}{.ftz}{.sat}.f32"),
                operands: F32_2,
                sets: &[RND],
                ..Row::BASE
            },
            // "{op}{.rnd}{.ftz}.f32x2 d, a, b"; "Support for .f32x2
            // introduced in PTX ISA version 8.6", "requires sm_100 or
            // higher".
            Row {
                instr: $op,
                id: concat!($op, ".f32x2"),
                section: $sec,
                syntax: concat!($op, "{.rnd}{.ftz}.f32x2"),
                operands: X2_2,
                sets: &[RND],
                since: "8.6 sm_100",
                ..Row::BASE
            },
            // "{op}{.rnd}.f64 d, a, b"; ".f64 requires sm_13 or higher".
            Row {
                instr: $op,
                id: concat!($op, ".f64"),
                section: $sec,
                syntax: concat!($op, "{.rnd}.f64"),
                operands: F64_2,
                sets: &[RND],
                since: "1.0 sm_13",
                ..Row::BASE
            },
        ]
    };
}

/// "add{.rnd}{.sat}.f32.atype d, a, c; .atype = { .f16, .bf16 }": mixed
/// precision, "introduced in PTX ISA version 8.6", "requires sm_100 or
/// higher".
macro_rules! mixed {
    ($op:literal, $sec:literal) => {
        Row {
            instr: $op,
            id: concat!($op, ".f32.mixed"),
            section: $sec,
            syntax: concat!($op, "{.rnd}{.sat}.f32.atype"),
            operands: "d: reg .f32, a: reg atype, c: reg|imm .f32",
            sets: &[RND, ".atype = { .f16, .bf16 }"],
            since: "8.6 sm_100",
            ..Row::BASE
        }
    };
}

pub static ADD: [Row; 3] = binary!("add", "9.7.3.3");
pub static SUB: [Row; 3] = binary!("sub", "9.7.3.4");
pub static MUL: [Row; 3] = binary!("mul", "9.7.3.5");

pub static ROWS: &[Row] = &[
    // 9.7.3.1 testp: "testp.op.type p, a; .op = { .finite, .infinite,
    // .number, .notanumber, .normal, .subnormal }; .type = { .f32, .f64 }";
    // "Introduced in PTX ISA version 2.0", "Requires sm_20 or higher".
    // ptxas 13.0 also assembles `testp.f32 p, a` with no `.op`.
    Row {
        instr: "testp",
        id: "testp",
        section: "9.7.3.1",
        syntax: "testp{.op}.type",
        operands: "p: pred, a: reg|imm type",
        sets: &[
            ".op = { .finite, .infinite, .number, .notanumber, .normal, .subnormal }",
            ".type = { .f32, .f64 }",
        ],
        since: "2.0 sm_20",
        ..Row::BASE
    },
    // 9.7.3.2 copysign: "copysign.type d, a, b; .type = { .f32, .f64 }".
    Row {
        instr: "copysign",
        id: "copysign",
        section: "9.7.3.2",
        syntax: "copysign.type",
        operands: "d: reg type, a: reg|imm type, b: reg|imm type",
        sets: &[".type = { .f32, .f64 }"],
        since: "2.0 sm_20",
        ..Row::BASE
    },
    mixed!("add", "9.7.3.3"),
    mixed!("sub", "9.7.3.4"),
    // 9.7.3.6 fma: "fma.rnd{.ftz}{.sat}.f32 d, a, b, c; fma.rnd{.ftz}.f32x2
    // d, a, b, c; fma.rnd.f64 d, a, b, c"; "fma.f32 requires sm_20 or
    // higher"; "fma.rnd{.sat}.f32.abtype d, a, b, c; .abtype = { .f16,
    // .bf16 }" from PTX ISA 8.6 and sm_100.
    Row {
        instr: "fma",
        id: "fma.f32",
        section: "9.7.3.6",
        syntax: "fma.rnd{.ftz}{.sat}.f32",
        operands: F32_3,
        sets: &[RND],
        since: "2.0 sm_20",
        ..Row::BASE
    },
    Row {
        instr: "fma",
        id: "fma.f32x2",
        section: "9.7.3.6",
        syntax: "fma.rnd{.ftz}.f32x2",
        operands: X2_3,
        sets: &[RND],
        since: "8.6 sm_100",
        ..Row::BASE
    },
    Row {
        instr: "fma",
        id: "fma.f64",
        section: "9.7.3.6",
        syntax: "fma.rnd.f64",
        operands: F64_3,
        sets: &[RND],
        since: "1.4 sm_13",
        ..Row::BASE
    },
    Row {
        instr: "fma",
        id: "fma.f32.mixed",
        section: "9.7.3.6",
        syntax: "fma.rnd{.sat}.f32.abtype",
        // ptxas 13.0 takes an integer immediate (the bit pattern) for a
        // half-precision source here (`fma.rm.f32.bf16 d, a, 0x3C00, c` on
        // sm_100, corpus/legality/arith), unlike the half-precision
        // instructions of 9.7.4; a floating-point constant stays refused
        operands: "d: reg .f32, a: reg|imm abtype, b: reg|imm abtype, c: reg|imm .f32",
        sets: &[RND, ".abtype = { .f16, .bf16 }"],
        since: "8.6 sm_100",
        ..Row::BASE
    },
    // 9.7.3.7 mad: "mad{.ftz}{.sat}.f32 d, a, b, c; // .target sm_1x",
    // "mad.rnd{.ftz}{.sat}.f32 d, a, b, c; // .target sm_20", "mad.rnd.f64
    // d, a, b, c"; "mad.f32 requires a rounding modifier for sm_20 and
    // higher targets. However for PTX ISA version 3.0 and earlier, ptxas
    // does not enforce this requirement" (and 3.1 only warns).
    Row {
        instr: "mad",
        id: "mad.f32",
        section: "9.7.3.7",
        syntax: "mad{.rnd}{.ftz}{.sat}.f32",
        operands: F32_3,
        sets: &[RND],
        rules: &[Rule::removed(
            "`mad.f32` needs a rounding modifier for sm_20 and higher targets from PTX ISA 3.2 on",
            "3.2 sm_20",
            |b| b.get("rnd").is_none(),
        )],
        ..Row::BASE
    },
    Row {
        instr: "mad",
        id: "mad.f64",
        section: "9.7.3.7",
        syntax: "mad{.rnd}.f64",
        operands: F64_3,
        sets: &[RND],
        since: "1.0 sm_13",
        rules: &[Rule::removed(
            "\"In PTX ISA versions 1.4 and later, a rounding modifier is required for mad.f64\"",
            "1.4",
            |b| b.get("rnd").is_none(),
        )],
        ..Row::BASE
    },
    // 9.7.3.8 div: "div.approx{.ftz}.f32, div.full{.ftz}.f32,
    // div.rnd{.ftz}.f32, div.rnd.f64"; "div.rnd.f32 requires sm_20";
    // "div.f32 and div.f64 ... PTX ISA 1.4 and later: one of .approx,
    // .full, .rnd is required".
    Row {
        instr: "div",
        id: "div.approx.f32",
        section: "9.7.3.8",
        syntax: "div.mode{.ftz}.f32",
        operands: F32_2,
        sets: &[".mode = { .approx, .full }"],
        since: "1.4",
        ..Row::BASE
    },
    Row {
        instr: "div",
        id: "div.rnd.f32",
        section: "9.7.3.8",
        syntax: "div{.rnd}{.ftz}.f32",
        operands: F32_2,
        sets: &[RND],
        since: "1.0",
        needs: &[
            (".rn", "2.0 sm_20"),
            (".rz", "2.0 sm_20"),
            (".rm", "2.0 sm_20"),
            (".rp", "2.0 sm_20"),
        ],
        rules: &[Rule::removed(APPROX_REQUIRED, "1.4", |b| {
            b.get("rnd").is_none()
        })],
        ..Row::BASE
    },
    Row {
        instr: "div",
        id: "div.f64",
        section: "9.7.3.8",
        syntax: "div{.rnd}.f64",
        operands: F64_2,
        sets: &[RND],
        since: "1.0 sm_13",
        rules: &[Rule::removed(APPROX_REQUIRED, "1.4", |b| {
            b.get("rnd").is_none()
        })],
        ..Row::BASE
    },
    // 9.7.3.9 abs, 9.7.3.10 neg: "abs{.ftz}.f32 d, a; abs.f64 d, a".
    Row {
        instr: "abs",
        id: "abs.f32",
        section: "9.7.3.9",
        syntax: "abs{.ftz}.f32",
        operands: F32_1,
        ..Row::BASE
    },
    Row {
        instr: "abs",
        id: "abs.f64",
        section: "9.7.3.9",
        syntax: "abs.f64",
        operands: F64_1,
        since: "1.0 sm_13",
        ..Row::BASE
    },
    Row {
        instr: "neg",
        id: "neg.f32",
        section: "9.7.3.10",
        syntax: "neg{.ftz}.f32",
        operands: F32_1,
        ..Row::BASE
    },
    Row {
        instr: "neg",
        id: "neg.f64",
        section: "9.7.3.10",
        syntax: "neg.f64",
        operands: F64_1,
        since: "1.0 sm_13",
        ..Row::BASE
    },
    // 9.7.3.11 min, 9.7.3.12 max: "min{.ftz}{.NaN}{.xorsign.abs}.f32 d, a,
    // b; min{.ftz}{.NaN}{.abs}.f32 d, a, b, c; min.f64 d, a, b"; ".NaN
    // introduced in PTX ISA version 7.0", "requires sm_80"; ".xorsign.abs
    // introduced in PTX ISA version 7.2", "requires sm_86"; the
    // three-input form "introduced in PTX ISA version 8.8", "requires
    // sm_100 or higher".
    Row {
        instr: "min",
        id: "min.f32",
        section: "9.7.3.11",
        syntax: "min{.ftz}{.NaN}{.xorsign.abs}.f32",
        operands: F32_2,
        needs: &[(".NaN", "7.0 sm_80"), (".xorsign", "7.2 sm_86")],
        ..Row::BASE
    },
    Row {
        instr: "min",
        id: "min.f32.3",
        section: "9.7.3.11",
        syntax: "min{.ftz}{.NaN}{.abs}.f32",
        operands: F32_3,
        since: "8.8 sm_100",
        ..Row::BASE
    },
    Row {
        instr: "min",
        id: "min.f64",
        section: "9.7.3.11",
        syntax: "min.f64",
        operands: F64_2,
        since: "1.0 sm_13",
        ..Row::BASE
    },
    Row {
        instr: "max",
        id: "max.f32",
        section: "9.7.3.12",
        syntax: "max{.ftz}{.NaN}{.xorsign.abs}.f32",
        operands: F32_2,
        needs: &[(".NaN", "7.0 sm_80"), (".xorsign", "7.2 sm_86")],
        ..Row::BASE
    },
    Row {
        instr: "max",
        id: "max.f32.3",
        section: "9.7.3.12",
        syntax: "max{.ftz}{.NaN}{.abs}.f32",
        operands: F32_3,
        since: "8.8 sm_100",
        ..Row::BASE
    },
    Row {
        instr: "max",
        id: "max.f64",
        section: "9.7.3.12",
        syntax: "max.f64",
        operands: F64_2,
        since: "1.0 sm_13",
        ..Row::BASE
    },
    // 9.7.3.13 rcp: "rcp.approx{.ftz}.f32 d, a; rcp.rnd{.ftz}.f32 d, a;
    // rcp.rnd.f64 d, a"; "rcp.rnd.f32 requires sm_20".
    Row {
        instr: "rcp",
        id: "rcp.approx.f32",
        section: "9.7.3.13",
        syntax: "rcp.approx{.ftz}.f32",
        operands: F32_1,
        ..Row::BASE
    },
    Row {
        instr: "rcp",
        id: "rcp.rnd.f32",
        section: "9.7.3.13",
        syntax: "rcp{.rnd}{.ftz}.f32",
        operands: F32_1,
        sets: &[RND],
        needs: &[
            (".rn", "2.0 sm_20"),
            (".rz", "2.0 sm_20"),
            (".rm", "2.0 sm_20"),
            (".rp", "2.0 sm_20"),
        ],
        rules: &[Rule::removed(APPROX_REQUIRED, "1.4", |b| {
            b.get("rnd").is_none()
        })],
        ..Row::BASE
    },
    // ptxas 13.0 also takes `.ftz` here (`rcp.rn.ftz.f64`), though the
    // syntax line has none.
    Row {
        instr: "rcp",
        id: "rcp.rnd.f64",
        section: "9.7.3.13",
        syntax: "rcp{.rnd}{.ftz}.f64",
        operands: F64_1,
        sets: &[RND],
        since: "1.0 sm_13",
        rules: &[Rule::removed(APPROX_REQUIRED, "1.4", |b| {
            b.get("rnd").is_none()
        })],
        ..Row::BASE
    },
    // 9.7.3.14 "rcp.approx.ftz.f64 d, a"; "Introduced in PTX ISA version
    // 2.1", "requires sm_20 or higher".
    Row {
        instr: "rcp.approx.ftz.f64",
        id: "rcp.approx.ftz.f64",
        section: "9.7.3.14",
        syntax: "rcp.approx.ftz.f64",
        operands: F64_1,
        since: "2.1 sm_20",
        ..Row::BASE
    },
    // 9.7.3.15 sqrt: "sqrt.approx{.ftz}.f32 d, a; sqrt.rnd{.ftz}.f32 d, a;
    // sqrt.rnd.f64 d, a"; "sqrt.rnd.f32 requires sm_20".
    Row {
        instr: "sqrt",
        id: "sqrt.approx.f32",
        section: "9.7.3.15",
        syntax: "sqrt.approx{.ftz}.f32",
        operands: F32_1,
        ..Row::BASE
    },
    Row {
        instr: "sqrt",
        id: "sqrt.rnd.f32",
        section: "9.7.3.15",
        syntax: "sqrt{.rnd}{.ftz}.f32",
        operands: F32_1,
        sets: &[RND],
        needs: &[
            (".rn", "2.0 sm_20"),
            (".rz", "2.0 sm_20"),
            (".rm", "2.0 sm_20"),
            (".rp", "2.0 sm_20"),
        ],
        rules: &[Rule::removed(APPROX_REQUIRED, "1.4", |b| {
            b.get("rnd").is_none()
        })],
        ..Row::BASE
    },
    Row {
        instr: "sqrt",
        id: "sqrt.rnd.f64",
        section: "9.7.3.15",
        syntax: "sqrt{.rnd}.f64",
        operands: F64_1,
        sets: &[RND],
        since: "1.0 sm_13",
        rules: &[Rule::removed(APPROX_REQUIRED, "1.4", |b| {
            b.get("rnd").is_none()
        })],
        ..Row::BASE
    },
    // 9.7.3.16 rsqrt: "rsqrt.approx{.ftz}.f32 d, a; rsqrt.approx.f64 d, a".
    Row {
        instr: "rsqrt",
        id: "rsqrt.f32",
        section: "9.7.3.16",
        syntax: "rsqrt{.approx}{.ftz}.f32",
        operands: F32_1,
        rules: &[Rule::removed(APPROX_REQUIRED, "1.4", |b| !b.has(".approx"))],
        ..Row::BASE
    },
    Row {
        instr: "rsqrt",
        id: "rsqrt.f64",
        section: "9.7.3.16",
        syntax: "rsqrt{.approx}.f64",
        operands: F64_1,
        since: "1.0 sm_13",
        rules: &[Rule::removed(APPROX_REQUIRED, "1.4", |b| !b.has(".approx"))],
        ..Row::BASE
    },
    // 9.7.3.17 "rsqrt.approx.ftz.f64 d, a"; "Introduced in PTX ISA version
    // 4.0", "requires sm_20 or higher".
    Row {
        instr: "rsqrt.approx.ftz.f64",
        id: "rsqrt.approx.ftz.f64",
        section: "9.7.3.17",
        syntax: "rsqrt.approx.ftz.f64",
        operands: F64_1,
        since: "4.0 sm_20",
        ..Row::BASE
    },
    // 9.7.3.18-21 sin, cos, lg2, ex2: "sin.approx{.ftz}.f32 d, a"; "For
    // PTX ISA version 1.4 and later, the .approx modifier is required".
    Row {
        instr: "sin",
        id: "sin",
        section: "9.7.3.18",
        syntax: "sin{.approx}{.ftz}.f32",
        operands: F32_1,
        rules: &[Rule::removed(APPROX_REQUIRED, "1.4", |b| !b.has(".approx"))],
        ..Row::BASE
    },
    Row {
        instr: "cos",
        id: "cos",
        section: "9.7.3.19",
        syntax: "cos{.approx}{.ftz}.f32",
        operands: F32_1,
        rules: &[Rule::removed(APPROX_REQUIRED, "1.4", |b| !b.has(".approx"))],
        ..Row::BASE
    },
    Row {
        instr: "lg2",
        id: "lg2",
        section: "9.7.3.20",
        syntax: "lg2{.approx}{.ftz}.f32",
        operands: F32_1,
        rules: &[Rule::removed(APPROX_REQUIRED, "1.4", |b| !b.has(".approx"))],
        ..Row::BASE
    },
    Row {
        instr: "ex2",
        id: "ex2.f32",
        section: "9.7.3.21",
        syntax: "ex2{.approx}{.ftz}.f32",
        operands: F32_1,
        rules: &[Rule::removed(APPROX_REQUIRED, "1.4", |b| !b.has(".approx"))],
        ..Row::BASE
    },
    // 9.7.3.22 tanh: "tanh.approx.type d, a; .type = { .f32 }" (9.7.4.9
    // adds the half-precision types); "Introduced in PTX ISA version 7.0",
    // "Requires sm_75 or higher".
    Row {
        instr: "tanh",
        id: "tanh.f32",
        section: "9.7.3.22",
        syntax: "tanh.approx.f32",
        operands: F32_1,
        since: "7.0 sm_75",
        ..Row::BASE
    },
];
