//! The kernel interpreter: runs a [`Program`] over a grid of clusters,
//! CTAs, warps and threads. One cluster runs at a time (its CTAs' warps in
//! turn, each for a slice of instructions); a warp runs the lanes at the
//! lowest program counter together, so that lanes that diverge meet again
//! where their paths join. The interleaving is fixed: every run of the
//! same launch does the same thing.

mod call;
mod exec;
mod fastmem;
mod parallel;
mod race;
mod regs;

pub use call::CALL_DEPTH_LIMIT;
pub use parallel::{run_parallel, run_parallel_how, Parallel};

use super::launch::{Arg, Launch, LaunchError, Outcome, Report, StopKind, ThreadId};
use super::memory::{Global, Region};
use super::program::{Program, Src};
use super::undefined::Undefined;
use super::window::{Place, WindowProfile};

pub(crate) const LANES: usize = 32;
/// Instructions a warp runs before the next warp's turn.
const SLICE: u32 = 256;
/// Barriers a CTA has (`bar.sync 0` to `15`).
const BARRIERS: usize = 16;

/// What a lane is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lane {
    /// No thread (the last warp of a CTA may be partial).
    Absent,
    Running,
    Exited,
    /// Stopped with a report.
    Stopped,
    /// Waiting at `bar.sync id` until the barrier's generation moves on.
    Barrier {
        id: u8,
        gen: u32,
    },
    /// Waiting at `barrier.cluster.wait` until every live thread of the
    /// cluster has arrived `target` times.
    ClusterWait {
        target: u32,
    },
    /// Waiting at a warp collective (`shfl.sync`, `bar.warp.sync`) at `pc`
    /// for the other lanes of its member mask.
    Sync {
        pc: u32,
    },
    /// Waiting at an mbarrier wait or a group wait, tried again when the
    /// asynchronous state has moved on from `epoch`.
    Poll {
        epoch: u64,
    },
}

impl Lane {
    fn finished(self) -> bool {
        matches!(self, Lane::Absent | Lane::Exited | Lane::Stopped)
    }
}

pub(crate) struct Warp {
    pub cta: usize,
    /// Linear thread index (in its CTA) of lane 0.
    pub first: u32,
    pub pc: [u32; LANES],
    pub lane: [Lane; LANES],
    pub regs: Vec<u64>,
    /// Unspecified bits of each register, once any register has some.
    pub shadow: Option<Vec<u64>>,
    pub arrive: [u32; LANES],
    pub waited: [u32; LANES],
    /// While every unfinished lane runs at one pc: that pc and the lanes.
    pub uniform: Option<(u32, u32)>,
    pub done: bool,
    /// Each lane's active calls, innermost last (empty until a call).
    pub frames: Vec<Vec<call::Frame>>,
    /// Each lane's condition-code carry flag `CC.CF` (PTX ISA 9.7.2), and
    /// the lanes whose flag is unspecified.
    pub carry: u32,
    pub carry_unspecified: u32,
}

/// What the `bar.red` arrivals of a barrier's current phase have given
/// (PTX ISA 9.7.13.1): how many arrived, and how many predicates were
/// true, false, or had unspecified bits.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct BarRedState {
    pub arrived: u32,
    pub trues: u32,
    pub falses: u32,
    pub unknown: u32,
}

pub(crate) struct Cta {
    pub ctaid: [u32; 3],
    pub rank: u32,
    pub cluster_ctaid: [u32; 3],
    pub shared: Vec<u8>,
    pub shadow: Vec<u8>,
    pub bar_arrived: [u32; BARRIERS],
    pub bar_expected: [u32; BARRIERS],
    pub bar_gen: [u32; BARRIERS],
    pub bar_red: [BarRedState; BARRIERS],
    /// Threads that have neither exited nor stopped.
    pub live: u32,
}

/// Launch-wide facts the instructions read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub cluster: [u32; 3],
    pub cluster_size: u32,
    pub clusterid: [u32; 3],
    pub threads: u32,
    pub explicit_cluster: bool,
    pub dynamic_shared: u64,
}

