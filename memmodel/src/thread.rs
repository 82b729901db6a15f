//! One thread run on its own: every path through its code, for every value
//! each read might return, as a trace of events with their data and control
//! dependencies. Loops are unrolled to `Program::loop_bound` turns (once by
//! default, as in the Dat3M tests): a path that would jump backwards past the
//! bound does not terminate within it and is dropped.

use crate::event::{Barrier, Direction, Event, Kind, Proxy, Scope, Sem};
use crate::program::{ModelError, Program};
use crate::rel::{members, Set, MAX_EVENTS};
use ptx_litmus::{AtomOp, BulkCompletion, Instr, LoadKind, Operand, ProxyFence, WriteKind};
use std::collections::HashMap;

/// The most traces one thread may have before the search gives up.
const MAX_TRACES: usize = 1 << 20;

/// One terminating run of a thread.
#[derive(Clone, Debug)]
pub struct Trace {
    pub events: Vec<Event>,
    /// Data and control dependencies `(from, to)`, by index in `events`.
    pub deps: Vec<(usize, usize)>,
    /// The read and write of each atomic.
    pub rmw: Vec<(usize, usize)>,
    /// Issue order (PTX ISA 8.9.1.1): the thread's prior instructions before
    /// the memory operations of an asynchronous instruction. It orders those
    /// operations but, unlike program order, does not carry on past them.
    pub iso: Vec<(usize, usize)>,
    /// Asynchronous completion order: the memory operations of an
    /// asynchronous instruction before its completion and what observes it
    /// (a complete-tx, a wait on its group, an async arrive-on).
    pub aso: Vec<(usize, usize)>,
    /// The asynchronous copies: their source reads and destination writes,
    /// for the undefined-behaviour rules of PTX ISA 9.7.9.25.1.
    pub copies: Vec<CopyOps>,
    /// Final register values.
    pub regs: HashMap<String, i64>,
}

/// The memory operations of one asynchronous copy, by index in a trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopyOps {
    pub reads: Vec<usize>,
    pub writes: Vec<usize>,
}

#[derive(Clone)]
struct State {
    pc: usize,
    regs: HashMap<String, (i64, Set)>,
    ctrl: Set,
    trace: Trace,
    cp_pending: Vec<Vec<usize>>,
    cp_groups: Vec<Vec<Vec<usize>>>,
    /// Every `cp.async` operation so far, for `cp.async.mbarrier.arrive`.
    cp_all: Vec<usize>,
    bulk_pending: Vec<[usize; 3]>,
    bulk_groups: Vec<Vec<[usize; 3]>>,
    /// The values the reads of the instruction at `pc` return, in order, for
    /// a state forked at a read.
    forced: Vec<i64>,
    /// The values the reads of the current instruction have returned so far.
    took: Vec<i64>,
    /// Backward jumps taken so far, by target: a loop's turns.
    turns: Vec<(usize, u32)>,
}

/// Values each physical location may hold, by location index.
pub type Domains = Vec<Vec<i64>>;

