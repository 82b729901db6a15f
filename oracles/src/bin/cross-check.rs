//! `cross-check`: every conversion form of the catalogue through the model
//! and an independent oracle, with counts per family.
//!
//!     cargo run --release -p ptx-oracles --bin cross-check -- \
//!         [--engine z3|apfloat|both] [--per-form N] [--exhaustive-bits B] \
//!         [--seed S] [--filter TEXT] [--show N]
//!
//! `--per-form N`: random values per form beside the edge cases (default
//! 256); `--exhaustive-bits B`: sweep every source (or source lane) of at
//! most B bits (default 8 for z3, 16 for apfloat). Exit code 0 when no
//! input disagreed, 1 otherwise, 2 on a usage error.

use ptx_oracles::apfloat_engine::ApfloatEngine;
use ptx_oracles::check::{check_forms, Report};
use ptx_oracles::engine::Engine;
use ptx_oracles::forms::all_forms;
use ptx_oracles::inputs::Sizes;
use std::time::Instant;

fn usage(msg: &str) -> ! {
    eprintln!("cross-check: {msg}");
    eprintln!(
        "usage: cross-check [--engine z3|apfloat|both] [--per-form N] [--exhaustive-bits B] [--seed S] [--filter TEXT] [--show N]"
    );
    std::process::exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut engine = "both".to_string();
    let mut per_form = 256usize;
    let mut bits: Option<u32> = None;
    let mut seed = 1u64;
    let mut filter = String::new();
    let mut show = 20usize;
    let mut i = 0;
    while i < args.len() {
        let val = |i: usize| {
            args.get(i + 1)
                .cloned()
                .unwrap_or_else(|| usage(&format!("{} needs a value", args[i])))
        };
        let num = |s: String| -> u64 {
            s.parse()
                .unwrap_or_else(|_| usage(&format!("not a number: {s}")))
        };
        match args[i].as_str() {
            "--engine" => engine = val(i),
            "--per-form" => per_form = num(val(i)) as usize,
            "--exhaustive-bits" => bits = Some(num(val(i)) as u32),
            "--seed" => seed = num(val(i)),
            "--filter" => filter = val(i),
            "--show" => show = num(val(i)) as usize,
            "-h" | "--help" => usage("help"),
            other => usage(&format!("unknown argument {other}")),
        }
        i += 2;
    }
    let forms: Vec<_> = all_forms()
        .into_iter()
        .filter(|f| f.text.contains(&filter))
        .collect();
    let mut failed = false;
    let mut run = |name: &str, e: &mut dyn Engine, default_bits: u32| {
        let sizes = Sizes {
            exhaustive_bits: bits.unwrap_or(default_bits),
            random: per_form,
            seed,
        };
        let start = Instant::now();
        let report: Report = check_forms(&forms, e, &sizes, show);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "== {name}: {} forms, exhaustive up to {} bits, {} random per form, seed {seed}: \
             {:.1} s, {} roundings computed by the engine",
            forms.len(),
            sizes.exhaustive_bits,
            per_form,
            secs,
            e.evaluations()
        );
        print!("{report}");
        failed |= report.total().mismatches > 0;
    };
    if engine == "apfloat" || engine == "both" {
        run("rustc_apfloat", &mut ApfloatEngine::default(), 16);
    }
    if engine == "z3" || engine == "both" {
        #[cfg(feature = "z3")]
        run("z3", &mut ptx_oracles::z3_engine::Z3Engine::new(), 8);
        #[cfg(not(feature = "z3"))]
        usage("built without the z3 feature");
    }
    if !matches!(engine.as_str(), "z3" | "apfloat" | "both") {
        usage(&format!("unknown engine {engine}"));
    }
    std::process::exit(failed as i32)
}
