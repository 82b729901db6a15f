//! The asynchronous groups (issue 14): bulk copies (PTX ISA 9.7.9.25.4.1)
//! in every direction, bulk reductions (9.7.9.25.4.2), the bulk prefetch
//! (9.7.9.25.4.3), bulk groups (9.7.9.25.6), `st.async` (9.7.9.12),
//! `st.bulk` (9.7.9.13, sm_100), the mbarrier instructions (9.7.13.15) and
//! `cp.async.mbarrier.arrive` (9.7.13.15.15).
//!
//! Every kernel waits as PTX ISA 9.7.9.25.1 asks before it reads a
//! destination (an mbarrier `try_wait.parity` loop, or `wait_group`), so
//! that every output is defined, and writes its results to global memory:
//! moved bytes, reduced elements, `waitComplete` booleans and pending
//! counts, never an address or the `state` of an arrive (its bits are the
//! implementation's, 9.7.13.15.13). Generic writes that an asynchronous
//! operation reads or overwrites are ordered before it by
//! `fence.proxy.async`; mbarriers another CTA completes are initialised
//! before a cluster barrier.
//!
//! Expected values are the model's: the bytes a copy moves (its first
//! `size` bytes, the guard after them), [`red::reduce`] for each element
//! of a reduction (with its mask of unspecified NaN bits), and
//! [`ptx_semantics::mbarrier`]'s state machine for the mbarrier scripts.
//!
//! Every spelling the catalogue gives sm_90 has a group; the `.cp_mask`
//! copies and `st.bulk` (sm_100) have `spec` groups for `sm_100`. One
//! departure of sm_90 from the spec has groups of its own, `spec`:
//! `cp.reduce.async.bulk .add.f32` keeps subnormal inputs and results where
//! the spec says it flushes them (corpus/bulk-reduce/sm_90/probe.txt,
//! docs/bulk-observations.md); the other `.add.f32` groups have no
//! subnormal input or result.

use super::forms::{accepted, rows, VT};
use super::manifest::{Field, Layout, Provenance};
use super::mem::{data_bytes, seeded};
use super::templates::{render, Common, Module};
use super::{generator, group_1d, launch_1d, push_le, Built, Options, Plan};
use crate::rng::SplitMix64;
use ptx_semantics::mbarrier::{Op as MOp, Slot, State, WaitRule};
use ptx_semantics::sim::reduce::{self as red, BulkRedOp, BulkRedType};
use serde::Serialize;
use std::sync::Arc;

/// The guard a destination holds before a copy.
const GUARD: u32 = 0xe3e2_e1e0;
/// The PTX version and target of the sm_100 groups.
const VT100: (&str, &str) = ("8.7", "sm_100");
/// The GPU run that backs the `hardware` groups.
pub const GPU_RESULTS: &str = "corpus/suite/sm_90/bulk-results.json.gz";
/// The prefixes of the groups that show a documented departure of sm_90
/// from the spec, and why (docs/bulk-observations.md).
pub const DIVERGENT: &[(&str, &str)] = &[(
    "cp.reduce.async.bulk.global.shared::cta.bulk_group",
    "`.add.f32` with subnormal inputs or results: the spec says the current implementation flushes them to sign-preserving zero; sm_90 (an H100) keeps them (docs/bulk-observations.md)",
)];

fn guard_byte(k: usize) -> u8 {
    (GUARD >> (8 * (k % 4))) as u8
}

/// Provenance and note of a group: `spec` for the sm_100 forms and the
/// divergence groups, `hardware` for the others (each passed on an H100:
/// [`GPU_RESULTS`], which a CI test ties them to).
fn provenance(vt: (&str, &str), divergent: bool) -> (Provenance, String) {
    if vt.1 != VT.1 {
        (
            Provenance::Spec,
            "sm_100 only: the GPUs at hand (sm_90) reject it".into(),
        )
    } else if divergent {
        (Provenance::Spec, DIVERGENT[0].1.to_string())
    } else {
        (
            Provenance::Hardware,
            format!("run on an H100 with the model's results ({GPU_RESULTS})"),
        )
    }
}

/// Every spelling of `instr`'s rows that `vt` accepts, each once, in
/// catalogue order.
pub fn spelled(instr: &str, vt: (&str, &str)) -> Vec<String> {
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for form in rows(instr) {
        for text in form.spellings(&|_, _| true) {
            if accepted(&text, vt).is_some() && seen.insert(text.clone()) {
                out.push(text);
            }
        }
    }
    out
}

/// The spellings sm_100 adds to sm_90's.
fn sm100_only(instr: &str) -> Vec<String> {
    let old = spelled(instr, VT);
    spelled(instr, VT100)
        .into_iter()
        .filter(|t| !old.contains(t))
        .collect()
}

/// What every kernel of this module declares.
struct Head<'a> {
    id: &'a str,
    form: &'a str,
    section: &'a str,
    vt: (&'a str, &'a str),
    cases: u64,
    rows: (u32, u32),
    seed: u64,
    about: Vec<String>,
    cluster: u32,
}

impl<'a> Head<'a> {
    fn module(self) -> Module<'a> {
        Module {
            common: Common {
                id: self.id,
                form: self.form,
                section: self.section,
                version: self.vt.0,
                target: self.vt.1,
                entry: "k",
                cases: self.cases,
                in_row: self.rows.0,
                out_row: self.rows.1,
                generator: generator(),
                seed: self.seed,
            },
            about: self.about,
            decls: Vec::new(),
            directives: if self.cluster > 1 {
                vec![
                    ".explicitcluster".into(),
                    format!(".reqnctapercluster {}, 1, 1", self.cluster),
                ]
            } else {
                Vec::new()
            },
        }
    }
}

/// Register lists, passed as values because `{%` opens a Tera tag.
const G4: &str = "{%g, %g, %g, %g}";
const X4: &str = "{%x0, %x1, %x2, %x3}";
const Z4: &str = "{%z, %z, %z, %z}";

/// Fields of `bytes` bytes of data at `at`, 16 bytes each: the first four
/// and the last (the rows are long; the fields only name what a report
/// shows).
pub(super) fn chunks(name: &str, at: u32, bytes: u32) -> Vec<Field> {
    let mut offs: Vec<u32> = (0..bytes.div_ceil(16)).map(|k| 16 * k).collect();
    if offs.len() > 5 {
        let last = *offs.last().unwrap();
        offs.truncate(4);
        offs.push(last);
    }
    offs.into_iter()
        .map(|o| Field {
            name: format!("{name}{o}"),
            ty: "b128".into(),
            offset: at + o,
            bytes: 16.min(bytes - o),
        })
        .collect()
}

fn word(name: &str, ty: &str, at: u32, bytes: u32) -> Field {
    Field {
        name: name.into(),
        ty: ty.into(),
        offset: at,
        bytes,
    }
}

/// The manifest entry and rows of a group.
#[allow(clippy::too_many_arguments)]
fn built(
    h: (&str, &str, &str, &str),
    vt: (&str, &str),
    divergent: bool,
    cases: u64,
    launch: ([u32; 3], [u32; 3], u32),
    (input, output): (Layout, Layout),
    ptx: String,
    (inb, exp, mask): (Vec<u8>, Vec<u8>, Vec<u8>),
) -> Built {
    let (id, family, form, section) = h;
    let (prov, note) = provenance(vt, divergent);
    let mut group = group_1d(
        id.to_string(),
        family,
        form,
        section,
        vt,
        prov,
        note,
        cases,
        input,
        output,
    );
    group.grid = launch.0;
    group.block = launch.1;
    group.cluster = [launch.2, 1, 1];
    debug_assert_eq!(inb.len(), group.input_bytes(), "{id}");
    debug_assert_eq!(exp.len(), group.output_bytes(), "{id}");
    let mask = if mask.iter().any(|&b| b != 0) {
        mask
    } else {
        Vec::new()
    };
    Built {
        group,
        ptx,
        input: inb,
        expected: exp,
        mask,
    }
}

/// Copy sizes: small and odd multiples of 16, powers of two, the largest,
/// then seeded multiples of 16 up to `max`.
fn sizes(rng: &mut SplitMix64, rows: usize, max: u32) -> Vec<u32> {
    const FIXED: &[u32] = &[
        16, 32, 48, 64, 80, 128, 144, 256, 496, 512, 1008, 1024, 1040, 2048, 4080, 4096,
    ];
    let fixed: Vec<u32> = FIXED.iter().copied().filter(|&s| s <= max).collect();
    (0..rows)
        .map(|r| {
            fixed
                .get(r)
                .copied()
                .unwrap_or_else(|| 16 * (1 + (rng.next_u64() % u64::from(max / 16)) as u32))
        })
        .collect()
}

// ---------------------------------------------------------------------
// Copies within one CTA: global -> shared::cta, shared::cta -> global,
// the prefetch, bulk groups.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CtaMode {
    G2Cta,
    Cta2G,
    Prefetch,
    Groups,
    Read,
}

impl CtaMode {
    fn name(self) -> &'static str {
        match self {
            CtaMode::G2Cta => "g2cta",
            CtaMode::Cta2G => "cta2g",
            CtaMode::Prefetch => "prefetch",
            CtaMode::Groups => "groups",
            CtaMode::Read => "read",
        }
    }
}

#[derive(Clone, Debug)]
struct CtaCopy {
    mode: CtaMode,
    copy: String,
    prefetch: String,
    hint: bool,
    cp_mask: bool,
    vt: (&'static str, &'static str),
}

const CTA_SLOT: u32 = 4096;
const CTA_ROWS: u64 = 32;
const CTA_BLOCK: u32 = 4;
const CHUNKS: u32 = 4;
const CHUNK: u32 = 256;

