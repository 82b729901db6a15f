//! Static legality of a PTX module against the catalogue (the forms of
//! PTX ISA 9.7.9, and those of the arithmetic, comparison and logic
//! instructions of 9.7.1-9.7.7 in `catalogue::arith`): qualifier
//! combinations, operand counts, kinds and types against declarations, and
//! the PTX version and target each form needs. Pure: returns diagnostics,
//! prints nothing.

use crate::catalogue::grammar::{Form, OperandKind as Want, Presence, TypeRef, VecLen};
use crate::catalogue::matcher::MismatchKind;
use crate::catalogue::types::{is_register_type, register_fits};
use crate::catalogue::{Binding, Catalogue, PtxVersion, Requirement, Resolve, Target, Then};
use crate::ptx::ast::*;
use crate::ptx::Span;
use std::collections::HashMap;

/// What the checker found wrong, where, under which rule and spec section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub span: Span,
    pub message: String,
    /// A short rule name: `qualifiers`, `operand-count`, `operand-type`,
    /// `ptx-version`, `target`, `declaration`...
    pub rule: &'static str,
    /// The spec section behind the rule, when there is one.
    pub section: Option<&'static str>,
}

/// Overrides of the module's own `.version` and `.target`, and the
/// architecture the module is compiled for.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub ptx: Option<PtxVersion>,
    /// Checks against this target instead of the module's `.target`.
    pub target: Option<Target>,
    /// The architecture to compile for, as ptxas `-arch` means it: the
    /// module is checked against its own `.target`, which must be one that
    /// compiles for `arch` ([`Target::compiles_for`]).
    pub arch: Option<Target>,
    /// Threads to check functions on: `None` for as many as the machine
    /// has, for modules large enough to be worth it.
    pub threads: Option<usize>,
}

/// Modules with fewer statements than this are checked on one thread.
const PARALLEL_THRESHOLD: usize = 8192;

/// Checks a parsed module.
pub fn check_module(module: &Module, options: &Options) -> Vec<Diagnostic> {
    check(module, options, false).0
}

/// Each 9.7.9 instruction of a module as written (`mov.b64`) with the id of
/// the catalogue row it bound to (operands included: `mov.b64 d, {a, b}` is
/// `mov.pack.v2`), in the order the instructions come.
pub type BoundRows = Vec<(String, &'static str)>;

/// [`check_module`], and the rows the instructions bound to.
pub fn check_module_rows(module: &Module, options: &Options) -> (Vec<Diagnostic>, BoundRows) {
    check(module, options, true)
}

/// [`check_module_rows`]; the rows are recorded only when `record_rows`.
fn check(module: &Module, options: &Options, record_rows: bool) -> (Vec<Diagnostic>, BoundRows) {
    let mut c = Checker {
        cat: Catalogue::get(),
        labels: Default::default(),
        diags: Vec::new(),
        ptx: options.ptx,
        target: options.target,
        arch: options.arch,
        globals: HashMap::default(),
        address_bits: 64,
        explicit_address_size: false,
        texmode_independent: false,
        resolved: HashMap::default(),
        sets: Vec::new(),
        key: String::new(),
        quiet: false,
        want: Vec::new(),
        record_rows,
        rows: Vec::new(),
    };
    c.header(module);
    for item in &module.items {
        match item {
            Item::Var(v) => {
                c.incomplete_array(v);
                c.type_gate(v);
                c.sampler_mode(v);
                for d in &v.names {
                    c.globals
                        .insert(d.name.clone(), Symbol::Var(intern_space(&v.space)));
                }
            }
            Item::Function(f) => {
                c.globals.insert(f.name.clone(), Symbol::Function);
                c.function_header(f);
            }
            Item::Other(d) => c.directive(d),
            _ => {}
        }
    }
    let functions: Vec<&Function> = module
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Function(f) => Some(&**f),
            _ => None,
        })
        .collect();
    let weight = |f: &Function| f.body.as_ref().map_or(1, |b| b.len() + 1);
    let total: usize = functions.iter().map(|f| weight(f)).sum();
    let workers = match options.threads {
        Some(n) => n.max(1),
        None if total < PARALLEL_THRESHOLD => 1,
        None => std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(8),
    };
    let by_name = crate::call_rules::functions(module);
    if workers < 2 || functions.len() < 2 {
        for f in &functions {
            c.function(f);
            call_rules(f, &by_name, &mut c.diags);
        }
        let mut diags = c.diags;
        order_call_findings(&mut diags);
        return (diags, c.rows);
    }
    // Functions are independent: check contiguous runs of them on several
    // threads and keep the findings in source order.
    let mut chunks: Vec<&[&Function]> = Vec::new();
    let per = total.div_ceil(workers);
    let (mut start, mut acc) = (0, 0);
    for (i, f) in functions.iter().enumerate() {
        acc += weight(f);
        if acc >= per {
            chunks.push(&functions[start..=i]);
            start = i + 1;
            acc = 0;
        }
    }
    if start < functions.len() {
        chunks.push(&functions[start..]);
    }
    let base = &c;
    type Found = (Vec<Diagnostic>, BoundRows);
    let by_name = &by_name;
    let run = |chunk: &[&Function]| -> Found {
        let mut w = base.fork();
        for f in chunk {
            w.function(f);
            call_rules(f, by_name, &mut w.diags);
        }
        (w.diags, w.rows)
    };
    // The first run is checked on this thread while the others run.
    let (first, rest) = chunks
        .split_first()
        .map_or((&[][..], &[][..]), |(f, r)| (*f, r));
    let results: Vec<Found> = std::thread::scope(|scope| {
        let handles: Vec<_> = rest
            .iter()
            .map(|chunk| scope.spawn(move || run(chunk)))
            .collect();
        let mut results = vec![run(first)];
        for (h, chunk) in handles.into_iter().zip(rest) {
            results.push(h.join().unwrap_or_else(|_| run(chunk)));
        }
        results
    });
    let (mut diags, mut rows) = (c.diags, c.rows);
    for (d, r) in results {
        diags.extend(d);
        rows.extend(r);
    }
    order_call_findings(&mut diags);
    (diags, rows)
}

/// The rules ptxas holds calls to ([`crate::call_rules`]) in one function,
/// checked where its other findings are (on its worker thread).
fn call_rules(f: &Function, by_name: &HashMap<&str, &Function>, diags: &mut Vec<Diagnostic>) {
    let mut found = Vec::new();
    crate::call_rules::check_function(f, by_name, &mut found);
    diags.extend(found.into_iter().map(|(span, message)| Diagnostic {
        span,
        message,
        rule: "call",
        section: Some("9.7.12.5"),
    }));
}

/// The call rules' findings placed among the others in source order.
fn order_call_findings(diags: &mut [Diagnostic]) {
    if diags.iter().any(|d| d.rule == "call") {
        diags.sort_by_key(|d| d.span.start);
    }
}

