//! Decoding the instructions whose meaning is `crate::arith`'s (PTX ISA
//! 9.7.1-9.7.5 integer, extended-precision, floating-point and mixed
//! precision arithmetic, 9.7.7 comparison, 9.7.8 logic and shift) into
//! [`Op::Arith`]. What the interpreter ran before (plain integer forms
//! without carries or saturation) stays with `plain.rs`; the approximate
//! forms (`.approx`, `.full`: `div`, `rcp`, `sqrt`, `rsqrt`, `sin`, `cos`,
//! `lg2`, `ex2`, `tanh`) decode to [`Arith::Approx`] when sm_90 has the form
//! (`crate::arith::approx::FORMS`); the legacy spellings without `.approx`
//! are refused as not modelled. The lenient decoding (for `ptx-ub`) reads
//! them the same way.

use super::plain::int_ty;
use super::{Decoder, LoadError};
use crate::arith::approx::ApproxForm;
use crate::arith::compare::{BoolOp, CmpOp, TestOp};
use crate::arith::float::{FloatFormat, FpMods, MinMaxMods, MixedOp, BF16, F16, F32, F64};
use crate::arith::int::{IntType, MulMode, ShiftMode};
use crate::cvt::round::Round;
use crate::ptx::ast::{Instruction, OperandKind};
use crate::sim::arith::{Arith, ArithInstr, FloatOp};
use crate::sim::program::{Op, Src};

/// Opcodes only `crate::arith` runs.
const ARITH_ONLY: &[&str] = &[
    "addc", "subc", "madc", "mul24", "mad24", "sad", "bfind", "fns", "bfi", "bmsk", "szext", "shf",
    "dp4a", "dp2a", "lop3", "testp", "copysign", "rcp", "sqrt", "fma", "rsqrt", "sin", "cos",
    "lg2", "ex2", "tanh",
];

/// Opcodes `plain.rs` runs in their plain integer forms.
const PLAIN: &[&str] = &[
    "add", "sub", "mul", "mad", "min", "max", "div", "rem", "and", "or", "xor", "not", "cnot",
    "neg", "abs", "popc", "clz", "brev", "bfe", "shl", "shr", "setp",
];

/// Qualifiers `plain.rs` does not take.
const MODIFIERS: &[&str] = &[
    ".cc", ".sat", ".ftz", ".approx", ".full", ".relu", ".NaN", ".xorsign", ".abs", ".rn", ".rz",
    ".rm", ".rp",
];

/// A float type qualifier: the format, and whether it is packed (`x2`).
fn float_type(q: &str) -> Option<(&'static FloatFormat, bool)> {
    Some(match q {
        ".f16" => (&F16, false),
        ".bf16" => (&BF16, false),
        ".f32" => (&F32, false),
        ".f64" => (&F64, false),
        ".f16x2" => (&F16, true),
        ".bf16x2" => (&BF16, true),
        _ => return None,
    })
}

fn int_type(q: &str) -> Option<IntType> {
    int_ty(q).map(|t| IntType {
        bits: u32::from(t.bits),
        signed: t.signed,
    })
}

fn shift_mode(ins: &Instruction) -> Option<ShiftMode> {
    if ins.quals.iter().any(|q| q == ".clamp") {
        Some(ShiftMode::Clamp)
    } else if ins.quals.iter().any(|q| q == ".wrap") {
        Some(ShiftMode::Wrap)
    } else {
        None
    }
}

