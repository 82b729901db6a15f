//! The clusters of a launch on several threads, with the result of one
//! thread.
//!
//! The interpreter runs a launch's clusters one after the other. Nothing in
//! PTX orders clusters that do not synchronise, so any order is one the
//! hardware may take; but the model promises one outcome per launch (the
//! sequential one), and clusters that do communicate (an atomic counter, a
//! flag, one reading what another wrote) must see each other. So the
//! clusters, in run order, are cut into contiguous chunks; each chunk runs
//! on its own thread against its own copy of global memory, noting every
//! byte it reads and writes ([`Footprint`]). The chunks' results are kept
//! only when no chunk read or wrote a byte that an earlier chunk wrote:
//! then running them one after the other would have given the same bytes,
//! reports and counts, and the copies' written bytes are merged. Otherwise
//! (or when the step budget ran out, or the schedule is not a fixed one)
//! the launch runs again on one thread. Either way the outcome is the one
//! [`super::run`] gives.

use super::{arguments, shape, Machine, Shape};
use crate::sim::launch::{BufferOut, Launch, LaunchError, Outcome, Report, Schedule, StopKind};
use crate::sim::memory::{Footprint, Global};
use crate::sim::program::{AsyncInstr, Op, Program};

/// What one chunk of clusters did.
struct Chunk {
    global: Global,
    reports: Vec<Report>,
    undefined_results: Vec<Report>,
    steps: u64,
    budget_hit: bool,
    choices: usize,
    /// The race check met a read that a later write may race with (run
    /// again on one thread, where the read is followed).
    suspect: bool,
}

impl<'a> Machine<'a> {
    /// A machine for a launch, before its first cluster.
    pub(super) fn new(
        prog: &'a Program,
        launch: &'a Launch,
        shape: Shape,
        params: Vec<u8>,
        global: Global,
    ) -> Machine<'a> {
        let mut m = Machine {
            prog,
            launch,
            profile: launch.profile,
            global,
            params,
            consts: launch
                .consts
                .as_deref()
                .filter(|c| c.len() == prog.consts.len())
                .unwrap_or(&prog.consts),
            ctas: Vec::new(),
            warps: Vec::new(),
            local: Vec::new(),
            local_shadow: Vec::new(),
            shape,
            place: crate::sim::window::Place {
                rank: 0,
                cluster_size: shape.cluster_size,
                param_bytes: prog.param_bytes,
                const_bytes: prog.consts.len() as u64,
            },
            steps: 0,
            budget_hit: false,
            reports: Vec::new(),
            undefined_results: Vec::new(),
            asy: super::exec::asynch::AsyncState::new(&launch.schedule),
            race: super::race::Races::default(),
        };
        if !launch.races {
            m.race.disable();
        }
        m.asy.proxy = prog.code.iter().any(|i| match &i.op {
            Op::Async(a) => matches!(**a, AsyncInstr::Bulk { .. } | AsyncInstr::Tensor(_)),
            _ => false,
        });
        m.asy.tensors = prog.code.iter().any(|i| match &i.op {
            Op::Async(a) => matches!(
                **a,
                AsyncInstr::Tensor(_) | AsyncInstr::TensormapReplace { .. }
            ),
            _ => false,
        });
        m
    }
}

/// The launch's clusters in run order.
pub(super) fn clusters(shape: &Shape) -> Vec<[u32; 3]> {
    let n = [
        shape.grid[0] / shape.cluster[0],
        shape.grid[1] / shape.cluster[1],
        shape.grid[2] / shape.cluster[2],
    ];
    let mut all = Vec::new();
    for z in 0..n[2] {
        for y in 0..n[1] {
            for x in 0..n[0] {
                all.push([x, y, z]);
            }
        }
    }
    all
}

/// Runs a prepared kernel as [`super::run`] does, with its clusters on up
/// to `workers` threads (see the module's description); the outcome is
/// the same.
pub fn run_parallel(
    prog: &Program,
    launch: &Launch,
    workers: usize,
) -> Result<Outcome, LaunchError> {
    run_parallel_how(prog, launch, workers).map(|(o, _)| o)
}

/// How [`run_parallel`] ran a launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parallel {
    /// On one thread from the start (one cluster, one worker, or a
    /// schedule that is not fixed).
    OneThread,
    /// On several threads, the results kept.
    Kept,
    /// On several threads, then again on one: the chunks met.
    Rerun,
}

