//! The register families of the simulator: `prmt` in every mode, the
//! packing and unpacking `mov`, and `shfl.sync` over whole warps, with
//! expected values from `ptx_semantics::sim`'s functions.

use super::manifest::{Layout, Provenance};
use super::templates::{render, Common};
use super::{generator, group_1d, push_le, Built, Options, Plan};
use crate::rng::SplitMix64;
use ptx_semantics::sim::{mov_pack, mov_unpack, prmt, shfl_sync, PrmtMode, ShflLane, ShflMode};
use serde::Serialize;

const VT: (&str, &str) = ("8.7", "sm_90");

pub fn plans() -> Vec<Plan> {
    let mut out = Vec::new();
    let modes: Vec<Option<PrmtMode>> = std::iter::once(None)
        .chain(PrmtMode::ALL.iter().copied().map(Some))
        .collect();
    for mode in modes {
        let form = match mode {
            None => "prmt.b32".to_string(),
            Some(m) => format!("prmt.b32.{}", format!("{m:?}").to_lowercase()),
        };
        let id = format!("{form}/edge");
        out.push(Plan::new(id.clone(), form.clone(), move |o: &Options| {
            Some(prmt_group(&id, &form, mode, o))
        }));
    }
    for (width, count, pack) in [
        (16, 2, true),
        (32, 2, true),
        (64, 2, true),
        (128, 2, true),
        (32, 4, true),
        (64, 4, true),
        (128, 4, true),
        (16, 2, false),
        (32, 2, false),
        (64, 2, false),
        (128, 2, false),
        (32, 4, false),
        (64, 4, false),
        (128, 4, false),
    ] {
        let form = format!("mov.b{width}");
        let id = format!(
            "mov.b{width}/{}.v{count}",
            if pack { "pack" } else { "unpack" }
        );
        out.push(Plan::new(id.clone(), form.clone(), move |o: &Options| {
            Some(mov_group(&id, &form, width, count, pack, o))
        }));
    }
    for ty in MOV_TYPES {
        let form = format!("mov.{ty}");
        let id = format!("{form}/reg");
        out.push(Plan::new(id.clone(), form.clone(), move |o: &Options| {
            Some(mov_plain_group(&id, &form, ty, o))
        }));
    }
    for count in [2u32, 4] {
        for ty in &MOV_TYPES[1..] {
            if mov_bytes(ty) * count > 16 {
                continue;
            }
            let form = format!("mov.v{count}.{ty}");
            let id = format!("{form}/vector");
            out.push(Plan::new(id.clone(), form.clone(), move |o: &Options| {
                Some(mov_vec_group(&id, &form, ty, count, o))
            }));
        }
    }
    for cases in [64u64, 1000] {
        let form = "mov.u32".to_string();
        let id = format!("{form}/sreg.{cases}");
        out.push(Plan::new(id.clone(), form.clone(), move |o: &Options| {
            Some(mov_sreg_group(&id, &form, cases, o))
        }));
    }
    for mode in ["up", "down", "bfly", "idx"] {
        let form = format!("shfl.sync.{mode}.b32");
        let id = format!("{form}/edge");
        out.push(Plan::new(id.clone(), form.clone(), move |o: &Options| {
            Some(shfl_group(&id, &form, o))
        }));
    }
    out
}

fn common<'a>(
    id: &'a str,
    form: &'a str,
    section: &'a str,
    cases: u64,
    in_row: u32,
    out_row: u32,
    seed: u64,
) -> Common<'a> {
    Common {
        id,
        form,
        section,
        version: VT.0,
        target: VT.1,
        entry: "k",
        cases,
        in_row,
        out_row,
        generator: generator(),
        seed,
    }
}

fn seeded(o: &Options, id: &str) -> SplitMix64 {
    let h = id
        .bytes()
        .fold(o.seed, |h, b| crate::rng::mix(h ^ u64::from(b)));
    SplitMix64(h)
}

