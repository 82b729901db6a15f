//! `conform report RESULTS --format html|md|junit [--out FILE]`: renders a
//! results file of `conform run`.

use anyhow::Result;
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    Html,
    Md,
    Junit,
}

#[derive(Args)]
pub struct ReportArgs {
    /// A `results.json` written by `conform run`.
    pub results: PathBuf,
    #[arg(long, value_enum, default_value = "html")]
    pub format: Format,
    /// Write here (complete or not at all) rather than to standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

pub fn run(a: ReportArgs) -> Result<ExitCode> {
    let r = ptx_reports::load(&a.results)?;
    let text = match a.format {
        Format::Html => ptx_reports::render::html(&r),
        Format::Md => ptx_reports::render::markdown(&r),
        Format::Junit => ptx_reports::render::junit(&r),
    };
    match a.out {
        Some(p) => ptx_reports::write_atomic(&p, text.as_bytes())?,
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}
