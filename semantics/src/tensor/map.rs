//! The tensor map (PTX ISA 5.5.8) by its fields, the rules a valid one
//! keeps, and our own 128-byte encoding of it.
//!
//! Sources of the rules, quoted in each [`MapError`]:
//! - "driver": the CUDA driver API, section 6.30 "Tensor Map Object
//!   Management", `cuTensorMapEncodeTiled` and `cuTensorMapEncodeIm2col`
//!   (the requirement list of each, CUDA 13).
//! - "PTX 5.5.x": PTX ISA 9.7.9's chapter 5.5 (Tensors), and "PTX
//!   9.7.9.25.5.1" its restrictions on tensor copies.
//!
//! The driver's 128-byte encoding is undocumented (PTX 5.5.8: "a 128-byte
//! opaque object"); [`TensorMap::to_bytes`] is ours, documented on
//! [`ENCODING`].

use std::fmt;

/// The element type of a tensor. The discriminant is the driver's
/// `CUtensorMapDataType` value; [`DataType::ptx_code`] gives the value
/// `tensormap.replace.tile.elemtype` takes (PTX 9.7.9.26, Table 33: "The
/// values of `.elemtype` do not correspond to the values of the
/// `CUtensorMapDataType` enum used in the driver API").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DataType {
    U8 = 0,
    U16 = 1,
    U32 = 2,
    S32 = 3,
    U64 = 4,
    S64 = 5,
    F16 = 6,
    F32 = 7,
    F64 = 8,
    Bf16 = 9,
    F32Ftz = 10,
    Tf32 = 11,
    Tf32Ftz = 12,
    /// `CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B`, PTX `.b4x16` (sm_100).
    B4x16 = 13,
    /// `CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B`, PTX `.b4x16_p64` (sm_100).
    B4x16P64 = 14,
    /// `CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B`, PTX `.b6x16_p32` /
    /// `.b6p2x16` (sm_100).
    B6x16P32 = 15,
}

impl DataType {
    /// Every type, in driver order.
    pub const ALL: [DataType; 16] = [
        DataType::U8,
        DataType::U16,
        DataType::U32,
        DataType::S32,
        DataType::U64,
        DataType::S64,
        DataType::F16,
        DataType::F32,
        DataType::F64,
        DataType::Bf16,
        DataType::F32Ftz,
        DataType::Tf32,
        DataType::Tf32Ftz,
        DataType::B4x16,
        DataType::B4x16P64,
        DataType::B6x16P32,
    ];

    /// The type of a driver `CUtensorMapDataType` value.
    pub fn from_driver(code: u32) -> Option<DataType> {
        DataType::ALL.get(code as usize).copied()
    }

    /// The driver's `CUtensorMapDataType` value.
    pub fn driver_code(self) -> u32 {
        self as u32
    }

    /// The `tensormap.replace.tile.elemtype` value (PTX 9.7.9.26, Table 33).
    pub fn ptx_code(self) -> u32 {
        use DataType::*;
        match self {
            U8 => 0,
            U16 => 1,
            U32 => 2,
            S32 => 3,
            U64 => 4,
            S64 => 5,
            F16 => 6,
            F32 => 7,
            F32Ftz => 8,
            F64 => 9,
            Bf16 => 10,
            Tf32 => 11,
            Tf32Ftz => 12,
            B4x16 => 13,
            B4x16P64 => 14,
            B6x16P32 => 15,
        }
    }

    /// The type of a `tensormap.replace.tile.elemtype` value.
    pub fn from_ptx(code: u32) -> Option<DataType> {
        DataType::ALL.iter().copied().find(|t| t.ptx_code() == code)
    }

    /// The name PTX gives it (5.5.1; Table 33).
    pub fn name(self) -> &'static str {
        use DataType::*;
        match self {
            U8 => "u8",
            U16 => "u16",
            U32 => "u32",
            S32 => "s32",
            U64 => "u64",
            S64 => "s64",
            F16 => "f16",
            F32 => "f32",
            F64 => "f64",
            Bf16 => "bf16",
            F32Ftz => "f32.ftz",
            Tf32 => "tf32",
            Tf32Ftz => "tf32.ftz",
            B4x16 => "b4x16",
            B4x16P64 => "b4x16_p64",
            B6x16P32 => "b6x16_p32",
        }
    }

    /// Bytes of one element in global memory (the driver's comments: "1
    /// byte" ... "8 bytes"). The packed sub-byte types have no whole-byte
    /// element; `None` for them.
    pub fn size(self) -> Option<u32> {
        use DataType::*;
        match self {
            U8 => Some(1),
            U16 | F16 | Bf16 => Some(2),
            U32 | S32 | F32 | F32Ftz | Tf32 | Tf32Ftz => Some(4),
            U64 | S64 | F64 => Some(8),
            B4x16 | B4x16P64 | B6x16P32 => None,
        }
    }

    /// A floating-point type (the driver: OOB-NaN fill "can only be used
    /// when tensorDataType represents a floating-point data type").
    pub fn is_float(self) -> bool {
        use DataType::*;
        matches!(self, F16 | F32 | F64 | Bf16 | F32Ftz | Tf32 | Tf32Ftz)
    }

    /// One of the packed sub-byte types (PTX 5.5.1.1).
    pub fn is_packed(self) -> bool {
        matches!(
            self,
            DataType::B4x16 | DataType::B4x16P64 | DataType::B6x16P32
        )
    }
}

