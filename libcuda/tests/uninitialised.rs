//! Before `cuInit` every call that needs the driver says so. One test: the
//! process must not have called `cuInit` before it.

use cuda::types::*;
use std::ptr::null_mut;

#[test]
fn calls_before_cu_init_are_refused() {
    unsafe {
        let mut p = 0;
        assert_eq!(cuda::cuMemAlloc_v2(&mut p, 16), CUDA_ERROR_NOT_INITIALIZED);
        let mut n = 0;
        assert_eq!(cuda::cuDeviceGetCount(&mut n), CUDA_ERROR_NOT_INITIALIZED);
        let mut c = null_mut();
        assert_eq!(
            cuda::cuCtxCreate_v2(&mut c, 0, 0),
            CUDA_ERROR_NOT_INITIALIZED
        );
        // these need no initialisation
        let mut v = 0;
        assert_eq!(cuda::cuDriverGetVersion(&mut v), CUDA_SUCCESS);
        assert_eq!(cuda::cuInit(1), CUDA_ERROR_INVALID_VALUE, "flags must be 0");
        assert_eq!(cuda::cuInit(0), CUDA_SUCCESS);
        assert_eq!(cuda::cuDeviceGetCount(&mut n), CUDA_SUCCESS);
        assert_eq!(n, 1);
    }
}
