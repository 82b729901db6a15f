//! `atom` and `red` (PTX ISA 9.7.13) in the kernel interpreter, with
//! `WARP_SZ` and `nanosleep`: each atom is one indivisible
//! read-modify-write, `atom` returns the old value, and the expected values
//! below are worked by hand from the spec's definitions.

use ptx_semantics::ptx::parse;
use ptx_semantics::sim::{self, Arg, Launch, Outcome, StopKind, WindowProfile};

const HEAD: &str = ".version 8.7\n.target sm_90\n.address_size 64\n";

const REGS: &str = "\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<16>;\n\t.reg .f32 %f<4>;\n\t.reg .f64 %fd<4>;\n\tld.param.u64 %rd1, [p];\n";

/// One zeroed buffer of `n` bytes as the only parameter, `threads` threads
/// in one CTA.
fn run(body: &str, n: usize, threads: u32) -> Outcome {
    let src = format!("{HEAD}.visible .entry k(.param .u64 p)\n{{\n{REGS}{body}\n\tret;\n}}\n");
    let module = parse(&src).unwrap_or_else(|e| panic!("{e:?}\n{src}"));
    let prog =
        sim::prepare(&module, "k", &WindowProfile::SM90).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let launch = Launch::new(
        [1, 1, 1],
        [threads, 1, 1],
        vec![Arg::Buffer {
            addr: None,
            bytes: vec![0; n],
        }],
    );
    sim::run(&prog, &launch).unwrap()
}

fn u32_at(o: &Outcome, k: usize) -> u32 {
    u32::from_le_bytes(o.buffers[0].bytes[k..k + 4].try_into().unwrap())
}

fn u64_at(o: &Outcome, k: usize) -> u64 {
    u64::from_le_bytes(o.buffers[0].bytes[k..k + 8].try_into().unwrap())
}

fn sections(o: &Outcome) -> Vec<&'static str> {
    o.reports
        .iter()
        .map(|r| match &r.kind {
            StopKind::Undefined(u) => u.section,
            k => panic!("expected undefined behaviour, got {k:?}"),
        })
        .collect()
}

#[test]
fn sixty_four_threads_count_with_atom_global_add() {
    // every thread adds 1 to the counter at [p] and stores the old value
    // at [p + 4 + 4 * tid]: the sum is 64, the old values 0..63 in some order
    let o = run(
        "\tmov.u32 %r1, %tid.x;\n\tatom.global.relaxed.gpu.add.u32 %r2, [%rd1], 1;\n\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.u64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3+4], %r2;",
        4 + 4 * 64,
        64,
    );
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    assert_eq!(u32_at(&o, 0), 64);
    let mut old: Vec<u32> = (0..64).map(|t| u32_at(&o, 4 + 4 * t)).collect();
    old.sort_unstable();
    assert_eq!(old, (0..64).collect::<Vec<u32>>());
    assert!(o.buffers[0].unspecified.iter().all(|&u| u == 0));
}

#[test]
fn red_shared_add_sums_the_thread_ids() {
    // 0 + 1 + ... + 63 = 2016
    let o = run(
        "\t.shared .align 4 .u32 s;\n\tmov.u32 %r1, %tid.x;\n\tsetp.eq.u32 %p1, %r1, 0;\n\t@%p1 st.shared.u32 [s], 0;\n\tbar.sync 0;\n\tred.shared::cta.add.u32 [s], %r1;\n\tbar.sync 0;\n\t@%p1 ld.shared.u32 %r2, [s];\n\t@%p1 st.global.u32 [%rd1], %r2;",
        4,
        64,
    );
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    assert_eq!(u32_at(&o, 0), 2016);
}

