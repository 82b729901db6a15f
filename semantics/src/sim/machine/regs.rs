//! Register-only instructions over a warp's lanes, with the warp borrowed
//! once: reading sources (registers, immediates, special registers),
//! writing destinations with their unspecified bits.

use super::{lanes, Shape, Warp, LANES};
use crate::sim::alu::{self, mask};
use crate::sim::pack;
use crate::sim::prmt;
use crate::sim::program::{BinOp, BoolOp, Op, Reg, Src, Sreg};

/// What a warp's lanes read besides registers: their place in the grid.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ctx {
    pub rank: u32,
    pub rank_shift: u32,
    pub ctaid: [u32; 3],
    pub cluster_ctaid: [u32; 3],
    pub first: u32,
    pub shape: Shape,
}

#[inline(always)]
pub(crate) fn rd(wp: &Warp, cx: &Ctx, s: Src, l: usize) -> u64 {
    match s {
        Src::Reg(r) | Src::Reg128(r) => wp.regs[r as usize * LANES + l],
        Src::Imm(v) => v,
        Src::SharedAddr(off) => (u64::from(cx.rank) << cx.rank_shift) | off,
        Src::Sreg(sr) => sreg(cx, sr, l),
        Src::Unspecified => 0,
    }
}

#[inline(always)]
pub(crate) fn rd_hi(wp: &Warp, s: Src, l: usize) -> u64 {
    match s {
        Src::Reg128(r) => wp.regs[(r as usize + 1) * LANES + l],
        _ => 0,
    }
}

/// The unspecified bits of a source.
#[inline(always)]
pub(crate) fn us(wp: &Warp, s: Src, l: usize) -> u64 {
    match s {
        Src::Reg(r) | Src::Reg128(r) => wp
            .shadow
            .as_ref()
            .map_or(0, |sh| sh[r as usize * LANES + l]),
        Src::Unspecified => u64::MAX,
        Src::Sreg(
            Sreg::Volatile
            | Sreg::Smid
            | Sreg::Nsmid
            | Sreg::Gridid
            | Sreg::Warpid
            | Sreg::Nwarpid
            | Sreg::TotalSmemSize,
        ) => u64::MAX,
        _ => 0,
    }
}

#[inline(always)]
pub(crate) fn us_hi(wp: &Warp, s: Src, l: usize) -> u64 {
    match s {
        Src::Reg128(r) => wp
            .shadow
            .as_ref()
            .map_or(0, |sh| sh[(r as usize + 1) * LANES + l]),
        _ => 0,
    }
}

#[inline(always)]
pub(crate) fn wr(wp: &mut Warp, d: Reg, l: usize, v: u64, sh: u64) {
    let i = d as usize * LANES + l;
    wp.regs[i] = v;
    if sh != 0 || wp.shadow.is_some() {
        let n = wp.regs.len();
        wp.shadow.get_or_insert_with(|| vec![0; n])[i] = sh;
    }
}

#[inline(always)]
fn wr128(wp: &mut Warp, d: Reg, l: usize, v: u128, sh: u128) {
    wr(wp, d, l, v as u64, sh as u64);
    wr(wp, d + 1, l, (v >> 64) as u64, (sh >> 64) as u64);
}

pub(crate) fn sreg(cx: &Ctx, sr: Sreg, lane: usize) -> u64 {
    let s = &cx.shape;
    let t = cx.first + lane as u32;
    let b = s.block;
    let l = lane as u32;
    let v: u32 = match sr {
        Sreg::Tid(0) => t % b[0],
        Sreg::Tid(1) => (t / b[0]) % b[1],
        Sreg::Tid(_) => t / (b[0] * b[1]),
        Sreg::Ntid(a) => b[a as usize],
        Sreg::Laneid => l,
        Sreg::Ctaid(a) => cx.ctaid[a as usize],
        Sreg::Nctaid(a) => s.grid[a as usize],
        Sreg::LanemaskEq => 1 << l,
        Sreg::LanemaskLe => ((2u64 << l) - 1) as u32,
        Sreg::LanemaskLt => (1u32 << l).wrapping_sub(1),
        Sreg::LanemaskGe => !((1u32 << l).wrapping_sub(1)),
        Sreg::LanemaskGt => !(((2u64 << l) - 1) as u32),
        Sreg::ClusterCtarank => cx.rank,
        Sreg::ClusterNctarank => s.cluster_size,
        Sreg::ClusterCtaid(a) => cx.cluster_ctaid[a as usize],
        Sreg::ClusterNctaid(a) => s.cluster[a as usize],
        Sreg::Clusterid(a) => s.clusterid[a as usize],
        Sreg::Nclusterid(a) => s.grid[a as usize] / s.cluster[a as usize],
        Sreg::IsExplicitCluster => u32::from(s.explicit_cluster),
        Sreg::DynamicSmemSize => s.dynamic_shared as u32,
        Sreg::Warpid => t / LANES as u32,
        Sreg::Nwarpid
        | Sreg::Smid
        | Sreg::Nsmid
        | Sreg::Gridid
        | Sreg::TotalSmemSize
        | Sreg::Volatile => 0,
    };
    u64::from(v)
}

