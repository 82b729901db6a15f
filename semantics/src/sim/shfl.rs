//! `shfl.sync` (PTX ISA 9.7.9.6) and the deprecated `shfl` (9.7.9.5) as
//! functions of a whole warp. Waiting for the lanes of `membermask` is the
//! interpreter's business; these functions see the warp once every lane
//! that will take part has arrived.

use super::undefined::{Partial, Undefined};
use super::window::WindowProfile;
use crate::precond::{table, Env};

/// `.mode` of `shfl` and `shfl.sync`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShflMode {
    Up,
    Down,
    Bfly,
    Idx,
}

impl ShflMode {
    pub fn from_qualifier(q: &str) -> Option<ShflMode> {
        Some(match q {
            ".up" => ShflMode::Up,
            ".down" => ShflMode::Down,
            ".bfly" => ShflMode::Bfly,
            ".idx" => ShflMode::Idx,
            _ => return None,
        })
    }
}

/// What one lane of the warp does at the shuffle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShflLane {
    /// The lane executes the instruction with these operands (for the
    /// deprecated `shfl`, `membermask` is ignored).
    Executes {
        a: u32,
        b: u32,
        c: u32,
        membermask: u32,
    },
    /// The lane is at the instruction but its guard predicate is false: it
    /// provides no value ("Value of SourceA[lane] is unpredictable for
    /// inactive/predicated-off threads").
    GuardFalse,
    /// The lane is not at the instruction (divergent control flow) but has
    /// not exited.
    Inactive,
    /// The lane has exited.
    Exited,
}

/// One lane's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShflOut {
    /// `d`; all bits unspecified where the source lane provides no value.
    pub d: Partial<u32>,
    /// The optional predicate destination `p` ("set to True if the
    /// computed source lane is in range").
    pub p: bool,
    /// The lane `d` comes from (`j` of the Semantics block, after "if
    /// (!pval) j = lane").
    pub source: u32,
    /// Why `d` is unspecified, when it is.
    pub why: Option<&'static Undefined>,
}

/// [`table::SHFL_MEMBER`]'s undefined case.
const NOT_IN_MASK: Undefined = table::SHFL_MEMBER.undefined();
const NOT_CONVERGED: Undefined = Undefined::behaviour(
    "9.7.9.6",
    "shfl.sync will cause executing thread to wait until all non-exited threads corresponding to membermask have executed shfl.sync with the same qualifiers and same membermask value",
);
const SOURCE_OUTSIDE: Undefined = Undefined::result(
    "9.7.9.6",
    "results are undefined if a thread sources a register from an inactive thread or a thread that is not in membermask",
);
const SOURCE_INACTIVE: Undefined = Undefined::result(
    "9.7.9.5",
    "results are undefined in divergent control flow within a warp, if an active thread sources a register from an inactive thread",
);

/// The source lane `j` and `pval` of 9.7.9.5/9.7.9.6's Semantics block:
///
/// ```text
/// bval[4:0] = b[4:0]; cval[4:0] = c[4:0]; segmask[4:0] = c[12:8];
/// maxLane = (lane[4:0] & segmask[4:0]) | (cval[4:0] & ~segmask[4:0]);
/// minLane = (lane[4:0] & segmask[4:0]);
/// .up:   j = lane - bval; pval = (j >= maxLane);
/// .down: j = lane + bval; pval = (j <= maxLane);
/// .bfly: j = lane ^ bval; pval = (j <= maxLane);
/// .idx:  j = minLane | (bval[4:0] & ~segmask[4:0]); pval = (j <= maxLane);
/// if (!pval) j = lane;
/// ```
pub fn source_lane(mode: ShflMode, lane: u32, b: u32, c: u32) -> (u32, bool) {
    let lane = (lane & 31) as i64;
    let bval = (b & 31) as i64;
    let cval = (c & 31) as i64;
    let segmask = ((c >> 8) & 31) as i64;
    let max_lane = (lane & segmask) | (cval & !segmask & 31);
    let min_lane = lane & segmask;
    let (j, pval) = match mode {
        ShflMode::Up => {
            let j = lane - bval;
            (j, j >= max_lane)
        }
        ShflMode::Down => {
            let j = lane + bval;
            (j, j <= max_lane)
        }
        ShflMode::Bfly => {
            let j = lane ^ bval;
            (j, j <= max_lane)
        }
        ShflMode::Idx => {
            let j = min_lane | (bval & !segmask & 31);
            (j, j <= max_lane)
        }
    };
    let j = if pval { j } else { lane };
    ((j & 31) as u32, pval)
}

