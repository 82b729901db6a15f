//! A CUDA driver library (`libcuda.so`) whose one device is the model's
//! simulator: programs and test suites that speak the driver API run their
//! kernels on the executable PTX semantics, and learn where they reach
//! undefined behaviour. Kernels come as PTX text, alone or in a fat binary
//! nvcc made (`fatbin`), are checked as ptxas would for sm_90 (`module`),
//! and run on `ptx_semantics::sim` when launched, one launch at a time and
//! to its end (`launch`); device memory is a set of allocations in the
//! global part of the sm_90 window profile (`memory`). docs/libcuda.md
//! lists the entry points and the settings.

mod api;
pub mod config;
pub mod copy;
pub mod device;
pub mod enumerate;
pub mod fatbin;
mod host;
pub mod launch;
pub mod legacy;
pub mod link;
pub mod memory;
pub mod module;
pub mod occupancy;
pub mod pointer;
pub mod procs;
mod state;
mod tensor;
pub mod types;

pub use api::*;
pub use copy::*;
pub use enumerate::*;
pub use legacy::*;
pub use link::*;
pub use occupancy::*;
pub use pointer::*;

/// What `cuDriverGetVersion` reports: CUDA 12.8, whose PTX ISA (8.7) is the
/// newest the simulator claims.
pub const DRIVER_VERSION: std::ffi::c_int = 12080;
