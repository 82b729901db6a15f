//! `atom` and `red` for one lane (PTX ISA 9.7.13): the element is checked
//! and resolved as `ld`/`st` resolve theirs, then read, combined and written
//! back in one step, which no other thread can interleave.

use super::super::Machine;
use super::{Loc, Stop};
use crate::precond::{self, table, Env};
use crate::sim::alu::mask;
use crate::sim::program::{AtomOp, Atomic};
use crate::sim::reduce::{self, BulkRedOp, BulkRedType};
use crate::sim::space::Space;

impl Machine<'_> {
    /// One lane's `atom`/`red`: the new element and, for `atom`, the old
    /// one into `d`. Unspecified bits in the element or an operand leave
    /// the whole new element unspecified.
    pub(super) fn atom(&mut self, w: usize, l: usize, a: &Atomic, pc: u32) -> Result<(), Stop> {
        if a.acc.space == Space::Generic {
            // `table::atom`, as `conform ub` asks it (`red` has no
            // destination): alignment, then the window a generic address
            // must point to (PTX ISA 9.7.13.5, 9.7.13.6); the cache hint's
            // rule is `locate`'s, after the location is resolved.
            let addr = self.address(w, l, a.acc.addr)?;
            let env = Env {
                addr,
                size: u64::from(a.acc.size).next_power_of_two(),
                ..Env::at(&self.place(w))
            };
            for pre in table::atom(a.d.is_none(), true, false) {
                precond::check(&self.profile, pre, &env).map_err(Stop::Undefined)?;
            }
        }
        let loc = self.locate(w, l, &a.acc)?;
        let n = usize::from(a.acc.size);
        let bits = 8 * n as u32;
        let raced = self.asy.watching()
            && self
                .plain_read_check(w, l, pc, loc, n)
                .map_err(Stop::Undefined)?;
        if self.asy.watching() {
            self.plain_write_check(w, l, pc, loc, n)
                .map_err(Stop::Undefined)?;
        }
        let (old, s_old) = self.read_at(loc, 0, n);
        let s_old = if raced { mask(bits) } else { s_old };
        let (b, s_b) = self.val(w, a.b, l);
        let (b, s_b) = (b & mask(bits), s_b & mask(bits));
        let (new, s_new) = match a.op {
            AtomOp::Exch => (b, s_b),
            // "atom.cas ... compares and swaps": the new value `c` when
            // the element equals `b`, the element unchanged otherwise
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
                // "atom.add.f32 on global memory flushes subnormal inputs
                // and results to sign-preserving zero; whereas atom.add.f32
                // on shared memory supports subnormal inputs and results
                // and doesn't flush them to zero."
                let flush = op == BulkRedOp::Add
                    && a.ty == BulkRedType::F32
                    && !matches!(loc, Loc::Shared(..));
                let (v, free) = if flush {
                    reduce::reduce(op, a.ty, false, old, b)
                } else {
                    reduce::reduce_sm90(op, a.ty, false, old, b)
                };
                let s = if s_old | s_b != 0 { mask(bits) } else { free };
                (v & mask(bits), s)
            }
        };
        self.write_at(loc, 0, n, new, s_new)
            .map_err(Stop::Undefined)?;
        if let Some(d) = a.d {
            self.set(w, d, l, old, s_old);
        }
        Ok(())
    }
}