impl CtaCopy {
    fn slot(&self) -> u32 {
        match self.mode {
            CtaMode::Groups | CtaMode::Read => CHUNKS * CHUNK,
            _ => CTA_SLOT,
        }
    }

    fn layouts(&self) -> (Layout, Layout) {
        let slot = self.slot();
        let mut fields = chunks("data", 0, slot);
        match self.mode {
            CtaMode::Groups | CtaMode::Read => {
                for j in 0..CHUNKS {
                    fields.push(word(&format!("size{j}"), "u32", slot + 4 * j, 4));
                }
            }
            _ => {
                fields.push(word("size", "u32", slot, 4));
                if self.cp_mask {
                    fields.push(word("byte_mask", "b16", slot + 4, 2));
                }
            }
        }
        let input = Layout {
            row: slot + 16,
            fields,
        };
        let output = match self.mode {
            CtaMode::Groups => {
                let mut f = chunks("dst", 0, slot);
                f.extend(chunks("readback", slot, slot));
                Layout {
                    row: 2 * slot,
                    fields: f,
                }
            }
            CtaMode::Cta2G | CtaMode::Read => Layout {
                row: slot,
                fields: chunks("dst", 0, slot),
            },
            _ => Layout {
                row: slot,
                fields: chunks("slot", 0, slot),
            },
        };
        (input, output)
    }
}

#[derive(Serialize)]
struct CtaCtx<'a> {
    #[serde(flatten)]
    module: Module<'a>,
    mode: &'static str,
    copy: &'a str,
    prefetch: &'a str,
    wait: &'a str,
    hint: bool,
    cp_mask: bool,
    slot: u32,
    shared_bytes: u32,
    bars_bytes: u32,
    size_at: u32,
    chunks: u32,
    chunk: u32,
    guard: String,
    g4: &'static str,
    x4: &'static str,
    z4: &'static str,
}

fn cta_kernel(id: &str, form: &str, section: &str, c: &CtaCopy, seed: u64) -> String {
    let (input, output) = c.layouts();
    let slot = c.slot();
    let about = match c.mode {
        CtaMode::G2Cta | CtaMode::Prefetch => vec![
            format!("Row i of `in`: {slot} source bytes, then `size` (a u32)."),
            format!("Row i of `out`: the thread's {slot}-byte shared slot after the copy of `size` bytes, waited on its mbarrier; the slot held {GUARD:#010x} in each word before."),
        ],
        CtaMode::Cta2G => vec![
            format!("Row i of `in`: {slot} source bytes, then `size` (a u32){}.", if c.cp_mask { " and `byteMask` (a b16)" } else { "" }),
            format!("Row i of `out`: the destination of the copy of `size` bytes from the thread's shared slot (which holds the source bytes), waited with wait_group 0; it held {GUARD:#010x} in each word before."),
        ],
        CtaMode::Groups => vec![
            format!("Row i of `in`: {CHUNKS} chunks of {CHUNK} source bytes, then their sizes (u32 each)."),
            format!("Row i of `out`: {CHUNKS} destination chunks (guard {GUARD:#010x} before), one bulk group each; then each chunk as generic loads read it after the wait_group that completes its group."),
        ],
        CtaMode::Read => vec![
            format!("Row i of `in`: {CHUNKS} chunks of {CHUNK} source bytes, then their sizes (u32 each)."),
            format!("Row i of `out`: {CHUNKS} destination chunks (guard {GUARD:#010x} before), one bulk group each; each source chunk is overwritten with 0x5a bytes after the wait_group.read that releases it."),
        ],
    };
    let module = Head {
        id,
        form,
        section,
        vt: c.vt,
        cases: CTA_ROWS,
        rows: (input.row, output.row),
        seed,
        about,
        cluster: 1,
    }
    .module();
    render(
        "bulk_cta.ptx",
        &CtaCtx {
            module,
            mode: c.mode.name(),
            copy: &c.copy,
            prefetch: &c.prefetch,
            wait: if c.mode == CtaMode::Read {
                "cp.async.bulk.wait_group.read"
            } else {
                "cp.async.bulk.wait_group"
            },
            hint: c.hint,
            cp_mask: c.cp_mask,
            slot,
            shared_bytes: slot * CTA_BLOCK,
            bars_bytes: 8 * CTA_BLOCK,
            size_at: slot,
            chunks: CHUNKS,
            chunk: CHUNK,
            guard: format!("{GUARD:#010x}"),
            g4: G4,
            x4: X4,
            z4: Z4,
        },
    )
}

fn cta_build(h: (&str, &str, &str, &str), c: &CtaCopy, o: &Options) -> Built {
    let (id, _, form, section) = h;
    let mut rng = seeded(o, id);
    let (input, output) = c.layouts();
    let slot = c.slot() as usize;
    let mut inb = Vec::new();
    let mut exp = Vec::new();
    let copy_sizes = sizes(&mut rng, CTA_ROWS as usize, c.slot());
    for (r, &n) in copy_sizes.iter().enumerate() {
        let data = data_bytes(r, slot, &mut rng);
        let start = inb.len();
        inb.extend_from_slice(&data);
        match c.mode {
            CtaMode::Groups | CtaMode::Read => {
                let ns: Vec<u32> = (0..CHUNKS)
                    .map(|_| 16 * (1 + (rng.next_u64() % u64::from(CHUNK / 16)) as u32))
                    .collect();
                for &n in &ns {
                    push_le(&mut inb, u128::from(n), 4);
                }
                let dst: Vec<u8> = (0..slot)
                    .map(|k| {
                        let (j, within) = (k / CHUNK as usize, k % CHUNK as usize);
                        if within < ns[j] as usize {
                            data[k]
                        } else {
                            guard_byte(k)
                        }
                    })
                    .collect();
                exp.extend_from_slice(&dst);
                if c.mode == CtaMode::Groups {
                    exp.extend_from_slice(&dst);
                }
            }
            _ => {
                let n = n as usize;
                push_le(&mut inb, n as u128, 4);
                let byte_mask = if c.cp_mask {
                    let m = match r {
                        0 => 0xffff,
                        1 => 0,
                        2 => 0x5555,
                        _ => rng.next_u64() as u16,
                    };
                    push_le(&mut inb, u128::from(m), 2);
                    Some(m)
                } else {
                    None
                };
                exp.extend((0..slot).map(|k| {
                    let copied = k < n && !matches!(byte_mask, Some(m) if m >> (k % 16) & 1 == 0);
                    if copied {
                        data[k]
                    } else {
                        guard_byte(k)
                    }
                }));
            }
        }
        inb.resize(start + input.row as usize, 0);
    }
    let ptx = cta_kernel(id, form, section, c, o.seed);
    built(
        h,
        c.vt,
        false,
        CTA_ROWS,
        (
            [(CTA_ROWS / u64::from(CTA_BLOCK)) as u32, 1, 1],
            [CTA_BLOCK, 1, 1],
            1,
        ),
        (input, output),
        ptx,
        (inb, exp, Vec::new()),
    )
}

// ---------------------------------------------------------------------
// Copies and reductions into the shared memory of a cluster.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ClMode {
    G2Cluster,
    Multicast,
    Cta2Cluster,
    Reduce,
}

impl ClMode {
    fn name(self) -> &'static str {
        match self {
            ClMode::G2Cluster => "g2cluster",
            ClMode::Multicast => "multicast",
            ClMode::Cta2Cluster => "cta2cluster",
            ClMode::Reduce => "reduce",
        }
    }
}

/// A reduction: `.redOp`, `.type`, `.noftz`.
type Red = (BulkRedOp, BulkRedType, bool);

#[derive(Clone, Debug)]
struct ClusterCopy {
    mode: ClMode,
    copy: String,
    hint: bool,
    /// CTAs per cluster.
    n: u32,
    red: Option<Red>,
}

const CL_BLOCK: u32 = 8;
const CL_SLOT: u32 = 1024;
const RED_SLOT: u32 = 64;
const RED_CL_BLOCK: u32 = 32;

impl ClusterCopy {
    fn slot(&self) -> u32 {
        if self.mode == ClMode::Reduce {
            RED_SLOT
        } else {
            CL_SLOT
        }
    }

    fn block(&self) -> u32 {
        if self.mode == ClMode::Reduce {
            RED_CL_BLOCK
        } else {
            CL_BLOCK
        }
    }

    fn size_at(&self) -> u32 {
        if self.mode == ClMode::Reduce {
            2 * self.slot()
        } else {
            self.slot()
        }
    }

    fn cases(&self) -> u64 {
        u64::from(2 * self.n * self.block())
    }

    fn layouts(&self) -> (Layout, Layout) {
        let slot = self.slot();
        let at = self.size_at();
        let mut fields = if self.mode == ClMode::Reduce {
            let mut f = chunks("old", 0, slot);
            f.extend(chunks("src", slot, slot));
            f
        } else {
            chunks("data", 0, slot)
        };
        fields.push(word("size", "u32", at, 4));
        fields.push(match self.mode {
            ClMode::Multicast => word("cta_mask", "b16", at + 4, 2),
            _ => word("target_rank", "u32", at + 4, 4),
        });
        if self.mode == ClMode::Multicast {
            fields.push(word("issuer_rank", "u32", at + 8, 4));
        }
        (
            Layout {
                row: at + 16,
                fields,
            },
            Layout {
                row: slot,
                fields: chunks("dst", 0, slot),
            },
        )
    }
}

#[derive(Serialize)]
struct ClusterCtx<'a> {
    #[serde(flatten)]
    module: Module<'a>,
    mode: &'static str,
    copy: &'a str,
    hint: bool,
    from_shared: bool,
    slot: u32,
    block: u32,
    size_at: u32,
    guard: String,
    g4: &'static str,
    x4: &'static str,
}

