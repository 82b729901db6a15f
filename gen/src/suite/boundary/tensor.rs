//! The boundary kernels and rows of the tensor copy's shared address
//! (`cp.async.bulk.tensor.shared.aligned`), of the im2col offsets' ranges
//! (`cp.async.bulk.tensor.im2col.offset.4d`, `.5d`; PTX ISA 5.5.4.1) and of
//! the ranges of `tensormap.replace`'s `new_val` (PTX ISA 9.7.9.26). Each
//! kernel takes a map of `in` after `in` and `out` (the group's
//! `tensor_maps`, which each implementation encodes its own way), as the
//! tensor and replace groups do (`super::super::tensor`,
//! `super::super::tensormap`).

use super::super::manifest::Layout;
use super::super::templates::Module;
use super::{body, head};
use ptx_semantics::tensor::{
    self, Base, DataType, Field, Im2col, MapText, Mode, OperandType, Replace, TensorMap,
};

/// Where the expected values place `in` (any 256-byte aligned address
/// gives the same bytes).
const BASE: u64 = 0x10_0000;
/// The tensor load's map: f32, 16 x 8 elements, rows 64 bytes apart,
/// boxes of 4 x 4 (64 bytes), at the coordinates [`COORDS`].
const LOAD_BOX_BYTES: u32 = 64;
const COORDS: [i32; 2] = [4, 2];
/// Bytes of `sh` in the tensor load's kernel, zeroed before the copy.
pub const SH_BYTES: u32 = 256;
/// The shared offset of `sh`: 1024-byte aligned, as its declaration asks.
const SH_AT: u32 = 1024;
/// Bytes of the tensor load's input row: the tensor, whose first row
/// holds the destination offset and the coordinates.
pub const LOAD_IN_ROW: u32 = 512;

/// The tensor load's map.
fn load_map() -> TensorMap {
    TensorMap {
        data_type: DataType::F32,
        rank: 2,
        global_address: BASE,
        global_dims: [16, 8, 1, 1, 1],
        global_strides: [64, 512, 0, 0],
        box_dims: [4, 4, 1, 1, 1],
        ..TensorMap::default()
    }
}

/// The map the replace kernels start from: f32, rank 2, rows of 64
/// elements 256 bytes apart, boxes of 8 x 8; its entries past the rank
/// are set so that the map stays valid at rank 5.
fn replace_map() -> TensorMap {
    TensorMap {
        data_type: DataType::F32,
        rank: 2,
        global_address: BASE,
        global_dims: [64, 20, 2, 2, 2],
        global_strides: [256, 256 * 20, 256 * 40, 256 * 80],
        box_dims: [8, 8, 1, 1, 1],
        ..TensorMap::default()
    }
}

/// Which map a tensor kernel takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapKind {
    /// [`load_map`]'s.
    Load,
    /// [`replace_map`]'s.
    Replace,
    /// [`im2col_map`]'s, of this rank.
    Im2col(u32),
}

/// The map's text, at `in`.
pub fn map_text(kind: MapKind) -> String {
    MapText {
        map: match kind {
            MapKind::Load => load_map(),
            MapKind::Replace => replace_map(),
            MapKind::Im2col(rank) => im2col_map(rank),
        },
        base: Base::Named("in".into()),
        offset: 0,
    }
    .to_string()
}

/// The parameter list with the map after `in` and `out`.
fn with_map(k: String) -> String {
    k.replacen(
        "(.param .u64 in, .param .u64 out)",
        "(.param .u64 in, .param .u64 out, .param .align 64 .b8 map0[128])",
        1,
    )
}

pub fn load_layouts() -> (Layout, Layout) {
    let mut input = Layout::packed(&[("dst_off", "u32", 4), ("c0", "s32", 4), ("c1", "s32", 4)]);
    input.row = LOAD_IN_ROW;
    let output = Layout::packed(&[
        ("sh0", "b128", 16),
        ("sh16", "b128", 16),
        ("sh32", "b128", 16),
        ("sh48", "b128", 16),
        ("sh64", "b128", 16),
        ("sh80", "b128", 16),
        ("sh96", "b128", 16),
        ("sh112", "b128", 16),
        ("sh128", "b128", 16),
        ("sh144", "b128", 16),
        ("sh160", "b128", 16),
        ("sh176", "b128", 16),
        ("sh192", "b128", 16),
        ("sh208", "b128", 16),
        ("sh224", "b128", 16),
        ("sh240", "b128", 16),
    ]);
    (input, output)
}

