//! Decoding the instructions of PTX ISA 9.7.9: the catalogue resolves the
//! qualifiers to a form and a [`Binding`]; the decoder reads the binding's
//! slots (`b.get("ss")`, `b.get("type")`...) rather than the qualifier
//! strings.

use super::{Decoder, LoadError, Symbol};
use crate::catalogue::types::TypeKind;
use crate::catalogue::{Binding, Catalogue, Resolved};
use crate::ptx::ast::{Instruction, Operand, OperandKind};
use crate::sim::prmt::PrmtMode;
use crate::sim::program::{Access, IntTy, MultimemOp, Op, Order, Policy, RedOp, Src};
use crate::sim::shfl::ShflMode;
use crate::sim::space::Space;
use crate::sim::vote::{ReduxOp, VoteMode, WarpOp};

use crate::precond::table::{
    Precondition, EVICT_GLOBAL, HINT_GLOBAL, LDU_GLOBAL, NC_GLOBAL, PREFETCH_GLOBAL, WIDE_GLOBAL,
};

impl Decoder<'_> {
    pub(super) fn instruction(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        match ins.opcode.as_str() {
            "mov" => self.mov(ins),
            "prmt" => self.prmt(ins),
            "shfl" => self.shfl(ins),
            "activemask" | "vote" | "redux" | "elect" | "match" => self.warp_op(ins),
            "bar" | "barrier"
                if ins.quals.iter().any(|q| q == ".arrive")
                    && !ins.quals.iter().any(|q| q == ".cluster") =>
            {
                self.bar_arrive(ins)
            }
            "bar" | "barrier" if ins.quals.iter().any(|q| q == ".red") => self.bar_red(ins),
            "trap" => Ok(Op::Trap),
            // "brkpt: Suspends execution" for a debugger; with none attached
            // the model goes on
            "brkpt" => Ok(Op::Nop),
            "ld" | "ldu" => self.load(ins),
            "st" => self.store(ins),
            "cvta" => self.cvta(ins),
            "isspacep" => self.isspacep(ins),
            "mapa" => self.mapa(ins),
            "getctarank" => self.getctarank(ins),
            "prefetch" | "prefetchu" => self.prefetch(ins),
            "applypriority" | "discard" => self.cache_range(ins),
            "createpolicy" => self.createpolicy(ins),
            "multimem" => self.multimem(ins),
            "cvt" => self.cvt(ins),
            "cp" => match self.cp_async_family(ins) {
                Some(r) => r,
                None if ins.quals.first().is_some_and(|q| q == ".async") => self.cp_async(ins),
                None => self.plain(ins),
            },
            "red" if ins.quals.first().is_some_and(|q| q == ".async") => self.red_async(ins),
            "mbarrier" => self.mbarrier(ins),
            "fence" => self.fence(ins),
            "tensormap" => self.tensormap_replace(ins),
            _ => self.plain(ins),
        }
    }

    pub(super) fn unsupported(&self, ins: &Instruction, why: &str) -> LoadError {
        LoadError::Unsupported {
            what: ins.full_opcode(),
            offset: ins.span.start,
            why: why.to_string(),
        }
    }

    /// The catalogue's forms for the instruction's qualifiers.
    pub(super) fn forms(&self, ins: &Instruction) -> Result<Resolved, LoadError> {
        let quals: Vec<&str> = ins.quals.iter().map(String::as_str).collect();
        Catalogue::get()
            .resolve_memo(&ins.full_opcode(), &ins.opcode, &quals)
            .map_err(|_| {
                self.bad(
                    &ins.full_opcode(),
                    ins.span.start,
                    "no form of PTX ISA 9.7.9 has these qualifiers",
                )
            })
    }

    /// The binding of the form with this row id.
    fn form<'f>(
        &self,
        forms: &'f Resolved,
        ids: &[&str],
        ins: &Instruction,
    ) -> Result<&'f Binding<'static>, LoadError> {
        forms
            .iter()
            .find(|b| ids.contains(&b.form.row.id))
            .ok_or_else(|| {
                self.bad(
                    &ins.full_opcode(),
                    ins.span.start,
                    format!("no form {ids:?} takes these qualifiers and operands"),
                )
            })
    }

    /// The first binding (forms that differ only in rules the checker
    /// applies).
    pub(super) fn first<'f>(
        &self,
        forms: &'f Resolved,
        ins: &Instruction,
    ) -> Result<&'f Binding<'static>, LoadError> {
        forms
            .first()
            .ok_or_else(|| self.bad(&ins.full_opcode(), ins.span.start, "no form"))
    }

    pub(super) fn operand<'i>(
        &self,
        ins: &'i Instruction,
        k: usize,
    ) -> Result<&'i Operand, LoadError> {
        ins.operands.get(k).ok_or_else(|| {
            self.bad(
                &ins.full_opcode(),
                ins.span.start,
                format!("operand {} is missing", k + 1),
            )
        })
    }

    fn width(b: &Binding, slot: &str) -> u32 {
        b.ty(slot).map_or(0, |t| t.bits)
    }

    // ---- 9.7.9.3, 9.7.9.4 mov ----

    fn mov(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let forms = self.forms(ins)?;
        let d = self.operand(ins, 0)?;
        let a = self.operand(ins, 1)?;
        let vector = ins
            .quals
            .iter()
            .any(|q| matches!(q.as_str(), ".v2" | ".v4"));
        let id: &[&str] = match (&d.kind, &a.kind) {
            _ if vector => &["mov.vec"],
            (_, OperandKind::Vector(v)) if v.len() == 2 => &["mov.pack.v2"],
            (_, OperandKind::Vector(_)) => &["mov.pack.v4"],
            (OperandKind::Vector(v), _) if v.len() == 2 => &["mov.unpack.v2"],
            (OperandKind::Vector(_), _) => &["mov.unpack.v4"],
            (_, OperandKind::Name(n)) if self.lookup_reg(n).is_some() => &["mov"],
            (_, OperandKind::Name(n)) if super::special_register(n).is_some() => &["mov.sreg"],
            // the predefined constant WARP_SZ reads as the immediate 32
            (_, OperandKind::Name(n)) if n == "WARP_SZ" => &["mov"],
            (_, OperandKind::Name(n)) | (_, OperandKind::NameOffset(n, _)) => {
                match self.symbols.get(n) {
                    Some(Symbol::Function) => &["mov.fname", "mov.kernel"],
                    _ => &["mov.avar"],
                }
            }
            _ => &["mov"],
        };
        let b = self.form(&forms, id, ins)?;
        let ty = b.get("type").unwrap_or(".b32");
        let bits = Self::width(b, "type");
        match b.form.row.id {
            "mov.pack.v2" | "mov.pack.v4" => {
                let OperandKind::Vector(v) = &a.kind else {
                    return Err(self.bad(
                        &ins.full_opcode(),
                        ins.span.start,
                        "expected a vector source",
                    ));
                };
                let n = v.len() as u32;
                let ety = format!(".b{}", bits / n);
                let elems = v
                    .iter()
                    .map(|e| self.value(e, &ety, ins))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Op::Pack {
                    d: self.dest(d, ins)?.slot,
                    width: bits,
                    elems,
                })
            }
            "mov.unpack.v2" | "mov.unpack.v4" => {
                let OperandKind::Vector(v) = &d.kind else {
                    return Err(self.bad(
                        &ins.full_opcode(),
                        ins.span.start,
                        "expected a vector destination",
                    ));
                };
                let ds = v
                    .iter()
                    .map(|e| match &e.kind {
                        OperandKind::Name(n) if n == "_" => Ok(None),
                        _ => self.dest(e, ins).map(|r| Some(r.slot)),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Op::Unpack {
                    d: ds,
                    width: bits,
                    a: self.value(a, ty, ins)?,
                })
            }
            "mov.avar" => {
                let (name, off) = match &a.kind {
                    OperandKind::Name(n) => (n.as_str(), 0),
                    OperandKind::NameOffset(n, o) => (n.as_str(), *o as i64),
                    _ => {
                        return Err(self.bad(
                            &ins.full_opcode(),
                            ins.span.start,
                            "expected a variable",
                        ))
                    }
                };
                let home = match self.symbols.get(name) {
                    Some(Symbol::Var { space, .. }) => *space,
                    _ => Space::Global,
                };
                // "mov places the non-generic address of the variable (i.e.,
                // the address of the variable in its state space)"
                let src = self.var_address(name, off, home, ins)?;
                let dr = self.dest(d, ins)?;
                Ok(Op::Mov {
                    d: dr.slot,
                    a: src,
                    bits: bits as u16,
                })
            }
            "mov.vec" => self.mov_vector(d, a, ty, bits, ins),
            "mov.fname" | "mov.kernel" => Ok(Op::Mov {
                d: self.dest(d, ins)?.slot,
                a: match &a.kind {
                    OperandKind::Name(n) => self.function_address(n),
                    _ => Src::Unspecified,
                },
                bits: bits as u16,
            }),
            _ => {
                let dr = self.dest(d, ins)?;
                let src = self.value(a, ty, ins)?;
                if bits > 64 {
                    Ok(Op::Mov128 { d: dr.slot, a: src })
                } else {
                    let bits = if ty == ".pred" { 1 } else { bits as u16 };
                    Ok(Op::Mov {
                        d: dr.slot,
                        a: src,
                        bits,
                    })
                }
            }
        }
    }

    /// `mov.v2`/`mov.v4` (PTX ISA 6.4.3): each element of `a` into the
    /// same element of `d`, all read before any is written (through
    /// temporaries when the two sides share a register, as in a swap
    /// `mov.v2.u32 {a, b}, {b, a}`). The last move is the instruction's
    /// own operation; the others go to [`Decoder::pending`].
    fn mov_vector(
        &mut self,
        d: &Operand,
        a: &Operand,
        ty: &str,
        bits: u32,
        ins: &Instruction,
    ) -> Result<Op, LoadError> {
        let (OperandKind::Vector(dv), OperandKind::Vector(av)) = (&d.kind, &a.kind) else {
            return Err(self.bad(
                &ins.full_opcode(),
                ins.span.start,
                "vector mov needs vectors on both sides",
            ));
        };
        if dv.len() != av.len() {
            return Err(self.bad(
                &ins.full_opcode(),
                ins.span.start,
                "the two vectors differ in length",
            ));
        }
        let dests = dv
            .iter()
            .map(|e| match &e.kind {
                OperandKind::Name(n) if n == "_" => Ok(None),
                _ => self.dest(e, ins).map(|r| Some(r.slot)),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let srcs = av
            .iter()
            .map(|e| self.value(e, ty, ins))
            .collect::<Result<Vec<_>, _>>()?;
        let bits = bits as u16;
        let shared = srcs
            .iter()
            .any(|s| matches!(s, Src::Reg(r) if dests.contains(&Some(*r))));
        let mut moves: Vec<Op> = Vec::new();
        if shared {
            let first = self.slots;
            self.slots += srcs.len() as u32;
            for (k, s) in srcs.iter().enumerate() {
                moves.push(Op::Mov {
                    d: first + k as u32,
                    a: *s,
                    bits,
                });
            }
            for (k, d) in dests.iter().enumerate() {
                if let Some(d) = d {
                    moves.push(Op::Mov {
                        d: *d,
                        a: Src::Reg(first + k as u32),
                        bits,
                    });
                }
            }
        } else {
            for (d, s) in dests.iter().zip(&srcs) {
                if let Some(d) = d {
                    moves.push(Op::Mov { d: *d, a: *s, bits });
                }
            }
        }
        let last = moves.pop().unwrap_or(Op::Nop);
        self.pending.extend(moves);
        Ok(last)
    }

    // ---- 9.7.9.7 prmt ----

    fn prmt(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let forms = self.forms(ins)?;
        let b = self.form(&forms, &["prmt"], ins)?;
        let mode = b.get("mode").and_then(PrmtMode::from_qualifier);
        Ok(Op::Prmt {
            d: self.dest(self.operand(ins, 0)?, ins)?.slot,
            a: self.value(self.operand(ins, 1)?, ".b32", ins)?,
            b: self.value(self.operand(ins, 2)?, ".b32", ins)?,
            c: self.value(self.operand(ins, 3)?, ".b32", ins)?,
            mode,
        })
    }

    // ---- 9.7.9.5, 9.7.9.6 shfl ----

    fn shfl(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let forms = self.forms(ins)?;
        let b = self.form(&forms, &["shfl", "shfl.sync"], ins)?;
        let sync = b.form.row.id == "shfl.sync";
        let mode = b
            .get("mode")
            .and_then(ShflMode::from_qualifier)
            .ok_or_else(|| self.bad(&ins.full_opcode(), ins.span.start, "no mode"))?;
        let (d, p) = match &self.operand(ins, 0)?.kind {
            OperandKind::Pair(d, p) => (self.dest(d, ins)?.slot, Some(self.dest(p, ins)?.slot)),
            _ => (self.dest(self.operand(ins, 0)?, ins)?.slot, None),
        };
        let mask = if sync {
            Some(self.value(self.operand(ins, 4)?, ".b32", ins)?)
        } else {
            None
        };
        Ok(Op::Shfl {
            d,
            p,
            a: self.value(self.operand(ins, 1)?, ".b32", ins)?,
            b: self.value(self.operand(ins, 2)?, ".b32", ins)?,
            c: self.value(self.operand(ins, 3)?, ".b32", ins)?,
            mask,
            mode,
        })
    }

    // ---- 9.7.13 activemask, vote.sync, redux.sync, elect.sync ----

    fn warp_op(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let quals: Vec<&str> = ins.quals.iter().map(String::as_str).collect();
        let sink_or_dest = |op: &Operand| match &op.kind {
            OperandKind::Name(n) if n == "_" => Ok(None),
            _ => self.dest(op, ins).map(|r| Some(r.slot)),
        };
        let (op, d, p, a, negate, mask) = match (ins.opcode.as_str(), quals.as_slice()) {
            ("activemask", [".b32"]) => {
                return Ok(Op::Activemask {
                    d: self.dest(self.operand(ins, 0)?, ins)?.slot,
                })
            }
            ("vote", [".sync", mode, ty]) => {
                let mode = VoteMode::from_qualifier(mode)
                    .filter(|m| (*m == VoteMode::Ballot) == (*ty == ".b32"))
                    .filter(|_| matches!(*ty, ".b32" | ".pred"))
                    .ok_or_else(|| self.unsupported(ins, "this vote.sync form"))?;
                let (a, negate) = self.pred_src(self.operand(ins, 1)?, ins)?;
                let d = self.dest(self.operand(ins, 0)?, ins)?.slot;
                (WarpOp::Vote(mode), Some(d), None, a, negate, 2)
            }
            ("redux", [".sync", op, ty]) if *ty != ".f32" => {
                let op = ReduxOp::from_qualifiers(op, ty)
                    .ok_or_else(|| self.unsupported(ins, "this redux.sync form"))?;
                let a = self.value(self.operand(ins, 1)?, ty, ins)?;
                let d = self.dest(self.operand(ins, 0)?, ins)?.slot;
                (WarpOp::Redux(op), Some(d), None, a, false, 2)
            }
            // `redux.sync.op{.abs}{.NaN}.f32 d, a, membermask` (sm_100a)
            ("redux", [".sync", op, mods @ .., ".f32"])
                if mods.iter().all(|m| matches!(*m, ".abs" | ".NaN")) =>
            {
                let abs = mods.contains(&".abs");
                let nan = mods.contains(&".NaN");
                let op = ReduxOp::from_float(op, abs, nan)
                    .ok_or_else(|| self.unsupported(ins, "redux.sync.f32 takes .min or .max"))?;
                let a = self.value(self.operand(ins, 1)?, ".f32", ins)?;
                let d = self.dest(self.operand(ins, 0)?, ins)?.slot;
                (WarpOp::Redux(op), Some(d), None, a, false, 2)
            }
            // `match.any.sync.type d, a, membermask`, `match.all.sync.type
            // d{|p}, a, membermask` (.b32, .b64)
            ("match", [mode @ (".any" | ".all"), ".sync", ty @ (".b32" | ".b64")]) => {
                let all = *mode == ".all";
                let (d, p) = match &self.operand(ins, 0)?.kind {
                    OperandKind::Pair(d, p) if all => (sink_or_dest(d)?, sink_or_dest(p)?),
                    _ => (sink_or_dest(self.operand(ins, 0)?)?, None),
                };
                let a = self.value(self.operand(ins, 1)?, ty, ins)?;
                let wide = *ty == ".b64";
                (WarpOp::Match { all, wide }, d, p, a, false, 2)
            }
            ("elect", [".sync"]) => {
                let OperandKind::Pair(d, p) = &self.operand(ins, 0)?.kind else {
                    return Err(self.bad(
                        &ins.full_opcode(),
                        ins.span.start,
                        "elect.sync needs d|p",
                    ));
                };
                let d = sink_or_dest(d)?;
                let p = sink_or_dest(p)?;
                (WarpOp::Elect, d, p, Src::Imm(0), false, 1)
            }
            _ => return Err(self.unsupported(ins, "this warp-wide form is not modelled")),
        };
        Ok(Op::Warp {
            op,
            d,
            p,
            a,
            negate,
            mask: self.value(self.operand(ins, mask)?, ".b32", ins)?,
        })
    }

    /// `bar{.cta}.arrive a, b` and `barrier{.cta}.arrive{.aligned} a, b`
    /// (PTX ISA 9.7.13.1): "`bar{.cta}.arrive` does not cause any waiting
    /// by the executing threads; it simply marks a thread's arrival at the
    /// barrier"; "Operand b must be specified for `bar{.cta}.arrive`".
    fn bar_arrive(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let rest: Vec<&str> = ins
            .quals
            .iter()
            .map(String::as_str)
            .filter(|q| !matches!(*q, ".cta" | ".aligned" | ".release" | ".relaxed"))
            .collect();
        if rest != [".arrive"] {
            return Err(self.unsupported(ins, "this barrier arrive form"));
        }
        Ok(Op::BarArrive {
            id: self.value(self.operand(ins, 0)?, ".u32", ins)?,
            count: self.value(self.operand(ins, 1)?, ".u32", ins)?,
        })
    }

    /// `bar{.cta}.red.popc.u32 d, a{, b}, {!}c`,
    /// `bar{.cta}.red.op.pred p, a{, b}, {!}c` with "`.op = { .and, .or }`",
    /// and `barrier{.cta}.red.popc{.aligned}.u32` /
    /// `barrier{.cta}.red.op{.aligned}.pred` (PTX ISA 9.7.13.1): "Operands
    /// a, b, and d have type .u32; operands p and c are predicates".
    fn bar_red(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        use crate::sim::program::BarRedOp;
        let rest: Vec<&str> = ins
            .quals
            .iter()
            .map(String::as_str)
            .filter(|q| !matches!(*q, ".cta" | ".aligned"))
            .collect();
        let op = match rest.as_slice() {
            [".red", ".popc", ".u32"] => BarRedOp::Popc,
            [".red", ".and", ".pred"] => BarRedOp::And,
            [".red", ".or", ".pred"] => BarRedOp::Or,
            _ => return Err(self.unsupported(ins, "this barrier reduction form")),
        };
        let n = ins.operands.len();
        if !(3..=4).contains(&n) {
            return Err(self.bad(
                &ins.full_opcode(),
                ins.span.start,
                "bar.red takes d, a{, b}, {!}c",
            ));
        }
        let d = self.dest(self.operand(ins, 0)?, ins)?.slot;
        let id = self.value(self.operand(ins, 1)?, ".u32", ins)?;
        let count = match n {
            4 => Some(self.value(self.operand(ins, 2)?, ".u32", ins)?),
            _ => None,
        };
        let (c, negate) = self.pred_src(self.operand(ins, n - 1)?, ins)?;
        Ok(Op::BarRed {
            op,
            d,
            id,
            count,
            c,
            negate,
        })
    }

    // ---- 9.7.9.8 to 9.7.9.11 ld, ld.global.nc, ldu, st ----

    fn access_space(&self, b: &Binding, store: bool) -> Result<Space, LoadError> {
        if b.form.row.instr == "ld.global.nc" {
            return Ok(Space::Global);
        }
        Ok(match b.get("ss") {
            None => Space::Generic,
            // "If `.param` is specified without any sub-qualifiers then it
            // defaults to `.param::func`" (st); for ld in a kernel, "::entry
            // is assumed when accessing kernel function parameters from
            // entry function"; `param_space` settles which from the operand.
            Some(".param") if store => Space::ParamFunc,
            Some(q) => Space::from_qualifier(q).unwrap_or(Space::Generic),
        })
    }

    fn access_rules(b: &Binding) -> (Order, Option<&'static Precondition>) {
        let order = if b.has(".mmio") {
            Order::Mmio
        } else if b.has(".volatile") || b.has(".relaxed") || b.has(".acquire") || b.has(".release")
        {
            Order::Strong
        } else {
            Order::Weak
        };
        let bits = Self::width(b, "type");
        let vec = b.get("vec");
        let global_only = if b.form.row.instr == "ld.global.nc" {
            Some(&NC_GLOBAL)
        } else if b.form.row.instr == "ldu" {
            Some(&LDU_GLOBAL)
        } else if b.has(".L2::cache_hint") {
            Some(&HINT_GLOBAL)
        } else if b.get("level::prefetch_size").is_some() {
            Some(&PREFETCH_GLOBAL)
        } else if b.get("level1::eviction_priority").is_some()
            || b.get("level2::eviction_priority").is_some()
        {
            Some(&EVICT_GLOBAL)
        } else if vec == Some(".v8") || (vec == Some(".v4") && bits == 64) {
            Some(&WIDE_GLOBAL)
        } else {
            None
        };
        (order, global_only)
    }

    fn load(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let forms = self.forms(ins)?;
        let b = self.first(&forms, ins)?;
        let space = self.access_space(b, false)?;
        let space = self.param_space(space, self.operand(ins, 1)?);
        let (order, global_only) = Self::access_rules(b);
        let t = b
            .ty("type")
            .ok_or_else(|| self.bad(&ins.full_opcode(), ins.span.start, "no type"))?;
        let d = self.operand(ins, 0)?;
        let elems: Vec<&Operand> = match &d.kind {
            OperandKind::Vector(v) => v.iter().collect(),
            _ => vec![d],
        };
        let mut regs = Vec::new();
        let mut reg_bits = Vec::new();
        for e in elems {
            match &e.kind {
                OperandKind::Name(n) if n == "_" => {
                    regs.push(None);
                    reg_bits.push(0);
                }
                _ => {
                    let r = self.dest(e, ins)?;
                    regs.push(Some(if r.bits > 64 {
                        Src::Reg128(r.slot)
                    } else {
                        Src::Reg(r.slot)
                    }));
                    reg_bits.push(r.bits);
                }
            }
        }
        let addr = self.address(self.operand(ins, 1)?, space, ins)?;
        Ok(Op::Ld(Box::new(Access {
            space,
            size: (t.bits / 8) as u8,
            signed: t.kind == TypeKind::Signed,
            regs,
            reg_bits,
            addr,
            order,
            global_only,
        })))
    }

    fn store(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let forms = self.forms(ins)?;
        let b = self.first(&forms, ins)?;
        if matches!(b.form.row.instr, "st.async" | "st.bulk") {
            return self.store_async(ins, b);
        }
        let space = self.access_space(b, true)?;
        let space = self.param_space(space, self.operand(ins, 0)?);
        let (order, global_only) = Self::access_rules(b);
        let t = b
            .ty("type")
            .ok_or_else(|| self.bad(&ins.full_opcode(), ins.span.start, "no type"))?;
        let src = self.operand(ins, 1)?;
        let elems: Vec<&Operand> = match &src.kind {
            OperandKind::Vector(v) => v.iter().collect(),
            _ => vec![src],
        };
        let ty = b.get("type").unwrap_or(".b32");
        let mut regs = Vec::new();
        for e in elems {
            match &e.kind {
                OperandKind::Name(n) if n == "_" => regs.push(None),
                _ => regs.push(Some(self.value(e, ty, ins)?)),
            }
        }
        let addr = self.address(self.operand(ins, 0)?, space, ins)?;
        Ok(Op::St(Box::new(Access {
            space,
            size: (t.bits / 8) as u8,
            signed: false,
            reg_bits: vec![0; regs.len()],
            regs,
            addr,
            order,
            global_only,
        })))
    }

    // ---- 9.7.9.19, 9.7.9.20, 9.7.9.23, 9.7.9.24 addresses ----

    /// A register, or a variable (with offset) as its address in `space`.
    fn reg_or_var(
        &self,
        op: &Operand,
        ty: &str,
        space: Space,
        ins: &Instruction,
    ) -> Result<Src, LoadError> {
        match &op.kind {
            OperandKind::Name(n) if self.lookup_reg(n).is_none() => {
                self.var_address(n, 0, space, ins)
            }
            OperandKind::NameOffset(n, o) => self.var_address(n, *o as i64, space, ins),
            _ => self.value(op, ty, ins),
        }
    }

    fn cvta(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let forms = self.forms(ins)?;
        let b = self.form(&forms, &["cvta", "cvta.to"], ins)?;
        let to = b.form.row.id == "cvta.to";
        let space = b
            .get("space")
            .and_then(Space::from_qualifier)
            .ok_or_else(|| self.bad(&ins.full_opcode(), ins.span.start, "no space"))?;
        let wide = b.is("size", ".u64");
        let size = b.get("size").unwrap_or(".u64");
        // `cvta.space p, var`: the variable's address in its space.
        let a = self.reg_or_var(self.operand(ins, 1)?, size, space, ins)?;
        Ok(Op::Cvta {
            d: self.dest(self.operand(ins, 0)?, ins)?.slot,
            a,
            space,
            to,
            wide,
        })
    }

    fn isspacep(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let forms = self.forms(ins)?;
        let b = self.form(&forms, &["isspacep"], ins)?;
        let space = b
            .get("space")
            .and_then(Space::from_qualifier)
            .ok_or_else(|| self.bad(&ins.full_opcode(), ins.span.start, "no space"))?;
        Ok(Op::Isspacep {
            p: self.dest(self.operand(ins, 0)?, ins)?.slot,
            a: self.value(self.operand(ins, 1)?, ".u64", ins)?,
            space,
        })
    }

    fn mapa(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let forms = self.forms(ins)?;
        let b = self.form(&forms, &["mapa", "mapa.shared::cluster"], ins)?;
        let generic = b.form.row.id == "mapa";
        let ty = b.get("type").unwrap_or(".u64");
        let a = self.reg_or_var(self.operand(ins, 1)?, ty, Space::SharedCluster, ins)?;
        Ok(Op::Mapa {
            d: self.dest(self.operand(ins, 0)?, ins)?.slot,
            a,
            b: self.value(self.operand(ins, 2)?, ".u32", ins)?,
            generic,
            wide: ty == ".u64",
        })
    }

    fn getctarank(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let forms = self.forms(ins)?;
        let b = self.form(&forms, &["getctarank", "getctarank.shared::cluster"], ins)?;
        let generic = b.form.row.id == "getctarank";
        let ty = b.get("type").unwrap_or(".u64");
        let a = self.reg_or_var(self.operand(ins, 1)?, ty, Space::SharedCluster, ins)?;
        Ok(Op::Getctarank {
            d: self.dest(self.operand(ins, 0)?, ins)?.slot,
            a,
            generic,
        })
    }

    // ---- 9.7.9.15 to 9.7.9.18 hints ----

    fn prefetch(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let forms = self.forms(ins)?;
        let b = self.first(&forms, ins)?;
        let space = b
            .get("space")
            .or_else(|| b.get("tensormap_space"))
            .and_then(Space::from_qualifier)
            .unwrap_or(Space::Generic);
        Ok(Op::Prefetch {
            addr: self.address(self.operand(ins, 0)?, space, ins)?,
            space,
            uniform: b.form.row.id == "prefetchu",
        })
    }

    fn cache_range(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let forms = self.forms(ins)?;
        let b = self.first(&forms, ins)?;
        let space = if b.has(".global") {
            Space::Global
        } else {
            Space::Generic
        };
        let size = match &self.operand(ins, 1)?.kind {
            OperandKind::Imm(e) => super::eval_const(e).unwrap_or(0) as u64,
            _ => {
                return Err(self.bad(
                    &ins.full_opcode(),
                    ins.span.start,
                    "size must be an integer constant",
                ))
            }
        };
        Ok(Op::CacheRange {
            addr: self.address(self.operand(ins, 0)?, space, ins)?,
            space,
            size,
            discard: ins.opcode == "discard",
        })
    }

    fn createpolicy(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let forms = self.forms(ins)?;
        let b = self.first(&forms, ins)?;
        let d = self.dest(self.operand(ins, 0)?, ins)?.slot;
        let policy = match b.form.row.id {
            "createpolicy.fractional" => Policy::Fractional(match ins.operands.get(1) {
                Some(op) => Some(self.value(op, ".f32", ins)?),
                None => None,
            }),
            "createpolicy.range" => {
                let space = if b.has(".global") {
                    Space::Global
                } else {
                    Space::Generic
                };
                Policy::Range {
                    addr: self.address(self.operand(ins, 1)?, space, ins)?,
                    space,
                    primary: self.value(self.operand(ins, 2)?, ".u32", ins)?,
                    total: self.value(self.operand(ins, 3)?, ".u32", ins)?,
                }
            }
            _ => Policy::Cvt(self.value(self.operand(ins, 1)?, ".b64", ins)?),
        };
        Ok(Op::Createpolicy { d, policy })
    }

    // ---- 9.7.9.14 multimem ----

    fn multimem(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let forms = self.forms(ins)?;
        let b = self.first(&forms, ins)?;
        let t = b
            .ty("type")
            .or_else(|| b.ty("redtype"))
            .ok_or_else(|| self.bad(&ins.full_opcode(), ins.span.start, "no type"))?;
        let float = !matches!(
            t.kind,
            TypeKind::Bits | TypeKind::Unsigned | TypeKind::Signed
        );
        use crate::sim::reduce::BulkRedType;
        let (fmt, packed) = match t.name {
            ".f32" => (Some(BulkRedType::F32), false),
            ".f64" => (Some(BulkRedType::F64), false),
            ".f16" => (Some(BulkRedType::F16), false),
            ".bf16" => (Some(BulkRedType::Bf16), false),
            ".f16x2" => (Some(BulkRedType::F16), true),
            ".bf16x2" => (Some(BulkRedType::Bf16), true),
            _ if float => {
                return Err(self.unsupported(ins, "multimem on 8-bit floating-point types"));
            }
            _ => (None, false),
        };
        // `.acc::f32` (accumulate `.f16`/`.bf16` in f32): for two
        // locations, f32 holds every sum of two 16-bit values to at least
        // 2p + 2 bits, so rounding it to the format is the format's own
        // rounded sum (double rounding is innocuous); more locations leave
        // the order, and so the bits, open (`FLOAT_ORDER`) either way
        let red = |q: Option<&str>| -> Option<RedOp> {
            Some(match q? {
                ".add" => RedOp::Add,
                ".min" => RedOp::Min,
                ".max" => RedOp::Max,
                ".and" => RedOp::And,
                ".or" => RedOp::Or,
                ".xor" => RedOp::Xor,
                _ => return None,
            })
        };
        let kind = ins.quals.first().map(String::as_str);
        let op = match kind {
            Some(".ld_reduce") => MultimemOp::LdReduce(
                red(b.get("op"))
                    .ok_or_else(|| self.bad(&ins.full_opcode(), ins.span.start, "no .op"))?,
            ),
            Some(".st") => MultimemOp::St,
            _ => MultimemOp::Red(
                red(b.get("op").or_else(|| b.get("redop")))
                    .ok_or_else(|| self.bad(&ins.full_opcode(), ins.span.start, "no .op"))?,
            ),
        };
        let ty_name = t.name;
        let (addr_op, val_op) = match op {
            MultimemOp::LdReduce(_) => (1, 0),
            _ => (0, 1),
        };
        let v = self.operand(ins, val_op)?;
        let elems: Vec<&Operand> = match &v.kind {
            OperandKind::Vector(v) => v.iter().collect(),
            _ => vec![v],
        };
        let regs = elems
            .into_iter()
            .map(|e| {
                Ok(Some(match op {
                    MultimemOp::LdReduce(_) => Src::Reg(self.dest(e, ins)?.slot),
                    _ => self.value(e, ty_name, ins)?,
                }))
            })
            .collect::<Result<Vec<_>, LoadError>>()?;
        Ok(Op::Multimem {
            op,
            ty: IntTy {
                bits: t.bits as u8,
                signed: t.kind == TypeKind::Signed,
            },
            float,
            regs,
            addr: self.address(self.operand(ins, addr_op)?, Space::Global, ins)?,
            fmt,
            packed,
        })
    }

    // ---- 9.7.9.21 cvt, 9.7.9.22 cvt.pack ----

    fn cvt(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let forms = self.forms(ins)?;
        let b = self.first(&forms, ins)?;
        let conv = crate::cvt::Conversion::from_binding(b)
            .map_err(|e| self.unsupported(ins, &e.to_string()))?;
        let d = self.dest(self.operand(ins, 0)?, ins)?;
        let widths = conv.source_widths();
        // The x4 forms take their four values as a vector: `{a, b, c, e}, rbits`.
        let flat: Vec<&Operand> = ins.operands[1..]
            .iter()
            .flat_map(|o| match &o.kind {
                OperandKind::Vector(v) => v.iter().collect::<Vec<_>>(),
                _ => vec![o],
            })
            .collect();
        let mut srcs = Vec::with_capacity(widths.len());
        for (k, w) in widths.iter().enumerate() {
            // immediates of a float source are read as the source type
            let ty = match (&conv, k) {
                (crate::cvt::Conversion::Cvt(op), 0) => op.src.ptx_name(),
                _ => format!(".b{w}"),
            };
            let o = flat.get(k).copied().ok_or_else(|| {
                self.bad(
                    &ins.full_opcode(),
                    ins.span.start,
                    format!("source operand {} is missing", k + 1),
                )
            })?;
            srcs.push(self.value(o, &ty, ins)?);
        }
        Ok(Op::Convert {
            conv: Box::new(conv),
            d: d.slot,
            srcs,
            reg_bits: d.bits,
        })
    }

    /// `cp.async` (PTX ISA 9.7.9.25.3.1) and its group instructions.
    fn cp_async(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let forms = self.forms(ins)?;
        let b = self.first(&forms, ins)?;
        let id = b.form.row.id;
        if matches!(
            id,
            "cp.async.commit_group" | "cp.async.wait_group" | "cp.async.wait_all"
        ) {
            return self.cp_group(ins, id);
        }
        if !matches!(
            id,
            "cp.async.ca" | "cp.async.cg" | "cp.async.ca.ignore-src" | "cp.async.cg.ignore-src"
        ) {
            return Err(self.unsupported(ins, "bulk and tensor asynchronous copies"));
        }
        let operand = |k: usize| {
            ins.operands.get(k).ok_or_else(|| {
                self.bad(&ins.full_opcode(), ins.span.start, "an operand is missing")
            })
        };
        let dst_space = match b.get("dst") {
            Some(q) => Space::from_qualifier(q).unwrap_or(Space::SharedCta),
            None => Space::SharedCta,
        };
        let dst = self.address(operand(0)?, dst_space, ins)?;
        let src = self.address(operand(1)?, Space::Global, ins)?;
        let cp_size = match self.value(operand(2)?, ".u32", ins)? {
            Src::Imm(n @ (4 | 8 | 16)) => n as u8,
            _ => {
                return Err(self.bad(
                    &ins.full_opcode(),
                    ins.span.start,
                    "cp-size can only be 4, 8 and 16",
                ))
            }
        };
        let hint = usize::from(b.has(".L2::cache_hint"));
        let extra = ins.operands.len().saturating_sub(3 + hint);
        let (mut src_size, mut ignore_src) = (None, None);
        if extra > 0 {
            let op = operand(3)?;
            // The `src-size` and `ignore-src` rows are spelled alike; the
            // operand tells them apart (a predicate is `ignore-src`).
            let predicate = match &op.kind {
                OperandKind::Not(_) => true,
                OperandKind::Name(n) => self.lookup_reg(n).is_some_and(|r| r.bits == 1),
                _ => false,
            };
            if predicate {
                ignore_src = Some(self.pred_src(op, ins)?);
            } else {
                src_size = Some(self.value(op, ".u32", ins)?);
            }
        }
        Ok(Op::CpAsync {
            dst,
            src,
            cp_size,
            src_size,
            ignore_src,
        })
    }
}
