//! Runs forms through the model and an oracle and compares: per family,
//! how many inputs were checked, how many disagreed, how many results the
//! spec leaves open (not compared), and the first disagreements in full.

use crate::engine::Engine;
use crate::forms::{CvtForm, Family};
use crate::inputs::{rows, Sizes};
use crate::ptx::{expect, is_nan, Expect, Lane};
use ptx_semantics::cvt::EvalError;
use std::collections::BTreeMap;
use std::fmt;

/// Counts for one family.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub forms: usize,
    pub inputs: u64,
    pub mismatches: u64,
    /// Lanes whose result the spec does not describe (not compared).
    pub silent: u64,
    /// Inputs outside what the form defines (both sides said so).
    pub undefined: u64,
    /// Disagreements of a kind already looked into ([`KNOWN`]): not
    /// counted as mismatches.
    pub known: u64,
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, o: Tally) {
        self.forms += o.forms;
        self.inputs += o.inputs;
        self.mismatches += o.mismatches;
        self.silent += o.silent;
        self.undefined += o.undefined;
        self.known += o.known;
    }
}

/// One disagreement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub form: String,
    pub sources: Vec<u64>,
    /// The model's bits and unspecified mask, or why it gave none.
    pub model: Result<(u64, u64), String>,
    pub oracle: Expect,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let srcs: Vec<String> = self.sources.iter().map(|s| format!("{s:#x}")).collect();
        write!(f, "{} [{}]: model ", self.form, srcs.join(", "))?;
        match &self.model {
            Ok((b, 0)) => write!(f, "{b:#x}")?,
            Ok((b, u)) => write!(f, "{b:#x} (unspecified {u:#x})")?,
            Err(e) => write!(f, "{e}")?,
        }
        write!(f, ", oracle ")?;
        match &self.oracle {
            Expect::Undefined(why) => write!(f, "undefined ({why})"),
            Expect::Lanes { lanes, .. } => {
                let l: Vec<String> = lanes
                    .iter()
                    .map(|l| match l {
                        Lane::Bits(b) => format!("{b:#x}"),
                        Lane::AnyNan(fp) => format!("any .{} NaN", fp.name),
                        Lane::Silent => "(spec silent)".to_string(),
                    })
                    .collect();
                write!(f, "{}", l.join(" | "))
            }
        }
    }
}

/// A kind of disagreement that has been looked into and found to be the
/// model's: it is reported apart (and the model's owner told), so that a
/// new kind still fails the tests.
pub struct Known {
    pub id: &'static str,
    /// The form, the inputs, both outputs and the spec clause.
    pub reason: &'static str,
    pub matches: fn(&Mismatch) -> bool,
}

/// The known disagreements: none at present. (The last one,
/// `cvt.rz.satfinite.ue8m0x2` on negative inputs above MAX_NORM, was a model
/// bug, fixed in `semantics/src/cvt/convert.rs`.)
pub static KNOWN: &[Known] = &[];

/// Where a form's counts go: its family, and whether sm_90 ran it.
pub type Key = (Family, bool);

/// Counts per family and the first disagreements.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub tallies: BTreeMap<Key, Tally>,
    pub mismatches: Vec<Mismatch>,
    /// Forms the engine could not express.
    pub skipped: Vec<String>,
    /// How many disagreements to keep in full.
    pub keep: usize,
}

