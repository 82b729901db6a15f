//! Decoding the video, `set` and `slct` instructions and the packed
//! integer forms of PTX ISA 9.7.1 (`add.u16x2`, `min.s16x2`, `neg.s8x4`...)
//! into their interpreter form ([`crate::sim::video`]). The qualifiers are
//! read in the order the spec's syntax gives them; operand selectors
//! (`a.b0`, `b.h32`, `d.h1`) and `vmad`'s negations (`-a`) are read off the
//! operands.

use super::{Decoder, LoadError};
use crate::arith::compare::{BoolOp, CmpOp, SetDest};
use crate::arith::float::{BF16, F16, F32, F64};
use crate::arith::int::IntType;
use crate::arith::video::{
    simd_mask, simd_sel, PackedOp, Scalar, Secondary, Sel, SetType, Simd, SimdOp, VideoOp, Vmad,
};
use crate::ptx::ast::{Expr, Instruction, Operand, OperandKind};
use crate::sim::program::{Op, Src};
use crate::sim::video::{Video, VideoInstr};

/// The opcodes decoded here besides the packed integer forms.
const VIDEO: &[&str] = &[
    "set",
    "slct",
    "vadd",
    "vsub",
    "vabsdiff",
    "vmin",
    "vmax",
    "vshl",
    "vshr",
    "vmad",
    "vset",
    "vadd2",
    "vsub2",
    "vavrg2",
    "vabsdiff2",
    "vmin2",
    "vmax2",
    "vset2",
    "vadd4",
    "vsub4",
    "vavrg4",
    "vabsdiff4",
    "vmin4",
    "vmax4",
    "vset4",
];

/// The packed integer types of 9.7.1: lanes and signedness.
fn packed_type(q: &str) -> Option<(u32, bool)> {
    Some(match q {
        ".u16x2" => (2, false),
        ".s16x2" => (2, true),
        ".u8x4" => (4, false),
        ".s8x4" => (4, true),
        _ => return None,
    })
}

/// `.u32` or `.s32`: whether signed.
fn signed32(q: &str) -> Option<bool> {
    match q {
        ".u32" => Some(false),
        ".s32" => Some(true),
        _ => None,
    }
}

/// An operand split into its register part and its selector suffix
/// (`%r2.b0` is `%r2` and `.b0`), with `vmad`'s `-` in front.
struct Part<'o> {
    base: Operand,
    sel: Option<&'o str>,
    negated: bool,
}