pub(crate) struct Machine<'a> {
    pub prog: &'a Program,
    pub launch: &'a Launch,
    pub profile: WindowProfile,
    pub global: Global,
    pub params: Vec<u8>,
    /// The constant bank: the launch's, or the module's initial one.
    pub consts: &'a [u8],
    pub ctas: Vec<Cta>,
    pub warps: Vec<Warp>,
    /// Each thread's local frame, thread-major.
    pub local: Vec<u8>,
    pub local_shadow: Vec<u8>,
    pub shape: Shape,
    pub place: Place,
    pub steps: u64,
    pub budget_hit: bool,
    pub reports: Vec<Report>,
    pub undefined_results: Vec<Report>,
    pub asy: exec::asynch::AsyncState,
    /// Who last wrote each byte, for the data races of plain accesses.
    pub race: race::Races,
}

/// Runs a prepared kernel.
pub fn run(prog: &Program, launch: &Launch) -> Result<Outcome, LaunchError> {
    run_with(prog, launch, Vec::new())
}

/// Runs a prepared kernel, moving the launch's buffers into the run rather
/// than copying them (for large buffers).
pub fn run_owned(prog: &Program, mut launch: Launch) -> Result<Outcome, LaunchError> {
    let owned = launch
        .args
        .iter_mut()
        .map(|a| match a {
            Arg::Buffer { bytes, .. } => Some(std::mem::take(bytes)),
            Arg::Bytes(_) | Arg::TensorMap { .. } => None,
        })
        .collect();
    run_with(prog, &launch, owned)
}

fn run_with(
    prog: &Program,
    launch: &Launch,
    owned: Vec<Option<Vec<u8>>>,
) -> Result<Outcome, LaunchError> {
    // the buffers moved into the run, kept for a run again (race.rs: a
    // read that a later write races with)
    let moved: usize = owned.iter().flatten().map(Vec::len).sum();
    let spare = (launch.races && moved <= race::RERUN_COPY).then(|| owned.clone());
    let (first, suspect, _) = run_once(prog, launch, owned, None)?;
    match spare {
        Some(spare) if suspect => {
            let mut marks = race::Marks::new();
            let mut last = first;
            for _ in 0..race::ROUNDS {
                let (out, _, found) = run_once(prog, launch, spare.clone(), Some(marks.clone()))?;
                last = out;
                if race::covered(&found, &marks) {
                    break;
                }
                race::merge(&mut marks, found);
            }
            Ok(last)
        }
        _ => Ok(first),
    }
}

/// One run: in the race check's precise mode with its marks when `marks`
/// is given. The outcome, whether the run is suspect, and the reads found.
fn run_once(
    prog: &Program,
    launch: &Launch,
    owned: Vec<Option<Vec<u8>>>,
    marks: Option<race::Marks>,
) -> Result<(Outcome, bool, race::Marks), LaunchError> {
    let shape = shape(prog, launch)?;
    let (params, regions, buffer_addrs) = arguments(prog, launch, owned)?;
    let global = Global::new(regions).map_err(|(a, b)| LaunchError::Overlap(a, b))?;
    let mut m = Machine::new(prog, launch, shape, params, global);
    if let Some(marks) = marks {
        m.race.precise = true;
        m.race.marks = marks;
    }
    for id in parallel::clusters(&shape) {
        m.shape.clusterid = id;
        m.start_cluster();
        m.run_cluster();
        if m.budget_hit {
            break;
        }
    }
    let (buffers, memory) = parallel::outputs(&mut m.global, launch, &buffer_addrs);
    let suspect = m.race.suspect && !m.race.off;
    let found = std::mem::take(&mut m.race.found);
    let out = Outcome {
        buffers,
        memory,
        reports: m.reports,
        undefined_results: m.undefined_results,
        steps: m.steps,
        budget_exhausted: m.budget_hit,
        choices: std::mem::take(&mut m.asy.choices),
    };
    Ok((out, suspect, found))
}