fn cluster_kernel(id: &str, form: &str, section: &str, c: &ClusterCopy, seed: u64) -> String {
    let (input, output) = c.layouts();
    let (n, b, slot) = (c.n, c.block(), c.slot());
    let mut about = vec![format!(
        "Two clusters of {n} CTAs of {b} threads; thread t of each CTA owns a {slot}-byte part of dsts and the mbarrier at bars + 8t."
    )];
    about.extend(match c.mode {
        ClMode::G2Cluster => vec![
            "Thread t of CTA rank R copies `size` bytes of its row from global memory into part t of CTA rank `target_rank`,".into(),
            "completing on that CTA's mbarrier t; each part gets one copy. Row i of `out`: part t of CTA R after the copy it received".into(),
            format!("(it held {GUARD:#010x} in each word before)."),
        ],
        ClMode::Cta2Cluster => vec![
            "Thread t of CTA rank R copies `size` bytes of its row, put in its part of srcs, into part t of CTA rank `target_rank`".into(),
            "(another CTA), completing on that CTA's mbarrier t; each part gets one copy. Row i of `out`: part t of CTA R after the".into(),
            format!("copy it received (it held {GUARD:#010x} in each word before)."),
        ],
        ClMode::Multicast => vec![
            "Thread t of CTA rank `issuer_rank` copies `size` bytes of its row into part t of every CTA whose bit is set in".into(),
            "`cta_mask`, completing on each one's mbarrier t (the fields are the same in the rows of thread t of every CTA of a".into(),
            format!("cluster). Row i of `out`: part t of CTA R afterwards (it held {GUARD:#010x} in each word before)."),
        ],
        ClMode::Reduce => vec![
            "Part t of CTA R first holds `old` of its own row; thread t of CTA R reduces `size` bytes of its row's `src`, put in".into(),
            "its part of srcs, into part t of CTA rank `target_rank` (the other CTA), completing on that CTA's mbarrier t.".into(),
            "Row i of `out`: part t of CTA R after the reduction it received.".into(),
        ],
    });
    let module = Head {
        id,
        form,
        section,
        vt: VT,
        cases: c.cases(),
        rows: (input.row, output.row),
        seed,
        about,
        cluster: n,
    }
    .module();
    render(
        "bulk_cluster.ptx",
        &ClusterCtx {
            module,
            mode: c.mode.name(),
            copy: &c.copy,
            hint: c.hint,
            from_shared: matches!(c.mode, ClMode::Cta2Cluster | ClMode::Reduce),
            slot,
            block: b,
            size_at: c.size_at(),
            guard: format!("{GUARD:#010x}"),
            g4: G4,
            x4: X4,
        },
    )
}

fn cluster_build(h: (&str, &str, &str, &str), c: &ClusterCopy, o: &Options) -> Built {
    let (id, _, form, section) = h;
    let mut rng = seeded(o, id);
    let (input, output) = c.layouts();
    let (n, b) = (c.n, c.block());
    let slot = c.slot() as usize;
    let threads = (2 * n * b) as usize;
    // per (cluster, thread index): size, rank shift (or ctaMask), issuer
    let per = (2 * b) as usize;
    let copy_sizes: Vec<u32> = if c.mode == ClMode::Reduce {
        (0..per).map(|k| 16 * (1 + (k as u32 % 4))).collect()
    } else {
        sizes(&mut rng, per, c.slot())
    };
    let masks: Vec<u32> = (0..per).map(|k| 1 + (k as u32 % ((1 << n) - 1))).collect();
    let shifts: Vec<u32> = (0..per)
        .map(|k| match c.mode {
            // every shift, the CTA itself included
            ClMode::G2Cluster => k as u32 % n,
            // another CTA
            _ => 1 + (k as u32 % (n - 1)),
        })
        .collect();
    let issuers: Vec<u32> = (0..per)
        .map(|_| (rng.next_u64() % u64::from(n)) as u32)
        .collect();
    let place = |i: usize| {
        let (cta, t) = (i / b as usize, i % b as usize);
        let (cl, r) = (cta / n as usize, (cta % n as usize) as u32);
        (cl, r, t, cl * b as usize + t)
    };
    let row_of = |cl: usize, r: u32, t: usize| (cl * n as usize + r as usize) * b as usize + t;
    // the data (or `old` and `src`) of each row
    let mut data: Vec<Vec<u8>> = (0..threads)
        .map(|i| {
            data_bytes(
                i,
                slot * if c.mode == ClMode::Reduce { 2 } else { 1 },
                &mut rng,
            )
        })
        .collect();
    let sender = |cl: usize, q: u32, t: usize| {
        let k = cl * b as usize + t;
        row_of(cl, (q + n - shifts[k]) % n, t)
    };
    let mut mask_rows = vec![0u8; threads * slot];
    if let Some((op, ty, _)) = c.red {
        // element pairs: `old` in the receiving row, `src` in the sending one
        let mut pairs = red_pairs(op, ty, &mut rng, PairSet::All).into_iter();
        let e = red::element_bytes(ty);
        for i in 0..threads {
            let (cl, q, t, k) = place(i);
            let s = sender(cl, q, t);
            for at in (0..copy_sizes[k] as usize).step_by(e) {
                let (old, src) = pairs.next().unwrap_or_else(|| random_pair(ty, &mut rng));
                data[i][at..at + e].copy_from_slice(&old.to_le_bytes()[..e]);
                data[s][slot + at..slot + at + e].copy_from_slice(&src.to_le_bytes()[..e]);
            }
        }
    }
    let mut inb = Vec::new();
    let mut exp = Vec::new();
    for i in 0..threads {
        let (cl, q, t, k) = place(i);
        let size = copy_sizes[k] as usize;
        let start = inb.len();
        inb.extend_from_slice(&data[i]);
        push_le(&mut inb, size as u128, 4);
        match c.mode {
            ClMode::Multicast => {
                push_le(&mut inb, u128::from(masks[k]), 4);
                push_le(&mut inb, u128::from(issuers[k]), 4);
            }
            _ => {
                push_le(&mut inb, u128::from((q + shifts[k]) % n), 4);
                push_le(&mut inb, 0, 4);
            }
        }
        inb.resize(start + input.row as usize, 0);
        match (c.mode, c.red) {
            (ClMode::Reduce, Some((op, ty, noftz))) => {
                let s = sender(cl, q, t);
                let e = red::element_bytes(ty);
                let mut row = data[i][..slot].to_vec();
                for at in (0..size).step_by(e) {
                    let old = le(&data[i][at..at + e]);
                    let src = le(&data[s][slot + at..slot + at + e]);
                    let (v, m) = red::reduce(op, ty, noftz, old, src);
                    row[at..at + e].copy_from_slice(&v.to_le_bytes()[..e]);
                    mask_rows[i * slot + at..i * slot + at + e]
                        .copy_from_slice(&m.to_le_bytes()[..e]);
                }
                exp.extend_from_slice(&row);
            }
            _ => {
                let from = match c.mode {
                    ClMode::Multicast => {
                        (masks[k] >> q & 1 == 1).then(|| row_of(cl, issuers[k], t))
                    }
                    _ => Some(sender(cl, q, t)),
                };
                exp.extend((0..slot).map(|x| match from {
                    Some(s) if x < size => data[s][x],
                    _ => guard_byte(x),
                }));
            }
        }
    }
    let ptx = cluster_kernel(id, form, section, c, o.seed);
    built(
        h,
        VT,
        false,
        threads as u64,
        ([2 * n, 1, 1], [b, 1, 1], n),
        (input, output),
        ptx,
        (inb, exp, mask_rows),
    )
}

fn le(b: &[u8]) -> u64 {
    let mut x = [0u8; 8];
    x[..b.len()].copy_from_slice(b);
    u64::from_le_bytes(x)
}

// ---------------------------------------------------------------------
// Reductions: element pairs.

/// Which pairs of a type a group takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PairSet {
    All,
    /// `.add.f32` without a subnormal input or result (where sm_90 and the
    /// spec agree).
    Normal,
    /// `.add.f32` with one.
    Subnormal,
}

fn bits_of(ty: BulkRedType) -> u32 {
    8 * red::element_bytes(ty) as u32
}

/// `(exponent bits, stored significand bits)` of a float type.
fn float_format(ty: BulkRedType) -> Option<(u32, u32)> {
    match ty {
        BulkRedType::F16 => Some((5, 10)),
        BulkRedType::Bf16 => Some((8, 7)),
        BulkRedType::F32 => Some((8, 23)),
        BulkRedType::F64 => Some((11, 52)),
        _ => None,
    }
}

/// Edge values of a type: integer bounds and their neighbours, small
/// values (the wrap of `.inc`/`.dec`), sign bits; for floats both zeros,
/// subnormals, the smallest normals, values near one (a tie of the
/// addition among them), the largest finite, infinities and NaNs (quiet,
/// signalling, both signs).
fn edges(ty: BulkRedType) -> Vec<u64> {
    let bits = bits_of(ty);
    let m = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    match float_format(ty) {
        None => {
            let h = 1u64 << (bits - 1);
            let mut v = vec![
                0,
                1,
                2,
                3,
                5,
                100,
                h - 2,
                h - 1,
                h,
                h + 1,
                m - 2,
                m - 1,
                m,
                0x1234_5678_9abc_def0 & m,
                0xdead_beef_cafe_f00d & m,
            ];
            if bits == 64 {
                v.extend([0xffff_ffff, 0x1_0000_0000]);
            }
            v
        }
        Some((e, s)) => {
            let bias = (1u64 << (e - 1)) - 1;
            let one = bias << s;
            let inf = ((1u64 << e) - 1) << s;
            let sign = 1u64 << (e + s);
            let mut v = Vec::new();
            for neg in [0, sign] {
                v.extend(
                    [
                        0,
                        1,
                        1 << (s - 1),
                        (1 << s) - 1,
                        1 << s,
                        (1 << s) + 1,
                        3 << (s - 1),
                        one,
                        one + 1,
                        one + (1 << (s - 1)),
                        (bias - u64::from(s) - 1) << s,
                        (bias + 1) << s,
                        inf - 1,
                        inf,
                    ]
                    .map(|x| x | neg),
                );
            }
            v.extend([
                inf | 1 << (s - 1),
                inf | 1 << (s - 1) | 5,
                inf | 1,
                sign | inf | 1 << (s - 1),
            ]);
            v
        }
    }
}

