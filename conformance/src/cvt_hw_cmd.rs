//! `conform cvt-hw` (maintainers): write the conversion kernels and inputs
//! for the device machine, and compare what the GPU produced with the model,
//! writing the baseline that CI replays.
//!
//! Layout of a work folder: `manifest.tsv` (one line per form: id, form,
//! source count, then `set:rows:input` for each input set), `k/<id>.ptx`
//! and `dg/<id>.ptx` (kernels), `in/<input>.bin` (rows of u64 sources,
//! shared by forms that draw the same inputs), and, written by
//! tools/device/cvt_hw.py, `out/<id>.<set>.bin` (one u64 per row),
//! `ptxas.tsv` (id, exit status, first message line) and `digests.tsv`
//! (id, GPU digest over 2^32 inputs).

use crate::cvt_hw::{
    block_digest, digest_kernel, forms, kernel, model_digest, model_digest_chunks, HwForm, BLOCK,
};
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use ptx_gen::cvt::vectors;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub const VERSION: &str = "8.7";
pub const TARGET: &str = "sm_90";
/// Random rows per form in the hardware runs.
pub const RANDOM_ROWS: usize = 1 << 20;
pub const SEED: u64 = 0x5eed_c0de;

#[derive(Subcommand)]
pub enum CvtHwCommand {
    /// Write kernels and inputs for every sm_90 conversion form.
    Gen(GenArgs),
    /// Compare GPU outputs with the model; write the baseline.
    Compare(CompareArgs),
    /// List the forms (one per line).
    List,
    /// The model's digests over all 2^32 inputs of the `.f32`-source forms
    /// in part K of N (`--part 1/4`), one line per form; with `--chunks N`,
    /// the digests of N equal chunks of the inputs instead (the file
    /// corpus/cvt/hardware/sm_90/digest32-chunks.tsv).
    Digest(DigestArgs),
}

#[derive(Args)]
pub struct DigestArgs {
    #[arg(long, default_value = "1/1")]
    pub part: String,
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Only these forms (exact text; repeatable).
    #[arg(long = "form")]
    pub forms: Vec<String>,
    /// Write a header and, per form, the digests of this many equal chunks
    /// of the 2^32 inputs (a power of two), comma-separated.
    #[arg(long)]
    pub chunks: Option<u64>,
}

#[derive(Args)]
pub struct GenArgs {
    #[arg(long)]
    pub out: PathBuf,
    /// Random rows per form.
    #[arg(long, default_value_t = RANDOM_ROWS)]
    pub random: usize,
    /// Also write the model's outputs as if from a GPU (to test the
    /// comparison itself).
    #[arg(long)]
    pub model_outputs: bool,
}

#[derive(Args)]
pub struct CompareArgs {
    /// The work folder (with out/ from the device).
    pub dir: PathBuf,
    /// Where to write the baseline (forms.tsv, edge.tsv).
    #[arg(long)]
    pub baseline: PathBuf,
    /// Also compute the model's 2^32 digests on this many threads (0: skip).
    #[arg(long, default_value_t = 0)]
    pub digest_threads: usize,
    /// Random rows per form (as given to gen).
    #[arg(long, default_value_t = RANDOM_ROWS)]
    pub random: usize,
}

