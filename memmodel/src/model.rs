//! The relations and axioms of the PTX memory consistency model (PTX ISA
//! chapter 8), each under the name the specification gives it. Two
//! variants: `Ptx75`, the model with proxies (morally strong operations use
//! the same proxy; base causality includes program order; causality goes
//! through the proxy-preserved base causality order), and `Ptx60`, the
//! model before proxies (with the SC-per-location axiom). The relations
//! follow the reading of the Dat3M `ptx-v7.5` and `ptx-v6.0` models, which
//! our verdicts match on their published tests; the extensions for cluster
//! scope and asynchronous operations are ours and are marked as such.

use crate::event::{AsyncSpace, Direction, Event, Kind, Proxy, Sem, Space};
use crate::program::Program;
use crate::rel::{full, members, Rel, Set};

/// Which model to decide tests under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Model {
    /// PTX ISA 6.0: no proxies.
    Ptx60,
    /// PTX ISA 7.5 onwards: proxies and aliases; here also cluster scope,
    /// the async proxy and asynchronous completion.
    Ptx75,
}

impl Model {
    pub fn name(self) -> &'static str {
        match self {
            Model::Ptx60 => "ptx6.0",
            Model::Ptx75 => "ptx7.5",
        }
    }

    /// `ptx6.0` or `ptx7.5`.
    pub fn parse(s: &str) -> Option<Model> {
        match s {
            "ptx6.0" => Some(Model::Ptx60),
            "ptx7.5" => Some(Model::Ptx75),
            _ => None,
        }
    }
}

/// The axioms (PTX ISA 8.10) and the conditions our extensions add.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Axiom {
    Coherence,
    FenceSc,
    Atomicity,
    NoThinAir,
    ScPerLocation,
    Causality,
    /// Extension: the operations on one mbarrier object take effect in one
    /// order, and that order does not contradict base causality order.
    MbarrierOrder,
    /// Extension: a barrier wait completes only after the arrivals it waits
    /// for (and the exits of threads that do not arrive).
    BarrierProgress,
    /// Extension: a read cannot return the value of an asynchronous write
    /// issued after it, and a completed asynchronous read cannot return the
    /// value of a later write of the thread that waited for it.
    AsyncOrder,
}

impl Axiom {
    pub fn name(self) -> &'static str {
        match self {
            Axiom::Coherence => "Coherence",
            Axiom::FenceSc => "Fence-SC",
            Axiom::Atomicity => "Atomicity",
            Axiom::NoThinAir => "No-Thin-Air",
            Axiom::ScPerLocation => "Sequential-Consistency-Per-Location",
            Axiom::Causality => "Causality",
            Axiom::MbarrierOrder => "mbarrier order (extension)",
            Axiom::BarrierProgress => "barrier progress (extension)",
            Axiom::AsyncOrder => "asynchronous order (extension)",
        }
    }

    /// The section of the PTX ISA the axiom comes from.
    pub fn section(self) -> &'static str {
        match self {
            Axiom::Coherence => "PTX ISA 8.10.1",
            Axiom::FenceSc => "PTX ISA 8.10.2",
            Axiom::Atomicity => "PTX ISA 8.10.3",
            Axiom::NoThinAir => "PTX ISA 8.10.4",
            Axiom::ScPerLocation => "PTX ISA 8.10.5",
            Axiom::Causality => "PTX ISA 8.10.6",
            Axiom::MbarrierOrder => "PTX ISA 9.7.13.15",
            Axiom::BarrierProgress => "PTX ISA 9.7.13.3, 9.7.13.15",
            Axiom::AsyncOrder => "PTX ISA 8.9.1.1, 9.7.9.25.4.3",
        }
    }
}

/// An axiom an execution breaks, with a cycle of edges that shows it: each
/// step is `(from, relation name, to)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub axiom: Axiom,
    pub cycle: Vec<(usize, &'static str, usize)>,
}

