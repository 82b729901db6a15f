//! Groups at the edges of preconditions (`conform gen --ub-boundary`): for
//! each precondition the simulator checks and that has a natural edge (the
//! last address inside a window and the first outside; the largest legal
//! size and the next; the last aligned address and the next), a kernel
//! that runs the instruction with the value that decides it taken from its
//! input row, and two groups: the defined side, with the model's expected
//! outputs, and the undefined side, whose cases are expected to be
//! undefined (`expect: undefined`; docs/suite-format.md).
//!
//! The values come from Z3 (`ptx_ub::boundary`, which the conformance
//! crate calls: this crate stays free of Z3): [`edges`] says what to ask,
//! [`Solved`] brings the answers back, [`plans`] builds the groups. The
//! expected outputs of the defined side come from the window model
//! (`ptx_semantics::sim::window`) and from the bytes the instruction moves,
//! not from running the kernel.

use super::forms::VT;
use super::manifest::{Boundary, Expect, Layout, Provenance};
use super::templates::{render, Common, Module};
use super::{generator, group_1d, push_le, Built, Options, Plan};
use crate::rng::SplitMix64;
use ptx_semantics::mbarrier::MAX_COUNT;
use ptx_semantics::precond::{table, Env, Precondition, Var};
use ptx_semantics::sim::window::{
    cvta_from_generic, cvta_to_generic, getctarank, isspacep, mapa, Place, WindowProfile,
};
use ptx_semantics::sim::Space;
use ptx_semantics::tensor::Field;
use serde::Serialize;

mod tensor;

use tensor::MapKind;

/// The window profile the edges are found under (the simulator's).
pub const PROFILE: WindowProfile = WindowProfile::SM90;
const P: WindowProfile = PROFILE;
/// Bytes of the kernels' parameters (`in` and `out`), and of the `.const`
/// variable of the kernels that declare one.
const PARAM_BYTES: u64 = 16;
const CONST_BYTES: u64 = 64;
/// CTAs of the cluster the cluster kernels launch (the thread of the case
/// is rank 0).
const CLUSTER: u32 = 4;
/// An address 256-byte aligned, as the rows of the suite's buffers are:
/// the alignment edges are found over offsets from it (only the offset
/// reaches the kernel).
const ALIGNED_BASE: u64 = P.global_heap;

/// What the kernel does with the value (see `templates/boundary.ptx.tera`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Probe {
    /// `cvta.to.S.u64` (`to`) or `cvta.S.u64` of an anchor's address plus
    /// the row's offset; writes the converted address less the anchor's,
    /// and `isspacep.S` of the generic one.
    Cvta { space: Space, to: bool },
    /// `mapa.shared::cluster.u32` of the row's address and rank, or
    /// `getctarank.shared::cluster.u32` of the address; writes the rank.
    Cluster { mapa: bool },
    /// `cp.async.ca.shared.global` of 16 bytes from the row (plus
    /// `src_off`) to `sh` (plus `dst_off`) with the row's `src-size`;
    /// writes the 16 bytes at the destination.
    CpAsync,
    /// `ld.param::entry` of `bytes` bytes at the row's offset into the
    /// parameters; writes them xor the same bytes read whole.
    LdParam { bytes: u32 },
    /// `ld.global.v4.u32` from the row plus its offset, or
    /// `st.global.v4.u32` of the row's first 16 bytes to the output row
    /// plus the offset.
    Access { store: bool },
    /// `createpolicy.range` over the row with the row's sizes, then a load
    /// with the policy.
    PolicyRange,
    /// `createpolicy.fractional` with the row's fraction, then a load with
    /// the policy.
    PolicyFraction,
    /// `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes`
    /// of the row's `size` bytes from the row (plus `src_off`) to `sh`
    /// (plus `dst_off`), zeroed first, completing on an mbarrier; writes
    /// the first 48 bytes of `sh`. Written by [`bulk_kernel`].
    Bulk,
    /// `mbarrier.init.shared::cta.b64` with the row's count; writes whether
    /// phase 0 is complete (0), then, after an arrive-on by the count,
    /// whether it is (1). Written by [`mbarrier_kernel`].
    MbarInit,
    /// `st.bulk.weak` of the row's `size` bytes at `sh`'s generic address,
    /// `sh` holding the row's 48 bytes; writes `sh` (sm_100a). Written by
    /// [`st_bulk_kernel`].
    StBulk,
    /// `cp.async.bulk.tensor.2d.shared::cluster.global.tile` of a 4 x 4
    /// box of `in` to `sh` plus the row's `dst_off`, `sh` zeroed first;
    /// writes `sh` (`tensor::load_kernel`).
    TensorLoad,
    /// As `TensorLoad` at `dst_off` 0 in a cluster of 2, completing on
    /// `bar` of the CTA the row names (`mapa` of it: the executing CTA's
    /// or its peer's), each CTA's `bar` initialised before a cluster
    /// barrier; writes `sh` (`tensor::mbar_kernel`).
    TensorMbar,
    /// `cp.async.bulk.tensor.Nd.shared::cluster.global.im2col` (`rank` 4
    /// or 5) of a column of `in` to `sh`, zeroed first, with the row's
    /// im2col offsets; writes `sh` (`tensor::im2col_kernel`).
    Im2col { rank: u32 },
    /// `tensormap.replace.tile.FIELD.global` of the kernel's map, copied
    /// into the row of `out`, with the row's `new_val`; writes the map
    /// (don't-care) and a flag (`tensor::replace_kernel`).
    Replace { field: Field, ord: u32 },
}

/// One edge: the instruction form, the precondition, the var that moves
/// and the values of the others, as `ptx_ub::boundary::Edge` takes them.
#[derive(Clone, Debug)]
pub struct Edge {
    pub form: String,
    pub family: &'static str,
    /// The PTX ISA section of the instruction.
    pub section: &'static str,
    pub pre: &'static Precondition,
    pub var: Var,
    pub fixed: Env,
    /// The preconditions the instruction checks before `pre`.
    pub before: Vec<&'static Precondition>,
    /// The values `var` may take (both ends included); high end first for
    /// the lower edge (`ptx_ub::boundary::Edge::range`).
    pub range: Option<(u64, u64)>,
    /// The PTX ISA version and target of the kernel.
    pub vt: (&'static str, &'static str),
    /// Whether the defined side passed on an H100
    /// (corpus/suite/sm_90/boundary-results.json): its provenance is then
    /// `hardware`, else `spec`.
    pub hardware: bool,
    probe: Probe,
}

impl Edge {
    /// Whether this is the lower edge of a range (`range` high end first).
    pub fn lower(&self) -> bool {
        matches!(self.range, Some((a, b)) if a > b)
    }

    /// The id of the group of one side (`defined` or `undefined`):
    /// `FORM/boundary/PRE/SIDE`, with `PRE.lower` for a lower edge.
    pub fn group_id(&self, side: &str) -> String {
        let lower = if self.lower() { ".lower" } else { "" };
        format!("{}/boundary/{}{lower}/{side}", self.form, self.pre.id)
    }
}

/// An edge with the values on its two sides.
#[derive(Clone, Debug)]
pub struct Solved {
    pub edge: Edge,
    pub defined: u64,
    pub undefined: u64,
}