/// The tensor load's row: seeded tensor bytes, the first 12 of them the
/// destination offset `dst_off` and the coordinates.
pub fn load_input(dst_off: u32, data: impl FnMut() -> u8) -> Vec<u8> {
    let mut row: Vec<u8> = std::iter::repeat_with(data)
        .take(LOAD_IN_ROW as usize)
        .collect();
    row[..4].copy_from_slice(&dst_off.to_le_bytes());
    row[4..8].copy_from_slice(&COORDS[0].to_le_bytes());
    row[8..12].copy_from_slice(&COORDS[1].to_le_bytes());
    row
}

/// `sh` after the copy, by the model ([`tensor::tile_load`]): zero but for
/// the box at `dst_off`.
pub fn load_expected(dst_off: u32, input: &[u8]) -> Option<Vec<u8>> {
    let global = |a: u64, n: usize| {
        let off = usize::try_from(a.checked_sub(BASE)?).ok()?;
        input.get(off..off + n).map(<[u8]>::to_vec)
    };
    let tile = tensor::tile_load(&load_map(), &COORDS, SH_AT + dst_off, &global).ok()?;
    let mut row = vec![0u8; SH_BYTES as usize];
    let at = dst_off as usize;
    tile.apply(row.get_mut(at..at + tile.bytes.len())?);
    Some(row)
}

/// `Probe::TensorLoad`: `sh` zeroed and the zeros ordered before the
/// copy's writes, an mbarrier for one arrival expecting the box's bytes,
/// the 2-D tiled load of the box at the row's coordinates to `sh` plus
/// the row's `dst_off`, a wait for phase 0 (giving up after 65,536 tries,
/// as the bulk kernel's), then `sh` out.
pub fn load_kernel(m: &Module, form: &str) -> String {
    let k = head(
        m,
        &[
            ".reg .pred %p, %q;",
            ".reg .b32 %a, %dst, %c0, %c1, %x0, %x1, %x2, %x3, %z, %tries;",
            ".reg .b64 %st, %tm;",
            ".shared .align 1024 .b8 sh[256];",
            ".shared .align 8 .b64 bar;",
        ],
    );
    let z = "{ %z, %z, %z, %z }";
    let v = "{ %x0, %x1, %x2, %x3 }";
    let mut lines: Vec<String> = vec![
        "ld.global.u32 %dst, [%pin];".into(),
        "ld.global.u32 %c0, [%pin+4];".into(),
        "ld.global.u32 %c1, [%pin+8];".into(),
        "// dst: sh plus `dst_off`".into(),
        "mov.u32 %a, sh;".into(),
        "add.u32 %a, %a, %dst;".into(),
        "mov.b64 %tm, map0;".into(),
        "cvta.param.u64 %tm, %tm;".into(),
        "mov.u32 %z, 0;".into(),
    ];
    for off in (0..SH_BYTES).step_by(16) {
        lines.push(format!("st.shared.v4.u32 [sh+{off}], {z};"));
    }
    lines.extend([
        "mbarrier.init.shared::cta.b64 [bar], 1;".into(),
        "fence.mbarrier_init.release.cluster;".into(),
        "fence.proxy.async.shared::cta;".into(),
        format!("mbarrier.arrive.expect_tx.shared::cta.b64 %st, [bar], {LOAD_BOX_BYTES};"),
        format!("{form} [%a], [%tm, {{%c0, %c1}}], [bar];"),
        "mov.u32 %tries, 0;".into(),
        "$wait:".into(),
        "mbarrier.try_wait.parity.shared::cta.b64 %p, [bar], 0;".into(),
        "@%p bra $done;".into(),
        "add.u32 %tries, %tries, 1;".into(),
        "setp.lt.u32 %q, %tries, 65536;".into(),
        "@%q bra $wait;".into(),
        "$done:".into(),
    ]);
    for off in (0..SH_BYTES).step_by(16) {
        lines.push(format!("ld.shared.v4.u32 {v}, [sh+{off}];"));
        lines.push(format!("st.global.v4.u32 [%pout+{off}], {v};"));
    }
    lines.push("mbarrier.inval.shared::cta.b64 [bar];".into());
    with_map(body(k, &lines))
}

