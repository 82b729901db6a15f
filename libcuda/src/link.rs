//! `cuLink*`: the driver's JIT linker, for PTX. A link state collects
//! inputs (`cuLinkAddData`, `cuLinkAddFile`): PTX text, or a fat binary whose
//! PTX the library takes as `cuModuleLoadData` does; each is parsed and
//! checked when added, as the driver compiles it then. `cuLinkComplete` gives
//! back the image `cuModuleLoadData` loads, PTX text (NUL-terminated) owned
//! by the state until `cuLinkDestroy`: with one input, that input; with
//! several, one module made of them all ([`merge`]): the newest `.version`,
//! their common `.target` and `.address_size`, every definition once, and a
//! declaration (`.extern`, a function without a body) only where no input
//! defines the name. Two definitions of one name (neither `.weak` nor
//! `.common`), or inputs for different targets, are
//! `CUDA_ERROR_INVALID_IMAGE`, the reason in the report. Cubin, object and
//! library inputs are not supported (the library runs PTX only).

#![allow(clippy::missing_safety_doc)] // the driver API's documentation is theirs

use crate::api::{guard, handle, image_text, options_missing, put, text};
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
        if state_out.is_null() || options_missing(num_options, options, values) {
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
        if data.is_null() || size == 0 || options_missing(num_options, options, values) {
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
        if options_missing(num_options, options, values) {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let path = text(path)?;
        let mut bytes = std::fs::read(path).map_err(|_| CUDA_ERROR_FILE_NOT_FOUND)?;
        bytes.push(0);
        let src = input_text(kind, bytes.as_ptr().cast(), bytes.len())?;
        add(link, src)
    })
}

/// `cuLinkComplete`: the image of the inputs ([`merge`] when there are
/// several); none is `CUDA_ERROR_INVALID_VALUE`.
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
            let k = l
                .get_mut(&handle(link))
                .ok_or((CUDA_ERROR_INVALID_HANDLE, String::new()))?;
            match k.inputs.len() {
                0 => Err((CUDA_ERROR_INVALID_VALUE, String::new())),
                _ => {
                    let text = if k.inputs.len() == 1 {
                        k.inputs[0].clone()
                    } else {
                        merge(&k.inputs).map_err(|why| (CUDA_ERROR_INVALID_IMAGE, why))?
                    };
                    let mut out = text.into_bytes();
                    out.push(0);
                    let n = out.len();
                    let out = k.output.insert(out);
                    Ok((out.as_mut_ptr().cast::<c_void>(), n))
                }
            }
        });
        let (p, n) = r.map_err(|(code, why)| {
            if !why.is_empty() {
                report(&why);
            }
            code
        })?;
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

/// Several PTX modules as one: the newest `.version`, the common `.target`
/// and `.address_size`, each definition once, declarations only for names
/// no input defines (a declaration repeated in several inputs kept once).
pub fn merge(inputs: &[String]) -> Result<String, String> {
    use ptx_semantics::ptx::{self, Item};
    let mut modules = Vec::new();
    for (k, text) in inputs.iter().enumerate() {
        let m = ptx::parse(text)
            .map_err(|e| format!("ptx-libcuda: cuLinkComplete: input {k}: {}", e.message))?;
        modules.push(m);
    }
    let mut version: Option<(u32, u32)> = None;
    let mut target: Option<Vec<String>> = None;
    let mut address: Option<u32> = None;
    // what is defined, and where (input, item)
    let mut defined: HashMap<String, (usize, bool)> = HashMap::new();
    let name_of = |item: &Item| -> Vec<(String, bool, bool)> {
        // (name, a definition, may be defined again: .weak/.common)
        match item {
            Item::Function(f) => vec![(
                f.name.clone(),
                f.body.is_some(),
                f.linkage.iter().any(|l| l == ".weak"),
            )],
            Item::Var(v) => {
                let ext = v.linkage.iter().any(|l| l == ".extern");
                let weak = v.linkage.iter().any(|l| l == ".weak" || l == ".common");
                v.names
                    .iter()
                    .map(|d| (d.name.clone(), !ext, weak))
                    .collect()
            }
            _ => Vec::new(),
        }
    };
    for (k, m) in modules.iter().enumerate() {
        for item in &m.items {
            match item {
                Item::Version { major, minor, .. } => {
                    version = version.max(Some((*major, *minor)));
                }
                Item::Target { names, .. } => match &target {
                    Some(t) if t != names => {
                        return Err(format!(
                            "ptx-libcuda: cuLinkComplete: input {k} is for `.target {}`, an earlier one for `.target {}`",
                            names.join(", "),
                            t.join(", ")
                        ))
                    }
                    _ => target = Some(names.clone()),
                },
                Item::AddressSize { bits, .. } => match address {
                    Some(a) if a != *bits => {
                        return Err(format!(
                            "ptx-libcuda: cuLinkComplete: input {k} has `.address_size {bits}`, an earlier one {a}"
                        ))
                    }
                    _ => address = Some(*bits),
                },
                _ => {
                    for (name, definition, weak) in name_of(item) {
                        if !definition {
                            continue;
                        }
                        match defined.get(&name) {
                            Some(&(other, other_weak)) if !(weak || other_weak) => {
                                return Err(format!(
                                    "ptx-libcuda: cuLinkComplete: `{name}` is defined in input {other} and in input {k}"
                                ))
                            }
                            // a definition that is not `.weak` wins over one that is
                            Some(&(_, true)) if !weak => {
                                defined.insert(name, (k, false));
                            }
                            Some(_) => {}
                            None => {
                                defined.insert(name, (k, weak));
                            }
                        }
                    }
                }
            }
        }
    }
    let mut items = Vec::new();
    if let Some((major, minor)) = version {
        items.push(Item::Version {
            major,
            minor,
            span: Default::default(),
        });
    }
    if let Some(names) = target {
        items.push(Item::Target {
            names,
            span: Default::default(),
        });
    }
    if let Some(bits) = address {
        items.push(Item::AddressSize {
            bits,
            span: Default::default(),
        });
    }
    let mut declared: std::collections::HashSet<String> = Default::default();
    for (k, m) in modules.into_iter().enumerate() {
        for item in m.items {
            if matches!(
                item,
                Item::Version { .. } | Item::Target { .. } | Item::AddressSize { .. }
            ) {
                continue;
            }
            let names = name_of(&item);
            let keep = names.is_empty()
                || names.iter().all(|(name, definition, _)| {
                    if *definition {
                        // the first definition of a name (a `.weak` one
                        // may come again)
                        defined.get(name).is_some_and(|&(at, _)| at == k)
                    } else {
                        !defined.contains_key(name) && declared.insert(name.clone())
                    }
                });
            if keep {
                items.push(item);
            }
        }
    }
    Ok(ptx::print(&ptx::Module { items }))
}
