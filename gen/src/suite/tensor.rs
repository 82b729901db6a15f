//! The tensor-copy groups (issue 16): `cp.async.bulk.tensor` in both
//! directions (PTX ISA 9.7.9.25.5.2), `cp.reduce.async.bulk.tensor`
//! (9.7.9.25.5.3) and `cp.async.bulk.prefetch.tensor` (9.7.9.25.5.4), each
//! sm_90a spelling of the tiled mode and of the im2col loads with a group,
//! and each sm_100a spelling of `.tile::gather4` and `.tile::scatter4` but
//! `.cta_group::2` with a `spec` group ([`tensor::gather4_load`],
//! [`tensor::scatter4_store`]; a gather's rows lie inside, across an edge
//! and outside, a scatter's case writes its own four rows in some order).
//!
//! A group's kernel takes a tensor map after `in` and `out` (the manifest's
//! `tensor_maps`, in the text form of [`MapText`]), which each
//! implementation encodes its own way. One CTA handles one case:
//! - loads: the tensor is the whole `in` buffer; row i holds the box's
//!   coordinates (and, for `.im2col`, the im2col offsets at byte 20); the
//!   CTA poisons its shared box (word w: `w * 0x9e3779b1 + 0x7f4a7c15`),
//!   copies the box in, waits on its mbarrier for the
//!   box's bytes and copies the whole shared extent out (with
//!   `.multicast::cluster`, the first CTA of each cluster of two copies its
//!   box into both);
//! - stores: the tensor is the `out` buffer, its outermost dimension one
//!   slice per case; row i holds the coordinates (the last one the case)
//!   and the shared box's bytes;
//! - reductions: as stores, the slice first written from the row.
//!
//! Expected rows are the model's: [`tensor::tile_load`],
//! [`tensor::im2col_load`] and [`tensor::tile_store`] over the same bytes, [`red::reduce_tensor`] for each
//! element. The map configurations (element type, box, element strides,
//! swizzle, fill, L2 promotion, box positions inside, across an edge and
//! outside) are drawn per group from the seed. Store groups keep
//! `globalDim[0] * elementSize` a multiple of 16: where it is not, sm_90
//! writes to the end of the row's last 16-byte granule
//! (docs/tensor-observations.md, observation 8), past what the spec's
//! reading gives.

use super::bulk::{chunks, spelled};
use super::manifest::{Field, Layout, Provenance};
use super::mem::seeded;
use super::templates::{render, Common, Module};
use super::{generator, group_1d, Built, Options, Plan};
use crate::rng::SplitMix64;
use ptx_semantics::sim::reduce::{self as red, BulkRedOp};
use ptx_semantics::tensor::{
    self, Base, DataType, L2Promotion, MapText, OobFill, Swizzle, TensorMap,
};
use serde::Serialize;

/// The PTX version and target of every group (`.shared::cta`
/// destinations need PTX ISA 8.6; the tensor copies need `sm_90a` for
/// `.multicast::cluster` only, and are compiled for it throughout).
const VT: (&str, &str) = ("8.7", "sm_90a");
/// The PTX version and target of the `.tile::gather4` and `.tile::scatter4`
/// groups (sm_100 only; `.shared::cluster` gather4 needs `sm_100a`).
const VT100: (&str, &str) = ("8.7", "sm_100a");
/// Cases (CTAs) per group.
const CASES: u64 = 16;
/// Where the expected values place the buffers: any 256-byte aligned
/// address gives the same bytes (the rules look at 16-byte alignment).
const BASE: u64 = 0x10_0000;
/// A 1024-byte aligned shared address, as `sh` has.
const SMEM: u32 = 1024;
/// The GPU run that backs the `hardware` groups.
pub const GPU_RESULTS: &str = "corpus/suite/sm_90/tensor-results.json.gz";

