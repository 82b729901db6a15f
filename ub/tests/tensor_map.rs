//! The rules on a tensor map's fields (`table::TENSOR_MAP_RULES`) asked of
//! the solver for a map given to a parameter (`Options::tensor_maps`), and
//! each witness confirmed by the replay with the map's bytes in that
//! parameter.

use ptx_semantics::ptx::{self, ast::Module};
use ptx_semantics::tensor::MapText;
use ptx_ub::{analyse, replay, GivenMap, Options, Replay, Verdict};

/// A kernel with a tensor map `tmap`, a buffer `buf` and a 32-bit `x`:
/// `body` runs after `%rd2` holds the map's generic address, `%r1` `x`,
/// `%r5` 0, `%r6` the shared tile's address.
fn module(body: &str) -> Module {
    let src = format!(
        ".version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .align 64 .b8 tmap[128], .param .u64 buf, .param .u32 x)
{{
    .reg .b32 %r<9>;
    .reg .b64 %rd<3>;
    .shared .align 128 .b8 tile[4096];
    .shared .align 8 .b64 bar;
    ld.param.u32 %r1, [x];
    mov.b64 %rd1, tmap;
    cvta.param.u64 %rd2, %rd1;
    mov.u32 %r5, 0;
    mov.u32 %r6, tile;
    mbarrier.init.shared::cta.b64 [bar], 1;
{body}
    ret;
}}
"
    );
    ptx::parse(&src).unwrap_or_else(|e| panic!("{}: {src}", e.message))
}

const LOAD_2D: &str = "    cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r6], [%rd2, {%r1, %r5}], [bar];";

fn with_map(fields: &str) -> Options {
    Options {
        tensor_maps: vec![GivenMap {
            param: "tmap".into(),
            map: MapText::parse(fields).expect("the fields parse"),
        }],
        ..Options::default()
    }
}

/// The verdict of precondition `id` at the tensor copy, settled by the
/// replay (a witness the replay does not confirm becomes unknown).
fn verdict(m: &Module, opts: &Options, id: &str) -> Verdict {
    let a = analyse(m, "k", opts).expect("the kernel loads");
    let mut f = a
        .findings
        .iter()
        .find(|f| f.precondition.id == id && f.instruction.starts_with("cp."))
        .unwrap_or_else(|| panic!("no finding {id}: {a:?}"))
        .clone();
    replay::settle(m, "k", opts, &mut f);
    if matches!(f.verdict, Verdict::Witness(_)) {
        assert!(matches!(f.replay, Some(Replay::Confirmed)), "{f:?}");
    }
    f.verdict
}

const F32: &str = "type=f32,dims=64x32,box=32x8,base=arg1";

/// PTX ISA 5.5.3.1: "The address of the bounding Box must also be aligned
/// to 16 bytes": with an f32 map, `tensorCoords[0]` from a parameter can
/// be 1 (4 bytes in); masked to a multiple of 4 it cannot.
#[test]
fn box_alignment_from_a_parameter() {
    let m = module(LOAD_2D);
    let v = verdict(&m, &with_map(F32), "cp.async.bulk.tensor.box.aligned");
    let Verdict::Witness(w) = v else {
        panic!("{v:?}")
    };
    let off = w.values.iter().find(|(n, _)| n == "box-offset").unwrap().1;
    assert_ne!(off % 16, 0, "{w:?}");
    let masked = module(&format!("    and.b32 %r1, %r1, -4;\n{LOAD_2D}"));
    let v = verdict(&masked, &with_map(F32), "cp.async.bulk.tensor.box.aligned");
    assert!(matches!(v, Verdict::CannotHappen), "{v:?}");
    // a u8 map asks 16 elements
    let v = verdict(
        &masked,
        &with_map("type=u8,dims=64x32,box=16x8,base=arg1"),
        "cp.async.bulk.tensor.box.aligned",
    );
    assert!(matches!(v, Verdict::Witness(_)), "{v:?}");
}

