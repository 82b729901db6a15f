//! What a tiled tensor copy moves (PTX ISA 5.5.3, 5.5.7; 9.7.9.25.5.2):
//! the box a map and coordinates select, its layout in shared memory, the
//! swizzle placement of each 16-byte chunk, out-of-bounds fill, and the
//! global bytes the shared-to-global direction writes.
//!
//! Interpretations (ours), each held to an H100 by the device sweep
//! (corpus/tensor/sm_90, docs/tensor-observations.md) where it reaches:
//! 1. The box starts at the coordinates; its `j`-th element along dimension
//!    `i` is at coordinate `coords[i] + j * elementStrides[i]` (5.5.3.2: "the
//!    traversal stride specifies the exact number of elements to be
//!    skipped"), and there are `ceil(boxDim[i] / elementStrides[i])` of
//!    them (driver: "TMA loads `ceil( boxDim[i] / elementStrides[i])` number
//!    of elements along i-th dimension"). Dimension 0 takes no stride:
//!    `boxDim[0]` consecutive elements (driver: "the first element of this
//!    array is ignored"; PTX 5.5.3.2 says it "must always be 1"; an H100
//!    ignores it).
//! 2. An element is inside the tensor when `0 <= coordinate <
//!    globalDim[i]` in every dimension; its global address is
//!    `globalAddress + x0 * elementSize + sum(x_i * globalStrides[i-1])`.
//!    Coordinates are `.s32`; the arithmetic is exact (no wrap at 32 bits).
//!    The box's own address (its first element's, inside or not) must be
//!    16-byte aligned (5.5.3.1: "The address of the bounding Box must also
//!    be aligned to 16 bytes"), i.e. `coords[0] * elementSize % 16 == 0`
//!    (an H100 raises CUDA_ERROR_ILLEGAL_INSTRUCTION otherwise).
//! 3. Shared memory holds the box row by row, dimension 0 fastest (5.5:
//!    "treat the data in the shared memory as a linear data"), each row
//!    `boxDim[0] * elementSize` bytes. Without swizzling the rows are dense;
//!    under a swizzle mode each row starts on a multiple of the swizzle span
//!    (32, 64, 128 bytes) and the rest of the span is not written (the
//!    spec's tables show full 128-byte lines only; an H100 does this). The
//!    copy's complete-tx counts the rows' bytes, not the unwritten rest.
//! 4. Swizzling permutes 16-byte chunks (or the atomicity's unit) inside
//!    each 128-byte line of the shared address space; the line's pattern
//!    row is `(address / 128) % rows` of the absolute address, the chunk's
//!    column its position in the line (5.5.7's tables, read as `column' =
//!    column XOR row`; the base-offset formula `(dstMem / 128) % 8` is this
//!    rule for a `dstMem` off the repeat boundary).
//! 5. The shared address must be 128-byte aligned (the CUDA C++ Programming
//!    Guide's TMA alignment table; an H100 raises
//!    CUDA_ERROR_MISALIGNED_ADDRESS at 16-byte aligned ones; PTX 5.5.7
//!    states 32 and 64 for two sm_100 atomicities).
//! 6. Out-of-bounds elements are zero (zero fill) or the OOB-NaN, whose bits
//!    the spec does not give: [`oob_nan`] holds the H100's (0x7ff7 in every
//!    16 bits).
//! 7. The copy moves bits, except that `.tf32` and `.tf32.ftz` elements are
//!    rounded to nearest even from `.f32` (5.5.1: "(rounded to nearest
//!    even)"; [`round_tf32`]) on the way in. No type flushes subnormals
//!    (`.f32.ftz` and `.tf32.ftz` included).
//! 8. The shared-to-global direction writes exactly the in-bounds elements
//!    of the box, reading each from where the load direction would have put
//!    it ([`tile_store`]). An H100 also writes the out-of-bounds rest of a
//!    row's last 16-byte granule ([`tile_store_sm90`]).
//! 9. Interleaved layouts (5.5.6: "The C information is organized in slices
//!    where sequential C elements are grouped in 16 byte or 32 byte
//!    quantities"): dimension 0 counts slices, not elements. `globalDim[0]`,
//!    `boxDim[0]`, `elementStrides[0]` and the first coordinate are in slices
//!    (16 or 32 bytes), the box holds `ceil(boxDim[0] / elementStrides[0])`
//!    slices a row, and slice `x0` of a row is at `x0 * 16` (or 32) bytes
//!    from the row's start; a slice is in or out of bounds whole. The box
//!    takes one position in dimension `rank - 2` (the coordinate, bounds
//!    checked), whatever `boxDim[rank - 2]`. Rows are dense in shared memory
//!    (not padded to the swizzle span), swizzled as interpretation 4 says,
//!    for every swizzle mode (the driver encodes 32-byte interleave with any).
//!    The spec says none of this; an H100 did it in all 4,000 loads of
//!    corpus/tensor/sm_90/interleave-sweep.jsonl.gz. A store reads each
//!    in-bounds slice from where the load would have put it and writes it
//!    whole (interpretation 8; a slice is a multiple of 16 bytes, so no
//!    granule is written past it): 1,173 stores of
//!    interleave-store-sweep.jsonl.gz on an H100.

