//! Synchronisation instructions, numbered as in PTX ISA 9.0: `bar` and
//! `barrier` (9.7.13.1), `bar.warp.sync` (9.7.13.2), `barrier.cluster`
//! (9.7.13.3), `membar` and `fence` (9.7.13.4) and the `mbarrier` family
//! (9.7.13.15.9-.17). `cp.async.mbarrier.arrive` (9.7.13.15.15) shares its
//! first word with the 9.7.9 `cp` instructions and is not here.
//!
//! One row per line of each syntax block. Requirements are the "PTX ISA
//! Notes" and "Target ISA Notes" of each section; where ptxas 13.0 reads
//! them otherwise (the `.target`/`.version` variants of cccl's `cuda::ptx`
//! wrappers, tools/realworld/variants.py) the rows follow ptxas: it takes
//! `fence.acquire.cta` and `fence.release.gpu` under PTX ISA 7.0, so the
//! `.acquire`/`.release` thread fences need nothing beyond `fence`'s own
//! PTX ISA 6.0 and sm_70.
//!
//! The `mbarrier` qualifiers come in any order: the manual itself writes
//! `mbarrier.arrive.expect_tx{.sem}{.scope}{.state}` and
//! `mbarrier.arrive_drop.expect_tx{.state}{.sem}{.scope}`. The fences and
//! barriers keep the syntax line's order, whose words spell the kind of
//! fence (`fence.proxy.tensormap::generic.acquire.gpu`).

use crate::catalogue::{Binding, Order, Row, Rule};

// ---- mbarrier (9.7.13.15) ----

/// ".state = { .shared, .shared::cta }".
const STATE: &str = ".state = { .shared{::cta} }";
/// `mbarrier.expect_tx`, `mbarrier.complete_tx`: ".space = { .shared{::cta,
/// ::cluster} }".
const SPACE: &str = ".space = { .shared{::cta, ::cluster} }";
/// ".scope = { .cta, .cluster }".
const SCOPE: &str = ".scope = { .cta, .cluster }";
/// arrive, arrive_drop: ".sem = { .release, .relaxed }".
const SEM_ARRIVE: &str = ".sem = { .release, .relaxed }";
/// test_wait, try_wait: ".sem = { .acquire, .relaxed }".
const SEM_WAIT: &str = ".sem = { .acquire, .relaxed }";
/// expect_tx, complete_tx: ".sem = { .relaxed }".
const SEM_TX: &str = ".sem = { .relaxed }";

/// 9.7.13.15.9-.17: "mbarrier.{init, inval, arrive, arrive_drop,
/// test_wait, pending_count} introduced in PTX ISA version 7.0"; "Requires
/// sm_80 or higher."
const MBARRIER: &str = "7.0 sm_80";
/// 9.7.13.15.11/.12: "mbarrier.expect_tx / mbarrier.complete_tx introduced
/// in PTX ISA version 8.0"; "Requires sm_90 or higher"; 9.7.13.15.13/.14:
/// "Support for qualifier .expect_tx is introduced in PTX ISA version
/// 8.0"; "Qualifier .expect_tx requires sm_90 or higher."
const TX: &str = "8.0 sm_90";
/// "Support for sub-qualifier ::cta on .shared introduced in PTX ISA
/// version 7.8."
const SHARED_CTA: (&str, &str) = (".shared::cta", "7.8");
/// 9.7.13.15.13/.14: "Support for sub-qualifier ::cluster introduced in
/// PTX ISA version 8.0"; "Sub-qualifier ::cluster requires sm_90 or
/// higher."
const SHARED_CLUSTER: (&str, &str) = (".shared::cluster", "8.0 sm_90");
/// "Support for .scope and .sem qualifiers introduced in PTX ISA version
/// 8.0" (ptxas 13.0: "Feature 'scopes on mbarrier operations' requires
/// PTX ISA .version 8.0", "Modifier '.release' on 'mbarrier.arrive'
/// requires PTX ISA .version 8.0").
const SCOPE_CTA: (&str, &str) = ("scope=.cta", "8.0");
const RELEASE: (&str, &str) = ("sem=.release", "8.0");
const ACQUIRE: (&str, &str) = ("sem=.acquire", "8.0");
/// "Support for .cluster scope requires sm_90 or higher."
const SCOPE_CLUSTER: (&str, &str) = ("scope=.cluster", "8.0 sm_90");
/// "Support for .relaxed qualifier introduced in PTX ISA version 8.6";
/// "Support for .relaxed qualifier requires sm_90 or higher" (ptxas 13.0:
/// "Modifier '.relaxed' on 'mbarrier.arrive' requires PTX ISA .version
/// 8.6", "... requires .target sm_90").
const RELAXED: (&str, &str) = ("sem=.relaxed", "8.6 sm_90");

