//! The model against what sm_90 produced (corpus/cvt/hardware/sm_90): every
//! conversion form ptxas accepted, on its edge set (values compared one by
//! one), its exhaustive 16-bit sweep or its random set (compared through
//! digests of 16384-row blocks). Forms listed in divergences.tsv, where the
//! spec and the hardware disagree, are compared with the form the hardware
//! behaves as, and the model must differ from the hardware there at least
//! once (else the entry is stale).

use ptx_conformance::cvt_hw::{block_digest, tf32_satfinite_nan, HwForm, BLOCK};
use ptx_conformance::cvt_hw_cmd::{forms_by_text, RANDOM_ROWS, SEED, TARGET, VERSION};
use ptx_gen::cvt::vectors;
use std::collections::HashMap;
use std::io::Read;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/cvt/hardware/sm_90")
}

/// The hardware's outputs on the edge sets, as text (`form<TAB>hex hex ...`).
fn edge_text() -> String {
    let mut gz = String::new();
    flate2::read::GzDecoder::new(
        std::fs::File::open(dir().join("edge.tsv.gz")).expect("edge.tsv.gz"),
    )
    .read_to_string(&mut gz)
    .expect("edge.tsv.gz");
    gz
}

/// The model's outputs with the bits the spec leaves unspecified cleared
/// (the baseline's digests clear the same bits of the hardware's outputs).
fn model_outputs(f: &HwForm, rows: &[Vec<u64>]) -> Vec<u64> {
    rows.iter()
        .map(|r| f.model(r).map_or(u64::MAX, |(b, dc)| b & !dc))
        .collect()
}

#[test]
fn model_reproduces_the_hardware() {
    let forms = forms_by_text();
    let table = std::fs::read_to_string(dir().join("forms.tsv")).expect("forms.tsv");
    let gz = edge_text();
    let edge: HashMap<&str, Vec<u64>> = gz
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .map(|(f, v)| {
            (
                f,
                v.split(' ')
                    .map(|x| u64::from_str_radix(x, 16).unwrap_or(0))
                    .collect(),
            )
        })
        .collect();
    let div_text = std::fs::read_to_string(dir().join("divergences.tsv")).expect("divergences.tsv");
    let divergences: HashMap<&str, &str> = div_text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let mut c = l.split('\t');
            Some((c.next()?, c.next()?))
        })
        .collect();

    let lines: Vec<&str> = table.lines().filter(|l| !l.starts_with('#')).collect();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let parts: Vec<Found> = std::thread::scope(|s| {
        let handles: Vec<_> = lines
            .chunks(lines.len().div_ceil(threads))
            .map(|chunk| {
                let (forms, edge, divergences) = (&forms, &edge, &divergences);
                s.spawn(move || check_lines(chunk, forms, edge, divergences))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("checker thread"))
            .collect()
    });
    let mut failures = Vec::new();
    let (mut checked_forms, mut checked_rows) = (0, 0);
    let mut divergent_rows: HashMap<&str, usize> = HashMap::new();
    for (f, n, r, d) in parts {
        failures.extend(f);
        checked_forms += n;
        checked_rows += r;
        divergent_rows.extend(d);
    }
    for form in divergences.keys() {
        if divergent_rows.get(form).copied().unwrap_or(0) == 0 {
            failures.push(format!(
                "{form}: listed as a divergence, but the model agrees with the hardware"
            ));
        }
    }
    eprintln!("checked {checked_forms} forms, {checked_rows} rows; divergent rows per listed form: {divergent_rows:?}");
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

type Found<'a> = (Vec<String>, usize, usize, HashMap<&'a str, usize>);

