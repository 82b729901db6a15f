//! `multimem.ld_reduce`, `multimem.st`, `multimem.red` (PTX ISA 9.7.9.14).
//!
//! The integer and floating-point syntax blocks are separate rows; the
//! floating-point lines with `{.vec}` are split into a scalar row and a
//! vector row (`.vec` required, the value operand a vector).

use crate::catalogue::{Binding, Row, Rule};

/// ptxas 13.0: "Illegal reduction operation for instruction
/// 'multimem.ld_reduce.acc::f32'": the accumulator precision goes with
/// `.add` only (the spec's table lists `.acc` under `.add`).
const ACC_ADD_ONLY: Rule = Rule::illegal("`.acc::f32` and `.acc::f16` apply to `.add` only", |b| {
    (b.has(".acc::f32") || b.has(".acc::f16")) && !b.has(".add")
});

// ---- qualifier sets ----

const SS: &str = ".ss = { .global }";
const LDSEM: &str = ".ldsem = { .relaxed, .acquire }";
const STSEM: &str = ".stsem = { .relaxed, .release }";
const REDSEM: &str = ".redsem = { .relaxed, .release }";
const SCOPE: &str = ".scope = { .cta, .cluster, .gpu, .sys }";
const INT_OP: &str = ".op = { .min, .max, .add, .and, .or, .xor }";
const INT_TYPE: &str = ".type = { .b32, .b64, .u32, .u64, .s32, .s64 }";
const FLOAT_OP: &str = ".op = { .min, .max, .add }";
const REDOP: &str = ".redop = { .add }";
const ACC_PREC: &str = ".acc_prec = { .acc::f32, .acc::f16 }";
const VEC: &str = ".vec = { .v2, .v4, .v8 }";
const FLOAT_TYPE: &str =
    ".type = { .f16, .f16x2, .bf16, .bf16x2, .f32, .f64, .e5m2, .e5m2x2, .e5m2x4, .e4m3, .e4m3x2, .e4m3x4 }";
const REDTYPE: &str = ".redtype = { .f16, .f16x2, .bf16, .bf16x2, .f32, .f64 }";

/// The targets of the Target ISA Notes for the `.e5m2`/`.e4m3` types and
/// `.acc::f16`: sm_100a, sm_101a (sm_110a), sm_120a, sm_121a, and from PTX
/// ISA 8.8 the families sm_100f, sm_101f (sm_110f) and sm_110f.
const FP8_TARGETS: &str = "8.6 sm_100a|sm_101a|sm_110a|sm_120a|sm_121a|sm_100f|sm_110f";

// ---- helpers ----

fn is_fp8(ty: Option<&str>) -> bool {
    ty.is_some_and(|t| t.starts_with(".e5m2") || t.starts_with(".e4m3"))
}

fn is_half(ty: Option<&str>) -> bool {
    matches!(ty, Some(".f16" | ".f16x2" | ".bf16" | ".bf16x2"))
}

fn vec_len(b: &Binding) -> u32 {
    match b.get("vec") {
        Some(".v2") => 2,
        Some(".v4") => 4,
        Some(".v8") => 8,
        _ => 1,
    }
}

/// "the size of the specified type along with .vec must equal either
/// 32-bits or 64-bits or 128-bits ... Type .f64 cannot be used with .vec".
fn bad_width(b: &Binding, slot: &str) -> bool {
    let Some(t) = b.ty(slot) else {
        return false;
    };
    let total = t.bits * vec_len(b);
    !matches!(total, 32 | 64 | 128) || (t.name == ".f64" && b.get("vec").is_some())
}

// ---- rules ----