/// The thread of every case: rank 0 of its cluster, with the kernels' 16
/// bytes of parameters.
fn env(cluster: u32, const_bytes: u64) -> Env {
    Env {
        rank: 0,
        cluster_size: u64::from(cluster),
        param_bytes: PARAM_BYTES,
        const_bytes,
        ..Env::default()
    }
}

fn place(e: &Env) -> Place {
    Place {
        rank: e.rank as u32,
        cluster_size: e.cluster_size as u32,
        param_bytes: e.param_bytes,
        const_bytes: e.const_bytes,
    }
}

/// The spaces with a `cvta` edge, the cluster size their kernel launches
/// with, and its `.const` bytes.
const CVTA_SPACES: [(Space, u32, u64); 5] = [
    (Space::SharedCta, 1, 0),
    (Space::SharedCluster, CLUSTER, 0),
    (Space::Local, 1, 0),
    (Space::Const, 1, CONST_BYTES),
    (Space::ParamEntry, 1, 0),
];

/// Every edge the suite has groups for, in suite order.
pub fn edges() -> Vec<Edge> {
    let mut out = Vec::new();
    let edge = |form: String,
                family: &'static str,
                section: &'static str,
                pre: &'static Precondition,
                var: Var,
                fixed: Env,
                probe: Probe| Edge {
        form,
        family,
        section,
        pre,
        var,
        fixed,
        before: Vec::new(),
        range: None,
        vt: VT,
        hardware: true,
        probe,
    };
    for to in [true, false] {
        for (space, cluster, const_bytes) in CVTA_SPACES {
            let Some(pre) = table::cvta(space, to) else {
                continue;
            };
            let form = format!("cvta{}{}.u64", if to { ".to" } else { "" }, space.name());
            out.push(edge(
                form,
                "cvta",
                "9.7.9.20",
                pre,
                Var::A,
                env(cluster, const_bytes),
                Probe::Cvta { space, to },
            ));
        }
    }
    // the shared-space address of the first byte after the reserved ones
    let shared_at = P.cta_part(0).0 + P.shared_reserved;
    out.push(edge(
        "mapa.shared::cluster.u32".into(),
        "mapa",
        "9.7.9.23",
        &table::MAPA_RANK,
        Var::B,
        Env {
            a: shared_at,
            ..env(CLUSTER, 0)
        },
        Probe::Cluster { mapa: true },
    ));
    out.push(Edge {
        before: vec![&table::MAPA_RANK],
        ..edge(
            "mapa.shared::cluster.u32".into(),
            "mapa",
            "9.7.9.23",
            &table::MAPA_ADDRESS,
            Var::A,
            Env {
                b: 0,
                ..env(CLUSTER, 0)
            },
            Probe::Cluster { mapa: true },
        )
    });
    out.push(edge(
        "getctarank.shared::cluster.u32".into(),
        "getctarank",
        "9.7.9.24",
        &table::GETCTARANK_ADDRESS,
        Var::A,
        env(CLUSTER, 0),
        Probe::Cluster { mapa: false },
    ));
    let copy = Env {
        cp_size: 16,
        src_size: 16,
        addr: shared_at,
        addr2: ALIGNED_BASE,
        ..env(1, 0)
    };
    let cp = |pre, var, before: Vec<&'static Precondition>, range| Edge {
        before,
        range,
        ..edge(
            "cp.async.ca.shared.global".into(),
            "cp.async",
            "9.7.9.25.3.1",
            pre,
            var,
            copy,
            Probe::CpAsync,
        )
    };
    out.push(cp(&table::CP_ASYNC_SRC_SIZE, Var::SrcSize, vec![], None));
    out.push(cp(
        &table::CP_ASYNC_DST_ALIGNED,
        Var::Addr,
        vec![&table::CP_ASYNC_SRC_SIZE],
        Some((shared_at, shared_at + 31)),
    ));
    out.push(cp(
        &table::CP_ASYNC_SRC_ALIGNED,
        Var::Addr2,
        vec![&table::CP_ASYNC_SRC_SIZE, &table::CP_ASYNC_DST_ALIGNED],
        Some((ALIGNED_BASE, ALIGNED_BASE + 31)),
    ));
    for (ty, bytes) in [("u8", 1u32), ("u32", 4), ("u64", 8)] {
        out.push(Edge {
            before: vec![&table::ALIGNED],
            ..edge(
                format!("ld.param::entry.{ty}"),
                "ld",
                "9.7.9.8",
                &table::LD_PARAM_ENTRY,
                Var::Addr,
                Env {
                    size: u64::from(bytes),
                    ..env(1, 0)
                },
                Probe::LdParam { bytes },
            )
        });
    }
    for (form, family, section, store) in [
        ("ld.global.v4.u32", "ld", "9.7.9.8", false),
        ("st.global.v4.u32", "st", "9.7.9.11", true),
    ] {
        out.push(Edge {
            range: Some((ALIGNED_BASE, ALIGNED_BASE + 31)),
            ..edge(
                form.into(),
                family,
                section,
                &table::ALIGNED,
                Var::Addr,
                Env {
                    size: 16,
                    ..env(1, 0)
                },
                Probe::Access { store },
            )
        });
    }
    out.push(Edge {
        before: vec![&table::POLICY_GLOBAL],
        ..edge(
            "createpolicy.range.global.L2::evict_last.L2::evict_unchanged.b64".into(),
            "createpolicy",
            "9.7.9.18",
            &table::POLICY_SIZES,
            Var::A,
            Env {
                b: POLICY_TOTAL,
                addr: ALIGNED_BASE,
                ..env(1, 0)
            },
            Probe::PolicyRange,
        )
    });
    out.push(edge(
        "createpolicy.fractional.L2::evict_last.b64".into(),
        "createpolicy",
        "9.7.9.18",
        &table::POLICY_FRACTION,
        Var::A,
        env(1, 0),
        Probe::PolicyFraction,
    ));
    // the bulk copy (PTX ISA 9.7.9.25.4.1): `sh` is the kernel's first
    // shared variable, 16-byte aligned, then the mbarrier
    let bulk = Env {
        size: 16,
        addr: shared_at,
        addr2: ALIGNED_BASE,
        ..env(1, 0)
    };
    let bulk_edge = |pre, var, before: Vec<&'static Precondition>, range| Edge {
        before,
        range: Some(range),
        hardware: true,
        ..edge(
            BULK_FORM.into(),
            "cp.async.bulk",
            "9.7.9.25.4.1",
            pre,
            var,
            bulk,
            Probe::Bulk,
        )
    };
    out.push(bulk_edge(&table::BULK_SIZE, Var::Size, vec![], (0, 47)));
    out.push(bulk_edge(
        &table::BULK_DST_ALIGNED,
        Var::Addr,
        vec![&table::BULK_SIZE],
        (shared_at, shared_at + 31),
    ));
    out.push(bulk_edge(
        &table::BULK_SRC_ALIGNED,
        Var::Addr2,
        vec![&table::BULK_SIZE, &table::BULK_DST_ALIGNED],
        (ALIGNED_BASE, ALIGNED_BASE + 31),
    ));
    // mbarrier.init's count (PTX ISA 9.7.13.15.9), both ends of
    // [1, 2^20 - 1]; the object is the kernel's only shared variable, the
    // executing CTA's and aligned, so the rules before the count hold
    let init = Env {
        mbar: shared_at,
        ..env(1, 0)
    };
    let before = table::mbarrier(table::MbarOp::Init, Space::SharedCta);
    let before: Vec<&'static Precondition> = before
        .into_iter()
        .filter(|p| !std::ptr::eq(*p, &table::MBAR_INIT_COUNT))
        .collect();
    for range in [None, Some((u64::from(MAX_COUNT), 0))] {
        out.push(Edge {
            before: before.clone(),
            range,
            hardware: true,
            ..edge(
                "mbarrier.init.shared::cta.b64".into(),
                "mbarrier",
                "9.7.13.15.9",
                &table::MBAR_INIT_COUNT,
                Var::A,
                init,
                Probe::MbarInit,
            )
        });
    }
    // st.bulk's size (PTX ISA 9.7.9.13, sm_100): the multiple of 8 (its
    // largest value, 16 MiB, is past any CTA's shared memory). The generic
    // form, at `sh`'s generic address: the simulator's decoder reads the
    // `.shared::cta` form as generic (issue 14)
    out.push(Edge {
        range: Some((0, 31)),
        vt: ST_BULK_VT,
        hardware: false,
        ..edge(
            "st.bulk.weak".into(),
            "st.bulk",
            "9.7.9.13",
            &table::ST_BULK_SIZE,
            Var::Size,
            Env {
                addr: P.shared_base + shared_at,
                ..env(1, 0)
            },
            Probe::StBulk,
        )
    });
    // the tensor copy's shared address (PTX ISA 9.7.9.25.5.2): the map is
    // the kernel's parameter after `in` and `out` (at offset 64 of 192
    // bytes), the destination `sh`, 1024-byte aligned, plus the row's
    // offset. Both sides are 16-byte aligned (cp.async.bulk's rule, which
    // the 128 implies), so the undefined side breaks the 128 and no more
    let tensor = Env {
        map: P.param_base + 64,
        param_bytes: 192,
        addr: shared_at,
        ..env(1, 0)
    };
    let mut before = table::tensor_copy(table::TensorWay::Load(Space::SharedCluster));
    before.retain(|p| !std::ptr::eq(*p, &table::TENSOR_SMEM_ALIGNED));
    before.push(&table::BULK_DST_ALIGNED);
    out.push(Edge {
        before,
        range: Some((shared_at, shared_at + 255)),
        vt: TENSOR_VT,
        hardware: false,
        ..edge(
            TENSOR_FORM.into(),
            "cp.async.bulk.tensor",
            "9.7.9.25.5.2",
            &table::TENSOR_SMEM_ALIGNED,
            Var::Addr,
            tensor,
            Probe::TensorLoad,
        )
    });
    // the load's mbarrier in the CTA of its destination (PTX ISA
    // 9.7.9.25.5.2, `.cta_group::1`): `sh` in rank 0's part of a cluster
    // of 2, the mbarrier's shared::cluster address over rank 0's part and
    // the first address of rank 1's. Only its CTA decides the rule: the
    // kernel's mbarrier is `bar` of the CTA the value lies in (the
    // executing CTA's, or its peer's through mapa)
    let part = 1u64 << P.rank_shift;
    let mut before = table::tensor_copy(table::TensorWay::Load(Space::SharedCluster));
    before.extend(table::mbarrier(table::MbarOp::Bulk, Space::SharedCluster));
    out.push(Edge {
        before,
        range: Some((shared_at, part)),
        vt: TENSOR_VT,
        hardware: false,
        ..edge(
            TENSOR_FORM.into(),
            "cp.async.bulk.tensor",
            "9.7.9.25.5.2",
            &table::TENSOR_MBAR_SAME_CTA,
            Var::Mbar,
            Env {
                cluster_size: u64::from(MBAR_CLUSTER),
                ..tensor
            },
            Probe::TensorMbar,
        )
    });
    // the im2col offsets' ranges (PTX ISA 5.5.4.1): the W offset of a 4D
    // or 5D load of a column to `sh` (1024-byte aligned), the map a
    // parameter as the tiled load's
    for rank in [4, 5] {
        let Some(pre) = table::im2col_offset(rank) else {
            continue;
        };
        out.push(Edge {
            before: table::tensor_copy(table::TensorWay::Load(Space::SharedCluster)),
            range: Some((0, 0xffff)),
            vt: TENSOR_VT,
            hardware: false,
            ..edge(
                im2col_form(rank),
                "cp.async.bulk.tensor",
                "9.7.9.25.5.2",
                pre,
                Var::A,
                tensor,
                Probe::Im2col { rank },
            )
        });
    }
    // tensormap.replace's new_val (PTX ISA 9.7.9.26), on a map in the
    // row of `out` (global, 64-byte aligned as the rows are)
    let replace = Env {
        addr: ALIGNED_BASE,
        ..env(1, 0)
    };
    for (field, ord, range) in [
        (Field::Rank, 0, None),
        (
            Field::GlobalAddress,
            0,
            Some((ALIGNED_BASE, ALIGNED_BASE + 31)),
        ),
        (Field::BoxDim, 1, None),
        // the lower edge: the upper one, 2^32, does not fit a .b32
        (Field::GlobalDim, 1, Some((1 << 32, 0))),
        // a multiple of 16 and the next value (the upper end, 2^40, is a
        // stride no map of `in` can use)
        (Field::GlobalStride, 0, Some((256, 287))),
        (Field::ElementStride, 1, None),
    ] {
        let Some(pre) = table::tensormap_replace_value(field) else {
            continue;
        };
        out.push(Edge {
            before: table::tensormap_replace(Space::Global),
            range,
            vt: TENSOR_VT,
            hardware: false,
            ..edge(
                tensor::replace_form(field),
                "tensormap.replace",
                "9.7.9.26",
                pre,
                Var::A,
                replace,
                Probe::Replace { field, ord },
            )
        });
    }
    out
}

