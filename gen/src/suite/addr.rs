//! The generic-address groups: `isspacep` (PTX ISA 9.7.9.19), `cvta` both
//! ways (9.7.9.20), `mapa` (9.7.9.23) and `getctarank` (9.7.9.24), every
//! spelling of the catalogue that sm_90 accepts. Expected values come from
//! the window model (`ptx_semantics::sim::window`) with the sm_90 profile,
//! applied to the model's address of each variable: flags, offsets,
//! round-trip equalities, ranks and loaded values, never an address, so
//! that they hold wherever a GPU puts its windows.

use super::forms::{accepted, check, provenance, rows, VT};
use super::manifest::{Layout, Provenance};
use super::templates::{render, Common, Module};
use super::{generator, group_1d, push_le, Built, Options, Plan};
use crate::rng::SplitMix64;
use ptx_semantics::sim::window::{
    cvta_from_generic, cvta_to_generic, getctarank, isspacep, mapa, Place, WindowProfile,
};
use ptx_semantics::sim::Space;
use serde::Serialize;
use std::sync::Arc;

const P: WindowProfile = WindowProfile::SM90;
/// Bytes of each variable the kernels declare (`gv`, `sh`, `lv`, `cv`);
/// the kernel's parameters are 16.
const VAR_BYTES: u64 = 64;
const PARAM_BYTES: u64 = 16;

/// What a generic address names in the `isspacep` kernel, by the `kind`
/// field of its rows.
const KINDS: &[&str] = &[
    "the `in` buffer",
    "`.global` variable gv",
    "`.shared` variable sh",
    "`.local` variable lv",
    "`.const` variable cv",
    "kernel parameter `in`",
];

/// The window model's place of a thread of the 1-D kernels: rank 0 of a
/// cluster of one, with the kernels' 16 bytes of parameters and 64 bytes of
/// `.const` data.
const AT: Place = Place {
    rank: 0,
    cluster_size: 1,
    param_bytes: PARAM_BYTES,
    const_bytes: VAR_BYTES,
};

/// The model's state-space address of each variable, by space: where the
/// simulator puts it under the sm_90 profile (any address inside the
/// object gives the same flags; these are never outputs).
fn var_address(space: Space) -> u64 {
    match space {
        Space::Global => P.global_heap + 0x1000,
        Space::SharedCta | Space::SharedCluster => P.cta_part(AT.rank).0 + P.shared_reserved,
        Space::Local => P.local_size - 0x1000,
        _ => 0,
    }
}

/// The model's generic address of `kind` (see [`KINDS`]) plus `off`.
fn generic_of(kind: usize, off: u64) -> u64 {
    let g = |s: Space| cvta_to_generic(&P, s, var_address(s) + off, true, &AT).unwrap_or(0);
    match kind {
        0 => P.global_heap + off,
        1 => g(Space::Global),
        2 => g(Space::SharedCta),
        3 => g(Space::Local),
        4 => g(Space::Const),
        _ => P.param_base + off,
    }
}

fn seeded(o: &Options, id: &str) -> SplitMix64 {
    SplitMix64(
        id.bytes()
            .fold(o.seed, |h, b| crate::rng::mix(h ^ u64::from(b))),
    )
}

fn module<'a>(
    id: &'a str,
    form: &'a str,
    section: &'a str,
    cases: u64,
    rows: (u32, u32),
    seed: u64,
    about: Vec<String>,
) -> Module<'a> {
    Module {
        common: Common {
            id,
            form,
            section,
            version: VT.0,
            target: VT.1,
            entry: "k",
            cases,
            in_row: rows.0,
            out_row: rows.1,
            generator: generator(),
            seed,
        },
        about,
        decls: Vec::new(),
        directives: Vec::new(),
    }
}

