//! From a parsed module to a [`Program`]: the layout of each state space,
//! registers as slots, and each instruction decoded once. The instructions
//! of 9.7.9 are resolved through the catalogue (their form and qualifiers
//! come from its [`Binding`](crate::catalogue::Binding)); the plain integer,
//! predicate and control instructions are decoded here. The device
//! functions the kernel may reach follow the kernel's code (`call`).

mod arith;
mod asynch;
mod atom;
mod call;
mod instr;
mod plain;
mod tensor;
mod video;

use std::collections::HashMap;

use super::program::{Function as Func, GlobalVar, Instr, Op, ParamInfo, Program, Reg, Src, Sreg};
use super::space::Space;
use super::window::WindowProfile;
use crate::catalogue::types::{ptx_type, TypeKind};
use crate::ptx::ast::*;

/// Why a kernel cannot be prepared.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    #[error("no kernel (.entry) named `{0}` in the module")]
    NoKernel(String),
    #[error("kernel `{0}` has no body")]
    NoBody(String),
    /// An instruction or directive the simulator does not model.
    #[error("{what} (at byte {offset}): not modelled by the simulator: {why}")]
    Unsupported {
        what: String,
        offset: u32,
        why: String,
    },
    /// A name or operand the simulator cannot resolve (the checker would
    /// have said so for 9.7.9 instructions).
    #[error("{what} (at byte {offset}): {why}")]
    Bad {
        what: String,
        offset: u32,
        why: String,
    },
}

/// A register's slot, width and kind.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RegInfo {
    pub slot: Reg,
    pub bits: u16,
    /// 0 for a scalar; the length of a vector register variable, whose
    /// elements are registers of their own (`v.x`, and `v[k]` for every
    /// element, a name no source can write), `bits` wide each.
    pub vector: u8,
}

/// The name under which element `k` of vector register `v` is declared:
/// `[` cannot appear in an operand's name, so no source can collide.
fn element_name(v: &str, k: usize) -> String {
    format!("{v}[{k}]")
}

/// A named variable and where it lives.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Symbol {
    /// A variable in a space, at this address of the space (for shared
    /// variables: the offset in the CTA's part).
    Var {
        space: Space,
        addr: u64,
    },
    Function,
}

/// Prepares kernel `kernel` of `module` for the interpreter. The module
/// should have passed [`crate::check::check_module`]; what the checker lets
/// through and the simulator does not model comes back as
/// [`LoadError::Unsupported`].
pub fn prepare(
    module: &Module,
    kernel: &str,
    profile: &WindowProfile,
) -> Result<Program, LoadError> {
    decode(module, kernel, profile, false)
}

/// As [`prepare`], but an instruction the interpreter does not model
/// (floating-point arithmetic, mbarriers, ...) becomes [`Op::Opaque`]
/// rather than an error: for readers that only need to know which
/// registers it writes (the symbolic executor of `ptx-ub`), and for the
/// replay of its witnesses: [`crate::sim::run`] gives an opaque
/// instruction's destinations unspecified bits, so a branch or an address
/// that depends on them stops the thread as indeterminate, and only what
/// does not depend on them is decided.
pub fn prepare_lenient(
    module: &Module,
    kernel: &str,
    profile: &WindowProfile,
) -> Result<Program, LoadError> {
    decode(module, kernel, profile, true)
}

fn decode(
    module: &Module,
    kernel: &str,
    profile: &WindowProfile,
    lenient: bool,
) -> Result<Program, LoadError> {
    let f = module
        .items
        .iter()
        .find_map(|it| match it {
            Item::Function(f) if f.kind == FunctionKind::Entry && f.name == kernel => Some(f),
            _ => None,
        })
        .ok_or_else(|| LoadError::NoKernel(kernel.to_string()))?;
    let body = f
        .body
        .as_ref()
        .ok_or_else(|| LoadError::NoBody(kernel.to_string()))?;
    let reach = call::reachable(module, f);
    let mut d = Decoder::new(profile);
    d.lenient = lenient;
    d.declare_functions(module, &reach);
    d.module_scope(module)?;
    d.params(f)?;
    d.directives(f)?;
    d.prescan(body)?;
    // every function's parameters and variables are placed before any
    // instruction is decoded: the local frame's size fixes every local
    // address
    let kernel_symbols = d.symbols.clone();
    for (k, g) in reach.iter().enumerate() {
        d.function_frame(k, g)?;
    }
    d.symbols = kernel_symbols.clone();
    d.body(body)?;
    d.resolve_labels()?;
    // a kernel that falls off its end exits
    d.code.push(Instr {
        guard: None,
        op: Op::Exit,
    });
    d.text.push(("(end of kernel)".into(), 0));
    // a function whose address is taken but that is never called by name
    // is decoded leniently: an instruction the model lacks gives
    // unspecified bits, as for `prepare_lenient`, rather than refusing a
    // kernel that may never call it
    let mut called = std::collections::HashSet::new();
    call::direct_callees(body, &mut called);
    for g in &reach {
        if let Some(b) = &g.body {
            call::direct_callees(b, &mut called);
        }
    }
    for (k, g) in reach.iter().enumerate() {
        if let Some(stmts) = &g.body {
            d.symbols = kernel_symbols.clone();
            d.lenient = lenient || !called.contains(g.name.as_str());
            d.function_body(k, g, stmts)?;
        }
    }
    d.lenient = lenient;
    d.finish(kernel)
}

