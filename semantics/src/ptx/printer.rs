//! Prints a syntax tree as PTX text that parses back to the same tree.

use super::ast::*;
use std::fmt::Write;

/// The module as PTX text.
pub fn print(module: &Module) -> String {
    let mut out = String::new();
    for item in &module.items {
        print_item(&mut out, item);
    }
    out
}

fn print_item(out: &mut String, item: &Item) {
    match item {
        Item::Version { major, minor, .. } => {
            let _ = writeln!(out, ".version {major}.{minor}");
        }
        Item::Target { names, .. } => {
            let _ = writeln!(out, ".target {}", names.join(", "));
        }
        Item::AddressSize { bits, .. } => {
            let _ = writeln!(out, ".address_size {bits}");
        }
        Item::Var(v) => {
            print_var(out, v);
            out.push_str(";\n");
        }
        Item::Function(f) => print_function(out, f),
        Item::Other(o) => print_other(out, o, ""),
    }
}

fn print_other(out: &mut String, o: &OtherDirective, indent: &str) {
    out.push_str(indent);
    out.push_str(&o.name);
    for t in &o.tokens {
        out.push(' ');
        out.push_str(t);
    }
    match o.terminator {
        Terminator::Semicolon => out.push_str(";\n"),
        Terminator::Block | Terminator::Line => out.push('\n'),
    }
}

/// A declaration without its `;`.
pub fn print_var(out: &mut String, v: &VarDecl) {
    for l in &v.linkage {
        out.push_str(l);
        out.push(' ');
    }
    out.push_str(&v.space);
    // A kernel parameter's pointer attributes follow its type
    // (`.param .u64 .ptr .align 8 p`); a vector qualifier always precedes
    // the type (the parser refuses it after, as ptxas does).
    let pointer = v.attrs.iter().any(|a| a == ".ptr");
    let vector = |out: &mut String| {
        if let Some(n) = v.vector {
            let _ = write!(out, " .v{n}");
        }
    };
    if pointer {
        vector(out);
        let _ = write!(out, " {}", v.ty);
    }
    for a in &v.attrs {
        let _ = write!(out, " {a}");
    }
    if let Some(a) = v.align {
        let _ = write!(out, " .align {a}");
    }
    if !pointer {
        vector(out);
        let _ = write!(out, " {}", v.ty);
    }
    for (i, d) in v.names.iter().enumerate() {
        out.push_str(if i == 0 { " " } else { ", " });
        out.push_str(&d.name);
        if let Some(n) = d.range {
            let _ = write!(out, "<{n}>");
        }
        for dim in &d.dims {
            match dim {
                Some(n) => {
                    let _ = write!(out, "[{n}]");
                }
                None => out.push_str("[]"),
            }
        }
        if let Some(init) = &d.init {
            out.push_str(" = ");
            print_init(out, init);
        }
    }
}

fn print_init(out: &mut String, init: &Init) {
    match init {
        Init::Expr(e) => print_expr(out, e),
        Init::List(items) => {
            out.push('{');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                print_init(out, item);
            }
            out.push('}');
        }
    }
}

/// A constant expression, parenthesised only where precedence needs it, so
/// that the text nests no deeper than the tree.
pub fn print_expr(out: &mut String, e: &Expr) {
    print_expr_in(out, e, 0);
}

/// Binding strength of a binary operator, as the parser reads it.
fn precedence(op: BinOp) -> u8 {
    match op {
        BinOp::Or => 1,
        BinOp::Xor => 2,
        BinOp::And => 3,
        BinOp::Shl | BinOp::Shr => 4,
        BinOp::Add | BinOp::Sub => 5,
        BinOp::Mul | BinOp::Div | BinOp::Rem => 6,
    }
}

/// `e` where only operators binding at least `min` may go unparenthesised.
fn print_expr_in(out: &mut String, e: &Expr, min: u8) {
    match e {
        Expr::Int(v) => {
            let _ = write!(out, "{v}");
        }
        Expr::F32(bits) => {
            let _ = write!(out, "0f{bits:08X}");
        }
        Expr::F64(bits) => {
            let _ = write!(out, "0d{bits:016X}");
        }
        Expr::Sym(s) => out.push_str(s),
        Expr::Generic(s) => {
            let _ = write!(out, "generic({s})");
        }
        Expr::Unary(op, inner) => {
            out.push(*op);
            print_expr_in(out, inner, u8::MAX);
        }
        Expr::Binary(op, l, r) => {
            let p = precedence(*op);
            if p < min {
                out.push('(');
            }
            // Left-associative: the right side needs a tighter operator.
            print_expr_in(out, l, p);
            let _ = write!(out, " {} ", op.text());
            print_expr_in(out, r, p + 1);
            if p < min {
                out.push(')');
            }
        }
    }
}