/// Without a map the rules on its fields are not asked (the simulator's).
#[test]
fn no_map_no_field_rules() {
    let a = analyse(&module(LOAD_2D), "k", &Options::default()).unwrap();
    assert!(
        !a.findings
            .iter()
            .any(|f| f.precondition.id == "cp.async.bulk.tensor.box.aligned"),
        "{a:?}"
    );
}

/// 9.7.9.25.5.1: "Starting co-ordinates for Bounding Box (tensorCoords)
/// must be non-negative" for a store: `x` from a parameter can be
/// negative (and 16-byte aligned: -4); clamped at 0 it cannot.
#[test]
fn store_coordinates_non_negative() {
    let store =
        "    cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd2, {%r1, %r5}], [%r6];";
    let m = module(store);
    let id = "cp.async.bulk.tensor.coords.non-negative";
    let v = verdict(&m, &with_map(F32), id);
    let Verdict::Witness(w) = v else {
        panic!("{v:?}")
    };
    let c = w
        .values
        .iter()
        .find(|(n, _)| n == "tensorCoords[i]")
        .unwrap()
        .1;
    assert!((c as i64) < 0, "{w:?}");
    let clamped = module(&format!("    max.s32 %r1, %r1, 0;\n{store}"));
    let v = verdict(&clamped, &with_map(F32), id);
    assert!(matches!(v, Verdict::CannotHappen), "{v:?}");
}

/// 9.7.9.25.5.2: `tensorCoords` has `.dim` elements: a map of rank 3 read
/// by a `.2d` copy is a witness on every path; a map of rank 2 is not.
#[test]
fn rank_against_dim() {
    let m = module(LOAD_2D);
    let id = "cp.async.bulk.tensor.map.dim";
    let v = verdict(
        &m,
        &with_map("type=f32,dims=16x8x4,box=16x8x1,base=arg1"),
        id,
    );
    assert!(matches!(v, Verdict::Witness(_)), "{v:?}");
    let v = verdict(&m, &with_map(F32), id);
    assert!(matches!(v, Verdict::CannotHappen), "{v:?}");
}

/// 9.7.9.25.5.3's table: `.inc` takes `.u32` maps only.
#[test]
fn reduction_type() {
    let red = "    cp.reduce.async.bulk.tensor.2d.global.shared::cta.inc.tile.bulk_group [%rd2, {%r5, %r5}], [%r6];";
    let m = module(red);
    let id = "cp.reduce.async.bulk.tensor.type";
    let v = verdict(&m, &with_map(F32), id);
    assert!(matches!(v, Verdict::Witness(_)), "{v:?}");
    let v = verdict(&m, &with_map("type=u32,dims=64x32,box=32x8,base=arg1"), id);
    assert!(matches!(v, Verdict::CannotHappen), "{v:?}");
}

/// 5.5.4: the filter's corner of an im2col load inside the Bounding Box
/// (`lower=-1,upper=1` over a W of 8: -1 to 8); a W coordinate from a
/// parameter can leave it.
#[test]
fn im2col_filter_inside_the_box() {
    let load = "    mov.b16 %rs1, 0;
    cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r6], [%rd2, {%r5, %r1, %r5}], [bar], {%rs1};";
    let m = module(&format!("    .reg .b16 %rs<2>;\n{load}"));
    let map = "type=f32,dims=4x8x2,lower=-1,upper=1,channels=4,pixels=8,base=arg1";
    let id = "cp.async.bulk.tensor.im2col.filter";
    let v = verdict(&m, &with_map(map), id);
    let Verdict::Witness(w) = v else {
        panic!("{v:?}")
    };
    let c = w
        .values
        .iter()
        .find(|(n, _)| n == "tensorCoords[i]")
        .unwrap()
        .1 as i64;
    assert!(!(-1..=8).contains(&c), "{w:?}");
    let clamped = module(&format!(
        "    .reg .b16 %rs<2>;\n    min.s32 %r1, %r1, 8;\n    max.s32 %r1, %r1, -1;\n{load}"
    ));
    let v = verdict(&clamped, &with_map(map), id);
    assert!(matches!(v, Verdict::CannotHappen), "{v:?}");
}
