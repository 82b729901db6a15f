//! The instruction catalogue: every form of PTX ISA 9.7.9, declared once as
//! data. The parser uses it to find where an opcode ends, the checker to
//! judge qualifiers, operands, PTX versions and targets; the generator and
//! reports read it too. Meaning (what an instruction computes) lives
//! elsewhere.
//!
//! A row reads like the manual's syntax block:
//!
//! ```text
//! Row {
//!     instr: "cvt", id: "cvt.irnd", section: "9.7.9.21",
//!     syntax: "cvt{.irnd}{.ftz}{.sat}.dtype.atype",
//!     operands: "d: reg dtype, a: reg atype",
//!     sets: &[".irnd = { .rni, .rzi, .rmi, .rpi }", ".dtype = .atype = { .u8, ... }"],
//!     since: "1.0",
//!     needs: &[(".atype=.bf16", "7.8 sm_90")],
//!     rules: &[Rule::illegal("...", |b| ...)],
//!     ..Row::BASE
//! }
//! ```
//!
//! Notation:
//! - `syntax`: the opcode, then qualifier slots in order. `.x` is required,
//!   `{.x}` optional, `{.x.y}` an optional group (both or neither). A slot
//!   named like a set in `sets` accepts any member of the set; otherwise it
//!   is the literal qualifier.
//! - `sets`: `.name = { .a, .b{::c, ::d} }`; `.b{::c, ::d}` is the spec's
//!   shorthand for `.b .b::c .b::d`. `.dtype = .atype = {...}` names two.
//! - `operands`: `name: kind [type] [if .qualifier]`, comma separated.
//!   Kinds (alternatives with `|`): `reg`, `pred`, `imm`, `addr` (`[a]`,
//!   `[a+imm]`, `[var]`), `taddr` (`[tmap, {c0, c1}]`), `vec<N>` or
//!   `vec<slot>` (`{a, b}`), `sym` (variable or function name), `sreg`.
//!   The type is a set name of the syntax (`dtype`), a literal type (`.b64`),
//!   or left out. `name?` is optional; `... if .L2::cache_hint` is present
//!   exactly when that qualifier is; `d|p` carries a predicate partner
//!   (`d|p?` optionally).
//! - `since`: the PTX version and targets the form needs (`"7.8 sm_90"`;
//!   `sm_90` means sm_90 and up, `sm_90a` only sm_90a, `sm_100f` the family).
//! - `needs`: extra requirements of one qualifier (`".b128"`) or one slot
//!   value (`"dtype=.bf16"`).
//! - `rules`: constraints the grammar cannot say, each quoting the spec.

pub mod arith;
pub mod grammar;
pub mod matcher;
mod rows;
pub mod target;
pub mod types;

use std::sync::OnceLock;

pub use grammar::{Form, NotationError, OperandKind, OperandSpec, Presence, TypeRef, VecLen};
pub use matcher::{Binding, Mismatch, MismatchKind};
pub use target::{PtxVersion, Requirement, Target};
pub use types::Fit;

/// One instruction form of PTX ISA 9.7.9, as written in the manual.
#[derive(Debug)]
pub struct Row {
    /// The instruction's name as in the spec's list (`cp.async.bulk.tensor`).
    pub instr: &'static str,
    /// A unique id for this form (`cvt.irnd`).
    pub id: &'static str,
    /// The spec section (`9.7.9.21`).
    pub section: &'static str,
    /// Opcode and qualifier grammar.
    pub syntax: &'static str,
    /// Operands, in order.
    pub operands: &'static str,
    /// Qualifier sets named in `syntax`.
    pub sets: &'static [&'static str],
    /// PTX version and targets the form needs.
    pub since: &'static str,
    /// Requirements of single qualifiers or slot values.
    pub needs: &'static [(&'static str, &'static str)],
    /// Constraints between qualifiers and operands.
    pub rules: &'static [Rule],
    /// How register operand types are compared with the instruction type.
    pub fit: Fit,
    /// Whether the qualifiers must come in the syntax's order.
    pub order: Order,
}

/// Whether an instruction's qualifiers must follow the syntax line's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Any order; parts with the same set keep their written order.
    Free,
    /// Exactly the syntax line's order.
    Strict,
}

