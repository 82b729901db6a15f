//! Printing a syntax tree and parsing it back gives the same tree: for random
//! well-formed modules built by a quickcheck generator, and for every nvcc
//! corpus file and the hand-written sample.

use ptx_semantics::ptx::ast::*;
use ptx_semantics::ptx::{line_col, parse, print, Span};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
use std::path::PathBuf;

const SP: Span = Span::new(0, 0);

/// Words never generated as names, so that no name reads as a keyword.
const RESERVED: &[&str] = &[
    "generic",
    "reg",
    "sreg",
    "entry",
    "func",
    "global",
    "const",
    "shared",
    "local",
    "param",
    "tex",
    "version",
    "target",
    "address_size",
    "pragma",
    "loc",
    "file",
    "section",
    "align",
    "ptr",
    "visible",
    "extern",
    "weak",
    "common",
    "maxntid",
    "reqntid",
    "minnctapersm",
    "noreturn",
];

const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const IDENT_CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$";

const TYPES: &[&str] = &[
    ".b8", ".b16", ".b32", ".b64", ".b128", ".u8", ".u16", ".u32", ".u64", ".s8", ".s16", ".s32",
    ".s64", ".f16", ".f16x2", ".bf16", ".f32", ".f64", ".pred",
];

const QUALS: &[&str] = &[
    ".rn",
    ".rz",
    ".rm",
    ".rp",
    ".rni",
    ".sat",
    ".ftz",
    ".approx",
    ".wide",
    ".lo",
    ".hi",
    ".u32",
    ".s32",
    ".b32",
    ".f32",
    ".f16",
    ".u64",
    ".b64",
    ".pred",
    ".global",
    ".shared",
    ".const",
    ".local",
    ".param",
    ".shared::cta",
    ".shared::cluster",
    ".L2::128B",
    ".L2::cache_hint",
    ".L1::no_allocate",
    ".mbarrier::complete_tx::bytes",
    ".v2",
    ".v4",
    ".v8",
    ".2d",
    ".3d",
    ".x4",
    ".sync",
    ".aligned",
    ".uni",
    ".nc",
    ".ca",
    ".cg",
    ".tile",
    ".relaxed",
    ".acquire",
    ".gpu",
    ".sys",
    ".m16n8k16",
    ".row",
    ".col",
    ".trans",
];

const SPECIAL: &[&str] = &[
    "%tid.x",
    "%tid.y",
    "%tid.z",
    "%ntid.x",
    "%ctaid.x",
    "%nctaid.y",
    "%laneid",
    "%warpid",
    "%clock64",
    "%smid",
    "%cluster_ctarank",
    "%r1.x",
    "%rd2.w",
];

/// A random source with small helpers on top of quickcheck's `Gen`.
struct R<'g> {
    g: &'g mut Gen,
    /// Nesting budget for blocks, operands, initializers and expressions.
    depth: u32,
}

