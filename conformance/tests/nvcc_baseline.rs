//! The simulator against the GPU on every sm_90 entry kernel of the nvcc
//! corpus (`corpus/nvcc`): each case of `corpus/simulator/nvcc-cases.json`
//! runs on the simulator with the inputs and buffer addresses an NVIDIA H100
//! had (`nvcc-baseline-h100.jsonl.gz`), and every element the model calls
//! defined, and the GPU wrote the same way twice, must be the bytes the GPU
//! wrote. Prints the per-kernel and total counts (corpus/simulator/README.md,
//! "nvcc corpus kernels").

#[path = "common/nvcc_baseline.rs"]
mod nvcc_baseline;

use nvcc_baseline::{Comparison, Modules, NotRun};
use ptx_semantics::sim::WindowProfile;
use std::collections::BTreeSet;

const BASELINE: &str = "corpus/simulator/nvcc-baseline-h100.jsonl.gz";

/// Which elements of a compared argument an explanation covers.
#[derive(Clone, Copy, Debug)]
enum Elements {
    All,
    /// Those whose index is `residue` modulo `modulus`.
    Every(usize, usize),
    One(usize),
}

/// Differences between the model and the H100, each with its evidence
/// (corpus/simulator/README.md, "nvcc corpus kernels"): GPU/spec
/// disagreements, addresses whose placement the spec leaves open, and data
/// races the model resolves one way and calls defined (a limit of the
/// model): (case, argument, elements, why). An element
/// differing outside this table fails the test; an entry that explains no
/// difference fails it too, so that the table stays exact.
const EXPLAINED: &[(&str, usize, Elements, &str)] = &[
    (
        "08_tf32_rna",
        1,
        Elements::One(52),
        "GPU/spec: cvt.rna.satfinite.tf32.f32 of the signalling NaN 0x7f800001 gives MAX_NORM \
         0x7f7fe000 on sm_90; PTX ISA 9.7.9.21: [.satfinite] \"if the input value is NaN, then the \
         result is NaN\" (corpus/cvt/hardware/sm_90/divergences.tsv, tf32-satfinite-nan)",
    ),
    (
        "10_cvta_all",
        1,
        Elements::Every(4, 2),
        "placement: cvta.to.local of a local array's generic address is where ptxas put the \
         array in the thread's frame (0xfffd60 on the H100, 0xfffd00 in the model); the PTX ISA \
         does not fix a .local variable's offset in the window",
    ),
    (
        "10_cvta_asm",
        1,
        Elements::All,
        "placement: the sum includes cvta.shared.u64 of a shared variable, the .shared window's \
         base plus its offset; the base is chosen by the driver per launch",
    ),
];

/// Cases with nothing compared, and why: (case, a word of the status).
const NOT_COMPARED: &[(&str, &str)] = &[
    // __shfl_down_sync(0x0000ffff, ...) in all 32 lanes (the 16-thread
    // case, 20_shfl_modes_16, is defined and compared)
    ("20_shfl_modes", "9.7.9.6"),
    // the H100 faults (unspecified launch failure); the model finds a
    // test_wait on a phase that is neither current nor the one before
    ("25_cp_async_mbarrier_arrive", "GPU error"),
    // the H100 faults (illegal instruction); the model: a .shared::cta to
    // .shared::cluster copy into the executing CTA's own shared memory
    ("26_bulk_s2s_cluster", "GPU error"),
    // the H100 hangs (30 s): each CTA's thread 0 initialises its mbarrier
    // and at once multicasts into both CTAs, with no cluster barrier in
    // between, so the peer's complete_tx may reach an mbarrier not yet
    // initialised (PTX ISA 9.7.13.15); the model reports that undefined
    // behaviour (semantics/src/sim/machine/race.rs)
    ("27_tma_multicast", "timed out"),
];

/// Cases the GPU did not finish that the model runs to their end, and why
/// the model does not see what went wrong.
const GPU_FAILED_MODEL_RUNS: &[(&str, &str)] = &[];

/// Cases where the model must stop a thread for this reason (a part of
/// its report).
const UNDEFINED_AS: &[(&str, &str)] = &[("27_tma_multicast", "may still be uninitialized")];

