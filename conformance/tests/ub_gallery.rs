//! `conform ub` over the gallery in examples/ub: each kernel's verdicts are
//! the ones examples/ub/README.md argues from the spec, and every witness
//! is confirmed by the simulator's replay.
#![cfg(feature = "ub")]

use std::path::Path;
use std::process::{Command, Output};

fn conform(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_conform"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .output()
        .expect("conform runs")
}

/// Each gallery file and the (line, precondition) pairs that must have a
/// witness; every other precondition must come back "cannot happen".
/// The reasons are in examples/ub/README.md.
const GALLERY: &[(&str, &[(u64, &str)])] = &[
    ("cvta_shared_guarded.ptx", &[]),
    ("cvta_shared_unguarded.ptx", &[(15, "cvta.to.shared::cta")]),
    ("shared_round_trip_32.ptx", &[]),
    ("mapa_next_rank_wrapped.ptx", &[]),
    ("mapa_next_rank.ptx", &[(16, "mapa.rank")]),
    ("misaligned_v4_some_threads.ptx", &[(19, "access.aligned")]),
    ("cp_async_param_size.ptx", &[(16, "cp.async.src-size")]),
    ("cp_async_param_size_clamped.ptx", &[]),
    // See: issue 7 (witnesses of the nvcc corpus that did not replay: a
    // structure parameter wider than 64 bytes, unmodelled floating point,
    // loads through pointers that are no buffer, dynamic shared memory)
    (
        "struct_param_pointer.ptx",
        &[(16, "cvta.to.global"), (21, "access.aligned")],
    ),
    ("dynamic_shared_misaligned.ptx", &[(19, "access.aligned")]),
    // a witness parameter that fell on the module's .global variable could
    // not be replayed ("buffers ... overlap"): parameters now start past
    // the variables
    (
        "cvta_shared_beside_global_variable.ptx",
        &[(16, "cvta.to.shared::cta")],
    ),
    // the asynchronous and mbarrier instructions, decoded for the search
    // (issue 14): a bulk copy whose size is clamped to a multiple of 16,
    // and one whose size is only bounded
    ("bulk_copy_size_clamped.ptx", &[]),
    ("bulk_copy_param_size.ptx", &[(24, "cp.async.bulk.size")]),
    // tensor copies and tensormap.replace (issue 16): the rules on the
    // operands; the map's own rules need its bytes (asked only of a map
    // given: WITH_MAPS)
    (
        "tensor_copy_dst_misaligned.ptx",
        &[(22, "cp.async.bulk.tensor.shared.aligned")],
    ),
    ("tensor_copy_dst_aligned.ptx", &[]),
    (
        "tensormap_replace_param_space.ptx",
        &[(13, "tensormap.replace.generic")],
    ),
    (
        "tensormap_replace_rank.ptx",
        &[(14, "tensormap.replace.rank")],
    ),
    // the arithmetic of crate::arith read exactly (issue 18): addresses
    // through shf, add.cc/addc and mov pack/unpack, lop3 and bfe; the new
    // instructions' preconditions (fns, vote.sync/redux.sync, atom)
    ("shf_index_misaligned.ptx", &[(20, "access.aligned")]),
    ("lop3_index_aligned.ptx", &[]),
    ("carry_chain_address.ptx", &[(20, "access.aligned")]),
    ("bfe_index_aligned.ptx", &[]),
    ("fns_param_base.ptx", &[(15, "fns.base")]),
    ("vote_param_mask.ptx", &[(18, "vote.sync.membermask")]),
    (
        "atom_generic_local.ptx",
        &[(22, "atom.generic.global-or-shared")],
    ),
    // float arithmetic read exactly (Z3's floating-point terms)
    ("float_index_unguarded.ptx", &[(21, "cvta.to.shared::cta")]),
    ("float_index_guarded.ptx", &[]),
];

/// (line, precondition) pairs that must have a witness.
type Witnesses = &'static [(u64, &'static str)];

/// Gallery files run with a tensor map given to their parameter `tmap`
/// (`--tensor-map tmap=FIELDS`), as GALLERY.
const F32_MAP: &str = "tmap=type=f32,dims=64x32,box=32x8,base=arg1";
const WITH_MAPS: &[(&str, &str, Witnesses)] = &[
    (
        "tensor_load_coord_param.ptx",
        F32_MAP,
        &[(21, "cp.async.bulk.tensor.box.aligned")],
    ),
    ("tensor_load_coord_masked.ptx", F32_MAP, &[]),
    (
        "tensor_store_coord_negative.ptx",
        F32_MAP,
        &[(20, "cp.async.bulk.tensor.coords.non-negative")],
    ),
    (
        "tensor_load_rank_mismatch.ptx",
        "tmap=type=f32,dims=16x8x4,box=16x8x1,base=arg1",
        &[(19, "cp.async.bulk.tensor.map.dim")],
    ),
];

