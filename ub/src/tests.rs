//! The search on small kernels: loops counted per entry, paths merged,
//! limits that leave unknowns with their reasons, witnesses that name what
//! they depend on.

use crate::{analyse, replay, Analysis, Options, Replay, Verdict};
use ptx_semantics::ptx::{self, ast::Module};

fn module(body: &str, params: &str) -> Module {
    let src = format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k({params})\n{{\n{body}\n}}\n"
    );
    ptx::parse(&src).unwrap_or_else(|e| panic!("{}: {src}", e.message))
}

fn run(m: &Module, opts: &Options) -> Analysis {
    analyse(m, "k", opts).expect("the kernel loads")
}

/// The verdicts of the findings at instructions whose text starts with
/// `text`, as "cannot", "witness" or "unknown".
fn verdicts<'a>(a: &'a Analysis, text: &str) -> Vec<&'a Verdict> {
    a.findings
        .iter()
        .filter(|f| f.instruction.starts_with(text))
        .map(|f| &f.verdict)
        .collect()
}

const REGS: &str = "
    .reg .pred %p<9>;
    .reg .b32 %r<20>;
    .reg .b64 %rd<20>;
    .shared .align 8 .b64 bar;";

/// A spin on an mbarrier (three ways round, as nvcc writes a wait with a
/// back-off) inside a loop over tiles: each turn of the outer loop enters
/// the wait afresh. The aligned store after the wait cannot be misaligned;
/// the one two bytes further is.
#[test]
fn a_wait_loop_inside_a_loop_is_decided() {
    let body = format!(
        "{REGS}
    ld.param.u64 %rd1, [p];
    ld.param.u32 %r1, [n];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r5, %tid.x;
    setp.ne.u32 %p5, %r5, 0;
    @%p5 bra ready;
    mov.u32 %r6, %ntid.x;
    mbarrier.init.shared::cta.b64 [bar], %r6;
ready:
    bar.sync 0;
    mov.u32 %r2, 0;
outer:
    mbarrier.arrive.shared::cta.b64 %rd3, [bar];
    mov.u32 %r3, 0;
    bra.uni wait;
again:
    add.s32 %r3, %r3, 1;
wait:
    mbarrier.try_wait.shared::cta.b64 %p1, [bar], %rd3;
    @%p1 bra done;
    setp.lt.s32 %p2, %r3, 16;
    @%p2 bra again;
    mov.u64 %rd4, %globaltimer;
    setp.lt.s64 %p3, %rd4, 4000;
    @%p3 bra wait;
    nanosleep.u32 100;
    bra.uni wait;
done:
    mul.wide.u32 %rd5, %r2, 4;
    add.s64 %rd6, %rd2, %rd5;
    st.global.u32 [%rd6], %r2;
    st.global.u32 [%rd6+2], %r2;
    add.s32 %r2, %r2, 256;
    setp.lt.s32 %p4, %r2, %r1;
    @%p4 bra outer;
    ret;"
    );
    let m = module(&body, ".param .u64 p, .param .u32 n");
    let a = run(&m, &Options::default());
    assert_eq!(a.stopped, None, "{a:?}");
    assert_eq!(a.unknowns(), 0, "{a:?}");
    let stores = verdicts(&a, "st.global.u32");
    assert!(matches!(stores[0], Verdict::CannotHappen), "{stores:?}");
    assert!(matches!(stores[1], Verdict::Witness(_)), "{stores:?}");
    let f = a
        .findings
        .iter()
        .find(|f| matches!(f.verdict, Verdict::Witness(_)))
        .expect("a witness");
    let r = replay::replay(&m, "k", &Options::default(), f);
    assert!(matches!(r, Some(Replay::Confirmed)), "{r:?} {f:?}");
}