/// `a` and `b` with bytes of both signs; every selector nibble in every
/// position; each mode's rows with the upper selector bits set and clear.
fn prmt_group(id: &str, form: &str, mode: Option<PrmtMode>, o: &Options) -> Built {
    let mut rng = seeded(o, id);
    let pairs = [
        (0x4433_2211u32, 0x8877_6655u32),
        (0x80ff_7f01, 0x0180_ff7f),
        (0xffff_ffff, 0x0000_0000),
    ];
    let mut rows: Vec<[u32; 3]> = Vec::new();
    for &(a, b) in &pairs {
        for k in 0..16u32 {
            rows.push([a, b, k * 0x1111]);
            rows.push([
                a,
                b,
                k | ((15 - k) << 4) | (k ^ 5) << 8 | (k ^ 10) << 12 | 0xabcd_0000,
            ]);
        }
    }
    for _ in 0..o.random.min(1024) {
        let (a, b, c) = (rng.next_u64(), rng.next_u64(), rng.next_u64());
        rows.push([a as u32, b as u32, c as u32]);
    }
    let input = Layout::packed(&[("a", "b32", 4), ("b", "b32", 4), ("c", "b32", 4)]);
    let output = Layout::packed(&[("d", "b32", 4)]);
    let mut inb = Vec::new();
    let mut exp = Vec::new();
    for r in &rows {
        for v in r {
            push_le(&mut inb, u128::from(*v), 4);
        }
        push_le(&mut exp, u128::from(prmt(mode, r[0], r[1], r[2])), 4);
    }
    let cases = rows.len() as u64;
    let ptx = render(
        "prmt.ptx",
        &common(id, form, "9.7.9.7", cases, input.row, output.row, o.seed),
    );
    Built {
        group: group_1d(
            id.into(),
            "prmt",
            form,
            "9.7.9.7",
            VT,
            Provenance::Hardware,
            String::new(),
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

#[derive(Serialize)]
struct Elem {
    name: String,
    offset: u32,
}

#[derive(Serialize)]
struct MovCtx<'a> {
    #[serde(flatten)]
    common: Common<'a>,
    width: u32,
    elem: u32,
    count: u32,
    pack: bool,
    elems: Vec<Elem>,
    vector: String,
}

fn mov_group(id: &str, form: &str, width: u32, count: u32, pack: bool, o: &Options) -> Built {
    let mut rng = seeded(o, id);
    let elem = width / count;
    let names: Vec<String> = (0..count).map(|k| format!("e{k}")).collect();
    let elem_ty = format!("b{elem}");
    let whole_ty = format!("b{width}");
    let elem_fields: Vec<(&str, &str, u32)> = names
        .iter()
        .map(|n| (n.as_str(), elem_ty.as_str(), elem / 8))
        .collect();
    let elems_layout = Layout::packed(&elem_fields);
    let whole_layout = Layout::packed(&[("v", &whole_ty, width / 8)]);
    let (input, output) = if pack {
        (elems_layout, whole_layout)
    } else {
        (whole_layout, elems_layout)
    };
    let rows = 256u64;
    let mut inb = Vec::new();
    let mut exp = Vec::new();
    let mask = |bits: u32| {
        if bits >= 128 {
            u128::MAX
        } else {
            (1u128 << bits) - 1
        }
    };
    for _ in 0..rows {
        let v = (u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64())) & mask(width);
        if pack {
            let es: Vec<u128> = (0..count).map(|k| (v >> (k * elem)) & mask(elem)).collect();
            for e in &es {
                push_le(&mut inb, *e, elem / 8);
            }
            push_le(
                &mut exp,
                mov_pack(width, &es).expect("a spec shape"),
                width / 8,
            );
        } else {
            push_le(&mut inb, v, width / 8);
            let d = mov_unpack(width, count as usize, v).expect("a spec shape");
            for e in d.iter().take(count as usize) {
                push_le(&mut exp, *e, elem / 8);
            }
        }
    }
    let elems: Vec<Elem> = (0..count)
        .map(|k| Elem {
            name: format!("%e{k}"),
            offset: k * elem / 8,
        })
        .collect();
    let vector = format!(
        "{{{}}}",
        elems
            .iter()
            .map(|e| e.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let ptx = render(
        "mov.ptx",
        &MovCtx {
            common: common(id, form, "9.7.9.4", rows, input.row, output.row, o.seed),
            width,
            elem,
            count,
            pack,
            elems,
            vector,
        },
    );
    Built {
        group: group_1d(
            id.into(),
            "mov",
            form,
            "9.7.9.4",
            VT,
            Provenance::Hardware,
            String::new(),
            rows,
            input,
            output,
        ),
        ptx,
        input: inb,
        expected: exp,
        mask: Vec::new(),
    }
}

/// `.type` of `mov` (9.7.9.3).
const MOV_TYPES: [&str; 12] = [
    "pred", "b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64", "f32", "f64",
];

#[derive(Serialize)]
struct MovPlainCtx<'a> {
    #[serde(flatten)]
    common: Common<'a>,
    ty: &'a str,
}

/// `mov.type d, a` from a register (these groups and the special-register
/// ones ran on an H100 with these expectations: corpus/suite/sm_90):
/// "Write register `d` with the value of
/// `a`" (9.7.9.3), so the bits come back unchanged, whatever the type
/// (NaN payloads and signs of `.f32`/`.f64` included); a `.pred` goes in
/// and out as 0 or 1 through `setp`/`selp`.
fn mov_plain_group(id: &str, form: &str, ty: &str, o: &Options) -> Built {
    let mut rng = seeded(o, id);
    let bytes = match ty {
        "pred" => 4,
        _ => ty[1..].parse::<u32>().expect("a width") / 8,
    };
    let field = if ty == "pred" {
        "b32".to_string()
    } else {
        ty.to_string()
    };
    let layout = Layout::packed(&[("v", &field, bytes)]);
    let rows = 256u64;
    let (mut inb, mut exp) = (Vec::new(), Vec::new());
    for k in 0..rows {
        let v = match (ty, k) {
            ("pred", _) => u128::from(rng.next_u64() % 3 == 0) * u128::from(rng.next_u64()),
            // signalling and quiet NaNs with payloads, both signs
            ("f32", 0..=3) => [0x7f80_0001u128, 0xffc0_1234, 0x7fbf_ffff, 0x8000_0000][k as usize],
            ("f64", 0..=2) => [
                0x7ff0_0000_0000_0001u128,
                0xfff8_0000_0000_1234,
                0x8000_0000_0000_0000,
            ][k as usize],
            _ => u128::from(rng.next_u64()),
        } & ((1u128 << (bytes * 8)) - 1);
        push_le(&mut inb, v, bytes);
        let d = if ty == "pred" { u128::from(v != 0) } else { v };
        push_le(&mut exp, d, bytes);
    }
    let ptx = render(
        "mov_plain.ptx",
        &MovPlainCtx {
            common: common(id, form, "9.7.9.3", rows, layout.row, layout.row, o.seed),
            ty,
        },
    );
    Built {
        group: group_1d(
            id.into(),
            "mov",
            form,
            "9.7.9.3",
            VT,
            Provenance::Hardware,
            String::new(),
            rows,
            layout.clone(),
            layout,
        ),
        ptx,
        input: inb,
        expected: exp,
        mask: Vec::new(),
    }
}

fn mov_bytes(ty: &str) -> u32 {
    ty[1..].parse::<u32>().expect("a width") / 8
}

#[derive(Serialize)]
struct MovVecCtx<'a> {
    #[serde(flatten)]
    common: Common<'a>,
    ty: &'a str,
    count: u32,
    unpack: String,
    pack: String,
}

/// The element-wise vector `mov` (PTX ISA 6.4.3, "Vectors as Operands",
/// under the `mov` of 9.7.9.3): a vector register loaded whole is moved
/// into a brace list of scalars, and the scalars back into a second
/// vector register in reverse order, so element `i` of the result is
/// element `count - 1 - i` of the input, bits unchanged whatever the type
/// (each element moves as `mov.type d, a` does). All 18 groups passed on an
/// H100: corpus/suite/sm_90/mov-vec-results.json (`conformance/tests/
/// suite_mov_vec_gpu.rs`).
fn mov_vec_group(id: &str, form: &str, ty: &str, count: u32, o: &Options) -> Built {
    let mut rng = seeded(o, id);
    let bytes = mov_bytes(ty);
    let names: Vec<String> = (0..count).map(|k| format!("e{k}")).collect();
    let fields: Vec<(&str, &str, u32)> = names.iter().map(|n| (n.as_str(), ty, bytes)).collect();
    let layout = Layout::packed(&fields);
    let rows = 256u64;
    let (mut inb, mut exp) = (Vec::new(), Vec::new());
    let mask = (1u128 << (bytes * 8)) - 1;
    for _ in 0..rows {
        let elems: Vec<u128> = (0..count)
            .map(|_| u128::from(rng.next_u64()) & mask)
            .collect();
        for &e in &elems {
            push_le(&mut inb, e, bytes);
        }
        for &e in elems.iter().rev() {
            push_le(&mut exp, e, bytes);
        }
    }
    let regs: Vec<String> = (0..count).map(|k| format!("%e{k}")).collect();
    let reversed: Vec<String> = regs.iter().rev().cloned().collect();
    let ptx = render(
        "mov_vec.ptx",
        &MovVecCtx {
            common: common(id, form, "9.7.9.3", rows, layout.row, layout.row, o.seed),
            ty,
            count,
            unpack: regs.join(", "),
            pack: reversed.join(", "),
        },
    );
    Built {
        group: group_1d(
            id.into(),
            "mov",
            form,
            "9.7.9.3",
            VT,
            Provenance::Hardware,
            String::new(),
            rows,
            layout.clone(),
            layout,
        ),
        ptx,
        input: inb,
        expected: exp,
        mask: Vec::new(),
    }
}

#[derive(Serialize)]
struct Sreg {
    name: &'static str,
    offset: u32,
}

#[derive(Serialize)]
struct MovSregCtx<'a> {
    #[serde(flatten)]
    common: Common<'a>,
    sregs: Vec<Sreg>,
}

