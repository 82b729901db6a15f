//! im2col tensor copies against an H100 (corpus/tensor/sm_90/
//! im2col-sweep.jsonl.gz): every configuration `tools/tensor_sweep.py
//! --phases DCO` ran, recomputed with `ptx_semantics::tensor::im2col`
//! (docs/tensor-observations.md, "im2col").
//!
//! - `V` records (`"mode":"im2col"`): a `cuTensorMapEncodeIm2col` call and
//!   the driver's return code; `TensorMap::validate_on(90)` with the two
//!   map rules `im2col_bytes` adds must accept exactly what the driver
//!   accepted, but for the known differences of [`known_refusal`].
//! - `L` records of phase C: a load (`cp.async.bulk.tensor.Nd.shared::
//!   cluster.global.im2col`); the digest of the shared memory the kernel read
//!   back (poison, the column at its offset, poison after it) must be the
//!   digest of what `im2col_load` puts there, the complete-tx byte count
//!   must be `im2col_bytes`, and where the record keeps the bytes (`B`) they
//!   must be equal.
//! - `L` records of phase O: a load with an operand the spec leaves
//!   undefined (an im2col offset past its range); the model must refuse it,
//!   and what the H100 did is checked against the observation recorded in
//!   docs/tensor-observations.md.
//! - `F` records: a launch that faulted; the model must refuse it.
//!
//! `PTX_IM2COL_SWEEP=path` reads another sweep file (the full one a device
//! run writes) instead of the corpus's.

use ptx_semantics::tensor::{
    digest, im2col_bytes, im2col_load, im2col_offset_max, im2col_shape, pattern_bytes, poison_word,
    DataType, Im2col, Interleave, L2Promotion, Mode, OobFill, SharedTile, Swizzle, TensorError,
    TensorMap,
};
use serde_json::Value;
use std::collections::BTreeMap;

mod common;

use common::sweep::{b64, i64s, print_tally, u64s, Tally};

fn records() -> Vec<Value> {
    common::sweep::records("PTX_IM2COL_SWEEP", "im2col-sweep.jsonl.gz")
}

fn corpus() -> bool {
    common::sweep::is_corpus("PTX_IM2COL_SWEEP")
}

/// The map of an im2col record, the global address `addr`; `None` where a
/// field has a value the model has no variant for (an enumeration out of
/// range, a corner past 32 bits), which the driver must refuse.
fn map_of(r: &Value, addr: u64) -> Option<TensorMap> {
    let n = |k: &str| r[k].as_u64().unwrap();
    let (swizzle, atomicity) = TensorMap::from_driver_swizzle(n("sw") as u32)?;
    let mut ic = Im2col {
        channels_per_pixel: u32::try_from(n("cpp")).ok()?,
        pixels_per_column: u32::try_from(n("ppc")).ok()?,
        ..Im2col::default()
    };
    for (i, v) in i64s(&r["lc"]).into_iter().take(3).enumerate() {
        ic.lower_corner[i] = i32::try_from(v).ok()?;
    }
    for (i, v) in i64s(&r["uc"]).into_iter().take(3).enumerate() {
        ic.upper_corner[i] = i32::try_from(v).ok()?;
    }
    let mut m = TensorMap {
        data_type: DataType::from_driver(n("t") as u32)?,
        rank: n("r") as u32,
        global_address: addr,
        interleave: Interleave::from_code(n("il") as u32)?,
        swizzle,
        atomicity,
        l2_promotion: L2Promotion::from_code(n("l2") as u32)?,
        oob_fill: OobFill::from_code(n("f") as u32)?,
        mode: Mode::Im2col(ic),
        ..TensorMap::default()
    };
    for (i, d) in u64s(&r["d"]).into_iter().take(5).enumerate() {
        m.global_dims[i] = d;
    }
    for (i, s) in u64s(&r["s"]).into_iter().take(4).enumerate() {
        m.global_strides[i] = s;
    }
    for (i, e) in u64s(&r["e"]).into_iter().take(5).enumerate() {
        m.element_strides[i] = e as u32;
    }
    Some(m)
}

