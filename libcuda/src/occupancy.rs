//! Occupancy: how many CTAs of a function fit on one multiprocessor of the
//! device the library describes (`device::attribute`), and the block size
//! that fits the most threads. The simulator runs one cluster at a time, so
//! these numbers only serve clients that size their launches with them
//! (`matrixMulDrv` of NVIDIA's samples does).
//!
//! What counts, from the device's attributes: threads per multiprocessor
//! (2048), CTAs per multiprocessor (32), shared memory per multiprocessor
//! (228 KiB) with each CTA's static and dynamic shared memory plus the 1 KiB
//! the device reserves per CTA. Registers are not counted: the simulator's
//! register slots are no allocation a GPU would make.

#![allow(clippy::missing_safety_doc)] // the driver API's documentation is theirs

use crate::api::{guard, handle, put};
use crate::device;
use crate::launch;
use crate::state;
use crate::types::*;
use std::ffi::{c_int, c_uint};

/// `size_t (*CUoccupancyB2DSize)(int blockSize)`: the dynamic shared memory
/// a block size needs.
pub type B2DSize = Option<unsafe extern "C" fn(c_int) -> usize>;

/// One attribute of the device, as `cuDeviceGetAttribute` gives it.
fn attr(a: i32) -> u64 {
    device::attribute(a, false).map_or(0, |v| v.max(0) as u64)
}

/// CTAs of `block` threads and `dynamic` bytes of dynamic shared memory
/// that fit on one multiprocessor beside each other; 0 when one CTA does
/// not fit the per-block limits.
pub fn blocks_per_multiprocessor(static_shared: u64, block: u64, dynamic: u64) -> u64 {
    use attr::*;
    let reserved = attr(RESERVED_SHARED_MEMORY_PER_BLOCK);
    let shared = static_shared + dynamic;
    if block == 0
        || block > attr(MAX_THREADS_PER_BLOCK)
        || shared > attr(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
    {
        return 0;
    }
    let warp = attr(WARP_SIZE).max(1);
    let by_threads = attr(MAX_THREADS_PER_MULTIPROCESSOR) / block.div_ceil(warp) / warp;
    let by_blocks = attr(MAX_BLOCKS_PER_MULTIPROCESSOR);
    let by_shared = attr(MAX_SHARED_MEMORY_PER_MULTIPROCESSOR) / (shared + reserved);
    by_threads.min(by_blocks).min(by_shared)
}

/// The static shared memory of a function.
fn static_shared(function: Handle) -> Result<u64, CUresult> {
    state::with(|d| {
        d.functions
            .get(&handle(function))
            .map(|f| launch::static_shared(&f.program))
            .ok_or(CUDA_ERROR_INVALID_HANDLE)
    })
}

/// `cuOccupancyMaxActiveBlocksPerMultiprocessor`: "Returns in `*numBlocks`
/// the number of the maximum active blocks per streaming multiprocessor."
#[no_mangle]
pub unsafe extern "C" fn cuOccupancyMaxActiveBlocksPerMultiprocessor(
    num_blocks: *mut c_int,
    function: Handle,
    block_size: c_int,
    dynamic: usize,
) -> CUresult {
    cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        num_blocks, function, block_size, dynamic, 0,
    )
}

/// `...WithFlags`: the flags (`CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE`)
/// concern caching, which changes nothing here.
#[no_mangle]
pub unsafe extern "C" fn cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    num_blocks: *mut c_int,
    function: Handle,
    block_size: c_int,
    dynamic: usize,
    _flags: c_uint,
) -> CUresult {
    guard(|| {
        if num_blocks.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let s = static_shared(function)?;
        let block = u64::try_from(block_size).map_err(|_| CUDA_ERROR_INVALID_VALUE)?;
        put(
            num_blocks,
            blocks_per_multiprocessor(s, block, dynamic as u64) as c_int,
        )
    })
}