/// Interleave layout (PTX 5.5.6; driver `CUtensorMapInterleave`, same
/// values as `tensormap.replace.tile.interleave_layout`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Interleave {
    None = 0,
    B16 = 1,
    B32 = 2,
}

impl Interleave {
    pub fn from_code(code: u32) -> Option<Interleave> {
        [Interleave::None, Interleave::B16, Interleave::B32]
            .get(code as usize)
            .copied()
    }
    /// The slice size in bytes (0 for none).
    pub fn bytes(self) -> u32 {
        match self {
            Interleave::None => 0,
            Interleave::B16 => 16,
            Interleave::B32 => 32,
        }
    }
}

/// Swizzling mode (PTX 5.5.7; the values of
/// `tensormap.replace.tile.swizzle_mode`, Table 33). The driver's
/// `CUtensorMapSwizzle` folds the atomicity in: see
/// [`TensorMap::driver_swizzle`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Swizzle {
    None = 0,
    B32 = 1,
    B64 = 2,
    B128 = 3,
    /// sm_103 (PTX ISA 8.8).
    B96 = 4,
}

impl Swizzle {
    pub fn from_code(code: u32) -> Option<Swizzle> {
        [
            Swizzle::None,
            Swizzle::B32,
            Swizzle::B64,
            Swizzle::B128,
            Swizzle::B96,
        ]
        .get(code as usize)
        .copied()
    }
    /// The swizzle size in bytes: the largest inner box dimension it takes
    /// (driver: "CU_TENSOR_MAP_SWIZZLE_32B requires the bounding box inner
    /// dimension to be <= 32", and so on; PTX 9.7.9.25.5.1 for 96B:
    /// "`Box-Size[0]` must be less than or equal to 96B").
    pub fn bytes(self) -> u32 {
        match self {
            Swizzle::None => 0,
            Swizzle::B32 => 32,
            Swizzle::B64 => 64,
            Swizzle::B128 => 128,
            Swizzle::B96 => 96,
        }
    }
}

/// Swizzle atomicity (PTX 5.5.7, Table 14; values of
/// `tensormap.replace.tile.swizzle_atomicity`). Anything but 16 bytes is
/// sm_100 and later.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Atomicity {
    B16 = 0,
    B32 = 1,
    B32Flip8 = 2,
    B64 = 3,
}

impl Atomicity {
    pub fn from_code(code: u32) -> Option<Atomicity> {
        [
            Atomicity::B16,
            Atomicity::B32,
            Atomicity::B32Flip8,
            Atomicity::B64,
        ]
        .get(code as usize)
        .copied()
    }
}

/// L2 promotion (driver `CUtensorMapL2promotion`): a performance hint, no
/// effect on the bytes moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum L2Promotion {
    None = 0,
    B64 = 1,
    B128 = 2,
    B256 = 3,
}

impl L2Promotion {
    pub fn from_code(code: u32) -> Option<L2Promotion> {
        [
            L2Promotion::None,
            L2Promotion::B64,
            L2Promotion::B128,
            L2Promotion::B256,
        ]
        .get(code as usize)
        .copied()
    }
}

/// Out-of-bounds fill (PTX 5.5.3.3; driver `CUtensorMapFloatOOBfill`, same
/// values as `tensormap.replace.tile.fill_mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OobFill {
    /// "Zero fill mode: Elements in the Bounding Box which fall outside of
    /// the tensor boundary are set to 0."
    Zero = 0,
    /// "OOB-NaN fill mode: ... set to a special NaN called OOB-NaN" (the
    /// driver's `CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA`).
    NanRequestZeroFma = 1,
}

impl OobFill {
    pub fn from_code(code: u32) -> Option<OobFill> {
        [OobFill::Zero, OobFill::NanRequestZeroFma]
            .get(code as usize)
            .copied()
    }
}

/// The im2col fields (`cuTensorMapEncodeIm2col`, PTX 5.5.4); the copies
/// are [`super::im2col`]'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Im2col {
    /// `pixelBoxLowerCorner`, W first (entry `i` belongs to dimension
    /// `i + 1`: an H100 reads them so, although the driver's text lists them
    /// as {D, H, W}); only the first `rank - 2` are used.
    pub lower_corner: [i32; 3],
    /// `pixelBoxUpperCorner`.
    pub upper_corner: [i32; 3],
    /// `channelsPerPixel`.
    pub channels_per_pixel: u32,
    /// `pixelsPerColumn`.
    pub pixels_per_column: u32,
}