/// The tensor copy the `TensorLoad` groups run, and the version and
/// target of the tensor groups (sm_90a, as the tensor suite's).
const TENSOR_FORM: &str =
    "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes";
const TENSOR_VT: (&str, &str) = ("8.7", "sm_90a");

/// CTAs of the cluster of the `TensorMbar` groups: the executing CTA and
/// its peer.
const MBAR_CLUSTER: u32 = 2;

/// The im2col load the `Im2col` groups run, of `.dim` `rank`.
fn im2col_form(rank: u32) -> String {
    format!(
        "cp.async.bulk.tensor.{rank}d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
    )
}

/// The bulk copy the `Bulk` groups run.
const BULK_FORM: &str = "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes";
/// `st.bulk` is sm_100's (PTX ISA 8.6).
const ST_BULK_VT: (&str, &str) = ("8.7", "sm_100a");

/// `createpolicy.range`'s total-size in the edge of its primary-size (the
/// largest legal primary-size is the total; the next is not).
const POLICY_TOTAL: u64 = 256;

/// The preconditions with no boundary groups, and why.
pub const NOT_AT_AN_EDGE: &[(&str, &str)] = &[
    ("cvta.to.global", "the global window is every address outside the others: its edges are theirs, which the cvta.to groups of those spaces cover"),
    ("mapa.generic-address", "the generic form of mapa.address: the same edge in the generic window (not generated yet)"),
    ("getctarank.generic-address", "the generic form of getctarank.address: the same edge in the generic window (not generated yet)"),
    ("access.cache_hint.global", "its edge is the global window's: the defined side is an address no object occupies, which a load may not read"),
    ("access.prefetch_size.global", "as access.cache_hint.global"),
    ("access.eviction_priority.global", "as access.cache_hint.global"),
    ("access.wide.global", "as access.cache_hint.global (and the forms are sm_100's)"),
    ("ld.global.nc.global", "as access.cache_hint.global"),
    ("ldu.global", "as access.cache_hint.global"),
    ("createpolicy.range.global", "as access.cache_hint.global"),
    ("shfl.sync.membermask", "its edge is between lanes of one warp (the last lane in the mask and the first outside): a warp-wide kernel, not generated yet"),
    ("applypriority.global", "applypriority and discard leave nothing to compare: the defined side has no output"),
    ("applypriority.size", "the size is an immediate, and 128 is its only legal value"),
    ("applypriority.aligned", "as applypriority.global"),
    ("discard.global", "as applypriority.global (and discard makes the bytes it names undefined)"),
    ("discard.size", "as applypriority.size"),
    ("discard.aligned", "as discard.global"),
    ("st.bulk.generic-shared", "the generic window's edge is the last shared address and the first past it, where no object is: not generated yet"),
    ("st.async.generic-shared", "as st.bulk.generic-shared; st.async also needs a cluster of two CTAs or more"),
    ("st.async.cluster", "its edge is a cluster of one CTA and of two: not generated yet"),
    ("st.async.same-cta", "its edge is between two CTAs of a cluster: not generated yet"),
    ("st.async.mbar.generic-shared", "as st.async.generic-shared"),
    ("st.async.release.generic-global", "as access.cache_hint.global (and the form is sm_100's)"),
    ("multimem.generic-global", "multimem needs a multicast object, which the suite's launches do not make"),
    ("cp.async.bulk.dst.shared::cta", "its edge is between two CTAs of a cluster (and the .shared::cta destination form is PTX ISA 8.6's): not generated yet"),
    ("cp.async.bulk.dst.other-cta", "its edge is between two CTAs of a cluster: not generated yet"),
    ("cp.async.bulk.multicast.cta-mask", "its edge is the cluster's size, which the suite's launches fix: not generated yet"),
    ("cp.reduce.async.bulk.size", "the edge of cp.async.bulk.size, whose groups cover it (the same rule and check)"),
    ("cp.reduce.async.bulk.dst.aligned", "as cp.reduce.async.bulk.size, for cp.async.bulk.dst.aligned"),
    ("cp.reduce.async.bulk.src.aligned", "as cp.reduce.async.bulk.size, for cp.async.bulk.src.aligned"),
    ("cp.async.bulk.prefetch.size", "a prefetch leaves nothing to compare: the defined side has no output"),
    ("cp.async.bulk.prefetch.aligned", "as cp.async.bulk.prefetch.size"),
    ("cp.async.bulk.tensor.dst.shared::cta", "its edge is between two CTAs of a cluster: not generated yet"),
    ("cp.async.bulk.tensor.map.space", "its edge is the last shared or local address and the first past it, where no map can be: not generated yet"),
    ("cp.async.bulk.tensor.map.aligned", "its edge is a parameter map 64 bytes into the parameter space and one 16 further, which a .param declaration cannot place (ptxas aligns it): not generated yet"),
    ("cp.async.bulk.tensor.mbar.cta-pair", "its edge is between two CTA pairs of a cluster (`.cta_group::2`, sm_100): not generated yet"),
    ("cp.async.bulk.tensor.im2col::w.wHalo", "its edge (511 and 512) needs an .im2col::w copy (sm_100's) with wHalo from the row: not generated yet"),
    ("cp.async.bulk.tensor.im2col::w::128.wHalo", "as cp.async.bulk.tensor.im2col::w.wHalo (31 and 32)"),
    ("cp.async.bulk.tensor.im2col::w.wOffset", "as cp.async.bulk.tensor.im2col::w.wHalo (31 and 32)"),
    ("tensormap.replace.aligned", "as cp.async.bulk.tensor.map.aligned, for a map in global or shared memory: not generated yet"),
    ("cp.async.bulk.tensor.map.dim", "a rule on the map's fields (the rank against .dim), no edge of an operand: the suite's tensor groups take valid maps; not generated yet"),
    ("cp.async.bulk.tensor.map.valid", "a rule on the map's fields (its validity), no edge of an operand: the map's own rules are tensor::TensorMap::validate's, tested there"),
    ("cp.async.bulk.tensor.box.aligned", "a rule on the map's fields and tensorCoords[0] (its edge, 4 and 5 elements of an f32 map, needs a map in the group): not generated yet"),
    ("cp.async.bulk.tensor.coords.non-negative", "a store's coordinate at 0 and -1 with a map in the group: not generated yet"),
    ("cp.async.bulk.tensor.im2col.filter", "an im2col corner at the Bounding Box's edge with a map in the group: not generated yet"),
    ("cp.reduce.async.bulk.tensor.type", "the map's element type against .redOp: a table, no edge"),
    ("tensormap.replace.generic", "its edge is the shared::cta window of another CTA or the param window, which a replace cannot reach without a map there: not generated yet"),
    ("mbarrier.aligned", "its edge is an object 8 bytes into a variable and one 4 bytes further, whose undefined side is also a plain access to a valid object's bytes: not generated yet"),
    ("mbarrier.shared::cta", "its edge is between two CTAs of a cluster: not generated yet"),
    ("mbarrier.init.generic-shared::cta", "as mbarrier.shared::cta, in the generic window"),
    ("mbarrier.inval.generic-shared::cta", "as mbarrier.init.generic-shared::cta"),
    ("mbarrier.expect_tx.generic-shared", "as st.bulk.generic-shared"),
    ("mbarrier.complete_tx.generic-shared", "as st.bulk.generic-shared"),
    ("mbarrier.arrive.generic-shared", "as st.bulk.generic-shared"),
    ("mbarrier.arrive_drop.generic-shared", "as st.bulk.generic-shared"),
    ("cp.async.mbarrier.arrive.generic-shared::cta", "as mbarrier.init.generic-shared::cta"),
    ("mbarrier.test_wait.generic-shared::cta", "as mbarrier.init.generic-shared::cta"),
    ("mbarrier.arrive.count", "the edge of mbarrier.init.count (the same range); an arrive-on by 2^20 - 1 also needs an object expecting as many: not generated yet"),
    ("mbarrier.arrive_drop.count", "as mbarrier.arrive.count"),
    ("mbarrier.tx-count", "its edge (2^20 - 1 and 2^20) needs a phase that tracks as many bytes: not generated yet"),
    ("mbarrier.test_wait.parity", "its edge is 1 and 2: not generated yet"),
    ("fns.base", "its edge is base 31 and 32 of an fns.b32: not generated yet (the suite has no fns groups)"),
    ("atom.generic.global-or-shared", "its edge is the last shared or local address and the first past it, where no object is: as st.bulk.generic-shared"),
    ("red.generic.global-or-shared", "as atom.generic.global-or-shared"),
    ("atom.vector.generic.global", "as access.cache_hint.global"),
    ("red.vector.generic.global", "as access.cache_hint.global"),
    ("bar.warp.sync.membermask", "as shfl.sync.membermask: an edge between lanes of one warp"),
    ("vote.sync.membermask", "as shfl.sync.membermask"),
    ("redux.sync.membermask", "as shfl.sync.membermask"),
    ("elect.sync.membermask", "as shfl.sync.membermask"),
    ("match.sync.membermask", "as shfl.sync.membermask"),
    ("bar.id-and-count", "its edges (barrier 15 and 16, a count of 32 and 33) stop a whole CTA at a barrier: not generated yet"),
    ("bar.arrive.id-and-count", "as bar.id-and-count (and a count of 0)"),
];

