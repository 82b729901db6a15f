//! Extension: the barrier objects of asynchronous completion, mbarriers
//! (PTX ISA 9.7.13.15) and the cluster barrier (PTX ISA 9.7.13.3), and the
//! undefined behaviour of asynchronous copies (PTX ISA 9.7.9.25.1).
//!
//! The operations on one mbarrier take effect one at a time, so an
//! execution fixes their order (like the coherence order of a location).
//! Each order is played against the object's counts: "An mbarrier object
//! completes the current phase when all of the following conditions are
//! met: The count of the pending arrivals has reached zero. The tx-count has
//! reached zero." (9.7.13.15.6). An order is kept when every wait returns
//! what its trace says it returned; the arrivals before a wait that returns
//! true are what it observes, for the release and acquire patterns of 8.8.
//! That the order agrees with base causality is checked once reads-from is
//! known (the `MbarrierOrder` axiom).
//!
//! A cluster barrier wait of a thread's k-th phase completes when each
//! thread of the cluster has arrived k times or exited: "barrier.cluster.wait
//! instruction causes the executing thread to wait for all non-exited
//! threads of the cluster to perform barrier.cluster.arrive."

use crate::event::{Event, Kind, Scope};
use crate::program::{ModelError, Program};
use crate::rel::Rel;
use std::collections::HashMap;

/// The most mbarrier orders one shape may have before the search gives up.
const MAX_ORDERS: usize = 200_000;

/// One order of the operations on the mbarriers, with what follows from it.
#[derive(Clone, Debug)]
pub struct MbarrierOrder {
    /// Each arrive-on or complete-tx to the waits returning true after it.
    pub observed: Rel,
    /// The order itself, on the operations of each mbarrier.
    pub order: Rel,
    /// Undefined behaviour in this order.
    pub undefined: Vec<String>,
}

/// What the cluster barriers of an execution give.
#[derive(Clone, Debug)]
pub struct ClusterBarriers {
    /// Each arrive to the waits of its phase.
    pub observed: Rel,
    /// What each wait waits for: the arrivals of its phase, and the last
    /// operation of each thread that exits without arriving.
    pub completion: Rel,
    /// Each second or later arrive of a thread, with what must precede it:
    /// the arrivals (or exits) that complete the previous phase.
    pub rearrivals: Vec<(usize, Vec<usize>)>,
}

/// How an event is named in a message: the thread and the instruction.
pub fn describe(p: &Program<'_>, e: &Event) -> String {
    match (e.thread, e.pc) {
        (Some(t), Some(pc)) => {
            let code = &p.test.threads[t as usize].code;
            format!(
                "P{t}'s `{}`",
                code.get(pc)
                    .map_or(String::new(), ptx_litmus::printer::instr)
            )
        }
        _ => "the initial state".to_string(),
    }
}

/// Every order of the operations on each mbarrier that respects the order
/// each thread performs them in (`xo`) and the values the waits returned.
/// Empty when none does.
pub fn mbarrier_orders(
    p: &Program<'_>,
    events: &[Event],
    xo: &Rel,
) -> Result<Vec<MbarrierOrder>, ModelError> {
    let n = events.len();
    let mut combos = vec![MbarrierOrder {
        observed: Rel::empty(n),
        order: Rel::empty(n),
        undefined: Vec::new(),
    }];
    for m in 0..p.mbars.len() {
        let ops: Vec<usize> = (0..n)
            .filter(|&i| events[i].mbarrier() == Some(m))
            .collect();
        if ops.is_empty() {
            continue;
        }
        let mut orders = Vec::new();
        let mut seq = Vec::new();
        let mut placed = 0u128;
        let mut fail = None;
        linear_orders(&ops, xo, &mut seq, &mut placed, &mut |seq| {
            if let Some(o) = play(p, events, m, seq) {
                orders.push(o);
                if orders.len() > MAX_ORDERS {
                    fail = Some(ModelError::SearchLimit(MAX_ORDERS as u64));
                }
            }
        });
        if let Some(e) = fail {
            return Err(e);
        }
        let mut next = Vec::new();
        for c in &combos {
            for o in &orders {
                let mut undefined = c.undefined.clone();
                undefined.extend(o.undefined.iter().cloned());
                next.push(MbarrierOrder {
                    observed: c.observed.union(&o.observed),
                    order: c.order.union(&o.order),
                    undefined,
                });
            }
            if next.len() > MAX_ORDERS {
                return Err(ModelError::SearchLimit(MAX_ORDERS as u64));
            }
        }
        combos = next;
    }
    Ok(combos)
}

