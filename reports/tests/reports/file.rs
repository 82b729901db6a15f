//! Reading results files (and the errors that name the file, line and
//! column) and writing files atomically.

use crate::sample;
use ptx_reports::{load, write_atomic, Error, SCHEMA};
use std::path::PathBuf;

/// A fresh directory for one test, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("ptx-reports-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
    fn file(&self, name: &str, contents: &str) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, contents).unwrap();
        p
    }
    fn entries(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn a_written_run_reads_back_equal() {
    let dir = Scratch::new("roundtrip");
    let r = sample::run();
    let path = dir.0.join("results.json");
    write_atomic(&path, serde_json::to_string_pretty(&r).unwrap()).unwrap();
    assert_eq!(load(&path).unwrap(), r);
    // Nothing but the file is left behind, also after overwriting it.
    write_atomic(&path, serde_json::to_string(&r).unwrap()).unwrap();
    assert_eq!(dir.entries(), ["results.json"]);
    assert_eq!(load(&path).unwrap(), r);
}

#[test]
fn a_syntax_error_names_file_line_and_column() {
    let dir = Scratch::new("syntax");
    let path = dir.file(
        "broken.json",
        &format!("{{\n  \"schema\": \"{SCHEMA}\",\n  \"complete\": flase\n}}\n"),
    );
    let err = load(&path).unwrap_err();
    match &err {
        // Line 3, column 16: the `l` where `false` went wrong.
        Error::Syntax { line, column, .. } => assert_eq!((*line, *column), (3, 16)),
        other => panic!("not a syntax error: {other:?}"),
    }
    let message = err.to_string();
    let want = format!("{}:3:16: not valid JSON: ", path.display());
    assert!(message.starts_with(&want), "{message}");
    assert!(!message.contains("at line"), "{message}");
    // A file cut short.
    let cut = dir.file("cut.json", "{\"schema\": \"ptx");
    assert!(matches!(load(&cut), Err(Error::Syntax { line: 1, .. })));
}

#[test]
fn another_schema_is_refused_by_name() {
    let dir = Scratch::new("schema");
    let path = dir.file(
        "v2.json",
        "{\"schema\": \"ptx-conform-results/2\", \"whatever\": 1}",
    );
    let err = load(&path).unwrap_err();
    assert!(
        matches!(&err, Error::Schema { found: Some(s), .. } if s == "ptx-conform-results/2"),
        "{err:?}"
    );
    let message = err.to_string();
    assert!(
        message.starts_with(&format!("{}: ", path.display())),
        "{message}"
    );
    assert!(
        message.contains("ptx-conform-results/2") && message.contains(SCHEMA),
        "{message}"
    );

    let none = dir.file("none.json", "{\"implementation\": {}}");
    let err = load(&none).unwrap_err();
    assert!(matches!(&err, Error::Schema { found: None, .. }), "{err:?}");
    assert!(err.to_string().contains("no \"schema\" field"), "{err}");
}

#[test]
fn a_missing_field_names_it() {
    let dir = Scratch::new("invalid");
    let mut v = serde_json::to_value(sample::run()).unwrap();
    v.as_object_mut().unwrap().remove("totals");
    let path = dir.file("no-totals.json", &serde_json::to_string_pretty(&v).unwrap());
    let err = load(&path).unwrap_err();
    assert!(matches!(err, Error::Invalid { .. }), "{err:?}");
    assert!(err.to_string().contains("missing field `totals`"), "{err}");

    let array = dir.file("array.json", "\n  [1, 2]");
    let err = load(&array).unwrap_err();
    assert!(
        matches!(
            err,
            Error::Invalid {
                line: 2,
                column: 3,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .ends_with("a results file is one JSON object"),
        "{err}"
    );
}

#[test]
fn an_unreadable_file_is_named() {
    let dir = Scratch::new("unreadable");
    let path = dir.0.join("absent.json");
    let err = load(&path).unwrap_err();
    assert!(matches!(err, Error::Read { .. }), "{err:?}");
    assert!(err
        .to_string()
        .starts_with(&format!("{}: cannot read", path.display())));
}

#[test]
fn a_failed_write_leaves_nothing() {
    let dir = Scratch::new("failed-write");
    let path = dir.0.join("no-such-dir").join("report.html");
    let err = write_atomic(&path, "x").unwrap_err();
    assert!(matches!(err, Error::Write { .. }), "{err:?}");
    assert!(err.to_string().contains("report.html"), "{err}");
    // Renaming onto a directory fails after the temporary file was written:
    // it must be gone.
    std::fs::create_dir(dir.0.join("taken")).unwrap();
    assert!(write_atomic(dir.0.join("taken"), "x").is_err());
    assert_eq!(dir.entries(), ["taken"]);
}