impl Decoder<'_> {
    /// The instruction as an [`Op::Arith`], or `None` when `plain.rs`
    /// decodes it.
    pub(super) fn arith(&mut self, ins: &Instruction) -> Option<Result<Op, LoadError>> {
        let op = ins.opcode.as_str();
        let last = ins.quals.last().map_or("", String::as_str);
        let ours = ARITH_ONLY.contains(&op)
            || (PLAIN.contains(&op)
                && (ins.quals.iter().any(|q| MODIFIERS.contains(&q.as_str()))
                    || (int_ty(last).is_none() && last != ".pred")));
        ours.then(|| self.arith_instr(ins))
    }

    fn arith_has(ins: &Instruction, q: &str) -> bool {
        ins.quals.iter().any(|x| x == q)
    }

    fn arith_instr(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        if Self::arith_has(ins, ".approx") || Self::arith_has(ins, ".full") {
            return self.approx_instr(ins);
        }
        if let Some(mixed) = self.mixed_instr(ins) {
            return mixed;
        }
        let last = ins.quals.last().cloned().unwrap_or_default();
        if let Some((fmt, packed)) = float_type(&last) {
            return self.float_instr(ins, &last, fmt, packed);
        }
        self.int_instr(ins, &last)
    }

    /// An approximate form (`div.approx.ftz.f32`, `ex2.approx.f16x2`...):
    /// its opcode, `.approx` or `.full`, `.ftz` and type must name a row
    /// of `crate::arith::approx::FORMS`; any other qualifier is refused.
    fn approx_instr(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let full = Self::arith_has(ins, ".full");
        let ftz = Self::arith_has(ins, ".ftz");
        let ty = ins.quals.last().cloned().unwrap_or_default();
        let known = |q: &str| matches!(q, ".approx" | ".full" | ".ftz") || q == ty;
        let form = ApproxForm::parse(&format!(
            "{}{}{}{ty}",
            ins.opcode,
            if full { ".full" } else { ".approx" },
            if ftz { ".ftz" } else { "" },
        ))
        .filter(|_| ins.quals.iter().all(|q| known(q)));
        let Some(form) = form else {
            return Err(self.unsupported_plain(ins, "this approximate form is not modelled"));
        };
        let d = self.dest_at(ins, 0)?;
        let tys = vec![ty.as_str(); form.op.sources()];
        Ok(arith_op(ArithInstr {
            op: Arith::Approx { form },
            d: Some(d),
            q: None,
            srcs: self.srcs(ins, &tys)?,
            neg_pred: false,
            bits: form.reg_bits() as u16,
            cc: false,
        }))
    }

    /// A mixed precision form (PTX ISA 9.7.5, PTX 8.6, `sm_100`):
    /// `add{.rnd}{.sat}.f32.atype d, a, c`, `sub{.rnd}{.sat}.f32.atype d, a,
    /// c`, `fma.rnd{.sat}.f32.abtype d, a, b, c` with `.atype = .abtype = {
    /// .f16, .bf16 }`, `.rnd = { .rn, .rz, .rm, .rp }`; the qualifiers in
    /// any order (the spec's own example writes `fma.rz.sat.f32.f16.sat`).
    /// `None` when the instruction names one float type or none, so is no
    /// mixed form; two float types on any other opcode or pair are refused
    /// (no instruction decoded here has such a form).
    fn mixed_instr(&mut self, ins: &Instruction) -> Option<Result<Op, LoadError>> {
        let types: Vec<&str> = ins
            .quals
            .iter()
            .map(String::as_str)
            .filter(|q| float_type(q).is_some())
            .collect();
        if types.len() < 2 {
            return None;
        }
        let op = match ins.opcode.as_str() {
            "add" => Some(MixedOp::Add),
            "sub" => Some(MixedOp::Sub),
            "fma" => Some(MixedOp::Fma),
            _ => None,
        };
        let (op, src, src_q) = match (op, types.as_slice()) {
            (Some(op), [".f32", q @ (".f16" | ".bf16")]) => {
                (op, if *q == ".f16" { &F16 } else { &BF16 }, *q)
            }
            _ => {
                return Some(Err(self.unsupported_plain(
                    ins,
                    "two float types: only add, sub and fma with .f32.f16 or .f32.bf16",
                )))
            }
        };
        let rounds: Vec<Round> = ins
            .quals
            .iter()
            .filter_map(|q| Round::from_ptx(q))
            .collect();
        let known =
            |q: &str| matches!(q, ".sat" | ".rn" | ".rz" | ".rm" | ".rp" | ".f32") || q == src_q;
        if !ins.quals.iter().all(|q| known(q)) || rounds.len() > 1 {
            return Some(Err(self.unsupported_plain(
                ins,
                "mixed precision takes only .rnd, .sat, .f32 and .f16 or .bf16",
            )));
        }
        let round = match (rounds.first(), op) {
            (Some(&r), _) => r,
            // "Rounding modifiers(no default)" for fma
            (None, MixedOp::Fma) => {
                return Some(Err(
                    self.unsupported_plain(ins, "fma.f32.abtype needs a rounding modifier")
                ))
            }
            // "The default value of rounding modifier is .rn"
            (None, _) => Round::NearestEven,
        };
        let tys: &[&str] = match op {
            MixedOp::Fma => &[src_q, src_q, ".f32"],
            _ => &[src_q, ".f32"],
        };
        Some((|| {
            let d = self.dest_at(ins, 0)?;
            Ok(arith_op(ArithInstr {
                op: Arith::MixedFloat {
                    op,
                    src,
                    round,
                    sat: Self::arith_has(ins, ".sat"),
                },
                d: Some(d),
                q: None,
                srcs: self.srcs(ins, tys)?,
                neg_pred: false,
                bits: 32,
                cc: false,
            }))
        })())
    }

    /// A destination, or `None` for the sink `_`.
    fn sink_or_dest(
        &self,
        op: &crate::ptx::ast::Operand,
        ins: &Instruction,
    ) -> Result<Option<u32>, LoadError> {
        match &op.kind {
            OperandKind::Name(n) if n == "_" => Ok(None),
            _ => Ok(Some(self.dest(op, ins)?.slot)),
        }
    }

    /// `d` or `d|p`.
    fn dest_pair(&self, ins: &Instruction) -> Result<(Option<u32>, Option<u32>), LoadError> {
        let first = ins
            .operands
            .first()
            .ok_or_else(|| self.bad(&ins.full_opcode(), ins.span.start, "no destination"))?;
        match &first.kind {
            OperandKind::Pair(p, q) => Ok((self.sink_or_dest(p, ins)?, self.sink_or_dest(q, ins)?)),
            _ => Ok((self.sink_or_dest(first, ins)?, None)),
        }
    }

    fn srcs(&self, ins: &Instruction, tys: &[&str]) -> Result<Vec<Src>, LoadError> {
        tys.iter()
            .enumerate()
            .map(|(k, t)| self.src_at(ins, k + 1, t))
            .collect()
    }

    /// `setp.CmpOp{.BoolOp}`'s comparison and operation.
    fn setp_quals(&self, ins: &Instruction) -> Result<(CmpOp, Option<BoolOp>), LoadError> {
        let cmp = ins
            .quals
            .first()
            .and_then(|q| CmpOp::from_ptx(q))
            .ok_or_else(|| self.unsupported_plain(ins, "this comparison"))?;
        let combine = ins.quals.iter().find_map(|q| match q.as_str() {
            ".and" => Some(BoolOp::And),
            ".or" => Some(BoolOp::Or),
            ".xor" => Some(BoolOp::Xor),
            _ => None,
        });
        Ok((cmp, combine))
    }

    fn setp_instr(&mut self, ins: &Instruction, op: Arith, ty: &str) -> Result<Op, LoadError> {
        let combine = matches!(
            op,
            Arith::SetpInt {
                combine: Some(_),
                ..
            } | Arith::SetpFloat {
                combine: Some(_),
                ..
            } | Arith::SetpFloatX2 {
                combine: Some(_),
                ..
            }
        );
        let (d, q) = self.dest_pair(ins)?;
        let mut srcs = self.srcs(ins, &[ty, ty])?;
        let mut neg_pred = false;
        if combine {
            let c = ins.operands.get(3).ok_or_else(|| {
                self.bad(&ins.full_opcode(), ins.span.start, "operand c is missing")
            })?;
            let (c, neg) = self.pred_src(c, ins)?;
            srcs.push(c);
            neg_pred = neg;
        }
        Ok(arith_op(ArithInstr {
            op,
            d,
            q,
            srcs,
            neg_pred,
            bits: 1,
            cc: false,
        }))
    }

    fn float_instr(
        &mut self,
        ins: &Instruction,
        ty: &str,
        fmt: &'static FloatFormat,
        packed: bool,
    ) -> Result<Op, LoadError> {
        let op = ins.opcode.as_str();
        let ftz = Self::arith_has(ins, ".ftz");
        let mods = FpMods {
            ftz,
            sat: Self::arith_has(ins, ".sat"),
            relu: Self::arith_has(ins, ".relu"),
        };
        let round = ins
            .quals
            .iter()
            .find(|q| matches!(q.as_str(), ".rn" | ".rz" | ".rm" | ".rp"))
            .and_then(|q| Round::from_ptx(q));
        let width = fmt.width() as u16 * if packed { 2 } else { 1 };
        let unary = |op: Arith| (op, 1usize);
        let (arith, n) =
            match op {
                "add" | "sub" | "mul" | "fma" | "mad" | "div" | "rcp" | "sqrt" => {
                    let fop = match op {
                        "add" => FloatOp::Add,
                        "sub" => FloatOp::Sub,
                        "mul" => FloatOp::Mul,
                        "fma" | "mad" => FloatOp::Fma,
                        "div" => FloatOp::Div,
                        "rcp" => FloatOp::Rcp,
                        _ => FloatOp::Sqrt,
                    };
                    // "add/sub/mul with no rounding modifier default to .rn"
                    // (they may also be contracted into fma by the code
                    // generator, which the model does not do); div.f64 too.
                    // fma, mad and the f32 div, rcp and sqrt need one (without,
                    // they are legacy approximate forms).
                    let round = match round {
                        Some(r) => r,
                        None if matches!(fop, FloatOp::Add | FloatOp::Sub | FloatOp::Mul) => {
                            Round::NearestEven
                        }
                        None if fop == FloatOp::Div && fmt.width() == 64 => Round::NearestEven,
                        None => return Err(self.unsupported_plain(
                            ins,
                            "this form without a rounding modifier is approximate and not modelled",
                        )),
                    };
                    let n = match fop {
                        FloatOp::Fma => 3,
                        FloatOp::Rcp | FloatOp::Sqrt => 1,
                        _ => 2,
                    };
                    (
                        Arith::Float {
                            op: fop,
                            fmt,
                            round,
                            mods,
                            packed,
                        },
                        n,
                    )
                }
                "neg" => unary(Arith::FNeg { fmt, ftz, packed }),
                "abs" => unary(Arith::FAbs { fmt, ftz, packed }),
                "min" | "max" => {
                    let mods = MinMaxMods {
                        ftz,
                        nan: Self::arith_has(ins, ".NaN"),
                        abs: Self::arith_has(ins, ".abs"),
                        xorsign: Self::arith_has(ins, ".xorsign"),
                    };
                    let n = ins.operands.len().saturating_sub(1).clamp(2, 3);
                    let a = if op == "min" {
                        Arith::FMin { fmt, mods, packed }
                    } else {
                        Arith::FMax { fmt, mods, packed }
                    };
                    (a, n)
                }
                "copysign" if !packed => (Arith::Copysign { fmt }, 2),
                "testp" if !packed => {
                    let top = match ins.quals.first().map(String::as_str) {
                        Some(".finite") => TestOp::Finite,
                        Some(".infinite") => TestOp::Infinite,
                        Some(".number") => TestOp::Number,
                        Some(".notanumber") => TestOp::NotANumber,
                        Some(".normal") => TestOp::Normal,
                        Some(".subnormal") => TestOp::Subnormal,
                        _ => return Err(self.unsupported_plain(ins, "this testp property")),
                    };
                    let d = self.dest_at(ins, 0)?;
                    return Ok(arith_op(ArithInstr {
                        op: Arith::Testp { fmt, op: top },
                        d: Some(d),
                        q: None,
                        srcs: self.srcs(ins, &[ty])?,
                        neg_pred: false,
                        bits: 1,
                        cc: false,
                    }));
                }
                "setp" if packed => {
                    let (cmp, combine) = self.setp_quals(ins)?;
                    let pair = matches!(
                        ins.operands.first().map(|o| &o.kind),
                        Some(OperandKind::Pair(..))
                    );
                    if !pair {
                        return Err(self.unsupported_plain(ins, "setp.f16x2/.bf16x2 write p|q"));
                    }
                    if matches!(cmp, CmpOp::Lo | CmpOp::Ls | CmpOp::Hi | CmpOp::Hs)
                        || (ftz && fmt.name == "bf16")
                    {
                        return Err(self.unsupported_plain(
                            ins,
                            "this comparison or .ftz does not apply to the type",
                        ));
                    }
                    return self.setp_instr(
                        ins,
                        Arith::SetpFloatX2 {
                            fmt,
                            ftz,
                            cmp,
                            combine,
                        },
                        ty,
                    );
                }
                "setp" if !packed => {
                    let (cmp, combine) = self.setp_quals(ins)?;
                    return self.setp_instr(
                        ins,
                        Arith::SetpFloat {
                            fmt,
                            ftz,
                            cmp,
                            combine,
                        },
                        ty,
                    );
                }
                _ => {
                    return Err(self
                        .unsupported_plain(ins, "this floating-point instruction is not modelled"))
                }
            };
        let d = self.dest_at(ins, 0)?;
        let tys = vec![ty; n];
        Ok(arith_op(ArithInstr {
            op: arith,
            d: Some(d),
            q: None,
            srcs: self.srcs(ins, &tys)?,
            neg_pred: false,
            bits: width,
            cc: false,
        }))
    }

    fn int_instr(&mut self, ins: &Instruction, ty_q: &str) -> Result<Op, LoadError> {
        let op = ins.opcode.as_str();
        let sat = Self::arith_has(ins, ".sat");
        let cc = Self::arith_has(ins, ".cc");
        let relu = Self::arith_has(ins, ".relu");
        let hi = Self::arith_has(ins, ".hi");
        let mode = if hi {
            MulMode::Hi
        } else if Self::arith_has(ins, ".wide") {
            MulMode::Wide
        } else {
            MulMode::Lo
        };
        let signed_q = |q: Option<&String>| q.is_some_and(|q| q == ".s32");
        if op == "setp" {
            let ty = int_type(ty_q)
                .ok_or_else(|| self.unsupported_plain(ins, "this type is not modelled"))?;
            let (cmp, combine) = self.setp_quals(ins)?;
            if crate::arith::compare::compare_int(ty, cmp, 0, 0).is_none() {
                return Err(self.unsupported_plain(ins, "this comparison"));
            }
            return self.setp_instr(ins, Arith::SetpInt { ty, cmp, combine }, ty_q);
        }
        // dp4a/dp2a name two types and no result type
        let (ty, ty_q) = match op {
            "dp4a" | "dp2a" | "fns" | "bmsk" | "shf" | "lop3" => (
                IntType {
                    bits: 32,
                    signed: false,
                },
                ".b32",
            ),
            _ => (
                int_type(ty_q).ok_or_else(|| {
                    self.unsupported_plain(ins, "only integer, bit and float types are modelled")
                })?,
                ty_q,
            ),
        };
        let bits = ty.bits;
        let wide_q = format!(".{}{}", if ty.signed { "s" } else { "u" }, bits * 2);
        let (arith, tys): (Arith, Vec<&str>) = match op {
            "add" | "sub" if cc => (
                if op == "add" {
                    Arith::AddCc { bits }
                } else {
                    Arith::SubCc { bits }
                },
                vec![ty_q, ty_q],
            ),
            "add" => (Arith::Add { ty, sat }, vec![ty_q, ty_q]),
            "sub" => (Arith::Sub { ty, sat }, vec![ty_q, ty_q]),
            "addc" => (Arith::Addc { bits }, vec![ty_q, ty_q]),
            "subc" => (Arith::Subc { bits }, vec![ty_q, ty_q]),
            "mul" => (Arith::Mul { ty, mode }, vec![ty_q, ty_q]),
            "mad" if cc => (Arith::MadCc { ty, hi }, vec![ty_q, ty_q, ty_q]),
            "mad" => (
                Arith::Mad { ty, mode, sat },
                vec![
                    ty_q,
                    ty_q,
                    if mode == MulMode::Wide { &wide_q } else { ty_q },
                ],
            ),
            "madc" => (Arith::Madc { ty, hi }, vec![ty_q, ty_q, ty_q]),
            "mul24" => (
                Arith::Mul24 {
                    signed: ty.signed,
                    hi,
                },
                vec![ty_q, ty_q],
            ),
            "mad24" => (
                Arith::Mad24 {
                    signed: ty.signed,
                    hi,
                    sat,
                },
                vec![ty_q, ty_q, ty_q],
            ),
            "sad" => (Arith::Sad { ty }, vec![ty_q, ty_q, ty_q]),
            "div" => (Arith::Div { ty }, vec![ty_q, ty_q]),
            "rem" => (Arith::Rem { ty }, vec![ty_q, ty_q]),
            "abs" => (Arith::Abs { ty }, vec![ty_q]),
            "neg" => (Arith::Neg { ty }, vec![ty_q]),
            "min" => (Arith::Min { ty, relu }, vec![ty_q, ty_q]),
            "max" => (Arith::Max { ty, relu }, vec![ty_q, ty_q]),
            "popc" => (Arith::Popc { bits }, vec![ty_q]),
            "clz" => (Arith::Clz { bits }, vec![ty_q]),
            "bfind" => (
                Arith::Bfind {
                    ty,
                    shiftamt: Self::arith_has(ins, ".shiftamt"),
                },
                vec![ty_q],
            ),
            "fns" => (Arith::Fns, vec![".b32", ".u32", ".s32"]),
            "brev" => (Arith::Brev { bits }, vec![ty_q]),
            "bfe" => (Arith::Bfe { ty }, vec![ty_q, ".u32", ".u32"]),
            "bfi" => (Arith::Bfi { bits }, vec![ty_q, ty_q, ".u32", ".u32"]),
            "bmsk" | "szext" | "shf" => {
                let mode = shift_mode(ins)
                    .ok_or_else(|| self.unsupported_plain(ins, "no .clamp or .wrap"))?;
                match op {
                    "bmsk" => (Arith::Bmsk { mode }, vec![".b32", ".u32"]),
                    "szext" => (
                        Arith::Szext {
                            signed: ty.signed,
                            mode,
                        },
                        vec![ty_q, ".u32"],
                    ),
                    _ => (
                        Arith::Shf {
                            left: Self::arith_has(ins, ".l"),
                            mode,
                        },
                        vec![".b32", ".b32", ".u32"],
                    ),
                }
            }
            "shl" => (Arith::Shl { bits }, vec![ty_q, ".u32"]),
            "shr" => (Arith::Shr { ty }, vec![ty_q, ".u32"]),
            "dp4a" | "dp2a" => {
                let k = usize::from(op == "dp2a");
                let (aq, bq) = (ins.quals.get(k), ins.quals.get(k + 1));
                let (a_signed, b_signed) = (signed_q(aq), signed_q(bq));
                let a = if op == "dp4a" {
                    Arith::Dp4a { a_signed, b_signed }
                } else {
                    Arith::Dp2a {
                        hi,
                        a_signed,
                        b_signed,
                    }
                };
                let (aq, bq) = (
                    if a_signed { ".s32" } else { ".u32" },
                    if b_signed { ".s32" } else { ".u32" },
                );
                let cq = if a_signed || b_signed { ".s32" } else { ".u32" };
                (a, vec![aq, bq, cq])
            }
            "and" => (Arith::And { bits }, vec![ty_q, ty_q]),
            "or" => (Arith::Or { bits }, vec![ty_q, ty_q]),
            "xor" => (Arith::Xor { bits }, vec![ty_q, ty_q]),
            "not" => (Arith::Not { bits }, vec![ty_q]),
            "cnot" => (Arith::Cnot { bits }, vec![ty_q]),
            "lop3" => return self.lop3(ins),
            _ => {
                return Err(
                    self.unsupported_plain(ins, "this form of the instruction is not modelled")
                )
            }
        };
        let d = self.dest_at(ins, 0)?;
        let out_bits = match arith {
            Arith::Mul {
                mode: MulMode::Wide,
                ..
            }
            | Arith::Mad {
                mode: MulMode::Wide,
                ..
            } => bits * 2,
            Arith::Popc { .. }
            | Arith::Clz { .. }
            | Arith::Bfind { .. }
            | Arith::Fns
            | Arith::Mul24 { .. }
            | Arith::Mad24 { .. }
            | Arith::Dp4a { .. }
            | Arith::Dp2a { .. }
            | Arith::Bmsk { .. }
            | Arith::Szext { .. }
            | Arith::Shf { .. } => 32,
            _ => bits,
        };
        Ok(arith_op(ArithInstr {
            cc: cc
                || matches!(
                    arith,
                    Arith::AddCc { .. } | Arith::SubCc { .. } | Arith::MadCc { .. }
                ),
            op: arith,
            d: Some(d),
            q: None,
            srcs: self.srcs(ins, &tys)?,
            neg_pred: false,
            bits: out_bits as u16,
        }))
    }

    /// `lop3.b32 d, a, b, c, immLut` and `lop3.BoolOp.b32 d|p, a, b, c,
    /// immLut, q` (PTX ISA 9.7.8.6).
    fn lop3(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let lut = match self.src_at(ins, 4, ".b32")? {
            Src::Imm(v) => v as u8,
            _ => {
                return Err(self.bad(
                    &ins.full_opcode(),
                    ins.span.start,
                    "immLut must be an integer constant",
                ))
            }
        };
        let (d, p) = self.dest_pair(ins)?;
        let mut srcs = self.srcs(ins, &[".b32", ".b32", ".b32"])?;
        let bool_op = ins.quals.iter().find_map(|q| match q.as_str() {
            ".and" => Some(true),
            ".or" => Some(false),
            _ => None,
        });
        let mut neg_pred = false;
        let op = match bool_op {
            Some(and) => {
                let q = ins.operands.get(5).ok_or_else(|| {
                    self.bad(&ins.full_opcode(), ins.span.start, "operand q is missing")
                })?;
                let (q, neg) = self.pred_src(q, ins)?;
                srcs.push(q);
                neg_pred = neg;
                Arith::Lop3Pred { lut, and }
            }
            None => Arith::Lop3 { lut },
        };
        Ok(arith_op(ArithInstr {
            op,
            d,
            q: p,
            srcs,
            neg_pred,
            bits: 32,
            cc: false,
        }))
    }
}

fn arith_op(i: ArithInstr) -> Op {
    Op::Arith(Box::new(i))
}
