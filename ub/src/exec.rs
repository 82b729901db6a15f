//! The symbolic executor: one thread whose place in the launch is a set of
//! Z3 terms, over the instructions `ptx_semantics::sim` decodes.

use std::collections::HashMap;
use std::time::Instant;

use ptx_semantics::precond::table::{MbarOp, TensorWay};
use ptx_semantics::precond::{self, eval_cond, table, Precondition, Var};
use ptx_semantics::ptx::ast::Module;
use ptx_semantics::sim::program::{
    Access, Actual, Addr, AsyncInstr, Call, Callee, Formal, MbarKind, Op, Policy, Program, Src,
    Sreg, TensorDir,
};
use ptx_semantics::sim::{self, Effect, Space, WindowProfile};
use ptx_semantics::tensor::MapText;
use z3::ast::{Ast, Bool, Dynamic, BV};
use z3::{Model, Params, SatResult, Solver};

use crate::alu::{self, low, mask64, widen, zext64};
use crate::origin;
use crate::slice::Slicer;
use crate::z3dom::{lit, Terms, Z3};
use crate::{Analysis, Dependence, Error, Finding, Open, Options, Turns, Verdict, Witness};

/// The thread: its coordinates and the launch's shape, as terms.
struct Thread {
    tid: [BV; 3],
    ntid: [BV; 3],
    ctaid: [BV; 3],
    nctaid: [BV; 3],
    cluster_ctaid: [BV; 3],
    cluster_nctaid: [BV; 3],
    clusterid: [BV; 3],
    nclusterid: [BV; 3],
    rank: BV,
    nrank: BV,
    lane: BV,
    warp: BV,
}

/// A 32-bit size `1..=bound` (the literal 1 when the bound is 1) and an
/// index below it (the literal 0 then).
fn size_and_index(size: &str, index: &str, bound: u32, c: &mut Vec<Bool>) -> (BV, BV) {
    if bound <= 1 {
        return (BV::from_u64(1, 32), BV::from_u64(0, 32));
    }
    let n = BV::new_const(size, 32);
    let i = BV::new_const(index, 32);
    c.push(n.bvuge(BV::from_u64(1, 32)));
    c.push(n.bvule(BV::from_u64(u64::from(bound), 32)));
    c.push(i.bvult(&n));
    (n, i)
}

/// `a * b` in 32 bits, with a constraint that it does not wrap.
fn mul32(a: &BV, b: &BV, c: &mut Vec<Bool>) -> BV {
    c.push(a.bvmul_no_overflow(b, false));
    a.bvmul(b)
}

impl Thread {
    /// The terms and the constraints that tie them to the bounds (and to
    /// each other, as the simulator lays clusters out). Terms are 32 bits
    /// wide (zero-extended where they are read); a dimension whose bound
    /// is 1 is the literal 1, its index 0.
    fn new(opts: &Options, fixed_cluster: Option<[u32; 3]>) -> (Thread, Vec<Bool>) {
        let b = &opts.bounds;
        let mut c = Vec::new();
        let axes = ["x", "y", "z"];
        let mut tid = Vec::new();
        let mut ntid = Vec::new();
        let mut cl = Vec::new();
        let mut ncl = Vec::new();
        let mut cid = Vec::new();
        let mut ncid = Vec::new();
        let mut ctaid = Vec::new();
        let mut nctaid = Vec::new();
        for (k, a) in axes.iter().enumerate() {
            let (n, i) = size_and_index(
                &format!("%ntid.{a}"),
                &format!("%tid.{a}"),
                b.block[k],
                &mut c,
            );
            ntid.push(n);
            tid.push(i);
            let (n, i) = match fixed_cluster {
                Some(d) => {
                    let n = BV::from_u64(u64::from(d[k].max(1)), 32);
                    let i = if d[k] <= 1 {
                        BV::from_u64(0, 32)
                    } else {
                        let i = BV::new_const(format!("%cluster_ctaid.{a}"), 32);
                        c.push(i.bvult(&n));
                        i
                    };
                    (n, i)
                }
                None => size_and_index(
                    &format!("%cluster_nctaid.{a}"),
                    &format!("%cluster_ctaid.{a}"),
                    b.cluster[k].min(b.grid[k]),
                    &mut c,
                ),
            };
            let (gn, gi) = size_and_index(
                &format!("%nclusterid.{a}"),
                &format!("%clusterid.{a}"),
                b.grid[k],
                &mut c,
            );
            let n_cta = mul32(&gn, &n, &mut c);
            c.push(n_cta.bvule(BV::from_u64(u64::from(b.grid[k].max(1)), 32)));
            let cta = mul32(&gi, &n, &mut c).bvadd(&i);
            ctaid.push(cta);
            nctaid.push(n_cta);
            cl.push(i);
            ncl.push(n);
            cid.push(gi);
            ncid.push(gn);
        }
        let threads = mul32(&mul32(&ntid[0], &ntid[1], &mut c), &ntid[2], &mut c);
        c.push(threads.bvule(BV::from_u64(1024, 32)));
        let linear = tid[0].bvadd(
            tid[1]
                .bvmul(&ntid[0])
                .bvadd(tid[2].bvmul(ntid[0].bvmul(&ntid[1]))),
        );
        let nrank = ncl[0].bvmul(&ncl[1]).bvmul(&ncl[2]);
        let rank = cl[0].bvadd(
            cl[1]
                .bvmul(&ncl[0])
                .bvadd(cl[2].bvmul(ncl[0].bvmul(&ncl[1]))),
        );
        let wide = |v: Vec<BV>| -> [BV; 3] {
            let w: Vec<BV> = v.iter().map(zext64).collect();
            [w[0].clone(), w[1].clone(), w[2].clone()]
        };
        let t = Thread {
            tid: wide(tid),
            ntid: wide(ntid),
            ctaid: wide(ctaid),
            nctaid: wide(nctaid),
            cluster_ctaid: wide(cl),
            cluster_nctaid: wide(ncl),
            clusterid: wide(cid),
            nclusterid: wide(ncid),
            rank: zext64(&rank),
            nrank: zext64(&nrank),
            lane: zext64(&linear.extract(4, 0)),
            warp: zext64(&linear.bvlshr(BV::from_u64(5, 32))),
        };
        (t, c)
    }

    /// A special register's value; those the search does not model are
    /// fresh values named after `tag`.
    fn sreg(&self, s: Sreg, tag: &str) -> BV {
        let k = |a: u8| usize::from(a.min(2));
        match s {
            Sreg::Tid(a) => self.tid[k(a)].clone(),
            Sreg::Ntid(a) => self.ntid[k(a)].clone(),
            Sreg::Ctaid(a) => self.ctaid[k(a)].clone(),
            Sreg::Nctaid(a) => self.nctaid[k(a)].clone(),
            Sreg::ClusterCtaid(a) => self.cluster_ctaid[k(a)].clone(),
            Sreg::ClusterNctaid(a) => self.cluster_nctaid[k(a)].clone(),
            Sreg::Clusterid(a) => self.clusterid[k(a)].clone(),
            Sreg::Nclusterid(a) => self.nclusterid[k(a)].clone(),
            Sreg::ClusterCtarank => self.rank.clone(),
            Sreg::ClusterNctarank => self.nrank.clone(),
            Sreg::Laneid => self.lane.clone(),
            Sreg::Warpid => self.warp.clone(),
            Sreg::LanemaskEq => lit(1).bvshl(&self.lane),
            Sreg::LanemaskLt => lit(1).bvshl(&self.lane).bvsub(lit(1)),
            Sreg::LanemaskLe => lit(2).bvshl(&self.lane).bvsub(lit(1)),
            Sreg::LanemaskGe => mask64(&lit(1).bvshl(&self.lane).bvsub(lit(1)).bvnot(), 32),
            Sreg::LanemaskGt => mask64(&lit(2).bvshl(&self.lane).bvsub(lit(1)).bvnot(), 32),
            _ => BV::fresh_const(tag, 64),
        }
    }
}

/// A path: where it is, its registers, what it assumed, what it loaded.
#[derive(Clone)]
struct Path {
    pc: usize,
    regs: Vec<BV>,
    cond: Vec<Bool>,
    visits: HashMap<usize, u32>,
    /// Global loads: the path condition when loaded, address, bytes,
    /// value.
    loads: Vec<(Bool, BV, u8, BV)>,
    /// The carry flag `CC.CF` (1 bit; PTX ISA 9.7.2); `None` until a `.cc`
    /// instruction writes it (the simulator leaves it unspecified: a read
    /// gives a fresh value named after the reader).
    carry: Option<BV>,
    /// The `.param::func` bytes written at known offsets of the thread's
    /// frame (a call's arguments and return values): offset, bytes, value
    /// (zero-extended to 64 bits). What is not here reads as unknown.
    params: Vec<(u64, u8, BV)>,
    /// The calls the path is inside, innermost last.
    frames: Vec<Frame>,
}

/// A call the path is inside: where to return, what the callee's
/// activation replaced (its registers and `.param` bytes, restored on
/// return, so a recursive call has values of its own, as the simulator's
/// frames do), and the caller's loop turns.
#[derive(Clone)]
struct Frame {
    call_pc: usize,
    func: usize,
    regs: Vec<BV>,
    params: Vec<(u64, u8, BV)>,
    visits: HashMap<usize, u32>,
}

/// One precondition at one instruction, over all paths so far.
struct Acc {
    witness: Option<Witness>,
    unknown: Option<String>,
}

struct Search<'p> {
    prog: &'p Program,
    profile: WindowProfile,
    opts: &'p Options,
    solver: Solver,
    thread: Thread,
    params: Vec<BV>,
    found: HashMap<(usize, &'static str), Acc>,
    queries: usize,
    slicer: Slicer,
    /// [`float_ops`] of the terms seen so far.
    float_ops: HashMap<Dynamic, u32>,
    start: Instant,
    /// The solver's timeout now (the per-query timeout, or less when less
    /// of the budget is left).
    timeout_now: u32,
    /// Where the search stopped at a limit, if it did: what open paths can
    /// still reach and has no witness is unknown.
    stop: Option<Stop>,
    /// Paths stopped at the bound on nested activations of one function
    /// (`Options::recursion`), counted with those cut at the unroll bound.
    calls_cut: usize,
    /// The instructions met whose results the search does not interpret.
    unread: std::rc::Rc<std::cell::RefCell<std::collections::BTreeSet<usize>>>,
}

