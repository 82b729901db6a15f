//! Recursive-descent parser for PTX modules (PTX ISA 4 and 5: syntax, state
//! spaces, variables, functions). Every error carries the byte offset where
//! it was found; nothing here panics on any input.

use super::ast::*;
use super::lexer::{lex, TokKind, Token};
use super::Span;

/// A parse error at a byte offset of the source.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ParseError {
    pub at: u32,
    pub message: String,
}

type PResult<T> = Result<T, ParseError>;

/// Deepest nesting of blocks, brace lists and expressions accepted, so that
/// hostile input cannot exhaust the stack.
const MAX_DEPTH: u32 = 64;

/// Modules of at least this many tokens parse their function bodies on
/// two threads (the bodies are independent; the tree and any error are
/// the same as one thread's).
const PARALLEL_TOKENS: usize = 200_000;

/// Parses a whole PTX module.
pub fn parse(src: &str) -> PResult<Module> {
    parse_with(src, None)
}

/// [`parse`] with every function body parsed after the module's items,
/// whatever the module's size: the same tree, or the same error, as
/// [`parse`] (the robustness test compares them on every input).
#[doc(hidden)]
pub fn parse_split(src: &str) -> PResult<Module> {
    parse_with(src, Some(true))
}

fn parse_with(src: &str, split: Option<bool>) -> PResult<Module> {
    let toks = lex(src).map_err(|e| ParseError {
        at: e.at,
        message: e.message,
    })?;
    let parallel = split.unwrap_or_else(|| {
        toks.len() >= PARALLEL_TOKENS
            && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1)
    });
    let mut p = Parser::new(src, &toks, 0);
    p.defer_bodies = parallel;
    let module = p.module();
    if p.deferred.is_empty() {
        return module;
    }
    // A body parsed apart is the body one pass would have parsed when it
    // parses cleanly and ends at the `}` that closed it here (the parser
    // keeps no other state across a body). Anything else (an error
    // anywhere, a body that ends elsewhere, as a `}` inside a `.loc` line
    // makes it) is parsed again in one pass, which decides.
    let again = || Parser::new(src, &toks, 0).module();
    let Ok(mut module) = module else {
        return again();
    };
    let bodies = parse_bodies(src, &toks, &p.deferred);
    if bodies.iter().any(Option::is_none) {
        return again();
    }
    let mut bodies = bodies.into_iter().flatten();
    let mut marks = p.deferred.iter().map(|d| d.function);
    let mut next = marks.next();
    for (k, item) in module.items.iter_mut().enumerate() {
        if next == Some(k) {
            if let Item::Function(f) = item {
                f.body = bodies.next();
            }
            next = marks.next();
        }
    }
    Ok(module)
}

/// A function body left for [`parse_bodies`]: the item it belongs to, the
/// token after its `{`, the token after the `}` that closes it, and the
/// parser's depth there.
struct Deferred {
    function: usize,
    start: usize,
    end: usize,
    depth: u32,
}

/// Parses the deferred bodies, in order, on two threads: `None` for one
/// that fails or does not end where it was taken to.
fn parse_bodies(src: &str, toks: &[Token], bodies: &[Deferred]) -> Vec<Option<Vec<Stmt>>> {
    let one = |chunk: &[Deferred]| -> Vec<Option<Vec<Stmt>>> {
        let mut p = Parser::new(src, toks, 0);
        chunk
            .iter()
            .map(|d| {
                p.pos = d.start;
                p.depth = d.depth;
                p.stmts().ok().filter(|_| p.pos == d.end)
            })
            .collect()
    };
    // Split where half of the bodies' tokens lie on each side.
    let total: usize = bodies.len();
    if total < 2 {
        return one(bodies);
    }
    let weight = |i: usize| {
        let end = bodies.get(i + 1).map_or(toks.len(), |d| d.start);
        end.saturating_sub(bodies[i].start)
    };
    let all: usize = (0..total).map(weight).sum();
    let (mut acc, mut cut) = (0, total / 2);
    for i in 0..total {
        acc += weight(i);
        if acc * 2 >= all {
            cut = (i + 1).min(total - 1);
            break;
        }
    }
    let (first, second) = bodies.split_at(cut);
    std::thread::scope(|scope| {
        let h = scope.spawn(|| one(second));
        let mut out = one(first);
        out.extend(h.join().unwrap_or_else(|_| one(second)));
        out
    })
}

/// Directives kept as tokens, with how each one ends.
fn other_directive(name: &str) -> Option<Terminator> {
    Some(match name {
        ".file" | ".loc" => Terminator::Line,
        ".section" => Terminator::Block,
        ".pragma" | ".alias" | ".callprototype" | ".calltargets" | ".branchtargets" | ".common"
        | ".maxnreg" | ".maxntid" | ".reqntid" | ".minnctapersm" | ".maxnctapersm" => {
            Terminator::Semicolon
        }
        _ => return None,
    })
}

