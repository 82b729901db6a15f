//! Tensor copies in the interpreter (issue 16): `cp.async.bulk.tensor`
//! loads and stores, `cp.reduce.async.bulk.tensor`, multicast, and the
//! tensor map read from a kernel parameter or from global memory. The
//! expected bytes are worked out here from the spec text (PTX ISA 5.5.3,
//! 5.5.7's swizzle tables), not from `ptx_semantics::tensor`.

use ptx_semantics::ptx::parse;
use ptx_semantics::sim::{self, Arg, Launch, Outcome, Program, Schedule, StopKind, WindowProfile};
use ptx_semantics::tensor::{DataType, Swizzle, TensorMap};

const HEAD: &str = ".version 8.7\n.target sm_90a\n.address_size 64\n";

fn program(body: &str, params: &str, directives: &str) -> Program {
    let src = format!("{HEAD}.visible .entry k({params}){directives}\n{{\n{body}\n}}\n");
    let module = parse(&src).unwrap_or_else(|e| panic!("{e:?}\n{src}"));
    sim::prepare(&module, "k", &WindowProfile::SM90).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

const IN: u64 = 0x7f00_0010_0000;
const OUT: u64 = 0x7f00_0020_0000;

/// A 2-D f32 tensor of `w` x `h` elements, rows `pitch` bytes apart.
fn map2d(addr: u64, w: u64, h: u64, pitch: u64, box_: [u32; 2], swizzle: Swizzle) -> TensorMap {
    TensorMap {
        data_type: DataType::F32,
        rank: 2,
        global_address: addr,
        global_dims: [w, h, 1, 1, 1],
        global_strides: [pitch, 0, 0, 0],
        box_dims: [box_[0], box_[1], 1, 1, 1],
        swizzle,
        ..TensorMap::default()
    }
}

fn words(n: usize, seed: u32) -> Vec<u8> {
    (0..n as u32)
        .flat_map(|i| (i.wrapping_mul(0x9e37_79b1) ^ seed).to_le_bytes())
        .collect()
}

/// Loads the box at (x, y) into shared memory with the map `min`, waits,
/// then stores the shared box through `mout` at (x2, y2).
const ROUND_TRIP: &str = "\
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.shared .align 1024 .b8 tile[8192];
	.reg .b64 %tmi, %tmo;
	.shared .align 8 .b64 bar;
	mov.b64 %tmi, min;
	cvta.param.u64 %tmi, %tmi;
	mov.b64 %tmo, mout;
	cvta.param.u64 %tmo, %tmo;
	ld.param.u32 %r1, [x];
	ld.param.u32 %r2, [y];
	ld.param.u32 %r3, [x2];
	ld.param.u32 %r4, [y2];
	mbarrier.init.shared::cta.b64 [bar], 1;
	fence.mbarrier_init.release.cluster;
	ld.param.u32 %r5, [bytes];
	mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [bar], %r5;
	cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [tile], [%tmi, {%r1, %r2}], [bar];
WAIT:
	mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
	@!%p2 bra WAIT;
	cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%tmo, {%r3, %r4}], [tile];
	cp.async.bulk.commit_group;
	cp.async.bulk.wait_group 0;
	ret;";

const ROUND_TRIP_PARAMS: &str = ".param .u64 pin, .param .u64 pout, .param .align 64 .b8 min[128], .param .align 64 .b8 mout[128], .param .u32 x, .param .u32 y, .param .u32 x2, .param .u32 y2, .param .u32 bytes";

fn round_trip_launch(
    min: &TensorMap,
    mout: &TensorMap,
    xy: [u32; 4],
    input: Vec<u8>,
    out: Vec<u8>,
    bytes: u32,
) -> Launch {
    Launch::new(
        [1, 1, 1],
        [1, 1, 1],
        vec![
            Arg::Buffer {
                addr: Some(IN),
                bytes: input,
            },
            Arg::Buffer {
                addr: Some(OUT),
                bytes: out,
            },
            Arg::Bytes(min.to_bytes().to_vec()),
            Arg::Bytes(mout.to_bytes().to_vec()),
            Arg::u32(xy[0]),
            Arg::u32(xy[1]),
            Arg::u32(xy[2]),
            Arg::u32(xy[3]),
            Arg::u32(bytes),
        ],
    )
}