/// The search stopped before every path was explored.
struct Stop {
    /// Which limit: "its time budget (--budget-ms 2000)"...
    why: String,
    /// The open paths: where each was, and the loops it was in with their
    /// turns so far.
    open: Vec<(usize, Vec<(usize, u32)>)>,
}

/// The parameters of kernel `kernel` that can hold a tensor map (128
/// bytes), by name, for `Options::tensor_maps`.
pub fn tensor_map_params(module: &Module, kernel: &str) -> Result<Vec<String>, Error> {
    let prog = sim::prepare_lenient(module, kernel, &WindowProfile::SM90).map_err(Error::Load)?;
    Ok(prog
        .params
        .iter()
        .filter(|p| p.size == 128)
        .map(|p| p.name.clone())
        .collect())
}

/// Runs kernel `kernel` of `module` symbolically and answers every
/// precondition of every instruction.
pub fn analyse(module: &Module, kernel: &str, opts: &Options) -> Result<Analysis, Error> {
    let start = Instant::now();
    let profile = WindowProfile::SM90;
    let prog = sim::prepare_lenient(module, kernel, &profile).map_err(Error::Load)?;
    let solver = Solver::new();
    let mut params = Params::new();
    params.set_u32("timeout", opts.timeout_ms);
    solver.set_params(&params);
    let mut slicer = Slicer::default();
    let (thread, constraints) = Thread::new(opts, prog.cluster_dims);
    for c in &constraints {
        solver.assert(c);
        slicer.fix(c);
    }
    let mut vals = Vec::new();
    let mut prev: Option<BV> = None;
    // buffers begin past the module's global variables, which the
    // simulator (and so the replay) places from the start of the heap
    let heap = prog
        .globals_end()
        .map_or(0, |end| end.div_ceil(256) * 256)
        .max(profile.global_heap);
    for p in &prog.params {
        let bits = (p.size.max(1) * 8) as u32;
        let v = BV::new_const(format!("param.{}", p.name), bits);
        if opts.pointer_params && p.size == 8 {
            let mut placed = vec![
                v.bvuge(lit(heap)),
                v.bvult(lit(heap + (1 << 39))),
                v.extract(7, 0).eq(BV::from_u64(0, 8)),
            ];
            if let Some(q) = &prev {
                placed.push(v.bvuge(q.bvadd(lit(Options::BUFFER))));
            }
            for c in &placed {
                solver.assert(c);
                slicer.fix(c);
            }
            prev = Some(v.clone());
        }
        vals.push(v);
    }
    let mut s = Search {
        prog: &prog,
        profile,
        opts,
        solver,
        thread,
        params: vals,
        found: HashMap::new(),
        queries: 0,
        slicer,
        float_ops: HashMap::new(),
        start,
        timeout_now: opts.timeout_ms,
        stop: None,
        calls_cut: 0,
        unread: Default::default(),
    };
    let mut work = vec![Path {
        pc: 0,
        regs: vec![lit(0); prog.slots() as usize],
        cond: Vec::new(),
        visits: HashMap::new(),
        loads: Vec::new(),
        carry: None,
        params: Vec::new(),
        frames: Vec::new(),
    }];
    let flow = crate::flow::Flow::new(prog.code());
    let (mut paths, mut cut) = (0usize, 0usize);
    // Paths advance in the flow's order (earlier turns of a loop first,
    // then earlier instructions); paths that meet at an instruction (with
    // the same loop counts) merge into one whose registers are
    // if-then-else terms, so a chain of branches costs one path, not one
    // per combination, and a loop's turn one path, not one per way round.
    while !work.is_empty() {
        let why = if work.len() > opts.max_paths {
            Some(format!("its limit of {} live paths", opts.max_paths))
        } else if start.elapsed().as_millis() >= u128::from(opts.budget_ms) {
            Some(format!("its time budget (--budget-ms {})", opts.budget_ms))
        } else {
            None
        };
        if let Some(why) = why {
            let open = work
                .iter()
                .map(|p| {
                    // outer loops come before those nested in them
                    let mut ids: Vec<(usize, u32)> =
                        p.visits.iter().map(|(l, n)| (*l, *n)).collect();
                    ids.sort_unstable();
                    let loops = ids
                        .into_iter()
                        .map(|(l, n)| (flow.loops[l].header, n))
                        .collect();
                    (p.pc, loops)
                })
                .collect();
            s.stop = Some(Stop { why, open });
            break;
        }
        let first = (0..work.len())
            .min_by_key(|&i| flow.rank(work[i].pc, &work[i].visits))
            .unwrap_or(0);
        let mut path = work.swap_remove(first);
        let mut k = 0;
        while k < work.len() {
            if work[k].pc == path.pc && work[k].visits == path.visits && same_calls(&work[k], &path)
            {
                let other = work.swap_remove(k);
                path = merge(path, other);
            } else {
                k += 1;
            }
        }
        let from = path.pc;
        let next = match s.step(&mut path) {
            Next::Go => vec![path],
            Next::End => {
                paths += 1;
                vec![]
            }
            Next::Fork(other) => vec![path, *other],
            Next::Forks(others) => std::iter::once(path).chain(others).collect(),
            Next::Cut => {
                cut += 1;
                vec![]
            }
        };
        for mut p in next {
            match s.turn(&flow, from, &mut p) {
                Turn::Go => work.push(p),
                Turn::Cut => cut += 1,
            }
        }
    }
    let findings = s.findings(&flow);
    let unread = s.unread.borrow().len();
    let opaque = prog
        .code()
        .iter()
        .filter(|i| matches!(i.op, Op::Opaque { .. }))
        .count();
    Ok(Analysis {
        kernel: kernel.to_string(),
        findings,
        paths,
        unroll_cut: cut + s.calls_cut,
        path_limit_hit: s.stop.is_some(),
        stopped: s.stop.as_ref().map(|st| st.why.clone()),
        queries: s.queries,
        solve_ms: start.elapsed().as_secs_f64() * 1e3,
        opaque,
        unread,
    })
}

enum Next {
    Go,
    End,
    Fork(Box<Path>),
    /// Several more paths (an indirect call's possible callees).
    Forks(Vec<Path>),
    /// The path stops at the bound on nested calls of one function (as a
    /// loop's turns stop at the unroll bound).
    Cut,
}

