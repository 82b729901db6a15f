//! Decoding `atom` and `red` (PTX ISA 9.7.13.5, 9.7.13.6) on `.global`,
//! `.shared{::cta, ::cluster}` and generic addresses: the scalar forms,
//! `atom.cas.b16`, `atom.{cas,exch}.b128`, the packed `.f16x2`/`.bf16x2`
//! `.add.noftz` and the vector forms (`.v2/.v4/.v8`, sm_90); the machine
//! performs each as indivisible read-modify-writes.

use super::{Decoder, LoadError};
use crate::ptx::ast::{Instruction, Operand, OperandKind};
use crate::sim::program::{Access, AtomOp, Atomic, Op, Order, Src};
use crate::sim::reduce::{BulkRedOp, BulkRedType};
use crate::sim::space::Space;

use crate::precond::table::HINT_GLOBAL;

/// An `atom`/`red` type qualifier: the element type of a reduction, a
/// packed pair of halves, or bits that only `.exch`/`.cas` move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AtomType {
    Scalar(BulkRedType),
    /// `.f16x2`, `.bf16x2`: two elements of the type in a 32-bit register.
    Packed(BulkRedType),
    /// `.b16`, `.b128`: bytes.
    Bits(u8),
}

impl AtomType {
    fn parse(q: &str) -> Option<AtomType> {
        use BulkRedType::*;
        Some(AtomType::Scalar(match q {
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
            ".f16x2" => return Some(AtomType::Packed(F16)),
            ".bf16x2" => return Some(AtomType::Packed(Bf16)),
            ".b16" => return Some(AtomType::Bits(2)),
            ".b128" => return Some(AtomType::Bits(16)),
            _ => return None,
        }))
    }

    /// Bytes of one register's worth of memory.
    fn bytes(self) -> u8 {
        match self {
            AtomType::Scalar(t) => crate::sim::reduce::element_bytes(t) as u8,
            AtomType::Packed(_) => 4,
            AtomType::Bits(n) => n,
        }
    }

    /// The type an operand register or immediate is read as.
    fn operand_type(self) -> &'static str {
        use BulkRedType::*;
        match self {
            AtomType::Scalar(t) => match t {
                B32 => ".b32",
                B64 => ".b64",
                U32 => ".u32",
                U64 => ".u64",
                S32 => ".s32",
                S64 => ".s64",
                F32 => ".f32",
                F64 => ".f64",
                F16 => ".f16",
                Bf16 => ".bf16",
            },
            AtomType::Packed(_) => ".b32",
            AtomType::Bits(2) => ".b16",
            AtomType::Bits(_) => ".b128",
        }
    }

    /// The element type of the reduction.
    fn element(self) -> BulkRedType {
        match self {
            AtomType::Scalar(t) | AtomType::Packed(t) => t,
            AtomType::Bits(8) => BulkRedType::B64,
            AtomType::Bits(_) => BulkRedType::B32,
        }
    }
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

/// Why the ISA has no such form (`None`: it has). The vector forms
/// (9.7.13.5): "`.vec_32_bit = { .v2, .v4 }`" with `.add ... .f32` and
/// with `.op = { .add, .min, .max }` on "`.packed_type = { .f16x2,
/// .bf16x2 }`"; "`.vec_16_bit = { .v2, .v4, .v8 }`" with `.op` on
/// "`.half_word_type = { .f16, .bf16 }`"; "atom with vector type may be
/// used only with .global space". The scalar extras: "`atom ... .cas.b16
/// d, [a], b, c`", "`atom ... .cas.b128`", "`atom ... .exch ... .b128`"
/// (no `.exch.b16`, and no `red` of either: `red`'s `.op` has neither
/// `.exch` nor `.cas`), and the packed types only in "`.add.noftz ...
/// .f16x2`" / "`.bf16x2`".
fn form_rule(
    op: AtomOp,
    ty: AtomType,
    vector: u8,
    space: Space,
    returns: bool,
) -> Option<&'static str> {
    let red_op = match op {
        AtomOp::Reduce(r) => Some(r),
        _ => None,
    };
    let add_min_max = matches!(
        red_op,
        Some(BulkRedOp::Add | BulkRedOp::Min | BulkRedOp::Max)
    );
    if vector > 1 {
        if !matches!(space, Space::Global | Space::Generic) {
            return Some("atom and red with vector type may be used only with .global space");
        }
        let ok = match ty {
            AtomType::Scalar(BulkRedType::F32) => {
                matches!(vector, 2 | 4) && red_op == Some(BulkRedOp::Add)
            }
            AtomType::Scalar(BulkRedType::F16 | BulkRedType::Bf16) => {
                matches!(vector, 2 | 4 | 8) && add_min_max
            }
            AtomType::Packed(_) => matches!(vector, 2 | 4) && add_min_max,
            _ => false,
        };
        return (!ok).then_some(
            "the vector forms are .v2/.v4 .add.f32, .v2/.v4/.v8 .add/.min/.max on .f16/.bf16 and .v2/.v4 .add/.min/.max on .f16x2/.bf16x2",
        );
    }
    match ty {
        AtomType::Bits(2) => (op != AtomOp::Cas || !returns)
            .then_some("the ISA lists .b16 only for atom.cas.b16 (no atom.exch.b16, no red)"),
        AtomType::Bits(_) => (!matches!(op, AtomOp::Cas | AtomOp::Exch) || !returns)
            .then_some("the ISA lists .b128 only for atom.cas and atom.exch"),
        AtomType::Packed(_) => (red_op != Some(BulkRedOp::Add))
            .then_some("the ISA lists scalar .f16x2/.bf16x2 only with .add.noftz"),
        AtomType::Scalar(_) => None,
    }
}

