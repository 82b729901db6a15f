//! The approximate floating-point forms against what an H100 (sm_90)
//! produced (corpus/approx/sm_90, written by tools/device/approx_sweep.py):
//! every committed GPU output lies within the model's bound
//! (`ptx_semantics::arith::approx`), except the departures listed in
//! departures.tsv, which must still fall outside (else the entry is stale);
//! the sweep covered every form of the model with at least 2^20 random
//! inputs (`.f32`, `.f64`) or every encoding (16-bit forms); and the seed
//! of each form regenerates its random inputs. And the suite's approximate
//! groups, whose expectations are bounds: the simulator passes them, and a
//! value just outside a bound fails, naming the bound.

mod common;

use common::{conform, tmp};
use ptx_semantics::arith::approx::{ApproxForm, FORMS};
use std::collections::{BTreeSet, HashMap};
use std::io::Read;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/approx/sm_90")
}

struct Row {
    form: String,
    index: usize,
    a: u64,
    b: u64,
    d: u64,
}

fn sample() -> Vec<Row> {
    let mut text = String::new();
    flate2::read::GzDecoder::new(
        std::fs::File::open(dir().join("sample.tsv.gz")).expect("sample.tsv.gz"),
    )
    .read_to_string(&mut text)
    .expect("sample.tsv.gz");
    let hex = |s: &str| u64::from_str_radix(s.trim_start_matches("0x"), 16).expect(s);
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Row {
                form: f[0].to_string(),
                index: f[1].parse().expect(l),
                a: hex(f[2]),
                b: hex(f[3]),
                d: hex(f[4]),
            }
        })
        .collect()
}

