//! The JIT linker (`cuLink*`, PTX inputs), occupancy, pitched allocations,
//! the deprecated `cuDeviceGetProperties`, peers, the cache preference and
//! `cuGetExportTable`: expected values from the documented limits of the
//! device (computed here, not read from the library), and a linked module
//! run against sums computed in the test (`add.rn.f32`, as Rust's `+`).

mod common;

use common::*;
use cuda::types::*;
use std::ffi::{c_int, c_uint, c_void, CString};
use std::ptr::{null, null_mut};

/// The CTAs of `block` threads and `shared` bytes that fit one
/// multiprocessor of a compute capability 9.0 device: 2048 threads, 32
/// CTAs, 228 KiB of shared memory with 1 KiB reserved per CTA.
fn expected_ctas(block: u64, shared: u64) -> u64 {
    let warps = block.div_ceil(32);
    (2048 / (warps * 32))
        .min(32)
        .min((228 << 10) / (shared + 1024))
}

/// `cuLinkAddData` of `bytes` as an input of `CUjitInputType` `kind`.
unsafe fn add_input(link: Handle, kind: c_uint, bytes: &[u8]) -> CUresult {
    cuda::cuLinkAddData_v2(
        link,
        kind,
        bytes.as_ptr() as *mut c_void,
        bytes.len(),
        null(),
        0,
        null_mut(),
        null_mut(),
    )
}

/// `cuLinkAddData` of PTX text (`CU_JIT_INPUT_PTX`, NUL-terminated).
unsafe fn add_ptx(link: Handle, text: &str) -> CUresult {
    add_input(link, 1, CString::new(text).unwrap().as_bytes_with_nul())
}

/// The module the linker makes of `texts`, loaded; the link state is
/// destroyed once the module is loaded (the image may go then).
unsafe fn link_and_load(texts: &[&str]) -> Handle {
    let mut link = null_mut();
    ok(
        "cuLinkCreate",
        cuda::cuLinkCreate_v2(0, null_mut(), null_mut(), &mut link),
    );
    for t in texts {
        ok("cuLinkAddData", add_ptx(link, t));
    }
    let (mut image, mut size) = (null_mut(), 0usize);
    ok(
        "cuLinkComplete",
        cuda::cuLinkComplete(link, &mut image, &mut size),
    );
    assert!(size > 0);
    let mut m = null_mut();
    ok("cuModuleLoadData", cuda::cuModuleLoadData(&mut m, image));
    ok("cuLinkDestroy", cuda::cuLinkDestroy(link));
    m
}

#[test]
fn a_linked_ptx_module_runs() {
    let _c = context();
    unsafe {
        let m = link_and_load(&[&vecadd()]);
        let mut f = null_mut();
        let name = CString::new("vecadd").unwrap();
        ok(
            "cuModuleGetFunction",
            cuda::cuModuleGetFunction(&mut f, m, name.as_ptr()),
        );
        let n = 300u32;
        let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.75 + 1.0).collect();
        let b: Vec<f32> = (0..n).map(|i| (i ^ 0x55) as f32 / 3.0).collect();
        let bytes_of = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        let (mut pa, mut pb) = (upload(&bytes_of(&a)), upload(&bytes_of(&b)));
        let mut pc = upload(&vec![0u8; 4 * n as usize]);
        let mut count = n;
        let mut params = [
            (&mut pa as *mut u64).cast::<c_void>(),
            (&mut pb as *mut u64).cast(),
            (&mut pc as *mut u64).cast(),
            (&mut count as *mut u32).cast(),
        ];
        ok("launch", launch(f, [3, 1, 1], [128, 1, 1], 0, &mut params));
        let out = download(pc, 4 * n as usize);
        for i in 0..n as usize {
            let got = f32::from_le_bytes(out[4 * i..4 * i + 4].try_into().unwrap());
            assert_eq!(got.to_bits(), (a[i] + b[i]).to_bits(), "element {i}");
        }
    }
}

