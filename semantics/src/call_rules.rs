//! What ptxas 13.0 requires of `call` beyond the grammar (PTX ISA 9.7.12.5,
//! and `.callprototype`/`.calltargets`, 11.4): each rule below was seen on
//! small modules given to ptxas for sm_90 on 2026-11-27
//! (`semantics/tests/call_rules.rs` keeps the modules and the verdicts).
//!
//! - The call passes as many arguments, and takes as many return values, as
//!   the callee declares ("Call has wrong number of parameters"); for an
//!   indirect call, as its prototype or each function of its `.calltargets`
//!   declares.
//! - A `.param` argument (or return value) matches its formal parameter in
//!   size and in being an array or a scalar ("Type of argument does not
//!   match formal parameter"), and in alignment ("Alignment of argument does
//!   not match formal parameter"); scalars of one size match whatever their
//!   kind (`.b32`, `.u32`, `.s32`, `.f32`). Registers and immediates passed
//!   to `.param` parameters are not compared (ptxas takes them).
//! - The list after an indirect call's arguments names a `.callprototype` or
//!   a `.calltargets` ("Call target not recognized"), whose entries are
//!   functions ("Illegal call target, device function expected").
//! - A `.callprototype` names its parameters (`_` will do) and itself `_`
//!   ("Parsing error near ')'", "Parsing error near 'pr'").

use crate::ptx::ast::{
    Function, Item, Module, Operand, OperandKind, OtherDirective, Stmt, VarDecl,
};
use crate::ptx::Span;
use std::collections::HashMap;

/// A parameter as the rules compare it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    bytes: u64,
    align: u64,
    array: bool,
}

/// A formal parameter: its name and, for a `.param` one, its shape.
#[derive(Clone, Debug)]
struct Formal {
    name: String,
    shape: Option<Shape>,
}

/// What a call may reach: returns and parameters.
#[derive(Clone, Debug)]
struct Signature {
    name: String,
    returns: Vec<Formal>,
    params: Vec<Formal>,
}

fn shape(ty: &str, align: Option<u64>, vector: Option<u32>, dims: &[Option<u64>]) -> Option<Shape> {
    let t = crate::catalogue::types::ptx_type(ty)?;
    let elem = u64::from(t.bits).div_ceil(8) * u64::from(vector.unwrap_or(1));
    let mut count = 1u64;
    for d in dims {
        count = count.checked_mul((*d)?)?;
    }
    Some(Shape {
        bytes: elem.checked_mul(count)?,
        align: align.unwrap_or(elem),
        array: !dims.is_empty(),
    })
}

fn formals(decls: &[VarDecl]) -> Vec<Formal> {
    decls
        .iter()
        .flat_map(|v| {
            v.names.iter().map(move |d| Formal {
                name: d.name.clone(),
                shape: (v.space == ".param")
                    .then(|| shape(&v.ty, v.align, v.vector, &d.dims))
                    .flatten(),
            })
        })
        .collect()
}

fn signature(f: &Function) -> Signature {
    Signature {
        name: f.name.clone(),
        returns: f.returns.as_deref().map(formals).unwrap_or_default(),
        params: f.params.as_deref().map(formals).unwrap_or_default(),
    }
}

/// A `.callprototype`'s tokens (`(.param .b32 _) _ (.param .b32 _)`) read
/// as a signature, or what is wrong with them.
fn prototype(tokens: &[String]) -> Result<Signature, String> {
    let mut k = 0;
    let group = |k: &mut usize| -> Result<Vec<Formal>, String> {
        // after `(`: declarations up to `)`
        let mut out = Vec::new();
        let mut decl: Vec<&str> = Vec::new();
        let close = |decl: &mut Vec<&str>, out: &mut Vec<Formal>| -> Result<(), String> {
            if decl.is_empty() {
                return Ok(());
            }
            let space = decl.first().copied().unwrap_or("");
            let mut align = None;
            let mut vector = None;
            let mut ty = None;
            let mut name = None;
            let mut dims = Vec::new();
            let mut i = 1;
            while i < decl.len() {
                let t = decl[i];
                if t == ".align" {
                    align = decl.get(i + 1).and_then(|v| v.parse().ok());
                    i += 2;
                    continue;
                }
                if let Some(n) = t.strip_prefix(".v").and_then(|n| n.parse().ok()) {
                    vector = Some(n);
                } else if t == ".ptr" || t.starts_with(".global") || t.starts_with(".shared") {
                } else if t.starts_with('.') {
                    ty = Some(t);
                } else if t == "[" {
                    dims.push(decl.get(i + 1).and_then(|v| v.parse().ok()));
                    i += 3;
                    continue;
                } else {
                    name = Some(t);
                }
                i += 1;
            }
            let (Some(ty), Some(name)) = (ty, name) else {
                return Err(format!(
                    "a `.callprototype` parameter needs a name (`_` will do): `{}` (ptxas: \"Parsing error\")",
                    decl.join(" ")
                ));
            };
            out.push(Formal {
                name: name.to_string(),
                shape: (space == ".param")
                    .then(|| shape(ty, align, vector, &dims))
                    .flatten(),
            });
            decl.clear();
            Ok(())
        };
        while *k < tokens.len() {
            let t = tokens[*k].as_str();
            *k += 1;
            match t {
                ")" => {
                    close(&mut decl, &mut out)?;
                    return Ok(out);
                }
                "," => close(&mut decl, &mut out)?,
                _ => decl.push(t),
            }
        }
        Err("a `.callprototype` list is not closed".into())
    };
    let mut returns = Vec::new();
    if tokens.first().map(String::as_str) == Some("(") {
        k = 1;
        returns = group(&mut k)?;
    }
    let name = tokens.get(k).map(String::as_str).unwrap_or("");
    if name != "_" {
        return Err(format!(
            "a `.callprototype` names itself `_`, not `{name}` (ptxas: \"Parsing error near '{name}'\")"
        ));
    }
    k += 1;
    let mut params = Vec::new();
    if tokens.get(k).map(String::as_str) == Some("(") {
        k += 1;
        params = group(&mut k)?;
    }
    Ok(Signature {
        name: "the prototype".into(),
        returns,
        params,
    })
}

