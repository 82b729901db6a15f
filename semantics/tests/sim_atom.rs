//! `atom` and `red` (PTX ISA 9.7.13) in the kernel interpreter, with
//! `WARP_SZ` and `nanosleep`: each atom is one indivisible
//! read-modify-write, `atom` returns the old value, and the expected values
//! below are worked by hand from the spec's definitions (the vector and
//! packed half-precision forms against the `half` crate).

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

// ---- vector, packed, 16-bit and 128-bit forms (PTX ISA 9.7.13.5, 9.7.13.6) ----
//
// The expected values come from `half` (f16/bf16 rounded to nearest even
// from the exact sum in f64, which holds any sum of two halves exactly)
// and from Rust's own f32 arithmetic, with the spec's flushing written out
// below; nothing is taken from the simulator's reduction code.

fn u16_at(o: &Outcome, k: usize) -> u16 {
    u16::from_le_bytes(o.buffers[0].bytes[k..k + 2].try_into().unwrap())
}

/// "flushes subnormal inputs and results to sign-preserving zero"
fn ftz(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

fn f16_add(a: u16, b: u16) -> u16 {
    let (x, y) = (half::f16::from_bits(a), half::f16::from_bits(b));
    half::f16::from_f64(x.to_f64() + y.to_f64()).to_bits()
}

fn bf16_add(a: u16, b: u16) -> u16 {
    let (x, y) = (half::bf16::from_bits(a), half::bf16::from_bits(b));
    half::bf16::from_f64(x.to_f64() + y.to_f64()).to_bits()
}

/// min/max of two non-NaN halves given as f64 values: "-0.0 < +0.0".
fn pick(a: u16, b: u16, value: impl Fn(u16) -> f64, max: bool) -> u16 {
    let key = |x: u16| (value(x), x & 0x8000 == 0);
    let a_less = key(a).partial_cmp(&key(b)) == Some(std::cmp::Ordering::Less);
    if a_less != max {
        a
    } else {
        b
    }
}

#[test]
fn atom_v4_f32_add_returns_the_old_vector_and_flushes_in_global_memory() {
    let mem = [1.0f32, 2.5, f32::from_bits(1), -3.0];
    let add = [0.5f32, 0.25, f32::from_bits(1), 3.0];
    let mut body = String::new();
    for (k, m) in mem.iter().enumerate() {
        body += &format!("\tst.global.b32 [%rd1+{}], {};\n", 4 * k, m.to_bits());
    }
    for (k, b) in add.iter().enumerate() {
        body += &format!("\tmov.b32 %f{k}, {};\n", b.to_bits());
    }
    // `d` and `b` name the same registers, as in the spec's example
    body += "\tatom.global.v4.f32.add {%f0, %f1, %f2, %f3}, [%rd1], {%f0, %f1, %f2, %f3};\n";
    for k in 0..4 {
        body += &format!("\tst.global.f32 [%rd1+{}], %f{k};\n", 16 + 4 * k);
    }
    let o = run(&body, 32, 1);
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    for k in 0..4 {
        let want = ftz(ftz(mem[k]) + ftz(add[k]));
        assert_eq!(u32_at(&o, 4 * k), want.to_bits(), "element {k}");
        assert_eq!(u32_at(&o, 16 + 4 * k), mem[k].to_bits(), "old element {k}");
    }
    // the subnormal pair became +0, not 2 * 2^-149
    assert_eq!(u32_at(&o, 8), 0);
}

#[test]
fn red_v8_f16_and_v2_bf16_add_round_each_element_to_nearest_even() {
    let mem: [u16; 8] = [
        0x3c00, 0x0001, 0x7bff, 0xc000, 0x3c01, 0x8000, 0x03ff, 0x5640,
    ];
    let add: [u16; 8] = [
        0x1000, 0x0001, 0x4c00, 0x4000, 0x1000, 0x8000, 0x0001, 0xd640,
    ];
    let bmem: [u16; 2] = [0x3f80, 0x007f];
    let badd: [u16; 2] = [0x3b81, 0x0001];
    let mut body = String::from("\t.reg .b16 %h<16>;\n");
    for k in 0..8 {
        body += &format!("\tst.global.b16 [%rd1+{}], {};\n", 2 * k, mem[k]);
        body += &format!("\tmov.b16 %h{k}, {};\n", add[k]);
    }
    for k in 0..2 {
        body += &format!("\tst.global.b16 [%rd1+{}], {};\n", 16 + 2 * k, bmem[k]);
        body += &format!("\tmov.b16 %h{}, {};\n", 8 + k, badd[k]);
    }
    body += "\tred.global.v8.f16.add.noftz [%rd1], {%h0, %h1, %h2, %h3, %h4, %h5, %h6, %h7};\n";
    body += "\tred.relaxed.gpu.global.add.noftz.v2.bf16 [%rd1+16], {%h8, %h9};\n";
    let o = run(&body, 20, 1);
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    for k in 0..8 {
        assert_eq!(
            u16_at(&o, 2 * k),
            f16_add(mem[k], add[k]),
            "f16 element {k}"
        );
    }
    // subnormals kept (.noftz): 2^-24 + 2^-24
    assert_eq!(u16_at(&o, 2), 0x0002);
    for k in 0..2 {
        assert_eq!(
            u16_at(&o, 16 + 2 * k),
            bf16_add(bmem[k], badd[k]),
            "bf16 element {k}"
        );
    }
}

#[test]
fn vector_and_packed_min_max_take_each_half_on_its_own() {
    // .v2.bf16x2.max and .v4.f16.min through generic addresses of the
    // global buffer; scalar packed .add.noftz.f16x2 in shared memory
    let bf: [u16; 4] = [0x3f80, 0xbf80, 0x8000, 0x4000];
    let bf_b: [u16; 4] = [0x4000, 0xc000, 0x0000, 0x3f80];
    let h: [u16; 4] = [0x3c00, 0x8000, 0xfc00, 0x0001];
    let h_b: [u16; 4] = [0x4000, 0x0000, 0x3c00, 0x0002];
    let word = |lo: u16, hi: u16| u32::from(lo) | (u32::from(hi) << 16);
    let mut body = String::from("\t.reg .b16 %h<8>;\n\t.shared .align 4 .b32 s;\n");
    body += &format!(
        "\tst.global.b32 [%rd1], {};\n\tst.global.b32 [%rd1+4], {};\n",
        word(bf[0], bf[1]),
        word(bf[2], bf[3])
    );
    body += &format!(
        "\tmov.b32 %r1, {};\n\tmov.b32 %r2, {};\n",
        word(bf_b[0], bf_b[1]),
        word(bf_b[2], bf_b[3])
    );
    body += "\tatom.global.v2.bf16x2.max.noftz {%r3, %r4}, [%rd1], {%r1, %r2};\n";
    body += "\tst.global.b32 [%rd1+16], %r3;\n\tst.global.b32 [%rd1+20], %r4;\n";
    for k in 0..4 {
        body += &format!("\tst.global.b16 [%rd1+{}], {};\n", 8 + 2 * k, h[k]);
        body += &format!("\tmov.b16 %h{k}, {};\n", h_b[k]);
    }
    body += "\tatom.v4.f16.min.noftz {%h4, %h5, %h6, %h7}, [%rd1+8], {%h0, %h1, %h2, %h3};\n";
    body +=
        "\tst.shared.b32 [s], 0x3c000001;\n\tatom.shared.add.noftz.f16x2 %r5, [s], 0x00013c00;\n";
    body += "\tld.shared.b32 %r6, [s];\n\tst.global.b32 [%rd1+24], %r6;\n\tst.global.b32 [%rd1+28], %r5;\n";
    let o = run(&body, 32, 1);
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    let bval = |x: u16| half::bf16::from_bits(x).to_f64();
    let hval = |x: u16| half::f16::from_bits(x).to_f64();
    for k in 0..4 {
        assert_eq!(
            u16_at(&o, 2 * k),
            pick(bf[k], bf_b[k], bval, true),
            "bf16x2 half {k}"
        );
        assert_eq!(u16_at(&o, 16 + 2 * k), bf[k], "old bf16x2 half {k}");
        assert_eq!(
            u16_at(&o, 8 + 2 * k),
            pick(h[k], h_b[k], hval, false),
            "f16 element {k}"
        );
    }
    // +0 > -0 in the max, -0 < +0 in the min
    assert_eq!(u16_at(&o, 4), 0x0000);
    assert_eq!(u16_at(&o, 10), 0x8000);
    // packed add, low half first: 2^-24 + 1.0 and 1.0 + 2^-24
    assert_eq!(
        u32_at(&o, 24),
        word(f16_add(0x0001, 0x3c00), f16_add(0x3c00, 0x0001))
    );
    assert_eq!(u32_at(&o, 28), 0x3c00_0001);
}

#[test]
fn atom_cas_b16_touches_only_its_two_bytes() {
    // "cas(r,s,t) = (r == s) ? t : r" on 16 bits; the neighbours keep
    // 0xaaaa and 0xbbbb
    let o = run(
        "\t.reg .b16 %h<8>;\n\tst.global.b16 [%rd1], 0xaaaa;\n\tst.global.b16 [%rd1+2], 0x1234;\n\tst.global.b16 [%rd1+4], 0xbbbb;\n\tmov.b16 %h1, 0x1234;\n\tmov.b16 %h2, 0xfedc;\n\tatom.global.cas.b16 %h3, [%rd1+2], %h1, %h2;\n\tatom.cas.b16 %h4, [%rd1+2], %h1, 0x5555;\n\tst.global.b16 [%rd1+6], %h3;\n\tst.global.b16 [%rd1+8], %h4;",
        10,
        1,
    );
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    assert_eq!(
        (0..5).map(|k| u16_at(&o, 2 * k)).collect::<Vec<_>>(),
        [0xaaaa, 0xfedc, 0xbbbb, 0x1234, 0xfedc]
    );
}

#[test]
fn atom_exch_and_cas_b128_move_sixteen_bytes() {
    let lo = 0x0123_4567_89ab_cdefu64;
    let hi = 0xfedc_ba98_7654_3210u64;
    let body = format!(
        "\t.reg .b128 %q<8>;\n\tst.global.u64 [%rd1], 7;\n\tst.global.u64 [%rd1+8], 9;\n\tmov.b64 %rd2, {lo};\n\tmov.b64 %rd3, {hi};\n\tmov.b128 %q1, {{%rd2, %rd3}};\n\tatom.global.exch.b128 %q2, [%rd1], %q1;\n\tmov.b128 {{%rd4, %rd5}}, %q2;\n\tst.global.u64 [%rd1+16], %rd4;\n\tst.global.u64 [%rd1+24], %rd5;\n\tmov.b64 %rd6, 1;\n\tmov.b128 %q3, {{%rd6, %rd6}};\n\tatom.cas.b128 %q4, [%rd1], %q2, %q3;\n\tatom.cas.b128 %q5, [%rd1], %q1, %q3;\n\tatom.cas.b128 %q6, [%rd1], %q1, %q1;\n\tmov.b128 {{%rd7, %rd8}}, %q4;\n\tst.global.u64 [%rd1+32], %rd7;\n\tst.global.u64 [%rd1+40], %rd8;\n\tmov.b128 {{%rd7, %rd8}}, %q5;\n\tst.global.u64 [%rd1+48], %rd7;\n\tst.global.u64 [%rd1+56], %rd8;"
    );
    let o = run(&body, 64, 1);
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    // exch: memory (7, 9) -> (lo, hi), d = (7, 9); the first cas compares
    // with (7, 9): no swap, d = (lo, hi); the second with (lo, hi): swap
    // to (1, 1), d = (lo, hi); the third compares (1, 1) with (lo, hi): no
    // swap
    assert_eq!((u64_at(&o, 16), u64_at(&o, 24)), (7, 9));
    assert_eq!((u64_at(&o, 32), u64_at(&o, 40)), (lo, hi));
    assert_eq!((u64_at(&o, 48), u64_at(&o, 56)), (lo, hi));
    assert_eq!((u64_at(&o, 0), u64_at(&o, 8)), (1, 1));
}

#[test]
fn vector_atoms_are_aligned_to_their_size_and_global_only() {
    use ptx_semantics::precond::table;
    // 16 bytes aligned to 8 only
    let o = run(
        "\tatom.global.v4.f32.add {%f0, %f1, %f2, %f3}, [%rd1+8], {%f0, %f1, %f2, %f3};",
        32,
        1,
    );
    assert_eq!(clause(&o), rule_of(&table::ALIGNED));
    assert_eq!(o.buffers[0].bytes, vec![0; 32]);
    // .v2.f16 is 4 bytes: 4-aligned is enough
    let o = run(
        "\t.reg .b16 %h<4>;\n\tmov.b16 %h1, 0x3c00;\n\tred.global.add.noftz.v2.f16 [%rd1+4], {%h1, %h1};",
        8,
        1,
    );
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    assert_eq!(u32_at(&o, 4), 0x3c00_3c00);
    // a generic address of shared memory: global only
    let shared =
        "\t.shared .align 16 .b32 s[4];\n\tmov.u64 %rd2, s;\n\tcvta.shared.u64 %rd3, %rd2;\n";
    let o = run(
        &format!("{shared}\tatom.v2.f32.add {{%f0, %f1}}, [%rd3], {{%f2, %f3}};"),
        8,
        1,
    );
    assert_eq!(clause(&o), rule_of(&table::ATOM_VECTOR_GLOBAL));
    let o = run(
        &format!("{shared}\tred.v2.f32.add [%rd3], {{%f2, %f3}};"),
        8,
        1,
    );
    assert_eq!(clause(&o), rule_of(&table::RED_VECTOR_GLOBAL));
    // the same address as a scalar atom is fine
    let o = run(&format!("{shared}\tred.add.f32 [%rd3], %f2;"), 8, 1);
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    assert_eq!(
        table::atom_vector(false, true, true),
        vec![
            &table::ALIGNED,
            &table::ATOM_VECTOR_GLOBAL,
            &table::HINT_GLOBAL
        ]
    );
    assert_eq!(table::atom_vector(true, false, true), vec![&table::ALIGNED]);
}

/// Forms the ISA does not list are refused when the kernel is loaded.
#[test]
fn forms_outside_the_isa_s_lists_are_refused() {
    for (body, why) in [
        // "atom ... .cas.b16" only: ptxas 13.0 also refuses atom.exch.b16
        (
            "\t.reg .b16 %h<4>;\n\tatom.global.exch.b16 %h1, [%rd1], %h2;",
            ".b16 only",
        ),
        // .b128 has exch and cas only
        (
            "\t.reg .b128 %q<4>;\n\tatom.global.add.b128 %q1, [%rd1], %q2;",
            ".b128 only",
        ),
        // vectors: global only, and .f32 only with .add, .v8 only for halves
        (
            "\tatom.shared.v2.f32.add {%f0, %f1}, [%rd1], {%f2, %f3};",
            "only with .global",
        ),
        (
            "\tatom.global.v2.f32.max {%f0, %f1}, [%rd1], {%f2, %f3};",
            "vector forms",
        ),
        (
            "\tred.global.v8.f16x2.add.noftz [%rd1], {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7};",
            "vector forms",
        ),
        // the vector has as many elements as its qualifier says
        (
            "\tatom.global.v4.f32.add {%f0, %f1}, [%rd1], {%f2, %f3};",
            "vector of 4",
        ),
        // scalar packed types only with .add.noftz
        (
            "\tatom.global.min.noftz.f16x2 %r1, [%rd1], %r2;",
            "only with .add.noftz",
        ),
    ] {
        let src = format!("{HEAD}.visible .entry k(.param .u64 p)\n{{\n{REGS}{body}\n\tret;\n}}\n");
        let module = parse(&src).unwrap_or_else(|e| panic!("{e:?}\n{src}"));
        match sim::prepare(&module, "k", &WindowProfile::SM90) {
            Err(e) => assert!(e.to_string().contains(why), "{body}: {e}"),
            Ok(_) => panic!("{body} was accepted"),
        }
    }
}
