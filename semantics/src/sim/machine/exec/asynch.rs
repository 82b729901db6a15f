//! Asynchronous operations and mbarrier objects in the interpreter.
//!
//! An asynchronous operation (`cp.async`, `cp.async.bulk`,
//! `cp.reduce.async.bulk`, `st.async`, the arrive-on of
//! `cp.async.mbarrier.arrive`) is issued by a thread and then goes through
//! steps of its own: it reads its source, writes its destination, then
//! completes (a complete-tx on its mbarrier, or its group's completion).
//! The launch's [`Schedule`] decides when each step happens. Until an
//! operation completes, a generic read of its destination is the race of
//! PTX ISA 9.7.9.25.1 ("reading from the destination memory location before
//! the asynchronous operation completes, exhibits undefined behavior"): the
//! read gets unspecified bits and a report naming the operation; a write
//! to its source before it read it makes what it copies unspecified.
//!
//! The mbarrier objects live beside shared memory, keyed by their CTA and
//! offset; their meaning is [`crate::mbarrier`]'s, the one definition the
//! memory model and the UB checker read too. A plain load or store of a
//! valid object's eight bytes is undefined (PTX ISA 9.7.13.15).

use super::super::{lanes, Lane, Machine, LANES};
use super::{le, Loc, Stop, OPERAND};
use crate::mbarrier::{self, State};
use crate::precond::table::{self, MbarOp};
use crate::precond::{self, Env};
use crate::sim::launch::{Schedule, StopKind};
use crate::sim::program::{Addr, AsyncInstr, MbarKind, Src};
use crate::sim::reduce::{self as red, BulkRedOp, BulkRedType};
use crate::sim::space::Space;
use crate::sim::undefined::Undefined;
use std::collections::{HashMap, VecDeque};

mod tensor;
use tensor::TensorOp;

/// Rounds of polling with no effect on memory before a run is declared
/// deadlocked: more than a loop that gives up after 65,536 tries takes
/// (two rounds a try: the wait, then its time-out).
pub(crate) const IDLE_ROUNDS: u32 = 1 << 18;

const COPY_RACE: Undefined = Undefined::result(
    "9.7.9.25.1",
    "Once an asynchronous copy operation is initiated, modifying the source memory location or tensor descriptor or reading from the destination memory location before the asynchronous operation completes, exhibits undefined behavior",
);
const PROXY_FENCE: Undefined = Undefined::result(
    "9.7.9.25.2",
    "Accessing the same memory location across multiple proxies needs a cross-proxy fence. For the async proxy, fence.proxy.async should be used to synchronize memory between generic proxy and the async proxy",
);
const MBAR_SHARED: Undefined = Undefined::behaviour(
    "9.7.13.15.1",
    "An mbarrier object is an opaque object with the following type and alignment requirements: Type .b64, Alignment (bytes) 8, Memory space .shared",
);

/// Where an operation's step stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    Issued,
    Read,
    Written,
}

#[derive(Clone, Debug)]
enum Kind {
    /// Copies, reductions and `st.async`: `size` bytes from `src` (the
    /// first `from` of them; zeros after) or from `data` already captured.
    Move {
        src: Option<(Loc, usize)>,
        dsts: Vec<Loc>,
        size: usize,
        byte_mask: Option<u16>,
        reduce: Option<(BulkRedOp, BulkRedType, bool)>,
        /// complete-tx of `size` bytes on each.
        mbars: Vec<(usize, usize)>,
        /// Performed in the async proxy (`cp{.reduce}.async.bulk`).
        proxy: bool,
    },
    /// A prefetch: no memory effect; it only belongs to a bulk group.
    Nothing,
    /// A tensor copy (`cp{.reduce}.async.bulk.tensor`).
    Tensor(Box<TensorOp>),
    /// The arrive-on of `cp.async.mbarrier.arrive`, after the operations
    /// `deps` complete.
    Arrive {
        deps: Vec<u32>,
        mbar: (usize, usize),
    },
}

#[derive(Clone, Debug)]
struct Pending {
    id: u32,
    warp: usize,
    lane: usize,
    pc: u32,
    kind: Kind,
    stage: Stage,
    data: Vec<u8>,
    shadow: Vec<u8>,
    /// The source was written before the operation read it.
    poisoned: bool,
}

/// A thread's uncommitted and committed operations, per mechanism.
#[derive(Clone, Debug, Default)]
struct Groups {
    cp_open: Vec<u32>,
    cp: VecDeque<Vec<u32>>,
    bulk_open: Vec<u32>,
    bulk: VecDeque<Vec<u32>>,
}

/// The asynchronous state of the running cluster.
#[derive(Debug, Default)]
pub(crate) struct AsyncState {
    pending: Vec<Pending>,
    next: u32,
    groups: HashMap<usize, Groups>,
    pub(crate) mbars: HashMap<(usize, usize), mbarrier::Slot>,
    /// Moves on whenever an operation steps or an mbarrier changes: a
    /// lane waiting at `Lane::Poll` tries again.
    pub(crate) epoch: u64,
    /// Failing waits, and changes to memory and barriers, for the
    /// deadlock of a polling loop.
    pub(crate) polls: u64,
    pub(crate) effects: u64,
    pub(crate) idle: u32,
    /// The mbarrier the last failing wait looked at.
    polled: Option<(usize, usize)>,
    /// The kernel has async-proxy operations: plain writes are recorded.
    pub(crate) proxy: bool,
    /// A plain access touched bytes an operation in flight reads or
    /// writes (a decision point for a scripted schedule).
    pub(crate) conflict: bool,
    /// 16-byte granules (global 0 / shared 1, region or CTA, offset / 16)
    /// written through the generic proxy since the last
    /// `fence.proxy.async` for their space.
    unfenced: std::collections::HashSet<(u8, usize, usize)>,
    /// The same granules, written since the last
    /// `fence.proxy.tensormap::generic` (tensor maps read in the
    /// tensormap proxy).
    tmap_unfenced: std::collections::HashSet<(u8, usize, usize)>,
    /// The kernel has tensor copies (plain writes are recorded for the
    /// tensormap proxy).
    pub(crate) tensors: bool,
    /// More about the next stop (its report's note).
    pub(crate) note: String,
    rng: u64,
    script_pos: usize,
    pub(crate) choices: Vec<(u16, u16)>,
}

