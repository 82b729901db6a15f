//! The memory of a running kernel: global buffers and variables, the
//! module's constant bank, the kernel's parameters, and (for the cluster
//! that runs) each CTA's shared memory and each thread's local frame. Each
//! byte may be indeterminate (never written, or `discard`ed): a byte-wide
//! shadow records it, and loads carry it into registers as unspecified
//! bits.

use super::undefined::Undefined;

/// One object of global memory.
#[derive(Clone, Debug)]
pub(crate) struct Region {
    pub base: u64,
    pub bytes: Vec<u8>,
    /// 1 for an indeterminate byte; empty while every byte is determinate.
    pub shadow: Vec<u8>,
    /// The launch argument that gave the buffer, if one did.
    pub arg: Option<usize>,
}

pub(crate) const OUTSIDE: Undefined = Undefined::behaviour(
    Undefined::MODEL,
    "the access is not inside one object of its state space (an address no variable or buffer occupies)",
);

#[derive(Clone, Debug, Default)]
pub(crate) struct Global {
    /// Sorted by base, not overlapping.
    pub regions: Vec<Region>,
    last: usize,
}

impl Global {
    pub fn new(mut regions: Vec<Region>) -> Result<Global, (u64, u64)> {
        regions.sort_by_key(|r| r.base);
        for w in regions.windows(2) {
            if w[0].base.saturating_add(w[0].bytes.len() as u64) > w[1].base {
                return Err((w[0].base, w[1].base));
            }
        }
        Ok(Global { regions, last: 0 })
    }

    /// `find`, for the region the last `find` hit only.
    #[inline(always)]
    pub fn find_last(&self, addr: u64, size: u64) -> Option<(usize, usize)> {
        let r = self.regions.get(self.last)?;
        let off = addr.wrapping_sub(r.base);
        (addr >= r.base && off.saturating_add(size) <= r.bytes.len() as u64)
            .then_some((self.last, off as usize))
    }

    /// `find`, leaving the last region hit as it is.
    pub fn lookup(&self, addr: u64, size: u64) -> Option<(usize, usize)> {
        let i = self
            .regions
            .partition_point(|r| r.base <= addr)
            .checked_sub(1)?;
        let r = &self.regions[i];
        (addr.wrapping_sub(r.base).saturating_add(size) <= r.bytes.len() as u64)
            .then(|| (i, (addr - r.base) as usize))
    }

    /// The region holding `[addr, addr + size)` and the offset in it.
    pub fn find(&mut self, addr: u64, size: u64) -> Option<(usize, usize)> {
        let hit = |r: &Region| {
            addr >= r.base && addr.wrapping_sub(r.base).saturating_add(size) <= r.bytes.len() as u64
        };
        if let Some(r) = self.regions.get(self.last) {
            if hit(r) {
                return Some((self.last, (addr - r.base) as usize));
            }
        }
        let i = self
            .regions
            .partition_point(|r| r.base <= addr)
            .checked_sub(1)?;
        let r = &self.regions[i];
        if hit(r) {
            self.last = i;
            Some((i, (addr - r.base) as usize))
        } else {
            None
        }
    }

    /// Marks `[off, off + len)` of region `i` indeterminate.
    pub fn make_indeterminate(&mut self, i: usize, off: usize, len: usize) {
        let r = &mut self.regions[i];
        if r.shadow.is_empty() {
            r.shadow = vec![0; r.bytes.len()];
        }
        let end = (off + len).min(r.shadow.len());
        r.shadow[off.min(end)..end].iter_mut().for_each(|b| *b = 1);
    }
}
