//! Fat binaries nvcc 13.0 made from `data/vecadd_fatbin.cu` (docs/libcuda.md,
//! "Fat binaries", says how), loaded through the entry points a program and
//! the CUDA runtime use, run on the simulator, and checked against sums
//! computed here; mutated images give `CUDA_ERROR_INVALID_IMAGE` or another
//! documented error, never a crash. The driver reports CUDA 13.0
//! (`PTX_LIBCUDA_DRIVER_VERSION=13000`) so that nvcc 13.0's `.version 9.0`
//! PTX loads. See: issue 20.

#![allow(clippy::not_unsafe_ptr_arg_deref)]

mod common;

use common::ok;
use cuda::fatbin;
use cuda::types::*;
use std::ffi::{c_void, CString};
use std::ptr::null_mut;
use std::sync::{Mutex, MutexGuard, Once};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");

fn sample(name: &str) -> Vec<u8> {
    std::fs::read(format!("{DATA}{name}")).unwrap()
}

/// The samples whose PTX runs on the device: PTX only (compressed, nvcc's
/// default, and not compressed), cubin and PTX, both compressed (`-Xfatbin -compress-all`),
/// and PTX for compute_80, 90 and 100.
const RUNNABLE: &[&str] = &[
    "vecadd_ptx.fatbin",
    "vecadd_ptx_plain.fatbin",
    "vecadd_sm90.fatbin",
    "vecadd_sm90_all.fatbin",
    "vecadd_multi.fatbin",
];

/// `cuInit` with the driver reporting CUDA 13.0, once for the process,
/// then a new context current on this thread. The tests run one at a time
/// (the guard): every sample's `launches` lies at the same address, and a
/// copy reaches the newest module's (docs/libcuda.md, "Not yet").
fn setup() -> (Handle, MutexGuard<'static, ()>) {
    static INIT: Once = Once::new();
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    let guard = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    INIT.call_once(|| {
        std::env::set_var("PTX_LIBCUDA_DRIVER_VERSION", "13000");
        unsafe { ok("cuInit", cuda::cuInit(0)) };
    });
    (common::context(), guard)
}

/// The initialiser of `__constant__ float scale` in `vecadd_fatbin.cu`.
const SCALE: f32 = 0.5;

/// Runs `vecadd` over 1000 elements and checks `c[i] = SCALE * (a[i] +
/// b[i])` and that the launch counter went from 0 to 1.
fn run_vecadd(f: Handle, launches_at: CUdeviceptr) {
    let n = 1000usize;
    let scale = SCALE;
    let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..n).map(|i| (2 * i) as f32 + 0.25).collect();
    let bytes = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let (mut da, mut db) = (common::upload(&bytes(&a)), common::upload(&bytes(&b)));
    let mut dc = common::upload(&vec![0u8; 4 * n]);
    let mut count = n as i32;
    assert_eq!(common::download(launches_at, 4), [0; 4]);
    let mut params: Vec<*mut c_void> = vec![
        (&mut da as *mut u64).cast(),
        (&mut db as *mut u64).cast(),
        (&mut dc as *mut u64).cast(),
        (&mut count as *mut i32).cast(),
    ];
    ok(
        "cuLaunchKernel",
        common::launch(f, [4, 1, 1], [256, 1, 1], 0, &mut params),
    );
    unsafe { ok("cuCtxSynchronize", cuda::cuCtxSynchronize()) };
    let c = common::download(dc, 4 * n);
    for i in 0..n {
        let got = f32::from_le_bytes(c[4 * i..4 * i + 4].try_into().unwrap());
        assert_eq!(got, scale * (a[i] + b[i]), "element {i}");
    }
    let launches = common::download(launches_at, 4);
    assert_eq!(u32::from_le_bytes(launches.try_into().unwrap()), 1);
}

