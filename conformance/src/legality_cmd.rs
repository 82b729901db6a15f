//! `conform legality gen|compare`: build the ptxas legality corpus (the
//! catalogue axis, or with `--syntax` the operand-syntax axis) and compare
//! `conform check` with ptxas's verdicts.

use crate::check::check_source;
use crate::legality::{generate, render, syntax, Variant, Verdict};
use anyhow::{Context, Result};
use ptx_semantics::check::Options;
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Subcommand)]
pub enum LegalityCommand {
    /// Write variants.jsonl, the kernels and a manifest for the device run.
    Gen {
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Base samples per catalogue form [default: 12; 3 with --syntax; 10 with --arith].
        #[arg(long)]
        per_form: Option<usize>,
        /// The operand-syntax axis (vector variables, selectors, immediates,
        /// reg+imm, var+imm, braces, sinks) instead of the catalogue axis;
        /// its corpus lives apart, in corpus/legality/syntax.
        #[arg(long)]
        syntax: bool,
        /// The arithmetic axis (the rows of PTX ISA 9.7.1-9.7.7: integer,
        /// extended precision, float, half precision, comparison, logic)
        /// instead of the catalogue axis; its corpus lives apart, in
        /// corpus/legality/arith.
        #[arg(long, conflicts_with = "syntax")]
        arith: bool,
    },
    /// Compare `conform check` with ptxas on a committed corpus. Exit
    /// status 0: agreement; 1: unlisted disagreements, or agreement below
    /// 99%; 2: no verdicts yet (verdicts.jsonl missing), or an unreadable
    /// corpus.
    Compare {
        /// The corpus folder (variants.jsonl, verdicts.jsonl, divergences.tsv):
        /// corpus/legality, or corpus/legality/syntax.
        #[arg(long, default_value = "corpus/legality")]
        corpus: PathBuf,
        /// Print every disagreement.
        #[arg(long)]
        verbose: bool,
    },
}

pub fn run(cmd: LegalityCommand) -> Result<ExitCode> {
    match cmd {
        LegalityCommand::Gen {
            out,
            seed,
            per_form,
            syntax,
            arith,
        } => {
            let variants = if arith {
                crate::legality::arith::generate(seed, per_form.unwrap_or(10))
            } else if syntax {
                syntax::generate(seed, per_form.unwrap_or(3))
            } else {
                generate(seed, per_form.unwrap_or(12))
            };
            std::fs::create_dir_all(out.join("kernels"))?;
            let mut lines = String::new();
            let mut manifest = String::new();
            for v in &variants {
                lines.push_str(&serde_json::to_string(v)?);
                lines.push('\n');
                manifest.push_str(&format!("{}\t{}\n", v.id, v.target));
                std::fs::write(out.join("kernels").join(format!("{}.ptx", v.id)), render(v))?;
            }
            std::fs::write(out.join("variants.jsonl"), lines)?;
            std::fs::write(out.join("manifest.tsv"), manifest)?;
            println!("{} variants written to {}", variants.len(), out.display());
            Ok(ExitCode::SUCCESS)
        }
        LegalityCommand::Compare { corpus, verbose } => {
            let verdicts = corpus.join("verdicts.jsonl");
            if !verdicts.exists() {
                eprintln!(
                    "conform: {} has no ptxas verdicts yet ({} is missing); produce them on the \
                     device machine with `python3 tools/device/ptxas_verdicts.py DIR \"$OUT\"` \
                     (see corpus/legality/README.md)",
                    corpus.display(),
                    verdicts.display()
                );
                return Ok(ExitCode::from(2));
            }
            let report = compare(&corpus)?;
            let mut out = std::io::stdout().lock();
            for d in &report.disagreements {
                writeln!(out, "{d}")?;
            }
            if verbose {
                for d in &report.crashes {
                    writeln!(out, "{d}")?;
                }
                for d in &report.stale {
                    writeln!(out, "stale divergence entry: {d}")?;
                }
            }
            write!(out, "{}", report.table())?;
            Ok(ExitCode::from(if report.passes() { 0 } else { 1 }))
        }
    }
}

/// Agreement of `conform check` with ptxas, per family and per mutation.
pub struct Report {
    /// family -> (agree, total)
    pub per_family: BTreeMap<String, (usize, usize)>,
    /// mutation -> (agree, total), for corpora of the syntax axis (empty
    /// for the catalogue axis, whose table stays per family).
    pub per_mutation: BTreeMap<String, (usize, usize)>,
    /// Disagreements not on the divergence list.
    pub disagreements: Vec<String>,
    /// Disagreements on the divergence list.
    pub listed: usize,
    /// Divergence-list entries that no longer disagree.
    pub stale: Vec<String>,
    /// Variants on which ptxas crashed (killed by a signal): no verdict.
    pub crashes: Vec<String>,
}

