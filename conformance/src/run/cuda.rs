//! `--impl cuda`: runs each group on a GPU through the CUDA driver API,
//! loaded at run time (`--libcuda PATH`, or the system's libcuda), each
//! kernel JIT-compiled from its PTX text: [`Cuda`] in this process, and
//! [`Isolated`], which the runner uses, in child processes (several at
//! once), each replaced after a fault or a timeout. Batches of groups are
//! JIT-compiled as modules of many kernels ([`Cuda::run_batch`],
//! [`merge`]). Comparing the outputs is the runner's work.
//! docs/implementations.md says what it claims.

mod driver;
pub mod kernel;
pub mod merge;
mod worker;

pub use worker::{serve, Isolated, Options};

use super::impls::{Detection, Implementation, Job, RunError, POISON};
use cudarc::driver::sys::{
    CUcontext, CUdevice, CUdevice_attribute, CUdeviceptr, CUfunction, CUfunction_attribute,
    CUjit_option, CUlaunchAttribute, CUlaunchAttributeID, CUlaunchAttributeValue,
    CUlaunchAttributeValue_union__bindgen_ty_1 as ClusterDim, CUlaunchConfig, CUmodule,
};
use driver::{Driver, NOT_READY, SUCCESS};
use ptx_reports::Implementation as Info;
use std::ffi::{c_int, c_void, CString};
use std::path::Path;
use std::ptr::null_mut;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The newest PTX ISA version the JIT of each CUDA release accepts, newest
/// release first, as `cuDriverGetVersion` numbers them (12.8 is `12080`).
/// From the release history in the PTX ISA manual's release notes, where
/// each PTX ISA version names the CUDA release that brought it; CUDA 12.6
/// brought none (it still takes 8.5), and there was no public 12.7.
const PTX_FOR_DRIVER: &[(i32, &str)] = &[
    (13010, "9.1"),
    (13000, "9.0"),
    (12090, "8.8"),
    (12080, "8.7"),
    (12070, "8.6"),
    (12050, "8.5"),
    (12040, "8.4"),
    (12030, "8.3"),
    (12020, "8.2"),
    (12010, "8.1"),
    (12000, "8.0"),
    (11080, "7.8"),
    (11070, "7.7"),
    (11060, "7.6"),
    (11050, "7.5"),
    (11040, "7.4"),
    (11030, "7.3"),
    (11020, "7.2"),
    (11010, "7.1"),
    (11000, "7.0"),
    (10020, "6.5"),
    (10010, "6.4"),
    (10000, "6.3"),
    (9020, "6.2"),
    (9010, "6.1"),
    (9000, "6.0"),
];

/// The newest PTX ISA version a driver of `version` JIT-compiles: the row
/// of the newest release at or below it. A driver newer than the table is
/// credited with the table's newest row, never with a guess; one older than
/// CUDA 9.0 gets `None`.
pub fn ptx_isa_for_driver(version: i32) -> Option<&'static str> {
    PTX_FOR_DRIVER
        .iter()
        .find(|(first, _)| version >= *first)
        .map(|(_, ptx)| *ptx)
}

/// How the message of a fault in a running kernel starts (an error of the
/// kernel itself, as the wait for it reports: an illegal or misaligned
/// address, a trap...; not one of the JIT, the launch or a copy).
pub const FAULT: &str = "the kernel: ";

/// The outcome of a group whose cases are undefined: a fault in the kernel
/// is a detection; a kernel that ran to its end a miss; any other error
/// stays an error.
pub fn detection(r: Result<Vec<u8>, RunError>) -> Result<Detection, RunError> {
    match r {
        Ok(_) => Ok(Detection::Missed(
            "the kernel ran to its end with no fault".into(),
        )),
        Err(e) if e.0.starts_with(FAULT) => Ok(Detection::Detected(e.0)),
        Err(e) => Err(e),
    }
}

/// The CUDA driver on one device, in this process (the runner uses
/// [`Isolated`], which runs this in a child process).
///
/// Groups run one at a time: [`Implementation::run`] holds a lock for the
/// whole launch, so more `--jobs` only queue (the driver would take
/// concurrent launches, but a fault in one kernel would then spoil the
/// results of those running beside it).
pub struct Cuda {
    driver: Driver,
    device: CUdevice,
    info: Info,
    state: Mutex<State>,
}