/// The sets of events the model names.
#[derive(Clone, Debug, Default)]
pub struct Sets {
    pub all: Set,
    pub r: Set,
    pub w: Set,
    pub m: Set,
    pub f: Set,
    pub init: Set,
    /// `W & (RLX | REL)`: strong writes.
    pub strong_w: Set,
    /// `R & (RLX | ACQ)`: strong reads.
    pub strong_r: Set,
    /// Strong memory operations and every fence.
    pub strong: Set,
    /// Releases: writes with release semantics.
    pub w_rel: Set,
    /// Acquires: reads with acquire semantics.
    pub r_acq: Set,
    /// `fence.acq_rel`.
    pub f_acq_rel: Set,
    /// `fence.sc`.
    pub f_sc: Set,
    /// Proxy fences with `.release` semantics
    /// (`fence.proxy.tensormap::generic.release`).
    pub f_proxy_rel: Set,
    /// Proxy fences with `.acquire` semantics
    /// (`fence.proxy.tensormap::generic.acquire`).
    pub f_proxy_acq: Set,
    /// Memory operations and fences of the generic proxy.
    pub generic: Set,
    pub alias_fence: Set,
}

/// A candidate execution: events with the relations fixed by the threads'
/// traces (program order, dependencies, read-modify-write pairs,
/// asynchronous order) and the static relations derived from them.
pub struct Exec<'p> {
    pub prog: &'p Program<'p>,
    pub events: Vec<Event>,
    pub sets: Sets,
    pub po: Rel,
    pub rmw: Rel,
    pub dep: Rel,
    /// Issue order (extension, PTX ISA 8.9.1.1): prior instructions before
    /// the memory operations of an asynchronous instruction.
    pub iso: Rel,
    /// Asynchronous completion order (extension, PTX ISA 8.9.1.1 and
    /// 9.7.9.25.1): an asynchronous instruction's memory operations before
    /// its completion and what observes the completion in its thread.
    pub aso: Rel,
    /// The order in which each thread performs its operations: program,
    /// issue and completion order, closed transitively.
    pub xo: Rel,
    /// Same physical location.
    pub loc: Rel,
    /// Same generic address (PTX ISA 8.2.1: operations overlap when they use
    /// the same virtual address).
    pub vloc: Rel,
    /// Both threads in one CTA.
    pub scta: Rel,
    /// Both performed through the same proxy.
    pub same_proxy: Rel,
    /// `sr`: both have a scope, and each scope includes the other's thread.
    pub sr: Rel,
    pub ms: Rel,
    pub release_pattern: Rel,
    pub acquire_pattern: Rel,
    /// `[F]; (same proxy & same CTA); [M]`: a proxy fence and the memory
    /// operations of its proxy in its CTA that it orders after the
    /// operations of other proxies (its release side).
    pub proxy_fence_after: Rel,
    /// The same, for the operations it orders before the operations of
    /// other proxies (its acquire side). Equal to `proxy_fence_after`
    /// except for the uni-directional fences.
    pub proxy_fence_before: Rel,
}

