//! Independent parts of a query. A path's condition is a list of
//! conjuncts; those that share no unknown, directly or through other
//! conjuncts, with what a query asks about cannot change its answer when
//! they can hold at all. The search asks about the connected part only
//! (a branch on a loaded float's bits, a wait loop's answers and the
//! like drop out), and asks the whole condition again before it takes a
//! model for a witness, since only the whole condition says the path can
//! happen.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use z3::ast::{Ast, Bool, Dynamic};
use z3::{AstKind, SortKind};

/// The unknowns of terms, by number.
#[derive(Default)]
pub struct Slicer {
    names: HashMap<String, u32>,
    memo: HashMap<Bool, Rc<Vec<u32>>>,
    /// The unknowns of each constraint the solver always has (the launch
    /// bounds, the parameters' placement): they connect what they name.
    fixed: Vec<Rc<Vec<u32>>>,
    /// Queries (their connected parts, in a canonical order) known to be
    /// unsatisfiable.
    unsat: HashSet<Vec<Bool>>,
}

impl Slicer {
    pub fn fix(&mut self, c: &Bool) {
        let s = self.support(c);
        self.fixed.push(s);
    }

    /// The unknowns `b` mentions, sorted.
    pub fn support(&mut self, b: &Bool) -> Rc<Vec<u32>> {
        if let Some(s) = self.memo.get(b) {
            return s.clone();
        }
        let mut seen: HashSet<Dynamic> = HashSet::new();
        let mut stack = vec![Dynamic::from_ast(b)];
        let mut out: Vec<u32> = Vec::new();
        while let Some(t) = stack.pop() {
            if !t.is_app() || !seen.insert(t.clone()) {
                continue;
            }
            let n = t.num_children();
            if n == 0 {
                // rounding modes (`roundTowardZero`) and float numerals
                // are constants too, but no unknowns
                if t.kind() == AstKind::App && t.get_sort().kind() != SortKind::RoundingMode {
                    let name = t.decl().name();
                    if name != "true" && name != "false" && name != "fp.numeral" {
                        let next = self.names.len() as u32;
                        out.push(*self.names.entry(name).or_insert(next));
                    }
                }
                continue;
            }
            stack.extend((0..n).filter_map(|i| t.nth_child(i)));
        }
        out.sort_unstable();
        out.dedup();
        let s = Rc::new(out);
        self.memo.insert(b.clone(), s.clone());
        s
    }

    /// The conjuncts of `cond` connected to `asked` (through shared
    /// unknowns, the solver's fixed constraints included), in their
    /// order.
    pub fn slice(&mut self, cond: &[Bool], asked: &[Bool]) -> Vec<Bool> {
        let mut vars: HashSet<u32> = HashSet::new();
        for a in asked {
            vars.extend(self.support(a).iter());
        }
        let supports: Vec<Rc<Vec<u32>>> = cond.iter().map(|c| self.support(c)).collect();
        let mut taken = vec![false; cond.len()];
        let mut fixed_taken = vec![false; self.fixed.len()];
        let mut grew = true;
        while grew {
            grew = false;
            for (k, s) in supports.iter().enumerate() {
                if !taken[k] && s.iter().any(|v| vars.contains(v)) {
                    taken[k] = true;
                    vars.extend(s.iter());
                    grew = true;
                }
            }
            for (k, s) in self.fixed.iter().enumerate() {
                if !fixed_taken[k] && s.iter().any(|v| vars.contains(v)) {
                    fixed_taken[k] = true;
                    vars.extend(s.iter());
                    grew = true;
                }
            }
        }
        cond.iter()
            .zip(&taken)
            .filter(|(_, t)| **t)
            .map(|(c, _)| c.clone())
            .collect()
    }

    /// A query's conjuncts in a canonical order, for the cache.
    fn key(q: &[Bool]) -> Vec<Bool> {
        let mut k: Vec<(u64, Bool)> = q
            .iter()
            .map(|b| {
                use std::hash::{Hash, Hasher};
                let mut h = std::collections::hash_map::DefaultHasher::new();
                b.hash(&mut h);
                (h.finish(), b.clone())
            })
            .collect();
        k.sort_by_key(|(h, _)| *h);
        k.dedup_by(|a, b| a.1 == b.1);
        k.into_iter().map(|(_, b)| b).collect()
    }

    pub fn known_unsat(&self, q: &[Bool]) -> bool {
        self.unsat.contains(&Self::key(q))
    }

    pub fn remember_unsat(&mut self, q: &[Bool]) {
        self.unsat.insert(Self::key(q));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::BV;

    #[test]
    fn only_connected_conjuncts_are_kept() {
        let x = BV::new_const("x", 64);
        let y = BV::new_const("y", 64);
        let z = BV::new_const("z", 64);
        let w = BV::new_const("w", 64);
        let c1 = x.bvult(&y);
        let c2 = y.bvult(&z);
        let c3 = w.bvult(BV::from_u64(5, 64));
        let mut s = Slicer::default();
        let asked = [z.eq(BV::from_u64(1, 64))];
        let kept = s.slice(&[c1.clone(), c2.clone(), c3.clone()], &asked);
        assert_eq!(kept, vec![c1.clone(), c2.clone()]);
        // a fixed constraint connects w to x
        s.fix(&w.eq(&x));
        let kept = s.slice(&[c1.clone(), c2.clone(), c3.clone()], &asked);
        assert_eq!(kept, vec![c1, c2, c3]);
    }

    /// Float terms share rounding modes and float numerals, which are no
    /// unknowns: two conditions on floats of different parameters stay
    /// apart.
    #[test]
    fn rounding_modes_connect_nothing() {
        use z3::ast::{Float, RoundingMode};
        let rm = RoundingMode::round_towards_zero();
        let f = |name: &str| {
            let x = Float::new_const(name, 8, 24);
            x.add_with_rounding_mode(Float::from_f32(1.5), &rm)
                .lt(Float::from_f32(2.0))
        };
        let (cp, cq) = (f("p"), f("q"));
        let mut s = Slicer::default();
        let asked = std::slice::from_ref(&cq);
        assert_eq!(
            s.slice(std::slice::from_ref(&cp), asked),
            Vec::<Bool>::new()
        );
        assert_eq!(s.slice(&[cp.clone(), cq.clone()], asked), vec![cq.clone()]);
    }
}
