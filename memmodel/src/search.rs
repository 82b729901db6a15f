//! The search for a consistent execution with the outcome a test asks
//! about. Candidates are built in stages and pruned as soon as a stage
//! fails: one trace per thread (pruned by the registers of the outcome and
//! by barriers that would block), then reads-from (each read from a write of
//! its value; No-Thin-Air), then the open orders (Fence-SC order, which
//! barriers synchronize), then causality (Fence-SC, Causality on
//! reads-from), then coherence order (the edges causality forces, plus each
//! orientation of the morally strong pairs left), and last the remaining
//! axioms and the final memory values.

use crate::barrier::{self, ClusterBarriers, Copies};
use crate::event::{Event, Kind, Sem};
use crate::model::{self, Axiom, Dynamic, Exec, Model, Violation};
use crate::program::{ModelError, Program};
use crate::rel::{members, Rel, MAX_EVENTS};
use crate::thread::{traces, Domains, Trace};
use ptx_litmus::{CmpOp, Expr, Instr, Litmus, Quantifier, Value};
use std::collections::{BTreeMap, HashMap};

/// What the search found.
#[derive(Clone, Debug)]
pub struct Verdict {
    /// The test's answer as Dat3M's CSVs give it: the `exists` outcome is
    /// reachable, or the `forall`/`~exists` condition holds in every
    /// execution.
    pub holds: bool,
    /// Whether some consistent execution has the outcome searched for: the
    /// `exists` (or `~exists`) condition, or the negation of `forall`.
    pub outcome_found: bool,
    /// A consistent execution with that outcome, when there is one.
    pub execution: Option<Execution>,
    /// When there is none: how many candidates with the outcome each axiom
    /// ruled out, and the first such violation.
    pub violations: BTreeMap<Axiom, u64>,
    pub first_violation: Option<(Execution, Violation)>,
    /// Candidate executions considered (after the cheap pruning).
    pub candidates: u64,
    /// Undefined behaviour in some consistent execution (with or without
    /// the outcome): one message per rule broken, with the PTX ISA clause.
    /// Empty when no consistent execution has any.
    pub undefined: Vec<String>,
}