impl<'p> Exec<'p> {
    pub fn new(
        prog: &'p Program<'p>,
        events: Vec<Event>,
        po: Rel,
        rmw: Rel,
        dep: Rel,
        iso: Rel,
        aso: Rel,
    ) -> Exec<'p> {
        let n = events.len();
        let sets = sets(&events);
        // Pairwise relations through groups: events keyed alike are related.
        let grouped = |key: &dyn Fn(&Event) -> Option<usize>| {
            let mut groups: std::collections::HashMap<usize, Set> =
                std::collections::HashMap::new();
            for (i, e) in events.iter().enumerate() {
                if let Some(k) = key(e) {
                    *groups.entry(k).or_insert(0) |= 1 << i;
                }
            }
            let mut r = Rel::empty(n);
            for (i, e) in events.iter().enumerate() {
                if let Some(k) = key(e) {
                    r.set_row(i, groups[&k]);
                }
            }
            r
        };
        let memory = |e: &Event| e.is_memory();
        let loc = grouped(&|e| e.loc.filter(|_| memory(e)).map(|l| prog.locs[l].phys));
        let vloc = grouped(&|e| e.loc.filter(|_| memory(e)).map(|l| prog.locs[l].generic));
        let cta_key = |e: &Event| {
            e.place
                .or_else(|| e.thread.map(|t| prog.places[t as usize]))
                .map(|(g, cl, c)| ((g as usize) << 40) | ((cl as usize) << 20) | c as usize)
        };
        let scta = grouped(&cta_key);
        let same_proxy = grouped(&|e| e.proxy.map(|p| p as usize));
        // `sr`: each event has a scope that includes the other's thread.
        let mut in_scope = Rel::empty(n);
        for (a, ea) in events.iter().enumerate() {
            if let (Some(ta), Some(sa)) = (ea.thread, ea.scope) {
                let mut row = 0;
                for (b, eb) in events.iter().enumerate() {
                    if eb.scope.is_some() && eb.thread.is_some_and(|tb| prog.in_scope(ta, sa, tb)) {
                        row |= 1 << b;
                    }
                }
                in_scope.set_row(a, row);
            }
        }
        let sr = in_scope.inter(&in_scope.inverse()).irreflexive_part();
        let xo = po.union(&iso).union(&aso).plus();
        let mut x = Exec {
            prog,
            events,
            sets,
            po,
            rmw,
            dep,
            iso,
            aso,
            xo,
            loc,
            vloc,
            scta,
            same_proxy,
            sr,
            ms: Rel::empty(n),
            release_pattern: Rel::empty(n),
            acquire_pattern: Rel::empty(n),
            proxy_fence_after: Rel::empty(n),
            proxy_fence_before: Rel::empty(n),
        };
        x.ms = morally_strong(&x);
        x.release_pattern = release_pattern(&x);
        x.acquire_pattern = acquire_pattern(&x);
        x.proxy_fence_after = proxy_fence_ops(&x, Direction::Release);
        x.proxy_fence_before = proxy_fence_ops(&x, Direction::Acquire);
        x
    }

    pub fn n(&self) -> usize {
        self.events.len()
    }

    fn model(&self) -> Model {
        self.prog.model
    }

    /// Program order on one location: `po & loc` (PTX 6.0) or `po & vloc`
    /// (PTX 7.5, where aliases are different addresses).
    fn po_loc(&self) -> Rel {
        match self.model() {
            Model::Ptx60 => self.po.inter(&self.loc),
            Model::Ptx75 => self.po.inter(&self.vloc),
        }
    }
}

fn sets(events: &[Event]) -> Sets {
    let mut s = Sets::default();
    for (i, e) in events.iter().enumerate() {
        let bit = 1u128 << i;
        s.all |= bit;
        let add = |set: &mut Set, cond: bool| {
            if cond {
                *set |= bit
            }
        };
        add(&mut s.r, e.is_read());
        add(&mut s.w, e.is_write());
        add(&mut s.m, e.is_memory());
        add(&mut s.f, e.is_fence());
        add(&mut s.init, e.kind == Kind::Init);
        let strong_sem = matches!(e.sem, Sem::Relaxed | Sem::Acquire | Sem::Release);
        // Barrier objects: arrive-on and complete-tx write them, waits read
        // them (extension; PTX ISA 8.8 lists `mbarrier.arrive.release [M]`
        // and `mbarrier.test_wait.acquire [M]` among the patterns).
        let w_like = e.kind == Kind::Write || e.is_barrier_write();
        let r_like = e.is_read() || e.is_barrier_read();
        add(
            &mut s.strong_w,
            w_like && strong_sem && e.sem != Sem::Acquire,
        );
        add(
            &mut s.strong_r,
            r_like && strong_sem && e.sem != Sem::Release,
        );
        add(&mut s.w_rel, w_like && e.sem == Sem::Release);
        add(&mut s.r_acq, r_like && e.sem == Sem::Acquire);
        add(
            &mut s.f_acq_rel,
            e.kind == Kind::MemoryFence && e.sem == Sem::AcqRel,
        );
        add(&mut s.f_sc, e.kind == Kind::MemoryFence && e.sem == Sem::Sc);
        let proxy_fence = matches!(e.kind, Kind::ProxyFence { .. });
        add(&mut s.f_proxy_rel, proxy_fence && e.sem == Sem::Release);
        add(&mut s.f_proxy_acq, proxy_fence && e.sem == Sem::Acquire);
        add(&mut s.generic, e.proxy == Some(Proxy::Generic));
        add(&mut s.alias_fence, e.kind == Kind::AliasFence);
    }
    s.strong = s.strong_w | s.strong_r | s.f;
    s
}