impl AsyncState {
    pub(crate) fn new(schedule: &Schedule) -> AsyncState {
        AsyncState {
            rng: match schedule {
                Schedule::Random(seed) => seed ^ 0x9e37_79b9_7f4a_7c15 | 1,
                _ => 1,
            },
            ..AsyncState::default()
        }
    }

    /// A new cluster: its mbarriers and groups start afresh.
    pub(crate) fn new_cluster(&mut self) {
        self.unfenced.retain(|g| g.0 == 0);
        self.tmap_unfenced.retain(|g| g.0 == 0);
        self.pending.clear();
        self.groups.clear();
        self.mbars.clear();
        self.idle = 0;
        self.polled = None;
    }

    /// Whether operations are in flight.
    pub(crate) fn busy(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Whether plain accesses must take the checked path.
    pub(crate) fn watching(&self) -> bool {
        self.proxy || !self.pending.is_empty() || !self.mbars.is_empty()
    }

    fn random(&mut self) -> u64 {
        // xorshift64*
        let mut x = self.rng;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.rng = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn done(&self, id: u32) -> bool {
        !self.pending.iter().any(|p| p.id == id)
    }

    fn read_done(&self, id: u32) -> bool {
        self.pending
            .iter()
            .find(|p| p.id == id)
            .is_none_or(|p| p.stage >= Stage::Read)
    }
}

fn loc_range(l: Loc) -> Option<(u8, usize, usize)> {
    match l {
        Loc::Global(i, off) => Some((0, i, off)),
        Loc::Shared(c, off) => Some((1, c, off)),
        _ => None,
    }
}

/// Whether `[a, a+an)` and `[b, b+bn)` overlap.
fn overlaps(a: Loc, an: usize, b: Loc, bn: usize) -> bool {
    match (loc_range(a), loc_range(b)) {
        (Some((ka, ia, oa)), Some((kb, ib, ob))) => {
            ka == kb && ia == ib && oa < ob + bn && ob < oa + an
        }
        _ => false,
    }
}

fn mundef(u: mbarrier::Undefined) -> Undefined {
    Undefined::behaviour(u.section, u.rule)
}

impl Machine<'_> {
    /// The mbarrier at an address: its CTA and offset, after the rules of
    /// `op` on it (`table::mbarrier`: its place, alignment, and the range
    /// of `operand`, the instruction's count, txCount or phaseParity).
    fn mbar_at(
        &mut self,
        w: usize,
        l: usize,
        addr: Addr,
        space: Space,
        op: MbarOp,
        operand: u64,
    ) -> Result<(usize, usize), Stop> {
        let a = self.address(w, l, addr)?;
        let env = Env {
            mbar: a,
            a: operand,
            ..Env::at(&self.place(w))
        };
        for pre in table::mbarrier(op, space) {
            precond::check(&self.profile, pre, &env).map_err(Stop::Undefined)?;
        }
        match self.resolve(w, l, space, a, 8) {
            Ok(Loc::Shared(c, off)) => {
                if !matches!(op, MbarOp::Init) {
                    self.mbar_init_check(w, l, (c, off))
                        .map_err(Stop::Undefined)?;
                }
                Ok((c, off))
            }
            Ok(_) => Err(Stop::Undefined(MBAR_SHARED)),
            Err(u) => Err(Stop::Undefined(u)),
        }
    }

    /// Applies an operation to an mbarrier object.
    fn mbar_apply(
        &mut self,
        key: (usize, usize),
        op: mbarrier::Op,
    ) -> Result<mbarrier::Effect, Undefined> {
        let slot = self.asy.mbars.entry(key).or_default();
        let r = slot.apply(op).map_err(mundef);
        self.asy.epoch += 1;
        self.asy.effects += 1;
        r
    }

    fn u32_operand(&self, w: usize, l: usize, s: Src) -> Result<u32, Stop> {
        let (v, sv) = self.val(w, s, l);
        if sv & 0xffff_ffff != 0 {
            return Err(Stop::Indeterminate(OPERAND));
        }
        Ok(v as u32)
    }

    /// The non-blocking asynchronous and mbarrier instructions for one
    /// lane.
    pub(super) fn async_lane(
        &mut self,
        w: usize,
        l: usize,
        pc: u32,
        ins: &AsyncInstr,
    ) -> Result<(), Stop> {
        match *ins {
            AsyncInstr::MbarInit { addr, space, count } => {
                let n = self.u32_operand(w, l, count)?;
                let key = self.mbar_at(w, l, addr, space, MbarOp::Init, u64::from(n))?;
                self.mbar_apply(key, mbarrier::Op::Init { count: n })
                    .map_err(Stop::Undefined)?;
                self.record_mbar_init(w, l, key);
                // the object's bytes are the implementation's
                let cta = &mut self.ctas[key.0];
                cta.shadow[key.1..key.1 + 8].fill(0xff);
            }
            AsyncInstr::MbarInval { addr, space } => {
                let key = self.mbar_at(w, l, addr, space, MbarOp::Inval, 0)?;
                self.mbar_apply(key, mbarrier::Op::Inval)
                    .map_err(Stop::Undefined)?;
            }
            AsyncInstr::MbarUpdate {
                kind,
                d,
                addr,
                space,
                count,
                tx,
            } => {
                let has_count = count.is_some();
                let count = match count {
                    Some(c) => self.u32_operand(w, l, c)?,
                    None => 1,
                };
                let tx = match tx {
                    Some(t) => Some(self.u32_operand(w, l, t)?),
                    None => None,
                };
                let rule = match kind {
                    MbarKind::ExpectTx => MbarOp::ExpectTx,
                    MbarKind::CompleteTx => MbarOp::CompleteTx,
                    MbarKind::Arrive { drop, .. } => MbarOp::Arrive {
                        drop,
                        count: has_count,
                        tx: tx.is_some(),
                    },
                };
                let operand = u64::from(tx.unwrap_or(count));
                let key = self.mbar_at(w, l, addr, space, rule, operand)?;
                let op = match (kind, tx) {
                    (MbarKind::ExpectTx, Some(b)) => mbarrier::Op::ExpectTx { tx: b },
                    (MbarKind::CompleteTx, Some(b)) => mbarrier::Op::CompleteTx { tx: b },
                    (MbarKind::Arrive { drop: false, .. }, Some(b)) => {
                        mbarrier::Op::ArriveExpectTx { tx: b }
                    }
                    (MbarKind::Arrive { drop: true, .. }, Some(b)) => {
                        mbarrier::Op::ArriveDropExpectTx { tx: b }
                    }
                    (
                        MbarKind::Arrive {
                            drop: false,
                            no_complete,
                        },
                        None,
                    ) => mbarrier::Op::Arrive { count, no_complete },
                    (
                        MbarKind::Arrive {
                            drop: true,
                            no_complete,
                        },
                        None,
                    ) => mbarrier::Op::ArriveDrop { count, no_complete },
                    (MbarKind::ExpectTx | MbarKind::CompleteTx, None) => {
                        return Err(Stop::Indeterminate(OPERAND));
                    }
                };
                let e = self.mbar_apply(key, op).map_err(Stop::Undefined)?;
                if let (Some(d), Some(t)) = (d, e.token) {
                    self.set(w, d, l, t.bits(), 0);
                }
            }
            AsyncInstr::MbarPendingCount { d, state } => {
                let (v, sv) = self.val(w, state, l);
                if sv != 0 {
                    return Err(Stop::Indeterminate(OPERAND));
                }
                let n = mbarrier::pending_count(State::from_bits(v))
                    .map_err(|u| Stop::Undefined(mundef(u)))?;
                self.set(w, d, l, u64::from(n), 0);
            }
            AsyncInstr::CpAsyncArrive { addr, space, noinc } => {
                let key = self.mbar_at(w, l, addr, space, MbarOp::CpAsyncArrive, 0)?;
                if !noinc {
                    self.mbar_apply(key, mbarrier::Op::IncPending)
                        .map_err(Stop::Undefined)?;
                }
                let t = w * LANES + l;
                let deps: Vec<u32> = {
                    let g = self.asy.groups.entry(t).or_default();
                    g.cp_open
                        .iter()
                        .chain(g.cp.iter().flatten())
                        .copied()
                        .collect()
                };
                let deps: Vec<u32> = deps.into_iter().filter(|&d| !self.asy.done(d)).collect();
                self.issue(w, l, pc, Kind::Arrive { deps, mbar: key }, None, None);
            }
            AsyncInstr::Bulk { .. } => self.bulk(w, l, pc, ins)?,
            AsyncInstr::Tensor(ref t) => self.tensor_lane(w, l, pc, t)?,
            AsyncInstr::TensormapReplace { .. } => self.tensormap_replace(w, l, pc, ins)?,
            AsyncInstr::FenceProxyTensormap => self.asy.tmap_unfenced.clear(),
            AsyncInstr::BulkPrefetch { addr, size } => {
                let a = self.address(w, l, addr)?;
                let n = self.u32_operand(w, l, size)?;
                let env = Env {
                    addr2: a,
                    size: u64::from(n),
                    ..Env::at(&self.place(w))
                };
                for pre in [&table::PREFETCH_BULK_SIZE, &table::PREFETCH_BULK_ALIGNED] {
                    precond::check(&self.profile, pre, &env).map_err(Stop::Undefined)?;
                }
                self.issue(w, l, pc, Kind::Nothing, None, Some(true));
            }
            AsyncInstr::BulkCommit | AsyncInstr::CpCommit => {
                let bulk = matches!(ins, AsyncInstr::BulkCommit);
                let g = self.asy.groups.entry(w * LANES + l).or_default();
                if bulk {
                    let open = std::mem::take(&mut g.bulk_open);
                    g.bulk.push_back(open);
                } else {
                    let open = std::mem::take(&mut g.cp_open);
                    g.cp.push_back(open);
                }
            }
            AsyncInstr::StAsync {
                addr,
                space,
                elem,
                ref srcs,
                mbar,
            } => {
                let a = self.address(w, l, addr)?;
                let n = usize::from(elem) * srcs.len();
                let env = Env {
                    addr: a,
                    size: (n as u64).next_power_of_two(),
                    ..Env::at(&self.place(w))
                };
                for pre in table::st_async(space == Space::Generic) {
                    precond::check(&self.profile, pre, &env).map_err(Stop::Undefined)?;
                }
                let dst = self
                    .resolve(w, l, space, a, n as u64)
                    .map_err(Stop::Undefined)?;
                let key = self.mbar_at(w, l, mbar, space, MbarOp::StAsync, 0)?;
                let m = self.address(w, l, mbar)?;
                let env = Env { mbar: m, ..env };
                precond::check(&self.profile, &table::ST_ASYNC_SAME_CTA, &env)
                    .map_err(Stop::Undefined)?;
                if !matches!(dst, Loc::Shared(c, _) if c == key.0) {
                    // the two addresses name one CTA in different windows
                    return Err(Stop::Undefined(table::ST_ASYNC_SAME_CTA.undefined()));
                }
                let mut data = Vec::with_capacity(n);
                let mut shadow = Vec::with_capacity(n);
                for &s in srcs {
                    let (v, sv) = self.val(w, s, l);
                    for b in 0..usize::from(elem) {
                        data.push((v >> (8 * b)) as u8);
                        shadow.push((sv >> (8 * b)) as u8);
                    }
                }
                let kind = Kind::Move {
                    src: None,
                    dsts: vec![dst],
                    size: n,
                    byte_mask: None,
                    reduce: None,
                    mbars: vec![key],
                    proxy: false,
                };
                if shadow.iter().all(|&b| b == 0) {
                    shadow.clear();
                }
                self.issue(w, l, pc, kind, Some((data, shadow)), None);
            }
            AsyncInstr::RedAsync {
                addr,
                space,
                op,
                ty,
                src,
                mbar,
            } => {
                // the rules of `st.async` (PTX ISA 9.7.9.12), which
                // `red.async` (9.7.13.7) states alike for `a` and `mbar`:
                // aligned, in the shared window, one CTA of a cluster of
                // more than one
                let a = self.address(w, l, addr)?;
                let n = red::element_bytes(ty);
                let env = Env {
                    addr: a,
                    size: n as u64,
                    ..Env::at(&self.place(w))
                };
                for pre in table::st_async(space == Space::Generic) {
                    precond::check(&self.profile, pre, &env).map_err(Stop::Undefined)?;
                }
                let dst = self
                    .resolve(w, l, space, a, n as u64)
                    .map_err(Stop::Undefined)?;
                let key = self.mbar_at(w, l, mbar, space, MbarOp::StAsync, 0)?;
                let m = self.address(w, l, mbar)?;
                let env = Env { mbar: m, ..env };
                precond::check(&self.profile, &table::ST_ASYNC_SAME_CTA, &env)
                    .map_err(Stop::Undefined)?;
                if !matches!(dst, Loc::Shared(c, _) if c == key.0) {
                    return Err(Stop::Undefined(table::ST_ASYNC_SAME_CTA.undefined()));
                }
                let (v, sv) = self.val(w, src, l);
                let data: Vec<u8> = (0..n).map(|b| (v >> (8 * b)) as u8).collect();
                let mut shadow: Vec<u8> = (0..n)
                    .map(|b| u8::from((sv >> (8 * b)) & 0xff != 0))
                    .collect();
                if shadow.iter().all(|&b| b == 0) {
                    shadow.clear();
                }
                // "performs a reduction operation ... with the operand b and
                // the value at destination shared memory location a", then
                // a complete-tx of the element's bytes on `mbar`
                let kind = Kind::Move {
                    src: None,
                    dsts: vec![dst],
                    size: n,
                    byte_mask: None,
                    reduce: Some((op, ty, false)),
                    mbars: vec![key],
                    proxy: false,
                };
                self.issue(w, l, pc, kind, Some((data, shadow)), None);
            }
            AsyncInstr::StBulk { addr, space, size } => {
                let a = self.address(w, l, addr)?;
                let (n, sn) = self.val(w, size, l);
                if sn != 0 {
                    return Err(Stop::Indeterminate(OPERAND));
                }
                let env = Env {
                    addr: a,
                    size: n,
                    ..Env::at(&self.place(w))
                };
                for pre in table::st_bulk(space == Space::Generic) {
                    precond::check(&self.profile, pre, &env).map_err(Stop::Undefined)?;
                }
                let loc = self.resolve(w, l, space, a, n).map_err(Stop::Undefined)?;
                self.plain_write_check(w, l, pc, loc, n as usize)
                    .map_err(Stop::Undefined)?;
                for k in (0..n as usize).step_by(8) {
                    self.write_at(loc, k, 8, 0, 0).map_err(Stop::Undefined)?;
                }
            }
            AsyncInstr::FenceProxyAsync { space } => {
                // orders the generic writes before it with the async
                // proxy's accesses after it (9.7.9.25.2), for its space
                let keep = |g: &(u8, usize, usize)| match space {
                    None | Some(Space::Generic) => false,
                    Some(Space::Global) => g.0 != 0,
                    Some(_) => g.0 != 1,
                };
                self.asy.unfenced.retain(keep);
            }
            // waits are the blocking path's
            AsyncInstr::MbarWait { .. }
            | AsyncInstr::BulkWait { .. }
            | AsyncInstr::CpWait { .. } => {}
        }
        Ok(())
    }

    /// `cp.async.bulk` and `cp.reduce.async.bulk`: checks, resolves and
    /// issues.
    fn bulk(&mut self, w: usize, l: usize, pc: u32, ins: &AsyncInstr) -> Result<(), Stop> {
        let AsyncInstr::Bulk {
            dst,
            dst_space,
            src,
            src_space,
            size,
            mbar,
            cta_mask,
            byte_mask,
            reduce,
            pre,
        } = *ins
        else {
            return Ok(());
        };
        let d = self.address(w, l, dst)?;
        let s = self.address(w, l, src)?;
        let n = self.u32_operand(w, l, size)?;
        let env = Env {
            addr: d,
            addr2: s,
            size: u64::from(n),
            ..Env::at(&self.place(w))
        };
        for p in pre {
            precond::check(&self.profile, p, &env).map_err(Stop::Undefined)?;
        }
        let n = n as usize;
        let sloc = self
            .resolve(w, l, src_space, s, n as u64)
            .map_err(Stop::Undefined)?;
        let mut dsts = Vec::new();
        let mut mbars = Vec::new();
        let key = match mbar {
            Some(m) => Some(self.mbar_at(w, l, m, dst_space, MbarOp::Bulk, 0)?),
            None => None,
        };
        match cta_mask {
            Some(mask) => {
                let m = self.u32_operand(w, l, mask)? & 0xffff;
                let env = Env {
                    cta_mask: u64::from(m),
                    ..Env::at(&self.place(w))
                };
                precond::check(&self.profile, table::bulk_multicast(), &env)
                    .map_err(Stop::Undefined)?;
                let dloc = self
                    .resolve(w, l, dst_space, d, n as u64)
                    .map_err(Stop::Undefined)?;
                let (Loc::Shared(_, off), Some((_, moff))) = (dloc, key) else {
                    return Err(Stop::Undefined(MBAR_SHARED));
                };
                for r in 0..16usize {
                    if m >> r & 1 == 0 {
                        continue;
                    }
                    if r >= self.ctas.len() {
                        return Err(Stop::Undefined(table::bulk_multicast().undefined()));
                    }
                    if off + n > self.ctas[r].shared.len() {
                        return Err(Stop::Undefined(crate::sim::memory::OUTSIDE));
                    }
                    dsts.push(Loc::Shared(r, off));
                    mbars.push((r, moff));
                    self.mbar_init_check(w, l, (r, moff))
                        .map_err(Stop::Undefined)?;
                }
            }
            None => {
                let dloc = self
                    .resolve(w, l, dst_space, d, n as u64)
                    .map_err(Stop::Undefined)?;
                dsts.push(dloc);
                mbars.extend(key);
            }
        }
        let byte_mask = match byte_mask {
            Some(b) => Some(self.u32_operand(w, l, b)? as u16),
            None => None,
        };
        let kind = Kind::Move {
            src: Some((sloc, n)),
            dsts,
            size: n,
            byte_mask,
            reduce,
            mbars,
            proxy: true,
        };
        self.issue(w, l, pc, kind, None, Some(true));
        Ok(())
    }

    /// `cp.async` (non-bulk): the copy of `from` bytes (zeros after) of
    /// `cp` bytes, in the thread's open group.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn issue_cp_async(
        &mut self,
        w: usize,
        l: usize,
        pc: u32,
        src: Option<Loc>,
        from: usize,
        dst: Loc,
        cp: usize,
    ) {
        let kind = Kind::Move {
            src: src.map(|s| (s, from)),
            dsts: vec![dst],
            size: cp,
            byte_mask: None,
            reduce: None,
            mbars: Vec::new(),
            proxy: false,
        };
        self.issue(w, l, pc, kind, None, Some(false));
    }

