//! The numbers of the public CUDA driver API (`cuda.h`) that the entry
//! points take and return: result codes, attributes, options and launch
//! structures. Facts of the API, written out here so that the library
//! depends on no CUDA header or binding.

use std::ffi::{c_int, c_uint, c_void};

/// `CUresult`.
pub type CUresult = c_uint;
/// `CUdevice`: an ordinal.
pub type CUdevice = c_int;
/// `CUdeviceptr`: a device address.
pub type CUdeviceptr = u64;
/// The opaque handles (`CUcontext`, `CUmodule`, `CUfunction`, `CUstream`,
/// `CUevent`): pointers whose values this library chooses.
pub type Handle = *mut c_void;

macro_rules! results {
    ($($name:ident = $value:literal, $text:literal;)*) => {
        $(pub const $name: CUresult = $value;)*

        /// The name and sentence of a result code (`cuGetErrorName`,
        /// `cuGetErrorString`), NUL-terminated; `None` for a code the API
        /// does not define.
        pub fn describe(code: CUresult) -> Option<(&'static str, &'static str)> {
            match code {
                $($value => Some((
                    concat!(stringify!($name), "\0"),
                    concat!($text, "\0"),
                )),)*
                _ => None,
            }
        }
    };
}

results! {
    CUDA_SUCCESS = 0, "no error";
    CUDA_ERROR_INVALID_VALUE = 1, "invalid argument";
    CUDA_ERROR_OUT_OF_MEMORY = 2, "out of memory";
    CUDA_ERROR_NOT_INITIALIZED = 3, "initialization error";
    CUDA_ERROR_DEINITIALIZED = 4, "driver shutting down";
    CUDA_ERROR_NO_DEVICE = 100, "no CUDA-capable device is detected";
    CUDA_ERROR_INVALID_DEVICE = 101, "invalid device ordinal";
    CUDA_ERROR_INVALID_IMAGE = 200, "device kernel image is invalid";
    CUDA_ERROR_INVALID_CONTEXT = 201, "invalid device context";
    CUDA_ERROR_NO_BINARY_FOR_GPU = 209, "no kernel image is available for execution on the device";
    CUDA_ERROR_UNSUPPORTED_LIMIT = 215, "limit is not supported on this architecture";
    CUDA_ERROR_INVALID_PTX = 218, "a PTX JIT compilation failed";
    CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222, "the provided PTX was compiled with an unsupported toolchain.";
    CUDA_ERROR_INVALID_SOURCE = 300, "device kernel image is invalid";
    CUDA_ERROR_FILE_NOT_FOUND = 301, "file not found";
    CUDA_ERROR_INVALID_HANDLE = 400, "invalid resource handle";
    CUDA_ERROR_NOT_FOUND = 500, "named symbol not found";
    CUDA_ERROR_NOT_READY = 600, "device not ready";
    CUDA_ERROR_ILLEGAL_ADDRESS = 700, "an illegal memory access was encountered";
    CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701, "too many resources requested for launch";
    CUDA_ERROR_LAUNCH_TIMEOUT = 702, "the launch timed out and was terminated";
    CUDA_ERROR_CONTEXT_IS_DESTROYED = 709, "context is destroyed";
    CUDA_ERROR_HARDWARE_STACK_ERROR = 714, "hardware stack error";
    CUDA_ERROR_ILLEGAL_INSTRUCTION = 715, "an illegal instruction was encountered";
    CUDA_ERROR_MISALIGNED_ADDRESS = 716, "misaligned address";
    CUDA_ERROR_LAUNCH_FAILED = 719, "unspecified launch failure";
    CUDA_ERROR_NOT_PERMITTED = 800, "operation not permitted";
    CUDA_ERROR_NOT_SUPPORTED = 801, "operation not supported";
    CUDA_ERROR_INVALID_CLUSTER_SIZE = 912, "invalid cluster size";
    CUDA_ERROR_UNKNOWN = 999, "unknown error";
}

