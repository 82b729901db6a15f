//! `vote.sync`, `redux.sync`, `elect.sync` and `match.sync` (PTX ISA 9.7.13) as functions
//! of a whole warp. As for [`super::shfl`], waiting for the lanes of
//! `membermask` is the interpreter's business; these functions see the warp
//! once every lane that will take part has arrived.

use super::undefined::Undefined;
use crate::precond::table;

/// `.mode` of `vote.sync`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VoteMode {
    All,
    Any,
    Uni,
    Ballot,
}

/// `.op` and `.type` of `redux.sync`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduxOp {
    /// `.min{.abs}{.NaN}.f32` (sm_100a).
    FMin {
        abs: bool,
        nan: bool,
    },
    /// `.max{.abs}{.NaN}.f32` (sm_100a).
    FMax {
        abs: bool,
        nan: bool,
    },
    /// `.add.{u32,s32}`: "the result is truncated to 32 bits", the same
    /// bits for both types.
    Add,
    Min {
        signed: bool,
    },
    Max {
        signed: bool,
    },
    And,
    Or,
    Xor,
}

/// The warp-wide instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WarpOp {
    Vote(VoteMode),
    Redux(ReduxOp),
    Elect,
    /// `match.any.sync` (`all: false`) or `match.all.sync`, `.b32` or
    /// `.b64` (`a` holds the value's bits).
    Match {
        all: bool,
        wide: bool,
    },
}

impl VoteMode {
    pub fn from_qualifier(q: &str) -> Option<VoteMode> {
        Some(match q {
            ".all" => VoteMode::All,
            ".any" => VoteMode::Any,
            ".uni" => VoteMode::Uni,
            ".ballot" => VoteMode::Ballot,
            _ => return None,
        })
    }
}

impl ReduxOp {
    /// `.op` and `.type`; `None` for a pair the integer forms lack.
    pub fn from_qualifiers(op: &str, ty: &str) -> Option<ReduxOp> {
        let signed = match ty {
            ".s32" => true,
            ".u32" => false,
            ".b32" => {
                return Some(match op {
                    ".and" => ReduxOp::And,
                    ".or" => ReduxOp::Or,
                    ".xor" => ReduxOp::Xor,
                    _ => return None,
                })
            }
            _ => return None,
        };
        Some(match op {
            ".add" => ReduxOp::Add,
            ".min" => ReduxOp::Min { signed },
            ".max" => ReduxOp::Max { signed },
            _ => return None,
        })
    }

    /// `redux.sync.op{.abs}{.NaN}.f32` (PTX ISA 9.7.13, sm_100a): the
    /// minimum or maximum of the lanes' values, as `min`/`max.f32` order
    /// them ("-0.0 < +0.0"; a NaN input is ignored unless `.NaN`, which
    /// makes the result the canonical NaN; all NaN gives NaN), of their
    /// absolute values with `.abs`. `None` for the integer operations.
    pub fn from_float(op: &str, abs: bool, nan: bool) -> Option<ReduxOp> {
        match op {
            ".min" => Some(ReduxOp::FMin { abs, nan }),
            ".max" => Some(ReduxOp::FMax { abs, nan }),
            _ => None,
        }
    }

    /// The float reduction of two values and the bits it leaves open.
    fn combine_float(self, x: u64, y: u64) -> (u64, u64) {
        use crate::arith::float::{self, MinMaxMods, F32};
        let (abs, nan, min) = match self {
            ReduxOp::FMin { abs, nan } => (abs, nan, true),
            ReduxOp::FMax { abs, nan } => (abs, nan, false),
            _ => return (x, 0),
        };
        let clear = |v: u64| if abs { v & 0x7fff_ffff } else { v };
        let m = MinMaxMods {
            nan,
            ..MinMaxMods::default()
        };
        let r = if min {
            float::min(&F32, m, clear(x), clear(y), None)
        } else {
            float::max(&F32, m, clear(x), clear(y), None)
        };
        (r.bits, r.unspecified)
    }

    fn is_float(self) -> bool {
        matches!(self, ReduxOp::FMin { .. } | ReduxOp::FMax { .. })
    }

    fn combine(self, x: u32, y: u32) -> u32 {
        match self {
            ReduxOp::FMin { .. } | ReduxOp::FMax { .. } => {
                self.combine_float(x.into(), y.into()).0 as u32
            }
            ReduxOp::Add => x.wrapping_add(y),
            ReduxOp::Min { signed: true } => (x as i32).min(y as i32) as u32,
            ReduxOp::Min { signed: false } => x.min(y),
            ReduxOp::Max { signed: true } => (x as i32).max(y as i32) as u32,
            ReduxOp::Max { signed: false } => x.max(y),
            ReduxOp::And => x & y,
            ReduxOp::Or => x | y,
            ReduxOp::Xor => x ^ y,
        }
    }
}

