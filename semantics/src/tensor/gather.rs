//! What `.tile::gather4` and `.tile::scatter4` copies move (PTX ISA
//! 9.7.9.25.5.2; sm_100 only, from the spec, not seen on hardware): four
//! rows of a 2-dimensional tensor, each at its own row index, gathered into
//! one box in shared memory, or one box scattered to four rows. The row's
//! elements, their bounds, fill, conversions and the swizzle placement are
//! the tiled copy's ([`super::tile`]).
//!
//! Interpretations (ours). The PTX section the spec points to for the
//! details (5.5, "tile::scatter4 and tile::gather4 modes") is not in the
//! text at hand; each reads the instruction's own section:
//! 1. The tensor is 2-dimensional ("four rows in 2-dimnesional source
//!    tensor are combined to form a single 2-dimensional destination
//!    tensor"): a map of another rank has no defined copy
//!    ([`TensorError::Gather4`]).
//! 2. The coordinates are `{col_idx, row_idx0, row_idx1, row_idx2,
//!    row_idx3}` ("Fixed length vector of size 5. The five elements
//!    together specify the start co-ordinates of the four rows"): row `k`
//!    is the tiled box's first row at coordinates `(col_idx, row_idxk)`,
//!    `boxDim[0]` elements from `col_idx`. The map's `boxDim[1]` and
//!    `elementStrides[1]` take no part (the rows are the row indices').
//! 3. Shared memory holds the four rows in order as a tiled box of four
//!    rows does (row `k` at `k` times the row pitch, the swizzle over the
//!    whole box, `[smem, smem + 4 * pitch)`), and the complete-tx counts
//!    four rows' bytes.
//! 4. A row index outside `[0, globalDim[1])`, or elements past either
//!    end of dimension 0, are out of bounds: a gather fills them as the
//!    tiled copy does, a scatter does not write them. The box's address
//!    rule (`col_idx * elementSize` a multiple of 16) is the tiled box's.
//! 5. Scatter is the `.global.shared::cta` direction: its coordinates
//!    must be non-negative (9.7.9.25.5.1: "Starting co-ordinates for
//!    Bounding Box (tensorCoords) must be non-negative"), the row indices
//!    included. Rows written twice (equal row indices) are written in row
//!    order; the spec gives no order, so such a copy's overlap is the
//!    caller's to avoid.

use super::map::{Atomicity, Interleave, Mode, Swizzle, TensorMap};
use super::tile::{
    box_shape, check_smem, swizzle_addr, swizzle_tile, tile_linear, tile_store_runs, BoxShape,
    Global, SharedTile, StoreRuns, TensorError,
};

/// Rows a gather4 or scatter4 copy moves.
pub const GATHER4_ROWS: u32 = 4;

const RANK_RULE: &str = "In .tile::gather4 mode, four rows in 2-dimnesional source tensor are combined to form a single 2-dimensional destination tensor (PTX ISA 9.7.9.25.5.2): the tensor map's rank must be 2";
const COORDS_RULE: &str = "tensorCoords {col_idx, row_idx0, row_idx1, row_idx2, row_idx3}: Fixed length vector of size 5 (PTX ISA 9.7.9.25.5.2)";

/// The box of a gather4 or scatter4 copy (interpretation 3): four rows of
/// `boxDim[0]` elements, as a [`BoxShape`] with `counts` `[boxDim[0], 4,
/// 1, 1, 1]`.
pub fn gather4_shape(map: &TensorMap) -> Result<BoxShape, TensorError> {
    let mut s = box_shape(&one_row(map, map.swizzle))?;
    s.counts[1] = GATHER4_ROWS;
    s.bytes = s.row_bytes * GATHER4_ROWS;
    s.extent = s.pitch * GATHER4_ROWS;
    Ok(s)
}

/// `map` with a box of one row (`boxDim[1]` and `elementStrides[1]` 1)
/// and the swizzle `swizzle`.
fn one_row(map: &TensorMap, swizzle: Swizzle) -> TensorMap {
    let mut m = *map;
    m.box_dims[1] = 1;
    m.element_strides[1] = 1;
    m.swizzle = swizzle;
    if swizzle == Swizzle::None {
        m.atomicity = Atomicity::B16;
    }
    m
}

