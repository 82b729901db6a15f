//! PTX syntax, the instruction catalogue of PTX ISA 9.7.9, the static
//! checker, and (as it arrives) the meaning of each instruction. Pure
//! functions, no I/O.
#![forbid(unsafe_code)]

pub mod arith;
mod call_rules;
pub mod catalogue;
pub mod check;
pub mod cvt;
pub mod gates;
pub mod mbarrier;
pub mod opcodes;
pub mod precond;
pub mod ptx;
pub mod sim;
pub mod tensor;