/// The sink `_` as the state destination (the checker records it under
/// the name `_`).
fn sink(b: &Binding) -> bool {
    b.imm("_").is_some()
}

/// 9.7.13.15.13/.14: "Support for count argument without the modifier
/// .noComplete introduced in PTX ISA version 7.8"; "Support for count
/// argument without the modifier .noComplete requires sm_90 or higher"
/// (ptxas 13.0: "Feature 'mbarrier.arrive with count argument and without
/// '.noComplete' modifier' requires .target sm_90 or higher").
const COUNT: Rule = Rule::needs(
    "a count operand without `.noComplete` (support for count argument without the modifier .noComplete introduced in PTX ISA version 7.8, requires sm_90 or higher)",
    "7.8 sm_90",
    |b| b.operand_count == 3,
);
/// 9.7.13.15.13: "Support for sink symbol '_' as the destination operand is
/// introduced in PTX ISA version 7.1" (ptxas 13.0 under PTX ISA 7.0:
/// "Result discard mode is not allowed for instruction 'mbarrier.arrive'").
const SINK: Rule = Rule::needs(
    "the sink `_` destination (support for sink symbol '_' as the destination operand is introduced in PTX ISA version 7.1)",
    "7.1",
    sink,
);
/// "mbarrier.arrive{.sem}{.scope}{.shared::cluster}.b64 _, [addr]
/// {,count}": an arrive on an mbarrier of the cluster returns no state.
const CLUSTER_SINK: Rule = Rule::illegal(
    "an arrive on a .shared::cluster mbarrier takes the sink `_` as its destination (mbarrier.arrive{.sem}{.scope}{.shared::cluster}.b64 _, [addr] {,count})",
    |b| b.operand_count > 0 && !sink(b),
);

/// ptxas 13.0 takes `.sem` and `.scope` on an mbarrier only together:
/// "Modifier '.cta' requires order", "Modifier '.release' requires scope"
/// (corpus/legality/arith).
const SEM_SCOPE_PAIR: Rule = Rule::illegal(
    "`.sem` and `.scope` come together (ptxas 13.0: a scope requires an order, an order requires a scope)",
    |b| b.get("sem").is_some() != b.get("scope").is_some(),
);
/// The same pair on `.noComplete`'s literal `{.release}{.cta}`.
const RELEASE_CTA_PAIR: Rule = Rule::illegal(
    "`.release` and `.cta` come together (ptxas 13.0: a scope requires an order, an order requires a scope)",
    |b| b.has(".release") != b.has(".cta"),
);
/// "count ... in the range 1 to 2^20 - 1" (9.7.13.15.13/.14; ptxas 13.0:
/// "value ... expected to be a non-zero positive" for an immediate 0).
const COUNT_POSITIVE: Rule = Rule::illegal("the count is a non-zero positive value", |b| {
    b.imm("count").is_some_and(|v| v <= 0)
});
/// "phaseParity ... the parity, 0 or 1" (9.7.13.15.16; ptxas 13.0:
/// "unexpected value ..., expected to be 0 or 1").
const PARITY_BIT: Rule = Rule::illegal("the phase parity is 0 or 1", |b| {
    b.imm("phaseParity").is_some_and(|v| !(0..=1).contains(&v))
});

const ARRIVE_OPS: &str = "state: reg .b64, [addr]: addr, count?: reg|imm .u32";
const ARRIVE_TX_OPS: &str = "state: reg .b64, [addr]: addr, txCount: reg|imm .u32";
const NO_COMPLETE_OPS: &str = "state: reg .b64, [addr]: addr, count: reg|imm .u32";