/// Morally strong (PTX ISA 8.7): "related in program order, or each
/// operation is strong and specifies a scope that includes the thread
/// executing the other operation"; "both operations are performed via the
/// same proxy" (PTX 7.5 only); "if both are memory operations, then they
/// overlap completely".
fn morally_strong(x: &Exec<'_>) -> Rel {
    let s = &x.sets;
    let ordered = x.po.union(&x.po.inverse());
    let scoped = x.sr.restrict(s.strong, s.strong);
    let ms1 = ordered.union(&scoped);
    let overlap = match x.model() {
        Model::Ptx60 => &x.loc,
        Model::Ptx75 => &x.vloc,
    };
    let not_both_memory = Rel::product(x.n(), s.all, s.all).minus(&Rel::product(x.n(), s.m, s.m));
    let ms3 = overlap.restrict(s.m, s.m).union(&not_both_memory);
    let mut ms = ms1.inter(&ms3);
    if x.model() == Model::Ptx75 {
        ms = ms.inter(&x.same_proxy);
    }
    ms.irreflexive_part()
}

/// Release pattern (PTX ISA 8.8): a release operation, or one followed by a
/// strong write to the same location, or a release fence followed by a
/// strong write: `[W & REL]; po-loc?; [strong W] | [F & ACQ_REL]; po; [strong W]`.
/// A release proxy fence takes the fence's place (PTX ISA 9.7.13.4: "A
/// .release proxy fence can form a release sequence that synchronizes with
/// an acquire sequence that contains a .acquire proxy fence."); being in
/// its own proxy, it is morally strong only with proxy fences of that
/// proxy, so it synchronizes with those alone.
fn release_pattern(x: &Exec<'_>) -> Rel {
    let s = &x.sets;
    let a = x.po_loc().opt().restrict(s.w_rel, s.strong_w);
    let b = x.po.restrict(s.f_acq_rel | s.f_proxy_rel, s.strong_w);
    a.union(&b)
}

/// Acquire pattern (PTX ISA 8.8): an acquire operation, or a strong read
/// followed by one on the same location, or a strong read followed by an
/// acquire fence: `[strong R]; po-loc?; [R & ACQ] | [strong R]; po; [F & ACQ_REL]`.
/// An acquire proxy fence takes the fence's place (the acquire sequence of
/// PTX ISA 9.7.13.4, as for `release_pattern`).
fn acquire_pattern(x: &Exec<'_>) -> Rel {
    let s = &x.sets;
    let a = x.po_loc().opt().restrict(s.strong_r, s.r_acq);
    let b = x.po.restrict(s.strong_r, s.f_acq_rel | s.f_proxy_acq);
    a.union(&b)
}

/// Proxy fences and the memory operations of their proxy in their CTA (PTX
/// ISA 8.6, 9.7.13.4), on the side `side` of the fence: a uni-directional
/// `fence.proxy.async::generic` fence only has its own side. A
/// `fence.proxy.async` limited to a state space only covers that space:
/// `.shared::cta` the shared memory of the fence's CTA, `.shared::cluster`
/// any shared memory of its cluster. Both `fence.proxy.tensormap::generic`
/// forms are uni-directional from the generic proxy to the tensormap
/// proxy ("A uni-directional proxy ordering from the from-proxykind to the
/// to-proxykind establishes ordering between a prior memory access
/// performed via the from-proxykind and a subsequent memory access
/// performed via the to-proxykind.", PTX ISA 9.7.13.4) and cover the
/// tensormap-proxy accesses of their CTA; the acquire form only those of
/// its address ("The address operand addr and the operand size together
/// specify the memory range [addr, addr+size-1] on which the ordering
/// guarantees on the memory accesses across the proxies is to be
/// provided.").
fn proxy_fence_ops(x: &Exec<'_>, side: Direction) -> Rel {
    let ev = &x.events;
    let p = x.prog;
    let mut r = Rel::empty(x.n());
    for f in members(x.sets.f) {
        if ev[f].proxy.is_none() || ev[f].kind == Kind::MbarrierInitFence {
            continue;
        }
        let (space, direction, range) = match ev[f].kind {
            Kind::ProxyFence {
                space,
                direction,
                range,
            } => (space, direction, range),
            _ => (None, None, None),
        };
        if direction.is_some_and(|d| d != side) {
            continue;
        }
        let Some(tf) = ev[f].thread else { continue };
        let here = ev[f].place.unwrap_or(p.places[tf as usize]);
        let async_fence =
            matches!(ev[f].kind, Kind::ProxyFence { .. }) && ev[f].proxy == Some(Proxy::Async);
        let mut row = 0;
        for m in members(x.same_proxy.row(f) & x.sets.m) {
            let Some(l) = ev[m].loc else { continue };
            let loc = &p.locs[l];
            if range.is_some_and(|a| p.locs[a].generic != loc.generic) {
                continue;
            }
            let place = ev[m]
                .place
                .or_else(|| ev[m].thread.map(|t| p.places[t as usize]));
            let same_cta = place == Some(here);
            let same_cluster = place.is_some_and(|(g, cl, _)| (g, cl) == (here.0, here.1));
            let shared = loc.space == Space::Shared;
            let covered = match space {
                // Every state space: the CTA's operations, and shared memory
                // anywhere in the cluster (the .shared::cluster window).
                None => same_cta || (async_fence && shared && same_cluster),
                Some(AsyncSpace::Global) => same_cta && loc.space == Space::Global,
                Some(AsyncSpace::SharedCluster) => shared && same_cluster,
                Some(AsyncSpace::SharedCta) => {
                    same_cta && shared && !matches!(p.owner_place(l, tf), Some(o) if o != here)
                }
            };
            if covered {
                row |= 1 << m;
            }
        }
        r.set_row(f, row);
    }
    r
}

