//! What an im2col tensor copy moves (PTX ISA 5.5.4; 9.7.9.25.5.2): the
//! pixels a map, the coordinates and the im2col offsets select, the column
//! they make in shared memory, and its bytes. The swizzle placement, the
//! out-of-bounds fill and the element conversions are the tiled copy's
//! ([`super::tile`]). Interleaved loads follow interpretation 14 (an H100's
//! doing); interleaved `.im2col::w` copies and stores are left to others.
//!
//! Interpretations (ours), each with the text it reads and what an H100
//! did (corpus/tensor/sm_90/im2col-sweep.jsonl.gz: 8,000 loads, every one
//! equal to this model; docs/tensor-observations.md, "im2col"):
//! 1. Dimension 0 is C, the last is N, the ones between are W, H, D in
//!    that order (5.5.4: "3D: NWC, 4D: NHWC, 5D: NDHWC", listed outermost
//!    first). The map's `lower_corner[i]` and `upper_corner[i]` belong to
//!    dimension `i + 1`, W first, although the driver's text lists the
//!    corners as "{D, H, W}". Confirmed: the reverse order differs from the
//!    H100 on half the loads.
//! 2. The Bounding Box of dimension `i` (W, H, D) is `[lower, globalDim[i]
//!    - 1 + upper]` (5.5.4.1: "Bounding-box Lower-Corner specifies the
//!    corner with the smallest coordinate and Bounding-box Upper-Corner
//!    specifies the corner with the largest coordinate"; the driver: offsets
//!    "from top/left/front corner" and "from bottom/right/back corner").
//!    It must hold a position (the driver: "must have non-zero area"): a map
//!    with `globalDim[i] + upper - lower <= 0` is invalid. Confirmed.
//! 3. The coordinates of W, H, D give the first filter base, which must lie
//!    in the box (5.5.4.1: "specify the location of the convolution filter
//!    base in the tensor space. The filter corner location must be within the
//!    bounding box"); a copy whose base lies outside has no defined result
//!    ([`TensorError::FilterOutsideBox`]). The H100 faults
//!    (`CUDA_ERROR_ILLEGAL_INSTRUCTION`) on every such copy tried.
//! 4. `pixelsPerColumn` pixels are taken (5.5.4.1: "Pixels-per-Column
//!    specifies the number of elements to be accessed in the NDHW space"),
//!    the filter base walking the box W fastest, then H, then D, then N:
//!    W steps by `elementStrides[1]`; past the box's upper end it goes back
//!    to the lower corner and H steps by its own stride, and so on; past the
//!    last spatial dimension N steps by `elementStrides[rank - 1]` (5.5.4.2:
//!    "The number of elements traversed along the D, H and W dimensions is
//!    strided by the traversal stride for that dimension"; the text is
//!    silent on N, which the H100 strides too, and on C, whose stride it
//!    ignores). Confirmed, N's stride included.
//! 5. The pixel read is the filter base plus the im2col offsets, one per
//!    spatial dimension, W first (5.5.4.1: "The im2col offsets ... are
//!    added to the filter base coordinates to determine the starting
//!    location in the tensor space from where the elements are accessed"),
//!    each within the range 5.5.4.1 gives for the rank
//!    ([`TensorError::Im2colOffsetRange`] otherwise; the H100 takes an
//!    offset's low 8 bits in 4D, 5 bits in 5D). Confirmed.
//! 6. Each pixel gives `channelsPerPixel` consecutive elements from channel
//!    `coords[0]` (5.5.4.1: "Across N and C dimensions: specify the starting
//!    offsets along the dimension, similar to the tiled mode"); an element is
//!    in bounds when every coordinate is in `[0, globalDim[i])`, and the
//!    others get the fill of the map (5.5.4.3: "Similar to tiled mode, zero
//!    fill or OOB-NaN fill"; the OOB-NaN and `.tf32` rounding are the tiled
//!    copy's). The first channel's address must be 16-byte aligned, as the
//!    tiled box's (5.5.3.1; the H100 faults otherwise). Confirmed.
//! 7. Shared memory holds the column pixel by pixel, each pixel a row of
//!    `channelsPerPixel * elementSize` bytes, which must be a multiple of 16
//!    (the driver refuses other maps, though its text asks it only of the
//!    tiled box); under a swizzle mode each row starts on a multiple of the
//!    span and the pattern is the tiled copy's (5.5.7), the address
//!    128-byte aligned. The complete-tx counts the rows' bytes. Confirmed.

