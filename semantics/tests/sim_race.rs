//! Data races of plain accesses on the simulator (PTX ISA 8.10.6, 8.10.1,
//! 8.7; semantics/src/sim/machine/race.rs): bits that racing writes could
//! leave different are unspecified, and each race is reported; accesses
//! that a barrier, a cluster barrier or a release/acquire pair orders are
//! not races. Each kernel's expected bytes are worked out beside it.

use ptx_semantics::check::{check_module, Options};
use ptx_semantics::ptx::parse;
use ptx_semantics::sim::{self, Arg, Launch, Outcome};

const HEAD: &str = ".version 8.0\n.target sm_90\n.address_size 64\n";

fn run(body: &str, grid: u32, threads: u32, cluster: Option<u32>, out: usize) -> Outcome {
    let src = format!("{HEAD}{body}");
    let module = parse(&src).unwrap_or_else(|e| panic!("{e:?}"));
    let diags = check_module(&module, &Options::default());
    assert!(diags.is_empty(), "{diags:?}");
    let prog = sim::prepare(&module, "k", &sim::WindowProfile::SM90).unwrap();
    let mut launch = Launch::new(
        [grid, 1, 1],
        [threads, 1, 1],
        vec![Arg::Buffer {
            addr: None,
            bytes: vec![0; out],
        }],
    );
    launch.cluster = cluster.map(|c| [c, 1, 1]);
    let o = sim::run(&prog, &launch).unwrap();
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    o
}

/// The unspecified flag of each output byte.
fn unspecified(o: &Outcome) -> Vec<u8> {
    let b = &o.buffers[0];
    if b.unspecified.is_empty() {
        vec![0; b.bytes.len()]
    } else {
        b.unspecified.clone()
    }
}

fn races(o: &Outcome) -> usize {
    o.undefined_results
        .iter()
        .filter(|r| format!("{:?}", r.kind).contains("data race"))
        .count()
}

/// Every thread stores its own `%tid.x` to one shared word, then (after a
/// barrier, which orders the stores before the read but not with each
/// other) thread 0 copies the word out. The 64 values 0..63 differ only in
/// the low byte: it is unspecified, the three others are 0.
#[test]
fn racing_stores_leave_the_bytes_they_differ_in_unspecified() {
    let o = run(
        r#"
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<3>; .reg .b64 %rd<3>; .reg .pred %p;
  .shared .align 4 .b32 s;
  mov.u32 %r1, %tid.x;
  st.shared.u32 [s], %r1;
  bar.sync 0;
  setp.ne.u32 %p, %r1, 0;
  @%p exit;
  ld.shared.u32 %r2, [s];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  st.global.u32 [%rd2], %r2;
  ret;
}"#,
        1,
        64,
        None,
        4,
    );
    assert_eq!(unspecified(&o), [1, 0, 0, 0]);
    assert_eq!(&o.buffers[0].bytes[1..], [0, 0, 0]);
    assert!(races(&o) > 0, "{:?}", o.undefined_results);
    assert!(o.undefined_results[0].note.contains("thread ctaid"));
}

/// The same, every thread storing 7: the racing writes agree, so nothing
/// is left open and nothing is reported.
#[test]
fn racing_stores_of_one_value_leave_it() {
    let o = run(
        r#"
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<3>; .reg .b64 %rd<3>; .reg .pred %p;
  .shared .align 4 .b32 s;
  mov.u32 %r1, %tid.x;
  st.shared.u32 [s], 7;
  bar.sync 0;
  setp.ne.u32 %p, %r1, 0;
  @%p exit;
  ld.shared.u32 %r2, [s];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  st.global.u32 [%rd2], %r2;
  ret;
}"#,
        1,
        64,
        None,
        4,
    );
    assert_eq!(unspecified(&o), [0; 4]);
    assert_eq!(o.buffers[0].bytes, 7u32.to_le_bytes());
    assert_eq!(races(&o), 0, "{:?}", o.undefined_results);
}

