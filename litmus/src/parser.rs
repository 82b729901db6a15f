//! The reader of litmus tests. Hand-written and line-aware: the header and
//! the init block, the thread table (one row per line, cells between `|`,
//! rows ending in `;`), and the condition. Every error carries the line and
//! column where it was found; no input makes it panic.

use crate::ast::*;
use crate::instr::parse_instr;
use thiserror::Error;

/// A syntax error, located by line and column (both from 1; the column
/// counts characters).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("{line}:{col}: {message}")]
pub struct ParseError {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

/// Parses one litmus test.
pub fn parse(src: &str) -> Result<Litmus, ParseError> {
    let mut p = Parser { src, pos: 0 };
    p.litmus()
}

pub(crate) struct Parser<'a> {
    pub(crate) src: &'a str,
    pub(crate) pos: usize,
}

/// Words that end the thread table.
const CONDITION_WORDS: [&str; 6] = ["exists", "forall", "~", "not", "locations", "filter"];

impl<'a> Parser<'a> {
    pub(crate) fn error_at(&self, offset: usize, message: impl Into<String>) -> ParseError {
        let offset = offset.min(self.src.len());
        let before = &self.src[..floor_char_boundary(self.src, offset)];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |p| p + 1);
        let col = before[line_start..].chars().count() + 1;
        ParseError {
            line,
            col,
            message: message.into(),
        }
    }

    fn error(&self, message: impl Into<String>) -> ParseError {
        self.error_at(self.pos, message)
    }

    fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// Skips spaces, newlines and `(* ... *)` comments.
    fn skip_ws(&mut self) -> Result<(), ParseError> {
        loop {
            let rest = self.rest();
            let trimmed = rest.trim_start();
            self.pos += rest.len() - trimmed.len();
            if self.rest().starts_with("(*") {
                match self.rest().find("*)") {
                    Some(end) => self.pos += end + 2,
                    None => return Err(self.error("unterminated comment `(*`")),
                }
            } else {
                return Ok(());
            }
        }
    }

    fn eat(&mut self, s: &str) -> Result<bool, ParseError> {
        self.skip_ws()?;
        if self.rest().starts_with(s) {
            self.pos += s.len();
            Ok(true)
        } else {
            Ok(false)
        }
    }

    fn expect(&mut self, s: &str) -> Result<(), ParseError> {
        if self.eat(s)? {
            Ok(())
        } else {
            Err(self.error(format!("expected `{s}`")))
        }
    }

    /// An identifier: a letter or `_`, then letters, digits and `_`.
    fn ident(&mut self) -> Result<&'a str, ParseError> {
        self.skip_ws()?;
        let rest = self.rest();
        let len = ident_len(rest);
        if len == 0 {
            return Err(self.error("expected a name"));
        }
        self.pos += len;
        Ok(&rest[..len])
    }

    fn peek_word(&mut self) -> Result<&'a str, ParseError> {
        self.skip_ws()?;
        let rest = self.rest();
        Ok(&rest[..ident_len(rest)])
    }

    /// A decimal (optionally negative) or `0x` hexadecimal integer.
    fn number(&mut self) -> Result<i64, ParseError> {
        self.skip_ws()?;
        let start = self.pos;
        let rest = self.rest();
        let (neg, body) = match rest.strip_prefix('-') {
            Some(b) => (true, b),
            None => (false, rest),
        };
        let len = body
            .char_indices()
            .find(|(_, c)| !c.is_ascii_alphanumeric())
            .map_or(body.len(), |(i, _)| i);
        let text = &body[..len];
        let value = parse_int(text).ok_or_else(|| self.error("expected an integer"))?;
        self.pos = start + usize::from(neg) + len;
        Ok(if neg { value.wrapping_neg() } else { value })
    }

    fn litmus(&mut self) -> Result<Litmus, ParseError> {
        self.skip_ws()?;
        let lang = self.ident()?;
        if lang != "PTX" && lang != "ptx" {
            return Err(self.error_at(self.pos - lang.len(), "expected `PTX` at the start"));
        }
        let line_end = self.rest().find('\n').unwrap_or(self.rest().len());
        let name = self.rest()[..line_end].trim().to_string();
        if name.contains('{') || name.contains('"') {
            return Err(self.error("the test name must stand alone on the first line"));
        }
        self.pos += line_end;
        let Some(brace) = self.rest().find('{') else {
            return Err(self.error("expected the init block `{`"));
        };
        let docs = self.rest()[..brace].trim().to_string();
        self.pos += brace;
        let init = self.init_block()?;
        let mut threads = self.thread_header()?;
        self.rows(&mut threads)?;
        let condition = self.condition()?;
        self.skip_ws()?;
        if !self.rest().is_empty() {
            return Err(self.error("unexpected text after the condition"));
        }
        check_names(self, &init, &threads, &condition)?;
        Ok(Litmus {
            name,
            docs,
            init,
            threads,
            condition,
        })
    }

    fn init_block(&mut self) -> Result<Vec<Init>, ParseError> {
        self.expect("{")?;
        let mut items = Vec::new();
        loop {
            if self.eat("}")? {
                break;
            }
            if self.eat(";")? {
                continue;
            }
            items.push(self.init_item()?);
            self.skip_ws()?;
            if !self.rest().starts_with(';') && !self.rest().starts_with('}') {
                return Err(self.error("expected `;` or `}` after an init item"));
            }
        }
        self.eat(";")?;
        Ok(items)
    }

    fn init_item(&mut self) -> Result<Init, ParseError> {
        self.skip_ws()?;
        let start = self.pos;
        if let Some(thread) = self.thread_ref()? {
            let reg = self.ident()?;
            self.expect("=")?;
            if self.eat("&")? {
                return Err(self.error_at(start, "registers holding addresses are not supported"));
            }
            let value = self.number()?;
            return Ok(Init::Register {
                thread,
                reg: reg.to_string(),
                value,
            });
        }
        let first = self.ident()?;
        match first {
            "shared" | "global"
                if ident_len(self.rest().trim_start()) > 0
                    || self.rest().trim_start().starts_with('(') =>
            {
                let space = if first == "shared" {
                    Space::Shared
                } else {
                    Space::Global
                };
                let owner = if space == Space::Shared && self.eat("(")? {
                    if self.ident()? != "cta" {
                        return Err(self.error("expected `cta N` naming the CTA that holds it"));
                    }
                    let n = self.number()?;
                    self.expect(")")?;
                    Some(u32::try_from(n).map_err(|_| self.error("CTA number out of range"))?)
                } else {
                    None
                };
                let name = self.ident()?.to_string();
                self.expect("=")?;
                let value = self.number()?;
                return Ok(Init::Location {
                    name,
                    space,
                    value,
                    owner,
                });
            }
            "mbarrier" if ident_len(self.rest().trim_start()) > 0 => {
                let name = self.ident()?.to_string();
                if !self.eat("=")? {
                    return Ok(Init::Mbarrier { name, count: None });
                }
                let count = self.number()?;
                if count <= 0 {
                    return Err(self.error("an mbarrier's expected arrival count must be positive"));
                }
                return Ok(Init::Mbarrier {
                    name,
                    count: Some(count),
                });
            }
            _ => {}
        }
        if self.eat("@")? {
            let proxy = match self.ident()? {
                "generic" => AliasProxy::Generic,
                "texture" => AliasProxy::Texture,
                "surface" => AliasProxy::Surface,
                "constant" => AliasProxy::Constant,
                _ => {
                    return Err(self
                        .error("expected a proxy: `generic`, `texture`, `surface` or `constant`"))
                }
            };
            if self.ident()? != "aliases" {
                return Err(self.error("expected `aliases`"));
            }
            let target = self.ident()?.to_string();
            return Ok(Init::Alias {
                name: first.to_string(),
                proxy,
                target,
            });
        }
        self.expect("=")?;
        if self.eat("&")? {
            return Err(self.error_at(start, "locations holding addresses are not supported"));
        }
        let value = self.number()?;
        Ok(Init::Location {
            name: first.to_string(),
            space: Space::Global,
            value,
            owner: None,
        })
    }

    /// `P3:` or `3:` (with optional spaces), as in `P3:r0`.
    fn thread_ref(&mut self) -> Result<Option<u32>, ParseError> {
        self.skip_ws()?;
        let save = self.pos;
        let rest = self.rest();
        let digits_from = usize::from(rest.starts_with('P'));
        let digits = rest[digits_from..]
            .chars()
            .take_while(char::is_ascii_digit)
            .count();
        if digits == 0 {
            return Ok(None);
        }
        let after = &rest[digits_from + digits..];
        // `P3 x` is not a thread reference, nor is `10` alone.
        if !after.trim_start().starts_with(':') {
            return Ok(None);
        }
        let id: u32 = rest[digits_from..digits_from + digits]
            .parse()
            .map_err(|_| self.error("thread number out of range"))?;
        self.pos += digits_from + digits;
        if !self.eat(":")? {
            self.pos = save;
            return Ok(None);
        }
        Ok(Some(id))
    }

    fn thread_header(&mut self) -> Result<Vec<Thread>, ParseError> {
        let mut threads: Vec<Thread> = Vec::new();
        loop {
            self.skip_ws()?;
            let at = self.pos;
            if !self.rest().starts_with('P') {
                return Err(self.error("expected a thread such as `P0@cta 0,gpu 0`"));
            }
            self.pos += 1;
            let id = self.number()?;
            let id = u32::try_from(id).map_err(|_| self.error_at(at, "bad thread number"))?;
            if threads.iter().any(|t| t.id == id) {
                return Err(self.error_at(at, format!("thread P{id} declared twice")));
            }
            if id as usize != threads.len() {
                return Err(self.error_at(at, format!("expected thread P{}", threads.len())));
            }
            self.expect("@")?;
            let mut cta = None;
            let mut cluster = None;
            let mut gpu = None;
            loop {
                let word_at = self.pos;
                let word = self.ident()?;
                let n = self.number()?;
                let n = u32::try_from(n).map_err(|_| self.error("bad placement number"))?;
                let slot = match word {
                    "cta" => &mut cta,
                    "cluster" => &mut cluster,
                    "gpu" => &mut gpu,
                    _ => return Err(self.error_at(word_at, "expected `cta`, `cluster` or `gpu`")),
                };
                if slot.replace(n).is_some() {
                    return Err(self.error_at(word_at, format!("`{word}` given twice")));
                }
                if !self.eat(",")? {
                    break;
                }
            }
            let (Some(cta), Some(gpu)) = (cta, gpu) else {
                return Err(self.error_at(at, "a thread needs both `cta N` and `gpu N`"));
            };
            threads.push(Thread {
                id,
                cta,
                cluster,
                gpu,
                code: Vec::new(),
            });
            if self.eat(";")? {
                return Ok(threads);
            }
            self.expect("|")?;
        }
    }

    fn rows(&mut self, threads: &mut [Thread]) -> Result<(), ParseError> {
        loop {
            let word = self.peek_word()?;
            if CONDITION_WORDS.contains(&word) || self.rest().starts_with('~') {
                return Ok(());
            }
            if self.rest().is_empty() {
                return Err(self.error("expected a condition (`exists`, `~exists` or `forall`)"));
            }
            let row_start = self.pos;
            let Some(len) = self.rest().find(';') else {
                return Err(self.error("expected `;` at the end of the row"));
            };
            let row = &self.src[row_start..row_start + len];
            if row.contains('\n') {
                let nl = row.find('\n').unwrap_or(0);
                return Err(self.error_at(row_start + nl, "a row must end with `;` on its line"));
            }
            let mut offset = row_start;
            let cells: Vec<(usize, &str)> = row
                .split('|')
                .map(|cell| {
                    let at = offset;
                    offset += cell.len() + 1;
                    (at, cell)
                })
                .collect();
            if cells.len() != threads.len() {
                return Err(self.error_at(
                    row_start,
                    format!(
                        "this row has {} cells but the test has {} threads",
                        cells.len(),
                        threads.len()
                    ),
                ));
            }
            for (thread, (at, cell)) in threads.iter_mut().zip(cells) {
                let lead = cell.len() - cell.trim_start().len();
                let text = cell.trim();
                if !text.is_empty() {
                    let instr = parse_instr(text)
                        .map_err(|(off, msg)| self.error_at(at + lead + off, msg))?;
                    thread.code.push(instr);
                }
            }
            self.pos = row_start + len + 1;
        }
    }

    fn condition(&mut self) -> Result<Condition, ParseError> {
        let word = self.peek_word()?;
        if word == "locations" || word == "filter" {
            return Err(self.error(format!("`{word}` clauses are not supported")));
        }
        let quantifier = if self.eat("~")? || self.eat_word("not")? {
            if !self.eat_word("exists")? {
                return Err(self.error("expected `exists` after `~`"));
            }
            Quantifier::NotExists
        } else if self.eat_word("exists")? {
            Quantifier::Exists
        } else if self.eat_word("forall")? {
            Quantifier::Forall
        } else {
            return Err(self.error("expected `exists`, `~exists` or `forall`"));
        };
        let expr = self.or_expr(0)?;
        self.eat(";")?;
        Ok(Condition { quantifier, expr })
    }

    fn eat_word(&mut self, word: &str) -> Result<bool, ParseError> {
        if self.peek_word()? == word {
            self.pos += word.len();
            Ok(true)
        } else {
            Ok(false)
        }
    }

    fn or_expr(&mut self, depth: usize) -> Result<Expr, ParseError> {
        if depth > 200 {
            return Err(self.error("condition nested too deeply"));
        }
        let mut e = self.and_expr(depth)?;
        while self.eat("\\/")? {
            let r = self.and_expr(depth)?;
            e = Expr::Or(Box::new(e), Box::new(r));
        }
        Ok(e)
    }

    fn and_expr(&mut self, depth: usize) -> Result<Expr, ParseError> {
        let mut e = self.unary(depth)?;
        while self.eat("/\\")? {
            let r = self.unary(depth)?;
            e = Expr::And(Box::new(e), Box::new(r));
        }
        Ok(e)
    }

    fn unary(&mut self, depth: usize) -> Result<Expr, ParseError> {
        if depth > 200 {
            return Err(self.error("condition nested too deeply"));
        }
        if self.eat("~")? || self.eat_word("not")? {
            return Ok(Expr::Not(Box::new(self.unary(depth + 1)?)));
        }
        if self.eat("(")? {
            let e = self.or_expr(depth + 1)?;
            self.expect(")")?;
            return Ok(e);
        }
        let a = self.value()?;
        let op = self.cmp_op()?;
        let b = self.value()?;
        Ok(Expr::Cmp(a, op, b))
    }

    fn cmp_op(&mut self) -> Result<CmpOp, ParseError> {
        for (s, op) in [
            ("==", CmpOp::Eq),
            ("!=", CmpOp::Ne),
            ("<=", CmpOp::Le),
            (">=", CmpOp::Ge),
            ("=", CmpOp::Eq),
            ("<", CmpOp::Lt),
            (">", CmpOp::Gt),
        ] {
            if self.eat(s)? {
                return Ok(op);
            }
        }
        Err(self.error("expected a comparison (`==`, `!=`, `<`, `<=`, `>`, `>=`)"))
    }

    fn value(&mut self) -> Result<Value, ParseError> {
        if let Some(thread) = self.thread_ref()? {
            let reg = self.ident()?.to_string();
            return Ok(Value::Reg { thread, reg });
        }
        self.skip_ws()?;
        match self.peek() {
            Some(c) if c.is_ascii_digit() || c == '-' => Ok(Value::Const(self.number()?)),
            Some('[') => {
                self.pos += 1;
                let name = self.ident()?.to_string();
                self.expect("]")?;
                Ok(Value::Loc(name))
            }
            _ => {
                let name = self.ident()?.to_string();
                if self.rest().starts_with('[') {
                    return Err(self.error("array elements are not supported"));
                }
                Ok(Value::Loc(name))
            }
        }
    }
}

