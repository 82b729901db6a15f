//! The simulator against the GPU: every case of `corpus/simulator` runs on
//! the simulator with the inputs an NVIDIA H200 and an NVIDIA H100 had (the
//! arithmetic families of issue 18: the H100 only), and every element the
//! model calls defined (and the GPU wrote the same way twice) must be the
//! bytes the GPU wrote. Also: every case runs to completion on the model,
//! each arithmetic family compares at least a floor of elements, and each
//! scalar video form recorded as a spec/GPU disagreement still disagrees.

use ptx_conformance::baseline;
use ptx_semantics::sim::WindowProfile;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// No kernel of the baseline reaches undefined behaviour, an indeterminate
/// branch, a deadlock or the step budget on the model: each was written
/// to run to completion.
#[test]
fn every_case_runs_to_completion_on_the_model() {
    let repo = repo();
    let cases = baseline::load_cases(&repo).unwrap();
    let profile = WindowProfile::SM90;
    let mut failures = Vec::new();
    for case in &cases.cases {
        let rec = baseline::synthetic_record(case, &profile);
        match baseline::simulate(&repo, case, &rec, profile) {
            Ok(out) if out.reports.is_empty() => {}
            Ok(out) => failures.push(format!(
                "{}: {:?}",
                case.name,
                &out.reports[..out.reports.len().min(3)]
            )),
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every case gives the same outcome with its clusters on three threads
/// (`sim::run_parallel`) as on one.
#[test]
fn every_case_runs_the_same_on_several_threads() {
    let repo = repo();
    let cases = baseline::load_cases(&repo).unwrap();
    let profile = WindowProfile::SM90;
    let mut differ = Vec::new();
    for case in &cases.cases {
        let rec = baseline::synthetic_record(case, &profile);
        let one = baseline::simulate(&repo, case, &rec, profile);
        let many = baseline::simulate_on(&repo, case, &rec, profile, 3);
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

/// The baselines: what an H200 and an H100 did (see corpus/simulator/README.md).
const BASELINES: &[&str] = &[
    "corpus/simulator/baseline-h200.jsonl.gz",
    "corpus/simulator/baseline-h100.jsonl.gz",
];

/// The baseline every case must be in; the other ([`BASELINES`]) was
/// recorded before the arithmetic kernels existed, so their cases are
/// compared with this one only.
const FULL_BASELINE: &str = "corpus/simulator/baseline-h100.jsonl.gz";

/// The kernels of the arithmetic families (issue 18, written by
/// `tools/sim/gen_arith_kernels.py`): run on the H100 only. The second
/// group (`set`/`slct`, video, packed integers, `match.sync`, the lane
/// masks and `bar.arrive`) was recorded on 2026-11-27 with the first
/// group's cases again, which gave the same bytes.
const ARITH_KERNELS: &[&str] = &[
    "kernels/int.ptx",
    "kernels/float.ptx",
    "kernels/cmp.ptx",
    "kernels/atom.ptx",
    "kernels/warp.ptx",
    "kernels/setslct.ptx",
    "kernels/video.ptx",
    "kernels/packed.ptx",
    "kernels/match.ptx",
];

/// The arithmetic families, each with the fewest elements its cases must
/// compare with the H100 (so that a case that stops running, or a
/// family whose results all turn unspecified, fails the test).
const ARITH_FAMILIES: &[(&str, usize)] = &[
    ("integer and bit (9.7.1)", 400_000),
    ("float, IEEE-exact (9.7.3, 9.7.4)", 400_000),
    ("setp/selp/testp (9.7.7, 9.7.8)", 240_000),
    ("atom/red", 140_000),
    ("atom/red (contended, final values)", 18),
    ("vote/redux/elect/activemask", 50_000),
    ("set/slct (9.7.7.1, 9.7.7.4)", 250_000),
    ("scalar video (9.7.10)", 330_000),
    ("SIMD video (9.7.11)", 240_000),
    ("packed integer (9.7.1)", 15_000),
    ("match.sync, %lanemask_*, bar.arrive (9.7.13)", 80_000),
];

/// The model agrees with each GPU on every element it calls defined, for
/// every case the GPU ran. Prints the per-family counts.
#[test]
fn simulator_matches_the_gpu() {
    let repo = repo();
    let cases = baseline::load_cases(&repo).unwrap();
    let mut problems = Vec::new();
    for file in BASELINES {
        let records = baseline::load_baseline(&repo.join(file)).unwrap();
        let mut families: std::collections::BTreeMap<String, [usize; 7]> = Default::default();
        let mut ran = 0;
        for case in &cases.cases {
            let Some(rec) = records.get(&case.name) else {
                if *file == FULL_BASELINE || !ARITH_KERNELS.contains(&case.ptx.as_str()) {
                    problems.push(format!("{file}: {}: not in the baseline", case.name));
                }
                continue;
            };
            if !rec.ok {
                // the GPU did not run it (its error is in the record): the
                // case stays in the corpus as a model-only case
                continue;
            }
            ran += 1;
            match baseline::compare(&repo, case, rec, ptx_semantics::sim::WindowProfile::SM90) {
                Ok(c) => {
                    let f = families.entry(c.family.clone()).or_default();
                    f[0] += c.compared;
                    f[1] += c.differing.len();
                    f[2] += c.unspecified;
                    f[3] += c.unstable;
                    f[4] += c.unspecified_as_gpu;
                    f[5] += c.unspecified_other.len();
                    f[6] += c.partly;
                    // issue 19: where the spec leaves bits free the model
                    // prints sm_90's (the mask still says they are free).
                    // Not for the atomics kernel: the NaN an `.add.f64`
                    // writes into shared memory is sometimes an operand's,
                    // sometimes `0x7ff8000000000000` on the H100 (its
                    // elements are listed in corpus/simulator/README.md).
                    let audited = case.ptx != "kernels/atom.ptx";
                    for d in c.unspecified_other.iter().take(if audited { 3 } else { 0 }) {
                        problems.push(format!(
                            "{file}: {}: arg {} element {}: unspecified bits printed as {}, the GPU wrote {}",
                            c.name, d.0, d.1, d.2, d.3
                        ));
                    }
                    if !c.reports.is_empty() {
                        problems.push(format!(
                            "{file}: {}: the model stopped threads: {:?}",
                            c.name,
                            &c.reports[..c.reports.len().min(3)]
                        ));
                    }
                    for d in c.differing.iter().take(5) {
                        problems.push(format!(
                            "{file}: {}: arg {} element {}: model {} GPU {}",
                            c.name, d.0, d.1, d.2, d.3
                        ));
                    }
                }
                Err(e) => problems.push(e),
            }
        }
        println!("{file}");
        println!(
            "{:<48} {:>9} {:>9} {:>12} {:>9} {:>8} {:>8} {:>8}",
            "family",
            "compared",
            "differing",
            "unspecified",
            "unstable",
            "as-gpu",
            "other",
            "partly"
        );
        for (f, [c, d, u, s, g, o, p]) in &families {
            println!("{f:<48} {c:>9} {d:>9} {u:>12} {s:>9} {g:>8} {o:>8} {p:>8}");
        }
        let partly: usize = families.values().map(|v| v[6]).sum();
        println!("elements with open bits whose defined bits agree: {partly}");
        let total: usize = families.values().map(|v| v[0]).sum();
        println!(
            "cases run on the GPU: {ran} of {}; elements compared: {total}\n",
            cases.cases.len()
        );
        assert!(ran > 0, "{file}: no case ran");
        if *file == FULL_BASELINE {
            for (family, least) in ARITH_FAMILIES {
                let compared = families.get(*family).map_or(0, |v| v[0]);
                if compared < *least {
                    problems.push(format!(
                        "{file}: {family}: {compared} elements compared, fewer than {least}"
                    ));
                }
            }
        }
        let as_gpu: usize = families.values().map(|v| v[4]).sum();
        assert!(as_gpu > 0, "{file}: no unspecified element was audited");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The scalar video forms recorded, never compared, in the case
/// `video_spec_gpu_disagreements` (listed in
/// `corpus/simulator/kernels/video-spec-gpu.json`) are there because the
/// H100 and the model disagree on them (corpus/simulator/README.md: the
/// model follows PTX ISA 9.7.10's pseudocode, except for `vshl` with
/// `.sat`). Each form's results must still differ somewhere, so that a form
/// the model comes to agree on goes back to the compared entries.
#[test]
fn recorded_video_forms_still_disagree() {
    let repo = repo();
    let cases = baseline::load_cases(&repo).unwrap();
    let records = baseline::load_baseline(&repo.join(FULL_BASELINE)).unwrap();
    let mut case = cases
        .cases
        .iter()
        .find(|c| c.name == "video_spec_gpu_disagreements")
        .cloned()
        .expect("the case video_spec_gpu_disagreements");
    let rec = records.get(&case.name).expect("its record");
    assert!(rec.ok, "{:?}", rec.error);
    assert!(
        case.compare.args.is_empty(),
        "the case must stay uncompared"
    );
    let threads = (case.grid[0] * case.block[0]) as usize;
    let Some(baseline::ArgSpec::Buffer { buffer, .. }) = case.args.get(1) else {
        panic!("no output buffer");
    };
    let forms = buffer / (4 * threads);
    case.compare.args = vec![1];
    let c = baseline::compare(&repo, &case, rec, WindowProfile::SM90).unwrap();
    assert!(c.reports.is_empty(), "{:?}", c.reports);
    let mut differ = vec![0usize; forms];
    for d in &c.differing {
        differ[d.1 / threads] += 1;
    }
    let agree: Vec<usize> = (0..forms).filter(|&f| differ[f] == 0).collect();
    assert!(
        agree.is_empty(),
        "forms (by position in the entry) on which the model now agrees with the H100: {agree:?}"
    );
    println!(
        "{forms} forms, {} of {} elements differ",
        c.differing.len(),
        forms * threads
    );
}
