//! `conform litmus`: decide PTX litmus tests under the PTX memory
//! consistency model (`check`), compare with expected verdicts, and show why
//! a verdict holds (`explain`, as text and Graphviz DOT).

use anyhow::{bail, Context, Result};
use ptx_memmodel::witness;
use ptx_memmodel::{Model, Program, Verdict};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Subcommand)]
pub enum LitmusCommand {
    Check(CheckArgs),
    Explain(ExplainArgs),
    Gen(crate::litmus_gen::GenArgs),
    Run(crate::litmus_run::RunArgs),
}

/// Decide litmus tests: print `1` when the `exists` outcome is reachable or
/// the `forall`/`~exists` condition holds in every execution, `0` otherwise.
///
/// With `--expected CSV` (rows `path,1` or `path,0`, paths relative to the
/// current directory, as in the Dat3M files) each test is compared with its
/// row; with no FILE, every row of the CSV is checked.
#[derive(clap::Args)]
#[command(
    after_help = "Exit codes: 0 every test decided (and, with --expected, every verdict as expected), 1 a verdict differs from --expected, 2 usage error, unreadable or undecidable test."
)]
pub struct CheckArgs {
    /// Litmus files, or folders searched for `*.litmus`.
    #[arg(value_name = "FILE|DIR")]
    paths: Vec<PathBuf>,
    /// The model: `ptx7.5` (with proxies, cluster scope and asynchronous
    /// operations) or `ptx6.0` (no proxies).
    #[arg(long, default_value = "ptx7.5", value_parser = parse_model)]
    model: Model,
    /// Compare with the verdicts of this CSV.
    #[arg(long, value_name = "CSV")]
    expected: Option<PathBuf>,
    /// Print only disagreements, errors and the summary.
    #[arg(short, long)]
    quiet: bool,
    /// Times a loop's body may run on one path: 1 (the default) runs it
    /// once, as the Dat3M tests read loops; a path that would turn again is
    /// dropped (only terminating executions count).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=16))]
    loop_bound: u32,
}

/// Show why a test's verdict holds: a consistent execution with the outcome
/// when there is one, otherwise how many candidates each axiom rules out and
/// the first such candidate with the cycle that breaks the axiom.
#[derive(clap::Args)]
#[command(after_help = "Exit codes: 0 explained, 2 usage error, unreadable or undecidable test.")]
pub struct ExplainArgs {
    /// The litmus file.
    file: PathBuf,
    #[arg(long, default_value = "ptx7.5", value_parser = parse_model)]
    model: Model,
    /// What to print: `text`, `dot` or `both`.
    #[arg(long, default_value = "both", value_parser = ["text", "dot", "both"])]
    format: String,
    /// Times a loop's body may run on one path (as for `check`).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=16))]
    loop_bound: u32,
}

fn parse_model(s: &str) -> Result<Model, String> {
    Model::parse(s).ok_or_else(|| format!("`{s}` is not a model: use ptx7.5 or ptx6.0"))
}

pub fn run(cmd: LitmusCommand) -> Result<ExitCode> {
    match cmd {
        LitmusCommand::Check(a) => check(a),
        LitmusCommand::Explain(a) => explain(a),
        LitmusCommand::Gen(a) => crate::litmus_gen::run(a),
        LitmusCommand::Run(a) => crate::litmus_run::run(a),
    }
}

/// Reads and parses a test; the error names `file:line:col`.
fn load(path: &Path) -> Result<ptx_litmus::Litmus> {
    let src = crate::input::read_text(path)?;
    ptx_litmus::parse(&src).map_err(|e| anyhow::anyhow!("{}:{e}", path.display()))
}

/// The litmus files at `path`: the file itself, or a folder's `*.litmus`
/// files (recursively, sorted).
pub fn collect(path: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .with_context(|| format!("cannot read {}", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() || p.extension().is_some_and(|e| e == "litmus") {
                collect(&p, out)?;
            }
        }
    } else {
        out.push(path.to_path_buf());
    }
    Ok(())
}

/// A path's identity for matching CSV rows: canonical when the file exists.
fn key(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

fn read_expected(csv: &Path) -> Result<Vec<(PathBuf, bool)>> {
    let text = crate::input::read_text(csv)?;
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        let Some((path, v)) = line.rsplit_once(',') else {
            bail!("{}:{}: expected `path,1` or `path,0`", csv.display(), i + 1);
        };
        let v = match v.trim() {
            "1" => true,
            "0" => false,
            _ => bail!("{}:{}: the verdict must be 1 or 0", csv.display(), i + 1),
        };
        rows.push((PathBuf::from(path.trim()), v));
    }
    Ok(rows)
}

fn describe(test: &ptx_litmus::Litmus, v: &Verdict) -> &'static str {
    use ptx_litmus::Quantifier::*;
    match (test.condition.quantifier, v.holds) {
        (Exists, true) => "exists: reachable",
        (Exists, false) => "exists: unreachable",
        (NotExists, true) => "~exists: never reached",
        (NotExists, false) => "~exists: reachable",
        (Forall, true) => "forall: holds in every execution",
        (Forall, false) => "forall: fails in some execution",
    }
}

