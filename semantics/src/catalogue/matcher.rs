//! Matching an instruction's qualifiers against a form's qualifier grammar.

use super::grammar::Form;
use super::types::{ptx_type, PtxType};
use super::Order;

/// Which qualifier filled which part of a form, plus what the checker knows
/// of the operands; rules read it.
#[derive(Clone, Debug)]
pub struct Binding<'a> {
    pub form: &'a Form,
    /// `(part name, qualifier)` in syntax order (shared, so bindings are
    /// cheap to copy).
    pub values: std::sync::Arc<[(&'a str, &'a str)]>,
    /// Immediate operand values, by operand name, where the operand is one.
    pub imms: Vec<(&'a str, i128)>,
    /// Floating-point immediate operands, by operand name.
    pub float_imms: Vec<(&'a str, f64)>,
    /// How many operands the instruction has.
    pub operand_count: usize,
    /// The module's `.address_size`, once the checker knows it (0 before).
    pub address_bits: u32,
}

impl<'a> Binding<'a> {
    /// Whether the instruction carries this qualifier.
    pub fn has(&self, qualifier: &str) -> bool {
        self.values.iter().any(|(_, q)| *q == qualifier)
    }

    /// The qualifier that filled a slot (`"dtype"` or `".dtype"`).
    pub fn get(&self, slot: &str) -> Option<&'a str> {
        // Part names always carry their leading dot.
        let slot = slot.strip_prefix('.').unwrap_or(slot);
        self.values
            .iter()
            .find(|(p, _)| p.len() == slot.len() + 1 && &p[1..] == slot)
            .map(|(_, q)| *q)
    }

    /// Whether a slot holds this qualifier.
    pub fn is(&self, slot: &str, qualifier: &str) -> bool {
        self.get(slot) == Some(qualifier)
    }

    /// The type a slot names, when it names one.
    pub fn ty(&self, slot: &str) -> Option<PtxType> {
        ptx_type(self.get(slot)?)
    }

    /// A floating-point immediate operand's value.
    pub fn float_imm(&self, operand: &str) -> Option<f64> {
        self.float_imms
            .iter()
            .find(|(n, _)| *n == operand)
            .map(|(_, v)| *v)
    }

    /// An immediate operand's value.
    pub fn imm(&self, operand: &str) -> Option<i128> {
        self.imms
            .iter()
            .find(|(n, _)| *n == operand)
            .map(|(_, v)| *v)
    }
}

/// Why the qualifiers do not fit a form; `score` ranks near misses so the
/// diagnostic can speak of the closest form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub score: i32,
    pub kind: MismatchKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MismatchKind {
    /// No slot of the form accepts this qualifier.
    Unknown(String),
    /// A required slot is empty; its name and what it accepts.
    Missing { slot: String, choices: Vec<String> },
    /// The same qualifier twice.
    Duplicate(String),
    /// Each qualifier is known but no order or combination fits.
    Combination,
    /// The words of the instruction's name are not first, in order.
    NameOrder(String),
}

/// Words that, after the opcode, spell an instruction's name rather than
/// qualify it.
const NAME_WORDS: &[&str] = &[
    ".async",
    ".bulk",
    ".tensor",
    ".reduce",
    ".prefetch",
    ".commit_group",
    ".wait_group",
    ".wait_all",
    ".ld_reduce",
    ".st",
    ".red",
    ".replace",
    ".pack",
    ".to",
    ".fractional",
    ".range",
    ".cvt",
];

/// The leading literal slots of a form that belong to its name, for the
/// instructions whose spec name has more than one word, plus `cvta.to` and
/// `createpolicy.fractional`-style forms.
pub fn name_words(form: &Form) -> Vec<&str> {
    let mut out = Vec::new();
    for slot in &form.slots {
        if slot.optional || slot.parts.len() != 1 || slot.parts[0].choices.len() != 1 {
            break;
        }
        let lit = slot.parts[0].choices[0].as_str();
        if !is_name_word(form, lit) {
            break;
        }
        out.push(lit);
    }
    out
}

