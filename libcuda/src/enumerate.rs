//! Listing a module's or a library's kernels and asking a function about
//! itself (CUDA 12's `cuModuleGetFunctionCount`, `cuModuleEnumerateFunctions`,
//! `cuLibraryGetKernelCount`, `cuLibraryEnumerateKernels`, `cuFuncGetName`,
//! `cuFuncGetModule`, `cuKernelGetName`, `cuKernelGetAttribute`,
//! `cuKernelSetAttribute`). The functions of a module are its `.entry`
//! kernels, in the order the module declares them. A `CUkernel` is the
//! same handle as its `CUfunction` here (`cuLibraryGetKernel`), so the
//! kernel calls are the function calls; their device must be device 0.

#![allow(clippy::missing_safety_doc)] // the driver API's documentation is theirs

use crate::api::{function_of, guard, handle, library_module, pointer, put};
use crate::device;
use crate::state;
use crate::types::*;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_uint, CString};
use std::sync::Mutex;

/// The names handed out by `cuFuncGetName`, kept for the life of the
/// process ("the returned name string is owned by the driver").
static NAMES: Mutex<Option<HashMap<u64, CString>>> = Mutex::new(None);

/// The kernels of module `m`, in declaration order.
fn entries(m: u64) -> Result<Vec<String>, CUresult> {
    state::with(|d| {
        let module = d.modules.get(&m).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        d.check_context(module.context)?;
        Ok(module.entries.clone())
    })
}

/// Up to `n` function handles of module `m`'s kernels, written to `out`.
unsafe fn enumerate(out: *mut Handle, n: c_uint, m: u64) -> Result<(), CUresult> {
    if out.is_null() {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    let names = entries(m)?;
    for (k, name) in names.iter().take(n as usize).enumerate() {
        let h = state::with(|d| function_of(d, m, name))?;
        out.add(k).write_unaligned(pointer(h));
    }
    Ok(())
}

/// `cuModuleGetFunctionCount`.
#[no_mangle]
pub unsafe extern "C" fn cuModuleGetFunctionCount(count: *mut c_uint, module: Handle) -> CUresult {
    guard(|| {
        let n = entries(handle(module))?.len();
        put(count, n as c_uint)
    })
}

/// `cuModuleEnumerateFunctions`: the first `numFunctions` kernels.
#[no_mangle]
pub unsafe extern "C" fn cuModuleEnumerateFunctions(
    functions: *mut Handle,
    n: c_uint,
    module: Handle,
) -> CUresult {
    guard(|| enumerate(functions, n, handle(module)))
}

/// `cuLibraryGetKernelCount`.
#[no_mangle]
pub unsafe extern "C" fn cuLibraryGetKernelCount(count: *mut c_uint, library: Handle) -> CUresult {
    guard(|| {
        let m = state::with(|d| library_module(d, library))?;
        put(count, entries(m)?.len() as c_uint)
    })
}

/// `cuLibraryEnumerateKernels`.
#[no_mangle]
pub unsafe extern "C" fn cuLibraryEnumerateKernels(
    kernels: *mut Handle,
    n: c_uint,
    library: Handle,
) -> CUresult {
    guard(|| {
        let m = state::with(|d| library_module(d, library))?;
        enumerate(kernels, n, m)
    })
}

/// `cuFuncGetName`: the kernel's name, a string the library keeps.
#[no_mangle]
pub unsafe extern "C" fn cuFuncGetName(name: *mut *const c_char, function: Handle) -> CUresult {
    guard(|| {
        if name.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let h = handle(function);
        let text = state::with(|d| {
            d.functions
                .get(&h)
                .map(|f| f.name.clone())
                .ok_or(CUDA_ERROR_INVALID_HANDLE)
        })?;
        let mut g = NAMES.lock().unwrap_or_else(|e| e.into_inner());
        let names = g.get_or_insert_with(HashMap::new);
        let c = names
            .entry(h)
            .or_insert_with(|| CString::new(text).unwrap_or_default());
        put(name, c.as_ptr())
    })
}

/// `cuKernelGetName`: as `cuFuncGetName`.
#[no_mangle]
pub unsafe extern "C" fn cuKernelGetName(name: *mut *const c_char, kernel: Handle) -> CUresult {
    cuFuncGetName(name, kernel)
}

/// `cuFuncGetModule`: the module the function comes from.
#[no_mangle]
pub unsafe extern "C" fn cuFuncGetModule(module: *mut Handle, function: Handle) -> CUresult {
    guard(|| {
        let m = state::with(|d| {
            d.functions
                .get(&handle(function))
                .map(|f| f.module)
                .ok_or(CUDA_ERROR_INVALID_HANDLE)
        })?;
        put(module, pointer(m))
    })
}

/// `cuKernelGetAttribute`: `cuFuncGetAttribute` of the kernel, on device 0.
#[no_mangle]
pub unsafe extern "C" fn cuKernelGetAttribute(
    value: *mut c_int,
    attribute: c_int,
    kernel: Handle,
    dev: CUdevice,
) -> CUresult {
    guard(|| {
        if dev != 0 {
            return Err(CUDA_ERROR_INVALID_DEVICE);
        }
        let v = state::with(|d| {
            let f = d
                .functions
                .get(&handle(kernel))
                .ok_or(CUDA_ERROR_INVALID_HANDLE)?;
            device::function_attribute(f, attribute)
        })?;
        put(value, v)
    })
}

/// `cuKernelSetAttribute`: `cuFuncSetAttribute` of the kernel, on device 0.
#[no_mangle]
pub unsafe extern "C" fn cuKernelSetAttribute(
    attribute: c_int,
    value: c_int,
    kernel: Handle,
    dev: CUdevice,
) -> CUresult {
    guard(|| {
        if dev != 0 {
            return Err(CUDA_ERROR_INVALID_DEVICE);
        }
        state::with(|d| {
            let f = d
                .functions
                .get_mut(&handle(kernel))
                .ok_or(CUDA_ERROR_INVALID_HANDLE)?;
            device::set_function_attribute(f, attribute, value)
        })
    })
}
