//! Asynchronous operations in the interpreter (issue 14): bulk copies and
//! reductions, st.async, cp.async groups and mbarriers, under every
//! schedule. The expected bytes are worked out from the spec text: a
//! program that waits as PTX ISA 9.7.9.25.1 asks gets the same bytes under
//! every schedule; one that reads a destination early gets unspecified
//! bits and a report; waits that never end give a deadlock report.

use ptx_semantics::ptx::parse;
use ptx_semantics::sim::{
    self, Arg, Effect, Launch, Outcome, Program, Schedule, StopKind, WindowProfile,
};

const HEAD: &str = ".version 8.7\n.target sm_90a\n.address_size 64\n";

fn program(body: &str, params: &str, directives: &str) -> Program {
    let src = format!("{HEAD}.visible .entry k({params}){directives}\n{{\n{body}\n}}\n");
    let module = parse(&src).unwrap_or_else(|e| panic!("{e:?}\n{src}"));
    sim::prepare(&module, "k", &WindowProfile::SM90).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

/// A one-thread launch with a source and a destination buffer.
fn src_dst(src: Vec<u8>, dst: Vec<u8>) -> Launch {
    let buf = |bytes| Arg::Buffer { addr: None, bytes };
    Launch::new([1, 1, 1], [1, 1, 1], vec![buf(src), buf(dst)])
}

fn bytes(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 7 + 3) as u8).collect()
}

/// Every schedule's outcome: eager, late, six random seeds, and every
/// schedule the explorer visits.
fn all_schedules(prog: &Program, launch: &Launch) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    let mut scheds = vec![Schedule::Eager, Schedule::Late];
    scheds.extend((1..=6).map(Schedule::Random));
    for s in scheds {
        let mut l = launch.clone();
        l.schedule = s.clone();
        out.push((format!("{s:?}"), sim::run(prog, &l).unwrap()));
    }
    let mut explored = Vec::new();
    let done = sim::explore(prog, launch, 200_000, |o| {
        if !explored.contains(o) {
            explored.push(o.clone())
        }
    })
    .unwrap();
    assert!(done.complete, "more than 200,000 schedules");
    for (k, o) in explored.into_iter().enumerate() {
        out.push((format!("script {k}"), o));
    }
    out
}

const BULK_ROUND_TRIP: &str = "\
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.shared .align 16 .b8 buf[64];
	.shared .align 8 .b64 bar;
	ld.param.u64 %rd1, [src];
	ld.param.u64 %rd3, [dst];
	mbarrier.init.shared::cta.b64 [bar], 1;
	fence.mbarrier_init.release.cluster;
	mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [bar], 64;
	cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [buf], [%rd1], 64, [bar];
WAIT:
	mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
	@!%p2 bra WAIT;
	cp.async.bulk.global.shared::cta.bulk_group [%rd3], [buf], 64;
	cp.async.bulk.commit_group;
	cp.async.bulk.wait_group 0;
	ret;";

#[test]
fn a_bulk_round_trip_that_waits_is_the_same_under_every_schedule() {
    let prog = program(BULK_ROUND_TRIP, ".param .u64 src, .param .u64 dst", "");
    let input = bytes(64);
    let launch = src_dst(input.clone(), vec![0; 64]);
    let runs = all_schedules(&prog, &launch);
    for (name, o) in runs {
        assert!(o.reports.is_empty(), "{name}: {:?}", o.reports);
        assert!(
            o.undefined_results.is_empty(),
            "{name}: {:?}",
            o.undefined_results
        );
        assert_eq!(o.buffers[1].bytes, input, "{name}");
        assert!(o.buffers[1].unspecified.iter().all(|&b| b == 0), "{name}");
    }
}