pub fn run(cmd: CvtHwCommand) -> Result<ExitCode> {
    match cmd {
        CvtHwCommand::List => {
            for f in forms(VERSION, TARGET) {
                println!("{}", f.text);
            }
            Ok(ExitCode::SUCCESS)
        }
        CvtHwCommand::Gen(a) => gen(&a),
        CvtHwCommand::Digest(a) => {
            let (k, n) = a
                .part
                .split_once('/')
                .and_then(|(k, n)| Some((k.parse::<usize>().ok()?, n.parse::<usize>().ok()?)))
                .filter(|(k, n)| *k >= 1 && k <= n)
                .context("--part K/N")?;
            let all: Vec<HwForm> = forms(VERSION, TARGET)
                .into_iter()
                .filter(|f| f.f32_sources())
                .filter(|f| a.forms.is_empty() || a.forms.contains(&f.text))
                .collect();
            for want in &a.forms {
                if !all.iter().any(|f| &f.text == want) {
                    bail!("--form {want}: not an .f32-source form of {TARGET}");
                }
            }
            if let Some(chunks) = a.chunks {
                if !chunks.is_power_of_two() || chunks > 1 << 32 {
                    bail!("--chunks {chunks}: a power of two up to 2^32");
                }
                let named: String = a.forms.iter().map(|f| format!(" --form {f}")).collect();
                println!(
                    "# form\tchunks\tmodel digest of each chunk, inputs k*2^32/chunks .. (k+1)*2^32/chunks; \
                     they add up (wrapping) to the digest over all 2^32 inputs. \
                     Written by `conform cvt-hw digest --chunks {chunks}{named}`"
                );
            }
            for (i, f) in all.iter().enumerate() {
                if i % n != k - 1 {
                    continue;
                }
                if let Some(chunks) = a.chunks {
                    let d: Vec<String> = model_digest_chunks(f, a.threads, chunks)
                        .iter()
                        .map(|d| format!("{d:016x}"))
                        .collect();
                    println!("{}\t{chunks}\t{}", f.text, d.join(","));
                } else {
                    let start = std::time::Instant::now();
                    println!(
                        "{}\t{:016x}\t{:.1}s",
                        f.text,
                        model_digest(f, a.threads),
                        start.elapsed().as_secs_f64()
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        CvtHwCommand::Compare(a) => compare(&a),
    }
}

fn write_rows(path: &Path, rows: &[Vec<u64>]) -> Result<()> {
    let mut bytes = Vec::with_capacity(rows.len() * rows.first().map_or(1, |r| r.len()) * 8);
    for r in rows {
        for v in r {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
    }
    std::fs::write(path, bytes).with_context(|| format!("writing {}", path.display()))
}

fn read_u64s(path: &Path) -> Result<Vec<u64>> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(bytes
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
        .collect())
}

fn gen(a: &GenArgs) -> Result<ExitCode> {
    for d in ["k", "dg", "in", "out"] {
        std::fs::create_dir_all(a.out.join(d))?;
    }
    let forms = forms(VERSION, TARGET);
    let mut manifest = String::new();
    let mut written = std::collections::HashSet::new();
    for (id, f) in forms.iter().enumerate() {
        std::fs::write(
            a.out.join(format!("k/{id}.ptx")),
            kernel(f, VERSION, TARGET),
        )?;
        if f.f32_sources() {
            std::fs::write(
                a.out.join(format!("dg/{id}.ptx")),
                digest_kernel(f, VERSION, TARGET),
            )?;
        }
        write!(manifest, "{id}\t{}\t{}", f.text, f.source_regs.len())?;
        for (name, set) in f.sets(a.random, SEED) {
            // Forms that draw the same inputs share one file.
            let key = format!("{}.{name}", input_key(f));
            let path = a.out.join(format!("in/{key}.bin"));
            let rows = if written.insert(key.clone()) {
                let rows = vectors(&f.conv, set);
                write_rows(&path, &rows)?;
                rows.len()
            } else {
                std::fs::metadata(&path)?.len() as usize / 8 / f.source_regs.len()
            };
            write!(manifest, "\t{name}:{rows}:{key}")?;
            if a.model_outputs {
                let rows = read_u64s(&path)?;
                let k = f.source_regs.len();
                let outs: Vec<Vec<u64>> = rows
                    .chunks_exact(k)
                    .map(|r| vec![f.model(r).map_or(0, |(b, _)| b)])
                    .collect();
                write_rows(&a.out.join(format!("out/{id}.{name}.bin")), &outs)?;
            }
        }
        manifest.push('\n');
    }
    std::fs::write(a.out.join("manifest.tsv"), manifest)?;
    eprintln!("{} forms written to {}", forms.len(), a.out.display());
    Ok(ExitCode::SUCCESS)
}

/// A `id<TAB>rest` file of the device runner as a map (empty when absent:
/// every form then counts as not run).
fn read_id_map(path: &Path) -> HashMap<String, String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            l.split_once('\t')
                .map(|(k, v)| (k.to_string(), v.to_string()))
        })
        .collect()
}

struct Tally {
    rows: usize,
    mismatches: usize,
    examples: Vec<String>,
}

fn compare(a: &CompareArgs) -> Result<ExitCode> {
    let forms = forms(VERSION, TARGET);
    let manifest = std::fs::read_to_string(a.dir.join("manifest.tsv"))?;
    let ptxas = read_id_map(&a.dir.join("ptxas.tsv"));
    let gpu_digests = read_id_map(&a.dir.join("digests.tsv"));
    std::fs::create_dir_all(&a.baseline)?;
    let mut table = String::from(
        "# form\tptxas\tthen per input set: set:rows:digest of the inputs:digests of 16384-row blocks of GPU outputs\n",
    );
    let mut edge = String::from("# form\tGPU outputs on the edge set, in row order (hex)\n");
    let mut report = String::new();
    let mut digest_report = String::from("# form\tgpu digest\tmodel digest\tverdict\n");
    let mut total = Tally {
        rows: 0,
        mismatches: 0,
        examples: vec![],
    };
    let mut gpu_digest_names =
        String::from("# form\tGPU digest over all 2^32 inputs: sum of mix(mix(x) ^ d)\n");
    for line in manifest.lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() < 4 {
            bail!("bad manifest line: {line}");
        }
        let (id, text) = (cols[0], cols[1]);
        let Some(f) = forms.iter().find(|f| f.text == text) else {
            bail!("form {text} is no longer generated");
        };
        let verdict = ptxas.get(id).cloned().unwrap_or_else(|| "missing".into());
        if !verdict.starts_with('0') {
            writeln!(table, "{text}\trejected: {}", verdict.replace('\t', " "))?;
            continue;
        }
        write!(table, "{text}\tok")?;
        for set_col in &cols[3..] {
            let parts: Vec<&str> = set_col.split(':').collect();
            let (name, key) = (parts[0], parts.get(2).copied().unwrap_or(""));
            let rows = read_u64s(&a.dir.join(format!("in/{key}.bin")))?;
            let k = f.source_regs.len();
            let out_path = a.dir.join(format!("out/{id}.{name}.bin"));
            let outputs = match read_u64s(&out_path) {
                Ok(o) => o,
                Err(_) => {
                    write!(table, "\t{name}:no-output")?;
                    continue;
                }
            };
            let mut t = Tally {
                rows: 0,
                mismatches: 0,
                examples: vec![],
            };
            // Digests are over the outputs with the bits the spec leaves
            // unspecified cleared.
            let mut masked = outputs.clone();
            for (i, row) in rows.chunks_exact(k).enumerate() {
                let got = outputs.get(i).copied().unwrap_or(!0);
                if let (Some((_, dc)), Some(m)) = (f.model(row), masked.get_mut(i)) {
                    *m &= !dc;
                }
                t.rows += 1;
                match f.model(row) {
                    Some((want, dc)) if (want ^ got) & !dc == 0 => {}
                    Some((want, _)) => {
                        t.mismatches += 1;
                        if t.examples.len() < 8 {
                            t.examples
                                .push(format!("{text} {row:x?}: gpu {got:#x} model {want:#x}"));
                        }
                    }
                    // Undefined in the model: the hardware value is an
                    // observation only.
                    None => {}
                }
            }
            if name == "edge" {
                let outs: Vec<String> = outputs.iter().map(|v| format!("{v:x}")).collect();
                writeln!(edge, "{text}\t{}", outs.join(" "))?;
            }
            let digests: Vec<String> = masked
                .chunks(BLOCK)
                .enumerate()
                .map(|(b, c)| format!("{:016x}", block_digest(b * BLOCK, c)))
                .collect();
            write!(
                table,
                "\t{name}:{}:{:016x}:{}",
                t.rows,
                block_digest(0, &rows),
                digests.join(",")
            )?;
            writeln!(report, "{text}\t{name}\t{}\t{}", t.rows, t.mismatches)?;
            for e in &t.examples {
                writeln!(report, "  {e}")?;
            }
            total.rows += t.rows;
            total.mismatches += t.mismatches;
        }
        table.push('\n');
        if let Some(g) = gpu_digests.get(id) {
            writeln!(gpu_digest_names, "{text}\t{}", g.trim())?;
        }
        if a.digest_threads > 0 && f.f32_sources() {
            if let Some(g) = gpu_digests.get(id) {
                let m = format!("{:016x}", model_digest(f, a.digest_threads));
                let same = if g.trim() == m { "same" } else { "DIFFERENT" };
                writeln!(digest_report, "{text}\t{}\t{m}\t{same}", g.trim())?;
            }
        }
    }
    std::fs::write(a.baseline.join("forms.tsv"), table)?;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    std::io::Write::write_all(&mut gz, edge.as_bytes())?;
    std::fs::write(a.baseline.join("edge.tsv.gz"), gz.finish()?)?;
    std::fs::write(a.baseline.join("compare.txt"), &report)?;
    std::fs::write(a.baseline.join("gpu-digest32.tsv"), gpu_digest_names)?;
    if a.digest_threads > 0 {
        std::fs::write(a.baseline.join("digest32.tsv"), digest_report)?;
    }
    println!("rows {} mismatches {}", total.rows, total.mismatches);
    Ok(ExitCode::SUCCESS)
}

/// The name of a form's input file: forms with the same source and
/// destination formats and operand count draw the same vectors.
pub fn input_key(f: &HwForm) -> String {
    match &f.conv {
        ptx_semantics::cvt::Conversion::Cvt(op) => format!(
            "{}-{}-{}",
            op.src.ptx_name().trim_start_matches('.'),
            op.dst.ptx_name().trim_start_matches('.'),
            f.source_regs.len()
        ),
        ptx_semantics::cvt::Conversion::Pack(_) => format!("pack-{}", f.source_regs.len()),
    }
}

/// Used by tests: the forms by text.
pub fn forms_by_text() -> HashMap<String, HwForm> {
    forms(VERSION, TARGET)
        .into_iter()
        .map(|f| (f.text.clone(), f))
        .collect()
}
