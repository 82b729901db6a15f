//! `tensormap.replace` (PTX ISA 9.7.9.26) as pure functions on the modelled
//! tensor map: the fields a form names, what a new value does to the map,
//! and which replacements have no defined result. Where the map lives (the
//! state space, the address window), the weak 1024-bit write and the proxy
//! fences before a copy uses the map are the caller's (the simulator's).
//!
//! When the rules are checked:
//! - at the replace ([`replace`], [`ReplaceError`]): the form (`.tile` on a
//!   tiled map, `ord` where the form takes one and within the rank), the
//!   width of `new_val`, and the range of the one field written, where a
//!   tensor map has no way to hold the value (Table 33's `x` entries, a rank
//!   past 5, and the driver's ranges of each field, which the spec of
//!   `tensormap.replace` does not repeat);
//! - at the use, by [`TensorMap::validate`] (and [`TensorMap::validate_on`]
//!   for the target): every rule that ties two fields together (alignments
//!   that depend on the type or interleave, the box's inner size against
//!   the swizzle span, OOB-NaN fill on a float type, ...). A map is
//!   replaced one field at a time, so it may pass through such invalid
//!   states on the way to a valid one.
//!
//! [`RULES`] lists every rule with its sentence and where it is checked.
//! docs/tensormap-replace.md compares these functions with an H100
//! (corpus/tensor/sm_90/replace-probe.jsonl.gz) and lists where it parts
//! from the spec.

use super::map::{Atomicity, DataType, Interleave, MapError, Mode, OobFill, Swizzle, TensorMap};
use crate::catalogue::{PtxVersion, Requirement, Target};
use std::fmt;

/// The three groups of `.field` qualifiers and their operands (PTX ISA
/// 9.7.9.26, Syntax): `.field1` and `.field3` take `[addr], new_val`,
/// `.field2` `[addr], ord, new_val`; a `.field3` `new_val` is an immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Group {
    Field1,
    Field2,
    Field3,
}

/// The type of `new_val` (`.type = { .b32, .b64 }`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OperandType {
    B32,
    B64,
}

impl OperandType {
    pub fn name(self) -> &'static str {
        match self {
            OperandType::B32 => ".b32",
            OperandType::B64 => ".b64",
        }
    }
}

/// A field `tensormap.replace` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Field {
    GlobalAddress,
    Rank,
    BoxDim,
    GlobalDim,
    GlobalStride,
    ElementStride,
    ElemType,
    InterleaveLayout,
    SwizzleMode,
    SwizzleAtomicity,
    FillMode,
}

struct FieldRow {
    field: Field,
    qualifier: &'static str,
    group: Group,
    ty: OperandType,
}

const fn row(field: Field, qualifier: &'static str, group: Group, ty: OperandType) -> FieldRow {
    FieldRow {
        field,
        qualifier,
        group,
        ty,
    }
}

/// One row a field: its qualifier, group and `new_val` type ("When `.field`
/// is specified as `.global_address` or `.global_stride`, `.type` must be
/// `.b64`. Otherwise, `.type` must be `.b32`.").
#[rustfmt::skip]
const FIELDS: [FieldRow; 11] = [
    row(Field::GlobalAddress,    ".global_address",    Group::Field1, OperandType::B64),
    row(Field::Rank,             ".rank",              Group::Field1, OperandType::B32),
    row(Field::BoxDim,           ".box_dim",           Group::Field2, OperandType::B32),
    row(Field::GlobalDim,        ".global_dim",        Group::Field2, OperandType::B32),
    row(Field::GlobalStride,     ".global_stride",     Group::Field2, OperandType::B64),
    row(Field::ElementStride,    ".element_stride",    Group::Field2, OperandType::B32),
    row(Field::ElemType,         ".elemtype",          Group::Field3, OperandType::B32),
    row(Field::InterleaveLayout, ".interleave_layout", Group::Field3, OperandType::B32),
    row(Field::SwizzleMode,      ".swizzle_mode",      Group::Field3, OperandType::B32),
    row(Field::SwizzleAtomicity, ".swizzle_atomicity", Group::Field3, OperandType::B32),
    row(Field::FillMode,         ".fill_mode",         Group::Field3, OperandType::B32),
];

impl Field {
    /// Every field, in the spec's order.
    pub const ALL: [Field; 11] = [
        Field::GlobalAddress,
        Field::Rank,
        Field::BoxDim,
        Field::GlobalDim,
        Field::GlobalStride,
        Field::ElementStride,
        Field::ElemType,
        Field::InterleaveLayout,
        Field::SwizzleMode,
        Field::SwizzleAtomicity,
        Field::FillMode,
    ];

    fn row(self) -> &'static FieldRow {
        &FIELDS[self as usize]
    }

    /// The qualifier, `.box_dim`.
    pub fn qualifier(self) -> &'static str {
        self.row().qualifier
    }

    /// The field of a qualifier (with or without its dot).
    pub fn from_qualifier(q: &str) -> Option<Field> {
        let q = q.strip_prefix('.').unwrap_or(q);
        FIELDS
            .iter()
            .find(|r| &r.qualifier[1..] == q)
            .map(|r| r.field)
    }

    pub fn group(self) -> Group {
        self.row().group
    }

    /// The type `new_val` must have.
    pub fn operand_type(self) -> OperandType {
        self.row().ty
    }

    /// Whether the form takes an `ord` operand (`.field2`).
    pub fn takes_ord(self) -> bool {
        self.group() == Group::Field2
    }

    /// Whether `new_val` must be an immediate (`.field3`).
    pub fn needs_immediate(self) -> bool {
        self.group() == Group::Field3
    }

    /// The largest `new_val` Table 33 gives the field (`.field3` only).
    pub fn table_max(self) -> Option<u64> {
        Some(match self {
            Field::ElemType => 15,
            Field::InterleaveLayout => 2,
            Field::SwizzleMode => 4,
            Field::SwizzleAtomicity => 3,
            Field::FillMode => 1,
            _ => return None,
        })
    }
}