impl R<'_> {
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            u64::arbitrary(self.g) % n
        }
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }

    fn size(&self) -> u64 {
        self.g.size().max(1) as u64
    }

    fn chars(&mut self, s: &mut String, from: &[u8], n: u64) {
        for _ in 0..n {
            s.push(self.pick(from) as char);
        }
    }

    /// `[a-zA-Z][a-zA-Z0-9_$]*` or `[_$%][a-zA-Z0-9_$]+`, never a reserved
    /// word.
    fn ident(&mut self) -> String {
        loop {
            let s = match self.below(4) {
                0 | 1 => self.letter_ident(),
                2 => self.reg_ident(),
                _ => {
                    let mut s = String::from(self.pick(&["_", "$"]));
                    let n = 1 + self.below(8);
                    self.chars(&mut s, IDENT_CHARS, n);
                    s
                }
            };
            if !RESERVED.contains(&s.trim_start_matches(['%', '_', '$'])) {
                return s;
            }
        }
    }

    /// An identifier that does not start with `%` (it may carry `+offset`).
    fn plain_ident(&mut self) -> String {
        loop {
            let s = self.ident();
            if !s.starts_with('%') {
                return s;
            }
        }
    }

    fn letter_ident(&mut self) -> String {
        loop {
            let mut s = String::new();
            self.chars(&mut s, LETTERS, 1);
            let n = self.below(10);
            self.chars(&mut s, IDENT_CHARS, n);
            if !RESERVED.contains(&s.as_str()) {
                return s;
            }
        }
    }

    fn reg_ident(&mut self) -> String {
        match self.below(3) {
            0 => format!(
                "%{}{}",
                self.pick(&["r", "rd", "f", "fd", "p", "rs"]),
                self.below(300)
            ),
            _ => {
                let mut s = String::from("%");
                let n = 1 + self.below(8);
                self.chars(&mut s, IDENT_CHARS, n);
                s
            }
        }
    }

    /// An integer as the parser keeps it: within `i64::MIN..=u64::MAX`.
    fn int(&mut self) -> i128 {
        match self.below(8) {
            0 => self.pick(&[
                0,
                1,
                -1,
                i64::MIN as i128,
                i64::MAX as i128,
                i64::MAX as i128 + 1,
                u64::MAX as i128,
                u32::MAX as i128,
            ]),
            1 => u64::arbitrary(self.g) as i128,
            2 => i64::arbitrary(self.g) as i128,
            _ => self.below(200) as i128 - 100,
        }
    }

    fn qual(&mut self) -> String {
        if self.chance(80) {
            return self.pick(QUALS).to_string();
        }
        let mut s = String::from(".");
        let n = 1 + self.below(6);
        self.chars(&mut s, IDENT_CHARS, n);
        if self.chance(30) {
            s.push_str("::");
            let n = 1 + self.below(6);
            self.chars(&mut s, IDENT_CHARS, n);
        }
        s
    }

    // ---- constant expressions ----

    /// A literal constant.
    fn literal(&mut self) -> Expr {
        match self.below(4) {
            0 | 1 => Expr::Int(self.int()),
            2 => Expr::F32(u32::arbitrary(self.g)),
            _ => Expr::F64(u64::arbitrary(self.g)),
        }
    }

    /// An expression the parser cannot fold: it names a symbol.
    fn symbolic(&mut self) -> Expr {
        if self.depth == 0 {
            return if self.chance(50) {
                Expr::Sym(self.ident())
            } else {
                Expr::Generic(self.ident())
            };
        }
        self.depth -= 1;
        let e = match self.below(5) {
            0 => Expr::Sym(self.ident()),
            1 => Expr::Generic(self.ident()),
            2 => Expr::Unary(self.pick(&['-', '~', '!']), Box::new(self.symbolic())),
            _ => {
                let op = self.pick(&[
                    BinOp::Add,
                    BinOp::Sub,
                    BinOp::Mul,
                    BinOp::Div,
                    BinOp::Rem,
                    BinOp::Shl,
                    BinOp::Shr,
                    BinOp::And,
                    BinOp::Or,
                    BinOp::Xor,
                ]);
                let sym = self.symbolic();
                let other = self.expr();
                if self.chance(50) {
                    Expr::Binary(op, Box::new(sym), Box::new(other))
                } else {
                    Expr::Binary(op, Box::new(other), Box::new(sym))
                }
            }
        };
        self.depth += 1;
        e
    }

    fn expr(&mut self) -> Expr {
        if self.chance(60) {
            self.literal()
        } else {
            self.symbolic()
        }
    }

    fn init(&mut self) -> Init {
        if self.depth == 0 || self.chance(60) {
            return Init::Expr(self.expr());
        }
        self.depth -= 1;
        let n = self.below(5);
        let items = (0..n).map(|_| self.init()).collect();
        self.depth += 1;
        Init::List(items)
    }

    // ---- declarations ----

    fn declarator(&mut self, space: &str, ctx: Ctx) -> Declarator {
        let reg = space == ".reg";
        let name = if reg { self.reg_ident() } else { self.ident() };
        let mut range = None;
        let mut dims = Vec::new();
        if reg && self.chance(50) {
            range = Some(match self.below(10) {
                0 => 1 << 24,
                1 => 0,
                _ => self.below(1000) as u32,
            });
        } else if !reg && self.chance(40) {
            let n = 1 + self.below(3);
            for _ in 0..n {
                dims.push(if self.chance(25) {
                    None
                } else if self.chance(10) {
                    Some(u64::arbitrary(self.g))
                } else {
                    Some(self.below(64))
                });
            }
        }
        let init = if ctx == Ctx::Module && !reg && space != ".local" && self.chance(40) {
            Some(self.init())
        } else {
            None
        };
        Declarator {
            name,
            range,
            dims,
            init,
            span: SP,
        }
    }

    fn var(&mut self, ctx: Ctx) -> VarDecl {
        let linkage = match ctx {
            Ctx::Module => {
                let n = self.below(3);
                (0..n)
                    .map(|_| {
                        self.pick(&[".visible", ".extern", ".weak", ".common"])
                            .into()
                    })
                    .collect()
            }
            Ctx::Body if self.chance(10) => vec![self.pick(&[".extern", ".visible"]).into()],
            _ => Vec::new(),
        };
        let space = match ctx {
            Ctx::Module => self.pick(&[".global", ".const", ".shared", ".local"]),
            Ctx::Body => self.pick(&[".reg", ".reg", ".local", ".shared", ".param"]),
            Ctx::EntryParam => ".param",
            Ctx::FuncParam => self.pick(&[".param", ".reg"]),
        }
        .to_string();
        let mut attrs = Vec::new();
        let mut vector = None;
        if matches!(ctx, Ctx::EntryParam | Ctx::FuncParam) && space == ".param" && self.chance(30) {
            attrs.push(".ptr".to_string());
            if self.chance(70) {
                attrs.push(
                    self.pick(&[".global", ".shared", ".const", ".local"])
                        .into(),
                );
            }
        } else {
            if ctx == Ctx::Module && space == ".global" && self.chance(10) {
                attrs.push(".attribute(.managed)".into());
            }
            if self.chance(15) {
                vector = Some(self.pick(&[2, 4, 8]));
            }
        }
        let align = self
            .chance(40)
            .then(|| 1u64 << self.pick(&[0, 1, 2, 3, 4, 7, 12, 63]));
        let ty = if self.chance(95) {
            self.pick(TYPES).to_string()
        } else {
            self.qual()
        };
        let ty = if matches!(ty.as_str(), ".align" | ".v2" | ".v4" | ".v8" | ".ptr")
            || ty.starts_with(".attribute")
            || matches!(ty.as_str(), ".const" | ".global" | ".local" | ".shared")
        {
            ".b32".to_string()
        } else {
            ty
        };
        let count = match ctx {
            Ctx::Module | Ctx::Body => 1 + self.below(3),
            _ => 1,
        };
        let names = (0..count).map(|_| self.declarator(&space, ctx)).collect();
        VarDecl {
            linkage,
            space,
            attrs,
            align,
            vector,
            ty,
            names,
            span: SP,
        }
    }

    // ---- operands and instructions ----

    fn name_operand(&mut self) -> String {
        match self.below(6) {
            0 => self.pick(SPECIAL).to_string(),
            _ => self.ident(),
        }
    }

    fn simple_operand(&mut self) -> OperandKind {
        match self.below(4) {
            0 => OperandKind::Imm(Expr::Int(self.int())),
            1 => OperandKind::Not(self.ident()),
            _ => OperandKind::Name(self.name_operand()),
        }
    }

    fn list(&mut self) -> Vec<Operand> {
        let n = self.below(5);
        (0..n).map(|_| self.operand()).collect()
    }

    fn operand(&mut self) -> Operand {
        let kind = if self.depth == 0 {
            self.simple_operand()
        } else {
            self.depth -= 1;
            let k = match self.below(12) {
                0 | 1 => OperandKind::Name(self.name_operand()),
                2 => OperandKind::NameOffset(self.plain_ident(), self.int()),
                3 => OperandKind::Not(self.ident()),
                4 => OperandKind::Imm(match self.below(4) {
                    0 => Expr::Generic(self.ident()),
                    1 => Expr::Unary(self.pick(&['-', '~', '!']), Box::new(self.symbolic())),
                    2 => self.symbolic(),
                    _ => self.literal(),
                }),
                5 | 6 => {
                    let base = match self.below(4) {
                        0 => None,
                        1 => Some(self.plain_ident()),
                        _ => Some(self.reg_ident()),
                    };
                    let offset = if base.is_some() && self.chance(50) {
                        0
                    } else {
                        self.int()
                    };
                    let coords = self.chance(15).then(|| self.list());
                    OperandKind::Addr(Address {
                        base,
                        offset,
                        coords,
                    })
                }
                7 => {
                    let mut items = self.list();
                    if self.chance(30) {
                        let at = self.below(items.len() as u64 + 1) as usize;
                        items.insert(
                            at,
                            Operand {
                                kind: OperandKind::Name("_".into()),
                                span: SP,
                            },
                        );
                    }
                    OperandKind::Vector(items)
                }
                8 => OperandKind::Pair(
                    Box::new(Operand {
                        kind: OperandKind::Name(self.name_operand()),
                        span: SP,
                    }),
                    Box::new(Operand {
                        kind: self.simple_operand(),
                        span: SP,
                    }),
                ),
                9 => {
                    // `(!p, ...)` and `((...` read as expressions.
                    let mut items = self.list();
                    while let Some(OperandKind::Not(_) | OperandKind::Paren(_)) =
                        items.first().map(|o| &o.kind)
                    {
                        items.remove(0);
                    }
                    OperandKind::Paren(items)
                }
                _ => OperandKind::Imm(self.literal()),
            };
            self.depth += 1;
            k
        };
        Operand { kind, span: SP }
    }

    fn instruction(&mut self) -> Instruction {
        let guard = self.chance(20).then(|| Guard {
            negated: self.chance(50),
            pred: self.ident(),
            span: SP,
        });
        let opcode = self.letter_ident();
        let nq = self.below(5);
        let quals = (0..nq).map(|_| self.qual()).collect();
        let no = self.below(6);
        let operands = (0..no).map(|_| self.operand()).collect();
        Instruction {
            guard,
            opcode,
            quals,
            operands,
            span: SP,
            opcode_span: SP,
        }
    }

    fn other_token(&mut self) -> String {
        match self.below(6) {
            0 => self.below(1000).to_string(),
            1 => self.ident(),
            2 => self.qual(),
            3 => self
                .pick(&[",", "+", "-", "=", "%", "<", ">", "(", ")", "[", "]"])
                .into(),
            _ => self
                .pick(&[
                    "\"nounroll\"",
                    "\"a.cu\"",
                    "\"\"",
                    "\"x\\\"y\"",
                    "\"/tmp/a b.cu\"",
                ])
                .into(),
        }
    }

    fn other(&mut self, body: bool) -> OtherDirective {
        match self.below(if body { 3 } else { 4 }) {
            0 => OtherDirective {
                name: ".pragma".into(),
                tokens: if self.chance(70) {
                    vec!["\"nounroll\"".into()]
                } else {
                    let n = self.below(4);
                    (0..n).map(|_| self.other_token()).collect()
                },
                terminator: Terminator::Semicolon,
                span: SP,
            },
            1 => OtherDirective {
                name: ".loc".into(),
                tokens: (0..3).map(|_| self.below(5000).to_string()).collect(),
                terminator: Terminator::Line,
                span: SP,
            },
            2 => OtherDirective {
                name: ".file".into(),
                tokens: {
                    let n = self.below(5);
                    (0..n).map(|_| self.other_token()).collect()
                },
                terminator: Terminator::Line,
                span: SP,
            },
            _ => {
                let mut tokens = vec![self.qual()];
                tokens.push("{".into());
                let mut open = 1;
                for _ in 0..self.below(12) {
                    match self.below(8) {
                        0 => {
                            tokens.push("{".into());
                            open += 1;
                        }
                        1 if open > 1 => {
                            tokens.push("}".into());
                            open -= 1;
                        }
                        _ => tokens.push(self.other_token()),
                    }
                }
                tokens.extend(std::iter::repeat_n("}".to_string(), open));
                OtherDirective {
                    name: ".section".into(),
                    tokens,
                    terminator: Terminator::Block,
                    span: SP,
                }
            }
        }
    }

    fn stmts(&mut self, budget: u64) -> Vec<Stmt> {
        let n = self.below(budget + 1);
        let mut out = Vec::new();
        for _ in 0..n {
            let s = match self.below(20) {
                0 | 1 => Stmt::Label(self.ident(), SP),
                2..=4 => Stmt::Var(self.var(Ctx::Body)),
                5 if self.depth > 0 => {
                    self.depth -= 1;
                    let inner = self.stmts(budget / 2);
                    self.depth += 1;
                    Stmt::Block(inner, SP)
                }
                6 => Stmt::Other(self.other(true)),
                _ => Stmt::Instr(self.instruction()),
            };
            out.push(s);
        }
        out
    }

    fn function(&mut self) -> Function {
        let kind = if self.chance(50) {
            FunctionKind::Entry
        } else {
            FunctionKind::Func
        };
        let linkage = {
            let n = self.below(3);
            (0..n)
                .map(|_| self.pick(&[".visible", ".extern", ".weak"]).into())
                .collect()
        };
        let pctx = if kind == FunctionKind::Entry {
            Ctx::EntryParam
        } else {
            Ctx::FuncParam
        };
        let returns = (kind == FunctionKind::Func && self.chance(40)).then(|| {
            let n = self.below(3);
            (0..n).map(|_| self.var(Ctx::FuncParam)).collect()
        });
        let params = self.chance(85).then(|| {
            let n = self.below(5);
            (0..n).map(|_| self.var(pctx)).collect()
        });
        let nd = self.below(4);
        let directives = (0..nd)
            .map(|_| {
                let (name, count) = self.pick(&[
                    (".maxntid", 3),
                    (".maxntid", 1),
                    (".reqntid", 2),
                    (".minnctapersm", 1),
                    (".maxnreg", 1),
                    (".maxclusterrank", 1),
                    (".noreturn", 0),
                    (".explicitcluster", 0),
                    (".pragma", 1),
                ]);
                let values = if name == ".pragma" {
                    let n = self.below(3);
                    (0..n).map(|_| self.other_token()).collect()
                } else {
                    (0..count)
                        .map(|_| {
                            if self.chance(10) {
                                u64::arbitrary(self.g).to_string()
                            } else {
                                (1 + self.below(1024)).to_string()
                            }
                        })
                        .collect()
                };
                FunctionDirective {
                    name: name.into(),
                    values,
                    span: SP,
                }
            })
            .collect();
        let budget = self.size();
        let body = self.chance(80).then(|| self.stmts(budget));
        Function {
            linkage,
            kind,
            returns,
            name: self.ident(),
            params,
            semicolon: body.is_none(),
            directives,
            body,
            span: SP,
        }
    }

    fn item(&mut self) -> Item {
        match self.below(20) {
            0 => Item::Version {
                major: self.pick(&[1, 7, 8, 9, u32::MAX]),
                minor: self.pick(&[0, 1, 7, 9, 10, u32::MAX]),
                span: SP,
            },
            1 => Item::Target {
                names: {
                    let n = 1 + self.below(3);
                    (0..n).map(|_| self.letter_ident()).collect()
                },
                span: SP,
            },
            2 => Item::AddressSize {
                bits: self.pick(&[32, 64]),
                span: SP,
            },
            3..=7 => Item::Var(self.var(Ctx::Module)),
            8 => Item::Other(self.other(false)),
            _ => Item::Function(Box::new(self.function())),
        }
    }

    fn module(&mut self) -> Module {
        let mut items = Vec::new();
        if self.chance(80) {
            items.push(Item::Version {
                major: 9,
                minor: self.below(10) as u32,
                span: SP,
            });
            items.push(Item::Target {
                names: vec![self.pick(&["sm_90a", "sm_80", "sm_100a", "sm_120"]).into()],
                span: SP,
            });
            items.push(Item::AddressSize { bits: 64, span: SP });
        }
        let n = self.below(self.size() / 4 + 1);
        for _ in 0..n {
            let it = self.item();
            items.push(it);
        }
        Module { items }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ctx {
    Module,
    Body,
    EntryParam,
    FuncParam,
}

/// A random well-formed module; shows itself as PTX text.
#[derive(Clone)]
struct GenModule(Module);

impl std::fmt::Debug for GenModule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "\n{}", print(&self.0))
    }
}

