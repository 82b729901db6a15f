//! The `cp.async` groups (PTX ISA 9.7.9.25.3): a copy of 4, 8 or 16 bytes
//! from the row of `in` into the thread's 16-byte slot of shared memory,
//! pre-filled with a guard pattern, completed with `cp.async.wait_all` (or
//! `cp.async.commit_group` and `cp.async.wait_group 0`) and copied out
//! whole. Expected: the first `src-size` bytes copied, "remaining bytes in
//! destination `dst` are filled with zeros" up to `cp-size` (none copied
//! when `ignore-src` is true), the guard after `cp-size` untouched.
//!
//! Every spelling the catalogue gives sm_90 (destination `.shared` or
//! `.shared::cta`, `.L2::cache_hint`, each prefetch size) gets a group with
//! `src-size` from the row, at every `cp-size` its `.ca`/`.cg` allows; the
//! plain spellings also get a group without `src-size` and one with
//! `ignore-src`. Every group passed on an H100 (the suite baseline,
//! corpus/suite/sm_90). `src-size` runs over 0..=cp-size: the spec says it "must be
//! less than `cp-size`" but makes only "larger than `cp-size`" undefined,
//! so `src-size == cp-size` is taken as defined (docs/ub.md).

use super::forms::{accepted, check, rows, VT};
use super::manifest::{Field, Layout, Provenance};
use super::mem::{data_bytes, seeded};
use super::templates::{render, Common, Module};
use super::{generator, group_1d, push_le, Built, Options, Plan};
use serde::Serialize;
use std::collections::BTreeSet;

/// The guard the slot holds before the copy.
const GUARD: u32 = 0xe3e2_e1e0;
/// Rows of a group.
const ROWS: usize = 64;
/// Bytes of a row's data, and of the slot.
const SLOT: usize = 16;

/// What follows `cp-size`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Variant {
    /// Nothing: `cp-size` bytes copied.
    Whole,
    /// `src-size` from the row.
    SrcSize,
    /// `ignore-src` from the row (true: nothing read, the slot zeroed up
    /// to `cp-size`).
    IgnoreSrc,
}

impl Variant {
    fn name(self) -> &'static str {
        match self {
            Variant::Whole => "whole",
            Variant::SrcSize => "src-size",
            Variant::IgnoreSrc => "ignore-src",
        }
    }
}

/// How the copies are waited for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wait {
    All,
    Group,
}

/// One group: the copy's spelling, its size and what follows it, and the
/// instruction the group is about (`form`: the copy, or the wait).
#[derive(Clone, Debug)]
struct Copy {
    text: String,
    cp_size: u32,
    variant: Variant,
    wait: Wait,
}

/// The copy spellings sm_90 accepts, each once, in catalogue order.
fn copies() -> Vec<String> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for form in rows("cp.async") {
        for text in form.spellings(&|_, _| true) {
            if accepted(&text, VT).is_some() && seen.insert(text.clone()) {
                out.push(text);
            }
        }
    }
    out
}

/// The sizes `.ca` and `.cg` allow: "`cp-size` can only be 4, 8 and 16",
/// and the `.cg` syntax lines write `16` (9.7.9.25.3.1).
fn sizes(text: &str) -> &'static [u32] {
    if text.starts_with("cp.async.cg") {
        &[16]
    } else {
        &[4, 8, 16]
    }
}

/// Whether a spelling has neither a hint nor a prefetch size and names its
/// destination `.shared`.
fn plain(text: &str) -> bool {
    matches!(
        text,
        "cp.async.ca.shared.global" | "cp.async.cg.shared.global"
    )
}

pub fn plans() -> Vec<Plan> {
    let mut groups: Vec<(String, String, &'static str, Copy)> = Vec::new();
    for text in copies() {
        for &cp_size in sizes(&text) {
            let variants: &[Variant] = if plain(&text) {
                &[Variant::Whole, Variant::SrcSize, Variant::IgnoreSrc]
            } else {
                &[Variant::SrcSize]
            };
            for &variant in variants {
                let c = Copy {
                    text: text.clone(),
                    cp_size,
                    variant,
                    wait: Wait::All,
                };
                let id = format!("{text}/{cp_size}/{}", variant.name());
                groups.push((id, text.clone(), "9.7.9.25.3.1", c));
            }
        }
    }
    // The group instructions, each about one of its own.
    let base = Copy {
        text: "cp.async.ca.shared.global".into(),
        cp_size: 16,
        variant: Variant::SrcSize,
        wait: Wait::Group,
    };
    groups.push((
        "cp.async.commit_group/ca.16".into(),
        "cp.async.commit_group".into(),
        "9.7.9.25.3.2",
        base.clone(),
    ));
    groups.push((
        "cp.async.wait_group/ca.16".into(),
        "cp.async.wait_group".into(),
        "9.7.9.25.3.3",
        base.clone(),
    ));
    groups.push((
        "cp.async.wait_all/ca.16".into(),
        "cp.async.wait_all".into(),
        "9.7.9.25.3.3",
        Copy {
            wait: Wait::All,
            ..base
        },
    ));
    groups
        .into_iter()
        .filter(|(id, form, section, c)| check(&kernel(id, form, section, c, 1, 0)).is_empty())
        .map(|(id, form, section, c)| {
            let f = form.clone();
            Plan::new(id.clone(), form, move |o: &Options| {
                Some(build(&id, &f, section, &c, o))
            })
        })
        .collect()
}

#[derive(Serialize)]
struct Ctx<'a> {
    #[serde(flatten)]
    module: Module<'a>,
    copy: &'a str,
    cp_size: u32,
    variant: &'static str,
    hint: bool,
    wait: &'static str,
    guard: String,
    shared_bytes: u64,
    /// Register lists, here because `{%` opens a Tera tag.
    guards: &'static str,
    words: &'static str,
}

