//! `ld` (PTX ISA 9.7.9.8, with the cache operators of 9.7.9.1 and eviction
//! priorities of 9.7.9.2), `ld.global.nc` (9.7.9.9) and `ldu` (9.7.9.10).
//!
//! Each syntax line with `{.vec}` is split into a scalar row (no `.vec`,
//! `d` a register) and a vector row (`.vec` required, `d` a vector). The
//! `.unified` suffix of the address operand is not modelled. Qualifier order
//! is free (`Order::Free`, the default), as the spec's own examples need
//! (`ld.global.relaxed.gpu`, `ld.global.L2::evict_last.L1::evict_last`).

use super::memory::{
    bits, has_l1, is_v4_64, ss_not_global, EVICT_SPACE, GENERIC, L1_NEEDS, L2_EVICT_SHAPE,
    L2_NEEDS, SYS_B128, V4_64_NEEDS, V4_64_SPACE, V8_SPACE, VEC_B128,
};
use crate::catalogue::{Fit, Row, Rule};

// ---- qualifier sets (9.7.9.8) ----

const SS: &str =
    ".ss = { .const, .global, .local, .param{::entry, ::func}, .shared{::cta, ::cluster} }";
const COP: &str = ".cop = { .ca, .cg, .cs, .lu, .cv }";
const L1_EVICT: &str = ".level1::eviction_priority = { .L1::evict_normal, .L1::evict_unchanged, .L1::evict_first, .L1::evict_last, .L1::no_allocate }";
const L2_EVICT: &str =
    ".level2::eviction_priority = { .L2::evict_normal, .L2::evict_first, .L2::evict_last }";
const CACHE_HINT: &str = ".level::cache_hint = { .L2::cache_hint }";
const PREFETCH: &str = ".level::prefetch_size = { .L2::64B, .L2::128B, .L2::256B }";
const SCOPE: &str = ".scope = { .cta, .cluster, .gpu, .sys }";
const VEC: &str = ".vec = { .v2, .v4, .v8 }";
const TYPE: &str = ".type = { .b8, .b16, .b32, .b64, .b128, .u8, .u16, .u32, .u64, .s8, .s16, .s32, .s64, .f32, .f64 }";

// ---- operands ----

const OPS: &str = "d: reg type, [a]: addr, cache-policy: reg|num .b64 if .L2::cache_hint";
const OPS_VEC: &str =
    "d: vec<vec>|sink type, [a]: addr, cache-policy: reg|num .b64 if .L2::cache_hint";
const OPS_PLAIN: &str = "d: reg type, [a]: addr";
const OPS_PLAIN_VEC: &str = "d: vec<vec>|sink type, [a]: addr";

// ---- requirements (PTX ISA Notes / Target ISA Notes of 9.7.9.8) ----

const F64: (&str, &str) = ("type=.f64", "sm_13");
const B128: (&str, &str) = ("type=.b128", "8.3 sm_70");
const SHARED_CTA: (&str, &str) = (".shared::cta", "7.8 sm_30");
const SHARED_CLUSTER: (&str, &str) = (".shared::cluster", "7.8 sm_90");
const PARAM_ENTRY: (&str, &str) = (".param::entry", "8.3");
const PARAM_FUNC: (&str, &str) = (".param::func", "8.3");
const WEAK: (&str, &str) = (".weak", "6.0 sm_70");
const CLUSTER_SCOPE: (&str, &str) = ("scope=.cluster", "7.8 sm_90");
const HINT: (&str, &str) = (".L2::cache_hint", "7.4 sm_80");
const L2_256B: (&str, &str) = (".L2::256B", "7.4 sm_80");
const V8: (&str, &str) = (".v8", "8.8 sm_100");
const CA: (&str, &str) = (".ca", "2.0 sm_20");
const CG: (&str, &str) = (".cg", "2.0 sm_20");
const CS: (&str, &str) = (".cs", "2.0 sm_20");
const LU: (&str, &str) = (".lu", "2.0 sm_20");
const CV: (&str, &str) = (".cv", "2.0 sm_20");

// ---- helpers for rules ----

