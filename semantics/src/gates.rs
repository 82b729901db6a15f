//! PTX ISA versions and targets for what the catalogues do not describe:
//! the instructions outside PTX ISA 9.7.9, 9.7.1-9.7.7 and the rows of
//! `catalogue::arith` (`atom`, `red`, `bar`/`barrier`, `membar`/`fence`,
//! `mbarrier`): warp-level synchronisation, tensor-core and cluster
//! instructions and more, the special registers of PTX ISA
//! 10, the `.pragma` strings of PTX ISA 12 and the fundamental types of
//! 5.2.1. Each entry states the requirement of the "PTX ISA Notes" and
//! "Target ISA Notes" of its section (PTX ISA 9.0); where the notes are
//! silent there is no entry. The comments give the notes' content in
//! their words as far as they are known here, not always verbatim: every
//! entry whose form occurs in the `.target`/`.version` variants of the
//! real-world corpus was checked against ptxas 13.0's messages there
//! (`tools/realworld/variants.py`, corpus/realworld/README.md); the few
//! without such a form (`%clock_hi`, whose PTX ISA 5.0 lies below what
//! ptxas 13.0 takes for any target it compiles) rests on the notes alone;
//! `used_bytes_mask` (8.3), `wgmma.mma_async.sp` (8.2) and `.kind::i8`
//! (architecture-specific targets only) were checked on small modules
//! (ptxas 13.0: "Feature 'used_bytes_mask' requires PTX ISA .version 8.3 or
//! later", "Feature 'Sparse WGMMA with floating point types' requires PTX
//! ISA .version 8.2 or later", "Feature '.kind::i8' not supported on
//! .target 'sm_100f'"; and `bar.cta`/`barrier.cta` under 7.7, as the rows
//! of `catalogue::arith::sync` say). The clauses that depend on
//! operands (the `scale-input-d` operand of `tcgen05.mma`) are
//! [`instruction_operands`]'s.
//!
//! Requirements that hold "from PTX ISA 8.8" on family-specific targets
//! (`sm_100f`...) need no version of their own: a family-specific target
//! is only known from PTX ISA 8.8 on ([`Target::min_ptx`]).

use crate::catalogue::target::{PtxVersion, Requirement, Target, TargetSuffix};

/// One requirement: what needs it (as the message names it), the section
/// of PTX ISA that states it, the version and targets.
#[derive(Clone, Debug)]
pub struct Gate {
    pub what: &'static str,
    pub section: &'static str,
    pub req: Requirement,
}

const fn sm(number: u32) -> Target {
    Target {
        number,
        suffix: TargetSuffix::Plain,
    }
}

const fn sm_a(number: u32) -> Target {
    Target {
        number,
        suffix: TargetSuffix::Arch,
    }
}

const fn sm_f(number: u32) -> Target {
    Target {
        number,
        suffix: TargetSuffix::Family,
    }
}

const fn v(major: u32, minor: u32) -> Option<PtxVersion> {
    Some(PtxVersion::new(major, minor))
}

const ANY: &[Target] = &[];
const SM_20: &[Target] = &[sm(20)];
const SM_30: &[Target] = &[sm(30)];
const SM_50: &[Target] = &[sm(50)];
const SM_52: &[Target] = &[sm(52)];
const SM_70: &[Target] = &[sm(70)];
const SM_75: &[Target] = &[sm(75)];
const SM_80: &[Target] = &[sm(80)];
const SM_89: &[Target] = &[sm(89)];
const SM_90: &[Target] = &[sm(90)];
const SM_90A: &[Target] = &[sm_a(90)];
const SM_100: &[Target] = &[sm(100)];

/// PTX ISA 9.7.16 (every `tcgen05` instruction but `shift` and `ld.red`):
/// "Supported on following architectures: sm_100a, sm_101a (Renamed to
/// sm_110a from PTX ISA version 9.0). And is supported on following
/// family-specific architectures from PTX ISA version 8.8: sm_100f or
/// higher in the same family, sm_101f or higher in the same family
/// (Renamed to sm_110f from PTX ISA version 9.0), sm_110f or higher in the
/// same family."
const TCGEN05: &[Target] = &[
    sm_a(100),
    sm_a(101),
    sm_a(110),
    sm_f(100),
    sm_f(101),
    sm_f(110),
];

/// PTX ISA 9.7.16 `tcgen05.shift`: architecture-specific targets only,
/// "sm_100a, sm_101a (Renamed to sm_110a from PTX ISA version 9.0),
/// sm_103a".
const TCGEN05_SHIFT: &[Target] = &[sm_a(100), sm_a(101), sm_a(103), sm_a(110)];

