//! `conform ub`: can a kernel reach undefined behaviour? Each instruction
//! with preconditions gets "cannot happen" (within the bounds) or a
//! witness, replayed through the simulator (docs/ub.md).

use anyhow::{anyhow, bail, Result};
use ptx_semantics::catalogue::Target;
use ptx_semantics::check::{check_module, Options as CheckOptions};
use ptx_semantics::ptx::ast::{FunctionKind, Item, Module};
use ptx_semantics::ptx::{self, line_col};
use ptx_ub::{Analysis, Bounds, GivenMap, Options, Replay, Verdict};
use std::path::PathBuf;
use std::process::ExitCode;

/// Run a kernel symbolically and report, for every instruction with an
/// undefined-behaviour precondition, whether the precondition can be broken.
///
/// Kernel parameters, the thread's coordinates and loaded values are
/// unknowns; the launch ranges over the bounds given (each dimension from 1
/// to the bound; a kernel's .reqnctapercluster fixes the cluster). Each
/// loop turns at most --unroll times each time it is entered. A witness
/// gives parameter values, the launch and the thread, and is replayed
/// through the simulator; one the replay does not confirm is reported
/// unknown, with what the replay saw. An unknown always says why.
///
/// The module is checked first, against its own .target unless overridden
/// (--override-target); --target names the architecture to compile for, as
/// ptxas -arch does.
///
/// The rules on a tensor map's fields are asked only of a map given with
/// --tensor-map (see the text after the options).
#[derive(clap::Args)]
#[command(
    after_help = "The module is checked first, as `conform check` does: against its own .target unless --override-target replaces it; --target is the architecture to compile for, as ptxas -arch.

Tensor maps: the rules on a map's fields (its validity, its rank against .dim, the box's 16-byte alignment, a store's non-negative coordinates, an im2col load's filter corner inside the Bounding Box, a reduction's type against .redOp) are asked of a tensor copy only where its tensorMap can be the address of a parameter given a map: --tensor-map PARAM=FIELDS, FIELDS in the text form of `conform exec --arg tmap:FIELDS` (base=argN: the value of parameter N), e.g. --tensor-map tmap=type=f32,dims=64x32,box=32x8,base=arg1. The replay puts the map's bytes in that parameter. A field that does not parse, a map that breaks a rule (both named), or a PARAM that is no 128-byte .param of the kernel is exit 2. Other maps' fields are left to the replay's simulator.