fn check_lines<'a>(
    lines: &[&'a str],
    forms: &HashMap<String, HwForm>,
    edge: &HashMap<&str, Vec<u64>>,
    divergences: &HashMap<&str, &str>,
) -> Found<'a> {
    let mut failures = Vec::new();
    let mut checked_rows = 0usize;
    let mut checked_forms = 0usize;
    let mut divergent_rows: HashMap<&str, usize> = HashMap::new();
    for line in lines {
        let cols: Vec<&str> = line.split('\t').collect();
        let text = cols[0];
        if cols.get(1) != Some(&"ok") {
            continue;
        }
        let Some(f) = forms.get(text) else {
            failures.push(format!("{text}: in the baseline but no longer generated"));
            continue;
        };
        // Where the hardware departs from the spec: the form it computes
        // instead, or a named rule below.
        let divergence = divergences.get(text).copied();
        let hw_form = divergence.and_then(|d| d.strip_prefix("as:")).map(|alt| {
            forms
                .get(alt)
                .unwrap_or_else(|| panic!("divergence target {alt} unknown"))
        });
        checked_forms += 1;
        for set_col in &cols[2..] {
            let parts: Vec<&str> = set_col.split(':').collect();
            let (name, rows_n, in_digest, blocks) = (parts[0], parts[1], parts[2], parts[3]);
            let set = f
                .sets(RANDOM_ROWS, SEED)
                .into_iter()
                .find(|(n, _)| *n == name)
                .map(|(_, s)| s)
                .unwrap_or_else(|| panic!("{text}: unknown set {name}"));
            let rows = vectors(&f.conv, set);
            let flat: Vec<u64> = rows.iter().flatten().copied().collect();
            if rows.len().to_string() != rows_n
                || format!("{:016x}", block_digest(0, &flat)) != in_digest
            {
                failures.push(format!(
                    "{text} {name}: the inputs differ from those the hardware ran"
                ));
                continue;
            }
            let ours = model_outputs(f, &rows);
            let mut expect = hw_form.map_or_else(|| ours.clone(), |h| model_outputs(h, &rows));
            if divergence == Some("tf32-satfinite-nan") {
                for (e, row) in expect.iter_mut().zip(&rows) {
                    *e = tf32_satfinite_nan(row[0], *e);
                }
            }
            if divergence.is_some() {
                *divergent_rows.entry(text).or_default() +=
                    ours.iter().zip(&expect).filter(|(a, b)| a != b).count();
            }
            checked_rows += rows.len();
            if name == "edge" {
                let gpu = &edge[text];
                let mut shown = 0;
                for (i, row) in rows.iter().enumerate() {
                    let dc = f.model(row).map_or(u64::MAX, |(_, dc)| dc);
                    if (gpu[i] ^ expect[i]) & !dc != 0 && shown < 4 {
                        shown += 1;
                        failures.push(format!(
                            "{text} {row:x?}: hardware {:#x}, model {:#x}",
                            gpu[i], expect[i]
                        ));
                    }
                }
                continue;
            }
            let mut shown = 0;
            for (b, (chunk, want)) in expect.chunks(BLOCK).zip(blocks.split(',')).enumerate() {
                if shown == 2 {
                    failures.push(format!("{text} {name}: more blocks differ"));
                    break;
                }
                if format!("{:016x}", block_digest(b * BLOCK, chunk)) != want {
                    shown += 1;
                    failures.push(format!(
                        "{text} {name}: rows {}..{} differ",
                        b * BLOCK,
                        (b + 1) * BLOCK
                    ));
                }
            }
        }
    }
    (failures, checked_forms, checked_rows, divergent_rows)
}