/// Every terminating trace of thread `t`, reads taking values from `domains`.
pub fn traces(p: &Program<'_>, t: usize, domains: &Domains) -> Result<Vec<Trace>, ModelError> {
    let regs = p.regs[t]
        .iter()
        .map(|(r, v)| (r.clone(), (*v, 0)))
        .collect();
    let mut stack = vec![State {
        pc: 0,
        regs,
        ctrl: 0,
        trace: Trace {
            events: Vec::new(),
            deps: Vec::new(),
            rmw: Vec::new(),
            iso: Vec::new(),
            aso: Vec::new(),
            copies: Vec::new(),
            regs: HashMap::new(),
        },
        cp_pending: Vec::new(),
        cp_groups: Vec::new(),
        cp_all: Vec::new(),
        bulk_pending: Vec::new(),
        bulk_groups: Vec::new(),
        forced: Vec::new(),
        took: Vec::new(),
        turns: Vec::new(),
    }];
    let code = &p.test.threads[t].code;
    let mut done = Vec::new();
    while let Some(mut s) = stack.pop() {
        loop {
            let Some(instr) = code.get(s.pc) else {
                s.trace.regs = s.regs.iter().map(|(r, (v, _))| (r.clone(), *v)).collect();
                done.push(s.trace);
                if done.len() > MAX_TRACES {
                    return Err(ModelError::SearchLimit(MAX_TRACES as u64));
                }
                break;
            };
            s.took.clear();
            match step(p, t, instr, &mut s, domains, &mut stack)? {
                Step::Next => s.pc += 1,
                Step::Jump(to) if to > s.pc => s.pc = to,
                // A backward jump: the loop runs again while its turns stay
                // within the bound; past it the path is dropped.
                Step::Jump(to) => {
                    let turn = match s.turns.iter_mut().find(|(t, _)| *t == to) {
                        Some((_, n)) => {
                            *n += 1;
                            *n
                        }
                        None => {
                            s.turns.push((to, 1));
                            1
                        }
                    };
                    if turn >= p.loop_bound {
                        break;
                    }
                    s.pc = to;
                }
                Step::Stop => break,
            }
        }
    }
    Ok(done)
}

enum Step {
    Next,
    Jump(usize),
    Stop,
}

fn ev(t: usize, pc: usize, kind: Kind) -> Event {
    Event {
        thread: Some(t as u32),
        pc: Some(pc),
        kind,
        loc: None,
        value: 0,
        sem: Sem::Weak,
        scope: None,
        proxy: None,
        is_async: false,
        rmw: false,
        place: None,
    }
}

/// An event on a barrier object: accessed through the generic proxy ("This
/// instruction accesses its mbarrier operand using generic-proxy", PTX ISA
/// 9.7.9.25.4.1).
fn barrier_ev(t: usize, pc: usize, kind: Kind, sem: Sem, scope: Scope) -> Event {
    Event {
        sem,
        scope: Some(scope),
        proxy: Some(Proxy::Generic),
        ..ev(t, pc, kind)
    }
}

impl State {
    fn push(&mut self, e: Event) -> Result<usize, ModelError> {
        let i = self.trace.events.len();
        if i >= MAX_EVENTS {
            return Err(ModelError::TooManyEvents(MAX_EVENTS));
        }
        for r in members(self.ctrl) {
            self.trace.deps.push((r, i));
        }
        self.trace.events.push(e);
        Ok(i)
    }

    fn eval(&self, o: &Operand) -> (i64, Set) {
        match o {
            Operand::Imm(v) => (*v, 0),
            Operand::Reg(r) => self.regs.get(r).copied().unwrap_or((0, 0)),
        }
    }

    fn data(&mut self, from: Set, to: usize) {
        for r in members(from) {
            self.trace.deps.push((r, to));
        }
    }

    /// Records an asynchronous memory operation performed in `place` (its
    /// thread's CTA when `None`), issue-ordered after the thread's earlier
    /// instructions.
    fn push_async(
        &mut self,
        mut e: Event,
        place: Option<(u32, u32, u32)>,
    ) -> Result<usize, ModelError> {
        e.is_async = true;
        e.place = place;
        let i = self.push(e)?;
        self.issue(i);
        Ok(i)
    }

    /// Orders an asynchronous memory operation after every earlier
    /// instruction of the thread (PTX ISA 8.9.1.1).
    fn issue(&mut self, e: usize) {
        for i in 0..e {
            if !self.trace.events[i].is_async {
                self.trace.iso.push((i, e));
            }
        }
    }
}

fn load_proxy(k: LoadKind) -> Proxy {
    match k {
        LoadKind::Ld => Proxy::Generic,
        LoadKind::Tld => Proxy::Texture,
        LoadKind::Suld => Proxy::Surface,
        LoadKind::Cold => Proxy::Constant,
    }
}

fn write_proxy(k: WriteKind) -> Proxy {
    match k {
        WriteKind::Generic => Proxy::Generic,
        WriteKind::Surface => Proxy::Surface,
    }
}

