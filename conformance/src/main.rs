//! `conform`: checks PTX files against the PTX ISA 9.7.9 catalogue (and, as
//! they arrive, evaluates instructions, runs conformance suites and litmus
//! tests).
//!
//! Exit codes: 0 success (every file legal), 1 a finding (an illegal file),
//! 2 a usage error or unreadable input.

use ptx_conformance::{
    check, cvt_hw_cmd, eval, exec, exhaustive, legality_cmd, litmus_cmd, report_cmd, run, suite_cmd,
};

use clap::{Parser, Subcommand};

/// Parsing allocates one small string per name; mimalloc makes that
/// markedly cheaper than the system allocator (see BENCHMARKS.md).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "conform",
    version,
    about = "Executable model and conformance tooling for PTX ISA 9.7.9 (data movement and conversion)",
    after_help = "Exit codes: 0 success, 1 findings (e.g. an illegal PTX file), 2 usage error or unreadable input."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Check(check::CheckArgs),
    /// Evaluate an instruction form (cvt, cvt.pack, prmt, mov, shfl) on given operand values.
    Eval(eval::EvalArgs),
    /// Write a conformance suite: PTX kernels, inputs and the model's expected outputs.
    Gen(suite_cmd::GenArgs),
    /// Run a conformance suite against an implementation and write the results and reports.
    Run(run::RunArgs),
    /// Check a conversion form over every input (sources of 32 bits or fewer) against an implementation.
    Exhaustive(exhaustive::ExhaustiveArgs),
    /// Render a results file of `conform run` as HTML, Markdown or JUnit XML.
    Report(report_cmd::ReportArgs),
    /// Decide PTX litmus tests under the PTX memory consistency model.
    #[command(subcommand)]
    Litmus(litmus_cmd::LitmusCommand),
    Exec(exec::ExecArgs),
    /// Can a kernel reach undefined behaviour? Z3 finds witnesses or proves it cannot.
    #[cfg(feature = "ub")]
    Ub(ptx_conformance::ub_cmd::UbArgs),
    /// Build or compare the ptxas legality corpus (maintainers).
    #[command(hide = true, subcommand)]
    Legality(legality_cmd::LegalityCommand),
    /// Conversion baselines from a GPU (maintainers).
    #[command(hide = true, subcommand, name = "cvt-hw")]
    CvtHw(cvt_hw_cmd::CvtHwCommand),
    /// The child process of `run --impl cuda` (speaks on standard input
    /// and output; not for people).
    #[cfg(feature = "cuda")]
    #[command(hide = true, name = "cuda-worker")]
    CudaWorker(CudaWorkerArgs),
}

#[cfg(feature = "cuda")]
#[derive(clap::Args)]
struct CudaWorkerArgs {
    #[arg(long, value_name = "PATH")]
    libcuda: Option<std::path::PathBuf>,
    #[arg(long, value_name = "N", default_value_t = 0)]
    device: usize,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Command::Check(args) => check::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Gen(args) => suite_cmd::run(args),
        Command::Run(args) => run::run(args),
        Command::Exhaustive(args) => exhaustive::run(args),
        Command::Report(args) => report_cmd::run(args),
        Command::Litmus(cmd) => litmus_cmd::run(cmd),
        Command::Exec(args) => exec::run(args),
        #[cfg(feature = "ub")]
        Command::Ub(args) => ptx_conformance::ub_cmd::run(args),
        Command::Legality(cmd) => legality_cmd::run(cmd),
        Command::CvtHw(cmd) => cvt_hw_cmd::run(cmd),
        #[cfg(feature = "cuda")]
        Command::CudaWorker(a) => return run::cuda::serve(a.libcuda.as_deref(), a.device),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("conform: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