/// The checks of both directions (interpretations 1 and 2), and the box.
fn check(map: &TensorMap, coords: &[i32]) -> Result<BoxShape, TensorError> {
    map.validate().map_err(TensorError::InvalidMap)?;
    if map.mode != Mode::Tiled {
        return Err(TensorError::WrongMode);
    }
    if map.rank != 2 {
        return Err(TensorError::Gather4(RANK_RULE));
    }
    if coords.len() != 5 {
        return Err(TensorError::Gather4(COORDS_RULE));
    }
    if map.data_type.is_packed() {
        return Err(TensorError::Unsupported(map.data_type));
    }
    if map.interleave != Interleave::None {
        return Err(TensorError::NotModelled(
            "an interleaved layout (PTX ISA 5.5.6)",
        ));
    }
    gather4_shape(map)
}

/// What `cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4`
/// (or `.shared::cta`) writes at `[smem_addr, smem_addr + extent)`
/// (interpretations 1 to 4): row `k` of the box is the tensor's row
/// `coords[1 + k]` from column `coords[0]`, the box placed by the swizzle.
pub fn gather4_load(
    map: &TensorMap,
    coords: &[i32],
    smem_addr: u32,
    global: &dyn Global,
) -> Result<SharedTile, TensorError> {
    let shape = check(map, coords)?;
    let row = one_row(map, Swizzle::None);
    let pitch = shape.pitch as usize;
    let mut bytes = vec![0u8; shape.extent as usize];
    let mut written = vec![false; shape.extent as usize / 16];
    for k in 0..GATHER4_ROWS as usize {
        let t = tile_linear(&row, &[coords[0], coords[1 + k]], global)?;
        let at = k * pitch;
        bytes[at..at + t.bytes.len()].copy_from_slice(&t.bytes);
        written[at / 16..at / 16 + t.written.len()].copy_from_slice(&t.written);
    }
    check_smem(smem_addr)?;
    Ok(swizzle_tile(map, smem_addr, SharedTile { bytes, written }))
}

/// The global writes of
/// `cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4` from the box
/// held at `smem_addr` (`smem`: the bytes at `[smem_addr, smem_addr +
/// extent)`): the unswizzled box and its `(global address, offset in the
/// box, bytes)` runs, row 0 first (interpretations 1 to 5).
pub fn scatter4_store_runs(
    map: &TensorMap,
    coords: &[i32],
    smem_addr: u32,
    smem: &[u8],
) -> Result<StoreRuns, TensorError> {
    let shape = check(map, coords)?;
    check_smem(smem_addr)?;
    for (dim, &c) in coords.iter().enumerate() {
        if c < 0 {
            return Err(TensorError::NegativeCoordinate { dim, value: c });
        }
    }
    let extent = shape.extent as usize;
    if smem.len() < extent {
        return Err(TensorError::ShortSource {
            need: extent,
            given: smem.len(),
        });
    }
    // unswizzle the source (the swizzle's unit: 16 bytes, or 8 where it
    // flips 8-byte halves)
    let unit = if map.swizzle != Swizzle::None && map.atomicity == Atomicity::B32Flip8 {
        8
    } else {
        16
    };
    let mut lin = vec![0u8; extent];
    for k in 0..extent / unit {
        let a = smem_addr + (unit * k) as u32;
        let from = (swizzle_addr(map, a) - smem_addr) as usize;
        lin[unit * k..unit * (k + 1)].copy_from_slice(&smem[from..from + unit]);
    }
    let row = one_row(map, Swizzle::None);
    let rb = shape.row_bytes as usize;
    let mut runs = Vec::new();
    for k in 0..GATHER4_ROWS as usize {
        let at = k * shape.pitch as usize;
        let (_, r) = tile_store_runs(&row, &[coords[0], coords[1 + k]], 0, &lin[at..at + rb])?;
        runs.extend(r.into_iter().map(|(a, off, len)| (a, at + off, len)));
    }
    Ok((lin, runs))
}

