//! `mov` (PTX ISA 9.7.9.3) and the packing/unpacking `mov` (9.7.9.4).
//!
//! One row per operand shape of 9.7.9.3 (register or immediate, special
//! register, variable address, function address), per vector length of
//! 9.7.9.4 (`{a, b}` or `{a, b, c, d}`, as source or destination), and the
//! element-wise vector `mov.v2`/`mov.v4` of PTX ISA 6.4.3.

use crate::catalogue::{Row, Rule};

/// `.type` of 9.7.9.3.
const TYPE: &str =
    ".type = { .pred, .b16, .b32, .b64, .u16, .u32, .u64, .s16, .s32, .s64, .f32, .f64 }";

/// "`mov.f64` requires `sm_13` or higher."
const F64: (&str, &str) = ("type=.f64", "sm_13");

/// PTX ISA 5.4.2: "Vectors cannot exceed 128-bits in length; for example,
/// .v4 .f64 is not allowed."
const VECTOR_SIZE: Rule = Rule::illegal(
    "Vectors cannot exceed 128-bits in length; for example, .v4 .f64 is not allowed",
    |b| {
        let n: u32 = b
            .get("vec")
            .and_then(|v| v.strip_prefix(".v"))
            .and_then(|v| v.parse().ok())
            .unwrap_or(1);
        b.ty("type").is_some_and(|t| t.bits * n > 128)
    },
);

pub static ROWS: &[Row] = &[
    // mov.type d, a;
    Row {
        instr: "mov",
        id: "mov",
        section: "9.7.9.3",
        syntax: "mov.type",
        operands: "d: reg type, a: reg|imm type",
        sets: &[TYPE],
        needs: &[F64],
        ..Row::BASE
    },
    // mov.type d, sreg;
    Row {
        instr: "mov",
        id: "mov.sreg",
        section: "9.7.9.3",
        syntax: "mov.type",
        operands: "d: reg type, a: sreg type",
        sets: &[TYPE],
        needs: &[F64],
        ..Row::BASE
    },
    // mov.type d, avar;      // get address of variable
    // mov.type d, avar+imm;  // get address of variable with offset
    Row {
        instr: "mov",
        id: "mov.avar",
        section: "9.7.9.3",
        syntax: "mov.type",
        operands: "d: reg type, a: sym type",
        sets: &[TYPE],
        needs: &[F64],
        ..Row::BASE
    },
    // mov.u32 d, fname; mov.u64 d, fname; // get address of device function
    // "When moving address of a kernel or a device function, only .u32 or
    // .u64 instruction types are allowed. However, if a signed type is
    // used, it is not treated as a compilation error" (a warning): `.s32`
    // and `.s64` are accepted.
    Row {
        instr: "mov",
        id: "mov.fname",
        section: "9.7.9.3",
        syntax: "mov.type",
        operands: "d: reg type, a: sym type",
        sets: &[".type = { .u32, .u64, .s32, .s64 }"],
        ..Row::BASE
    },
    // mov.u32 d, kernel; mov.u64 d, kernel; // get address of entry function
    // "Taking the address of kernel entry functions requires PTX ISA
    // version 3.1 or later" and "sm_35 or higher".
    Row {
        instr: "mov",
        id: "mov.kernel",
        section: "9.7.9.3",
        syntax: "mov.type",
        operands: "d: reg type, a: sym type",
        sets: &[".type = { .u32, .u64, .s32, .s64 }"],
        since: "3.1 sm_35",
        ..Row::BASE
    },
    // 9.7.9.4: mov.type d, a; with a vector source (pack) or destination
    // (unpack). "Both the overall size of the vector and the size of the
    // scalar must match the size of the instruction type": two elements of
    // half the width, or four of a quarter.
    Row {
        instr: "mov",
        id: "mov.pack.v2",
        section: "9.7.9.4",
        syntax: "mov.type",
        operands: "d: reg type, a: vec<2> type/2",
        sets: &[".type = { .b16, .b32, .b64, .b128 }"],
        needs: &[("type=.b128", "8.3 sm_70")],
        ..Row::BASE
    },
    Row {
        instr: "mov",
        id: "mov.pack.v4",
        section: "9.7.9.4",
        syntax: "mov.type",
        operands: "d: reg type, a: vec<4> type/4",
        sets: &[".type = { .b32, .b64, .b128 }"],
        needs: &[("type=.b128", "8.3 sm_70")],
        ..Row::BASE
    },
    // "the sink symbol '_' may be used for one or more elements provided
    // that at least one element is a scalar register."
    Row {
        instr: "mov",
        id: "mov.unpack.v2",
        section: "9.7.9.4",
        syntax: "mov.type",
        operands: "d: vec<2>|sink type/2, a: reg|imm type",
        sets: &[".type = { .b16, .b32, .b64, .b128 }"],
        needs: &[("type=.b128", "8.3 sm_70")],
        ..Row::BASE
    },
    Row {
        instr: "mov",
        id: "mov.unpack.v4",
        section: "9.7.9.4",
        syntax: "mov.type",
        operands: "d: vec<4>|sink type/4, a: reg|imm type",
        sets: &[".type = { .b32, .b64, .b128 }"],
        needs: &[("type=.b128", "8.3 sm_70")],
        ..Row::BASE
    },
    // PTX ISA 6.4.3 ("Vectors as Operands"), not a syntax line of 9.7.9.3:
    // "Vector operands are supported by a limited subset of instructions,
    // which include mov, ld, st, atom, red and tex"; its example is
    // `mov.v4.f32 {a,b,c,d}, V;`. Each side is a vector register or a brace
    // list; elements move one for one.
    Row {
        instr: "mov",
        id: "mov.vec",
        section: "9.7.9.3",
        syntax: "mov.vec.type",
        operands: "d: vec<vec>|sink type, a: vec<vec> type",
        sets: &[
            ".vec = { .v2, .v4 }",
            ".type = { .b16, .b32, .b64, .u16, .u32, .u64, .s16, .s32, .s64, .f32, .f64 }",
        ],
        needs: &[F64],
        rules: &[VECTOR_SIZE],
        ..Row::BASE
    },
];

#[cfg(test)]
mod tests {
    use super::super::testing::{bad, ok};
    use crate::catalogue::Catalogue;

    /// The Examples blocks of 9.7.9.3 and 9.7.9.4.
    #[test]
    fn spec_examples_resolve() {
        for text in [
            "mov.f32", "mov.u16", "mov.u32", "mov.u64", "mov.b32", "mov.b64", "mov.b128",
        ] {
            ok(text);
        }
    }

    #[test]
    fn types() {
        for text in ["mov.pred", "mov.s16", "mov.f64", "mov.b16"] {
            ok(text);
        }
        // no 8-bit or half mov; one type only; no predicate or 256-bit
        // vectors
        for text in [
            "mov.b8",
            "mov.u8",
            "mov.f16",
            "mov.v2.pred",
            "mov.v4.f64",
            "mov.v8.u32",
            "mov.u32.u32",
            "mov",
            "mov.b32.rn",
        ] {
            bad(text);
        }
    }

    /// PTX ISA 6.4.3's example `mov.v4.f32 {a,b,c,d}, V;`.
    #[test]
    fn vector_mov() {
        for text in ["mov.v4.f32", "mov.v2.u32", "mov.v4.u16", "mov.v2.f64"] {
            ok(text);
        }
    }

    #[test]
    fn b128_is_a_pack_form_only() {
        let cat = Catalogue::get();
        let b = cat.resolve_text("mov.b128");
        assert!(b.is_ok_and(|b| b.form.row.section == "9.7.9.4"));
    }
}
