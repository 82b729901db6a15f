//! Where the values the search does not know come from. Each fresh value
//! is named after its kind and the instruction that made it (`x12` is the
//! result of instruction 12, which the search does not interpret), so that
//! a witness can say which of them its operands depend on.

use std::collections::HashSet;

use z3::ast::{Ast, Dynamic, BV};
use z3::AstKind;

/// An instruction the search does not interpret (floating point, bit
/// field, permutation...), a special register it does not model.
pub const OPAQUE: char = 'x';
/// A load from memory the search does not track (stores are not
/// remembered): shared, local, 128-bit.
pub const MEMORY: char = 'm';
/// A load from global memory: the replay's memory holds the value the
/// witness chose.
pub const GLOBAL: char = 'g';
/// What an mbarrier instruction returns (its state is not kept).
pub const MBARRIER: char = 'b';
/// A value from another thread (`shfl`).
pub const OTHER_THREAD: char = 's';
/// The unspecified result of an instruction whose precondition failed.
pub const UNDEFINED: char = 'r';
/// A floating-point result the search does not interpret: an approximate
/// form, or one built from more float operations than it follows.
pub const FLOAT: char = 'f';
/// A result the spec leaves unspecified (division by zero, `rem` of a
/// negative number).
pub const OPEN: char = 'u';
/// The carry flag read before any `.cc` instruction wrote it.
pub const CARRY: char = 'c';

/// The name of a fresh value of `kind` made at instruction `pc`.
pub fn tag(kind: char, pc: usize) -> String {
    format!("{kind}{pc}")
}

/// What a kind of fresh value is, in words.
pub fn meaning(kind: char) -> &'static str {
    match kind {
        OPAQUE => "its result is not interpreted by the search",
        MEMORY => "it reads memory the search does not track",
        MBARRIER => {
            "what it returns depends on the mbarrier's state, which the search does not keep"
        }
        OTHER_THREAD => "it reads another thread's value",
        FLOAT => "its floating-point result is not interpreted by the search (an approximate form, or more float operations than it follows)",
        OPEN => "the spec leaves its result unspecified here",
        CARRY => "it reads the carry flag before any .cc instruction wrote it",
        _ => "its value is not known to the search",
    }
}

/// The fresh values the terms depend on, as (kind, instruction), each
/// once, in order of instruction.
pub fn origins(terms: &[&BV]) -> Vec<(char, usize)> {
    let mut seen: HashSet<Dynamic> = HashSet::new();
    let mut stack: Vec<Dynamic> = terms.iter().map(|t| Dynamic::from_ast(*t)).collect();
    let mut out: Vec<(char, usize)> = Vec::new();
    while let Some(t) = stack.pop() {
        if !t.is_app() || !seen.insert(t.clone()) {
            continue;
        }
        let n = t.num_children();
        if n == 0 {
            // a constant (numerals and `true` do not parse)
            if t.kind() == AstKind::App {
                if let Some(o) = parse(&t.decl().name()) {
                    if !out.contains(&o) {
                        out.push(o);
                    }
                }
            }
            continue;
        }
        stack.extend((0..n).filter_map(|i| t.nth_child(i)));
    }
    out.sort_by_key(|&(k, pc)| (pc, k));
    out
}

/// `x12!3` (a fresh value's name) as (`x`, 12).
fn parse(name: &str) -> Option<(char, usize)> {
    let mut chars = name.chars();
    let kind = chars.next()?;
    let rest: String = chars.take_while(|c| *c != '!').collect();
    let pc = rest.parse().ok()?;
    matches!(
        kind,
        OPAQUE | MEMORY | GLOBAL | MBARRIER | OTHER_THREAD | UNDEFINED | FLOAT | OPEN | CARRY
    )
    .then_some((kind, pc))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_name_the_instructions() {
        let a = BV::fresh_const(&tag(OPAQUE, 12), 64);
        let b = BV::fresh_const(&tag(MEMORY, 3), 64);
        let p = BV::new_const("param.p", 64);
        let t = a.bvadd(&b).bvadd(&p).bvmul(&a);
        assert_eq!(origins(&[&t]), vec![(MEMORY, 3), (OPAQUE, 12)]);
        assert_eq!(origins(&[&p]), vec![]);
    }
}