// ---- rules ----

const SYNC_SPACE: Rule = Rule::illegal(
    "The qualifiers .volatile, .relaxed and .acquire may be used only with .global and .shared spaces and with generic addressing",
    |b| b.get("ss").is_some_and(|s| s != ".global" && !s.starts_with(".shared")),
);
const V8_TYPE: Rule = Rule::illegal(
    "The .v8 (.vec) qualifier is supported if .type is .b32 or .s32 or .u32 or .f32",
    |b| b.is("vec", ".v8") && bits(b) != 32,
);
const PREFETCH_SPACE: Rule = Rule::illegal(
    "The qualifier .level::prefetch_size may only be used with .global state space and with generic addressing",
    |b| b.get("level::prefetch_size").is_some() && ss_not_global(b),
);
const HINT_SPACE: Rule = Rule::illegal(
    "The qualifiers .unified and .level::cache_hint are only supported for .global state space and for generic addressing",
    |b| b.has(".L2::cache_hint") && ss_not_global(b),
);
const PREFETCH_NEEDS: Rule = Rule::needs(
    "Support for .level::prefetch_size introduced in PTX ISA version 7.4; requires sm_75 or higher",
    "7.4 sm_75",
    |b| b.get("level::prefetch_size").is_some(),
);
// ---- ld.global.nc (9.7.9.9) ----

const NC_COP: &str = ".cop = { .ca, .cg, .cs }";
const NC_L1_NEEDS: Rule = Rule::needs(
    "Support for .level1::eviction_priority introduced in PTX ISA version 7.4; requires sm_70 or higher",
    "7.4 sm_70",
    has_l1,
);

// ---- ldu (9.7.9.10) ----

const LDU_VEC: &str = ".vec = { .v2, .v4 }";
const LDU_WIDE: Rule = Rule::illegal(
    "ldu's .vec is { .v2, .v4 }; the 256-bit .v4 of 64-bit types and .b128 vectors are ld/st-only extensions (9.7.9.8)",
    |b| b.get("vec").is_some() && (b.is("type", ".b128") || is_v4_64(b)),
);

