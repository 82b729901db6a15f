//! The one device: its name and attributes, and the attributes of its
//! functions. The numbers are those of a compute capability 9.0 device (an
//! H100 SXM), the device the window profile `WindowProfile::SM90` was
//! measured on a sibling of; where the simulator has a limit of its own,
//! the attribute says the simulator's.

use crate::launch::{self, MAX_BLOCK, MAX_GRID, MAX_THREADS, SHARED_DEFAULT, SHARED_OPTIN};
use crate::module::Function;
use crate::types::*;

/// `cuDeviceGetName`.
pub const NAME: &str = "ptx-conform simulator (PTX ISA model, sm_90 window profile)";

/// Multiprocessors the device reports (an H100 SXM has 132). The simulator
/// runs one cluster at a time; the number only sizes what clients plan.
pub const MULTIPROCESSORS: i32 = 132;

/// `cuDeviceGetAttribute`. An attribute number outside the API is
/// `CUDA_ERROR_INVALID_VALUE`; one the API has and this device does not
/// describe reads as 0 (a capability it lacks). `unified`: whether device
/// addresses are held away from the host's (`memory::Memory::unified`).
pub fn attribute(a: i32, unified: bool) -> Result<i32, CUresult> {
    use attr::*;
    let shared_per_sm = 228 << 10;
    Ok(match a {
        MAX_THREADS_PER_BLOCK => MAX_THREADS as i32,
        MAX_BLOCK_DIM_X => MAX_BLOCK[0] as i32,
        MAX_BLOCK_DIM_Y => MAX_BLOCK[1] as i32,
        MAX_BLOCK_DIM_Z => MAX_BLOCK[2] as i32,
        MAX_GRID_DIM_X => MAX_GRID[0] as i32,
        MAX_GRID_DIM_Y => MAX_GRID[1] as i32,
        MAX_GRID_DIM_Z => MAX_GRID[2] as i32,
        MAX_SHARED_MEMORY_PER_BLOCK => SHARED_DEFAULT as i32,
        MAX_SHARED_MEMORY_PER_BLOCK_OPTIN => SHARED_OPTIN as i32,
        MAX_SHARED_MEMORY_PER_MULTIPROCESSOR => shared_per_sm,
        RESERVED_SHARED_MEMORY_PER_BLOCK => {
            ptx_semantics::sim::WindowProfile::SM90.shared_reserved as i32
        }
        // PTX ISA 5.1.3: "limited in size to 64KB"
        TOTAL_CONSTANT_MEMORY => 64 << 10,
        WARP_SIZE => 32,
        MAX_PITCH => i32::MAX,
        MAX_REGISTERS_PER_BLOCK | MAX_REGISTERS_PER_MULTIPROCESSOR => 65536,
        CLOCK_RATE => 1_980_000,
        MEMORY_CLOCK_RATE => 2_619_000,
        GLOBAL_MEMORY_BUS_WIDTH => 5120,
        L2_CACHE_SIZE => 50 << 20,
        TEXTURE_ALIGNMENT => 512,
        MULTIPROCESSOR_COUNT => MULTIPROCESSORS,
        MAX_THREADS_PER_MULTIPROCESSOR => 2048,
        MAX_BLOCKS_PER_MULTIPROCESSOR => 32,
        COMPUTE_CAPABILITY_MAJOR => 9,
        COMPUTE_CAPABILITY_MINOR => 0,
        // work runs when issued, one launch at a time
        GPU_OVERLAP | ASYNC_ENGINE_COUNT | CONCURRENT_KERNELS => 0,
        // one address space with the host only where the device's
        // addresses are held away from it (`memory`, "Unified addressing")
        UNIFIED_ADDRESSING => i32::from(unified),
        CLUSTER_LAUNCH | TENSOR_MAP_ACCESS_SUPPORTED => 1,
        GLOBAL_L1_CACHE_SUPPORTED | LOCAL_L1_CACHE_SUPPORTED => 1,
        COMPUTE_MODE | KERNEL_EXEC_TIMEOUT | INTEGRATED | CAN_MAP_HOST_MEMORY => 0,
        ECC_ENABLED | MANAGED_MEMORY | MULTI_GPU_BOARD | COOPERATIVE_LAUNCH => 0,
        STREAM_PRIORITIES_SUPPORTED | MULTICAST_SUPPORTED => 0,
        PCI_BUS_ID | PCI_DEVICE_ID | PCI_DOMAIN_ID => 0,
        _ if (1..MAX).contains(&a) => 0,
        _ => return Err(CUDA_ERROR_INVALID_VALUE),
    })
}

/// `cuFuncGetAttribute`.
pub fn function_attribute(f: &Function, a: i32) -> Result<i32, CUresult> {
    use func_attr::*;
    let p = &f.program;
    let static_shared = launch::static_shared(p);
    Ok(match a {
        MAX_THREADS_PER_BLOCK => MAX_THREADS as i32,
        SHARED_SIZE_BYTES => static_shared as i32,
        CONST_SIZE_BYTES => p.const_bytes() as i32,
        LOCAL_SIZE_BYTES => 0,
        NUM_REGS => p.slots().min(255) as i32,
        PTX_VERSION => (f.ptx_version.major * 10 + f.ptx_version.minor) as i32,
        BINARY_VERSION => 90,
        CACHE_MODE_CA => 0,
        MAX_DYNAMIC_SHARED_SIZE_BYTES => effective_dynamic(f) as i32,
        PREFERRED_SHARED_MEMORY_CARVEOUT => f.carveout,
        CLUSTER_SIZE_MUST_BE_SET => i32::from(p.explicit_cluster),
        REQUIRED_CLUSTER_WIDTH => p.cluster_dims.map_or(0, |c| c[0] as i32),
        REQUIRED_CLUSTER_HEIGHT => p.cluster_dims.map_or(0, |c| c[1] as i32),
        REQUIRED_CLUSTER_DEPTH => p.cluster_dims.map_or(0, |c| c[2] as i32),
        NON_PORTABLE_CLUSTER_SIZE_ALLOWED => i32::from(f.non_portable_cluster),
        CLUSTER_SCHEDULING_POLICY_PREFERENCE => 0,
        _ => return Err(CUDA_ERROR_INVALID_VALUE),
    })
}

