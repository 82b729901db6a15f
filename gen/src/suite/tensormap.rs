//! The `tensormap.replace` groups (PTX ISA 9.7.9.26): every sm_90a
//! spelling. A group's kernel takes a tiled map of `in` (the manifest's
//! `tensor_maps`, which each implementation encodes its own way); each case
//! (one CTA) copies it into the first 128 bytes of its row of `out` (through
//! shared memory for `.shared::cta`), replaces one field with the row's
//! value (`.field1`, `.field2`) or the form's immediate (`.field3`), fences
//! the write for the tensormap proxy (`fence.proxy.tensormap::generic`
//! release, then acquire of the 128 bytes), loads the box at the row's
//! coordinates through the replaced map and writes the shared box out after
//! the map.
//!
//! Expected rows are the model's: [`tensor::replace`] on the map, then
//! [`tensor::tile_load`]. The map's 128 bytes in the row are the
//! implementation's encoding: don't-care. The values are ones that leave a
//! valid map (the spec's undefined replacements are the UB checker's).

use super::bulk::{chunks, spelled};
use super::manifest::{Layout, Provenance};
use super::mem::seeded;
use super::templates::{render, Common, Module};
use super::{generator, group_1d, Built, Options, Plan};
use crate::rng::SplitMix64;
use ptx_semantics::tensor::{self, Base, DataType, Field, MapText, Replace, TensorMap};
use serde::Serialize;

const VT: (&str, &str) = ("8.7", "sm_90a");
const CASES: u64 = 16;
/// Where the expected values place `in` (any 256-byte aligned address
/// gives the same bytes).
const BASE: u64 = 0x10_0000;
const SMEM: u32 = 1024;
/// The GPU run that backs the `hardware` groups (the tensor groups' run).
pub const GPU_RESULTS: &str = super::tensor::GPU_RESULTS;
/// Bytes of `in`: the tensor, and room to move its address.
const IN_ROW: u32 = 2048;

fn range(rng: &mut SplitMix64, lo: u64, hi: u64) -> u64 {
    lo + rng.next_u64() % (hi - lo + 1)
}

/// The map each group starts from: f32, `rank` 2 (3 for the `.rank`
/// groups), rows of 64 elements 256 bytes apart, boxes of 8 x 8 (so that
/// every swizzle mode is valid).
fn base_map(field: Field) -> TensorMap {
    let rank = if field == Field::Rank { 3 } else { 2 };
    TensorMap {
        data_type: DataType::F32,
        rank,
        global_address: BASE,
        global_dims: [64, 20, 2, 1, 1],
        global_strides: [256, 256 * 20, 0, 0],
        box_dims: [8, 8, 1, 1, 1],
        ..TensorMap::default()
    }
}

/// The `ord` of a `.field2` form's group, the value of a case (or the
/// `.field3` immediate of the group), and the map after it.
fn value(rng: &mut SplitMix64, field: Field, ord: u32, case: u64, imm: u64) -> u64 {
    match field {
        // the tensor's address moves by whole 16-byte steps inside `in`
        Field::GlobalAddress => 16 * range(rng, 0, 24),
        // rank 2 or 3
        Field::Rank => 1 + case % 2,
        Field::BoxDim if ord == 0 => 4 * range(rng, 1, 8),
        Field::BoxDim => range(rng, 1, 16),
        // dimension 0 up to the 64 elements a row holds, 1 up to 60 rows
        Field::GlobalDim => range(rng, 1, if ord == 0 { 64 } else { 60 }),
        Field::GlobalStride => 256 + 16 * range(rng, 0, 8),
        Field::ElementStride => range(rng, 1, 8),
        _ => imm,
    }
}

#[derive(Serialize)]
struct Ctx<'a> {
    #[serde(flatten)]
    module: Module<'a>,
    field: &'a str,
    space: &'a str,
    wide: bool,
    replace: &'a str,
    ord: String,
    value: String,
    extent: u32,
    x4: &'static str,
    c2: &'static str,
    c3: &'static str,
}

