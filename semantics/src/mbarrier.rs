//! The mbarrier object of PTX ISA 9.7.13.15, as one pure state machine that
//! the simulator, the memory model and the undefined-behaviour checker all
//! call. No I/O, no memory ordering: only the counts and the phase, and the
//! rules of the spec that a sequence of operations on one object can break.
//!
//! Section numbers are those of the PTX ISA 8.x documents, where mbarrier is
//! 9.7.13.15 (later documents renumber it and add `.layout::v1` and
//! conditional phases, which this module does not model).
//!
//! What the object holds (9.7.13.15.2, "Contents of the mbarrier object"):
//! "Current phase of the mbarrier object; Count of pending arrivals for the
//! current phase of the mbarrier object; Count of expected arrivals for the
//! next phase of the mbarrier object; Count of pending asynchronous memory
//! operations (or transactions) tracked by the current phase of the mbarrier
//! object. This is also referred to as tx-count." With the valid ranges:
//!
//! | Count name             | Minimum value | Maximum value |
//! |------------------------|---------------|---------------|
//! | Expected arrival count | 1             | 2^20 - 1      |
//! | Pending arrival count  | 0             | 2^20 - 1      |
//! | tx-count               | -(2^20 - 1)   | 2^20 - 1      |
//!
//! Interpretation (not stated by the ISA): the spec gives these as "the
//! valid range of each of the counts" and says nothing of what happens
//! outside them (except for `cp.async.mbarrier.arrive`, 9.7.13.15.15, which
//! calls exceeding the limit undefined). This module treats any operation
//! that would take a count outside its range as undefined behaviour: an
//! arrive-on by more than the pending count, an `arrive_drop` that would
//! lower the expected count below 1, an expect-tx or complete-tx that would
//! take the tx-count past ±(2^20 - 1).
//!
//! Phase completion (9.7.13.15.6): "An mbarrier object completes the current
//! phase when all of the following conditions are met: The count of the
//! pending arrivals has reached zero. The tx-count has reached zero." and
//! then "The mbarrier object transitions to the next phase. The pending
//! arrival count is reinitialized to the expected arrival count." The
//! tx-count is zero at that moment, so it stays zero.
//!
//! Interpretation (not stated by the ISA): completion is checked once, at
//! the end of each operation, after every one of its steps (so the
//! expect-tx step of `arrive.expect_tx` never completes a phase on its own:
//! the instruction is one atomic update of the object). The standalone
//! expect-tx operation (9.7.13.15.5.1) does not list "potentially completing
//! the current phase" as the arrive-on and complete-tx operations do; it is
//! checked too, because the completion conditions are conditions on the
//! counts: after `complete_tx 16; arrive` (pending 0, tx -16) an
//! `expect_tx 16` meets them, and a phase that met them and did not
//! complete could never complete (any later arrive-on or complete-tx would
//! leave a valid range). After every successful operation the completion
//! conditions therefore do not hold.
//!
//! Every operation either succeeds or returns [`Undefined`] and leaves the
//! object as it was, so a caller can report and stop (or go on, at its own
//! risk, with the state before the faulty operation).

use std::fmt;

/// The largest expected and pending arrival count, and the largest `count`
/// operand of `mbarrier.init`, `mbarrier.arrive` and `mbarrier.arrive_drop`:
/// 2^20 - 1 (9.7.13.15.2; 9.7.13.15.9: "The valid range of values for the
/// operand count is [1, …, 2^20 - 1].").
pub const MAX_COUNT: u32 = (1 << 20) - 1;

/// The largest tx-count: 2^20 - 1 (9.7.13.15.2).
pub const TX_MAX: i64 = (1 << 20) - 1;

/// The smallest tx-count: -(2^20 - 1) (9.7.13.15.2).
pub const TX_MIN: i64 = -TX_MAX;

/// The undefined-behaviour answer: the section of the PTX ISA and the rule,
/// quoted from it (the table of 9.7.13.15.2 is quoted by its row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Undefined {
    pub section: &'static str,
    pub rule: &'static str,
}

