//! The kernel's control flow as the symbolic executor reads it: each
//! instruction's successors and the loops, nested, each entered at its
//! header. The search bounds the turns of each loop, counted from the
//! path's entry into it.

use std::collections::HashMap;

use ptx_semantics::sim::program::{Instr, Op};

/// A loop of the loop nesting forest: a strongly connected part of the
/// control flow, entered at its header; the loops inside it are those of
/// its body without the edges back to its header.
pub struct Loop {
    pub header: usize,
    pub body: Vec<bool>,
}

impl Loop {
    pub fn contains(&self, pc: usize) -> bool {
        self.body.get(pc).copied().unwrap_or(false)
    }
}

/// The strongly connected components of the graph `succ` restricted to
/// `nodes`, without the edges into `cut` (Tarjan's algorithm, without
/// recursion).
fn components(succ: &[Vec<usize>], nodes: &[bool], cut: Option<usize>) -> Vec<Vec<usize>> {
    let n = nodes.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on = vec![false; n];
    let mut stack = Vec::new();
    let mut out = Vec::new();
    let mut next = 0usize;
    let edges = |v: usize| -> Vec<usize> {
        succ.get(v)
            .map(|ss| {
                ss.iter()
                    .copied()
                    .filter(|&w| w < n && nodes[w] && Some(w) != cut)
                    .collect()
            })
            .unwrap_or_default()
    };
    for root in 0..n {
        if !nodes[root] || index[root] != usize::MAX {
            continue;
        }
        // (node, its successors, the next one to visit)
        let mut call: Vec<(usize, Vec<usize>, usize)> = vec![(root, edges(root), 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on[root] = true;
        while let Some(top) = call.last_mut() {
            let v = top.0;
            if top.2 < top.1.len() {
                let w = top.1[top.2];
                top.2 += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on[w] = true;
                    call.push((w, edges(w), 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(parent) = call.last() {
                    let p = parent.0;
                    low[p] = low[p].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on[w] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    out.push(comp);
                }
            }
        }
    }
    out
}

/// The loops of the graph restricted to `nodes` (without the edges into
/// `cut`, the header of the loop they are in), appended to `loops`; and
/// each node's place in an order where every edge that is no loop's
/// turn goes forward and each loop's instructions come together, its
/// header first (a weak topological order, after Bourdoncle).
fn find_loops(
    succ: &[Vec<usize>],
    pred: &[Vec<usize>],
    nodes: &[bool],
    cut: Option<usize>,
    loops: &mut Vec<Loop>,
    order: &mut Vec<usize>,
) {
    // Tarjan's components come sinks first
    for comp in components(succ, nodes, cut).into_iter().rev() {
        let single = comp.len() == 1;
        let v = comp[0];
        let self_edge = succ
            .get(v)
            .is_some_and(|ss| ss.iter().any(|&w| w == v && Some(w) != cut));
        if single && !self_edge {
            order.push(v);
            continue;
        }
        let mut body = vec![false; nodes.len()];
        comp.iter().for_each(|&w| body[w] = true);
        // the header: where the loop is entered from outside (the first
        // such instruction where there are several); else its first
        let header = comp
            .iter()
            .copied()
            .filter(|&w| w == 0 || pred[w].iter().any(|&p| !body[p]))
            .min()
            .unwrap_or_else(|| comp.iter().copied().min().unwrap_or(v));
        loops.push(Loop {
            header,
            body: body.clone(),
        });
        find_loops(succ, pred, &body, Some(header), loops, order);
    }
}

/// The flow of one kernel.
pub struct Flow {
    pub succ: Vec<Vec<usize>>,
    /// The loops, outer ones before those nested in them.
    pub loops: Vec<Loop>,
    /// Per instruction, the loop it heads.
    heads: Vec<Option<usize>>,
    /// Per instruction, its place in the weak topological order.
    pub place: Vec<u32>,
    /// Per instruction, the loops it is in, outermost first.
    pub nest: Vec<Vec<usize>>,
}

impl Flow {
    pub fn new(code: &[Instr]) -> Flow {
        let n = code.len();
        let succ: Vec<Vec<usize>> = code
            .iter()
            .enumerate()
            .map(|(pc, i)| match (&i.op, i.guard) {
                (Op::Bra { target }, None) => vec![*target as usize],
                (Op::Bra { target }, Some(_)) => vec![*target as usize, pc + 1],
                (Op::Exit, None) => vec![],
                _ => vec![pc + 1],
            })
            .map(|v| v.into_iter().filter(|&s| s <= n).collect())
            .collect();
        let mut pred: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
        for (pc, ss) in succ.iter().enumerate() {
            for &s in ss {
                pred[s].push(pc);
            }
        }
        let mut loops = Vec::new();
        let mut order = Vec::new();
        let all = vec![true; n + 1];
        find_loops(&succ, &pred, &all, None, &mut loops, &mut order);
        let mut heads = vec![None; n + 1];
        for (k, l) in loops.iter().enumerate() {
            heads[l.header] = Some(k);
        }
        let mut place = vec![0u32; n + 1];
        for (k, &pc) in order.iter().enumerate() {
            place[pc] = k as u32;
        }
        let nest = (0..=n)
            .map(|pc| {
                (0..loops.len())
                    .filter(|&l| loops[l].contains(pc))
                    .collect()
            })
            .collect();
        Flow {
            succ,
            loops,
            heads,
            place,
            nest,
        }
    }

    /// The order in which the search advances paths: by the turns of the
    /// loops they are in, outermost first, and by place; so every path of
    /// a loop's turn reaches the header (and merges there) before any goes
    /// on, and paths that leave a loop wait for the others to leave.
    pub fn rank(&self, pc: usize, turns: &HashMap<usize, u32>) -> Vec<u32> {
        let mut key = Vec::new();
        if let Some(ls) = self.nest.get(pc) {
            for &l in ls {
                key.push(self.place[self.loops[l].header]);
                key.push(turns.get(&l).copied().unwrap_or(0));
            }
        }
        key.push(self.place.get(pc).copied().unwrap_or(u32::MAX));
        key
    }

    /// The loop headed at `pc`.
    pub fn loop_at(&self, pc: usize) -> Option<usize> {
        self.heads.get(pc).copied().flatten()
    }
}