#[test]
fn reading_the_destination_before_the_wait_races() {
    // the load of buf comes before the wait: PTX ISA 9.7.9.25.1
    let body = BULK_ROUND_TRIP.replace(
        "WAIT:",
        "\tld.shared.u32 %r1, [buf];\n\tst.global.u32 [%rd3+64], %r1;\nWAIT:",
    );
    let prog = program(&body, ".param .u64 src, .param .u64 dst", "");
    let launch = src_dst(bytes(64), vec![0; 68]);
    // eager: the copy completed when issued, so nothing races
    let o = sim::run(&prog, &launch).unwrap();
    assert!(o.undefined_results.is_empty(), "{:?}", o.undefined_results);
    assert_eq!(&o.buffers[1].bytes[64..68], &bytes(64)[0..4]);
    // late: the copy is still in flight
    let mut l = launch.clone();
    l.schedule = Schedule::Late;
    let o = sim::run(&prog, &l).unwrap();
    assert_eq!(o.undefined_results.len(), 1, "{:?}", o.undefined_results);
    let r = &o.undefined_results[0];
    assert!(
        matches!(r.kind, StopKind::Undefined(u) if u.section == "9.7.9.25.1" && u.effect == Effect::Result)
    );
    assert!(
        r.note.contains("cp.async.bulk.shared::cta.global"),
        "{}",
        r.note
    );
    assert_eq!(&o.buffers[1].unspecified[64..68], &[1, 1, 1, 1]);
    // the rest still arrives
    assert_eq!(&o.buffers[1].bytes[..64], &bytes(64)[..]);
}

#[test]
fn a_phase_that_never_completes_is_a_deadlock_naming_the_mbarrier() {
    // count 2, one arrival: try_wait can never return true
    let body = "\
	.reg .pred %p<4>;
	.reg .b64 %rd<8>;
	.shared .align 8 .b64 bar;
	mbarrier.init.shared::cta.b64 [bar], 2;
	mbarrier.arrive.shared::cta.b64 %rd2, [bar];
WAIT:
	mbarrier.try_wait.shared::cta.b64 %p2, [bar], %rd2;
	@!%p2 bra WAIT;
	ret;";
    let prog = program(body, "", "");
    for s in [Schedule::Eager, Schedule::Late, Schedule::Random(3)] {
        let mut launch = Launch::new([1, 1, 1], [1, 1, 1], vec![]);
        launch.schedule = s.clone();
        let o = sim::run(&prog, &launch).unwrap();
        assert_eq!(o.reports.len(), 1, "{s:?}: {:?}", o.reports);
        match &o.reports[0].kind {
            StopKind::Deadlock(why) => {
                assert!(why.contains("mbarrier"), "{why}");
                assert!(why.contains("pending"), "{why}");
            }
            k => panic!("{s:?}: {k:?}"),
        }
        assert!(!o.budget_exhausted);
    }
    // the same with a test_wait spin loop
    let prog = program(&body.replace("try_wait", "test_wait"), "", "");
    let o = sim::run(&prog, &Launch::new([1, 1, 1], [1, 1, 1], vec![])).unwrap();
    assert_eq!(o.reports.len(), 1, "{:?}", o.reports);
    assert!(
        matches!(&o.reports[0].kind, StopKind::Deadlock(w) if w.contains("mbarrier")),
        "{:?}",
        o.reports
    );
}

#[test]
fn mbarrier_use_before_init_is_undefined() {
    let body = "\
	.reg .b64 %rd<8>;
	.shared .align 8 .b64 bar;
	mbarrier.arrive.shared::cta.b64 %rd2, [bar];
	ret;";
    let o = sim::run(
        &program(body, "", ""),
        &Launch::new([1, 1, 1], [1, 1, 1], vec![]),
    )
    .unwrap();
    assert_eq!(o.reports.len(), 1);
    assert!(
        matches!(o.reports[0].kind, StopKind::Undefined(u) if u.section.starts_with("9.7.13.15")),
        "{:?}",
        o.reports
    );
}

#[test]
fn a_bulk_size_that_is_not_a_multiple_of_16_is_undefined() {
    let body = BULK_ROUND_TRIP
        .replace("[%rd1], 64, [bar]", "[%rd1], 40, [bar]")
        .replace("[bar], 64;", "[bar], 40;");
    let prog = program(&body, ".param .u64 src, .param .u64 dst", "");
    let launch = src_dst(bytes(64), vec![0; 64]);
    let o = sim::run(&prog, &launch).unwrap();
    assert!(
        matches!(o.reports.first().map(|r| &r.kind), Some(StopKind::Undefined(u)) if u.section == "9.7.9.25.4.1"),
        "{:?}",
        o.reports
    );
}