/// How the map addresses the tensor (PTX 5.5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Tiled mode (`cuTensorMapEncodeTiled`): the box is `box_dims`.
    Tiled,
    /// im2col mode (`cuTensorMapEncodeIm2col`).
    Im2col(Im2col),
}

/// A tensor map by its fields. Arrays are indexed by dimension, dimension 0
/// innermost (the driver's order). Entries past `rank` take no part in a
/// copy but are kept (and encoded), so that a `tensormap.replace` of the
/// rank brings them back in ([`super::replace`]); there a `globalDim`,
/// `boxDim` or `elementStrides` entry of 0 stands for an entry never set,
/// and reads as 1 ([`TensorMap::set_unset_entries`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TensorMap {
    pub data_type: DataType,
    /// 1 to 5.
    pub rank: u32,
    /// `globalAddress`: a generic address of global memory.
    pub global_address: u64,
    /// `globalDim`: elements along each dimension.
    pub global_dims: [u64; 5],
    /// `globalStrides`: bytes between consecutive indices of dimensions 1
    /// to rank-1 (`global_strides[i]` is dimension i+1's stride; dimension
    /// 0's is the element size).
    pub global_strides: [u64; 4],
    /// `boxDim`: elements the box spans along each dimension (tiled mode).
    pub box_dims: [u32; 5],
    /// `elementStrides`: the traversal stride of each dimension.
    pub element_strides: [u32; 5],
    pub interleave: Interleave,
    pub swizzle: Swizzle,
    pub atomicity: Atomicity,
    pub l2_promotion: L2Promotion,
    pub oob_fill: OobFill,
    pub mode: Mode,
}

impl Default for TensorMap {
    fn default() -> Self {
        TensorMap {
            data_type: DataType::U8,
            rank: 1,
            global_address: 0,
            global_dims: [1; 5],
            global_strides: [0; 4],
            box_dims: [16, 1, 1, 1, 1],
            element_strides: [1; 5],
            interleave: Interleave::None,
            swizzle: Swizzle::None,
            atomicity: Atomicity::B16,
            l2_promotion: L2Promotion::None,
            oob_fill: OobFill::Zero,
            mode: Mode::Tiled,
        }
    }
}

/// A broken rule: the field, the rule as its source words it, the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapError {
    /// The field, as the driver names it (`boxDim[1]`, `globalStrides[0]`).
    pub field: String,
    /// The rule, quoted.
    pub rule: &'static str,
    /// Where the rule is written.
    pub source: &'static str,
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tensor map field `{}`: {} ({})",
            self.field, self.rule, self.source
        )
    }
}

impl std::error::Error for MapError {}

const DRIVER: &str = "CUDA driver API 6.30, cuTensorMapEncodeTiled";
const DRIVER_IM2COL: &str = "CUDA driver API 6.30, cuTensorMapEncodeIm2col";
const PTX_TILE_BOX: &str = "PTX ISA 5.5.3.1";
const PTX_REPLACE: &str = "PTX ISA 9.7.9.26, Target ISA Notes";
const PTX_SWIZZLE: &str = "PTX ISA 5.5.7, Table 14";
const PTX_RESTRICT: &str = "PTX ISA 9.7.9.25.5.1";

fn err(field: impl Into<String>, rule: &'static str, source: &'static str) -> Result<(), MapError> {
    Err(MapError {
        field: field.into(),
        rule,
        source,
    })
}

impl TensorMap {
    /// The box's element size in bytes (`None` for the packed types).
    pub fn elem_size(&self) -> Option<u32> {
        self.data_type.size()
    }

    /// The driver's `CUtensorMapSwizzle` value of this map's swizzle mode
    /// and atomicity (`CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B` = 4,
    /// `_ATOM_32B_FLIP_8B` = 5, `_ATOM_64B` = 6), `None` where the driver
    /// has no value (96B).
    pub fn driver_swizzle(&self) -> Option<u32> {
        match (self.swizzle, self.atomicity) {
            (Swizzle::None, _) => Some(0),
            (Swizzle::B32, Atomicity::B16) => Some(1),
            (Swizzle::B64, Atomicity::B16) => Some(2),
            (Swizzle::B128, Atomicity::B16) => Some(3),
            (Swizzle::B128, Atomicity::B32) => Some(4),
            (Swizzle::B128, Atomicity::B32Flip8) => Some(5),
            (Swizzle::B128, Atomicity::B64) => Some(6),
            _ => None,
        }
    }

