//! Probe modules kept with ptxas's verdicts (`tests/data/<dir>`: the
//! `.ptx` files and `verdicts.tsv`, rows `file, exit status, message`): the
//! checker must accept what ptxas accepts and refuse what it refuses.

use ptx_semantics::catalogue::Target;
use ptx_semantics::check::{check_module, Options};
use ptx_semantics::ptx::parse;

/// Checks every probe of `tests/data/<dir>` for sm_90, and that there are
/// `count` of them; the disagreements, if any, in the panic.
pub fn agree_with_ptxas(dir: &str, count: usize) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(dir);
    let verdicts = std::fs::read_to_string(dir.join("verdicts.tsv")).unwrap();
    let mut wrong = Vec::new();
    let mut seen = 0;
    for line in verdicts.lines().filter(|l| !l.starts_with('#')) {
        let mut cols = line.split('\t');
        let (Some(file), Some(status)) = (cols.next(), cols.next()) else {
            continue;
        };
        let message = cols.next().unwrap_or("");
        let src = std::fs::read_to_string(dir.join(file)).unwrap();
        let options = Options {
            arch: Target::parse("sm_90"),
            ..Options::default()
        };
        let found: Vec<String> = match parse(&src) {
            Ok(m) => check_module(&m, &options)
                .into_iter()
                .map(|d| d.message)
                .collect(),
            Err(e) => vec![e.message],
        };
        let rejects = status != "0";
        if found.is_empty() == rejects {
            wrong.push(format!(
                "{file}: ptxas {status} {message}; conform {found:?}"
            ));
        }
        seen += 1;
    }
    assert_eq!(seen, count, "every probe has a verdict");
    assert!(
        wrong.is_empty(),
        "{} disagree:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
