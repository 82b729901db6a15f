//! Device functions on the simulator (PTX ISA 9.7.12.5 `call`, 9.7.12.6
//! `ret`): the kernels are files under `tests/data/calls_*.ptx`, each with
//! the values it must write worked out in its header.

use ptx_semantics::check::{check_module, Options};
use ptx_semantics::ptx::parse;
use ptx_semantics::sim::{self, Arg, Launch, Outcome, StopKind, WindowProfile};

fn load(src: &str, kernel: &str, lenient: bool) -> sim::Program {
    let module = parse(src).unwrap_or_else(|e| panic!("{e:?}"));
    let profile = WindowProfile::SM90;
    if lenient {
        sim::prepare_lenient(&module, kernel, &profile).unwrap_or_else(|e| panic!("{e}"))
    } else {
        let diags = check_module(&module, &Options::default());
        assert!(diags.is_empty(), "{kernel}: {diags:?}");
        sim::prepare(&module, kernel, &profile).unwrap_or_else(|e| panic!("{e}"))
    }
}

/// Runs `kernel` with `threads` threads and zeroed buffers of these sizes.
fn run(src: &str, kernel: &str, threads: u32, buffers: &[usize]) -> Outcome {
    let args = buffers
        .iter()
        .map(|&n| Arg::Buffer {
            addr: None,
            bytes: vec![0; n],
        })
        .collect();
    let prog = load(src, kernel, false);
    sim::run(&prog, &Launch::new([1, 1, 1], [threads, 1, 1], args)).unwrap()
}

fn words32(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn words64(b: &[u8]) -> Vec<u64> {
    b.chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn no_stops(o: &Outcome) {
    assert!(o.reports.is_empty(), "{:?}", o.reports);
}

#[test]
fn direct_calls_pass_arguments_and_return_values() {
    let o = run(include_str!("data/calls_direct.ptx"), "direct", 3, &[48]);
    no_stops(&o);
    let mut want = Vec::new();
    for t in 0..3 {
        want.extend([t + 100, 2 * t, t + 7, t + 8]);
    }
    assert_eq!(words32(&o.buffers[0].bytes), want);
}

#[test]
fn structures_pass_by_bytes() {
    let o = run(include_str!("data/calls_struct.ptx"), "structs", 2, &[32]);
    no_stops(&o);
    let mut want = Vec::new();
    for t in 0..2u64 {
        want.push(t + ((t + 1) << 32) + 3);
        want.push(((3 + t) << 32) | (3 * t));
    }
    assert_eq!(words64(&o.buffers[0].bytes), want);
}

#[test]
fn every_call_has_its_own_frame() {
    let o = run(
        include_str!("data/calls_recursion.ptx"),
        "recursion",
        4,
        &[48],
    );
    no_stops(&o);
    let mut want = Vec::new();
    for t in 0..4 {
        want.extend([720, 55, t + 5]);
    }
    assert_eq!(words32(&o.buffers[0].bytes), want);
}

#[test]
fn calls_nested_past_the_limit_stop_the_thread() {
    let o = run(include_str!("data/calls_recursion.ptx"), "deep", 1, &[4]);
    assert_eq!(o.reports.len(), 1);
    match &o.reports[0].kind {
        StopKind::Resource(why) => assert!(why.contains("1024"), "{why}"),
        k => panic!("expected a resource stop, got {k:?}"),
    }
    assert!(o.reports[0].instruction.starts_with("call"));
    assert!(!o.budget_exhausted);
    assert_eq!(o.buffers[0].bytes, [0; 4]);
}

#[test]
fn indirect_calls_resolve_function_pointers() {
    let o = run(include_str!("data/calls_indirect.ptx"), "pick", 4, &[64]);
    no_stops(&o);
    let mut want = Vec::new();
    for t in 0..4 {
        let even = t % 2 == 0;
        want.push(if even { t + 11 } else { 2 * (t + 10) });
        want.push(if even { t + 1 } else { 2 * t });
        want.extend([0x1234, 0x5678]);
    }
    assert_eq!(words32(&o.buffers[0].bytes), want);
}

#[test]
fn a_pointer_that_is_no_function_is_undefined() {
    let o = run(include_str!("data/calls_indirect.ptx"), "bad", 1, &[4]);
    assert_eq!(o.reports.len(), 1);
    match &o.reports[0].kind {
        StopKind::Undefined(u) => assert_eq!(u.section, "9.7.12.5"),
        k => panic!("expected undefined behaviour, got {k:?}"),
    }
    assert_eq!(o.buffers[0].bytes, [0; 4]);
}

#[test]
fn a_function_with_no_body_returns_unspecified_bits() {
    let o = run(include_str!("data/calls_extern.ptx"), "printing", 2, &[16]);
    no_stops(&o);
    let b = &o.buffers[0];
    assert_eq!(words32(&b.bytes)[1], 1);
    assert_eq!(words32(&b.bytes)[3], 2);
    assert_eq!(b.unspecified[..4], [1; 4]);
    assert_eq!(b.unspecified[4..8], [0; 4]);
}

#[test]
fn functions_have_addresses_apart_from_data() {
    let src = include_str!("data/calls_indirect.ptx");
    let prog = load(src, "pick", false);
    let f = prog.functions();
    assert_eq!(f.len(), 2);
    assert_ne!(f[0].addr, f[1].addr);
    assert!(f.iter().all(|f| f.entry.is_some()
        && f.addr >= sim::program::FUNCTION_BASE
        && f.addr < u64::from(u32::MAX)));
}

/// nvcc's output for `corpus/nvcc/src/42_calls_params.cu`: structures
/// returned and passed by value, recursion, a table of function pointers,
/// virtual calls and `printf`. Floating-point arithmetic is not modelled,
/// so it runs leniently: what depends on it is unspecified; `out[t]` for
/// `t % 3 == 0` (where `sum_pair` reads the structure's exact float `t`) is
/// `3t + (t << 33) + t + fact(t & 7) + (sel[t] odd ? t * t : 2t)`.
#[test]
fn nvcc_calls_params_runs() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../corpus/nvcc/ptx/42_calls_params.sm_90.ptx"
    );
    let Ok(src) = std::fs::read_to_string(path) else {
        return;
    };
    let prog = load(&src, "calls", true);
    let sel: Vec<u8> = (0..8u32).flat_map(|t| t.to_le_bytes()).collect();
    let args = vec![
        Arg::Buffer {
            addr: None,
            bytes: vec![0; 64],
        },
        Arg::Buffer {
            addr: None,
            bytes: vec![0; 32],
        },
        Arg::Buffer {
            addr: None,
            bytes: sel,
        },
    ];
    let o = sim::run(&prog, &Launch::new([1, 1, 1], [8, 1, 1], args)).unwrap();
    no_stops(&o);
    let out = words64(&o.buffers[0].bytes);
    let fact = |n: u64| (1..=n.max(1)).product::<u64>();
    for t in [0u64, 3, 6] {
        let table = if t % 2 == 1 { t * t } else { 2 * t };
        assert_eq!(out[t as usize], 3 * t + (t << 33) + t + fact(t & 7) + table);
        // an empty shadow: no byte of the buffer is unspecified
        assert!(o.buffers[0]
            .unspecified
            .iter()
            .skip(8 * t as usize)
            .take(8)
            .all(|&u| u == 0));
    }
}