/// [`scatter4_store_runs`] as `(address, bytes)` writes.
pub fn scatter4_store(
    map: &TensorMap,
    coords: &[i32],
    smem_addr: u32,
    smem: &[u8],
) -> Result<Vec<(u64, Vec<u8>)>, TensorError> {
    let (lin, runs) = scatter4_store_runs(map, coords, smem_addr, smem)?;
    Ok(runs
        .into_iter()
        .map(|(a, off, len)| (a, lin[off..off + len].to_vec()))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tensor::map::{DataType, OobFill};

    /// A 2-D `u8` tensor at 0x1000: 32 columns, 8 rows, rows 48 bytes apart;
    /// byte (x, y) holds `16 y + x % 16` (so each row's 16-byte halves
    /// repeat), the padding 0xee.
    fn tensor() -> (TensorMap, Vec<u8>) {
        let m = TensorMap {
            data_type: DataType::U8,
            rank: 2,
            global_address: 0x1000,
            global_dims: [32, 8, 1, 1, 1],
            global_strides: [48, 0, 0, 0],
            box_dims: [16, 1, 1, 1, 1],
            ..TensorMap::default()
        };
        let mem = (0..8 * 48u32)
            .map(|k| {
                let (y, x) = (k / 48, k % 48);
                if x < 32 {
                    (16 * y + x % 16) as u8
                } else {
                    0xee
                }
            })
            .collect();
        (m, mem)
    }

    fn load(m: &TensorMap, c: &[i32], smem: u32, mem: &[u8]) -> Result<SharedTile, TensorError> {
        let g = |a: u64, n: usize| {
            let o = a.checked_sub(0x1000)? as usize;
            mem.get(o..o + n).map(|s| s.to_vec())
        };
        gather4_load(m, c, smem, &g)
    }

    /// Row `y` of [`tensor`] over 16 columns: 16 y, 16 y + 1, ...
    fn row(y: u8) -> Vec<u8> {
        (0..16).map(|x| 16 * y + x).collect()
    }

    #[test]
    fn four_rows_in_index_order() {
        let (m, mem) = tensor();
        let t = load(&m, &[16, 5, 0, 7, 5], 0, &mem).unwrap();
        let want: Vec<u8> = [5, 0, 7, 5].into_iter().flat_map(row).collect();
        assert_eq!(t.bytes, want);
        assert_eq!(t.written, vec![true; 4]);
        let s = gather4_shape(&m).unwrap();
        assert_eq!((s.bytes, s.extent, s.pitch), (64, 64, 16));
    }

    #[test]
    fn box_rows_and_strides_of_the_map_take_no_part() {
        let (mut m, mem) = tensor();
        m.box_dims[1] = 3;
        m.element_strides[1] = 2;
        let t = load(&m, &[0, 1, 2, 3, 4], 0, &mem).unwrap();
        let want: Vec<u8> = [1, 2, 3, 4].into_iter().flat_map(row).collect();
        assert_eq!(t.bytes, want);
    }

    #[test]
    fn rows_outside_are_filled() {
        let (mut m, mem) = tensor();
        m.data_type = DataType::F16;
        m.global_dims[0] = 16; // 16 halves: 32 bytes a row
        m.box_dims[0] = 8;
        m.oob_fill = OobFill::NanRequestZeroFma;
        // row -1 and row 8 are outside; columns 8..16 of row 2 inside
        let t = load(&m, &[8, -1, 2, 8, 0], 0, &mem).unwrap();
        let nan = [0xf7, 0x7f].repeat(8);
        assert_eq!(t.bytes[..16], nan[..]);
        assert_eq!(t.bytes[16..32], row(2)[..]);
        assert_eq!(t.bytes[32..48], nan[..]);
        assert_eq!(t.bytes[48..64], row(0)[..]);
        // 12 columns: of columns 8..16, 4 halves in, 4 filled
        m.global_dims[0] = 12;
        let t = load(&m, &[8, 0, 0, 0, 0], 0, &mem).unwrap();
        assert_eq!(t.bytes[..8], row(0)[..8]);
        assert_eq!(t.bytes[8..16], nan[..8]);
    }

    #[test]
    fn the_swizzle_spans_the_whole_box() {
        let (mut m, mem) = tensor();
        m.swizzle = Swizzle::B32;
        // rows take 32 bytes each; lines of 128 bytes hold all four, so the
        // 32-byte pattern (chunk XOR line bit 0) leaves them in place
        let t = load(&m, &[0, 3, 2, 1, 0], 0, &mem).unwrap();
        assert_eq!(t.bytes.len(), 128);
        for (k, y) in [3u8, 2, 1, 0].into_iter().enumerate() {
            assert_eq!(t.bytes[32 * k..32 * k + 16], row(y)[..]);
            assert!(t.written[2 * k] && !t.written[2 * k + 1]);
        }
        // at 128 (line 1): each row's chunk moves to its pair's other half
        let t = load(&m, &[0, 3, 2, 1, 0], 128, &mem).unwrap();
        for (k, y) in [3u8, 2, 1, 0].into_iter().enumerate() {
            assert_eq!(t.bytes[32 * k + 16..32 * k + 32], row(y)[..]);
            assert!(!t.written[2 * k] && t.written[2 * k + 1]);
        }
    }

    #[test]
    fn rules_of_the_mode() {
        let (m, mem) = tensor();
        let three = TensorMap {
            rank: 3,
            global_dims: [32, 8, 1, 1, 1],
            global_strides: [48, 384, 0, 0],
            ..m
        };
        assert_eq!(
            load(&three, &[0, 0, 0, 0, 0], 0, &mem),
            Err(TensorError::Gather4(RANK_RULE))
        );
        assert_eq!(
            load(&m, &[0, 0], 0, &mem),
            Err(TensorError::Gather4(COORDS_RULE))
        );
        assert_eq!(
            load(&m, &[8, 0, 0, 0, 0], 0, &mem),
            Err(TensorError::MisalignedBox { offset: 8 })
        );
        assert!(matches!(
            load(&m, &[0, 0, 0, 0, 0], 64, &mem),
            Err(TensorError::Misaligned { .. })
        ));
    }

    #[test]
    fn scatter_writes_each_row_where_its_index_says() {
        let (m, _) = tensor();
        let smem: Vec<u8> = (0..64u8).collect();
        let w = scatter4_store(&m, &[16, 6, 1, 7, 3], 0, &smem).unwrap();
        assert_eq!(
            w,
            vec![
                (0x1000 + 6 * 48 + 16, (0..16).collect::<Vec<u8>>()),
                (0x1000 + 48 + 16, (16..32).collect()),
                (0x1000 + 7 * 48 + 16, (32..48).collect()),
                (0x1000 + 3 * 48 + 16, (48..64).collect()),
            ]
        );
        // row 8 is past the tensor: not written
        let w = scatter4_store(&m, &[16, 8, 0, 0, 0], 0, &smem).unwrap();
        assert_eq!(w.len(), 3);
        assert_eq!(w[0], (0x1000 + 16, (16..32).collect()));
        assert_eq!(
            scatter4_store(&m, &[16, 0, -1, 0, 0], 0, &smem),
            Err(TensorError::NegativeCoordinate { dim: 2, value: -1 })
        );
    }

    #[test]
    fn scatter_reads_through_the_swizzle() {
        let (mut m, _) = tensor();
        m.swizzle = Swizzle::B32;
        // at 128, row k's 16 bytes are at 32 k + 16 (line 1 flips the pair)
        let mut smem = vec![0u8; 128];
        for k in 0..4 {
            smem[32 * k + 16..32 * k + 32].fill(k as u8 + 1);
        }
        let w = scatter4_store(&m, &[0, 0, 1, 2, 3], 128, &smem).unwrap();
        for (k, (a, b)) in w.into_iter().enumerate() {
            assert_eq!(a, 0x1000 + 48 * k as u64);
            assert_eq!(b, vec![k as u8 + 1; 16]);
        }
    }
}
