//! The preconditions of PTX ISA 9.7.9's forms, each with the sentence of
//! the spec it comes from, and which catalogue rows they belong to.
//!
//! Selection functions ([`cvta`], [`mapa_address`], ...) say which
//! preconditions an executed instruction must meet; the simulator and the
//! symbolic executor of `ptx-ub` both call them, in the order listed (the
//! first one broken is the one reported).

use super::{Cond, Field, Term, Var};
use crate::sim::space::Space;
use crate::sim::undefined::{Effect, Undefined};

/// One rule of the spec: when `holds` is false the instruction's behaviour
/// (or result, by `effect`) is undefined.
#[derive(Debug, PartialEq, Eq)]
pub struct Precondition {
    /// A short unique name (`cvta.to.shared::cta`).
    pub id: &'static str,
    /// The PTX ISA section (`9.7.9.20`).
    pub section: &'static str,
    /// The spec's sentence, quoted.
    pub rule: &'static str,
    pub effect: Effect,
    pub holds: Cond,
}

impl Precondition {
    /// What the simulator reports when the precondition does not hold.
    pub const fn undefined(&self) -> Undefined {
        Undefined {
            section: self.section,
            rule: self.rule,
            effect: self.effect,
        }
    }
}

const A: Term = Term::Var(Var::A);
const B: Term = Term::Var(Var::B);
const ADDR: Term = Term::Var(Var::Addr);
const ADDR2: Term = Term::Var(Var::Addr2);
const MBAR: Term = Term::Var(Var::Mbar);
const MAP: Term = Term::Var(Var::Map);
const CTA_MASK: Term = Term::Var(Var::CtaMask);
const SIZE: Term = Term::Var(Var::Size);
const CP_SIZE: Term = Term::Var(Var::CpSize);
const SRC_SIZE: Term = Term::Var(Var::SrcSize);
const MASK: Term = Term::Var(Var::Mask);
const LANE: Term = Term::Var(Var::Lane);
const RANK: Term = Term::Var(Var::Rank);
const NRANK: Term = Term::Var(Var::ClusterSize);
const PARAM_BYTES: Term = Term::Var(Var::ParamBytes);
const CONST_BYTES: Term = Term::Var(Var::ConstBytes);
const SHARED_BASE: Term = Term::Profile(Field::SharedBase);
const SHARED_SIZE: Term = Term::Profile(Field::SharedSize);
const RANK_SHIFT: Term = Term::Profile(Field::RankShift);
const LOCAL_SIZE: Term = Term::Profile(Field::LocalSize);
const PARAM_BASE: Term = Term::Profile(Field::ParamBase);
const CONST_BASE: Term = Term::Profile(Field::ConstBase);

/// Shared-space address `x` lies in the part of a CTA of the cluster.
macro_rules! in_cluster_part {
    ($x:expr) => {
        Cond::All(&[
            Cond::Ult(&$x, &SHARED_SIZE),
            Cond::Ult(&Term::Shr(&$x, &RANK_SHIFT), &NRANK),
        ])
    };
}

/// Generic address `a` lies in the shared window, in the part of a CTA of
/// the cluster.
const GENERIC_A_IN_CLUSTER: Cond = Cond::All(&[
    Cond::InSpace(Space::SharedCluster, &A),
    Cond::Ult(
        &Term::Shr(&Term::Sub(&A, &SHARED_BASE), &RANK_SHIFT),
        &NRANK,
    ),
]);

// ---- cvta (PTX ISA 9.7.9.20) -------------------------------------------

const CVTA_TO_WINDOW: &str = "When converting a generic address into a const, Kernel Function Parameters (.param), global, local, or shared address, the resulting address is undefined in cases where the generic address does not fall within the address window of the specified state space";
const CVTA_SHARED: &str = "For cvta with .shared state space, the address must belong to the space specified by ::cta or ::cluster sub-qualifier, otherwise the behavior is undefined";
const CVTA_PARAM: &str = "For .param{::entry} state space, operand a must be a kernel parameter address, otherwise behavior is undefined";
const CVTA_NOT_OF_SPACE: &str = "cvta converts a const, global, local or shared address to a generic address; the operand is not an address of the space (it lies outside the space's window)";

pub static CVTA_TO_GLOBAL: Precondition = Precondition {
    id: "cvta.to.global",
    section: "9.7.9.20",
    rule: CVTA_TO_WINDOW,
    effect: Effect::Result,
    holds: Cond::InSpace(Space::Global, &A),
};
pub static CVTA_TO_LOCAL: Precondition = Precondition {
    id: "cvta.to.local",
    section: "9.7.9.20",
    rule: CVTA_TO_WINDOW,
    effect: Effect::Result,
    holds: Cond::InSpace(Space::Local, &A),
};
pub static CVTA_TO_CONST: Precondition = Precondition {
    id: "cvta.to.const",
    section: "9.7.9.20",
    rule: CVTA_TO_WINDOW,
    effect: Effect::Result,
    holds: Cond::InSpace(Space::Const, &A),
};
pub static CVTA_TO_SHARED_CTA: Precondition = Precondition {
    id: "cvta.to.shared::cta",
    section: "9.7.9.20",
    rule: CVTA_SHARED,
    effect: Effect::Behaviour,
    holds: Cond::InSpace(Space::SharedCta, &A),
};
pub static CVTA_TO_SHARED_CLUSTER: Precondition = Precondition {
    id: "cvta.to.shared::cluster",
    section: "9.7.9.20",
    rule: CVTA_SHARED,
    effect: Effect::Behaviour,
    holds: GENERIC_A_IN_CLUSTER,
};
pub static CVTA_TO_PARAM: Precondition = Precondition {
    id: "cvta.to.param::entry",
    section: "9.7.9.20",
    rule: CVTA_PARAM,
    effect: Effect::Behaviour,
    holds: Cond::Ult(&Term::Sub(&A, &PARAM_BASE), &PARAM_BYTES),
};
pub static CVTA_SHARED_CTA: Precondition = Precondition {
    id: "cvta.shared::cta",
    section: "9.7.9.20",
    rule: CVTA_SHARED,
    effect: Effect::Behaviour,
    holds: Cond::Eq(&Term::Shr(&A, &RANK_SHIFT), &RANK),
};
pub static CVTA_SHARED_CLUSTER: Precondition = Precondition {
    id: "cvta.shared::cluster",
    section: "9.7.9.20",
    rule: CVTA_SHARED,
    effect: Effect::Behaviour,
    holds: in_cluster_part!(A),
};
pub static CVTA_LOCAL: Precondition = Precondition {
    id: "cvta.local",
    section: "9.7.9.20",
    rule: CVTA_NOT_OF_SPACE,
    effect: Effect::Result,
    holds: Cond::Ult(&A, &LOCAL_SIZE),
};
pub static CVTA_CONST: Precondition = Precondition {
    id: "cvta.const",
    section: "9.7.9.20",
    rule: CVTA_NOT_OF_SPACE,
    effect: Effect::Result,
    holds: Cond::Ult(&A, &CONST_BYTES),
};
pub static CVTA_PARAM_ENTRY: Precondition = Precondition {
    id: "cvta.param::entry",
    section: "9.7.9.20",
    rule: CVTA_PARAM,
    effect: Effect::Behaviour,
    holds: Cond::Ult(&A, &PARAM_BYTES),
};
pub static CVTA_SPACE: Precondition = Precondition {
    id: "cvta.space",
    section: "9.7.9.20",
    rule: ".space = { .const, .global, .local, .shared{::cta, ::cluster}, .param{::entry} }",
    effect: Effect::Behaviour,
    holds: Cond::Not(&Cond::True),
};

/// The precondition of `cvta.space` (`to: false`) or `cvta.to.space`
/// (`to: true`); `None` where there is none (`cvta.global`).
pub fn cvta(space: Space, to: bool) -> Option<&'static Precondition> {
    Some(match (space, to) {
        (Space::Global, true) => &CVTA_TO_GLOBAL,
        (Space::Local, true) => &CVTA_TO_LOCAL,
        (Space::Const, true) => &CVTA_TO_CONST,
        (Space::SharedCta, true) => &CVTA_TO_SHARED_CTA,
        (Space::SharedCluster, true) => &CVTA_TO_SHARED_CLUSTER,
        (Space::ParamEntry, true) => &CVTA_TO_PARAM,
        (Space::Global, false) => return None,
        (Space::Local, false) => &CVTA_LOCAL,
        (Space::Const, false) => &CVTA_CONST,
        (Space::SharedCta, false) => &CVTA_SHARED_CTA,
        (Space::SharedCluster, false) => &CVTA_SHARED_CLUSTER,
        (Space::ParamEntry, false) => &CVTA_PARAM_ENTRY,
        (Space::ParamFunc | Space::Generic, _) => &CVTA_SPACE,
    })
}

// ---- mapa, getctarank (PTX ISA 9.7.9.23, 9.7.9.24) -----------------------

pub static MAPA_RANK: Precondition = Precondition {
    id: "mapa.rank",
    section: "9.7.9.23",
    rule: "`b` is a 32-bit integer operand representing the rank of the target CTA: a rank outside the cluster names no CTA",
    effect: Effect::Behaviour,
    holds: Cond::Ult(&B, &NRANK),
};
const MAPA_SOURCE: &str = "source `a` is either a shared memory variable or a register containing a valid shared memory address (generic form: a generic address pointing to shared memory)";
pub static MAPA_ADDRESS: Precondition = Precondition {
    id: "mapa.address",
    section: "9.7.9.23",
    rule: MAPA_SOURCE,
    effect: Effect::Behaviour,
    holds: in_cluster_part!(A),
};
pub static MAPA_GENERIC_ADDRESS: Precondition = Precondition {
    id: "mapa.generic-address",
    section: "9.7.9.23",
    rule: MAPA_SOURCE,
    effect: Effect::Behaviour,
    holds: GENERIC_A_IN_CLUSTER,
};
pub static GETCTARANK_ADDRESS: Precondition = Precondition {
    id: "getctarank.address",
    section: "9.7.9.24",
    rule: MAPA_SOURCE,
    effect: Effect::Behaviour,
    holds: in_cluster_part!(A),
};
pub static GETCTARANK_GENERIC_ADDRESS: Precondition = Precondition {
    id: "getctarank.generic-address",
    section: "9.7.9.24",
    rule: MAPA_SOURCE,
    effect: Effect::Behaviour,
    holds: GENERIC_A_IN_CLUSTER,
};

/// `mapa`'s preconditions, in the order they are checked.
pub fn mapa(generic: bool) -> [&'static Precondition; 2] {
    [
        &MAPA_RANK,
        if generic {
            &MAPA_GENERIC_ADDRESS
        } else {
            &MAPA_ADDRESS
        },
    ]
}

pub fn getctarank(generic: bool) -> &'static Precondition {
    if generic {
        &GETCTARANK_GENERIC_ADDRESS
    } else {
        &GETCTARANK_ADDRESS
    }
}

// ---- memory accesses (PTX ISA 6.4.1, 9.7.9.8) ---------------------------

pub static ALIGNED: Precondition = Precondition {
    id: "access.aligned",
    section: "6.4.1",
    rule: "The address must be naturally aligned to a multiple of the access size. If an address is not properly aligned, the resulting behavior is undefined",
    effect: Effect::Behaviour,
    holds: Cond::Aligned(&ADDR, &SIZE),
};
pub static LD_PARAM_ENTRY: Precondition = Precondition {
    id: "ld.param::entry",
    section: "9.7.9.8",
    rule: "For ld.param::entry instruction, operand a must be a kernel parameter address, otherwise behavior is undefined",
    effect: Effect::Behaviour,
    holds: Cond::All(&[
        Cond::Ult(&ADDR, &PARAM_BYTES),
        Cond::Ule(&SIZE, &Term::Sub(&PARAM_BYTES, &ADDR)),
    ]),
};