/// nvcc's output for `corpus/nvcc/src/34_params_structs_funcs.cu`: every
/// call of `by_value` (structures by value, a structure by reference,
/// pointers to the caller's locals, recursion) runs to its end; the values
/// depend on floating-point arithmetic, which is not modelled.
#[test]
fn nvcc_params_structs_funcs_runs() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../corpus/nvcc/ptx/34_params_structs_funcs.sm_90.ptx"
    );
    let Ok(src) = std::fs::read_to_string(path) else {
        return;
    };
    let prog = load(&src, "by_value", true);
    let mut args = vec![
        Arg::Bytes(vec![0; 12]),
        Arg::Bytes(vec![0; 12]),
        Arg::Bytes(vec![0; 40]),
        Arg::Bytes(vec![0; 96]),
        Arg::Bytes(vec![0; 32]),
    ];
    for n in [8 * 12, 8 * 8, 8 * 4, 8 * 16] {
        args.push(Arg::Buffer {
            addr: None,
            bytes: vec![0; n],
        });
    }
    let o = sim::run(&prog, &Launch::new([1, 1, 1], [8, 1, 1], args)).unwrap();
    no_stops(&o);
}

/// nvcc's output for `corpus/nvcc/src/23_mov_addr_funcptr.cu`: `call_indirect`
/// picks one of three functions per thread and then calls through a table
/// in a `.global` initializer; `addr_of_vars` stores addresses of variables
/// and of a function (strictly: it has no floating-point arithmetic).
#[test]
fn nvcc_mov_addr_funcptr_runs() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../corpus/nvcc/ptx/23_mov_addr_funcptr.sm_90.ptx"
    );
    let Ok(src) = std::fs::read_to_string(path) else {
        return;
    };
    let buffer = |n: usize| Arg::Buffer {
        addr: None,
        bytes: vec![0; n],
    };
    let prog = load(&src, "call_indirect", true);
    let args = vec![buffer(32), buffer(32), buffer(32), Arg::Bytes(vec![0; 4])];
    let o = sim::run(&prog, &Launch::new([1, 1, 1], [8, 1, 1], args)).unwrap();
    no_stops(&o);
    let prog = load(&src, "_Z12addr_of_varsPy", false);
    let o = sim::run(&prog, &Launch::new([1, 1, 1], [4, 1, 1], vec![buffer(48)])).unwrap();
    no_stops(&o);
    let out = words64(&o.buffers[0].bytes);
    // `mov.u64 %rd16, _Z6op_addff`: the first function's address
    assert_eq!(out[4], sim::program::FUNCTION_BASE);
    // and `d_ops`, which it names, holds all three
    assert_eq!(prog.functions().len(), 3);
}