#[derive(Clone, Copy, Debug)]
enum Symbol {
    Reg(&'static str),
    /// A vector register variable (`.reg .v4 .u32 w`): element type and
    /// length. Its elements (`w.x`) look up as [`Symbol::Reg`].
    VecReg(&'static str, u8),
    /// A variable and its state space.
    Var(&'static str),
    /// A kernel (`.entry`) parameter: read-only `.param` memory.
    EntryParam,
    Function,
}

struct Checker<'c> {
    cat: &'c Catalogue,
    /// The labels of the function being checked (branch targets,
    /// `.callprototype` and `.calltargets` names).
    labels: std::collections::HashSet<String, Fnv>,
    /// The architecture compiled for (ptxas `-arch`).
    arch: Option<Target>,
    diags: Vec<Diagnostic>,
    ptx: Option<PtxVersion>,
    target: Option<Target>,
    globals: HashMap<String, Symbol, Fnv>,
    address_bits: u32,
    /// Whether the module has an `.address_size` directive.
    explicit_address_size: bool,
    /// Whether the module's `.target` names `texmode_independent`.
    texmode_independent: bool,
    /// The forms each distinct opcode-and-qualifiers string resolves to
    /// (qualifier rules do not depend on operands, so this is exact), as
    /// an index into `sets`.
    /// Opcode and qualifiers (as one string) to their candidate set and
    /// whether the 9.7.9 catalogue (not the arithmetic one) has them.
    resolved: HashMap<String, (usize, bool), Fnv>,
    /// The candidate forms of each resolved opcode string. Owned by this
    /// checker (one per thread), so trying them touches no shared counter.
    sets: Vec<Vec<Candidate>>,
    /// A reusable buffer for the opcode-and-qualifiers key.
    key: String,
    /// Trying candidate forms: failures need no message.
    quiet: bool,
    /// The operand types the form being tried wants, by operand.
    want: Vec<Option<&'static str>>,
    /// Whether to fill `rows` ([`check_module_rows`] only).
    record_rows: bool,
    /// Each instruction (opcode and qualifiers) and the catalogue row it
    /// bound to, in order.
    rows: Vec<(String, &'static str)>,
}

/// A form an opcode string resolves to, with what can be worked out once.
struct Candidate {
    binding: Binding<'static>,
    /// The type each operand of the form wants.
    want: Vec<Option<&'static str>>,
    /// Set once the form's `since` and `needs` were checked and met.
    requirements_met: std::sync::atomic::AtomicBool,
}

impl Candidate {
    fn new(mut binding: Binding<'static>) -> Candidate {
        // A copy of the qualifier values of its own: the catalogue's memo
        // is shared by every thread, and bumping one shared reference
        // count per instruction made threads contend.
        binding.values = std::sync::Arc::from(&*binding.values);
        let want = binding
            .form
            .operands
            .iter()
            .map(|spec| resolve_type(spec.ty.as_ref(), &binding))
            .collect();
        Candidate {
            binding,
            want,
            requirements_met: std::sync::atomic::AtomicBool::new(false),
        }
    }
}

/// Special registers (PTX ISA 10), without their `.x/.y/.z` components.
const SPECIAL_REGISTERS: &[&str] = &[
    "%tid",
    "%ntid",
    "%laneid",
    "%warpid",
    "%nwarpid",
    "%ctaid",
    "%nctaid",
    "%smid",
    "%nsmid",
    "%gridid",
    "%is_explicit_cluster",
    "%clusterid",
    "%nclusterid",
    "%cluster_ctaid",
    "%cluster_nctaid",
    "%cluster_ctarank",
    "%cluster_nctarank",
    "%lanemask_eq",
    "%lanemask_le",
    "%lanemask_lt",
    "%lanemask_ge",
    "%lanemask_gt",
    "%clock",
    "%clock_hi",
    "%clock64",
    "%globaltimer",
    "%globaltimer_lo",
    "%globaltimer_hi",
    "%total_smem_size",
    "%aggr_smem_size",
    "%dynamic_smem_size",
    "%current_graph_exec",
    "%reserved_smem_offset_begin",
    "%reserved_smem_offset_end",
    "%reserved_smem_offset_cap",
];

/// The register of a video instruction's operand with a byte or half-word
/// selector (PTX ISA 9.7.10 `a.b0`...`a.b3`, `a.h0`, `a.h1`; 9.7.11's
/// `a.b3210`, `a.h10`): `%r1.b2` names `%r1`.
fn video_selected(name: &str) -> Option<&str> {
    let (base, sel) = name.rsplit_once('.')?;
    let digits = sel.strip_prefix('b').or_else(|| sel.strip_prefix('h'))?;
    (!digits.is_empty() && digits.bytes().all(|b| (b'0'..=b'7').contains(&b))).then_some(base)
}

/// Every label of a function body, nested blocks included (labels are
/// function-scoped).
fn collect_labels(stmts: &[Stmt], out: &mut std::collections::HashSet<String, Fnv>) {
    for s in stmts {
        match s {
            Stmt::Label(l, _) => {
                out.insert(l.clone());
            }
            Stmt::Block(inner, _) => collect_labels(inner, out),
            _ => {}
        }
    }
}

fn special_register(name: &str) -> bool {
    let bytes = name.as_bytes();
    // Most names are ordinary registers (`%r12`, `%rd3`, `%f1`): a special
    // register's first letter after `%` narrows the table quickly.
    if bytes.len() < 4 || bytes[0] != b'%' {
        return false;
    }
    // Only names that may be special split at their `.x` component.
    let base = || name.split_once('.').map_or(name, |(b, _)| b);
    match bytes[1] {
        b't' | b'n' | b'l' | b'w' | b'c' | b's' | b'g' | b'i' | b'a' | b'd' => {
            SPECIAL_REGISTERS.contains(&base())
        }
        // The prefixes hold no `.`: the name starts with one exactly when
        // its base does.
        b'e' => name.starts_with("%envreg"),
        b'p' => name.starts_with("%pm"),
        b'r' => name.starts_with("%reserved_smem_offset_"),
        _ => false,
    }
}

impl<'c> Checker<'c> {
    /// A checker for other functions of the same module: same header
    /// facts and globals, its own findings and caches.
    fn fork(&self) -> Checker<'c> {
        Checker {
            cat: self.cat,
            labels: Default::default(),
            diags: Vec::new(),
            ptx: self.ptx,
            target: self.target,
            arch: self.arch,
            globals: self.globals.clone(),
            address_bits: self.address_bits,
            explicit_address_size: self.explicit_address_size,
            texmode_independent: self.texmode_independent,
            resolved: HashMap::default(),
            sets: Vec::new(),
            key: String::new(),
            quiet: false,
            want: Vec::new(),
            record_rows: self.record_rows,
            rows: Vec::new(),
        }
    }

    fn diag(
        &mut self,
        span: Span,
        rule: &'static str,
        section: Option<&'static str>,
        message: String,
    ) {
        self.diags.push(Diagnostic {
            span,
            message,
            rule,
            section,
        });
    }

    fn header(&mut self, module: &Module) {
        let mut version = None;
        let mut target = None;
        let mut target_span = Span::default();
        let mut address_size = None;
        // PTX ISA 11.1.3: "If the .address_size directive is omitted, the
        // address size defaults to 32", but ptxas (64-bit `--machine` by
        // default) takes such modules as 64-bit, on sm_90 too.
        self.address_bits = 64;
        for item in &module.items {
            match item {
                Item::AddressSize { span, bits } => {
                    address_size = Some(*span);
                    self.address_bits = *bits;
                    self.explicit_address_size = true;
                }
                Item::Version { major, minor, .. } => {
                    version = Some(PtxVersion::new(*major, *minor))
                }
                Item::Target { names, span } => {
                    target_span = *span;
                    for n in names {
                        if n.starts_with("sm_") {
                            match Target::parse(n) {
                                Some(t) => target = Some(t),
                                None => self.diag(
                                    *span,
                                    "target",
                                    None,
                                    format!("unknown target `{n}`"),
                                ),
                            }
                        } else if n == "texmode_independent" {
                            self.texmode_independent = true;
                        } else if !matches!(
                            n.as_str(),
                            "texmode_unified" | "debug" | "map_f64_to_f32"
                        ) {
                            self.diag(
                                *span,
                                "target",
                                None,
                                format!("unknown target option `{n}`"),
                            );
                        }
                    }
                }
                _ => {}
            }
        }
        if version.is_none() && self.ptx.is_none() {
            self.diag(
                Span::default(),
                "module",
                None,
                "missing `.version` directive".into(),
            );
        }
        if target.is_none() && self.target.is_none() {
            self.diag(
                Span::default(),
                "module",
                None,
                "missing `.target` directive".into(),
            );
        }
        self.ptx = self.ptx.or(version);
        self.target = self.target.or(target);
        if let (Some(a), Some(t)) = (self.arch, self.target) {
            if !t.compiles_for(a) {
                let why = match t.suffix {
                    crate::catalogue::target::TargetSuffix::Arch => {
                        format!("an architecture-specific target compiles for {t} only")
                    }
                    crate::catalogue::target::TargetSuffix::Family => format!(
                        "a family-specific target compiles for sm_{}x architectures from {} on",
                        t.family(),
                        t.number
                    ),
                    crate::catalogue::target::TargetSuffix::Plain => {
                        "the module's target is higher than the architecture".into()
                    }
                };
                self.diag(
                    target_span,
                    "target",
                    None,
                    format!("`.target {t}` cannot be compiled for {a}: {why} (ptxas -arch {a})"),
                );
            }
        }
        // PTX ISA 11.1.3 `.address_size`: "Introduced in PTX ISA version
        // 2.3" (ptxas: "Feature '.address_size directive' requires PTX ISA
        // .version 2.3 or later").
        if let (Some(span), Some(v)) = (address_size, self.ptx) {
            if v < PtxVersion::new(2, 3) {
                self.diag(
                    span,
                    "ptx-version",
                    None,
                    format!(
                        "`.address_size` needs PTX ISA 2.3 or later (the module is PTX ISA {v})"
                    ),
                );
            }
        }
        // ptxas 13.0 compiles no 32-bit code (2026-11-27, `.address_size 32`
        // for sm_75, sm_80, sm_86, sm_89: "32-Bit compilation is no longer
        // supported"; sm_90: "32-Bit ABI (--machine 32 or 32-Bit addressing)
        // is not supported on sm_90 or higher architectures";
        // `semantics/tests/address_width.rs`).
        if let (32, Some(span)) = (self.address_bits, address_size) {
            self.diag(
                span,
                "target",
                None,
                "`.address_size 32` is not supported: ptxas 13.0 compiles no 32-bit code (\"32-Bit compilation is no longer supported\")".into(),
            );
        }
        if let (Some(t), Some(v)) = (self.target, self.ptx) {
            if v < t.min_ptx() {
                self.diag(
                    target_span,
                    "target",
                    None,
                    format!(
                        "`.target {t}` needs PTX ISA {} or later (the module is PTX ISA {v})",
                        t.min_ptx()
                    ),
                );
            }
        }
    }

    /// What ptxas 13.0 requires of a function's header beyond the grammar
    /// the parser reads: `.noreturn` only on a `.func` ("Parsing error near
    /// '.noreturn'" on an `.entry`), no incomplete array among a kernel's
    /// parameters ("Parameter to entry function cannot be an incomplete
    /// array"), and `.abi_preserve{_control}` from PTX ISA 9.0 on.
    fn function_header(&mut self, f: &Function) {
        for p in f.params.iter().flatten() {
            self.sampler_mode(p);
        }
        for p in f.returns.iter().chain(f.params.iter()).flatten() {
            self.type_gate(p);
        }
        let entry = f.kind == FunctionKind::Entry;
        for d in &f.directives {
            if entry && d.name == ".noreturn" {
                self.diag(
                    d.span,
                    "declaration",
                    None,
                    format!(
                        "`.noreturn` applies to a `.func`, not to the kernel `{}`",
                        f.name
                    ),
                );
            }
            self.abi_preserve(&d.name, &d.values, d.span);
            if let Some(g) = crate::gates::function_directive(&d.name) {
                self.gate(d.span, &d.name, g);
            }
        }
        // ptxas 13.0 on `.param .v2 .b32 x` in a parameter or return list,
        // of a `.func` or an `.entry`: "Variable 'x' cannot be allocated in
        // .param state space" (a vector `.reg` parameter is taken).
        for p in f.returns.iter().chain(f.params.iter()).flatten() {
            if let (".param", Some(n)) = (p.space.as_str(), p.vector) {
                for d in &p.names {
                    self.diag(
                        d.span,
                        "declaration",
                        None,
                        format!(
                            "parameter `{}`: a `.param` parameter cannot be a vector (`.v{n}`); use an array of bytes or a `.reg` vector",
                            d.name
                        ),
                    );
                }
            }
        }
        if entry {
            for p in f.params.iter().flatten() {
                for d in p.names.iter().filter(|d| d.dims.contains(&None)) {
                    self.diag(
                        d.span,
                        "declaration",
                        None,
                        format!(
                            "kernel parameter `{}` is an incomplete array (`[]`): a kernel's parameters need a size",
                            d.name
                        ),
                    );
                }
            }
        }
    }

    /// ptxas 13.0: "Feature '.abi_preserve' requires PTX ISA .version 9.0
    /// or later" (and `.abi_preserve_control`), on a function or in a
    /// `.callprototype`, and "requires .target sm_80 or higher".
    fn abi_preserve(&mut self, name: &str, words: &[String], span: Span) {
        let all = std::iter::once(name).chain(words.iter().map(String::as_str));
        for w in all.filter(|w| matches!(*w, ".abi_preserve" | ".abi_preserve_control")) {
            if let Some(v) = self.ptx.filter(|v| *v < PtxVersion::new(9, 0)) {
                self.diag(
                    span,
                    "ptx-version",
                    None,
                    format!("`{w}` needs PTX ISA 9.0 or later (the module is PTX ISA {v})"),
                );
            }
            if let Some(t) = self.target.filter(|t| t.number < 80) {
                self.diag(
                    span,
                    "target",
                    None,
                    format!("`{w}` needs `.target sm_80` or higher (the module's is {t})"),
                );
            }
        }
    }

    /// ptxas 13.0: "Non-external variable 'x' has incomplete type": an
    /// array declared with `[]` takes its size from its initializer unless
    /// the variable is `.extern` (an external or dynamic `.shared` array,
    /// PTX ISA 5.4.5 and 11.6.2). Parameters are the function header's
    /// business.
    /// PTX ISA 5.3: in the unified texturing mode (the default) "texture
    /// and sampler information is accessed through a single .texref
    /// handle"; a `.samplerref` (a variable or a kernel parameter) belongs
    /// to the independent mode (ptxas 13.0, `semantics/tests/
    /// declaration_rules.rs`: "Instruction or declaration violates .target
    /// texmode_unified setting"; a `.texref` is taken in both modes).
    fn sampler_mode(&mut self, v: &VarDecl) {
        if v.ty == ".samplerref" && !self.texmode_independent {
            self.diag(
                v.span,
                "declaration",
                Some("5.3"),
                "a `.samplerref` needs `.target texmode_independent` (ptxas: \"Instruction or declaration violates .target texmode_unified setting\")".into(),
            );
        }
    }

    fn incomplete_array(&mut self, v: &VarDecl) {
        if matches!(v.space.as_str(), ".reg" | ".param") || v.linkage.iter().any(|l| l == ".extern")
        {
            return;
        }
        for d in &v.names {
            if d.init.is_none() && d.dims.contains(&None) {
                self.diag(
                    d.span,
                    "declaration",
                    None,
                    format!(
                        "`{}` has an incomplete type: an array declared with `[]` needs an initializer unless it is `.extern`",
                        d.name
                    ),
                );
            }
        }
    }

    /// Of an instruction outside the catalogue, whose forms are not
    /// checked: every name an operand uses is declared (a register,
    /// variable, function or label in scope, a special register, `WARP_SZ`,
    /// the sink `_`), as ptxas 13.0 requires ("Unknown symbol").
    fn names_declared(&mut self, op: &Operand, scope: &[Scope]) {
        let name = match &op.kind {
            OperandKind::Name(n) | OperandKind::NameOffset(n, _) | OperandKind::Not(n) => n,
            OperandKind::Addr(a) => {
                for c in a.coords.iter().flatten() {
                    self.names_declared(c, scope);
                }
                match &a.base {
                    Some(b) => b,
                    None => return,
                }
            }
            OperandKind::Vector(v) | OperandKind::Paren(v) => {
                for o in v {
                    self.names_declared(o, scope);
                }
                return;
            }
            OperandKind::Pair(p, q) => {
                self.names_declared(p, scope);
                self.names_declared(q, scope);
                return;
            }
            OperandKind::Imm(_) => return,
        };
        if name == "_"
            || self.lookup(name, scope).is_some()
            || special_register(name)
            || self.labels.contains(name.as_str())
            || name == "WARP_SZ"
            || video_selected(name)
                .is_some_and(|base| matches!(self.lookup(base, scope), Some(Symbol::Reg(_))))
        {
            return;
        }
        let why = self.undeclared(name, scope);
        self.diag(op.span, "operand-name", None, why);
    }

    fn function(&mut self, f: &Function) {
        let Some(body) = &f.body else { return };
        self.labels.clear();
        collect_labels(body, &mut self.labels);
        let mut scope: Vec<Scope> = vec![Scope::default()];
        for p in f.returns.iter().chain(f.params.iter()).flatten() {
            for d in &p.names {
                // `.reg .v2 .u32 input` in a `.func`'s list is a vector
                // register like any other (`input.x`, PTX ISA 6.4.3).
                let sym = if p.space == ".reg" {
                    match p.vector {
                        Some(n) => Symbol::VecReg(intern_type(&p.ty), n as u8),
                        None => Symbol::Reg(intern_type(&p.ty)),
                    }
                } else if f.kind == FunctionKind::Entry {
                    Symbol::EntryParam
                } else {
                    Symbol::Var(intern_space(&p.space))
                };
                scope[0].names.insert(d.name.clone(), sym);
            }
        }
        self.stmts(body, &mut scope);
    }

    fn stmts(&mut self, stmts: &[Stmt], scope: &mut Vec<Scope>) {
        // Declarations are visible throughout their block, so collect first.
        scope.push(Scope::default());
        for s in stmts {
            if let Stmt::Var(v) = s {
                self.declare(v, scope);
            }
        }
        for s in stmts {
            match s {
                Stmt::Instr(i) => self.instruction(i, scope),
                Stmt::Block(inner, _) => self.stmts(inner, scope),
                Stmt::Other(d) => self.directive(d),
                _ => {}
            }
        }
        scope.pop();
    }

    /// A declaration's type against the PTX ISA version it needs.
    fn type_gate(&mut self, v: &VarDecl) {
        if let Some(g) = crate::gates::declared_type(&v.ty) {
            self.gate(v.span, &v.ty, g);
        }
    }

    /// `.pragma` strings against the PTX ISA version each needs; other
    /// directives pass.
    fn directive(&mut self, d: &crate::ptx::ast::OtherDirective) {
        self.abi_preserve(&d.name, &d.tokens, d.span);
        if d.name == ".pragma" {
            for t in &d.tokens {
                let text = t.trim_matches('"');
                if let Some(g) = crate::gates::pragma(text) {
                    self.gate(d.span, &format!(".pragma \"{text}\""), g);
                }
            }
        }
    }

    fn declare(&mut self, v: &VarDecl, scope: &mut [Scope]) {
        self.incomplete_array(v);
        self.type_gate(v);
        if v.space == ".reg" && !is_register_type(&v.ty) {
            self.diag(
                v.span,
                "declaration",
                None,
                format!("`{}` is not a register type", v.ty),
            );
        }
        if let (".reg", Some(n)) = (v.space.as_str(), v.vector) {
            if let Some(why) = vector_register_problem(&v.ty, n) {
                self.diag(v.span, "declaration", Some("5.4.2"), why);
            }
        }
        let Some(top) = scope.last_mut() else { return };
        for d in &v.names {
            let sym = if v.space == ".reg" {
                match v.vector {
                    Some(n) => Symbol::VecReg(intern_type(&v.ty), n as u8),
                    None => Symbol::Reg(intern_type(&v.ty)),
                }
            } else {
                Symbol::Var(intern_space(&v.space))
            };
            if d.range.is_some() {
                let entry = (d.name.clone(), sym, d.range.unwrap_or(0));
                match top.ranges.iter_mut().find(|r| r.0 == d.name) {
                    Some(r) => *r = entry,
                    None => top.ranges.push(entry),
                }
                continue;
            }
            if top.names.insert(d.name.clone(), sym).is_some() {
                self.diag(
                    d.span,
                    "declaration",
                    None,
                    format!("`{}` is declared twice", d.name),
                );
            }
        }
    }

    fn lookup(&self, name: &str, scope: &[Scope]) -> Option<Symbol> {
        let found = self.lookup_plain(name, scope);
        if found.is_some() {
            return found;
        }
        // `v.x`: an element of a vector register (PTX ISA 6.4.3).
        let (base, selector) = name.rsplit_once('.')?;
        match (self.lookup_plain(base, scope)?, element_index(selector)) {
            (Symbol::VecReg(ty, len), Some(k)) if k < len => Some(Symbol::Reg(ty)),
            _ => None,
        }
    }

    /// Why `name` does not look up: an element a vector lacks, a selector
    /// that is none, a selector on a scalar, or no declaration.
    fn undeclared(&self, name: &str, scope: &[Scope]) -> String {
        let Some((base, selector)) = name.rsplit_once('.') else {
            return format!("`{name}` is not declared");
        };
        match (self.lookup_plain(base, scope), element_index(selector)) {
            (Some(Symbol::VecReg(_, len)), Some(_)) => {
                format!("`{base}` is a .v{len} vector: it has no element `.{selector}`")
            }
            (Some(Symbol::VecReg(..)), None) => format!(
                "`.{selector}` is not a vector element (`.x .y .z .w` or `.r .g .b .a`)"
            ),
            (Some(Symbol::Reg(ty)), _) => format!(
                "`{base}` is a scalar `{ty}` register: `.{selector}` selects an element of a vector register"
            ),
            (Some(_), _) => format!("`{base}` is not a vector register: `{name}` is not declared"),
            (None, _) => format!("`{base}` is not declared"),
        }
    }

    fn lookup_plain(&self, name: &str, scope: &[Scope]) -> Option<Symbol> {
        // `%r<10>` declares `%r0` .. `%r9` (PTX ISA 5.4.2, parameterized
        // variable names): the suffix is a number below the count (ptxas
        // 13.0 takes `%r05` as `%r5`, and `%r10` is an "Unknown symbol").
        // Most names are such registers, and a block declares few ranges:
        // their stems are compared first, without hashing.
        let bytes = name.as_bytes();
        let digits = bytes
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_digit())
            .count();
        // Trailing ASCII digits: the stem ends on a character boundary.
        let stem = &bytes[..bytes.len() - digits];
        let index = (digits > 0).then(|| {
            bytes[stem.len()..].iter().try_fold(0u64, |n, &b| {
                n.checked_mul(10)?.checked_add(u64::from(b - b'0'))
            })
        });
        for s in scope.iter().rev() {
            if let Some(Some(i)) = index {
                if let Some(r) = s.ranges.iter().find(|r| r.0.as_bytes() == stem) {
                    if i < u64::from(r.2) {
                        return Some(r.1);
                    }
                }
            }
            if let Some(sym) = s.names.get(name) {
                return Some(*sym);
            }
        }
        self.globals.get(name).copied()
    }

    /// `vote` without `.sync` (PTX ISA 9.7.13.x, "vote (deprecated)"):
    /// deprecated in PTX ISA 6.0 in favour of `vote.sync`, and not supported
    /// from PTX ISA 6.4 for `.target sm_70` and higher, as for `shfl`
    /// (ptxas 13.0: "Instruction 'vote' without '.sync' is not supported on
    /// .target sm_70 and higher from PTX ISA version 6.4"; met in a
    /// real-world file, corpus/realworld).
    fn vote_without_sync(&mut self, ins: &Instruction) {
        if ins.opcode != "vote" || ins.quals.iter().any(|q| q == ".sync") {
            return;
        }
        let (Some(v), Some(t)) = (self.ptx, self.target) else {
            return;
        };
        if v >= PtxVersion::new(6, 4) && t.number >= 70 {
            self.diag(
                ins.opcode_span,
                "removed",
                None,
                format!(
                    "`vote` without `.sync` is not supported from PTX ISA 6.4 on `.target sm_70` or higher (the module: PTX ISA {v}, {t}); use `vote.sync` with a member mask"
                ),
            );
        }
    }

    fn instruction(&mut self, ins: &Instruction, scope: &[Scope]) {
        self.instruction_forms(ins, scope);
        // after the forms: the operands are in cache by now
        self.special_register_gates(&ins.operands);
    }

    fn instruction_forms(&mut self, ins: &Instruction, scope: &[Scope]) {
        if let Some(g) = &ins.guard {
            match self.lookup(&g.pred, scope) {
                Some(Symbol::Reg(".pred")) => {}
                _ => self.diag(
                    g.span,
                    "guard",
                    None,
                    format!("guard `{}` is not a declared predicate", g.pred),
                ),
            }
        }
        if let Some(why) = mbarrier_operation_order(ins) {
            self.diag(ins.opcode_span, "qualifiers", Some("9.7.13.15"), why);
            return;
        }
        // ptxas 13.0 on `mov.u32 {%r1}, {%r2}`: "Illegal vector-vector
        // operands for vector-scalar or scalar-vector mov" (one brace list
        // of one element on either side is taken, below in `operand`).
        if ins.opcode == "mov"
            && ins.operands.len() == 2
            && ins
                .operands
                .iter()
                .all(|o| matches!(&o.kind, OperandKind::Vector(v) if v.len() == 1))
        {
            self.diag(
                ins.span,
                "operand-type",
                Some("9.7.9.1"),
                format!("`{}`: a vector on both sides; mov packs a vector into a scalar or unpacks a scalar into a vector", ins.full_opcode()),
            );
            return;
        }
        // an opcode and qualifiers met before: their candidates and catalogue
        self.key.clear();
        self.key.push_str(&ins.opcode);
        for q in &ins.quals {
            self.key.push_str(q);
        }
        if let Some(&(set, in_catalogue)) = self.resolved.get(self.key.as_str()) {
            let mut candidates = std::mem::take(&mut self.sets[set]);
            self.try_candidates(ins, &mut candidates, scope, in_catalogue);
            self.sets[set] = candidates;
            return;
        }
        let in_catalogue = self.cat.knows_opcode(&ins.opcode)
            && !((ins.opcode == "cp" || ins.opcode == "tensormap")
                && crate::opcodes::outside_catalogue(ins));
        // The arithmetic and logic instructions of PTX ISA 9.7.1-9.7.7 have
        // rows of their own, checked the same way.
        let arith = crate::catalogue::arith::catalogue();
        let cat: &'static Catalogue = if in_catalogue {
            Catalogue::get()
        } else if arith.knows_opcode(&ins.opcode) && !red_async(ins) {
            arith
        } else {
            if !crate::opcodes::is_ptx_opcode(&ins.opcode) {
                self.diag(
                    ins.opcode_span,
                    "opcode",
                    None,
                    format!("unknown instruction `{}`", ins.opcode),
                );
            } else {
                self.vote_without_sync(ins);
                for gate in crate::gates::instruction(&ins.opcode, &ins.quals) {
                    self.gate(ins.opcode_span, &ins.full_opcode(), gate);
                }
                for gate in
                    crate::gates::instruction_operands(&ins.opcode, &ins.quals, &ins.operands)
                {
                    self.gate(ins.opcode_span, &ins.full_opcode(), gate);
                }
                for op in &ins.operands {
                    self.names_declared(op, scope);
                }
                self.unlisted_addresses(ins, scope);
            }
            return;
        };
        if !in_catalogue {
            if let Some(why) = arith_mode_after_type(ins) {
                self.diag(ins.opcode_span, "qualifiers", None, why);
                return;
            }
        }
        let set = match self.resolved.get(self.key.as_str()) {
            Some(&(set, _)) => set,
            None => {
                let quals: Vec<&str> = if in_catalogue {
                    ins.quals.iter().map(|q| q.as_str()).collect()
                } else {
                    arith_qualifiers(ins)
                };
                match cat.resolve_memo(&self.key, &ins.opcode, &quals) {
                    Ok(c) => {
                        self.sets
                            .push(c.iter().cloned().map(Candidate::new).collect());
                        self.resolved
                            .insert(self.key.clone(), (self.sets.len() - 1, in_catalogue));
                        self.sets.len() - 1
                    }
                    Err(why) => {
                        self.qualifier_error(ins, why);
                        return;
                    }
                }
            }
        };
        // Taken out while the instruction is checked (the checks borrow
        // `self` mutably), and put back after.
        let mut candidates = std::mem::take(&mut self.sets[set]);
        self.try_candidates(ins, &mut candidates, scope, in_catalogue);
        self.sets[set] = candidates;
    }

