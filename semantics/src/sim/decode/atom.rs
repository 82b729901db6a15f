//! Decoding `atom` and `red` (PTX ISA 9.7.13) on `.global`,
//! `.shared{::cta, ::cluster}` and generic addresses, scalar forms only;
//! the machine performs each as one indivisible read-modify-write.

use super::{Decoder, LoadError};
use crate::ptx::ast::Instruction;
use crate::sim::program::{Access, AtomOp, Atomic, Op, Order, Src};
use crate::sim::reduce::{BulkRedOp, BulkRedType};
use crate::sim::space::Space;

use crate::precond::table::HINT_GLOBAL;

/// An `atom`/`red` type qualifier.
fn atom_type(q: &str) -> Option<BulkRedType> {
    use BulkRedType::*;
    Some(match q {
        ".b32" => B32,
        ".b64" => B64,
        ".u32" => U32,
        ".u64" => U64,
        ".s32" => S32,
        ".s64" => S64,
        ".f32" => F32,
        ".f64" => F64,
        ".f16" => F16,
        ".bf16" => Bf16,
        _ => return None,
    })
}

/// An `atom`/`red` operation qualifier.
fn atom_op(q: &str) -> Option<AtomOp> {
    use BulkRedOp::*;
    Some(AtomOp::Reduce(match q {
        ".and" => And,
        ".or" => Or,
        ".xor" => Xor,
        ".add" => Add,
        ".inc" => Inc,
        ".dec" => Dec,
        ".min" => Min,
        ".max" => Max,
        ".exch" => return Some(AtomOp::Exch),
        ".cas" => return Some(AtomOp::Cas),
        _ => return None,
    }))
}

impl Decoder<'_> {
    /// `atom{.sem}{.scope}{.space}.op{.level::cache_hint}.type d, [a], b{, c}{, cache-policy};`
    /// and `red{.sem}{.scope}{.space}.op{.level::cache_hint}.type [a], b{, cache-policy};`
    pub(super) fn atom(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let returns = ins.opcode == "atom";
        let (mut space, mut op, mut ty, mut hint) = (Space::Generic, None, None, false);
        for q in &ins.quals {
            let q = q.as_str();
            match q {
                // "Atomic operations ... are performed as a single
                // indivisible step": the order and scope only widen what
                // other threads may see, and this interpreter runs one
                // interleaving at a time.
                ".relaxed" | ".acquire" | ".release" | ".acq_rel" | ".cta" | ".cluster"
                | ".gpu" | ".sys" | ".noftz" => {}
                ".L2::cache_hint" => hint = true,
                _ => {
                    if let Some(s) = Space::from_qualifier(q).filter(|s| {
                        matches!(s, Space::Global | Space::SharedCta | Space::SharedCluster)
                    }) {
                        space = s;
                    } else if let Some(o) = atom_op(q) {
                        op = Some(o);
                    } else if let Some(t) = atom_type(q) {
                        ty = Some(t);
                    } else {
                        return Err(self.unsupported_plain(
                            ins,
                            "vector, packed, 128-bit and .mmio atomics are not modelled",
                        ));
                    }
                }
            }
        }
        let (Some(op), Some(ty)) = (op, ty) else {
            return Err(self.bad(
                &ins.full_opcode(),
                ins.span.start,
                "atom and red need an operation and a type",
            ));
        };
        let ty_name = ins.quals.last().map(String::as_str).unwrap_or(".b32");
        let first = usize::from(returns);
        let d = if returns {
            Some(self.dest_at(ins, 0)?)
        } else {
            None
        };
        let b = self.src_at(ins, first + 1, ty_name)?;
        let c = if op == AtomOp::Cas {
            self.src_at(ins, first + 2, ty_name)?
        } else {
            Src::Imm(0)
        };
        let addr = self.address(self.operand(ins, first)?, space, ins)?;
        Ok(Op::Atom(Box::new(Atomic {
            op,
            ty,
            d,
            b,
            c,
            acc: Access {
                space,
                size: crate::sim::reduce::element_bytes(ty) as u8,
                signed: false,
                regs: vec![None],
                reg_bits: vec![0],
                addr,
                // atomics are strong operations: only `.global` and
                // `.shared` locations qualify
                order: Order::Strong,
                global_only: hint.then_some(&HINT_GLOBAL),
            },
        })))
    }
}
