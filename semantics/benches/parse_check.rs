//! Benchmark: parse and check one large PTX module built from the nvcc
//! corpus (every sm_90 kernel file, concatenated with one header, repeated
//! until the module passes 50,000 lines). Prints MB/s; asserts nothing.
//!
//! Run: `cargo bench -p ptx-semantics --bench parse_check`; set
//! `PTX_BENCH_FILE=path.ptx` to measure another module.

use ptx_semantics::check::{check_module, Options};
use ptx_semantics::ptx::parse;
use std::time::Instant;

/// The allocator `conform` uses (see the README).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn build_module() -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/nvcc/ptx");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus/nvcc/ptx")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".sm_90.ptx"))
        .collect();
    files.sort();
    let mut out = String::from(".version 8.7\n.target sm_90\n.address_size 64\n");
    let mut round = 0;
    while out.lines().count() < 50_000 {
        for f in &files {
            let text = std::fs::read_to_string(f).expect("read");
            for line in text.lines() {
                let t = line.trim_start();
                if t.starts_with(".version")
                    || t.starts_with(".target")
                    || t.starts_with(".address_size")
                {
                    continue;
                }
                out.push_str(line);
                out.push('\n');
            }
        }
        round += 1;
        if round > 1000 {
            break;
        }
    }
    out
}

fn main() {
    // `PTX_BENCH_FILE` measures another module (the peer comparison uses it).
    let src = match std::env::var("PTX_BENCH_FILE") {
        Ok(path) => std::fs::read_to_string(path).expect("PTX_BENCH_FILE is readable"),
        Err(_) => build_module(),
    };
    let mb = src.len() as f64 / 1e6;
    let lines = src.lines().count();
    // Warm up, then time several runs and keep the median.
    let module = parse(&src).expect("the benchmark module parses");
    let _ = check_module(&module, &Options::default());
    let mut parse_only = Vec::new();
    let mut both = Vec::new();
    for _ in 0..21 {
        let t = Instant::now();
        let m = parse(&src).expect("parses");
        let p = t.elapsed().as_secs_f64();
        let d = check_module(&m, &Options::default());
        let b = t.elapsed().as_secs_f64();
        std::hint::black_box(d);
        parse_only.push(p);
        both.push(b);
    }
    parse_only.sort_by(f64::total_cmp);
    both.sort_by(f64::total_cmp);
    let (p, b) = (parse_only[10], both[10]);
    let mut one = Vec::new();
    let single = Options {
        threads: Some(1),
        ..Options::default()
    };
    for _ in 0..21 {
        let t = Instant::now();
        std::hint::black_box(check_module(&module, &single));
        one.push(t.elapsed().as_secs_f64());
    }
    one.sort_by(f64::total_cmp);
    println!("module: {lines} lines, {mb:.2} MB");
    println!("check alone, one thread: median {:.1} ms", one[10] * 1e3);
    println!(
        "parse:         median {:.1} ms, {:.1} MB/s",
        p * 1e3,
        mb / p
    );
    println!(
        "parse + check: median {:.1} ms, {:.1} MB/s",
        b * 1e3,
        mb / b
    );
}
