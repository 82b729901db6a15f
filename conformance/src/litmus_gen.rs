//! `conform litmus gen`: the default litmus families (`ptx_litmus::gen`),
//! each decided outcome by outcome under the memory model, written as
//! litmus files with the verdicts in their header and an `index.json`.

use anyhow::{bail, Context, Result};
use ptx_litmus::gen::{self, Generated};
use ptx_litmus::Value;
use ptx_memmodel::{Model, Outcomes};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Generate litmus families from relation cycles (MP, SB, LB, IRIW, WRC,
/// ISA2, 2+2W, R, S, RWC, W+RWC, CoRR, CoWW, CoRW, CoWR) crossed with
/// strengths, scopes, placements and state spaces, and the async-proxy and
/// completion families (Proxy-G2A, Proxy-G2A-MP, Proxy-A2G,
/// Proxy-A2G-remote, Bulk-store, Bulk-reduce, StAsync, CpAsync, CpAsync-MP,
/// Mbarrier-MP), and decide every outcome of each under the model.
///
/// Writes `DIR/FAMILY/NAME.litmus` (the verdict of every outcome in the
/// header, the cycle's outcome as the `exists` condition) and
/// `DIR/index.json`. The same seed gives the same files.
#[derive(clap::Args)]
#[command(
    after_help = "Exit codes: 0 written, 2 usage error, a test the model cannot decide, or a file that cannot be written."
)]
pub struct GenArgs {
    /// The folder to write into (created; files already there with the
    /// same names are replaced).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Chooses the values stored; 0 stores 1, 2, ... in coherence order.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Only families whose name is one of these (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    family: Vec<String>,
    #[arg(long, default_value = "ptx7.5", value_parser = parse_model)]
    model: Model,
    /// Worker threads deciding tests (default: every core).
    #[arg(short, long)]
    jobs: Option<usize>,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
}

fn parse_model(s: &str) -> Result<Model, String> {
    Model::parse(s).ok_or_else(|| format!("`{s}` is not a model: use ptx7.5 or ptx6.0"))
}

/// One test in `index.json`.
#[derive(Serialize)]
pub struct IndexEntry {
    pub name: String,
    /// Relative to the index.
    pub file: String,
    pub family: String,
    pub cycle: String,
    pub strength: String,
    pub scope: Option<String>,
    pub placement: String,
    pub locations: String,
    pub threads: usize,
    /// The registers and locations of the outcome, as `P1:r0` or `x`.
    pub terms: Vec<String>,
    pub outcomes: Vec<OutcomeEntry>,
    /// The values the cycle asks for (the `exists` condition).
    pub cycle_outcome: Vec<i64>,
    pub cycle_outcome_allowed: bool,
}

#[derive(Serialize)]
pub struct OutcomeEntry {
    pub values: Vec<i64>,
    pub allowed: bool,
}

#[derive(Serialize)]
struct Index<'a> {
    generator: &'static str,
    seed: u64,
    model: &'a str,
    tests: Vec<IndexEntry>,
}

/// The name of a term as the litmus format writes it.
pub fn term_name(v: &Value) -> String {
    match v {
        Value::Reg { thread, reg } => format!("P{thread}:{reg}"),
        Value::Loc(l) => l.clone(),
        Value::Const(c) => c.to_string(),
    }
}

