//! Decoding the tensor instructions: `cp.async.bulk.tensor`,
//! `cp.reduce.async.bulk.tensor`, `cp.async.bulk.prefetch.tensor` (PTX ISA
//! 9.7.9.25.5), `tensormap.replace` (9.7.9.26) and the tensormap proxy's
//! fence.

use super::{Decoder, LoadError};
use crate::ptx::ast::{Instruction, Operand, OperandKind};
use crate::sim::program::{Addr, AsyncInstr, Op, Src, TensorDir, TensorInstr};
use crate::sim::reduce::BulkRedOp;
use crate::sim::space::Space;

impl Decoder<'_> {
    /// The tensor map's generic address and the coordinates of
    /// `[tensorMap, {c0, ..}]`.
    fn tensor_operand(
        &self,
        op: &Operand,
        ins: &Instruction,
    ) -> Result<(Addr, Vec<Src>), LoadError> {
        let OperandKind::Addr(a) = &op.kind else {
            return Err(self.bad(
                &ins.full_opcode(),
                ins.span.start,
                "expected a tensor address `[tensorMap, {..}]`",
            ));
        };
        let Some(coords) = &a.coords else {
            return Err(self.bad(
                &ins.full_opcode(),
                ins.span.start,
                "expected a tensor address `[tensorMap, {..}]`",
            ));
        };
        let mut plain = a.clone();
        plain.coords = None;
        let map = self.address(
            &Operand {
                kind: OperandKind::Addr(plain),
                ..op.clone()
            },
            Space::Generic,
            ins,
        )?;
        let coords = coords
            .iter()
            .map(|c| self.value(c, ".s32", ins))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((map, coords))
    }

    /// `{a, b, ..}` of `.u16` values (`im2colInfo`).
    fn u16_vector(&self, op: &Operand, ins: &Instruction) -> Result<Vec<Src>, LoadError> {
        match &op.kind {
            OperandKind::Vector(v) => v.iter().map(|e| self.value(e, ".u16", ins)).collect(),
            _ => Ok(vec![self.value(op, ".u16", ins)?]),
        }
    }

    /// `cp.async.bulk.tensor`, `cp.reduce.async.bulk.tensor` and
    /// `cp.async.bulk.prefetch.tensor`.
    pub(super) fn tensor(&mut self, ins: &Instruction, reduce: bool) -> Result<Op, LoadError> {
        let forms = self.forms(ins)?;
        let b = self.first(&forms, ins)?;
        let id = b.form.row.id;
        // `{wHalo, wOffset}` take the offsets' place
        let im2col_w = id
            .contains("im2col::w")
            .then(|| ins.quals.iter().any(|q| q == ".im2col::w::128"));
        let rows4 = id.contains("gather4") || id.contains("scatter4");
        let im2col = id.contains("im2col");
        let dim = ins
            .quals
            .iter()
            .find_map(|q| {
                let d = q.strip_prefix('.')?.strip_suffix('d')?;
                d.parse::<u32>().ok().filter(|n| (1..=5).contains(n))
            })
            .ok_or_else(|| self.bad(&ins.full_opcode(), ins.span.start, "no .dim"))?;
        let prefetch = id.starts_with("cp.async.bulk.prefetch.tensor");
        let load = !prefetch && b.get("dst").is_some_and(|d| d.starts_with(".shared"));
        let mut k = 0;
        let (dir, map_op) = if prefetch {
            k += 1;
            (TensorDir::Prefetch, self.operand(ins, 0)?)
        } else if load {
            let dst_space = b
                .get("dst")
                .and_then(Space::from_qualifier)
                .unwrap_or(Space::SharedCluster);
            let dst = self.address(self.operand(ins, 0)?, dst_space, ins)?;
            let mbar = self.address(self.operand(ins, 2)?, dst_space, ins)?;
            k = 3;
            (
                TensorDir::Load {
                    dst,
                    dst_space,
                    mbar,
                    cta_mask: None,
                    cta_pair: b.has(".cta_group::2"),
                },
                self.operand(ins, 1)?,
            )
        } else {
            let src = self.address(self.operand(ins, 1)?, Space::SharedCta, ins)?;
            let op = if reduce {
                Some(match b.get("redOp").unwrap_or("") {
                    ".and" => BulkRedOp::And,
                    ".or" => BulkRedOp::Or,
                    ".xor" => BulkRedOp::Xor,
                    ".add" => BulkRedOp::Add,
                    ".inc" => BulkRedOp::Inc,
                    ".dec" => BulkRedOp::Dec,
                    ".min" => BulkRedOp::Min,
                    ".max" => BulkRedOp::Max,
                    _ => return Err(self.bad(&ins.full_opcode(), ins.span.start, "no .redOp")),
                })
            } else {
                None
            };
            k = 2;
            (TensorDir::Store { src, reduce: op }, self.operand(ins, 0)?)
        };
        let (map, coords) = self.tensor_operand(map_op, ins)?;
        // `.im2col_no_offs` (the store direction) takes no im2colInfo
        let offsets = if im2col && !id.contains("im2col_no_offs") {
            k += 1;
            self.u16_vector(self.operand(ins, k - 1)?, ins)?
        } else {
            Vec::new()
        };
        let dir = match dir {
            TensorDir::Load {
                dst,
                dst_space,
                mbar,
                cta_pair,
                ..
            } if b.has(".multicast::cluster") => TensorDir::Load {
                dst,
                dst_space,
                mbar,
                cta_mask: Some(self.value(self.operand(ins, k)?, ".b16", ins)?),
                cta_pair,
            },
            d => d,
        };
        Ok(Op::Async(Box::new(AsyncInstr::Tensor(TensorInstr {
            dir,
            dim,
            im2col,
            rows4,
            im2col_w,
            map,
            coords,
            offsets,
        }))))
    }

    /// `tensormap.replace.tile.field{.ss}.b1024.type [addr], {ord,} new_val`.
    pub(super) fn tensormap_replace(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        // the qualifiers must name a form
        self.forms(ins)?;
        let space = ins
            .quals
            .iter()
            .find_map(|q| match q.as_str() {
                ".global" => Some(Space::Global),
                ".shared::cta" => Some(Space::SharedCta),
                _ => None,
            })
            .unwrap_or(Space::Generic);
        const FIELDS: [&str; 11] = [
            ".global_address",
            ".rank",
            ".box_dim",
            ".global_dim",
            ".global_stride",
            ".element_stride",
            ".elemtype",
            ".interleave_layout",
            ".swizzle_mode",
            ".swizzle_atomicity",
            ".fill_mode",
        ];
        let field = ins
            .quals
            .iter()
            .find(|q| FIELDS.contains(&q.as_str()))
            .cloned()
            .ok_or_else(|| self.bad(&ins.full_opcode(), ins.span.start, "no field"))?;
        let ty = if ins.quals.iter().any(|q| q == ".b64") {
            ".b64"
        } else {
            ".b32"
        };
        let addr = self.address(self.operand(ins, 0)?, space, ins)?;
        let with_ord = ins.operands.len() > 2;
        let ord = if with_ord {
            match self.value(self.operand(ins, 1)?, ".u32", ins)? {
                Src::Imm(n) => n as u32,
                _ => {
                    return Err(self.bad(
                        &ins.full_opcode(),
                        ins.span.start,
                        "ord is an integer constant",
                    ))
                }
            }
        } else {
            0
        };
        let value = self.value(self.operand(ins, if with_ord { 2 } else { 1 })?, ty, ins)?;
        Ok(Op::Async(Box::new(AsyncInstr::TensormapReplace {
            addr,
            space,
            field,
            ord,
            value,
        })))
    }
}
