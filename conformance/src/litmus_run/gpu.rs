//! The CUDA side of `conform litmus run`: one kernel per test, JIT-compiled
//! by the driver, with its buffers allocated once and reused by every
//! launch.

use super::plan::{self, Plan, BLOCK};
use super::{Frame, Runner, SCRATCH_WORDS};
use crate::run::cuda::kernel::{Buffer, Kernel};
use crate::run::cuda::Cuda;
use std::sync::Arc;
use std::time::Duration;

/// The driver, and what a run needs to know of the device.
pub struct Gpu {
    pub cuda: Arc<Cuda>,
    pub timeout: Duration,
}

impl Gpu {
    pub fn open(
        libcuda: Option<&std::path::Path>,
        device: usize,
        timeout: Duration,
    ) -> Result<Gpu, String> {
        Ok(Gpu {
            cuda: Arc::new(Cuda::open(libcuda, device)?),
            timeout,
        })
    }

    /// Four CTAs per multiprocessor: all resident at once.
    pub fn default_ctas(&self) -> Result<u32, String> {
        Ok(self.cuda.multiprocessors()? * 4)
    }

    pub fn describe(&self) -> (String, String) {
        self.cuda.describe_device()
    }

    /// Loads a test's kernel and allocates its buffers for `frame`.
    pub fn runner(&self, plan: &Plan, frame: &Frame) -> Result<Box<dyn Runner>, String> {
        let mut k = self.cuda.kernel(&plan.ptx, plan::ENTRY)?;
        let bufs = [
            k.alloc(frame.roles_words * 4)?,
            k.alloc(frame.locs_words * 4)?,
            k.alloc(frame.mem_words * 4)?,
            k.alloc(frame.out_words * 4)?,
            k.alloc((SCRATCH_WORDS + 64) * 4)?,
            k.alloc(frame.cfg_words * 4)?,
        ];
        k.fill(bufs[4], 0, (SCRATCH_WORDS + 64) * 4)?;
        Ok(Box::new(GpuRunner {
            k,
            bufs,
            ctas: frame.ctas,
            cluster: plan.cluster,
            timeout: self.timeout,
        }))
    }
}

struct GpuRunner {
    k: Kernel,
    /// roles, locs, mem, out, scratch, cfg
    bufs: [Buffer; 6],
    ctas: u32,
    cluster: u32,
    timeout: Duration,
}

impl Runner for GpuRunner {
    fn launch(
        &mut self,
        roles: &[u8],
        locs: &[u8],
        cfg: &[u8],
        mem: Option<&[u8]>,
        out: &mut [u8],
        mem_back: Option<&mut [u8]>,
    ) -> Result<(), String> {
        let [b_roles, b_locs, b_mem, b_out, b_scratch, b_cfg] = self.bufs;
        self.k.upload(b_roles, roles)?;
        self.k.upload(b_locs, locs)?;
        self.k.upload(b_cfg, cfg)?;
        match mem {
            Some(m) => self.k.upload(b_mem, m)?,
            None => self.k.fill(b_mem, 0, b_mem.bytes)?,
        }
        self.k.fill(b_out, 0xff, out.len())?;
        self.k.launch(
            self.ctas,
            BLOCK,
            self.cluster.max(1),
            &[
                b_roles.ptr,
                b_locs.ptr,
                b_mem.ptr,
                b_out.ptr,
                b_scratch.ptr,
                b_cfg.ptr,
            ],
            self.timeout,
        )?;
        self.k.download(b_out, out)?;
        if let Some(back) = mem_back {
            self.k.download(b_mem, back)?;
        }
        Ok(())
    }
}
