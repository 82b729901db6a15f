//! The meaning of PTX's arithmetic, logic and comparison instructions as
//! pure functions on register bits: integer arithmetic (PTX ISA 9.7.1),
//! extended precision (9.7.2), logic and shift (9.7.8) in `int.rs`;
//! floating point (9.7.3), half precision (9.7.4) and the comparisons of
//! `setp`/`selp`/`testp` (9.7.7) in `float.rs` and `compare.rs`. Operands
//! and results are `u64`s holding the low bits of the register; decoding
//! instructions and reading registers are the simulator's business.
//!
//! Where the spec leaves a value unspecified, the function still returns
//! bits (our choice, documented) and says so: integer results through
//! [`IntResult::unspecified`], float results through
//! [`float::FpResult::unspecified`] (a don't-care mask).

pub mod approx;
pub mod compare;
pub mod float;
pub mod int;
pub mod video;

/// A result the spec may leave open: `bits` is the value we give, and
/// `unspecified` the clause that leaves it open, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntResult {
    pub bits: u64,
    pub unspecified: Option<&'static str>,
}

impl IntResult {
    /// A defined result.
    pub const fn defined(bits: u64) -> IntResult {
        IntResult {
            bits,
            unspecified: None,
        }
    }
}

/// The condition code's carry flag `CC.CF` (PTX ISA 9.7.2): "The condition
/// code register is not accessible directly"; it carries out of `add.cc`,
/// `sub.cc`, `mad.cc` and into `addc`, `subc`, `madc`. After a subtraction
/// it holds the borrow, as `subc` reads it ("`d = a - (b + CC.CF)`"); the
/// text does not say what "carry-out" `sub.cc` writes. sm_90 differs in
/// mixed chains only: there `sub.cc` leaves the carry of `a + ~b + 1` (not
/// the borrow) and `subc` computes `a + ~b + CC.CF`, so `add.cc` then `subc`,
/// or `sub.cc` then `addc`, give other values than the text's formulas;
/// pure `add`/`addc` and `sub`/`subc` chains agree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Carry(pub bool);
