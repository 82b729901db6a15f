//! The writer of litmus tests: the same layout as the Dat3M files (a header,
//! the init block, one column per thread padded to the widest cell, the
//! condition). Reading what it writes gives back the same tree.

use crate::ast::*;
use std::fmt::Write;

/// Prints a test in the litmus format.
pub fn print(t: &Litmus) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "PTX {}", t.name);
    if !t.docs.is_empty() {
        let _ = writeln!(out, "{}", t.docs);
    }
    out.push_str("{\n");
    for item in &t.init {
        let _ = match item {
            Init::Location {
                name,
                space,
                value,
                owner,
            } => match (space, owner) {
                (Space::Global, _) => writeln!(out, "{name} = {value};"),
                (Space::Shared, None) => writeln!(out, "shared {name} = {value};"),
                (Space::Shared, Some(c)) => writeln!(out, "shared(cta {c}) {name} = {value};"),
            },
            Init::Register { thread, reg, value } => writeln!(out, "P{thread}:{reg} = {value};"),
            Init::Alias {
                name,
                proxy,
                target,
            } => writeln!(out, "{name} @ {} aliases {target};", proxy.as_str()),
            Init::Mbarrier { name, count } => match count {
                Some(count) => writeln!(out, "mbarrier {name} = {count};"),
                None => writeln!(out, "mbarrier {name};"),
            },
        };
    }
    out.push_str("}\n");
    let mut columns: Vec<Vec<String>> = t
        .threads
        .iter()
        .map(|th| {
            let mut col = vec![placement(th)];
            col.extend(th.code.iter().map(instr));
            col
        })
        .collect();
    let rows = columns.iter().map(Vec::len).max().unwrap_or(0);
    for col in &mut columns {
        col.resize(rows, String::new());
    }
    let widths: Vec<usize> = columns
        .iter()
        .map(|c| c.iter().map(|s| s.chars().count()).max().unwrap_or(0))
        .collect();
    for r in 0..rows {
        let cells: Vec<String> = columns
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!(" {:<w$} ", c[r], w = *w))
            .collect();
        let _ = writeln!(out, "{};", cells.join("|"));
    }
    let q = match t.condition.quantifier {
        Quantifier::Exists => "exists",
        Quantifier::NotExists => "~exists",
        Quantifier::Forall => "forall",
    };
    let _ = writeln!(out, "{q}\n({})", expr(&t.condition.expr));
    out
}

fn placement(th: &Thread) -> String {
    match th.cluster {
        Some(cl) => format!("P{}@cta {},cluster {cl},gpu {}", th.id, th.cta, th.gpu),
        None => format!("P{}@cta {},gpu {}", th.id, th.cta, th.gpu),
    }
}

fn sem_scope(sem: Sem, scope: Option<Scope>) -> String {
    match scope {
        Some(s) => format!("{}.{}", sem.as_str(), s.as_str()),
        None => sem.as_str().to_string(),
    }
}

