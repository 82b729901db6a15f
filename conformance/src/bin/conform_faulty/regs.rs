//! Seeded faults in the register families: `prmt` (PTX ISA 9.7.9.7), the
//! packing and unpacking `mov` (9.7.9.4) and `shfl.sync` (9.7.9.6). Each is
//! the instruction's function as a buggy implementation writes it, with the
//! same signature as the model's (`ptx_semantics::sim`), so that the cases
//! the bug does not reach come out as the model says.

use ptx_semantics::sim::shfl::source_lane;
use ptx_semantics::sim::{mov_pack, mov_unpack, prmt, PrmtMode, ShflMode};

/// `prmt.b32{.mode} d, a, b, c`.
pub type PrmtFault = fn(Option<PrmtMode>, u32, u32, u32) -> u32;
/// The packing `mov.bW d, {..}`: width and elements.
pub type MovPackFault = fn(u32, &[u128]) -> Option<u128>;
/// The unpacking `mov.bW {..}, a`: width, element count and `a`.
pub type MovUnpackFault = fn(u32, usize, u128) -> Option<[u128; 4]>;
/// What lane `lane` does at `shfl.sync.mode.b32 d|p, a, b, c, membermask`
/// in the suite's kernel, where lanes outside `membermask` have their
/// guard false: `None`, it does not execute (and the kernel stores `d = 0`,
/// `p = 0`); or the lane `d` comes from and `p`.
pub type ShflFault = fn(ShflMode, u32, u32, u32, u32) -> Option<(u32, bool)>;

/// The generic form's sign replication gives `0xff` whatever the sign of
/// the selected byte (PTX ISA 9.7.9.7: "the sign (msb of the byte) should
/// be replicated over all 8 bits").
pub fn prmt_sign_ff(mode: Option<PrmtMode>, a: u32, b: u32, c: u32) -> u32 {
    if mode.is_some() {
        return prmt(mode, a, b, c);
    }
    let bytes = (u64::from(b) << 32) | u64::from(a);
    (0..4).fold(0, |d, k| {
        let sel = (c >> (4 * k)) & 0xf;
        let v = if sel & 8 != 0 {
            0xff
        } else {
            ((bytes >> (8 * (sel & 7))) & 0xff) as u32
        };
        d | (v << (8 * k))
    })
}

/// `.f4e` and `.b4e` mixed up.
pub fn prmt_f4e_b4e_swapped(mode: Option<PrmtMode>, a: u32, b: u32, c: u32) -> u32 {
    let mode = match mode {
        Some(PrmtMode::F4e) => Some(PrmtMode::B4e),
        Some(PrmtMode::B4e) => Some(PrmtMode::F4e),
        m => m,
    };
    prmt(mode, a, b, c)
}

/// `.ecl` and `.ecr` mixed up.
pub fn prmt_ecl_ecr_swapped(mode: Option<PrmtMode>, a: u32, b: u32, c: u32) -> u32 {
    let mode = match mode {
        Some(PrmtMode::Ecl) => Some(PrmtMode::Ecr),
        Some(PrmtMode::Ecr) => Some(PrmtMode::Ecl),
        m => m,
    };
    prmt(mode, a, b, c)
}

/// `.rc16` picks the half to replicate with `c[1]` instead of `c[0]`
/// (the table of 9.7.9.7: selectors 1 and 3 give bytes 3 2 3 2).
pub fn prmt_rc16_wrong_bit(mode: Option<PrmtMode>, a: u32, b: u32, c: u32) -> u32 {
    if mode == Some(PrmtMode::Rc16) {
        prmt(mode, a, b, (c >> 1) & 1)
    } else {
        prmt(mode, a, b, c)
    }
}

/// Packing with the elements in reverse order (`a.x` in the top bits).
pub fn mov_pack_reversed(width: u32, elems: &[u128]) -> Option<u128> {
    let reversed: Vec<u128> = elems.iter().rev().copied().collect();
    mov_pack(width, &reversed)
}

/// Unpacking with the elements in reverse order (`d.x` from the top
/// bits).
pub fn mov_unpack_reversed(width: u32, count: usize, a: u128) -> Option<[u128; 4]> {
    let mut d = mov_unpack(width, count, a)?;
    d[..count].reverse();
    Some(d)
}

fn member(membermask: u32, lane: u32) -> bool {
    membermask >> (lane & 31) & 1 == 1
}