fn schedules(prog: &Program, launch: &Launch) -> Vec<Outcome> {
    let mut out = Vec::new();
    for s in [
        Schedule::Eager,
        Schedule::Late,
        Schedule::Random(1),
        Schedule::Random(2),
        Schedule::Random(3),
    ] {
        let mut l = launch.clone();
        l.schedule = s;
        out.push(sim::run(prog, &l).unwrap());
    }
    out
}

#[test]
fn a_swizzled_box_goes_through_shared_memory_and_back_under_every_schedule() {
    let prog = program(ROUND_TRIP, ROUND_TRIP_PARAMS, "");
    // 40 x 24 f32 elements, rows 256 bytes apart; boxes of 32 x 8 (128-byte
    // rows: the 128-byte swizzle's span)
    let (w, h, pitch) = (40u64, 24u64, 256u64);
    for swizzle in [Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128] {
        let bx = match swizzle {
            Swizzle::B32 => 8,
            Swizzle::B64 => 16,
            _ => 32,
        };
        let min = map2d(IN, w, h, pitch, [bx, 8], swizzle);
        let mout = map2d(OUT, w, h, pitch, [bx, 8], swizzle);
        let input = words((pitch * h / 4) as usize, 0x5a5a_0000);
        let out0 = vec![0xeeu8; (pitch * h) as usize];
        let (x, y, x2, y2) = (4u32, 3u32, 8u32, 16u32);
        let launch = round_trip_launch(
            &min,
            &mout,
            [x, y, x2, y2],
            input.clone(),
            out0.clone(),
            bx * 4 * 8,
        );
        // expected: the out tensor's box at (x2, y2) holds the input's box
        // at (x, y), clipped to the tensor (rows past h are not written);
        // nothing else changes
        let mut want = out0.clone();
        for j in 0..8u64 {
            for i in 0..u64::from(bx) {
                let (sx, sy) = (u64::from(x) + i, u64::from(y) + j);
                let (dx, dy) = (u64::from(x2) + i, u64::from(y2) + j);
                if dx >= w || dy >= h {
                    continue;
                }
                let v: Vec<u8> = if sx < w && sy < h {
                    input[(sy * pitch + sx * 4) as usize..][..4].to_vec()
                } else {
                    vec![0; 4]
                };
                want[(dy * pitch + dx * 4) as usize..][..4].copy_from_slice(&v);
            }
        }
        for o in schedules(&prog, &launch) {
            assert!(o.reports.is_empty(), "{swizzle:?}: {:?}", o.reports);
            assert!(
                o.undefined_results.is_empty(),
                "{swizzle:?}: {:?}",
                o.undefined_results
            );
            assert!(o.buffers[1].unspecified.iter().all(|&b| b == 0));
            assert_eq!(o.buffers[1].bytes, want, "{swizzle:?}");
        }
    }
}

/// Loads a 32 x 8 f32 box with the 128-byte swizzle and copies shared
/// memory out as it is.
const LOAD_OUT: &str = "\
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.shared .align 1024 .b8 tile[1024];
	.reg .b64 %tmi;
	.shared .align 8 .b64 bar;
	ld.param.u64 %rd5, [pout];
	mov.b64 %tmi, min;
	cvta.param.u64 %tmi, %tmi;
	mbarrier.init.shared::cta.b64 [bar], 1;
	fence.mbarrier_init.release.cluster;
	mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [bar], 1024;
	cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [tile], [%tmi, {0, 0}], [bar];
WAIT:
	mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
	@!%p2 bra WAIT;
	mov.u32 %r1, 0;
