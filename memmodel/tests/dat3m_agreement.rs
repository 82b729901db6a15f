//! Agreement with the published verdicts of the Dat3M PTX models: every row
//! of `PTXv7_5-expected.csv` under the PTX 7.5 model and of
//! `PTXv6_0-expected.csv` under the PTX 6.0 model (no proxies). Any
//! mismatch fails the test. The files are third-party data kept in
//! `litmus/tests/dat3m-ptx` (see its README and LICENCE).

use ptx_memmodel::Model;
use std::path::{Path, PathBuf};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../litmus/tests/dat3m-ptx")
}

fn agreement(csv: &str, model: Model, rows_expected: usize) {
    let dir = corpus_dir();
    let table = std::fs::read_to_string(dir.join(csv)).expect("read CSV");
    let mut rows = 0;
    let mut mismatches = Vec::new();
    for line in table.lines().filter(|l| !l.trim().is_empty()) {
        let (path, expected) = line.rsplit_once(',').expect("path,verdict");
        let expected = match expected.trim() {
            "1" => true,
            "0" => false,
            other => panic!("bad verdict {other} in {csv}"),
        };
        rows += 1;
        let src = std::fs::read_to_string(dir.join(path)).expect("read test");
        let test = ptx_litmus::parse(&src).unwrap_or_else(|e| panic!("{path}:{e}"));
        match ptx_memmodel::check(&test, model) {
            Ok(v) if v.holds == expected => {}
            Ok(v) => mismatches.push(format!(
                "{path}: expected {}, got {}",
                expected as u8, v.holds as u8
            )),
            Err(e) => mismatches.push(format!("{path}: error: {e}")),
        }
    }
    assert_eq!(rows, rows_expected, "{csv} changed size");
    assert!(
        mismatches.is_empty(),
        "{} of {rows} disagree with {csv}:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

#[test]
fn ptx75_agrees_with_dat3m() {
    agreement("PTXv7_5-expected.csv", Model::Ptx75, 264);
}

#[test]
fn ptx60_agrees_with_dat3m() {
    agreement("PTXv6_0-expected.csv", Model::Ptx60, 135);
}
