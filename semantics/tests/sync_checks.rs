//! `conform check` on the synchronisation rows of `catalogue::arith`
//! (`sync.rs`): `mbarrier` (PTX ISA 9.7.13.15), `membar`/`fence`
//! (9.7.13.4), `bar`/`barrier` (9.7.13.1), `bar.warp.sync` (9.7.13.2) and
//! `barrier.cluster` (9.7.13.3). Small modules written for this test,
//! accepted and refused, each expectation beside the clause of PTX ISA 9.0
//! it comes from (syntax blocks, "PTX ISA Notes", "Target ISA Notes"), or
//! beside ptxas 13.0's message where the `.target`/`.version` variants of
//! cccl's `cuda::ptx` wrappers showed it (tools/realworld/variants.py).
//! The version and target cases were `tests/gates.rs`'s before these
//! instructions had rows.

mod common;

use common::cases::Case;

/// A kernel of `body` under `.version` and `.target`, with registers
/// `%r<8>` (b32), `%rd<8>` (b64), `%f<4>` (f32), `%p<4>` (pred), a
/// shared `.b64 bar` and a global `.b64 gbar`.
fn module(version: &str, target: &str, body: &str) -> String {
    format!(
        ".version {version}\n.target {target}\n.address_size 64\n\
         .global .align 8 .b64 gbar;\n\
         .entry k()\n{{\n .reg .b32 %r<8>;\n .reg .b64 %rd<8>;\n .reg .f32 %f<4>;\n\
         .reg .pred %p<4>;\n .shared .align 8 .b64 bar;\n {body}\n ret;\n}}\n"
    )
}

/// The cases of this file, each in [`module`].
fn run(cases: &[Case]) {
    common::cases::run(cases, module);
}

/// Forms of the syntax blocks, written as the manual's examples and as
/// nvcc 13.0 and cccl write them (corpus/realworld), all accepted.
#[test]
fn mbarrier_forms_accepted() {
    run(&[
        // 9.7.13.15.9: "mbarrier.init{.shared{::cta}}.b64 [addr], count;"
        (
            "8.0",
            "sm_90",
            "mbarrier.init.shared::cta.b64 [bar], 12;",
            None,
        ),
        ("8.0", "sm_90", "mbarrier.init.b64 [%rd1], %r1;", None),
        // 9.7.13.15.10: "mbarrier.inval{.shared{::cta}}.b64 [addr];"
        ("8.0", "sm_90", "mbarrier.inval.shared.b64 [bar];", None),
        // 9.7.13.15.11/.12: "{.sem}{.scope}{.space}.b64 [addr], txCount"
        (
            "8.0",
            "sm_90",
            "mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [%r1], %r2;",
            None,
        ),
        (
            "8.0",
            "sm_90",
            "mbarrier.expect_tx.shared::cta.b64 [bar], 16;",
            None,
        ),
        (
            "8.0",
            "sm_90",
            "mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [bar], %r1;",
            None,
        ),
        // 9.7.13.15.13: "mbarrier.arrive{.sem}{.scope}{.state}.b64 state, [addr]{, count};"
        (
            "8.0",
            "sm_90",
            "mbarrier.arrive.shared::cta.b64 %rd1, [bar];",
            None,
        ),
        (
            "8.6",
            "sm_90",
            "mbarrier.arrive.relaxed.cluster.shared::cta.b64 %rd1, [bar], %r1;",
            None,
        ),
        // the sink `_` as the destination
        (
            "8.0",
            "sm_90",
            "mbarrier.arrive.shared::cta.b64 _, [bar];",
            None,
        ),
        // "mbarrier.arrive{.sem}{.scope}{.shared::cluster}.b64 _, [addr] {,count};"
        (
            "8.0",
            "sm_90",
            "mbarrier.arrive.shared::cluster.b64 _, [%r1];",
            None,
        ),
        (
            "8.0",
            "sm_90",
            "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r1], %r2;",
            None,
        ),
        // "mbarrier.arrive.expect_tx{.sem}{.scope}{.state}.b64 state, [addr], txCount;"
        (
            "8.0",
            "sm_90",
            "mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %rd1, [bar], %r1;",
            None,
        ),
        (
            "8.0",
            "sm_90",
            "mbarrier.arrive.expect_tx.shared::cluster.b64 _, [%r1], %r2;",
            None,
        ),
        // "mbarrier.arrive.noComplete{.release}{.cta}{.state}.b64 state, [addr], count;"
        (
            "7.0",
            "sm_80",
            "mbarrier.arrive.noComplete.shared.b64 %rd1, [bar], %r1;",
            None,
        ),
        // 9.7.13.15.14: arrive_drop, and its `.expect_tx` form with the
        // state space first ("mbarrier.arrive_drop.expect_tx{.state}{.sem}{.scope}.b64").
        (
            "7.0",
            "sm_80",
            "mbarrier.arrive_drop.shared.b64 %rd1, [bar];",
            None,
        ),
        (
            "8.0",
            "sm_90",
            "mbarrier.arrive_drop.expect_tx.shared::cta.release.cta.b64 %rd1, [bar], 16;",
            None,
        ),
        // 9.7.13.15.16: test_wait, try_wait, with `.parity` and the hint.
        (
            "7.0",
            "sm_80",
            "mbarrier.test_wait.shared.b64 %p1, [bar], %rd1;",
            None,
        ),
        (
            "8.0",
            "sm_90",
            "mbarrier.try_wait.parity.shared::cta.b64 %p1, [bar], %r1, %r2;",
            None,
        ),
        (
            "8.0",
            "sm_90",
            "mbarrier.try_wait.acquire.cluster.shared::cta.b64 %p1, [bar], %rd1, 1000;",
            None,
        ),
        // 9.7.13.15.17: "mbarrier.pending_count.b64 count, state;"
        (
            "7.0",
            "sm_80",
            "mbarrier.pending_count.b64 %r1, %rd1;",
            None,
        ),
    ]);
}

