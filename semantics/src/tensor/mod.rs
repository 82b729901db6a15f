//! Tensor maps and tiled tensor copies (PTX ISA 5.5 and 9.7.9.25.5), as pure
//! functions: the map by its fields with the rules a valid one keeps and an
//! encoding of our own ([`map`]), and the exact bytes a tiled copy moves in
//! either direction ([`tile`]), and sm_100's `.tile::gather4` and
//! `.tile::scatter4` ([`gather`]). The simulator and the checkers call these;
//! nothing here does I/O.
//!
//! The device sweep (`tools/tensor_sweep.py`) and its recorded results
//! (`corpus/tensor/sm_90`) hold the functions to an H100; [`digest`] and
//! [`pattern_word`] are the two functions that sweep and its test share.

pub mod gather;
pub mod im2col;
pub mod map;
pub mod replace;
pub mod text;
pub mod tile;

pub use gather::{gather4_load, gather4_shape, scatter4_store, scatter4_store_runs, GATHER4_ROWS};
pub use im2col::{
    im2col_bytes, im2col_load, im2col_no_offs_store, im2col_offset_max, im2col_pixels,
    im2col_shape, im2col_w_load, im2col_w_pixels, im2col_w_shape, Im2colW,
};
pub use map::{
    Atomicity, DataType, Im2col, Interleave, L2Promotion, MapError, Mode, OobFill, Swizzle,
    TensorMap,
};
pub use replace::{replace, replace_bytes, Field, OperandType, Replace, ReplaceError};
pub use text::{Base, MapText, TextError};
pub use tile::{
    box_shape, oob_nan, round_tf32, swizzle_addr, tile_linear, tile_load, tile_store,
    tile_store_runs, tile_store_sm90, BoxShape, Global, SharedTile, TensorError,
};

fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The `k`-th 64-bit word of the pseudo-random pattern `seed` (splitmix64):
/// the device sweep fills global memory with it, little-endian.
pub fn pattern_word(seed: u64, k: u64) -> u64 {
    mix64(seed.wrapping_add(k.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15)))
}

/// `n` bytes of pattern `seed` starting at byte `offset` of it.
pub fn pattern_bytes(seed: u64, offset: u64, n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(n + 16);
    let first = offset / 8;
    let skip = (offset % 8) as usize;
    let words = (skip + n).div_ceil(8) as u64;
    for k in 0..words {
        out.extend_from_slice(&pattern_word(seed, first + k).to_le_bytes());
    }
    out.drain(..skip);
    out.truncate(n);
    out
}

/// The digest the device sweep records of a byte string: its length plus,
/// for each little-endian 64-bit word `w_i` (the last one zero-padded),
/// `mix64(w_i ^ (i * 0x9e3779b97f4a7c15 + 0x632be59bd9b4e019))`, all wrapping.
pub fn digest(bytes: &[u8]) -> u64 {
    let mut d = bytes.len() as u64;
    for (i, c) in bytes.chunks(8).enumerate() {
        let mut w = [0u8; 8];
        w[..c.len()].copy_from_slice(c);
        let key = (i as u64)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(0x632b_e59b_d9b4_e019);
        d = d.wrapping_add(mix64(u64::from_le_bytes(w) ^ key));
    }
    d
}

/// The 32-bit poison word `w` of the sweep's shared memory before a copy:
/// `w * 0x9e3779b1 + 0x7f4a7c15` (wrapping).
pub fn poison_word(w: u32) -> u32 {
    w.wrapping_mul(0x9e37_79b1).wrapping_add(0x7f4a_7c15)
}

#[cfg(test)]
mod tests;
