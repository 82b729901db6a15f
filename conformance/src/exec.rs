//! `conform exec`: run one kernel on the simulator with buffers from files
//! or hex, and write the buffers back out.

use anyhow::{anyhow, bail, Context, Result};
use ptx_semantics::check::{check_module, Options};
use ptx_semantics::ptx::{self, line_col};
use ptx_semantics::sim::{self, Arg, Launch, Outcome, Schedule, StopKind};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Run a kernel on the simulator.
///
/// Each `--arg` gives one kernel parameter, in order:
///   u8:V u16:V u32:V u64:V s32:V s64:V f32:V f64:V   a scalar (decimal or 0x hex)
///   hex:BYTES                                         raw parameter bytes, little-endian
///   buf:N | buf:N*0xBB | buf:hex:BYTES | buf:file:PATH  a global buffer (N zero bytes,
///                                                     N bytes of 0xBB, the bytes given, a
///                                                     file's bytes); the parameter gets its
///                                                     address. Append @0xADDR to place it.
///   tmap:FIELDS                                       a tensor map (a `.param .align 64 .b8
///                                                     NAME[128]` parameter) in the model's
///                                                     encoding, from comma-separated fields:
///       type=u8|u16|u32|s32|u64|s64|f16|f32|f64|bf16|f32.ftz|tf32|tf32.ftz
///       dims=D0xD1..  strides=S1xS2.. (bytes; default dense, rows rounded up to 16)
///       box=B0xB1..  estrides=E0xE1..  interleave=none|16B|32B
///       swizzle=none|32B|64B|128B|96B  atomicity=16B|32B|32B_flip_8B|64B
///       l2=none|64B|128B|256B  fill=zero|nan
///       base=argN[+OFF] (the buffer of argument N) | 0xADDR
///       im2col maps: lower=..,upper=..,channels=N,pixels=N instead of box
///     e.g. tmap:type=f32,dims=64x32,box=32x8,swizzle=128B,base=arg0
///     A map that breaks a rule of the tensor map is refused, naming the field
///     and the rule.
///
/// Asynchronous operations (bulk and tensor copies and reductions, st.async, cp.async,
/// the arrive-on of cp.async.mbarrier.arrive) read, write and complete when
/// --schedule says: eager (when issued), late (only when no thread can go
/// on without them), random:SEED, or all (every order, up to
/// --schedule-limit runs; each distinct outcome is printed with the number
/// of schedules that reach it). A program that waits as the spec asks has
/// one outcome under every schedule; a read of a copy's destination before
/// the copy completes gets unspecified bits and a report naming the copy.
///
/// After the run every buffer is printed as hex (or, with --out DIR, written
/// to DIR/argK.bin, with DIR/argK.unspecified.bin marking the bytes whose
/// value the spec leaves open), followed by a report for each thread that
/// stopped (undefined behaviour with its PTX ISA clause, an unspecified
/// branch or address, a deadlock, or the step budget).
#[derive(clap::Args)]
#[command(
    verbatim_doc_comment,
    after_help = "Exit codes: 0 every thread ran to its end, 1 some thread stopped (undefined behaviour, deadlock, step budget), 2 usage error, unreadable or unsupported input."
)]
pub struct ExecArgs {
    /// The PTX module.
    #[arg(value_name = "FILE.ptx")]
    file: PathBuf,
    /// The kernel (.entry) to run.
    #[arg(long)]
    kernel: String,
    /// Grid size in CTAs: X[,Y[,Z]].
    #[arg(long, default_value = "1")]
    grid: String,
    /// CTA size in threads: X[,Y[,Z]].
    #[arg(long, default_value = "1")]
    block: String,
    /// Cluster size in CTAs (default: the kernel's .reqnctapercluster, else 1).
    #[arg(long)]
    cluster: Option<String>,
    /// Bytes of dynamic shared memory.
    #[arg(long, default_value_t = 0)]
    shared: u64,
    /// One kernel argument (repeat, in parameter order).
    #[arg(long = "arg", value_name = "ARG")]
    args: Vec<String>,
    /// Write buffers to this directory instead of printing them.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print the outcome as one JSON object.
    #[arg(long)]
    json: bool,
    /// Thread-instructions the run may take.
    #[arg(long, default_value_t = 1 << 32)]
    budget: u64,
    /// Run even if the checker finds the module illegal.
    #[arg(long)]
    no_check: bool,
    /// When asynchronous operations happen: eager, late, random:SEED or all.
    #[arg(long, default_value = "eager", value_name = "SCHEDULE")]
    schedule: String,
    /// With --schedule all: the most runs (schedules) to try.
    #[arg(long, default_value_t = 10_000, value_name = "N")]
    schedule_limit: u64,
}

