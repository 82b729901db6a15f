//! `conform run`: runs a conformance suite (the default one, generated on
//! the spot, or `--suite DIR`) against an implementation, compares every
//! case with the model's expectation outside its don't-care mask, and
//! writes `results.json`, `report.html` and `junit.xml` into a folder whose
//! path it prints.
//!
//! Exit codes: 0 every case that ran passed, 1 a case failed or could not
//! run, 2 bad input or usage, 130 interrupted (the results of the groups
//! that finished are written).

pub mod compare;
#[cfg(feature = "cuda")]
pub mod cuda;
pub mod impls;
pub mod known;

pub use ptx_gen::suite::file_stem;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use impls::{Detection, Implementation, Job};
use indicatif::{ProgressBar, ProgressStyle};
use ptx_gen::suite::manifest::{Group, Manifest};
use ptx_reports::{Counts, GroupResult, Results, Status, SuiteInfo};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Args)]
#[command(after_help = "Implementations:\n  \
simulator           the model's kernel interpreter\n  \
cuda                the CUDA driver API (libcuda), loaded at run time; kernels are JIT-compiled from PTX\n  \
command:PROGRAM     any program speaking the protocol of docs/implementations.md\n\n\
Exit codes: 0 every case that ran passed, 1 a case failed or could not run, 2 bad input or usage, \
130 interrupted (results of the finished groups are written).")]
pub struct RunArgs {
    /// The implementation: `simulator`, `cuda` or `command:PROGRAM`.
    #[arg(long = "impl", value_name = "IMPL")]
    pub implementation: String,
    /// A suite folder (`conform gen` writes one); without it, the default
    /// suite is generated into OUT/suite.
    #[arg(long, value_name = "DIR")]
    pub suite: Option<PathBuf>,
    /// Where results go (a new folder); default
    /// `conform-out/run-TIME-IMPL`.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Groups to run at once (default: one per CPU; for cuda, worker
    /// processes, one per CPU up to 8).
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
    /// Seconds an implementation may take for one group before its cases
    /// are marked error.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub timeout: f64,
    /// Only groups whose id or form matches one of these globs.
    #[arg(long, value_name = "GLOB")]
    pub filter: Vec<String>,
    /// The seed, when the default suite is generated.
    #[arg(long, default_value_t = ptx_gen::suite::DEFAULT_SEED)]
    pub seed: u64,
    /// Failures kept per group in the results (the counts are complete).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub max_failures: usize,
    /// The CUDA driver library (`--impl cuda`); another driver-compatible
    /// library validates that implementation.
    #[arg(long, value_name = "PATH")]
    pub libcuda: Option<PathBuf>,
    /// The CUDA device ordinal.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub device: usize,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Also run the groups whose cases the spec leaves undefined (`expect:
    /// undefined`, from `conform gen --ub-boundary`): a case passes when
    /// the implementation reports the undefined behaviour
    /// (docs/implementations.md says how each one does). Without it they
    /// are skipped.
    #[arg(long)]
    pub include_undefined: bool,
    /// Documented divergences of the implementation: `sm_90` (the list
    /// shipped for sm_90 GPUs, corpus/cvt/hardware/sm_90/divergences.tsv)
    /// or a file in that format. A case that differs exactly as a listed
    /// divergence says is `known`, not `fail`; a run whose only
    /// differences are known exits 0.
    #[arg(long, value_name = "sm_90|FILE")]
    pub known: Option<String>,
    /// `--impl cuda`: groups whose kernels the driver JIT-compiles as one
    /// module (those that stand alone and share a PTX version and target);
    /// 1 compiles each group's kernel on its own.
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub groups_per_module: usize,
    /// `--impl cuda`: threads each worker process JIT-compiles modules on.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub jit_threads: usize,
}

/// `--jobs` for `--impl cuda` when not given: worker processes (each a
/// CUDA context) up to this many. On an H100 with 16 cores the default
/// suite ran fastest with 6 to 8 (BENCHMARKS.md); more contend for the
/// cores and take longer to end.
const CUDA_WORKERS: usize = 8;