    /// Records an operation; `data`: what it stores, captured when issued
    /// (`st.async`), else it reads its source in a step; `group`:
    /// `Some(true)` joins the thread's open bulk group, `Some(false)` its
    /// open `cp.async` group.
    fn issue(
        &mut self,
        w: usize,
        l: usize,
        pc: u32,
        kind: Kind,
        data: Option<(Vec<u8>, Vec<u8>)>,
        group: Option<bool>,
    ) -> u32 {
        let id = self.asy.next;
        self.asy.next += 1;
        let (stage, data, shadow) = match data {
            Some((d, s)) => (Stage::Read, d, s),
            None => (Stage::Issued, Vec::new(), Vec::new()),
        };
        self.asy.pending.push(Pending {
            id,
            warp: w,
            lane: l,
            pc,
            kind,
            stage,
            data,
            shadow,
            poisoned: false,
        });
        if let Some(bulk) = group {
            let g = self.asy.groups.entry(w * LANES + l).or_default();
            if bulk {
                g.bulk_open.push(id);
            } else {
                g.cp_open.push(id);
            }
        }
        self.asy.effects += 1;
        if matches!(self.launch.schedule, Schedule::Eager) {
            // the arrive-on of cp.async.mbarrier.arrive waits for its copies
            while self.step_op_id(id) {}
        }
        id
    }