/// One `tensormap.replace`: the field, `ord` (0 for the forms without
/// one) and `new_val` (a `.b32` value in the low 32 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Replace {
    pub field: Field,
    pub ord: u32,
    pub value: u64,
}

/// Where a rule is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum When {
    /// By [`replace`]: the replace has no defined result (or the form is
    /// illegal).
    Replace,
    /// By [`TensorMap::validate`] when a copy uses the map.
    Use,
    /// By the caller: the address, the form's text, the memory model.
    Caller,
}

/// A rule of `tensormap.replace`: an id, where it is checked, its source
/// and its sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    pub id: &'static str,
    pub when: When,
    pub source: &'static str,
    pub text: &'static str,
}

const PTX: &str = "PTX ISA 9.7.9.26";
const PTX_TABLE: &str = "PTX ISA 9.7.9.26, Table 33";
const DRIVER: &str =
    "CUDA driver API 6.30, cuTensorMapEncodeTiled (the spec of tensormap.replace gives no range)";

const fn rule(id: &'static str, when: When, source: &'static str, text: &'static str) -> Rule {
    Rule {
        id,
        when,
        source,
        text,
    }
}

/// Every rule, one line each.
#[rustfmt::skip]
pub const RULES: &[Rule] = &[
    rule("mode", When::Replace, PTX, "Qualifier `.mode` specifies the mode of the tensor-map object located at the address operand `addr`. (`.mode = { .tile }`)"),
    rule("type", When::Caller, PTX, "When `.field` is specified as `.global_address` or `.global_stride`, `.type` must be `.b64`. Otherwise, `.type` must be `.b32`."),
    rule("width", When::Replace, PTX, "Operand `new_val` has the type `.type`."),
    rule("no-ord", When::Replace, PTX, "tensormap.replace.mode.field1{.ss}.b1024.type [addr], new_val; tensormap.replace.mode.field3{.ss}.b1024.type [addr], new_val;"),
    rule("ord", When::Replace, PTX, "The immediate integer operand `ord` specifies the ordinal of the field across the rank of the tensor which needs to be replaced in the tensor-map object."),
    rule("rank", When::Replace, PTX, "For field `.rank`, the operand `new_val` must be ones less than the desired tensor rank as this field uses zero-based numbering. (With the driver's range: tensorRank must be non-zero and less than or equal to the maximum supported dimensionality of 5.)"),
    rule("table-33", When::Replace, PTX_TABLE, "When `.field3` is specified, the operand `new_val` must be an immediate and the Table 33 shows the mapping of the operand `new_val` across various fields. (`x`: no value.)"),
    rule("immediate", When::Caller, PTX, "When `.field3` is specified, the operand `new_val` must be an immediate"),
    rule("global-address", When::Replace, DRIVER, "globalAddress, which specifies the starting address of the memory region described, must be 16 byte aligned"),
    rule("global-dim", When::Replace, DRIVER, "globalDim array, which specifies tensor size of each of the tensorRank dimensions, must be non-zero and less than or equal to 2^32"),
    rule("global-stride", When::Replace, DRIVER, "globalStrides array, which specifies tensor stride of each of the lower tensorRank - 1 dimensions in bytes, must be a multiple of 16 and less than 2^40"),
    rule("box-dim", When::Replace, DRIVER, "boxDim array, which specifies number of elements to be traversed along each of the tensorRank dimensions, must be non-zero and less than or equal to 256"),
    rule("element-stride", When::Replace, DRIVER, "elementStrides array, which specifies the iteration step along each of the tensorRank dimensions, must be non-zero and less than or equal to 8"),
    rule("encoding", When::Replace, "our tensor map encoding (semantics/src/tensor/map.rs)", "the 128 bytes at `addr` must be a tensor map (replace_bytes reads only our encoding)"),
    rule("valid-map", When::Use, "TensorMap::validate, validate_on", "the rules of a valid tensor map that tie fields together (alignments by type and interleave, the box's inner size and the swizzle span, OOB-NaN fill on float types, swizzle atomicity, the target's types and modes)"),
    rule("window", When::Caller, PTX, "If the address specified by `addr` does not fall within the address window of `.global` or `.shared::cta` state space then the behavior is undefined."),
    rule("map-align", When::Caller, "CUDA driver API 6.30, cuTensorMapEncodeTiled (the spec of tensormap.replace states no alignment; an H100 faults on a replace at a 16-byte aligned map)", "tensorMap address must be aligned to 64 bytes"),
    rule("weak", When::Caller, PTX, "`tensormap.replace` is treated as a weak memory operation, on the entire 1024-bit opaque tensor-map object, in the Memory Consistency Model."),
    rule("proxy", When::Caller, "PTX ISA 9.7.9.25.5.2", "The `tensorMap` is accessed in tensormap proxy. (A copy sees a replaced map only after a fence.proxy.tensormap::generic release/acquire pattern.)"),
];

/// The rule of an id (a test checks every id used here is in [`RULES`]).
fn rule_of(id: &str) -> &'static Rule {
    RULES.iter().find(|r| r.id == id).unwrap_or(&RULES[0])
}

