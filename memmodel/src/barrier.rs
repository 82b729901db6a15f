//! Extension: the barrier objects of asynchronous completion, mbarriers
//! (PTX ISA 9.7.13.15) and the cluster barrier (PTX ISA 9.7.13.3), and the
//! undefined behaviour of asynchronous copies (PTX ISA 9.7.9.25.1).
//!
//! The operations on one mbarrier take effect one at a time, so an
//! execution fixes their order (like the coherence order of a location).
//! Each order is played against the object's counts and phase, as the
//! shared definition of the object, [`ptx_semantics::mbarrier`], keeps them
//! (the simulator plays the same object): "An mbarrier object
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

use crate::event::{Event, Kind, Proxy, Scope};
use crate::program::{ModelError, Program};
use crate::rel::Rel;
use ptx_semantics::mbarrier::{Op, Slot, State, Undefined, WaitRule, MAX_COUNT};

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
    pub undefined: Vec<MbarrierUndefined>,
}

/// Undefined behaviour met while playing an order of the operations on an
/// mbarrier: the event (`None`: the initial state), the object, the phase
/// it was in, and the rule. Kept unformatted, since most orders are never
/// reported ([`MbarrierUndefined::message`] gives the text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MbarrierUndefined {
    pub event: Option<usize>,
    pub mbar: usize,
    pub phase: Option<u32>,
    pub rule: Undefined,
}

impl MbarrierUndefined {
    /// The report: the event (or the object's initial state), the object
    /// and its phase, and the rule of the PTX ISA with its text.
    pub fn message(&self, p: &Program<'_>, events: &[Event]) -> String {
        let name = &p.mbars[self.mbar].name;
        let who = match self.event {
            Some(e) => format!("{} on `{name}`", describe(p, &events[e])),
            None => format!("the initial state of `{name}`"),
        };
        let u = self.rule;
        match self.phase {
            Some(k) => format!("{who} in its phase {k}: {u}"),
            None => format!("{who}: {u}"),
        }
    }
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

/// The operation on the mbarrier object (PTX ISA 9.7.13.15, as
/// [`ptx_semantics::mbarrier`] defines it) that an event performs; `None`
/// for inits (see [`Player::init`]), waits, and events that are no mbarrier
/// operation.
///
/// The shapes `thread.rs` builds: `mbarrier.arrive` is an arrive-on by 1
/// ([`Op::Arrive`]), and with `.expect_tx` one event carrying the tx-count
/// ([`Op::ArriveExpectTx`]: "the count argument of the arrive-on operation
/// is assumed to be 1", 9.7.13.15.13); `cp.async.mbarrier.arrive` is the
/// increment of the pending count (count -1, [`Op::IncPending`], absent
/// with `.noinc`) and the asynchronous arrive-on ([`Op::AsyncArrive`], an
/// asynchronous event, which returns no `state`); an asynchronous copy's
/// completion is [`Op::CompleteTx`]. An arrive event with count 0 and a
/// tx-count is a standalone [`Op::ExpectTx`]. Operands that do not fit a
/// `u32` become `u32::MAX`, which the object rejects as out of range.
fn op_of(ev: &Event) -> Option<Op> {
    let operand = |v: i64| u32::try_from(v).unwrap_or(u32::MAX);
    match ev.kind {
        Kind::MbarrierArrive { tx, count, .. } => {
            debug_assert!(
                matches!((count, tx), (-1, 0) | (0, _) | (1, _)),
                "no mbarrier event has count {count} and tx {tx}"
            );
            Some(match count {
                c if c < 0 => Op::IncPending,
                0 => Op::ExpectTx { tx: operand(tx) },
                _ if tx != 0 => Op::ArriveExpectTx { tx: operand(tx) },
                1 if ev.is_async => Op::AsyncArrive,
                c => Op::Arrive {
                    count: operand(c),
                    no_complete: false,
                },
            })
        }
        Kind::CompleteTx { bytes, .. } => Some(Op::CompleteTx { tx: operand(bytes) }),
        _ => None,
    }
}

/// One order of the operations on one mbarrier, played against the object
/// of [`ptx_semantics::mbarrier`].
struct Player {
    mbar: usize,
    slot: Slot,
    rule: WaitRule,
    /// Per thread, the `state` of its latest `mbarrier.arrive` on the
    /// object, what a wait without `.parity` tests (the litmus form has no
    /// state operand); a thread that has not arrived tests phase 0.
    tokens: Vec<State>,
    undefined: Vec<MbarrierUndefined>,
}

impl Player {
    fn report(&mut self, event: Option<usize>, phase: Option<u32>, rule: Undefined) {
        let u = MbarrierUndefined {
            event,
            mbar: self.mbar,
            phase,
            rule,
        };
        if !self.undefined.contains(&u) {
            self.undefined.push(u);
        }
    }