#[test]
fn mbarrier_forms_refused() {
    run(&[
        // Qualifiers outside every syntax block.
        (
            "8.0",
            "sm_90",
            "mbarrier.arrive.foo.b64 %rd1, [bar];",
            Some("qualifier `.foo` is not allowed"),
        ),
        // Every form is `.b64` ("mbarrier.init{.shared{::cta}}.b64").
        (
            "8.0",
            "sm_90",
            "mbarrier.init.shared.b32 [bar], %r1;",
            Some("qualifier `.b32` is not allowed"),
        ),
        (
            "8.0",
            "sm_90",
            "mbarrier.init.shared [bar], %r1;",
            Some("missing `.b64`"),
        ),
        // test_wait takes ".sem = { .acquire, .relaxed }", not `.release`.
        (
            "8.0",
            "sm_90",
            "mbarrier.test_wait.release.cta.shared.b64 %p1, [bar], %rd1;",
            Some("is not allowed here"),
        ),
        // `.parity` takes its phaseParity operand: "waitComplete, [addr], phaseParity".
        (
            "8.0",
            "sm_90",
            "mbarrier.test_wait.parity.shared.b64 %p1, [bar];",
            Some("takes 3 operands, found 2"),
        ),
        // waitComplete is a predicate.
        (
            "8.0",
            "sm_90",
            "mbarrier.test_wait.shared.b64 %r1, [bar], %rd1;",
            Some("register `%r1` is not allowed here"),
        ),
        // the state is the 64-bit opaque value.
        (
            "8.0",
            "sm_90",
            "mbarrier.arrive.shared.b64 %r1, [bar];",
            Some("does not fit type `.b64`"),
        ),
        // "mbarrier.arrive{.sem}{.scope}{.shared::cluster}.b64 _, [addr]": the sink only.
        (
            "8.0",
            "sm_90",
            "mbarrier.arrive.release.cluster.shared::cluster.b64 %rd1, [bar];",
            Some("takes the sink `_` as its destination"),
        ),
        // the sink stands for the state destination only.
        (
            "8.0",
            "sm_90",
            "mbarrier.test_wait.shared.b64 _, [bar], %rd1;",
            Some("the sink `_` cannot stand for a whole operand"),
        ),
        // `.noComplete` needs its count: "... state, [addr], count".
        (
            "8.0",
            "sm_90",
            "mbarrier.arrive.noComplete.shared.b64 %rd1, [bar];",
            Some("takes 3 operands, found 2"),
        ),
        // expect_tx has no destination.
        (
            "8.0",
            "sm_90",
            "mbarrier.expect_tx.shared::cta.b64 %rd1, [bar], 16;",
            Some("takes 2 operands, found 3"),
        ),
    ]);
}