/// A generic address that "points to .global state space": the global
/// window or the const window (the const bank is global memory the module
/// owns; the windows say `isspacep.global` is 0 there).
const GENERIC_POINTS_TO_GLOBAL: Cond = Cond::Any(&[
    Cond::InSpace(Space::Global, &ADDR),
    Cond::InSpace(Space::Const, &ADDR),
]);

macro_rules! global_only {
    ($name:ident, $id:literal, $section:literal, $rule:literal) => {
        pub static $name: Precondition = Precondition {
            id: $id,
            section: $section,
            rule: $rule,
            effect: Effect::Behaviour,
            holds: GENERIC_POINTS_TO_GLOBAL,
        };
    };
}

global_only!(HINT_GLOBAL, "access.cache_hint.global", "9.7.9.8",
    "The qualifiers .unified and .level::cache_hint are only supported for .global state space and for generic addressing where the address points to the .global state space");
global_only!(PREFETCH_GLOBAL, "access.prefetch_size.global", "9.7.9.8",
    "The qualifier .level::prefetch_size may only be used with .global state space and with generic addressing where the address points to .global state space. If the generic address does not fall within the address window of the global memory, then the prefetching behavior is undefined");
global_only!(EVICT_GLOBAL, "access.eviction_priority.global", "9.7.9.8",
    "Cache eviction priority ... is supported for .global state space and generic addresses where the address points to .global state space (9.7.9.2)");
global_only!(WIDE_GLOBAL, "access.wide.global", "9.7.9.8",
    "The .v8 (.vec) qualifier [and .v4 with 64-bit types] is supported if state space is .global or with generic addressing where address points to .global state space");
global_only!(
    NC_GLOBAL,
    "ld.global.nc.global",
    "9.7.9.8",
    "The address operand a shall contain a global address (9.7.9.9)"
);
global_only!(LDU_GLOBAL, "ldu.global", "9.7.9.8",
    "Load read-only data into register variable d from the location specified by the source address operand a in the global state space (9.7.9.10)");

// ---- shfl.sync (PTX ISA 9.7.9.6) ----------------------------------------

pub static SHFL_MEMBER: Precondition = Precondition {
    id: "shfl.sync.membermask",
    section: "9.7.9.6",
    rule: "The behavior of shfl.sync is undefined if the executing thread is not in the membermask",
    effect: Effect::Behaviour,
    holds: Cond::Bit(&MASK, &LANE),
};

// ---- integer arithmetic (PTX ISA 9.7.1) ----------------------------------

/// `fns.b32 d, mask, base, offset` (PTX ISA 9.7.1.17): `b` is `base`.
pub static FNS_BASE: Precondition = Precondition {
    id: "fns.base",
    section: "9.7.1.17",
    rule: "fns: Operand base must be <= 31, otherwise behavior is undefined",
    effect: Effect::Behaviour,
    holds: Cond::Ult(&B, &Term::Lit(32)),
};

// ---- atom, red (PTX ISA 9.7.13.5, 9.7.13.6) -----------------------------

/// A generic address in the global or the shared window (`isspacep.global`
/// or `isspacep.shared::cluster`).
const GENERIC_GLOBAL_OR_SHARED: Cond = Cond::Any(&[
    Cond::InSpace(Space::Global, &ADDR),
    Cond::InSpace(Space::SharedCluster, &ADDR),
]);

pub static ATOM_GENERIC_SPACE: Precondition = Precondition {
    id: "atom.generic.global-or-shared",
    section: "9.7.13.5",
    rule: "atom with scalar type may be used only with .global and .shared spaces and with generic addressing, where the address points to .global or .shared space",
    effect: Effect::Behaviour,
    holds: GENERIC_GLOBAL_OR_SHARED,
};
pub static RED_GENERIC_SPACE: Precondition = Precondition {
    id: "red.generic.global-or-shared",
    section: "9.7.13.6",
    rule: "red with scalar type may be used only with .global and .shared spaces and with generic addressing, where the address points to .global or .shared space",
    effect: Effect::Behaviour,
    holds: GENERIC_GLOBAL_OR_SHARED,
};

/// The preconditions of a scalar `atom` (`red: false`) or `red` (`red:
/// true`) with `addr` its effective address and `size` its element's
/// bytes, in the order checked: "Supported addressing modes for operand a
/// and alignment requirements are described in Addresses as Operands"
/// (6.4.1's natural alignment, [`ALIGNED`]), then, for a generic address,
/// the window it must point to, then `.level::cache_hint`'s rule
/// ([`HINT_GLOBAL`], "only supported for .global state space and for
/// generic addressing where the address points to the .global state
/// space"; `hint` when the instruction has it). The simulator checks the
/// first two before it resolves the location, the last after, as `ld`/`st`
/// check theirs.
pub fn atom(red: bool, generic: bool, hint: bool) -> Vec<&'static Precondition> {
    let mut out: Vec<&'static Precondition> = vec![&ALIGNED];
    if generic {
        out.push(if red {
            &RED_GENERIC_SPACE
        } else {
            &ATOM_GENERIC_SPACE
        });
        if hint {
            out.push(&HINT_GLOBAL);
        }
    }
    out
}

global_only!(ATOM_VECTOR_GLOBAL, "atom.vector.generic.global", "9.7.13.5",
    "atom with vector type may be used only with .global space and with generic addressing where the address points to .global space");
global_only!(RED_VECTOR_GLOBAL, "red.vector.generic.global", "9.7.13.6",
    "red with vector type may be used only with .global space and with generic addressing where the address points to .global space");

/// The preconditions of a vector `atom` (`red: false`) or `red` (`.v2`,
/// `.v4`, `.v8`; sm_90) with `addr` its effective address and `size` the
/// vector's bytes, in the order checked: the vector's natural alignment
/// ([`ALIGNED`]: "Supported addressing modes for operand a and alignment
/// requirements are described in Addresses as Operands", and 6.4.1: "The
/// address must be naturally aligned to a multiple of the access size",
/// the access being the whole vector, as for `ld`/`st`), then, for a generic
/// address, the global window ([`ATOM_VECTOR_GLOBAL`],
/// [`RED_VECTOR_GLOBAL`]) and the cache hint's rule ([`HINT_GLOBAL`],
/// with `hint`).
pub fn atom_vector(red: bool, generic: bool, hint: bool) -> Vec<&'static Precondition> {
    let mut out: Vec<&'static Precondition> = vec![&ALIGNED];
    if generic {
        out.push(if red {
            &RED_VECTOR_GLOBAL
        } else {
            &ATOM_VECTOR_GLOBAL
        });
        if hint {
            out.push(&HINT_GLOBAL);
        }
    }
    out
}

// ---- warp and CTA synchronisation (PTX ISA 9.7.13) ---------------------

macro_rules! member {
    ($name:ident, $id:literal, $section:literal, $rule:literal) => {
        /// `membermask` (`Var::Mask`, 32 bits) names the executing lane
        /// (`Var::Lane`).
        pub static $name: Precondition = Precondition {
            id: $id,
            section: $section,
            rule: $rule,
            effect: Effect::Behaviour,
            holds: Cond::Bit(&MASK, &LANE),
        };
    };
}

member!(
    BAR_WARP_SYNC_MEMBER,
    "bar.warp.sync.membermask",
    "9.7.13.2",
    "The behavior of bar.warp.sync is undefined if the executing thread is not in the membermask"
);
member!(
    VOTE_SYNC_MEMBER,
    "vote.sync.membermask",
    "9.7.13",
    "The behavior of vote.sync is undefined if the executing thread is not in the membermask"
);
member!(
    REDUX_SYNC_MEMBER,
    "redux.sync.membermask",
    "9.7.13",
    "The behavior of redux.sync is undefined if the executing thread is not in the membermask"
);
member!(
    ELECT_SYNC_MEMBER,
    "elect.sync.membermask",
    "9.7.13",
    "elect.sync: The behavior is undefined if the executing thread is not in membermask"
);

member!(
    MATCH_SYNC_MEMBER,
    "match.sync.membermask",
    "9.7.13",
    "The behavior of match.sync is undefined if the executing thread is not in the membermask"
);

/// The membermask rule of `vote.sync`, `redux.sync`, `elect.sync` or
/// `match.sync`.
pub fn warp_member(op: crate::sim::vote::WarpOp) -> &'static Precondition {
    use crate::sim::vote::WarpOp;
    match op {
        WarpOp::Vote(_) => &VOTE_SYNC_MEMBER,
        WarpOp::Redux(_) => &REDUX_SYNC_MEMBER,
        WarpOp::Elect => &ELECT_SYNC_MEMBER,
        WarpOp::Match { .. } => &MATCH_SYNC_MEMBER,
    }
}

/// `bar{.cta}.sync a{, b}` (PTX ISA 9.7.13.1): "Operand a specifies a
/// logical barrier resource as an immediate constant or register with value
/// 0 through 15. Operand b specifies the number of threads participating in
/// the barrier. ... When specifying a thread count, the value must be a
/// multiple of the warp size." The text says "must" without naming the
/// consequence; the simulator stops the thread (`a` the identifier, `b` the
/// count, 0 when absent).
pub static BAR_OPERANDS: Precondition = Precondition {
    id: "bar.id-and-count",
    section: "9.7.13.1",
    rule: "barrier identifiers are 0 to 15; a thread count must be a multiple of the warp size",
    effect: Effect::Behaviour,
    holds: Cond::All(&[
        Cond::Ult(&A, &Term::Lit(16)),
        Cond::Aligned(&B, &Term::Lit(32)),
    ]),
};

/// `bar{.cta}.arrive a, b` (PTX ISA 9.7.13.1): as [`BAR_OPERANDS`], and
/// "Note that a non-zero thread count is required for barrier{.cta}.arrive".
pub static BAR_ARRIVE_OPERANDS: Precondition = Precondition {
    id: "bar.arrive.id-and-count",
    section: "9.7.13.1",
    rule: "barrier identifiers are 0 to 15; a thread count must be a multiple of the warp size",
    effect: Effect::Behaviour,
    holds: Cond::All(&[
        Cond::Ult(&A, &Term::Lit(16)),
        Cond::Aligned(&B, &Term::Lit(32)),
        Cond::Not(&Cond::Eq(&B, &Term::Lit(0))),
    ]),
};

// ---- cp.async (PTX ISA 9.7.9.25.3.1) ------------------------------------

pub static CP_ASYNC_SRC_SIZE: Precondition = Precondition {
    id: "cp.async.src-size",
    section: "9.7.9.25.3.1",
    rule: "Specifying src-size larger than cp-size results in undefined behavior",
    effect: Effect::Behaviour,
    holds: Cond::Ule(&SRC_SIZE, &CP_SIZE),
};
pub static CP_ASYNC_DST_ALIGNED: Precondition = Precondition {
    id: "cp.async.dst.aligned",
    section: "6.4.1",
    rule: "Supported alignment requirements and addressing modes for operand src and dst are described in Addresses as Operands: the address must be naturally aligned to a multiple of the access size (cp-size), otherwise the behavior is undefined",
    effect: Effect::Behaviour,
    holds: Cond::Aligned(&ADDR, &CP_SIZE),
};
pub static CP_ASYNC_SRC_ALIGNED: Precondition = Precondition {
    id: "cp.async.src.aligned",
    section: "6.4.1",
    rule: "Supported alignment requirements and addressing modes for operand src and dst are described in Addresses as Operands: the address must be naturally aligned to a multiple of the access size (cp-size), otherwise the behavior is undefined",
    effect: Effect::Behaviour,
    holds: Cond::Aligned(&ADDR2, &CP_SIZE),
};