/// The dynamic shared memory a launch of `f` may ask for: what the host set,
/// or else what is left of the default 48 KiB.
pub fn effective_dynamic(f: &Function) -> u64 {
    SHARED_DEFAULT
        .saturating_sub(launch::static_shared(&f.program))
        .max(u64::from(f.max_dynamic_shared))
}

/// `cuFuncSetAttribute`: the dynamic shared memory limit (up to what is
/// left of the 227 KiB opt-in), the carveout (0 to 100, or -1), and
/// whether clusters may have more than 8 CTAs. Any other attribute is
/// read-only: `CUDA_ERROR_INVALID_VALUE`.
pub fn set_function_attribute(f: &mut Function, a: i32, v: i32) -> Result<(), CUresult> {
    use func_attr::*;
    let bad = Err(CUDA_ERROR_INVALID_VALUE);
    match a {
        MAX_DYNAMIC_SHARED_SIZE_BYTES => {
            let room = SHARED_OPTIN.saturating_sub(launch::static_shared(&f.program));
            match u32::try_from(v) {
                Ok(n) if u64::from(n) <= room => f.max_dynamic_shared = n,
                _ => return bad,
            }
        }
        PREFERRED_SHARED_MEMORY_CARVEOUT => {
            if !(-1..=100).contains(&v) {
                return bad;
            }
            f.carveout = v;
        }
        NON_PORTABLE_CLUSTER_SIZE_ALLOWED => match v {
            0 | 1 => f.non_portable_cluster = v == 1,
            _ => return bad,
        },
        REQUIRED_CLUSTER_WIDTH | REQUIRED_CLUSTER_HEIGHT | REQUIRED_CLUSTER_DEPTH => {
            // the kernel's own `.reqnctapercluster` only: a cluster shape
            // set from the host is not kept yet
            let k = (a - REQUIRED_CLUSTER_WIDTH) as usize;
            let own = f.program.cluster_dims.map_or(0, |c| c[k] as i32);
            if v != own {
                return Err(CUDA_ERROR_NOT_SUPPORTED);
            }
        }
        CLUSTER_SCHEDULING_POLICY_PREFERENCE => {}
        _ => return bad,
    }
    Ok(())
}

/// `cuCtxGetLimit` of a limit no `cuCtxSetLimit` changed. The driver API
/// gives the defaults of three: the device runtime's pending launch count
/// ("the default (2048 launches)"); the printf FIFO and malloc heap sizes
/// are the CUDA C++ Programming Guide's defaults (1 MiB, 8 MiB); the stack
/// size is a choice, 1 KiB a thread (the driver API gives no default: the
/// driver "automatically increases the per-thread stack size for each
/// kernel launch as needed", and the simulator needs none). The L2 fetch
/// granularity is a hint ("Values can range from 0B to 128B"): 32, an L2
/// sector. No L2 is set aside to persist (`MAX_PERSISTING_L2_CACHE_SIZE` is
/// 0 here). `CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH` "is only applicable to
/// devices of compute capability < 9.0", and this is no CIG context
/// (`CU_LIMIT_SHMEM_SIZE`, `..._CIG_SHMEM_FALLBACK_ENABLED`):
/// `CUDA_ERROR_UNSUPPORTED_LIMIT`, as for any other number.
pub fn limit_default(l: u32) -> Result<u64, CUresult> {
    use crate::types::limit::*;
    Ok(match l {
        STACK_SIZE => 1024,
        PRINTF_FIFO_SIZE => 1 << 20,
        MALLOC_HEAP_SIZE => 8 << 20,
        DEV_RUNTIME_PENDING_LAUNCH_COUNT => 2048,
        MAX_L2_FETCH_GRANULARITY => 32,
        PERSISTING_L2_CACHE_SIZE => 0,
        CIG_ENABLED => 0,
        _ => return Err(CUDA_ERROR_UNSUPPORTED_LIMIT),
    })
}

/// The value `cuCtxSetLimit` keeps for `l`: "The driver is free to modify
/// the requested value to meet h/w requirements (this could be clamping to
/// minimum or maximum values ...)". The L2 fetch granularity is clamped to
/// 0..=128, the persisting L2 size to 0 (none can be set aside); the
/// "Can only be queried, cannot be set" CIG limits and those
/// [`limit_default`] refuses are `CUDA_ERROR_UNSUPPORTED_LIMIT`.
pub fn limit_value(l: u32, v: u64) -> Result<u64, CUresult> {
    use crate::types::limit::*;
    limit_default(l)?;
    Ok(match l {
        CIG_ENABLED => return Err(CUDA_ERROR_UNSUPPORTED_LIMIT),
        MAX_L2_FETCH_GRANULARITY => v.min(128),
        PERSISTING_L2_CACHE_SIZE => 0,
        _ => v,
    })
}

/// `cuDeviceGetPCIBusId`: "[domain]:[bus]:[device].[function] where domain,
/// bus, device, and function are all hexadecimal values", from the PCI
/// attributes, which are 0 (the device is on no bus).
pub const PCI_BUS_ID: &str = "0000:00:00.0";