fn is_name_word(form: &Form, lit: &str) -> bool {
    NAME_WORDS.contains(&lit)
        && !(lit == ".prefetch" && form.opcode != "cp")
        && !(matches!(lit, ".st" | ".red") && form.opcode != "multimem")
        && !(lit == ".cvt" && form.opcode != "createpolicy")
        && !(lit == ".to" && form.opcode != "cvta")
}

/// Matches qualifiers against a form, without explaining a miss.
pub fn try_match<'a>(form: &'a Form, quals: &[&str]) -> Option<Binding<'a>> {
    match_inner(form, quals)
}

/// Matches qualifiers (with their dots, in written order) against a form.
pub fn match_qualifiers<'a>(form: &'a Form, quals: &[&str]) -> Result<Binding<'a>, Mismatch> {
    if let Some(b) = match_inner(form, quals) {
        return Ok(b);
    }
    let name = name_words(form);
    if name
        .iter()
        .enumerate()
        .any(|(k, w)| quals.get(k) != Some(w))
    {
        return Err(Mismatch {
            score: -1,
            kind: MismatchKind::NameOrder(format!("{}{}", form.opcode, name.concat())),
        });
    }
    Err(diagnose(form, quals))
}

fn match_inner<'a>(form: &'a Form, quals: &[&str]) -> Option<Binding<'a>> {
    if quals.iter().any(|q| !form.accepted.contains(*q))
        || form
            .required_literals
            .iter()
            .any(|l| !quals.contains(&l.as_str()))
    {
        return None;
    }
    // Words that belong to the instruction's name (`cp.async.bulk`,
    // `multimem.ld_reduce`, `cvta.to`) come first and in order; ptxas
    // reads anything else as an unknown instruction or modifier.
    if !name_prefix_ok(form, quals) {
        return None;
    }
    let n = quals.len();
    let m = form.slots.len();
    let mut failed = vec![false; (n + 1) * (m + 1)];
    let mut path = Vec::new();
    let found = walk(form, quals, 0, 0, &mut failed, &mut path)
        || (form.row.order == Order::Free && walk_unordered(form, quals, &mut path));
    if found {
        let values: std::sync::Arc<[(&str, &str)]> = path
            .iter()
            .map(|&(slot, part, qi)| {
                let p = &form.slots[slot].parts[part];
                let q = p.choices.iter().find(|c| *c == quals[qi]).expect("matched");
                (p.name.as_str(), q.as_str())
            })
            .collect();
        return Some(Binding {
            form,
            values,
            imms: Vec::new(),
            float_imms: Vec::new(),
            operand_count: 0,
            address_bits: 0,
        });
    }
    None
}

/// Whether the instruction's name words come first, in order.
fn name_prefix_ok(form: &Form, quals: &[&str]) -> bool {
    name_words(form)
        .iter()
        .enumerate()
        .all(|(k, word)| quals.get(k) == Some(word))
}

/// Depth-first over (qualifier index, slot index), remembering dead ends.
fn walk(
    form: &Form,
    quals: &[&str],
    qi: usize,
    si: usize,
    failed: &mut [bool],
    path: &mut Vec<(usize, usize, usize)>,
) -> bool {
    let m = form.slots.len();
    if si == m {
        return qi == quals.len();
    }
    let key = qi * (m + 1) + si;
    if failed[key] {
        return false;
    }
    let slot = &form.slots[si];
    let k = slot.parts.len();
    if qi + k <= quals.len()
        && slot
            .parts
            .iter()
            .zip(&quals[qi..qi + k])
            .all(|(p, q)| p.choices.iter().any(|c| c == q))
    {
        let mark = path.len();
        for j in 0..k {
            path.push((si, j, qi + j));
        }
        if walk(form, quals, qi + k, si + 1, failed, path) {
            return true;
        }
        path.truncate(mark);
    }
    if slot.optional && walk(form, quals, qi, si + 1, failed, path) {
        return true;
    }
    failed[key] = true;
    false
}