/// The model: members execute, with the source lane and `p` of the
/// Semantics block.
pub fn shfl_correct(mode: ShflMode, lane: u32, b: u32, c: u32, m: u32) -> Option<(u32, bool)> {
    member(m, lane).then(|| source_lane(mode, lane, b, c))
}

/// `membermask` ignored: the shuffle runs on the whole warp, as if
/// `membermask` were `0xffffffff`, lanes whose guard is false included
/// (a lowering to a full-warp shuffle that forgets the guard).
///
/// Why this form of the bug: inside `membermask` the spec's `p` does not
/// depend on the mask ("set to True if the computed source lane is in
/// range"), and `d` from a lane outside it is unspecified (a don't-care
/// bit in the suite), so ignoring the mask there changes nothing the suite
/// may compare. Lanes outside the mask are where it shows: they must not
/// execute, so the kernel's `d = 0` and `p = 0` stand, and both are
/// defined outputs.
pub fn shfl_ignores_membermask(
    mode: ShflMode,
    lane: u32,
    b: u32,
    c: u32,
    _m: u32,
) -> Option<(u32, bool)> {
    Some(source_lane(mode, lane, b, c))
}

/// `p` false, and `d` the lane's own `a`, when the source lane is outside
/// `membermask` (the mask folded into the range check; the spec's `p`
/// asks only whether "the computed source lane is in range").
pub fn shfl_p_requires_member(
    mode: ShflMode,
    lane: u32,
    b: u32,
    c: u32,
    m: u32,
) -> Option<(u32, bool)> {
    let (j, p) = shfl_correct(mode, lane, b, c, m)?;
    Some(if member(m, j) { (j, p) } else { (lane, false) })
}

/// The Semantics block of 9.7.9.6 with some of its details wrong.
#[derive(Clone, Copy, Default)]
struct LaneBugs {
    /// `.up`: `pval = (j > maxLane)` for `(j >= maxLane)`.
    up_strict: bool,
    /// `segmask` taken as 0 (`maxLane = cval`, `minLane = 0`).
    no_segmask: bool,
    /// `bval` the whole of `b`, not `b[4:0]`.
    wide_b: bool,
}

fn faulty_source_lane(mode: ShflMode, lane: u32, b: u32, c: u32, bugs: LaneBugs) -> (u32, bool) {
    let lane = i64::from(lane & 31);
    let bval = i64::from(if bugs.wide_b { b } else { b & 31 });
    let cval = i64::from(c & 31);
    let segmask = if bugs.no_segmask {
        0
    } else {
        i64::from((c >> 8) & 31)
    };
    let max_lane = (lane & segmask) | (cval & !segmask & 31);
    let min_lane = lane & segmask;
    let (j, pval) = match mode {
        ShflMode::Up => {
            let j = lane - bval;
            (
                j,
                if bugs.up_strict {
                    j > max_lane
                } else {
                    j >= max_lane
                },
            )
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
            let j = min_lane | (bval & !segmask);
            (j, j <= max_lane)
        }
    };
    let j = if pval { j } else { lane };
    ((j & 31) as u32, pval)
}

/// `.up`'s predicate off by one: `j > maxLane`, so the lane that reads
/// exactly `maxLane` keeps its own value with `p` false.
pub fn shfl_up_p_off_by_one(
    mode: ShflMode,
    lane: u32,
    b: u32,
    c: u32,
    m: u32,
) -> Option<(u32, bool)> {
    let bugs = LaneBugs {
        up_strict: true,
        ..Default::default()
    };
    member(m, lane).then(|| faulty_source_lane(mode, lane, b, c, bugs))
}

/// The clamp ignores the segment mask `c[12:8]`: the whole warp is one
/// segment.
pub fn shfl_ignores_segmask(
    mode: ShflMode,
    lane: u32,
    b: u32,
    c: u32,
    m: u32,
) -> Option<(u32, bool)> {
    let bugs = LaneBugs {
        no_segmask: true,
        ..Default::default()
    };
    member(m, lane).then(|| faulty_source_lane(mode, lane, b, c, bugs))
}

/// `b` not masked to its 5 low bits, so `b = 33` is out of range where the
/// spec reads lane offset 1 ("an out of range value of b may still result
/// in a valid computed source lane").
pub fn shfl_b_unmasked(mode: ShflMode, lane: u32, b: u32, c: u32, m: u32) -> Option<(u32, bool)> {
    let bugs = LaneBugs {
        wide_b: true,
        ..Default::default()
    };
    member(m, lane).then(|| faulty_source_lane(mode, lane, b, c, bugs))
}
