//! Binary relations over the events of one candidate execution, as bit
//! matrices (one 128-bit row per event), with the operators the model is
//! written in: union, intersection, difference, sequence, inverse,
//! transitive closure, restriction to sets. Executions have at most
//! [`MAX_EVENTS`] events.

/// The largest number of events an execution may have.
pub const MAX_EVENTS: usize = 128;

/// A set of events.
pub type Set = u128;

/// A relation: `rows[a]` has bit `b` set when `a` is related to `b`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rel {
    rows: Vec<u128>,
}

/// The set holding every event below `n`.
pub fn full(n: usize) -> Set {
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

/// The events of a set, in increasing order.
pub fn members(s: Set) -> impl Iterator<Item = usize> {
    let mut s = s;
    std::iter::from_fn(move || {
        if s == 0 {
            return None;
        }
        let i = s.trailing_zeros() as usize;
        s &= s - 1;
        Some(i)
    })
}

impl Rel {
    /// The empty relation over `n` events.
    pub fn empty(n: usize) -> Rel {
        Rel { rows: vec![0; n] }
    }

    /// The identity on a set.
    pub fn id(n: usize, on: Set) -> Rel {
        let mut r = Rel::empty(n);
        for i in members(on & full(n)) {
            r.rows[i] = 1 << i;
        }
        r
    }

    /// All pairs `(a, b)` with `a` in `from` and `b` in `to`.
    pub fn product(n: usize, from: Set, to: Set) -> Rel {
        let mut r = Rel::empty(n);
        for i in members(from & full(n)) {
            r.rows[i] = to & full(n);
        }
        r
    }

    /// The pairs for which `f` holds.
    pub fn from_fn(n: usize, mut f: impl FnMut(usize, usize) -> bool) -> Rel {
        let mut r = Rel::empty(n);
        for a in 0..n {
            for b in 0..n {
                if f(a, b) {
                    r.rows[a] |= 1 << b;
                }
            }
        }
        r
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.iter().all(|&r| r == 0)
    }

    pub fn contains(&self, a: usize, b: usize) -> bool {
        self.rows[a] >> b & 1 == 1
    }

    pub fn add(&mut self, a: usize, b: usize) {
        self.rows[a] |= 1 << b;
    }

    /// Sets the events `a` is related to.
    pub fn set_row(&mut self, a: usize, row: Set) {
        self.rows[a] = row;
    }

    /// The events `a` is related to.
    pub fn row(&self, a: usize) -> Set {
        self.rows[a]
    }

    /// Every pair, in order.
    pub fn pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.rows
            .iter()
            .enumerate()
            .flat_map(|(a, &row)| members(row).map(move |b| (a, b)))
    }

    pub fn union(&self, o: &Rel) -> Rel {
        self.zip(o, |a, b| a | b)
    }

    pub fn inter(&self, o: &Rel) -> Rel {
        self.zip(o, |a, b| a & b)
    }

    pub fn minus(&self, o: &Rel) -> Rel {
        self.zip(o, |a, b| a & !b)
    }

    fn zip(&self, o: &Rel, f: impl Fn(u128, u128) -> u128) -> Rel {
        Rel {
            rows: self
                .rows
                .iter()
                .zip(&o.rows)
                .map(|(&a, &b)| f(a, b))
                .collect(),
        }
    }

    /// `self ; o`: `a` to `c` when `a self b` and `b o c` for some `b`.
    pub fn seq(&self, o: &Rel) -> Rel {
        Rel {
            rows: self
                .rows
                .iter()
                .map(|&row| members(row).fold(0, |acc, b| acc | o.rows[b]))
                .collect(),
        }
    }

    pub fn inverse(&self) -> Rel {
        let mut r = Rel::empty(self.len());
        for (a, b) in self.pairs() {
            r.rows[b] |= 1 << a;
        }
        r
    }

    /// `self+`, the transitive closure.
    pub fn plus(&self) -> Rel {
        let mut r = self.clone();
        for k in 0..r.len() {
            let rk = r.rows[k];
            for i in 0..r.len() {
                if r.rows[i] >> k & 1 == 1 {
                    r.rows[i] |= rk;
                }
            }
        }
        r
    }

    /// `self?`, the relation or the identity on every event.
    pub fn opt(&self) -> Rel {
        let mut r = self.clone();
        for (i, row) in r.rows.iter_mut().enumerate() {
            *row |= 1 << i;
        }
        r
    }

    /// `[from]; self; [to]`
    pub fn restrict(&self, from: Set, to: Set) -> Rel {
        Rel {
            rows: self
                .rows
                .iter()
                .enumerate()
                .map(|(i, &row)| if from >> i & 1 == 1 { row & to } else { 0 })
                .collect(),
        }
    }

    /// `self \ id`
    pub fn irreflexive_part(&self) -> Rel {
        let mut r = self.clone();
        for (i, row) in r.rows.iter_mut().enumerate() {
            *row &= !(1 << i);
        }
        r
    }

    /// An event related to itself, if any.
    pub fn reflexive_point(&self) -> Option<usize> {
        (0..self.len()).find(|&i| self.contains(i, i))
    }

    pub fn is_irreflexive(&self) -> bool {
        self.reflexive_point().is_none()
    }

    pub fn is_acyclic(&self) -> bool {
        self.plus().is_irreflexive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closure_and_sequence() {
        let mut r = Rel::empty(4);
        r.add(0, 1);
        r.add(1, 2);
        r.add(2, 3);
        let p = r.plus();
        assert!(p.contains(0, 3) && p.contains(1, 3) && !p.contains(3, 0));
        assert!(r.is_acyclic());
        let s = r.seq(&r);
        assert_eq!(s.pairs().collect::<Vec<_>>(), vec![(0, 2), (1, 3)]);
        r.add(3, 0);
        assert!(!r.is_acyclic());
        assert_eq!(r.inverse().row(0), 1 << 3);
        assert_eq!(r.opt().row(2), 0b1100);
        assert_eq!(
            r.restrict(0b0011, 0b0110).pairs().collect::<Vec<_>>(),
            vec![(0, 1), (1, 2)]
        );
    }

    #[test]
    fn full_sets() {
        assert_eq!(full(0), 0);
        assert_eq!(full(3), 0b111);
        assert_eq!(full(128), u128::MAX);
        assert_eq!(members(0b1010).collect::<Vec<_>>(), vec![1, 3]);
    }
}