/// The groups of the solved edges: for each, `FORM/boundary/PRE/defined`
/// and `FORM/boundary/PRE/undefined`.
pub fn plans(solved: &[Solved]) -> Vec<Plan> {
    let mut out = Vec::new();
    for s in solved {
        for undefined in [false, true] {
            let id = s
                .edge
                .group_id(if undefined { "undefined" } else { "defined" });
            let s = s.clone();
            out.push(Plan::new(
                id.clone(),
                s.edge.form.clone(),
                move |o: &Options| build(&s, undefined, &id, o),
            ));
        }
    }
    out
}

fn layouts(p: Probe) -> (Layout, Layout) {
    let data = [("lo", "b128", 16), ("hi", "b128", 16)];
    match p {
        Probe::Cvta { .. } => (
            Layout::packed(&[("offset", "u64", 8)]),
            Layout::packed(&[("offset", "u64", 8), ("inside", "u64", 8)]),
        ),
        Probe::Cluster { .. } => (
            Layout::packed(&[("a", "u32", 4), ("b", "u32", 4)]),
            Layout::packed(&[("rank", "u32", 4)]),
        ),
        Probe::CpAsync => (
            Layout::packed(&[
                data[0],
                data[1],
                ("src_size", "u32", 4),
                ("dst_off", "u32", 4),
                ("src_off", "u32", 4),
            ]),
            Layout::packed(&[("copied", "b128", 16)]),
        ),
        Probe::LdParam { .. } => (
            Layout::packed(&[("offset", "u32", 4)]),
            Layout::packed(&[("diff", "b64", 8)]),
        ),
        Probe::Access { store: false } => (
            Layout::packed(&[data[0], data[1], ("offset", "u32", 4)]),
            Layout::packed(&[("loaded", "b128", 16)]),
        ),
        Probe::Access { store: true } => (
            Layout::packed(&[data[0], data[1], ("offset", "u32", 4)]),
            Layout::packed(&[
                ("below", "b128", 16),
                ("at", "b128", 16),
                ("above", "b128", 16),
            ]),
        ),
        Probe::PolicyRange => (
            Layout::packed(&[
                ("data", "b32", 4),
                ("primary", "u32", 4),
                ("total", "u32", 4),
            ]),
            Layout::packed(&[("loaded", "b32", 4)]),
        ),
        Probe::PolicyFraction => (
            Layout::packed(&[("data", "b32", 4), ("fraction", "f32", 4)]),
            Layout::packed(&[("loaded", "b32", 4)]),
        ),
        Probe::Bulk => (
            Layout::packed(&[
                data[0],
                data[1],
                ("data2", "b128", 16),
                ("size", "u32", 4),
                ("dst_off", "u32", 4),
                ("src_off", "u32", 4),
            ]),
            Layout::packed(&[
                ("sh0", "b128", 16),
                ("sh1", "b128", 16),
                ("sh2", "b128", 16),
            ]),
        ),
        Probe::MbarInit => (
            Layout::packed(&[("count", "u32", 4)]),
            Layout::packed(&[("before", "u32", 4), ("after", "u32", 4)]),
        ),
        Probe::StBulk => (
            Layout::packed(&[data[0], data[1], ("data2", "b128", 16), ("size", "u32", 4)]),
            Layout::packed(&[
                ("sh0", "b128", 16),
                ("sh1", "b128", 16),
                ("sh2", "b128", 16),
            ]),
        ),
        Probe::TensorLoad => tensor::load_layouts(),
        Probe::TensorMbar => tensor::mbar_layouts(),
        Probe::Im2col { rank } => tensor::im2col_layouts(rank),
        Probe::Replace { .. } => tensor::replace_layouts(),
    }
}