/// A module variable's address and size.
fn global(m: Handle, name: &str) -> (CUdeviceptr, usize) {
    let name = CString::new(name).unwrap();
    let (mut p, mut size) = (0, 0);
    unsafe {
        ok(
            "cuModuleGetGlobal",
            cuda::cuModuleGetGlobal_v2(&mut p, &mut size, m, name.as_ptr()),
        )
    };
    (p, size)
}

fn function(m: Handle, name: &str) -> Handle {
    let name = CString::new(name).unwrap();
    let mut f = null_mut();
    unsafe {
        ok(
            "cuModuleGetFunction",
            cuda::cuModuleGetFunction(&mut f, m, name.as_ptr()),
        )
    };
    f
}

#[test]
fn each_sample_loads_and_runs() {
    let _c = setup();
    for name in RUNNABLE {
        let image = sample(name);
        let mut m = null_mut();
        let r = unsafe { cuda::cuModuleLoadData(&mut m, image.as_ptr().cast()) };
        assert_eq!(r, CUDA_SUCCESS, "{name}");
        let (launches, size) = global(m, "launches");
        assert_eq!(size, 4, "{name}");
        // the `__constant__ float scale = 0.5f` of the source, from the host
        let (scale, size) = global(m, "scale");
        assert_eq!(size, 4, "{name}");
        let mut back = [0u8; 4];
        unsafe {
            ok(
                "cuMemcpyDtoH",
                cuda::cuMemcpyDtoH_v2(back.as_mut_ptr().cast(), scale, 4),
            )
        };
        assert_eq!(f32::from_le_bytes(back), 0.5, "{name}");
        run_vecadd(function(m, "vecadd"), launches);
        unsafe { ok("cuModuleUnload", cuda::cuModuleUnload(m)) };
    }
}

/// PTX text as tokens, without its `//` comments: nvcc embeds the text of
/// `nvcc -ptx` with comments blanked and tabs dropped.
fn tokens(text: &str) -> Vec<&str> {
    text.lines()
        .flat_map(|l| l.split("//").next().unwrap_or("").split_whitespace())
        .collect()
}

#[test]
fn the_embedded_ptx_is_what_nvcc_ptx_writes() {
    let ptx = String::from_utf8(sample("vecadd.ptx")).unwrap();
    for name in RUNNABLE {
        let text = fatbin::device_ptx(&sample(name)).unwrap();
        assert_eq!(tokens(&text), tokens(&ptx), "{name}");
    }
}

#[test]
fn the_highest_ptx_at_or_below_sm90_is_taken() {
    let entries = fatbin::entries(&sample("vecadd_multi.fatbin")).unwrap();
    let archs: Vec<u32> = entries.iter().map(|e| e.arch).collect();
    assert_eq!(archs, [80, 90, 100]);
    let text = fatbin::device_ptx(&sample("vecadd_multi.fatbin")).unwrap();
    assert!(text.contains(".target sm_90\n"), "{text}");
}

#[test]
fn the_runtime_wrapper_and_load_fat_binary() {
    let _c = setup();
    let image = sample("vecadd_ptx.fatbin");
    // __fatBinC_Wrapper_t: magic, version 1, the fat binary, no file name
    let mut wrapper = Vec::new();
    wrapper.extend(fatbin::WRAPPER_MAGIC.to_le_bytes());
    wrapper.extend(1u32.to_le_bytes());
    wrapper.extend((image.as_ptr() as u64).to_le_bytes());
    wrapper.extend(0u64.to_le_bytes());
    let mut m = null_mut();
    unsafe {
        ok(
            "cuModuleLoadFatBinary",
            cuda::cuModuleLoadFatBinary(&mut m, wrapper.as_ptr().cast()),
        )
    };
    let (launches, _) = global(m, "launches");
    run_vecadd(function(m, "vecadd"), launches);
    let mut m2 = null_mut();
    unsafe {
        ok(
            "cuModuleLoadDataEx",
            cuda::cuModuleLoadDataEx(&mut m2, wrapper.as_ptr().cast(), 0, null_mut(), null_mut()),
        )
    };
    // a wrapper that points nowhere
    wrapper[8..16].copy_from_slice(&0u64.to_le_bytes());
    assert_eq!(
        unsafe { cuda::cuModuleLoadFatBinary(&mut m, wrapper.as_ptr().cast()) },
        CUDA_ERROR_INVALID_IMAGE
    );
}

