//! The load and store groups: `ld` (PTX ISA 9.7.9.8), `ld.global.nc`
//! (9.7.9.9), `ldu` (9.7.9.10) and `st` (9.7.9.11), every spelling of the
//! catalogue that sm_90 accepts along two axes: each state space with each
//! type and vector width, and each qualifier (ordering and scope, cache
//! operator, eviction priority, `.L2::cache_hint`, prefetch size, `.mmio`)
//! with each space on `.u32` (every combination) and on `.v4.u32` (each
//! qualifier on its own). Expected values are the bytes moved, with the
//! extension 9.7.9.8 asks of a narrow load into a wider register.
//!
//! What a case is, per space: `.global`, generic (a `cvta.global` of the
//! row's address), `ld.global.nc` and `ldu` load the input row itself;
//! `.shared{::cta, ::cluster}` and `.local` loads read the row after plain
//! `st.shared`/`st.local` put it there; `.const` loads read a table the
//! module initialises, at the row's offset; `.param` loads read the kernel's
//! own two parameters and write what they loaded xor the same bits taken
//! from `ld.param.u64` (0 when the form agrees), so that no raw address is
//! ever an output. Stores write the row's registers to `out` (`.global`,
//! generic) or to a 16-byte slot pre-filled with a guard pattern
//! (`.shared`, `.local`) that is then copied out whole: the bytes next to
//! the stored ones must keep the guard.

use super::forms::{accepted, check, provenance, rows, VT};
use super::manifest::{Field, Layout};
use super::templates::{render, Common, Module};
use super::{generator, group_1d, push_le, Built, Options, Plan};
use crate::rng::SplitMix64;
use ptx_semantics::catalogue::types::{PtxType, TypeKind};
use ptx_semantics::catalogue::Binding;
use serde::Serialize;
use std::collections::HashSet;
use std::sync::Arc;

/// The guard bytes a store slot holds before the store under test.
const GUARD: u32 = 0xe3e2_e1e0;
/// Rows of the data groups.
const ROWS: usize = 64;
/// Bytes of the `.const` table of the `.const` groups.
const CONST_BYTES: usize = 256;

/// Where an access goes, as the kernel reaches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
enum Via {
    Global,
    Generic,
    Shared,
    Local,
    Const,
    Param,
}

/// What a form moves and where, read from its binding.
#[derive(Clone, Debug)]
struct Access {
    store: bool,
    via: Via,
    ty: PtxType,
    count: u32,
    hint: bool,
    family: &'static str,
    section: &'static str,
}

impl Access {
    /// Bytes of one element.
    fn elem(&self) -> u32 {
        self.ty.bits / 8
    }

    /// The register an element lives in: 64 bits for integers and bit
    /// types (so that a load's extension shows), the type itself for
    /// floats and `.b128`.
    fn reg(&self) -> &'static str {
        match (self.ty.kind, self.ty.bits) {
            (_, 128) => "b128",
            (TypeKind::Float, 32) => "f32",
            (TypeKind::Float, _) => "f64",
            _ => "b64",
        }
    }

    fn reg_bytes(&self) -> u32 {
        match self.reg() {
            "b128" => 16,
            "f32" => 4,
            _ => 8,
        }
    }

    /// How the manifest names a register's bits.
    fn reg_type(&self) -> &'static str {
        match (self.reg(), self.ty.kind) {
            ("b64", TypeKind::Signed) => "s64",
            ("b64", TypeKind::Unsigned) => "u64",
            (r, _) => r,
        }
    }

    /// The bytes a store slot takes: the data rounded up to 16.
    fn stride(&self) -> u32 {
        (self.elem() * self.count).div_ceil(16) * 16
    }

    /// The access of a form, or why it has no group.
    fn of(b: &Binding) -> Result<Access, String> {
        let instr = b.form.row.instr;
        let ty = b.ty("type").ok_or("no type")?;
        let count = b
            .get("vec")
            .and_then(|v| v.strip_prefix(".v"))
            .map_or(Ok(1), str::parse)
            .map_err(|_| "bad .vec")?;
        let via = match (instr, b.get("ss")) {
            ("ld.global.nc", _) | (_, Some(".global")) => Via::Global,
            (_, None) => Via::Generic,
            (_, Some(".shared" | ".shared::cta" | ".shared::cluster")) => Via::Shared,
            (_, Some(".local")) => Via::Local,
            (_, Some(".const")) => Via::Const,
            (_, Some(".param" | ".param::entry")) if instr == "ld" => Via::Param,
            (_, Some(s)) if s.starts_with(".param") => {
                return Err(format!(
                    "`{instr}{s}` reaches a device function's parameters (`.param::func`); suite kernels are entries"
                ))
            }
            (_, Some(s)) => return Err(format!("no kernel for space {s}")),
        };
        if via == Via::Param && ty.bits * count > 64 {
            return Err("a suite kernel's parameters are two 8-byte pointers: a wider load would read across both, whose placement the spec leaves open".into());
        }
        let (family, section) = match instr {
            "ld" => ("ld", "9.7.9.8"),
            "ld.global.nc" => ("ld.global.nc", "9.7.9.9"),
            "ldu" => ("ldu", "9.7.9.10"),
            _ => ("st", "9.7.9.11"),
        };
        Ok(Access {
            store: instr == "st",
            via,
            ty,
            count,
            hint: b.has(".L2::cache_hint"),
            family,
            section,
        })
    }
}

