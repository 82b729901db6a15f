//! PTX fundamental types (PTX ISA 5.2.2) as they appear in instruction
//! qualifiers and register declarations, and the operand type-checking rules
//! (PTX ISA 6.4, "Operand Type Information" and its relaxed rules).

/// The kind of a fundamental type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TypeKind {
    Bits,
    Unsigned,
    Signed,
    Float,
    Pred,
    /// Packed narrow or alternate float formats (`.f16x2`, `.bf16`, `.e4m3x2`,
    /// `.tf32`...): only bit-size registers (or the format itself) hold them.
    Packed,
}

/// A type name with its kind and width in bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PtxType {
    pub name: &'static str,
    pub kind: TypeKind,
    pub bits: u32,
}

const fn t(name: &'static str, kind: TypeKind, bits: u32) -> PtxType {
    PtxType { name, kind, bits }
}

use TypeKind::*;

/// Every type name PTX uses in a qualifier or a `.reg` declaration.
pub static TYPES: &[PtxType] = &TABLE;

const TABLE: [PtxType; 35] = [
    t(".pred", Pred, 1),
    t(".b8", Bits, 8),
    t(".b16", Bits, 16),
    t(".b32", Bits, 32),
    t(".b64", Bits, 64),
    t(".b128", Bits, 128),
    t(".u8", Unsigned, 8),
    t(".u16", Unsigned, 16),
    t(".u32", Unsigned, 32),
    t(".u64", Unsigned, 64),
    t(".s8", Signed, 8),
    t(".s16", Signed, 16),
    t(".s32", Signed, 32),
    t(".s64", Signed, 64),
    t(".f16", Float, 16),
    t(".f32", Float, 32),
    t(".f64", Float, 64),
    t(".f16x2", Packed, 32),
    t(".bf16", Packed, 16),
    t(".bf16x2", Packed, 32),
    t(".tf32", Packed, 32),
    t(".e4m3", Packed, 8),
    t(".e5m2", Packed, 8),
    t(".e4m3x2", Packed, 16),
    t(".e5m2x2", Packed, 16),
    t(".e4m3x4", Packed, 32),
    t(".e5m2x4", Packed, 32),
    t(".e2m3x2", Packed, 16),
    t(".e3m2x2", Packed, 16),
    t(".e2m3x4", Packed, 32),
    t(".e3m2x4", Packed, 32),
    t(".e2m1x2", Packed, 8),
    t(".e2m1x4", Packed, 16),
    t(".ue8m0x2", Packed, 16),
    t(".s2f6x2", Packed, 16),
];

/// Up to eight bytes of a name as one little-endian word.
const fn word(bytes: &[u8]) -> u64 {
    let mut w = 0u64;
    let mut i = 0;
    while i < bytes.len() && i < 8 {
        w |= (bytes[i] as u64) << (8 * i);
        i += 1;
    }
    w
}

/// Each name of the table as one word, so that a look-up compares
/// integers (every name fits in eight bytes).
static WORDS: [u64; TABLE.len()] = {
    let mut words = [0u64; TABLE.len()];
    let mut i = 0;
    while i < TABLE.len() {
        assert!(TABLE[i].name.len() <= 8);
        words[i] = word(TABLE[i].name.as_bytes());
        i += 1;
    }
    words
};

/// Looks a type name up (with its leading dot).
pub fn ptx_type(name: &str) -> Option<PtxType> {
    let bytes = name.as_bytes();
    if bytes.len() < 3 || bytes.len() > 8 || bytes[0] != b'.' {
        return None;
    }
    let key = word(bytes);
    // Equal words and equal lengths: equal names (trailing NULs aside).
    TABLE
        .iter()
        .zip(&WORDS)
        .find(|(t, w)| **w == key && t.name.len() == bytes.len())
        .map(|(t, _)| *t)
}

/// Whether a type may be used in a `.reg` declaration.
pub fn is_register_type(name: &str) -> bool {
    matches!(
        name,
        ".pred"
            | ".b8"
            | ".b16"
            | ".b32"
            | ".b64"
            | ".b128"
            | ".u8"
            | ".u16"
            | ".u32"
            | ".u64"
            | ".s8"
            | ".s16"
            | ".s32"
            | ".s64"
            | ".f16"
            | ".f16x2"
            | ".bf16"
            | ".bf16x2"
            | ".f32"
            | ".f64"
    )
}

/// How strictly an operand's register type is compared with the type the
/// instruction wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// PTX ISA 6.4.1 Table "Type checking rules": same size, and kind
    /// compatible (bit types fit anything; signed and unsigned fit each other;
    /// floats fit floats and bit types).
    Exact,
    /// PTX ISA 6.4.1.1 "Relaxed type-checking rules" for `ld`, `st`, `cvt`
    /// and friends: the register may be wider than the instruction type (for
    /// bit-size and integer registers).
    Relaxed,
}

/// Whether a register declared `reg` may stand where the instruction wants
/// a value of type `want`.
pub fn register_fits(reg: &str, want: &str, fit: Fit) -> bool {
    let (Some(r), Some(w)) = (ptx_type(reg), ptx_type(want)) else {
        return false;
    };
    if r.kind == Pred || w.kind == Pred {
        return r.kind == w.kind;
    }
    let kinds_ok = match w.kind {
        Bits => true,
        _ if fit == Fit::Relaxed && w.kind != Packed && r.kind == Bits => true,
        Unsigned | Signed => matches!(r.kind, Bits | Unsigned | Signed),
        Float => matches!(r.kind, Bits | Float),
        Packed => r.kind == Bits || r.name == w.name,
        Pred => unreachable_kind(),
    };
    if !kinds_ok {
        return false;
    }
    match fit {
        Fit::Exact => r.bits == w.bits,
        // A bit-size instruction type takes any register at least as wide
        // (ptxas 13.0 accepts `ld.b8` into an `.f32` register).
        Fit::Relaxed if w.kind == Bits => r.bits >= w.bits,
        Fit::Relaxed => {
            r.bits == w.bits || (r.bits > w.bits && matches!(r.kind, Bits | Unsigned | Signed))
        }
    }
}

const fn unreachable_kind() -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_looks_up_by_its_name_only() {
        for t in TYPES {
            assert_eq!(ptx_type(t.name), Some(*t));
            assert_eq!(ptx_type(&format!("{}\0", t.name)), None);
        }
        for bad in [
            "",
            ".",
            ".b",
            "b32",
            ".b320",
            ".b32x",
            ".pred\0",
            ".ue8m0x2y",
            "\u{e9}.b32",
        ] {
            assert_eq!(ptx_type(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn exact_rules() {
        assert!(register_fits(".b32", ".f32", Fit::Exact));
        assert!(register_fits(".u32", ".s32", Fit::Exact));
        assert!(!register_fits(".f32", ".u32", Fit::Exact));
        assert!(!register_fits(".u64", ".u32", Fit::Exact));
        assert!(register_fits(".b32", ".f16x2", Fit::Exact));
        assert!(!register_fits(".f32", ".f16x2", Fit::Exact));
        assert!(register_fits(".pred", ".pred", Fit::Exact));
        assert!(!register_fits(".b32", ".pred", Fit::Exact));
    }

    #[test]
    fn relaxed_rules() {
        assert!(register_fits(".u32", ".u8", Fit::Relaxed));
        assert!(!register_fits(".f64", ".f32", Fit::Relaxed));
        assert!(register_fits(".f32", ".b8", Fit::Relaxed));
        assert!(!register_fits(".f32", ".u8", Fit::Relaxed));
    }
}
