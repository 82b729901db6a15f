//! Litmus families generated from relation cycles, in the manner of diy
//! (Alglave and Maranget): a family is a cycle of edges between memory
//! accesses, program-order edges inside a thread and communication edges
//! (reads-from, from-reads, coherence) between threads. Walking the cycle
//! gives the threads, the locations, the values written and the outcome
//! that closes the cycle, which becomes the test's `exists` condition. Each
//! shape is then crossed with memory-ordering strengths, scopes, thread
//! placements and the state space of the locations.
//!
//! What the tests mean is left to `ptx-memmodel`; this module only builds
//! them. Deterministic: the same [`Options`] give the same tests in the
//! same order.

use crate::ast::*;

pub mod asynchronous;

/// The direction of an access at one end of an edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    R,
    W,
}

/// An edge of a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    /// Program order inside a thread, between accesses to different
    /// locations (`Pod`) or the same location (`Pos`).
    Po { from: Dir, to: Dir, same_loc: bool },
    /// Reads-from between threads: a write, then a read that reads it.
    Rfe,
    /// From-reads between threads: a read, then a write coherence-after the
    /// write it read.
    Fre,
    /// Coherence between threads: a write, then a later write to the same
    /// location.
    Coe,
    /// Coherence inside a thread.
    Coi,
}

impl Edge {
    fn ends(self) -> (Dir, Dir) {
        match self {
            Edge::Po { from, to, .. } => (from, to),
            Edge::Rfe => (Dir::W, Dir::R),
            Edge::Fre => (Dir::R, Dir::W),
            Edge::Coe | Edge::Coi => (Dir::W, Dir::W),
        }
    }

    fn external(self) -> bool {
        matches!(self, Edge::Rfe | Edge::Fre | Edge::Coe)
    }
}

const fn pod(from: Dir, to: Dir) -> Edge {
    Edge::Po {
        from,
        to,
        same_loc: false,
    }
}

const fn pos(from: Dir, to: Dir) -> Edge {
    Edge::Po {
        from,
        to,
        same_loc: true,
    }
}

use Dir::{R, W};
use Edge::{Coe, Coi, Fre, Rfe};

/// The classic shapes, by their usual names, as cycles.
pub const FAMILIES: &[(&str, &[Edge])] = &[
    ("MP", &[pod(W, W), Rfe, pod(R, R), Fre]),
    ("SB", &[pod(W, R), Fre, pod(W, R), Fre]),
    ("LB", &[pod(R, W), Rfe, pod(R, W), Rfe]),
    ("IRIW", &[Rfe, pod(R, R), Fre, Rfe, pod(R, R), Fre]),
    ("WRC", &[Rfe, pod(R, W), Rfe, pod(R, R), Fre]),
    ("ISA2", &[pod(W, W), Rfe, pod(R, W), Rfe, pod(R, R), Fre]),
    ("2+2W", &[pod(W, W), Coe, pod(W, W), Coe]),
    ("R", &[pod(W, W), Coe, pod(W, R), Fre]),
    ("S", &[pod(W, W), Rfe, pod(R, W), Coe]),
    ("RWC", &[Rfe, pod(R, R), Fre, pod(W, R), Fre]),
    ("W+RWC", &[pod(W, W), Rfe, pod(R, R), Fre, pod(W, R), Fre]),
    ("CoRR", &[Rfe, pos(R, R), Fre]),
    ("CoWW", &[pos(W, W), Coi]),
    ("CoRW", &[pos(R, W), Coe, Rfe]),
    ("CoWR", &[pos(W, R), Fre, Coe]),
];

/// How strongly the accesses are ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    /// `ld.weak` / `st.weak`: no scope.
    Weak,
    /// `.relaxed.SCOPE` everywhere.
    Relaxed,
    /// Every store `.release`, every load `.acquire`.
    RelAcq,
    /// `.release` on a store that ends a program-order edge, `.acquire` on
    /// a load that starts one (the flag accesses of MP), the rest relaxed.
    RelAcqSync,
    /// Relaxed accesses with `fence.sc.SCOPE` on every program-order edge.
    FenceSc,
    /// Relaxed accesses with `fence.acq_rel.SCOPE` on every program-order
    /// edge.
    FenceAcqRel,
}

impl Strength {
    pub const ALL: [Strength; 6] = [
        Strength::Weak,
        Strength::Relaxed,
        Strength::RelAcq,
        Strength::RelAcqSync,
        Strength::FenceSc,
        Strength::FenceAcqRel,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Strength::Weak => "weak",
            Strength::Relaxed => "relaxed",
            Strength::RelAcq => "rel-acq",
            Strength::RelAcqSync => "rel-acq-sync",
            Strength::FenceSc => "fence-sc",
            Strength::FenceAcqRel => "fence-acq_rel",
        }
    }
}