    /// Binds the instruction to the first candidate form that fits, and
    /// checks that form's requirements.
    /// `record` says whether the instruction is one of 9.7.9, whose bound
    /// rows [`check_module_rows`] reports.
    fn try_candidates(
        &mut self,
        ins: &Instruction,
        candidates: &mut [Candidate],
        scope: &[Scope],
        record: bool,
    ) {
        // The first form whose operands and rules fit wins; otherwise report
        // what the first candidate found. Candidates are tried quietly, so a
        // miss costs no message.
        // Each candidate's binding is reused: what `operands` records in it
        // (immediates, counts) is cleared before each try.
        let mut chosen = None;
        self.quiet = true;
        for (index, candidate) in candidates.iter_mut().enumerate() {
            let binding = &mut candidate.binding;
            binding.imms.clear();
            binding.float_imms.clear();
            self.want.clear();
            self.want.extend_from_slice(&candidate.want);
            let mark = self.diags.len();
            let ok = self.operands(ins, binding, scope) && self.rules_allow(ins, binding);
            self.diags.truncate(mark);
            if ok {
                chosen = Some(index);
                break;
            }
        }
        self.quiet = false;
        let Some(chosen_index) = chosen else {
            if let Some(first) = candidates.first_mut() {
                let binding = &mut first.binding;
                binding.imms.clear();
                binding.float_imms.clear();
                self.want.clear();
                self.want.extend_from_slice(&first.want);
                let _ = self.operands(ins, binding, scope) && self.rules_allow(ins, binding);
            }
            return;
        };
        let binding = &candidates[chosen_index].binding;
        if self.record_rows && record {
            self.rows.push((self.key.clone(), binding.form.row.id));
        }
        // Requirements of the form and its qualifiers depend on nothing but
        // the qualifiers: once met for this opcode string, they stay met.
        let settled = &candidates[chosen_index].requirements_met;
        let mark = self.diags.len();
        if !settled.load(std::sync::atomic::Ordering::Relaxed) {
            self.qualifier_requirements(ins, binding);
            if self.diags.len() == mark {
                settled.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }
        self.rule_requirements(ins, binding);
    }

    /// `since` and `needs` of the chosen form.
    fn qualifier_requirements(&mut self, ins: &Instruction, binding: &Binding) {
        let form = binding.form;
        self.requirement(ins, form, &form.since, "this instruction");
        for (what, req) in &form.needs {
            let applies = match what.as_bytes().contains(&b'=') {
                true => what
                    .split_once('=')
                    .is_some_and(|(slot, value)| binding.is(slot, value)),
                false => binding.has(what),
            };
            if applies {
                self.requirement(
                    ins,
                    form,
                    req,
                    &format!("`{}`", what.rsplit('=').next().unwrap_or(what)),
                );
            }
        }
    }

    /// Rules that add requirements or mark a form removed (they may read
    /// operands, so they run every time).
    fn rule_requirements(&mut self, ins: &Instruction, binding: &Binding) {
        let form = binding.form;
        for rule in form.row.rules {
            if rule.then == Then::Illegal {
                continue;
            }
            let applies = (rule.when)(binding);
            match rule.then {
                Then::Needs(req) if applies => {
                    if let Some(r) = Requirement::parse(req) {
                        self.requirement(ins, form, &r, rule.says);
                    }
                }
                Then::Removed(req) if applies => {
                    let Some(r) = Requirement::parse(req) else {
                        continue;
                    };
                    let (Some(v), Some(t)) = (self.ptx, self.target) else {
                        continue;
                    };
                    if r.allows_ptx(v) && r.allows_target(t) {
                        self.diag(
                            ins.opcode_span,
                            "removed",
                            Some(form.row.section),
                            format!(
                                "`{}`: {} (PTX ISA {v}, target {t})",
                                ins.full_opcode(),
                                rule.says
                            ),
                        );
                    }
                }
                _ => {}
            }
        }
    }

    /// Illegal rules that need the operands (immediate values, counts).
    fn rules_allow(&mut self, ins: &Instruction, b: &Binding) -> bool {
        let form = b.form;
        for rule in form.row.rules {
            if rule.then == Then::Illegal && (rule.when)(b) {
                if self.quiet {
                    return false;
                }
                self.diag(
                    ins.span,
                    "qualifiers",
                    Some(form.row.section),
                    format!("`{}`: {}", ins.full_opcode(), rule.says),
                );
                return false;
            }
        }
        true
    }

    fn requirement(&mut self, ins: &Instruction, form: &Form, req: &Requirement, what: &str) {
        self.require(
            ins.opcode_span,
            &ins.full_opcode(),
            what,
            Some(form.row.section),
            req,
        );
    }

    /// The findings of a requirement unmet by the module's `.version` or
    /// `.target`: `written` is what the instruction or directive says,
    /// `what` the feature that needs the requirement.
    fn require(
        &mut self,
        span: Span,
        written: &str,
        what: &str,
        section: Option<&'static str>,
        req: &Requirement,
    ) {
        if let (Some(v), Some(need)) = (self.ptx, req.ptx) {
            if v < need {
                self.diag(
                    span,
                    "ptx-version",
                    section,
                    format!("`{written}`: {what} needs PTX ISA {need} or later (the module is PTX ISA {v})"),
                );
            }
        }
        if let Some(t) = self.target {
            if !req.allows_target(t) {
                self.diag(
                    span,
                    "target",
                    section,
                    format!(
                        "`{written}`: {what} needs target {} (the target is {t})",
                        req.targets_text()
                    ),
                );
            }
        }
    }

    /// A requirement of [`crate::gates`]: a PTX ISA version and targets
    /// for an instruction outside the catalogues or a special register.
    fn gate(&mut self, span: Span, written: &str, gate: &crate::gates::Gate) {
        self.require(span, written, gate.what, Some(gate.section), &gate.req);
    }

    /// The special registers an instruction reads (PTX ISA 10), against
    /// the version and target each needs.
    fn special_register_gates(&mut self, ops: &[Operand]) {
        for op in ops {
            match &op.kind {
                // `special_register` first: it turns ordinary registers
                // (`%r12`) away after a byte or two
                OperandKind::Name(n) if special_register(n) => {
                    if let Some(g) = crate::gates::special_register(n) {
                        self.gate(op.span, n, g);
                    }
                }
                OperandKind::Vector(v) | OperandKind::Paren(v) => self.special_register_gates(v),
                OperandKind::Pair(p, q) => {
                    self.special_register_gates(std::slice::from_ref(p));
                    self.special_register_gates(std::slice::from_ref(q));
                }
                _ => {}
            }
        }
    }

    fn qualifier_error(&mut self, ins: &Instruction, why: Resolve) {
        let op = ins.full_opcode();
        match why {
            Resolve::UnknownOpcode => self.diag(
                ins.opcode_span,
                "opcode",
                None,
                format!("unknown instruction `{op}`"),
            ),
            Resolve::Rule { form, rule, .. } => self.diag(
                ins.opcode_span,
                "qualifiers",
                Some(form.row.section),
                format!("`{op}`: {}", rule.says),
            ),
            Resolve::Qualifiers { form, mismatch } => {
                let section = Some(form.row.section);
                let message = match mismatch.kind {
                    MismatchKind::Unknown(q) => format!(
                        "`{op}`: qualifier `{q}` is not allowed here (closest form: `{}`)",
                        form.row.syntax
                    ),
                    MismatchKind::Missing { slot, choices } => format!(
                        "`{op}`: missing `{slot}`, one of {} (form: `{}`)",
                        choices.join(" "),
                        form.row.syntax
                    ),
                    MismatchKind::Duplicate(q) => format!("`{op}`: qualifier `{q}` given twice"),
                    MismatchKind::NameOrder(name) => format!(
                        "`{op}`: the instruction name `{name}` must come first, in this order"
                    ),
                    MismatchKind::Combination => format!(
                        "`{op}`: qualifiers do not fit the form `{}` in this order or combination",
                        form.row.syntax
                    ),
                };
                self.diag(ins.opcode_span, "qualifiers", section, message);
            }
        }
    }

    /// Checks operands; records immediates in the binding. False when an
    /// error was reported.
    fn operands(&mut self, ins: &Instruction, b: &mut Binding, scope: &[Scope]) -> bool {
        let form = b.form;
        let section = Some(form.row.section);
        let mut present = [false; 32];
        let present = &mut present[..form.operands.len().min(32)];
        let mut optional = 0;
        for (p, spec) in present.iter_mut().zip(&form.operands) {
            match &spec.presence {
                Presence::Required => *p = true,
                Presence::IfQualifier(q) => *p = b.has(q),
                Presence::Optional => optional += 1,
            }
        }
        let required = present.iter().filter(|p| **p).count();
        let given = ins.operands.len();
        if given < required || given > required + optional {
            let expect = if optional == 0 {
                format!("{required}")
            } else {
                format!("{required} to {}", required + optional)
            };
            if self.quiet {
                return false;
            }
            self.diag(
                ins.span,
                "operand-count",
                section,
                format!(
                    "`{}` takes {expect} operands, found {given}",
                    ins.full_opcode()
                ),
            );
            return false;
        }
        let mut extra = given - required;
        for (i, spec) in form.operands.iter().enumerate() {
            if spec.presence == Presence::Optional && extra > 0 {
                present[i] = true;
                extra -= 1;
            }
        }
        b.operand_count = given;
        b.address_bits = self.address_bits;
        // The k-th memory operand addresses the k-th state space written in
        // the qualifiers (`cp.async.ca.shared.global [dst], [src]`).
        let spaces = || ins.quals.iter().filter_map(|q| space_of(q));
        let mut memory_index = 0;
        let mut actual = ins.operands.iter();
        for (index, (spec, _)) in form
            .operands
            .iter()
            .zip(present.iter())
            .enumerate()
            .filter(|(_, (_, p))| **p)
        {
            let Some(op) = actual.next() else { break };
            let want_ty = self.want.get(index).copied().flatten();
            let addresses_memory = matches!(op.kind, OperandKind::Addr(_))
                || (matches!(op.kind, OperandKind::Name(_) | OperandKind::NameOffset(..))
                    && spec.kinds.contains(&Want::Sym));
            if addresses_memory {
                let expected = spaces().nth(memory_index).or_else(|| {
                    let mbar = spec
                        .name
                        .as_bytes()
                        .windows(4)
                        .any(|w| w.eq_ignore_ascii_case(b"mbar"));
                    // PTX ISA 9.7.9.23/24: the generic forms of `mapa` and
                    // `getctarank` take the "generic address of shared
                    // memory variable" (ptxas: "State space mismatch").
                    let shared = (mbar && spaces().next().is_some())
                        || matches!(ins.opcode.as_str(), "mapa" | "getctarank");
                    shared.then_some(".shared")
                });
                memory_index += 1;
                let checked = self
                    .memory_space(ins, op, expected, scope)
                    .and_then(|()| self.address_form(ins, op, expected, scope));
                if let Err(msg) = checked {
                    if self.quiet {
                        return false;
                    }
                    self.diag(
                        op.span,
                        "state-space",
                        section,
                        format!("`{}` operand `{}`: {msg}", ins.full_opcode(), spec.name),
                    );
                    return false;
                }
            }
            // `%r+imm` is a value, never a place to write: not a destination.
            let written = index == 0
                && !first_operand_is_a_source(form)
                && matches!(op.kind, OperandKind::NameOffset(..))
                && spec.kinds.contains(&Want::Reg)
                && !spec.kinds.contains(&Want::Addr)
                && !spec.kinds.contains(&Want::Sym);
            // ptxas 13.0: "Result register required" for `!p` as the
            // destination of an arithmetic or logic instruction.
            let negated = index == 0 && arith_form(form) && matches!(op.kind, OperandKind::Not(_));
            let checked = if written {
                Err("a destination cannot be `name+offset`".to_string())
            } else if negated {
                Err("a destination cannot be a negated predicate `!p`".to_string())
            } else {
                self.operand(op, spec, want_ty, b, scope)
            };
            if let Err(msg) = checked {
                if self.quiet {
                    return false;
                }
                self.diag(
                    op.span,
                    "operand-type",
                    section,
                    format!("`{}` operand `{}`: {msg}", ins.full_opcode(), spec.name),
                );
                return false;
            }
            match &op.kind {
                OperandKind::Imm(Expr::Int(v)) => b.imms.push((spec.name.as_str(), *v)),
                // A sink destination, recorded under the name `_` for the
                // rules that depend on it (`mbarrier`, PTX ISA 9.7.13.15.13).
                OperandKind::Name(n) if n == "_" => b.imms.push(("_", 0)),
                OperandKind::Imm(Expr::F32(bits)) => b
                    .float_imms
                    .push((spec.name.as_str(), f32::from_bits(*bits) as f64)),
                OperandKind::Imm(Expr::F64(bits)) => b
                    .float_imms
                    .push((spec.name.as_str(), f64::from_bits(*bits))),
                _ => {}
            }
        }
        true
    }

    fn operand(
        &self,
        op: &Operand,
        spec: &crate::catalogue::OperandSpec,
        ty: Option<&str>,
        b: &Binding,
        scope: &[Scope],
    ) -> Result<(), String> {
        let fit = b.form.row.fit;
        let kinds = &spec.kinds;
        let wants = |k: Want| kinds.contains(&k);
        match &op.kind {
            OperandKind::Pair(first, second) => {
                if spec.pred_partner.is_none() {
                    return Err("a `d|p` pair is not allowed here".into());
                }
                self.operand(first, &without_partner(spec), ty, b, scope)?;
                // `setp p|_` (not `_|_`: "Parsing error near '_'"; not
                // `lop3 d|_`: "Predicate output expected").
                let sink = |o: &Operand| matches!(&o.kind, OperandKind::Name(n) if n == "_");
                if b.form.opcode == "setp" && sink(second) {
                    return if sink(first) {
                        Err("`_|_`: at most one of `p|q` may be the sink".into())
                    } else {
                        Ok(())
                    };
                }
                self.register_of(second, ".pred", scope)
            }
            _ if spec.pred_partner == Some(true) => Err("needs a predicate partner `d|p`".into()),
            // ptxas 13.0 takes the sink for the predicate destination of
            // `setp` (`setp.lt.s32 _, a, b`; corpus/legality/arith).
            OperandKind::Name(n) if n == "_" && b.form.opcode == "setp" && kinds == &[Want::Pred] => {
                Ok(())
            }
            // PTX ISA 9.7.13.5 atom, Notes: "Simple reductions may be
            // specified by using the bit bucket destination operand _".
            OperandKind::Name(n)
                if n == "_" && b.form.opcode == "atom" && index_is_destination(spec, b) =>
            {
                Ok(())
            }
            // PTX ISA 9.7.13.15.13/.14: "mbarrier.arrive{.sem}{.scope}{.shared::cluster}.b64
            // _, [addr] {,count}"; "Support for sink symbol '_' as the
            // destination operand is introduced in PTX ISA version 7.1" (the
            // `state` destination of the arrive forms).
            OperandKind::Name(n)
                if n == "_"
                    && b.form.opcode == "mbarrier"
                    && spec.name == "state"
                    && index_is_destination(spec, b) =>
            {
                Ok(())
            }
            // PTX ISA 9.7.9.4, 9.7.9.8, 9.7.9.11: the sink stands for
            // elements of a vector operand (handled with the vector); no
            // instruction of the catalogue lets it stand for a whole operand
            // (ptxas: "Result discard mode is not allowed").
            OperandKind::Name(n) if n == "_" => Err(
                "the sink `_` cannot stand for a whole operand here (it may be an element of a vector destination)".into(),
            ),
            OperandKind::Name(n) if special_register(n) => {
                if !wants(Want::Sreg) {
                    return Err(format!("special register `{n}` is not allowed here"));
                }
                let sty = special_register_type(n);
                // PTX ISA 10: `%tid`, `%ntid`, `%ctaid`, `%nctaid` were
                // `.v4.u16` in PTX 1.x; 16-bit moves from them stay legal.
                let legacy16 = matches!(
                    n.split('.').next(),
                    Some("%tid" | "%ntid" | "%ctaid" | "%nctaid")
                ) && ty.and_then(crate::catalogue::types::ptx_type).is_some_and(
                    |t| t.bits == 16 && t.kind != crate::catalogue::types::TypeKind::Float,
                );
                match ty {
                    Some(t)
                        if !legacy16 && !register_fits(sty, t, crate::catalogue::Fit::Exact) =>
                    {
                        Err(format!(
                            "special register `{n}` is `{sty}`, which does not fit type `{t}`"
                        ))
                    }
                    _ => Ok(()),
                }
            }
            OperandKind::Name(n) if n == "WARP_SZ" => {
                if wants(Want::Imm) {
                    Ok(())
                } else {
                    Err("the constant `WARP_SZ` is not allowed here".into())
                }
            }
            OperandKind::Name(n) => match self.lookup(n, scope) {
                Some(Symbol::Reg(rt)) => {
                    if wants(Want::Pred) && rt == ".pred" {
                        return Ok(());
                    }
                    if !wants(Want::Reg) {
                        return Err(format!(
                            "register `{n}` is not allowed here ({})",
                            describe_kinds(kinds)
                        ));
                    }
                    if arith_form(b.form) {
                        if let Some(msg) = arith_register(n, rt, ty, b) {
                            return msg;
                        }
                    }
                    match ty {
                        Some(t) if !register_fits(rt, t, fit) => Err(format!(
                            "register `{n}` is `{rt}`, which does not fit type `{t}`"
                        )),
                        _ => Ok(()),
                    }
                }
                Some(Symbol::VecReg(ety, len)) => {
                    if wants(Want::Vec) && spec.braces_only {
                        return Err(format!(
                            "`{n}` is a vector variable; this operand takes a brace list `{{..}}` (PTX ISA 6.4.3: vector operands are for mov, ld, st, atom, red and tex)"
                        ));
                    }
                    if !wants(Want::Vec) {
                        return Err(format!(
                            "`{n}` is a .v{len} `{ety}` vector register, not a scalar ({}; an element is written `{n}.x`)",
                            describe_kinds(kinds)
                        ));
                    }
                    // PTX ISA 6.4.3: a vector variable stands for the brace
                    // list of its elements, `{n.x, n.y, ...}`.
                    if let Some(want) = vector_length(spec, b) {
                        if usize::from(len) != want {
                            return Err(format!(
                                "expects a vector of {want}, but `{n}` is a .v{len} vector"
                            ));
                        }
                    }
                    match ty {
                        Some(t) if !register_fits(ety, t, fit) => Err(format!(
                            "the elements of vector `{n}` are `{ety}`, which does not fit type `{t}`"
                        )),
                        _ => Ok(()),
                    }
                }
                // ptxas 13.0 takes a function's name as an integer source of
                // arithmetic (`add.u64 d, fn, 4`), not a variable's ("must
                // be register"; `gvar+0` is the constant expression).
                Some(Symbol::Function)
                    if arith_form(b.form) && wants(Want::Reg) && wants(Want::Imm) =>
                {
                    use crate::catalogue::types::TypeKind;
                    match ty.and_then(crate::catalogue::types::ptx_type) {
                        Some(t) if !matches!(t.kind, TypeKind::Bits | TypeKind::Unsigned | TypeKind::Signed) => {
                            Err(format!("the address of `{n}` cannot stand for type `{}`", t.name))
                        }
                        // ptxas 13.0 takes `add.u32 d, fn, 1` as well.
                        _ => Ok(()),
                    }
                }
                Some(sym @ (Symbol::Var(_) | Symbol::EntryParam | Symbol::Function)) => {
                    if wants(Want::Sym) {
                        self.address_width(n, &sym, ty)
                    } else {
                        Err(format!("`{n}` is a variable or function, not a register"))
                    }
                }
                None => Err(self.undeclared(n, scope)),
            },
            OperandKind::NameOffset(n, _) => match self.lookup(n, scope) {
                Some(sym @ (Symbol::Var(_) | Symbol::EntryParam)) if wants(Want::Sym) => {
                    self.address_width(n, &sym, ty)
                }
                // `gvar+8` as a value: the variable's address plus a
                // constant, an integer constant expression (PTX ISA 4.6,
                // 6.4.2) standing where a register or an immediate may
                // (ptxas: "Integer constant expression expected" where only
                // an immediate may), except where the operand takes a plain
                // number (`num`: cache policies, masks; ptxas: "Arguments
                // mismatch").
                Some(Symbol::Var(_) | Symbol::EntryParam | Symbol::Function)
                    if wants(Want::Reg) && wants(Want::Imm) && !spec.number_only =>
                {
                    use crate::catalogue::types::TypeKind;
                    match ty.and_then(crate::catalogue::types::ptx_type) {
                        // `.bf16` as `.f16`: ptxas 13.0 refuses `gvar+8` as
                        // the `.bf16` source of `fma.rn.f32.bf16`
                        // (corpus/legality/arith)
                        Some(t) if matches!(t.kind, TypeKind::Float | TypeKind::Pred)
                            || half_pair(t.name)
                            || t.name == ".bf16" => Err(format!(
                            "`{n}+offset` is an address, an integer constant, which cannot stand for type `{}`",
                            t.name
                        )),
                        _ => Ok(()),
                    }
                }
                // `%r1+4`: the register's value plus a constant, a source
                // operand where a register may stand (ptxas accepts it
                // wherever a source register may be).
                Some(Symbol::Reg(rt)) if wants(Want::Reg) => {
                    if rt == ".pred" {
                        return Err(format!("`{n}` is a predicate: `{n}+offset` has no value"));
                    }
                    // ptxas 13.0: "Parsing error near '-'" for `%r-4` as a
                    // source of arithmetic.
                    if arith_form(b.form) && matches!(op.kind, OperandKind::NameOffset(_, off) if off < 0) {
                        return Err(format!("`{n}-offset`: a register takes `+offset` only here"));
                    }
                    match ty {
                        Some(t) if !register_fits(rt, t, fit) => Err(format!(
                            "register `{n}` is `{rt}`, which does not fit type `{t}`"
                        )),
                        _ => Ok(()),
                    }
                }
                Some(_) => Err(format!("`{n}+offset` is not allowed here")),
                None => Err(self.undeclared(n, scope)),
            },
            OperandKind::Not(n) => {
                if wants(Want::Pred) {
                    self.register_of(op, ".pred", scope)
                        .map_err(|_| format!("`!{n}` needs a predicate"))
                } else {
                    Err(format!("`!{n}` is not allowed here"))
                }
            }
            OperandKind::Imm(e) => {
                if !wants(Want::Imm) {
                    return Err(format!(
                        "an immediate is not allowed here ({})",
                        describe_kinds(kinds)
                    ));
                }
                let kind = ty
                    .and_then(crate::catalogue::types::ptx_type)
                    .map(|t| t.kind);
                use crate::catalogue::types::TypeKind;
                let half = ty
                    .and_then(crate::catalogue::types::ptx_type)
                    .is_some_and(|t| {
                        t.kind == TypeKind::Packed || (t.kind == TypeKind::Float && t.bits == 16)
                    });
                match (e, kind) {
                    // A plain-number operand (`num`) that is not a float takes
                    // no floating-point constant: ptxas 13.0 "Arguments
                    // mismatch" for a cache policy (the 64-bit value of
                    // `createpolicy`, PTX ISA 9.7.9.18; `atom.add.L2::cache_hint.u32
                    // d, [a], b, 0d3FF0...`), `mbarrier.pending_count`'s state
                    // and `bar.red`'s predicate (corpus/legality/arith).
                    (Expr::F32(_) | Expr::F64(_), k)
                        if spec.number_only && k != Some(TypeKind::Float) =>
                    {
                        Err(format!(
                            "a floating-point constant cannot stand for `{}` here (an integer)",
                            spec.name
                        ))
                    }
                    // PTX ISA 4.5.2 has `.f32` and `.f64` floating-point
                    // constants only; ptxas: "Arguments mismatch" for one
                    // standing for a half or packed type
                    // (`cvt.f64.f16 d, 0d3FF0...`, `multimem.st.f16x2 [a], 0f3F80...`).
                    // An integer is a packed type's bit pattern.
                    (Expr::F32(_) | Expr::F64(_), _) if half => Err(format!(
                        "a floating-point constant cannot stand for type `{}`",
                        ty.unwrap_or("")
                    )),
                    // ptxas 13.0 takes a floating-point constant for a
                    // bit-size operand of arithmetic and logic only when its
                    // width is the operand's: `0f` for `.b32`, `0d` for
                    // `.b64` ("Arguments mismatch" for `and.b32 d, 0d3FF0...,
                    // 1`, `popc.b64 d, 0f...`, `selp.b16 d, a, 0f..., p`).
                    (Expr::F32(_) | Expr::F64(_), Some(TypeKind::Bits))
                        if arith_form(b.form)
                            && ty.and_then(crate::catalogue::types::ptx_type).map(|t| t.bits)
                                != Some(if matches!(e, Expr::F32(_)) { 32 } else { 64 }) =>
                    {
                        Err(format!(
                            "a floating-point constant cannot stand for type `{}` here",
                            ty.unwrap_or("")
                        ))
                    }
                    (Expr::Int(_), _) if ty.is_some_and(half_pair) => Err(format!(
                        "an integer constant cannot stand for type `{}`",
                        ty.unwrap_or("")
                    )),
                    (Expr::Int(_), Some(TypeKind::Float)) => Err(format!(
                        "an integer constant cannot stand for type `{}`",
                        ty.unwrap_or("")
                    )),
                    (
                        Expr::F32(_) | Expr::F64(_),
                        Some(TypeKind::Unsigned | TypeKind::Signed | TypeKind::Pred),
                    ) => Err(format!(
                        "a floating-point constant cannot stand for type `{}`",
                        ty.unwrap_or("")
                    )),
                    (Expr::Int(_) | Expr::F32(_) | Expr::F64(_), _) => Ok(()),
                    _ => Err("expected a constant".into()),
                }
            }
            OperandKind::Addr(a) => {
                let tensor = a.coords.is_some();
                if let Some(coords) = &a.coords {
                    // PTX ISA 9.7.9.25.5: one coordinate per dimension; the
                    // gather4/scatter4 modes take five (a column and four rows).
                    let dims = b.values.iter().find_map(|(_, q)| {
                        q.strip_prefix('.')
                            .and_then(|d| d.strip_suffix('d'))
                            .and_then(|d| d.parse::<usize>().ok())
                    });
                    let four = b.has(".tile::gather4") || b.has(".tile::scatter4");
                    let want = if four { Some(5) } else { dims };
                    if let Some(n) = want {
                        if coords.len() != n {
                            return Err(format!(
                                "expects {n} tensor coordinates, found {}",
                                coords.len()
                            ));
                        }
                    }
                }
                if tensor && !wants(Want::TensorAddr) {
                    return Err("a tensor address `[map, {...}]` is not allowed here".into());
                }
                if !tensor && !wants(Want::Addr) {
                    return Err(format!(
                        "an address is not allowed here ({})",
                        describe_kinds(kinds)
                    ));
                }
                match &a.base {
                    Some(base) if !special_register(base) => match self.lookup(base, scope) {
                        Some(Symbol::Reg(".pred")) => {
                            Err(format!("`{base}` is a predicate, not an address"))
                        }
                        // PTX ISA 9.7.9.25.5.2: "The operand tensorMap is the
                        // generic address of the opaque tensor-map object";
                        // a parameter's name is a .param address (ptxas:
                        // "State space mismatch between instruction and
                        // address")
                        Some(Symbol::EntryParam | Symbol::Var(".param")) if tensor => Err(format!(
                            "the tensor map is a generic address: `{base}` is a .param address (take it with mov and cvta.param)"
                        )),
                        Some(Symbol::VecReg(ety, len)) => Err(format!(
                            "`{base}` is a .v{len} `{ety}` vector register, not an address"
                        )),
                        Some(_) => Ok(()),
                        None => Err(self.undeclared(base, scope)),
                    },
                    Some(base) => Err(format!("special register `{base}` cannot be an address")),
                    None => Ok(()),
                }
            }
            OperandKind::Vector(items) => {
                if !wants(Want::Vec) {
                    // A brace list of one element where the instruction
                    // takes one for a scalar (`crate::opcodes::
                    // braces_may_hold_a_scalar`; PTX ISA 6.4.3 is silent on
                    // one-element vectors): the element stands for the
                    // operand.
                    if let [only] = items.as_slice() {
                        let plain = matches!(&only.kind, OperandKind::Name(n) if n != "_")
                            || matches!(only.kind, OperandKind::Imm(_));
                        if plain && crate::opcodes::braces_may_hold_a_scalar(&b.form.opcode) {
                            return self.operand(only, spec, ty, b, scope);
                        }
                    }
                    return Err(format!(
                        "a vector operand is not allowed here ({})",
                        describe_kinds(kinds)
                    ));
                }
                if let Some(n) = vector_length(spec, b) {
                    if items.len() != n {
                        return Err(format!("expects a vector of {n}, found {}", items.len()));
                    }
                }
                let elem = without_partner(spec);
                let elem = crate::catalogue::OperandSpec {
                    kinds: vec![Want::Reg, Want::Imm],
                    vec_len: None,
                    ..elem
                };
                let is_sink = |o: &Operand| matches!(&o.kind, OperandKind::Name(n) if n == "_");
                for item in items {
                    if matches!(item.kind, OperandKind::Vector(_) | OperandKind::Addr(_)) {
                        return Err("vector elements must be registers".into());
                    }
                    if is_sink(item) {
                        if !spec.sink {
                            return Err("the sink `_` is not allowed in this vector".into());
                        }
                        continue;
                    }
                    self.operand(item, &elem, ty, b, scope)?;
                }
                // PTX ISA 9.7.9.4: "provided that at least one element is a
                // scalar register".
                if !items.is_empty() && items.iter().all(is_sink) {
                    return Err("a vector of sinks `_` only: at least one element must be a register".into());
                }
                Ok(())
            }
            OperandKind::Paren(_) => Err("a parenthesised list is not allowed here".into()),
        }
    }

    /// The address of a variable or function in a register of type `ty`:
    /// 64-bit, or 32-bit for `.shared` variables (whose window is 32-bit).
    fn address_width(&self, name: &str, sym: &Symbol, ty: Option<&str>) -> Result<(), String> {
        let Some(t) = ty.and_then(crate::catalogue::types::ptx_type) else {
            return Ok(());
        };
        use crate::catalogue::types::TypeKind;
        if !matches!(
            t.kind,
            TypeKind::Bits | TypeKind::Unsigned | TypeKind::Signed
        ) {
            return Err(format!(
                "the address of `{name}` cannot be held in type `{}`",
                t.name
            ));
        }
        // The `.shared` and `.local` windows are 32-bit (`cvta.to.shared.u32`,
        // `cvta.to.local.u32`; ptxas accepts `mov.u32 %r, lvar`).
        let shared = matches!(sym, Symbol::Var(".shared" | ".local"));
        if t.bits == 32 && self.address_bits == 64 && !shared {
            return Err(format!(
                "the address of `{name}` is 64-bit under `.address_size 64`; `{}` is 32-bit",
                t.name
            ));
        }
        Ok(())
    }

    /// A variable used as an address must live in the state space the
    /// instruction addresses; kernel parameters are read-only.
    fn memory_space(
        &self,
        ins: &Instruction,
        op: &Operand,
        expected: Option<&str>,
        scope: &[Scope],
    ) -> Result<(), String> {
        let name = match &op.kind {
            OperandKind::Addr(Address {
                base: Some(b),
                coords: None,
                ..
            }) => b,
            OperandKind::Name(n) | OperandKind::NameOffset(n, _) => n,
            _ => return Ok(()),
        };
        let space = match self.lookup(name, scope) {
            Some(Symbol::Var(s)) => s,
            Some(Symbol::EntryParam) => {
                if ins.opcode == "st" {
                    return Err(format!(
                        "`{name}` is a kernel parameter, which is read-only"
                    ));
                }
                ".param"
            }
            _ => return Ok(()),
        };
        match expected {
            Some(e) if space_of(space) != Some(e) => Err(format!(
                "`{name}` is in `{space}`, but this operand addresses `{e}`"
            )),
            // An mbarrier object lives in shared memory (PTX ISA 9.7.13.15.1);
            // ptxas 13.0 refuses another space's variable as the address of
            // the generic forms ("Illegal state space for address operand",
            // corpus/legality/arith)
            None if ins.opcode == "mbarrier" && space_of(space) != Some(".shared") => Err(format!(
                "`{name}` is in `{space}`: an mbarrier object is in shared memory"
            )),
            // ptxas 13.0 (2026-11-27, `semantics/tests/declaration_rules.rs`):
            // the generic form of `prefetch.tensormap` takes a `.global`
            // variable's name, not a `.const` or `.param` one ("State space
            // mismatch between instruction and address"); the forms that
            // name the space take them
            None if ins.opcode == "prefetch"
                && ins.quals.iter().any(|q| q == ".tensormap")
                && matches!(space, ".const" | ".param") =>
            {
                Err(format!(
                    "`{name}` is in `{space}`: the generic `prefetch.tensormap` takes a generic address; name the space (`prefetch{space}.tensormap`)"
                ))
            }
            _ => Ok(()),
        }
    }

    /// What ptxas 13.0 requires of a `.global` or generic address beyond the
    /// grammar (2026-11-27, small modules on sm_75, sm_80 and sm_90;
    /// `corpus/realworld/README.md`):
    /// - in a register, 64 bits (PTX ISA 6.4.1: generic addresses "are
    ///   64-bit" under `.address_size 64`): a 32-bit register as the address
    ///   of `ld`, `ld.global.nc`, `st`, `atom`, `red` or `prefetch` is
    ///   "Program uses 32-bit address ... conflicting with .address_size
    ///   64", then fatal ("32-Bit compilation is no longer supported",
    ///   "32-Bit ABI ... is not supported on sm_90 or higher"); in a module
    ///   with no `.address_size` the same register makes ptxas take the
    ///   module as 32-bit, with the same fatal end. `.shared`, `.local`,
    ///   `.const` and `.param` addresses in 32-bit registers are accepted,
    ///   and so is a 32-bit `.global` source of `cp.async` and
    ///   `cp.async.bulk` (the legality corpus); instructions not probed are
    ///   not checked.
    /// - not an immediate in `.global` ("Immediate addresses allowed only
    ///   for .local state space").
    fn address_form(
        &self,
        ins: &Instruction,
        op: &Operand,
        expected: Option<&str>,
        scope: &[Scope],
    ) -> Result<(), String> {
        let OperandKind::Addr(Address {
            base, coords: None, ..
        }) = &op.kind
        else {
            return Ok(());
        };
        let Some(base) = base else {
            return match expected {
                Some(".global") => Err(
                    "an immediate address is allowed only in `.local` (ptxas: \"Immediate addresses allowed only for .local state space\")"
                        .into(),
                ),
                _ => Ok(()),
            };
        };
        let probed = matches!(
            ins.opcode.as_str(),
            "ld" | "st" | "atom" | "red" | "prefetch"
        );
        if !probed || !matches!(expected, None | Some(".global")) {
            return Ok(());
        }
        let Some(Symbol::Reg(ty)) = self.lookup(base, scope) else {
            return Ok(());
        };
        let narrow = crate::catalogue::types::ptx_type(ty).is_some_and(|t| t.bits == 32);
        if !narrow {
            return Ok(());
        }
        let space = expected.unwrap_or("generic");
        Err(if self.explicit_address_size {
            format!(
                "`{base}` is a 32-bit register, but a {space} address is 64-bit under `.address_size 64` (32-bit addressing is not supported by any target ptxas 13.0 compiles for)"
            )
        } else {
            format!(
                "`{base}` is a 32-bit register holding a {space} address: with no `.address_size`, ptxas takes the module as 32-bit, which no target it compiles for supports"
            )
        })
    }

    /// The addresses of an instruction outside the catalogues (`atom`,
    /// `red`, `mbarrier`...): the k-th `[...]` operand addresses the k-th
    /// state space written in the qualifiers, generic when there is none.
    fn unlisted_addresses(&mut self, ins: &Instruction, scope: &[Scope]) {
        // only the probed forms: `atom` and `red` with one address (not
        // `red.async`, whose mbarrier is a second `.shared::cluster` one)
        if ins
            .quals
            .iter()
            .any(|q| q == ".async" || q.starts_with(".mbarrier"))
        {
            return;
        }
        let mut spaces = ins.quals.iter().filter_map(|q| space_of(q));
        for op in &ins.operands {
            if !matches!(op.kind, OperandKind::Addr(_)) {
                continue;
            }
            let expected = spaces.next();
            if let Err(msg) = self.address_form(ins, op, expected, scope) {
                self.diag(
                    op.span,
                    "state-space",
                    None,
                    format!("`{}` operand: {msg}", ins.full_opcode()),
                );
                return;
            }
        }
    }

    fn register_of(&self, op: &Operand, ty: &str, scope: &[Scope]) -> Result<(), String> {
        let name = match &op.kind {
            OperandKind::Name(n) | OperandKind::Not(n) => n,
            _ => return Err(format!("expected a `{ty}` register")),
        };
        if name == "_" {
            return Err(format!(
                "the sink `_` cannot stand for a `{ty}` register here"
            ));
        }
        match self.lookup(name, scope) {
            Some(Symbol::Reg(rt)) if register_fits(rt, ty, crate::catalogue::Fit::Exact) => Ok(()),
            Some(Symbol::Reg(rt)) => Err(format!("`{name}` is `{rt}`, expected `{ty}`")),
            Some(Symbol::VecReg(..)) => Err(format!("`{name}` is a vector, expected `{ty}`")),
            _ => Err(format!("`{name}` is not a declared `{ty}` register")),
        }
    }
}

/// `red.async` (PTX ISA 9.7.13.7) shares its first word with `red`
/// (9.7.13.6) but not its forms: it stays outside the catalogues.
fn red_async(ins: &Instruction) -> bool {
    ins.opcode == "red" && ins.quals.first().is_some_and(|q| q == ".async")
}

/// Whether `spec` is the first operand of its form (the destination).
/// An mbarrier's operation words (`.arrive`, `.expect_tx`, `.parity`...)
/// come first, in the syntax's order; its other qualifiers may follow in
/// any order. ptxas 13.0 refuses `mbarrier.b64.init`,
/// `mbarrier.expect_tx.arrive` and `mbarrier.try_wait.shared::cta.parity`
/// ("Unknown modifier") and takes `mbarrier.init.b64.shared::cta` and
/// `mbarrier.arrive.cta.release.shared::cta.b64` (corpus/legality/arith).
fn mbarrier_operation_order(ins: &Instruction) -> Option<String> {
    if ins.opcode != "mbarrier" {
        return None;
    }
    const MAIN: &[&str] = &[
        ".init",
        ".inval",
        ".arrive",
        ".arrive_drop",
        ".expect_tx",
        ".complete_tx",
        ".test_wait",
        ".try_wait",
        ".pending_count",
    ];
    const SECOND: &[&str] = &[".expect_tx", ".noComplete", ".parity"];
    let first = ins.quals.first()?;
    if !MAIN.contains(&first.as_str()) {
        return Some(format!(
            "`{}`: the operation (`.init`, `.arrive`, `.try_wait`...) comes first after `mbarrier`",
            ins.full_opcode()
        ));
    }
    let misplaced = ins
        .quals
        .iter()
        .enumerate()
        .skip(2)
        .find(|(_, q)| MAIN.contains(&q.as_str()) || SECOND.contains(&q.as_str()));
    match misplaced {
        Some((_, q)) => Some(format!(
            "`{}`: `{q}` belongs right after the operation it qualifies",
            ins.full_opcode()
        )),
        None if ins
            .quals
            .get(1)
            .is_some_and(|q| MAIN.contains(&q.as_str()) && q != ".expect_tx") =>
        {
            Some(format!(
                "`{}`: one operation per mbarrier instruction",
                ins.full_opcode()
            ))
        }
        None => None,
    }
}

/// The forms whose first operand is read, not written: the barriers
/// (`bar.sync a`, `bar.warp.sync membermask`; PTX ISA 9.7.13.1-2).
fn first_operand_is_a_source(form: &crate::catalogue::Form) -> bool {
    matches!(
        form.row.id,
        "bar.sync" | "bar.arrive" | "barrier.sync" | "barrier.arrive" | "bar.warp.sync"
    )
}

fn index_is_destination(spec: &crate::catalogue::OperandSpec, b: &Binding) -> bool {
    b.form
        .operands
        .first()
        .is_some_and(|first| std::ptr::eq(first, spec))
}

/// The qualifiers of an instruction of the arithmetic catalogue as ptxas
/// 13.0 reads them (corpus/legality/arith): a repeated `.sat`, `.cc`,
/// `.approx` or `.NaN` counts once (`add.sat.sat.s32`, `subc.cc.s32.cc`,
/// `min.NaN.NaN.f32` assemble), and `.pred` beside another type is ignored
/// (`add.u32.pred`, `max.f16.pred`, `rcp.rz.f64.pred` assemble), except in
/// `div selp testp slct addc mad sad bfind fns lop3` ("Unexpected
/// instruction types");
/// every other repeat stays, for the matcher to refuse ("Multiple rounding
/// modifiers", "Duplicate .ftz modifier").
fn arith_qualifiers(ins: &Instruction) -> Vec<&str> {
    let keeps_pred = matches!(
        ins.opcode.as_str(),
        // ptxas 13.0: "Unexpected instruction types" for `.pred` added to
        // `mbarrier.arrive...b64` and `bar.red.popc.u32` (corpus/legality/arith)
        "mbarrier"
            | "bar"
            | "barrier"
            | "and"
            | "or"
            | "xor"
            | "not"
            | "cnot"
            | "div"
            | "selp"
            | "testp"
            | "slct"
            | "addc"
            | "mad"
            | "sad"
            | "bfind"
            | "fns"
            | "lop3"
    );
    let other_type = ins.quals.iter().any(|q| {
        q != ".pred"
            && (crate::catalogue::types::ptx_type(q).is_some()
                || matches!(q.as_str(), ".u16x2" | ".s16x2" | ".f32x2"))
    });
    let mut out: Vec<&str> = Vec::with_capacity(ins.quals.len());
    for q in &ins.quals {
        let q = q.as_str();
        if matches!(q, ".sat" | ".cc" | ".approx" | ".NaN") && out.contains(&q) {
            continue;
        }
        if q == ".pred" && other_type && !keeps_pred {
            continue;
        }
        out.push(q);
    }
    out
}

/// ptxas 13.0 reads `.hi` and `.lo` written after the instruction type as
/// comparison operators: `mul.u32.lo` ("Unexpected instruction types"),
/// `dp2a.u32.s32.hi` ("'.hi/.lo' modifier required", "Comparison
/// qualifier is not allowed"), and refuses them after `.cc`
/// (`mad.cc.lo.u32`, `madc.cc.hi.u32`) and `.wide` after the type
/// (`mul.u32.wide`: "Unknown modifier"). The mode of `mul mad mul24 mad24
/// madc dp2a` comes before `.cc` and the type.
fn arith_mode_after_type(ins: &Instruction) -> Option<String> {
    if !matches!(
        ins.opcode.as_str(),
        "mul" | "mad" | "mul24" | "mad24" | "madc" | "dp2a"
    ) {
        return None;
    }
    let first = ins
        .quals
        .iter()
        .position(|q| q == ".cc" || crate::catalogue::types::ptx_type(q).is_some())?;
    let late = ins.quals[first..]
        .iter()
        .find(|q| matches!(q.as_str(), ".hi" | ".lo" | ".wide"))?;
    Some(format!(
        "`{}`: the mode `{late}` comes before `.cc` and the type (written after them, ptxas reads `.hi`/`.lo` as comparison operators and `.wide` as unknown)",
        ins.full_opcode()
    ))
}

/// Register rules of the arithmetic forms that differ from 6.4.1's table,
/// from ptxas 13.0's verdicts (corpus/legality/arith): the packed integer
/// and `.f32x2` forms take bit-size registers only ("Arguments mismatch"
/// for `.u32`, `.s32`, `.f32` registers of `add.u16x2`, `.u64`, `.s64`,
/// `.f64` ones of `add.f32x2`). `None`: the table decides.
fn arith_register(
    name: &str,
    reg: &str,
    want: Option<&str>,
    b: &Binding,
) -> Option<Result<(), String>> {
    let packed = b.has(".u16x2") || b.has(".s16x2") || b.has(".f32x2");
    let want = want?;
    let w = crate::catalogue::types::ptx_type(want)?;
    let r = crate::catalogue::types::ptx_type(reg)?;
    use crate::catalogue::types::TypeKind;
    if packed && w.kind == TypeKind::Bits && w.bits >= 32 && r.kind != TypeKind::Bits {
        return Some(Err(format!(
            "register `{name}` is `{reg}`: the packed forms take a bit-size `{want}` register"
        )));
    }
    None
}

/// Whether a form is one of the arithmetic catalogue's (PTX ISA 9.7.1 to
/// 9.7.7), whose operand rules differ from 9.7.9's in places ptxas 13.0
/// showed (corpus/legality/arith).
fn arith_form(form: &Form) -> bool {
    !form.row.section.starts_with("9.7.9")
}

/// The names one block declares: plain names, and `%r<N>` ranges by stem.
#[derive(Default)]
struct Scope {
    names: HashMap<String, Symbol, Fnv>,
    /// Each range's symbol and count.
    ranges: Vec<(String, Symbol, u32)>,
}

/// A fast hash for the short names of a PTX module, eight bytes at a
/// step (no hostile input can do more than slow one check down).
#[derive(Clone, Copy, Default)]
pub struct Fnv;

/// Rotate, xor and multiply per 8-byte word; mixed once more at the end,
/// so that the low bits (the table slot) and the high bits (the tag) both
/// depend on every byte.
pub struct FnvHasher(u64);

impl FnvHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl std::hash::BuildHasher for Fnv {
    type Hasher = FnvHasher;
    fn build_hasher(&self) -> FnvHasher {
        FnvHasher(0)
    }
}

impl std::hash::Hasher for FnvHasher {
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^ (h >> 33)
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let mut word = [0u8; 8];
            word.copy_from_slice(w);
            self.add(u64::from_le_bytes(word));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }
    fn write_u8(&mut self, b: u8) {
        self.add(u64::from(b));
    }
}