/// The preconditions an instruction must meet, in the simulator's order,
/// with the terms of their vars.
fn preconditions_of(s: &Search, path: &Path, op: &Op) -> Vec<(&'static Precondition, Terms)> {
    let base = s.base_terms();
    let mut out: Vec<(&'static Precondition, Terms)> = Vec::new();
    match op {
        Op::Ld(acc) | Op::St(acc) => {
            let n = u64::from(acc.size) * acc.regs.len() as u64;
            let t = base
                .with(Var::Addr, s.address(path, acc.addr))
                .with(Var::Size, lit(n.next_power_of_two()));
            out.push((&table::ALIGNED, t.clone()));
            if acc.space == Space::ParamEntry {
                let t = t.clone().with(Var::Size, lit(n));
                out.push((&table::LD_PARAM_ENTRY, t));
            }
            if let (Some(pre), Space::Generic) = (acc.global_only, acc.space) {
                out.push((pre, t));
            }
        }
        Op::Cvta { a, space, to, .. } => {
            if let Some(pre) = table::cvta(*space, *to) {
                out.push((pre, base.with(Var::A, s.value(path, *a))));
            }
        }
        Op::Mapa { a, b, generic, .. } => {
            let t = base
                .with(Var::A, s.value(path, *a))
                .with(Var::B, mask64(&s.value(path, *b), 32));
            for pre in table::mapa(*generic) {
                out.push((pre, t.clone()));
            }
        }
        Op::Getctarank { a, generic, .. } => {
            out.push((
                table::getctarank(*generic),
                base.with(Var::A, s.value(path, *a)),
            ));
        }
        Op::Shfl { mask: Some(m), .. } => {
            let t = base
                .with(Var::Mask, mask64(&s.value(path, *m), 32))
                .with(Var::Lane, s.thread.lane.clone());
            out.push((&table::SHFL_MEMBER, t));
        }
        Op::CpAsync {
            dst,
            src,
            cp_size,
            src_size,
            ignore_src,
        } => {
            let cp = lit(u64::from(*cp_size));
            let n = match src_size {
                Some(x) => mask64(&s.value(path, *x), 32),
                None => cp.clone(),
            };
            let t = base
                .with(Var::Addr, s.address(path, *dst))
                .with(Var::Addr2, s.address(path, *src))
                .with(Var::CpSize, cp)
                .with(Var::SrcSize, n);
            for pre in table::cp_async(ignore_src.is_some()) {
                out.push((pre, t.clone()));
            }
        }
        Op::CacheRange {
            addr,
            space,
            size,
            discard,
        } => {
            let t = base
                .with(Var::Addr, s.address(path, *addr))
                .with(Var::Size, lit(*size));
            for pre in table::cache_range(*discard, *space == Space::Generic) {
                out.push((pre, t.clone()));
            }
        }
        Op::Createpolicy { policy, .. } => match policy {
            Policy::Range {
                addr,
                space,
                primary,
                total,
            } => {
                let t = base
                    .with(Var::Addr, s.address(path, *addr))
                    .with(Var::A, mask64(&s.value(path, *primary), 32))
                    .with(Var::B, mask64(&s.value(path, *total), 32));
                if *space == Space::Generic {
                    out.push((&table::POLICY_GLOBAL, t.clone()));
                }
                out.push((&table::POLICY_SIZES, t));
            }
            Policy::Fractional(Some(f)) => {
                let t = base.with(Var::A, mask64(&s.value(path, *f), 32));
                out.push((&table::POLICY_FRACTION, t));
            }
            _ => {}
        },
        // every element of a vector form together, as the simulator
        // checks it (`sim/machine/exec.rs`, `multimem`)
        Op::Multimem { ty, addr, regs, .. } => {
            let n = u64::from(ty.bits / 8) * regs.len().max(1) as u64;
            let t = base
                .with(Var::Addr, s.address(path, *addr))
                .with(Var::Size, lit(n));
            out.push((&table::ALIGNED, t));
        }
        Op::Async(a) => async_preconditions(s, path, a, base, &mut out),
        Op::Atom(a) => {
            let t = base
                .with(Var::Addr, s.address(path, a.acc.addr))
                .with(Var::Size, lit(a.bytes().next_power_of_two()));
            let generic = a.acc.space == Space::Generic;
            let hint = a.acc.global_only.is_some();
            let pres = if a.is_vector() {
                table::atom_vector(!a.returns, generic, hint)
            } else {
                table::atom(!a.returns, generic, hint)
            };
            for pre in pres {
                out.push((pre, t.clone()));
            }
        }
        Op::Warp { op, mask, .. } => {
            let t = base
                .with(Var::Mask, mask64(&s.value(path, *mask), 32))
                .with(Var::Lane, s.thread.lane.clone());
            out.push((table::warp_member(*op), t));
        }
        Op::WarpSync { mask } => {
            let t = base
                .with(Var::Mask, mask64(&s.value(path, *mask), 32))
                .with(Var::Lane, s.thread.lane.clone());
            out.push((&table::BAR_WARP_SYNC_MEMBER, t));
        }
        Op::BarSync { id, count } | Op::BarRed { id, count, .. } => {
            let n = count.map_or_else(|| lit(0), |c| s.value(path, c));
            let t = base.with(Var::A, s.value(path, *id)).with(Var::B, n);
            out.push((&table::BAR_OPERANDS, t));
        }
        Op::BarArrive { id, count } => {
            let t = base
                .with(Var::A, s.value(path, *id))
                .with(Var::B, s.value(path, *count));
            out.push((&table::BAR_ARRIVE_OPERANDS, t));
        }
        Op::Arith(a) if a.op == ptx_semantics::sim::arith::Arith::Fns => {
            let b = a.srcs.get(1).map_or_else(|| lit(0), |x| s.value(path, *x));
            out.push((&table::FNS_BASE, base.with(Var::B, mask64(&b, 32))));
        }
        _ => {}
    }
    out
}

/// The preconditions of an asynchronous or mbarrier instruction, in the
/// simulator's order (semantics/src/sim/machine/exec/asynch.rs). Rules on
/// the object's state (initialised, its phase and counts) are not
/// preconditions of one thread's operands: the search cannot ask them.
fn async_preconditions(
    s: &Search,
    path: &Path,
    a: &AsyncInstr,
    base: Terms,
    out: &mut Vec<(&'static Precondition, Terms)>,
) {
    // the mbarrier's address and the 32-bit count, txCount or phaseParity
    let mbar = |addr: &Addr, operand: Option<&Src>| {
        let t = base.clone().with(Var::Mbar, s.address(path, *addr));
        match operand {
            Some(x) => t.with(Var::A, mask64(&s.value(path, *x), 32)),
            None => t,
        }
    };
    let mut all = |pres: Vec<&'static Precondition>, t: &Terms| {
        for p in pres {
            out.push((p, t.clone()));
        }
    };
    match a {
        AsyncInstr::MbarInit { addr, space, count } => {
            all(
                table::mbarrier(MbarOp::Init, *space),
                &mbar(addr, Some(count)),
            );
        }
        AsyncInstr::MbarInval { addr, space } => {
            all(table::mbarrier(MbarOp::Inval, *space), &mbar(addr, None));
        }
        AsyncInstr::MbarUpdate {
            kind,
            addr,
            space,
            count,
            tx,
            ..
        } => {
            let op = match kind {
                MbarKind::Arrive { drop, .. } => MbarOp::Arrive {
                    drop: *drop,
                    count: count.is_some(),
                    tx: tx.is_some(),
                },
                MbarKind::ExpectTx => MbarOp::ExpectTx,
                MbarKind::CompleteTx => MbarOp::CompleteTx,
            };
            all(
                table::mbarrier(op, *space),
                &mbar(addr, tx.as_ref().or(count.as_ref())),
            );
        }
        AsyncInstr::MbarWait {
            addr,
            space,
            token,
            parity,
            ..
        } => {
            let t = mbar(addr, parity.then_some(token));
            all(
                table::mbarrier(MbarOp::Wait { parity: *parity }, *space),
                &t,
            );
        }
        AsyncInstr::CpAsyncArrive { addr, space, .. } => {
            all(
                table::mbarrier(MbarOp::CpAsyncArrive, *space),
                &mbar(addr, None),
            );
        }
        AsyncInstr::Bulk {
            dst,
            dst_space,
            src,
            size,
            mbar: m,
            cta_mask,
            pre,
            ..
        } => {
            let mut t = base
                .clone()
                .with(Var::Addr, s.address(path, *dst))
                .with(Var::Addr2, s.address(path, *src))
                .with(Var::Size, mask64(&s.value(path, *size), 32));
            all(pre.to_vec(), &t);
            if let Some(m) = m {
                t = t.with(Var::Mbar, s.address(path, *m));
                all(table::mbarrier(MbarOp::Bulk, *dst_space), &t);
            }
            if let Some(c) = cta_mask {
                let t = t.with(Var::CtaMask, mask64(&s.value(path, *c), 16));
                all(vec![table::bulk_multicast()], &t);
            }
        }
        AsyncInstr::BulkPrefetch { addr, size } => {
            let t = base
                .clone()
                .with(Var::Addr2, s.address(path, *addr))
                .with(Var::Size, mask64(&s.value(path, *size), 32));
            all(table::for_row("cp.async.bulk.prefetch").to_vec(), &t);
        }
        AsyncInstr::StAsync {
            addr,
            space,
            elem,
            srcs,
            mbar: m,
        } => {
            let n = u64::from(*elem) * srcs.len() as u64;
            let t = base
                .clone()
                .with(Var::Addr, s.address(path, *addr))
                .with(Var::Size, lit(n.next_power_of_two()))
                .with(Var::Mbar, s.address(path, *m));
            all(table::st_async(*space == Space::Generic), &t);
            all(table::mbarrier(MbarOp::StAsync, *space), &t);
            all(vec![&table::ST_ASYNC_SAME_CTA], &t);
        }
        // `red.async` (PTX ISA 9.7.13.7): the rules of `st.async`, in the
        // simulator's order
        AsyncInstr::RedAsync {
            addr,
            space,
            ty,
            mbar: m,
            ..
        } => {
            let n = ptx_semantics::sim::reduce::element_bytes(*ty) as u64;
            let t = base
                .clone()
                .with(Var::Addr, s.address(path, *addr))
                .with(Var::Size, lit(n))
                .with(Var::Mbar, s.address(path, *m));
            all(table::st_async(*space == Space::Generic), &t);
            all(table::mbarrier(MbarOp::StAsync, *space), &t);
            all(vec![&table::ST_ASYNC_SAME_CTA], &t);
        }
        AsyncInstr::StBulk { addr, space, size } => {
            let t = base
                .clone()
                .with(Var::Addr, s.address(path, *addr))
                .with(Var::Size, s.value(path, *size));
            all(table::st_bulk(*space == Space::Generic), &t);
        }
        AsyncInstr::Tensor(t) => {
            // the rules on the operands, then those on the map's fields
            // where the map is one given (table::TENSOR_MAP_RULES: else the
            // simulator checks them)
            let mut terms = base.clone().with(Var::Map, s.address(path, t.map));
            let way = match &t.dir {
                TensorDir::Load { dst, dst_space, .. } => {
                    terms = terms.with(Var::Addr, s.address(path, *dst));
                    TensorWay::Load(*dst_space)
                }
                TensorDir::Store { src, .. } => {
                    terms = terms.with(Var::Addr, s.address(path, *src));
                    TensorWay::Store
                }
                TensorDir::Prefetch => TensorWay::Prefetch,
            };
            all(table::tensor_copy(way), &terms);
            if let Some(p) = table::im2col_offset(t.dim) {
                for o in &t.offsets {
                    let tt = terms.clone().with(Var::A, mask64(&s.value(path, *o), 16));
                    all(vec![p], &tt);
                }
            }
            let coords: Vec<BV> = t.coords.iter().map(|c| s.value(path, *c)).collect();
            let (map_first, map_rest) = crate::tmap::rules(&s.given_maps(), t, &terms, &coords);
            if let TensorDir::Load {
                dst_space,
                mbar: m,
                cta_mask,
                cta_pair,
                ..
            } = &t.dir
            {
                let t = terms.with(Var::Mbar, s.address(path, *m));
                all(table::mbarrier(MbarOp::Bulk, *dst_space), &t);
                all(vec![table::tensor_mbar(*cta_pair)], &t);
                for (p, t) in map_first {
                    all(vec![p], &t);
                }
                if let Some(c) = cta_mask {
                    let t = t.with(Var::CtaMask, mask64(&s.value(path, *c), 16));
                    all(vec![table::bulk_multicast()], &t);
                }
            } else {
                for (p, t) in map_first {
                    all(vec![p], &t);
                }
            }
            for (p, t) in map_rest {
                all(vec![p], &t);
            }
        }
        AsyncInstr::TensormapReplace {
            addr,
            space,
            field,
            value,
            ..
        } => {
            let t = base.clone().with(Var::Addr, s.address(path, *addr));
            all(table::tensormap_replace(*space), &t);
            let f = ptx_semantics::tensor::Field::from_qualifier(field);
            if let Some(p) = f.and_then(table::tensormap_replace_value) {
                let bits = match f.map(|f| f.operand_type()) {
                    Some(ptx_semantics::tensor::OperandType::B64) => 64,
                    _ => 32,
                };
                let t = t.with(Var::A, mask64(&s.value(path, *value), bits));
                all(vec![p], &t);
            }
        }
        AsyncInstr::MbarPendingCount { .. }
        | AsyncInstr::FenceProxyTensormap
        | AsyncInstr::BulkCommit
        | AsyncInstr::BulkWait { .. }
        | AsyncInstr::CpCommit
        | AsyncInstr::CpWait { .. }
        | AsyncInstr::FenceProxyAsync { .. } => {}
    }
}

/// What becomes of a path after a move.
enum Turn {
    Go,
    /// A loop would turn more than the bound allows.
    Cut,
}

impl Search<'_> {
    /// Counts the path's move from `from` to its pc: a move to a loop's
    /// header from inside the loop is a turn of that loop; a loop the path
    /// has left forgets its count (so paths that left a loop after
    /// different numbers of turns merge, and a loop entered again counts
    /// from 0). A path that would turn a loop more than `unroll` times is
    /// cut.
    fn turn(&self, flow: &crate::flow::Flow, from: usize, p: &mut Path) -> Turn {
        let pc = p.pc;
        if !p.visits.is_empty() {
            p.visits.retain(|l, _| flow.loops[*l].contains(pc));
        }
        let Some(l) = flow.loop_at(pc) else {
            return Turn::Go;
        };
        if !flow.loops[l].contains(from) {
            return Turn::Go;
        }
        let n = p.visits.entry(l).or_insert(0);
        *n += 1;
        if *n <= self.opts.unroll {
            return Turn::Go;
        }
        // (the path is not asked whether it can happen: branches fork
        // without asking, so a path past a loop's last possible turn is cut
        // here too)
        Turn::Cut
    }

    /// The tensor maps given for this kernel's parameters, each with the
    /// parameter's generic address.
    fn given_maps(&self) -> Vec<(u64, &MapText)> {
        self.opts
            .tensor_maps
            .iter()
            .filter_map(|g| {
                let p = self.prog.params.iter().find(|p| p.name == g.param)?;
                (p.size == 128).then_some((self.profile.param_base + p.offset, &g.map))
            })
            .collect()
    }

    fn base_terms(&self) -> Terms {
        Terms::default()
            .with(Var::Rank, self.thread.rank.clone())
            .with(Var::ClusterSize, self.thread.nrank.clone())
            .with(Var::ParamBytes, lit(self.prog.param_bytes))
            .with(Var::ConstBytes, lit(self.prog.const_bytes()))
    }

    fn value(&self, path: &Path, s: Src) -> BV {
        match s {
            Src::Reg(r) => path.regs[r as usize].clone(),
            Src::Imm(v) => lit(v),
            Src::Sreg(sr) => self.thread.sreg(sr, &origin::tag(origin::OPAQUE, path.pc)),
            Src::SharedAddr(off) => self
                .thread
                .rank
                .bvshl(lit(u64::from(self.profile.rank_shift)))
                .bvor(lit(off)),
            Src::Reg128(_) | Src::Unspecified => {
                BV::fresh_const(&origin::tag(origin::OPAQUE, path.pc), 64)
            }
        }
    }

    fn address(&self, path: &Path, a: Addr) -> BV {
        self.value(path, a.base).bvadd(lit(a.offset as u64))
    }

    fn guard(&self, path: &Path, g: Option<(u32, bool)>) -> Option<Bool> {
        g.map(|(r, neg)| {
            let on = low(&path.regs[r as usize], 1).eq(BV::from_u64(1, 1));
            if neg {
                on.not()
            } else {
                on
            }
        })
    }

    /// Whether a float instruction on `srcs` would build a term of more
    /// than [`FLOAT_OPS`] floating-point operations: its result is then a
    /// fresh value (every value allowed, so "cannot happen" still holds,
    /// and the replay decides a witness). Z3 bit-blasts each operation
    /// into every query that meets it: an `f64` accumulation over a
    /// loop's turns made queries time out.
    fn too_deep(&mut self, srcs: &[BV]) -> bool {
        let n: u32 = srcs
            .iter()
            .map(|t| float_ops(&mut self.float_ops, t))
            .fold(0, u32::saturating_add);
        n >= FLOAT_OPS
    }

    /// One query; its timeout is the per-query one, or what is left of
    /// the search's budget when that is less.
    fn check(&mut self, assumptions: &[Bool]) -> SatResult {
        self.queries += 1;
        let spent = self.start.elapsed().as_millis();
        let left = u128::from(self.opts.budget_ms).saturating_sub(spent).max(1);
        let timeout = u128::from(self.opts.timeout_ms).min(left) as u32;
        if timeout != self.timeout_now {
            let mut params = Params::new();
            params.set_u32("timeout", timeout);
            self.solver.set_params(&params);
            self.timeout_now = timeout;
        }
        self.solver.check_assumptions(assumptions)
    }

    /// Whether the path's condition and `asked` can hold together. The
    /// solver is asked about the part of the condition connected to
    /// `asked` (unsatisfiable parts are remembered); when that can hold,
    /// about the whole, whose model (the solver's) is then the witness.
    fn check_sliced(&mut self, cond: &[Bool], asked: &[Bool]) -> SatResult {
        let mut q = self.slicer.slice(cond, asked);
        let whole = q.len() == cond.len();
        q.extend(asked.iter().cloned());
        if self.slicer.known_unsat(&q) {
            return SatResult::Unsat;
        }
        let r = self.check(&q);
        if r == SatResult::Unsat {
            self.slicer.remember_unsat(&q);
        }
        if r != SatResult::Sat || whole {
            return r;
        }
        let mut all = cond.to_vec();
        all.extend(asked.iter().cloned());
        self.check(&all)
    }

    /// Why the solver gave up on the last query.
    fn gave_up(&self) -> String {
        let z3 = self
            .solver
            .get_reason_unknown()
            .unwrap_or_else(|| "unknown".into());
        if self.timeout_now < self.opts.timeout_ms {
            format!(
                "a solver query ran out of the search's time budget (--budget-ms {}; Z3: {z3})",
                self.opts.budget_ms
            )
        } else if z3.contains("timeout") || z3.contains("canceled") {
            format!(
                "a solver query timed out after {} ms (--timeout-ms; Z3: {z3})",
                self.opts.timeout_ms
            )
        } else {
            format!("the solver could not decide a query (Z3: {z3})")
        }
    }

    /// Asks each precondition of the instruction at the path's pc.
    fn ask(&mut self, path: &mut Path, guard: &Option<Bool>, op: &Op) {
        let pres = preconditions_of(self, path, op);
        let mut held: Vec<Bool> = Vec::new();
        for (pre, terms) in pres {
            let holds = eval_cond(&Z3(&terms), &self.profile, &pre.holds).simplify();
            let key = (path.pc, pre.id);
            if holds.as_bool() == Some(true) {
                // holds whatever the unknowns are (a constant address, an
                // aligned offset from an aligned base): no query
                self.found.entry(key).or_insert(Acc {
                    witness: None,
                    unknown: None,
                });
                continue;
            }
            let done = self.found.get(&key).is_some_and(|a| a.witness.is_some());
            if !done {
                let mut asked: Vec<Bool> = guard.iter().cloned().collect();
                asked.extend(held.iter().cloned());
                asked.push(holds.not());
                let r = self.check_sliced(&path.cond, &asked);
                let (witness, unknown) = match r {
                    SatResult::Sat => (
                        self.solver
                            .get_model()
                            .map(|m| self.witness(&m, path, &terms)),
                        None,
                    ),
                    SatResult::Unknown => (None, Some(self.gave_up())),
                    SatResult::Unsat => (None, None),
                };
                let acc = self.found.entry(key).or_insert(Acc {
                    witness: None,
                    unknown: None,
                });
                if witness.is_some() {
                    acc.witness = witness;
                }
                if unknown.is_some() {
                    acc.unknown = unknown;
                }
            }
            // the thread goes on only where the behaviour was defined; past
            // an undefined result it goes on too, but what follows from
            // that result is not asked about: its source is the witness
            // (and the simulator, which replays witnesses, gives such a
            // result unspecified bits that decide nothing)
            let h = match guard {
                Some(g) => g.implies(&holds),
                None => holds.clone(),
            };
            // (a loop asks the same precondition of the same operands
            // every turn)
            if !path.cond.contains(&h) {
                path.cond.push(h);
            }
            held.push(holds);
        }
    }

    fn witness(&self, m: &Model, path: &Path, terms: &Terms) -> Witness {
        let num = |t: &BV| m.eval(t, true).and_then(|v| v.as_u64()).unwrap_or(0);
        let three = |d: &[BV; 3]| d.clone().map(|t| num(&t) as u32);
        let mut params = Vec::new();
        let mut param_bytes = Vec::new();
        for (p, v) in self.prog.params.iter().zip(&self.params) {
            let bytes: Vec<u8> = (0..p.size)
                .map(|k| {
                    let b = v.extract(k as u32 * 8 + 7, k as u32 * 8);
                    num(&zext64(&b)) as u8
                })
                .collect();
            let shown = if p.size <= 8 {
                let mut x = [0u8; 8];
                x[..bytes.len()].copy_from_slice(&bytes);
                format!("{:#x}", u64::from_le_bytes(x))
            } else {
                bytes.iter().map(|b| format!("{b:02x}")).collect()
            };
            params.push((p.name.clone(), shown));
            param_bytes.push(bytes);
        }
        // a parameter given a tensor map holds its bytes
        for g in &self.opts.tensor_maps {
            let Some(k) = self.prog.params.iter().position(|p| p.name == g.param) else {
                continue;
            };
            if param_bytes[k].len() == 128 {
                let b = crate::tmap::bytes(&g.map, &param_bytes);
                param_bytes[k] = b.to_vec();
                params[k].1 = b.iter().map(|b| format!("{b:02x}")).collect();
            }
        }
        let values = terms
            .vars
            .iter()
            .filter(|(v, _)| !matches!(v, Var::ParamBytes | Var::ConstBytes))
            .map(|(v, t)| (v.name().to_string(), num(t)))
            .collect();
        let operands: Vec<&BV> = terms.vars.iter().map(|(_, t)| t).collect();
        let depends_on = origin::origins(&operands)
            .into_iter()
            // (a global load's value is the replay's to choose; an undefined
            // result is past a precondition the path assumed held)
            .filter(|&(kind, _)| kind != origin::GLOBAL && kind != origin::UNDEFINED)
            .map(|(kind, pc)| {
                let (text, offset) = self.prog.text(pc).unwrap_or(("", 0));
                Dependence {
                    pc,
                    instruction: text.to_string(),
                    offset,
                    why: origin::meaning(kind),
                }
            })
            .collect();
        let loads = path
            .loads
            .iter()
            .filter(|(when, ..)| m.eval(when, true).and_then(|b| b.as_bool()) == Some(true))
            .map(|(_, a, n, v)| (num(a), *n, num(v)))
            .collect();
        Witness {
            params,
            grid: three(&self.thread.nctaid),
            block: three(&self.thread.ntid),
            cluster: three(&self.thread.cluster_nctaid),
            ctaid: three(&self.thread.ctaid),
            tid: three(&self.thread.tid),
            values,
            loads,
            depends_on,
            param_bytes,
        }
    }

    /// A loaded value of `bytes`, sign- or zero-extended into a register of
    /// `reg_bits`.
    fn loaded(&self, path: &mut Path, acc: &Access, addr: &BV, k: usize) -> BV {
        let n = u32::from(acc.size) * 8;
        let v = match acc.space {
            Space::ParamEntry => self.param_value(addr, acc.size, k),
            // bytes of the frame the path wrote at a known place: a call's
            // argument or return value, a local variable
            space => match self.frame_offset(space, &addr.simplify()) {
                Reach::At(base) => {
                    let off = base + (k * usize::from(acc.size)) as u64;
                    path.params
                        .iter()
                        .rev()
                        .find(|(o, m, _)| *o == off && *m == acc.size)
                        .map(|(_, _, v)| low(v, n.min(64)))
                }
                _ => None,
            },
        };
        let v = v.unwrap_or_else(|| {
            let global = matches!(acc.space, Space::Global | Space::Generic);
            let kind = if global && n <= 64 {
                origin::GLOBAL
            } else {
                origin::MEMORY
            };
            let v = BV::fresh_const(&origin::tag(kind, path.pc), n.min(64));
            if global && n <= 64 {
                let at = addr.bvadd(lit((k * usize::from(acc.size)) as u64));
                let when = Bool::and(&path.cond);
                path.loads.push((when, at, acc.size, zext64(&v)));
            }
            v
        });
        let reg_bits = u32::from(acc.reg_bits.get(k).copied().unwrap_or(64)).clamp(1, 64);
        let to = reg_bits.max(n.min(64));
        mask64(&widen(&v, n.min(64), to, acc.signed), to)
    }

    /// A kernel parameter's bytes at a constant offset.
    fn param_value(&self, addr: &BV, size: u8, k: usize) -> Option<BV> {
        let off = addr.simplify().as_u64()? + (k * usize::from(size)) as u64;
        let (i, p) = self
            .prog
            .params
            .iter()
            .enumerate()
            .find(|(_, p)| off >= p.offset && off + u64::from(size) <= p.offset + p.size)?;
        let lo = ((off - p.offset) * 8) as u32;
        let hi = lo + u32::from(size) * 8 - 1;
        let v = &self.params[i];
        (hi < v.get_size()).then(|| v.extract(hi, lo))
    }

    fn set(&self, path: &mut Path, guard: &Option<Bool>, d: u32, v: BV) {
        let d = d as usize;
        if d >= path.regs.len() {
            return;
        }
        path.regs[d] = match guard {
            Some(g) => g.ite(&v, &path.regs[d]),
            None => v,
        };
    }

    fn step(&mut self, path: &mut Path) -> Next {
        let Some(instr) = self.prog.code().get(path.pc) else {
            return Next::End;
        };
        let guard = self.guard(path, instr.guard);
        match &instr.op {
            // `trap` stops the thread as `exit` does (with a report)
            Op::Exit | Op::Trap => {
                return match guard {
                    None => Next::End,
                    Some(g) => {
                        let stay = g.not().simplify();
                        match stay.as_bool() {
                            Some(false) => return Next::End,
                            Some(true) => {}
                            None => {
                                // no query: a path that cannot stay
                                // decides nothing, as its queries are
                                // unsatisfiable
                                path.cond.push(stay);
                            }
                        }
                        path.pc += 1;
                        Next::Go
                    }
                };
            }
            Op::Bra { target } => {
                let target = *target as usize;
                let Some(g) = guard else {
                    path.pc = target;
                    return Next::Go;
                };
                let g = g.simplify();
                // A guard that simplifies to a constant goes one way. Else
                // both sides go on without asking the solver whether each
                // can happen: a side that cannot happen makes every later
                // query unsatisfiable (no witness comes from it), it merges
                // with the other side where they meet, and a loop it turns
                // stops at the bound. Asking at every branch cost more than
                // it saved.
                match g.as_bool() {
                    Some(true) => {
                        path.pc = target;
                        return Next::Go;
                    }
                    Some(false) => {}
                    None => {
                        let mut taken = path.clone();
                        taken.cond.push(g.clone());
                        taken.pc = target;
                        path.cond.push(g.not());
                        path.pc += 1;
                        return Next::Fork(Box::new(taken));
                    }
                }
            }
            Op::Call(c) => {
                self.ask(path, &guard, &instr.op);
                return self.call(path, guard, c);
            }
            Op::Ret => return self.ret(path, guard),
            op => {
                self.ask(path, &guard, op);
                self.effect(path, &guard, op);
            }
        }
        path.pc += 1;
        Next::Go
    }

    /// A guarded `call` or `ret`: `Ok(None)` when it happens on this path,
    /// `Ok(Some(other))` when it happens here under the guard and `other`
    /// goes on past it, `Err(())` when it cannot happen.
    fn split_on_guard(path: &mut Path, guard: Option<Bool>) -> Result<Option<Path>, ()> {
        let Some(g) = guard else { return Ok(None) };
        let g = g.simplify();
        match g.as_bool() {
            Some(true) => Ok(None),
            Some(false) => Err(()),
            None => {
                let mut past = path.clone();
                past.cond.push(g.not());
                past.pc += 1;
                path.cond.push(g);
                Ok(Some(past))
            }
        }
    }

    /// Where an access of `space` at `addr` reaches the thread's frame
    /// (`.param::func` and `.local` bytes, which the simulator keeps
    /// together): at a known offset, somewhere the search cannot tell, or
    /// not at all (the other state spaces; a generic address outside the
    /// local window).
    fn frame_offset(&self, space: Space, addr: &BV) -> Reach {
        let frame = self.prog.local_frame();
        match space {
            Space::ParamFunc | Space::Local => match addr.as_u64() {
                Some(a) => Reach::At(a.wrapping_sub(frame)),
                None => Reach::Anywhere,
            },
            Space::Generic => match addr.as_u64() {
                Some(a) => {
                    let lo = a.wrapping_sub(self.profile.local_base);
                    if lo < self.profile.local_size {
                        Reach::At(lo.wrapping_sub(frame))
                    } else {
                        Reach::No
                    }
                }
                None => Reach::Anywhere,
            },
            _ => Reach::No,
        }
    }

    /// Writes `.param` bytes at a known offset, forgetting what overlaps.
    fn put_param(path: &mut Path, offset: u64, n: u8, v: BV) {
        forget_params(&mut path.params, offset, u64::from(n));
        path.params.push((offset, n, v));
    }

    /// What an argument or return value passes: `(offset shift, entries)`
    /// for `.param` bytes, or one value of `bits` for the rest.
    fn actual_value(&self, path: &Path, a: Actual, n: u64, pc: usize) -> Passed {
        match a {
            Actual::Param { offset, size } => {
                let end = offset + size.min(n);
                Passed::Bytes(
                    offset,
                    path.params
                        .iter()
                        .filter(|(o, m, _)| *o >= offset && *o + u64::from(*m) <= end)
                        .cloned()
                        .collect(),
                )
            }
            Actual::Reg { slot, bits } => {
                Passed::Value(mask64(&path.regs[slot as usize], u32::from(bits).max(1)))
            }
            Actual::Imm(v) => Passed::Value(lit(v & mask_u64((n * 8).min(64) as u32))),
            Actual::Sink => Passed::Value(
                BV::fresh_const(&origin::tag(origin::OPAQUE, pc), 64)
                    .bvand(lit(mask_u64((n * 8).min(64) as u32))),
            ),
        }
    }

    /// Gives a passed value to a formal parameter or to a call's return
    /// value (`to`: `.param` bytes at an offset, or a register).
    fn pass(&self, path: &mut Path, passed: Passed, to: Place, pc: usize) {
        match (to, passed) {
            (Place::Param(offset, size), Passed::Bytes(from, entries)) => {
                forget_params(&mut path.params, offset, size);
                for (o, m, v) in entries {
                    if o - from + u64::from(m) <= size {
                        path.params.push((o - from + offset, m, v));
                    }
                }
            }
            (Place::Param(offset, size), Passed::Value(v)) => {
                let n = size.min(8) as u8;
                forget_params(&mut path.params, offset, size);
                if n > 0 {
                    path.params.push((offset, n, mask64(&v, u32::from(n) * 8)));
                }
            }
            (Place::Reg(slot, bits), passed) => {
                let bits = u32::from(bits).clamp(1, 64);
                let v = match passed {
                    Passed::Value(v) => v,
                    Passed::Bytes(from, entries) => entries
                        .iter()
                        .find(|(o, m, _)| *o == from && u32::from(*m) * 8 >= bits)
                        .map(|(_, _, v)| v.clone())
                        .unwrap_or_else(|| BV::fresh_const(&origin::tag(origin::MEMORY, pc), 64)),
                };
                path.regs[slot as usize] = mask64(&v, bits);
            }
            (Place::Nowhere, _) => {}
        }
    }

    /// `call` (PTX ISA 9.7.12.5): the path goes into the callee, its
    /// arguments passed by value ("Arguments are pass-by-value"), as the
    /// simulator runs it (`sim::machine::call`). An indirect call goes into
    /// each function of the module with as many parameters, under the
    /// condition that the pointer is that function's address (the
    /// simulator's addresses). A function with no body (`vprintf`...)
    /// returns unknown values. Nested activations of one function stop at
    /// `Options::recursion` (counted with the paths cut at the unroll
    /// bound).
    fn call(&mut self, path: &mut Path, guard: Option<Bool>, c: &Call) -> Next {
        let past = match Self::split_on_guard(path, guard) {
            Err(()) => {
                path.pc += 1;
                return Next::Go;
            }
            Ok(p) => p,
        };
        let funcs = self.prog.functions();
        let candidates: Vec<(usize, Option<Bool>)> = match c.callee {
            Callee::Direct(k) => vec![(k as usize, None)],
            Callee::Indirect(src) => {
                let v = self.value(path, src);
                funcs
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| {
                        f.params.len() == c.args.len() && f.returns.len() >= c.rets.len()
                    })
                    .map(|(k, f)| (k, Some(v.eq(lit(f.addr)).simplify())))
                    .filter(|(_, is)| is.as_ref().and_then(Bool::as_bool) != Some(false))
                    .collect()
            }
        };
        let mut out = Vec::new();
        let mut cuts = 0;
        for (i, (k, is)) in candidates.iter().enumerate() {
            let mut p = if i + 1 == candidates.len() {
                std::mem::replace(path, path.clone())
            } else {
                path.clone()
            };
            if let Some(is) = is {
                if is.as_bool() != Some(true) {
                    p.cond.push(is.clone());
                }
            }
            match self.enter(&mut p, *k, c) {
                Next::Go => out.push(p),
                Next::Cut => cuts += 1,
                _ => {}
            }
        }
        out.extend(past);
        if out.is_empty() && cuts > 0 {
            // the main loop counts this one
            self.calls_cut += cuts - 1;
            return Next::Cut;
        }
        self.calls_cut += cuts;
        match out.len() {
            0 => Next::End,
            _ => {
                *path = out.remove(0);
                if out.is_empty() {
                    Next::Go
                } else {
                    Next::Forks(out)
                }
            }
        }
    }

    /// One callee of a call: its frame pushed, its parameters given.
    fn enter(&mut self, path: &mut Path, k: usize, c: &Call) -> Next {
        let pc = path.pc;
        let f = &self.prog.functions()[k];
        if f.params.len() != c.args.len() || f.returns.len() < c.rets.len() {
            // the simulator stops the thread (undefined behaviour)
            return Next::End;
        }
        let Some(entry) = f.entry else {
            for (r, _) in c.rets.iter().zip(&f.returns) {
                let unknown = Passed::Value(BV::fresh_const(&origin::tag(origin::OPAQUE, pc), 64));
                self.pass(path, unknown, place_of_actual(*r), pc);
            }
            path.pc += 1;
            return Next::Go;
        };
        let depth = path.frames.iter().filter(|fr| fr.func == k).count();
        if depth as u32 >= self.opts.recursion {
            return Next::Cut;
        }
        // the arguments are read before the callee's activation replaces
        // values a recursive call passes from
        let args: Vec<Passed> = f
            .params
            .iter()
            .zip(&c.args)
            .map(|(fm, a)| self.actual_value(path, *a, fm.bytes(), pc))
            .collect();
        let (lo, hi) = (f.slots.0 as usize, f.slots.1 as usize);
        let (flo, fhi) = f.frame;
        let saved_params: Vec<(u64, u8, BV)> = path
            .params
            .iter()
            .filter(|(o, m, _)| *o < fhi && *o + u64::from(*m) > flo)
            .cloned()
            .collect();
        forget_params(&mut path.params, flo, fhi - flo);
        let frame = Frame {
            call_pc: pc,
            func: k,
            regs: path.regs[lo..hi].to_vec(),
            params: saved_params,
            visits: std::mem::take(&mut path.visits),
        };
        path.frames.push(frame);
        for (fm, v) in f.params.iter().zip(args) {
            self.pass(path, v, place_of_formal(*fm), pc);
        }
        path.pc = entry as usize;
        Next::Go
    }

    /// `ret` in a device function: back to the call, the return values
    /// passed to its return operands and the callee's activation undone. A
    /// path in no call ends (a kernel's `ret` is decoded as `exit`).
    fn ret(&mut self, path: &mut Path, guard: Option<Bool>) -> Next {
        let past = match Self::split_on_guard(path, guard) {
            Err(()) => {
                path.pc += 1;
                return Next::Go;
            }
            Ok(p) => p,
        };
        let Some(frame) = path.frames.pop() else {
            return match past {
                Some(p) => {
                    *path = p;
                    Next::Go
                }
                None => Next::End,
            };
        };
        let pc = path.pc;
        let f = &self.prog.functions()[frame.func];
        let rets: Vec<Actual> = match self.prog.code().get(frame.call_pc).map(|i| &i.op) {
            Some(Op::Call(c)) => c.rets.clone(),
            _ => Vec::new(),
        };
        let values: Vec<Passed> = f
            .returns
            .iter()
            .take(rets.len())
            .map(|fm| match *fm {
                Formal::Param { offset, size } => {
                    self.actual_value(path, Actual::Param { offset, size }, size, pc)
                }
                Formal::Reg { slot, bits } => {
                    Passed::Value(mask64(&path.regs[slot as usize], u32::from(bits).max(1)))
                }
            })
            .collect();
        let (lo, hi) = (f.slots.0 as usize, f.slots.1 as usize);
        let (flo, fhi) = f.frame;
        path.regs[lo..hi].clone_from_slice(&frame.regs);
        forget_params(&mut path.params, flo, fhi - flo);
        path.params.extend(frame.params);
        path.visits = frame.visits;
        for (a, v) in rets.iter().zip(values) {
            self.pass(path, v, place_of_actual(*a), pc);
        }
        path.pc = frame.call_pc + 1;
        match past {
            Some(p) => Next::Fork(Box::new(p)),
            None => Next::Go,
        }
    }

    /// What the instruction writes.
    fn effect(&mut self, path: &mut Path, guard: &Option<Bool>, op: &Op) {
        // fresh values are named after where they come from (the
        // instruction, and why the search does not know them)
        let pc = path.pc;
        let tag = origin::tag(origin::OPAQUE, pc);
        let unread = self.unread.clone();
        let named = |kind: char, bits: u32| {
            if kind == origin::FLOAT || kind == origin::OPAQUE {
                unread.borrow_mut().insert(pc);
            }
            BV::fresh_const(&origin::tag(kind, pc), 64).bvand(lit(mask_u64(bits)))
        };
        let fresh = |bits: u32| named(origin::OPAQUE, bits);
        match op {
            Op::Mov { d, a, bits } => {
                let v = mask64(&self.value(path, *a), u32::from(*bits).max(1));
                self.set(path, guard, *d, v);
            }
            Op::Mov128 { d, .. } => {
                self.set(path, guard, *d, fresh(64));
                self.set(path, guard, d + 1, fresh(64));
            }
            // `width` is the whole register's (`mov.b64 d, {a, b}`): each
            // element is `width / n` bits, as `sim::pack::mov_pack` reads it
            Op::Pack { d, width, elems } => {
                let elem = (*width / (elems.len().max(1) as u32)).clamp(1, 64);
                let mut acc: Option<BV> = None;
                for e in elems.iter().rev() {
                    let part = low(&self.value(path, *e), elem);
                    acc = Some(match acc {
                        None => part,
                        Some(hi) => hi.concat(&part),
                    });
                }
                if let Some(v) = acc {
                    let v = if v.get_size() > 64 {
                        v.extract(63, 0)
                    } else {
                        zext64(&v)
                    };
                    self.set(path, guard, *d, v);
                }
            }
            Op::Unpack { d, width, a } => {
                let v = self.value(path, *a);
                let elem = (*width / (d.len().max(1) as u32)).clamp(1, 64);
                for (k, r) in d.iter().enumerate() {
                    if let Some(r) = r {
                        let lo = k as u32 * elem;
                        let part = if lo + elem <= 64 {
                            zext64(&v.extract(lo + elem - 1, lo))
                        } else {
                            fresh(elem)
                        };
                        self.set(path, guard, *r, part);
                    }
                }
            }
            Op::Bin { op, ty, d, a, b } => {
                let v = alu::binary(*op, *ty, &self.value(path, *a), &self.value(path, *b), &tag);
                self.set(path, guard, *d, v);
            }
            Op::Un { op, ty, d, a } => {
                let v = alu::unary(*op, *ty, &self.value(path, *a));
                self.set(path, guard, *d, v);
            }
            Op::Mad { op, ty, d, a, b, c } => {
                let bits = u32::from(ty.bits) * if *op == alu_mulwide() { 2 } else { 1 };
                let p = alu::binary(*op, *ty, &self.value(path, *a), &self.value(path, *b), &tag);
                let v = mask64(&p.bvadd(self.value(path, *c)), bits);
                self.set(path, guard, *d, v);
            }
            Op::Setp {
                cmp,
                ty,
                unsigned,
                p,
                q,
                a,
                b,
                combine,
            } => {
                let t = alu::compare(
                    *cmp,
                    *ty,
                    *unsigned,
                    &self.value(path, *a),
                    &self.value(path, *b),
                );
                let with = |x: Bool| -> Bool {
                    match combine {
                        None => x,
                        Some((bop, c, neg)) => {
                            let cv = low(&self.value(path, *c), 1).eq(BV::from_u64(1, 1));
                            let cv = if *neg { cv.not() } else { cv };
                            match bop {
                                ptx_semantics::sim::program::BoolOp::And => Bool::and(&[x, cv]),
                                ptx_semantics::sim::program::BoolOp::Or => Bool::or(&[x, cv]),
                                ptx_semantics::sim::program::BoolOp::Xor => x.xor(&cv),
                            }
                        }
                    }
                };
                let pv = with(t.clone());
                let qv = with(t.not());
                if let Some(p) = p {
                    self.set(path, guard, *p, bit(&pv));
                }
                if let Some(q) = q {
                    self.set(path, guard, *q, bit(&qv));
                }
            }
            Op::Selp { d, a, b, c, bits } => {
                let cv = low(&self.value(path, *c), 1).eq(BV::from_u64(1, 1));
                let v = cv.ite(&self.value(path, *a), &self.value(path, *b));
                self.set(path, guard, *d, mask64(&v, u32::from(*bits)));
            }
            Op::Slct {
                d,
                a,
                b,
                c,
                bits,
                float_c,
                ftz,
            } => {
                let v = if *float_c {
                    let ge = crate::fparith::f32_at_least_zero(&self.value(path, *c), *ftz);
                    mask64(
                        &ge.ite(&self.value(path, *a), &self.value(path, *b)),
                        u32::from(*bits),
                    )
                } else {
                    let cv = low(&self.value(path, *c), 32);
                    let ge = cv.bvsge(BV::from_u64(0, 32));
                    mask64(
                        &ge.ite(&self.value(path, *a), &self.value(path, *b)),
                        u32::from(*bits),
                    )
                };
                self.set(path, guard, *d, v);
            }
            Op::Pred { op, d, a, b } => {
                let (x, y) = (low(&self.value(path, *a), 1), low(&self.value(path, *b), 1));
                let v = match op {
                    ptx_semantics::sim::program::BoolOp::And => x.bvand(&y),
                    ptx_semantics::sim::program::BoolOp::Or => x.bvor(&y),
                    ptx_semantics::sim::program::BoolOp::Xor => x.bvxor(&y),
                };
                self.set(path, guard, *d, zext64(&v));
            }
            Op::PredNot { d, a } => {
                let v = zext64(&low(&self.value(path, *a), 1).bvnot());
                self.set(path, guard, *d, v);
            }
            Op::Convert {
                conv,
                d,
                srcs,
                reg_bits,
            } => {
                let v = match (conv.as_ref(), srcs.first()) {
                    (ptx_semantics::cvt::Conversion::Cvt(c), Some(src)) => {
                        use ptx_semantics::cvt::format::Format;
                        let x = self.value(path, *src);
                        match (c.src, c.dst) {
                            (Format::Int(from), Format::Int(to)) if !c.mods.sat => {
                                let x = widen(&x, from.bits, 64, from.signed);
                                let r = low(&x, to.bits);
                                let reg = u32::from(*reg_bits).max(to.bits).min(64);
                                mask64(&widen(&zext64(&r), to.bits, reg, to.signed), reg)
                            }
                            (Format::Int(_), Format::Int(_)) => fresh(64),
                            _ if self.too_deep(std::slice::from_ref(&x)) => {
                                named(origin::FLOAT, 64)
                            }
                            _ => {
                                let open = |bits: u32| named(origin::OPEN, bits);
                                crate::fparith::cvt(c, &x, u32::from(*reg_bits), &open)
                                    .unwrap_or_else(|| fresh(64))
                            }
                        }
                    }
                    _ => fresh(64),
                };
                self.set(path, guard, *d, v);
            }
            Op::Bfe { d, a, pos, len, ty } => {
                let v = alu::bfe(
                    *ty,
                    &self.value(path, *a),
                    &self.value(path, *pos),
                    &self.value(path, *len),
                );
                self.set(path, guard, *d, v);
            }
            Op::Prmt { d, .. } | Op::Createpolicy { d, .. } => {
                self.set(path, guard, *d, fresh(64));
            }
            Op::Shfl { d, p, .. } => {
                self.set(path, guard, *d, named(origin::OTHER_THREAD, 32));
                if let Some(p) = p {
                    self.set(path, guard, *p, named(origin::OTHER_THREAD, 1));
                }
            }
            // a store that can reach the thread's local frame (`st.param` of
            // a call's argument or a function's return value, `st.local`, a
            // generic store into the local window): kept where the address
            // is known, so a later load there (the callee's `ld.param`, a
            // local variable read back) sees it; a store the search cannot
            // place forgets what it could overwrite
            Op::St(acc) => {
                let a = self.address(path, acc.addr).simplify();
                let known = guard
                    .as_ref()
                    .is_none_or(|g| g.simplify().as_bool() == Some(true));
                match self.frame_offset(acc.space, &a) {
                    Reach::No => {}
                    Reach::Anywhere => path.params.clear(),
                    Reach::At(base) => {
                        for (k, r) in acc.regs.iter().enumerate() {
                            let off = base + (k * usize::from(acc.size)) as u64;
                            match r {
                                Some(src) if known => {
                                    let v =
                                        mask64(&self.value(path, *src), u32::from(acc.size) * 8);
                                    Self::put_param(path, off, acc.size, v);
                                }
                                _ => forget_params(&mut path.params, off, u64::from(acc.size)),
                            }
                        }
                    }
                }
            }
            Op::Ld(acc) => {
                let a = self.address(path, acc.addr);
                for (k, r) in acc.regs.iter().enumerate() {
                    match r {
                        Some(Src::Reg(d)) => {
                            let v = self.loaded(path, acc, &a, k);
                            self.set(path, guard, *d, v);
                        }
                        Some(Src::Reg128(d)) => {
                            self.set(path, guard, *d, named(origin::MEMORY, 64));
                            self.set(path, guard, d + 1, named(origin::MEMORY, 64));
                        }
                        _ => {}
                    }
                }
            }
            Op::Cvta {
                d,
                a,
                space,
                to,
                wide,
            } => {
                let x = self.value(path, *a);
                let base = match space {
                    Space::SharedCta | Space::SharedCluster => self.profile.shared_base,
                    Space::Local => self.profile.local_base,
                    Space::Const => self.profile.const_base,
                    Space::ParamEntry => self.profile.param_base,
                    _ => 0,
                };
                let v = if *to {
                    x.bvsub(lit(base))
                } else {
                    x.bvadd(lit(base))
                };
                let v = if *wide { v } else { mask64(&v, 32) };
                let v = match table::cvta(*space, *to) {
                    Some(pre) if pre.effect == Effect::Result => {
                        let terms = self.base_terms().with(Var::A, x);
                        let holds = eval_cond(&Z3(&terms), &self.profile, &pre.holds);
                        holds.ite(&v, &named(origin::UNDEFINED, if *wide { 64 } else { 32 }))
                    }
                    _ => v,
                };
                self.set(path, guard, *d, v);
            }
            Op::Isspacep { p, a, space } => {
                let terms = self.base_terms();
                let x = self.value(path, *a);
                let inside = precond::in_space(&Z3(&terms), &self.profile, *space, &x);
                self.set(path, guard, *p, bit(&inside));
            }
            Op::Mapa {
                d,
                a,
                b,
                generic,
                wide,
            } => {
                let x = self.value(path, *a);
                let r = mask64(&self.value(path, *b), 32);
                let shift = u64::from(self.profile.rank_shift);
                let s = if *generic {
                    x.bvsub(lit(self.profile.shared_base))
                } else {
                    x
                };
                let offset = s.bvand(lit((1u64 << shift) - 1));
                let mapped = r.bvshl(lit(shift)).bvor(&offset);
                let v = if *generic {
                    mapped.bvadd(lit(self.profile.shared_base))
                } else {
                    mapped
                };
                let v = if *wide { v } else { mask64(&v, 32) };
                self.set(path, guard, *d, v);
            }
            Op::Getctarank { d, a, generic } => {
                let x = self.value(path, *a);
                let s = if *generic {
                    x.bvsub(lit(self.profile.shared_base))
                } else {
                    x
                };
                let v = mask64(&s.bvlshr(lit(u64::from(self.profile.rank_shift))), 32);
                self.set(path, guard, *d, v);
            }
            Op::Multimem { regs, op, .. } => {
                if matches!(op, ptx_semantics::sim::program::MultimemOp::LdReduce(_)) {
                    for r in regs {
                        if let Some(Src::Reg(d)) = r {
                            self.set(path, guard, *d, fresh(64));
                        }
                    }
                }
            }
            Op::Opaque { dests } => {
                for d in dests {
                    self.set(path, guard, *d, fresh(64));
                }
            }
            // the video instructions (PTX ISA 9.7.10) are not interpreted
            Op::Video(v) => self.set(path, guard, v.d, fresh(u32::from(v.bits))),
            Op::Arith(a) => {
                let srcs: Vec<BV> = (0..4)
                    .map(|k| {
                        a.srcs
                            .get(k)
                            .map_or_else(|| lit(0), |s| self.value(path, *s))
                    })
                    .collect();
                if is_float_arith(&a.op) && self.too_deep(&srcs) {
                    if let Some(d) = a.d {
                        self.set(path, guard, d, named(origin::FLOAT, u32::from(a.bits)));
                    }
                    return;
                }
                let v = [
                    srcs[0].clone(),
                    srcs[1].clone(),
                    srcs[2].clone(),
                    srcs[3].clone(),
                ];
                let cf = match (&path.carry, a.op.reads_carry()) {
                    (Some(c), _) => c.clone(),
                    (None, true) => BV::fresh_const(&origin::tag(origin::CARRY, pc), 1),
                    (None, false) => BV::from_u64(0, 1),
                };
                let float = |bits: u32| named(origin::FLOAT, bits);
                let opaque = |bits: u32| named(origin::OPAQUE, bits);
                let open = |bits: u32| named(origin::OPEN, bits);
                let out = crate::arith::eval(
                    a,
                    &v,
                    &cf,
                    &crate::arith::Fresh {
                        float: &float,
                        opaque: &opaque,
                        open: &open,
                    },
                );
                if let Some(d) = a.d {
                    self.set(path, guard, d, out.d);
                }
                if let (Some(q), Some(v)) = (a.q, out.q) {
                    self.set(path, guard, q, v);
                }
                if let Some(c) = out.carry {
                    path.carry = Some(match (guard, &path.carry) {
                        (None, _) => c,
                        (Some(g), Some(old)) => g.ite(&c, old),
                        (Some(g), None) => {
                            g.ite(&c, &BV::fresh_const(&origin::tag(origin::CARRY, pc), 1))
                        }
                    });
                }
            }
            // what the warp's other lanes hold is not followed (one thread
            // at a time): `activemask`, `vote.sync`, `redux.sync` and
            // `elect.sync` give unknowns
            Op::Activemask { d } => self.set(path, guard, *d, fresh(64)),
            // the reduction over the CTA's threads: an unknown
            Op::BarRed { d, .. } => self.set(path, guard, *d, fresh(64)),
            Op::Warp { d, p, .. } => {
                for r in d.iter().chain(p.iter()) {
                    self.set(path, guard, *r, fresh(64));
                }
            }
            // the old value an `atom` returns is memory's, which the search
            // does not remember: an unknown
            Op::Atom(a) => {
                let at = self.address(path, a.acc.addr).simplify();
                match self.frame_offset(a.acc.space, &at) {
                    Reach::No => {}
                    Reach::Anywhere => path.params.clear(),
                    Reach::At(off) => forget_params(
                        &mut path.params,
                        off,
                        u64::from(a.acc.size) * a.acc.regs.len().max(1) as u64,
                    ),
                }
                for &d in &a.d {
                    self.set(path, guard, d, fresh(64));
                    // a `.b128` destination's high slot
                    if a.acc.size == 16 {
                        self.set(path, guard, d + 1, fresh(64));
                    }
                }
            }
            // what the mbarrier instructions return depends on the
            // object's state, which the search does not keep: the state of
            // an arrive, whether a wait saw the phase complete, a pending
            // count are unknowns (the copies write memory, which is not
            // remembered either)
            Op::Async(a) => match **a {
                AsyncInstr::MbarUpdate { d: Some(d), .. } => {
                    self.set(path, guard, d, named(origin::MBARRIER, 64));
                }
                AsyncInstr::MbarWait { d, .. } => {
                    self.set(path, guard, d, named(origin::MBARRIER, 1))
                }
                AsyncInstr::MbarPendingCount { d, .. } => {
                    self.set(path, guard, d, named(origin::MBARRIER, 32));
                }
                _ => {}
            },
            _ => {}
        }
    }

    /// The open paths of a stopped search that can reach each
    /// instruction: how many, and the first few (a path is open at an
    /// instruction, inside loops at some turns).
    fn reach(&self, flow: &crate::flow::Flow) -> Vec<(usize, Vec<Open>)> {
        const SHOWN: usize = 8;
        let n = self.prog.code().len();
        let mut at: Vec<(usize, Vec<Open>)> = vec![(0, Vec::new()); n + 1];
        let Some(stop) = &self.stop else {
            return at;
        };
        let place = |pc: usize| {
            let (text, offset) = self.prog.text(pc).unwrap_or(("", 0));
            (text.to_string(), offset)
        };
        let mut reached: HashMap<usize, Vec<bool>> = HashMap::new();
        for (pc, loops) in &stop.open {
            let seen = reached.entry(*pc).or_insert_with(|| {
                let mut seen = vec![false; n + 1];
                let mut stack = vec![*pc];
                while let Some(p) = stack.pop() {
                    if p > n || seen[p] {
                        continue;
                    }
                    seen[p] = true;
                    stack.extend(flow.succ.get(p).into_iter().flatten());
                }
                seen
            });
            let (instruction, offset) = place(*pc);
            let open = Open {
                pc: *pc,
                instruction,
                offset,
                loops: loops
                    .iter()
                    .map(|&(h, turns)| {
                        let (instruction, offset) = place(h);
                        Turns {
                            pc: h,
                            instruction,
                            offset,
                            turns,
                            bound: self.opts.unroll,
                        }
                    })
                    .collect(),
            };
            for (p, s) in seen.iter().enumerate() {
                if *s {
                    at[p].0 += 1;
                    if at[p].1.len() < SHOWN {
                        at[p].1.push(open.clone());
                    }
                }
            }
        }
        at
    }

    fn findings(&self, flow: &crate::flow::Flow) -> Vec<Finding> {
        let reach = self.reach(flow);
        let mut out = Vec::new();
        let dummy = Path {
            pc: 0,
            regs: vec![lit(0); self.prog.slots() as usize],
            cond: Vec::new(),
            visits: HashMap::new(),
            loads: Vec::new(),
            carry: None,
            params: Vec::new(),
            frames: Vec::new(),
        };
        for (pc, instr) in self.prog.code().iter().enumerate() {
            let (text, offset) = self.prog.text(pc).unwrap_or(("", 0));
            let mut seen: Vec<&'static str> = Vec::new();
            for (pre, _) in preconditions_of(self, &dummy, &instr.op) {
                if seen.contains(&pre.id) {
                    continue;
                }
                seen.push(pre.id);
                let acc = self.found.get(&(pc, pre.id));
                let (count, open) = &reach[pc];
                let stopped = self.stop.as_ref().filter(|_| *count > 0).map(|st| {
                    let shown = if open.len() < *count {
                        format!(" (the first {} listed)", open.len())
                    } else {
                        String::new()
                    };
                    format!(
                        "the search stopped at {} with {count} open path(s) that can still reach this instruction{shown}",
                        st.why,
                    )
                });
                let verdict = match (acc, stopped) {
                    (
                        Some(Acc {
                            witness: Some(w), ..
                        }),
                        _,
                    ) => Verdict::Witness(w.clone()),
                    (
                        Some(Acc {
                            unknown: Some(why), ..
                        }),
                        st,
                    ) => Verdict::Unknown {
                        reason: match st {
                            Some(st) => format!("{why}; and {st}"),
                            None => why.clone(),
                        },
                        open: open.clone(),
                        candidate: None,
                    },
                    (_, Some(st)) => Verdict::Unknown {
                        reason: st,
                        open: open.clone(),
                        candidate: None,
                    },
                    _ => Verdict::CannotHappen,
                };
                out.push(Finding {
                    pc,
                    instruction: text.to_string(),
                    offset,
                    precondition: pre,
                    verdict,
                    replay: None,
                });
            }
        }
        out
    }
}