//!
//! `.im2col::w` and `.im2col::w::128` (sm_100; PTX ISA 5.5.5, from the text
//! alone: no GPU at hand runs them) are read as follows (ours):
//! 8. The walk is interpretation 4's with H and D held at their coordinates:
//!    W steps by `elementStrides[1]` and, past the box's upper end, goes
//!    back to the lower corner while N steps by its stride (5.5.5: "elements
//!    are accessed across the W dimension only while keeping the H and D
//!    dimension constant"; 5.5.5.1: "the size of the bounding box in D and H
//!    dimensions are 1. The D and H dimensions in the tensor coordinates ...
//!    specify the position of the bounding box"; 5.5.5.2: "the number of
//!    elements traversed along only the W dimension is strided by the
//!    traversal stride"). No im2col offsets are added; H and D need not lie
//!    in a box (rows outside the tensor are filled).
//! 9. The W coordinate is the first pixel; it may lie left of the box but
//!    not right of it (5.5.5.1: "The first element can lie outside of the
//!    Bounding Box in the W-dimension only and only on the left side of the
//!    Bounding Box"); one right of it is [`TensorError::FilterOutsideBox`].
//! 10. `wOffset` shifts the box and the first pixel along W (5.5.5.4:
//!    "Bounding Box Lower Corner W += wOffset / Bounding Box Upper Corner W
//!    += wOffset / W += wOffset").
//! 11. `.im2col::w` takes `pixelsPerColumn` pixels, `.im2col::w::128` 128
//!    (5.5.5.1: "Number of pixels loaded in im2col::w::128 mode is always
//!    128. So, Pixels-per-Column is ignored").
//! 12. The halo pixels are the next `wHalo` positions along W after the
//!    last pixel of a group, stepping by the W stride in the same image
//!    without going back to the lower corner, and are written right after
//!    that group (5.5.5.3: "The halo pixels are always loaded in the shared
//!    memory next to the main row pixels"). In `.im2col::w` the group is the
//!    whole column ("specifies how many filter halo elements must be loaded
//!    at the end of the image"; the example "loads 128 pixels and the two
//!    halo pixels"); in `.im2col::w::128` each 32 pixels are a group ("the
//!    halo elements are loaded after every 32 elements"), so the column has
//!    `128 + 4 wHalo` pixels. Rows, fill and complete-tx are interpretation
//!    7's over all the column's pixels.
//! 13. `wHalo` lies in `[0, 512)` for `.im2col::w` and `[0, 32)` for
//!    `.im2col::w::128`, `wOffset` in `[0, 32)` (9.7.9.25.5.2), else
//!    [`TensorError::WHalo`] / [`TensorError::WOffset`]. The map must swizzle,
//!    and not with 32-byte atomicity and 8-byte flip (5.5.5: "swizzling mode
//!    must not be (i) no swizzle and (ii) 128-byte swizzle mode with 32-byte
//!    atomicity with 8-byte flip"), and must not be interleaved (5.5.6: "The
//!    interleave layout is not supported for .im2col::w and .im2col::w::128
//!    modes"): such a map is invalid for these copies.
//!
//! Interleaved maps (`CU_TENSOR_MAP_INTERLEAVE_16B`, `_32B`; 5.5.6: "The C
//! information is organized in slices where sequential C elements are
//! grouped in 16 byte or 32 byte quantities"), from what an H100 did
//! (corpus/tensor/sm_90/interleave-im2col-sweep.jsonl.gz; the spec says none
//! of this):
//! 14. The spatial dimensions move down one: dimension 0, counted in
//!     slices as in the tiled copy (`super::tile`, interpretation 9), is W,
//!     dimensions 1 to `rank - 3` are H and D, dimension `rank - 2` (the
//!     slices' group of channels) takes one position, its coordinate, and
//!     the last is N. The corners, the Bounding Boxes, the filter base
//!     check, the im2col offsets and the walk of interpretations 2 to 5
//!     apply to W, H, D so numbered (corner `i` to dimension `i`). Each pixel
//!     gives one slice, read whole from `globalAddress + x0 * slice + sum
//!     x[i] * globalStrides[i - 1]` when every coordinate lies in `[0,
//!     globalDim[i])`, else filled (interpretation 6's fill, every element);
//!     `channelsPerPixel` only passes the driver's checks. The slices are
//!     packed in shared memory and swizzled as the tiled interleaved box is;
//!     the complete-tx counts `pixelsPerColumn` slices. The H100 did so in
//!     the 95 loads of the sweep the model takes (34 more have 32-byte
//!     interleave with another swizzle, which `validate` refuses), counted
//!     `pixelsPerColumn` slices in all 129, and faulted on all 122 loads
//!     whose filter base lay outside the Bounding Boxes so numbered (and
//!     none other).

use super::map::{
    Atomicity, DataType, Im2col, Interleave, MapError, Mode, OobFill, Swizzle, TensorMap,
};
use super::tile::{check_smem, oob_nan, round_tf32, swizzle_tile};
use super::tile::{BoxShape, Global, SharedTile, TensorError};

/// The largest im2col offset of each rank (PTX 5.5.4.1: "[0, 2^16-1]" for
/// 3D, "[0, 2^8-1]" for 4D, "[0, 2^5-1]" for 5D).
pub fn im2col_offset_max(rank: u32) -> u16 {
    match rank {
        3 => u16::MAX,
        4 => 255,
        _ => 31,
    }
}

/// The column of an im2col map (interpretation 7), as a [`BoxShape`]:
/// `counts` are `[channelsPerPixel, pixelsPerColumn, 1, 1, 1]`, a row is one
/// pixel. Checks no rule of the map.
pub fn im2col_shape(map: &TensorMap) -> Result<BoxShape, TensorError> {
    let Mode::Im2col(ic) = map.mode else {
        return Err(TensorError::WrongMode);
    };
    let elem = map
        .elem_size()
        .ok_or(TensorError::Unsupported(map.data_type))?;
    let channels = ic.channels_per_pixel;
    let pixels = ic.pixels_per_column;
    if map.interleave != Interleave::None {
        // interpretation 14: one slice a pixel, packed
        let slice = map.interleave.bytes();
        let bytes = slice.saturating_mul(pixels);
        return Ok(BoxShape {
            counts: [1, pixels, 1, 1, 1],
            row_bytes: slice,
            pitch: slice,
            bytes,
            // the swizzle moves chunks within their 128-byte line
            extent: if map.swizzle == Swizzle::None {
                bytes
            } else {
                bytes.div_ceil(128).saturating_mul(128)
            },
            elem: slice,
        });
    }
    // (saturating: an unchecked map may hold any counts)
    let row_bytes = channels
        .saturating_mul(elem)
        .div_ceil(16)
        .saturating_mul(16);
    let pitch = row_bytes.max(map.swizzle.bytes());
    Ok(BoxShape {
        counts: [channels, pixels, 1, 1, 1],
        row_bytes,
        pitch,
        bytes: row_bytes.saturating_mul(pixels),
        extent: pitch.saturating_mul(pixels),
        elem,
    })
}

/// The bytes the complete-tx of
/// `cp.async.bulk.tensor.Nd.shared::cluster.global.im2col.mbarrier::complete_tx::bytes`
/// counts: `pixelsPerColumn` rows of `channelsPerPixel * elementSize` bytes
/// (interpretation 7), for a valid map.
pub fn im2col_bytes(map: &TensorMap) -> Result<u32, TensorError> {
    map.validate().map_err(TensorError::InvalidMap)?;
    let Mode::Im2col(ic) = map.mode else {
        return Err(TensorError::WrongMode);
    };
    im2col_rules(map, &ic).map_err(TensorError::InvalidMap)?;
    Ok(im2col_shape(map)?.bytes)
}

