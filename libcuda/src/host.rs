//! Page-locked host memory (`cuMemAllocHost`): ordinary host memory here,
//! aligned to a page, remembered so that `cuMemFreeHost` can check and free
//! it. Kernels cannot reach it (the simulator has no mapping of host memory).

use crate::types::*;
use std::alloc::Layout;
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::Mutex;

const PAGE: usize = 4096;

/// Live host allocations: address and layout.
static HOST: Mutex<Option<HashMap<usize, Layout>>> = Mutex::new(None);

/// `size` bytes (at least one), page-aligned.
pub fn alloc(size: usize) -> Result<*mut c_void, CUresult> {
    if size == 0 {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    let layout = Layout::from_size_align(size, PAGE).map_err(|_| CUDA_ERROR_OUT_OF_MEMORY)?;
    // SAFETY: the layout has a non-zero size.
    let p = unsafe { std::alloc::alloc(layout) };
    if p.is_null() {
        return Err(CUDA_ERROR_OUT_OF_MEMORY);
    }
    HOST.lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashMap::new)
        .insert(p as usize, layout);
    Ok(p.cast())
}

/// Frees what [`alloc`] gave; anything else is `CUDA_ERROR_INVALID_VALUE`.
pub fn free(p: *mut c_void) -> Result<(), CUresult> {
    let layout = HOST
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashMap::new)
        .remove(&(p as usize))
        .ok_or(CUDA_ERROR_INVALID_VALUE)?;
    // SAFETY: `p` came from `alloc` with this layout and is freed once (it
    // has just left the table).
    unsafe { std::alloc::dealloc(p.cast(), layout) };
    Ok(())
}