/// The declarations of the variables, `cv` initialised from `rng`.
fn variables(rng: &mut SplitMix64) -> Vec<String> {
    let init: Vec<String> = (0..VAR_BYTES)
        .map(|_| format!("{:#04x}", rng.next_u64() as u8))
        .collect();
    vec![
        format!(".global .align 16 .b8 gv[{VAR_BYTES}];"),
        format!(
            ".const .align 16 .b8 cv[{VAR_BYTES}] = {{{}}};",
            init.join(", ")
        ),
    ]
}

/// A form's kernel for the checker (one case), or why it has none.
type Draft = fn(&str) -> Result<String, String>;

const DRAFTS: [(&str, Draft); 4] = [
    ("isspacep", |t| Ok(isspacep_kernel(t, t, 1, 0))),
    ("cvta", |t| cvta_kernel(t, t, 1, 0)),
    ("mapa", |t| cluster_kernel(t, t, 2, 0)),
    ("getctarank", |t| cluster_kernel(t, t, 2, 0)),
];

/// Every spelling of `instr`'s rows that sm_90 accepts, with the checker's
/// verdict on the kernel `kernel` writes for it (empty: legal).
fn spelled(instr: &str, kernel: Draft) -> Vec<(String, Vec<String>)> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for form in rows(instr) {
        for text in form.spellings(&|_, _| true) {
            if !seen.insert(text.clone()) || accepted(&text, VT).is_none() {
                continue;
            }
            let verdict = match kernel(&text) {
                Ok(ptx) => check(&ptx),
                Err(why) => vec![why],
            };
            out.push((text, verdict));
        }
    }
    out
}

/// The address forms sm_90 accepts that have no group, with the reason.
pub fn skipped() -> Vec<(String, String)> {
    DRAFTS
        .iter()
        .flat_map(|(instr, k)| spelled(instr, *k))
        .filter(|(_, v)| !v.is_empty())
        .map(|(t, v)| (t, v.join("; ")))
        .collect()
}

/// The groups: `isspacep.S/objects`, `cvta{.to}.S.u64/offsets`,
/// `mapa.../clusterN` and `getctarank.../clusterN` (N = 2, 4).
pub fn plans() -> Vec<Plan> {
    let mut out = Vec::new();
    let legal = |instr: &str| {
        let (_, draft) = DRAFTS.iter().find(|(i, _)| *i == instr).expect("a family");
        spelled(instr, *draft)
            .into_iter()
            .filter(|(_, verdict)| verdict.is_empty())
            .map(|(text, _)| text)
    };
    for text in legal("isspacep") {
        let id = format!("{text}/objects");
        out.push(Plan::new(id.clone(), text.clone(), move |o: &Options| {
            Some(isspacep_group(&text, &id, o))
        }));
    }
    for text in legal("cvta") {
        let id = format!("{text}/offsets");
        out.push(Plan::new(id.clone(), text.clone(), move |o: &Options| {
            cvta_group(&text, &id, o)
        }));
    }
    for instr in ["mapa", "getctarank"] {
        for text in legal(instr) {
            let text = Arc::new(text);
            for n in [2, 4] {
                let id = format!("{text}/cluster{n}");
                let text = text.clone();
                out.push(Plan::new(
                    id.clone(),
                    text.to_string(),
                    move |o: &Options| cluster_group(&text, &id, n, o),
                ));
            }
        }
    }
    out
}

// ---- isspacep ----

#[derive(Serialize)]
struct IsspacepCtx<'a> {
    #[serde(flatten)]
    module: Module<'a>,
}

fn isspacep_kernel(form: &str, id: &str, cases: u64, seed: u64) -> String {
    let mut m = module(
        id,
        form,
        "9.7.9.19",
        cases,
        (8, 4),
        seed,
        vec![
            "Row i of `in`: `kind` and `offset`: the generic address is that of".into(),
            format!(
                "{} (kind 0 to {}) plus `offset`; of `out`: the predicate (0 or 1).",
                KINDS.join(", "),
                KINDS.len() - 1
            ),
        ],
    );
    m.decls = variables(&mut SplitMix64(seed));
    render("isspacep.ptx", &IsspacepCtx { module: m })
}

