//! The exported entry points, under the names a CUDA 12 or 13 `cuda.h` maps
//! its functions to (`cuMemAlloc` is `cuMemAlloc_v2`). Each one reads its
//! arguments, calls the driver's state, and writes its results; none lets a
//! panic cross into the host (it becomes `CUDA_ERROR_UNKNOWN`). Pointers
//! the host passes are trusted to be what the driver API says they are;
//! null ones are refused with `CUDA_ERROR_INVALID_VALUE`.

#![allow(clippy::missing_safety_doc)] // the driver API's documentation is theirs

use crate::config::{self, Config};
use crate::device;
use crate::fatbin;
use crate::launch::Request;
use crate::module::{self, Function};
use crate::state::{self, Event, Stream};
use crate::types::*;
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::time::Instant;

/// Runs an entry point's body; a panic becomes `CUDA_ERROR_UNKNOWN`.
pub(crate) fn guard(f: impl FnOnce() -> Result<(), CUresult>) -> CUresult {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(Ok(())) => CUDA_SUCCESS,
        Ok(Err(e)) => e,
        Err(_) => CUDA_ERROR_UNKNOWN,
    }
}

/// Writes a result through a host pointer; null is `CUDA_ERROR_INVALID_VALUE`.
pub(crate) unsafe fn put<T>(p: *mut T, v: T) -> Result<(), CUresult> {
    if p.is_null() {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    p.write_unaligned(v);
    Ok(())
}

pub(crate) fn handle(h: Handle) -> u64 {
    h as usize as u64
}

pub(crate) fn pointer(h: u64) -> Handle {
    h as usize as Handle
}

/// Whether an option list (`numOptions` options and values, as the JIT,
/// library and linker calls take them) is missing its arrays.
pub(crate) fn options_missing<T, V>(n: c_uint, options: *const T, values: *const V) -> bool {
    n > 0 && (options.is_null() || values.is_null())
}

/// A NUL-terminated host string; null is `CUDA_ERROR_INVALID_VALUE`.
pub(crate) unsafe fn text<'a>(p: *const c_char) -> Result<&'a str, CUresult> {
    if p.is_null() {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    CStr::from_ptr(p)
        .to_str()
        .map_err(|_| CUDA_ERROR_INVALID_VALUE)
}

/// The one device's ordinal; any other is `CUDA_ERROR_INVALID_DEVICE`.
fn device(dev: CUdevice) -> Result<(), CUresult> {
    if dev == 0 {
        Ok(())
    } else {
        Err(CUDA_ERROR_INVALID_DEVICE)
    }
}

// ---- initialisation, version, device ----

/// `cuInit(flags)`: "Flags parameter must be 0". Reads the settings
/// (`crate::config`) from the environment the first time.
#[no_mangle]
pub unsafe extern "C" fn cuInit(flags: c_uint) -> CUresult {
    guard(|| {
        if flags != 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        state::init(|| Config::from_env(|k| std::env::var(k).ok()));
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuDriverGetVersion(version: *mut c_int) -> CUresult {
    guard(|| {
        let v = state::with(|d| Ok(d.config.driver_version))
            .unwrap_or_else(|_| config::driver_version_from_env());
        put(version, v)
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetCount(count: *mut c_int) -> CUresult {
    guard(|| {
        state::with(|_| Ok(()))?;
        put(count, 1)
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGet(dev: *mut CUdevice, ordinal: c_int) -> CUresult {
    guard(|| {
        state::with(|_| Ok(()))?;
        device(ordinal)?;
        put(dev, 0)
    })
}

/// The name, cut to `len - 1` bytes and NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetName(name: *mut c_char, len: c_int, dev: CUdevice) -> CUresult {
    guard(|| {
        state::with(|_| Ok(()))?;
        device(dev)?;
        if name.is_null() || len <= 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let bytes = device::NAME.as_bytes();
        let n = bytes.len().min(len as usize - 1);
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), name.cast::<u8>(), n);
        *name.add(n) = 0;
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetAttribute(
    value: *mut c_int,
    attribute: c_int,
    dev: CUdevice,
) -> CUresult {
    guard(|| {
        let unified = state::with(|d| Ok(d.memory.unified))?;
        device(dev)?;
        put(value, device::attribute(attribute, unified)?)
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceComputeCapability(
    major: *mut c_int,
    minor: *mut c_int,
    dev: CUdevice,
) -> CUresult {
    guard(|| {
        state::with(|_| Ok(()))?;
        device(dev)?;
        put(major, 9)?;
        put(minor, 0)
    })
}

/// `CUdevprop`, of the deprecated `cuDeviceGetProperties`.
#[repr(C)]
pub struct CUdevprop {
    pub max_threads_per_block: c_int,
    pub max_threads_dim: [c_int; 3],
    pub max_grid_size: [c_int; 3],
    pub shared_mem_per_block: c_int,
    pub total_constant_memory: c_int,
    pub simd_width: c_int,
    pub mem_pitch: c_int,
    pub regs_per_block: c_int,
    pub clock_rate: c_int,
    pub texture_align: c_int,
}

/// `cuDeviceGetProperties` (deprecated): the same numbers as
/// `cuDeviceGetAttribute`.
#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetProperties(prop: *mut CUdevprop, dev: CUdevice) -> CUresult {
    guard(|| {
        state::with(|_| Ok(()))?;
        device(dev)?;
        use attr::*;
        let a = |k| device::attribute(k, false);
        put(
            prop,
            CUdevprop {
                max_threads_per_block: a(MAX_THREADS_PER_BLOCK)?,
                max_threads_dim: [
                    a(MAX_BLOCK_DIM_X)?,
                    a(MAX_BLOCK_DIM_Y)?,
                    a(MAX_BLOCK_DIM_Z)?,
                ],
                max_grid_size: [a(MAX_GRID_DIM_X)?, a(MAX_GRID_DIM_Y)?, a(MAX_GRID_DIM_Z)?],
                shared_mem_per_block: a(MAX_SHARED_MEMORY_PER_BLOCK)?,
                total_constant_memory: a(TOTAL_CONSTANT_MEMORY)?,
                simd_width: a(WARP_SIZE)?,
                mem_pitch: a(MAX_PITCH)?,
                regs_per_block: a(MAX_REGISTERS_PER_BLOCK)?,
                clock_rate: a(CLOCK_RATE)?,
                texture_align: a(TEXTURE_ALIGNMENT)?,
            },
        )
    })
}

/// `cuDeviceCanAccessPeer`: one device, so no peer: 0 for a valid pair
/// (a device is not its own peer).
#[no_mangle]
pub unsafe extern "C" fn cuDeviceCanAccessPeer(
    can: *mut c_int,
    dev: CUdevice,
    peer: CUdevice,
) -> CUresult {
    guard(|| {
        state::with(|_| Ok(()))?;
        device(dev)?;
        device(peer)?;
        put(can, 0)
    })
}

/// `cuGetExportTable`: the driver's private tables, which the CUDA runtime
/// asks for by UUID and NVIDIA does not document. None is offered
/// (`CUDA_ERROR_NOT_SUPPORTED`); the UUID asked for goes to the report, so
/// that a program built on the runtime says why it stops.
#[no_mangle]
pub unsafe extern "C" fn cuGetExportTable(
    table: *mut *const c_void,
    id: *const [u8; 16],
) -> CUresult {
    guard(|| {
        if table.is_null() || id.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        table.write_unaligned(std::ptr::null());
        let id: String = (*id).iter().map(|b| format!("{b:02x}")).collect();
        let why = format!(
            "ptx-libcuda: cuGetExportTable {id}: the driver's private tables are not documented and not offered; the CUDA runtime cannot run on this library"
        );
        let written = state::with(|d| {
            d.write_report(&why);
            Ok(())
        });
        if written.is_err() {
            eprintln!("{why}");
        }
        Err(CUDA_ERROR_NOT_SUPPORTED)
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceTotalMem_v2(bytes: *mut usize, dev: CUdevice) -> CUresult {
    guard(|| {
        let total = state::with(|d| Ok(d.memory.total))?;
        device(dev)?;
        put(bytes, total as usize)
    })
}

/// A fixed UUID: the bytes of "ptx-conform-sim\0".
#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetUuid_v2(uuid: *mut CUuuid, dev: CUdevice) -> CUresult {
    guard(|| {
        state::with(|_| Ok(()))?;
        device(dev)?;
        put(
            uuid,
            CUuuid {
                bytes: *b"ptx-conform-sim\0",
            },
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetUuid(uuid: *mut CUuuid, dev: CUdevice) -> CUresult {
    cuDeviceGetUuid_v2(uuid, dev)
}

// ---- contexts ----

#[no_mangle]
pub unsafe extern "C" fn cuDevicePrimaryCtxRetain(ctx: *mut Handle, dev: CUdevice) -> CUresult {
    guard(|| {
        if ctx.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let h = state::with(|d| {
            device(dev)?;
            Ok(d.retain_primary())
        })?;
        put(ctx, pointer(h))
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuDevicePrimaryCtxRelease_v2(dev: CUdevice) -> CUresult {
    guard(|| {
        state::with(|d| {
            device(dev)?;
            d.release_primary()
        })
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuDevicePrimaryCtxRelease(dev: CUdevice) -> CUresult {
    cuDevicePrimaryCtxRelease_v2(dev)
}

/// Flags and whether the primary context is active.
#[no_mangle]
pub unsafe extern "C" fn cuDevicePrimaryCtxGetState(
    dev: CUdevice,
    flags: *mut c_uint,
    active: *mut c_int,
) -> CUresult {
    guard(|| {
        let on = state::with(|d| {
            device(dev)?;
            Ok(d.primary.is_some())
        })?;
        put(flags, 0)?;
        put(active, c_int::from(on))
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuDevicePrimaryCtxSetFlags_v2(dev: CUdevice, _flags: c_uint) -> CUresult {
    guard(|| state::with(|_| device(dev)))
}

/// Destroys the primary context and everything made in it.
#[no_mangle]
pub unsafe extern "C" fn cuDevicePrimaryCtxReset_v2(dev: CUdevice) -> CUresult {
    guard(|| {
        state::with(|d| {
            device(dev)?;
            if let Some((c, _)) = d.primary {
                d.destroy_context(c)?;
            }
            Ok(())
        })
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxCreate_v2(
    ctx: *mut Handle,
    flags: c_uint,
    dev: CUdevice,
) -> CUresult {
    guard(|| {
        if ctx.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let h = state::with(|d| {
            device(dev)?;
            Ok(d.create_context(flags))
        })?;
        put(ctx, pointer(h))
    })
}

/// CUDA 13's `cuCtxCreate`: the creation parameters (execution affinity,
/// CIG) are not read; the context is as `cuCtxCreate_v2` makes it.
#[no_mangle]
pub unsafe extern "C" fn cuCtxCreate_v4(
    ctx: *mut Handle,
    _params: *mut c_void,
    flags: c_uint,
    dev: CUdevice,
) -> CUresult {
    cuCtxCreate_v2(ctx, flags, dev)
}

/// Destroys a context made by `cuCtxCreate` (the primary context goes with
/// its last release instead: `CUDA_ERROR_INVALID_CONTEXT`).
#[no_mangle]
pub unsafe extern "C" fn cuCtxDestroy_v2(ctx: Handle) -> CUresult {
    guard(|| {
        state::with(|d| {
            let c = handle(ctx);
            match d.contexts.get(&c) {
                Some(x) if !x.primary => d.destroy_context(c),
                _ => Err(CUDA_ERROR_INVALID_CONTEXT),
            }
        })
    })
}

/// Replaces the current context (null: unbinds it).
#[no_mangle]
pub unsafe extern "C" fn cuCtxSetCurrent(ctx: Handle) -> CUresult {
    guard(|| {
        let c = handle(ctx);
        state::with(|d| {
            if c != 0 && !d.contexts.contains_key(&c) {
                return Err(CUDA_ERROR_INVALID_CONTEXT);
            }
            Ok(())
        })?;
        state::stack(|s| {
            s.pop();
            if c != 0 {
                s.push(c);
            }
        });
        Ok(())
    })
}

/// The current context, or null when there is none.
#[no_mangle]
pub unsafe extern "C" fn cuCtxGetCurrent(ctx: *mut Handle) -> CUresult {
    guard(|| {
        state::with(|_| Ok(()))?;
        put(ctx, pointer(state::current_handle().unwrap_or(0)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxPushCurrent_v2(ctx: Handle) -> CUresult {
    guard(|| {
        let c = handle(ctx);
        state::with(|d| {
            if !d.contexts.contains_key(&c) {
                return Err(CUDA_ERROR_INVALID_CONTEXT);
            }
            Ok(())
        })?;
        state::stack(|s| s.push(c));
        Ok(())
    })
}

/// Pops the current context; `ctx` (may be null) gets it.
#[no_mangle]
pub unsafe extern "C" fn cuCtxPopCurrent_v2(ctx: *mut Handle) -> CUresult {
    guard(|| {
        state::with(|_| Ok(()))?;
        let c = state::stack(|s| s.pop()).ok_or(CUDA_ERROR_INVALID_CONTEXT)?;
        if !ctx.is_null() {
            put(ctx, pointer(c))?;
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxGetDevice(dev: *mut CUdevice) -> CUresult {
    guard(|| {
        state::with(|d| d.current().map(|_| ()))?;
        put(dev, 0)
    })
}

/// Work runs when it is issued: this only reports an earlier launch's
/// fault.
#[no_mangle]
pub unsafe extern "C" fn cuCtxSynchronize() -> CUresult {
    guard(|| state::with(|d| d.usable().map(|_| ())))
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxGetApiVersion(ctx: Handle, version: *mut c_uint) -> CUresult {
    guard(|| {
        state::with(|d| {
            let c = if ctx.is_null() {
                d.current()?
            } else {
                handle(ctx)
            };
            if d.contexts.contains_key(&c) {
                Ok(())
            } else {
                Err(CUDA_ERROR_INVALID_CONTEXT)
            }
        })?;
        put(version, 12080)
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxGetFlags(flags: *mut c_uint) -> CUresult {
    guard(|| {
        let f = state::with(|d| {
            let c = d.current()?;
            Ok(d.contexts.get(&c).map_or(0, |c| c.flags))
        })?;
        put(flags, f)
    })
}

/// `cuCtxGetLimit`: "Returns in `*pvalue` the current size of `limit`"
/// (`device::limit_default` until `cuCtxSetLimit` changes it).
#[no_mangle]
pub unsafe extern "C" fn cuCtxGetLimit(value: *mut usize, limit: c_uint) -> CUresult {
    guard(|| {
        let v = state::with(|d| {
            let c = d.current()?;
            let set = d
                .contexts
                .get(&c)
                .and_then(|x| x.limits.get(&limit).copied());
            match set {
                Some(v) => Ok(v),
                None => device::limit_default(limit),
            }
        })?;
        put(value, v as usize)
    })
}

/// `cuCtxSetLimit`: the value kept, as `device::limit_value` adjusts it
/// ("The application can use cuCtxGetLimit() to find out exactly what the
/// limit has been set to").
#[no_mangle]
pub unsafe extern "C" fn cuCtxSetLimit(limit: c_uint, value: usize) -> CUresult {
    guard(|| {
        state::with(|d| {
            let c = d.current()?;
            let v = device::limit_value(limit, value as u64)?;
            if let Some(x) = d.contexts.get_mut(&c) {
                x.limits.insert(limit, v);
            }
            Ok(())
        })
    })
}

/// `cuCtxGetStreamPriorityRange`: "This function will return '0' in both
/// `*leastPriority` and `*greatestPriority` if the current context's device
/// does not support stream priorities" (`STREAM_PRIORITIES_SUPPORTED` is
/// 0 here). "A NULL may be passed in ... if the value is not desired."
#[no_mangle]
pub unsafe extern "C" fn cuCtxGetStreamPriorityRange(
    least: *mut c_int,
    greatest: *mut c_int,
) -> CUresult {
    guard(|| {
        state::with(|d| d.current().map(|_| ()))?;
        if !least.is_null() {
            put(least, 0)?;
        }
        if !greatest.is_null() {
            put(greatest, 0)?;
        }
        Ok(())
    })
}

/// `cuCtxGetSharedMemConfig`: "When cuCtxGetSharedMemConfig is called on
/// devices without configurable shared memory, it will return the fixed
/// bank size of the hardware": four bytes (`CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE`).
#[no_mangle]
pub unsafe extern "C" fn cuCtxGetSharedMemConfig(config: *mut c_uint) -> CUresult {
    guard(|| {
        state::with(|d| d.current().map(|_| ()))?;
        put(config, shared_config::FOUR_BYTE_BANK_SIZE)
    })
}

/// `cuCtxGetCacheConfig`: the preference set with `cuCtxSetCacheConfig`
/// (`CU_FUNC_CACHE_PREFER_NONE` at first); the simulator has no L1 to
/// divide, so it changes nothing.
#[no_mangle]
pub unsafe extern "C" fn cuCtxGetCacheConfig(config: *mut c_uint) -> CUresult {
    guard(|| {
        let c = state::with(|d| {
            let c = d.current()?;
            Ok(d.contexts.get(&c).map_or(0, |x| x.cache_config))
        })?;
        put(config, c)
    })
}

/// `cuCtxSetCacheConfig`: one of the four `CUfunc_cache` values, kept;
/// another is `CUDA_ERROR_INVALID_VALUE`.
#[no_mangle]
pub unsafe extern "C" fn cuCtxSetCacheConfig(config: c_uint) -> CUresult {
    guard(|| {
        if config > 3 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        state::with(|d| {
            let c = d.current()?;
            if let Some(x) = d.contexts.get_mut(&c) {
                x.cache_config = config;
            }
            Ok(())
        })
    })
}

/// `cuMemAllocPitch_v2`: `Height` rows of `WidthInBytes`, each row `pitch`
/// bytes apart, the pitch a multiple of 512 (the device's texture
/// alignment: "the pitch returned ... is guaranteed to match or exceed the
/// alignment requirement for texture binding"). `ElementSizeBytes` "may be
/// 4, 8 or 16"; anything else, or a zero width or height, is
/// `CUDA_ERROR_INVALID_VALUE`.
#[no_mangle]
pub unsafe extern "C" fn cuMemAllocPitch_v2(
    dptr: *mut CUdeviceptr,
    pitch: *mut usize,
    width: usize,
    height: usize,
    element_size: c_uint,
) -> CUresult {
    guard(|| {
        if dptr.is_null() || pitch.is_null() || width == 0 || height == 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        if !matches!(element_size, 4 | 8 | 16) {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let row = width
            .div_ceil(512)
            .checked_mul(512)
            .ok_or(CUDA_ERROR_INVALID_VALUE)?;
        let bytes = row.checked_mul(height).ok_or(CUDA_ERROR_OUT_OF_MEMORY)?;
        let a = state::with(|d| {
            let c = d.usable()?;
            let fill = d.config.fill.unwrap_or(config::DEFAULT_FILL);
            d.memory.alloc(c, bytes as u64, fill)
        })?;
        put(pitch, row)?;
        put(dptr, a)
    })
}

/// `cuCtxSetSharedMemConfig`: "This function will do nothing on devices
/// with fixed shared memory bank size"; a value that is no
/// `CUsharedconfig` is `CUDA_ERROR_INVALID_VALUE`.
#[no_mangle]
pub unsafe extern "C" fn cuCtxSetSharedMemConfig(config: c_uint) -> CUresult {
    guard(|| {
        state::with(|d| d.current().map(|_| ()))?;
        if config > shared_config::EIGHT_BYTE_BANK_SIZE {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        Ok(())
    })
}

/// `cuModuleGetLoadingMode`: modules load eagerly (every kernel is read
/// when the module loads; `CU_MODULE_EAGER_LOADING`).
#[no_mangle]
pub unsafe extern "C" fn cuModuleGetLoadingMode(mode: *mut c_uint) -> CUresult {
    guard(|| {
        state::with(|_| Ok(()))?;
        put(mode, MODULE_EAGER_LOADING)
    })
}

/// `cuDeviceGetPCIBusId`: `device::PCI_BUS_ID`, cut to `len - 1` bytes and
/// NUL-terminated ("pciBusId should be large enough to store 13 characters
/// including the NULL-terminator").
#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetPCIBusId(
    id: *mut c_char,
    len: c_int,
    dev: CUdevice,
) -> CUresult {
    guard(|| {
        state::with(|_| Ok(()))?;
        device(dev)?;
        if id.is_null() || len <= 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let bytes = device::PCI_BUS_ID.as_bytes();
        let n = bytes.len().min(len as usize - 1);
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), id.cast::<u8>(), n);
        *id.add(n) = 0;
        Ok(())
    })
}

// ---- modules and functions ----

/// The PTX text in `image`: NUL-terminated PTX text itself, a fat binary
/// (magic 0xba55ed50) or the wrapper `__cudaRegisterFatBinary` passes
/// (magic 0x466243b1, version, pointer to the fat binary), whose PTX entry
/// for the device it takes (`fatbin::device_ptx`). A fat binary's size is
/// read from its header, as the driver does: the host's bytes are trusted
/// to be that long. A cubin, or a fat binary with no PTX for the device, is
/// `CUDA_ERROR_NO_BINARY_FOR_GPU` (the library runs PTX only); sizes and
/// offsets that do not hold together are `CUDA_ERROR_INVALID_IMAGE`.
pub(crate) unsafe fn image_text(
    image: *const c_void,
    log: &mut dyn FnMut(&str),
) -> Result<String, CUresult> {
    // the first four bytes, read no further than a NUL (text may be
    // shorter than four bytes)
    let mut head = [0u8; 4];
    for (k, b) in head.iter_mut().enumerate() {
        *b = *image.cast::<u8>().add(k);
        if *b == 0 {
            break;
        }
    }
    let magic = u32::from_le_bytes(head);
    if &head == b"\x7fELF" {
        log("ptx-libcuda: the image is a cubin (ELF); this library runs PTX only");
        return Err(CUDA_ERROR_NO_BINARY_FOR_GPU);
    }
    let fat = match magic {
        fatbin::WRAPPER_MAGIC => {
            let data = image
                .cast::<u8>()
                .add(8)
                .cast::<*const u8>()
                .read_unaligned();
            if data.is_null() {
                log("ptx-libcuda: invalid fat binary: the wrapper points nowhere");
                return Err(CUDA_ERROR_INVALID_IMAGE);
            }
            data
        }
        fatbin::FATBIN_MAGIC => image.cast::<u8>(),
        _ => {
            return CStr::from_ptr(image.cast::<c_char>())
                .to_str()
                .map(str::to_string)
                .map_err(|_| CUDA_ERROR_INVALID_IMAGE)
        }
    };
    let header = std::slice::from_raw_parts(fat, fatbin::HEADER_SIZE);
    let Some(total) = fatbin::total_size(header).filter(|&t| t <= 1 << 30) else {
        log("ptx-libcuda: invalid fat binary: no fat binary magic, or a size past 1 GiB");
        return Err(CUDA_ERROR_INVALID_IMAGE);
    };
    let bytes = std::slice::from_raw_parts(fat, total);
    fatbin::device_ptx(bytes).map_err(|e| match e {
        fatbin::FatbinError::Invalid(why) => {
            log(&why);
            CUDA_ERROR_INVALID_IMAGE
        }
        fatbin::FatbinError::NoPtx(why) => {
            log(&why);
            CUDA_ERROR_NO_BINARY_FOR_GPU
        }
    })
}

/// Loads `image` (PTX text, a fat binary or its wrapper: [`image_text`])
/// into a module of the current context; its handle.
unsafe fn load_image(image: *const c_void, log: &mut dyn FnMut(&str)) -> Result<u64, CUresult> {
    if image.is_null() {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    state::with(|d| d.usable().map(|_| ()))?;
    let src = image_text(image, log)?;
    state::with(|d| {
        let c = d.usable()?;
        match module::load(c, &src, config::ptx_isa(d.config.driver_version)) {
            Ok(m) => {
                // the variables' addresses are device addresses too: held
                // away from the host where they are free (`memory`)
                for v in &m.variables {
                    d.memory.hold_range(v.addr, v.addr + v.bytes.len() as u64);
                }
                for c in &m.constants {
                    let a = module::Module::constant_address(c.1);
                    d.memory.hold_range(a, a + c.2 as u64);
                }
                let h = d.handle();
                d.modules.insert(h, m);
                Ok(h)
            }
            Err(f) => {
                log(&f.log);
                Err(f.code)
            }
        }
    })
}

/// Loads `image` into a module and writes its handle to `module`.
unsafe fn load_module(
    module: *mut Handle,
    image: *const c_void,
    log: &mut dyn FnMut(&str),
) -> Result<(), CUresult> {
    if module.is_null() {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    let h = load_image(image, log)?;
    put(module, pointer(h))
}

/// [`load_module`] with no log buffer: why a text does not load goes to the
/// report (standard error, or `PTX_LIBCUDA_REPORT`).
unsafe fn load_reported(module: *mut Handle, image: *const c_void) -> Result<(), CUresult> {
    let mut why = String::new();
    let r = load_module(module, image, &mut |t| why.push_str(t));
    if !why.is_empty() {
        let _ = state::with(|d| {
            d.write_report(&why);
            Ok(())
        });
    }
    r
}

/// `cuModuleLoadData`: the reasons a text does not load go to the report.
#[no_mangle]
pub unsafe extern "C" fn cuModuleLoadData(module: *mut Handle, image: *const c_void) -> CUresult {
    guard(|| load_reported(module, image))
}

/// `cuModuleLoadDataEx`: of the JIT options only the error and information
/// log buffers are used (the error log gets the checker's messages); the
/// others are read and ignored.
#[no_mangle]
pub unsafe extern "C" fn cuModuleLoadDataEx(
    module: *mut Handle,
    image: *const c_void,
    num_options: c_uint,
    options: *mut c_uint,
    values: *mut *mut c_void,
) -> CUresult {
    guard(|| {
        if options_missing(num_options, options, values) {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let n = num_options as usize;
        let opts: Vec<c_uint> = (0..n).map(|k| *options.add(k)).collect();
        if opts.iter().any(|&o| o >= jit::NUM_OPTIONS) {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let find = |o: c_uint| opts.iter().position(|&x| x == o);
        let buffer = |buf: c_uint, size: c_uint| match (find(buf), find(size)) {
            (Some(b), Some(s)) => {
                let p = *values.add(b);
                let len = *values.add(s) as usize;
                (!p.is_null() && len > 0).then_some((p.cast::<u8>(), len, s))
            }
            _ => None,
        };
        let error_log = buffer(jit::ERROR_LOG_BUFFER, jit::ERROR_LOG_BUFFER_SIZE_BYTES);
        let info_log = buffer(jit::INFO_LOG_BUFFER, jit::INFO_LOG_BUFFER_SIZE_BYTES);
        // both logs empty unless the error log gets a message
        for (p, _, s) in [error_log, info_log].into_iter().flatten() {
            *p = 0;
            *values.add(s) = std::ptr::null_mut();
        }
        let mut write_log = |text: &str| {
            if let Some((p, len, s)) = error_log {
                let n = text.len().min(len - 1);
                std::ptr::copy_nonoverlapping(text.as_ptr(), p, n);
                *p.add(n) = 0;
                *values.add(s) = (n + 1) as *mut c_void;
            }
        };
        load_module(module, image, &mut write_log)
    })
}

/// `cuModuleLoad`: PTX text or a fat binary from a file.
#[no_mangle]
pub unsafe extern "C" fn cuModuleLoad(module: *mut Handle, fname: *const c_char) -> CUresult {
    guard(|| {
        let path = text(fname)?;
        state::with(|_| Ok(()))?;
        let mut bytes = std::fs::read(path).map_err(|_| CUDA_ERROR_FILE_NOT_FOUND)?;
        // a fat binary is read as long as its header says: the file must
        // be that long; a wrapper holds a pointer, which no file can
        let magic = bytes
            .get(..4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let short_fatbin = magic == Some(fatbin::FATBIN_MAGIC)
            && fatbin::total_size(&bytes).is_none_or(|t| t > bytes.len());
        if short_fatbin || magic == Some(fatbin::WRAPPER_MAGIC) {
            state::with(|d| {
                d.write_report(&format!(
                    "ptx-libcuda: invalid fat binary in {path}: shorter than its header says, or a wrapper"
                ));
                Ok(())
            })?;
            return Err(CUDA_ERROR_INVALID_IMAGE);
        }
        bytes.push(0);
        load_reported(module, bytes.as_ptr().cast())
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuModuleUnload(module: Handle) -> CUresult {
    guard(|| state::with(|d| d.unload(handle(module))))
}

/// The function of kernel `name` of module `m_h`, prepared for the
/// simulator the first time it is asked for (`cuModuleGetFunction`,
/// `cuLibraryGetKernel`).
pub(crate) fn function_of(d: &mut state::Driver, m_h: u64, name: &str) -> Result<u64, CUresult> {
    let m = d.modules.get(&m_h).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
    d.check_context(m.context)?;
    if let Some(&f) = m.functions.get(name) {
        return Ok(f);
    }
    if !m.entries.iter().any(|e| e == name) {
        return Err(CUDA_ERROR_NOT_FOUND);
    }
    let version = m.ptx_version;
    let program = match m.prepare(name) {
        Ok(p) => p,
        Err(e) => {
            d.write_report(&format!(
                "ptx-libcuda: kernel `{name}` cannot run on the simulator: {e}"
            ));
            return Err(CUDA_ERROR_NOT_SUPPORTED);
        }
    };
    let f = d.handle();
    d.functions.insert(
        f,
        Function {
            module: m_h,
            name: name.to_string(),
            program: std::sync::Arc::new(program),
            max_dynamic_shared: 0,
            non_portable_cluster: false,
            carveout: -1,
            ptx_version: version,
        },
    );
    if let Some(m) = d.modules.get_mut(&m_h) {
        m.functions.insert(name.to_string(), f);
    }
    Ok(f)
}

/// `cuModuleGetFunction`: the kernel prepared for the simulator. A name no
/// `.entry` of the module has is `CUDA_ERROR_NOT_FOUND`; a kernel the
/// simulator cannot run (an instruction it does not model) is
/// `CUDA_ERROR_NOT_SUPPORTED`, with the reason in the report.
#[no_mangle]
pub unsafe extern "C" fn cuModuleGetFunction(
    function: *mut Handle,
    module: Handle,
    name: *const c_char,
) -> CUresult {
    guard(|| {
        if function.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let name = text(name)?;
        let h = state::with(|d| function_of(d, handle(module), name))?;
        put(function, pointer(h))
    })
}

/// `cuModuleGetGlobal`: a module-scope `.global` variable's address and
/// size (either pointer may be null).
#[no_mangle]
pub unsafe extern "C" fn cuModuleGetGlobal_v2(
    dptr: *mut CUdeviceptr,
    bytes: *mut usize,
    module: Handle,
    name: *const c_char,
) -> CUresult {
    guard(|| {
        let name = text(name)?;
        let (addr, size) = state::with(|d| {
            let m = d
                .modules
                .get(&handle(module))
                .ok_or(CUDA_ERROR_INVALID_HANDLE)?;
            d.check_context(m.context)?;
            m.variables
                .iter()
                .find(|v| v.name == name)
                .map(|v| (v.addr, v.bytes.len()))
                .or_else(|| {
                    m.constants
                        .iter()
                        .find(|c| c.0 == name)
                        .map(|c| (crate::module::Module::constant_address(c.1), c.2))
                })
                .ok_or(CUDA_ERROR_NOT_FOUND)
        })?;
        if !dptr.is_null() {
            put(dptr, addr)?;
        }
        if !bytes.is_null() {
            put(bytes, size)?;
        }
        Ok(())
    })
}

/// `cuModuleLoadFatBinary`: a fat binary (or its wrapper, or PTX text),
/// as `cuModuleLoadData` takes it.
#[no_mangle]
pub unsafe extern "C" fn cuModuleLoadFatBinary(
    module: *mut Handle,
    fat_cubin: *const c_void,
) -> CUresult {
    guard(|| load_reported(module, fat_cubin))
}

/// `cuLibraryLoadData`: the image (PTX text, a fat binary or its wrapper)
/// loaded as a module of the current context, which the library stands
/// for (the driver's libraries are context-independent; here a library
/// lives in the context that was current when it was loaded). JIT and
/// library options are read and ignored; the reasons an image does not
/// load go to the report.
#[no_mangle]
pub unsafe extern "C" fn cuLibraryLoadData(
    library: *mut Handle,
    code: *const c_void,
    jit_options: *mut c_uint,
    jit_values: *mut *mut c_void,
    num_jit_options: c_uint,
    library_options: *mut c_uint,
    library_values: *mut *mut c_void,
    num_library_options: c_uint,
) -> CUresult {
    guard(|| {
        if library.is_null()
            || options_missing(num_jit_options, jit_options, jit_values)
            || options_missing(num_library_options, library_options, library_values)
        {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let mut why = String::new();
        let r = load_image(code, &mut |t| why.push_str(t));
        if !why.is_empty() {
            let _ = state::with(|d| {
                d.write_report(&why);
                Ok(())
            });
        }
        let m = r?;
        let h = state::with(|d| {
            let h = d.handle();
            d.libraries.insert(h, m);
            Ok(h)
        })?;
        put(library, pointer(h))
    })
}

/// The module a library handle stands for.
pub(crate) fn library_module(d: &state::Driver, library: Handle) -> Result<u64, CUresult> {
    d.libraries
        .get(&handle(library))
        .copied()
        .ok_or(CUDA_ERROR_INVALID_HANDLE)
}

/// `cuLibraryUnload`: unloads the library's module and its kernels.
#[no_mangle]
pub unsafe extern "C" fn cuLibraryUnload(library: Handle) -> CUresult {
    guard(|| {
        state::with(|d| {
            let m = library_module(d, library)?;
            d.libraries.remove(&handle(library));
            // the module may already be gone with its context
            let _ = d.unload(m);
            Ok(())
        })
    })
}

/// `cuLibraryGetKernel`: the kernel, which is the function of the
/// library's module (`cuModuleGetFunction`); a `CUkernel` is the same
/// handle as its `CUfunction`, so either may be launched.
#[no_mangle]
pub unsafe extern "C" fn cuLibraryGetKernel(
    kernel: *mut Handle,
    library: Handle,
    name: *const c_char,
) -> CUresult {
    guard(|| {
        if kernel.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let name = text(name)?;
        let h = state::with(|d| {
            let m = library_module(d, library)?;
            function_of(d, m, name)
        })?;
        put(kernel, pointer(h))
    })
}

/// `cuKernelGetFunction`: the function of a kernel, the same handle.
#[no_mangle]
pub unsafe extern "C" fn cuKernelGetFunction(function: *mut Handle, kernel: Handle) -> CUresult {
    guard(|| {
        if function.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        state::with(|d| {
            let f = d
                .functions
                .get(&handle(kernel))
                .ok_or(CUDA_ERROR_INVALID_HANDLE)?;
            let m = d.modules.get(&f.module).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
            d.check_context(m.context)
        })?;
        put(function, kernel)
    })
}

/// `cuLibraryGetModule`: the module the library loaded.
#[no_mangle]
pub unsafe extern "C" fn cuLibraryGetModule(module: *mut Handle, library: Handle) -> CUresult {
    guard(|| {
        if module.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let m = state::with(|d| library_module(d, library))?;
        put(module, pointer(m))
    })
}

/// `cuLibraryGetGlobal`: a variable of the library's module, as
/// `cuModuleGetGlobal` gives it.
#[no_mangle]
pub unsafe extern "C" fn cuLibraryGetGlobal(
    dptr: *mut CUdeviceptr,
    bytes: *mut usize,
    library: Handle,
    name: *const c_char,
) -> CUresult {
    guard(|| {
        let m = state::with(|d| library_module(d, library))?;
        match cuModuleGetGlobal_v2(dptr, bytes, pointer(m), name) {
            CUDA_SUCCESS => Ok(()),
            e => Err(e),
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuFuncGetAttribute(
    value: *mut c_int,
    attribute: c_int,
    function: Handle,
) -> CUresult {
    guard(|| {
        let v = state::with(|d| {
            let f = d
                .functions
                .get(&handle(function))
                .ok_or(CUDA_ERROR_INVALID_HANDLE)?;
            device::function_attribute(f, attribute)
        })?;
        put(value, v)
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuFuncSetAttribute(
    function: Handle,
    attribute: c_int,
    value: c_int,
) -> CUresult {
    guard(|| {
        state::with(|d| {
            let f = d
                .functions
                .get_mut(&handle(function))
                .ok_or(CUDA_ERROR_INVALID_HANDLE)?;
            device::set_function_attribute(f, attribute, value)
        })
    })
}

/// `cuFuncSetCacheConfig`: a preference the simulator has no use for.
#[no_mangle]
pub unsafe extern "C" fn cuFuncSetCacheConfig(function: Handle, _config: c_int) -> CUresult {
    guard(|| {
        state::with(|d| {
            d.functions
                .get(&handle(function))
                .map(|_| ())
                .ok_or(CUDA_ERROR_INVALID_HANDLE)
        })
    })
}

// ---- memory ----

#[no_mangle]
pub unsafe extern "C" fn cuMemAlloc_v2(dptr: *mut CUdeviceptr, bytesize: usize) -> CUresult {
    guard(|| {
        if dptr.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let a = state::with(|d| {
            let c = d.usable()?;
            let fill = d.config.fill.unwrap_or(config::DEFAULT_FILL);
            d.memory.alloc(c, bytesize as u64, fill)
        })?;
        put(dptr, a)
    })
}

/// `cuMemFree`: 0 is accepted and frees nothing.
#[no_mangle]
pub unsafe extern "C" fn cuMemFree_v2(dptr: CUdeviceptr) -> CUresult {
    guard(|| {
        state::with(|d| {
            d.usable()?;
            if dptr == 0 {
                return Ok(());
            }
            d.memory.free(dptr)
        })
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuMemGetInfo_v2(free: *mut usize, total: *mut usize) -> CUresult {
    guard(|| {
        let (used, all) = state::with(|d| {
            d.usable()?;
            Ok((d.memory.used(), d.memory.total))
        })?;
        put(free, (all - used) as usize)?;
        put(total, all as usize)
    })
}

/// `cuMemGetAddressRange`: the allocation holding `dptr`.
#[no_mangle]
pub unsafe extern "C" fn cuMemGetAddressRange_v2(
    base: *mut CUdeviceptr,
    size: *mut usize,
    dptr: CUdeviceptr,
) -> CUresult {
    guard(|| {
        let (b, n) = state::with(|d| {
            d.usable()?;
            let b = d.memory.find(dptr, 1).ok_or(CUDA_ERROR_NOT_FOUND)?;
            Ok((b, d.memory.allocations[&b].bytes.len()))
        })?;
        if !base.is_null() {
            put(base, b)?;
        }
        if !size.is_null() {
            put(size, n)?;
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuMemAllocHost_v2(pp: *mut *mut c_void, bytesize: usize) -> CUresult {
    guard(|| {
        if pp.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        state::with(|d| d.usable().map(|_| ()))?;
        let p = crate::host::alloc(bytesize)?;
        state::with(|d| {
            let context = d.current()?;
            let id = d.memory.new_id();
            d.host_allocations.insert(
                p as usize as u64,
                state::HostAllocation {
                    size: bytesize as u64,
                    context,
                    id,
                },
            );
            Ok(())
        })?;
        put(pp, p)
    })
}

/// `cuMemHostAlloc`: as `cuMemAllocHost` (the flags ask for mappings the
/// simulator does not have; kernels cannot reach host memory).
#[no_mangle]
pub unsafe extern "C" fn cuMemHostAlloc(
    pp: *mut *mut c_void,
    bytesize: usize,
    _flags: c_uint,
) -> CUresult {
    cuMemAllocHost_v2(pp, bytesize)
}

#[no_mangle]
pub unsafe extern "C" fn cuMemFreeHost(p: *mut c_void) -> CUresult {
    guard(|| {
        state::with(|_| Ok(()))?;
        crate::host::free(p)?;
        state::with(|d| {
            d.host_allocations.remove(&(p as usize as u64));
            Ok(())
        })
    })
}

/// Copies `n` bytes from host memory into device memory.
unsafe fn htod(
    dst: CUdeviceptr,
    src: *const c_void,
    n: usize,
    stream: u64,
) -> Result<(), CUresult> {
    state::with(|d| {
        let c = d.stream_context(stream)?;
        d.check_context(c)?;
        if n == 0 {
            return Ok(());
        }
        if src.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let to = d.device_bytes(c, dst, n as u64)?;
        std::ptr::copy_nonoverlapping(src.cast::<u8>(), to.as_mut_ptr(), n);
        Ok(())
    })
}

unsafe fn dtoh(dst: *mut c_void, src: CUdeviceptr, n: usize, stream: u64) -> Result<(), CUresult> {
    state::with(|d| {
        let c = d.stream_context(stream)?;
        d.check_context(c)?;
        if n == 0 {
            return Ok(());
        }
        if dst.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let from = d.device_bytes(c, src, n as u64)?;
        std::ptr::copy_nonoverlapping(from.as_ptr(), dst.cast::<u8>(), n);
        Ok(())
    })
}

fn dtod(dst: CUdeviceptr, src: CUdeviceptr, n: usize, stream: u64) -> Result<(), CUresult> {
    state::with(|d| {
        let c = d.stream_context(stream)?;
        d.check_context(c)?;
        if n == 0 {
            return Ok(());
        }
        let bytes = d.device_bytes(c, src, n as u64)?.to_vec();
        d.device_bytes(c, dst, n as u64)?.copy_from_slice(&bytes);
        Ok(())
    })
}

/// Fills `n` elements of `width` bytes with `value`'s low bytes. The driver
/// API asks a 16- or 32-bit fill's address to be aligned to its width.
fn memset(
    dst: CUdeviceptr,
    value: u32,
    width: usize,
    n: usize,
    stream: u64,
) -> Result<(), CUresult> {
    state::with(|d| {
        let c = d.stream_context(stream)?;
        d.check_context(c)?;
        if !dst.is_multiple_of(width as u64) {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        if n == 0 {
            return Ok(());
        }
        let len = n.checked_mul(width).ok_or(CUDA_ERROR_INVALID_VALUE)?;
        let to = d.device_bytes(c, dst, len as u64)?;
        let pattern = value.to_le_bytes();
        for chunk in to.chunks_exact_mut(width) {
            chunk.copy_from_slice(&pattern[..width]);
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuMemcpyHtoD_v2(
    dst: CUdeviceptr,
    src: *const c_void,
    n: usize,
) -> CUresult {
    guard(|| htod(dst, src, n, 0))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemcpyDtoH_v2(dst: *mut c_void, src: CUdeviceptr, n: usize) -> CUresult {
    guard(|| dtoh(dst, src, n, 0))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemcpyDtoD_v2(dst: CUdeviceptr, src: CUdeviceptr, n: usize) -> CUresult {
    guard(|| dtod(dst, src, n, 0))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemcpyHtoDAsync_v2(
    dst: CUdeviceptr,
    src: *const c_void,
    n: usize,
    stream: Handle,
) -> CUresult {
    guard(|| htod(dst, src, n, handle(stream)))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemcpyDtoHAsync_v2(
    dst: *mut c_void,
    src: CUdeviceptr,
    n: usize,
    stream: Handle,
) -> CUresult {
    guard(|| dtoh(dst, src, n, handle(stream)))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemcpyDtoDAsync_v2(
    dst: CUdeviceptr,
    src: CUdeviceptr,
    n: usize,
    stream: Handle,
) -> CUresult {
    guard(|| dtod(dst, src, n, handle(stream)))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemsetD8_v2(dst: CUdeviceptr, value: u8, n: usize) -> CUresult {
    guard(|| memset(dst, u32::from(value), 1, n, 0))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemsetD16_v2(dst: CUdeviceptr, value: u16, n: usize) -> CUresult {
    guard(|| memset(dst, u32::from(value), 2, n, 0))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemsetD32_v2(dst: CUdeviceptr, value: u32, n: usize) -> CUresult {
    guard(|| memset(dst, value, 4, n, 0))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemsetD8Async(
    dst: CUdeviceptr,
    value: u8,
    n: usize,
    stream: Handle,
) -> CUresult {
    guard(|| memset(dst, u32::from(value), 1, n, handle(stream)))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemsetD16Async(
    dst: CUdeviceptr,
    value: u16,
    n: usize,
    stream: Handle,
) -> CUresult {
    guard(|| memset(dst, u32::from(value), 2, n, handle(stream)))
}

#[no_mangle]
pub unsafe extern "C" fn cuMemsetD32Async(
    dst: CUdeviceptr,
    value: u32,
    n: usize,
    stream: Handle,
) -> CUresult {
    guard(|| memset(dst, value, 4, n, handle(stream)))
}

// ---- streams and events ----

#[no_mangle]
pub unsafe extern "C" fn cuStreamCreate(stream: *mut Handle, flags: c_uint) -> CUresult {
    guard(|| {
        // `CU_STREAM_DEFAULT` or `CU_STREAM_NON_BLOCKING`
        if stream.is_null() || flags > 1 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let h = state::with(|d| {
            let c = d.usable()?;
            let h = d.handle();
            d.streams.insert(h, Stream { context: c, flags });
            Ok(h)
        })?;
        put(stream, pointer(h))
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuStreamCreateWithPriority(
    stream: *mut Handle,
    flags: c_uint,
    _priority: c_int,
) -> CUresult {
    cuStreamCreate(stream, flags)
}

/// `cuStreamGetFlags`: the flags the stream was created with (0 for the
/// default streams).
#[no_mangle]
pub unsafe extern "C" fn cuStreamGetFlags(stream: Handle, flags: *mut c_uint) -> CUresult {
    guard(|| {
        let f = state::with(|d| {
            d.stream_context(handle(stream))?;
            Ok(d.streams.get(&handle(stream)).map_or(0, |s| s.flags))
        })?;
        put(flags, f)
    })
}

/// `cuStreamGetPriority`: 0, the device's only priority
/// (`cuCtxGetStreamPriorityRange` gives 0, 0).
#[no_mangle]
pub unsafe extern "C" fn cuStreamGetPriority(stream: Handle, priority: *mut c_int) -> CUresult {
    guard(|| {
        state::with(|d| d.stream_context(handle(stream)).map(|_| ()))?;
        put(priority, 0)
    })
}

/// `cuStreamGetCtx`: the context the stream belongs to (the current one
/// for the default streams).
#[no_mangle]
pub unsafe extern "C" fn cuStreamGetCtx(stream: Handle, context: *mut Handle) -> CUresult {
    guard(|| {
        let c = state::with(|d| d.stream_context(handle(stream)))?;
        put(context, pointer(c))
    })
}

/// `CUstreamCallback`: `(stream, status, userData)`.
pub type StreamCallback = Option<unsafe extern "C" fn(Handle, CUresult, *mut c_void)>;

/// `cuStreamAddCallback`: work on a stream is done when it is issued, so
/// the callback runs now, on the calling thread, with the stream's status
/// (an earlier launch's fault, or `CUDA_SUCCESS`); `flags` "must be zero".
/// The driver's lock is not held while it runs.
#[no_mangle]
pub unsafe extern "C" fn cuStreamAddCallback(
    stream: Handle,
    callback: StreamCallback,
    user: *mut c_void,
    flags: c_uint,
) -> CUresult {
    guard(|| {
        let Some(cb) = callback else {
            return Err(CUDA_ERROR_INVALID_VALUE);
        };
        if flags != 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let status = state::with(|d| {
            let c = d.stream_context(handle(stream))?;
            Ok(d.check_context(c).err().unwrap_or(CUDA_SUCCESS))
        })?;
        cb(stream, status, user);
        Ok(())
    })
}

/// `CUhostFn`: `(userData)`.
pub type HostFn = Option<unsafe extern "C" fn(*mut c_void)>;

/// `cuLaunchHostFunc`: the host function runs now, on the calling thread
/// (the stream's earlier work is done), without the driver's lock.
#[no_mangle]
pub unsafe extern "C" fn cuLaunchHostFunc(
    stream: Handle,
    f: HostFn,
    user: *mut c_void,
) -> CUresult {
    guard(|| {
        let Some(f) = f else {
            return Err(CUDA_ERROR_INVALID_VALUE);
        };
        state::with(|d| {
            let c = d.stream_context(handle(stream))?;
            d.check_context(c)
        })?;
        f(user);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuStreamDestroy_v2(stream: Handle) -> CUresult {
    guard(|| {
        state::with(|d| {
            d.streams
                .remove(&handle(stream))
                .map(|_| ())
                .ok_or(CUDA_ERROR_INVALID_HANDLE)
        })
    })
}

/// Work on a stream is done when it is issued: an earlier launch's fault,
/// or success.
#[no_mangle]
pub unsafe extern "C" fn cuStreamSynchronize(stream: Handle) -> CUresult {
    guard(|| {
        state::with(|d| {
            let c = d.stream_context(handle(stream))?;
            d.check_context(c)
        })
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuStreamQuery(stream: Handle) -> CUresult {
    cuStreamSynchronize(stream)
}

#[no_mangle]
pub unsafe extern "C" fn cuStreamWaitEvent(
    stream: Handle,
    event: Handle,
    _flags: c_uint,
) -> CUresult {
    guard(|| {
        state::with(|d| {
            let c = d.stream_context(handle(stream))?;
            d.events
                .get(&handle(event))
                .ok_or(CUDA_ERROR_INVALID_HANDLE)?;
            d.check_context(c)
        })
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuEventCreate(event: *mut Handle, flags: c_uint) -> CUresult {
    guard(|| {
        if event.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let h = state::with(|d| {
            let c = d.usable()?;
            let h = d.handle();
            d.events.insert(
                h,
                Event {
                    context: c,
                    flags,
                    recorded: None,
                },
            );
            Ok(h)
        })?;
        put(event, pointer(h))
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuEventRecord(event: Handle, stream: Handle) -> CUresult {
    guard(|| {
        state::with(|d| {
            let c = d.stream_context(handle(stream))?;
            d.check_context(c)?;
            let e = d
                .events
                .get_mut(&handle(event))
                .ok_or(CUDA_ERROR_INVALID_HANDLE)?;
            e.recorded = Some(Instant::now());
            Ok(())
        })
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuEventRecordWithFlags(
    event: Handle,
    stream: Handle,
    _flags: c_uint,
) -> CUresult {
    cuEventRecord(event, stream)
}

/// The work before the event is done: an earlier launch's fault, or
/// success.
#[no_mangle]
pub unsafe extern "C" fn cuEventSynchronize(event: Handle) -> CUresult {
    guard(|| {
        state::with(|d| {
            let e = d
                .events
                .get(&handle(event))
                .ok_or(CUDA_ERROR_INVALID_HANDLE)?;
            d.check_context(e.context)
        })
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuEventQuery(event: Handle) -> CUresult {
    cuEventSynchronize(event)
}

#[no_mangle]
pub unsafe extern "C" fn cuEventDestroy_v2(event: Handle) -> CUresult {
    guard(|| {
        state::with(|d| {
            d.events
                .remove(&handle(event))
                .map(|_| ())
                .ok_or(CUDA_ERROR_INVALID_HANDLE)
        })
    })
}

/// Milliseconds of host time between the two records (the simulator has no
/// device clock to give). Either event unrecorded, or made with
/// `CU_EVENT_DISABLE_TIMING`: `CUDA_ERROR_INVALID_HANDLE`, as the driver
/// API documents.
#[no_mangle]
pub unsafe extern "C" fn cuEventElapsedTime(ms: *mut f32, start: Handle, end: Handle) -> CUresult {
    guard(|| {
        let t = state::with(|d| {
            let get = |h: Handle| {
                let e = d.events.get(&handle(h)).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
                if e.flags & EVENT_DISABLE_TIMING != 0 {
                    return Err(CUDA_ERROR_INVALID_HANDLE);
                }
                e.recorded.ok_or(CUDA_ERROR_INVALID_HANDLE)
            };
            let (a, b) = (get(start)?, get(end)?);
            Ok(if b >= a {
                (b - a).as_secs_f64() * 1e3
            } else {
                -((a - b).as_secs_f64() * 1e3)
            })
        })?;
        put(ms, t as f32)
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuEventElapsedTime_v2(
    ms: *mut f32,
    start: Handle,
    end: Handle,
) -> CUresult {
    cuEventElapsedTime(ms, start, end)
}

// ---- launches ----

/// Each parameter's bytes, from `kernelParams` (one pointer a parameter) or
/// from `extra` (`CU_LAUNCH_PARAM_BUFFER_POINTER` and `..._SIZE`: the
/// parameters at their offsets in one buffer). Both, or neither for a
/// kernel with parameters, is `CUDA_ERROR_INVALID_VALUE`.
unsafe fn read_params(
    function: u64,
    params: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> Result<Vec<Vec<u8>>, CUresult> {
    let layout = state::with(|d| {
        let f = d
            .functions
            .get(&function)
            .ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        Ok(f.program.params.clone())
    })?;
    if !params.is_null() && !extra.is_null() {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    if !params.is_null() {
        return layout
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let src = *params.add(k);
                if src.is_null() {
                    return Err(CUDA_ERROR_INVALID_VALUE);
                }
                Ok(std::slice::from_raw_parts(src.cast::<u8>(), p.size as usize).to_vec())
            })
            .collect();
    }
    if !extra.is_null() {
        let (mut buffer, mut size): (*const u8, Option<usize>) = (std::ptr::null(), None);
        let mut k = 0;
        loop {
            let key = *extra.add(k) as usize;
            match key {
                launch_param::END => break,
                launch_param::BUFFER_POINTER => buffer = (*extra.add(k + 1)).cast::<u8>(),
                launch_param::BUFFER_SIZE => {
                    let p = (*extra.add(k + 1)).cast::<usize>();
                    if p.is_null() {
                        return Err(CUDA_ERROR_INVALID_VALUE);
                    }
                    size = Some(p.read_unaligned());
                }
                _ => return Err(CUDA_ERROR_INVALID_VALUE),
            }
            k += 2;
            if k > 64 {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
        }
        let (Some(size), false) = (size, buffer.is_null()) else {
            return Err(CUDA_ERROR_INVALID_VALUE);
        };
        let all = std::slice::from_raw_parts(buffer, size);
        return layout
            .iter()
            .map(|p| {
                let (lo, hi) = (p.offset as usize, (p.offset + p.size) as usize);
                all.get(lo..hi)
                    .map(<[u8]>::to_vec)
                    .ok_or(CUDA_ERROR_INVALID_VALUE)
            })
            .collect();
    }
    if layout.is_empty() {
        Ok(Vec::new())
    } else {
        Err(CUDA_ERROR_INVALID_VALUE)
    }
}

#[no_mangle]
pub unsafe extern "C" fn cuLaunchKernel(
    function: Handle,
    gx: c_uint,
    gy: c_uint,
    gz: c_uint,
    bx: c_uint,
    by: c_uint,
    bz: c_uint,
    shared: c_uint,
    stream: Handle,
    params: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> CUresult {
    guard(|| {
        state::with(|_| Ok(()))?;
        let params = read_params(handle(function), params, extra)?;
        state::with(|d| {
            d.launch(Request {
                function: handle(function),
                grid: [gx, gy, gz],
                block: [bx, by, bz],
                shared,
                cluster: None,
                stream: handle(stream),
                params,
            })
        })
    })
}

/// `cuLaunchKernelEx`: the cluster dimension attribute is used; attributes
/// that only tune scheduling are accepted and ignored; any other is
/// `CUDA_ERROR_NOT_SUPPORTED`.
#[no_mangle]
pub unsafe extern "C" fn cuLaunchKernelEx(
    config: *const CUlaunchConfig,
    function: Handle,
    params: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> CUresult {
    guard(|| {
        state::with(|_| Ok(()))?;
        if config.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let c = config.read_unaligned();
        if c.num_attrs > 0 && c.attrs.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let mut cluster = None;
        for k in 0..c.num_attrs as usize {
            let a = c.attrs.add(k).read_unaligned();
            match a.id {
                launch_attr::IGNORE => {}
                launch_attr::CLUSTER_DIMENSION => {
                    let v = &a.value.pad;
                    let word = |i: usize| {
                        u32::from_le_bytes([v[4 * i], v[4 * i + 1], v[4 * i + 2], v[4 * i + 3]])
                    };
                    cluster = Some([word(0), word(1), word(2)]);
                }
                // cluster scheduling policy, priority, preferred cluster
                // dimension, shared memory carveout: preferences
                5 | 8 | 11 | 14 => {}
                _ => return Err(CUDA_ERROR_NOT_SUPPORTED),
            }
        }
        let params = read_params(handle(function), params, extra)?;
        state::with(|d| {
            d.launch(Request {
                function: handle(function),
                grid: [c.grid_dim_x, c.grid_dim_y, c.grid_dim_z],
                block: [c.block_dim_x, c.block_dim_y, c.block_dim_z],
                shared: c.shared_mem_bytes,
                cluster,
                stream: handle(c.h_stream),
                params,
            })
        })
    })
}

// ---- tensor maps ----

/// `cuTensorMapEncodeTiled`: the map in the model's encoding
/// (`ptx_semantics::tensor::TensorMap::to_bytes`), which the simulator's
/// tensor instructions read. A map the driver would refuse is
/// `CUDA_ERROR_INVALID_VALUE`.
#[no_mangle]
pub unsafe extern "C" fn cuTensorMapEncodeTiled(
    map: *mut c_void,
    data_type: c_uint,
    rank: c_uint,
    global_address: *mut c_void,
    global_dim: *const u64,
    global_strides: *const u64,
    box_dim: *const u32,
    element_strides: *const u32,
    interleave: c_uint,
    swizzle: c_uint,
    l2_promotion: c_uint,
    oob_fill: c_uint,
) -> CUresult {
    guard(|| {
        let fields = crate::tensor::Fields {
            data_type,
            rank,
            global_address: global_address as usize as u64,
            global_dim,
            global_strides,
            element_strides,
            interleave,
            swizzle,
            l2_promotion,
            oob_fill,
        };
        crate::tensor::encode(map, &fields, crate::tensor::Shape::Tiled { box_dim })
    })
}

/// `cuTensorMapEncodeIm2col`, as [`cuTensorMapEncodeTiled`].
#[no_mangle]
pub unsafe extern "C" fn cuTensorMapEncodeIm2col(
    map: *mut c_void,
    data_type: c_uint,
    rank: c_uint,
    global_address: *mut c_void,
    global_dim: *const u64,
    global_strides: *const u64,
    lower_corner: *const c_int,
    upper_corner: *const c_int,
    channels_per_pixel: c_uint,
    pixels_per_column: c_uint,
    element_strides: *const u32,
    interleave: c_uint,
    swizzle: c_uint,
    l2_promotion: c_uint,
    oob_fill: c_uint,
) -> CUresult {
    guard(|| {
        let fields = crate::tensor::Fields {
            data_type,
            rank,
            global_address: global_address as usize as u64,
            global_dim,
            global_strides,
            element_strides,
            interleave,
            swizzle,
            l2_promotion,
            oob_fill,
        };
        crate::tensor::encode(
            map,
            &fields,
            crate::tensor::Shape::Im2col {
                lower_corner,
                upper_corner,
                channels_per_pixel,
                pixels_per_column,
            },
        )
    })
}

// ---- errors and look-up ----

#[no_mangle]
pub unsafe extern "C" fn cuGetErrorName(code: CUresult, name: *mut *const c_char) -> CUresult {
    guard(|| {
        if name.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        match describe(code) {
            Some((n, _)) => put(name, n.as_ptr().cast()),
            None => {
                put(name, std::ptr::null())?;
                Err(CUDA_ERROR_INVALID_VALUE)
            }
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuGetErrorString(code: CUresult, text: *mut *const c_char) -> CUresult {
    guard(|| {
        if text.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        match describe(code) {
            Some((_, t)) => put(text, t.as_ptr().cast()),
            None => {
                put(text, std::ptr::null())?;
                Err(CUDA_ERROR_INVALID_VALUE)
            }
        }
    })
}

/// `cuGetProcAddress` (CUDA 11.3 to 11.8's form, which CUDA 12 keeps as
/// `cuGetProcAddress`): the entry point for a base name (`cuMemAlloc` gives
/// `cuMemAlloc_v2`), as [`crate::procs::lookup`] maps it.
#[no_mangle]
pub unsafe extern "C" fn cuGetProcAddress(
    symbol: *const c_char,
    pfn: *mut *mut c_void,
    cuda_version: c_int,
    flags: u64,
) -> CUresult {
    guard(|| {
        if pfn.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let name = text(symbol)?;
        let found = crate::procs::lookup(name, cuda_version);
        if std::env::var_os("PTX_LIBCUDA_TRACE").is_some_and(|v| !v.is_empty() && v != "0") {
            eprintln!(
                "ptx-libcuda: cuGetProcAddress `{name}` (CUDA {cuda_version}, flags {flags}): {}",
                if found.is_some() {
                    "found"
                } else {
                    "not found"
                }
            );
        }
        match found {
            Some(f) => put(pfn, f),
            None => {
                put(pfn, std::ptr::null_mut())?;
                Err(CUDA_ERROR_NOT_FOUND)
            }
        }
    })
}

/// `cuGetProcAddress_v2` (CUDA 12): as [`cuGetProcAddress`], and
/// `symbolStatus` (may be null) gets `CU_GET_PROC_ADDRESS_SUCCESS` (0) or
/// `..._SYMBOL_NOT_FOUND` (1).
#[no_mangle]
pub unsafe extern "C" fn cuGetProcAddress_v2(
    symbol: *const c_char,
    pfn: *mut *mut c_void,
    cuda_version: c_int,
    flags: u64,
    status: *mut c_int,
) -> CUresult {
    let r = cuGetProcAddress(symbol, pfn, cuda_version, flags);
    if !status.is_null() {
        let s = match r {
            CUDA_SUCCESS => 0,
            _ => 1,
        };
        status.write_unaligned(s);
    }
    r
}