/// Prints one instruction in its canonical form.
pub fn instr(i: &Instr) -> String {
    match i {
        Instr::Label(l) => format!("{l}:"),
        Instr::Load {
            kind,
            sem,
            scope,
            dst,
            loc,
        } => {
            let head = match kind {
                LoadKind::Ld => "ld",
                LoadKind::Tld => "tld",
                LoadKind::Suld => "suld",
                LoadKind::Cold => "cold",
            };
            format!("{head}.{} {dst}, {loc}", sem_scope(*sem, *scope))
        }
        Instr::Store {
            kind,
            sem,
            scope,
            loc,
            value,
        } => {
            let head = if *kind == WriteKind::Generic {
                "st"
            } else {
                "sust"
            };
            format!("{head}.{} {loc}, {value}", sem_scope(*sem, *scope))
        }
        Instr::Atom {
            kind,
            sem,
            scope,
            op,
            dst,
            loc,
        } => {
            let head = if *kind == WriteKind::Generic {
                "atom"
            } else {
                "suatom"
            };
            let ss = sem_scope(*sem, Some(*scope));
            match op {
                AtomOp::Bin(b, v) => format!("{head}.{ss}.{} {dst}, {loc}, {v}", b.as_str()),
                AtomOp::Exch(v) => format!("{head}.{ss}.exch {dst}, {loc}, {v}"),
                AtomOp::Cas(e, v) => format!("{head}.{ss}.cas {dst}, {loc}, {e}, {v}"),
            }
        }
        Instr::Red {
            kind,
            sem,
            scope,
            op,
            loc,
            value,
        } => {
            let head = if *kind == WriteKind::Generic {
                "red"
            } else {
                "sured"
            };
            format!(
                "{head}.{}.{} {loc}, {value}",
                sem_scope(*sem, Some(*scope)),
                op.as_str()
            )
        }
        Instr::Local { op, dst, a, b } => match (op, b) {
            (Some(op), Some(b)) => format!("{} {dst}, {a}, {b}", op.as_str()),
            _ => format!("ld {dst}, {a}"),
        },
        Instr::Fence { sem, scope } => format!("fence.{}.{}", sem.as_str(), scope.as_str()),
        Instr::ProxyFence(k) => match k {
            ProxyFence::Alias => "fence.proxy.alias".into(),
            ProxyFence::Proxy(p) => format!("fence.proxy.{}", p.as_str()),
            ProxyFence::Async(None) => "fence.proxy.async".into(),
            ProxyFence::Async(Some(AsyncSpace::Global)) => "fence.proxy.async.global".into(),
            ProxyFence::Async(Some(AsyncSpace::SharedCta)) => {
                "fence.proxy.async.shared::cta".into()
            }
            ProxyFence::Async(Some(AsyncSpace::SharedCluster)) => {
                "fence.proxy.async.shared::cluster".into()
            }
            ProxyFence::AsyncGeneric { release, space } => format!(
                "fence.proxy.async::generic.{}.sync_restrict::{}.cluster",
                if *release { "release" } else { "acquire" },
                space.as_str()
            ),
            ProxyFence::MbarrierInit => "fence.mbarrier_init.release.cluster".into(),
        },
        Instr::Barrier {
            arrive,
            instance,
            id,
            quorum,
        } => {
            let mut s = format!(
                "bar.cta.{} {instance}",
                if *arrive { "arrive" } else { "sync" }
            );
            if let Some(id) = id {
                let _ = write!(s, ", {id}");
            }
            if let Some(q) = quorum {
                let _ = write!(s, ", {q}");
            }
            s
        }
        Instr::ClusterArrive { sem } => format!("barrier.cluster.arrive.{}", sem.as_str()),
        Instr::ClusterWait => "barrier.cluster.wait.acquire".into(),
        Instr::Branch { cond, a, b, target } => {
            format!("{} {a}, {b}, {target}", cond.branch_mnemonic())
        }
        Instr::Goto(l) => format!("goto {l}"),
        Instr::CpAsync {
            cache_global,
            dst,
            src,
            size,
        } => format!(
            "cp.async.{}.shared.global {dst}, {src}, {size}",
            if *cache_global { "cg" } else { "ca" }
        ),
        Instr::CpAsyncCommit => "cp.async.commit_group".into(),
        Instr::CpAsyncWaitGroup(n) => format!("cp.async.wait_group {n}"),
        Instr::CpAsyncWaitAll => "cp.async.wait_all".into(),
        Instr::CpAsyncBulk {
            tensor,
            dst_space,
            src_space,
            completion,
            dst,
            src,
            size,
        } => {
            let t = if *tensor { ".tensor.1d" } else { "" };
            let multicast = if dst.len() > 1 {
                ".multicast::cluster"
            } else {
                ""
            };
            let dst = dst.join("+");
            match completion {
                BulkCompletion::Mbarrier(m) => format!(
                    "cp.async.bulk{t}.{dst_space}.{src_space}.mbarrier::complete_tx::bytes{multicast} {dst}, {src}, {size}, {}",
                    m.join("+")
                ),
                BulkCompletion::BulkGroup => {
                    format!("cp.async.bulk{t}.{dst_space}.{src_space}.bulk_group {dst}, {src}, {size}")
                }
            }
        }
        Instr::CpAsyncBulkTensor {
            dst_space,
            src_space,
            completion,
            tensor,
            shared,
            size,
        } => {
            let head = format!("cp.async.bulk.tensor.1d.{dst_space}.{src_space}");
            let multicast = if shared.len() > 1 {
                ".multicast::cluster"
            } else {
                ""
            };
            let shared = shared.join("+");
            match completion {
                BulkCompletion::Mbarrier(m) => format!(
                    "{head}.mbarrier::complete_tx::bytes{multicast} {shared}, {tensor}, {size}, {}",
                    m.join("+")
                ),
                BulkCompletion::BulkGroup => {
                    format!("{head}.bulk_group {tensor}, {shared}, {size}")
                }
            }
        }
        Instr::TensormapReplace {
            field,
            space,
            ord,
            map,
            value,
        } => {
            let space = space.as_ref().map_or(String::new(), |s| format!(".{s}"));
            let ord = ord.map_or(String::new(), |o| format!("{o}, "));
            format!(
                "tensormap.replace.tile.{field}{space}.b1024.{} {map}, {ord}{value}",
                crate::instr::replace_type(field)
            )
        }
        Instr::TensormapFence { sem, scope, addr } => {
            let head = format!(
                "fence.proxy.tensormap::generic.{}.{}",
                sem.as_str(),
                scope.as_str()
            );
            match addr {
                Some(a) => format!("{head} {a}, 128"),
                None => head,
            }
        }
        Instr::CpReduceAsyncBulk {
            dst_space,
            src_space,
            completion,
            op,
            dst,
            src,
            size,
        } => {
            let head = format!("cp.reduce.async.bulk.{dst_space}.{src_space}");
            let op = op.as_str();
            match completion {
                BulkCompletion::Mbarrier(m) => format!(
                    "{head}.mbarrier::complete_tx::bytes.{op}.u32 {dst}, {src}, {size}, {}",
                    m.join("+")
                ),
                BulkCompletion::BulkGroup => {
                    format!("{head}.bulk_group.{op}.u32 {dst}, {src}, {size}")
                }
            }
        }
        Instr::CpAsyncMbarrierArrive { noinc, mbar } => format!(
            "cp.async.mbarrier.arrive{}.shared::cta.b64 {mbar}",
            if *noinc { ".noinc" } else { "" }
        ),
        Instr::MbarrierInit { mbar, count } => {
            format!("mbarrier.init.shared::cta.b64 {mbar}, {count}")
        }
        Instr::CpAsyncBulkCommit => "cp.async.bulk.commit_group".into(),
        Instr::CpAsyncBulkWaitGroup { read, n } => {
            format!(
                "cp.async.bulk.wait_group{} {n}",
                if *read { ".read" } else { "" }
            )
        }
        Instr::StAsync { dst, value, mbar } => {
            format!(
                "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 {dst}, {value}, {mbar}"
            )
        }
        Instr::MbarrierArrive {
            sem,
            scope,
            mbar,
            expect_tx,
        } => match expect_tx {
            Some(tx) => format!(
                "mbarrier.arrive.expect_tx.{}.{} {mbar}, {tx}",
                sem.as_str(),
                scope.as_str()
            ),
            None => format!("mbarrier.arrive.{}.{} {mbar}", sem.as_str(), scope.as_str()),
        },
        Instr::MbarrierTestWait {
            try_wait,
            sem,
            scope,
            dst,
            mbar,
            parity,
        } => {
            let op = if *try_wait { "try_wait" } else { "test_wait" };
            let (sem, scope) = (sem.as_str(), scope.as_str());
            match parity {
                Some(p) => format!("mbarrier.{op}.parity.{sem}.{scope} {dst}, {mbar}, {p}"),
                None => format!("mbarrier.{op}.{sem}.{scope} {dst}, {mbar}"),
            }
        }
    }
}

/// Prints a condition with the fewest parentheses that keep its shape
/// (`/\` binds tighter than `\/`; both associate to the left).
pub fn expr(e: &Expr) -> String {
    match e {
        Expr::Or(a, b) => format!(
            "{} \\/ {}",
            expr(a),
            wrap_if(b, |e| matches!(e, Expr::Or(..)))
        ),
        Expr::And(a, b) => format!(
            "{} /\\ {}",
            wrap_if(a, |e| matches!(e, Expr::Or(..))),
            wrap_if(b, |e| matches!(e, Expr::Or(..) | Expr::And(..)))
        ),
        Expr::Not(a) => format!("~{}", wrap_if(a, |e| !matches!(e, Expr::Not(..)))),
        Expr::Cmp(a, op, b) => format!("{a} {} {b}", op.symbol()),
    }
}

fn wrap_if(e: &Expr, needs: impl Fn(&Expr) -> bool) -> String {
    if needs(e) {
        format!("({})", expr(e))
    } else {
        expr(e)
    }
}