pub(crate) struct Decoder<'p> {
    profile: &'p WindowProfile,
    symbols: HashMap<String, Symbol>,
    scopes: Vec<HashMap<String, RegInfo>>,
    slots: u32,
    consts: Vec<u8>,
    globals: Vec<GlobalVar>,
    const_vars: Vec<GlobalVar>,
    global_next: u64,
    shared_next: u64,
    local_next: u64,
    params: Vec<ParamInfo>,
    param_bytes: u64,
    cluster_dims: Option<[u32; 3]>,
    /// Whether a `.shared` array of no size (dynamic shared memory) is
    /// declared.
    dynamic_shared: bool,
    explicit_cluster: bool,
    code: Vec<Instr>,
    text: Vec<(String, u32)>,
    labels: HashMap<String, u32>,
    /// Branches waiting for their label: instruction index, label, offset.
    fixups: Vec<(usize, String, u32)>,
    /// Unmodelled instructions become [`Op::Opaque`].
    lenient: bool,
    /// Operations an instruction needs before its own (the sum of a
    /// `reg+imm` operand, the elements of a vector `mov`), run under the
    /// same guard.
    pending: Vec<Op>,
    /// Counts `reg+imm` operands, to name their temporaries.
    temps: u32,
    /// The device functions the kernel may reach, and their numbers.
    functions: Vec<Func>,
    function_index: HashMap<String, u32>,
    /// Every device function's address, by name.
    addresses: HashMap<String, u64>,
    /// Each function's formal `.param` parameters, by name.
    formals: Vec<Vec<(String, Symbol)>>,
    /// Where each declaration was placed, by its declarator's offset in
    /// the source: a scope's declaration hides the others of its name.
    placed: HashMap<u32, Symbol>,
    /// The size of each `.param::func` variable, by its frame offset.
    param_sizes: HashMap<u64, u64>,
    /// Whether a device function (not the kernel) is being decoded.
    in_function: bool,
}

fn align_up(x: u64, a: u64) -> u64 {
    let a = a.max(1);
    x.div_ceil(a).saturating_mul(a)
}

/// The most bytes of `.global` variables a module may declare: the model
/// keeps their bytes, so larger ones are refused as not modelled.
const GLOBAL_VARIABLES_MODELLED: u64 = 1 << 28;

/// PTX ISA 5.1.3: the constant state space is "limited in size to 64KB"
/// per bank; the model keeps one bank.
const CONST_BANK: u64 = 64 << 10;

/// The most shared memory one CTA may have on sm_90, static and dynamic
/// together: 227 KB (CUDA C++ Programming Guide, "Technical
/// Specifications per Compute Capability", 9.0).
const SHARED_PER_CTA: u64 = 227 << 10;

/// The most local memory a thread may have: 512 KB (CUDA C++ Programming
/// Guide, "Technical Specifications per Compute Capability").
const LOCAL_PER_THREAD: u64 = 512 << 10;

/// Bytes of one element of a declared type.
fn type_bytes(ty: &str) -> u64 {
    ptx_type(ty).map_or(1, |t| u64::from(t.bits.max(8) / 8))
}

/// A declaration's size in bytes and alignment.
fn decl_size(v: &VarDecl, d: &Declarator) -> (u64, u64) {
    let elem = type_bytes(&v.ty) * u64::from(v.vector.unwrap_or(1));
    let count = d
        .dims
        .iter()
        .fold(1u64, |n, x| n.saturating_mul(x.unwrap_or(0)));
    (elem.saturating_mul(count), v.align.unwrap_or(elem).max(1))
}

