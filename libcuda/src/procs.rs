//! `cuGetProcAddress`: entry points by name. A client asks for the base
//! name (`cuMemAlloc`) and the CUDA version it was built for; it gets the
//! version of the function a `cuda.h` of that release maps the name to
//! (`cuMemAlloc_v2`). The exported name itself (`cuMemAlloc_v2`) is found
//! too. Per-thread default-stream forms (`_ptds`, `_ptsz`) are the same
//! functions: work runs when it is issued, in order.

use crate::api::*;
use crate::copy::*;
use crate::enumerate::*;
use crate::legacy::*;
use crate::link::*;
use crate::occupancy::*;
use crate::pointer::*;
use std::ffi::{c_int, c_void};

macro_rules! table {
    ($($name:ident),* $(,)?) => {
        /// Every exported entry point, by its exported name.
        pub fn exported(name: &str) -> Option<*mut c_void> {
            match name {
                $(stringify!($name) => Some($name as *mut c_void),)*
                _ => None,
            }
        }

        /// The exported names.
        pub const NAMES: &[&str] = &[$(stringify!($name)),*];
    };
}

table! {
    cuInit, cuDriverGetVersion, cuDeviceGetCount, cuDeviceGet, cuDeviceGetName,
    cuDeviceGetAttribute, cuDeviceComputeCapability, cuDeviceTotalMem_v2,
    cuDeviceGetUuid, cuDeviceGetUuid_v2,
    cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRelease, cuDevicePrimaryCtxRelease_v2,
    cuDevicePrimaryCtxGetState, cuDevicePrimaryCtxSetFlags_v2, cuDevicePrimaryCtxReset_v2,
    cuCtxCreate_v2, cuCtxCreate_v4, cuCtxDestroy_v2, cuCtxSetCurrent, cuCtxGetCurrent,
    cuCtxPushCurrent_v2, cuCtxPopCurrent_v2, cuCtxGetDevice, cuCtxSynchronize,
    cuCtxGetApiVersion, cuCtxGetFlags,
    cuModuleLoad, cuModuleLoadData, cuModuleLoadDataEx, cuModuleUnload, cuModuleGetFunction,
    cuModuleGetGlobal_v2, cuModuleLoadFatBinary,
    cuLibraryLoadData, cuLibraryUnload, cuLibraryGetKernel, cuKernelGetFunction,
    cuLibraryGetModule, cuLibraryGetGlobal, cuFuncGetAttribute, cuFuncSetAttribute, cuFuncSetCacheConfig,
    cuMemAlloc_v2, cuMemFree_v2, cuMemGetInfo_v2, cuMemGetAddressRange_v2,
    cuMemAllocHost_v2, cuMemHostAlloc, cuMemFreeHost,
    cuMemcpyHtoD_v2, cuMemcpyDtoH_v2, cuMemcpyDtoD_v2,
    cuMemcpyHtoDAsync_v2, cuMemcpyDtoHAsync_v2, cuMemcpyDtoDAsync_v2,
    cuMemsetD8_v2, cuMemsetD16_v2, cuMemsetD32_v2,
    cuMemsetD8Async, cuMemsetD16Async, cuMemsetD32Async,
    cuMemcpy, cuMemcpyAsync, cuMemcpyPeer, cuMemcpyPeerAsync,
    cuMemcpy2D_v2, cuMemcpy2DUnaligned_v2, cuMemcpy2DAsync_v2,
    cuMemcpy3D_v2, cuMemcpy3DAsync_v2, cuMemcpy3DPeer, cuMemcpy3DPeerAsync,
    cuMemsetD2D8_v2, cuMemsetD2D16_v2, cuMemsetD2D32_v2,
    cuMemsetD2D8Async, cuMemsetD2D16Async, cuMemsetD2D32Async,
    cuPointerGetAttribute, cuPointerGetAttributes,
    cuCtxGetLimit, cuCtxSetLimit, cuCtxGetStreamPriorityRange,
    cuCtxGetSharedMemConfig, cuCtxSetSharedMemConfig, cuModuleGetLoadingMode,
    cuDeviceGetPCIBusId,
    cuStreamCreate, cuStreamCreateWithPriority, cuStreamDestroy_v2, cuStreamSynchronize,
    cuStreamQuery, cuStreamWaitEvent, cuStreamGetFlags, cuStreamGetPriority, cuStreamGetCtx,
    cuStreamAddCallback, cuLaunchHostFunc,
    cuEventCreate, cuEventRecord, cuEventRecordWithFlags, cuEventSynchronize, cuEventQuery,
    cuEventDestroy_v2, cuEventElapsedTime, cuEventElapsedTime_v2,
    cuLaunchKernel, cuLaunchKernelEx,
    cuDeviceGetProperties, cuDeviceCanAccessPeer, cuGetExportTable,
    cuCtxGetCacheConfig, cuCtxSetCacheConfig, cuMemAllocPitch_v2,
    cuOccupancyMaxActiveBlocksPerMultiprocessor,
    cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags,
    cuOccupancyMaxPotentialBlockSize, cuOccupancyMaxPotentialBlockSizeWithFlags,
    cuOccupancyAvailableDynamicSMemPerBlock,
    cuLinkCreate_v2, cuLinkAddData_v2, cuLinkAddFile_v2, cuLinkComplete, cuLinkDestroy,
    cuModuleGetFunctionCount, cuModuleEnumerateFunctions, cuLibraryGetKernelCount,
    cuLibraryEnumerateKernels, cuFuncGetName, cuKernelGetName, cuFuncGetModule,
    cuKernelGetAttribute, cuKernelSetAttribute,
    cuParamSetSize, cuParamSeti, cuParamSetf, cuParamSetv, cuFuncSetBlockShape,
    cuFuncSetSharedSize, cuLaunch, cuLaunchGrid, cuLaunchGridAsync,
    cuTensorMapEncodeTiled, cuTensorMapEncodeIm2col,
    cuGetErrorName, cuGetErrorString, cuGetProcAddress, cuGetProcAddress_v2,
}