const INT_OP_TYPE: Rule = Rule::illegal(
    "valid combinations of .op and base type: .add with .u32, .u64, .s32; .and, .or, .xor with .b32, .b64; .min, .max with .u32, .s32, .u64, .s64",
    |b| {
        let ty = b.get("type").unwrap_or("");
        match b.get("op") {
            Some(".add") => !matches!(ty, ".u32" | ".u64" | ".s32"),
            Some(".and" | ".or" | ".xor") => !matches!(ty, ".b32" | ".b64"),
            Some(".min" | ".max") => !matches!(ty, ".u32" | ".s32" | ".u64" | ".s64"),
            _ => false,
        }
    },
);
const FLOAT_MINMAX: Rule = Rule::illegal(
    ".min, .max apply to .f16, .f16x2, .bf16, .bf16x2, .e5m2, .e5m2x2, .e5m2x4, .e4m3, .e4m3x2, .e4m3x4 (not .f32, .f64)",
    |b| matches!(b.get("op"), Some(".min" | ".max")) && matches!(b.get("type"), Some(".f32" | ".f64")),
);
const WIDTH: Rule = Rule::illegal(
    "the size of the specified type along with .vec must equal either 32-bits or 64-bits or 128-bits; Type .f64 cannot be used with .vec qualifier",
    |b| bad_width(b, "type"),
);
const RED_WIDTH: Rule = Rule::illegal(
    "the size of the specified type along with .vec must equal either 32-bits or 64-bits or 128-bits; Type .f64 cannot be used with .vec qualifier",
    |b| bad_width(b, "redtype"),
);
const ACC_F32: Rule = Rule::illegal(
    ".acc::f32 changes the precision of .f16, .f16x2, .bf16, .bf16x2 to .f32",
    |b| b.has(".acc::f32") && !is_half(b.get("type")),
);
const ACC_F16: Rule = Rule::illegal(
    ".acc::f16 changes the precision of .e5m2, .e4m3, .e5m2x2, .e4m3x2, .e4m3x4, .e5m2x4 to .f16",
    |b| b.has(".acc::f16") && !is_fp8(b.get("type")),
);
const FP8_NEEDS: Rule = Rule::needs(
    "Types .e5m2, .e5m2x2, .e5m2x4, .e4m3, .e4m3x2, .e4m3x4 introduced in PTX ISA version 8.6, supported on sm_100a, sm_101a, sm_120a, sm_121a and families sm_100f, sm_110f",
    FP8_TARGETS,
    |b| is_fp8(b.get("type")),
);

const ACC_NEEDS: &[(&str, &str)] = &[(".acc::f32", "8.2"), (".acc::f16", FP8_TARGETS)];

