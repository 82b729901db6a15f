//! `prefetch`, `prefetchu` (PTX ISA 9.7.9.15), `applypriority` (9.7.9.16),
//! `discard` (9.7.9.17) and `createpolicy` (9.7.9.18).

use crate::catalogue::{Row, Rule};

const SIZE_128: Rule = Rule::illegal(
    "The only supported value for the size operand is 128",
    |b| b.imm("size").is_some_and(|v| v != 128),
);

/// PTX ISA 9.7.9.18: "operand fraction ... is a value in the range (0.0, 1.0]".
const FRACTION_RANGE: Rule = Rule::illegal("`fraction` must lie in (0.0, 1.0]", |b| {
    b.float_imm("fraction")
        .is_some_and(|f| !(f > 0.0 && f <= 1.0))
});

const PRIMARY: &str =
    ".level::primary_priority = { .L2::evict_last, .L2::evict_normal, .L2::evict_first, .L2::evict_unchanged }";
const SECONDARY: &str = ".level::secondary_priority = { .L2::evict_first, .L2::evict_unchanged }";

pub static ROWS: &[Row] = &[
    // ---- prefetch, prefetchu (9.7.9.15) ----
    // prefetch{.space}.level [a];   // prefetch to data cache
    Row {
        instr: "prefetch",
        id: "prefetch",
        section: "9.7.9.15",
        syntax: "prefetch{.space}.level",
        operands: "[a]: addr",
        sets: &[".space = { .global, .local }", ".level = { .L1, .L2 }"],
        since: "2.0 sm_20",
        ..Row::BASE
    },
    // prefetch.global.level::eviction_priority [a];   // prefetch to data cache
    Row {
        instr: "prefetch",
        id: "prefetch.eviction_priority",
        section: "9.7.9.15",
        syntax: "prefetch.global.level::eviction_priority",
        operands: "[a]: addr",
        sets: &[".level::eviction_priority = { .L2::evict_last, .L2::evict_normal }"],
        since: "7.4 sm_80",
        ..Row::BASE
    },
    // prefetchu.L1 [a];   // prefetch to uniform cache
    Row {
        instr: "prefetchu",
        id: "prefetchu",
        section: "9.7.9.15",
        syntax: "prefetchu.L1",
        operands: "[a]: addr",
        since: "2.0 sm_20",
        ..Row::BASE
    },
    // prefetch{.tensormap_space}.tensormap [a];   // prefetch the tensormap
    Row {
        instr: "prefetch",
        id: "prefetch.tensormap",
        section: "9.7.9.15",
        syntax: "prefetch{.tensormap_space}.tensormap",
        operands: "[a]: addr",
        sets: &[".tensormap_space = { .const, .param }"],
        since: "8.0 sm_90",
        ..Row::BASE
    },
    // ---- applypriority (9.7.9.16) ----
    // applypriority{.global}.level::eviction_priority [a], size;
    Row {
        instr: "applypriority",
        id: "applypriority",
        section: "9.7.9.16",
        syntax: "applypriority{.global}.level::eviction_priority",
        operands: "[a]: addr, size: imm",
        sets: &[".level::eviction_priority = { .L2::evict_normal }"],
        since: "7.4 sm_80",
        rules: &[SIZE_128],
        ..Row::BASE
    },
    // ---- discard (9.7.9.17) ----
    // discard{.global}.level [a], size;
    Row {
        instr: "discard",
        id: "discard",
        section: "9.7.9.17",
        syntax: "discard{.global}.level",
        operands: "[a]: addr, size: imm",
        sets: &[".level = { .L2 }"],
        since: "7.4 sm_80",
        rules: &[SIZE_128],
        ..Row::BASE
    },
    // ---- createpolicy (9.7.9.18) ----
    // createpolicy.range{.global}.level::primary_priority{.level::secondary_priority}.b64
    //     cache-policy, [a], primary-size, total-size;
    Row {
        instr: "createpolicy",
        id: "createpolicy.range",
        section: "9.7.9.18",
        syntax: "createpolicy.range{.global}.level::primary_priority{.level::secondary_priority}.b64",
        operands: "cache-policy: reg .b64, [a]: addr, primary-size: reg|num .b32, total-size: reg|num .b32",
        sets: &[PRIMARY, SECONDARY],
        since: "7.4 sm_80",
        rules: &[Rule::illegal(
            "The value of primary-size must be less than or equal to the value of total-size",
            // 32-bit operands: `-1` is 0xffffffff.
            |b| matches!((b.imm("primary-size"), b.imm("total-size")), (Some(p), Some(t)) if p & 0xffff_ffff > t & 0xffff_ffff),
        )],
        ..Row::BASE
    },
    // createpolicy.fractional.level::primary_priority{.level::secondary_priority}.b64
    //     cache-policy{, fraction};
    Row {
        instr: "createpolicy",
        id: "createpolicy.fractional",
        section: "9.7.9.18",
        syntax: "createpolicy.fractional.level::primary_priority{.level::secondary_priority}.b64",
        operands: "cache-policy: reg .b64, fraction?: reg|num .f32",
        sets: &[PRIMARY, SECONDARY],
        since: "7.4 sm_80",
        rules: &[FRACTION_RANGE],
        ..Row::BASE
    },
    // createpolicy.cvt.L2.b64 cache-policy, access-property;
    Row {
        instr: "createpolicy",
        id: "createpolicy.cvt",
        section: "9.7.9.18",
        syntax: "createpolicy.cvt.L2.b64",
        operands: "cache-policy: reg .b64, access-property: reg|num .b64",
        since: "7.4 sm_80",
        ..Row::BASE
    },
];

