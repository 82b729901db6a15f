//! Print and parse back every PTX file under a folder the caller names
//! (`PTX_ROUNDTRIP_DIR`, searched recursively for `*.ptx`): the real-world
//! corpus of corpus/realworld, whose files stay outside the repository.
//! Every file that parses must give the same tree after printing; files
//! that do not parse are counted (`conform check` reports them). Without
//! the variable the test has nothing to read and passes.
//!
//!     PTX_ROUNDTRIP_DIR=/tmp/rw-ptx cargo test --release -p ptx-semantics \
//!         --test roundtrip_external -- --nocapture

use ptx_semantics::ptx::{parse, print};
use std::path::{Path, PathBuf};

fn ptx_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            ptx_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "ptx") {
            out.push(p);
        }
    }
}

#[test]
fn every_parsed_file_round_trips() {
    let Ok(dir) = std::env::var("PTX_ROUNDTRIP_DIR") else {
        eprintln!("PTX_ROUNDTRIP_DIR is not set: nothing to read");
        return;
    };
    let mut files = Vec::new();
    ptx_files(Path::new(&dir), &mut files);
    files.sort();
    assert!(!files.is_empty(), "no .ptx file under {dir}");
    let (mut parsed, mut unparsed, mut unreadable) = (0, 0, 0);
    let mut differ = Vec::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            unreadable += 1;
            continue;
        };
        let Ok(tree) = parse(&text) else {
            unparsed += 1;
            continue;
        };
        parsed += 1;
        let printed = print(&tree);
        match parse(&printed) {
            Ok(again) if again == tree => {}
            Ok(_) => differ.push(format!("{}: the tree changed", f.display())),
            Err(e) => differ.push(format!(
                "{}: the printed text does not parse: {}",
                f.display(),
                e.message
            )),
        }
    }
    eprintln!(
        "{} files: {parsed} parsed and printed, {} round-trip, {unparsed} do not parse, {unreadable} not UTF-8",
        files.len(),
        parsed - differ.len()
    );
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