fn explains(e: Elements, k: usize) -> bool {
    match e {
        Elements::All => true,
        Elements::Every(m, r) => k % m == r,
        Elements::One(i) => i == k,
    }
}

/// Every sm_90 entry kernel of the corpus has a case, or is left out with a
/// reason; every case names a kernel that exists.
#[test]
fn every_sm90_entry_kernel_has_a_case_or_a_reason() {
    let repo = nvcc_baseline::repo();
    let cases = nvcc_baseline::load_cases(&repo).unwrap();
    let dir = repo.join("corpus/nvcc/ptx");
    let mut kernels = BTreeSet::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        if !file.ends_with(".sm_90.ptx") {
            continue;
        }
        let module = ptx_semantics::ptx::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for item in &module.items {
            if let ptx_semantics::ptx::Item::Function(f) = item {
                if f.kind == ptx_semantics::ptx::FunctionKind::Entry {
                    kernels.insert((format!("../nvcc/ptx/{file}"), f.name.clone()));
                }
            }
        }
    }
    let mut covered = BTreeSet::new();
    for c in &cases.cases {
        assert!(
            kernels.contains(&(c.ptx.clone(), c.kernel.clone())),
            "{}: no kernel {} in {}",
            c.name,
            c.kernel,
            c.ptx
        );
        covered.insert((c.ptx.clone(), c.kernel.clone()));
    }
    for l in &cases.left_out {
        assert!(!l.reason.is_empty(), "{}: no reason", l.kernel);
        assert!(
            covered.insert((l.ptx.clone(), l.kernel.clone())),
            "{} has a case and is left out",
            l.kernel
        );
    }
    let missing: Vec<_> = kernels.difference(&covered).collect();
    assert!(missing.is_empty(), "kernels with no case: {missing:?}");
    assert!(
        kernels.len() >= 134,
        "{} sm_90 entry kernels",
        kernels.len()
    );
}

fn status(c: &Comparison) -> String {
    match &c.not_run {
        None => "compared".into(),
        Some(NotRun::Gpu(e)) => format!("GPU error: {}", e.chars().take(80).collect::<String>()),
        Some(NotRun::Refused(e)) => format!("refused: {}", e.chars().take(100).collect::<String>()),
        Some(NotRun::Stopped(r, n)) => format!("{n} threads stopped: {r}"),
    }
}

