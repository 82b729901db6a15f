//! Bad input never crashes the host and never comes back as
//! `CUDA_ERROR_UNKNOWN` (a caught panic): every entry point that takes
//! handles, called with handles that are not ones (0, small numbers, a
//! handle of another kind) and with null result pointers.

mod common;

use common::*;
use cuda::types::*;
use std::ffi::c_void;
use std::ptr::{null, null_mut};

#[test]
fn wrong_handles_and_null_pointers_get_documented_errors() {
    let _c = context();
    let (m, f) = kernel(&vecadd(), "vecadd");
    let mut s = null_mut();
    unsafe { ok("cuStreamCreate", cuda::cuStreamCreate(&mut s, 0)) };
    // a module for a function, a function for a stream...: each handle of
    // the wrong kind, and values no object has
    let handles: Vec<Handle> = vec![
        null_mut(),
        1 as Handle,
        0x10 as Handle,
        m,
        f,
        s,
        usize::MAX as Handle,
    ];
    let mut results = Vec::new();
    for &h in &handles {
        unsafe {
            let (mut out, mut v, mut p) = (null_mut(), 0i32, 0u64);
            let mut ms = 0f32;
            let name = c"vecadd";
            if h != m {
                results.push((
                    "cuModuleGetFunction",
                    cuda::cuModuleGetFunction(&mut out, h, name.as_ptr()),
                ));
                results.push((
                    "cuModuleGetGlobal",
                    cuda::cuModuleGetGlobal_v2(&mut p, null_mut(), h, name.as_ptr()),
                ));
                results.push(("cuModuleUnload", cuda::cuModuleUnload(h)));
            }
            if h != f {
                results.push(("cuFuncGetAttribute", cuda::cuFuncGetAttribute(&mut v, 0, h)));
                results.push(("cuFuncSetAttribute", cuda::cuFuncSetAttribute(h, 8, 0)));
                results.push((
                    "cuOccupancyMaxActiveBlocksPerMultiprocessor",
                    cuda::cuOccupancyMaxActiveBlocksPerMultiprocessor(&mut v, h, 32, 0),
                ));
                let mut grid = 0;
                results.push((
                    "cuOccupancyMaxPotentialBlockSize",
                    cuda::cuOccupancyMaxPotentialBlockSize(&mut grid, &mut v, h, None, 0, 0),
                ));
            }
            if h != f {
                results.push(("cuParamSeti", cuda::cuParamSeti(h, 0, 1)));
                results.push(("cuFuncSetBlockShape", cuda::cuFuncSetBlockShape(h, 1, 1, 1)));
                results.push(("cuLaunch", cuda::cuLaunch(h)));
                results.push(("cuLaunchGrid", cuda::cuLaunchGrid(h, 1, 1)));
            }
            // link states that are none
            let (mut image, mut size) = (null_mut(), 0usize);
            results.push((
                "cuLinkComplete",
                cuda::cuLinkComplete(h, &mut image, &mut size),
            ));
            results.push(("cuLinkDestroy", cuda::cuLinkDestroy(h)));
            let ptx = c".version 8.7";
            results.push((
                "cuLinkAddData",
                cuda::cuLinkAddData_v2(
                    h,
                    1,
                    ptx.as_ptr() as *mut _,
                    13,
                    null(),
                    0,
                    null_mut(),
                    null_mut(),
                ),
            ));
            results.push(("cuEventRecord", cuda::cuEventRecord(h, null_mut())));
            results.push(("cuEventSynchronize", cuda::cuEventSynchronize(h)));
            results.push((
                "cuEventElapsedTime",
                cuda::cuEventElapsedTime(&mut ms, h, h),
            ));
            results.push(("cuEventDestroy", cuda::cuEventDestroy_v2(h)));
            if h != s && !h.is_null() && h as usize > 2 {
                results.push(("cuStreamSynchronize", cuda::cuStreamSynchronize(h)));
                results.push(("cuStreamDestroy", cuda::cuStreamDestroy_v2(h)));
                results.push((
                    "cuMemcpyHtoDAsync",
                    cuda::cuMemcpyHtoDAsync_v2(0, [0u8; 4].as_ptr().cast(), 4, h),
                ));
                let copy: CUDA_MEMCPY2D = std::mem::zeroed();
                results.push(("cuMemcpy2DAsync", cuda::cuMemcpy2DAsync_v2(&copy, h)));
                let copy3: CUDA_MEMCPY3D = std::mem::zeroed();
                results.push(("cuMemcpy3DAsync", cuda::cuMemcpy3DAsync_v2(&copy3, h)));
                results.push(("cuMemcpyAsync", cuda::cuMemcpyAsync(0, 0, 4, h)));
                results.push((
                    "cuMemsetD2D8Async",
                    cuda::cuMemsetD2D8Async(0, 4, 0, 4, 1, h),
                ));
            }
            // contexts that are none
            results.push(("cuMemcpyPeer", cuda::cuMemcpyPeer(0, h, 0, h, 4)));
            let mut peer: CUDA_MEMCPY3D_PEER = std::mem::zeroed();
            (peer.src_context, peer.dst_context) = (h, h);
            results.push(("cuMemcpy3DPeer", cuda::cuMemcpy3DPeer(&peer)));
            results.push(("cuCtxDestroy", cuda::cuCtxDestroy_v2(h)));
            results.push(("cuCtxPushCurrent", cuda::cuCtxPushCurrent_v2(h)));
            // no parameters: refused for a real kernel (it has four)
            results.push((
                "cuLaunchKernel",
                cuda::cuLaunchKernel(h, 1, 1, 1, 1, 1, 1, 0, null_mut(), null_mut(), null_mut()),
            ));
        }
    }
    for (what, r) in &results {
        assert!(
            [
                CUDA_ERROR_INVALID_VALUE,
                CUDA_ERROR_INVALID_HANDLE,
                CUDA_ERROR_INVALID_CONTEXT,
                CUDA_ERROR_NOT_FOUND
            ]
            .contains(r),
            "{what} returned {r}"
        );
    }
    // null result pointers
    unsafe {
        let name = c"vecadd";
        for r in [
            cuda::cuDeviceGetCount(null_mut()),
            cuda::cuDeviceGet(null_mut(), 0),
            cuda::cuDeviceGetName(null_mut(), 10, 0),
            cuda::cuDeviceGetAttribute(null_mut(), 1, 0),
            cuda::cuDeviceTotalMem_v2(null_mut(), 0),
            cuda::cuDriverGetVersion(null_mut()),
            cuda::cuCtxCreate_v2(null_mut(), 0, 0),
            cuda::cuCtxGetCurrent(null_mut()),
            cuda::cuCtxGetDevice(null_mut()),
            cuda::cuModuleLoadData(null_mut(), null()),
            cuda::cuModuleGetFunction(null_mut(), m, name.as_ptr()),
            cuda::cuFuncGetAttribute(null_mut(), 0, f),
            cuda::cuMemAlloc_v2(null_mut(), 4),
            cuda::cuMemAllocHost_v2(null_mut(), 4),
            cuda::cuMemGetInfo_v2(null_mut(), null_mut()),
            cuda::cuStreamCreate(null_mut(), 0),
            cuda::cuEventCreate(null_mut(), 0),
            cuda::cuEventElapsedTime(null_mut(), null_mut(), null_mut()),
            cuda::cuLaunchKernelEx(null(), f, null_mut(), null_mut()),
            cuda::cuGetErrorName(0, null_mut()),
            cuda::cuGetProcAddress(null(), null_mut(), 12000, 0),
            cuda::cuTensorMapEncodeTiled(
                null_mut(),
                0,
                1,
                null_mut(),
                null(),
                null(),
                null(),
                null(),
                0,
                0,
                0,
                0,
            ),
            cuda::cuMemFreeHost(0x1000 as *mut c_void),
            cuda::cuMemcpy2D_v2(null()),
            cuda::cuMemcpy2DUnaligned_v2(null()),
            cuda::cuMemcpy3D_v2(null()),
            cuda::cuMemcpy3DPeer(null()),
            cuda::cuMemcpy3DPeerAsync(null(), null_mut()),
            cuda::cuMemcpy(0, 0, 4),
            cuda::cuPointerGetAttribute(null_mut(), 1, 0),
            cuda::cuPointerGetAttributes(1, null(), null_mut(), 0),
            cuda::cuCtxGetLimit(null_mut(), 0),
            cuda::cuCtxGetSharedMemConfig(null_mut()),
            cuda::cuModuleGetLoadingMode(null_mut()),
            cuda::cuDeviceGetPCIBusId(null_mut(), 16, 0),
        ] {
            assert!(
                [CUDA_ERROR_INVALID_VALUE, CUDA_ERROR_INVALID_HANDLE].contains(&r),
                "returned {r}"
            );
        }
        // the context still works
        let p = upload(&[1, 2, 3, 4]);
        assert_eq!(download(p, 4), [1, 2, 3, 4]);
        let mut host = null_mut();
        ok("cuMemAllocHost", cuda::cuMemAllocHost_v2(&mut host, 64));
        ok("cuMemFreeHost", cuda::cuMemFreeHost(host));
        assert_eq!(cuda::cuMemFreeHost(host), CUDA_ERROR_INVALID_VALUE, "twice");
    }
}