/// What changes between groups.
struct State {
    /// The context the next group runs in; `None` when a fault destroyed it
    /// and no new one could be made.
    context: Option<CUcontext>,
    /// Why no further group can run (a kernel that outlived its timeout and
    /// still holds the GPU, or a context that could not be made again).
    stopped: Option<String>,
    /// Whether the context was left with a kernel still running, so that it
    /// must not be destroyed (that would wait for the kernel).
    hung: bool,
}

// SAFETY: a CUDA context may be made current on any thread; `State` is only
// reached through the mutex, so one thread uses it at a time.
unsafe impl Send for State {}

/// How a launch went wrong.
enum Failure {
    /// The driver said no (JIT, launch, copy, or a fault in the kernel).
    Error(String),
    /// The kernel was still running when the timeout passed.
    Timeout,
}

impl From<String> for Failure {
    fn from(s: String) -> Failure {
        Failure::Error(s)
    }
}

impl From<&str> for Failure {
    fn from(s: &str) -> Failure {
        Failure::Error(s.to_string())
    }
}

/// A module and device buffers of one group, to free when it is done.
#[derive(Default)]
struct Held {
    module: Option<CUmodule>,
    buffers: Vec<CUdeviceptr>,
}

impl Cuda {
    /// Loads the driver library (`libcuda`, or the system's), initialises
    /// it and makes a context on device `device`. The errors name the
    /// library and the driver's error.
    pub fn open(libcuda: Option<&Path>, device: usize) -> Result<Cuda, String> {
        let driver = Driver::load(libcuda)?;
        let lib = driver.library.clone();
        let api = &driver.api;
        let check = |what: &str, s| driver.check(&format!("{lib}: {what}"), s);
        let mut version: c_int = 0;
        let mut count: c_int = 0;
        let mut dev: CUdevice = 0;
        let mut name = [0 as std::ffi::c_char; 256];
        let (mut major, mut minor): (c_int, c_int) = (0, 0);
        // SAFETY: each call gets pointers to locals of the declared types
        // and sizes.
        unsafe {
            check("cuInit", (api.init)(0))?;
            check("cuDriverGetVersion", (api.driver_get_version)(&mut version))?;
            check("cuDeviceGetCount", (api.device_get_count)(&mut count))?;
            if device >= count as usize {
                return Err(format!(
                    "{lib}: --device {device}, but the driver sees {count} device(s)"
                ));
            }
            check("cuDeviceGet", (api.device_get)(&mut dev, device as c_int))?;
            check(
                "cuDeviceGetName",
                (api.device_get_name)(name.as_mut_ptr(), name.len() as c_int - 1, dev),
            )?;
            check(
                "cuDeviceGetAttribute",
                (api.device_get_attribute)(
                    &mut major,
                    CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                    dev,
                ),
            )?;
            check(
                "cuDeviceGetAttribute",
                (api.device_get_attribute)(
                    &mut minor,
                    CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                    dev,
                ),
            )?;
        }
        // SAFETY: the driver wrote a NUL-terminated name into the buffer,
        // whose last byte stays 0.
        let name = unsafe { std::ffi::CStr::from_ptr(name.as_ptr()) }
            .to_string_lossy()
            .into_owned();
        let ptx_version = ptx_isa_for_driver(version).ok_or_else(|| {
            format!(
                "{lib}: CUDA driver {} is older than 9.0, the oldest this knows",
                dotted(version)
            )
        })?;
        let context = create_context(&driver, dev)?;
        let mut cuda = Cuda {
            driver,
            device: dev,
            info: Info {
                name: "cuda".into(),
                version: format!("driver {}", dotted(version)),
                ptx_version: ptx_version.into(),
                targets: Vec::new(),
                details: Default::default(),
            },
            state: Mutex::new(State {
                context: Some(context),
                stopped: None,
                hung: false,
            }),
        };
        // the plain target, and the arch- and family-specific ones where
        // the compute capability has them, each as far as the JIT takes a
        // kernel for it
        let base = format!("sm_{major}{minor}");
        let mut probes = vec![base.clone()];
        if major >= 9 {
            probes.push(format!("{base}a"));
        }
        if major >= 10 {
            probes.push(format!("{base}f"));
        }
        let mut seen = Vec::new();
        for t in probes {
            match cuda.probe(context, ptx_version, &t) {
                Ok(()) => {
                    seen.push(format!("{t} accepted"));
                    cuda.info.targets.push(t);
                }
                Err(e) => seen.push(format!("{t} rejected ({})", first_line(&e))),
            }
        }
        let d = &mut cuda.info.details;
        d.insert("library".into(), cuda.driver.library.clone());
        d.insert("driver_version".into(), version.to_string());
        d.insert("device".into(), format!("{device}: {name}"));
        d.insert("compute_capability".into(), format!("{major}.{minor}"));
        d.insert(
            "ptx_version".into(),
            format!("the newest PTX ISA of CUDA {}'s JIT", dotted(version)),
        );
        d.insert("jit_probe".into(), seen.join("; "));
        if cuda.driver.launch_kernel_ex.is_none() {
            d.insert(
                "clusters".into(),
                "no cuLaunchKernelEx: groups with clusters end as errors".into(),
            );
        }
        Ok(cuda)
    }