/// Where the test's threads run relative to each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// One warp of one CTA.
    SameWarp,
    /// One CTA, each thread in a warp of its own.
    SameCta,
    /// One cluster, each thread in a CTA of its own.
    SameCluster,
    /// Each thread in a cluster of its own.
    DiffClusters,
}

impl Placement {
    pub const ALL: [Placement; 4] = [
        Placement::SameWarp,
        Placement::SameCta,
        Placement::SameCluster,
        Placement::DiffClusters,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Placement::SameWarp => "same-warp",
            Placement::SameCta => "same-cta",
            Placement::SameCluster => "same-cluster",
            Placement::DiffClusters => "diff-cluster",
        }
    }

    /// Parses the name [`Placement::name`] gives.
    pub fn parse(s: &str) -> Option<Placement> {
        Placement::ALL.into_iter().find(|p| p.name() == s)
    }
}

/// The state space of the locations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Locations {
    Global,
    /// The shared memory of the threads' one CTA.
    SharedCta,
    /// Distributed shared memory: location `k` in the shared memory of the
    /// CTA of thread `k mod threads`, reached by the others across the
    /// cluster.
    Dsmem,
}

impl Locations {
    pub const ALL: [Locations; 3] = [Locations::Global, Locations::SharedCta, Locations::Dsmem];

    pub fn name(self) -> &'static str {
        match self {
            Locations::Global => "global",
            Locations::SharedCta => "shared",
            Locations::Dsmem => "dsmem",
        }
    }

    /// Whether the locations can be placed so: shared memory needs one CTA,
    /// distributed shared memory one cluster of several CTAs.
    pub fn fits(self, p: Placement) -> bool {
        match self {
            Locations::Global => true,
            Locations::SharedCta => matches!(p, Placement::SameWarp | Placement::SameCta),
            Locations::Dsmem => p == Placement::SameCluster,
        }
    }
}

/// What to generate.
#[derive(Clone, Debug)]
pub struct Options {
    /// Chooses the values written (distinct and non-zero per location); seed
    /// 0 writes 1, 2, ... in coherence order.
    pub seed: u64,
}

/// A generated test with what the harness needs to know about it.
#[derive(Clone, Debug)]
pub struct Generated {
    /// File name stem: `MP+relaxed.gpu.same-cluster.global`.
    pub name: String,
    pub family: String,
    /// The relation cycle in diy's notation, or for the asynchronous
    /// families a description of the shape.
    pub cycle: String,
    /// How the accesses are ordered (`relaxed`, `fence-sc`, ... or for the
    /// asynchronous families the variant).
    pub strength: String,
    /// `None` for weak accesses.
    pub scope: Option<Scope>,
    /// `same-warp`, `same-cta`, `same-cluster`, `diff-cluster`.
    pub placement: String,
    /// `global`, `shared`, `dsmem`.
    pub locations: String,
    pub test: Litmus,
}

/// One access of a cycle, after walking it.
#[derive(Clone, Debug)]
struct Access {
    dir: Dir,
    thread: usize,
    loc: usize,
    /// For a write: the value it stores; for a read: the value the cycle
    /// needs it to read.
    value: i64,
}

/// A walked cycle: threads (access indices), accesses, final values.
type Walked = (Vec<Vec<usize>>, Vec<Access>, Vec<(usize, i64)>);