/// The catalogue rows whose spellings make the type-and-space groups; the
/// other rows (orderings, hints, eviction priorities, `.mmio`) make the
/// qualifier groups, on `.u32`.
const SHAPE_ROWS: &[&str] = &[
    "ld.weak.cop",
    "ld.weak.cop.vec",
    "ld.global.nc.cop",
    "ld.global.nc.cop.vec",
    "ldu",
    "ldu.vec",
    "st.weak.cop",
    "st.weak.cop.vec",
];

/// The spellings a form of the load and store rows gets a group for, in
/// suite order, each with its access or the reason it has none: first every
/// space, type and vector width (the rows of [`SHAPE_ROWS`] with no
/// optional qualifier but the space), then every qualifier combination on
/// scalar `.u32`, then each qualifier on its own on `.v4.u32` (so that the
/// vector rows of the orderings and eviction priorities have cases too),
/// each spelling once.
fn candidates() -> Vec<(String, Result<Access, String>)> {
    let mut texts: Vec<String> = Vec::new();
    for instr in ["ld", "ld.global.nc", "ldu", "st"] {
        for form in rows(instr).filter(|f| SHAPE_ROWS.contains(&f.row.id)) {
            texts.extend(form.spellings(&|part, q| {
                matches!(part, ".ss" | ".vec" | ".type") || !optional_part(form, part) && part == q
            }));
        }
    }
    for instr in ["ld", "ld.global.nc", "ldu", "st"] {
        for form in rows(instr).filter(|f| f.part("vec").is_none()) {
            texts.extend(form.spellings(&|part, q| part != ".type" || q == ".u32"));
        }
    }
    // the vector rows of the qualifier rows: each optional qualifier alone
    // (with each space and each value of the required slots) on `.v4.u32`
    for instr in ["ld", "ld.global.nc", "st"] {
        for form in rows(instr).filter(|f| f.part("vec").is_some()) {
            let extras: Vec<&str> = form
                .slots
                .iter()
                .filter(|s| s.optional)
                .flat_map(|s| &s.parts)
                .map(|p| p.name.as_str())
                .filter(|p| *p != ".ss")
                .chain([""])
                .collect();
            for extra in extras {
                texts.extend(form.spellings(&|part, q| match part {
                    ".type" => q == ".u32",
                    ".vec" => q == ".v4",
                    ".ss" => true,
                    _ => part == extra || !optional_part(form, part),
                }));
            }
        }
    }
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for text in texts {
        if !seen.insert(text.clone()) {
            continue;
        }
        let Some(b) = accepted(&text, VT) else {
            continue;
        };
        out.push((text, Access::of(&b)));
    }
    out
}

/// Whether `part` sits in an optional slot of `form`.
fn optional_part(form: &ptx_semantics::catalogue::Form, part: &str) -> bool {
    form.slots
        .iter()
        .any(|s| s.optional && s.parts.iter().any(|p| p.name == part))
}

/// Every load and store form sm_90 accepts that has no group, with the
/// reason (for the coverage test and the docs).
pub fn skipped() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (text, access) in candidates() {
        match access {
            Err(why) => out.push((text, why)),
            Ok(a) => {
                let problems = check(&kernel(&text, &a, &text, 1, 0, &mut SplitMix64(0)).0);
                if !problems.is_empty() {
                    out.push((
                        text,
                        format!("the checker rejects its kernel: {}", problems.join("; ")),
                    ));
                }
            }
        }
    }
    out
}