/// Whether a directive begins a module item rather than continuing a
/// function's header (performance directives, `.noreturn`, `.pragma`): it
/// ends a declaration written without `;`.
fn starts_module_item(name: &str) -> bool {
    is_linkage(name)
        || is_state_space(name)
        || matches!(
            name,
            ".entry"
                | ".func"
                | ".version"
                | ".target"
                | ".address_size"
                | ".file"
                | ".loc"
                | ".section"
                | ".alias"
                | ".callprototype"
        )
}

fn is_state_space(name: &str) -> bool {
    matches!(
        name,
        ".reg" | ".sreg" | ".const" | ".global" | ".local" | ".param" | ".shared" | ".tex"
    )
}

fn is_linkage(name: &str) -> bool {
    matches!(name, ".visible" | ".extern" | ".weak" | ".common")
}

struct Parser<'s> {
    src: &'s str,
    toks: &'s [Token],
    pos: usize,
    depth: u32,
    /// The statements of the blocks being parsed, innermost last; each
    /// block moves its own into a vector of exactly its length, so the tree
    /// holds no spare capacity and the buffer is reused.
    stmt_stack: Vec<Stmt>,
    /// Reused while parsing one instruction's operands and qualifiers,
    /// for the same reason.
    operand_buf: Vec<Operand>,
    qual_buf: Vec<String>,
    /// Whether function bodies are skipped here and parsed afterwards
    /// ([`parse_bodies`]); `items` counts the module's items so far.
    defer_bodies: bool,
    items: usize,
    deferred: Vec<Deferred>,
}