/// The "PTX ISA Notes" and "Target ISA Notes" of 9.7.13.15, at the
/// boundary and just below it.
#[test]
fn mbarrier_versions_and_targets() {
    run(&[
        // "Requires sm_80 or higher."
        ("7.0", "sm_80", "mbarrier.init.shared.b64 [bar], %r1;", None),
        (
            "7.0",
            "sm_75",
            "mbarrier.init.shared.b64 [bar], %r1;",
            Some("this instruction needs target sm_80"),
        ),
        // "mbarrier.test_wait.parity introduced in PTX ISA version 7.1."
        (
            "7.1",
            "sm_80",
            "mbarrier.test_wait.parity.shared.b64 %p1, [bar], %r1;",
            None,
        ),
        (
            "7.0",
            "sm_80",
            "mbarrier.test_wait.parity.shared.b64 %p1, [bar], %r1;",
            Some("this instruction needs PTX ISA 7.1"),
        ),
        // "mbarrier.try_wait introduced in PTX ISA version 7.8";
        // "mbarrier.try_wait requires sm_90 or higher."
        (
            "7.8",
            "sm_90",
            "mbarrier.try_wait.shared::cta.b64 %p1, [bar], %rd1;",
            None,
        ),
        (
            "7.8",
            "sm_89",
            "mbarrier.try_wait.shared::cta.b64 %p1, [bar], %rd1;",
            Some("this instruction needs target sm_90"),
        ),
        // "Support for sub-qualifier ::cta on .shared introduced in PTX ISA
        // version 7.8."
        (
            "7.8",
            "sm_80",
            "mbarrier.init.shared::cta.b64 [bar], %r1;",
            None,
        ),
        (
            "7.7",
            "sm_80",
            "mbarrier.init.shared::cta.b64 [bar], %r1;",
            Some("`.shared::cta` needs PTX ISA 7.8"),
        ),
        // "Support for .scope and .sem qualifiers introduced in PTX ISA
        // version 8.0"; ".cluster scope requires sm_90 or higher".
        (
            "8.0",
            "sm_90",
            "mbarrier.arrive.release.cluster.shared::cta.b64 %rd1, [bar];",
            None,
        ),
        // ptxas 13.0 takes `.release.cta` on sm_80 (cccl variants).
        (
            "8.0",
            "sm_80",
            "mbarrier.arrive.release.cta.shared::cta.b64 %rd1, [bar];",
            None,
        ),
        (
            "7.8",
            "sm_90",
            "mbarrier.arrive.release.cta.shared::cta.b64 %rd1, [bar];",
            Some("`.release` needs PTX ISA 8.0"),
        ),
        (
            "7.8",
            "sm_90",
            "mbarrier.test_wait.acquire.cta.shared::cta.b64 %p1, [bar], %rd1;",
            Some("`.acquire` needs PTX ISA 8.0"),
        ),
        (
            "8.0",
            "sm_89",
            "mbarrier.arrive.release.cluster.shared::cta.b64 %rd1, [bar];",
            Some("`.cluster` needs target sm_90"),
        ),
        // "Support for .relaxed qualifier introduced in PTX ISA version
        // 8.6"; "requires sm_90 or higher".
        (
            "8.6",
            "sm_90",
            "mbarrier.arrive.relaxed.cta.shared::cta.b64 %rd1, [bar];",
            None,
        ),
        (
            "8.5",
            "sm_90",
            "mbarrier.arrive.relaxed.cta.shared::cta.b64 %rd1, [bar];",
            Some("`.relaxed` needs PTX ISA 8.6"),
        ),
        (
            "8.6",
            "sm_89",
            "mbarrier.try_wait.parity.relaxed.cta.shared::cta.b64 %p1, [bar], %r1;",
            Some("`.relaxed` needs target sm_90"),
        ),
        // "mbarrier.expect_tx introduced in PTX ISA version 8.0"; "Requires
        // sm_90"; `.relaxed` from its introduction on.
        (
            "8.0",
            "sm_90",
            "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], 16;",
            None,
        ),
        (
            "8.0",
            "sm_89",
            "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], 16;",
            Some("this instruction needs target sm_90"),
        ),
        // "Support for qualifier .expect_tx is introduced in PTX ISA version 8.0."
        (
            "7.8",
            "sm_90",
            "mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [bar], 16;",
            Some("this instruction needs PTX ISA 8.0"),
        ),
        // "Support for sub-qualifier ::cluster introduced in PTX ISA version
        // 8.0"; "Sub-qualifier ::cluster requires sm_90 or higher."
        (
            "8.0",
            "sm_90",
            "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [bar];",
            None,
        ),
        (
            "8.0",
            "sm_89",
            "mbarrier.arrive.relaxed.cta.shared::cluster.b64 _, [bar];",
            Some("`.shared::cluster` needs target sm_90"),
        ),
        // "Support for count argument without the modifier .noComplete
        // introduced in PTX ISA version 7.8"; "... requires sm_90 or higher."
        (
            "7.8",
            "sm_90",
            "mbarrier.arrive.shared.b64 %rd1, [bar], %r1;",
            None,
        ),
        (
            "7.8",
            "sm_89",
            "mbarrier.arrive.shared.b64 %rd1, [bar], %r1;",
            Some("a count operand without `.noComplete`"),
        ),
        (
            "7.7",
            "sm_80",
            "mbarrier.arrive.shared.b64 %rd1, [bar], %r1;",
            Some("a count operand without `.noComplete`"),
        ),
        (
            "7.0",
            "sm_80",
            "mbarrier.arrive.noComplete.shared.b64 %rd1, [bar], %r1;",
            None,
        ),
        // "Support for sink symbol '_' as the destination operand is
        // introduced in PTX ISA version 7.1."
        ("7.1", "sm_80", "mbarrier.arrive.shared.b64 _, [bar];", None),
        (
            "7.0",
            "sm_80",
            "mbarrier.arrive.shared.b64 _, [bar];",
            Some("the sink `_` destination"),
        ),
    ]);
}