/// `shfl.sync.mode.b32 d[|p], a, b, c, membermask` over a warp. Lanes that
/// do not execute get `None`; an executing lane gets its result, or
/// undefined behaviour: it is not in its own `membermask`, or a lane of its
/// `membermask` has neither exited nor arrived with the same `membermask`.
pub fn shfl_sync(
    mode: ShflMode,
    lanes: &[ShflLane; 32],
) -> [Option<Result<ShflOut, &'static Undefined>>; 32] {
    let mut out = [None; 32];
    // which lanes execute, which are neither there nor exited, and whether
    // every executing lane gives the same membermask (the usual case)
    let mut executes = 0u32;
    let mut inactive = 0u32;
    let mut common: Option<u32> = None;
    let mut uniform = true;
    for (k, lane) in lanes.iter().enumerate() {
        match *lane {
            ShflLane::Executes { membermask, .. } => {
                executes |= 1 << k;
                match common {
                    None => common = Some(membermask),
                    Some(m) if m != membermask => uniform = false,
                    _ => {}
                }
            }
            ShflLane::Inactive => inactive |= 1 << k,
            ShflLane::GuardFalse | ShflLane::Exited => {}
        }
    }
    for (i, lane) in lanes.iter().enumerate() {
        let ShflLane::Executes {
            b, c, membermask, ..
        } = *lane
        else {
            continue;
        };
        let env = Env {
            mask: u64::from(membermask),
            lane: i as u64,
            ..Env::default()
        };
        if !crate::precond::holds(&WindowProfile::SM90, &table::SHFL_MEMBER.holds, &env) {
            out[i] = Some(Err(&NOT_IN_MASK));
            continue;
        }
        // a member that has not arrived, or arrived with another membermask
        let mismatched = !uniform && (0..32).any(|k| {
            membermask & executes & (1 << k) != 0
                && matches!(lanes[k], ShflLane::Executes { membermask: m, .. } if m != membermask)
        });
        if membermask & inactive != 0 || mismatched {
            out[i] = Some(Err(&NOT_CONVERGED));
            continue;
        }
        let (j, p) = source_lane(mode, i as u32, b, c);
        let d = match lanes[j as usize] {
            ShflLane::Executes { a, .. } if membermask & (1 << j) != 0 => (Partial::known(a), None),
            _ => (Partial::unknown(), Some(&SOURCE_OUTSIDE)),
        };
        out[i] = Some(Ok(ShflOut {
            d: d.0,
            p,
            source: j,
            why: d.1,
        }));
    }
    out
}