LOOP:
	ld.shared.u32 %r2, [tile];
	cvt.u64.u32 %rd6, %r1;
	mov.u32 %r3, tile;
	add.u32 %r3, %r3, %r1;
	ld.shared.u32 %r2, [%r3];
	add.u64 %rd7, %rd5, %rd6;
	st.global.u32 [%rd7], %r2;
	add.u32 %r1, %r1, 4;
	setp.lt.u32 %p1, %r1, 1024;
	@%p1 bra LOOP;
	ret;";

#[test]
fn the_128_byte_swizzle_places_chunks_as_the_spec_table_shows() {
    let prog = program(
        LOAD_OUT,
        ".param .u64 pin, .param .u64 pout, .param .align 64 .b8 min[128]",
        "",
    );
    let min = map2d(IN, 32, 8, 128, [32, 8], Swizzle::B128);
    let input = words(32 * 8, 7);
    let launch = Launch::new(
        [1, 1, 1],
        [1, 1, 1],
        vec![
            Arg::Buffer {
                addr: Some(IN),
                bytes: input.clone(),
            },
            Arg::Buffer {
                addr: Some(OUT),
                bytes: vec![0; 1024],
            },
            Arg::Bytes(min.to_bytes().to_vec()),
        ],
    );
    let o = sim::run(&prog, &launch).unwrap();
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    // PTX ISA 5.5.7, 128-byte swizzle: in 128-byte line r of a 1024-byte
    // aligned block, 16-byte chunk c holds the row's chunk c ^ (r % 8)
    let got = &o.buffers[1].bytes;
    for r in 0..8usize {
        for c in 0..8usize {
            let from = &input[r * 128 + (c ^ r) * 16..][..16];
            assert_eq!(&got[r * 128 + c * 16..][..16], from, "line {r} chunk {c}");
        }
    }
}

#[test]
fn reading_the_box_before_the_wait_is_a_race_with_a_report() {
    let early = LOAD_OUT.replace(
        "WAIT:\n\tmbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;\n\t@!%p2 bra WAIT;\n",
        "",
    );
    let prog = program(
        &early,
        ".param .u64 pin, .param .u64 pout, .param .align 64 .b8 min[128]",
        "",
    );
    let min = map2d(IN, 32, 8, 128, [32, 8], Swizzle::B128);
    let mut launch = Launch::new(
        [1, 1, 1],
        [1, 1, 1],
        vec![
            Arg::Buffer {
                addr: Some(IN),
                bytes: words(256, 1),
            },
            Arg::Buffer {
                addr: Some(OUT),
                bytes: vec![0; 1024],
            },
            Arg::Bytes(min.to_bytes().to_vec()),
        ],
    );
    launch.schedule = Schedule::Late;
    let o = sim::run(&prog, &launch).unwrap();
    assert!(!o.undefined_results.is_empty());
    assert!(
        o.undefined_results[0].note.contains("cp.async.bulk.tensor"),
        "{:?}",
        o.undefined_results[0]
    );
    assert!(o.buffers[1].unspecified.iter().all(|&b| b == 1));
}

#[test]
fn a_map_that_breaks_a_rule_stops_the_thread_naming_the_field() {
    let prog = program(ROUND_TRIP, ROUND_TRIP_PARAMS, "");
    // a global stride that is not a multiple of 16
    let mut min = map2d(IN, 40, 24, 256, [32, 8], Swizzle::None);
    min.global_strides[0] = 168;
    let mout = map2d(OUT, 40, 24, 256, [32, 8], Swizzle::None);
    let launch = round_trip_launch(
        &min,
        &mout,
        [0, 0, 0, 0],
        vec![0; 256 * 24],
        vec![0; 256 * 24],
        1024,
    );
    let o = sim::run(&prog, &launch).unwrap();
    assert_eq!(o.reports.len(), 1, "{:?}", o.reports);
    assert!(matches!(o.reports[0].kind, StopKind::Undefined(_)));
    assert!(
        o.reports[0].note.contains("globalStrides[0]"),
        "{:?}",
        o.reports[0]
    );
}

