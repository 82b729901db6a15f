//! Conversion baselines from hardware: every `cvt`/`cvt.pack` form the
//! catalogue gives, one kernel each, run over its input sets on a GPU
//! (tools/device/cvt_hw.py), then compared with the model. What the GPU
//! produced is kept as baseline data (corpus/cvt/hardware) that CI replays.
//!
//! The kernels share one calling convention: `.param .u64 in` (rows of
//! source operands, one u64 each), `.param .u64 out` (one u64 per row, the
//! destination register zero-extended), `.param .u32 n`.

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
pub fn model_digest(f: &HwForm, threads: usize) -> u64 {
    let two = f.source_regs.len() == 2;
    let chunk = (1u64 << 32) / threads as u64;
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads as u64)
            .map(|t| {
                s.spawn(move || {
                    let lo = t * chunk;
                    let hi = if t + 1 == threads as u64 {
                        1u64 << 32
                    } else {
                        lo + chunk
                    };
                    let mut sum = 0u64;
                    let mut row = [0u64; 2];
                    for x in lo..hi {
                        row[0] = x;
                        let rows: &[u64] = if two {
                            row[1] = ((x as u32).rotate_left(16) ^ 0x8000_0000) as u64;
                            &row
                        } else {
                            &row[..1]
                        };
                        let d = f.model(rows).map_or(0, |(b, _)| b);
                        sum = sum.wrapping_add(mix(mix(x) ^ d));
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

/// The digest of a set of outputs: `sum(mix(mix(i) ^ out[i]))` over a
/// block of rows.
pub fn block_digest(start: usize, outputs: &[u64]) -> u64 {
    outputs.iter().enumerate().fold(0u64, |acc, (i, &o)| {
        acc.wrapping_add(mix(mix((start + i) as u64) ^ o))
    })
}

/// Rows per digest block in the baseline.
pub const BLOCK: usize = 16384;

#[cfg(test)]
mod tests {
    use super::*;

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