#[test]
fn atom_cas_swaps_only_on_equality() {
    // [p] = 5; cas(5 -> 9) returns 5 and writes 9; cas(5 -> 7) returns 9
    // and leaves 9; the 64-bit form through a generic address likewise
    let o = run(
        "\tst.global.u32 [%rd1], 5;\n\tatom.global.cas.b32 %r1, [%rd1], 5, 9;\n\tatom.cas.b32 %r2, [%rd1], 5, 7;\n\tst.global.u32 [%rd1+4], %r1;\n\tst.global.u32 [%rd1+8], %r2;\n\tatom.acq_rel.sys.cas.b64 %rd4, [%rd1+16], 0, 0x123456789;",
        24,
        1,
    );
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    assert_eq!((u32_at(&o, 0), u32_at(&o, 4), u32_at(&o, 8)), (9, 5, 9));
    assert_eq!(u64_at(&o, 16), 0x123456789);
}

#[test]
fn inc_and_dec_wrap_as_the_spec_defines() {
    // inc: (old >= b) ? 0 : old + 1; dec: (old == 0 || old > b) ? b : old - 1
    let o = run(
        "\tst.global.u32 [%rd1], 3;\n\tatom.global.inc.u32 %r1, [%rd1], 3;\n\tatom.global.inc.u32 %r2, [%rd1], 3;\n\tst.global.u32 [%rd1+4], %r1;\n\tst.global.u32 [%rd1+8], %r2;\n\tst.global.u32 [%rd1+12], 1;\n\tatom.global.dec.u32 %r3, [%rd1+12], 5;\n\tatom.global.dec.u32 %r4, [%rd1+12], 5;\n\tst.global.u32 [%rd1+16], %r4;\n\tst.global.u32 [%rd1+20], 7;\n\tred.global.dec.u32 [%rd1+20], 5;",
        24,
        1,
    );
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    // 3 -> 0 (3 >= 3) -> 1
    assert_eq!((u32_at(&o, 0), u32_at(&o, 4), u32_at(&o, 8)), (1, 3, 0));
    // 1 -> 0 -> 5 (old == 0); the second returned 0
    assert_eq!((u32_at(&o, 12), u32_at(&o, 16)), (5, 0));
    // 7 > 5 -> 5
    assert_eq!(u32_at(&o, 20), 5);
}

#[test]
fn atom_add_f32_flushes_subnormals_in_global_memory_only() {
    // global: 0x00000001 + 0x00000001 flushes both inputs: +0; 1.0 plus the
    // subnormal is 1.0. shared: the subnormals add exactly, 0x00000002.
    // f64: 1.5 + 2.25 = 3.75 (0x400e000000000000).
    let o = run(
        "\t.shared .align 4 .b32 s;\n\tst.global.b32 [%rd1], 1;\n\tmov.b32 %f1, 1;\n\tred.global.add.f32 [%rd1], %f1;\n\tst.global.f32 [%rd1+4], 0f3F800000;\n\tatom.global.add.f32 %f2, [%rd1+4], %f1;\n\tst.shared.b32 [s], 1;\n\tatom.shared.add.f32 %f3, [s], %f1;\n\tld.shared.b32 %r1, [s];\n\tst.global.b32 [%rd1+8], %r1;\n\tst.global.f64 [%rd1+16], 0d3FF8000000000000;\n\tatom.global.add.f64 %fd1, [%rd1+16], 0d4002000000000000;",
        24,
        1,
    );
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    assert_eq!(u32_at(&o, 0), 0);
    assert_eq!(u32_at(&o, 4), 0x3f80_0000);
    assert_eq!(u32_at(&o, 8), 2);
    assert_eq!(u64_at(&o, 16), 0x400e_0000_0000_0000);
}

#[test]
fn min_and_max_compare_signed_or_unsigned_by_type() {
    // with -1 (0xffffffff) in memory and b = 1: min.s32 keeps -1, min.u32
    // gives 1, max.s32 gives 1, max.u32 keeps 0xffffffff
    let o = run(
        "\tst.global.u32 [%rd1], -1;\n\tst.global.u32 [%rd1+4], -1;\n\tst.global.u32 [%rd1+8], -1;\n\tst.global.u32 [%rd1+12], -1;\n\tred.global.min.s32 [%rd1], 1;\n\tred.global.min.u32 [%rd1+4], 1;\n\tatom.global.max.s32 %r1, [%rd1+8], 1;\n\tatom.global.max.u32 %r2, [%rd1+12], 1;\n\tst.global.s64 [%rd1+16], -5;\n\tred.global.max.s64 [%rd1+16], -7;",
        24,
        1,
    );
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    assert_eq!(
        (u32_at(&o, 0), u32_at(&o, 4), u32_at(&o, 8), u32_at(&o, 12)),
        (0xffff_ffff, 1, 1, 0xffff_ffff)
    );
    assert_eq!(u64_at(&o, 16) as i64, -5);
}

