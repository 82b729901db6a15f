//! Litmus families for the async proxy and asynchronous completion:
//! generic writes read by bulk copies and bulk reductions, asynchronous
//! writes (bulk copies, `st.async`) read by generic loads, each with and
//! without `fence.proxy.async`, and completion through mbarriers
//! (complete-tx), bulk async-groups and `cp.async` groups. Each family is a
//! shape written in the litmus language with its variants filled in; the
//! outcome asked for is the stale one (the reader misses the write it
//! should see).

use super::{Generated, Options};
use crate::ast::Scope;

/// The asynchronous families, by name.
pub const FAMILIES: &[&str] = &[
    "Proxy-G2A",
    "Proxy-G2A-MP",
    "Proxy-A2G",
    "Proxy-A2G-remote",
    "Bulk-store",
    "Bulk-reduce",
    "Bulk-read-reuse",
    "StAsync",
    "CpAsync",
    "CpAsync-MP",
    "Mbarrier-MP",
];

struct Builder {
    out: Vec<Generated>,
    seed_value: i64,
}

impl Builder {
    /// Parses one test; a template that does not parse is a bug here.
    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        family: &str,
        variant: &str,
        shape: &str,
        scope: Option<Scope>,
        placement: &str,
        locations: &str,
        body: &str,
        what: &str,
    ) {
        let name = format!("{family}+{variant}.{placement}.{locations}");
        let src = format!(
            "PTX {name}\n\"Generated: family {family} ({what}); variant {variant}; threads placed {placement}; locations in {locations} memory\"\n{body}"
        );
        let test = crate::parse(&src).unwrap_or_else(|e| panic!("template {name}: {e}\n{src}"));
        self.out.push(Generated {
            name,
            family: family.into(),
            cycle: shape.into(),
            strength: variant.into(),
            scope,
            placement: placement.into(),
            locations: locations.into(),
            test,
        });
    }
}

/// `P1@cta 1,cluster 0,gpu 0` and the like, for the reader's placement.
fn reader_place(placement: &str) -> &'static str {
    match placement {
        "same-cta" => "P1@cta 0,cluster 0,gpu 0",
        "same-cluster" => "P1@cta 1,cluster 0,gpu 0",
        _ => "P1@cta 1,cluster 1,gpu 0",
    }
}

fn scope_name(s: Scope) -> &'static str {
    match s {
        Scope::Cta => "cta",
        Scope::Cluster => "cluster",
        Scope::Gpu => "gpu",
        Scope::Sys => "sys",
    }
}

/// Joins columns into the litmus table form.
fn table(threads: &[&str], columns: &[Vec<String>]) -> String {
    let rows = columns.iter().map(Vec::len).max().unwrap_or(0);
    let mut s = format!(" {} ;\n", threads.join(" | "));
    for r in 0..rows {
        let cells: Vec<&str> = columns
            .iter()
            .map(|c| c.get(r).map_or("", String::as_str))
            .collect();
        s.push_str(&format!(" {} ;\n", cells.join(" | ")));
    }
    s
}

fn lines(v: &[&str]) -> Vec<String> {
    v.iter()
        .filter(|l| !l.is_empty())
        .map(|l| l.to_string())
        .collect()
}

/// The asynchronous families with all their variants.
pub fn set(opts: &Options) -> Vec<Generated> {
    // the value written: 1 for seed 0, else one the seed picks
    let v = if opts.seed == 0 {
        1
    } else {
        let mut r = super::Rng(opts.seed ^ 0xa5a5);
        (r.next_u64() % 1000) as i64 * 4 + 1
    };
    let mut b = Builder {
        out: Vec::new(),
        seed_value: v,
    };
    g2a(&mut b);
    g2a_mp(&mut b);
    a2g(&mut b);
    a2g_remote(&mut b);
    bulk_store(&mut b, false);
    bulk_store(&mut b, true);
    bulk_read_reuse(&mut b);
    st_async(&mut b);
    cp_async(&mut b);
    cp_async_mp(&mut b);
    mbarrier_mp(&mut b);
    b.out
}

/// The semantics and scopes of the mbarrier waits the families try.
const WAIT_ORDERS: [(&str, Scope); 4] = [
    ("acquire", Scope::Cta),
    ("acquire", Scope::Cluster),
    ("relaxed", Scope::Cta),
    ("relaxed", Scope::Cluster),
];

