//! Replaying a witness through the concrete simulator: the launch the
//! witness names, its parameters (pointer parameters become buffers at
//! their addresses, holding the values the path loaded; a parameter given
//! a tensor map holds its bytes), and a check that the witness thread hits
//! the same clause at the same instruction.

use ptx_semantics::ptx::ast::Module;
use ptx_semantics::sim::{
    self, Arg, Launch, Place, Program, Space, StopKind, ThreadId, WindowProfile,
};

use crate::{Finding, Options, Replay, Verdict, Witness};

/// Bytes of shared memory one CTA may have on sm_90, static and dynamic
/// together (227 KiB: the CUDA C++ Programming Guide's table of compute
/// capabilities, "maximum amount of shared memory per thread block", 9.0).
const MAX_SHARED_PER_CTA: u64 = 227 * 1024;

/// Replays the witness of `finding` and settles its verdict: a witness
/// the replay does not confirm is no witness. It becomes `unknown`, with
/// what the replay saw and the instructions the search did not know that
/// the witness's operands depend on; the witness is kept as the
/// candidate.
pub fn settle(module: &Module, kernel: &str, opts: &Options, finding: &mut Finding) {
    let mut r = replay(module, kernel, opts, finding);
    if let Some(with_map) = tensor_map_retry(module, kernel, opts, finding, &r) {
        r = Some(Replay::Confirmed);
        finding.verdict = Verdict::Witness(with_map);
    }
    if let (
        Verdict::Witness(w),
        Some(Replay::NotConfirmed { what } | Replay::Impossible { why: what }),
    ) = (&finding.verdict, &r)
    {
        let mut reason =
            format!("a witness was found, but the simulator's replay did not confirm it: {what}");
        if !w.depends_on.is_empty() {
            let on: Vec<String> = w
                .depends_on
                .iter()
                .map(|d| format!("`{}` ({})", d.instruction, d.why))
                .collect();
            reason.push_str(&format!(
                "; the precondition's operands depend on {}",
                on.join(", ")
            ));
        }
        finding.verdict = Verdict::Unknown {
            reason,
            open: Vec::new(),
            candidate: Some(Box::new(w.clone())),
        };
    }
    finding.replay = r;
}

/// The bytes of a tensor map the search was not given
/// (`Options::tensor_maps`; a given map is in its parameter's bytes
/// already) are what it does not follow (`table::TENSOR_MAP_RULES`): a
/// witness whose replay stopped at an earlier tensor instruction on such a
/// rule (the map a parameter holds, which the search left zero, is no map;
/// or it is incomplete, copied by threads the witness's launch does not
/// have) is tried again with each 128-byte parameter the witness left zero
/// holding a valid map (rank 5, tiled) and the CTA at its bound. A
/// confirmed retry is the witness, with that launch and those parameters.
fn tensor_map_retry(
    module: &Module,
    kernel: &str,
    opts: &Options,
    finding: &Finding,
    first: &Option<Replay>,
) -> Option<Witness> {
    let (Verdict::Witness(w), Some(Replay::NotConfirmed { what })) = (&finding.verdict, first)
    else {
        return None;
    };
    if !what.contains("tensor") {
        return None;
    }
    let map = ptx_semantics::tensor::TensorMap {
        rank: 5,
        global_dims: [16, 1, 1, 1, 1],
        global_strides: [16; 4],
        ..Default::default()
    };
    let mut w2 = w.clone();
    let mut changed = false;
    for (k, bytes) in w2.param_bytes.iter_mut().enumerate() {
        if bytes.len() == 128 && bytes.iter().all(|&b| b == 0) {
            *bytes = map.to_bytes().to_vec();
            w2.params[k].1 = bytes.iter().map(|b| format!("{b:02x}")).collect();
            changed = true;
        }
    }
    let block = [opts.bounds.block[0].max(w.block[0]), w.block[1], w.block[2]];
    if block[0] * block[1] * block[2] <= 1024 && block != w.block {
        w2.block = block;
        changed = true;
    }
    if !changed {
        return None;
    }
    let f = Finding {
        verdict: Verdict::Witness(w2.clone()),
        ..finding.clone()
    };
    matches!(replay(module, kernel, opts, &f), Some(Replay::Confirmed)).then_some(w2)
}