    /// The swizzle mode and atomicity of a driver `CUtensorMapSwizzle`.
    pub fn from_driver_swizzle(code: u32) -> Option<(Swizzle, Atomicity)> {
        Some(match code {
            0 => (Swizzle::None, Atomicity::B16),
            1 => (Swizzle::B32, Atomicity::B16),
            2 => (Swizzle::B64, Atomicity::B16),
            3 => (Swizzle::B128, Atomicity::B16),
            4 => (Swizzle::B128, Atomicity::B32),
            5 => (Swizzle::B128, Atomicity::B32Flip8),
            6 => (Swizzle::B128, Atomicity::B64),
            _ => return None,
        })
    }

    /// The first rule the map breaks, or `Ok`. The rules are checked in the
    /// order the driver lists its requirements, then PTX's. Held to the CUDA
    /// 13.0 driver on an H100 (4,000 `cuTensorMapEncodeTiled` calls, most
    /// breaking one rule: the same verdict on every one, with
    /// [`TensorMap::validate_on`]`(90)`, but for the exception below).
    ///
    /// Interpretations (ours):
    /// - The driver's pseudo-code for the packed types (`globalStrides[i] =
    ///   globalStrides[i – 1] * (globalDim[i] + padding[i])`,
    ///   `assert(globalStrides[i] >= globalDim[i])`) describes how strides are
    ///   usually formed, not a requirement: strides that make rows overlap
    ///   are not refused (nor does the driver refuse them).
    /// - `elementStrides[0]` must be 1 to 8 also without interleave, where
    ///   the driver says it "is ignored" (the driver refuses 0 and 9 there
    ///   too). PTX 5.5.3.2's "For non-interleaved layout, the traversal
    ///   stride in dimension 0 must always be 1" is not a rule here: the
    ///   driver accepts other values and an H100 ignores them.
    /// - `boxDim[0] * elementSize` must be a multiple of 16 with interleave
    ///   too: PTX 5.5.3.1's "Size of each bounding Box must be a multiple of
    ///   16 bytes" read as the box's extent in dimension 0; the driver's text
    ///   asks it only without interleave, the driver itself always.
    /// - "When interleave is CU_TENSOR_MAP_INTERLEAVE_32B, swizzle must be
    ///   CU_TENSOR_MAP_SWIZZLE_32B" is kept, though the CUDA 13.0 driver
    ///   encodes such maps with every swizzle mode
    ///   (docs/tensor-observations.md).
    /// - A 64-byte aligned location of the map is a rule on where the map is
    ///   stored, not on its fields: not checked here.
    /// - `globalDim` up to 2^32, as the driver's text and verdicts: an H100
    ///   faults on a copy with a `globalDim` above 2^31, whoever wrote it
    ///   (docs/tensormap-replace.md, observation 2). Not a rule here.
    pub fn validate(&self) -> Result<(), MapError> {
        let ty = self.data_type;
        let r = self.rank as usize;
        let im2col = matches!(self.mode, Mode::Im2col(_));
        let src = if im2col { DRIVER_IM2COL } else { DRIVER };
        // tensorRank
        if im2col {
            if !(3..=5).contains(&self.rank) {
                return err("tensorRank", "tensorRank, which specifies the number of tensor dimensions, must be 3, 4, or 5", src);
            }
        } else if !(1..=5).contains(&self.rank) {
            return err(
                "tensorRank",
                "tensorRank must be non-zero and less than or equal to the maximum supported dimensionality of 5",
                src,
            );
        }
        if self.interleave != Interleave::None && self.rank < 3 {
            return err(
                "tensorRank",
                "If interleave is not CU_TENSOR_MAP_INTERLEAVE_NONE, then tensorRank must additionally be greater than or equal to 3",
                src,
            );
        }
        // globalAddress
        if !self.global_address.is_multiple_of(16) {
            return err(
                "globalAddress",
                "globalAddress, which specifies the starting address of the memory region described, must be 16 byte aligned",
                src,
            );
        }
        if self.interleave == Interleave::B32 && !self.global_address.is_multiple_of(32) {
            return err(
                "globalAddress",
                "When interleave is CU_TENSOR_MAP_INTERLEAVE_32B, globalAddress must be 32 byte aligned",
                src,
            );
        }
        if matches!(ty, DataType::B6x16P32 | DataType::B4x16P64)
            && !self.global_address.is_multiple_of(32)
        {
            return err(
                "globalAddress",
                "When tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B or CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, globalAddress must be 32 byte aligned",
                src,
            );
        }
        // globalDim
        for i in 0..r {
            let d = self.global_dims[i];
            if d == 0 || d > 1 << 32 {
                return err(
                    format!("globalDim[{i}]"),
                    "globalDim array, which specifies tensor size of each of the tensorRank dimensions, must be non-zero and less than or equal to 2^32",
                    src,
                );
            }
        }
        if matches!(ty, DataType::B6x16P32 | DataType::B4x16P64)
            && !self.global_dims[0].is_multiple_of(128)
        {
            return err(
                "globalDim[0]",
                "When tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B or CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, globalDim[0] must be a multiple of 128",
                src,
            );
        }
        if ty == DataType::B4x16 && !self.global_dims[0].is_multiple_of(2) {
            return err(
                "globalDim[0]",
                "When tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, globalDim[0] must be a multiple of 2",
                src,
            );
        }
        // globalStrides
        for i in 0..r.saturating_sub(1) {
            let s = self.global_strides[i];
            if !s.is_multiple_of(16) || s >= 1 << 40 {
                return err(
                    format!("globalStrides[{i}]"),
                    "globalStrides array, which specifies tensor stride of each of the lower tensorRank - 1 dimensions in bytes, must be a multiple of 16 and less than 2^40",
                    src,
                );
            }
            if self.interleave == Interleave::B32 && !s.is_multiple_of(32) {
                return err(
                    format!("globalStrides[{i}]"),
                    "When interleave is CU_TENSOR_MAP_INTERLEAVE_32B, the strides must be a multiple of 32",
                    src,
                );
            }
            if matches!(ty, DataType::B6x16P32 | DataType::B4x16P64) && !s.is_multiple_of(32) {
                return err(
                    format!("globalStrides[{i}]"),
                    "When tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B or CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, the strides must be a multiple of 32",
                    src,
                );
            }
        }
        match self.mode {
            Mode::Tiled => {
                // boxDim
                for i in 0..r {
                    let b = self.box_dims[i];
                    if b == 0 || b > 256 {
                        return err(
                            format!("boxDim[{i}]"),
                            "boxDim array, which specifies number of elements to be traversed along each of the tensorRank dimensions, must be non-zero and less than or equal to 256",
                            src,
                        );
                    }
                }
                if let Some(es) = self.elem_size() {
                    if !(self.box_dims[0] * es).is_multiple_of(16) {
                        return if self.interleave == Interleave::None {
                            err(
                                "boxDim[0]",
                                "When interleave is CU_TENSOR_MAP_INTERLEAVE_NONE, { boxDim[0] * elementSizeInBytes( tensorDataType ) } must be a multiple of 16 bytes",
                                src,
                            )
                        } else {
                            // The driver's text asks this without interleave
                            // only; PTX asks it of every box, and the driver
                            // (CUDA 13.0) refuses interleaved maps without it.
                            err(
                                "boxDim[0]",
                                "Size of each bounding Box must be a multiple of 16 bytes",
                                PTX_TILE_BOX,
                            )
                        };
                    }
                }
                if matches!(ty, DataType::B6x16P32 | DataType::B4x16P64) && self.box_dims[0] != 128
                {
                    return err(
                        "boxDim[0]",
                        "When tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B or CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, boxDim[0] must be 128",
                        src,
                    );
                }
            }
            Mode::Im2col(ic) => {
                let (lo, hi) = match self.rank {
                    3 => (-32768, 32767),
                    4 => (-128, 127),
                    _ => (-16, 15),
                };
                let n = r - 2;
                for i in 0..n {
                    if !(lo..=hi).contains(&ic.lower_corner[i]) {
                        return err(
                            format!("pixelBoxLowerCorner[{i}]"),
                            "When tensorRank is 3, one signed offset within range [-32768, 32767] is supported. When tensorRank is 4, two signed offsets each within range [-128, 127] are supported. When tensorRank is 5, three offsets each within range [-16, 15] are supported",
                            src,
                        );
                    }
                    if !(lo..=hi).contains(&ic.upper_corner[i]) {
                        return err(
                            format!("pixelBoxUpperCorner[{i}]"),
                            "When tensorRank is 3, one signed offset within range [-32768, 32767] is supported. When tensorRank is 4, two signed offsets each within range [-128, 127] are supported. When tensorRank is 5, three offsets each within range [-16, 15] are supported",
                            src,
                        );
                    }
                }
                if ic.channels_per_pixel == 0 || ic.channels_per_pixel > 256 {
                    return err(
                        "channelsPerPixel",
                        "channelsPerPixel, which specifies the number of elements which must be accessed along C dimension, must be less than or equal to 256",
                        src,
                    );
                }
                if ic.pixels_per_column == 0 || ic.pixels_per_column > 1024 {
                    return err(
                        "pixelsPerColumn",
                        "pixelsPerColumn, which specifies the number of elements that must be accessed along the {N, D, H, W} dimensions, must be less than or equal to 1024",
                        src,
                    );
                }
            }
        }
        // elementStrides
        for i in 0..r {
            let e = self.element_strides[i];
            if e == 0 || e > 8 {
                return err(
                    format!("elementStrides[{i}]"),
                    "elementStrides array, which specifies the iteration step along each of the tensorRank dimensions, must be non-zero and less than or equal to 8",
                    src,
                );
            }
        }
        // interleave and swizzle
        let inner = match self.mode {
            Mode::Tiled => self
                .elem_size()
                .map(|es| self.box_dims[0] as u64 * es as u64),
            Mode::Im2col(ic) => self
                .elem_size()
                .map(|es| ic.channels_per_pixel as u64 * es as u64),
        };
        if self.interleave == Interleave::None && self.swizzle != Swizzle::None {
            if let Some(inner) = inner {
                let limit = self.swizzle.bytes() as u64;
                if inner > limit {
                    return err(
                        "swizzle",
                        match self.swizzle {
                            Swizzle::B32 => "CU_TENSOR_MAP_SWIZZLE_32B requires the bounding box inner dimension to be <= 32",
                            Swizzle::B64 => "CU_TENSOR_MAP_SWIZZLE_64B requires the bounding box inner dimension to be <= 64",
                            Swizzle::B96 => "Box-Size[0] must be less than or equal to 96B",
                            _ => "CU_TENSOR_MAP_SWIZZLE_128B* require the bounding box inner dimension to be <= 128",
                        },
                        if self.swizzle == Swizzle::B96 { PTX_RESTRICT } else { src },
                    );
                }
            }
        }
        if ty == DataType::B6x16P32 && self.interleave != Interleave::None {
            return err(
                "interleave",
                "tensorDataType of CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B requires interleave to be CU_TENSOR_MAP_INTERLEAVE_NONE",
                src,
            );
        }
        if self.interleave == Interleave::B32 && self.swizzle != Swizzle::B32 {
            return err(
                "swizzle",
                "When interleave is CU_TENSOR_MAP_INTERLEAVE_32B, swizzle must be CU_TENSOR_MAP_SWIZZLE_32B",
                src,
            );
        }
        // swizzle atomicity: Table 14
        let atom_ok = match self.swizzle {
            Swizzle::B128 => true,
            Swizzle::None => self.atomicity == Atomicity::B16,
            _ => self.atomicity == Atomicity::B16,
        };
        if !atom_ok {
            return err(
                "swizzleAtomicity",
                "Valid combination of swizzle-atomicity with swizzling-mode: 32B, 64B and 96B swizzling take 16B atomicity; 128B swizzling takes 16B, 32B, 32B + 8B-flip or 64B",
                PTX_SWIZZLE,
            );
        }
        if self.swizzle == Swizzle::B96 && self.interleave != Interleave::None {
            return err(
                "interleave",
                "The .interleave_layout must not be set",
                PTX_RESTRICT,
            );
        }
        if self.swizzle == Swizzle::B96 && ty.is_packed() {
            return err(
                "tensorDataType",
                "The type must not be among following: .b4x16_p64, .b6x16_p32 and .b6p2x16",
                PTX_RESTRICT,
            );
        }
        if ty == DataType::B6x16P32
            && !(self.swizzle == Swizzle::None
                || (self.swizzle == Swizzle::B128 && self.atomicity != Atomicity::B32Flip8))
        {
            return err(
                "swizzle",
                "When the tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B, only the following swizzle modes are supported: CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B, CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B",
                src,
            );
        }
        if ty == DataType::B4x16P64
            && !(self.swizzle == Swizzle::None
                || (self.swizzle == Swizzle::B128
                    && matches!(self.atomicity, Atomicity::B16 | Atomicity::B32)))
        {
            return err(
                "swizzle",
                "When the tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, only the following swizzle modes are supported: CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B",
                src,
            );
        }
        // oobFill
        if self.oob_fill == OobFill::NanRequestZeroFma && (!ty.is_float() || ty.is_packed()) {
            return err(
                "oobFill",
                "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA can only be used when tensorDataType represents a floating-point data type",
                src,
            );
        }
        Ok(())
    }