#[test]
fn fence_and_membar() {
    run(&[
        // "membar.level; .level = { .cta, .gl, .sys }"
        ("7.0", "sm_80", "membar.gl;", None),
        ("7.0", "sm_80", "membar.cta;", None),
        (
            "7.0",
            "sm_80",
            "membar.gpu;",
            Some("qualifier `.gpu` is not allowed"),
        ),
        ("7.0", "sm_80", "membar;", Some("missing `.level`")),
        // "fence{.sem}.scope": the scope is required.
        ("7.0", "sm_80", "fence.sc;", Some("missing `.scope`")),
        (
            "7.0",
            "sm_80",
            "fence.gl;",
            Some("qualifier `.gl` is not allowed"),
        ),
        ("7.0", "sm_80", "fence.acq_rel.gpu;", None),
        // ptxas 13.0 takes `.acquire`/`.release` thread fences under PTX
        // ISA 7.0 (cccl variants).
        ("7.0", "sm_80", "fence.acquire.cta;", None),
        // "fence.{sc, acq_rel} introduced in PTX ISA version 6.0"; "require
        // sm_70 or higher."
        ("6.0", "sm_70", "fence.sc.gpu;", None),
        (
            "6.0",
            "sm_62",
            "fence.sc.gpu;",
            Some("this instruction needs target sm_70"),
        ),
        // "Support for .cluster scope introduced in PTX ISA version 7.8";
        // "requires sm_90 or higher".
        ("7.8", "sm_90", "fence.acq_rel.cluster;", None),
        (
            "7.8",
            "sm_89",
            "fence.acq_rel.cluster;",
            Some("`.cluster` needs target sm_90"),
        ),
        // "fence.proxy.alias introduced in PTX ISA version 7.5."
        ("7.5", "sm_70", "fence.proxy.alias;", None),
        (
            "7.4",
            "sm_70",
            "fence.proxy.alias;",
            Some("this instruction needs PTX ISA 7.5"),
        ),
        // ".proxykind = { .alias, .async, .async.global, .async.shared::{cta, cluster} }"
        ("8.0", "sm_90", "fence.proxy.async.shared::cta;", None),
        ("8.0", "sm_90", "fence.proxy.async.global;", None),
        (
            "8.0",
            "sm_90",
            "fence.proxy.async.local;",
            Some("qualifier `.local` is not allowed"),
        ),
        ("8.0", "sm_90", "fence.proxy;", Some("missing")),
        // "fence.proxy.async introduced in PTX ISA version 8.0"; "requires sm_90".
        (
            "7.8",
            "sm_90",
            "fence.proxy.async.shared::cta;",
            Some("this instruction needs PTX ISA 8.0"),
        ),
        (
            "8.0",
            "sm_89",
            "fence.proxy.async;",
            Some("this instruction needs target sm_90"),
        ),
        // "fence.proxy.to_proxykind::from_proxykind.release.scope;
        // ... .acquire.scope [addr], size"; "introduced in PTX ISA 8.3".
        (
            "8.3",
            "sm_90",
            "fence.proxy.tensormap::generic.release.gpu;",
            None,
        ),
        (
            "8.3",
            "sm_90",
            "fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;",
            None,
        ),
        (
            "8.2",
            "sm_90",
            "fence.proxy.tensormap::generic.release.gpu;",
            Some("this instruction needs PTX ISA 8.3"),
        ),
        // The acquire form names its range: "[addr], size".
        (
            "8.3",
            "sm_90",
            "fence.proxy.tensormap::generic.acquire.gpu [%rd1];",
            Some("takes 2 operands, found 1"),
        ),
        // "The only supported value for the size operand is 128, which must
        // be a constant integer literal."
        (
            "8.3",
            "sm_90",
            "fence.proxy.tensormap::generic.acquire.gpu [%rd1], 64;",
            Some("the only supported value for the size operand is 128"),
        ),
        (
            "8.3",
            "sm_90",
            "fence.proxy.tensormap::generic.acquire.gpu [%rd1], %r1;",
            Some("register `%r1` is not allowed here"),
        ),
        // the release form has no operands.
        (
            "8.3",
            "sm_90",
            "fence.proxy.tensormap::generic.release.gpu [%rd1], 128;",
            Some("takes 0 operands, found 2"),
        ),
        // "fence.op_restrict.release.cluster"; "fence.mbarrier_init
        // introduced in PTX ISA version 8.0".
        ("8.0", "sm_90", "fence.mbarrier_init.release.cluster;", None),
        (
            "7.8",
            "sm_90",
            "fence.mbarrier_init.release.cluster;",
            Some("this instruction needs PTX ISA 8.0"),
        ),
        (
            "8.0",
            "sm_90",
            "fence.mbarrier_init.acquire.cluster;",
            Some("is not allowed here"),
        ),
        // ".sync_restrict::shared::cta ... .sem must be .release"; "the
        // .scope must be specified as .cluster"; PTX ISA 8.6, sm_90.
        (
            "8.6",
            "sm_90",
            "fence.acquire.sync_restrict::shared::cluster.cluster;",
            None,
        ),
        (
            "8.6",
            "sm_90",
            "fence.acquire.sync_restrict::shared::cta.cluster;",
            Some("fence.acquire.sync_restrict::shared::cta.cluster"),
        ),
        (
            "8.6",
            "sm_90",
            "fence.release.sync_restrict::shared::cta.gpu;",
            Some("fence.release.sync_restrict::shared::cta.gpu"),
        ),
        (
            "8.5",
            "sm_90",
            "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;",
            Some("this instruction needs PTX ISA 8.6"),
        ),
        (
            "8.6",
            "sm_90",
            "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;",
            None,
        ),
    ]);
}

