//! `conform exhaustive FORM --impl IMPL`: checks a conversion form whose
//! sources take 32 bits or fewer over every input. The implementation
//! computes the outputs a chunk of consecutive inputs at a time (one launch
//! of a kernel that converts `first + thread index`, so no inputs are
//! materialised), while the model compares the previous chunk on every CPU
//! core ([`compare`]); differing inputs are reported with expected and
//! actual values, in hex and decoded.
//!
//! Exit codes: 0 every input agreed, 1 a mismatch (or the implementation
//! failed), 2 bad input or usage, 130 interrupted.

pub mod compare;
pub mod outputs;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use compare::{Mismatch, Swept, Tally};
use outputs::{Kernel, Outputs, ViaJobs};
use ptx_semantics::cvt::format::Format;
use ptx_semantics::cvt::Conversion;
use std::ops::Range;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[derive(Args)]
#[command(after_help = "Implementations:\n  \
simulator           the model's kernel interpreter (slow: use --range)\n  \
cuda                the CUDA driver API (libcuda), loaded at run time; the kernel is JIT-compiled once\n  \
command:PROGRAM     any program speaking the protocol of docs/implementations.md, one job per chunk\n\n\
Exit codes: 0 every input agreed, 1 a mismatch or the implementation failed, 2 bad input or usage, \
130 interrupted.")]
pub struct ExhaustiveArgs {
    /// The form (`cvt.rn.f16.f32`); its sources must take 32 bits or fewer.
    pub form: String,
    /// The implementation: `simulator`, `cuda` or `command:PROGRAM`.
    #[arg(long = "impl", value_name = "IMPL")]
    pub implementation: String,
    /// The CUDA driver library (`--impl cuda`).
    #[arg(long, value_name = "PATH")]
    pub libcuda: Option<PathBuf>,
    /// The CUDA device ordinal.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub device: usize,
    /// CPU threads for the model (default: one per CPU).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Inputs per chunk, as a power of two (default: 26 for cuda, 22 for
    /// command:, 12 for the simulator).
    #[arg(long, value_name = "LOG2")]
    pub chunk: Option<u32>,
    /// Only the inputs START..END (END excluded; decimal or 0x hex).
    #[arg(long, value_name = "START..END")]
    pub range: Option<String>,
    /// Mismatches printed (all are counted).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub max_report: usize,
    /// Also write the result as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Seconds one chunk may take.
    #[arg(long, value_name = "SECONDS", default_value_t = 600.0)]
    pub timeout: f64,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// `--impl cuda`: `pageable` copies into ordinary memory rather than
    /// page-locked buffers (for timing).
    #[arg(
        long,
        value_name = "pinned|pageable",
        default_value = "pinned",
        hide = true
    )]
    pub host_memory: String,
    /// Prints where the time went: start-up, the implementation, the
    /// comparison, and each waiting for the other.
    #[arg(long, hide = true)]
    pub timings: bool,
}

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The form named `text`, with the PTX version and target its kernel is
/// written for.
fn find_form(text: &str) -> Result<(Swept, (&'static str, &'static str))> {
    let Some((form, vt)) = ptx_gen::suite::cvt::find_form(text) else {
        let all = ptx_gen::suite::cvt::all_forms();
        // forms that share all but the last qualifier
        let stem = &text[..text.rfind('.').map_or(0, |i| i + 1)];
        let near: Vec<&str> = all
            .iter()
            .map(|(f, _)| f.text.as_str())
            .filter(|t| !stem.is_empty() && t.starts_with(stem))
            .take(8)
            .collect();
        bail!(
            "`{text}` is not a cvt or cvt.pack form of the catalogue{}",
            if near.is_empty() {
                String::new()
            } else {
                format!(" (some that are: {})", near.join(", "))
            }
        );
    };
    let Some(fields) = ptx_gen::suite::cvt::sweep_fields(&form) else {
        let w: Vec<String> = form
            .conv
            .source_widths()
            .iter()
            .map(|w| w.to_string())
            .collect();
        bail!(
            "`{text}` takes sources of {} bits: more than 32 in all, too many inputs to check \
             every one",
            w.join(" + ")
        );
    };
    Ok((Swept::new(form, fields), vt))
}