    /// One step of the operation with this id, if it is enabled; whether
    /// it stepped.
    fn step_op_id(&mut self, id: u32) -> bool {
        match self.asy.pending.iter().position(|p| p.id == id) {
            Some(i) if self.enabled(i) => {
                self.step_op(i);
                true
            }
            _ => false,
        }
    }

    fn enabled(&self, i: usize) -> bool {
        match &self.asy.pending[i].kind {
            Kind::Arrive { deps, .. } => deps.iter().all(|&d| self.asy.done(d)),
            _ => true,
        }
    }

    /// The indices of the operations that can step, oldest first.
    fn enabled_ops(&self) -> Vec<usize> {
        (0..self.asy.pending.len())
            .filter(|&i| self.enabled(i))
            .collect()
    }

    /// Advances operation `i` by one step.
    fn step_op(&mut self, i: usize) {
        self.asy.epoch += 1;
        self.asy.effects += 1;
        if matches!(self.asy.pending[i].kind, Kind::Tensor(_)) {
            return self.step_tensor(i);
        }
        let stage = self.asy.pending[i].stage;
        let kind = self.asy.pending[i].kind.clone();
        match (stage, kind) {
            (
                Stage::Issued,
                Kind::Move {
                    src, size, proxy, ..
                },
            ) => {
                let mut data = std::mem::take(&mut self.asy.pending[i].data);
                let mut shadow = std::mem::take(&mut self.asy.pending[i].shadow);
                data.clear();
                data.resize(size, 0);
                shadow.clear();
                if let Some((loc, from)) = src {
                    let n = from.min(size);
                    self.read_slice(loc, &mut data[..n], &mut shadow);
                    if !shadow.is_empty() {
                        shadow.resize(size, 0);
                    }
                }
                if let (true, Some((loc, from))) = (proxy, src) {
                    self.proxy_read(i, loc, from.min(size), &mut shadow);
                }
                let p = &mut self.asy.pending[i];
                if p.poisoned {
                    shadow.clear();
                    shadow.resize(size, 1);
                }
                p.data = data;
                p.shadow = shadow;
                p.stage = Stage::Read;
            }
            (
                Stage::Read,
                Kind::Move {
                    dsts,
                    size,
                    byte_mask,
                    reduce,
                    ..
                },
            ) => {
                let data = std::mem::take(&mut self.asy.pending[i].data);
                let shadow = std::mem::take(&mut self.asy.pending[i].shadow);
                for &dst in &dsts {
                    match reduce {
                        Some((op, ty, noftz)) => {
                            let e = red::element_bytes(ty);
                            for k in (0..size).step_by(e) {
                                let (old, so) = self.read_at(dst, k, e);
                                let src = le(&data[k..k + e]);
                                let ss = shadow
                                    .get(k..k + e)
                                    .is_some_and(|s| s.iter().any(|&b| b != 0));
                                let (v, free) = red::reduce(op, ty, noftz, old, src);
                                let unspec = if ss || so != 0 { u64::MAX } else { free };
                                let _ = self.write_at(dst, k, e, v, unspec);
                            }
                        }
                        None if byte_mask.is_none() => self.write_slice(dst, &data, &shadow),
                        None => {
                            for (k, &byte) in data.iter().enumerate().take(size) {
                                if byte_mask.is_some_and(|m| m >> (k % 16) & 1 == 0) {
                                    continue;
                                }
                                let sh = if shadow.get(k).is_some_and(|&b| b != 0) {
                                    0xff
                                } else {
                                    0
                                };
                                let _ = self.write_at(dst, k, 1, u64::from(byte), sh);
                            }
                        }
                    }
                }
                self.asy.pending[i].stage = Stage::Written;
            }
            (_, Kind::Nothing) => {
                self.asy.pending.remove(i);
            }
            (Stage::Written, Kind::Move { size, mbars, .. }) => {
                let p = self.asy.pending.remove(i);
                for key in mbars {
                    let r = self.mbar_apply(key, mbarrier::Op::CompleteTx { tx: size as u32 });
                    if let Err(u) = r {
                        self.async_report(&p, u);
                    }
                }
            }
            // stepped by `step_tensor`
            (_, Kind::Tensor(_)) => {}
            (_, Kind::Arrive { mbar, .. }) => {
                let p = self.asy.pending.remove(i);
                if let Err(u) = self.mbar_apply(mbar, mbarrier::Op::AsyncArrive) {
                    self.async_report(&p, u);
                }
            }
        }
    }