/// Why a `tensormap.replace` has no defined result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplaceError {
    /// `.tile` on a map of another mode (`.mode` names the map's mode).
    WrongMode,
    /// A `.b32` `new_val` with bits past 32.
    ValueTooWide { field: Field, value: u64 },
    /// An `ord` other than 0 on a form that takes none.
    UnexpectedOrd { field: Field, ord: u32 },
    /// `ord` not an ordinal of the field across the map's rank: `ord <
    /// rank` (`ord < rank - 1` for `.global_stride`, whose entries are the
    /// strides of dimensions 1 to rank-1). The strict reading of the
    /// sentence: an H100 keeps such a value and a later raise of the rank
    /// brings it in (docs/tensormap-replace.md).
    OrdBeyondRank { field: Field, ord: u32, rank: u32 },
    /// `.rank` with `new_val` past 4 (a rank past 5).
    RankOutOfRange { value: u64 },
    /// A `.field3` value Table 33 marks `x`.
    NotInTable { field: Field, value: u64 },
    /// A value outside the field's range (the driver's).
    OutOfRange { field: Field, ord: u32, value: u64 },
    /// [`replace_bytes`] on bytes that are not our encoding of a map.
    NotOurEncoding(MapError),
}

impl ReplaceError {
    /// The rule broken ([`RULES`]).
    pub fn rule(&self) -> &'static Rule {
        rule_of(match self {
            ReplaceError::WrongMode => "mode",
            ReplaceError::ValueTooWide { .. } => "width",
            ReplaceError::UnexpectedOrd { .. } => "no-ord",
            ReplaceError::OrdBeyondRank { .. } => "ord",
            ReplaceError::RankOutOfRange { .. } => "rank",
            ReplaceError::NotInTable { .. } => "table-33",
            ReplaceError::OutOfRange { field, .. } => match field {
                Field::GlobalAddress => "global-address",
                Field::GlobalDim => "global-dim",
                Field::GlobalStride => "global-stride",
                Field::BoxDim => "box-dim",
                _ => "element-stride",
            },
            ReplaceError::NotOurEncoding(_) => "encoding",
        })
    }
}

impl fmt::Display for ReplaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self.rule();
        match self {
            ReplaceError::WrongMode => {
                write!(f, "tensormap.replace.tile on a map that is not tiled")
            }
            ReplaceError::ValueTooWide { field, value } => {
                write!(
                    f,
                    "tensormap.replace{}: new_val {value:#x} is wider than .b32",
                    field.qualifier()
                )
            }
            ReplaceError::UnexpectedOrd { field, ord } => {
                write!(
                    f,
                    "tensormap.replace{} takes no ord (given {ord})",
                    field.qualifier()
                )
            }
            ReplaceError::OrdBeyondRank { field, ord, rank } => {
                write!(
                    f,
                    "tensormap.replace{}: ord {ord} on a rank-{rank} map",
                    field.qualifier()
                )
            }
            ReplaceError::RankOutOfRange { value } => {
                write!(
                    f,
                    "tensormap.replace.rank: new_val {value} (rank {})",
                    value.saturating_add(1)
                )
            }
            ReplaceError::NotInTable { field, value } => {
                write!(
                    f,
                    "tensormap.replace{}: new_val {value} is not in Table 33",
                    field.qualifier()
                )
            }
            ReplaceError::OutOfRange { field, ord, value } => {
                write!(
                    f,
                    "tensormap.replace{} ord {ord}: new_val {value:#x}",
                    field.qualifier()
                )
            }
            ReplaceError::NotOurEncoding(e) => {
                write!(f, "tensormap.replace on bytes that are not a map: {e}")
            }
        }?;
        write!(f, ": {} ({})", r.text, r.source)
    }
}

impl std::error::Error for ReplaceError {}

impl Replace {
    pub fn new(field: Field, ord: u32, value: u64) -> Replace {
        Replace { field, ord, value }
    }

    /// The form's `.type` rule ("When `.field` is specified as
    /// `.global_address` or `.global_stride`, `.type` must be `.b64`.
    /// Otherwise, `.type` must be `.b32`."): a form breaking it is illegal
    /// (the catalogue's row refuses its text). `Err` carries the type the
    /// field takes.
    pub fn check_type(&self, ty: OperandType) -> Result<(), OperandType> {
        let need = self.field.operand_type();
        if ty == need {
            Ok(())
        } else {
            Err(need)
        }
    }

    /// The PTX ISA version and targets this replacement needs (PTX ISA
    /// 9.7.9.26, PTX ISA Notes and Target ISA Notes).
    pub fn needs(&self) -> Needs {
        match (self.field, self.value) {
            (Field::SwizzleAtomicity, _) => NEEDS_ATOMICITY,
            (Field::ElemType, 13..=15) => NEEDS_SUB_BYTE,
            (Field::SwizzleMode, 4) => NEEDS_SWIZZLE_96,
            _ => NEEDS_BASE,
        }
    }
}

/// A requirement on the PTX ISA version and target, as data: the
/// catalogue's notation (`"8.6 sm_100a|sm_101a"`) and the sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Needs {
    pub notation: &'static str,
    pub rule: &'static str,
}

impl Needs {
    pub fn requirement(&self) -> Requirement {
        Requirement::parse(self.notation).unwrap_or_default()
    }

    /// Whether a module of `.version ptx` for `.target target` may use it.
    pub fn allows(&self, target: Target, ptx: PtxVersion) -> bool {
        let r = self.requirement();
        r.allows_target(target) && r.allows_ptx(ptx)
    }
}