const FENCES_G2A: &[(&str, &str)] = &[
    ("no-fence", ""),
    ("fence.proxy.async", "fence.proxy.async"),
    ("fence.proxy.async.global", "fence.proxy.async.global"),
    (
        "fence.proxy.async.shared-cta",
        "fence.proxy.async.shared::cta",
    ),
];

/// A thread writes `src` with a generic store, then copies it with
/// `cp.async.bulk` into shared memory and reads the copy.
fn g2a(b: &mut Builder) {
    let v = b.seed_value;
    for (fname, fence) in FENCES_G2A {
        for (sname, st) in [("st.weak", "st.weak"), ("st.relaxed.cta", "st.relaxed.cta")] {
            let code = lines(&[
                "mbarrier.arrive.expect_tx.release.cta bar, 16",
                &format!("{st} src, {v}"),
                fence,
                "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes dst, src, 16, bar",
                "mbarrier.try_wait.acquire.cta r0, bar",
                "bne r0, 1, END",
                "ld.weak r1, dst",
                "END:",
            ]);
            let body = format!(
                "{{\nsrc = 0;\nshared dst = 0;\nmbarrier bar = 1;\n}}\n{}exists (P0:r0 == 1 /\\ P0:r1 == 0)\n",
                table(&["P0@cta 0,cluster 0,gpu 0"], &[code])
            );
            b.add(
                "Proxy-G2A",
                &format!("{sname}+{fname}"),
                "generic store, then the same thread's cp.async.bulk reads it",
                None,
                "one-thread",
                "global-to-shared",
                &body,
                "a generic write read by a bulk copy of the same thread",
            );
        }
    }
}

/// A writer stores `src` and publishes a flag; the reader takes the flag
/// and copies `src` with `cp.async.bulk`.
fn g2a_mp(b: &mut Builder) {
    let v = b.seed_value;
    for (fname, writer_fence, reader_fence) in [
        ("no-fence", "", ""),
        ("fence-in-writer", "fence.proxy.async", ""),
        ("fence-in-reader", "", "fence.proxy.async"),
    ] {
        for placement in ["same-cta", "same-cluster", "diff-cluster"] {
            for scope in [Scope::Cta, Scope::Cluster, Scope::Gpu] {
                let sc = scope_name(scope);
                let writer = lines(&[
                    &format!("st.weak src, {v}"),
                    writer_fence,
                    &format!("st.release.{sc} flag, 1"),
                ]);
                let reader = lines(&[
                    &format!("ld.acquire.{sc} r2, flag"),
                    "bne r2, 1, END",
                    reader_fence,
                    "mbarrier.arrive.expect_tx.release.cta bar, 16",
                    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes dst, src, 16, bar",
                    "mbarrier.try_wait.acquire.cta r0, bar",
                    "bne r0, 1, END",
                    "ld.weak r1, dst",
                    "END:",
                ]);
                let body = format!(
                    "{{\nsrc = 0;\nflag = 0;\nshared dst = 0;\nmbarrier bar = 1;\n}}\n{}exists (P1:r2 == 1 /\\ P1:r0 == 1 /\\ P1:r1 == 0)\n",
                    table(
                        &["P0@cta 0,cluster 0,gpu 0", reader_place(placement)],
                        &[writer, reader]
                    )
                );
                b.add(
                    "Proxy-G2A-MP",
                    &format!("{fname}.{sc}"),
                    "generic store, release flag; acquire flag, cp.async.bulk reads it",
                    Some(scope),
                    placement,
                    "global-to-shared",
                    &body,
                    "message passing into a bulk copy",
                );
            }
        }
    }
}