    /// [`TensorMap::validate`], then what the target `sm_XY` (as `XY`, e.g.
    /// 90) lacks: swizzle atomicities other than 16 bytes and the packed
    /// sub-byte types need sm_100 (PTX 9.7.9.26: "Qualifier
    /// .swizzle_atomicity is supported on following architectures: sm_100a
    /// ..."; ".elemtype corresponding to new_val values 13, 14 and 15 is
    /// supported on ... sm_100a ..."), the 96-byte swizzle sm_103 (".swizzle_mode
    /// corresponding to new_val value 4 is supported on ... sm_103a"). The
    /// CUDA 13.0 driver on an H100 refuses exactly these maps too.
    pub fn validate_on(&self, sm: u32) -> Result<(), MapError> {
        self.validate()?;
        if sm < 100 && self.atomicity != Atomicity::B16 {
            return err(
                "swizzle",
                "Qualifier .swizzle_atomicity is supported on sm_100a and later",
                PTX_REPLACE,
            );
        }
        if sm < 100 && self.data_type.is_packed() {
            return err(
                "tensorDataType",
                ".elemtype corresponding to new_val values 13, 14 and 15 is supported on sm_100a and later",
                PTX_REPLACE,
            );
        }
        if sm < 103 && self.swizzle == Swizzle::B96 {
            return err(
                "swizzle",
                ".swizzle_mode corresponding to new_val value 4 is supported on sm_103a",
                PTX_REPLACE,
            );
        }
        Ok(())
    }

