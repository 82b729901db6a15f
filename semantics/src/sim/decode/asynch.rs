//! Decoding the asynchronous instructions (PTX ISA 9.7.9.12 `st.async`,
//! 9.7.9.13 `st.bulk`, 9.7.9.25.4 bulk copies and reductions, 9.7.9.25.6
//! bulk groups, `fence.proxy.async`) and the mbarrier instructions they
//! complete through (PTX ISA 9.7.13.15, outside the catalogue: their
//! qualifiers are read here).

use super::{Decoder, LoadError};
use crate::ptx::ast::{Instruction, Operand, OperandKind};
use crate::sim::program::{AsyncInstr, MbarKind, Op, Src};
use crate::sim::reduce::{BulkRedOp, BulkRedType};
use crate::sim::space::Space;

impl Decoder<'_> {
    fn has_q(ins: &Instruction, q: &str) -> bool {
        ins.quals.iter().any(|x| x == q)
    }

    /// The state space an mbarrier instruction names (`.shared` is
    /// `.shared::cta`), generic when it names none.
    fn mbar_space(ins: &Instruction) -> Space {
        ins.quals
            .iter()
            .find_map(|q| match q.as_str() {
                ".shared" | ".shared::cta" => Some(Space::SharedCta),
                ".shared::cluster" => Some(Space::SharedCluster),
                _ => None,
            })
            .unwrap_or(Space::Generic)
    }

    fn is_sink(op: &Operand) -> bool {
        matches!(&op.kind, OperandKind::Name(n) if n == "_")
    }

    fn wrap(op: AsyncInstr) -> Result<Op, LoadError> {
        Ok(Op::Async(Box::new(op)))
    }

    /// `mbarrier.*` (PTX ISA 9.7.13.15).
    pub(super) fn mbarrier(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let space = Self::mbar_space(ins);
        let what = ins.quals.first().map(String::as_str).unwrap_or("");
        let u32v = |this: &Self, k: usize| -> Result<Src, LoadError> {
            this.value(this.operand(ins, k)?, ".u32", ins)
        };
        match what {
            ".init" => Self::wrap(AsyncInstr::MbarInit {
                addr: self.address(self.operand(ins, 0)?, space, ins)?,
                space,
                count: u32v(self, 1)?,
            }),
            ".inval" => Self::wrap(AsyncInstr::MbarInval {
                addr: self.address(self.operand(ins, 0)?, space, ins)?,
                space,
            }),
            ".expect_tx" | ".complete_tx" => Self::wrap(AsyncInstr::MbarUpdate {
                kind: if what == ".expect_tx" {
                    MbarKind::ExpectTx
                } else {
                    MbarKind::CompleteTx
                },
                d: None,
                addr: self.address(self.operand(ins, 0)?, space, ins)?,
                space,
                count: None,
                tx: Some(u32v(self, 1)?),
            }),
            ".arrive" | ".arrive_drop" => {
                let drop = what == ".arrive_drop";
                let no_complete = Self::has_q(ins, ".noComplete");
                let expect = Self::has_q(ins, ".expect_tx");
                let d0 = self.operand(ins, 0)?;
                let d = if Self::is_sink(d0) {
                    None
                } else {
                    Some(self.dest(d0, ins)?.slot)
                };
                let addr = self.address(self.operand(ins, 1)?, space, ins)?;
                let (mut count, mut tx) = (None, None);
                if expect {
                    tx = Some(u32v(self, 2)?);
                } else if ins.operands.len() > 2 {
                    count = Some(u32v(self, 2)?);
                }
                Self::wrap(AsyncInstr::MbarUpdate {
                    kind: MbarKind::Arrive { drop, no_complete },
                    d,
                    addr,
                    space,
                    count,
                    tx,
                })
            }
            ".test_wait" | ".try_wait" => {
                let parity = Self::has_q(ins, ".parity");
                let d = self.dest(self.operand(ins, 0)?, ins)?.slot;
                let addr = self.address(self.operand(ins, 1)?, space, ins)?;
                let token = self.value(
                    self.operand(ins, 2)?,
                    if parity { ".u32" } else { ".b64" },
                    ins,
                )?;
                // the suspend-time hint (operand 4) only bounds how long the
                // thread may be suspended
                Self::wrap(AsyncInstr::MbarWait {
                    d,
                    addr,
                    space,
                    token,
                    parity,
                    blocking: what == ".try_wait",
                })
            }
            ".pending_count" => Self::wrap(AsyncInstr::MbarPendingCount {
                d: self.dest(self.operand(ins, 0)?, ins)?.slot,
                state: self.value(self.operand(ins, 1)?, ".b64", ins)?,
            }),
            _ => Err(self.unsupported(ins, "this mbarrier instruction")),
        }
    }

    /// `cp.async.mbarrier.arrive`, `cp.async.bulk*` and
    /// `cp.reduce.async.bulk*`; `None` for the non-bulk `cp.async` forms.
    pub(super) fn cp_async_family(&mut self, ins: &Instruction) -> Option<Result<Op, LoadError>> {
        let q: Vec<&str> = ins.quals.iter().map(String::as_str).collect();
        let reduce = q.first() == Some(&".reduce");
        let rest = if reduce { &q[1..] } else { &q[..] };
        if rest.get(1) == Some(&".mbarrier") {
            return Some(self.cp_async_arrive(ins));
        }
        if rest.get(1) != Some(&".bulk") {
            return None;
        }
        if rest.get(2) == Some(&".tensor") || rest.get(3) == Some(&".tensor") {
            return Some(self.tensor(ins, reduce));
        }
        Some(match rest.get(2).copied() {
            Some(".commit_group") => Self::wrap(AsyncInstr::BulkCommit),
            Some(".wait_group") => self.bulk_wait(ins),
            Some(".prefetch") => (|| {
                let addr = self.address(self.operand(ins, 0)?, Space::Global, ins)?;
                let size = self.value(self.operand(ins, 1)?, ".u32", ins)?;
                Self::wrap(AsyncInstr::BulkPrefetch { addr, size })
            })(),
            _ => self.bulk(ins, reduce),
        })
    }

    fn bulk_wait(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let n = match self.value(self.operand(ins, 0)?, ".u32", ins)? {
            Src::Imm(n) => n as u32,
            _ => {
                return Err(self.bad(
                    &ins.full_opcode(),
                    ins.span.start,
                    "N is an integer constant",
                ))
            }
        };
        Self::wrap(AsyncInstr::BulkWait {
            n,
            read: Self::has_q(ins, ".read"),
        })
    }

    /// The group instructions of the non-bulk `cp.async`.
    pub(super) fn cp_group(&mut self, ins: &Instruction, id: &str) -> Result<Op, LoadError> {
        match id {
            "cp.async.commit_group" => Self::wrap(AsyncInstr::CpCommit),
            "cp.async.wait_all" => Self::wrap(AsyncInstr::CpWait { n: 0, all: true }),
            _ => match self.value(self.operand(ins, 0)?, ".u32", ins)? {
                Src::Imm(n) => Self::wrap(AsyncInstr::CpWait {
                    n: n as u32,
                    all: false,
                }),
                _ => Err(self.bad(
                    &ins.full_opcode(),
                    ins.span.start,
                    "N is an integer constant",
                )),
            },
        }
    }

    fn cp_async_arrive(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let space = Self::mbar_space(ins);
        Self::wrap(AsyncInstr::CpAsyncArrive {
            addr: self.address(self.operand(ins, 0)?, space, ins)?,
            space,
            noinc: Self::has_q(ins, ".noinc"),
        })
    }

    /// `cp.async.bulk` (every direction) and `cp.reduce.async.bulk`.
    fn bulk(&mut self, ins: &Instruction, reduce: bool) -> Result<Op, LoadError> {
        let forms = self.forms(ins)?;
        let b = self.first(&forms, ins)?;
        let space_of = |slot: &str| b.get(slot).and_then(Space::from_qualifier);
        let (Some(dst_space), Some(src_space)) = (space_of("dst"), space_of("src")) else {
            return Err(self.bad(
                &ins.full_opcode(),
                ins.span.start,
                "no destination or source space",
            ));
        };
        let mbar_form = b
            .get("completion_mechanism")
            .is_some_and(|c| c.starts_with(".mbarrier"));
        let dst = self.address(self.operand(ins, 0)?, dst_space, ins)?;
        let src = self.address(self.operand(ins, 1)?, src_space, ins)?;
        let size = self.value(self.operand(ins, 2)?, ".u32", ins)?;
        let mut k = 3;
        let mbar = if mbar_form {
            k += 1;
            // the mbarrier is in the destination's CTA (`.shared::cluster`
            // for the cluster forms)
            Some(self.address(self.operand(ins, 3)?, dst_space, ins)?)
        } else {
            None
        };
        let cta_mask = if b.has(".multicast::cluster") {
            k += 1;
            Some(self.value(self.operand(ins, k - 1)?, ".b16", ins)?)
        } else {
            None
        };
        if b.has(".L2::cache_hint") {
            k += 1;
        }
        let byte_mask = if b.has(".cp_mask") {
            Some(self.value(self.operand(ins, k)?, ".b16", ins)?)
        } else {
            None
        };
        let reduce = if reduce {
            let noftz = b.form.row.id.ends_with(".add.noftz");
            let op = match b.get("redOp").unwrap_or(if noftz { ".add" } else { "" }) {
                ".and" => BulkRedOp::And,
                ".or" => BulkRedOp::Or,
                ".xor" => BulkRedOp::Xor,
                ".add" => BulkRedOp::Add,
                ".inc" => BulkRedOp::Inc,
                ".dec" => BulkRedOp::Dec,
                ".min" => BulkRedOp::Min,
                ".max" => BulkRedOp::Max,
                _ => return Err(self.bad(&ins.full_opcode(), ins.span.start, "no .redOp")),
            };
            let ty = match b.get("type").unwrap_or("") {
                ".b32" => BulkRedType::B32,
                ".b64" => BulkRedType::B64,
                ".u32" => BulkRedType::U32,
                ".s32" => BulkRedType::S32,
                ".u64" => BulkRedType::U64,
                ".s64" => BulkRedType::S64,
                ".f32" => BulkRedType::F32,
                ".f64" => BulkRedType::F64,
                ".f16" => BulkRedType::F16,
                ".bf16" => BulkRedType::Bf16,
                _ => return Err(self.bad(&ins.full_opcode(), ins.span.start, "no .type")),
            };
            Some((op, ty, noftz))
        } else {
            None
        };
        Self::wrap(AsyncInstr::Bulk {
            dst,
            dst_space,
            src,
            src_space,
            size,
            mbar,
            cta_mask,
            byte_mask,
            reduce,
            pre: crate::precond::table::for_row(b.form.row.id),
        })
    }

    /// `st.async` (the weak, mbarrier form; the sm_100 release form to
    /// global memory is a release store) and `st.bulk`.
    pub(super) fn store_async(
        &mut self,
        ins: &Instruction,
        b: &crate::catalogue::Binding<'static>,
    ) -> Result<Op, LoadError> {
        let space = b
            .get("ss")
            .and_then(Space::from_qualifier)
            .or_else(|| b.has(".shared::cta").then_some(Space::SharedCta))
            .unwrap_or(Space::Generic);
        if b.form.row.instr == "st.bulk" {
            return Self::wrap(AsyncInstr::StBulk {
                addr: self.address(self.operand(ins, 0)?, space, ins)?,
                space,
                size: self.value(self.operand(ins, 1)?, ".u64", ins)?,
            });
        }
        if b.form.row.id == "st.async.release" {
            return Err(self.unsupported(ins, "st.async.release (sm_100) is not modelled yet"));
        }
        let t = b
            .ty("type")
            .ok_or_else(|| self.bad(&ins.full_opcode(), ins.span.start, "no type"))?;
        let ty = b.get("type").unwrap_or(".b32");
        let v = self.operand(ins, 1)?;
        let elems: Vec<&Operand> = match &v.kind {
            OperandKind::Vector(v) => v.iter().collect(),
            _ => vec![v],
        };
        let srcs = elems
            .into_iter()
            .map(|e| self.value(e, ty, ins))
            .collect::<Result<Vec<_>, _>>()?;
        Self::wrap(AsyncInstr::StAsync {
            addr: self.address(self.operand(ins, 0)?, space, ins)?,
            space,
            elem: (t.bits / 8) as u8,
            srcs,
            mbar: self.address(self.operand(ins, 2)?, space, ins)?,
        })
    }

    /// `red.async.sem.scope{.ss}.completion_mechanism.op.type [a], b, [mbar]`
    /// (PTX ISA 9.7.13.7): "`.sem = { .relaxed }; .scope = { .cluster };
    /// .ss = { .shared::cluster }; .completion_mechanism = {
    /// .mbarrier::complete_tx::bytes }`", with `.inc, .dec` on `.u32`;
    /// `.min, .max` on `.u32, .s32`; `.and, .or, .xor` on `.b32`; `.add` on
    /// `.u32, .s32, .u64`. Without `.ss`, `a` and `mbar` are generic
    /// addresses.
    pub(super) fn red_async(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let q: Vec<&str> = ins.quals.iter().map(String::as_str).collect();
        let (space, rest) = match q.as_slice() {
            [".async", ".relaxed", ".cluster", ".shared::cluster", rest @ ..] => {
                (Space::SharedCluster, rest)
            }
            [".async", ".relaxed", ".cluster", rest @ ..] => (Space::Generic, rest),
            _ => return Err(self.unsupported(ins, "red.async.relaxed.cluster{.shared::cluster}")),
        };
        let [".mbarrier::complete_tx::bytes", op, ty] = rest else {
            return Err(self.unsupported(ins, "this red.async form"));
        };
        use BulkRedOp as O;
        use BulkRedType as T;
        let (op, ty) = match (*op, *ty) {
            (".inc", ".u32") => (O::Inc, T::U32),
            (".dec", ".u32") => (O::Dec, T::U32),
            (".min", ".u32") => (O::Min, T::U32),
            (".min", ".s32") => (O::Min, T::S32),
            (".max", ".u32") => (O::Max, T::U32),
            (".max", ".s32") => (O::Max, T::S32),
            (".and", ".b32") => (O::And, T::B32),
            (".or", ".b32") => (O::Or, T::B32),
            (".xor", ".b32") => (O::Xor, T::B32),
            (".add", ".u32") => (O::Add, T::U32),
            (".add", ".s32") => (O::Add, T::S32),
            (".add", ".u64") => (O::Add, T::U64),
            _ => return Err(self.unsupported(ins, "red.async has no such .op and .type")),
        };
        Self::wrap(AsyncInstr::RedAsync {
            addr: self.address(self.operand(ins, 0)?, space, ins)?,
            space,
            op,
            ty,
            src: self.value(self.operand(ins, 1)?, ty_name(ty), ins)?,
            mbar: self.address(self.operand(ins, 2)?, space, ins)?,
        })
    }

    /// `fence.proxy.async{.global, .shared::cta, .shared::cluster}`; the
    /// other fences order memory only, which one interleaving does not
    /// need.
    pub(super) fn fence(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let q: Vec<&str> = ins.quals.iter().map(String::as_str).collect();
        if q.first() == Some(&".proxy") && q.get(1) == Some(&".tensormap::generic") {
            return Self::wrap(AsyncInstr::FenceProxyTensormap);
        }
        if q.first() == Some(&".proxy") && q.get(1) == Some(&".async") {
            let space = q.get(2).and_then(|s| Space::from_qualifier(s));
            return Self::wrap(AsyncInstr::FenceProxyAsync { space });
        }
        Ok(Op::Fence)
    }
}

/// The PTX type of a `red.async` element.
fn ty_name(ty: BulkRedType) -> &'static str {
    match ty {
        BulkRedType::S32 => ".s32",
        BulkRedType::U64 => ".u64",
        BulkRedType::B32 => ".b32",
        _ => ".u32",
    }
}
