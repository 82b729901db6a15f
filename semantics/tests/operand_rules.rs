//! Operand rules probed with ptxas 13.0 for sm_90 on small modules
//! (`tests/data/operand_rules`, with ptxas's exit status and message in
//! `verdicts.tsv`): the generic `prefetch.tensormap` refuses a `.const` or
//! `.param` variable's name ("State space mismatch between instruction and
//! address") and takes a `.global` one; the forms that name the space take
//! them; a predicated `ld.param`, repeated registers in a vector
//! destination (`{%r1, %r1}`: undefined by PTX ISA 6.4.3, accepted by
//! ptxas) are accepted; a vector of sinks only is refused. The checker must
//! give ptxas's verdict on each.

mod common;

#[test]
fn operands_get_ptxas_verdicts() {
    common::probes::agree_with_ptxas("operand_rules", 13);
}
