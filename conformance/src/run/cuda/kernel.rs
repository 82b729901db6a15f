//! A kernel JIT-compiled once with device buffers of its own, launched many
//! times with any grid, block and cluster shape and `.u64` parameters
//! (`conform litmus run --impl cuda`).

use super::{Cuda, Failure, Held};
use cudarc::driver::sys::{CUcontext, CUdevice_attribute, CUdeviceptr, CUfunction};
use std::ffi::{c_int, c_void, CString};
use std::ptr::null_mut;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A loaded kernel and the buffers allocated for it, freed on drop.
pub struct Kernel {
    cuda: Arc<Cuda>,
    context: CUcontext,
    /// Set when a fault destroyed the context: nothing is freed then.
    lost: bool,
    held: Held,
    function: CUfunction,
    sizes: Vec<(CUdeviceptr, usize)>,
}

// SAFETY: the driver's handles may be used from any thread once the context
// is made current there, which every method does first.
unsafe impl Send for Kernel {}

/// A device buffer of a [`Kernel`]: its address and size.
#[derive(Clone, Copy, Debug)]
pub struct Buffer {
    pub ptr: u64,
    pub bytes: usize,
}

impl Cuda {
    /// JIT-compiles `ptx` and looks up `entry`.
    pub fn kernel(self: &Arc<Self>, ptx: &str, entry: &str) -> Result<Kernel, String> {
        let context = self.current()?;
        let mut k = Kernel {
            cuda: self.clone(),
            context,
            lost: false,
            held: Held::default(),
            function: null_mut(),
            sizes: Vec::new(),
        };
        let module = self.jit(ptx)?;
        k.held.module = Some(module);
        let name = CString::new(entry).map_err(|_| "the entry name holds a NUL")?;
        // SAFETY: the module is loaded in the current context.
        self.driver
            .check(&format!("cuModuleGetFunction `{entry}`"), unsafe {
                (self.driver.api.module_get_function)(&mut k.function, module, name.as_ptr())
            })?;
        Ok(k)
    }

    /// The number of streaming multiprocessors.
    pub fn multiprocessors(&self) -> Result<u32, String> {
        let mut n: c_int = 0;
        // SAFETY: a pointer to a local.
        self.driver.check("cuDeviceGetAttribute", unsafe {
            (self.driver.api.device_get_attribute)(
                &mut n,
                CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                self.device,
            )
        })?;
        Ok(n.max(1) as u32)
    }

    /// The device's name and the driver's version, for reports.
    pub fn describe_device(&self) -> (String, String) {
        let d = &self.info.details;
        (
            d.get("device").cloned().unwrap_or_default(),
            self.info.version.clone(),
        )
    }
}

impl Kernel {
    fn enter(&self) -> Result<(), String> {
        // SAFETY: the context outlives this object (it belongs to `cuda`).
        self.cuda.driver.check("cuCtxSetCurrent", unsafe {
            (self.cuda.driver.api.ctx_set_current)(self.context)
        })
    }

    /// A new device buffer of `bytes` (at least 1).
    pub fn alloc(&mut self, bytes: usize) -> Result<Buffer, String> {
        self.enter()?;
        let mut p: CUdeviceptr = 0;
        let bytes = bytes.max(1);
        // SAFETY: a pointer to a local.
        self.cuda.driver.check("cuMemAlloc", unsafe {
            (self.cuda.driver.api.mem_alloc)(&mut p, bytes)
        })?;
        self.held.buffers.push(p);
        self.sizes.push((p, bytes));
        Ok(Buffer { ptr: p, bytes })
    }

    fn within(&self, b: Buffer, n: usize) -> Result<(), String> {
        if self.sizes.iter().any(|&(p, s)| p == b.ptr && n <= s) {
            Ok(())
        } else {
            Err(format!("{n} bytes do not fit the buffer"))
        }
    }