/// `cp.async`'s preconditions, in the order they are checked: the
/// `src-size` rule only where the form has `src-size` (the `ignore-src`
/// form has none; without either operand `src-size` is `cp-size`).
pub fn cp_async(ignore_src: bool) -> &'static [&'static Precondition] {
    static ALL: [&Precondition; 3] = [
        &CP_ASYNC_SRC_SIZE,
        &CP_ASYNC_DST_ALIGNED,
        &CP_ASYNC_SRC_ALIGNED,
    ];
    if ignore_src {
        &ALL[1..]
    } else {
        &ALL
    }
}

// ---- applypriority, discard, createpolicy (9.7.9.16 to 9.7.9.18) ---------

pub static APPLYPRIORITY_GLOBAL: Precondition = Precondition {
    id: "applypriority.global",
    section: "9.7.9.16",
    rule: "If the specified address does not fall within the address window of .global state space then the behavior is undefined",
    effect: Effect::Behaviour,
    holds: Cond::InSpace(Space::Global, &ADDR),
};
pub static APPLYPRIORITY_SIZE: Precondition = Precondition {
    id: "applypriority.size",
    section: "9.7.9.16",
    rule: "The only supported value for the size operand is 128",
    effect: Effect::Behaviour,
    holds: Cond::Eq(&SIZE, &Term::Lit(128)),
};
pub static APPLYPRIORITY_ALIGNED: Precondition = Precondition {
    id: "applypriority.aligned",
    section: "9.7.9.16",
    rule: "`a` must be aligned to 128 bytes",
    effect: Effect::Behaviour,
    holds: Cond::Aligned(&ADDR, &Term::Lit(128)),
};
pub static DISCARD_GLOBAL: Precondition = Precondition {
    id: "discard.global",
    section: "9.7.9.17",
    rule: "If the specified address does not fall within the address window of .global state space then the behavior is undefined",
    effect: Effect::Behaviour,
    holds: Cond::InSpace(Space::Global, &ADDR),
};
pub static DISCARD_SIZE: Precondition = Precondition {
    id: "discard.size",
    section: "9.7.9.17",
    rule: "The only supported value for the size operand is 128",
    effect: Effect::Behaviour,
    holds: Cond::Eq(&SIZE, &Term::Lit(128)),
};
pub static DISCARD_ALIGNED: Precondition = Precondition {
    id: "discard.aligned",
    section: "9.7.9.17",
    rule: "`a` must be aligned to 128 bytes",
    effect: Effect::Behaviour,
    holds: Cond::Aligned(&ADDR, &Term::Lit(128)),
};

/// `applypriority`'s (`discard: false`) or `discard`'s preconditions, in
/// the order they are checked; the window rule only for generic addresses.
pub fn cache_range(discard: bool, generic: bool) -> Vec<&'static Precondition> {
    let all: [&'static Precondition; 3] = if discard {
        [&DISCARD_GLOBAL, &DISCARD_SIZE, &DISCARD_ALIGNED]
    } else {
        [
            &APPLYPRIORITY_GLOBAL,
            &APPLYPRIORITY_SIZE,
            &APPLYPRIORITY_ALIGNED,
        ]
    };
    all.into_iter().skip(usize::from(!generic)).collect()
}

pub static POLICY_GLOBAL: Precondition = Precondition {
    id: "createpolicy.range.global",
    section: "9.7.9.18",
    rule: "If the specified address does not fall within the address window of .global state space then the behavior is undefined",
    effect: Effect::Behaviour,
    holds: Cond::InSpace(Space::Global, &ADDR),
};
/// `a` is primary-size, `b` total-size (both 32-bit).
pub static POLICY_SIZES: Precondition = Precondition {
    id: "createpolicy.range.sizes",
    section: "9.7.9.18",
    rule: "The value of primary-size must be less than or equal to the value of total-size. Maximum allowed value of total-size is 4GB",
    effect: Effect::Behaviour,
    holds: Cond::All(&[Cond::Ule(&A, &B), Cond::Ule(&B, &Term::Lit(1 << 32))]),
};
/// `a` is the fraction's `.f32` bits: `0 < f <= 1.0` is `0 < bits <=
/// 0x3f80_0000` read as an unsigned number (negative numbers and NaNs lie
/// above it, `-0.0` too).
pub static POLICY_FRACTION: Precondition = Precondition {
    id: "createpolicy.fractional.fraction",
    section: "9.7.9.18",
    rule: "The valid range of values for the operand fraction is (0.0,.., 1.0]",
    effect: Effect::Behaviour,
    holds: Cond::All(&[
        Cond::Ult(&Term::Lit(0), &A),
        Cond::Ule(&A, &Term::Lit(0x3f80_0000)),
    ]),
};

// ---- st.bulk, st.async, multimem, bulk and tensor copies, tensormap -----

pub static ST_BULK_SIZE: Precondition = Precondition {
    id: "st.bulk.size",
    section: "9.7.9.13",
    rule: "size must be a multiple of 8. If the value is not a multiple of 8, then the behavior is undefined. The maximum value of size operand can be 16777216",
    effect: Effect::Behaviour,
    holds: Cond::All(&[
        Cond::Aligned(&SIZE, &Term::Lit(8)),
        Cond::Ule(&SIZE, &Term::Lit(16_777_216)),
    ]),
};
pub static ST_BULK_SHARED: Precondition = Precondition {
    id: "st.bulk.generic-shared",
    section: "9.7.9.13",
    rule: "If no state space is specified then Generic Addressing is used. If the address specified by a does not fall within the address window of .shared state space then the behavior is undefined",
    effect: Effect::Behaviour,
    holds: Cond::InSpace(Space::SharedCluster, &ADDR),
};
pub static ST_ASYNC_SHARED: Precondition = Precondition {
    id: "st.async.generic-shared",
    section: "9.7.9.12",
    rule: "If the generic addresses specified do not fall within the address window of .shared::cluster state space, the behavior is undefined",
    effect: Effect::Behaviour,
    holds: Cond::InSpace(Space::SharedCluster, &ADDR),
};
pub static ST_ASYNC_CLUSTER: Precondition = Precondition {
    id: "st.async.cluster",
    section: "9.7.9.12",
    rule: "The number of CTAs within the cluster is strictly greater than one; %cluster_nctarank > 1 is true. Otherwise, the behavior is undefined",
    effect: Effect::Behaviour,
    holds: Cond::Ult(&Term::Lit(1), &NRANK),
};
pub static ST_ASYNC_GLOBAL: Precondition = Precondition {
    id: "st.async.release.generic-global",
    section: "9.7.9.12",
    rule: "If .ss is not specified, generic addressing is used for operand a. If the generic address specified does not fall within the address window of .global state space, the behavior is undefined",
    effect: Effect::Behaviour,
    holds: Cond::InSpace(Space::Global, &ADDR),
};
/// `a` (`Var::Addr`) and `mbar` (`Var::Mbar`) in one CTA's part of the
/// shared window. Both are `.shared::cluster` addresses or both generic
/// (`.ss` names the space of both); the shared window's base is a
/// multiple of a CTA's part, so `x >> rank_shift` tells the CTAs apart in
/// either reading. Where the CTA is in the cluster is the memory's rule
/// (the access to `a`).
pub static ST_ASYNC_SAME_CTA: Precondition = Precondition {
    id: "st.async.same-cta",
    section: "9.7.9.12",
    rule: "The shared memory addresses of destination operand a and the mbarrier object mbar belong to the same CTA within the same cluster as the executing thread",
    effect: Effect::Behaviour,
    holds: Cond::Eq(&Term::Shr(&ADDR, &RANK_SHIFT), &Term::Shr(&MBAR, &RANK_SHIFT)),
};
pub static ST_ASYNC_MBAR_SHARED: Precondition = Precondition {
    id: "st.async.mbar.generic-shared",
    section: "9.7.9.12",
    rule: "If .ss is not specified, generic addressing is used for operands a and mbar. If the generic addresses specified do not fall within the address window of .shared::cluster state space, the behavior is undefined",
    effect: Effect::Behaviour,
    holds: Cond::InSpace(Space::SharedCluster, &MBAR),
};

/// `st.async.weak`'s rules on `a` (`Var::Addr`, `Var::Size` the access
/// size), in order, before the access itself is resolved; the generic
/// window's only for generic addressing. Then come [`mbarrier`] with
/// [`MbarOp::StAsync`] and [`ST_ASYNC_SAME_CTA`].
pub fn st_async(generic: bool) -> Vec<&'static Precondition> {
    let mut out = vec![&ALIGNED];
    if generic {
        out.push(&ST_ASYNC_SHARED);
    }
    out.push(&ST_ASYNC_CLUSTER);
    out
}

/// `st.bulk`'s rules (`Var::Addr`, `Var::Size`), in order; the window's
/// only for generic addressing.
pub fn st_bulk(generic: bool) -> Vec<&'static Precondition> {
    let mut out = vec![&ST_BULK_SIZE];
    if generic {
        out.push(&ST_BULK_SHARED);
    }
    out
}

pub static MULTIMEM_GLOBAL: Precondition = Precondition {
    id: "multimem.generic-global",
    section: "9.7.9.14",
    rule: "If no state space is specified then Generic Addressing is used. If the address specified by a does not fall within the address window of .global state space then the behavior is undefined",
    effect: Effect::Behaviour,
    holds: Cond::InSpace(Space::Global, &ADDR),
};
const BULK_SIZE_16: &str = "size must be a multiple of 16. If the value is not a multiple of 16, then the behavior is undefined";
const BULK_ALIGN_16: &str =
    "The addresses dstMem and srcMem must be aligned to 16 bytes (the address srcMem for the prefetch)";
pub static BULK_SIZE: Precondition = Precondition {
    id: "cp.async.bulk.size",
    section: "9.7.9.25.4.1",
    rule: BULK_SIZE_16,
    effect: Effect::Behaviour,
    holds: Cond::Aligned(&SIZE, &Term::Lit(16)),
};
pub static BULK_DST_ALIGNED: Precondition = Precondition {
    id: "cp.async.bulk.dst.aligned",
    section: "9.7.9.25.4.1",
    rule: BULK_ALIGN_16,
    effect: Effect::Behaviour,
    holds: Cond::Aligned(&ADDR, &Term::Lit(16)),
};
pub static BULK_SRC_ALIGNED: Precondition = Precondition {
    id: "cp.async.bulk.src.aligned",
    section: "9.7.9.25.4.1",
    rule: BULK_ALIGN_16,
    effect: Effect::Behaviour,
    holds: Cond::Aligned(&ADDR2, &Term::Lit(16)),
};
pub static BULK_DST_OWN_CTA: Precondition = Precondition {
    id: "cp.async.bulk.dst.shared::cta",
    section: "9.7.9.25.4.1",
    rule: "When the destination of the copy is .shared::cta the destination address has to be in the shared memory of the executing CTA within the cluster, otherwise the behavior is undefined",
    effect: Effect::Behaviour,
    holds: Cond::Eq(&Term::Shr(&ADDR, &RANK_SHIFT), &RANK),
};
/// The `.shared::cta` to `.shared::cluster` copy. Interpretation: the
/// sentence says "has to be" without "otherwise the behavior is
/// undefined"; read as the precondition it states, as the `.shared::cta`
/// destination's sentence before it.
pub static BULK_DST_OTHER_CTA: Precondition = Precondition {
    id: "cp.async.bulk.dst.other-cta",
    section: "9.7.9.25.4.1",
    rule: "When the source of the copy is .shared::cta and the destination is .shared::cluster, the destination has to be in the shared memory of a different CTA within the cluster",
    effect: Effect::Behaviour,
    holds: Cond::Not(&Cond::Eq(&Term::Shr(&ADDR, &RANK_SHIFT), &RANK)),
};
/// `.multicast::cluster`'s `ctaMask` (16 bits). Interpretation: the spec
/// says which CTA each bit names and nothing of a bit for a CTA the
/// cluster does not have; such a bit names no destination, read as
/// undefined.
pub static BULK_CTA_MASK: Precondition = Precondition {
    id: "cp.async.bulk.multicast.cta-mask",
    section: "9.7.9.25.4.1",
    rule: "each bit position in the 16-bit ctaMask operand corresponds to the %ctaid of the destination CTA: a bit for a CTA the cluster does not have names no destination",
    effect: Effect::Behaviour,
    holds: Cond::Eq(
        &Term::Shr(&Term::And(&CTA_MASK, &Term::Lit(0xffff)), &NRANK),
        &Term::Lit(0),
    ),
};