/// PTX ISA 9.7.16 `tcgen05.ld.red`: "sm_101a (Renamed to sm_110a from PTX
/// ISA version 9.0), sm_101f or higher in the same family (Renamed to
/// sm_110f), sm_103f or higher in the same family, sm_110f or higher in the
/// same family".
const TCGEN05_LD_RED: &[Target] = &[sm_a(101), sm_a(110), sm_f(101), sm_f(103), sm_f(110)];

/// PTX ISA 9.7.16 `tcgen05.mma`: ".kind::i8" is not among the qualifiers
/// the family-specific targets support ("...from PTX ISA version 8.8
/// except .kind::i8"): sm_100a and sm_101a (sm_110a) only.
const TCGEN05_I8: &[Target] = &[sm_a(100), sm_a(101), sm_a(110)];

/// PTX ISA 9.7.16 `tcgen05.mma`: the `.scale_vec::NX` sizes are given for
/// the architecture-specific targets; the family-specific targets take the
/// `.block16`/`.block32` spelling instead.
const TCGEN05_SCALE_VEC: &[Target] = &[sm_a(100), sm_a(101), sm_a(103), sm_a(110)];

/// PTX ISA 9.7.19 `setmaxnreg`: "Requires sm_90a. Supported on sm_100a,
/// sm_101a (Renamed to sm_110a), sm_120a; and on sm_100f, sm_101f (sm_110f),
/// sm_120f or higher in the same family from PTX ISA version 8.8."
const SETMAXNREG: &[Target] = &[
    sm_a(90),
    sm_a(100),
    sm_a(101),
    sm_a(110),
    sm_a(120),
    sm_f(100),
    sm_f(101),
    sm_f(110),
    sm_f(120),
];

/// PTX ISA 9.7.13.17 `clusterlaunchcontrol.try_cancel`: "The qualifier
/// .multicast::cluster::all is supported on sm_100a, sm_101a (Renamed to
/// sm_110a), sm_120a, and on sm_100f, sm_101f (sm_110f), sm_120f or higher
/// in the same family from PTX ISA version 8.8."
const CLC_MULTICAST: &[Target] = &[
    sm_a(100),
    sm_a(101),
    sm_a(110),
    sm_a(120),
    sm_f(100),
    sm_f(101),
    sm_f(110),
    sm_f(120),
];

/// A gate as constant data, turned into a [`Gate`] once.
struct Spec {
    what: &'static str,
    section: &'static str,
    ptx: Option<PtxVersion>,
    targets: &'static [Target],
}

