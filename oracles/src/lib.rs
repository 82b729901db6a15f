//! Independent oracles for the conversion model (`ptx_semantics::cvt`):
//! IEEE 754 rounding from Z3's floating-point theory and from
//! rustc_apfloat, with PTX's own rules (NaN results, `.sat`, `.relu`,
//! `.satfinite`, `.ftz`, integer clamping, narrow formats, `.rs`, lane
//! order) written afresh from PTX ISA 9.7.9.21 and 9.7.9.22. Nothing here
//! calls the model except its public evaluation entry, which is the thing
//! under test; formats, rounding and rules are declared again.
//!
//! `format` is the oracle's format table, `engine` the IEEE interface,
//! `ptx` the rules, `forms` the catalogue's forms as the oracle reads them,
//! `inputs` the vectors, `check` the comparison.

pub mod apfloat_engine;
pub mod check;
pub mod engine;
pub mod format;
pub mod forms;
pub mod inputs;
pub mod ptx;
#[cfg(feature = "z3")]
pub mod z3_arith;
#[cfg(feature = "z3")]
pub mod z3_engine;