/// The exported name a base name stands for in a `cuda.h` of CUDA
/// `version` (`12080` is 12.8): the `_v2` forms since CUDA 3.2 (the 64-bit
/// device pointers) or 4.0 (the context stack), `cuCtxCreate_v4` and
/// `cuEventElapsedTime_v2` since 13.0, `cuGetProcAddress_v2` since 12.0.
fn versioned(base: &str, version: c_int) -> Option<&'static str> {
    Some(match base {
        "cuCtxCreate" if version >= 13000 => "cuCtxCreate_v4",
        "cuCtxCreate" => "cuCtxCreate_v2",
        "cuEventElapsedTime" if version >= 13000 => "cuEventElapsedTime_v2",
        "cuGetProcAddress" if version >= 12000 => "cuGetProcAddress_v2",
        "cuDeviceGetUuid" if version >= 11040 => "cuDeviceGetUuid_v2",
        "cuDeviceTotalMem" => "cuDeviceTotalMem_v2",
        "cuCtxDestroy" => "cuCtxDestroy_v2",
        "cuCtxPushCurrent" => "cuCtxPushCurrent_v2",
        "cuCtxPopCurrent" => "cuCtxPopCurrent_v2",
        "cuDevicePrimaryCtxRelease" => "cuDevicePrimaryCtxRelease_v2",
        "cuDevicePrimaryCtxSetFlags" => "cuDevicePrimaryCtxSetFlags_v2",
        "cuDevicePrimaryCtxReset" => "cuDevicePrimaryCtxReset_v2",
        "cuModuleGetGlobal" => "cuModuleGetGlobal_v2",
        "cuMemAlloc" => "cuMemAlloc_v2",
        "cuMemFree" => "cuMemFree_v2",
        "cuMemGetInfo" => "cuMemGetInfo_v2",
        "cuMemGetAddressRange" => "cuMemGetAddressRange_v2",
        "cuMemAllocHost" => "cuMemAllocHost_v2",
        "cuMemcpyHtoD" => "cuMemcpyHtoD_v2",
        "cuMemcpyDtoH" => "cuMemcpyDtoH_v2",
        "cuMemcpyDtoD" => "cuMemcpyDtoD_v2",
        "cuMemcpyHtoDAsync" => "cuMemcpyHtoDAsync_v2",
        "cuMemcpyDtoHAsync" => "cuMemcpyDtoHAsync_v2",
        "cuMemcpyDtoDAsync" => "cuMemcpyDtoDAsync_v2",
        "cuMemsetD8" => "cuMemsetD8_v2",
        "cuMemsetD16" => "cuMemsetD16_v2",
        "cuMemsetD32" => "cuMemsetD32_v2",
        "cuMemAllocPitch" => "cuMemAllocPitch_v2",
        "cuLinkCreate" => "cuLinkCreate_v2",
        "cuLinkAddData" => "cuLinkAddData_v2",
        "cuLinkAddFile" => "cuLinkAddFile_v2",
        "cuMemcpy2D" => "cuMemcpy2D_v2",
        "cuMemcpy2DUnaligned" => "cuMemcpy2DUnaligned_v2",
        "cuMemcpy2DAsync" => "cuMemcpy2DAsync_v2",
        "cuMemcpy3D" => "cuMemcpy3D_v2",
        "cuMemcpy3DAsync" => "cuMemcpy3DAsync_v2",
        "cuMemsetD2D8" => "cuMemsetD2D8_v2",
        "cuMemsetD2D16" => "cuMemsetD2D16_v2",
        "cuMemsetD2D32" => "cuMemsetD2D32_v2",
        "cuStreamDestroy" => "cuStreamDestroy_v2",
        "cuEventDestroy" => "cuEventDestroy_v2",
        _ => return None,
    })
}

/// The entry point `cuGetProcAddress` gives for `symbol`, or `None`.
pub fn lookup(symbol: &str, version: c_int) -> Option<*mut c_void> {
    let base = symbol
        .strip_suffix("_ptds")
        .or_else(|| symbol.strip_suffix("_ptsz"))
        .unwrap_or(symbol);
    versioned(base, version)
        .and_then(exported)
        .or_else(|| exported(base))
}