/// Declares the gates: one name, message, section, version and targets per
/// line, with the clause of the spec behind it as its doc comment.
macro_rules! gates {
    ($($(#[doc = $doc:expr])* $id:ident = ($what:expr, $section:expr, $ptx:expr, $targets:expr);)*) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        enum GateId {
            $($(#[doc = $doc])* $id,)*
        }
        const SPECS: &[Spec] = &[
            $(Spec { what: $what, section: $section, ptx: $ptx, targets: $targets },)*
        ];
    };
}

gates! {
    // ---- PTX ISA 9.7.13.15 mbarrier (the rest: catalogue::arith) ----
    /// 9.7.13.15.15: "cp.async.mbarrier.arrive introduced in PTX ISA
    /// version 7.0"; "Requires sm_80 or higher."
    CP_ASYNC_MBARRIER_ARRIVE = ("`cp.async.mbarrier.arrive`", "9.7.13.15.15", v(7, 0), SM_80);
    /// 9.7.13.15.15: "Support for sub-qualifier ::cta on .shared
    /// introduced in PTX ISA version 7.8."
    MBARRIER_SHARED_CTA = ("the `.shared::cta` state space", "9.7.13.15", v(7, 8), ANY);

    // ---- PTX ISA 9.7.13.7-18 ----
    /// 9.7.13.7: "red.async introduced in PTX ISA version 8.1"; "Requires
    /// sm_90 or higher."
    RED_ASYNC = ("`red.async`", "9.7.13.7", v(8, 1), SM_90);
    /// 9.7.13.9: "vote.sync introduced in PTX ISA version 6.0"; "Requires
    /// sm_30 or higher."
    VOTE_SYNC = ("`vote.sync`", "9.7.13.9", v(6, 0), SM_30);
    /// 9.7.13.10: "match.sync introduced in PTX ISA version 6.0";
    /// "Requires sm_70 or higher."
    MATCH_SYNC = ("`match.sync`", "9.7.13.10", v(6, 0), SM_70);
    /// 9.7.13.11: "activemask introduced in PTX ISA version 6.2";
    /// "Requires sm_30 or higher."
    ACTIVEMASK = ("`activemask`", "9.7.13.11", v(6, 2), SM_30);
    /// 9.7.13.12: "redux.sync introduced in PTX ISA version 7.0";
    /// "redux.sync requires sm_80 or higher."
    REDUX_SYNC = ("`redux.sync`", "9.7.13.12", v(7, 0), SM_80);
    /// 9.7.13.13: "griddepcontrol introduced in PTX ISA version 7.8";
    /// "Requires sm_90 or higher."
    GRIDDEPCONTROL = ("`griddepcontrol`", "9.7.13.13", v(7, 8), SM_90);
    /// 9.7.13.14: "elect.sync introduced in PTX ISA version 8.0"; "Requires
    /// sm_90 or higher."
    ELECT_SYNC = ("`elect.sync`", "9.7.13.14", v(8, 0), SM_90);
    /// 9.7.13.16: "tensormap.cp_fenceproxy introduced in PTX ISA version
    /// 8.3"; "Requires sm_90 or higher."
    TENSORMAP_CP_FENCEPROXY = ("`tensormap.cp_fenceproxy`", "9.7.13.16", v(8, 3), SM_90);
    /// 9.7.13.17/.18: "clusterlaunchcontrol.try_cancel /
    /// clusterlaunchcontrol.query_cancel introduced in PTX ISA version
    /// 8.6"; "Requires sm_100 or higher."
    CLUSTERLAUNCHCONTROL = ("`clusterlaunchcontrol`", "9.7.13.17", v(8, 6), SM_100);
    /// 9.7.13.17: see [`CLC_MULTICAST`].
    CLC_MULTICAST_ALL = ("the `.multicast::cluster::all` qualifier", "9.7.13.17", v(8, 6), CLC_MULTICAST);

    // ---- PTX ISA 9.7.14-9.7.16 matrix instructions ----
    /// 9.7.14.5.15: "ldmatrix introduced in PTX ISA version 6.5";
    /// "Requires sm_75 or higher."
    LDMATRIX = ("`ldmatrix`", "9.7.14.5.15", v(6, 5), SM_75);
    /// 9.7.14.5.16: "stmatrix introduced in PTX ISA version 7.8";
    /// "Requires sm_90 or higher."
    STMATRIX = ("`stmatrix`", "9.7.14.5.16", v(7, 8), SM_90);
    /// 9.7.14.5.17: "movmatrix introduced in PTX ISA version 7.8";
    /// "Requires sm_75 or higher."
    MOVMATRIX = ("`movmatrix`", "9.7.14.5.17", v(7, 8), SM_75);
    /// 9.7.15: "wgmma.* introduced in PTX ISA version 8.0"; "Requires
    /// sm_90a."
    WGMMA = ("`wgmma`", "9.7.15", v(8, 0), SM_90A);
    /// 9.7.15.6: "Support for .sp variant of wgmma.mma_async introduced in
    /// PTX ISA version 8.2."
    WGMMA_SP = ("`wgmma.mma_async.sp`", "9.7.15", v(8, 2), SM_90A);
    /// 9.7.16: "tcgen05.* introduced in PTX ISA version 8.6"; targets as
    /// [`TCGEN05`].
    TCGEN05_ALL = ("`tcgen05`", "9.7.16", v(8, 6), TCGEN05);
    /// 9.7.16: `tcgen05.shift`, targets as [`TCGEN05_SHIFT`].
    TCGEN05_SHIFT_ALL = ("`tcgen05.shift`", "9.7.16", v(8, 6), TCGEN05_SHIFT);
    /// 9.7.16: "tcgen05.ld.red introduced in PTX ISA version 8.8"; targets
    /// as [`TCGEN05_LD_RED`].
    TCGEN05_LD_RED_ALL = ("`tcgen05.ld.red`", "9.7.16", v(8, 8), TCGEN05_LD_RED);
    /// 9.7.16: "Qualifier .kind::mxf4nvf4 and .scale_vec::4X introduced
    /// in PTX ISA version 8.7."
    TCGEN05_PTX87 = ("the `.kind::mxf4nvf4`/`.scale_vec::4X` qualifier", "9.7.16", v(8, 7), TCGEN05);
    /// 9.7.16: "Qualifiers .block16 and .block32 introduced in PTX ISA
    /// version 8.8."
    TCGEN05_BLOCK = ("the `.block16`/`.block32` qualifier", "9.7.16", v(8, 8), TCGEN05);
    /// 9.7.16: see [`TCGEN05_SCALE_VEC`].
    TCGEN05_SCALE_VEC_NX = ("a `.scale_vec::NX` qualifier", "9.7.16", v(8, 6), TCGEN05_SCALE_VEC);
    /// 9.7.16: see [`TCGEN05_I8`].
    TCGEN05_KIND_I8 = ("the `.kind::i8` qualifier", "9.7.16", v(8, 6), TCGEN05_I8);
    /// 9.7.16 `tcgen05.mma`: "Argument scale-input-d requires sm_100a and
    /// is supported on sm_100f or higher in the same family from PTX ISA
    /// version 8.8."
    TCGEN05_SCALE_INPUT_D = ("the `scale-input-d` operand", "9.7.16", v(8, 6), &[sm_a(100), sm_f(100)]);

    /// 9.7.14.5.15/.16: "Support for ::cta sub-qualifier introduced in PTX
    /// ISA version 7.8" (`ldmatrix`/`stmatrix` `.shared::cta`).
    MATRIX_SHARED_CTA = ("the `.shared::cta` state space", "9.7.14.5.15", v(7, 8), ANY);
    /// 9.7.14.5.14 `mma`: "Support for .e4m3 and .e5m2 alternate
    /// floating-point types introduced in PTX ISA version 8.4"; "requires
    /// sm_89 or higher".
    MMA_FP8 = ("an `.e4m3`/`.e5m2` type", "9.7.14.5.14", v(8, 4), SM_89);
    /// 9.7.14.6 `mma.sp`: "Support for .sp::ordered_metadata introduced in
    /// PTX ISA version 8.5".
    MMA_ORDERED_METADATA = ("the `.sp::ordered_metadata` qualifier", "9.7.14.6", v(8, 5), ANY);
    /// 9.7.13.12 `redux.sync`: "Support for .f32 type introduced in PTX
    /// ISA version 8.6"; ".f32 type requires sm_100a" and "is supported on
    /// sm_100f or higher in the same family from PTX ISA version 8.8".
    REDUX_F32 = ("the `.f32` type", "9.7.13.12", v(8, 6), &[sm_a(100), sm_f(100)]);
    /// 11.4 (performance-tuning directives `.explicitcluster`,
    /// `.reqnctapercluster`, `.maxclusterrank`): "Introduced in PTX ISA
    /// version 7.8"; "Requires sm_90 or higher".
    CLUSTER_DIRECTIVE = ("the cluster directive", "11.4", v(7, 8), SM_90);

    // ---- PTX ISA 9.7.17-9.7.19 ----
    /// 9.7.17: "alloca, stacksave and stackrestore introduced in PTX ISA
    /// version 7.3"; "Requires sm_52 or higher."
    STACK = ("`alloca`/`stacksave`/`stackrestore`", "9.7.17", v(7, 3), SM_52);
    /// 9.7.19: "nanosleep introduced in PTX ISA version 6.3"; "nanosleep
    /// requires sm_70 or higher."
    NANOSLEEP = ("`nanosleep`", "9.7.19", v(6, 3), SM_70);
    /// 9.7.19: "setmaxnreg introduced in PTX ISA version 8.0"; targets as
    /// [`SETMAXNREG`].
    SETMAXNREG_ALL = ("`setmaxnreg`", "9.7.19", v(8, 0), SETMAXNREG);

    // ---- PTX ISA 9.7.12, 9.7.14, 9.7.18, 9.7.19: the rest ----
    /// 9.7.12.4: "brx.idx introduced in PTX ISA version 6.0"; "brx.idx
    /// requires sm_30 or higher."
    BRX_IDX = ("`brx.idx`", "9.7.12.4", v(6, 0), SM_30);
    /// 9.7.14: "mma.sync.aligned introduced in PTX ISA version 6.4";
    /// "Requires sm_70 or higher" (each shape and type later on).
    MMA = ("`mma`", "9.7.14", v(6, 4), SM_70);
    /// 9.7.14: "wmma introduced in PTX ISA version 6.0"; "Requires sm_70
    /// or higher."
    WMMA = ("`wmma`", "9.7.14", v(6, 0), SM_70);
    /// 9.7.18.1: the scalar video instructions were "introduced in PTX ISA
    /// version 2.0"; "require sm_20 or higher."
    VIDEO_SCALAR = ("the scalar video instructions", "9.7.18.1", v(2, 0), SM_20);
    /// 9.7.18.2: the SIMD video instructions were "introduced in PTX ISA
    /// version 3.0"; "require sm_30 or higher."
    VIDEO_SIMD = ("the SIMD video instructions", "9.7.18.2", v(3, 0), SM_30);
    /// 9.7.19: "pmevent.mask introduced in PTX ISA version 3.0";
    /// "pmevent.mask requires sm_20 or higher."
    PMEVENT_MASK = ("`pmevent.mask`", "9.7.19", v(3, 0), SM_20);

    // ---- PTX ISA 10 special registers ----
    /// 10.5: "%nwarpid introduced in PTX ISA version 2.0"; "%nwarpid
    /// requires sm_20 or higher."
    SR_NWARPID = ("`%nwarpid`", "10.5", v(2, 0), SM_20);
    /// 10.9: "%nsmid introduced in PTX ISA version 2.0"; "%nsmid requires
    /// sm_20 or higher."
    SR_NSMID = ("`%nsmid`", "10.9", v(2, 0), SM_20);
    /// 10.12-10.18: "Introduced in PTX ISA version 7.8"; "Requires sm_90
    /// or higher."
    SR_IS_EXPLICIT_CLUSTER = ("`%is_explicit_cluster`", "10.12", v(7, 8), SM_90);
    SR_CLUSTERID = ("`%clusterid`", "10.13", v(7, 8), SM_90);
    SR_NCLUSTERID = ("`%nclusterid`", "10.14", v(7, 8), SM_90);
    SR_CLUSTER_CTAID = ("`%cluster_ctaid`", "10.15", v(7, 8), SM_90);
    SR_CLUSTER_NCTAID = ("`%cluster_nctaid`", "10.16", v(7, 8), SM_90);
    SR_CLUSTER_CTARANK = ("`%cluster_ctarank`", "10.17", v(7, 8), SM_90);
    SR_CLUSTER_NCTARANK = ("`%cluster_nctarank`", "10.18", v(7, 8), SM_90);
    /// 10: "%lanemask_{eq,le,lt,ge,gt} introduced in PTX ISA version 2.0";
    /// "Requires sm_20 or higher."
    SR_LANEMASK = ("a `%lanemask_*` register", "10", v(2, 0), SM_20);
    /// 10: "%clock_hi introduced in PTX ISA version 5.0."
    SR_CLOCK_HI = ("`%clock_hi`", "10", v(5, 0), ANY);
    /// 10: "%clock64 introduced in PTX ISA version 2.0"; "%clock64 requires
    /// sm_20 or higher."
    SR_CLOCK64 = ("`%clock64`", "10", v(2, 0), SM_20);
    /// 10: "%pm0_64..%pm7_64 introduced in PTX ISA version 4.0";
    /// "%pm0_64..%pm7_64 require sm_50 or higher."
    SR_PM64 = ("a `%pmN_64` register", "10", v(4, 0), SM_50);
    /// 10: "%envreg<32> introduced in PTX ISA version 2.1."
    SR_ENVREG = ("an `%envreg` register", "10", v(2, 1), ANY);
    /// 10: "%globaltimer, %globaltimer_lo and %globaltimer_hi introduced in
    /// PTX ISA version 3.1"; "Requires sm_30 or higher."
    SR_GLOBALTIMER = ("a `%globaltimer` register", "10", v(3, 1), SM_30);
    /// 10: "%reserved_smem_offset_begin, %reserved_smem_offset_end,
    /// %reserved_smem_offset_cap, %reserved_smem_offset_<2> introduced in
    /// PTX ISA version 7.6"; "Require sm_80 or higher."
    SR_RESERVED_SMEM = ("a `%reserved_smem_offset_*` register", "10", v(7, 6), SM_80);
    /// 10: "%total_smem_size introduced in PTX ISA version 4.1";
    /// "%total_smem_size requires sm_20 or higher."
    SR_TOTAL_SMEM = ("`%total_smem_size`", "10", v(4, 1), SM_20);
    /// 10.31: "%aggr_smem_size introduced in PTX ISA version 8.1";
    /// "Requires sm_90 or higher."
    SR_AGGR_SMEM = ("`%aggr_smem_size`", "10.31", v(8, 1), SM_90);
    /// 10: "%dynamic_smem_size introduced in PTX ISA version 4.1";
    /// "%dynamic_smem_size requires sm_20 or higher."
    SR_DYNAMIC_SMEM = ("`%dynamic_smem_size`", "10", v(4, 1), SM_20);
    /// 10.35: "%current_graph_exec introduced in PTX ISA version 8.0";
    /// "%current_graph_exec requires sm_50 or higher."
    SR_CURRENT_GRAPH_EXEC = ("`%current_graph_exec`", "10.35", v(8, 0), SM_50);

    // ---- PTX ISA 5.2.1 and 12 ----
    /// 5.2.1: "The .b128 type introduced in PTX ISA version 8.3."
    B128 = ("the `.b128` type", "5.2.1", v(8, 3), ANY);
    /// 12: "nounroll": "Introduced in PTX ISA version 2.0" (it is ignored,
    /// not refused, on sm_1x targets).
    PRAGMA_NOUNROLL = ("the `nounroll` pragma", "12", v(2, 0), ANY);
    /// 12: "used_bytes_mask": "Introduced in PTX ISA version 8.3."
    PRAGMA_USED_BYTES_MASK = ("the `used_bytes_mask` pragma", "12", v(8, 3), ANY);
    /// 12: "enable_smem_spilling": "Introduced in PTX ISA version 8.7."
    PRAGMA_ENABLE_SMEM_SPILLING = ("the `enable_smem_spilling` pragma", "12", v(8, 7), ANY);
}

/// The gates, built once from [`SPECS`] in the order of [`GateId`].
fn table() -> &'static [Gate] {
    static TABLE: std::sync::OnceLock<Vec<Gate>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        SPECS
            .iter()
            .map(|s| Gate {
                what: s.what,
                section: s.section,
                req: Requirement {
                    ptx: s.ptx,
                    targets: s.targets.to_vec(),
                },
            })
            .collect()
    })
}