fn coords(r: &Value) -> Vec<i32> {
    i64s(&r["c"]).into_iter().map(|c| c as i32).collect()
}

/// The im2col offsets as the kernel passed them (`.u16` parameters).
fn offsets(r: &Value) -> Vec<u16> {
    i64s(&r["off"]).into_iter().map(|o| o as u16).collect()
}

/// The model's verdict on a map: `validate_on(90)`, and the two rules of
/// im2col maps that `im2col_bytes` checks besides (a box with a position,
/// rows of whole 16 bytes).
fn model_verdict(m: &TensorMap) -> Result<(), String> {
    m.validate_on(90)
        .map_err(|e| format!("{}: {}", e.field, e.rule))?;
    match im2col_bytes(m) {
        Err(TensorError::InvalidMap(e)) => Err(format!("{}: {}", e.field, e.rule)),
        _ => Ok(()),
    }
}

/// The largest column (`pixelsPerColumn * channelsPerPixel * elementSize`)
/// the CUDA 13.0 driver encoded on the H100; it refused every one from
/// 235,520 bytes on (docs/tensor-observations.md).
const LARGEST_COLUMN: u64 = 233_472;

/// Why the driver refuses a map the model accepts, where that is a known
/// difference (docs/tensor-observations.md, "im2col", "The driver"); `None`
/// for any other, which fails the test.
fn known_refusal(r: &Value, m: &TensorMap) -> Option<&'static str> {
    let Mode::Im2col(ic) = m.mode else {
        return None;
    };
    let column = ic.pixels_per_column as u64
        * ic.channels_per_pixel as u64
        * m.elem_size().unwrap_or(0) as u64;
    if column > LARGEST_COLUMN {
        return Some("column over 233,472 bytes (no rule in the driver's text)");
    }
    // "non-zero area" computed in 32 bits: globalDim 2^32 wraps
    let wraps = (0..m.rank as usize - 2).any(|i| {
        let area =
            m.global_dims[i + 1] as i64 + ic.upper_corner[i] as i64 - ic.lower_corner[i] as i64;
        m.global_dims[i + 1] == 1 << 32 && (area as i32) <= 0
    });
    if wraps {
        return Some("globalDim 2^32: the area wraps at 32 bits");
    }
    if r["il"] != 0 {
        return Some("interleaved (not characterised)");
    }
    None
}