/// Walks a cycle into threads (each a list of access indices), accesses,
/// and the final values the cycle needs (location, value). `None` when the
/// cycle is not well formed (edge ends that do not meet, no external edge
/// where threads are needed).
fn walk(cycle: &[Edge], values: &mut dyn FnMut(usize) -> i64) -> Option<Walked> {
    let n = cycle.len();
    for i in 0..n {
        if cycle[i].ends().1 != cycle[(i + 1) % n].ends().0 {
            return None;
        }
    }
    // start right after an external edge, so node 0 begins a thread
    let start = (0..n)
        .find(|&i| cycle[(i + n - 1) % n].external())
        .unwrap_or(0);
    let edges: Vec<Edge> = (0..n).map(|k| cycle[(start + k) % n]).collect();
    let pods = edges
        .iter()
        .filter(|e| {
            matches!(
                e,
                Edge::Po {
                    same_loc: false,
                    ..
                }
            )
        })
        .count();
    let mut acc: Vec<Access> = Vec::with_capacity(n);
    let (mut thread, mut loc_step) = (0usize, 0usize);
    for e in &edges {
        acc.push(Access {
            dir: e.ends().0,
            thread,
            loc: if pods == 0 { 0 } else { loc_step % pods },
            value: 0,
        });
        if e.external() {
            thread += 1;
        }
        if matches!(
            e,
            Edge::Po {
                same_loc: false,
                ..
            }
        ) {
            loc_step += 1;
        }
    }
    let nthreads = if edges[n - 1].external() {
        thread
    } else {
        thread + 1
    };
    let nlocs = pods.max(1);
    // coherence order per location: write a before write b
    let mut co: Vec<(usize, usize)> = Vec::new();
    for (k, e) in edges.iter().enumerate() {
        let (a, b) = (k, (k + 1) % n);
        match e {
            // program order between writes to one location is what a
            // coherence test checks, not something it assumes
            Edge::Coe | Edge::Coi => co.push((a, b)),
            _ => {}
        }
    }
    // each location's writes, ordered by `co` (at most a chain here)
    let mut order: Vec<Vec<usize>> = vec![Vec::new(); nlocs];
    for (l, slot) in order.iter_mut().enumerate() {
        let mut ws: Vec<usize> = (0..n)
            .filter(|&k| acc[k].loc == l && acc[k].dir == Dir::W)
            .collect();
        let mut sorted = Vec::new();
        while !ws.is_empty() {
            let i = ws
                .iter()
                .position(|&w| !ws.iter().any(|&v| co.contains(&(v, w))))?;
            sorted.push(ws.remove(i));
        }
        for (rank, &w) in sorted.iter().enumerate() {
            acc[w].value = values(rank);
        }
        *slot = sorted;
    }
    for (k, e) in edges.iter().enumerate() {
        let (a, b) = (k, (k + 1) % n);
        match e {
            Edge::Rfe => acc[b].value = acc[a].value,
            Edge::Fre => {
                // unless a read-from edge already fixed it: the write
                // just before `b` in coherence order, or the initial value
                let incoming_rf = edges[(a + n - 1) % n] == Edge::Rfe;
                if !incoming_rf {
                    let l = acc[b].loc;
                    let pos = order[l].iter().position(|&w| w == b)?;
                    acc[a].value = if pos == 0 {
                        0
                    } else {
                        acc[order[l][pos - 1]].value
                    };
                }
            }
            _ => {}
        }
    }
    // a read reached by program order only reads what the cycle implies
    // through its outgoing from-read (handled above) or its incoming rf
    let mut threads: Vec<Vec<usize>> = vec![Vec::new(); nthreads];
    for (k, a) in acc.iter().enumerate() {
        threads[a.thread].push(k);
    }
    // final values where coherence between writes is part of the cycle
    let mut finals = Vec::new();
    for (l, ws) in order.iter().enumerate() {
        let observed = edges
            .iter()
            .enumerate()
            .any(|(k, e)| matches!(e, Edge::Coe | Edge::Coi) && acc[k].loc == l);
        if observed && ws.len() >= 2 {
            finals.push((l, acc[*ws.last()?].value));
        }
    }
    Some((threads, acc, finals))
}

/// A small deterministic generator (SplitMix64), for the values of a seed
/// here and the harness's random placements.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

const LOC_NAMES: [&str; 4] = ["x", "y", "z", "w"];