/// `START..END`, each decimal or `0x` hex, within `0..=limit`.
fn parse_range(text: &str, limit: u64) -> Result<Range<u64>> {
    let num = |s: &str| -> Option<u64> {
        let s = s.trim().replace('_', "");
        match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
            Some(h) => u64::from_str_radix(h, 16).ok(),
            None => s.parse().ok(),
        }
    };
    let bad =
        || anyhow!("--range `{text}`: give START..END (END excluded), e.g. 0x3f800000..0x3f810000");
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let (a, b) = (num(a).ok_or_else(bad)?, num(b).ok_or_else(bad)?);
    if a >= b {
        bail!("--range `{text}`: START must be below END");
    }
    if b > limit {
        bail!("--range `{text}`: the form has {limit:#x} inputs, so END can be at most {limit:#x}");
    }
    Ok(a..b)
}

/// The source's and destination's formats, for decoding.
fn formats(s: &Swept) -> (Vec<Option<Format>>, Option<Format>) {
    match &s.form.conv {
        Conversion::Cvt(op) => {
            let mut src = vec![Some(op.src); s.fields.len()];
            if s.form.text.contains(".rs") {
                // `rbits` is bits
                if let Some(last) = src.last_mut() {
                    *last = None;
                }
            }
            (src, Some(op.dst))
        }
        Conversion::Pack(_) => (vec![None; s.fields.len()], None),
    }
}

fn hex(v: u64, bits: u32) -> String {
    format!("0x{v:0w$x}", w = bits.div_ceil(4) as usize)
}

fn decoded(fmt: &Option<Format>, v: u64) -> String {
    match fmt {
        Some(f) => {
            let w = f.width();
            let bits = if w >= 64 { v } else { v & ((1u64 << w) - 1) };
            format!(" ({})", crate::eval::describe(f, bits))
        }
        None => String::new(),
    }
}

/// One line per mismatch: the operands, then expected and actual.
fn describe(s: &Swept, m: &Mismatch) -> String {
    let (src, dst) = formats(s);
    let names = ["a", "b", "c", "d", "e"];
    let ops: Vec<String> = s
        .operands(m.input)
        .iter()
        .zip(&s.fields)
        .zip(&src)
        .enumerate()
        .map(|(j, ((&v, &(_, w)), f))| format!("{} = {}{}", names[j], hex(v, w), decoded(f, v)))
        .collect();
    let bits = s.form.dest_reg;
    let mask = if m.mask == 0 {
        String::new()
    } else {
        format!(", unspecified bits {}", hex(m.mask, bits))
    };
    format!(
        "{}: expected {}{}, got {}{}{mask}",
        ops.join(", "),
        hex(m.expected, bits),
        decoded(&dst, m.expected),
        hex(m.actual, bits),
        decoded(&dst, m.actual),
    )
}

/// The implementation named by `--impl`.
fn implementation(a: &ExhaustiveArgs, kernel: Kernel, chunk: u64) -> Result<Box<dyn Outputs>> {
    let timeout = Duration::from_secs_f64(a.timeout.max(0.001));
    let name = a.implementation.as_str();
    let via = |imp: Box<dyn crate::run::impls::Implementation + Send>, kernel: Kernel| {
        Box::new(ViaJobs {
            imp,
            ptx_path: PathBuf::from(format!("{}.ptx", kernel.form)),
            kernel,
            timeout,
        })
    };
    if name == "simulator" {
        return Ok(via(Box::new(crate::run::impls::Simulator), kernel));
    }
    if name == "cuda" {
        #[cfg(feature = "cuda")]
        {
            let pin = match a.host_memory.as_str() {
                "pinned" => true,
                "pageable" => false,
                other => bail!("--host-memory `{other}`: give pinned or pageable"),
            };
            return Ok(Box::new(
                outputs::OnCuda::start(
                    a.libcuda.as_deref(),
                    a.device,
                    &kernel,
                    chunk,
                    timeout,
                    pin,
                )
                .map_err(|e| anyhow!("--impl cuda: {e}"))?,
            ));
        }
        #[cfg(not(feature = "cuda"))]
        {
            let _ = chunk;
            bail!("--impl cuda: this conform was built without the `cuda` feature");
        }
    }
    if let Some(prog) = name.strip_prefix("command:") {
        let scratch =
            std::env::temp_dir().join(format!("conform-exhaustive-{}", std::process::id()));
        let imp = crate::run::impls::Command::new(prog, scratch)
            .map_err(|e| anyhow!("--impl {name}: {e}"))?;
        return Ok(via(Box::new(imp), kernel));
    }
    bail!("--impl `{name}`: give simulator, cuda or command:PROGRAM")
}

