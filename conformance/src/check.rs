//! `conform check`: parse and check PTX files, print located diagnostics.

use anyhow::{bail, Result};
use ptx_semantics::catalogue::{PtxVersion, Target};
use ptx_semantics::check::{check_module, Diagnostic, Options};
use ptx_semantics::ptx::{self, line_col, line_text, Span};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Check PTX files against the instruction catalogue of PTX ISA 9.7.9.
///
/// Every instruction of section 9.7.9 is checked for its qualifier
/// combination, operand count, operand kinds and register types, and the PTX
/// ISA version and target it needs. The arithmetic, comparison and logic
/// instructions of PTX ISA 9.7.1-9.7.7 are checked the same way (their own
/// catalogue); other instructions outside 9.7.9 are parsed and their opcode
/// and operand names checked. The PTX version and target come from the
/// module's `.version` and `.target` unless overridden (`--ptx`,
/// `--override-target`); `--target` names the architecture to compile for,
/// as ptxas -arch does.
///
/// Each finding is printed as `file:line:col: error: message`, with the
/// source line, a caret, the rule and the spec section.
#[derive(clap::Args)]
#[command(
    after_help = "Exit codes: 0 every file is legal, 1 at least one file is not, 2 usage error or unreadable file."
)]
pub struct CheckArgs {
    /// PTX files to check.
    #[arg(required = true, value_name = "FILE.ptx")]
    files: Vec<PathBuf>,
    /// The architecture to compile for, as ptxas -arch means it (sm_90, sm_90a, sm_100f...):
    /// each module is checked against its own `.target`, which must be one that compiles for
    /// this architecture (a `.target sm_80` module compiles for sm_90; a `.target sm_90a` one
    /// only for sm_90a).
    #[arg(long, value_name = "sm_XX")]
    target: Option<String>,
    /// Check against this target instead of the module's own `.target` (overrides it).
    #[arg(long, value_name = "sm_XX")]
    override_target: Option<String>,
    /// Check against this PTX ISA version instead of the module's `.version` (e.g. 8.7).
    #[arg(long, value_name = "X.Y")]
    ptx: Option<String>,
    /// Print findings as JSON lines instead of text.
    #[arg(long)]
    json: bool,
    /// Print nothing; the exit code tells.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(args: CheckArgs) -> Result<ExitCode> {
    let mut options = Options::default();
    if let Some(t) = &args.target {
        match Target::parse(t) {
            Some(a) if !a.is_ptxas_arch() => bail!(
                "--target: ptxas 13.0 does not compile for {a} (its architectures start at sm_75; sm_101 is sm_110 since PTX ISA 9.0)"
            ),
            Some(a) => options.arch = Some(a),
            None => bail!("--target: `{t}` is not a target like sm_90 or sm_90a"),
        }
    }
    if let Some(t) = &args.override_target {
        match Target::parse(t) {
            Some(t) => options.target = Some(t),
            None => bail!("--override-target: `{t}` is not a target like sm_90 or sm_90a"),
        }
    }
    if let Some(v) = &args.ptx {
        match PtxVersion::parse(v) {
            Some(v) => options.ptx = Some(v),
            None => bail!("--ptx: `{v}` is not a version like 8.7"),
        }
    }
    let mut sources = Vec::new();
    for path in &args.files {
        let bytes = crate::input::read(path)?;
        sources.push((path, bytes));
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut bad_files = 0;
    for (path, bytes) in &sources {
        let name = path.display().to_string();
        let findings = check_source(bytes, &options);
        if !findings.is_empty() {
            bad_files += 1;
        }
        if args.quiet {
            continue;
        }
        let src = String::from_utf8_lossy(bytes);
        for d in &findings {
            let text = if args.json {
                render_json(&name, &src, d)
            } else {
                render(&name, &src, d)
            };
            if writeln!(out, "{text}").is_err() {
                return Ok(ExitCode::from(if bad_files > 0 { 1 } else { 0 }));
            }
        }
    }
    if !args.quiet && !args.json && sources.len() > 1 {
        let _ = writeln!(
            out,
            "{} of {} files legal",
            sources.len() - bad_files,
            sources.len()
        );
    }
    Ok(ExitCode::from(if bad_files > 0 { 1 } else { 0 }))
}

/// Parses and checks one source; a parse error is a finding too.
pub fn check_source(bytes: &[u8], options: &Options) -> Vec<Diagnostic> {
    let src = match std::str::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => {
            let at = e.valid_up_to() as u32;
            return vec![Diagnostic {
                span: Span::new(at, at + 1),
                message: "the file is not valid UTF-8".into(),
                rule: "syntax",
                section: None,
            }];
        }
    };
    match ptx::parse(src) {
        Ok(module) => check_module(&module, options),
        Err(e) => vec![Diagnostic {
            span: Span::new(e.at, e.at + 1),
            message: e.message,
            rule: "syntax",
            section: None,
        }],
    }
}

fn render(file: &str, src: &str, d: &Diagnostic) -> String {
    let (line, col) = line_col(src, d.span.start);
    let text = line_text(src, d.span.start);
    let width = if d.span.end > d.span.start {
        let end_line = line_col(src, d.span.end).0;
        if end_line == line {
            (line_col(src, d.span.end).1 - col).max(1)
        } else {
            text.chars().count().saturating_sub(col - 1).max(1)
        }
    } else {
        1
    };
    let pad: String = text
        .chars()
        .take(col - 1)
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    let section = d
        .section
        .map(|s| format!(", PTX ISA {s}"))
        .unwrap_or_default();
    format!(
        "{file}:{line}:{col}: error: {}\n  | {text}\n  | {pad}{}\n  = rule: {}{section}",
        d.message,
        "^".repeat(width),
        d.rule
    )
}

fn render_json(file: &str, src: &str, d: &Diagnostic) -> String {
    let (line, col) = line_col(src, d.span.start);
    serde_json::json!({
        "file": file,
        "line": line,
        "column": col,
        "severity": "error",
        "message": d.message,
        "rule": d.rule,
        "section": d.section,
    })
    .to_string()
}
