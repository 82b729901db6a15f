//! Interleaved tiled loads (`CU_TENSOR_MAP_INTERLEAVE_16B`, `_32B`; PTX ISA
//! 5.5.6) against an H100: every record of
//! corpus/tensor/sm_90/interleave-sweep.jsonl.gz (`tools/tensor_sweep.py
//! --phases N`) recomputed with `ptx_semantics::tensor::tile_load` (issue 16;
//! docs/tensor-observations.md, "Interleaved layouts").
//!
//! Each `L` record is one load: the digest of the whole shared window the
//! kernel read back (poison, the box at offset `o`, poison) must be the
//! digest of what `tile_load` puts there, the complete-tx count (`tx`) the
//! model's box bytes, and the kept bytes (`B`, from `o` to the last written
//! chunk) equal to the model's.
//!
//! Each `S` record of corpus/tensor/sm_90/interleave-store-sweep.jsonl.gz
//! (`--phases T`) is one store (`cp.async.bulk.tensor.Nd.global.shared::cta
//! .tile.bulk_group`): shared memory held the source pattern (seed `sseed`
//! from offset `so`), the global window `[w, w + wn)` the target pattern
//! (seed `tseed`); the window's digest after the store must be that of the
//! target pattern with `tile_store_sm90`'s writes applied, its changed
//! 16-byte granules (`wc`) those the writes change, and the kept window
//! (`W`) equal to the model's.
//!
//! Each `L` record of corpus/tensor/sm_90/interleave-im2col-sweep.jsonl.gz
//! (`--phases Q`) is an interleaved im2col load, checked as the tiled loads
//! are with `im2col_load`; each `F` record (a load that faulted) must be one
//! the model refuses with the filter base outside the Bounding Box.
//!
//! `PTX_TENSOR_INTERLEAVE_SWEEP=path` (`PTX_TENSOR_INTERLEAVE_STORE_SWEEP`,
//! `PTX_TENSOR_INTERLEAVE_IM2COL_SWEEP`) reads another sweep file instead.

use ptx_semantics::tensor::{
    box_shape, digest, im2col_load, im2col_shape, pattern_bytes, poison_word, tile_load,
    tile_store_sm90, DataType, Im2col, Interleave, L2Promotion, Mode, OobFill, TensorError,
    TensorMap,
};
use serde_json::Value;

mod common;

use common::sweep::{b64, i64s, u64s};

fn map_of(r: &Value, addr: u64) -> TensorMap {
    let n = |k: &str| r[k].as_u64().unwrap();
    let (swizzle, atomicity) = TensorMap::from_driver_swizzle(n("sw") as u32).unwrap();
    let mut m = TensorMap {
        data_type: DataType::from_driver(n("t") as u32).unwrap(),
        rank: n("r") as u32,
        global_address: addr,
        interleave: Interleave::from_code(n("il") as u32).unwrap(),
        swizzle,
        atomicity,
        l2_promotion: L2Promotion::from_code(n("l2") as u32).unwrap(),
        oob_fill: OobFill::from_code(n("f") as u32).unwrap(),
        ..TensorMap::default()
    };
    for (i, d) in u64s(&r["d"]).into_iter().enumerate() {
        m.global_dims[i] = d;
    }
    for (i, s) in u64s(&r["s"]).into_iter().enumerate() {
        m.global_strides[i] = s;
    }
    for (i, b) in u64s(&r["b"]).into_iter().enumerate() {
        m.box_dims[i] = b as u32;
    }
    for (i, e) in u64s(&r["e"]).into_iter().enumerate() {
        m.element_strides[i] = e as u32;
    }
    m
}