/// Calls `f` with each order of `ops` in which no operation comes before
/// one that precedes it in `xo`.
fn linear_orders(
    ops: &[usize],
    xo: &Rel,
    seq: &mut Vec<usize>,
    placed: &mut u128,
    f: &mut dyn FnMut(&[usize]),
) {
    if seq.len() == ops.len() {
        f(seq);
        return;
    }
    for &o in ops {
        if *placed >> o & 1 == 1 {
            continue;
        }
        // Every operation of `ops` that must come first is placed already.
        let before = ops
            .iter()
            .all(|&b| b == o || !xo.contains(b, o) || *placed >> b & 1 == 1);
        if !before {
            continue;
        }
        seq.push(o);
        *placed |= 1 << o;
        linear_orders(ops, xo, seq, placed, f);
        *placed &= !(1 << o);
        seq.pop();
    }
}

/// Plays one order of the operations on mbarrier `m` against its counts;
/// `None` when a wait would return something other than its trace's value.
fn play(p: &Program<'_>, events: &[Event], m: usize, seq: &[usize]) -> Option<MbarrierOrder> {
    let n = events.len();
    let mb = &p.mbars[m];
    let name = &mb.name;
    let uses_parity = seq.iter().any(|&e| {
        matches!(
            events[e].kind,
            Kind::MbarrierWait {
                parity: Some(_),
                ..
            }
        )
    });
    let mut count = mb.count;
    let mut pending = count.unwrap_or(0);
    let mut tx = 0i64;
    // The number of completed phases: the current phase's index.
    let mut phase = 0i64;
    // Per thread, the phase of its latest arrive-on (its `state`).
    let mut token: HashMap<u32, i64> = HashMap::new();
    // Whether some wait returned true on each completed phase.
    let mut seen: Vec<bool> = Vec::new();
    let mut order = Rel::empty(n);
    let mut observed = Rel::empty(n);
    let mut undefined = Vec::new();
    for (k, &e) in seq.iter().enumerate() {
        for &later in &seq[k + 1..] {
            order.add(e, later);
        }
        let ev = &events[e];
        let t = ev.thread.unwrap_or(0);
        if let Kind::MbarrierInit { count: c, .. } = ev.kind {
            count = Some(c);
            pending = c;
            tx = 0;
            phase = 0;
            token.clear();
            seen.clear();
            continue;
        }
        // Before any init: undefined, reported by `uses_before_init`.
        let Some(expected) = count else {
            continue;
        };
        match ev.kind {
            Kind::MbarrierArrive {
                tx: t_exp,
                count: c,
                ..
            } => {
                if c > 0 && uses_parity && phase >= 1 && !seen[(phase - 1) as usize] {
                    undefined.push(format!(
                        "{} arrives in phase {phase} of `{name}` before any wait returned true \
                         on phase {} (PTX ISA 9.7.13.15.4: \"For each phase of the mbarrier \
                         object, at least one test_wait or try_wait operation must be performed \
                         which returns True for waitComplete before an arrive-on operation in \
                         the subsequent phase.\")",
                        describe(p, ev),
                        phase - 1
                    ));
                }
                tx += t_exp;
                pending -= c;
                if c > 0 {
                    token.insert(t, phase);
                }
                if pending < 0 {
                    undefined.push(format!(
                        "{} arrives on `{name}` when no arrival is pending: the pending count \
                         would go below zero, outside the range PTX ISA 9.7.13.15 gives it",
                        describe(p, ev)
                    ));
                    pending = 0;
                }
            }
            Kind::CompleteTx { bytes, .. } => tx -= bytes,
            Kind::MbarrierWait { done, parity, .. } => {
                let complete = match parity {
                    // The phase of that parity is complete when the current
                    // phase has the other parity.
                    Some(par) => phase % 2 != par,
                    None => phase > token.get(&t).copied().unwrap_or(0),
                };
                if complete != done {
                    return None;
                }
                if done {
                    for &c in &seq[..k] {
                        if events[c].is_barrier_write() {
                            observed.add(c, e);
                        }
                    }
                    if phase >= 1 {
                        seen[(phase - 1) as usize] = true;
                    }
                }
                continue;
            }
            _ => continue,
        }
        if pending == 0 && tx == 0 {
            phase += 1;
            seen.push(false);
            pending = expected;
        }
    }
    Some(MbarrierOrder {
        observed,
        order,
        undefined,
    })
}