/// `--schedule`: `None` for `all`.
pub(crate) fn parse_schedule(s: &str) -> Result<Option<Schedule>> {
    Ok(Some(match s {
        "eager" => Schedule::Eager,
        "late" => Schedule::Late,
        "all" => return Ok(None),
        _ => match s.strip_prefix("random:") {
            Some(seed) => Schedule::Random(
                u64::try_from(number(seed)?)
                    .map_err(|_| anyhow!("--schedule {s}: the seed is more than 64 bits"))?,
            ),
            None => bail!("--schedule `{s}`: expected eager, late, random:SEED or all"),
        },
    }))
}

fn dims(s: &str, what: &str) -> Result<[u32; 3]> {
    let mut d = [1u32; 3];
    let parts: Vec<&str> = s.split(',').collect();
    if parts.is_empty() || parts.len() > 3 {
        bail!("--{what}: `{s}` is not X[,Y[,Z]]");
    }
    for (k, p) in parts.iter().enumerate() {
        d[k] = p
            .trim()
            .parse()
            .map_err(|_| anyhow!("--{what}: `{p}` is not a number"))?;
    }
    Ok(d)
}

fn number(s: &str) -> Result<u128> {
    let s = s.trim();
    let v = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u128::from_str_radix(h, 16)
    } else {
        s.parse::<u128>()
    };
    v.map_err(|_| anyhow!("`{s}` is not a number"))
}

fn signed(s: &str) -> Result<i128> {
    match s.trim().strip_prefix('-') {
        Some(rest) => Ok(-(number(rest)? as i128)),
        None => Ok(number(s)? as i128),
    }
}

fn hex(s: &str) -> Result<Vec<u8>> {
    let s: String = s
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .collect();
    if !s.len().is_multiple_of(2) {
        bail!("hex `{s}` has an odd number of digits");
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).map_err(|_| anyhow!("`{s}` is not hex")))
        .collect()
}