/// A register or an immediate (no special register, no address).
#[inline(always)]
fn plain(s: Src) -> bool {
    matches!(s, Src::Reg(_) | Src::Imm(_))
}

/// A register operand's first index in the register file, or `usize::MAX`
/// for an immediate.
#[inline(always)]
fn slot(s: Src) -> usize {
    match s {
        Src::Reg(r) => r as usize * LANES,
        _ => usize::MAX,
    }
}

#[inline(always)]
fn imm(s: Src) -> u64 {
    match s {
        Src::Imm(v) => v,
        _ => 0,
    }
}

/// Runs `f` for each lane of `exec` (a plain loop for a whole warp).
#[inline(always)]
fn for_lanes(exec: u32, mut f: impl FnMut(usize)) {
    if exec == u32::MAX {
        for l in 0..LANES {
            f(l);
        }
    } else {
        for l in lanes(exec) {
            f(l);
        }
    }
}

/// An integer-to-integer `cvt`: source, destination, `.sat`, and the
/// destination format.
#[inline(always)]
fn int_pair(
    conv: &crate::cvt::Conversion,
) -> Option<(
    crate::cvt::format::IntFormat,
    crate::cvt::format::IntFormat,
    bool,
    crate::cvt::format::Format,
)> {
    use crate::cvt::format::Format;
    match conv {
        crate::cvt::Conversion::Cvt(op) => match (op.src, op.dst) {
            (Format::Int(a), Format::Int(b)) => Some((a, b, op.mods.sat, op.dst)),
            _ => None,
        },
        _ => None,
    }
}