impl Arbitrary for GenModule {
    fn arbitrary(g: &mut Gen) -> Self {
        let mut r = R { g, depth: 3 };
        GenModule(r.module())
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let m = self.0.clone();
        let mut out = Vec::new();
        for i in 0..m.items.len() {
            let mut smaller = m.clone();
            smaller.items.remove(i);
            out.push(GenModule(smaller));
        }
        for (i, item) in m.items.iter().enumerate() {
            if let Item::Function(f) = item {
                if let Some(body) = &f.body {
                    for k in 0..body.len() {
                        let mut smaller = m.clone();
                        if let Item::Function(g) = &mut smaller.items[i] {
                            if let Some(b) = &mut g.body {
                                b.remove(k);
                            }
                        }
                        out.push(GenModule(smaller));
                    }
                }
            }
        }
        Box::new(out.into_iter())
    }
}

/// The first top-level item where two modules differ, for failure messages.
fn first_difference(a: &Module, b: &Module) -> String {
    for (i, (x, y)) in a.items.iter().zip(&b.items).enumerate() {
        if x != y {
            return format!("item {i} differs:\n  expected {x:?}\n  got      {y:?}");
        }
    }
    format!(
        "item counts differ: expected {}, got {}",
        a.items.len(),
        b.items.len()
    )
}

