//! The warp-wide instructions of PTX ISA 9.7.13 in the kernel interpreter:
//! `activemask`, `vote.sync`, `redux.sync`, `elect.sync`, on one warp of
//! 32 threads, with values worked by hand; `bar.arrive` and `bar.red` on
//! two warps (the expected reductions counted from the predicates'
//! definitions), `trap` and `brkpt`.

use ptx_semantics::ptx::parse;
use ptx_semantics::sim::{self, Arg, Launch, Outcome, StopKind, WindowProfile};

const HEAD: &str = ".version 8.7\n.target sm_90\n.address_size 64\n";

/// Runs `body` on one warp: `%r1` holds the laneid; the kernel then stores
/// `%r2` of lane i at word i and `%r3` at word 32 + i of the buffer.
fn run(body: &str) -> Outcome {
    let src = format!(
        "{HEAD}.visible .entry k(.param .u64 p)\n{{\n\t.reg .pred %p<8>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<8>;\n\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, %laneid;\n\tmov.u32 %r2, 0xdead;\n\tmov.u32 %r3, 0xdead;\n{body}\nOUT:\n\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r2;\n\tst.global.u32 [%rd3+128], %r3;\n\tret;\n}}\n"
    );
    let module = parse(&src).unwrap_or_else(|e| panic!("{e:?}\n{src}"));
    let prog =
        sim::prepare(&module, "k", &WindowProfile::SM90).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let launch = Launch::new(
        [1, 1, 1],
        [32, 1, 1],
        vec![Arg::Buffer {
            addr: None,
            bytes: vec![0; 256],
        }],
    );
    sim::run(&prog, &launch).unwrap()
}

/// `%r2` and `%r3` of every lane, after checking that no thread stopped.
fn r2_r3(body: &str) -> (Vec<u32>, Vec<u32>) {
    let o = run(body);
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    let b = &o.buffers[0];
    assert!(b.unspecified.iter().all(|&u| u == 0));
    let word = |k: usize| u32::from_le_bytes(b.bytes[4 * k..4 * k + 4].try_into().unwrap());
    ((0..32).map(word).collect(), (32..64).map(word).collect())
}

fn r2(body: &str) -> Vec<u32> {
    r2_r3(body).0
}

/// `%r2` for lanes `lo..hi`, 0xdead for the others.
fn only(lo: u32, hi: u32, v: u32) -> Vec<u32> {
    (0..32)
        .map(|l| if (lo..hi).contains(&l) { v } else { 0xdead })
        .collect()
}

const ODD: &str = "\tand.b32 %r4, %r1, 1;\n\tsetp.ne.u32 %p1, %r4, 0;\n";

#[test]
fn activemask() {
    // the whole warp together
    assert_eq!(r2("\tactivemask.b32 %r2;"), vec![u32::MAX; 32]);
    // inside a branch taken by lanes < 8
    let branch = "\tsetp.lt.u32 %p1, %r1, 8;\n\t@!%p1 bra OUT;\n\tactivemask.b32 %r2;";
    assert_eq!(r2(branch), only(0, 8, 0xFF));
    // "predicated-off thread will contribute 0"
    let guarded = "\tsetp.lt.u32 %p1, %r1, 8;\n\t@%p1 activemask.b32 %r2;";
    assert_eq!(r2(guarded), only(0, 8, 0xFF));
}

#[test]
fn ballot() {
    let b = format!("{ODD}\tvote.sync.ballot.b32 %r2, %p1, 0xffffffff;");
    assert_eq!(r2(&b), vec![0xAAAA_AAAA; 32]);
    let b = format!("{ODD}\tvote.sync.ballot.b32 %r2, !%p1, 0xffffffff;");
    assert_eq!(r2(&b), vec![0x5555_5555; 32]);
    // lanes outside membermask contribute 0: lanes < 16 vote laneid < 8
    let b = "\tsetp.lt.u32 %p1, %r1, 8;\n\tsetp.lt.u32 %p2, %r1, 16;\n\t@!%p2 bra OUT;\n\tvote.sync.ballot.b32 %r2, %p1, 0xffff;";
    assert_eq!(r2(b), only(0, 16, 0xFF));
}

