//! `tensormap.replace` (PTX ISA 9.7.9.26).

use crate::catalogue::{Binding, Row, Rule};

/// "Supported on following architectures: `sm_90a`, `sm_100a`, `sm_101a`
/// ... `sm_120a` ... `sm_100f` ... `sm_101f` ... `sm_120f` ... `sm_110f`."
const SINCE: &str = "8.3 sm_90a|sm_100a|sm_101a|sm_110a|sm_120a|sm_100f|sm_101f|sm_110f|sm_120f";
/// `.swizzle_atomicity` and `.elemtype` values 13..15: the same list less
/// `sm_90a`.
const SWIZZLE_ATOMICITY: &str =
    "8.6 sm_100a|sm_101a|sm_110a|sm_120a|sm_100f|sm_101f|sm_110f|sm_120f";
const ELEMTYPE_13_15: &str = "8.7 sm_100a|sm_101a|sm_110a|sm_120a|sm_100f|sm_101f|sm_110f|sm_120f";

const SS: &str = ".ss = { .global, .shared::cta }";
const TYPE: &str = ".type = { .b32, .b64 }";

/// "When `.field` is specified as `.global_address` or `.global_stride`,
/// `.type` must be `.b64`. Otherwise, `.type` must be `.b32`."
fn wrong_type(b: &Binding) -> bool {
    let wide = b.is("field1", ".global_address") || b.is("field2", ".global_stride");
    wide != b.is("type", ".b64")
}

const TYPE_RULE: Rule = Rule::illegal(
    "When `.field` is specified as `.global_address` or `.global_stride`, `.type` must be `.b64`. Otherwise, `.type` must be `.b32`.",
    wrong_type,
);

/// The last value of Table 33 ("Tensormap new_val validity") for a `.field3`.
fn field3_max(b: &Binding) -> i128 {
    match b.get("field3").unwrap_or("") {
        ".elemtype" => 15,
        ".interleave_layout" => 2,
        ".swizzle_mode" => 4,
        ".swizzle_atomicity" => 3,
        ".fill_mode" => 1,
        _ => i128::MAX,
    }
}

pub static ROWS: &[Row] = &[
    Row {
        instr: "tensormap.replace",
        id: "tensormap.replace.field1",
        section: "9.7.9.26",
        syntax: "tensormap.replace.mode.field1{.ss}.b1024.type",
        operands: "[addr]: addr, new_val: reg|imm type",
        sets: &[".mode = { .tile }", ".field1 = { .global_address, .rank }", SS, TYPE],
        since: SINCE,
        rules: &[TYPE_RULE],
        ..Row::BASE
    },
    Row {
        instr: "tensormap.replace",
        id: "tensormap.replace.field2",
        section: "9.7.9.26",
        syntax: "tensormap.replace.mode.field2{.ss}.b1024.type",
        operands: "[addr]: addr, ord: imm, new_val: reg|imm type",
        sets: &[
            ".mode = { .tile }",
            ".field2 = { .box_dim, .global_dim, .global_stride, .element_stride }",
            SS,
            TYPE,
        ],
        since: SINCE,
        rules: &[
            TYPE_RULE,
            Rule::illegal(
                "The immediate integer operand `ord` specifies the ordinal of the field across the rank of the tensor (ranks 1 to 5: `ord` is 0 to 4)",
                |b| b.imm("ord").is_some_and(|v| !(0..=4).contains(&v)),
            ),
        ],
        ..Row::BASE
    },
    // "When `.field3` is specified, the operand `new_val` must be an immediate."
    Row {
        instr: "tensormap.replace",
        id: "tensormap.replace.field3",
        section: "9.7.9.26",
        syntax: "tensormap.replace.mode.field3{.ss}.b1024.type",
        operands: "[addr]: addr, new_val: imm type",
        sets: &[
            ".mode = { .tile }",
            ".field3 = { .elemtype, .interleave_layout, .swizzle_mode, .swizzle_atomicity, .fill_mode }",
            SS,
            TYPE,
        ],
        since: SINCE,
        needs: &[("field3=.swizzle_atomicity", SWIZZLE_ATOMICITY)],
        rules: &[
            TYPE_RULE,
            Rule::illegal(
                "Table 33 (Tensormap new_val validity) shows the mapping of the operand `new_val` across various fields",
                |b| b.imm("new_val").is_some_and(|v| v < 0 || v > field3_max(b)),
            ),
            Rule::needs(
                "Qualifier `.elemtype` with values from `13` to `15`, both inclusive, is supported in PTX ISA version 8.7 onwards ... on `sm_100a`, `sm_101a`, `sm_120a`, `sm_100f` ...",
                ELEMTYPE_13_15,
                |b| b.is("field3", ".elemtype") && b.imm("new_val").is_some_and(|v| (13..=15).contains(&v)),
            ),
            Rule::needs(
                "Qualifier `.swizzle_mode` with value `4` is supported from PTX ISA version 8.8 onwards ... on `sm_103a`",
                "8.8 sm_103a",
                |b| b.is("field3", ".swizzle_mode") && b.imm("new_val") == Some(4),
            ),
        ],
        ..Row::BASE
    },
];

#[cfg(test)]
mod tests {
    use crate::catalogue::Catalogue;

    #[test]
    fn spec_example_resolves() {
        let cat = Catalogue::get();
        let text = "tensormap.replace.tile.global_address.shared::cta.b1024.b64";
        assert!(
            cat.resolve_text(text).is_ok(),
            "{:?}",
            cat.resolve_text(text).err()
        );
    }

    #[test]
    fn syntax_lines_resolve() {
        let cat = Catalogue::get();
        for text in [
            "tensormap.replace.tile.rank.b1024.b32",
            "tensormap.replace.tile.global_address.global.b1024.b64",
            "tensormap.replace.tile.box_dim.b1024.b32",
            "tensormap.replace.tile.global_stride.shared::cta.b1024.b64",
            "tensormap.replace.tile.element_stride.global.b1024.b32",
            "tensormap.replace.tile.swizzle_atomicity.b1024.b32",
            "tensormap.replace.tile.fill_mode.global.b1024.b32",
        ] {
            assert!(
                cat.resolve_text(text).is_ok(),
                "{text}: {:?}",
                cat.resolve_text(text).err()
            );
        }
    }

    #[test]
    fn spec_rules_reject() {
        let cat = Catalogue::get();
        for (text, why) in [
            (
                "tensormap.replace.tile.rank.global.b1024.b64",
                "`.rank` takes `.b32`",
            ),
            (
                "tensormap.replace.tile.global_address.b1024.b32",
                "`.global_address` takes `.b64`",
            ),
            (
                "tensormap.replace.tile.global_stride.b1024.b32",
                "`.global_stride` takes `.b64`",
            ),
            (
                "tensormap.replace.tile.global_dim.b1024.b64",
                "`.global_dim` takes `.b32`",
            ),
            (
                "tensormap.replace.tile.swizzle_mode.b1024.b64",
                "`.field3` takes `.b32`",
            ),
            (
                "tensormap.replace.im2col.rank.b1024.b32",
                "`.mode = { .tile }`",
            ),
            (
                "tensormap.replace.tile.rank.shared::cluster.b1024.b32",
                "`.ss = { .global, .shared::cta }`",
            ),
            (
                "tensormap.replace.tile.rank.global.b32",
                "`.b1024` is required",
            ),
        ] {
            assert!(
                cat.resolve_text(text).is_err(),
                "{text} should not resolve: {why}"
            );
        }
    }
}
