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
    /// The bytes a run read and wrote, per region, when it keeps them
    /// (clusters run on several threads: `machine::parallel`).
    pub footprint: Option<Footprint>,
}

/// Which bytes of each region a run read, and which it wrote (a bit per
/// byte). Cells, so that the paths that read through `&Global` mark too.
#[derive(Clone, Debug, Default)]
pub(crate) struct Footprint {
    pub read: Vec<Vec<std::cell::Cell<u64>>>,
    pub write: Vec<Vec<std::cell::Cell<u64>>>,
}

impl Footprint {
    pub fn new(regions: &[Region]) -> Footprint {
        let bits = |r: &Region| vec![std::cell::Cell::new(0u64); r.bytes.len().div_ceil(64)];
        Footprint {
            read: regions.iter().map(bits).collect(),
            write: regions.iter().map(bits).collect(),
        }
    }

    fn mark(set: &[std::cell::Cell<u64>], off: usize, n: usize) {
        for b in off..off + n {
            if let Some(c) = set.get(b / 64) {
                c.set(c.get() | 1 << (b % 64));
            }
        }
    }

    /// Whether any byte is in both sets.
    pub fn meets(a: &[std::cell::Cell<u64>], b: &[std::cell::Cell<u64>]) -> bool {
        a.iter().zip(b).any(|(x, y)| x.get() & y.get() != 0)
    }
}

impl Global {
    pub fn new(mut regions: Vec<Region>) -> Result<Global, (u64, u64)> {
        regions.sort_by_key(|r| r.base);
        for w in regions.windows(2) {
            if w[0].base.saturating_add(w[0].bytes.len() as u64) > w[1].base {
                return Err((w[0].base, w[1].base));
            }
        }
        Ok(Global {
            regions,
            last: 0,
            footprint: None,
        })
    }

    /// Region `i`'s bytes `[off, off + n)` (and their marks) are read.
    #[inline(always)]
    pub fn note_read(&self, i: usize, off: usize, n: usize) {
        if let Some(f) = &self.footprint {
            Footprint::mark(&f.read[i], off, n);
        }
    }

    /// Region `i`'s bytes `[off, off + n)` (or their marks) are written.
    #[inline(always)]
    pub fn note_write(&self, i: usize, off: usize, n: usize) {
        if let Some(f) = &self.footprint {
            Footprint::mark(&f.write[i], off, n);
        }
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
        self.note_write(i, off, len);
        let r = &mut self.regions[i];
        if r.shadow.is_empty() {
            r.shadow = vec![0; r.bytes.len()];
        }
        let end = (off + len).min(r.shadow.len());
        r.shadow[off.min(end)..end].fill(0xff);
    }
}
