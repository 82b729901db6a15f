//! The common case of `ld` and `st`, warp-wide: accesses of elements of
//! at most 8 bytes that land in one global buffer with no indeterminate
//! bytes, or in the cluster's shared memory, done without the per-lane
//! checks' overhead. Anything else (other spaces, indeterminate bytes,
//! unspecified addresses or values, a rule to check) is left to the lane
//! path, which gives the same result slowly.

use super::race::Rec;
use super::regs::{rd, us, Ctx};
use super::{lanes, Machine, LANES};
use crate::sim::alu::{mask, sext};
use crate::sim::program::{Access, Order, Src};
use crate::sim::space::Space;

#[inline(always)]
fn le(b: &[u8]) -> u64 {
    if let Ok(a) = <[u8; 4]>::try_from(b) {
        u64::from(u32::from_le_bytes(a))
    } else if let Ok(a) = <[u8; 8]>::try_from(b) {
        u64::from_le_bytes(a)
    } else if let Ok(a) = <[u8; 2]>::try_from(b) {
        u64::from(u16::from_le_bytes(a))
    } else {
        b.first().map_or(0, |&x| u64::from(x))
    }
}

/// Stores the low `b.len()` (1, 2, 4 or 8) bytes of `v` as one store.
#[inline(always)]
pub(super) fn put(b: &mut [u8], v: u64) {
    if let Ok(a) = <&mut [u8; 4]>::try_from(&mut *b) {
        *a = (v as u32).to_le_bytes();
    } else if let Ok(a) = <&mut [u8; 8]>::try_from(&mut *b) {
        *a = v.to_le_bytes();
    } else if let Ok(a) = <&mut [u8; 2]>::try_from(&mut *b) {
        *a = (v as u16).to_le_bytes();
    } else if let Ok(a) = <&mut [u8; 1]>::try_from(&mut *b) {
        a[0] = v as u8;
    } else {
        let n = b.len().min(8);
        b[..n].copy_from_slice(&v.to_le_bytes()[..n]);
    }
}

/// Clears a shadow of 1, 2, 4 or 8 bytes (every byte determinate).
#[inline(always)]
pub(super) fn clear(b: &mut [u8]) {
    put(b, 0);
    if b.len() > 8 {
        b.fill(0);
    }
}