impl Decoder<'_> {
    /// The instruction's op if it is one of ours; `None` leaves it to
    /// `plain.rs` and `arith.rs` (the lenient decoding, `ptx-ub`'s, reads
    /// them the same way).
    pub(super) fn video(&mut self, ins: &Instruction) -> Option<Result<Op, LoadError>> {
        let op = ins.opcode.as_str();
        let last = ins.quals.last().map_or("", String::as_str);
        let packed = matches!(op, "add" | "sub" | "min" | "max" | "neg" | "abs")
            && packed_type(last).is_some();
        if !packed && !VIDEO.contains(&op) {
            return None;
        }
        Some(self.video_instr(ins, packed))
    }

    fn video_instr(&mut self, ins: &Instruction, packed: bool) -> Result<Op, LoadError> {
        let quals: Vec<&str> = ins.quals.iter().map(String::as_str).collect();
        let bad = |why: &str| self.unsupported_plain(ins, why);
        if packed {
            return self.packed(ins, &quals);
        }
        let op = ins.opcode.as_str();
        match op {
            "set" => self.set_instr(ins, &quals),
            "slct" => {
                let ftz = quals.first() == Some(&".ftz");
                let rest = if ftz { &quals[1..] } else { &quals[..] };
                let [dq, cq] = rest else {
                    return Err(bad("slct needs .dtype and .s32 or .f32"));
                };
                let float_c = match *cq {
                    ".f32" => true,
                    ".s32" if !ftz => false,
                    _ => return Err(bad("slct's c is .s32, or .f32 with .ftz")),
                };
                let bits = match crate::catalogue::types::ptx_type(dq) {
                    Some(t) if matches!(t.bits, 16 | 32 | 64) => t.bits as u16,
                    _ => return Err(bad("slct's .dtype")),
                };
                self.video_op(ins, Video::Slct { float_c, ftz }, bits, [dq, dq, cq], false)
            }
            "vmad" => self.vmad(ins, &quals),
            "vset" => {
                let [aq, bq, cmp, rest @ ..] = quals.as_slice() else {
                    return Err(bad("vset.atype.btype.cmp"));
                };
                let (a_signed, b_signed) = signed32(aq)
                    .zip(signed32(bq))
                    .ok_or_else(|| bad("vset's types are .u32 and .s32"))?;
                let cmp = video_cmp(cmp).ok_or_else(|| bad("vset's comparison"))?;
                let second = match rest {
                    [] => Secondary::None,
                    [q] => secondary(q).ok_or_else(|| bad("vset's secondary operation"))?,
                    _ => return Err(bad("vset's qualifiers")),
                };
                let s = Scalar {
                    d_signed: false,
                    a_signed,
                    b_signed,
                    asel: Sel::Word,
                    bsel: Sel::Word,
                    sat: false,
                    second,
                };
                self.scalar(ins, Video::Vset { cmp, s }, s)
            }
            _ if op.ends_with('2') || op.ends_with('4') => self.simd_instr(ins, &quals),
            _ => {
                let shift = matches!(op, "vshl" | "vshr");
                let [dq, aq, bq, rest @ ..] = quals.as_slice() else {
                    return Err(bad("vop.dtype.atype.btype"));
                };
                let (d_signed, a_signed, b_signed) =
                    match (signed32(dq), signed32(aq), signed32(bq)) {
                        (Some(d), Some(a), Some(b)) if !shift || *bq == ".u32" => (d, a, b),
                        _ => {
                            return Err(bad(
                                "the video types are .u32 and .s32 (vshl/vshr: b .u32)",
                            ))
                        }
                    };
                let mut rest = rest.iter().copied().peekable();
                let sat = rest.next_if_eq(&".sat").is_some();
                let mut clamp = None;
                if shift {
                    clamp = match rest.next() {
                        Some(".clamp") => Some(true),
                        Some(".wrap") => Some(false),
                        _ => return Err(bad("vshl/vshr need .clamp or .wrap")),
                    };
                }
                let second = match rest.next() {
                    None => Secondary::None,
                    Some(q) => secondary(q).ok_or_else(|| bad("the secondary operation"))?,
                };
                if rest.next().is_some() {
                    return Err(bad("the video qualifiers"));
                }
                let s = Scalar {
                    d_signed,
                    a_signed,
                    b_signed,
                    asel: Sel::Word,
                    bsel: Sel::Word,
                    sat,
                    second,
                };
                let v = match (op, clamp) {
                    ("vshl", Some(clamp)) | ("vshr", Some(clamp)) => Video::Shift {
                        left: op == "vshl",
                        clamp,
                        s,
                    },
                    _ => Video::Scalar {
                        op: match op {
                            "vadd" => VideoOp::Add,
                            "vsub" => VideoOp::Sub,
                            "vabsdiff" => VideoOp::Absdiff,
                            "vmin" => VideoOp::Min,
                            _ => VideoOp::Max,
                        },
                        s,
                    },
                };
                self.scalar(ins, v, s)
            }
        }
    }

    /// `set.CmpOp{.BoolOp}{.ftz}.dtype.stype d, a, b{, {!}c}`: the forms
    /// of PTX ISA 9.7.7.1 "Comparison and Selection Instructions: set"
    /// (`.dtype = { .u32, .s32, .f32 }`, `.stype` an integer type of 16
    /// bits or more, `.f32`, `.f64`) and of "Half Precision Comparison
    /// Instructions: set": `.f16.stype` and `.bf16.stype` (`.stype` as
    /// before or `.f16`), `.dtype.f16` and `.dtype.bf16` (`.dtype = { .u16,
    /// .s16, .u32, .s32 }`), `.dtype.f16x2` (`.dtype = { .f16x2, .u32, .s32
    /// }`), `.dtype.bf16x2` (`.dtype = { .bf16x2, .u32, .s32 }`). The
    /// `.bf16` lines take no `.ftz`; `.ftz` needs a float source.
    fn set_instr(&mut self, ins: &Instruction, quals: &[&str]) -> Result<Op, LoadError> {
        let bad = |why: &str| self.unsupported_plain(ins, why);
        let [cmp, mid @ .., dq, sq] = quals else {
            return Err(bad("set.CmpOp.dtype.stype"));
        };
        let op = CmpOp::from_ptx(cmp).ok_or_else(|| bad("set's comparison"))?;
        let mut combine = None;
        let mut ftz = false;
        for q in mid {
            match *q {
                ".and" if combine.is_none() => combine = Some(BoolOp::And),
                ".or" if combine.is_none() => combine = Some(BoolOp::Or),
                ".xor" if combine.is_none() => combine = Some(BoolOp::Xor),
                ".ftz" => ftz = true,
                _ => return Err(bad("set's qualifiers")),
            }
        }
        let (ty, packed) = match *sq {
            ".f32" => (SetType::Float(&F32), false),
            ".f64" => (SetType::Float(&F64), false),
            ".f16" => (SetType::Float(&F16), false),
            ".bf16" => (SetType::Float(&BF16), false),
            ".f16x2" => (SetType::Float(&F16), true),
            ".bf16x2" => (SetType::Float(&BF16), true),
            q => match IntType::from_ptx(q) {
                Some(t) if t.bits >= 16 => (SetType::Int(t), false),
                _ => return Err(bad("set's .stype")),
            },
        };
        let half_src = matches!(*sq, ".f16" | ".bf16");
        let dest = match (*dq, *sq) {
            (".f16x2", ".f16x2") => SetDest::F16,
            (".bf16x2", ".bf16x2") => SetDest::BF16,
            (".u32" | ".s32", _) => SetDest::U32,
            (".u16" | ".s16", _) if half_src => SetDest::U16,
            (".f32", _) if !half_src && !packed => SetDest::F32,
            (".f16" | ".bf16", _) if *sq != ".bf16" && !packed => {
                if *dq == ".f16" {
                    SetDest::F16
                } else {
                    SetDest::BF16
                }
            }
            _ => return Err(bad("set has no such .dtype for this .stype")),
        };
        let bf16 = dest == SetDest::BF16 || sq.starts_with(".bf16");
        let fits = match ty {
            SetType::Int(t) => !ftz && crate::arith::compare::compare_int(t, op, 0, 0).is_some(),
            SetType::Float(_) => {
                let int_op = matches!(op, CmpOp::Lo | CmpOp::Ls | CmpOp::Hi | CmpOp::Hs);
                !(int_op || (ftz && bf16))
            }
        };
        if !fits {
            return Err(bad("this comparison or .ftz does not apply to .stype"));
        }
        let (c, negate_c) = match combine {
            Some(_) => self.pred_src(self.operand(ins, 3)?, ins)?,
            None => (Src::Imm(0), false),
        };
        let d = self.dest_at(ins, 0)?;
        let a = self.src_at(ins, 1, sq)?;
        let b = self.src_at(ins, 2, sq)?;
        Ok(Op::Video(Box::new(VideoInstr {
            op: Video::Set {
                ty,
                op,
                ftz,
                combine,
                negate_c,
                dest,
                packed,
            },
            d,
            bits: if packed { 32 } else { dest.bits() },
            srcs: [a, b, c],
        })))
    }

    /// An instruction whose operands are plain: `d, a, b{, c}` of the
    /// types `tys`; `c` only when `with_c`, or for `slct`.
    fn video_op(
        &mut self,
        ins: &Instruction,
        op: Video,
        bits: u16,
        tys: [&str; 3],
        packed: bool,
    ) -> Result<Op, LoadError> {
        let d = self.dest_at(ins, 0)?;
        let n = ins.operands.len().saturating_sub(1).min(3);
        let mut srcs = [Src::Imm(0); 3];
        for (k, s) in srcs.iter_mut().enumerate().take(n) {
            *s = self.src_at(ins, k + 1, tys[k])?;
        }
        if !packed && n < 3 {
            return Err(self.bad(&ins.full_opcode(), ins.span.start, "operand c is missing"));
        }
        Ok(Op::Video(Box::new(VideoInstr { op, d, bits, srcs })))
    }

    /// `add.u16x2`, `add{.sat}.s8x4`, `sub{.sat}.u8x4`, `min{.relu}.s16x2`,
    /// `max.u16x2`, `neg.s8x4`: the forms PTX ISA 9.7.1 lists.
    fn packed(&mut self, ins: &Instruction, quals: &[&str]) -> Result<Op, LoadError> {
        let bad = |why: &str| self.unsupported_plain(ins, why);
        let [mods @ .., ty] = quals else {
            return Err(bad("no type"));
        };
        let (lanes, signed) = packed_type(ty).ok_or_else(|| bad("no packed type"))?;
        let sat = mods == [".sat"];
        let relu = mods == [".relu"];
        if !mods.is_empty() && !sat && !relu {
            return Err(bad("the packed forms' qualifiers"));
        }
        let op = match (ins.opcode.as_str(), lanes) {
            ("add", 2) if !sat && !relu => PackedOp::Add { sat: false },
            ("add", 4) if !relu => PackedOp::Add { sat },
            ("sub", 4) if !relu => PackedOp::Sub { sat },
            // "`min.relu.{s16x2, s32}`"
            ("min", 2) if !sat && (!relu || signed) => PackedOp::Min { relu },
            ("max", 2) if !sat && (!relu || signed) => PackedOp::Max { relu },
            ("neg", 4) if signed && mods.is_empty() => PackedOp::Neg,
            _ => return Err(bad("PTX ISA 9.7.1 has no such packed form")),
        };
        self.video_op(
            ins,
            Video::Packed { op, lanes, signed },
            32,
            [".b32", ".b32", ".b32"],
            true,
        )
    }

    /// An operand with its selector suffix and negation split off.
    fn part<'o>(&self, op: &'o Operand) -> Part<'o> {
        let (name, negated) = match &op.kind {
            OperandKind::Name(n) => (Some(n.as_str()), false),
            OperandKind::Imm(Expr::Unary('-', e)) => match &**e {
                Expr::Sym(n) => (Some(n.as_str()), true),
                _ => (None, false),
            },
            _ => (None, false),
        };
        if let Some(n) = name {
            let split = n
                .rsplit_once('.')
                .filter(|(base, _)| self.lookup_reg(base).is_some());
            let (base, sel) = match split {
                Some((base, sel)) => (base, Some(&n[base.len()..][..sel.len() + 1])),
                None => (n, None),
            };
            if negated || sel.is_some() {
                return Part {
                    base: Operand {
                        kind: OperandKind::Name(base.to_string()),
                        span: op.span,
                    },
                    sel,
                    negated,
                };
            }
        }
        Part {
            base: op.clone(),
            sel: None,
            negated: false,
        }
    }

    /// `d{.dsel}, a{.asel}, b{.bsel}{, c}` of a scalar video instruction.
    fn scalar(&mut self, ins: &Instruction, v: Video, s: Scalar) -> Result<Op, LoadError> {
        let bad = |why: &str| self.unsupported_plain(ins, why);
        let dp = self.part(self.operand(ins, 0)?);
        let ap = self.part(self.operand(ins, 1)?);
        let bp = self.part(self.operand(ins, 2)?);
        if dp.negated || ap.negated || bp.negated {
            return Err(bad("only vmad negates its operands"));
        }
        let sel = |p: &Part| match p.sel {
            None => Ok(Sel::Word),
            Some(q) => Sel::from_ptx(q).ok_or_else(|| bad("a selector of .b0-.b3, .h0, .h1")),
        };
        let (asel, bsel) = (sel(&ap)?, sel(&bp)?);
        let dsel = sel(&dp)?;
        let mut s = Scalar { asel, bsel, ..s };
        if dsel != Sel::Word {
            if s.second != Secondary::None {
                return Err(bad("a merge takes no secondary operation"));
            }
            s.second = Secondary::Merge(dsel);
        }
        let c = match ins.operands.get(3) {
            Some(c) => self.value(c, ".b32", ins)?,
            None if s.second == Secondary::None => Src::Imm(0),
            None => return Err(bad("operand c is missing")),
        };
        let v = match v {
            Video::Scalar { op, .. } => Video::Scalar { op, s },
            Video::Shift { left, clamp, .. } => Video::Shift { left, clamp, s },
            Video::Vset { cmp, .. } => Video::Vset { cmp, s },
            other => other,
        };
        let d = self.dest(&dp.base, ins)?.slot;
        let a = self.value(&ap.base, ".b32", ins)?;
        let b = self.value(&bp.base, ".b32", ins)?;
        Ok(Op::Video(Box::new(VideoInstr {
            op: v,
            d,
            bits: 32,
            srcs: [a, b, c],
        })))
    }

    /// `vmad.dtype.atype.btype{.po}{.sat}{.scale} d, {-}a{.asel},
    /// {-}b{.bsel}, {-}c`.
    fn vmad(&mut self, ins: &Instruction, quals: &[&str]) -> Result<Op, LoadError> {
        let bad = |why: &str| self.unsupported_plain(ins, why);
        let [dq, aq, bq, rest @ ..] = quals else {
            return Err(bad("vmad.dtype.atype.btype"));
        };
        let (a_signed, b_signed) = match (signed32(dq), signed32(aq), signed32(bq)) {
            (Some(_), Some(a), Some(b)) => (a, b),
            _ => return Err(bad("vmad's types are .u32 and .s32")),
        };
        let mut rest = rest.iter().copied().peekable();
        let po = rest.next_if_eq(&".po").is_some();
        let sat = rest.next_if_eq(&".sat").is_some();
        let shr = match rest.next() {
            None => 0,
            Some(".shr7") => 7,
            Some(".shr15") => 15,
            Some(_) => return Err(bad("vmad's qualifiers")),
        };
        if rest.next().is_some() {
            return Err(bad("vmad's qualifiers"));
        }
        let ap = self.part(self.operand(ins, 1)?);
        let bp = self.part(self.operand(ins, 2)?);
        let cp = self.part(self.operand(ins, 3)?);
        if po && (ap.negated || bp.negated || cp.negated) {
            return Err(bad("Source operands may not be negated in .po mode"));
        }
        let sel = |p: &Part| match p.sel {
            None => Ok(Sel::Word),
            Some(q) => Sel::from_ptx(q).ok_or_else(|| bad("a selector of .b0-.b3, .h0, .h1")),
        };
        if cp.sel.is_some() {
            return Err(bad("vmad's c takes no selector"));
        }
        let m = Vmad {
            a_signed,
            b_signed,
            asel: sel(&ap)?,
            bsel: sel(&bp)?,
            neg_a: ap.negated,
            neg_b: bp.negated,
            neg_c: cp.negated,
            po,
            shr,
            sat,
        };
        let d = self.dest_at(ins, 0)?;
        let srcs = [
            self.value(&ap.base, ".b32", ins)?,
            self.value(&bp.base, ".b32", ins)?,
            self.value(&cp.base, ".b32", ins)?,
        ];
        Ok(Op::Video(Box::new(VideoInstr {
            op: Video::Vmad(m),
            d,
            bits: 32,
            srcs,
        })))
    }

    /// `vop2`/`vop4`/`vset2`/`vset4` `d{.mask}, a{.asel}, b{.bsel}, c`.
    fn simd_instr(&mut self, ins: &Instruction, quals: &[&str]) -> Result<Op, LoadError> {
        let bad = |why: &str| self.unsupported_plain(ins, why);
        let name = ins.opcode.as_str();
        let lanes = if name.ends_with('2') { 2 } else { 4 };
        let base = &name[..name.len() - 1];
        let set = base == "vset";
        let (d_signed, a_signed, b_signed, rest) = if set {
            let [aq, bq, rest @ ..] = quals else {
                return Err(bad("vset2.atype.btype.cmp"));
            };
            (false, signed32(aq), signed32(bq), rest)
        } else {
            let [dq, aq, bq, rest @ ..] = quals else {
                return Err(bad("vop2.dtype.atype.btype"));
            };
            let d = signed32(dq).ok_or_else(|| bad("the SIMD video types are .u32 and .s32"))?;
            (d, signed32(aq), signed32(bq), rest)
        };
        let (a_signed, b_signed) = a_signed
            .zip(b_signed)
            .ok_or_else(|| bad("the SIMD video types are .u32 and .s32"))?;
        let mut rest = rest.iter().copied().peekable();
        let op = if set {
            let cmp = rest
                .next()
                .and_then(video_cmp)
                .ok_or_else(|| bad("vset2/vset4's comparison"))?;
            SimdOp::Set(cmp)
        } else {
            match base {
                "vadd" => SimdOp::Add,
                "vsub" => SimdOp::Sub,
                "vavrg" => SimdOp::Avrg,
                "vabsdiff" => SimdOp::Absdiff,
                "vmin" => SimdOp::Min,
                _ => SimdOp::Max,
            }
        };
        let sat = !set && rest.next_if_eq(&".sat").is_some();
        let add = rest.next_if_eq(&".add").is_some();
        if rest.next().is_some() {
            return Err(bad("the SIMD video qualifiers"));
        }
        if sat && add {
            return Err(bad(
                "Saturation cannot be used with the secondary accumulate operation",
            ));
        }
        let dp = self.part(self.operand(ins, 0)?);
        let ap = self.part(self.operand(ins, 1)?);
        let bp = self.part(self.operand(ins, 2)?);
        if dp.negated || ap.negated || bp.negated {
            return Err(bad("the SIMD video instructions negate no operand"));
        }
        // "`.asel` defaults to `.h10`", "`.bsel` defaults to `.h32`";
        // ".b3210", ".b7654" for the 4 forms
        let (da, db, dm) = if lanes == 2 {
            (".h10", ".h32", ".h10")
        } else {
            (".b3210", ".b7654", ".b3210")
        };
        let asel = simd_sel(ap.sel.unwrap_or(da), lanes).ok_or_else(|| bad("a selector"))?;
        let bsel = simd_sel(bp.sel.unwrap_or(db), lanes).ok_or_else(|| bad("b selector"))?;
        let mask = simd_mask(dp.sel.unwrap_or(dm), lanes).ok_or_else(|| bad("the mask"))?;
        let s = Simd {
            lanes,
            d_signed,
            a_signed,
            b_signed,
            asel,
            bsel,
            mask,
            sat,
            add,
        };
        let d = self.dest(&dp.base, ins)?.slot;
        let srcs = [
            self.value(&ap.base, ".b32", ins)?,
            self.value(&bp.base, ".b32", ins)?,
            self.value(self.operand(ins, 3)?, ".b32", ins)?,
        ];
        Ok(Op::Video(Box::new(VideoInstr {
            op: Video::Simd { op, s },
            d,
            bits: 32,
            srcs,
        })))
    }
}

/// `.eq .ne .lt .le .gt .ge`, the video comparisons.
fn video_cmp(q: &str) -> Option<CmpOp> {
    CmpOp::from_ptx(q).filter(|c| {
        matches!(
            c,
            CmpOp::Eq | CmpOp::Ne | CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge
        )
    })
}

/// `.add .min .max`.
fn secondary(q: &str) -> Option<Secondary> {
    Some(match q {
        ".add" => Secondary::Add,
        ".min" => Secondary::Min,
        ".max" => Secondary::Max,
        _ => return None,
    })
}