/// The multicast form's rule on `ctaMask` (`Var::CtaMask`), checked after
/// the form's own ([`for_row`]) and its mbarrier's ([`mbarrier`] with
/// [`MbarOp::Bulk`]).
pub fn bulk_multicast() -> &'static Precondition {
    &BULK_CTA_MASK
}

pub static REDUCE_BULK_SIZE: Precondition = Precondition {
    id: "cp.reduce.async.bulk.size",
    section: "9.7.9.25.4.2",
    rule: BULK_SIZE_16,
    effect: Effect::Behaviour,
    holds: Cond::Aligned(&SIZE, &Term::Lit(16)),
};
pub static REDUCE_BULK_DST_ALIGNED: Precondition = Precondition {
    id: "cp.reduce.async.bulk.dst.aligned",
    section: "9.7.9.25.4.2",
    rule: BULK_ALIGN_16,
    effect: Effect::Behaviour,
    holds: Cond::Aligned(&ADDR, &Term::Lit(16)),
};
pub static REDUCE_BULK_SRC_ALIGNED: Precondition = Precondition {
    id: "cp.reduce.async.bulk.src.aligned",
    section: "9.7.9.25.4.2",
    rule: BULK_ALIGN_16,
    effect: Effect::Behaviour,
    holds: Cond::Aligned(&ADDR2, &Term::Lit(16)),
};
pub static PREFETCH_BULK_SIZE: Precondition = Precondition {
    id: "cp.async.bulk.prefetch.size",
    section: "9.7.9.25.4.3",
    rule: BULK_SIZE_16,
    effect: Effect::Behaviour,
    holds: Cond::Aligned(&SIZE, &Term::Lit(16)),
};
pub static PREFETCH_BULK_ALIGNED: Precondition = Precondition {
    id: "cp.async.bulk.prefetch.aligned",
    section: "9.7.9.25.4.3",
    rule: BULK_ALIGN_16,
    effect: Effect::Behaviour,
    holds: Cond::Aligned(&ADDR2, &Term::Lit(16)),
};
pub static TENSOR_DST_OWN_CTA: Precondition = Precondition {
    id: "cp.async.bulk.tensor.dst.shared::cta",
    section: "9.7.9.25.5.2",
    rule: "When .dst is specified as .shared::cta, the address dstMem must be in the shared memory of the executing CTA within the cluster, otherwise the behavior is undefined",
    effect: Effect::Behaviour,
    holds: Cond::Eq(&Term::Shr(&ADDR, &RANK_SHIFT), &RANK),
};

// ---- tensor copies (PTX ISA 9.7.9.25.5) --------------------------------
//
// The vars: `Var::Map` is the generic address of `tensorMap`, `Var::Addr`
// the shared address of the box (a load's `dstMem` in its space, a store's
// `.shared::cta` source), `Var::Mbar` a load's mbarrier, `Var::A` one
// im2col offset (16 bits). The rules that read the map's fields
// ([`TENSOR_MAP_RULES`]) have vars of their own, from the map the copy
// reads: `Var::MapValid`, `Var::MapRank` against `Var::Dim`,
// `Var::BoxOffset`, `Var::Coord` (one coordinate) with `Var::Lower` and
// `Var::Upper` (the Bounding Box of its dimension), `Var::RedType`. The
// simulator reads them from the map's bytes; `conform ub` knows them only
// for a map it is given (`--tensor-map`).

const COORD: Term = Term::Var(Var::Coord);
/// `2^63`: added to both sides, it turns a signed comparison into an
/// unsigned one.
const SIGN: Term = Term::Lit(1 << 63);

/// The map a tensor copy reads is a valid tensor-map object for the copy:
/// [`crate::tensor::TensorMap::validate`], the mode the copy names (tiled
/// or im2col), the im2col map rules (`cuTensorMapEncodeIm2col`'s non-zero
/// area and whole 16-byte pixels; a store's Bounding Box within the
/// tensor).
pub static TENSOR_MAP_VALID: Precondition = Precondition {
    id: "cp.async.bulk.tensor.map.valid",
    section: "5.5",
    rule: "the tensor map is not a valid tensor-map object: a field breaks a rule of the tensor map (PTX ISA 5.5, the driver's cuTensorMapEncode requirements)",
    effect: Effect::Behaviour,
    holds: Cond::Eq(&Term::Var(Var::MapValid), &ONE),
};
/// The map's rank is the instruction's `.dim` (not checked for
/// `.tile::gather4`/`.tile::scatter4`, whose map has rank 2 and whose
/// `tensorCoords` five elements).
pub static TENSOR_MAP_DIM: Precondition = Precondition {
    id: "cp.async.bulk.tensor.map.dim",
    section: "9.7.9.25.5.2",
    rule: "The vector operand tensorCoords specifies the starting coordinates ... Vector of n elements where n = .dim: the tensor map's rank must be .dim",
    effect: Effect::Behaviour,
    holds: Cond::Eq(&Term::Var(Var::MapRank), &Term::Var(Var::Dim)),
};
/// `tensorCoords[0]` times the element size (the global strides are
/// multiples of 16, so only dimension 0 can misalign the box). Not asked
/// of an interleaved map, whose dimension 0 counts 16- or 32-byte slices
/// (`Var::BoxOffset` is 0 there).
pub static TENSOR_BOX_ALIGNED: Precondition = Precondition {
    id: "cp.async.bulk.tensor.box.aligned",
    section: "5.5.3.1",
    rule: "The address of the bounding Box must also be aligned to 16 bytes",
    effect: Effect::Behaviour,
    holds: Cond::Aligned(&Term::Var(Var::BoxOffset), &Term::Lit(16)),
};
/// Each coordinate of a store or reduction (`Var::Coord`), as a `.s32`.
pub static TENSOR_COORD_NON_NEGATIVE: Precondition = Precondition {
    id: "cp.async.bulk.tensor.coords.non-negative",
    section: "9.7.9.25.5.1",
    rule: "Starting co-ordinates for Bounding Box (tensorCoords) must be non-negative",
    effect: Effect::Behaviour,
    holds: Cond::Not(&Cond::Bit(&COORD, &Term::Lit(63))),
};
/// The filter's corner of an im2col load along one spatial dimension
/// (`Var::Coord`) within that dimension's Bounding Box (`Var::Lower` to
/// `Var::Upper`, inclusive: `pixelBoxLowerCorner` to `globalDim - 1 +
/// pixelBoxUpperCorner`), signed. The simulator reports the im2col
/// operands' other rules (their count) with the same clause.
pub static TENSOR_IM2COL_FILTER: Precondition = Precondition {
    id: "cp.async.bulk.tensor.im2col.filter",
    section: "5.5.4",
    rule: "the im2col operands break a rule of the im2col mode (the offsets' count and range, the filter inside the bounding box)",
    effect: Effect::Behaviour,
    holds: Cond::All(&[
        Cond::Ule(
            &Term::Add(&Term::Var(Var::Lower), &SIGN),
            &Term::Add(&COORD, &SIGN),
        ),
        Cond::Ule(
            &Term::Add(&COORD, &SIGN),
            &Term::Add(&Term::Var(Var::Upper), &SIGN),
        ),
    ]),
};
/// `.redOp` and the map's element type (`Var::RedType`, read by
/// [`crate::sim::reduce::tensor_type`]).
pub static TENSOR_RED_TYPE: Precondition = Precondition {
    id: "cp.reduce.async.bulk.tensor.type",
    section: "9.7.9.25.5.3",
    rule: "The following table describes the valid combinations of .redOp and element type: .add .u32 .s32 .u64 .f32 .f16 .bf16; .min, .max .u32 .s32 .u64 .s64 .f16 .bf16; .inc, .dec .u32; .and, .or, .xor .b32 .b64",
    effect: Effect::Behaviour,
    holds: Cond::Eq(&Term::Var(Var::RedType), &ONE),
};

/// The rules of a tensor copy that read the tensor map's fields, in the
/// order the simulator checks them after the operands' rules
/// ([`tensor_copy`]): the rank against `.dim`, the map's validity, a
/// reduction's type, the box's alignment, then a store's coordinates or an
/// im2col load's filter.
pub const TENSOR_MAP_RULES: &[&Precondition] = &[
    &TENSOR_MAP_DIM,
    &TENSOR_MAP_VALID,
    &TENSOR_RED_TYPE,
    &TENSOR_BOX_ALIGNED,
    &TENSOR_COORD_NON_NEGATIVE,
    &TENSOR_IM2COL_FILTER,
];

const MAP_ALIGN_64: &str = "a tensor map is a 128-byte object aligned to 64 bytes (CUDA driver API, CUtensorMap: \"alignas(64)\")";