use super::map::{Atomicity, DataType, Interleave, MapError, Mode, OobFill, Swizzle, TensorMap};
use std::fmt;

/// Why a tensor copy has no defined result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TensorError {
    /// The map breaks a rule (using it is undefined).
    InvalidMap(MapError),
    /// An im2col map in a tiled copy, or the reverse.
    WrongMode,
    /// A packed sub-byte type (sm_100 and later): not modelled yet.
    Unsupported(DataType),
    /// A part of the copy the model does not define yet.
    NotModelled(&'static str),
    /// The number of coordinates is not the map's rank (`.dim`).
    Coordinates { rank: u32, given: usize },
    /// A shared-memory address not aligned as the copy needs.
    Misaligned {
        addr: u32,
        align: u32,
        rule: &'static str,
    },
    /// The box's global address (`globalAddress` plus the coordinates
    /// times the strides) is not 16-byte aligned (PTX 5.5.3.1: "The address
    /// of the bounding Box must also be aligned to 16 bytes").
    MisalignedBox { offset: i128 },
    /// The shared-to-global direction with a negative coordinate (PTX
    /// 9.7.9.25.5.1: "Starting co-ordinates for Bounding Box (tensorCoords)
    /// must be non-negative").
    NegativeCoordinate { dim: usize, value: i32 },
    /// A global read the closure refused: `len` bytes at `addr`.
    Fault { addr: u64, len: usize },
    /// An im2col copy whose `im2colInfo` vector does not hold `rank - 2`
    /// offsets (PTX 9.7.9.25.5.2: "A vector of im2col offsets whose vector
    /// size is two less than number of dimensions .dim").
    Im2colOffsets { rank: u32, given: usize },
    /// An im2col offset past its range (PTX 5.5.4.1: "[0, 2^16-1]" for 3D,
    /// "[0, 2^8-1]" for 4D, "[0, 2^5-1]" for 5D). `dim` is the tensor
    /// dimension it shifts (1 is W).
    Im2colOffsetRange { dim: usize, value: u16, max: u16 },
    /// An im2col copy whose filter base (the coordinate of tensor dimension
    /// `dim`, 1 to rank-2) lies outside the Bounding Box `[lower, upper]`
    /// (PTX 5.5.4.1: "The filter corner location must be within the
    /// bounding box").
    FilterOutsideBox {
        dim: usize,
        value: i32,
        lower: i64,
        upper: i64,
    },
    /// The shared source is shorter than the box.
    ShortSource { need: usize, given: usize },
    /// A `.tile::gather4` or `.tile::scatter4` copy that breaks a rule of
    /// the mode (the rule quoted).
    Gather4(&'static str),
    /// An `.im2col::w` copy's `wHalo` past its range (PTX 9.7.9.25.5.2:
    /// "[0, 512)" for `.im2col::w`, "[0, 32)" for `.im2col::w::128`).
    WHalo { value: u16, max: u16 },
    /// An `.im2col::w` copy's `wOffset` past its range (PTX 9.7.9.25.5.2:
    /// "whose valid range of values is [0, 32)").
    WOffset { value: u16 },
}

impl fmt::Display for TensorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TensorError::InvalidMap(e) => write!(f, "{e}"),
            TensorError::WrongMode => write!(f, "the tensor map's mode is not the copy's `.load_mode`"),
            TensorError::Unsupported(t) => write!(f, "element type .{} is not modelled yet", t.name()),
            TensorError::NotModelled(what) => write!(f, "{what} is not modelled yet"),
            TensorError::Coordinates { rank, given } => {
                write!(f, "{given} tensor coordinates for a rank-{rank} tensor map")
            }
            TensorError::Misaligned { addr, align, rule } => {
                write!(f, "shared address {addr:#x} is not {align}-byte aligned: {rule}")
            }
            TensorError::MisalignedBox { offset } => write!(
                f,
                "the bounding box starts {offset} bytes from globalAddress, not a multiple of 16: The address of the bounding Box must also be aligned to 16 bytes (PTX ISA 5.5.3.1)"
            ),
            TensorError::NegativeCoordinate { dim, value } => write!(
                f,
                "coordinate {dim} is {value}: Starting co-ordinates for Bounding Box (tensorCoords) must be non-negative (PTX ISA 9.7.9.25.5.1)"
            ),
            TensorError::Fault { addr, len } => write!(f, "{len} bytes at {addr:#x} are not readable global memory"),
            TensorError::ShortSource { need, given } => {
                write!(f, "the shared source holds {given} bytes, the box {need}")
            }
            TensorError::Im2colOffsets { rank, given } => write!(
                f,
                "{given} im2col offsets for a rank-{rank} tensor map: A vector of im2col offsets whose vector size is two less than number of dimensions .dim (PTX ISA 9.7.9.25.5.2)"
            ),
            TensorError::Im2colOffsetRange { dim, value, max } => write!(
                f,
                "the im2col offset of dimension {dim} is {value}, past its range [0, {max}] (PTX ISA 5.5.4.1)"
            ),
            TensorError::Gather4(rule) => write!(f, "{rule}"),
            TensorError::WHalo { value, max } => write!(
                f,
                "wHalo is {value}, past {max} (PTX ISA 9.7.9.25.5.2)"
            ),
            TensorError::WOffset { value } => write!(
                f,
                "wOffset is {value}: Argument wOffset is a 16bit unsigned integer whose valid range of values is [0, 32) (PTX ISA 9.7.9.25.5.2)"
            ),
            TensorError::FilterOutsideBox { dim, value, lower, upper } => write!(
                f,
                "coordinate {dim} is {value}, outside the Bounding Box [{lower}, {upper}]: The filter corner location must be within the bounding box (PTX ISA 5.5.4.1)"
            ),
        }
    }
}