/// `P1:r0=1 P1:r1=0`.
pub fn outcome_text(terms: &[Value], values: &[i64]) -> String {
    terms
        .iter()
        .zip(values)
        .map(|(t, v)| format!("{}={v}", term_name(t)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The values an `exists` condition made only of equalities joined by
/// `/\` asks for, in the order of `terms`.
pub fn condition_values(expr: &ptx_litmus::Expr, terms: &[Value]) -> Option<Vec<i64>> {
    use ptx_litmus::{CmpOp, Expr};
    fn go(e: &Expr, out: &mut Vec<(Value, i64)>) -> bool {
        match e {
            Expr::And(a, b) => go(a, out) && go(b, out),
            Expr::Cmp(t, CmpOp::Eq, Value::Const(c)) => {
                out.push((t.clone(), *c));
                true
            }
            _ => false,
        }
    }
    let mut eqs = Vec::new();
    if !go(expr, &mut eqs) {
        return None;
    }
    terms
        .iter()
        .map(|t| eqs.iter().find(|(u, _)| u == t).map(|(_, c)| *c))
        .collect()
}

fn decide(g: &Generated, model: Model) -> Result<(Outcomes, String)> {
    let o = ptx_memmodel::outcomes(&g.test, model)
        .map_err(|e| anyhow::anyhow!("{}: the model cannot decide it: {e}", g.name))?;
    let mut test = g.test.clone();
    let mut docs = vec![test.docs.clone()];
    docs.push(format!(
        "\"Outcomes under {} (allowed or forbidden), over {}:\"",
        model.name(),
        o.terms.iter().map(term_name).collect::<Vec<_>>().join(" ")
    ));
    for (values, allowed) in &o.outcomes {
        docs.push(format!(
            "\"  {}: {}\"",
            outcome_text(&o.terms, values),
            if *allowed { "allowed" } else { "forbidden" }
        ));
    }
    test.docs = docs.join("\n");
    Ok((o, ptx_litmus::print(&test)))
}

pub fn run(args: GenArgs) -> Result<ExitCode> {
    let mut tests = gen::default_set(&gen::Options { seed: args.seed });
    if !args.family.is_empty() {
        for f in &args.family {
            let names: Vec<&str> = gen::FAMILIES
                .iter()
                .map(|f| f.0)
                .chain(gen::asynchronous::FAMILIES.iter().copied())
                .collect();
            if !names.contains(&f.as_str()) {
                bail!("no family `{f}`: the families are {}", names.join(", "));
            }
        }
        tests.retain(|g| args.family.contains(&g.family));
    }
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let bar = crate::run::progress_bar(args.quiet, tests.len() as u64, "deciding");
    let results = crate::run::in_parallel(tests.len(), jobs, |i| {
        let r = write_one(&tests[i], args.model, &args.out);
        bar.inc(1);
        r
    });
    bar.finish_and_clear();
    let mut entries = Vec::new();
    let mut undefined = 0;
    for r in results {
        match r? {
            Some(e) => entries.push(e),
            None => undefined += 1,
        }
    }
    let (allowed, forbidden) = entries.iter().fold((0, 0), |(a, f), e| {
        if e.cycle_outcome_allowed {
            (a + 1, f)
        } else {
            (a, f + 1)
        }
    });
    let outcomes: usize = entries.iter().map(|e| e.outcomes.len()).sum();
    let index = Index {
        generator: "conform litmus gen",
        seed: args.seed,
        model: args.model.name(),
        tests: entries,
    };
    let json = serde_json::to_string_pretty(&index)?;
    ptx_reports::file::write_atomic(args.out.join("index.json"), json)?;
    println!(
        "{} tests ({outcomes} outcomes decided under {}); the cycle's outcome allowed in {allowed}, forbidden in {forbidden}; {undefined} left out (undefined behaviour in some execution); written to {}",
        index.tests.len(),
        args.model.name(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Decides and writes one test; `None` when some execution of it has
/// undefined behaviour (such a test says nothing about an implementation:
/// every outcome is possible), which is then not written.
fn write_one(g: &Generated, model: Model, out: &Path) -> Result<Option<IndexEntry>> {
    let v = ptx_memmodel::check(&g.test, model)
        .map_err(|e| anyhow::anyhow!("{}: the model cannot decide it: {e}", g.name))?;
    if !v.undefined.is_empty() {
        return Ok(None);
    }
    let (o, text) = decide(g, model)?;
    let dir = out.join(&g.family);
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let file = format!("{}/{}.litmus", g.family, g.name);
    ptx_reports::file::write_atomic(out.join(&file), text)?;
    let cycle_outcome = condition_values(&g.test.condition.expr, &o.terms)
        .context("a generated condition is a conjunction of equalities")?;
    Ok(Some(IndexEntry {
        name: g.name.clone(),
        file,
        family: g.family.clone(),
        cycle: g.cycle.clone(),
        strength: g.strength.clone(),
        scope: g.scope.map(|s| format!("{s:?}").to_lowercase()),
        placement: g.placement.clone(),
        locations: g.locations.clone(),
        threads: g.test.threads.len(),
        terms: o.terms.iter().map(term_name).collect(),
        cycle_outcome_allowed: o.allowed(&cycle_outcome),
        cycle_outcome,
        outcomes: o
            .outcomes
            .iter()
            .map(|(v, a)| OutcomeEntry {
                values: v.clone(),
                allowed: *a,
            })
            .collect(),
    }))
}
