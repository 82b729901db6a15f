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
/// through distributed shared memory. `barrier.cluster.arrive` and
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

/// One global word that the host sets to 0x0a0b0c0d; thread 0 (warp 0,
/// which runs first) reads it, copies it to `out[1]` and its value shifted
/// left by 8 to `out[2]`; then thread 32 (warp 1) stores 0x0a0b0c0e over
/// it. With nothing between them the read may see either value (8.10.6):
/// the bits they differ in, 0x0d ^ 0x0e = 0x03 of the low byte, are
/// unspecified in the copy, and the shifted value, computed from an
/// operand with unspecified bits, is unspecified as a whole (the
/// simulator's register rule: an operation with an open input leaves its
/// whole result open); the race is reported at the read. With a `bar.sync` between the read and the store
/// the read precedes it in causality order: the value, no report.
#[test]
fn a_read_before_a_racing_write_is_unspecified_in_what_derives_from_it() {
    let kernel = |sync: &str| {
        format!(
            r#"
.visible .entry k(.param .u64 out) {{
  .reg .b32 %r<5>; .reg .b64 %rd<3>; .reg .pred %p, %q;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p, %r1, 0;
  setp.eq.u32 %q, %r1, 32;
  @%p ld.global.u32 %r2, [%rd2];
  {sync}
  @%q st.global.u32 [%rd2], 0x0a0b0c0e;
  @!%p exit;
  st.global.u32 [%rd2+4], %r2;
  shl.b32 %r3, %r2, 8;
  st.global.u32 [%rd2+8], %r3;
  ret;
}}"#
        )
    };
    let launch = |src: &str| {
        let module = parse(&format!("{HEAD}{src}")).unwrap_or_else(|e| panic!("{e:?}"));
        assert!(check_module(&module, &Options::default()).is_empty());
        let prog = sim::prepare(&module, "k", &sim::WindowProfile::SM90).unwrap();
        let mut bytes = vec![0u8; 12];
        bytes[..4].copy_from_slice(&0x0a0b_0c0du32.to_le_bytes());
        let l = Launch::new(
            [1, 1, 1],
            [64, 1, 1],
            vec![Arg::Buffer { addr: None, bytes }],
        );
        let o = sim::run(&prog, &l).unwrap();
        assert!(o.reports.is_empty(), "{:?}", o.reports);
        o
    };
    let o = launch(&kernel(""));
    let bits = |o: &Outcome| {
        let b = &o.buffers[0];
        if b.unspecified_bits.is_empty() {
            vec![0; b.bytes.len()]
        } else {
            b.unspecified_bits.clone()
        }
    };
    let (old, new) = (0x0a0b_0c0du32, 0x0a0b_0c0eu32);
    let differ = (old ^ new).to_le_bytes();
    let shifted = u32::MAX.to_le_bytes();
    assert_eq!(bits(&o)[4..8], differ);
    assert_eq!(bits(&o)[8..12], shifted);
    // the defined bits are the read's
    assert_eq!(o.buffers[0].bytes[5..8], old.to_le_bytes()[1..]);
    assert_eq!(o.buffers[0].bytes[..4], new.to_le_bytes());
    assert_eq!(races(&o), 1, "{:?}", o.undefined_results);
    let r = &o.undefined_results[0];
    assert!(
        r.instruction.starts_with("@%p ld.global") || r.instruction.contains("ld.global"),
        "{r:?}"
    );
    assert!(
        r.note.contains("overwritten later") && r.note.contains("tid=[32, 0, 0]"),
        "{}",
        r.note
    );
    assert_eq!(r.thread.tid, [0, 0, 0]);

    let o = launch(&kernel("bar.sync 0;"));
    assert_eq!(bits(&o), [0; 12]);
    assert_eq!(o.buffers[0].bytes[4..8], old.to_le_bytes());
    assert_eq!(o.buffers[0].bytes[8..12], (old << 8).to_le_bytes());
    assert_eq!(races(&o), 0, "{:?}", o.undefined_results);
}

/// A read before a racing write of the value it read: whichever it sees,
/// the value is the same, so nothing is open and nothing is reported.
#[test]
fn a_read_before_a_racing_write_of_the_same_value_is_defined() {
    let o = run(
        r#"
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<3>; .reg .b64 %rd<3>; .reg .pred %p, %q;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p, %r1, 0;
  setp.eq.u32 %q, %r1, 32;
  @%p ld.global.u32 %r2, [%rd2];
  @%q st.global.u32 [%rd2], 0;
  @!%p exit;
  st.global.u32 [%rd2+4], %r2;
  ret;
}"#,
        1,
        64,
        None,
        8,
    );
    assert_eq!(unspecified(&o), [0; 8]);
    assert_eq!(races(&o), 0, "{:?}", o.undefined_results);
}