/// The arrive forms of 9.7.13.15.13 (`arrive`) or .14 (`arrive_drop`):
/// "mbarrier.arrive{.sem}{.scope}{.state}.b64 state, [addr]{, count};
/// mbarrier.arrive{.sem}{.scope}{.shared::cluster}.b64 _, [addr] {,count};
/// mbarrier.arrive.expect_tx{.sem}{.scope}{.state}.b64 state, [addr], txCount;
/// mbarrier.arrive.expect_tx{.sem}{.scope}{.shared::cluster}.b64 _, [addr], txCount;
/// mbarrier.arrive.noComplete{.release}{.cta}{.state}.b64 state, [addr], count;"
macro_rules! arrive_rows {
    ($instr:literal, $section:literal, $op:literal) => {
        &[
            Row {
                instr: $instr,
                id: concat!("mbarrier.", $op),
                section: $section,
                syntax: concat!("mbarrier.", $op, "{.sem}{.scope}{.state}.b64"),
                operands: ARRIVE_OPS,
                sets: &[SEM_ARRIVE, SCOPE, STATE],
                since: MBARRIER,
                needs: &[SHARED_CTA, SCOPE_CTA, SCOPE_CLUSTER, RELEASE, RELAXED],
                rules: &[COUNT, SINK, SEM_SCOPE_PAIR, COUNT_POSITIVE],
                ..Row::BASE
            },
            Row {
                instr: $instr,
                id: concat!("mbarrier.", $op, ".cluster"),
                section: $section,
                syntax: concat!("mbarrier.", $op, "{.sem}{.scope}.shared::cluster.b64"),
                operands: ARRIVE_OPS,
                sets: &[SEM_ARRIVE, SCOPE],
                since: MBARRIER,
                needs: &[SHARED_CLUSTER, SCOPE_CTA, SCOPE_CLUSTER, RELEASE, RELAXED],
                rules: &[CLUSTER_SINK, COUNT, SINK, SEM_SCOPE_PAIR, COUNT_POSITIVE],
                ..Row::BASE
            },
            Row {
                instr: $instr,
                id: concat!("mbarrier.", $op, ".expect_tx"),
                section: $section,
                syntax: concat!("mbarrier.", $op, ".expect_tx{.sem}{.scope}{.state}.b64"),
                operands: ARRIVE_TX_OPS,
                sets: &[SEM_ARRIVE, SCOPE, STATE],
                since: TX,
                needs: &[SHARED_CTA, SCOPE_CTA, SCOPE_CLUSTER, RELEASE, RELAXED],
                rules: &[SINK, SEM_SCOPE_PAIR],
                ..Row::BASE
            },
            Row {
                instr: $instr,
                id: concat!("mbarrier.", $op, ".expect_tx.cluster"),
                section: $section,
                syntax: concat!(
                    "mbarrier.",
                    $op,
                    ".expect_tx{.sem}{.scope}.shared::cluster.b64"
                ),
                operands: ARRIVE_TX_OPS,
                sets: &[SEM_ARRIVE, SCOPE],
                since: TX,
                needs: &[SHARED_CLUSTER, SCOPE_CTA, SCOPE_CLUSTER, RELEASE, RELAXED],
                rules: &[CLUSTER_SINK, SINK, SEM_SCOPE_PAIR],
                ..Row::BASE
            },
            Row {
                instr: $instr,
                id: concat!("mbarrier.", $op, ".noComplete"),
                section: $section,
                syntax: concat!("mbarrier.", $op, ".noComplete{.release}{.cta}{.state}.b64"),
                operands: NO_COMPLETE_OPS,
                sets: &[STATE],
                since: MBARRIER,
                needs: &[SHARED_CTA, (".release", "8.0"), (".cta", "8.0")],
                rules: &[SINK, COUNT_POSITIVE, RELEASE_CTA_PAIR],
                ..Row::BASE
            },
        ]
    };
}

/// `mbarrier.arrive` (9.7.13.15.13).
pub static ARRIVE: &[Row] = arrive_rows!("mbarrier.arrive", "9.7.13.15.13", "arrive");
/// `mbarrier.arrive_drop` (9.7.13.15.14).
pub static ARRIVE_DROP: &[Row] =
    arrive_rows!("mbarrier.arrive_drop", "9.7.13.15.14", "arrive_drop");

const WAIT_NEEDS: &[(&str, &str)] = &[SHARED_CTA, SCOPE_CTA, SCOPE_CLUSTER, ACQUIRE, RELAXED];

