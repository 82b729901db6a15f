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

    /// Takes back the buffers `chunk` filled, once the sweep is done with
    /// them (an implementation that prepared them, pinned them say,
    /// undoes that here).
    fn release(&mut self, buffers: Vec<Vec<u8>>) {
        drop(buffers);
    }
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

/// The CUDA driver in this process, the kernel JIT-compiled once. The
/// output buffers are page-locked (`cuMemHostRegister`) the first time
/// they are used, so that the copy back is one DMA transfer rather than a
/// copy through the driver's staging buffers.
#[cfg(feature = "cuda")]
pub struct OnCuda {
    resident: crate::run::cuda::Resident,
    info: Info,
    timeout: Duration,
    row: usize,
    /// `None` with `--host-memory pageable`, or where the driver library
    /// lacks the functions.
    pinning: Option<Pinning>,
    /// The start and length of each buffer registered.
    pinned: Vec<(usize, usize)>,
}

/// The driver functions that page-lock host memory, looked up in the
/// library `--impl cuda` loaded (the same handle: `dlopen` of a loaded
/// library).
#[cfg(feature = "cuda")]
struct Pinning {
    register: unsafe extern "C" fn(*mut std::ffi::c_void, usize, std::ffi::c_uint) -> u32,
    unregister: unsafe extern "C" fn(*mut std::ffi::c_void) -> u32,
    set_current: unsafe extern "C" fn(usize) -> u32,
    /// The context `OnCuda::start` left current (a `CUcontext`).
    context: usize,
    _lib: libloading::Library,
}

#[cfg(feature = "cuda")]
impl Pinning {
    /// The functions from `library` (a path, or a name the loader
    /// searches), and the context current on this thread.
    fn find(library: &str) -> Result<Pinning, String> {
        let path = std::path::Path::new(library);
        let name = if path.components().count() > 1 {
            std::fs::canonicalize(path)
                .map_err(|e| e.to_string())?
                .into_os_string()
        } else {
            library.into()
        };
        // SAFETY: the library is the CUDA driver `--impl cuda` already
        // loaded; each symbol is read with the driver API's signature.
        unsafe {
            let lib = libloading::Library::new(name).map_err(|e| e.to_string())?;
            let get_current = *lib
                .get::<unsafe extern "C" fn(*mut usize) -> u32>(b"cuCtxGetCurrent\0")
                .map_err(|e| e.to_string())?;
            let mut context = 0usize;
            if get_current(&mut context) != 0 || context == 0 {
                return Err("no current context".into());
            }
            Ok(Pinning {
                register: *lib
                    .get(b"cuMemHostRegister_v2\0")
                    .map_err(|e| e.to_string())?,
                unregister: *lib
                    .get(b"cuMemHostUnregister\0")
                    .map_err(|e| e.to_string())?,
                set_current: *lib.get(b"cuCtxSetCurrent\0").map_err(|e| e.to_string())?,
                context,
                _lib: lib,
            })
        }
    }
}

#[cfg(feature = "cuda")]
impl OnCuda {
    /// Opens the driver, JIT-compiles the kernel and allocates buffers for
    /// `chunk` rows; `pin` page-locks the host buffers.
    pub fn start(
        libcuda: Option<&std::path::Path>,
        device: usize,
        kernel: &Kernel,
        chunk: u64,
        timeout: Duration,
        pin: bool,
    ) -> Result<OnCuda, String> {
        let cuda = std::sync::Arc::new(crate::run::cuda::Cuda::open(libcuda, device)?);
        let info = cuda.info();
        if let Some(why) = claims(&info, kernel) {
            return Err(why);
        }
        let resident = cuda.resident(&kernel.ptx, "k", 16, chunk as usize * kernel.row)?;
        // the context `resident` made current on this thread
        let pinning = match info.details.get("library") {
            Some(lib) if pin => Pinning::find(lib).ok(),
            _ => None,
        };
        Ok(OnCuda {
            resident,
            info,
            timeout,
            row: kernel.row,
            pinning,
            pinned: Vec::new(),
        })
    }

    /// Page-locks `out` unless it already is; a buffer the driver will not
    /// lock stays pageable (slower copies, same bytes).
    fn pin(&mut self, out: &mut [u8]) {
        let Some(p) = &self.pinning else {
            return;
        };
        let (start, len) = (out.as_mut_ptr() as usize, out.len());
        if len == 0
            || self
                .pinned
                .iter()
                .any(|&(s, l)| s <= start && start + len <= s + l)
        {
            return;
        }
        // SAFETY: the context is the one `start` found, alive as long as
        // `resident`; the range is `out`'s, which `release` unregisters
        // (the sweep gives every buffer back, and `chunk` a buffer it is
        // about to grow).
        let ok = unsafe {
            (p.set_current)(p.context) == 0 && (p.register)(out.as_mut_ptr().cast(), len, 0) == 0
        };
        if ok {
            self.pinned.push((start, len));
        }
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
        let bytes = count as usize * self.row;
        if out.capacity() < bytes {
            // about to move: no longer locked once freed
            self.release(vec![std::mem::take(out)]);
        }
        // every byte is overwritten by the copy back
        out.resize(bytes, 0);
        self.pin(out);
        self.resident
            .launch(&input_buffer(first, count), count, out, self.timeout)
    }

    fn release(&mut self, buffers: Vec<Vec<u8>>) {
        let Some(p) = &self.pinning else {
            return;
        };
        for mut b in buffers {
            let start = b.as_mut_ptr() as usize;
            if let Some(i) = self.pinned.iter().position(|&(s, _)| s == start) {
                self.pinned.swap_remove(i);
                // SAFETY: registered by `pin`, in this context.
                unsafe {
                    (p.set_current)(p.context);
                    (p.unregister)(b.as_mut_ptr().cast());
                }
            }
        }
    }
}