#[test]
fn validate_agrees_with_the_driver_on_im2col_maps() {
    let recs = records();
    let mut by_why: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut known: BTreeMap<&str, usize> = BTreeMap::new();
    let mut wrong = Vec::new();
    let mut n = 0;
    for r in recs
        .iter()
        .filter(|r| r["k"] == "V" && r["mode"] == "im2col")
    {
        n += 1;
        let why = r["why"].as_str().unwrap().to_string();
        let driver_ok = r["rc"].as_u64() == Some(0);
        let m = map_of(r, 1 << 20 | r["ga"].as_u64().unwrap());
        let model = m.as_ref().map(model_verdict);
        let model_ok = matches!(model, Some(Ok(())));
        if !driver_ok && model_ok {
            if let Some(k) = known_refusal(r, m.as_ref().unwrap()) {
                *known.entry(k).or_default() += 1;
                continue;
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
                    Some(Err(e)) => format!("refuses ({e})"),
                },
                r
            ));
        }
    }
    for (why, (n, bad)) in &by_why {
        eprintln!("{why:24} {n:6} {bad:6}");
    }
    for (k, n) in &known {
        eprintln!("known: {k:56} {n:6}");
    }
    if corpus() {
        assert_eq!(n, 3012, "the corpus holds 3,012 im2col verdicts");
        // the column bound: both sides of it are in the corpus
        let columns = |ok: bool| {
            recs.iter()
                .filter(|r| r["why"] == "colbytes" && (r["rc"] == 0) == ok)
                .count()
        };
        assert!(columns(true) > 0 && columns(false) > 0);
    }
    assert!(
        wrong.is_empty(),
        "{} disagreements:\n{}",
        wrong.len(),
        wrong
            .iter()
            .take(200)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The header's values: the pattern seed and size of global memory.
fn global_of(recs: &[Value]) -> impl Fn(u64, usize) -> Option<Vec<u8>> {
    let h = recs.iter().find(|r| r["k"] == "H").expect("a header");
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
    let seed = h["seed"].as_u64().unwrap();
    let gsize = h["gsize"].as_u64().unwrap();
    move |a: u64, n: usize| (a.checked_add(n as u64)? <= gsize).then(|| pattern_bytes(seed, a, n))
}

/// The shared memory a load record's kernel read back, by the model: the
/// poison, and the column at its offset.
fn expected_region(r: &Value, tile: &SharedTile) -> Vec<u8> {
    let n = r["n"].as_u64().unwrap() as usize;
    let o = r["o"].as_u64().unwrap() as usize;
    let mut region: Vec<u8> = (0..n as u32 / 4)
        .flat_map(|w| poison_word(w).to_le_bytes())
        .collect();
    let end = o + tile.bytes.len();
    assert!(end <= n, "the record's region is shorter than the column");
    tile.apply(&mut region[o..end]);
    region
}

/// Whether the model's region for a record is what the hardware left: the
/// digest, and the kept bytes where the record has them.
fn agrees(r: &Value, tile: &SharedTile) -> Result<(), String> {
    let region = expected_region(r, tile);
    if let Some(b) = r["B"].as_str() {
        let hw = b64(b);
        let o = r["o"].as_u64().unwrap() as usize;
        let mine = &region[o..(o + hw.len()).min(region.len())];
        let diffs: Vec<usize> = (0..hw.len().min(mine.len()))
            .filter(|&k| hw[k] != mine[k])
            .collect();
        if !diffs.is_empty() {
            return Err(format!(
                "{} of {} bytes differ, first at {:?}",
                diffs.len(),
                hw.len(),
                &diffs[..diffs.len().min(8)]
            ));
        }
    }
    if format!("{:016x}", digest(&region)) != r["h"].as_str().unwrap() {
        return Err("digest differs".into());
    }
    Ok(())
}

/// The class of a record, for the summary: phase, rank, swizzle, fill,
/// position.
fn class(r: &Value) -> String {
    format!(
        "{} r{} sw{} oob{} {}",
        r["phase"].as_str().unwrap_or("C"),
        r["r"],
        r["sw"],
        r["f"],
        r["pos"].as_str().unwrap_or("-")
    )
}

#[test]
fn im2col_loads_match_the_hardware() {
    let recs = records();
    let global = global_of(&recs);
    let mut tally: BTreeMap<String, Tally> = BTreeMap::new();
    let mut bad = Vec::new();
    let mut by_mode: BTreeMap<String, (usize, u64)> = BTreeMap::new();
    let loads: Vec<&Value> = recs
        .iter()
        .filter(|r| r["k"] == "L" && r["phase"] == "C")
        .collect();
    for r in &loads {
        let t = tally.entry(class(r)).or_default();
        let map = map_of(r, r["a"].as_u64().unwrap()).expect("a launched map has known fields");
        let sa = r["sa"].as_u64().unwrap() as u32;
        let tile = match im2col_load(&map, &coords(r), &offsets(r), sa, &global) {
            Ok(t) => t,
            Err(e) => {
                t.refused += 1;
                bad.push(format!("load {}: the model refuses it: {e}", r["i"]));
                continue;
            }
        };
        t.configs += 1;
        let bytes = im2col_bytes(&map).unwrap();
        t.bytes += bytes as u64;
        for key in [
            format!("rank {}", r["r"]),
            format!("swizzle {}", r["sw"]),
            format!("fill {}", r["f"]),
            format!("type {}", map.data_type.name()),
            format!("position {}", r["pos"].as_str().unwrap_or("-")),
        ] {
            let e = by_mode.entry(key).or_default();
            e.0 += 1;
            e.1 += bytes as u64;
        }
        let mut why = Vec::new();
        let x = r["x"].as_u64().unwrap() as u32;
        if bytes != x || tile.bytes.len() != im2col_shape(&map).unwrap().extent as usize {
            why.push(format!("column bytes: kernel expected {x}, model {bytes}"));
        }
        if r["st"] != 1 || r["df"] != 0 || r["ov"] != 0 {
            why.push(format!(
                "completion: waited {} deficit {} over {} (the hardware's complete-tx was not the column's bytes)",
                r["st"], r["df"], r["ov"]
            ));
        }
        if let Err(w) = agrees(r, &tile) {
            why.push(w);
        }
        if !why.is_empty() {
            t.differing += 1;
            bad.push(format!(
                "load {} ({}): {} -- {} coords {:?} offsets {:?} {:?}",
                r["i"],
                class(r),
                why.join("; "),
                map.describe(),
                coords(r),
                offsets(r),
                map.mode
            ));
        }
    }
    let total = print_tally(&tally);
    for (k, (n, b)) in &by_mode {
        eprintln!("{k:32} {n:>8} {b:>10}");
    }
    // Every record was compared: none skipped, none refused.
    assert_eq!(total.configs + total.refused, loads.len());
    if corpus() {
        assert_eq!(total.configs, 8000, "the corpus holds 8,000 im2col loads");
    }
    assert!(
        bad.is_empty(),
        "{} differ:\n{}",
        bad.len(),
        bad.iter().take(60).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// Phase O: operands the spec leaves undefined. The model refuses each;
/// the H100 faults on some and loads others (the observations of
/// docs/tensor-observations.md).
#[test]
fn undefined_operands_are_refused() {
    let recs = records();
    let global = global_of(&recs);
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut bad = Vec::new();
    for r in recs
        .iter()
        .filter(|r| r["phase"] == "O" && (r["k"] == "L" || r["k"] == "F"))
    {
        let why = r["why"].as_str().unwrap_or("-");
        let map = map_of(r, r["a"].as_u64().unwrap()).expect("a launched map has known fields");
        let sa = if r["k"] == "F" {
            1024 + r["o"].as_u64().unwrap() as u32
        } else if r["k"] == "L" {
            r["sa"].as_u64().unwrap() as u32
        } else {
            continue;
        };
        let model = im2col_load(&map, &coords(r), &offsets(r), sa, &global);
        let kind = match (r["k"].as_str().unwrap(), &model) {
            ("F", Err(TensorError::FilterOutsideBox { .. })) => {
                "fault, filter base outside the box"
            }
            ("F", Err(TensorError::MisalignedBox { .. })) => "fault, first channel misaligned",
            ("F", Err(TensorError::Misaligned { .. })) => "fault, shared address misaligned",
            ("L", Err(TensorError::Im2colOffsetRange { .. })) => {
                // Observation: the H100 takes the offset's low bits (8 for
                // 4D, 5 for 5D), the range's width.
                let mask = im2col_offset_max(map.rank);
                let low: Vec<u16> = offsets(r).iter().map(|o| o & mask).collect();
                let tile = im2col_load(&map, &coords(r), &low, sa, &global).unwrap();
                if let Err(w) = agrees(r, &tile) {
                    bad.push(format!(
                        "load {} ({why}): not the offsets' low bits: {w}",
                        r["i"]
                    ));
                }
                "loaded, offset past its range (the low bits taken)"
            }
            (k, m) => {
                bad.push(format!(
                    "{k} {} ({why}): model {:?}",
                    r["i"],
                    m.as_ref().map(|_| "a column")
                ));
                "unexpected"
            }
        };
        *seen.entry(kind.to_string()).or_default() += 1;
    }
    for (k, n) in &seen {
        eprintln!("{k:56} {n:4}");
    }
    if corpus() {
        for (kind, n) in [
            ("fault, filter base outside the box", 16),
            ("fault, first channel misaligned", 4),
            ("fault, shared address misaligned", 2),
            ("loaded, offset past its range (the low bits taken)", 10),
        ] {
            assert_eq!(seen.get(kind).copied().unwrap_or(0), n, "{kind}");
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The corpus tells the model's readings apart: each reading below, swapped
/// for a plausible other one, makes some records differ. (A test that no
/// wrong model could fail would prove nothing.)
#[test]
fn the_corpus_tells_each_reading_apart() {
    let recs = records();
    let global = global_of(&recs);
    type Mutant = fn(&mut TensorMap, &mut Vec<i32>, &mut Vec<u16>);
    let mutants: Vec<(&str, Mutant)> = vec![
        ("offsets ignored", |_, _, o| {
            o.iter_mut().for_each(|x| *x = 0)
        }),
        ("corners listed D, H, W (reversed)", |m, _, _| {
            if let Mode::Im2col(ic) = &mut m.mode {
                let n = m.rank as usize - 2;
                ic.lower_corner[..n].reverse();
                ic.upper_corner[..n].reverse();
            }
        }),
        ("upper corner measured from globalDim", |m, _, _| {
            if let Mode::Im2col(ic) = &mut m.mode {
                ic.upper_corner.iter_mut().for_each(|u| *u += 1);
            }
        }),
        ("W wraps to 0, not the lower corner", |m, _, _| {
            if let Mode::Im2col(ic) = &mut m.mode {
                ic.lower_corner[0] = 0;
            }
        }),
        ("traversal strides ignored", |m, _, _| {
            let r = m.rank as usize;
            m.element_strides[1..r - 1].iter_mut().for_each(|e| *e = 1);
        }),
        ("images step by one, not elementStrides", |m, _, _| {
            m.element_strides[m.rank as usize - 1] = 1
        }),
        ("no swizzle", |m, _, _| m.swizzle = Swizzle::None),
        ("zero fill only", |m, _, _| m.oob_fill = OobFill::Zero),
        ("channel start ignored", |_, c, _| c[0] = 0),
        ("image start ignored", |m, c, _| c[m.rank as usize - 1] = 0),
    ];
    let loads: Vec<&Value> = recs
        .iter()
        .filter(|r| r["k"] == "L" && r["phase"] == "C")
        .collect();
    let mut uncaught = Vec::new();
    for (name, mutate) in &mutants {
        let mut caught = 0;
        for r in &loads {
            let mut map = map_of(r, r["a"].as_u64().unwrap()).unwrap();
            let (mut c, mut o) = (coords(r), offsets(r));
            mutate(&mut map, &mut c, &mut o);
            let sa = r["sa"].as_u64().unwrap() as u32;
            let differs = match im2col_load(&map, &c, &o, sa, &global) {
                Ok(tile) => agrees(r, &tile).is_err(),
                Err(_) => true,
            };
            caught += differs as usize;
        }
        eprintln!("{name:40} caught by {caught:6} of {} records", loads.len());
        if caught == 0 {
            uncaught.push(*name);
        }
    }
    // And a single byte of the model's output.
    let mut flips = 0;
    for r in loads.iter().take(200) {
        let map = map_of(r, r["a"].as_u64().unwrap()).unwrap();
        let sa = r["sa"].as_u64().unwrap() as u32;
        let mut tile = im2col_load(&map, &coords(r), &offsets(r), sa, &global).unwrap();
        let k = tile.written.iter().position(|&w| w).unwrap();
        tile.bytes[16 * k] ^= 1;
        flips += agrees(r, &tile).is_err() as usize;
    }
    assert_eq!(flips, loads.len().min(200), "a flipped byte went unseen");
    assert!(uncaught.is_empty(), "no record tells apart: {uncaught:?}");
}