/// The rest of 9.7.13.15.
pub static MBARRIER_ROWS: &[Row] = &[
    // 9.7.13.15.9: "mbarrier.init{.shared{::cta}}.b64 [addr], count;"
    // "operand count ... unsigned 32-bit integer".
    Row {
        instr: "mbarrier.init",
        id: "mbarrier.init",
        section: "9.7.13.15.9",
        syntax: "mbarrier.init{.state}.b64",
        operands: "[addr]: addr, count: reg|imm .u32",
        sets: &[STATE],
        since: MBARRIER,
        needs: &[SHARED_CTA],
        ..Row::BASE
    },
    // 9.7.13.15.10: "mbarrier.inval{.shared{::cta}}.b64 [addr];"
    Row {
        instr: "mbarrier.inval",
        id: "mbarrier.inval",
        section: "9.7.13.15.10",
        syntax: "mbarrier.inval{.state}.b64",
        operands: "[addr]: addr",
        sets: &[STATE],
        since: MBARRIER,
        needs: &[SHARED_CTA],
        ..Row::BASE
    },
    // 9.7.13.15.11: "mbarrier.expect_tx{.sem}{.scope}{.space}.b64 [addr],
    // txCount; .sem = { .relaxed }"; `.relaxed` from the introduction.
    Row {
        instr: "mbarrier.expect_tx",
        id: "mbarrier.expect_tx",
        section: "9.7.13.15.11",
        syntax: "mbarrier.expect_tx{.sem}{.scope}{.space}.b64",
        operands: "[addr]: addr, txCount: reg|imm .u32",
        sets: &[SEM_TX, SCOPE, SPACE],
        since: TX,
        needs: &[SCOPE_CLUSTER],
        rules: &[SEM_SCOPE_PAIR],
        ..Row::BASE
    },
    // 9.7.13.15.12: "mbarrier.complete_tx{.sem}{.scope}{.space}.b64
    // [addr], txCount;"
    Row {
        instr: "mbarrier.complete_tx",
        id: "mbarrier.complete_tx",
        section: "9.7.13.15.12",
        syntax: "mbarrier.complete_tx{.sem}{.scope}{.space}.b64",
        operands: "[addr]: addr, txCount: reg|imm .u32",
        sets: &[SEM_TX, SCOPE, SPACE],
        since: TX,
        needs: &[SCOPE_CLUSTER],
        rules: &[SEM_SCOPE_PAIR],
        ..Row::BASE
    },
    // 9.7.13.15.16: "mbarrier.test_wait{.sem}{.scope}{.state}.b64
    // waitComplete, [addr], state;"
    Row {
        instr: "mbarrier.test_wait",
        id: "mbarrier.test_wait",
        section: "9.7.13.15.16",
        syntax: "mbarrier.test_wait{.sem}{.scope}{.state}.b64",
        operands: "waitComplete: pred, [addr]: addr, state: reg .b64",
        sets: &[SEM_WAIT, SCOPE, STATE],
        since: MBARRIER,
        needs: WAIT_NEEDS,
        rules: &[SEM_SCOPE_PAIR, PARITY_BIT],
        ..Row::BASE
    },
    // "mbarrier.test_wait.parity{.sem}{.scope}{.state}.b64 waitComplete,
    // [addr], phaseParity;" "mbarrier.test_wait.parity introduced in PTX
    // ISA version 7.1."
    Row {
        instr: "mbarrier.test_wait",
        id: "mbarrier.test_wait.parity",
        section: "9.7.13.15.16",
        syntax: "mbarrier.test_wait.parity{.sem}{.scope}{.state}.b64",
        operands: "waitComplete: pred, [addr]: addr, phaseParity: reg|imm .u32",
        sets: &[SEM_WAIT, SCOPE, STATE],
        since: "7.1 sm_80",
        needs: WAIT_NEEDS,
        rules: &[SEM_SCOPE_PAIR, PARITY_BIT],
        ..Row::BASE
    },
    // "mbarrier.try_wait{.sem}{.scope}{.state}.b64 waitComplete, [addr],
    // state {, suspendTimeHint};" "mbarrier.try_wait introduced in PTX ISA
    // version 7.8"; "mbarrier.try_wait requires sm_90 or higher."
    Row {
        instr: "mbarrier.try_wait",
        id: "mbarrier.try_wait",
        section: "9.7.13.15.16",
        syntax: "mbarrier.try_wait{.sem}{.scope}{.state}.b64",
        operands: "waitComplete: pred, [addr]: addr, state: reg .b64, suspendTimeHint?: reg|imm .u32",
        sets: &[SEM_WAIT, SCOPE, STATE],
        since: "7.8 sm_90",
        needs: WAIT_NEEDS,
        rules: &[SEM_SCOPE_PAIR, PARITY_BIT],
        ..Row::BASE
    },
    // "mbarrier.try_wait.parity{.sem}{.scope}{.state}.b64 waitComplete,
    // [addr], phaseParity {, suspendTimeHint};"
    Row {
        instr: "mbarrier.try_wait",
        id: "mbarrier.try_wait.parity",
        section: "9.7.13.15.16",
        syntax: "mbarrier.try_wait.parity{.sem}{.scope}{.state}.b64",
        operands: "waitComplete: pred, [addr]: addr, phaseParity: reg|imm .u32, suspendTimeHint?: reg|imm .u32",
        sets: &[SEM_WAIT, SCOPE, STATE],
        since: "7.8 sm_90",
        needs: WAIT_NEEDS,
        rules: &[SEM_SCOPE_PAIR, PARITY_BIT],
        ..Row::BASE
    },
    // 9.7.13.15.17: "mbarrier.pending_count.b64 count, state;" "count
    // ... 32-bit unsigned integer"; "state ... opaque 64-bit".
    Row {
        instr: "mbarrier.pending_count",
        id: "mbarrier.pending_count",
        section: "9.7.13.15.17",
        syntax: "mbarrier.pending_count.b64",
        // ptxas 13.0 takes an immediate state (corpus/legality/arith)
        operands: "count: reg .u32, state: reg|num .b64",
        since: MBARRIER,
        ..Row::BASE
    },
];

