//! Device memory: allocations at addresses of the global part of the window
//! profile, each a run of bytes, never reused once freed (so that a kernel
//! that keeps a freed pointer reaches no object, and the model says so).
//!
//! Unified addressing: the CUDA driver API lets `cuMemcpy` and
//! `CU_MEMORYTYPE_UNIFIED` tell host from device memory by the pointer's
//! value alone, which is sound only if no host object lies at a device
//! address. The device addresses lie where the host's own mappings may also
//! lie (shared libraries and large `malloc`s sit near `0x7f..` on Linux),
//! so the pages of every device allocation are held in the process's
//! address space (`mmap` of `PROT_NONE`, `MAP_NORESERVE`,
//! `MAP_FIXED_NOREPLACE`: no memory, only the addresses) before the
//! allocation is handed out, and stay held after it is freed (addresses are
//! never reused). Where a host mapping is already in the way, allocation
//! goes on past it. Where the system cannot hold addresses (not Linux, or
//! `mmap` refuses), [`Memory::unified`] is false and the device reports
//! `CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING` 0.

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

/// Host address space is held in runs of this many bytes where it is free
/// (fewer system calls than one a allocation); a run that would reach a host
/// mapping is held to the allocation's last page only.
const CHUNK: u64 = 1 << 30;
/// The host's page size for holding addresses (4 KiB on x86-64 and the
/// usual arm64 kernels; a larger page only makes a hold fail, never unsound:
/// `mmap` refuses an address that is not page-aligned).
pub const PAGE: u64 = 4096;

/// One allocation.
#[derive(Clone, Debug)]
pub struct Allocation {
    /// The context that made it (freed with it).
    pub context: u64,
    pub bytes: Vec<u8>,
    /// `CU_POINTER_ATTRIBUTE_BUFFER_ID`: unique over the process's life.
    pub id: u64,
}

/// Every live allocation, by base address.
#[derive(Debug)]
pub struct Memory {
    pub allocations: BTreeMap<u64, Allocation>,
    next: u64,
    used: u64,
    pub total: u64,
    /// Host address ranges held for device memory, page-aligned, disjoint:
    /// start to end.
    held: BTreeMap<u64, u64>,
    /// Whether every allocation's addresses are held away from the host
    /// (`CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING`).
    pub unified: bool,
    next_id: u64,
}

/// What holding a range of host addresses came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hold {
    Done,
    /// A host mapping is in the way; allocation may go on from this address.
    Blocked(u64),
    /// The system cannot hold addresses.
    Unavailable,
}

impl Memory {
    /// The device memory of a new driver; holds its first addresses to learn
    /// whether addresses can be held at all.
    pub fn new(total: u64) -> Memory {
        let mut m = Memory {
            allocations: BTreeMap::new(),
            next: BASE,
            used: 0,
            total,
            held: BTreeMap::new(),
            unified: cfg!(target_os = "linux"),
            next_id: 0,
        };
        if m.place(1).is_err() {
            m.unified = false;
        }
        m
    }