fn roundtrip_property(m: GenModule) -> TestResult {
    let text = print(&m.0);
    let back = match parse(&text) {
        Ok(back) => back,
        Err(e) => {
            let (l, c) = line_col(&text, e.at);
            return TestResult::error(format!(
                "printed text fails to parse at {l}:{c}: {}",
                e.message
            ));
        }
    };
    if back != m.0 {
        return TestResult::error(format!(
            "parse(print(m)) != m: {}",
            first_difference(&m.0, &back)
        ));
    }
    let again = print(&back);
    if again != text {
        return TestResult::error(format!("printing is not stable:\n{text}\n---\n{again}"));
    }
    TestResult::passed()
}

#[test]
fn generated_modules_roundtrip() {
    // `PTX_ROUNDTRIP_CASES` runs more.
    let cases = std::env::var("PTX_ROUNDTRIP_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000u64);
    let passed = QuickCheck::new()
        .tests(cases)
        .max_tests(cases)
        .rng(Gen::new(24))
        .quicktest(roundtrip_property as fn(GenModule) -> TestResult)
        .unwrap_or_else(|r| panic!("{r:?}"));
    assert!(passed >= cases, "only {passed} of {cases} cases ran");
}

/// A few fixed seeds, so a failure can be reproduced exactly.
#[test]
fn seeded_modules_roundtrip() {
    for seed in 0..200u64 {
        let mut g = Gen::from_size_and_seed(40, seed);
        let m = GenModule::arbitrary(&mut g);
        let r = roundtrip_property(m.clone());
        assert!(!r.is_failure(), "seed {seed} fails: {r:?} for {m:?}");
    }
}

fn seed_files() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("../corpus/nvcc/ptx");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .collect();
    files.sort();
    files.push(root.join("tests/data/sample.ptx"));
    files
}