/// Every kind of generic address at offsets inside its object.
fn isspacep_group(form: &str, id: &str, o: &Options) -> Built {
    let space = Space::from_qualifier(&form["isspacep".len()..]).expect("a space");
    let mut inb = Vec::new();
    let mut exp = Vec::new();
    let mut cases = 0u64;
    for kind in 0..KINDS.len() {
        let size = if kind == 5 { PARAM_BYTES } else { VAR_BYTES };
        for off in [0, 1, 3, 4, 7, 8, 12, 15, 16, 31, 32, 48, 63] {
            if off >= size {
                continue;
            }
            push_le(&mut inb, kind as u128, 4);
            push_le(&mut inb, u128::from(off), 4);
            let p = isspacep(&P, space, generic_of(kind, off), &AT);
            push_le(&mut exp, u128::from(p), 4);
            cases += 1;
        }
    }
    let input = Layout::packed(&[("kind", "u32", 4), ("offset", "u32", 4)]);
    let output = Layout::packed(&[("p", "u32", 4)]);
    let (provenance, note) = provenance(form);
    let ptx = isspacep_kernel(form, id, cases, o.seed);
    Built {
        group: group_1d(
            id.into(),
            "isspacep",
            form,
            "9.7.9.19",
            VT,
            provenance,
            note,
            cases,
            input,
            output,
        ),
        ptx,
        input: inb,
        expected: exp,
        mask: Vec::new(),
    }
}

// ---- cvta ----

#[derive(Serialize)]
struct CvtaCtx<'a> {
    #[serde(flatten)]
    module: Module<'a>,
    /// `cvta.to.S` (true) or `cvta.S` (false) is under test.
    to: bool,
    /// The space qualifier (`.shared::cta`), the variable, whether the
    /// kernel may store there, and whether its addresses fit 32 bits.
    space: String,
    var: &'static str,
    writable: bool,
    narrow: bool,
}

/// The variable a space's `cvta` group converts the addresses of.
fn cvta_var(space: Space) -> &'static str {
    match space {
        Space::Global => "gv",
        Space::SharedCta | Space::SharedCluster => "sh",
        Space::Local => "lv",
        Space::Const => "cv",
        _ => "in",
    }
}

