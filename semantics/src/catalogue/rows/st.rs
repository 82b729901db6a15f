//! `st` (PTX ISA 9.7.9.11, with the cache operators of 9.7.9.1 and eviction
//! priorities of 9.7.9.2), `st.async` (9.7.9.12) and `st.bulk` (9.7.9.13).
//!
//! Each `st` syntax line with `{.vec}` is split into a scalar row and a
//! vector row (`.vec` required, `b` a vector). Qualifier order is free
//! (`Order::Free`, the default), as the spec's own examples need
//! (`st.global.relaxed.sys`, `st.global.mmio.relaxed.sys`).

use super::memory::{
    bits, ss_not_global, EVICT_SPACE, GENERIC, L1_NEEDS, L2_EVICT_SHAPE, L2_NEEDS, SYS_B128,
    V4_64_NEEDS, V4_64_SPACE, V8_SPACE, VEC_B128,
};
use crate::catalogue::{Fit, Row, Rule};

// ---- qualifier sets (9.7.9.11) ----

const SS: &str = ".ss = { .global, .local, .param{::func}, .shared{::cta, ::cluster} }";
const COP: &str = ".cop = { .wb, .cg, .cs, .wt }";
const L1_EVICT: &str = ".level1::eviction_priority = { .L1::evict_normal, .L1::evict_unchanged, .L1::evict_first, .L1::evict_last, .L1::no_allocate }";
const L2_EVICT: &str =
    ".level2::eviction_priority = { .L2::evict_normal, .L2::evict_first, .L2::evict_last }";
const CACHE_HINT: &str = ".level::cache_hint = { .L2::cache_hint }";
const SCOPE: &str = ".scope = { .cta, .cluster, .gpu, .sys }";
const VEC: &str = ".vec = { .v2, .v4, .v8 }";
const TYPE: &str = ".type = { .b8, .b16, .b32, .b64, .b128, .u8, .u16, .u32, .u64, .s8, .s16, .s32, .s64, .f32, .f64 }";

// ---- operands ----

const OPS: &str = "[a]: addr, b: reg|imm type, cache-policy: reg|num .b64 if .L2::cache_hint";
const OPS_VEC: &str =
    "[a]: addr, b: vec<vec>|sink type, cache-policy: reg|num .b64 if .L2::cache_hint";
const OPS_PLAIN: &str = "[a]: addr, b: reg|imm type";
const OPS_PLAIN_VEC: &str = "[a]: addr, b: vec<vec>|sink type";

// ---- requirements (PTX ISA Notes / Target ISA Notes of 9.7.9.11) ----

const F64: (&str, &str) = ("type=.f64", "sm_13");
const B128: (&str, &str) = ("type=.b128", "8.3 sm_70");
const SHARED_CTA: (&str, &str) = (".shared::cta", "7.8 sm_30");
const SHARED_CLUSTER: (&str, &str) = (".shared::cluster", "7.8 sm_90");
const PARAM_FUNC: (&str, &str) = (".param::func", "8.3");
const WEAK: (&str, &str) = (".weak", "6.0 sm_70");
const CLUSTER_SCOPE: (&str, &str) = ("scope=.cluster", "7.8 sm_90");
const HINT: (&str, &str) = (".L2::cache_hint", "7.4 sm_80");
const V8: (&str, &str) = (".v8", "8.8 sm_100");
const WB: (&str, &str) = (".wb", "2.0 sm_20");
const CG: (&str, &str) = (".cg", "2.0 sm_20");
const CS: (&str, &str) = (".cs", "2.0 sm_20");
const WT: (&str, &str) = (".wt", "2.0 sm_20");

// ---- helpers for rules ----

// ---- rules ----

const SYNC_SPACE: Rule = Rule::illegal(
    "The qualifiers .volatile, .relaxed and .release may be used only with .global and .shared spaces and with generic addressing",
    |b| b.get("ss").is_some_and(|s| s != ".global" && !s.starts_with(".shared")),
);
const V8_TYPE: Rule = Rule::illegal(
    "The .v8 (.vec) qualifier is supported if .type is .b32, .s32, .u32, or .f32",
    |b| b.is("vec", ".v8") && bits(b) != 32,
);
const HINT_SPACE: Rule = Rule::illegal(
    "The qualifier .level::cache_hint is only supported for .global state space and for generic addressing",
    |b| b.has(".L2::cache_hint") && ss_not_global(b),
);
// ---- st.async (9.7.9.12) ----