/// What a sweep found.
struct Outcome {
    tally: Tally,
    /// Inputs whose outputs came back and were compared (up to an
    /// interruption or a failure).
    done: u64,
    /// Why the implementation stopped, if it did.
    failure: Option<String>,
    /// Where the time went (`--timings`).
    times: Times,
}

/// Seconds spent in each part of a sweep.
#[derive(Default)]
struct Times {
    /// The implementation computing chunks (launch, wait, copy back).
    computing: Duration,
    /// The implementation waiting for the comparison to take a chunk.
    blocked: Duration,
    /// The comparison.
    comparing: Duration,
    /// The comparison waiting for a chunk.
    starved: Duration,
    chunks: u64,
}

/// Runs the implementation over `range` a chunk at a time, one chunk
/// ahead of the comparison.
fn sweep(
    imp: &mut dyn Outputs,
    s: &Swept,
    range: Range<u64>,
    chunk: u64,
    threads: usize,
    keep: usize,
    progress: &indicatif::ProgressBar,
) -> Outcome {
    type Computed = (u64, u64, Result<Vec<u8>, String>);
    let (to_compare, computed) = std::sync::mpsc::sync_channel::<Computed>(1);
    let (recycle, spare) = std::sync::mpsc::channel::<Vec<u8>>();
    let mut out = Outcome {
        tally: Tally::default(),
        done: 0,
        failure: None,
        times: Times::default(),
    };
    let producing = &mut *imp;
    let (buffers, computing, blocked) = std::thread::scope(|scope| {
        let producer = scope.spawn(move || {
            let (mut computing, mut blocked) = (Duration::ZERO, Duration::ZERO);
            let mut kept = Vec::new();
            let mut first = range.start;
            while first < range.end && !INTERRUPTED.load(Ordering::SeqCst) {
                let count = chunk.min(range.end - first);
                let mut buf = spare.try_recv().unwrap_or_default();
                let t = Instant::now();
                let r = producing.chunk(first, count, &mut buf);
                computing += t.elapsed();
                let r = match r {
                    Ok(()) => Ok(buf),
                    Err(e) => {
                        kept.push(buf);
                        Err(e)
                    }
                };
                let failed = r.is_err();
                let t = Instant::now();
                if to_compare.send((first, count, r)).is_err() || failed {
                    break;
                }
                blocked += t.elapsed();
                first += count;
            }
            drop(to_compare);
            // every buffer comes back once the comparison is done
            kept.extend(spare.iter());
            (kept, computing, blocked)
        });
        let mut waited = Instant::now();
        for (first, count, r) in computed.iter() {
            out.times.starved += waited.elapsed();
            match r {
                Ok(buf) => {
                    let t = Instant::now();
                    out.tally
                        .merge(compare::chunk(s, first, &buf, threads, keep), keep);
                    out.times.comparing += t.elapsed();
                    out.times.chunks += 1;
                    out.done += count;
                    progress.inc(count);
                    let _ = recycle.send(buf);
                }
                Err(e) => {
                    out.failure = Some(format!(
                        "on inputs {}..{}: {e}",
                        hex(first, 32),
                        hex(first + count, 32)
                    ));
                    break;
                }
            }
            if INTERRUPTED.load(Ordering::SeqCst) {
                break;
            }
            waited = Instant::now();
        }
        // chunks computed but not compared (a failure, an interruption)
        for (_, _, r) in computed.iter() {
            if let Ok(buf) = r {
                let _ = recycle.send(buf);
            }
        }
        drop(recycle);
        producer.join().unwrap_or_default()
    });
    out.times.computing = computing;
    out.times.blocked = blocked;
    imp.release(buffers);
    out
}