#[test]
fn corpus_roundtrips() {
    let files = seed_files();
    assert!(
        files.len() > 150,
        "corpus is missing: {} files",
        files.len()
    );
    for path in &files {
        let name = path.display();
        let src = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let first = parse(&src).unwrap_or_else(|e| {
            let (l, c) = line_col(&src, e.at);
            panic!("{name}:{l}:{c}: {}", e.message)
        });
        let text = print(&first);
        let second = parse(&text).unwrap_or_else(|e| {
            let (l, c) = line_col(&text, e.at);
            panic!("{name}: printed text fails at {l}:{c}: {}", e.message)
        });
        assert!(
            first == second,
            "{name}: parse(print(parse(src))) != parse(src): {}",
            first_difference(&first, &second)
        );
        assert_eq!(print(&second), text, "{name}: printing is not stable");
    }
}

/// Records which parts of the syntax tree a module uses.
#[derive(Default)]
struct Coverage(std::collections::BTreeSet<String>);

impl Coverage {
    fn add(&mut self, what: impl Into<String>) {
        self.0.insert(what.into());
    }

    fn module(&mut self, m: &Module) {
        for item in &m.items {
            match item {
                Item::Version { .. } => self.add("version"),
                Item::Target { .. } => self.add("target"),
                Item::AddressSize { .. } => self.add("address_size"),
                Item::Var(v) => self.var(v, "module"),
                Item::Function(f) => self.function(f),
                Item::Other(o) => self.add(format!("module {}", o.name)),
            }
        }
    }