/// The space address the `cvta` kernels anchor at (the model's address of
/// the anchor the kernel names), and the kernel's name for it.
fn cvta_anchor(space: Space) -> (u64, &'static str, &'static str) {
    match space {
        Space::Const => (
            0,
            "cv",
            "the .const variable cv (64 bytes, the module's only constant data)",
        ),
        Space::ParamEntry => (
            0,
            "in",
            "the kernel's first parameter (16 bytes of parameters)",
        ),
        Space::Local => (0, "0", "local address 0, the first of the .local window"),
        _ => (
            0,
            "0",
            "shared address 0, the first of rank 0's part of the shared window",
        ),
    }
}

/// The input row of one case: `value` for the edge's var, seeded bytes
/// for the data fields.
fn input_row(e: &Edge, value: u64, rng: &mut SplitMix64) -> Option<Vec<u8>> {
    let mut row = Vec::new();
    let mut data = |row: &mut Vec<u8>, n: usize| {
        for _ in 0..n {
            row.push(rng.next_u64() as u8);
        }
    };
    match e.probe {
        Probe::Cvta { space, to } => {
            let (a0, _, _) = cvta_anchor(space);
            let at = place(&e.fixed);
            let anchor = if to {
                cvta_to_generic(&P, space, a0, true, &at).ok()?
            } else {
                a0
            };
            push_le(&mut row, u128::from(value.wrapping_sub(anchor)), 8);
        }
        Probe::Cluster { .. } => {
            let (a, b) = match e.var {
                Var::A => (value, e.fixed.b),
                _ => (e.fixed.a, value),
            };
            push_le(&mut row, u128::from(u32::try_from(a).ok()?), 4);
            push_le(&mut row, u128::from(u32::try_from(b).ok()?), 4);
        }
        Probe::CpAsync => {
            data(&mut row, 32);
            let (mut src_size, mut dst, mut src) = (e.fixed.src_size, e.fixed.addr, e.fixed.addr2);
            match e.var {
                Var::SrcSize => src_size = value,
                Var::Addr => dst = value,
                _ => src = value,
            }
            push_le(&mut row, u128::from(src_size), 4);
            push_le(&mut row, u128::from(dst - e.fixed.addr), 4);
            push_le(&mut row, u128::from(src - e.fixed.addr2), 4);
            row.resize(48, 0);
        }
        Probe::LdParam { .. } => push_le(&mut row, u128::from(value), 4),
        Probe::Access { .. } => {
            data(&mut row, 32);
            push_le(&mut row, u128::from(value - ALIGNED_BASE), 4);
            row.resize(48, 0);
        }
        Probe::PolicyRange => {
            data(&mut row, 4);
            push_le(&mut row, u128::from(value), 4);
            push_le(&mut row, u128::from(e.fixed.b), 4);
        }
        Probe::PolicyFraction => {
            data(&mut row, 4);
            push_le(&mut row, u128::from(value), 4);
        }
        Probe::Bulk => {
            data(&mut row, 48);
            let (mut size, mut dst, mut src) = (e.fixed.size, e.fixed.addr, e.fixed.addr2);
            match e.var {
                Var::Size => size = value,
                Var::Addr => dst = value,
                _ => src = value,
            }
            push_le(&mut row, u128::from(u32::try_from(size).ok()?), 4);
            push_le(&mut row, u128::from(dst - e.fixed.addr), 4);
            push_le(&mut row, u128::from(src - e.fixed.addr2), 4);
            row.resize(64, 0);
        }
        Probe::MbarInit => push_le(&mut row, u128::from(u32::try_from(value).ok()?), 4),
        Probe::StBulk => {
            data(&mut row, 48);
            push_le(&mut row, u128::from(u32::try_from(value).ok()?), 4);
            row.resize(64, 0);
        }
        Probe::TensorLoad => {
            let off = u32::try_from(value - e.fixed.addr).ok()?;
            return Some(tensor::load_input(off, || rng.next_u64() as u8));
        }
        Probe::TensorMbar => {
            let rank = u32::try_from(value >> P.rank_shift).ok()?;
            return Some(tensor::mbar_input(rank, || rng.next_u64() as u8));
        }
        Probe::Im2col { rank } => {
            let offset = u16::try_from(value).ok()?;
            return Some(tensor::im2col_input(rank, offset, || rng.next_u64() as u8));
        }
        Probe::Replace { field, .. } => {
            return Some(tensor::replace_input(field, value, ALIGNED_BASE))
        }
    }
    Some(row)
}