fn gate(id: GateId) -> &'static Gate {
    &table()[id as usize]
}

fn has(quals: &[String], q: &str) -> bool {
    quals.iter().any(|x| x == q)
}

fn has_prefix(quals: &[String], prefix: &str) -> bool {
    quals.iter().any(|x| x.starts_with(prefix))
}

fn first(quals: &[String]) -> &str {
    quals.first().map_or("", |q| q.as_str())
}

/// The gate of a special register (`%cluster_ctaid.x` is `%cluster_ctaid`'s).
pub fn special_register(name: &str) -> Option<&'static Gate> {
    let base = name.split_once('.').map_or(name, |(b, _)| b);
    let id = match base {
        "%nwarpid" => GateId::SR_NWARPID,
        "%nsmid" => GateId::SR_NSMID,
        "%is_explicit_cluster" => GateId::SR_IS_EXPLICIT_CLUSTER,
        "%clusterid" => GateId::SR_CLUSTERID,
        "%nclusterid" => GateId::SR_NCLUSTERID,
        "%cluster_ctaid" => GateId::SR_CLUSTER_CTAID,
        "%cluster_nctaid" => GateId::SR_CLUSTER_NCTAID,
        "%cluster_ctarank" => GateId::SR_CLUSTER_CTARANK,
        "%cluster_nctarank" => GateId::SR_CLUSTER_NCTARANK,
        "%lanemask_eq" | "%lanemask_le" | "%lanemask_lt" | "%lanemask_ge" | "%lanemask_gt" => {
            GateId::SR_LANEMASK
        }
        "%clock_hi" => GateId::SR_CLOCK_HI,
        "%clock64" => GateId::SR_CLOCK64,
        "%pm0_64" | "%pm1_64" | "%pm2_64" | "%pm3_64" | "%pm4_64" | "%pm5_64" | "%pm6_64"
        | "%pm7_64" => GateId::SR_PM64,
        "%globaltimer" | "%globaltimer_lo" | "%globaltimer_hi" => GateId::SR_GLOBALTIMER,
        "%reserved_smem_offset_begin"
        | "%reserved_smem_offset_end"
        | "%reserved_smem_offset_cap"
        | "%reserved_smem_offset_0"
        | "%reserved_smem_offset_1" => GateId::SR_RESERVED_SMEM,
        "%total_smem_size" => GateId::SR_TOTAL_SMEM,
        "%aggr_smem_size" => GateId::SR_AGGR_SMEM,
        "%dynamic_smem_size" => GateId::SR_DYNAMIC_SMEM,
        "%current_graph_exec" => GateId::SR_CURRENT_GRAPH_EXEC,
        _ if is_envreg(base) => GateId::SR_ENVREG,
        _ => return None,
    };
    Some(gate(id))
}