impl Report {
    pub fn new(keep: usize) -> Report {
        Report {
            keep,
            ..Report::default()
        }
    }
    pub fn total(&self) -> Tally {
        let mut t = Tally::default();
        for v in self.tallies.values() {
            t += *v;
        }
        t
    }
    pub fn merge(&mut self, o: Report) {
        for (k, v) in o.tallies {
            *self.tallies.entry(k).or_default() += v;
        }
        for m in o.mismatches {
            if self.mismatches.len() < self.keep {
                self.mismatches.push(m);
            }
        }
        self.skipped.extend(o.skipped);
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<14} {:<24} {:>6} {:>10} {:>10} {:>6} {:>8} {:>9}",
            "family", "seen on", "forms", "inputs", "mismatches", "known", "silent", "undefined"
        )?;
        for ((fam, hw), t) in &self.tallies {
            writeln!(
                f,
                "{:<14} {:<24} {:>6} {:>10} {:>10} {:>6} {:>8} {:>9}",
                fam.name(),
                if *hw { "sm_90" } else { "not seen on hardware" },
                t.forms,
                t.inputs,
                t.mismatches,
                t.known,
                t.silent,
                t.undefined
            )?;
        }
        let t = self.total();
        writeln!(
            f,
            "{:<14} {:<24} {:>6} {:>10} {:>10} {:>6} {:>8} {:>9}",
            "all", "", t.forms, t.inputs, t.mismatches, t.known, t.silent, t.undefined
        )?;
        if t.known > 0 {
            for k in KNOWN {
                writeln!(f, "known disagreement {}: {}", k.id, k.reason)?;
            }
        }
        if !self.skipped.is_empty() {
            writeln!(
                f,
                "forms the engine cannot express: {}",
                self.skipped.join(" ")
            )?;
        }
        for m in &self.mismatches {
            writeln!(f, "  {m}")?;
        }
        Ok(())
    }
}

/// Compares one input. `Some(true)` agreed, `Some(false)` disagreed,
/// `None` the engine cannot express the form.
fn compare(
    form: &CvtForm,
    e: &mut dyn Engine,
    sources: &[u64],
    t: &mut Tally,
    out: &mut Vec<Mismatch>,
    keep: usize,
) -> Option<()> {
    let oracle = expect(e, &form.spec, sources)?;
    let model = form.model.eval(sources);
    t.inputs += 1;
    let ok = match (&oracle, &model) {
        (Expect::Undefined(_), Err(EvalError::Undefined(_))) => {
            t.undefined += 1;
            true
        }
        (Expect::Lanes { lanes, lane_bits }, Ok(c)) => {
            let n = lanes.len() as u32;
            let m = if *lane_bits >= 64 {
                u64::MAX
            } else {
                (1u64 << lane_bits) - 1
            };
            let whole = if lane_bits * n >= 64 {
                u64::MAX
            } else {
                (1u64 << (lane_bits * n)) - 1
            };
            let mut all = c.bits & !whole == 0;
            for (i, lane) in lanes.iter().enumerate() {
                let shift = (n - 1 - i as u32) * lane_bits;
                let bits = (c.bits >> shift) & m;
                let unspec = (c.unspecified >> shift) & m;
                all &= match lane {
                    Lane::Bits(b) => bits == *b && unspec == 0,
                    Lane::AnyNan(fp) => is_nan(*fp, bits),
                    Lane::Silent => {
                        t.silent += 1;
                        true
                    }
                };
            }
            all
        }
        _ => false,
    };
    if !ok {
        let m = Mismatch {
            form: form.text.clone(),
            sources: sources.to_vec(),
            model: model
                .map(|c| (c.bits, c.unspecified))
                .map_err(|e| e.to_string()),
            oracle,
        };
        if KNOWN.iter().any(|k| (k.matches)(&m)) {
            t.known += 1;
        } else {
            t.mismatches += 1;
            if out.len() < keep {
                out.push(m);
            }
        }
    }
    Some(())
}

/// Checks one form on its generated inputs.
pub fn check_form(form: &CvtForm, e: &mut dyn Engine, sizes: &Sizes, report: &mut Report) {
    check_rows(form, e, &rows(&form.spec, sizes), report)
}

/// Checks one form on the given source rows.
pub fn check_rows(form: &CvtForm, e: &mut dyn Engine, rows: &[Vec<u64>], report: &mut Report) {
    let mut t = Tally {
        forms: 1,
        ..Tally::default()
    };
    let mut out = Vec::new();
    for r in rows {
        if compare(form, e, r, &mut t, &mut out, report.keep).is_none() {
            report.skipped.push(form.text.clone());
            return;
        }
    }
    let key = (form.spec.family(), form.on_hardware);
    *report.tallies.entry(key).or_default() += t;
    for m in out {
        if report.mismatches.len() < report.keep {
            report.mismatches.push(m);
        }
    }
}

/// Checks many forms.
pub fn check_forms<'a>(
    forms: impl IntoIterator<Item = &'a CvtForm>,
    e: &mut dyn Engine,
    sizes: &Sizes,
    keep: usize,
) -> Report {
    let mut report = Report::new(keep);
    for f in forms {
        check_form(f, e, sizes, &mut report);
    }
    report
}
