//! Integer arithmetic (PTX ISA 9.7.1). Sources are `reg|imm`
//! throughout: a register, an immediate, a special register, or a
//! variable's address standing for an integer (PTX ISA 6.4, 4.6).

use crate::catalogue::{Row, Rule};

pub static ROWS: &[Row] = &[
    // 9.7.1.1 add: "add.type d, a, b; add{.sat}.s32 d, a, b; // .sat
    // applies only to .s32"; ".u16x2, .s16x2 ... operands d, a and b have
    // type .b32"; "Support for .u16x2 and .s16x2 types introduced in PTX
    // ISA version 8.0", "require sm_90 or higher".
    Row {
        instr: "add",
        id: "add.int",
        section: "9.7.1.1",
        syntax: "add.type",
        operands: "d: reg type, a: reg|imm type, b: reg|imm type",
        sets: &[".type = { .u16, .u32, .u64, .s16, .s32, .s64 }"],
        ..Row::BASE
    },
    Row {
        instr: "add",
        id: "add.sat.s32",
        section: "9.7.1.1",
        syntax: "add.sat.s32",
        operands: "d: reg .s32, a: reg|imm .s32, b: reg|imm .s32",
        ..Row::BASE
    },
    Row {
        instr: "add",
        id: "add.int.x2",
        section: "9.7.1.1",
        syntax: "add.type",
        operands: "d: reg .b32, a: reg .b32, b: reg .b32",
        sets: &[".type = { .u16x2, .s16x2 }"],
        since: "8.0 sm_90",
        ..Row::BASE
    },
    // 9.7.1.2 sub: "sub.type d, a, b; sub{.sat}.s32 d, a, b".
    Row {
        instr: "sub",
        id: "sub.int",
        section: "9.7.1.2",
        syntax: "sub.type",
        operands: "d: reg type, a: reg|imm type, b: reg|imm type",
        sets: &[".type = { .u16, .u32, .u64, .s16, .s32, .s64 }"],
        ..Row::BASE
    },
    Row {
        instr: "sub",
        id: "sub.sat.s32",
        section: "9.7.1.2",
        syntax: "sub.sat.s32",
        operands: "d: reg .s32, a: reg|imm .s32, b: reg|imm .s32",
        ..Row::BASE
    },
    // 9.7.1.3 mul: "mul.mode.type d, a, b; .mode = { .hi, .lo, .wide }";
    // "The .wide suffix is supported only for 16- and 32-bit integer
    // types" and makes d twice as wide.
    Row {
        instr: "mul",
        id: "mul.int",
        section: "9.7.1.3",
        syntax: "mul.mode.type",
        operands: "d: reg type, a: reg|imm type, b: reg|imm type",
        sets: &[
            ".mode = { .hi, .lo }",
            ".type = { .u16, .u32, .u64, .s16, .s32, .s64 }",
        ],
        ..Row::BASE
    },
    Row {
        instr: "mul",
        id: "mul.wide.16",
        section: "9.7.1.3",
        syntax: "mul.wide.type",
        operands: "d: reg .u32, a: reg|imm type, b: reg|imm type",
        sets: &[".type = { .u16, .s16 }"],
        ..Row::BASE
    },
    Row {
        instr: "mul",
        id: "mul.wide.32",
        section: "9.7.1.3",
        syntax: "mul.wide.type",
        operands: "d: reg .u64, a: reg|imm type, b: reg|imm type",
        sets: &[".type = { .u32, .s32 }"],
        ..Row::BASE
    },
    // 9.7.1.4 mad: "mad.mode.type d, a, b, c; mad.hi.sat.s32 d, a, b, c";
    // for .wide, c and d are twice as wide as a and b.
    Row {
        instr: "mad",
        id: "mad.int",
        section: "9.7.1.4",
        syntax: "mad.mode.type",
        operands: "d: reg type, a: reg|imm type, b: reg|imm type, c: reg|imm type",
        sets: &[
            ".mode = { .hi, .lo }",
            ".type = { .u16, .u32, .u64, .s16, .s32, .s64 }",
        ],
        ..Row::BASE
    },
    Row {
        instr: "mad",
        id: "mad.hi.sat.s32",
        section: "9.7.1.4",
        syntax: "mad.hi.sat.s32",
        operands: "d: reg .s32, a: reg|imm .s32, b: reg|imm .s32, c: reg|imm .s32",
        ..Row::BASE
    },
    Row {
        instr: "mad",
        id: "mad.wide.16",
        section: "9.7.1.4",
        syntax: "mad.wide.type",
        operands: "d: reg .u32, a: reg|imm type, b: reg|imm type, c: reg|imm .u32",
        sets: &[".type = { .u16, .s16 }"],
        ..Row::BASE
    },
    Row {
        instr: "mad",
        id: "mad.wide.32",
        section: "9.7.1.4",
        syntax: "mad.wide.type",
        operands: "d: reg .u64, a: reg|imm type, b: reg|imm type, c: reg|imm .u64",
        sets: &[".type = { .u32, .s32 }"],
        ..Row::BASE
    },
    // 9.7.1.5 mul24: "mul24.mode.type d, a, b; .mode = { .hi, .lo };
    // .type = { .u32, .s32 }".
    Row {
        instr: "mul24",
        id: "mul24",
        section: "9.7.1.5",
        syntax: "mul24.mode.type",
        operands: "d: reg type, a: reg|imm type, b: reg|imm type",
        sets: &[".mode = { .hi, .lo }", ".type = { .u32, .s32 }"],
        ..Row::BASE
    },
    // 9.7.1.6 mad24: "mad24.mode.type d, a, b, c; mad24.hi.sat.s32 d, a, b, c".
    Row {
        instr: "mad24",
        id: "mad24",
        section: "9.7.1.6",
        syntax: "mad24.mode.type",
        operands: "d: reg type, a: reg|imm type, b: reg|imm type, c: reg|imm type",
        sets: &[".mode = { .hi, .lo }", ".type = { .u32, .s32 }"],
        ..Row::BASE
    },
    Row {
        instr: "mad24",
        id: "mad24.hi.sat.s32",
        section: "9.7.1.6",
        syntax: "mad24.hi.sat.s32",
        operands: "d: reg .s32, a: reg|imm .s32, b: reg|imm .s32, c: reg|imm .s32",
        ..Row::BASE
    },
    // 9.7.1.7 sad: "sad.type d, a, b, c".
    Row {
        instr: "sad",
        id: "sad",
        section: "9.7.1.7",
        syntax: "sad.type",
        operands: "d: reg type, a: reg|imm type, b: reg|imm type, c: reg|imm type",
        sets: &[".type = { .u16, .u32, .u64, .s16, .s32, .s64 }"],
        ..Row::BASE
    },
    // 9.7.1.8 div, 9.7.1.9 rem: "div.type d, a, b", "rem.type d, a, b".
    Row {
        instr: "div",
        id: "div.int",
        section: "9.7.1.8",
        syntax: "div.type",
        operands: "d: reg type, a: reg|imm type, b: reg|imm type",
        sets: &[".type = { .u16, .u32, .u64, .s16, .s32, .s64 }"],
        ..Row::BASE
    },
    Row {
        instr: "rem",
        id: "rem",
        section: "9.7.1.9",
        syntax: "rem.type",
        operands: "d: reg type, a: reg|imm type, b: reg|imm type",
        sets: &[".type = { .u16, .u32, .u64, .s16, .s32, .s64 }"],
        ..Row::BASE
    },
    // 9.7.1.10 abs, 9.7.1.11 neg: ".type = { .s16, .s32, .s64 }".
    Row {
        instr: "abs",
        id: "abs.int",
        section: "9.7.1.10",
        syntax: "abs.type",
        operands: "d: reg type, a: reg|imm type",
        sets: &[".type = { .s16, .s32, .s64 }"],
        ..Row::BASE
    },
    Row {
        instr: "neg",
        id: "neg.int",
        section: "9.7.1.11",
        syntax: "neg.type",
        operands: "d: reg type, a: reg|imm type",
        sets: &[".type = { .s16, .s32, .s64 }"],
        ..Row::BASE
    },
    // 9.7.1.12 min, 9.7.1.13 max: "min.atype d, a, b; min{.relu}.btype
    // d, a, b; .atype = { .u16, .u32, .u64, .u16x2, .s16, .s64 }; .btype =
    // { .s16x2, .s32 }"; ".u16x2, .s16x2 ... operands ... have type .b32";
    // "Support for .u16x2, .s16x2 and .relu introduced in PTX ISA version
    // 8.0", "require sm_90 or higher".
    Row {
        instr: "min",
        id: "min.int",
        section: "9.7.1.12",
        syntax: "min.type",
        operands: "d: reg type, a: reg|imm type, b: reg|imm type",
        sets: &[".type = { .u16, .u32, .u64, .s16, .s32, .s64 }"],
        ..Row::BASE
    },
    Row {
        instr: "min",
        id: "min.relu.s32",
        section: "9.7.1.12",
        syntax: "min.relu.s32",
        operands: "d: reg .s32, a: reg|imm .s32, b: reg|imm .s32",
        since: "8.0 sm_90",
        ..Row::BASE
    },
    Row {
        instr: "min",
        id: "min.int.x2",
        section: "9.7.1.12",
        syntax: "min{.relu}.type",
        operands: "d: reg .b32, a: reg .b32, b: reg .b32",
        sets: &[".type = { .u16x2, .s16x2 }"],
        since: "8.0 sm_90",
        rules: &[Rule::illegal(
            "`.relu` applies to `.s16x2` and `.s32` only (\"min{.relu}.btype ... .btype = { .s16x2, .s32 }\")",
            |b| b.has(".relu") && b.is("type", ".u16x2"),
        )],
        ..Row::BASE
    },
    Row {
        instr: "max",
        id: "max.int",
        section: "9.7.1.13",
        syntax: "max.type",
        operands: "d: reg type, a: reg|imm type, b: reg|imm type",
        sets: &[".type = { .u16, .u32, .u64, .s16, .s32, .s64 }"],
        ..Row::BASE
    },
    Row {
        instr: "max",
        id: "max.relu.s32",
        section: "9.7.1.13",
        syntax: "max.relu.s32",
        operands: "d: reg .s32, a: reg|imm .s32, b: reg|imm .s32",
        since: "8.0 sm_90",
        ..Row::BASE
    },
    Row {
        instr: "max",
        id: "max.int.x2",
        section: "9.7.1.13",
        syntax: "max{.relu}.type",
        operands: "d: reg .b32, a: reg .b32, b: reg .b32",
        sets: &[".type = { .u16x2, .s16x2 }"],
        since: "8.0 sm_90",
        rules: &[Rule::illegal(
            "`.relu` applies to `.s16x2` and `.s32` only (\"max{.relu}.btype ... .btype = { .s16x2, .s32 }\")",
            |b| b.has(".relu") && b.is("type", ".u16x2"),
        )],
        ..Row::BASE
    },
    // 9.7.1.14 popc, 9.7.1.15 clz: "popc.type d, a; .type = { .b32, .b64 }",
    // "operand d has type .u32"; "Introduced in PTX ISA version 2.0",
    // "requires sm_20 or higher".
    Row {
        instr: "popc",
        id: "popc",
        section: "9.7.1.14",
        syntax: "popc.type",
        operands: "d: reg .u32, a: reg|imm type",
        sets: &[".type = { .b32, .b64 }"],
        since: "2.0 sm_20",
        ..Row::BASE
    },
    Row {
        instr: "clz",
        id: "clz",
        section: "9.7.1.15",
        syntax: "clz.type",
        operands: "d: reg .u32, a: reg|imm type",
        sets: &[".type = { .b32, .b64 }"],
        since: "2.0 sm_20",
        ..Row::BASE
    },
    // 9.7.1.16 bfind: "bfind.type d, a; bfind.shiftamt.type d, a";
    // "Operand d has type .u32".
    Row {
        instr: "bfind",
        id: "bfind",
        section: "9.7.1.16",
        syntax: "bfind{.shiftamt}.type",
        operands: "d: reg .u32, a: reg|imm type",
        sets: &[".type = { .u32, .u64, .s32, .s64 }"],
        since: "2.0 sm_20",
        ..Row::BASE
    },
    // 9.7.1.17 fns: "fns.b32 d, mask, base, offset"; "Introduced in PTX
    // ISA version 6.0", "requires sm_30 or higher". ptxas 13.0 takes any
    // 32-bit register or immediate for `base` and `offset` (an `.f32` one
    // too), so all four are `.b32` here.
    Row {
        instr: "fns",
        id: "fns",
        section: "9.7.1.17",
        syntax: "fns.b32",
        operands: "d: reg .b32, mask: reg|imm .b32, base: reg|imm .b32, offset: reg|imm .b32",
        since: "6.0 sm_30",
        ..Row::BASE
    },
    // 9.7.1.18 brev: "brev.type d, a; .type = { .b32, .b64 }".
    Row {
        instr: "brev",
        id: "brev",
        section: "9.7.1.18",
        syntax: "brev.type",
        operands: "d: reg type, a: reg|imm type",
        sets: &[".type = { .b32, .b64 }"],
        since: "2.0 sm_20",
        ..Row::BASE
    },
    // 9.7.1.19 bfe: "bfe.type d, a, b, c"; "Operands b and c are type .u32".
    Row {
        instr: "bfe",
        id: "bfe",
        section: "9.7.1.19",
        syntax: "bfe.type",
        operands: "d: reg type, a: reg|imm type, b: reg|imm .u32, c: reg|imm .u32",
        sets: &[".type = { .u32, .u64, .s32, .s64 }"],
        since: "2.0 sm_20",
        rules: &[Rule::illegal(
            "an immediate position `b` or length `c` is in 0..255 (\"The field position and length are limited to the range 0..255\"; ptxas: \"value out of range, expected to be in range [0..255]\")",
            |b| [b.imm("b"), b.imm("c")].into_iter().flatten().any(|v| !(0..=255).contains(&v)),
        )],
        ..Row::BASE
    },
    // 9.7.1.20 bfi: "bfi.type f, a, b, c, d"; "Operands c and d are type
    // .u32".
    Row {
        instr: "bfi",
        id: "bfi",
        section: "9.7.1.20",
        syntax: "bfi.type",
        operands: "f: reg type, a: reg|imm type, b: reg|imm type, c: reg|imm .u32, d: reg|imm .u32",
        sets: &[".type = { .b32, .b64 }"],
        since: "2.0 sm_20",
        rules: &[Rule::illegal(
            "an immediate position `c` or length `d` is in 0..255 (ptxas: \"value out of range, expected to be in range [0..255]\")",
            |b| [b.imm("c"), b.imm("d")].into_iter().flatten().any(|v| !(0..=255).contains(&v)),
        )],
        ..Row::BASE
    },
    // 9.7.1.21 szext: "szext.mode.type d, a, b; .mode = { .clamp, .wrap };
    // .type = { .u32, .s32 }"; "Introduced in PTX ISA version 7.6",
    // "Requires sm_70 or higher". Operand b is `.u32`.
    Row {
        instr: "szext",
        id: "szext",
        section: "9.7.1.21",
        syntax: "szext.mode.type",
        operands: "d: reg type, a: reg|imm type, b: reg|imm .u32",
        sets: &[".mode = { .clamp, .wrap }", ".type = { .u32, .s32 }"],
        since: "7.6 sm_70",
        ..Row::BASE
    },
    // 9.7.1.22 bmsk: "bmsk.mode.b32 d, a, b"; operands a and b are `.u32`.
    Row {
        instr: "bmsk",
        id: "bmsk",
        section: "9.7.1.22",
        syntax: "bmsk.mode.b32",
        operands: "d: reg .b32, a: reg|imm .u32, b: reg|imm .u32",
        sets: &[".mode = { .clamp, .wrap }"],
        since: "7.6 sm_70",
        ..Row::BASE
    },
    // 9.7.1.23 dp4a: "dp4a.atype.btype d, a, b, c; .atype = .btype = {
    // .u32, .s32 }"; "Introduced in PTX ISA version 5.0", "Requires sm_61
    // or higher". d and c are 32-bit integers (signed when either source
    // type is).
    Row {
        instr: "dp4a",
        id: "dp4a",
        section: "9.7.1.23",
        syntax: "dp4a.atype.btype",
        operands: "d: reg .u32, a: reg|imm atype, b: reg|imm btype, c: reg|imm .u32",
        sets: &[".atype = .btype = { .u32, .s32 }"],
        since: "5.0 sm_61",
        ..Row::BASE
    },
    // 9.7.1.24 dp2a: "dp2a.mode.atype.btype d, a, b, c; .mode = { .lo, .hi }".
    Row {
        instr: "dp2a",
        id: "dp2a",
        section: "9.7.1.24",
        syntax: "dp2a.mode.atype.btype",
        operands: "d: reg .u32, a: reg|imm atype, b: reg|imm btype, c: reg|imm .u32",
        sets: &[".mode = { .lo, .hi }", ".atype = .btype = { .u32, .s32 }"],
        since: "5.0 sm_61",
        ..Row::BASE
    },
];
