//! The catalogue's small notations, parsed once: the qualifier grammar of a
//! syntax line (`cvt{.irnd}{.ftz}{.sat}.dtype.atype`), qualifier sets
//! (`.ss = { .global, .shared{::cta, ::cluster} }`) and operand lists
//! (`d: reg dtype, [a]: addr, policy: reg .b64 if .L2::cache_hint`).

use super::target::Requirement;
use super::Row;

/// One position of a syntax line: one or more parts that appear together,
/// optional when written in braces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    pub optional: bool,
    pub parts: Vec<Part>,
}

/// One qualifier position: its name (the set name, or the literal itself)
/// and the qualifiers it accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub name: String,
    pub choices: Vec<String>,
}

/// What may stand in an operand position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OperandSpec {
    pub name: String,
    /// Accepted operand kinds.
    pub kinds: Vec<OperandKind>,
    /// The value type: a set name of the syntax (`dtype`), a literal type
    /// (`.b64`), or none (any).
    pub ty: Option<TypeRef>,
    /// Vector length, for `vec` kinds: fixed, or from a slot (`.v4` gives 4).
    pub vec_len: Option<VecLen>,
    pub presence: Presence,
    /// `d|p`: the operand may (or must) carry a predicate partner.
    pub pred_partner: Option<bool>,
    /// `vec<..>|sink`: the sink `_` may stand for elements of this vector
    /// (PTX ISA 9.7.9.4: "the sink symbol '_' may be used for one or more
    /// elements provided that at least one element is a scalar register").
    /// Nowhere in the catalogue may `_` stand for a whole operand.
    pub sink: bool,
    /// `list<..>`: a brace list only, not a vector variable (PTX ISA 6.4.3:
    /// "Vector operands are supported by a limited subset of instructions,
    /// which include mov, ld, st, atom, red and tex").
    pub braces_only: bool,
    /// `num`: an immediate that is a plain number, not a variable's address
    /// (`gvar+8`).
    pub number_only: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OperandKind {
    /// A register (or the sink `_` where the spec allows it).
    Reg,
    /// A predicate register.
    Pred,
    /// An immediate value.
    Imm,
    /// A memory address `[a]`, `[a+imm]`, `[var]`.
    Addr,
    /// A tensor address `[tensorMap, {c0, c1}]`.
    TensorAddr,
    /// A vector of registers `{a, b, c, d}`.
    Vec,
    /// A variable or function name.
    Sym,
    /// A special register (`%tid.x`).
    Sreg,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeRef {
    Slot(String),
    Literal(String),
    /// `type/2`: a bit-size type of the slot's width divided by N (the
    /// elements of `mov.b64 d, {a, b}`).
    Divided(String, u32),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VecLen {
    Fixed(usize),
    Slot(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Presence {
    Required,
    Optional,
    /// Present exactly when this qualifier is.
    IfQualifier(String),
}

/// A catalogue row with its notations parsed.
#[derive(Clone, Debug)]
pub struct Form {
    pub row: &'static Row,
    /// The first word of the syntax (`cvt`, `cp`).
    pub opcode: String,
    pub slots: Vec<Slot>,
    pub operands: Vec<OperandSpec>,
    pub since: Requirement,
    pub needs: Vec<(String, Requirement)>,
    /// Every qualifier the form accepts, for a quick rejection.
    pub accepted: std::collections::HashSet<String, crate::check::Fnv>,
    /// Literal qualifiers the form always needs.
    pub required_literals: Vec<String>,
}

/// An error in a catalogue row's notation (a bug in the catalogue, caught by
/// a unit test over every row).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("catalogue row {row}: {message}")]
pub struct NotationError {
    pub row: String,
    pub message: String,
}

impl Form {
    /// Every qualifier sequence the grammar accepts, in syntax order,
    /// keeping only the choices `keep(part, qualifier)` allows (`part` is
    /// the set name with its dot, `.ss`, or the literal itself, `.weak`); an
    /// optional slot may also be left out. Duplicates are left in (another
    /// row may spell the same text).
    pub fn spellings(&self, keep: &dyn Fn(&str, &str) -> bool) -> Vec<String> {
        let mut out = vec![self.opcode.clone()];
        for slot in &self.slots {
            let mut choices: Vec<String> = vec![String::new()];
            for part in &slot.parts {
                choices = choices
                    .iter()
                    .flat_map(|c| {
                        part.choices
                            .iter()
                            .filter(|q| keep(&part.name, q))
                            .map(move |q| format!("{c}{q}"))
                    })
                    .collect();
            }
            if slot.optional {
                choices.insert(0, String::new());
            }
            out = out
                .iter()
                .flat_map(|o| choices.iter().map(move |c| format!("{o}{c}")))
                .collect();
        }
        out
    }

    pub fn parse(row: &'static Row) -> Result<Form, NotationError> {
        let err = |message: String| NotationError {
            row: row.id.to_string(),
            message,
        };
        let sets = parse_sets(row.sets).map_err(err)?;
        let (opcode, slots) = parse_syntax(row.syntax, &sets).map_err(err)?;
        let operands = parse_operands(row.operands).map_err(err)?;
        let since = Requirement::parse(row.since)
            .ok_or_else(|| err(format!("bad requirement `{}`", row.since)))?;
        let mut needs = Vec::new();
        for (what, req) in row.needs {
            let r = Requirement::parse(req)
                .ok_or_else(|| err(format!("bad requirement `{req}` for `{what}`")))?;
            needs.push((what.to_string(), r));
        }
        let accepted = slots
            .iter()
            .flat_map(|s| &s.parts)
            .flat_map(|p| p.choices.iter().cloned())
            .collect();
        let required_literals = slots
            .iter()
            .filter(|s| !s.optional)
            .flat_map(|s| &s.parts)
            .filter(|p| p.choices.len() == 1)
            .map(|p| p.choices[0].clone())
            .collect();
        let form = Form {
            row,
            opcode,
            slots,
            operands,
            since,
            needs,
            accepted,
            required_literals,
        };
        form.validate().map_err(err)?;
        Ok(form)
    }

    fn validate(&self) -> Result<(), String> {
        for op in &self.operands {
            if let Some(TypeRef::Slot(s) | TypeRef::Divided(s, _)) = &op.ty {
                if self.part(s).is_none() {
                    return Err(format!("operand `{}` names unknown slot `{s}`", op.name));
                }
            }
            if let Some(VecLen::Slot(s)) = &op.vec_len {
                if self.part(s).is_none() {
                    return Err(format!("operand `{}` names unknown slot `{s}`", op.name));
                }
            }
        }
        for (what, _) in &self.needs {
            let known = if let Some((slot, value)) = what.split_once('=') {
                self.part(slot)
                    .is_some_and(|p| p.choices.iter().any(|c| c == value))
            } else {
                self.qualifiers().any(|q| q == what)
            };
            if !known {
                return Err(format!(
                    "`needs` names `{what}`, which the syntax never accepts"
                ));
            }
        }
        Ok(())
    }

    /// The part whose name is `name` (set name without the dot, or literal).
    pub fn part(&self, name: &str) -> Option<&Part> {
        let name = name.trim_start_matches('.');
        self.slots
            .iter()
            .flat_map(|s| &s.parts)
            .find(|p| p.name.trim_start_matches('.') == name)
    }

    /// Every qualifier this form accepts anywhere.
    pub fn qualifiers(&self) -> impl Iterator<Item = &str> {
        self.slots
            .iter()
            .flat_map(|s| &s.parts)
            .flat_map(|p| p.choices.iter().map(|c| c.as_str()))
    }
}

type Sets = Vec<(String, Vec<String>)>;

/// `.ss = { .const, .param{::entry, ::func}, .shared{::cta, ::cluster} }`.
/// Several names may share one list: `.dtype = .atype = { ... }`.
pub fn parse_sets(defs: &[&str]) -> Result<Sets, String> {
    let mut sets = Vec::new();
    for def in defs {
        let mut pieces: Vec<&str> = def.split('=').collect();
        let list = pieces.pop().unwrap_or_default();
        if pieces.is_empty() {
            return Err(format!("set `{def}` has no `=`"));
        }
        let values = expand_list(list)?;
        if values.is_empty() {
            return Err(format!("set `{def}` is empty"));
        }
        for name in pieces {
            let name = name.trim();
            if !name.starts_with('.') {
                return Err(format!("set name `{name}` must start with a dot"));
            }
            sets.push((name.to_string(), values.clone()));
        }
    }
    Ok(sets)
}

/// Expands `{ .a, .b{::x, ::y} }` into `.a .b .b::x .b::y`.
fn expand_list(list: &str) -> Result<Vec<String>, String> {
    let mut text = list.trim();
    if let Some(inner) = text.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        text = inner;
    }
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    let mut current = String::new();
    while let Some((_, c)) = chars.next() {
        match c {
            '{' => {
                let mut inner = String::new();
                for (_, c) in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                    inner.push(c);
                }
                if current.is_empty() {
                    return Err(format!("`{{` without a stem in `{list}`"));
                }
                out.push(current.clone());
                for sub in inner.split(|c: char| c == ',' || c.is_whitespace()) {
                    if !sub.is_empty() {
                        out.push(format!("{current}{sub}"));
                    }
                }
                current.clear();
            }
            ',' | ' ' | '\t' | '\n' => {
                if !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                }
            }
            _ => current.push(c),
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    for v in &out {
        if !v.starts_with('.') {
            return Err(format!("qualifier `{v}` must start with a dot"));
        }
    }
    Ok(out)
}

/// `cvt{.irnd}{.ftz}{.sat}.dtype.atype` into its opcode and slots.
fn parse_syntax(
    syntax: &str,
    sets: &[(String, Vec<String>)],
) -> Result<(String, Vec<Slot>), String> {
    let syntax = syntax.trim();
    let end = syntax.find(['.', '{']).unwrap_or(syntax.len());
    let opcode = syntax[..end].to_string();
    if opcode.is_empty()
        || !opcode
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return Err(format!("syntax `{syntax}` must start with an opcode"));
    }
    let mut slots = Vec::new();
    let mut rest = &syntax[end..];
    while !rest.is_empty() {
        let (optional, body, tail) = if let Some(r) = rest.strip_prefix('{') {
            let close = r
                .find('}')
                .ok_or_else(|| format!("unclosed `{{` in `{syntax}`"))?;
            (true, &r[..close], &r[close + 1..])
        } else {
            let next = rest[1..]
                .find(['.', '{'])
                .map(|i| i + 1)
                .unwrap_or(rest.len());
            (false, &rest[..next], &rest[next..])
        };
        let mut parts = Vec::new();
        for name in split_dotted(body) {
            let choices = match sets.iter().find(|(n, _)| *n == name) {
                Some((_, values)) => values.clone(),
                None => vec![name.clone()],
            };
            parts.push(Part { name, choices });
        }
        if parts.is_empty() {
            return Err(format!("empty slot in `{syntax}`"));
        }
        slots.push(Slot { optional, parts });
        rest = tail;
    }
    for (name, _) in sets {
        let used = slots.iter().flat_map(|s| &s.parts).any(|p| &p.name == name);
        if !used {
            return Err(format!("set `{name}` is not used by the syntax"));
        }
    }
    Ok((opcode, slots))
}

/// `.a.b::c.d` into `.a`, `.b::c`, `.d`.
fn split_dotted(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    for piece in body.split('.') {
        if !piece.is_empty() {
            out.push(format!(".{piece}"));
        }
    }
    out
}

/// `d: reg dtype, a: reg|imm atype, policy: reg .b64 if .L2::cache_hint`.
fn parse_operands(text: &str) -> Result<Vec<OperandSpec>, String> {
    let mut out = Vec::new();
    for item in text.split(',') {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let (name, spec) = item
            .split_once(':')
            .ok_or_else(|| format!("operand `{item}` needs `name: kind`"))?;
        let mut name = name.trim().to_string();
        let mut pred_partner = None;
        if let Some((n, p)) = name.clone().split_once('|') {
            pred_partner = Some(!p.ends_with('?'));
            name = n.to_string();
        }
        let mut presence = Presence::Required;
        if let Some(n) = name.strip_suffix('?') {
            name = n.to_string();
            presence = Presence::Optional;
        }
        let mut words: Vec<&str> = spec.split_whitespace().collect();
        if let Some(pos) = words.iter().position(|w| *w == "if") {
            let q = words
                .get(pos + 1)
                .ok_or_else(|| format!("operand `{item}`: `if` needs a qualifier"))?;
            presence = Presence::IfQualifier(q.to_string());
            words.truncate(pos);
        }
        let kind_word = words
            .first()
            .ok_or_else(|| format!("operand `{item}` has no kind"))?;
        let mut kinds = Vec::new();
        let mut vec_len = None;
        let (mut sink, mut braces_only, mut number_only) = (false, false, false);
        for k in kind_word.split('|') {
            let (k, len) = match k.split_once('<') {
                Some((k, l)) => (k, Some(l.trim_end_matches('>'))),
                None => (k, None),
            };
            let kind = match k {
                "sink" => {
                    sink = true;
                    continue;
                }
                "list" => {
                    braces_only = true;
                    OperandKind::Vec
                }
                "num" => {
                    number_only = true;
                    OperandKind::Imm
                }
                "reg" => OperandKind::Reg,
                "pred" => OperandKind::Pred,
                "imm" => OperandKind::Imm,
                "addr" => OperandKind::Addr,
                "taddr" => OperandKind::TensorAddr,
                "vec" => OperandKind::Vec,
                "sym" => OperandKind::Sym,
                "sreg" => OperandKind::Sreg,
                other => return Err(format!("operand `{item}`: unknown kind `{other}`")),
            };
            if let Some(l) = len {
                vec_len = Some(match l.parse() {
                    Ok(n) => VecLen::Fixed(n),
                    Err(_) => VecLen::Slot(l.to_string()),
                });
            }
            kinds.push(kind);
        }
        if sink && !kinds.contains(&OperandKind::Vec) {
            return Err(format!(
                "operand `{item}`: `sink` marks the elements of a `vec` or `list`"
            ));
        }
        if kinds.contains(&OperandKind::Vec) && vec_len.is_none() {
            return Err(format!(
                "operand `{item}`: `vec` needs a length, `vec<4>` or `vec<vec>`"
            ));
        }
        let ty = match words.get(1) {
            None => None,
            Some(t) if t.starts_with('.') => Some(TypeRef::Literal(t.to_string())),
            Some(t) => match t.split_once('/') {
                Some((slot, n)) => match n.parse() {
                    Ok(n) if n > 0 => Some(TypeRef::Divided(slot.to_string(), n)),
                    _ => return Err(format!("operand `{item}`: bad divisor in `{t}`")),
                },
                None => Some(TypeRef::Slot(t.to_string())),
            },
        };
        if words.len() > 2 {
            return Err(format!("operand `{item}`: too many words"));
        }
        out.push(OperandSpec {
            name,
            kinds,
            ty,
            vec_len,
            presence,
            pred_partner,
            sink,
            braces_only,
            number_only,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_spec_shorthand() {
        let v =
            expand_list("{ .const, .param{::entry, ::func}, .shared{::cta, ::cluster} }").unwrap();
        assert_eq!(
            v,
            [
                ".const",
                ".param",
                ".param::entry",
                ".param::func",
                ".shared",
                ".shared::cta",
                ".shared::cluster"
            ]
        );
    }

    #[test]
    fn shared_names() {
        let s = parse_sets(&[".dtype = .atype = { .u8, .f32 }"]).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[1].0, ".atype");
    }

    #[test]
    fn syntax_slots() {
        let sets = parse_sets(&[".irnd = .rni .rzi", ".dtype = .atype = .u8 .f32"]).unwrap();
        let (op, slots) = parse_syntax("cvt{.irnd}{.ftz}.dtype.atype", &sets).unwrap();
        assert_eq!(op, "cvt");
        assert_eq!(slots.len(), 4);
        assert!(slots[0].optional);
        assert_eq!(slots[0].parts[0].choices.len(), 2);
        assert_eq!(slots[3].parts[0].name, ".atype");
        let (_, group) = parse_syntax("ld{.relaxed.sys}.u8", &[]).unwrap();
        assert_eq!(group[0].parts.len(), 2);
    }

    #[test]
    fn operand_lists() {
        let ops = parse_operands("d|p?: reg .b32, [a]: addr, c: vec<vec> type, pol: reg .b64 if .L2::cache_hint, x?: imm").unwrap();
        assert_eq!(ops[0].pred_partner, Some(false));
        assert_eq!(ops[2].vec_len, Some(VecLen::Slot("vec".into())));
        assert_eq!(
            ops[3].presence,
            Presence::IfQualifier(".L2::cache_hint".into())
        );
        assert_eq!(ops[4].presence, Presence::Optional);
    }
}
