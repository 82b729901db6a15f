//! The relations and axioms of the PTX memory consistency model (PTX ISA
//! chapter 8), each under the name the specification gives it. Two
//! variants: `Ptx75`, the model with proxies (morally strong operations use
//! the same proxy; base causality includes program order; causality goes
//! through the proxy-preserved base causality order), and `Ptx60`, the
//! model before proxies (with the SC-per-location axiom). The relations
//! follow the reading of the Dat3M `ptx-v7.5` and `ptx-v6.0` models, which
//! our verdicts match on their published tests; the extensions for cluster
//! scope and asynchronous operations are ours and are marked as such.

use crate::event::{Event, Kind, Proxy, Sem};
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
    /// Extension: an mbarrier test that returns false cannot follow, in
    /// base causality order, everything that completes the phase.
    MbarrierPhase,
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
            Axiom::MbarrierPhase => "mbarrier phase (extension)",
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
            Axiom::MbarrierPhase => "PTX ISA 9.7.13.15.16",
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
    /// Asynchronous order (extension): issue order and completion, PTX ISA
    /// 8.9.1.1 and 9.7.9.25.1.
    pub aso: Rel,
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
    /// operations of its proxy in its CTA.
    pub proxy_fence_ops: Rel,
}

impl<'p> Exec<'p> {
    pub fn new(
        prog: &'p Program<'p>,
        events: Vec<Event>,
        po: Rel,
        rmw: Rel,
        dep: Rel,
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
            e.thread.map(|t| {
                let (g, cl, c) = prog.places[t as usize];
                ((g as usize) << 40) | ((cl as usize) << 20) | c as usize
            })
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
        let mut x = Exec {
            prog,
            events,
            sets,
            po,
            rmw,
            dep,
            aso,
            loc,
            vloc,
            scta,
            same_proxy,
            sr,
            ms: Rel::empty(n),
            release_pattern: Rel::empty(n),
            acquire_pattern: Rel::empty(n),
            proxy_fence_ops: Rel::empty(n),
        };
        x.ms = morally_strong(&x);
        x.release_pattern = release_pattern(&x);
        x.acquire_pattern = acquire_pattern(&x);
        x.proxy_fence_ops = proxy_fence_ops(&x);
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
        add(
            &mut s.strong_w,
            e.kind == Kind::Write && strong_sem && e.sem != Sem::Acquire,
        );
        add(
            &mut s.strong_r,
            e.is_read() && strong_sem && e.sem != Sem::Release,
        );
        add(&mut s.w_rel, e.kind == Kind::Write && e.sem == Sem::Release);
        add(&mut s.r_acq, e.is_read() && e.sem == Sem::Acquire);
        add(
            &mut s.f_acq_rel,
            e.kind == Kind::MemoryFence && e.sem == Sem::AcqRel,
        );
        add(&mut s.f_sc, e.kind == Kind::MemoryFence && e.sem == Sem::Sc);
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
fn release_pattern(x: &Exec<'_>) -> Rel {
    let s = &x.sets;
    let a = x.po_loc().opt().restrict(s.w_rel, s.strong_w);
    let b = x.po.restrict(s.f_acq_rel, s.strong_w);
    a.union(&b)
}

/// Acquire pattern (PTX ISA 8.8): an acquire operation, or a strong read
/// followed by one on the same location, or a strong read followed by an
/// acquire fence: `[strong R]; po-loc?; [R & ACQ] | [strong R]; po; [F & ACQ_REL]`.
fn acquire_pattern(x: &Exec<'_>) -> Rel {
    let s = &x.sets;
    let a = x.po_loc().opt().restrict(s.strong_r, s.r_acq);
    let b = x.po.restrict(s.strong_r, s.f_acq_rel);
    a.union(&b)
}

/// Proxy fences and the memory operations of their proxy in their CTA (PTX
/// ISA 8.6, 9.7.13.4); a `fence.proxy.async` limited to a state space only
/// covers that space.
fn proxy_fence_ops(x: &Exec<'_>) -> Rel {
    let ev = &x.events;
    let locs = &x.prog.locs;
    let mut r = Rel::empty(x.n());
    for f in members(x.sets.f) {
        if ev[f].proxy.is_none() {
            continue;
        }
        let mut row = x.same_proxy.row(f) & x.scta.row(f) & x.sets.m;
        if let Kind::ProxyFence { space: Some(sp) } = ev[f].kind {
            for m in members(row) {
                if ev[m].loc.map(|l| locs[l].space) != Some(sp) {
                    row &= !(1 << m);
                }
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
pub fn base_causality(x: &Exec<'_>, sync: &Rel) -> Rel {
    let po_opt = x.po.opt();
    let step = sync.union(&x.aso).seq(&po_opt).plus();
    let cb = po_opt.seq(&step);
    match x.model() {
        Model::Ptx75 => cb.union(&x.po),
        Model::Ptx60 => cb,
    }
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
    let pfo = &x.proxy_fence_ops;
    let cb_pf_inv = cb.inter(&pfo.inverse());
    let cb_pf = cb.inter(pfo);
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
