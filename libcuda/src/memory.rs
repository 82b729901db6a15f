//! Device memory: allocations at addresses of the global part of the window
//! profile, each a run of bytes, never reused once freed (so that a kernel
//! that keeps a freed pointer reaches no object, and the model says so).

use crate::types::*;
use std::collections::BTreeMap;

/// Where the first allocation lies: in the global part of
/// [`ptx_semantics::sim::WindowProfile::SM90`], 64 GiB past its heap (where
/// the simulator places a module's `.global` variables), below every other
/// window (the constant window, the lowest, starts at `0x7fdf_d280_0000`).
pub const BASE: u64 = 0x7f10_0000_0000;
/// Where allocations must end: the lowest window of the profile.
pub const LIMIT: u64 = 0x7fdf_0000_0000;
/// Alignment of every allocation. The CUDA driver API documents for
/// `cuMemAlloc`: "The allocated memory is suitably aligned for any kind of
/// variable"; 256 bytes is what the driver gives.
pub const ALIGN: u64 = 256;
/// Bytes left unallocated after each allocation, so that an access just
/// past one reaches no object rather than the next allocation.
pub const GAP: u64 = 256;

/// One allocation.
#[derive(Clone, Debug)]
pub struct Allocation {
    /// The context that made it (freed with it).
    pub context: u64,
    pub bytes: Vec<u8>,
}

/// Every live allocation, by base address.
#[derive(Debug)]
pub struct Memory {
    pub allocations: BTreeMap<u64, Allocation>,
    next: u64,
    used: u64,
    pub total: u64,
}

impl Memory {
    pub fn new(total: u64) -> Memory {
        Memory {
            allocations: BTreeMap::new(),
            next: BASE,
            used: 0,
            total,
        }
    }

    /// Bytes allocated now.
    pub fn used(&self) -> u64 {
        self.used
    }

    /// A new allocation of `size` bytes, each `fill`. `cuMemAlloc`: "If
    /// bytesize is 0, cuMemAlloc() returns CUDA_ERROR_INVALID_VALUE".
    pub fn alloc(&mut self, context: u64, size: u64, fill: u8) -> Result<u64, CUresult> {
        if size == 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        if size > self.total.saturating_sub(self.used) {
            return Err(CUDA_ERROR_OUT_OF_MEMORY);
        }
        let base = self.next;
        let end = base
            .checked_add(size)
            .filter(|&e| e <= LIMIT)
            .ok_or(CUDA_ERROR_OUT_OF_MEMORY)?;
        let len = usize::try_from(size).map_err(|_| CUDA_ERROR_OUT_OF_MEMORY)?;
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(len)
            .map_err(|_| CUDA_ERROR_OUT_OF_MEMORY)?;
        bytes.resize(len, fill);
        self.next = (end + GAP).div_ceil(ALIGN) * ALIGN;
        self.used += size;
        self.allocations.insert(base, Allocation { context, bytes });
        Ok(base)
    }

    /// Frees the allocation that starts at `base`. The driver API: an
    /// address that is not one `cuMemAlloc` returned, or one already freed,
    /// is `CUDA_ERROR_INVALID_VALUE`.
    pub fn free(&mut self, base: u64) -> Result<(), CUresult> {
        let a = self
            .allocations
            .remove(&base)
            .ok_or(CUDA_ERROR_INVALID_VALUE)?;
        self.used -= a.bytes.len() as u64;
        Ok(())
    }

    /// Frees every allocation of a context.
    pub fn free_context(&mut self, context: u64) {
        let gone: Vec<u64> = self
            .allocations
            .iter()
            .filter(|(_, a)| a.context == context)
            .map(|(&b, _)| b)
            .collect();
        for b in gone {
            let _ = self.free(b);
        }
    }

    /// The allocation holding `[addr, addr + len)`: its base.
    pub fn find(&self, addr: u64, len: u64) -> Option<u64> {
        let (&base, a) = self.allocations.range(..=addr).next_back()?;
        let end = base + a.bytes.len() as u64;
        (addr.checked_add(len)? <= end).then_some(base)
    }

    /// `[addr, addr + len)` of one allocation.
    pub fn slice_mut(&mut self, addr: u64, len: u64) -> Option<&mut [u8]> {
        let base = self.find(addr, len)?;
        let a = self.allocations.get_mut(&base)?;
        let off = (addr - base) as usize;
        a.bytes.get_mut(off..off + len as usize)
    }
}