fn layouts() -> (Layout, Layout) {
    let input = Layout::packed(&[("src", "b128", 16), ("size", "u32", 4)]);
    let output = Layout {
        row: SLOT as u32,
        fields: (0..4)
            .map(|k| Field {
                name: format!("slot{}", 4 * k),
                ty: "b32".into(),
                offset: 4 * k,
                bytes: 4,
            })
            .collect(),
    };
    (input, output)
}

fn kernel(id: &str, form: &str, section: &str, c: &Copy, cases: u64, seed: u64) -> String {
    let (input, output) = layouts();
    let (_, block) = super::launch_1d(cases);
    let about = vec![
        match c.variant {
            Variant::Whole => "Row i of `in`: 16 source bytes (and an unused word).".to_string(),
            Variant::SrcSize => {
                "Row i of `in`: 16 source bytes, then `src-size` (a u32).".to_string()
            }
            Variant::IgnoreSrc => {
                "Row i of `in`: 16 source bytes, then a u32 whose being non-zero is `ignore-src`."
                    .to_string()
            }
        },
        format!(
            "Row i of `out`: the thread's 16-byte shared slot after the copy, which held {GUARD:#010x} in each word before."
        ),
    ];
    render(
        "cp_async.ptx",
        &Ctx {
            module: Module {
                common: Common {
                    id,
                    form,
                    section,
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
                decls: Vec::new(),
                directives: Vec::new(),
            },
            copy: &c.text,
            cp_size: c.cp_size,
            variant: c.variant.name(),
            hint: c.text.contains(".L2::cache_hint"),
            wait: match c.wait {
                Wait::All => "all",
                Wait::Group => "group",
            },
            guard: format!("{GUARD:#010x}"),
            shared_bytes: SLOT as u64 * u64::from(block[0]),
            guards: "{%g, %g, %g, %g}",
            words: "{%r0, %r1, %r2, %r3}",
        },
    )
}

/// The slot after the copy of row `data` with `n` (the row's word).
fn expected(c: &Copy, data: &[u8], n: u32) -> Vec<u8> {
    let cp = c.cp_size as usize;
    let copied = match c.variant {
        Variant::Whole => cp,
        // "remaining bytes in destination `dst` are filled with zeros"
        Variant::SrcSize => n as usize,
        // "If the source data is ignored then zeros will be copied to
        // destination `dst`."
        Variant::IgnoreSrc if n != 0 => 0,
        Variant::IgnoreSrc => cp,
    };
    (0..SLOT)
        .map(|k| {
            if k >= cp {
                (GUARD >> (8 * (k % 4))) as u8
            } else if k < copied {
                data[k]
            } else {
                0
            }
        })
        .collect()
}

fn build(id: &str, form: &str, section: &str, c: &Copy, o: &Options) -> Built {
    let mut rng = seeded(o, id);
    let (input, output) = layouts();
    let cases = ROWS as u64;
    let ptx = kernel(id, form, section, c, cases, o.seed);
    let mut inb = Vec::new();
    let mut exp = Vec::new();
    for r in 0..ROWS {
        let data = data_bytes(r, SLOT, &mut rng);
        let n = match c.variant {
            Variant::Whole => 0,
            Variant::SrcSize => (r as u32) % (c.cp_size + 1),
            Variant::IgnoreSrc => (r as u32) % 2,
        };
        let start = inb.len();
        inb.extend_from_slice(&data);
        push_le(&mut inb, u128::from(n), 4);
        inb.resize(start + input.row as usize, 0);
        exp.extend_from_slice(&expected(c, &data, n));
    }
    Built {
        group: group_1d(
            id.to_string(),
            "cp.async",
            form,
            section,
            VT,
            Provenance::Hardware,
            "run on an H100 in the suite baseline (corpus/suite/sm_90)".into(),
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