/// The relations that depend on a choice of reads-from and of the orders
/// the model leaves open (Fence-SC order, which barriers synchronize).
pub struct Dynamic {
    pub rf: Rel,
    /// Fence-SC order (PTX ISA 8.9.3).
    pub fence_sc: Rel,
    /// Synchronization of `bar.cta` barriers (PTX ISA 8.9.4, second rule).
    pub sync_barrier: Rel,
    /// Extension: mbarrier and cluster-barrier synchronization.
    pub sync_ext: Rel,
    pub observation: Rel,
    pub sync: Rel,
    pub base_causality: Rel,
    pub cause: Rel,
}

/// Observation order (PTX ISA 8.9.2): a write precedes a morally strong read
/// that reads it, through an optional chain of atomic read-modify-writes.
pub fn observation(x: &Exec<'_>, rf: &Rel) -> Rel {
    let direct = x.ms.inter(rf);
    match x.model() {
        Model::Ptx75 => direct.union(&x.rmw),
        Model::Ptx60 => {
            let mut obs = direct.clone();
            loop {
                let next = direct.union(&obs.seq(&x.rmw).seq(&obs));
                if next == obs {
                    return obs;
                }
                obs = next;
            }
        }
    }
}

/// Synchronizes-with for release and acquire patterns (PTX ISA 8.9.4,
/// fourth rule): a write of the release pattern precedes a read of the
/// acquire pattern in observation order, and the pattern's ends are morally
/// strong.
pub fn synchronizes_with(x: &Exec<'_>, obs: &Rel) -> Rel {
    let chain = match x.model() {
        Model::Ptx75 => obs.plus(),
        Model::Ptx60 => obs.clone(),
    };
    x.ms.inter(&x.release_pattern.seq(&chain).seq(&x.acquire_pattern))
}

/// Base causality order (PTX ISA 8.9.5): program order, synchronizes-with
/// (patterns, Fence-SC order, barriers), and their transitive combinations.
/// Under PTX 6.0 plain program order is not included on its own.
/// Extension: asynchronous completion order joins the chains; issue order
/// may only end one, since the operations of an asynchronous instruction
/// are "ordered after prior instructions" but its completion "does not
/// transitively establish ordering with respect to prior instructions from
/// the issuing thread" (PTX ISA 8.9.1.1).
pub fn base_causality(x: &Exec<'_>, sync: &Rel) -> Rel {
    let po_opt = x.po.opt();
    let step = sync.union(&x.aso).seq(&po_opt).plus();
    let cb = po_opt.seq(&step);
    let cb = match x.model() {
        Model::Ptx75 => cb.union(&x.po),
        Model::Ptx60 => cb,
    };
    if x.iso.is_empty() {
        return cb;
    }
    cb.union(&cb.opt().seq(&x.iso))
}