/// `cvta.S.u64` or `cvta.to.S.u64`: the space and the direction (`None`:
/// a 32-bit form).
fn cvta_parts(form: &str) -> Option<(bool, String, Space)> {
    let rest = form.strip_prefix("cvta")?;
    let (to, rest) = match rest.strip_prefix(".to") {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let qual = rest.strip_suffix(".u64")?;
    Some((to, qual.to_string(), Space::from_qualifier(qual)?))
}

fn cvta_kernel(form: &str, id: &str, cases: u64, seed: u64) -> Result<String, String> {
    let (to, qual, space) = cvta_parts(form).ok_or(
        "`.size` is `.u32`: under `.address_size 64` a generic address is 64 bits wide, and the catalogue makes `.u32` illegal there",
    )?;
    let size = if space == Space::ParamEntry {
        PARAM_BYTES
    } else {
        VAR_BYTES
    };
    let narrow = matches!(
        space,
        Space::SharedCta | Space::SharedCluster | Space::Local | Space::Const
    );
    let (input, output) = cvta_layouts(narrow);
    let mut about = vec![
        format!(
            "Row i of `in`: an offset into {} ({size} bytes); of `out`: the offset the",
            cvta_var(space)
        ),
        "converted address lies at, isspacep of the generic address, whether converting back"
            .into(),
        "gives the address again, whether the two addresses read the same word".into(),
    ];
    if narrow {
        about.push("and whether the space address survives a trip through 32 bits.".into());
    }
    let mut m = module(
        id,
        form,
        "9.7.9.20",
        cases,
        (input.row, output.row),
        seed,
        about,
    );
    m.decls = variables(&mut SplitMix64(seed));
    Ok(render(
        "cvta.ptx",
        &CvtaCtx {
            module: m,
            to,
            space: qual,
            var: cvta_var(space),
            writable: matches!(
                space,
                Space::Global | Space::SharedCta | Space::SharedCluster | Space::Local
            ),
            narrow,
        },
    ))
}

fn cvta_layouts(narrow: bool) -> (Layout, Layout) {
    let mut out = vec![
        ("offset", "u32", 4),
        ("inside", "u32", 4),
        ("back", "u32", 4),
        ("same_word", "u32", 4),
    ];
    if narrow {
        out.push(("narrow", "u32", 4));
    }
    (
        Layout::packed(&[("offset", "u32", 4)]),
        Layout::packed(&out),
    )
}

/// Offsets of every word of the variable, 64 rows.
fn cvta_group(form: &str, id: &str, o: &Options) -> Option<Built> {
    let (to, _, space) = cvta_parts(form)?;
    let size = if space == Space::ParamEntry {
        PARAM_BYTES
    } else {
        VAR_BYTES
    };
    let narrow = matches!(
        space,
        Space::SharedCta | Space::SharedCluster | Space::Local | Space::Const
    );
    let (input, output) = cvta_layouts(narrow);
    let a0 = var_address(space);
    let g0 = cvta_to_generic(&P, space, a0, true, &AT).ok()?;
    let mut inb = Vec::new();
    let mut exp = Vec::new();
    let cases = 64u64;
    for r in 0..cases {
        let off = 4 * (r % (size / 4));
        push_le(&mut inb, u128::from(off), 4);
        let a = a0 + off;
        // the converted address, and the generic address it stands for
        let (converted, generic, space_addr) = if to {
            let g = g0 + off;
            let b = cvta_from_generic(&P, space, g, true, &AT).ok()?;
            (b, g, b)
        } else {
            let g = cvta_to_generic(&P, space, a, true, &AT).ok()?;
            (g, g, a)
        };
        let offset = if to { converted - a0 } else { converted - g0 };
        let inside = isspacep(&P, space, generic, &AT);
        let back = if to {
            cvta_to_generic(&P, space, converted, true, &AT) == Ok(generic)
        } else {
            cvta_from_generic(&P, space, converted, true, &AT) == Ok(a)
        };
        // the two addresses name one location when each converts to the
        // other
        let same = cvta_from_generic(&P, space, generic, true, &AT) == Ok(space_addr);
        for v in [offset, u64::from(inside), u64::from(back), u64::from(same)] {
            push_le(&mut exp, u128::from(v), 4);
        }
        if narrow {
            let s = cvta_from_generic(&P, space, generic, true, &AT).ok()?;
            let ok = cvta_to_generic(&P, space, s & 0xffff_ffff, true, &AT) == Ok(generic);
            push_le(&mut exp, u128::from(ok), 4);
        }
    }
    let (provenance, note) = if space == Space::ParamEntry {
        // the GPUs ran these on a parameter's name only
        (
            Provenance::Spec,
            "the GPUs ran this form on a parameter's name (corpus/simulator/kernels/addr.ptx); here it converts a register holding a parameter's address, read back with ld.param through a register".to_string(),
        )
    } else {
        provenance(form)
    };
    Some(Built {
        group: group_1d(
            id.into(),
            "cvta",
            form,
            "9.7.9.20",
            VT,
            provenance,
            note,
            cases,
            input,
            output,
        ),
        ptx: cvta_kernel(form, id, cases, o.seed).ok()?,
        input: inb,
        expected: exp,
        mask: Vec::new(),
    })
}

// ---- mapa and getctarank ----

/// Threads per CTA of the cluster kernels.
const CLUSTER_BLOCK: u32 = 32;

/// The three ways to name a shared address: a 32-bit or 64-bit
/// `.shared::cluster` address, or a generic one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
enum Naming {
    Cluster32,
    Cluster64,
    Generic,
}

/// The naming of a `mapa`/`getctarank` spelling (`None`: a 32-bit generic
/// address, which no shared location has under `.address_size 64`).
fn naming(form: &str) -> Option<Naming> {
    match (form.contains(".shared::cluster"), form.ends_with(".u64")) {
        (true, false) => Some(Naming::Cluster32),
        (true, true) => Some(Naming::Cluster64),
        (false, true) => Some(Naming::Generic),
        (false, false) => None,
    }
}

#[derive(Serialize)]
struct ClusterCtx<'a> {
    #[serde(flatten)]
    module: Module<'a>,
    naming: Naming,
    mapa: String,
    getctarank: String,
}