    /// `mbarrier.init` (or the initial state's count): a fresh object,
    /// phase 0, and no thread's state. On undefined behaviour (a count out
    /// of range, an init on a valid object) the rule is reported and the
    /// object is initialised anyway, with the count clamped to its range.
    fn init(&mut self, e: Option<usize>, count: i64) {
        let phase = self.slot.mbarrier().ok().map(|b| b.phase());
        let op = Op::Init {
            count: u32::try_from(count).unwrap_or(u32::MAX),
        };
        if let Err(u) = self.slot.apply(op) {
            self.report(e, phase, u);
            self.slot = Slot::Uninit;
            let count = count.clamp(1, i64::from(MAX_COUNT)) as u32;
            let _ = self.slot.apply(Op::Init { count });
        }
        self.tokens.fill(State::from_bits(0));
    }

    /// Applies an operation other than `init`. Undefined behaviour is
    /// reported and the order goes on, as follows. The rule of 9.7.13.15.4
    /// (an arrive-on in a phase whose preceding phase no wait saw complete)
    /// does not stop the arrive-on: it is applied without the rule. Any
    /// other rule leaves the object as it was, so the operation is skipped
    /// (an arrive-on when no arrival is pending is dropped, as if the
    /// pending count were clamped at 0), except that `arrive.expect_tx`
    /// keeps its step that is defined on its own (see below). An operation
    /// on an object not initialised yet is skipped silently:
    /// `uses_before_init` reports it, by causality.
    fn apply(&mut self, e: usize, ev: &Event, op: Op) {
        let t = ev.thread.unwrap_or(0) as usize;
        let Ok(before) = self.slot.mbarrier().map(|b| b.phase()) else {
            return;
        };
        let mut rule = self.rule;
        let u = loop {
            let u = match self.slot.apply_with(op, rule) {
                Ok(effect) => {
                    if let (Some(s), Some(tok)) = (effect.token, self.tokens.get_mut(t)) {
                        *tok = s;
                    }
                    return;
                }
                Err(u) => u,
            };
            self.report(Some(e), Some(before), u);
            if u == Undefined::WAIT_BEFORE_NEXT_ARRIVE && rule == WaitRule::Enforced {
                rule = WaitRule::Unchecked;
                continue;
            }
            break u;
        };
        if let Op::ArriveExpectTx { tx } = op {
            // Keep the step that is defined on its own: the expect-tx when
            // no arrival is pending (as if the arrive-on had clamped the
            // pending count at 0), the arrive-on when the tx-count would
            // leave its range.
            let part = match u {
                Undefined::PENDING_RANGE => Some(Op::ExpectTx { tx }),
                Undefined::TX_RANGE => Some(Op::Arrive {
                    count: 1,
                    no_complete: false,
                }),
                _ => None,
            };
            if let Some(Err(u)) = part.map(|part| self.slot.apply(part)) {
                self.report(Some(e), Some(before), u);
            }
        }
        // The arrive-on took place in phase `before`, or was meant to: that
        // is the state a later wait of the thread tests.
        if matches!(op, Op::Arrive { .. } | Op::ArriveExpectTx { .. }) {
            if let Some(tok) = self.tokens.get_mut(t) {
                *tok = State::from_bits(u64::from(before));
            }
        }
    }

