//! The results file of `conform run` (schema `ptx-conform-results/1`).
//!
//! A suite is made of groups (one kernel launch each) of cases (one row of
//! the group's input and output buffers each). Every case ends as one
//! [`Status`]; a group that could not run gives all its cases the same
//! status and says why. Failures carry their inputs, expected and actual
//! values in hex and decoded, the don't-care mask and the spec section, so
//! that a report needs nothing but this file.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The value of [`Results::schema`].
pub const SCHEMA: &str = "ptx-conform-results/1";

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Results {
    /// Always [`SCHEMA`].
    pub schema: String,
    pub implementation: Implementation,
    pub suite: SuiteInfo,
    /// RFC 3339 time the run started (UTC).
    pub started: String,
    /// Wall-clock seconds the run took.
    pub duration_s: f64,
    /// False when the run was interrupted (Ctrl-C): the groups listed are
    /// complete, the others did not run and are not listed.
    pub complete: bool,
    /// Case counts over the whole run.
    pub totals: Counts,
    /// Case counts per instruction family (`cvt`, `prmt`, `ld`...).
    pub families: BTreeMap<String, Counts>,
    /// One entry per group that ran (or was skipped, or failed to run), in
    /// suite order.
    pub groups: Vec<GroupResult>,
}

/// What ran the suite.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct Implementation {
    /// `simulator`, `cuda`, `command:PROGRAM`.
    pub name: String,
    /// The implementation's own version words (driver version, program
    /// output...).
    pub version: String,
    /// The highest PTX ISA version it accepts (`8.7`).
    pub ptx_version: String,
    /// The targets it runs (`sm_90`).
    pub targets: Vec<String>,
    /// Anything else it declares (device name, library path...).
    #[serde(default)]
    pub details: BTreeMap<String, String>,
}

/// The suite that ran.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct SuiteInfo {
    /// Where it was read from.
    pub path: String,
    pub seed: u64,
    /// The program and version that generated it.
    pub generator: String,
    pub groups: usize,
    pub cases: u64,
}

/// Case counts by status.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq, Default)]
pub struct Counts {
    pub pass: u64,
    pub fail: u64,
    pub skip: u64,
    pub error: u64,
    /// Cases that differ from the spec's expectation exactly as a
    /// documented divergence of the implementation says (`--known`).
    #[serde(default)]
    pub known: u64,
}

impl Counts {
    pub fn total(&self) -> u64 {
        self.pass + self.fail + self.skip + self.error + self.known
    }

    pub fn add(&mut self, status: Status, n: u64) {
        match status {
            Status::Pass => self.pass += n,
            Status::Fail => self.fail += n,
            Status::Skip => self.skip += n,
            Status::Error => self.error += n,
            Status::Known => self.known += n,
        }
    }

    pub fn merge(&mut self, other: &Counts) {
        self.pass += other.pass;
        self.fail += other.fail;
        self.skip += other.skip;
        self.error += other.error;
        self.known += other.known;
    }
}

/// How a case ended.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Every bit outside the mask is as expected.
    Pass,
    /// Some bit outside the mask differs.
    Fail,
    /// The implementation does not claim the case's PTX version or target,
    /// or the case was not selected.
    Skip,
    /// The implementation could not run the group: it rejected the PTX,
    /// crashed, or ran past the timeout.
    Error,
    /// Differs from the spec's expectation exactly as a documented
    /// divergence of the implementation says (`conform run --known`).
    Known,
}

/// One group of the suite.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GroupResult {
    /// The group's id in the suite manifest (`cvt.rn.f16.f32/edge`).
    pub id: String,
    pub family: String,
    /// The instruction form (`cvt.rn.f16.f32`).
    pub form: String,
    /// The PTX ISA section (`9.7.9.21`).
    pub section: String,
    /// `hardware` when the expectations were seen on a GPU, `spec` when
    /// they come from the spec text alone.
    pub provenance: String,
    pub counts: Counts,
    /// Why the group was skipped or could not run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Seconds the implementation took for the group.
    pub seconds: f64,
    /// The first failures (at most the runner's limit per group).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failures: Vec<CaseFailure>,
    /// Digests of the group's input buffer and of the implementation's
    /// output with the don't-care bits cleared (hex, 64-bit), when it ran:
    /// two runs on the same suite produced the same compared bits exactly
    /// when their output digests agree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digests: Option<Digests>,
    /// `undefined` for a group whose cases the spec leaves undefined (the
    /// suite's `expect: undefined`): it runs only when asked, and a case
    /// passes when the implementation reports the undefined behaviour.
    /// Absent for the others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<String>,
    /// For such a group that ran: what the implementation reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detected: Option<String>,
}

