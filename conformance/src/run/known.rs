//! Documented divergences (`conform run --known FILE`): where an
//! implementation departs from the spec in a way that is written down with
//! its evidence, its cases are reported as `known` rather than `fail`, and
//! a run whose only differences are known exits 0. A case counts as known
//! only when the implementation's value is exactly what the documented
//! behaviour gives for that input, so a new bug in a listed form still
//! fails.
//!
//! The file is a divergence list: one line per form or group,
//! `FORM|GROUP<TAB>RULE<TAB>WHY`, where RULE is `as:OTHER` (the hardware
//! computes the conversion form OTHER), `tf32-satfinite-nan`, or
//! `reduce_sm90` (a bulk-reduction group: the hardware writes
//! `reduce_sm90`'s bits, subnormals kept). `--known sm_90` is the shipped
//! pair: corpus/cvt/hardware/sm_90/divergences.tsv and
//! corpus/suite/sm_90/bulk-divergences.tsv.

use crate::cvt_hw::HwForm;
use anyhow::{bail, Result};
use ptx_gen::suite::manifest::Group;
use std::collections::HashMap;
use std::path::Path;

/// The sm_90 lists, as shipped.
const SM_90: &str = include_str!("../../../corpus/cvt/hardware/sm_90/divergences.tsv");
const SM_90_BULK: &str = include_str!("../../../corpus/suite/sm_90/bulk-divergences.tsv");

/// What a listed form does instead.
enum Behaviour {
    /// It computes another form.
    As(HwForm),
    /// `cvt.rna.satfinite.tf32.f32` on NaNs (see
    /// [`crate::cvt_hw::tf32_satfinite_nan`]).
    Tf32SatfiniteNan(HwForm),
    /// A bulk-reduction group whose rows sm_90 writes as
    /// `ptx_gen::suite::bulk::sm90_row` says.
    ReduceSm90,
}

pub struct Rule {
    behaviour: Behaviour,
    pub why: String,
}

/// The documented divergences, by form.
pub struct Known {
    rules: HashMap<String, Rule>,
    /// Where the list came from, for the results.
    pub source: String,
}

impl Known {
    /// `sm_90` (the shipped list) or a path to a list.
    pub fn load(spec: &str) -> Result<Known> {
        let (text, source) = if spec == "sm_90" {
            (
                format!("{SM_90}\n{SM_90_BULK}"),
                "sm_90 (corpus/cvt/hardware/sm_90/divergences.tsv, corpus/suite/sm_90/bulk-divergences.tsv)".to_string(),
            )
        } else {
            (crate::input::read_text(Path::new(spec))?, spec.to_string())
        };
        let forms = crate::cvt_hw_cmd::forms_by_text();
        let mut rules = HashMap::new();
        for (i, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let cols: Vec<&str> = line.split('\t').collect();
            let [form, rule, why, ..] = cols[..] else {
                bail!("{source}:{}: expected FORM<TAB>RULE<TAB>WHY", i + 1);
            };
            let find = |f: &str| {
                forms.get(f).cloned().ok_or_else(|| {
                    anyhow::anyhow!("{source}:{}: `{f}` is no conversion form", i + 1)
                })
            };
            let behaviour = if let Some(other) = rule.strip_prefix("as:") {
                Behaviour::As(find(other)?)
            } else if rule == "tf32-satfinite-nan" {
                Behaviour::Tf32SatfiniteNan(find(form)?)
            } else if rule == "reduce_sm90" {
                if !ptx_gen::suite::bulk::divergent(form) {
                    bail!(
                        "{source}:{}: `{form}` is no bulk-reduction divergence group",
                        i + 1
                    );
                }
                Behaviour::ReduceSm90
            } else {
                bail!("{source}:{}: unknown rule `{rule}`", i + 1);
            };
            rules.insert(
                form.to_string(),
                Rule {
                    behaviour,
                    why: why.to_string(),
                },
            );
        }
        Ok(Known { rules, source })
    }

    /// The rule for a form.
    pub fn rule(&self, form: &str) -> Option<&Rule> {
        self.rules.get(form)
    }

    /// The rule for a group: by its id, else by its form.
    pub fn for_group(&self, g: &Group) -> Option<&Rule> {
        self.rules.get(&g.id).or_else(|| self.rules.get(&g.form))
    }
}

impl Rule {
    /// Whether `actual` is what the documented behaviour gives for the
    /// input row, outside the mask.
    pub fn explains(&self, g: &Group, input: &[u8], actual: &[u8], mask: Option<&[u8]>) -> bool {
        if let Behaviour::ReduceSm90 = self.behaviour {
            let Some(want) = ptx_gen::suite::bulk::sm90_row(g, input) else {
                return false;
            };
            return want.len() == actual.len()
                && want.iter().zip(actual).enumerate().all(|(k, (w, a))| {
                    let free = mask.and_then(|m| m.get(k)).copied().unwrap_or(0);
                    (w ^ a) & !free == 0
                });
        }
        let sources: Vec<u64> = g
            .input
            .fields
            .iter()
            .map(|f| g.input.read(input, f) as u64)
            .collect();
        let Some(out) = g.output.fields.first() else {
            return false;
        };
        let width = out.bytes * 8;
        let keep = if width >= 64 {
            u64::MAX
        } else {
            (1u64 << width) - 1
        };
        let got = g.output.read(actual, out) as u64 & keep;
        let masked = mask.map_or(0, |m| g.output.read(m, out) as u64);
        let want = match &self.behaviour {
            Behaviour::As(f) => f.model(&sources),
            Behaviour::ReduceSm90 => None,
            Behaviour::Tf32SatfiniteNan(f) => f.model(&sources).map(|(bits, dc)| {
                (
                    crate::cvt_hw::tf32_satfinite_nan(sources.first().copied().unwrap_or(0), bits),
                    dc,
                )
            }),
        };
        match want {
            Some((bits, dc)) => (got ^ (bits & keep)) & !(masked | dc) & keep == 0,
            None => false,
        }
    }
}