    /// An async-proxy read of `[loc, loc+n)`: bytes of granules written
    /// through the generic proxy with no `fence.proxy.async` since may or
    /// may not be seen, so they are unspecified, with a report.
    fn proxy_read(&mut self, i: usize, loc: Loc, n: usize, shadow: &mut Vec<u8>) {
        let Some((kind, idx, off)) = loc_range(loc) else {
            return;
        };
        if self.asy.unfenced.is_empty() || n == 0 {
            return;
        }
        let mut hit = false;
        for g in off / 16..=(off + n - 1) / 16 {
            if self.asy.unfenced.contains(&(kind, idx, g)) {
                let lo = (g * 16).max(off) - off;
                let hi = ((g + 1) * 16).min(off + n) - off;
                if shadow.is_empty() {
                    shadow.resize(n, 0);
                }
                shadow[lo..hi].fill(0xff);
                hit = true;
            }
        }
        if hit {
            let p = self.asy.pending[i].clone();
            self.async_report(&p, PROXY_FENCE);
            if let Some(r) = self.undefined_results.last_mut() {
                r.note = "the copy reads bytes written through the generic proxy with no fence.proxy.async since".into();
            }
        }
    }

    /// Copies the bytes at `loc` out, and their unspecified marks (left
    /// empty when every byte is known).
    fn read_slice(&self, loc: Loc, data: &mut [u8], shadow: &mut Vec<u8>) {
        let n = data.len();
        let marks: Option<&[u8]> = match loc {
            Loc::Global(i, off) => {
                self.global.note_read(i, off, n);
                let r = &self.global.regions[i];
                data.copy_from_slice(&r.bytes[off..off + n]);
                (!r.shadow.is_empty()).then(|| &r.shadow[off..off + n])
            }
            Loc::Shared(c, off) => {
                let cta = &self.ctas[c];
                data.copy_from_slice(&cta.shared[off..off + n]);
                Some(&cta.shadow[off..off + n])
            }
            _ => {
                shadow.resize(n, 0);
                for k in 0..n {
                    let (v, sh) = self.read_at(loc, k, 1);
                    data[k] = v as u8;
                    shadow[k] = sh as u8;
                }
                return;
            }
        };
        match marks {
            Some(m) if m.iter().any(|&b| b != 0) => {
                shadow.resize(n, 0);
                shadow.copy_from_slice(m);
            }
            _ => shadow.clear(),
        }
    }