/// The most floating-point operations a term may be built from before the
/// next float instruction gives a fresh value instead (see
/// [`Search::too_deep`]).
const FLOAT_OPS: u32 = 4;

/// The forms `fparith.rs` reads as floating-point terms.
fn is_float_arith(op: &ptx_semantics::sim::arith::Arith) -> bool {
    use ptx_semantics::sim::arith::Arith;
    matches!(
        op,
        Arith::Float { .. }
            | Arith::FNeg { .. }
            | Arith::FAbs { .. }
            | Arith::FMin { .. }
            | Arith::FMax { .. }
            | Arith::MixedFloat { .. }
    )
}

/// The floating-point operations (`fp.add` ... `fp.roundToIntegral`, and
/// integer-to-float conversions) in `t`'s tree, counting shared parts
/// again, at most [`FLOAT_OPS`]; `memo` keeps each node's count.
fn float_ops(memo: &mut HashMap<Dynamic, u32>, t: &BV) -> u32 {
    let root = Dynamic::from_ast(t);
    let mut stack = vec![(root.clone(), false)];
    while let Some((n, expanded)) = stack.pop() {
        if memo.contains_key(&n) {
            continue;
        }
        if !n.is_app() || n.num_children() == 0 {
            memo.insert(n, 0);
            continue;
        }
        let kids = n.children();
        if !expanded {
            stack.push((n, true));
            stack.extend(kids.into_iter().map(|k| (k, false)));
            continue;
        }
        let name = n.decl().name();
        let own = u32::from(
            matches!(
                name.as_str(),
                "fp.add"
                    | "fp.sub"
                    | "fp.mul"
                    | "fp.fma"
                    | "fp.div"
                    | "fp.sqrt"
                    | "fp.roundToIntegral"
                    | "to_fp_unsigned"
            ) || (name == "to_fp" && kids.len() == 2),
        );
        let sum = kids
            .iter()
            .map(|k| memo.get(k).copied().unwrap_or(0))
            .fold(own, u32::saturating_add)
            .min(FLOAT_OPS);
        memo.insert(n, sum);
    }
    memo.get(&root).copied().unwrap_or(0)
}

