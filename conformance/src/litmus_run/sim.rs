//! `--impl simulator`: the same kernels run by the interpreter
//! (`ptx_semantics::sim`), built without the synchronised start (the
//! interpreter runs one cluster at a time, so threads of different clusters
//! could never meet) and without stress threads. The interpreter's
//! interleaving is fixed, so what varies between launches is where the
//! test threads sit; every outcome it produces must be allowed.

use super::plan::{Plan, BLOCK};
use super::{Frame, Runner, Visit, SCRATCH_WORDS};
use ptx_semantics::ptx;
use ptx_semantics::sim::{self, Arg, Launch, Outcome, Schedule, StopKind};

pub struct SimRunner {
    prog: sim::Program,
    ctas: u32,
    cluster: u32,
    mem_words: usize,
    /// `None`: every schedule, up to `limit` runs a launch.
    schedule: Option<Schedule>,
    limit: u64,
    launches: u64,
}

impl SimRunner {
    pub fn new(
        plan: &Plan,
        frame: &Frame,
        schedule: Option<Schedule>,
        limit: u64,
    ) -> Result<SimRunner, String> {
        let module = ptx::parse(&plan.ptx)
            .map_err(|e| format!("the kernel does not parse: {}", e.message))?;
        let prog = sim::prepare(&module, super::plan::ENTRY, &sim::WindowProfile::SM90)
            .map_err(|e| format!("the simulator cannot run the kernel: {e}"))?;
        Ok(SimRunner {
            prog,
            ctas: frame.ctas,
            cluster: plan.cluster,
            mem_words: frame.mem_words,
            schedule,
            limit,
            launches: 0,
        })
    }

    fn setup(
        &mut self,
        roles: &[u8],
        locs: &[u8],
        cfg: &[u8],
        mem: Option<&[u8]>,
        out: usize,
    ) -> Launch {
        let buffer = |bytes: Vec<u8>| Arg::Buffer { addr: None, bytes };
        let mem = mem.map_or_else(|| vec![0u8; self.mem_words * 4], <[u8]>::to_vec);
        let args = vec![
            buffer(roles.to_vec()),
            buffer(locs.to_vec()),
            buffer(mem),
            buffer(vec![0xff; out]),
            buffer(vec![0; (SCRATCH_WORDS + 64) * 4]),
            buffer(cfg.to_vec()),
        ];
        let mut launch = Launch::new([self.ctas, 1, 1], [BLOCK, 1, 1], args);
        // a test thread that spins (a lock, a flag never set in this
        // interleaving) ends the launch here, not after 2^32 steps
        launch.step_budget = 1 << 24;
        // litmus tests race on purpose: the run is one execution, its
        // values as they fell (the race check would leave them open)
        launch.races = false;
        if self.cluster > 1 {
            launch.cluster = Some([self.cluster, 1, 1]);
        }
        self.launches += 1;
        launch.schedule = match &self.schedule {
            // each launch a seed of its own
            Some(Schedule::Random(seed)) => {
                Schedule::Random(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ self.launches)
            }
            Some(s) => s.clone(),
            None => Schedule::Eager,
        };
        launch
    }
}

/// The output words, with those holding unspecified bits (a final value
/// read while an asynchronous write to it was still in flight) marked as
/// never written: their instance counts as incomplete.
fn unspecified_unknown(b: &sim::BufferOut) -> Vec<u8> {
    let mut bytes = b.bytes.clone();
    if !b.unspecified.is_empty() {
        for (w, m) in bytes.chunks_mut(4).zip(b.unspecified.chunks(4)) {
            if m.iter().any(|&x| x != 0) {
                w.fill(0xff);
            }
        }
    }
    bytes
}

/// The first stopped thread of a run, as the reason the test cannot run.
fn stopped(o: &Outcome) -> Result<(), String> {
    if let Some(r) = o.reports.first() {
        let why = match &r.kind {
            StopKind::Undefined(u) => u.to_string(),
            StopKind::Indeterminate(w) => format!("indeterminate: {w}"),
            StopKind::Deadlock(w) => format!("deadlock: {w}"),
            StopKind::Budget => "the step budget (2^24 thread-instructions) ran out: a \
                                 thread spins, as one waiting for a write from another \
                                 cluster does (the simulator runs one cluster at a time)"
                .into(),
            StopKind::Resource(w) => format!("resource: {w}"),
            StopKind::Trap => "trap: execution aborted".into(),
        };
        return Err(format!(
            "the simulator stopped CTA {:?} thread {:?} at `{}`: {why}",
            r.thread.ctaid, r.thread.tid, r.instruction
        ));
    }
    if o.budget_exhausted {
        return Err("the simulator's step budget ran out".into());
    }
    Ok(())
}

impl Runner for SimRunner {
    fn launch(
        &mut self,
        roles: &[u8],
        locs: &[u8],
        cfg: &[u8],
        mem: Option<&[u8]>,
        out: &mut [u8],
        mem_back: Option<&mut [u8]>,
    ) -> Result<(), String> {
        let launch = self.setup(roles, locs, cfg, mem, out.len());
        let o = sim::run(&self.prog, &launch)
            .map_err(|e| format!("the simulator cannot launch it: {e}"))?;
        stopped(&o)?;
        out.copy_from_slice(&unspecified_unknown(&o.buffers[3])[..out.len()]);
        if let Some(back) = mem_back {
            let n = back.len();
            back.copy_from_slice(&o.buffers[2].bytes[..n]);
        }
        Ok(())
    }

    fn launch_each(
        &mut self,
        roles: &[u8],
        locs: &[u8],
        cfg: &[u8],
        mem: Option<&[u8]>,
        out: &mut [u8],
        mem_back: Option<&mut [u8]>,
        visit: &mut Visit<'_>,
    ) -> Result<(), String> {
        if self.schedule.is_some() {
            return super::launch_once(self, [roles, locs, cfg], mem, out, mem_back, visit);
        }
        let launch = self.setup(roles, locs, cfg, mem, out.len());
        let (n_out, n_mem) = (out.len(), mem_back.map(|m| m.len()));
        let mut seen: Vec<(Vec<u8>, Option<Vec<u8>>)> = Vec::new();
        let mut failed = Ok(());
        let done = sim::explore(&self.prog, &launch, self.limit, |o| {
            if failed.is_err() {
                return;
            }
            if let Err(e) = stopped(o) {
                failed = Err(e);
                return;
            }
            let key = (
                unspecified_unknown(&o.buffers[3])[..n_out].to_vec(),
                n_mem.map(|n| o.buffers[2].bytes[..n].to_vec()),
            );
            if !seen.contains(&key) {
                seen.push(key);
            }
        })
        .map_err(|e| format!("the simulator cannot launch it: {e}"))?;
        failed?;
        if !done.complete {
            return Err(format!(
                "more than {} schedules in one launch (--schedule-limit)",
                self.limit
            ));
        }
        for (o, m) in &seen {
            visit(o, m.as_deref());
        }
        Ok(())
    }

    fn one_instance(&self) -> bool {
        self.schedule.is_none()
    }
}