pub static ROWS: &[Row] = &[
    // ld{.weak}{.ss}{.cop}{.level::cache_hint}{.level::prefetch_size}{.vec}.type d, [a]{.unified}{, cache-policy};
    Row {
        instr: "ld",
        id: "ld.weak.cop",
        section: "9.7.9.8",
        syntax: "ld{.weak}{.ss}{.cop}{.level::cache_hint}{.level::prefetch_size}.type",
        operands: OPS,
        sets: &[SS, COP, CACHE_HINT, PREFETCH, TYPE],
        since: "1.0",
        needs: &[
            F64, B128, SHARED_CTA, SHARED_CLUSTER, PARAM_ENTRY, PARAM_FUNC, WEAK, HINT, L2_256B, CA, CG, CS, LU, CV,
        ],
        rules: &[PREFETCH_SPACE, HINT_SPACE, GENERIC, PREFETCH_NEEDS],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    Row {
        instr: "ld",
        id: "ld.weak.cop.vec",
        section: "9.7.9.8",
        syntax: "ld{.weak}{.ss}{.cop}{.level::cache_hint}{.level::prefetch_size}.vec.type",
        operands: OPS_VEC,
        sets: &[SS, COP, CACHE_HINT, PREFETCH, VEC, TYPE],
        since: "1.0",
        needs: &[
            F64, B128, SHARED_CTA, SHARED_CLUSTER, PARAM_ENTRY, PARAM_FUNC, WEAK, HINT, L2_256B, V8, CA, CG, CS, LU, CV,
        ],
        rules: &[
            V8_TYPE,
            V8_SPACE,
            V4_64_SPACE,
            VEC_B128,
            PREFETCH_SPACE,
            HINT_SPACE,
            GENERIC,
            PREFETCH_NEEDS,
            V4_64_NEEDS,
        ],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // ld{.weak}{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.level::prefetch_size}{.vec}.type d, [a]{.unified}{, cache-policy};
    Row {
        instr: "ld",
        id: "ld.weak.evict",
        section: "9.7.9.8",
        syntax: "ld{.weak}{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.level::prefetch_size}.type",
        operands: OPS,
        sets: &[SS, L1_EVICT, L2_EVICT, CACHE_HINT, PREFETCH, TYPE],
        since: "1.0",
        needs: &[F64, B128, SHARED_CTA, SHARED_CLUSTER, PARAM_ENTRY, PARAM_FUNC, WEAK, HINT, L2_256B],
        rules: &[
            L2_EVICT_SHAPE,
            EVICT_SPACE,
            PREFETCH_SPACE,
            HINT_SPACE,
            GENERIC,
            L1_NEEDS,
            L2_NEEDS,
            PREFETCH_NEEDS,
        ],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    Row {
        instr: "ld",
        id: "ld.weak.evict.vec",
        section: "9.7.9.8",
        syntax: "ld{.weak}{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.level::prefetch_size}.vec.type",
        operands: OPS_VEC,
        sets: &[SS, L1_EVICT, L2_EVICT, CACHE_HINT, PREFETCH, VEC, TYPE],
        since: "1.0",
        needs: &[F64, B128, SHARED_CTA, SHARED_CLUSTER, PARAM_ENTRY, PARAM_FUNC, WEAK, HINT, L2_256B, V8],
        rules: &[
            V8_TYPE,
            V8_SPACE,
            V4_64_SPACE,
            VEC_B128,
            L2_EVICT_SHAPE,
            EVICT_SPACE,
            PREFETCH_SPACE,
            HINT_SPACE,
            GENERIC,
            L1_NEEDS,
            L2_NEEDS,
            PREFETCH_NEEDS,
            V4_64_NEEDS,
        ],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // ld.volatile{.ss}{.level::prefetch_size}{.vec}.type d, [a];
    Row {
        instr: "ld",
        id: "ld.volatile",
        section: "9.7.9.8",
        syntax: "ld.volatile{.ss}{.level::prefetch_size}.type",
        operands: OPS_PLAIN,
        sets: &[SS, PREFETCH, TYPE],
        since: "1.1",
        needs: &[F64, B128, SHARED_CTA, SHARED_CLUSTER, PARAM_ENTRY, PARAM_FUNC, L2_256B],
        rules: &[SYNC_SPACE, PREFETCH_SPACE, GENERIC, PREFETCH_NEEDS],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    Row {
        instr: "ld",
        id: "ld.volatile.vec",
        section: "9.7.9.8",
        syntax: "ld.volatile{.ss}{.level::prefetch_size}.vec.type",
        operands: OPS_PLAIN_VEC,
        sets: &[SS, PREFETCH, VEC, TYPE],
        since: "1.1",
        needs: &[F64, B128, SHARED_CTA, SHARED_CLUSTER, PARAM_ENTRY, PARAM_FUNC, L2_256B, V8],
        rules: &[
            SYNC_SPACE,
            V8_TYPE,
            V8_SPACE,
            V4_64_SPACE,
            VEC_B128,
            PREFETCH_SPACE,
            GENERIC,
            PREFETCH_NEEDS,
            V4_64_NEEDS,
        ],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // ld.relaxed.scope{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.level::prefetch_size}{.vec}.type d, [a]{, cache-policy};
    Row {
        instr: "ld",
        id: "ld.relaxed",
        section: "9.7.9.8",
        syntax: "ld.relaxed.scope{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.level::prefetch_size}.type",
        operands: OPS,
        sets: &[SCOPE, SS, L1_EVICT, L2_EVICT, CACHE_HINT, PREFETCH, TYPE],
        since: "6.0 sm_70",
        needs: &[F64, B128, SHARED_CTA, SHARED_CLUSTER, PARAM_ENTRY, PARAM_FUNC, CLUSTER_SCOPE, HINT, L2_256B],
        rules: &[
            SYNC_SPACE,
            L2_EVICT_SHAPE,
            EVICT_SPACE,
            PREFETCH_SPACE,
            HINT_SPACE,
            GENERIC,
            L1_NEEDS,
            L2_NEEDS,
            PREFETCH_NEEDS,
            SYS_B128,
        ],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    Row {
        instr: "ld",
        id: "ld.relaxed.vec",
        section: "9.7.9.8",
        syntax: "ld.relaxed.scope{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.level::prefetch_size}.vec.type",
        operands: OPS_VEC,
        sets: &[SCOPE, SS, L1_EVICT, L2_EVICT, CACHE_HINT, PREFETCH, VEC, TYPE],
        since: "6.0 sm_70",
        needs: &[F64, B128, SHARED_CTA, SHARED_CLUSTER, PARAM_ENTRY, PARAM_FUNC, CLUSTER_SCOPE, HINT, L2_256B, V8],
        rules: &[
            SYNC_SPACE,
            V8_TYPE,
            V8_SPACE,
            V4_64_SPACE,
            VEC_B128,
            L2_EVICT_SHAPE,
            EVICT_SPACE,
            PREFETCH_SPACE,
            HINT_SPACE,
            GENERIC,
            L1_NEEDS,
            L2_NEEDS,
            PREFETCH_NEEDS,
            V4_64_NEEDS,
        ],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // ld.acquire.scope{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.level::prefetch_size}{.vec}.type d, [a]{, cache-policy};
    Row {
        instr: "ld",
        id: "ld.acquire",
        section: "9.7.9.8",
        syntax: "ld.acquire.scope{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.level::prefetch_size}.type",
        operands: OPS,
        sets: &[SCOPE, SS, L1_EVICT, L2_EVICT, CACHE_HINT, PREFETCH, TYPE],
        since: "6.0 sm_70",
        needs: &[F64, B128, SHARED_CTA, SHARED_CLUSTER, PARAM_ENTRY, PARAM_FUNC, CLUSTER_SCOPE, HINT, L2_256B],
        rules: &[
            SYNC_SPACE,
            L2_EVICT_SHAPE,
            EVICT_SPACE,
            PREFETCH_SPACE,
            HINT_SPACE,
            GENERIC,
            L1_NEEDS,
            L2_NEEDS,
            PREFETCH_NEEDS,
            SYS_B128,
        ],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    Row {
        instr: "ld",
        id: "ld.acquire.vec",
        section: "9.7.9.8",
        syntax: "ld.acquire.scope{.ss}{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.level::prefetch_size}.vec.type",
        operands: OPS_VEC,
        sets: &[SCOPE, SS, L1_EVICT, L2_EVICT, CACHE_HINT, PREFETCH, VEC, TYPE],
        since: "6.0 sm_70",
        needs: &[F64, B128, SHARED_CTA, SHARED_CLUSTER, PARAM_ENTRY, PARAM_FUNC, CLUSTER_SCOPE, HINT, L2_256B, V8],
        rules: &[
            SYNC_SPACE,
            V8_TYPE,
            V8_SPACE,
            V4_64_SPACE,
            VEC_B128,
            L2_EVICT_SHAPE,
            EVICT_SPACE,
            PREFETCH_SPACE,
            HINT_SPACE,
            GENERIC,
            L1_NEEDS,
            L2_NEEDS,
            PREFETCH_NEEDS,
            V4_64_NEEDS,
        ],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // ld.mmio.relaxed.sys{.global}.type d, [a];
    Row {
        instr: "ld",
        id: "ld.mmio",
        section: "9.7.9.8",
        syntax: "ld.mmio.relaxed.sys{.global}.type",
        operands: OPS_PLAIN,
        sets: &[TYPE],
        since: "8.2 sm_70",
        needs: &[F64, B128, (".b128", "8.4")],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // ---- ld.global.nc (9.7.9.9) ----
    // ld.global{.cop}.nc{.level::cache_hint}{.level::prefetch_size}.type d, [a]{, cache-policy};
    Row {
        instr: "ld.global.nc",
        id: "ld.global.nc.cop",
        section: "9.7.9.9",
        syntax: "ld.global{.cop}.nc{.level::cache_hint}{.level::prefetch_size}.type",
        operands: OPS,
        sets: &[NC_COP, CACHE_HINT, PREFETCH, TYPE],
        since: "3.1 sm_32",
        needs: &[F64, B128, HINT],
        rules: &[PREFETCH_NEEDS],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // ld.global{.cop}.nc{.level::cache_hint}{.level::prefetch_size}.vec.type d, [a]{, cache-policy};
    Row {
        instr: "ld.global.nc",
        id: "ld.global.nc.cop.vec",
        section: "9.7.9.9",
        syntax: "ld.global{.cop}.nc{.level::cache_hint}{.level::prefetch_size}.vec.type",
        operands: OPS_VEC,
        sets: &[NC_COP, CACHE_HINT, PREFETCH, VEC, TYPE],
        since: "3.1 sm_32",
        needs: &[F64, B128, HINT, V8],
        rules: &[V8_TYPE, VEC_B128, PREFETCH_NEEDS, V4_64_NEEDS],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // ld.global.nc{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.level::prefetch_size}.type d, [a]{, cache-policy};
    Row {
        instr: "ld.global.nc",
        id: "ld.global.nc.evict",
        section: "9.7.9.9",
        syntax: "ld.global.nc{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.level::prefetch_size}.type",
        operands: OPS,
        sets: &[L1_EVICT, L2_EVICT, CACHE_HINT, PREFETCH, TYPE],
        since: "3.1 sm_32",
        needs: &[F64, B128, HINT],
        rules: &[L2_EVICT_SHAPE, NC_L1_NEEDS, L2_NEEDS, PREFETCH_NEEDS],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // ld.global.nc{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.level::prefetch_size}.vec.type d, [a]{, cache-policy};
    Row {
        instr: "ld.global.nc",
        id: "ld.global.nc.evict.vec",
        section: "9.7.9.9",
        syntax: "ld.global.nc{.level1::eviction_priority}{.level2::eviction_priority}{.level::cache_hint}{.level::prefetch_size}.vec.type",
        operands: OPS_VEC,
        sets: &[L1_EVICT, L2_EVICT, CACHE_HINT, PREFETCH, VEC, TYPE],
        since: "3.1 sm_32",
        needs: &[F64, B128, HINT, V8],
        rules: &[V8_TYPE, VEC_B128, L2_EVICT_SHAPE, NC_L1_NEEDS, L2_NEEDS, PREFETCH_NEEDS, V4_64_NEEDS],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // ---- ldu (9.7.9.10) ----
    // ldu{.ss}.type d, [a];
    Row {
        instr: "ldu",
        id: "ldu",
        section: "9.7.9.10",
        syntax: "ldu{.ss}.type",
        operands: OPS_PLAIN,
        sets: &[".ss = { .global }", TYPE],
        since: "2.0",
        needs: &[F64, B128],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
    // ldu{.ss}.vec.type d, [a];
    Row {
        instr: "ldu",
        id: "ldu.vec",
        section: "9.7.9.10",
        syntax: "ldu{.ss}.vec.type",
        operands: OPS_PLAIN_VEC,
        sets: &[".ss = { .global }", LDU_VEC, TYPE],
        since: "2.0",
        needs: &[F64, B128],
        rules: &[LDU_WIDE],
        fit: Fit::Relaxed,
        ..Row::BASE
    },
];

#[cfg(test)]
mod tests {
    use super::super::testing::{bad, ok};
    use crate::catalogue::Catalogue;

    fn row_of(text: &str) -> &'static str {
        Catalogue::get()
            .resolve_text(text)
            .map(|b| b.form.row.instr)
            .unwrap_or("none")
    }

    /// The single-instruction lines of the Examples blocks of 9.7.9.8 to
    /// 9.7.9.10.
    #[test]
    fn spec_examples_resolve() {
        for text in [
            // 9.7.9.8
            "ld.global.f32",
            "ld.shared.v4.b32",
            "ld.const.s32",
            "ld.local.b32",
            "ld.local.b64",
            "ld.global.b16",
            "ld.global.b32",
            "ld.global.relaxed.gpu.u32",
            "ld.shared.acquire.gpu.u32",
            "ld.global.relaxed.cluster.u32",
            "ld.shared::cta.acquire.gpu.u32",
            "ld.shared::cluster.u32",
            "ld.global.mmio.relaxed.sys.u32",
            "ld.b32",
            "ld.global.L1::evict_last.u32",
            "ld.global.L2::64B.b32",
            "ld.L2::128B.f64",
            "ld.global.L2::256B.f64",
            "ld.global.L2::cache_hint.b64",
            "ld.param::entry.b32",
            "ld.global.b128",
            "ld.global.L2::evict_last.v8.f32",
            "ld.global.L2::evict_last.L1::evict_last.v4.u64",
            // 9.7.9.9 (`ld.gloal.nc...` is a typo of the spec for `ld.global.nc`)
            "ld.global.nc.f32",
            "ld.global.nc.L1::evict_last.u32",
            "ld.global.nc.L2::cache_hint.f32",
            "ld.global.nc.L2::64B.b32",
            "ld.global.nc.L2::256B.f64",
            "ld.global.nc.b128",
            "ld.global.nc.L2::evict_first.v4.f64",
            // 9.7.9.10
            "ldu.global.f32",
            "ldu.global.b32",
            "ldu.global.v4.f32",
            "ldu.global.b128",
        ] {
            ok(text);
        }
    }

    #[test]
    fn syntax_block_forms_resolve() {
        for text in [
            "ld.mmio.relaxed.sys.global.u32",
            "ld.mmio.relaxed.sys.b64",
            "ld.volatile.global.v2.u32",
            "ld.weak.global.cg.L2::cache_hint.L2::128B.v2.f32",
            "ld.relaxed.sys.global.L1::evict_first.L2::cache_hint.b128",
            "ld.acquire.cluster.shared::cluster.u64",
            "ld.global.v4.b64",
            "ld.v8.b32",
            "ld.global.ca.nc.L2::cache_hint.v2.f32",
        ] {
            ok(text);
        }
        assert_eq!(row_of("ld.global.nc.f32"), "ld.global.nc");
        assert_eq!(row_of("ld.global.f32"), "ld");
    }

    #[test]
    fn spec_rules_reject() {
        for text in [
            // .weak, .volatile, .relaxed and .acquire are mutually exclusive
            "ld.weak.relaxed.gpu.global.u32",
            "ld.volatile.acquire.gpu.u32",
            // .relaxed/.acquire need a scope
            "ld.relaxed.global.u32",
            // only .global and .shared with .volatile/.relaxed/.acquire
            "ld.volatile.local.u32",
            "ld.relaxed.gpu.const.u32",
            "ld.acquire.sys.param.u32",
            // cache operations are not permitted with these qualifiers
            "ld.volatile.global.ca.u32",
            "ld.relaxed.gpu.global.cg.u32",
            // .v8 only with 32-bit types, and only .global/generic
            "ld.global.v8.b64",
            "ld.global.v8.u16",
            "ld.shared.v8.b32",
            "ld.shared.v4.b64",
            // .level2::eviction_priority needs .v8 of 32-bit or .v4 of 64-bit
            "ld.global.L2::evict_last.u32",
            "ld.global.L2::evict_last.v4.u32",
            // .level::prefetch_size and .level::cache_hint only with .global
            "ld.shared.L2::64B.b32",
            "ld.local.L2::cache_hint.b32",
            // only .sys scope for .mmio; .mmio only with .global
            "ld.mmio.relaxed.gpu.u32",
            "ld.mmio.relaxed.sys.shared.u32",
            // .cop and eviction priorities are separate forms
            "ld.global.ca.L1::evict_last.u32",
            // no .f16 type, no .v3
            "ld.global.f16",
            "ld.global.v3.u32",
            // ld.global.nc: only .ca .cg .cs, and .global
            "ld.global.lu.nc.u32",
            "ld.shared.nc.u32",
            "ld.global.nc.v8.b64",
            // ldu: only .global, .v2/.v4
            "ldu.shared.u32",
            "ldu.global.v8.b32",
        ] {
            bad(text);
        }
    }
}