/// One path for two at the same pc: either's condition, and registers
/// that take the first's value where its condition holds. Both paths come
/// from one by forks, so their conditions (and loads) begin alike: the
/// common part is kept once and only what follows is joined, which keeps
/// the terms small and the conjuncts apart.
fn merge(a: Path, b: Path) -> Path {
    let k = a
        .cond
        .iter()
        .zip(&b.cond)
        .take_while(|(x, y)| PartialEq::eq(*x, *y))
        .count();
    // what both went on to assume (a precondition asked on both sides) is
    // kept once, outside the disjunction
    let (sa, sb) = (&a.cond[k..], &b.cond[k..]);
    let both: Vec<Bool> = sa.iter().filter(|x| sb.contains(x)).cloned().collect();
    let ra: Vec<Bool> = sa.iter().filter(|x| !both.contains(x)).cloned().collect();
    let rb: Vec<Bool> = sb.iter().filter(|x| !both.contains(x)).cloned().collect();
    let ca = Bool::and(&ra);
    let cb = Bool::and(&rb);
    let regs = a
        .regs
        .iter()
        .zip(&b.regs)
        .map(|(x, y)| {
            if PartialEq::eq(x, y) {
                x.clone()
            } else {
                ca.ite(x, y)
            }
        })
        .collect();
    let carry = match (&a.carry, &b.carry) {
        (None, None) => None,
        (x, y) if PartialEq::eq(x, y) => x.clone(),
        (x, y) => {
            let unset = || BV::fresh_const(&origin::tag(origin::CARRY, a.pc), 1);
            let x = x.clone().unwrap_or_else(unset);
            let y = y.clone().unwrap_or_else(unset);
            Some(ca.ite(&x, &y))
        }
    };
    let mut cond = a.cond[..k].to_vec();
    for c in both {
        if !cond.contains(&c) {
            cond.push(c);
        }
    }
    let either = Bool::or(&[ca.clone(), cb]).simplify();
    if either.as_bool() != Some(true) {
        cond.push(either);
    }
    let j = a
        .loads
        .iter()
        .zip(&b.loads)
        .take_while(|(x, y)| PartialEq::eq(&x.0, &y.0) && PartialEq::eq(&x.3, &y.3))
        .count();
    let mut loads = a.loads;
    loads.extend(b.loads.into_iter().skip(j));
    let merge_regs = |x: &[BV], y: &[BV]| -> Vec<BV> {
        x.iter()
            .zip(y)
            .map(|(x, y)| {
                if PartialEq::eq(x, y) {
                    x.clone()
                } else {
                    ca.ite(x, y)
                }
            })
            .collect()
    };
    let params = merge_params(&ca, &a.params, &b.params);
    let frames = a
        .frames
        .iter()
        .zip(&b.frames)
        .map(|(x, y)| Frame {
            call_pc: x.call_pc,
            func: x.func,
            regs: merge_regs(&x.regs, &y.regs),
            params: merge_params(&ca, &x.params, &y.params),
            visits: x.visits.clone(),
        })
        .collect();
    Path {
        pc: a.pc,
        regs,
        cond,
        visits: a.visits,
        loads,
        carry,
        params,
        frames,
    }
}