    fn var(&mut self, v: &VarDecl, ctx: &str) {
        self.add(format!("{ctx} var {}", v.space));
        if v.align.is_some() {
            self.add("align");
        }
        if let Some(n) = v.vector {
            self.add(format!("vector .v{n}"));
        }
        for a in &v.attrs {
            self.add(format!("attr {a}"));
        }
        if !v.linkage.is_empty() {
            self.add(format!("{ctx} linkage"));
        }
        for d in &v.names {
            if d.range.is_some() {
                self.add(format!("range {}", v.space));
            }
            if d.dims.len() > 1 {
                self.add("multi-dim");
            }
            for dim in &d.dims {
                self.add(if dim.is_some() { "dim [N]" } else { "dim []" });
            }
            if let Some(i) = &d.init {
                self.init(i, 0);
            }
        }
    }

    fn init(&mut self, i: &Init, depth: u32) {
        match i {
            Init::Expr(e) => self.expr(e),
            Init::List(items) => {
                self.add(if depth > 0 {
                    "init nested list"
                } else {
                    "init list"
                });
                for i in items {
                    self.init(i, depth + 1);
                }
            }
        }
    }

    fn expr(&mut self, e: &Expr) {
        match e {
            Expr::Int(v) if *v < 0 => self.add("int negative"),
            Expr::Int(v) if *v > i64::MAX as i128 => self.add("int above i64"),
            Expr::Int(_) => self.add("int"),
            Expr::F32(_) => self.add("f32"),
            Expr::F64(_) => self.add("f64"),
            Expr::Sym(_) => self.add("sym"),
            Expr::Generic(_) => self.add("generic"),
            Expr::Unary(_, x) => {
                self.add("unary");
                self.expr(x);
            }
            Expr::Binary(_, l, r) => {
                self.add("binary");
                self.expr(l);
                self.expr(r);
            }
        }
    }