/// `vote.sync.{all,any,uni}` with `%p1`, members `mask`; lanes outside the
/// mask skip it. `%r2` = all, `%r3` = any + 2 uni.
fn all_any_uni(pred: &str, mask: &str, skip: &str) -> (Vec<u32>, Vec<u32>) {
    r2_r3(&format!(
        "{pred}{skip}\tvote.sync.all.pred %p2, %p1, {mask};\n\tvote.sync.any.pred %p3, %p1, {mask};\n\tvote.sync.uni.pred %p4, %p1, {mask};\n\tselp.u32 %r2, 1, 0, %p2;\n\tselp.u32 %r5, 1, 0, %p3;\n\tselp.u32 %r6, 2, 0, %p4;\n\tadd.u32 %r3, %r5, %r6;"
    ))
}

#[test]
fn all_any_uni_on_a_full_warp() {
    let full = "0xffffffff";
    // odd lanes true: not all, some, not uniform
    assert_eq!(all_any_uni(ODD, full, ""), (vec![0; 32], vec![1; 32]));
    // every lane true
    let t = "\tsetp.lt.u32 %p1, %r1, 32;\n";
    assert_eq!(all_any_uni(t, full, ""), (vec![1; 32], vec![3; 32]));
    // every lane false
    let f = "\tsetp.gt.u32 %p1, %r1, 32;\n";
    assert_eq!(all_any_uni(f, full, ""), (vec![0; 32], vec![2; 32]));
}

#[test]
fn all_any_uni_on_a_partial_membermask() {
    // members: the odd lanes, whose predicate (odd) is true for all of them
    let skip = "\t@!%p1 bra OUT;\n";
    assert_eq!(
        all_any_uni(ODD, "0xaaaaaaaa", skip),
        (
            (0..32)
                .map(|l| if l % 2 == 1 { 1 } else { 0xdead })
                .collect(),
            (0..32)
                .map(|l| if l % 2 == 1 { 3 } else { 0xdead })
                .collect(),
        )
    );
    // members: lanes < 16, predicate laneid < 8
    let pred = "\tsetp.lt.u32 %p1, %r1, 8;\n\tsetp.lt.u32 %p5, %r1, 16;\n";
    let skip = "\t@!%p5 bra OUT;\n";
    assert_eq!(
        all_any_uni(pred, "0xffff", skip),
        (only(0, 16, 0), only(0, 16, 1))
    );
}

#[test]
fn vote_outside_own_membermask_is_undefined() {
    // "The behavior of vote.sync is undefined if the executing thread is
    // not in the membermask": lane 0 names lanes 1..31 only.
    let o = run(&format!(
        "{ODD}\tvote.sync.ballot.b32 %r2, %p1, 0xfffffffe;"
    ));
    assert!(!o.reports.is_empty());
    for r in &o.reports {
        assert_eq!(r.thread.tid, [0, 0, 0]);
        assert!(matches!(&r.kind, StopKind::Undefined(u) if u.section == "9.7.13"));
    }
}

#[test]
fn redux() {
    let red = |op: &str, a: &str| {
        r2(&format!(
            "\tsub.s32 %r4, %r1, 16;\n\tredux.sync.{op} %r2, {a}, 0xffffffff;"
        ))
    };
    // 0 + 1 + ... + 31
    assert_eq!(red("add.u32", "%r1"), vec![496; 32]);
    assert_eq!(red("add.s32", "%r1"), vec![496; 32]);
    // laneid - 16 runs from -16 to 15
    assert_eq!(red("min.s32", "%r4"), vec![-16i32 as u32; 32]);
    assert_eq!(red("max.s32", "%r4"), vec![15; 32]);
    // as unsigned: 0 (lane 16) and 0xffffffff (lane 15, -1)
    assert_eq!(red("min.u32", "%r4"), vec![0; 32]);
    assert_eq!(red("max.u32", "%r4"), vec![u32::MAX; 32]);
    // -16 + ... + 15 = -16
    assert_eq!(red("add.s32", "%r4"), vec![-16i32 as u32; 32]);
    assert_eq!(red("and.b32", "%r1"), vec![0; 32]);
    assert_eq!(red("or.b32", "%r1"), vec![31; 32]);
    // each bit of 0..31 is set in 16 lanes
    assert_eq!(red("xor.b32", "%r1"), vec![0; 32]);
    // lanes 8..11: 8 ^ 9 ^ 10 ^ 11 = 0, 8 + 9 + 10 + 11 = 38
    let part = |op: &str| {
        r2(&format!(
            "\tsetp.lt.u32 %p1, %r1, 8;\n\tsetp.gt.u32 %p2, %r1, 11;\n\tor.pred %p3, %p1, %p2;\n\t@%p3 bra OUT;\n\tredux.sync.{op} %r2, %r1, 0xf00;"
        ))
    };
    assert_eq!(part("add.u32"), only(8, 12, 38));
    assert_eq!(part("xor.b32"), only(8, 12, 0));
    assert_eq!(part("min.u32"), only(8, 12, 8));
}