/// The rows of the `TensorMbar` groups: the tensor load's, with the rank
/// of the CTA whose mbarrier the copy completes on after the coordinates.
pub fn mbar_layouts() -> (Layout, Layout) {
    let (_, output) = load_layouts();
    let mut input = Layout::packed(&[
        ("dst_off", "u32", 4),
        ("c0", "s32", 4),
        ("c1", "s32", 4),
        ("mbar_rank", "u32", 4),
    ]);
    input.row = LOAD_IN_ROW;
    (input, output)
}

/// The `TensorMbar` row: [`load_input`]'s at `dst_off` 0, then the
/// mbarrier's CTA `rank` at byte 12 (outside the box the copy reads).
pub fn mbar_input(rank: u32, data: impl FnMut() -> u8) -> Vec<u8> {
    let mut row = load_input(0, data);
    row[12..16].copy_from_slice(&rank.to_le_bytes());
    row
}

/// `Probe::TensorMbar`: each CTA of the cluster of 2 initialises its
/// `bar` for one arrival before a cluster barrier (so the peer's is an
/// initialised mbarrier object; the peer, which has no row, leaves after
/// it); then, as [`load_kernel`] at `dst_off` 0, the executing CTA
/// expects the box's bytes on its own `bar` and the copy completes on
/// `bar` of the row's CTA (`mapa`): its own (defined), or its peer's
/// (undefined: "the mbarrier object mbar ... must be in the shared memory
/// of the same CTA as the shared memory destination dstMem", PTX ISA
/// 9.7.9.25.5.2), whose wait gives up after 65,536 tries.
pub fn mbar_kernel(m: &Module, form: &str) -> String {
    let k = head(
        m,
        &[
            ".reg .pred %p, %q;",
            ".reg .b32 %a, %c0, %c1, %r, %mb, %x0, %x1, %x2, %x3, %z, %tries;",
            ".reg .b64 %st, %tm;",
            ".shared .align 1024 .b8 sh[256];",
            ".shared .align 8 .b64 bar;",
            "// every CTA's bar, initialised before any CTA leaves or uses its peer's",
            "mbarrier.init.shared::cta.b64 [bar], 1;",
            "fence.mbarrier_init.release.cluster;",
            "barrier.cluster.arrive;",
            "barrier.cluster.wait;",
        ],
    );
    let z = "{ %z, %z, %z, %z }";
    let v = "{ %x0, %x1, %x2, %x3 }";
    let mut lines: Vec<String> = vec![
        "ld.global.u32 %c0, [%pin+4];".into(),
        "ld.global.u32 %c1, [%pin+8];".into(),
        "ld.global.u32 %r, [%pin+12];".into(),
        "mov.u32 %a, sh;".into(),
        "// mbar: bar of the row's CTA".into(),
        "mapa.shared::cluster.u32 %mb, bar, %r;".into(),
        "mov.b64 %tm, map0;".into(),
        "cvta.param.u64 %tm, %tm;".into(),
        "mov.u32 %z, 0;".into(),
    ];
    for off in (0..SH_BYTES).step_by(16) {
        lines.push(format!("st.shared.v4.u32 [sh+{off}], {z};"));
    }
    lines.extend([
        "fence.proxy.async.shared::cta;".into(),
        format!("mbarrier.arrive.expect_tx.shared::cta.b64 %st, [bar], {LOAD_BOX_BYTES};"),
        format!("{form} [%a], [%tm, {{%c0, %c1}}], [%mb];"),
        "mov.u32 %tries, 0;".into(),
        "$wait:".into(),
        "mbarrier.try_wait.parity.shared::cta.b64 %p, [bar], 0;".into(),
        "@%p bra $done;".into(),
        "add.u32 %tries, %tries, 1;".into(),
        "setp.lt.u32 %q, %tries, 65536;".into(),
        "@%q bra $wait;".into(),
        "$done:".into(),
    ]);
    for off in (0..SH_BYTES).step_by(16) {
        lines.push(format!("ld.shared.v4.u32 {v}, [sh+{off}];"));
        lines.push(format!("st.global.v4.u32 [%pout+{off}], {v};"));
    }
    lines.push("mbarrier.inval.shared::cta.b64 [bar];".into());
    with_map(body(k, &lines))
}