    /// Writes `data` at `loc` with its unspecified marks (`shadow` empty:
    /// every byte known).
    fn write_slice(&mut self, loc: Loc, data: &[u8], shadow: &[u8]) {
        let n = data.len();
        let marked = !shadow.is_empty();
        match loc {
            Loc::Global(i, off) => {
                self.global.note_write(i, off, n);
                if marked && self.global.regions[i].shadow.is_empty() {
                    self.global.make_indeterminate(i, 0, 0);
                }
                let r = &mut self.global.regions[i];
                r.bytes[off..off + n].copy_from_slice(data);
                match (marked, r.shadow.is_empty()) {
                    (true, _) => r.shadow[off..off + n].copy_from_slice(shadow),
                    (false, false) => r.shadow[off..off + n].fill(0),
                    (false, true) => {}
                }
            }
            Loc::Shared(c, off) => {
                let cta = &mut self.ctas[c];
                cta.shared[off..off + n].copy_from_slice(data);
                if marked {
                    cta.shadow[off..off + n].copy_from_slice(shadow);
                } else {
                    cta.shadow[off..off + n].fill(0);
                }
            }
            _ => {
                for (k, &byte) in data.iter().enumerate().take(n) {
                    let sh = if shadow.get(k).is_some_and(|&b| b != 0) {
                        0xff
                    } else {
                        0
                    };
                    let _ = self.write_at(loc, k, 1, u64::from(byte), sh);
                }
            }
        }
    }

    /// An undefined effect of an operation, reported against its thread.
    fn async_report(&mut self, p: &Pending, u: Undefined) {
        let u = Undefined::result(u.section, u.rule);
        self.undefined_result(p.warp, p.lane, p.pc, u);
    }

    /// Runs every remaining step, oldest first (the cluster's threads have
    /// all ended).
    pub(crate) fn drain_async(&mut self) {
        while let Some(&i) = self.enabled_ops().first() {
            self.step_op(i);
        }
        self.asy.pending.clear();
    }

    /// One step when no thread can go on (the late and random schedules,
    /// and a script past its choices); whether one happened.
    pub(crate) fn async_unblock(&mut self) -> bool {
        if !matches!(self.launch.schedule, Schedule::Script(_)) {
            // the oldest operation that can step
            return match (0..self.asy.pending.len()).find(|&i| self.enabled(i)) {
                Some(i) => {
                    self.step_op(i);
                    true
                }
                None => false,
            };
        }
        let ops = self.enabled_ops();
        if ops.is_empty() {
            return false;
        }
        // a script chooses which operation goes first here too
        let k = match &self.launch.schedule {
            Schedule::Script(choices) if ops.len() > 1 => {
                let c = choices.get(self.asy.script_pos).copied().unwrap_or(0);
                self.asy.script_pos += 1;
                let c = c.min(ops.len() as u16 - 1);
                self.asy.choices.push((c, ops.len() as u16));
                usize::from(c)
            }
            _ => 0,
        };
        self.step_op(ops[k]);
        true
    }