/// The deprecated `shfl.mode.b32 d[|p], a, b, c` over a warp: as
/// [`shfl_sync`] with the executing lanes as the member mask, except that
/// sourcing from a lane that does not execute leaves `d` unspecified
/// rather than waiting.
pub fn shfl(mode: ShflMode, lanes: &[ShflLane; 32]) -> [Option<ShflOut>; 32] {
    let mut out = [None; 32];
    for (i, lane) in lanes.iter().enumerate() {
        let ShflLane::Executes { b, c, .. } = *lane else {
            continue;
        };
        let (j, p) = source_lane(mode, i as u32, b, c);
        let (d, why) = match lanes[j as usize] {
            ShflLane::Executes { a, .. } => (Partial::known(a), None),
            _ => (Partial::unknown(), Some(&SOURCE_INACTIVE)),
        };
        out[i] = Some(ShflOut {
            d,
            p,
            source: j,
            why,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warp(b: u32, c: u32, mask: u32) -> [ShflLane; 32] {
        std::array::from_fn(|i| ShflLane::Executes {
            a: 100 + i as u32,
            b,
            c,
            membermask: mask,
        })
    }

    fn ds(out: &[Option<Result<ShflOut, &'static Undefined>>; 32]) -> Vec<(u32, bool)> {
        out.iter()
            .map(|o| match o {
                Some(Ok(r)) => (r.d.bits, r.p),
                _ => (u32::MAX, false),
            })
            .collect()
    }

    /// The spec's inclusive scan: `shfl.up.b32 Ry|p, Rx, 0x1, 0x0`: lane i
    /// reads lane i-1, and lane 0 keeps its own value with p false.
    #[test]
    fn up_by_one() {
        let r = ds(&shfl_sync(ShflMode::Up, &warp(1, 0, u32::MAX)));
        assert_eq!(r[0], (100, false));
        for (i, got) in r.iter().enumerate().skip(1) {
            assert_eq!(*got, (100 + i as u32 - 1, true));
        }
    }

    /// The reverse scan: `shfl.down.b32 Ry|p, Rx, 0x2, 0x1f`.
    #[test]
    fn down_clamped_at_31() {
        let r = ds(&shfl_sync(ShflMode::Down, &warp(2, 0x1f, u32::MAX)));
        for (i, got) in r.iter().enumerate().take(30) {
            assert_eq!(*got, (100 + i as u32 + 2, true));
        }
        assert_eq!(r[30], (130, false));
        assert_eq!(r[31], (131, false));
    }

    /// The butterfly reduction: `shfl.bfly.b32 Ry, Rx, 0x10, 0x1f`.
    #[test]
    fn butterfly() {
        let r = ds(&shfl_sync(ShflMode::Bfly, &warp(0x10, 0x1f, u32::MAX)));
        for i in 0..32u32 {
            assert_eq!(r[i as usize], (100 + (i ^ 16), true));
        }
    }

    /// `.idx` with a segment mask: c = 0x181f makes segments of 8 lanes
    /// (segmask 0b11000), so j = (lane & 0x18) | (b & 7).
    #[test]
    fn idx_in_segments() {
        let r = ds(&shfl_sync(ShflMode::Idx, &warp(5, 0x181f, u32::MAX)));
        for i in 0..32u32 {
            let j = (i & 0x18) | 5;
            assert_eq!(r[i as usize], (100 + j, true));
        }
        // "an out of range value of b may still result in a valid computed
        // source lane": b = 37 acts as 5 here.
        assert_eq!(
            ds(&shfl_sync(ShflMode::Idx, &warp(37, 0x181f, u32::MAX))),
            r
        );
    }

    #[test]
    fn membermask_rules() {
        let mut lanes = warp(1, 0x1f, 0x0000_ffff);
        for l in lanes.iter_mut().skip(16) {
            *l = ShflLane::Inactive;
        }
        let out = shfl_sync(ShflMode::Down, &lanes);
        // lane 15 reads lane 16, outside membermask: d unspecified, p known
        let o = out[15].unwrap().unwrap();
        assert!(!o.d.is_known() && o.p && o.why == Some(&SOURCE_OUTSIDE));
        assert_eq!(out[14].unwrap().unwrap().d, Partial::known(115));
        assert!(out[16].is_none());
        // a lane not in its own membermask: undefined behaviour
        let mut lanes = warp(0, 0x1f, 0xffff_fffe);
        lanes[0] = ShflLane::Executes {
            a: 1,
            b: 0,
            c: 0x1f,
            membermask: 0xffff_fffe,
        };
        assert_eq!(shfl_sync(ShflMode::Idx, &lanes)[0], Some(Err(&NOT_IN_MASK)));
        // a member that never arrives
        let mut lanes = warp(0, 0x1f, u32::MAX);
        lanes[7] = ShflLane::Inactive;
        assert_eq!(
            shfl_sync(ShflMode::Idx, &lanes)[0],
            Some(Err(&NOT_CONVERGED))
        );
        lanes[7] = ShflLane::Exited;
        let out = shfl_sync(ShflMode::Idx, &lanes);
        assert_eq!(out[0].unwrap().unwrap().d, Partial::known(100));
        // reading an exited lane
        let o = shfl_sync(ShflMode::Idx, &warp(7, 0x1f, u32::MAX).map(|l| l));
        assert_eq!(o[3].unwrap().unwrap().d, Partial::known(107));
    }

    #[test]
    fn deprecated_shfl_reads_inactive_lanes_as_unspecified() {
        let mut lanes = warp(1, 0x1f, 0);
        lanes[5] = ShflLane::GuardFalse;
        let out = shfl(ShflMode::Down, &lanes);
        assert!(!out[4].unwrap().d.is_known());
        assert_eq!(out[3].unwrap().d, Partial::known(104));
        assert!(out[5].is_none());
    }
}