impl std::error::Error for TensorError {}

/// The box of a tiled map: elements per dimension and bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoxShape {
    /// Elements along each dimension (1 past the rank).
    pub counts: [u32; 5],
    /// Bytes of one row (dimension 0's elements), a multiple of 16.
    pub row_bytes: u32,
    /// Bytes from one row to the next in shared memory: `row_bytes`, or the
    /// swizzle span under a swizzle mode (interpretation 3).
    pub pitch: u32,
    /// Bytes the copy moves: `row_bytes` times the rows. What the copy's
    /// complete-tx counts.
    pub bytes: u32,
    /// Bytes the box spans in shared memory: `pitch` times the rows.
    pub extent: u32,
    /// Element size.
    pub elem: u32,
}

impl BoxShape {
    /// Rows (the product of the counts of dimensions 1 to 4).
    pub fn rows(&self) -> u32 {
        self.counts[1..].iter().product()
    }
}

/// The box of a tiled map (interpretations 1 and 3).
pub fn box_shape(map: &TensorMap) -> Result<BoxShape, TensorError> {
    if map.mode != Mode::Tiled {
        return Err(TensorError::WrongMode);
    }
    let elem = map
        .elem_size()
        .ok_or(TensorError::Unsupported(map.data_type))?;
    let mut counts = [1u32; 5];
    for (i, count) in counts
        .iter_mut()
        .enumerate()
        .take((map.rank as usize).min(5))
    {
        let b = map.box_dims[i];
        let s = map.element_strides[i].max(1);
        *count = if i == 0 && map.interleave == Interleave::None {
            b
        } else {
            b.div_ceil(s)
        };
    }
    if map.interleave != Interleave::None {
        // interpretation 9: slices in dimension 0, one position in rank - 2
        let slice = map.interleave.bytes();
        if map.rank >= 2 {
            counts[map.rank as usize - 2] = 1;
        }
        let row_bytes = counts[0] * slice;
        let rows: u32 = counts[1..].iter().product();
        return Ok(BoxShape {
            counts,
            row_bytes,
            pitch: row_bytes,
            bytes: row_bytes * rows,
            // the swizzle moves chunks within their 128-byte line
            extent: if map.swizzle == Swizzle::None {
                row_bytes * rows
            } else {
                (row_bytes * rows).div_ceil(128) * 128
            },
            elem: slice,
        });
    }
    let row_bytes = (counts[0] * elem).div_ceil(16) * 16;
    let pitch = row_bytes.max(map.swizzle.bytes());
    let rows: u32 = counts[1..].iter().product();
    Ok(BoxShape {
        counts,
        row_bytes,
        pitch,
        bytes: row_bytes * rows,
        extent: pitch * rows,
        elem,
    })
}