/// One execution, as events and the relations that explain it.
#[derive(Clone, Debug)]
pub struct Execution {
    pub events: Vec<Event>,
    pub relations: Vec<(&'static str, Vec<(usize, usize)>)>,
    /// Final register values per thread.
    pub regs: Vec<HashMap<String, i64>>,
}

/// The most candidate executions one test may have before the search gives up.
const MAX_CANDIDATES: u64 = 50_000_000;

/// Decides a test under a model.
pub fn check(test: &Litmus, model: Model) -> Result<Verdict, ModelError> {
    run(test, model, false, 1)
}

/// Decides a test and keeps a witness for the answer (slower).
pub fn explain(test: &Litmus, model: Model) -> Result<Verdict, ModelError> {
    run(test, model, true, 1)
}

/// [`check`] with each loop's body running up to `loop_bound` times on a
/// path (1 is [`check`]: once, as the Dat3M tests read loops).
pub fn check_bounded(test: &Litmus, model: Model, loop_bound: u32) -> Result<Verdict, ModelError> {
    run(test, model, false, loop_bound)
}

/// [`explain`] with each loop's body running up to `loop_bound` times.
pub fn explain_bounded(
    test: &Litmus,
    model: Model,
    loop_bound: u32,
) -> Result<Verdict, ModelError> {
    run(test, model, true, loop_bound)
}

fn run(test: &Litmus, model: Model, witness: bool, loop_bound: u32) -> Result<Verdict, ModelError> {
    let mut prog = Program::new(test, model)?;
    prog.loop_bound = loop_bound.max(1);
    let domains = value_domains(&prog)?;
    let per_thread: Vec<Vec<Trace>> = (0..test.threads.len())
        .map(|t| traces(&prog, t, &domains))
        .collect::<Result<_, _>>()?;
    let target = match test.condition.quantifier {
        Quantifier::Forall => Expr::Not(Box::new(test.condition.expr.clone())),
        _ => test.condition.expr.clone(),
    };
    let mut s = Search::new(&prog, target, witness);
    s.search(&per_thread)?;
    let found = s.verdict.outcome_found;
    s.verdict.holds = match test.condition.quantifier {
        Quantifier::Exists => found,
        Quantifier::NotExists | Quantifier::Forall => !found,
    };
    // Undefined behaviour may lie in executions without the outcome: a
    // second pass looks at every consistent execution until it finds some.
    if may_be_undefined(test) {
        let mut scan = Search {
            prog: &prog,
            target: Expr::Cmp(Value::Const(0), CmpOp::Eq, Value::Const(0)),
            witness: false,
            scan_undefined: true,
            verdict: Verdict {
                undefined: Vec::new(),
                candidates: 0,
                ..s.verdict.clone()
            },
        };
        scan.search(&per_thread)?;
        s.verdict.undefined = scan.verdict.undefined;
    }
    Ok(s.verdict)
}

/// Every outcome of a test over the terms its condition names: the final
/// values of those registers and locations, each with whether some
/// consistent execution ends with them.
#[derive(Clone, Debug)]
pub struct Outcomes {
    /// The condition's registers and locations, in order of first mention.
    pub terms: Vec<Value>,
    /// Candidate final values of `terms` (every combination the threads'
    /// traces and the locations' value domains allow), sorted, each with
    /// the model's answer: true when allowed.
    pub outcomes: Vec<(Vec<i64>, bool)>,
}

impl Outcomes {
    /// Whether these final values are allowed; false for values that are
    /// not among the candidates (no execution can produce them).
    pub fn allowed(&self, values: &[i64]) -> bool {
        self.outcomes
            .binary_search_by(|(v, _)| v.as_slice().cmp(values))
            .is_ok_and(|i| self.outcomes[i].1)
    }
}

/// Decides every outcome of a test: each combination of final values of
/// the terms in its condition, one search per combination.
pub fn outcomes(test: &Litmus, model: Model) -> Result<Outcomes, ModelError> {
    let prog = Program::new(test, model)?;
    let domains = value_domains(&prog)?;
    let per_thread: Vec<Vec<Trace>> = (0..test.threads.len())
        .map(|t| traces(&prog, t, &domains))
        .collect::<Result<_, _>>()?;
    let mut terms = Vec::new();
    terms_in(&test.condition.expr, &mut terms);
    // Register values come together from one trace per thread; a location
    // may end with any value of its domain.
    let mut parts: Vec<(Vec<usize>, Vec<Vec<i64>>)> = Vec::new();
    for (t, thread) in test.threads.iter().enumerate() {
        let idx: Vec<usize> = (0..terms.len())
            .filter(|&k| matches!(&terms[k], Value::Reg { thread: id, .. } if *id == thread.id))
            .collect();
        if idx.is_empty() {
            continue;
        }
        let mut combos: Vec<Vec<i64>> = per_thread[t]
            .iter()
            .map(|tr| {
                idx.iter()
                    .map(|&k| match &terms[k] {
                        Value::Reg { reg, .. } => tr.regs.get(reg).copied().unwrap_or(0),
                        _ => 0,
                    })
                    .collect()
            })
            .collect();
        combos.sort();
        combos.dedup();
        parts.push((idx, combos));
    }
    for (k, term) in terms.iter().enumerate() {
        if let Value::Loc(name) = term {
            // its initial value or a value some write stores (the domains
            // hold only values some read may see)
            let values = match prog.loc_index.get(name) {
                Some(&l) => {
                    let phys = prog.locs[l].phys;
                    let mut v = domains[phys].clone();
                    for e in per_thread.iter().flatten().flat_map(|tr| &tr.events) {
                        if let (true, Some(w)) = (e.is_write(), e.loc) {
                            if prog.locs[w].phys == phys {
                                v.push(e.value);
                            }
                        }
                    }
                    v.sort_unstable();
                    v.dedup();
                    v
                }
                None => vec![0],
            };
            parts.push((vec![k], values.into_iter().map(|v| vec![v]).collect()));
        }
    }
    let mut out = Vec::new();
    let mut pick = vec![0usize; parts.len()];
    if parts.iter().all(|(_, c)| !c.is_empty()) {
        loop {
            let mut values = vec![0i64; terms.len()];
            for ((idx, combos), &i) in parts.iter().zip(&pick) {
                for (&k, &v) in idx.iter().zip(&combos[i]) {
                    values[k] = v;
                }
            }
            let target = terms
                .iter()
                .zip(&values)
                .map(|(t, &v)| Expr::Cmp(t.clone(), CmpOp::Eq, Value::Const(v)))
                .reduce(|a, b| Expr::And(Box::new(a), Box::new(b)))
                .unwrap_or(Expr::Cmp(Value::Const(0), CmpOp::Eq, Value::Const(0)));
            let mut s = Search::new(&prog, target, false);
            s.search(&per_thread)?;
            out.push((values, s.verdict.outcome_found));
            if !advance(&mut pick, |k| parts[k].1.len()) {
                break;
            }
        }
    }
    out.sort();
    out.dedup();
    Ok(Outcomes {
        terms,
        outcomes: out,
    })
}

/// The registers and locations an expression names, in order of first
/// mention.
fn terms_in(e: &Expr, out: &mut Vec<Value>) {
    match e {
        Expr::Not(a) => terms_in(a, out),
        Expr::And(a, b) | Expr::Or(a, b) => {
            terms_in(a, out);
            terms_in(b, out);
        }
        Expr::Cmp(a, _, b) => {
            for v in [a, b] {
                if !matches!(v, Value::Const(_)) && !out.contains(v) {
                    out.push(v.clone());
                }
            }
        }
    }
}

/// Whether a test uses something whose misuse is undefined behaviour the
/// model detects: asynchronous copies, mbarriers, cluster barriers.
fn may_be_undefined(test: &Litmus) -> bool {
    test.threads.iter().flat_map(|t| &t.code).any(|i| {
        matches!(
            i,
            Instr::CpAsync { .. }
                | Instr::CpAsyncBulk { .. }
                | Instr::CpAsyncBulkTensor { .. }
                | Instr::CpReduceAsyncBulk { .. }
                | Instr::MbarrierArrive { .. }
                | Instr::MbarrierTestWait { .. }
                | Instr::MbarrierInit { .. }
                | Instr::CpAsyncMbarrierArrive { .. }
                | Instr::StAsync { .. }
                | Instr::ClusterArrive { .. }
        )
    })
}

/// The values each physical location may hold: its initial value and what
/// some write may store. Found in rounds: each round runs every thread on
/// the values known after the previous round. A value that needs a chain of
/// k reads appears by round k, and with loops unrolled once a chain has at
/// most one read per reading instruction, so the rounds stop there.
pub fn value_domains(p: &Program<'_>) -> Result<Domains, ModelError> {
    let mut d: Domains = p.locs.iter().map(|l| vec![p.locs[l.phys].init]).collect();
    let reads: usize = p
        .test
        .threads
        .iter()
        .flat_map(|t| &t.code)
        .map(|i| match i {
            Instr::Load { .. }
            | Instr::Atom { .. }
            | Instr::Red { .. }
            | Instr::CpAsync { .. }
            | Instr::CpAsyncBulk { .. } => 1,
            // A bulk reduction reads its source and its destination, a
            // tensor copy its map and its source.
            Instr::CpReduceAsyncBulk { .. } | Instr::CpAsyncBulkTensor { .. } => 2,
            _ => 0,
        })
        .sum();
    // each turn of a loop reads again
    let reads = reads * p.loop_bound.max(1) as usize;
    for _ in 0..reads {
        let mut next = d.clone();
        for t in 0..p.test.threads.len() {
            for tr in traces(p, t, &d)? {
                for e in &tr.events {
                    if let (true, Some(l)) = (e.is_write(), e.loc) {
                        let phys = p.locs[l].phys;
                        if !next[phys].contains(&e.value) {
                            next[phys].push(e.value);
                        }
                    }
                }
            }
        }
        for l in 0..next.len() {
            let phys = p.locs[l].phys;
            if phys != l {
                next[l] = next[phys].clone();
            }
        }
        if next == d {
            break;
        }
        d = next;
    }
    Ok(d)
}

/// Advances an odometer: `pick[k]` counts up to `len(k)`, the last slot
/// fastest. False once every combination has been visited.
fn advance(pick: &mut [usize], len: impl Fn(usize) -> usize) -> bool {
    for k in (0..pick.len()).rev() {
        pick[k] += 1;
        if pick[k] < len(k) {
            return true;
        }
        pick[k] = 0;
    }
    false
}

/// The orders a shape leaves open, to try under every reads-from choice,
/// and what its barrier objects and copies give.
struct Open {
    fence_orders: Vec<Rel>,
    barrier_choices: Vec<Rel>,
    /// One per order of the mbarrier operations.
    ext: Vec<Ext>,
    cluster: ClusterBarriers,
    copies: Copies,
    /// Whether the shape has a `fence.mbarrier_init`.
    init_fences: bool,
}

/// One order of the operations on the mbarriers: the synchronization it
/// gives (with the cluster barriers'), what each wait observes, the order
/// itself, and its undefined behaviour.
struct Ext {
    sync: Rel,
    observed: Rel,
    order: Rel,
    undefined: Vec<barrier::MbarrierUndefined>,
}

/// Groups a thread's traces by shape: the same events, dependencies and
/// orders, whatever the values.
fn group_by_shape(traces: &[Trace]) -> Vec<Vec<usize>> {
    let same = |a: &Trace, b: &Trace| {
        a.deps == b.deps
            && a.rmw == b.rmw
            && a.iso == b.iso
            && a.aso == b.aso
            && a.copies == b.copies
            && a.events.len() == b.events.len()
            && a.events.iter().zip(&b.events).all(|(x, y)| {
                Event {
                    value: y.value,
                    ..x.clone()
                } == *y
            })
    };
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, t) in traces.iter().enumerate() {
        match groups.iter_mut().find(|g| same(&traces[g[0]], t)) {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    groups
}

struct Search<'a> {
    prog: &'a Program<'a>,
    target: Expr,
    witness: bool,
    /// Looking for undefined behaviour in any consistent execution, not for
    /// the outcome.
    scan_undefined: bool,
    verdict: Verdict,
}

impl<'a> Search<'a> {
    /// A search for `target`, nothing found yet.
    fn new(prog: &'a Program<'a>, target: Expr, witness: bool) -> Search<'a> {
        Search {
            prog,
            target,
            witness,
            scan_undefined: false,
            verdict: Verdict {
                holds: false,
                outcome_found: false,
                execution: None,
                violations: BTreeMap::new(),
                first_violation: None,
                candidates: 0,
                undefined: Vec::new(),
            },
        }
    }
}