fn tsv(name: &str) -> Vec<Vec<String>> {
    std::fs::read_to_string(dir().join(name))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// The 2^32 digests (`conform cvt-hw digest`, model computed on the device
/// machine): every `.f32`-source form has both digests, the verdict column
/// says what the digests say, and the forms whose digests differ are exactly
/// the `.f32`-source forms listed in divergences.tsv.
#[test]
fn digests_over_every_input_agree_outside_the_listed_divergences() {
    let gpu: HashMap<String, String> = tsv("gpu-digest32.tsv")
        .into_iter()
        .map(|r| (r[0].clone(), r[1].clone()))
        .collect();
    let listed: std::collections::HashSet<String> = tsv("divergences.tsv")
        .into_iter()
        .map(|r| r[0].clone())
        .collect();
    let f32_forms: Vec<HwForm> = ptx_conformance::cvt_hw::forms(VERSION, TARGET)
        .into_iter()
        .filter(|f| f.f32_sources())
        .collect();
    let rows = tsv("digest32.tsv");
    assert_eq!(rows.len(), f32_forms.len(), "one line per .f32-source form");
    assert_eq!(gpu.len(), f32_forms.len());
    let mut differ = std::collections::HashSet::new();
    for r in &rows {
        let (form, g, m, verdict) = (&r[0], &r[1], &r[2], &r[3]);
        assert_eq!(gpu.get(form), Some(g), "{form}: GPU digest");
        assert_eq!(m.len(), 16, "{form}: model digest {m:?}");
        if g == m {
            assert_eq!(verdict, "same", "{form}");
        } else {
            assert!(verdict.starts_with("different"), "{form}");
            differ.insert(form.clone());
        }
    }
    let listed_f32: std::collections::HashSet<String> =
        listed.into_iter().filter(|f| gpu.contains_key(f)).collect();
    assert_eq!(differ, listed_f32);
}

/// Recompute the model's digest of every `.f32`-source form (or those whose
/// text contains `PTX_DIGEST_FILTER`) and compare with digest32.tsv: about
/// 25 s per form on two cores.
#[test]
#[ignore]
fn model_digests_recomputed() {
    let filter = std::env::var("PTX_DIGEST_FILTER").unwrap_or_default();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let by_text: HashMap<String, String> = tsv("digest32.tsv")
        .into_iter()
        .map(|r| (r[0].clone(), r[2].clone()))
        .collect();
    for f in ptx_conformance::cvt_hw::forms(VERSION, TARGET) {
        if f.f32_sources() && f.text.contains(filter.as_str()) {
            let m = format!(
                "{:016x}",
                ptx_conformance::cvt_hw::model_digest(&f, threads)
            );
            assert_eq!(Some(&m), by_text.get(&f.text), "{}", f.text);
        }
    }
}

/// The model's 2^32 digests, recomputed in part on every run
/// (digests_over_every_input_agree_outside_the_listed_divergences only
/// reads the files). A whole digest takes 6-30 s per form on two cores, so
/// digest32-chunks.tsv keeps, for a sample of `.f32`-source forms, the
/// model's digest of each of 256 equal chunks of the inputs (`conform
/// cvt-hw digest --chunks 256 --form ...`, which the file's header names).
/// The digest is a wrapping sum over inputs, so each form's chunks must add
/// up to its model digest in digest32.tsv, and, as none of these forms is
/// a listed divergence, to the GPU's digest in gpu-digest32.tsv: the
/// chunks are what the hardware computed, not only what the model once
/// did. The test then recomputes from the model chunks 0x00, 0x7f, 0x80
/// and 0xff (zeros, subnormals, infinities and NaNs of both signs) and four
/// more per form picked by a fixed hash of the form's line number, and
/// compares them with the file. `PTX_DIGEST_CHUNKS=all` recomputes every
/// chunk (about as long as the whole digests). See: issue 21.
#[test]
fn model_digest_chunks_recomputed() {
    let all = std::env::var("PTX_DIGEST_CHUNKS").is_ok_and(|v| v == "all");
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let col = |name: &str, c: usize| -> HashMap<String, String> {
        tsv(name)
            .into_iter()
            .map(|r| (r[0].clone(), r[c].clone()))
            .collect()
    };
    let (model, gpu) = (col("digest32.tsv", 2), col("gpu-digest32.tsv", 1));
    let forms = forms_by_text();
    let rows = tsv("digest32-chunks.tsv");
    assert!(rows.len() >= 10, "{} forms", rows.len());
    let mut failures = Vec::new();
    let mut recomputed = 0;
    for (line, r) in rows.iter().enumerate() {
        let (text, n) = (&r[0], r[1].parse::<u64>().unwrap());
        let stored: Vec<u64> = r[2]
            .split(',')
            .map(|d| u64::from_str_radix(d, 16).unwrap())
            .collect();
        assert_eq!(stored.len() as u64, n, "{text}");
        let sum = format!(
            "{:016x}",
            stored.iter().fold(0u64, |a, &d| a.wrapping_add(d))
        );
        assert_eq!(
            Some(&sum),
            model.get(text),
            "{text}: chunks against digest32.tsv"
        );
        assert_eq!(
            Some(&sum),
            gpu.get(text),
            "{text}: chunks against the GPU's digest"
        );
        let f = &forms[text.as_str()];
        let mut sample: Vec<u64> = if all {
            (0..n).collect()
        } else {
            let mut s = vec![0, n / 2 - 1, n / 2, n - 1];
            s.extend((0..4u64).map(|j| ptx_gen::rng::mix(((line as u64) << 8) | j) % n));
            s
        };
        sample.sort_unstable();
        sample.dedup();
        for k in sample {
            let range = ptx_conformance::cvt_hw::digest_chunk(k, n);
            let d = ptx_conformance::cvt_hw::model_digest_range(f, threads, range.clone());
            recomputed += 1;
            if d != stored[k as usize] {
                failures.push(format!(
                    "{text}: inputs {range:#x?}: the model's digest is {d:016x}, the file's {:016x}",
                    stored[k as usize]
                ));
            }
        }
    }
    eprintln!("{} forms, {recomputed} chunks recomputed", rows.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Where the spec leaves bits free (the model's mask), the model's concrete
/// bits are sm_90's, on every edge input: a user comparing without the mask
/// sees the GPU's answer.
#[test]
fn unspecified_bits_are_the_hardware_s() {
    let forms = forms_by_text();
    let table = std::fs::read_to_string(dir().join("forms.tsv")).expect("forms.tsv");
    let gz = edge_text();
    let edge: HashMap<&str, &str> = gz
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .collect();
    let mut failures = Vec::new();
    let mut masked_rows = 0usize;
    for line in table.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split('\t').collect();
        let text = cols[0];
        if cols.get(1) != Some(&"ok") {
            continue;
        }
        let (Some(f), Some(values)) = (forms.get(text), edge.get(text)) else {
            continue;
        };
        let gpu: Vec<u64> = values
            .split(' ')
            .map(|x| u64::from_str_radix(x, 16).unwrap_or(0))
            .collect();
        let set = f
            .sets(RANDOM_ROWS, SEED)
            .into_iter()
            .find(|(n, _)| *n == "edge")
            .map(|(_, s)| s)
            .expect("an edge set");
        let rows = vectors(&f.conv, set);
        let mut bad = 0;
        let mut first = None;
        for (row, &hw) in rows.iter().zip(&gpu) {
            let Some((bits, dc)) = f.model(row) else {
                continue;
            };
            if dc == 0 {
                continue;
            }
            masked_rows += 1;
            if (bits ^ hw) & dc != 0 {
                bad += 1;
                first.get_or_insert(format!(
                    "{row:x?}: hardware {hw:#x}, model {bits:#x} (mask {dc:#x})"
                ));
            }
        }
        if bad > 0 {
            failures.push(format!(
                "{text}: {bad} row(s), e.g. {}",
                first.unwrap_or_default()
            ));
        }
    }
    eprintln!("rows with unspecified bits: {masked_rows}");
    assert!(
        failures.is_empty(),
        "{} forms whose unspecified bits differ from sm_90's:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
