//! `conform litmus run`: runs litmus tests on a GPU through the CUDA driver
//! API, many instances per launch with randomised thread placement, memory
//! stress and a synchronised start, and compares each outcome seen with the
//! memory model's verdict for it.

#[cfg(feature = "cuda")]
mod gpu;
pub mod place;
pub mod plan;
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
mod report;

use anyhow::{bail, Result};
use plan::Plan;
use ptx_memmodel::{Model, Outcomes};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Run litmus tests on a GPU (`--impl cuda`) and compare every outcome seen
/// with the memory model's verdict for it.
///
/// Each test becomes one PTX kernel (JIT-compiled by the driver: no
/// compiler is needed on the machine) that runs many instances of the test
/// per launch: test threads are assigned to GPU threads at random within
/// the test's placement (same warp, CTA, cluster, or different clusters),
/// locations get random addresses, an instance's threads start together,
/// and the threads left over read and write scratch memory meanwhile.
/// Writes `results.json` (a histogram per test, with the model's verdict
/// per outcome), `results.html` (forbidden outcomes first) and
/// `results.junit.xml` into `--out`.
#[derive(clap::Args)]
#[command(
    after_help = "Exit codes: 0 no forbidden outcome seen, 1 some test showed an outcome the model forbids, 2 usage error, no GPU or driver, or every test failed to run."
)]
pub struct RunArgs {
    /// Litmus files, or folders searched for `*.litmus`.
    #[arg(value_name = "FILE|DIR", required = true)]
    paths: Vec<PathBuf>,
    /// The implementation: `cuda` (the CUDA driver API).
    #[arg(long = "impl", default_value = "cuda")]
    imp: String,
    /// The CUDA driver library to load (default: the system's libcuda).
    #[arg(long, value_name = "PATH")]
    libcuda: Option<PathBuf>,
    /// The device to run on.
    #[arg(long, default_value_t = 0)]
    device: usize,
    /// Instances to run of each test at least (launches continue until
    /// this many have run, up to --iterations).
    #[arg(long, default_value_t = 100_000)]
    instances: u64,
    /// The most launches per test.
    #[arg(long, default_value_t = 1000)]
    iterations: u64,
    /// CTAs per launch (default: four per multiprocessor).
    #[arg(long)]
    ctas: Option<u32>,
    /// The share of GPU threads that run test threads; the others stress
    /// memory. Measured on an H100, weak outcomes are most frequent when
    /// nearly every thread runs a test instance (docs/litmus-gpu.md).
    #[arg(long, default_value_t = 0.9)]
    test_fraction: f64,
    /// Scratch reads and writes each stress thread makes.
    #[arg(long, default_value_t = 64)]
    stress: u32,
    /// Seed of the placement and addresses.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, default_value = "ptx7.5", value_parser = parse_model)]
    model: Model,
    /// The folder for the results.
    #[arg(long, value_name = "DIR", default_value = "litmus-results")]
    out: PathBuf,
    /// The longest one launch may run.
    #[arg(long, default_value_t = 10.0)]
    timeout: f64,
    /// Print each test's kernel (PTX) or the reason it cannot run, and
    /// run nothing.
    #[arg(long)]
    print_ptx: bool,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
}

fn parse_model(s: &str) -> Result<Model, String> {
    Model::parse(s).ok_or_else(|| format!("`{s}` is not a model: use ptx7.5 or ptx6.0"))
}

/// The PTX ISA version of the kernels (barrier.cluster and mapa need 7.8).
pub(crate) const PTX_VERSION: &str = "8.0";

/// What running one test gave.
pub struct TestResult {
    pub name: String,
    pub file: String,
    pub terms: Vec<String>,
    /// The `exists` outcome, when the condition is a conjunction of
    /// equalities.
    pub target: Option<Vec<i64>>,
    pub target_allowed: Option<bool>,
    /// Every outcome seen, with its count and verdict; then the allowed
    /// ones never seen (count 0).
    pub histogram: Vec<(Vec<i64>, u64, bool)>,
    pub instances: u64,
    /// Instances whose values did not all come back.
    pub incomplete: u64,
    pub launches: u64,
    pub seconds: f64,
    /// Of `seconds`, the time in launches (kernel and its wait).
    pub launch_seconds: f64,
    /// Why the test did not run (or stopped).
    pub skipped: Option<String>,
}

impl TestResult {
    pub fn forbidden_seen(&self) -> u64 {
        self.histogram.iter().filter(|h| !h.2).map(|h| h.1).sum()
    }
}

pub fn run(args: RunArgs) -> Result<ExitCode> {
    if args.imp != "cuda" {
        bail!(
            "--impl {}: litmus tests run on `cuda` (the CUDA driver API)",
            args.imp
        );
    }
    let mut files = Vec::new();
    for p in &args.paths {
        crate::litmus_cmd::collect(p, &mut files)?;
    }
    if files.is_empty() {
        bail!("no litmus file found");
    }
    if args.print_ptx {
        for f in &files {
            match prepare(f, args.model, PTX_VERSION) {
                Ok((_, _, plan)) => println!("// {}\n{}", f.display(), plan.ptx),
                Err(e) => println!("// {}: cannot run: {e}", f.display()),
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    run_cuda(&args, &files)
}

#[cfg(not(feature = "cuda"))]
fn run_cuda(_: &RunArgs, _: &[PathBuf]) -> Result<ExitCode> {
    bail!("this build has no CUDA support (the `cuda` feature is off)")
}

#[cfg(feature = "cuda")]
use gpu::run_cuda;

/// Reads, decides and maps a test; the reason when it cannot run.
pub fn prepare(
    path: &Path,
    model: Model,
    ptx_version: &str,
) -> Result<(ptx_litmus::Litmus, Outcomes, Plan), String> {
    let src = std::fs::read_to_string(path).map_err(|e| format!("cannot read it: {e}"))?;
    let test = ptx_litmus::parse(&src).map_err(|e| format!("{}:{e}", path.display()))?;
    // what cannot be mapped is found before the (possibly long) deciding
    plan::plan(&test, &[], ptx_version)?;
    let o = ptx_memmodel::outcomes(&test, model)
        .map_err(|e| format!("the model cannot decide it: {e}"))?;
    if o.outcomes.is_empty() {
        return Err("the model finds no candidate outcome".into());
    }
    let terms: Vec<_> = o.terms.clone();
    let plan = plan::plan(&test, &terms, ptx_version)?;
    Ok((test, o, plan))
}