/// `CUdevice_attribute` values this library answers.
pub mod attr {
    pub const MAX_THREADS_PER_BLOCK: i32 = 1;
    pub const MAX_BLOCK_DIM_X: i32 = 2;
    pub const MAX_BLOCK_DIM_Y: i32 = 3;
    pub const MAX_BLOCK_DIM_Z: i32 = 4;
    pub const MAX_GRID_DIM_X: i32 = 5;
    pub const MAX_GRID_DIM_Y: i32 = 6;
    pub const MAX_GRID_DIM_Z: i32 = 7;
    pub const MAX_SHARED_MEMORY_PER_BLOCK: i32 = 8;
    pub const TOTAL_CONSTANT_MEMORY: i32 = 9;
    pub const WARP_SIZE: i32 = 10;
    pub const MAX_PITCH: i32 = 11;
    pub const MAX_REGISTERS_PER_BLOCK: i32 = 12;
    pub const CLOCK_RATE: i32 = 13;
    pub const TEXTURE_ALIGNMENT: i32 = 14;
    pub const GPU_OVERLAP: i32 = 15;
    pub const MULTIPROCESSOR_COUNT: i32 = 16;
    pub const KERNEL_EXEC_TIMEOUT: i32 = 17;
    pub const INTEGRATED: i32 = 18;
    pub const CAN_MAP_HOST_MEMORY: i32 = 19;
    pub const COMPUTE_MODE: i32 = 20;
    pub const CONCURRENT_KERNELS: i32 = 31;
    pub const ECC_ENABLED: i32 = 32;
    pub const PCI_BUS_ID: i32 = 33;
    pub const PCI_DEVICE_ID: i32 = 34;
    pub const MEMORY_CLOCK_RATE: i32 = 36;
    pub const GLOBAL_MEMORY_BUS_WIDTH: i32 = 37;
    pub const L2_CACHE_SIZE: i32 = 38;
    pub const MAX_THREADS_PER_MULTIPROCESSOR: i32 = 39;
    pub const ASYNC_ENGINE_COUNT: i32 = 40;
    pub const UNIFIED_ADDRESSING: i32 = 41;
    pub const PCI_DOMAIN_ID: i32 = 50;
    pub const COMPUTE_CAPABILITY_MAJOR: i32 = 75;
    pub const COMPUTE_CAPABILITY_MINOR: i32 = 76;
    pub const STREAM_PRIORITIES_SUPPORTED: i32 = 78;
    pub const GLOBAL_L1_CACHE_SUPPORTED: i32 = 79;
    pub const LOCAL_L1_CACHE_SUPPORTED: i32 = 80;
    pub const MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: i32 = 81;
    pub const MAX_REGISTERS_PER_MULTIPROCESSOR: i32 = 82;
    pub const MANAGED_MEMORY: i32 = 83;
    pub const MULTI_GPU_BOARD: i32 = 84;
    pub const COOPERATIVE_LAUNCH: i32 = 95;
    pub const MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: i32 = 97;
    pub const MAX_BLOCKS_PER_MULTIPROCESSOR: i32 = 106;
    pub const RESERVED_SHARED_MEMORY_PER_BLOCK: i32 = 111;
    pub const CLUSTER_LAUNCH: i32 = 120;
    pub const TENSOR_MAP_ACCESS_SUPPORTED: i32 = 127;
    pub const MULTICAST_SUPPORTED: i32 = 132;
    /// One past the last attribute of CUDA 13.0's `cuda.h`.
    pub const MAX: i32 = 162;
}

/// `CUfunction_attribute` values.
pub mod func_attr {
    pub const MAX_THREADS_PER_BLOCK: i32 = 0;
    pub const SHARED_SIZE_BYTES: i32 = 1;
    pub const CONST_SIZE_BYTES: i32 = 2;
    pub const LOCAL_SIZE_BYTES: i32 = 3;
    pub const NUM_REGS: i32 = 4;
    pub const PTX_VERSION: i32 = 5;
    pub const BINARY_VERSION: i32 = 6;
    pub const CACHE_MODE_CA: i32 = 7;
    pub const MAX_DYNAMIC_SHARED_SIZE_BYTES: i32 = 8;
    pub const PREFERRED_SHARED_MEMORY_CARVEOUT: i32 = 9;
    pub const CLUSTER_SIZE_MUST_BE_SET: i32 = 10;
    pub const REQUIRED_CLUSTER_WIDTH: i32 = 11;
    pub const REQUIRED_CLUSTER_HEIGHT: i32 = 12;
    pub const REQUIRED_CLUSTER_DEPTH: i32 = 13;
    pub const NON_PORTABLE_CLUSTER_SIZE_ALLOWED: i32 = 14;
    pub const CLUSTER_SCHEDULING_POLICY_PREFERENCE: i32 = 15;
}