#[test]
fn elect_picks_exactly_one_lane() {
    let body = |skip: &str, mask: &str| {
        r2_r3(&format!(
            "{skip}\telect.sync %r2|%p2, {mask};\n\tselp.u32 %r3, 1, 0, %p2;"
        ))
    };
    let (d, p) = body("", "0xffffffff");
    assert_eq!(p.iter().filter(|&&x| x == 1).count(), 1);
    let leader = p.iter().position(|&x| x == 1).unwrap() as u32;
    // every lane learns the leader's laneid
    assert_eq!(d, vec![leader; 32]);
    // members: lanes 4..7
    let skip =
        "\tsetp.lt.u32 %p1, %r1, 4;\n\tsetp.gt.u32 %p3, %r1, 7;\n\tor.pred %p4, %p1, %p3;\n\t@%p4 bra OUT;\n";
    let (d, p) = body(skip, "0xf0");
    let leader = p.iter().position(|&x| x == 1).unwrap() as u32;
    assert!((4..8).contains(&leader));
    assert_eq!(p.iter().filter(|&&x| x == 1).count(), 1);
    assert_eq!(d, only(4, 8, leader));
    // the sink for d
    let (_, p) = r2_r3("\telect.sync _|%p2, 0xffffffff;\n\tselp.u32 %r3, 1, 0, %p2;");
    assert_eq!(p.iter().filter(|&&x| x == 1).count(), 1);
}

#[test]
fn vote_waits_for_diverged_members() {
    // lanes < 16 reach the ballot first; it waits for the others, and every
    // lane sees the whole warp's vote (laneid odd)
    let b = format!(
        "{ODD}\tsetp.lt.u32 %p2, %r1, 16;\n\t@%p2 bra V;\n\tadd.u32 %r5, %r1, 1;\n\tadd.u32 %r5, %r5, 1;\nV:\n\tvote.sync.ballot.b32 %r2, %p1, 0xffffffff;\n\tredux.sync.add.u32 %r3, %r1, 0xffffffff;"
    );
    assert_eq!(r2_r3(&b), (vec![0xAAAA_AAAA; 32], vec![496; 32]));
}

#[test]
fn match_any_and_all() {
    // "match.any: d is set to mask corresponding to non-exited threads in
    // membermask that have same value of operand a": a = laneid % 3
    let d = r2("\trem.u32 %r4, %r1, 3;\n\tmatch.any.sync.b32 %r2, %r4, 0xffffffff;");
    let want: Vec<u32> = (0..32u32)
        .map(|l| {
            (0..32u32)
                .filter(|k| k % 3 == l % 3)
                .fold(0, |m, k| m | 1 << k)
        })
        .collect();
    assert_eq!(d, want);
    // .b64: the low words agree, the high words split odd and even lanes
    let d = r2(
        "\tand.b32 %r4, %r1, 1;\n\tmov.b64 %rd4, {7, %r4};\n\tmatch.any.sync.b64 %r2, %rd4, 0xffffffff;",
    );
    let want: Vec<u32> = (0..32)
        .map(|l: u32| {
            if l.is_multiple_of(2) {
                0x5555_5555
            } else {
                0xAAAA_AAAA
            }
        })
        .collect();
    assert_eq!(d, want);
    // match.all: the whole mask when every member agrees, with p true;
    // else 0 and p false
    let all = |a: &str, mask: &str| {
        r2_r3(&format!(
            "{a}\tmatch.all.sync.b32 %r2|%p2, %r4, {mask};\n\tselp.u32 %r3, 1, 0, %p2;"
        ))
    };
    assert_eq!(
        all("\tmov.u32 %r4, 5;\n", "0xffffffff"),
        (vec![u32::MAX; 32], vec![1; 32])
    );
    assert_eq!(
        all("\tshr.u32 %r4, %r1, 4;\n", "0xffffffff"),
        (vec![0; 32], vec![0; 32])
    );
    // members: lanes < 16, whose laneid >> 4 agree
    let skip = "\tshr.u32 %r4, %r1, 4;\n\tsetp.ge.u32 %p1, %r1, 16;\n\t@%p1 bra OUT;\n";
    assert_eq!(all(skip, "0xffff"), (only(0, 16, 0xffff), only(0, 16, 1)));
}

