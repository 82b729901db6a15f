//! The PTX litmus language: reading and writing litmus tests in the format of
//! the Dat3M PTX tests (init block with locations, registers and proxy
//! aliases; threads placed by `P0@cta 0,gpu 0`; loads, stores, atomics,
//! reductions, fences, proxy fences, CTA barriers, labels and branches;
//! `exists`, `~exists` and `forall` conditions), extended with cluster
//! placement and scope, shared-memory locations, mbarriers and the
//! asynchronous copies of PTX ISA 9.7.9.25 (`cp.async`, `cp.async.bulk`,
//! `st.async`), tensor copies with their tensor map, `tensormap.replace` and
//! `fence.proxy.tensormap::generic`. What the instructions mean is left to
//! `ptx-memmodel`.
#![forbid(unsafe_code)]

pub mod ast;
pub mod gen;
mod instr;
pub mod parser;
pub mod printer;

pub use ast::*;
pub use parser::{parse, ParseError};
pub use printer::print;
