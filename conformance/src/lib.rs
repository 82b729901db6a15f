//! The `conform` command's library: checking files, the ptxas legality
//! corpus, and (as they arrive) suites, adapters and runs.

pub mod baseline;
pub mod check;
pub mod cvt_hw;
pub mod cvt_hw_cmd;
pub mod eval;
pub mod eval_reg;
pub mod exec;
pub mod exhaustive;
pub mod input;
pub mod legality;
pub mod legality_cmd;
pub mod litmus_cmd;
pub mod litmus_gen;
pub mod litmus_run;
pub mod report_cmd;
pub mod run;
pub mod suite_cmd;
#[cfg(feature = "ub")]
pub mod ub_cmd;