/// Matches qualifiers written in any order: each qualifier goes to the
/// first free part (in syntax order) that accepts it, backtracking where a
/// later part must take it instead, so parts with the same set (`.dtype`,
/// `.atype`) keep their written order.
fn walk_unordered(form: &Form, quals: &[&str], path: &mut Vec<(usize, usize, usize)>) -> bool {
    let parts: Vec<(usize, usize)> = form
        .slots
        .iter()
        .enumerate()
        .flat_map(|(si, s)| (0..s.parts.len()).map(move |pi| (si, pi)))
        .collect();
    if parts.len() > 64 {
        return false;
    }
    let mut filled = vec![usize::MAX; parts.len()];
    let mut budget = 10_000u32;
    if assign(form, quals, 0, &parts, &mut filled, &mut budget) {
        path.clear();
        let mut out: Vec<(usize, usize, usize)> = parts
            .iter()
            .zip(&filled)
            .filter(|(_, q)| **q != usize::MAX)
            .map(|(&(si, pi), &q)| (si, pi, q))
            .collect();
        out.sort();
        path.extend(out);
        return true;
    }
    false
}

fn assign(
    form: &Form,
    quals: &[&str],
    qi: usize,
    parts: &[(usize, usize)],
    filled: &mut [usize],
    budget: &mut u32,
) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    if qi == quals.len() {
        // Parts whose sets overlap keep their written order (`.dtype.atype`,
        // primary then secondary priority).
        for a in 0..parts.len() {
            for b in a + 1..parts.len() {
                if filled[a] == usize::MAX || filled[b] == usize::MAX || filled[a] < filled[b] {
                    continue;
                }
                let (pa, pb) = (
                    &form.slots[parts[a].0].parts[parts[a].1],
                    &form.slots[parts[b].0].parts[parts[b].1],
                );
                if pa.choices.iter().any(|c| pb.choices.contains(c)) {
                    return false;
                }
            }
        }
        return form.slots.iter().enumerate().all(|(si, slot)| {
            let states: Vec<bool> = parts
                .iter()
                .zip(filled.iter())
                .filter(|((s, _), _)| *s == si)
                .map(|(_, q)| *q != usize::MAX)
                .collect();
            let all = states.iter().all(|x| *x);
            let none = states.iter().all(|x| !*x);
            all || (slot.optional && none)
        });
    }
    for (k, &(si, pi)) in parts.iter().enumerate() {
        if filled[k] != usize::MAX {
            continue;
        }
        if !form.slots[si].parts[pi]
            .choices
            .iter()
            .any(|c| c == quals[qi])
        {
            continue;
        }
        filled[k] = qi;
        if assign(form, quals, qi + 1, parts, filled, budget) {
            return true;
        }
        filled[k] = usize::MAX;
    }
    false
}

fn diagnose(form: &Form, quals: &[&str]) -> Mismatch {
    let accepted = |q: &str| form.qualifiers().any(|c| c == q);
    let known = quals.iter().filter(|q| accepted(q)).count() as i32;
    if let Some(q) = quals.iter().find(|q| !accepted(q)) {
        return Mismatch {
            score: known * 4 - 8,
            kind: MismatchKind::Unknown(q.to_string()),
        };
    }
    for slot in form.slots.iter().filter(|s| !s.optional) {
        for part in &slot.parts {
            if !quals.iter().any(|q| part.choices.iter().any(|c| c == q)) {
                return Mismatch {
                    score: known * 4 - 2,
                    kind: MismatchKind::Missing {
                        slot: part.name.clone(),
                        choices: part.choices.clone(),
                    },
                };
            }
        }
    }
    for (i, q) in quals.iter().enumerate() {
        if quals[..i].contains(q) {
            let slots = form
                .slots
                .iter()
                .flat_map(|s| &s.parts)
                .filter(|p| p.choices.iter().any(|c| c == q))
                .count();
            let uses = quals.iter().filter(|x| *x == q).count();
            if uses > slots {
                return Mismatch {
                    score: known * 4 - 1,
                    kind: MismatchKind::Duplicate(q.to_string()),
                };
            }
        }
    }
    Mismatch {
        score: known * 4 - 1,
        kind: MismatchKind::Combination,
    }
}