#[test]
fn bar_and_barrier() {
    run(&[
        // "bar{.cta}.sync a{, b}"
        ("6.0", "sm_70", "bar.sync 0;", None),
        ("6.0", "sm_70", "bar.sync %r1, %r2;", None),
        ("6.0", "sm_70", "bar.sync 1, 64;", None),
        (
            "6.0",
            "sm_70",
            "bar.sync;",
            Some("takes 1 to 2 operands, found 0"),
        ),
        // "bar{.cta}.arrive a, b": "a non-zero thread count is required".
        ("6.0", "sm_70", "bar.arrive 0, 64;", None),
        (
            "6.0",
            "sm_70",
            "bar.arrive 0;",
            Some("takes 2 operands, found 1"),
        ),
        // "bar{.cta}.red.popc.u32 d, a{, b}, {!}c; bar{.cta}.red.op.pred p, a{, b}, {!}c"
        ("6.0", "sm_70", "bar.red.popc.u32 %r1, 0, %p1;", None),
        ("6.0", "sm_70", "bar.red.popc.u32 %r1, 0, 64, !%p1;", None),
        ("6.0", "sm_70", "bar.red.or.pred %p2, 0, %p1;", None),
        ("6.0", "sm_70", "bar.red.and.pred %p2, 1, 64, !%p1;", None),
        // `.red` needs its operator: ".op = { .and, .or }" or `.popc`.
        ("6.0", "sm_70", "bar.red.pred %p2, 0, %p1;", Some("missing")),
        (
            "6.0",
            "sm_70",
            "bar.red.u32 %r1, 0, %p1;",
            Some("missing `.popc`"),
        ),
        // `.popc` is `.u32`, `.and`/`.or` are `.pred`.
        (
            "6.0",
            "sm_70",
            "bar.red.popc.pred %p2, 0, %p1;",
            Some("`.pred` is not allowed"),
        ),
        (
            "6.0",
            "sm_70",
            "bar.red.xor.pred %p2, 0, %p1;",
            Some("qualifier `.xor` is not allowed"),
        ),
        // "operands p and c are predicates"
        (
            "6.0",
            "sm_70",
            "bar.red.or.pred %p2, 0, %r1;",
            Some("register `%r1` is not allowed here"),
        ),
        // "Operands a, b, and d have type .u32"
        (
            "6.0",
            "sm_70",
            "bar.sync %f1;",
            Some("does not fit type `.u32`"),
        ),
        // `bar` takes no `.aligned` (it is `barrier.sync.aligned` already).
        (
            "6.0",
            "sm_70",
            "bar.sync.aligned 0;",
            Some("qualifier `.aligned` is not allowed"),
        ),
        (
            "7.0",
            "sm_70",
            "bar.foo 0;",
            Some("qualifier `.foo` is not allowed"),
        ),
        // "barrier{.cta}.sync{.aligned} a{, b}"
        ("6.0", "sm_70", "barrier.sync 0;", None),
        ("6.0", "sm_70", "barrier.sync.aligned 0, 64;", None),
        (
            "6.0",
            "sm_70",
            "barrier.red.popc.aligned.u32 %r1, 0, %p1;",
            None,
        ),
        // "barrier.{sync,arrive,red} introduced in PTX ISA version 6.0";
        // "require sm_70 or higher."
        (
            "6.0",
            "sm_62",
            "barrier.sync.aligned 0;",
            Some("this instruction needs target sm_70"),
        ),
        // "bar.{arrive,red} require sm_20 or higher" (introduced in 2.0;
        // `.address_size` from PTX ISA 2.3).
        ("2.3", "sm_20", "bar.arrive 0, 64;", None),
        // "Support for .cta qualifier introduced in PTX ISA version 7.8."
        ("7.8", "sm_70", "bar.cta.sync 0;", None),
        (
            "7.7",
            "sm_70",
            "bar.cta.sync 0;",
            Some("`.cta` needs PTX ISA 7.8"),
        ),
        // 9.7.13.2: "bar.warp.sync membermask;" PTX ISA 6.0, sm_30.
        ("6.0", "sm_70", "bar.warp.sync %r1;", None),
        ("6.0", "sm_70", "bar.warp.sync -1;", None),
        (
            "5.0",
            "sm_62",
            "bar.warp.sync %r1;",
            Some("this instruction needs PTX ISA 6.0"),
        ),
        (
            "6.0",
            "sm_70",
            "bar.warp.sync;",
            Some("takes 1 operands, found 0"),
        ),
        // 9.7.13.3: "barrier.cluster.arrive{.sem}{.aligned};
        // barrier.cluster.wait{.acquire}{.aligned}; .sem = {.release, .relaxed}"
        ("7.8", "sm_90", "barrier.cluster.arrive;", None),
        (
            "8.0",
            "sm_90",
            "barrier.cluster.arrive.relaxed.aligned;",
            None,
        ),
        (
            "8.0",
            "sm_90",
            "barrier.cluster.wait.acquire.aligned;",
            None,
        ),
        (
            "8.0",
            "sm_90",
            "barrier.cluster.wait.release;",
            Some("is not allowed here"),
        ),
        (
            "8.0",
            "sm_90",
            "barrier.cluster.arrive.acquire;",
            Some("qualifier `.acquire` is not allowed"),
        ),
        (
            "8.0",
            "sm_90",
            "barrier.cluster.arrive 0;",
            Some("takes 0 operands, found 1"),
        ),
        // "barrier.cluster introduced in PTX ISA version 7.8"; "Requires
        // sm_90"; "Support for .acquire, .relaxed, .release qualifiers
        // introduced in PTX ISA version 8.0."
        (
            "7.8",
            "sm_89",
            "barrier.cluster.arrive;",
            Some("this instruction needs target sm_90"),
        ),
        ("8.0", "sm_90", "barrier.cluster.arrive.release;", None),
        (
            "7.8",
            "sm_90",
            "barrier.cluster.wait.acquire;",
            Some("`.acquire` needs PTX ISA 8.0"),
        ),
        (
            "7.8",
            "sm_90",
            "barrier.cluster.arrive.relaxed;",
            Some("`.relaxed` needs PTX ISA 8.0"),
        ),
    ]);
}