impl<'s> Parser<'s> {
    fn new(src: &'s str, toks: &'s [Token], pos: usize) -> Parser<'s> {
        Parser {
            src,
            toks,
            pos,
            depth: 0,
            stmt_stack: Vec::new(),
            operand_buf: Vec::new(),
            qual_buf: Vec::new(),
            defer_bodies: false,
            items: 0,
            deferred: Vec::new(),
        }
    }

    /// With bodies deferred: the index of the token after the `}` that
    /// closes the block whose `{` was just taken, if the module has one.
    fn block_end(&self) -> Option<usize> {
        let mut depth = 1usize;
        for (i, t) in self.toks.iter().enumerate().skip(self.pos) {
            match t.kind {
                TokKind::Punct(b'{') => depth += 1,
                TokKind::Punct(b'}') => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i + 1);
                    }
                }
                TokKind::Eof => return None,
                _ => {}
            }
        }
        None
    }

    fn peek(&self) -> Token {
        self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn peek_at(&self, k: usize) -> Token {
        self.toks[(self.pos + k).min(self.toks.len() - 1)]
    }

    fn bump(&mut self) -> Token {
        let t = self.peek();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn text(&self, t: Token) -> &'s str {
        t.text(self.src)
    }

    fn bump_text(&mut self) -> &'s str {
        let t = self.bump();
        t.text(self.src)
    }

    fn prev_end(&self) -> u32 {
        if self.pos == 0 {
            0
        } else {
            self.toks[self.pos - 1].end
        }
    }

    fn is_punct(&self, c: u8) -> bool {
        self.peek().kind == TokKind::Punct(c)
    }

    fn eat_punct(&mut self, c: u8) -> bool {
        if self.is_punct(c) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn err<T>(&self, at: Token, message: impl Into<String>) -> PResult<T> {
        Err(ParseError {
            at: at.start,
            message: message.into(),
        })
    }

    fn describe(&self, t: Token) -> String {
        match t.kind {
            TokKind::Eof => "end of file".into(),
            _ => format!("`{}`", self.text(t)),
        }
    }

    fn expect_punct(&mut self, c: u8, what: &str) -> PResult<Token> {
        let t = self.peek();
        if t.kind == TokKind::Punct(c) {
            Ok(self.bump())
        } else {
            self.err(
                t,
                format!(
                    "expected `{}` {what}, found {}",
                    c as char,
                    self.describe(t)
                ),
            )
        }
    }

    fn expect_ident(&mut self, what: &str) -> PResult<(String, Span)> {
        let t = self.peek();
        if t.kind == TokKind::Ident {
            self.bump();
            Ok((self.text(t).to_string(), t.span()))
        } else {
            self.err(t, format!("expected {what}, found {}", self.describe(t)))
        }
    }

    fn expect_uint(&mut self, what: &str) -> PResult<u64> {
        let t = self.peek();
        if t.kind == TokKind::Int {
            self.bump();
            match parse_int(self.text(t)) {
                Some(v) if (0..=u64::MAX as i128).contains(&v) => Ok(v as u64),
                _ => self.err(t, format!("{what} out of range")),
            }
        } else {
            self.err(t, format!("expected {what}, found {}", self.describe(t)))
        }
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let t = self.peek();
            return self.err(t, "nesting too deep");
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Whether a newline separates the previous token from the next one.
    fn newline_before_next(&self) -> bool {
        let (a, b) = (self.prev_end() as usize, self.peek().start as usize);
        self.src.as_bytes()[a.min(b)..b].contains(&b'\n')
    }

    fn module(&mut self) -> PResult<Module> {
        let mut items = Vec::new();
        while self.peek().kind != TokKind::Eof {
            self.items = items.len();
            items.push(self.item()?);
        }
        Ok(Module { items })
    }

    fn item(&mut self) -> PResult<Item> {
        let t = self.peek();
        if t.kind != TokKind::Dot {
            return self.err(
                t,
                format!(
                    "expected a directive at module scope, found {}",
                    self.describe(t)
                ),
            );
        }
        let name = self.text(t);
        match name {
            ".version" => {
                self.bump();
                let v = self.peek();
                let text = self.text(v);
                let parsed = text.split_once('.').and_then(|(a, b)| {
                    let ok = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
                    (ok(a) && ok(b)).then(|| Some((a.parse().ok()?, b.parse().ok()?)))?
                });
                match (v.kind, parsed) {
                    (TokKind::Float, Some((major, minor))) => {
                        self.bump();
                        Ok(Item::Version {
                            major,
                            minor,
                            span: t.span().to(v.span()),
                        })
                    }
                    _ => self.err(v, "expected a version like `8.7` after `.version`"),
                }
            }
            ".target" => {
                self.bump();
                let mut names = vec![self.expect_ident("a target name like `sm_90`")?.0];
                while self.eat_punct(b',') {
                    names.push(self.expect_ident("a target name")?.0);
                }
                Ok(Item::Target {
                    names,
                    span: t.span().to(Span::new(self.prev_end(), self.prev_end())),
                })
            }
            ".address_size" => {
                self.bump();
                let v = self.peek();
                let bits = self.expect_uint("an address size")?;
                if bits != 32 && bits != 64 {
                    return self.err(v, "`.address_size` must be 32 or 64");
                }
                Ok(Item::AddressSize {
                    bits: bits as u32,
                    span: t.span().to(v.span()),
                })
            }
            _ => {
                if let Some(term) = other_directive(name) {
                    if name != ".common" || !self.starts_declaration() {
                        return Ok(Item::Other(self.other(term)?));
                    }
                }
                self.linked_item()
            }
        }
    }

    /// Whether the tokens ahead read as linkage directives then a state space
    /// or function kind.
    fn starts_declaration(&self) -> bool {
        let mut k = 0;
        loop {
            let t = self.peek_at(k);
            if t.kind != TokKind::Dot {
                return false;
            }
            let n = self.text(t);
            if is_linkage(n) {
                k += 1;
                continue;
            }
            return is_state_space(n) || n == ".entry" || n == ".func";
        }
    }

    fn linked_item(&mut self) -> PResult<Item> {
        let start = self.peek();
        let mut linkage = Vec::new();
        while self.peek().kind == TokKind::Dot && is_linkage(self.text(self.peek())) {
            linkage.push(self.bump_text().to_string());
        }
        let t = self.peek();
        let name = if t.kind == TokKind::Dot {
            self.text(t)
        } else {
            ""
        };
        if name == ".entry" || name == ".func" {
            return Ok(Item::Function(Box::new(self.function(linkage, start)?)));
        }
        if is_state_space(name) {
            let decl = self.var_decl(linkage, true)?;
            self.expect_punct(b';', "after a declaration")?;
            return Ok(Item::Var(decl));
        }
        if t.kind == TokKind::Dot {
            self.err(t, format!("unknown directive `{name}`"))
        } else {
            self.err(
                t,
                format!(
                    "expected `.entry`, `.func` or a state space, found {}",
                    self.describe(t)
                ),
            )
        }
    }

    /// A directive kept as tokens.
    fn other(&mut self, terminator: Terminator) -> PResult<OtherDirective> {
        let head = self.bump();
        let name = self.text(head).to_string();
        let mut tokens = Vec::new();
        match terminator {
            Terminator::Line => {
                while self.peek().kind != TokKind::Eof && !self.newline_before_next() {
                    tokens.push(self.bump_text().to_string());
                }
            }
            Terminator::Semicolon => loop {
                let t = self.peek();
                match t.kind {
                    TokKind::Eof => {
                        return self.err(head, format!("`{name}` is not closed by `;`"))
                    }
                    TokKind::Punct(b';') => {
                        self.bump();
                        break;
                    }
                    _ => tokens.push(self.bump_text().to_string()),
                }
            },
            Terminator::Block => {
                while !self.is_punct(b'{') {
                    if self.peek().kind == TokKind::Eof {
                        return self.err(head, format!("`{name}` has no `{{` block"));
                    }
                    tokens.push(self.bump_text().to_string());
                }
                self.bump();
                tokens.push("{".into());
                let mut depth = 1;
                while depth > 0 {
                    let t = self.bump();
                    match t.kind {
                        TokKind::Eof => {
                            return self.err(head, format!("`{name}` block is not closed"))
                        }
                        TokKind::Punct(b'{') => depth += 1,
                        TokKind::Punct(b'}') => depth -= 1,
                        _ => {}
                    }
                    tokens.push(self.text(t).to_string());
                }
            }
        }
        Ok(OtherDirective {
            name,
            tokens,
            terminator,
            span: head.span().to(Span::new(self.prev_end(), self.prev_end())),
        })
    }

    fn function(&mut self, linkage: Vec<String>, start: Token) -> PResult<Function> {
        let kind_tok = self.bump();
        let kind = if self.text(kind_tok) == ".entry" {
            FunctionKind::Entry
        } else {
            FunctionKind::Func
        };
        let mut returns = None;
        if kind == FunctionKind::Func && self.is_punct(b'(') {
            returns = Some(self.param_list()?);
        }
        let (name, _) = self.expect_ident("a function name")?;
        let params = if self.is_punct(b'(') {
            Some(self.param_list()?)
        } else {
            None
        };
        let mut directives = Vec::new();
        while self.peek().kind == TokKind::Dot && !starts_module_item(self.text(self.peek())) {
            let d = self.bump();
            let dname = self.text(d).to_string();
            let mut values = Vec::new();
            if dname == ".pragma" {
                while !self.is_punct(b';') {
                    if self.peek().kind == TokKind::Eof {
                        return self.err(d, "`.pragma` is not closed by `;`");
                    }
                    values.push(self.bump_text().to_string());
                }
                self.bump();
            } else if matches!(self.peek().kind, TokKind::Int) {
                values.push(self.expect_uint("a number")?.to_string());
                while self.eat_punct(b',') {
                    values.push(self.expect_uint("a number")?.to_string());
                }
            }
            directives.push(FunctionDirective {
                name: dname,
                values,
                span: d.span().to(Span::new(self.prev_end(), self.prev_end())),
            });
        }
        let mut semicolon = false;
        let body = if self.eat_punct(b';') {
            semicolon = true;
            None
        } else if self.is_punct(b'{') {
            self.bump();
            match self.defer_bodies.then(|| self.block_end()).flatten() {
                Some(end) => {
                    self.deferred.push(Deferred {
                        function: self.items,
                        start: self.pos,
                        end,
                        depth: self.depth,
                    });
                    self.pos = end;
                    Some(Vec::new())
                }
                None => Some(self.stmts()?),
            }
        } else if matches!(self.peek().kind, TokKind::Dot | TokKind::Eof) {
            // A PTX 2.x declaration without `;`: the next directive (or the
            // end of the module) ends it; the loop above stopped there.
            None
        } else {
            let t = self.peek();
            return self.err(
                t,
                format!(
                    "expected `{{` or `;` after function `{name}`, found {}",
                    self.describe(t)
                ),
            );
        };
        Ok(Function {
            linkage,
            kind,
            returns,
            name,
            params,
            directives,
            body,
            semicolon,
            span: start.span().to(Span::new(self.prev_end(), self.prev_end())),
        })
    }

    fn param_list(&mut self) -> PResult<Vec<VarDecl>> {
        self.expect_punct(b'(', "to open the parameter list")?;
        let mut params = Vec::new();
        if self.eat_punct(b')') {
            return Ok(params);
        }
        loop {
            let t = self.peek();
            if t.kind != TokKind::Dot || !is_state_space(self.text(t)) {
                return self.err(
                    t,
                    format!(
                        "expected a parameter like `.param .u64 p`, found {}",
                        self.describe(t)
                    ),
                );
            }
            params.push(self.var_decl(Vec::new(), false)?);
            if self.eat_punct(b')') {
                return Ok(params);
            }
            self.expect_punct(b',', "between parameters")?;
        }
    }

    /// `space attrs* type declarator (, declarator)*` without the `;`.
    fn var_decl(&mut self, linkage: Vec<String>, many: bool) -> PResult<VarDecl> {
        let space_tok = self.bump();
        let space = self.text(space_tok).to_string();
        let mut attrs = Vec::new();
        let mut align = None;
        let mut vector = None;
        let mut ty: Option<String> = None;
        loop {
            let t = self.peek();
            if t.kind != TokKind::Dot {
                break;
            }
            let text = self.text(t);
            self.bump();
            match text {
                ".align" => {
                    let v = self.peek();
                    let a = self.expect_uint("an alignment")?;
                    if a == 0 || !a.is_power_of_two() {
                        return self.err(v, "alignment must be a power of two");
                    }
                    align = Some(a);
                }
                ".v2" | ".v4" | ".v8" if vector.is_some() => {
                    return self.err(t, format!("`{text}`: this declaration is already a vector"))
                }
                // PTX ISA 5.4.2 writes the vector before the element type
                // (`.reg .v4 .f32 v`); ptxas 13.0 does not parse
                // `.param .b32 .v2 x` ("Parsing error near '.v2'").
                ".v2" | ".v4" | ".v8" if ty.is_some() => {
                    return self.err(
                        t,
                        format!(
                            "`{text}` must come before the type `{}`",
                            ty.unwrap_or_default()
                        ),
                    )
                }
                ".v2" | ".v4" | ".v8" => vector = text[2..].parse().ok(),
                ".attribute" => {
                    self.expect_punct(b'(', "after `.attribute`")?;
                    let mut s = String::from(".attribute(");
                    while !self.is_punct(b')') {
                        if self.peek().kind == TokKind::Eof {
                            return self.err(t, "`.attribute(` is not closed");
                        }
                        s.push_str(self.bump_text());
                    }
                    self.bump();
                    s.push(')');
                    attrs.push(s);
                }
                ".ptr" | ".const" | ".global" | ".local" | ".shared" => {
                    attrs.push(text.to_string())
                }
                _ if ty.is_none() => ty = Some(text.to_string()),
                _ => {
                    return self.err(
                        t,
                        format!(
                            "unexpected `{text}`: this declaration already has type `{}`",
                            ty.unwrap_or_default()
                        ),
                    )
                }
            }
        }
        let Some(ty) = ty else {
            let t = self.peek();
            return self.err(
                t,
                format!(
                    "expected a type in this declaration, found {}",
                    self.describe(t)
                ),
            );
        };
        let mut names = vec![self.declarator()?];
        if many {
            while self.eat_punct(b',') {
                names.push(self.declarator()?);
            }
        }
        Ok(VarDecl {
            linkage,
            space,
            attrs,
            align,
            vector,
            ty,
            names,
            span: space_tok
                .span()
                .to(Span::new(self.prev_end(), self.prev_end())),
        })
    }

    fn declarator(&mut self) -> PResult<Declarator> {
        let t = self.peek();
        let (name, span) = self.expect_ident("a name to declare")?;
        let mut range = None;
        if self.is_punct(b'<') {
            self.bump();
            let v = self.peek();
            let n = self.expect_uint("a register count")?;
            if n > 1 << 24 {
                return self.err(v, "register count too large");
            }
            range = Some(n as u32);
            self.expect_punct(b'>', "to close the register range")?;
        }
        let mut dims = Vec::new();
        while self.eat_punct(b'[') {
            if self.eat_punct(b']') {
                dims.push(None);
            } else {
                dims.push(Some(self.expect_uint("an array size")?));
                self.expect_punct(b']', "to close the array size")?;
            }
            if dims.len() > 8 {
                return self.err(t, "too many array dimensions");
            }
        }
        let init = if self.eat_punct(b'=') {
            Some(self.init()?)
        } else {
            None
        };
        Ok(Declarator {
            name,
            range,
            dims,
            init,
            span: span.to(Span::new(self.prev_end(), self.prev_end())),
        })
    }

    fn init(&mut self) -> PResult<Init> {
        if self.is_punct(b'{') {
            self.enter()?;
            self.bump();
            let mut items = Vec::new();
            if !self.eat_punct(b'}') {
                loop {
                    items.push(self.init()?);
                    if self.eat_punct(b'}') {
                        break;
                    }
                    self.expect_punct(b',', "between initializers")?;
                }
            }
            self.leave();
            Ok(Init::List(items))
        } else {
            Ok(Init::Expr(self.expr()?))
        }
    }

    /// Statements up to and including the closing `}`.
    fn stmts(&mut self) -> PResult<Vec<Stmt>> {
        self.enter()?;
        let base = self.stmt_stack.len();
        let r = self.stmts_onto_stack();
        let out = match r {
            Ok(()) => self.stmt_stack.drain(base..).collect(),
            Err(e) => {
                self.stmt_stack.truncate(base);
                return Err(e);
            }
        };
        self.leave();
        Ok(out)
    }

    /// The statements of a block up to its `}`, pushed on `stmt_stack`.
    fn stmts_onto_stack(&mut self) -> PResult<()> {
        loop {
            let t = self.peek();
            match t.kind {
                TokKind::Punct(b'}') => {
                    self.bump();
                    break;
                }
                TokKind::Eof => return self.err(t, "unexpected end of file: a `}` is missing"),
                TokKind::Punct(b'{') => {
                    self.bump();
                    let inner = self.stmts()?;
                    self.stmt_stack.push(Stmt::Block(
                        inner,
                        t.span().to(Span::new(self.prev_end(), self.prev_end())),
                    ));
                }
                TokKind::Ident if self.peek_at(1).kind == TokKind::Punct(b':') => {
                    self.bump();
                    self.bump();
                    self.stmt_stack
                        .push(Stmt::Label(self.text(t).to_string(), t.span()));
                }
                TokKind::Dot => {
                    let name = self.text(t);
                    if let Some(term) = other_directive(name) {
                        let other = self.other(term)?;
                        self.stmt_stack.push(Stmt::Other(other));
                    } else if is_state_space(name) || is_linkage(name) {
                        let mut linkage = Vec::new();
                        while self.peek().kind == TokKind::Dot && is_linkage(self.text(self.peek()))
                        {
                            linkage.push(self.bump_text().to_string());
                        }
                        let s = self.peek();
                        if s.kind != TokKind::Dot || !is_state_space(self.text(s)) {
                            return self
                                .err(s, "expected a state space after the linkage directive");
                        }
                        let decl = self.var_decl(linkage, true)?;
                        self.expect_punct(b';', "after a declaration")?;
                        self.stmt_stack.push(Stmt::Var(decl));
                    } else {
                        return self
                            .err(t, format!("unknown directive `{name}` in a function body"));
                    }
                }
                TokKind::Ident | TokKind::Punct(b'@') => {
                    let instruction = self.instruction()?;
                    self.stmt_stack.push(Stmt::Instr(instruction));
                }
                _ => {
                    return self.err(
                        t,
                        format!(
                            "expected an instruction, label or directive, found {}",
                            self.describe(t)
                        ),
                    )
                }
            }
        }
        Ok(())
    }

    fn instruction(&mut self) -> PResult<Instruction> {
        let first = self.peek();
        let guard = if self.eat_punct(b'@') {
            let negated = self.eat_punct(b'!');
            let (pred, span) = self.expect_ident("a predicate after `@`")?;
            Some(Guard {
                negated,
                pred,
                span: first.span().to(span),
            })
        } else {
            None
        };
        let op = self.peek();
        let (opcode, _) = self.expect_ident("an instruction")?;
        // Collected in reused buffers, then moved into vectors of exactly
        // their length.
        let mut buf = std::mem::take(&mut self.qual_buf);
        buf.clear();
        while self.peek().kind == TokKind::Dot {
            buf.push(self.bump_text().to_string());
        }
        let mut quals = Vec::with_capacity(buf.len());
        quals.append(&mut buf);
        self.qual_buf = buf;
        let opcode_span = op.span().to(Span::new(self.prev_end(), self.prev_end()));
        let mut buf = std::mem::take(&mut self.operand_buf);
        buf.clear();
        if !self.is_punct(b';') {
            loop {
                buf.push(self.operand()?);
                if self.eat_punct(b',') {
                    continue;
                }
                break;
            }
        }
        let mut operands = Vec::with_capacity(buf.len());
        operands.append(&mut buf);
        self.operand_buf = buf;
        self.expect_punct(b';', "at the end of the instruction")?;
        Ok(Instruction {
            guard,
            opcode,
            quals,
            operands,
            span: first.span().to(Span::new(self.prev_end(), self.prev_end())),
            opcode_span,
        })
    }

    /// A name, with `.x`-style components written right after it
    /// (`%tid.x`, `%r1.y`).
    fn name(&mut self) -> String {
        let t = self.bump();
        // The components touch the name, so the whole is one source slice.
        while self.peek().kind == TokKind::Dot && self.peek().start == self.prev_end() {
            self.bump();
        }
        self.src[t.start as usize..self.prev_end() as usize].to_string()
    }

    fn operand(&mut self) -> PResult<Operand> {
        self.enter()?;
        let r = self.operand_inner();
        self.leave();
        r
    }

    fn operand_inner(&mut self) -> PResult<Operand> {
        let t = self.peek();
        let kind = match t.kind {
            TokKind::Punct(b'[') => {
                self.bump();
                OperandKind::Addr(self.address(t)?)
            }
            TokKind::Punct(b'{') => {
                self.bump();
                let mut items = Vec::new();
                if !self.is_punct(b'}') {
                    loop {
                        items.push(self.operand()?);
                        if !self.eat_punct(b',') {
                            break;
                        }
                    }
                }
                self.expect_punct(b'}', "to close the vector operand")?;
                OperandKind::Vector(items)
            }
            TokKind::Punct(b'(') if !self.paren_is_expr() => {
                self.bump();
                let mut items = Vec::new();
                if !self.is_punct(b')') {
                    loop {
                        items.push(self.operand()?);
                        if !self.eat_punct(b',') {
                            break;
                        }
                    }
                }
                self.expect_punct(b')', "to close the argument list")?;
                OperandKind::Paren(items)
            }
            TokKind::Punct(b'!') if self.peek_at(1).kind == TokKind::Ident => {
                self.bump();
                OperandKind::Not(self.name())
            }
            TokKind::Ident
                if self.text(t) != "generic" || self.peek_at(1).kind != TokKind::Punct(b'(') =>
            {
                let name = self.name();
                // `x+8` is a variable's address with an offset (PTX ISA
                // 9.7.9.3); `%r1+8` a register's value plus a constant, which
                // ptxas reads as one source operand.
                if self.is_punct(b'+') || self.is_punct(b'-') {
                    let e = self.expr_from(Expr::Sym(name.clone()))?;
                    match name_offset(&name, &e) {
                        Some(v) => OperandKind::NameOffset(name, v),
                        None => OperandKind::Imm(e),
                    }
                } else {
                    OperandKind::Name(name)
                }
            }
            TokKind::Int
            | TokKind::Float
            | TokKind::Ident
            | TokKind::Punct(b'-' | b'~' | b'!' | b'(' | b'+') => {
                // No `expr()`: the operand has already counted its depth,
                // as it does for `x+8` above.
                let e = self.unary()?;
                OperandKind::Imm(self.binary_rest(e, 0)?)
            }
            _ => {
                return self.err(
                    t,
                    format!("expected an operand, found {}", self.describe(t)),
                );
            }
        };
        let mut op = Operand {
            kind,
            span: t.span().to(Span::new(self.prev_end(), self.prev_end())),
        };
        if self.is_punct(b'|') && matches!(op.kind, OperandKind::Name(_)) {
            self.bump();
            let second = self.operand()?;
            op = Operand {
                span: op.span.to(second.span),
                kind: OperandKind::Pair(Box::new(op), Box::new(second)),
            };
        }
        Ok(op)
    }

    /// Whether a `(` starts a constant expression rather than a call list.
    fn paren_is_expr(&self) -> bool {
        matches!(
            self.peek_at(1).kind,
            TokKind::Int | TokKind::Float | TokKind::Punct(b'-' | b'~' | b'(' | b'!')
        )
    }

    fn address(&mut self, open: Token) -> PResult<Address> {
        let t = self.peek();
        let mut base = None;
        let mut offset = 0i128;
        if t.kind == TokKind::Ident {
            base = Some(self.name());
            if self.is_punct(b'+') || self.is_punct(b'-') {
                let neg = self.bump().kind == TokKind::Punct(b'-');
                let e = self.unary()?;
                let e = self.binary_rest(e, 0)?;
                match e {
                    Expr::Int(v) => offset = if neg { norm(v.wrapping_neg()) } else { v },
                    _ => return self.err(t, "an address offset must be a constant integer"),
                }
            }
        } else if t.kind == TokKind::Punct(b']') {
            return self.err(t, "empty address `[]`");
        } else {
            match self.expr()? {
                Expr::Int(v) => offset = v,
                _ => return self.err(t, "an absolute address must be a constant integer"),
            }
        }
        let mut coords = None;
        if self.eat_punct(b',') {
            let v = self.peek();
            let op = self.operand()?;
            match op.kind {
                OperandKind::Vector(items) => coords = Some(items),
                _ => {
                    return self.err(
                        v,
                        "expected tensor coordinates `{x, y}` after the tensor map",
                    )
                }
            }
        }
        if !self.is_punct(b']') {
            let c = self.peek();
            return self.err(
                c,
                format!(
                    "expected `]` to close the address opened at offset {}, found {}",
                    open.start,
                    self.describe(c)
                ),
            );
        }
        self.bump();
        Ok(Address {
            base,
            offset,
            coords,
        })
    }

    // ---- constant expressions (PTX ISA 4.6.2), folded where constant ----

    fn expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let e = self.unary();
        let r = match e {
            Ok(e) => self.binary_rest(e, 0),
            Err(e) => Err(e),
        };
        self.leave();
        r
    }

    fn expr_from(&mut self, lhs: Expr) -> PResult<Expr> {
        self.binary_rest(lhs, 0)
    }

    fn binop(&self) -> Option<(BinOp, u8, usize)> {
        let t = self.peek();
        let n = self.peek_at(1);
        let adjacent = n.start == t.end;
        Some(match t.kind {
            TokKind::Punct(b'|') => (BinOp::Or, 1, 1),
            TokKind::Punct(b'^') => (BinOp::Xor, 2, 1),
            TokKind::Punct(b'&') => (BinOp::And, 3, 1),
            TokKind::Punct(b'<') if adjacent && n.kind == TokKind::Punct(b'<') => {
                (BinOp::Shl, 4, 2)
            }
            TokKind::Punct(b'>') if adjacent && n.kind == TokKind::Punct(b'>') => {
                (BinOp::Shr, 4, 2)
            }
            TokKind::Punct(b'+') => (BinOp::Add, 5, 1),
            TokKind::Punct(b'-') => (BinOp::Sub, 5, 1),
            TokKind::Punct(b'*') => (BinOp::Mul, 6, 1),
            TokKind::Punct(b'/') => (BinOp::Div, 6, 1),
            TokKind::Punct(b'%') => (BinOp::Rem, 6, 1),
            _ => return None,
        })
    }

    fn binary_rest(&mut self, mut lhs: Expr, min_prec: u8) -> PResult<Expr> {
        while let Some((op, prec, width)) = self.binop() {
            if prec < min_prec {
                break;
            }
            let at = self.peek();
            for _ in 0..width {
                self.bump();
            }
            self.enter()?;
            let mut rhs = self.unary()?;
            while let Some((_, p2, _)) = self.binop() {
                if p2 <= prec {
                    break;
                }
                rhs = self.binary_rest(rhs, p2)?;
            }
            self.leave();
            lhs = fold_binary(op, lhs, rhs).map_err(|m| ParseError {
                at: at.start,
                message: m,
            })?;
        }
        Ok(lhs)
    }

    /// Prefix operators, then a primary. The operators are read in a loop:
    /// only those left unfolded (`-x`, not `-1` or `+x`) count towards the
    /// nesting depth, so printing never needs more depth than the source.
    fn unary(&mut self) -> PResult<Expr> {
        let first = self.peek();
        let mut ops = Vec::new();
        while let TokKind::Punct(c @ (b'-' | b'~' | b'!' | b'+')) = self.peek().kind {
            self.bump();
            ops.push(c as char);
        }
        let mut e = self.primary()?;
        let mut unfolded = 0;
        for op in ops.into_iter().rev() {
            e = fold_unary(op, e);
            if op != '+' && matches!(e, Expr::Unary(..)) {
                unfolded += 1;
                if self.depth + unfolded > MAX_DEPTH {
                    return self.err(first, "nesting too deep");
                }
            }
        }
        Ok(e)
    }

    fn primary(&mut self) -> PResult<Expr> {
        let t = self.peek();
        match t.kind {
            TokKind::Punct(b'(') => {
                self.bump();
                let e = self.expr()?;
                self.expect_punct(b')', "to close the expression")?;
                Ok(e)
            }
            TokKind::Int => {
                self.bump();
                match parse_int(self.text(t)) {
                    Some(v) => Ok(Expr::Int(v)),
                    None => self.err(t, "integer literal out of range (at most 64 bits)"),
                }
            }
            TokKind::Float => {
                self.bump();
                let s = self.text(t);
                parse_float(s).ok_or(ParseError {
                    at: t.start,
                    message: format!("malformed float literal `{s}`"),
                })
            }
            TokKind::Ident => {
                let name = self.name();
                if name == "generic" && self.is_punct(b'(') {
                    self.bump();
                    let (inner, _) = self.expect_ident("a variable name in `generic(...)`")?;
                    self.expect_punct(b')', "to close `generic(`")?;
                    Ok(Expr::Generic(inner))
                } else {
                    Ok(Expr::Sym(name))
                }
            }
            _ => self.err(
                t,
                format!("expected a constant, found {}", self.describe(t)),
            ),
        }
    }
}