#[test]
fn bulk_reduce_add_u32_into_global() {
    // dst[i] = old[i] + src[i] (wrapping), PTX ISA 9.7.9.25.4.2
    let body = "\
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.shared .align 16 .b8 buf[32];
	ld.param.u64 %rd1, [src];
	ld.param.u64 %rd3, [dst];
	ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];
	st.shared.v4.u32 [buf], {%r1, %r2, %r3, %r4};
	ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1+16];
	st.shared.v4.u32 [buf+16], {%r1, %r2, %r3, %r4};
	fence.proxy.async.shared::cta;
	cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd3], [buf], 32;
	cp.async.bulk.commit_group;
	cp.async.bulk.wait_group 0;
	ret;";
    let prog = program(body, ".param .u64 src, .param .u64 dst", "");
    let src: Vec<u32> = (0..8).map(|i| 0xffff_fff0 + i * 3).collect();
    let old: Vec<u32> = (0..8).map(|i| 100 * i + 17).collect();
    let le = |v: &[u32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let launch = src_dst(le(&src), le(&old));
    let want: Vec<u32> = src
        .iter()
        .zip(&old)
        .map(|(a, b)| a.wrapping_add(*b))
        .collect();
    for (name, o) in all_schedules(&prog, &launch) {
        assert!(o.reports.is_empty(), "{name}: {:?}", o.reports);
        assert_eq!(o.buffers[1].bytes, le(&want), "{name}");
    }
}

#[test]
fn a_bulk_copy_of_generic_writes_needs_a_proxy_fence() {
    // shared memory written with st.shared, then copied out by the async
    // proxy: without fence.proxy.async (PTX ISA 9.7.9.25.2) the copy may or
    // may not see the writes
    let body = "\
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.shared .align 16 .b8 buf[16];
	ld.param.u64 %rd3, [dst];
	mov.u32 %r1, 0x01020304;
	st.shared.v4.u32 [buf], {%r1, %r1, %r1, %r1};
	FENCE
	cp.async.bulk.global.shared::cta.bulk_group [%rd3], [buf], 16;
	cp.async.bulk.commit_group;
	cp.async.bulk.wait_group 0;
	ret;";
    let launch = Launch::new(
        [1, 1, 1],
        [1, 1, 1],
        vec![Arg::Buffer {
            addr: None,
            bytes: vec![0; 16],
        }],
    );
    for (fence, fenced) in [
        ("fence.proxy.async.shared::cta;", true),
        ("fence.proxy.async;", true),
        // a fence for another space does not order shared memory
        ("fence.proxy.async.global;", false),
        ("", false),
    ] {
        let prog = program(&body.replace("FENCE", fence), ".param .u64 dst", "");
        let o = sim::run(&prog, &launch).unwrap();
        assert!(o.reports.is_empty(), "{fence}: {:?}", o.reports);
        if fenced {
            assert!(
                o.undefined_results.is_empty(),
                "{fence}: {:?}",
                o.undefined_results
            );
            assert_eq!(o.buffers[0].bytes, [4, 3, 2, 1].repeat(4), "{fence}");
            assert!(o.buffers[0].unspecified.iter().all(|&b| b == 0), "{fence}");
        } else {
            assert_eq!(
                o.undefined_results.len(),
                1,
                "{fence}: {:?}",
                o.undefined_results
            );
            assert!(matches!(
                o.undefined_results[0].kind,
                StopKind::Undefined(u) if u.section == "9.7.9.25.2"
            ));
            assert_eq!(o.buffers[0].unspecified, vec![1; 16], "{fence}");
        }
    }
}