fn implementation(a: &RunArgs, out: &Path, jobs: usize) -> Result<Box<dyn Implementation>> {
    let name = a.implementation.as_str();
    if name == "simulator" {
        return Ok(Box::new(impls::Simulator));
    }
    if name == "cuda" {
        #[cfg(feature = "cuda")]
        {
            // the worker is this program (`conform cuda-worker`)
            let program = std::env::current_exe()
                .map_err(|e| anyhow!("--impl cuda: this program's path: {e}"))?;
            return Ok(Box::new(
                cuda::Isolated::start(
                    &program,
                    a.libcuda.as_deref(),
                    a.device,
                    cuda::Options {
                        workers: jobs,
                        per_module: a.groups_per_module,
                        jit_threads: a.jit_threads,
                    },
                )
                .map_err(|e| anyhow!("--impl cuda: {e}"))?,
            ));
        }
        #[cfg(not(feature = "cuda"))]
        {
            let _ = jobs;
            bail!("--impl cuda: this conform was built without the `cuda` feature");
        }
    }
    if let Some(prog) = name.strip_prefix("command:") {
        return Ok(Box::new(
            impls::Command::new(prog, out.join("scratch"))
                .map_err(|e| anyhow!("--impl {name}: {e}"))?,
        ));
    }
    bail!("--impl `{name}`: give simulator, cuda or command:PROGRAM")
}

/// UTC `YYYYMMDD-HHMMSS` and RFC 3339 of now.
pub(crate) fn now() -> (String, String) {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86400, secs % 86400);
    // civil-from-days (Gregorian), days since 1970-01-01
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    let (h, mi, s) = (rem / 3600, rem % 3600 / 60, rem % 60);
    (
        format!("{y:04}{m:02}{d:02}-{h:02}{mi:02}{s:02}"),
        format!("{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z"),
    )
}

/// Set by Ctrl-C ([`catch_interrupts`]): work stops taking new items.
pub(crate) static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The first Ctrl-C sets [`INTERRUPTED`] (what runs ends, and what ran is
/// written); a second ends the process at once with 130.
pub(crate) fn catch_interrupts() {
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
}

/// `work(i)` for every `i < n` on `jobs` threads, until done or
/// [`INTERRUPTED`]; the results in index order, those not run left out.
pub(crate) fn in_parallel<T: Send>(
    n: usize,
    jobs: usize,
    work: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<T>>> = (0..n).map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                if INTERRUPTED.load(Ordering::SeqCst) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= n {
                    break;
                }
                let r = work(i);
                *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
            });
        }
    });
    slots
        .into_iter()
        .filter_map(|s| s.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect()
}

/// Where this build keeps the built-in suite for `opts`: generated once and
/// reused by later runs, in `PTX_CONFORM_CACHE`, else
/// `$XDG_CACHE_HOME/ptx-conform`, else `~/.cache/ptx-conform`. The name
/// digests the `conform` executable (path, size, modification time), the
/// seed and the filters, so a rebuilt `conform` never reads a suite an
/// older build wrote.
fn cached_suite_dir(opts: &ptx_gen::suite::Options) -> Result<PathBuf> {
    let base = std::env::var_os("PTX_CONFORM_CACHE")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("XDG_CACHE_HOME").map(|p| PathBuf::from(p).join("ptx-conform"))
        })
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/ptx-conform")))
        .unwrap_or_else(|| PathBuf::from("conform-out/cache"));
    std::fs::create_dir_all(&base).with_context(|| format!("cannot create {}", base.display()))?;
    let exe = std::env::current_exe().context("cannot find the conform executable")?;
    let meta = std::fs::metadata(&exe).with_context(|| format!("{}", exe.display()))?;
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    let key = format!(
        "{}|{}|{mtime}|{}|{}|{}",
        exe.display(),
        meta.len(),
        env!("CARGO_PKG_VERSION"),
        opts.seed,
        opts.filter.join("\u{1}")
    );
    let digest = key.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    Ok(base.join(format!("suite-{digest:016x}")))
}

/// Removes the cached suites other than `keep` (those of earlier builds),
/// so the cache holds one suite per seed and filter of the newest build at
/// most a few times over.
fn forget_other_suites(keep: &Path) {
    let Some(base) = keep.parent() else { return };
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    let exe_time = std::env::current_exe()
        .and_then(std::fs::metadata)
        .and_then(|m| m.modified())
        .ok();
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        // only suites older than this executable: another build's, not a
        // concurrent run's of this one with another seed
        let older = match (exe_time, e.metadata().and_then(|m| m.modified())) {
            (Some(exe), Ok(t)) => t < exe,
            _ => false,
        };
        if p != keep && name.starts_with("suite-") && older {
            let _ = std::fs::remove_dir_all(&p);
        }
    }
}