#[test]
fn libraries_kernels_and_their_functions() {
    let _c = setup();
    let image = sample("vecadd_sm90_all.fatbin");
    let mut lib = null_mut();
    unsafe {
        ok(
            "cuLibraryLoadData",
            cuda::cuLibraryLoadData(
                &mut lib,
                image.as_ptr().cast(),
                null_mut(),
                null_mut(),
                0,
                null_mut(),
                null_mut(),
                0,
            ),
        )
    };
    let name = CString::new("vecadd").unwrap();
    let (mut kernel, mut f, mut m) = (null_mut(), null_mut(), null_mut());
    unsafe {
        ok(
            "cuLibraryGetKernel",
            cuda::cuLibraryGetKernel(&mut kernel, lib, name.as_ptr()),
        );
        ok(
            "cuKernelGetFunction",
            cuda::cuKernelGetFunction(&mut f, kernel),
        );
        ok("cuLibraryGetModule", cuda::cuLibraryGetModule(&mut m, lib));
    }
    assert_eq!(f, function(m, "vecadd"));
    let launches = CString::new("launches").unwrap();
    let (mut p, mut size) = (0, 0);
    unsafe {
        ok(
            "cuLibraryGetGlobal",
            cuda::cuLibraryGetGlobal(&mut p, &mut size, lib, launches.as_ptr()),
        )
    };
    assert_eq!((p, size), global(m, "launches"));
    // the kernel handle itself launches, as a CUfunction would
    run_vecadd(kernel, p);
    let missing = CString::new("no_such_kernel").unwrap();
    unsafe {
        assert_eq!(
            cuda::cuLibraryGetKernel(&mut kernel, lib, missing.as_ptr()),
            CUDA_ERROR_NOT_FOUND
        );
        ok("cuLibraryUnload", cuda::cuLibraryUnload(lib));
        assert_eq!(cuda::cuLibraryUnload(lib), CUDA_ERROR_INVALID_HANDLE);
        assert_eq!(
            cuda::cuKernelGetFunction(&mut f, kernel),
            CUDA_ERROR_INVALID_HANDLE
        );
        assert_eq!(
            cuda::cuLibraryGetModule(&mut m, lib),
            CUDA_ERROR_INVALID_HANDLE
        );
    }
}

#[test]
fn the_entry_points_are_found_by_name() {
    for name in [
        "cuModuleLoadFatBinary",
        "cuLibraryLoadData",
        "cuLibraryUnload",
        "cuLibraryGetKernel",
        "cuKernelGetFunction",
        "cuLibraryGetModule",
        "cuLibraryGetGlobal",
    ] {
        assert!(cuda::procs::lookup(name, 13000).is_some(), "{name}");
    }
}

#[test]
fn cubins_are_no_binary_for_the_gpu() {
    let _c = setup();
    let mut m = null_mut();
    let image = sample("vecadd_elf.fatbin");
    assert_eq!(
        unsafe { cuda::cuModuleLoadData(&mut m, image.as_ptr().cast()) },
        CUDA_ERROR_NO_BINARY_FOR_GPU
    );
    match fatbin::device_ptx(&image) {
        Err(fatbin::FatbinError::NoPtx(why)) => {
            assert!(
                why.contains("ELF sm_90") && why.contains("PTX only"),
                "{why}"
            )
        }
        other => panic!("{other:?}"),
    }
}