/// Builds one test of a family.
pub fn build(
    family: &str,
    cycle: &[Edge],
    strength: Strength,
    scope: Option<Scope>,
    placement: Placement,
    locations: Locations,
    seed: u64,
) -> Option<Generated> {
    let mut rng = Rng(seed ^ hash(family));
    let base: i64 = if seed == 0 {
        0
    } else {
        (rng.next_u64() % 1000) as i64 * 4
    };
    let mut values = |rank: usize| base + rank as i64 + 1;
    let (threads, acc, finals) = walk(cycle, &mut values)?;
    let nthreads = threads.len();
    if locations == Locations::Dsmem && nthreads < 2 {
        return None;
    }
    if placement == Placement::SameWarp && nthreads > 32 {
        return None;
    }
    let nlocs = acc.iter().map(|a| a.loc).max().unwrap_or(0) + 1;
    let scope_of = |sem: Sem| if sem == Sem::Weak { None } else { scope };
    let mut out_threads = Vec::new();
    let mut exprs: Vec<Expr> = Vec::new();
    for (t, ids) in threads.iter().enumerate() {
        let mut code = Vec::new();
        let mut reg = 0;
        for (j, &k) in ids.iter().enumerate() {
            let a = &acc[k];
            let first = j == 0;
            let last = j + 1 == ids.len();
            let sem = match strength {
                Strength::Weak => Sem::Weak,
                Strength::Relaxed | Strength::FenceSc | Strength::FenceAcqRel => Sem::Relaxed,
                Strength::RelAcq => match a.dir {
                    Dir::W => Sem::Release,
                    Dir::R => Sem::Acquire,
                },
                Strength::RelAcqSync => match a.dir {
                    Dir::W if !first => Sem::Release,
                    Dir::R if !last => Sem::Acquire,
                    _ => Sem::Relaxed,
                },
            };
            if !first {
                match (strength, scope) {
                    (Strength::FenceSc, Some(s)) => code.push(Instr::Fence {
                        sem: Sem::Sc,
                        scope: s,
                    }),
                    (Strength::FenceAcqRel, Some(s)) => code.push(Instr::Fence {
                        sem: Sem::AcqRel,
                        scope: s,
                    }),
                    _ => {}
                }
            }
            let loc = LOC_NAMES[a.loc].to_string();
            match a.dir {
                Dir::W => code.push(Instr::Store {
                    kind: WriteKind::Generic,
                    sem,
                    scope: scope_of(sem),
                    loc,
                    value: Operand::Imm(a.value),
                }),
                Dir::R => {
                    let dst = format!("r{reg}");
                    reg += 1;
                    exprs.push(Expr::Cmp(
                        Value::Reg {
                            thread: t as u32,
                            reg: dst.clone(),
                        },
                        CmpOp::Eq,
                        Value::Const(a.value),
                    ));
                    code.push(Instr::Load {
                        kind: LoadKind::Ld,
                        sem,
                        scope: scope_of(sem),
                        dst,
                        loc,
                    });
                }
            }
        }
        let (cta, cluster) = match placement {
            Placement::SameWarp | Placement::SameCta => (0, Some(0)),
            Placement::SameCluster => (t as u32, Some(0)),
            Placement::DiffClusters => (t as u32, Some(t as u32)),
        };
        out_threads.push(Thread {
            id: t as u32,
            cta,
            cluster,
            gpu: 0,
            code,
        });
    }
    for (l, v) in finals {
        exprs.push(Expr::Cmp(
            Value::Loc(LOC_NAMES[l].to_string()),
            CmpOp::Eq,
            Value::Const(v),
        ));
    }
    let expr = exprs
        .into_iter()
        .reduce(|a, b| Expr::And(Box::new(a), Box::new(b)))?;
    let init = (0..nlocs)
        .map(|l| Init::Location {
            name: LOC_NAMES[l].to_string(),
            space: match locations {
                Locations::Global => Space::Global,
                _ => Space::Shared,
            },
            value: 0,
            owner: match locations {
                Locations::Dsmem => Some((l % nthreads) as u32),
                // one CTA: its own shared memory, named so that the final
                // value is that of one place
                Locations::SharedCta => Some(0),
                Locations::Global => None,
            },
        })
        .collect();
    let scope_name = scope.map_or("noscope", scope_str);
    let name = format!(
        "{family}+{}.{scope_name}.{}.{}",
        strength.name(),
        placement.name(),
        locations.name()
    );
    let docs = format!(
        "\"Generated: family {family}, cycle {}; accesses {}{}; threads placed {}; locations in {} memory\"",
        cycle_name(cycle),
        strength.name(),
        scope.map_or(String::new(), |s| format!(" at scope {}", scope_str(s))),
        placement_words(placement),
        locations.name(),
    );
    Some(Generated {
        name: name.clone(),
        family: family.to_string(),
        cycle: cycle_name(cycle),
        strength: strength.name().into(),
        scope,
        placement: placement.name().into(),
        locations: locations.name().into(),
        test: Litmus {
            name,
            docs,
            init,
            threads: out_threads,
            condition: Condition {
                quantifier: Quantifier::Exists,
                expr,
            },
        },
    })
}

fn placement_words(p: Placement) -> &'static str {
    match p {
        Placement::SameWarp => "in one warp",
        Placement::SameCta => "in one CTA, different warps",
        Placement::SameCluster => "in one cluster, different CTAs",
        Placement::DiffClusters => "in different clusters",
    }
}

fn scope_str(s: Scope) -> &'static str {
    match s {
        Scope::Cta => "cta",
        Scope::Cluster => "cluster",
        Scope::Gpu => "gpu",
        Scope::Sys => "sys",
    }
}