pub static ROWS: &[Row] = &[
    // ---- Integer type ----
    // multimem.ld_reduce{.ldsem.scope}{.ss}.op.type d, [a];
    Row {
        instr: "multimem.ld_reduce",
        id: "multimem.ld_reduce.int",
        section: "9.7.9.14",
        syntax: "multimem.ld_reduce{.ldsem.scope}{.ss}.op.type",
        operands: "d: reg type, [a]: addr",
        sets: &[LDSEM, SCOPE, SS, INT_OP, INT_TYPE],
        since: "8.1 sm_90",
        rules: &[INT_OP_TYPE],
        ..Row::BASE
    },
    // multimem.ld_reduce.weak{.ss}.op.type d, [a];
    Row {
        instr: "multimem.ld_reduce",
        id: "multimem.ld_reduce.int.weak",
        section: "9.7.9.14",
        syntax: "multimem.ld_reduce.weak{.ss}.op.type",
        operands: "d: reg type, [a]: addr",
        sets: &[SS, INT_OP, INT_TYPE],
        since: "8.1 sm_90",
        rules: &[INT_OP_TYPE],
        ..Row::BASE
    },
    // multimem.st{.stsem.scope}{.ss}.type [a], b;
    Row {
        instr: "multimem.st",
        id: "multimem.st.int",
        section: "9.7.9.14",
        syntax: "multimem.st{.stsem.scope}{.ss}.type",
        operands: "[a]: addr, b: reg|imm type",
        sets: &[STSEM, SCOPE, SS, INT_TYPE],
        since: "8.1 sm_90",
        ..Row::BASE
    },
    // multimem.st.weak{.ss}.type [a], b;
    Row {
        instr: "multimem.st",
        id: "multimem.st.int.weak",
        section: "9.7.9.14",
        syntax: "multimem.st.weak{.ss}.type",
        operands: "[a]: addr, b: reg|imm type",
        sets: &[SS, INT_TYPE],
        since: "8.1 sm_90",
        ..Row::BASE
    },
    // multimem.red{.redsem.scope}{.ss}.op.type [a], b;
    Row {
        instr: "multimem.red",
        id: "multimem.red.int",
        section: "9.7.9.14",
        syntax: "multimem.red{.redsem.scope}{.ss}.op.type",
        operands: "[a]: addr, b: reg|imm type",
        sets: &[REDSEM, SCOPE, SS, INT_OP, INT_TYPE],
        since: "8.1 sm_90",
        rules: &[ACC_ADD_ONLY, INT_OP_TYPE],
        ..Row::BASE
    },
    // ---- Floating point type ----
    // multimem.ld_reduce{.ldsem.scope}{.ss}.op{.acc_prec}{.vec}.type d, [a];
    Row {
        instr: "multimem.ld_reduce",
        id: "multimem.ld_reduce.float",
        section: "9.7.9.14",
        syntax: "multimem.ld_reduce{.ldsem.scope}{.ss}.op{.acc_prec}.type",
        operands: "d: reg type, [a]: addr",
        sets: &[LDSEM, SCOPE, SS, FLOAT_OP, ACC_PREC, FLOAT_TYPE],
        since: "8.1 sm_90",
        needs: ACC_NEEDS,
        rules: &[
            ACC_ADD_ONLY,
            FLOAT_MINMAX,
            WIDTH,
            ACC_F32,
            ACC_F16,
            FP8_NEEDS,
        ],
        ..Row::BASE
    },
    Row {
        instr: "multimem.ld_reduce",
        id: "multimem.ld_reduce.float.vec",
        section: "9.7.9.14",
        syntax: "multimem.ld_reduce{.ldsem.scope}{.ss}.op{.acc_prec}.vec.type",
        operands: "d: list<vec>|sink type, [a]: addr",
        sets: &[LDSEM, SCOPE, SS, FLOAT_OP, ACC_PREC, VEC, FLOAT_TYPE],
        since: "8.1 sm_90",
        needs: ACC_NEEDS,
        rules: &[
            ACC_ADD_ONLY,
            FLOAT_MINMAX,
            WIDTH,
            ACC_F32,
            ACC_F16,
            FP8_NEEDS,
        ],
        ..Row::BASE
    },
    // multimem.ld_reduce.weak{.ss}.op{.acc_prec}{.vec}.type d, [a];
    Row {
        instr: "multimem.ld_reduce",
        id: "multimem.ld_reduce.float.weak",
        section: "9.7.9.14",
        syntax: "multimem.ld_reduce.weak{.ss}.op{.acc_prec}.type",
        operands: "d: reg type, [a]: addr",
        sets: &[SS, FLOAT_OP, ACC_PREC, FLOAT_TYPE],
        since: "8.1 sm_90",
        needs: ACC_NEEDS,
        rules: &[
            ACC_ADD_ONLY,
            FLOAT_MINMAX,
            WIDTH,
            ACC_F32,
            ACC_F16,
            FP8_NEEDS,
        ],
        ..Row::BASE
    },
    Row {
        instr: "multimem.ld_reduce",
        id: "multimem.ld_reduce.float.weak.vec",
        section: "9.7.9.14",
        syntax: "multimem.ld_reduce.weak{.ss}.op{.acc_prec}.vec.type",
        operands: "d: list<vec>|sink type, [a]: addr",
        sets: &[SS, FLOAT_OP, ACC_PREC, VEC, FLOAT_TYPE],
        since: "8.1 sm_90",
        needs: ACC_NEEDS,
        rules: &[
            ACC_ADD_ONLY,
            FLOAT_MINMAX,
            WIDTH,
            ACC_F32,
            ACC_F16,
            FP8_NEEDS,
        ],
        ..Row::BASE
    },
    // multimem.st{.stsem.scope}{.ss}{.vec}.type [a], b;
    Row {
        instr: "multimem.st",
        id: "multimem.st.float",
        section: "9.7.9.14",
        syntax: "multimem.st{.stsem.scope}{.ss}.type",
        operands: "[a]: addr, b: reg|imm type",
        sets: &[STSEM, SCOPE, SS, FLOAT_TYPE],
        since: "8.1 sm_90",
        rules: &[WIDTH, FP8_NEEDS],
        ..Row::BASE
    },
    Row {
        instr: "multimem.st",
        id: "multimem.st.float.vec",
        section: "9.7.9.14",
        syntax: "multimem.st{.stsem.scope}{.ss}.vec.type",
        operands: "[a]: addr, b: list<vec> type",
        sets: &[STSEM, SCOPE, SS, VEC, FLOAT_TYPE],
        since: "8.1 sm_90",
        rules: &[WIDTH, FP8_NEEDS],
        ..Row::BASE
    },
    // multimem.st.weak{.ss}{.vec}.type [a], b;
    Row {
        instr: "multimem.st",
        id: "multimem.st.float.weak",
        section: "9.7.9.14",
        syntax: "multimem.st.weak{.ss}.type",
        operands: "[a]: addr, b: reg|imm type",
        sets: &[SS, FLOAT_TYPE],
        since: "8.1 sm_90",
        rules: &[WIDTH, FP8_NEEDS],
        ..Row::BASE
    },
    Row {
        instr: "multimem.st",
        id: "multimem.st.float.weak.vec",
        section: "9.7.9.14",
        syntax: "multimem.st.weak{.ss}.vec.type",
        operands: "[a]: addr, b: list<vec> type",
        sets: &[SS, VEC, FLOAT_TYPE],
        since: "8.1 sm_90",
        rules: &[WIDTH, FP8_NEEDS],
        ..Row::BASE
    },
    // multimem.red{.redsem.scope}{.ss}.redop{.vec}.redtype [a], b;
    Row {
        instr: "multimem.red",
        id: "multimem.red.float",
        section: "9.7.9.14",
        syntax: "multimem.red{.redsem.scope}{.ss}.redop.redtype",
        operands: "[a]: addr, b: reg|imm redtype",
        sets: &[REDSEM, SCOPE, SS, REDOP, REDTYPE],
        since: "8.1 sm_90",
        rules: &[RED_WIDTH],
        ..Row::BASE
    },
    Row {
        instr: "multimem.red",
        id: "multimem.red.float.vec",
        section: "9.7.9.14",
        syntax: "multimem.red{.redsem.scope}{.ss}.redop.vec.redtype",
        operands: "[a]: addr, b: list<vec> redtype",
        sets: &[REDSEM, SCOPE, SS, REDOP, VEC, REDTYPE],
        since: "8.1 sm_90",
        rules: &[RED_WIDTH],
        ..Row::BASE
    },
];