impl Undefined {
    /// Any operation but `init` on a location that never held one.
    pub const UNINITIALIZED: Undefined = Undefined {
        section: "9.7.13.15",
        rule: "Performing any mbarrier operation except mbarrier.init on an uninitialized \
               mbarrier object results in undefined behavior.",
    };
    /// Any operation but `init` after `inval`.
    pub const NO_VALID_OBJECT: Undefined = Undefined {
        section: "9.7.13.15.10",
        rule: "Performing any mbarrier operation except mbarrier.init on a memory location \
               that does not contain a valid mbarrier object, results in undefined behaviour.",
    };
    /// `init` on a location that holds a valid mbarrier object.
    pub const INIT_ON_VALID: Undefined = Undefined {
        section: "9.7.13.15.9",
        rule: "The behavior of performing an mbarrier.init operation on a memory location \
               containing a valid mbarrier object is undefined; invalidate the mbarrier object \
               using mbarrier.inval first, before repurposing the memory location for any other \
               purpose, including another mbarrier object.",
    };
    /// A load, store or atomic (anything but an mbarrier operation) on a
    /// valid mbarrier object.
    pub const NON_MBARRIER_ACCESS: Undefined = Undefined {
        section: "9.7.13.15",
        rule: "Performing any non-mbarrier or mbarrier.init operations on an initialized \
               mbarrier object results in undefined behavior.",
    };
    /// `init` with a count outside [1, 2^20 - 1].
    pub const INIT_COUNT: Undefined = Undefined {
        section: "9.7.13.15.9",
        rule: "The valid range of values for the operand count is [1, …, 2^20 - 1].",
    };
    /// `arrive` with a count outside [1, 2^20 - 1].
    pub const ARRIVE_COUNT: Undefined = Undefined {
        section: "9.7.13.15.13",
        rule: "The value of the operand count must be in the range as specified in Contents of \
               the mbarrier object.",
    };
    /// `arrive_drop` with a count outside [1, 2^20 - 1].
    pub const ARRIVE_DROP_COUNT: Undefined = Undefined {
        section: "9.7.13.15.14",
        rule: "The value of the operand count must be in the range as specified in Contents of \
               the mbarrier object.",
    };
    /// An arrive-on by more than the pending count.
    pub const PENDING_RANGE: Undefined = Undefined {
        section: "9.7.13.15.2",
        rule: "The valid range of each of the counts is as shown below: Pending arrival count: \
               minimum value 0, maximum value 2^20 - 1.",
    };
    /// An `arrive_drop` that would lower the expected count below 1.
    pub const EXPECTED_RANGE: Undefined = Undefined {
        section: "9.7.13.15.2",
        rule: "The valid range of each of the counts is as shown below: Expected arrival count: \
               minimum value 1, maximum value 2^20 - 1.",
    };
    /// An expect-tx or complete-tx that would take the tx-count (or whose
    /// operand is) outside ±(2^20 - 1).
    pub const TX_RANGE: Undefined = Undefined {
        section: "9.7.13.15.2",
        rule: "The valid range of each of the counts is as shown below: tx-count: minimum value \
               -(2^20 - 1), maximum value 2^20 - 1.",
    };
    /// `arrive.noComplete` that completes the phase.
    pub const NO_COMPLETE_ARRIVE: Undefined = Undefined {
        section: "9.7.13.15.13",
        rule: "A mbarrier.arrive operation with .noComplete qualifier must not cause the \
               mbarrier to complete its current phase, otherwise the behavior is undefined.",
    };
    /// `arrive_drop.noComplete` that completes the phase.
    pub const NO_COMPLETE_ARRIVE_DROP: Undefined = Undefined {
        section: "9.7.13.15.14",
        rule: "A mbarrier.arrive_drop with .noComplete qualifier must not complete the \
               mbarrier, otherwise the behavior is undefined.",
    };
    /// The implicit increment of `cp.async.mbarrier.arrive` past 2^20 - 1.
    pub const INC_PENDING: Undefined = Undefined {
        section: "9.7.13.15.15",
        rule: "The pending count of the mbarrier object after the increment should not exceed \
               the limit as mentioned in Contents of the mbarrier object. Otherwise, the \
               behavior is undefined.",
    };
    /// A `test_wait`/`try_wait` on a `state` of a phase that is neither the
    /// current one nor the one before it.
    pub const WAIT_PHASE: Undefined = Undefined {
        section: "9.7.13.15.16",
        rule: "The test_wait and try_wait operations are valid only for: the current incomplete \
               phase, for which waitComplete returns False. the immediately preceding phase, for \
               which waitComplete returns True.",
    };
    /// A `.parity` wait whose operand is neither 0 nor 1.
    pub const PARITY_VALUE: Undefined = Undefined {
        section: "9.7.13.15.16",
        rule: "An even phase has integer parity 0 and an odd phase has integer parity of 1. So \
               the valid values of phaseParity operand are 0 and 1.",
    };
    /// `pending_count` of a `state` not returned by a `.noComplete` form.
    pub const PENDING_COUNT_STATE: Undefined = Undefined {
        section: "9.7.13.15.17",
        rule: "The state operand is a 64-bit register that must be the result of a prior \
               mbarrier.arrive.noComplete or mbarrier.arrive_drop.noComplete instruction. \
               Otherwise, the behavior is undefined.",
    };
    /// An arrive-on in a phase whose preceding phase no wait has seen
    /// complete (checked only under [`WaitRule::Enforced`]).
    pub const WAIT_BEFORE_NEXT_ARRIVE: Undefined = Undefined {
        section: "9.7.13.15.4",
        rule: "For each phase of the mbarrier object, at least one test_wait or try_wait \
               operation must be performed which returns True for waitComplete before an \
               arrive-on operation in the subsequent phase.",
    };
}

impl fmt::Display for Undefined {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "undefined behaviour (PTX ISA {}): {}",
            self.section, self.rule
        )
    }
}

impl std::error::Error for Undefined {}

/// One operation on the 8-byte location of an mbarrier object.
///
/// `tx` operands are in "units specified by the asynchronous memory
/// operation" (9.7.13.15.5): bytes for every `.mbarrier::complete_tx::bytes`
/// instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// `mbarrier.init [addr], count` (9.7.13.15.9): "Initializing the current
    /// phase to 0. Initializing the expected arrival count to count.
    /// Initializing the pending arrival count to count. Initializing the
    /// tx-count to 0."
    Init { count: u32 },
    /// `mbarrier.inval [addr]` (9.7.13.15.10): the location no longer holds
    /// a valid mbarrier object.
    Inval,
    /// `mbarrier.arrive{.noComplete} state, [addr]{, count}` (9.7.13.15.13):
    /// an arrive-on operation by `count` (1 when the operand is absent).
    Arrive { count: u32, no_complete: bool },
    /// `mbarrier.arrive_drop{.noComplete} state, [addr]{, count}`
    /// (9.7.13.15.14): "Decrements the expected arrival count of the
    /// mbarrier object by the value specified by the 32-bit integer operand
    /// count. [...] Performs an arrive-on operation on the mbarrier object."
    ArriveDrop { count: u32, no_complete: bool },
    /// `mbarrier.arrive.expect_tx state, [addr], txCount` (9.7.13.15.13):
    /// "an expect-tx operation is performed prior to the arrive-on
    /// operation. [...] When both qualifiers .arrive and .expect_tx are
    /// specified, then the count argument of the arrive-on operation is
    /// assumed to be 1." (So there is no count operand.)
    ArriveExpectTx { tx: u32 },
    /// `mbarrier.arrive_drop.expect_tx state, [addr], tx_count`
    /// (9.7.13.15.14): expect-tx, then the decrement of the expected count
    /// by 1, then an arrive-on by 1.
    ArriveDropExpectTx { tx: u32 },
    /// `mbarrier.expect_tx [addr], txCount` (9.7.13.15.11) and the
    /// expect-tx operation (9.7.13.15.5.1): "increases the tx-count of an
    /// mbarrier object by the value specified by expectCount".
    ExpectTx { tx: u32 },
    /// `mbarrier.complete_tx [addr], txCount` (9.7.13.15.12), or the
    /// complete-tx that an asynchronous operation with
    /// `.mbarrier::complete_tx::bytes` performs on completion (9.7.13.15.5.2):
    /// "tx-count is decremented by completeCount", then the phase may
    /// complete.
    CompleteTx { tx: u32 },
    /// The first half of `cp.async.mbarrier.arrive` without `.noinc`
    /// (9.7.13.15.15): "the pending count of the mbarrier object is
    /// incremented by 1 prior to the asynchronous arrive-on operation".
    IncPending,
    /// The arrive-on by 1 that "the system" triggers for
    /// `cp.async.mbarrier.arrive{.noinc}` once the thread's prior `cp.async`
    /// operations complete (9.7.13.15.15). It returns no `state`.
    AsyncArrive,
}

