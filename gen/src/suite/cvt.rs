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
    let operands = operand_list(&names);
    let section = section(f);
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

/// One source of an exhaustive kernel: its register and the field of the
/// input index it takes.
#[derive(Serialize)]
struct SweptSource {
    name: String,
    reg: u32,
    shift: u32,
    mask: u64,
}

#[derive(Serialize)]
struct SweepCtx<'a> {
    id: &'a str,
    form: &'a str,
    section: &'a str,
    version: &'a str,
    target: &'a str,
    entry: &'a str,
    generator: String,
    sources: Vec<SweptSource>,
    dest_reg: u32,
    out_row: u32,
    operands: String,
}

/// The source operands' fields of an input index: operand `j` takes `width`
/// bits at `shift`, the first operand the lowest bits; `None` when the
/// sources together are wider than 32 bits (too many inputs to sweep).
pub fn sweep_fields(f: &CvtForm) -> Option<Vec<(u32, u32)>> {
    let mut shift = 0;
    let mut fields = Vec::new();
    for w in f.conv.source_widths() {
        fields.push((shift, w));
        shift += w;
    }
    (shift <= 32).then_some(fields)
}

/// The operand values of input index `x` (the sources' fields of
/// [`sweep_fields`]).
pub fn split_input(fields: &[(u32, u32)], x: u64, row: &mut [u64]) {
    for (r, &(shift, width)) in row.iter_mut().zip(fields) {
        *r = (x >> shift) & ((1u64 << width) - 1);
    }
}

/// The kernel that converts consecutive inputs of a form whose sources
/// take 32 bits or fewer (entry `k`): `in` holds the first input index and
/// the count (two u64), thread `i` converts input `first + i` (split into
/// operands by [`sweep_fields`]) and writes the destination register,
/// `dest_reg / 8` bytes, to row `i` of `out`. `None` for a wider form.
pub fn exhaustive_kernel(f: &CvtForm, (version, target): (&str, &str)) -> Option<String> {
    let fields = sweep_fields(f)?;
    let names = source_names(f);
    let sources: Vec<SweptSource> = names
        .iter()
        .zip(&f.source_regs)
        .zip(&fields)
        .map(|((n, &reg), &(shift, width))| SweptSource {
            name: format!("%src_{n}"),
            reg,
            shift,
            mask: (1u64 << width) - 1,
        })
        .collect();
    let names: Vec<&str> = sources.iter().map(|s| s.name.as_str()).collect();
    let operands = operand_list(&names);
    Some(render(
        "cvt_exhaustive.ptx",
        &SweepCtx {
            id: &format!("{}/exhaustive", f.text),
            form: &f.text,
            section: section(f),
            version,
            target,
            entry: "k",
            generator: generator(),
            sources,
            dest_reg: f.dest_reg,
            out_row: f.dest_reg / 8,
            operands,
        },
    ))
}

/// The source operands as the instruction takes them (the `x4` forms take a
/// vector of four and `rbits`).
fn operand_list(names: &[&str]) -> String {
    if names.len() == 5 {
        format!("{{{}}}, {}", names[..4].join(", "), names[4])
    } else {
        names.join(", ")
    }
}

fn section(f: &CvtForm) -> &'static str {
    match f.conv {
        Conversion::Cvt(_) => "9.7.9.21",
        Conversion::Pack(_) => "9.7.9.22",
    }
}

/// The conversion form spelled `text` with the first of [`TARGETS`] that
/// accepts it (as [`all_forms`] has it).
pub fn find_form(text: &str) -> Option<(CvtForm, (&'static str, &'static str))> {
    TARGETS.iter().find_map(|&vt| {
        crate::cvt_forms::form(text, vt.0, vt.1, |f| kernel(f, "check", 1, vt, 0)).map(|f| (f, vt))
    })
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

/// The forms whose sm_90 results depart from the spec, each with why.
pub fn divergences() -> HashMap<String, String> {
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

#[cfg(test)]
mod exhaustive_tests {
    use super::*;
    use ptx_semantics::catalogue::{PtxVersion, Target};
    use ptx_semantics::check::{check_module, Options};

    /// Every form whose sources take 32 bits or fewer has an exhaustive
    /// kernel that the checker accepts for its target; the wider ones have
    /// none.
    #[test]
    fn exhaustive_kernels_are_legal_ptx() {
        let mut swept = 0;
        for (f, vt) in all_forms() {
            let total: u32 = f.conv.source_widths().iter().sum();
            let Some(ptx) = exhaustive_kernel(&f, vt) else {
                assert!(total > 32, "{}", f.text);
                continue;
            };
            assert!(total <= 32, "{}", f.text);
            swept += 1;
            let module = ptx_semantics::ptx::parse(&ptx).expect(&f.text);
            let opts = Options {
                ptx: PtxVersion::parse(vt.0),
                target: Target::parse(vt.1),
                threads: Some(1),
                ..Options::default()
            };
            let problems = check_module(&module, &opts);
            assert!(problems.is_empty(), "{}: {problems:?}\n{ptx}", f.text);
        }
        assert!(swept > 100, "{swept} forms");
    }

    #[test]
    fn find_form_agrees_with_all_forms() {
        for (f, vt) in all_forms().into_iter().step_by(7) {
            let (g, gvt) = find_form(&f.text).expect(&f.text);
            assert_eq!(
                (g.text, g.dest_reg, g.source_regs, gvt),
                (f.text, f.dest_reg, f.source_regs, vt)
            );
        }
        assert!(find_form("cvt.rn.f16.f33").is_none());
    }

    /// Operand `j` takes the `j`-th field from the low bits.
    #[test]
    fn inputs_split_low_field_first() {
        let mut row = [0u64; 2];
        split_input(&[(0, 16), (16, 16)], 0x1234_5678, &mut row);
        assert_eq!(row, [0x5678, 0x1234]);
    }
}