/// "Introduced in PTX ISA version 8.3." "Supported on following
/// architectures: `sm_90a`, `sm_100a`, `sm_101a` (Renamed to `sm_110a`
/// from PTX ISA version 9.0), `sm_120a`, and ... `sm_100f` or higher in
/// the same family, `sm_101f` ... `sm_120f` ..., `sm_110f` or higher in the
/// same family."
pub const NEEDS_BASE: Needs = Needs {
    notation: "8.3 sm_90a|sm_100a|sm_101a|sm_110a|sm_120a|sm_100f|sm_101f|sm_110f|sm_120f",
    rule: "Introduced in PTX ISA version 8.3. Supported on sm_90a, sm_100a, sm_101a (sm_110a), sm_120a, and the families sm_100f, sm_101f (sm_110f), sm_120f from PTX ISA version 8.8",
};

/// "Qualifier `.swizzle_atomicity` introduced in PTX ISA version 8.6." and
/// supported on the same targets but `sm_90a`.
pub const NEEDS_ATOMICITY: Needs = Needs {
    notation: "8.6 sm_100a|sm_101a|sm_110a|sm_120a|sm_100f|sm_101f|sm_110f|sm_120f",
    rule: "Qualifier .swizzle_atomicity introduced in PTX ISA version 8.6. Qualifier .swizzle_atomicity is supported on following architectures: sm_100a, sm_101a, sm_120a, sm_100f, sm_101f, sm_120f, sm_110f",
};

/// "Qualifier `.elemtype` with values from `13` to `15`, both inclusive, is
/// supported in PTX ISA version 8.7 onwards." and on the same targets but
/// `sm_90a`.
pub const NEEDS_SUB_BYTE: Needs = Needs {
    notation: "8.7 sm_100a|sm_101a|sm_110a|sm_120a|sm_100f|sm_101f|sm_110f|sm_120f",
    rule: "Qualifier .elemtype with values from 13 to 15, both inclusive, is supported in PTX ISA version 8.7 onwards. .field3 variant .elemtype corresponding to new_val values 13, 14 and 15 is supported on following architectures: sm_100a, sm_101a, sm_120a, sm_100f, sm_101f, sm_120f, sm_110f",
};

/// "Qualifier `.swizzle_mode` with value `4` is supported from PTX ISA
/// version 8.8 onwards." "... supported on following architectures:
/// `sm_103a`".
pub const NEEDS_SWIZZLE_96: Needs = Needs {
    notation: "8.8 sm_103a",
    rule: "Qualifier .swizzle_mode with value 4 is supported from PTX ISA version 8.8 onwards. .field3 variant .swizzle_mode corresponding to new_val value 4 is supported on following architectures: sm_103a",
};

/// The map with one field replaced, or why the replace has no defined
/// result (PTX ISA 9.7.9.26). The result may break [`TensorMap::validate`]'s
/// rules that tie fields together: a copy refuses it then, not the replace.
///
/// - `.rank`: `new_val` is the rank less one ("this field uses zero-based
///   numbering"). Raising the rank brings back the entries the map holds
///   past its old rank; past the lower of the two ranks an entry of 0 is
///   one never set, and reads as 1 ([`TensorMap::set_unset_entries`]), as
///   our encoding reads it.
/// - `.box_dim`, `.global_dim`, `.element_stride`: entry `ord` of the
///   array, the value itself (not less one, as `.rank`'s). `.global_stride`:
///   entry `ord` of `globalStrides`, the stride of dimension `ord + 1` in
///   bytes (the driver's array; the spec does not say which stride `ord` 0
///   names). An H100 agrees on all of these.
/// - `.elemtype`: Table 33's code, not the driver's ([`DataType::from_ptx`]).
///   (An H100 keeps `.tf32` rounding, or faults, when a map of type `.tf32`
///   or `.tf32.ftz` gets another type: a hardware divergence from the
///   table, docs/tensormap-replace.md.)
pub fn replace(map: &TensorMap, r: &Replace) -> Result<TensorMap, ReplaceError> {
    if map.mode != Mode::Tiled {
        return Err(ReplaceError::WrongMode);
    }
    let field = r.field;
    let ord = r.ord;
    let value = r.value;
    if field.takes_ord() {
        let entries = if field == Field::GlobalStride {
            map.rank.saturating_sub(1)
        } else {
            map.rank
        };
        if ord >= entries {
            return Err(ReplaceError::OrdBeyondRank {
                field,
                ord,
                rank: map.rank,
            });
        }
    } else if ord != 0 {
        return Err(ReplaceError::UnexpectedOrd { field, ord });
    }
    if field.operand_type() == OperandType::B32 && value > u32::MAX as u64 {
        return Err(ReplaceError::ValueTooWide { field, value });
    }
    let out_of_range = || ReplaceError::OutOfRange { field, ord, value };
    let not_in_table = || ReplaceError::NotInTable { field, value };
    let i = ord as usize;
    let mut m = *map;
    match field {
        Field::GlobalAddress => {
            if !value.is_multiple_of(16) {
                return Err(out_of_range());
            }
            m.global_address = value;
        }
        Field::Rank => {
            if value > 4 {
                return Err(ReplaceError::RankOutOfRange { value });
            }
            m.rank = value as u32 + 1;
            m.set_unset_entries(map.rank.min(m.rank) as usize);
        }
        Field::BoxDim => {
            if !(1..=256).contains(&value) {
                return Err(out_of_range());
            }
            m.box_dims[i] = value as u32;
        }
        Field::GlobalDim => {
            if !(1..=1 << 32).contains(&value) {
                return Err(out_of_range());
            }
            m.global_dims[i] = value;
        }
        Field::GlobalStride => {
            if !value.is_multiple_of(16) || value >= 1 << 40 {
                return Err(out_of_range());
            }
            m.global_strides[i] = value;
        }
        Field::ElementStride => {
            if !(1..=8).contains(&value) {
                return Err(out_of_range());
            }
            m.element_strides[i] = value as u32;
        }
        Field::ElemType => {
            m.data_type = DataType::from_ptx(value as u32).ok_or_else(not_in_table)?;
        }
        Field::InterleaveLayout => {
            m.interleave = Interleave::from_code(value as u32).ok_or_else(not_in_table)?;
        }
        Field::SwizzleMode => {
            m.swizzle = Swizzle::from_code(value as u32).ok_or_else(not_in_table)?;
        }
        Field::SwizzleAtomicity => {
            m.atomicity = Atomicity::from_code(value as u32).ok_or_else(not_in_table)?;
        }
        Field::FillMode => {
            m.oob_fill = OobFill::from_code(value as u32).ok_or_else(not_in_table)?;
        }
    }
    Ok(m)
}

