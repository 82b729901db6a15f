//! The asynchronous copy family (PTX ISA 9.7.9.25): `cp.async`,
//! `cp.async.commit_group`, `cp.async.wait_group`, `cp.async.wait_all`,
//! `cp.async.bulk`, `cp.reduce.async.bulk`, `cp.async.bulk.prefetch`,
//! `cp.async.bulk.tensor`, `cp.reduce.async.bulk.tensor`,
//! `cp.async.bulk.prefetch.tensor`, `cp.async.bulk.commit_group`,
//! `cp.async.bulk.wait_group`.
//!
//! Tensor copies are split by load mode, because the `im2colInfo` operand and
//! its length depend on it (one row per im2col dimension); a mandatory load
//! mode is a required slot of its row. Qualifiers may come in any order
//! (`Order::Free`, as ptxas takes them and as the spec's own examples write
//! `.load_mode`), except that the first state space written is the
//! destination: see `G2CTA` below.

use crate::catalogue::{Binding, Row, Rule};

const LCH: &str = ".level::cache_hint = { .L2::cache_hint }";
const MBAR: &str = ".completion_mechanism = { .mbarrier::complete_tx::bytes }";
const BULK: &str = ".completion_mechanism = { .bulk_group }";
const DIM: &str = ".dim = { .1d, .2d, .3d, .4d, .5d }";
const CTA_GROUP: &str = ".cta_group = { .cta_group::1, .cta_group::2 }";
const MULTICAST: &str = ".multicast = { .multicast::cluster }";

/// "Qualifier `.cta_group` is supported on ... sm_100a, sm_101a, ... sm_100f,
/// sm_101f ... sm_110f" (PTX ISA 8.6); `.tile::scatter4`, `.im2col::w::128`
/// and, for prefetch, `.tile::gather4` and `.im2col::w` list the same targets.
const SM100_FAMILY: &str = "8.6 sm_100a|sm_101a|sm_110a|sm_100f|sm_101f|sm_110f";
/// `.tile::gather4` and `.im2col::w` with a `.shared::cluster` destination:
/// "sm_100a ... and is supported on sm_100f from PTX ISA version 8.8".
const SM100A_OR_F: &str = "8.6 sm_100a|sm_100f";

const CTA_GROUP_NEEDS: &[(&str, &str)] = &[
    (".cta_group::1", SM100_FAMILY),
    (".cta_group::2", SM100_FAMILY),
];

// ptxas reads the first state space written as the destination and the
// second as the source, whatever else moves around: both slots take one list,
// so the written order decides which is which, and a rule names the
// direction of each row.
const G2CTA: &str = ".dst = .src = { .shared::cta, .global }";
const G2CLUSTER: &str = ".dst = .src = { .shared::cluster, .global }";
const CTA2CLUSTER: &str = ".dst = .src = { .shared::cluster, .shared::cta }";
const CTA2G: &str = ".dst = .src = { .global, .shared::cta }";

fn direction(b: &Binding, dst: &str, src: &str) -> bool {
    b.is("dst", dst) && b.is("src", src)
}

const DIR_G2CTA: Rule = Rule::illegal("`.dst = { .shared::cta }`, `.src = { .global }`", |b| {
    !direction(b, ".shared::cta", ".global")
});
const DIR_G2CLUSTER: Rule =
    Rule::illegal("`.dst = { .shared::cluster }`, `.src = { .global }`", |b| {
        !direction(b, ".shared::cluster", ".global")
    });
const DIR_CTA2CLUSTER: Rule = Rule::illegal(
    "`.dst = { .shared::cluster }`, `.src = { .shared::cta }`",
    |b| !direction(b, ".shared::cluster", ".shared::cta"),
);
const DIR_CTA2G: Rule = Rule::illegal("`.dst = { .global }`, `.src = { .shared::cta }`", |b| {
    !direction(b, ".global", ".shared::cta")
});

fn below_3d(b: &Binding) -> bool {
    b.is("dim", ".1d") || b.is("dim", ".2d")
}

const IM2COL_3D: Rule = Rule::illegal(
    "In `.im2col` and `.im2col::*` modes, the tensor has to be at least 3-dimensional.",
    below_3d,
);
const DIR_CP_ASYNC: Rule = Rule::illegal(
    "cp.async.ca.shared{::cta}.global: `dst` is in the shared state space and `src` in the global state space",
    |b| !(matches!(b.get("dst"), Some(".shared" | ".shared::cta")) && b.is("src", ".global")),
);
/// ptxas 13.0: "unexpected value ..., expected to be multiple of 16"; the
/// spec: "size ... must be a multiple of 16".
const SIZE_16: Rule = Rule::illegal("`size` must be a multiple of 16", |b| {
    b.imm("size").is_some_and(|v| v % 16 != 0)
});

/// "src-size ... must be less than or equal to cp-size".
const SRC_SIZE: Rule = Rule::illegal(
    "`src-size` must not exceed `cp-size`",
    |b| matches!((b.imm("src-size"), b.imm("cp-size")), (Some(s), Some(c)) if s > c || s < 0),
);

const CP_SIZE: Rule = Rule::illegal("`cp-size` can only be 4, 8 and 16.", |b| {
    b.imm("cp-size").is_some_and(|v| !matches!(v, 4 | 8 | 16))
});
const CP_SIZE_16: Rule = Rule::illegal("cp.async.cg ... [dst], [src], 16", |b| {
    b.imm("cp-size").is_some_and(|v| v != 16)
});

