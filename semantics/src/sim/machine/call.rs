//! `call` and `ret` (PTX ISA 9.7.12.5, 9.7.12.6) for the chosen lanes of a
//! warp. Each lane keeps a stack of frames; a call saves the callee's
//! register slots and local bytes (its `.param` and `.local` variables) and
//! gives it fresh ones, so every activation, recursive ones included, has
//! its own; `ret` copies the return parameters out and restores them.
//! Arguments and return values are copied byte for byte ("Arguments are
//! pass-by-value"), their unspecified bits with them.

use super::regs::{rd, rd_hi, us, us_hi, wr};
use super::{lanes, Lane, Machine, LANES};
use crate::sim::launch::StopKind;
use crate::sim::program::{Actual, Call, Callee, Formal, Op};
use crate::sim::undefined::Undefined;

/// Calls a thread may nest: a deeper call stops the thread with
/// [`StopKind::Resource`] (the GPU's limit is its stack size, set by the
/// host; the model keeps a count).
pub const CALL_DEPTH_LIMIT: usize = 1024;

const NOT_A_FUNCTION: Undefined = Undefined::behaviour(
    "9.7.12.5",
    "for indirect calls, the called location fptr must be an address of a function held in a register",
);
const MISMATCH: Undefined = Undefined::behaviour(
    "9.7.12.5",
    "the call must obey the ABI's calling convention: the called function's parameters and return values are not the call's arguments and return values",
);
const POINTER: &str = "the function pointer has unspecified bits";

/// One active call of a lane.
#[derive(Clone, Debug)]
pub(crate) struct Frame {
    /// The `call`'s pc (the lane returns to the next one).
    call_pc: u32,
    func: u32,
    /// The caller's values of the callee's register slots and their
    /// unspecified bits (empty when the warp has none).
    regs: Vec<u64>,
    shadow: Vec<u64>,
    /// The caller's bytes of the callee's frame range.
    local: Vec<u8>,
    local_shadow: Vec<u8>,
}

/// Bytes and, per byte, whether any of its bits is unspecified.
type Bytes = (Vec<u8>, Vec<u8>);