#[test]
fn bitwise_and_exchange() {
    // 0b1100 & 0b1010 = 0b1000, | 0b0001 = 0b1001, ^ 0b1111 = 0b0110;
    // exch returns 0b0110 and writes 42
    let o = run(
        "\tst.global.u32 [%rd1], 12;\n\tred.global.and.b32 [%rd1], 10;\n\tred.global.or.b32 [%rd1], 1;\n\tred.global.xor.b32 [%rd1], 15;\n\tatom.global.exch.b32 %r1, [%rd1], 42;\n\tst.global.u32 [%rd1+4], %r1;",
        8,
        1,
    );
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    assert_eq!((u32_at(&o, 0), u32_at(&o, 4)), (42, 6));
}

#[test]
fn misaligned_and_local_atoms_are_undefined() {
    let o = run("\tatom.global.add.u32 %r1, [%rd1+2], 1;", 8, 1);
    assert_eq!(sections(&o), ["6.4.1"]);
    assert_eq!(o.buffers[0].bytes, vec![0; 8]);
    // outside every object, as for ld/st
    let o = run("\tred.global.add.u32 [%rd1+8], 1;", 8, 1);
    assert_eq!(sections(&o), [sim::Undefined::MODEL]);
    // a generic address in the local window: atomics are strong
    // operations, which only .global and .shared locations support
    let o = run(
        "\t.local .align 4 .u32 v;\n\tmov.u64 %rd2, v;\n\tcvta.local.u64 %rd3, %rd2;\n\tatom.add.u32 %r1, [%rd3], 1;",
        8,
        1,
    );
    assert_eq!(sections(&o).len(), 1);
}

/// The clause the simulator stops with.
fn clause(o: &Outcome) -> (&'static str, &'static str) {
    match o.reports.first().map(|r| &r.kind) {
        Some(StopKind::Undefined(u)) => (u.section, u.rule),
        k => panic!("expected undefined behaviour, got {k:?}"),
    }
}

fn rule_of(p: &ptx_semantics::precond::Precondition) -> (&'static str, &'static str) {
    (p.section, p.rule)
}

/// A generic `atom`/`red` address must point to the global or shared
/// window (PTX ISA 9.7.13.5, 9.7.13.6): the simulator stops with the
/// preconditions `conform ub` asks (`table::atom`), alignment first.
#[test]
fn generic_atoms_outside_global_and_shared_stop_with_the_table_s_clause() {
    use ptx_semantics::precond::table;
    let local = "\t.local .align 8 .u32 v[2];\n\tmov.u64 %rd2, v;\n\tcvta.local.u64 %rd3, %rd2;\n";
    let o = run(&format!("{local}\tatom.add.u32 %r1, [%rd3], 1;"), 8, 1);
    assert_eq!(clause(&o), rule_of(&table::ATOM_GENERIC_SPACE));
    let o = run(&format!("{local}\tred.add.u32 [%rd3], 1;"), 8, 1);
    assert_eq!(clause(&o), rule_of(&table::RED_GENERIC_SPACE));
    // misaligned and in the local window: the alignment rule first
    let o = run(&format!("{local}\tatom.add.u32 %r1, [%rd3+2], 1;"), 8, 1);
    assert_eq!(clause(&o), rule_of(&table::ALIGNED));
    // a generic address of the global buffer and of a shared variable: no
    // stop, and the atom happened
    let o = run(
        "\t.shared .align 4 .u32 s;\n\tmov.u64 %rd2, s;\n\tcvta.shared.u64 %rd3, %rd2;\n\tst.shared.u32 [s], 4;\n\tatom.add.u32 %r1, [%rd3], 1;\n\tatom.add.u32 %r2, [%rd1], 3;\n\tld.shared.u32 %r3, [s];\n\tst.global.u32 [%rd1+4], %r3;",
        8,
        1,
    );
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    assert_eq!((u32_at(&o, 0), u32_at(&o, 4)), (3, 5));
}