/// The read half of an atomic: acquire for `.acquire`/`.acq_rel`, relaxed
/// otherwise (so that the two halves stay morally strong).
fn read_sem(s: Sem) -> Sem {
    match s {
        Sem::Acquire | Sem::AcqRel => Sem::Acquire,
        _ => Sem::Relaxed,
    }
}

/// The write half of an atomic: release for `.release`/`.acq_rel`.
fn write_sem(s: Sem) -> Sem {
    match s {
        Sem::Release | Sem::AcqRel => Sem::Release,
        _ => Sem::Relaxed,
    }
}

#[allow(clippy::too_many_arguments)]
fn memory_event(
    t: usize,
    pc: usize,
    kind: Kind,
    loc: usize,
    value: i64,
    sem: Sem,
    scope: Option<Scope>,
    proxy: Proxy,
) -> Event {
    Event {
        loc: Some(loc),
        value,
        sem,
        scope,
        proxy: Some(proxy),
        ..ev(t, pc, kind)
    }
}

fn step(
    p: &Program<'_>,
    t: usize,
    instr: &Instr,
    s: &mut State,
    domains: &Domains,
    stack: &mut Vec<State>,
) -> Result<Step, ModelError> {
    let pc = s.pc;
    let loc_of = |name: &str| p.loc_index.get(name).copied().unwrap_or(0);
    let domain = |loc: usize| &domains[p.locs[loc].phys];
    // A read branches the state over the values it may return: this state
    // takes the first value, copies resuming at this instruction take the
    // others.
    let take = |s: &mut State, stack: &mut Vec<State>, values: &[i64]| -> Option<i64> {
        if !s.forced.is_empty() {
            let v = s.forced.remove(0);
            s.took.push(v);
            return Some(v);
        }
        let (first, rest) = values.split_first()?;
        for v in rest {
            let mut other = s.clone();
            other.forced = s.took.iter().copied().chain([*v]).collect();
            other.took.clear();
            stack.push(other);
        }
        s.took.push(*first);
        Some(*first)
    };
    match instr {
        Instr::Label(_) => {}
        Instr::Load {
            kind,
            sem,
            scope,
            dst,
            loc,
        } => {
            let l = loc_of(loc);
            let Some(v) = take(s, stack, domain(l)) else {
                return Ok(Step::Stop);
            };
            let e = memory_event(t, pc, Kind::Read, l, v, *sem, *scope, load_proxy(*kind));
            let i = s.push(e)?;
            s.regs.insert(dst.clone(), (v, 1 << i));
        }
        Instr::Store {
            kind,
            sem,
            scope,
            loc,
            value,
        } => {
            let (v, taint) = s.eval(value);
            let e = memory_event(
                t,
                pc,
                Kind::Write,
                loc_of(loc),
                v,
                *sem,
                *scope,
                write_proxy(*kind),
            );
            let i = s.push(e)?;
            s.data(taint, i);
        }
        Instr::Atom {
            kind,
            sem,
            scope,
            op,
            dst,
            loc,
        } => {
            let l = loc_of(loc);
            let Some(old) = take(s, stack, domain(l)) else {
                return Ok(Step::Stop);
            };
            let proxy = write_proxy(*kind);
            let mut r = memory_event(
                t,
                pc,
                Kind::Read,
                l,
                old,
                read_sem(*sem),
                Some(*scope),
                proxy,
            );
            r.rmw = true;
            let ri = s.push(r)?;
            let (new, taint, depends_on_old) = match op {
                AtomOp::Bin(b, o) => {
                    let (v, taint) = s.eval(o);
                    match b.apply(old, v) {
                        Some(n) => (n, taint, true),
                        None => return Ok(Step::Stop),
                    }
                }
                AtomOp::Exch(o) => {
                    let (v, taint) = s.eval(o);
                    (v, taint, false)
                }
                AtomOp::Cas(expected, new) => {
                    let (e, te) = s.eval(expected);
                    let (n, tn) = s.eval(new);
                    (if old == e { n } else { old }, te | tn, true)
                }
            };
            let mut w = memory_event(
                t,
                pc,
                Kind::Write,
                l,
                new,
                write_sem(*sem),
                Some(*scope),
                proxy,
            );
            w.rmw = true;
            let wi = s.push(w)?;
            s.trace.rmw.push((ri, wi));
            s.data(taint, wi);
            if depends_on_old {
                s.trace.deps.push((ri, wi));
            }
            s.regs.insert(dst.clone(), (old, 1 << ri));
        }
        Instr::Red {
            kind,
            sem,
            scope,
            op,
            loc,
            value,
        } => {
            let l = loc_of(loc);
            let Some(old) = take(s, stack, domain(l)) else {
                return Ok(Step::Stop);
            };
            let proxy = write_proxy(*kind);
            let mut r = memory_event(
                t,
                pc,
                Kind::Read,
                l,
                old,
                read_sem(*sem),
                Some(*scope),
                proxy,
            );
            r.rmw = true;
            let ri = s.push(r)?;
            let (v, taint) = s.eval(value);
            let Some(new) = op.apply(old, v) else {
                return Ok(Step::Stop);
            };
            let mut w = memory_event(
                t,
                pc,
                Kind::Write,
                l,
                new,
                write_sem(*sem),
                Some(*scope),
                proxy,
            );
            w.rmw = true;
            let wi = s.push(w)?;
            s.trace.rmw.push((ri, wi));
            s.data(taint, wi);
            s.trace.deps.push((ri, wi));
        }
        Instr::Local { op, dst, a, b } => {
            let (va, ta) = s.eval(a);
            let (v, taint) = match (op, b) {
                (Some(op), Some(b)) => {
                    let (vb, tb) = s.eval(b);
                    match op.apply(va, vb) {
                        Some(v) => (v, ta | tb),
                        None => return Ok(Step::Stop),
                    }
                }
                _ => (va, ta),
            };
            s.regs.insert(dst.clone(), (v, taint));
        }
        Instr::Fence { sem, scope } => {
            let e = Event {
                sem: *sem,
                scope: Some(*scope),
                proxy: Some(Proxy::Generic),
                ..ev(t, pc, Kind::MemoryFence)
            };
            s.push(e)?;
        }
        Instr::ProxyFence(k) => {
            let (kind, proxy) = match k {
                ProxyFence::Alias => (Kind::AliasFence, None),
                ProxyFence::Proxy(a) => (
                    Kind::ProxyFence {
                        space: None,
                        direction: None,
                        range: None,
                    },
                    Some(match a {
                        ptx_litmus::AliasProxy::Generic => Proxy::Generic,
                        ptx_litmus::AliasProxy::Texture => Proxy::Texture,
                        ptx_litmus::AliasProxy::Surface => Proxy::Surface,
                        ptx_litmus::AliasProxy::Constant => Proxy::Constant,
                    }),
                ),
                ProxyFence::Async(space) => (
                    Kind::ProxyFence {
                        space: *space,
                        direction: None,
                        range: None,
                    },
                    Some(Proxy::Async),
                ),
                ProxyFence::AsyncGeneric { release, space } => (
                    Kind::ProxyFence {
                        space: Some(*space),
                        direction: Some(if *release {
                            Direction::Release
                        } else {
                            Direction::Acquire
                        }),
                        range: None,
                    },
                    Some(Proxy::Async),
                ),
                ProxyFence::MbarrierInit => (Kind::MbarrierInitFence, Some(Proxy::Generic)),
            };
            let init_fence = kind == Kind::MbarrierInitFence;
            s.push(Event {
                proxy,
                ..if init_fence {
                    barrier_ev(t, pc, kind, Sem::Release, Scope::Cluster)
                } else {
                    ev(t, pc, kind)
                }
            })?;
        }
        Instr::Barrier {
            arrive,
            instance,
            id,
            quorum,
        } => {
            let b = Barrier {
                arrive: *arrive,
                instance: *instance,
                id: id.as_ref().map(|o| s.eval(o).0),
                id_literal: matches!(id, Some(Operand::Imm(_))),
                quorum: quorum.as_ref().map(|o| s.eval(o).0),
            };
            s.push(ev(t, pc, Kind::Barrier(b)))?;
        }
        Instr::ClusterArrive { sem } => {
            s.push(barrier_ev(t, pc, Kind::ClusterArrive, *sem, Scope::Cluster))?;
        }
        Instr::ClusterWait => {
            s.push(barrier_ev(
                t,
                pc,
                Kind::ClusterWait,
                Sem::Acquire,
                Scope::Cluster,
            ))?;
        }
        Instr::Branch { cond, a, b, target } => {
            let (va, ta) = s.eval(a);
            let (vb, tb) = s.eval(b);
            s.ctrl |= ta | tb;
            if cond.holds(va, vb) {
                return Ok(Step::Jump(label(p, t, target)?));
            }
        }
        Instr::Goto(target) => return Ok(Step::Jump(label(p, t, target)?)),
        Instr::CpAsync { dst, src, .. } => {
            let (d, sl) = (loc_of(dst), loc_of(src));
            let Some(v) = take(s, stack, domain(sl)) else {
                return Ok(Step::Stop);
            };
            let (r, w) = async_copy(s, t, pc, sl, d, v, Proxy::Generic)?;
            s.cp_pending.push(vec![r, w]);
            s.cp_all.extend([r, w]);
            s.trace.copies.push(CopyOps {
                reads: vec![r],
                writes: vec![w],
            });
        }
        Instr::CpAsyncCommit => commit_cp(s),
        Instr::CpAsyncWaitAll => {
            commit_cp(s);
            wait_cp(s, t, pc, 0)?;
        }
        Instr::CpAsyncWaitGroup(n) => wait_cp(s, t, pc, *n)?,
        Instr::CpAsyncBulk {
            completion,
            dst,
            src,
            size,
            ..
        } => {
            let sl = loc_of(src);
            let Some(v) = take(s, stack, domain(sl)) else {
                return Ok(Step::Stop);
            };
            let r = async_read(s, t, pc, sl, v)?;
            let dsts: Vec<usize> = dst.iter().map(|d| loc_of(d)).collect();
            bulk_writes(p, s, t, pc, completion, *size, vec![r], v, &dsts)?;
        }
        Instr::CpAsyncBulkTensor {
            dst_space,
            completion,
            tensor,
            shared,
            size,
            ..
        } => {
            // The map is read first ("Optionally, reading from the
            // tensormap. Reading data from the source location(s).", PTX ISA
            // 9.7.9.25); its value picks the tensor. Both values are chosen
            // before any event is recorded.
            let ml = loc_of(&tensor.map);
            let Some(mv) = take(s, stack, domain(ml)) else {
                return Ok(Step::Stop);
            };
            // A map naming no tensor of the test: no execution here.
            let Some(tl) = usize::try_from(mv)
                .ok()
                .and_then(|i| tensor.tensors.get(i))
                .map(|n| loc_of(n))
            else {
                return Ok(Step::Stop);
            };
            let load = dst_space != "global";
            let sl = if load { tl } else { loc_of(&shared[0]) };
            let Some(v) = take(s, stack, domain(sl)) else {
                return Ok(Step::Stop);
            };
            let map_read =
                memory_event(t, pc, Kind::Read, ml, mv, Sem::Weak, None, Proxy::Tensormap);
            let mr = s.push_async(map_read, None)?;
            let r = async_read(s, t, pc, sl, v)?;
            // The source is read through the map: an address dependency.
            s.trace.deps.push((mr, r));
            s.trace.aso.push((mr, r));
            let dsts: Vec<usize> = if load {
                shared.iter().map(|d| loc_of(d)).collect()
            } else {
                vec![tl]
            };
            bulk_writes(p, s, t, pc, completion, *size, vec![mr, r], v, &dsts)?;
        }
        Instr::TensormapReplace { map, value, .. } => {
            // "`tensormap.replace` is treated as a weak memory operation, on
            // the entire 1024-bit opaque tensor-map object" (PTX ISA
            // 9.7.9.26): a weak generic write of the map's one value.
            let (v, taint) = s.eval(value);
            let e = memory_event(
                t,
                pc,
                Kind::Write,
                loc_of(map),
                v,
                Sem::Weak,
                None,
                Proxy::Generic,
            );
            let i = s.push(e)?;
            s.data(taint, i);
        }
        Instr::TensormapFence { sem, scope, addr } => {
            // Uni-directional from the generic to the tensormap proxy, with
            // `.release`/`.acquire` semantics at `scope` (PTX ISA 9.7.13.4).
            let kind = Kind::ProxyFence {
                space: None,
                direction: Some(Direction::Release),
                range: addr.as_ref().map(|a| loc_of(a)),
            };
            s.push(Event {
                sem: *sem,
                scope: Some(*scope),
                proxy: Some(Proxy::Tensormap),
                ..ev(t, pc, kind)
            })?;
        }
        Instr::CpReduceAsyncBulk {
            completion,
            op,
            dst,
            src,
            size,
            ..
        } => {
            let (d, sl) = (loc_of(dst), loc_of(src));
            let Some(v) = take(s, stack, domain(sl)) else {
                return Ok(Step::Stop);
            };
            // Both values are chosen before any event is recorded, so that
            // a state forked at the second resumes this instruction afresh.
            let Some(old) = take(s, stack, domain(d)) else {
                return Ok(Step::Stop);
            };
            let r = async_read(s, t, pc, sl, v)?;
            let Some(new) = op.apply(old, v) else {
                return Ok(Step::Stop);
            };
            // "Each reduction operation performed by the cp.reduce.async.bulk
            // has individually .relaxed.gpu memory ordering semantics."
            let place = p.owner_place(d, t as u32);
            let relaxed_gpu = |kind, value| {
                let mut e = memory_event(
                    t,
                    pc,
                    kind,
                    d,
                    value,
                    Sem::Relaxed,
                    Some(Scope::Gpu),
                    Proxy::Async,
                );
                e.rmw = true;
                e
            };
            let rdi = s.push_async(relaxed_gpu(Kind::Read, old), place)?;
            let wi = s.push_async(relaxed_gpu(Kind::Write, new), place)?;
            s.trace.rmw.push((rdi, wi));
            s.trace.deps.extend([(r, wi), (rdi, wi)]);
            s.trace.aso.extend([(r, wi), (rdi, wi)]);
            let c = bulk_completion(s, t, pc, &[r, rdi, wi])?;
            match completion {
                BulkCompletion::Mbarrier(ms) => {
                    complete_tx(s, t, pc, p.mbarrier(&ms[0])?, *size, c)?;
                }
                BulkCompletion::BulkGroup => s.bulk_pending.push([r, wi, c]),
            }
            s.trace.copies.push(CopyOps {
                reads: vec![r],
                writes: vec![wi],
            });
        }
        Instr::CpAsyncMbarrierArrive { noinc, mbar } => {
            let m = p.mbarrier(mbar)?;
            let mut increment = None;
            if !noinc {
                // Without `.noinc` the pending count grows by one before the
                // asynchronous arrive-on (PTX ISA 9.7.13.15, cp.async.mbarrier.arrive).
                increment = Some(s.push(barrier_ev(
                    t,
                    pc,
                    Kind::MbarrierArrive {
                        mbar: m,
                        tx: 0,
                        count: -1,
                    },
                    Sem::Relaxed,
                    Scope::Cta,
                ))?);
            }
            // The arrive-on is ordered after the memory operations of the
            // thread's prior cp.async operations and nothing else (PTX ISA
            // 8.9.1.1); that it releases them at CTA scope is our reading.
            let mut a = barrier_ev(
                t,
                pc,
                Kind::MbarrierArrive {
                    mbar: m,
                    tx: 0,
                    count: 1,
                },
                Sem::Release,
                Scope::Cta,
            );
            a.is_async = true;
            let ai = s.push(a)?;
            for &e in s.cp_all.iter().chain(&increment) {
                s.trace.aso.push((e, ai));
            }
        }
        Instr::MbarrierInit { mbar, count } => {
            s.push(barrier_ev(
                t,
                pc,
                Kind::MbarrierInit {
                    mbar: p.mbarrier(mbar)?,
                    count: *count,
                },
                Sem::Weak,
                Scope::Cta,
            ))?;
        }
        Instr::CpAsyncBulkCommit => {
            let ops = std::mem::take(&mut s.bulk_pending);
            s.bulk_groups.push(ops);
        }
        Instr::CpAsyncBulkWaitGroup { read, n } => {
            let wait = s.push(ev(t, pc, Kind::AsyncWait))?;
            let keep = (*n as usize).min(s.bulk_groups.len());
            let complete = s.bulk_groups.len() - keep;
            for op in s.bulk_groups[..complete].iter().flatten() {
                // `.read`: only the reads of the source have completed.
                let from = if *read { op[0] } else { op[2] };
                s.trace.aso.push((from, wait));
            }
        }
        Instr::StAsync { dst, value, mbar } => {
            let (v, taint) = s.eval(value);
            let d = loc_of(dst);
            let w = memory_event(t, pc, Kind::Write, d, v, Sem::Weak, None, Proxy::Generic);
            let wi = s.push_async(w, p.owner_place(d, t as u32))?;
            s.data(taint, wi);
            complete_tx(s, t, pc, p.mbarrier(mbar)?, 4, wi)?;
        }
        Instr::MbarrierArrive {
            sem,
            scope,
            mbar,
            expect_tx,
        } => {
            let kind = Kind::MbarrierArrive {
                mbar: p.mbarrier(mbar)?,
                tx: expect_tx.unwrap_or(0),
                count: 1,
            };
            s.push(barrier_ev(t, pc, kind, *sem, *scope))?;
        }
        Instr::MbarrierTestWait {
            sem,
            scope,
            dst,
            mbar,
            parity,
            ..
        } => {
            let Some(v) = take(s, stack, &[1, 0]) else {
                return Ok(Step::Stop);
            };
            let kind = Kind::MbarrierWait {
                mbar: p.mbarrier(mbar)?,
                done: v == 1,
                parity: *parity,
            };
            s.push(Event {
                value: v,
                ..barrier_ev(t, pc, kind, *sem, *scope)
            })?;
            s.regs.insert(dst.clone(), (v, 0));
        }
    }
    Ok(Step::Next)
}

