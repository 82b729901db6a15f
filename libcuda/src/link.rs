//! `cuLink*`: the driver's JIT linker, for PTX. A link state collects
//! inputs (`cuLinkAddData`, `cuLinkAddFile`): PTX text, or a fat binary whose
//! PTX the library takes as `cuModuleLoadData` does; each is parsed and
//! checked when added, as the driver compiles it then. `cuLinkComplete` gives
//! back the image `cuModuleLoadData` loads: with one input, that input's
//! PTX text (NUL-terminated), owned by the state until `cuLinkDestroy`.
//! Linking several inputs (resolving one module's `.extern` functions in
//! another) is not supported (`CUDA_ERROR_NOT_SUPPORTED`, the reason in the
//! report), nor are cubin, object and library inputs (the library runs PTX
//! only).

#![allow(clippy::missing_safety_doc)] // the driver API's documentation is theirs

use crate::api::{guard, handle, image_text, put, text};
use crate::config;
use crate::module;
use crate::state;
use crate::types::*;
use std::collections::HashMap;
use std::ffi::{c_char, c_uint, c_void};
use std::sync::Mutex;

/// `CUjitInputType`.
mod input {
    pub const CUBIN: u32 = 0;
    pub const PTX: u32 = 1;
    pub const FATBINARY: u32 = 2;
    pub const OBJECT: u32 = 3;
    pub const LIBRARY: u32 = 4;
    /// One past the last input type of CUDA 13.0 (`CU_JIT_INPUT_NVVM`
    /// is 5).
    pub const COUNT: u32 = 6;
}

/// One link state.
#[derive(Default)]
struct Link {
    inputs: Vec<String>,
    /// The image `cuLinkComplete` handed out.
    output: Option<Vec<u8>>,
}

static LINKS: Mutex<Option<HashMap<u64, Link>>> = Mutex::new(None);

fn with_links<R>(f: impl FnOnce(&mut HashMap<u64, Link>) -> R) -> R {
    let mut g = LINKS.lock().unwrap_or_else(|e| e.into_inner());
    f(g.get_or_insert_with(HashMap::new))
}

fn report(why: &str) {
    let _ = state::with(|d| {
        d.write_report(why);
        Ok(())
    });
}