/// The sm_90 element types (every one but sm_100's packed ones).
fn types() -> impl Iterator<Item = DataType> {
    DataType::ALL.into_iter().filter(|t| !t.is_packed())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dir {
    Load,
    Store,
    Reduce(BulkRedOp),
}

fn pick<T: Copy>(rng: &mut SplitMix64, v: &[T]) -> T {
    v[(rng.next_u64() % v.len() as u64) as usize]
}

fn range(rng: &mut SplitMix64, lo: i64, hi: i64) -> i64 {
    lo + (rng.next_u64() % (hi - lo + 1) as u64) as i64
}

/// A random valid map of rank `rank` for `dir` (its address `BASE`); for
/// stores and reductions the outermost dimension has one index per case.
fn draw_map(rng: &mut SplitMix64, rank: u32, dir: Dir, ty: DataType) -> TensorMap {
    let es = ty.size().unwrap_or(1);
    let r = rank as usize;
    loop {
        let mut m = TensorMap {
            data_type: ty,
            rank,
            global_address: BASE,
            ..TensorMap::default()
        };
        m.swizzle = pick(
            rng,
            &[Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128],
        );
        if dir != Dir::Load && r == 1 {
            m.swizzle = Swizzle::None;
        }
        let span = match m.swizzle {
            Swizzle::None => 256,
            s => s.bytes(),
        };
        // the inner box: a multiple of 16 bytes, at most the span
        let units = range(rng, 1, i64::from(span / 16).min(8)) as u32;
        m.box_dims[0] = units * 16 / es;
        for i in 1..r {
            m.box_dims[i] = range(rng, 1, 6) as u32;
            m.element_strides[i] = pick(rng, &[1, 1, 1, 2, 3]);
        }
        let mut es0 = u64::from(m.box_dims[0]) + range(rng, 0, 24) as u64;
        if dir != Dir::Load {
            // rows end on a 16-byte boundary (see the module's note)
            let per = u64::from(16 / es.min(16));
            es0 = es0.div_ceil(per) * per;
        }
        m.global_dims[0] = es0;
        for i in 1..r {
            m.global_dims[i] = u64::from(m.box_dims[i]) + range(rng, 0, 5) as u64;
        }
        if dir != Dir::Load {
            if r > 1 {
                m.box_dims[r - 1] = 1;
                m.element_strides[r - 1] = 1;
                m.global_dims[r - 1] = CASES;
            } else {
                // a 1-D tensor: each case owns a stretch of it
                m.global_dims[0] = CASES * es0.max(u64::from(m.box_dims[0]));
            }
        }
        let mut acc = (m.global_dims[0] * u64::from(es)).div_ceil(16) * 16;
        for i in 1..r {
            let pad = if dir == Dir::Load {
                16 * range(rng, 0, 2) as u64
            } else {
                0
            };
            m.global_strides[i - 1] = acc + pad;
            acc = (acc + pad) * m.global_dims[i];
        }
        m.oob_fill = if ty.is_float() && rng.next_u64() % 3 == 0 {
            OobFill::NanRequestZeroFma
        } else {
            OobFill::Zero
        };
        m.l2_promotion = pick(
            rng,
            &[
                L2Promotion::None,
                L2Promotion::B64,
                L2Promotion::B128,
                L2Promotion::B256,
            ],
        );
        let extent = tensor::box_shape(&m).map(|s| s.extent).unwrap_or(u32::MAX);
        if m.validate_on(90).is_ok() && extent <= 8192 && tensor_bytes(&m) <= 96 * 1024 {
            return m;
        }
    }
}

/// A random valid im2col map of rank `rank` (3 to 5): C, then W, H, D,
/// then N.
fn draw_im2col_map(rng: &mut SplitMix64, rank: u32, ty: DataType) -> TensorMap {
    let es = ty.size().unwrap_or(1);
    let r = rank as usize;
    loop {
        let mut m = TensorMap {
            data_type: ty,
            rank,
            global_address: BASE,
            ..TensorMap::default()
        };
        m.swizzle = pick(
            rng,
            &[Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128],
        );
        let span = match m.swizzle {
            Swizzle::None => 128,
            s => s.bytes(),
        };
        let units = range(rng, 1, i64::from(span / 16).min(4)) as u32;
        let cpp = units * 16 / es;
        m.global_dims[0] = u64::from(cpp) * range(rng, 1, 2) as u64
            + range(rng, 0, 1) as u64 * u64::from(16 / es.min(16));
        let mut ic = tensor::Im2col {
            channels_per_pixel: cpp,
            ..tensor::Im2col::default()
        };
        for i in 1..r - 1 {
            m.global_dims[i] = range(rng, 3, 7) as u64;
            m.element_strides[i] = pick(rng, &[1, 1, 2]);
            ic.lower_corner[i - 1] = range(rng, -2, 0) as i32;
            ic.upper_corner[i - 1] = range(rng, -1, 2) as i32;
        }
        m.global_dims[r - 1] = range(rng, 1, 3) as u64;
        m.element_strides[r - 1] = pick(rng, &[1, 1, 2]);
        ic.pixels_per_column = range(rng, 1, 24) as u32;
        m.mode = tensor::Mode::Im2col(ic);
        let mut acc = (m.global_dims[0] * u64::from(es)).div_ceil(16) * 16;
        for i in 1..r {
            m.global_strides[i - 1] = acc;
            acc *= m.global_dims[i];
        }
        m.oob_fill = if ty.is_float() && rng.next_u64() % 3 == 0 {
            OobFill::NanRequestZeroFma
        } else {
            OobFill::Zero
        };
        let ok = m.validate_on(90).is_ok()
            && tensor::im2col_bytes(&m).is_ok()
            && tensor::im2col_shape(&m).is_ok_and(|s| s.extent <= 8192);
        if ok {
            return m;
        }
    }
}

/// A random valid im2col map for `.im2col_no_offs` stores and reductions
/// (rank 3 to 5): the bounding box inside the tensor (PTX ISA 9.7.9.25.5.1:
/// "Bounding-Box Lower-Corner must be non-negative. Bounding-Box
/// Upper-Corner must be non-positive"), rows of whole 16-byte granules, one
/// image (N) per case, and columns that stay in their image.
fn draw_im2col_store_map(rng: &mut SplitMix64, rank: u32, ty: DataType) -> TensorMap {
    let es = ty.size().unwrap_or(1);
    let r = rank as usize;
    loop {
        let mut m = draw_im2col_map(rng, rank, ty);
        let tensor::Mode::Im2col(mut ic) = m.mode else {
            unreachable!("an im2col map")
        };
        m.global_dims[0] = u64::from(ic.channels_per_pixel) * range(rng, 1, 2) as u64;
        let mut positions = 1u64;
        for i in 1..r - 1 {
            ic.lower_corner[i - 1] = range(rng, 0, 1) as i32;
            ic.upper_corner[i - 1] = range(rng, -1, 0) as i32;
            let len = m.global_dims[i] as i64 + i64::from(ic.upper_corner[i - 1])
                - i64::from(ic.lower_corner[i - 1]);
            positions *= (len.max(0) as u64).div_ceil(u64::from(m.element_strides[i]));
        }
        m.global_dims[r - 1] = CASES;
        m.element_strides[r - 1] = 1;
        ic.pixels_per_column = ic.pixels_per_column.min(positions as u32).max(1);
        m.mode = tensor::Mode::Im2col(ic);
        let mut acc = (m.global_dims[0] * u64::from(es)).div_ceil(16) * 16;
        for i in 1..r {
            m.global_strides[i - 1] = acc;
            acc *= m.global_dims[i];
        }
        let ok = m.validate_on(90).is_ok()
            && tensor::im2col_bytes(&m).is_ok()
            && tensor::im2col_shape(&m).is_ok_and(|s| s.extent <= 8192);
        if ok {
            return m;
        }
    }
}

/// A random valid map for `.im2col::w{::128}` (PTX ISA 5.5.5: the
/// swizzling mode "must not be (i) no swizzle and (ii) 128-byte swizzle
/// mode with 32-byte atomicity with 8-byte flip"), its column small enough
/// for 128 pixels.
fn draw_im2col_w_map(rng: &mut SplitMix64, rank: u32, ty: DataType, w128: bool) -> TensorMap {
    loop {
        let m = draw_im2col_map(rng, rank, ty);
        let small = tensor::im2col_shape(&m).is_ok_and(|s| !w128 || s.pitch <= 64);
        if m.swizzle != Swizzle::None && small {
            return m;
        }
    }
}

/// The coordinates of an `.im2col_no_offs` store: a channel run inside the
/// row, the filter base at the box's lower corner, the case's image.
fn draw_im2col_store_coords(rng: &mut SplitMix64, m: &TensorMap, case: u64) -> Vec<i32> {
    let r = m.rank as usize;
    let tensor::Mode::Im2col(ic) = m.mode else {
        unreachable!("an im2col map")
    };
    let runs = m.global_dims[0] / u64::from(ic.channels_per_pixel);
    let mut c =
        vec![(range(rng, 0, runs as i64 - 1) as u64 * u64::from(ic.channels_per_pixel)) as i32];
    for i in 1..r - 1 {
        c.push(ic.lower_corner[i - 1]);
    }
    c.push(case as i32);
    c
}

/// Coordinates and im2col offsets of an im2col copy: the channel a
/// multiple of 16 bytes, the filter base inside the bounding box (PTX ISA
/// 5.5.4.1: "The filter corner location must be within the bounding box").
fn draw_im2col_coords(rng: &mut SplitMix64, m: &TensorMap) -> (Vec<i32>, Vec<u16>) {
    let r = m.rank as usize;
    let tensor::Mode::Im2col(ic) = m.mode else {
        unreachable!("an im2col map")
    };
    let es = i64::from(m.elem_size().unwrap_or(1));
    let step = 16 / es.min(16);
    let mut c =
        vec![range(rng, 0, m.global_dims[0] as i64 - 1).div_euclid(step) as i32 * step as i32];
    for i in 1..r - 1 {
        let lo = i64::from(ic.lower_corner[i - 1]);
        let hi = m.global_dims[i] as i64 - 1 + i64::from(ic.upper_corner[i - 1]);
        c.push(range(rng, lo, hi) as i32);
    }
    c.push(range(rng, 0, m.global_dims[r - 1] as i64 - 1) as i32);
    let offs = (0..r - 2).map(|_| range(rng, 0, 3) as u16).collect();
    (c, offs)
}

/// Bytes from the map's address to the end of its last element.
fn tensor_bytes(m: &TensorMap) -> u64 {
    let r = m.rank as usize;
    let es = u64::from(m.elem_size().unwrap_or(1));
    let mut end = m.global_dims[0] * es;
    for i in 1..r {
        end += (m.global_dims[i] - 1) * m.global_strides[i - 1];
    }
    end
}

/// Coordinates of a box: inside, across an edge, outside, far outside
/// (loads), the first one a multiple of 16 bytes (PTX ISA 5.5.3.1).
fn draw_coords(rng: &mut SplitMix64, m: &TensorMap, dir: Dir, case: u64) -> Vec<i32> {
    let r = m.rank as usize;
    let es = i64::from(m.elem_size().unwrap_or(1));
    let step = 16 / es.min(16);
    let kind = case % 4;
    let mut c = Vec::with_capacity(r);
    for i in 0..r {
        let d = m.global_dims[i] as i64;
        let b = i64::from(m.box_dims[i]) * i64::from(m.element_strides[i].max(1));
        let mut x = match (dir, kind) {
            (_, 0) => range(rng, 0, (d - b).max(0)),
            (Dir::Load, 1) => range(rng, -b + 1, d - 1),
            (Dir::Load, 2) => range(rng, -2 * b, d + b),
            (Dir::Load, _) => pick(rng, &[-100_000, 1 << 20, d + 64]),
            _ => range(rng, 0, d - 1),
        };
        if i == 0 {
            x = x.div_euclid(step) * step;
        }
        c.push(x as i32);
    }
    if dir != Dir::Load {
        if r == 1 {
            // the box stays in the case's own stretch: cases do not
            // overlap (the CTAs run in no particular order)
            let own = (m.global_dims[0] / CASES) as i64;
            let x = range(rng, 0, (own - i64::from(m.box_dims[0])).max(0));
            c[0] = ((case as i64 * own + x).div_euclid(step) * step) as i32;
        } else {
            c[r - 1] = case as i32;
        }
    }
    c
}

/// Coordinates of a `.tile::gather4` or `.tile::scatter4` copy: `{col_idx,
/// row_idx0, .., row_idx3}`, the column a multiple of 16 bytes (PTX ISA
/// 5.5.3.1). Loads take rows inside, across an edge and outside; a store's
/// rows are its case's four rows of the tensor in some order (cases do not
/// overlap, and no row is written twice).
fn draw_rows4_coords(rng: &mut SplitMix64, m: &TensorMap, dir: Dir, case: u64) -> Vec<i32> {
    let es = i64::from(m.elem_size().unwrap_or(1));
    let step = 16 / es.min(16);
    let (d0, d1) = (m.global_dims[0] as i64, m.global_dims[1] as i64);
    let b0 = i64::from(m.box_dims[0]);
    let kind = case % 4;
    let x = match (dir, kind) {
        (Dir::Load, 0) => range(rng, 0, (d0 - b0).max(0)),
        (Dir::Load, 1) => range(rng, -b0 + 1, d0 - 1),
        (Dir::Load, 2) => range(rng, -2 * b0, d0 + b0),
        (Dir::Load, _) => pick(rng, &[-100_000, 1 << 20, d0 + 64]),
        _ => range(rng, 0, d0 - 1),
    };
    let mut c = vec![(x.div_euclid(step) * step) as i32];
    if dir == Dir::Load {
        for _ in 0..4 {
            let y = match kind {
                0 => range(rng, 0, d1 - 1),
                3 => pick(rng, &[-100_000, 0, 1 << 20, d1]),
                _ => range(rng, -2, d1 + 1),
            };
            c.push(y as i32);
        }
    } else {
        let mut rows: Vec<i32> = (0..4).map(|k| (4 * case + k) as i32).collect();
        for k in (1..4).rev() {
            let j = (rng.next_u64() % (k as u64 + 1)) as usize;
            rows.swap(k, j);
        }
        c.extend(rows);
    }
    c
}

#[derive(Serialize)]
struct Ctx<'a> {
    #[serde(flatten)]
    module: Module<'a>,
    mode: &'static str,
    copy: &'a str,
    prefetch: &'a str,
    hint: bool,
    multicast: bool,
    /// `.cta_group::2`.
    pair: bool,
    dims: u32,
    coords: String,
    noffsets: u32,
    offsets: String,
    extent: u32,
    bytes: u32,
    out_row: u32,
    x4: &'static str,
}

