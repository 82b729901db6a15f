//! The checker's call rules (`call` against its callee, prototype or
//! targets; `.callprototype` and `.calltargets` themselves) on the small
//! modules given to ptxas 13.0 for sm_90 (`tests/data/call_rules`, with
//! ptxas's exit status and message in `verdicts.tsv`): the checker must
//! accept what ptxas accepts and refuse what it refuses.

mod common;

#[test]
fn calls_get_ptxas_verdicts() {
    common::probes::agree_with_ptxas("call_rules", 34);
}
