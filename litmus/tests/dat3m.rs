//! Every Dat3M PTX litmus file (tests/dat3m-ptx, third-party data, see its
//! README) parses, and printing then parsing gives back the same tree.

use std::path::{Path, PathBuf};

fn litmus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("read test folder")
        .map(|e| e.expect("dir entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            litmus_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "litmus") {
            out.push(p);
        }
    }
}

fn corpus() -> Vec<PathBuf> {
    let mut files = Vec::new();
    litmus_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/dat3m-ptx"),
        &mut files,
    );
    files
}

#[test]
fn every_dat3m_file_parses_and_round_trips() {
    let files = corpus();
    // 748 files at Dat3M commit 30640123b88d.
    assert_eq!(files.len(), 748, "the copied corpus changed size");
    let mut failures = Vec::new();
    for path in &files {
        let src = std::fs::read_to_string(path).expect("read litmus file");
        match ptx_litmus::parse(&src) {
            Err(e) => failures.push(format!("{}:{e}", path.display())),
            Ok(test) => {
                let printed = ptx_litmus::print(&test);
                match ptx_litmus::parse(&printed) {
                    Ok(again) if again == test => {}
                    Ok(_) => {
                        failures.push(format!("{}: round trip changed the tree", path.display()))
                    }
                    Err(e) => failures.push(format!(
                        "{}: printed form does not parse: {e}\n{printed}",
                        path.display()
                    )),
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
