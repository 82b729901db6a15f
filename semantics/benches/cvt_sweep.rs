//! `cvt.rn.f16.f32` over every 32-bit input, through the model and through
//! the `half` crate, on the same threads, in one run. Both sides do the same
//! work in the same loop: fill a block with consecutive inputs, convert it
//! into an output block (the model with `CvtOp::eval_scalar_batch`, which
//! runs the form's fast kernel; `half` with `f16::from_f32` on each value),
//! and fold the outputs into a checksum, so that neither can skip work. The
//! two checksums are compared (NaN results aside, which `half` encodes its
//! own way). With `--generic`, the model's generic path is timed too, over
//! blocks (`eval_scalar_batch_generic`) and value by value (`eval_scalar`).
//!
//! `cargo bench -p ptx-semantics --bench cvt_sweep [-- --bits N] [--generic]`
//! (N < 32 sweeps 2^N inputs spread over the range: every 2^(32-N)-th).

use ptx_semantics::catalogue::Catalogue;
use ptx_semantics::cvt::Conversion;
use std::time::Instant;

/// Values per block: both blocks stay in the first-level cache.
const BLOCK: usize = 1024;

/// Runs `convert` over blocks of the inputs `i << stride` for `i` in
/// `0..total` on `threads` threads; returns the checksum of the outputs and
/// the seconds taken.
fn sweep(
    threads: u64,
    total: u64,
    stride: u32,
    convert: impl Fn(&[u64], &mut [u64]) + Sync,
) -> (u64, f64) {
    let start = Instant::now();
    let chunk = total / threads;
    let sum = std::thread::scope(|s| {
        let hs: Vec<_> = (0..threads)
            .map(|t| {
                let convert = &convert;
                s.spawn(move || {
                    let lo = t * chunk;
                    let hi = if t + 1 == threads { total } else { lo + chunk };
                    let mut xs = [0u64; BLOCK];
                    let mut out = [0u64; BLOCK];
                    let mut acc = 0u64;
                    let mut base = lo;
                    while base < hi {
                        let n = (hi - base).min(BLOCK as u64) as usize;
                        for (i, x) in xs[..n].iter_mut().enumerate() {
                            *x = (base + i as u64) << stride;
                        }
                        convert(&xs[..n], &mut out[..n]);
                        for (&x, &h) in xs[..n].iter().zip(&out[..n]) {
                            // NaN results: compare as one class.
                            let h = if h & 0x7c00 == 0x7c00 && h & 0x3ff != 0 {
                                0x7fff
                            } else {
                                h & 0xffff
                            };
                            acc = acc.wrapping_add(h * (x | 1));
                        }
                        base += n as u64;
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
        .unwrap_or(32)
        .min(32);
    let generic = args.iter().any(|a| a == "--generic");
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()) as u64;
    let total = 1u64 << bits;
    let stride = 32 - bits;
    let b = Catalogue::get()
        .resolve_text("cvt.rn.f16.f32")
        .expect("form");
    let Ok(Conversion::Cvt(op)) = Conversion::from_binding(&b) else {
        panic!("not a cvt form")
    };
    assert!(op.kernel().is_some(), "cvt.rn.f16.f32 has no fast kernel");
    let per_value = |s: f64| s * 1e9 * threads as f64 / total as f64;
    println!("cvt.rn.f16.f32 over 2^{bits} inputs on {threads} threads");
    let (model_sum, model_s) = sweep(threads, total, stride, |xs, out| {
        op.eval_scalar_batch(xs, out)
    });
    let (half_sum, half_s) = sweep(threads, total, stride, |xs, out| {
        for (o, &x) in out.iter_mut().zip(xs) {
            *o = half::f16::from_f32(f32::from_bits(x as u32)).to_bits() as u64;
        }
    });
    println!(
        "model (fast kernel)  {model_s:8.3} s  {:6.2} ns/value/thread",
        per_value(model_s)
    );
    println!(
        "half                 {half_s:8.3} s  {:6.2} ns/value/thread",
        per_value(half_s)
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
    if generic {
        let agrees = |sum| {
            if sum == model_sum {
                "agrees"
            } else {
                "DIFFERS"
            }
        };
        let (batch_sum, batch_s) = sweep(threads, total, stride, |xs, out| {
            op.eval_scalar_batch_generic(xs, out)
        });
        println!(
            "model, generic path over blocks (eval_scalar_batch_generic)  {batch_s:8.3} s  {:6.2} ns/value/thread, checksum {}",
            per_value(batch_s),
            agrees(batch_sum)
        );
        let (scalar_sum, scalar_s) = sweep(threads, total, stride, |xs, out| {
            for (o, &x) in out.iter_mut().zip(xs) {
                *o = op.eval_scalar(x).bits;
            }
        });
        println!(
            "model, generic path per value (eval_scalar)                  {scalar_s:8.3} s  {:6.2} ns/value/thread, checksum {}",
            per_value(scalar_s),
            agrees(scalar_sum)
        );
    }
}