/// A loop nested in another turns up to the bound each time it is
/// entered: the access misaligned only at the inner loop's sixth turn in
/// the outer loop's third is found with the bound 8 (18 inner turns in
/// all), not with 4.
#[test]
fn a_loop_counts_its_turns_from_each_entry() {
    let body = format!(
        "{REGS}
    ld.param.u64 %rd1, [p];
    ld.param.u32 %r1, [n];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r2, 0;
outer:
    mov.u32 %r3, 0;
inner:
    setp.eq.u32 %p1, %r2, 2;
    setp.eq.u32 %p2, %r3, 5;
    and.pred %p3, %p1, %p2;
    selp.u64 %rd3, 2, 0, %p3;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.u32 %r4, [%rd4];
    add.u32 %r3, %r3, 1;
    setp.lt.u32 %p4, %r3, %r1;
    @%p4 bra inner;
    add.u32 %r2, %r2, 1;
    setp.lt.u32 %p5, %r2, 3;
    @%p5 bra outer;
    ret;"
    );
    let m = module(&body, ".param .u64 p, .param .u32 n");
    let a = run(&m, &Options::default());
    let loads = verdicts(&a, "ld.global.u32");
    assert!(matches!(loads[0], Verdict::Witness(_)), "{loads:?}");
    let f = a
        .findings
        .iter()
        .find(|f| matches!(f.verdict, Verdict::Witness(_)))
        .expect("a witness");
    assert!(matches!(
        replay::replay(&m, "k", &Options::default(), f),
        Some(Replay::Confirmed)
    ));
    let a = run(
        &m,
        &Options {
            unroll: 4,
            ..Options::default()
        },
    );
    let loads = verdicts(&a, "ld.global.u32");
    assert!(matches!(loads[0], Verdict::CannotHappen), "{loads:?}");
    assert!(a.unroll_cut > 0);
}

/// Forty branches on loaded values, one after the other, merge as they
/// meet: one path reaches the end, and the store after them is asked once.
#[test]
fn branches_merge_where_they_meet() {
    let mut body = format!(
        "{REGS}
    ld.param.u64 %rd1, [p];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r2, 0;"
    );
    for k in 0..40 {
        body.push_str(&format!(
            "
    ld.global.u32 %r3, [%rd2+{off}];
    setp.lt.u32 %p1, %r3, {k};
    @%p1 bra skip{k};
    add.u32 %r2, %r2, %r3;
skip{k}:",
            off = 4 * k
        ));
    }
    body.push_str(
        "
    st.global.u32 [%rd2], %r2;
    ret;",
    );
    let m = module(&body, ".param .u64 p");
    let a = run(&m, &Options::default());
    assert_eq!(a.paths, 1);
    assert_eq!(a.unknowns(), 0);
    assert_eq!(a.witnesses(), 0);
}

/// A search stopped at a limit reports unknown only what the open paths
/// can still reach, and says which limit and where the paths were.
#[test]
fn a_limit_leaves_unknown_only_what_open_paths_reach() {
    let body = format!(
        "{REGS}
    ld.param.u64 %rd1, [p];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r1, %tid.x;
    setp.eq.u32 %p1, %r1, 3;
    @%p1 bra odd;
    st.global.u32 [%rd2], %r1;
odd:
    st.global.u32 [%rd2+1], %r1;
    ret;"
    );
    let m = module(&body, ".param .u64 p");
    let a = run(
        &m,
        &Options {
            max_paths: 1,
            ..Options::default()
        },
    );
    assert!(a.path_limit_hit);
    assert!(
        matches!(verdicts(&a, "cvta.to.global")[0], Verdict::CannotHappen),
        "{a:?}"
    );
    for v in verdicts(&a, "st.global.u32") {
        let Verdict::Unknown { reason, open, .. } = v else {
            panic!("{v:?}");
        };
        assert!(reason.contains("its limit of 1 live paths"), "{reason}");
        assert!(!open.is_empty());
    }
    let a = run(
        &m,
        &Options {
            budget_ms: 0,
            ..Options::default()
        },
    );
    assert_eq!(a.unknowns(), a.findings.len());
    for f in &a.findings {
        let Verdict::Unknown { reason, open, .. } = &f.verdict else {
            panic!("{f:?}");
        };
        assert!(reason.contains("--budget-ms 0"), "{reason}");
        assert_eq!(open.len(), 1);
        assert_eq!(open[0].pc, 0);
    }
}