/// A label's directive inside a function body.
enum Labelled {
    Prototype(Result<Signature, String>),
    Targets(Vec<String>),
}

/// The names of a `.calltargets` list.
fn targets(tokens: &[String]) -> Vec<String> {
    tokens
        .iter()
        .filter(|t| t.as_str() != ",")
        .cloned()
        .collect()
}

/// Every function of a module by name, for the call rules.
pub(crate) fn functions(module: &Module) -> HashMap<&str, &Function> {
    let mut functions: HashMap<&str, &Function> = HashMap::new();
    for item in &module.items {
        if let Item::Function(f) = item {
            functions.insert(f.name.as_str(), f);
        }
    }
    functions
}

/// The findings of the call rules in one function's body (span and
/// message), given every function of its module ([`functions`]).
pub(crate) fn check_function(
    f: &Function,
    functions: &HashMap<&str, &Function>,
    out: &mut Vec<(Span, String)>,
) {
    let Some(body) = &f.body else { return };
    if !has_calls(body) {
        return;
    }
    // the labelled `.callprototype`s and `.calltargets` of the body
    let mut labelled: HashMap<String, Labelled> = HashMap::new();
    let mut plain_labels: Vec<String> = Vec::new();
    collect_labels(body, &mut labelled, &mut plain_labels, functions, out);
    let mut scopes: Vec<HashMap<String, Shape>> = Vec::new();
    walk(body, &mut scopes, functions, &labelled, &plain_labels, out);
}

/// Whether a body has a `call`, a `.callprototype` or a `.calltargets`
/// (most functions have none: the rules then have nothing to look at).
fn has_calls(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::Instr(i) => i.opcode == "call",
        Stmt::Other(d) => d.name == ".callprototype" || d.name == ".calltargets",
        Stmt::Block(inner, _) => has_calls(inner),
        _ => false,
    })
}

fn collect_labels(
    body: &[Stmt],
    labelled: &mut HashMap<String, Labelled>,
    plain: &mut Vec<String>,
    functions: &HashMap<&str, &Function>,
    out: &mut Vec<(Span, String)>,
) {
    let mut pending: Option<&str> = None;
    for s in body {
        match s {
            Stmt::Label(name, _) => {
                if let Some(p) = pending.replace(name) {
                    plain.push(p.to_string());
                }
            }
            Stmt::Other(d) if d.name == ".callprototype" || d.name == ".calltargets" => {
                let entry = directive(d, functions, out);
                if let Some(name) = pending.take() {
                    labelled.insert(name.to_string(), entry);
                }
            }
            Stmt::Block(inner, _) => {
                if let Some(p) = pending.take() {
                    plain.push(p.to_string());
                }
                collect_labels(inner, labelled, plain, functions, out);
            }
            _ => {
                if let Some(p) = pending.take() {
                    plain.push(p.to_string());
                }
            }
        }
    }
    if let Some(p) = pending {
        plain.push(p.to_string());
    }
}

fn directive(
    d: &OtherDirective,
    functions: &HashMap<&str, &Function>,
    out: &mut Vec<(Span, String)>,
) -> Labelled {
    if d.name == ".callprototype" {
        let p = prototype(&d.tokens);
        if let Err(why) = &p {
            out.push((d.span, why.clone()));
        }
        return Labelled::Prototype(p);
    }
    let list = targets(&d.tokens);
    for t in &list {
        if !functions.contains_key(t.as_str()) {
            out.push((
                d.span,
                format!("`.calltargets` lists `{t}`, which is no function of the module (ptxas: \"Illegal call target, device function expected\")"),
            ));
        }
    }
    Labelled::Targets(list)
}

