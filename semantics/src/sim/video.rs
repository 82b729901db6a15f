//! The interpreter's decoded form of the video, `set` and `slct`
//! instructions and of the packed integer forms of PTX ISA 9.7.1, and one
//! lane's evaluation through [`crate::arith::video`]. Decoding is
//! `decode/video.rs`'s business; reading registers and their unspecified
//! bits the machine's.

use super::program::{Reg, Src};
use crate::arith::compare::{self, BoolOp, CmpOp, SetDest};
use crate::arith::video::{self, PackedOp, Scalar, SetType, Simd, SimdOp, VideoOp, Vmad};

/// What the instruction computes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Video {
    /// `set`: `srcs` are `a`, `b` and (with `combine`) the predicate `c`,
    /// negated when `negate_c`. `dest` is `.dtype`; with `packed` the
    /// source is `.f16x2`/`.bf16x2` (`ty` its lane format) and `dest` is
    /// `F16`/`BF16` for a packed float destination, `U32` for `.u32`/`.s32`.
    Set {
        ty: SetType,
        op: CmpOp,
        ftz: bool,
        combine: Option<BoolOp>,
        negate_c: bool,
        dest: SetDest,
        packed: bool,
    },
    /// `slct`: `srcs` are `a`, `b`, `c`.
    Slct {
        float_c: bool,
        ftz: bool,
    },
    /// `vadd`, `vsub`, `vabsdiff`, `vmin`, `vmax`.
    Scalar {
        op: VideoOp,
        s: Scalar,
    },
    /// `vshl` (`left`), `vshr`.
    Shift {
        left: bool,
        clamp: bool,
        s: Scalar,
    },
    Vmad(Vmad),
    Vset {
        cmp: CmpOp,
        s: Scalar,
    },
    /// `vadd2`..`vset4`.
    Simd {
        op: SimdOp,
        s: Simd,
    },
    /// `add.u16x2`, `min.s16x2`, `neg.s8x4`...
    Packed {
        op: PackedOp,
        lanes: u32,
        signed: bool,
    },
}

/// A decoded instruction: destination `d` (`bits` wide), sources `a`, `b`,
/// `c` (unused ones `Src::Imm(0)`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VideoInstr {
    pub op: Video,
    pub d: Reg,
    pub bits: u16,
    pub srcs: [Src; 3],
}

/// One lane's result from its source values, or `None` where the form has
/// no meaning (a comparison the type lacks; the decoder refuses those).
pub fn eval(v: &VideoInstr, x: [u64; 3]) -> Option<u64> {
    let [a, b, c] = x;
    let (a32, b32, c32) = (a as u32, b as u32, c as u32);
    Some(match v.op {
        Video::Set {
            ty,
            op,
            ftz,
            combine,
            negate_c,
            dest,
            packed,
        } => {
            let combine = combine.map(|o| (o, (c & 1 == 1) != negate_c));
            match (ty, packed, dest) {
                (SetType::Float(f), true, _) => {
                    compare::set_x2(f, op, ftz, combine, dest != SetDest::U32, a, b)?
                }
                (_, false, SetDest::U32 | SetDest::F32) => u64::from(video::set(
                    ty,
                    op,
                    ftz,
                    combine,
                    dest == SetDest::F32,
                    a,
                    b,
                )?),
                (_, false, _) => compare::set_half(ty, op, ftz, combine, dest, a, b)?,
                (SetType::Int(_), true, _) => return None,
            }
        }
        Video::Slct { float_c, ftz } => video::slct(float_c, ftz, a, b, c32),
        Video::Scalar { op, s } => u64::from(video::vop(op, s, a32, b32, c32)),
        Video::Shift { left, clamp, s } => u64::from(video::vshift(left, clamp, s, a32, b32, c32)),
        Video::Vmad(m) => u64::from(video::vmad(m, a32, b32, c32)),
        Video::Vset { cmp, s } => u64::from(video::vset(cmp, s, a32, b32, c32)?),
        Video::Simd { op, s } => u64::from(video::simd(op, s, a32, b32, c32)?),
        Video::Packed { op, lanes, signed } => {
            u64::from(video::packed(op, lanes, signed, a32, b32))
        }
    })
}