#[cfg(test)]
mod tests {
    use super::super::testing::instr_of;

    /// The single-instruction lines of the Examples blocks of 9.7.9.15 to
    /// 9.7.9.18 (and the `createpolicy` lines of 9.7.9.8, 9.7.9.9, 9.7.9.11).
    #[test]
    fn spec_examples_resolve() {
        for (text, instr) in [
            ("prefetch.global.L1", "prefetch"),
            ("prefetch.global.L2::evict_last", "prefetch"),
            ("prefetchu.L1", "prefetchu"),
            ("prefetch.const.tensormap", "prefetch"),
            ("applypriority.global.L2::evict_normal", "applypriority"),
            ("discard.global.L2", "discard"),
            ("createpolicy.fractional.L2::evict_last.b64", "createpolicy"),
            (
                "createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64",
                "createpolicy",
            ),
            (
                "createpolicy.range.L2::evict_last.L2::evict_first.b64",
                "createpolicy",
            ),
            ("createpolicy.cvt.L2.b64", "createpolicy"),
        ] {
            assert_eq!(instr_of(text), Some(instr), "{text}");
        }
    }

    #[test]
    fn syntax_block_forms_resolve() {
        for text in [
            "prefetch.L2",
            "prefetch.local.L1",
            "prefetch.global.L2::evict_normal",
            "prefetch.tensormap",
            "prefetch.param.tensormap",
            "applypriority.L2::evict_normal",
            "discard.L2",
            "createpolicy.range.global.L2::evict_unchanged.b64",
            "createpolicy.fractional.L2::evict_first.L2::evict_first.b64",
        ] {
            assert!(instr_of(text).is_some(), "{text}");
        }
    }

    #[test]
    fn spec_rules_reject() {
        for text in [
            // .space = { .global, .local }; eviction priority only with .global
            "prefetch.shared.L1",
            "prefetch.L2::evict_last",
            "prefetch.local.L2::evict_last",
            "prefetch.global.L2::evict_first",
            "prefetch.global.tensormap",
            "prefetch.L3",
            // prefetchu only .L1
            "prefetchu.L2",
            "prefetchu.global.L1",
            // applypriority: only .L2::evict_normal, only .global
            "applypriority.global.L2::evict_last",
            "applypriority.shared.L2::evict_normal",
            // discard: only .L2
            "discard.global.L1",
            // createpolicy
            "createpolicy.range.L2::evict_last.L2::evict_last.b64",
            "createpolicy.fractional.L2::evict_last.b32",
            "createpolicy.fractional.global.L2::evict_last.b64",
            "createpolicy.cvt.L1.b64",
            "createpolicy.L2::evict_last.b64",
        ] {
            assert_eq!(instr_of(text), None, "{text} should not resolve");
        }
    }
}
