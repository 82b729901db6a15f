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
//! `PTX_TENSOR_INTERLEAVE_SWEEP=path` reads another sweep file instead.

use ptx_semantics::tensor::{
    box_shape, digest, pattern_bytes, poison_word, tile_load, DataType, Interleave, L2Promotion,
    OobFill, TensorMap,
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
        if r["tx"].as_u64() != Some(shape.bytes as u64) {
            wrong.push(format!(
                "{i}: complete-tx {} bytes, the model {}",
                r["tx"], shape.bytes
            ));
        }
        let mut region: Vec<u8> = (0..n as u32 / 4)
            .flat_map(|w| poison_word(w).to_le_bytes())
            .collect();
        tile.apply(&mut region[o..o + tile.bytes.len()]);
        if format!("{:016x}", digest(&region)) != r["h"].as_str().unwrap() {
            wrong.push(format!("{i}: digest differs"));
        }
        if let Some(b) = r["B"].as_str() {
            let got = b64(b);
            if got[..] != region[o..o + got.len()] {
                wrong.push(format!("{i}: kept bytes differ"));
            }
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