/// The bytes of `image`'s header and entry headers, where a mutation
/// changes sizes, offsets, kinds and flags.
fn header_bytes(image: &[u8]) -> Vec<usize> {
    let mut at = Vec::from_iter(0..16);
    let mut o = u16::from_le_bytes([image[6], image[7]]) as usize;
    while o + 16 <= image.len() {
        let h = u32::from_le_bytes(image[o + 4..o + 8].try_into().unwrap()) as usize;
        let size = u64::from_le_bytes(image[o + 8..o + 16].try_into().unwrap()) as usize;
        at.extend(o..(o + h).min(image.len()));
        o += h + size;
    }
    at
}

#[test]
fn mutated_images_are_refused_not_crashed_on() {
    let allowed = [
        CUDA_SUCCESS,
        CUDA_ERROR_INVALID_IMAGE,
        CUDA_ERROR_NO_BINARY_FOR_GPU,
        CUDA_ERROR_INVALID_PTX,
        CUDA_ERROR_UNSUPPORTED_PTX_VERSION,
    ];
    for name in RUNNABLE.iter().chain(&["vecadd_elf.fatbin"]) {
        let image = sample(name);
        // every truncation: the parser sees only the bytes that are there
        for len in 0..image.len() {
            assert!(
                matches!(
                    fatbin::device_ptx(&image[..len]),
                    Err(fatbin::FatbinError::Invalid(_))
                ),
                "{name} cut to {len} bytes"
            );
        }
        // every header byte set to 0x00, 0x7f and 0xff, parsed; a PTX
        // result must be the text the intact image gives or a refusal
        for at in header_bytes(&image) {
            for v in [0x00, 0x7f, 0xff] {
                let mut bad = image.clone();
                bad[at] = v;
                if let Ok(text) = fatbin::device_ptx(&bad) {
                    assert!(text.contains(".entry vecadd"), "{name} byte {at} = {v:#x}");
                }
            }
        }
    }
    // through the entry point, with the image padded so that a size that
    // grew stays inside the buffer the test owns (the driver reads as many
    // bytes as the header says; a total past 1 GiB is refused unread, and
    // one byte of 0xff below the fourth of the size field gives at most
    // 16 MiB and some)
    let _c = setup();
    let image = sample("vecadd_ptx.fatbin");
    let mut bad = vec![0u8; 32 << 20];
    bad[..image.len()].copy_from_slice(&image);
    for at in header_bytes(&image) {
        for v in [0x00u8, 0x7f, 0xff] {
            bad[at] = v;
            let mut m = null_mut();
            let r = unsafe { cuda::cuModuleLoadData(&mut m, bad.as_ptr().cast()) };
            assert!(allowed.contains(&r), "byte {at} = {v:#x}: {r}");
            bad[at] = image[at];
        }
    }
    // sizes past the end: the entries' size, an entry's payload size
    let mut bad = image.clone();
    bad[8..16].copy_from_slice(&(image.len() as u64 * 2).to_le_bytes());
    assert!(matches!(
        fatbin::device_ptx(&bad),
        Err(fatbin::FatbinError::Invalid(_))
    ));
    let mut bad = image.clone();
    bad[24..32].copy_from_slice(&u64::MAX.to_le_bytes());
    let mut m = null_mut();
    assert_eq!(
        unsafe { cuda::cuModuleLoadData(&mut m, bad.as_ptr().cast()) },
        CUDA_ERROR_INVALID_IMAGE
    );
    // a compressed payload whose bytes are damaged
    let mut bad = image.clone();
    for b in &mut bad[100..140] {
        *b ^= 0x5a;
    }
    assert_eq!(
        unsafe { cuda::cuModuleLoadData(&mut m, bad.as_ptr().cast()) },
        CUDA_ERROR_INVALID_IMAGE
    );
}