/// Thread 1 stores 0x01020304 to shared memory and thread 0 reads it: with
/// `bar.sync` between them the read gets the value; without, thread 0 may
/// read the word before the store (its initial bytes are indeterminate
/// anyway, so start it at 0 by thread 0 itself, before the barrier in both
/// versions).
#[test]
fn a_barrier_orders_a_store_before_a_read_and_no_barrier_races() {
    let kernel = |sync: &str| {
        format!(
            r#"
.visible .entry k(.param .u64 out) {{
  .reg .b32 %r<3>; .reg .b64 %rd<3>; .reg .pred %p, %q;
  .shared .align 4 .b32 s;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %q, %r1, 0;
  @%q st.shared.u32 [s], 0;
  bar.sync 0;
  setp.eq.u32 %p, %r1, 1;
  @%p st.shared.u32 [s], 0x01020304;
  {sync}
  @!%q exit;
  ld.shared.u32 %r2, [s];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  st.global.u32 [%rd2], %r2;
  ret;
}}"#
        )
    };
    let o = run(&kernel("bar.sync 0;"), 1, 64, None, 4);
    assert_eq!(unspecified(&o), [0; 4]);
    assert_eq!(o.buffers[0].bytes, 0x0102_0304u32.to_le_bytes());
    assert_eq!(races(&o), 0);
    let o = run(&kernel(""), 1, 64, None, 4);
    assert_eq!(unspecified(&o), [1; 4]);
    assert!(races(&o) > 0);
}

/// CTA 0 writes a global word; CTA 1 copies it to the next word. CTAs of
/// different clusters are not ordered by `bar.sync` (it orders a CTA's own
/// threads): the copy races. With a `fence` and an atomic between them
/// (the pattern of a release through a fence and an atomic), the check
/// does not follow whether they synchronise, and calls nothing a race.
#[test]
fn ctas_race_on_global_memory_unless_something_may_synchronise_them() {
    let kernel = |sync: &str| {
        format!(
            r#"
.visible .entry k(.param .u64 out) {{
  .reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .pred %p;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %ctaid.x;
  setp.ne.u32 %p, %r1, 0;
  @%p bra READ;
  st.global.u32 [%rd2], 0x0a0b0c0d;
  {sync}
  exit;
READ:
  {sync}
  ld.global.u32 %r2, [%rd2];
  st.global.u32 [%rd2+4], %r2;
  ret;
}}"#
        )
    };
    let o = run(&kernel("bar.sync 0;"), 2, 1, None, 8);
    assert_eq!(unspecified(&o)[4..], [1, 1, 1, 1]);
    assert!(races(&o) > 0);
    let o = run(
        &kernel("fence.acq_rel.gpu; atom.global.add.u32 %r3, [%rd2+8], 1;"),
        2,
        1,
        None,
        12,
    );
    assert_eq!(unspecified(&o)[4..8], [0; 4]);
    assert_eq!(o.buffers[0].bytes[4..8], 0x0a0b_0c0du32.to_le_bytes());
    assert_eq!(races(&o), 0);
}

/// Two CTAs of a cluster: CTA 0 writes its shared word, CTA 1 reads it
/// through distributed shared memory (in that order in the run: a read
/// that comes first in the interleaving and a write after it are not
/// detected). `barrier.cluster.arrive` and
/// `.wait` between them order the two (9.7.13.3); with none they race.
#[test]
fn a_cluster_barrier_orders_distributed_shared_memory() {
    let kernel = |sync: &str| {
        format!(
            r#"
.visible .entry k(.param .u64 out) .reqnctapercluster 2, 1, 1 {{
  .reg .b32 %r<6>; .reg .b64 %rd<3>; .reg .pred %p;
  .shared .align 4 .b32 s;
  mov.u32 %r1, %cluster_ctarank;
  setp.eq.u32 %p, %r1, 0;
  @%p st.shared.u32 [s], 0x11223344;
  {sync}
  @%p exit;
  mov.u32 %r2, s;
  mapa.shared::cluster.u32 %r3, %r2, 0;
  ld.shared::cluster.u32 %r4, [%r3];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  st.global.u32 [%rd2], %r4;
  ret;
}}"#
        )
    };
    let o = run(
        &kernel("barrier.cluster.arrive;\n  barrier.cluster.wait;"),
        2,
        1,
        None,
        4,
    );
    assert_eq!(unspecified(&o), [0; 4]);
    assert_eq!(o.buffers[0].bytes, 0x1122_3344u32.to_le_bytes());
    assert_eq!(races(&o), 0);
    let o = run(&kernel(""), 2, 1, None, 4);
    assert_eq!(unspecified(&o), [1; 4]);
    assert!(races(&o) > 0);
}