impl Row {
    /// The defaults a row starts from: `..Row::BASE`.
    pub const BASE: Row = Row {
        instr: "",
        id: "",
        section: "",
        syntax: "",
        operands: "",
        sets: &[],
        since: "1.0",
        needs: &[],
        rules: &[],
        fit: Fit::Exact,
        order: Order::Free,
    };
}

/// A constraint of one form that its grammar cannot say.
#[derive(Debug)]
pub struct Rule {
    /// What the spec says, quoted or closely paraphrased.
    pub says: &'static str,
    /// The situation the rule is about.
    pub when: fn(&Binding) -> bool,
    pub then: Then,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Then {
    /// The combination is not legal PTX.
    Illegal,
    /// The combination needs this PTX version and targets (requirement
    /// notation as in `since`).
    Needs(&'static str),
    /// The combination was removed from this PTX version on, for these
    /// targets (`"6.4 sm_70"`: not in PTX ISA 6.4 or later on sm_70 and up).
    Removed(&'static str),
}

impl Rule {
    pub const fn illegal(says: &'static str, when: fn(&Binding) -> bool) -> Rule {
        Rule {
            says,
            when,
            then: Then::Illegal,
        }
    }

    pub const fn removed(
        says: &'static str,
        req: &'static str,
        when: fn(&Binding) -> bool,
    ) -> Rule {
        Rule {
            says,
            when,
            then: Then::Removed(req),
        }
    }

    pub const fn needs(says: &'static str, req: &'static str, when: fn(&Binding) -> bool) -> Rule {
        Rule {
            says,
            when,
            then: Then::Needs(req),
        }
    }
}

/// The parsed catalogue.
pub struct Catalogue {
    pub forms: Vec<Form>,
    /// Indices into `forms` by opcode (first word).
    by_opcode: std::collections::HashMap<String, Vec<usize>, crate::check::Fnv>,
    /// What each opcode-and-qualifiers string resolved to (resolution
    /// depends on nothing else, so every checker can share it).
    memo: std::sync::RwLock<std::collections::HashMap<String, Resolved, crate::check::Fnv>>,
}

/// The forms an opcode-and-qualifiers string resolves to.
pub type Resolved = std::sync::Arc<Vec<Binding<'static>>>;

impl Catalogue {
    /// The catalogue, parsed once. A row with a notation error is left out
    /// here and reported by [`Catalogue::errors`] (a unit test keeps it empty).
    pub fn get() -> &'static Catalogue {
        static CAT: OnceLock<Catalogue> = OnceLock::new();
        CAT.get_or_init(|| Catalogue::from_rows(rows::ALL))
    }

    /// A catalogue of these families of rows (rows with a notation error
    /// are left out; [`Catalogue::row_errors`] lists them).
    pub(crate) fn from_rows(all: &'static [&'static [Row]]) -> Catalogue {
        let forms: Vec<Form> = all
            .iter()
            .flat_map(|family| family.iter())
            .filter_map(|row| Form::parse(row).ok())
            .collect();
        let mut by_opcode: std::collections::HashMap<String, Vec<usize>, crate::check::Fnv> =
            Default::default();
        for (i, f) in forms.iter().enumerate() {
            by_opcode.entry(f.opcode.clone()).or_default().push(i);
        }
        Catalogue {
            forms,
            by_opcode,
            memo: Default::default(),
        }
    }

    /// Notation errors of every row.
    pub fn errors() -> Vec<NotationError> {
        Catalogue::row_errors(rows::ALL)
    }

    /// Notation errors of these families of rows.
    pub(crate) fn row_errors(all: &'static [&'static [Row]]) -> Vec<NotationError> {
        all.iter()
            .flat_map(|family| family.iter())
            .filter_map(|row| Form::parse(row).err())
            .collect()
    }

    /// Whether any form starts with this opcode.
    pub fn knows_opcode(&self, opcode: &str) -> bool {
        self.by_opcode.contains_key(opcode)
    }