pub fn run(a: RunArgs) -> Result<ExitCode> {
    let (stamp, started) = now();
    let impl_word: String = a
        .implementation
        .rsplit(['/', ':'])
        .next()
        .unwrap_or("impl")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("conform-out").join(format!("run-{stamp}-{impl_word}")));
    if out.exists() && std::fs::read_dir(&out).map_or(true, |mut d| d.next().is_some()) {
        bail!(
            "{}: already exists and is not empty (choose another --out)",
            out.display()
        );
    }
    // the divergence list and the implementation first, so that a bad list
    // or one that cannot start leaves no empty folder behind
    let known_list = a.known.as_deref().map(known::Known::load).transpose()?;
    let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
    let jobs = a
        .jobs
        .unwrap_or(if a.implementation == "cuda" {
            cpus.min(CUDA_WORKERS)
        } else {
            cpus
        })
        .max(1);
    let imp = implementation(&a, &out, jobs)?;
    std::fs::create_dir_all(&out).with_context(|| format!("{}", out.display()))?;
    catch_interrupts();
    let suite_dir = match &a.suite {
        Some(d) => d.clone(),
        None => {
            let opts = ptx_gen::suite::Options {
                seed: a.seed,
                filter: a.filter.clone(),
                ..Default::default()
            };
            let dir = cached_suite_dir(&opts)?;
            if dir.exists() {
                eprintln!("the default suite, generated before: {}", dir.display());
            } else {
                let bar = progress_bar(a.quiet, 0, "generating");
                let t = Instant::now();
                let written = ptx_gen::suite::write(&dir, &opts, cpus, &|d, n| {
                    bar.set_length(n as u64);
                    bar.set_position(d as u64);
                });
                bar.finish_and_clear();
                // another run may have written the same suite meanwhile
                if let Err(e) = written {
                    if !dir.exists() {
                        bail!(e);
                    }
                }
                eprintln!(
                    "generated the default suite in {:.1} s: {}",
                    t.elapsed().as_secs_f64(),
                    dir.display()
                );
                forget_other_suites(&dir);
            }
            dir
        }
    };
    let manifest = Manifest::read(&suite_dir).map_err(|e| anyhow!(e))?;
    let filter = ptx_gen::suite::patterns(&a.filter).map_err(|e| anyhow!(e))?;
    let results = execute(
        &*imp,
        &manifest,
        &suite_dir,
        &filter,
        &a,
        jobs,
        started,
        known_list.as_ref(),
    )?;
    write_outputs(&out, &results)?;
    let t = &results.totals;
    println!(
        "{}: {} pass, {} fail, {} skip, {} error{}{}",
        imp.info().name,
        t.pass,
        t.fail,
        t.skip,
        t.error,
        if t.known > 0 {
            format!(", {} known (documented divergences)", t.known)
        } else {
            String::new()
        },
        if results.complete {
            ""
        } else {
            " (interrupted)"
        }
    );
    println!("{}", out.display());
    Ok(if !results.complete {
        ExitCode::from(130)
    } else if t.fail + t.error > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// A progress bar (hidden with `quiet`).
pub fn progress_bar(quiet: bool, len: u64, msg: impl Into<String>) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let b = ProgressBar::new(len);
    b.set_style(
        ProgressStyle::with_template("{msg:>10} [{bar:40}] {pos}/{len} {per_sec} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    b.set_message(msg.into());
    b
}

/// Runs every selected group with `jobs` workers.
#[allow(clippy::too_many_arguments)] // the run's parts, each from another source
pub fn execute(
    imp: &dyn Implementation,
    m: &Manifest,
    dir: &Path,
    filter: &[glob::Pattern],
    a: &RunArgs,
    jobs: usize,
    started: String,
    known: Option<&known::Known>,
) -> Result<Results> {
    let t0 = Instant::now();
    let selected: Vec<&Group> = m
        .groups
        .iter()
        .filter(|g| {
            filter.is_empty()
                || filter
                    .iter()
                    .any(|f| f.matches(&g.id) || f.matches(&g.form))
        })
        .collect();
    let total: u64 = selected.iter().map(|g| g.cases).sum();
    let progress = progress_bar(a.quiet, total, imp.info().name);
    let timeout = Duration::from_secs_f64(a.timeout.max(0.001));
    let how = How {
        dir,
        timeout,
        max_failures: a.max_failures,
        include_undefined: a.include_undefined,
        known,
    };
    let batch = imp.batch().max(1);
    let groups: Vec<GroupResult> = if batch == 1 {
        in_parallel(selected.len(), jobs, |i| {
            let g = selected[i];
            let r = run_group(imp, g, &how);
            progress.inc(g.cases);
            r
        })
    } else {
        let chunks: Vec<&[&Group]> = selected.chunks(batch).collect();
        in_parallel(chunks.len(), jobs, |i| {
            let r = run_chunk(imp, chunks[i], &how);
            progress.inc(chunks[i].iter().map(|g| g.cases).sum());
            r
        })
        .into_iter()
        .flatten()
        .collect()
    };
    progress.finish_and_clear();
    let complete = !INTERRUPTED.load(Ordering::SeqCst);
    let mut totals = Counts::default();
    let mut families = std::collections::BTreeMap::new();
    for g in &groups {
        totals.merge(&g.counts);
        families
            .entry(g.family.clone())
            .or_insert_with(Counts::default)
            .merge(&g.counts);
    }
    Ok(Results {
        schema: ptx_reports::SCHEMA.to_string(),
        implementation: {
            let mut info = imp.info();
            if let Some(k) = known {
                info.details
                    .insert("known_divergences".into(), k.source.clone());
            }
            info
        },
        suite: SuiteInfo {
            path: dir.display().to_string(),
            seed: m.seed,
            generator: m.generator.clone(),
            groups: m.groups.len(),
            cases: m.cases,
        },
        started,
        duration_s: t0.elapsed().as_secs_f64(),
        complete,
        totals,
        families,
        groups,
    })
}

/// What every group of a run shares.
struct How<'a> {
    dir: &'a Path,
    timeout: Duration,
    max_failures: usize,
    include_undefined: bool,
    known: Option<&'a known::Known>,
}

/// A group before it runs.
enum Prepared {
    /// Settled without running: skipped, or its files unreadable.
    Done(GroupResult),
    /// To run: its result so far, its PTX text and path, and its data
    /// (input, expected output, mask).
    Ready {
        r: GroupResult,
        ptx: String,
        ptx_path: PathBuf,
        data: Vec<u8>,
    },
}

/// Reads a group's files, or settles it without running.
fn prepare(imp: &dyn Implementation, g: &Group, how: &How) -> Prepared {
    let undefined = !g.expect.is_defined();
    let mut r = GroupResult {
        id: g.id.clone(),
        family: g.family.clone(),
        form: g.form.clone(),
        section: g.section.clone(),
        provenance: g.provenance.as_str().to_string(),
        counts: Counts::default(),
        reason: None,
        seconds: 0.0,
        failures: Vec::new(),
        digests: None,
        expect: undefined.then(|| "undefined".to_string()),
        detected: None,
    };
    if undefined && !how.include_undefined {
        all(
            g,
            &mut r,
            Status::Skip,
            "expect: undefined (the spec leaves these cases undefined); run with --include-undefined"
                .into(),
        );
        return Prepared::Done(r);
    }
    if let Some(why) = imp.unsupported(g) {
        all(g, &mut r, Status::Skip, why);
        return Prepared::Done(r);
    }
    let ptx_path = how.dir.join(&g.kernel);
    match (
        std::fs::read_to_string(&ptx_path),
        std::fs::read(how.dir.join(&g.data)),
    ) {
        (Ok(ptx), Ok(data)) if data.len() == g.data_bytes() => Prepared::Ready {
            r,
            ptx,
            ptx_path,
            data,
        },
        (Err(e), _) => {
            all(
                g,
                &mut r,
                Status::Error,
                format!("{}: {e}", ptx_path.display()),
            );
            Prepared::Done(r)
        }
        _ => {
            all(
                g,
                &mut r,
                Status::Error,
                format!("{}: unreadable or of the wrong size", g.data),
            );
            Prepared::Done(r)
        }
    }
}

/// Every case of the group `s`, for `why`.
fn all(g: &Group, r: &mut GroupResult, s: Status, why: String) {
    r.counts.add(s, g.cases);
    r.reason = Some(why);
}

/// The job of a ready group.
fn job<'a>(g: &'a Group, ptx: &'a str, ptx_path: &'a Path, data: &'a [u8], how: &How) -> Job<'a> {
    Job {
        group: g,
        ptx,
        ptx_path,
        input: &data[..g.input_bytes()],
        timeout: how.timeout,
    }
}

/// What an implementation's `run` gave, or its panic.
type Outcome = std::thread::Result<Result<Vec<u8>, impls::RunError>>;

/// Compares what the implementation gave a group of defined cases.
fn finish(g: &Group, mut r: GroupResult, data: &[u8], outcome: Outcome, how: &How) -> GroupResult {
    let (input, rest) = data.split_at(g.input_bytes());
    let (expected, mask) = rest.split_at(g.output_bytes());
    match outcome {
        Err(_) => all(
            g,
            &mut r,
            Status::Error,
            "the implementation panicked".into(),
        ),
        Ok(Err(e)) => all(g, &mut r, Status::Error, e.0),
        Ok(Ok(actual)) => {
            let rule = how.known.and_then(|k| k.for_group(g));
            compare::group(
                g,
                input,
                expected,
                mask,
                &actual,
                how.max_failures,
                rule,
                &mut r,
            );
            if actual.len() == expected.len() {
                r.digests = Some(compare::digests(input, &actual, mask));
            }
        }
    }
    r
}

/// Runs a group whose cases are undefined: passes when the implementation
/// reports the undefined behaviour.
fn run_undefined(
    imp: &dyn Implementation,
    g: &Group,
    mut r: GroupResult,
    job: &Job,
) -> GroupResult {
    let t = Instant::now();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| imp.run_undefined(job)));
    r.seconds = t.elapsed().as_secs_f64();
    match outcome {
        Err(_) => all(
            g,
            &mut r,
            Status::Error,
            "the implementation panicked".into(),
        ),
        Ok(Err(e)) => all(g, &mut r, Status::Error, e.0),
        Ok(Ok(Detection::Detected(what))) => {
            r.counts.add(Status::Pass, g.cases);
            r.detected = Some(what);
        }
        Ok(Ok(Detection::Missed(what))) => all(
            g,
            &mut r,
            Status::Fail,
            format!("the undefined behaviour was not reported: {what}"),
        ),
    }
    r
}