/// The opaque 64-bit `state` that `mbarrier.arrive` and
/// `mbarrier.arrive_drop` return.
///
/// The hardware's encoding is not specified ("Contents of the state operand
/// are implementation specific", 9.7.13.15.13); the spec says only that it
/// captures "the phase of the mbarrier object prior to the arrive-on
/// operation", and, for the `.noComplete` forms, that `pending_count` can
/// read "the pending count of the mbarrier object prior to the arrive-on
/// operation" from it (9.7.13.15.17). This module's own encoding:
///
/// - bits 0..=31: the phase the arrive-on happened in (the count of phases
///   completed before it, modulo 2^32);
/// - bits 32..=51: the pending arrival count just before the arrive-on
///   (after the expected-count decrement of `arrive_drop`, which does not
///   change it);
/// - bit 63: set when the state came from a `.noComplete` form, the only
///   states `pending_count` accepts;
/// - the other bits are zero.
///
/// A state does not name the object it came from: a caller that must catch
/// a `state` "returned by an mbarrier.arrive instruction on" another object
/// (9.7.13.15.16) keeps the object's address (and its `init` count) beside
/// it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State(u64);

impl State {
    const PENDING_SHIFT: u32 = 32;
    const NO_COMPLETE: u64 = 1 << 63;

    /// The register's bits.
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// A state from a register's bits (any bits: a program may pass a
    /// register that no arrive wrote; only the phase and the flag matter).
    pub const fn from_bits(bits: u64) -> State {
        State(bits)
    }

    /// The phase the arrive-on happened in (modulo 2^32).
    pub const fn phase(self) -> u32 {
        self.0 as u32
    }

    /// `mbarrier.pending_count`: see [`pending_count`].
    pub fn pending_count(self) -> Result<u32, Undefined> {
        if self.0 & State::NO_COMPLETE == 0 {
            return Err(Undefined::PENDING_COUNT_STATE);
        }
        Ok((self.0 >> State::PENDING_SHIFT) as u32 & MAX_COUNT)
    }

    fn new(phase: u32, pending: u32, no_complete: bool) -> State {
        let flag = if no_complete { State::NO_COMPLETE } else { 0 };
        State(u64::from(phase) | u64::from(pending & MAX_COUNT) << State::PENDING_SHIFT | flag)
    }
}

/// `mbarrier.pending_count.b64 count, state` (9.7.13.15.17): "The destination
/// register count is a 32-bit unsigned integer representing the pending
/// count of the mbarrier object prior to the arrive-on operation from which
/// the state register was obtained." Undefined unless `state` came from
/// `arrive.noComplete` or `arrive_drop.noComplete`.
pub fn pending_count(state: State) -> Result<u32, Undefined> {
    state.pending_count()
}

/// What a successful operation did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Effect {
    /// The operation completed the current phase (the object moved to the
    /// next one). At most one phase completes per operation: after a
    /// completion the pending count is the expected count, at least 1.
    pub completed_phase: bool,
    /// The `state` of the arrive forms that return one (`Arrive`,
    /// `ArriveDrop`, `ArriveExpectTx`, `ArriveDropExpectTx`); `None` for the
    /// others. (Where the instruction writes the sink `_`, or the object is
    /// in `.shared::cluster`, the caller drops it.)
    pub token: Option<State>,
}

impl Effect {
    const NONE: Effect = Effect {
        completed_phase: false,
        token: None,
    };
}

/// Whether an arrive-on checks the rule of 9.7.13.15.4: "For each phase of
/// the mbarrier object, at least one test_wait or try_wait operation must be
/// performed which returns True for waitComplete before an arrive-on
/// operation in the subsequent phase."
///
/// The spec states it for every mbarrier; its purpose is the `.parity`
/// waits, which name a phase by one bit and would alias if a phase
/// completed twice unseen ("the use of the .parity variants of the
/// instructions requires tracking the phase of an mbarrier object
/// throughout its lifetime", 9.7.13.15.16). The memory model applies it to
/// objects that some parity wait uses. Interpretation (not stated by the
/// ISA): "before" is the order in which the operations take effect on the
/// object (the order of [`Slot::apply`] calls, with
/// [`Mbarrier::note_wait_true`] at the wait), and the rule is the caller's
/// choice; it is off in [`Slot::apply`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum WaitRule {
    /// Not checked (the object is still tracked).
    #[default]
    Unchecked,
    /// An arrive-on in phase k ≥ 1 before [`Mbarrier::note_wait_true`] was
    /// called in phase k is [`Undefined::WAIT_BEFORE_NEXT_ARRIVE`].
    Enforced,
}

/// A valid mbarrier object: its phase and counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mbarrier {
    /// The number of completed phases, modulo 2^32: "The phase of an
    /// mbarrier object is the number of times the mbarrier object has been
    /// used to synchronize threads and asynchronous operations" (9.7.13.15.4).
    phase: u32,
    /// The expected arrival count, 1..=MAX_COUNT.
    expected: u32,
    /// The pending arrival count, 0..=MAX_COUNT.
    pending: u32,
    /// The tx-count, TX_MIN..=TX_MAX.
    tx: i64,
    /// Some wait returned true for the phase before the current one (true
    /// in phase 0, which has none).
    observed: bool,
}

impl Mbarrier {
    /// The object `mbarrier.init` with `count` makes (9.7.13.15.9): phase 0,
    /// expected = pending = `count`, tx-count 0.
    pub fn new(count: u32) -> Result<Mbarrier, Undefined> {
        if !(1..=MAX_COUNT).contains(&count) {
            return Err(Undefined::INIT_COUNT);
        }
        Ok(Mbarrier {
            phase: 0,
            expected: count,
            pending: count,
            tx: 0,
            observed: true,
        })
    }

    /// The current phase: the number of completed phases, modulo 2^32.
    pub const fn phase(&self) -> u32 {
        self.phase
    }

    /// The parity of the current phase: "An even phase has integer parity 0
    /// and an odd phase has integer parity of 1" (9.7.13.15.16).
    pub const fn phase_parity(&self) -> u32 {
        self.phase & 1
    }

    /// The expected arrival count (for the next phases).
    pub const fn expected(&self) -> u32 {
        self.expected
    }

    /// The pending arrival count of the current phase.
    pub const fn pending(&self) -> u32 {
        self.pending
    }

    /// The tx-count of the current phase.
    pub const fn tx(&self) -> i64 {
        self.tx
    }

    /// Whether some wait has returned true for the phase before the current
    /// one since it completed (true in phase 0). See [`WaitRule`].
    pub const fn previous_phase_observed(&self) -> bool {
        self.observed
    }

    /// Records that a `test_wait`/`try_wait` on this object returned true
    /// (necessarily for the immediately preceding phase), for [`WaitRule`].
    pub fn note_wait_true(&mut self) {
        self.observed = true;
    }