/// A seeded pair: random bits, or (for floats) two values of nearby
/// magnitude with random signs, so that additions cancel and round.
fn random_pair(ty: BulkRedType, rng: &mut SplitMix64) -> (u64, u64) {
    let bits = bits_of(ty);
    let m = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let a = rng.next_u64() & m;
    let b = rng.next_u64() & m;
    match float_format(ty) {
        Some((_, s)) if rng.next_u64() % 2 == 0 => {
            let sign = 1u64 << (bits - 1);
            let near = (a & !((1u64 << s) - 1) & !sign) | (b & ((1u64 << s) - 1)) | (b & sign);
            (a, near)
        }
        _ => (a, b),
    }
}

fn is_subnormal(ty: BulkRedType, x: u64) -> bool {
    match float_format(ty) {
        Some((e, s)) => (x >> s) & ((1 << e) - 1) == 0 && x & ((1 << s) - 1) != 0,
        None => false,
    }
}

/// Whether a pair has a subnormal input or result, or a result on which
/// the spec and sm_90 differ.
fn subnormal_pair(op: BulkRedOp, ty: BulkRedType, noftz: bool, (a, b): (u64, u64)) -> bool {
    let (r, m) = red::reduce_sm90(op, ty, noftz, a, b);
    let (s, ms) = red::reduce(op, ty, noftz, a, b);
    is_subnormal(ty, a)
        || is_subnormal(ty, b)
        || (m == 0 && is_subnormal(ty, r))
        || (r ^ s) & !(m | ms) != 0
}

/// Every pair of edge values, then seeded pairs; for `.add.f32`, only
/// those of `set`.
fn red_pairs(
    op: BulkRedOp,
    ty: BulkRedType,
    rng: &mut SplitMix64,
    set: PairSet,
) -> Vec<(u64, u64)> {
    let e = edges(ty);
    let mut pairs: Vec<(u64, u64)> = e
        .iter()
        .flat_map(|&a| e.iter().map(move |&b| (a, b)))
        .collect();
    for _ in 0..256 {
        pairs.push(random_pair(ty, rng));
    }
    if set == PairSet::Subnormal {
        // results that land among the subnormals
        let (_, s) = float_format(ty).expect("a float");
        for _ in 0..64 {
            let a = (1u64 << s) | (rng.next_u64() & ((1 << s) - 1));
            let b = (1u64 << 31) | (1u64 << s) | (rng.next_u64() & ((1 << s) - 1));
            pairs.push((a, b));
        }
    }
    match set {
        PairSet::All => pairs,
        PairSet::Normal => pairs
            .into_iter()
            .filter(|&p| !subnormal_pair(op, ty, false, p))
            .collect(),
        PairSet::Subnormal => pairs
            .into_iter()
            .filter(|&p| subnormal_pair(op, ty, false, p))
            .collect(),
    }
}

/// `.redOp`, `.type` and `.noftz` of a `cp.reduce.async.bulk` spelling.
fn red_of(text: &str) -> Red {
    let parts: Vec<&str> = text.split('.').collect();
    let ty = match *parts.last().unwrap() {
        "b32" => BulkRedType::B32,
        "b64" => BulkRedType::B64,
        "u32" => BulkRedType::U32,
        "s32" => BulkRedType::S32,
        "u64" => BulkRedType::U64,
        "s64" => BulkRedType::S64,
        "f32" => BulkRedType::F32,
        "f64" => BulkRedType::F64,
        "f16" => BulkRedType::F16,
        "bf16" => BulkRedType::Bf16,
        t => panic!("{text}: type {t}"),
    };
    let noftz = parts.contains(&"noftz");
    let op = match parts[parts.len() - if noftz { 3 } else { 2 }] {
        "and" => BulkRedOp::And,
        "or" => BulkRedOp::Or,
        "xor" => BulkRedOp::Xor,
        "add" => BulkRedOp::Add,
        "inc" => BulkRedOp::Inc,
        "dec" => BulkRedOp::Dec,
        "min" => BulkRedOp::Min,
        "max" => BulkRedOp::Max,
        o => panic!("{text}: redOp {o}"),
    };
    (op, ty, noftz)
}

#[derive(Serialize)]
struct ReduceCtx<'a> {
    #[serde(flatten)]
    module: Module<'a>,
    copy: &'a str,
    hint: bool,
    slot: u32,
    shared_bytes: u32,
    x4: &'static str,
}

fn reduce_layouts() -> (Layout, Layout) {
    let mut f = chunks("old", 0, RED_SLOT);
    f.extend(chunks("src", RED_SLOT, RED_SLOT));
    f.push(word("size", "u32", 2 * RED_SLOT, 4));
    (
        Layout {
            row: 2 * RED_SLOT + 16,
            fields: f,
        },
        Layout {
            row: RED_SLOT,
            fields: chunks("dst", 0, RED_SLOT),
        },
    )
}

fn reduce_kernel(id: &str, form: &str, text: &str, cases: u64, seed: u64) -> String {
    let (input, output) = reduce_layouts();
    let (_, block) = launch_1d(cases);
    let about = vec![
        format!("Row i of `in`: `old` ({RED_SLOT} bytes), `src` ({RED_SLOT} bytes), `size` (a u32)."),
        format!("Row i of `out`: held `old`; then the reduction of `size` bytes of `src` (in the thread's part of sh) into it, waited with wait_group 0."),
    ];
    let module = Head {
        id,
        form,
        section: "9.7.9.25.4.2",
        vt: VT,
        cases,
        rows: (input.row, output.row),
        seed,
        about,
        cluster: 1,
    }
    .module();
    render(
        "bulk_reduce.ptx",
        &ReduceCtx {
            module,
            copy: text,
            hint: text.contains(".L2::cache_hint"),
            slot: RED_SLOT,
            shared_bytes: RED_SLOT * block[0],
            x4: X4,
        },
    )
}

fn reduce_build(id: &str, text: &str, set: PairSet, o: &Options) -> Built {
    let mut rng = seeded(o, id);
    let (op, ty, noftz) = red_of(text);
    let e = red::element_bytes(ty);
    let slot = RED_SLOT as usize;
    let mut pairs = red_pairs(op, ty, &mut rng, set).into_iter().peekable();
    let (input, output) = reduce_layouts();
    let mut inb = Vec::new();
    let mut exp = Vec::new();
    let mut mask = Vec::new();
    let mut r = 0usize;
    while pairs.peek().is_some() || r < 16 {
        let size = 16 * (1 + r % 4);
        let mut old = data_bytes(r + 4, slot, &mut rng);
        let mut src = data_bytes(r + 4, slot, &mut rng);
        let mut row = old.clone();
        let mut m = vec![0u8; slot];
        for at in (0..size).step_by(e) {
            if let Some((a, b)) = pairs.next() {
                old[at..at + e].copy_from_slice(&a.to_le_bytes()[..e]);
                src[at..at + e].copy_from_slice(&b.to_le_bytes()[..e]);
            }
            let (v, free) = red::reduce(op, ty, noftz, le(&old[at..at + e]), le(&src[at..at + e]));
            row[at..at + e].copy_from_slice(&v.to_le_bytes()[..e]);
            m[at..at + e].copy_from_slice(&free.to_le_bytes()[..e]);
        }
        // bytes past `size` keep `old`
        row[size..].copy_from_slice(&old[size..]);
        inb.extend_from_slice(&old);
        inb.extend_from_slice(&src);
        push_le(&mut inb, size as u128, 4);
        inb.extend_from_slice(&[0; 12]);
        exp.extend_from_slice(&row);
        mask.extend_from_slice(&m);
        r += 1;
    }
    let cases = r as u64;
    let (grid, block) = launch_1d(cases);
    let ptx = reduce_kernel(id, text, text, cases, o.seed);
    built(
        (id, "cp.reduce.async.bulk", text, "9.7.9.25.4.2"),
        VT,
        set == PairSet::Subnormal,
        cases,
        (grid, block, 1),
        (input, output),
        ptx,
        (inb, exp, mask),
    )
}

// ---------------------------------------------------------------------
// st.async and st.bulk.

const ST_BLOCK: u32 = 32;

#[derive(Clone, Debug)]
struct StAsync {
    text: String,
    ty: String,
    vec: u32,
    generic: bool,
}

impl StAsync {
    fn of(text: &str) -> StAsync {
        let ty = text.rsplit('.').next().unwrap().to_string();
        let vec = if text.contains(".v4.") {
            4
        } else if text.contains(".v2.") {
            2
        } else {
            1
        };
        StAsync {
            text: text.to_string(),
            ty,
            vec,
            generic: !text.contains(".shared::cluster"),
        }
    }

    fn bytes(&self) -> u32 {
        self.vec * self.ty[1..].parse::<u32>().unwrap() / 8
    }
}

#[derive(Serialize)]
struct StAsyncCtx<'a> {
    #[serde(flatten)]
    module: Module<'a>,
    store: &'a str,
    generic: bool,
    ty: String,
    load: String,
    vals: String,
    bytes: u32,
    block: u32,
    guard: String,
    g4: &'static str,
    x4: &'static str,
}

fn st_async_layouts() -> (Layout, Layout) {
    (
        Layout::packed(&[("value", "b128", 16)]),
        Layout::packed(&[("slot", "b128", 16)]),
    )
}

