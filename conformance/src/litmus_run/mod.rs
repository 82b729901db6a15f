//! `conform litmus run`: runs litmus tests on a GPU through the CUDA driver
//! API, many instances per launch with randomised thread placement, memory
//! stress and a synchronised start, and compares each outcome seen with the
//! memory model's verdict for it.

#[cfg(feature = "cuda")]
mod gpu;
pub mod place;
pub mod plan;
mod report;
mod sim;

use crate::litmus_gen::{condition_values, term_name};
use anyhow::{bail, Context, Result};
use place::{Layout, Rng};
use plan::{Home, Plan, Source, BLOCK};
use ptx_memmodel::{Model, Outcomes};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Run litmus tests on a GPU (`--impl cuda`) or the interpreter (`--impl
/// simulator`) and compare every outcome seen with the memory model's
/// verdict for it.
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
    after_help = "Exit codes: 0 no forbidden outcome seen, 1 some test showed an outcome the model forbids, 2 usage error, no GPU or driver, or every test failed to run, 130 interrupted (Ctrl-C: the results cover the tests that ran)."
)]
pub struct RunArgs {
    /// Litmus files, or folders searched for `*.litmus`.
    #[arg(value_name = "FILE|DIR", required = true)]
    paths: Vec<PathBuf>,
    /// The implementation: `cuda` (the CUDA driver API) or `simulator`
    /// (the interpreter, one cluster at a time, without the synchronised
    /// start or stress threads).
    #[arg(long = "impl", default_value = "cuda", value_parser = ["cuda", "simulator"])]
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
    /// memory (with --stress) or stay idle. Measured on an H100, weak
    /// outcomes are most frequent at 0.6 to 0.75 without stress
    /// (docs/litmus-gpu.md).
    #[arg(long, default_value_t = 0.75)]
    test_fraction: f64,
    /// Scratch reads and writes each stress thread makes (0: the threads
    /// left over stay idle; on an H100 any stress made weak outcomes rarer).
    #[arg(long, default_value_t = 0)]
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
    /// Launch tests whose CTAs share a cluster in clusters of this many
    /// CTAs (at most 8; at least what the test needs), each instance's CTAs
    /// drawn at random from them. On an H100, clusters of 4 made weak
    /// outcomes within a cluster 2.5 times as frequent as clusters of 2.
    #[arg(long, value_name = "N", default_value_t = 4)]
    cluster_size: u32,
    /// Tests run at once with --impl simulator (default: every core; a GPU
    /// runs one at a time).
    #[arg(short, long)]
    jobs: Option<usize>,
    /// Print each test's kernel (PTX) or the reason it cannot run, and
    /// run nothing.
    #[arg(long)]
    print_ptx: bool,
    /// No progress bar, and no line per skipped test (the results list
    /// them).
    #[arg(short, long)]
    quiet: bool,
    /// With --impl simulator: when asynchronous operations (copies,
    /// st.async, arrive-ons) happen: eager, late, random:SEED (each launch
    /// its own seed drawn from it), or all (one instance per launch, every
    /// schedule of it up to --schedule-limit runs; each distinct result
    /// counts once).
    #[arg(long, default_value = "eager", value_name = "SCHEDULE")]
    schedule: String,
    /// With --schedule all: the most runs per launch.
    #[arg(long, default_value_t = 2_000, value_name = "N")]
    schedule_limit: u64,
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
    let mut files = Vec::new();
    for p in &args.paths {
        crate::litmus_cmd::collect(p, &mut files)?;
    }
    if files.is_empty() {
        bail!("no litmus file found");
    }
    if args.print_ptx {
        use std::io::Write;
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        for f in &files {
            let text = match prepare(f, args.model, PTX_VERSION, args.imp == "simulator") {
                Ok((_, _, plan)) => format!("// {}\n{}", f.display(), plan.ptx),
                Err(e) => format!("// {}: cannot run: {e}\n", f.display()),
            };
            // a closed pipe (`| head`) ends the listing, quietly
            if out.write_all(text.as_bytes()).is_err() {
                break;
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let backend = if args.imp == "simulator" {
        Backend::Simulator
    } else {
        open_gpu(&args)?
    };
    run_all(&args, &files, &backend)
}

/// Where the kernels run.
enum Backend {
    #[cfg(feature = "cuda")]
    Gpu(gpu::Gpu),
    Simulator,
}

#[cfg(feature = "cuda")]
fn open_gpu(args: &RunArgs) -> Result<Backend> {
    let timeout = std::time::Duration::from_secs_f64(args.timeout.max(0.001));
    gpu::Gpu::open(args.libcuda.as_deref(), args.device, timeout)
        .map(Backend::Gpu)
        .map_err(|e| anyhow::anyhow!("{e}"))
}

#[cfg(not(feature = "cuda"))]
fn open_gpu(_: &RunArgs) -> Result<Backend> {
    bail!("this build has no CUDA support (the `cuda` feature is off): use --impl simulator")
}

impl Backend {
    /// CTAs per launch: `--ctas`, else four per multiprocessor on a GPU,
    /// eight on the simulator.
    fn ctas(&self, args: &RunArgs) -> Result<u32> {
        if let Some(c) = args.ctas {
            return Ok(c.max(1));
        }
        match self {
            #[cfg(feature = "cuda")]
            Backend::Gpu(g) => g.default_ctas().map_err(|e| anyhow::anyhow!("{e}")),
            Backend::Simulator => Ok(8),
        }
    }

    fn describe(&self) -> (String, String) {
        match self {
            #[cfg(feature = "cuda")]
            Backend::Gpu(g) => g.describe(),
            Backend::Simulator => (
                "the simulator (ptx_semantics::sim)".into(),
                format!("ptx-conform {}", env!("CARGO_PKG_VERSION")),
            ),
        }
    }

    fn runner(
        &self,
        plan: &Plan,
        frame: &Frame,
        args: &RunArgs,
    ) -> Result<Box<dyn Runner>, String> {
        match self {
            #[cfg(feature = "cuda")]
            Backend::Gpu(g) => g.runner(plan, frame),
            Backend::Simulator => {
                let schedule =
                    crate::exec::parse_schedule(&args.schedule).map_err(|e| e.to_string())?;
                Ok(Box::new(sim::SimRunner::new(
                    plan,
                    frame,
                    schedule,
                    args.schedule_limit,
                )?))
            }
        }
    }

    fn simulator(&self) -> bool {
        matches!(self, Backend::Simulator)
    }
}

/// Words of scratch memory the stress threads use.
pub(crate) const SCRATCH_WORDS: usize = 1 << 16;

/// The sizes of one test's buffers, in 32-bit words, and its grid.
pub struct Frame {
    pub ctas: u32,
    pub max_instances: usize,
    pub region: usize,
    pub roles_words: usize,
    pub locs_words: usize,
    pub mem_words: usize,
    pub out_words: usize,
    pub cfg_words: usize,
}

impl Frame {
    fn new(plan: &Plan, ctas: u32) -> Frame {
        let max = place::max_instances(plan, ctas);
        let region = place::region_words(plan, max);
        let nl = plan.locs.len();
        Frame {
            ctas,
            max_instances: max,
            region,
            roles_words: ctas as usize * BLOCK as usize,
            locs_words: max * nl.max(1),
            mem_words: region + max,
            out_words: (max * (plan.reg_slots + nl)).max(1),
            cfg_words: 5,
        }
    }
}

/// Runs one launch of a test's kernel: the tables in, the outcome buffer
/// (and, when asked, the global locations) back.
/// What [`Runner::launch_each`] calls with each result: the output words
/// and, when asked for, the location words.
pub type Visit<'a> = dyn FnMut(&[u8], Option<&[u8]>) + 'a;

pub trait Runner {
    /// `mem`: the location region's initial words (all zero when `None`).
    fn launch(
        &mut self,
        roles: &[u8],
        locs: &[u8],
        cfg: &[u8],
        mem: Option<&[u8]>,
        out: &mut [u8],
        mem_back: Option<&mut [u8]>,
    ) -> Result<(), String>;

    /// One launch, or (the simulator exploring schedules) several runs of
    /// it: `visit` gets each distinct pair of output and location words.
    #[allow(clippy::too_many_arguments)]
    fn launch_each(
        &mut self,
        roles: &[u8],
        locs: &[u8],
        cfg: &[u8],
        mem: Option<&[u8]>,
        out: &mut [u8],
        mem_back: Option<&mut [u8]>,
        visit: &mut Visit<'_>,
    ) -> Result<(), String> {
        launch_once(self, [roles, locs, cfg], mem, out, mem_back, visit)
    }

    /// Whether each launch must hold one instance (every schedule of it
    /// is run).
    fn one_instance(&self) -> bool {
        false
    }
}

/// One launch of `runner`, its result given to `visit`: what
/// [`Runner::launch_each`] does unless a runner explores several runs.
pub(crate) fn launch_once<R: Runner + ?Sized>(
    runner: &mut R,
    [roles, locs, cfg]: [&[u8]; 3],
    mem: Option<&[u8]>,
    out: &mut [u8],
    mem_back: Option<&mut [u8]>,
    visit: &mut Visit<'_>,
) -> Result<(), String> {
    match mem_back {
        Some(m) => {
            runner.launch(roles, locs, cfg, mem, out, Some(&mut *m))?;
            visit(out, Some(m));
        }
        None => {
            runner.launch(roles, locs, cfg, mem, out, None)?;
            visit(out, None);
        }
    }
    Ok(())
}

fn run_all(args: &RunArgs, files: &[PathBuf], backend: &Backend) -> Result<ExitCode> {
    let ctas = backend.ctas(args)?;
    let (device, driver) = backend.describe();
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let bar = crate::run::progress_bar(args.quiet, files.len() as u64, "litmus");
    let started = crate::run::now().1;
    let t0 = Instant::now();
    // Ctrl-C: finish the tests in flight, write what ran
    crate::run::catch_interrupts();
    // one GPU runs one test at a time; the simulator runs them in parallel
    let jobs = if backend.simulator() {
        args.jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1)
    } else {
        1
    };
    let results: Vec<TestResult> = crate::run::in_parallel(files.len(), jobs, |i| {
        let path = &files[i];
        if jobs == 1 {
            bar.set_message(
                path.file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default(),
            );
        }
        let r = one_test(backend, args, path, ctas, args.seed.wrapping_add(i as u64));
        bar.inc(1);
        r
    });
    bar.finish_and_clear();
    let complete = results.len() == files.len();
    let summary = report::Summary {
        device,
        driver,
        started,
        seconds: t0.elapsed().as_secs_f64(),
        model: args.model.name().into(),
        ctas,
        block: BLOCK,
        test_fraction: fraction(args, backend),
        stress: args.stress,
        seed: args.seed,
        cluster_size: args.cluster_size,
        complete,
    };
    report::write(&args.out, &summary, &results)?;
    let forbidden: u64 = results.iter().map(TestResult::forbidden_seen).sum();
    let ran = results.iter().filter(|r| r.skipped.is_none()).count();
    let instances: u64 = results.iter().map(|r| r.instances).sum();
    println!(
        "{} tests: {ran} ran ({instances} instances), {} skipped; {} forbidden outcomes seen in {} tests; results in {}",
        results.len(),
        results.len() - ran,
        forbidden,
        results.iter().filter(|r| r.forbidden_seen() > 0).count(),
        args.out.display()
    );
    for r in &results {
        if let (Some(why), false) = (&r.skipped, args.quiet) {
            eprintln!("  skipped {}: {why}", r.name);
        }
        for (v, n, ok) in &r.histogram {
            if !ok && *n > 0 {
                println!("  FORBIDDEN {}: {} seen {n} times", r.name, r.outcome(v));
            }
        }
    }
    if !complete {
        eprintln!(
            "interrupted: {} of {} tests ran; the results cover those",
            results.len(),
            files.len()
        );
    }
    Ok(ExitCode::from(if forbidden > 0 {
        1
    } else if !complete {
        130
    } else if ran == 0 {
        2
    } else {
        0
    }))
}

/// The simulator runs every thread as a test thread: stress threads would
/// only cost steps in an interpreter whose interleaving is fixed.
fn fraction(args: &RunArgs, backend: &Backend) -> f64 {
    if backend.simulator() {
        1.0
    } else {
        args.test_fraction
    }
}

/// Reads, decides and maps a test; the reason when it cannot run.
pub fn prepare(
    path: &Path,
    model: Model,
    ptx_version: &str,
    simulator: bool,
) -> Result<(ptx_litmus::Litmus, Outcomes, Plan), String> {
    let src = crate::input::read_text(path).map_err(|e| format!("{e:#}"))?;
    let test = ptx_litmus::parse(&src).map_err(|e| format!("{}:{e}", path.display()))?;
    // what cannot be mapped is found before the (possibly long) deciding
    plan::plan(&test, &[], ptx_version, simulator)?;
    let o = ptx_memmodel::outcomes(&test, model)
        .map_err(|e| format!("the model cannot decide it: {e}"))?;
    if o.outcomes.is_empty() {
        return Err("the model finds no candidate outcome".into());
    }
    // an execution with undefined behaviour makes every outcome possible:
    // the hardware's answers would mean nothing
    let v = ptx_memmodel::check(&test, model)
        .map_err(|e| format!("the model cannot decide it: {e}"))?;
    if let Some(u) = v.undefined.first() {
        return Err(format!(
            "the model finds undefined behaviour in some execution ({u})"
        ));
    }
    let terms: Vec<_> = o.terms.clone();
    let plan = plan::plan(&test, &terms, ptx_version, simulator)?;
    Ok((test, o, plan))
}

impl TestResult {
    /// `P1:r0=1 P1:r1=0`.
    pub fn outcome(&self, v: &[i64]) -> String {
        self.terms
            .iter()
            .zip(v)
            .map(|(t, x)| format!("{t}={x}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

fn one_test(backend: &Backend, args: &RunArgs, path: &Path, ctas: u32, seed: u64) -> TestResult {
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut r = TestResult {
        name,
        file: path.display().to_string(),
        terms: Vec::new(),
        target: None,
        target_allowed: None,
        histogram: Vec::new(),
        instances: 0,
        incomplete: 0,
        launches: 0,
        seconds: 0.0,
        launch_seconds: 0.0,
        skipped: None,
    };
    let t0 = Instant::now();
    let (test, outcomes, mut plan) =
        match prepare(path, args.model, PTX_VERSION, backend.simulator()) {
            Ok(x) => x,
            Err(e) => {
                r.skipped = Some(e);
                return r;
            }
        };
    // a test whose CTAs share a cluster may run in larger clusters: its
    // CTAs are then drawn from more of them
    if plan.cluster > 1 {
        plan.cluster = plan.cluster.max(args.cluster_size.min(8));
    }
    r.terms = outcomes.terms.iter().map(term_name).collect();
    r.target = condition_values(&test.condition.expr, &outcomes.terms);
    r.target_allowed = r.target.as_ref().map(|t| outcomes.allowed(t));
    // clusters need a grid that is a multiple of the cluster size, and
    // enough clusters for the test's
    let clusters = plan.place.iter().map(|p| p.0).max().unwrap_or(0) as u32 + 1;
    let ctas = (ctas / plan.cluster).max(clusters) * plan.cluster;
    let hist = match launch_all(backend, args, &plan, ctas, seed, &mut r) {
        Ok(h) => h,
        Err(e) => {
            r.skipped = Some(e);
            BTreeMap::new()
        }
    };
    let mut histogram: Vec<(Vec<i64>, u64, bool)> = hist
        .into_iter()
        .map(|(v, n)| {
            let ok = outcomes.allowed(&v);
            (v, n, ok)
        })
        .collect();
    for (v, allowed) in &outcomes.outcomes {
        if *allowed && !histogram.iter().any(|h| &h.0 == v) {
            histogram.push((v.clone(), 0, true));
        }
    }
    histogram.sort_by(|a, b| a.0.cmp(&b.0));
    r.histogram = histogram;
    r.seconds = t0.elapsed().as_secs_f64();
    r
}

fn launch_all(
    backend: &Backend,
    args: &RunArgs,
    plan: &Plan,
    ctas: u32,
    seed: u64,
    r: &mut TestResult,
) -> Result<BTreeMap<Vec<i64>, u64>, String> {
    let frame = Frame::new(plan, ctas);
    let mut runner = backend.runner(plan, &frame, args)?;
    let (max, region) = (frame.max_instances, frame.region);
    let nl = plan.locs.len();
    let mut rng = Rng(seed);
    let global_init = plan
        .locs
        .iter()
        .any(|l| l.home == Home::Global && l.init != 0);
    let global_terms = plan
        .sources
        .iter()
        .any(|s| matches!(s, Source::Loc(l) if plan.locs[*l].home == Home::Global));
    let mut hist: BTreeMap<Vec<i64>, u64> = BTreeMap::new();
    let mut out_bytes = vec![0u8; frame.out_words * 4];
    let mut mem_bytes = vec![0u8; region * 4];
    let fraction = if runner.one_instance() {
        plan.threads as f64 / f64::from(ctas * plan::BLOCK)
    } else {
        fraction(args, backend)
    };
    while r.launches < args.iterations && r.instances < args.instances {
        let Layout {
            roles: role_table,
            locs: loc_table,
            instances,
        } = place::assign(plan, ctas, fraction, &mut rng);
        if instances == 0 {
            return Err("no instance fits one launch".into());
        }
        let cfg_words: [u32; 5] = [
            100_000,
            args.stress,
            (SCRATCH_WORDS - 1) as u32,
            region as u32,
            max as u32,
        ];
        let init = global_init.then(|| {
            let mut init = vec![0u32; frame.mem_words];
            for i in 0..instances {
                for (l, loc) in plan.locs.iter().enumerate() {
                    if loc.home == Home::Global {
                        init[loc_table[i * nl + l] as usize] = loc.init as u32;
                    }
                }
            }
            words(&init)
        });
        let tl = Instant::now();
        let word = |b: &[u8], i: usize| {
            u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
        };
        let mut runs = 0u64;
        let mut tally = |out_bytes: &[u8], mem_bytes: Option<&[u8]>| {
            runs += 1;
            for i in 0..instances {
                let mut values = Vec::with_capacity(plan.sources.len());
                let mut complete = true;
                for s in &plan.sources {
                    let v = match s {
                        Source::Reg { slot, .. } => {
                            let v = word(out_bytes, i * plan.reg_slots + slot);
                            complete &= v != u32::MAX;
                            v
                        }
                        Source::Loc(l) => match plan.locs[*l].home {
                            Home::Global => {
                                word(mem_bytes.unwrap_or(&[]), loc_table[i * nl + l] as usize)
                            }
                            Home::Shared { .. } => {
                                let v = word(out_bytes, max * plan.reg_slots + i * nl + l);
                                complete &= v != u32::MAX;
                                v
                            }
                        },
                    };
                    values.push(v as i32 as i64);
                }
                if complete {
                    *hist.entry(values).or_insert(0) += 1;
                } else {
                    r.incomplete += 1;
                }
            }
        };
        runner.launch_each(
            &words(&role_table),
            &words(&loc_table),
            &words(&cfg_words),
            init.as_deref(),
            &mut out_bytes,
            global_terms.then_some(&mut mem_bytes[..]),
            &mut tally,
        )?;
        r.launch_seconds += tl.elapsed().as_secs_f64();
        r.instances += instances as u64 * runs.saturating_sub(1);
        r.instances += instances as u64;
        r.launches += 1;
    }
    Ok(hist)
}

fn words(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|w| w.to_le_bytes()).collect()
}