    /// Whether the next group can run: no fault lost the context for good
    /// and no kernel outlived its timeout.
    pub fn healthy(&self) -> bool {
        let st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.stopped.is_none() && st.context.is_some()
    }

    /// JIT-compiles an empty kernel for `target`: whether the driver takes
    /// that target at `ptx_version`.
    fn probe(&self, context: CUcontext, ptx_version: &str, target: &str) -> Result<(), String> {
        let ptx = format!(
            ".version {ptx_version}\n.target {target}\n.address_size 64\n\n\
             .visible .entry probe()\n{{\n\tret;\n}}\n"
        );
        // SAFETY: the context is this object's and alive.
        self.driver.check("cuCtxSetCurrent", unsafe {
            (self.driver.api.ctx_set_current)(context)
        })?;
        let module = self.jit(&ptx)?;
        // SAFETY: the module was just loaded.
        unsafe { (self.driver.api.module_unload)(module) };
        Ok(())
    }

    /// `cuModuleLoadDataEx` of PTX text; the JIT's error log on failure.
    fn jit(&self, ptx: &str) -> Result<CUmodule, String> {
        let text = CString::new(ptx).map_err(|_| "the PTX text holds a NUL byte".to_string())?;
        let mut log = vec![0u8; 16 * 1024];
        let mut options = [
            CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
            CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
        ];
        // the size travels in the pointer, as the driver API has it
        let mut values: [*mut c_void; 2] = [log.as_mut_ptr().cast(), log.len() as *mut c_void];
        let mut module: CUmodule = null_mut();
        // SAFETY: the text is NUL-terminated; the log buffer outlives the
        // call and its size is given; the arrays have the count given.
        let s = unsafe {
            (self.driver.api.module_load_data_ex)(
                &mut module,
                text.as_ptr().cast(),
                options.len() as u32,
                options.as_mut_ptr(),
                values.as_mut_ptr(),
            )
        };
        if s == SUCCESS {
            return Ok(module);
        }
        let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
        let log = String::from_utf8_lossy(&log[..end]);
        Err(format!(
            "JIT (cuModuleLoadDataEx): {}{}{}",
            self.driver.describe(s),
            if log.trim().is_empty() { "" } else { ": " },
            log.trim()
        ))
    }

    /// Loads, launches and reads back one group in the current context,
    /// noting in `held` what to free.
    fn launch(&self, job: &Job, held: &mut Held, start: Instant) -> Result<Vec<u8>, Failure> {
        let module = self.jit(job.ptx)?;
        held.module = Some(module);
        self.launch_in(module, &job.group.entry, job, held, start)
    }

