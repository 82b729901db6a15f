//! Small modules checked against an expectation each: `(version, target,
//! kernel body, expected)`, `None` when the module is legal (no finding at
//! all), `Some(text)` when a finding must contain `text`.

use ptx_semantics::check::{check_module, Options};
use ptx_semantics::ptx::parse;

pub type Case = (
    &'static str,
    &'static str,
    &'static str,
    Option<&'static str>,
);

/// Every message the checker gives; a parse error counts as one.
pub fn findings(src: &str) -> Vec<String> {
    match parse(src) {
        Ok(m) => check_module(&m, &Options::default())
            .into_iter()
            .map(|d| d.message)
            .collect(),
        Err(e) => vec![format!("parse error: {e}")],
    }
}

/// Checks every case, each body put in a module by `module(version,
/// target, body)`; the failures, if any, in the panic.
pub fn run(cases: &[Case], module: impl Fn(&str, &str, &str) -> String) {
    let mut failures = Vec::new();
    for &(version, target, body, expected) in cases {
        let found = findings(&module(version, target, body));
        let ok = match expected {
            None => found.is_empty(),
            Some(text) => found.iter().any(|m| m.contains(text)),
        };
        if !ok {
            failures.push(format!(
                "{version} {target} `{body}`: expected {expected:?}, found {found:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