// ---- membar / fence (9.7.13.4) ----

/// "Support for .cluster scope introduced in PTX ISA version 7.8";
/// "Support for .cluster scope requires sm_90 or higher."
const FENCE_CLUSTER: (&str, &str) = ("scope=.cluster", "7.8 sm_90");
const FENCE_SCOPE: &str = ".scope = { .cta, .cluster, .gpu, .sys }";

/// The size of `fence.proxy.tensormap::generic.acquire`: "The only
/// supported value for the size operand is 128, which must be a constant
/// integer literal."
const SIZE_128: Rule = Rule::illegal(
    "the only supported value for the size operand is 128, which must be a constant integer literal",
    |b| b.imm("size").is_some_and(|v| v != 128),
);

/// "membar.level; fence{.sem}.scope; fence.acquire.sync_restrict::shared::cluster.cluster;
/// fence.release.sync_restrict::shared::cta.cluster; fence.op_restrict.release.cluster;
/// fence.proxy.proxykind; fence.proxy.to_proxykind::from_proxykind.release.scope;
/// fence.proxy.to_proxykind::from_proxykind.acquire.scope [addr], size;
/// fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;
/// fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
/// membar.proxy.proxykind;"
pub static FENCE: &[Row] = &[
    // ".level = { .cta, .gl, .sys }"; "membar.{cta,gl} introduced in PTX
    // ISA version 1.4"; "membar.sys introduced in PTX ISA version 2.0";
    // "membar.sys requires sm_20 or higher."
    Row {
        instr: "membar",
        id: "membar",
        section: "9.7.13.4",
        syntax: "membar.level",
        sets: &[".level = { .cta, .gl, .sys }"],
        since: "1.4",
        needs: &[("level=.sys", "2.0 sm_20")],
        order: Order::Strict,
        ..Row::BASE
    },
    // "membar.proxy.proxykind"; "On sm_70 and higher, membar.proxy is a
    // synonym for fence.proxy": the requirements of fence.proxy.alias
    // ("introduced in PTX ISA version 7.5", "requires sm_70 or higher").
    // ptxas 13.0 refuses `membar.proxy.async` ("Illegal modifier '.async'
    // for instruction 'membar.proxy'", corpus/legality/arith): `.alias`
    // only.
    Row {
        instr: "membar",
        id: "membar.proxy.alias",
        section: "9.7.13.4",
        syntax: "membar.proxy.alias",
        since: "7.5 sm_70",
        order: Order::Strict,
        ..Row::BASE
    },
    // "fence{.sem}.scope; .sem = { .sc, .acq_rel, .acquire, .release }";
    // "fence.{sc, acq_rel} introduced in PTX ISA version 6.0"; "require
    // sm_70 or higher"; ptxas 13.0 takes `.acquire` and `.release` under
    // PTX ISA 7.0 as well (module doc).
    Row {
        instr: "fence",
        id: "fence",
        section: "9.7.13.4",
        syntax: "fence{.sem}.scope",
        sets: &[".sem = { .sc, .acq_rel, .acquire, .release }", FENCE_SCOPE],
        since: "6.0 sm_70",
        needs: &[FENCE_CLUSTER],
        // ptxas 13.0 takes `fence.gpu.sc` (corpus/legality/arith)
        order: Order::Free,
        ..Row::BASE
    },
    // "fence.acquire.sync_restrict::shared::cluster.cluster;
    // fence.release.sync_restrict::shared::cta.cluster;" "when
    // .sync_restrict is .sync_restrict::shared::cta, .sem must be .release
    // ...; .sync_restrict::shared::cluster, .sem must be .acquire ...; the
    // .scope must be specified as .cluster"; "Support for .sync_restrict
    // ... introduced in PTX ISA version 8.6"; "requires sm_90 or higher."
    Row {
        instr: "fence",
        id: "fence.acquire.sync_restrict",
        section: "9.7.13.4",
        syntax: "fence.acquire.sync_restrict::shared::cluster.cluster",
        since: "8.6 sm_90",
        order: Order::Strict,
        ..Row::BASE
    },
    Row {
        instr: "fence",
        id: "fence.release.sync_restrict",
        section: "9.7.13.4",
        syntax: "fence.release.sync_restrict::shared::cta.cluster",
        since: "8.6 sm_90",
        order: Order::Strict,
        ..Row::BASE
    },
    // "fence.op_restrict.release.cluster; .op_restrict = { .mbarrier_init }";
    // "fence.mbarrier_init introduced in PTX ISA version 8.0"; "requires
    // sm_90 or higher."
    Row {
        instr: "fence",
        id: "fence.op_restrict",
        section: "9.7.13.4",
        syntax: "fence.op_restrict.release.cluster",
        sets: &[".op_restrict = { .mbarrier_init }"],
        since: "8.0 sm_90",
        order: Order::Strict,
        ..Row::BASE
    },
    // "fence.proxy.proxykind; .proxykind = { .alias, .async, .async.global,
    // .async.shared::{cta, cluster} }"; "fence.proxy.alias introduced in
    // PTX ISA version 7.5"; "requires sm_70 or higher."
    Row {
        instr: "fence",
        id: "fence.proxy.alias",
        section: "9.7.13.4",
        syntax: "fence.proxy.alias",
        since: "7.5 sm_70",
        order: Order::Strict,
        ..Row::BASE
    },
    // "fence.proxy.async introduced in PTX ISA version 8.0"; "requires
    // sm_90 or higher."
    Row {
        instr: "fence",
        id: "fence.proxy.async",
        section: "9.7.13.4",
        syntax: "fence.proxy.async{.space}",
        sets: &[".space = { .global, .shared::cta, .shared::cluster }"],
        since: "8.0 sm_90",
        order: Order::Strict,
        ..Row::BASE
    },
    // "fence.proxy.to_proxykind::from_proxykind.release.scope;
    // .to_proxykind::from_proxykind = { .tensormap::generic }";
    // "fence.proxy.tensormap::generic introduced in PTX ISA version 8.3";
    // "requires sm_90 or higher" (ptxas 13.0: "Instruction 'fence.proxy
    // with unidirection proxy fence' not supported on .target 'sm_80'").
    Row {
        instr: "fence",
        id: "fence.proxy.tensormap.release",
        section: "9.7.13.4",
        syntax: "fence.proxy.tensormap::generic.release.scope",
        sets: &[FENCE_SCOPE],
        since: "8.3 sm_90",
        order: Order::Strict,
        ..Row::BASE
    },
    // "fence.proxy.to_proxykind::from_proxykind.acquire.scope [addr],
    // size;" "Generic Addressing is used unconditionally".
    Row {
        instr: "fence",
        id: "fence.proxy.tensormap.acquire",
        section: "9.7.13.4",
        syntax: "fence.proxy.tensormap::generic.acquire.scope",
        operands: "[addr]: addr, size: num .u32",
        sets: &[FENCE_SCOPE],
        since: "8.3 sm_90",
        rules: &[SIZE_128],
        order: Order::Strict,
        ..Row::BASE
    },
    // "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;
    // fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;"
    // "Support for .sync_restrict and fence.proxy.async::generic introduced
    // in PTX ISA version 8.6"; "requires sm_90 or higher."
    Row {
        instr: "fence",
        id: "fence.proxy.async_generic.acquire",
        section: "9.7.13.4",
        syntax: "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster",
        since: "8.6 sm_90",
        order: Order::Strict,
        ..Row::BASE
    },
    Row {
        instr: "fence",
        id: "fence.proxy.async_generic.release",
        section: "9.7.13.4",
        syntax: "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster",
        since: "8.6 sm_90",
        order: Order::Strict,
        ..Row::BASE
    },
];