/// See [`GroupResult::digests`].
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Digests {
    pub input: String,
    pub output: String,
}

/// One failing case.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CaseFailure {
    /// `GROUP#INDEX`.
    pub case: String,
    /// Each input field, `name = hex (decoded)`.
    pub inputs: Vec<Field>,
    pub expected: Vec<Field>,
    pub actual: Vec<Field>,
    /// The don't-care mask of the output row, hex (1 bits are not
    /// compared).
    pub mask: String,
}

/// A named value.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Field {
    pub name: String,
    /// `0x...`.
    pub hex: String,
    /// The value in words (`1.5`, `-inf`, `nan`, `-3`), when the field's
    /// type has a reading other than its bits.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub decoded: String,
}

/// What an expected output field asks for (docs/results-schema.md). Most
/// fields expect their bits (outside the mask); the approximate
/// floating-point instructions' fields expect a value within a bound, said
/// in the field's `decoded` words so that every reader of
/// `ptx-conform-results/1` shows it: `within [LO .. HI]` (each end `0x...`
/// with its value in parentheses; `hex` holds the correctly rounded exact
/// result) or `any NaN`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expectation {
    /// The bits in `hex`, outside the mask.
    Bits,
    /// Any non-NaN value from `lo` to `hi` (in the order `-inf < ... < -0.0
    /// < +0.0 < ... < +inf`), each end as written (`0x3f7ffffe (0.99999988)`).
    Within { lo: String, hi: String },
    /// Any NaN.
    AnyNan,
}

/// The words of [`Expectation::AnyNan`].
pub const ANY_NAN: &str = "any NaN";

impl Field {
    /// An expected field that asks for a value within `[lo, hi]` (each end
    /// as `0x... (value)`), `hex` the nominal value.
    pub fn within(name: &str, hex: String, lo: &str, hi: &str) -> Field {
        Field {
            name: name.to_string(),
            hex,
            decoded: format!("within [{lo} .. {hi}]"),
        }
    }

    /// An expected field that asks for any NaN.
    pub fn any_nan(name: &str, hex: String) -> Field {
        Field {
            name: name.to_string(),
            hex,
            decoded: ANY_NAN.to_string(),
        }
    }

    /// What this field, read as an expected value, asks for.
    pub fn expectation(&self) -> Expectation {
        if self.decoded == ANY_NAN {
            return Expectation::AnyNan;
        }
        self.decoded
            .strip_prefix("within [")
            .and_then(|s| s.strip_suffix(']'))
            .and_then(|s| s.split_once(" .. "))
            .map_or(Expectation::Bits, |(lo, hi)| Expectation::Within {
                lo: lo.to_string(),
                hi: hi.to_string(),
            })
    }
}

#[cfg(test)]
mod expectation_tests {
    use super::*;

    #[test]
    fn expectations_read_back() {
        let w = Field::within(
            "d",
            "0x3f800000".into(),
            "0x3f7ffffe (0.99999988)",
            "0x3f800002 (1.0000002)",
        );
        assert_eq!(
            w.expectation(),
            Expectation::Within {
                lo: "0x3f7ffffe (0.99999988)".into(),
                hi: "0x3f800002 (1.0000002)".into()
            }
        );
        assert_eq!(
            Field::any_nan("d", "0x7fffffff".into()).expectation(),
            Expectation::AnyNan
        );
        let plain = Field {
            name: "d".into(),
            hex: "0x1".into(),
            decoded: "1.5".into(),
        };
        assert_eq!(plain.expectation(), Expectation::Bits);
    }
}