impl Report {
    pub fn totals(&self) -> (usize, usize) {
        self.per_family
            .values()
            .fold((0, 0), |(a, t), (x, y)| (a + x, t + y))
    }

    pub fn passes(&self) -> bool {
        let (a, t) = self.totals();
        self.disagreements.is_empty() && t > 0 && a * 100 >= t * 99
    }

    pub fn table(&self) -> String {
        let mut s = String::from("family                          agree   total   agreement\n");
        for (f, (a, t)) in &self.per_family {
            s.push_str(&format!(
                "{f:<30} {a:>7} {t:>7}   {:>6.2}%\n",
                100.0 * *a as f64 / (*t).max(1) as f64
            ));
        }
        let (a, t) = self.totals();
        s.push_str(&format!(
            "{:<30} {a:>7} {t:>7}   {:>6.2}%\n",
            "all",
            100.0 * a as f64 / t.max(1) as f64
        ));
        if !self.per_mutation.is_empty() {
            s.push_str("\nmutation (axis)                 agree   total   agreement\n");
            for (m, (a, t)) in &self.per_mutation {
                s.push_str(&format!(
                    "{m:<30} {a:>7} {t:>7}   {:>6.2}%\n",
                    100.0 * *a as f64 / (*t).max(1) as f64
                ));
            }
        }
        s.push_str(&format!(
            "listed divergences: {}; unlisted disagreements: {}; stale list entries: {}; ptxas crashes (no verdict): {}\n",
            self.listed,
            self.disagreements.len(),
            self.stale.len(),
            self.crashes.len()
        ));
        s
    }
}

fn read_jsonl<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Vec<T>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l)
                .with_context(|| format!("{}:{}: bad JSON line", path.display(), i + 1))
        })
        .collect()
}

/// Reads the corpus and checks every variant.
pub fn compare(corpus: &Path) -> Result<Report> {
    let variants: Vec<Variant> = read_jsonl(&corpus.join("variants.jsonl"))?;
    let verdicts: Vec<Verdict> = read_jsonl(&corpus.join("verdicts.jsonl"))?;
    let verdicts: HashMap<&str, &Verdict> = verdicts.iter().map(|v| (v.id.as_str(), v)).collect();
    let divergences = read_divergences(&corpus.join("divergences.tsv"))?;
    let mut report = Report {
        per_family: BTreeMap::new(),
        per_mutation: BTreeMap::new(),
        disagreements: Vec::new(),
        listed: 0,
        stale: Vec::new(),
        crashes: Vec::new(),
    };
    let mut still = std::collections::HashSet::new();
    for v in &variants {
        let Some(verdict) = verdicts.get(v.id.as_str()) else {
            continue;
        };
        if verdict.rc < 0 {
            report.crashes.push(format!(
                "{}\t{}\t{} {}\tptxas killed by signal {}",
                v.id, v.instr, v.target, v.ptx, -verdict.rc
            ));
            continue;
        }
        let ptxas_ok = verdict.rc == 0;
        let findings = check_source(render(v).as_bytes(), &Options::default());
        let ours_ok = findings.is_empty();
        let agree = ptxas_ok == ours_ok;
        let entry = report.per_family.entry(v.family.clone()).or_default();
        entry.1 += 1;
        entry.0 += usize::from(agree);
        if !v.axis.is_empty() {
            let entry = report.per_mutation.entry(v.mutation.clone()).or_default();
            entry.1 += 1;
            entry.0 += usize::from(agree);
        }
        if agree {
            continue;
        }
        if divergences.contains_key(&v.id) {
            report.listed += 1;
            still.insert(v.id.clone());
            continue;
        }
        let ours = findings
            .first()
            .map(|d| d.message.clone())
            .unwrap_or_else(|| "legal".into());
        report.disagreements.push(format!(
            "{}\t{}\t{}\t{} {}\tptxas: {}\tconform: {}",
            v.id,
            v.mutation,
            v.instr,
            v.target,
            v.ptx,
            if ptxas_ok {
                "legal".to_string()
            } else {
                verdict.msg.clone()
            },
            ours
        ));
    }
    report.stale = divergences
        .keys()
        .filter(|k| !still.contains(*k))
        .cloned()
        .collect();
    Ok(report)
}

/// `divergences.tsv`: `id<TAB>reason` lines; `#` starts a comment.
fn read_divergences(path: &Path) -> Result<HashMap<String, String>> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(HashMap::new());
    };
    Ok(text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            l.split_once('\t')
                .map(|(a, b)| (a.trim().to_string(), b.trim().to_string()))
        })
        .collect())
}
