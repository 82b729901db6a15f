//! The approximate floating-point groups (`div.approx`, `div.full`, `rcp`,
//! `sqrt`, `rsqrt`, `sin`, `cos`, `lg2`, `ex2`, `tanh`; PTX ISA 9.7.3.8,
//! 9.7.3.13-22, 9.7.4.9-10): every form of
//! `ptx_semantics::arith::approx::FORMS` on an edge set and on seeded
//! random inputs (16-bit forms: every encoding), whose expectations are
//! bounds, not bits.
//!
//! Each output lane's expected row holds the correctly rounded exact result
//! (the nominal value) and its bound travels in the input row, beside the
//! operands, as the fields `lo(NAME)` and `hi(NAME)` (the kernel does not
//! read them; docs/suite-format.md): a lane passes when its value lies in
//! `[lo, hi]` (in the order `-inf < ... < -0.0 < +0.0 < ... < +inf`), any
//! NaN when `lo` and `hi` are NaN, and exactly the expected bits outside
//! the don't-care mask when `lo == hi`. A lane whose value the bound
//! leaves free is don't-care in the mask, so that a runner that knows only
//! masks accepts every conforming result.

use super::manifest::{Layout, Provenance};
use super::templates::{render, Common};
use super::{generator, group_1d, push_le, Built, Options, Plan};
use ptx_semantics::arith::approx::{ApproxForm, Bound, FORMS};
use serde::Serialize;

/// The PTX version and target of every group (all forms are sm_90's).
const VT: (&str, &str) = ("8.7", "sm_90");

/// The forms whose sm_90 results lie outside the spec's bound on some
/// inputs (corpus/approx/sm_90/departures.tsv): their groups are `spec`.
const DEPARTURES: &str = include_str!("../../../corpus/approx/sm_90/departures.tsv");

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

/// The output lanes' names: `d`, or `d0` and `d1` for a packed form.
fn lane_names(f: &ApproxForm) -> Vec<&'static str> {
    if f.packed {
        vec!["d0", "d1"]
    } else {
        vec!["d"]
    }
}

/// The input row (`a`, `b` for `div`, then `lo(NAME)`, `hi(NAME)` per
/// output lane) and the output row (one field per lane).
pub fn layouts(f: &ApproxForm) -> (Layout, Layout) {
    let reg = f.reg_bits() / 8;
    let lane = f.fmt.width() / 8;
    let ty = format!("{}{}", f.fmt.name, if f.packed { "x2" } else { "" });
    let lane_ty = f.fmt.name;
    let srcs = ["a", "b"];
    let bound_names: Vec<(String, String)> = lane_names(f)
        .iter()
        .map(|n| (format!("lo({n})"), format!("hi({n})")))
        .collect();
    let mut fields: Vec<(&str, &str, u32)> = srcs[..f.op.sources()]
        .iter()
        .map(|n| (*n, ty.as_str(), reg))
        .collect();
    for (lo, hi) in &bound_names {
        fields.push((lo.as_str(), lane_ty, lane));
        fields.push((hi.as_str(), lane_ty, lane));
    }
    let out: Vec<(&str, &str, u32)> = lane_names(f).iter().map(|n| (*n, lane_ty, lane)).collect();
    (Layout::packed(&fields), Layout::packed(&out))
}