fn cluster_layouts(naming: Naming) -> (Layout, Layout) {
    let mut out = vec![
        ("loaded", "u32", 4),
        ("rank", "u32", 4),
        ("received", "u32", 4),
        ("own_rank", "u32", 4),
    ];
    if naming != Naming::Generic {
        out.push(("var_form", "u32", 4));
    }
    (
        Layout::packed(&[
            ("value", "b32", 4),
            ("target", "u32", 4),
            ("store_to", "u32", 4),
        ]),
        Layout::packed(&out),
    )
}

fn cluster_kernel(form: &str, id: &str, n: u32, seed: u64) -> Result<String, String> {
    let naming = naming(form).ok_or(
        "a 32-bit generic address: under `.address_size 64` no generic address of shared memory fits 32 bits",
    )?;
    let suffix = match naming {
        Naming::Cluster32 => ".shared::cluster.u32",
        Naming::Cluster64 => ".shared::cluster.u64",
        Naming::Generic => ".u64",
    };
    let (input, output) = cluster_layouts(naming);
    let cases = u64::from(2 * n * CLUSTER_BLOCK);
    let mut about = vec![
        format!("Two clusters of {n} CTAs of {CLUSTER_BLOCK} threads. Thread t of CTA rank R stores `value` in its"),
        "word of sh; after a cluster barrier it maps that word into CTA rank `target`, loads".into(),
        "it (`loaded`) and asks its rank (`rank`), and stores `value` through the mapping of its".into(),
        "word of sh2 into rank `store_to`; after another barrier it reads its own word of sh2".into(),
        "(`received`). `own_rank` is getctarank of its own word.".into(),
    ];
    if naming != Naming::Generic {
        about.push(
            "`var_form`: mapa of the variable sh equals mapa of its address in a register.".into(),
        );
    }
    let mut m = module(
        id,
        form,
        if form.starts_with("mapa") {
            "9.7.9.23"
        } else {
            "9.7.9.24"
        },
        cases,
        (input.row, output.row),
        seed,
        about,
    );
    m.directives = vec![
        ".explicitcluster".into(),
        format!(".reqnctapercluster {n}, 1, 1"),
    ];
    Ok(render(
        "cluster.ptx",
        &ClusterCtx {
            module: m,
            naming,
            mapa: format!("mapa{suffix}"),
            getctarank: format!("getctarank{suffix}"),
        },
    ))
}

