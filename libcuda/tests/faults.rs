//! Kernels the simulator stops: the error each launch's synchronisation
//! returns, the report written to the file `PTX_LIBCUDA_REPORT` names, the
//! fill `PTX_LIBCUDA_UNSPECIFIED` chooses, and the step budget. One test,
//! because the settings are read once, by the first `cuInit` of the
//! process.

mod common;

use common::*;
use cuda::types::*;
use std::ffi::c_void;

/// Launches a one-pointer kernel in a new context: the launch's own result
/// and what `cuCtxSynchronize` then returns.
fn run(name: &str, body: &str) -> (CUresult, CUresult, CUdeviceptr) {
    let _c = context();
    let (_m, f) = kernel(&one_pointer(name, body), name);
    let mut p = upload(&[0u8; 16]);
    let mut params: [*mut c_void; 1] = [(&mut p as *mut u64).cast()];
    let launched = launch(f, [1; 3], [1; 3], 0, &mut params);
    let synced = unsafe { cuda::cuCtxSynchronize() };
    (launched, synced, p)
}

#[test]
fn faults_are_reported_and_sticky() {
    let dir = std::env::temp_dir().join(format!("ptx-libcuda-faults-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let report = dir.join("report.txt");
    std::env::set_var("PTX_LIBCUDA_REPORT", &report);
    std::env::set_var("PTX_LIBCUDA_UNSPECIFIED", "0x5a");
    std::env::set_var("PTX_LIBCUDA_STEP_BUDGET", "100000");

    // an access past the end of the allocation
    let (l, s, _) = run("past_end", "    ld.global.u32 %r1, [%rd1+64];");
    assert_eq!((l, s), (CUDA_SUCCESS, CUDA_ERROR_ILLEGAL_ADDRESS));
    // the error stays: later calls in the context return it
    let mut q = 0;
    assert_eq!(
        unsafe { cuda::cuMemAlloc_v2(&mut q, 4) },
        CUDA_ERROR_ILLEGAL_ADDRESS
    );
    assert_eq!(
        unsafe { cuda::cuStreamQuery(std::ptr::null_mut()) },
        CUDA_ERROR_ILLEGAL_ADDRESS
    );

    let (l, s, _) = run("misaligned", "    ld.global.u32 %r1, [%rd1+2];");
    assert_eq!((l, s), (CUDA_SUCCESS, CUDA_ERROR_MISALIGNED_ADDRESS));

    let (l, s, _) = run("traps", "    trap;");
    assert_eq!((l, s), (CUDA_SUCCESS, CUDA_ERROR_ILLEGAL_INSTRUCTION));

    let (l, s, _) = run("forever", "LOOP:\n    bra LOOP;");
    assert_eq!((l, s), (CUDA_SUCCESS, CUDA_ERROR_LAUNCH_TIMEOUT));

    // a kernel that runs to its end in a new context: no error
    let (l, s, p) = run("fine", "    st.global.u32 [%rd1], 5;");
    assert_eq!((l, s), (CUDA_SUCCESS, CUDA_SUCCESS));
    assert_eq!(download(p, 4), 5u32.to_le_bytes());

    // never-written device memory reads back as the chosen fill
    let mut fresh = 0;
    unsafe { ok("cuMemAlloc", cuda::cuMemAlloc_v2(&mut fresh, 8)) };
    assert_eq!(download(fresh, 8), [0x5a; 8]);

    let text = std::fs::read_to_string(&report).unwrap();
    for (kernel, instruction) in [
        ("past_end", "ld.global.u32 %r1, [%rd1+64]"),
        ("misaligned", "ld.global.u32 %r1, [%rd1+2]"),
        ("traps", "trap"),
    ] {
        let line = text
            .lines()
            .find(|l| l.contains(&format!("kernel `{kernel}`")))
            .unwrap_or_else(|| panic!("no report of `{kernel}` in:\n{text}"));
        assert!(line.contains(instruction), "{line}");
        assert!(line.contains("ctaid [0, 0, 0] tid [0, 0, 0]"), "{line}");
    }
    let misaligned = text.lines().find(|l| l.contains("`misaligned`")).unwrap();
    assert!(misaligned.contains("PTX ISA"), "the clause: {misaligned}");
    assert!(!text.contains("kernel `fine`"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