/// The kernel of a form over `cases` rows (the `cvt` kernel's shape: load
/// the sources, run the form, store the destination).
pub fn kernel(f: &ApproxForm, id: &str, cases: u64, seed: u64) -> String {
    let (input, output) = layouts(f);
    let reg = f.reg_bits();
    let sources: Vec<Source> = input
        .fields
        .iter()
        .take(f.op.sources())
        .map(|fl| Source {
            name: format!("%src_{}", fl.name),
            reg,
            offset: fl.offset,
        })
        .collect();
    let operands = sources
        .iter()
        .map(|s| s.name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let form = f.ptx();
    render(
        "cvt.ptx",
        &Ctx {
            common: Common {
                id,
                form: &form,
                section: f.section(),
                version: VT.0,
                target: VT.1,
                entry: "k",
                cases,
                in_row: input.row,
                out_row: output.row,
                generator: generator(),
                seed,
            },
            sources,
            dest_reg: reg,
            operands,
        },
    )
}

/// Edge values of one lane's format, both signs: zeros, the subnormal
/// ends, the smallest normal, values around 0.5, 1 and 2, the largest
/// finite, infinities, NaNs, and the edges of the spec's ranges (2^±126 and
/// 2^127 for `div.approx`'s divisor, 2pi and 100pi for `sin`/`cos`, the
/// overflow and underflow thresholds of `ex2`).
pub fn edge_values(width: u32, is_bf16: bool) -> Vec<u64> {
    let pos: Vec<u64> = match (width, is_bf16) {
        (16, false) => vec![
            0, 1, 0x3ff, 0x400, 0x3800, 0x3bff, 0x3c00, 0x3c01, 0x4000, 0x4248, 0x4c00, 0x4bff,
            0x7bff, 0x7c00, 0x7c01, 0x7e00, 0x7fff,
        ],
        (16, true) => vec![
            0, 1, 0x7f, 0x80, 0x3f00, 0x3f7f, 0x3f80, 0x3f81, 0x4000, 0x40c9, 0x42fe, 0x4300,
            0x7f7f, 0x7f80, 0x7f81, 0x7fc0, 0x7fff,
        ],
        (64, _) => vec![
            0,
            1,
            0x000f_ffff_0000_0000,
            0x0000_0001_0000_0000,
            0x0010_0000_0000_0000,
            0x3fe0_0000_0000_0000,
            0x3ff0_0000_0000_0000,
            0x3ff0_0000_ffff_ffff,
            0x4000_0000_0000_0000,
            0x4010_0000_0000_0000,
            0x7fef_ffff_ffff_ffff,
            0x7ff0_0000_0000_0000,
            0x7ff0_0000_0000_0001,
            0x7ff0_0001_0000_0000,
            0x7ff8_0000_0000_0000,
        ],
        _ => vec![
            0,
            1,
            0x7f_ffff,
            0x80_0000,
            0x3f00_0000,
            0x3f7f_ffff,
            0x3f80_0000,
            0x3f80_0001,
            0x4000_0000,
            0x40c9_0fdb,
            0x40c9_0fdc,
            0x439d_1463,
            0x439d_1464,
            0x42fe_0000,
            0x4300_0000,
            0x4315_0000,
            0x7e80_0000,
            0x7e80_0001,
            0x7f00_0000,
            0x7f7f_ffff,
            0x7f80_0000,
            0x7f80_0001,
            0x7fc0_0000,
            0x7fff_ffff,
        ],
    };
    let sign = 1u64 << (width - 1);
    pos.iter().flat_map(|&p| [p, p | sign]).collect()
}

/// One group's input registers: `(a, b)` pairs.
fn rows(f: &ApproxForm, set: &str, random: usize, seed: u64) -> Vec<(u64, u64)> {
    let w = f.fmt.width();
    let reg = f.reg_bits();
    let mask = if reg == 64 { u64::MAX } else { (1 << reg) - 1 };
    match set {
        "exhaustive" => (0..1u64 << 16)
            .map(|i| {
                let hi = if f.packed {
                    ((i * 40503 + 12345) & 0xffff) << 16
                } else {
                    0
                };
                (i | hi, 0)
            })
            .collect(),
        "edge" => {
            let e = edge_values(w, f.fmt.name == "bf16");
            let packed = |x: u64, k: usize| {
                if f.packed {
                    x | e[(k * 7 + 3) % e.len()] << w
                } else {
                    x
                }
            };
            if f.op.sources() == 2 {
                e.iter()
                    .flat_map(|&a| e.iter().map(move |&b| (a, b)))
                    .collect()
            } else {
                e.iter()
                    .enumerate()
                    .map(|(k, &a)| (packed(a, k), 0))
                    .collect()
            }
        }
        _ => {
            let mut r = crate::rng::SplitMix64(seed);
            (0..random)
                .map(|_| {
                    let z = r.next_u64();
                    (z & mask, (z >> 32) & mask)
                })
                .collect()
        }
    }
}

/// The forms with departures listed in the hardware sweep.
fn departing(form: &str) -> bool {
    DEPARTURES
        .lines()
        .filter(|l| !l.starts_with('#'))
        .any(|l| l.split('\t').next() == Some(form))
}

/// The input sets of a form: `edge` and `random`, or `exhaustive` for a
/// 16-bit format (packed: lane 1 takes a permutation of lane 0's values).
fn sets(f: &ApproxForm) -> &'static [&'static str] {
    if f.fmt.width() == 16 {
        &["edge", "exhaustive"]
    } else {
        &["edge", "random"]
    }
}