/// A declared type as a static name (`"?"` for an unknown one, which the
/// declaration check reports).
fn intern_type(ty: &str) -> &'static str {
    crate::catalogue::types::ptx_type(ty).map_or("?", |t| t.name)
}

/// A state space as a static name.
fn intern_space(space: &str) -> &'static str {
    const SPACES: &[&str] = &[
        ".reg", ".sreg", ".const", ".global", ".local", ".param", ".shared", ".tex",
    ];
    SPACES.iter().copied().find(|s| *s == space).unwrap_or("?")
}

/// The state space a qualifier names, folding sub-qualifiers
/// (`.shared::cluster` is `.shared`).
fn space_of(q: &str) -> Option<&'static str> {
    let base = q
        .as_bytes()
        .iter()
        .position(|&b| b == b':')
        .map_or(q, |i| &q[..i]);
    Some(match base {
        ".shared" => ".shared",
        ".global" => ".global",
        ".local" => ".local",
        ".const" => ".const",
        ".param" => ".param",
        _ => return None,
    })
}

/// The type of a special register (PTX ISA 10): 64-bit for clocks, timers,
/// `%gridid` and the graph handle, 32-bit otherwise.
fn special_register_type(name: &str) -> &'static str {
    let base = name.split('.').next().unwrap_or(name);
    match base {
        "%clock64" | "%globaltimer" | "%gridid" | "%current_graph_exec" => ".u64",
        "%is_explicit_cluster" => ".pred",
        b if b.starts_with("%pm") && b.ends_with("_64") => ".u64",
        b if b.starts_with("%envreg") => ".b32",
        _ => ".u32",
    }
}