    /// Launches and reads back one group whose kernel is `entry` of
    /// `module` (loaded in the current context), noting in `held` the
    /// buffers to free.
    fn launch_in(
        &self,
        module: CUmodule,
        entry: &str,
        job: &Job,
        held: &mut Held,
        start: Instant,
    ) -> Result<Vec<u8>, Failure> {
        let api = &self.driver.api;
        let d = &self.driver;
        let g = job.group;
        let name = CString::new(entry).map_err(|_| "the entry name holds a NUL")?;
        let mut function: CUfunction = null_mut();
        let (in_bytes, out_bytes) = (job.input.len(), g.output_bytes());
        let (mut input, mut output): (CUdeviceptr, CUdeviceptr) = (0, 0);
        // SAFETY: the module is loaded in the current context; the pointers
        // are to locals; device buffers are at least as large as the bytes
        // set or copied, the host slices exactly that long.
        unsafe {
            d.check(
                &format!("cuModuleGetFunction `{entry}`"),
                (api.module_get_function)(&mut function, module, name.as_ptr()),
            )?;
            d.check("cuMemAlloc", (api.mem_alloc)(&mut input, in_bytes.max(1)))?;
            held.buffers.push(input);
            d.check("cuMemAlloc", (api.mem_alloc)(&mut output, out_bytes.max(1)))?;
            held.buffers.push(output);
            d.check("cuMemsetD8", (api.memset_d8)(output, POISON, out_bytes))?;
            d.check(
                "cuMemcpyHtoD",
                (api.memcpy_htod)(input, job.input.as_ptr().cast(), in_bytes),
            )?;
        }
        let mut args = [input, output];
        let mut maps = g
            .tensor_maps
            .iter()
            .map(|t| {
                let m = ptx_semantics::tensor::MapText::parse(t)
                    .map_err(|e| format!("tensor map `{t}`: {e}"))?;
                let base = match &m.base {
                    ptx_semantics::tensor::Base::Named(n) if n == "in" => input,
                    ptx_semantics::tensor::Base::Named(n) if n == "out" => output,
                    _ => return Err(format!("tensor map `{t}`: its base is not `in` or `out`")),
                };
                d.encode_map(&m.at(base))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let mut params: Vec<*mut c_void> = vec![
            (&mut args[0] as *mut CUdeviceptr).cast(),
            (&mut args[1] as *mut CUdeviceptr).cast(),
        ];
        params.extend(
            maps.iter_mut()
                .map(|m| (&mut m.0 as *mut [u8; 128]).cast::<c_void>()),
        );
        // SAFETY: `params` points at the two `.u64` parameters the suite's
        // kernels take, then at each tensor map's 128 bytes.
        let launched = unsafe { self.start(function, g.grid, g.block, g.cluster, &mut params) };
        launched?;
        self.wait(start, job.timeout)?;
        let mut out = vec![0u8; out_bytes];
        // SAFETY: `out` has the buffer's size.
        d.check("cuMemcpyDtoH", unsafe {
            (api.memcpy_dtoh)(out.as_mut_ptr().cast(), output, out_bytes)
        })?;
        Ok(out)
    }

    /// Launches `function` on the current context's null stream, with
    /// cluster dimensions through `cuLaunchKernelEx` when `cluster` is not
    /// 1x1x1.
    ///
    /// # Safety
    /// `params` must point at values of the kernel's parameter types, in
    /// order, and the function must belong to the current context.
    unsafe fn start(
        &self,
        function: CUfunction,
        [gx, gy, gz]: [u32; 3],
        [bx, by, bz]: [u32; 3],
        cluster: [u32; 3],
        params: &mut [*mut c_void],
    ) -> Result<(), Failure> {
        let (d, api) = (&self.driver, &self.driver.api);
        let launched = if cluster == [1, 1, 1] {
            (api.launch_kernel)(
                function,
                gx,
                gy,
                gz,
                bx,
                by,
                bz,
                0,
                null_mut(),
                params.as_mut_ptr(),
                null_mut(),
            )
        } else {
            let [cx, cy, cz] = cluster;
            let ex = d.launch_kernel_ex.ok_or(
                "the launch has clusters, and the driver has no cuLaunchKernelEx (CUDA 12.0)",
            )?;
            if cx as u64 * cy as u64 * cz as u64 > 8 {
                // more than the portable 8 blocks a cluster
                d.check(
                    "cuFuncSetAttribute NON_PORTABLE_CLUSTER_SIZE_ALLOWED",
                    (api.func_set_attribute)(
                        function,
                        CUfunction_attribute::CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED,
                        1,
                    ),
                )?;
            }
            let mut value = CUlaunchAttributeValue { pad: [0; 64] };
            value.clusterDim = ClusterDim {
                x: cx,
                y: cy,
                z: cz,
            };
            let mut attribute = CUlaunchAttribute {
                id: CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION,
                pad: [0; 4],
                value,
            };
            let config = CUlaunchConfig {
                gridDimX: gx,
                gridDimY: gy,
                gridDimZ: gz,
                blockDimX: bx,
                blockDimY: by,
                blockDimZ: bz,
                sharedMemBytes: 0,
                hStream: null_mut(),
                attrs: &mut attribute,
                numAttrs: 1,
            };
            ex(&config, function, params.as_mut_ptr(), null_mut())
        };
        Ok(d.check("cuLaunchKernel", launched)?)
    }

    /// Waits for the kernels of the current context's null stream without
    /// blocking in the driver, so that the timeout (from `start`) can be
    /// kept.
    fn wait(&self, start: Instant, timeout: Duration) -> Result<(), Failure> {
        let mut pause = Duration::from_micros(20);
        loop {
            // SAFETY: the null stream of the current context.
            match unsafe { (self.driver.api.stream_query)(null_mut()) } {
                SUCCESS => return Ok(()),
                NOT_READY if start.elapsed() >= timeout => return Err(Failure::Timeout),
                NOT_READY => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(5));
                }
                s => {
                    return Err(Failure::Error(format!(
                        "{FAULT}{}",
                        self.driver.describe(s)
                    )))
                }
            }
        }
    }

