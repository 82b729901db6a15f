//! Test vectors for conformance cases and hardware baselines: edge cases
//! per format and instruction, seeded random inputs, and exhaustive sweeps.
//! Generation is deterministic: the same seed gives the same vectors.
#![forbid(unsafe_code)]

pub mod cvt;
pub mod cvt_forms;
pub mod rng;
pub mod suite;