#[test]
fn multicast_reaches_every_cta_of_the_mask_and_their_mbarriers() {
    // CTA 0 multicasts 32 bytes to CTAs 0 and 1 (ctaMask 0b11); each CTA
    // expects 32 bytes on its own mbarrier, waits, and writes its copy out
    // at rank * 32.
    let body = "\
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.shared .align 16 .b8 buf[32];
	.shared .align 8 .b64 bar;
	ld.param.u64 %rd1, [src];
	ld.param.u64 %rd3, [dst];
	mov.u32 %r1, %cluster_ctarank;
	mbarrier.init.shared::cta.b64 [bar], 1;
	barrier.cluster.arrive;
	barrier.cluster.wait;
	mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [bar], 32;
	setp.ne.u32 %p1, %r1, 0;
	mov.u32 %r2, buf;
	mov.u32 %r3, bar;
	mov.u16 %rs1, 3;
	@!%p1 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r2], [%rd1], 32, [%r3], %rs1;
WAIT:
	mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
	@!%p2 bra WAIT;
	mul.wide.u32 %rd4, %r1, 32;
	add.u64 %rd3, %rd3, %rd4;
	cp.async.bulk.global.shared::cta.bulk_group [%rd3], [buf], 32;
	cp.async.bulk.commit_group;
	cp.async.bulk.wait_group 0;
	barrier.cluster.arrive;
	barrier.cluster.wait;
	ret;";
    let body = body.replace(
        "\t.reg .b64 %rd<8>;",
        "\t.reg .b64 %rd<8>;\n\t.reg .b16 %rs<4>;",
    );
    let prog = program(&body, ".param .u64 src, .param .u64 dst", "");
    let mut launch = Launch::new(
        [2, 1, 1],
        [1, 1, 1],
        vec![
            Arg::Buffer {
                addr: None,
                bytes: bytes(32),
            },
            Arg::Buffer {
                addr: None,
                bytes: vec![0; 64],
            },
        ],
    );
    launch.cluster = Some([2, 1, 1]);
    let mut want = bytes(32);
    want.extend(bytes(32));
    for (name, o) in all_schedules(&prog, &launch) {
        assert!(o.reports.is_empty(), "{name}: {:?}", o.reports);
        assert_eq!(o.buffers[1].bytes, want, "{name}");
    }
}

#[test]
fn st_async_into_the_other_cta_completes_on_its_mbarrier() {
    // CTA 0 stores two u32 into CTA 1's shared memory with st.async; CTA 1
    // expects 8 bytes, waits, and writes them out.
    let body = "\
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.shared .align 16 .b8 buf[16];
	.shared .align 8 .b64 bar;
	ld.param.u64 %rd3, [dst];
	mov.u32 %r1, %cluster_ctarank;
	setp.eq.u32 %p1, %r1, 1;
	@%p1 mbarrier.init.shared::cta.b64 [bar], 1;
	@%p1 mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [bar], 8;
	barrier.cluster.arrive;
	barrier.cluster.wait;
	@%p1 bra WAIT;
	mov.u32 %r2, buf;
	mapa.shared::cluster.u32 %r2, %r2, 1;
	mov.u32 %r3, bar;
	mapa.shared::cluster.u32 %r3, %r3, 1;
	mov.u32 %r4, 0xdeadbeef;
	mov.u32 %r5, 0x01020304;
	st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.u32 [%r2], {%r4, %r5}, [%r3];
	bra DONE;
WAIT:
	mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
	@!%p2 bra WAIT;
	ld.shared.v2.u32 {%r4, %r5}, [buf];
	st.global.v2.u32 [%rd3], {%r4, %r5};
DONE:
	barrier.cluster.arrive;
	barrier.cluster.wait;
	ret;";
    let prog = program(body, ".param .u64 dst", "");
    let mut launch = Launch::new(
        [2, 1, 1],
        [1, 1, 1],
        vec![Arg::Buffer {
            addr: None,
            bytes: vec![0; 8],
        }],
    );
    launch.cluster = Some([2, 1, 1]);
    let mut want = 0xdead_beefu32.to_le_bytes().to_vec();
    want.extend(0x0102_0304u32.to_le_bytes());
    for (name, o) in all_schedules(&prog, &launch) {
        assert!(o.reports.is_empty(), "{name}: {:?}", o.reports);
        assert!(
            o.undefined_results.is_empty(),
            "{name}: {:?}",
            o.undefined_results
        );
        assert_eq!(o.buffers[0].bytes, want, "{name}");
    }
}