/// `tensorMap` lies in the `.param`, `.const` or `.global` window: outside
/// the shared and local windows (the global window is every address
/// outside the shared, local and const windows, and holds the `.param`
/// window: 9.7.9.19).
pub static TENSOR_MAP_SPACE: Precondition = Precondition {
    id: "cp.async.bulk.tensor.map.space",
    section: "9.7.9.25.5.2",
    rule: "The operand tensorMap is the generic address of the opaque tensor-map object which resides in .param space or .const space or .global space",
    effect: Effect::Behaviour,
    holds: Cond::Any(&[
        Cond::InSpace(Space::Global, &MAP),
        Cond::InSpace(Space::Const, &MAP),
    ]),
};
/// Aligned in its space: a kernel parameter's offset in the parameter
/// space (the `.param .align 64` declaration; the parameter window's base
/// is not a multiple of 64), the offset in the const bank, or the global
/// address.
pub static TENSOR_MAP_ALIGNED: Precondition = Precondition {
    id: "cp.async.bulk.tensor.map.aligned",
    section: Undefined::MODEL,
    rule: MAP_ALIGN_64,
    effect: Effect::Behaviour,
    holds: Cond::Any(&[
        Cond::All(&[
            Cond::InSpace(Space::ParamEntry, &MAP),
            Cond::Aligned(&Term::Sub(&MAP, &PARAM_BASE), &Term::Lit(64)),
        ]),
        Cond::All(&[
            Cond::InSpace(Space::Const, &MAP),
            Cond::Aligned(&Term::Sub(&MAP, &CONST_BASE), &Term::Lit(64)),
        ]),
        Cond::All(&[
            Cond::Not(&Cond::InSpace(Space::ParamEntry, &MAP)),
            Cond::Not(&Cond::InSpace(Space::Const, &MAP)),
            Cond::Aligned(&MAP, &Term::Lit(64)),
        ]),
    ]),
};
/// The box's shared address (`Var::Addr`). Interpretation: the PTX text
/// states no alignment for the shared memory of a tiled or im2col copy
/// (5.5.7 states 32 and 64 bytes for two sm_100 atomicities); the CUDA
/// C++ Programming Guide's TMA alignment table asks 128 bytes, and an
/// H100 faults (`CUDA_ERROR_MISALIGNED_ADDRESS`) on each of 4 copies to
/// 16-byte aligned addresses (docs/tensor-observations.md, observation 2).
/// A CTA's part of the shared window is a multiple of 128 bytes, so the
/// address in any of the shared spaces or the generic window has the
/// alignment of its offset in the CTA's shared memory.
pub static TENSOR_SMEM_ALIGNED: Precondition = Precondition {
    id: "cp.async.bulk.tensor.shared.aligned",
    section: Undefined::MODEL,
    rule: "the shared memory address of a tensor copy must be 128-byte aligned (CUDA C++ Programming Guide, TMA alignment; an H100 faults otherwise)",
    effect: Effect::Behaviour,
    holds: Cond::Aligned(&ADDR, &Term::Lit(128)),
};
/// A load's `dstMem` (`Var::Addr`) and `mbar` (`Var::Mbar`) in one CTA's
/// part of the shared window (both in the destination's space; see
/// [`ST_ASYNC_SAME_CTA`] for why `x >> rank_shift` tells CTAs apart).
pub static TENSOR_MBAR_SAME_CTA: Precondition = Precondition {
    id: "cp.async.bulk.tensor.mbar.same-cta",
    section: "9.7.9.25.5.2",
    rule: "When .cta_group::1 is specified, the mbarrier object mbar that is specified must be in the shared memory of the same CTA as the shared memory destination dstMem. If .cta_group is not specified, then it defaults to .cta_group::1",
    effect: Effect::Behaviour,
    holds: Cond::Eq(&Term::Shr(&ADDR, &RANK_SHIFT), &Term::Shr(&MBAR, &RANK_SHIFT)),
};
/// The CTA pair of an address in the shared window (its CTA's rank
/// without bit 0: a CTA and its peer-CTA share it).
const ADDR_PAIR: Term = Term::Shr(&ADDR_CTA, &ONE);
const MBAR_PAIR: Term = Term::Shr(&MBAR_CTA, &ONE);
const ADDR_CTA: Term = Term::Shr(&ADDR, &RANK_SHIFT);
const MBAR_CTA: Term = Term::Shr(&MBAR, &RANK_SHIFT);
const ONE: Term = Term::Lit(1);
/// With `.cta_group::2`, the mbarrier (`Var::Mbar`) in the destination's
/// (`Var::Addr`) CTA or its peer-CTA (the CTA whose `%cluster_ctarank`
/// differs in bit 0 only: the CTA pair of the tcgen05 sections).
pub static TENSOR_MBAR_PAIR: Precondition = Precondition {
    id: "cp.async.bulk.tensor.mbar.cta-pair",
    section: "9.7.9.25.5.2",
    rule: "When .cta_group::2 is specified, the mbarrier object mbar can be in shared memory of either the same CTA as the shared memory destination dstMem or in its peer-CTA",
    effect: Effect::Behaviour,
    holds: Cond::Eq(&ADDR_PAIR, &MBAR_PAIR),
};

/// The rule on a load's mbarrier: [`TENSOR_MBAR_SAME_CTA`], or with
/// `.cta_group::2` ([`TENSOR_MBAR_PAIR`]).
pub fn tensor_mbar(cta_pair: bool) -> &'static Precondition {
    if cta_pair {
        &TENSOR_MBAR_PAIR
    } else {
        &TENSOR_MBAR_SAME_CTA
    }
}

const IM2COL_OFFSET_RANGE: &str = "im2col offsets: the range of values for each dimension is [0, 2^16-1] for 3D, [0, 2^8-1] for 4D, [0, 2^5-1] for 5D (the offsets are the im2colInfo operand, .u16 each)";
/// One im2col offset (`Var::A`, 16 bits) of a 4D copy; the map's rank is
/// the instruction's `.dim` (else the copy breaks the map's `.dim` rule).
/// A 3D offset's range is every `.u16`: no precondition.
pub static IM2COL_OFFSET_4D: Precondition = Precondition {
    id: "cp.async.bulk.tensor.im2col.offset.4d",
    section: "5.5.4.1",
    rule: IM2COL_OFFSET_RANGE,
    effect: Effect::Behaviour,
    holds: Cond::Ule(&A, &Term::Lit(255)),
};
pub static IM2COL_OFFSET_5D: Precondition = Precondition {
    id: "cp.async.bulk.tensor.im2col.offset.5d",
    section: "5.5.4.1",
    rule: IM2COL_OFFSET_RANGE,
    effect: Effect::Behaviour,
    holds: Cond::Ule(&A, &Term::Lit(31)),
};

/// `wHalo` (`Var::A`, the first `.u16` of `im2colInfo`) of an
/// `.im2col::w` copy.
pub static IM2COL_W_HALO: Precondition = Precondition {
    id: "cp.async.bulk.tensor.im2col::w.wHalo",
    section: "9.7.9.25.5.2",
    rule: "Argument wHalo is a 16bit unsigned integer whose valid set of values differs on the load-mode and is as follows: - Im2col::w mode : valid range is [0, 512)",
    effect: Effect::Behaviour,
    holds: Cond::Ule(&A, &Term::Lit(511)),
};
/// `wHalo` (`Var::A`) of an `.im2col::w::128` copy.
pub static IM2COL_W128_HALO: Precondition = Precondition {
    id: "cp.async.bulk.tensor.im2col::w::128.wHalo",
    section: "9.7.9.25.5.2",
    rule: "Argument wHalo is a 16bit unsigned integer whose valid set of values differs on the load-mode and is as follows: ... - Im2col::w::128 mode : valid range is [0, 32)",
    effect: Effect::Behaviour,
    holds: Cond::Ule(&A, &Term::Lit(31)),
};
/// `wOffset` (`Var::A`, the second `.u16` of `im2colInfo`) of an
/// `.im2col::w` or `.im2col::w::128` copy.
pub static IM2COL_W_OFFSET: Precondition = Precondition {
    id: "cp.async.bulk.tensor.im2col::w.wOffset",
    section: "9.7.9.25.5.2",
    rule: "Argument wOffset is a 16bit unsigned integer whose valid range of values is [0, 32)",
    effect: Effect::Behaviour,
    holds: Cond::Ule(&A, &Term::Lit(31)),
};

/// The range rules of `{wHalo, wOffset}`, in that order, of an
/// `.im2col::w` (`w128` false) or `.im2col::w::128` copy.
pub fn im2col_w_info(w128: bool) -> [&'static Precondition; 2] {
    let halo = if w128 {
        &IM2COL_W128_HALO
    } else {
        &IM2COL_W_HALO
    };
    [halo, &IM2COL_W_OFFSET]
}

/// Which way a tensor copy moves data, for [`tensor_copy`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TensorWay {
    /// Into shared memory of this space (`.shared::cta` or
    /// `.shared::cluster`).
    Load(Space),
    /// From `.shared::cta` (stores and reductions).
    Store,
    /// `cp.async.bulk.prefetch.tensor`: no shared memory.
    Prefetch,
}

/// A tensor copy's rules on its operands, in the order they are checked,
/// before the map is read: the map's place and alignment (`Var::Map`),
/// then the shared address (`Var::Addr`): in the executing CTA for a
/// `.shared::cta` destination, 128-byte aligned. Then come the im2col
/// offsets ([`im2col_offset`], each offset in `Var::A`), the load's
/// mbarrier ([`mbarrier`] with [`MbarOp::Bulk`], then
/// [`TENSOR_MBAR_SAME_CTA`]) and its multicast mask ([`bulk_multicast`]).
pub fn tensor_copy(way: TensorWay) -> Vec<&'static Precondition> {
    let mut out: Vec<&'static Precondition> = vec![&TENSOR_MAP_SPACE, &TENSOR_MAP_ALIGNED];
    match way {
        TensorWay::Load(Space::SharedCta) => {
            out.extend([&TENSOR_DST_OWN_CTA, &TENSOR_SMEM_ALIGNED])
        }
        TensorWay::Load(_) | TensorWay::Store => out.push(&TENSOR_SMEM_ALIGNED),
        TensorWay::Prefetch => {}
    }
    out
}

/// The range rule of each im2col offset of a copy of this `.dim`.
pub fn im2col_offset(dim: u32) -> Option<&'static Precondition> {
    match dim {
        4 => Some(&IM2COL_OFFSET_4D),
        5 => Some(&IM2COL_OFFSET_5D),
        _ => None,
    }
}

// ---- tensormap.replace (PTX ISA 9.7.9.26) --------------------------------
//
// The vars: `Var::Addr` is `addr` in the instruction's space, `Var::A`
// `new_val`. The rules of the map the replace reads (its mode, `ord`
// within its rank) need its bytes: the simulator's, as
// [`TENSOR_MAP_RULES`]. `.field3`'s `new_val` is an immediate, checked
// against Table 33 by the decoder's form and the simulator.

/// Interpretation: "`isspacep.global` returns 1 for Kernel Function
/// Parameters as `.param` window is contained within the `.global`
/// window" (9.7.9.19), but an address there is a kernel parameter, not
/// `.global` memory, and a replace writes the map: read as outside the
/// `.global` window.
pub static TENSORMAP_REPLACE_WINDOW: Precondition = Precondition {
    id: "tensormap.replace.generic",
    section: "9.7.9.26",
    rule: "If no state space is specified then Generic Addressing is used. If the address specified by addr does not fall within the address window of .global or .shared::cta state space then the behavior is undefined",
    effect: Effect::Behaviour,
    holds: Cond::Any(&[
        Cond::All(&[
            Cond::InSpace(Space::Global, &ADDR),
            Cond::Not(&Cond::InSpace(Space::ParamEntry, &ADDR)),
        ]),
        Cond::InSpace(Space::SharedCta, &ADDR),
    ]),
};
/// The spec of `tensormap.replace` states no alignment for `addr`; the
/// driver asks 64 bytes of a map, and an H100 faults
/// (`CUDA_ERROR_MISALIGNED_ADDRESS`) on a replace at a 16-byte aligned
/// map (docs/tensormap-replace.md, "Where the map lies"). The shared
/// window's base and a CTA's part are multiples of 64, so the address in
/// either space has the alignment of its offset.
pub static TENSORMAP_REPLACE_ALIGNED: Precondition = Precondition {
    id: "tensormap.replace.aligned",
    section: Undefined::MODEL,
    rule: MAP_ALIGN_64,
    effect: Effect::Behaviour,
    holds: Cond::Aligned(&ADDR, &Term::Lit(64)),
};

macro_rules! replace_value {
    ($name:ident, $id:literal, $rule:expr, $holds:expr) => {
        pub static $name: Precondition = Precondition {
            id: $id,
            section: "9.7.9.26",
            rule: $rule,
            effect: Effect::Behaviour,
            holds: $holds,
        };
    };
}

