//! Witnesses as graphs: an execution becomes a petgraph graph whose nodes
//! are events and whose edges are labelled with the relation they belong
//! to; from it come the Graphviz DOT text and the plain-text listing. Also
//! finds a cycle in a relation, to show why an axiom fails.

use crate::event::{Event, Kind};
use crate::program::Location;
use crate::rel::Rel;
use crate::search::Execution;
use petgraph::algo::tarjan_scc;
use petgraph::graphmap::DiGraphMap;
use std::fmt::Write;

/// A cycle of a relation, as the events along it, if the relation has one.
pub fn find_cycle(r: &Rel) -> Option<Vec<usize>> {
    let mut g = DiGraphMap::<usize, ()>::new();
    for (a, b) in r.pairs() {
        if a == b {
            return Some(vec![a]);
        }
        g.add_edge(a, b, ());
    }
    let scc = tarjan_scc(&g).into_iter().find(|c| c.len() > 1)?;
    // Walk inside the component until an event repeats.
    let mut path = vec![scc[0]];
    loop {
        let cur = *path.last()?;
        let next = g.neighbors(cur).find(|m| scc.contains(m))?;
        if let Some(pos) = path.iter().position(|&e| e == next) {
            return Some(path.split_off(pos));
        }
        path.push(next);
    }
}

/// A short label for an event: `P0.2: W.relaxed.gpu x = 1`.
pub fn event_label(e: &Event, locs: &[Location]) -> String {
    let who = match (e.thread, e.pc) {
        (Some(t), Some(pc)) => format!("P{t}.{pc}{}", if e.is_async { "~" } else { "" }),
        _ => "init".to_string(),
    };
    let loc = e.loc.map_or(String::new(), |l| locs[l].name.clone());
    let mut ann = String::new();
    if e.kind != Kind::Init {
        let _ = write!(ann, ".{}", e.sem.as_str());
        if let Some(s) = e.scope {
            let _ = write!(ann, ".{}", s.as_str());
        }
    }
    if let Some(p) = e.proxy {
        if p != crate::event::Proxy::Generic {
            let _ = write!(ann, " [{}]", p.as_str());
        }
    }
    let what = match &e.kind {
        Kind::Init => format!("W {loc} = {}", e.value),
        Kind::Read => format!("R{ann} {loc} = {}", e.value),
        Kind::Write => format!("W{ann} {loc} = {}", e.value),
        Kind::MemoryFence => format!("F{ann}"),
        Kind::ProxyFence { .. } => format!("F.proxy{ann}"),
        Kind::AliasFence => "F.proxy.alias".to_string(),
        Kind::BulkCompletion => "bulk completion (implicit generic-async proxy fence)".to_string(),
        Kind::Barrier(b) => format!(
            "bar.{} {}{}",
            if b.arrive { "arrive" } else { "sync" },
            b.instance,
            b.id.map_or(String::new(), |i| format!(" id {i}"))
        ),
        Kind::AsyncWait => "wait (async completion)".to_string(),
        Kind::MbarrierArrive { tx, count, .. } if *count < 0 => {
            format!("mbarrier pending count +{}{ann} tx {tx}", -count)
        }
        Kind::MbarrierArrive { tx, .. } => format!("mbarrier.arrive{ann} tx {tx}"),
        Kind::MbarrierInit { count, .. } => format!("mbarrier.init {count}"),
        Kind::MbarrierInitFence => "fence.mbarrier_init".to_string(),
        Kind::CompleteTx { bytes, .. } => format!("complete-tx{ann} {bytes} bytes"),
        Kind::MbarrierWait { done, .. } => format!("mbarrier.wait{ann} -> {done}"),
        Kind::ClusterArrive => format!("barrier.cluster.arrive{ann}"),
        Kind::ClusterWait => format!("barrier.cluster.wait{ann}"),
    };
    format!("{who}: {what}")
}

/// The execution as a graph: events as nodes (by index), relation edges
/// labelled with the relation's name.
pub fn graph(x: &Execution) -> DiGraphMap<usize, Vec<&'static str>> {
    let mut g: DiGraphMap<usize, Vec<&'static str>> = DiGraphMap::new();
    for i in 0..x.events.len() {
        g.add_node(i);
    }
    for (name, pairs) in &x.relations {
        for &(a, b) in pairs {
            match g.edge_weight_mut(a, b) {
                Some(w) => w.push(*name),
                None => {
                    g.add_edge(a, b, vec![*name]);
                }
            }
        }
    }
    g
}

/// Graphviz DOT: one cluster per thread, events in program order, relations
/// as coloured edges; `highlight` edges (a violated axiom's cycle) in bold.
pub fn dot(x: &Execution, locs: &[Location], highlight: &[(usize, &'static str, usize)]) -> String {
    let g = graph(x);
    let mut out = String::from(
        "digraph execution {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n",
    );
    let threads: Vec<Option<u32>> = {
        let mut t: Vec<Option<u32>> = x.events.iter().map(|e| e.thread).collect();
        t.sort();
        t.dedup();
        t
    };
    for t in threads {
        let name = t.map_or("init".to_string(), |t| format!("P{t}"));
        let _ = writeln!(out, "  subgraph cluster_{name} {{\n    label=\"{name}\";");
        for (i, e) in x.events.iter().enumerate().filter(|(_, e)| e.thread == t) {
            let _ = writeln!(
                out,
                "    e{i} [label=\"{}\"];",
                escape(&event_label(e, locs))
            );
        }
        out.push_str("  }\n");
    }
    for (a, b, names) in g.all_edges() {
        for name in names {
            let colour = match *name {
                "po" => "black",
                "rf" => "red",
                "co" => "blue",
                "fr" => "orange",
                "sync" | "fence-sc" | "sync-barrier" | "sync-ext" => "darkgreen",
                "rmw" => "purple",
                _ => "gray",
            };
            let bold = highlight
                .iter()
                .any(|&(x, n, y)| x == a && y == b && n == *name);
            let _ = writeln!(
                out,
                "  e{a} -> e{b} [label=\"{name}\", color={colour}{}];",
                if bold { ", penwidth=3" } else { "" }
            );
        }
    }
    for &(a, name, b) in highlight {
        let known = g.edge_weight(a, b).is_some_and(|w| w.contains(&name));
        if !known {
            let _ = writeln!(
                out,
                "  e{a} -> e{b} [label=\"{}\", color=crimson, style=dashed, penwidth=3];",
                escape(name)
            );
        }
    }
    out.push_str("}\n");
    out
}

/// A plain-text listing: events per thread, then each relation's edges.
pub fn text(x: &Execution, locs: &[Location]) -> String {
    let mut out = String::new();
    for (i, e) in x.events.iter().enumerate() {
        let _ = writeln!(out, "  e{i:<3} {}", event_label(e, locs));
    }
    for (name, pairs) in &x.relations {
        if pairs.is_empty() || *name == "po" {
            continue;
        }
        let edges: Vec<String> = pairs.iter().map(|(a, b)| format!("e{a}->e{b}")).collect();
        let _ = writeln!(out, "  {name}: {}", edges.join(" "));
    }
    out
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_cycle_only_when_there_is_one() {
        let mut r = Rel::empty(5);
        r.add(0, 1);
        r.add(1, 2);
        r.add(3, 4);
        assert_eq!(find_cycle(&r), None);
        r.add(2, 0);
        let c = find_cycle(&r).expect("cycle");
        assert_eq!(c.len(), 3);
        for i in 0..c.len() {
            assert!(r.contains(c[i], c[(i + 1) % c.len()]));
        }
    }
}