#[test]
fn the_linker_refuses_what_it_cannot_do() {
    let _c = context();
    unsafe {
        let mut link = null_mut();
        ok(
            "cuLinkCreate",
            cuda::cuLinkCreate_v2(0, null_mut(), null_mut(), &mut link),
        );
        let (mut image, mut size) = (null_mut(), 0usize);
        // nothing added
        assert_eq!(
            cuda::cuLinkComplete(link, &mut image, &mut size),
            CUDA_ERROR_INVALID_VALUE
        );
        // PTX that does not check
        let bad = format!("{HEADER}.entry k() {{ add.u32 %r1, 1; ret; }}");
        assert_eq!(add_ptx(link, &bad), CUDA_ERROR_INVALID_PTX);
        // a cubin
        let elf = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0";
        assert_eq!(add_input(link, 0, elf), CUDA_ERROR_NOT_SUPPORTED);
        // an input type past CUDA 13.0's
        assert_eq!(add_input(link, 99, elf), CUDA_ERROR_INVALID_VALUE);
        for _ in 0..2 {
            ok("cuLinkAddData", add_ptx(link, &vecadd()));
        }
        // two definitions of `vecadd`
        assert_eq!(
            cuda::cuLinkComplete(link, &mut image, &mut size),
            CUDA_ERROR_INVALID_IMAGE
        );
        let missing = CString::new("/nonexistent/k.ptx").unwrap();
        assert_eq!(
            cuda::cuLinkAddFile_v2(link, 1, missing.as_ptr(), 0, null_mut(), null_mut()),
            CUDA_ERROR_FILE_NOT_FOUND
        );
        ok("cuLinkDestroy", cuda::cuLinkDestroy(link));
        assert_eq!(cuda::cuLinkDestroy(link), CUDA_ERROR_INVALID_HANDLE);
        assert_eq!(
            cuda::cuLinkComplete(link, &mut image, &mut size),
            CUDA_ERROR_INVALID_HANDLE
        );
    }
}

#[test]
fn occupancy_follows_the_device_limits() {
    let _c = context();
    let shared_kernel = format!(
        "{HEADER}.entry k(.param .u64 p)\n{{\n.shared .align 4 .b8 buf[20000];\n.reg .u32 %r<2>;\nmov.u32 %r1, buf;\nst.shared.u32 [%r1], %r1;\nret;\n}}\n"
    );
    let (_m, plain) = kernel(&vecadd(), "vecadd");
    let (_m2, shared) = kernel(&shared_kernel, "k");
    unsafe {
        for (f, static_shared) in [(plain, 0u64), (shared, 20000)] {
            for (block, dynamic) in [
                (32, 0),
                (100, 0),
                (256, 0),
                (1024, 0),
                (128, 30000),
                (64, 200 << 10),
            ] {
                let mut n: c_int = -1;
                ok(
                    "cuOccupancyMaxActiveBlocksPerMultiprocessor",
                    cuda::cuOccupancyMaxActiveBlocksPerMultiprocessor(&mut n, f, block, dynamic),
                );
                let total = static_shared + dynamic as u64;
                let want = if total > 227 << 10 {
                    0
                } else {
                    expected_ctas(block as u64, total)
                };
                assert_eq!(n as u64, want, "block {block}, shared {total}");
            }
            // the best block size: the most threads per multiprocessor,
            // the largest such size
            let (mut grid, mut block): (c_int, c_int) = (0, 0);
            ok(
                "cuOccupancyMaxPotentialBlockSize",
                cuda::cuOccupancyMaxPotentialBlockSize(&mut grid, &mut block, f, None, 0, 0),
            );
            let best = (1..=32u64)
                .map(|w| (w * 32 * expected_ctas(w * 32, static_shared), w * 32))
                .max()
                .unwrap();
            assert_eq!(block as u64, best.1);
            assert_eq!(grid as u64, 132 * expected_ctas(best.1, static_shared));
            // a limit on the block size
            ok(
                "cuOccupancyMaxPotentialBlockSize",
                cuda::cuOccupancyMaxPotentialBlockSize(&mut grid, &mut block, f, None, 0, 96),
            );
            assert!(block <= 96 && block > 0);
        }
        // the callback gives each block size its dynamic shared memory
        unsafe extern "C" fn per_thread(block: c_int) -> usize {
            block as usize * 200
        }
        let (mut grid, mut block): (c_int, c_int) = (0, 0);
        ok(
            "cuOccupancyMaxPotentialBlockSize",
            cuda::cuOccupancyMaxPotentialBlockSize(
                &mut grid,
                &mut block,
                plain,
                Some(per_thread),
                0,
                0,
            ),
        );
        let best = (1..=32u64)
            .map(|w| {
                let b = w * 32;
                let shared = b * 200;
                let n = if shared > 227 << 10 {
                    0
                } else {
                    expected_ctas(b, shared)
                };
                (b * n, b)
            })
            .max()
            .unwrap();
        assert_eq!(block as u64, best.1);
        let mut room = 0usize;
        ok(
            "cuOccupancyAvailableDynamicSMemPerBlock",
            cuda::cuOccupancyAvailableDynamicSMemPerBlock(&mut room, shared, 2, 128),
        );
        assert_eq!(room as u64, (228u64 << 10) / 2 - 1024 - 20000);
        let mut n = 0;
        assert_eq!(
            cuda::cuOccupancyMaxActiveBlocksPerMultiprocessor(&mut n, null_mut(), 32, 0),
            CUDA_ERROR_INVALID_HANDLE
        );
        assert_eq!(
            cuda::cuOccupancyMaxPotentialBlockSize(null_mut(), &mut block, plain, None, 0, 0),
            CUDA_ERROR_INVALID_VALUE
        );
    }
}

