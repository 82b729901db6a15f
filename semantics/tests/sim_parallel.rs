//! `sim::run_parallel` gives what `sim::run` gives: the same buffers,
//! unspecified bytes, reports and step counts, whether the clusters are
//! independent (run on several threads), communicate (an atomic counter,
//! a read of another CTA's bytes: run again on one thread), race or stop.

use ptx_semantics::check::{check_module, Options};
use ptx_semantics::ptx::parse;
use ptx_semantics::sim::{self, Arg, Launch};

const HEAD: &str = ".version 8.0\n.target sm_90\n.address_size 64\n";

fn same(body: &str, grid: u32, block: u32, buffers: &[usize], how: sim::Parallel) {
    let module = parse(&format!("{HEAD}{body}")).unwrap_or_else(|e| panic!("{e:?}"));
    let diags = check_module(&module, &Options::default());
    assert!(diags.is_empty(), "{diags:?}");
    let prog = sim::prepare(&module, "k", &sim::WindowProfile::SM90).unwrap();
    let args = buffers
        .iter()
        .enumerate()
        .map(|(k, &n)| Arg::Buffer {
            addr: None,
            bytes: (0..n).map(|b| (b * 7 + k * 13) as u8).collect(),
        })
        .collect();
    let launch = Launch::new([grid, 1, 1], [block, 1, 1], args);
    let one = sim::run(&prog, &launch).unwrap();
    for workers in [2, 3, 8] {
        let (many, ran) = sim::run_parallel_how(&prog, &launch, workers).unwrap();
        assert_eq!(one, many, "{workers} workers");
        assert_eq!(ran, how, "{workers} workers");
    }
    let (_, ran) = sim::run_parallel_how(&prog, &launch, 1).unwrap();
    assert_eq!(ran, sim::Parallel::OneThread);
}

/// Each thread writes its own element: independent CTAs.
#[test]
fn independent_ctas() {
    same(
        r#"
.visible .entry k(.param .u64 a, .param .u64 b) {
  .reg .b32 %r<6>; .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [a];
  ld.param.u64 %rd2, [b];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.u32 %r4, %r1, %r2, %r3;
  mul.wide.u32 %rd3, %r4, 4;
  add.u64 %rd4, %rd1, %rd3;
  add.u64 %rd5, %rd2, %rd3;
  ld.global.u32 %r5, [%rd4];
  mul.lo.u32 %r5, %r5, 3;
  add.u32 %r5, %r5, %r4;
  st.global.u32 [%rd5], %r5;
  ret;
}"#,
        16,
        64,
        &[4096, 4096],
        sim::Parallel::Kept,
    );
}

/// Every CTA takes a ticket from one counter and writes it: the chunks
/// meet at the counter, so the launch runs on one thread.
#[test]
fn an_atomic_counter_across_ctas() {
    same(
        r#"
.visible .entry k(.param .u64 a, .param .u64 b) {
  .reg .b32 %r<4>; .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [a];
  ld.param.u64 %rd2, [b];
  atom.global.add.u32 %r1, [%rd1], 1;
  mov.u32 %r2, %ctaid.x;
  mul.wide.u32 %rd3, %r2, 4;
  add.u64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r1;
  ret;
}"#,
        12,
        1,
        &[4, 64],
        sim::Parallel::Rerun,
    );
}

/// CTA k copies what CTA k - 1 wrote, with nothing ordering them (a race
/// the model reports), and CTA 5 reads past its buffer (undefined).
#[test]
fn ctas_that_read_each_other_race_or_stop() {
    same(
        r#"
.visible .entry k(.param .u64 a, .param .u64 b) {
  .reg .b32 %r<6>; .reg .b64 %rd<8>; .reg .pred %p;
  ld.param.u64 %rd1, [a];
  mov.u32 %r1, %ctaid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.u64 %rd4, %rd1, %rd3;
  st.global.u32 [%rd4], %r1;
  setp.eq.u32 %p, %r1, 0;
  @%p exit;
  ld.global.u32 %r2, [%rd4+-4];
  ld.param.u64 %rd2, [b];
  add.u64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r2;
  setp.ne.u32 %p, %r1, 5;
  @%p exit;
  ld.global.u32 %r3, [%rd5+4096];
  ret;
}"#,
        8,
        1,
        &[32, 32],
        sim::Parallel::Rerun,
    );
}