fn shape(prog: &Program, launch: &Launch) -> Result<Shape, LaunchError> {
    let bad = |s: String| Err(LaunchError::Shape(s));
    let cluster = launch.cluster.or(prog.cluster_dims).unwrap_or([1, 1, 1]);
    if let (Some(a), Some(b)) = (launch.cluster, prog.cluster_dims) {
        if a != b {
            return bad(format!(
                "the cluster {a:?} differs from the kernel's .reqnctapercluster {b:?}"
            ));
        }
    }
    let threads: u64 = launch.block.iter().map(|&x| u64::from(x)).product();
    if threads == 0 || threads > 1024 {
        return bad(format!("a CTA of {threads} threads (1 to 1024)"));
    }
    if launch.grid.contains(&0) || cluster.contains(&0) {
        return bad("a dimension of zero".into());
    }
    let cluster_size: u32 = cluster.iter().product();
    if cluster_size > 16 {
        return bad(format!("a cluster of {cluster_size} CTAs (at most 16)"));
    }
    for k in 0..3 {
        if !launch.grid[k].is_multiple_of(cluster[k]) {
            return bad(format!(
                "grid {:?} is not a whole number of clusters {cluster:?}",
                launch.grid
            ));
        }
    }
    Ok(Shape {
        grid: launch.grid,
        block: launch.block,
        cluster,
        cluster_size,
        clusterid: [0; 3],
        threads: threads as u32,
        explicit_cluster: prog.explicit_cluster || launch.cluster.is_some(),
        dynamic_shared: launch.dynamic_shared,
    })
}

/// The parameter bytes and the global regions (variables and buffers).
#[allow(clippy::type_complexity)]
fn arguments(
    prog: &Program,
    launch: &Launch,
    mut owned: Vec<Option<Vec<u8>>>,
) -> Result<(Vec<u8>, Vec<Region>, Vec<u64>), LaunchError> {
    if launch.args.len() != prog.params.len() {
        return Err(LaunchError::ArgCount {
            params: prog.params.len(),
            args: launch.args.len(),
        });
    }
    let mut params = vec![0u8; prog.param_bytes as usize];
    let mut regions: Vec<Region> = prog
        .globals
        .iter()
        .map(|g| Region {
            base: g.addr,
            bytes: g.init.clone(),
            shadow: Vec::new(),
            arg: None,
        })
        .collect();
    let mut next = regions
        .iter()
        .map(|r| r.base + r.bytes.len() as u64)
        .max()
        .unwrap_or(launch.profile.global_heap)
        .max(launch.profile.global_heap);
    let windows = |base: u64, len: u64| {
        let p = &launch.profile;
        let end = base.saturating_add(len);
        [
            ("shared", p.shared_base, p.shared_size),
            ("local", p.local_base, p.local_size),
            ("const", p.const_base, prog.const_bytes()),
            ("param", p.param_base, prog.param_bytes + p.param_slack),
        ]
        .into_iter()
        .find(|&(_, lo, size)| size > 0 && base < lo.saturating_add(size) && lo < end)
        .map(|(name, _, _)| name)
    };
    for (base, bytes) in &launch.memory {
        if let Some(name) = windows(*base, bytes.len() as u64) {
            return Err(LaunchError::Shape(format!(
                "the memory at {base:#x} lies in the {name} window of the profile"
            )));
        }
        next = next.max(base.saturating_add(bytes.len() as u64 + 256));
        // the bytes of a module variable, kept by the caller since an
        // earlier launch, in place of its initial value
        if let Some(var) = regions[..prog.globals.len()]
            .iter_mut()
            .find(|r| r.base == *base && r.bytes.len() == bytes.len())
        {
            var.bytes.clone_from(bytes);
            continue;
        }
        regions.push(Region {
            base: *base,
            bytes: bytes.clone(),
            shadow: Vec::new(),
            arg: None,
        });
    }
    let mut addrs = Vec::new();
    for (k, (p, arg)) in prog.params.iter().zip(&launch.args).enumerate() {
        let bytes: Vec<u8> = match arg {
            Arg::Buffer { addr, bytes } => {
                let bytes = owned
                    .get_mut(k)
                    .and_then(Option::take)
                    .unwrap_or_else(|| bytes.clone());
                let base = addr.unwrap_or_else(|| next.div_ceil(256) * 256);
                if let Some(name) = windows(base, bytes.len() as u64) {
                    return Err(LaunchError::Shape(format!(
                        "the buffer of argument {k} at {base:#x} lies in the {name} window of the profile"
                    )));
                }
                next = next.max(base + bytes.len() as u64 + 256);
                regions.push(Region {
                    base,
                    bytes,
                    shadow: Vec::new(),
                    arg: Some(k),
                });
                addrs.push(base);
                base.to_le_bytes().to_vec()
            }
            Arg::Bytes(b) => b.clone(),
            // written once every buffer has its address
            Arg::TensorMap { .. } => Vec::new(),
        };
        if bytes.len() as u64 > p.size {
            return Err(LaunchError::ArgSize {
                index: k,
                name: p.name.clone(),
                given: bytes.len(),
                size: p.size,
            });
        }
        let off = p.offset as usize;
        params[off..off + bytes.len()].copy_from_slice(&bytes);
    }
    for (k, (p, arg)) in prog.params.iter().zip(&launch.args).enumerate() {
        let Arg::TensorMap {
            map,
            buffer,
            offset,
        } = arg
        else {
            continue;
        };
        let mut m = *map;
        if let Some(b) = *buffer {
            let base = regions
                .iter()
                .find(|r| r.arg == Some(b))
                .map(|r| r.base)
                .ok_or(LaunchError::MapBase {
                    index: k,
                    buffer: b,
                })?;
            m.global_address = base.wrapping_add(*offset);
        }
        if p.size < 128 {
            return Err(LaunchError::ArgSize {
                index: k,
                name: p.name.clone(),
                given: 128,
                size: p.size,
            });
        }
        let off = p.offset as usize;
        params[off..off + 128].copy_from_slice(&m.to_bytes());
    }
    Ok((params, regions, addrs))
}