/// `cuLinkCreate_v2`: the options (log buffers, optimisation level...) are
/// read and ignored.
#[no_mangle]
pub unsafe extern "C" fn cuLinkCreate_v2(
    num_options: c_uint,
    options: *mut c_uint,
    values: *mut *mut c_void,
    state_out: *mut Handle,
) -> CUresult {
    guard(|| {
        if state_out.is_null() || (num_options > 0 && (options.is_null() || values.is_null())) {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let h = state::with(|d| {
            d.usable()?;
            Ok(d.handle())
        })?;
        with_links(|l| l.insert(h, Link::default()));
        put(state_out, h as Handle)
    })
}

/// Checks an input as the driver compiles it when it is added.
fn add(link: Handle, src: String) -> Result<(), CUresult> {
    let h = handle(link);
    if !with_links(|l| l.contains_key(&h)) {
        return Err(CUDA_ERROR_INVALID_HANDLE);
    }
    let checked = state::with(|d| {
        let c = d.usable()?;
        Ok(module::load(
            c,
            &src,
            config::ptx_isa(d.config.driver_version),
        ))
    })?;
    if let Err(f) = checked {
        report(&f.log);
        return Err(f.code);
    }
    with_links(|l| {
        l.get_mut(&h)
            .map(|k| k.inputs.push(src))
            .ok_or(CUDA_ERROR_INVALID_HANDLE)
    })
}

/// The PTX text of an input of `kind` at `data`.
unsafe fn input_text(kind: c_uint, data: *const c_void, size: usize) -> Result<String, CUresult> {
    match kind {
        input::PTX => {
            // PTX "must be NULL-terminated" unless `size` bounds it
            let bytes = std::slice::from_raw_parts(data.cast::<u8>(), size);
            let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
            std::str::from_utf8(&bytes[..end])
                .map(str::to_string)
                .map_err(|_| CUDA_ERROR_INVALID_PTX)
        }
        input::FATBINARY => {
            let mut why = String::new();
            let r = image_text(data, &mut |t| why.push_str(t));
            if !why.is_empty() {
                report(&why);
            }
            r
        }
        input::CUBIN | input::OBJECT | input::LIBRARY => {
            report("ptx-libcuda: cuLinkAddData/cuLinkAddFile: cubin, object and library inputs are not supported (this library runs PTX only)");
            Err(CUDA_ERROR_NOT_SUPPORTED)
        }
        k if k < input::COUNT => {
            report("ptx-libcuda: cuLinkAddData/cuLinkAddFile: NVVM IR inputs are not supported");
            Err(CUDA_ERROR_NOT_SUPPORTED)
        }
        _ => Err(CUDA_ERROR_INVALID_VALUE),
    }
}

/// `cuLinkAddData_v2`: `size` bytes of `data` (PTX text up to its NUL, or
/// a fat binary). The options are read and ignored.
#[no_mangle]
pub unsafe extern "C" fn cuLinkAddData_v2(
    link: Handle,
    kind: c_uint,
    data: *mut c_void,
    size: usize,
    _name: *const c_char,
    num_options: c_uint,
    options: *mut c_uint,
    values: *mut *mut c_void,
) -> CUresult {
    guard(|| {
        if data.is_null()
            || size == 0
            || (num_options > 0 && (options.is_null() || values.is_null()))
        {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let src = input_text(kind, data, size)?;
        add(link, src)
    })
}

/// `cuLinkAddFile_v2`: an input read from a file.
#[no_mangle]
pub unsafe extern "C" fn cuLinkAddFile_v2(
    link: Handle,
    kind: c_uint,
    path: *const c_char,
    num_options: c_uint,
    options: *mut c_uint,
    values: *mut *mut c_void,
) -> CUresult {
    guard(|| {
        if num_options > 0 && (options.is_null() || values.is_null()) {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let path = text(path)?;
        let mut bytes = std::fs::read(path).map_err(|_| CUDA_ERROR_FILE_NOT_FOUND)?;
        bytes.push(0);
        let src = input_text(kind, bytes.as_ptr().cast(), bytes.len())?;
        add(link, src)
    })
}

/// `cuLinkComplete`: the image of the one input; several inputs are
/// `CUDA_ERROR_NOT_SUPPORTED`, none `CUDA_ERROR_INVALID_VALUE`.
#[no_mangle]
pub unsafe extern "C" fn cuLinkComplete(
    link: Handle,
    image: *mut *mut c_void,
    size: *mut usize,
) -> CUresult {
    guard(|| {
        if image.is_null() || size.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let r = with_links(|l| {
            let k = l.get_mut(&handle(link)).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
            match k.inputs.len() {
                0 => Err(CUDA_ERROR_INVALID_VALUE),
                1 => {
                    let mut out = k.inputs[0].clone().into_bytes();
                    out.push(0);
                    let n = out.len();
                    let out = k.output.insert(out);
                    Ok((out.as_mut_ptr().cast::<c_void>(), n))
                }
                _ => Err(CUDA_ERROR_NOT_SUPPORTED),
            }
        });
        if r == Err(CUDA_ERROR_NOT_SUPPORTED) {
            report("ptx-libcuda: cuLinkComplete: linking several inputs into one module is not supported");
        }
        let (p, n) = r?;
        put(image, p)?;
        put(size, n)
    })
}

/// `cuLinkDestroy`: the image `cuLinkComplete` gave goes with the state.
#[no_mangle]
pub unsafe extern "C" fn cuLinkDestroy(link: Handle) -> CUresult {
    guard(|| {
        with_links(|l| l.remove(&handle(link)))
            .map(|_| ())
            .ok_or(CUDA_ERROR_INVALID_HANDLE)
    })
}