/// An address computed by an instruction the search does not interpret
/// (floating point): the witness names it, and the replay, which cannot
/// compute it either, does not confirm it; the finding becomes unknown,
/// with the reason and the candidate.
#[test]
fn a_witness_names_what_it_depends_on() {
    let body = format!(
        "{REGS}
    .reg .f32 %f<4>;
    ld.param.u64 %rd1, [p];
    cvta.to.global.u64 %rd2, %rd1;
    ld.global.f32 %f1, [%rd2];
    add.f32 %f2, %f1, %f1;
    cvt.rzi.u32.f32 %r1, %f2;
    cvt.u64.u32 %rd3, %r1;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.u32 %r2, [%rd4];
    ret;"
    );
    let m = module(&body, ".param .u64 p");
    let opts = Options::default();
    let mut a = run(&m, &opts);
    let f = a
        .findings
        .iter_mut()
        .find(|f| f.instruction.starts_with("ld.global.u32"))
        .expect("the load");
    let Verdict::Witness(w) = &f.verdict else {
        panic!("{:?}", f.verdict);
    };
    assert!(
        w.depends_on
            .iter()
            .any(|d| d.instruction.starts_with("add.f32") || d.instruction.starts_with("cvt.rzi")),
        "{:?}",
        w.depends_on
    );
    replay::settle(&m, "k", &opts, f);
    match &f.verdict {
        Verdict::Witness(_) => assert!(matches!(f.replay, Some(Replay::Confirmed))),
        Verdict::Unknown {
            reason, candidate, ..
        } => {
            assert!(reason.contains("did not confirm"), "{reason}");
            assert!(candidate.is_some());
        }
        v => panic!("{v:?}"),
    }
}

/// The verdict on a store at the offset `%r1 & 255` past a global
/// buffer, where `%r1` held 0 until `writes` (which leaves `%rd2` the
/// buffer's address and `%p1` false) wrote it.
fn store_after(writes: &str) -> Verdict {
    let body = format!(
        "{REGS}
    ld.param.u64 %rd1, [p];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r1, 0;
    setp.ne.u32 %p1, %r1, 0;
    {writes}
    and.b32 %r2, %r1, 255;
    cvt.u64.u32 %rd3, %r2;
    add.s64 %rd4, %rd2, %rd3;
    st.global.u32 [%rd4], %r1;
    ret;"
    );
    let m = module(&body, ".param .u64 p");
    let a = run(&m, &Options::default());
    verdicts(&a, "st.global.u32")[0].clone()
}

/// The old value an `atom` returns is an unknown (memory is not
/// remembered): a store at an offset it gives can be misaligned, though
/// the register held 0 before the `atom` wrote it.
#[test]
fn an_atom_result_is_an_unknown() {
    let v = store_after("atom.global.add.u32 %r1, [%rd2], 1;");
    assert!(
        matches!(v, Verdict::Witness(_) | Verdict::Unknown { .. }),
        "the atom's result was taken to be the 0 it overwrote: {v:?}"
    );
}

/// What `vote.sync.ballot` returns depends on the other lanes, which the
/// search does not follow: an unknown, not the value the register held.
#[test]
fn a_ballot_is_an_unknown() {
    let v = store_after("vote.sync.ballot.b32 %r1, %p1, 0xffffffff;");
    assert!(
        !matches!(v, Verdict::CannotHappen),
        "the ballot was taken to be the 0 it overwrote: {v:?}"
    );
}

/// The carry flag follows the path: set by `add.cc` on one side of a
/// branch and by `sub.cc` on the other, it is merged like a register, and
/// `addc` reads the right one on each side. `p + 8 * c`, with `c` the
/// carry of `0xffffffff + 1` (1) or the borrow of `1 - 0` (0), is 8-byte
/// aligned either way: the 8-byte load cannot be misaligned, while the one
/// at `p + 4 * c` can be (odd `tid`s take the `add.cc` side).
#[test]
fn the_carry_is_merged_like_a_register() {
    let body = format!(
        "{REGS}
    ld.param.u64 %rd1, [p];
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 1;
    setp.eq.u32 %p1, %r2, 0;
    @%p1 bra even;
    add.cc.u32 %r3, -1, 1;
    bra.uni join;
even:
    sub.cc.u32 %r3, 1, 0;
join:
    addc.u32 %r4, 0, 0;
    mul.wide.u32 %rd2, %r4, 8;
    add.u64 %rd3, %rd1, %rd2;
    ld.global.u64 %rd4, [%rd3];
    mul.wide.u32 %rd5, %r4, 4;
    add.u64 %rd6, %rd1, %rd5;
    ld.global.u64 %rd7, [%rd6];"
    );
    let m = module(&body, ".param .u64 p");
    let a = run(&m, &Options::default());
    let at = |text: &str| {
        a.findings
            .iter()
            .find(|f| f.instruction.starts_with(text))
            .map(|f| &f.verdict)
            .unwrap()
    };
    assert!(
        matches!(at("ld.global.u64 %rd4"), Verdict::CannotHappen),
        "{:?}",
        at("ld.global.u64 %rd4")
    );
    let Verdict::Witness(w) = at("ld.global.u64 %rd7") else {
        panic!("{:?}", at("ld.global.u64 %rd7"));
    };
    assert_eq!(w.tid[0] % 2, 1, "{w:?}");
    let f = a
        .findings
        .iter()
        .find(|f| f.instruction.starts_with("ld.global.u64 %rd7"))
        .unwrap();
    assert!(matches!(
        replay::replay(&m, "k", &Options::default(), f),
        Some(Replay::Confirmed)
    ));
}