/// The bits an OOB-NaN element gets, little-endian, for a float type
/// (`None` for the others, where the fill mode is invalid). The spec says
/// only "a special NaN called OOB-NaN" (5.5.3.3); these are the bits an
/// H100 writes (docs/tensor-observations.md).
pub fn oob_nan(ty: DataType) -> Option<Vec<u8>> {
    let es = ty.size()? as usize;
    // 0x7ff7 in every 16 bits: an f16, bf16, f32 (0x7ff77ff7) and f64 NaN.
    ty.is_float().then(|| [0xf7, 0x7f].repeat(es / 2))
}

/// `.tf32` and `.tf32.ftz` elements as a copy moves them (PTX 5.5.1:
/// ".tf32 ... (rounded to nearest even)"): the `.f32` bits rounded to 10
/// fraction bits, ties to even, the low 13 bits zero. Every NaN becomes
/// 0x7fffe000 (the spec gives no NaN; an H100's). Subnormals round like the
/// rest: an H100 does not flush them for `.tf32.ftz`.
pub fn round_tf32(bits: u32) -> u32 {
    if bits & 0x7f80_0000 == 0x7f80_0000 && bits & 0x007f_ffff != 0 {
        return 0x7fff_e000;
    }
    let lsb = (bits >> 13) & 1;
    bits.wrapping_add(0x0fff + lsb) & 0xffff_e000
}

/// Where the swizzle puts the byte the unswizzled layout has at shared
/// address `addr` (interpretation 4). The identity without swizzling.
pub fn swizzle_addr(map: &TensorMap, addr: u32) -> u32 {
    let line = addr >> 7;
    match (map.swizzle, map.atomicity) {
        (Swizzle::None, _) => addr,
        (Swizzle::B32, _) | (Swizzle::B96, _) => addr ^ ((line & 1) << 4),
        (Swizzle::B64, _) => addr ^ ((line & 3) << 4),
        (Swizzle::B128, Atomicity::B16) => addr ^ ((line & 7) << 4),
        (Swizzle::B128, Atomicity::B32) => addr ^ ((line & 3) << 5),
        (Swizzle::B128, Atomicity::B32Flip8) => addr ^ ((line & 3) << 5) ^ ((line & 1) << 3),
        (Swizzle::B128, Atomicity::B64) => addr ^ ((line & 1) << 6),
    }
}

/// Checks the shared-memory address (interpretation 5).
pub(crate) fn check_smem(addr: u32) -> Result<(), TensorError> {
    if !addr.is_multiple_of(128) {
        return Err(TensorError::Misaligned {
            addr,
            align: 128,
            rule: "the shared memory address of a tensor copy must be 128-byte aligned (CUDA C++ Programming Guide, TMA alignment; an H100 faults otherwise)",
        });
    }
    Ok(())
}