#[test]
fn pitch_properties_peers_cache_and_export_tables() {
    let _c = context();
    unsafe {
        let (mut p, mut pitch) = (0u64, 0usize);
        ok(
            "cuMemAllocPitch",
            cuda::cuMemAllocPitch_v2(&mut p, &mut pitch, 1000, 3, 4),
        );
        assert_eq!(pitch, 1024);
        // the whole pitched region is one allocation
        let mut base = 0u64;
        let mut size = 0usize;
        ok(
            "cuMemGetAddressRange",
            cuda::cuMemGetAddressRange_v2(&mut base, &mut size, p + 2 * 1024 + 999),
        );
        assert_eq!((base, size), (p, 3 * 1024));
        assert_eq!(
            cuda::cuMemAllocPitch_v2(&mut p, &mut pitch, 1000, 3, 3),
            CUDA_ERROR_INVALID_VALUE
        );
        assert_eq!(
            cuda::cuMemAllocPitch_v2(&mut p, &mut pitch, 0, 3, 4),
            CUDA_ERROR_INVALID_VALUE
        );

        let mut prop: cuda::CUdevprop = std::mem::zeroed();
        ok(
            "cuDeviceGetProperties",
            cuda::cuDeviceGetProperties(&mut prop, 0),
        );
        let attr = |a: c_int| {
            let mut v = 0;
            ok(
                "cuDeviceGetAttribute",
                cuda::cuDeviceGetAttribute(&mut v, a, 0),
            );
            v
        };
        // CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK (1), MAX_BLOCK_DIM_Z (4),
        // MAX_GRID_DIM_X (5), WARP_SIZE (10), TEXTURE_ALIGNMENT (14)
        assert_eq!(prop.max_threads_per_block, attr(1));
        assert_eq!(prop.max_threads_dim[2], attr(4));
        assert_eq!(prop.max_grid_size[0], attr(5));
        assert_eq!(prop.simd_width, attr(10));
        assert_eq!(prop.texture_align, attr(14));
        assert_eq!(
            cuda::cuDeviceGetProperties(&mut prop, 1),
            CUDA_ERROR_INVALID_DEVICE
        );

        let mut can = -1;
        ok(
            "cuDeviceCanAccessPeer",
            cuda::cuDeviceCanAccessPeer(&mut can, 0, 0),
        );
        assert_eq!(can, 0);
        assert_eq!(
            cuda::cuDeviceCanAccessPeer(&mut can, 0, 1),
            CUDA_ERROR_INVALID_DEVICE
        );

        let mut config: c_uint = 9;
        ok(
            "cuCtxGetCacheConfig",
            cuda::cuCtxGetCacheConfig(&mut config),
        );
        assert_eq!(config, 0);
        ok("cuCtxSetCacheConfig", cuda::cuCtxSetCacheConfig(2));
        ok(
            "cuCtxGetCacheConfig",
            cuda::cuCtxGetCacheConfig(&mut config),
        );
        assert_eq!(config, 2);
        assert_eq!(cuda::cuCtxSetCacheConfig(4), CUDA_ERROR_INVALID_VALUE);

        let mut table: *const c_void = std::ptr::dangling::<c_void>();
        let id = [0x11u8; 16];
        assert_eq!(
            cuda::cuGetExportTable(&mut table, &id),
            CUDA_ERROR_NOT_SUPPORTED
        );
        assert!(table.is_null());
        assert_eq!(
            cuda::cuGetExportTable(null_mut(), &id),
            CUDA_ERROR_INVALID_VALUE
        );
    }
}

