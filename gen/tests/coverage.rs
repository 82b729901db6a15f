//! Issue 5's coverage rule: every catalogue row whose instruction has a
//! defined result that a kernel can write out has at least one group in the
//! default suite; the rows without one are listed below, each with the
//! reason, and a listed row that gains a group fails the test (so the list
//! cannot go stale).

use std::collections::{BTreeMap, BTreeSet};

use ptx_gen::suite::{plans, Options};
use ptx_semantics::catalogue::{split_opcode, Catalogue};
use ptx_semantics::check::{check_module_rows, Options as CheckOptions};

/// Rows with no group, by instruction (every row of the instruction) or
/// by row id, and why.
const WITHOUT: &[(&str, &str)] = &[
    // No result a kernel can read back: hints and cache operations.
    ("prefetch", "a hint: no result"),
    ("prefetchu", "a hint: no result"),
    ("applypriority", "changes an eviction priority: no result"),
    (
        "discard",
        "leaves the line's contents unspecified: no defined result",
    ),
    (
        "createpolicy",
        "the policy's encoding is opaque (9.7.9.18 gives no bits): no defined result",
    ),
    // Results that are addresses the implementation chooses.
    (
        "mov.avar",
        "the value is an address the implementation places; its window is checked through \
         the isspacep/cvta groups",
    ),
    (
        "mov.fname",
        "a function's address: no bits are specified, only its use by `call`",
    ),
    ("mov.kernel", "a kernel's address: no bits are specified"),
    // Not runnable on the suite's targets.
    (
        "shfl",
        "removed: `shfl` without `.sync` is rejected for sm_70 and later",
    ),
    (
        "multimem.ld_reduce",
        "needs a multicast object (cuMulticastCreate), which the suite's launch convention does \
         not set up",
    ),
    ("multimem.st", "needs a multicast object"),
    ("multimem.red", "needs a multicast object"),
    // Families the simulator does not run yet (docs/status.md): no expected
    // values to give. (The bulk copies and reductions, their groups,
    // `st.async` and `st.bulk` have groups: gen/src/suite/bulk.rs.)
    (
        "st.async.release",
        "the release form to global memory (sm_100) is not modelled yet",
    ),
];

/// Forms of the suite whose instruction the catalogue does not have (it
/// covers PTX ISA 9.7.9): `mbarrier.*` and `cp.async.mbarrier.arrive`
/// (9.7.13.15).
const OUTSIDE: &[&str] = &[
    "mbarrier.",
    "cp.async.mbarrier.arrive",
    // the approximate floating-point instructions (PTX ISA 9.7.3, 9.7.4)
    "div.",
    "rcp.",
    "sqrt.",
    "rsqrt.",
    "sin.",
    "cos.",
    "lg2.",
    "ex2.",
    "tanh.",
];

#[test]
fn every_row_with_a_defined_result_has_a_group() {
    let cat = Catalogue::get();
    let mut covered: BTreeMap<&str, usize> = BTreeMap::new();
    let mut unresolved = Vec::new();
    let opts = Options::default();
    for p in plans() {
        // instructions outside the catalogue's 9.7.9 (the mbarrier family,
        // PTX ISA 9.7.13.15, which the asynchronous groups exercise, and the
        // approximate float groups)
        if OUTSIDE.iter().any(|o| p.form.starts_with(o)) {
            continue;
        }
        let (opcode, quals) = split_opcode(&p.form);
        let rows: BTreeSet<&str> = match cat.resolve_all(opcode, &quals) {
            Ok(all) => all.iter().map(|b| b.form.row.id).collect(),
            Err(_) => {
                unresolved.push(p.form.clone());
                continue;
            }
        };
        if rows.len() == 1 {
            *covered.entry(rows.first().unwrap()).or_default() += 1;
            continue;
        }
        // Rows told apart by their operands (`mov.b64 d, {a, b}` packs):
        // the row the checker binds the group's instruction to.
        let built = p
            .build(&opts)
            .unwrap_or_else(|| panic!("{}: no case", p.id));
        let module = ptx_semantics::ptx::parse(&built.ptx).expect("a generated kernel parses");
        let (diags, bound) = check_module_rows(&module, &CheckOptions::default());
        assert!(diags.is_empty(), "{}: {:?}", p.id, diags[0].message);
        // The instruction under test is the last one written as the form
        // (the prologue's `mov.u32 %t, %tid.x` comes first).
        let under_test = bound
            .iter()
            .rev()
            .find(|(text, _)| *text == p.form)
            .map(|(_, row)| *row);
        let found = under_test.is_some_and(|row| rows.contains(row));
        if let Some(row) = under_test.filter(|row| rows.contains(row)) {
            *covered.entry(row).or_default() += 1;
        }
        assert!(found, "{}: no `{}` in its kernel", p.id, p.form);
    }
    assert!(
        unresolved.is_empty(),
        "forms of the suite the catalogue does not resolve: {:?}",
        &unresolved[..unresolved.len().min(10)]
    );
    let listed = |row: &ptx_semantics::catalogue::Row| {
        WITHOUT
            .iter()
            .find(|(k, _)| *k == row.id || *k == row.instr)
    };
    let mut missing = BTreeSet::new();
    let mut stale = BTreeSet::new();
    let mut rows = BTreeSet::new();
    for form in &cat.forms {
        let row = form.row;
        rows.insert(row.id);
        match (covered.get(row.id), listed(row)) {
            (None, None) => {
                missing.insert(format!("{} ({})", row.id, row.instr));
            }
            (Some(n), Some((k, _))) => {
                stale.insert(format!(
                    "{} has {n} group(s) and is listed under {k}",
                    row.id
                ));
            }
            _ => {}
        }
    }
    assert!(
        missing.is_empty(),
        "rows with no group and no reason: {missing:#?}"
    );
    assert!(stale.is_empty(), "listed rows that have groups: {stale:#?}");
    // every entry of the list names a row or an instruction
    for (k, why) in WITHOUT {
        assert!(
            rows.contains(k) || cat.forms.iter().any(|f| f.row.instr == *k),
            "{k} ({why}) names no row"
        );
    }
}