/// The model's output row for the defined side (`None`: the model says
/// the case is not defined, which a test catches as a missing group).
fn expected_row(e: &Edge, value: u64, input: &[u8]) -> Option<Vec<u8>> {
    let mut row = Vec::new();
    let at = place(&e.fixed);
    match e.probe {
        Probe::Cvta { space, to } => {
            let (a0, _, _) = cvta_anchor(space);
            let (offset, generic) = if to {
                let s = cvta_from_generic(&P, space, value, true, &at).ok()?;
                (s.wrapping_sub(a0), value)
            } else {
                let g = cvta_to_generic(&P, space, value, true, &at).ok()?;
                let g0 = cvta_to_generic(&P, space, a0, true, &at).ok()?;
                (g.wrapping_sub(g0), g)
            };
            push_le(&mut row, u128::from(offset), 8);
            push_le(&mut row, u128::from(isspacep(&P, space, generic, &at)), 8);
        }
        Probe::Cluster { mapa: m } => {
            let (a, b) = match e.var {
                Var::A => (value, e.fixed.b),
                _ => (e.fixed.a, value),
            };
            let addr = if m {
                mapa(&P, false, a, u32::try_from(b).ok()?, false, &at).ok()?
            } else {
                a
            };
            push_le(
                &mut row,
                u128::from(getctarank(&P, false, addr, &at).ok()?),
                4,
            );
        }
        Probe::CpAsync => {
            let word = |k: usize| u32::from_le_bytes(input[k..k + 4].try_into().unwrap_or([0; 4]));
            let (src_size, src_off) = (word(32) as usize, word(40) as usize);
            for k in 0..16 {
                row.push(if k < src_size { input[src_off + k] } else { 0 });
            }
        }
        // the loaded bytes xor the same bytes
        Probe::LdParam { .. } => row.resize(8, 0),
        Probe::Access { store: false } => {
            let off = (value - ALIGNED_BASE) as usize;
            row.extend_from_slice(&input[off..off + 16]);
        }
        Probe::Access { store: true } => {
            let off = (value - ALIGNED_BASE) as usize;
            row.resize(48, 0);
            row[off..off + 16].copy_from_slice(&input[..16]);
        }
        Probe::PolicyRange | Probe::PolicyFraction => row.extend_from_slice(&input[..4]),
        Probe::Bulk => {
            // `sh` zeroed, then the copy's bytes at their offset
            let word = |k: usize| u32::from_le_bytes(input[k..k + 4].try_into().unwrap_or([0; 4]));
            let (size, dst, src) = (word(48) as usize, word(52) as usize, word(56) as usize);
            row.resize(48, 0);
            for k in 0..size {
                if dst + k < 48 {
                    row[dst + k] = *input.get(src + k)?;
                }
            }
        }
        // phase 0 is incomplete after init, complete after `count`
        // arrivals
        Probe::MbarInit => {
            push_le(&mut row, 0, 4);
            push_le(&mut row, 1, 4);
        }
        Probe::StBulk => {
            let n = usize::try_from(value).ok()?;
            row.extend_from_slice(&input[..48]);
            row[..n.min(48)].fill(0);
        }
        Probe::TensorLoad => {
            let off = u32::try_from(value - e.fixed.addr).ok()?;
            return tensor::load_expected(off, input);
        }
        Probe::TensorMbar => return tensor::load_expected(0, input),
        Probe::Im2col { rank } => {
            return tensor::im2col_expected(rank, u16::try_from(value).ok()?, input)
        }
        // the map's bytes are don't-care ([`expected_mask`])
        Probe::Replace { field, ord } => {
            return tensor::replace_expected(field, ord, value, ALIGNED_BASE).map(|(row, _)| row)
        }
    }
    Some(row)
}

/// The don't-care bits of the defined side's row (empty: none).
fn expected_mask(e: &Edge, value: u64) -> Option<Vec<u8>> {
    match e.probe {
        Probe::Replace { field, ord } => {
            tensor::replace_expected(field, ord, value, ALIGNED_BASE).map(|(_, mask)| mask)
        }
        _ => Some(Vec::new()),
    }
}

#[derive(Serialize)]
struct Ctx<'a> {
    #[serde(flatten)]
    module: Module<'a>,
    probe: &'static str,
    space: &'static str,
    to: bool,
    anchor: &'static str,
    anchor_about: &'static str,
    cp_size: u64,
    dst: &'static str,
    bytes: u32,
    store: bool,
    mapa: bool,
}