    fn function(&mut self, f: &Function) {
        self.add(format!("{:?}", f.kind));
        if f.returns.is_some() {
            self.add("returns");
        }
        for p in f.params.iter().flatten().chain(f.returns.iter().flatten()) {
            self.var(p, "param");
        }
        for d in &f.directives {
            self.add(format!("directive {}", d.name));
        }
        match &f.body {
            Some(b) => self.stmts(b, 0),
            None => self.add("declaration"),
        }
    }

    fn stmts(&mut self, stmts: &[Stmt], depth: u32) {
        for s in stmts {
            match s {
                Stmt::Label(..) => self.add("label"),
                Stmt::Var(v) => self.var(v, "body"),
                Stmt::Block(inner, _) => {
                    self.add(if depth > 0 { "nested block" } else { "block" });
                    self.stmts(inner, depth + 1);
                }
                Stmt::Other(o) => self.add(format!("body {}", o.name)),
                Stmt::Instr(i) => {
                    match &i.guard {
                        Some(g) if g.negated => self.add("guard @!p"),
                        Some(_) => self.add("guard @p"),
                        None => {}
                    }
                    if i.quals.iter().any(|q| q.contains("::")) {
                        self.add("qualifier ::");
                    }
                    for op in &i.operands {
                        self.operand(op);
                    }
                }
            }
        }
    }