fn cluster_group(form: &str, id: &str, n: u32, o: &Options) -> Option<Built> {
    let naming = naming(form)?;
    let generic = naming == Naming::Generic;
    let wide = naming != Naming::Cluster32;
    let mut rng = seeded(o, id);
    let (input, output) = cluster_layouts(naming);
    let ctas = 2 * n;
    let threads = ctas * CLUSTER_BLOCK;
    let place = |rank: u32| Place {
        rank,
        cluster_size: n,
        param_bytes: PARAM_BYTES,
        const_bytes: 0,
    };
    // the model's address of word t of sh (or sh2, `second`) in CTA rank r
    let word = |r: u32, t: u32, second: bool| {
        let s =
            P.cta_part(r).0 + P.shared_reserved + 4 * u64::from(t) + if second { 128 } else { 0 };
        if generic {
            P.shared_base + s
        } else {
            s
        }
    };
    // which (rank, thread) a mapped address names, as the model says
    let named = |m: u64, at: &Place| -> Option<(u32, u32)> {
        let rank = getctarank(&P, generic, m, at).ok()?;
        let s = if generic { m - P.shared_base } else { m };
        let within = s - P.cta_part(rank).0 - P.shared_reserved;
        Some((rank, (within / 4) as u32))
    };
    // rows: value, target rank (threads 0 to N-1 of each CTA map into every
    // rank, the others into random ones), rank to store into (for each
    // thread index a rotation of the ranks, so that every word of sh2 gets
    // one store)
    let mut rows: Vec<[u32; 3]> = Vec::new();
    let shift: Vec<u32> = (0..CLUSTER_BLOCK)
        .map(|_| rng.next_u64() as u32 % n)
        .collect();
    for i in 0..threads {
        let (cta, t) = (i / CLUSTER_BLOCK, i % CLUSTER_BLOCK);
        let r = cta % n;
        let value = rng.next_u64() as u32;
        let target = if t < n { t } else { rng.next_u64() as u32 % n };
        rows.push([value, target, (r + shift[t as usize]) % n]);
    }
    let row_of =
        |cluster: u32, rank: u32, t: u32| ((cluster * n + rank) * CLUSTER_BLOCK + t) as usize;
    let mut inb = Vec::new();
    let mut exp = Vec::new();
    for i in 0..threads {
        let (cta, t) = (i / CLUSTER_BLOCK, i % CLUSTER_BLOCK);
        let (cluster, r) = (cta / n, cta % n);
        let at = place(r);
        let [value, target, store_to] = rows[i as usize];
        for v in [value, target, store_to] {
            push_le(&mut inb, u128::from(v), 4);
        }
        let m = mapa(&P, generic, word(r, t, false), target, wide, &at).ok()?;
        let (rank, tt) = named(m, &at)?;
        let loaded = rows[row_of(cluster, rank, tt)][0];
        // the one sender whose store lands in this thread's word of sh2
        let mut received = None;
        for s in 0..n {
            let sr = rows[row_of(cluster, s, t)];
            let dest = mapa(&P, generic, word(s, t, true), sr[2], wide, &place(s)).ok()?;
            if named(dest, &place(s))? == (r, t + 32) {
                received = Some(sr[0]);
            }
        }
        let own = getctarank(&P, generic, word(r, t, false), &at).ok()?;
        for v in [loaded, rank, received?, own] {
            push_le(&mut exp, u128::from(v), 4);
        }
        if !generic {
            // "`a` is a shared memory variable or a register containing a
            // valid shared memory address": both name the same address
            let defined = mapa(&P, false, word(r, 0, false), target, wide, &at).is_ok();
            push_le(&mut exp, u128::from(defined), 4);
        }
    }
    let cases = u64::from(threads);
    let (provenance, note) = provenance(form);
    let mut group = group_1d(
        id.into(),
        if form.starts_with("mapa") {
            "mapa"
        } else {
            "getctarank"
        },
        form,
        if form.starts_with("mapa") {
            "9.7.9.23"
        } else {
            "9.7.9.24"
        },
        VT,
        provenance,
        note,
        cases,
        input,
        output,
    );
    group.grid = [ctas, 1, 1];
    group.block = [CLUSTER_BLOCK, 1, 1];
    group.cluster = [n, 1, 1];
    Some(Built {
        group,
        ptx: cluster_kernel(form, id, n, o.seed).ok()?,
        input: inb,
        expected: exp,
        mask: Vec::new(),
    })
}