    /// `waitComplete` of `mbarrier.test_wait`/`mbarrier.try_wait` with a
    /// `state` (9.7.13.15.16): they "test for completion of the phase [...]
    /// Specified by the 64-bit unsigned integer operand state, which was
    /// returned by an mbarrier.arrive instruction on the same mbarrier object
    /// during the current or the immediately preceding phase", and "are
    /// valid only for: the current incomplete phase, for which waitComplete
    /// returns False. the immediately preceding phase, for which waitComplete
    /// returns True."
    ///
    /// Interpretation (not stated by the ISA): a state of any other phase
    /// (two or more phases back, or a later phase) is undefined behaviour.
    /// `try_wait` gives the same answer when it returns: a suspended thread
    /// "resumes execution when the specified phase completes OR before the
    /// phase completes following a system-dependent time limit", so False
    /// means the phase is not complete. Phases compare modulo 2^32, so a
    /// state of phase 2^32 - 1 counts as the phase before phase 0.
    pub fn test_wait(&self, state: State) -> Result<bool, Undefined> {
        let p = state.phase();
        if p == self.phase {
            Ok(false)
        } else if p == self.phase.wrapping_sub(1) {
            Ok(true)
        } else {
            Err(Undefined::WAIT_PHASE)
        }
    }

    /// `waitComplete` of `mbarrier.test_wait.parity`/`mbarrier.try_wait.parity`
    /// (9.7.13.15.16): "The .parity variant of the instructions test for the
    /// completion of the phase indicated by the operand phaseParity, which is
    /// the integer parity of either the current phase or the immediately
    /// preceding phase of the mbarrier object. [...] So the valid values of
    /// phaseParity operand are 0 and 1." The current phase and the one
    /// before it have different parities, so `parity` names exactly one of
    /// them: the current one (false) when it equals [`Self::phase_parity`],
    /// the preceding one (true) otherwise.
    ///
    /// Interpretation (not stated by the ISA): in phase 0, parity 1 names
    /// the phase "before" phase 0, which counts as complete (true). Phase 0
    /// has no preceding phase; this is what the hardware's parity check
    /// gives, and producer/consumer pipelines (CUTLASS's producer starts
    /// with phase 1 on its empty barriers) rely on it.
    pub fn test_wait_parity(&self, parity: u32) -> Result<bool, Undefined> {
        if parity > 1 {
            return Err(Undefined::PARITY_VALUE);
        }
        Ok(parity != self.phase_parity())
    }

    /// Applies an operation other than `init` and `inval` (which the slot
    /// handles): `Init` here is [`Undefined::INIT_ON_VALID`], `Inval` changes
    /// no count. On `Err`, `self` is unchanged.
    fn step(&mut self, op: Op, rule: WaitRule) -> Result<Effect, Undefined> {
        // The steps of the operation, in the spec's order.
        let mut expect_tx = None;
        let mut drop = 0;
        let mut arrive = None;
        let mut complete_tx = None;
        let mut inc_pending = false;
        let mut no_complete = None;
        let mut returns_state = true;
        match op {
            Op::Init { .. } => return Err(Undefined::INIT_ON_VALID),
            Op::Inval => return Ok(Effect::NONE),
            Op::Arrive {
                count,
                no_complete: nc,
            } => {
                if !(1..=MAX_COUNT).contains(&count) {
                    return Err(Undefined::ARRIVE_COUNT);
                }
                arrive = Some(count);
                no_complete = nc.then_some(Undefined::NO_COMPLETE_ARRIVE);
            }
            Op::ArriveDrop {
                count,
                no_complete: nc,
            } => {
                if !(1..=MAX_COUNT).contains(&count) {
                    return Err(Undefined::ARRIVE_DROP_COUNT);
                }
                drop = count;
                arrive = Some(count);
                no_complete = nc.then_some(Undefined::NO_COMPLETE_ARRIVE_DROP);
            }
            Op::ArriveExpectTx { tx } => {
                expect_tx = Some(tx);
                arrive = Some(1);
            }
            Op::ArriveDropExpectTx { tx } => {
                expect_tx = Some(tx);
                drop = 1;
                arrive = Some(1);
            }
            Op::ExpectTx { tx } => {
                expect_tx = Some(tx);
                returns_state = false;
            }
            Op::CompleteTx { tx } => {
                complete_tx = Some(tx);
                returns_state = false;
            }
            Op::IncPending => {
                inc_pending = true;
                returns_state = false;
            }
            Op::AsyncArrive => {
                arrive = Some(1);
                returns_state = false;
            }
        }
        let mut m = *self;
        if arrive.is_some() && rule == WaitRule::Enforced && !m.observed {
            return Err(Undefined::WAIT_BEFORE_NEXT_ARRIVE);
        }
        if let Some(tx) = expect_tx {
            m.tx = tx_in_range(m.tx + i64::from(tx), tx)?;
        }
        if drop > 0 {
            if m.expected <= drop {
                return Err(Undefined::EXPECTED_RANGE);
            }
            m.expected -= drop;
        }
        let mut token = None;
        if let Some(count) = arrive {
            if count > m.pending {
                return Err(Undefined::PENDING_RANGE);
            }
            if returns_state {
                token = Some(State::new(m.phase, m.pending, no_complete.is_some()));
            }
            m.pending -= count;
        }
        if let Some(tx) = complete_tx {
            m.tx = tx_in_range(m.tx - i64::from(tx), tx)?;
        }
        if inc_pending {
            if m.pending >= MAX_COUNT {
                return Err(Undefined::INC_PENDING);
            }
            m.pending += 1;
        }
        let completed_phase = m.pending == 0 && m.tx == 0;
        if completed_phase {
            if let Some(rule) = no_complete {
                return Err(rule);
            }
            m.phase = m.phase.wrapping_add(1);
            m.pending = m.expected;
            m.observed = false;
        }
        *self = m;
        Ok(Effect {
            completed_phase,
            token,
        })
    }
}

/// `new` when both it and the operand are within ±(2^20 - 1).
fn tx_in_range(new: i64, operand: u32) -> Result<i64, Undefined> {
    // Interpretation (not stated by the ISA): an operand larger than the
    // largest tx-count is undefined even where the sum would fit.
    if i64::from(operand) > TX_MAX || !(TX_MIN..=TX_MAX).contains(&new) {
        return Err(Undefined::TX_RANGE);
    }
    Ok(new)
}

/// What the 8-byte location of an mbarrier holds, as far as mbarrier
/// operations are concerned (9.7.13.15.3, "Lifecycle of the mbarrier
/// object": "The mbarrier object must be initialized prior to use. [...] An
/// mbarrier object must be invalidated to repurpose its memory for any
/// purpose, including repurposing it for another mbarrier object.").
///
/// `Uninit` and `Invalidated` behave alike (neither holds a valid object;
/// only `init` is allowed) and differ only in the rule they quote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Slot {
    /// Never initialized.
    #[default]
    Uninit,
    /// Holds a valid mbarrier object.
    Valid(Mbarrier),
    /// Invalidated by `mbarrier.inval`: free for other uses, or a new `init`.
    Invalidated,
}