/// Pixels of the im2col loads' column.
const IM2COL_PIXELS: u32 = 4;
/// Bytes of a pixel: 4 f32 channels.
const IM2COL_PIXEL_BYTES: u32 = 16;
/// Bytes of `sh` in the im2col kernels, zeroed before the copy: the column.
const IM2COL_SH_BYTES: u32 = IM2COL_PIXELS * IM2COL_PIXEL_BYTES;
/// Where the row of an im2col kernel holds the im2col offsets (`.u16`
/// each, W first), after the 5 coordinates (`.s32` each), as the tensor
/// suite's rows do.
const IM2COL_OFFSETS_AT: usize = 20;

/// The largest im2col offset of a copy of rank `rank` (PTX ISA 5.5.4.1).
fn im2col_offset_max(rank: u32) -> u32 {
    u32::from(tensor::im2col_offset_max(rank))
}

/// W of the im2col maps: the column from the filter base at W = 0 moved
/// by one past the largest offset still lies in the tensor, so both sides
/// read its bytes (none is filled).
fn im2col_w(rank: u32) -> u32 {
    im2col_offset_max(rank) + 1 + IM2COL_PIXELS
}

/// Bytes of an im2col kernel's input row: the tensor, to a multiple of 256.
pub fn im2col_in_row(rank: u32) -> u32 {
    (im2col_w(rank) * IM2COL_PIXEL_BYTES).div_ceil(256) * 256
}

/// The im2col load's map of rank `rank` (4 or 5): f32, C = 4, W as
/// [`im2col_w`], the other dimensions 1, packed; the bounding box the
/// tensor's (corners 0), columns of [`IM2COL_PIXELS`] pixels of 4
/// channels.
fn im2col_map(rank: u32) -> TensorMap {
    let w = u64::from(im2col_w(rank));
    let row = u64::from(IM2COL_PIXEL_BYTES);
    TensorMap {
        data_type: DataType::F32,
        rank,
        global_address: BASE,
        global_dims: [4, w, 1, 1, 1],
        global_strides: [row, row * w, row * w, row * w],
        box_dims: [4, 1, 1, 1, 1],
        mode: Mode::Im2col(Im2col {
            channels_per_pixel: 4,
            pixels_per_column: IM2COL_PIXELS,
            ..Im2col::default()
        }),
        ..TensorMap::default()
    }
}

pub fn im2col_layouts(rank: u32) -> (Layout, Layout) {
    let mut input = Layout::packed(&[
        ("c0", "s32", 4),
        ("c1", "s32", 4),
        ("c2", "s32", 4),
        ("c3", "s32", 4),
        ("c4", "s32", 4),
        ("o0", "u16", 2),
        ("o1", "u16", 2),
        ("o2", "u16", 2),
    ]);
    input.row = im2col_in_row(rank);
    let output = Layout::packed(&[
        ("sh0", "b128", 16),
        ("sh16", "b128", 16),
        ("sh32", "b128", 16),
        ("sh48", "b128", 16),
    ]);
    (input, output)
}

/// The im2col load's row: seeded tensor bytes, the first 20 of them the
/// coordinates (all 0: the first channel, the filter base at the box's
/// corner, image 0), then the W offset `offset` and the others 0.
pub fn im2col_input(rank: u32, offset: u16, data: impl FnMut() -> u8) -> Vec<u8> {
    let mut row: Vec<u8> = std::iter::repeat_with(data)
        .take(im2col_in_row(rank) as usize)
        .collect();
    row[..IM2COL_OFFSETS_AT + 6].fill(0);
    row[IM2COL_OFFSETS_AT..IM2COL_OFFSETS_AT + 2].copy_from_slice(&offset.to_le_bytes());
    row
}