/// The checks every im2col copy makes, and its column.
fn check_common(map: &TensorMap, coords: &[i32], offsets: &[u16]) -> Result<BoxShape, TensorError> {
    map.validate().map_err(TensorError::InvalidMap)?;
    let Mode::Im2col(ic) = map.mode else {
        return Err(TensorError::WrongMode);
    };
    im2col_rules(map, &ic).map_err(TensorError::InvalidMap)?;
    if map.data_type.is_packed() {
        return Err(TensorError::Unsupported(map.data_type));
    }
    let shape = im2col_shape(map)?;
    if coords.len() != map.rank as usize {
        return Err(TensorError::Coordinates {
            rank: map.rank,
            given: coords.len(),
        });
    }
    if offsets.len() + 2 != map.rank as usize {
        return Err(TensorError::Im2colOffsets {
            rank: map.rank,
            given: offsets.len(),
        });
    }
    let max = im2col_offset_max(map.rank);
    for (i, &o) in offsets.iter().enumerate() {
        if o > max {
            return Err(TensorError::Im2colOffsetRange {
                dim: i + 1,
                value: o,
                max,
            });
        }
    }
    // The first channel's address: the strides are multiples of 16
    // (validate), so only the channel coordinate can misalign it (an
    // interleaved map's dimension 0 counts slices).
    let offset = coords[0] as i128 * shape.elem as i128;
    if map.interleave == Interleave::None && offset % 16 != 0 {
        return Err(TensorError::MisalignedBox { offset });
    }
    Ok(shape)
}

/// Two rules of a valid im2col map that [`TensorMap::validate`] does not
/// check (interpretations 2 and 7): the driver's "non-zero area" and, from
/// what the driver refuses, whole 16-byte rows.
fn im2col_rules(map: &TensorMap, ic: &Im2col) -> Result<(), MapError> {
    const DRIVER: &str = "CUDA driver API 6.30, cuTensorMapEncodeIm2col";
    for i in 0..(map.rank as usize).saturating_sub(2) {
        let area =
            map.global_dims[i + 1] as i64 + ic.upper_corner[i] as i64 - ic.lower_corner[i] as i64;
        if area <= 0 {
            return Err(MapError {
                field: format!("pixelBoxLowerCorner[{i}] / pixelBoxUpperCorner[{i}]"),
                rule: "The bounding box specified by pixelBoxLowerCorner and pixelBoxUpperCorner must have non-zero area",
                source: DRIVER,
            });
        }
    }
    if let Some(es) = map.elem_size() {
        if !(ic.channels_per_pixel as u64 * es as u64).is_multiple_of(16) {
            return Err(MapError {
                field: "channelsPerPixel".into(),
                rule: "{ channelsPerPixel * elementSizeInBytes( tensorDataType ) } must be a multiple of 16 bytes (the tiled box's rule, which the CUDA 13.0 driver applies to im2col maps too)",
                source: DRIVER,
            });
        }
    }
    Ok(())
}

/// The spatial dimensions W, H, D, in that order: 1 to rank-2
/// (interpretation 1), or 0 to rank-3 in an interleaved map
/// (interpretation 14).
fn spatial(map: &TensorMap) -> std::ops::Range<usize> {
    let r = map.rank as usize;
    if map.interleave == Interleave::None {
        1..r - 1
    } else {
        0..r - 2
    }
}

/// The Bounding Box of spatial dimension `i`, inclusive (interpretation 2;
/// its corners are the `i - spatial(map).start`-th).
fn bounds(map: &TensorMap, i: usize) -> (i64, i64) {
    let Mode::Im2col(ic) = map.mode else {
        return (0, -1);
    };
    let k = i - spatial(map).start;
    let lo = ic.lower_corner[k] as i64;
    let hi = map.global_dims[i] as i64 - 1 + ic.upper_corner[k] as i64;
    (lo, hi)
}

/// The tensor coordinates of each pixel the copy reads, in column order
/// (interpretations 3 to 5): entry 0 the first channel, entries 1 to rank-1
/// the pixel (the filter base plus the offsets), the rest 0; in an
/// interleaved map, entries 0 to rank-1 (interpretation 14).
pub fn im2col_pixels(
    map: &TensorMap,
    coords: &[i32],
    offsets: &[u16],
) -> Result<Vec<[i64; 5]>, TensorError> {
    let shape = check_common(map, coords, offsets)?;
    walk(map, coords, offsets, shape.counts[1])
}

fn walk(
    map: &TensorMap,
    coords: &[i32],
    offsets: &[u16],
    pixels: u32,
) -> Result<Vec<[i64; 5]>, TensorError> {
    let r = map.rank as usize;
    let spatial = spatial(map);
    let first = spatial.start;
    let mut base = [0i64; 5];
    for (i, b) in base.iter_mut().enumerate().take(r) {
        *b = coords[i] as i64;
    }
    for i in spatial.clone() {
        let (lower, upper) = bounds(map, i);
        if base[i] < lower || base[i] > upper {
            return Err(TensorError::FilterOutsideBox {
                dim: i,
                value: coords[i],
                lower,
                upper,
            });
        }
    }
    let mut out = Vec::with_capacity(pixels as usize);
    for _ in 0..pixels {
        let mut p = base;
        for i in spatial.clone() {
            p[i] += offsets[i - first] as i64;
        }
        out.push(p);
        // the next filter base: W fastest, wrapping to the lower corner,
        // past D to N
        let mut i = first;
        loop {
            base[i] += map.element_strides[i].max(1) as i64;
            if i == r - 1 {
                break;
            }
            let (lower, upper) = bounds(map, i);
            if base[i] > upper {
                base[i] = lower;
                i = if i + 1 == spatial.end { r - 1 } else { i + 1 };
            } else {
                break;
            }
        }
    }
    Ok(out)
}

/// The pixel's in-bounds channels `[first, end)` (relative to the first
/// channel) and the global address of the first of them; `None` when the
/// pixel lies outside the tensor.
fn pixel_run(map: &TensorMap, p: &[i64; 5], channels: u32, elem: u32) -> Option<(u32, u32, u64)> {
    let r = map.rank as usize;
    let mut addr = map.global_address;
    for ((&x, &dim), &stride) in p[1..r]
        .iter()
        .zip(&map.global_dims[1..r])
        .zip(&map.global_strides[..r - 1])
    {
        if x < 0 || x as u64 >= dim {
            return None;
        }
        addr = addr.wrapping_add((x as u64).wrapping_mul(stride));
    }
    let c0 = p[0];
    let first = (-c0).clamp(0, channels as i64);
    let end = (map.global_dims[0] as i64 - c0).clamp(0, channels as i64);
    if first >= end {
        return None;
    }
    let x = (c0 + first) as u64;
    Some((
        first as u32,
        end as u32,
        addr.wrapping_add(x.wrapping_mul(elem as u64)),
    ))
}

