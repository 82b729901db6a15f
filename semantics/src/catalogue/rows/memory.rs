//! Rules shared by the load and store families (`ld`, 9.7.9.8, and `st`,
//! 9.7.9.11, whose vector, eviction-priority and cache-hint notes are word
//! for word the same).

use crate::catalogue::{Binding, Rule};

pub(super) fn bits(b: &Binding) -> u32 {
    b.ty("type").map_or(0, |t| t.bits)
}

/// A state space is named and it is not `.global`.
pub(super) fn ss_not_global(b: &Binding) -> bool {
    b.get("ss").is_some_and(|s| s != ".global")
}

pub(super) fn has_l1(b: &Binding) -> bool {
    b.get("level1::eviction_priority").is_some()
}

pub(super) fn has_l2(b: &Binding) -> bool {
    b.get("level2::eviction_priority").is_some()
}

pub(super) fn is_v8_32(b: &Binding) -> bool {
    b.is("vec", ".v8") && bits(b) == 32
}

pub(super) fn is_v4_64(b: &Binding) -> bool {
    b.is("vec", ".v4") && bits(b) == 64
}

pub(super) const V8_SPACE: Rule = Rule::illegal(
    "The .v8 (.vec) qualifier is supported if state space is .global or with generic addressing",
    |b| b.is("vec", ".v8") && ss_not_global(b),
);

pub(super) const V4_64_SPACE: Rule = Rule::illegal(
    "The .v4 (.vec) qualifier with type .b64 or .s64 or .u64 or .f64 is supported if state space is .global or with generic addressing",
    |b| is_v4_64(b) && ss_not_global(b),
);

pub(super) const VEC_B128: Rule = Rule::illegal(
    "the only vector forms wider than 128 bits are .v8 of 32-bit types and .v4 of 64-bit types; .b128 is never a vector element",
    |b| b.get("vec").is_some() && b.is("type", ".b128"),
);

pub(super) const L2_EVICT_SHAPE: Rule = Rule::illegal(
    "Qualifier .level2::eviction_priority is supported if .vec is .v8 and .type is a 32-bit type OR .vec is .v4 and .type is a 64-bit type",
    |b| has_l2(b) && !(is_v8_32(b) || is_v4_64(b)),
);

pub(super) const EVICT_SPACE: Rule = Rule::illegal(
    "Cache eviction priority is supported for .global state space and generic addresses (9.7.9.2)",
    |b| (has_l1(b) || has_l2(b)) && ss_not_global(b),
);

pub(super) const GENERIC: Rule = Rule::needs(
    "Generic addressing introduced in PTX ISA version 2.0; requires sm_20 or higher",
    "2.0 sm_20",
    |b| b.get("ss").is_none(),
);

pub(super) const L1_NEEDS: Rule = Rule::needs(
    "Support for .level1::eviction_priority introduced in PTX ISA version 7.4; requires sm_70 or higher",
    "7.4 sm_70",
    has_l1,
);

pub(super) const L2_NEEDS: Rule = Rule::needs(
    "Support for .level2::eviction_priority qualifier introduced in PTX ISA version 8.8; requires sm_100 or higher",
    "8.8 sm_100",
    has_l2,
);

pub(super) const V4_64_NEEDS: Rule = Rule::needs(
    "Support for .v8.b32/.v4.b64 introduced in PTX ISA version 8.8; requires sm_100 or higher",
    "8.8 sm_100",
    is_v4_64,
);

pub(super) const SYS_B128: Rule = Rule::needs(
    "Support for .sys scope with .b128 type introduced in PTX ISA version 8.4",
    "8.4",
    |b| b.is("scope", ".sys") && b.is("type", ".b128"),
);