#[test]
fn a_misaligned_box_and_a_wrong_dim_are_undefined() {
    let prog = program(ROUND_TRIP, ROUND_TRIP_PARAMS, "");
    let min = map2d(IN, 40, 24, 256, [32, 8], Swizzle::None);
    // x = 1: the box's address is 4 bytes past a 16-byte boundary
    let launch = round_trip_launch(
        &min,
        &min,
        [1, 0, 0, 0],
        vec![0; 256 * 24],
        vec![0; 256 * 24],
        1024,
    );
    let o = sim::run(&prog, &launch).unwrap();
    let sec = |o: &Outcome| match &o.reports[0].kind {
        StopKind::Undefined(u) => u.section,
        k => panic!("{k:?}"),
    };
    assert_eq!(sec(&o), "5.5.3.1");
    let mut m3 = min;
    m3.rank = 3;
    let launch = round_trip_launch(
        &m3,
        &min,
        [0, 0, 0, 0],
        vec![0; 256 * 24],
        vec![0; 256 * 24],
        1024,
    );
    let o = sim::run(&prog, &launch).unwrap();
    assert_eq!(sec(&o), "9.7.9.25.5.2");
}

/// Writes a map into global memory with plain stores, then uses it.
const MAP_IN_GLOBAL: &str = "\
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<12>;
	.shared .align 1024 .b8 tile[1024];
	.shared .align 8 .b64 bar;
	ld.param.u64 %rd5, [pout];
	ld.param.u64 %rd8, [pmap];
	mov.u32 %r1, 0;
COPY:
	cvt.u64.u32 %rd9, %r1;
	mov.u64 %rd10, min;
	add.u64 %rd10, %rd10, %rd9;
	ld.u64 %rd11, [%rd10];
	add.u64 %rd10, %rd8, %rd9;
	st.global.u64 [%rd10], %rd11;
	add.u32 %r1, %r1, 8;
	setp.lt.u32 %p1, %r1, 128;
	@%p1 bra COPY;
	REPLACE
	FENCE
	mbarrier.init.shared::cta.b64 [bar], 1;
	fence.mbarrier_init.release.cluster;
	mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [bar], 1024;
	cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [tile], [%rd8, {0, 0}], [bar];
WAIT:
	mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
	@!%p2 bra WAIT;
	ld.shared.v4.u32 {%r2, %r3, %r4, %r5}, [tile];
	st.global.v4.u32 [%rd5], {%r2, %r3, %r4, %r5};
	ret;";

#[test]
fn a_map_written_in_global_memory_needs_the_tensormap_proxy_fence() {
    const MAP: u64 = 0x7f00_0030_0000;
    let min = map2d(IN, 32, 8, 128, [32, 8], Swizzle::None);
    let input = words(256, 3);
    for fenced in [true, false] {
        let fence = if fenced {
            "fence.proxy.tensormap::generic.release.gpu;\n\tfence.proxy.tensormap::generic.acquire.gpu [%rd8], 128;"
        } else {
            ""
        };
        let body = MAP_IN_GLOBAL
            .replace("REPLACE", "")
            .replace("FENCE", fence)
            .replace(
                "mov.u64 %rd10, min;",
                "mov.u64 %rd10, min;\n\tcvta.param.u64 %rd10, %rd10;",
            );
        let prog = program(
            &body,
            ".param .u64 pin, .param .u64 pout, .param .u64 pmap, .param .align 64 .b8 min[128]",
            "",
        );
        let launch = Launch::new(
            [1, 1, 1],
            [1, 1, 1],
            vec![
                Arg::Buffer {
                    addr: Some(IN),
                    bytes: input.clone(),
                },
                Arg::Buffer {
                    addr: Some(OUT),
                    bytes: vec![0; 16],
                },
                Arg::Buffer {
                    addr: Some(MAP),
                    bytes: vec![0; 128],
                },
                Arg::Bytes(min.to_bytes().to_vec()),
            ],
        );
        let o = sim::run(&prog, &launch).unwrap();
        assert!(o.reports.is_empty(), "{:?}", o.reports);
        if fenced {
            assert!(o.undefined_results.is_empty(), "{:?}", o.undefined_results);
            assert_eq!(o.buffers[1].bytes, input[..16]);
            assert!(o.buffers[1].unspecified.iter().all(|&b| b == 0));
        } else {
            assert_eq!(o.undefined_results.len(), 1, "{:?}", o.undefined_results);
            match &o.undefined_results[0].kind {
                StopKind::Undefined(u) => assert!(u.rule.contains("tensormap proxy"), "{u:?}"),
                k => panic!("{k:?}"),
            }
            assert!(o.buffers[1].unspecified.iter().all(|&b| b == 1));
        }
    }
}