    /// The first form whose qualifier grammar and [`Then::Illegal`] rules
    /// accept `opcode` with `quals` (dots included, written order), or the
    /// closest miss. Operands and version requirements are the checker's
    /// business.
    pub fn resolve<'a>(&'a self, opcode: &str, quals: &[&str]) -> Result<Binding<'a>, Resolve<'a>> {
        self.resolve_all(opcode, quals).and_then(|mut all| {
            if all.is_empty() {
                Err(Resolve::UnknownOpcode)
            } else {
                Ok(all.swap_remove(0))
            }
        })
    }

    /// [`Catalogue::resolve_all`] for an instruction written `key`
    /// (`cvt.rn.f16.f32`), remembered across calls.
    pub fn resolve_memo(
        &'static self,
        key: &str,
        opcode: &str,
        quals: &[&str],
    ) -> Result<Resolved, Resolve<'static>> {
        if let Ok(memo) = self.memo.read() {
            if let Some(r) = memo.get(key) {
                return Ok(r.clone());
            }
        }
        let found = std::sync::Arc::new(self.resolve_all(opcode, quals)?);
        if let Ok(mut memo) = self.memo.write() {
            memo.insert(key.to_string(), found.clone());
        }
        Ok(found)
    }

    /// Every form whose qualifier grammar and [`Then::Illegal`] rules accept
    /// the qualifiers, in catalogue order; when none does, the closest miss.
    pub fn resolve_all<'a>(
        &'a self,
        opcode: &str,
        quals: &[&str],
    ) -> Result<Vec<Binding<'a>>, Resolve<'a>> {
        let forms = self.forms_of(opcode);
        let mut found = Vec::new();
        for form in forms.clone() {
            if let Some(b) = matcher::try_match(form, quals) {
                if !form
                    .row
                    .rules
                    .iter()
                    .any(|r| r.then == Then::Illegal && (r.when)(&b))
                {
                    found.push(b);
                }
            }
        }
        if !found.is_empty() {
            return Ok(found);
        }
        // Nothing fits: find the closest miss, for the diagnostic.
        let mut best: Option<Resolve<'a>> = None;
        for form in forms {
            let miss = match matcher::match_qualifiers(form, quals) {
                Ok(b) => match form
                    .row
                    .rules
                    .iter()
                    .find(|r| r.then == Then::Illegal && (r.when)(&b))
                {
                    Some(rule) => Resolve::Rule {
                        form,
                        rule,
                        score: 1000,
                    },
                    None => continue,
                },
                Err(mut m) => {
                    // A form missing a qualifier whose own rules would refuse
                    // the instruction once the qualifier is there is a worse
                    // guess than one they accept (`cvt.f32.s32` misses the
                    // `.frnd` of an integer-to-float conversion, not the
                    // `.irnd` of a float-to-integer one).
                    if let matcher::MismatchKind::Missing { choices, .. } = &m.kind {
                        if let Some(c) = choices.first() {
                            let mut with = quals.to_vec();
                            with.push(c.as_str());
                            let refused = matcher::try_match(form, &with).is_some_and(|b| {
                                form.row
                                    .rules
                                    .iter()
                                    .any(|r| r.then == Then::Illegal && (r.when)(&b))
                            });
                            if refused {
                                m.score -= 1;
                            }
                        }
                    }
                    Resolve::Qualifiers { form, mismatch: m }
                }
            };
            // On a tie, the form whose required words the written
            // qualifiers begin with, the longest run (`mbarrier.test_wait.release`
            // is a test_wait with a wrong `.sem`, not an arrive).
            let alike = |r: &Resolve| {
                let form = match r {
                    Resolve::Qualifiers { form, .. } | Resolve::Rule { form, .. } => form,
                    Resolve::UnknownOpcode => return 0,
                };
                form.required_literals
                    .iter()
                    .zip(quals)
                    .take_while(|(want, got)| want.as_str() == **got)
                    .count()
            };
            if best
                .as_ref()
                .is_none_or(|b| (miss.score(), alike(&miss)) > (b.score(), alike(b)))
            {
                best = Some(miss);
            }
        }
        Err(best.unwrap_or(Resolve::UnknownOpcode))
    }

    /// The forms whose syntax starts with `opcode`.
    fn forms_of<'a>(&'a self, opcode: &str) -> impl Iterator<Item = &'a Form> + Clone + 'a {
        let idx: &'a [usize] = self.by_opcode.get(opcode).map_or(&[], |v| v.as_slice());
        idx.iter().map(move |&i| &self.forms[i])
    }

    /// Parses `"cvt.rn.f16.f32"` into opcode and qualifiers and resolves it
    /// (for tests and quick look-ups).
    pub fn resolve_text(&self, text: &str) -> Result<Binding<'_>, Resolve<'_>> {
        let (opcode, quals) = split_opcode(text);
        self.resolve(opcode, &quals)
    }

    /// The spec's list of instructions of 9.7.9 (from the top of the
    /// section), for coverage.
    pub fn spec_instructions() -> &'static [&'static str] {
        SPEC_INSTRUCTIONS
    }
}