/// `%envreg0` .. `%envreg31`.
fn is_envreg(name: &str) -> bool {
    name.strip_prefix("%envreg").is_some_and(|n| {
        !n.is_empty()
            && n.len() <= 2
            && n.bytes().all(|b| b.is_ascii_digit())
            && n.parse::<u32>().is_ok_and(|i| i < 32)
    })
}

/// The gates an instruction outside the catalogues must pass, given its
/// opcode (first word) and qualifiers as written. Allocates only when a
/// gate applies.
pub fn instruction(opcode: &str, quals: &[String]) -> Vec<&'static Gate> {
    let mut out = Vec::new();
    match opcode {
        "red" if first(quals) == ".async" => out.push(gate(GateId::RED_ASYNC)),
        "vote" if has(quals, ".sync") => out.push(gate(GateId::VOTE_SYNC)),
        "brx" => out.push(gate(GateId::BRX_IDX)),
        "mma" => {
            out.push(gate(GateId::MMA));
            if has(quals, ".e4m3") || has(quals, ".e5m2") {
                out.push(gate(GateId::MMA_FP8));
            }
            if has(quals, ".sp::ordered_metadata") {
                out.push(gate(GateId::MMA_ORDERED_METADATA));
            }
        }
        "wmma" => out.push(gate(GateId::WMMA)),
        "vadd" | "vsub" | "vabsdiff" | "vmin" | "vmax" | "vshl" | "vshr" | "vmad" | "vset" => {
            out.push(gate(GateId::VIDEO_SCALAR))
        }
        "vadd2" | "vsub2" | "vavrg2" | "vabsdiff2" | "vmin2" | "vmax2" | "vset2" | "vadd4"
        | "vsub4" | "vavrg4" | "vabsdiff4" | "vmin4" | "vmax4" | "vset4" => {
            out.push(gate(GateId::VIDEO_SIMD))
        }
        "pmevent" if has(quals, ".mask") => out.push(gate(GateId::PMEVENT_MASK)),
        "match" => out.push(gate(GateId::MATCH_SYNC)),
        "activemask" => out.push(gate(GateId::ACTIVEMASK)),
        "redux" => {
            out.push(gate(GateId::REDUX_SYNC));
            if has(quals, ".f32") {
                out.push(gate(GateId::REDUX_F32));
            }
        }
        "griddepcontrol" => out.push(gate(GateId::GRIDDEPCONTROL)),
        "elect" => out.push(gate(GateId::ELECT_SYNC)),
        "tensormap" if first(quals) == ".cp_fenceproxy" => {
            out.push(gate(GateId::TENSORMAP_CP_FENCEPROXY))
        }
        "clusterlaunchcontrol" => {
            out.push(gate(GateId::CLUSTERLAUNCHCONTROL));
            if has(quals, ".multicast::cluster::all") {
                out.push(gate(GateId::CLC_MULTICAST_ALL));
            }
        }
        "cp" if is_cp_async_mbarrier_arrive(quals) => {
            out.push(gate(GateId::CP_ASYNC_MBARRIER_ARRIVE));
            if has(quals, ".shared::cta") {
                out.push(gate(GateId::MBARRIER_SHARED_CTA));
            }
        }
        "ldmatrix" | "stmatrix" => {
            out.push(gate(if opcode == "ldmatrix" {
                GateId::LDMATRIX
            } else {
                GateId::STMATRIX
            }));
            if has(quals, ".shared::cta") {
                out.push(gate(GateId::MATRIX_SHARED_CTA));
            }
        }
        "movmatrix" => out.push(gate(GateId::MOVMATRIX)),
        "wgmma" => {
            out.push(gate(GateId::WGMMA));
            if quals.get(1).is_some_and(|q| q == ".sp") {
                out.push(gate(GateId::WGMMA_SP));
            }
        }
        "tcgen05" => tcgen05(quals, &mut out),
        "alloca" | "stacksave" | "stackrestore" => out.push(gate(GateId::STACK)),
        "nanosleep" => out.push(gate(GateId::NANOSLEEP)),
        "setmaxnreg" => out.push(gate(GateId::SETMAXNREG_ALL)),
        _ => {}
    }
    out
}