/// Parses an integer literal: decimal, `0x` hex, `0b` binary, leading-zero
/// octal, optional `U` suffix. At most 64 bits.
pub fn parse_int(text: &str) -> Option<i128> {
    let t = text.strip_suffix(['U', 'u']).unwrap_or(text);
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        (b, 2)
    } else if t.len() > 1 && t.starts_with('0') {
        (&t[1..], 8)
    } else {
        (t, 10)
    };
    let v = u64::from_str_radix(digits, radix).ok()?;
    Some(v as i128)
}

/// `0f3f800000` (f32 bits), `0d...` (f64 bits), or a decimal float (f64).
pub fn parse_float(text: &str) -> Option<Expr> {
    let b = text.as_bytes();
    if b.len() > 2 && b[0] == b'0' && matches!(b[1], b'f' | b'F') {
        return u32::from_str_radix(&text[2..], 16).ok().map(Expr::F32);
    }
    if b.len() > 2 && b[0] == b'0' && matches!(b[1], b'd' | b'D') {
        return u64::from_str_radix(&text[2..], 16).ok().map(Expr::F64);
    }
    text.parse::<f64>().ok().map(|v| Expr::F64(v.to_bits()))
}

/// `x+8` or `x-8` as the offset from `name`.
fn name_offset(name: &str, e: &Expr) -> Option<i128> {
    let Expr::Binary(op, l, r) = e else {
        return None;
    };
    match (op, &**l, &**r) {
        (BinOp::Add, Expr::Sym(n), Expr::Int(v)) if n == name => Some(*v),
        (BinOp::Sub, Expr::Sym(n), Expr::Int(v)) if n == name => Some(norm(v.wrapping_neg())),
        _ => None,
    }
}