/// One `--arg`.
pub fn parse_arg(text: &str) -> Result<Arg> {
    let (kind, rest) = text
        .split_once(':')
        .ok_or_else(|| anyhow!("--arg `{text}`: expected KIND:VALUE"))?;
    let scalar = |bytes: usize, v: i128| -> Arg { Arg::Bytes(v.to_le_bytes()[..bytes].to_vec()) };
    Ok(match kind {
        "u8" | "b8" => scalar(1, signed(rest)?),
        "u16" | "b16" | "s16" => scalar(2, signed(rest)?),
        "u32" | "b32" | "s32" => scalar(4, signed(rest)?),
        "u64" | "b64" | "s64" => scalar(8, signed(rest)?),
        "f32" => Arg::Bytes(
            rest.trim()
                .parse::<f32>()
                .map_err(|_| anyhow!("--arg `{text}`: not an f32"))?
                .to_bits()
                .to_le_bytes()
                .to_vec(),
        ),
        "f64" => Arg::Bytes(
            rest.trim()
                .parse::<f64>()
                .map_err(|_| anyhow!("--arg `{text}`: not an f64"))?
                .to_bits()
                .to_le_bytes()
                .to_vec(),
        ),
        "hex" => Arg::Bytes(hex(rest)?),
        "tmap" => {
            use ptx_semantics::tensor::{Base, MapText};
            let m = MapText::parse(rest).map_err(|e| anyhow!("--arg `{text}`: {e}"))?;
            m.map
                .validate_on(90)
                .map_err(|e| anyhow!("--arg `{text}`: {e}"))?;
            let buffer = match m.base {
                Base::Arg(n) => Some(n),
                Base::Addr(_) => None,
                Base::Named(n) => {
                    bail!("--arg `{text}`: base `{n}`: name a buffer argument as argN, or give an address")
                }
            };
            Arg::TensorMap {
                map: m.map,
                buffer,
                offset: m.offset,
            }
        }
        "buf" => {
            let (spec, addr) = match rest.rsplit_once('@') {
                Some((s, a)) => (s, Some(number(a)? as u64)),
                None => (rest, None),
            };
            let bytes = if let Some(h) = spec.strip_prefix("hex:") {
                hex(h)?
            } else if let Some(p) = spec.strip_prefix("file:") {
                crate::input::read(std::path::Path::new(p))?
            } else if let Some((n, fill)) = spec.split_once('*') {
                vec![number(fill)? as u8; buffer_size(number(n)?)?]
            } else {
                vec![0; buffer_size(number(spec)?)?]
            };
            Arg::Buffer { addr, bytes }
        }
        _ => bail!("--arg `{text}`: unknown kind `{kind}`"),
    })
}

/// A buffer's byte count, bounded like any input ([`crate::input::MAX_INPUT`]).
fn buffer_size(n: u128) -> Result<usize> {
    if n > crate::input::MAX_INPUT as u128 {
        bail!(
            "a buffer of {n} bytes: buffers hold 0 to {} MiB",
            crate::input::MAX_INPUT >> 20
        );
    }
    Ok(n as usize)
}

fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn stop_text(k: &StopKind) -> String {
    match k {
        StopKind::Undefined(u) => u.to_string(),
        StopKind::Indeterminate(why) => format!("indeterminate: {why}"),
        StopKind::Deadlock(why) => format!("deadlock: {why}"),
        StopKind::Budget => "the step budget ran out".into(),
        StopKind::Resource(why) => format!("resource: {why}"),
        StopKind::Trap => "trap: execution aborted".into(),
    }
}