fn check_common(map: &TensorMap, coords: &[i32]) -> Result<BoxShape, TensorError> {
    map.validate().map_err(TensorError::InvalidMap)?;
    if map.data_type.is_packed() {
        return Err(TensorError::Unsupported(map.data_type));
    }
    let shape = box_shape(map)?;
    if coords.len() != map.rank as usize {
        return Err(TensorError::Coordinates {
            rank: map.rank,
            given: coords.len(),
        });
    }
    // The box's address: the strides are multiples of 16 (validate), so
    // only the first coordinate can misalign it.
    let offset = coords[0] as i128 * shape.elem as i128;
    if offset % 16 != 0 {
        return Err(TensorError::MisalignedBox { offset });
    }
    Ok(shape)
}

/// Calls `f(row_offset, x, global_row_start, in_bounds)` for every element
/// of the box: `row_offset` the byte offset of the element in the
/// unswizzled layout, `x` its coordinates, and whether it is in bounds.
/// Dimension 0 is handed over as runs: `f` gets the run's first element's
/// offset and coordinates, and the number of consecutive elements (all in
/// or all out of bounds) that follow with consecutive global addresses.
fn for_runs(
    map: &TensorMap,
    coords: &[i32],
    shape: &BoxShape,
    mut f: impl FnMut(u32, u64, u32, bool) -> Result<(), TensorError>,
) -> Result<(), TensorError> {
    let r = map.rank as usize;
    let es = shape.elem as u64;
    let inside = |i: usize, x: i64| x >= 0 && (x as u64) < map.global_dims[i];
    let stride0 = if map.interleave == Interleave::None {
        1
    } else {
        map.element_strides[0].max(1) as i64
    };
    let mut row = 0u32;
    for j4 in 0..shape.counts[4] {
        for j3 in 0..shape.counts[3] {
            for j2 in 0..shape.counts[2] {
                for j1 in 0..shape.counts[1] {
                    let js = [0, j1, j2, j3, j4];
                    let mut base = map.global_address;
                    let mut outer_in = true;
                    for i in 1..r {
                        let x =
                            coords[i] as i64 + js[i] as i64 * map.element_strides[i].max(1) as i64;
                        if !inside(i, x) {
                            outer_in = false;
                        } else {
                            base = base
                                .wrapping_add((x as u64).wrapping_mul(map.global_strides[i - 1]));
                        }
                    }
                    let row_off = row * shape.pitch;
                    // dimension 0, as runs
                    let n0 = shape.counts[0];
                    let mut j0 = 0u32;
                    while j0 < n0 {
                        let x0 = coords[0] as i64 + j0 as i64 * stride0;
                        let in0 = outer_in && inside(0, x0);
                        // how many follow with the same verdict and consecutive addresses
                        let mut n = 1u32;
                        if stride0 == 1 {
                            if in0 {
                                let left = map.global_dims[0] as i64 - x0;
                                n = (n0 - j0).min(left.min(u32::MAX as i64) as u32);
                            } else if outer_in && x0 < 0 {
                                n = (n0 - j0).min((-x0).min(u32::MAX as i64) as u32);
                            } else {
                                n = n0 - j0;
                            }
                        }
                        let addr = if in0 {
                            base.wrapping_add(x0 as u64 * es)
                        } else {
                            0
                        };
                        f(row_off + j0 * shape.elem, addr, n, in0)?;
                        j0 += n;
                    }
                    row += 1;
                }
            }
        }
    }
    Ok(())
}

/// Global memory as a copy reads it. A closure `Fn(addr, len) ->
/// Option<Vec<u8>>` is one (`None`: the bytes are not readable).
pub trait Global {
    /// Fills `out` with the bytes at `addr`; false where they are not
    /// readable.
    fn read(&self, addr: u64, out: &mut [u8]) -> bool;
}