/// The gates an instruction outside the catalogues must pass that depend on
/// its operands as well (PTX ISA 9.7.16 `tcgen05.mma`'s `scale-input-d`): to be asked
/// next to [`instruction`]. Allocates only when a gate applies.
pub fn instruction_operands(
    opcode: &str,
    quals: &[String],
    operands: &[crate::ptx::ast::Operand],
) -> Vec<&'static Gate> {
    use crate::ptx::ast::OperandKind;
    let mut out = Vec::new();
    match (opcode, first(quals)) {
        // `[d-tmem], a-desc, b-desc, idesc {, disable-output-lane},
        // enable-input-d {, scale-input-d}`: enable-input-d is a predicate,
        // so a last immediate is scale-input-d. The `.ws` and
        // `.block_scale` forms have no scale-input-d.
        ("tcgen05", ".mma")
            if !has(quals, ".ws")
                && !has(quals, ".block_scale")
                && operands.len() > 5
                && matches!(operands.last().map(|o| &o.kind), Some(OperandKind::Imm(_))) =>
        {
            out.push(gate(GateId::TCGEN05_SCALE_INPUT_D));
        }
        _ => {}
    }
    out
}

/// `cp.async.mbarrier.arrive` (PTX ISA 9.7.13.15.15), whose first word is
/// shared with the 9.7.9 `cp` instructions.
fn is_cp_async_mbarrier_arrive(quals: &[String]) -> bool {
    quals.len() >= 3 && quals[0] == ".async" && quals[1] == ".mbarrier" && quals[2] == ".arrive"
}