Exit codes: 0 no undefined behaviour can happen within the bounds, 1 a witness was found (or a precondition is unknown: each says why), 2 usage error, unreadable or unsupported input."
)]
pub struct UbArgs {
    /// The PTX module.
    #[arg(value_name = "FILE.ptx")]
    file: PathBuf,
    /// The kernel (.entry) to analyse (default: every kernel of the module).
    #[arg(long)]
    kernel: Option<String>,
    /// The architecture to compile for, as ptxas -arch means it (sm_90, sm_90a, sm_100f...):
    /// the module is checked against its own `.target`, which must be one that compiles for
    /// this architecture (a `.target sm_80` module compiles for sm_90; a `.target sm_90a` one
    /// only for sm_90a).
    #[arg(long, value_name = "sm_XX")]
    target: Option<String>,
    /// Check against this target instead of the module's own `.target` (overrides it).
    #[arg(long, value_name = "sm_XX")]
    override_target: Option<String>,
    /// The tensor map kernel parameter PARAM (a `.param .align 64 .b8 PARAM[128]`) holds,
    /// FIELDS as `conform exec --arg tmap:FIELDS` takes them (base=argN is parameter N's
    /// value); repeatable.
    #[arg(long, value_name = "PARAM=FIELDS")]
    tensor_map: Vec<String>,
    /// Largest grid, in CTAs: X[,Y[,Z]].
    #[arg(long, default_value = "8,1,1")]
    grid: String,
    /// Largest CTA, in threads: X[,Y[,Z]] (at most 1024 threads in all).
    #[arg(long, default_value = "256,1,1")]
    block: String,
    /// Largest cluster, in CTAs: X[,Y[,Z]].
    #[arg(long, default_value = "4,1,1")]
    cluster: String,
    /// Turns a loop may take each time a path enters it.
    #[arg(long, default_value_t = 8)]
    unroll: u32,
    /// Activations of one device function a path may be inside at once
    /// (recursion); deeper calls stop the path.
    #[arg(long, default_value_t = 2)]
    recursion: u32,
    /// Solver timeout per query, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    timeout_ms: u32,
    /// Time the search of one kernel may take, in milliseconds (past it,
    /// preconditions it had not settled are reported unknown, with the
    /// paths it left open).
    #[arg(long, default_value_t = 2000)]
    budget_ms: u64,
    /// Do not take 64-bit parameters to be aligned global buffers.
    #[arg(long)]
    raw_params: bool,
    /// Do not replay witnesses through the simulator.
    #[arg(long)]
    no_replay: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

fn dims(s: &str, what: &str) -> Result<[u32; 3]> {
    let mut d = [1u32; 3];
    let parts: Vec<&str> = s.split(',').collect();
    if parts.len() > 3 {
        bail!("--{what}: `{s}` is not X[,Y[,Z]]");
    }
    for (k, p) in parts.iter().enumerate() {
        d[k] = p
            .trim()
            .parse()
            .ok()
            .filter(|v| *v >= 1)
            .ok_or_else(|| anyhow!("--{what}: `{p}` is not a positive number"))?;
    }
    Ok(d)
}

fn kernels(module: &Module) -> Vec<String> {
    module
        .items
        .iter()
        .filter_map(|it| match it {
            Item::Function(f) if f.kind == FunctionKind::Entry && f.body.is_some() => {
                Some(f.name.clone())
            }
            _ => None,
        })
        .collect()
}

/// The module's `.target` (its first architecture).
fn module_target(module: &Module) -> Option<Target> {
    module.items.iter().find_map(|it| match it {
        Item::Target { names, .. } => names.iter().find_map(|t| Target::parse(t)),
        _ => None,
    })
}

/// `--tensor-map PARAM=FIELDS`: each a 128-byte parameter of a kernel
/// analysed, and a map that parses and is valid on `sm`.
fn tensor_maps(
    given: &[String],
    module: &Module,
    kernels: &[String],
    sm: u32,
) -> Result<Vec<GivenMap>> {
    use ptx_semantics::tensor::{Base, MapText};
    let mut params = Vec::new();
    for k in kernels {
        params.extend(ptx_ub::tensor_map_params(module, k).unwrap_or_default());
    }
    let mut out: Vec<GivenMap> = Vec::new();
    for g in given {
        let Some((param, fields)) = g.split_once('=') else {
            bail!("--tensor-map `{g}`: not PARAM=FIELDS");
        };
        let param = param.trim();
        if !params.iter().any(|p| p == param) {
            bail!(
                "--tensor-map `{g}`: `{param}` is not a 128-byte .param of {} (those: {})",
                match kernels {
                    [k] => format!("kernel `{k}`"),
                    _ => "any kernel analysed".to_string(),
                },
                if params.is_empty() {
                    "none".to_string()
                } else {
                    params.join(", ")
                }
            );
        }
        if out.iter().any(|m| m.param == param) {
            bail!("--tensor-map `{g}`: `{param}` is given a map twice");
        }
        let map = MapText::parse(fields).map_err(|e| anyhow!("--tensor-map `{g}`: {e}"))?;
        map.map
            .validate_on(sm)
            .map_err(|e| anyhow!("--tensor-map `{g}`: {e}"))?;
        if let Base::Named(n) = &map.base {
            bail!("--tensor-map `{g}`: base `{n}`: name a parameter as argN, or give an address");
        }
        out.push(GivenMap {
            param: param.to_string(),
            map,
        });
    }
    Ok(out)
}

pub fn run(args: UbArgs) -> Result<ExitCode> {
    let src = crate::input::read_text(&args.file)?;
    let name = args.file.display().to_string();
    let module = ptx::parse(&src).map_err(|e| {
        let (l, c) = line_col(&src, e.at);
        anyhow!("{name}:{l}:{c}: {}", e.message)
    })?;
    let mut check = CheckOptions::default();
    if let Some(t) = &args.target {
        match Target::parse(t) {
            Some(a) if !a.is_ptxas_arch() => bail!(
                "--target: ptxas 13.0 does not compile for {a} (its architectures start at sm_75; sm_101 is sm_110 since PTX ISA 9.0)"
            ),
            Some(a) => check.arch = Some(a),
            None => bail!("--target: `{t}` is not a target like sm_90 or sm_90a"),
        }
    }
    if let Some(t) = &args.override_target {
        match Target::parse(t) {
            Some(t) => check.target = Some(t),
            None => bail!("--override-target: `{t}` is not a target like sm_90 or sm_90a"),
        }
    }
    let diags = check_module(&module, &check);
    if let Some(d) = diags.first() {
        let (l, c) = line_col(&src, d.span.start);
        bail!(
            "{name}:{l}:{c}: {} (`conform check` lists every finding)",
            d.message
        );
    }
    let names = match &args.kernel {
        Some(k) => vec![k.clone()],
        None => kernels(&module),
    };
    if names.is_empty() {
        bail!("{name}: no kernel (.entry) with a body");
    }
    let sm = check
        .target
        .or(check.arch)
        .or_else(|| module_target(&module))
        .map_or(90, |t| t.number);
    let tensor_maps = tensor_maps(&args.tensor_map, &module, &names, sm)?;
    let opts = Options {
        bounds: Bounds {
            grid: dims(&args.grid, "grid")?,
            block: dims(&args.block, "block")?,
            cluster: dims(&args.cluster, "cluster")?,
        },
        unroll: args.unroll,
        recursion: args.recursion,
        timeout_ms: args.timeout_ms,
        pointer_params: !args.raw_params,
        budget_ms: args.budget_ms,
        tensor_maps,
        ..Options::default()
    };
    let mut analyses = Vec::new();
    for k in &names {
        let mut a = ptx_ub::analyse(&module, k, &opts).map_err(|e| {
            let at = match &e {
                ptx_ub::Error::Load(
                    ptx_semantics::sim::LoadError::Unsupported { offset, .. }
                    | ptx_semantics::sim::LoadError::Bad { offset, .. },
                ) => Some(*offset),
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
        if !args.no_replay {
            for f in &mut a.findings {
                ptx_ub::replay::settle(&module, k, &opts, f);
            }
        }
        analyses.push(a);
    }
    let bad = analyses
        .iter()
        .any(|a| a.witnesses() > 0 || a.unknowns() > 0);
    if args.json {
        let v = serde_json::json!({
            "file": name,
            "options": opts,
            "kernels": analyses.iter().map(|a| json_kernel(&src, a)).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        for a in &analyses {
            print_text(&name, &src, a);
        }
    }
    Ok(ExitCode::from(u8::from(bad)))
}

fn json_kernel(src: &str, a: &Analysis) -> serde_json::Value {
    let mut v = serde_json::to_value(a).unwrap_or(serde_json::Value::Null);
    if let Some(fs) = v.get_mut("findings").and_then(|f| f.as_array_mut()) {
        for (f, finding) in fs.iter_mut().zip(&a.findings) {
            let (l, c) = line_col(src, finding.offset);
            f["line"] = serde_json::json!(l);
            f["column"] = serde_json::json!(c);
            add_lines(src, f);
        }
    }
    v
}

/// A `line` beside every `offset` inside a finding (open paths, their
/// loops, what a witness depends on).
fn add_lines(src: &str, v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(m) => {
            if let Some(o) = m.get("offset").and_then(|o| o.as_u64()) {
                if !m.contains_key("line") {
                    let (l, _) = line_col(src, o as u32);
                    m.insert("line".into(), serde_json::json!(l));
                }
            }
            for (_, x) in m.iter_mut() {
                add_lines(src, x);
            }
        }
        serde_json::Value::Array(xs) => xs.iter_mut().for_each(|x| add_lines(src, x)),
        _ => {}
    }
}

/// Where a path was: `line 120` and, for each loop it was in, `in the
/// loop at line 100 after 5 of its 8 turns`.
fn open_text(src: &str, o: &ptx_ub::Open) -> String {
    let (l, _) = line_col(src, o.offset);
    let mut s = format!("line {l} `{}`", o.instruction);
    for t in &o.loops {
        let (h, _) = line_col(src, t.offset);
        s.push_str(&format!(
            ", in the loop at line {h} after {} of its {} turns",
            t.turns, t.bound
        ));
    }
    s
}

fn print_witness(src: &str, w: &ptx_ub::Witness) {
    let params: Vec<String> = w.params.iter().map(|(n, v)| format!("{n}={v}")).collect();
    println!(
        "    launch: grid {:?}, block {:?}, cluster {:?}; thread: ctaid {:?}, tid {:?}",
        w.grid, w.block, w.cluster, w.ctaid, w.tid
    );
    if !params.is_empty() {
        println!("    params: {}", params.join(", "));
    }
    let vals: Vec<String> = w
        .values
        .iter()
        .map(|(n, v)| format!("{n}={v:#x}"))
        .collect();
    println!("    at the instruction: {}", vals.join(", "));
    for d in &w.depends_on {
        let (l, _) = line_col(src, d.offset);
        println!("    depends on line {l} `{}`: {}", d.instruction, d.why);
    }
}

fn print_text(name: &str, src: &str, a: &Analysis) {
    let confirmed = a
        .findings
        .iter()
        .filter(|f| matches!(f.replay, Some(Replay::Confirmed)))
        .count();
    println!(
        "{name}: kernel {}: {} precondition(s) at {} instruction(s): {} witness(es) ({} replayed and confirmed), {} unknown; {} path(s), {} cut at the unroll bound{}, {} queries, {:.1} ms",
        a.kernel,
        a.findings.len(),
        {
            let mut pcs: Vec<usize> = a.findings.iter().map(|f| f.pc).collect();
            pcs.dedup();
            pcs.len()
        },
        a.witnesses(),
        confirmed,
        a.unknowns(),
        a.paths,
        a.unroll_cut,
        match &a.stopped {
            Some(why) => format!(", stopped at {why}"),
            None => String::new(),
        },
        a.queries,
        a.solve_ms,
    );
    if a.opaque > 0 {
        println!(
            "  ({} instruction(s) not interpreted: their results are unconstrained)",
            a.opaque
        );
    }
    for f in &a.findings {
        let (l, c) = line_col(src, f.offset);
        let pre = f.precondition;
        let verdict = match &f.verdict {
            Verdict::CannotHappen => "cannot happen".to_string(),
            Verdict::Witness(_) => "witness".to_string(),
            Verdict::Unknown { reason, .. } => format!("unknown ({reason})"),
        };
        println!(
            "{name}:{l}:{c}: {verdict}: `{}`: {} (PTX ISA {}): {}",
            f.instruction, pre.id, pre.section, pre.rule
        );
        if let Verdict::Unknown {
            open, candidate, ..
        } = &f.verdict
        {
            for o in open {
                println!("    open path at {}", open_text(src, o));
            }
            if let Some(w) = candidate {
                println!("    the candidate witness:");
                print_witness(src, w);
            }
        }
        if let Verdict::Witness(w) = &f.verdict {
            print_witness(src, w);
            match &f.replay {
                Some(Replay::Confirmed) => println!("    replay: confirmed"),
                Some(Replay::NotConfirmed { what }) => {
                    println!("    replay: NOT confirmed: {what}")
                }
                Some(Replay::Impossible { why }) => println!("    replay: not possible: {why}"),
                None => {}
            }
        }
    }
}
