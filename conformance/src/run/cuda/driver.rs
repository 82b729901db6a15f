//! The CUDA driver API functions `--impl cuda` calls, looked up by name in
//! one library: the file `--libcuda` names, or the system's libcuda found
//! by its usual names. Argument types are cudarc's declarations of the
//! driver API; results come back as plain numbers, so that a code this
//! build does not know stays a number rather than an invalid enum value.

use cudarc::driver::sys::{
    CUcontext, CUdevice, CUdevice_attribute, CUdeviceptr, CUfunction, CUfunction_attribute,
    CUjit_option, CUlaunchConfig, CUmodule, CUstream,
};
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::mem::ManuallyDrop;
use std::path::Path;

/// A `CUresult`, as the number the driver returned.
pub type Status = c_uint;
/// `CUDA_SUCCESS`.
pub const SUCCESS: Status = 0;
/// `CUDA_ERROR_NOT_READY`: work on the stream has not finished.
pub const NOT_READY: Status = 600;

/// Declares [`Api`], one field per driver function, and its look-up.
macro_rules! api {
    ($($field:ident = $symbol:literal ($($arg:ty),*);)*) => {
        /// The driver functions every run needs.
        pub struct Api {
            $(pub $field: unsafe extern "C" fn($($arg),*) -> Status,)*
        }

        impl Api {
            /// Looks every function up in `lib`.
            ///
            /// # Safety
            /// `lib` must be a CUDA driver library: each symbol is taken to
            /// have the driver API's signature.
            unsafe fn find(lib: &libloading::Library) -> Result<Api, String> {
                Ok(Api {
                    $($field: *lib
                        .get::<unsafe extern "C" fn($($arg),*) -> Status>(
                            concat!($symbol, "\0").as_bytes(),
                        )
                        .map_err(|e| format!("no function `{}` in it ({})", $symbol, why(&e)))?,)*
                })
            }
        }
    };
}

api! {
    init = "cuInit"(c_uint);
    driver_get_version = "cuDriverGetVersion"(*mut c_int);
    device_get_count = "cuDeviceGetCount"(*mut c_int);
    device_get = "cuDeviceGet"(*mut CUdevice, c_int);
    device_get_name = "cuDeviceGetName"(*mut c_char, c_int, CUdevice);
    device_get_attribute = "cuDeviceGetAttribute"(*mut c_int, CUdevice_attribute, CUdevice);
    ctx_create = "cuCtxCreate_v2"(*mut CUcontext, c_uint, CUdevice);
    ctx_destroy = "cuCtxDestroy_v2"(CUcontext);
    ctx_set_current = "cuCtxSetCurrent"(CUcontext);
    ctx_synchronize = "cuCtxSynchronize"();
    module_load_data_ex = "cuModuleLoadDataEx"(
        *mut CUmodule, *const c_void, c_uint, *mut CUjit_option, *mut *mut c_void
    );
    module_get_function = "cuModuleGetFunction"(*mut CUfunction, CUmodule, *const c_char);
    module_unload = "cuModuleUnload"(CUmodule);
    func_set_attribute = "cuFuncSetAttribute"(CUfunction, CUfunction_attribute, c_int);
    mem_alloc = "cuMemAlloc_v2"(*mut CUdeviceptr, usize);
    mem_free = "cuMemFree_v2"(CUdeviceptr);
    memset_d8 = "cuMemsetD8_v2"(CUdeviceptr, u8, usize);
    memcpy_htod = "cuMemcpyHtoD_v2"(CUdeviceptr, *const c_void, usize);
    memcpy_dtoh = "cuMemcpyDtoH_v2"(*mut c_void, CUdeviceptr, usize);
    launch_kernel = "cuLaunchKernel"(
        CUfunction, c_uint, c_uint, c_uint, c_uint, c_uint, c_uint, c_uint, CUstream,
        *mut *mut c_void, *mut *mut c_void
    );
    stream_query = "cuStreamQuery"(CUstream);
    get_error_name = "cuGetErrorName"(Status, *mut *const c_char);
    get_error_string = "cuGetErrorString"(Status, *mut *const c_char);
}