/// Why no form accepted an instruction's qualifiers.
#[derive(Debug)]
pub enum Resolve<'a> {
    UnknownOpcode,
    Qualifiers {
        form: &'a Form,
        mismatch: Mismatch,
    },
    Rule {
        form: &'a Form,
        rule: &'a Rule,
        score: i32,
    },
}

impl Resolve<'_> {
    fn score(&self) -> i32 {
        match self {
            Resolve::UnknownOpcode => i32::MIN,
            Resolve::Qualifiers { mismatch, .. } => mismatch.score,
            Resolve::Rule { score, .. } => *score,
        }
    }
}

/// `"cvt.rn.f16.f32"` into `"cvt"` and `[".rn", ".f16", ".f32"]`.
pub fn split_opcode(text: &str) -> (&str, Vec<&str>) {
    let text = text.trim();
    let end = text.find('.').unwrap_or(text.len());
    let mut quals = Vec::new();
    let mut rest = &text[end..];
    while !rest.is_empty() {
        let next = rest[1..].find('.').map(|i| i + 1).unwrap_or(rest.len());
        quals.push(&rest[..next]);
        rest = &rest[next..];
    }
    (&text[..end], quals)
}

/// The list at the top of PTX ISA 9.7.9, plus the instructions the section
/// describes in its own subsections (deprecated `shfl`, `prefetchu`,
/// `applypriority`, `discard`, `createpolicy`, `mapa`, `getctarank`,
/// `ld.global.nc`).
pub static SPEC_INSTRUCTIONS: &[&str] = &[
    "mov",
    "shfl",
    "shfl.sync",
    "prmt",
    "ld",
    "ld.global.nc",
    "ldu",
    "st",
    "st.async",
    "st.bulk",
    "multimem.ld_reduce",
    "multimem.st",
    "multimem.red",
    "prefetch",
    "prefetchu",
    "applypriority",
    "discard",
    "createpolicy",
    "isspacep",
    "cvta",
    "cvt",
    "cvt.pack",
    "mapa",
    "getctarank",
    "cp.async",
    "cp.async.commit_group",
    "cp.async.wait_group",
    "cp.async.wait_all",
    "cp.async.bulk",
    "cp.reduce.async.bulk",
    "cp.async.bulk.prefetch",
    "cp.async.bulk.tensor",
    "cp.reduce.async.bulk.tensor",
    "cp.async.bulk.prefetch.tensor",
    "cp.async.bulk.commit_group",
    "cp.async.bulk.wait_group",
    "tensormap.replace",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_parses() {
        let errors = Catalogue::errors();
        assert!(errors.is_empty(), "{errors:#?}");
    }

    #[test]
    fn prmt_example() {
        let cat = Catalogue::get();
        assert!(cat.resolve_text("prmt.b32.f4e").is_ok());
        assert!(cat.resolve_text("prmt.b32").is_ok());
        assert!(cat.resolve_text("prmt.b32.xyz").is_err());
        assert!(cat.resolve_text("prmt.b16").is_err());
    }

    #[test]
    fn ids_are_unique() {
        let mut ids: Vec<&str> = rows::ALL
            .iter()
            .flat_map(|f| f.iter())
            .map(|r| r.id)
            .collect();
        ids.sort();
        let before = ids.len();
        ids.dedup();
        assert_eq!(before, ids.len(), "duplicate row ids");
    }

    /// A form in the spec's list with no row fails this test.
    #[test]
    fn every_spec_instruction_has_a_row() {
        let cat = Catalogue::get();
        let missing: Vec<&str> = SPEC_INSTRUCTIONS
            .iter()
            .copied()
            .filter(|name| !cat.forms.iter().any(|f| f.row.instr == *name))
            .collect();
        assert!(missing.is_empty(), "no catalogue row for {missing:?}");
    }

    #[test]
    fn rows_name_spec_sections() {
        for form in &Catalogue::get().forms {
            assert!(
                form.row.section.starts_with("9.7.9."),
                "{} cites section {}",
                form.row.id,
                form.row.section
            );
            assert!(
                SPEC_INSTRUCTIONS.contains(&form.row.instr),
                "{}: `{}` is not an instruction of the spec's list",
                form.row.id,
                form.row.instr
            );
        }
    }
}