fn label(p: &Program<'_>, t: usize, name: &str) -> Result<usize, ModelError> {
    p.labels[t]
        .get(name)
        .copied()
        .ok_or_else(|| ModelError::UnknownLabel(name.to_string()))
}

/// The read of `src` and the write of `dst` of an asynchronous copy, both
/// weak, in `proxy`, ordered after the thread's earlier instructions.
fn async_copy(
    s: &mut State,
    t: usize,
    pc: usize,
    src: usize,
    dst: usize,
    v: i64,
    proxy: Proxy,
) -> Result<(usize, usize), ModelError> {
    let r = memory_event(t, pc, Kind::Read, src, v, Sem::Weak, None, proxy);
    let ri = s.push_async(r, None)?;
    let w = memory_event(t, pc, Kind::Write, dst, v, Sem::Weak, None, proxy);
    let wi = s.push_async(w, None)?;
    s.trace.deps.push((ri, wi));
    s.trace.aso.push((ri, wi));
    Ok((ri, wi))
}

/// The writes of a bulk copy whose last read (of its source) returned `v`:
/// one write, completion and complete-tx per destination (several with
/// `.multicast::cluster`). `reads` are the copy's reads, its source read
/// last.
#[allow(clippy::too_many_arguments)]
fn bulk_writes(
    p: &Program<'_>,
    s: &mut State,
    t: usize,
    pc: usize,
    completion: &BulkCompletion,
    size: i64,
    reads: Vec<usize>,
    v: i64,
    dsts: &[usize],
) -> Result<(), ModelError> {
    let Some(&r) = reads.last() else {
        return Ok(());
    };
    let mut copy = CopyOps {
        reads,
        writes: Vec::new(),
    };
    for (k, &d) in dsts.iter().enumerate() {
        let w = memory_event(t, pc, Kind::Write, d, v, Sem::Weak, None, Proxy::Async);
        let wi = s.push_async(w, p.owner_place(d, t as u32))?;
        s.trace.deps.push((r, wi));
        s.trace.aso.push((r, wi));
        copy.writes.push(wi);
        let c = bulk_completion(s, t, pc, &[r, wi])?;
        match completion {
            BulkCompletion::Mbarrier(ms) => {
                complete_tx(s, t, pc, p.mbarrier(&ms[k])?, size, c)?;
            }
            BulkCompletion::BulkGroup => s.bulk_pending.push([r, wi, c]),
        }
    }
    s.trace.copies.push(copy);
    Ok(())
}