impl Slot {
    /// Applies `op` without the rule of 9.7.13.15.4 (see [`WaitRule`]).
    /// On `Err` the slot is unchanged.
    pub fn apply(&mut self, op: Op) -> Result<Effect, Undefined> {
        self.apply_with(op, WaitRule::Unchecked)
    }

    /// Applies `op`, checking the rule of 9.7.13.15.4 when `rule` is
    /// [`WaitRule::Enforced`]. On `Err` the slot is unchanged.
    ///
    /// `init` is allowed where no valid object is (on a valid one it is
    /// [`Undefined::INIT_ON_VALID`]); every other operation needs a valid
    /// object ([`Undefined::UNINITIALIZED`], [`Undefined::NO_VALID_OBJECT`]).
    pub fn apply_with(&mut self, op: Op, rule: WaitRule) -> Result<Effect, Undefined> {
        match self {
            Slot::Valid(m) => {
                let effect = m.step(op, rule)?;
                if op == Op::Inval {
                    *self = Slot::Invalidated;
                }
                Ok(effect)
            }
            Slot::Uninit | Slot::Invalidated => {
                if let Op::Init { count } = op {
                    *self = Slot::Valid(Mbarrier::new(count)?);
                    Ok(Effect::NONE)
                } else if *self == Slot::Uninit {
                    Err(Undefined::UNINITIALIZED)
                } else {
                    Err(Undefined::NO_VALID_OBJECT)
                }
            }
        }
    }

    /// The valid object, for waits and inspection; undefined behaviour
    /// where there is none (an mbarrier operation on it).
    pub fn mbarrier(&self) -> Result<&Mbarrier, Undefined> {
        match self {
            Slot::Valid(m) => Ok(m),
            Slot::Uninit => Err(Undefined::UNINITIALIZED),
            Slot::Invalidated => Err(Undefined::NO_VALID_OBJECT),
        }
    }

    /// The valid object, mutable (for [`Mbarrier::note_wait_true`]).
    pub fn mbarrier_mut(&mut self) -> Result<&mut Mbarrier, Undefined> {
        match self {
            Slot::Valid(m) => Ok(m),
            Slot::Uninit => Err(Undefined::UNINITIALIZED),
            Slot::Invalidated => Err(Undefined::NO_VALID_OBJECT),
        }
    }

