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
//! `cargo bench -p ptx-semantics --bench cvt_sweep [-- --bits N] [--generic]
//! [--scrambled]` (N < 32 sweeps 2^N inputs spread over the range: every
//! 2^(32-N)-th; `--scrambled` visits them in an order that puts no two
//! neighbours in one binade, so the model's kernel takes its per-value path).

use ptx_semantics::catalogue::Catalogue;
use ptx_semantics::cvt::Conversion;
use std::time::Instant;

/// Values per block: both blocks stay in the first-level cache.
const BLOCK: usize = 1024;

/// Runs `convert` over blocks of the inputs `input(i)` for `i` in
/// `0..total` on `threads` threads; returns the checksum of the outputs and
/// the seconds taken. `convert` is called through a reference to a trait
/// object (once per block), so the loop around it is the same machine code
/// for every side measured.
fn sweep(
    threads: u64,
    total: u64,
    input: impl Fn(u64) -> u64 + Sync,
    convert: &(dyn Fn(&[u64], &mut [u64]) + Sync),
) -> (u64, f64) {
    let start = Instant::now();
    let chunk = total / threads;
    let sum = std::thread::scope(|s| {
        let hs: Vec<_> = (0..threads)
            .map(|t| {
                let input = &input;
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
                            *x = input(base + i as u64);
                        }
                        convert(&xs[..n], &mut out[..n]);
                        for (&x, &h) in xs[..n].iter().zip(&out[..n]) {
                            // NaN results: compare as one class.
                            let h = h & 0xffff;
                            let h = if h & 0x7fff > 0x7c00 { 0x7fff } else { h };
                            // The result beside its input, so that results
                            // swapped between inputs change the sum too.
                            acc = acc.wrapping_add(h ^ x.rotate_left(16));
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
    let stride = 32 - bits;
    // Spread over the range; scrambled, times an odd number that leaves no
    // two neighbours in one binade (modulo 2^32 the same inputs, in another
    // order).
    if args.iter().any(|a| a == "--scrambled") {
        println!("(scrambled order)");
        measure(bits, generic, move |i| {
            (i << stride).wrapping_mul(0x9e37_79b9) & 0xffff_ffff
        });
    } else {
        measure(bits, generic, move |i| i << stride);
    }
}

fn measure(bits: u32, generic: bool, input: impl Fn(u64) -> u64 + Sync + Copy) {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()) as u64;
    let total = 1u64 << bits;
    let b = Catalogue::get()
        .resolve_text("cvt.rn.f16.f32")
        .expect("form");
    let Ok(Conversion::Cvt(op)) = Conversion::from_binding(&b) else {
        panic!("not a cvt form")
    };
    assert!(op.kernel().is_some(), "cvt.rn.f16.f32 has no fast kernel");
    let per_value = |s: f64| s * 1e9 * threads as f64 / total as f64;
    let line =
        |name: &str, s: f64| println!("{name:<62} {s:8.3} s  {:6.2} ns/value/thread", per_value(s));
    println!("cvt.rn.f16.f32 over 2^{bits} inputs on {threads} threads");
    let (model_sum, model_s) = sweep(threads, total, input, &|xs, out| {
        op.eval_scalar_batch(xs, out)
    });
    let (half_sum, half_s) = sweep(threads, total, input, &|xs, out| {
        for (o, &x) in out.iter_mut().zip(xs) {
            *o = half::f16::from_f32(f32::from_bits(x as u32)).to_bits() as u64;
        }
    });
    let (_, loop_s) = sweep(threads, total, input, &|xs, out| out.copy_from_slice(xs));
    line("model (fast kernel, eval_scalar_batch)", model_s);
    line("half (f16::from_f32)", half_s);
    line("the loop alone (inputs copied, no conversion)", loop_s);
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
                "checksum agrees"
            } else {
                "checksum DIFFERS"
            }
        };
        let (batch_sum, batch_s) = sweep(threads, total, input, &|xs, out| {
            op.eval_scalar_batch_generic(xs, out)
        });
        line(
            "model, generic path over blocks (eval_scalar_batch_generic)",
            batch_s,
        );
        println!("  {}", agrees(batch_sum));
        let (scalar_sum, scalar_s) = sweep(threads, total, input, &|xs, out| {
            for (o, &x) in out.iter_mut().zip(xs) {
                *o = op.eval_scalar(x).bits;
            }
        });
        line("model, generic path value by value (eval_scalar)", scalar_s);
        println!("  {}", agrees(scalar_sum));
    }
}