impl Machine<'_> {
    /// Index of lane `l`'s local frame in `local`.
    fn frame_base(&self, w: usize, l: usize) -> usize {
        let wp = &self.warps[w];
        let t = wp.cta as u64 * u64::from(self.shape.threads) + u64::from(wp.first) + l as u64;
        (t * self.prog.local_bytes) as usize
    }

    /// `n` bytes of a `.param` variable at `offset` of the frame (`size`
    /// bytes; those past it are unspecified).
    fn read_param(&self, w: usize, l: usize, offset: u64, size: u64, n: usize) -> Bytes {
        let base = self.frame_base(w, l) + offset as usize;
        let k = n
            .min(size as usize)
            .min(self.local.len().saturating_sub(base));
        let mut b = self.local[base..base + k].to_vec();
        let mut s = self.local_shadow[base..base + k].to_vec();
        b.resize(n, 0);
        s.resize(n, 1);
        (b, s)
    }

    fn read_reg(&self, w: usize, l: usize, slot: u32, bits: u16, n: usize) -> Bytes {
        let wp = &self.warps[w];
        let cx = self.ctx(w);
        let src = if bits > 64 {
            crate::sim::program::Src::Reg128(slot)
        } else {
            crate::sim::program::Src::Reg(slot)
        };
        let v = u128::from(rd(wp, &cx, src, l)) | (u128::from(rd_hi(wp, src, l)) << 64);
        let sh = u128::from(us(wp, src, l)) | (u128::from(us_hi(wp, src, l)) << 64);
        let width = usize::from(bits).div_ceil(8);
        let v = if bits == 1 { v & 1 } else { v };
        let mut b = Vec::with_capacity(n);
        let mut s = Vec::with_capacity(n);
        for k in 0..n {
            if k < width.min(16) {
                b.push((v >> (8 * k)) as u8);
                s.push(u8::from((sh >> (8 * k)) & 0xff != 0));
            } else {
                b.push(0);
                s.push(1);
            }
        }
        (b, s)
    }

    fn read_actual(&self, w: usize, l: usize, a: Actual, n: usize) -> Bytes {
        match a {
            Actual::Param { offset, size } => self.read_param(w, l, offset, size, n),
            Actual::Reg { slot, bits } => self.read_reg(w, l, slot, bits, n),
            Actual::Imm(v) => {
                let mut b = v.to_le_bytes().to_vec();
                b.resize(n, 0);
                (b, vec![0; n])
            }
            Actual::Sink => (vec![0; n], vec![1; n]),
        }
    }

    fn read_formal(&self, w: usize, l: usize, f: Formal) -> Bytes {
        let n = f.bytes() as usize;
        match f {
            Formal::Param { offset, size } => self.read_param(w, l, offset, size, n),
            Formal::Reg { slot, bits } => self.read_reg(w, l, slot, bits, n),
        }
    }

    fn write_param(&mut self, w: usize, l: usize, offset: u64, size: u64, v: &Bytes) {
        let base = self.frame_base(w, l) + offset as usize;
        for k in 0..size as usize {
            let Some(byte) = self.local.get_mut(base + k) else {
                break;
            };
            *byte = v.0.get(k).copied().unwrap_or(0);
            self.local_shadow[base + k] = v.1.get(k).copied().unwrap_or(1);
        }
    }

    fn write_reg(&mut self, w: usize, l: usize, slot: u32, bits: u16, v: &Bytes) {
        let (mut x, mut sh) = (0u128, 0u128);
        for k in 0..16 {
            x |= u128::from(v.0.get(k).copied().unwrap_or(0)) << (8 * k);
            if v.1.get(k).copied().unwrap_or(1) != 0 {
                sh |= 0xff << (8 * k);
            }
        }
        let keep = if bits >= 128 {
            u128::MAX
        } else {
            (1u128 << bits) - 1
        };
        let (x, sh) = (x & keep, sh & keep);
        let wp = &mut self.warps[w];
        wr(wp, slot, l, x as u64, sh as u64);
        if bits > 64 {
            wr(wp, slot + 1, l, (x >> 64) as u64, (sh >> 64) as u64);
        }
    }

    fn write_formal(&mut self, w: usize, l: usize, f: Formal, v: &Bytes) {
        match f {
            Formal::Param { offset, size } => self.write_param(w, l, offset, size, v),
            Formal::Reg { slot, bits } => self.write_reg(w, l, slot, bits, v),
        }
    }

    fn write_actual(&mut self, w: usize, l: usize, a: Actual, v: &Bytes) {
        match a {
            Actual::Param { offset, size } => self.write_param(w, l, offset, size, v),
            Actual::Reg { slot, bits } => self.write_reg(w, l, slot, bits, v),
            Actual::Imm(_) | Actual::Sink => {}
        }
    }

    /// `call` for the lanes of `exec`; the others of `active` go on.
    pub(super) fn call(&mut self, w: usize, pc: u32, active: u32, exec: u32, c: &Call) {
        self.diverge(w);
        for l in lanes(active & !exec) {
            self.warps[w].pc[l] = pc + 1;
        }
        for l in lanes(exec) {
            match self.call_lane(w, l, pc, c) {
                Ok(next) => self.warps[w].pc[l] = next,
                Err(kind) => self.stop(w, l, pc, kind),
            }
        }
    }

    /// One lane's call: the pc it goes to.
    fn call_lane(&mut self, w: usize, l: usize, pc: u32, c: &Call) -> Result<u32, StopKind> {
        let prog = self.prog;
        let k = match c.callee {
            Callee::Direct(k) => k as usize,
            Callee::Indirect(src) => {
                let wp = &self.warps[w];
                let cx = self.ctx(w);
                if us(wp, src, l) != 0 {
                    return Err(StopKind::Indeterminate(POINTER));
                }
                let a = rd(wp, &cx, src, l);
                prog.functions
                    .iter()
                    .position(|f| f.addr == a)
                    .ok_or(StopKind::Undefined(NOT_A_FUNCTION))?
            }
        };
        let f = &prog.functions[k];
        if f.params.len() != c.args.len() || f.returns.len() < c.rets.len() {
            return Err(StopKind::Undefined(MISMATCH));
        }
        let Some(entry) = f.entry else {
            // a function with no body (the CUDA runtime's `vprintf`,
            // `malloc`...): its effect is outside the model; what it
            // returns is unspecified
            for (r, fm) in c.rets.iter().zip(&f.returns) {
                let n = fm.bytes() as usize;
                self.write_actual(w, l, *r, &(vec![0; n], vec![1; n]));
            }
            return Ok(pc + 1);
        };
        let depth = self.warps[w].frames.get(l).map_or(0, Vec::len);
        if depth >= CALL_DEPTH_LIMIT {
            return Err(StopKind::Resource(format!(
                "a call of `{}` nested deeper than {CALL_DEPTH_LIMIT} calls, the model's limit on a thread's call stack",
                f.name
            )));
        }
        // the arguments are read before the callee's frame replaces the
        // caller's values (a recursive call passes its own parameters)
        let args: Vec<Bytes> = f
            .params
            .iter()
            .zip(&c.args)
            .map(|(fm, a)| self.read_actual(w, l, *a, fm.bytes() as usize))
            .collect();
        let (slo, shi) = (f.slots.0 as usize, f.slots.1 as usize);
        let base = self.frame_base(w, l);
        let (flo, fhi) = (base + f.frame.0 as usize, base + f.frame.1 as usize);
        let wp = &mut self.warps[w];
        let regs: Vec<u64> = (slo..shi).map(|s| wp.regs[s * LANES + l]).collect();
        for s in slo..shi {
            wp.regs[s * LANES + l] = 0;
        }
        let shadow: Vec<u64> = match wp.shadow.as_mut() {
            Some(sh) => (slo..shi)
                .map(|s| std::mem::take(&mut sh[s * LANES + l]))
                .collect(),
            None => Vec::new(),
        };
        if wp.frames.is_empty() {
            wp.frames = vec![Vec::new(); LANES];
        }
        let local = self.local[flo..fhi].to_vec();
        let local_shadow = self.local_shadow[flo..fhi].to_vec();
        // a fresh frame's variables have no value yet
        self.local_shadow[flo..fhi].fill(0xff);
        self.warps[w].frames[l].push(Frame {
            call_pc: pc,
            func: k as u32,
            regs,
            shadow,
            local,
            local_shadow,
        });
        for (fm, v) in f.params.iter().zip(&args) {
            self.write_formal(w, l, *fm, v);
        }
        Ok(entry)
    }

    /// `ret` in a device function for the lanes of `exec`: back to the
    /// caller, the return parameters copied into the call's return
    /// values. A lane with no call to return from ends.
    pub(super) fn ret(&mut self, w: usize, pc: u32, active: u32, exec: u32) {
        self.diverge(w);
        for l in lanes(active & !exec) {
            self.warps[w].pc[l] = pc + 1;
        }
        let prog = self.prog;
        for l in lanes(exec) {
            let frame = self.warps[w].frames.get_mut(l).and_then(Vec::pop);
            let Some(frame) = frame else {
                self.finish_lane(w, l, Lane::Exited);
                continue;
            };
            let f = &prog.functions[frame.func as usize];
            let rets: &[Actual] = match prog.code.get(frame.call_pc as usize).map(|i| &i.op) {
                Some(Op::Call(c)) => &c.rets,
                _ => &[],
            };
            let values: Vec<Bytes> = f
                .returns
                .iter()
                .take(rets.len())
                .map(|fm| self.read_formal(w, l, *fm))
                .collect();
            let (slo, shi) = (f.slots.0 as usize, f.slots.1 as usize);
            let base = self.frame_base(w, l);
            let (flo, fhi) = (base + f.frame.0 as usize, base + f.frame.1 as usize);
            let wp = &mut self.warps[w];
            for (k, s) in (slo..shi).enumerate() {
                wp.regs[s * LANES + l] = frame.regs[k];
            }
            if let Some(sh) = wp.shadow.as_mut() {
                for (k, s) in (slo..shi).enumerate() {
                    sh[s * LANES + l] = frame.shadow.get(k).copied().unwrap_or(0);
                }
            }
            self.local[flo..fhi].copy_from_slice(&frame.local);
            self.local_shadow[flo..fhi].copy_from_slice(&frame.local_shadow);
            for (a, v) in rets.iter().zip(&values) {
                self.write_actual(w, l, *a, v);
            }
            self.warps[w].pc[l] = frame.call_pc + 1;
        }
    }
}