/// `CUjit_option` values whose values this library reads or writes.
pub mod jit {
    pub const INFO_LOG_BUFFER: u32 = 3;
    pub const INFO_LOG_BUFFER_SIZE_BYTES: u32 = 4;
    pub const ERROR_LOG_BUFFER: u32 = 5;
    pub const ERROR_LOG_BUFFER_SIZE_BYTES: u32 = 6;
    /// One past the last option of CUDA 13.0.
    pub const NUM_OPTIONS: u32 = 36;
}

/// `CUlaunchAttributeID` values.
pub mod launch_attr {
    pub const IGNORE: u32 = 0;
    pub const CLUSTER_DIMENSION: u32 = 4;
}

/// `CU_LAUNCH_PARAM_*` keys of `cuLaunchKernel`'s `extra` array.
pub mod launch_param {
    pub const END: usize = 0;
    pub const BUFFER_POINTER: usize = 1;
    pub const BUFFER_SIZE: usize = 2;
}

/// `CU_EVENT_DISABLE_TIMING`.
pub const EVENT_DISABLE_TIMING: c_uint = 0x2;

/// `CUlaunchAttributeValue`: a 64-byte union; the cluster dimension is its
/// first three `unsigned int`s.
#[repr(C, align(8))]
#[derive(Clone, Copy)]
pub struct CUlaunchAttributeValue {
    pub pad: [u8; 64],
}

/// `CUlaunchAttribute`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct CUlaunchAttribute {
    pub id: c_uint,
    pub pad: [u8; 4],
    pub value: CUlaunchAttributeValue,
}

/// `CUlaunchConfig`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct CUlaunchConfig {
    pub grid_dim_x: c_uint,
    pub grid_dim_y: c_uint,
    pub grid_dim_z: c_uint,
    pub block_dim_x: c_uint,
    pub block_dim_y: c_uint,
    pub block_dim_z: c_uint,
    pub shared_mem_bytes: c_uint,
    pub h_stream: Handle,
    pub attrs: *mut CUlaunchAttribute,
    pub num_attrs: c_uint,
}

/// `CUuuid`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct CUuuid {
    pub bytes: [u8; 16],
}

/// `CUmemorytype`: where a copy's side lies.
pub mod memory_type {
    pub const HOST: u32 = 1;
    pub const DEVICE: u32 = 2;
    pub const ARRAY: u32 = 3;
    /// A unified virtual address: the driver tells host from device.
    pub const UNIFIED: u32 = 4;
}

/// `CUpointer_attribute` values.
pub mod pointer_attr {
    pub const CONTEXT: u32 = 1;
    pub const MEMORY_TYPE: u32 = 2;
    pub const DEVICE_POINTER: u32 = 3;
    pub const HOST_POINTER: u32 = 4;
    pub const P2P_TOKENS: u32 = 5;
    pub const SYNC_MEMOPS: u32 = 6;
    pub const BUFFER_ID: u32 = 7;
    pub const IS_MANAGED: u32 = 8;
    pub const DEVICE_ORDINAL: u32 = 9;
    pub const IS_LEGACY_CUDA_IPC_CAPABLE: u32 = 10;
    pub const RANGE_START_ADDR: u32 = 11;
    pub const RANGE_SIZE: u32 = 12;
    pub const MAPPED: u32 = 13;
    pub const ALLOWED_HANDLE_TYPES: u32 = 14;
    pub const IS_GPU_DIRECT_RDMA_CAPABLE: u32 = 15;
    pub const ACCESS_FLAGS: u32 = 16;
    pub const MEMPOOL_HANDLE: u32 = 17;
    pub const MAPPING_SIZE: u32 = 18;
    pub const MAPPING_BASE_ADDR: u32 = 19;
    pub const MEMORY_BLOCK_ID: u32 = 20;
    pub const IS_HW_DECOMPRESS_CAPABLE: u32 = 21;
}

