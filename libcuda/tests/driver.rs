//! The entry points called directly (the rlib): a kernel's results against
//! values computed here, and the error codes the driver API documents for
//! bad input.

mod common;

use common::*;
use cuda::types::*;
use std::ffi::{c_void, CString};
use std::ptr::{null, null_mut};

#[test]
fn vecadd_computes_what_the_host_computes() {
    let _c = context();
    let (_m, f) = kernel(&vecadd(), "vecadd");
    let n = 250usize;
    let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5 - 17.25).collect();
    let b: Vec<f32> = (0..n).map(|i| 1.0 / (i as f32 + 1.0)).collect();
    let bytes = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let (mut pa, mut pb) = (upload(&bytes(&a)), upload(&bytes(&b)));
    let mut pc = upload(&vec![0u8; 4 * n]);
    let mut count = n as u32;
    let mut params: Vec<*mut c_void> = vec![
        (&mut pa as *mut u64).cast(),
        (&mut pb as *mut u64).cast(),
        (&mut pc as *mut u64).cast(),
        (&mut count as *mut u32).cast(),
    ];
    ok(
        "cuLaunchKernel",
        launch(f, [4, 1, 1], [64, 1, 1], 0, &mut params),
    );
    unsafe { ok("cuCtxSynchronize", cuda::cuCtxSynchronize()) };
    let out = download(pc, 4 * n);
    for i in 0..n {
        let got = f32::from_le_bytes(out[4 * i..4 * i + 4].try_into().unwrap());
        assert_eq!(got.to_bits(), (a[i] + b[i]).to_bits(), "element {i}");
    }
}

#[test]
fn parameters_through_the_extra_buffer() {
    let _c = context();
    let (_m, f) = kernel(&vecadd(), "vecadd");
    let a = upload(&3.0f32.to_le_bytes());
    let b = upload(&4.5f32.to_le_bytes());
    let c = upload(&[0; 4]);
    // a, b, c at 0, 8, 16; n at 24
    let mut buffer = Vec::new();
    for p in [a, b, c] {
        buffer.extend_from_slice(&p.to_le_bytes());
    }
    buffer.extend_from_slice(&1u32.to_le_bytes());
    let mut size = buffer.len();
    let mut extra: [*mut c_void; 5] = [
        launch_param::BUFFER_POINTER as *mut c_void,
        buffer.as_mut_ptr().cast(),
        launch_param::BUFFER_SIZE as *mut c_void,
        (&mut size as *mut usize).cast(),
        null_mut(),
    ];
    let r = unsafe {
        cuda::cuLaunchKernel(
            f,
            1,
            1,
            1,
            32,
            1,
            1,
            0,
            null_mut(),
            null_mut(),
            extra.as_mut_ptr(),
        )
    };
    ok("cuLaunchKernel (extra)", r);
    assert_eq!(download(c, 4), 7.5f32.to_le_bytes());
}

#[test]
fn bad_launches_are_refused() {
    let _c = context();
    let (_m, f) = kernel(&vecadd(), "vecadd");
    let p = upload(&[0; 16]);
    let (mut a, mut n) = (p, 0u32);
    let mut params: Vec<*mut c_void> = vec![
        (&mut a as *mut u64).cast(),
        (&mut a as *mut u64).cast(),
        (&mut a as *mut u64).cast(),
        (&mut n as *mut u32).cast(),
    ];
    for (grid, block) in [
        ([1, 1, 1], [1025, 1, 1]),
        ([1, 1, 1], [32, 32, 2]),
        ([1, 1, 1], [1, 1, 65]),
        ([0, 1, 1], [32, 1, 1]),
        ([1, 65536, 1], [32, 1, 1]),
        ([1, 1, 1], [0, 1, 1]),
    ] {
        assert_eq!(
            launch(f, grid, block, 0, &mut params),
            CUDA_ERROR_INVALID_VALUE,
            "{grid:?} {block:?}"
        );
    }
    // more dynamic shared memory than 48 KiB, not opted in; and past 227 KiB
    assert_eq!(
        launch(f, [1; 3], [32, 1, 1], 48 << 10 | 4, &mut params),
        CUDA_ERROR_INVALID_VALUE
    );
    unsafe {
        ok(
            "cuFuncSetAttribute",
            cuda::cuFuncSetAttribute(f, func_attr::MAX_DYNAMIC_SHARED_SIZE_BYTES, 100 << 10),
        );
        assert_eq!(
            cuda::cuFuncSetAttribute(f, func_attr::MAX_DYNAMIC_SHARED_SIZE_BYTES, (227 << 10) + 1),
            CUDA_ERROR_INVALID_VALUE
        );
        let mut v = 0;
        ok(
            "cuFuncGetAttribute",
            cuda::cuFuncGetAttribute(&mut v, func_attr::MAX_DYNAMIC_SHARED_SIZE_BYTES, f),
        );
        assert_eq!(v, 100 << 10);
    }
    ok(
        "launch with opted-in shared memory",
        launch(f, [1; 3], [32, 1, 1], 64 << 10, &mut params),
    );
    assert_eq!(
        launch(f, [1; 3], [32, 1, 1], 101 << 10, &mut params),
        CUDA_ERROR_INVALID_VALUE
    );
    // no parameters for a kernel that has some
    assert_eq!(launch_no_params(f), CUDA_ERROR_INVALID_VALUE);
    // a function handle that is not one
    assert_eq!(
        launch(0x1234 as Handle, [1; 3], [1; 3], 0, &mut params),
        CUDA_ERROR_INVALID_HANDLE
    );
}

