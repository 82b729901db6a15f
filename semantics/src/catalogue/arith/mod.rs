//! Rows for the arithmetic, comparison and logic instructions of PTX ISA
//! chapter 9.7 outside 9.7.9: integer (9.7.1), extended precision (9.7.2),
//! floating point (9.7.3), half precision (9.7.4), comparison and selection
//! (9.7.6), logic and shift (9.7.7), the atomic and reduction
//! operations `atom` (9.7.13.5) and `red` (9.7.13.6; not `red.async`,
//! which the checker keeps out of these rows), and the synchronisation
//! instructions `bar`/`barrier` (9.7.13.1-3), `membar`/`fence` (9.7.13.4)
//! and `mbarrier` (9.7.13.15; not `cp.async.mbarrier.arrive`). Same notation as the 9.7.9 rows (see
//! the parent module), kept in a catalogue of their own so that the
//! generator, the simulator and the 9.7.9 coverage tests, which read
//! [`Catalogue::get`], see no change; the checker reads both.
//!
//! A form missing here would be a false positive of `conform check`, so
//! where the manual and ptxas 13.0 differ the rows side with what ptxas
//! accepts (corpus/legality/arith holds ptxas's verdicts).

mod atomic;
mod compare;
mod extended;
mod float;
mod half;
mod integer;
mod logic;
mod sync;

use super::{Catalogue, NotationError, Row};
use std::sync::OnceLock;

/// Every family's rows.
pub static ALL: &[&[Row]] = &[
    integer::ROWS,
    extended::ROWS,
    float::ROWS,
    &float::ADD,
    &float::SUB,
    &float::MUL,
    half::ROWS,
    &half::ADD,
    &half::SUB,
    &half::MUL,
    compare::ROWS,
    logic::ROWS,
    // Last, so that the arithmetic legality corpus keeps its order and
    // seeds for the families above.
    atomic::ATOM,
    atomic::RED,
    // After the atomics, for the same reason.
    sync::ARRIVE,
    sync::ARRIVE_DROP,
    sync::MBARRIER_ROWS,
    sync::FENCE,
    sync::BAR,
];

/// The instructions these rows cover, as the manual names them (the
/// `instr` of each row), for coverage.
pub static INSTRUCTIONS: &[&str] = &[
    // 9.7.1
    "add",
    "sub",
    "mul",
    "mad",
    "mul24",
    "mad24",
    "sad",
    "div",
    "rem",
    "abs",
    "neg",
    "min",
    "max",
    "popc",
    "clz",
    "bfind",
    "fns",
    "brev",
    "bfe",
    "bfi",
    "szext",
    "bmsk",
    "dp4a",
    "dp2a",
    // 9.7.2
    "add.cc",
    "addc",
    "sub.cc",
    "subc",
    "mad.cc",
    "madc",
    // 9.7.3 (and 9.7.4 for the half-precision forms of the same names)
    "testp",
    "copysign",
    "fma",
    "rcp",
    "rcp.approx.ftz.f64",
    "sqrt",
    "rsqrt",
    "rsqrt.approx.ftz.f64",
    "sin",
    "cos",
    "lg2",
    "ex2",
    "tanh",
    // 9.7.6
    "set",
    "setp",
    "selp",
    "slct",
    // 9.7.7
    "and",
    "or",
    "xor",
    "not",
    "cnot",
    "lop3",
    "shf",
    "shl",
    "shr",
    // 9.7.13.5, 9.7.13.6 (PTX ISA 9.0's numbering)
    "atom",
    "red",
    // 9.7.13.1-9.7.13.4
    "bar",
    "barrier",
    "bar.warp.sync",
    "barrier.cluster",
    "membar",
    "fence",
    // 9.7.13.15 (not cp.async.mbarrier.arrive, whose first word is `cp`)
    "mbarrier.init",
    "mbarrier.inval",
    "mbarrier.expect_tx",
    "mbarrier.complete_tx",
    "mbarrier.arrive",
    "mbarrier.arrive_drop",
    "mbarrier.test_wait",
    "mbarrier.try_wait",
    "mbarrier.pending_count",
];

/// The arithmetic catalogue, parsed once (rows with a notation error are
/// left out and reported by [`errors`]; a unit test keeps that empty).
pub fn catalogue() -> &'static Catalogue {
    static CAT: OnceLock<Catalogue> = OnceLock::new();
    CAT.get_or_init(|| Catalogue::from_rows(ALL))
}

/// Notation errors of every row.
pub fn errors() -> Vec<NotationError> {
    Catalogue::row_errors(ALL)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_parses() {
        let errors = errors();
        assert!(errors.is_empty(), "{errors:#?}");
    }

    #[test]
    fn ids_are_unique_and_sections_are_outside_9_7_9() {
        let sections = [
            "9.7.1.",
            "9.7.2.",
            "9.7.3.",
            "9.7.4.",
            "9.7.5.",
            "9.7.6.",
            "9.7.7.",
            "9.7.13.5",
            "9.7.13.6",
            "9.7.13.1",
            "9.7.13.2",
            "9.7.13.3",
            "9.7.13.4",
            "9.7.13.15.",
        ];
        let mut ids: Vec<&str> = ALL.iter().flat_map(|f| f.iter()).map(|r| r.id).collect();
        ids.sort();
        let before = ids.len();
        ids.dedup();
        assert_eq!(before, ids.len(), "duplicate row ids");
        for row in ALL.iter().flat_map(|f| f.iter()) {
            assert!(
                sections.iter().any(|s| row.section.starts_with(s)),
                "{} cites {}",
                row.id,
                row.section
            );
            assert!(
                INSTRUCTIONS.contains(&row.instr),
                "{}: {}",
                row.id,
                row.instr
            );
        }
    }

    /// Every instruction of the list has a row, and no opcode is shared
    /// with the 9.7.9 catalogue (the checker asks that one first).
    #[test]
    fn every_instruction_has_a_row_and_no_opcode_is_shared() {
        let cat = catalogue();
        for name in INSTRUCTIONS {
            assert!(
                cat.forms.iter().any(|f| f.row.instr == *name),
                "no row for {name}"
            );
        }
        for f in &cat.forms {
            assert!(
                !Catalogue::get().knows_opcode(&f.opcode),
                "{} is also a 9.7.9 opcode",
                f.opcode
            );
            assert!(crate::opcodes::is_ptx_opcode(&f.opcode), "{}", f.opcode);
        }
    }
}