/// A bulk copy writes shared memory; a thread waits on the mbarrier and
/// reads the destination with a generic load.
fn a2g(b: &mut Builder) {
    let v = b.seed_value;
    for waiter in ["issuer", "other-warp"] {
        for (sem, scope) in WAIT_ORDERS {
            let sc = scope_name(scope);
            let copy = [
                "mbarrier.arrive.expect_tx.release.cta bar, 16",
                "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes dst, src, 16, bar",
            ];
            let wait = [
                format!("mbarrier.try_wait.{sem}.{sc} r0, bar"),
                "bne r0, 1, END".into(),
                "ld.weak r1, dst".into(),
                "END:".into(),
            ];
            let (threads, columns, cond) = if waiter == "issuer" {
                let mut c: Vec<String> = copy.iter().map(|s| s.to_string()).collect();
                c.extend(wait.iter().cloned());
                (
                    vec!["P0@cta 0,cluster 0,gpu 0"],
                    vec![c],
                    "P0:r0 == 1 /\\ P0:r1 == 0",
                )
            } else {
                (
                    vec!["P0@cta 0,cluster 0,gpu 0", "P1@cta 0,cluster 0,gpu 0"],
                    vec![copy.iter().map(|s| s.to_string()).collect(), wait.to_vec()],
                    "P1:r0 == 1 /\\ P1:r1 == 0",
                )
            };
            let body = format!(
                "{{\nsrc = {v};\nshared dst = 0;\nmbarrier bar = 1;\n}}\n{}exists ({cond})\n",
                table(&threads, &columns)
            );
            b.add(
                "Proxy-A2G",
                &format!("{waiter}.{sem}.{sc}"),
                "cp.async.bulk writes shared memory; try_wait, then a generic load reads it",
                Some(scope),
                if waiter == "issuer" {
                    "one-thread"
                } else {
                    "same-cta"
                },
                "global-to-shared",
                &body,
                "a bulk copy's write read by a generic load after its mbarrier",
            );
        }
    }
}

/// A thread copies its CTA's shared memory into another CTA of the cluster,
/// where a thread waits on its mbarrier and reads the copy.
fn a2g_remote(b: &mut Builder) {
    let v = b.seed_value;
    for (sem, scope) in [
        ("acquire", Scope::Cta),
        ("acquire", Scope::Cluster),
        ("relaxed", Scope::Cluster),
    ] {
        let sc = scope_name(scope);
        let writer = lines(&[
            &format!("st.weak s, {v}"),
            "fence.proxy.async.shared::cta",
            "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes d, s, 16, bar",
        ]);
        let reader = lines(&[
            "mbarrier.arrive.expect_tx.release.cta bar, 16",
            &format!("mbarrier.try_wait.{sem}.{sc} r0, bar"),
            "bne r0, 1, END",
            "ld.weak r1, d",
            "END:",
        ]);
        let body = format!(
            "{{\nshared(cta 0) s = 0;\nshared(cta 1) d = 0;\nmbarrier bar = 1;\n}}\n{}exists (P1:r0 == 1 /\\ P1:r1 == 0)\n",
            table(
                &["P0@cta 0,cluster 0,gpu 0", "P1@cta 1,cluster 0,gpu 0"],
                &[writer, reader]
            )
        );
        b.add(
            "Proxy-A2G-remote",
            &format!("{sem}.{sc}"),
            "generic store, proxy fence, cp.async.bulk into another CTA; its thread waits and reads",
            Some(scope),
            "same-cluster",
            "dsmem",
            &body,
            "a copy between the shared memories of a cluster",
        );
    }
}

/// A thread stores into its shared memory, copies (or reduces) it into
/// global memory through a bulk async-group, waits, and publishes a flag;
/// another thread takes the flag and reads global memory.
fn bulk_store(b: &mut Builder, reduce: bool) {
    let v = b.seed_value;
    let family = if reduce { "Bulk-reduce" } else { "Bulk-store" };
    // the reduction adds `s` to `g`, which starts at 5
    let (g0, copy, stale) = if reduce {
        (
            5,
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 g, s, 16",
            5,
        )
    } else {
        (0, "cp.async.bulk.global.shared::cta.bulk_group g, s, 16", 0)
    };
    let fences: &[(&str, &str, &str)] = &[
        ("no-fence", "", ""),
        ("fence-source", "fence.proxy.async.shared::cta", ""),
        (
            "fence-both",
            "fence.proxy.async.shared::cta",
            "fence.proxy.async.global",
        ),
    ];
    for (fname, before, after) in fences {
        // (waiting with `.read` only would leave the reader's load racing
        // with the copy's write: undefined, PTX ISA 9.7.9.25.1)
        for (wname, wait) in [("wait", "cp.async.bulk.wait_group 0")] {
            for placement in ["same-cta", "same-cluster", "diff-cluster"] {
                let writer = lines(&[
                    &format!("st.weak s, {v}"),
                    before,
                    copy,
                    "cp.async.bulk.commit_group",
                    wait,
                    after,
                    "st.release.gpu flag, 1",
                ]);
                let reader = lines(&[
                    "ld.acquire.gpu r0, flag",
                    "bne r0, 1, END",
                    "ld.weak r1, g",
                    "END:",
                ]);
                let body = format!(
                    "{{\nshared s = 0;\ng = {g0};\nflag = 0;\n}}\n{}exists (P1:r0 == 1 /\\ P1:r1 == {stale})\n",
                    table(
                        &["P0@cta 0,cluster 0,gpu 0", reader_place(placement)],
                        &[writer, reader]
                    )
                );
                b.add(
                    family,
                    &format!("{fname}.{wname}"),
                    "shared store, bulk copy to global through a bulk group, wait, release flag; acquire flag, generic load",
                    Some(Scope::Gpu),
                    placement,
                    "shared-to-global",
                    &body,
                    "a bulk copy's global write published by a flag",
                );
            }
        }
    }
}