    /// JIT-compiles `ptx` once and allocates its `in` and `out` buffers,
    /// for [`Resident::launch`] to run it many times (`conform
    /// exhaustive`). The kernel takes `(.param .u64 in, .param .u64 out)`.
    pub fn resident(
        self: &Arc<Self>,
        ptx: &str,
        entry: &str,
        in_bytes: usize,
        out_bytes: usize,
    ) -> Result<Resident, String> {
        let context = self.current()?;
        let (d, api) = (&self.driver, &self.driver.api);
        let mut r = Resident {
            cuda: self.clone(),
            context,
            held: Held::default(),
            function: null_mut(),
            buffers: [0, 0],
            sizes: [in_bytes.max(1), out_bytes.max(1)],
        };
        let module = self.jit(ptx)?;
        r.held.module = Some(module);
        let name = CString::new(entry).map_err(|_| "the entry name holds a NUL")?;
        // SAFETY: the module is loaded in the current context; the pointers
        // are to locals and fields of the declared types.
        unsafe {
            d.check(
                &format!("cuModuleGetFunction `{entry}`"),
                (api.module_get_function)(&mut r.function, module, name.as_ptr()),
            )?;
            for (b, &size) in r.buffers.iter_mut().zip(&r.sizes) {
                d.check("cuMemAlloc", (api.mem_alloc)(b, size))?;
                r.held.buffers.push(*b);
            }
        }
        Ok(r)
    }

    /// Makes the context current on this thread.
    fn current(&self) -> Result<CUcontext, String> {
        let st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(why) = &st.stopped {
            return Err(why.clone());
        }
        let context = st.context.ok_or("no CUDA context")?;
        // SAFETY: the context is alive while the state holds it.
        self.driver.check("cuCtxSetCurrent", unsafe {
            (self.driver.api.ctx_set_current)(context)
        })?;
        Ok(context)
    }

    /// Frees a group's buffers and module (errors ignored: the context is
    /// sound, and a leak would be all they could mean).
    fn release(&self, held: Held) {
        let api = &self.driver.api;
        // SAFETY: each was made in the current context and is freed once.
        unsafe {
            for b in held.buffers {
                (api.mem_free)(b);
            }
            if let Some(m) = held.module {
                (api.module_unload)(m);
            }
        }
    }
}

/// A kernel JIT-compiled once with its two device buffers ([`Cuda::resident`]).
pub struct Resident {
    cuda: Arc<Cuda>,
    context: CUcontext,
    held: Held,
    function: CUfunction,
    /// The `in` and `out` buffers, and their sizes.
    buffers: [CUdeviceptr; 2],
    sizes: [usize; 2],
}

// SAFETY: the driver's handles may be used from any thread once the context
// is made current there, which `launch` does first.
unsafe impl Send for Resident {}

impl Resident {
    /// Copies `input` into `in`, fills the first `out.len()` bytes of `out`
    /// with [`POISON`] (so that rows the kernel does not write show up),
    /// runs the kernel on `threads` threads (a 1-D grid of 256-thread
    /// blocks), waits at most `timeout`, and copies those bytes back.
    pub fn launch(
        &mut self,
        input: &[u8],
        threads: u64,
        out: &mut [u8],
        timeout: Duration,
    ) -> Result<(), String> {
        let start = Instant::now();
        let (d, api) = (&self.cuda.driver, &self.cuda.driver.api);
        if input.len() > self.sizes[0] || out.len() > self.sizes[1] {
            return Err("more bytes than the buffers hold".into());
        }
        const BLOCK: u64 = 256;
        let grid = u32::try_from(threads.div_ceil(BLOCK)).map_err(|_| "too many threads")?;
        let mut args = self.buffers;
        let mut params: [*mut c_void; 2] = [
            (&mut args[0] as *mut CUdeviceptr).cast(),
            (&mut args[1] as *mut CUdeviceptr).cast(),
        ];
        // SAFETY: the context is this object's; the copies stay within the
        // buffers (checked above); `params` points at the kernel's two
        // `.u64` parameters.
        unsafe {
            d.check("cuCtxSetCurrent", (api.ctx_set_current)(self.context))?;
            d.check(
                "cuMemcpyHtoD",
                (api.memcpy_htod)(self.buffers[0], input.as_ptr().cast(), input.len()),
            )?;
            d.check(
                "cuMemsetD8",
                (api.memset_d8)(self.buffers[1], POISON, out.len()),
            )?;
            d.check(
                "cuLaunchKernel",
                (api.launch_kernel)(
                    self.function,
                    grid.max(1),
                    1,
                    1,
                    BLOCK as u32,
                    1,
                    1,
                    0,
                    null_mut(),
                    params.as_mut_ptr(),
                    null_mut(),
                ),
            )?;
        }
        match self.cuda.wait(start, timeout) {
            Ok(()) => {}
            Err(Failure::Error(e)) => return Err(e),
            Err(Failure::Timeout) => {
                return Err(format!(
                    "the kernel ran past the timeout ({} s)",
                    timeout.as_secs_f64()
                ))
            }
        }
        // SAFETY: `out` is no longer than the buffer.
        d.check("cuMemcpyDtoH", unsafe {
            (api.memcpy_dtoh)(out.as_mut_ptr().cast(), self.buffers[1], out.len())
        })
    }
}