/// The load and store groups, one per form: `FORM/bytes` (`FORM/params`
/// for loads of kernel parameters).
pub fn plans() -> Vec<Plan> {
    let mut out = Vec::new();
    for (text, access) in candidates() {
        let Ok(a) = access else { continue };
        let a = Arc::new(a);
        if !check(&kernel(&text, &a, &text, 1, 0, &mut SplitMix64(0)).0).is_empty() {
            continue;
        }
        let set = if a.via == Via::Param {
            "params"
        } else {
            "bytes"
        };
        let id = format!("{text}/{set}");
        let form = text.clone();
        out.push(Plan::new(id.clone(), text, move |o: &Options| {
            Some(build(&form, &a, &id, o))
        }));
    }
    out
}

/// A row's seed: the suite seed and the group id.
pub(super) fn seeded(o: &Options, id: &str) -> SplitMix64 {
    SplitMix64(
        id.bytes()
            .fold(o.seed, |h, b| crate::rng::mix(h ^ u64::from(b))),
    )
}

/// `n` data bytes of row `r`: four patterns (all clear, all set, sign bits
/// set, sign bits clear), then seeded random bytes.
pub(super) fn data_bytes(r: usize, n: usize, rng: &mut SplitMix64) -> Vec<u8> {
    (0..n)
        .map(|k| match r {
            0 => 0x00,
            1 => 0xff,
            2 => [0x80, 0x01][k % 2],
            3 => [0x7f, 0xfe][k % 2],
            _ => rng.next_u64() as u8,
        })
        .collect()
}

/// The register a load leaves for an element of `ty` read from `bytes`:
/// "The value loaded is sign-extended to the destination register width
/// for signed integers, and is zero-extended to the destination register
/// width for unsigned and bit-size types" (PTX ISA 9.7.9.8, Semantics of
/// `ld`; registers here are 64 bits for integer and bit types, the type's
/// own width for floats and `.b128`).
fn loaded(ty: PtxType, bytes: &[u8]) -> u128 {
    let mut b = [0u8; 16];
    b[..bytes.len()].copy_from_slice(bytes);
    let v = u128::from_le_bytes(b);
    let bits = ty.bits;
    if ty.kind == TypeKind::Signed && bits < 64 && v >> (bits - 1) & 1 == 1 {
        (v | (u128::from(u64::MAX) << bits)) & u128::from(u64::MAX)
    } else {
        v
    }
}

#[derive(Serialize)]
struct Elem {
    k: u32,
    /// Byte offset in memory (the row, the slot).
    at: u32,
    /// Byte offset in the row of `in` (stores) or `out` (loads).
    row: u32,
}

#[derive(Serialize)]
struct Ctx<'a> {
    #[serde(flatten)]
    module: Module<'a>,
    via: Via,
    reg: &'static str,
    count: u32,
    elems: Vec<Elem>,
    /// The vector operand (`%d0` or `{%d0, %d1}`).
    operand: String,
    hint: bool,
    stride: u32,
    shared_bytes: u32,
    stage_reg: &'static str,
    stage_bits: u32,
    /// Stores to `.shared` and `.local`: the slot's address operand, the
    /// guard word, and the offsets of its 16-byte parts.
    slot: &'static str,
    guard: String,
    quads: Vec<u32>,
    /// The vector operands of the guard stores and the copy (written here:
    /// a brace then `%` would open a template tag).
    guards: &'static str,
    words: &'static str,
    /// `.param` loads: each parameter and offset.
    loads: Vec<ParamLoad>,
}

#[derive(Serialize)]
struct ParamLoad {
    param: &'static str,
    /// Which of `%p0` (`in`), `%p1` (`out`) holds the parameter's bits.
    index: u32,
    offset: u32,
    elems: Vec<ParamElem>,
}

#[derive(Serialize)]
struct ParamElem {
    k: u32,
    /// Right shift that brings the element's bits to bit 0.
    shift: u32,
    /// Left then right shift that extends them (0: a 64-bit element).
    extend: u32,
    signed: bool,
    out: u32,
}