// The ranges of `new_val` (`Var::A`) for the fields an operand may set,
// as `crate::tensor::replace` words them (its `RULES`; a test keeps the
// sentences equal).
replace_value!(
    TENSORMAP_REPLACE_RANK,
    "tensormap.replace.rank",
    "For field `.rank`, the operand `new_val` must be ones less than the desired tensor rank as this field uses zero-based numbering. (With the driver's range: tensorRank must be non-zero and less than or equal to the maximum supported dimensionality of 5.)",
    Cond::Ule(&A, &Term::Lit(4))
);
replace_value!(
    TENSORMAP_REPLACE_GLOBAL_ADDRESS,
    "tensormap.replace.global_address",
    "globalAddress, which specifies the starting address of the memory region described, must be 16 byte aligned",
    Cond::Aligned(&A, &Term::Lit(16))
);
replace_value!(
    TENSORMAP_REPLACE_BOX_DIM,
    "tensormap.replace.box_dim",
    "boxDim array, which specifies number of elements to be traversed along each of the tensorRank dimensions, must be non-zero and less than or equal to 256",
    Cond::All(&[
        Cond::Ult(&Term::Lit(0), &A),
        Cond::Ule(&A, &Term::Lit(256))
    ])
);
replace_value!(
    TENSORMAP_REPLACE_GLOBAL_DIM,
    "tensormap.replace.global_dim",
    "globalDim array, which specifies tensor size of each of the tensorRank dimensions, must be non-zero and less than or equal to 2^32",
    Cond::All(&[
        Cond::Ult(&Term::Lit(0), &A),
        Cond::Ule(&A, &Term::Lit(1 << 32))
    ])
);
replace_value!(
    TENSORMAP_REPLACE_GLOBAL_STRIDE,
    "tensormap.replace.global_stride",
    "globalStrides array, which specifies tensor stride of each of the lower tensorRank - 1 dimensions in bytes, must be a multiple of 16 and less than 2^40",
    Cond::All(&[
        Cond::Aligned(&A, &Term::Lit(16)),
        Cond::Ult(&A, &Term::Lit(1 << 40))
    ])
);
replace_value!(
    TENSORMAP_REPLACE_ELEMENT_STRIDE,
    "tensormap.replace.element_stride",
    "elementStrides array, which specifies the iteration step along each of the tensorRank dimensions, must be non-zero and less than or equal to 8",
    Cond::All(&[
        Cond::Ult(&Term::Lit(0), &A),
        Cond::Ule(&A, &Term::Lit(8))
    ])
);

/// `tensormap.replace`'s rules on `addr` (`Var::Addr`), in the order they
/// are checked, before the map is read: the generic window (generic
/// addressing only), then the alignment. Then comes the range of
/// `new_val` ([`tensormap_replace_value`]).
pub fn tensormap_replace(space: Space) -> Vec<&'static Precondition> {
    let mut out: Vec<&'static Precondition> = Vec::new();
    if space == Space::Generic {
        out.push(&TENSORMAP_REPLACE_WINDOW);
    }
    out.push(&TENSORMAP_REPLACE_ALIGNED);
    out
}

/// The range of `new_val` (`Var::A`) for the field; `.field3`'s fields
/// have none here (an immediate, checked against Table 33).
pub fn tensormap_replace_value(field: crate::tensor::Field) -> Option<&'static Precondition> {
    use crate::tensor::Field;
    match field {
        Field::Rank => Some(&TENSORMAP_REPLACE_RANK),
        Field::GlobalAddress => Some(&TENSORMAP_REPLACE_GLOBAL_ADDRESS),
        Field::BoxDim => Some(&TENSORMAP_REPLACE_BOX_DIM),
        Field::GlobalDim => Some(&TENSORMAP_REPLACE_GLOBAL_DIM),
        Field::GlobalStride => Some(&TENSORMAP_REPLACE_GLOBAL_STRIDE),
        Field::ElementStride => Some(&TENSORMAP_REPLACE_ELEMENT_STRIDE),
        _ => None,
    }
}

// ---- mbarrier objects (PTX ISA 9.7.13.15) ------------------------------
//
// The mbarrier instructions are 9.7.13, outside the catalogue (9.7.9): their
// rules are selected by [`mbarrier`], not by row. The vars: `Var::Mbar` is
// the object's address as the instruction's space reads it (generic, or a
// shared-window address), `Var::A` the 32-bit `count`, `txCount` or
// `phaseParity` operand. The rules that depend on the object's state
// (initialised or not, its phase, its counts: 9.7.13.15.2 to .4, .9's
// init on a valid object, .13/.14's `.noComplete`, .15's pending-count
// limit, .16's phases, .17's state) are `crate::mbarrier`'s, checked on
// the object by the simulator; a precondition of one thread's operands
// cannot say them.

/// 9.7.13.15.1, "Size and alignment of mbarrier object" (a table: type
/// `.b64`, alignment 8 bytes, memory space `.shared`); each instruction
/// says "Alignment for operand addr is as described in the Size and
/// alignment of mbarrier object".
const MBAR_OBJECT: &str = "An mbarrier object is an opaque object with the following type and alignment requirements: Type .b64, Alignment (bytes) 8, Memory space .shared";
const MBAR_GENERIC_CTA: &str = "If no state space is specified then Generic Addressing is used. If the address specified by addr does not fall within the address window of .shared::cta state space then the behavior is undefined";
const MBAR_GENERIC_EITHER: &str = "If no state space is specified then Generic Addressing is used. If the address specified by addr does not fall within the address window of .shared::cta or .shared::cluster state space then the behavior is undefined";

pub static MBAR_ALIGNED: Precondition = Precondition {
    id: "mbarrier.aligned",
    section: "9.7.13.15.1",
    rule: MBAR_OBJECT,
    effect: Effect::Behaviour,
    holds: Cond::Aligned(&MBAR, &Term::Lit(8)),
};
/// A `.shared::cta` address is one in the executing CTA's part of the
/// shared window (as `cvta.shared::cta`'s rule reads it, 9.7.9.20); so
/// are the objects of `mbarrier.init`, `mbarrier.inval`, the waits and
/// `cp.async.mbarrier.arrive`, whose syntax has only `.shared{::cta}`.
pub static MBAR_OWN_CTA: Precondition = Precondition {
    id: "mbarrier.shared::cta",
    section: "9.7.13.15.1",
    rule: "An mbarrier object is an opaque object with the following type and alignment requirements: Type .b64, Alignment (bytes) 8, Memory space .shared [with .shared::cta, the shared memory of the executing CTA: `isspacep.shared::cta` \"will return 1 only if the address is of a variable declared in the executing CTA\"]",
    effect: Effect::Behaviour,
    holds: Cond::Eq(&Term::Shr(&MBAR, &RANK_SHIFT), &RANK),
};

macro_rules! mbar_generic {
    ($name:ident, $id:literal, $section:literal, $rule:expr, $space:expr) => {
        pub static $name: Precondition = Precondition {
            id: $id,
            section: $section,
            rule: $rule,
            effect: Effect::Behaviour,
            holds: Cond::InSpace($space, &MBAR),
        };
    };
}

mbar_generic!(
    MBAR_INIT_GENERIC,
    "mbarrier.init.generic-shared::cta",
    "9.7.13.15.9",
    MBAR_GENERIC_CTA,
    Space::SharedCta
);
mbar_generic!(
    MBAR_INVAL_GENERIC,
    "mbarrier.inval.generic-shared::cta",
    "9.7.13.15.10",
    MBAR_GENERIC_CTA,
    Space::SharedCta
);
mbar_generic!(
    MBAR_EXPECT_TX_GENERIC,
    "mbarrier.expect_tx.generic-shared",
    "9.7.13.15.11",
    MBAR_GENERIC_EITHER,
    Space::SharedCluster
);
mbar_generic!(
    MBAR_COMPLETE_TX_GENERIC,
    "mbarrier.complete_tx.generic-shared",
    "9.7.13.15.12",
    MBAR_GENERIC_EITHER,
    Space::SharedCluster
);
// Interpretation: 9.7.13.15.13's sentence names the `.shared::cta` window
// only, but its example arrives on a generic address of another CTA
// (`mapa.u64 remoteAddr64, addr, remoteCTAId; mbarrier.arrive.release.cluster.b64
// _, [remoteAddr64], cnt`) and `arrive_drop` (9.7.13.15.14) names both
// windows: read as both.
mbar_generic!(MBAR_ARRIVE_GENERIC, "mbarrier.arrive.generic-shared", "9.7.13.15.13",
    "If no state space is specified then Generic Addressing is used. If the address specified by addr does not fall within the address window of .shared::cta state space then the behavior is undefined [read as .shared::cta or .shared::cluster, as mbarrier.arrive_drop says: the section's example arrives on `mapa.u64 remoteAddr64, addr, remoteCTAId`]",
    Space::SharedCluster);
mbar_generic!(
    MBAR_ARRIVE_DROP_GENERIC,
    "mbarrier.arrive_drop.generic-shared",
    "9.7.13.15.14",
    MBAR_GENERIC_EITHER,
    Space::SharedCluster
);
mbar_generic!(
    CP_ASYNC_ARRIVE_GENERIC,
    "cp.async.mbarrier.arrive.generic-shared::cta",
    "9.7.13.15.15",
    MBAR_GENERIC_CTA,
    Space::SharedCta
);
mbar_generic!(
    MBAR_WAIT_GENERIC,
    "mbarrier.test_wait.generic-shared::cta",
    "9.7.13.15.16",
    MBAR_GENERIC_CTA,
    Space::SharedCta
);

/// 1 to 2^20 - 1 (`Var::A`, 32 bits).
const COUNT_RANGE: Cond = Cond::All(&[
    Cond::Ult(&Term::Lit(0), &A),
    Cond::Ule(&A, &Term::Lit(crate::mbarrier::MAX_COUNT as u64)),
]);

pub static MBAR_INIT_COUNT: Precondition = Precondition {
    id: "mbarrier.init.count",
    section: crate::mbarrier::Undefined::INIT_COUNT.section,
    rule: crate::mbarrier::Undefined::INIT_COUNT.rule,
    effect: Effect::Behaviour,
    holds: COUNT_RANGE,
};
/// "The value of the operand count must be in the range as specified in
/// Contents of the mbarrier object": the pending arrival count's, 0 to
/// 2^20 - 1; an arrive-on by 0 counts nothing, read as out of range (the
/// count an arrive-on counts is one of its arrivals), as
/// `crate::mbarrier` reads it.
pub static MBAR_ARRIVE_COUNT: Precondition = Precondition {
    id: "mbarrier.arrive.count",
    section: crate::mbarrier::Undefined::ARRIVE_COUNT.section,
    rule: crate::mbarrier::Undefined::ARRIVE_COUNT.rule,
    effect: Effect::Behaviour,
    holds: COUNT_RANGE,
};
pub static MBAR_ARRIVE_DROP_COUNT: Precondition = Precondition {
    id: "mbarrier.arrive_drop.count",
    section: crate::mbarrier::Undefined::ARRIVE_DROP_COUNT.section,
    rule: crate::mbarrier::Undefined::ARRIVE_DROP_COUNT.rule,
    effect: Effect::Behaviour,
    holds: COUNT_RANGE,
};
/// The `txCount` of `expect_tx`, `complete_tx` and `arrive{_drop}.expect_tx`
/// (32-bit unsigned, so 0 and up). Interpretation (`crate::mbarrier`'s):
/// an operand above the largest tx-count, 2^20 - 1, is out of the range
/// whatever the count it changes; whether the new tx-count stays in range
/// depends on the object's state, which the simulator checks.
pub static MBAR_TX_COUNT: Precondition = Precondition {
    id: "mbarrier.tx-count",
    section: crate::mbarrier::Undefined::TX_RANGE.section,
    rule: crate::mbarrier::Undefined::TX_RANGE.rule,
    effect: Effect::Behaviour,
    holds: Cond::Ule(&A, &Term::Lit(crate::mbarrier::TX_MAX as u64)),
};
pub static MBAR_PARITY: Precondition = Precondition {
    id: "mbarrier.test_wait.parity",
    section: crate::mbarrier::Undefined::PARITY_VALUE.section,
    rule: crate::mbarrier::Undefined::PARITY_VALUE.rule,
    effect: Effect::Behaviour,
    holds: Cond::Ule(&A, &Term::Lit(1)),
};