#[cfg(test)]
mod tests {
    use super::super::testing::instr_of;

    /// The Examples block of 9.7.9.14, except
    /// `multimem.red.relaxed.gpu.max.f64`, which its own syntax block
    /// (`.redop = { .add }`) and op table (`.min`, `.max` exclude `.f64`)
    /// rule out; see `spec_example_contradicting_syntax`.
    #[test]
    fn spec_examples_resolve() {
        for (text, instr) in [
            ("multimem.ld_reduce.and.b32", "multimem.ld_reduce"),
            (
                "multimem.ld_reduce.acquire.gpu.global.add.u32",
                "multimem.ld_reduce",
            ),
            ("multimem.st.relaxed.gpu.b32", "multimem.st"),
            ("multimem.st.release.cta.global.u32", "multimem.st"),
            ("multimem.red.release.cta.global.add.v4.f32", "multimem.red"),
            (
                "multimem.ld_reduce.add.acc::f32.v2.f16x2",
                "multimem.ld_reduce",
            ),
            (
                "multimem.ld_reduce.relaxed.cta.min.v2.e4m3x2",
                "multimem.ld_reduce",
            ),
            (
                "multimem.ld_reduce.relaxed.cta.add.v4.e4m3",
                "multimem.ld_reduce",
            ),
            (
                "multimem.ld_reduce.add.acc::f16.v4.e5m2",
                "multimem.ld_reduce",
            ),
        ] {
            assert_eq!(instr_of(text), Some(instr), "{text}");
        }
    }

