//! One-element brace lists probed with ptxas 13.0 for sm_90 on small
//! modules (`tests/data/brace_rules`, ptxas's exit status and message in
//! `verdicts.tsv`). LLVM's NVPTX back end (and so Triton) writes scalar
//! loads and stores as `ld.global.b32 {%r1}, [%rd1]` and `st.global.b32
//! [%rd1], {%r2}`; ptxas takes a brace list of one element where `ld`,
//! `ldu`, `ld.global.nc`, `st`, `st.async` and either side of `mov` (not
//! both) have a scalar, and refuses it for `add`, `cvt`, `cvta`, `mapa`,
//! `getctarank`, `isspacep`, `setp`, `shfl`, `prmt`, `atom`, `red` and
//! `multimem.st`; a sink alone in braces, two elements for a scalar and one
//! element for `.v2` are refused. PTX ISA 6.4.3 is silent on one-element
//! vectors; the checker must give ptxas's verdict on each, and the
//! simulator runs the accepted ones as their scalar forms.

mod common;

#[test]
fn one_element_braces_get_ptxas_verdicts() {
    common::probes::agree_with_ptxas("brace_rules", 39);
}

/// The accepted forms run as the scalar forms they stand for: on an H100
/// (2026-11-27, this module loaded through the driver, one thread, the
/// first buffer holding 42 and 0xbeef) the kernel stored 0x2f (42 + 5
/// through `ld {..}`, `mov.b32 {..}, ..` and `st [..], {..}`), 7 (`{7}`),
/// 42 (`mov.b32 %r4, {%r1}`) and 0xbeef (`ld.b16`/`st.b16` in braces).
#[test]
fn one_element_braces_run_as_scalars() {
    use ptx_semantics::ptx::parse;
    use ptx_semantics::sim::{self, Arg, Launch, WindowProfile};
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/brace_rules/run.ptx"),
    )
    .unwrap();
    let module = parse(&src).unwrap();
    let prog = sim::prepare(&module, "k", &WindowProfile::SM90).unwrap();
    let input: Vec<u8> = [42u32, 0xbeef]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let launch = Launch::new(
        [1, 1, 1],
        [1, 1, 1],
        vec![
            Arg::Buffer {
                addr: None,
                bytes: input,
            },
            Arg::Buffer {
                addr: None,
                bytes: vec![0; 16],
            },
        ],
    );
    let out = sim::run(&prog, &launch).unwrap();
    let want: Vec<u8> = [0x2fu32, 7, 42, 0xbeef]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    assert_eq!(out.buffers[1].bytes, want);
    assert!(out.buffers[1].unspecified.iter().all(|&u| u == 0));
    assert!(out.reports.is_empty(), "{:?}", out.reports);
}