impl<'p> Decoder<'p> {
    fn new(profile: &'p WindowProfile) -> Decoder<'p> {
        Decoder {
            profile,
            symbols: HashMap::new(),
            scopes: vec![HashMap::new()],
            slots: 0,
            consts: Vec::new(),
            globals: Vec::new(),
            const_vars: Vec::new(),
            global_next: profile.global_heap,
            shared_next: profile.shared_reserved,
            local_next: 0,
            params: Vec::new(),
            param_bytes: 0,
            cluster_dims: None,
            dynamic_shared: false,
            explicit_cluster: false,
            code: Vec::new(),
            text: Vec::new(),
            labels: HashMap::new(),
            fixups: Vec::new(),
            lenient: false,
            pending: Vec::new(),
            temps: 0,
            functions: Vec::new(),
            function_index: HashMap::new(),
            addresses: HashMap::new(),
            formals: Vec::new(),
            placed: HashMap::new(),
            param_sizes: HashMap::new(),
            in_function: false,
        }
    }

    fn bad(&self, what: &str, offset: u32, why: impl Into<String>) -> LoadError {
        LoadError::Bad {
            what: what.to_string(),
            offset,
            why: why.into(),
        }
    }

    fn module_scope(&mut self, module: &Module) -> Result<(), LoadError> {
        for item in &module.items {
            match item {
                Item::Var(v) => self.variable(v)?,
                Item::Function(f) => {
                    self.symbols.insert(f.name.clone(), Symbol::Function);
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// A `.global`, `.const`, `.shared` or `.local` variable (module or
    /// function scope).
    fn variable(&mut self, v: &VarDecl) -> Result<(), LoadError> {
        for d in &v.names {
            let (size, align) = decl_size(v, d);
            // where the variable would end, its alignment counted (an
            // `.align 4294967296` moves it that far)
            let (end, limit, why) = match v.space.as_str() {
                ".global" => (
                    align_up(self.global_next, align.max(16)).saturating_add(size),
                    self.profile.global_heap + GLOBAL_VARIABLES_MODELLED,
                    "more than 256 MiB of .global variables",
                ),
                ".const" => (
                    align_up(self.consts.len() as u64, align).saturating_add(size),
                    CONST_BANK,
                    "more than the 64 KB of a constant bank (PTX ISA 5.1.3)",
                ),
                ".shared" => (
                    align_up(self.shared_next, align).saturating_add(size),
                    SHARED_PER_CTA,
                    "more than the 227 KB of shared memory a CTA may have",
                ),
                ".local" | ".param" => (
                    align_up(self.local_next, align).saturating_add(size),
                    LOCAL_PER_THREAD,
                    "more than the 512 KB of local memory a thread may have",
                ),
                _ => (0, 0, ""),
            };
            let too_big = (end > limit).then_some(why);
            if let Some(why) = too_big {
                return Err(LoadError::Unsupported {
                    what: format!("{} variable `{}`", v.space, d.name),
                    offset: d.span.start,
                    why: why.into(),
                });
            }
            let init = match &d.init {
                Some(init) => self.init_bytes(v, init, size, d.span.start)?,
                None => Vec::new(),
            };
            let sym = match v.space.as_str() {
                ".global" => {
                    let addr = align_up(self.global_next, align.max(16));
                    self.global_next = addr.saturating_add(size.max(1));
                    let mut bytes = init;
                    bytes.resize(size as usize, 0);
                    self.globals.push(GlobalVar {
                        name: d.name.clone(),
                        addr,
                        init: bytes,
                    });
                    Symbol::Var {
                        space: Space::Global,
                        addr,
                    }
                }
                ".const" => {
                    let addr = align_up(self.consts.len() as u64, align);
                    let mut bytes = init;
                    bytes.resize(size as usize, 0);
                    self.consts.resize(addr as usize, 0);
                    self.consts.extend_from_slice(&bytes);
                    self.const_vars.push(GlobalVar {
                        name: d.name.clone(),
                        addr,
                        init: bytes,
                    });
                    Symbol::Var {
                        space: Space::Const,
                        addr,
                    }
                }
                ".shared" => {
                    self.dynamic_shared |= d.dims.contains(&None);
                    let addr = align_up(self.shared_next, align);
                    self.shared_next = addr.saturating_add(size);
                    Symbol::Var {
                        space: Space::SharedCta,
                        addr,
                    }
                }
                ".local" => {
                    let addr = align_up(self.local_next, align);
                    self.local_next = addr.saturating_add(size);
                    // an offset in the thread's frame
                    Symbol::Var {
                        space: Space::Local,
                        addr,
                    }
                }
                // a `.param` variable of a function body (the arguments and
                // return values of a call site) or a device function's
                // formal parameter: kept in the thread's local frame, as
                // "if the address of a device function parameter is moved to
                // a register, the parameter will be copied onto the stack and
                // the address will be in the local state space" (PTX ISA
                // 9.7.9.3)
                ".param" => {
                    let addr = align_up(self.local_next, align);
                    self.local_next = addr.saturating_add(size);
                    self.param_sizes.insert(addr, size);
                    Symbol::Var {
                        space: Space::ParamFunc,
                        addr,
                    }
                }
                ".tex" | ".surf" | ".sampler" => continue,
                other => {
                    return Err(LoadError::Unsupported {
                        what: format!("{other} variable `{}`", d.name),
                        offset: d.span.start,
                        why: "this state space is not modelled".into(),
                    })
                }
            };
            self.placed.insert(d.span.start, sym);
            self.symbols.insert(d.name.clone(), sym);
        }
        Ok(())
    }

    /// An initializer's bytes, element by element in the declared type.
    fn init_bytes(
        &self,
        v: &VarDecl,
        init: &Init,
        size: u64,
        at: u32,
    ) -> Result<Vec<u8>, LoadError> {
        let mut out = Vec::new();
        let ty = ptx_type(&v.ty);
        let elem = type_bytes(&v.ty) as usize;
        let mut flat = Vec::new();
        flatten(init, &mut flat);
        for e in flat {
            let bits = match (e, ty.map(|t| t.kind)) {
                (Expr::F32(b), Some(TypeKind::Float)) if elem == 8 => {
                    f64::from(f32::from_bits(*b)).to_bits()
                }
                (Expr::F64(b), Some(TypeKind::Float)) if elem == 4 => {
                    u64::from((f64::from_bits(*b) as f32).to_bits())
                }
                (Expr::Int(i), Some(TypeKind::Float)) if elem == 4 => {
                    u64::from((*i as f32).to_bits())
                }
                (Expr::Int(i), Some(TypeKind::Float)) if elem == 8 => (*i as f64).to_bits(),
                _ => match self.init_value(e) {
                    Ok(x) => x as u64,
                    Err(why) => {
                        return Err(LoadError::Unsupported {
                            what: format!("initializer of `{}`", v.names[0].name),
                            offset: at,
                            why,
                        })
                    }
                },
            };
            out.extend_from_slice(&bits.to_le_bytes()[..elem.min(8)]);
        }
        out.truncate(size as usize);
        Ok(out)
    }

    fn params(&mut self, f: &Function) -> Result<(), LoadError> {
        for v in f.params.iter().flatten() {
            for d in &v.names {
                let (size, align) = decl_size(v, d);
                let offset = align_up(self.param_bytes, align);
                self.param_bytes = offset.saturating_add(size);
                self.params.push(ParamInfo {
                    name: d.name.clone(),
                    offset,
                    size,
                });
                self.symbols.insert(
                    d.name.clone(),
                    Symbol::Var {
                        space: Space::ParamEntry,
                        addr: offset,
                    },
                );
            }
        }
        Ok(())
    }

    fn directives(&mut self, f: &Function) -> Result<(), LoadError> {
        for d in &f.directives {
            match d.name.as_str() {
                ".reqnctapercluster" => {
                    let mut dims = [1u32; 3];
                    for (k, v) in d.values.iter().take(3).enumerate() {
                        dims[k] = v.trim().parse().map_err(|_| {
                            self.bad(
                                ".reqnctapercluster",
                                d.span.start,
                                format!("bad size `{v}`"),
                            )
                        })?;
                    }
                    self.cluster_dims = Some(dims);
                    self.explicit_cluster = true;
                }
                ".explicitcluster" => self.explicit_cluster = true,
                _ => {}
            }
        }
        Ok(())
    }

    /// Registers get slots; a vector register variable (PTX ISA 5.4.2)
    /// gets one register per element, named by its selectors (`v.x`,
    /// `v.r`: PTX ISA 6.4.3) and by [`element_name`].
    fn declare_reg(&mut self, v: &VarDecl, at: u32) -> Result<(), LoadError> {
        let t = ptx_type(&v.ty).ok_or_else(|| self.bad(&v.ty, at, "unknown register type"))?;
        let per = if t.bits > 64 { 2 } else { 1 };
        let bits = t.bits as u16;
        let Some(scope) = self.scopes.last_mut() else {
            return Ok(());
        };
        for d in &v.names {
            for name in d.expanded_names() {
                let Some(len) = v.vector else {
                    let info = RegInfo {
                        slot: self.slots,
                        bits,
                        vector: 0,
                    };
                    self.slots += per;
                    scope.insert(name, info);
                    continue;
                };
                let whole = RegInfo {
                    slot: self.slots,
                    bits,
                    vector: len as u8,
                };
                for k in 0..len as usize {
                    let elem = RegInfo {
                        slot: self.slots,
                        bits,
                        vector: 0,
                    };
                    self.slots += per;
                    if k < 4 {
                        for sel in [["x", "y", "z", "w"][k], ["r", "g", "b", "a"][k]] {
                            scope.insert(format!("{name}.{sel}"), elem);
                        }
                    }
                    scope.insert(element_name(&name, k), elem);
                }
                scope.insert(name, whole);
            }
        }
        Ok(())
    }

    /// The instruction as the decoders read it: a vector register variable
    /// becomes the brace list of its elements ("`{Ra, Rb, Rc, Rd}`
    /// correspond to extracted elements as follows: Ra = V.x = V.r",
    /// PTX ISA 6.4.3), and a `reg+imm` source becomes a temporary register
    /// holding the sum, computed first (into [`Decoder::pending`]). A brace
    /// list of one element where `ld`, `ldu`, `st` or `mov` has a scalar
    /// (`ld.global.b32 {%r1}, [%rd1]`, as ptxas 13.0 takes it; the checker's
    /// `operand`) becomes that element.
    fn expand<'i>(
        &mut self,
        ins: &'i Instruction,
    ) -> Result<std::borrow::Cow<'i, Instruction>, LoadError> {
        let single = |op: &Operand| matches!(&op.kind, OperandKind::Vector(v) if v.len() == 1);
        let scalar_braces = crate::opcodes::braces_may_hold_a_scalar(&ins.opcode)
            && !ins.quals.iter().any(|q| q.starts_with(".v"))
            && ins.operands.iter().any(single);
        let touches = scalar_braces
            || ins.operands.iter().any(|op| {
                self.names_in(op).iter().any(|(n, offset)| {
                    if *offset {
                        self.lookup_reg(n).is_some()
                    } else {
                        self.lookup_vector(n).is_some()
                    }
                })
            });
        if !touches {
            return Ok(std::borrow::Cow::Borrowed(ins));
        }
        let mut out = ins.clone();
        for op in &mut out.operands {
            if scalar_braces {
                if let OperandKind::Vector(v) = &mut op.kind {
                    if let [only] = v.as_mut_slice() {
                        *op = std::mem::replace(
                            only,
                            Operand {
                                kind: OperandKind::Vector(Vec::new()),
                                span: op.span,
                            },
                        );
                    }
                }
            }
            self.expand_operand(op, ins)?;
        }
        Ok(std::borrow::Cow::Owned(out))
    }

    /// The names an operand holds, each with whether it is `name+imm`.
    fn names_in<'o>(&self, op: &'o Operand) -> Vec<(&'o str, bool)> {
        let mut out = Vec::new();
        fn walk<'o>(op: &'o Operand, out: &mut Vec<(&'o str, bool)>) {
            match &op.kind {
                OperandKind::Name(n) => out.push((n, false)),
                OperandKind::NameOffset(n, _) => out.push((n, true)),
                OperandKind::Vector(v) | OperandKind::Paren(v) => {
                    v.iter().for_each(|o| walk(o, out))
                }
                OperandKind::Pair(a, b) => {
                    walk(a, out);
                    walk(b, out);
                }
                _ => {}
            }
        }
        walk(op, &mut out);
        out
    }

    fn expand_operand(&mut self, op: &mut Operand, ins: &Instruction) -> Result<(), LoadError> {
        match &mut op.kind {
            OperandKind::Name(n) => {
                if let Some(v) = self.lookup_vector(n) {
                    let items = (0..v.vector as usize)
                        .map(|k| Operand {
                            kind: OperandKind::Name(element_name(n, k)),
                            span: op.span,
                        })
                        .collect();
                    op.kind = OperandKind::Vector(items);
                }
            }
            OperandKind::NameOffset(n, off) => {
                let Some(r) = self.lookup_reg(n) else {
                    // a variable's address with an offset
                    return Ok(());
                };
                if r.bits > 64 || r.bits < 8 {
                    return Err(self.unsupported(ins, "`reg+imm` of a predicate or .b128 register"));
                }
                // the register's value plus the constant, at the register's
                // width (wrapping)
                let mask = if r.bits >= 64 {
                    u64::MAX
                } else {
                    (1u64 << r.bits) - 1
                };
                let slot = self.slots;
                self.slots += 1;
                self.temps += 1;
                self.pending.push(Op::Bin {
                    op: super::program::BinOp::Add,
                    ty: super::program::IntTy {
                        bits: r.bits as u8,
                        signed: false,
                    },
                    d: slot,
                    a: Src::Reg(r.slot),
                    b: Src::Imm(*off as u64 & mask),
                });
                let name = format!("{n}+{off}#{}", self.temps);
                if let Some(scope) = self.scopes.last_mut() {
                    scope.insert(
                        name.clone(),
                        RegInfo {
                            slot,
                            bits: r.bits,
                            vector: 0,
                        },
                    );
                }
                op.kind = OperandKind::Name(name);
            }
            OperandKind::Vector(v) | OperandKind::Paren(v) => {
                for item in v {
                    self.expand_operand(item, ins)?;
                }
            }
            OperandKind::Pair(a, b) => {
                self.expand_operand(a, ins)?;
                self.expand_operand(b, ins)?;
            }
            _ => {}
        }
        Ok(())
    }

    fn body(&mut self, stmts: &[Stmt]) -> Result<(), LoadError> {
        for s in stmts {
            match s {
                Stmt::Label(name, _) => {
                    self.labels.insert(name.clone(), self.code.len() as u32);
                }
                Stmt::Var(v) if v.space == ".reg" => self.declare_reg(v, v.span.start)?,
                // placed by `prescan`; from here on the name means this one
                Stmt::Var(v) => {
                    for d in &v.names {
                        if let Some(sym) = self.placed.get(&d.span.start) {
                            self.symbols.insert(d.name.clone(), *sym);
                        }
                    }
                }
                Stmt::Block(inner, _) => {
                    self.scopes.push(HashMap::new());
                    let outer = self.symbols.clone();
                    let r = self.body(inner);
                    self.symbols = outer;
                    self.scopes.pop();
                    r?;
                }
                Stmt::Instr(source) => {
                    self.pending.clear();
                    let guard = match &source.guard {
                        Some(g) => {
                            let r = self.reg(&g.pred, source)?;
                            Some((r.slot, g.negated))
                        }
                        None => None,
                    };
                    let ins = self.expand(source)?;
                    let op = match self.instruction(&ins) {
                        Err(LoadError::Unsupported { .. }) if self.lenient => {
                            self.pending.clear();
                            Op::Opaque {
                                dests: self.written(&ins),
                            }
                        }
                        r => r?,
                    };
                    let mut text = String::new();
                    crate::ptx::printer::print_instruction(&mut text, source);
                    let text = text.trim().to_string();
                    // what the instruction needs first, then the instruction:
                    // one source instruction may take several steps
                    for op in std::mem::take(&mut self.pending) {
                        self.code.push(Instr { guard, op });
                        self.text.push((text.clone(), source.span.start));
                    }
                    self.code.push(Instr { guard, op });
                    self.text.push((text, source.span.start));
                }
                Stmt::Other(_) => {}
            }
        }
        Ok(())
    }

    /// Places the function's own variables (`.local`, `.shared`, ...)
    /// before any instruction is decoded, so that the size of the local
    /// frame, and with it every local address, is known.
    fn prescan(&mut self, stmts: &[Stmt]) -> Result<(), LoadError> {
        for s in stmts {
            match s {
                Stmt::Var(v) if v.space != ".reg" => self.variable(v)?,
                Stmt::Block(inner, _) => self.prescan(inner)?,
                _ => {}
            }
        }
        Ok(())
    }

    /// Points the branches of the function just decoded at their labels.
    fn resolve_labels(&mut self) -> Result<(), LoadError> {
        for (at, label, offset) in std::mem::take(&mut self.fixups) {
            let target = *self.labels.get(&label).ok_or_else(|| LoadError::Bad {
                what: format!("bra {label}"),
                offset,
                why: "no such label".into(),
            })?;
            if let Some(Instr {
                op: Op::Bra { target: t },
                ..
            }) = self.code.get_mut(at)
            {
                *t = target;
            }
        }
        self.labels.clear();
        Ok(())
    }

    fn finish(self, kernel: &str) -> Result<Program, LoadError> {
        let local_bytes = align_up(self.local_next, 16);
        let local_frame = self.local_frame(local_bytes);
        Ok(Program {
            kernel: kernel.to_string(),
            code: self.code,
            text: self.text,
            slots: self.slots,
            params: self.params,
            param_bytes: self.param_bytes,
            shared_end: self.shared_next,
            local_bytes,
            local_frame,
            consts: self.consts,
            globals: self.globals,
            const_vars: self.const_vars,
            functions: self.functions,
            cluster_dims: self.cluster_dims,
            dynamic_shared: self.dynamic_shared,
            explicit_cluster: self.explicit_cluster,
        })
    }

    /// The local address of the thread's frame: at the top of the local
    /// window, as the GPU places it (the window probe saw local variables
    /// just under 16 MiB).
    fn local_frame(&self, bytes: u64) -> u64 {
        self.profile.local_size.saturating_sub(bytes + 0x200) & !0xff
    }

    // ---- operands ----

    /// A scalar register (a vector's element included) by name.
    fn lookup_reg(&self, name: &str) -> Option<RegInfo> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name).copied())
            .filter(|r| r.vector == 0)
    }

    /// A vector register variable by name.
    fn lookup_vector(&self, name: &str) -> Option<RegInfo> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name).copied())
            .filter(|r| r.vector > 0)
    }

    fn reg(&self, name: &str, ins: &Instruction) -> Result<RegInfo, LoadError> {
        self.lookup_reg(name).ok_or_else(|| {
            self.bad(
                &ins.full_opcode(),
                ins.span.start,
                format!("`{name}` is not a register"),
            )
        })
    }

    /// The address of a variable in `space` (`Generic`: its generic
    /// address), as a source operand.
    fn var_address(
        &self,
        name: &str,
        offset: i64,
        space: Space,
        ins: &Instruction,
    ) -> Result<Src, LoadError> {
        let sym = *self.symbols.get(name).ok_or_else(|| {
            self.bad(
                &ins.full_opcode(),
                ins.span.start,
                format!("`{name}` is not declared"),
            )
        })?;
        let Symbol::Var { space: home, addr } = sym else {
            return Ok(self.function_address(name));
        };
        // `.local` symbols hold offsets in the thread's frame; `prescan`
        // has declared them all, so the frame's place is final.
        let local_addr = |a: u64| -> u64 { self.local_frame(align_up(self.local_next, 16)) + a };
        let a = addr.wrapping_add(offset as u64);
        let p = self.profile;
        let same = |s: Space| match (s, home) {
            (Space::SharedCta | Space::SharedCluster, Space::SharedCta) => true,
            (Space::ParamEntry | Space::ParamFunc, Space::ParamEntry) => true,
            (Space::ParamEntry | Space::ParamFunc | Space::Local, Space::ParamFunc) => true,
            (x, y) => x == y,
        };
        Ok(match space {
            Space::Generic => match home {
                Space::Global => Src::Imm(a),
                Space::Const => Src::Imm(p.const_base.wrapping_add(a)),
                Space::Local => Src::Imm(p.local_base.wrapping_add(local_addr(a))),
                Space::ParamEntry => Src::Imm(p.param_base.wrapping_add(a)),
                Space::ParamFunc => Src::Imm(p.local_base.wrapping_add(local_addr(a))),
                _ => {
                    return Err(LoadError::Unsupported {
                        what: ins.full_opcode(),
                        offset: ins.span.start,
                        why: format!(
                            "generic access to the {} variable `{name}` by name",
                            home.name()
                        ),
                    })
                }
            },
            s if same(s) => match home {
                Space::SharedCta => Src::SharedAddr(a),
                Space::Local | Space::ParamFunc => Src::Imm(local_addr(a)),
                _ => Src::Imm(a),
            },
            s => {
                return Err(self.bad(
                    &ins.full_opcode(),
                    ins.span.start,
                    format!("`{name}` is a {} variable, not {}", home.name(), s.name()),
                ))
            }
        })
    }

    /// A value operand of an instruction whose type is `ty` (`.u32`,
    /// `.f32`, ...): a register, an immediate, or a special register.
    fn value(&self, op: &Operand, ty: &str, ins: &Instruction) -> Result<Src, LoadError> {
        let bits = ptx_type(ty).map_or(64, |t| u32::from(t.bits as u16).min(128));
        match &op.kind {
            OperandKind::Name(n) => {
                if let Some(r) = self.lookup_reg(n) {
                    return Ok(if r.bits > 64 {
                        Src::Reg128(r.slot)
                    } else {
                        Src::Reg(r.slot)
                    });
                }
                if let Some(s) = special_register(n) {
                    return Ok(Src::Sreg(s));
                }
                // the predefined constant "WARP_SZ: number of threads in a
                // warp" (PTX ISA 4.4)
                if n == "WARP_SZ" {
                    return Ok(Src::Imm(32));
                }
                Err(self.bad(
                    &ins.full_opcode(),
                    ins.span.start,
                    format!("`{n}` is not a register"),
                ))
            }
            OperandKind::Imm(e) => Ok(Src::Imm(immediate(e, ty, bits).ok_or_else(|| {
                self.bad(
                    &ins.full_opcode(),
                    ins.span.start,
                    "an immediate that is not a constant",
                )
            })?)),
            _ => Err(self.bad(
                &ins.full_opcode(),
                ins.span.start,
                "expected a register or an immediate",
            )),
        }
    }

    /// The registers an unmodelled instruction writes: those of its first
    /// operand (`d`, `{d0, d1}`, `d|p`), when that is not an address.
    fn written(&self, ins: &Instruction) -> Vec<Reg> {
        fn names<'o>(op: &'o Operand, out: &mut Vec<&'o str>) {
            match &op.kind {
                OperandKind::Name(n) => out.push(n),
                OperandKind::Vector(v) => v.iter().for_each(|o| names(o, out)),
                OperandKind::Pair(a, b) => {
                    names(a, out);
                    names(b, out);
                }
                _ => {}
            }
        }
        let mut found = Vec::new();
        if let Some(first) = ins.operands.first() {
            names(first, &mut found);
        }
        let mut slots = Vec::new();
        for n in found {
            if let Some(r) = self.lookup_reg(n) {
                for k in 0..u32::from(r.bits).div_ceil(64).max(1) {
                    slots.push(r.slot + k);
                }
            }
        }
        slots
    }

    fn dest(&self, op: &Operand, ins: &Instruction) -> Result<RegInfo, LoadError> {
        match &op.kind {
            OperandKind::Name(n) => self.reg(n, ins),
            _ => Err(self.bad(
                &ins.full_opcode(),
                ins.span.start,
                "the destination is not a register",
            )),
        }
    }

    /// A predicate source: `p` or `!p` (the latter gives `negated`).
    fn pred_src(&self, op: &Operand, ins: &Instruction) -> Result<(Src, bool), LoadError> {
        match &op.kind {
            OperandKind::Not(n) => Ok((Src::Reg(self.reg(n, ins)?.slot), true)),
            _ => Ok((self.value(op, ".pred", ins)?, false)),
        }
    }

    /// `[a]`, `[a+imm]`, `[var]`, `[var+imm]`, `[imm]` in `space`.
    fn address(
        &self,
        op: &Operand,
        space: Space,
        ins: &Instruction,
    ) -> Result<super::program::Addr, LoadError> {
        use super::program::Addr;
        let OperandKind::Addr(a) = &op.kind else {
            return Err(self.bad(
                &ins.full_opcode(),
                ins.span.start,
                "expected an address operand",
            ));
        };
        if a.coords.is_some() {
            return Err(LoadError::Unsupported {
                what: ins.full_opcode(),
                offset: ins.span.start,
                why: "tensor addresses".into(),
            });
        }
        let offset = a.offset as i64;
        Ok(match &a.base {
            None => Addr {
                base: Src::Imm(0),
                offset,
            },
            Some(name) => match self.lookup_reg(name) {
                Some(r) => Addr {
                    base: Src::Reg(r.slot),
                    offset,
                },
                None => Addr {
                    base: self.var_address(name, offset, space, ins)?,
                    offset: 0,
                },
            },
        })
    }
}