fn layouts(dir: Dir, rank: u32, extent: u32, slice: u32) -> (Layout, Layout) {
    let mut f: Vec<Field> = (0..rank)
        .map(|d| Field {
            name: format!("c{d}"),
            ty: "s32".into(),
            offset: 4 * d,
            bytes: 4,
        })
        .collect();
    let row = match dir {
        Dir::Load => 32,
        Dir::Store => 32 + extent,
        Dir::Reduce(_) => 32 + extent + slice,
    };
    if dir != Dir::Load {
        f.extend(chunks("box", 32, extent));
    }
    if let Dir::Reduce(_) = dir {
        f.extend(chunks("old", 32 + extent, slice));
    }
    let out = match dir {
        Dir::Load => extent,
        _ => slice,
    };
    (
        Layout { row, fields: f },
        Layout {
            row: out,
            fields: chunks(if dir == Dir::Load { "shared" } else { "slice" }, 0, out),
        },
    )
}

fn about(dir: Dir, map: &str) -> Vec<String> {
    let mut v = vec![format!("map0: {map}")];
    v.push(match dir {
        Dir::Load => "Row i of `in`: the box's coordinates (s32 each); the tensor is all of `in`. Row i of `out`: the CTA's shared box after the copy (poison words before), waited on its mbarrier.".into(),
        Dir::Store => "Row i of `in`: the coordinates (the last one i), then the shared box's bytes. Row i of `out`: the tensor's slice i after the copy (0xA5 before), waited with wait_group 0.".into(),
        Dir::Reduce(_) => "Row i of `in`: the coordinates (the last one i), the shared box's bytes, then slice i's bytes before. Row i of `out`: slice i after the reduction, waited with wait_group 0.".into(),
    });
    v
}