impl Machine<'_> {
    /// Creates the CTAs, warps and local frames of the cluster
    /// `shape.clusterid`.
    fn start_cluster(&mut self) {
        let s = self.shape;
        let shared_len = (self.prog.shared_end + s.dynamic_shared) as usize;
        let per_cta = s.threads.div_ceil(LANES as u32);
        self.asy.new_cluster();
        let n = [
            (s.grid[0] / s.cluster[0]).max(1),
            (s.grid[1] / s.cluster[1]).max(1),
        ];
        let seq = (s.clusterid[2] * n[1] + s.clusterid[1]) * n[0] + s.clusterid[0];
        self.race.start_cluster(
            seq,
            s.cluster_size,
            s.threads,
            shared_len,
            self.global.regions.len(),
        );
        self.ctas.clear();
        // keep the register files' memory for the next cluster's warps
        let mut spare: Vec<Vec<u64>> = self.warps.drain(..).map(|w| w.regs).collect();
        for rank in 0..s.cluster_size {
            let c = [
                rank % s.cluster[0],
                (rank / s.cluster[0]) % s.cluster[1],
                rank / (s.cluster[0] * s.cluster[1]),
            ];
            let ctaid = [
                s.clusterid[0] * s.cluster[0] + c[0],
                s.clusterid[1] * s.cluster[1] + c[1],
                s.clusterid[2] * s.cluster[2] + c[2],
            ];
            self.ctas.push(Cta {
                ctaid,
                rank,
                cluster_ctaid: c,
                shared: vec![0; shared_len],
                // "shared variables ... have no initial value": every byte
                // is indeterminate until written
                shadow: vec![0xff; shared_len],
                bar_arrived: [0; BARRIERS],
                bar_expected: [0; BARRIERS],
                bar_gen: [0; BARRIERS],
                bar_red: [BarRedState::default(); BARRIERS],
                live: s.threads,
            });
            for k in 0..per_cta {
                let first = k * LANES as u32;
                let mut lane = [Lane::Absent; LANES];
                let mut mask = 0u32;
                for (l, st) in lane.iter_mut().enumerate() {
                    if first + (l as u32) < s.threads {
                        *st = Lane::Running;
                        mask |= 1 << l;
                    }
                }
                self.warps.push(Warp {
                    cta: rank as usize,
                    first,
                    pc: [0; LANES],
                    lane,
                    regs: match spare.pop() {
                        Some(mut r) => {
                            r.clear();
                            r.resize(self.prog.slots as usize * LANES, 0);
                            r
                        }
                        None => vec![0; self.prog.slots as usize * LANES],
                    },
                    shadow: None,
                    arrive: [0; LANES],
                    waited: [0; LANES],
                    uniform: Some((0, mask)),
                    done: false,
                    frames: Vec::new(),
                    carry: 0,
                    // the spec gives `CC.CF` no value before an
                    // instruction writes it
                    carry_unspecified: u32::MAX,
                });
            }
        }
        let frames =
            (self.prog.local_bytes * u64::from(s.threads) * u64::from(s.cluster_size)) as usize;
        self.local = vec![0; frames];
        self.local_shadow = vec![0xff; frames];
    }

    fn run_cluster(&mut self) {
        loop {
            let mut progress = false;
            let (polls, effects) = (self.asy.polls, self.asy.effects);
            for w in 0..self.warps.len() {
                if !self.warps[w].done {
                    progress |= self.run_warp(w);
                }
                if self.budget_hit {
                    break;
                }
            }
            if self.budget_hit {
                self.stop_all(StopKind::Budget);
                self.drain_async();
                return;
            }
            if self.warps.iter().all(|w| w.done) {
                // operations still in flight complete after their threads
                self.drain_async();
                return;
            }
            // rounds of failing waits (and time-outs) with memory, barriers
            // and mbarriers untouched: a polling loop that cannot end
            if self.asy.effects != effects || self.asy.busy() {
                self.asy.idle = 0;
            } else if self.asy.polls != polls {
                self.asy.idle += 1;
            }
            if self.asy.idle >= exec::asynch::IDLE_ROUNDS {
                self.deadlock();
                return;
            }
            if !progress {
                // no thread can go on: an asynchronous step, if any; else
                // the suspended try_waits reach their time limit
                if self.async_unblock() {
                    continue;
                }
                if self.time_out_waits() {
                    self.asy.idle += 1;
                    if self.asy.idle < exec::asynch::IDLE_ROUNDS {
                        continue;
                    }
                }
                self.deadlock();
                return;
            }
        }
    }

    /// Stops every waiting thread, each with what it waits for.
    fn deadlock(&mut self) {
        for w in 0..self.warps.len() {
            for l in 0..LANES {
                let st = self.warps[w].lane[l];
                if st.finished() {
                    continue;
                }
                let why = match st {
                    Lane::Poll { .. } => self.wait_description(w, l),
                    Lane::Running if self.asy.idle > 0 => self.describe_polled("a polling loop"),
                    _ => "waits at a barrier or warp collective that the other threads never reach"
                        .into(),
                };
                self.diverge(w);
                let pc = self.warps[w].pc[l];
                self.stop(w, l, pc, StopKind::Deadlock(why));
            }
            self.warps[w].done = true;
        }
        self.drain_async();
    }

    fn run_warp(&mut self, w: usize) -> bool {
        let mut ran = false;
        for _ in 0..SLICE {
            let Some((pc, mask)) = self.pick(w) else {
                break;
            };
            self.step(w, pc, mask);
            ran = true;
            if self.steps > self.launch.step_budget {
                self.budget_hit = true;
                break;
            }
        }
        ran
    }

    /// The lanes to run next: the running lanes at the lowest pc. Wakes
    /// lanes whose barrier has opened.
    fn pick(&mut self, w: usize) -> Option<(u32, u32)> {
        if let Some(u) = self.warps[w].uniform {
            return Some(u);
        }
        let waits = self.warps[w]
            .lane
            .iter()
            .any(|l| matches!(l, Lane::ClusterWait { .. }));
        let cluster_min = if waits {
            self.cluster_min_arrivals()
        } else {
            0
        };
        let epoch = self.asy.epoch;
        let threads = self.shape.threads as usize;
        let wp = &mut self.warps[w];
        let cta = &self.ctas[wp.cta];
        let race = &mut self.race;
        let mut best = u32::MAX;
        let mut mask = 0u32;
        let mut unfinished = 0u32;
        let mut all_running = true;
        for l in 0..LANES {
            match wp.lane[l] {
                Lane::Barrier { id, gen } if cta.bar_gen[id as usize] != gen => {
                    wp.lane[l] = Lane::Running;
                    let t = wp.cta * threads + wp.first as usize + l;
                    let at = race.bar_done[wp.cta][id as usize];
                    race.synced(t, race::SyncKind::Cta, at);
                }
                Lane::ClusterWait { target } if cluster_min >= target => {
                    wp.waited[l] = target;
                    wp.lane[l] = Lane::Running;
                    let t = wp.cta * threads + wp.first as usize + l;
                    let at = race.tick();
                    race.synced(t, race::SyncKind::Cluster, at);
                }
                Lane::Poll { epoch: e } if e != epoch => wp.lane[l] = Lane::Running,
                _ => {}
            }
            let st = wp.lane[l];
            if !st.finished() {
                unfinished |= 1 << l;
            }
            if st != Lane::Running {
                all_running &= st.finished();
                continue;
            }
            let pc = wp.pc[l];
            if pc < best {
                best = pc;
                mask = 1 << l;
            } else if pc == best {
                mask |= 1 << l;
            }
        }
        if unfinished == 0 {
            wp.done = true;
            return None;
        }
        if mask == 0 {
            return None;
        }
        if all_running && mask == unfinished {
            wp.uniform = Some((best, mask));
        }
        Some((best, mask))
    }

    /// The fewest `barrier.cluster.arrive`s of any live thread.
    fn cluster_min_arrivals(&self) -> u32 {
        let mut min = u32::MAX;
        for w in &self.warps {
            for l in 0..LANES {
                if !w.lane[l].finished() {
                    min = min.min(w.arrive[l]);
                }
            }
        }
        min
    }

    /// Leaves uniform mode, writing the shared pc into each lane.
    pub(crate) fn diverge(&mut self, w: usize) {
        let wp = &mut self.warps[w];
        if let Some((pc, mask)) = wp.uniform.take() {
            for l in lanes(mask) {
                wp.pc[l] = pc;
            }
        }
    }

    pub(crate) fn thread_id(&self, w: usize, lane: usize) -> ThreadId {
        let wp = &self.warps[w];
        let b = self.shape.block;
        let t = wp.first + lane as u32;
        ThreadId {
            ctaid: self.ctas[wp.cta].ctaid,
            tid: [t % b[0], (t / b[0]) % b[1], t / (b[0] * b[1])],
        }
    }

    /// Stops a lane with a report.
    pub(crate) fn stop(&mut self, w: usize, lane: usize, pc: u32, kind: StopKind) {
        self.diverge(w);
        let (text, offset) = self
            .prog
            .text
            .get(pc as usize)
            .cloned()
            .unwrap_or_else(|| (String::new(), 0));
        let thread = self.thread_id(w, lane);
        self.reports.push(Report {
            thread,
            instruction: text,
            offset,
            kind,
            note: std::mem::take(&mut self.asy.note),
        });
        self.finish_lane(w, lane, Lane::Stopped);
    }

    pub(crate) fn undefined(&mut self, w: usize, lane: usize, pc: u32, u: Undefined) {
        self.stop(w, lane, pc, StopKind::Undefined(u));
    }

    /// An undefined result: the thread goes on; the report is kept.
    pub(crate) fn undefined_result(&mut self, w: usize, lane: usize, pc: u32, u: Undefined) {
        if self.undefined_results.len() >= crate::sim::Outcome::RESULTS_KEPT {
            return;
        }
        let (instruction, offset) = self
            .prog
            .text
            .get(pc as usize)
            .cloned()
            .unwrap_or_else(|| (String::new(), 0));
        let thread = self.thread_id(w, lane);
        self.undefined_results.push(Report {
            thread,
            instruction,
            offset,
            kind: StopKind::Undefined(u),
            note: String::new(),
        });
    }

    /// A lane exits or stops: barriers it no longer holds up may open.
    pub(crate) fn finish_lane(&mut self, w: usize, lane: usize, how: Lane) {
        self.diverge(w);
        let c = self.warps[w].cta;
        if self.warps[w].lane[lane].finished() {
            return;
        }
        self.warps[w].lane[lane] = how;
        self.asy.effects += 1;
        let cta = &mut self.ctas[c];
        cta.live = cta.live.saturating_sub(1);
        for id in 0..BARRIERS {
            let cta = &self.ctas[c];
            let expected = if cta.bar_expected[id] == 0 {
                cta.live
            } else {
                cta.bar_expected[id]
            };
            if cta.bar_arrived[id] > 0 && cta.bar_arrived[id] >= expected {
                self.complete_barrier(c, id);
            }
        }
    }

    fn stop_all(&mut self, kind: StopKind) {
        for w in 0..self.warps.len() {
            for l in 0..LANES {
                let st = self.warps[w].lane[l];
                if !st.finished() {
                    self.diverge(w);
                    let pc = self.warps[w].pc[l];
                    self.stop(w, l, pc, kind.clone());
                }
            }
            self.warps[w].done = true;
        }
    }

    /// What the warp's lanes read besides registers.
    #[inline(always)]
    pub(crate) fn ctx(&self, w: usize) -> regs::Ctx {
        let wp = &self.warps[w];
        let cta = &self.ctas[wp.cta];
        regs::Ctx {
            rank: cta.rank,
            rank_shift: self.profile.rank_shift,
            ctaid: cta.ctaid,
            cluster_ctaid: cta.cluster_ctaid,
            first: wp.first,
            shape: self.shape,
        }
    }

    /// The value of a source operand for one lane.
    #[inline(always)]
    pub(crate) fn read(&self, w: &Warp, s: Src, lane: usize) -> u64 {
        match s {
            Src::Reg(r) | Src::Reg128(r) => w.regs[r as usize * LANES + lane],
            Src::Imm(v) => v,
            Src::SharedAddr(off) => {
                (u64::from(self.ctas[w.cta].rank) << self.profile.rank_shift) | off
            }
            Src::Sreg(sr) => {
                let cta = &self.ctas[w.cta];
                let cx = regs::Ctx {
                    rank: cta.rank,
                    rank_shift: self.profile.rank_shift,
                    ctaid: cta.ctaid,
                    cluster_ctaid: cta.cluster_ctaid,
                    first: w.first,
                    shape: self.shape,
                };
                regs::sreg(&cx, sr, lane)
            }
            Src::Unspecified => 0,
        }
    }

    /// The high 64 bits of a 128-bit source.
    #[inline(always)]
    pub(crate) fn read_hi(&self, w: &Warp, s: Src, lane: usize) -> u64 {
        regs::rd_hi(w, s, lane)
    }

    /// The unspecified bits of a source operand.
    #[inline(always)]
    pub(crate) fn unspec(&self, w: &Warp, s: Src, lane: usize) -> u64 {
        regs::us(w, s, lane)
    }

    #[inline(always)]
    pub(crate) fn unspec_hi(&self, w: &Warp, s: Src, lane: usize) -> u64 {
        regs::us_hi(w, s, lane)
    }
}

/// The lanes of a mask, lowest first.
#[inline]
pub(crate) fn lanes(mask: u32) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(l)
        }
    })
}