/// `sh` after the copy, by the model ([`tensor::im2col_load`]).
pub fn im2col_expected(rank: u32, offset: u16, input: &[u8]) -> Option<Vec<u8>> {
    let global = |a: u64, n: usize| {
        let off = usize::try_from(a.checked_sub(BASE)?).ok()?;
        input.get(off..off + n).map(<[u8]>::to_vec)
    };
    let mut offsets = vec![0u16; rank as usize - 2];
    offsets[0] = offset;
    let coords = vec![0i32; rank as usize];
    let tile = tensor::im2col_load(&im2col_map(rank), &coords, &offsets, SH_AT, &global).ok()?;
    let mut row = vec![0u8; IM2COL_SH_BYTES as usize];
    tile.apply(row.get_mut(..tile.bytes.len())?);
    Some(row)
}

/// `Probe::Im2col`: `sh` zeroed and the zeros ordered before the copy's
/// writes, an mbarrier for one arrival expecting the column's bytes, the
/// im2col load of the column at the row's coordinates with the row's
/// offsets (`.u16`, W first) to `sh`, a wait for phase 0 (giving up after
/// 65,536 tries), then `sh` out.
pub fn im2col_kernel(m: &Module, form: &str, rank: u32) -> String {
    let k = head(
        m,
        &[
            ".reg .pred %p, %q;",
            ".reg .b32 %a, %c<5>, %x0, %x1, %x2, %x3, %z, %tries;",
            ".reg .b16 %o<3>;",
            ".reg .b64 %st, %tm;",
            ".shared .align 1024 .b8 sh[64];",
            ".shared .align 8 .b64 bar;",
        ],
    );
    let r = rank as usize;
    let z = "{ %z, %z, %z, %z }";
    let v = "{ %x0, %x1, %x2, %x3 }";
    let mut lines: Vec<String> = Vec::new();
    for d in 0..r {
        lines.push(format!("ld.global.u32 %c{d}, [%pin+{}];", 4 * d));
    }
    for d in 0..r - 2 {
        lines.push(format!(
            "ld.global.u16 %o{d}, [%pin+{}];",
            IM2COL_OFFSETS_AT + 2 * d
        ));
    }
    lines.extend([
        "mov.u32 %a, sh;".into(),
        "mov.b64 %tm, map0;".into(),
        "cvta.param.u64 %tm, %tm;".into(),
        "mov.u32 %z, 0;".into(),
    ]);
    for off in (0..IM2COL_SH_BYTES).step_by(16) {
        lines.push(format!("st.shared.v4.u32 [sh+{off}], {z};"));
    }
    let coords: Vec<String> = (0..r).map(|d| format!("%c{d}")).collect();
    let offsets: Vec<String> = (0..r - 2).map(|d| format!("%o{d}")).collect();
    lines.extend([
        "mbarrier.init.shared::cta.b64 [bar], 1;".into(),
        "fence.mbarrier_init.release.cluster;".into(),
        "fence.proxy.async.shared::cta;".into(),
        format!("mbarrier.arrive.expect_tx.shared::cta.b64 %st, [bar], {IM2COL_SH_BYTES};"),
        format!(
            "{form} [%a], [%tm, {{{}}}], [bar], {{{}}};",
            coords.join(", "),
            offsets.join(", ")
        ),
        "mov.u32 %tries, 0;".into(),
        "$wait:".into(),
        "mbarrier.try_wait.parity.shared::cta.b64 %p, [bar], 0;".into(),
        "@%p bra $done;".into(),
        "add.u32 %tries, %tries, 1;".into(),
        "setp.lt.u32 %q, %tries, 65536;".into(),
        "@%q bra $wait;".into(),
        "$done:".into(),
    ]);
    for off in (0..IM2COL_SH_BYTES).step_by(16) {
        lines.push(format!("ld.shared.v4.u32 {v}, [sh+{off}];"));
        lines.push(format!("st.global.v4.u32 [%pout+{off}], {v};"));
    }
    lines.push("mbarrier.inval.shared::cta.b64 [bar];".into());
    with_map(body(k, &lines))
}

/// The `.global` spelling of the replace of `field`.
pub fn replace_form(field: Field) -> String {
    let ty = match field.operand_type() {
        OperandType::B64 => "b64",
        _ => "b32",
    };
    format!(
        "tensormap.replace.tile{}.global.b1024.{ty}",
        field.qualifier()
    )
}

