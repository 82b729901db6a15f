//! `prmt` (PTX ISA 9.7.9.7).

use crate::catalogue::Row;

pub static ROWS: &[Row] = &[Row {
    instr: "prmt",
    id: "prmt",
    section: "9.7.9.7",
    syntax: "prmt.b32{.mode}",
    operands: "d: reg .b32, a: reg|imm .b32, b: reg|imm .b32, c: reg|imm .b32",
    sets: &[".mode = { .f4e, .b4e, .rc8, .ecl, .ecr, .rc16 }"],
    since: "2.0 sm_20",
    ..Row::BASE
}];