#[test]
fn the_new_entry_points_are_found_by_name() {
    for name in [
        "cuLinkCreate",
        "cuLinkAddData",
        "cuLinkAddFile",
        "cuLinkComplete",
        "cuLinkDestroy",
        "cuOccupancyMaxPotentialBlockSize",
        "cuOccupancyMaxActiveBlocksPerMultiprocessor",
        "cuOccupancyAvailableDynamicSMemPerBlock",
        "cuMemAllocPitch",
        "cuDeviceGetProperties",
        "cuDeviceCanAccessPeer",
        "cuCtxGetCacheConfig",
        "cuGetExportTable",
    ] {
        let c = CString::new(name).unwrap();
        let mut p = null_mut();
        let r = unsafe { cuda::cuGetProcAddress(c.as_ptr(), &mut p, 13000, 0) };
        assert_eq!(r, CUDA_SUCCESS, "{name}");
        assert!(!p.is_null(), "{name}");
    }
}

/// The pre-4.0 launch calls: parameters set byte by byte at their offsets
/// (`a`, `b`, `c` at 0, 8, 16, `n` at 24), the block shape on the function,
/// `cuLaunchGrid`; sums checked against Rust's `+`. Without a block shape,
/// or with parameters that do not cover the kernel's, the launch is
/// refused.
#[test]
fn the_pre_4_0_launch_calls_run_a_kernel() {
    let _c = context();
    let (_m, f) = kernel(&vecadd(), "vecadd");
    let n = 200u32;
    let a: Vec<f32> = (0..n).map(|i| i as f32 * 1.5).collect();
    let b: Vec<f32> = (0..n).map(|i| 100.0 - i as f32 / 7.0).collect();
    let bytes_of = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let (pa, pb) = (upload(&bytes_of(&a)), upload(&bytes_of(&b)));
    let pc = upload(&vec![0u8; 4 * n as usize]);
    unsafe {
        // no block shape yet
        assert_eq!(cuda::cuLaunchGrid(f, 1, 1), CUDA_ERROR_INVALID_VALUE);
        for (off, p) in [(0, pa), (8, pb), (16, pc)] {
            let mut v = p;
            ok(
                "cuParamSetv",
                cuda::cuParamSetv(f, off, (&mut v as *mut u64).cast(), 8),
            );
        }
        ok(
            "cuFuncSetBlockShape",
            cuda::cuFuncSetBlockShape(f, 64, 1, 1),
        );
        // `n` not set yet: the bytes end at 24
        ok("cuParamSetSize", cuda::cuParamSetSize(f, 24));
        assert_eq!(cuda::cuLaunchGrid(f, 4, 1), CUDA_ERROR_INVALID_VALUE);
        ok("cuParamSeti", cuda::cuParamSeti(f, 24, n));
        ok("cuParamSetSize", cuda::cuParamSetSize(f, 28));
        ok("cuLaunchGrid", cuda::cuLaunchGrid(f, 4, 1));
        ok("cuCtxSynchronize", cuda::cuCtxSynchronize());
        assert_eq!(
            cuda::cuParamSeti(std::ptr::null_mut(), 0, 1),
            CUDA_ERROR_INVALID_HANDLE
        );
        assert_eq!(cuda::cuParamSeti(f, 4094, 1), CUDA_ERROR_INVALID_VALUE);
        assert_eq!(
            cuda::cuFuncSetBlockShape(f, 0, 1, 1),
            CUDA_ERROR_INVALID_VALUE
        );
    }
    let out = download(pc, 4 * n as usize);
    for i in 0..n as usize {
        let got = f32::from_le_bytes(out[4 * i..4 * i + 4].try_into().unwrap());
        assert_eq!(got.to_bits(), (a[i] + b[i]).to_bits(), "element {i}");
    }
}