fn launch_no_params(f: Handle) -> CUresult {
    unsafe { cuda::cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, null_mut(), null_mut(), null_mut()) }
}

#[test]
fn bad_handles_and_pointers() {
    let _c = context();
    unsafe {
        let mut f = null_mut();
        let name = CString::new("vecadd").unwrap();
        assert_eq!(
            cuda::cuModuleGetFunction(&mut f, 0x999 as Handle, name.as_ptr()),
            CUDA_ERROR_INVALID_HANDLE
        );
        let (m, _) = kernel(&vecadd(), "vecadd");
        let missing = CString::new("nope").unwrap();
        assert_eq!(
            cuda::cuModuleGetFunction(&mut f, m, missing.as_ptr()),
            CUDA_ERROR_NOT_FOUND
        );
        assert_eq!(
            cuda::cuModuleGetFunction(null_mut(), m, name.as_ptr()),
            CUDA_ERROR_INVALID_VALUE
        );
        assert_eq!(
            cuda::cuModuleGetFunction(&mut f, m, null()),
            CUDA_ERROR_INVALID_VALUE
        );
        ok("cuModuleUnload", cuda::cuModuleUnload(m));
        assert_eq!(cuda::cuModuleUnload(m), CUDA_ERROR_INVALID_HANDLE);

        assert_eq!(
            cuda::cuMemAlloc_v2(null_mut(), 16),
            CUDA_ERROR_INVALID_VALUE
        );
        let mut p = 0;
        assert_eq!(cuda::cuMemAlloc_v2(&mut p, 0), CUDA_ERROR_INVALID_VALUE);
        ok("cuMemAlloc", cuda::cuMemAlloc_v2(&mut p, 64));
        ok("cuMemFree", cuda::cuMemFree_v2(p));
        assert_eq!(
            cuda::cuMemFree_v2(p),
            CUDA_ERROR_INVALID_VALUE,
            "double free"
        );
        assert_eq!(cuda::cuMemFree_v2(p + 8), CUDA_ERROR_INVALID_VALUE);
        // copies outside every allocation, or across its end
        let q = upload(&[1, 2, 3, 4]);
        let mut buf = [0u8; 8];
        assert_eq!(
            cuda::cuMemcpyDtoH_v2(buf.as_mut_ptr().cast(), q, 8),
            CUDA_ERROR_INVALID_VALUE
        );
        assert_eq!(
            cuda::cuMemcpyDtoH_v2(buf.as_mut_ptr().cast(), p, 4),
            CUDA_ERROR_INVALID_VALUE
        );
        assert_eq!(
            cuda::cuMemcpyDtoH_v2(null_mut(), q, 4),
            CUDA_ERROR_INVALID_VALUE
        );
        assert_eq!(
            cuda::cuMemcpyHtoD_v2(q, null(), 4),
            CUDA_ERROR_INVALID_VALUE
        );
        assert_eq!(
            cuda::cuMemsetD32_v2(q + 1, 0, 1),
            CUDA_ERROR_INVALID_VALUE,
            "misaligned memset"
        );
        ok("cuMemsetD16", cuda::cuMemsetD16_v2(q, 0xbeef, 2));
        assert_eq!(download(q, 4), [0xef, 0xbe, 0xef, 0xbe]);

        let mut s = null_mut();
        ok("cuStreamCreate", cuda::cuStreamCreate(&mut s, 0));
        ok("cuStreamDestroy", cuda::cuStreamDestroy_v2(s));
        assert_eq!(cuda::cuStreamDestroy_v2(s), CUDA_ERROR_INVALID_HANDLE);
        assert_eq!(cuda::cuStreamSynchronize(s), CUDA_ERROR_INVALID_HANDLE);
        let mut e = null_mut();
        ok("cuEventCreate", cuda::cuEventCreate(&mut e, 0));
        let mut ms = 0f32;
        assert_eq!(
            cuda::cuEventElapsedTime(&mut ms, e, e),
            CUDA_ERROR_INVALID_HANDLE,
            "unrecorded"
        );
        ok("cuEventRecord", cuda::cuEventRecord(e, null_mut()));
        ok(
            "cuEventElapsedTime",
            cuda::cuEventElapsedTime(&mut ms, e, e),
        );
        assert_eq!(ms, 0.0);
        ok("cuEventDestroy", cuda::cuEventDestroy_v2(e));
        assert_eq!(cuda::cuEventQuery(e), CUDA_ERROR_INVALID_HANDLE);
        assert_eq!(
            cuda::cuCtxDestroy_v2(0x777 as Handle),
            CUDA_ERROR_INVALID_CONTEXT
        );
        let mut dev = 0;
        assert_eq!(cuda::cuDeviceGet(&mut dev, 1), CUDA_ERROR_INVALID_DEVICE);
    }
}

