//! Tiled tensor copies against an H100 (corpus/tensor/sm_90): every
//! configuration `tools/tensor_sweep.py` ran, recomputed with
//! `ptx_semantics::tensor` (issue 16; docs/tensor-observations.md).
//!
//! - `V` records: a `cuTensorMapEncodeTiled` call and the driver's return
//!   code; `TensorMap::validate` must accept exactly what the driver
//!   accepted.
//! - `L` records: a load (`cp.async.bulk.tensor.Nd.shared::cluster.global.
//!   tile`); the digest of the shared memory the kernel read back (poison,
//!   the box at its offset, poison after it) must be the digest of what
//!   `tile_load` puts there, the complete-tx byte count must be the box's,
//!   and where the record keeps the bytes (`B`) they must be equal.
//! - `S` records: a store (`cp.async.bulk.tensor.Nd.global.shared::cta.
//!   tile`); the digest of the global window must be that of its initial
//!   pattern with `tile_store`'s writes applied.
//! - `F` records: a configuration whose launch faulted (the context is lost);
//!   the model must refuse it.
//!
//! `PTX_TENSOR_SWEEP=path` reads another sweep file (the full one a device
//! run writes) instead of the corpus's.

use ptx_semantics::tensor::{
    box_shape, digest, pattern_bytes, poison_word, tile_load, tile_store, tile_store_sm90,
    DataType, Interleave, L2Promotion, OobFill, SharedTile, TensorMap,
};
use serde_json::Value;
use std::collections::BTreeMap;

mod common;

use common::sweep::{b64, i64s, print_tally, u64s, Tally};

fn records() -> Vec<Value> {
    common::sweep::records("PTX_TENSOR_SWEEP", "tensor-sweep.jsonl.gz")
}

/// The map of a record, the global address `addr`; `None` where a field
/// has a value the model has no variant for (an enumeration out of range),
/// which the driver must refuse.
fn map_of(r: &Value, addr: u64) -> Option<TensorMap> {
    let n = |k: &str| r[k].as_u64().unwrap();
    let rank = n("r") as u32;
    let (swizzle, atomicity) = TensorMap::from_driver_swizzle(n("sw") as u32)?;
    let mut m = TensorMap {
        data_type: DataType::from_driver(n("t") as u32)?,
        rank,
        global_address: addr,
        interleave: Interleave::from_code(n("il") as u32)?,
        swizzle,
        atomicity,
        l2_promotion: L2Promotion::from_code(n("l2") as u32)?,
        oob_fill: OobFill::from_code(n("f") as u32)?,
        ..TensorMap::default()
    };
    for (i, d) in u64s(&r["d"]).into_iter().take(5).enumerate() {
        m.global_dims[i] = d;
    }
    for (i, s) in u64s(&r["s"]).into_iter().take(4).enumerate() {
        m.global_strides[i] = s;
    }
    for (i, b) in u64s(&r["b"]).into_iter().take(5).enumerate() {
        m.box_dims[i] = b as u32;
    }
    for (i, e) in u64s(&r["e"]).into_iter().take(5).enumerate() {
        m.element_strides[i] = e as u32;
    }
    Some(m)
}

fn coords(r: &Value) -> Vec<i32> {
    i64s(&r["c"]).into_iter().map(|c| c as i32).collect()
}