impl<F: Fn(u64, usize) -> Option<Vec<u8>>> Global for F {
    fn read(&self, addr: u64, out: &mut [u8]) -> bool {
        match self(addr, out.len()) {
            Some(v) if v.len() >= out.len() => {
                out.copy_from_slice(&v[..out.len()]);
                true
            }
            _ => false,
        }
    }
}

/// What a load writes in shared memory: `bytes` for the `extent` bytes from
/// `smem_addr`, and which of its 16-byte chunks it writes (the others keep
/// what they held).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedTile {
    pub bytes: Vec<u8>,
    /// One entry per 16 bytes of `bytes`.
    pub written: Vec<bool>,
}

impl SharedTile {
    /// `old` (the bytes at `[smem_addr, smem_addr + extent)` before the
    /// copy) with the written chunks replaced.
    pub fn apply(&self, old: &mut [u8]) {
        for (k, &w) in self.written.iter().enumerate() {
            if w {
                old[16 * k..16 * k + 16].copy_from_slice(&self.bytes[16 * k..16 * k + 16]);
            }
        }
    }
}

/// The box in the unswizzled layout (interpretations 1, 2, 3, 6, 7):
/// `shape.extent` bytes and the written chunks.
pub fn tile_linear(
    map: &TensorMap,
    coords: &[i32],
    global: &dyn Global,
) -> Result<SharedTile, TensorError> {
    let shape = check_common(map, coords)?;
    let es = shape.elem as usize;
    let mut bytes = vec![0u8; shape.extent as usize];
    let mut written = vec![false; shape.extent as usize / 16];
    for row in 0..shape.rows() {
        let o = (row * shape.pitch / 16) as usize;
        written[o..o + (shape.row_bytes / 16) as usize].fill(true);
    }
    let fill: Vec<u8> = match map.oob_fill {
        OobFill::Zero => vec![0; es],
        // (an interleaved slice: the element's NaN in every element)
        OobFill::NanRequestZeroFma => oob_nan(map.data_type)
            .map(|n| n.repeat(es / n.len().max(1)))
            .unwrap_or_else(|| vec![0; es]),
    };
    for_runs(map, coords, &shape, |off, addr, n, inb| {
        let off = off as usize;
        let len = n as usize * es;
        if inb {
            if !global.read(addr, &mut bytes[off..off + len]) {
                return Err(TensorError::Fault { addr, len });
            }
            if matches!(map.data_type, DataType::Tf32 | DataType::Tf32Ftz) {
                for w in bytes[off..off + len].chunks_mut(4) {
                    let v = round_tf32(u32::from_le_bytes(w.try_into().unwrap()));
                    w.copy_from_slice(&v.to_le_bytes());
                }
            }
        } else if map.oob_fill != OobFill::Zero {
            for k in 0..n as usize {
                bytes[off + k * es..off + (k + 1) * es].copy_from_slice(&fill);
            }
        }
        Ok(())
    })?;
    Ok(SharedTile { bytes, written })
}

/// What `cp.async.bulk.tensor.Nd.shared::cluster.global.tile` (or
/// `.shared::cta`) writes at `[smem_addr, smem_addr + extent)`: the box of
/// [`tile_linear`] placed by the swizzle ([`swizzle_addr`]).
pub fn tile_load(
    map: &TensorMap,
    coords: &[i32],
    smem_addr: u32,
    global: &dyn Global,
) -> Result<SharedTile, TensorError> {
    let lin = tile_linear(map, coords, global)?;
    check_smem(smem_addr)?;
    Ok(swizzle_tile(map, smem_addr, lin))
}

/// The bytes of `lin` (a box in the unswizzled layout at `smem_addr`)
/// placed by the swizzle ([`swizzle_addr`]); `lin` itself without one.
pub(crate) fn swizzle_tile(map: &TensorMap, smem_addr: u32, lin: SharedTile) -> SharedTile {
    if map.swizzle == Swizzle::None {
        return lin;
    }
    let mut out = SharedTile {
        bytes: vec![0u8; lin.bytes.len()],
        written: vec![false; lin.written.len()],
    };
    // the unit the swizzle moves: 16 bytes, or 8 where it flips 8-byte
    // halves
    let unit = if map.atomicity == Atomicity::B32Flip8 {
        8
    } else {
        16
    };
    for (k, chunk) in lin.bytes.chunks(unit).enumerate() {
        let a = smem_addr + (unit * k) as u32;
        let to = (swizzle_addr(map, a) - smem_addr) as usize;
        out.bytes[to..to + chunk.len()].copy_from_slice(chunk);
        out.written[to / 16] = lin.written[unit * k / 16];
    }
    out
}