    #[test]
    fn spec_example_contradicting_syntax() {
        assert_eq!(instr_of("multimem.red.relaxed.gpu.max.f64"), None);
    }

    /// The `.vec` / base float-type table of 9.7.9.14.
    #[test]
    fn vec_type_table() {
        for text in [
            "multimem.st.f16x2",
            "multimem.st.bf16x2",
            "multimem.st.f32",
            "multimem.st.f64",
            "multimem.st.e5m2x4",
            "multimem.st.e4m3x4",
            "multimem.st.v2.f16",
            "multimem.st.v2.f32",
            "multimem.st.v2.e5m2x2",
            "multimem.st.v2.e4m3x4",
            "multimem.st.v4.f16x2",
            "multimem.st.v4.f32",
            "multimem.st.v4.e5m2",
            "multimem.st.v4.e4m3x4",
            "multimem.st.v8.f16",
            "multimem.st.v8.bf16",
            "multimem.st.v8.e4m3",
            "multimem.st.v8.e5m2x2",
        ] {
            assert_eq!(instr_of(text), Some("multimem.st"), "{text}");
        }
        for text in [
            "multimem.st.f16",
            "multimem.st.bf16",
            "multimem.st.e5m2",
            "multimem.st.e4m3x2",
            "multimem.st.v2.f64",
            "multimem.st.v2.e5m2",
            "multimem.st.v4.f64",
            "multimem.st.v8.f16x2",
            "multimem.st.v8.f32",
            "multimem.st.v8.e4m3x4",
        ] {
            assert_eq!(instr_of(text), None, "{text}");
        }
    }

    #[test]
    fn spec_rules_reject() {
        for text in [
            // .op / type table
            "multimem.ld_reduce.add.b32",
            "multimem.ld_reduce.add.s64",
            "multimem.ld_reduce.and.u32",
            "multimem.red.min.b64",
            "multimem.ld_reduce.min.f32",
            "multimem.ld_reduce.max.v2.f32",
            // .redop = { .add }, .redtype has no fp8
            "multimem.red.min.f16x2",
            "multimem.red.add.e5m2x4",
            // .acc_prec only for ld_reduce and matching types
            "multimem.ld_reduce.add.acc::f32.f32",
            "multimem.ld_reduce.add.acc::f16.f16x2",
            "multimem.ld_reduce.add.acc::f32.e4m3x4",
            "multimem.st.acc::f32.f16x2",
            // semantics per instruction
            "multimem.ld_reduce.release.add.u32",
            "multimem.st.acquire.u32",
            "multimem.red.weak.add.u32",
            "multimem.red.acquire.add.u32",
            // .weak takes no scope; only .global
            "multimem.st.weak.gpu.b32",
            "multimem.st.shared.b32",
            // no integer vectors
            "multimem.st.v2.u32",
        ] {
            assert_eq!(instr_of(text), None, "{text} should not resolve");
        }
    }
}
