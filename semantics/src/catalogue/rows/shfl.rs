//! `shfl` (deprecated, PTX ISA 9.7.9.5) and `shfl.sync` (9.7.9.6).

use crate::catalogue::{Row, Rule};

pub static ROWS: &[Row] = &[
    // shfl.mode.b32 d[|p], a, b, c;
    //
    Row {
        instr: "shfl",
        id: "shfl",
        section: "9.7.9.5",
        syntax: "shfl.mode.b32",
        operands: "d|p?: reg .b32, a: reg|imm .b32, b: reg|imm .b32, c: reg|imm .b32",
        sets: &[".mode = { .up, .down, .bfly, .idx }"],
        since: "3.0 sm_30",
        rules: &[Rule::removed(
            "\"Not supported in PTX ISA version 6.4 for .target sm_70 or higher\"",
            "6.4 sm_70",
            |_| true,
        )],
        ..Row::BASE
    },
    // shfl.sync.mode.b32 d[|p], a, b, c, membermask;
    Row {
        instr: "shfl.sync",
        id: "shfl.sync",
        section: "9.7.9.6",
        syntax: "shfl.sync.mode.b32",
        operands: "d|p?: reg .b32, a: reg|imm .b32, b: reg|imm .b32, c: reg|imm .b32, membermask: reg|imm .b32",
        sets: &[".mode = { .up, .down, .bfly, .idx }"],
        since: "6.0 sm_30",
        ..Row::BASE
    },
];

#[cfg(test)]
mod tests {
    use super::super::testing::instr_of;

    /// The Examples blocks of 9.7.9.5 and 9.7.9.6.
    #[test]
    fn spec_examples_resolve() {
        assert_eq!(instr_of("shfl.up.b32"), Some("shfl"));
        assert_eq!(instr_of("shfl.down.b32"), Some("shfl"));
        assert_eq!(instr_of("shfl.bfly.b32"), Some("shfl"));
        assert_eq!(instr_of("shfl.sync.up.b32"), Some("shfl.sync"));
        assert_eq!(instr_of("shfl.sync.idx.b32"), Some("shfl.sync"));
    }

    #[test]
    fn spec_rules_reject() {
        for text in [
            "shfl.sync.b32",
            "shfl.up.b64",
            "shfl.sync.up.u32",
            "shfl.sync.up.down.b32",
            "shfl.sync.bfly",
        ] {
            assert_eq!(instr_of(text), None, "{text} should not resolve");
        }
    }
}