/// What one lane of the warp does at the instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarpLane {
    /// The lane executes it with source `a` (a predicate as 0 or 1, after
    /// `!`; nothing for `elect.sync`).
    Executes {
        a: u64,
        membermask: u32,
    },
    /// At the instruction with a false guard: it contributes nothing.
    GuardFalse,
    /// Not at the instruction (divergent control flow), not exited.
    Inactive,
    Exited,
}

/// One lane's result: `d` (a predicate as 0 or 1) and, for `elect.sync`,
/// `p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WarpOut {
    pub d: u64,
    pub p: bool,
    /// Bits of `d` the spec leaves open (a NaN's sign and payload).
    pub unspecified: u64,
    /// The lanes whose `a` went into the result.
    pub members: u32,
}

// The membermask rules, stated once in `precond::table`, which
// `conform ub` asks too.
const VOTE_NOT_IN_MASK: Undefined = table::VOTE_SYNC_MEMBER.undefined();
const REDUX_NOT_IN_MASK: Undefined = table::REDUX_SYNC_MEMBER.undefined();
const ELECT_NOT_IN_MASK: Undefined = table::ELECT_SYNC_MEMBER.undefined();
const MATCH_NOT_IN_MASK: Undefined = table::MATCH_SYNC_MEMBER.undefined();
const NOT_CONVERGED: Undefined = Undefined::behaviour(
    "9.7.13",
    "vote.sync, redux.sync, elect.sync cause the executing thread to wait until all non-exited threads corresponding to membermask have executed the instruction with the same qualifiers and same membermask value",
);

impl WarpOp {
    /// [`table::warp_member`]'s undefined case for this instruction.
    fn not_in_mask(self) -> &'static Undefined {
        match self {
            WarpOp::Vote(_) => &VOTE_NOT_IN_MASK,
            WarpOp::Redux(_) => &REDUX_NOT_IN_MASK,
            WarpOp::Elect => &ELECT_NOT_IN_MASK,
            WarpOp::Match { .. } => &MATCH_NOT_IN_MASK,
        }
    }
}

/// For each executing lane, the lanes that take part with it
/// (`membermask` less the exited and guarded-off lanes), or undefined
/// behaviour: the lane is not in its own `membermask`, or a lane of it has
/// neither exited nor arrived with the same `membermask` (the rules of
/// `shfl.sync`, PTX ISA 9.7.9.6, worded alike for these instructions).
pub fn members(
    not_in_mask: &'static Undefined,
    lanes: &[WarpLane; 32],
) -> [Option<Result<u32, &'static Undefined>>; 32] {
    let mut executes = 0u32;
    let mut inactive = 0u32;
    for (k, lane) in lanes.iter().enumerate() {
        match lane {
            WarpLane::Executes { .. } => executes |= 1 << k,
            WarpLane::Inactive => inactive |= 1 << k,
            WarpLane::GuardFalse | WarpLane::Exited => {}
        }
    }
    std::array::from_fn(|i| {
        let WarpLane::Executes { membermask, .. } = lanes[i] else {
            return None;
        };
        if membermask & (1 << i) == 0 {
            return Some(Err(not_in_mask));
        }
        let mismatched = (0..32).any(|k| {
            membermask & (1 << k) != 0
                && matches!(lanes[k], WarpLane::Executes { membermask: m, .. } if m != membermask)
        });
        if membermask & inactive != 0 || mismatched {
            return Some(Err(&NOT_CONVERGED));
        }
        Some(Ok(membermask & executes))
    })
}