    /// Entries `from..5` of `globalDim`, `boxDim` and `elementStrides` that
    /// are 0 set to 1: past the rank, 0 is an entry never set (our
    /// encoding's, and [`TensorMap::from_bytes`]'s, reading of it), and a
    /// dimension never set is one element wide with a traversal stride of 1.
    /// `globalStrides` keep their 0.
    pub fn set_unset_entries(&mut self, from: usize) {
        for i in from.min(5)..5 {
            for e in [&mut self.box_dims[i], &mut self.element_strides[i]] {
                if *e == 0 {
                    *e = 1;
                }
            }
            if self.global_dims[i] == 0 {
                self.global_dims[i] = 1;
            }
        }
    }

    /// Our 128-byte encoding ([`ENCODING`]), every entry of the arrays
    /// included (those past the rank too).
    pub fn to_bytes(&self) -> [u8; 128] {
        let mut b = [0u8; 128];
        b[0..8].copy_from_slice(&self.global_address.to_le_bytes());
        for i in 0..5 {
            b[8 + 8 * i..16 + 8 * i].copy_from_slice(&self.global_dims[i].to_le_bytes());
        }
        for i in 0..4 {
            b[48 + 8 * i..56 + 8 * i].copy_from_slice(&self.global_strides[i].to_le_bytes());
        }
        for i in 0..5 {
            b[80 + 2 * i..82 + 2 * i]
                .copy_from_slice(&(self.box_dims[i].min(0xffff) as u16).to_le_bytes());
            b[90 + i] = self.element_strides[i].min(255) as u8;
        }
        b[95] = self.rank.min(255) as u8;
        b[96] = self.data_type.ptx_code() as u8;
        b[97] = self.interleave as u8;
        b[98] = self.swizzle as u8;
        b[99] = self.atomicity as u8;
        b[100] = self.oob_fill as u8;
        b[101] = self.l2_promotion as u8;
        match self.mode {
            Mode::Tiled => b[102] = 0,
            Mode::Im2col(ic) => {
                b[102] = 1;
                for i in 0..3 {
                    let lo = ic.lower_corner[i].clamp(i16::MIN as i32, i16::MAX as i32) as i16;
                    let hi = ic.upper_corner[i].clamp(i16::MIN as i32, i16::MAX as i32) as i16;
                    b[104 + 2 * i..106 + 2 * i].copy_from_slice(&lo.to_le_bytes());
                    b[110 + 2 * i..112 + 2 * i].copy_from_slice(&hi.to_le_bytes());
                }
                b[116..118]
                    .copy_from_slice(&(ic.channels_per_pixel.min(0xffff) as u16).to_le_bytes());
                b[118..120]
                    .copy_from_slice(&(ic.pixels_per_column.min(0xffff) as u16).to_le_bytes());
            }
        }
        b[124..128].copy_from_slice(&MAGIC.to_le_bytes());
        b
    }

