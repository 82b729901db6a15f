//! `isspacep` (PTX ISA 9.7.9.19), `cvta` (9.7.9.20), `mapa` (9.7.9.23) and
//! `getctarank` (9.7.9.24): generic and state-space addresses.

use crate::catalogue::{Fit, Row, Rule};

/// The state spaces of `isspacep` and `cvta` (the spec writes `const`
/// without its dot in 9.7.9.19; 9.7.9.20 has it).
const SPACE: &str =
    ".space = { .const, .global, .local, .shared{::cta, ::cluster}, .param{::entry} }";

/// "Introduced in PTX ISA version 2.0" and the later additions, the same
/// in 9.7.9.19 and 9.7.9.20 ("PTX ISA Notes", "Target ISA Notes").
const SPACE_NEEDS: &[(&str, &str)] = &[
    // "`isspacep.const` / `cvta.const` introduced in PTX ISA version 3.1."
    ("space=.const", "3.1"),
    // "`.param` introduced in PTX ISA version 7.7"; "`.param{::entry}`
    // requires `sm_70` or higher."
    ("space=.param", "7.7 sm_70"),
    // "sub-qualifier `::entry` on `.param` space introduced in PTX ISA
    // version 8.3."
    ("space=.param::entry", "8.3 sm_70"),
    // "`::cta` and `::cluster` sub-qualifiers introduced in PTX ISA version
    // 7.8"; "`::cta` requires `sm_30`", "`::cluster` requires `sm_90`".
    ("space=.shared::cta", "7.8 sm_30"),
    ("space=.shared::cluster", "7.8 sm_90"),
];