// ---- bar / barrier (9.7.13.1-3) ----

/// 9.7.13.1: "Support for .cta qualifier introduced in PTX ISA version
/// 7.8."
const CTA: (&str, &str) = (".cta", "7.8");
/// "Operands a, b, and d have type .u32; operands p and c are
/// predicates"; "Source operand a specifies a logical barrier resource as
/// an immediate constant or register"; "{!}c".
const SYNC_OPS: &str = "a: reg|imm .u32, b?: reg|imm .u32";
const ARRIVE_BAR_OPS: &str = "a: reg|imm .u32, b: reg|imm .u32";
const POPC_OPS: &str = "d: reg .u32, a: reg|imm .u32, b?: reg|imm .u32, c: pred|num";
const PRED_OPS: &str = "p: pred, a: reg|imm .u32, b?: reg|imm .u32, c: pred|num";
const RED_OP: &str = ".op = { .and, .or }";
/// "barrier.{sync,arrive,red} introduced in PTX ISA version 6.0";
/// "barrier.{sync,arrive,red} instructions require sm_70 or higher."
const BARRIER: &str = "6.0 sm_70";
/// "Register operands, thread count, and bar.{arrive,red} introduced in
/// PTX ISA version 2.0"; "bar.{arrive,red} require sm_20 or higher."
const BAR_ARRIVE_RED: &str = "2.0 sm_20";