/// The `.redOp`/`.type` table of `cp.reduce.async.bulk`, `.dst = .shared::cluster` rows.
fn reduce_cluster_ok(b: &Binding) -> bool {
    let ty = b.get("type").unwrap_or("");
    match b.get("redOp").unwrap_or("") {
        ".add" => matches!(ty, ".u32" | ".s32" | ".u64"),
        ".min" | ".max" => matches!(ty, ".u32" | ".s32"),
        ".inc" | ".dec" => ty == ".u32",
        ".and" | ".or" | ".xor" => ty == ".b32",
        _ => false,
    }
}

/// The `.redOp`/`.type` table of `cp.reduce.async.bulk`, `.dst = .global` rows
/// (`.add` of `.f16`/`.bf16` only with `.noftz`, which is its own row).
fn reduce_global_ok(b: &Binding) -> bool {
    let ty = b.get("type").unwrap_or("");
    match b.get("redOp").unwrap_or("") {
        ".add" => matches!(ty, ".u32" | ".s32" | ".u64" | ".f32" | ".f64"),
        ".min" | ".max" => matches!(ty, ".u32" | ".s32" | ".u64" | ".s64" | ".f16" | ".bf16"),
        ".inc" | ".dec" => ty == ".u32",
        ".and" | ".or" | ".xor" => matches!(ty, ".b32" | ".b64"),
        _ => false,
    }
}

const REDOP: &str = ".redOp = { .and, .or, .xor, .add, .inc, .dec, .min, .max }";

const CP_ASYNC_SETS: &[&str] = &[
    ".dst = .src = { .shared{::cta}, .global }",
    LCH,
    ".level::prefetch_size = { .L2::64B, .L2::128B, .L2::256B }",
];
const CP_ASYNC_NEEDS: &[(&str, &str)] = &[
    (".shared::cta", "7.8"),
    (".L2::cache_hint", "7.4"),
    (".L2::64B", "7.4"),
    (".L2::128B", "7.4"),
    (".L2::256B", "7.4"),
];

// The syntax lines of `cp.async.bulk.tensor` (global -> shared::cta,
// global -> shared::cluster, shared::cta -> global).
const G2S_CTA: &str = "cp.async.bulk.tensor.dim.dst.src{.load_mode}.completion_mechanism{.cta_group}{.level::cache_hint}";
const G2S_CLUSTER: &str = "cp.async.bulk.tensor.dim.dst.src{.load_mode}.completion_mechanism{.multicast}{.cta_group}{.level::cache_hint}";
const S2G: &str =
    "cp.async.bulk.tensor.dim.dst.src{.load_mode}.completion_mechanism{.level::cache_hint}";

const T_CTA_OPS: &str = "[dstMem]: addr, tensorMap: taddr .s32, [mbar]: addr, cache-policy: reg|num .b64 if .L2::cache_hint";
const T_CLUSTER_OPS: &str = "[dstMem]: addr, tensorMap: taddr .s32, [mbar]: addr, ctaMask: reg|num .b16 if .multicast::cluster, cache-policy: reg|num .b64 if .L2::cache_hint";
const S2G_OPS: &str =
    "tensorMap: taddr .s32, [srcMem]: addr, cache-policy: reg|num .b64 if .L2::cache_hint";

