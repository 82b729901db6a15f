//! `cuPointerGetAttribute(s)`: what the driver knows of a pointer, for
//! device allocations (`cuMemAlloc`) and page-locked host allocations
//! (`cuMemAllocHost`). Module variables and memory the library did not
//! allocate are not its pointers.

#![allow(clippy::missing_safety_doc)] // the driver API's documentation is theirs

use crate::api::guard;
use crate::state::{self, Driver};
use crate::types::*;
use std::ffi::{c_uint, c_void};

/// An allocation a pointer lies in.
#[derive(Clone, Copy, Debug)]
pub struct Owner {
    pub device: bool,
    pub base: u64,
    pub size: u64,
    pub context: u64,
    pub id: u64,
}

/// The allocation holding `ptr`, device or host.
pub fn owner(d: &Driver, ptr: u64) -> Option<Owner> {
    if let Some(base) = d.memory.find(ptr, 1) {
        let a = &d.memory.allocations[&base];
        return Some(Owner {
            device: true,
            base,
            size: a.bytes.len() as u64,
            context: a.context,
            id: a.id,
        });
    }
    let (&base, h) = d.host_allocations.range(..=ptr).next_back()?;
    (ptr < base + h.size).then_some(Owner {
        device: false,
        base,
        size: h.size,
        context: h.context,
        id: h.id,
    })
}

/// The bytes an attribute's value takes (`cuda.h`: `CUcontext`, pointers
/// and `CUdeviceptr` 8; `unsigned long long` and `size_t` 8; the booleans,
/// `CUmemorytype`, the device ordinal, access flags and handle types 4);
/// `None` for a number that is no attribute, or `P2P_TOKENS` (a structure
/// this library never fills).
pub fn size(attribute: u32) -> Option<usize> {
    use pointer_attr::*;
    Some(match attribute {
        CONTEXT | DEVICE_POINTER | HOST_POINTER | BUFFER_ID | RANGE_START_ADDR | RANGE_SIZE
        | MEMPOOL_HANDLE | MAPPING_SIZE | MAPPING_BASE_ADDR | MEMORY_BLOCK_ID => 8,
        MEMORY_TYPE
        | SYNC_MEMOPS
        | IS_MANAGED
        | DEVICE_ORDINAL
        | IS_LEGACY_CUDA_IPC_CAPABLE
        | MAPPED
        | ALLOWED_HANDLE_TYPES
        | IS_GPU_DIRECT_RDMA_CAPABLE
        | ACCESS_FLAGS
        | IS_HW_DECOMPRESS_CAPABLE => 4,
        _ => return None,
    })
}

/// The value of `attribute` for the allocation `o` holding `ptr`, as
/// little-endian bytes of [`size`]. Rules of `cuPointerGetAttribute`:
/// - `DEVICE_POINTER`: "If there exists no device pointer value through
///   which kernels running in the current CUcontext may access ptr then
///   CUDA_ERROR_INVALID_VALUE is returned" (kernels cannot reach host memory
///   here);
/// - `HOST_POINTER`: "If there exists no host pointer value through which
///   the host program may directly access ptr then CUDA_ERROR_INVALID_VALUE
///   is returned" (device memory);
/// - `BUFFER_ID`: "Subsequent allocations do not reuse IDs from previous
///   freed allocations";
/// - `SYNC_MEMOPS` is 1: every operation here is done when it returns;
/// - `IS_MANAGED`, IPC, RDMA, decompression, handle types 0 (none of them
///   exists here), no memory pool (null);
/// - `ACCESS_FLAGS`: read and write (3) for device memory, none (0) for
///   host memory, which kernels cannot reach;
/// - `RANGE_*` and `MAPPING_*`: the allocation; `MEMORY_BLOCK_ID` its id.
pub fn value(o: &Owner, attribute: u32, ptr: u64) -> Result<Vec<u8>, CUresult> {
    use pointer_attr::*;
    let u64v = |v: u64| Ok(v.to_le_bytes().to_vec());
    let u32v = |v: u32| Ok(v.to_le_bytes().to_vec());
    match attribute {
        CONTEXT => u64v(o.context),
        MEMORY_TYPE => u32v(if o.device {
            memory_type::DEVICE
        } else {
            memory_type::HOST
        }),
        DEVICE_POINTER if o.device => u64v(ptr),
        HOST_POINTER if !o.device => u64v(ptr),
        DEVICE_POINTER | HOST_POINTER | P2P_TOKENS => Err(CUDA_ERROR_INVALID_VALUE),
        SYNC_MEMOPS | MAPPED => u32v(1),
        BUFFER_ID | MEMORY_BLOCK_ID => u64v(o.id),
        IS_MANAGED
        | DEVICE_ORDINAL
        | IS_LEGACY_CUDA_IPC_CAPABLE
        | ALLOWED_HANDLE_TYPES
        | IS_GPU_DIRECT_RDMA_CAPABLE
        | IS_HW_DECOMPRESS_CAPABLE => u32v(0),
        ACCESS_FLAGS => u32v(if o.device { 3 } else { 0 }),
        MEMPOOL_HANDLE => u64v(0),
        RANGE_START_ADDR | MAPPING_BASE_ADDR => u64v(o.base),
        RANGE_SIZE | MAPPING_SIZE => u64v(o.size),
        _ => Err(CUDA_ERROR_INVALID_VALUE),
    }
}

