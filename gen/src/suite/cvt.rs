//! The `cvt` and `cvt.pack` groups: every form of the catalogue, on the
//! edge-case set and on every input (16-bit sources) or seeded random ones,
//! with the model's results. Forms an H200 ran with the model's results on
//! every input it was given are marked `hardware`; the others (forms sm_90
//! rejects, and the forms where sm_90 departs from the spec) `spec`.

use super::manifest::{Layout, Provenance};
use super::templates::{render, Common};
use super::{generator, group_1d, push_le, Built, Options, Plan};
use crate::cvt::InputSet;
use crate::cvt_forms::{forms, CvtForm};
use ptx_semantics::cvt::Conversion;
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The PTX version and targets a form is generated for, first that accepts
/// it wins: sm_90 (the GPUs at hand), then the targets of the narrow
/// formats and of `.rs`.
const TARGETS: &[(&str, &str)] = &[("8.7", "sm_90"), ("8.7", "sm_100a"), ("8.7", "sm_120a")];

/// The forms whose sm_90 results depart from the spec (the model keeps the
/// spec there): the hardware baseline's list.
const DIVERGENCES: &str = include_str!("../../../corpus/cvt/hardware/sm_90/divergences.tsv");

#[derive(Serialize)]
struct Source {
    name: String,
    reg: u32,
    offset: u32,
}

#[derive(Serialize)]
struct Ctx<'a> {
    #[serde(flatten)]
    common: Common<'a>,
    sources: Vec<Source>,
    dest_reg: u32,
    operands: String,
}

/// The operand names of a form's sources, in order (`rbits` last for
/// `.rs`).
fn source_names(f: &CvtForm) -> Vec<&'static str> {
    const VALUES: [&str; 4] = ["a", "b", "c", "d"];
    let n = f.conv.source_count();
    match &f.conv {
        Conversion::Cvt(op)
            if matches!(
                op.round,
                Some(ptx_semantics::cvt::round::Round::Stochastic { .. })
            ) =>
        {
            let mut v = VALUES[..n - 1].to_vec();
            v.push("rbits");
            v
        }
        _ => VALUES[..n].to_vec(),
    }
}

fn layouts(f: &CvtForm) -> (Layout, Layout) {
    let names = source_names(f);
    let types: Vec<String> = match &f.conv {
        Conversion::Cvt(op) => names
            .iter()
            .map(|n| {
                if *n == "rbits" {
                    "b32".to_string()
                } else {
                    op.src.ptx_name()[1..].to_string()
                }
            })
            .collect(),
        Conversion::Pack(p) => names
            .iter()
            .map(|n| if *n == "c" && p.with_c { "b32" } else { "s32" }.to_string())
            .collect(),
    };
    let fields: Vec<(&str, &str, u32)> = names
        .iter()
        .zip(&types)
        .zip(&f.source_regs)
        .map(|((n, t), r)| (*n, t.as_str(), r / 8))
        .collect();
    let dst = match &f.conv {
        Conversion::Cvt(op) => op.dst.ptx_name()[1..].to_string(),
        Conversion::Pack(_) => "b32".to_string(),
    };
    (
        Layout::packed(&fields),
        Layout::packed(&[("d", &dst, f.dest_reg / 8)]),
    )
}

/// The kernel of a form over `cases` rows.
pub fn kernel(
    f: &CvtForm,
    id: &str,
    cases: u64,
    (version, target): (&str, &str),
    seed: u64,
) -> String {
    let (input, output) = layouts(f);
    let sources: Vec<Source> = input
        .fields
        .iter()
        .zip(&f.source_regs)
        .map(|(fl, &reg)| Source {
            name: format!("%src_{}", fl.name),
            reg,
            offset: fl.offset,
        })
        .collect();
    let names: Vec<&str> = sources.iter().map(|s| s.name.as_str()).collect();
    let operands = if names.len() == 5 {
        format!("{{{}}}, {}", names[..4].join(", "), names[4])
    } else {
        names.join(", ")
    };
    let section = match f.conv {
        Conversion::Cvt(_) => "9.7.9.21",
        Conversion::Pack(_) => "9.7.9.22",
    };
    render(
        "cvt.ptx",
        &Ctx {
            common: Common {
                id,
                form: &f.text,
                section,
                version,
                target,
                entry: "k",
                cases,
                in_row: input.row,
                out_row: output.row,
                generator: generator(),
                seed,
            },
            sources,
            dest_reg: f.dest_reg,
            operands,
        },
    )
}

