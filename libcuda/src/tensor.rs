//! `cuTensorMapEncodeTiled` and `cuTensorMapEncodeIm2col`: the driver's
//! arguments as a [`TensorMap`], checked as the CUDA 13.0 driver checks them
//! on an sm_90 device ([`TensorMap::validate_on`]), written in the model's
//! 128-byte encoding, which the simulator's tensor instructions read.

use crate::types::*;
use ptx_semantics::tensor::map::{Im2col, Interleave, L2Promotion, OobFill};
use ptx_semantics::tensor::{DataType, Mode, TensorMap};
use std::ffi::{c_int, c_uint, c_void};

/// The arguments both encoders take.
pub struct Fields {
    pub data_type: c_uint,
    pub rank: c_uint,
    pub global_address: u64,
    pub global_dim: *const u64,
    pub global_strides: *const u64,
    pub element_strides: *const u32,
    pub interleave: c_uint,
    pub swizzle: c_uint,
    pub l2_promotion: c_uint,
    pub oob_fill: c_uint,
}

/// What differs between the two.
pub enum Shape {
    Tiled {
        box_dim: *const u32,
    },
    Im2col {
        lower_corner: *const c_int,
        upper_corner: *const c_int,
        channels_per_pixel: c_uint,
        pixels_per_column: c_uint,
    },
}

/// Reads `n` entries of a host array; null is `CUDA_ERROR_INVALID_VALUE`.
unsafe fn read<T: Copy>(p: *const T, n: usize) -> Result<Vec<T>, CUresult> {
    if p.is_null() && n > 0 {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    Ok((0..n).map(|k| p.add(k).read_unaligned()).collect())
}

/// Encodes a map into the 128 bytes at `out`.
///
/// # Safety
/// `out` must hold 128 bytes; the arrays as many entries as the driver API
/// asks (`rank`, or `rank - 1` strides, `rank - 2` corners).
pub unsafe fn encode(out: *mut c_void, f: &Fields, shape: Shape) -> Result<(), CUresult> {
    let bad = CUDA_ERROR_INVALID_VALUE;
    if out.is_null() || !(1..=5).contains(&f.rank) {
        return Err(bad);
    }
    let r = f.rank as usize;
    let mut m = TensorMap {
        data_type: DataType::from_driver(f.data_type).ok_or(bad)?,
        rank: f.rank,
        global_address: f.global_address,
        interleave: Interleave::from_code(f.interleave).ok_or(bad)?,
        l2_promotion: L2Promotion::from_code(f.l2_promotion).ok_or(bad)?,
        oob_fill: OobFill::from_code(f.oob_fill).ok_or(bad)?,
        ..TensorMap::default()
    };
    (m.swizzle, m.atomicity) = TensorMap::from_driver_swizzle(f.swizzle).ok_or(bad)?;
    for (k, v) in read(f.global_dim, r)?.into_iter().enumerate() {
        m.global_dims[k] = v;
    }
    for (k, v) in read(f.global_strides, r - 1)?.into_iter().enumerate() {
        m.global_strides[k] = v;
    }
    for (k, v) in read(f.element_strides, r)?.into_iter().enumerate() {
        m.element_strides[k] = v;
    }
    match shape {
        Shape::Tiled { box_dim } => {
            for (k, v) in read(box_dim, r)?.into_iter().enumerate() {
                m.box_dims[k] = v;
            }
        }
        Shape::Im2col {
            lower_corner,
            upper_corner,
            channels_per_pixel,
            pixels_per_column,
        } => {
            let mut ic = Im2col {
                channels_per_pixel,
                pixels_per_column,
                ..Im2col::default()
            };
            let corners = r.saturating_sub(2);
            for (k, v) in read(lower_corner, corners)?.into_iter().enumerate() {
                ic.lower_corner[k] = v;
            }
            for (k, v) in read(upper_corner, corners)?.into_iter().enumerate() {
                ic.upper_corner[k] = v;
            }
            m.mode = Mode::Im2col(ic);
        }
    }
    m.validate_on(90).map_err(|_| bad)?;
    let bytes = m.to_bytes();
    std::ptr::copy_nonoverlapping(bytes.as_ptr(), out.cast::<u8>(), bytes.len());
    Ok(())
}