/// [`run_parallel`], saying how it ran.
#[doc(hidden)]
pub fn run_parallel_how(
    prog: &Program,
    launch: &Launch,
    workers: usize,
) -> Result<(Outcome, Parallel), LaunchError> {
    let shape = shape(prog, launch)?;
    let all = clusters(&shape);
    let fixed = matches!(launch.schedule, Schedule::Eager | Schedule::Late);
    let workers = workers.min(all.len());
    if workers < 2 || !fixed {
        return super::run(prog, launch).map(|o| (o, Parallel::OneThread));
    }
    let (params, regions, buffer_addrs) = arguments(prog, launch, Vec::new())?;
    let global = Global::new(regions).map_err(|(a, b)| LaunchError::Overlap(a, b))?;
    let per = all.len().div_ceil(workers);
    let chunks: Vec<&[[u32; 3]]> = all.chunks(per).collect();
    let done: Vec<Chunk> = std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|ids| {
                let mut g = global.clone();
                g.footprint = Some(Footprint::new(&g.regions));
                let params = params.clone();
                s.spawn(move || {
                    let mut m = Machine::new(prog, launch, shape, params, g);
                    for &id in *ids {
                        m.shape.clusterid = id;
                        m.start_cluster();
                        m.run_cluster();
                        if m.budget_hit {
                            break;
                        }
                    }
                    Chunk {
                        global: std::mem::take(&mut m.global),
                        reports: std::mem::take(&mut m.reports),
                        undefined_results: std::mem::take(&mut m.undefined_results),
                        steps: m.steps,
                        budget_hit: m.budget_hit,
                        choices: m.asy.choices.len(),
                        suspect: m.race.suspect && !m.race.off,
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    if done.iter().any(|c| c.suspect) {
        return super::run(prog, launch).map(|o| (o, Parallel::Rerun));
    }
    match merge(global, done, launch.step_budget, launch.races) {
        Some((mut global, reports, undefined_results, steps)) => {
            let (buffers, memory) = outputs(&mut global, launch, &buffer_addrs);
            let out = Outcome {
                buffers,
                memory,
                reports,
                undefined_results,
                steps,
                budget_exhausted: false,
                choices: Vec::new(),
            };
            Ok((out, Parallel::Kept))
        }
        None => super::run(prog, launch).map(|o| (o, Parallel::Rerun)),
    }
}

type Merged = (Global, Vec<Report>, Vec<Report>, u64);

/// The chunks' results as one run, if no chunk met the bytes an earlier
/// chunk wrote, nor (with the race check on) wrote the bytes an earlier
/// chunk read (the one-thread run checks such a read against the later
/// write, race.rs), and no budget or schedule choice is in the way.
fn merge(mut global: Global, done: Vec<Chunk>, budget: u64, races: bool) -> Option<Merged> {
    let steps: u64 = done.iter().map(|c| c.steps).sum();
    if steps > budget || done.iter().any(|c| c.budget_hit || c.choices > 0) {
        return None;
    }
    let fp: Vec<&Footprint> = done
        .iter()
        .map(|c| c.global.footprint.as_ref())
        .collect::<Option<_>>()?;
    for j in 1..done.len() {
        for k in 0..j {
            for r in 0..global.regions.len() {
                let w = &fp[k].write[r];
                if Footprint::meets(w, &fp[j].read[r])
                    || Footprint::meets(w, &fp[j].write[r])
                    || (races && Footprint::meets(&fp[k].read[r], &fp[j].write[r]))
                {
                    return None;
                }
            }
        }
    }
    let mut reports = Vec::new();
    let mut results: Vec<Report> = Vec::new();
    let mut raced = std::collections::HashSet::new();
    for (c, f) in done.iter().zip(&fp) {
        for (r, words) in f.write.iter().enumerate() {
            let src = &c.global.regions[r];
            if !src.shadow.is_empty() && global.regions[r].shadow.is_empty() {
                global.make_indeterminate(r, 0, 0);
            }
            let dst = &mut global.regions[r];
            for (wi, word) in words.iter().enumerate() {
                let mut bits = word.get();
                while bits != 0 {
                    let b = wi * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    dst.bytes[b] = src.bytes[b];
                    if !dst.shadow.is_empty() {
                        dst.shadow[b] = src.shadow.get(b).copied().unwrap_or(0);
                    }
                }
            }
        }
        reports.extend(c.reports.iter().cloned());
        // one race report per instruction, as in one run
        for r in &c.undefined_results {
            let race = matches!(r.kind, StopKind::Undefined(u) if u == super::race::RACE);
            if race && !raced.insert(r.offset) {
                continue;
            }
            results.push(r.clone());
        }
    }
    results.truncate(Outcome::RESULTS_KEPT);
    Some((global, reports, results, steps))
}

/// The buffers of the launch's `Arg::Buffer` arguments and of its
/// `memory`, taken out of global memory after a run.
pub(super) fn outputs(
    global: &mut Global,
    launch: &Launch,
    buffer_addrs: &[u64],
) -> (Vec<BufferOut>, Vec<BufferOut>) {
    let memory = launch
        .memory
        .iter()
        .map(|(addr, bytes)| {
            match global
                .regions
                .iter_mut()
                .find(|r| r.base == *addr && r.arg.is_none() && r.bytes.len() == bytes.len())
            {
                Some(r) => BufferOut::from_shadow(
                    *addr,
                    std::mem::take(&mut r.bytes),
                    std::mem::take(&mut r.shadow),
                ),
                None => BufferOut::from_shadow(*addr, bytes.clone(), Vec::new()),
            }
        })
        .collect();
    let mut buffers = Vec::new();
    for &addr in buffer_addrs {
        if let Some(r) = global
            .regions
            .iter_mut()
            .find(|r| r.base == addr && r.arg.is_some())
        {
            buffers.push(BufferOut::from_shadow(
                addr,
                std::mem::take(&mut r.bytes),
                std::mem::take(&mut r.shadow),
            ));
        }
    }
    (buffers, memory)
}