pub static ROWS: &[Row] = &[
    // ---- 9.7.9.25.3.1 cp.async ----
    Row {
        instr: "cp.async",
        id: "cp.async.ca",
        section: "9.7.9.25.3.1",
        syntax: "cp.async.ca.dst.src{.level::cache_hint}{.level::prefetch_size}",
        operands: "[dst]: addr, [src]: addr, cp-size: imm, src-size?: reg|imm .u32, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: CP_ASYNC_SETS,
        since: "7.0 sm_80",
        needs: CP_ASYNC_NEEDS,
        rules: &[SRC_SIZE, DIR_CP_ASYNC, CP_SIZE],
        ..Row::BASE
    },
    Row {
        instr: "cp.async",
        id: "cp.async.cg",
        section: "9.7.9.25.3.1",
        syntax: "cp.async.cg.dst.src{.level::cache_hint}{.level::prefetch_size}",
        operands: "[dst]: addr, [src]: addr, cp-size: imm, src-size?: reg|imm .u32, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: CP_ASYNC_SETS,
        since: "7.0 sm_80",
        needs: CP_ASYNC_NEEDS,
        rules: &[SRC_SIZE, DIR_CP_ASYNC, CP_SIZE_16],
        ..Row::BASE
    },
    // "Support for `ignore-src` operand introduced in PTX ISA version 7.5."
    // Without `ignore-src` the line is the `src-size` form above.
    Row {
        instr: "cp.async",
        id: "cp.async.ca.ignore-src",
        section: "9.7.9.25.3.1",
        syntax: "cp.async.ca.dst.src{.level::cache_hint}{.level::prefetch_size}",
        operands: "[dst]: addr, [src]: addr, cp-size: imm, ignore-src: pred, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: CP_ASYNC_SETS,
        since: "7.5 sm_80",
        needs: CP_ASYNC_NEEDS,
        rules: &[DIR_CP_ASYNC, CP_SIZE],
        ..Row::BASE
    },
    Row {
        instr: "cp.async",
        id: "cp.async.cg.ignore-src",
        section: "9.7.9.25.3.1",
        syntax: "cp.async.cg.dst.src{.level::cache_hint}{.level::prefetch_size}",
        operands: "[dst]: addr, [src]: addr, cp-size: imm, ignore-src: pred, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: CP_ASYNC_SETS,
        since: "7.5 sm_80",
        needs: CP_ASYNC_NEEDS,
        rules: &[DIR_CP_ASYNC, CP_SIZE_16],
        ..Row::BASE
    },
    // ---- 9.7.9.25.3.2 / 9.7.9.25.3.3 ----
    Row {
        instr: "cp.async.commit_group",
        id: "cp.async.commit_group",
        section: "9.7.9.25.3.2",
        syntax: "cp.async.commit_group",
        since: "7.0 sm_80",
        ..Row::BASE
    },
    Row {
        instr: "cp.async.wait_group",
        id: "cp.async.wait_group",
        section: "9.7.9.25.3.3",
        syntax: "cp.async.wait_group",
        operands: "N: imm",
        since: "7.0 sm_80",
        ..Row::BASE
    },
    Row {
        instr: "cp.async.wait_all",
        id: "cp.async.wait_all",
        section: "9.7.9.25.3.3",
        syntax: "cp.async.wait_all",
        since: "7.0 sm_80",
        ..Row::BASE
    },
    // ---- 9.7.9.25.4.1 cp.async.bulk ----
    // "Support for `.shared::cta` as destination state space is introduced
    // in PTX ISA version 8.6."
    Row {
        instr: "cp.async.bulk",
        id: "cp.async.bulk.shared::cta.global",
        section: "9.7.9.25.4.1",
        syntax: "cp.async.bulk.dst.src.completion_mechanism{.level::cache_hint}",
        operands: "[dstMem]: addr, [srcMem]: addr, size: reg|imm .u32, [mbar]: addr, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[G2CTA, MBAR, LCH],
        since: "8.6 sm_90",
        rules: &[SIZE_16, DIR_G2CTA],
        ..Row::BASE
    },
    Row {
        instr: "cp.async.bulk",
        id: "cp.async.bulk.shared::cluster.global",
        section: "9.7.9.25.4.1",
        syntax: "cp.async.bulk.dst.src.completion_mechanism{.multicast}{.level::cache_hint}",
        operands: "[dstMem]: addr, [srcMem]: addr, size: reg|imm .u32, [mbar]: addr, ctaMask: reg|num .b16 if .multicast::cluster, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[G2CLUSTER, MBAR, LCH, MULTICAST],
        since: "8.0 sm_90",
        rules: &[SIZE_16, DIR_G2CLUSTER],
        ..Row::BASE
    },
    Row {
        instr: "cp.async.bulk",
        id: "cp.async.bulk.shared::cluster.shared::cta",
        section: "9.7.9.25.4.1",
        syntax: "cp.async.bulk.dst.src.completion_mechanism",
        operands: "[dstMem]: addr, [srcMem]: addr, size: reg|imm .u32, [mbar]: addr",
        sets: &[CTA2CLUSTER, MBAR],
        since: "8.0 sm_90",
        rules: &[SIZE_16, DIR_CTA2CLUSTER],
        ..Row::BASE
    },
    // "Support for `.cp_mask` qualifier introduced in PTX ISA version 8.6."
    // "Support for `.cp_mask` qualifier requires `sm_100` or higher."
    Row {
        instr: "cp.async.bulk",
        id: "cp.async.bulk.global.shared::cta",
        section: "9.7.9.25.4.1",
        syntax: "cp.async.bulk.dst.src.completion_mechanism{.level::cache_hint}{.cp_mask}",
        operands: "[dstMem]: addr, [srcMem]: addr, size: reg|imm .u32, cache-policy: reg|num .b64 if .L2::cache_hint, byteMask: reg|num .b16 if .cp_mask",
        sets: &[CTA2G, BULK, LCH],
        since: "8.0 sm_90",
        needs: &[(".cp_mask", "8.6 sm_100")],
        rules: &[SIZE_16, DIR_CTA2G],
        ..Row::BASE
    },
    // ---- 9.7.9.25.4.2 cp.reduce.async.bulk ----
    Row {
        instr: "cp.reduce.async.bulk",
        id: "cp.reduce.async.bulk.shared::cluster.shared::cta",
        section: "9.7.9.25.4.2",
        syntax: "cp.reduce.async.bulk.dst.src.completion_mechanism.redOp.type",
        operands: "[dstMem]: addr, [srcMem]: addr, size: reg|imm .u32, [mbar]: addr",
        sets: &[
            CTA2CLUSTER,
            MBAR,
            REDOP,
            ".type = { .b32, .u32, .s32, .b64, .u64 }",
        ],
        since: "8.0 sm_90",
        rules: &[SIZE_16, DIR_CTA2CLUSTER, Rule::illegal(
            "valid combinations of `.redOp` and element type for `.shared::cluster`: .add .u32 .s32 .u64; .min .max .u32 .s32; .inc .dec .u32; .and .or .xor .b32",
            |b| !reduce_cluster_ok(b),
        )],
        ..Row::BASE
    },
    Row {
        instr: "cp.reduce.async.bulk",
        id: "cp.reduce.async.bulk.global.shared::cta",
        section: "9.7.9.25.4.2",
        syntax: "cp.reduce.async.bulk.dst.src.completion_mechanism{.level::cache_hint}.redOp.type",
        operands: "[dstMem]: addr, [srcMem]: addr, size: reg|imm .u32, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[
            CTA2G,
            BULK,
            LCH,
            REDOP,
            ".type = { .f16, .bf16, .b32, .u32, .s32, .b64, .u64, .s64, .f32, .f64 }",
        ],
        since: "8.0 sm_90",
        rules: &[SIZE_16, DIR_CTA2G,
            Rule::illegal(
                "The `cp.reduce.async.bulk.add.f16` and `cp.reduce.async.bulk.add.bf16` operations require `.noftz` qualifier.",
                |b| b.is("redOp", ".add") && matches!(b.get("type"), Some(".f16" | ".bf16")),
            ),
            Rule::illegal(
                "valid combinations of `.redOp` and element type for `.global`: .add .u32 .s32 .u64 .f32 .f64 .f16 .bf16; .min .max .u32 .s32 .u64 .s64 .f16 .bf16; .inc .dec .u32; .and .or .xor .b32 .b64",
                |b| !reduce_global_ok(b),
            ),
        ],
        ..Row::BASE
    },
    Row {
        instr: "cp.reduce.async.bulk",
        id: "cp.reduce.async.bulk.global.shared::cta.add.noftz",
        section: "9.7.9.25.4.2",
        syntax: "cp.reduce.async.bulk.dst.src.completion_mechanism{.level::cache_hint}.add.noftz.type",
        operands: "[dstMem]: addr, [srcMem]: addr, size: reg|imm .u32, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[CTA2G, BULK, LCH, ".type = { .f16, .bf16 }"],
        since: "8.0 sm_90",
        rules: &[SIZE_16, DIR_CTA2G],
        ..Row::BASE
    },
    // ---- 9.7.9.25.4.3 cp.async.bulk.prefetch ----
    Row {
        instr: "cp.async.bulk.prefetch",
        id: "cp.async.bulk.prefetch",
        section: "9.7.9.25.4.3",
        syntax: "cp.async.bulk.prefetch.L2.src{.level::cache_hint}",
        operands: "[srcMem]: addr, size: reg|imm .u32, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[".src = { .global }", LCH],
        since: "8.0 sm_90",
        rules: &[SIZE_16],
        ..Row::BASE
    },
    // ---- 9.7.9.25.5.2 cp.async.bulk.tensor: global -> shared::cta ----
    // "Support for `.shared::cta` as destination state space is introduced in
    // PTX ISA version 8.6."
    Row {
        instr: "cp.async.bulk.tensor",
        id: "cp.async.bulk.tensor.shared::cta.global.tile",
        section: "9.7.9.25.5.2",
        syntax: G2S_CTA,
        operands: T_CTA_OPS,
        sets: &[DIM, G2CTA, ".load_mode = { .tile }", MBAR, CTA_GROUP, LCH],
        since: "8.6 sm_90",
        needs: CTA_GROUP_NEEDS,
        rules: &[DIR_G2CTA],
        ..Row::BASE
    },
    // "Qualifiers `.tile::gather4` and `.im2col::w` require ... `sm_100` or
    // higher when destination state space is `.shared::cta`."
    Row {
        instr: "cp.async.bulk.tensor",
        id: "cp.async.bulk.tensor.shared::cta.global.tile::gather4",
        section: "9.7.9.25.5.2",
        syntax: "cp.async.bulk.tensor.2d.dst.src.load_mode.completion_mechanism{.cta_group}{.level::cache_hint}",
        operands: T_CTA_OPS,
        sets: &[G2CTA, ".load_mode = { .tile::gather4 }", MBAR, CTA_GROUP, LCH],
        since: "8.6 sm_100",
        needs: CTA_GROUP_NEEDS,
        rules: &[DIR_G2CTA],
        ..Row::BASE
    },
    Row {
        instr: "cp.async.bulk.tensor",
        id: "cp.async.bulk.tensor.3d.shared::cta.global.im2col",
        section: "9.7.9.25.5.2",
        syntax: "cp.async.bulk.tensor.3d.dst.src.load_mode.completion_mechanism{.cta_group}{.level::cache_hint}",
        operands: "[dstMem]: addr, tensorMap: taddr .s32, [mbar]: addr, im2colInfo: vec<1> .u16, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[G2CTA, ".load_mode = { .im2col }", MBAR, CTA_GROUP, LCH],
        since: "8.6 sm_90",
        needs: CTA_GROUP_NEEDS,
        rules: &[DIR_G2CTA],
        ..Row::BASE
    },
    Row {
        instr: "cp.async.bulk.tensor",
        id: "cp.async.bulk.tensor.4d.shared::cta.global.im2col",
        section: "9.7.9.25.5.2",
        syntax: "cp.async.bulk.tensor.4d.dst.src.load_mode.completion_mechanism{.cta_group}{.level::cache_hint}",
        operands: "[dstMem]: addr, tensorMap: taddr .s32, [mbar]: addr, im2colInfo: vec<2> .u16, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[G2CTA, ".load_mode = { .im2col }", MBAR, CTA_GROUP, LCH],
        since: "8.6 sm_90",
        needs: CTA_GROUP_NEEDS,
        rules: &[DIR_G2CTA],
        ..Row::BASE
    },
    Row {
        instr: "cp.async.bulk.tensor",
        id: "cp.async.bulk.tensor.5d.shared::cta.global.im2col",
        section: "9.7.9.25.5.2",
        syntax: "cp.async.bulk.tensor.5d.dst.src.load_mode.completion_mechanism{.cta_group}{.level::cache_hint}",
        operands: "[dstMem]: addr, tensorMap: taddr .s32, [mbar]: addr, im2colInfo: vec<3> .u16, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[G2CTA, ".load_mode = { .im2col }", MBAR, CTA_GROUP, LCH],
        since: "8.6 sm_90",
        needs: CTA_GROUP_NEEDS,
        rules: &[DIR_G2CTA],
        ..Row::BASE
    },
    Row {
        instr: "cp.async.bulk.tensor",
        id: "cp.async.bulk.tensor.shared::cta.global.im2col::w",
        section: "9.7.9.25.5.2",
        syntax: "cp.async.bulk.tensor.dim.dst.src.load_mode.completion_mechanism{.cta_group}{.level::cache_hint}",
        operands: "[dstMem]: addr, tensorMap: taddr .s32, [mbar]: addr, im2colInfo: vec<2> .u16, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[
            DIM,
            G2CTA,
            ".load_mode = { .im2col::w, .im2col::w::128 }",
            MBAR,
            CTA_GROUP,
            LCH,
        ],
        since: "8.6 sm_90",
        needs: &[
            ("load_mode=.im2col::w", "8.6 sm_100"),
            ("load_mode=.im2col::w::128", SM100_FAMILY),
            (".cta_group::1", SM100_FAMILY),
            (".cta_group::2", SM100_FAMILY),
        ],
        rules: &[DIR_G2CTA, IM2COL_3D],
        ..Row::BASE
    },
    // ---- 9.7.9.25.5.2 cp.async.bulk.tensor: global -> shared::cluster ----
    Row {
        instr: "cp.async.bulk.tensor",
        id: "cp.async.bulk.tensor.shared::cluster.global.tile",
        section: "9.7.9.25.5.2",
        syntax: G2S_CLUSTER,
        operands: T_CLUSTER_OPS,
        sets: &[
            DIM,
            G2CLUSTER,
            ".load_mode = { .tile }",
            MBAR,
            MULTICAST,
            CTA_GROUP,
            LCH,
        ],
        since: "8.0 sm_90",
        needs: CTA_GROUP_NEEDS,
        rules: &[DIR_G2CLUSTER],
        ..Row::BASE
    },
    // "Qualifiers `.tile::gather4` and `.im2col::w` require: `sm_100a` when
    // destination state space is `.shared::cluster` and is supported on
    // `sm_100f` from PTX ISA version 8.8."
    Row {
        instr: "cp.async.bulk.tensor",
        id: "cp.async.bulk.tensor.shared::cluster.global.tile::gather4",
        section: "9.7.9.25.5.2",
        syntax: "cp.async.bulk.tensor.2d.dst.src.load_mode.completion_mechanism{.multicast}{.cta_group}{.level::cache_hint}",
        operands: T_CLUSTER_OPS,
        sets: &[
            G2CLUSTER,
            ".load_mode = { .tile::gather4 }",
            MBAR,
            MULTICAST,
            CTA_GROUP,
            LCH,
        ],
        since: SM100A_OR_F,
        needs: CTA_GROUP_NEEDS,
        rules: &[DIR_G2CLUSTER],
        ..Row::BASE
    },
    Row {
        instr: "cp.async.bulk.tensor",
        id: "cp.async.bulk.tensor.3d.shared::cluster.global.im2col",
        section: "9.7.9.25.5.2",
        syntax: "cp.async.bulk.tensor.3d.dst.src.load_mode.completion_mechanism{.multicast}{.cta_group}{.level::cache_hint}",
        operands: "[dstMem]: addr, tensorMap: taddr .s32, [mbar]: addr, im2colInfo: vec<1> .u16, ctaMask: reg|num .b16 if .multicast::cluster, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[
            G2CLUSTER,
            ".load_mode = { .im2col }",
            MBAR,
            MULTICAST,
            CTA_GROUP,
            LCH,
        ],
        since: "8.0 sm_90",
        needs: CTA_GROUP_NEEDS,
        rules: &[DIR_G2CLUSTER],
        ..Row::BASE
    },
    Row {
        instr: "cp.async.bulk.tensor",
        id: "cp.async.bulk.tensor.4d.shared::cluster.global.im2col",
        section: "9.7.9.25.5.2",
        syntax: "cp.async.bulk.tensor.4d.dst.src.load_mode.completion_mechanism{.multicast}{.cta_group}{.level::cache_hint}",
        operands: "[dstMem]: addr, tensorMap: taddr .s32, [mbar]: addr, im2colInfo: vec<2> .u16, ctaMask: reg|num .b16 if .multicast::cluster, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[
            G2CLUSTER,
            ".load_mode = { .im2col }",
            MBAR,
            MULTICAST,
            CTA_GROUP,
            LCH,
        ],
        since: "8.0 sm_90",
        needs: CTA_GROUP_NEEDS,
        rules: &[DIR_G2CLUSTER],
        ..Row::BASE
    },
    Row {
        instr: "cp.async.bulk.tensor",
        id: "cp.async.bulk.tensor.5d.shared::cluster.global.im2col",
        section: "9.7.9.25.5.2",
        syntax: "cp.async.bulk.tensor.5d.dst.src.load_mode.completion_mechanism{.multicast}{.cta_group}{.level::cache_hint}",
        operands: "[dstMem]: addr, tensorMap: taddr .s32, [mbar]: addr, im2colInfo: vec<3> .u16, ctaMask: reg|num .b16 if .multicast::cluster, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[
            G2CLUSTER,
            ".load_mode = { .im2col }",
            MBAR,
            MULTICAST,
            CTA_GROUP,
            LCH,
        ],
        since: "8.0 sm_90",
        needs: CTA_GROUP_NEEDS,
        rules: &[DIR_G2CLUSTER],
        ..Row::BASE
    },
    Row {
        instr: "cp.async.bulk.tensor",
        id: "cp.async.bulk.tensor.shared::cluster.global.im2col::w",
        section: "9.7.9.25.5.2",
        syntax: "cp.async.bulk.tensor.dim.dst.src.load_mode.completion_mechanism{.multicast}{.cta_group}{.level::cache_hint}",
        operands: "[dstMem]: addr, tensorMap: taddr .s32, [mbar]: addr, im2colInfo: vec<2> .u16, ctaMask: reg|num .b16 if .multicast::cluster, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[
            DIM,
            G2CLUSTER,
            ".load_mode = { .im2col::w, .im2col::w::128 }",
            MBAR,
            MULTICAST,
            CTA_GROUP,
            LCH,
        ],
        since: "8.6 sm_90",
        needs: &[
            ("load_mode=.im2col::w", SM100A_OR_F),
            ("load_mode=.im2col::w::128", SM100_FAMILY),
            (".cta_group::1", SM100_FAMILY),
            (".cta_group::2", SM100_FAMILY),
        ],
        rules: &[DIR_G2CLUSTER, IM2COL_3D],
        ..Row::BASE
    },
    // ---- 9.7.9.25.5.2 cp.async.bulk.tensor: shared::cta -> global ----
    Row {
        instr: "cp.async.bulk.tensor",
        id: "cp.async.bulk.tensor.global.shared::cta.tile",
        section: "9.7.9.25.5.2",
        syntax: S2G,
        operands: S2G_OPS,
        sets: &[DIM, CTA2G, ".load_mode = { .tile }", BULK, LCH],
        since: "8.0 sm_90",
        rules: &[DIR_CTA2G],
        ..Row::BASE
    },
    // "Qualifier `.tile::scatter4` is supported on ... `sm_100a`, `sm_101a`
    // ... `sm_100f` ... `sm_110f`"; PTX ISA 8.6.
    Row {
        instr: "cp.async.bulk.tensor",
        id: "cp.async.bulk.tensor.global.shared::cta.tile::scatter4",
        section: "9.7.9.25.5.2",
        syntax: "cp.async.bulk.tensor.2d.dst.src.load_mode.completion_mechanism{.level::cache_hint}",
        operands: S2G_OPS,
        sets: &[CTA2G, ".load_mode = { .tile::scatter4 }", BULK, LCH],
        since: SM100_FAMILY,
        rules: &[DIR_CTA2G],
        ..Row::BASE
    },
    Row {
        instr: "cp.async.bulk.tensor",
        id: "cp.async.bulk.tensor.global.shared::cta.im2col_no_offs",
        section: "9.7.9.25.5.2",
        syntax: "cp.async.bulk.tensor.dim.dst.src.load_mode.completion_mechanism{.level::cache_hint}",
        operands: S2G_OPS,
        sets: &[DIM, CTA2G, ".load_mode = { .im2col_no_offs }", BULK, LCH],
        since: "8.0 sm_90",
        rules: &[DIR_CTA2G, IM2COL_3D],
        ..Row::BASE
    },
    // ---- 9.7.9.25.5.3 cp.reduce.async.bulk.tensor ----
    Row {
        instr: "cp.reduce.async.bulk.tensor",
        id: "cp.reduce.async.bulk.tensor.tile",
        section: "9.7.9.25.5.3",
        syntax: "cp.reduce.async.bulk.tensor.dim.dst.src.redOp{.load_mode}.completion_mechanism{.level::cache_hint}",
        operands: S2G_OPS,
        sets: &[DIM, CTA2G, REDOP, ".load_mode = { .tile }", BULK, LCH],
        since: "8.0 sm_90",
        rules: &[DIR_CTA2G],
        ..Row::BASE
    },
    Row {
        instr: "cp.reduce.async.bulk.tensor",
        id: "cp.reduce.async.bulk.tensor.im2col_no_offs",
        section: "9.7.9.25.5.3",
        syntax: "cp.reduce.async.bulk.tensor.dim.dst.src.redOp.load_mode.completion_mechanism{.level::cache_hint}",
        operands: S2G_OPS,
        sets: &[DIM, CTA2G, REDOP, ".load_mode = { .im2col_no_offs }", BULK, LCH],
        since: "8.0 sm_90",
        rules: &[DIR_CTA2G, Rule::illegal(
            "In `.im2col` mode, the tensor has to be at least 3-dimensional.",
            below_3d,
        )],
        ..Row::BASE
    },
    // ---- 9.7.9.25.5.4 cp.async.bulk.prefetch.tensor ----
    Row {
        instr: "cp.async.bulk.prefetch.tensor",
        id: "cp.async.bulk.prefetch.tensor.tile",
        section: "9.7.9.25.5.4",
        syntax: "cp.async.bulk.prefetch.tensor.dim.L2.src{.load_mode}{.level::cache_hint}",
        operands: "tensorMap: taddr .s32, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[DIM, ".src = { .global }", ".load_mode = { .tile }", LCH],
        since: "8.0 sm_90",
        ..Row::BASE
    },
    // "Qualifier `.tile::gather4` is supported on ... `sm_100a`, `sm_101a`
    // ... `sm_100f` ... `sm_110f`"; PTX ISA 8.6.
    Row {
        instr: "cp.async.bulk.prefetch.tensor",
        id: "cp.async.bulk.prefetch.tensor.tile::gather4",
        section: "9.7.9.25.5.4",
        syntax: "cp.async.bulk.prefetch.tensor.2d.L2.src.load_mode{.level::cache_hint}",
        operands: "tensorMap: taddr .s32, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[".src = { .global }", ".load_mode = { .tile::gather4 }", LCH],
        since: SM100_FAMILY,
        ..Row::BASE
    },
    Row {
        instr: "cp.async.bulk.prefetch.tensor",
        id: "cp.async.bulk.prefetch.tensor.3d.im2col",
        section: "9.7.9.25.5.4",
        syntax: "cp.async.bulk.prefetch.tensor.3d.L2.src.load_mode{.level::cache_hint}",
        operands: "tensorMap: taddr .s32, im2colInfo: vec<1> .u16, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[".src = { .global }", ".load_mode = { .im2col }", LCH],
        since: "8.0 sm_90",
        ..Row::BASE
    },
    Row {
        instr: "cp.async.bulk.prefetch.tensor",
        id: "cp.async.bulk.prefetch.tensor.4d.im2col",
        section: "9.7.9.25.5.4",
        syntax: "cp.async.bulk.prefetch.tensor.4d.L2.src.load_mode{.level::cache_hint}",
        operands: "tensorMap: taddr .s32, im2colInfo: vec<2> .u16, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[".src = { .global }", ".load_mode = { .im2col }", LCH],
        since: "8.0 sm_90",
        ..Row::BASE
    },
    Row {
        instr: "cp.async.bulk.prefetch.tensor",
        id: "cp.async.bulk.prefetch.tensor.5d.im2col",
        section: "9.7.9.25.5.4",
        syntax: "cp.async.bulk.prefetch.tensor.5d.L2.src.load_mode{.level::cache_hint}",
        operands: "tensorMap: taddr .s32, im2colInfo: vec<3> .u16, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[".src = { .global }", ".load_mode = { .im2col }", LCH],
        since: "8.0 sm_90",
        ..Row::BASE
    },
    // "Qualifiers `.im2col::w` and `.im2col::w::128` are supported on ...
    // `sm_100a`, `sm_101a` ... `sm_100f` ... `sm_110f`"; PTX ISA 8.6.
    Row {
        instr: "cp.async.bulk.prefetch.tensor",
        id: "cp.async.bulk.prefetch.tensor.im2col::w",
        section: "9.7.9.25.5.4",
        syntax: "cp.async.bulk.prefetch.tensor.dim.L2.src.load_mode{.level::cache_hint}",
        operands: "tensorMap: taddr .s32, im2colInfo: vec<2> .u16, cache-policy: reg|num .b64 if .L2::cache_hint",
        sets: &[DIM, ".src = { .global }", ".load_mode = { .im2col::w, .im2col::w::128 }", LCH],
        since: SM100_FAMILY,
        rules: &[IM2COL_3D],
        ..Row::BASE
    },
    // ---- 9.7.9.25.6 bulk completion ----
    Row {
        instr: "cp.async.bulk.commit_group",
        id: "cp.async.bulk.commit_group",
        section: "9.7.9.25.6.1",
        syntax: "cp.async.bulk.commit_group",
        since: "8.0 sm_90",
        ..Row::BASE
    },
    Row {
        instr: "cp.async.bulk.wait_group",
        id: "cp.async.bulk.wait_group",
        section: "9.7.9.25.6.2",
        syntax: "cp.async.bulk.wait_group{.read}",
        operands: "N: imm",
        since: "8.0 sm_90",
        ..Row::BASE
    },
];