/// `cuPointerGetAttribute`. A pointer in no allocation of this library is
/// `CUDA_ERROR_INVALID_VALUE` ("If ptr was not allocated by, mapped by, or
/// registered with a CUcontext which uses unified virtual addressing then
/// CUDA_ERROR_INVALID_VALUE is returned"), as is an attribute that is none;
/// `DEVICE_POINTER` with no current context is `CUDA_ERROR_INVALID_CONTEXT`
/// ("If there is no current CUcontext").
#[no_mangle]
pub unsafe extern "C" fn cuPointerGetAttribute(
    data: *mut c_void,
    attribute: c_uint,
    ptr: CUdeviceptr,
) -> CUresult {
    guard(|| {
        let bytes = state::with(|d| {
            if attribute == pointer_attr::DEVICE_POINTER {
                d.current()?;
            }
            size(attribute).ok_or(CUDA_ERROR_INVALID_VALUE)?;
            let o = owner(d, ptr).ok_or(CUDA_ERROR_INVALID_VALUE)?;
            value(&o, attribute, ptr)
        })?;
        if data.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), data.cast::<u8>(), bytes.len());
        Ok(())
    })
}

/// `cuPointerGetAttributes`: each of `num` attributes into its `data`
/// entry. "Unlike cuPointerGetAttribute, this function will not return an
/// error when the ptr encountered is not a valid CUDA pointer. Instead, the
/// attributes are assigned default NULL values and CUDA_SUCCESS is
/// returned": zeros of each attribute's size, for such a pointer and for an
/// attribute that has no value for it (the host pointer of device memory).
/// An attribute outside the documented list (`P2P_TOKENS`, or no attribute)
/// or a null array or entry is `CUDA_ERROR_INVALID_VALUE`, before anything
/// is written.
#[no_mangle]
pub unsafe extern "C" fn cuPointerGetAttributes(
    num: c_uint,
    attributes: *const c_uint,
    data: *mut *mut c_void,
    ptr: CUdeviceptr,
) -> CUresult {
    guard(|| {
        state::with(|_| Ok(()))?;
        if num == 0 {
            return Ok(());
        }
        if attributes.is_null() || data.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let n = num as usize;
        let asked: Vec<(u32, *mut c_void)> =
            (0..n).map(|k| (*attributes.add(k), *data.add(k))).collect();
        let values = state::with(|d| {
            let o = owner(d, ptr);
            asked
                .iter()
                .map(|&(a, out)| {
                    let len = size(a).ok_or(CUDA_ERROR_INVALID_VALUE)?;
                    if out.is_null() {
                        return Err(CUDA_ERROR_INVALID_VALUE);
                    }
                    Ok(o.and_then(|o| value(&o, a, ptr).ok())
                        .unwrap_or_else(|| vec![0; len]))
                })
                .collect::<Result<Vec<_>, _>>()
        })?;
        for ((_, out), v) in asked.iter().zip(&values) {
            std::ptr::copy_nonoverlapping(v.as_ptr(), out.cast::<u8>(), v.len());
        }
        Ok(())
    })
}