/// [`replace`] on a map held in memory in our encoding
/// ([`TensorMap::to_bytes`]): read, replace, write back. Bytes that are not
/// our encoding have no defined result; on any error the bytes are left as
/// they were.
pub fn replace_bytes(bytes: &mut [u8; 128], r: &Replace) -> Result<(), ReplaceError> {
    let map = TensorMap::from_bytes(bytes).map_err(ReplaceError::NotOurEncoding)?;
    *bytes = replace(&map, r)?.to_bytes();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tensor::map::Im2col;

    /// A valid rank-3 f32 map: dims 64 x 8 x 4, box 16 x 4 x 2.
    fn map3() -> TensorMap {
        TensorMap {
            data_type: DataType::F32,
            rank: 3,
            global_address: 0x1000,
            global_dims: [64, 8, 4, 1, 1],
            global_strides: [256, 2048, 0, 0],
            box_dims: [16, 4, 2, 1, 1],
            element_strides: [1, 1, 2, 1, 1],
            ..TensorMap::default()
        }
    }

    fn rep(field: Field, ord: u32, value: u64) -> Replace {
        Replace::new(field, ord, value)
    }

    fn ok(map: &TensorMap, field: Field, ord: u32, value: u64) -> TensorMap {
        replace(map, &rep(field, ord, value)).unwrap_or_else(|e| panic!("{e}"))
    }

    fn err(map: &TensorMap, field: Field, ord: u32, value: u64) -> ReplaceError {
        replace(map, &rep(field, ord, value)).expect_err("the replace should be refused")
    }

    #[test]
    fn fields_match_the_catalogue() {
        let cat = crate::catalogue::Catalogue::get();
        for f in Field::ALL {
            assert_eq!(Field::from_qualifier(f.qualifier()), Some(f));
            assert_eq!(Field::from_qualifier(&f.qualifier()[1..]), Some(f));
            let ty = f.operand_type();
            let other = match ty {
                OperandType::B32 => OperandType::B64,
                OperandType::B64 => OperandType::B32,
            };
            let text = |t: OperandType| {
                format!(
                    "tensormap.replace.tile{}.global.b1024{}",
                    f.qualifier(),
                    t.name()
                )
            };
            assert!(cat.resolve_text(&text(ty)).is_ok(), "{}", text(ty));
            assert!(cat.resolve_text(&text(other)).is_err(), "{}", text(other));
            assert_eq!(rep(f, 0, 0).check_type(ty), Ok(()));
            assert_eq!(rep(f, 0, 0).check_type(other), Err(ty));
            assert_eq!(f.takes_ord(), f.group() == Group::Field2);
            assert_eq!(f.table_max().is_some(), f.needs_immediate());
        }
        assert_eq!(Field::GlobalAddress.operand_type(), OperandType::B64);
        assert_eq!(Field::GlobalStride.operand_type(), OperandType::B64);
        assert_eq!(Field::GlobalDim.operand_type(), OperandType::B32);
        assert_eq!(Field::from_qualifier(".load_mode"), None);
    }

    #[test]
    fn each_field_writes_its_entry() {
        let m = map3();
        assert_eq!(
            ok(&m, Field::GlobalAddress, 0, 0x2000).global_address,
            0x2000
        );
        assert_eq!(ok(&m, Field::BoxDim, 1, 7).box_dims, [16, 7, 2, 1, 1]);
        assert_eq!(ok(&m, Field::GlobalDim, 2, 9).global_dims, [64, 8, 9, 1, 1]);
        assert_eq!(
            ok(&m, Field::GlobalStride, 1, 4096).global_strides,
            [256, 4096, 0, 0]
        );
        assert_eq!(
            ok(&m, Field::GlobalStride, 0, 512).global_strides,
            [512, 2048, 0, 0]
        );
        assert_eq!(
            ok(&m, Field::ElementStride, 0, 3).element_strides,
            [3, 1, 2, 1, 1]
        );
        assert_eq!(
            ok(&m, Field::InterleaveLayout, 0, 2).interleave,
            Interleave::B32
        );
        assert_eq!(ok(&m, Field::SwizzleMode, 0, 4).swizzle, Swizzle::B96);
        assert_eq!(
            ok(&m, Field::SwizzleAtomicity, 0, 2).atomicity,
            Atomicity::B32Flip8
        );
        assert_eq!(
            ok(&m, Field::FillMode, 0, 1).oob_fill,
            OobFill::NanRequestZeroFma
        );
        // nothing else moves
        let r = ok(&m, Field::BoxDim, 0, 32);
        assert_eq!(
            TensorMap {
                box_dims: m.box_dims,
                ..r
            },
            m
        );
    }

    #[test]
    fn elemtype_takes_table_33_codes_not_the_drivers() {
        let m = map3();
        // Table 33: 8 is .f32.ftz, 9 .f64, 10 .bf16 (the driver: 8 is f64)
        assert_eq!(ok(&m, Field::ElemType, 0, 8).data_type, DataType::F32Ftz);
        assert_eq!(ok(&m, Field::ElemType, 0, 9).data_type, DataType::F64);
        assert_eq!(ok(&m, Field::ElemType, 0, 10).data_type, DataType::Bf16);
        for t in DataType::ALL {
            assert_eq!(ok(&m, Field::ElemType, 0, t.ptx_code() as u64).data_type, t);
        }
    }

    #[test]
    fn rank_is_zero_based() {
        let m = map3();
        for v in 0..5u64 {
            assert_eq!(ok(&m, Field::Rank, 0, v).rank, v as u32 + 1);
        }
        assert_eq!(
            err(&m, Field::Rank, 0, 5),
            ReplaceError::RankOutOfRange { value: 5 }
        );
        assert_eq!(err(&m, Field::Rank, 0, 5).rule().id, "rank");
    }

    #[test]
    fn table_33_x_entries_are_refused() {
        let m = map3();
        for f in Field::ALL.into_iter().filter(|f| f.needs_immediate()) {
            let max = f.table_max().unwrap();
            assert!(replace(&m, &rep(f, 0, max)).is_ok(), "{f:?} {max}");
            assert_eq!(
                err(&m, f, 0, max + 1),
                ReplaceError::NotInTable {
                    field: f,
                    value: max + 1
                }
            );
            assert_eq!(err(&m, f, 0, max + 1).rule().id, "table-33");
        }
    }

    #[test]
    fn ord_is_an_ordinal_across_the_rank() {
        let m = map3();
        for f in [Field::BoxDim, Field::GlobalDim, Field::ElementStride] {
            assert!(replace(&m, &rep(f, 2, 2)).is_ok());
            for ord in [3, 4, 5, u32::MAX] {
                assert_eq!(
                    err(&m, f, ord, 2),
                    ReplaceError::OrdBeyondRank {
                        field: f,
                        ord,
                        rank: 3
                    }
                );
            }
        }
        // strides: entries 0 to rank-2
        assert!(replace(&m, &rep(Field::GlobalStride, 1, 16)).is_ok());
        assert_eq!(err(&m, Field::GlobalStride, 2, 16).rule().id, "ord");
        let one = TensorMap { rank: 1, ..m };
        assert_eq!(err(&one, Field::GlobalStride, 0, 16).rule().id, "ord");
        assert!(replace(&one, &rep(Field::BoxDim, 0, 16)).is_ok());
        // the forms without ord
        for f in Field::ALL.into_iter().filter(|f| !f.takes_ord()) {
            assert_eq!(
                err(&m, f, 1, 0),
                ReplaceError::UnexpectedOrd { field: f, ord: 1 }
            );
        }
    }

    #[test]
    fn b32_values_fit_32_bits() {
        let m = map3();
        for f in Field::ALL
            .into_iter()
            .filter(|f| f.operand_type() == OperandType::B32)
        {
            let ord = 0;
            assert_eq!(
                err(&m, f, ord, 1 << 32 | 1),
                ReplaceError::ValueTooWide {
                    field: f,
                    value: 1 << 32 | 1
                }
            );
        }
        // .b64 fields take the whole value
        assert_eq!(
            ok(&m, Field::GlobalAddress, 0, 0xffff_ffff_ffff_fff0).global_address,
            0xffff_ffff_ffff_fff0
        );
        assert_eq!(
            ok(&m, Field::GlobalStride, 0, (1 << 40) - 16).global_strides[0],
            (1 << 40) - 16
        );
    }

    #[test]
    fn value_ranges_are_the_drivers() {
        let m = map3();
        let bad = |f: Field, ord: u32, v: u64| {
            let e = err(&m, f, ord, v);
            assert_eq!(
                e,
                ReplaceError::OutOfRange {
                    field: f,
                    ord,
                    value: v
                }
            );
            e.rule().id
        };
        assert_eq!(bad(Field::GlobalAddress, 0, 0x1008), "global-address");
        assert_eq!(bad(Field::GlobalAddress, 0, 1), "global-address");
        assert_eq!(bad(Field::GlobalDim, 1, 0), "global-dim");
        assert_eq!(
            ok(&m, Field::GlobalDim, 1, u32::MAX as u64).global_dims[1],
            u32::MAX as u64
        );
        assert_eq!(bad(Field::GlobalStride, 0, 8), "global-stride");
        assert_eq!(bad(Field::GlobalStride, 0, 1 << 40), "global-stride");
        assert_eq!(ok(&m, Field::GlobalStride, 0, 0).global_strides[0], 0);
        assert_eq!(bad(Field::BoxDim, 0, 0), "box-dim");
        assert_eq!(bad(Field::BoxDim, 2, 257), "box-dim");
        assert_eq!(ok(&m, Field::BoxDim, 2, 256).box_dims[2], 256);
        assert_eq!(ok(&m, Field::BoxDim, 2, 1).box_dims[2], 1);
        assert_eq!(bad(Field::ElementStride, 0, 0), "element-stride");
        assert_eq!(bad(Field::ElementStride, 1, 9), "element-stride");
        assert_eq!(ok(&m, Field::ElementStride, 1, 8).element_strides[1], 8);
    }

    #[test]
    fn only_tiled_maps() {
        let m = TensorMap {
            mode: Mode::Im2col(Im2col {
                channels_per_pixel: 16,
                pixels_per_column: 8,
                ..Im2col::default()
            }),
            ..map3()
        };
        assert!(m.validate().is_ok(), "{:?}", m.validate());
        assert_eq!(
            err(&m, Field::GlobalAddress, 0, 0x2000),
            ReplaceError::WrongMode
        );
        assert_eq!(err(&m, Field::Rank, 0, 2).rule().id, "mode");
    }

    /// Rules that tie fields together are the use's: the replace accepts the
    /// value, the map is invalid until a later replace mends it.
    #[test]
    fn cross_field_rules_are_checked_at_use() {
        let m = map3();
        assert!(m.validate().is_ok());
        // u8 elements: the box's 16 elements are 16 bytes... as u8 16 bytes is fine,
        // but f64's 128 bytes under a 64-byte swizzle is not
        let sw = ok(&m, Field::SwizzleMode, 0, 2);
        assert!(sw.validate().is_ok());
        let wide = ok(&sw, Field::ElemType, 0, DataType::F64.ptx_code() as u64);
        assert_eq!(wide.validate().unwrap_err().field, "swizzle");
        let mended = ok(&wide, Field::BoxDim, 0, 8);
        assert!(mended.validate().is_ok());
        // box 4 x f32 is 16 bytes; as u16 it is 8
        let narrow = ok(&ok(&m, Field::BoxDim, 0, 4), Field::ElemType, 0, 1);
        assert_eq!(narrow.validate().unwrap_err().field, "boxDim[0]");
        // OOB-NaN fill on an integer type
        let nan = ok(&ok(&m, Field::FillMode, 0, 1), Field::ElemType, 0, 2);
        assert_eq!(nan.validate().unwrap_err().field, "oobFill");
        // interleave needs rank 3
        let il = ok(&ok(&m, Field::InterleaveLayout, 0, 1), Field::Rank, 0, 1);
        assert_eq!(il.validate().unwrap_err().field, "tensorRank");
        // 32-byte alignment under 32-byte interleave
        let il32 = ok(
            &ok(&m, Field::InterleaveLayout, 0, 2),
            Field::SwizzleMode,
            0,
            1,
        );
        let il32 = ok(&il32, Field::GlobalAddress, 0, 0x1010);
        assert_eq!(il32.validate().unwrap_err().field, "globalAddress");
        // the target's: 128B swizzle with 32B atomicity is sm_100's
        let atom = ok(
            &ok(&m, Field::SwizzleMode, 0, 3),
            Field::SwizzleAtomicity,
            0,
            1,
        );
        assert!(atom.validate().is_ok());
        assert!(atom.validate_on(90).is_err());
        assert!(atom.validate_on(100).is_ok());
    }

    #[test]
    fn a_rank_raised_again_brings_back_its_entries() {
        let m = map3();
        let low = ok(&m, Field::Rank, 0, 1);
        assert_eq!(low.rank, 2);
        assert!(low.validate().is_ok());
        assert_eq!(ok(&low, Field::Rank, 0, 2), m);
        let mut b = m.to_bytes();
        replace_bytes(&mut b, &rep(Field::Rank, 0, 1)).unwrap();
        assert_eq!(TensorMap::from_bytes(&b).unwrap(), low);
        replace_bytes(&mut b, &rep(Field::Rank, 0, 2)).unwrap();
        assert_eq!(TensorMap::from_bytes(&b).unwrap(), m);
        assert_eq!(b, m.to_bytes());
    }

    #[test]
    fn entries_never_set_come_in_as_one() {
        let mut m = map3();
        m.global_dims[3] = 0;
        m.box_dims[3] = 0;
        m.element_strides[3] = 0;
        m.global_strides[2] = 0;
        let up = ok(&m, Field::Rank, 0, 3);
        assert_eq!(up.rank, 4);
        assert_eq!(
            (up.global_dims[3], up.box_dims[3], up.element_strides[3]),
            (1, 1, 1)
        );
        assert_eq!(up.global_strides[2], 0);
        assert!(up.validate().is_ok());
        // entries inside the old rank are not touched
        m.box_dims[1] = 0;
        assert_eq!(ok(&m, Field::Rank, 0, 3).box_dims[1], 0);
    }

    #[test]
    fn replace_bytes_reads_and_writes_our_encoding() {
        let m = map3();
        let mut b = m.to_bytes();
        replace_bytes(&mut b, &rep(Field::BoxDim, 1, 8)).unwrap();
        assert_eq!(TensorMap::from_bytes(&b).unwrap().box_dims[1], 8);
        let before = b;
        let e = replace_bytes(&mut b, &rep(Field::BoxDim, 1, 0)).unwrap_err();
        assert_eq!(e.rule().id, "box-dim");
        assert_eq!(b, before, "an error leaves the bytes alone");
        let mut junk = [0u8; 128];
        let e = replace_bytes(&mut junk, &rep(Field::Rank, 0, 0)).unwrap_err();
        assert!(matches!(e, ReplaceError::NotOurEncoding(ref m) if m.field == "magic"));
        assert_eq!(e.rule().id, "encoding");
        assert_eq!(junk, [0u8; 128]);
    }

    fn mix(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// replace_bytes is replace through the encoding, for maps of every rank
    /// (entries past it set or not) and replacements in and out of range.
    #[test]
    fn replace_bytes_agrees_with_replace() {
        let mut n_ok = 0;
        let mut n_err = 0;
        for k in 0..20_000u64 {
            let z = |j: u64| mix(k * 16 + j);
            let mut m = map3();
            m.rank = 1 + (z(0) % 5) as u32;
            for i in 0..5 {
                let unset = z(1 + i) % 4 == 0;
                m.global_dims[i as usize] = if unset { 0 } else { 1 + z(6) % 300 };
                m.box_dims[i as usize] = if unset {
                    0
                } else {
                    1 + (z(7 + i) % 256) as u32
                };
                m.element_strides[i as usize] = if unset { 0 } else { 1 + (z(12) % 8) as u32 };
            }
            m = TensorMap::from_bytes(&m.to_bytes()).unwrap();
            let field = Field::ALL[(z(13) % 11) as usize];
            let ord = if field.takes_ord() {
                (z(14) % (m.rank as u64 + 1)) as u32
            } else {
                (z(14) % 8 == 0) as u32
            };
            let value = match z(15) % 4 {
                0 => z(2) % 20,
                1 => z(3) % 300,
                2 => 16 * (z(4) % 100),
                _ => z(5) >> (z(11) % 64),
            };
            let r = rep(field, ord, value);
            let mut b = m.to_bytes();
            let direct = replace(&m, &r);
            let via = replace_bytes(&mut b, &r);
            match direct {
                Ok(d) => {
                    via.unwrap();
                    assert_eq!(TensorMap::from_bytes(&b).unwrap(), d, "{r:?} on {m:?}");
                    assert_eq!(b, d.to_bytes());
                    n_ok += 1;
                }
                Err(e) => {
                    assert_eq!(via.unwrap_err(), e);
                    n_err += 1;
                }
            }
        }
        assert!(n_ok > 3000 && n_err > 3000, "{n_ok} {n_err}");
    }

    #[test]
    fn needs_are_the_target_notes() {
        let t = |s: &str| Target::parse(s).unwrap();
        let v = PtxVersion::new;
        let base = rep(Field::ElemType, 0, 12).needs();
        assert_eq!(base, NEEDS_BASE);
        assert!(base.allows(t("sm_90a"), v(8, 3)));
        assert!(!base.allows(t("sm_90a"), v(8, 2)));
        assert!(!base.allows(t("sm_90"), v(8, 3)));
        assert!(
            base.allows(t("sm_103a"), v(8, 8)),
            "sm_103a is in the sm_100f family"
        );
        for code in 13..=15 {
            let n = rep(Field::ElemType, 0, code).needs();
            assert_eq!(n, NEEDS_SUB_BYTE);
            assert!(!n.allows(t("sm_90a"), v(9, 0)));
            assert!(n.allows(t("sm_100a"), v(8, 7)));
            assert!(!n.allows(t("sm_100a"), v(8, 6)));
        }
        for a in 0..4 {
            let n = rep(Field::SwizzleAtomicity, 0, a).needs();
            assert_eq!(n, NEEDS_ATOMICITY);
            assert!(!n.allows(t("sm_90a"), v(9, 0)));
            assert!(n.allows(t("sm_120a"), v(8, 7)));
            assert!(!n.allows(t("sm_120a"), v(8, 5)));
        }
        let sw96 = rep(Field::SwizzleMode, 0, 4).needs();
        assert_eq!(sw96, NEEDS_SWIZZLE_96);
        assert!(sw96.allows(t("sm_103a"), v(8, 8)));
        assert!(!sw96.allows(t("sm_100a"), v(9, 0)));
        assert!(!sw96.allows(t("sm_103a"), v(8, 7)));
        assert_eq!(rep(Field::SwizzleMode, 0, 3).needs(), NEEDS_BASE);
    }

    /// Every rule an error names is in [`RULES`] (and only its own).
    #[test]
    fn rules_cover_the_errors() {
        let m = map3();
        let errors = [
            err(
                &TensorMap {
                    mode: Mode::Im2col(Im2col::default()),
                    ..m
                },
                Field::Rank,
                0,
                0,
            ),
            err(&m, Field::BoxDim, 0, 1 << 33),
            err(&m, Field::Rank, 2, 0),
            err(&m, Field::BoxDim, 3, 1),
            err(&m, Field::Rank, 0, 9),
            err(&m, Field::FillMode, 0, 2),
            err(&m, Field::GlobalAddress, 0, 4),
            err(&m, Field::GlobalDim, 0, 0),
            err(&m, Field::GlobalStride, 0, 4),
            err(&m, Field::BoxDim, 0, 0),
            err(&m, Field::ElementStride, 0, 0),
            replace_bytes(&mut [0; 128], &rep(Field::Rank, 0, 0)).unwrap_err(),
        ];
        let mut ids: Vec<&str> = errors.iter().map(|e| e.rule().id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), errors.len(), "two errors share a rule: {ids:?}");
        for e in &errors {
            assert_eq!(e.rule().when, When::Replace, "{e}");
            assert!(e.to_string().contains(e.rule().text));
        }
        let at_replace = RULES.iter().filter(|r| r.when == When::Replace).count();
        assert_eq!(
            at_replace,
            errors.len(),
            "a rule checked at the replace has no error"
        );
        let mut all: Vec<&str> = RULES.iter().map(|r| r.id).collect();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), RULES.len(), "rule ids repeat");
    }
}