/// An instruction that names an mbarrier object, for [`mbarrier`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MbarOp {
    /// `mbarrier.init [addr], count`.
    Init,
    /// `mbarrier.inval [addr]`.
    Inval,
    /// `mbarrier.arrive` (`drop`: `arrive_drop`), with a `count` operand
    /// (`count`) or `.expect_tx`'s `txCount` (`tx`).
    Arrive { drop: bool, count: bool, tx: bool },
    /// `mbarrier.expect_tx [addr], txCount`.
    ExpectTx,
    /// `mbarrier.complete_tx [addr], txCount`.
    CompleteTx,
    /// `mbarrier.test_wait` / `try_wait` (`parity`: the `.parity` forms,
    /// whose `phaseParity` is `Var::A`).
    Wait { parity: bool },
    /// `cp.async.mbarrier.arrive{.noinc} [addr]`.
    CpAsyncArrive,
    /// The `mbar` of a bulk copy or reduction with
    /// `.mbarrier::complete_tx::bytes` (its space: the destination's).
    Bulk,
    /// The `mbar` of `st.async` (its space: `st.async`'s).
    StAsync,
}

/// The rules on an mbarrier operand, in the order they are checked: its
/// place (the generic window the instruction names, or the executing
/// CTA for `.shared::cta` and for the instructions whose object is the
/// executing CTA's), its alignment, then the range of the `count`,
/// `txCount` or `phaseParity` operand. `space` is the instruction's
/// (`Space::Generic` when it names none). Where the object lies inside
/// the window (a CTA of the cluster, inside its shared memory) is the
/// memory's rule, as for any access.
pub fn mbarrier(op: MbarOp, space: Space) -> Vec<&'static Precondition> {
    let own_cta = matches!(
        op,
        MbarOp::Init | MbarOp::Inval | MbarOp::Wait { .. } | MbarOp::CpAsyncArrive
    );
    let place: Option<&'static Precondition> = match (space, op) {
        (Space::Generic, MbarOp::Init) => Some(&MBAR_INIT_GENERIC),
        (Space::Generic, MbarOp::Inval) => Some(&MBAR_INVAL_GENERIC),
        (Space::Generic, MbarOp::Arrive { drop: false, .. }) => Some(&MBAR_ARRIVE_GENERIC),
        (Space::Generic, MbarOp::Arrive { drop: true, .. }) => Some(&MBAR_ARRIVE_DROP_GENERIC),
        (Space::Generic, MbarOp::ExpectTx) => Some(&MBAR_EXPECT_TX_GENERIC),
        (Space::Generic, MbarOp::CompleteTx) => Some(&MBAR_COMPLETE_TX_GENERIC),
        (Space::Generic, MbarOp::Wait { .. }) => Some(&MBAR_WAIT_GENERIC),
        (Space::Generic, MbarOp::CpAsyncArrive) => Some(&CP_ASYNC_ARRIVE_GENERIC),
        (Space::Generic, MbarOp::StAsync) => Some(&ST_ASYNC_MBAR_SHARED),
        (Space::SharedCta, _) => Some(&MBAR_OWN_CTA),
        (Space::SharedCluster, _) if own_cta => Some(&MBAR_OWN_CTA),
        // a bulk copy's mbarrier is in its destination's space, never
        // generic; .shared::cluster: any CTA's (the memory's rule)
        _ => None,
    };
    let mut out: Vec<&'static Precondition> = place.into_iter().collect();
    out.push(&MBAR_ALIGNED);
    match op {
        MbarOp::Init => out.push(&MBAR_INIT_COUNT),
        MbarOp::Arrive { tx: true, .. } | MbarOp::ExpectTx | MbarOp::CompleteTx => {
            out.push(&MBAR_TX_COUNT)
        }
        MbarOp::Arrive {
            drop, count: true, ..
        } => out.push(if drop {
            &MBAR_ARRIVE_DROP_COUNT
        } else {
            &MBAR_ARRIVE_COUNT
        }),
        MbarOp::Wait { parity: true } => out.push(&MBAR_PARITY),
        _ => {}
    }
    out
}

/// The preconditions that belong to no catalogue row: the mbarrier
/// instructions' (9.7.13.15), and the rules of operands a form has only
/// sometimes (the multicast's `ctaMask`, `st.async`'s generic `mbar`, a
/// tensor load's `mbar`, the im2col offsets of a `.dim`, `{wHalo,
/// wOffset}` of a W mode), and the rules on a tensor map's fields
/// ([`TENSOR_MAP_RULES`]).
static BESIDE_ROWS: &[&Precondition] = &[
    &FNS_BASE,
    &ATOM_GENERIC_SPACE,
    &RED_GENERIC_SPACE,
    &ATOM_VECTOR_GLOBAL,
    &RED_VECTOR_GLOBAL,
    &BAR_WARP_SYNC_MEMBER,
    &VOTE_SYNC_MEMBER,
    &REDUX_SYNC_MEMBER,
    &ELECT_SYNC_MEMBER,
    &MATCH_SYNC_MEMBER,
    &BAR_OPERANDS,
    &BAR_ARRIVE_OPERANDS,
    &MBAR_INIT_GENERIC,
    &MBAR_INVAL_GENERIC,
    &MBAR_EXPECT_TX_GENERIC,
    &MBAR_COMPLETE_TX_GENERIC,
    &MBAR_ARRIVE_GENERIC,
    &MBAR_ARRIVE_DROP_GENERIC,
    &CP_ASYNC_ARRIVE_GENERIC,
    &MBAR_WAIT_GENERIC,
    &MBAR_OWN_CTA,
    &MBAR_ALIGNED,
    &MBAR_INIT_COUNT,
    &MBAR_ARRIVE_COUNT,
    &MBAR_ARRIVE_DROP_COUNT,
    &MBAR_TX_COUNT,
    &MBAR_PARITY,
    &ST_ASYNC_MBAR_SHARED,
    &BULK_CTA_MASK,
    &TENSOR_MBAR_SAME_CTA,
    &TENSOR_MBAR_PAIR,
    &IM2COL_OFFSET_4D,
    &IM2COL_OFFSET_5D,
    &IM2COL_W_HALO,
    &IM2COL_W128_HALO,
    &IM2COL_W_OFFSET,
    &TENSOR_MAP_DIM,
    &TENSOR_MAP_VALID,
    &TENSOR_RED_TYPE,
    &TENSOR_BOX_ALIGNED,
    &TENSOR_COORD_NON_NEGATIVE,
    &TENSOR_IM2COL_FILTER,
];

const LOAD_CTA: &[&Precondition] = &[
    &TENSOR_MAP_SPACE,
    &TENSOR_MAP_ALIGNED,
    &TENSOR_DST_OWN_CTA,
    &TENSOR_SMEM_ALIGNED,
];
const SMEM: &[&Precondition] = &[&TENSOR_MAP_SPACE, &TENSOR_MAP_ALIGNED, &TENSOR_SMEM_ALIGNED];
const MAP_ONLY: &[&Precondition] = &[&TENSOR_MAP_SPACE, &TENSOR_MAP_ALIGNED];