/// After `cp.async.bulk.wait_group.read 0` the source may be written again
/// (PTX ISA 9.7.9.25.4.3: the reads of the source are done); the copy
/// (or reduction) still delivers the old value.
fn bulk_read_reuse(b: &mut Builder) {
    let v = b.seed_value;
    for (name, copy, g0, stale) in [
        (
            "copy",
            "cp.async.bulk.global.shared::cta.bulk_group g, s, 16",
            0,
            v + 1,
        ),
        (
            "reduce",
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 g, s, 16",
            5,
            v + 6,
        ),
    ] {
        for (wname, wait) in [
            ("wait-read", "cp.async.bulk.wait_group.read 0"),
            ("wait", "cp.async.bulk.wait_group 0"),
        ] {
            let code = lines(&[
                &format!("st.weak s, {v}"),
                "fence.proxy.async.shared::cta",
                copy,
                "cp.async.bulk.commit_group",
                wait,
                &format!("st.weak s, {}", v + 1),
            ]);
            let body = format!(
                "{{\nshared s = 0;\ng = {g0};\n}}\n{}exists (g == {stale})\n",
                table(&["P0@cta 0,cluster 0,gpu 0"], &[code])
            );
            b.add(
                "Bulk-read-reuse",
                &format!("{name}.{wname}"),
                "shared store, bulk copy to global, wait (.read), store to the source again; final global value",
                None,
                "one-thread",
                "shared-to-global",
                &body,
                "reusing a bulk copy's source after its reads completed",
            );
        }
    }
}

/// `st.async` into another CTA's shared memory, signalling its mbarrier;
/// a thread there waits and reads.
fn st_async(b: &mut Builder) {
    let v = b.seed_value;
    for placement in ["same-cta", "same-cluster"] {
        for (sem, scope) in WAIT_ORDERS {
            let sc = scope_name(scope);
            let writer = lines(&[&format!("st.async d, {v}, bar")]);
            let reader = lines(&[
                "mbarrier.arrive.expect_tx.release.cta bar, 4",
                &format!("mbarrier.try_wait.{sem}.{sc} r0, bar"),
                "bne r0, 1, END",
                "ld.weak r1, d",
                "END:",
            ]);
            let owner = if placement == "same-cta" { 0 } else { 1 };
            let body = format!(
                "{{\nshared(cta {owner}) d = 0;\nmbarrier bar = 1;\n}}\n{}exists (P1:r0 == 1 /\\ P1:r1 == 0)\n",
                table(
                    &["P0@cta 0,cluster 0,gpu 0", reader_place(placement)],
                    &[writer, reader]
                )
            );
            b.add(
                "StAsync",
                &format!("{sem}.{sc}"),
                "st.async with complete-tx; the mbarrier's thread waits and reads",
                Some(scope),
                placement,
                if placement == "same-cta" {
                    "shared"
                } else {
                    "dsmem"
                },
                &body,
                "an asynchronous store completing on an mbarrier",
            );
        }
    }
}