    fn operand(&mut self, op: &Operand) {
        match &op.kind {
            OperandKind::Name(n) if n == "_" => self.add("sink _"),
            OperandKind::Name(n) if n.contains('.') => self.add("name %tid.x"),
            OperandKind::Name(_) => self.add("name"),
            OperandKind::NameOffset(..) => self.add("name+imm"),
            OperandKind::Not(_) => self.add("!p"),
            OperandKind::Imm(e) => {
                self.add("imm");
                match e {
                    Expr::Sym(_) => self.add("imm symbol"),
                    Expr::Binary(..) => self.add("imm binary"),
                    _ => {}
                }
                self.expr(e);
            }
            OperandKind::Addr(a) => {
                self.add(match (&a.base, a.offset) {
                    (None, _) => "[imm]",
                    (Some(b), 0) if b.starts_with('%') => "[r]",
                    (Some(b), o) if b.starts_with('%') && o < 0 => "[r+-imm]",
                    (Some(_), o) if o > 0 => "[var+imm]",
                    _ => "[other]",
                });
                for c in a.coords.iter().flatten() {
                    self.add("tensor coords");
                    self.operand(c);
                }
            }
            OperandKind::Vector(items) => {
                self.add("vector");
                items.iter().for_each(|o| self.operand(o));
            }
            OperandKind::Pair(a, b) => {
                self.add("pair");
                self.operand(a);
                self.operand(b);
            }
            OperandKind::Paren(items) => {
                self.add("call list");
                if let Some(OperandKind::Imm(_)) = items.first().map(|o| &o.kind) {
                    self.add("call list led by imm");
                }
                items.iter().for_each(|o| self.operand(o));
            }
        }
    }
}

/// The generator reaches every part of the tree the brief lists.
#[test]
fn generator_covers_the_tree() {
    let mut cov = Coverage::default();
    for seed in 0..500u64 {
        let mut g = Gen::from_size_and_seed(24, seed);
        cov.module(&GenModule::arbitrary(&mut g).0);
    }
    let want = [
        "version",
        "target",
        "address_size",
        "module var .global",
        "module var .const",
        "module var .shared",
        "module var .local",
        "module linkage",
        "align",
        "vector .v2",
        "vector .v4",
        "attr .ptr",
        "attr .global",
        "attr .attribute(.managed)",
        "range .reg",
        "multi-dim",
        "dim [N]",
        "dim []",
        "init list",
        "init nested list",
        "int negative",
        "int above i64",
        "f32",
        "f64",
        "sym",
        "generic",
        "unary",
        "binary",
        "Entry",
        "Func",
        "returns",
        "param var .param",
        "param var .reg",
        "directive .maxntid",
        "directive .minnctapersm",
        "directive .noreturn",
        "directive .pragma",
        "declaration",
        "label",
        "body var .reg",
        "body var .param",
        "block",
        "nested block",
        "body .pragma",
        "body .loc",
        "module .file",
        "module .section",
        "guard @p",
        "guard @!p",
        "qualifier ::",
        "sink _",
        "name %tid.x",
        "name",
        "name+imm",
        "!p",
        "imm",
        "[imm]",
        "[r]",
        "[r+-imm]",
        "[var+imm]",
        "tensor coords",
        "vector",
        "pair",
        "call list",
        "imm symbol",
        "imm binary",
        "call list led by imm",
    ];
    let missing: Vec<_> = want.iter().filter(|w| !cov.0.contains(**w)).collect();
    assert!(
        missing.is_empty(),
        "generator never produced {missing:?}; saw {:?}",
        cov.0
    );
}

/// The property is not vacuous: a tree the parser never builds (`1 + 2`
/// unfolded) fails it.
#[test]
fn property_rejects_a_noncanonical_tree() {
    let ins = Instruction {
        guard: None,
        opcode: "mov".into(),
        quals: vec![".u32".into()],
        operands: vec![Operand {
            kind: OperandKind::Imm(Expr::Binary(
                BinOp::Add,
                Box::new(Expr::Int(1)),
                Box::new(Expr::Int(2)),
            )),
            span: SP,
        }],
        span: SP,
        opcode_span: SP,
    };
    let f = Function {
        linkage: Vec::new(),
        kind: FunctionKind::Entry,
        returns: None,
        name: "k".into(),
        params: Some(Vec::new()),
        directives: Vec::new(),
        body: Some(vec![Stmt::Instr(ins)]),
        semicolon: false,
        span: SP,
    };
    let m = Module {
        items: vec![Item::Function(Box::new(f))],
    };
    assert!(roundtrip_property(GenModule(m)).is_failure());
}