    /// What a wait returns in the current state: `waitComplete` of
    /// `test_wait`/`try_wait`, with `.parity` or with the thread's state;
    /// `None` before any init (skipped, as `apply` does). Where the wait is
    /// undefined (a state two or more phases old, a parity that is neither
    /// 0 nor 1) the rule is reported and the wait answers whether the phase
    /// named has completed by counting phases: a state's phase once the
    /// object has moved past it, a parity's once the current phase has the
    /// other parity.
    fn wait(&mut self, e: usize, ev: &Event, parity: Option<i64>) -> Option<bool> {
        let t = ev.thread.unwrap_or(0) as usize;
        let b = *self.slot.mbarrier().ok()?;
        let token = self.tokens.get(t).copied().unwrap_or(State::from_bits(0));
        let answer = match parity {
            Some(par) => b.test_wait_parity(u32::try_from(par).unwrap_or(u32::MAX)),
            None => b.test_wait(token),
        };
        Some(answer.unwrap_or_else(|u| {
            self.report(Some(e), Some(b.phase()), u);
            match parity {
                Some(par) => i64::from(b.phase_parity()) != par,
                None => b.phase() > token.phase(),
            }
        }))
    }
}

/// Plays one order of the operations on mbarrier `m` against the mbarrier
/// object of [`ptx_semantics::mbarrier`] (its counts, phases and rules);
/// `None` when a wait would return something other than its trace's value.
///
/// The rule of 9.7.13.15.4 ("at least one test_wait or try_wait operation
/// must be performed which returns True for waitComplete before an
/// arrive-on operation in the subsequent phase") is checked
/// ([`WaitRule::Enforced`]) on objects that some `.parity` wait uses: the
/// parity names a phase by one bit, which is ambiguous once a phase
/// completes unseen. Undefined behaviour is reported with the event and the
/// rule, and the order is played on (see [`Player::apply`]).
fn play(p: &Program<'_>, events: &[Event], m: usize, seq: &[usize]) -> Option<MbarrierOrder> {
    let n = events.len();
    let mb = &p.mbars[m];
    let uses_parity = seq.iter().any(|&e| {
        matches!(
            events[e].kind,
            Kind::MbarrierWait {
                parity: Some(_),
                ..
            }
        )
    });
    let mut player = Player {
        mbar: m,
        slot: Slot::Uninit,
        rule: if uses_parity {
            WaitRule::Enforced
        } else {
            WaitRule::Unchecked
        },
        tokens: vec![State::from_bits(0); p.test.threads.len()],
        undefined: Vec::new(),
    };
    if let Some(count) = mb.count {
        player.init(None, count);
    }
    let mut order = Rel::empty(n);
    let mut observed = Rel::empty(n);
    for (k, &e) in seq.iter().enumerate() {
        for &later in &seq[k + 1..] {
            order.add(e, later);
        }
        let ev = &events[e];
        match ev.kind {
            Kind::MbarrierInit { count, .. } => player.init(Some(e), count),
            Kind::MbarrierWait { done, parity, .. } => {
                let Some(complete) = player.wait(e, ev, parity) else {
                    continue;
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
                    if let Ok(b) = player.slot.mbarrier_mut() {
                        b.note_wait_true();
                    }
                }
            }
            _ => {
                if let Some(op) = op_of(ev) {
                    player.apply(e, ev, op);
                }
            }
        }
    }
    Some(MbarrierOrder {
        observed,
        order,
        undefined: player.undefined,
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
                    if events[r].proxy == Some(Proxy::Tensormap) && !ordered(r) {
                        out.push(format!(
                            "{} writes `{loc}`, the tensor map of {}, while the copy may \
                             still read it (PTX ISA 9.7.9.25.1: modifying the tensor \
                             descriptor before the asynchronous operation completes \
                             exhibits undefined behavior)",
                            describe(p, oe),
                            describe(p, copy)
                        ));
                    } else if !ordered(r) {
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
