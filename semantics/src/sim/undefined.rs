//! What the spec leaves undefined, as values: the clause that says so, and
//! whether the whole behaviour or only a result is undefined.

use std::fmt;

/// A rule of the spec that a program broke, or that leaves a result free.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Undefined {
    /// The PTX ISA section (`"9.7.9.20"`), or the model's own section for
    /// situations the spec does not name (see [`Undefined::MODEL`]).
    pub section: &'static str,
    /// The rule, quoted from the spec where it has words for it.
    pub rule: &'static str,
    pub effect: Effect,
}

/// How far the undefinedness reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// "the behavior is undefined": the thread stops with a report.
    Behaviour,
    /// "the resulting address is undefined", "results are undefined": the
    /// destination holds unspecified bits; the thread goes on.
    Result,
}

impl Undefined {
    /// Section named by the model's own clauses: memory safety and limits
    /// the spec takes for granted (an access outside every object).
    pub const MODEL: &'static str = "model";

    pub const fn behaviour(section: &'static str, rule: &'static str) -> Undefined {
        Undefined {
            section,
            rule,
            effect: Effect::Behaviour,
        }
    }

    pub const fn result(section: &'static str, rule: &'static str) -> Undefined {
        Undefined {
            section,
            rule,
            effect: Effect::Result,
        }
    }
}

impl fmt::Display for Undefined {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.effect {
            Effect::Behaviour => "undefined behaviour",
            Effect::Result => "undefined result",
        };
        if self.section == Undefined::MODEL {
            write!(f, "{what}: {}", self.rule)
        } else {
            write!(f, "{what} (PTX ISA {}): {}", self.section, self.rule)
        }
    }
}

/// A value some of whose bits the spec leaves free: `unspecified` has a 1
/// for each free bit (whose value in `bits` means nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Partial<T> {
    pub bits: T,
    pub unspecified: T,
}

impl Partial<u32> {
    pub const fn known(bits: u32) -> Self {
        Partial {
            bits,
            unspecified: 0,
        }
    }

    /// Every bit free; `bits` is what the model puts there (zero).
    pub const fn unknown() -> Self {
        Partial {
            bits: 0,
            unspecified: u32::MAX,
        }
    }

    pub const fn is_known(&self) -> bool {
        self.unspecified == 0
    }
}