    /// A decision point after an instruction: the schedule may step
    /// operations (a script chooses again after each step it takes, so any
    /// number of steps can happen between two instructions).
    pub(crate) fn async_decide(&mut self) {
        // steps within one decision point go in issue order (an operation
        // at or after the one stepped last): two operations' steps with no
        // instruction between them give one state either way, unless they
        // touch the same bytes (which the program does not order: a race
        // of its own)
        let mut from = 0u32;
        loop {
            if self.asy.pending.is_empty() {
                return;
            }
            let ops: Vec<usize> = self
                .enabled_ops()
                .into_iter()
                .filter(|&i| self.asy.pending[i].id >= from)
                .collect();
            if ops.is_empty() {
                return;
            }
            let pick = match &self.launch.schedule {
                Schedule::Eager | Schedule::Late => return,
                Schedule::Random(_) => {
                    let r = self.asy.random();
                    if !r.is_multiple_of(4) {
                        return;
                    }
                    ops[(r >> 8) as usize % ops.len()]
                }
                Schedule::Script(choices) => {
                    let c = choices.get(self.asy.script_pos).copied().unwrap_or(0);
                    self.asy.script_pos += 1;
                    let c = c.min(ops.len() as u16);
                    self.asy.choices.push((c, ops.len() as u16 + 1));
                    if c == 0 {
                        return;
                    }
                    ops[c as usize - 1]
                }
            };
            from = self.asy.pending[pick].id;
            self.step_op(pick);
        }
    }

    fn who(&self, w: usize, l: usize) -> String {
        let t = self.thread_id(w, l);
        format!("thread ctaid={:?} tid={:?}", t.ctaid, t.tid)
    }

    /// A plain read of `[loc, loc+n)`: the unspecified bits it gets from a
    /// race with an operation in flight, with the report.
    pub(super) fn plain_read_check(
        &mut self,
        w: usize,
        l: usize,
        pc: u32,
        loc: Loc,
        n: usize,
    ) -> Result<bool, Undefined> {
        self.mbar_bytes(loc, n)?;
        self.asy.conflict |= self.asy.pending.iter().any(|p| match &p.kind {
            Kind::Move {
                src: Some((s, from)),
                ..
            } => overlaps(*s, *from, loc, n),
            Kind::Tensor(op) => tensor::touches(op, loc, n, true),
            _ => false,
        });
        let hit = self.asy.pending.iter().find(|p| match &p.kind {
            Kind::Move { dsts, size, .. } => dsts.iter().any(|&d| overlaps(d, *size, loc, n)),
            Kind::Tensor(op) => tensor::touches(op, loc, n, false),
            _ => false,
        });
        self.asy.conflict |= hit.is_some();
        if let Some(p) = hit {
            let who = format!(
                "races with `{}` of {}, which has not completed",
                self.prog
                    .text
                    .get(p.pc as usize)
                    .map_or("", |t| t.0.as_str()),
                self.who(p.warp, p.lane)
            );
            self.undefined_result(w, l, pc, COPY_RACE);
            if let Some(r) = self.undefined_results.last_mut() {
                r.note = who;
            }
            return Ok(true);
        }
        Ok(false)
    }

    /// A plain access to the bytes of a valid mbarrier object.
    fn mbar_bytes(&self, loc: Loc, n: usize) -> Result<(), Undefined> {
        if let (Loc::Shared(c, off), false) = (loc, self.asy.mbars.is_empty()) {
            for (&(mc, mo), slot) in &self.asy.mbars {
                if mc == c && mo < off + n && off < mo + 8 {
                    slot.plain_access().map_err(mundef)?;
                }
            }
        }
        Ok(())
    }

    /// A plain write of `[loc, loc+n)`: poisons the operations that have
    /// not read a source it overlaps; undefined on a valid mbarrier.
    pub(super) fn plain_write_check(
        &mut self,
        w: usize,
        l: usize,
        pc: u32,
        loc: Loc,
        n: usize,
    ) -> Result<(), Undefined> {
        self.mbar_bytes(loc, n)?;
        if self.asy.proxy && n > 0 {
            if let Some((kind, idx, off)) = loc_range(loc) {
                for g in off / 16..=(off + n - 1) / 16 {
                    self.asy.unfenced.insert((kind, idx, g));
                }
            }
        }
        if self.asy.tensors && n > 0 {
            if let Some((kind, idx, off)) = loc_range(loc) {
                for g in off / 16..=(off + n - 1) / 16 {
                    self.asy.tmap_unfenced.insert((kind, idx, g));
                }
            }
        }
        let mut raced = None;
        self.asy.conflict |= self.asy.pending.iter().any(|p| match &p.kind {
            Kind::Move { dsts, size, .. } => dsts.iter().any(|&d| overlaps(d, *size, loc, n)),
            Kind::Tensor(op) => tensor::touches(op, loc, n, false),
            _ => false,
        });
        for p in &mut self.asy.pending {
            if let Kind::Tensor(op) = &p.kind {
                if tensor::touches(op, loc, n, true) {
                    self.asy.conflict = true;
                    if p.stage == Stage::Issued {
                        p.poisoned = true;
                        raced = Some((p.pc, p.warp, p.lane));
                    }
                }
            }
            if let Kind::Move {
                src: Some((s, from)),
                ..
            } = &p.kind
            {
                if overlaps(*s, *from, loc, n) {
                    self.asy.conflict = true;
                }
                if p.stage == Stage::Issued && overlaps(*s, *from, loc, n) {
                    p.poisoned = true;
                    raced = Some((p.pc, p.warp, p.lane));
                }
            }
        }
        if let Some((opc, pw, pl)) = raced {
            let who = format!(
                "modifies the source of `{}` of thread {:?} before the copy read it",
                self.prog
                    .text
                    .get(opc as usize)
                    .map_or("", |t| t.0.as_str()),
                self.thread_id(pw, pl)
            );
            self.undefined_result(w, l, pc, COPY_RACE);
            if let Some(r) = self.undefined_results.last_mut() {
                r.note = who;
            }
        }
        Ok(())
    }