/// PTX ISA 9.7.16: every `tcgen05` instruction, with `shift` and `ld.red`
/// on targets of their own, and the `tcgen05.mma` qualifiers that have
/// notes.
fn tcgen05(quals: &[String], out: &mut Vec<&'static Gate>) {
    let op = first(quals);
    if op == ".shift" {
        out.push(gate(GateId::TCGEN05_SHIFT_ALL));
        return;
    }
    if op == ".ld" && has(quals, ".red") {
        out.push(gate(GateId::TCGEN05_LD_RED_ALL));
        return;
    }
    out.push(gate(GateId::TCGEN05_ALL));
    if op != ".mma" {
        return;
    }
    if has(quals, ".kind::mxf4nvf4") || has(quals, ".scale_vec::4X") {
        out.push(gate(GateId::TCGEN05_PTX87));
    }
    // `.block_scale` with no scale-vector size means `.block32` (ptxas 13.0:
    // "Feature '.block32' requires PTX ISA .version 8.8" on
    // `tcgen05.mma...kind::mxf8f6f4.block_scale`, corpus/realworld/README.md)
    let default_block = has(quals, ".block_scale") && !has_prefix(quals, ".scale_vec::");
    if has(quals, ".block16") || has(quals, ".block32") || default_block {
        out.push(gate(GateId::TCGEN05_BLOCK));
    }
    if has(quals, ".kind::i8") {
        out.push(gate(GateId::TCGEN05_KIND_I8));
    }
    if has_prefix(quals, ".scale_vec::") {
        out.push(gate(GateId::TCGEN05_SCALE_VEC_NX));
    }
}