fn flatten<'a>(init: &'a Init, out: &mut Vec<&'a Expr>) {
    match init {
        Init::Expr(e) => out.push(e),
        Init::List(l) => l.iter().for_each(|i| flatten(i, out)),
    }
}

/// A constant integer expression's value.
fn eval_const(e: &Expr) -> Option<i128> {
    Some(match e {
        Expr::Int(i) => *i,
        Expr::F32(b) => i128::from(*b),
        Expr::F64(b) => i128::from(*b),
        Expr::Unary('-', x) => eval_const(x)?.wrapping_neg(),
        Expr::Unary('~', x) => !eval_const(x)?,
        Expr::Unary('!', x) => i128::from(eval_const(x)? == 0),
        Expr::Unary(_, x) => eval_const(x)?,
        Expr::Binary(op, a, b) => {
            let (a, b) = (eval_const(a)?, eval_const(b)?);
            match op {
                BinOp::Add => a.wrapping_add(b),
                BinOp::Sub => a.wrapping_sub(b),
                BinOp::Mul => a.wrapping_mul(b),
                BinOp::Div => a.checked_div(b)?,
                BinOp::Rem => a.checked_rem(b)?,
                BinOp::Shl => a.checked_shl(b as u32)?,
                BinOp::Shr => a.checked_shr(b as u32)?,
                BinOp::And => a & b,
                BinOp::Or => a | b,
                BinOp::Xor => a ^ b,
            }
        }
        Expr::Sym(_) | Expr::Generic(_) => return None,
    })
}