impl Drop for Resident {
    fn drop(&mut self) {
        // SAFETY: the context outlives this object (it belongs to `cuda`).
        unsafe { (self.cuda.driver.api.ctx_set_current)(self.context) };
        self.cuda.release(std::mem::take(&mut self.held));
    }
}

/// A new context on `device`, current on this thread.
fn create_context(driver: &Driver, device: CUdevice) -> Result<CUcontext, String> {
    let mut context: CUcontext = null_mut();
    // SAFETY: a pointer to a local; flags 0 is the default scheduling.
    driver.check(&format!("{}: cuCtxCreate", driver.library), unsafe {
        (driver.api.ctx_create)(&mut context, 0, device)
    })?;
    Ok(context)
}

/// `13000` → `13.0`.
fn dotted(version: i32) -> String {
    format!("{}.{}", version / 1000, version % 1000 / 10)
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

impl Implementation for Cuda {
    fn info(&self) -> Info {
        self.info.clone()
    }

    fn run_undefined(&self, job: &Job) -> Result<Detection, RunError> {
        detection(self.run(job))
    }

    /// Runs one group: JIT, buffers (the output filled with [`POISON`]),
    /// launch, a wait that keeps `job.timeout`, copy back, free. A fault in
    /// the kernel spoils the context: the group ends as an error and a new
    /// context is made for the next. A kernel past its timeout cannot be
    /// stopped: the group and every later one end as errors.
    fn run(&self, job: &Job) -> Result<Vec<u8>, RunError> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        self.run_locked(&mut st, job)
    }
}

impl Cuda {
    /// [`Implementation::run`] with the state locked.
    fn run_locked(&self, st: &mut State, job: &Job) -> Result<Vec<u8>, RunError> {
        let start = Instant::now();
        if let Some(why) = &st.stopped {
            return Err(RunError(why.clone()));
        }
        let Some(context) = st.context else {
            return Err(RunError("no CUDA context".into()));
        };
        // SAFETY: the context is alive (it is only destroyed in `settle`,
        // and then replaced).
        self.driver
            .check("cuCtxSetCurrent", unsafe {
                (self.driver.api.ctx_set_current)(context)
            })
            .map_err(RunError)?;
        let mut held = Held::default();
        match self.launch(job, &mut held, start) {
            Ok(out) => {
                self.release(held);
                Ok(out)
            }
            Err(f) => Err(self.settle(st, context, job, f, held)),
        }
    }

    /// After a failed group in `context` (current on this thread): its
    /// error, with what became of the context. A timeout stops every later
    /// group; after a fault the context is replaced by a new one, or every
    /// later group stops when none can be made. `held` is freed when the
    /// context survived.
    fn settle(
        &self,
        st: &mut State,
        context: CUcontext,
        job: &Job,
        failure: Failure,
        held: Held,
    ) -> RunError {
        let api = &self.driver.api;
        match failure {
            Failure::Timeout => {
                st.hung = true;
                st.stopped = Some(format!(
                    "not run: the kernel of `{}` ran past its timeout and still holds the GPU \
                     (a kernel cannot be stopped from its own process)",
                    job.group.id
                ));
                RunError(format!(
                    "the kernel ran past the timeout ({} s); a kernel cannot be stopped from \
                     its own process, so its CUDA context is given up",
                    job.timeout.as_secs_f64()
                ))
            }
            Failure::Error(e) => {
                // a fault in a kernel leaves the context unusable: every
                // later call fails, so ask it
                // SAFETY: the current context.
                let s = unsafe { (api.ctx_synchronize)() };
                if s == SUCCESS {
                    self.release(held);
                    return RunError(e);
                }
                // SAFETY: the context is not used again.
                unsafe { (api.ctx_destroy)(context) };
                st.context = None;
                match create_context(&self.driver, self.device) {
                    Ok(c) => {
                        st.context = Some(c);
                        RunError(format!(
                            "{e}; the CUDA context was lost, and a new one runs the next groups"
                        ))
                    }
                    Err(why) => {
                        st.stopped = Some(format!(
                            "not run: after a fault in `{}`, no new CUDA context ({why})",
                            job.group.id
                        ));
                        RunError(format!(
                            "{e}; the CUDA context was lost, and no new one could be made \
                             in this process ({why})"
                        ))
                    }
                }
            }
        }
    }