/// The gate of a fundamental type in a declaration (PTX ISA 5.2.1): `.b128`
/// was introduced in PTX ISA 8.3.
pub fn declared_type(ty: &str) -> Option<&'static Gate> {
    (ty == ".b128").then(|| gate(GateId::B128))
}

/// The gate of a `.pragma` string (PTX ISA 12), given the string without
/// its quotes: its first word names it (`used_bytes_mask 0xffff`).
pub fn pragma(text: &str) -> Option<&'static Gate> {
    let name = text.split_whitespace().next().unwrap_or("");
    let id = match name.trim_end_matches(';') {
        "nounroll" => GateId::PRAGMA_NOUNROLL,
        "used_bytes_mask" => GateId::PRAGMA_USED_BYTES_MASK,
        "enable_smem_spilling" => GateId::PRAGMA_ENABLE_SMEM_SPILLING,
        _ => return None,
    };
    Some(gate(id))
}

/// The gate of a function's performance-tuning directive (PTX ISA 11.4):
/// the cluster directives need PTX ISA 7.8 and sm_90.
pub fn function_directive(name: &str) -> Option<&'static Gate> {
    matches!(
        name,
        ".explicitcluster" | ".reqnctapercluster" | ".maxclusterrank"
    )
    .then(|| gate(GateId::CLUSTER_DIRECTIVE))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_one_gate_per_name() {
        assert_eq!(table().len(), SPECS.len());
        assert_eq!(
            gate(GateId::PRAGMA_ENABLE_SMEM_SPILLING).what,
            "the `enable_smem_spilling` pragma"
        );
    }

    #[test]
    fn nothing_applies_without_allocating() {
        let quals = vec![".u32".to_string()];
        let gates = instruction("add", &quals);
        assert!(gates.is_empty());
        assert_eq!(gates.capacity(), 0);
        assert!(special_register("%r1").is_none());
        assert!(special_register("%envreg32").is_none());
        assert!(special_register("%envreg31").is_some());
    }
}
