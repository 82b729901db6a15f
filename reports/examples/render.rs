//! Renders a results file, as `conform report` will, without building the
//! conformance crate (used by `tools/report_screenshot.sh`):
//!
//!     cargo run -p ptx-reports --example render -- RESULTS [--format html|md|junit] [--out FILE]

use ptx_reports::{load, render, write_atomic};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut path = None;
    let mut format = "html".to_string();
    let mut out = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--format" => format = args.next().unwrap_or_default(),
            "--out" => out = args.next(),
            _ if path.is_none() => path = Some(a),
            _ => return usage(),
        }
    }
    let Some(path) = path else { return usage() };
    let results = match load(&path) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let text = match format.as_str() {
        "html" => render::html(&results),
        "md" => render::markdown(&results),
        "junit" => render::junit(&results),
        _ => return usage(),
    };
    match out {
        Some(file) => {
            if let Err(e) = write_atomic(&file, text) {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
        None => print!("{text}"),
    }
    ExitCode::SUCCESS
}

fn usage() -> ExitCode {
    eprintln!("usage: render RESULTS [--format html|md|junit] [--out FILE]");
    ExitCode::from(2)
}