/// Three-valued truth, for conditions whose memory values are not known yet.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Truth {
    False,
    Unknown,
    True,
}

fn eval(e: &Expr, reg: &dyn Fn(u32, &str) -> i64, mem: &dyn Fn(&str) -> Option<i64>) -> Truth {
    match e {
        Expr::Not(a) => match eval(a, reg, mem) {
            Truth::True => Truth::False,
            Truth::False => Truth::True,
            Truth::Unknown => Truth::Unknown,
        },
        Expr::And(a, b) => match (eval(a, reg, mem), eval(b, reg, mem)) {
            (Truth::False, _) | (_, Truth::False) => Truth::False,
            (Truth::True, Truth::True) => Truth::True,
            _ => Truth::Unknown,
        },
        Expr::Or(a, b) => match (eval(a, reg, mem), eval(b, reg, mem)) {
            (Truth::True, _) | (_, Truth::True) => Truth::True,
            (Truth::False, Truth::False) => Truth::False,
            _ => Truth::Unknown,
        },
        Expr::Cmp(a, op, b) => {
            let val = |v: &Value| match v {
                Value::Const(c) => Some(*c),
                Value::Reg { thread, reg: r } => Some(reg(*thread, r)),
                Value::Loc(l) => mem(l),
            };
            match (val(a), val(b)) {
                (Some(x), Some(y)) => {
                    if op.holds(x, y) {
                        Truth::True
                    } else {
                        Truth::False
                    }
                }
                _ => Truth::Unknown,
            }
        }
    }
}