pub fn run(args: ExecArgs) -> Result<ExitCode> {
    let src = crate::input::read_text(&args.file)?;
    let name = args.file.display().to_string();
    let module = ptx::parse(&src).map_err(|e| {
        let (l, c) = line_col(&src, e.at);
        anyhow!("{name}:{l}:{c}: {}", e.message)
    })?;
    if !args.no_check {
        let diags = check_module(&module, &Options::default());
        if let Some(d) = diags.first() {
            let (l, c) = line_col(&src, d.span.start);
            bail!(
                "{name}:{l}:{c}: {} ({} finding(s); `conform check` lists them, --no-check runs anyway)",
                d.message,
                diags.len()
            );
        }
    }
    let profile = sim::WindowProfile::SM90;
    let prog = sim::prepare(&module, &args.kernel, &profile).map_err(|e| {
        let at = match &e {
            sim::LoadError::Unsupported { offset, .. } | sim::LoadError::Bad { offset, .. } => {
                Some(*offset)
            }
            _ => None,
        };
        match at {
            Some(o) => {
                let (l, c) = line_col(&src, o);
                anyhow!("{name}:{l}:{c}: {e}")
            }
            None => anyhow!("{name}: {e}"),
        }
    })?;
    let kernel_args = args
        .args
        .iter()
        .map(|a| parse_arg(a))
        .collect::<Result<Vec<_>>>()?;
    let mut launch = Launch::new(
        dims(&args.grid, "grid")?,
        dims(&args.block, "block")?,
        kernel_args,
    );
    launch.cluster = args
        .cluster
        .as_deref()
        .map(|c| dims(c, "cluster"))
        .transpose()?;
    launch.dynamic_shared = args.shared;
    launch.step_budget = args.budget;
    launch.profile = profile;
    let schedule = parse_schedule(&args.schedule)?;
    let Some(schedule) = schedule else {
        return explore_all(&args, &src, &prog, &launch);
    };
    launch.schedule = schedule;
    let buffer_args = buffer_args(&launch);
    let outcome = sim::run_owned(&prog, launch).map_err(|e| anyhow!("{e}"))?;
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        for (b, &k) in outcome.buffers.iter().zip(&buffer_args) {
            let path = dir.join(format!("arg{k}.bin"));
            std::fs::write(&path, &b.bytes)
                .with_context(|| format!("cannot write {}", path.display()))?;
            let mask = dir.join(format!("arg{k}.unspecified.bin"));
            if b.unspecified.iter().any(|&x| x != 0) {
                let m: Vec<u8> = b
                    .unspecified
                    .iter()
                    .map(|&x| if x != 0 { 0xff } else { 0 })
                    .collect();
                std::fs::write(&mask, m)
                    .with_context(|| format!("cannot write {}", mask.display()))?;
            } else if mask.exists() {
                std::fs::remove_file(&mask)
                    .with_context(|| format!("cannot remove {}", mask.display()))?;
            }
        }
    }
    print_outcome(&args, &src, &outcome, &buffer_args);
    let stopped = !outcome.reports.is_empty() || outcome.budget_exhausted;
    Ok(ExitCode::from(u8::from(stopped)))
}

fn buffer_args(launch: &Launch) -> Vec<usize> {
    launch
        .args
        .iter()
        .enumerate()
        .filter(|(_, a)| matches!(a, Arg::Buffer { .. }))
        .map(|(i, _)| i)
        .collect()
}

/// `--schedule all`: every schedule, each distinct outcome once.
fn explore_all(
    args: &ExecArgs,
    src: &str,
    prog: &sim::Program,
    launch: &Launch,
) -> Result<ExitCode> {
    if args.out.is_some() {
        bail!("--out writes one outcome; --schedule all can have several (use --json)");
    }
    // distinct outcomes in the order first met, with their counts
    let mut seen: Vec<(Outcome, u64)> = Vec::new();
    let key = |o: &Outcome| {
        (
            o.buffers.clone(),
            o.reports.clone(),
            o.undefined_results.clone(),
        )
    };
    let done = sim::explore(prog, launch, args.schedule_limit, |o| {
        let k = key(o);
        match seen.iter_mut().find(|(s, _)| key(s) == k) {
            Some((_, n)) => *n += 1,
            None => seen.push((o.clone(), 1)),
        }
    })
    .map_err(|e| anyhow!("{e}"))?;
    let buffer_args = buffer_args(launch);
    let stdout = std::io::stdout();
    if args.json {
        let outs: Vec<serde_json::Value> = seen
            .iter()
            .map(|(o, n)| {
                let mut v = outcome_json(args, src, o, &buffer_args);
                v["schedules"] = (*n).into();
                v
            })
            .collect();
        let v = serde_json::json!({
            "schedules": done.runs,
            "complete": done.complete,
            "outcomes": outs,
        });
        let _ = writeln!(stdout.lock(), "{v}");
    } else {
        for (k, (o, n)) in seen.iter().enumerate() {
            let _ = writeln!(
                stdout.lock(),
                "== outcome {} of {} ({n} schedule(s))",
                k + 1,
                seen.len()
            );
            print_outcome(args, src, o, &buffer_args);
        }
        let _ = writeln!(
            stdout.lock(),
            "{} schedule(s){}; {} distinct outcome(s)",
            done.runs,
            if done.complete {
                ", all of them"
            } else {
                " (the limit; not every schedule was tried)"
            },
            seen.len()
        );
    }
    let stopped = seen
        .iter()
        .any(|(o, _)| !o.reports.is_empty() || o.budget_exhausted);
    Ok(ExitCode::from(u8::from(stopped)))
}

