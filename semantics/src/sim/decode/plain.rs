//! Decoding the plain instructions kernels and harnesses need besides
//! 9.7.9: integer arithmetic and logic (PTX ISA 9.7.1, 9.7.2), comparison
//! and selection (9.7.6), predicate logic (9.7.7), control flow (9.7.8) and
//! barriers (9.7.13). What the interpreter ran before `crate::arith` came
//! is decoded here (its fast paths); the rest of 9.7.1-9.7.4, 9.7.7 and
//! 9.7.8 (carries, saturation, floats, ...) by `arith.rs`.

use super::{Decoder, LoadError};
use crate::catalogue::types::{ptx_type, TypeKind};
use crate::ptx::ast::{Instruction, OperandKind};
use crate::sim::program::{BinOp, BoolOp, Cmp, IntTy, Op, Src, UnOp};

/// An integer type qualifier (`.u32`, `.s64`, `.b16`).
pub(super) fn int_ty(q: &str) -> Option<IntTy> {
    let t = ptx_type(q)?;
    match t.kind {
        TypeKind::Bits | TypeKind::Unsigned | TypeKind::Signed if t.bits <= 64 => Some(IntTy {
            bits: t.bits as u8,
            signed: t.kind == TypeKind::Signed,
        }),
        _ => None,
    }
}