/// `mov.u32 d, sreg`: each thread writes the special registers that the
/// suite's 1-D launch of `cases` threads fixes (PTX ISA section 10):
/// `%tid.x` (index in the CTA), `%ntid.x` (CTA size), `%ctaid.x`,
/// `%nctaid.x`, `%laneid` (`%tid.x` mod 32 in a 1-D CTA), the `.y`
/// components of a 1-D launch (0, 1, 0, 1), and the cluster of one CTA
/// (`%cluster_ctarank` 0, `%cluster_nctarank` 1).
fn mov_sreg_group(id: &str, form: &str, cases: u64, o: &Options) -> Built {
    const SREGS: [&str; 12] = [
        "%tid.x",
        "%ntid.x",
        "%ctaid.x",
        "%nctaid.x",
        "%laneid",
        "%tid.y",
        "%ntid.y",
        "%ctaid.y",
        "%nctaid.y",
        "%cluster_ctarank",
        "%cluster_nctarank",
        "%tid.z",
    ];
    let (grid, block) = super::launch_1d(cases);
    let (grid, block) = (grid[0] as u64, block[0] as u64);
    let names: Vec<String> = SREGS
        .iter()
        .map(|r| r.trim_start_matches('%').replace('.', "_"))
        .collect();
    let fields: Vec<(&str, &str, u32)> = names.iter().map(|n| (n.as_str(), "u32", 4)).collect();
    let output = Layout::packed(&fields);
    let input = Layout::packed(&[("unused", "b32", 4)]);
    let (mut inb, mut exp) = (Vec::new(), Vec::new());
    for i in 0..cases {
        push_le(&mut inb, 0, 4);
        let (tid, cta) = (i % block, i / block);
        for v in [tid, block, cta, grid, tid % 32, 0, 1, 0, 1, 0, 1, 0] {
            push_le(&mut exp, u128::from(v), 4);
        }
    }
    let ptx = render(
        "mov_sreg.ptx",
        &MovSregCtx {
            common: common(id, form, "9.7.9.3", cases, input.row, output.row, o.seed),
            sregs: SREGS
                .iter()
                .enumerate()
                .map(|(k, name)| Sreg {
                    name,
                    offset: 4 * k as u32,
                })
                .collect(),
        },
    );
    Built {
        group: group_1d(
            id.into(),
            "mov",
            form,
            "9.7.9.3",
            VT,
            Provenance::Hardware,
            String::new(),
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

/// Warps over a table of `b` (in range, past the segment, above bit 4),
/// `c` (clamp and segment mask) and `membermask` values.
fn shfl_group(id: &str, form: &str, o: &Options) -> Built {
    let mode = ShflMode::from_qualifier(&form[9..form.len() - 4]).expect("a mode");
    let mut rng = seeded(o, id);
    let bs = [0u32, 1, 2, 3, 5, 8, 16, 31, 32, 33, 0xffff_ffff];
    let cs = [
        0x0u32, 0x1f, 0x7, 0xf, 0x181f, 0x1c00, 0x1e07, 0x1f1f, 0x0810,
    ];
    let masks = [0xffff_ffffu32, 0x0000_ffff, 0xaaaa_aaaa, 0x0f0f_0f0f];
    let mut rows: Vec<([u32; 32], u32, u32, u32)> = Vec::new();
    for &b in &bs {
        for &c in &cs {
            for &m in &masks {
                let a: [u32; 32] = std::array::from_fn(|_| rng.next_u64() as u32);
                rows.push((a, b, c, m));
            }
        }
    }
    for _ in 0..64 {
        let a: [u32; 32] = std::array::from_fn(|_| rng.next_u64() as u32);
        let m = (rng.next_u64() as u32) | 1;
        rows.push((a, rng.next_u64() as u32, rng.next_u64() as u32, m));
    }
    let a_names: Vec<String> = (0..32).map(|l| format!("a{l}")).collect();
    let mut fields: Vec<(&str, &str, u32)> =
        a_names.iter().map(|n| (n.as_str(), "b32", 4)).collect();
    fields.extend([("b", "b32", 4), ("c", "b32", 4), ("membermask", "b32", 4)]);
    let input = Layout::packed(&fields);
    let out_names: Vec<(String, String)> = (0..32)
        .map(|l| (format!("d{l}"), format!("p{l}")))
        .collect();
    let mut ofields: Vec<(&str, &str, u32)> = Vec::new();
    for (d, p) in &out_names {
        ofields.push((d.as_str(), "b32", 4));
        ofields.push((p.as_str(), "u32", 4));
    }
    let output = Layout::packed(&ofields);
    let mut inb = Vec::new();
    let mut exp = Vec::new();
    let mut mask = Vec::new();
    let mut any = false;
    for (a, b, c, m) in &rows {
        for v in a.iter().chain([b, c, m]) {
            push_le(&mut inb, u128::from(*v), 4);
        }
        let lanes: [ShflLane; 32] = std::array::from_fn(|l| {
            if m & (1 << l) != 0 {
                ShflLane::Executes {
                    a: a[l],
                    b: *b,
                    c: *c,
                    membermask: *m,
                }
            } else {
                ShflLane::GuardFalse
            }
        });
        let outs = shfl_sync(mode, &lanes);
        for o in outs.iter() {
            let (d, free, p) = match o {
                Some(Ok(r)) => (r.d.bits, r.d.unspecified, r.p as u32),
                // not executing: the kernel writes 0 and 0
                None => (0, 0, 0),
                Some(Err(u)) => unreachable!("every member executes with one mask: {u}"),
            };
            any |= free != 0;
            push_le(&mut exp, u128::from(d), 4);
            push_le(&mut exp, u128::from(p), 4);
            push_le(&mut mask, u128::from(free), 4);
            push_le(&mut mask, 0, 4);
        }
    }
    if !any {
        mask.clear();
    }
    let cases = rows.len() as u64;
    let ptx = render(
        "shfl.ptx",
        &common(id, form, "9.7.9.6", cases, input.row, output.row, o.seed),
    );
    let mut group = group_1d(
        id.into(),
        "shfl.sync",
        form,
        "9.7.9.6",
        VT,
        Provenance::Hardware,
        String::new(),
        cases,
        input,
        output,
    );
    group.block = [128, 1, 1];
    group.grid = [(cases * 32).div_ceil(128) as u32, 1, 1];
    Built {
        group,
        ptx,
        input: inb,
        expected: exp,
        mask,
    }
}