#[test]
fn cp_async_groups_and_the_mbarrier_arrive_wait_for_their_copies() {
    // two cp.async groups, waited with wait_group 0; then a third copy
    // tracked by cp.async.mbarrier.arrive.noinc on an mbarrier of count 1
    let body = "\
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.shared .align 16 .b8 buf[48];
	.shared .align 8 .b64 bar;
	ld.param.u64 %rd1, [src];
	ld.param.u64 %rd3, [dst];
	cp.async.cg.shared.global [buf], [%rd1], 16;
	cp.async.commit_group;
	cp.async.ca.shared.global [buf+16], [%rd1+16], 8, 4;
	cp.async.commit_group;
	cp.async.wait_group 0;
	ld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [buf];
	st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};
	ld.shared.v2.u32 {%r1, %r2}, [buf+16];
	st.global.v2.u32 [%rd3+16], {%r1, %r2};
	mbarrier.init.shared::cta.b64 [bar], 1;
	cp.async.cg.shared.global [buf+32], [%rd1+32], 16;
	cp.async.mbarrier.arrive.noinc.shared::cta.b64 [bar];
WAIT:
	mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
	@!%p2 bra WAIT;
	ld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [buf+32];
	st.global.v4.u32 [%rd3+32], {%r1, %r2, %r3, %r4};
	ret;";
    let prog = program(body, ".param .u64 src, .param .u64 dst", "");
    let input = bytes(48);
    let launch = src_dst(input.clone(), vec![0; 48]);
    // the first copy: 16 bytes; the second reads 4 of its 8 bytes:
    // "remaining bytes in destination dst are filled with zeros"
    let mut want = input[..20].to_vec();
    want.extend([0, 0, 0, 0]);
    for (name, o) in all_schedules(&prog, &launch) {
        assert!(o.reports.is_empty(), "{name}: {:?}", o.reports);
        assert!(
            o.undefined_results.is_empty(),
            "{name}: {:?}",
            o.undefined_results
        );
        assert_eq!(&o.buffers[1].bytes[..24], &want[..], "{name}");
        assert_eq!(&o.buffers[1].bytes[24..32], &[0; 8], "{name}");
        assert_eq!(&o.buffers[1].bytes[32..], &input[32..], "{name}");
    }
}