/// The kernel of a form over `cases` rows, with its `.const` table (empty
/// for the other spaces).
fn kernel(
    form: &str,
    a: &Access,
    id: &str,
    cases: u64,
    seed: u64,
    rng: &mut SplitMix64,
) -> (String, Vec<u8>) {
    let (input, output) = layouts(a);
    let n = a.elem();
    let mut about = Vec::new();
    let mut decls = Vec::new();
    let mut table = Vec::new();
    let elems: Vec<Elem> = (0..a.count)
        .map(|k| Elem {
            k,
            at: k * n,
            row: if a.store {
                k * a.reg_bytes()
            } else {
                output.fields[k as usize].offset
            },
        })
        .collect();
    let mut loads = Vec::new();
    match (a.store, a.via) {
        (false, Via::Const) => {
            table = (0..CONST_BYTES).map(|_| rng.next_u64() as u8).collect();
            let init: Vec<String> = table.iter().map(|b| format!("{b:#04x}")).collect();
            decls.push(format!(
                ".const .align 16 .b8 ctab[{CONST_BYTES}] = {{{}}};",
                init.join(", ")
            ));
            about.push("Row i of `in`: a byte offset into `ctab`; of `out`: each element loaded from there.".into());
        }
        (false, Via::Param) => {
            about.push("One case: the form loads at every aligned offset of `in` and of `out`; each".into());
            about.push("element is written xor the same bits of ld.param.u64 (extended as the form's".into());
            about.push("type asks), so every output is 0 when the two loads agree.".into());
            let total = n * a.count;
            for (index, param) in ["in", "out"].into_iter().enumerate() {
                for offset in (0..8).step_by(total as usize) {
                    loads.push(ParamLoad {
                        param,
                        index: index as u32,
                        offset,
                        elems: (0..a.count)
                            .map(|k| {
                                let name = format!("{param}{offset}.d{k}");
                                ParamElem {
                                    k,
                                    shift: 8 * (offset + k * n),
                                    extend: 64 - 8 * n,
                                    signed: a.ty.kind == TypeKind::Signed,
                                    out: output
                                        .fields
                                        .iter()
                                        .find(|f| f.name == name)
                                        .map_or(0, |f| f.offset),
                                }
                            })
                            .collect(),
                    });
                }
            }
        }
        (false, _) => about.push(
            "Row i of `in`: the bytes the form loads; of `out`: each element's register.".into(),
        ),
        (true, Via::Shared | Via::Local) => about.push(format!(
            "Row i of `in`: the registers the form stores; of `out`: the {}-byte slot they were stored into, which held {GUARD:#010x} in each word before.",
            a.stride()
        )),
        (true, _) => about.push(
            "Row i of `in`: the registers the form stores; of `out`: what it stored.".into(),
        ),
    }
    let names: Vec<String> = (0..a.count)
        .map(|k| format!("%{}{k}", if a.store { 'v' } else { 'd' }))
        .collect();
    let operand = if a.count == 1 {
        names[0].clone()
    } else {
        format!("{{{}}}", names.join(", "))
    };
    let (_, block) = super::launch_1d(cases);
    let ctx = Ctx {
        module: Module {
            common: Common {
                id,
                form,
                section: a.section,
                version: VT.0,
                target: VT.1,
                entry: "k",
                cases,
                in_row: input.row,
                out_row: output.row,
                generator: generator(),
                seed,
            },
            about,
            decls,
            directives: Vec::new(),
        },
        via: a.via,
        reg: a.reg(),
        count: a.count,
        elems,
        operand,
        hint: a.hint,
        stride: a.stride(),
        shared_bytes: a.stride() * block[0],
        stage_reg: match n {
            1 | 2 => "b16",
            4 => "b32",
            8 => "b64",
            _ => "b128",
        },
        stage_bits: 8 * n,
        slot: if a.via == Via::Shared { "%a" } else { "lv" },
        guard: format!("{GUARD:#010x}"),
        quads: (0..a.stride()).step_by(16).collect(),
        guards: "{%g, %g, %g, %g}",
        words: "{%r0, %r1, %r2, %r3}",
        loads,
    };
    let template = match (a.store, a.via) {
        (true, _) => "st.ptx",
        (false, Via::Param) => "ld_param.ptx",
        _ => "ld.ptx",
    };
    (render(template, &ctx), table)
}