/// ptxas 13.0: "Vector type too large, exceeds 128 bit limit".
const ASYNC_VEC_128: Rule = Rule::illegal("a vector of `st.async` holds at most 128 bits", |b| {
    let n: u32 = b
        .get("vec")
        .and_then(|v| v.strip_prefix(".v"))
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    b.ty("type").is_some_and(|t| t.bits * n > 128)
});

/// The syntax line writes `{.sem}{.scope}` with `.sem = { .weak }` and
/// `.scope = { .cluster }`, but ptxas 13.0 rejects the two together
/// ("Modifier '.weak' cannot be combined with modifier '.cluster'"); each
/// alone is accepted. The weak form's complete-tx is at `.cluster` scope
/// whatever is written ("The complete-tx operation on the mbarrier has
/// .release semantics at .cluster scope"), and the `.scope` qualifier came
/// with the `.release` form in PTX ISA 8.7; the checker follows ptxas.
const ASYNC_WEAK_CLUSTER: Rule = Rule::illegal(
    "`.weak` cannot be combined with `.cluster` (ptxas 13.0; the syntax line allows both)",
    |b| b.has(".weak") && b.has(".cluster"),
);

const ASYNC_MMIO_SYS: Rule = Rule::illegal("If .mmio is specified, .scope must be .sys", |b| {
    b.has(".mmio") && !b.is("scope", ".sys")
});

// ---- st.bulk (9.7.9.13) ----

const BULK_INITVAL: Rule = Rule::illegal(
    "The only numeric value allowed for operand initval is 0",
    |b| b.imm("initval").is_some_and(|v| v != 0),
);
const BULK_SIZE_MAX: Rule =
    Rule::illegal("The maximum value of size operand can be 16777216", |b| {
        b.imm("size").is_some_and(|v| v > 16_777_216)
    });
/// "`size` must be a multiple of 8. If the value is not a multiple of 8,
/// then the behavior is undefined": a constant that is not is known at
/// compile time (ptxas: "unexpected value '1', expected to be multiple of 8").
const BULK_SIZE_8: Rule = Rule::illegal("size must be a multiple of 8", |b| {
    b.imm("size").is_some_and(|v| v % 8 != 0)
});

