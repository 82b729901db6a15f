//! Every nvcc-emitted file in corpus/nvcc/ptx parses, and the checker reports
//! nothing against it.

use ptx_semantics::check::{check_module, Options};
use ptx_semantics::ptx::{line_col, parse};
use std::path::PathBuf;

fn corpus_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/nvcc/ptx");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .collect();
    files.sort();
    files
}

#[test]
fn corpus_parses_and_checks_clean() {
    let files = corpus_files();
    assert!(
        files.len() >= 150,
        "expected at least 150 files in corpus/nvcc/ptx, found {}",
        files.len()
    );
    let mut failures = Vec::new();
    for path in &files {
        let src = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let name = path.display();
        match parse(&src) {
            Err(e) => {
                let (l, c) = line_col(&src, e.at);
                failures.push(format!("{name}:{l}:{c}: parse error: {}", e.message));
            }
            Ok(module) => {
                for d in check_module(&module, &Options::default()) {
                    let (l, c) = line_col(&src, d.span.start);
                    failures.push(format!("{name}:{l}:{c}: [{}] {}", d.rule, d.message));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} problem(s) in {} corpus files:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
