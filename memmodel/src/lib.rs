//! The PTX memory consistency model (PTX ISA chapter 8) as an executable
//! axiomatic checker: a litmus test becomes candidate executions (events,
//! program order, reads-from, coherence order and the orders the model
//! leaves open), the axioms keep the consistent ones, and the verdict says
//! whether the test's outcome is reachable, with a witness: an execution
//! when it is, the axioms each candidate breaks when it is not. Two models:
//! PTX 6.0 (no proxies) and PTX 7.5 with proxies, the latter extended here
//! to cluster scope, the async proxy, the tensormap proxy (tensor copies
//! read their map in it; `tensormap.replace` is a weak generic write;
//! `fence.proxy.tensormap::generic` orders the two) and asynchronous
//! completion. Pure: no I/O.
#![forbid(unsafe_code)]

pub mod barrier;
pub mod event;
pub mod model;
pub mod program;
pub mod rel;
pub mod search;
pub mod thread;
pub mod witness;

pub use model::{Axiom, Model, Violation};
pub use program::{ModelError, Program};
pub use search::{
    check, check_bounded, explain, explain_bounded, outcomes, Execution, Outcomes, Verdict,
};