/// Reduces a shared box of u32 into global memory.
const REDUCE: &str = "\
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.reg .b64 %tm;
	.shared .align 128 .b8 tile[512];
	mov.b64 %tm, m;
	cvta.param.u64 %tm, %tm;
	mov.u32 %r1, 0;
FILL:
	mov.u32 %r2, tile;
	add.u32 %r2, %r2, %r1;
	add.u32 %r3, %r1, 1000;
	st.shared.u32 [%r2], %r3;
	add.u32 %r1, %r1, 4;
	setp.lt.u32 %p1, %r1, 512;
	@%p1 bra FILL;
	fence.proxy.async.shared::cta;
	cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%tm, {4, 2}], [tile];
	cp.async.bulk.commit_group;
	cp.async.bulk.wait_group 0;
	ret;";

#[test]
fn a_tensor_reduction_adds_the_shared_box_into_the_tensor() {
    let prog = program(
        &REDUCE.replace(".reg .b32 %r<8>;", ".reg .b32 %r<8>;\n\t.reg .pred %p<2>;"),
        ".param .u64 pout, .param .align 64 .b8 m[128]",
        "",
    );
    let mut m = map2d(OUT, 12, 6, 64, [16, 8], Swizzle::None);
    m.data_type = DataType::U32;
    let out0: Vec<u8> = (0..16 * 6u32).flat_map(|i| (i * 3).to_le_bytes()).collect();
    let launch = Launch::new(
        [1, 1, 1],
        [1, 1, 1],
        vec![
            Arg::Buffer {
                addr: Some(OUT),
                bytes: out0.clone(),
            },
            Arg::Bytes(m.to_bytes().to_vec()),
        ],
    );
    for o in schedules(&prog, &launch) {
        assert!(o.reports.is_empty(), "{:?}", o.reports);
        let got = &o.buffers[0].bytes;
        for y in 0..6u32 {
            for x in 0..16u32 {
                let k = (y * 16 + x) as usize * 4;
                let old = u32::from_le_bytes(out0[k..k + 4].try_into().unwrap());
                let inside = (4..12).contains(&x) && (2..6).contains(&y);
                // element (x, y) of the box (x - 4, y - 2) is shared word
                // (y - 2) * 16 + (x - 4)
                let want = if inside {
                    old.wrapping_add(1000 + 4 * ((y - 2) * 16 + (x - 4)))
                } else {
                    old
                };
                assert_eq!(
                    u32::from_le_bytes(got[k..k + 4].try_into().unwrap()),
                    want,
                    "({x}, {y})"
                );
            }
        }
    }
}

/// Multicast into both CTAs of a cluster of two.
const MULTICAST: &str = "\
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.shared .align 1024 .b8 tile[1024];
	.reg .b64 %tmi;
	.shared .align 8 .b64 bar;
	ld.param.u64 %rd5, [pout];
	mov.b64 %tmi, min;
	cvta.param.u64 %tmi, %tmi;
	mov.u32 %r6, %cluster_ctarank;
	mbarrier.init.shared::cta.b64 [bar], 1;
	fence.mbarrier_init.release.cluster;
	mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [bar], 1024;
	barrier.cluster.arrive;
	barrier.cluster.wait;
	setp.eq.u32 %p1, %r6, 0;
	@%p1 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [tile], [%tmi, {0, 0}], [bar], 3;