fn analyse(file: &str) -> (i32, serde_json::Value) {
    analyse_with(file, &[])
}

fn analyse_with(file: &str, extra: &[&str]) -> (i32, serde_json::Value) {
    let path = format!("examples/ub/{file}");
    let mut args = vec!["ub", &path, "--json"];
    args.extend_from_slice(extra);
    let out = conform(&args);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{file}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap_or(-1), v)
}

#[test]
fn gallery_verdicts_and_replays() {
    let plain = GALLERY.iter().map(|(f, e)| (*f, None, *e));
    let mapped = WITH_MAPS.iter().map(|(f, m, e)| (*f, Some(*m), *e));
    for (file, map, expected) in plain.chain(mapped) {
        let (code, v) = match map {
            Some(m) => analyse_with(file, &["--tensor-map", m]),
            None => analyse(file),
        };
        let findings = v["kernels"][0]["findings"].as_array().unwrap().clone();
        assert!(!findings.is_empty(), "{file}");
        let mut witnesses = Vec::new();
        for f in &findings {
            let id = f["precondition"]["id"].as_str().unwrap().to_string();
            let line = f["line"].as_u64().unwrap();
            match f["verdict"].as_str().unwrap() {
                "witness" => {
                    assert_eq!(
                        f["replay"]["replay"], "confirmed",
                        "{file}:{line} {id}: {f}"
                    );
                    witnesses.push((line, id));
                }
                "cannot-happen" => {}
                other => panic!("{file}:{line} {id}: {other}"),
            }
        }
        let want: Vec<(u64, String)> = expected.iter().map(|(l, i)| (*l, i.to_string())).collect();
        assert_eq!(witnesses, want, "{file}");
        assert_eq!(code, i32::from(!expected.is_empty()), "{file}: exit code");
    }
}

/// The witnesses say what the spec text makes them: a thread id of at
/// least 32 and odd for the misaligned load, a size above 16 for cp.async,
/// the last CTA of a cluster for mapa, a bulk copy of at most 1024 bytes
/// that are not a multiple of 16 (from thread 0, the one that copies).
#[test]
fn witnesses_sit_where_the_reasoning_puts_them() {
    let witness = |file: &str| {
        let (_, v) = analyse(file);
        v["kernels"][0]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["verdict"] == "witness")
            .cloned()
            .unwrap()
    };
    let w = witness("misaligned_v4_some_threads.ptx");
    let tid = w["tid"][0].as_u64().unwrap();
    assert!(tid >= 32 && tid % 2 == 1, "{w}");
    let w = witness("cp_async_param_size.ptx");
    let n = w["params"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p[0] == "n")
        .and_then(|p| p[1].as_str())
        .and_then(|s| u64::from_str_radix(s.trim_start_matches("0x"), 16).ok())
        .unwrap();
    assert!(n > 16, "{w}");
    let w = witness("mapa_next_rank.ptx");
    let value = |name: &str| {
        w["values"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p[0] == name)
            .and_then(|p| p[1].as_u64())
            .unwrap()
    };
    assert_eq!(
        value("%cluster_ctarank") + 1,
        value("%cluster_nctarank"),
        "{w}"
    );
    let w = witness("bulk_copy_param_size.ptx");
    let size = w["values"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p[0] == "size")
        .and_then(|p| p[1].as_u64())
        .unwrap();
    assert!(size % 16 != 0 && size <= 1024, "{w}");
    assert_eq!(w["tid"][0].as_u64(), Some(0), "{w}");
    // the destination: 16-byte steps, not a multiple of 128; the rank:
    // a new_val above 4 (a rank of 0, or above 5)
    let value = |w: &serde_json::Value, name: &str| {
        w["values"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p[0] == name)
            .and_then(|p| p[1].as_u64())
            .unwrap()
    };
    let w = witness("tensor_copy_dst_misaligned.ptx");
    let addr = value(&w, "addr");
    assert!(addr % 16 == 0 && addr % 128 != 0, "{w}");
    let w = witness("tensormap_replace_rank.ptx");
    assert!(value(&w, "a") > 4, "{w}");
}

