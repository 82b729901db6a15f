//! What the suite families that enumerate a form's spellings (`mem`,
//! `addr`, `cp_async`, through `Form::spellings`) need besides: the rows of
//! an instruction, and whether a PTX version and target accept a spelling. The checker (`ptx_semantics::check::check_module`) stays the
//! judge of every generated kernel; this only narrows what is tried.

use super::manifest::Provenance;
use ptx_semantics::catalogue::grammar::Form;
use ptx_semantics::catalogue::{Binding, Catalogue, PtxVersion, Requirement, Target, Then};
use ptx_semantics::check::{check_module, Options};

/// The PTX version and target every group of these families declares.
pub const VT: (&str, &str) = ("8.7", "sm_90");

/// The catalogue's rows of one instruction (`ld`, `cvta`), by row id.
pub fn rows(instr: &str) -> impl Iterator<Item = &'static Form> + '_ {
    Catalogue::get()
        .forms
        .iter()
        .filter(move |f| f.row.instr == instr)
}

/// The binding of `text` when its qualifiers resolve and `vt` meets the
/// form's requirements (its `since`, the `needs` of the qualifiers it
/// carries, the rules that add requirements or remove it): what the
/// checker asks of an instruction before its operands.
pub fn accepted(text: &str, vt: (&str, &str)) -> Option<Binding<'static>> {
    let (ptx, target) = (PtxVersion::parse(vt.0)?, Target::parse(vt.1)?);
    let b = Catalogue::get().resolve_text(text).ok()?;
    let meets = |r: &Requirement| r.allows_ptx(ptx) && r.allows_target(target);
    let form = b.form;
    let needs_met = form.needs.iter().all(|(what, r)| {
        let applies = match what.split_once('=') {
            Some((slot, value)) => b.is(slot, value),
            None => b.has(what),
        };
        !applies || meets(r)
    });
    let rules_met = form.row.rules.iter().all(|rule| match rule.then {
        Then::Illegal => true,
        Then::Needs(req) => !(rule.when)(&b) || Requirement::parse(req).is_some_and(|r| meets(&r)),
        Then::Removed(req) => {
            !(rule.when)(&b) || !Requirement::parse(req).is_some_and(|r| meets(&r))
        }
    });
    (meets(&form.since) && needs_met && rules_met).then_some(b)
}

/// The checker's findings on a generated kernel, for its own `.version`
/// and `.target` (empty: the kernel is legal).
pub fn check(ptx: &str) -> Vec<String> {
    match ptx_semantics::ptx::parse(ptx) {
        Err(e) => vec![format!("does not parse: {e}")],
        Ok(m) => check_module(
            &m,
            &Options {
                threads: Some(1),
                ..Options::default()
            },
        )
        .into_iter()
        .map(|d| format!("{}: {}", d.rule, d.message))
        .collect(),
    }
}

/// The kernels of `corpus/simulator` that an H200 and an H100 ran with the
/// model's results (0 differences): a form spelled in one of them is
/// `hardware`.
const HARDWARE: &[(&str, &str)] = &[
    (
        "ldst.ptx",
        include_str!("../../../corpus/simulator/kernels/ldst.ptx"),
    ),
    (
        "ldst_quals.ptx",
        include_str!("../../../corpus/simulator/kernels/ldst_quals.ptx"),
    ),
    (
        "spaces.ptx",
        include_str!("../../../corpus/simulator/kernels/spaces.ptx"),
    ),
    (
        "addr.ptx",
        include_str!("../../../corpus/simulator/kernels/addr.ptx"),
    ),
    (
        "cluster.ptx",
        include_str!("../../../corpus/simulator/kernels/cluster.ptx"),
    ),
    (
        "hints.ptx",
        include_str!("../../../corpus/simulator/kernels/hints.ptx"),
    ),
];

/// The corpus kernel that ran `form` on the GPUs, if one did.
pub fn run_on_hardware(form: &str) -> Option<&'static str> {
    static RAN: std::sync::OnceLock<std::collections::HashMap<&str, &str>> =
        std::sync::OnceLock::new();
    let ran = RAN.get_or_init(|| {
        let mut ran = std::collections::HashMap::new();
        for (file, text) in HARDWARE {
            for line in text.lines() {
                let mut words = line.split_whitespace();
                let Some(mut w) = words.next() else { continue };
                if w.starts_with('@') {
                    w = words.next().unwrap_or("");
                }
                ran.entry(w).or_insert(*file);
            }
        }
        ran
    });
    ran.get(form).copied()
}

/// Provenance and note of a form: `hardware` where a corpus kernel ran it.
pub fn provenance(form: &str) -> (Provenance, String) {
    match run_on_hardware(form) {
        Some(file) => (
            Provenance::Hardware,
            format!("compared with an H200 and an H100 in corpus/simulator/kernels/{file}"),
        ),
        None => (Provenance::Spec, String::new()),
    }
}