    /// Copies `data` to the start of `b`.
    pub fn upload(&self, b: Buffer, data: &[u8]) -> Result<(), String> {
        self.within(b, data.len())?;
        self.enter()?;
        // SAFETY: the buffer holds at least `data.len()` bytes (checked).
        self.cuda.driver.check("cuMemcpyHtoD", unsafe {
            (self.cuda.driver.api.memcpy_htod)(b.ptr, data.as_ptr().cast(), data.len())
        })
    }

    /// Fills the first `n` bytes of `b` with `byte`.
    pub fn fill(&self, b: Buffer, byte: u8, n: usize) -> Result<(), String> {
        self.within(b, n)?;
        self.enter()?;
        // SAFETY: the buffer holds at least `n` bytes (checked).
        self.cuda.driver.check("cuMemsetD8", unsafe {
            (self.cuda.driver.api.memset_d8)(b.ptr, byte, n)
        })
    }

    /// Copies the first `out.len()` bytes of `b` back.
    pub fn download(&self, b: Buffer, out: &mut [u8]) -> Result<(), String> {
        self.within(b, out.len())?;
        self.enter()?;
        // SAFETY: the buffer holds at least `out.len()` bytes (checked).
        self.cuda.driver.check("cuMemcpyDtoH", unsafe {
            (self.cuda.driver.api.memcpy_dtoh)(out.as_mut_ptr().cast(), b.ptr, out.len())
        })
    }

    /// Runs the kernel on a 1-D grid of `ctas` blocks of `block` threads in
    /// clusters of `cluster` blocks, with `.u64` parameters `params`, and
    /// waits at most `timeout` for it.
    pub fn launch(
        &mut self,
        ctas: u32,
        block: u32,
        cluster: u32,
        params: &[u64],
        timeout: Duration,
    ) -> Result<(), String> {
        let start = Instant::now();
        self.enter()?;
        let mut values = params.to_vec();
        let mut pointers: Vec<*mut c_void> = values
            .iter_mut()
            .map(|v| (v as *mut u64).cast::<c_void>())
            .collect();
        // SAFETY: the kernels launched here take `.u64` parameters only,
        // as many as `params` holds (the caller's PTX declares them).
        let started = unsafe {
            self.cuda.start(
                self.function,
                [ctas, 1, 1],
                [block, 1, 1],
                [cluster, 1, 1],
                &mut pointers,
            )
        };
        let waited = started.and_then(|()| self.cuda.wait(start, timeout));
        match waited {
            Ok(()) => Ok(()),
            Err(Failure::Error(e)) => {
                // a fault leaves the context unusable: the next tests get a
                // new one
                match self.cuda.recover(self.context) {
                    Ok(false) => Err(e),
                    Ok(true) => {
                        self.lost = true;
                        Err(format!(
                            "{e}; the CUDA context was lost, and a new one runs the next tests"
                        ))
                    }
                    Err(why) => {
                        self.lost = true;
                        Err(format!(
                            "{e}; the CUDA context was lost, and no new one could be made ({why})"
                        ))
                    }
                }
            }
            Err(Failure::Timeout) => Err(format!(
                "the kernel ran past the timeout ({} s)",
                timeout.as_secs_f64()
            )),
        }
    }
}

impl Drop for Kernel {
    fn drop(&mut self) {
        if self.lost {
            return;
        }
        let _ = self.enter();
        self.cuda.release(std::mem::take(&mut self.held));
    }
}

impl Cuda {
    /// After a failed launch in `context`: true when the context was lost
    /// (and replaced by a new one, made current), false when it is sound.
    pub(super) fn recover(&self, context: CUcontext) -> Result<bool, String> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let api = &self.driver.api;
        // SAFETY: the context is current on this thread (the launch made it so).
        if unsafe { (api.ctx_synchronize)() } == super::SUCCESS {
            return Ok(false);
        }
        if st.context == Some(context) {
            // SAFETY: the context is not used again.
            unsafe { (api.ctx_destroy)(context) };
            st.context = None;
            let c = super::create_context(&self.driver, self.device)?;
            st.context = Some(c);
        }
        Ok(true)
    }
}