fn run_group(imp: &dyn Implementation, g: &Group, how: &How) -> GroupResult {
    let (r, ptx, ptx_path, data) = match prepare(imp, g, how) {
        Prepared::Done(r) => return r,
        Prepared::Ready {
            r,
            ptx,
            ptx_path,
            data,
        } => (r, ptx, ptx_path, data),
    };
    let job = job(g, &ptx, &ptx_path, &data, how);
    if !g.expect.is_defined() {
        return run_undefined(imp, g, r, &job);
    }
    let t = Instant::now();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| imp.run(&job)));
    let seconds = t.elapsed().as_secs_f64();
    let mut r = finish(g, r, &data, outcome, how);
    r.seconds = seconds;
    r
}

/// Runs consecutive groups through [`Implementation::run_batch`] (those
/// whose cases are undefined one by one, as [`run_group`] does); their
/// results in order. Each group's `seconds` is its share of the batch's.
fn run_chunk(imp: &dyn Implementation, groups: &[&Group], how: &How) -> Vec<GroupResult> {
    let prepared: Vec<Prepared> = groups.iter().map(|g| prepare(imp, g, how)).collect();
    let batched: Vec<usize> = (0..groups.len())
        .filter(|&i| groups[i].expect.is_defined() && matches!(prepared[i], Prepared::Ready { .. }))
        .collect();
    let jobs: Vec<Job> = batched
        .iter()
        .map(|&i| match &prepared[i] {
            Prepared::Ready {
                ptx,
                ptx_path,
                data,
                ..
            } => job(groups[i], ptx, ptx_path, data, how),
            Prepared::Done(_) => unreachable!("only ready groups are batched"),
        })
        .collect();
    let t = Instant::now();
    let outcome = if jobs.is_empty() {
        Ok(Vec::new())
    } else {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| imp.run_batch(&jobs)))
    };
    let share = t.elapsed().as_secs_f64() / jobs.len().max(1) as f64;
    let answered = jobs.len();
    drop(jobs);
    let mut outcomes: Vec<Option<Outcome>> = (0..groups.len()).map(|_| None).collect();
    match outcome {
        Ok(v) if v.len() == answered => {
            for (&i, r) in batched.iter().zip(v) {
                outcomes[i] = Some(Ok(r));
            }
        }
        Ok(v) => {
            let why = format!(
                "the implementation answered {} of a batch of {answered} groups",
                v.len()
            );
            for &i in &batched {
                outcomes[i] = Some(Ok(Err(impls::RunError(why.clone()))));
            }
        }
        Err(_) => {
            for &i in &batched {
                outcomes[i] = Some(Err(Box::new("panicked")));
            }
        }
    }
    prepared
        .into_iter()
        .zip(outcomes)
        .enumerate()
        .map(|(i, (p, outcome))| {
            let g = groups[i];
            match (p, outcome) {
                (Prepared::Done(r), _) => r,
                (
                    Prepared::Ready {
                        r,
                        ptx,
                        ptx_path,
                        data,
                    },
                    None,
                ) => run_undefined(imp, g, r, &job(g, &ptx, &ptx_path, &data, how)),
                (Prepared::Ready { r, data, .. }, Some(outcome)) => {
                    let mut r = finish(g, r, &data, outcome, how);
                    r.seconds = share;
                    r
                }
            }
        })
        .collect()
}