/// The global writes of `cp.async.bulk.tensor.Nd.global.shared::cta.tile`
/// from the box held at `smem_addr` (`smem`: the bytes at `[smem_addr,
/// smem_addr + extent)`), as (address, bytes) runs in box order;
/// out-of-bounds elements are not written (interpretation 8).
pub fn tile_store(
    map: &TensorMap,
    coords: &[i32],
    smem_addr: u32,
    smem: &[u8],
) -> Result<Vec<(u64, Vec<u8>)>, TensorError> {
    store(map, coords, smem_addr, smem, false)
}

/// [`tile_store`] as an H100 does it: a row that ends inside a 16-byte
/// granule of global memory (`globalDim[0] * elementSize` not a multiple of
/// 16) is written to the end of that granule, the out-of-bounds elements
/// there included (docs/tensor-observations.md). The extra bytes lie
/// between the tensor's last element of the row and the next 16-byte
/// boundary: padding, when the strides leave room for it.
pub fn tile_store_sm90(
    map: &TensorMap,
    coords: &[i32],
    smem_addr: u32,
    smem: &[u8],
) -> Result<Vec<(u64, Vec<u8>)>, TensorError> {
    store(map, coords, smem_addr, smem, true)
}

fn store(
    map: &TensorMap,
    coords: &[i32],
    smem_addr: u32,
    smem: &[u8],
    granules: bool,
) -> Result<Vec<(u64, Vec<u8>)>, TensorError> {
    let (lin, runs) = store_runs(map, coords, smem_addr, smem, granules)?;
    Ok(runs
        .into_iter()
        .map(|(a, off, len)| (a, lin[off..off + len].to_vec()))
        .collect())
}

/// The unswizzled box of a store and its runs: `(global address, offset
/// in the box, bytes)`.
pub type StoreRuns = (Vec<u8>, Vec<(u64, usize, usize)>);

/// [`tile_store`] as the unswizzled box and its runs (no copy of each
/// run).
pub fn tile_store_runs(
    map: &TensorMap,
    coords: &[i32],
    smem_addr: u32,
    smem: &[u8],
) -> Result<StoreRuns, TensorError> {
    store_runs(map, coords, smem_addr, smem, false)
}

fn store_runs(
    map: &TensorMap,
    coords: &[i32],
    smem_addr: u32,
    smem: &[u8],
    granules: bool,
) -> Result<StoreRuns, TensorError> {
    // (an interleaved map: the slices of interpretation 9, read from where
    // the load would have put them)
    let shape = check_common(map, coords)?;
    check_smem(smem_addr)?;
    for (dim, &c) in coords.iter().enumerate() {
        if c < 0 {
            return Err(TensorError::NegativeCoordinate { dim, value: c });
        }
    }
    if smem.len() < shape.extent as usize {
        return Err(TensorError::ShortSource {
            need: shape.extent as usize,
            given: smem.len(),
        });
    }
    // Unswizzle the source into the linear layout.
    let mut lin = vec![0u8; shape.extent as usize];
    if map.swizzle == Swizzle::None {
        lin.copy_from_slice(&smem[..shape.extent as usize]);
    } else {
        // the unit the swizzle moves (as in `swizzle_tile`)
        let unit = if map.atomicity == Atomicity::B32Flip8 {
            8
        } else {
            16
        };
        for k in 0..lin.len() / unit {
            let a = smem_addr + (unit * k) as u32;
            let from = (swizzle_addr(map, a) - smem_addr) as usize;
            lin[unit * k..unit * (k + 1)].copy_from_slice(&smem[from..from + unit]);
        }
    }
    let es = shape.elem as usize;
    let mut writes = Vec::new();
    let row_end = map.global_dims[0] * es as u64; // bytes of dimension 0 inside
    for_runs(map, coords, &shape, |off, addr, n, inb| {
        if inb {
            let off = off as usize;
            let mut len = n as usize * es;
            if granules {
                // the run's end, as a byte offset in its row of the tensor
                let x_end = (coords[0] as i64 * es as i64) as u64
                    + (off as u64 % shape.pitch as u64)
                    + len as u64;
                if x_end == row_end && !row_end.is_multiple_of(16) {
                    len += (16 - row_end % 16) as usize;
                }
            }
            writes.push((addr, off, len));
        }
        Ok(())
    })?;
    Ok((lin, writes))
}