/// Thread 0 stores `a` (the word held 0) and arrives at named barrier 1
/// with warp 2; thread 32 (warp 1, in no barrier) stores `b` over it, a
/// race with thread 0's store; thread 64 leaves the barrier and copies
/// the word out. The read is ordered after thread 0's store, not thread
/// 32's, so it may see either (8.10.6). With `a == b == 7` every
/// candidate is 7: defined, and nothing is reported. With `a = 7, b = 9`
/// the low byte may be either (and either store may be the last, 8.10.1):
/// unspecified, the upper bytes (0 in both) defined.
#[test]
fn racing_writes_of_one_value_read_by_a_third_thread_are_defined() {
    let kernel = |a: u32, b: u32| {
        format!(
            r#"
.visible .entry k(.param .u64 out) {{
  .reg .b32 %r<3>; .reg .b64 %rd<3>; .reg .pred %p, %q, %s;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p, %r1, 0;
  setp.eq.u32 %q, %r1, 32;
  setp.eq.u32 %s, %r1, 64;
  @%p st.global.u32 [%rd2], {a};
  @%q st.global.u32 [%rd2], {b};
  setp.ge.u32 %q, %r1, 32;
  setp.lt.u32 %p, %r1, 64;
  and.pred %q, %q, %p;
  @%q exit;
  bar.sync 1, 64;
  @!%s exit;
  ld.global.u32 %r2, [%rd2];
  st.global.u32 [%rd2+4], %r2;
  ret;
}}"#
        )
    };
    let o = run(&kernel(7, 7), 1, 96, None, 8);
    assert_eq!(unspecified(&o), [0; 8]);
    assert_eq!(o.buffers[0].bytes[4..], 7u32.to_le_bytes());
    assert_eq!(races(&o), 0, "{:?}", o.undefined_results);
    let o = run(&kernel(7, 9), 1, 96, None, 8);
    assert_eq!(unspecified(&o)[4..], [1, 0, 0, 0]);
    assert_eq!(o.buffers[0].bytes[5..], [0, 0, 0]);
    assert!(races(&o) > 0);
}

/// The host leaves 7 in the word; thread 0 stores 7 over it and thread 32
/// reads it with nothing between them: the read may see the host's 7 or
/// thread 0's 7 (the host's bytes precede every thread's access), so it
/// is 7.
#[test]
fn a_racing_write_of_the_value_already_there_leaves_it_defined() {
    let src = r#"
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<3>; .reg .b64 %rd<3>; .reg .pred %p, %q;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p, %r1, 0;
  setp.eq.u32 %q, %r1, 32;
  @%p st.global.u32 [%rd2], 7;
  @!%q exit;
  ld.global.u32 %r2, [%rd2];
  st.global.u32 [%rd2+4], %r2;
  ret;
}"#;
    let module = parse(&format!("{HEAD}{src}")).unwrap_or_else(|e| panic!("{e:?}"));
    let prog = sim::prepare(&module, "k", &sim::WindowProfile::SM90).unwrap();
    let with = |first: u32| {
        let mut bytes = vec![0u8; 8];
        bytes[..4].copy_from_slice(&first.to_le_bytes());
        let l = Launch::new(
            [1, 1, 1],
            [64, 1, 1],
            vec![Arg::Buffer { addr: None, bytes }],
        );
        sim::run(&prog, &l).unwrap()
    };
    let o = with(7);
    assert_eq!(unspecified(&o), [0; 8]);
    assert_eq!(o.buffers[0].bytes[4..], 7u32.to_le_bytes());
    assert_eq!(races(&o), 0, "{:?}", o.undefined_results);
    // the host's 5 and thread 0's 7 differ in the low byte
    let o = with(5);
    assert_eq!(unspecified(&o)[4..], [1, 0, 0, 0]);
    assert!(races(&o) > 0);
}