/// "Operand a ... the barrier number, 0..15"; ptxas 13.0: "Barrier number
/// ... out of range, expected to be in range [0..15]".
const BAR_NUMBER: Rule = Rule::illegal("the barrier number is in 0..15", |b| {
    b.imm("a").is_some_and(|v| !(0..=15).contains(&v))
});
/// "Operand b specifies the number of threads participating in the
/// barrier ... must be a multiple of the warp size"; ptxas 13.0: "Number
/// of threads participating in barrier must be in multiple of warp size",
/// "requires a non-zero thread count argument".
const BAR_COUNT: Rule = Rule::illegal(
    "the thread count is a multiple of the warp size (32)",
    |b| b.imm("b").is_some_and(|v| v < 0 || v % 32 != 0),
);
/// "Note that a non-zero thread count is required for barrier{.cta}.arrive"
/// (ptxas 13.0 takes a count of 0 for `sync` and `red`).
const BAR_ARRIVE_COUNT: Rule = Rule::illegal("barrier.arrive needs a non-zero thread count", |b| {
    b.imm("b") == Some(0)
});
const BAR_RULES: &[Rule] = &[BAR_NUMBER, BAR_COUNT];
const BAR_ARRIVE_RULES: &[Rule] = &[BAR_NUMBER, BAR_COUNT, BAR_ARRIVE_COUNT];