#[test]
fn a_thread_without_a_context_is_refused() {
    unsafe { ok("cuInit", cuda::cuInit(0)) };
    let r = std::thread::spawn(|| unsafe {
        let mut p = 0;
        let alloc = cuda::cuMemAlloc_v2(&mut p, 16);
        let sync = cuda::cuCtxSynchronize();
        let mut c = 0x55 as Handle;
        let current = cuda::cuCtxGetCurrent(&mut c);
        (alloc, sync, current, c.is_null())
    })
    .join()
    .unwrap();
    assert_eq!(
        r,
        (
            CUDA_ERROR_INVALID_CONTEXT,
            CUDA_ERROR_INVALID_CONTEXT,
            CUDA_SUCCESS,
            true
        )
    );
}

#[test]
fn context_stack_and_primary_context() {
    let c = context();
    unsafe {
        let mut p = null_mut();
        ok(
            "cuDevicePrimaryCtxRetain",
            cuda::cuDevicePrimaryCtxRetain(&mut p, 0),
        );
        ok("cuCtxPushCurrent", cuda::cuCtxPushCurrent_v2(p));
        let mut cur = null_mut();
        ok("cuCtxGetCurrent", cuda::cuCtxGetCurrent(&mut cur));
        assert_eq!(cur, p);
        assert_eq!(
            cuda::cuCtxDestroy_v2(p),
            CUDA_ERROR_INVALID_CONTEXT,
            "the primary context"
        );
        let mut popped = null_mut();
        ok("cuCtxPopCurrent", cuda::cuCtxPopCurrent_v2(&mut popped));
        assert_eq!(popped, p);
        ok("cuCtxGetCurrent", cuda::cuCtxGetCurrent(&mut cur));
        assert_eq!(cur, c);
        ok(
            "cuDevicePrimaryCtxRelease",
            cuda::cuDevicePrimaryCtxRelease_v2(0),
        );
        ok("cuCtxDestroy", cuda::cuCtxDestroy_v2(c));
        let mut q = 0;
        assert_eq!(
            cuda::cuMemAlloc_v2(&mut q, 4),
            CUDA_ERROR_INVALID_CONTEXT,
            "destroyed context"
        );
        assert_eq!(cuda::cuCtxSetCurrent(c), CUDA_ERROR_INVALID_CONTEXT);
    }
}