    /// Runs a batch of groups with the results [`Implementation::run`]
    /// would give each, faster: the kernels are JIT-compiled first, up to
    /// `per_module` of them as one module ([`merge::plan`]), the modules on
    /// `threads` threads at once; then the groups run one after another,
    /// each launched and waited for on its own (its timeout counted from
    /// its launch), so that a fault is still its group's alone. A merged
    /// module the JIT refuses is compiled again kernel by kernel, so that
    /// each group gets its own JIT error, as it would alone. After a group
    /// that loses the context, the rest of the batch runs group by group
    /// ([`Implementation::run`]), in the new context or into the reason
    /// none could be made.
    ///
    /// `compiled` is called once the JIT is done, `each` with every group's
    /// index and result, in order, and whether the next group could run
    /// here ([`Cuda::healthy`]).
    pub fn run_batch(
        &self,
        jobs: &[Job],
        per_module: usize,
        threads: usize,
        compiled: &mut dyn FnMut(),
        each: &mut dyn FnMut(usize, Result<Vec<u8>, RunError>, bool),
    ) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let healthy = |st: &State| st.stopped.is_none() && st.context.is_some();
        let context = match (&st.stopped, st.context) {
            (None, Some(c)) => c,
            _ => {
                compiled();
                for (i, job) in jobs.iter().enumerate() {
                    let r = self.run_locked(&mut st, job);
                    each(i, r, healthy(&st));
                }
                return;
            }
        };
        // SAFETY: the context is alive while the state holds it.
        if let Err(e) = self.driver.check("cuCtxSetCurrent", unsafe {
            (self.driver.api.ctx_set_current)(context)
        }) {
            compiled();
            for i in 0..jobs.len() {
                each(i, Err(RunError(e.clone())), healthy(&st));
            }
            return;
        }
        let kernels: Vec<(&str, &str)> = jobs
            .iter()
            .map(|j| (j.ptx, j.group.entry.as_str()))
            .collect();
        let units = merge::plan(&kernels, per_module);
        let (modules, places) = self.jit_units(context, jobs, &units, threads);
        compiled();
        let mut lost = None;
        for (i, job) in jobs.iter().enumerate() {
            let start = Instant::now();
            let result = match &places[i] {
                Err(e) => Err(RunError(e.clone())),
                Ok((module, entry)) => {
                    let mut held = Held::default();
                    match self.launch_in(module.0, entry, job, &mut held, start) {
                        Ok(out) => {
                            self.release(held);
                            Ok(out)
                        }
                        Err(f) => Err(self.settle(&mut st, context, job, f, held)),
                    }
                }
            };
            let gone = st.context != Some(context) || st.stopped.is_some();
            each(i, result, healthy(&st));
            if gone {
                lost = Some(i);
                break;
            }
        }
        match lost {
            None => {
                let api = &self.driver.api;
                // SAFETY: the modules were loaded in this context, which is
                // current and alive, and each is unloaded once.
                for m in modules {
                    unsafe { (api.module_unload)(m.0) };
                }
            }
            // the modules went with the context (or stay with a hung one)
            Some(i) => {
                for (k, job) in jobs.iter().enumerate().skip(i + 1) {
                    let r = self.run_locked(&mut st, job);
                    each(k, r, healthy(&st));
                }
            }
        }
    }

    /// JIT-compiles `units` in `context` on `threads` threads: the modules
    /// loaded, and for each job its module and entry, or the JIT's error.
    #[allow(clippy::type_complexity)] // one use, right above
    fn jit_units(
        &self,
        context: CUcontext,
        jobs: &[Job],
        units: &[merge::Unit],
        threads: usize,
    ) -> (Vec<Module>, Vec<Result<(Module, String), String>>) {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let next = AtomicUsize::new(0);
        let done: Mutex<Vec<(Vec<Module>, Vec<(usize, Result<(Module, String), String>)>)>> =
            Mutex::new(Vec::new());
        let shared = Context(context);
        let work = || {
            let shared = &shared;
            // SAFETY: the context is alive for the whole batch.
            let current = self.driver.check("cuCtxSetCurrent", unsafe {
                (self.driver.api.ctx_set_current)(shared.0)
            });
            loop {
                let u = next.fetch_add(1, Ordering::SeqCst);
                let Some(unit) = units.get(u) else { break };
                let mut loaded = Vec::new();
                let mut places = Vec::new();
                let alone = |m: usize, places: &mut Vec<_>, loaded: &mut Vec<Module>| {
                    let r = current
                        .clone()
                        .and_then(|()| self.jit(jobs[m].ptx))
                        .map(|module| {
                            loaded.push(Module(module));
                            (Module(module), jobs[m].group.entry.clone())
                        });
                    places.push((m, r));
                };
                match &unit.ptx {
                    None => alone(unit.members[0], &mut places, &mut loaded),
                    Some(text) => match current.clone().and_then(|()| self.jit(text)) {
                        Ok(module) => {
                            loaded.push(Module(module));
                            for (&m, e) in unit.members.iter().zip(&unit.entries) {
                                places.push((m, Ok((Module(module), e.clone()))));
                            }
                        }
                        // each kernel alone: its own error, or its module
                        Err(_) => {
                            for &m in &unit.members {
                                alone(m, &mut places, &mut loaded);
                            }
                        }
                    },
                }
                done.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((loaded, places));
            }
        };
        let threads = threads.clamp(1, units.len().max(1));
        if threads == 1 {
            work();
        } else {
            std::thread::scope(|s| {
                for _ in 0..threads {
                    s.spawn(work);
                }
            });
            // back to this thread's context for the launches
            // SAFETY: as above.
            unsafe { (self.driver.api.ctx_set_current)(context) };
        }
        let mut modules = Vec::new();
        let mut places: Vec<Option<Result<(Module, String), String>>> =
            (0..jobs.len()).map(|_| None).collect();
        for (loaded, p) in done.into_inner().unwrap_or_else(|e| e.into_inner()) {
            modules.extend(loaded);
            for (m, r) in p {
                places[m] = Some(r);
            }
        }
        let places = places
            .into_iter()
            .map(|p| p.unwrap_or_else(|| Err("not compiled (a JIT thread ended early)".into())))
            .collect();
        (modules, places)
    }
}