/// `redux.sync.{min,max}{.abs}{.NaN}.f32` over lane values `v(l)`.
fn redux_f32(form: &str, v: impl Fn(u32) -> f32) -> Vec<u32> {
    let words: Vec<String> = (0..32)
        .map(|l| format!("0f{:08X}", v(l).to_bits()))
        .collect();
    // a value per lane through a chain of selp on the laneid
    let mut body = String::from("\tmov.b32 %r4, 0;\n");
    for (l, w) in words.iter().enumerate() {
        body += &format!("\tsetp.eq.u32 %p1, %r1, {l};\n\tselp.b32 %r4, {w}, %r4, %p1;\n");
    }
    body += &format!("\tredux.sync.{form}.f32 %r2, %r4, 0xffffffff;");
    r2(&body)
}

#[test]
fn redux_f32_min_max_abs_nan() {
    let v = |l: u32| (l as f32 - 10.5) * 0.75;
    // Rust's f32::min/max ignore a NaN operand, as min/max.f32 do
    let min = (0..32).map(v).fold(f32::INFINITY, f32::min);
    let max = (0..32).map(v).fold(f32::NEG_INFINITY, f32::max);
    let amin = (0..32).map(|l| v(l).abs()).fold(f32::INFINITY, f32::min);
    let amax = (0..32)
        .map(|l| v(l).abs())
        .fold(f32::NEG_INFINITY, f32::max);
    assert_eq!(redux_f32("min", v), vec![min.to_bits(); 32]);
    assert_eq!(redux_f32("max", v), vec![max.to_bits(); 32]);
    assert_eq!(redux_f32("min.abs", v), vec![amin.to_bits(); 32]);
    assert_eq!(redux_f32("max.abs", v), vec![amax.to_bits(); 32]);
    // a NaN in lane 3: ignored, or with .NaN the canonical NaN
    let with_nan = |l: u32| if l == 3 { f32::NAN } else { v(l) };
    assert_eq!(redux_f32("min", with_nan), vec![min.to_bits(); 32]);
    assert_eq!(redux_f32("max.NaN", with_nan), vec![0x7fff_ffff; 32]);
    // "-0.0 < +0.0"
    let zeros = |l: u32| if l.is_multiple_of(2) { 0.0 } else { -0.0 };
    assert_eq!(redux_f32("min", zeros), vec![0x8000_0000; 32]);
    assert_eq!(redux_f32("max", zeros), vec![0; 32]);
}

/// Runs `body` on two warps of one CTA with a 256-byte buffer at `%rd1`;
/// `%r1` holds %tid.x.
fn two_warps(body: &str) -> sim::Outcome {
    let src = format!(
        "{HEAD}.visible .entry k(.param .u64 p)\n{{\n\t.reg .pred %p<8>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<8>;\n\t.shared .align 4 .b8 sh[256];\n\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, %tid.x;\n{body}\n\tret;\n}}\n"
    );
    let module = parse(&src).unwrap_or_else(|e| panic!("{e:?}\n{src}"));
    let prog =
        sim::prepare(&module, "k", &WindowProfile::SM90).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let launch = Launch::new(
        [1, 1, 1],
        [64, 1, 1],
        vec![Arg::Buffer {
            addr: None,
            bytes: vec![0; 256],
        }],
    );
    sim::run(&prog, &launch).unwrap()
}