pub fn run(a: ExhaustiveArgs) -> Result<ExitCode> {
    let (s, (version, target)) = find_form(&a.form)?;
    let range = match &a.range {
        Some(r) => parse_range(r, s.inputs())?,
        None => 0..s.inputs(),
    };
    let default_log2 = match a.implementation.as_str() {
        "cuda" => 26,
        "simulator" => 12,
        _ => 22,
    };
    let log2 = a.chunk.unwrap_or(default_log2);
    if !(4..=31).contains(&log2) {
        bail!("--chunk {log2}: give a power of two from 4 to 31");
    }
    let chunk = (1u64 << log2).min(range.end - range.start);
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
        .max(1);
    let ptx = ptx_gen::suite::cvt::exhaustive_kernel(&s.form, (version, target))
        .context("the form has no exhaustive kernel")?;
    let output_type = match &s.form.conv {
        Conversion::Cvt(op) => op.dst.ptx_name()[1..].to_string(),
        Conversion::Pack(_) => "b32".into(),
    };
    let kernel = Kernel {
        form: s.form.text.clone(),
        section: match s.form.conv {
            Conversion::Cvt(_) => "9.7.9.21".into(),
            Conversion::Pack(_) => "9.7.9.22".into(),
        },
        ptx_version: version.into(),
        target: target.into(),
        ptx,
        output_type,
        row: s.row,
    };
    let t0 = Instant::now();
    let mut imp = implementation(&a, kernel, chunk)?;
    let started = t0.elapsed();
    let info = imp.info();
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    let total = range.end - range.start;
    eprintln!(
        "{} on {}{}: inputs {}..{} ({total}), chunks of {chunk}, the model on {threads} thread(s)",
        s.form.text,
        info.name,
        if info.version.is_empty() {
            String::new()
        } else {
            format!(" ({})", info.version)
        },
        hex(range.start, 32),
        hex(range.end, 32),
    );
    if let Some(why) = ptx_gen::suite::cvt::divergences().get(&s.form.text) {
        eprintln!("note: sm_90 is known to depart from the spec on this form: {why}");
    }
    let progress = crate::run::progress_bar(a.quiet, total, "inputs");
    let out = sweep(
        &mut *imp,
        &s,
        range.clone(),
        chunk,
        threads,
        a.max_report,
        &progress,
    );
    progress.finish_and_clear();
    let seconds = t0.elapsed().as_secs_f64();
    if a.timings {
        let m = &out.times;
        eprintln!(
            "timings: start-up {:.3} s; implementation {:.3} s computing {} chunk(s), {:.3} s \
             waiting for the comparison; comparison on {threads} thread(s) {:.3} s, {:.3} s \
             waiting for a chunk; total {seconds:.3} s",
            started.as_secs_f64(),
            m.computing.as_secs_f64(),
            m.chunks,
            m.blocked.as_secs_f64(),
            m.comparing.as_secs_f64(),
            m.starved.as_secs_f64(),
        );
    }
    let t = &out.tally;
    for m in &t.examples {
        println!("mismatch: {}", describe(&s, m));
    }
    if t.mismatches > t.examples.len() as u64 {
        println!(
            "... and {} more (--max-report to see more)",
            t.mismatches - t.examples.len() as u64
        );
    }
    let interrupted = INTERRUPTED.load(Ordering::SeqCst);
    println!(
        "{}: {} of {total} inputs checked in {seconds:.2} s: {} compared, {} undefined in the \
         model, {} mismatch(es){}",
        s.form.text,
        out.done,
        t.compared,
        t.undefined,
        t.mismatches,
        if interrupted { " (interrupted)" } else { "" }
    );
    if let Some(why) = &out.failure {
        eprintln!("conform: error: {}: {why}", info.name);
    }
    if let Some(path) = &a.json {
        let json = serde_json::json!({
            "form": s.form.text,
            "implementation": info,
            "range": [range.start, range.end],
            "inputs": total,
            "checked": out.done,
            "compared": t.compared,
            "undefined": t.undefined,
            "mismatches": t.mismatches,
            "examples": t.examples.iter().map(|m| serde_json::json!({
                "input": m.input,
                "operands": s.operands(m.input),
                "expected": m.expected,
                "actual": m.actual,
                "unspecified": m.mask,
                "text": describe(&s, m),
            })).collect::<Vec<_>>(),
            "failure": out.failure,
            "complete": !interrupted && out.failure.is_none(),
            "seconds": seconds,
        });
        ptx_reports::write_atomic(path, serde_json::to_string_pretty(&json)?.as_bytes())?;
    }
    Ok(if interrupted {
        ExitCode::from(130)
    } else if t.mismatches > 0 || out.failure.is_some() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
