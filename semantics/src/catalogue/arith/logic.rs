//! Logic and shift instructions (PTX ISA 9.7.7).

use crate::catalogue::{Binding, Row, Rule};

/// 9.7.7.6: "immLut ... an integer constant" (ptxas 13.0: "Arguments
/// mismatch" for a floating-point constant; it takes any integer, masking
/// it to eight bits).
fn lut_is_float(b: &Binding) -> bool {
    b.float_imm("immLut").is_some()
}

const LUT: &[Rule] = &[Rule::illegal(
    "`immLut` is an integer constant",
    lut_is_float,
)];

pub static ROWS: &[Row] = &[
    // 9.7.7.1-3 and, or, xor: "and.type d, a, b; .type = { .pred, .b16,
    // .b32, .b64 }"; the `.pred` forms take predicates (a source may be
    // negated, `!p`).
    Row {
        instr: "and",
        id: "and",
        section: "9.7.7.1",
        syntax: "and.type",
        operands: "d: reg type, a: reg|imm type, b: reg|imm type",
        sets: &[".type = { .b16, .b32, .b64 }"],
        ..Row::BASE
    },
    Row {
        instr: "and",
        id: "and.pred",
        section: "9.7.7.1",
        syntax: "and.pred",
        operands: "d: pred, a: pred|imm .pred, b: pred|imm .pred",
        ..Row::BASE
    },
    Row {
        instr: "or",
        id: "or",
        section: "9.7.7.2",
        syntax: "or.type",
        operands: "d: reg type, a: reg|imm type, b: reg|imm type",
        sets: &[".type = { .b16, .b32, .b64 }"],
        ..Row::BASE
    },
    Row {
        instr: "or",
        id: "or.pred",
        section: "9.7.7.2",
        syntax: "or.pred",
        operands: "d: pred, a: pred|imm .pred, b: pred|imm .pred",
        ..Row::BASE
    },
    Row {
        instr: "xor",
        id: "xor",
        section: "9.7.7.3",
        syntax: "xor.type",
        operands: "d: reg type, a: reg|imm type, b: reg|imm type",
        sets: &[".type = { .b16, .b32, .b64 }"],
        ..Row::BASE
    },
    Row {
        instr: "xor",
        id: "xor.pred",
        section: "9.7.7.3",
        syntax: "xor.pred",
        operands: "d: pred, a: pred|imm .pred, b: pred|imm .pred",
        ..Row::BASE
    },
    // 9.7.7.4 not: "not.type d, a; .type = { .pred, .b16, .b32, .b64 }";
    // 9.7.7.5 cnot: "cnot.type d, a; .type = { .b16, .b32, .b64 }".
    Row {
        instr: "not",
        id: "not",
        section: "9.7.7.4",
        syntax: "not.type",
        operands: "d: reg type, a: reg|imm type",
        sets: &[".type = { .b16, .b32, .b64 }"],
        ..Row::BASE
    },
    Row {
        instr: "not",
        id: "not.pred",
        section: "9.7.7.4",
        syntax: "not.pred",
        operands: "d: pred, a: pred|imm .pred",
        ..Row::BASE
    },
    Row {
        instr: "cnot",
        id: "cnot",
        section: "9.7.7.5",
        syntax: "cnot.type",
        operands: "d: reg type, a: reg|imm type",
        sets: &[".type = { .b16, .b32, .b64 }"],
        ..Row::BASE
    },
    // 9.7.7.6 lop3: "lop3.b32 d, a, b, c, immLut; lop3.BoolOp.b32 d|p, a,
    // b, c, immLut, q; .BoolOp = { .or, .and }"; "Introduced in PTX ISA
    // version 4.3", "Requires sm_50 or higher"; the `.BoolOp` form
    // "introduced in PTX ISA version 8.2".
    Row {
        instr: "lop3",
        id: "lop3",
        section: "9.7.7.6",
        syntax: "lop3.b32",
        operands: "d: reg .b32, a: reg|imm .b32, b: reg|imm .b32, c: reg|imm .b32, immLut: imm .b32",
        since: "4.3 sm_50",
        rules: LUT,
        ..Row::BASE
    },
    Row {
        instr: "lop3",
        id: "lop3.bool",
        section: "9.7.7.6",
        syntax: "lop3.bool.b32",
        operands: "d|p: reg .b32, a: reg|imm .b32, b: reg|imm .b32, c: reg|imm .b32, immLut: imm .b32, q: pred|imm .pred",
        sets: &[".bool = { .or, .and }"],
        since: "8.2 sm_50",
        rules: LUT,
        ..Row::BASE
    },
    // 9.7.7.7 shf: "shf.l.mode.b32 d, a, b, c; shf.r.mode.b32 d, a, b, c;
    // .mode = { .clamp, .wrap }"; "c ... .u32"; "Introduced in PTX ISA
    // version 3.1", "Requires sm_32 or higher".
    Row {
        instr: "shf",
        id: "shf",
        section: "9.7.7.7",
        syntax: "shf.dir.mode.b32",
        operands: "d: reg .b32, a: reg|imm .b32, b: reg|imm .b32, c: reg|imm .u32",
        sets: &[".dir = { .l, .r }", ".mode = { .clamp, .wrap }"],
        since: "3.1 sm_32",
        ..Row::BASE
    },
    // 9.7.7.8 shl: "shl.type d, a, b; .type = { .b16, .b32, .b64 }";
    // "b is a 32-bit unsigned integer" (`.u32`).
    Row {
        instr: "shl",
        id: "shl",
        section: "9.7.7.8",
        syntax: "shl.type",
        operands: "d: reg type, a: reg|imm type, b: reg|imm .u32",
        sets: &[".type = { .b16, .b32, .b64 }"],
        ..Row::BASE
    },
    // 9.7.7.9 shr: "shr.type d, a, b; .type = { .b16, .b32, .b64, .u16,
    // .u32, .u64, .s16, .s32, .s64 }".
    Row {
        instr: "shr",
        id: "shr",
        section: "9.7.7.9",
        syntax: "shr.type",
        operands: "d: reg type, a: reg|imm type, b: reg|imm .u32",
        sets: &[".type = { .b16, .b32, .b64, .u16, .u32, .u64, .s16, .s32, .s64 }"],
        ..Row::BASE
    },
];