pub static ROWS: &[Row] = &[
    // 9.7.9.19: "Destination `p` has type `.pred`; the source address
    // operand must be of type `.u32` or `.u64`."
    Row {
        instr: "isspacep",
        id: "isspacep",
        section: "9.7.9.19",
        syntax: "isspacep.space",
        operands: "p: pred .pred, a: reg|imm .b32",
        sets: &[SPACE],
        since: "2.0 sm_20",
        needs: SPACE_NEEDS,
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // 9.7.9.20: `cvta.space.size p, a;`, `p, var;`, `p, var+imm;`
    // ("The source is either a register or a variable ... with an optional
    // offset").
    Row {
        instr: "cvta",
        id: "cvta",
        section: "9.7.9.20",
        syntax: "cvta.space.size",
        operands: "p: reg size, a: reg|imm|sym size",
        sets: &[SPACE, ".size = { .u32, .u64 }"],
        since: "2.0 sm_20",
        needs: SPACE_NEEDS,
        rules: &[Rule::illegal(
            "With `.address_size 64` a generic address is 64 bits wide: `.size` must be `.u64` (ptxas: \"Program uses 32-bit address ... conflicting with .address_size 64\")",
            |b| b.address_bits == 64 && b.is("size", ".u32"),
        )],
        ..Row::BASE
    },
    // 9.7.9.20: `cvta.to.space.size p, a;` (a register only).
    Row {
        instr: "cvta",
        id: "cvta.to",
        section: "9.7.9.20",
        syntax: "cvta.to.space.size",
        operands: "p: reg size, a: reg|imm size",
        sets: &[SPACE, ".size = { .u32, .u64 }"],
        since: "2.0 sm_20",
        needs: SPACE_NEEDS,
        rules: &[Rule::illegal(
            "With `.address_size 64` a generic address is 64 bits wide: `.size` must be `.u64` (ptxas: \"Program uses 32-bit address ... conflicting with .address_size 64\")",
            |b| b.address_bits == 64 && b.is("size", ".u32"),
        )],
        ..Row::BASE
    },
    // 9.7.9.23: `mapa.shared::cluster.type d, a, b;`, `d, sh, b;`,
    // `d, sh + imm, b;`. "`b` is a 32-bit integer operand".
    Row {
        instr: "mapa",
        id: "mapa.shared::cluster",
        section: "9.7.9.23",
        syntax: "mapa.space.type",
        operands: "d: reg type, a: reg|imm|sym type, b: reg|imm .u32",
        sets: &[".space = { .shared::cluster }", ".type = { .u32, .u64 }"],
        since: "7.8 sm_90",
        ..Row::BASE
    },
    // 9.7.9.23: `mapa.type d, a, b;` "When the optional qualifier `.space`
    // is not specified, both `a` and `d` are registers containing generic
    // addresses".
    Row {
        instr: "mapa",
        id: "mapa",
        section: "9.7.9.23",
        syntax: "mapa.type",
        operands: "d: reg type, a: reg|num type, b: reg|imm .u32",
        sets: &[".type = { .u32, .u64 }"],
        since: "7.8 sm_90",
        ..Row::BASE
    },
    // 9.7.9.24: `getctarank.shared::cluster.type d, a;`, `d, var;`,
    // `d, var + imm;`. "Destination `d` is always a 32-bit register".
    Row {
        instr: "getctarank",
        id: "getctarank.shared::cluster",
        section: "9.7.9.24",
        syntax: "getctarank.space.type",
        operands: "d: reg .b32, a: reg|imm|sym type",
        sets: &[".space = { .shared::cluster }", ".type = { .u32, .u64 }"],
        since: "7.8 sm_90",
        ..Row::BASE
    },
    // 9.7.9.24: `getctarank.type d, a;` ("`a` is a register containing a
    // generic addresses pointing to shared memory").
    Row {
        instr: "getctarank",
        id: "getctarank",
        section: "9.7.9.24",
        syntax: "getctarank.type",
        operands: "d: reg .b32, a: reg|imm|sym type",
        sets: &[".type = { .u32, .u64 }"],
        since: "7.8 sm_90",
        ..Row::BASE
    },
];

#[cfg(test)]
mod tests {
    use super::super::testing::resolves;
    use crate::catalogue::Catalogue;

    /// The "Examples" blocks of 9.7.9.19, 9.7.9.20, 9.7.9.23, 9.7.9.24.
    #[test]
    fn spec_examples_resolve() {
        for text in [
            "isspacep.const",
            "isspacep.global",
            "isspacep.local",
            "isspacep.shared",
            "isspacep.param::entry",
            "isspacep.shared::cta",
            "isspacep.shared::cluster",
            "cvta.const.u32",
            "cvta.local.u32",
            "cvta.shared::cta.u32",
            "cvta.shared::cluster.u32",
            "cvta.to.global.u32",
            "cvta.param.u64",
            "cvta.to.param::entry.u64",
            "mapa.shared::cluster.u64",
            "mapa.shared::cluster.u32",
            "mapa.u64",
            "getctarank.shared::cluster.u32",
            "getctarank.shared::cluster.u64",
            "getctarank.u64",
        ] {
            assert!(resolves(text), "{text} should resolve");
        }
    }

    /// Forms the syntax blocks leave out.
    #[test]
    fn illegal_forms() {
        for text in [
            // `.param` takes only `::entry` here.
            "isspacep.param::func",
            "cvta.param::func.u64",
            // `isspacep` has no type qualifier.
            "isspacep.global.u64",
            // A state space is required; `.size` is `.u32` or `.u64`.
            "cvta.u64",
            "cvta.global.s64",
            "cvta.global.b64",
            "cvta.to.global",
            // `mapa`/`getctarank` space is `.shared::cluster` only.
            "mapa.shared::cta.u64",
            "mapa.shared.u64",
            "getctarank.shared.u64",
            "getctarank.global.u64",
            "mapa.shared::cluster",
        ] {
            assert!(!resolves(text), "{text} should not resolve");
        }
    }

    #[test]
    fn version_notes() {
        let cat = Catalogue::get();
        let b = cat
            .resolve_text("cvta.to.param::entry.u64")
            .expect("resolves");
        let needs: Vec<&str> = b.form.row.needs.iter().map(|(w, _)| *w).collect();
        assert!(needs.contains(&"space=.param::entry"));
        let b = cat
            .resolve_text("isspacep.shared::cluster")
            .expect("resolves");
        assert_eq!(b.get("space"), Some(".shared::cluster"));
    }
}
