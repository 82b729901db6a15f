//! Where `conform exhaustive` gets an implementation's outputs: one launch
//! of the form's exhaustive kernel per chunk of consecutive inputs. The
//! simulator and `command:` programs run each chunk as a job of the
//! `conform run` protocol; the CUDA driver keeps the kernel JIT-compiled
//! and its buffers allocated across chunks.

use crate::run::impls::{Implementation, Job};
use ptx_gen::suite::manifest::{Group, Layout, Provenance};
use ptx_reports::Implementation as Info;
use std::path::PathBuf;
use std::time::Duration;

/// An implementation computing a form's outputs over chunks of inputs.
pub trait Outputs: Send {
    fn info(&self) -> Info;

    /// Fills `out` (resized to `count` rows) with the outputs for inputs
    /// `first..first + count`.
    fn chunk(&mut self, first: u64, count: u64, out: &mut Vec<u8>) -> Result<(), String>;
}

/// The 16 bytes of the kernel's `in` buffer: the first input and the count.
pub fn input_buffer(first: u64, count: u64) -> [u8; 16] {
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&first.to_le_bytes());
    b[8..].copy_from_slice(&count.to_le_bytes());
    b
}

/// What every chunk's job shares.
pub struct Kernel {
    pub form: String,
    pub section: String,
    pub ptx_version: String,
    pub target: String,
    pub ptx: String,
    /// The destination's PTX type (`f16`) and the bytes of a row.
    pub output_type: String,
    pub row: usize,
}

impl Kernel {
    /// The group of one chunk: inputs `first..first + count`, as the
    /// protocol of `conform run` describes a job.
    pub fn group(&self, first: u64, count: u64) -> Group {
        let mut g = ptx_gen::suite::group_1d(
            format!("{}/exhaustive/{first:#x}", self.form),
            "cvt",
            &self.form,
            &self.section,
            (&self.ptx_version, &self.target),
            Provenance::Spec,
            String::new(),
            count,
            Layout::packed(&[("first", "u64", 8), ("count", "u64", 8)]),
            Layout::packed(&[("d", &self.output_type, self.row as u32)]),
        );
        g.kernel = "kernel.ptx".into();
        g
    }
}

/// Any [`Implementation`] of `conform run`, one job per chunk.
pub struct ViaJobs {
    pub imp: Box<dyn Implementation + Send>,
    pub kernel: Kernel,
    pub timeout: Duration,
    /// Where the kernel's file is said to be (in messages).
    pub ptx_path: PathBuf,
}

impl Outputs for ViaJobs {
    fn info(&self) -> Info {
        self.imp.info()
    }

    fn chunk(&mut self, first: u64, count: u64, out: &mut Vec<u8>) -> Result<(), String> {
        let g = self.kernel.group(first, count);
        if let Some(why) = self.imp.unsupported(&g) {
            return Err(why);
        }
        let input = input_buffer(first, count);
        let job = Job {
            group: &g,
            ptx: &self.kernel.ptx,
            ptx_path: &self.ptx_path,
            input: &input,
            timeout: self.timeout,
        };
        let bytes = self.imp.run(&job).map_err(|e| e.0)?;
        if bytes.len() != g.output_bytes() {
            return Err(format!(
                "{} output bytes, expected {}",
                bytes.len(),
                g.output_bytes()
            ));
        }
        *out = bytes;
        Ok(())
    }
}

/// The CUDA driver in this process, the kernel JIT-compiled once.
#[cfg(feature = "cuda")]
pub struct OnCuda {
    resident: crate::run::cuda::Resident,
    info: Info,
    timeout: Duration,
    row: usize,
}

#[cfg(feature = "cuda")]
impl OnCuda {
    /// Opens the driver, JIT-compiles the kernel and allocates buffers for
    /// `chunk` rows.
    pub fn start(
        libcuda: Option<&std::path::Path>,
        device: usize,
        kernel: &Kernel,
        chunk: u64,
        timeout: Duration,
    ) -> Result<OnCuda, String> {
        let cuda = std::sync::Arc::new(crate::run::cuda::Cuda::open(libcuda, device)?);
        let info = cuda.info();
        if let Some(why) = claims(&info, kernel) {
            return Err(why);
        }
        let resident = cuda.resident(&kernel.ptx, "k", 16, chunk as usize * kernel.row)?;
        Ok(OnCuda {
            resident,
            info,
            timeout,
            row: kernel.row,
        })
    }
}

/// Why `info` does not cover the kernel's PTX version and target.
#[cfg(feature = "cuda")]
fn claims(info: &Info, k: &Kernel) -> Option<String> {
    let g = k.group(0, 0);
    crate::run::impls::claims(info, &g)
}

#[cfg(feature = "cuda")]
impl Outputs for OnCuda {
    fn info(&self) -> Info {
        self.info.clone()
    }

    fn chunk(&mut self, first: u64, count: u64, out: &mut Vec<u8>) -> Result<(), String> {
        // every byte is overwritten by the copy back
        out.resize(count as usize * self.row, 0);
        self.resident
            .launch(&input_buffer(first, count), count, out, self.timeout)
    }
}
