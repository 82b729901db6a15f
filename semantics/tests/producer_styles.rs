//! PTX as other compilers write it (`tests/data/producer_styles`, modules
//! written for this test in the style of each producer): LLVM's NVPTX back
//! end (call sequences in `{ }` blocks with `.param` declarations,
//! `$L__BB` labels, `%SP`/`%SPL` and a local depot, `$str`, a
//! `.callprototype` inside the block for an indirect call), GCC's nvptx
//! back end (`.param.u32 %in_ar0`, declarations between instructions, a
//! predicate named `%r23`) and Triton's inline assembly (`[ %rd1 + 0 ]`
//! addresses, one-element brace lists, `cp.async` with a source size in a
//! register, `createpolicy.fractional ... 1.0`, an mbarrier wait loop in a
//! brace block with its own predicate and label, `red.global.gpu.add.f32`). ptxas 13.0 accepts all three (H100 machine,
//! 2026-11-27); `conform check` must too, and the simulator must store
//! what the GPU stored for the first two: 1 and 1 (`add1(0)` called
//! directly and through a pointer), and 49 (`square(7)`).

use ptx_semantics::catalogue::Target;
use ptx_semantics::check::{check_module, Options};
use ptx_semantics::ptx::parse;
use ptx_semantics::sim::{self, Arg, Launch, WindowProfile};

fn source(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/producer_styles")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn every_style_checks_clean() {
    for (name, arch) in [
        ("llvm_calls.ptx", "sm_80"),
        ("gcc_style.ptx", "sm_75"),
        ("triton_style.ptx", "sm_90a"),
    ] {
        let module = parse(&source(name)).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let options = Options {
            arch: Target::parse(arch),
            ..Options::default()
        };
        let found: Vec<String> = check_module(&module, &options)
            .into_iter()
            .map(|d| d.message)
            .collect();
        assert!(found.is_empty(), "{name}: {found:?}");
    }
}

fn run(name: &str, bytes: usize) -> Vec<u8> {
    let module = parse(&source(name)).unwrap();
    let prog = sim::prepare(&module, "kern", &WindowProfile::SM90).unwrap();
    let launch = Launch::new(
        [1, 1, 1],
        [1, 1, 1],
        vec![Arg::Buffer {
            addr: None,
            bytes: vec![0; bytes],
        }],
    );
    let out = sim::run(&prog, &launch).unwrap();
    assert!(out.reports.is_empty(), "{name}: {:?}", out.reports);
    assert!(out.buffers[0].unspecified.iter().all(|&u| u == 0));
    out.buffers[0].bytes.clone()
}

#[test]
fn llvm_call_sequences_run_as_on_the_gpu() {
    assert_eq!(run("llvm_calls.ptx", 8), [1, 0, 0, 0, 1, 0, 0, 0]);
}

#[test]
fn gcc_style_runs_as_on_the_gpu() {
    assert_eq!(run("gcc_style.ptx", 4), 49u32.to_le_bytes());
}