/// The weak async-proxy read of a bulk copy's source.
fn async_read(s: &mut State, t: usize, pc: usize, src: usize, v: i64) -> Result<usize, ModelError> {
    let r = memory_event(t, pc, Kind::Read, src, v, Sem::Weak, None, Proxy::Async);
    s.push_async(r, None)
}

/// The completion of a bulk copy, with its implicit generic-async proxy
/// fence (PTX ISA 9.7.9.25.2), after the copy's memory operations `ops`.
fn bulk_completion(s: &mut State, t: usize, pc: usize, ops: &[usize]) -> Result<usize, ModelError> {
    // Performed where the copy writes: in another CTA for a copy into its
    // shared memory.
    let place = ops.last().and_then(|&w| s.trace.events[w].place);
    let c = s.push(Event {
        is_async: true,
        proxy: Some(Proxy::Async),
        place,
        ..ev(t, pc, Kind::BulkCompletion)
    })?;
    for &o in ops {
        s.trace.aso.push((o, c));
    }
    Ok(c)
}

/// The complete-tx an asynchronous operation performs on an mbarrier when it
/// completes: `.release` at `.cluster` scope (PTX ISA 9.7.9.12,
/// 9.7.9.25.4.1), and "ordered only with respect to the memory operations
/// performed by the same asynchronous instruction" (PTX ISA 8.9.1.1): it
/// follows `after` and is not issue-ordered after the thread's earlier
/// instructions.
fn complete_tx(
    s: &mut State,
    t: usize,
    pc: usize,
    mbar: usize,
    bytes: i64,
    after: usize,
) -> Result<(), ModelError> {
    let mut c = barrier_ev(
        t,
        pc,
        Kind::CompleteTx { mbar, bytes },
        Sem::Release,
        Scope::Cluster,
    );
    c.is_async = true;
    let c = s.push(c)?;
    s.trace.aso.push((after, c));
    Ok(())
}

fn commit_cp(s: &mut State) {
    let ops = std::mem::take(&mut s.cp_pending);
    s.cp_groups.push(ops);
}

/// `cp.async.wait_group n`: all but the `n` most recent groups are complete,
/// so their copies are ordered before the wait (PTX ISA 9.7.9.25.3.3).
fn wait_cp(s: &mut State, t: usize, pc: usize, n: i64) -> Result<(), ModelError> {
    let wait = s.push(ev(t, pc, Kind::AsyncWait))?;
    let keep = (n as usize).min(s.cp_groups.len());
    let complete = s.cp_groups.len() - keep;
    for e in s.cp_groups[..complete].iter().flatten().flatten() {
        s.trace.aso.push((*e, wait));
    }
    Ok(())
}
