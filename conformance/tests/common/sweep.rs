//! Reading the device runs recorded under corpus/tensor/sm_90 (JSON lines,
//! gzip), shared by the tensor tests that recompute them with the model.

use serde_json::Value;
use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::PathBuf;

/// The records of `corpus/tensor/sm_90/NAME`, or of the file the
/// environment variable `env` names (a fresh run).
pub fn records(env: &str, name: &str) -> Vec<Value> {
    let path = match std::env::var_os(env) {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../corpus/tensor/sm_90")
            .join(name),
    };
    let f = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    std::io::BufReader::new(flate2::read::GzDecoder::new(f))
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect()
}

/// Whether the records are the committed corpus (no `env` override).
pub fn is_corpus(env: &str) -> bool {
    std::env::var_os(env).is_none()
}

pub fn u64s(v: &Value) -> Vec<u64> {
    v.as_array()
        .map(|a| a.iter().map(|x| x.as_u64().unwrap()).collect())
        .unwrap_or_default()
}

pub fn i64s(v: &Value) -> Vec<i64> {
    v.as_array()
        .map(|a| a.iter().map(|x| x.as_i64().unwrap()).collect())
        .unwrap_or_default()
}

/// Standard base64 (the runs keep some records' bytes so).
pub fn b64(s: &str) -> Vec<u8> {
    let val = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => (c - b'A') as u32,
            b'a'..=b'z' => (c - b'a') as u32 + 26,
            b'0'..=b'9' => (c - b'0') as u32 + 52,
            b'+' => 62,
            b'/' => 63,
            _ => 0,
        }
    };
    let bytes: Vec<u8> = s.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for ch in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in ch.iter().enumerate() {
            n |= val(c) << (18 - 6 * i);
        }
        for i in 0..ch.len().saturating_sub(1) {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

/// Configurations, bytes compared, differing and refused, per class of
/// record.
#[derive(Default)]
pub struct Tally {
    pub configs: usize,
    pub bytes: u64,
    pub differing: usize,
    pub refused: usize,
}

/// Prints the tallies (standard error) and returns their sum.
pub fn print_tally(tally: &BTreeMap<String, Tally>) -> Tally {
    eprintln!(
        "{:40} {:>8} {:>10} {:>8} {:>8}",
        "class", "configs", "bytes", "differ", "refused"
    );
    let mut total = Tally::default();
    for (k, t) in tally {
        eprintln!(
            "{k:40} {:>8} {:>10} {:>8} {:>8}",
            t.configs, t.bytes, t.differing, t.refused
        );
        total.configs += t.configs;
        total.bytes += t.bytes;
        total.differing += t.differing;
        total.refused += t.refused;
    }
    eprintln!(
        "{:40} {:>8} {:>10} {:>8} {:>8}",
        "all", total.configs, total.bytes, total.differing, total.refused
    );
    total
}