/// Message passing: thread 32 (another warp) writes the data, then a flag
/// with `st.release`; thread 0 spins on `ld.acquire` of the flag, then
/// reads the data. The acquire that sees the release orders the data
/// (8.10.6): no race, the value is the data.
#[test]
fn release_acquire_message_passing_is_not_a_race() {
    let o = run(
        r#"
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<4>; .reg .b64 %rd<3>; .reg .pred %p, %q;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p, %r1, 32;
  @!%p bra READER;
  st.global.u32 [%rd2+8], 0x55667788;
  st.release.gpu.global.u32 [%rd2+4], 1;
  exit;
READER:
  setp.ne.u32 %q, %r1, 0;
  @%q exit;
SPIN:
  ld.acquire.gpu.global.u32 %r2, [%rd2+4];
  setp.eq.u32 %q, %r2, 0;
  @%q bra SPIN;
  ld.global.u32 %r3, [%rd2+8];
  st.global.u32 [%rd2], %r3;
  ret;
}"#,
        1,
        64,
        None,
        12,
    );
    assert_eq!(unspecified(&o)[..4], [0; 4]);
    assert_eq!(o.buffers[0].bytes[..4], 0x5566_7788u32.to_le_bytes());
    assert_eq!(races(&o), 0);
}

/// A multicast bulk copy signals the mbarrier of each CTA of the mask.
/// Rank 1 initialises its own mbarrier, rank 0 issues the copy after a
/// spin of 400 iterations (so that rank 1's `mbarrier.init` comes first in
/// the run). With `fence.mbarrier_init` and a cluster barrier between the
/// initialisations and the copy (9.7.13.15.5), both CTAs get the data;
/// with nothing between them, the complete_tx may reach rank 1's object
/// before its init: undefined (9.7.13.15), whatever order the run took.
#[test]
fn a_peer_mbarrier_must_be_initialised_before_a_multicast_signals_it() {
    let kernel = |sync: &str| {
        format!(
            r#"
.visible .entry k(.param .u64 out, .param .u64 in) .reqnctapercluster 2, 1, 1 {{
  .reg .b32 %r<8>; .reg .b64 %rd<6>; .reg .pred %p, %q; .reg .b16 %h;
  .shared .align 16 .b8 buf[16];
  .shared .align 8 .b64 bar;
  mov.u32 %r1, bar;
  mbarrier.init.shared::cta.b64 [%r1], 1;
  {sync}
  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r1], 16;
  mov.u32 %r2, %cluster_ctarank;
  setp.eq.u32 %p, %r2, 0;
  @!%p bra WAIT;
  mov.u32 %r5, 0;
SPIN:
  add.u32 %r5, %r5, 1;
  setp.lt.u32 %q, %r5, 400;
  @%q bra SPIN;
  ld.param.u64 %rd1, [in];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r3, buf;
  mov.u16 %h, 3;
  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r3], [%rd2], 16, [%r1], %h;
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %q, [%r1], 0;
  @!%q bra WAIT;
  ld.shared.u32 %r4, [buf];
  ld.param.u64 %rd3, [out];
  cvta.to.global.u64 %rd4, %rd3;
  mul.wide.u32 %rd5, %r2, 4;
  add.u64 %rd4, %rd4, %rd5;
  st.global.u32 [%rd4], %r4;
  ret;
}}"#
        )
    };
    let launch = |src: &str| {
        let module = parse(&format!("{HEAD}{src}")).unwrap_or_else(|e| panic!("{e:?}"));
        let diags = check_module(&module, &Options::default());
        assert!(diags.is_empty(), "{diags:?}");
        let prog = sim::prepare(&module, "k", &sim::WindowProfile::SM90).unwrap();
        let input: Vec<u8> = (0..16u8)
            .map(|b| b.wrapping_mul(17).wrapping_add(1))
            .collect();
        let l = Launch::new(
            [2, 1, 1],
            [1, 1, 1],
            vec![
                Arg::Buffer {
                    addr: None,
                    bytes: vec![0; 8],
                },
                Arg::Buffer {
                    addr: None,
                    bytes: input,
                },
            ],
        );
        sim::run(&prog, &l).unwrap()
    };
    let o = launch(&kernel(
        "fence.mbarrier_init.release.cluster;\n  barrier.cluster.arrive.relaxed;\n  barrier.cluster.wait;",
    ));
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    let want = u32::from_le_bytes([1, 18, 35, 52]);
    assert_eq!(o.buffers[0].bytes[..4], want.to_le_bytes());
    assert_eq!(o.buffers[0].bytes[4..], want.to_le_bytes());
    let o = launch(&kernel(""));
    let undefined: Vec<_> = o
        .reports
        .iter()
        .filter(|r| format!("{:?}", r.kind).contains("may still be uninitialized"))
        .collect();
    assert_eq!(undefined.len(), 1, "{:?}", o.reports);
    assert!(undefined[0].instruction.starts_with("cp.async.bulk"));
    assert!(
        undefined[0].note.contains("ctaid=[1, 0, 0]"),
        "{}",
        undefined[0].note
    );
}