    /// Reads our encoding back. Refuses bytes that are not one (wrong
    /// magic, an enumeration value out of range, a rank past 5), naming the
    /// field; does not apply [`TensorMap::validate`]'s rules (a map that
    /// `tensormap.replace` made invalid still reads back, and is refused
    /// where it is used). Entries past the rank read back as written, a 0
    /// in `globalDim`, `boxDim` or `elementStrides` there as 1
    /// ([`TensorMap::set_unset_entries`]).
    pub fn from_bytes(b: &[u8; 128]) -> Result<TensorMap, MapError> {
        const OURS: &str = "our tensor map encoding (semantics/src/tensor/map.rs)";
        let u64_at = |o: usize| u64::from_le_bytes(b[o..o + 8].try_into().unwrap());
        if u32::from_le_bytes(b[124..128].try_into().unwrap()) != MAGIC {
            return Err(MapError {
                field: "magic".into(),
                rule: "the 128 bytes are not a tensor map made by this model (bytes 124..128 must read \"TMAP\")",
                source: OURS,
            });
        }
        let bad = |field: &str, rule: &'static str| MapError {
            field: field.into(),
            rule,
            source: OURS,
        };
        let rank = b[95] as u32;
        if !(1..=5).contains(&rank) {
            return Err(bad("tensorRank", "the rank must be 1 to 5"));
        }
        let data_type = DataType::from_ptx(b[96] as u32)
            .ok_or_else(|| bad("tensorDataType", "an element type code 0 to 15"))?;
        let interleave = Interleave::from_code(b[97] as u32)
            .ok_or_else(|| bad("interleave", "an interleave code 0 to 2"))?;
        let swizzle = Swizzle::from_code(b[98] as u32)
            .ok_or_else(|| bad("swizzle", "a swizzle mode code 0 to 4"))?;
        let atomicity = Atomicity::from_code(b[99] as u32)
            .ok_or_else(|| bad("swizzleAtomicity", "an atomicity code 0 to 3"))?;
        let oob_fill = OobFill::from_code(b[100] as u32)
            .ok_or_else(|| bad("oobFill", "a fill mode code 0 or 1"))?;
        let l2_promotion = L2Promotion::from_code(b[101] as u32)
            .ok_or_else(|| bad("l2Promotion", "an L2 promotion code 0 to 3"))?;
        let mode = match b[102] {
            0 => Mode::Tiled,
            1 => {
                let mut ic = Im2col::default();
                for i in 0..3 {
                    ic.lower_corner[i] =
                        i16::from_le_bytes([b[104 + 2 * i], b[105 + 2 * i]]) as i32;
                    ic.upper_corner[i] =
                        i16::from_le_bytes([b[110 + 2 * i], b[111 + 2 * i]]) as i32;
                }
                ic.channels_per_pixel = u16::from_le_bytes([b[116], b[117]]) as u32;
                ic.pixels_per_column = u16::from_le_bytes([b[118], b[119]]) as u32;
                Mode::Im2col(ic)
            }
            _ => return Err(bad("mode", "a mode code 0 (tiled) or 1 (im2col)")),
        };
        let mut m = TensorMap {
            data_type,
            rank,
            global_address: u64_at(0),
            global_dims: [1; 5],
            global_strides: [0; 4],
            box_dims: [1; 5],
            element_strides: [1; 5],
            interleave,
            swizzle,
            atomicity,
            l2_promotion,
            oob_fill,
            mode,
        };
        for i in 0..5 {
            m.global_dims[i] = u64_at(8 + 8 * i);
            m.box_dims[i] = u16::from_le_bytes([b[80 + 2 * i], b[81 + 2 * i]]) as u32;
            m.element_strides[i] = b[90 + i] as u32;
        }
        for i in 0..4 {
            m.global_strides[i] = u64_at(48 + 8 * i);
        }
        m.set_unset_entries(rank as usize);
        Ok(m)
    }

    /// The fields in one line, for messages.
    pub fn describe(&self) -> String {
        let r = self.rank as usize;
        format!(
            "{} rank {} at {:#x} dims {:?} strides {:?} box {:?} estrides {:?} interleave {:?} swizzle {:?}/{:?} oob {:?}",
            self.data_type.name(),
            self.rank,
            self.global_address,
            &self.global_dims[..r.min(5)],
            &self.global_strides[..r.saturating_sub(1).min(4)],
            &self.box_dims[..r.min(5)],
            &self.element_strides[..r.min(5)],
            self.interleave,
            self.swizzle,
            self.atomicity,
            self.oob_fill
        )
    }
}