/// Checks the names a test uses: locations and aliases declared once,
/// aliases of declared locations, labels defined in their thread, registers
/// of declared threads.
fn check_names(
    p: &Parser<'_>,
    init: &[Init],
    threads: &[Thread],
    cond: &Condition,
) -> Result<(), ParseError> {
    let at_end = |msg: String| p.error_at(p.src.len(), msg);
    let mut names: Vec<&str> = Vec::new();
    for item in init {
        let name = match item {
            Init::Location { name, .. } | Init::Mbarrier { name, .. } => name,
            Init::Alias { name, target, .. } => {
                if !names.contains(&target.as_str()) {
                    return Err(at_end(format!(
                        "`{name}` aliases `{target}`, which is not declared before it"
                    )));
                }
                name
            }
            Init::Register { thread, .. } => {
                if threads.iter().all(|t| t.id != *thread) {
                    return Err(at_end(format!("register of undeclared thread P{thread}")));
                }
                continue;
            }
        };
        if names.contains(&name.as_str()) {
            return Err(at_end(format!("`{name}` is declared twice")));
        }
        names.push(name);
    }
    for t in threads {
        for instr in &t.code {
            let target = match instr {
                Instr::Branch { target, .. } | Instr::Goto(target) => target,
                _ => continue,
            };
            let defined = t
                .code
                .iter()
                .any(|i| matches!(i, Instr::Label(l) if l == target));
            if !defined {
                return Err(at_end(format!(
                    "label `{target}` is not defined in thread P{}",
                    t.id
                )));
            }
        }
    }
    let mut stack = vec![&cond.expr];
    while let Some(e) = stack.pop() {
        match e {
            Expr::Not(a) => stack.push(a),
            Expr::And(a, b) | Expr::Or(a, b) => {
                stack.push(a);
                stack.push(b);
            }
            Expr::Cmp(a, _, b) => {
                for v in [a, b] {
                    if let Value::Reg { thread, .. } = v {
                        if threads.iter().all(|t| t.id != *thread) {
                            return Err(at_end(format!(
                                "the condition names undeclared thread P{thread}"
                            )));
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

pub(crate) fn ident_len(s: &str) -> usize {
    let mut chars = s.char_indices();
    match chars.next() {
        Some((_, c)) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return 0,
    }
    chars
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
        .map_or(s.len(), |(i, _)| i)
}

/// Parses a decimal or `0x` hexadecimal integer that fits in 64 bits
/// (hexadecimal up to `0xffffffffffffffff`, read as two's complement).
pub(crate) fn parse_int(text: &str) -> Option<i64> {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        return u64::from_str_radix(hex, 16).ok().map(|v| v as i64);
    }
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}