/// The model agrees with the H100 on every element it calls defined, in
/// every case the GPU ran and the model runs to its end.
#[test]
fn simulator_matches_the_gpu_on_the_nvcc_corpus() {
    let repo = nvcc_baseline::repo();
    let cases = nvcc_baseline::load_cases(&repo).unwrap();
    let records = nvcc_baseline::load_baseline(&repo.join(BASELINE)).unwrap();
    let mut modules = Modules::default();
    let mut problems = Vec::new();
    let mut totals = [0usize; 5];
    let mut not_compared = Vec::new();
    let mut used = vec![0usize; EXPLAINED.len()];
    println!(
        "{:<34} {:>9} {:>9} {:>9} {:>11} {:>8}  status",
        "case", "compared", "differing", "explained", "unspecified", "unstable"
    );
    for case in &cases.cases {
        let Some(rec) = records.get(&case.name) else {
            problems.push(format!("{}: not in the baseline", case.name));
            continue;
        };
        let c = nvcc_baseline::compare(&mut modules, &repo, case, rec);
        let mut unexplained = Vec::new();
        for d in &c.differing {
            let hit = EXPLAINED
                .iter()
                .position(|&(n, a, e, _)| n == c.name && a == d.0 && explains(e, d.1));
            match hit {
                Some(i) => used[i] += 1,
                None => unexplained.push(d),
            }
        }
        let explained = c.differing.len() - unexplained.len();
        println!(
            "{:<34} {:>9} {:>9} {:>9} {:>11} {:>8}  {}",
            c.name,
            c.compared,
            unexplained.len(),
            explained,
            c.unspecified,
            c.unstable,
            status(&c)
        );
        for (k, v) in [
            c.compared,
            unexplained.len(),
            explained,
            c.unspecified,
            c.unstable,
        ]
        .into_iter()
        .enumerate()
        {
            totals[k] += v;
        }
        let listed = NOT_COMPARED.iter().find(|(n, _)| *n == c.name);
        match (&c.not_run, listed) {
            (None, None) => {}
            (Some(_), Some((_, word))) if status(&c).contains(word) => {
                not_compared.push(c.name.clone())
            }
            (Some(_), _) => problems.push(format!("{}: not compared: {}", c.name, status(&c))),
            (None, Some(_)) => problems.push(format!(
                "{}: compared now: take it out of NOT_COMPARED",
                c.name
            )),
        }
        for d in unexplained.iter().take(5) {
            problems.push(format!(
                "{}: arg {} element {}: model {} GPU {}",
                c.name, d.0, d.1, d.2, d.3
            ));
        }
    }
    for (i, &(n, a, _, why)) in EXPLAINED.iter().enumerate() {
        if used[i] == 0 {
            problems.push(format!(
                "{n} arg {a}: explained difference no longer seen ({why})"
            ));
        }
    }
    println!(
        "cases {}, compared {} (not compared {}); elements compared {}, differing {}, explained {}, unspecified {}, unstable {}; kernels left out {}",
        cases.cases.len(),
        cases.cases.len() - not_compared.len(),
        not_compared.len(),
        totals[0],
        totals[1],
        totals[2],
        totals[3],
        totals[4],
        cases.left_out.len()
    );
    assert!(totals[0] > 0, "nothing was compared");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every case runs on the model alone (inputs made here) to its end, but
/// those listed in `NOT_COMPARED`: there the model finds undefined
/// behaviour, and where the H100 faulted on the case, the model's verdict
/// is undefined behaviour too.
/// Every case gives the same outcome with its clusters on three threads
/// (`sim::run_parallel`) as on one, undefined behaviour and races included.
#[test]
fn every_case_runs_the_same_on_several_threads() {
    let repo = nvcc_baseline::repo();
    let cases = nvcc_baseline::load_cases(&repo).unwrap();
    let mut modules = Modules::default();
    let mut differ = Vec::new();
    for case in &cases.cases {
        let rec = nvcc_baseline::synthetic_record(case, &WindowProfile::SM90);
        let one = nvcc_baseline::simulate(&mut modules, &repo, case, &rec).ok();
        let many = nvcc_baseline::simulate_on(&mut modules, &repo, case, &rec, 3).ok();
        if one != many {
            differ.push(case.name.clone());
        }
    }
    assert!(
        differ.is_empty(),
        "{} cases differ: {differ:?}",
        differ.len()
    );
}

#[test]
fn every_case_runs_on_the_model() {
    let repo = nvcc_baseline::repo();
    let cases = nvcc_baseline::load_cases(&repo).unwrap();
    let records = nvcc_baseline::load_baseline(&repo.join(BASELINE)).unwrap();
    let mut modules = Modules::default();
    let mut problems = Vec::new();
    for case in &cases.cases {
        let rec = nvcc_baseline::synthetic_record(case, &WindowProfile::SM90);
        let listed = NOT_COMPARED.iter().any(|(n, _)| *n == case.name);
        let gpu_faulted = records.get(&case.name).is_some_and(|r| !r.ok);
        let model_misses = GPU_FAILED_MODEL_RUNS.iter().any(|(n, _)| *n == case.name);
        let verdict = match nvcc_baseline::simulate(&mut modules, &repo, case, &rec) {
            Ok(out) => out.reports.first().map(|r| {
                (
                    matches!(r.kind, ptx_semantics::sim::StopKind::Undefined(_)),
                    nvcc_baseline::describe(r),
                )
            }),
            Err(e) => Some((false, format!("{e:?}"))),
        };
        match verdict {
            None if model_misses && gpu_faulted => {}
            None if listed || gpu_faulted => problems.push(format!(
                "{}: runs to its end on the model, but is listed as not compared \
                 (or the GPU faulted on it)",
                case.name
            )),
            None => {}
            Some((true, what)) if listed => {
                for (name, part) in UNDEFINED_AS {
                    if *name == case.name && !what.contains(part) {
                        problems.push(format!("{}: expected `{part}`, got {what}", case.name));
                    }
                }
            }
            Some((_, what)) => problems.push(format!("{}: {what}", case.name)),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