/// `cp.async` into shared memory, committed and waited for (or not), then
/// read by the same thread.
fn cp_async(b: &mut Builder) {
    let v = b.seed_value;
    for (cname, copy) in [
        ("ca", "cp.async.ca.shared.global dst, src, 4"),
        ("cg", "cp.async.cg.shared.global dst, src, 16"),
    ] {
        // (reading the destination without a wait is undefined, PTX ISA
        // 9.7.9.25.1)
        for (wname, wait) in [
            ("wait_group-0", vec!["cp.async.wait_group 0"]),
            ("wait_all", vec!["cp.async.wait_all"]),
            (
                "newer-group-pending",
                vec![
                    "cp.async.ca.shared.global other, src2, 4",
                    "cp.async.commit_group",
                    "cp.async.wait_group 1",
                ],
            ),
        ] {
            let mut code = vec![copy.to_string(), "cp.async.commit_group".to_string()];
            code.extend(wait.iter().map(|s| s.to_string()));
            code.push("ld.weak r0, dst".into());
            let body = format!(
                "{{\nsrc = {v};\nsrc2 = 7;\nshared dst = 0;\nshared other = 0;\n}}\n{}exists (P0:r0 == 0)\n",
                table(&["P0@cta 0,cluster 0,gpu 0"], &[code])
            );
            b.add(
                "CpAsync",
                &format!("{cname}.{wname}"),
                "cp.async into shared memory, commit, wait, generic load",
                None,
                "one-thread",
                "global-to-shared",
                &body,
                "completion of cp.async groups",
            );
        }
    }
}

/// `cp.async` completed by the issuing thread, published to another warp
/// of the CTA through a flag.
fn cp_async_mp(b: &mut Builder) {
    let v = b.seed_value;
    for (wname, wait) in [
        ("wait_group-0", "cp.async.wait_group 0"),
        ("wait_all", "cp.async.wait_all"),
    ] {
        for scope in [Scope::Cta, Scope::Gpu] {
            let sc = scope_name(scope);
            let writer = lines(&[
                "cp.async.ca.shared.global dst, src, 4",
                "cp.async.commit_group",
                wait,
                &format!("st.release.{sc} flag, 1"),
            ]);
            let reader = lines(&[
                &format!("ld.acquire.{sc} r0, flag"),
                "bne r0, 1, END",
                "ld.weak r1, dst",
                "END:",
            ]);
            let body = format!(
                "{{\nsrc = {v};\nshared dst = 0;\nflag = 0;\n}}\n{}exists (P1:r0 == 1 /\\ P1:r1 == 0)\n",
                table(
                    &["P0@cta 0,cluster 0,gpu 0", "P1@cta 0,cluster 0,gpu 0"],
                    &[writer, reader]
                )
            );
            b.add(
                "CpAsync-MP",
                &format!("{wname}.{sc}"),
                "cp.async, commit, wait, release flag; acquire flag, generic load of the copy",
                Some(scope),
                "same-cta",
                "global-to-shared",
                &body,
                "a cp.async copy published to another warp",
            );
        }
    }
}

/// Message passing through an mbarrier: a store, an arrive-on; a wait,
/// a load.
fn mbarrier_mp(b: &mut Builder) {
    let v = b.seed_value;
    for placement in ["same-cta", "same-cluster"] {
        for arrive in ["release", "relaxed"] {
            for wait in ["acquire", "relaxed"] {
                for scope in [Scope::Cta, Scope::Cluster] {
                    let sc = scope_name(scope);
                    let writer = lines(&[
                        &format!("st.weak x, {v}"),
                        &format!("mbarrier.arrive.{arrive}.{sc} bar"),
                    ]);
                    let reader = lines(&[
                        &format!("mbarrier.try_wait.parity.{wait}.{sc} r0, bar, 0"),
                        "bne r0, 1, END",
                        "ld.weak r1, x",
                        "END:",
                    ]);
                    let body = format!(
                        "{{\nx = 0;\nmbarrier bar = 1;\n}}\n{}exists (P1:r0 == 1 /\\ P1:r1 == 0)\n",
                        table(
                            &["P0@cta 0,cluster 0,gpu 0", reader_place(placement)],
                            &[writer, reader]
                        )
                    );
                    b.add(
                        "Mbarrier-MP",
                        &format!("{arrive}-{wait}.{sc}"),
                        "store, arrive-on; parity wait, load",
                        Some(scope),
                        placement,
                        "global",
                        &body,
                        "message passing through an mbarrier phase",
                    );
                }
            }
        }
    }
}