/// The type an operand wants, from its notation and the binding.
fn resolve_type(ty: Option<&'static TypeRef>, b: &Binding<'static>) -> Option<&'static str> {
    match ty? {
        TypeRef::Slot(s) => b.get(s),
        TypeRef::Literal(t) => Some(t.as_str()),
        TypeRef::Divided(s, n) => {
            let bits = crate::catalogue::types::ptx_type(b.get(s)?)?.bits / n;
            Some(match bits {
                8 => ".b8",
                16 => ".b16",
                32 => ".b32",
                64 => ".b64",
                128 => ".b128",
                _ => return None,
            })
        }
    }
}

/// The length a vector operand must have: fixed by the form (`vec<2>`) or
/// by its `.vec` qualifier (`.v4` gives 4).
fn vector_length(spec: &crate::catalogue::OperandSpec, b: &Binding) -> Option<usize> {
    match &spec.vec_len {
        Some(VecLen::Fixed(n)) => Some(*n),
        Some(VecLen::Slot(s)) => b
            .get(s)
            .and_then(|q| q.strip_prefix(".v"))
            .and_then(|n| n.parse().ok()),
        None => None,
    }
}

/// The element a vector selector names (PTX ISA 6.4.3: "Vector elements
/// can be extracted from the vector with the suffixes .x, .y, .z and .w, as
/// well as the typical color fields .r, .g, .b and .a").
pub fn element_index(selector: &str) -> Option<u8> {
    Some(match selector {
        "x" | "r" => 0,
        "y" | "g" => 1,
        "z" | "b" => 2,
        "w" | "a" => 3,
        _ => return None,
    })
}

