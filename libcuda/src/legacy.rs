//! The launch calls of the driver API before CUDA 4.0, deprecated but
//! documented and still used by old programs: a function's parameters are
//! set byte by byte (`cuParamSetSize`, `cuParamSeti`, `cuParamSetf`,
//! `cuParamSetv`), its block shape and dynamic shared memory on the
//! function (`cuFuncSetBlockShape`, `cuFuncSetSharedSize`), and `cuLaunch`,
//! `cuLaunchGrid` or `cuLaunchGridAsync` launch it with them. The bytes are
//! read as the `extra` buffer of `cuLaunchKernel` is: each kernel parameter
//! at its offset in the kernel's parameter space.

#![allow(clippy::missing_safety_doc)] // the driver API's documentation is theirs

use crate::api::{guard, handle};
use crate::launch::Request;
use crate::state;
use crate::types::*;
use std::collections::HashMap;
use std::ffi::{c_int, c_uint, c_void};
use std::sync::Mutex;

/// What the legacy calls set on one function.
#[derive(Default)]
struct Setup {
    bytes: Vec<u8>,
    /// `cuParamSetSize`: the parameters' total size.
    size: Option<usize>,
    block: Option<[u32; 3]>,
    shared: u32,
}

static SETUPS: Mutex<Option<HashMap<u64, Setup>>> = Mutex::new(None);

/// The setup of a function that exists (`CUDA_ERROR_INVALID_HANDLE`
/// otherwise).
fn with_setup<R>(function: Handle, f: impl FnOnce(&mut Setup) -> R) -> Result<R, CUresult> {
    let h = handle(function);
    state::with(|d| {
        d.functions
            .contains_key(&h)
            .then_some(())
            .ok_or(CUDA_ERROR_INVALID_HANDLE)
    })?;
    let mut g = SETUPS.lock().unwrap_or_else(|e| e.into_inner());
    Ok(f(g.get_or_insert_with(HashMap::new).entry(h).or_default()))
}

/// Writes parameter bytes at `offset`; past 4 KiB (the parameter space of
/// those releases) is `CUDA_ERROR_INVALID_VALUE`.
fn put_bytes(function: Handle, offset: c_int, bytes: &[u8]) -> Result<(), CUresult> {
    let offset = usize::try_from(offset).map_err(|_| CUDA_ERROR_INVALID_VALUE)?;
    let end = offset
        .checked_add(bytes.len())
        .filter(|&e| e <= 4096)
        .ok_or(CUDA_ERROR_INVALID_VALUE)?;
    with_setup(function, |s| {
        if s.bytes.len() < end {
            s.bytes.resize(end, 0);
        }
        s.bytes[offset..end].copy_from_slice(bytes);
    })
}

/// `cuParamSetSize`: "Sets through `numbytes` the total size in bytes
/// needed by the function parameters of the kernel".
#[no_mangle]
pub unsafe extern "C" fn cuParamSetSize(function: Handle, size: c_uint) -> CUresult {
    guard(|| {
        if size > 4096 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        with_setup(function, |s| {
            s.size = Some(size as usize);
            s.bytes.resize(s.bytes.len().max(size as usize), 0);
        })
    })
}

/// `cuParamSeti`: an integer parameter at `offset`.
#[no_mangle]
pub unsafe extern "C" fn cuParamSeti(function: Handle, offset: c_int, value: c_uint) -> CUresult {
    guard(|| put_bytes(function, offset, &value.to_le_bytes()))
}

/// `cuParamSetf`: a float parameter at `offset`.
#[no_mangle]
pub unsafe extern "C" fn cuParamSetf(function: Handle, offset: c_int, value: f32) -> CUresult {
    guard(|| put_bytes(function, offset, &value.to_le_bytes()))
}

/// `cuParamSetv`: `numbytes` bytes from `ptr` at `offset`.
#[no_mangle]
pub unsafe extern "C" fn cuParamSetv(
    function: Handle,
    offset: c_int,
    ptr: *mut c_void,
    size: c_uint,
) -> CUresult {
    guard(|| {
        if ptr.is_null() && size > 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let bytes = if size == 0 {
            &[][..]
        } else {
            std::slice::from_raw_parts(ptr.cast::<u8>(), size as usize)
        };
        put_bytes(function, offset, bytes)
    })
}

/// `cuFuncSetBlockShape`: the block of later `cuLaunch*` calls.
#[no_mangle]
pub unsafe extern "C" fn cuFuncSetBlockShape(
    function: Handle,
    x: c_int,
    y: c_int,
    z: c_int,
) -> CUresult {
    guard(|| {
        let dims = [x, y, z].map(|v| u32::try_from(v).ok().filter(|&v| v > 0));
        let [Some(x), Some(y), Some(z)] = dims else {
            return Err(CUDA_ERROR_INVALID_VALUE);
        };
        with_setup(function, |s| s.block = Some([x, y, z]))
    })
}

/// `cuFuncSetSharedSize`: the dynamic shared memory of later `cuLaunch*`
/// calls.
#[no_mangle]
pub unsafe extern "C" fn cuFuncSetSharedSize(function: Handle, bytes: c_uint) -> CUresult {
    guard(|| with_setup(function, |s| s.shared = bytes))
}

/// A launch of a `grid` with what the legacy calls set: a block shape is
/// needed (`CUDA_ERROR_INVALID_VALUE` without one), and the parameters'
/// bytes must cover the kernel's parameters.
fn launch(function: Handle, grid: [u32; 3], stream: Handle) -> Result<(), CUresult> {
    let (bytes, block, shared) = with_setup(function, |s| {
        let mut b = s.bytes.clone();
        if let Some(n) = s.size {
            b.truncate(n);
        }
        (b, s.block, s.shared)
    })?;
    let block = block.ok_or(CUDA_ERROR_INVALID_VALUE)?;
    let h = handle(function);
    let layout = state::with(|d| {
        d.functions
            .get(&h)
            .map(|f| f.program.params.clone())
            .ok_or(CUDA_ERROR_INVALID_HANDLE)
    })?;
    let params = layout
        .iter()
        .map(|p| {
            let (lo, hi) = (p.offset as usize, (p.offset + p.size) as usize);
            bytes
                .get(lo..hi)
                .map(<[u8]>::to_vec)
                .ok_or(CUDA_ERROR_INVALID_VALUE)
        })
        .collect::<Result<Vec<_>, _>>()?;
    state::with(|d| {
        d.launch(Request {
            function: h,
            grid,
            block,
            shared,
            cluster: None,
            stream: handle(stream),
            params,
        })
    })
}

/// `cuLaunch`: a grid of one block.
#[no_mangle]
pub unsafe extern "C" fn cuLaunch(function: Handle) -> CUresult {
    guard(|| launch(function, [1, 1, 1], std::ptr::null_mut()))
}

/// `cuLaunchGrid`: a `width` x `height` grid.
#[no_mangle]
pub unsafe extern "C" fn cuLaunchGrid(function: Handle, width: c_int, height: c_int) -> CUresult {
    cuLaunchGridAsync(function, width, height, std::ptr::null_mut())
}

/// `cuLaunchGridAsync`: as `cuLaunchGrid`, in a stream (work runs when it
/// is issued).
#[no_mangle]
pub unsafe extern "C" fn cuLaunchGridAsync(
    function: Handle,
    width: c_int,
    height: c_int,
    stream: Handle,
) -> CUresult {
    guard(|| {
        let (Ok(w), Ok(h)) = (u32::try_from(width), u32::try_from(height)) else {
            return Err(CUDA_ERROR_INVALID_VALUE);
        };
        launch(function, [w, h, 1], stream)
    })
}
