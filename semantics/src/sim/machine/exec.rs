//! One instruction for the chosen lanes of a warp.

use super::race::{found_bits, racing_bits, SyncKind};
use super::regs::register_op;
use super::{lanes, Lane, Machine, Warp, LANES};
use crate::arith::Carry;
use crate::precond::{self, table, Env};
use crate::sim::alu::{self, mask};
use crate::sim::arith::ArithInstr;
use crate::sim::launch::StopKind;
use crate::sim::memory::OUTSIDE;
use crate::sim::program::{
    Access, Addr, AsyncInstr, BarRedOp, MultimemOp, Op, Order, Policy, RedOp, Reg, Src,
};
use crate::sim::reduce::{self, BulkRedOp, BulkRedType};
use crate::sim::shfl::{shfl, shfl_sync, ShflLane};
use crate::sim::space::Space;
use crate::sim::undefined::{Effect, Undefined};
use crate::sim::vote::{warp_sync, VoteMode, WarpLane, WarpOp};
use crate::sim::window;

pub(super) mod asynch;
mod atom;
mod video;

const GUARD: &str = "the guard predicate has unspecified bits";
const ADDRESS: &str = "the address has unspecified bits";
const OPERAND: &str =
    "an operand that decides what happens (a lane, rank, count or mask) has unspecified bits";

const STORE_CONST: Undefined =
    Undefined::behaviour("9.7.9.11", "Stores to const memory are illegal");
const STORE_PARAM: Undefined = Undefined::behaviour(
    "9.7.9.11",
    "st's state spaces are { .global, .local, .param{::func}, .shared{::cta, ::cluster} }: kernel parameters cannot be stored to",
);
const STRONG_SPACE: Undefined = Undefined::behaviour(
    "9.7.9.8",
    "The qualifiers .volatile, .relaxed and .acquire may be used only with .global and .shared spaces and with generic addressing, where the address points to .global or .shared space",
);
const MMIO_SPACE: Undefined = Undefined::behaviour(
    "9.7.9.8",
    "The qualifier .mmio may be used only with .global space and with generic addressing, where the address points to .global space",
);
const MULTIMEM_BY_LD: Undefined = Undefined::behaviour(
    "9.7.9.14",
    "Multimem addresses can only be accessed only by multimem.* operations. Accessing a multimem address with ld, st or any other memory operations results in undefined behavior",
);
const NOT_MULTIMEM: Undefined = Undefined::behaviour(
    "9.7.9.14",
    "Address operand a must be a multimem address. Otherwise, the behavior is undefined",
);
const BAR_RED_MIXED: Undefined = Undefined::behaviour(
    "9.7.13.1",
    "barrier{.cta}.red should not be intermixed with barrier{.cta}.sync or barrier{.cta}.arrive using the same active barrier. Execution in this case is unpredictable",
);
const WARPSYNC_MASK: Undefined = table::BAR_WARP_SYNC_MEMBER.undefined();
const FLOAT_ORDER: Undefined = Undefined::result(
    "9.7.9.14",
    "multimem.ld_reduce reduces the values of all the memory locations, in an order the spec does not give: a floating-point sum over more than two locations may round differently",
);

/// Where an access lands.
#[derive(Clone, Copy, Debug)]
pub(super) enum Loc {
    Global(usize, usize),
    Shared(usize, usize),
    Local(usize),
    Const(usize),
    Param(usize),
}

impl Loc {
    /// The location `k` bytes further on.
    pub(super) fn plus(self, k: usize) -> Loc {
        match self {
            Loc::Global(i, off) => Loc::Global(i, off + k),
            Loc::Shared(c, off) => Loc::Shared(c, off + k),
            Loc::Local(off) => Loc::Local(off + k),
            Loc::Const(off) => Loc::Const(off + k),
            Loc::Param(off) => Loc::Param(off + k),
        }
    }
}

