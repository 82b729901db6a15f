//! Our own litmus tests for what no public model covers (cluster scope, the
//! async proxy, cp.async groups, mbarrier completion, the tensormap proxy),
//! in `tests/litmus/`.
//! Each file's header quotes the rule it rests on, gives the reasoning, and
//! ends with `"Expected: 1"` or `"Expected: 0"` (1: the `exists` outcome is
//! reachable, or the `forall`/`~exists` condition always holds). The model
//! must give that verdict. A header line `"Undefined: yes"` says that some
//! consistent execution has undefined behaviour; without it the model must
//! find none.

use ptx_memmodel::Model;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read folder")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|e| e == "litmus") {
            out.push(p);
        }
    }
}

#[test]
fn own_tests_have_their_expected_verdicts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/litmus");
    let mut all = Vec::new();
    files(&root, &mut all);
    let mut per_topic: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut with_undefined: BTreeMap<String, usize> = BTreeMap::new();
    for path in &all {
        let name = path
            .strip_prefix(&root)
            .expect("under root")
            .display()
            .to_string();
        let src = std::fs::read_to_string(path).expect("read");
        let test = ptx_litmus::parse(&src).unwrap_or_else(|e| panic!("{name}:{e}"));
        assert!(
            test.docs.contains("Rule: PTX ISA"),
            "{name}: the header must quote its rule"
        );
        let again = ptx_litmus::parse(&ptx_litmus::print(&test)).expect("printed form parses");
        assert_eq!(again, test, "{name}: print and parse changed the tree");
        let expected = match test
            .docs
            .split("\"Expected: ")
            .nth(1)
            .and_then(|s| s.chars().next())
        {
            Some('1') => true,
            Some('0') => false,
            _ => panic!("{name}: the header must end with \"Expected: 1\" or \"Expected: 0\""),
        };
        *per_topic
            .entry(name.split('/').next().unwrap_or("").to_string())
            .or_default() += 1;
        let undefined = test.docs.contains("\"Undefined: yes\"");
        match ptx_memmodel::check(&test, Model::Ptx75) {
            Ok(v) if v.holds != expected => failures.push(format!(
                "{name}: expected {}, got {}",
                expected as u8, v.holds as u8
            )),
            Ok(v) if v.undefined.is_empty() == undefined => failures.push(format!(
                "{name}: the header says undefined behaviour {}, the model found {:?}",
                if undefined {
                    "exists"
                } else {
                    "does not exist"
                },
                v.undefined
            )),
            Ok(v) => {
                if !v.undefined.is_empty() {
                    *with_undefined.entry(name.clone()).or_default() += v.undefined.len();
                }
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(all.len() >= 99, "only {} own tests", all.len());
    assert!(
        per_topic.get("tensormap-proxy").copied().unwrap_or(0) >= 14,
        "tensormap-proxy tests missing: {per_topic:?}"
    );
    assert!(
        failures.is_empty(),
        "{} of {} disagree:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
    println!("own litmus tests by topic: {per_topic:?}");
    println!("tests with undefined behaviour: {with_undefined:?}");
}
