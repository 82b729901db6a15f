//! Replaying a witness through the concrete simulator: the launch the
//! witness names, its parameters (pointer parameters become buffers at
//! their addresses, holding the values the path loaded), and a check that
//! the witness thread hits the same clause at the same instruction.

use ptx_semantics::ptx::ast::Module;
use ptx_semantics::sim::{self, Arg, Launch, StopKind, ThreadId, WindowProfile};

use crate::{Finding, Options, Replay, Verdict};

/// Replays the witness of `finding` (none for other verdicts).
pub fn replay(module: &Module, kernel: &str, opts: &Options, finding: &Finding) -> Option<Replay> {
    let Verdict::Witness(w) = &finding.verdict else {
        return None;
    };
    let profile = WindowProfile::SM90;
    let prog = match sim::prepare(module, kernel, &profile) {
        Ok(p) => p,
        Err(e) => return Some(Replay::Impossible { why: e.to_string() }),
    };
    let mut args = Vec::new();
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
            args.push(Arg::Buffer {
                addr: Some(base),
                bytes: buf,
            });
        } else {
            args.push(Arg::Bytes(bytes.clone()));
        }
    }
    let mut launch = Launch::new(w.grid, w.block, args);
    launch.cluster = Some(w.cluster);
    launch.step_budget = 1 << 26;
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