pub static ROWS: &[Row] = &[
    // st{.weak}{.ss}{.cop}{.level::cache_hint}{.vec}.type [a], b{, cache-policy};
    Row {
        instr: "st",
        id: "st.weak.cop",
        section: "9.7.9.11",
        syntax: "st{.weak}{.ss}{.cop}{.level::cache_hint}.type",
        operands: OPS,
        sets: &[SS, COP, CACHE_HINT, TYPE],
        since: "1.0",
        needs: &[F64, B128, SHARED_CTA, SHARED_CLUSTER, PARAM_FUNC, WEAK, HINT, WB, CG, CS, WT],
        rules: &[HINT_SPACE, GENERIC],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    Row {
        instr: "st",
        id: "st.weak.cop.vec",
        section: "9.7.9.11",
        syntax: "st{.weak}{.ss}{.cop}{.level::cache_hint}.vec.type",
        operands: OPS_VEC,
        sets: &[SS, COP, CACHE_HINT, VEC, TYPE],
        since: "1.0",
        needs: &[F64, B128, SHARED_CTA, SHARED_CLUSTER, PARAM_FUNC, WEAK, HINT, V8, WB, CG, CS, WT],
        rules: &[V8_TYPE, V8_SPACE, V4_64_SPACE, VEC_B128, HINT_SPACE, GENERIC, V4_64_NEEDS],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // st{.weak}{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.vec}.type [a], b{, cache-policy};
    Row {
        instr: "st",
        id: "st.weak.evict",
        section: "9.7.9.11",
        syntax: "st{.weak}{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}.type",
        operands: OPS,
        sets: &[SS, L1_EVICT, L2_EVICT, CACHE_HINT, TYPE],
        since: "1.0",
        needs: &[F64, B128, SHARED_CTA, SHARED_CLUSTER, PARAM_FUNC, WEAK, HINT],
        rules: &[L2_EVICT_SHAPE, EVICT_SPACE, HINT_SPACE, GENERIC, L1_NEEDS, L2_NEEDS],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    Row {
        instr: "st",
        id: "st.weak.evict.vec",
        section: "9.7.9.11",
        syntax: "st{.weak}{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}.vec.type",
        operands: OPS_VEC,
        sets: &[SS, L1_EVICT, L2_EVICT, CACHE_HINT, VEC, TYPE],
        since: "1.0",
        needs: &[F64, B128, SHARED_CTA, SHARED_CLUSTER, PARAM_FUNC, WEAK, HINT, V8],
        rules: &[
            V8_TYPE,
            V8_SPACE,
            V4_64_SPACE,
            VEC_B128,
            L2_EVICT_SHAPE,
            EVICT_SPACE,
            HINT_SPACE,
            GENERIC,
            L1_NEEDS,
            L2_NEEDS,
            V4_64_NEEDS,
        ],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // st.volatile{.ss}{.vec}.type [a], b;
    Row {
        instr: "st",
        id: "st.volatile",
        section: "9.7.9.11",
        syntax: "st.volatile{.ss}.type",
        operands: OPS_PLAIN,
        sets: &[SS, TYPE],
        since: "1.1",
        needs: &[F64, B128, SHARED_CTA, SHARED_CLUSTER, PARAM_FUNC],
        rules: &[SYNC_SPACE, GENERIC],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    Row {
        instr: "st",
        id: "st.volatile.vec",
        section: "9.7.9.11",
        syntax: "st.volatile{.ss}.vec.type",
        operands: OPS_PLAIN_VEC,
        sets: &[SS, VEC, TYPE],
        since: "1.1",
        needs: &[F64, B128, SHARED_CTA, SHARED_CLUSTER, PARAM_FUNC, V8],
        rules: &[SYNC_SPACE, V8_TYPE, V8_SPACE, V4_64_SPACE, VEC_B128, GENERIC, V4_64_NEEDS],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // st.relaxed.scope{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.vec}.type [a], b{, cache-policy};
    Row {
        instr: "st",
        id: "st.relaxed",
        section: "9.7.9.11",
        syntax: "st.relaxed.scope{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}.type",
        operands: OPS,
        sets: &[SCOPE, SS, L1_EVICT, L2_EVICT, CACHE_HINT, TYPE],
        since: "6.0 sm_70",
        needs: &[F64, B128, SHARED_CTA, SHARED_CLUSTER, PARAM_FUNC, CLUSTER_SCOPE, HINT],
        rules: &[
            SYNC_SPACE,
            L2_EVICT_SHAPE,
            EVICT_SPACE,
            HINT_SPACE,
            GENERIC,
            L1_NEEDS,
            L2_NEEDS,
            SYS_B128,
        ],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    Row {
        instr: "st",
        id: "st.relaxed.vec",
        section: "9.7.9.11",
        syntax: "st.relaxed.scope{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}.vec.type",
        operands: OPS_VEC,
        sets: &[SCOPE, SS, L1_EVICT, L2_EVICT, CACHE_HINT, VEC, TYPE],
        since: "6.0 sm_70",
        needs: &[F64, B128, SHARED_CTA, SHARED_CLUSTER, PARAM_FUNC, CLUSTER_SCOPE, HINT, V8],
        rules: &[
            SYNC_SPACE,
            V8_TYPE,
            V8_SPACE,
            V4_64_SPACE,
            VEC_B128,
            L2_EVICT_SHAPE,
            EVICT_SPACE,
            HINT_SPACE,
            GENERIC,
            L1_NEEDS,
            L2_NEEDS,
            V4_64_NEEDS,
        ],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // st.release.scope{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.vec}.type [a], b{, cache-policy};
    Row {
        instr: "st",
        id: "st.release",
        section: "9.7.9.11",
        syntax: "st.release.scope{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}.type",
        operands: OPS,
        sets: &[SCOPE, SS, L1_EVICT, L2_EVICT, CACHE_HINT, TYPE],
        since: "6.0 sm_70",
        needs: &[F64, B128, SHARED_CTA, SHARED_CLUSTER, PARAM_FUNC, CLUSTER_SCOPE, HINT],
        rules: &[
            SYNC_SPACE,
            L2_EVICT_SHAPE,
            EVICT_SPACE,
            HINT_SPACE,
            GENERIC,
            L1_NEEDS,
            L2_NEEDS,
            SYS_B128,
        ],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    Row {
        instr: "st",
        id: "st.release.vec",
        section: "9.7.9.11",
        syntax: "st.release.scope{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}.vec.type",
        operands: OPS_VEC,
        sets: &[SCOPE, SS, L1_EVICT, L2_EVICT, CACHE_HINT, VEC, TYPE],
        since: "6.0 sm_70",
        needs: &[F64, B128, SHARED_CTA, SHARED_CLUSTER, PARAM_FUNC, CLUSTER_SCOPE, HINT, V8],
        rules: &[
            SYNC_SPACE,
            V8_TYPE,
            V8_SPACE,
            V4_64_SPACE,
            VEC_B128,
            L2_EVICT_SHAPE,
            EVICT_SPACE,
            HINT_SPACE,
            GENERIC,
            L1_NEEDS,
            L2_NEEDS,
            V4_64_NEEDS,
        ],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // st.mmio.relaxed.sys{.global}.type [a], b;
    Row {
        instr: "st",
        id: "st.mmio",
        section: "9.7.9.11",
        syntax: "st.mmio.relaxed.sys{.global}.type",
        operands: OPS_PLAIN,
        sets: &[TYPE],
        since: "8.2 sm_70",
        needs: &[F64, B128, (".b128", "8.4")],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // ---- st.async (9.7.9.12) ----
    // st.async{.sem}{.scope}{.ss}{.completion_mechanism}{.vec}.type [a], b, [mbar];
    Row {
        instr: "st.async",
        id: "st.async.weak",
        section: "9.7.9.12",
        syntax: "st.async{.sem}{.scope}{.ss}.completion_mechanism.type",
        operands: "[a]: addr, b: reg|imm type, [mbar]: addr",
        sets: &[
            ".sem = { .weak }",
            ".scope = { .cluster }",
            ".ss = { .shared::cluster }",
            ".completion_mechanism = { .mbarrier::complete_tx::bytes }",
            ".type = { .b32, .b64, .u32, .u64, .s32, .s64, .f32, .f64 }",
        ],
        since: "8.1 sm_90",
        rules: &[ASYNC_WEAK_CLUSTER],
        ..Row::BASE
    },
    Row {
        instr: "st.async",
        id: "st.async.weak.vec",
        section: "9.7.9.12",
        syntax: "st.async{.sem}{.scope}{.ss}.completion_mechanism.vec.type",
        operands: "[a]: addr, b: vec<vec> type, [mbar]: addr",
        sets: &[
            ".sem = { .weak }",
            ".scope = { .cluster }",
            ".ss = { .shared::cluster }",
            ".completion_mechanism = { .mbarrier::complete_tx::bytes }",
            ".vec = { .v2, .v4 }",
            ".type = { .b32, .b64, .u32, .u64, .s32, .s64, .f32, .f64 }",
        ],
        since: "8.1 sm_90",
        rules: &[ASYNC_VEC_128, ASYNC_WEAK_CLUSTER],
        ..Row::BASE
    },
    // st.async{.mmio}.sem.scope{.ss}{.completion_mechanism}.type [a], b;
    // `.completion_mechanism = { }` ("must not be specified") is left out;
    // `.scope` is required, as the syntax line says; the spec's example
    // `st.async.release.global.u32` has none and ptxas 13.0 rejects it
    // ("Modifier '.release' requires scope"): see corpus/legality/DIVERGENCES.md.
    Row {
        instr: "st.async",
        id: "st.async.release",
        section: "9.7.9.12",
        syntax: "st.async{.mmio}.sem.scope{.ss}.type",
        operands: "[a]: addr, b: reg|imm type",
        sets: &[
            ".sem = { .release }",
            ".scope = { .gpu, .sys }",
            ".ss = { .global }",
            ".type = { .b8, .b16, .b32, .b64, .u8, .u16, .u32, .u64, .s8, .s16, .s32, .s64, .f32, .f64 }",
        ],
        since: "8.7 sm_100",
        rules: &[ASYNC_MMIO_SYS],
        ..Row::BASE
    },
    // ---- st.bulk (9.7.9.13) ----
    // st.bulk{.weak}{.shared::cta} [a], size, initval; // initval must be zero
    Row {
        instr: "st.bulk",
        id: "st.bulk",
        section: "9.7.9.13",
        syntax: "st.bulk{.weak}{.shared::cta}",
        operands: "[a]: addr, size: reg|num .b64, initval: imm",
        since: "8.6 sm_100",
        rules: &[BULK_INITVAL, BULK_SIZE_MAX, BULK_SIZE_8],
        ..Row::BASE
    },
];

#[cfg(test)]
mod tests {
    use super::super::testing::{bad, ok};
    use crate::catalogue::Catalogue;

    fn instr_of(text: &str) -> &'static str {
        Catalogue::get()
            .resolve_text(text)
            .map(|b| b.form.row.instr)
            .unwrap_or("none")
    }

    /// The single-instruction lines of the Examples blocks of 9.7.9.11 to
    /// 9.7.9.13.
    #[test]
    fn spec_examples_resolve() {
        for text in [
            // 9.7.9.11
            "st.global.f32",
            "st.local.b32",
            "st.global.v4.s32",
            "st.local.s32",
            "st.b16",
            "st.global.relaxed.sys.u32",
            "st.shared.release.cta.u32",
            "st.global.relaxed.cluster.u32",
            "st.shared::cta.release.cta.u32",
            "st.shared::cluster.u32",
            "st.global.mmio.relaxed.sys.u32",
            "st.global.L1::no_allocate.f32",
            "st.global.L2::cache_hint.b32",
            "st.param::func.b64",
            "st.global.b128",
            "st.global.L2::evict_last.v8.f32",
            // 9.7.9.12
            "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32",
            // 9.7.9.13
            "st.bulk.weak.shared::cta",
            "st.bulk",
        ] {
            ok(text);
        }
        assert_eq!(instr_of("st.async.release.gpu.global.u32"), "st.async");
        // Spec erratum: the example has no `.scope`, which the syntax requires.
        bad("st.async.release.global.u32");
        assert_eq!(instr_of("st.bulk"), "st.bulk");
        assert_eq!(instr_of("st.global.f32"), "st");
    }

    #[test]
    fn syntax_block_forms_resolve() {
        for text in [
            "st.mmio.relaxed.sys.global.u32",
            "st.volatile.shared.v2.f32",
            "st.weak.global.wt.L2::cache_hint.v4.u32",
            "st.relaxed.gpu.global.L1::evict_last.L2::cache_hint.b128",
            "st.release.cluster.shared::cluster.u64",
            "st.global.L1::evict_first.L2::evict_first.v4.b64",
            "st.async.cluster.shared::cluster.mbarrier::complete_tx::bytes.v4.b32",
            "st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.v4.b32",
            "st.async.mmio.release.sys.global.b8",
            "st.async.release.gpu.u64",
        ] {
            ok(text);
        }
    }

    #[test]
    fn spec_rules_reject() {
        for text in [
            // stores to const memory are illegal; no .param::entry for st
            "st.const.u32",
            "st.param::entry.b32",
            // load cache operators are not store cache operators
            "st.global.ca.u32",
            // mutually exclusive memory orders; scope required
            "st.weak.release.gpu.u32",
            // ptxas 13.0: "Modifier '.weak' cannot be combined with modifier '.cluster'"
            "st.async.weak.cluster.shared::cluster.mbarrier::complete_tx::bytes.v4.b32",
            "st.relaxed.global.u32",
            "st.acquire.gpu.global.u32",
            // only .global/.shared with .volatile/.relaxed/.release
            "st.volatile.local.u32",
            "st.relaxed.gpu.param.u32",
            // cache operations are not permitted with these qualifiers
            "st.release.gpu.global.wb.u32",
            // .v8 only with 32-bit types and .global; .v4 of 64-bit only .global
            "st.global.v8.u64",
            "st.local.v8.f32",
            "st.shared.v4.f64",
            // .level2::eviction_priority needs .v8 32-bit or .v4 64-bit
            "st.global.L2::evict_first.b32",
            // .level::cache_hint only with .global
            "st.shared.L2::cache_hint.b32",
            // st has no prefetch size
            "st.global.L2::64B.b32",
            // mmio: only .sys and .global
            "st.mmio.relaxed.cta.u32",
            // st.async weak: no 8/16-bit types, only .shared::cluster
            "st.async.shared::cluster.mbarrier::complete_tx::bytes.u8",
            "st.async.global.mbarrier::complete_tx::bytes.u32",
            // st.async release: no completion mechanism, no vectors, mmio needs .sys
            "st.async.release.gpu.global.mbarrier::complete_tx::bytes.u32",
            "st.async.release.gpu.v2.u32",
            "st.async.mmio.release.gpu.global.u32",
            "st.async.mmio.release.global.u32",
            // st.bulk: only .shared::cta
            "st.bulk.global",
            "st.bulk.shared::cluster",
        ] {
            bad(text);
        }
    }
}