/// Synchronization through a barrier object (extension): a release
/// pattern ending in an arrive-on or complete-tx, the wait that observes
/// it, and an acquire pattern starting at the wait, with morally strong
/// ends (PTX ISA 8.8, 8.9.4). `observed` relates each arrival to the waits
/// that see it.
pub fn barrier_sync(x: &Exec<'_>, observed: &Rel) -> Rel {
    x.ms.inter(&x.release_pattern.seq(observed).seq(&x.acquire_pattern))
}

/// Proxy-preserved base causality order (PTX ISA 8.9.5): base causality
/// between memory operations that use the generic proxy on the same address;
/// or the same proxy, the same address and the same CTA; or, for aliases or
/// different proxies, with the proxy fences (and alias fence) along the path.
pub fn proxy_preserved(x: &Exec<'_>, cb: &Rel) -> Rel {
    let s = &x.sets;
    let gen_m = s.generic & s.m;
    if gen_m == s.m && s.alias_fence == 0 {
        // Only generic memory operations and no alias fence: every other
        // clause relates generic operations already related by the first.
        return x.vloc.inter(cb).restrict(gen_m, gen_m);
    }
    let cb_pf_inv = cb.inter(&x.proxy_fence_before.inverse());
    let cb_pf = cb.inter(&x.proxy_fence_after);
    let gen = |r: &Rel| r.restrict(gen_m, s.all);
    let to_gen = |r: &Rel| r.restrict(s.all, gen_m);
    let same_proxy = &x.same_proxy;
    let mut r = gen(&x.vloc.inter(cb)).restrict(s.all, gen_m);
    r = r.union(
        &same_proxy
            .inter(&x.scta)
            .inter(&x.vloc)
            .inter(cb)
            .restrict(s.m, s.m),
    );
    let fenced_from = cb_pf_inv.seq(cb);
    r = r.union(&x.vloc.inter(&to_gen(&fenced_from)));
    r = r.union(&x.vloc.inter(&gen(&cb.seq(&cb_pf))));
    r = r.union(&x.vloc.inter(&fenced_from.seq(&cb_pf)));
    let via_alias = cb.restrict(s.all, s.alias_fence).seq(cb);
    r = r.union(&x.loc.inter(&to_gen(&gen(&via_alias))));
    r = r.union(&x.loc.inter(&to_gen(&cb_pf_inv.seq(&via_alias))));
    r = r.union(&x.loc.inter(&gen(&via_alias.seq(&cb_pf))));
    r = r.union(&x.loc.inter(&cb_pf_inv.seq(&via_alias).seq(&cb_pf)));
    r
}

/// Causality order (PTX ISA 8.9.5): proxy-preserved base causality order,
/// optionally preceded by observation order. Under PTX 6.0: base causality
/// order, or observation order followed by base causality or by program
/// order on the same location.
pub fn causality(x: &Exec<'_>, obs: &Rel, cb: &Rel) -> Rel {
    match x.model() {
        Model::Ptx75 => obs.opt().seq(&proxy_preserved(x, cb)),
        Model::Ptx60 => cb.union(&obs.seq(&cb.union(&x.po_loc()))),
    }
}

impl Dynamic {
    pub fn new(x: &Exec<'_>, rf: Rel, fence_sc: Rel, sync_barrier: Rel, sync_ext: Rel) -> Dynamic {
        let observation = observation(x, &rf);
        let sync = synchronizes_with(x, &observation);
        let all_sync = sync.union(&fence_sc).union(&sync_barrier).union(&sync_ext);
        let base_causality = base_causality(x, &all_sync);
        let cause = causality(x, &observation, &base_causality);
        Dynamic {
            rf,
            fence_sc,
            sync_barrier,
            sync_ext,
            observation,
            sync,
            base_causality,
            cause,
        }
    }
}

/// From-reads: a read precedes the writes that follow, in coherence order,
/// the write it reads from.
pub fn from_reads(rf: &Rel, co: &Rel) -> Rel {
    rf.inverse().seq(co)
}

/// Coherence (PTX ISA 8.10.1): "If a write W precedes an overlapping write W'
/// in causality order, then W must precede W' in coherence order." These are
/// the coherence edges every execution must have; a cycle among them breaks
/// the axiom.
pub fn coherence_required(x: &Exec<'_>, d: &Dynamic) -> Rel {
    let s = &x.sets;
    let init_first = x.loc.restrict(s.init, s.w & !s.init);
    let caused = d.cause.restrict(s.w, s.w).inter(&x.loc);
    init_first.union(&caused)
}