#[cfg(test)]
mod tests {
    use crate::catalogue::Catalogue;

    /// The opcode-and-qualifier part of every single-instruction example of
    /// 9.7.9.25.
    const EXAMPLES: &[&str] = &[
        // 9.7.9.25.3.1
        "cp.async.ca.shared.global",
        "cp.async.ca.shared::cta.global",
        "cp.async.cg.shared.global",
        "cp.async.cg.shared.global.L2::64B",
        "cp.async.cg.shared.global.L2::128B",
        "cp.async.cg.shared.global.L2::256B",
        "cp.async.ca.shared.global.L2::cache_hint",
        "cp.async.cg.shared.global.L2::cache_hint",
        // 9.7.9.25.3.2, 9.7.9.25.3.3
        "cp.async.commit_group",
        "cp.async.wait_all",
        "cp.async.wait_group",
        // 9.7.9.25.4.1
        "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes",
        "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes.L2::cache_hint",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint",
        "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes",
        "cp.async.bulk.global.shared::cta.bulk_group",
        // The spec writes `.L2::cache_hint}` here, a stray brace.
        "cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint",
        "cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.cp_mask",
        // 9.7.9.25.4.2
        "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u64",
        "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.min.s32",
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.f16",
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16",
        // 9.7.9.25.4.3
        "cp.async.bulk.prefetch.L2.global",
        "cp.async.bulk.prefetch.L2.global.L2::cache_hint",
        // 9.7.9.25.5.2
        "cp.async.bulk.tensor.1d.shared::cta.global.mbarrier::complete_tx::bytes.tile",
        "cp.async.bulk.tensor.5d.shared::cta.global.im2col.mbarrier::complete_tx::bytes",
        "cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes.tile",
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster",
        "cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes",
        "cp.async.bulk.tensor.3d.im2col.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint",
        "cp.async.bulk.tensor.1d.global.shared::cta.bulk_group",
        "cp.async.bulk.tensor.2d.tile::gather4.shared::cluster.global.mbarrier::complete_tx::bytes",
        "cp.async.bulk.tensor.3d.im2col::w.shared::cluster.global.mbarrier::complete_tx::bytes",
        // 9.7.9.25.5.3
        "cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group",
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.and.bulk_group.L2::cache_hint",
        // 9.7.9.25.5.4
        "cp.async.bulk.prefetch.tensor.1d.L2.global.tile",
        "cp.async.bulk.prefetch.tensor.2d.L2.global",
        "cp.async.bulk.prefetch.tensor.5d.L2.global.im2col",
        "cp.async.bulk.prefetch.tensor.3d.L2.global.im2col.L2::cache_hint",
        "cp.async.bulk.prefetch.tensor.2d.L2.global.tile::gather4",
        "cp.async.bulk.prefetch.tensor.4d.L2.global.im2col::w::128",
        // 9.7.9.25.6
        "cp.async.bulk.commit_group",
        "cp.async.bulk.wait_group.read",
        "cp.async.bulk.wait_group",
    ];