#[test]
fn bar_arrive_lets_producers_go_on_and_consumers_wait() {
    // PTX ISA 9.7.13.1's producer-consumer pattern: warp 0 writes shared
    // memory and arrives on barrier 1 (64 threads) without waiting; warp 1
    // waits there (bar.sync 1, 64) and then reads what warp 0 wrote.
    let body = "\
	shl.b32 %r2, %r1, 2;
	mov.u32 %r3, sh;
	setp.ge.u32 %p1, %r1, 32;
	@%p1 bra CONSUMER;
	add.u32 %r4, %r3, %r2;
	add.u32 %r5, %r1, 100;
	st.shared.u32 [%r4], %r5;
	bar.arrive 1, 64;
	bra END;
CONSUMER:
	bar.sync 1, 64;
	sub.u32 %r6, %r2, 128;
	add.u32 %r4, %r3, %r6;
	ld.shared.u32 %r5, [%r4];
	cvt.u64.u32 %rd2, %r6;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r5;
END:";
    let o = two_warps(body);
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    let got: Vec<u32> = (0..32)
        .map(|k| u32::from_le_bytes(o.buffers[0].bytes[4 * k..4 * k + 4].try_into().unwrap()))
        .collect();
    assert_eq!(got, (100..132).collect::<Vec<u32>>());
    // without the arrive, the consumers wait forever
    let o = two_warps(&body.replace("bar.arrive 1, 64;", "add.u32 %r7, %r7, 0;"));
    assert!(o
        .reports
        .iter()
        .any(|r| matches!(r.kind, StopKind::Deadlock(_))));
}

#[test]
fn trap_stops_the_thread_and_brkpt_does_nothing() {
    let o = run("\tsetp.eq.u32 %p1, %r1, 5;\n\t@%p1 trap;\n\tbrkpt;\n\tmov.u32 %r2, 1;");
    assert_eq!(o.reports.len(), 1, "{:?}", o.reports);
    assert_eq!(o.reports[0].kind, StopKind::Trap);
    assert_eq!(o.reports[0].thread.tid, [5, 0, 0]);
    let word =
        |k: usize| u32::from_le_bytes(o.buffers[0].bytes[4 * k..4 * k + 4].try_into().unwrap());
    assert_eq!(word(5), 0);
    assert!((0..32).filter(|&k| k != 5).all(|k| word(k) == 1));
}

// ---- bar.red (PTX ISA 9.7.13.1) ----
//
// "The c predicate (or its complement) from all threads in the CTA are
// combined using the specified reduction operator. Once the barrier count
// is reached, the final value is written to the destination register in
// all threads waiting at the barrier." The expected values are counted
// here from the predicate's definition over the 64 thread ids.

/// Runs `body` on two warps; each thread then stores `%r3` at word tid.
fn bar_red_words(body: &str) -> (Vec<u32>, sim::Outcome) {
    let o = two_warps(&format!(
        "{body}\n\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r3;"
    ));
    let b = &o.buffers[0];
    let words = (0..64)
        .map(|k| u32::from_le_bytes(b.bytes[4 * k..4 * k + 4].try_into().unwrap()))
        .collect();
    (words, o)
}

/// The result every one of the 64 threads gets, after checking that none
/// stopped and that all agree.
fn bar_red_all(body: &str) -> u32 {
    let (words, o) = bar_red_words(body);
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    assert!(o.buffers[0].unspecified.iter().all(|&u| u == 0));
    assert!(words.iter().all(|&w| w == words[0]), "{words:?}");
    words[0]
}

const THIRDS: &str = "\trem.u32 %r2, %r1, 3;\n\tsetp.eq.u32 %p1, %r2, 0;\n";

#[test]
fn bar_red_popc_counts_the_true_predicates_of_the_cta() {
    let thirds = (0..64u32).filter(|t| t % 3 == 0).count() as u32;
    assert_eq!(
        bar_red_all(&format!("{THIRDS}\tbar.red.popc.u32 %r3, 0, %p1;")),
        thirds
    );
    // the complement, the `barrier` spelling with `.aligned`, a count
    assert_eq!(
        bar_red_all(&format!(
            "{THIRDS}\tbarrier.cta.red.popc.aligned.u32 %r3, 1, 64, !%p1;"
        )),
        64 - thirds
    );
    // the barrier is reused at once: a second reduction on it starts anew
    assert_eq!(
        bar_red_all(&format!(
            "{THIRDS}\tbar.cta.red.popc.u32 %r4, 0, %p1;\n\tbar.red.popc.u32 %r5, 0, !%p1;\n\tmul.lo.u32 %r3, %r4, 100;\n\tadd.u32 %r3, %r3, %r5;"
        )),
        100 * thirds + (64 - thirds)
    );
}