fn rows4_about(dir: Dir, map: &str) -> Vec<String> {
    vec![
        format!("map0: {map}"),
        match dir {
            Dir::Store => "Row i of `in`: {col_idx, row_idx0, .., row_idx3} (s32 each; the rows are 4i to 4i+3 in some order), then the shared box's bytes. Row i of `out`: the tensor's rows 4i to 4i+3 after the copy (0xA5 before), waited with wait_group 0.".into(),
            _ => "Row i of `in`: {col_idx, row_idx0, .., row_idx3} (s32 each); the tensor is all of `in`. Row i of `out`: the CTA's shared box of four rows after the copy (poison words before), waited on its mbarrier.".into(),
        },
    ]
}

/// One group: the spelling `text` of `instr` (and for prefetch groups the
/// load that follows it).
fn build(id: &str, instr: &str, text: &str, o: &Options) -> Built {
    let mut rng = seeded(o, id);
    let prefetch = instr == "cp.async.bulk.prefetch.tensor";
    let rank: u32 = text
        .split('.')
        .find_map(|q| q.strip_suffix('d').and_then(|n| n.parse().ok()))
        .unwrap_or(1);
    let dir = if instr == "cp.reduce.async.bulk.tensor" {
        let op = [
            (".and.", BulkRedOp::And),
            (".or.", BulkRedOp::Or),
            (".xor.", BulkRedOp::Xor),
            (".add.", BulkRedOp::Add),
            (".inc.", BulkRedOp::Inc),
            (".dec.", BulkRedOp::Dec),
            (".min.", BulkRedOp::Min),
            (".max.", BulkRedOp::Max),
        ]
        .into_iter()
        .find(|(q, _)| text.contains(q))
        .map_or(BulkRedOp::Add, |(_, op)| op);
        Dir::Reduce(op)
    } else if text.contains(".global.shared::cta") {
        Dir::Store
    } else {
        Dir::Load
    };
    let ty = match dir {
        Dir::Reduce(op) => {
            let ok: Vec<DataType> = types()
                .filter(|&t| red::tensor_type(op, t).is_some())
                .collect();
            pick(&mut rng, &ok)
        }
        _ => pick(&mut rng, &types().collect::<Vec<_>>()),
    };
    let im2col = text.contains(".im2col");
    let rows4 = text.contains(".tile::gather4") || text.contains(".tile::scatter4");
    let pair = text.contains(".cta_group::2");
    // `.im2col::w{::128}`: one wHalo a group, a wOffset a case
    let wmode = text.contains(".im2col::w");
    let w128 = text.contains(".im2col::w::128");
    let vt = if rows4 || wmode || pair { VT100 } else { VT };
    let mut map = if rows4 {
        let mut m = draw_map(&mut rng, rank, dir, ty);
        // the map's box is one row (the rows are the row indices')
        m.box_dims[1] = 1;
        m.element_strides[1] = 1;
        if dir != Dir::Load {
            // four rows a case
            m.global_dims[1] = 4 * CASES;
        }
        m
    } else if im2col && dir != Dir::Load {
        draw_im2col_store_map(&mut rng, rank, ty)
    } else if wmode {
        draw_im2col_w_map(&mut rng, rank, ty, w128)
    } else if im2col {
        draw_im2col_map(&mut rng, rank, ty)
    } else {
        draw_map(&mut rng, rank, dir, ty)
    };
    let w_halo = if wmode {
        range(&mut rng, 0, 3) as u16
    } else {
        0
    };
    let w_of = |w_offset: u16| tensor::Im2colW {
        w128,
        w_halo,
        w_offset,
    };
    let (extent, bytes) = if wmode {
        let shape = tensor::im2col_w_shape(&map, w_of(0)).expect("a drawn map is im2col");
        (shape.extent, shape.bytes)
    } else if im2col {
        let shape = tensor::im2col_shape(&map).expect("a drawn map is im2col");
        (shape.extent, shape.bytes)
    } else if rows4 {
        let shape = tensor::gather4_shape(&map).expect("a drawn map is tiled and valid");
        (shape.extent, shape.bytes)
    } else {
        let shape = tensor::box_shape(&map).expect("a drawn map is tiled and valid");
        (shape.extent, shape.bytes)
    };
    let es = map.elem_size().unwrap_or(1) as usize;
    let multicast = text.contains(".multicast::cluster");
    let mut slice = match dir {
        Dir::Load => 0,
        _ => {
            let r = rank as usize;
            let s = if r == 1 {
                map.global_dims[0] / CASES * es as u64
            } else {
                map.global_strides[r - 2]
            };
            s.div_ceil(16) as u32 * 16
        }
    };
    if dir != Dir::Load && rank > 1 {
        // slices are whole rows of `out`
        let r = rank as usize;
        map.global_strides[r - 2] = u64::from(slice);
        if rows4 {
            slice *= 4;
        }
    }
    let ncoords = if rows4 { 5 } else { rank };
    let (input, output) = layouts(dir, ncoords, extent, slice);
    let tensor_len = tensor_bytes(&map) as usize;
    // rows long enough for the tensor to lie in `in`
    let mut input = input;
    if dir == Dir::Load {
        input.row = input
            .row
            .max((tensor_len as u64).div_ceil(CASES).div_ceil(16) as u32 * 16);
    }
    let row_in = input.row as usize;
    let mut inb: Vec<u8> = (0..CASES as usize * row_in)
        .map(|_| rng.next_u64() as u8)
        .collect();
    let mut exp = Vec::new();
    let mut mask = Vec::new();
    let mut out = vec![0xa5u8; CASES as usize * output.row as usize];
    let mut out_mask = vec![0u8; out.len()];
    let (coords_of, offsets_of): (Vec<Vec<i32>>, Vec<Vec<u16>>) = (0..CASES)
        .map(|i| {
            if rows4 {
                (draw_rows4_coords(&mut rng, &map, dir, i), Vec::new())
            } else if im2col && dir != Dir::Load {
                (draw_im2col_store_coords(&mut rng, &map, i), Vec::new())
            } else if wmode {
                let (c, _) = draw_im2col_coords(&mut rng, &map);
                (c, vec![w_halo, range(&mut rng, 0, 3) as u16])
            } else if im2col {
                draw_im2col_coords(&mut rng, &map)
            } else {
                (draw_coords(&mut rng, &map, dir, i), Vec::new())
            }
        })
        .unzip();
    for (i, c) in coords_of.iter().enumerate() {
        let row = &mut inb[i * row_in..(i + 1) * row_in];
        row[..32].fill(0);
        for (d, &x) in c.iter().enumerate() {
            row[4 * d..4 * d + 4].copy_from_slice(&x.to_le_bytes());
        }
        for (d, &x) in offsets_of[i].iter().enumerate() {
            row[20 + 2 * d..22 + 2 * d].copy_from_slice(&x.to_le_bytes());
        }
    }
    match dir {
        Dir::Load => {
            let global = |a: u64, n: usize| {
                let off = a.checked_sub(BASE)? as usize;
                inb.get(off..off + n).map(<[u8]>::to_vec)
            };
            for i in 0..CASES as usize {
                // with multicast, the first CTA of the pair issues
                let k = if multicast { i & !1 } else { i };
                let c = &coords_of[k];
                let tile = if wmode {
                    tensor::im2col_w_load(&map, c, w_of(offsets_of[k][1]), SMEM, &global)
                } else if im2col {
                    tensor::im2col_load(&map, c, &offsets_of[k], SMEM, &global)
                } else if rows4 {
                    tensor::gather4_load(&map, c, SMEM, &global)
                } else {
                    tensor::tile_load(&map, c, SMEM, &global)
                }
                .unwrap_or_else(|e| panic!("{id}: case {i}: {e}"));
                let mut sh: Vec<u8> = (0..extent / 4)
                    .flat_map(|w| tensor::poison_word(w).to_le_bytes())
                    .collect();
                tile.apply(&mut sh);
                exp.extend_from_slice(&sh);
            }
        }
        Dir::Store | Dir::Reduce(_) => {
            for i in 0..CASES as usize {
                let row = &inb[i * row_in..(i + 1) * row_in];
                let o = i * slice as usize;
                if let Dir::Reduce(_) = dir {
                    out[o..o + slice as usize]
                        .copy_from_slice(&row[32 + extent as usize..][..slice as usize]);
                }
                let box_ = &row[32..32 + extent as usize];
                let writes = if im2col {
                    tensor::im2col_no_offs_store(&map, &coords_of[i], SMEM, box_)
                } else if rows4 {
                    tensor::scatter4_store(&map, &coords_of[i], SMEM, box_)
                } else {
                    tensor::tile_store(&map, &coords_of[i], SMEM, box_)
                }
                .unwrap_or_else(|e| panic!("{id}: case {i}: {e}"));
                for (a, b) in writes {
                    let at = (a - BASE) as usize;
                    match dir {
                        Dir::Reduce(op) => {
                            let (t, noftz) =
                                red::tensor_type(op, map.data_type).expect("a type the op takes");
                            let e = red::element_bytes(t);
                            for k in (0..b.len()).step_by(e) {
                                let old = le(&out[at + k..at + k + e]);
                                let (v, free) =
                                    red::reduce_tensor(op, t, noftz, old, le(&b[k..k + e]));
                                out[at + k..at + k + e].copy_from_slice(&v.to_le_bytes()[..e]);
                                out_mask[at + k..at + k + e]
                                    .copy_from_slice(&free.to_le_bytes()[..e]);
                            }
                        }
                        _ => out[at..at + b.len()].copy_from_slice(&b),
                    }
                }
            }
            exp = out;
            mask = out_mask;
        }
    }
    let base = if dir == Dir::Load { "in" } else { "out" };
    let text_map = MapText {
        map,
        base: Base::Named(base.into()),
        offset: 0,
    }
    .to_string();
    let copy_text: String;
    let (copy, prefetch_text) = if prefetch && rows4 {
        copy_text = format!(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes{}",
            if text.contains(".L2::cache_hint") { ".L2::cache_hint" } else { "" }
        );
        (copy_text.as_str(), text)
    } else if prefetch {
        copy_text = format!(
            "cp.async.bulk.tensor.{rank}d.shared::cluster.global.{}.mbarrier::complete_tx::bytes{}",
            if w128 {
                "im2col::w::128"
            } else if wmode {
                "im2col::w"
            } else if im2col {
                "im2col"
            } else {
                "tile"
            },
            if text.contains(".L2::cache_hint") {
                ".L2::cache_hint"
            } else {
                ""
            }
        );
        (copy_text.as_str(), text)
    } else {
        (text, "")
    };
    let section = match dir {
        _ if prefetch => "9.7.9.25.5.4",
        Dir::Reduce(_) => "9.7.9.25.5.3",
        _ => "9.7.9.25.5.2",
    };
    let module = Module {
        common: Common {
            id,
            form: text,
            section,
            version: vt.0,
            target: vt.1,
            entry: "k",
            cases: CASES,
            in_row: input.row,
            out_row: output.row,
            generator: generator(),
            seed: o.seed,
        },
        about: if rows4 {
            rows4_about(dir, &text_map)
        } else {
            about(dir, &text_map)
        },
        decls: Vec::new(),
        directives: if multicast {
            vec![
                ".explicitcluster".into(),
                ".reqnctapercluster 2, 1, 1".into(),
            ]
        } else {
            Vec::new()
        },
    };
    let coords = format!(
        "{{{}}}",
        (0..ncoords)
            .map(|d| format!("%c{d}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let ptx = render(
        "tensor.ptx",
        &Ctx {
            module,
            mode: match dir {
                Dir::Load => "load",
                Dir::Store => "store",
                Dir::Reduce(_) => "reduce",
            },
            copy,
            prefetch: prefetch_text,
            hint: text.contains(".L2::cache_hint"),
            multicast,
            pair,
            dims: ncoords,
            coords,
            noffsets: if wmode {
                2
            } else if im2col && dir == Dir::Load {
                rank - 2
            } else {
                0
            },
            offsets: if im2col && dir == Dir::Load {
                format!(
                    "{{{}}}",
                    (0..if wmode { 2 } else { rank - 2 })
                        .map(|d| format!("%o{d}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            } else {
                String::new()
            },
            extent,
            bytes,
            out_row: output.row,
            x4: "{%x0, %x1, %x2, %x3}",
        },
    )
    .replacen(
        "(.param .u64 in, .param .u64 out)",
        "(.param .u64 in, .param .u64 out, .param .align 64 .b8 map0[128])",
        1,
    );
    let family = instr;
    let (provenance, note) = if rows4 || wmode || pair {
        (
            Provenance::Spec,
            "sm_100 only: the GPUs at hand (sm_90) reject it".to_string(),
        )
    } else {
        (
            Provenance::Hardware,
            format!("run on an H100 with the model's results ({GPU_RESULTS})"),
        )
    };
    let mut group = group_1d(
        id.to_string(),
        family,
        text,
        section,
        vt,
        provenance,
        note,
        CASES,
        input,
        output,
    );
    group.grid = [CASES as u32, 1, 1];
    group.block = [1, 1, 1];
    group.cluster = [if multicast { 2 } else { 1 }, 1, 1];
    group.tensor_maps = vec![text_map];
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

fn le(b: &[u8]) -> u64 {
    b.iter().rev().fold(0, |a, &x| (a << 8) | u64::from(x))
}

/// Every group, in suite order: each sm_90a spelling of the tiled and
/// im2col forms, then each sm_100a spelling of `.tile::gather4` and
/// `.tile::scatter4` (from the spec; `.cta_group::2`, which needs CTA
/// pairs, left out).
pub fn plans() -> Vec<Plan> {
    let mut p = Vec::new();
    for instr in [
        "cp.async.bulk.tensor",
        "cp.reduce.async.bulk.tensor",
        "cp.async.bulk.prefetch.tensor",
    ] {
        for text in spelled(instr, VT) {
            let set = if text.contains(".im2col") {
                "im2col"
            } else {
                "tile"
            };
            let id = format!("{text}/{set}");
            let form = text.clone();
            let instr = instr.to_string();
            p.push(Plan::new(id.clone(), form, move |o| {
                Some(build(&id, &instr, &text, o))
            }));
        }
    }
    for instr in ["cp.async.bulk.tensor", "cp.async.bulk.prefetch.tensor"] {
        for text in rows4_spellings(instr)
            .into_iter()
            .chain(w_spellings(instr))
            .chain(pair_spellings(instr))
        {
            let set = if text.contains("scatter4") {
                "scatter4"
            } else if text.contains("im2col::w") {
                "im2col-w"
            } else if text.contains(".cta_group::2") {
                "cta-pair"
            } else {
                "gather4"
            };
            let id = format!("{text}/{set}");
            let form = text.clone();
            let instr = instr.to_string();
            p.push(Plan::new(id.clone(), form, move |o| {
                Some(build(&id, &instr, &text, o))
            }));
        }
    }
    p
}

/// The sm_100a spellings of `instr` in the tiled mode with `.cta_group::2`.
pub fn pair_spellings(instr: &str) -> Vec<String> {
    spelled(instr, VT100)
        .into_iter()
        .filter(|t| {
            t.contains(".cta_group::2")
                && !t.contains("gather4")
                && !t.contains("im2col")
                && t.contains(".shared::")
        })
        .collect()
}

/// The sm_100a spellings of `instr` in `.im2col::w` or `.im2col::w::128`
/// mode that have groups (all but `.cta_group::2`).
pub fn w_spellings(instr: &str) -> Vec<String> {
    spelled(instr, VT100)
        .into_iter()
        .filter(|t| t.contains(".im2col::w") && !t.contains(".cta_group::2"))
        .collect()
}

/// The sm_100a spellings of `instr` in `.tile::gather4` or
/// `.tile::scatter4` mode that have groups (all but `.cta_group::2`).
pub fn rows4_spellings(instr: &str) -> Vec<String> {
    spelled(instr, VT100)
        .into_iter()
        .filter(|t| {
            (t.contains(".tile::gather4") || t.contains(".tile::scatter4"))
                && !t.contains(".cta_group::2")
        })
        .collect()
}