WAIT:
	mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
	@!%p2 bra WAIT;
	ld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [tile+1008];
	mul.wide.u32 %rd6, %r6, 16;
	add.u64 %rd5, %rd5, %rd6;
	st.global.v4.u32 [%rd5], {%r1, %r2, %r3, %r4};
	barrier.cluster.arrive;
	barrier.cluster.wait;
	ret;";

#[test]
fn multicast_fills_every_cta_of_the_mask() {
    let prog = program(
        MULTICAST,
        ".param .u64 pin, .param .u64 pout, .param .align 64 .b8 min[128]",
        "\n.reqnctapercluster 2, 1, 1",
    );
    let min = map2d(IN, 64, 8, 256, [32, 8], Swizzle::None);
    let input = words(64 * 8, 9);
    let launch = Launch::new(
        [2, 1, 1],
        [1, 1, 1],
        vec![
            Arg::Buffer {
                addr: Some(IN),
                bytes: input.clone(),
            },
            Arg::Buffer {
                addr: Some(OUT),
                bytes: vec![0; 32],
            },
            Arg::Bytes(min.to_bytes().to_vec()),
        ],
    );
    for o in schedules(&prog, &launch) {
        assert!(o.reports.is_empty(), "{:?}", o.reports);
        // the last 16 bytes of the box: row 7, elements 28..32
        let want = &input[7 * 256 + 28 * 4..][..16];
        assert_eq!(&o.buffers[1].bytes[..16], want);
        assert_eq!(&o.buffers[1].bytes[16..], want);
    }
}

#[test]
fn tensormap_replace_moves_the_box_to_another_tensor() {
    const MAP: u64 = 0x7f00_0030_0000;
    const OTHER: u64 = 0x7f00_0040_0000;
    let min = map2d(IN, 32, 8, 128, [32, 8], Swizzle::None);
    let (a, b) = (words(256, 3), words(256, 4));
    let run = |replace: &str| {
        let body = MAP_IN_GLOBAL
            .replace("REPLACE", replace)
            .replace("FENCE", "fence.proxy.tensormap::generic.release.gpu;\n\tfence.proxy.tensormap::generic.acquire.gpu [%rd8], 128;")
            .replace("mov.u64 %rd10, min;", "mov.u64 %rd10, min;\n\tcvta.param.u64 %rd10, %rd10;");
        let prog = program(
            &body,
            ".param .u64 pin, .param .u64 pout, .param .u64 pmap, .param .align 64 .b8 min[128], .param .u64 pother",
            "",
        );
        let launch = Launch::new(
            [1, 1, 1],
            [1, 1, 1],
            vec![
                Arg::Buffer {
                    addr: Some(IN),
                    bytes: a.clone(),
                },
                Arg::Buffer {
                    addr: Some(OUT),
                    bytes: vec![0; 16],
                },
                Arg::Buffer {
                    addr: Some(MAP),
                    bytes: vec![0; 128],
                },
                Arg::Bytes(min.to_bytes().to_vec()),
                Arg::Buffer {
                    addr: Some(OTHER),
                    bytes: b.clone(),
                },
            ],
        );
        sim::run(&prog, &launch).unwrap()
    };
    // PTX ISA 9.7.9.26: the field `.global_address` of the map in global
    // memory becomes `pother`: the box comes from there
    let o = run("ld.param.u64 %rd11, [pother];\n\ttensormap.replace.tile.global_address.global.b1024.b64 [%rd8], %rd11;");
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    assert_eq!(o.buffers[1].bytes, b[..16]);
    // `.rank` takes the rank minus one: 5 would be a rank of 6
    let o = run("tensormap.replace.tile.rank.global.b1024.b32 [%rd8], 5;");
    assert_eq!(o.reports.len(), 1, "{:?}", o.reports);
    match &o.reports[0].kind {
        StopKind::Undefined(u) => assert_eq!(u.section, "9.7.9.26"),
        k => panic!("{k:?}"),
    }
    // the address window: a map in the parameter space cannot be replaced
    let o = run("mov.u64 %rd11, min;\n\tcvta.param.u64 %rd11, %rd11;\n\ttensormap.replace.tile.rank.b1024.b32 [%rd11], 1;");
    match &o.reports[0].kind {
        StopKind::Undefined(u) => assert!(u.rule.contains("address window"), "{u:?}"),
        k => panic!("{k:?}"),
    }
}