/// A cycle in diy's notation: `PodWW Rfe PodRR Fre`.
pub fn cycle_name(cycle: &[Edge]) -> String {
    let d = |d: Dir| if d == Dir::R { "R" } else { "W" };
    cycle
        .iter()
        .map(|e| match e {
            Edge::Po { from, to, same_loc } => {
                format!(
                    "Po{}{}{}",
                    if *same_loc { "s" } else { "d" },
                    d(*from),
                    d(*to)
                )
            }
            Edge::Rfe => "Rfe".into(),
            Edge::Fre => "Fre".into(),
            Edge::Coe => "Coe".into(),
            Edge::Coi => "Coi".into(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn hash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The default family set: the relation-cycle families ([`cycle_set`]) and
/// the asynchronous ones ([`asynchronous::set`]).
pub fn default_set(opts: &Options) -> Vec<Generated> {
    let mut out = cycle_set(opts);
    out.extend(asynchronous::set(opts));
    out
}

/// Every family of [`FAMILIES`] × strength × scope (none for weak
/// accesses) × placement × state space that fits it. A one-thread family is
/// placed once.
pub fn cycle_set(opts: &Options) -> Vec<Generated> {
    let mut out = Vec::new();
    for &(family, cycle) in FAMILIES {
        let one_thread = !cycle.iter().any(|e| e.external());
        for strength in Strength::ALL {
            let scopes: &[Option<Scope>] = if strength == Strength::Weak {
                &[None]
            } else {
                &[
                    Some(Scope::Cta),
                    Some(Scope::Cluster),
                    Some(Scope::Gpu),
                    Some(Scope::Sys),
                ]
            };
            for &scope in scopes {
                for placement in Placement::ALL {
                    if one_thread && placement != Placement::SameCta {
                        continue;
                    }
                    for locations in Locations::ALL {
                        if !locations.fits(placement) {
                            continue;
                        }
                        if let Some(g) = build(
                            family, cycle, strength, scope, placement, locations, opts.seed,
                        ) {
                            out.push(g);
                        }
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(name: &str) -> Litmus {
        let (f, c) = FAMILIES.iter().find(|f| f.0 == name).unwrap();
        build(
            f,
            c,
            Strength::Relaxed,
            Some(Scope::Gpu),
            Placement::DiffClusters,
            Locations::Global,
            0,
        )
        .unwrap()
        .test
    }

    #[test]
    fn message_passing_is_the_textbook_test() {
        let t = crate::print(&get("MP"));
        assert!(t.contains("st.relaxed.gpu x, 1"), "{t}");
        assert!(t.contains("st.relaxed.gpu y, 1"), "{t}");
        assert!(t.contains("ld.relaxed.gpu r0, y"), "{t}");
        assert!(t.contains("ld.relaxed.gpu r1, x"), "{t}");
        assert!(t.contains("(P1:r0 == 1 /\\ P1:r1 == 0)"), "{t}");
    }

    #[test]
    fn two_plus_two_w_asks_for_first_writes_last() {
        let t = get("2+2W");
        assert_eq!(t.threads.len(), 2);
        let text = crate::print(&t);
        // each thread writes one location then the other; the cycle needs
        // each location's final value to be the other thread's first store
        assert!(text.contains("x == 2") && text.contains("y == 2"), "{text}");
        assert!(!text.contains("P0:"), "{text}");
    }

    #[test]
    fn iriw_has_two_writers_and_two_readers() {
        let t = get("IRIW");
        let sizes: Vec<usize> = t.threads.iter().map(|t| t.code.len()).collect();
        assert_eq!(sizes, vec![1, 2, 1, 2]);
    }

    #[test]
    fn every_generated_test_prints_and_parses_back() {
        let all = default_set(&Options { seed: 7 });
        assert!(all.len() >= 2000, "{}", all.len());
        for g in &all {
            let text = crate::print(&g.test);
            let back = crate::parse(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", g.name));
            assert_eq!(back, g.test, "{}", g.name);
        }
        let mut names: Vec<&str> = all.iter().map(|g| g.name.as_str()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len(), "names are unique");
    }

    #[test]
    fn a_seed_changes_values_and_nothing_else() {
        let a = default_set(&Options { seed: 0 });
        let b = default_set(&Options { seed: 99 });
        let c = default_set(&Options { seed: 99 });
        assert_eq!(a.len(), b.len());
        assert_eq!(
            b.iter().map(|g| crate::print(&g.test)).collect::<Vec<_>>(),
            c.iter().map(|g| crate::print(&g.test)).collect::<Vec<_>>()
        );
        assert_ne!(crate::print(&a[0].test), crate::print(&b[0].test));
    }
}