#[test]
fn library_calls_with_wrong_handles_and_null_pointers() {
    let _c = setup();
    let image = sample("vecadd_ptx.fatbin");
    let mut m = null_mut();
    unsafe {
        ok(
            "cuModuleLoadData",
            cuda::cuModuleLoadData(&mut m, image.as_ptr().cast()),
        )
    };
    let f = function(m, "vecadd");
    let name = CString::new("vecadd").unwrap();
    let (mut out, mut p, mut size) = (null_mut(), 0u64, 0usize);
    // a module or a function is not a library; nor are values no object has
    for h in [null_mut(), 1 as Handle, m, f, usize::MAX as Handle] {
        unsafe {
            assert_eq!(
                cuda::cuLibraryGetKernel(&mut out, h, name.as_ptr()),
                CUDA_ERROR_INVALID_HANDLE
            );
            assert_eq!(
                cuda::cuLibraryGetModule(&mut out, h),
                CUDA_ERROR_INVALID_HANDLE
            );
            assert_eq!(
                cuda::cuLibraryGetGlobal(&mut p, &mut size, h, name.as_ptr()),
                CUDA_ERROR_INVALID_HANDLE
            );
            assert_eq!(cuda::cuLibraryUnload(h), CUDA_ERROR_INVALID_HANDLE);
        }
    }
    for h in [null_mut(), 1 as Handle, m, usize::MAX as Handle] {
        assert_eq!(
            unsafe { cuda::cuKernelGetFunction(&mut out, h) },
            CUDA_ERROR_INVALID_HANDLE
        );
    }
    unsafe {
        assert_eq!(
            cuda::cuKernelGetFunction(null_mut(), f),
            CUDA_ERROR_INVALID_VALUE
        );
        assert_eq!(
            cuda::cuModuleLoadFatBinary(&mut out, std::ptr::null()),
            CUDA_ERROR_INVALID_VALUE
        );
        assert_eq!(
            cuda::cuModuleLoadFatBinary(null_mut(), image.as_ptr().cast()),
            CUDA_ERROR_INVALID_VALUE
        );
        let load = |lib: *mut Handle, code: *const c_void, n: u32| {
            cuda::cuLibraryLoadData(
                lib,
                code,
                null_mut(),
                null_mut(),
                n,
                null_mut(),
                null_mut(),
                0,
            )
        };
        assert_eq!(
            load(null_mut(), image.as_ptr().cast(), 0),
            CUDA_ERROR_INVALID_VALUE
        );
        assert_eq!(
            load(&mut out, std::ptr::null(), 0),
            CUDA_ERROR_INVALID_VALUE
        );
        // options counted but not given
        assert_eq!(
            load(&mut out, image.as_ptr().cast(), 1),
            CUDA_ERROR_INVALID_VALUE
        );
    }
}

#[test]
fn fat_binary_files_and_files_shorter_than_their_header() {
    let _c = setup();
    let path = CString::new(format!("{DATA}vecadd_sm90_all.fatbin")).unwrap();
    let mut m = null_mut();
    unsafe { ok("cuModuleLoad", cuda::cuModuleLoad(&mut m, path.as_ptr())) };
    let (launches, _) = global(m, "launches");
    run_vecadd(function(m, "vecadd"), launches);
    // the same image cut short, and a wrapper, as files
    let dir = std::env::temp_dir().join(format!("ptx-libcuda-fatbin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let image = sample("vecadd_sm90_all.fatbin");
    let mut wrapper = fatbin::WRAPPER_MAGIC.to_le_bytes().to_vec();
    wrapper.extend([1, 0, 0, 0]);
    wrapper.extend((image.as_ptr() as u64).to_le_bytes());
    for (name, bytes) in [
        ("short.fatbin", &image[..image.len() - 8]),
        ("header.fatbin", &image[..12]),
        ("wrapper.bin", &wrapper[..]),
    ] {
        let file = dir.join(name);
        std::fs::write(&file, bytes).unwrap();
        let path = CString::new(file.to_str().unwrap()).unwrap();
        assert_eq!(
            unsafe { cuda::cuModuleLoad(&mut m, path.as_ptr()) },
            CUDA_ERROR_INVALID_IMAGE,
            "{name}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
