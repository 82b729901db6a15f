//! Conversion baselines from hardware: every `cvt`/`cvt.pack` form the
//! catalogue gives, one kernel each, run over its input sets on a GPU
//! (tools/device/cvt_hw.py), then compared with the model. What the GPU
//! produced is kept as baseline data (corpus/cvt/hardware) that CI replays.
//!
//! The kernels share one calling convention: `.param .u64 in` (rows of
//! source operands, one u64 each), `.param .u64 out` (one u64 per row, the
//! destination register zero-extended), `.param .u32 n`.

use ptx_gen::cvt_forms::Batch;
pub use ptx_gen::cvt_forms::CvtForm as HwForm;
use ptx_gen::rng::mix;
use ptx_semantics::cvt::Conversion;

/// Every `cvt` and `cvt.pack` form that the model says `target` accepts
/// under PTX `version`, with the registers the harness gives it.
pub fn forms(version: &str, target: &str) -> Vec<HwForm> {
    ptx_gen::cvt_forms::forms(version, target, |f| kernel(f, version, target))
}

/// The kernel for one form (entry `k`).
pub fn kernel(f: &HwForm, version: &str, target: &str) -> String {
    let mut decl = String::new();
    let mut body = String::new();
    let k = f.source_regs.len();
    let mut srcs = Vec::new();
    for (j, &w) in f.source_regs.iter().enumerate() {
        decl.push_str(&format!("\t.reg .b64 %x{j};\n"));
        body.push_str(&format!("\tld.global.u64 %x{j}, [%p+{}];\n", j * 8));
        match w {
            64 => srcs.push(format!("%x{j}")),
            w => {
                decl.push_str(&format!("\t.reg .b{w} %a{j};\n"));
                body.push_str(&format!("\tcvt.u{w}.u64 %a{j}, %x{j};\n"));
                srcs.push(format!("%a{j}"));
            }
        }
    }
    let dw = f.dest_reg;
    decl.push_str(&format!("\t.reg .b{dw} %d;\n"));
    let operands = match &f.conv {
        // The `x4` forms take a vector of four sources and `rbits`.
        Conversion::Cvt(op) if op.source_count() == 5 => {
            format!(
                "%d, {{{}, {}, {}, {}}}, {}",
                srcs[0], srcs[1], srcs[2], srcs[3], srcs[4]
            )
        }
        _ => format!("%d, {}", srcs.join(", ")),
    };
    body.push_str(&format!("\t{} {operands};\n", f.text));
    let widen = match dw {
        64 => "\tmov.b64 %r, %d;\n".to_string(),
        w => format!("\tcvt.u64.u{w} %r, %d;\n"),
    };
    format!(
        ".version {version}\n.target {target}\n.address_size 64\n\n\
         .visible .entry k(.param .u64 in, .param .u64 out, .param .u32 n)\n{{\n\
         \t.reg .pred %done;\n\t.reg .b32 %i, %n, %t, %c, %w;\n\t.reg .b64 %p, %q, %r, %o;\n{decl}\
         \tld.param.u32 %n, [n];\n\tmov.u32 %t, %tid.x;\n\tmov.u32 %c, %ctaid.x;\n\tmov.u32 %w, %ntid.x;\n\
         \tmad.lo.u32 %i, %c, %w, %t;\n\tsetp.ge.u32 %done, %i, %n;\n\t@%done ret;\n\
         \tld.param.u64 %p, [in];\n\tcvta.to.global.u64 %p, %p;\n\tmul.wide.u32 %q, %i, {};\n\tadd.u64 %p, %p, %q;\n\
         {body}{widen}\
         \tld.param.u64 %o, [out];\n\tcvta.to.global.u64 %o, %o;\n\tmul.wide.u32 %q, %i, 8;\n\tadd.u64 %o, %o, %q;\n\
         \tst.global.u64 [%o], %r;\n\tret;\n}}\n",
        k * 8
    )
}