/// A batch's context, made current on each of its JIT threads.
struct Context(CUcontext);

// SAFETY: a context may be made current on any thread; the driver API is
// thread-safe.
unsafe impl Sync for Context {}

/// A loaded module, passed between the JIT threads of a batch.
#[derive(Clone, Copy)]
struct Module(CUmodule);

// SAFETY: a module handle may be used from any thread where its context is
// current; the batch's threads make it so before using one.
unsafe impl Send for Module {}

impl Drop for Cuda {
    fn drop(&mut self) {
        let st = self.state.get_mut().unwrap_or_else(|e| e.into_inner());
        if let (Some(c), false) = (st.context, st.hung) {
            // SAFETY: the context is this object's and not used again.
            unsafe { (self.driver.api.ctx_destroy)(c) };
        }
        // a context with a kernel still running is left to the process's
        // exit, which ends it
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ptx_isa_follows_the_release_history() {
        for (driver, ptx) in [
            (13000, Some("9.0")),
            (13010, Some("9.1")),
            (13020, Some("9.1")), // newer than the table: its newest row
            (12090, Some("8.8")),
            (12080, Some("8.7")),
            (12060, Some("8.5")), // CUDA 12.6 brought no PTX ISA version
            (12000, Some("8.0")),
            (11080, Some("7.8")),
            (9000, Some("6.0")),
            (8000, None),
        ] {
            assert_eq!(ptx_isa_for_driver(driver), ptx, "driver {driver}");
        }
    }

    #[test]
    fn release_table_is_newest_first() {
        assert!(PTX_FOR_DRIVER.windows(2).all(|w| w[0].0 > w[1].0));
    }

    #[test]
    fn an_unloadable_library_is_an_error_naming_it() {
        let e = Cuda::open(Some(Path::new("/nonexistent/libcuda.so")), 0)
            .err()
            .unwrap();
        assert!(e.contains("/nonexistent/libcuda.so"), "{e}");
    }
}
