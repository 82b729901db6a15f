//! The `conform` command's library: checking files, the ptxas legality
//! corpus, and (as they arrive) suites, adapters and runs.

pub mod check;
pub mod legality;
pub mod legality_cmd;
pub mod litmus_cmd;
