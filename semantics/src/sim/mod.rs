//! The simulator: the meaning of PTX ISA 9.7.9's register and memory
//! instructions as pure functions, the generic-address model, and a kernel
//! interpreter that runs whole kernels over a grid of clusters, CTAs, warps
//! and threads. Conversions (`cvt`) live with the conversion semantics;
//! the memory consistency model lives in `ptx-memmodel`: the interpreter
//! runs one sequentially consistent interleaving, chosen deterministically.
//!
//! Results follow the project's rule that undefined is a value: a defined
//! result, an [`Undefined`] naming the spec clause, or a [`Partial`] value
//! with a mask of unspecified bits.

mod alu;
pub mod arith;
pub mod cuda;
mod decode;
pub mod explore;
pub mod launch;
mod machine;
mod memory;
pub mod pack;
pub mod prmt;
pub mod program;
pub mod reduce;
pub mod shfl;
pub mod space;
pub mod undefined;
pub mod video;
pub mod vote;
pub mod window;

pub use decode::{prepare, prepare_lenient, LoadError};
pub use explore::{explore, Explored};
pub use launch::{
    Arg, BufferOut, Launch, LaunchError, Multicast, Outcome, Report, Schedule, StopKind, ThreadId,
};
pub use machine::{run, run_owned, run_parallel, run_parallel_how, Parallel, CALL_DEPTH_LIMIT};
pub use pack::{mov_pack, mov_unpack};
pub use prmt::{prmt, PrmtMode};
pub use program::{ParamInfo, Program};
pub use shfl::{shfl, shfl_sync, ShflLane, ShflMode, ShflOut};
pub use space::Space;
pub use undefined::{Effect, Partial, Undefined};
pub use vote::{warp_sync, ReduxOp, VoteMode, WarpLane, WarpOp, WarpOut};
pub use window::{Place, WindowProfile};