/// The digest kernel for an `.f32`-source form: every 32-bit pattern `x`
/// is operand `a` (and `rotl(x, 16) ^ 0x80000000` is `b`, where there is a
/// `b`); each thread sums `mix(mix(x) ^ d)` over its share of inputs and
/// adds it to `out[0]`.
pub fn digest_kernel(f: &HwForm, version: &str, target: &str) -> String {
    let two = f.source_regs.len() == 2;
    let dw = f.dest_reg;
    let widen = match dw {
        64 => "\tmov.b64 %r, %d;\n".to_string(),
        w => format!("\tcvt.u64.u{w} %r, %d;\n"),
    };
    let b = if two {
        "\tshf.l.wrap.b32 %b, %a, %a, 16;\n\txor.b32 %b, %b, 0x80000000;\n"
    } else {
        ""
    };
    let operands = if two { "%d, %a, %b" } else { "%d, %a" };
    format!(
        ".version {version}\n.target {target}\n.address_size 64\n\n\
         .visible .entry dg(.param .u64 out)\n{{\n\
         \t.reg .pred %more;\n\t.reg .b32 %a, %b, %t, %c, %w, %g;\n\t.reg .b{dw} %d;\n\
         \t.reg .b64 %x, %step, %sum, %z, %r, %o, %tmp;\n\
         \tmov.u32 %t, %tid.x;\n\tmov.u32 %c, %ctaid.x;\n\tmov.u32 %w, %ntid.x;\n\tmov.u32 %g, %nctaid.x;\n\
         \tmul.wide.u32 %step, %w, %g;\n\tmul.wide.u32 %x, %c, %w;\n\tcvt.u64.u32 %tmp, %t;\n\tadd.u64 %x, %x, %tmp;\n\
         \tmov.u64 %sum, 0;\n\
         LOOP:\n\tcvt.u32.u64 %a, %x;\n{b}\t{} {operands};\n{widen}\
         {}\txor.b64 %z, %z, %r;\n{}\tadd.u64 %sum, %sum, %z;\n\
         \tadd.u64 %x, %x, %step;\n\tsetp.lt.u64 %more, %x, 4294967296;\n\t@%more bra LOOP;\n\
         \tld.param.u64 %o, [out];\n\tcvta.to.global.u64 %o, %o;\n\tatom.global.add.u64 %tmp, [%o], %sum;\n\tret;\n}}\n",
        f.text,
        mix_ptx("%x"),
        mix_ptx("%z"),
    )
}

/// SplitMix64's output function in PTX, from `src` into `%z`.
fn mix_ptx(src: &str) -> String {
    format!(
        "\tmov.b64 %z, {src};\n\tshr.u64 %tmp, %z, 30;\n\txor.b64 %z, %z, %tmp;\n\tmul.lo.u64 %z, %z, 0xbf58476d1ce4e5b9;\n\
         \tshr.u64 %tmp, %z, 27;\n\txor.b64 %z, %z, %tmp;\n\tmul.lo.u64 %z, %z, 0x94d049bb133111eb;\n\
         \tshr.u64 %tmp, %z, 31;\n\txor.b64 %z, %z, %tmp;\n"
    )
}

/// The model's side of the digest: the same sum over all 2^32 inputs.
/// The model computes it in batches of rows (`Conversion::eval_batch`).
pub fn model_digest(f: &HwForm, threads: usize) -> u64 {
    model_digest_range(f, threads, 0..1 << 32)
}

/// [`model_digest`]'s sum over the inputs `inputs` only (for tests and
/// timing).
pub fn model_digest_range(f: &HwForm, threads: usize, inputs: std::ops::Range<u64>) -> u64 {
    /// Rows per batch handed to the model.
    const ROWS: usize = 4096;
    let two = f.source_regs.len() == 2;
    let threads = threads.max(1) as u64;
    let chunk = (inputs.end.saturating_sub(inputs.start)) / threads;
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let lo = inputs.start + t * chunk;
                    let hi = if t + 1 == threads {
                        inputs.end
                    } else {
                        lo + chunk
                    };
                    let mut batch = Batch::new(f, ROWS);
                    let mut sum = 0u64;
                    let mut base = lo;
                    while base < hi {
                        let n = (hi - base).min(ROWS as u64) as usize;
                        // Rows the model leaves undefined count as 0, as in
                        // `HwForm::model`.
                        batch.eval(f, base, n, |x, j| match (j, two) {
                            (1, true) => ((x as u32).rotate_left(16) ^ 0x8000_0000) as u64,
                            _ => x,
                        });
                        for (i, &o) in batch.registers[..n].iter().enumerate() {
                            sum = sum.wrapping_add(mix(mix(base + i as u64) ^ o));
                        }
                        base += n as u64;
                    }
                    sum
                })
            })
            .collect();
        handles
            .into_iter()
            .fold(0u64, |acc, h| acc.wrapping_add(h.join().unwrap_or(0)))
    })
}

/// The inputs of chunk `k` of `n` equal chunks of the 2^32 inputs (`n` a
/// power of two up to 2^32).
pub fn digest_chunk(k: u64, n: u64) -> std::ops::Range<u64> {
    let size = (1u64 << 32) / n.max(1);
    k * size..(k + 1) * size
}

/// [`model_digest`] cut into `n` chunks ([`digest_chunk`]): the digest of
/// each. The digest is a wrapping sum over inputs, so the chunks' digests
/// add up (wrapping) to [`model_digest`].
pub fn model_digest_chunks(f: &HwForm, threads: usize, n: u64) -> Vec<u64> {
    (0..n)
        .map(|k| model_digest_range(f, threads, digest_chunk(k, n)))
        .collect()
}

/// The digest of a set of outputs: `sum(mix(mix(i) ^ out[i]))` over a
/// block of rows.
pub fn block_digest(start: usize, outputs: &[u64]) -> u64 {
    outputs.iter().enumerate().fold(0u64, |acc, (i, &o)| {
        acc.wrapping_add(mix(mix((start + i) as u64) ^ o))
    })
}

/// Rows per digest block in the baseline.
pub const BLOCK: usize = 16384;

