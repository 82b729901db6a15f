//! Helpers shared by the checker's probe tests.

pub mod probes;