/// Gathers four rows of `min` into shared memory, waits, and scatters them
/// to rows 3, 2, 1, 0 of `mout` (sm_100a; from the spec, not seen on
/// hardware).
const GATHER_SCATTER: &str = "\
	.reg .pred %p<4>;
	.reg .b64 %rd<4>;
	.reg .b64 %tmi, %tmo;
	.shared .align 1024 .b8 tile[1024];
	.shared .align 8 .b64 bar;
	mov.b64 %tmi, min;
	cvta.param.u64 %tmi, %tmi;
	mov.b64 %tmo, mout;
	cvta.param.u64 %tmo, %tmo;
	mbarrier.init.shared::cta.b64 [bar], 1;
	fence.mbarrier_init.release.cluster;
	mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [bar], 128;
	cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes [tile], [%tmi, {4, 3, 0, 7, 3}], [bar];
WAIT:
	mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
	@!%p2 bra WAIT;
	cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group [%tmo, {0, 3, 2, 1, 0}], [tile];
	cp.async.bulk.commit_group;
	cp.async.bulk.wait_group 0;
	ret;";

// See: issue 16 (the sm_100 modes, from the spec)
#[test]
fn gather4_and_scatter4_move_four_rows_by_their_indices() {
    let src = format!(
        ".version 8.7\n.target sm_100a\n.address_size 64\n.visible .entry k(.param .u64 pin, .param .u64 pout, .param .align 64 .b8 min[128], .param .align 64 .b8 mout[128])\n{{\n{GATHER_SCATTER}\n}}\n"
    );
    let module = parse(&src).unwrap_or_else(|e| panic!("{e:?}"));
    let prog = sim::prepare(&module, "k", &WindowProfile::SM90).unwrap_or_else(|e| panic!("{e}"));
    // 16 x 8 f32 elements, rows 64 bytes apart; boxes of 8 x 1
    let min = map2d(IN, 16, 8, 64, [8, 1], Swizzle::None);
    let mout = map2d(OUT, 8, 4, 32, [8, 1], Swizzle::None);
    let input = words(16 * 8, 0x5a5a);
    let launch = |min: &TensorMap| {
        Launch::new(
            [1, 1, 1],
            [1, 1, 1],
            vec![
                Arg::Buffer {
                    addr: Some(IN),
                    bytes: input.clone(),
                },
                Arg::Buffer {
                    addr: Some(OUT),
                    bytes: vec![0; 128],
                },
                Arg::Bytes(min.to_bytes().to_vec()),
                Arg::Bytes(mout.to_bytes().to_vec()),
            ],
        )
    };
    // shared row k is input row [3, 0, 7, 3][k], columns 4..12; it goes to
    // output row [3, 2, 1, 0][k]: output row r is input row [3, 7, 0, 3][r]
    let want: Vec<u8> = [3usize, 7, 0, 3]
        .into_iter()
        .flat_map(|y| input[64 * y + 16..64 * y + 48].to_vec())
        .collect();
    for o in schedules(&prog, &launch(&min)) {
        assert!(o.reports.is_empty(), "{:?}", o.reports);
        assert!(o.undefined_results.is_empty(), "{:?}", o.undefined_results);
        assert_eq!(o.buffers[1].bytes, want);
    }
    // a 3-dimensional map: no defined copy
    let mut m3 = min;
    m3.rank = 3;
    m3.global_strides[1] = 64 * 8;
    let o = sim::run(&prog, &launch(&m3)).unwrap();
    match &o.reports[0].kind {
        StopKind::Undefined(u) => {
            assert_eq!(u.section, "9.7.9.25.5.2");
            assert!(u.rule.contains(".tile::gather4"), "{}", u.rule);
        }
        k => panic!("{k:?}"),
    }
}