impl Machine<'_> {
    #[inline(always)]
    fn set(&mut self, w: usize, d: Reg, l: usize, v: u64, sh: u64) {
        let wp = &mut self.warps[w];
        let i = d as usize * LANES + l;
        wp.regs[i] = v;
        if sh != 0 || wp.shadow.is_some() {
            let n = wp.regs.len();
            wp.shadow.get_or_insert_with(|| vec![0; n])[i] = sh;
        }
    }

    #[inline(always)]
    fn val(&self, w: usize, s: Src, l: usize) -> (u64, u64) {
        let wp: &Warp = &self.warps[w];
        (self.read(wp, s, l), self.unspec(wp, s, l))
    }

    #[inline(always)]
    fn val128(&self, w: usize, s: Src, l: usize) -> (u128, u128) {
        let wp: &Warp = &self.warps[w];
        let lo = u128::from(self.read(wp, s, l)) | (u128::from(self.read_hi(wp, s, l)) << 64);
        let sh = u128::from(self.unspec(wp, s, l)) | (u128::from(self.unspec_hi(wp, s, l)) << 64);
        (lo, sh)
    }

    /// Moves the lanes of `active` that still run to `pc + 1`.
    fn advance(&mut self, w: usize, pc: u32, active: u32) {
        let wp = &mut self.warps[w];
        if let Some((upc, umask)) = wp.uniform {
            if upc == pc && umask == active {
                wp.uniform = Some((pc + 1, umask));
                return;
            }
        }
        self.diverge(w);
        let wp = &mut self.warps[w];
        for l in lanes(active) {
            if wp.lane[l] == Lane::Running {
                wp.pc[l] = pc + 1;
            }
        }
    }

    fn place(&self, w: usize) -> window::Place {
        window::Place {
            rank: self.ctas[self.warps[w].cta].rank,
            ..self.place
        }
    }

    /// Runs the instruction at `pc` for the lanes of `active`.
    pub(super) fn step(&mut self, w: usize, pc: u32, mut active: u32) {
        let prog = self.prog;
        let Some(instr) = prog.code.get(pc as usize) else {
            for l in lanes(active) {
                self.finish_lane(w, l, Lane::Exited);
            }
            return;
        };
        self.steps += u64::from(active.count_ones());
        let mut exec = active;
        if let Some((p, neg)) = instr.guard {
            let mut on = 0u32;
            let mut bad = 0u32;
            for l in lanes(active) {
                let (v, sh) = self.val(w, Src::Reg(p), l);
                if sh & 1 != 0 {
                    bad |= 1 << l;
                } else if (v & 1 != 0) != neg {
                    on |= 1 << l;
                }
            }
            for l in lanes(bad) {
                self.stop(w, l, pc, StopKind::Indeterminate(GUARD));
            }
            active &= !bad;
            exec = on;
        }
        match &instr.op {
            Op::Bra { target } => {
                if exec == active {
                    let wp = &mut self.warps[w];
                    if let Some((_, umask)) = wp.uniform {
                        if umask == active {
                            wp.uniform = Some((*target, umask));
                            return;
                        }
                    }
                }
                self.diverge(w);
                let wp = &mut self.warps[w];
                for l in lanes(active) {
                    wp.pc[l] = if exec & (1 << l) != 0 {
                        *target
                    } else {
                        pc + 1
                    };
                }
                return;
            }
            Op::Exit => {
                for l in lanes(exec) {
                    self.finish_lane(w, l, Lane::Exited);
                }
                self.advance(w, pc, active & !exec);
                return;
            }
            Op::BarSync { id, count } => {
                self.bar_sync(w, pc, active, exec, *id, *count);
                return;
            }
            Op::Call(c) => {
                self.call(w, pc, active, exec, c);
                return;
            }
            Op::Ret => {
                self.ret(w, pc, active, exec);
                return;
            }
            Op::Shfl { .. } | Op::WarpSync { .. } | Op::Warp { .. } => {
                self.collective(w, pc, active, exec, &instr.op);
                return;
            }
            Op::BarRed { .. } => {
                self.bar_red(w, pc, active, exec, &instr.op);
                return;
            }
            Op::BarArrive { id, count } => self.bar_arrive(w, pc, exec, *id, *count),
            // "trap: Abort execution and generate an interrupt to the host
            // CPU" (PTX ISA 9.7.17): the executing threads stop, reported
            Op::Trap => {
                for l in lanes(exec) {
                    self.stop(w, l, pc, StopKind::Trap);
                }
            }
            Op::Activemask { d } => {
                for l in lanes(exec) {
                    self.set(w, *d, l, u64::from(exec), 0);
                }
            }
            Op::ClusterArrive => {
                let wp = &mut self.warps[w];
                for l in lanes(exec) {
                    wp.arrive[l] += 1;
                }
            }
            Op::ClusterWait => {
                let min = self.cluster_min();
                self.diverge(w);
                let wp = &mut self.warps[w];
                let mut passed = 0u32;
                for l in lanes(active) {
                    wp.pc[l] = pc + 1;
                    if exec & (1 << l) != 0 {
                        let target = wp.waited[l] + 1;
                        if min >= target {
                            wp.waited[l] = target;
                            passed |= 1 << l;
                        } else {
                            wp.lane[l] = Lane::ClusterWait { target };
                        }
                    }
                }
                self.sync_lanes(w, passed, SyncKind::Cluster);
                return;
            }
            Op::Async(a)
                if matches!(
                    **a,
                    AsyncInstr::MbarWait { .. }
                        | AsyncInstr::BulkWait { .. }
                        | AsyncInstr::CpWait { .. }
                ) =>
            {
                // a scripted schedule decides before a test_wait, which
                // observes the operations' progress without waiting (a
                // blocking wait that finds them incomplete suspends, and
                // the steps come when every thread waits)
                if exec != 0
                    && self.scripted()
                    && matches!(
                        **a,
                        AsyncInstr::MbarWait {
                            blocking: false,
                            ..
                        }
                    )
                {
                    self.async_decide();
                }
                self.async_wait(w, pc, active, exec, a);
                self.sync_lanes(w, exec, SyncKind::Async);
                return;
            }
            Op::Async(a) => {
                self.sync_lanes(w, exec, SyncKind::Async);
                self.asy.effects += 1;
                let observes = matches!(
                    **a,
                    AsyncInstr::MbarUpdate { .. } | AsyncInstr::CpAsyncArrive { .. }
                );
                if exec != 0 && observes && self.scripted() {
                    self.async_decide();
                }
                for l in lanes(exec) {
                    if let Err(kind) = self.async_lane(w, l, pc, a) {
                        self.lane_stop(w, l, pc, kind);
                    }
                }
                if !self.scripted() {
                    self.async_decide();
                }
            }
            op if {
                let cx = self.ctx(w);
                register_op(&mut self.warps[w], &cx, op, exec)
            } => {}
            Op::Ld(acc) | Op::St(acc) => {
                let store = matches!(instr.op, Op::St(_));
                let rest = if self.asy.watching() {
                    exec
                } else {
                    self.fast_access(w, exec, acc, store)
                };
                if store {
                    self.asy.effects += 1;
                }
                for l in lanes(rest) {
                    let r = if store {
                        self.store(w, l, acc, pc)
                    } else {
                        self.load(w, l, acc, pc)
                    };
                    if let Err(kind) = r {
                        match kind {
                            Stop::Undefined(u) if u.effect == Effect::Result => {
                                self.undefined_result(w, l, pc, u)
                            }
                            Stop::Undefined(u) => self.undefined(w, l, pc, u),
                            Stop::Indeterminate(why) => {
                                self.stop(w, l, pc, StopKind::Indeterminate(why))
                            }
                        }
                    }
                }
                // a strong access may synchronise (not followed: 8.8)
                if acc.order != Order::Weak {
                    self.sync_lanes(w, exec, SyncKind::Strong);
                }
                // a scripted schedule decides after a plain access only when
                // it touched bytes of an operation in flight
                if !self.scripted() || std::mem::take(&mut self.asy.conflict) {
                    self.async_decide();
                }
            }
            op => {
                for l in lanes(exec) {
                    if let Err(kind) = self.lane_op(w, l, op, pc) {
                        self.lane_stop(w, l, pc, kind);
                    }
                }
                if matches!(op, Op::Multimem { .. } | Op::Atom(_) | Op::Fence) {
                    self.sync_lanes(w, exec, SyncKind::Strong);
                } else if matches!(op, Op::CpAsync { .. }) {
                    self.sync_lanes(w, exec, SyncKind::Async);
                }
                if matches!(op, Op::CpAsync { .. } | Op::Multimem { .. } | Op::Atom(_)) {
                    self.asy.effects += 1;
                    if !self.scripted() {
                        self.async_decide();
                    }
                }
            }
        }
        self.advance(w, pc, active);
    }

    /// Whether the schedule is a script (decision points only where a
    /// step can be observed).
    fn scripted(&self) -> bool {
        matches!(self.launch.schedule, crate::sim::Schedule::Script(_))
    }

    /// What a lane's failure does: an undefined result goes on, the rest
    /// stop the lane.
    fn lane_stop(&mut self, w: usize, l: usize, pc: u32, kind: Stop) {
        match kind {
            Stop::Undefined(u) if u.effect == Effect::Result => self.undefined_result(w, l, pc, u),
            Stop::Undefined(u) => self.undefined(w, l, pc, u),
            Stop::Indeterminate(why) => self.stop(w, l, pc, StopKind::Indeterminate(why)),
        }
    }

    fn cluster_min(&self) -> u32 {
        let mut min = u32::MAX;
        for wp in &self.warps {
            for l in 0..LANES {
                if !matches!(wp.lane[l], Lane::Absent | Lane::Exited | Lane::Stopped) {
                    min = min.min(wp.arrive[l]);
                }
            }
        }
        min
    }

    /// One lane's work for the instructions that act lane by lane.
    fn lane_op(&mut self, w: usize, l: usize, op: &Op, pc: u32) -> Result<(), Stop> {
        match *op {
            Op::Ld(ref acc) => self.load(w, l, acc, pc)?,
            Op::St(ref acc) => self.store(w, l, acc, pc)?,
            Op::Atom(ref a) => self.atom(w, l, a, pc)?,
            Op::Cvta {
                d,
                a,
                space,
                to,
                wide,
            } => {
                let (x, sx) = self.val(w, a, l);
                if sx != 0 {
                    self.set(w, d, l, 0, u64::MAX);
                    return Ok(());
                }
                let at = self.place(w);
                let r = if to {
                    window::cvta_from_generic(&self.profile, space, x, wide, &at)
                } else {
                    window::cvta_to_generic(&self.profile, space, x, wide, &at)
                };
                match r {
                    Ok(v) => self.set(w, d, l, v, 0),
                    Err(u) => {
                        self.set(w, d, l, 0, if wide { u64::MAX } else { 0xffff_ffff });
                        return Err(Stop::Undefined(u));
                    }
                }
            }
            Op::Isspacep { p, a, space } => {
                let (x, sx) = self.val(w, a, l);
                let at = self.place(w);
                let v = window::isspacep(&self.profile, space, x, &at);
                self.set(w, p, l, u64::from(v), u64::from(sx != 0));
            }
            Op::Mapa {
                d,
                a,
                b,
                generic,
                wide,
            } => {
                let (x, sx) = self.val(w, a, l);
                let (r, sr) = self.val(w, b, l);
                if sx | sr != 0 {
                    return Err(Stop::Indeterminate(OPERAND));
                }
                let at = self.place(w);
                let v = window::mapa(&self.profile, generic, x, r as u32, wide, &at)
                    .map_err(Stop::Undefined)?;
                self.set(w, d, l, v, 0);
            }
            Op::Getctarank { d, a, generic } => {
                let (x, sx) = self.val(w, a, l);
                if sx != 0 {
                    return Err(Stop::Indeterminate(OPERAND));
                }
                let at = self.place(w);
                let v =
                    window::getctarank(&self.profile, generic, x, &at).map_err(Stop::Undefined)?;
                self.set(w, d, l, u64::from(v), 0);
            }
            Op::Prefetch { addr, .. } => {
                self.address(w, l, addr)?;
            }
            Op::CacheRange {
                addr,
                space,
                size,
                discard,
            } => {
                let a = self.address(w, l, addr)?;
                let env = Env {
                    addr: a,
                    size,
                    ..Env::at(&self.place(w))
                };
                for pre in table::cache_range(discard, space == Space::Generic) {
                    precond::check(&self.profile, pre, &env).map_err(Stop::Undefined)?;
                }
                if discard {
                    // "Semantically, this behaves like a weak write of an
                    // unstable indeterminate value"
                    let (i, off) = self.global.find(a, size).ok_or(Stop::Undefined(OUTSIDE))?;
                    self.global.make_indeterminate(i, off, size as usize);
                }
            }
            Op::Createpolicy { d, policy } => {
                match policy {
                    Policy::Fractional(Some(f)) => {
                        let (v, sv) = self.val(w, f, l);
                        if sv != 0 {
                            return Err(Stop::Indeterminate(OPERAND));
                        }
                        let env = Env {
                            a: v & 0xffff_ffff,
                            ..Env::default()
                        };
                        precond::check(&self.profile, &table::POLICY_FRACTION, &env)
                            .map_err(Stop::Undefined)?;
                    }
                    Policy::Range {
                        addr,
                        space,
                        primary,
                        total,
                    } => {
                        let a = self.address(w, l, addr)?;
                        let mut env = Env {
                            addr: a,
                            ..Env::at(&self.place(w))
                        };
                        if space == Space::Generic {
                            precond::check(&self.profile, &table::POLICY_GLOBAL, &env)
                                .map_err(Stop::Undefined)?;
                        }
                        let (p, sp) = self.val(w, primary, l);
                        let (t, st) = self.val(w, total, l);
                        if sp | st != 0 {
                            return Err(Stop::Indeterminate(OPERAND));
                        }
                        (env.a, env.b) = (p & 0xffff_ffff, t & 0xffff_ffff);
                        precond::check(&self.profile, &table::POLICY_SIZES, &env)
                            .map_err(Stop::Undefined)?;
                    }
                    Policy::Fractional(None) | Policy::Cvt(_) => {}
                }
                // "an opaque 64-bit register": its bits are the
                // implementation's; only a cache hint may use it
                self.set(w, d, l, 0, u64::MAX);
            }
            Op::Multimem {
                op,
                ty,
                ref regs,
                addr,
                fmt,
                packed,
                ..
            } => self.multimem(w, l, op, ty, (fmt, packed), regs, addr)?,
            Op::CpAsync {
                dst,
                src,
                cp_size,
                src_size,
                ignore_src,
            } => self.cp_async(w, l, pc, dst, src, cp_size, src_size, ignore_src)?,
            Op::Arith(ref a) => self.arith(w, l, a)?,
            Op::Video(ref v) => self.video(w, l, v),
            // an instruction the interpreter does not model (lenient
            // decoding): its destinations hold bits nobody knows
            Op::Opaque { ref dests } => {
                for &d in dests {
                    self.set(w, d, l, 0, u64::MAX);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// An instruction of `crate::arith` for one lane: a source with
    /// unspecified bits (or an unspecified carry it reads) leaves the whole
    /// result unspecified; otherwise the bits the spec leaves open are.
    fn arith(&mut self, w: usize, l: usize, a: &ArithInstr) -> Result<(), Stop> {
        let mut v = [0u64; 4];
        let mut unspec = false;
        for (k, s) in a.srcs.iter().enumerate().take(4) {
            let (x, sx) = self.val(w, *s, l);
            v[k] = x;
            unspec |= sx != 0;
        }
        let wp = &self.warps[w];
        let cf = Carry(wp.carry >> l & 1 != 0);
        if a.op.reads_carry() {
            unspec |= wp.carry_unspecified >> l & 1 != 0;
        }
        let out = crate::sim::arith::eval(a, &v, cf).map_err(Stop::Undefined)?;
        let m = mask(u32::from(a.bits));
        let sh = if unspec { m } else { out.unspecified & m };
        if let Some(d) = a.d {
            self.set(w, d, l, out.d & m, sh);
        }
        if let Some(q) = a.q {
            self.set(w, q, l, u64::from(out.q), u64::from(unspec));
        }
        if let Some(Carry(c)) = out.carry.filter(|_| a.cc) {
            let wp = &mut self.warps[w];
            let bit = 1u32 << l;
            wp.carry = if c { wp.carry | bit } else { wp.carry & !bit };
            wp.carry_unspecified = if unspec {
                wp.carry_unspecified | bit
            } else {
                wp.carry_unspecified & !bit
            };
        }
        Ok(())
    }

    /// `cp.async` (PTX ISA 9.7.9.25.3.1): `src-size` bytes (all of
    /// `cp-size` when absent, none with `ignore-src`) come from the source,
    /// "remaining bytes in destination dst are filled with zeros"; the copy
    /// happens when the schedule says.
    #[allow(clippy::too_many_arguments)]
    fn cp_async(
        &mut self,
        w: usize,
        l: usize,
        pc: u32,
        dst: Addr,
        src: Addr,
        cp_size: u8,
        src_size: Option<Src>,
        ignore_src: Option<(Src, bool)>,
    ) -> Result<(), Stop> {
        let d = self.address(w, l, dst)?;
        let s = self.address(w, l, src)?;
        let cp = u64::from(cp_size);
        let n = match src_size {
            Some(x) => {
                let (v, sv) = self.val(w, x, l);
                if sv & 0xffff_ffff != 0 {
                    return Err(Stop::Indeterminate(OPERAND));
                }
                v & 0xffff_ffff
            }
            None => cp,
        };
        let ignore = match ignore_src {
            Some((p, neg)) => {
                let (v, sv) = self.val(w, p, l);
                if sv & 1 != 0 {
                    return Err(Stop::Indeterminate(OPERAND));
                }
                (v & 1 != 0) != neg
            }
            None => false,
        };
        let env = Env {
            addr: d,
            addr2: s,
            cp_size: cp,
            src_size: n,
            ..Env::at(&self.place(w))
        };
        for pre in table::cp_async(ignore_src.is_some()) {
            precond::check(&self.profile, pre, &env).map_err(Stop::Undefined)?;
        }
        let from = if ignore { 0 } else { n };
        let sloc = if from > 0 {
            Some(
                self.resolve(w, l, Space::Global, s, from)
                    .map_err(Stop::Undefined)?,
            )
        } else {
            None
        };
        let dloc = self
            .resolve(w, l, Space::SharedCta, d, cp)
            .map_err(Stop::Undefined)?;
        self.issue_cp_async(w, l, pc, sloc, from as usize, dloc, cp as usize);
        Ok(())
    }

    /// The address of `[base + offset]` for one lane.
    fn address(&self, w: usize, l: usize, addr: Addr) -> Result<u64, Stop> {
        let (b, sb) = self.val(w, addr.base, l);
        if sb != 0 {
            return Err(Stop::Indeterminate(ADDRESS));
        }
        Ok(b.wrapping_add(addr.offset as u64))
    }

    /// Resolves an access of `n` bytes at `a` in `space` for lane `l`.
    fn resolve(
        &mut self,
        w: usize,
        l: usize,
        space: Space,
        a: u64,
        n: u64,
    ) -> Result<Loc, Undefined> {
        // the buffer the last global access hit (no buffer overlaps a window)
        if matches!(space, Space::Generic | Space::Global) {
            if let Some((i, off)) = self.global.find_last(a, n) {
                return Ok(Loc::Global(i, off));
            }
        }
        let p = self.profile;
        let cta = self.warps[w].cta;
        let rank = self.ctas[cta].rank;
        let shift = p.rank_shift;
        let part = 1u64 << shift;
        let shared = |s: u64, ctas: &[super::Cta], own: Option<u32>| -> Result<Loc, Undefined> {
            let r = (s >> shift) as usize;
            let off = s & (part - 1);
            if own.is_some_and(|o| o as usize != r) || r >= ctas.len() {
                return Err(OUTSIDE);
            }
            if off < p.shared_reserved || off + n > ctas[r].shared.len() as u64 {
                return Err(OUTSIDE);
            }
            Ok(Loc::Shared(r, off as usize))
        };
        let local = |x: u64, m: &Machine| -> Result<Loc, Undefined> {
            let off = x.wrapping_sub(m.prog.local_frame);
            if off.saturating_add(n) > m.prog.local_bytes {
                return Err(OUTSIDE);
            }
            let t =
                cta as u64 * u64::from(m.shape.threads) + u64::from(m.warps[w].first) + l as u64;
            Ok(Loc::Local((t * m.prog.local_bytes + off) as usize))
        };
        match space {
            Space::SharedCta => shared(a, &self.ctas, Some(rank)),
            Space::SharedCluster => shared(a, &self.ctas, None),
            Space::Local => local(a, self),
            Space::Const => {
                if a.saturating_add(n) > self.consts.len() as u64 {
                    return Err(OUTSIDE);
                }
                Ok(Loc::Const(a as usize))
            }
            Space::ParamEntry => {
                if a.saturating_add(n) > self.params.len() as u64 {
                    return Err(OUTSIDE);
                }
                Ok(Loc::Param(a as usize))
            }
            // `.param::func` variables live in the local frame
            Space::ParamFunc => local(a, self),
            Space::Generic | Space::Global => {
                let s = a.wrapping_sub(p.shared_base);
                if s < p.shared_size {
                    return if space == Space::Global {
                        Err(OUTSIDE)
                    } else {
                        shared(s, &self.ctas, None)
                    };
                }
                let lo = a.wrapping_sub(p.local_base);
                if lo < p.local_size {
                    return if space == Space::Global {
                        Err(OUTSIDE)
                    } else {
                        local(lo, self)
                    };
                }
                let c = a.wrapping_sub(p.const_base);
                if c < self.consts.len() as u64 {
                    // the const window is not in the global window
                    if space == Space::Global {
                        return Err(OUTSIDE);
                    }
                    return if c + n <= self.consts.len() as u64 {
                        Ok(Loc::Const(c as usize))
                    } else {
                        Err(OUTSIDE)
                    };
                }
                let q = a.wrapping_sub(p.param_base);
                if q < self.params.len() as u64 {
                    return if q + n <= self.params.len() as u64 {
                        Ok(Loc::Param(q as usize))
                    } else {
                        Err(OUTSIDE)
                    };
                }
                if self
                    .launch
                    .multicast
                    .iter()
                    .any(|m| a.wrapping_sub(m.addr) < m.size)
                {
                    return Err(MULTIMEM_BY_LD);
                }
                self.global
                    .find(a, n)
                    .map(|(i, off)| Loc::Global(i, off))
                    .ok_or(OUTSIDE)
            }
        }
    }

    /// Checks an access and resolves it.
    fn locate(&mut self, w: usize, l: usize, acc: &Access) -> Result<Loc, Stop> {
        let a = self.address(w, l, acc.addr)?;
        let n = u64::from(acc.size) * acc.regs.len() as u64;
        let env = Env {
            addr: a,
            size: n.next_power_of_two(),
            ..Env::at(&self.place(w))
        };
        if n == 0 {
            return Err(Stop::Undefined(table::ALIGNED.undefined()));
        }
        precond::check(&self.profile, &table::ALIGNED, &env).map_err(Stop::Undefined)?;
        if acc.space == Space::ParamEntry {
            precond::check(&self.profile, &table::LD_PARAM_ENTRY, &env).map_err(Stop::Undefined)?;
        }
        let loc = self
            .resolve(w, l, acc.space, a, n)
            .map_err(Stop::Undefined)?;
        if let Some(pre) = acc.global_only {
            if acc.space == Space::Generic {
                precond::check(&self.profile, pre, &env).map_err(Stop::Undefined)?;
            }
        }
        match acc.order {
            Order::Strong if !matches!(loc, Loc::Global(..) | Loc::Shared(..)) => {
                Err(Stop::Undefined(STRONG_SPACE))
            }
            Order::Mmio if !matches!(loc, Loc::Global(..)) => Err(Stop::Undefined(MMIO_SPACE)),
            _ => Ok(loc),
        }
    }

    /// Reads `n <= 8` bytes at `k` past the location: the value and its
    /// unspecified bits.
    #[inline(always)]
    fn read_at(&self, loc: Loc, k: usize, n: usize) -> (u64, u64) {
        let (bytes, shadow): (&[u8], &[u8]) = match loc {
            Loc::Global(i, off) => {
                self.global.note_read(i, off + k, n);
                let r = &self.global.regions[i];
                let sh: &[u8] = if r.shadow.is_empty() {
                    &[]
                } else {
                    &r.shadow[off + k..off + k + n]
                };
                (&r.bytes[off + k..off + k + n], sh)
            }
            Loc::Shared(c, off) => {
                let cta = &self.ctas[c];
                (
                    &cta.shared[off + k..off + k + n],
                    &cta.shadow[off + k..off + k + n],
                )
            }
            Loc::Local(off) => (
                &self.local[off + k..off + k + n],
                &self.local_shadow[off + k..off + k + n],
            ),
            Loc::Const(off) => (&self.consts[off + k..off + k + n], &[]),
            Loc::Param(off) => (&self.params[off + k..off + k + n], &[]),
        };
        (le(bytes), shadow_mask(shadow))
    }

    /// Writes the low `n <= 8` bytes of `v`, and its unspecified bits into
    /// the shadow (a mask per byte).
    #[inline(always)]
    fn write_at(&mut self, loc: Loc, k: usize, n: usize, v: u64, sh: u64) -> Result<(), Undefined> {
        let (bytes, shadow): (&mut [u8], Option<&mut [u8]>) = match loc {
            Loc::Const(_) => return Err(STORE_CONST),
            Loc::Param(_) => return Err(STORE_PARAM),
            Loc::Global(i, off) => {
                self.global.note_write(i, off + k, n);
                if sh != 0 && self.global.regions[i].shadow.is_empty() {
                    self.global.make_indeterminate(i, 0, 0);
                }
                let r = &mut self.global.regions[i];
                let sh: Option<&mut [u8]> = if r.shadow.is_empty() {
                    None
                } else {
                    Some(&mut r.shadow[off + k..off + k + n])
                };
                (&mut r.bytes[off + k..off + k + n], sh)
            }
            Loc::Shared(c, off) => {
                let cta = &mut self.ctas[c];
                (
                    &mut cta.shared[off + k..off + k + n],
                    Some(&mut cta.shadow[off + k..off + k + n]),
                )
            }
            Loc::Local(off) => (
                &mut self.local[off + k..off + k + n],
                Some(&mut self.local_shadow[off + k..off + k + n]),
            ),
        };
        super::fastmem::put(bytes, v);
        if let Some(s) = shadow {
            for (b, x) in s.iter_mut().enumerate() {
                *x = (sh >> (8 * b)) as u8;
            }
        }
        Ok(())
    }

    fn load(&mut self, w: usize, l: usize, acc: &Access, pc: u32) -> Result<(), Stop> {
        let loc = self.locate(w, l, acc)?;
        let n = acc.size as usize;
        let raced = self.asy.watching()
            && self
                .plain_read_check(w, l, pc, loc, n * acc.regs.len())
                .map_err(Stop::Undefined)?;
        let weak = acc.order == Order::Weak;
        let (racing, writer) = if weak {
            self.racing_bytes(w, l, loc, n * acc.regs.len(), true)
        } else {
            (0, 0)
        };
        if racing != 0 {
            self.report_race(w, l, pc, writer, "reads bytes of");
        }
        // a later write that races with this read (race.rs)
        let marked = if weak {
            self.record_read(w, l, loc, n * acc.regs.len())
        } else {
            None
        };
        if let Some(f) = &marked {
            self.report_race(
                w,
                l,
                pc,
                f.writer,
                "reads bytes that are overwritten later by",
            );
        }
        let marked = marked.as_ref();
        for (k, r) in acc.regs.iter().enumerate() {
            let Some(r) = r else { continue };
            if n == 16 {
                let (lo, slo) = self.read_at(loc, k * n, 8);
                let (hi, shi) = self.read_at(loc, k * n + 8, 8);
                let (slo, shi) = if raced {
                    (u64::MAX, u64::MAX)
                } else {
                    (
                        slo | racing_bits(racing, k * n, 8) | found_bits(marked, k * n, 8),
                        shi | racing_bits(racing, k * n + 8, 8) | found_bits(marked, k * n + 8, 8),
                    )
                };
                if let Src::Reg128(d) = *r {
                    self.set(w, d, l, lo, slo);
                    self.set(w, d + 1, l, hi, shi);
                }
                continue;
            }
            let (v, sh) = self.read_at(loc, k * n, n);
            let bits = 8 * n as u32;
            let sh = if raced {
                mask(bits)
            } else {
                sh | racing_bits(racing, k * n, n) | found_bits(marked, k * n, n)
            };
            let reg_bits = u32::from(acc.reg_bits[k]);
            if let Src::Reg(d) = *r {
                {
                    let (mut v, mut sh) = (v, sh);
                    // "The value loaded is sign-extended to the destination
                    // register width for signed integers, and is
                    // zero-extended ... for unsigned and bit-size types."
                    if acc.signed && reg_bits > bits {
                        v = alu::sext(v, bits) as u64 & mask(reg_bits);
                        if sh >> (bits - 1) & 1 != 0 {
                            sh |= mask(reg_bits) & !mask(bits);
                        }
                    }
                    self.set(
                        w,
                        d,
                        l,
                        v & mask(reg_bits.max(bits)),
                        sh & mask(reg_bits.max(bits)),
                    );
                }
            }
        }
        Ok(())
    }

    fn store(&mut self, w: usize, l: usize, acc: &Access, pc: u32) -> Result<(), Stop> {
        let loc = self.locate(w, l, acc)?;
        let n = acc.size as usize;
        if self.asy.watching() {
            self.plain_write_check(w, l, pc, loc, n * acc.regs.len())
                .map_err(Stop::Undefined)?;
        }
        let total = n * acc.regs.len();
        let weak = acc.order == Order::Weak;
        let (racing, writer) = if weak {
            self.racing_bytes(w, l, loc, total, false)
        } else {
            (0, 0)
        };
        let old = if racing != 0 {
            self.bytes_now(loc, total)
        } else {
            Vec::new()
        };
        // the bytes before, for whether the store changed them (race.rs)
        let before = if weak && !self.race.off {
            self.peek(loc, total)
        } else {
            (Vec::new(), Vec::new())
        };
        for (k, r) in acc.regs.iter().enumerate() {
            let Some(r) = r else { continue };
            if n == 16 {
                let (v, sh) = self.val128(w, *r, l);
                self.write_at(loc, k * n, 8, v as u64, sh as u64)
                    .map_err(Stop::Undefined)?;
                self.write_at(loc, k * n + 8, 8, (v >> 64) as u64, (sh >> 64) as u64)
                    .map_err(Stop::Undefined)?;
            } else {
                let (v, sh) = self.val(w, *r, l);
                self.write_at(loc, k * n, n, v, sh)
                    .map_err(Stop::Undefined)?;
            }
            let at = loc.plus(k * n);
            if weak {
                let part = |v: &[u8]| v.get(k * n..(k + 1) * n).unwrap_or(&[]).to_vec();
                let (b, bs) = (part(&before.0), part(&before.1));
                self.record_write(w, l, at, n, (&b, &bs));
            } else {
                self.clear_writer(at, n);
            }
        }
        if racing != 0 && self.settle_race(loc, racing, &old) {
            self.report_race(w, l, pc, writer, "overwrites bytes of");
        }
        if weak {
            self.check_reads(w, l, loc, total);
        }
        Ok(())
    }

    /// `multimem.ld_reduce`, `.st`, `.red` (PTX ISA 9.7.9.14) over the
    /// launch's multicast objects: each vector element `k` (`ty` wide) at
    /// `a + k * size` of every member, combined through
    /// [`crate::sim::reduce::multimem_combine`].
    #[allow(clippy::too_many_arguments)]
    fn multimem(
        &mut self,
        w: usize,
        l: usize,
        op: MultimemOp,
        ty: crate::sim::program::IntTy,
        (fmt, packed): (Option<BulkRedType>, bool),
        regs: &[Option<Src>],
        addr: Addr,
    ) -> Result<(), Stop> {
        let a = self.address(w, l, addr)?;
        let n = u64::from(ty.bits / 8);
        let total = n * regs.len().max(1) as u64;
        let env = Env {
            addr: a,
            size: total,
            ..Env::default()
        };
        precond::check(&self.profile, &table::ALIGNED, &env).map_err(Stop::Undefined)?;
        let Some(m) = self
            .launch
            .multicast
            .iter()
            .find(|m| a.wrapping_sub(m.addr) < m.size)
        else {
            return Err(Stop::Undefined(NOT_MULTIMEM));
        };
        let off = a - m.addr;
        if off + total > m.size {
            return Err(Stop::Undefined(NOT_MULTIMEM));
        }
        let members: Vec<u64> = m.members.iter().map(|b| b + off).collect();
        let mut locs = Vec::with_capacity(members.len());
        for x in &members {
            let (i, o) = self
                .global
                .find(*x, total)
                .ok_or(Stop::Undefined(OUTSIDE))?;
            locs.push(Loc::Global(i, o));
        }
        let bits = u32::from(ty.bits);
        let ety = fmt.unwrap_or(match (bits, ty.signed) {
            (64, true) => BulkRedType::S64,
            (64, false) => BulkRedType::U64,
            (_, true) => BulkRedType::S32,
            (_, false) => BulkRedType::U32,
        });
        let bop = |r: RedOp| match r {
            RedOp::Add => BulkRedOp::Add,
            RedOp::Min => BulkRedOp::Min,
            RedOp::Max => BulkRedOp::Max,
            RedOp::And => BulkRedOp::And,
            RedOp::Or => BulkRedOp::Or,
            RedOp::Xor => BulkRedOp::Xor,
        };
        let float = fmt.is_some();
        let nb = n as usize;
        match op {
            MultimemOp::LdReduce(red) => {
                let unordered = float && red == RedOp::Add && locs.len() > 2;
                for (k, r) in regs.iter().enumerate() {
                    let mut acc: Option<(u64, u64)> = None;
                    for loc in &locs {
                        let (v, sh) = self.read_at(*loc, k * nb, nb);
                        acc = Some(match acc {
                            None => (v, sh),
                            Some((x, s)) => {
                                let (r, free) =
                                    reduce::multimem_combine(bop(red), ety, packed, x, v);
                                (r, if s | sh != 0 { mask(bits) } else { free })
                            }
                        });
                    }
                    let (v, mut sh) = acc.unwrap_or((0, mask(bits)));
                    if unordered {
                        sh = mask(bits);
                    }
                    if let Some(Src::Reg(d)) = r {
                        self.set(w, *d, l, v, sh);
                    }
                }
                if unordered {
                    return Err(Stop::Undefined(FLOAT_ORDER));
                }
            }
            MultimemOp::St => {
                for (k, r) in regs.iter().enumerate() {
                    let Some(r) = r else { continue };
                    let (v, sh) = self.val(w, *r, l);
                    for loc in &locs {
                        self.write_at(*loc, k * nb, nb, v, sh)
                            .map_err(Stop::Undefined)?;
                    }
                }
            }
            MultimemOp::Red(red) => {
                for (k, r) in regs.iter().enumerate() {
                    let Some(r) = r else { continue };
                    let (b, sb) = self.val(w, *r, l);
                    for loc in &locs {
                        let (v, sh) = self.read_at(*loc, k * nb, nb);
                        let (res, free) = reduce::multimem_combine(bop(red), ety, packed, v, b);
                        let s = if sh != 0 || sb != 0 { mask(bits) } else { free };
                        self.write_at(*loc, k * nb, nb, res, s)
                            .map_err(Stop::Undefined)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// `bar.arrive a, b` (PTX ISA 9.7.13.1): "does not cause any waiting
    /// by the executing threads; it simply marks a thread's arrival at the
    /// barrier", counted as `bar.sync`'s arrivals are.
    fn bar_arrive(&mut self, w: usize, pc: u32, exec: u32, id: Src, count: Src) {
        let c = self.warps[w].cta;
        for l in lanes(exec) {
            let Some((b, cnt)) = self.barrier_operands(w, l, pc, id, Some(count), true) else {
                continue;
            };
            if self.ctas[c].bar_red[b].arrived > 0 {
                self.undefined(w, l, pc, BAR_RED_MIXED);
                continue;
            }
            let cta = &mut self.ctas[c];
            cta.bar_arrived[b] += 1;
            cta.bar_expected[b] = cnt as u32;
            if cta.bar_arrived[b] >= cnt as u32 {
                self.complete_barrier(c, b);
            }
        }
    }

    /// A barrier instruction's id and thread count for lane `l` (0 for no
    /// count), or `None` once the lane is stopped: unspecified bits, or the
    /// rules `conform ub` asks too (`table::BAR_OPERANDS`, and for
    /// `bar.arrive` `table::BAR_ARRIVE_OPERANDS`, which also needs a count
    /// above 0).
    fn barrier_operands(
        &mut self,
        w: usize,
        l: usize,
        pc: u32,
        id: Src,
        count: Option<Src>,
        nonzero: bool,
    ) -> Option<(usize, u64)> {
        let (bid, sb) = self.val(w, id, l);
        let (cnt, sc) = match count {
            Some(s) => self.val(w, s, l),
            None => (0, 0),
        };
        if sb | sc != 0 {
            self.stop(w, l, pc, StopKind::Indeterminate(OPERAND));
            return None;
        }
        let pre = if nonzero {
            &table::BAR_ARRIVE_OPERANDS
        } else {
            &table::BAR_OPERANDS
        };
        let env = Env {
            a: bid,
            b: cnt,
            ..Env::default()
        };
        if let Err(u) = precond::check(&self.profile, pre, &env) {
            self.undefined(w, l, pc, u);
            return None;
        }
        Some((bid as usize, cnt))
    }

    fn bar_sync(&mut self, w: usize, pc: u32, active: u32, exec: u32, id: Src, count: Option<Src>) {
        self.diverge(w);
        for l in lanes(active & !exec) {
            self.warps[w].pc[l] = pc + 1;
        }
        let c = self.warps[w].cta;
        for l in lanes(exec) {
            let Some((b, cnt)) = self.barrier_operands(w, l, pc, id, count, false) else {
                continue;
            };
            if self.ctas[c].bar_red[b].arrived > 0 {
                self.undefined(w, l, pc, BAR_RED_MIXED);
                continue;
            }
            self.wait_at_barrier(w, l, pc, b, cnt as u32);
        }
    }

    /// Lane `l` arrives at barrier `b` of its CTA (`count` threads, 0:
    /// every live thread) and waits there; the barrier completes when
    /// the count is reached.
    fn wait_at_barrier(&mut self, w: usize, l: usize, pc: u32, b: usize, count: u32) {
        let c = self.warps[w].cta;
        let cta = &mut self.ctas[c];
        let gen = cta.bar_gen[b];
        cta.bar_arrived[b] += 1;
        cta.bar_expected[b] = count;
        let expected = if count == 0 { cta.live } else { count };
        let done = cta.bar_arrived[b] >= expected;
        let wp = &mut self.warps[w];
        wp.pc[l] = pc + 1;
        wp.lane[l] = Lane::Barrier { id: b as u8, gen };
        if done {
            self.complete_barrier(c, b);
        }
    }

    /// `bar{.cta}.red` (PTX ISA 9.7.13.1): "barrier{.cta}.red performs a
    /// reduction operation across threads. The c predicate (or its
    /// complement) from all threads in the CTA are combined using the
    /// specified reduction operator. Once the barrier count is reached,
    /// the final value is written to the destination register in all
    /// threads waiting at the barrier." Its thread count and identifier
    /// rules are `bar.sync`'s; a `bar.red` on a barrier whose phase has
    /// `bar.sync`/`bar.arrive` arrivals, or the other way round, is
    /// undefined ([`BAR_RED_MIXED`]).
    fn bar_red(&mut self, w: usize, pc: u32, active: u32, exec: u32, op: &Op) {
        let Op::BarRed {
            id,
            count,
            c,
            negate,
            ..
        } = *op
        else {
            return;
        };
        self.diverge(w);
        for l in lanes(active & !exec) {
            self.warps[w].pc[l] = pc + 1;
        }
        let cta = self.warps[w].cta;
        for l in lanes(exec) {
            let Some((b, cnt)) = self.barrier_operands(w, l, pc, id, count, false) else {
                continue;
            };
            let red = self.ctas[cta].bar_red[b];
            if self.ctas[cta].bar_arrived[b] > red.arrived {
                self.undefined(w, l, pc, BAR_RED_MIXED);
                continue;
            }
            let (v, sv) = self.val(w, c, l);
            let red = &mut self.ctas[cta].bar_red[b];
            red.arrived += 1;
            if sv & 1 != 0 {
                red.unknown += 1;
            } else if (v & 1 != 0) != negate {
                red.trues += 1;
            } else {
                red.falses += 1;
            }
            self.wait_at_barrier(w, l, pc, b, cnt as u32);
        }
    }

    /// Barrier `b` of CTA `c` completes: "the waiting threads are
    /// restarted without delay, and the barrier is reinitialized so that
    /// it can be immediately reused"; the threads waiting at a `bar.red`
    /// get its result. A predicate with unspecified bits leaves open the
    /// results it could change.
    pub(super) fn complete_barrier(&mut self, c: usize, b: usize) {
        let at = self.race.tick();
        if let Some(d) = self.race.bar_done.get_mut(c) {
            d[b] = at;
        }
        let cta = &mut self.ctas[c];
        let gen = cta.bar_gen[b];
        cta.bar_arrived[b] = 0;
        cta.bar_gen[b] = gen.wrapping_add(1);
        let red = std::mem::take(&mut cta.bar_red[b]);
        if red.arrived == 0 {
            return;
        }
        let prog = self.prog;
        for w in 0..self.warps.len() {
            if self.warps[w].cta != c {
                continue;
            }
            for l in 0..LANES {
                if self.warps[w].lane[l] != (Lane::Barrier { id: b as u8, gen }) {
                    continue;
                }
                let at = self.warps[w].pc[l].wrapping_sub(1) as usize;
                let Some(Op::BarRed { op, d, .. }) = prog.code.get(at).map(|i| &i.op) else {
                    continue;
                };
                let (v, sh) = match op {
                    // "The result of .popc is the number of threads with a
                    // True predicate"
                    BarRedOp::Popc => (
                        u64::from(red.trues),
                        if red.unknown > 0 { 0xffff_ffff } else { 0 },
                    ),
                    // ".and and .or indicate if all the threads had a True
                    // predicate or if any of the threads had a True
                    // predicate"
                    BarRedOp::And => (
                        u64::from(red.falses == 0),
                        u64::from(red.falses == 0 && red.unknown > 0),
                    ),
                    BarRedOp::Or => (
                        u64::from(red.trues > 0),
                        u64::from(red.trues == 0 && red.unknown > 0),
                    ),
                };
                self.set(w, *d, l, v, sh);
            }
        }
    }

    /// `shfl.sync`, deprecated `shfl`, `bar.warp.sync`, `vote.sync`,
    /// `redux.sync` and `elect.sync`: a function of the warp, run once
    /// every lane its member masks name has arrived (or exited).
    fn collective(&mut self, w: usize, pc: u32, active: u32, exec: u32, op: &Op) {
        let (mask_src, is_shfl) = match op {
            Op::Shfl { mask, .. } => (*mask, true),
            Op::WarpSync { mask } | Op::Warp { mask, .. } => (Some(*mask), false),
            _ => (None, false),
        };
        let unfinished = {
            let wp = &self.warps[w];
            (0..LANES)
                .filter(|&l| !wp.lane[l].finished())
                .fold(0u32, |m, l| m | (1 << l))
        };
        if let Some(ms) = mask_src {
            let mut needed = 0u32;
            for l in lanes(exec) {
                let (m, sm) = self.val(w, ms, l);
                if sm != 0 {
                    self.stop(w, l, pc, StopKind::Indeterminate(OPERAND));
                    return;
                }
                needed |= m as u32;
            }
            if needed & unfinished & !active != 0 {
                // wait for the other members
                self.diverge(w);
                let wp = &mut self.warps[w];
                for l in lanes(active) {
                    wp.pc[l] = pc;
                    wp.lane[l] = Lane::Sync { pc };
                }
                return;
            }
        }
        if let Op::Warp { .. } = op {
            self.warp_op(w, pc, [active, exec, unfinished], op);
            self.release(w, pc, active);
            return;
        }
        if !is_shfl {
            // bar.warp.sync
            for l in lanes(exec) {
                let (m, _) = self.val(w, mask_src.unwrap_or(Src::Imm(0)), l);
                if m as u32 & (1 << l) == 0 {
                    self.undefined(w, l, pc, WARPSYNC_MASK);
                }
            }
            // "bar.warp.sync also guarantee memory ordering among threads
            // participating in barrier" (9.7.13.2)
            self.sync_lanes(w, unfinished, SyncKind::Cta);
            self.release(w, pc, active);
            return;
        }
        let Op::Shfl {
            d,
            p,
            a,
            b,
            c,
            mask,
            mode,
        } = *op
        else {
            return;
        };
        let mut warp = [ShflLane::Inactive; 32];
        for (l, slot) in warp.iter_mut().enumerate() {
            let bit = 1u32 << l;
            *slot = if exec & bit != 0 {
                let (av, _) = self.val(w, a, l);
                let (bv, sb) = self.val(w, b, l);
                let (cv, scv) = self.val(w, c, l);
                let (mv, _) = mask.map_or((0, 0), |m| self.val(w, m, l));
                if sb | scv != 0 {
                    self.stop(w, l, pc, StopKind::Indeterminate(OPERAND));
                    ShflLane::Exited
                } else {
                    ShflLane::Executes {
                        a: av as u32,
                        b: bv as u32,
                        c: cv as u32,
                        membermask: mv as u32,
                    }
                }
            } else if active & bit != 0 {
                ShflLane::GuardFalse
            } else if unfinished & bit == 0 {
                ShflLane::Exited
            } else {
                ShflLane::Inactive
            };
        }
        type Out = Option<Result<crate::sim::shfl::ShflOut, &'static Undefined>>;
        let results: [Out; 32] = if mask.is_some() {
            shfl_sync(mode, &warp)
        } else {
            shfl(mode, &warp).map(|o| o.map(Ok))
        };
        for l in lanes(exec) {
            match results[l] {
                Some(Ok(out)) => {
                    // the source value's own unspecified bits travel with it
                    let sh = u64::from(out.d.unspecified)
                        | (self.val(w, a, out.source as usize).1 & 0xffff_ffff);
                    self.set(w, d, l, u64::from(out.d.bits), sh);
                    if let Some(p) = p {
                        self.set(w, p, l, u64::from(out.p), 0);
                    }
                }
                Some(Err(u)) => self.undefined(w, l, pc, *u),
                None => {}
            }
        }
        self.release(w, pc, active);
    }

    /// `vote.sync`, `redux.sync`, `elect.sync` once their members have
    /// arrived: [`warp_sync`] over the warp. A result that reads a source
    /// with unspecified bits is unspecified as a whole.
    fn warp_op(&mut self, w: usize, pc: u32, [active, exec, unfinished]: [u32; 3], op: &Op) {
        let Op::Warp {
            op,
            d,
            p,
            a,
            negate,
            mask,
        } = *op
        else {
            return;
        };
        let mut warp = [WarpLane::Inactive; 32];
        let mut unknown = 0u32;
        for (l, slot) in warp.iter_mut().enumerate() {
            let bit = 1u32 << l;
            *slot = if exec & bit != 0 {
                let (av, sa) = self.val(w, a, l);
                let (mv, _) = self.val(w, mask, l);
                let av = match op {
                    WarpOp::Vote(_) => {
                        if sa & 1 != 0 {
                            unknown |= bit;
                        }
                        u64::from((av & 1 != 0) != negate)
                    }
                    WarpOp::Match { wide: true, .. } => {
                        if sa != 0 {
                            unknown |= bit;
                        }
                        av
                    }
                    _ => {
                        if sa & 0xffff_ffff != 0 {
                            unknown |= bit;
                        }
                        av & 0xffff_ffff
                    }
                };
                WarpLane::Executes {
                    a: av,
                    membermask: mv as u32,
                }
            } else if unfinished & bit == 0 {
                WarpLane::Exited
            } else if active & bit != 0 {
                WarpLane::GuardFalse
            } else {
                WarpLane::Inactive
            };
        }
        let results = warp_sync(op, &warp);
        let bits = match op {
            WarpOp::Vote(VoteMode::Ballot)
            | WarpOp::Redux(_)
            | WarpOp::Elect
            | WarpOp::Match { .. } => 0xffff_ffff,
            WarpOp::Vote(_) => 1,
        };
        for l in lanes(exec) {
            match results[l] {
                Some(Ok(out)) => {
                    let unknown_in = out.members & unknown != 0;
                    let sh = if unknown_in {
                        bits
                    } else {
                        out.unspecified & bits
                    };
                    if let Some(d) = d {
                        self.set(w, d, l, out.d & bits, sh);
                    }
                    if let Some(p) = p {
                        let sp = matches!(op, WarpOp::Match { .. }) && unknown_in;
                        self.set(w, p, l, u64::from(out.p), u64::from(sp));
                    }
                }
                Some(Err(u)) => self.undefined(w, l, pc, *u),
                None => {}
            }
        }
    }

    /// The lanes of a finished collective go on at `pc + 1`.
    fn release(&mut self, w: usize, pc: u32, active: u32) {
        if let Some((upc, umask)) = self.warps[w].uniform {
            if upc == pc && umask == active {
                self.warps[w].uniform = Some((pc + 1, umask));
                return;
            }
        }
        self.diverge(w);
        let wp = &mut self.warps[w];
        for l in lanes(active) {
            if matches!(wp.lane[l], Lane::Running | Lane::Sync { .. }) {
                wp.lane[l] = Lane::Running;
                wp.pc[l] = pc + 1;
            }
        }
    }
}

/// Little-endian bytes (at most 8) as a number.
#[inline(always)]
fn le(b: &[u8]) -> u64 {
    match b.len() {
        1 => u64::from(b[0]),
        2 => u64::from(u16::from_le_bytes([b[0], b[1]])),
        4 => u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        8 => u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
        _ => {
            let mut v = [0u8; 8];
            let n = b.len().min(8);
            v[..n].copy_from_slice(&b[..n]);
            u64::from_le_bytes(v)
        }
    }
}

/// The unspecified bits of at most 8 bytes whose shadow is given (each
/// shadow byte the mask of its byte's unspecified bits; empty: all
/// determinate).
#[inline(always)]
fn shadow_mask(s: &[u8]) -> u64 {
    le(s)
}

/// Why a lane stops.
pub(super) enum Stop {
    Undefined(Undefined),
    Indeterminate(&'static str),
}