#[test]
fn validate_agrees_with_the_driver() {
    let recs = records();
    let mut by_why: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut wrong = Vec::new();
    for r in recs.iter().filter(|r| r["k"] == "V") {
        let why = r["why"].as_str().unwrap().to_string();
        let driver_ok = r["rc"].as_u64() == Some(0);
        let m = map_of(r, 1 << 20 | r["ga"].as_u64().unwrap());
        let model = m.map(|m| m.validate_on(90));
        let model_ok = matches!(model, Some(Ok(())));
        // The one documented rule the CUDA 13.0 driver does not apply
        // (docs/tensor-observations.md, "Driver"): it encodes 32-byte
        // interleave with any swizzle mode.
        if driver_ok {
            if let Some(Err(e)) = &model {
                if e.rule
                    .starts_with("When interleave is CU_TENSOR_MAP_INTERLEAVE_32B, swizzle must be")
                {
                    by_why
                        .entry("(driver skips il32 swizzle rule)".into())
                        .or_default()
                        .0 += 1;
                    continue;
                }
            }
        }
        let e = by_why.entry(why.clone()).or_default();
        e.0 += 1;
        if model_ok != driver_ok {
            e.1 += 1;
            wrong.push(format!(
                "{why}: driver {} model {}: {}",
                if driver_ok { "accepts" } else { "refuses" },
                match &model {
                    None => "has no such value".to_string(),
                    Some(Ok(())) => "accepts".to_string(),
                    Some(Err(e)) => format!("refuses ({})", e.field),
                },
                r
            ));
        }
    }
    for (why, (n, bad)) in &by_why {
        eprintln!("{why:16} {n:6} {bad:6}");
    }
    assert!(
        wrong.is_empty(),
        "{} disagreements:\n{}",
        wrong.len(),
        wrong
            .iter()
            .take(4000)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The header's values.
struct Header {
    seed: u64,
    gsize: u64,
    sseed: u64,
    tseed: u64,
}

fn header(recs: &[Value]) -> Header {
    let h = recs.iter().find(|r| r["k"] == "H").expect("a header");
    let seed = h["seed"].as_u64().unwrap();
    let st = &h["selftest"];
    assert_eq!(
        format!(
            "{:016x}",
            digest(&pattern_bytes(
                st["seed"].as_u64().unwrap(),
                0,
                st["n"].as_u64().unwrap() as usize
            ))
        ),
        st["digest"].as_str().unwrap(),
        "the sweep's digest and pattern are not the model's"
    );
    let from_s = h["processes"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["phase"] == "S" && p["sseed"].is_u64()))
        .map(|p| (p["sseed"].as_u64().unwrap(), p["tseed"].as_u64().unwrap()));
    let (sseed, tseed) = from_s.unwrap_or((seed + 101, seed + 202));
    Header {
        seed,
        gsize: h["gsize"].as_u64().unwrap(),
        sseed,
        tseed,
    }
}

/// The class of a record, for the summary: phase, swizzle, interleave,
/// fill, position.
fn class(r: &Value) -> String {
    format!(
        "{} sw{} il{} oob{} {}",
        r["phase"].as_str().unwrap_or("L"),
        r["sw"],
        r["il"],
        r["f"],
        r["pos"].as_str().unwrap_or("-")
    )
}

/// The shared memory a load record's kernel read back, by the model: the
/// poison, and the box at its offset.
fn expected_region(r: &Value, tile: &SharedTile) -> Vec<u8> {
    let n = r["n"].as_u64().unwrap() as usize;
    let o = r["o"].as_u64().unwrap() as usize;
    let mut region: Vec<u8> = (0..n as u32 / 4)
        .flat_map(|w| poison_word(w).to_le_bytes())
        .collect();
    // (a region shorter than the box: only a record of an earlier sweep,
    // which sized it without the swizzle's row padding)
    let end = (o + tile.bytes.len()).min(n);
    let mut part = region[o..o + tile.bytes.len().min(n - o)].to_vec();
    part.resize(tile.bytes.len(), 0);
    tile.apply(&mut part);
    region[o..end].copy_from_slice(&part[..end - o]);
    region
}

#[test]
fn loads_and_stores_match_the_hardware() {
    let recs = records();
    let h = header(&recs);
    let gsize = h.gsize;
    let seed = h.seed;
    let global = move |a: u64, n: usize| -> Option<Vec<u8>> {
        (a.checked_add(n as u64)? <= gsize).then(|| pattern_bytes(seed, a, n))
    };
    let mut tally: BTreeMap<String, Tally> = BTreeMap::new();
    let mut bad = Vec::new();
    let mut refused = Vec::new();
    // Phase I (a first look at interleaved layouts) sized shared memory and
    // expect_tx for another reading of 5.5.6: its faults are shared-memory
    // overflows and its bytes snapshots taken before the copy ended.
    // tensor_interleave_hardware.rs holds interleave to its own sweep.
    let first_look = |r: &&Value| r["phase"] == "I";
    for r in recs.iter().filter(|r| r["k"] == "L" && !first_look(r)) {
        let t = tally.entry(class(r)).or_default();
        let map = map_of(r, r["a"].as_u64().unwrap()).expect("a launched map has known fields");
        let c = coords(r);
        let sa = r["sa"].as_u64().unwrap() as u32;
        let model = tile_load(&map, &c, sa, &global);
        let model = match model {
            Ok(b) => b,
            Err(e) => {
                t.refused += 1;
                refused.push(format!("{}: {e}", r["i"]));
                continue;
            }
        };
        t.configs += 1;
        let shape = box_shape(&map).unwrap();
        t.bytes += shape.bytes as u64;
        let x = r["x"].as_u64().unwrap() as usize;
        let mut why = Vec::new();
        if shape.bytes as usize != x || model.bytes.len() != shape.extent as usize {
            why.push(format!(
                "box bytes: kernel expected {x}, model {}",
                shape.bytes
            ));
        }
        if r["st"] != 1 || r["df"] != 0 || r["ov"] != 0 {
            why.push(format!(
                "completion: waited {} deficit {} over {} (the hardware's complete-tx was not the box size)",
                r["st"], r["df"], r["ov"]
            ));
        }
        let region = expected_region(r, &model);
        let hd = format!("{:016x}", digest(&region));
        // The sampled records keep the bytes: compare them too, byte by byte.
        let sample_differs = r["B"].as_str().is_some_and(|b| {
            let hw = b64(b);
            let o = r["o"].as_u64().unwrap() as usize;
            region[o..(o + hw.len()).min(region.len())] != hw[..hw.len().min(region.len() - o)]
        });
        if sample_differs || hd != r["h"].as_str().unwrap() {
            let mut w = "digest differs".to_string();
            if let Some(b) = r["B"].as_str() {
                let hw = b64(b);
                let o = r["o"].as_u64().unwrap() as usize;
                let mine = &region[o..(o + hw.len()).min(region.len())];
                let diffs: Vec<usize> = (0..hw.len().min(mine.len()))
                    .filter(|&k| hw[k] != mine[k])
                    .collect();
                w = format!(
                    "{} of {} bytes differ, first at {:?}",
                    diffs.len(),
                    hw.len(),
                    &diffs[..diffs.len().min(8)]
                );
            }
            why.push(w);
        }
        if !why.is_empty() {
            t.differing += 1;
            bad.push(format!(
                "load {} ({}): {} -- {}",
                r["i"],
                class(r),
                why.join("; "),
                map.describe()
            ));
        }
    }
    // Stores.
    let mut granule_stores = 0;
    for r in recs.iter().filter(|r| r["k"] == "S") {
        let t = tally
            .entry(format!(
                "S sw{} il{} {}",
                r["sw"],
                r["il"],
                r["pos"].as_str().unwrap_or("-")
            ))
            .or_default();
        let map = map_of(r, r["a"].as_u64().unwrap()).expect("a launched map has known fields");
        let c = coords(r);
        let o = r["o"].as_u64().unwrap() as u32;
        let ext = box_shape(&map).map(|s| s.extent as usize).unwrap_or(0);
        let smem = pattern_bytes(h.sseed, r["so"].as_u64().unwrap(), ext);
        let writes = match tile_store_sm90(&map, &c, 1024 + o, &smem) {
            Ok(w) => w,
            Err(e) => {
                t.refused += 1;
                refused.push(format!("store {}: {e}", r["i"]));
                continue;
            }
        };
        t.configs += 1;
        let w0 = r["w"].as_u64().unwrap();
        let wn = r["wn"].as_u64().unwrap() as usize;
        let window = |writes: &[(u64, Vec<u8>)]| {
            let mut win = pattern_bytes(h.tseed, w0, wn);
            for (addr, bytes) in writes {
                let off = (addr - w0) as usize;
                win[off..off + bytes.len()].copy_from_slice(bytes);
            }
            format!("{:016x}", digest(&win))
        };
        t.bytes += writes.iter().map(|w| w.1.len() as u64).sum::<u64>();
        // Where the spec's element-exact writes differ from the H100's
        // granules, the hardware's digest must be the granules' (evidence
        // for docs/tensor-observations.md).
        let spec = tile_store(&map, &c, 1024 + o, &smem).unwrap();
        if spec != writes {
            granule_stores += 1;
            if window(&spec) == r["h"].as_str().unwrap() {
                bad.push(format!(
                    "store {}: the spec's writes give the hardware's digest too",
                    r["i"]
                ));
            }
        }
        if window(&writes) != r["h"].as_str().unwrap() {
            t.differing += 1;
            bad.push(format!(
                "store {}: window digest differs -- {} at {:?}",
                r["i"],
                map.describe(),
                c
            ));
        }
    }
    // Faults: the model must refuse what made the hardware fault.
    let mut faults = Vec::new();
    for r in recs.iter().filter(|r| r["k"] == "F" && !first_look(r)) {
        let map = map_of(r, r["a"].as_u64().unwrap()).expect("a launched map has known fields");
        let c = coords(r);
        let model = if r["phase"] == "S" {
            let x = box_shape(&map).map(|s| s.extent as usize).unwrap_or(0);
            tile_store(
                &map,
                &c,
                1024 + r["o"].as_u64().unwrap() as u32,
                &vec![0; x],
            )
            .err()
        } else {
            tile_load(&map, &c, 1024 + r["o"].as_u64().unwrap() as u32, &global).err()
        };
        let line = format!(
            "fault {} {} ({}): model {:?}",
            r["phase"],
            r["i"],
            r["error"],
            model.as_ref().map(|e| e.to_string())
        );
        eprintln!("{line}");
        if model.is_none() {
            faults.push(line);
        }
    }
    let total = print_tally(&tally);
    eprintln!("stores where the H100 writes past the row's last element: {granule_stores}");
    for l in refused.iter().take(20) {
        eprintln!("refused: {l}");
    }
    if std::env::var_os("PTX_TENSOR_SWEEP").is_none() {
        // The corpus's sweep: 24,000 loads, 800 more (far coordinates,
        // element strides in dimension 0), 6,000 stores.
        assert!(
            total.configs >= 30_000,
            "only {} configurations compared",
            total.configs
        );
        assert!(
            recs.iter().filter(|r| r["k"] == "F").count() >= 8,
            "the fault records are missing"
        );
    }
    assert!(
        bad.is_empty() && faults.is_empty(),
        "{} differ, {} faults the model accepts:\n{}\n{}",
        bad.len(),
        faults.len(),
        bad.iter().take(60).cloned().collect::<Vec<_>>().join("\n"),
        faults.join("\n")
    );
}