/// `(form, index, lane)` of each listed departure.
fn departures() -> BTreeSet<(String, usize, usize)> {
    std::fs::read_to_string(dir().join("departures.tsv"))
        .expect("departures.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect()
}

fn summary() -> serde_json::Value {
    let text = std::fs::read_to_string(dir().join("summary.json")).expect("summary.json");
    serde_json::from_str(&text).expect("summary.json")
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[test]
fn gpu_outputs_lie_within_the_model_bounds() {
    let forms: HashMap<String, ApproxForm> = FORMS.iter().map(|f| (f.ptx(), *f)).collect();
    let mut outside = BTreeSet::new();
    let mut values = 0u64;
    for r in sample() {
        let f = forms.get(&r.form).unwrap_or_else(|| panic!("{}", r.form));
        let lanes = f.eval_lanes(r.a, r.b);
        let w = f.fmt.width();
        let mask = if w == 64 { u64::MAX } else { (1 << w) - 1 };
        for (lane, m) in lanes.iter().enumerate().take(if f.packed { 2 } else { 1 }) {
            let y = (r.d >> (w * lane as u32)) & mask;
            values += 1;
            if !m.contains(f.fmt, y) {
                outside.insert((r.form.clone(), r.index, lane));
            }
        }
    }
    assert!(values > 70_000, "{values} values");
    let listed = departures();
    let unlisted: Vec<_> = outside.difference(&listed).collect();
    let stale: Vec<_> = listed.difference(&outside).collect();
    assert!(
        unlisted.is_empty(),
        "outside the model's bound, not listed: {unlisted:?}"
    );
    assert!(
        stale.is_empty(),
        "listed but within the bound now: {stale:?}"
    );
}

/// A value one step outside an interval fails: the hardware's value for a
/// departure moved one step toward the interval passes, and the sweep's
/// interval ends are tight (one step beyond either end is outside).
#[test]
fn one_step_outside_the_bound_fails() {
    let forms: HashMap<String, ApproxForm> = FORMS.iter().map(|f| (f.ptx(), *f)).collect();
    let mut checked = 0;
    for r in sample().iter().step_by(97) {
        let f = forms[&r.form];
        let m = f.eval_lanes(r.a, r.b)[0];
        let Some((lo, hi)) = m.interval() else {
            continue;
        };
        if lo == hi {
            continue;
        }
        let k = |b| ptx_semantics::arith::approx::key(f.fmt, b);
        let at = |k| ptx_semantics::arith::approx::unkey(f.fmt, k);
        let inf = k(f.fmt.inf());
        if k(hi) < inf {
            assert!(!m.contains(f.fmt, at(k(hi) + 1)), "{} {:#x}", r.form, r.a);
        }
        if k(lo) > -inf - 1 {
            assert!(!m.contains(f.fmt, at(k(lo) - 1)), "{} {:#x}", r.form, r.a);
        }
        assert!(m.contains(f.fmt, lo) && m.contains(f.fmt, hi));
        checked += 1;
    }
    assert!(checked > 300, "{checked}");
}

/// Every form of the model was swept, with 2^20 random inputs or every
/// encoding, the two poisoned runs agreed, and the summary's values outside
/// the bound are exactly the listed departures.
#[test]
fn the_sweep_covers_every_form() {
    let s = summary();
    let recorded: HashMap<String, &serde_json::Value> = s["forms"]
        .as_array()
        .expect("forms")
        .iter()
        .map(|f| (f["form"].as_str().unwrap_or("").to_string(), f))
        .collect();
    let listed = departures();
    for f in FORMS {
        let name = f.ptx();
        let rec = recorded
            .get(&name)
            .unwrap_or_else(|| panic!("{name} not swept"));
        let inputs = rec["inputs"].as_u64().unwrap_or(0);
        if f.fmt.width() == 16 {
            assert_eq!(inputs, 1 << 16, "{name}");
        } else {
            assert!(
                rec["random_inputs"].as_u64().unwrap_or(0) >= 1 << 20,
                "{name}"
            );
        }
        assert_eq!(rec["unstable"].as_u64(), Some(0), "{name}");
        let out = rec["outside"].as_u64().unwrap_or(u64::MAX);
        let expected = listed.iter().filter(|d| d.0 == name).count() as u64;
        assert_eq!(out, expected, "{name}");
    }
    assert_eq!(recorded.len(), FORMS.len());
}

/// The seeds regenerate the random inputs: random input `i` of a form is
/// output `i` of SplitMix64(seed), `a` its low bits (and `div`'s `b` bits
/// 32..63).
#[test]
fn seeds_regenerate_the_random_inputs() {
    let s = summary();
    let mut seeds = HashMap::new();
    for f in s["forms"].as_array().expect("forms") {
        let seed = f["seed"].as_str().unwrap_or("0x0");
        let seed = u64::from_str_radix(seed.trim_start_matches("0x"), 16).expect(seed);
        let edges = f["edge_inputs"].as_u64().unwrap_or(0) as usize;
        let random = f["random_inputs"].as_u64().unwrap_or(0);
        seeds.insert(
            f["form"].as_str().unwrap_or("").to_string(),
            (seed, edges, random),
        );
    }
    let mut checked = 0;
    for r in sample() {
        let (seed, edges, random) = seeds[&r.form];
        if random == 0 || r.index < edges {
            continue;
        }
        let i = (r.index - edges) as u64;
        let z = mix(seed.wrapping_add((i + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)));
        let f = ApproxForm::parse(&r.form).expect("form");
        if f.fmt.width() == 64 {
            assert_eq!(r.a, z, "{} #{}", r.form, r.index);
        } else {
            assert_eq!(r.a, z & 0xffff_ffff, "{} #{}", r.form, r.index);
            if f.op.sources() == 2 {
                assert_eq!(r.b, z >> 32, "{} #{}", r.form, r.index);
            }
        }
        checked += 1;
    }
    assert!(checked > 20_000, "{checked}");
}

fn results_json(dir: &std::path::Path) -> serde_json::Value {
    common::results(&dir.join("results.json"))
}

fn run_sim(suite: &std::path::Path, out: &std::path::Path) -> i32 {
    let (rc, err) = common::run_simulator(suite, out);
    assert!(rc == 0 || rc == 1, "{err}");
    rc
}

/// The simulator passes every approximate group (its nominal values lie in
/// their bounds); then `hi(d)` of one case of `rcp.approx.f32/random` is
/// moved one step below the nominal value (and `lo(d)` below that): exactly
/// that case fails, its expected field saying the bound.
#[test]
fn simulator_passes_the_bounds_and_a_value_just_outside_fails() {
    let s = tmp("ptx-approx-suite", "gen");
    let (rc, _, err) = conform(&[
        "gen",
        "-q",
        "--random",
        "200",
        "--out",
        s.to_str().unwrap(),
        "--filter",
        "*.approx.*",
        "--filter",
        "div.full.*",
    ]);
    assert_eq!(rc, 0, "{err}");
    let out = tmp("ptx-approx-suite", "run");
    assert_eq!(run_sim(&s, &out), 0);
    let r = results_json(&out);
    let total = r["totals"]["pass"].as_u64().unwrap_or(0);
    assert!(total > 30 * 200, "{total}");
    assert_eq!(r["totals"]["fail"].as_u64(), Some(0));
    for fam in [
        "div", "rcp", "sqrt", "rsqrt", "sin", "cos", "lg2", "ex2", "tanh",
    ] {
        assert!(
            r["families"][fam]["pass"].as_u64().unwrap_or(0) > 0,
            "{fam}"
        );
    }

    // rcp.approx.f32/random: a (4 bytes), lo(d), hi(d); expected rows after
    // the inputs. Take the first case with a positive, finite, bounded
    // result and put the bound just below it.
    let data = s.join("data/rcp.approx.f32-random.bin");
    let mut bytes = std::fs::read(&data).unwrap();
    let cases = bytes.len() / (12 + 4 + 4);
    let word = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let k = (0..cases)
        .find(|&i| {
            let (lo, hi) = (word(&bytes, i * 12 + 4), word(&bytes, i * 12 + 8));
            let nominal = word(&bytes, cases * 12 + i * 4);
            lo != hi && nominal > 2 && nominal < 0x7f80_0000
        })
        .expect("a bounded case");
    let nominal = word(&bytes, cases * 12 + k * 4);
    bytes[k * 12 + 4..k * 12 + 8].copy_from_slice(&(nominal - 2).to_le_bytes());
    bytes[k * 12 + 8..k * 12 + 12].copy_from_slice(&(nominal - 1).to_le_bytes());
    std::fs::write(&data, &bytes).unwrap();
    let out2 = tmp("ptx-approx-suite", "run2");
    assert_eq!(run_sim(&s, &out2), 1);
    let r = results_json(&out2);
    assert_eq!(r["totals"]["fail"].as_u64(), Some(1));
    let g = r["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == "rcp.approx.f32/random")
        .expect("the group");
    let f = &g["failures"][0];
    assert_eq!(f["case"], format!("rcp.approx.f32/random#{k}"));
    let decoded = f["expected"][0]["decoded"].as_str().unwrap_or("");
    let lo = format!("0x{:08x}", nominal - 2);
    let hi = format!("0x{:08x}", nominal - 1);
    assert!(
        decoded.starts_with(&format!("within [{lo} (")) && decoded.contains(&format!(" .. {hi} (")),
        "{decoded}"
    );
    assert_eq!(f["actual"][0]["hex"], format!("0x{nominal:08x}"));
    for d in [s, out, out2] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// The seed of each swept form is FNV-1a-64 of its spelling, as
/// tools/device/approx_sweep.py says.
#[test]
fn sweep_seeds_are_the_forms_hashes() {
    let s = summary();
    for f in s["forms"].as_array().expect("forms") {
        let name = f["form"].as_str().unwrap_or("");
        let seed = format!("{:#018x}", ptx_gen::suite::approx::fnv1a(name));
        assert_eq!(f["seed"].as_str(), Some(seed.as_str()), "{name}");
    }
}