    /// Examples of the spec that contradict its own syntax blocks.
    const SPEC_EXAMPLE_ERRATA: &[(&str, &str)] = &[
        (
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.xor.s32",
            "the table allows `.xor` only with `.b32`, `.b64`",
        ),
        (
            "cp.reduce.async.bulk.tensor.3d.global.shared::cta.xor.im2col.bulk_group",
            "`.load_mode = { .tile, .im2col_no_offs }` has no `.im2col`",
        ),
        (
            "cp.async.bulk.tensor.1d.shared::cluster.global.tile.cta_group::2",
            "`.completion_mechanism` is not optional",
        ),
    ];

    /// Combinations the spec rules out.
    const ILLEGAL: &[(&str, &str)] = &[
        (
            "cp.async.bulk.shared::cta.shared::cluster.mbarrier::complete_tx::bytes",
            "the first state space is the destination: `.shared::cluster`",
        ),
        (
            "cp.reduce.async.bulk.shared::cta.global.bulk_group.add.u32",
            "the first state space is the destination: `.global`",
        ),
        (
            "cp.async.bulk.tensor.2d.global.shared::cluster.mbarrier::complete_tx::bytes",
            "the first state space is the destination: `.shared::cluster`",
        ),
        ("cp.async.cg.shared::cluster.global", "`.shared{::cta}` only"),
        ("cp.async.ca.global.shared", "src is global, dst is shared"),
        ("cp.async.bulk.shared::cta.global.bulk_group", "`.mbarrier::...` only to shared"),
        (
            "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes.multicast::cluster",
            "multicast only to `.shared::cluster`",
        ),
        (
            "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.L2::cache_hint",
            "cache hint needs a `.global` side",
        ),
        ("cp.async.bulk.global.shared::cta.mbarrier::complete_tx::bytes", "`.bulk_group` only"),
        (
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f16",
            "`.add.f16` requires `.noftz`",
        ),
        ("cp.reduce.async.bulk.global.shared::cta.bulk_group.min.f32", "table"),
        ("cp.reduce.async.bulk.global.shared::cta.bulk_group.inc.s32", "table"),
        (
            "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.and.b64",
            "table: `.and` on `.shared::cluster` is `.b32` only",
        ),
        (
            "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.min.u64",
            "table",
        ),
        ("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f32", "`.noftz` type is `.f16`, `.bf16`"),
        (
            "cp.async.bulk.tensor.2d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes",
            "im2col needs at least 3 dimensions",
        ),
        (
            "cp.async.bulk.tensor.2d.shared::cluster.global.im2col::w.mbarrier::complete_tx::bytes",
            "im2col::w needs at least 3 dimensions",
        ),
        (
            "cp.async.bulk.tensor.2d.global.shared::cta.im2col_no_offs.bulk_group",
            "im2col needs at least 3 dimensions",
        ),
        (
            "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group.cta_group::1",
            "`.cta_group` only with mbarrier completion",
        ),
        (
            "cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes.multicast::cluster",
            "multicast only to `.shared::cluster`",
        ),
        (
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile::scatter4.mbarrier::complete_tx::bytes",
            "scatter4 is a store mode",
        ),
        (
            "cp.async.bulk.tensor.2d.global.shared::cta.tile::gather4.bulk_group",
            "gather4 is a load mode",
        ),
        (
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes",
            "gather4 works on a 2-dimensional tensor",
        ),
        (
            "cp.async.bulk.tensor.2d.tile.shared::cluster.global.tile.mbarrier::complete_tx::bytes",
            "one load mode",
        ),
        ("cp.async.bulk.prefetch.L2.shared::cta", "`.src = { .global }`"),
        ("cp.async.bulk.prefetch.tensor.2d.L2.global.tile::scatter4", "not a prefetch mode"),
        ("cp.async.wait_group.read", "`.read` is for `cp.async.bulk.wait_group`"),
    ];