/// The approximate groups: `FORM/edge`, and `FORM/random` or
/// `FORM/exhaustive`.
pub fn plans() -> Vec<Plan> {
    let mut out = Vec::new();
    for f in FORMS {
        for &set in sets(f) {
            let id = format!("{}/{set}", f.ptx());
            let f = *f;
            out.push(Plan::new(id.clone(), f.ptx(), move |o: &Options| {
                build(&f, &id, set, o)
            }));
        }
    }
    out
}

fn build(f: &ApproxForm, id: &str, set: &str, o: &Options) -> Option<Built> {
    let (input, output) = layouts(f);
    let seed = o.seed ^ crate::rng::mix(fnv1a(&f.ptx()));
    let rows = rows(f, set, o.random, seed);
    let lane_bytes = f.fmt.width() / 8;
    let reg_bytes = f.reg_bits() / 8;
    let (mut inb, mut exp, mut mask) = (Vec::new(), Vec::new(), Vec::new());
    for &(a, b) in &rows {
        let start = inb.len();
        push_le(&mut inb, u128::from(a), reg_bytes);
        if f.op.sources() == 2 {
            push_le(&mut inb, u128::from(b), reg_bytes);
        }
        let lanes = f.eval_lanes(a, b);
        for r in lanes.iter().take(if f.packed { 2 } else { 1 }) {
            let (lo, hi) = match r.bound {
                Bound::AnyNan => (r.nominal, r.nominal),
                _ => r.interval().unwrap_or((r.nominal, r.nominal)),
            };
            push_le(&mut inb, u128::from(lo), lane_bytes);
            push_le(&mut inb, u128::from(hi), lane_bytes);
            push_le(&mut exp, u128::from(r.nominal), lane_bytes);
            push_le(&mut mask, u128::from(r.open_bits(f.fmt)), lane_bytes);
        }
        inb.resize(start + input.row as usize, 0);
        let row_end = exp.len().div_ceil(output.row as usize) * output.row as usize;
        exp.resize(row_end, 0);
        mask.resize(row_end, 0);
    }
    if rows.is_empty() {
        return None;
    }
    if mask.iter().all(|&m| m == 0) {
        mask.clear();
    }
    let name = f.ptx();
    let hardware = !departing(&name);
    let note = if hardware {
        String::new()
    } else {
        "sm_90's result lies outside the spec's bound on a few inputs (corpus/approx/sm_90/departures.tsv); the bounds are the spec's".to_string()
    };
    let cases = rows.len() as u64;
    let group = group_1d(
        id.to_string(),
        f.op.opcode(),
        &name,
        f.section(),
        VT,
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
        ptx: kernel(f, id, cases, o.seed),
        group,
        input: inb,
        expected: exp,
        mask,
    })
}

/// FNV-1a (64 bits) of a form's spelling: the form's part of its seed.
pub fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, c| {
        (h ^ u64::from(c)).wrapping_mul(0x100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptx_semantics::catalogue::{PtxVersion, Target};
    use ptx_semantics::check::{check_module, Options as CheckOptions};

    /// Every form's kernel parses and the checker accepts it for sm_90.
    #[test]
    fn kernels_are_legal_ptx() {
        for f in FORMS {
            let ptx = kernel(f, "check", 4, 0);
            let module =
                ptx_semantics::ptx::parse(&ptx).unwrap_or_else(|e| panic!("{}: {e:?}", f.ptx()));
            let opts = CheckOptions {
                ptx: PtxVersion::parse(VT.0),
                target: Target::parse(VT.1),
                threads: Some(4),
                ..CheckOptions::default()
            };
            let problems = check_module(&module, &opts);
            assert!(problems.is_empty(), "{}: {problems:?}\n{ptx}", f.ptx());
        }
    }

    /// Every form has groups, and each group's rows fill their layouts.
    #[test]
    fn every_form_has_groups_of_whole_rows() {
        let plans = plans();
        for f in FORMS {
            assert!(plans.iter().any(|p| p.form == f.ptx()), "{}", f.ptx());
        }
        let o = Options {
            random: 64,
            ..Options::default()
        };
        for p in plans.iter().filter(|p| !p.id.ends_with("/exhaustive")) {
            let b = p.build(&o).expect(&p.id);
            assert_eq!(b.input.len(), b.group.input_bytes(), "{}", p.id);
            assert_eq!(b.expected.len(), b.group.output_bytes(), "{}", p.id);
            assert!(b.mask.is_empty() || b.mask.len() == b.expected.len());
        }
    }
}