/// Every conversion form with the first of [`TARGETS`] that accepts it.
pub fn all_forms() -> Vec<(CvtForm, (&'static str, &'static str))> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for &vt in TARGETS {
        for f in forms(vt.0, vt.1, |f| kernel(f, "check", 1, vt, 0)) {
            if seen.insert(f.text.clone()) {
                out.push((f, vt));
            }
        }
    }
    out
}

fn divergences() -> HashMap<String, String> {
    DIVERGENCES
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut parts = l.split('\t');
            let form = parts.next()?;
            let why = parts.nth(1).unwrap_or("");
            Some((form.to_string(), why.to_string()))
        })
        .collect()
}

/// The conversion groups: `FORM/edge`, and `FORM/exhaustive` or
/// `FORM/random`.
pub fn plans() -> Vec<Plan> {
    let div = Arc::new(divergences());
    let mut out = Vec::new();
    for (f, vt) in all_forms() {
        let f = Arc::new(f);
        for (set_name, _) in f.suite_sets(0, 0) {
            let id = format!("{}/{set_name}", f.text);
            let (f, div) = (f.clone(), div.clone());
            out.push(Plan::new(id.clone(), f.text.clone(), move |o: &Options| {
                let set = f
                    .suite_sets(o.random, o.seed ^ crate::rng::mix(f.text.len() as u64))
                    .into_iter()
                    .find(|(n, _)| *n == set_name)
                    .map(|(_, s)| s)?;
                build(&f, &id, set, vt, &div, o.seed)
            }));
        }
    }
    out
}

fn build(
    f: &CvtForm,
    id: &str,
    set: InputSet,
    vt: (&str, &str),
    div: &HashMap<String, String>,
    seed: u64,
) -> Option<Built> {
    let (input, output) = layouts(f);
    let rows = crate::cvt::vectors(&f.conv, set);
    let mut inb = Vec::new();
    let mut exp = Vec::new();
    let mut mask = Vec::new();
    let mut any_mask = false;
    let mut cases = 0u64;
    for row in &rows {
        // Rows whose behaviour is undefined are not conformance cases.
        let Some((bits, unspecified)) = f.model(row) else {
            continue;
        };
        let start = inb.len();
        inb.resize(start + input.row as usize, 0);
        for (fl, &v) in input.fields.iter().zip(row) {
            let s = start + fl.offset as usize;
            inb[s..s + fl.bytes as usize].copy_from_slice(&v.to_le_bytes()[..fl.bytes as usize]);
        }
        push_le(&mut exp, bits as u128, output.row);
        push_le(&mut mask, unspecified as u128, output.row);
        any_mask |= unspecified != 0;
        cases += 1;
    }
    if cases == 0 {
        return None;
    }
    if !any_mask {
        mask.clear();
    }
    // The double-rounding integers are not in the hardware baseline.
    let baseline = set != InputSet::DoubleRounding;
    let hardware = vt.1 == "sm_90" && !div.contains_key(&f.text) && baseline;
    let note = match (div.get(&f.text), vt.1) {
        (Some(why), _) => format!("sm_90 departs from the spec here: {why}"),
        (None, "sm_90") if baseline => String::new(),
        (None, "sm_90") => "these inputs are not in the hardware baseline".to_string(),
        _ => "not seen on hardware: sm_90 rejects this form".to_string(),
    };
    let section = match f.conv {
        Conversion::Cvt(_) => "9.7.9.21",
        Conversion::Pack(_) => "9.7.9.22",
    };
    let family = match f.conv {
        Conversion::Cvt(_) => "cvt",
        Conversion::Pack(_) => "cvt.pack",
    };
    let group = group_1d(
        id.to_string(),
        family,
        &f.text,
        section,
        vt,
        if hardware {
            Provenance::Hardware
        } else {
            Provenance::Spec
        },
        note,
        cases,
        input,
        output,
    );
    Some(Built {
        ptx: kernel(f, id, cases, vt, seed),
        group,
        input: inb,
        expected: exp,
        mask,
    })
}