/// Whether two paths are inside the same calls (same call sites, same
/// loop turns around each): only such paths merge.
fn same_calls(a: &Path, b: &Path) -> bool {
    a.frames.len() == b.frames.len()
        && a.frames
            .iter()
            .zip(&b.frames)
            .all(|(x, y)| x.call_pc == y.call_pc && x.func == y.func && x.visits == y.visits)
}

/// Known `.param` bytes of two merging paths: those both know at the same
/// offset and size, as an if-then-else where they differ; the others
/// become unknown.
fn merge_params(ca: &Bool, a: &[(u64, u8, BV)], b: &[(u64, u8, BV)]) -> Vec<(u64, u8, BV)> {
    a.iter()
        .filter_map(|(o, n, x)| {
            let (_, _, y) = b.iter().find(|(p, m, _)| p == o && m == n)?;
            Some((
                *o,
                *n,
                if PartialEq::eq(x, y) {
                    x.clone()
                } else {
                    ca.ite(x, y)
                },
            ))
        })
        .collect()
}

fn alu_mulwide() -> ptx_semantics::sim::program::BinOp {
    ptx_semantics::sim::program::BinOp::MulWide
}

fn bit(b: &Bool) -> BV {
    b.ite(&lit(1), &lit(0))
}

fn mask_u64(bits: u32) -> u64 {
    1u64.checked_shl(bits).unwrap_or(0).wrapping_sub(1)
}