/// The row layouts of a form's group.
fn layouts(a: &Access) -> (Layout, Layout) {
    let n = a.elem();
    let elem_ty = &a.ty.name[1..];
    let names: Vec<String> = (0..a.count).map(|k| format!("d{k}")).collect();
    if a.store {
        let regs: Vec<(&str, &str, u32)> = names
            .iter()
            .map(|s| (s.as_str(), a.reg(), a.reg_bytes()))
            .collect();
        let mut fields: Vec<Field> = names
            .iter()
            .enumerate()
            .map(|(k, s)| Field {
                name: s.clone(),
                ty: elem_ty.to_string(),
                offset: k as u32 * n,
                bytes: n,
            })
            .collect();
        let mut row = n * a.count;
        if matches!(a.via, Via::Shared | Via::Local) {
            for (g, at) in (row..a.stride()).step_by(n as usize).enumerate() {
                fields.push(Field {
                    name: format!("guard{g}"),
                    ty: format!("b{}", 8 * n),
                    offset: at,
                    bytes: n,
                });
            }
            row = a.stride();
        }
        return (Layout::packed(&regs), Layout { row, fields });
    }
    let input = match a.via {
        Via::Const => Layout::packed(&[("offset", "u32", 4)]),
        // nothing to read: the kernel's parameters are the data
        Via::Param => Layout::packed(&[("unused", "b32", 4)]),
        _ => {
            let f: Vec<(&str, &str, u32)> =
                names.iter().map(|s| (s.as_str(), elem_ty, n)).collect();
            Layout::packed(&f)
        }
    };
    let output = if a.via == Via::Param {
        let total = n * a.count;
        let names: Vec<String> = ["in", "out"]
            .iter()
            .flat_map(|p| {
                (0..8)
                    .step_by(total as usize)
                    .flat_map(move |o| (0..a.count).map(move |k| format!("{p}{o}.d{k}")))
            })
            .collect();
        let f: Vec<(&str, &str, u32)> = names.iter().map(|s| (s.as_str(), "b64", 8)).collect();
        Layout::packed(&f)
    } else {
        let f: Vec<(&str, &str, u32)> = names
            .iter()
            .map(|s| (s.as_str(), a.reg_type(), a.reg_bytes()))
            .collect();
        Layout::packed(&f)
    };
    (input, output)
}

fn build(form: &str, a: &Access, id: &str, o: &Options) -> Built {
    let mut rng = seeded(o, id);
    let (input, output) = layouts(a);
    let n = a.elem() as usize;
    let cases: u64 = match a.via {
        Via::Param => 1,
        Via::Const => (CONST_BYTES / (n * a.count as usize)).min(ROWS) as u64,
        _ => ROWS as u64,
    };
    let (ptx, table) = kernel(form, a, id, cases, o.seed, &mut rng);
    let mut inb = Vec::new();
    let mut exp = Vec::new();
    for r in 0..cases as usize {
        match (a.store, a.via) {
            (false, Via::Param) => {
                push_le(&mut inb, 0, 4);
                exp.resize(output.row as usize, 0);
            }
            (false, via) => {
                let bytes = if via == Via::Const {
                    let at = r * n * a.count as usize;
                    push_le(&mut inb, at as u128, 4);
                    table[at..at + n * a.count as usize].to_vec()
                } else {
                    let b = data_bytes(r, n * a.count as usize, &mut rng);
                    inb.extend_from_slice(&b);
                    b
                };
                for (k, f) in output.fields.iter().enumerate() {
                    push_le(&mut exp, loaded(a.ty, &bytes[k * n..(k + 1) * n]), f.bytes);
                }
            }
            (true, _) => {
                let start = exp.len();
                for _ in 0..a.count {
                    let reg = data_bytes(r, a.reg_bytes() as usize, &mut rng);
                    inb.extend_from_slice(&reg);
                    // "stores ... the low bits of each" register of a
                    // wider register (PTX ISA 6.4.1.1, relaxed rules)
                    exp.extend_from_slice(&reg[..n]);
                }
                while exp.len() < start + output.row as usize {
                    let at = exp.len() - start;
                    exp.push((GUARD >> (8 * (at % 4))) as u8);
                }
            }
        }
    }
    let (provenance, note) = provenance(form);
    Built {
        group: group_1d(
            id.to_string(),
            a.family,
            form,
            a.section,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_loads_extend_as_their_type_says() {
        let s8 = ptx_semantics::catalogue::types::ptx_type(".s8").unwrap();
        let u8t = ptx_semantics::catalogue::types::ptx_type(".u8").unwrap();
        let b16 = ptx_semantics::catalogue::types::ptx_type(".b16").unwrap();
        assert_eq!(loaded(s8, &[0x80]), 0xffff_ffff_ffff_ff80);
        assert_eq!(loaded(s8, &[0x7f]), 0x7f);
        assert_eq!(loaded(u8t, &[0x80]), 0x80);
        assert_eq!(loaded(b16, &[0x00, 0x80]), 0x8000);
    }
}