fn locations_in(e: &Expr, out: &mut Vec<String>) {
    match e {
        Expr::Not(a) => locations_in(a, out),
        Expr::And(a, b) | Expr::Or(a, b) => {
            locations_in(a, out);
            locations_in(b, out);
        }
        Expr::Cmp(a, _, b) => {
            for v in [a, b] {
                if let Value::Loc(l) = v {
                    if !out.contains(l) {
                        out.push(l.clone());
                    }
                }
            }
        }
    }
}

/// Every orientation of `pairs` that keeps `base` plus the chosen edges
/// acyclic, closed transitively when `close` is set.
fn orientations(base: &Rel, pairs: &[(usize, usize)], close: bool, out: &mut Vec<Rel>) {
    fn go(cur: Rel, pairs: &[(usize, usize)], close: bool, out: &mut Vec<Rel>) {
        let Some((&(a, b), rest)) = pairs.split_first() else {
            out.push(cur);
            return;
        };
        if cur.contains(a, b) || cur.contains(b, a) {
            return go(cur, rest, close, out);
        }
        for (x, y) in [(a, b), (b, a)] {
            let mut next = cur.clone();
            next.add(x, y);
            if close {
                next = next.plus();
            }
            if next.is_acyclic() {
                go(next, rest, close, out);
            }
        }
    }
    go(base.clone(), pairs, close, out);
}