    /// A number no allocation, device or host, has had.
    pub fn new_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
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
        let len = usize::try_from(size).map_err(|_| CUDA_ERROR_OUT_OF_MEMORY)?;
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(len)
            .map_err(|_| CUDA_ERROR_OUT_OF_MEMORY)?;
        let base = self.place(size)?;
        let end = base + size;
        bytes.resize(len, fill);
        self.next = (end + GAP).div_ceil(ALIGN) * ALIGN;
        self.used += size;
        let id = self.new_id();
        self.allocations
            .insert(base, Allocation { context, bytes, id });
        Ok(base)
    }

    /// The address of the next allocation of `size` bytes, at or after
    /// `next`, its pages held away from the host when [`Memory::unified`]
    /// (moving `next` past host mappings in the way). Past [`LIMIT`], or
    /// addresses that can no longer be held: `CUDA_ERROR_OUT_OF_MEMORY`.
    fn place(&mut self, size: u64) -> Result<u64, CUresult> {
        for _ in 0..4096 {
            let base = self.next;
            let end = base
                .checked_add(size)
                .filter(|&e| e <= LIMIT)
                .ok_or(CUDA_ERROR_OUT_OF_MEMORY)?;
            if !self.unified {
                return Ok(base);
            }
            match self.hold(base, end, true) {
                Hold::Done => return Ok(base),
                Hold::Blocked(resume) => {
                    self.next = resume.max(base + 1).div_ceil(ALIGN) * ALIGN;
                }
                Hold::Unavailable => return Err(CUDA_ERROR_OUT_OF_MEMORY),
            }
        }
        Err(CUDA_ERROR_OUT_OF_MEMORY)
    }

    /// Holds the pages of `[start, end)` that are not held yet. With
    /// `ahead`, a free run of up to [`CHUNK`] bytes past `end` is held too.
    fn hold(&mut self, start: u64, end: u64, ahead: bool) -> Hold {
        let (lo, hi) = (start / PAGE * PAGE, end.div_ceil(PAGE) * PAGE);
        let mut gaps = Vec::new();
        let mut cursor = lo;
        for (&s, &e) in self.held.range(..hi) {
            if e <= cursor {
                continue;
            }
            if s > cursor {
                gaps.push((cursor, s));
            }
            cursor = cursor.max(e);
        }
        if cursor < hi {
            gaps.push((cursor, hi));
        }
        for (k, &(from, to)) in gaps.iter().enumerate() {
            // ahead of the last gap, up to the next held range
            let far = if ahead && k + 1 == gaps.len() {
                let next_held = self.held.range(to..).next().map_or(LIMIT, |(&s, _)| s);
                (from + CHUNK).min(next_held).min(LIMIT).max(to)
            } else {
                to
            };
            let done = if far > to && address_space::hold(from, far) == Hold::Done {
                far
            } else {
                match address_space::hold(from, to) {
                    Hold::Done => to,
                    other => return other,
                }
            };
            self.held.insert(from, done);
        }
        Hold::Done
    }

    /// Holds the addresses `[start, end)` (a module variable's) away from
    /// the host where they are free; false where they are not.
    pub fn hold_range(&mut self, start: u64, end: u64) -> bool {
        self.unified && end > start && self.hold(start, end, false) == Hold::Done
    }

    /// Whether `[addr, addr + len)` touches device memory: a live
    /// allocation, or addresses held for device memory (freed allocations'
    /// too). Such a range is no host memory.
    pub fn touches_device(&self, addr: u64, len: u64) -> bool {
        let end = addr.saturating_add(len.max(1));
        let held = self
            .held
            .range(..end)
            .next_back()
            .is_some_and(|(_, &e)| e > addr);
        let live = self
            .allocations
            .range(..end)
            .next_back()
            .is_some_and(|(&b, a)| b + a.bytes.len() as u64 > addr);
        held || live
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

/// Holding host addresses with the system's `mmap`.
mod address_space {
    use super::Hold;

    #[cfg(target_os = "linux")]
    pub fn hold(start: u64, end: u64) -> Hold {
        use std::ffi::{c_int, c_long, c_void};
        extern "C" {
            fn mmap(
                addr: *mut c_void,
                len: usize,
                prot: c_int,
                flags: c_int,
                fd: c_int,
                offset: c_long,
            ) -> *mut c_void;
            fn munmap(addr: *mut c_void, len: usize) -> c_int;
        }
        // <sys/mman.h> on Linux (the same numbers on x86-64 and arm64)
        const PROT_NONE: c_int = 0;
        const MAP_PRIVATE: c_int = 0x02;
        const MAP_ANONYMOUS: c_int = 0x20;
        const MAP_NORESERVE: c_int = 0x4000;
        const MAP_FIXED_NOREPLACE: c_int = 0x10_0000;
        const EEXIST: i32 = 17;
        let (Ok(addr), Ok(len)) = (usize::try_from(start), usize::try_from(end - start)) else {
            return Hold::Unavailable;
        };
        if len == 0 {
            return Hold::Done;
        }
        let flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE;
        // SAFETY: a new anonymous mapping of no access at an address no
        // mapping occupies (MAP_FIXED_NOREPLACE never replaces one); nothing
        // the process has is touched.
        let p = unsafe { mmap(addr as *mut c_void, len, PROT_NONE, flags, -1, 0) };
        if p as usize == usize::MAX {
            return match std::io::Error::last_os_error().raw_os_error() {
                Some(EEXIST) => {
                    Hold::Blocked(blocking_end(start, end).unwrap_or(start + super::CHUNK))
                }
                _ => Hold::Unavailable,
            };
        }
        if p as usize != addr {
            // a kernel older than 4.17 reads the flag as a hint and maps
            // elsewhere when the address is taken
            // SAFETY: `p` is the mapping just made, of `len` bytes.
            unsafe { munmap(p, len) };
            return Hold::Blocked(blocking_end(start, end).unwrap_or(start + super::CHUNK));
        }
        Hold::Done
    }

    /// The end of the first host mapping inside `[start, end)`, from
    /// `/proc/self/maps`.
    #[cfg(target_os = "linux")]
    fn blocking_end(start: u64, end: u64) -> Option<u64> {
        let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
        maps.lines()
            .filter_map(|l| {
                let range = l.split_whitespace().next()?;
                let (a, b) = range.split_once('-')?;
                Some((
                    u64::from_str_radix(a, 16).ok()?,
                    u64::from_str_radix(b, 16).ok()?,
                ))
            })
            .filter(|&(a, b)| a < end && b > start)
            .map(|(_, b)| b)
            .min()
    }

    #[cfg(not(target_os = "linux"))]
    pub fn hold(_start: u64, _end: u64) -> Hold {
        Hold::Unavailable
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn addresses_taken_by_another_mapping_are_stepped_over() {
        let mut first = Memory::new(1 << 40);
        assert!(first.unified);
        let a = first.alloc(1, 100, 0).unwrap();
        assert!(first.touches_device(a, 100));
        // the second finds the first's addresses taken, as it would find a
        // host mapping there, and goes on past them
        let mut second = Memory::new(1 << 40);
        assert!(second.unified);
        let b = second.alloc(1, 100, 0).unwrap();
        assert!((BASE..LIMIT).contains(&b));
        assert!(!first.touches_device(b, 100), "{b:#x} is the first's");
        assert!(second.touches_device(b, 100));
        // a module variable's range already held by the other is not held
        assert!(!second.hold_range(a, a + 8));
    }
}