/// The cluster barriers of an execution; `None` when a wait can never
/// complete because its own thread has not arrived.
pub fn cluster_barriers(p: &Program<'_>, events: &[Event]) -> Option<ClusterBarriers> {
    let n = events.len();
    let threads = p.test.threads.len();
    let mut arrives: Vec<Vec<usize>> = vec![Vec::new(); threads];
    let mut last: Vec<Option<usize>> = vec![None; threads];
    let mut waits = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let Some(t) = e.thread else { continue };
        if !e.is_async {
            last[t as usize] = Some(i);
        }
        match e.kind {
            Kind::ClusterArrive => arrives[t as usize].push(i),
            Kind::ClusterWait => waits.push(i),
            _ => {}
        }
    }
    let mut out = ClusterBarriers {
        observed: Rel::empty(n),
        completion: Rel::empty(n),
        rearrivals: Vec::new(),
    };
    if waits.is_empty() && arrives.iter().all(|a| a.len() <= 1) {
        return Some(out);
    }
    // The arrival of thread `u` that completes phase `k` (1-based), or its
    // last operation when it exits before arriving k times.
    let completes = |u: usize, k: usize| arrives[u].get(k - 1).copied().or(last[u]);
    for &w in &waits {
        let tw = events[w].thread? as usize;
        let k = arrives[tw].iter().filter(|&&a| a < w).count();
        if k == 0 {
            return None;
        }
        for (u, arr) in arrives.iter().enumerate() {
            if !p.in_scope(tw as u32, Scope::Cluster, u as u32) {
                continue;
            }
            if let Some(a) = arr.get(k - 1) {
                out.observed.add(*a, w);
            }
            if let Some(c) = completes(u, k) {
                out.completion.add(c, w);
            }
        }
    }
    for (t, arr) in arrives.iter().enumerate() {
        for (k, &again) in arr.iter().enumerate().skip(1) {
            let must: Vec<usize> = (0..threads)
                .filter(|&u| p.in_scope(t as u32, Scope::Cluster, u as u32))
                .filter_map(|u| completes(u, k))
                .collect();
            out.rearrivals.push((again, must));
        }
    }
    Some(out)
}

/// The memory operations of the asynchronous copies of an execution, by
/// event index: source reads and destination writes.
pub type Copies = Vec<(Vec<usize>, Vec<usize>)>;