/// The warp and CTA synchronisation rules the simulator checks are the
/// ones `conform ub` asks (`table::BAR_OPERANDS`,
/// `table::BAR_WARP_SYNC_MEMBER`, `table::warp_member`): same section,
/// same sentence.
#[test]
fn warp_and_barrier_rules_stop_with_the_table_s_clauses() {
    use ptx_semantics::precond::table;
    let o = run("\tmov.u32 %r1, 16;\n\tbar.sync %r1;", 8, 32);
    assert_eq!(clause(&o), rule_of(&table::BAR_OPERANDS));
    let o = run("\tbar.sync 1, 48;", 8, 64);
    assert_eq!(clause(&o), rule_of(&table::BAR_OPERANDS));
    let o = run("\tbar.arrive 1, 0;", 8, 32);
    assert_eq!(clause(&o), rule_of(&table::BAR_ARRIVE_OPERANDS));
    let o = run("\tbar.warp.sync 0xfffffffe;", 8, 32);
    assert_eq!(clause(&o), rule_of(&table::BAR_WARP_SYNC_MEMBER));
    let o = run(
        "\tsetp.ne.u32 %p1, 0, 0;\n\tvote.sync.ballot.b32 %r1, %p1, 0xfffffffe;",
        8,
        32,
    );
    assert_eq!(clause(&o), rule_of(&table::VOTE_SYNC_MEMBER));
    let o = run("\tredux.sync.add.u32 %r1, 1, 0xfffffffe;", 8, 32);
    assert_eq!(clause(&o), rule_of(&table::REDUX_SYNC_MEMBER));
    let o = run("\telect.sync %r1|%p1, 0xfffffffe;", 8, 32);
    assert_eq!(clause(&o), rule_of(&table::ELECT_SYNC_MEMBER));
    let o = run("\tmatch.any.sync.b32 %r1, 7, 0xfffffffe;", 8, 32);
    assert_eq!(clause(&o), rule_of(&table::MATCH_SYNC_MEMBER));
    let o = run("\tmov.u32 %r1, 32;\n\tfns.b32 %r2, 0xff, %r1, 1;", 8, 1);
    assert_eq!(clause(&o), rule_of(&table::FNS_BASE));
    // inside the rules: no stop
    let o = run(
        "\tbar.sync 15, 32;\n\tbar.warp.sync 0xffffffff;\n\tfns.b32 %r2, 0xff, 31, 1;",
        8,
        32,
    );
    assert!(o.reports.is_empty(), "{:?}", o.reports);
}

#[test]
fn unspecified_memory_makes_the_atom_unspecified() {
    // uninitialized shared memory: the old value and the sum are unknown
    let o = run(
        "\t.shared .align 4 .u32 s;\n\tatom.shared.add.u32 %r1, [s], 1;\n\tst.global.u32 [%rd1], %r1;\n\tld.shared.u32 %r2, [s];\n\tst.global.u32 [%rd1+4], %r2;",
        8,
        1,
    );
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    assert_eq!(o.buffers[0].unspecified, vec![1; 8]);
}

#[test]
fn warp_sz_reads_32() {
    let o = run(
        "\tmov.u32 %r1, WARP_SZ;\n\tadd.u32 %r2, %r1, WARP_SZ;\n\tst.global.u32 [%rd1], %r1;\n\tst.global.u32 [%rd1+4], %r2;",
        8,
        1,
    );
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    assert_eq!((u32_at(&o, 0), u32_at(&o, 4)), (32, 64));
}

#[test]
fn nanosleep_changes_nothing() {
    let o = run(
        "\tmov.u32 %r1, 1000;\n\tnanosleep.u32 %r1;\n\tnanosleep.u32 100;\n\tst.global.u32 [%rd1], %r1;",
        4,
        1,
    );
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    assert_eq!(u32_at(&o, 0), 1000);
}