    /// The waits: `mbarrier.test_wait`/`try_wait`, `cp.async.wait_group`,
    /// `cp.async.bulk.wait_group`. A lane that must wait stays at the
    /// instruction in `Lane::Poll` and tries again when something changes.
    pub(super) fn async_wait(
        &mut self,
        w: usize,
        pc: u32,
        active: u32,
        exec: u32,
        ins: &AsyncInstr,
    ) {
        self.diverge(w);
        let mut waiting = 0u32;
        for l in lanes(exec) {
            match self.wait_lane(w, l, ins) {
                Ok(true) => {}
                Ok(false) => waiting |= 1 << l,
                Err(Stop::Undefined(u)) => self.undefined(w, l, pc, u),
                Err(Stop::Indeterminate(why)) => self.stop(w, l, pc, StopKind::Indeterminate(why)),
            }
        }
        let epoch = self.asy.epoch;
        let wp = &mut self.warps[w];
        for l in lanes(active) {
            if wp.lane[l] != Lane::Running {
                continue;
            }
            if waiting >> l & 1 == 1 {
                wp.lane[l] = Lane::Poll { epoch };
            } else {
                wp.pc[l] = pc + 1;
            }
        }
    }

    /// Whether the lane may go on past the wait (its result written).
    fn wait_lane(&mut self, w: usize, l: usize, ins: &AsyncInstr) -> Result<bool, Stop> {
        let t = w * LANES + l;
        match *ins {
            AsyncInstr::CpWait { .. } | AsyncInstr::BulkWait { .. } => {
                // (n, bulk, wait_all, .read)
                let (n, bulk, wait_all, read_only) = match *ins {
                    AsyncInstr::CpWait { n, all } => (n, false, all, false),
                    AsyncInstr::BulkWait { n, read } => (n, true, false, read),
                    _ => unreachable!(),
                };
                let g = self.asy.groups.entry(t).or_default();
                if wait_all {
                    // cp.async.wait_all: a commit, then wait_group 0
                    let open = std::mem::take(&mut g.cp_open);
                    g.cp.push_back(open);
                }
                let groups = if bulk { &g.bulk } else { &g.cp };
                let older = groups.len().saturating_sub(n as usize);
                let ids: Vec<u32> = groups.iter().take(older).flatten().copied().collect();
                let ok = ids.iter().all(|&id| {
                    if read_only {
                        self.asy.read_done(id)
                    } else {
                        self.asy.done(id)
                    }
                });
                if ok {
                    let g = self.asy.groups.entry(t).or_default();
                    let groups = if bulk { &mut g.bulk } else { &mut g.cp };
                    if !read_only {
                        groups.drain(..older);
                    }
                }
                Ok(ok)
            }
            AsyncInstr::MbarWait {
                d,
                addr,
                space,
                token,
                parity,
                blocking,
            } => {
                let (v, sv) = self.val(w, token, l);
                if sv != 0 {
                    return Err(Stop::Indeterminate(OPERAND));
                }
                let operand = if parity { v & 0xffff_ffff } else { 0 };
                let key = self.mbar_at(w, l, addr, space, MbarOp::Wait { parity }, operand)?;
                let slot = self.asy.mbars.entry(key).or_default();
                let m = slot
                    .mbarrier_mut()
                    .map_err(|u| Stop::Undefined(mundef(u)))?;
                let done = if parity {
                    m.test_wait_parity(v as u32)
                } else {
                    m.test_wait(State::from_bits(v))
                }
                .map_err(|u| Stop::Undefined(mundef(u)))?;
                if done {
                    m.note_wait_true();
                    self.set(w, d, l, 1, 0);
                    return Ok(true);
                }
                self.asy.polls += 1;
                self.asy.polled = Some(key);
                if !blocking {
                    self.set(w, d, l, 0, 0);
                    return Ok(true);
                }
                // try_wait: "Suspended thread resumes execution when the
                // specified phase completes OR before the phase completes
                // following a system-dependent time limit"
                if let Schedule::Random(_) = self.launch.schedule {
                    if self.asy.random().is_multiple_of(2) {
                        self.set(w, d, l, 0, 0);
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            _ => Ok(true),
        }
    }

    /// Ends the suspension of every lane waiting in `mbarrier.try_wait`
    /// with False ("Suspended thread resumes execution when the specified
    /// phase completes OR before the phase completes following a
    /// system-dependent time limit"); whether there was one. A loop that
    /// tries again forever is then a polling loop, which the idle rounds
    /// end as a deadlock.
    pub(crate) fn time_out_waits(&mut self) -> bool {
        let mut any = false;
        for w in 0..self.warps.len() {
            for l in 0..LANES {
                if !matches!(self.warps[w].lane[l], Lane::Poll { .. }) {
                    continue;
                }
                let pc = self.warps[w].pc[l];
                let Some(crate::sim::program::Instr {
                    op: crate::sim::program::Op::Async(a),
                    ..
                }) = self.prog.code.get(pc as usize)
                else {
                    continue;
                };
                if let AsyncInstr::MbarWait {
                    d, blocking: true, ..
                } = **a
                {
                    self.set(w, d, l, 0, 0);
                    let wp = &mut self.warps[w];
                    wp.lane[l] = Lane::Running;
                    wp.pc[l] = pc + 1;
                    any = true;
                }
            }
        }
        any
    }

    /// What a lane that never gets past its wait waits for.
    pub(crate) fn wait_description(&self, w: usize, l: usize) -> String {
        let pc = self.warps[w].pc[l];
        let text = self.prog.text.get(pc as usize).map_or("", |t| t.0.as_str());
        if text.starts_with("mbarrier") {
            return self.describe_polled(text);
        }
        format!("`{text}` waits for asynchronous operations that cannot complete")
    }

    /// The mbarrier a polling thread looked at last, and its state.
    pub(crate) fn describe_polled(&self, text: &str) -> String {
        let Some(key) = self.asy.polled else {
            return format!("`{text}` waits on an mbarrier phase that never completes");
        };
        let state = match self.asy.mbars.get(&key).map(|s| s.mbarrier()) {
            Some(Ok(m)) => format!(
                "phase {}: {} of {} arrivals pending, tx-count {}",
                m.phase(),
                m.pending(),
                m.expected(),
                m.tx()
            ),
            _ => "no valid object".into(),
        };
        format!(
            "`{text}` waits on the mbarrier at shared offset {:#x} of the CTA of cluster rank {} ({state}); no thread or asynchronous operation can complete its phase",
            key.1, key.0
        )
    }
}