/// Overlapping morally strong writes must be related in coherence order
/// (PTX ISA 8.9.6): the pairs still unordered, each listed once.
pub fn coherence_choices(x: &Exec<'_>, co: &Rel) -> Vec<(usize, usize)> {
    let s = &x.sets;
    let strong_pairs = x.ms.restrict(s.w, s.w).inter(&x.loc);
    strong_pairs
        .pairs()
        .filter(|&(a, b)| a < b && !co.contains(a, b) && !co.contains(b, a))
        .collect()
}

/// Fence-SC (PTX ISA 8.10.2): "For a pair of morally strong fence.sc
/// operations F1 and F2, if F1 precedes F2 in causality order, then F1 must
/// precede F2 in Fence-SC order."
pub fn fence_sc(x: &Exec<'_>, d: &Dynamic) -> Option<Violation> {
    let s = &x.sets;
    let bad = d.cause.restrict(s.f_sc, s.f_sc).minus(&d.fence_sc);
    let (a, b) = bad.pairs().next()?;
    Some(Violation {
        axiom: Axiom::FenceSc,
        cycle: vec![(a, "cause", b), (b, "not fence-sc-before", a)],
    })
}

/// Atomicity (PTX ISA 8.10.3): an atomic cannot read from a write that
/// precedes, in coherence order, a morally strong write that itself precedes
/// the atomic's write: `((ms & fr); (ms & co)) & rmw` is empty.
pub fn atomicity(x: &Exec<'_>, fr: &Rel, co: &Rel) -> Option<Violation> {
    let bad = x.ms.inter(fr).seq(&x.ms.inter(co)).inter(&x.rmw);
    let (r, w) = bad.pairs().next()?;
    let mid = members(x.ms.inter(fr).row(r) & x.ms.inter(co).inverse().row(w)).next()?;
    Some(Violation {
        axiom: Axiom::Atomicity,
        cycle: vec![(r, "fr", mid), (mid, "co", w), (w, "rmw^-1", r)],
    })
}

/// No-Thin-Air (PTX ISA 8.10.4): values cannot justify themselves through
/// dependencies and reads-from: `rf | dep` is acyclic.
pub fn no_thin_air(x: &Exec<'_>, rf: &Rel) -> Option<Violation> {
    let r = rf.union(&x.dep);
    if r.is_acyclic() {
        return None;
    }
    let cycle = crate::witness::find_cycle(&r)?;
    Some(Violation {
        axiom: Axiom::NoThinAir,
        cycle: label_cycle(&cycle, &[(rf, "rf"), (&x.dep, "dep")]),
    })
}

/// Sequential consistency per location (PTX ISA 8.10.5, PTX 6.0 model):
/// morally strong communication and program order on a location do not form
/// a cycle.
pub fn sc_per_location(x: &Exec<'_>, rf: &Rel, co: &Rel, fr: &Rel) -> Option<Violation> {
    let com = rf.union(co).union(fr);
    let ms_com = x.ms.inter(&com);
    let r = ms_com.union(&x.po_loc());
    if r.is_acyclic() {
        return None;
    }
    let cycle = crate::witness::find_cycle(&r)?;
    let po_loc = x.po_loc();
    Some(Violation {
        axiom: Axiom::ScPerLocation,
        cycle: label_cycle(
            &cycle,
            &[
                (&x.ms.inter(rf), "rf"),
                (&x.ms.inter(co), "co"),
                (&x.ms.inter(fr), "fr"),
                (&po_loc, "po-loc"),
            ],
        ),
    })
}

/// Causality (PTX ISA 8.10.6): "Relations in communication order cannot
/// contradict causality order": a read cannot read from a write it causes,
/// nor from a write that precedes in coherence order a write that causes it:
/// `(rf | fr); cause` is irreflexive.
pub fn causality_axiom(d: &Dynamic, fr: Option<&Rel>) -> Option<Violation> {
    let (com, name) = match fr {
        Some(fr) => (d.rf.union(fr), "fr"),
        None => (d.rf.clone(), "rf"),
    };
    let r = com.seq(&d.cause);
    let a = r.reflexive_point()?;
    let b = members(com.row(a) & d.cause.inverse().row(a)).next()?;
    let label = if d.rf.contains(a, b) { "rf" } else { name };
    Some(Violation {
        axiom: Axiom::Causality,
        cycle: vec![(a, label, b), (b, "cause", a)],
    })
}