/// What ptxas 13.0 showed on the arithmetic-axis corpus
/// (corpus/legality/arith, `mbarrier`/`fence`/`bar` rows): the operation
/// words of an mbarrier first, `.sem` and `.scope` together, barrier
/// numbers 0..15 and thread counts in multiples of 32 (non-zero for
/// `arrive`), a phase parity of 0 or 1, a non-zero arrive count, an
/// mbarrier in shared memory; and the orders it takes.
#[test]
fn what_ptxas_showed() {
    run(&[
        // "Unknown modifier '.init'" / "'.arrive'" / "'.parity'".
        (
            "8.6",
            "sm_90",
            "mbarrier.b64.init.shared [bar], 1;",
            Some("comes first"),
        ),
        (
            "8.6",
            "sm_90",
            "mbarrier.expect_tx.arrive.shared::cta.b64 %rd1, [bar], 16;",
            Some("one operation"),
        ),
        (
            "8.6",
            "sm_90",
            "mbarrier.try_wait.shared::cta.parity.b64 %p1, [bar], %r1;",
            Some("right after the operation"),
        ),
        (
            "8.6",
            "sm_90",
            "mbarrier.init.b64.shared::cta [bar], 1;",
            None,
        ),
        (
            "8.6",
            "sm_90",
            "mbarrier.arrive.cta.release.shared::cta.b64 %rd1, [bar];",
            None,
        ),
        // "Modifier '.cta' requires order", "'.release' requires scope".
        (
            "8.6",
            "sm_90",
            "mbarrier.arrive.cta.shared::cta.b64 %rd1, [bar];",
            Some("come together"),
        ),
        (
            "8.6",
            "sm_90",
            "mbarrier.arrive.noComplete.release.shared.b64 %rd1, [bar], 1;",
            Some("come together"),
        ),
        // "Barrier number ... out of range", "multiple of warp size",
        // "requires a non-zero thread count argument".
        ("8.6", "sm_90", "bar.sync 16;", Some("0..15")),
        (
            "8.6",
            "sm_90",
            "bar.sync 1, 33;",
            Some("multiple of the warp size"),
        ),
        ("8.6", "sm_90", "bar.sync 1, 0;", None),
        (
            "8.6",
            "sm_90",
            "barrier.arrive 1, 0;",
            Some("non-zero thread count"),
        ),
        ("8.6", "sm_90", "barrier.aligned.sync 0;", None),
        (
            "8.6",
            "sm_90",
            "barrier.cluster.arrive.aligned.release;",
            None,
        ),
        ("8.6", "sm_90", "fence.gpu.sc;", None),
        // "expected to be 0 or 1", "expected to be a non-zero positive".
        (
            "8.6",
            "sm_90",
            "mbarrier.test_wait.parity.shared.b64 %p1, [bar], 2;",
            Some("0 or 1"),
        ),
        (
            "8.6",
            "sm_90",
            "mbarrier.arrive.shared::cta.b64 %rd1, [bar], 0;",
            Some("non-zero positive"),
        ),
        // A wrong qualifier names the closest form of the operation
        // written, not another operation's.
        (
            "8.6",
            "sm_90",
            "mbarrier.test_wait.release.cta.shared::cta.b64 %p1, [bar], %rd1;",
            Some("closest form: `mbarrier.test_wait"),
        ),
        (
            "8.6",
            "sm_90",
            "barrier.cluster.wait.release;",
            Some("closest form: `barrier.cluster.wait"),
        ),
        // "Illegal state space for address operand": a `.global` object.
        (
            "8.6",
            "sm_90",
            "mbarrier.init.b64 [gbar], 1;",
            Some("an mbarrier object is in shared memory"),
        ),
    ]);
}