fn print_function(out: &mut String, f: &Function) {
    for l in &f.linkage {
        out.push_str(l);
        out.push(' ');
    }
    out.push_str(match f.kind {
        FunctionKind::Entry => ".entry ",
        FunctionKind::Func => ".func ",
    });
    if let Some(r) = &f.returns {
        print_params(out, r);
        out.push(' ');
    }
    out.push_str(&f.name);
    if let Some(p) = &f.params {
        print_params(out, p);
    }
    out.push('\n');
    for d in &f.directives {
        out.push_str(&d.name);
        if d.name == ".pragma" {
            for v in &d.values {
                out.push(' ');
                out.push_str(v);
            }
            out.push(';');
        } else if !d.values.is_empty() {
            out.push(' ');
            out.push_str(&d.values.join(", "));
        }
        out.push('\n');
    }
    match &f.body {
        None if f.semicolon => out.push_str(";\n"),
        None => {}
        Some(body) => {
            out.push_str("{\n");
            print_stmts(out, body, 1);
            out.push_str("}\n");
        }
    }
}

fn print_params(out: &mut String, params: &[VarDecl]) {
    out.push('(');
    for (i, p) in params.iter().enumerate() {
        out.push_str(if i == 0 { "\n\t" } else { ",\n\t" });
        print_var(out, p);
    }
    out.push_str("\n)");
}

fn print_stmts(out: &mut String, stmts: &[Stmt], depth: usize) {
    let indent = "\t".repeat(depth);
    for s in stmts {
        match s {
            Stmt::Label(l, _) => {
                let _ = writeln!(out, "{l}:");
            }
            Stmt::Instr(i) => {
                out.push_str(&indent);
                print_instruction(out, i);
                out.push('\n');
            }
            Stmt::Var(v) => {
                out.push_str(&indent);
                print_var(out, v);
                out.push_str(";\n");
            }
            Stmt::Block(inner, _) => {
                let _ = writeln!(out, "{indent}{{");
                print_stmts(out, inner, depth + 1);
                let _ = writeln!(out, "{indent}}}");
            }
            Stmt::Other(o) => print_other(out, o, &indent),
        }
    }
}

/// One instruction with its `;`.
pub fn print_instruction(out: &mut String, i: &Instruction) {
    if let Some(g) = &i.guard {
        let _ = write!(out, "@{}{} ", if g.negated { "!" } else { "" }, g.pred);
    }
    out.push_str(&i.opcode);
    for q in &i.quals {
        out.push_str(q);
    }
    for (k, op) in i.operands.iter().enumerate() {
        out.push_str(if k == 0 { " " } else { ", " });
        print_operand(out, op);
    }
    out.push(';');
}

pub fn print_operand(out: &mut String, op: &Operand) {
    match &op.kind {
        OperandKind::Name(n) => out.push_str(n),
        OperandKind::NameOffset(n, off) if *off < 0 => {
            let _ = write!(out, "{n}-{}", off.unsigned_abs());
        }
        OperandKind::NameOffset(n, off) => {
            let _ = write!(out, "{n}+{off}");
        }
        OperandKind::Not(n) => {
            let _ = write!(out, "!{n}");
        }
        OperandKind::Imm(e) => {
            // `x` and `x + y` would read back as a name or `x+imm`, `!x` as
            // a negated predicate; a unary `+` keeps them immediates.
            if plus_keeps_imm(e) {
                out.push('+');
            }
            print_expr(out, e);
        }
        OperandKind::Addr(a) => {
            out.push('[');
            match &a.base {
                Some(b) => {
                    out.push_str(b);
                    if a.offset != 0 {
                        let _ = write!(out, "+{}", a.offset);
                    }
                }
                None => {
                    let _ = write!(out, "{}", a.offset);
                }
            }
            if let Some(c) = &a.coords {
                out.push_str(", ");
                print_list(out, '{', c, '}');
            }
            out.push(']');
        }
        OperandKind::Vector(items) => print_list(out, '{', items, '}'),
        OperandKind::Pair(a, b) => {
            print_operand(out, a);
            out.push('|');
            print_operand(out, b);
        }
        OperandKind::Paren(items) => print_list(out, '(', items, ')'),
    }
}

/// Whether an immediate operand needs a leading unary `+` to read back as one.
fn plus_keeps_imm(e: &Expr) -> bool {
    matches!(e, Expr::Sym(_) | Expr::Binary(..) | Expr::Unary('!', _))
}

fn print_list(out: &mut String, open: char, items: &[Operand], close: char) {
    out.push(open);
    for (k, op) in items.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        // `(1, x)` would read as an expression, `(+1, x)` is a call list.
        if let (0, '(', OperandKind::Imm(e)) = (k, open, &op.kind) {
            if !plus_keeps_imm(e) && !matches!(e, Expr::Generic(_)) {
                out.push('+');
            }
        }
        print_operand(out, op);
    }
    out.push(close);
}