fn check(args: CheckArgs) -> Result<ExitCode> {
    let expected = match &args.expected {
        Some(csv) => Some(read_expected(csv)?),
        None => None,
    };
    let mut files = Vec::new();
    for p in &args.paths {
        collect(p, &mut files)?;
    }
    if files.is_empty() {
        match &expected {
            Some(rows) => files = rows.iter().map(|(p, _)| p.clone()).collect(),
            None => {
                bail!("no litmus file given (give FILE|DIR, or --expected CSV to check its rows)")
            }
        }
    }
    let wanted: HashMap<PathBuf, bool> = expected
        .iter()
        .flatten()
        .map(|(p, v)| (key(p), *v))
        .collect();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let (mut agree, mut disagree, mut errors, mut unlisted) = (0, 0, 0, 0);
    for path in &files {
        let result = load(path).and_then(|t| {
            let v = ptx_memmodel::check_bounded(&t, args.model, args.loop_bound)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            Ok((t, v))
        });
        let (test, verdict) = match result {
            Ok(r) => r,
            Err(e) => {
                errors += 1;
                let _ = writeln!(out, "{e:#}");
                continue;
            }
        };
        let mark = match (wanted.get(&key(path)), expected.is_some()) {
            (Some(&w), _) if w == verdict.holds => {
                agree += 1;
                ""
            }
            (Some(_), _) => {
                disagree += 1;
                "  MISMATCH: expected the opposite"
            }
            (None, true) => {
                unlisted += 1;
                "  (not in the CSV)"
            }
            (None, false) => "",
        };
        if !args.quiet || !mark.is_empty() && !mark.starts_with("  (") {
            let undefined = if verdict.undefined.is_empty() {
                ""
            } else {
                " [undefined behaviour]"
            };
            let _ = writeln!(
                out,
                "{}: {} ({}){undefined}{mark}",
                path.display(),
                verdict.holds as u8,
                describe(&test, &verdict)
            );
        }
    }
    let total = files.len();
    if expected.is_some() {
        let _ = writeln!(
            out,
            "{total} tests under {}: {agree} agree, {disagree} disagree, {errors} errors, {unlisted} not in the CSV",
            args.model.name()
        );
    } else if total > 1 || args.quiet {
        let _ = writeln!(
            out,
            "{total} tests under {}: {errors} errors",
            args.model.name()
        );
    }
    Ok(ExitCode::from(if errors > 0 {
        2
    } else if disagree > 0 {
        1
    } else {
        0
    }))
}

fn explain(args: ExplainArgs) -> Result<ExitCode> {
    let test = load(&args.file)?;
    let verdict = ptx_memmodel::explain_bounded(&test, args.model, args.loop_bound)
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.file.display()))?;
    let prog = Program::new(&test, args.model).map_err(|e| anyhow::anyhow!("{e}"))?;
    let locs = &prog.locs;
    let text = args.format != "dot";
    let dot = args.format != "text";
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = writeln!(
        out,
        "{}: {} ({}) under {}; {} candidate executions",
        args.file.display(),
        verdict.holds as u8,
        describe(&test, &verdict),
        args.model.name(),
        verdict.candidates
    );
    if !verdict.undefined.is_empty() {
        let _ = writeln!(
            out,
            "\nUndefined behaviour: some consistent execution breaks a rule the PTX ISA leaves undefined:"
        );
        for u in &verdict.undefined {
            let _ = writeln!(out, "  - {u}");
        }
    }
    if let Some(x) = &verdict.execution {
        if text {
            let _ = writeln!(
                out,
                "\nA consistent execution with the outcome searched for:"
            );
            let _ = write!(out, "{}", witness::text(x, locs));
        }
        if dot {
            let _ = write!(out, "\n{}", witness::dot(x, locs, &[]));
        }
    } else {
        if text {
            if verdict.violations.is_empty() {
                let _ = writeln!(
                    out,
                    "\nNo candidate execution has the outcome searched for (the values cannot arise, or a barrier would block)."
                );
            } else {
                let _ = writeln!(out, "\nNo consistent execution has the outcome searched for. Candidates ruled out, by axiom:");
                for (axiom, n) in &verdict.violations {
                    let _ = writeln!(out, "  {:<40} {n:>8}   ({})", axiom.name(), axiom.section());
                }
            }
        }
        if let Some((x, v)) = &verdict.first_violation {
            if text {
                let _ = writeln!(
                    out,
                    "\nThe first candidate ruled out breaks {} ({}):",
                    v.axiom.name(),
                    v.axiom.section()
                );
                let _ = write!(out, "{}", witness::text(x, locs));
                let cycle: Vec<String> = v
                    .cycle
                    .iter()
                    .map(|(a, r, b)| format!("e{a} -{r}-> e{b}"))
                    .collect();
                let _ = writeln!(out, "  cycle: {}", cycle.join(", "));
            }
            if dot {
                let _ = write!(out, "\n{}", witness::dot(x, locs, &v.cycle));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