    #[test]
    fn spec_examples_resolve() {
        let cat = Catalogue::get();
        for text in EXAMPLES {
            assert!(
                cat.resolve_text(text).is_ok(),
                "{text} should resolve: {:?}",
                cat.resolve_text(text).err()
            );
        }
    }

    #[test]
    fn spec_example_errata_do_not_resolve() {
        let cat = Catalogue::get();
        for (text, why) in SPEC_EXAMPLE_ERRATA {
            assert!(
                cat.resolve_text(text).is_err(),
                "{text} should not resolve: {why}"
            );
        }
    }

    #[test]
    fn illegal_combinations() {
        let cat = Catalogue::get();
        for (text, why) in ILLEGAL {
            assert!(
                cat.resolve_text(text).is_err(),
                "{text} should not resolve: {why}"
            );
        }
    }

    #[test]
    fn rows_pick_the_right_form() {
        let cat = Catalogue::get();
        let id = |t: &str| cat.resolve_text(t).map(|b| b.form.row.id).unwrap_or("none");
        assert_eq!(
            id("cp.async.bulk.tensor.5d.shared::cta.global.im2col.mbarrier::complete_tx::bytes"),
            "cp.async.bulk.tensor.5d.shared::cta.global.im2col"
        );
        assert_eq!(
            id("cp.async.bulk.tensor.3d.shared::cluster.global.im2col::w::128.mbarrier::complete_tx::bytes"),
            "cp.async.bulk.tensor.shared::cluster.global.im2col::w"
        );
        assert_eq!(
            id("cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes.cta_group::1"),
            "cp.async.bulk.tensor.shared::cta.global.tile::gather4"
        );
        assert_eq!(
            id("cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group.L2::cache_hint"),
            "cp.async.bulk.tensor.global.shared::cta.tile::scatter4"
        );
        assert_eq!(
            id("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.bf16"),
            "cp.reduce.async.bulk.global.shared::cta.add.noftz"
        );
    }
}