/// The last four bytes of our encoding: "TMAP".
pub const MAGIC: u32 = u32::from_le_bytes(*b"TMAP");

/// Our 128-byte encoding of a tensor map (little-endian; the driver's own
/// is undocumented and not reproduced):
///
/// | bytes    | field |
/// |----------|-------|
/// | 0..8     | `globalAddress` |
/// | 8..48    | `globalDim[0..5]`, u64 each |
/// | 48..80   | `globalStrides[0..4]`, u64 each |
/// | 80..90   | `boxDim[0..5]`, u16 each (65535 for any larger) |
/// | 90..95   | `elementStrides[0..5]`, u8 each (255 for any larger) |
/// | 95       | rank (1..5) |
/// | 96       | element type, the `tensormap.replace` `.elemtype` code (Table 33) |
/// | 97       | interleave (Table 33 code) |
/// | 98       | swizzle mode (Table 33 code) |
/// | 99       | swizzle atomicity (Table 33 code) |
/// | 100      | fill mode (Table 33 code) |
/// | 101      | L2 promotion (driver code) |
/// | 102      | mode: 0 tiled, 1 im2col |
/// | 103      | 0 |
/// | 104..110 | im2col `pixelBoxLowerCorner`, 3 × i16 |
/// | 110..116 | im2col `pixelBoxUpperCorner`, 3 × i16 |
/// | 116..118 | im2col `channelsPerPixel`, u16 |
/// | 118..120 | im2col `pixelsPerColumn`, u16 |
/// | 120..124 | 0 |
/// | 124..128 | magic "TMAP" |
///
/// Every entry of the arrays is written, those past the rank too (a
/// `tensormap.replace` of the rank brings them back in); there a 0 in
/// `globalDim`, `boxDim` or `elementStrides` is an entry never set, read
/// back as 1. A `tensormap.replace` writes only values these widths hold
/// (its ranges, [`super::replace`]).
pub const ENCODING: () = ();