#[test]
fn device_attributes_describe_compute_capability_9_0() {
    unsafe { ok("cuInit", cuda::cuInit(0)) };
    let get = |a: i32| {
        let mut v = -1;
        unsafe {
            ok(
                "cuDeviceGetAttribute",
                cuda::cuDeviceGetAttribute(&mut v, a, 0),
            )
        };
        v
    };
    assert_eq!(
        (
            get(attr::COMPUTE_CAPABILITY_MAJOR),
            get(attr::COMPUTE_CAPABILITY_MINOR)
        ),
        (9, 0)
    );
    assert_eq!(get(attr::WARP_SIZE), 32);
    assert_eq!(get(attr::MAX_THREADS_PER_BLOCK), 1024);
    assert_eq!(
        [
            get(attr::MAX_BLOCK_DIM_X),
            get(attr::MAX_BLOCK_DIM_Y),
            get(attr::MAX_BLOCK_DIM_Z)
        ],
        [1024, 1024, 64]
    );
    assert_eq!(get(attr::MAX_GRID_DIM_X), i32::MAX);
    assert_eq!(get(attr::MAX_SHARED_MEMORY_PER_BLOCK), 48 * 1024);
    assert_eq!(get(attr::MAX_SHARED_MEMORY_PER_BLOCK_OPTIN), 227 * 1024);
    assert_eq!(get(attr::CLUSTER_LAUNCH), 1);
    let mut v = 0;
    assert_eq!(
        unsafe { cuda::cuDeviceGetAttribute(&mut v, 100_000, 0) },
        CUDA_ERROR_INVALID_VALUE
    );
    let mut name = [0i8; 128];
    unsafe {
        ok(
            "cuDeviceGetName",
            cuda::cuDeviceGetName(name.as_mut_ptr(), 128, 0),
        )
    };
    let name = unsafe { std::ffi::CStr::from_ptr(name.as_ptr()) }
        .to_string_lossy()
        .into_owned();
    assert!(name.contains("simulator"), "{name}");
    let mut version = 0;
    unsafe { ok("cuDriverGetVersion", cuda::cuDriverGetVersion(&mut version)) };
    assert_eq!(version, 12080);
}

#[test]
fn get_proc_address_finds_the_versioned_functions() {
    let find = |name: &str, version: i32| {
        let s = CString::new(name).unwrap();
        let mut p: *mut c_void = std::ptr::dangling_mut();
        let r = unsafe { cuda::cuGetProcAddress(s.as_ptr(), &mut p, version, 0) };
        (r, p)
    };
    assert_eq!(
        find("cuMemAlloc", 12000),
        (CUDA_SUCCESS, cuda::cuMemAlloc_v2 as *mut c_void)
    );
    assert_eq!(
        find("cuMemAlloc_v2", 12000),
        (CUDA_SUCCESS, cuda::cuMemAlloc_v2 as *mut c_void)
    );
    assert_eq!(
        find("cuCtxCreate", 12080),
        (CUDA_SUCCESS, cuda::cuCtxCreate_v2 as *mut c_void)
    );
    assert_eq!(
        find("cuCtxCreate", 13000),
        (CUDA_SUCCESS, cuda::cuCtxCreate_v4 as *mut c_void)
    );
    assert_eq!(
        find("cuMemcpyHtoDAsync_ptsz", 12000),
        (CUDA_SUCCESS, cuda::cuMemcpyHtoDAsync_v2 as *mut c_void)
    );
    assert_eq!(
        find("cuGetProcAddress", 12000),
        (CUDA_SUCCESS, cuda::cuGetProcAddress_v2 as *mut c_void)
    );
    assert_eq!(
        find("cuNoSuchThing", 12000),
        (CUDA_ERROR_NOT_FOUND, null_mut())
    );
    for name in cuda::procs::NAMES {
        assert!(!find(name, 13000).1.is_null(), "{name}");
    }
    let s = CString::new("cuGraphLaunch").unwrap();
    let mut p = null_mut();
    let mut status = -1;
    let r = unsafe { cuda::cuGetProcAddress_v2(s.as_ptr(), &mut p, 12080, 0, &mut status) };
    assert_eq!((r, status), (CUDA_ERROR_NOT_FOUND, 1));
}

#[test]
fn error_names_and_strings() {
    let name = |code| {
        let mut p = null();
        let r = unsafe { cuda::cuGetErrorName(code, &mut p) };
        (r == CUDA_SUCCESS).then(|| {
            unsafe { std::ffi::CStr::from_ptr(p) }
                .to_string_lossy()
                .into_owned()
        })
    };
    assert_eq!(name(700).as_deref(), Some("CUDA_ERROR_ILLEGAL_ADDRESS"));
    assert_eq!(name(0).as_deref(), Some("CUDA_SUCCESS"));
    assert_eq!(name(12345), None);
    let mut p = null();
    ok("cuGetErrorString", unsafe {
        cuda::cuGetErrorString(716, &mut p)
    });
    assert!(!p.is_null());
}