fn report_json(at: &dyn Fn(u32) -> String, r: &sim::Report) -> serde_json::Value {
    serde_json::json!({
        "ctaid": r.thread.ctaid,
        "tid": r.thread.tid,
        "at": at(r.offset),
        "instruction": r.instruction,
        "stop": stop_text(&r.kind),
        "note": if r.note.is_empty() { serde_json::Value::Null } else { r.note.clone().into() },
    })
}

fn outcome_json(
    args: &ExecArgs,
    src: &str,
    o: &Outcome,
    buffer_args: &[usize],
) -> serde_json::Value {
    let name = args.file.display().to_string();
    let at = |offset: u32| {
        let (l, c) = line_col(src, offset);
        format!("{name}:{l}:{c}")
    };
    let buffers: Vec<serde_json::Value> = o
        .buffers
        .iter()
        .zip(buffer_args)
        .map(|(b, &k)| {
            serde_json::json!({
                "arg": k,
                "addr": format!("{:#x}", b.addr),
                "hex": if args.out.is_some() { serde_json::Value::Null } else { to_hex(&b.bytes).into() },
                "unspecified": if b.unspecified.iter().any(|&x| x != 0) { to_hex(&b.unspecified).into() } else { serde_json::Value::Null },
            })
        })
        .collect();
    let reports: Vec<serde_json::Value> = o.reports.iter().map(|r| report_json(&at, r)).collect();
    let results: Vec<serde_json::Value> = o
        .undefined_results
        .iter()
        .map(|r| report_json(&at, r))
        .collect();
    serde_json::json!({
        "buffers": buffers,
        "reports": reports,
        "undefined_results": results,
        "steps": o.steps,
        "budget_exhausted": o.budget_exhausted,
    })
}

fn print_outcome(args: &ExecArgs, src: &str, o: &Outcome, buffer_args: &[usize]) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let name = args.file.display().to_string();
    let at = |offset: u32| {
        let (l, c) = line_col(src, offset);
        format!("{name}:{l}:{c}")
    };
    if args.json {
        let v = outcome_json(args, src, o, buffer_args);
        let _ = writeln!(out, "{v}");
        return;
    }
    if args.out.is_none() {
        for (b, &k) in o.buffers.iter().zip(buffer_args) {
            let _ = writeln!(out, "arg{k} @ {:#x}: {}", b.addr, to_hex(&b.bytes));
            if b.unspecified.iter().any(|&x| x != 0) {
                let marks: String = b
                    .unspecified
                    .iter()
                    .map(|&x| if x != 0 { "??" } else { ".." })
                    .collect();
                let _ = writeln!(out, "arg{k} unspecified: {marks}");
            }
        }
    }
    for r in &o.reports {
        let _ = writeln!(
            out,
            "{}: thread ctaid={:?} tid={:?} stopped at `{}`: {}",
            at(r.offset),
            r.thread.ctaid,
            r.thread.tid,
            r.instruction,
            stop_text(&r.kind)
        );
    }
    for r in &o.undefined_results {
        let _ = writeln!(
            out,
            "{}: thread ctaid={:?} tid={:?} went on with unspecified bits at `{}`: {}{}{}",
            at(r.offset),
            r.thread.ctaid,
            r.thread.tid,
            r.instruction,
            stop_text(&r.kind),
            if r.note.is_empty() { "" } else { "; " },
            r.note
        );
    }
    let _ = writeln!(
        out,
        "{} thread-instructions; {} thread(s) stopped{}",
        o.steps,
        o.reports.len(),
        if o.budget_exhausted {
            "; the step budget ran out"
        } else {
            ""
        }
    );
}