fn st_async_kernel(id: &str, s: &StAsync, seed: u64) -> String {
    let (input, output) = st_async_layouts();
    let cases = u64::from(4 * ST_BLOCK);
    let about = vec![
        format!("Two clusters of 2 CTAs of {ST_BLOCK} threads. Thread t stores the first {} byte(s) of its row (`value`) into the", s.bytes()),
        "16-byte slot t of the other CTA, completing on that CTA's mbarrier t; row i of `out`: its own slot t after the".into(),
        format!("store it received (it held {GUARD:#010x} in each word before)."),
    ];
    let module = Head {
        id,
        form: &s.text,
        section: "9.7.9.12",
        vt: VT,
        cases,
        rows: (input.row, output.row),
        seed,
        about,
        cluster: 2,
    }
    .module();
    let regs: Vec<String> = (0..s.vec).map(|k| format!("%v{k}")).collect();
    let vals = if s.vec == 1 {
        regs[0].clone()
    } else {
        format!("{{{}}}", regs.join(", "))
    };
    let v = if s.vec == 1 {
        String::new()
    } else {
        format!(".v{}", s.vec)
    };
    render(
        "st_async.ptx",
        &StAsyncCtx {
            module,
            store: &s.text,
            generic: s.generic,
            ty: format!(".{}", s.ty),
            load: format!("ld.global{v}.{}", s.ty),
            vals,
            bytes: s.bytes(),
            block: ST_BLOCK,
            guard: format!("{GUARD:#010x}"),
            g4: G4,
            x4: X4,
        },
    )
}

fn st_async_build(id: &str, s: &StAsync, o: &Options) -> Built {
    let mut rng = seeded(o, id);
    let threads = (4 * ST_BLOCK) as usize;
    let values: Vec<Vec<u8>> = (0..threads).map(|i| data_bytes(i, 16, &mut rng)).collect();
    let n = s.bytes() as usize;
    let mut inb = Vec::new();
    let mut exp = Vec::new();
    for (i, v) in values.iter().enumerate() {
        inb.extend_from_slice(v);
        // the other CTA of the cluster: rank r ^ 1
        let peer = i ^ ST_BLOCK as usize;
        exp.extend((0..16).map(|k| {
            if k < n {
                values[peer][k]
            } else {
                guard_byte(k)
            }
        }));
    }
    let ptx = st_async_kernel(id, s, o.seed);
    built(
        (id, "st.async", &s.text, "9.7.9.12"),
        VT,
        false,
        threads as u64,
        ([4, 1, 1], [ST_BLOCK, 1, 1], 2),
        st_async_layouts(),
        ptx,
        (inb, exp, Vec::new()),
    )
}

const BULK_SLOT: u32 = 64;

#[derive(Serialize)]
struct StBulkCtx<'a> {
    #[serde(flatten)]
    module: Module<'a>,
    store: &'a str,
    generic: bool,
    slot: u32,
    shared_bytes: u32,
    guard: String,
    g4: &'static str,
    x4: &'static str,
}

fn st_bulk_build(id: &str, text: &str, o: &Options) -> Built {
    let cases = 64u64;
    let input = Layout::packed(&[("size", "u64", 8)]);
    let output = Layout {
        row: BULK_SLOT,
        fields: chunks("slot", 0, BULK_SLOT),
    };
    let (grid, block) = launch_1d(cases);
    let generic = !text.contains(".shared::cta");
    let module = Head {
        id,
        form: text,
        section: "9.7.9.13",
        vt: VT100,
        cases,
        rows: (input.row, output.row),
        seed: o.seed,
        about: vec![
            "Row i of `in`: `size` (a u64, a multiple of 8).".into(),
            format!("Row i of `out`: the thread's {BULK_SLOT}-byte shared slot, which held {GUARD:#010x} in each word, after st.bulk of `size` bytes of it{}.", if generic { " (through its generic address)" } else { "" }),
        ],
        cluster: 1,
    }
    .module();
    let ptx = render(
        "st_bulk.ptx",
        &StBulkCtx {
            module,
            store: text,
            generic,
            slot: BULK_SLOT,
            shared_bytes: BULK_SLOT * block[0],
            guard: format!("{GUARD:#010x}"),
            g4: G4,
            x4: X4,
        },
    );
    let mut inb = Vec::new();
    let mut exp = Vec::new();
    for r in 0..cases as usize {
        let size = 8 * (1 + r % 8);
        push_le(&mut inb, size as u128, 8);
        exp.extend((0..BULK_SLOT as usize).map(|k| if k < size { 0 } else { guard_byte(k) }));
    }
    built(
        (id, "st.bulk", text, "9.7.9.13"),
        VT100,
        false,
        cases,
        (grid, block, 1),
        (input, output),
        ptx,
        (inb, exp, Vec::new()),
    )
}

// ---------------------------------------------------------------------
// mbarrier scripts.

/// An operand: word k of the row, or a constant.
#[derive(Clone, Copy, Debug)]
enum V {
    P(usize),
    C(u32),
}

/// The instruction a step is written with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Init,
    Inval,
    Arrive,
    ArriveNc,
    Drop,
    DropNc,
    ArriveTx,
    DropTx,
    ExpectTx,
    CompleteTx,
    TestWait,
    TestWaitParity,
    TryWait,
    TryWaitParity,
    Pending,
    CpArrive,
}

impl Role {
    /// The default spelling: `.shared::cta`, no semantics or scope.
    fn default_spelling(self) -> &'static str {
        match self {
            Role::Init => "mbarrier.init.shared::cta.b64",
            Role::Inval => "mbarrier.inval.shared::cta.b64",
            Role::Arrive => "mbarrier.arrive.shared::cta.b64",
            Role::ArriveNc => "mbarrier.arrive.noComplete.shared::cta.b64",
            Role::Drop => "mbarrier.arrive_drop.shared::cta.b64",
            Role::DropNc => "mbarrier.arrive_drop.noComplete.shared::cta.b64",
            Role::ArriveTx => "mbarrier.arrive.expect_tx.shared::cta.b64",
            Role::DropTx => "mbarrier.arrive_drop.expect_tx.shared::cta.b64",
            Role::ExpectTx => "mbarrier.expect_tx.relaxed.cta.shared::cta.b64",
            Role::CompleteTx => "mbarrier.complete_tx.relaxed.cta.shared::cta.b64",
            Role::TestWait => "mbarrier.test_wait.shared::cta.b64",
            Role::TestWaitParity => "mbarrier.test_wait.parity.shared::cta.b64",
            Role::TryWait => "mbarrier.try_wait.shared::cta.b64",
            Role::TryWaitParity => "mbarrier.try_wait.parity.shared::cta.b64",
            Role::Pending => "mbarrier.pending_count.b64",
            Role::CpArrive => "cp.async.mbarrier.arrive.shared::cta.b64",
        }
    }

    fn section(self) -> &'static str {
        match self {
            Role::Init => "9.7.13.15.9",
            Role::Inval => "9.7.13.15.10",
            Role::ExpectTx => "9.7.13.15.11",
            Role::CompleteTx => "9.7.13.15.12",
            Role::Arrive | Role::ArriveNc | Role::ArriveTx => "9.7.13.15.13",
            Role::Drop | Role::DropNc | Role::DropTx => "9.7.13.15.14",
            Role::CpArrive => "9.7.13.15.15",
            Role::TestWait | Role::TestWaitParity | Role::TryWait | Role::TryWaitParity => {
                "9.7.13.15.16"
            }
            Role::Pending => "9.7.13.15.17",
        }
    }
}

/// What a wait names.
#[derive(Clone, Copy, Debug)]
enum On {
    State(usize),
    Parity(u32),
}

#[derive(Clone, Copy, Debug)]
enum Step {
    Init(V),
    Inval,
    /// An arrive form (`role`) with its count or tx operand, its state
    /// into register `state`.
    Arrive(Role, Option<V>, usize),
    ExpectTx(V),
    CompleteTx(V),
    /// A wait (`TestWait`... `TryWaitParity`); sets the next bit.
    Wait(Role, On),
    /// `pending_count` of a state, into the next count word.
    Pending(usize),
    /// `cp.async` of 16 bytes of the row into the slot.
    Cp,
    /// `cp.async.mbarrier.arrive{.noinc}`.
    CpArrive,
    /// A `try_wait.parity` loop until the phase of this parity completes.
    Spin(u32),
}

/// A script: its steps, the row words it reads, and how rows are drawn.
struct Script {
    name: &'static str,
    about: &'static str,
    steps: Vec<Step>,
    params: usize,
    rows: fn(&mut SplitMix64) -> Vec<u32>,
    slot: bool,
}

fn pick(rng: &mut SplitMix64, lo: u32, hi: u32) -> u32 {
    lo + (rng.next_u64() % u64::from(hi - lo + 1)) as u32
}

/// Phases with two arrivals each: waits on states and parities, then
/// `inval` and a second `init`. `try_` writes the waits as `try_wait`.
fn script_phases(try_: bool) -> Script {
    use Step::*;
    let (w, wp) = if try_ {
        (Role::TryWait, Role::TryWaitParity)
    } else {
        (Role::TestWait, Role::TestWaitParity)
    };
    let a = |v: usize, s: usize| Arrive(Role::Arrive, Some(V::P(v)), s);
    Script {
        name: "phases",
        about: "init n; phases of two arrivals (counts a and n - a) and waits on each state and parity; inval; init n; one arrival of n",
        steps: vec![
            Init(V::P(0)),
            Wait(wp, On::Parity(0)),
            Wait(wp, On::Parity(1)),
            a(1, 0),
            Wait(w, On::State(0)),
            a(2, 1),
            Wait(w, On::State(0)),
            Wait(w, On::State(1)),
            Wait(wp, On::Parity(0)),
            Wait(wp, On::Parity(1)),
            a(1, 2),
            Wait(w, On::State(2)),
            Wait(wp, On::Parity(1)),
            a(2, 3),
            Wait(w, On::State(3)),
            Wait(wp, On::Parity(1)),
            Wait(wp, On::Parity(0)),
            Inval,
            Init(V::P(0)),
            Wait(wp, On::Parity(0)),
            Wait(wp, On::Parity(1)),
            a(0, 4),
            Wait(w, On::State(4)),
            Wait(wp, On::Parity(0)),
        ],
        params: 3,
        rows: |rng| {
            let n = pick(rng, 2, 6);
            let a = pick(rng, 1, n - 1);
            vec![n, a, n - a]
        },
        slot: false,
    }
}