/// An immediate operand's bits for an instruction of type `ty` (`bits`
/// wide): integers wrap to the width; float literals convert to the type.
fn immediate(e: &Expr, ty: &str, bits: u32) -> Option<u64> {
    let float = ptx_type(ty).is_some_and(|t| t.kind == TypeKind::Float);
    let v: u64 = match (e, float, bits) {
        (Expr::F64(b), true, 32) => u64::from((f64::from_bits(*b) as f32).to_bits()),
        (Expr::F32(b), true, 64) => f64::from(f32::from_bits(*b)).to_bits(),
        (Expr::Int(i), true, 32) => u64::from((*i as f32).to_bits()),
        (Expr::Int(i), true, 64) => (*i as f64).to_bits(),
        _ => eval_const(e)? as u64,
    };
    Some(if bits >= 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    })
}

/// A special register's name (`%tid.x`).
pub(crate) fn special_register(name: &str) -> Option<Sreg> {
    let (base, axis) = match name.split_once('.') {
        Some((b, a)) => (
            b,
            match a {
                "x" => 0,
                "y" => 1,
                "z" => 2,
                _ => return None,
            },
        ),
        None => (name, 0),
    };
    Some(match base {
        "%tid" => Sreg::Tid(axis),
        "%ntid" => Sreg::Ntid(axis),
        "%ctaid" => Sreg::Ctaid(axis),
        "%nctaid" => Sreg::Nctaid(axis),
        "%cluster_ctaid" => Sreg::ClusterCtaid(axis),
        "%cluster_nctaid" => Sreg::ClusterNctaid(axis),
        "%clusterid" => Sreg::Clusterid(axis),
        "%nclusterid" => Sreg::Nclusterid(axis),
        "%laneid" => Sreg::Laneid,
        "%warpid" => Sreg::Warpid,
        "%nwarpid" => Sreg::Nwarpid,
        "%smid" => Sreg::Smid,
        "%nsmid" => Sreg::Nsmid,
        "%gridid" => Sreg::Gridid,
        "%lanemask_eq" => Sreg::LanemaskEq,
        "%lanemask_le" => Sreg::LanemaskLe,
        "%lanemask_lt" => Sreg::LanemaskLt,
        "%lanemask_ge" => Sreg::LanemaskGe,
        "%lanemask_gt" => Sreg::LanemaskGt,
        "%cluster_ctarank" => Sreg::ClusterCtarank,
        "%cluster_nctarank" => Sreg::ClusterNctarank,
        "%is_explicit_cluster" => Sreg::IsExplicitCluster,
        "%dynamic_smem_size" => Sreg::DynamicSmemSize,
        "%total_smem_size" => Sreg::TotalSmemSize,
        "%clock" | "%clock64" | "%globaltimer" | "%globaltimer_lo" | "%globaltimer_hi" => {
            Sreg::Volatile
        }
        _ => return None,
    })
}