/// The preconditions of each catalogue row (by row id prefix: `ld.` is
/// every `ld` row). A row not named here is in [`EXEMPT`] with the reason.
static BY_ROW: &[(&str, &[&Precondition])] = &[
    ("isspacep", &[]),
    (
        "cvta",
        &[
            &CVTA_LOCAL,
            &CVTA_CONST,
            &CVTA_SHARED_CTA,
            &CVTA_SHARED_CLUSTER,
            &CVTA_PARAM_ENTRY,
        ],
    ),
    (
        "cvta.to",
        &[
            &CVTA_TO_GLOBAL,
            &CVTA_TO_LOCAL,
            &CVTA_TO_CONST,
            &CVTA_TO_SHARED_CTA,
            &CVTA_TO_SHARED_CLUSTER,
            &CVTA_TO_PARAM,
        ],
    ),
    ("mapa.shared::cluster", &[&MAPA_RANK, &MAPA_ADDRESS]),
    ("mapa", &[&MAPA_RANK, &MAPA_GENERIC_ADDRESS]),
    ("getctarank.shared::cluster", &[&GETCTARANK_ADDRESS]),
    ("getctarank", &[&GETCTARANK_GENERIC_ADDRESS]),
    ("ld.weak.cop", &[&ALIGNED, &LD_PARAM_ENTRY]),
    (
        "ld.weak.cop.vec",
        &[&ALIGNED, &LD_PARAM_ENTRY, &WIDE_GLOBAL],
    ),
    (
        "ld.weak.evict",
        &[&ALIGNED, &EVICT_GLOBAL, &HINT_GLOBAL, &PREFETCH_GLOBAL],
    ),
    (
        "ld.weak.evict.vec",
        &[
            &ALIGNED,
            &EVICT_GLOBAL,
            &HINT_GLOBAL,
            &PREFETCH_GLOBAL,
            &WIDE_GLOBAL,
        ],
    ),
    ("ld.volatile", &[&ALIGNED]),
    ("ld.volatile.vec", &[&ALIGNED]),
    ("ld.relaxed", &[&ALIGNED, &HINT_GLOBAL, &PREFETCH_GLOBAL]),
    (
        "ld.relaxed.vec",
        &[&ALIGNED, &HINT_GLOBAL, &PREFETCH_GLOBAL, &WIDE_GLOBAL],
    ),
    ("ld.acquire", &[&ALIGNED, &HINT_GLOBAL, &PREFETCH_GLOBAL]),
    (
        "ld.acquire.vec",
        &[&ALIGNED, &HINT_GLOBAL, &PREFETCH_GLOBAL, &WIDE_GLOBAL],
    ),
    ("ld.mmio", &[&ALIGNED]),
    ("ld.global.nc.cop", &[&ALIGNED, &NC_GLOBAL]),
    ("ld.global.nc.cop.vec", &[&ALIGNED, &NC_GLOBAL]),
    ("ld.global.nc.evict", &[&ALIGNED, &NC_GLOBAL]),
    ("ld.global.nc.evict.vec", &[&ALIGNED, &NC_GLOBAL]),
    ("ldu", &[&ALIGNED, &LDU_GLOBAL]),
    ("ldu.vec", &[&ALIGNED, &LDU_GLOBAL]),
    ("st.weak.cop", &[&ALIGNED]),
    ("st.weak.cop.vec", &[&ALIGNED, &WIDE_GLOBAL]),
    ("st.weak.evict", &[&ALIGNED, &EVICT_GLOBAL, &HINT_GLOBAL]),
    (
        "st.weak.evict.vec",
        &[&ALIGNED, &EVICT_GLOBAL, &HINT_GLOBAL, &WIDE_GLOBAL],
    ),
    ("st.volatile", &[&ALIGNED]),
    ("st.volatile.vec", &[&ALIGNED]),
    ("st.relaxed", &[&ALIGNED, &HINT_GLOBAL]),
    ("st.relaxed.vec", &[&ALIGNED, &HINT_GLOBAL, &WIDE_GLOBAL]),
    ("st.release", &[&ALIGNED, &HINT_GLOBAL]),
    ("st.release.vec", &[&ALIGNED, &HINT_GLOBAL, &WIDE_GLOBAL]),
    ("st.mmio", &[&ALIGNED]),
    (
        "st.async.weak",
        &[
            &ALIGNED,
            &ST_ASYNC_SHARED,
            &ST_ASYNC_CLUSTER,
            &ST_ASYNC_SAME_CTA,
        ],
    ),
    (
        "st.async.weak.vec",
        &[
            &ALIGNED,
            &ST_ASYNC_SHARED,
            &ST_ASYNC_CLUSTER,
            &ST_ASYNC_SAME_CTA,
        ],
    ),
    ("st.async.release", &[&ALIGNED, &ST_ASYNC_GLOBAL]),
    ("st.bulk", &[&ST_BULK_SIZE, &ST_BULK_SHARED]),
    ("shfl.sync", &[&SHFL_MEMBER]),
    (
        "cp.async.ca",
        &[
            &CP_ASYNC_SRC_SIZE,
            &CP_ASYNC_DST_ALIGNED,
            &CP_ASYNC_SRC_ALIGNED,
        ],
    ),
    (
        "cp.async.cg",
        &[
            &CP_ASYNC_SRC_SIZE,
            &CP_ASYNC_DST_ALIGNED,
            &CP_ASYNC_SRC_ALIGNED,
        ],
    ),
    (
        "cp.async.ca.ignore-src",
        &[&CP_ASYNC_DST_ALIGNED, &CP_ASYNC_SRC_ALIGNED],
    ),
    (
        "cp.async.cg.ignore-src",
        &[&CP_ASYNC_DST_ALIGNED, &CP_ASYNC_SRC_ALIGNED],
    ),
    (
        "cp.async.bulk.shared::cta.global",
        &[
            &BULK_SIZE,
            &BULK_DST_ALIGNED,
            &BULK_SRC_ALIGNED,
            &BULK_DST_OWN_CTA,
        ],
    ),
    (
        "cp.async.bulk.shared::cluster.global",
        &[&BULK_SIZE, &BULK_DST_ALIGNED, &BULK_SRC_ALIGNED],
    ),
    (
        "cp.async.bulk.shared::cluster.shared::cta",
        &[
            &BULK_SIZE,
            &BULK_DST_ALIGNED,
            &BULK_SRC_ALIGNED,
            &BULK_DST_OTHER_CTA,
        ],
    ),
    (
        "cp.async.bulk.global.shared::cta",
        &[&BULK_SIZE, &BULK_DST_ALIGNED, &BULK_SRC_ALIGNED],
    ),
    (
        "cp.reduce.async.bulk.shared::cluster.shared::cta",
        &[
            &REDUCE_BULK_SIZE,
            &REDUCE_BULK_DST_ALIGNED,
            &REDUCE_BULK_SRC_ALIGNED,
        ],
    ),
    (
        "cp.reduce.async.bulk.global.shared::cta",
        &[
            &REDUCE_BULK_SIZE,
            &REDUCE_BULK_DST_ALIGNED,
            &REDUCE_BULK_SRC_ALIGNED,
        ],
    ),
    (
        "cp.reduce.async.bulk.global.shared::cta.add.noftz",
        &[
            &REDUCE_BULK_SIZE,
            &REDUCE_BULK_DST_ALIGNED,
            &REDUCE_BULK_SRC_ALIGNED,
        ],
    ),
    (
        "cp.async.bulk.prefetch",
        &[&PREFETCH_BULK_SIZE, &PREFETCH_BULK_ALIGNED],
    ),
    ("cp.async.bulk.tensor.shared::cta.global.tile", LOAD_CTA),
    (
        "cp.async.bulk.tensor.shared::cta.global.tile::gather4",
        LOAD_CTA,
    ),
    (
        "cp.async.bulk.tensor.3d.shared::cta.global.im2col",
        LOAD_CTA,
    ),
    (
        "cp.async.bulk.tensor.4d.shared::cta.global.im2col",
        LOAD_CTA,
    ),
    (
        "cp.async.bulk.tensor.5d.shared::cta.global.im2col",
        LOAD_CTA,
    ),
    (
        "cp.async.bulk.tensor.shared::cta.global.im2col::w",
        LOAD_CTA,
    ),
    ("cp.async.bulk.tensor.shared::cluster.global.tile", SMEM),
    (
        "cp.async.bulk.tensor.shared::cluster.global.tile::gather4",
        SMEM,
    ),
    (
        "cp.async.bulk.tensor.3d.shared::cluster.global.im2col",
        SMEM,
    ),
    (
        "cp.async.bulk.tensor.4d.shared::cluster.global.im2col",
        SMEM,
    ),
    (
        "cp.async.bulk.tensor.5d.shared::cluster.global.im2col",
        SMEM,
    ),
    (
        "cp.async.bulk.tensor.shared::cluster.global.im2col::w",
        SMEM,
    ),
    ("cp.async.bulk.tensor.global.shared::cta.tile", SMEM),
    (
        "cp.async.bulk.tensor.global.shared::cta.tile::scatter4",
        SMEM,
    ),
    (
        "cp.async.bulk.tensor.global.shared::cta.im2col_no_offs",
        SMEM,
    ),
    ("cp.reduce.async.bulk.tensor.tile", SMEM),
    ("cp.reduce.async.bulk.tensor.im2col_no_offs", SMEM),
    ("cp.async.bulk.prefetch.tensor.tile", MAP_ONLY),
    ("cp.async.bulk.prefetch.tensor.tile::gather4", MAP_ONLY),
    ("cp.async.bulk.prefetch.tensor.3d.im2col", MAP_ONLY),
    ("cp.async.bulk.prefetch.tensor.4d.im2col", MAP_ONLY),
    ("cp.async.bulk.prefetch.tensor.5d.im2col", MAP_ONLY),
    ("cp.async.bulk.prefetch.tensor.im2col::w", MAP_ONLY),
    (
        "applypriority",
        &[
            &APPLYPRIORITY_GLOBAL,
            &APPLYPRIORITY_SIZE,
            &APPLYPRIORITY_ALIGNED,
        ],
    ),
    (
        "discard",
        &[&DISCARD_GLOBAL, &DISCARD_SIZE, &DISCARD_ALIGNED],
    ),
    ("createpolicy.range", &[&POLICY_GLOBAL, &POLICY_SIZES]),
    ("createpolicy.fractional", &[&POLICY_FRACTION]),
    ("multimem.ld_reduce.int", &[&ALIGNED, &MULTIMEM_GLOBAL]),
    ("multimem.ld_reduce.int.weak", &[&ALIGNED, &MULTIMEM_GLOBAL]),
    ("multimem.st.int", &[&ALIGNED, &MULTIMEM_GLOBAL]),
    ("multimem.st.int.weak", &[&ALIGNED, &MULTIMEM_GLOBAL]),
    ("multimem.red.int", &[&ALIGNED, &MULTIMEM_GLOBAL]),
    ("multimem.ld_reduce.float", &[&ALIGNED, &MULTIMEM_GLOBAL]),
    (
        "multimem.ld_reduce.float.vec",
        &[&ALIGNED, &MULTIMEM_GLOBAL],
    ),
    (
        "multimem.ld_reduce.float.weak",
        &[&ALIGNED, &MULTIMEM_GLOBAL],
    ),
    (
        "multimem.ld_reduce.float.weak.vec",
        &[&ALIGNED, &MULTIMEM_GLOBAL],
    ),
    ("multimem.st.float", &[&ALIGNED, &MULTIMEM_GLOBAL]),
    ("multimem.st.float.vec", &[&ALIGNED, &MULTIMEM_GLOBAL]),
    ("multimem.st.float.weak", &[&ALIGNED, &MULTIMEM_GLOBAL]),
    ("multimem.st.float.weak.vec", &[&ALIGNED, &MULTIMEM_GLOBAL]),
    ("multimem.red.float", &[&ALIGNED, &MULTIMEM_GLOBAL]),
    ("multimem.red.float.vec", &[&ALIGNED, &MULTIMEM_GLOBAL]),
    (
        "tensormap.replace.field1",
        &[
            &TENSORMAP_REPLACE_WINDOW,
            &TENSORMAP_REPLACE_ALIGNED,
            &TENSORMAP_REPLACE_GLOBAL_ADDRESS,
            &TENSORMAP_REPLACE_RANK,
        ],
    ),
    (
        "tensormap.replace.field2",
        &[
            &TENSORMAP_REPLACE_WINDOW,
            &TENSORMAP_REPLACE_ALIGNED,
            &TENSORMAP_REPLACE_BOX_DIM,
            &TENSORMAP_REPLACE_GLOBAL_DIM,
            &TENSORMAP_REPLACE_GLOBAL_STRIDE,
            &TENSORMAP_REPLACE_ELEMENT_STRIDE,
        ],
    ),
    (
        "tensormap.replace.field3",
        &[&TENSORMAP_REPLACE_WINDOW, &TENSORMAP_REPLACE_ALIGNED],
    ),
];

/// Rows with no precondition as data, and why. A row whose spec section
/// says "undefined" and that is neither in [`BY_ROW`] nor here fails a
/// test.
pub static EXEMPT: &[(&str, &str)] = &[
    ("shfl", "9.7.9.5: \"results are undefined in divergent control flow within a warp, if an active thread sources a register from an inactive thread\": a property of the other lanes at the shuffle, decided over the whole warp by `sim::shfl` (an undefined result, not a precondition of one thread)"),
    ("createpolicy.cvt", "9.7.9.18's undefined cases belong to the range form (the global window) and the fraction form (the fraction's range); createpolicy.cvt converts an access property and names none"),
    ("cp.async.commit_group", "9.7.9.25.3.2: \"two or more cp.async operations within a cp.async-group copying data to the same location results in undefined behavior\": a relation between several copies, a data race for the memory model, not a precondition of one instruction"),
    ("cp.async.wait_group", "9.7.9.25.1: accessing the memory of an incomplete asynchronous operation is a data race for the memory model, not a precondition"),
    ("cp.async.wait_all", "9.7.9.25.1: as cp.async.wait_group"),
    ("cp.async.bulk.commit_group", "9.7.9.25.1: as cp.async.wait_group"),
    ("cp.async.bulk.wait_group", "9.7.9.25.1: as cp.async.wait_group"),
    ("cp.async.bulk.tensor.*", "9.7.9.25.5.2: every form's rules on its operands are listed by row; the rules on the map's fields are TENSOR_MAP_RULES (the simulator's, on the map it reads; conform ub's for a map it is given)"),
];

/// The preconditions of the catalogue row with this id (empty when it has
/// none).
pub fn for_row(id: &str) -> &'static [&'static Precondition] {
    BY_ROW
        .iter()
        .find(|(row, _)| *row == id)
        .map_or(&[], |(_, pres)| pres)
}

/// Every precondition, each once: the rows', then those beside the rows
/// ([`mbarrier`]'s, [`bulk_multicast`]'s).
pub fn all() -> Vec<&'static Precondition> {
    let mut out: Vec<&'static Precondition> = Vec::new();
    let rows = BY_ROW.iter().flat_map(|(_, pres)| pres.iter());
    for p in rows.chain(BESIDE_ROWS.iter()) {
        if !out.iter().any(|q| std::ptr::eq(*q, *p)) {
            out.push(p);
        }
    }
    out
}

/// Whether the row with this id is listed (with preconditions or without).
pub fn listed(id: &str) -> bool {
    BY_ROW.iter().any(|(row, _)| *row == id)
        || EXEMPT.iter().any(|(pat, _)| match pat.strip_suffix('*') {
            Some(prefix) => id.starts_with(prefix),
            None => *pat == id,
        })
}