/// What is wrong with a vector register declaration `.reg .vN ty`, if
/// anything. PTX ISA 5.4.2: "Vectors of length 2 and 4 of any
/// non-predicate fundamental type can be declared by prefixing the type
/// with .v2 or .v4"; "Vectors cannot exceed 128-bits in length; for
/// example, .v4 .f64 is not allowed." (The 256-bit `ld`/`st` of 9.7.9.8
/// take brace lists.)
fn vector_register_problem(ty: &str, n: u32) -> Option<String> {
    let t = crate::catalogue::types::ptx_type(ty)?;
    if t.kind == crate::catalogue::types::TypeKind::Pred {
        return Some(format!(
            "`.v{n} {ty}`: vectors of predicates cannot be declared"
        ));
    }
    if n != 2 && n != 4 {
        return Some(format!(
            "`.v{n} {ty}`: vectors of length 2 and 4 can be declared"
        ));
    }
    let bits = t.bits * n;
    (bits > 128).then(|| format!("`.v{n} {ty}` is {bits} bits: a vector cannot exceed 128 bits"))
}

/// The half-precision pairs, which ptxas treats as floating-point: an
/// integer constant does not stand for one ("Arguments mismatch" for
/// `multimem.red.add.bf16x2 [a], 4`), though it does for the 8-bit and
/// narrower packed formats and `.bf16` (their bit patterns).
fn half_pair(ty: &str) -> bool {
    matches!(ty, ".f16x2" | ".bf16x2")
}