/// What `cp.async.bulk.tensor.Nd.shared::cluster.global.im2col.mbarrier::complete_tx::bytes
/// [smem_addr], [map, {coords}], [mbar], {offsets}` (or `.shared::cta`)
/// writes at `[smem_addr, smem_addr + extent)` (`extent` from
/// [`im2col_shape`]): the column of interpretations 1 to 7, placed by the
/// swizzle. `offsets` are the im2col offsets, W first, `rank - 2` of them.
pub fn im2col_load(
    map: &TensorMap,
    coords: &[i32],
    offsets: &[u16],
    smem_addr: u32,
    global: &dyn Global,
) -> Result<SharedTile, TensorError> {
    let shape = check_common(map, coords, offsets)?;
    let pixels = walk(map, coords, offsets, shape.counts[1])?;
    check_smem(smem_addr)?;
    if map.interleave != Interleave::None {
        return fill_slices(map, &shape, &pixels, smem_addr, global);
    }
    fill_column(map, &shape, &pixels, smem_addr, global)
}

/// The column of an interleaved map: one slice a pixel, packed, placed by
/// the swizzle (interpretation 14).
fn fill_slices(
    map: &TensorMap,
    shape: &BoxShape,
    pixels: &[[i64; 5]],
    smem_addr: u32,
    global: &dyn Global,
) -> Result<SharedTile, TensorError> {
    let r = map.rank as usize;
    let slice = shape.elem as usize;
    let es = map.elem_size().unwrap_or(1) as usize;
    let mut bytes = vec![0u8; shape.extent as usize];
    let mut written = vec![false; shape.extent as usize / 16];
    written[..shape.bytes as usize / 16].fill(true);
    let fill: Vec<u8> = match map.oob_fill {
        OobFill::Zero => vec![0; es],
        OobFill::NanRequestZeroFma => oob_nan(map.data_type).unwrap_or_else(|| vec![0; es]),
    };
    let tf32 = matches!(map.data_type, DataType::Tf32 | DataType::Tf32Ftz);
    for (k, p) in pixels.iter().enumerate() {
        let dst = &mut bytes[k * slice..(k + 1) * slice];
        let inside = (0..r).all(|i| p[i] >= 0 && (p[i] as u64) < map.global_dims[i]);
        if !inside {
            for w in dst.chunks_mut(es) {
                w.copy_from_slice(&fill);
            }
            continue;
        }
        let mut addr = map
            .global_address
            .wrapping_add((p[0] as u64).wrapping_mul(slice as u64));
        for (&x, &stride) in p[1..r].iter().zip(&map.global_strides[..r - 1]) {
            addr = addr.wrapping_add((x as u64).wrapping_mul(stride));
        }
        if !global.read(addr, dst) {
            return Err(TensorError::Fault { addr, len: slice });
        }
        if tf32 {
            for w in dst.chunks_mut(4) {
                let v = round_tf32(u32::from_le_bytes(w.try_into().unwrap()));
                w.copy_from_slice(&v.to_le_bytes());
            }
        }
    }
    Ok(swizzle_tile(map, smem_addr, SharedTile { bytes, written }))
}

/// The column of `pixels`, one row each (interpretations 6 and 7), placed
/// by the swizzle.
fn fill_column(
    map: &TensorMap,
    shape: &BoxShape,
    pixels: &[[i64; 5]],
    smem_addr: u32,
    global: &dyn Global,
) -> Result<SharedTile, TensorError> {
    let es = shape.elem as usize;
    let channels = shape.counts[0];
    let mut bytes = vec![0u8; shape.extent as usize];
    let mut written = vec![false; shape.extent as usize / 16];
    let fill: Vec<u8> = match map.oob_fill {
        OobFill::Zero => vec![0; es],
        OobFill::NanRequestZeroFma => oob_nan(map.data_type).unwrap_or_else(|| vec![0; es]),
    };
    let tf32 = matches!(map.data_type, DataType::Tf32 | DataType::Tf32Ftz);
    for (k, p) in pixels.iter().enumerate() {
        let row = k * shape.pitch as usize;
        let o = row / 16;
        written[o..o + shape.row_bytes as usize / 16].fill(true);
        let run = pixel_run(map, p, channels, shape.elem);
        let (first, end) = run.map_or((0, 0), |(f, e, _)| (f as usize, e as usize));
        if map.oob_fill != OobFill::Zero {
            for j in (0..first).chain(end..channels as usize) {
                bytes[row + j * es..row + (j + 1) * es].copy_from_slice(&fill);
            }
        }
        if let Some((_, _, addr)) = run {
            let len = (end - first) * es;
            let dst = &mut bytes[row + first * es..row + end * es];
            if !global.read(addr, dst) {
                return Err(TensorError::Fault { addr, len });
            }
            if tf32 {
                for w in dst.chunks_mut(4) {
                    let v = round_tf32(u32::from_le_bytes(w.try_into().unwrap()));
                    w.copy_from_slice(&v.to_le_bytes());
                }
            }
        }
    }
    Ok(swizzle_tile(map, smem_addr, SharedTile { bytes, written }))
}

/// `.im2col::w` or `.im2col::w::128` with its `im2colInfo` `{wHalo,
/// wOffset}` (PTX ISA 9.7.9.25.5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Im2colW {
    /// `.im2col::w::128` rather than `.im2col::w`.
    pub w128: bool,
    pub w_halo: u16,
    pub w_offset: u16,
}

impl Im2colW {
    /// The largest `wHalo` (9.7.9.25.5.2: "Im2col::w mode : valid range is
    /// [0, 512). - Im2col::w::128 mode : valid range is [0, 32)").
    pub fn w_halo_max(w128: bool) -> u16 {
        if w128 {
            31
        } else {
            511
        }
    }
    /// The largest `wOffset` (9.7.9.25.5.2: "whose valid range of values is
    /// [0, 32)").
    pub const W_OFFSET_MAX: u16 = 31;