/// `cuLaunchKernelEx` (CUDA 12.0 on), needed for cluster launches only.
pub type LaunchKernelEx = unsafe extern "C" fn(
    *const CUlaunchConfig,
    CUfunction,
    *mut *mut c_void,
    *mut *mut c_void,
) -> Status;

/// `cuTensorMapEncodeTiled` (CUDA 12.0 on): map, data type, rank, global
/// address, globalDim, globalStrides, boxDim, elementStrides, interleave,
/// swizzle, L2 promotion, OOB fill (the enumerations as their numbers).
pub type EncodeTiled = unsafe extern "C" fn(
    *mut c_void,
    c_uint,
    c_uint,
    *mut c_void,
    *const u64,
    *const u64,
    *const u32,
    *const u32,
    c_uint,
    c_uint,
    c_uint,
    c_uint,
) -> Status;

/// `cuTensorMapEncodeIm2col` (CUDA 12.0 on): map, data type, rank, global
/// address, globalDim, globalStrides, pixelBoxLowerCorner,
/// pixelBoxUpperCorner, channelsPerPixel, pixelsPerColumn, elementStrides,
/// interleave, swizzle, L2 promotion, OOB fill.
pub type EncodeIm2col = unsafe extern "C" fn(
    *mut c_void,
    c_uint,
    c_uint,
    *mut c_void,
    *const u64,
    *const u64,
    *const c_int,
    *const c_int,
    c_uint,
    c_uint,
    *const u32,
    c_uint,
    c_uint,
    c_uint,
    c_uint,
) -> Status;

/// A driver-encoded tensor map (`CUtensorMap`: 128 bytes, 64-byte
/// aligned).
#[repr(C, align(64))]
pub struct TensorMapBytes(pub [u8; 128]);

/// The loader's own words (`dlerror`) where it gave some.
fn why(e: &libloading::Error) -> String {
    use std::error::Error;
    e.source().map_or_else(|| e.to_string(), |s| s.to_string())
}

/// A loaded driver library and its functions.
pub struct Driver {
    pub api: Api,
    pub launch_kernel_ex: Option<LaunchKernelEx>,
    /// The tensor-map encoders, needed by the groups that take tensor maps.
    pub encode_tiled: Option<EncodeTiled>,
    pub encode_im2col: Option<EncodeIm2col>,
    /// The file that was loaded, as given, or the name it was found by.
    pub library: String,
    /// Never unloaded: the driver's own threads outlive any unload.
    _lib: ManuallyDrop<libloading::Library>,
}

impl Driver {
    /// Loads the library at `path`, or else the first of cudarc's names
    /// for the CUDA driver library (`libcuda.so`, `libcuda.so.1`...) that
    /// the system's loader finds.
    pub fn load(path: Option<&Path>) -> Result<Driver, String> {
        let (lib, library) = match path {
            Some(p) => {
                // dlopen searches the system's folders for a bare name; the
                // file given is meant, so make the path absolute
                let abs = std::fs::canonicalize(p).map_err(|e| format!("{}: {e}", p.display()))?;
                // SAFETY: loading a library runs its initialisers; the user
                // named it as a CUDA driver library.
                let lib = unsafe { libloading::Library::new(&abs) }
                    .map_err(|e| format!("{}: cannot be loaded ({})", p.display(), why(&e)))?;
                (lib, p.display().to_string())
            }
            None => {
                let mut names = cudarc::get_lib_name_candidates("cuda");
                let mut seen = std::collections::HashSet::new();
                names.retain(|n| seen.insert(n.clone()));
                let mut last = String::new();
                let mut found = None;
                for n in &names {
                    // SAFETY: as above, for the system's CUDA driver library.
                    match unsafe { libloading::Library::new(n) } {
                        Ok(lib) => {
                            found = Some((lib, n.clone()));
                            break;
                        }
                        Err(e) => last = why(&e),
                    }
                }
                found.ok_or_else(|| {
                    format!(
                        "no CUDA driver library found (tried {}; the last said: {last}); \
                         is there a GPU and its driver? --libcuda PATH names one",
                        names.join(", ")
                    )
                })?
            }
        };
        // SAFETY: the library is taken to be a CUDA driver library; each
        // symbol is read with the driver API's signature.
        let api = unsafe { Api::find(&lib) }.map_err(|e| format!("{library}: {e}"))?;
        // SAFETY: as above.
        let launch_kernel_ex = unsafe { lib.get::<LaunchKernelEx>(b"cuLaunchKernelEx\0") }
            .ok()
            .map(|f| *f);
        // SAFETY: as above.
        let encode_tiled = unsafe { lib.get::<EncodeTiled>(b"cuTensorMapEncodeTiled\0") }
            .ok()
            .map(|f| *f);
        // SAFETY: as above.
        let encode_im2col = unsafe { lib.get::<EncodeIm2col>(b"cuTensorMapEncodeIm2col\0") }
            .ok()
            .map(|f| *f);
        Ok(Driver {
            api,
            launch_kernel_ex,
            encode_tiled,
            encode_im2col,
            library,
            _lib: ManuallyDrop::new(lib),
        })
    }