/// Runs a register-only instruction for the lanes of `exec`; `false` when
/// `op` is not one.
pub(crate) fn register_op(wp: &mut Warp, cx: &Ctx, op: &Op, exec: u32) -> bool {
    match *op {
        Op::Mov128 { d, a } => {
            for l in lanes(exec) {
                let v = u128::from(rd(wp, cx, a, l)) | (u128::from(rd_hi(wp, a, l)) << 64);
                let sh = u128::from(us(wp, a, l)) | (u128::from(us_hi(wp, a, l)) << 64);
                wr128(wp, d, l, v, sh);
            }
        }
        Op::Pack {
            d,
            width,
            ref elems,
        } => {
            let n = elems.len().min(4);
            for l in lanes(exec) {
                let mut vals = [0u128; 4];
                let mut shs = [0u128; 4];
                for (k, e) in elems.iter().enumerate().take(4) {
                    vals[k] = u128::from(rd(wp, cx, *e, l));
                    shs[k] = u128::from(us(wp, *e, l));
                }
                let v = pack::mov_pack(width, &vals[..n]).unwrap_or(0);
                let sh = pack::mov_pack(width, &shs[..n]).unwrap_or(u128::MAX);
                if width > 64 {
                    wr128(wp, d, l, v, sh);
                } else {
                    wr(wp, d, l, v as u64, sh as u64);
                }
            }
        }
        Op::Unpack { ref d, width, a } => {
            let n = d.len();
            for l in lanes(exec) {
                let v = u128::from(rd(wp, cx, a, l)) | (u128::from(rd_hi(wp, a, l)) << 64);
                let sh = u128::from(us(wp, a, l)) | (u128::from(us_hi(wp, a, l)) << 64);
                let parts = pack::mov_unpack(width, n, v).unwrap_or([0; 4]);
                let shs = pack::mov_unpack(width, n, sh).unwrap_or([u128::MAX; 4]);
                for (k, r) in d.iter().enumerate() {
                    if let Some(r) = r {
                        wr(wp, *r, l, parts[k] as u64, shs[k] as u64);
                    }
                }
            }
        }
        // the common case: register or immediate operands, every bit
        // specified, a whole warp
        Op::Bin { op, ty, d, a, b } if wp.shadow.is_none() && plain(a) && plain(b) => {
            let (ia, ib, id) = (slot(a), slot(b), d as usize * LANES);
            let (va, vb) = (imm(a), imm(b));
            let m = mask(u32::from(ty.bits));
            // the operation chosen once, the lanes in a tight loop
            macro_rules! each {
                ($f:expr) => {{
                    let f = $f;
                    for_lanes(exec, |l| {
                        let x = if ia == usize::MAX {
                            va
                        } else {
                            wp.regs[ia + l]
                        };
                        let y = if ib == usize::MAX {
                            vb
                        } else {
                            wp.regs[ib + l]
                        };
                        wp.regs[id + l] = f(x, y) & m;
                    });
                }};
            }
            match op {
                BinOp::Add => each!(|x: u64, y: u64| x.wrapping_add(y)),
                BinOp::Sub => each!(|x: u64, y: u64| x.wrapping_sub(y)),
                BinOp::MulLo => each!(|x: u64, y: u64| x.wrapping_mul(y)),
                BinOp::And => each!(|x: u64, y: u64| x & y),
                BinOp::Or => each!(|x: u64, y: u64| x | y),
                BinOp::Xor => each!(|x: u64, y: u64| x ^ y),
                _ => {
                    let mut unspecified = 0u32;
                    for_lanes(exec, |l| {
                        let x = if ia == usize::MAX {
                            va
                        } else {
                            wp.regs[ia + l]
                        };
                        let y = if ib == usize::MAX {
                            vb
                        } else {
                            wp.regs[ib + l]
                        };
                        match alu::binary(op, ty, x, y) {
                            Some(v) => wp.regs[id + l] = v,
                            None => {
                                wp.regs[id + l] = alu::nominal(op, ty, x, y);
                                unspecified |= 1 << l;
                            }
                        }
                    });
                    // "Division by zero yields an unspecified,
                    // machine-specific value" (9.7.1.7)
                    let bits = u32::from(ty.bits) * if op == BinOp::MulWide { 2 } else { 1 };
                    for l in lanes(unspecified) {
                        let v = wp.regs[id + l];
                        wr(wp, d, l, v, mask(bits));
                    }
                }
            }
        }
        Op::Prmt { d, a, b, c, mode }
            if wp.shadow.is_none() && plain(a) && plain(b) && plain(c) =>
        {
            let (ia, ib, ic, id) = (slot(a), slot(b), slot(c), d as usize * LANES);
            let (va, vb, vc) = (imm(a), imm(b), imm(c));
            for_lanes(exec, |l| {
                let x = if ia == usize::MAX {
                    va
                } else {
                    wp.regs[ia + l]
                };
                let y = if ib == usize::MAX {
                    vb
                } else {
                    wp.regs[ib + l]
                };
                let z = if ic == usize::MAX {
                    vc
                } else {
                    wp.regs[ic + l]
                };
                wp.regs[id + l] = u64::from(prmt::prmt(mode, x as u32, y as u32, z as u32));
            });
        }
        Op::Mov { d, a, bits } if wp.shadow.is_none() && plain(a) && bits > 1 => {
            let (ia, id) = (slot(a), d as usize * LANES);
            let (va, m) = (imm(a), mask(u32::from(bits)));
            for_lanes(exec, |l| {
                wp.regs[id + l] = (if ia == usize::MAX {
                    va
                } else {
                    wp.regs[ia + l]
                }) & m;
            });
        }
        Op::Setp {
            cmp,
            ty,
            unsigned,
            p: Some(p),
            q: None,
            a,
            b,
            combine: None,
        } if wp.shadow.is_none() && plain(a) && plain(b) => {
            let (ia, ib, ip) = (slot(a), slot(b), p as usize * LANES);
            let (va, vb) = (imm(a), imm(b));
            for_lanes(exec, |l| {
                let x = if ia == usize::MAX {
                    va
                } else {
                    wp.regs[ia + l]
                };
                let y = if ib == usize::MAX {
                    vb
                } else {
                    wp.regs[ib + l]
                };
                wp.regs[ip + l] = u64::from(alu::compare(cmp, ty, unsigned, x, y));
            });
        }
        Op::Mov { d, a, bits } => {
            let m = mask(u32::from(bits));
            for l in lanes(exec) {
                let (v, sh) = (rd(wp, cx, a, l), us(wp, a, l));
                let (v, sh) = if bits == 1 {
                    (u64::from(v & 1 != 0), sh & 1)
                } else {
                    (v & m, sh & m)
                };
                wr(wp, d, l, v, sh);
            }
        }
        Op::Bin { op, ty, d, a, b } => {
            let bits = u32::from(ty.bits) * if op == BinOp::MulWide { 2 } else { 1 };
            let m = mask(bits);
            for l in lanes(exec) {
                let (x, y) = (rd(wp, cx, a, l), rd(wp, cx, b, l));
                let sh = if us(wp, a, l) | us(wp, b, l) != 0 {
                    m
                } else {
                    0
                };
                match alu::binary(op, ty, x, y) {
                    Some(v) => wr(wp, d, l, v, sh),
                    // "Division by zero yields an unspecified,
                    // machine-specific value" (9.7.1.7)
                    None => wr(wp, d, l, alu::nominal(op, ty, x, y), m),
                }
            }
        }
        Op::Un { op, ty, d, a } => {
            let m = mask(u32::from(ty.bits));
            for l in lanes(exec) {
                let sh = if us(wp, a, l) != 0 { m } else { 0 };
                let v = alu::unary(op, ty, rd(wp, cx, a, l));
                wr(wp, d, l, v, sh);
            }
        }
        Op::Mad { op, ty, d, a, b, c } => {
            let bits = u32::from(ty.bits) * if op == BinOp::MulWide { 2 } else { 1 };
            let m = mask(bits);
            for l in lanes(exec) {
                let p = alu::binary(op, ty, rd(wp, cx, a, l), rd(wp, cx, b, l)).unwrap_or(0);
                let v = p.wrapping_add(rd(wp, cx, c, l)) & m;
                let sh = if us(wp, a, l) | us(wp, b, l) | us(wp, c, l) != 0 {
                    m
                } else {
                    0
                };
                wr(wp, d, l, v, sh);
            }
        }
        Op::Setp {
            cmp,
            ty,
            unsigned,
            p,
            q,
            a,
            b,
            combine,
        } => {
            for l in lanes(exec) {
                let t = alu::compare(cmp, ty, unsigned, rd(wp, cx, a, l), rd(wp, cx, b, l));
                let (c, sc) = match combine {
                    Some((_, c, neg)) => ((rd(wp, cx, c, l) & 1 != 0) != neg, us(wp, c, l) & 1),
                    None => (false, 0),
                };
                let f = |x: bool| match combine {
                    Some((BoolOp::And, ..)) => x && c,
                    Some((BoolOp::Or, ..)) => x || c,
                    Some((BoolOp::Xor, ..)) => x ^ c,
                    None => x,
                };
                let sh = u64::from(us(wp, a, l) | us(wp, b, l) != 0 || sc != 0);
                if let Some(p) = p {
                    wr(wp, p, l, u64::from(f(t)), sh);
                }
                if let Some(q) = q {
                    wr(wp, q, l, u64::from(f(!t)), sh);
                }
            }
        }
        Op::Selp { d, a, b, c, bits } => {
            let m = mask(u32::from(bits));
            for l in lanes(exec) {
                let pick = if rd(wp, cx, c, l) & 1 != 0 { a } else { b };
                let sh = if us(wp, c, l) & 1 != 0 {
                    m
                } else {
                    us(wp, pick, l) & m
                };
                let v = rd(wp, cx, pick, l) & m;
                wr(wp, d, l, v, sh);
            }
        }
        Op::Slct {
            d,
            a,
            b,
            c,
            bits,
            float_c,
            ftz,
        } => {
            let m = mask(u32::from(bits));
            for l in lanes(exec) {
                let cv = rd(wp, cx, c, l) as u32;
                // the model's meaning (`arith::video::slct`), read as a choice
                let pick = if crate::arith::video::slct(float_c, ftz, 1, 0, cv) == 1 {
                    a
                } else {
                    b
                };
                let sh = if us(wp, c, l) != 0 {
                    m
                } else {
                    us(wp, pick, l) & m
                };
                let v = rd(wp, cx, pick, l) & m;
                wr(wp, d, l, v, sh);
            }
        }
        Op::Pred { op, d, a, b } => {
            for l in lanes(exec) {
                let (x, y) = (rd(wp, cx, a, l) & 1, rd(wp, cx, b, l) & 1);
                let v = match op {
                    BoolOp::And => x & y,
                    BoolOp::Or => x | y,
                    BoolOp::Xor => x ^ y,
                };
                let sh = (us(wp, a, l) | us(wp, b, l)) & 1;
                wr(wp, d, l, v, sh);
            }
        }
        Op::PredNot { d, a } => {
            for l in lanes(exec) {
                let (x, sh) = (rd(wp, cx, a, l), us(wp, a, l));
                wr(wp, d, l, !x & 1, sh & 1);
            }
        }
        // integer to integer, every bit specified: the cvt semantics'
        // integer conversion called directly, lane after lane
        Op::Convert {
            ref conv,
            d,
            ref srcs,
            reg_bits,
        } if wp.shadow.is_none()
            && srcs.len() == 1
            && plain(srcs[0])
            && int_pair(conv).is_some() =>
        {
            let Some((from, to, sat, dst)) = int_pair(conv) else {
                return true;
            };
            let (ia, id, va) = (slot(srcs[0]), d as usize * LANES, imm(srcs[0]));
            let m = mask(u32::from(reg_bits).max(to.bits));
            for_lanes(exec, |l| {
                let x = if ia == usize::MAX {
                    va
                } else {
                    wp.regs[ia + l]
                };
                let c = crate::cvt::convert::int_to_int(from, to, x, sat);
                wp.regs[id + l] =
                    crate::cvt::extend_to_register(&dst, c.bits, u32::from(reg_bits)) & m;
            });
        }
        Op::Convert {
            ref conv,
            d,
            ref srcs,
            reg_bits,
        } => {
            // at most five sources: the x4 forms' four values and `rbits`
            let mut vals = [0u64; 5];
            let n = srcs.len().min(5);
            let dst_bits = conv.dest_width();
            let m = mask(u32::from(reg_bits).max(dst_bits));
            for l in lanes(exec) {
                let mut any_unspec = false;
                for (k, s) in srcs.iter().enumerate().take(5) {
                    vals[k] = rd(wp, cx, *s, l);
                    any_unspec |= us(wp, *s, l) != 0;
                }
                match conv.eval(&vals[..n]) {
                    Ok(c) => {
                        let v = match &**conv {
                            crate::cvt::Conversion::Cvt(op) => {
                                crate::cvt::extend_to_register(&op.dst, c.bits, u32::from(reg_bits))
                            }
                            crate::cvt::Conversion::Pack(_) => c.bits,
                        };
                        let sh = if any_unspec { m } else { c.unspecified & m };
                        wr(wp, d, l, v & m, sh);
                    }
                    // an undefined result (its clause is the cvt
                    // semantics'): unspecified bits, the thread goes on
                    Err(_) => wr(wp, d, l, 0, m),
                }
            }
        }
        Op::Bfe { d, a, pos, len, ty } => {
            let m = mask(u32::from(ty.bits));
            for l in lanes(exec) {
                let sh = if us(wp, a, l) | us(wp, pos, l) | us(wp, len, l) != 0 {
                    m
                } else {
                    0
                };
                let v = alu::bfe(ty, rd(wp, cx, a, l), rd(wp, cx, pos, l), rd(wp, cx, len, l));
                wr(wp, d, l, v, sh);
            }
        }
        Op::Prmt { d, a, b, c, mode } => {
            for l in lanes(exec) {
                let v = prmt::prmt(
                    mode,
                    rd(wp, cx, a, l) as u32,
                    rd(wp, cx, b, l) as u32,
                    rd(wp, cx, c, l) as u32,
                );
                let sh = if us(wp, a, l) | us(wp, b, l) | us(wp, c, l) != 0 {
                    0xffff_ffff
                } else {
                    0
                };
                wr(wp, d, l, u64::from(v), sh);
            }
        }
        _ => return false,
    }
    true
}
