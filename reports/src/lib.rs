//! The results of a conformance run, as data with a documented JSON schema
//! (`docs/results-schema.md`), and their renderings: an HTML report to
//! read, Markdown for reviews, JUnit XML for CI.
#![forbid(unsafe_code)]

pub mod results;

pub use results::{
    CaseFailure, Counts, Field, GroupResult, Implementation, Results, Status, SuiteInfo, SCHEMA,
};