/// The witnesses that need the arithmetic: an odd thread id for the
/// 16-byte load at `8 * tid` (shf) and for the 8-byte load at `p + 4 *
/// tid` (add.cc/addc, whose address is exactly that), a base above 31 for
/// fns, a lane outside vote.sync's mask, a thread with bit 6 of its id set
/// for the atom through the local window.
#[test]
fn arithmetic_witnesses_sit_where_the_reasoning_puts_them() {
    let witness = |file: &str| {
        let (_, v) = analyse(file);
        v["kernels"][0]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["verdict"] == "witness")
            .cloned()
            .unwrap()
    };
    let value = |w: &serde_json::Value, name: &str| {
        w["values"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p[0] == name)
            .and_then(|p| p[1].as_u64())
            .unwrap()
    };
    let param = |w: &serde_json::Value, name: &str| {
        w["params"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p[0] == name)
            .and_then(|p| p[1].as_str())
            .and_then(|s| u64::from_str_radix(s.trim_start_matches("0x"), 16).ok())
            .unwrap()
    };
    let w = witness("shf_index_misaligned.ptx");
    let tid = w["tid"][0].as_u64().unwrap();
    assert_eq!(tid % 2, 1, "{w}");
    assert_eq!(value(&w, "addr"), param(&w, "p") + 8 * (tid & 31), "{w}");
    let w = witness("carry_chain_address.ptx");
    let tid = w["tid"][0].as_u64().unwrap();
    assert_eq!(tid % 2, 1, "{w}");
    assert_eq!(value(&w, "addr"), param(&w, "p") + 4 * tid, "{w}");
    let w = witness("fns_param_base.ptx");
    assert!(value(&w, "b") > 31, "{w}");
    assert_eq!(param(&w, "base"), value(&w, "b"), "{w}");
    let w = witness("vote_param_mask.ptx");
    let lane = value(&w, "%laneid");
    assert_eq!(value(&w, "membermask") >> lane & 1, 0, "{w}");
    let w = witness("atom_generic_local.ptx");
    assert_ne!(w["tid"][0].as_u64().unwrap() & 64, 0, "{w}");
}

#[test]
fn bad_input_is_exit_2_with_a_location() {
    let dir = std::env::temp_dir().join(format!("conform-ub-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ptx");
    std::fs::write(
        &bad,
        ".version 8.0\n.target sm_90\n.address_size 64\n.entry k( {\n",
    )
    .unwrap();
    let out = conform(&["ub", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.ptx:4:"), "{err}");
    let out = conform(&["ub", "examples/ub/mapa_next_rank.ptx", "--block", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let out = conform(&["ub", "examples/ub/mapa_next_rank.ptx", "--kernel", "nope"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `--tensor-map PARAM=FIELDS`: FIELDS as `conform exec --arg tmap:` takes
/// them; a field that does not parse, a map that breaks a rule (the error
/// names the field and the rule) or a PARAM that is no 128-byte parameter
/// of the kernel is exit 2.
#[test]
fn bad_tensor_maps_are_exit_2() {
    let file = "examples/ub/tensor_load_coord_param.ptx";
    let run = |map: &str| {
        let out = conform(&["ub", file, "--tensor-map", map]);
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        (out.status.code(), err)
    };
    let (code, err) = run("tmap=type=f33,dims=64x32,box=32x8,base=arg1");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("`type`"), "{err}");
    // a box dimension over 256 breaks the map's rule
    let (code, err) = run("tmap=type=f32,dims=1024x32,box=512x8,base=arg1");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("boxDim") && err.contains("256"), "{err}");
    let (code, err) = run("x=type=f32,dims=64x32,box=32x8,base=arg1");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("`x` is not a 128-byte .param"), "{err}");
    let (code, err) = run("nope=type=f32,dims=64x32,box=32x8,base=arg1");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("`nope`"), "{err}");
    let (code, err) = run("tmap");
    assert_eq!(code, Some(2), "{err}");
}

/// `--target` is ptxas -arch (the module's `.target sm_90` compiles for
/// sm_90a but not for sm_80), `--override-target` replaces the module's
/// `.target`, as for `conform check`.
#[test]
fn target_and_override_target() {
    let file = "examples/ub/mapa_next_rank_wrapped.ptx";
    let code = |args: &[&str]| {
        let mut a = vec!["ub", file];
        a.extend_from_slice(args);
        conform(&a).status.code()
    };
    assert_eq!(code(&["--target", "sm_90a"]), Some(0));
    assert_eq!(code(&["--target", "sm_80"]), Some(2));
    assert_eq!(code(&["--target", "sm_nope"]), Some(2));
    assert_eq!(code(&["--override-target", "sm_80"]), Some(2));
    assert_eq!(code(&["--override-target", "sm_90a"]), Some(0));
}

#[test]
fn text_output_names_each_verdict_with_its_line() {
    let out = conform(&["ub", "examples/ub/mapa_next_rank.ptx"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("examples/ub/mapa_next_rank.ptx:16:5: witness: `mapa.shared::cluster.u32 %r4, buf, %r3;`: mapa.rank"),
        "{text}"
    );
    assert!(text.contains(":16:5: cannot happen: "), "{text}");
    assert!(text.contains("replay: confirmed"), "{text}");
}