#[test]
fn red_async_into_the_other_cta_reduces_and_completes_on_its_mbarrier() {
    // PTX ISA 9.7.13.7: CTA 0 reduces five elements of CTA 1's shared
    // memory with red.async (`.add.u32`, `.inc.u32`, `.max.s32`, `.and.b32`,
    // `.add.u64`: 24 bytes); CTA 1 set their old values, expects 24
    // bytes, waits and writes them out. The new values are computed here
    // with Rust's operations and the `inc` of the spec's `red`
    // ("`inc(r, s) = (r >= s) ? 0 : r+1`").
    let old: [u64; 5] = [
        0xffff_fff0,
        7,
        (-5i32) as u32 as u64,
        0xf0f0_f0f0,
        u64::MAX - 1,
    ];
    let src: [u64; 5] = [0x20, 7, (-9i32) as u32 as u64, 0x0ff0_0ff0, 5];
    let body = format!(
        "\
	.reg .pred %p<4>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<8>;
	.shared .align 16 .b8 buf[32];
	.shared .align 8 .b64 bar;
	ld.param.u64 %rd3, [dst];
	mov.u32 %r1, %cluster_ctarank;
	setp.eq.u32 %p1, %r1, 1;
	@!%p1 bra SYNC;
	mbarrier.init.shared::cta.b64 [bar], 1;
	mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [bar], 24;
	st.shared.v4.u32 [buf], {{{}, {}, {}, {}}};
	st.shared.u64 [buf+16], {};
SYNC:
	barrier.cluster.arrive;
	barrier.cluster.wait;
	@%p1 bra WAIT;
	mov.u32 %r2, buf;
	mapa.shared::cluster.u32 %r2, %r2, 1;
	mov.u32 %r3, bar;
	mapa.shared::cluster.u32 %r3, %r3, 1;
	red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r2], {}, [%r3];
	red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32 [%r2+4], {}, [%r3];
	red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.max.s32 [%r2+8], {}, [%r3];
	red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.and.b32 [%r2+12], {}, [%r3];
	mov.b64 %rd4, {};
	red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u64 [%r2+16], %rd4, [%r3];
	bra DONE;
WAIT:
	mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
	@!%p2 bra WAIT;
	ld.shared.v4.u32 {{%r4, %r5, %r6, %r7}}, [buf];
	st.global.v4.u32 [%rd3], {{%r4, %r5, %r6, %r7}};
	ld.shared.u64 %rd5, [buf+16];
	st.global.u64 [%rd3+16], %rd5;
DONE:
	barrier.cluster.arrive;
	barrier.cluster.wait;
	ret;",
        old[0], old[1], old[2], old[3], old[4], src[0], src[1], src[2], src[3], src[4]
    );
    let prog = program(&body, ".param .u64 dst", "");
    let mut launch = Launch::new(
        [2, 1, 1],
        [1, 1, 1],
        vec![Arg::Buffer {
            addr: None,
            bytes: vec![0; 24],
        }],
    );
    launch.cluster = Some([2, 1, 1]);
    let inc = |r: u32, s: u32| if r >= s { 0 } else { r + 1 };
    let mut want = Vec::new();
    want.extend((old[0] as u32).wrapping_add(src[0] as u32).to_le_bytes());
    want.extend(inc(old[1] as u32, src[1] as u32).to_le_bytes());
    want.extend((old[2] as i32).max(src[2] as i32).to_le_bytes());
    want.extend((old[3] as u32 & src[3] as u32).to_le_bytes());
    want.extend(old[4].wrapping_add(src[4]).to_le_bytes());
    // five operations in flight: the eager, late and random schedules
    // (the explorer's are too many to visit here)
    let mut runs = Vec::new();
    let mut scheds = vec![Schedule::Eager, Schedule::Late];
    scheds.extend((1..=4).map(Schedule::Random));
    for s in scheds {
        let mut l = launch.clone();
        l.schedule = s.clone();
        runs.push((format!("{s:?}"), sim::run(&prog, &l).unwrap()));
    }
    for (name, o) in runs {
        assert!(o.reports.is_empty(), "{name}: {:?}", o.reports);
        assert!(
            o.undefined_results.is_empty(),
            "{name}: {:?}",
            o.undefined_results
        );
        assert_eq!(o.buffers[0].bytes, want, "{name}");
    }
}

#[test]
fn red_async_forms_outside_the_table_are_refused() {
    for form in [
        "add.u16", "inc.s32", "min.b32", "and.u64", "add.f32", "max.u64",
    ] {
        let src = format!(
            "{HEAD}.visible .entry k()\n{{\n\t.reg .b32 %r<4>;\n\tred.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.{form} [%r1], %r2, [%r3];\n\tret;\n}}\n"
        );
        let module = parse(&src).unwrap();
        assert!(
            sim::prepare(&module, "k", &WindowProfile::SM90).is_err(),
            "{form}"
        );
    }
}

/// A launch with two 32-byte buffers (`a`, `b`) behind a multicast object.
fn multimem_launch(a_bytes: Vec<u8>, b_bytes: Vec<u8>) -> Launch {
    let (a, b, mc) = (
        0x7f00_0010_0000u64,
        0x7f00_0020_0000u64,
        0x7f00_0030_0000u64,
    );
    let mut launch = Launch::new(
        [1, 1, 1],
        [1, 1, 1],
        vec![
            Arg::Buffer {
                addr: Some(a),
                bytes: a_bytes,
            },
            Arg::Buffer {
                addr: Some(b),
                bytes: b_bytes,
            },
            Arg::u64(mc),
            Arg::Buffer {
                addr: None,
                bytes: vec![0; 32],
            },
        ],
    );
    launch.multicast.push(sim::Multicast {
        addr: mc,
        size: 32,
        members: vec![a, b],
    });
    launch
}