/// Replays the witness of `finding` (none for other verdicts).
pub fn replay(module: &Module, kernel: &str, opts: &Options, finding: &Finding) -> Option<Replay> {
    let Verdict::Witness(w) = &finding.verdict else {
        return None;
    };
    let profile = WindowProfile::SM90;
    // the lenient decoding, as the search read the kernel: an instruction
    // the simulator does not model leaves unspecified bits, which stop the
    // thread only if a branch or an address depends on them
    let prog = match sim::prepare_lenient(module, kernel, &profile) {
        Ok(p) => p,
        Err(e) => return Some(Replay::Impossible { why: e.to_string() }),
    };
    let mut args = Vec::new();
    let mut buffers: Vec<u64> = Vec::new();
    for (p, bytes) in prog.params.iter().zip(&w.param_bytes) {
        if opts.pointer_params && p.size == 8 {
            let mut x = [0u8; 8];
            x.copy_from_slice(&bytes[..8]);
            let base = u64::from_le_bytes(x);
            let mut buf = vec![0u8; Options::BUFFER as usize];
            for &(addr, n, v) in &w.loads {
                let off = addr.wrapping_sub(base);
                if off.saturating_add(u64::from(n)) <= Options::BUFFER {
                    let le = v.to_le_bytes();
                    let n = usize::from(n).min(8);
                    buf[off as usize..off as usize + n].copy_from_slice(&le[..n]);
                }
            }
            buffers.push(base);
            args.push(Arg::Buffer {
                addr: Some(base),
                bytes: buf,
            });
        } else {
            args.push(Arg::Bytes(bytes.clone()));
        }
    }
    let mut launch = Launch::new(w.grid, w.block, args);
    launch.memory = memory(&prog, &profile, &buffers, &w.loads);
    launch.cluster = Some(w.cluster);
    launch.step_budget = 1 << 26;
    // the search took the dynamic shared memory to be any size: the replay
    // gives the most a CTA may have
    if prog.dynamic_shared {
        let used = prog
            .static_shared_end()
            .saturating_sub(profile.shared_reserved);
        launch.dynamic_shared = MAX_SHARED_PER_CTA.saturating_sub(used);
    }
    let out = match sim::run(&prog, &launch) {
        Ok(o) => o,
        Err(e) => {
            return Some(Replay::NotConfirmed {
                what: format!("the simulator refused the launch: {e}"),
            })
        }
    };
    let me = ThreadId {
        ctaid: w.ctaid,
        tid: w.tid,
    };
    let pre = finding.precondition;
    let mine = out
        .reports
        .iter()
        .chain(&out.undefined_results)
        .filter(|r| r.thread == me)
        .collect::<Vec<_>>();
    let hit = mine.iter().any(|r| {
        r.offset == finding.offset
            && matches!(&r.kind, StopKind::Undefined(u) if u.section == pre.section && u.rule == pre.rule)
    });
    Some(if hit {
        Replay::Confirmed
    } else {
        let what = match mine.first() {
            Some(r) => format!("the thread stopped at `{}`: {:?}", r.instruction, r.kind),
            None => "the thread ran to its end".to_string(),
        };
        Replay::NotConfirmed { what }
    })
}

/// Global memory for the loads of the witness path that no buffer holds
/// (through pointers the search took to be any value: a structure
/// parameter's fields, loaded pointers): the loaded bytes at their
/// addresses, in the global window, adjacent and overlapping loads merged.
fn memory(
    prog: &Program,
    profile: &WindowProfile,
    buffers: &[u64],
    loads: &[(u64, u8, u64)],
) -> Vec<(u64, Vec<u8>)> {
    let at = Place {
        rank: 0,
        cluster_size: 1,
        param_bytes: prog.param_bytes,
        const_bytes: prog.const_bytes(),
    };
    let global = |a: u64| sim::window::isspacep(profile, Space::Global, a, &at);
    // the module's `.global` variables lie at the start of the heap, where
    // the simulator places them with their initial values: a load from
    // them reads those, and memory given there would overlap them
    let variables = profile.global_heap..prog.globals_end().unwrap_or(0);
    let mut spans: Vec<(u64, Vec<u8>)> = Vec::new();
    let mut sorted: Vec<(u64, u8, u64)> = loads
        .iter()
        .copied()
        .filter(|&(a, n, _)| {
            let n = u64::from(n.min(8));
            !buffers
                .iter()
                .any(|&b| a >= b && a.saturating_add(n) <= b + Options::BUFFER)
                && n > 0
                && !variables.contains(&a)
                && !variables.contains(&a.saturating_add(n - 1))
                && global(a)
                && global(a.saturating_add(n - 1))
        })
        .collect();
    sorted.sort_by_key(|&(a, ..)| a);
    for (a, n, v) in sorted {
        let bytes = &v.to_le_bytes()[..usize::from(n.min(8))];
        match spans.last_mut() {
            Some((base, buf)) if a <= *base + buf.len() as u64 => {
                let off = (a - *base) as usize;
                if buf.len() < off + bytes.len() {
                    buf.resize(off + bytes.len(), 0);
                }
                buf[off..off + bytes.len()].copy_from_slice(bytes);
            }
            _ => spans.push((a, bytes.to_vec())),
        }
    }
    spans
}