/// `vote.sync`, `redux.sync` or `elect.sync` over a warp. Lanes that do not
/// execute get `None`.
///
/// - `vote.sync.ballot.b32`: "copies the predicate from each thread in
///   membermask into the corresponding bit position of destination register
///   d"; a lane outside `membermask` (or exited) contributes 0.
/// - `.all`/`.any`/`.uni`: "True if source predicate is True for all
///   non-exited threads in membermask", "... for some thread", "... has the
///   same value in all non-exited threads in membermask".
/// - `redux.sync`: the reduction "across all non-exited threads in the
///   membermask".
/// - `elect.sync`: "elects one predicated active leader thread from among a
///   set of threads specified by membermask ... Election of a leader thread
///   happens deterministically, i.e. the same leader thread is elected for
///   the same membermask every time." The spec does not say which; this
///   model elects the lowest-numbered participating lane, and `d` is its
///   laneid in every lane.
pub fn warp_sync(
    op: WarpOp,
    lanes: &[WarpLane; 32],
) -> [Option<Result<WarpOut, &'static Undefined>>; 32] {
    let members = members(op.not_in_mask(), lanes);
    let a = |k: usize| match lanes[k] {
        WarpLane::Executes { a, .. } => a,
        _ => 0,
    };
    std::array::from_fn(|i| {
        let m = match members[i]? {
            Ok(m) => m,
            Err(u) => return Some(Err(u)),
        };
        let set = (0..32).filter(|&k| m & (1 << k) != 0);
        let mut unspecified = 0;
        let (d, p) = match op {
            WarpOp::Vote(mode) => {
                let ballot = set.fold(0u32, |b, k| b | ((a(k) as u32 & 1) << k));
                let d = match mode {
                    VoteMode::Ballot => ballot,
                    VoteMode::All => u32::from(ballot == m),
                    VoteMode::Any => u32::from(ballot != 0),
                    VoteMode::Uni => u32::from(ballot == m || ballot == 0),
                };
                (u64::from(d), false)
            }
            WarpOp::Redux(r) if r.is_float() => {
                let mut acc: Option<(u64, u64)> = None;
                for k in set {
                    let x = a(k) & 0xffff_ffff;
                    acc = Some(match acc {
                        // a lone value goes through the same `.abs` and NaN
                        // rules as a pair (min(x, x))
                        None => r.combine_float(x, x),
                        Some((y, u)) => {
                            let (v, f) = r.combine_float(y, x);
                            (v, f | if v == y { u } else { 0 })
                        }
                    });
                }
                let (d, u) = acc.unwrap_or((0, 0));
                unspecified = u;
                (d, false)
            }
            WarpOp::Redux(r) => {
                let d = set
                    .map(|k| a(k) as u32)
                    .reduce(|x, y| r.combine(x, y))
                    .unwrap_or(0);
                (u64::from(d), false)
            }
            WarpOp::Elect => {
                let leader = m.trailing_zeros();
                (u64::from(leader), leader as usize == i)
            }
            // "match.any: d is set to mask corresponding to non-exited
            // threads in membermask that have same value of operand a";
            // "match.all: d is set to mask corresponding to all non-exited
            // threads in membermask if all non-exited threads in membermask
            // have same value of operand a; otherwise d is set to 0.
            // Optionally predicate p is set to true if all non-exited
            // threads in membermask have same value of operand a;
            // otherwise p is set to false."
            WarpOp::Match { all, .. } => {
                let same = set
                    .filter(|&k| a(k) == a(i))
                    .fold(0u32, |b, k| b | (1 << k));
                if all {
                    let uniform = same == m;
                    (if uniform { u64::from(m) } else { 0 }, uniform)
                } else {
                    (u64::from(same), false)
                }
            }
        };
        Some(Ok(WarpOut {
            d,
            p,
            unspecified,
            members: m,
        }))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warp(mask: u32, a: impl Fn(u32) -> u32) -> [WarpLane; 32] {
        std::array::from_fn(|i| WarpLane::Executes {
            a: u64::from(a(i as u32)),
            membermask: mask,
        })
    }

    fn ds(out: &[Option<Result<WarpOut, &'static Undefined>>; 32]) -> Vec<u32> {
        out.iter()
            .map(|o| match o {
                Some(Ok(r)) => r.d as u32,
                _ => u32::MAX,
            })
            .collect()
    }

    #[test]
    fn ballot_of_odd_lanes() {
        let r = ds(&warp_sync(
            WarpOp::Vote(VoteMode::Ballot),
            &warp(!0, |l| l & 1),
        ));
        assert!(r.iter().all(|&d| d == 0xAAAA_AAAA));
    }

    #[test]
    fn membermask_rules() {
        let mut lanes = warp(0xffff, |_| 1);
        for l in lanes.iter_mut().skip(16) {
            *l = WarpLane::Inactive;
        }
        let out = warp_sync(WarpOp::Vote(VoteMode::All), &lanes);
        assert_eq!(
            out[3],
            Some(Ok(WarpOut {
                d: 1,
                p: false,
                unspecified: 0,
                members: 0xffff
            }))
        );
        lanes[20] = WarpLane::Executes {
            a: 1,
            membermask: 0xffff,
        };
        assert_eq!(
            warp_sync(WarpOp::Elect, &lanes)[20],
            Some(Err(&ELECT_NOT_IN_MASK))
        );
        lanes[7] = WarpLane::Inactive;
        assert_eq!(
            warp_sync(WarpOp::Elect, &lanes)[0],
            Some(Err(&NOT_CONVERGED))
        );
        lanes[7] = WarpLane::Exited;
        assert_eq!(ds(&warp_sync(WarpOp::Redux(ReduxOp::Add), &lanes))[0], 15);
    }

    /// A lane outside its `membermask` stops with the precondition table's
    /// rule for the instruction, the one `conform ub` asks.
    #[test]
    fn the_membermask_rule_is_the_tables() {
        let ops = [
            WarpOp::Vote(VoteMode::Uni),
            WarpOp::Redux(ReduxOp::Add),
            WarpOp::Elect,
            WarpOp::Match {
                all: true,
                wide: true,
            },
        ];
        let lanes = warp(0xffff_fffe, |_| 1);
        for op in ops {
            assert_eq!(
                warp_sync(op, &lanes)[0],
                Some(Err(&table::warp_member(op).undefined())),
                "{op:?}"
            );
        }
        // four rules, one per instruction
        let rules: std::collections::HashSet<_> =
            ops.iter().map(|&op| op.not_in_mask().rule).collect();
        assert_eq!(rules.len(), 4);
    }
}
