//! The CUDA side of `conform litmus run`: one kernel per test, launched
//! until enough instances have run, outcomes read back into a histogram.

use super::place::{self, Layout, Rng};
use super::plan::{self, Home, Plan, Source, BLOCK};
use super::{prepare, report, RunArgs, TestResult, PTX_VERSION};
use crate::litmus_gen::{condition_values, term_name};
use crate::run::cuda::Cuda;
use anyhow::{Context, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub fn run_cuda(args: &RunArgs, files: &[PathBuf]) -> Result<ExitCode> {
    let cuda = Arc::new(
        Cuda::open(args.libcuda.as_deref(), args.device).map_err(|e| anyhow::anyhow!("{e}"))?,
    );
    let sms = cuda.multiprocessors().map_err(|e| anyhow::anyhow!("{e}"))?;
    let ctas = args.ctas.unwrap_or(sms * 4).max(1);
    let (device, driver) = cuda.describe_device();
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let bar = crate::run::progress_bar(args.quiet, files.len() as u64, "litmus");
    let started = crate::run::now().1;
    let t0 = Instant::now();
    let mut results = Vec::new();
    for (i, path) in files.iter().enumerate() {
        bar.set_message(
            path.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
        );
        let r = one_test(&cuda, args, path, ctas, args.seed.wrapping_add(i as u64));
        results.push(r);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let summary = report::Summary {
        device,
        driver,
        started,
        seconds: t0.elapsed().as_secs_f64(),
        model: args.model.name().into(),
        ctas,
        block: BLOCK,
        test_fraction: args.test_fraction,
        stress: args.stress,
        seed: args.seed,
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
    for r in results.iter().filter(|r| r.forbidden_seen() > 0) {
        for (v, n, ok) in &r.histogram {
            if !ok && *n > 0 {
                println!("  FORBIDDEN {}: {} seen {n} times", r.name, {
                    let terms: Vec<String> = r.terms.clone();
                    terms
                        .iter()
                        .zip(v)
                        .map(|(t, x)| format!("{t}={x}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                });
            }
        }
    }
    Ok(ExitCode::from(if forbidden > 0 {
        1
    } else if ran == 0 {
        2
    } else {
        0
    }))
}

fn one_test(cuda: &Arc<Cuda>, args: &RunArgs, path: &Path, ctas: u32, seed: u64) -> TestResult {
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
    let (test, outcomes, plan) = match prepare(path, args.model, PTX_VERSION) {
        Ok(x) => x,
        Err(e) => {
            r.skipped = Some(e);
            return r;
        }
    };
    r.terms = outcomes.terms.iter().map(term_name).collect();
    r.target = condition_values(&test.condition.expr, &outcomes.terms);
    r.target_allowed = r.target.as_ref().map(|t| outcomes.allowed(t));
    // clusters need a grid that is a multiple of the cluster size
    let ctas = (ctas / plan.cluster).max(1) * plan.cluster;
    let hist = match launch_all(cuda, args, &plan, ctas, seed, &mut r) {
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
    cuda: &Arc<Cuda>,
    args: &RunArgs,
    plan: &Plan,
    ctas: u32,
    seed: u64,
    r: &mut TestResult,
) -> Result<BTreeMap<Vec<i64>, u64>, String> {
    let mut k = cuda.kernel(&plan.ptx, plan::ENTRY)?;
    let max = place::max_instances(plan, ctas);
    let region = place::region_words(plan, max);
    let nl = plan.locs.len();
    let threads = ctas as usize * BLOCK as usize;
    const SCRATCH_WORDS: usize = 1 << 16;
    let roles = k.alloc(threads * 4)?;
    let locs = k.alloc(max * nl.max(1) * 4)?;
    let mem = k.alloc((region + max) * 4)?;
    let out_words = max * (plan.reg_slots + nl);
    let out = k.alloc(out_words.max(1) * 4)?;
    let scratch = k.alloc((SCRATCH_WORDS + 64) * 4)?;
    let cfg = k.alloc(5 * 4)?;
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
    let timeout = Duration::from_secs_f64(args.timeout.max(0.001));
    k.fill(scratch, 0, (SCRATCH_WORDS + 64) * 4)?;
    let mut out_bytes = vec![0u8; out_words * 4];
    let mut mem_bytes = vec![0u8; region * 4];
    while r.launches < args.iterations && r.instances < args.instances {
        let Layout {
            roles: role_table,
            locs: loc_table,
            instances,
        } = place::assign(plan, ctas, args.test_fraction, &mut rng);
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
        k.upload(roles, &words(&role_table))?;
        k.upload(locs, &words(&loc_table))?;
        k.upload(cfg, &words(&cfg_words))?;
        k.fill(mem, 0, (region + max) * 4)?;
        if global_init {
            let mut init = vec![0u32; region];
            for i in 0..instances {
                for (l, loc) in plan.locs.iter().enumerate() {
                    if loc.home == Home::Global {
                        init[loc_table[i * nl + l] as usize] = loc.init as u32;
                    }
                }
            }
            k.upload(mem, &words(&init))?;
        }
        k.fill(out, 0xff, out_words * 4)?;
        let cluster = if plan.cluster > 1 { plan.cluster } else { 1 };
        let tl = Instant::now();
        k.launch(
            ctas,
            BLOCK,
            cluster,
            &[roles.ptr, locs.ptr, mem.ptr, out.ptr, scratch.ptr, cfg.ptr],
            timeout,
        )?;
        r.launch_seconds += tl.elapsed().as_secs_f64();
        k.download(out, &mut out_bytes)?;
        if global_terms {
            k.download(mem, &mut mem_bytes)?;
        }
        let word = |b: &[u8], i: usize| {
            u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
        };
        for i in 0..instances {
            let mut values = Vec::with_capacity(plan.sources.len());
            let mut complete = true;
            for s in &plan.sources {
                let v = match s {
                    Source::Reg { slot, .. } => {
                        let v = word(&out_bytes, i * plan.reg_slots + slot);
                        complete &= v != u32::MAX;
                        v
                    }
                    Source::Loc(l) => match plan.locs[*l].home {
                        Home::Global => word(&mem_bytes, loc_table[i * nl + l] as usize),
                        Home::Shared { .. } => {
                            let v = word(&out_bytes, max * plan.reg_slots + i * nl + l);
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
        r.instances += instances as u64;
        r.launches += 1;
    }
    Ok(hist)
}

fn words(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|w| w.to_le_bytes()).collect()
}