/// Two PTX inputs linked into one module: the kernel of the second calls
/// a device function the first defines (declared `.extern` in the second);
/// the kernel runs and writes `f(i) = 3 * i + 1`, computed in the test.
#[test]
fn two_ptx_inputs_link_into_one_module() {
    let _c = context();
    let lib = format!(
        "{HEADER}.visible .func (.param .b32 r) triple_plus_one(.param .b32 x)\n{{\n  .reg .b32 %t<3>;\n  ld.param.b32 %t1, [x];\n  mad.lo.s32 %t2, %t1, 3, 1;\n  st.param.b32 [r], %t2;\n  ret;\n}}\n"
    );
    let app = format!(
        "{HEADER}.extern .func (.param .b32 r) triple_plus_one(.param .b32 x);\n.visible .entry k(.param .u64 out)\n{{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  {{\n  .param .b32 a;\n  .param .b32 b;\n  st.param.b32 [a], %r1;\n  call (b), triple_plus_one, (a);\n  ld.param.b32 %r2, [b];\n  }}\n  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r2;\n  ret;\n}}\n"
    );
    unsafe {
        let m = link_and_load(&[&lib, &app]);
        let mut f = null_mut();
        let name = CString::new("k").unwrap();
        ok(
            "cuModuleGetFunction",
            cuda::cuModuleGetFunction(&mut f, m, name.as_ptr()),
        );
        let mut out = upload(&[0u8; 4 * 64]);
        let mut params = [(&mut out as *mut u64).cast::<c_void>()];
        ok("launch", launch(f, [1, 1, 1], [64, 1, 1], 0, &mut params));
        let got = download(out, 4 * 64);
        for i in 0..64u32 {
            let v = u32::from_le_bytes(got[4 * i as usize..4 * i as usize + 4].try_into().unwrap());
            assert_eq!(v, 3 * i + 1, "thread {i}");
        }
    }
}

static CALLS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
static LAST_STATUS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(u32::MAX);

unsafe extern "C" fn on_stream(_s: Handle, status: CUresult, user: *mut c_void) {
    LAST_STATUS.store(status, std::sync::atomic::Ordering::SeqCst);
    CALLS.fetch_add(*(user as *const u32), std::sync::atomic::Ordering::SeqCst);
}

unsafe extern "C" fn on_host(user: *mut c_void) {
    CALLS.fetch_add(*(user as *const u32), std::sync::atomic::Ordering::SeqCst);
}