fn walk(
    body: &[Stmt],
    scopes: &mut Vec<HashMap<String, Shape>>,
    functions: &HashMap<&str, &Function>,
    labelled: &HashMap<String, Labelled>,
    plain: &[String],
    out: &mut Vec<(Span, String)>,
) {
    scopes.push(HashMap::new());
    for s in body {
        match s {
            Stmt::Var(v) if v.space == ".param" => {
                let top = scopes.last_mut().expect("a scope is open");
                for d in &v.names {
                    if let Some(sh) = shape(&v.ty, v.align, v.vector, &d.dims) {
                        top.insert(d.name.clone(), sh);
                    }
                }
            }
            Stmt::Block(inner, _) => walk(inner, scopes, functions, labelled, plain, out),
            Stmt::Instr(ins) if ins.opcode == "call" => {
                call(ins, scopes, functions, labelled, plain, out);
            }
            _ => {}
        }
    }
    scopes.pop();
}

/// The names of a parenthesised operand list.
fn list(op: &Operand) -> Option<&[Operand]> {
    match &op.kind {
        OperandKind::Paren(items) => Some(items),
        _ => None,
    }
}

fn call(
    ins: &crate::ptx::ast::Instruction,
    scopes: &[HashMap<String, Shape>],
    functions: &HashMap<&str, &Function>,
    labelled: &HashMap<String, Labelled>,
    plain: &[String],
    out: &mut Vec<(Span, String)>,
) {
    let ops = &ins.operands;
    let mut k = 0;
    let rets: &[Operand] = match ops.first().and_then(list) {
        Some(r) => {
            k = 1;
            r
        }
        None => &[],
    };
    let Some(callee) = ops.get(k) else { return };
    let OperandKind::Name(callee) = &callee.kind else {
        return;
    };
    // `(5)`, one immediate argument, reads as a parenthesised constant
    let args: &[Operand] = match ops.get(k + 1) {
        Some(o) if matches!(o.kind, OperandKind::Imm(_)) => &ops[k + 1..k + 2],
        Some(o) => list(o).unwrap_or(&[]),
        None => &[],
    };
    let after = ops.get(k + 2).and_then(|o| match &o.kind {
        OperandKind::Name(n) => Some(n.as_str()),
        _ => None,
    });
    let lookup = |name: &str| scopes.iter().rev().find_map(|s| s.get(name)).copied();
    let mut compare = |sig: &Signature| {
        if sig.params.len() != args.len() || sig.returns.len() != rets.len() {
            out.push((
                ins.span,
                format!(
                    "`call` gives {} argument(s) and {} return value(s); `{}` has {} parameter(s) and {} return value(s) (ptxas: \"Call has wrong number of parameters\")",
                    args.len(),
                    rets.len(),
                    sig.name,
                    sig.params.len(),
                    sig.returns.len()
                ),
            ));
            return;
        }
        for (given, formal) in rets
            .iter()
            .zip(&sig.returns)
            .chain(args.iter().zip(&sig.params))
        {
            let (OperandKind::Name(n), Some(want)) = (&given.kind, formal.shape) else {
                continue;
            };
            let Some(have) = lookup(n) else { continue };
            if have.bytes != want.bytes || have.array != want.array {
                out.push((
                    given.span,
                    format!(
                        "`{n}` ({} byte(s){}) does not match the parameter `{}` of `{}` ({} byte(s){}) (ptxas: \"Type of argument does not match formal parameter\")",
                        have.bytes,
                        if have.array { ", an array" } else { "" },
                        formal.name,
                        sig.name,
                        want.bytes,
                        if want.array { ", an array" } else { "" },
                    ),
                ));
            } else if have.align != want.align {
                out.push((
                    given.span,
                    format!(
                        "`{n}` is aligned to {}, the parameter `{}` of `{}` to {} (ptxas: \"Alignment of argument does not match formal parameter\")",
                        have.align, formal.name, sig.name, want.align
                    ),
                ));
            }
        }
    };
    if let Some(f) = functions.get(callee.as_str()) {
        compare(&signature(f));
        return;
    }
    // an indirect call: through its prototype or its targets
    let Some(list_name) = after else { return };
    match labelled.get(list_name) {
        Some(Labelled::Prototype(Ok(sig))) => compare(sig),
        Some(Labelled::Prototype(Err(_))) => {}
        Some(Labelled::Targets(names)) => {
            for t in names {
                if let Some(f) = functions.get(t.as_str()) {
                    compare(&signature(f));
                }
            }
        }
        None if plain.iter().any(|p| p == list_name) => out.push((
            ins.span,
            format!(
                "`{list_name}` labels no `.callprototype` or `.calltargets` (ptxas: \"Call target not recognized\")"
            ),
        )),
        None => {}
    }
}