fn kernel(s: &Solved, id: &str, seed: u64, input: &Layout, output: &Layout) -> String {
    let e = &s.edge;
    let mut about = vec![
        // ptxas refuses any byte outside ASCII, comments included
        format!(
            "At the edge of {} (PTX ISA {}): \"{}\".",
            e.pre.id,
            e.pre.section,
            ascii(e.pre.rule)
        ),
        if e.lower() {
            format!(
                "Under the sm_90 window profile, {} = {:#x} is the first value where it holds, {:#x} the last below it where it does not.",
                e.var.name(),
                s.defined,
                s.undefined
            )
        } else {
            format!(
                "Under the sm_90 window profile, {} = {:#x} is the last value where it holds, {:#x} the first where it does not.",
                e.var.name(),
                s.defined,
                s.undefined
            )
        },
    ];
    about.push(match e.probe {
        Probe::Cvta { .. } => "Row of `in`: the offset of the address from the anchor; of `out`: the converted address less the anchor's, and isspacep of the generic address.".into(),
        Probe::Cluster { mapa: true } => "Row of `in`: a shared::cluster address `a` and a rank `b`; of `out`: the rank of the CTA that mapa(a, b) names.".into(),
        Probe::Cluster { mapa: false } => "Row of `in`: a shared::cluster address `a`; of `out`: getctarank of it.".into(),
        Probe::CpAsync => "Row of `in`: 32 bytes, src-size, and the offsets of the destination in sh and of the source in the row; of `out`: the 16 bytes at the destination after the copy.".into(),
        Probe::LdParam { .. } => "Row of `in`: an offset into the parameters; of `out`: the loaded value xor the same bytes of the two parameters read whole (0).".into(),
        Probe::Access { store: false } => "Row of `in`: 32 bytes and an offset; of `out`: the 16 bytes loaded from the row at the offset.".into(),
        Probe::Access { store: true } => "Row of `in`: 32 bytes and an offset; of `out`: 48 bytes, zero but for the first 16 bytes of the row stored at the offset.".into(),
        Probe::PolicyRange => "Row of `in`: a word, primary-size and total-size of a policy over the row; of `out`: the word, loaded with the policy.".into(),
        Probe::PolicyFraction => "Row of `in`: a word and the fraction's bits; of `out`: the word, loaded with the policy.".into(),
        Probe::Bulk => "Row of `in`: 48 bytes, the size, and the offsets of the destination in sh and of the source in the row; of `out`: the first 48 bytes of sh (zeroed before the copy) after the copy completed on the mbarrier.".into(),
        Probe::MbarInit => "Row of `in`: the count; of `out`: whether phase 0 is complete after the init (0) and after an arrive-on by the count (1).".into(),
        Probe::StBulk => "Row of `in`: 48 bytes and the size; of `out`: the 48 bytes stored to sh, after st.bulk zeroed the first `size` of them.".into(),
        Probe::TensorLoad => format!("map0: {}. Row of `in`: the tensor, its first bytes the offset of the destination in sh (u32) and the box's coordinates (2 x s32); of `out`: sh (zeroed before the copy) after the copy completed on the mbarrier.", tensor::map_text(MapKind::Load)),
        Probe::TensorMbar => format!("map0: {}. Row of `in`: the tensor, its first bytes the offset of the destination in sh (u32, 0), the box's coordinates (2 x s32) and the rank of the CTA whose bar the copy completes on (u32: the value's CTA, value >> {}); of `out`: sh (zeroed before the copy) after the copy completed on the executing CTA's mbarrier.", tensor::map_text(MapKind::Load), P.rank_shift),
        Probe::Im2col { rank } => format!("map0: {}. Row of `in`: the tensor, its first bytes the coordinates (5 x s32, all 0) and the im2col offsets at byte 20 (.u16 each, W first; H and D 0); of `out`: sh (zeroed before the copy) after the column's copy completed on the mbarrier.", tensor::map_text(MapKind::Im2col(rank))),
        Probe::Replace { .. } => format!("map0: {}. Row of `in`: new_val (.global_address: its offset from `in`); of `out`: the replaced map (the implementation's 128 bytes: don't-care), then 1 once the replace and its fences are done.", tensor::map_text(MapKind::Replace)),
    });
    let mut m = Module {
        common: Common {
            id,
            form: &e.form,
            section: e.section,
            version: e.vt.0,
            target: e.vt.1,
            entry: "k",
            cases: 1,
            in_row: input.row,
            out_row: output.row,
            generator: generator(),
            seed,
        },
        about,
        decls: Vec::new(),
        directives: Vec::new(),
    };
    if e.fixed.cluster_size > 1 {
        m.directives = vec![
            ".explicitcluster".into(),
            format!(".reqnctapercluster {}, 1, 1", e.fixed.cluster_size),
        ];
    }
    let (mut space, mut to, mut anchor, mut anchor_about) = ("", false, "", "");
    let probe = match e.probe {
        Probe::Cvta { space: sp, to: t } => {
            if sp == Space::Const {
                let mut rng = SplitMix64(seed);
                let init: Vec<String> = (0..CONST_BYTES)
                    .map(|_| format!("{:#04x}", rng.next_u64() as u8))
                    .collect();
                m.decls.push(format!(
                    ".const .align 16 .b8 cv[{CONST_BYTES}] = {{{}}};",
                    init.join(", ")
                ));
            }
            let (_, name, about) = cvta_anchor(sp);
            (space, to, anchor, anchor_about) = (sp.name(), t, name, about);
            "cvta"
        }
        Probe::Cluster { .. } => "cluster",
        Probe::CpAsync => "cp.async",
        Probe::LdParam { .. } => "ld.param",
        Probe::Access { .. } => "access",
        Probe::PolicyRange => "createpolicy.range",
        Probe::PolicyFraction => "createpolicy.fractional",
        Probe::Bulk => return bulk_kernel(&m, &e.form),
        Probe::MbarInit => return mbarrier_kernel(&m, &e.form),
        Probe::StBulk => return st_bulk_kernel(&m, &e.form),
        Probe::TensorLoad => return tensor::load_kernel(&m, &e.form),
        Probe::TensorMbar => return tensor::mbar_kernel(&m, &e.form),
        Probe::Im2col { rank } => return tensor::im2col_kernel(&m, &e.form, rank),
        Probe::Replace { field, ord } => return tensor::replace_kernel(&m, &e.form, field, ord),
    };
    let (bytes, dst) = match e.probe {
        Probe::LdParam { bytes: 8 } => (8, "%v"),
        Probe::LdParam { bytes } => (bytes, "%x0"),
        _ => (0, ""),
    };
    render(
        "boundary.ptx",
        &Ctx {
            module: m,
            probe,
            space,
            to,
            anchor,
            anchor_about,
            cp_size: e.fixed.cp_size,
            dst,
            bytes,
            store: matches!(e.probe, Probe::Access { store: true }),
            mapa: matches!(e.probe, Probe::Cluster { mapa: true }),
        },
    )
}

fn build(s: &Solved, undefined: bool, id: &str, o: &Options) -> Option<Built> {
    let e = &s.edge;
    let (value, other) = if undefined {
        (s.undefined, s.defined)
    } else {
        (s.defined, s.undefined)
    };
    // the same data on both sides
    let key = match e.lower() {
        false => format!("{}/{}", e.form, e.pre.id),
        true => format!("{}/{}.lower", e.form, e.pre.id),
    };
    let mut rng = SplitMix64(
        key.bytes()
            .fold(o.seed, |h, b| crate::rng::mix(h ^ u64::from(b))),
    );
    let (input, output) = layouts(e.probe);
    let inb = input_row(e, value, &mut rng)?;
    let (expected, mask) = if undefined {
        (
            vec![0; output.row as usize],
            vec![0xff; output.row as usize],
        )
    } else {
        (expected_row(e, value, &inb)?, expected_mask(e, value)?)
    };
    let measured = if e.hardware {
        "the model's expectations, which an H100 met (corpus/suite/sm_90/boundary-results.json)"
    } else {
        "the model's expectations (not yet run on a GPU)"
    };
    let ptx = kernel(s, id, o.seed, &input, &output);
    let note = if undefined {
        format!(
            "undefined: {} does not hold ({} = {value:#x}); not run unless asked (conform run --include-undefined)",
            e.pre.id,
            e.var.name()
        )
    } else {
        format!(
            "the {} value where {} holds ({} = {value:#x}), found by Z3 under the sm_90 window profile; {measured}",
            if s.defined < s.undefined { "last" } else { "first" },
            e.pre.id,
            e.var.name()
        )
    };
    let mut group = group_1d(
        id.into(),
        e.family,
        &e.form,
        e.section,
        e.vt,
        // the defined sides that passed on an H100; an undefined side has
        // no expected bits to have seen
        if undefined || !e.hardware {
            Provenance::Spec
        } else {
            Provenance::Hardware
        },
        note,
        1,
        input,
        output,
    );
    if e.fixed.cluster_size > 1 {
        let n = e.fixed.cluster_size as u32;
        group.grid = [n, 1, 1];
        group.cluster = [n, 1, 1];
    }
    let map = match e.probe {
        Probe::TensorLoad | Probe::TensorMbar => Some(MapKind::Load),
        Probe::Im2col { rank } => Some(MapKind::Im2col(rank)),
        Probe::Replace { .. } => Some(MapKind::Replace),
        _ => None,
    };
    if let Some(kind) = map {
        group.tensor_maps = vec![tensor::map_text(kind)];
    }
    if undefined {
        group.expect = Expect::Undefined;
    }
    group.boundary = Some(Boundary {
        precondition: e.pre.id.into(),
        section: e.pre.section.into(),
        rule: e.pre.rule.into(),
        var: e.var.name().into(),
        value,
        other,
    });
    Some(Built {
        group,
        ptx,
        input: inb,
        expected,
        mask,
    })
}