/// `cuOccupancyMaxPotentialBlockSize`: "Returns in `*blockSize` a
/// reasonable block size that can achieve the maximum occupancy (or, the
/// maximum number of active warps with the fewest blocks per
/// multiprocessor), and in `*minGridSize` the minimum grid size to achieve
/// the maximum occupancy." The dynamic shared memory of each block size is
/// `blockSizeToDynamicSMemSize(size)` when given, else `dynamicSMemSize`;
/// `blockSizeLimit` 0 means no limit beyond the device's. Block sizes are
/// tried in warps, largest first; of those reaching the most threads per
/// multiprocessor the largest is kept.
#[no_mangle]
pub unsafe extern "C" fn cuOccupancyMaxPotentialBlockSize(
    min_grid_size: *mut c_int,
    block_size: *mut c_int,
    function: Handle,
    to_dynamic: B2DSize,
    dynamic: usize,
    block_size_limit: c_int,
) -> CUresult {
    cuOccupancyMaxPotentialBlockSizeWithFlags(
        min_grid_size,
        block_size,
        function,
        to_dynamic,
        dynamic,
        block_size_limit,
        0,
    )
}

#[no_mangle]
pub unsafe extern "C" fn cuOccupancyMaxPotentialBlockSizeWithFlags(
    min_grid_size: *mut c_int,
    block_size: *mut c_int,
    function: Handle,
    to_dynamic: B2DSize,
    dynamic: usize,
    block_size_limit: c_int,
    _flags: c_uint,
) -> CUresult {
    guard(|| {
        if min_grid_size.is_null() || block_size.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let s = static_shared(function)?;
        let device_max = attr(attr::MAX_THREADS_PER_BLOCK);
        let limit = match u64::try_from(block_size_limit) {
            Ok(0) => device_max,
            Ok(l) => l.min(device_max),
            Err(_) => return Err(CUDA_ERROR_INVALID_VALUE),
        };
        let warp = attr(attr::WARP_SIZE).max(1);
        let mut best = (0u64, 0u64, 0u64); // (threads per multiprocessor, block, CTAs)
        let mut size = limit.div_ceil(warp) * warp;
        while size > 0 {
            let block = size.min(limit);
            let dyn_bytes = match to_dynamic {
                Some(f) => f(block as c_int) as u64,
                None => dynamic as u64,
            };
            let ctas = blocks_per_multiprocessor(s, block, dyn_bytes);
            if ctas * block > best.0 {
                best = (ctas * block, block, ctas);
            }
            size -= warp;
        }
        let grid = best.2 * device::MULTIPROCESSORS as u64;
        put(block_size, best.1 as c_int)?;
        put(min_grid_size, grid as c_int)
    })
}

/// `cuOccupancyAvailableDynamicSMemPerBlock`: "Returns in
/// `*dynamicSmemSize` the maximum size of dynamic shared memory to allow
/// `numBlocks` blocks per SM."
#[no_mangle]
pub unsafe extern "C" fn cuOccupancyAvailableDynamicSMemPerBlock(
    dynamic_size: *mut usize,
    function: Handle,
    num_blocks: c_int,
    block_size: c_int,
) -> CUresult {
    guard(|| {
        if dynamic_size.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let s = static_shared(function)?;
        let (Ok(n), Ok(block)) = (u64::try_from(num_blocks), u64::try_from(block_size)) else {
            return Err(CUDA_ERROR_INVALID_VALUE);
        };
        if n == 0 || blocks_per_multiprocessor(s, block, 0) < n {
            return put(dynamic_size, 0);
        }
        let per_block = attr(attr::MAX_SHARED_MEMORY_PER_MULTIPROCESSOR) / n;
        let room = per_block
            .saturating_sub(attr(attr::RESERVED_SHARED_MEMORY_PER_BLOCK))
            .min(attr(attr::MAX_SHARED_MEMORY_PER_BLOCK_OPTIN))
            .saturating_sub(s);
        put(dynamic_size, room as usize)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_each_bind() {
        // threads: 2048 / 256 = 8
        assert_eq!(blocks_per_multiprocessor(0, 256, 0), 8);
        // CTAs: 32 at most, even for one warp
        assert_eq!(blocks_per_multiprocessor(0, 32, 0), 32);
        // shared memory: (48 KiB + 1 KiB reserved) per CTA in 228 KiB
        assert_eq!(
            blocks_per_multiprocessor(48 << 10, 64, 0),
            (228 << 10) / (49 << 10)
        );
        // a partial warp takes a whole one
        assert_eq!(blocks_per_multiprocessor(0, 33, 0), 2048 / 64);
        // too large for one CTA
        assert_eq!(blocks_per_multiprocessor(0, 1025, 0), 0);
        assert_eq!(blocks_per_multiprocessor(0, 64, 228 << 10), 0);
    }
}