#[test]
fn bar_red_and_or_tell_whether_all_or_any_thread_had_a_true_predicate() {
    let pred = |cond: &str, red: &str| {
        bar_red_all(&format!(
            "\tsetp.{cond};\n\t{red} %p2, %r4, %p1;\n\tselp.u32 %r3, 1, 0, %p2;"
        ))
    };
    let ids = |f: &dyn Fn(u32) -> bool| (0..64u32).map(f).collect::<Vec<bool>>();
    for (cond, truth) in [
        ("lt.u32 %p1, %r1, 64", ids(&|t| t < 64)),
        ("ne.u32 %p1, %r1, 17", ids(&|t| t != 17)),
        ("eq.u32 %p1, %r1, 63", ids(&|t| t == 63)),
        ("eq.u32 %p1, %r1, 100", ids(&|t| t == 100)),
    ] {
        // the barrier identifier from a register
        let cond = format!("{cond};\n\tmov.u32 %r4, 3");
        let all = u32::from(truth.iter().all(|&b| b));
        let any = u32::from(truth.iter().any(|&b| b));
        assert_eq!(pred(&cond, "bar.red.and.pred"), all, "{cond}");
        assert_eq!(pred(&cond, "barrier.red.or.pred"), any, "{cond}");
    }
}

#[test]
fn bar_red_without_a_count_waits_for_the_threads_that_have_not_exited() {
    // threads 48..63 exit first: the 48 others complete the barrier
    let (words, o) = bar_red_words(
        "\tsetp.ge.u32 %p3, %r1, 48;\n\t@%p3 exit;\n\tsetp.lt.u32 %p1, %r1, 100;\n\tbar.red.popc.u32 %r3, 0, %p1;",
    );
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    let want: Vec<u32> = (0..64).map(|t| if t < 48 { 48 } else { 0 }).collect();
    assert_eq!(words, want);
}

#[test]
fn an_unspecified_predicate_leaves_open_only_what_it_could_change() {
    // thread 5's predicate reads uninitialised shared memory; thread 7's
    // is true, every other false
    let setup = "\tmov.u32 %r5, 0;\n\tsetp.eq.u32 %p5, %r1, 5;\n\t@%p5 ld.shared.u32 %r5, [sh];\n\tsetp.ne.u32 %p1, %r5, 0;\n\tsetp.eq.u32 %p6, %r1, 7;\n\tor.pred %p1, %p1, %p6;\n";
    let (_, o) = bar_red_words(&format!("{setup}\tbar.red.popc.u32 %r3, 0, %p1;"));
    assert!(o.reports.is_empty(), "{:?}", o.reports);
    // 1 or 2: every word unspecified
    assert_eq!(o.buffers[0].unspecified, vec![1; 256]);
    // any: thread 7 decides it; all: the false ones decide it
    for (red, want) in [("or", 1), ("and", 0)] {
        assert_eq!(
            bar_red_all(&format!(
                "{setup}\tbar.red.{red}.pred %p2, 0, %p1;\n\tselp.u32 %r3, 1, 0, %p2;"
            )),
            want,
            "{red}"
        );
    }
}

#[test]
fn bar_red_mixed_with_bar_sync_on_one_barrier_is_undefined() {
    // "barrier{.cta}.red should not be intermixed with barrier{.cta}.sync
    // or barrier{.cta}.arrive using the same active barrier. Execution in
    // this case is unpredictable."
    for other in ["bar.sync 1;", "bar.arrive 1, 64;"] {
        let (_, o) = bar_red_words(&format!(
            "\tsetp.lt.u32 %p1, %r1, 32;\n\t@!%p1 bra OTHER;\n\tbar.red.popc.u32 %r3, 1, %p1;\n\tbra END;\nOTHER:\n\t{other}\nEND:"
        ));
        let undefined: Vec<_> = o
            .reports
            .iter()
            .filter_map(|r| match &r.kind {
                StopKind::Undefined(u) => Some((u.section, r.thread.tid[0])),
                _ => None,
            })
            .collect();
        assert!(!undefined.is_empty(), "{other}: {:?}", o.reports);
        assert!(
            undefined.iter().all(|&(s, _)| s == "9.7.13.1"),
            "{undefined:?}"
        );
        assert!(o.reports.iter().any(|r| matches!(&r.kind,
            StopKind::Undefined(u) if u.rule.contains("intermixed"))));
    }
}