    /// Encodes a tensor map through the driver: its 128 bytes.
    pub fn encode_map(
        &self,
        m: &ptx_semantics::tensor::TensorMap,
    ) -> Result<TensorMapBytes, String> {
        use ptx_semantics::tensor::Mode;
        let mut out = TensorMapBytes([0; 128]);
        let swizzle = m
            .driver_swizzle()
            .ok_or("the map's swizzle and atomicity have no driver value")?;
        let status = match m.mode {
            Mode::Tiled => {
                let f = self
                    .encode_tiled
                    .ok_or("the driver has no cuTensorMapEncodeTiled (CUDA 12.0)")?;
                // SAFETY: the arrays hold at least `rank` entries; the map
                // is 128 bytes aligned to 64.
                unsafe {
                    f(
                        out.0.as_mut_ptr().cast(),
                        m.data_type.driver_code(),
                        m.rank,
                        m.global_address as *mut c_void,
                        m.global_dims.as_ptr(),
                        m.global_strides.as_ptr(),
                        m.box_dims.as_ptr(),
                        m.element_strides.as_ptr(),
                        m.interleave as c_uint,
                        swizzle,
                        m.l2_promotion as c_uint,
                        m.oob_fill as c_uint,
                    )
                }
            }
            Mode::Im2col(ic) => {
                let f = self
                    .encode_im2col
                    .ok_or("the driver has no cuTensorMapEncodeIm2col (CUDA 12.0)")?;
                // SAFETY: as above; the corners hold rank - 2 entries.
                unsafe {
                    f(
                        out.0.as_mut_ptr().cast(),
                        m.data_type.driver_code(),
                        m.rank,
                        m.global_address as *mut c_void,
                        m.global_dims.as_ptr(),
                        m.global_strides.as_ptr(),
                        ic.lower_corner.as_ptr(),
                        ic.upper_corner.as_ptr(),
                        ic.channels_per_pixel,
                        ic.pixels_per_column,
                        m.element_strides.as_ptr(),
                        m.interleave as c_uint,
                        swizzle,
                        m.l2_promotion as c_uint,
                        m.oob_fill as c_uint,
                    )
                }
            }
        };
        self.check("cuTensorMapEncode", status)?;
        Ok(out)
    }

    /// `CUDA_ERROR_NAME (the driver's sentence)`, or the number when the
    /// driver does not know it.
    pub fn describe(&self, s: Status) -> String {
        let text = |f: unsafe extern "C" fn(Status, *mut *const c_char) -> Status| {
            let mut p: *const c_char = std::ptr::null();
            // SAFETY: the driver writes a pointer to a static string, or
            // leaves it null for an unknown code.
            let r = unsafe { f(s, &mut p) };
            // SAFETY: non-null means a NUL-terminated static string.
            (r == SUCCESS && !p.is_null())
                .then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
        };
        match (
            text(self.api.get_error_name),
            text(self.api.get_error_string),
        ) {
            (Some(n), Some(t)) => format!("{n} ({t})"),
            (Some(n), None) => n,
            _ => format!("CUresult {s}"),
        }
    }

    /// `Ok` on success; otherwise `what: CUDA_ERROR_... (...)`.
    pub fn check(&self, what: &str, s: Status) -> Result<(), String> {
        if s == SUCCESS {
            Ok(())
        } else {
            Err(format!("{what}: {}", self.describe(s)))
        }
    }
}