/// Constant expressions are 64-bit: keep values in `i64::MIN..=u64::MAX`.
fn norm(v: i128) -> i128 {
    if (i64::MIN as i128..=u64::MAX as i128).contains(&v) {
        v
    } else {
        v as u64 as i128
    }
}

fn fold_unary(op: char, e: Expr) -> Expr {
    match (op, e) {
        ('+', e) => e,
        ('-', Expr::Int(v)) => Expr::Int(norm(v.wrapping_neg())),
        ('-', Expr::F32(v)) => Expr::F32(v ^ 0x8000_0000),
        ('-', Expr::F64(v)) => Expr::F64(v ^ (1 << 63)),
        ('~', Expr::Int(v)) => Expr::Int(norm(!v)),
        ('!', Expr::Int(v)) => Expr::Int((v == 0) as i128),
        (op, e) => Expr::Unary(op, Box::new(e)),
    }
}

fn fold_binary(op: BinOp, l: Expr, r: Expr) -> Result<Expr, String> {
    let (Expr::Int(a), Expr::Int(b)) = (&l, &r) else {
        return Ok(Expr::Binary(op, Box::new(l), Box::new(r)));
    };
    let (a, b) = (*a, *b);
    Ok(Expr::Int(norm(match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Div | BinOp::Rem if b == 0 => {
            return Err("division by zero in a constant expression".into())
        }
        BinOp::Div => a.wrapping_div(b),
        BinOp::Rem => a.wrapping_rem(b),
        BinOp::Shl => a.wrapping_shl((b & 127) as u32),
        BinOp::Shr => a.wrapping_shr((b & 127) as u32),
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
    })))
}
