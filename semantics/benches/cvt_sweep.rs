//! `cvt.rn.f16.f32` over every 32-bit input, through the model and through
//! the `half` crate, on the same threads, in one run. Each side folds its
//! results into a checksum so that neither can skip work, and the two
//! checksums are compared (NaN results aside, which `half` encodes its own
//! way).
//!
//! `cargo bench -p ptx-semantics --bench cvt_sweep [-- --bits N]` (N < 32
//! sweeps the first 2^N inputs).

use ptx_semantics::catalogue::Catalogue;
use ptx_semantics::cvt::Conversion;
use std::time::Instant;

fn sweep(threads: u64, total: u64, f: impl Fn(u32) -> u16 + Sync) -> (u64, f64) {
    let start = Instant::now();
    let chunk = total / threads;
    let sum = std::thread::scope(|s| {
        let hs: Vec<_> = (0..threads)
            .map(|t| {
                let f = &f;
                s.spawn(move || {
                    let lo = t * chunk;
                    let hi = if t + 1 == threads { total } else { lo + chunk };
                    let mut acc = 0u64;
                    for x in lo..hi {
                        let h = f(x as u32);
                        // NaN results: compare as one class.
                        let h = if h & 0x7c00 == 0x7c00 && h & 0x3ff != 0 {
                            0x7fff
                        } else {
                            h
                        };
                        acc = acc.wrapping_add((h as u64) * (x | 1));
                    }
                    acc
                })
            })
            .collect();
        hs.into_iter()
            .map(|h| h.join().unwrap())
            .fold(0u64, u64::wrapping_add)
    });
    (sum, start.elapsed().as_secs_f64())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bits: u32 = args
        .iter()
        .position(|a| a == "--bits")
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(32);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()) as u64;
    let total = 1u64 << bits;
    let b = Catalogue::get()
        .resolve_text("cvt.rn.f16.f32")
        .expect("form");
    let Ok(Conversion::Cvt(op)) = Conversion::from_binding(&b) else {
        panic!("not a cvt form")
    };
    let (model_sum, model_s) = sweep(threads, total, |x| op.eval_scalar(x as u64).bits as u16);
    let (half_sum, half_s) = sweep(threads, total, |x| {
        half::f16::from_f32(f32::from_bits(x)).to_bits()
    });
    println!("cvt.rn.f16.f32 over 2^{bits} inputs on {threads} threads");
    println!(
        "model  {model_s:8.3} s  {:6.2} ns/value/thread",
        model_s * 1e9 * threads as f64 / total as f64
    );
    println!(
        "half   {half_s:8.3} s  {:6.2} ns/value/thread",
        half_s * 1e9 * threads as f64 / total as f64
    );
    println!("ratio model/half {:.2}", model_s / half_s);
    println!(
        "checksums {}",
        if model_sum == half_sum {
            "agree"
        } else {
            "DIFFER"
        }
    );
}