/// `.noComplete` arrivals and the pending counts their states give.
fn script_pending() -> Script {
    use Step::*;
    Script {
        name: "pending",
        about: "init n; arrive.noComplete c1 and c2 (pending counts n and n - c1); arrive c3 completes; arrive.noComplete c1 (pending count n); arrive n - c1 completes",
        steps: vec![
            Init(V::P(0)),
            Arrive(Role::ArriveNc, Some(V::P(1)), 0),
            Pending(0),
            Arrive(Role::ArriveNc, Some(V::P(2)), 1),
            Pending(1),
            Wait(Role::TestWait, On::State(0)),
            Arrive(Role::Arrive, Some(V::P(3)), 2),
            Wait(Role::TestWait, On::State(0)),
            Wait(Role::TestWait, On::State(2)),
            Arrive(Role::ArriveNc, Some(V::P(1)), 3),
            Pending(3),
            Wait(Role::TestWait, On::State(3)),
            Arrive(Role::Arrive, Some(V::P(4)), 4),
            Wait(Role::TestWait, On::State(3)),
            Wait(Role::TestWaitParity, On::Parity(1)),
        ],
        params: 5,
        rows: |rng| {
            let n = pick(rng, 3, 8);
            let c1 = pick(rng, 1, n - 2);
            let c2 = pick(rng, 1, n - 1 - c1);
            vec![n, c1, c2, n - c1 - c2, n - c1]
        },
        slot: false,
    }
}

/// `arrive_drop`: the expected count of the next phases drops.
fn script_drop(nc: bool) -> Script {
    use Step::*;
    let first = if nc {
        vec![Arrive(Role::DropNc, Some(V::P(1)), 0), Pending(0)]
    } else {
        vec![
            Arrive(Role::Drop, Some(V::P(1)), 0),
            Wait(Role::TestWait, On::State(0)),
        ]
    };
    let mut steps = vec![Init(V::P(0))];
    steps.extend(first);
    steps.extend([
        Arrive(Role::Arrive, Some(V::P(2)), 1),
        Wait(Role::TestWait, On::State(0)),
        Wait(Role::TestWaitParity, On::Parity(0)),
        if nc {
            Arrive(Role::ArriveNc, Some(V::C(1)), 2)
        } else {
            Arrive(Role::Drop, None, 2)
        },
        if nc {
            Pending(2)
        } else {
            Wait(Role::TestWait, On::State(2))
        },
        Wait(Role::TestWait, On::State(2)),
        Arrive(Role::Arrive, Some(V::P(3)), 3),
        Wait(Role::TestWait, On::State(2)),
        Wait(Role::TestWaitParity, On::Parity(1)),
    ]);
    Script {
        name: if nc { "drop-pending" } else { "drop" },
        about: if nc {
            "init n; arrive_drop.noComplete d (pending count n); arrive n - d completes; arrive.noComplete 1 (pending count n - d); arrive n - d - 1 completes"
        } else {
            "init n; arrive_drop d; arrive n - d completes; arrive_drop (1); arrive n - d - 1 completes"
        },
        steps,
        params: 4,
        rows: if nc {
            |rng| {
                let n = pick(rng, 3, 8);
                let d = pick(rng, 1, n - 2);
                vec![n, d, n - d, n - d - 1]
            }
        } else {
            |rng| {
                let n = pick(rng, 4, 8);
                let d = pick(rng, 1, n - 3);
                vec![n, d, n - d, n - d - 1]
            }
        },
        slot: false,
    }
}

/// Transaction counts: expect-tx and complete-tx in both orders, with
/// `arrive.expect_tx` and `arrive_drop.expect_tx`.
fn script_tx() -> Script {
    use Step::*;
    Script {
        name: "tx",
        about: "init 2; expect_tx tx1; arrive.expect_tx tx2; complete_tx tx1; arrive; complete_tx tx2 completes; arrive_drop.expect_tx tx1; complete_tx tx1; arrive completes; complete_tx tx2; expect_tx tx2; arrive completes",
        steps: vec![
            Init(V::C(2)),
            ExpectTx(V::P(0)),
            Arrive(Role::ArriveTx, Some(V::P(1)), 0),
            Wait(Role::TestWait, On::State(0)),
            CompleteTx(V::P(0)),
            Arrive(Role::Arrive, None, 1),
            Wait(Role::TestWait, On::State(0)),
            CompleteTx(V::P(1)),
            Wait(Role::TestWait, On::State(0)),
            Wait(Role::TestWaitParity, On::Parity(0)),
            Wait(Role::TestWaitParity, On::Parity(1)),
            Arrive(Role::DropTx, Some(V::P(0)), 2),
            Wait(Role::TestWait, On::State(2)),
            CompleteTx(V::P(0)),
            Wait(Role::TestWait, On::State(2)),
            Arrive(Role::Arrive, None, 3),
            Wait(Role::TestWait, On::State(2)),
            CompleteTx(V::P(1)),
            Wait(Role::TestWaitParity, On::Parity(0)),
            ExpectTx(V::P(1)),
            Wait(Role::TestWaitParity, On::Parity(0)),
            Arrive(Role::Arrive, None, 4),
            Wait(Role::TestWaitParity, On::Parity(0)),
            Wait(Role::TestWait, On::State(4)),
        ],
        params: 2,
        rows: |rng| {
            let edge = [1, 16, 4096, 65536, (1 << 19) - 1];
            let mut tx = || {
                if rng.next_u64() % 4 == 0 {
                    edge[(rng.next_u64() % 5) as usize]
                } else {
                    pick(rng, 1, 8192)
                }
            };
            vec![tx(), tx()]
        },
        slot: false,
    }
}

/// `cp.async.mbarrier.arrive{.noinc}` after a `cp.async` of 16 bytes.
fn script_cp(noinc: bool) -> Script {
    use Step::*;
    Script {
        name: "copy",
        about: if noinc {
            "init 2; cp.async of 16 bytes; cp.async.mbarrier.arrive.noinc; test_wait.parity 0; arrive; try_wait.parity loop; test_wait; the slot"
        } else {
            "init 1; cp.async of 16 bytes; cp.async.mbarrier.arrive; test_wait.parity 0; arrive; try_wait.parity loop; test_wait; the slot"
        },
        steps: vec![
            Init(V::C(if noinc { 2 } else { 1 })),
            Cp,
            CpArrive,
            Wait(Role::TestWaitParity, On::Parity(0)),
            Arrive(Role::Arrive, None, 0),
            Spin(0),
            Wait(Role::TestWait, On::State(0)),
            Wait(Role::TestWaitParity, On::Parity(0)),
        ],
        params: 1,
        rows: |_| vec![0],
        slot: true,
    }
}

/// The model's outputs of a script for one row: the wait bits and the
/// pending counts.
fn must<T>(row: &[u32], r: Result<T, ptx_semantics::mbarrier::Undefined>) -> T {
    r.unwrap_or_else(|u| panic!("an mbarrier script is undefined for {row:?}: {u}"))
}

fn run_script(steps: &[Step], spell: &dyn Fn(Role) -> String, row: &[u32]) -> (u32, Vec<u32>) {
    let val = |v: V| match v {
        V::P(k) => row[k],
        V::C(c) => c,
    };
    let rule = WaitRule::Enforced;
    let mut slot = Slot::default();
    let mut states: Vec<Option<State>> = vec![None; 8];
    let (mut bits, mut nbit, mut counts, mut deferred) = (0u32, 0, Vec::new(), 0);
    for &s in steps {
        match s {
            Step::Init(v) => {
                must(row, slot.apply_with(MOp::Init { count: val(v) }, rule));
            }
            Step::Inval => {
                must(row, slot.apply_with(MOp::Inval, rule));
            }
            Step::Arrive(role, v, k) => {
                let count = v.map(val).unwrap_or(1);
                let op = match role {
                    Role::Arrive => MOp::Arrive {
                        count,
                        no_complete: false,
                    },
                    Role::ArriveNc => MOp::Arrive {
                        count,
                        no_complete: true,
                    },
                    Role::Drop => MOp::ArriveDrop {
                        count,
                        no_complete: false,
                    },
                    Role::DropNc => MOp::ArriveDrop {
                        count,
                        no_complete: true,
                    },
                    Role::ArriveTx => MOp::ArriveExpectTx { tx: count },
                    Role::DropTx => MOp::ArriveDropExpectTx { tx: count },
                    r => panic!("{r:?} is no arrive"),
                };
                states[k] = must(row, slot.apply_with(op, rule)).token;
            }
            Step::ExpectTx(v) => {
                must(row, slot.apply_with(MOp::ExpectTx { tx: val(v) }, rule));
            }
            Step::CompleteTx(v) => {
                must(row, slot.apply_with(MOp::CompleteTx { tx: val(v) }, rule));
            }
            Step::Wait(_, on) => {
                let m = must(row, slot.mbarrier_mut());
                let done = must(
                    row,
                    match on {
                        On::State(k) => m.test_wait(states[k].expect("a state")),
                        On::Parity(p) => m.test_wait_parity(p),
                    },
                );
                if done {
                    m.note_wait_true();
                    bits |= 1 << nbit;
                }
                nbit += 1;
            }
            Step::Pending(k) => counts.push(must(row, states[k].expect("a state").pending_count())),
            Step::Cp => {}
            Step::CpArrive => {
                if !spell(Role::CpArrive).contains(".noinc") {
                    must(row, slot.apply_with(MOp::IncPending, rule));
                }
                deferred += 1;
            }
            Step::Spin(p) => {
                // the copies complete and their arrive-on happens while
                // the thread spins
                for _ in 0..std::mem::take(&mut deferred) {
                    must(row, slot.apply_with(MOp::AsyncArrive, rule));
                }
                let m = must(row, slot.mbarrier_mut());
                assert!(must(row, m.test_wait_parity(p)), "a spin that never ends");
                m.note_wait_true();
            }
        }
    }
    (bits, counts)
}

