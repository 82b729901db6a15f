//! Simulated thread-instructions per second on a memory- and
//! conversion-heavy kernel: each thread walks a buffer, loading vectors and
//! bytes, converting between integer widths (`cvt`), permuting bytes
//! (`prmt`), exchanging values across the warp (`shfl.sync`), going
//! through shared memory and generic addresses (`cvta`), and storing; and
//! an `fma.rn.f32` loop (issue 18's second figure): each thread runs a
//! chain of eight dependent fused multiply-adds a turn, through the
//! IEEE arithmetic of `semantics/src/arith`.
//!
//!     cargo bench -p ptx-semantics --bench sim

use ptx_semantics::ptx::parse;
use ptx_semantics::sim::{self, Arg, Launch, WindowProfile};
use std::time::Instant;

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

const KERNEL: &str = r#"
.version 8.7
.target sm_90
.address_size 64

.visible .entry convert(.param .u64 psrc, .param .u64 pdst, .param .u32 iters)
{
	.reg .pred %p<4>;
	.reg .b16 %h<4>;
	.reg .b32 %r<32>;
	.reg .b64 %rd<16>;
	.shared .align 16 .b8 sh[4096];

	ld.param.u64 %rd1, [psrc];
	ld.param.u64 %rd2, [pdst];
	ld.param.u32 %r1, [iters];
	cvta.to.global.u64 %rd1, %rd1;
	cvta.to.global.u64 %rd2, %rd2;
	mov.u32 %r2, %tid.x;
	mov.u32 %r3, %ctaid.x;
	mov.u32 %r4, %ntid.x;
	mad.lo.s32 %r5, %r3, %r4, %r2;
	mul.wide.u32 %rd3, %r5, 16;
	add.s64 %rd4, %rd1, %rd3;
	add.s64 %rd5, %rd2, %rd3;
	mov.u32 %r6, sh;
	shl.b32 %r7, %r2, 4;
	add.s32 %r8, %r6, %r7;
	cvt.u64.u32 %rd6, %r8;
	cvta.shared.u64 %rd7, %rd6;
	mov.u32 %r9, 0;
LOOP:
	ld.global.v4.u32 {%r10, %r11, %r12, %r13}, [%rd4];
	cvt.u16.u32 %h1, %r10;
	cvt.s32.s16 %r14, %h1;
	cvt.u8.u32 %h2, %r11;
	cvt.u32.u8 %r15, %h2;
	prmt.b32 %r16, %r12, %r13, 0x5140;
	prmt.b32.f4e %r17, %r16, %r14, %r9;
	shfl.sync.bfly.b32 %r18, %r17, 1, 0x1f, 0xffffffff;
	st.v4.u32 [%rd7], {%r14, %r15, %r16, %r18};
	ld.shared.v2.u32 {%r19, %r20}, [%r8+8];
	ld.global.s8 %r21, [%rd4+3];
	add.s32 %r22, %r19, %r21;
	xor.b32 %r23, %r20, %r22;
	st.global.v4.u32 [%rd5], {%r22, %r23, %r15, %r14};
	add.s32 %r9, %r9, 1;
	setp.lt.u32 %p1, %r9, %r1;
	@%p1 bra LOOP;
	ret;
}
"#;

/// This thread's time on a CPU, in seconds (Linux: /proc/thread-self/schedstat),
/// so that a busy machine's other tenants do not count against the rate.
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

const FMA_KERNEL: &str = r#"
.version 8.7
.target sm_90
.address_size 64

.visible .entry fma(.param .u64 psrc, .param .u64 pdst, .param .u32 iters)
{
	.reg .pred %p;
	.reg .b32 %r<8>;
	.reg .f32 %f<8>;
	.reg .b64 %rd<8>;

	ld.param.u64 %rd1, [psrc];
	ld.param.u64 %rd2, [pdst];
	ld.param.u32 %r1, [iters];
	cvta.to.global.u64 %rd1, %rd1;
	cvta.to.global.u64 %rd2, %rd2;
	mov.u32 %r2, %tid.x;
	mov.u32 %r3, %ctaid.x;
	mov.u32 %r4, %ntid.x;
	mad.lo.s32 %r5, %r3, %r4, %r2;
	mul.wide.u32 %rd3, %r5, 16;
	add.s64 %rd4, %rd1, %rd3;
	add.s64 %rd5, %rd2, %rd3;
	ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];
	mov.u32 %r6, 0;