/// What a call passes for one parameter or return value.
enum Passed {
    /// `.param` bytes known at offsets from the first (the actual's or
    /// formal's offset).
    Bytes(u64, Vec<(u64, u8, BV)>),
    /// A register's or an immediate's value.
    Value(BV),
}

/// Where a passed value goes.
#[derive(Clone, Copy)]
enum Place {
    /// `.param` bytes at an offset of the frame, and how many.
    Param(u64, u64),
    /// A register slot of `bits`.
    Reg(u32, u16),
    Nowhere,
}

fn place_of_formal(f: Formal) -> Place {
    match f {
        Formal::Param { offset, size } => Place::Param(offset, size),
        Formal::Reg { slot, bits } => Place::Reg(slot, bits),
    }
}

fn place_of_actual(a: Actual) -> Place {
    match a {
        Actual::Param { offset, size } => Place::Param(offset, size),
        Actual::Reg { slot, bits } => Place::Reg(slot, bits),
        Actual::Imm(_) | Actual::Sink => Place::Nowhere,
    }
}

/// Forgets the known `.param` bytes overlapping `[offset, offset + n)`.
fn forget_params(params: &mut Vec<(u64, u8, BV)>, offset: u64, n: u64) {
    params.retain(|(o, m, _)| *o >= offset + n || *o + u64::from(*m) <= offset);
}

/// Where an access reaches the thread's frame ([`Search::frame_offset`]).
enum Reach {
    No,
    Anywhere,
    At(u64),
}