impl Decoder<'_> {
    /// The instruction's integer type: its last qualifier.
    fn int_type(&self, ins: &Instruction) -> Result<(IntTy, String), LoadError> {
        let q = ins.quals.last().cloned().unwrap_or_default();
        match int_ty(&q) {
            Some(t) => Ok((t, q)),
            None => Err(self.unsupported_plain(ins, "only integer and bit types are modelled")),
        }
    }

    pub(super) fn unsupported_plain(&self, ins: &Instruction, why: &str) -> LoadError {
        LoadError::Unsupported {
            what: ins.full_opcode(),
            offset: ins.span.start,
            why: why.to_string(),
        }
    }

    pub(super) fn src_at(&self, ins: &Instruction, k: usize, ty: &str) -> Result<Src, LoadError> {
        let op = ins.operands.get(k).ok_or_else(|| {
            self.bad(
                &ins.full_opcode(),
                ins.span.start,
                format!("operand {} is missing", k + 1),
            )
        })?;
        self.value(op, ty, ins)
    }

    pub(super) fn dest_at(&self, ins: &Instruction, k: usize) -> Result<u32, LoadError> {
        let op = ins.operands.get(k).ok_or_else(|| {
            self.bad(
                &ins.full_opcode(),
                ins.span.start,
                "the destination is missing",
            )
        })?;
        Ok(self.dest(op, ins)?.slot)
    }

    fn has(ins: &Instruction, q: &str) -> bool {
        ins.quals.iter().any(|x| x == q)
    }

    pub(super) fn plain(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        // `set`, `slct`, the video instructions and the packed integer
        // forms: `video.rs`
        if let Some(r) = self.video(ins) {
            return r;
        }
        if let Some(r) = self.arith(ins) {
            return r;
        }
        let op = ins.opcode.as_str();
        let unmodelled = [
            ".cc", ".sat", ".ftz", ".approx", ".full", ".relu", ".NaN", ".xorsign",
        ];
        if ins.quals.iter().any(|q| unmodelled.contains(&q.as_str())) && op != "cvt" {
            return Err(self.unsupported_plain(
                ins,
                "carry, saturation and floating-point modifiers are not modelled",
            ));
        }
        match op {
            "add" | "sub" | "min" | "max" | "div" | "rem" | "and" | "or" | "xor" | "mul" => {
                if ins.quals.last().is_some_and(|q| q == ".pred") {
                    let bop = match op {
                        "and" => BoolOp::And,
                        "or" => BoolOp::Or,
                        "xor" => BoolOp::Xor,
                        _ => return Err(self.unsupported_plain(ins, "predicate arithmetic")),
                    };
                    return Ok(Op::Pred {
                        op: bop,
                        d: self.dest_at(ins, 0)?,
                        a: self.src_at(ins, 1, ".pred")?,
                        b: self.src_at(ins, 2, ".pred")?,
                    });
                }
                let (ty, q) = self.int_type(ins)?;
                let bop = match op {
                    "add" => BinOp::Add,
                    "sub" => BinOp::Sub,
                    "min" => BinOp::Min,
                    "max" => BinOp::Max,
                    "div" => BinOp::Div,
                    "rem" => BinOp::Rem,
                    "and" => BinOp::And,
                    "or" => BinOp::Or,
                    "xor" => BinOp::Xor,
                    _ => self.mul_mode(ins)?,
                };
                Ok(Op::Bin {
                    op: bop,
                    ty,
                    d: self.dest_at(ins, 0)?,
                    a: self.src_at(ins, 1, &q)?,
                    b: self.src_at(ins, 2, &q)?,
                })
            }
            "mad" => {
                let (ty, q) = self.int_type(ins)?;
                let mode = self.mul_mode(ins)?;
                let wide_q = format!(".{}{}", if ty.signed { "s" } else { "u" }, ty.bits * 2);
                Ok(Op::Mad {
                    op: mode,
                    ty,
                    d: self.dest_at(ins, 0)?,
                    a: self.src_at(ins, 1, &q)?,
                    b: self.src_at(ins, 2, &q)?,
                    c: self.src_at(ins, 3, if mode == BinOp::MulWide { &wide_q } else { &q })?,
                })
            }
            "shl" | "shr" => {
                let (ty, q) = self.int_type(ins)?;
                Ok(Op::Bin {
                    op: if op == "shl" { BinOp::Shl } else { BinOp::Shr },
                    ty,
                    d: self.dest_at(ins, 0)?,
                    a: self.src_at(ins, 1, &q)?,
                    b: self.src_at(ins, 2, ".u32")?,
                })
            }
            "not" | "cnot" | "neg" | "abs" | "popc" | "clz" | "brev" => {
                if op == "not" && ins.quals.last().is_some_and(|q| q == ".pred") {
                    return Ok(Op::PredNot {
                        d: self.dest_at(ins, 0)?,
                        a: self.src_at(ins, 1, ".pred")?,
                    });
                }
                let (ty, q) = self.int_type(ins)?;
                let uop = match op {
                    "not" => UnOp::Not,
                    "cnot" => UnOp::Cnot,
                    "neg" => UnOp::Neg,
                    "abs" => UnOp::Abs,
                    "popc" => UnOp::Popc,
                    "clz" => UnOp::Clz,
                    _ => UnOp::Brev,
                };
                Ok(Op::Un {
                    op: uop,
                    ty,
                    d: self.dest_at(ins, 0)?,
                    a: self.src_at(ins, 1, &q)?,
                })
            }
            "bfe" => {
                let (ty, q) = self.int_type(ins)?;
                Ok(Op::Bfe {
                    d: self.dest_at(ins, 0)?,
                    a: self.src_at(ins, 1, &q)?,
                    pos: self.src_at(ins, 2, ".u32")?,
                    len: self.src_at(ins, 3, ".u32")?,
                    ty,
                })
            }
            "setp" => self.setp(ins),
            "selp" => {
                let q = ins.quals.last().cloned().unwrap_or_default();
                let bits = ptx_type(&q).map_or(32, |t| t.bits as u16);
                if bits > 64 {
                    return Err(self.unsupported_plain(ins, "selp of 128-bit values"));
                }
                let (c, neg) = self.pred_src(
                    ins.operands.get(3).ok_or_else(|| {
                        self.bad(&ins.full_opcode(), ins.span.start, "operand c is missing")
                    })?,
                    ins,
                )?;
                let (a, b) = (self.src_at(ins, 1, &q)?, self.src_at(ins, 2, &q)?);
                let (a, b) = if neg { (b, a) } else { (a, b) };
                Ok(Op::Selp {
                    d: self.dest_at(ins, 0)?,
                    a,
                    b,
                    c,
                    bits,
                })
            }
            "slct" => {
                // `slct{.ftz}.dtype.ctype`: the types after the modifier
                let ftz = ins.quals.iter().any(|q| q == ".ftz");
                let types: Vec<&String> = ins.quals.iter().filter(|q| *q != ".ftz").collect();
                let dq = types.first().map(|q| q.to_string()).unwrap_or_default();
                let cq = types.get(1).map(|q| q.to_string()).unwrap_or_default();
                let bits = ptx_type(&dq).map_or(32, |t| t.bits as u16);
                Ok(Op::Slct {
                    d: self.dest_at(ins, 0)?,
                    a: self.src_at(ins, 1, &dq)?,
                    b: self.src_at(ins, 2, &dq)?,
                    c: self.src_at(ins, 3, &cq)?,
                    bits,
                    float_c: cq == ".f32",
                    ftz,
                })
            }
            "bra" => {
                let target = match ins.operands.first().map(|o| &o.kind) {
                    Some(OperandKind::Name(l)) => l.clone(),
                    _ => {
                        return Err(self.bad(
                            &ins.full_opcode(),
                            ins.span.start,
                            "bra needs a label",
                        ))
                    }
                };
                self.fixups.push((self.code.len(), target, ins.span.start));
                Ok(Op::Bra { target: 0 })
            }
            "ret" => Ok(self.ret()),
            "exit" => Ok(Op::Exit),
            "call" => self.call(ins),
            "bar" | "barrier" => self.barrier(ins),
            "membar" | "fence" => Ok(Op::Fence),
            "atom" | "red" => self.atom(ins),
            // "nanosleep suspends the thread for a sleep duration
            // approximately close to the delay t ... in the range [0, 2*t]"
            // (PTX ISA, miscellaneous instructions: nanosleep): the schedule already allows any
            // timing, so the step changes nothing.
            "nanosleep" => {
                self.src_at(ins, 0, ".u32")?;
                Ok(Op::Nop)
            }
            _ => Err(self.unsupported_plain(ins, "this instruction is not modelled")),
        }
    }

    fn mul_mode(&self, ins: &Instruction) -> Result<BinOp, LoadError> {
        if Self::has(ins, ".hi") {
            Ok(BinOp::MulHi)
        } else if Self::has(ins, ".wide") {
            Ok(BinOp::MulWide)
        } else if Self::has(ins, ".lo") || ins.quals.len() == 1 {
            Ok(BinOp::MulLo)
        } else {
            Err(self.unsupported_plain(ins, "multiply mode"))
        }
    }

    fn setp(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let (ty, q) = self.int_type(ins)?;
        let cmpq = ins.quals.first().map(String::as_str).unwrap_or("");
        let (cmp, unsigned) = match cmpq {
            ".eq" => (Cmp::Eq, false),
            ".ne" => (Cmp::Ne, false),
            ".lt" => (Cmp::Lt, false),
            ".le" => (Cmp::Le, false),
            ".gt" => (Cmp::Gt, false),
            ".ge" => (Cmp::Ge, false),
            ".lo" => (Cmp::Lt, true),
            ".ls" => (Cmp::Le, true),
            ".hi" => (Cmp::Gt, true),
            ".hs" => (Cmp::Ge, true),
            _ => return Err(self.unsupported_plain(ins, "this comparison")),
        };
        let bool_op = ins.quals.iter().find_map(|q| match q.as_str() {
            ".and" => Some(BoolOp::And),
            ".or" => Some(BoolOp::Or),
            ".xor" => Some(BoolOp::Xor),
            _ => None,
        });
        let first = ins
            .operands
            .first()
            .ok_or_else(|| self.bad(&ins.full_opcode(), ins.span.start, "no destination"))?;
        let (p, q_reg) = match &first.kind {
            OperandKind::Pair(p, q) => {
                let p = match &p.kind {
                    OperandKind::Name(n) if n == "_" => None,
                    _ => Some(self.dest(p, ins)?.slot),
                };
                (p, Some(self.dest(q, ins)?.slot))
            }
            _ => (Some(self.dest(first, ins)?.slot), None),
        };
        let combine = match bool_op {
            Some(op) => {
                let c = ins.operands.get(3).ok_or_else(|| {
                    self.bad(&ins.full_opcode(), ins.span.start, "operand c is missing")
                })?;
                let (c, neg) = self.pred_src(c, ins)?;
                Some((op, c, neg))
            }
            None => None,
        };
        Ok(Op::Setp {
            cmp,
            ty,
            unsigned,
            p,
            q: q_reg,
            a: self.src_at(ins, 1, &q)?,
            b: self.src_at(ins, 2, &q)?,
            combine,
        })
    }

    fn barrier(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let quals: Vec<&str> = ins.quals.iter().map(String::as_str).collect();
        let rest: Vec<&str> = quals
            .iter()
            .copied()
            .filter(|q| !matches!(*q, ".aligned" | ".release" | ".acquire" | ".relaxed"))
            .collect();
        match rest.as_slice() {
            [".sync"] | [] if ins.opcode == "bar" || !rest.is_empty() => {
                let id = match ins.operands.first() {
                    Some(_) => self.src_at(ins, 0, ".u32")?,
                    None => Src::Imm(0),
                };
                let count = match ins.operands.get(1) {
                    Some(_) => Some(self.src_at(ins, 1, ".u32")?),
                    None => None,
                };
                Ok(Op::BarSync { id, count })
            }
            [".warp", ".sync"] => Ok(Op::WarpSync {
                mask: self.src_at(ins, 0, ".b32")?,
            }),
            [".cluster", ".arrive"] => Ok(Op::ClusterArrive),
            [".cluster", ".wait"] => Ok(Op::ClusterWait),
            _ => Err(self.unsupported_plain(ins, "this barrier")),
        }
    }
}