impl Decoder<'_> {
    /// `atom{.sem}{.scope}{.space}.op{.level::cache_hint}.type d, [a], b{, c}{, cache-policy};`,
    /// `atom{.sem}{.scope}{.global}.op{.noftz}{.level::cache_hint}.vec.type d, [a], b{, cache-policy};`
    /// (`d` and `b` "brace-enclosed vector expressions, size of which is
    /// equal to the size of vector qualifier"), and `red` alike without `d`.
    pub(super) fn atom(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let returns = ins.opcode == "atom";
        let (mut space, mut op, mut ty, mut hint, mut vector) =
            (Space::Generic, None, None, false, 1u8);
        for q in &ins.quals {
            let q = q.as_str();
            match q {
                // "Atomic operations ... are performed as a single
                // indivisible step": the order and scope only widen what
                // other threads may see, and this interpreter runs one
                // interleaving at a time. `.noftz` names what the
                // half-precision forms always do ("preserves subnormal
                // inputs and results").
                ".relaxed" | ".acquire" | ".release" | ".acq_rel" | ".cta" | ".cluster"
                | ".gpu" | ".sys" | ".noftz" => {}
                ".L2::cache_hint" => hint = true,
                ".v2" => vector = 2,
                ".v4" => vector = 4,
                ".v8" => vector = 8,
                _ => {
                    if let Some(s) = Space::from_qualifier(q).filter(|s| {
                        matches!(s, Space::Global | Space::SharedCta | Space::SharedCluster)
                    }) {
                        space = s;
                    } else if let Some(o) = atom_op(q) {
                        op = Some(o);
                    } else if let Some(t) = AtomType::parse(q) {
                        ty = Some(t);
                    } else {
                        return Err(self.unsupported_plain(
                            ins,
                            "this atom/red qualifier is not modelled (.mmio, .async...)",
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
        if let Some(why) = form_rule(op, ty, vector, space, returns) {
            return Err(self.bad(&ins.full_opcode(), ins.span.start, why));
        }
        let ty_name = ty.operand_type();
        let first = usize::from(returns);
        let d = if returns {
            self.elements(ins, 0, vector)?
                .into_iter()
                .map(|o| Ok(self.dest(o, ins)?.slot))
                .collect::<Result<Vec<_>, LoadError>>()?
        } else {
            Vec::new()
        };
        let b = self
            .elements(ins, first + 1, vector)?
            .into_iter()
            .map(|o| self.value(o, ty_name, ins))
            .collect::<Result<Vec<_>, LoadError>>()?;
        let c = if op == AtomOp::Cas {
            self.src_at(ins, first + 2, ty_name)?
        } else {
            Src::Imm(0)
        };
        let addr = self.address(self.operand(ins, first)?, space, ins)?;
        Ok(Op::Atom(Box::new(Atomic {
            op,
            ty: ty.element(),
            packed: matches!(ty, AtomType::Packed(_)),
            returns,
            d,
            b,
            c,
            acc: Access {
                space,
                size: ty.bytes(),
                signed: false,
                regs: vec![None; usize::from(vector)],
                reg_bits: vec![0; usize::from(vector)],
                addr,
                // atomics are strong operations: only `.global` and
                // `.shared` locations qualify
                order: Order::Strong,
                global_only: hint.then_some(&HINT_GLOBAL),
            },
        })))
    }

    /// Operand `k`: the `n` elements of a brace-enclosed vector, or the
    /// operand itself when `n` is 1.
    fn elements<'i>(
        &self,
        ins: &'i Instruction,
        k: usize,
        n: u8,
    ) -> Result<Vec<&'i Operand>, LoadError> {
        let o = self.operand(ins, k)?;
        let elems: Vec<&Operand> = match &o.kind {
            OperandKind::Vector(v) if n > 1 => v.iter().collect(),
            _ if n == 1 => vec![o],
            _ => Vec::new(),
        };
        if elems.len() != usize::from(n) {
            return Err(self.bad(
                &ins.full_opcode(),
                ins.span.start,
                format!(
                    "operand {} must be a vector of {n} elements, as the vector qualifier says",
                    k + 1
                ),
            ));
        }
        Ok(elems)
    }
}