/// Bit `b` set for each nonzero byte `b` of `x`.
#[inline(always)]
fn nonzero_bytes(x: u64) -> u64 {
    let t = x | (x >> 4);
    let t = t | (t >> 2);
    let t = (t | (t >> 1)) & 0x0101_0101_0101_0101;
    // gathers bit 0 of each byte into the top byte
    t.wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// Where a lane's access lands, if the fast path can take it.
enum Fast {
    Global(usize, usize),
    Shared(usize, usize),
}

impl Machine<'_> {
    /// Does the accesses it can; returns the lanes left for the lane path.
    pub(super) fn fast_access(&mut self, w: usize, exec: u32, acc: &Access, store: bool) -> u32 {
        let size = acc.size as usize;
        let count = acc.regs.len();
        let total = size * count;
        if size > 8
            || total == 0
            || !total.is_power_of_two()
            || acc.order == Order::Mmio
            || self.race.precise
        {
            // the race check's precise mode numbers and logs every read
            return exec;
        }
        let shared_ok = acc.global_only.is_none()
            && matches!(
                acc.space,
                Space::Generic | Space::SharedCta | Space::SharedCluster
            );
        let global_ok = matches!(acc.space, Space::Generic | Space::Global);
        let cx: Ctx = self.ctx(w);
        let p = self.profile;
        let part = 1u64 << p.rank_shift;
        let threads = self.shape.threads as usize;
        let weak = acc.order == Order::Weak;
        let Machine {
            warps,
            global,
            ctas,
            race,
            ..
        } = self;
        let wp = &mut warps[w];
        let mut rest = 0u32;
        let base_slot = match acc.addr.base {
            Src::Reg(r) if wp.shadow.is_none() => Some(r as usize * LANES),
            _ => None,
        };
        for l in lanes(exec) {
            let bit = 1u32 << l;
            let base = match base_slot {
                Some(i) => wp.regs[i + l],
                None => {
                    if us(wp, acc.addr.base, l) != 0 {
                        rest |= bit;
                        continue;
                    }
                    rd(wp, &cx, acc.addr.base, l)
                }
            };
            let a = base.wrapping_add(acc.addr.offset as u64);
            if a & (total as u64 - 1) != 0 {
                rest |= bit;
                continue;
            }
            // where it lands
            let mut at = None;
            if global_ok {
                let found = global.find_last(a, total as u64).or_else(|| {
                    // outside the shared and local windows: a buffer, maybe
                    let outside = a.wrapping_sub(p.shared_base) >= p.shared_size
                        && a.wrapping_sub(p.local_base) >= p.local_size;
                    if outside {
                        global.find(a, total as u64)
                    } else {
                        None
                    }
                });
                if let Some((i, off)) = found {
                    if global.regions[i].shadow.is_empty() {
                        at = Some(Fast::Global(i, off));
                    }
                }
            }
            if at.is_none() && shared_ok {
                let s = if acc.space == Space::Generic {
                    a.wrapping_sub(p.shared_base)
                } else {
                    a
                };
                let in_window = acc.space != Space::Generic || s < p.shared_size;
                let r = (s >> p.rank_shift) as usize;
                let off = s & (part - 1);
                let own = acc.space != Space::SharedCta || r as u32 == cx.rank;
                if in_window
                    && own
                    && r < ctas.len()
                    && off >= p.shared_reserved
                    && off + total as u64 <= ctas[r].shared.len() as u64
                {
                    at = Some(Fast::Shared(r, off as usize));
                }
            }
            let Some(at) = at else {
                rest |= bit;
                continue;
            };
            // a write of another thread that nothing orders with this
            // access, or (for a store) a read: the lane path gives the race
            // its unspecified bits
            let t = wp.cta * threads + wp.first as usize + l;
            if weak && !race.off {
                let me = race.tid(t);
                let (now, threads) = (race.now(), race.threads());
                // the common case first: no other thread's access (a read
                // is noted in the reader summaries at once)
                let quick = {
                    let (cells, off) = match at {
                        Fast::Global(i, off) => {
                            let len = global.regions[i].bytes.len();
                            (race.global_cells(i, len), off)
                        }
                        Fast::Shared(r, off) => (race.shared.get_mut(r), off),
                    };
                    cells.is_none_or(|c| {
                        let ok = c.only(off, total, me, store);
                        if ok && !store {
                            c.note_read(off, total, me, now, threads);
                        }
                        ok
                    })
                };
                if !quick {
                    let (cells, off) = match at {
                        Fast::Global(i, off) => (race.global.get(i), off),
                        Fast::Shared(r, off) => (race.shared.get(r), off),
                    };
                    let clean = cells.and_then(|c| c.span(off, total)).is_none_or(|s| {
                        if store {
                            race.clean_write(t, &s)
                        } else {
                            race.clean_read(t, &s)
                        }
                    });
                    if !clean {
                        rest |= bit;
                        continue;
                    }
                    if !store {
                        let (cells, off) = match at {
                            Fast::Global(i, off) => (race.global.get_mut(i), off),
                            Fast::Shared(r, off) => (race.shared.get_mut(r), off),
                        };
                        if let Some(c) = cells {
                            c.note_read(off, total, me, now, threads);
                        }
                    }
                }
            }
            if store {
                // every value must be fully specified
                if wp.shadow.is_some()
                    && acc
                        .regs
                        .iter()
                        .any(|r| matches!(r, Some(s) if us(wp, *s, l) != 0))
                {
                    rest |= bit;
                    continue;
                }
                // per byte, whether the store changes its value (or its
                // value had unspecified bits)
                let mut changed = 0u64;
                let (bytes, mut shadow): (&mut [u8], Option<&mut [u8]>) = match at {
                    Fast::Global(i, off) => {
                        global.note_write(i, off, total);
                        (&mut global.regions[i].bytes[off..off + total], None)
                    }
                    Fast::Shared(r, off) => {
                        let c = &mut ctas[r];
                        (
                            &mut c.shared[off..off + total],
                            Some(&mut c.shadow[off..off + total]),
                        )
                    }
                };
                for (k, r) in acc.regs.iter().enumerate() {
                    if let Some(src) = r {
                        let v = rd(wp, &cx, *src, l);
                        let b = &mut bytes[k * size..(k + 1) * size];
                        let mut diff = (le(b) ^ v) & mask(8 * size as u32);
                        put(b, v);
                        if let Some(sh) = shadow.as_deref_mut() {
                            let s = &mut sh[k * size..(k + 1) * size];
                            diff |= le(s);
                            clear(s);
                        }
                        changed |= nonzero_bytes(diff) << (k * size);
                    }
                }
                let rec = if weak {
                    Rec {
                        tid: race.tid(t),
                        at: race.now(),
                    }
                } else {
                    Rec::default()
                };
                // a strong store leaves no plain writer
                if !weak {
                    changed = u64::MAX;
                }
                let (cells, off) = match at {
                    _ if race.off => (None, 0),
                    Fast::Global(i, off) => {
                        let len = global.regions[i].bytes.len();
                        (race.global_cells(i, len), off)
                    }
                    Fast::Shared(r, off) => (race.shared.get_mut(r), off),
                };
                if let Some(cells) = cells {
                    if acc.regs.iter().all(Option::is_some) {
                        cells.note_write(off, total, rec, changed);
                    } else {
                        for (k, r) in acc.regs.iter().enumerate() {
                            if r.is_some() {
                                cells.note_write(off + k * size, size, rec, changed >> (k * size));
                            }
                        }
                    }
                }
            } else {
                let (bytes, shadow): (&[u8], &[u8]) = match at {
                    Fast::Global(i, off) => {
                        global.note_read(i, off, total);
                        (&global.regions[i].bytes[off..off + total], &[])
                    }
                    Fast::Shared(r, off) => {
                        let c = &ctas[r];
                        (&c.shared[off..off + total], &c.shadow[off..off + total])
                    }
                };
                let bits = 8 * size as u32;
                for (k, r) in acc.regs.iter().enumerate() {
                    let Some(Src::Reg(d)) = r else { continue };
                    let mut v = le(&bytes[k * size..(k + 1) * size]);
                    let mut sh = 0u64;
                    if !shadow.is_empty() {
                        // a shadow byte is the mask of its byte's
                        // unspecified bits
                        sh = le(&shadow[k * size..(k + 1) * size]);
                    }
                    let reg_bits = u32::from(acc.reg_bits[k]);
                    // "The value loaded is sign-extended to the destination
                    // register width for signed integers, and is
                    // zero-extended ... for unsigned and bit-size types."
                    if acc.signed && reg_bits > bits {
                        v = sext(v, bits) as u64 & mask(reg_bits);
                        if (sh >> (bits - 1)) & 1 != 0 {
                            sh |= mask(reg_bits) & !mask(bits);
                        }
                    }
                    let m = mask(reg_bits.max(bits));
                    let i = *d as usize * LANES + l;
                    wp.regs[i] = v & m;
                    if sh != 0 || wp.shadow.is_some() {
                        let n = wp.regs.len();
                        wp.shadow.get_or_insert_with(|| vec![0; n])[i] = sh & m;
                    }
                }
            }
        }
        rest
    }
}