fn without_partner(spec: &crate::catalogue::OperandSpec) -> crate::catalogue::OperandSpec {
    crate::catalogue::OperandSpec {
        pred_partner: None,
        ..spec.clone()
    }
}

fn describe_kinds(kinds: &[Want]) -> String {
    let names: Vec<&str> = kinds
        .iter()
        .map(|k| match k {
            Want::Reg => "a register",
            Want::Pred => "a predicate",
            Want::Imm => "an immediate",
            Want::Addr => "an address",
            Want::TensorAddr => "a tensor address",
            Want::Vec => "a vector",
            Want::Sym => "a variable name",
            Want::Sreg => "a special register",
        })
        .collect();
    format!("expects {}", names.join(" or "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checking on several threads finds exactly what one thread finds, in
    /// the same order.
    #[test]
    fn threads_do_not_change_findings() {
        let mut src = String::from(".version 8.0\n.target sm_90\n.address_size 64\n");
        for i in 0..40 {
            src.push_str(&format!(
                ".visible .entry k{i}(.param .u64 p)\n{{\n\t.reg .b16 %h<3>;\n\t.reg .f32 %f<3>;\n\t.reg .b32 %r<3>;\n\
                 \tcvt.rn.f16.f32 %h1, %f1;\n\tcvt.f16.f32 %h1, %f{};\n\tprmt.b32 %r1, %r2, %r{}, 0x3210;\n\tret;\n}}\n",
                i % 3,
                i % 5
            ));
        }
        let m = crate::ptx::parse(&src).expect("parses");
        let one = check_module(
            &m,
            &Options {
                threads: Some(1),
                ..Default::default()
            },
        );
        let four = check_module(
            &m,
            &Options {
                threads: Some(4),
                ..Default::default()
            },
        );
        assert!(one.len() >= 40, "{}", one.len());
        assert_eq!(one, four);
    }

    /// The tensor map operand is a generic address: a parameter's name is
    /// refused, its generic address taken with `cvta.param` is not.
    #[test]
    fn a_tensor_map_is_a_generic_address() {
        let kernel = |map: &str| {
            format!(
                ".version 8.7\n.target sm_90a\n.address_size 64\n\
                 .visible .entry k(.param .align 64 .b8 m[128])\n{{\n\t.reg .b64 %rd<2>;\n\
                 \t.shared .align 128 .b8 sh[128];\n\t.shared .align 8 .b64 bar;\n\
                 \tmov.b64 %rd1, m;\n\tcvta.param.u64 %rd1, %rd1;\n\
                 \tcp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [sh], [{map}, {{0}}], [bar];\n\
                 \tret;\n}}\n"
            )
        };
        let check = |map: &str| {
            let m = crate::ptx::parse(&kernel(map)).expect("parses");
            check_module(&m, &Options::default())
        };
        assert!(check("%rd1").is_empty(), "{:?}", check("%rd1"));
        let d = check("m");
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(d[0].message.contains("generic address"), "{d:?}");
    }
}