/// Stream queries, stream callbacks and host functions: work runs when it
/// is issued, so a callback runs at once with the stream's status, which
/// is the fault of an earlier launch once one stopped a thread.
#[test]
fn streams_answer_queries_and_run_callbacks() {
    use std::sync::atomic::Ordering::SeqCst;
    let c = context();
    unsafe {
        let mut s = null_mut();
        ok("cuStreamCreate", cuda::cuStreamCreate(&mut s, 1));
        let (mut flags, mut prio, mut ctx): (c_uint, c_int, Handle) = (9, 9, null_mut());
        ok("cuStreamGetFlags", cuda::cuStreamGetFlags(s, &mut flags));
        ok(
            "cuStreamGetPriority",
            cuda::cuStreamGetPriority(s, &mut prio),
        );
        ok("cuStreamGetCtx", cuda::cuStreamGetCtx(s, &mut ctx));
        assert_eq!((flags, prio, ctx), (1, 0, c));
        ok(
            "cuStreamGetFlags",
            cuda::cuStreamGetFlags(null_mut(), &mut flags),
        );
        assert_eq!(flags, 0);
        let mut one = 1u32;
        let mut ten = 10u32;
        ok(
            "cuStreamAddCallback",
            cuda::cuStreamAddCallback(s, Some(on_stream), (&mut one as *mut u32).cast(), 0),
        );
        assert_eq!(
            (CALLS.load(SeqCst), LAST_STATUS.load(SeqCst)),
            (1, CUDA_SUCCESS)
        );
        ok(
            "cuLaunchHostFunc",
            cuda::cuLaunchHostFunc(s, Some(on_host), (&mut ten as *mut u32).cast()),
        );
        assert_eq!(CALLS.load(SeqCst), 11);
        assert_eq!(
            cuda::cuStreamAddCallback(s, Some(on_stream), null_mut(), 1),
            CUDA_ERROR_INVALID_VALUE
        );
        assert_eq!(
            cuda::cuStreamAddCallback(s, None, null_mut(), 0),
            CUDA_ERROR_INVALID_VALUE
        );
        assert_eq!(
            cuda::cuLaunchHostFunc(0x10 as Handle, Some(on_host), null_mut()),
            CUDA_ERROR_INVALID_HANDLE
        );
        assert_eq!(cuda::cuStreamCreate(&mut s, 2), CUDA_ERROR_INVALID_VALUE);
        // a kernel that traps: the callback sees the fault
        let (_m, f) = kernel(&one_pointer("t", "    trap;"), "t");
        let mut p = upload(&[0u8; 4]);
        let mut params = [(&mut p as *mut u64).cast::<c_void>()];
        ok("launch", launch(f, [1, 1, 1], [1, 1, 1], 0, &mut params));
        ok(
            "cuStreamAddCallback",
            cuda::cuStreamAddCallback(s, Some(on_stream), (&mut one as *mut u32).cast(), 0),
        );
        assert_eq!(LAST_STATUS.load(SeqCst), CUDA_ERROR_ILLEGAL_INSTRUCTION);
        assert_eq!(CALLS.load(SeqCst), 12);
    }
}

/// A module's kernels listed in declaration order, their names and module,
/// the library calls over them, and kernel attributes on device 0.
#[test]
fn kernels_are_listed_and_named() {
    let _c = context();
    let src = format!(
        "{HEADER}.visible .entry first() {{ ret; }}\n.visible .func helper() {{ ret; }}\n.visible .entry second(.param .u64 p) {{ ret; }}\n"
    );
    let (m, _) = kernel(&src, "second");
    unsafe {
        let mut n: c_uint = 0;
        ok(
            "cuModuleGetFunctionCount",
            cuda::cuModuleGetFunctionCount(&mut n, m),
        );
        assert_eq!(n, 2);
        let mut fs = [null_mut(); 3];
        ok(
            "cuModuleEnumerateFunctions",
            cuda::cuModuleEnumerateFunctions(fs.as_mut_ptr(), 2, m),
        );
        assert!(fs[2].is_null(), "only two written");
        let mut names = Vec::new();
        for f in &fs[..2] {
            let mut p: *const std::ffi::c_char = null();
            ok("cuFuncGetName", cuda::cuFuncGetName(&mut p, *f));
            names.push(std::ffi::CStr::from_ptr(p).to_str().unwrap().to_string());
            let mut owner = null_mut();
            ok("cuFuncGetModule", cuda::cuFuncGetModule(&mut owner, *f));
            assert_eq!(owner, m);
        }
        assert_eq!(names, ["first", "second"]);
        let mut threads = 0;
        // CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK (0)
        ok(
            "cuKernelGetAttribute",
            cuda::cuKernelGetAttribute(&mut threads, 0, fs[1], 0),
        );
        assert_eq!(threads, 1024);
        assert_eq!(
            cuda::cuKernelGetAttribute(&mut threads, 0, fs[1], 1),
            CUDA_ERROR_INVALID_DEVICE
        );
        assert_eq!(
            cuda::cuModuleGetFunctionCount(&mut n, 0x10 as Handle),
            CUDA_ERROR_INVALID_HANDLE
        );
        assert_eq!(
            cuda::cuFuncGetName(null_mut(), fs[0]),
            CUDA_ERROR_INVALID_VALUE
        );
    }
}