/// `text` with `…` spelled `...` and any other character outside ASCII
/// as `?`: ptxas rejects a PTX file with one, even in a comment (the
/// mbarrier count rules quote "[1, …, 2^20 - 1]").
fn ascii(text: &str) -> String {
    text.replace('…', "...")
        .chars()
        .map(|c| if c.is_ascii() { c } else { '?' })
        .collect()
}

/// The head of a kernel the boundary template does not write: the module
/// head with `regs` and shared variables `decls` (lines inside the entry),
/// then the suite's prologue (row addresses in `%pin` and `%pout`).
fn head(m: &Module, body_decls: &[&str]) -> String {
    let mut k = render("module.ptx", m);
    if !k.ends_with('\n') {
        k.push('\n');
    }
    for d in body_decls {
        k.push('\t');
        k.push_str(d);
        k.push('\n');
    }
    k.push_str(&render("prologue.ptx", m));
    if !k.ends_with('\n') {
        k.push('\n');
    }
    k
}

/// Appends the lines, each indented by a tab, and the kernel's end.
fn body(mut k: String, lines: &[String]) -> String {
    for l in lines {
        if !l.ends_with(':') {
            k.push('\t');
        }
        k.push_str(l);
        k.push('\n');
    }
    k.push_str("\tret;\n}\n");
    k
}

/// `Probe::Bulk`: `sh` zeroed and the zeros ordered before the copy's
/// writes (`fence.proxy.async`: the copy writes through the async proxy),
/// an mbarrier for one arrival expecting `size` bytes, the copy, a wait
/// for phase 0, then `sh` out. The wait gives up after 65,536 tries: on an
/// H100 a copy of 33 bytes (the size's undefined side) never completes
/// its phase, and the kernel would hang.
fn bulk_kernel(m: &Module, form: &str) -> String {
    let k = head(
        m,
        &[
            ".reg .pred %p, %q;",
            ".reg .b32 %sz, %x0, %x1, %x2, %x3, %z, %tries;",
            ".reg .b64 %x, %y, %st;",
            ".shared .align 16 .b8 sh[64];",
            ".shared .align 8 .b64 bar;",
        ],
    );
    let z = "{ %z, %z, %z, %z }";
    let v = "{ %x0, %x1, %x2, %x3 }";
    let mut lines: Vec<String> = vec![
        "ld.global.u32 %sz, [%pin+48];".into(),
        "ld.global.u32 %x0, [%pin+52];".into(),
        "ld.global.u32 %x1, [%pin+56];".into(),
        "// dst: sh plus `dst_off`; src: the row plus `src_off`".into(),
        "mov.u64 %x, sh;".into(),
        "cvt.u64.u32 %y, %x0;".into(),
        "add.u64 %x, %x, %y;".into(),
        "cvt.u64.u32 %y, %x1;".into(),
        "add.u64 %y, %pin, %y;".into(),
        "mov.u32 %z, 0;".into(),
    ];
    for off in [0, 16, 32, 48] {
        lines.push(format!("st.shared.v4.u32 [sh+{off}], {z};"));
    }
    lines.extend([
        "mbarrier.init.shared::cta.b64 [bar], 1;".into(),
        "fence.proxy.async.shared::cta;".into(),
        "mbarrier.arrive.expect_tx.shared::cta.b64 %st, [bar], %sz;".into(),
        format!("{form} [%x], [%y], %sz, [bar];"),
        "mov.u32 %tries, 0;".into(),
        "$wait:".into(),
        "mbarrier.try_wait.parity.shared::cta.b64 %p, [bar], 0;".into(),
        "@%p bra $done;".into(),
        "add.u32 %tries, %tries, 1;".into(),
        "setp.lt.u32 %q, %tries, 65536;".into(),
        "@%q bra $wait;".into(),
        "$done:".into(),
    ]);
    for off in [0, 16, 32] {
        lines.push(format!("ld.shared.v4.u32 {v}, [sh+{off}];"));
        lines.push(format!("st.global.v4.u32 [%pout+{off}], {v};"));
    }
    lines.push("mbarrier.inval.shared::cta.b64 [bar];".into());
    body(k, &lines)
}

/// `Probe::MbarInit`: init with the row's count, test phase 0, arrive by
/// the count, test it again.
fn mbarrier_kernel(m: &Module, form: &str) -> String {
    let k = head(
        m,
        &[
            ".reg .pred %p;",
            ".reg .b32 %n, %f;",
            ".reg .b64 %st;",
            ".shared .align 8 .b64 bar;",
        ],
    );
    let lines: Vec<String> = vec![
        "ld.global.u32 %n, [%pin];".into(),
        format!("{form} [bar], %n;"),
        "mbarrier.test_wait.parity.shared::cta.b64 %p, [bar], 0;".into(),
        "selp.u32 %f, 1, 0, %p;".into(),
        "st.global.u32 [%pout], %f;".into(),
        "mbarrier.arrive.shared::cta.b64 %st, [bar], %n;".into(),
        "mbarrier.test_wait.parity.shared::cta.b64 %p, [bar], 0;".into(),
        "selp.u32 %f, 1, 0, %p;".into(),
        "st.global.u32 [%pout+4], %f;".into(),
        "mbarrier.inval.shared::cta.b64 [bar];".into(),
    ];
    body(k, &lines)
}

/// `Probe::StBulk`: the row's 48 bytes into `sh`, `st.bulk` of the row's
/// size over them (generic addressing), `sh` out.
fn st_bulk_kernel(m: &Module, form: &str) -> String {
    let k = head(
        m,
        &[
            ".reg .b32 %x0, %x1, %x2, %x3, %n;",
            ".reg .b64 %sz, %g;",
            ".shared .align 16 .b8 sh[48];",
        ],
    );
    let v = "{ %x0, %x1, %x2, %x3 }";
    let mut lines: Vec<String> = Vec::new();
    for off in [0, 16, 32] {
        lines.push(format!("ld.global.v4.u32 {v}, [%pin+{off}];"));
        lines.push(format!("st.shared.v4.u32 [sh+{off}], {v};"));
    }
    lines.extend([
        "ld.global.u32 %n, [%pin+48];".into(),
        "cvt.u64.u32 %sz, %n;".into(),
        "cvta.shared.u64 %g, sh;".into(),
        format!("{form} [%g], %sz, 0;"),
    ]);
    for off in [0, 16, 32] {
        lines.push(format!("ld.shared.v4.u32 {v}, [sh+{off}];"));
        lines.push(format!("st.global.v4.u32 [%pout+{off}], {v};"));
    }
    body(k, &lines)
}