LOOP:
	fma.rn.f32 %f1, %f1, %f2, %f3;
	fma.rn.f32 %f1, %f1, %f4, %f2;
	fma.rn.f32 %f1, %f1, %f2, %f3;
	fma.rn.f32 %f1, %f1, %f4, %f2;
	fma.rn.f32 %f1, %f1, %f2, %f3;
	fma.rn.f32 %f1, %f1, %f4, %f2;
	fma.rn.f32 %f1, %f1, %f2, %f3;
	fma.rn.f32 %f1, %f1, %f4, %f2;
	add.u32 %r6, %r6, 1;
	setp.lt.u32 %p, %r6, %r1;
	@%p bra LOOP;
	st.global.f32 [%rd5], %f1;
	ret;
}
"#;

fn main() {
    // SIM_BENCH_QUICK=1: one small run (for profilers that count instructions)
    let quick = std::env::var_os("SIM_BENCH_QUICK").is_some();
    println!("memory and conversions:");
    measure(KERNEL, "convert", quick, |i| (i * 131 % 251) as u8);
    println!("fma.rn.f32 loop:");
    // inputs: f32 values near 1.0 (the chain stays finite)
    measure(FMA_KERNEL, "fma", quick, |i| {
        [0x00, 0x00, 0x80, 0x3f][i % 4] ^ if i % 4 == 0 { (i / 4) as u8 } else { 0 }
    });
}

fn measure(kernel: &str, entry: &str, quick: bool, byte: impl Fn(usize) -> u8) {
    let module = parse(kernel).expect("the kernel parses");
    let prog = sim::prepare(&module, entry, &WindowProfile::SM90).expect("the kernel loads");
    let (ctas, threads, iters) = if quick {
        (8u32, 256u32, 8u32)
    } else {
        (64, 256, 64)
    };
    let n = (ctas * threads * 16) as usize;
    let src: Vec<u8> = (0..n).map(byte).collect();
    let launch = Launch::new(
        [ctas, 1, 1],
        [threads, 1, 1],
        vec![
            Arg::Buffer {
                addr: None,
                bytes: src,
            },
            Arg::Buffer {
                addr: None,
                bytes: vec![0; n],
            },
            Arg::u32(iters),
        ],
    );
    // SIM_BENCH_THREADS=N: the clusters on N threads (sim::run_parallel)
    let workers: usize = std::env::var("SIM_BENCH_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let mut rates = Vec::new();
    let mut cpu_rates = Vec::new();
    let mut steps = 0;
    for _ in 0..if quick { 1 } else { 7 } {
        let t = Instant::now();
        let c = cpu_seconds();
        let out = if workers > 1 {
            let (out, how) =
                sim::run_parallel_how(&prog, &launch, workers).expect("the launch runs");
            assert_eq!(how, sim::Parallel::Kept, "the CTAs are independent");
            out
        } else {
            sim::run(&prog, &launch).expect("the launch runs")
        };
        let s = t.elapsed().as_secs_f64();
        // the thread's own CPU time: meaningful on one thread only
        if let (Some(c0), Some(c1), 1) = (c, cpu_seconds(), workers) {
            cpu_rates.push(out.steps as f64 / (c1 - c0));
        }
        assert!(out.reports.is_empty(), "{:?}", &out.reports[..1]);
        steps = out.steps;
        rates.push(out.steps as f64 / s);
    }
    rates.sort_by(|a, b| a.total_cmp(b));
    cpu_rates.sort_by(|a, b| a.total_cmp(b));
    println!(
        "{} thread-instructions per run ({} CTAs x {} threads x {} iterations, {} thread(s)); median {:.1} M/s (min {:.1}, max {:.1}) over {} runs",
        steps,
        ctas,
        threads,
        iters,
        workers,
        rates[rates.len() / 2] / 1e6,
        rates[0] / 1e6,
        rates[rates.len() - 1] / 1e6,
        rates.len()
    );
    if !cpu_rates.is_empty() {
        println!(
            "per second of CPU time: median {:.1} M/s (min {:.1}, max {:.1})",
            cpu_rates[cpu_rates.len() / 2] / 1e6,
            cpu_rates[0] / 1e6,
            cpu_rates[cpu_rates.len() - 1] / 1e6
        );
    }
}
