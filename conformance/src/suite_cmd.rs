//! `conform gen --out DIR [--seed N] [--filter GLOB] [--ub-boundary]`:
//! writes a conformance suite (docs/suite-format.md).

use anyhow::{anyhow, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct GenArgs {
    /// The folder to write (it must not exist).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Seed of the random vectors.
    #[arg(long, default_value_t = ptx_gen::suite::DEFAULT_SEED)]
    pub seed: u64,
    /// Only groups whose id or form matches one of these globs
    /// (`cvt.*.f16.f32*`, `prmt*`); repeatable.
    #[arg(long, value_name = "GLOB")]
    pub filter: Vec<String>,
    /// Random rows per group for sources too wide to sweep.
    #[arg(long, value_name = "N", default_value_t = 4096)]
    pub random: usize,
    /// Threads (default: one per CPU).
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Add groups on both sides of each precondition's edge, found by Z3:
    /// the defined side with expected outputs, the undefined side marked
    /// `expect: undefined` (`conform run` skips it unless
    /// --include-undefined).
    #[arg(long)]
    pub ub_boundary: bool,
}

/// The edges of [`ptx_gen::suite::boundary::edges`] with the values Z3
/// finds on both sides.
#[cfg(feature = "ub")]
pub fn solve_edges() -> Result<Vec<ptx_gen::suite::boundary::Solved>> {
    use ptx_gen::suite::boundary::{edges, Solved, PROFILE};
    edges()
        .into_iter()
        .map(|e| {
            let ask = ptx_ub::boundary::Edge {
                pre: e.pre,
                var: e.var,
                fixed: e.fixed,
                before: e.before.clone(),
                range: e.range,
            };
            let b = ptx_ub::boundary::boundary(&ask, &PROFILE).ok_or_else(|| {
                anyhow!(
                    "--ub-boundary: no edge for {} of `{}` (the solver found no value on one side)",
                    e.pre.id,
                    e.form
                )
            })?;
            Ok(Solved {
                edge: e,
                defined: b.defined,
                undefined: b.undefined,
            })
        })
        .collect()
}

#[cfg(not(feature = "ub"))]
pub fn solve_edges() -> Result<Vec<ptx_gen::suite::boundary::Solved>> {
    Err(anyhow!(
        "--ub-boundary needs Z3: this conform was built without the `ub` feature"
    ))
}

pub fn run(a: GenArgs) -> Result<ExitCode> {
    let opts = ptx_gen::suite::Options {
        seed: a.seed,
        filter: a.filter.clone(),
        random: a.random,
        ub_boundary: if a.ub_boundary {
            solve_edges()?
        } else {
            Vec::new()
        },
    };
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    let bar = if a.quiet {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new(0)
    };
    let t = std::time::Instant::now();
    let m = ptx_gen::suite::write(&a.out, &opts, jobs, &|d, n| {
        bar.set_length(n as u64);
        bar.set_position(d as u64);
    })
    .map_err(|e| anyhow!(e))?;
    bar.finish_and_clear();
    eprintln!(
        "{} groups, {} cases in {:.1} s",
        m.groups.len(),
        m.cases,
        t.elapsed().as_secs_f64()
    );
    println!("{}", a.out.display());
    Ok(ExitCode::SUCCESS)
}