/// `.cta_group::2` multicast into a CTA pair, the mbarrier in the first
/// CTA: both signals go to it (PTX ISA 9.7.9.25.5.2: "the mbarrier signal
/// is sent either to the destination CTA or its peer-CTA based on CTAs
/// %cluster_ctarank parity of shared memory where the mbarrier object mbar
/// resides"), so it expects both copies' bytes; the second CTA reads its
/// box after a cluster barrier.
const PAIR: &str = "\
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.reg .b64 %tmi;
	.shared .align 1024 .b8 tile[1024];
	.shared .align 8 .b64 bar;
	ld.param.u64 %rd5, [pout];
	mov.b64 %tmi, min;
	cvta.param.u64 %tmi, %tmi;
	mov.u32 %r6, %cluster_ctarank;
	setp.eq.u32 %p1, %r6, 0;
	@%p1 mbarrier.init.shared::cta.b64 [bar], 1;
	fence.mbarrier_init.release.cluster;
	@%p1 mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [bar], 2048;
	barrier.cluster.arrive;
	barrier.cluster.wait;
	@%p1 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.GROUP [tile], [%tmi, {0, 0}], [bar], 3;
	@!%p1 bra DONE;
WAIT:
	mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
	@!%p2 bra WAIT;
DONE:
	barrier.cluster.arrive;
	barrier.cluster.wait;
	ld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [tile+1008];
	mul.wide.u32 %rd6, %r6, 16;
	add.u64 %rd5, %rd5, %rd6;
	st.global.v4.u32 [%rd5], {%r1, %r2, %r3, %r4};
	ret;";

#[test]
fn cta_group_2_multicast_signals_the_mbarrier_of_the_pair() {
    let min = map2d(IN, 64, 8, 256, [32, 8], Swizzle::None);
    let input = words(64 * 8, 11);
    let launch = Launch::new(
        [2, 1, 1],
        [1, 1, 1],
        vec![
            Arg::Buffer {
                addr: Some(IN),
                bytes: input.clone(),
            },
            Arg::Buffer {
                addr: Some(OUT),
                bytes: vec![0; 32],
            },
            Arg::Bytes(min.to_bytes().to_vec()),
        ],
    );
    let run = |group: &str| {
        let body = PAIR
            .replace("GROUP", group)
            .replace(".version 8.7\n.target sm_90a", "");
        let src = format!(
            ".version 8.7\n.target sm_100a\n.address_size 64\n.visible .entry k(.param .u64 pin, .param .u64 pout, .param .align 64 .b8 min[128])\n.reqnctapercluster 2, 1, 1\n{{\n{body}\n}}\n"
        );
        let module = parse(&src).unwrap_or_else(|e| panic!("{e:?}\n{src}"));
        let prog = sim::prepare(&module, "k", &WindowProfile::SM90).unwrap();
        sim::run(&prog, &launch).unwrap()
    };
    let o = run("cta_group::2");
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    let want = &input[7 * 256 + 28 * 4..][..16];
    assert_eq!(&o.buffers[1].bytes[..16], want);
    assert_eq!(&o.buffers[1].bytes[16..], want);
    // with `.cta_group::1` the second signal goes to the second CTA's
    // mbarrier, which nobody initialised
    let o = run("cta_group::1");
    assert!(!o.reports.is_empty() || !o.undefined_results.is_empty());
}