/// sm_90's `cvt.rna.satfinite.tf32.f32` on an all-ones exponent: clear the
/// low 13 bits, then subtract one `.tf32` unit (so a NaN whose payload was
/// in the cleared bits becomes MAX_NORM, and one of one unit infinity);
/// `model` elsewhere (corpus/cvt/hardware/sm_90/divergences.tsv).
pub fn tf32_satfinite_nan(a: u64, model: u64) -> u64 {
    let t = a & 0xffff_e000;
    if a & 0x7f80_0000 == 0x7f80_0000 && a & 0x7f_ffff != 0 && (t >> 13) & 0x3ff < 2 {
        t - 0x2000
    } else {
        model
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The digest's sum computed row by row through `HwForm::model`.
    fn row_digest(f: &HwForm, inputs: std::ops::Range<u64>) -> u64 {
        let two = f.source_regs.len() == 2;
        inputs.fold(0u64, |sum, x| {
            let b = ((x as u32).rotate_left(16) ^ 0x8000_0000) as u64;
            let row: &[u64] = if two { &[x, b] } else { &[x] };
            let d = f.model(row).map_or(0, |(b, _)| b);
            sum.wrapping_add(mix(mix(x) ^ d))
        })
    }

    /// The batched digest equals the row-by-row one on stretches of inputs
    /// around 0, 1.0, the `.f16` maximum, infinity and NaN, of both signs,
    /// for every `.f32`-source form.
    #[test]
    fn batched_digest_matches_rows() {
        let starts = [0u64, 0x3f7f_f800, 0x477f_e000, 0x7f7f_fc00, 0x7fff_f800];
        for f in forms("8.7", "sm_90").iter().filter(|f| f.f32_sources()) {
            for s in starts {
                for sign in [0, 0x8000_0000] {
                    let r = (s | sign)..(s | sign) + 5000;
                    assert_eq!(
                        model_digest_range(f, 2, r.clone()),
                        row_digest(f, r.clone()),
                        "{} on {r:x?}",
                        f.text
                    );
                }
            }
        }
    }

    /// Times the digest's model side for a few forms over 2^26 inputs (16
    /// stretches of 2^22 spread over the range), batched (`model_digest`)
    /// and row by row through `HwForm::model` (as it was computed before),
    /// and extrapolates to 2^32. By hand: `cargo test --release -p
    /// ptx-conformance --lib digest_speed -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn digest_speed() {
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        let all = forms("8.7", "sm_90");
        let stretches: Vec<std::ops::Range<u64>> =
            (0..16u64).map(|k| k << 28..(k << 28) + (1 << 22)).collect();
        let inputs = 16u64 << 22;
        let per_value = |s: f64| s * 1e9 * threads as f64 / inputs as f64;
        for text in [
            "cvt.rn.f16.f32",
            "cvt.rm.ftz.sat.f16.f32",
            "cvt.rn.relu.bf16x2.f32",
            "cvt.rna.satfinite.tf32.f32",
            "cvt.rn.satfinite.e4m3x2.f32",
            "cvt.rzi.s32.f32",
            "cvt.rni.ftz.sat.u8.f32",
            "cvt.rmi.f32.f32",
            "cvt.f64.f32",
        ] {
            let f = all.iter().find(|f| f.text == text).expect(text);
            let start = std::time::Instant::now();
            let batched = stretches.iter().fold(0u64, |acc, r| {
                acc.wrapping_add(model_digest_range(f, threads, r.clone()))
            });
            let batched_s = start.elapsed().as_secs_f64();
            let start = std::time::Instant::now();
            let rows = std::thread::scope(|s| {
                let hs: Vec<_> = (0..threads as u64)
                    .map(|t| {
                        let stretches = &stretches;
                        s.spawn(move || {
                            stretches.iter().fold(0u64, |acc, r| {
                                let n = (r.end - r.start) / threads as u64;
                                let lo = r.start + t * n;
                                acc.wrapping_add(row_digest(f, lo..lo + n))
                            })
                        })
                    })
                    .collect();
                hs.into_iter()
                    .fold(0u64, |acc, h| acc.wrapping_add(h.join().unwrap()))
            });
            let rows_s = start.elapsed().as_secs_f64();
            assert_eq!(batched, rows, "{text}");
            println!(
                "{text}: batched {:.2} ns/value/thread (2^32 on {threads} threads: {:.0} s), \
                 row by row {:.2} ns/value/thread ({:.0} s)",
                per_value(batched_s),
                batched_s * 64.0,
                per_value(rows_s),
                rows_s * 64.0,
            );
        }
    }

    #[test]
    fn sm90_forms_include_the_common_conversions() {
        let f = forms("8.7", "sm_90");
        let texts: Vec<&str> = f.iter().map(|f| f.text.as_str()).collect();
        for want in [
            "cvt.rn.f16.f32",
            "cvt.rzi.s32.f32",
            "cvt.f32.f16",
            "cvt.rn.satfinite.e4m3x2.f32",
            "cvt.pack.sat.u8.s32.b32",
        ] {
            assert!(texts.contains(&want), "{want} missing");
        }
        // sm_90 has no FP4 or .rs
        assert!(!texts
            .iter()
            .any(|t| t.contains("e2m1") || t.contains(".rs.")));
    }
}