fn build(id: &str, text: &str, o: &Options) -> Built {
    let mut rng = seeded(o, id);
    let field = Field::ALL
        .into_iter()
        .find(|f| text.contains(&format!(".{}.", f.qualifier().trim_start_matches('.'))))
        .expect("a field");
    let space = if text.contains(".shared::cta") {
        "shared::cta"
    } else if text.contains(".global.") {
        "global"
    } else {
        "generic"
    };
    let map = base_map(field);
    let ord = match field {
        Field::BoxDim | Field::GlobalDim => (rng.next_u64() % 2) as u32,
        Field::ElementStride => 1,
        _ => 0,
    };
    // the `.field3` immediate: one per spelling, a valid map after it
    let imm = match (field, space) {
        (Field::ElemType, "generic") => 3,    // .s32
        (Field::ElemType, "global") => 6,     // .f16
        (Field::ElemType, _) => 10,           // .bf16
        (Field::SwizzleMode, "generic") => 1, // 32B
        (Field::SwizzleMode, "global") => 2,  // 64B
        (Field::SwizzleMode, _) => 3,         // 128B
        (Field::FillMode, _) => 1,            // OOB-NaN
        _ => 0,                               // interleave: none
    };
    // `in` is the tensor; each row starts with the case's coordinates (3 x
    // s32), value (u64 at 16) and byte count (u32 at 24), which the tensor
    // holds like any other bytes
    let mut inb: Vec<u8> = (0..CASES as usize * IN_ROW as usize)
        .map(|_| rng.next_u64() as u8)
        .collect();
    let mut rows = Vec::new();
    let mut extent = 0;
    for case in 0..CASES {
        let v = value(&mut rng, field, ord, case, imm);
        let m = tensor::replace(&map, &Replace::new(field, ord, v))
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        // the address value is an offset in `in`: the kernel adds `in`
        let m = TensorMap {
            global_address: if field == Field::GlobalAddress {
                BASE + v
            } else {
                m.global_address
            },
            ..m
        };
        assert!(m.validate_on(90).is_ok(), "{id}: {:?}", m.validate_on(90));
        let shape = tensor::box_shape(&m).expect("tiled");
        let es = i64::from(m.elem_size().unwrap_or(1));
        let step = 16 / es;
        let mut c = vec![0i32; 3];
        for (i, x) in c.iter_mut().enumerate().take(m.rank as usize) {
            let d = m.global_dims[i] as i64;
            let b = i64::from(m.box_dims[i]);
            let y = match case % 3 {
                0 => range(&mut rng, 0, (d - b).max(0) as u64) as i64,
                1 => d - b / 2,
                _ => -(b / 2),
            };
            *x = if i == 0 { y.div_euclid(step) * step } else { y } as i32;
        }
        let row = &mut inb[case as usize * IN_ROW as usize..][..32];
        row.fill(0);
        for (d, &x) in c.iter().enumerate() {
            row[4 * d..4 * d + 4].copy_from_slice(&x.to_le_bytes());
        }
        row[16..24].copy_from_slice(&v.to_le_bytes());
        row[24..28].copy_from_slice(&shape.bytes.to_le_bytes());
        extent = extent.max(shape.extent);
        c.truncate(m.rank as usize);
        rows.push((c, m));
    }
    let global = |a: u64, n: usize| {
        let off = a.checked_sub(BASE)? as usize;
        inb.get(off..off + n).map(<[u8]>::to_vec)
    };
    let mut exp = Vec::new();
    let mut mask = Vec::new();
    for (c, m) in &rows {
        let tile = tensor::tile_load(m, c, SMEM, &global).unwrap_or_else(|e| panic!("{id}: {e}"));
        let mut sh: Vec<u8> = (0..extent / 4)
            .flat_map(|w| tensor::poison_word(w).to_le_bytes())
            .collect();
        tile.apply(&mut sh[..tile.bytes.len()]);
        exp.extend_from_slice(&[0u8; 128]);
        exp.extend_from_slice(&sh);
        mask.extend_from_slice(&[0xffu8; 128]);
        mask.resize(mask.len() + extent as usize, 0);
    }
    let out_row = 128 + extent;
    let input = Layout {
        row: IN_ROW,
        fields: vec![
            super::manifest::Field {
                name: "coords".into(),
                ty: "b8".into(),
                offset: 0,
                bytes: 12,
            },
            super::manifest::Field {
                name: "value".into(),
                ty: "b64".into(),
                offset: 16,
                bytes: 8,
            },
            super::manifest::Field {
                name: "bytes".into(),
                ty: "u32".into(),
                offset: 24,
                bytes: 4,
            },
        ],
    };
    let mut out_fields = chunks("map", 0, 128);
    out_fields.extend(chunks("shared", 128, extent));
    let output = Layout {
        row: out_row,
        fields: out_fields,
    };
    let text_map = MapText {
        map,
        base: Base::Named("in".into()),
        offset: 0,
    }
    .to_string();
    let module = Module {
        common: Common {
            id,
            form: text,
            section: "9.7.9.26",
            version: VT.0,
            target: VT.1,
            entry: "k",
            cases: CASES,
            in_row: input.row,
            out_row,
            generator: generator(),
            seed: o.seed,
        },
        about: vec![
            format!("map0: {text_map}"),
            "Row i of `in`: the coordinates (3 x s32), the value (u64 at 16), the box's bytes (u32 at 24); the tensor is all of `in`.".into(),
            "Row i of `out`: the replaced map (the implementation's 128 bytes: don't-care), then the shared box loaded through it (poison words before).".into(),
        ],
        decls: Vec::new(),
        directives: Vec::new(),
    };
    let wide = field.operand_type() == tensor::OperandType::B64;
    let ptx = render(
        "tensormap_replace.ptx",
        &Ctx {
            module,
            field: field.qualifier().trim_start_matches('.'),
            space,
            wide,
            replace: text,
            ord: if field.takes_ord() {
                ord.to_string()
            } else {
                String::new()
            },
            value: if field.needs_immediate() {
                imm.to_string()
            } else if wide {
                "%v64".into()
            } else {
                "%v32".into()
            },
            extent,
            x4: "{%x0, %x1, %x2, %x3}",
            c2: "{%c0, %c1}",
            c3: "{%c0, %c1, %c2}",
        },
    )
    .replacen(
        "(.param .u64 in, .param .u64 out)",
        "(.param .u64 in, .param .u64 out, .param .align 64 .b8 map0[128])",
        1,
    );
    let mut group = group_1d(
        id.to_string(),
        "tensormap.replace",
        text,
        "9.7.9.26",
        VT,
        Provenance::Hardware,
        format!("run on an H100 with the model's results ({GPU_RESULTS})"),
        CASES,
        input,
        output,
    );
    group.grid = [CASES as u32, 1, 1];
    group.block = [1, 1, 1];
    group.tensor_maps = vec![text_map];
    Built {
        group,
        ptx,
        input: inb,
        expected: exp,
        mask,
    }
}

/// Every sm_90a spelling of `tensormap.replace`.
pub fn plans() -> Vec<Plan> {
    spelled("tensormap.replace", VT)
        .into_iter()
        .map(|text| {
            let id = format!("{text}/load");
            let form = text.clone();
            Plan::new(id.clone(), form, move |o| Some(build(&id, &text, o)))
        })
        .collect()
}