/// `CUlimit` values.
pub mod limit {
    pub const STACK_SIZE: u32 = 0;
    pub const PRINTF_FIFO_SIZE: u32 = 1;
    pub const MALLOC_HEAP_SIZE: u32 = 2;
    pub const DEV_RUNTIME_SYNC_DEPTH: u32 = 3;
    pub const DEV_RUNTIME_PENDING_LAUNCH_COUNT: u32 = 4;
    pub const MAX_L2_FETCH_GRANULARITY: u32 = 5;
    pub const PERSISTING_L2_CACHE_SIZE: u32 = 6;
    pub const SHMEM_SIZE: u32 = 7;
    pub const CIG_ENABLED: u32 = 8;
    pub const CIG_SHMEM_FALLBACK_ENABLED: u32 = 9;
}

/// `CUsharedconfig` values.
pub mod shared_config {
    pub const DEFAULT_BANK_SIZE: u32 = 0;
    pub const FOUR_BYTE_BANK_SIZE: u32 = 1;
    pub const EIGHT_BYTE_BANK_SIZE: u32 = 2;
}

/// `CU_MODULE_EAGER_LOADING`: "Lazy Kernel Loading is not enabled".
pub const MODULE_EAGER_LOADING: u32 = 1;

/// `CUDA_MEMCPY2D` (`CUDA_MEMCPY2D_v2` in `cuda.h`).
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CUDA_MEMCPY2D {
    pub src_x_in_bytes: usize,
    pub src_y: usize,
    pub src_memory_type: c_uint,
    pub src_host: *const c_void,
    pub src_device: CUdeviceptr,
    pub src_array: Handle,
    pub src_pitch: usize,
    pub dst_x_in_bytes: usize,
    pub dst_y: usize,
    pub dst_memory_type: c_uint,
    pub dst_host: *mut c_void,
    pub dst_device: CUdeviceptr,
    pub dst_array: Handle,
    pub dst_pitch: usize,
    pub width_in_bytes: usize,
    pub height: usize,
}

/// `CUDA_MEMCPY3D` (`CUDA_MEMCPY3D_v2`); `CUDA_MEMCPY3D_PEER` has the same
/// layout with the source and destination contexts where this one has
/// `reserved0` and `reserved1`.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CUDA_MEMCPY3D {
    pub src_x_in_bytes: usize,
    pub src_y: usize,
    pub src_z: usize,
    pub src_lod: usize,
    pub src_memory_type: c_uint,
    pub src_host: *const c_void,
    pub src_device: CUdeviceptr,
    pub src_array: Handle,
    /// `reserved0`; `srcContext` in `CUDA_MEMCPY3D_PEER`.
    pub src_context: Handle,
    pub src_pitch: usize,
    pub src_height: usize,
    pub dst_x_in_bytes: usize,
    pub dst_y: usize,
    pub dst_z: usize,
    pub dst_lod: usize,
    pub dst_memory_type: c_uint,
    pub dst_host: *mut c_void,
    pub dst_device: CUdeviceptr,
    pub dst_array: Handle,
    /// `reserved1`; `dstContext` in `CUDA_MEMCPY3D_PEER`.
    pub dst_context: Handle,
    pub dst_pitch: usize,
    pub dst_height: usize,
    pub width_in_bytes: usize,
    pub height: usize,
    pub depth: usize,
}

/// `CUDA_MEMCPY3D_PEER`: the layout of [`CUDA_MEMCPY3D`].
#[allow(non_camel_case_types)]
pub type CUDA_MEMCPY3D_PEER = CUDA_MEMCPY3D;