    /// The column's groups: (main pixels, halo pixels after them)
    /// (interpretations 11 and 12).
    fn groups(self, map: &TensorMap) -> (u32, u32) {
        match (self.w128, map.mode) {
            (true, _) => (4, 32),
            (false, Mode::Im2col(ic)) => (1, ic.pixels_per_column),
            _ => (1, 0),
        }
    }
}

/// The column of an `.im2col::w` / `.im2col::w::128` copy (interpretations
/// 11 and 12): [`im2col_shape`]'s rows, as many as the main and halo pixels.
pub fn im2col_w_shape(map: &TensorMap, w: Im2colW) -> Result<BoxShape, TensorError> {
    let mut s = im2col_shape(map)?;
    let (groups, main) = w.groups(map);
    let pixels = groups.saturating_mul(main.saturating_add(w.w_halo as u32));
    s.counts[1] = pixels;
    s.bytes = s.row_bytes.saturating_mul(pixels);
    s.extent = s.pitch.saturating_mul(pixels);
    Ok(s)
}

/// The checks of an `.im2col::w` copy beyond the im2col ones
/// (interpretation 13), and its column.
fn check_w(map: &TensorMap, coords: &[i32], w: Im2colW) -> Result<BoxShape, TensorError> {
    const RULE: &str = "PTX ISA 5.5.5";
    if map.swizzle == Swizzle::None
        || (map.swizzle == Swizzle::B128 && map.atomicity == Atomicity::B32Flip8)
    {
        return Err(TensorError::InvalidMap(MapError {
            field: "swizzle".into(),
            rule: "Note that the valid Swizzling Modes must be set. In other words, swizzling mode must not be (i) no swizzle and (ii) 128-byte swizzle mode with 32-byte atomicity with 8-byte flip",
            source: RULE,
        }));
    }
    if map.interleave != Interleave::None {
        return Err(TensorError::InvalidMap(MapError {
            field: "interleave".into(),
            rule: "The interleave layout is not supported for .im2col::w and .im2col::w::128 modes",
            source: "PTX ISA 5.5.6",
        }));
    }
    if w.w_halo > Im2colW::w_halo_max(w.w128) {
        return Err(TensorError::WHalo {
            value: w.w_halo,
            max: Im2colW::w_halo_max(w.w128),
        });
    }
    if w.w_offset > Im2colW::W_OFFSET_MAX {
        return Err(TensorError::WOffset { value: w.w_offset });
    }
    let zeros = vec![0u16; (map.rank as usize).saturating_sub(2)];
    check_common(map, coords, &zeros)?;
    im2col_w_shape(map, w)
}

/// The tensor coordinates of each pixel an `.im2col::w` copy reads, in
/// column order, halo pixels included (interpretations 8 to 12).
pub fn im2col_w_pixels(
    map: &TensorMap,
    coords: &[i32],
    w: Im2colW,
) -> Result<Vec<[i64; 5]>, TensorError> {
    check_w(map, coords, w)?;
    walk_w(map, coords, w)
}

fn walk_w(map: &TensorMap, coords: &[i32], w: Im2colW) -> Result<Vec<[i64; 5]>, TensorError> {
    let r = map.rank as usize;
    let shift = w.w_offset as i64;
    let (lower, upper) = bounds(map, 1);
    let (lower, upper) = (lower + shift, upper + shift);
    let mut base = [0i64; 5];
    for (i, b) in base.iter_mut().enumerate().take(r) {
        *b = coords[i] as i64;
    }
    base[1] += shift;
    if base[1] > upper {
        return Err(TensorError::FilterOutsideBox {
            dim: 1,
            value: coords[1],
            lower,
            upper,
        });
    }
    let step = map.element_strides[1].max(1) as i64;
    let (groups, main) = w.groups(map);
    let mut out = Vec::new();
    for _ in 0..groups {
        let mut last = base;
        for _ in 0..main {
            out.push(base);
            last = base;
            base[1] += step;
            if base[1] > upper {
                base[1] = lower;
                base[r - 1] += map.element_strides[r - 1].max(1) as i64;
            }
        }
        for j in 1..=w.w_halo as i64 {
            let mut p = last;
            p[1] += j * step;
            out.push(p);
        }
    }
    Ok(out)
}

/// What `cp.async.bulk.tensor.Nd.shared::cluster.global.im2col::w{::128}.mbarrier::complete_tx::bytes
/// [smem_addr], [map, {coords}], [mbar], {wHalo, wOffset}` (or
/// `.shared::cta`) writes at `[smem_addr, smem_addr + extent)` (`extent`
/// from [`im2col_w_shape`]): the column of interpretations 8 to 13, each
/// pixel a row as in [`im2col_load`], placed by the swizzle. From the spec
/// only (sm_100).
pub fn im2col_w_load(
    map: &TensorMap,
    coords: &[i32],
    w: Im2colW,
    smem_addr: u32,
    global: &dyn Global,
) -> Result<SharedTile, TensorError> {
    let shape = check_w(map, coords, w)?;
    let pixels = walk_w(map, coords, w)?;
    check_smem(smem_addr)?;
    fill_column(map, &shape, &pixels, smem_addr, global)
}