#[test]
fn module_variables_keep_their_bytes_between_launches() {
    let _c = context();
    let ptx = format!(
        "{HEADER}
.visible .global .align 4 .u32 counter = 7;
.visible .entry bump()
{{
    .reg .b32 %r<3>;
    ld.global.u32 %r1, [counter];
    add.u32 %r2, %r1, 1;
    st.global.u32 [counter], %r2;
    ret;
}}
"
    );
    let (m, f) = kernel(&ptx, "bump");
    let (mut addr, mut size) = (0u64, 0usize);
    let name = CString::new("counter").unwrap();
    unsafe {
        ok(
            "cuModuleGetGlobal",
            cuda::cuModuleGetGlobal_v2(&mut addr, &mut size, m, name.as_ptr()),
        )
    };
    assert_eq!(size, 4);
    assert_eq!(download(addr, 4), 7u32.to_le_bytes());
    ok("launch", launch(f, [1; 3], [1; 3], 0, &mut []));
    ok("launch", launch(f, [1; 3], [1; 3], 0, &mut []));
    assert_eq!(download(addr, 4), 9u32.to_le_bytes());
    unsafe {
        ok(
            "cuMemcpyHtoD",
            cuda::cuMemcpyHtoD_v2(addr, 100u32.to_le_bytes().as_ptr().cast(), 4),
        )
    };
    ok("launch", launch(f, [1; 3], [1; 3], 0, &mut []));
    assert_eq!(download(addr, 4), 101u32.to_le_bytes());
    let missing = CString::new("other").unwrap();
    assert_eq!(
        unsafe { cuda::cuModuleGetGlobal_v2(&mut addr, &mut size, m, missing.as_ptr()) },
        CUDA_ERROR_NOT_FOUND
    );
}

/// `__constant__` data from the host: `cuModuleGetGlobal` gives a `.const`
/// variable's generic address (in the constant window), `cuMemcpyHtoD`
/// writes it, and the next launch reads the new value; the kernel's own
/// global variable shows it.
#[test]
fn constant_variables_take_the_host_s_writes() {
    let _c = context();
    let ptx = format!(
        "{HEADER}
.const .align 4 .u32 pad = 1;
.visible .const .align 4 .u32 scale = 3;
.visible .global .align 4 .u32 seen;
.visible .entry look()
{{
    .reg .b32 %r<2>;
    ld.const.u32 %r1, [scale];
    st.global.u32 [seen], %r1;
    ret;
}}
"
    );
    let (m, f) = kernel(&ptx, "look");
    let global = |name: &str| {
        let (mut addr, mut size) = (0u64, 0usize);
        let name = CString::new(name).unwrap();
        unsafe {
            ok(
                "cuModuleGetGlobal",
                cuda::cuModuleGetGlobal_v2(&mut addr, &mut size, m, name.as_ptr()),
            )
        };
        (addr, size)
    };
    let (scale, size) = global("scale");
    let (seen, _) = global("seen");
    assert_eq!(size, 4);
    assert_eq!(download(scale, 4), 3u32.to_le_bytes());
    ok("launch", launch(f, [1; 3], [1; 3], 0, &mut []));
    assert_eq!(download(seen, 4), 3u32.to_le_bytes());
    unsafe {
        ok(
            "cuMemcpyHtoD",
            cuda::cuMemcpyHtoD_v2(scale, 11u32.to_le_bytes().as_ptr().cast(), 4),
        )
    };
    assert_eq!(download(scale, 4), 11u32.to_le_bytes());
    ok("launch", launch(f, [1; 3], [1; 3], 0, &mut []));
    assert_eq!(download(seen, 4), 11u32.to_le_bytes());
}

