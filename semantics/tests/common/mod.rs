//! Helpers shared by the checker's tests; each test crate uses a part.
#![allow(dead_code)]

pub mod cases;
pub mod probes;
