//! Device functions and `call` (PTX ISA 9.7.12.5, 9.7.12.6; the `.param`
//! state space of 5.1.6.2): which functions a kernel may reach, where their
//! parameters live, their bodies, and the call sites. Running them is the
//! machine's.

use std::collections::{HashMap, HashSet};

use super::{align_up, decl_size, eval_const, Decoder, LoadError, Symbol};
use crate::ptx::ast::{
    BinOp as ExprOp, Expr, Function, FunctionKind, Init, Instruction, Item, Module, Operand,
    OperandKind, Stmt,
};
use crate::sim::program::{
    Actual, Call, Callee, Formal, Function as Func, Instr, Op, Src, FUNCTION_BASE, FUNCTION_STRIDE,
};
use crate::sim::space::Space;

/// The `.func`s the kernel may reach: those it names (calls, `mov`s of
/// their address), those named in the initializers of the variables it
/// names (tables of function pointers, virtual tables), and what those
/// name in turn. A definition with a body is preferred to a declaration of
/// the same name.
pub(super) fn reachable<'m>(module: &'m Module, kernel: &'m Function) -> Vec<&'m Function> {
    let mut defs: HashMap<&str, &Function> = HashMap::new();
    for item in &module.items {
        if let Item::Function(g) = item {
            if g.kind == FunctionKind::Entry {
                continue;
            }
            let keep = defs
                .get(g.name.as_str())
                .is_some_and(|old| old.body.is_some());
            if !keep {
                defs.insert(g.name.as_str(), g);
            }
        }
    }
    let mut inits: HashMap<&str, &Init> = HashMap::new();
    for item in &module.items {
        if let Item::Var(v) = item {
            for d in &v.names {
                if let Some(init) = &d.init {
                    inits.insert(d.name.as_str(), init);
                }
            }
        }
    }
    let mut names: Vec<&str> = Vec::new();
    if let Some(body) = &kernel.body {
        stmt_names(body, &mut names);
    }
    let mut seen: HashSet<&str> = HashSet::new();
    let mut out = Vec::new();
    let mut k = 0;
    while k < names.len() {
        let n = names[k];
        k += 1;
        if !seen.insert(n) {
            continue;
        }
        if let Some(init) = inits.get(n) {
            init_names(init, &mut names);
        }
        let Some(g) = defs.get(n) else { continue };
        out.push(*g);
        if let Some(body) = &g.body {
            stmt_names(body, &mut names);
        }
    }
    out
}

/// The functions called by name (direct calls) in `stmts`.
pub(super) fn direct_callees<'a>(stmts: &'a [Stmt], out: &mut HashSet<&'a str>) {
    for s in stmts {
        match s {
            Stmt::Instr(i) if i.opcode == "call" => {
                let target = i
                    .operands
                    .iter()
                    .find(|o| !matches!(o.kind, OperandKind::Paren(_)));
                if let Some(Operand {
                    kind: OperandKind::Name(n),
                    ..
                }) = target
                {
                    out.insert(n);
                }
            }
            Stmt::Block(inner, _) => direct_callees(inner, out),
            _ => {}
        }
    }
}

fn stmt_names<'a>(stmts: &'a [Stmt], out: &mut Vec<&'a str>) {
    fn operand<'a>(op: &'a Operand, out: &mut Vec<&'a str>) {
        match &op.kind {
            OperandKind::Name(n) | OperandKind::NameOffset(n, _) => out.push(n),
            OperandKind::Addr(a) => {
                if let Some(b) = &a.base {
                    out.push(b);
                }
            }
            OperandKind::Vector(v) | OperandKind::Paren(v) => {
                v.iter().for_each(|o| operand(o, out))
            }
            OperandKind::Pair(a, b) => {
                operand(a, out);
                operand(b, out);
            }
            OperandKind::Not(_) | OperandKind::Imm(_) => {}
        }
    }
    for s in stmts {
        match s {
            Stmt::Instr(i) => i.operands.iter().for_each(|o| operand(o, out)),
            Stmt::Block(inner, _) => stmt_names(inner, out),
            Stmt::Var(v) => {
                for d in &v.names {
                    if let Some(init) = &d.init {
                        init_names(init, out);
                    }
                }
            }
            _ => {}
        }
    }
}

fn init_names<'a>(init: &'a Init, out: &mut Vec<&'a str>) {
    fn expr<'a>(e: &'a Expr, out: &mut Vec<&'a str>) {
        match e {
            Expr::Sym(n) | Expr::Generic(n) => out.push(n),
            Expr::Unary(_, x) => expr(x, out),
            Expr::Binary(_, a, b) => {
                expr(a, out);
                expr(b, out);
            }
            _ => {}
        }
    }
    match init {
        Init::Expr(e) => expr(e, out),
        Init::List(l) => l.iter().for_each(|i| init_names(i, out)),
    }
}