/// Bytes of the replace kernels' output row: the map, then `done` (and
/// zeros to 16 bytes).
pub const REPLACE_OUT_ROW: u32 = 144;

pub fn replace_layouts() -> (Layout, Layout) {
    let mut fields: Vec<(String, u32)> = (0..8).map(|j| (format!("map{}", 16 * j), 16)).collect();
    fields.push(("done".into(), 4));
    let named: Vec<(&str, &str, u32)> = fields
        .iter()
        .map(|(n, b)| (n.as_str(), if *b == 16 { "b128" } else { "u32" }, *b))
        .collect();
    let mut output = Layout::packed(&named);
    output.row = REPLACE_OUT_ROW;
    (Layout::packed(&[("value", "b64", 8)]), output)
}

/// The value as the kernel reads it: `.global_address` as an offset from
/// `in` (the kernel adds `in`'s address), the others as they are.
pub fn replace_input(field: Field, value: u64, aligned_base: u64) -> Vec<u8> {
    let v = if field == Field::GlobalAddress {
        value.wrapping_sub(aligned_base)
    } else {
        value
    };
    v.to_le_bytes().to_vec()
}

/// The defined side's output: the map (the implementation's 128 bytes:
/// don't-care) and `done` = 1, with its mask; `None` when the model does
/// not replace the field ([`tensor::replace`]: a map made invalid).
pub fn replace_expected(
    field: Field,
    ord: u32,
    value: u64,
    aligned_base: u64,
) -> Option<(Vec<u8>, Vec<u8>)> {
    let v = if field == Field::GlobalAddress {
        BASE + (value - aligned_base)
    } else {
        value
    };
    tensor::replace(&replace_map(), &Replace::new(field, ord, v)).ok()?;
    let mut row = vec![0u8; REPLACE_OUT_ROW as usize];
    row[128] = 1;
    let mut mask = vec![0u8; REPLACE_OUT_ROW as usize];
    mask[..128].fill(0xff);
    Some((row, mask))
}

/// `Probe::Replace`: the map into the first 128 bytes of the row of `out`,
/// the replace there with the row's value (`.global_address`: plus `in`'s
/// address), the write ordered before the tensormap proxy
/// (`fence.proxy.tensormap::generic` release, then acquire of the 128
/// bytes), then `done` = 1 (a 16-byte store, zeros after it).
pub fn replace_kernel(m: &Module, form: &str, field: Field, ord: u32) -> String {
    let k = head(
        m,
        &[
            ".reg .b32 %x0, %x1, %x2, %x3, %v32, %one;",
            ".reg .b64 %v64, %base, %gm;",
        ],
    );
    let v = "{ %x0, %x1, %x2, %x3 }";
    let wide = field.operand_type() == OperandType::B64;
    let mut lines: Vec<String> = Vec::new();
    if wide {
        lines.push("ld.global.u64 %v64, [%pin];".into());
    } else {
        lines.push("ld.global.u32 %v32, [%pin];".into());
    }
    if field == Field::GlobalAddress {
        lines.extend([
            "ld.param.u64 %base, [in];".into(),
            "cvta.to.global.u64 %base, %base;".into(),
            "add.u64 %v64, %base, %v64;".into(),
        ]);
    }
    lines.push("// the map into the row's slot".into());
    for j in 0..8 {
        lines.push(format!("ld.param.v4.b32 {v}, [map0+{}];", 16 * j));
        lines.push(format!("st.global.v4.b32 [%pout+{}], {v};", 16 * j));
    }
    let ord = if field.takes_ord() {
        format!("{ord}, ")
    } else {
        String::new()
    };
    let value = if wide { "%v64" } else { "%v32" };
    lines.extend([
        format!("{form} [%pout], {ord}{value};"),
        "cvta.global.u64 %gm, %pout;".into(),
        "fence.proxy.tensormap::generic.release.gpu;".into(),
        "fence.proxy.tensormap::generic.acquire.gpu [%gm], 128;".into(),
        "mov.u32 %one, 1;".into(),
        "mov.u32 %x0, 0;".into(),
        "st.global.v4.u32 [%pout+128], { %one, %x0, %x0, %x0 };".into(),
    ]);
    with_map(body(k, &lines))
}