/// Thread 0 stores 0x11 to a shared word; after a barrier all 64 threads
/// read it, then thread 5 stores 0x13 over it, and each thread copies
/// what it read to `out[tid]`. The run reads the word in every thread
/// before the store (warp 1, the barrier's last arrival, goes on first,
/// then warp 0 reads before its lane 5 stores), so each read got 0x11.
/// Without a second barrier every read but thread 5's own (which program
/// order puts before its store) may have seen 0x13: the bits 0x11 ^ 0x13
/// = 0x02 are open in its copy, the rest defined; the readers of both
/// warps make the reader summary one of several threads of the CTA. With
/// a `bar.sync` between the reads and the store every read gets 0x11.
#[test]
fn many_readers_before_a_racing_write_each_get_the_bits_it_could_change() {
    let kernel = |sync: &str| {
        format!(
            r#"
.visible .entry k(.param .u64 out) {{
  .reg .b32 %r<4>; .reg .b64 %rd<5>; .reg .pred %p, %q;
  .shared .align 4 .b32 s;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p, %r1, 0;
  setp.eq.u32 %q, %r1, 5;
  @%p st.shared.u32 [s], 0x11;
  bar.sync 0;
  ld.shared.u32 %r2, [s];
  {sync}
  @%q st.shared.u32 [s], 0x13;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r1, 4;
  add.u64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r2;
  ret;
}}"#
        )
    };
    let bits = |o: &Outcome| {
        let b = &o.buffers[0];
        if b.unspecified_bits.is_empty() {
            vec![0; b.bytes.len()]
        } else {
            b.unspecified_bits.clone()
        }
    };
    let o = run(&kernel(""), 1, 64, None, 256);
    let got = bits(&o);
    for t in 0..64 {
        let want = if t == 5 { 0 } else { 0x11 ^ 0x13 };
        assert_eq!(got[4 * t..4 * t + 4], [want, 0, 0, 0], "thread {t}");
        assert_eq!(o.buffers[0].bytes[4 * t + 1..4 * t + 4], [0, 0, 0]);
    }
    assert_eq!(o.buffers[0].bytes[20..24], 0x11u32.to_le_bytes());
    // one report per instruction: the first racing read, thread 32's
    // (warp 1 goes on first)
    assert_eq!(races(&o), 1, "{:?}", o.undefined_results);
    assert!(o.undefined_results[0].note.contains("overwritten later"));
    assert_eq!(o.undefined_results[0].thread.tid, [32, 0, 0]);
    let o = run(&kernel("bar.sync 0;"), 1, 64, None, 256);
    assert_eq!(bits(&o), vec![0; 256]);
    for t in 0..64 {
        assert_eq!(o.buffers[0].bytes[4 * t..4 * t + 4], 0x11u32.to_le_bytes());
    }
    assert_eq!(races(&o), 0, "{:?}", o.undefined_results);
}

/// CTA 0 reads a global word (the host's 0x01020304) and copies it to
/// `out[1]`; CTA 1, another cluster run after it, stores 0x01020305 over
/// it. Nothing orders the two (a `bar.sync` orders one CTA's threads):
/// the copy's bits 0x04 ^ 0x05 = 0x01 are open. `run_parallel` on two
/// threads gives the one-thread outcome (its chunks meet: a later chunk
/// writes what an earlier one read).
#[test]
fn a_read_and_a_later_write_of_another_cluster_race_on_several_threads_too() {
    let src = r#"
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<3>; .reg .b64 %rd<3>; .reg .pred %p;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %ctaid.x;
  setp.eq.u32 %p, %r1, 1;
  @%p bra WRITE;
  ld.global.u32 %r2, [%rd2];
  st.global.u32 [%rd2+4], %r2;
  ret;
WRITE:
  st.global.u32 [%rd2], 0x01020305;
  ret;
}"#;
    let module = parse(&format!("{HEAD}{src}")).unwrap_or_else(|e| panic!("{e:?}"));
    let prog = sim::prepare(&module, "k", &sim::WindowProfile::SM90).unwrap();
    let mut bytes = vec![0u8; 8];
    bytes[..4].copy_from_slice(&0x0102_0304u32.to_le_bytes());
    let l = Launch::new(
        [2, 1, 1],
        [1, 1, 1],
        vec![Arg::Buffer { addr: None, bytes }],
    );
    let one = sim::run(&prog, &l).unwrap();
    assert_eq!(one.buffers[0].unspecified_bits[4..], [0x01, 0, 0, 0]);
    assert_eq!(one.buffers[0].bytes[5..], [0x03, 0x02, 0x01]);
    assert_eq!(races(&one), 1, "{:?}", one.undefined_results);
    let (two, how) = sim::run_parallel_how(&prog, &l, 2).unwrap();
    assert_eq!(how, sim::Parallel::Rerun);
    assert_eq!(two, one);
}