#[derive(Serialize)]
struct StepCtx {
    kind: &'static str,
    op: String,
    addr: &'static str,
    val: String,
    state: usize,
    bit: u32,
    out: u32,
}

#[derive(Serialize)]
struct MbarCtx<'a> {
    #[serde(flatten)]
    module: Module<'a>,
    steps: Vec<StepCtx>,
    params: usize,
    states: usize,
    block: u32,
    slot: bool,
    data_at: u32,
    zero4: &'static str,
    w4: &'static str,
}

const MBAR_BLOCK: u32 = 32;
const MBAR_ROWS: u64 = 64;
/// Where the data of the `cp.async` scripts starts in a row (the operands
/// come first, 8 words at most).
const MBAR_DATA: u32 = 32;

fn mbar_layouts(s: &Script) -> (Layout, Layout) {
    let mut inf: Vec<Field> = (0..s.params)
        .map(|k| word(&format!("p{k}"), "u32", 4 * k as u32, 4))
        .collect();
    if s.slot {
        inf.push(word("data", "b128", MBAR_DATA, 16));
    }
    let mut out = vec![word("waits", "b32", 0, 4)];
    for k in 0..3 {
        out.push(word(&format!("pending{k}"), "u32", 4 + 4 * k, 4));
    }
    if s.slot {
        out.push(word("slot", "b128", 16, 16));
    }
    let row = if s.slot { 32 } else { 16 };
    (
        Layout {
            row: MBAR_DATA + if s.slot { 16 } else { 0 },
            fields: inf,
        },
        Layout { row, fields: out },
    )
}

fn mbar_kernel(
    id: &str,
    form: &str,
    section: &str,
    s: &Script,
    spell: &dyn Fn(Role) -> String,
    seed: u64,
) -> String {
    let (input, output) = mbar_layouts(s);
    let addr = |op: &str| {
        if op.contains(".shared") {
            "%bar"
        } else {
            "%gbar"
        }
    };
    let val = |v: V| match v {
        V::P(k) => format!("%v{k}"),
        V::C(c) => c.to_string(),
    };
    let (mut bit, mut out) = (0, 4);
    let steps = s
        .steps
        .iter()
        .map(|&st| {
            let mut c = StepCtx {
                kind: "",
                op: String::new(),
                addr: "%bar",
                val: String::new(),
                state: 0,
                bit: 0,
                out: 0,
            };
            let op = |r: Role, c: &mut StepCtx| {
                c.op = spell(r);
                c.addr = addr(&c.op);
            };
            match st {
                Step::Init(v) => {
                    c.kind = "init";
                    op(Role::Init, &mut c);
                    c.val = val(v);
                }
                Step::Inval => {
                    c.kind = "inval";
                    op(Role::Inval, &mut c);
                }
                Step::Arrive(r, v, k) => {
                    c.kind = "arrive";
                    op(r, &mut c);
                    c.val = v.map(val).unwrap_or_default();
                    c.state = k;
                }
                Step::ExpectTx(v) | Step::CompleteTx(v) => {
                    c.kind = "tx";
                    op(
                        if matches!(st, Step::ExpectTx(_)) {
                            Role::ExpectTx
                        } else {
                            Role::CompleteTx
                        },
                        &mut c,
                    );
                    c.val = val(v);
                }
                Step::Wait(r, on) => {
                    c.kind = "wait";
                    op(r, &mut c);
                    c.val = match on {
                        On::State(k) => format!("%s{k}"),
                        On::Parity(p) => p.to_string(),
                    };
                    c.bit = 1 << bit;
                    bit += 1;
                }
                Step::Pending(k) => {
                    c.kind = "pending";
                    op(Role::Pending, &mut c);
                    c.state = k;
                    c.out = out;
                    out += 4;
                }
                Step::Cp => c.kind = "cp",
                Step::CpArrive => {
                    c.kind = "cparrive";
                    op(Role::CpArrive, &mut c);
                }
                Step::Spin(p) => {
                    c.kind = "spin";
                    c.op = Role::TryWaitParity.default_spelling().into();
                    c.val = p.to_string();
                }
            }
            c
        })
        .collect();
    let module = Head {
        id,
        form,
        section,
        vt: VT,
        cases: MBAR_ROWS,
        rows: (input.row, output.row),
        seed,
        about: vec![
            format!("Thread i runs, on its own mbarrier: {}.", s.about),
            "Row i of `in`: the operands (p0...). Row i of `out`: `waits`, bit k set when the k-th wait of the script returned true;".into(),
            "then the pending counts it read (zero past them).".into(),
        ],
        cluster: 1,
    }
    .module();
    render(
        "mbarrier.ptx",
        &MbarCtx {
            module,
            steps,
            params: s.params,
            states: 8,
            block: MBAR_BLOCK,
            slot: s.slot,
            data_at: MBAR_DATA,
            zero4: "{%x, %x, %x, %x}",
            w4: "{%w0, %w1, %w2, %w3}",
        },
    )
}

fn mbar_build(
    id: &str,
    family: &str,
    form: &str,
    section: &str,
    s: &Script,
    spell: &dyn Fn(Role) -> String,
    o: &Options,
) -> Built {
    let mut rng = seeded(o, id);
    let (input, output) = mbar_layouts(s);
    let mut inb = Vec::new();
    let mut exp = Vec::new();
    for r in 0..MBAR_ROWS as usize {
        let row = (s.rows)(&mut rng);
        let start = inb.len();
        for &w in &row {
            push_le(&mut inb, u128::from(w), 4);
        }
        inb.resize(start + MBAR_DATA as usize, 0);
        let data = data_bytes(r, 16, &mut rng);
        if s.slot {
            inb.extend_from_slice(&data);
        }
        inb.resize(start + input.row as usize, 0);
        let (bits, counts) = run_script(&s.steps, spell, &row);
        push_le(&mut exp, u128::from(bits), 4);
        for k in 0..3 {
            push_le(&mut exp, u128::from(counts.get(k).copied().unwrap_or(0)), 4);
        }
        if s.slot {
            exp.extend_from_slice(&data);
        }
    }
    let ptx = mbar_kernel(id, form, section, s, spell, o.seed);
    built(
        (id, family, form, section),
        VT,
        false,
        MBAR_ROWS,
        (
            [(MBAR_ROWS / u64::from(MBAR_BLOCK)) as u32, 1, 1],
            [MBAR_BLOCK, 1, 1],
            1,
        ),
        (input, output),
        ptx,
        (inb, exp, Vec::new()),
    )
}

/// The mbarrier spellings under test, each with the role it plays and the
/// script that runs it. The mbarrier instructions are outside the
/// catalogue (9.7.9); these are the syntax lines of PTX ISA 9.7.13.15 with
/// each optional qualifier (semantics and scope together, each state
/// space and none) that sm_90 accepts.
fn mbarrier_spellings() -> Vec<(Role, String)> {
    const SPACES: [&str; 3] = ["", ".shared", ".shared::cta"];
    const RELEASE: [&str; 5] = [
        "",
        ".release.cta",
        ".release.cluster",
        ".relaxed.cta",
        ".relaxed.cluster",
    ];
    const ACQUIRE: [&str; 5] = [
        "",
        ".acquire.cta",
        ".acquire.cluster",
        ".relaxed.cta",
        ".relaxed.cluster",
    ];
    let mut out = Vec::new();
    let mut add = |role: Role, head: &str, sems: &[&str], spaces: &[&str]| {
        for sem in sems {
            for sp in spaces {
                out.push((role, format!("{head}{sem}{sp}.b64")));
            }
        }
    };
    add(Role::Init, "mbarrier.init", &[""], &SPACES);
    add(Role::Inval, "mbarrier.inval", &[""], &SPACES);
    add(Role::Arrive, "mbarrier.arrive", &RELEASE, &SPACES);
    add(
        Role::ArriveNc,
        "mbarrier.arrive.noComplete",
        &["", ".release.cta"],
        &SPACES,
    );
    add(Role::Drop, "mbarrier.arrive_drop", &RELEASE, &SPACES);
    add(
        Role::DropNc,
        "mbarrier.arrive_drop.noComplete",
        &["", ".release.cta"],
        &SPACES,
    );
    add(
        Role::ArriveTx,
        "mbarrier.arrive.expect_tx",
        &RELEASE,
        &SPACES,
    );
    add(
        Role::DropTx,
        "mbarrier.arrive_drop.expect_tx",
        &RELEASE,
        &SPACES,
    );
    let tx_spaces = ["", ".shared", ".shared::cta", ".shared::cluster"];
    let tx_sems = ["", ".relaxed.cta", ".relaxed.cluster"];
    add(Role::ExpectTx, "mbarrier.expect_tx", &tx_sems, &tx_spaces);
    add(
        Role::CompleteTx,
        "mbarrier.complete_tx",
        &tx_sems,
        &tx_spaces,
    );
    add(Role::TestWait, "mbarrier.test_wait", &ACQUIRE, &SPACES);
    add(
        Role::TestWaitParity,
        "mbarrier.test_wait.parity",
        &ACQUIRE,
        &SPACES,
    );
    add(Role::TryWait, "mbarrier.try_wait", &ACQUIRE, &SPACES);
    add(
        Role::TryWaitParity,
        "mbarrier.try_wait.parity",
        &ACQUIRE,
        &SPACES,
    );
    add(
        Role::CpArrive,
        "cp.async.mbarrier.arrive",
        &["", ".noinc"],
        &SPACES,
    );
    out.push((Role::Pending, "mbarrier.pending_count.b64".into()));
    out
}