#[test]
fn clusters_and_dynamic_shared_memory_through_launch_kernel_ex() {
    let _c = context();
    // each thread writes its CTA's rank in the cluster and the cluster's
    // size, through dynamic shared memory
    let ptx = format!(
        "{HEADER}
.extern .shared .align 4 .b8 smem[];
.visible .entry ranks(.param .u64 p)
{{
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [p];
    mov.u32 %r1, %cluster_ctarank;
    mov.u32 %r2, %cluster_nctarank;
    mov.u32 %r3, smem;
    st.shared.u32 [%r3], %r1;
    st.shared.u32 [%r3+4], %r2;
    bar.sync 0;
    ld.shared.u32 %r4, [%r3];
    ld.shared.u32 %r5, [%r3+4];
    mov.u32 %r6, %ctaid.x;
    mul.wide.u32 %rd2, %r6, 8;
    add.s64 %rd3, %rd1, %rd2;
    st.global.v2.u32 [%rd3], {{%r4, %r5}};
    ret;
}}
"
    );
    let (_m, f) = kernel(&ptx, "ranks");
    let mut out = upload(&[0; 32]);
    let mut params: [*mut c_void; 1] = [(&mut out as *mut u64).cast()];
    let ex = |cluster: [u32; 3], shared: u32, params: &mut [*mut c_void]| {
        let mut value = CUlaunchAttributeValue { pad: [0; 64] };
        for (k, v) in cluster.iter().enumerate() {
            value.pad[4 * k..4 * k + 4].copy_from_slice(&v.to_le_bytes());
        }
        let mut attribute = CUlaunchAttribute {
            id: launch_attr::CLUSTER_DIMENSION,
            pad: [0; 4],
            value,
        };
        let config = CUlaunchConfig {
            grid_dim_x: 4,
            grid_dim_y: 1,
            grid_dim_z: 1,
            block_dim_x: 32,
            block_dim_y: 1,
            block_dim_z: 1,
            shared_mem_bytes: shared,
            h_stream: null_mut(),
            attrs: &mut attribute,
            num_attrs: 1,
        };
        unsafe { cuda::cuLaunchKernelEx(&config, f, params.as_mut_ptr(), null_mut()) }
    };
    ok("cuLaunchKernelEx", ex([2, 1, 1], 8, &mut params));
    let words: Vec<u32> = download(out, 32)
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(words, [0, 2, 1, 2, 0, 2, 1, 2]);
    assert_eq!(
        ex([3, 1, 1], 8, &mut params),
        CUDA_ERROR_INVALID_CLUSTER_SIZE,
        "4 CTAs in clusters of 3"
    );
    assert_eq!(
        ex([16, 1, 1], 8, &mut params),
        CUDA_ERROR_INVALID_CLUSTER_SIZE,
        "16 CTAs, not opted in"
    );
}

#[test]
fn invalid_ptx_fills_the_error_log() {
    let _c = context();
    let text = CString::new(format!(
        "{HEADER}\n.visible .entry k() {{ add.u32 %r1, 1; ret; }}\n"
    ))
    .unwrap();
    let mut log = vec![0u8; 1024];
    let mut options = [jit::ERROR_LOG_BUFFER, jit::ERROR_LOG_BUFFER_SIZE_BYTES];
    let mut values: [*mut c_void; 2] = [log.as_mut_ptr().cast(), log.len() as *mut c_void];
    let mut m = null_mut();
    let r = unsafe {
        cuda::cuModuleLoadDataEx(
            &mut m,
            text.as_ptr().cast(),
            2,
            options.as_mut_ptr(),
            values.as_mut_ptr(),
        )
    };
    assert_eq!(r, CUDA_ERROR_INVALID_PTX);
    let end = log.iter().position(|&b| b == 0).unwrap();
    assert!(end > 0, "an empty log");
    // a target the device does not run
    let sm100 = CString::new(
        ".version 8.7\n.target sm_100a\n.address_size 64\n.visible .entry k() { ret; }\n",
    )
    .unwrap();
    assert_eq!(
        unsafe { cuda::cuModuleLoadData(&mut m, sm100.as_ptr().cast()) },
        CUDA_ERROR_NO_BINARY_FOR_GPU
    );
    let new = CString::new(
        ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n",
    )
    .unwrap();
    assert_eq!(
        unsafe { cuda::cuModuleLoadData(&mut m, new.as_ptr().cast()) },
        CUDA_ERROR_UNSUPPORTED_PTX_VERSION
    );
    // text shorter than the four bytes a binary's magic number takes
    let empty = b"\0";
    assert_eq!(
        unsafe { cuda::cuModuleLoadData(&mut m, empty.as_ptr().cast()) },
        CUDA_ERROR_INVALID_PTX
    );
    let elf = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0";
    assert_eq!(
        unsafe { cuda::cuModuleLoadData(&mut m, elf.as_ptr().cast()) },
        CUDA_ERROR_NO_BINARY_FOR_GPU
    );
}