fn words(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn vector_and_half_precision_multimem() {
    // PTX ISA 9.7.9.14: `.v4.f32` reduces each of four elements over the
    // two locations; `.f16x2` and `.v2.bf16x2` each of their halves (with
    // `.acc::f32`); `.red.v2.f16x2` adds into both locations. Expected
    // values from Rust's f32 arithmetic (f16 and bf16 sums below are exact
    // in f32 and in the format).
    let fa: [f32; 4] = [1.5, -2.0, 1e30, 0.25];
    let fb: [f32; 4] = [2.25, 0.5, 1e30, -0.75];
    let h = |x: f32| -> u16 {
        // the f16 encodings of small exact values: 1.0 = 0x3c00 ... built
        // from the f32 bits (normal, exactly representable inputs only)
        let b = x.to_bits();
        let sign = (b >> 16) & 0x8000;
        let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
        (sign | ((exp as u32) << 10) | ((b >> 13) & 0x3ff)) as u16
    };
    let bf = |x: f32| (x.to_bits() >> 16) as u16;
    let pair = |lo: u16, hi: u16| u32::from(lo) | u32::from(hi) << 16;
    let mut a = words(&fa.map(f32::to_bits));
    // +16: f16x2 (ld_reduce, then red); +20: f16x2 (red); +24, +28:
    // `.v2.bf16x2`
    a.extend(words(&[
        pair(h(1.0), h(-3.5)),
        pair(h(2.0), h(0.75)),
        pair(bf(2.0), bf(0.5)),
        pair(bf(-1.0), bf(8.0)),
    ]));
    let mut b = words(&fb.map(f32::to_bits));
    b.extend(words(&[
        pair(h(0.5), h(1.25)),
        pair(h(-4.0), h(6.0)),
        pair(bf(3.0), bf(0.25)),
        pair(bf(4.0), bf(-8.0)),
    ]));
    let body = "\
	.reg .b32 %r<8>;
	.reg .f32 %f<8>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd3, [pm];
	ld.param.u64 %rd4, [out];
	multimem.ld_reduce.relaxed.sys.global.add.v4.f32 {%f1, %f2, %f3, %f4}, [%rd3];
	st.global.v4.f32 [%rd4], {%f1, %f2, %f3, %f4};
	multimem.ld_reduce.relaxed.sys.global.add.acc::f32.f16x2 %r1, [%rd3+16];
	multimem.ld_reduce.relaxed.sys.global.add.acc::f32.v2.bf16x2 {%r2, %r3}, [%rd3+24];
	st.global.v4.u32 [%rd4+16], {%r1, %r2, %r3, %r1};
	mov.b32 %r4, 0x3c003c00;
	multimem.red.relaxed.sys.global.add.v2.f16x2 [%rd3+16], {%r4, %r4};
	ret;";
    let prog = program(
        body,
        ".param .u64 pa, .param .u64 pb, .param .u64 pm, .param .u64 out",
        "",
    );
    let o = sim::run(&prog, &multimem_launch(a, b)).unwrap();
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    let mut want = words(&[
        (fa[0] + fb[0]).to_bits(),
        (fa[1] + fb[1]).to_bits(),
        (fa[2] + fb[2]).to_bits(),
        (fa[3] + fb[3]).to_bits(),
    ]);
    let sum16 = pair(h(1.0 + 0.5), h(-3.5 + 1.25));
    want.extend(words(&[
        sum16,
        pair(bf(2.0 + 3.0), bf(0.5 + 0.25)),
        pair(bf(-1.0 + 4.0), bf(8.0 - 8.0)),
        sum16,
    ]));
    assert_eq!(o.buffers[2].bytes, want);
    // `.red.v2.f16x2` adds 1.0 to each half of the two words at +16
    let red = |x: f32, y: f32| pair(h(x + 1.0), h(y + 1.0));
    assert_eq!(
        &o.buffers[0].bytes[16..24],
        &words(&[red(1.0, -3.5), red(2.0, 0.75)])[..]
    );
    assert_eq!(
        &o.buffers[1].bytes[16..24],
        &words(&[red(0.5, 1.25), red(-4.0, 6.0)])[..]
    );
}