/// The global writes of `cp.async.bulk.tensor.Nd.global.shared::cta.im2col_no_offs.bulk_group
/// [map, {coords}], [smem_addr]` (sm_100; from the spec, not seen on
/// hardware): the pixels of [`im2col_load`] with no offsets, each row's
/// in-bounds elements written from where the load would have put them, as
/// (address, bytes) runs in column order. PTX 9.7.9.25.5.1's restrictions
/// on this direction ("Starting co-ordinates for Bounding Box (tensorCoords)
/// must be non-negative", "Bounding-Box Lower-Corner must be non-negative",
/// "Bounding-Box Upper-Corner must be non-positive") are checked.
pub fn im2col_no_offs_store(
    map: &TensorMap,
    coords: &[i32],
    smem_addr: u32,
    smem: &[u8],
) -> Result<Vec<(u64, Vec<u8>)>, TensorError> {
    let zeros = vec![0u16; (map.rank as usize).saturating_sub(2)];
    let shape = check_common(map, coords, &zeros)?;
    if map.interleave != Interleave::None {
        return Err(TensorError::NotModelled(
            "an interleaved im2col store (PTX ISA 5.5.6)",
        ));
    }
    check_smem(smem_addr)?;
    for (dim, &c) in coords.iter().enumerate() {
        if c < 0 {
            return Err(TensorError::NegativeCoordinate { dim, value: c });
        }
    }
    if let Mode::Im2col(ic) = map.mode {
        for i in 0..map.rank as usize - 2 {
            if ic.lower_corner[i] < 0 || ic.upper_corner[i] > 0 {
                return Err(TensorError::InvalidMap(MapError {
                    field: format!("pixelBoxLowerCorner[{i}] / pixelBoxUpperCorner[{i}]"),
                    rule: "The bounding box along the D, W and H dimensions must stay within the tensor boundaries. This implies: Bounding-Box Lower-Corner must be non-negative. Bounding-Box Upper-Corner must be non-positive",
                    source: "PTX ISA 9.7.9.25.5.1",
                }));
            }
        }
    }
    if smem.len() < shape.extent as usize {
        return Err(TensorError::ShortSource {
            need: shape.extent as usize,
            given: smem.len(),
        });
    }
    let pixels = walk(map, coords, &zeros, shape.counts[1])?;
    // Unswizzle the source into the linear layout.
    let mut lin = vec![0u8; shape.extent as usize];
    for k in 0..lin.len() / 8 {
        let a = smem_addr.wrapping_add(8 * k as u32);
        let from = super::tile::swizzle_addr(map, a).wrapping_sub(smem_addr) as usize;
        lin[8 * k..8 * k + 8].copy_from_slice(&smem[from..from + 8]);
    }
    let es = shape.elem as usize;
    let mut writes = Vec::new();
    for (k, p) in pixels.iter().enumerate() {
        if let Some((first, end, addr)) = pixel_run(map, p, shape.counts[0], shape.elem) {
            let row = k * shape.pitch as usize;
            writes.push((
                addr,
                lin[row + first as usize * es..row + end as usize * es].to_vec(),
            ));
        }
    }
    Ok(writes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tensor::map::Swizzle;

    /// A 4D NHWC tensor of `u8` at 0x1000: C=16, W=4, H=4, N=2, dense;
    /// channel 0 of pixel (n, h, w) holds `16 n + 4 h + w`, channel `c > 0`
    /// holds `0x80 | c`.
    fn nhwc(lower: [i32; 2], upper: [i32; 2], pixels: u32) -> (TensorMap, Vec<u8>) {
        let m = TensorMap {
            data_type: DataType::U8,
            rank: 4,
            global_address: 0x1000,
            global_dims: [16, 4, 4, 2, 1],
            global_strides: [16, 64, 256, 0],
            mode: Mode::Im2col(Im2col {
                lower_corner: [lower[0], lower[1], 0],
                upper_corner: [upper[0], upper[1], 0],
                channels_per_pixel: 16,
                pixels_per_column: pixels,
            }),
            ..TensorMap::default()
        };
        let mem = (0..512u32)
            .map(|k| {
                if k % 16 == 0 {
                    (k / 16) as u8
                } else {
                    0x80 | (k % 16) as u8
                }
            })
            .collect();
        (m, mem)
    }

    fn load(m: &TensorMap, c: &[i32], off: &[u16], mem: &[u8]) -> Result<Vec<u8>, TensorError> {
        let g = |a: u64, n: usize| {
            let o = a.checked_sub(0x1000)? as usize;
            mem.get(o..o + n).map(|s| s.to_vec())
        };
        im2col_load(m, c, off, 0, &g).map(|t| t.bytes)
    }

    /// The pixel numbers (16 n + 4 h + w, or `None` for a filled row) of a
    /// column of [`nhwc`].
    fn pixel_ids(bytes: &[u8]) -> Vec<Option<u8>> {
        bytes
            .chunks(16)
            .map(|r| (r[1] == 0x81).then_some(r[0]))
            .collect()
    }

    #[test]
    fn a_whole_image_in_order() {
        let (m, mem) = nhwc([0, 0], [0, 0], 16);
        let b = load(&m, &[0, 0, 0, 0], &[0, 0], &mem).unwrap();
        assert_eq!(b, mem[..256]);
    }

    #[test]
    fn the_walk_wraps_to_the_next_image() {
        // Start at (n 0, h 1, w 3): the rest of image 0, then image 1.
        let (m, mem) = nhwc([0, 0], [0, 0], 16);
        let b = load(&m, &[0, 3, 1, 0], &[0, 0], &mem).unwrap();
        let want: Vec<Option<u8>> = (7..23).map(Some).collect();
        assert_eq!(pixel_ids(&b), want);
        // Past the last image: fill.
        let b = load(&m, &[0, 0, 3, 1], &[0, 0], &mem).unwrap();
        let mut want: Vec<Option<u8>> = (28..32).map(Some).collect();
        want.extend([None; 12]);
        assert_eq!(pixel_ids(&b), want);
    }

    #[test]
    fn corners_pad_and_offsets_shift() {
        // Box [-1, 2] in H and W: the filter base walks a padded image.
        let (m, mem) = nhwc([-1, -1], [-1, -1], 16);
        let b = load(&m, &[0, -1, -1, 0], &[0, 0], &mem).unwrap();
        let f = None;
        let s = Some;
        assert_eq!(
            pixel_ids(&b),
            [
                f,
                f,
                f,
                f,
                f,
                s(0),
                s(1),
                s(2),
                f,
                s(4),
                s(5),
                s(6),
                f,
                s(8),
                s(9),
                s(10)
            ]
        );
        // Offsets (1, 1) read the image itself.
        let b = load(&m, &[0, -1, -1, 0], &[1, 1], &mem).unwrap();
        assert_eq!(b, mem[..256]);
        // The filter base must lie in the box.
        assert!(matches!(
            load(&m, &[0, 3, -1, 0], &[0, 0], &mem),
            Err(TensorError::FilterOutsideBox {
                dim: 1,
                value: 3,
                lower: -1,
                upper: 2
            })
        ));
    }

    #[test]
    fn strides_step_the_filter_base() {
        // W steps by 2 over the box [0, 3]: w 0, 2, then the next row.
        let (mut m, mem) = nhwc([0, 0], [0, 0], 8);
        m.element_strides = [1, 2, 1, 1, 1];
        let b = load(&m, &[0, 0, 0, 0], &[0, 0], &mem).unwrap();
        let want: Vec<Option<u8>> = [0, 2, 4, 6, 8, 10, 12, 14].into_iter().map(Some).collect();
        assert_eq!(pixel_ids(&b), want);
        // An odd start keeps its parity until the row wraps to the corner.
        let b = load(&m, &[0, 1, 0, 0], &[0, 0], &mem).unwrap();
        let want: Vec<Option<u8>> = [1, 3, 4, 6, 8, 10, 12, 14].into_iter().map(Some).collect();
        assert_eq!(pixel_ids(&b), want);
    }

    #[test]
    fn images_step_by_their_stride() {
        // A box of one position: every step moves to the next image.
        let (mut m, mem) = nhwc([0, 0], [-3, -3], 2);
        m.element_strides = [1, 1, 1, 2, 1];
        let b = load(&m, &[0, 0, 0, 0], &[0, 0], &mem).unwrap();
        assert_eq!(pixel_ids(&b), [Some(0), None]);
        m.element_strides[3] = 1;
        let b = load(&m, &[0, 0, 0, 0], &[0, 0], &mem).unwrap();
        assert_eq!(pixel_ids(&b), [Some(0), Some(16)]);
    }

    #[test]
    fn maps_the_driver_refuses_are_invalid() {
        // W: globalDim 4 + upper -4 - lower 1 < 1: no position in the box
        let (m, mem) = nhwc([1, 0], [-4, 0], 2);
        assert!(matches!(
            load(&m, &[0, 1, 0, 0], &[0, 0], &mem),
            Err(TensorError::InvalidMap(e)) if e.field.starts_with("pixelBoxLowerCorner[0]")
        ));
        // rows of 8 bytes
        let (mut m, _) = nhwc([0, 0], [0, 0], 2);
        if let Mode::Im2col(ic) = &mut m.mode {
            ic.channels_per_pixel = 8;
        }
        assert!(matches!(
            im2col_bytes(&m),
            Err(TensorError::InvalidMap(e)) if e.field == "channelsPerPixel"
        ));
    }

    #[test]
    fn channels_past_the_tensor_are_filled() {
        let (mut m, mem) = nhwc([0, 0], [0, 0], 2);
        m.data_type = DataType::F16;
        m.global_dims[0] = 12;
        m.oob_fill = OobFill::NanRequestZeroFma;
        // channels 8..24 of a 12-channel f16 tensor: 4 in, 12 filled
        let b = load(&m, &[8, 0, 0, 0], &[0, 0], &mem).unwrap();
        assert_eq!(b[..8], mem[16..24]);
        assert_eq!(b[8..32], [0xf7, 0x7f].repeat(12));
        assert_eq!(b[32..40], mem[32..40]);
        assert_eq!(im2col_bytes(&m).unwrap(), 64);
        // a first channel off 16 bytes
        assert_eq!(
            load(&m, &[4, 0, 0, 0], &[0, 0], &mem),
            Err(TensorError::MisalignedBox { offset: 8 })
        );
    }

    #[test]
    fn operands_are_checked() {
        let (m, mem) = nhwc([0, 0], [0, 0], 4);
        assert_eq!(
            load(&m, &[0, 0, 0, 0], &[0], &mem),
            Err(TensorError::Im2colOffsets { rank: 4, given: 1 })
        );
        assert_eq!(
            load(&m, &[0, 0, 0], &[0, 0], &mem),
            Err(TensorError::Coordinates { rank: 4, given: 3 })
        );
        assert_eq!(
            load(&m, &[0, 0, 0, 0], &[0, 256], &mem),
            Err(TensorError::Im2colOffsetRange {
                dim: 2,
                value: 256,
                max: 255
            })
        );
        let g = |_: u64, _: usize| None;
        assert!(matches!(
            im2col_load(&m, &[0, 0, 0, 0], &[0, 0], 16, &g),
            Err(TensorError::Fault { .. }) | Err(TensorError::Misaligned { .. })
        ));
        let tiled = TensorMap {
            mode: Mode::Tiled,
            ..m
        };
        assert_eq!(
            load(&tiled, &[0, 0, 0, 0], &[0, 0], &mem),
            Err(TensorError::WrongMode)
        );
    }

    #[test]
    fn swizzled_rows_take_the_span() {
        let (mut m, mem) = nhwc([0, 0], [0, 0], 8);
        m.swizzle = Swizzle::B128;
        let shape = im2col_shape(&m).unwrap();
        assert_eq!((shape.pitch, shape.bytes, shape.extent), (128, 128, 1024));
        let g = |a: u64, n: usize| {
            let o = a.checked_sub(0x1000)? as usize;
            mem.get(o..o + n).map(|s| s.to_vec())
        };
        let t = im2col_load(&m, &[0, 0, 0, 0], &[0, 0], 0, &g).unwrap();
        // pixel k sits in line k, at chunk 0 XOR (k mod 8) = k
        for k in 0..8 {
            let at = 128 * k + 16 * k;
            assert_eq!(t.bytes[at..at + 16], mem[16 * k..16 * k + 16]);
            assert_eq!(
                t.written[8 * k..8 * k + 8].iter().filter(|&&w| w).count(),
                1
            );
            assert!(t.written[8 * k + k]);
        }
        // at 128: the pattern row starts at 1, pixel 0 lands in chunk 1
        let t = im2col_load(&m, &[0, 0, 0, 0], &[0, 0], 128, &g).unwrap();
        assert_eq!(t.bytes[16..32], mem[..16]);
    }

    #[test]
    fn no_offs_store_writes_the_inside() {
        let (m, _) = nhwc([0, 0], [0, 0], 3);
        let smem: Vec<u8> = (0..48u8).collect();
        let w = im2col_no_offs_store(&m, &[0, 3, 3, 1], 0, &smem).unwrap();
        // pixel (1, 3, 3) is the tensor's last; the next two are past N
        assert_eq!(w, vec![(0x1000 + 31 * 16, smem[..16].to_vec())]);
        let (m, _) = nhwc([-1, 0], [0, 0], 3);
        assert!(matches!(
            im2col_no_offs_store(&m, &[0, 0, 0, 0], 0, &smem),
            Err(TensorError::InvalidMap(_))
        ));
    }

    fn w_mode(w128: bool, w_halo: u16, w_offset: u16) -> Im2colW {
        Im2colW {
            w128,
            w_halo,
            w_offset,
        }
    }

    /// [`nhwc`] under the 32-byte swizzle (the W modes need one).
    fn nhwc_w(lower: i32, upper: i32, pixels: u32) -> (TensorMap, Vec<u8>) {
        let (mut m, mem) = nhwc([lower, 0], [upper, 0], pixels);
        m.swizzle = Swizzle::B32;
        (m, mem)
    }

    fn w_ids(m: &TensorMap, c: &[i32], w: Im2colW, mem: &[u8]) -> Vec<Option<u8>> {
        im2col_w_pixels(m, c, w)
            .unwrap()
            .iter()
            .map(|p| {
                let inside =
                    (0..4).contains(&p[1]) && (0..4).contains(&p[2]) && (0..2).contains(&p[3]);
                inside.then(|| mem[(p[1] * 16 + p[2] * 64 + p[3] * 256) as usize])
            })
            .collect()
    }

    #[test]
    fn w_mode_walks_w_then_n_and_ends_with_the_halo() {
        // Start at (n 0, h 2, w 1), 6 pixels: w 1..3 of image 0, w 0..2 of
        // image 1 (h held at 2); then wHalo 2 more along W: w 3, and w 4
        // outside the tensor.
        let (m, mem) = nhwc_w(0, 0, 6);
        let ids = w_ids(&m, &[0, 1, 2, 0], w_mode(false, 2, 0), &mem);
        let n = None;
        assert_eq!(
            ids,
            [
                Some(9),
                Some(10),
                Some(11),
                Some(24),
                Some(25),
                Some(26),
                Some(27),
                n
            ]
        );
    }

    #[test]
    fn w_offset_shifts_the_box_and_the_first_pixel() {
        // box [-1, 2] shifted by 1 to [0, 3]; W -1 becomes 0
        let (m, mem) = nhwc_w(-1, -1, 5);
        let ids = w_ids(&m, &[0, -1, 0, 0], w_mode(false, 0, 1), &mem);
        assert_eq!(ids, [Some(0), Some(1), Some(2), Some(3), Some(16)]);
    }

    #[test]
    fn the_first_pixel_may_lie_left_of_the_box_only() {
        // box [1, 3]: W -1 and 0 lie left of it, then the box, then back to
        // its lower corner in image 1
        let (m, mem) = nhwc_w(1, 0, 6);
        let ids = w_ids(&m, &[0, -1, 0, 0], w_mode(false, 0, 0), &mem);
        assert_eq!(ids, [None, Some(0), Some(1), Some(2), Some(3), Some(17)]);
        // box [0, 2]: W 3 lies right of it
        let (m, _) = nhwc_w(0, -1, 6);
        let e = im2col_w_pixels(&m, &[0, 3, 0, 0], w_mode(false, 0, 0));
        assert!(matches!(
            e,
            Err(TensorError::FilterOutsideBox {
                dim: 1,
                value: 3,
                lower: 0,
                upper: 2
            })
        ));
    }

    #[test]
    fn w128_takes_128_pixels_with_a_halo_after_every_32() {
        let (m, _) = nhwc_w(0, 0, 6); // pixelsPerColumn ignored
        let w = w_mode(true, 1, 0);
        let px = im2col_w_pixels(&m, &[0, 0, 0, 0], w).unwrap();
        assert_eq!(px.len(), 4 * 33);
        // pixel 31 is (n 7, w 3); its halo is W 4 of image 7; pixel 32
        // goes on at (n 8, w 0)
        assert_eq!(px[31], [0, 3, 0, 7, 0]);
        assert_eq!(px[32], [0, 4, 0, 7, 0]);
        assert_eq!(px[33], [0, 0, 0, 8, 0]);
        assert_eq!(im2col_w_shape(&m, w).unwrap().bytes, 132 * 16);
    }

    #[test]
    fn w_mode_bytes_are_rows_under_the_swizzle() {
        // The first test's 8 pixels, a 16-byte row each at a 32-byte pitch;
        // the 32-byte swizzle swaps the 16-byte halves of 128..256.
        let (m, mem) = nhwc_w(0, 0, 6);
        let w = w_mode(false, 2, 0);
        let g = |a: u64, n: usize| {
            let o = a.checked_sub(0x1000)? as usize;
            mem.get(o..o + n).map(|s| s.to_vec())
        };
        let b = im2col_w_load(&m, &[0, 1, 2, 0], w, 0, &g).unwrap().bytes;
        assert_eq!(b.len(), 256);
        assert_eq!(im2col_w_shape(&m, w).unwrap().bytes, 8 * 16);
        let at = |k: usize| if k < 4 { 32 * k } else { 32 * k + 16 };
        let ids: Vec<u8> = (0..8).map(|k| b[at(k)]).collect();
        assert_eq!(ids, [9, 10, 11, 24, 25, 26, 27, 0]);
        assert_eq!(b[at(0) + 1], 0x81);
        assert_eq!(&b[at(7)..at(7) + 16], &[0u8; 16]);
    }

    #[test]
    fn w_mode_operands_and_maps_are_checked() {
        let (m, _) = nhwc_w(0, 0, 6);
        let c = [0, 0, 0, 0];
        assert!(matches!(
            im2col_w_pixels(&m, &c, w_mode(false, 512, 0)),
            Err(TensorError::WHalo {
                value: 512,
                max: 511
            })
        ));
        assert!(im2col_w_pixels(&m, &c, w_mode(false, 511, 0)).is_ok());
        assert!(matches!(
            im2col_w_pixels(&m, &c, w_mode(true, 32, 0)),
            Err(TensorError::WHalo { value: 32, max: 31 })
        ));
        assert!(matches!(
            im2col_w_pixels(&m, &c, w_mode(false, 0, 32)),
            Err(TensorError::WOffset { value: 32 })
        ));
        let (plain, _) = nhwc([0, 0], [0, 0], 6);
        assert!(matches!(
            im2col_w_pixels(&plain, &c, w_mode(false, 0, 0)),
            Err(TensorError::InvalidMap(_))
        ));
        let mut flip = m;
        flip.swizzle = Swizzle::B128;
        flip.atomicity = Atomicity::B32Flip8;
        assert!(matches!(
            im2col_w_pixels(&flip, &c, w_mode(false, 0, 0)),
            Err(TensorError::InvalidMap(_))
        ));
    }
}
