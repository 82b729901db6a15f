//! `atom` and `red` for one lane (PTX ISA 9.7.13.5, 9.7.13.6): the
//! elements are checked and resolved as `ld`/`st` resolve a vector, then
//! each is read, combined and written back, in one step that no other
//! thread can interleave.
//!
//! "atom instruction on packed type or vector type, accesses adjacent
//! scalar elements in memory. In such cases, the atomicity is guaranteed
//! separately for each of the individual scalar elements; the entire atom
//! is not guaranteed to be atomic as a single access." Doing every element
//! in one step is one of the behaviours this allows (the interpreter runs
//! one interleaving); the others are not explored.

use super::super::Machine;
use super::{Loc, Stop};
use crate::precond::{self, table, Env};
use crate::sim::alu::mask;
use crate::sim::program::{AtomOp, Atomic};
use crate::sim::reduce::{self, BulkRedOp, BulkRedType};
use crate::sim::space::Space;

impl Machine<'_> {
    /// One lane's `atom`/`red`: the new elements and, for `atom`, the old
    /// ones into `d`. Unspecified bits in an element or its operand leave
    /// that whole new element unspecified.
    pub(super) fn atom(&mut self, w: usize, l: usize, a: &Atomic, pc: u32) -> Result<(), Stop> {
        let total = a.bytes();
        if a.acc.space == Space::Generic {
            // `table::atom`/`atom_vector`, as `conform ub` asks them (`red`
            // has no destination): alignment, then the window a generic
            // address must point to (PTX ISA 9.7.13.5, 9.7.13.6); the
            // cache hint's rule is `locate`'s, after the location is
            // resolved.
            let addr = self.address(w, l, a.acc.addr)?;
            let env = Env {
                addr,
                size: total.next_power_of_two(),
                ..Env::at(&self.place(w))
            };
            let pres = if a.is_vector() {
                table::atom_vector(!a.returns, true, false)
            } else {
                table::atom(!a.returns, true, false)
            };
            for pre in pres {
                precond::check(&self.profile, pre, &env).map_err(Stop::Undefined)?;
            }
        }
        let loc = self.locate(w, l, &a.acc)?;
        let total = total as usize;
        let raced = self.asy.watching()
            && self
                .plain_read_check(w, l, pc, loc, total)
                .map_err(Stop::Undefined)?;
        if self.asy.watching() {
            self.plain_write_check(w, l, pc, loc, total)
                .map_err(Stop::Undefined)?;
        }
        if a.acc.size == 16 {
            return self.atom128(w, l, a, loc, raced);
        }
        let n = usize::from(a.acc.size);
        let bits = 8 * n as u32;
        // every `b` is read before any `d` is written: the spec's examples
        // name the same registers for both
        let mut srcs = [(0u64, 0u64); 8];
        for (s, &b) in srcs.iter_mut().zip(&a.b) {
            let (v, sh) = self.val(w, b, l);
            *s = (v & mask(bits), sh & mask(bits));
        }
        for (k, &(b, s_b)) in srcs.iter().enumerate().take(a.b.len()) {
            let (old, s_old) = self.read_at(loc, k * n, n);
            let s_old = if raced { mask(bits) } else { s_old };
            let (new, s_new) = match a.op {
                AtomOp::Exch => (b, s_b),
                // "cas(r,s,t) = (r == s) ? t : r"
                AtomOp::Cas => {
                    let (c, s_c) = self.val(w, a.c, l);
                    if s_old | s_b != 0 {
                        (old, mask(bits))
                    } else if old == b {
                        (c & mask(bits), s_c & mask(bits))
                    } else {
                        (old, 0)
                    }
                }
                AtomOp::Reduce(op) => {
                    let (v, free) = self.combine(a, op, loc, old, b);
                    let s = if s_old | s_b != 0 { mask(bits) } else { free };
                    (v & mask(bits), s)
                }
            };
            self.write_at(loc, k * n, n, new, s_new)
                .map_err(Stop::Undefined)?;
            if let Some(&d) = a.d.get(k) {
                self.set(w, d, l, old, s_old);
            }
        }
        Ok(())
    }

    /// One element (or packed pair) of a reduction: the bits and the mask
    /// of bits the spec leaves open.
    fn combine(&self, a: &Atomic, op: BulkRedOp, loc: Loc, old: u64, b: u64) -> (u64, u64) {
        if a.packed {
            // "atom.add.f16x2 ... preserves subnormal inputs and results";
            // each half is one `.f16`/`.bf16` element
            return reduce::multimem_combine(op, a.ty, true, old, b);
        }
        // "Current implementation of atom.add.f32 on global memory
        // flushes subnormal inputs and results to sign-preserving zero;
        // whereas atom.add.f32 on shared memory supports subnormal inputs
        // and results and doesn't flush them to zero." The vector
        // `.add.f32` forms are global only: they flush too (a reading: the
        // sentence names `atom.add.f32` whatever its vector qualifier).
        let flush =
            op == BulkRedOp::Add && a.ty == BulkRedType::F32 && !matches!(loc, Loc::Shared(..));
        if flush {
            reduce::reduce(op, a.ty, false, old, b)
        } else {
            reduce::reduce_sm90(op, a.ty, false, old, b)
        }
    }

    /// `atom.exch.b128` and `atom.cas.b128` (PTX ISA 9.7.13.5): one
    /// 128-bit element, `d`, `b` and `c` `.b128` registers.
    fn atom128(
        &mut self,
        w: usize,
        l: usize,
        a: &Atomic,
        loc: Loc,
        raced: bool,
    ) -> Result<(), Stop> {
        let (lo, s_lo) = self.read_at(loc, 0, 8);
        let (hi, s_hi) = self.read_at(loc, 8, 8);
        let old = u128::from(lo) | (u128::from(hi) << 64);
        let s_old = if raced {
            u128::MAX
        } else {
            u128::from(s_lo) | (u128::from(s_hi) << 64)
        };
        let Some(&b) = a.b.first() else {
            return Ok(());
        };
        let (b, s_b) = self.val128(w, b, l);
        let (new, s_new) = match a.op {
            AtomOp::Cas => {
                let (c, s_c) = self.val128(w, a.c, l);
                if s_old | s_b != 0 {
                    (old, u128::MAX)
                } else if old == b {
                    (c, s_c)
                } else {
                    (old, 0)
                }
            }
            // the decoder takes only `.exch` and `.cas` for `.b128`
            _ => (b, s_b),
        };
        self.write_at(loc, 0, 8, new as u64, s_new as u64)
            .map_err(Stop::Undefined)?;
        self.write_at(loc, 8, 8, (new >> 64) as u64, (s_new >> 64) as u64)
            .map_err(Stop::Undefined)?;
        if let Some(&d) = a.d.first() {
            self.set(w, d, l, old as u64, s_old as u64);
            self.set(w, d + 1, l, (old >> 64) as u64, (s_old >> 64) as u64);
        }
        Ok(())
    }
}