/// Undefined behaviour of asynchronous copies in a consistent execution
/// (PTX ISA 9.7.9.25.1): "Once an asynchronous copy operation is initiated,
/// modifying the source memory location or tensor descriptor or reading
/// from the destination memory location before the asynchronous operation
/// completes, exhibits undefined behavior." An access is before the copy
/// is initiated, or after it completes, when base causality orders it so.
pub fn copy_races(p: &Program<'_>, events: &[Event], copies: &Copies, cb: &Rel) -> Vec<String> {
    let phys = |e: &Event| e.loc.map(|l| p.locs[l].phys);
    let mut out = Vec::new();
    for (reads, writes) in copies {
        let Some(copy) = reads.first().or(writes.first()).map(|&c| &events[c]) else {
            continue;
        };
        // The copy's own operations: those of its instruction.
        let own = |e: &Event| e.is_async && e.thread == copy.thread && e.pc == copy.pc;
        for (o, oe) in events.iter().enumerate() {
            if own(oe) || oe.kind == Kind::Init || !oe.is_memory() {
                continue;
            }
            let ordered = |c: usize| cb.contains(o, c) || cb.contains(c, o);
            let loc = oe.loc.map_or(String::new(), |l| p.locs[l].name.clone());
            if oe.is_write() {
                if let Some(&r) = reads.iter().find(|&&r| phys(&events[r]) == phys(oe)) {
                    if !ordered(r) {
                        out.push(format!(
                            "{} writes `{loc}`, the source of {}, while the copy may still \
                             read it (PTX ISA 9.7.9.25.1: modifying the source memory location \
                             before the asynchronous operation completes exhibits undefined \
                             behavior)",
                            describe(p, oe),
                            describe(p, copy)
                        ));
                    }
                }
            }
            // Interpretation (ours): bulk reductions into one destination
            // are atomic with each other and do not race.
            if oe.is_read() && !(oe.rmw && oe.is_async) {
                if let Some(&w) = writes.iter().find(|&&w| phys(&events[w]) == phys(oe)) {
                    if !ordered(w) {
                        out.push(format!(
                            "{} reads `{loc}`, the destination of {}, before the copy is known \
                             to have completed (PTX ISA 9.7.9.25.1: reading from the \
                             destination memory location before the asynchronous operation \
                             completes exhibits undefined behavior)",
                            describe(p, oe),
                            describe(p, copy)
                        ));
                    }
                }
            }
        }
    }
    out
}

/// Operations on an mbarrier that an in-thread `mbarrier.init` sets up and
/// that base causality (with what `fence.mbarrier_init` adds, `init_cb`)
/// does not order after some init of it: "Performing any mbarrier operation
/// except mbarrier.init on an uninitialized mbarrier object results in
/// undefined behavior" (our paraphrase of PTX ISA 9.7.13.15 (mbarrier.init)).
pub fn uses_before_init(p: &Program<'_>, events: &[Event], init_cb: &Rel) -> Vec<String> {
    let mut out = Vec::new();
    for (m, mb) in p.mbars.iter().enumerate() {
        if mb.count.is_some() {
            continue;
        }
        let inits: Vec<usize> = (0..events.len())
            .filter(|&i| {
                events[i].mbarrier() == Some(m)
                    && matches!(events[i].kind, Kind::MbarrierInit { .. })
            })
            .collect();
        for (x, e) in events.iter().enumerate() {
            if e.mbarrier() != Some(m) || matches!(e.kind, Kind::MbarrierInit { .. }) {
                continue;
            }
            if !inits.iter().any(|&i| init_cb.contains(i, x)) {
                out.push(format!(
                    "{} may operate on `{}` before its initialisation is visible to it (PTX \
                     ISA 9.7.13.15 (mbarrier.init): an mbarrier operation other than mbarrier.init on an \
                     uninitialized object is undefined behaviour)",
                    describe(p, e),
                    mb.name
                ));
            }
        }
    }
    out
}

/// A second arrive on the cluster barrier before the barrier completed:
/// "Each thread must arrive at the barrier only once before the barrier
/// completes." (PTX ISA 9.7.13.3). `order` is base causality with what the
/// waits wait for, closed transitively.
pub fn early_rearrivals(
    p: &Program<'_>,
    events: &[Event],
    cl: &ClusterBarriers,
    order: &Rel,
) -> Vec<String> {
    let mut out = Vec::new();
    for (a, must) in &cl.rearrivals {
        if must.iter().any(|&m| m != *a && !order.contains(m, *a)) {
            out.push(format!(
                "{} may arrive at the cluster barrier again before it completes (PTX ISA \
                 9.7.13.3: \"Each thread must arrive at the barrier only once before the \
                 barrier completes.\")",
                describe(p, &events[*a])
            ));
        }
    }
    out
}