/// A shared index computed in floating point: `cvt.rzi.s32.f32` of `x +
/// 0.5` (PTX ISA 9.7.3.3, 9.7.9.21), scaled and added to the generic
/// address of a 64-element array. Unguarded, some `x` puts the address
/// outside the executing CTA's shared window ("the resulting address is
/// undefined in cases where the generic address does not fall within the
/// address window", 9.7.9.20): a witness, which the replay confirms, and
/// which depends on no float the search left unknown (it follows the float
/// arithmetic).
/// Guarded by `0 <= x + 0.5 < 64` (`setp.lt.f32`, then `setp.ge.and.f32`;
/// a NaN fails both), the index is 0 to 63: proved.
#[test]
fn a_float_index_is_followed() {
    let kernel = |guard: &str| {
        let body = format!(
            "
    .reg .pred %p<3>;
    .reg .f32 %f<3>;
    .reg .b32 %r<2>;
    .reg .b64 %rd<5>;
    .shared .align 4 .f32 buf[64];
    ld.param.f32 %f1, [x];
    add.f32 %f2, %f1, 0f3F000000;
    {guard}
    cvt.rzi.s32.f32 %r1, %f2;
    mul.wide.s32 %rd1, %r1, 4;
    cvta.shared.u64 %rd2, buf;
    add.s64 %rd3, %rd2, %rd1;
    cvta.to.shared.u64 %rd4, %rd3;
    st.shared.f32 [%rd4], %f1;
DONE:
    ret;"
        );
        module(&body, ".param .f32 x")
    };
    let open = kernel("");
    let a = run(&open, &Options::default());
    assert_eq!(a.unknowns(), 0, "{a:?}");
    let f = a
        .findings
        .iter()
        .find(|f| f.instruction.starts_with("cvta.to.shared"))
        .expect("the conversion is asked");
    let Verdict::Witness(w) = &f.verdict else {
        panic!("{f:?}");
    };
    // (a NaN sum's open payload is in the terms, not a float the search
    // left unknown)
    assert!(
        w.depends_on
            .iter()
            .all(|d| d.why == crate::origin::meaning(crate::origin::OPEN)),
        "{w:?}"
    );
    // the witness's x, read back as the model reads it, gives an index
    // outside the array
    let x = u64::from_str_radix(w.params[0].1.trim_start_matches("0x"), 16).unwrap() as u32;
    let idx = (f32::from_bits(x) + 0.5).trunc();
    assert!(!(0.0..64.0).contains(&idx), "{x:#x} {idx}");
    let r = replay::replay(&open, "k", &Options::default(), f);
    assert!(matches!(r, Some(Replay::Confirmed)), "{r:?} {f:?}");

    let guarded = kernel(
        "setp.lt.f32 %p1, %f2, 0f42800000;
    setp.ge.and.f32 %p2, %f2, 0f00000000, %p1;
    @!%p2 bra DONE;",
    );
    // (the proof takes Z3 about 0.4 s alone; tests run side by side)
    let patient = Options {
        timeout_ms: 30_000,
        budget_ms: 60_000,
        ..Options::default()
    };
    let a = run(&guarded, &patient);
    assert_eq!(a.unknowns(), 0, "{a:?}");
    assert!(a.witnesses() == 0, "{a:?}");
    assert!(
        matches!(verdicts(&a, "cvta.to.shared")[..], [Verdict::CannotHappen]),
        "{a:?}"
    );
}
