//! The syntax axis of the ptxas legality corpus (`conform legality gen
//! --syntax`): deterministic, every mutation present, every kernel parsed.

use ptx_conformance::legality::syntax::{generate, AXIS, MUTATIONS};
use ptx_conformance::legality::{render, Variant};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Mutations whose kernels the parser reads on main. Vector variables and
/// selectors (`vv2_b32.x`) lex as names; `%t_b64_0+8` is one `reg+imm`
/// operand.
const PARSES: &[&str] = &[
    "syntax-reg",
    "syntax-vector-var",
    "syntax-selector",
    "syntax-imm",
    "syntax-var-imm",
    "syntax-braces",
    "syntax-sink",
    "syntax-reg-imm",
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn corpus() -> Vec<Variant> {
    generate(1, 3)
}

#[test]
fn generation_is_deterministic_by_seed() {
    let a = corpus();
    assert_eq!(a, corpus());
    assert_ne!(a, generate(2, 3));
    assert!(a.len() >= 2000, "syntax corpus too small: {}", a.len());
    assert!(a.iter().all(|v| v.axis == AXIS));
    let mut ids: Vec<&str> = a.iter().map(|v| v.id.as_str()).collect();
    ids.dedup();
    assert_eq!(ids.len(), a.len());
}

#[test]
fn every_syntax_mutation_appears() {
    let variants = corpus();
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for v in &variants {
        *count.entry(v.mutation.as_str()).or_default() += 1;
    }
    for m in MUTATIONS {
        assert!(count.get(m).copied().unwrap_or(0) >= 20, "{m}: {count:?}");
    }
    assert_eq!(count.len(), MUTATIONS.len(), "{count:?}");
}

/// The kernels declare the vector variables the instructions name, and the
/// catalogue axis's kernels are unchanged (their verdicts stay valid).
#[test]
fn render_declares_vector_variables_for_the_syntax_axis_only() {
    let v = corpus()
        .into_iter()
        .find(|v| v.mutation == "syntax-vector-var")
        .unwrap();
    let text = render(&v);
    assert!(text.contains("\t.reg .v4 .b32 vv4_b32;\n"), "{text}");
    assert!(text.contains("\t.reg .v2 .f64 vv2_f64;\n"), "{text}");
    assert!(!text.contains(".v4 .f64"), "{text}");
    let plain = Variant {
        axis: String::new(),
        ..v
    };
    assert!(!render(&plain).contains("vv4_b32"));
}

#[test]
fn every_kernel_of_parsing_mutations_parses() {
    let mut failed: BTreeMap<String, (usize, usize, String)> = BTreeMap::new();
    for v in &corpus() {
        let e = failed.entry(v.mutation.clone()).or_default();
        e.1 += 1;
        if let Err(err) = ptx_semantics::ptx::parse(&render(v)) {
            e.0 += 1;
            if e.2.is_empty() {
                e.2 = format!("{}: {} ({err:?})", v.id, v.instr);
            }
        }
    }
    for (m, (bad, total, first)) in &failed {
        println!("{m}: {bad}/{total} fail to parse; first: {first}");
    }
    for m in PARSES {
        let (bad, _, first) = &failed[*m];
        assert_eq!(*bad, 0, "{m}: {first}");
    }
}

/// The committed corpus/legality/syntax/variants.jsonl reads back, all of
/// the syntax axis, with every mutation and a divergence list beside it.
/// (It is not compared with a fresh `generate`: the catalogue moves on,
/// and the committed kernels are the ones ptxas judged.)
#[test]
fn committed_syntax_corpus_reads_back() {
    let dir = repo().join("corpus/legality/syntax");
    let text = std::fs::read_to_string(dir.join("variants.jsonl")).unwrap();
    let committed: Vec<Variant> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(committed.len() >= 2000, "{}", committed.len());
    assert!(committed.iter().all(|v| v.axis == AXIS));
    for m in MUTATIONS {
        assert!(committed.iter().any(|v| v.mutation == *m), "{m}");
    }
    assert!(dir.join("divergences.tsv").exists());
}

fn temp_corpus(name: &str, verdicts: Option<&str>) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("legality-syntax-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let variants: Vec<String> = corpus()
        .iter()
        .take(40)
        .map(|v| serde_json::to_string(v).unwrap())
        .collect();
    std::fs::write(dir.join("variants.jsonl"), variants.join("\n")).unwrap();
    if let Some(text) = verdicts {
        std::fs::write(dir.join("verdicts.jsonl"), text).unwrap();
    }
    dir
}

/// Before the device run there are no verdicts: `compare` says so and
/// exits 2, as for any unusable corpus.
#[test]
fn compare_without_verdicts_exits_two() {
    let dir = temp_corpus("none", None);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_conform"))
        .args(["legality", "compare", "--corpus", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no ptxas verdicts yet"), "{err}");
}

/// A syntax corpus is reported per family and per mutation, every
/// disagreement named with its mutation.
#[test]
fn compare_reports_per_mutation() {
    let verdicts: Vec<String> = corpus()
        .iter()
        .take(40)
        .map(|v| {
            format!(
                "{{\"id\": \"{}\", \"rc\": 255, \"msg\": \"rejected\"}}",
                v.id
            )
        })
        .collect();
    let dir = temp_corpus("all-rejected", Some(&verdicts.join("\n")));
    let report = ptx_conformance::legality_cmd::compare(&dir).unwrap();
    let (_, total) = report.totals();
    assert_eq!(total, 40);
    let per_mutation: usize = report.per_mutation.values().map(|(_, t)| t).sum();
    assert_eq!(per_mutation, 40);
    assert!(report.table().contains("mutation (axis)"));
    // the base samples are ones the checker accepts: ptxas "rejecting" them
    // is a disagreement, listed with its mutation
    assert!(report
        .disagreements
        .iter()
        .any(|d| d.contains("\tsyntax-reg\t")));
    assert!(!report.passes());
}