impl Decoder<'_> {
    /// Gives each of the module's device functions its address, in the
    /// order of their first declaration, and each reachable one its
    /// number.
    pub(super) fn declare_functions(&mut self, module: &Module, reach: &[&Function]) {
        for item in &module.items {
            if let Item::Function(g) = item {
                if g.kind != FunctionKind::Entry && !self.addresses.contains_key(&g.name) {
                    let a = FUNCTION_BASE + self.addresses.len() as u64 * FUNCTION_STRIDE;
                    self.addresses.insert(g.name.clone(), a);
                }
            }
        }
        for (k, g) in reach.iter().enumerate() {
            self.function_index.insert(g.name.clone(), k as u32);
            self.functions.push(Func {
                name: g.name.clone(),
                addr: self.addresses.get(&g.name).copied().unwrap_or(0),
                entry: None,
                slots: (0, 0),
                frame: (0, 0),
                params: Vec::new(),
                returns: Vec::new(),
            });
            self.formals.push(Vec::new());
        }
    }

    /// A function's address (`mov.u64 d, fname`), or a value the spec does
    /// not fix for a name that is no device function (a kernel).
    pub(super) fn function_address(&self, name: &str) -> Src {
        match self.addresses.get(name) {
            Some(&a) => Src::Imm(a),
            None => Src::Unspecified,
        }
    }

    /// Places function `k`'s `.param` parameters and its body's variables
    /// in the local frame, one range per function.
    pub(super) fn function_frame(&mut self, k: usize, g: &Function) -> Result<(), LoadError> {
        let lo = self.local_next;
        let formal = |d: &mut Decoder, decls: &[crate::ptx::ast::VarDecl]| {
            let mut out = Vec::new();
            for v in decls {
                for n in &v.names {
                    let (size, align) = decl_size(v, n);
                    if v.space == ".reg" {
                        let bits =
                            crate::catalogue::types::ptx_type(&v.ty).map_or(32, |t| t.bits as u16);
                        out.push(Formal::Reg { slot: 0, bits });
                        continue;
                    }
                    let offset = align_up(d.local_next, align);
                    d.local_next = offset.saturating_add(size);
                    d.param_sizes.insert(offset, size);
                    d.formals[k].push((
                        n.name.clone(),
                        Symbol::Var {
                            space: Space::ParamFunc,
                            addr: offset,
                        },
                    ));
                    out.push(Formal::Param { offset, size });
                }
            }
            out
        };
        let returns = formal(self, g.returns.as_deref().unwrap_or(&[]));
        let params = formal(self, g.params.as_deref().unwrap_or(&[]));
        if let Some(body) = &g.body {
            self.prescan(body)?;
        }
        let f = &mut self.functions[k];
        f.returns = returns;
        f.params = params;
        f.frame = (lo, self.local_next);
        Ok(())
    }

    /// Decodes function `k`'s body after the code decoded so far; its
    /// registers get slots of their own, and falling off its end returns.
    pub(super) fn function_body(
        &mut self,
        k: usize,
        g: &Function,
        stmts: &[Stmt],
    ) -> Result<(), LoadError> {
        let kernel_scopes = std::mem::replace(&mut self.scopes, vec![HashMap::new()]);
        self.in_function = true;
        for (name, sym) in self.formals[k].clone() {
            self.symbols.insert(name, sym);
        }
        let lo = self.slots;
        // `.reg` parameters are registers of the function
        let mut regs = Vec::new();
        for v in g.returns.iter().chain(g.params.iter()).flatten() {
            if v.space == ".reg" {
                self.declare_reg(v, v.span.start)?;
                for n in &v.names {
                    regs.push(self.lookup_reg(&n.name).map(|r| (r.slot, r.bits)));
                }
            }
        }
        let mut regs = regs.into_iter();
        let f = &mut self.functions[k];
        for formal in f.returns.iter_mut().chain(f.params.iter_mut()) {
            if let Formal::Reg { slot, bits } = formal {
                if let Some(Some((s, b))) = regs.next() {
                    (*slot, *bits) = (s, b);
                }
            }
        }
        f.entry = Some(self.code.len() as u32);
        let r = self.body(stmts);
        self.in_function = false;
        self.scopes = kernel_scopes;
        r?;
        self.resolve_labels()?;
        self.code.push(Instr {
            guard: None,
            op: Op::Ret,
        });
        self.text.push((format!("(end of function {})", g.name), 0));
        self.functions[k].slots = (lo, self.slots);
        Ok(())
    }

    /// `ret`: a device function returns; a kernel's thread ends ("A return
    /// instruction executed in a top-level entry routine will terminate
    /// thread execution", PTX ISA 9.7.12.6).
    pub(super) fn ret(&self) -> Op {
        if self.in_function {
            Op::Ret
        } else {
            Op::Exit
        }
    }

    /// The space of an `ld.param`/`st.param`: a named `.param` variable
    /// says which (a kernel's parameter or a function's); through a
    /// register, a kernel's `ld.param` reads kernel parameters and a device
    /// function's reads its own (`.param::func`).
    pub(super) fn param_space(&self, space: Space, addr: &Operand) -> Space {
        if !matches!(space, Space::ParamEntry | Space::ParamFunc) {
            return space;
        }
        if let OperandKind::Addr(a) = &addr.kind {
            if let Some(n) = &a.base {
                if self.lookup_reg(n).is_none() {
                    return match self.symbols.get(n) {
                        Some(Symbol::Var { space: s, .. })
                            if matches!(s, Space::ParamEntry | Space::ParamFunc) =>
                        {
                            *s
                        }
                        _ => space,
                    };
                }
            }
        }
        if self.in_function {
            Space::ParamFunc
        } else {
            space
        }
    }

    /// The value of one element of an initializer: a constant, or the
    /// address of a variable or function (`gvar`, `gvar+8`, `generic(v)`,
    /// `fname`; PTX ISA 5.4.4).
    pub(super) fn init_value(&self, e: &Expr) -> Result<i128, String> {
        let addr = |name: &str, generic: bool| -> Result<i128, String> {
            if let Src::Imm(a) = self.function_address(name) {
                return Ok(i128::from(a));
            }
            match self.symbols.get(name) {
                Some(Symbol::Var { space, addr }) => match space {
                    Space::Global => Ok(i128::from(*addr)),
                    Space::Const if generic => {
                        Ok(i128::from(self.profile.const_base.wrapping_add(*addr)))
                    }
                    Space::Const => Ok(i128::from(*addr)),
                    s => Err(format!(
                        "the address of the {} variable `{name}` in an initializer",
                        s.name()
                    )),
                },
                _ => Err(format!(
                    "`{name}` in an initializer is no variable or function declared before it"
                )),
            }
        };
        Ok(match e {
            Expr::Sym(n) => addr(n, false)?,
            Expr::Generic(n) => addr(n, true)?,
            Expr::Unary('-', x) => self.init_value(x)?.wrapping_neg(),
            Expr::Binary(op @ (ExprOp::Add | ExprOp::Sub), a, b) => {
                let (a, b) = (self.init_value(a)?, self.init_value(b)?);
                if *op == ExprOp::Add {
                    a.wrapping_add(b)
                } else {
                    a.wrapping_sub(b)
                }
            }
            _ => {
                eval_const(e).ok_or_else(|| "an initializer that is not a constant".to_string())?
            }
        })
    }

    /// `call{.uni} (rets), f, (args);`, `call f, (args);`, `call f;`, and
    /// the indirect forms with a register and a prototype or target list.
    pub(super) fn call(&mut self, ins: &Instruction) -> Result<Op, LoadError> {
        let bad = |d: &Self, why: &str| d.bad(&ins.full_opcode(), ins.span.start, why);
        let mut ops = ins.operands.iter().peekable();
        let rets = match ops.peek().map(|o| &o.kind) {
            Some(OperandKind::Paren(v)) => {
                ops.next();
                self.actuals(v, ins)?
            }
            _ => Vec::new(),
        };
        let target = ops.next().ok_or_else(|| bad(self, "no function"))?;
        let args = match ops.peek().map(|o| &o.kind) {
            Some(OperandKind::Paren(v)) => {
                ops.next();
                self.actuals(v, ins)?
            }
            _ => Vec::new(),
        };
        let OperandKind::Name(name) = &target.kind else {
            return Err(bad(self, "the called function is not a name or register"));
        };
        let callee = if let Some(r) = self.lookup_reg(name) {
            Callee::Indirect(Src::Reg(r.slot))
        } else if let Some(&k) = self.function_index.get(name) {
            let f = &self.functions[k as usize];
            if f.params.len() != args.len() || f.returns.len() < rets.len() {
                return Err(bad(
                    self,
                    "the arguments do not match the function's parameters",
                ));
            }
            Callee::Direct(k)
        } else {
            return Err(bad(self, "the called name is no device function"));
        };
        Ok(Op::Call(Box::new(Call { callee, rets, args })))
    }

    fn actuals(&self, list: &[Operand], ins: &Instruction) -> Result<Vec<Actual>, LoadError> {
        list.iter()
            .map(|op| match &op.kind {
                OperandKind::Name(n) if n == "_" => Ok(Actual::Sink),
                OperandKind::Name(n) => {
                    if let Some(r) = self.lookup_reg(n) {
                        return Ok(Actual::Reg {
                            slot: r.slot,
                            bits: r.bits,
                        });
                    }
                    match self.symbols.get(n) {
                        Some(Symbol::Var {
                            space: Space::ParamFunc,
                            addr,
                        }) => Ok(Actual::Param {
                            offset: *addr,
                            size: self.param_sizes.get(addr).copied().unwrap_or(0),
                        }),
                        _ => Err(self.bad(
                            &ins.full_opcode(),
                            ins.span.start,
                            format!("`{n}` is no register or .param variable"),
                        )),
                    }
                }
                OperandKind::Imm(e) => {
                    eval_const(e).map(|v| Actual::Imm(v as u64)).ok_or_else(|| {
                        self.bad(
                            &ins.full_opcode(),
                            ins.span.start,
                            "an argument that is not a constant",
                        )
                    })
                }
                _ => Err(self.bad(
                    &ins.full_opcode(),
                    ins.span.start,
                    "an argument that is no register, constant or .param variable",
                )),
            })
            .collect()
    }
}
