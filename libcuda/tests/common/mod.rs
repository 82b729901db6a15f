//! Helpers shared by the driver tests: calls that must succeed, and PTX
//! text for the kernels.

#![allow(dead_code)]
// handles are values the library looks up, never dereferences
#![allow(clippy::not_unsafe_ptr_arg_deref)]

use cuda::types::*;
use std::ffi::{c_void, CString};
use std::ptr::null_mut;

/// Asserts a call succeeded, naming the call and the code.
#[track_caller]
pub fn ok(what: &str, r: CUresult) {
    assert_eq!(r, CUDA_SUCCESS, "{what} returned {r}");
}

/// `cuInit`, then a new context current on this thread.
pub fn context() -> Handle {
    unsafe {
        ok("cuInit", cuda::cuInit(0));
        let mut c = null_mut();
        ok("cuCtxCreate", cuda::cuCtxCreate_v2(&mut c, 0, 0));
        c
    }
}

/// A module from PTX text and one of its kernels.
pub fn kernel(ptx: &str, name: &str) -> (Handle, Handle) {
    let text = CString::new(ptx).unwrap();
    let name = CString::new(name).unwrap();
    let (mut m, mut f) = (null_mut(), null_mut());
    unsafe {
        ok(
            "cuModuleLoadData",
            cuda::cuModuleLoadData(&mut m, text.as_ptr().cast()),
        );
        ok(
            "cuModuleGetFunction",
            cuda::cuModuleGetFunction(&mut f, m, name.as_ptr()),
        );
    }
    (m, f)
}

/// Device memory holding `bytes`.
pub fn upload(bytes: &[u8]) -> CUdeviceptr {
    let mut p = 0;
    unsafe {
        ok("cuMemAlloc", cuda::cuMemAlloc_v2(&mut p, bytes.len()));
        ok(
            "cuMemcpyHtoD",
            cuda::cuMemcpyHtoD_v2(p, bytes.as_ptr().cast(), bytes.len()),
        );
    }
    p
}

/// `n` bytes of device memory.
pub fn download(p: CUdeviceptr, n: usize) -> Vec<u8> {
    let mut out = vec![0u8; n];
    unsafe {
        ok(
            "cuMemcpyDtoH",
            cuda::cuMemcpyDtoH_v2(out.as_mut_ptr().cast(), p, n),
        )
    };
    out
}

/// Launches `f` with the parameters' addresses.
pub fn launch(
    f: Handle,
    grid: [u32; 3],
    block: [u32; 3],
    shared: u32,
    params: &mut [*mut c_void],
) -> CUresult {
    unsafe {
        cuda::cuLaunchKernel(
            f,
            grid[0],
            grid[1],
            grid[2],
            block[0],
            block[1],
            block[2],
            shared,
            null_mut(),
            params.as_mut_ptr(),
            null_mut(),
        )
    }
}

pub const HEADER: &str = ".version 8.7\n.target sm_90\n.address_size 64\n";

/// `c[i] = a[i] + b[i]` for `i < n` (f32).
pub fn vecadd() -> String {
    format!(
        "{HEADER}
.visible .entry vecadd(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n)
{{
    .reg .pred %p;
    .reg .b32 %r<6>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [a];
    ld.param.u64 %rd2, [b];
    ld.param.u64 %rd3, [c];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.u32 %p, %r5, %r1;
    @%p bra DONE;
    mul.wide.u32 %rd4, %r5, 4;
    add.s64 %rd5, %rd1, %rd4;
    add.s64 %rd6, %rd2, %rd4;
    add.s64 %rd7, %rd3, %rd4;
    ld.global.f32 %f1, [%rd5];
    ld.global.f32 %f2, [%rd6];
    add.rn.f32 %f3, %f1, %f2;
    st.global.f32 [%rd7], %f3;
DONE:
    ret;
}}
"
    )
}

/// A kernel of one `.u64` parameter `p` and the given body.
pub fn one_pointer(name: &str, body: &str) -> String {
    format!(
        "{HEADER}
.visible .entry {name}(.param .u64 p)
{{
    .reg .pred %p<4>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [p];
{body}
    ret;
}}
"
    )
}