    /// A non-mbarrier access (load, store, atomic, asynchronous copy) to the
    /// location: undefined on a valid object (9.7.13.15), fine otherwise.
    /// The slot does not change: after a store to an uninitialized or
    /// invalidated location it still holds no valid object.
    pub fn plain_access(&self) -> Result<(), Undefined> {
        match self {
            Slot::Valid(_) => Err(Undefined::NON_MBARRIER_ACCESS),
            Slot::Uninit | Slot::Invalidated => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::{quickcheck, Arbitrary, Gen};

    fn init(count: u32) -> Slot {
        let mut s = Slot::Uninit;
        assert_eq!(s.apply(Op::Init { count }), Ok(Effect::NONE));
        s
    }

    fn m(s: &Slot) -> Mbarrier {
        *s.mbarrier().unwrap()
    }

    /// (phase, expected, pending, tx) of a valid slot.
    fn counts(s: &Slot) -> (u32, u32, u32, i64) {
        let b = m(s);
        (b.phase(), b.expected(), b.pending(), b.tx())
    }

    const ARRIVE: Op = Op::Arrive {
        count: 1,
        no_complete: false,
    };

    fn arrive(s: &mut Slot) -> Effect {
        s.apply(ARRIVE).unwrap()
    }

    #[test]
    fn init_two_arrive_twice_completes_phase_zero() {
        let mut s = init(2);
        assert_eq!(counts(&s), (0, 2, 2, 0));
        let e1 = arrive(&mut s);
        assert!(!e1.completed_phase);
        assert_eq!(e1.token.unwrap().phase(), 0);
        assert_eq!(counts(&s), (0, 2, 1, 0));
        let e2 = arrive(&mut s);
        assert!(e2.completed_phase);
        assert_eq!(e2.token.unwrap().phase(), 0);
        // Phase 1; pending reinitialized to the expected count.
        assert_eq!(counts(&s), (1, 2, 2, 0));
        assert_eq!(m(&s).phase_parity(), 1);
    }

    #[test]
    fn arrive_with_count() {
        let mut s = init(5);
        let e = s
            .apply(Op::Arrive {
                count: 3,
                no_complete: false,
            })
            .unwrap();
        assert!(!e.completed_phase);
        assert_eq!(counts(&s), (0, 5, 2, 0));
        assert!(
            s.apply(Op::Arrive {
                count: 2,
                no_complete: false
            })
            .unwrap()
            .completed_phase
        );
        assert_eq!(counts(&s), (1, 5, 5, 0));
    }

    #[test]
    fn expect_tx_arrive_then_two_complete_tx() {
        let mut s = init(1);
        s.apply(Op::ExpectTx { tx: 32 }).unwrap();
        assert_eq!(counts(&s), (0, 1, 1, 32));
        // Pending reaches 0 but 32 units are outstanding: no completion.
        assert!(!arrive(&mut s).completed_phase);
        assert_eq!(counts(&s), (0, 1, 0, 32));
        assert!(!s.apply(Op::CompleteTx { tx: 16 }).unwrap().completed_phase);
        assert_eq!(counts(&s), (0, 1, 0, 16));
        let e = s.apply(Op::CompleteTx { tx: 16 }).unwrap();
        assert!(e.completed_phase);
        assert_eq!(e.token, None);
        assert_eq!(counts(&s), (1, 1, 1, 0));
    }

    #[test]
    fn arrive_expect_tx_is_expect_then_arrive() {
        let mut s = init(1);
        let e = s.apply(Op::ArriveExpectTx { tx: 64 }).unwrap();
        assert!(!e.completed_phase);
        assert_eq!(e.token.unwrap().phase(), 0);
        assert_eq!(counts(&s), (0, 1, 0, 64));
        assert!(s.apply(Op::CompleteTx { tx: 64 }).unwrap().completed_phase);
        assert_eq!(counts(&s), (1, 1, 1, 0));
        // A second arrive in phase 0's place would have no pending arrival:
        let mut t = init(1);
        t.apply(Op::ArriveExpectTx { tx: 64 }).unwrap();
        let before = t;
        assert_eq!(t.apply(ARRIVE), Err(Undefined::PENDING_RANGE));
        assert_eq!(t, before);
    }

    #[test]
    fn complete_tx_before_expect_tx() {
        // The complete-tx of a fast copy may come first: tx goes negative.
        let mut s = init(1);
        assert!(!s.apply(Op::CompleteTx { tx: 16 }).unwrap().completed_phase);
        assert_eq!(counts(&s), (0, 1, 1, -16));
        // arrive.expect_tx 16: tx -16 + 16 = 0, pending 1 - 1 = 0: complete.
        assert!(
            s.apply(Op::ArriveExpectTx { tx: 16 })
                .unwrap()
                .completed_phase
        );
        assert_eq!(counts(&s), (1, 1, 1, 0));

        // Plain arrive with tx negative: pending 0, tx -16, not complete;
        // the later expect_tx 16 completes it (module-level interpretation).
        let mut s = init(1);
        s.apply(Op::CompleteTx { tx: 16 }).unwrap();
        assert!(!arrive(&mut s).completed_phase);
        assert_eq!(counts(&s), (0, 1, 0, -16));
        assert!(s.apply(Op::ExpectTx { tx: 16 }).unwrap().completed_phase);
        assert_eq!(counts(&s), (1, 1, 1, 0));
    }

    #[test]
    fn arrive_drop_lowers_expected_for_later_phases() {
        let mut s = init(3);
        let e = s
            .apply(Op::ArriveDrop {
                count: 1,
                no_complete: false,
            })
            .unwrap();
        assert!(!e.completed_phase);
        // expected 3 - 1 = 2; pending 3 - 1 = 2.
        assert_eq!(counts(&s), (0, 2, 2, 0));
        arrive(&mut s);
        assert!(arrive(&mut s).completed_phase);
        // Phase 1 waits for the 2 remaining participants only.
        assert_eq!(counts(&s), (1, 2, 2, 0));
        arrive(&mut s);
        assert!(arrive(&mut s).completed_phase);
        assert_eq!(counts(&s), (2, 2, 2, 0));
    }

    #[test]
    fn arrive_drop_completing_resets_to_lowered_expected() {
        let mut s = init(2);
        arrive(&mut s);
        // The dropping arrival is the last of phase 0: pending becomes the
        // new expected count, 1.
        let e = s
            .apply(Op::ArriveDrop {
                count: 1,
                no_complete: false,
            })
            .unwrap();
        assert!(e.completed_phase);
        assert_eq!(counts(&s), (1, 1, 1, 0));
        // Dropping the last participant would leave expected 0 (< 1).
        let before = s;
        assert_eq!(
            s.apply(Op::ArriveDrop {
                count: 1,
                no_complete: false
            }),
            Err(Undefined::EXPECTED_RANGE)
        );
        assert_eq!(s, before);
    }

    #[test]
    fn arrive_drop_expect_tx() {
        let mut s = init(2);
        let e = s.apply(Op::ArriveDropExpectTx { tx: 8 }).unwrap();
        assert_eq!(e.token.unwrap().phase(), 0);
        assert_eq!(counts(&s), (0, 1, 1, 8));
        arrive(&mut s);
        assert_eq!(counts(&s), (0, 1, 0, 8));
        assert!(s.apply(Op::CompleteTx { tx: 8 }).unwrap().completed_phase);
        assert_eq!(counts(&s), (1, 1, 1, 0));
    }

    #[test]
    fn no_complete_that_would_complete_is_undefined() {
        let mut s = init(2);
        let e = s
            .apply(Op::Arrive {
                count: 1,
                no_complete: true,
            })
            .unwrap();
        assert!(!e.completed_phase);
        assert_eq!(pending_count(e.token.unwrap()), Ok(2));
        let before = s;
        assert_eq!(
            s.apply(Op::Arrive {
                count: 1,
                no_complete: true
            }),
            Err(Undefined::NO_COMPLETE_ARRIVE)
        );
        assert_eq!(s, before);
        assert_eq!(
            s.apply(Op::ArriveDrop {
                count: 1,
                no_complete: true
            }),
            Err(Undefined::NO_COMPLETE_ARRIVE_DROP)
        );
        assert_eq!(s, before);
        // With tx outstanding the same arrive does not complete: fine.
        s.apply(Op::ExpectTx { tx: 4 }).unwrap();
        let e = s
            .apply(Op::Arrive {
                count: 1,
                no_complete: true,
            })
            .unwrap();
        assert_eq!(pending_count(e.token.unwrap()), Ok(1));
        assert_eq!(counts(&s), (0, 2, 0, 4));
    }

    #[test]
    fn pending_count_reads_only_no_complete_states() {
        let mut s = init(4);
        let plain = arrive(&mut s).token.unwrap();
        assert_eq!(pending_count(plain), Err(Undefined::PENDING_COUNT_STATE));
        let e = s
            .apply(Op::ArriveDrop {
                count: 2,
                no_complete: true,
            })
            .unwrap();
        // Pending before this arrive-on: 4 - 1 = 3.
        assert_eq!(pending_count(e.token.unwrap()), Ok(3));
        assert_eq!(counts(&s), (0, 2, 1, 0));
        assert_eq!(
            pending_count(State::from_bits(0)),
            Err(Undefined::PENDING_COUNT_STATE)
        );
    }

    #[test]
    fn lifecycle() {
        let mut s = Slot::Uninit;
        assert_eq!(s.apply(ARRIVE), Err(Undefined::UNINITIALIZED));
        assert_eq!(s.apply(Op::Inval), Err(Undefined::UNINITIALIZED));
        assert_eq!(s.mbarrier().err(), Some(Undefined::UNINITIALIZED));
        assert_eq!(s.plain_access(), Ok(()));
        s.apply(Op::Init { count: 2 }).unwrap();
        assert_eq!(s.plain_access(), Err(Undefined::NON_MBARRIER_ACCESS));
        let before = s;
        assert_eq!(
            s.apply(Op::Init { count: 2 }),
            Err(Undefined::INIT_ON_VALID)
        );
        assert_eq!(s, before);
        assert_eq!(s.apply(Op::Inval), Ok(Effect::NONE));
        assert_eq!(s, Slot::Invalidated);
        assert_eq!(s.apply(ARRIVE), Err(Undefined::NO_VALID_OBJECT));
        assert_eq!(
            s.apply(Op::CompleteTx { tx: 1 }),
            Err(Undefined::NO_VALID_OBJECT)
        );
        assert_eq!(s.apply(Op::Inval), Err(Undefined::NO_VALID_OBJECT));
        assert_eq!(s.plain_access(), Ok(()));
        // Re-initialization after inval: a fresh object.
        s.apply(Op::Init { count: 24 }).unwrap();
        assert_eq!(counts(&s), (0, 24, 24, 0));
    }

    #[test]
    fn count_ranges() {
        let mut s = Slot::Uninit;
        assert_eq!(s.apply(Op::Init { count: 0 }), Err(Undefined::INIT_COUNT));
        assert_eq!(
            s.apply(Op::Init { count: 1 << 20 }),
            Err(Undefined::INIT_COUNT)
        );
        assert_eq!(s, Slot::Uninit);
        s.apply(Op::Init { count: MAX_COUNT }).unwrap();
        assert_eq!(
            s.apply(Op::Arrive {
                count: 0,
                no_complete: false
            }),
            Err(Undefined::ARRIVE_COUNT)
        );
        assert_eq!(
            s.apply(Op::ArriveDrop {
                count: 1 << 20,
                no_complete: false
            }),
            Err(Undefined::ARRIVE_DROP_COUNT)
        );
        let mut t = init(2);
        assert_eq!(
            t.apply(Op::Arrive {
                count: 3,
                no_complete: false
            }),
            Err(Undefined::PENDING_RANGE)
        );
        assert_eq!(counts(&t), (0, 2, 2, 0));
    }

    #[test]
    fn tx_range() {
        let mut s = init(1);
        s.apply(Op::ExpectTx { tx: TX_MAX as u32 }).unwrap();
        assert_eq!(m(&s).tx(), TX_MAX);
        assert_eq!(s.apply(Op::ExpectTx { tx: 1 }), Err(Undefined::TX_RANGE));
        let mut s = init(1);
        s.apply(Op::CompleteTx { tx: TX_MAX as u32 }).unwrap();
        assert_eq!(m(&s).tx(), TX_MIN);
        assert_eq!(s.apply(Op::CompleteTx { tx: 1 }), Err(Undefined::TX_RANGE));
        // An operand past 2^20 - 1 is out of range even where the sum fits.
        let mut s = init(1);
        s.apply(Op::CompleteTx { tx: 16 }).unwrap();
        assert_eq!(
            s.apply(Op::ExpectTx { tx: 1 << 20 }),
            Err(Undefined::TX_RANGE)
        );
        assert_eq!(counts(&s), (0, 1, 1, -16));
    }

    #[test]
    fn cp_async_mbarrier_arrive() {
        // Without .noinc: +1 now, -1 later; net zero.
        let mut s = init(1);
        assert!(!s.apply(Op::IncPending).unwrap().completed_phase);
        assert_eq!(counts(&s), (0, 1, 2, 0));
        assert!(!arrive(&mut s).completed_phase);
        assert_eq!(counts(&s), (0, 1, 1, 0));
        let e = s.apply(Op::AsyncArrive).unwrap();
        assert!(e.completed_phase);
        assert_eq!(e.token, None);
        assert_eq!(counts(&s), (1, 1, 1, 0));
        // With .noinc the arrival must be counted in init.
        let mut s = init(2);
        arrive(&mut s);
        assert!(s.apply(Op::AsyncArrive).unwrap().completed_phase);
        // The increment past 2^20 - 1.
        let mut s = init(MAX_COUNT);
        assert_eq!(s.apply(Op::IncPending), Err(Undefined::INC_PENDING));
    }

    #[test]
    fn test_wait_of_tokens_across_phases() {
        let mut s = init(1);
        let t0 = arrive(&mut s).token.unwrap();
        // Phase 1: t0's phase (0) is the immediately preceding one.
        assert_eq!(m(&s).test_wait(t0), Ok(true));
        let t1 = arrive(&mut s).token.unwrap();
        assert_eq!(t1.phase(), 1);
        // Phase 2: t1's phase is the preceding one, t0's is two back.
        assert_eq!(m(&s).test_wait(t1), Ok(true));
        assert_eq!(m(&s).test_wait(t0), Err(Undefined::WAIT_PHASE));
        // A state of the current phase: not complete.
        let mut s = init(2);
        let t = arrive(&mut s).token.unwrap();
        assert_eq!(m(&s).test_wait(t), Ok(false));
        arrive(&mut s);
        assert_eq!(m(&s).test_wait(t), Ok(true));
        // A state of a later phase than the object's.
        let fresh = init(2);
        assert_eq!(
            m(&fresh).test_wait(State::from_bits(1)),
            Err(Undefined::WAIT_PHASE)
        );
        // Waits on a slot with no valid object.
        assert_eq!(
            Slot::Invalidated.mbarrier().err(),
            Some(Undefined::NO_VALID_OBJECT)
        );
    }

    #[test]
    fn parity_waits() {
        let mut s = init(1);
        // Phase 0: parity 0 is the current phase; parity 1 the (virtual)
        // preceding one.
        assert_eq!(m(&s).test_wait_parity(0), Ok(false));
        assert_eq!(m(&s).test_wait_parity(1), Ok(true));
        arrive(&mut s);
        // Phase 1.
        assert_eq!(m(&s).test_wait_parity(0), Ok(true));
        assert_eq!(m(&s).test_wait_parity(1), Ok(false));
        arrive(&mut s);
        // Phase 2.
        assert_eq!(m(&s).test_wait_parity(0), Ok(false));
        assert_eq!(m(&s).test_wait_parity(1), Ok(true));
        assert_eq!(m(&s).test_wait_parity(2), Err(Undefined::PARITY_VALUE));
    }

    #[test]
    fn wait_before_next_arrive_rule() {
        let mut s = init(1);
        // Phase 0 has no preceding phase: allowed.
        s.apply_with(ARRIVE, WaitRule::Enforced).unwrap();
        assert!(!m(&s).previous_phase_observed());
        let before = s;
        assert_eq!(
            s.apply_with(ARRIVE, WaitRule::Enforced),
            Err(Undefined::WAIT_BEFORE_NEXT_ARRIVE)
        );
        assert_eq!(s, before);
        // The rule is opt-in.
        let mut u = s;
        assert!(u.apply(ARRIVE).unwrap().completed_phase);
        // A wait that returned true for phase 0, then the arrive is fine.
        assert_eq!(m(&s).test_wait_parity(0), Ok(true));
        s.mbarrier_mut().unwrap().note_wait_true();
        assert!(
            s.apply_with(ARRIVE, WaitRule::Enforced)
                .unwrap()
                .completed_phase
        );
        // Not an arrive-on: complete-tx and expect-tx are not checked.
        s.apply_with(Op::ExpectTx { tx: 1 }, WaitRule::Enforced)
            .unwrap();
        s.apply_with(Op::CompleteTx { tx: 1 }, WaitRule::Enforced)
            .unwrap();
        assert_eq!(
            s.apply_with(Op::AsyncArrive, WaitRule::Enforced),
            Err(Undefined::WAIT_BEFORE_NEXT_ARRIVE)
        );
    }

    #[test]
    fn state_encoding() {
        let mut s = init(7);
        let e = s
            .apply(Op::Arrive {
                count: 2,
                no_complete: true,
            })
            .unwrap();
        assert_eq!(e.token.unwrap().bits(), 7 << 32 | 1 << 63);
        assert_eq!(State::from_bits(e.token.unwrap().bits()), e.token.unwrap());
        assert_eq!(
            format!("{}", Undefined::WAIT_PHASE),
            format!(
                "undefined behaviour (PTX ISA 9.7.13.15.16): {}",
                Undefined::WAIT_PHASE.rule
            )
        );
    }

    /// An operation or a wait that returned true, for the properties.
    #[derive(Clone, Copy, Debug)]
    enum Act {
        Op(Op),
        WaitTrue,
    }

    impl Arbitrary for Act {
        fn arbitrary(g: &mut Gen) -> Act {
            let small = |g: &mut Gen, n: u32| u32::arbitrary(g) % n;
            let tx = |g: &mut Gen| 16 * (u32::arbitrary(g) % 5);
            let op = match u32::arbitrary(g) % 20 {
                0 => Op::Init { count: small(g, 5) },
                1 => Op::Inval,
                2..=7 => Op::Arrive {
                    count: small(g, 4),
                    no_complete: u32::arbitrary(g) % 4 == 0,
                },
                8 | 9 => Op::ArriveDrop {
                    count: small(g, 3),
                    no_complete: u32::arbitrary(g) % 4 == 0,
                },
                10 => Op::ArriveExpectTx { tx: tx(g) },
                11 => Op::ArriveDropExpectTx { tx: tx(g) },
                12 | 13 => Op::ExpectTx { tx: tx(g) },
                14 | 15 => Op::CompleteTx { tx: tx(g) },
                16 => Op::IncPending,
                17 => Op::AsyncArrive,
                _ => return Act::WaitTrue,
            };
            Act::Op(op)
        }
    }

    /// Over any sequence: the counts stay in their ranges, a failed
    /// operation changes nothing, the phase grows by at most one per
    /// operation (exactly when `completed_phase`), a completed phase leaves
    /// pending = expected and tx = 0, no state that meets the completion
    /// conditions survives an operation, and without `IncPending` the
    /// pending count never exceeds the expected count.
    #[test]
    fn invariants() {
        fn prop(acts: Vec<Act>, enforce: bool) -> bool {
            let rule = if enforce {
                WaitRule::Enforced
            } else {
                WaitRule::Unchecked
            };
            let mut s = Slot::Uninit;
            let mut incremented = false;
            for act in acts {
                let op = match act {
                    Act::WaitTrue => {
                        if let Ok(b) = s.mbarrier_mut() {
                            b.note_wait_true();
                        }
                        continue;
                    }
                    Act::Op(op) => op,
                };
                let before = s;
                match s.apply_with(op, rule) {
                    Err(_) => {
                        if s != before {
                            return false;
                        }
                    }
                    Ok(e) => {
                        if matches!(op, Op::Init { .. }) {
                            incremented = false;
                        }
                        incremented |= op == Op::IncPending;
                        let Slot::Valid(now) = s else {
                            if op != Op::Inval || e.completed_phase {
                                return false;
                            }
                            continue;
                        };
                        let ok = (1..=MAX_COUNT).contains(&now.expected())
                            && now.pending() <= MAX_COUNT
                            && (TX_MIN..=TX_MAX).contains(&now.tx())
                            && !(now.pending() == 0 && now.tx() == 0)
                            && (incremented || now.pending() <= now.expected());
                        if !ok {
                            return false;
                        }
                        let grew = match before {
                            Slot::Valid(old) => now.phase().wrapping_sub(old.phase()),
                            _ => now.phase(),
                        };
                        if grew > 1 || (grew == 1) != e.completed_phase {
                            return false;
                        }
                        if e.completed_phase && (now.pending() != now.expected() || now.tx() != 0) {
                            return false;
                        }
                        // The increment, init and inval never complete a phase.
                        if e.completed_phase
                            && matches!(op, Op::IncPending | Op::Init { .. } | Op::Inval)
                        {
                            return false;
                        }
                    }
                }
            }
            true
        }
        quickcheck(prop as fn(Vec<Act>, bool) -> bool);
    }

    /// `init n` and `k` arrivals by 1: phase k / n, pending n - k % n; the
    /// token of arrival j has phase j / n, and test_wait on it answers by
    /// how far that phase is behind the current one; parity waits answer by
    /// the current phase's parity.
    #[test]
    fn arrivals_by_one() {
        fn prop(n: u8, k: u8) -> bool {
            let n = u32::from(n % 8) + 1;
            let k = u32::from(k % 64);
            let mut s = init(n);
            let mut tokens = Vec::new();
            for _ in 0..k {
                tokens.push(arrive(&mut s).token.unwrap());
            }
            let b = m(&s);
            let cur = k / n;
            if b.phase() != cur || b.pending() != n - k % n || b.expected() != n {
                return false;
            }
            let tokens_ok = tokens.iter().enumerate().all(|(j, t)| {
                let p = j as u32 / n;
                let want = if p == cur {
                    Ok(false)
                } else if p + 1 == cur {
                    Ok(true)
                } else {
                    Err(Undefined::WAIT_PHASE)
                };
                t.phase() == p && b.test_wait(*t) == want
            });
            tokens_ok
                && b.test_wait_parity(cur % 2) == Ok(false)
                && b.test_wait_parity(1 - cur % 2) == Ok(true)
        }
        quickcheck(prop as fn(u8, u8) -> bool);
    }

    /// `init 1`, then expect-tx and complete-tx operations, then one
    /// arrive: nothing completes before the arrive (one arrival pending),
    /// and the arrive completes the phase exactly when the amounts
    /// expected and completed are equal.
    #[test]
    fn tx_balance() {
        fn prop(ops: Vec<(bool, u8)>) -> bool {
            let mut s = init(1);
            let mut balance = 0i64;
            for (expect, amount) in ops {
                let tx = u32::from(amount);
                let op = if expect {
                    balance += i64::from(tx);
                    Op::ExpectTx { tx }
                } else {
                    balance -= i64::from(tx);
                    Op::CompleteTx { tx }
                };
                if s.apply(op).unwrap().completed_phase {
                    return false;
                }
            }
            m(&s).tx() == balance && arrive(&mut s).completed_phase == (balance == 0)
        }
        quickcheck(prop as fn(Vec<(bool, u8)>) -> bool);
    }
}