/// Asynchronous order (extension): a read cannot return the value of a
/// write its thread performs after it in program and completion order,
/// whatever the proxies (a copy's source read completed by
/// `cp.async.bulk.wait_group.read` cannot read a later store of the waiting
/// thread), nor one it issues after it through the same proxy or across a
/// proxy fence (PTX ISA 8.9.1.1, "ordered after prior instructions", read
/// with 8.9.5: accesses through different proxies are ordered only by a
/// proxy fence). A generic load before a copy is issued may return the
/// copy's value when no `fence.proxy.async` separates them: measured on an
/// H100 (docs/litmus-gpu.md). `rf ; ((po | aso)+ | pp(xo))` is irreflexive.
pub fn async_order(x: &Exec<'_>, rf: &Rel) -> Option<Violation> {
    let completion = x.po.union(&x.aso).plus();
    let order = if x.iso.is_empty() {
        completion
    } else {
        completion.union(&proxy_preserved(x, &x.xo))
    };
    let w = rf.seq(&order).reflexive_point()?;
    let r = members(rf.row(w) & order.inverse().row(w))
        .next()
        .unwrap_or(w);
    Some(Violation {
        axiom: Axiom::AsyncOrder,
        cycle: vec![(w, "rf", r), (r, "issue/completion order", w)],
    })
}

/// Mbarrier order (extension): the order of the operations on an mbarrier
/// does not contradict base causality order: `cb & order^-1` is empty.
pub fn mbarrier_order(cb: &Rel, order: &Rel) -> Option<Violation> {
    let (a, b) = cb.inter(&order.inverse()).pairs().next()?;
    Some(Violation {
        axiom: Axiom::MbarrierOrder,
        cycle: vec![(a, "base causality", b), (b, "mbarrier order", a)],
    })
}

/// What `fence.mbarrier_init.release.cluster` adds (extension, PTX ISA
/// 9.7.13.4): a release pattern made of the fence and a later strong write
/// that carries only the thread's prior `mbarrier.init` operations. The
/// base causality order from those inits, with that synchronization added.
pub fn init_causality(x: &Exec<'_>, d: &Dynamic, observed: &Rel) -> Rel {
    let mut inits = 0;
    let mut fences = 0;
    for (i, e) in x.events.iter().enumerate() {
        match e.kind {
            Kind::MbarrierInit { .. } => inits |= 1 << i,
            Kind::MbarrierInitFence => fences |= 1 << i,
            _ => {}
        }
    }
    let pattern = x.po.restrict(fences, x.sets.strong_w);
    let chain = observed.union(&d.observation.plus());
    let sync = x.ms.inter(&pattern.seq(&chain).seq(&x.acquire_pattern));
    let all = d
        .sync
        .union(&d.fence_sc)
        .union(&d.sync_barrier)
        .union(&d.sync_ext)
        .union(&sync);
    base_causality(x, &all).restrict(inits, x.sets.all)
}

/// Labels each step of a cycle with the first relation that holds it.
fn label_cycle(
    cycle: &[usize],
    rels: &[(&Rel, &'static str)],
) -> Vec<(usize, &'static str, usize)> {
    (0..cycle.len())
        .map(|i| {
            let (a, b) = (cycle[i], cycle[(i + 1) % cycle.len()]);
            let name = rels
                .iter()
                .find(|(r, _)| r.contains(a, b))
                .map_or("?", |(_, n)| n);
            (a, name, b)
        })
        .collect()
}

/// The writes last in coherence order among those to a physical location.
pub fn coherence_last(x: &Exec<'_>, co: &Rel, phys: usize) -> Set {
    let mut last = 0;
    for (i, e) in x.events.iter().enumerate() {
        if e.is_write()
            && e.loc.map(|l| x.prog.locs[l].phys) == Some(phys)
            && co.row(i) & full(x.n()) == 0
        {
            last |= 1 << i;
        }
    }
    last
}