#[test]
fn interleaved_loads_match_the_hardware() {
    let recs = common::sweep::records("PTX_TENSOR_INTERLEAVE_SWEEP", "interleave-sweep.jsonl.gz");
    let h = &recs[0];
    assert_eq!(h["k"], "H");
    let seed = h["seed"].as_u64().unwrap();
    let gsize = h["gsize"].as_u64().unwrap();
    let global = move |a: u64, n: usize| -> Option<Vec<u8>> {
        (a.checked_add(n as u64)? <= gsize).then(|| pattern_bytes(seed, a, n))
    };
    let (mut loads, mut bytes, mut kept, mut documented) = (0usize, 0u64, 0usize, 0usize);
    let mut wrong = Vec::new();
    for r in recs.iter().filter(|r| r["k"] == "L") {
        let i = r["i"].as_u64().unwrap();
        let m = map_of(r, r["a"].as_u64().unwrap());
        let coords: Vec<i32> = i64s(&r["c"]).into_iter().map(|c| c as i32).collect();
        let o = r["o"].as_u64().unwrap() as usize;
        let n = r["n"].as_u64().unwrap() as usize;
        let tile = match tile_load(&m, &coords, o as u32, &global) {
            Ok(t) => t,
            // The documented rule the CUDA 13.0 driver does not apply (it
            // encodes 32-byte interleave with any swizzle; the model keeps
            // the rule): counted apart.
            Err(e)
                if e.to_string()
                    .contains("CU_TENSOR_MAP_INTERLEAVE_32B, swizzle must be") =>
            {
                documented += 1;
                continue;
            }
            Err(e) => {
                wrong.push(format!("{i}: the model refuses: {e}"));
                continue;
            }
        };
        let shape = box_shape(&m).unwrap();
        if compare_load(i, r, &tile, shape.bytes, n, o, &mut wrong) {
            kept += 1;
        }
        loads += 1;
        bytes += shape.bytes as u64;
    }
    eprintln!("{loads} interleaved loads, {bytes} box bytes, {kept} with bytes kept, {documented} refused by the 32-byte interleave swizzle rule");
    if common::sweep::is_corpus("PTX_TENSOR_INTERLEAVE_SWEEP") {
        assert_eq!((loads, documented), (3008, 992));
    }
    assert!(
        wrong.is_empty(),
        "{} differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn interleaved_stores_match_the_hardware() {
    let env = "PTX_TENSOR_INTERLEAVE_STORE_SWEEP";
    let recs = common::sweep::records(env, "interleave-store-sweep.jsonl.gz");
    let h = &recs[0];
    assert_eq!(h["k"], "H");
    let p = h["phases"]["T"].clone();
    let seed = h["seed"].as_u64().unwrap();
    // (the phase's seeds: `tensor_sweep.py`'s phase_stores)
    let (sseed, tseed) = (seed + 101, seed + 202);
    assert!(p.is_object(), "not a phase T sweep");
    let (mut stores, mut bytes, mut kept, mut documented) = (0usize, 0u64, 0usize, 0usize);
    let mut wrong = Vec::new();
    for r in recs.iter().filter(|r| r["k"] == "S") {
        let i = r["i"].as_u64().unwrap();
        let m = map_of(r, r["a"].as_u64().unwrap());
        let coords: Vec<i32> = i64s(&r["c"]).into_iter().map(|c| c as i32).collect();
        let o = r["o"].as_u64().unwrap() as u32;
        let ext = r["ext"].as_u64().unwrap() as usize;
        let smem = pattern_bytes(sseed, r["so"].as_u64().unwrap(), ext);
        let writes = match tile_store_sm90(&m, &coords, 1024 + o, &smem) {
            Ok(w) => w,
            // (as for the loads: the driver encodes 32-byte interleave with
            // any swizzle, the model keeps the documented rule)
            Err(e)
                if e.to_string()
                    .contains("CU_TENSOR_MAP_INTERLEAVE_32B, swizzle must be") =>
            {
                documented += 1;
                continue;
            }
            Err(e) => {
                wrong.push(format!("{i}: the model refuses: {e}"));
                continue;
            }
        };
        let w0 = r["w"].as_u64().unwrap();
        let wn = r["wn"].as_u64().unwrap() as usize;
        let old = pattern_bytes(tseed, w0, wn);
        let mut win = old.clone();
        let mut outside = false;
        for (addr, b) in &writes {
            match addr.checked_sub(w0).map(|k| k as usize) {
                Some(k) if k + b.len() <= wn => win[k..k + b.len()].copy_from_slice(b),
                _ => outside = true,
            }
            bytes += b.len() as u64;
        }
        if outside {
            wrong.push(format!("{i}: the model writes outside the window"));
        }
        if format!("{:016x}", digest(&win)) != r["h"].as_str().unwrap() {
            wrong.push(format!("{i}: window digest differs"));
        }
        // the changed granules, as [first, end) byte ranges
        let mut runs: Vec<[u64; 2]> = Vec::new();
        for k in (0..wn).step_by(16) {
            if win[k..k + 16] != old[k..k + 16] {
                match runs.last_mut() {
                    Some(l) if l[1] == k as u64 => l[1] += 16,
                    _ => runs.push([k as u64, k as u64 + 16]),
                }
            }
        }
        let hw: Vec<[u64; 2]> = r["wc"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| {
                let v = u64s(x);
                [v[0], v[1]]
            })
            .collect();
        if runs != hw {
            wrong.push(format!("{i}: changed granules {runs:?}, the H100's {hw:?}"));
        }
        if let Some(b) = r["W"].as_str() {
            if b64(b) != win {
                wrong.push(format!("{i}: kept window differs"));
            }
            kept += 1;
        }
        stores += 1;
    }
    eprintln!("{stores} interleaved stores, {bytes} bytes written, {kept} with the window kept, {documented} refused by the 32-byte interleave swizzle rule");
    if common::sweep::is_corpus(env) {
        assert_eq!((stores, documented), (1173, 327));
    }
    assert!(
        wrong.is_empty(),
        "{} differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// An im2col record's map: the tiled fields of [`map_of`], the corners and
/// counts of `cuTensorMapEncodeIm2col`.
fn im2col_map_of(r: &Value, addr: u64) -> TensorMap {
    let mut ic = Im2col {
        channels_per_pixel: r["cpp"].as_u64().unwrap() as u32,
        pixels_per_column: r["ppc"].as_u64().unwrap() as u32,
        ..Im2col::default()
    };
    for (i, v) in i64s(&r["lc"]).into_iter().enumerate() {
        ic.lower_corner[i] = v as i32;
    }
    for (i, v) in i64s(&r["uc"]).into_iter().enumerate() {
        ic.upper_corner[i] = v as i32;
    }
    let mut m = map_of(r, addr);
    m.mode = Mode::Im2col(ic);
    m
}

#[test]
fn interleaved_im2col_loads_match_the_hardware() {
    let env = "PTX_TENSOR_INTERLEAVE_IM2COL_SWEEP";
    let recs = common::sweep::records(env, "interleave-im2col-sweep.jsonl.gz");
    let h = &recs[0];
    assert_eq!(h["k"], "H");
    assert!(h["phases"]["Q"].is_object(), "not a phase Q sweep");
    let seed = h["seed"].as_u64().unwrap();
    let gsize = h["gsize"].as_u64().unwrap();
    let global = move |a: u64, n: usize| -> Option<Vec<u8>> {
        (a.checked_add(n as u64)? <= gsize).then(|| pattern_bytes(seed, a, n))
    };
    let (mut loads, mut bytes, mut kept, mut faults, mut documented) =
        (0usize, 0u64, 0usize, 0usize, 0usize);
    let mut wrong = Vec::new();
    for r in recs.iter().filter(|r| r["k"] == "L" || r["k"] == "F") {
        let i = r["i"].as_u64().unwrap();
        let m = im2col_map_of(r, r["a"].as_u64().unwrap());
        let coords: Vec<i32> = i64s(&r["c"]).into_iter().map(|c| c as i32).collect();
        let offs: Vec<u16> = u64s(&r["off"]).into_iter().map(|o| o as u16).collect();
        let o = r["o"].as_u64().unwrap() as usize;
        let got = im2col_load(&m, &coords, &offs, o as u32, &global);
        // (as for the tiled loads: the driver encodes 32-byte interleave
        // with any swizzle, the model keeps the documented rule)
        if matches!(&got, Err(e) if e.to_string().contains("CU_TENSOR_MAP_INTERLEAVE_32B, swizzle must be"))
        {
            documented += 1;
            continue;
        }
        if r["k"] == "F" {
            match got {
                Err(TensorError::FilterOutsideBox { .. }) => faults += 1,
                other => wrong.push(format!(
                    "{i}: the H100 faulted ({}), the model: {:?}",
                    r["error"],
                    other.map(|_| "a column")
                )),
            }
            continue;
        }
        let tile = match got {
            Ok(t) => t,
            Err(e) => {
                wrong.push(format!("{i}: the model refuses: {e}"));
                continue;
            }
        };
        let shape = im2col_shape(&m).unwrap();
        let n = r["n"].as_u64().unwrap() as usize;
        if compare_load(i, r, &tile, shape.bytes, n, o, &mut wrong) {
            kept += 1;
        }
        loads += 1;
        bytes += shape.bytes as u64;
    }
    eprintln!("{loads} interleaved im2col loads, {bytes} column bytes, {kept} with bytes kept, {faults} faults the model refuses, {documented} refused by the 32-byte interleave swizzle rule");
    if common::sweep::is_corpus(env) {
        assert_eq!((loads, faults, documented), (326, 270, 191));
    }
    assert!(
        wrong.is_empty(),
        "{} differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// Compares load record `i` with the model's `tile` placed at `o` in the
/// `n`-byte poisoned window (its complete-tx `bytes`, the window's digest,
/// the kept bytes), noting what differs; whether the record kept bytes.
fn compare_load(
    i: u64,
    r: &Value,
    tile: &ptx_semantics::tensor::SharedTile,
    bytes: u32,
    n: usize,
    o: usize,
    wrong: &mut Vec<String>,
) -> bool {
    if r["tx"].as_u64() != Some(u64::from(bytes)) {
        wrong.push(format!(
            "{i}: complete-tx {} bytes, the model {bytes}",
            r["tx"]
        ));
    }
    let mut region: Vec<u8> = (0..n as u32 / 4)
        .flat_map(|w| poison_word(w).to_le_bytes())
        .collect();
    tile.apply(&mut region[o..o + tile.bytes.len()]);
    if format!("{:016x}", digest(&region)) != r["h"].as_str().unwrap() {
        wrong.push(format!("{i}: digest differs"));
    }
    let Some(b) = r["B"].as_str() else {
        return false;
    };
    let got = b64(b);
    if got[..] != region[o..o + got.len()] {
        wrong.push(format!("{i}: kept bytes differ"));
    }
    true
}