/// "barrier{.cta}.sync{.aligned} a{, b}; barrier{.cta}.arrive{.aligned} a, b;
/// barrier{.cta}.red.popc{.aligned}.u32 d, a{, b}, {!}c;
/// barrier{.cta}.red.op{.aligned}.pred p, a{, b}, {!}c; bar{.cta}.sync a{, b};
/// bar{.cta}.arrive a, b; bar{.cta}.red.popc.u32 d, a{, b}, {!}c;
/// bar{.cta}.red.op.pred p, a{, b}, {!}c; .op = { .and, .or }",
/// `bar.warp.sync` (9.7.13.2) and `barrier.cluster` (9.7.13.3).
pub static BAR: &[Row] = &[
    Row {
        instr: "barrier",
        id: "barrier.sync",
        section: "9.7.13.1",
        syntax: "barrier{.cta}.sync{.aligned}",
        operands: SYNC_OPS,
        since: BARRIER,
        needs: &[CTA],
        rules: BAR_RULES,
        order: Order::Free,
        ..Row::BASE
    },
    // "Note that a non-zero thread count is required for
    // barrier{.cta}.arrive."
    Row {
        instr: "barrier",
        id: "barrier.arrive",
        section: "9.7.13.1",
        syntax: "barrier{.cta}.arrive{.aligned}",
        operands: ARRIVE_BAR_OPS,
        since: BARRIER,
        needs: &[CTA],
        rules: BAR_ARRIVE_RULES,
        order: Order::Free,
        ..Row::BASE
    },
    Row {
        instr: "barrier",
        id: "barrier.red.popc",
        section: "9.7.13.1",
        syntax: "barrier{.cta}.red.popc{.aligned}.u32",
        operands: POPC_OPS,
        since: BARRIER,
        needs: &[CTA],
        rules: BAR_RULES,
        order: Order::Free,
        ..Row::BASE
    },
    Row {
        instr: "barrier",
        id: "barrier.red.pred",
        section: "9.7.13.1",
        syntax: "barrier{.cta}.red.op{.aligned}.pred",
        operands: PRED_OPS,
        sets: &[RED_OP],
        since: BARRIER,
        needs: &[CTA],
        rules: BAR_RULES,
        order: Order::Free,
        ..Row::BASE
    },
    // `bar.sync` is the barrier of PTX ISA 1.0 (`bar.sync a` on every
    // target; register operands and the thread count from PTX ISA 2.0).
    Row {
        instr: "bar",
        id: "bar.sync",
        section: "9.7.13.1",
        syntax: "bar{.cta}.sync",
        operands: SYNC_OPS,
        needs: &[CTA],
        rules: BAR_RULES,
        order: Order::Strict,
        ..Row::BASE
    },
    Row {
        instr: "bar",
        id: "bar.arrive",
        section: "9.7.13.1",
        syntax: "bar{.cta}.arrive",
        operands: ARRIVE_BAR_OPS,
        since: BAR_ARRIVE_RED,
        needs: &[CTA],
        rules: BAR_ARRIVE_RULES,
        order: Order::Strict,
        ..Row::BASE
    },
    Row {
        instr: "bar",
        id: "bar.red.popc",
        section: "9.7.13.1",
        syntax: "bar{.cta}.red.popc.u32",
        operands: POPC_OPS,
        since: BAR_ARRIVE_RED,
        needs: &[CTA],
        rules: BAR_RULES,
        order: Order::Strict,
        ..Row::BASE
    },
    Row {
        instr: "bar",
        id: "bar.red.pred",
        section: "9.7.13.1",
        syntax: "bar{.cta}.red.op.pred",
        operands: PRED_OPS,
        sets: &[RED_OP],
        since: BAR_ARRIVE_RED,
        needs: &[CTA],
        rules: BAR_RULES,
        order: Order::Strict,
        ..Row::BASE
    },
    // 9.7.13.2: "bar.warp.sync membermask;" "membermask ... a 32-bit
    // integer"; "bar.warp.sync introduced in PTX ISA version 6.0";
    // "Requires sm_30 or higher."
    Row {
        instr: "bar.warp.sync",
        id: "bar.warp.sync",
        section: "9.7.13.2",
        syntax: "bar.warp.sync",
        operands: "membermask: reg|imm .u32",
        since: "6.0 sm_30",
        order: Order::Strict,
        ..Row::BASE
    },
    // 9.7.13.3: "barrier.cluster.arrive{.sem}{.aligned};
    // barrier.cluster.wait{.acquire}{.aligned}; .sem = {.release,
    // .relaxed}"; "barrier.cluster introduced in PTX ISA version 7.8";
    // "Requires sm_90 or higher"; "Support for .acquire, .relaxed, .release
    // qualifiers introduced in PTX ISA version 8.0."
    Row {
        instr: "barrier.cluster",
        id: "barrier.cluster.arrive",
        section: "9.7.13.3",
        syntax: "barrier.cluster.arrive{.sem}{.aligned}",
        sets: &[".sem = { .release, .relaxed }"],
        since: "7.8 sm_90",
        needs: &[("sem=.release", "8.0"), ("sem=.relaxed", "8.0")],
        order: Order::Free,
        ..Row::BASE
    },
    Row {
        instr: "barrier.cluster",
        id: "barrier.cluster.wait",
        section: "9.7.13.3",
        syntax: "barrier.cluster.wait{.acquire}{.aligned}",
        since: "7.8 sm_90",
        needs: &[(".acquire", "8.0")],
        order: Order::Free,
        ..Row::BASE
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `mbarrier` form but `pending_count` addresses the object with
    /// `[addr]`, and every form ends in `.b64` ("mbarrier object is an
    /// opaque object ... of .b64 type").
    #[test]
    fn mbarrier_rows_address_a_b64_object() {
        for row in ARRIVE.iter().chain(ARRIVE_DROP).chain(MBARRIER_ROWS) {
            assert!(row.syntax.ends_with(".b64"), "{}", row.id);
            assert_eq!(
                row.operands.contains("[addr]: addr"),
                row.id != "mbarrier.pending_count",
                "{}",
                row.id
            );
        }
    }

    /// The `.shared::cluster` arrive rows, and only they, insist on the
    /// sink destination.
    #[test]
    fn only_cluster_arrives_insist_on_the_sink() {
        for row in ARRIVE.iter().chain(ARRIVE_DROP) {
            let insists = row
                .rules
                .iter()
                .any(|r| r.says.starts_with("an arrive on a .shared::cluster"));
            assert_eq!(
                insists,
                row.syntax.contains(".shared::cluster"),
                "{}",
                row.id
            );
        }
    }
}
