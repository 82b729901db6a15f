//! The model plays each order of the operations on an mbarrier against the
//! object of `ptx_semantics::mbarrier` (PTX ISA 9.7.13.15): the rules that
//! object defines are reported as undefined behaviour, naming the event
//! and the rule, and only `mbarrier.arrive` gives a thread the `state` its
//! waits without `.parity` test.

use ptx_memmodel::{check, outcomes, Model};

fn parse(src: &str) -> ptx_litmus::Litmus {
    ptx_litmus::parse(src).expect("test parses")
}

/// The undefined behaviour the model reports, in one string.
fn undefined(src: &str) -> String {
    check(&parse(src), Model::Ptx75)
        .expect("decides")
        .undefined
        .join("\n")
}

#[test]
fn init_on_a_valid_object_is_undefined() {
    // PTX ISA 9.7.13.15.9: "The behavior of performing an mbarrier.init
    // operation on a memory location containing a valid mbarrier object is
    // undefined".
    let u = undefined(
        "PTX Init-on-valid
{
mbarrier bar = 1;
}
 P0@cta 0,cluster 0,gpu 0             ;
 mbarrier.init.shared::cta.b64 bar, 1 ;
 mbarrier.arrive.release.cta bar      ;
exists (x == 0)
",
    );
    assert!(u.contains("PTX ISA 9.7.13.15.9"), "{u}");
    assert!(u.contains("P0's `mbarrier.init"), "{u}");
}

#[test]
fn an_initial_count_out_of_range_is_undefined() {
    // PTX ISA 9.7.13.15.2 and 9.7.13.15.9: the expected arrival count is at
    // most 2^20 - 1.
    let u = undefined(
        "PTX Init-count-too-large
{
mbarrier bar = 1048576;
}
 P0@cta 0,cluster 0,gpu 0        ;
 mbarrier.arrive.release.cta bar ;
exists (x == 0)
",
    );
    assert!(u.contains("the initial state of `bar`"), "{u}");
    assert!(u.contains("PTX ISA 9.7.13.15.9"), "{u}");
}

#[test]
fn a_state_two_phases_old_is_undefined() {
    // PTX ISA 9.7.13.15.16: waits "are valid only for: the current
    // incomplete phase [...] the immediately preceding phase". P0's state
    // is of phase 0; with P1's arrive in between, its wait runs in phase 2.
    let u = undefined(
        "PTX Wait-two-phases-late
{
mbarrier bar = 1;
}
 P0@cta 0,cluster 0,gpu 0              | P1@cta 0,cluster 0,gpu 0        ;
 mbarrier.arrive.release.cta bar       | mbarrier.arrive.release.cta bar ;
 mbarrier.try_wait.acquire.cta r0, bar |                                 ;
exists (P0:r0 == 1)
",
    );
    assert!(u.contains("PTX ISA 9.7.13.15.16"), "{u}");
    assert!(u.contains("P0's `mbarrier.try_wait"), "{u}");
    assert!(u.contains("in its phase 2"), "{u}");
}

#[test]
fn an_arrive_with_no_pending_arrival_is_undefined() {
    // P0's arrive.expect_tx leaves no arrival pending and 4 bytes expected;
    // P1's arrive after it would take the pending count below 0 (PTX ISA
    // 9.7.13.15.2: the pending arrival count is at least 0).
    let u = undefined(
        "PTX Arrive-none-pending
{
mbarrier bar = 1;
}
 P0@cta 0,cluster 0,gpu 0                       | P1@cta 0,cluster 0,gpu 0        ;
 mbarrier.arrive.expect_tx.release.cta bar, 4   | mbarrier.arrive.release.cta bar ;
exists (x == 0)
",
    );
    assert!(u.contains("PTX ISA 9.7.13.15.2"), "{u}");
    assert!(u.contains("P1's `mbarrier.arrive.release.cta bar`"), "{u}");
}

#[test]
fn cp_async_mbarrier_arrive_gives_no_state() {
    // `cp.async.mbarrier.arrive` returns no state (PTX ISA 9.7.13.15.15), so
    // P1's second wait still tests phase 0, the one before P1 arrives at
    // all: once P0's arrive-on has completed phase 0 (r1 == 1), r3 is 1.
    let src = "PTX CpAsync-arrive-no-state
{
mbarrier bar = 1;
}
 P0@cta 0,cluster 0,gpu 0                            | P1@cta 0,cluster 0,gpu 0                     ;
 cp.async.mbarrier.arrive.noinc.shared::cta.b64 bar  | mbarrier.try_wait.acquire.cta r1, bar        ;
                                                     | cp.async.mbarrier.arrive.shared::cta.b64 bar ;
                                                     | mbarrier.try_wait.acquire.cta r3, bar        ;
exists (P1:r1 == 1 /\\ P1:r3 == 0)
";
    let test = parse(src);
    let v = check(&test, Model::Ptx75).expect("decides");
    assert!(!v.holds);
    assert!(v.undefined.is_empty(), "{:?}", v.undefined);
    let allowed: Vec<Vec<i64>> = outcomes(&test, Model::Ptx75)
        .expect("decides")
        .outcomes
        .into_iter()
        .filter(|(_, a)| *a)
        .map(|(o, _)| o)
        .collect();
    assert_eq!(allowed, vec![vec![0, 0], vec![0, 1], vec![1, 1]]);
}