impl Search<'_> {
    /// Every combination of one shape of trace per thread.
    fn search(&mut self, per_thread: &[Vec<Trace>]) -> Result<(), ModelError> {
        // Traces that differ only in the values read share their structure,
        // so the relations that do not depend on values are built once per
        // shape.
        let shapes: Vec<Vec<Vec<usize>>> = per_thread.iter().map(|ts| group_by_shape(ts)).collect();
        if shapes.iter().any(|g| g.is_empty()) {
            return Ok(());
        }
        let mut pick = vec![0usize; shapes.len()];
        loop {
            let groups: Vec<&[usize]> = pick
                .iter()
                .zip(&shapes)
                .map(|(&i, g)| g[i].as_slice())
                .collect();
            if self.shape_combination(per_thread, &groups)?
                || !advance(&mut pick, |k| shapes[k].len())
            {
                return Ok(());
            }
        }
    }

    fn regs_of<'t>(&self, chosen: &[&'t Trace]) -> impl Fn(u32, &str) -> i64 + 't {
        let regs: Vec<&'t HashMap<String, i64>> = chosen.iter().map(|t| &t.regs).collect();
        move |t: u32, r: &str| {
            regs.get(t as usize)
                .and_then(|m| m.get(r))
                .copied()
                .unwrap_or(0)
        }
    }

    /// Considers one shape of trace per thread, and within it every choice
    /// of values; returns true when the search is over.
    fn shape_combination(
        &mut self,
        per_thread: &[Vec<Trace>],
        groups: &[&[usize]],
    ) -> Result<bool, ModelError> {
        let p = self.prog;
        let shape: Vec<&Trace> = groups
            .iter()
            .zip(per_thread)
            .map(|(g, ts)| &ts[g[0]])
            .collect();
        // Events: one initial write per physical location, then each trace.
        let mut events: Vec<Event> = Vec::new();
        for (l, loc) in p.locs.iter().enumerate() {
            if loc.phys == l {
                events.push(Event {
                    thread: None,
                    pc: None,
                    kind: Kind::Init,
                    loc: Some(l),
                    value: loc.init,
                    sem: Sem::Weak,
                    scope: None,
                    proxy: None,
                    is_async: false,
                    rmw: false,
                    place: None,
                });
            }
        }
        let mut offsets = Vec::new();
        for tr in &shape {
            offsets.push(events.len());
            events.extend(tr.events.iter().cloned());
        }
        let n = events.len();
        if n > MAX_EVENTS {
            return Err(ModelError::TooManyEvents(MAX_EVENTS));
        }
        let Some(barrier_choices) = barriers(p, &events) else {
            return Ok(false);
        };
        let Some(cluster) = barrier::cluster_barriers(p, &events) else {
            return Ok(false);
        };
        let mut po = Rel::empty(n);
        let mut rmw = Rel::empty(n);
        let mut dep = Rel::empty(n);
        let mut iso = Rel::empty(n);
        let mut aso = Rel::empty(n);
        let mut copies: Copies = Vec::new();
        for (tr, &off) in shape.iter().zip(&offsets) {
            let visible: Vec<usize> = (0..tr.events.len())
                .filter(|&i| !tr.events[i].is_async)
                .collect();
            for (k, &a) in visible.iter().enumerate() {
                for &b in &visible[k + 1..] {
                    po.add(off + a, off + b);
                }
            }
            for &(a, b) in &tr.rmw {
                rmw.add(off + a, off + b);
            }
            for &(a, b) in &tr.deps {
                if events[off + a].is_memory() {
                    dep.add(off + a, off + b);
                }
            }
            for &(a, b) in &tr.iso {
                iso.add(off + a, off + b);
            }
            for &(a, b) in &tr.aso {
                aso.add(off + a, off + b);
            }
            for c in &tr.copies {
                let shift = |v: &Vec<usize>| v.iter().map(|i| off + i).collect();
                copies.push((shift(&c.reads), shift(&c.writes)));
            }
        }
        let init_fences = events.iter().any(|e| e.kind == Kind::MbarrierInitFence);
        let mut x = Exec::new(p, events, po, rmw, dep, iso, aso);
        let orders = barrier::mbarrier_orders(p, &x.events, &x.xo)?;
        if orders.is_empty() {
            return Ok(false);
        }
        let cluster_sync = model::barrier_sync(&x, &cluster.observed);
        let ext = orders
            .into_iter()
            .map(|o| Ext {
                sync: model::barrier_sync(&x, &o.observed).union(&cluster_sync),
                observed: o.observed.union(&cluster.observed),
                order: o.order,
                undefined: o.undefined,
            })
            .collect();
        // Fence-SC orders: orientations of the morally strong fence.sc pairs.
        let sc_pairs: Vec<(usize, usize)> =
            x.ms.union(&x.sr)
                .restrict(x.sets.f_sc, x.sets.f_sc)
                .pairs()
                .filter(|(a, b)| a < b)
                .collect();
        let mut fence_orders = Vec::new();
        orientations(&Rel::empty(n), &sc_pairs, false, &mut fence_orders);
        let open = Open {
            fence_orders,
            barrier_choices,
            ext,
            cluster,
            copies,
            init_fences,
        };
        let mut pick = vec![0usize; groups.len()];
        loop {
            let chosen: Vec<&Trace> = pick
                .iter()
                .zip(groups)
                .zip(per_thread)
                .map(|((&i, g), ts)| &ts[g[i]])
                .collect();
            for (tr, &off) in chosen.iter().zip(&offsets) {
                for (k, e) in tr.events.iter().enumerate() {
                    x.events[off + k].value = e.value;
                }
            }
            if self.values(&x, &chosen, &open)? {
                return Ok(true);
            }
            if !advance(&mut pick, |k| groups[k].len()) {
                return Ok(false);
            }
        }
    }

    /// Considers one trace per thread (values included): every reads-from
    /// choice that matches values; true when the search is over.
    fn values(&mut self, x: &Exec<'_>, chosen: &[&Trace], open: &Open) -> Result<bool, ModelError> {
        let reg = self.regs_of(chosen);
        if eval(&self.target, &reg, &|_| None) == Truth::False {
            return Ok(false);
        }
        let p = self.prog;
        let events = &x.events;
        let n = events.len();
        // Candidate writes of each read: same physical location, same value.
        let phys = |e: &Event| e.loc.map(|l| p.locs[l].phys);
        let reads: Vec<usize> = (0..n).filter(|&i| events[i].is_read()).collect();
        let mut sources = Vec::new();
        for &r in &reads {
            let c: Vec<usize> = (0..n)
                .filter(|&w| {
                    events[w].is_write()
                        && phys(&events[w]) == phys(&events[r])
                        && events[w].value == events[r].value
                })
                .collect();
            if c.is_empty() {
                return Ok(false);
            }
            sources.push(c);
        }
        let mut pick = vec![0usize; reads.len()];
        loop {
            self.verdict.candidates += 1;
            if self.verdict.candidates > MAX_CANDIDATES {
                return Err(ModelError::SearchLimit(MAX_CANDIDATES));
            }
            let mut rf = Rel::empty(n);
            for (k, &r) in reads.iter().enumerate() {
                rf.add(sources[k][pick[k]], r);
            }
            if self.candidate(x, chosen, &rf, open) {
                return Ok(true);
            }
            if !advance(&mut pick, |k| sources[k].len()) {
                return Ok(false);
            }
        }
    }

    fn record(
        &mut self,
        x: &Exec<'_>,
        chosen: &[&Trace],
        d: Option<&Dynamic>,
        rf: &Rel,
        co: Option<&Rel>,
        v: Violation,
    ) {
        *self.verdict.violations.entry(v.axiom).or_insert(0) += 1;
        if self.witness && self.verdict.first_violation.is_none() {
            let exec = snapshot(x, chosen, d, rf, co);
            self.verdict.first_violation = Some((exec, v));
        }
    }

    /// Checks one reads-from choice under every open order; true when a
    /// consistent execution with the outcome was found.
    fn candidate(&mut self, x: &Exec<'_>, chosen: &[&Trace], rf: &Rel, open: &Open) -> bool {
        if let Some(v) = model::no_thin_air(x, rf).or_else(|| model::async_order(x, rf)) {
            self.record(x, chosen, None, rf, None, v);
            return false;
        }
        for sf in &open.fence_orders {
            for sb in &open.barrier_choices {
                for e in &open.ext {
                    let d = Dynamic::new(x, rf.clone(), sf.clone(), sb.clone(), e.sync.clone());
                    if let Some(v) =
                        model::fence_sc(x, &d).or_else(|| model::causality_axiom(&d, None))
                    {
                        self.record(x, chosen, Some(&d), rf, None, v);
                        continue;
                    }
                    let init_cb = if open.init_fences {
                        model::init_causality(x, &d, &e.observed)
                    } else {
                        Rel::empty(x.n())
                    };
                    if let Some(v) =
                        model::mbarrier_order(&d.base_causality.union(&init_cb), &e.order)
                    {
                        self.record(x, chosen, Some(&d), rf, None, v);
                        continue;
                    }
                    // A wait completes after what it waits for: no cycle
                    // through a wait's arrivals (or mbarrier order) and base
                    // causality. Base causality alone may have cycles
                    // (`bar.cta` barriers synchronize with each other).
                    let waits_for = e.order.union(&open.cluster.completion);
                    let progress = if waits_for.is_empty() {
                        d.base_causality.clone()
                    } else {
                        d.base_causality.union(&waits_for).plus()
                    };
                    if let Some((a, b)) = waits_for.inter(&progress.inverse()).pairs().next() {
                        let v = Violation {
                            axiom: Axiom::BarrierProgress,
                            cycle: vec![(a, "waited for by", b), (b, "causes", a)],
                        };
                        self.record(x, chosen, Some(&d), rf, None, v);
                        continue;
                    }
                    if self.coherent(x, chosen, rf, &d) {
                        if !self.scan_undefined {
                            return true;
                        }
                        let mut ub: Vec<String> = e
                            .undefined
                            .iter()
                            .map(|u| u.message(self.prog, &x.events))
                            .collect();
                        ub.extend(barrier::copy_races(
                            self.prog,
                            &x.events,
                            &open.copies,
                            &d.base_causality,
                        ));
                        if open.init_fences || self.prog.mbars.iter().any(|m| m.count.is_none()) {
                            let cb = d.base_causality.union(&init_cb);
                            ub.extend(barrier::uses_before_init(self.prog, &x.events, &cb));
                        }
                        ub.extend(barrier::early_rearrivals(
                            self.prog,
                            &x.events,
                            &open.cluster,
                            &progress,
                        ));
                        if !ub.is_empty() {
                            ub.sort();
                            ub.dedup();
                            self.verdict.undefined = ub;
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// The coherence stage: true when some coherence order makes the
    /// execution consistent (with the outcome, unless scanning for
    /// undefined behaviour, where any consistent execution will do).
    fn coherent(&mut self, x: &Exec<'_>, chosen: &[&Trace], rf: &Rel, d: &Dynamic) -> bool {
        let required = model::coherence_required(x, d).plus();
        if let Some(a) = required.reflexive_point() {
            let v = Violation {
                axiom: Axiom::Coherence,
                cycle: vec![(a, "cause (same location)", a)],
            };
            self.record(x, chosen, Some(d), rf, Some(&required), v);
            return false;
        }
        // Adding coherence edges only removes writes from the last ones, so
        // if the least coherence order cannot give the final values asked
        // for, no coherence order can.
        if !self.scan_undefined && !self.final_state_matches(x, chosen, &required) {
            return false;
        }
        let choices = model::coherence_choices(x, &required);
        let mut cos = Vec::new();
        orientations(&required, &choices, true, &mut cos);
        for co in cos {
            let fr = model::from_reads(rf, &co);
            let bad = model::atomicity(x, &fr, &co)
                .or_else(|| match x.prog.model {
                    Model::Ptx60 => model::sc_per_location(x, rf, &co, &fr),
                    Model::Ptx75 => None,
                })
                .or_else(|| model::causality_axiom(d, Some(&fr)));
            if let Some(v) = bad {
                self.record(x, chosen, Some(d), rf, Some(&co), v);
                continue;
            }
            if self.scan_undefined {
                return true;
            }
            if self.final_state_matches(x, chosen, &co) {
                self.verdict.outcome_found = true;
                self.verdict.execution = Some(snapshot(x, chosen, Some(d), rf, Some(&co)));
                return true;
            }
        }
        false
    }

    /// Whether the outcome holds for some choice of final memory values: a
    /// location ends with the value of one of its last writes in coherence
    /// order (coherence order is partial, so there may be several).
    fn final_state_matches(&self, x: &Exec<'_>, chosen: &[&Trace], co: &Rel) -> bool {
        let mut names = Vec::new();
        locations_in(&self.target, &mut names);
        let options: Vec<Vec<i64>> = names
            .iter()
            .map(|name| {
                let phys = self
                    .prog
                    .loc_index
                    .get(name)
                    .map(|&l| self.prog.locs[l].phys);
                match phys {
                    Some(ph) => {
                        let mut vs: Vec<i64> = members(model::coherence_last(x, co, ph))
                            .map(|w| x.events[w].value)
                            .collect();
                        vs.sort_unstable();
                        vs.dedup();
                        vs
                    }
                    None => vec![0],
                }
            })
            .collect();
        let reg = self.regs_of(chosen);
        let mut pick = vec![0usize; names.len()];
        loop {
            let mem = |l: &str| {
                names
                    .iter()
                    .position(|n| n == l)
                    .and_then(|i| options[i].get(pick[i]).copied())
            };
            if eval(&self.target, &reg, &mem) == Truth::True {
                return true;
            }
            if !advance(&mut pick, |k| options[k].len()) {
                return false;
            }
        }
    }
}

/// The barrier events of a CTA barrier instance that block unless every one
/// of them is reached, and the synchronization they give. `None` when some
/// thread would wait forever, so the execution does not terminate (PTX ISA
/// 9.7.13.1: the barrier completes when the expected threads arrive).
/// Returns one relation per choice of which counted barriers synchronize.
fn barriers(p: &Program<'_>, events: &[Event]) -> Option<Vec<Rel>> {
    let n = events.len();
    let bars: Vec<usize> = (0..n)
        .filter(|&i| matches!(events[i].kind, Kind::Barrier(_)))
        .collect();
    if bars.is_empty() {
        return Some(vec![Rel::empty(n)]);
    }
    let b = |i: usize| match &events[i].kind {
        Kind::Barrier(b) => b,
        _ => unreachable!("filtered to barriers"),
    };
    let thread = |i: usize| events[i].thread.unwrap_or(0);
    // Every `bar.cta` instruction of the program, to see which were skipped.
    let statics: Vec<(u32, usize, &ptx_litmus::Instr)> = p
        .test
        .threads
        .iter()
        .flat_map(|t| {
            t.code
                .iter()
                .enumerate()
                .filter(|(_, i)| matches!(i, ptx_litmus::Instr::Barrier { .. }))
                .map(move |(pc, i)| (t.id, pc, i))
        })
        .collect();
    let reached = |t: u32, pc: usize| {
        bars.iter()
            .any(|&i| thread(i) == t && events[i].pc == Some(pc))
    };
    for &e in &bars {
        let be = b(e);
        let te = thread(e);
        for &(t, pc, instr) in &statics {
            let ptx_litmus::Instr::Barrier { instance, id, .. } = instr else {
                continue;
            };
            if *instance != be.instance
                || !p.same_cta(te, t)
                || id.is_some() != be.id.is_some()
                || reached(t, pc)
            {
                continue;
            }
            // An unreached barrier of the same instance: an unnamed one (or a
            // named one with the same immediate id and no count) leaves the
            // reached one waiting.
            let blocks = match (be.id, id) {
                (None, None) => true,
                (Some(v), Some(ptx_litmus::Operand::Imm(w))) => be.quorum.is_none() && v == *w,
                _ => false,
            };
            if blocks {
                return None;
            }
        }
    }
    // Which counted barriers synchronize: each choice must give every
    // reached counted barrier its count (those without a count always do).
    let counted: Vec<usize> = bars
        .iter()
        .copied()
        .filter(|&i| b(i).quorum.is_some())
        .collect();
    if counted.len() > 16 {
        return None;
    }
    let mut out = Vec::new();
    for mask in 0u32..(1 << counted.len()) {
        let syncs = |i: usize| match counted.iter().position(|&c| c == i) {
            Some(k) => mask >> k & 1 == 1,
            None => true,
        };
        let same_group = |a: usize, c: usize| {
            b(a).instance == b(c).instance
                && b(a).id.is_some() == b(c).id.is_some()
                && b(a).id == b(c).id
                && p.same_cta(thread(a), thread(c))
        };
        let ok = counted.iter().all(|&e| {
            let q = b(e).quorum.unwrap_or(0);
            let count = bars
                .iter()
                .filter(|&&c| same_group(e, c) && syncs(c))
                .count() as i64;
            count >= q
        });
        if !ok {
            continue;
        }
        let mut sb = Rel::empty(n);
        for &a in &bars {
            for &c in &bars {
                if a != c && same_group(a, c) && !b(c).arrive && syncs(a) {
                    sb.add(a, c);
                }
            }
        }
        out.push(sb);
    }
    if out.is_empty() {
        None
    } else {
        Some(out)
    }
}

/// Keeps an execution for a witness.
fn snapshot(
    x: &Exec<'_>,
    chosen: &[&Trace],
    d: Option<&Dynamic>,
    rf: &Rel,
    co: Option<&Rel>,
) -> Execution {
    let pairs = |r: &Rel| r.pairs().collect::<Vec<_>>();
    let mut relations = vec![
        ("po", pairs(&immediate(&x.po))),
        ("rf", pairs(rf)),
        ("rmw", pairs(&x.rmw)),
        ("dep", pairs(&x.dep)),
        ("iso", pairs(&x.iso)),
        ("aso", pairs(&x.aso)),
    ];
    if let Some(co) = co {
        relations.push(("co", pairs(&immediate(co))));
        relations.push(("fr", pairs(&immediate_fr(rf, co))));
    }
    if let Some(d) = d {
        relations.push(("sync", pairs(&d.sync)));
        relations.push(("fence-sc", pairs(&d.fence_sc)));
        relations.push(("sync-barrier", pairs(&d.sync_barrier)));
        relations.push(("sync-ext", pairs(&d.sync_ext)));
    }
    Execution {
        events: x.events.clone(),
        relations,
        regs: chosen.iter().map(|t| t.regs.clone()).collect(),
    }
}

/// The edges of a transitive relation that no third event splits.
fn immediate(r: &Rel) -> Rel {
    r.minus(&r.seq(r))
}

fn immediate_fr(rf: &Rel, co: &Rel) -> Rel {
    let fr = model::from_reads(rf, co);
    fr.minus(&fr.seq(co))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_valued_conditions() {
        let e = ptx_litmus::parse("PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P0:r0 == 1 /\\ x == 2)")
            .expect("parses")
            .condition
            .expr;
        let reg = |_: u32, _: &str| 1;
        assert!(eval(&e, &reg, &|_| None) == Truth::Unknown);
        assert!(eval(&e, &reg, &|_| Some(2)) == Truth::True);
        assert!(eval(&e, &|_, _| 0, &|_| None) == Truth::False);
    }
}