fn script_for(role: Role, text: &str) -> Script {
    match role {
        Role::Init | Role::Inval | Role::Arrive | Role::TestWait | Role::TestWaitParity => {
            script_phases(false)
        }
        Role::TryWait | Role::TryWaitParity => script_phases(true),
        Role::ArriveNc | Role::Pending => script_pending(),
        Role::Drop => script_drop(false),
        Role::DropNc => script_drop(true),
        Role::ArriveTx | Role::DropTx | Role::ExpectTx | Role::CompleteTx => script_tx(),
        Role::CpArrive => script_cp(text.contains(".noinc")),
    }
}

fn mbarrier_plans() -> Vec<Plan> {
    mbarrier_spellings()
        .into_iter()
        .map(|(role, text)| {
            let s = script_for(role, &text);
            let id = format!("{text}/{}", s.name);
            let family = if role == Role::CpArrive {
                "cp.async.mbarrier.arrive"
            } else {
                "mbarrier"
            };
            let form = text.clone();
            Plan::new(id.clone(), form, move |o: &Options| {
                let s = script_for(role, &text);
                let t = text.clone();
                let spell = move |r: Role| {
                    if r == role {
                        t.clone()
                    } else {
                        r.default_spelling().to_string()
                    }
                };
                Some(mbar_build(
                    &id,
                    family,
                    &text,
                    role.section(),
                    &s,
                    &spell,
                    o,
                ))
            })
        })
        .collect()
}

// ---------------------------------------------------------------------
// The plans.

/// Every group of this module, in suite order.
pub fn plans() -> Vec<Plan> {
    let mut out = Vec::new();
    let cta = |out: &mut Vec<Plan>,
               id: String,
               family: &'static str,
               form: String,
               section: &'static str,
               c: CtaCopy| {
        let f = form.clone();
        out.push(Plan::new(id.clone(), form, move |o: &Options| {
            Some(cta_build((&id, family, &f, section), &c, o))
        }));
    };
    let mut copies: Vec<(String, (&'static str, &'static str))> = spelled("cp.async.bulk", VT)
        .into_iter()
        .map(|t| (t, VT))
        .collect();
    copies.extend(sm100_only("cp.async.bulk").into_iter().map(|t| (t, VT100)));
    for (text, vt) in copies {
        let hint = text.contains(".L2::cache_hint");
        let section = "9.7.9.25.4.1";
        let family = "cp.async.bulk";
        if text.starts_with("cp.async.bulk.shared::cta.global") {
            let c = CtaCopy {
                mode: CtaMode::G2Cta,
                copy: text.clone(),
                prefetch: String::new(),
                hint,
                cp_mask: false,
                vt,
            };
            cta(&mut out, format!("{text}/sizes"), family, text, section, c);
        } else if text.starts_with("cp.async.bulk.global.shared::cta") {
            let c = CtaCopy {
                mode: CtaMode::Cta2G,
                copy: text.clone(),
                prefetch: String::new(),
                hint,
                cp_mask: text.contains(".cp_mask"),
                vt,
            };
            cta(&mut out, format!("{text}/sizes"), family, text, section, c);
        } else {
            let mode = if text.contains(".multicast::cluster") {
                ClMode::Multicast
            } else if text.contains(".shared::cta") {
                ClMode::Cta2Cluster
            } else {
                ClMode::G2Cluster
            };
            for n in [2, 4] {
                let c = ClusterCopy {
                    mode,
                    copy: text.clone(),
                    hint,
                    n,
                    red: None,
                };
                let id = format!("{text}/cluster{n}");
                let f = text.clone();
                out.push(Plan::new(id.clone(), text.clone(), move |o: &Options| {
                    Some(cluster_build((&id, family, &f, section), &c, o))
                }));
            }
        }
    }
    for text in spelled("cp.async.bulk.prefetch", VT) {
        let c = CtaCopy {
            mode: CtaMode::Prefetch,
            copy: "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes".into(),
            prefetch: text.clone(),
            hint: text.contains(".L2::cache_hint"),
            cp_mask: false,
            vt: VT,
        };
        cta(
            &mut out,
            format!("{text}/then-copy"),
            "cp.async.bulk.prefetch",
            text,
            "9.7.9.25.4.3",
            c,
        );
    }
    let group_copy = "cp.async.bulk.global.shared::cta.bulk_group";
    for (form, mode, section) in [
        (
            "cp.async.bulk.commit_group",
            CtaMode::Groups,
            "9.7.9.25.6.1",
        ),
        ("cp.async.bulk.wait_group", CtaMode::Groups, "9.7.9.25.6.2"),
        (
            "cp.async.bulk.wait_group.read",
            CtaMode::Read,
            "9.7.9.25.6.2",
        ),
    ] {
        let c = CtaCopy {
            mode,
            copy: group_copy.into(),
            prefetch: String::new(),
            hint: false,
            cp_mask: false,
            vt: VT,
        };
        let family = if form.contains("commit") {
            "cp.async.bulk.commit_group"
        } else {
            "cp.async.bulk.wait_group"
        };
        cta(
            &mut out,
            format!(
                "{form}/{}",
                if mode == CtaMode::Read {
                    "reuse"
                } else {
                    "groups"
                }
            ),
            family,
            form.into(),
            section,
            c,
        );
    }
    for text in spelled("cp.reduce.async.bulk", VT) {
        let text = Arc::new(text);
        if text.contains(".shared::cluster") {
            let c = ClusterCopy {
                mode: ClMode::Reduce,
                copy: text.to_string(),
                hint: false,
                n: 2,
                red: Some(red_of(&text)),
            };
            let id = format!("{text}/cluster2");
            let f = text.to_string();
            out.push(Plan::new(
                id.clone(),
                text.to_string(),
                move |o: &Options| {
                    Some(cluster_build(
                        (&id, "cp.reduce.async.bulk", &f, "9.7.9.25.4.2"),
                        &c,
                        o,
                    ))
                },
            ));
            continue;
        }
        let (op, ty, _) = red_of(&text);
        let sets: &[(PairSet, &str)] = if (op, ty) == (BulkRedOp::Add, BulkRedType::F32) {
            &[(PairSet::Normal, "edge"), (PairSet::Subnormal, "subnormal")]
        } else {
            &[(PairSet::All, "edge")]
        };
        for &(set, name) in sets {
            let id = format!("{text}/{name}");
            let t = text.clone();
            out.push(Plan::new(
                id.clone(),
                text.to_string(),
                move |o: &Options| Some(reduce_build(&id, &t, set, o)),
            ));
        }
    }
    for text in spelled("st.async", VT) {
        let s = StAsync::of(&text);
        let id = format!("{text}/cluster2");
        out.push(Plan::new(id.clone(), text, move |o: &Options| {
            Some(st_async_build(&id, &s, o))
        }));
    }
    out.extend(st_bulk_plans());
    out.extend(mbarrier_plans());
    out
}

/// The `st.bulk` groups (every spelling sm_100 accepts).
pub fn st_bulk_plans() -> Vec<Plan> {
    spelled("st.bulk", VT100)
        .into_iter()
        .map(|text| {
            let id = format!("{text}/sizes");
            let t = text.clone();
            Plan::new(id.clone(), text, move |o: &Options| {
                Some(st_bulk_build(&id, &t, o))
            })
        })
        .collect()
}

/// Whether a group shows a documented departure of sm_90 from the spec
/// (its cases are expected to differ on sm_90 GPUs).
pub fn divergent(id: &str) -> bool {
    id.ends_with("/subnormal") && DIVERGENT.iter().any(|(p, _)| id.starts_with(p))
}

/// What sm_90 writes in a divergence group (see [`DIVERGENT`]): the rows
/// with [`red::reduce_sm90`] in place of [`red::reduce`] (`None` for the
/// other groups). The don't-care rows are the group's.
pub fn sm90_rows(b: &Built) -> Option<Vec<u8>> {
    let g = &b.group;
    let mut out = Vec::with_capacity(b.expected.len());
    for row in b.input.chunks(g.input.row as usize) {
        out.extend(sm90_row(g, row)?);
    }
    Some(out)
}

/// One output row of a divergence group as sm_90 writes it, from its input
/// row (`None` for the other groups).
pub fn sm90_row(g: &super::manifest::Group, row: &[u8]) -> Option<Vec<u8>> {
    if !divergent(&g.id) {
        return None;
    }
    let (op, ty, noftz) = red_of(&g.form);
    let e = red::element_bytes(ty);
    let slot = RED_SLOT as usize;
    if row.len() < 2 * slot + 4 {
        return None;
    }
    let (old, src) = (&row[..slot], &row[slot..2 * slot]);
    let size = (le(&row[2 * slot..2 * slot + 4]) as usize).min(slot);
    let mut r = old.to_vec();
    for at in (0..size).step_by(e) {
        let (v, _) = red::reduce_sm90(op, ty, noftz, le(&old[at..at + e]), le(&src[at..at + e]));
        r[at..at + e].copy_from_slice(&v.to_le_bytes()[..e]);
    }
    Some(r)
}
