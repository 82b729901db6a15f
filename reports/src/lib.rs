//! The results of a conformance run, as data with a documented JSON schema
//! (`docs/results-schema.md`), and their renderings: an HTML report to
//! read, Markdown for reviews, JUnit XML for CI.
//!
//! Reading and writing files is here too ([`load`], [`write_atomic`]);
//! running a suite and the command line are the conformance crate's.
#![forbid(unsafe_code)]

pub mod file;
pub mod render;
pub mod results;

pub use file::{load, parse, write_atomic, Error};
pub use results::{
    CaseFailure, Counts, Digests, Field, GroupResult, Implementation, Results, Status, SuiteInfo,
    SCHEMA,
};