#[cfg(test)]
mod interleave_tests {
    use super::*;

    /// Byte `k` of global memory is `k & 0xff`.
    fn ramp(addr: u64, len: usize) -> Option<Vec<u8>> {
        Some((0..len as u64).map(|k| (addr + k) as u8).collect())
    }

    fn map(il: Interleave) -> TensorMap {
        TensorMap {
            // 8-byte elements: boxDim[0] * 8 a multiple of 16 (validate)
            data_type: DataType::U64,
            rank: 3,
            global_address: 0x1000,
            interleave: il,
            swizzle: if il == Interleave::B32 {
                Swizzle::B32
            } else {
                Swizzle::None
            },
            global_dims: [2, 3, 2, 1, 1],
            global_strides: [64, 256, 0, 0],
            box_dims: [2, 2, 1, 1, 1],
            element_strides: [1, 1, 1, 1, 1],
            ..TensorMap::default()
        }
    }

    #[test]
    fn slices_of_16_bytes_with_one_position_in_rank_minus_2() {
        // Slices x0 = 1 and 2 of row (x1 = 1, x2 = 1): the first at
        // 0x1000 + 16 + 64 + 256 = 0x1150, the second past globalDim[0] = 2
        // (zero); boxDim[1] = 2 gives one row (dimension rank - 2).
        let m = map(Interleave::B16);
        let shape = box_shape(&m).unwrap();
        assert_eq!(
            (shape.counts, shape.bytes, shape.extent),
            ([2, 1, 1, 1, 1], 32, 32)
        );
        let t = tile_load(&m, &[1, 1, 1], 0, &ramp).unwrap();
        let mut want: Vec<u8> = (0x50..0x60).collect();
        want.extend([0u8; 16]);
        assert_eq!(t.bytes, want);
        assert_eq!(t.written, vec![true, true]);
    }

    #[test]
    fn slices_of_32_bytes_swizzled() {
        // Slice x0 = 0 of row (1, 0): 32 bytes at 0x1000 + 64 = 0x1040,
        // slice 1 at 0x1060; at shared address 128 (line 1) the 32-byte
        // swizzle swaps the 16-byte halves of each 32 bytes.
        let m = map(Interleave::B32);
        let t = tile_load(&m, &[0, 1, 0], 128, &ramp).unwrap();
        let mut want = Vec::new();
        for base in [0x40u8, 0x60] {
            want.extend(base + 16..base + 32);
            want.extend(base..base + 16);
        }
        // (the box's 64 bytes, in a 128-byte line the swizzle spans)
        assert_eq!(t.bytes[..64], want[..]);
        assert_eq!(
            t.written,
            [true, true, true, true, false, false, false, false]
        );
    }

    #[test]
    fn stores_write_the_slices_the_load_reads() {
        // The load's tile stored back at the same coordinates writes the
        // in-bounds slice (0x1150, 16 bytes) with the bytes it read; the
        // out-of-bounds slice is not written.
        let m = map(Interleave::B16);
        let t = tile_load(&m, &[1, 1, 1], 0, &ramp).unwrap();
        let w = tile_store(&m, &[1, 1, 1], 0, &t.bytes).unwrap();
        assert_eq!(w, vec![(0x1150, (0x50..0x60).collect::<Vec<u8>>())]);
    }
}
