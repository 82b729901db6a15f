//! `--impl simulator`: the same kernels run by the interpreter
//! (`ptx_semantics::sim`), built without the synchronised start (the
//! interpreter runs one cluster at a time, so threads of different clusters
//! could never meet) and without stress threads. The interpreter's
//! interleaving is fixed, so what varies between launches is where the
//! test threads sit; every outcome it produces must be allowed.

use super::plan::{Plan, BLOCK};
use super::{Frame, Runner, SCRATCH_WORDS};
use ptx_semantics::ptx;
use ptx_semantics::sim::{self, Arg, Launch, StopKind};

pub struct SimRunner {
    prog: sim::Program,
    ctas: u32,
    cluster: u32,
    mem_words: usize,
}

impl SimRunner {
    pub fn new(plan: &Plan, frame: &Frame) -> Result<SimRunner, String> {
        let module = ptx::parse(&plan.ptx)
            .map_err(|e| format!("the kernel does not parse: {}", e.message))?;
        let prog = sim::prepare(&module, super::plan::ENTRY, &sim::WindowProfile::SM90)
            .map_err(|e| format!("the simulator cannot run the kernel: {e}"))?;
        Ok(SimRunner {
            prog,
            ctas: frame.ctas,
            cluster: plan.cluster,
            mem_words: frame.mem_words,
        })
    }
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
        let buffer = |bytes: Vec<u8>| Arg::Buffer { addr: None, bytes };
        let mem = mem.map_or_else(|| vec![0u8; self.mem_words * 4], <[u8]>::to_vec);
        let args = vec![
            buffer(roles.to_vec()),
            buffer(locs.to_vec()),
            buffer(mem),
            buffer(vec![0xff; out.len()]),
            buffer(vec![0; (SCRATCH_WORDS + 64) * 4]),
            buffer(cfg.to_vec()),
        ];
        let mut launch = Launch::new([self.ctas, 1, 1], [BLOCK, 1, 1], args);
        // a test thread that spins (a lock, a flag never set in this
        // interleaving) ends the launch here, not after 2^32 steps
        launch.step_budget = 1 << 24;
        if self.cluster > 1 {
            launch.cluster = Some([self.cluster, 1, 1]);
        }
        let o = sim::run(&self.prog, &launch)
            .map_err(|e| format!("the simulator cannot launch it: {e}"))?;
        if let Some(r) = o.reports.first() {
            let why = match &r.kind {
                StopKind::Undefined(u) => u.to_string(),
                StopKind::Indeterminate(w) => format!("indeterminate: {w}"),
                StopKind::Deadlock(w) => format!("deadlock: {w}"),
                StopKind::Budget => "the step budget (2^24 thread-instructions) ran out: a \
                                     thread spins, as one waiting for a write from another \
                                     cluster does (the simulator runs one cluster at a time)"
                    .into(),
            };
            return Err(format!(
                "the simulator stopped CTA {:?} thread {:?} at `{}`: {why}",
                r.thread.ctaid, r.thread.tid, r.instruction
            ));
        }
        if o.budget_exhausted {
            return Err("the simulator's step budget ran out".into());
        }
        out.copy_from_slice(&o.buffers[3].bytes[..out.len()]);
        if let Some(back) = mem_back {
            let n = back.len();
            back.copy_from_slice(&o.buffers[2].bytes[..n]);
        }
        Ok(())
    }
}
