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
use ptx_semantics::precond::{table, Env, Precondition, Var};
use ptx_semantics::sim::window::{
    cvta_from_generic, cvta_to_generic, getctarank, isspacep, mapa, Place, WindowProfile,
};
use ptx_semantics::sim::Space;
use serde::Serialize;

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
    /// The values `var` may take (both ends included).
    pub range: Option<(u64, u64)>,
    probe: Probe,
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
    out
}

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
    ("st.bulk.size", "the simulator does not run st.bulk yet"),
    ("st.bulk.generic-shared", "the simulator does not run st.bulk yet"),
    ("st.async.generic-shared", "the simulator does not run st.async yet"),
    ("st.async.cluster", "the simulator does not run st.async yet"),
    ("st.async.release.generic-global", "the simulator does not run st.async yet"),
    ("multimem.generic-global", "multimem needs a multicast object, which the suite's launches do not make"),
    ("cp.async.bulk.size", "the simulator does not run bulk copies yet"),
    ("cp.async.bulk.dst.aligned", "the simulator does not run bulk copies yet"),
    ("cp.async.bulk.src.aligned", "the simulator does not run bulk copies yet"),
    ("cp.async.bulk.dst.shared::cta", "the simulator does not run bulk copies yet"),
    ("cp.reduce.async.bulk.size", "the simulator does not run bulk copies yet"),
    ("cp.reduce.async.bulk.dst.aligned", "the simulator does not run bulk copies yet"),
    ("cp.reduce.async.bulk.src.aligned", "the simulator does not run bulk copies yet"),
    ("cp.async.bulk.prefetch.size", "the simulator does not run bulk copies yet"),
    ("cp.async.bulk.prefetch.aligned", "the simulator does not run bulk copies yet"),
    ("cp.async.bulk.tensor.dst.shared::cta", "the simulator does not run tensor copies yet"),
    ("tensormap.replace.generic", "the simulator does not run tensormap.replace yet"),
];

/// The groups of the solved edges: for each, `FORM/boundary/PRE/defined`
/// and `FORM/boundary/PRE/undefined`.
pub fn plans(solved: &[Solved]) -> Vec<Plan> {
    let mut out = Vec::new();
    for s in solved {
        for undefined in [false, true] {
            let id = format!(
                "{}/boundary/{}/{}",
                s.edge.form,
                s.edge.pre.id,
                if undefined { "undefined" } else { "defined" }
            );
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
    }
    Some(row)
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
        format!(
            "At the edge of {} (PTX ISA {}): \"{}\".",
            e.pre.id, e.pre.section, e.pre.rule
        ),
        format!(
            "Under the sm_90 window profile, {} = {:#x} is the last value where it holds, {:#x} the first where it does not.",
            e.var.name(),
            s.defined,
            s.undefined
        ),
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
    });
    let mut m = Module {
        common: Common {
            id,
            form: &e.form,
            section: e.section,
            version: VT.0,
            target: VT.1,
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
    let key = format!("{}/{}", e.form, e.pre.id);
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
        (expected_row(e, value, &inb)?, Vec::new())
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
            "the last value where {} holds ({} = {value:#x}), found by Z3 under the sm_90 window profile; the model's expectations, which an H100 met (corpus/suite/sm_90/boundary-results.json)",
            e.pre.id,
            e.var.name()
        )
    };
    let mut group = group_1d(
        id.into(),
        e.family,
        &e.form,
        e.section,
        VT,
        // every defined side passed on an H100; an undefined side has no
        // expected bits to have seen
        if undefined {
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