/// Writes `results.json`, `report.html` and `junit.xml`, each complete or
/// not at all.
fn write_outputs(out: &Path, r: &Results) -> Result<()> {
    let json = serde_json::to_string_pretty(r)?;
    ptx_reports::write_atomic(out.join("results.json"), json.as_bytes())?;
    ptx_reports::write_atomic(out.join("report.html"), ptx_reports::render::html(r))?;
    ptx_reports::write_atomic(out.join("junit.xml"), ptx_reports::render::junit(r))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        run: RunArgs,
    }

    /// The simulator, taking groups `batch` at a time.
    struct Batched(usize);

    impl Implementation for Batched {
        fn info(&self) -> ptx_reports::Implementation {
            impls::Simulator.info()
        }
        fn run(&self, job: &Job) -> Result<Vec<u8>, impls::RunError> {
            impls::Simulator.run(job)
        }
        fn batch(&self) -> usize {
            self.0
        }
        fn run_batch(&self, jobs: &[Job]) -> Vec<Result<Vec<u8>, impls::RunError>> {
            assert!(jobs.len() <= self.0 && jobs.iter().all(|j| j.group.expect.is_defined()));
            jobs.iter().map(|j| self.run(j)).collect()
        }
    }

    /// Groups run in batches give the results they give one by one: the
    /// same order, counts, reasons, failures and digests.
    #[test]
    fn batches_give_the_results_of_single_groups() {
        let dir = std::env::temp_dir().join(format!("ptx-run-batches-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let opts = ptx_gen::suite::Options {
            filter: ["prmt.b32*", "mov.b64*", "cvt.rzi.s8.f32*", "shfl.sync.idx*"]
                .map(String::from)
                .to_vec(),
            random: 64,
            ..Default::default()
        };
        let m = ptx_gen::suite::write(&dir, &opts, 2, &|_, _| {}).unwrap();
        assert!(m.groups.len() > 8);
        // one group fails (a flipped expected bit), one cannot be read
        let flip = dir.join(&m.groups[1].data);
        let mut bytes = std::fs::read(&flip).unwrap();
        let at = m.groups[1].input_bytes();
        bytes[at] ^= 1;
        std::fs::write(&flip, &bytes).unwrap();
        let cut = dir.join(&m.groups[4].data);
        let bytes = std::fs::read(&cut).unwrap();
        std::fs::write(&cut, &bytes[..bytes.len() - 1]).unwrap();
        let a = Cli::parse_from(["run", "--impl", "simulator", "-q"]).run;
        let results = |imp: &dyn Implementation, jobs| {
            let r = execute(imp, &m, &dir, &[], &a, jobs, String::new(), None).unwrap();
            let mut v = serde_json::to_value(&r.groups).unwrap();
            for g in v.as_array_mut().unwrap() {
                g["seconds"] = 0.into();
            }
            (v, r.totals)
        };
        let (one, totals) = results(&impls::Simulator, 1);
        assert_eq!((totals.fail, totals.error), (1, m.groups[4].cases));
        for (batch, jobs) in [(1, 1), (3, 1), (3, 2), (5, 3), (1000, 2)] {
            let (got, t) = results(&Batched(batch), jobs);
            assert_eq!(got, one, "batches of {batch} on {jobs} thread(s)");
            assert_eq!(t, totals);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
