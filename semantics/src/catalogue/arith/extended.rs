//! Extended-precision integer arithmetic (PTX ISA 9.7.2): the carry-out
//! `.cc` forms and the carry-in `addc`, `subc`, `madc`. "32-bit add.cc
//! introduced in PTX ISA version 1.2. 64-bit add.cc introduced in PTX ISA
//! version 4.3"; "64-bit add.cc requires sm_20 or higher" (and likewise
//! for the others); "mad.cc and madc introduced in PTX ISA version 3.0",
//! "require sm_20 or higher".

use crate::catalogue::Row;

const OPS3: &str = "d: reg type, a: reg|imm type, b: reg|imm type";
const OPS4: &str = "d: reg type, a: reg|imm type, b: reg|imm type, c: reg|imm type";
const TYPES: &str = ".type = { .u32, .s32, .u64, .s64 }";
const WIDE: &[(&str, &str)] = &[("type=.u64", "4.3 sm_20"), ("type=.s64", "4.3 sm_20")];

pub static ROWS: &[Row] = &[
    // 9.7.2.1 "add.cc.type d, a, b".
    Row {
        instr: "add.cc",
        id: "add.cc",
        section: "9.7.2.1",
        syntax: "add.cc.type",
        operands: OPS3,
        sets: &[TYPES],
        since: "1.2",
        needs: WIDE,
        ..Row::BASE
    },
    // 9.7.2.2 "addc{.cc}.type d, a, b".
    Row {
        instr: "addc",
        id: "addc",
        section: "9.7.2.2",
        syntax: "addc{.cc}.type",
        operands: OPS3,
        sets: &[TYPES],
        since: "1.2",
        needs: WIDE,
        ..Row::BASE
    },
    // 9.7.2.3 "sub.cc.type d, a, b".
    Row {
        instr: "sub.cc",
        id: "sub.cc",
        section: "9.7.2.3",
        syntax: "sub.cc.type",
        operands: OPS3,
        sets: &[TYPES],
        since: "1.2",
        needs: WIDE,
        ..Row::BASE
    },
    // 9.7.2.4 "subc{.cc}.type d, a, b".
    Row {
        instr: "subc",
        id: "subc",
        section: "9.7.2.4",
        syntax: "subc{.cc}.type",
        operands: OPS3,
        sets: &[TYPES],
        since: "1.2",
        needs: WIDE,
        ..Row::BASE
    },
    // 9.7.2.5 "mad{.hi,.lo}.cc.type d, a, b, c".
    Row {
        instr: "mad.cc",
        id: "mad.cc",
        section: "9.7.2.5",
        syntax: "mad.mode.cc.type",
        operands: OPS4,
        sets: &[".mode = { .hi, .lo }", TYPES],
        since: "3.0 sm_20",
        needs: WIDE,
        ..Row::BASE
    },
    // 9.7.2.6 "madc{.hi,.lo}{.cc}.type d, a, b, c".
    Row {
        instr: "madc",
        id: "madc",
        section: "9.7.2.6",
        syntax: "madc.mode{.cc}.type",
        operands: OPS4,
        sets: &[".mode = { .hi, .lo }", TYPES],
        since: "3.0 sm_20",
        needs: WIDE,
        ..Row::BASE
    },
];
