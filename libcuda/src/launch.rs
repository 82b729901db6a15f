//! Launches: the checks the driver makes on a launch's shape, shared memory
//! and cluster, then a run of the simulator over every live allocation, the
//! bytes written back, and a report for every thread the run stopped.

use crate::state::Driver;
use crate::types::*;
use ptx_semantics::sim::{self, Arg, Outcome, Report, StopKind, WindowProfile};
use std::io::Write;

/// Threads a CTA may have, and the largest CTA and grid dimensions
/// (`CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_*`, `..._MAX_GRID_DIM_*` of a
/// compute capability 9.0 device).
pub const MAX_THREADS: u64 = 1024;
pub const MAX_BLOCK: [u32; 3] = [1024, 1024, 64];
pub const MAX_GRID: [u32; 3] = [0x7fff_ffff, 65535, 65535];
/// Shared memory a CTA may have without opting in, and with
/// (`CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK`, `..._OPTIN`): 48 KiB
/// and 227 KiB on compute capability 9.0.
pub const SHARED_DEFAULT: u64 = 48 << 10;
pub const SHARED_OPTIN: u64 = 227 << 10;
/// CTAs a cluster may have: 8 portably, 16 with
/// `CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED` (PTX ISA 2.2.2
/// leaves the size to the device; the CUDA programming guide gives 8 as
/// the portable size and 16 as the compute capability 9.0 maximum).
pub const CLUSTER_PORTABLE: u64 = 8;
pub const CLUSTER_MAX: u64 = 16;

/// One launch as the host asked for it.
#[derive(Clone, Debug)]
pub struct Request {
    pub function: u64,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared: u32,
    /// From `CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION`.
    pub cluster: Option<[u32; 3]>,
    pub stream: u64,
    /// Each parameter's bytes.
    pub params: Vec<Vec<u8>>,
}

/// The static shared memory a kernel declares (the reserved bytes at the
/// start of a CTA's part not counted, as the driver does not count them).
pub fn static_shared(p: &sim::Program) -> u64 {
    p.static_shared_end()
        .saturating_sub(WindowProfile::SM90.shared_reserved)
}

impl Driver {
    /// Runs a launch to its end. An error the driver finds before the run is
    /// returned; a thread the run stops makes the launch succeed and the
    /// context's later calls fail ([`crate::state::Context::sticky`]), as a
    /// fault in a running kernel does.
    pub fn launch(&mut self, r: Request) -> Result<(), CUresult> {
        let context = self.stream_context(r.stream)?;
        self.check_context(context)?;
        let f = self
            .functions
            .get(&r.function)
            .ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        let module = self
            .modules
            .get(&f.module)
            .ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        if module.context != context {
            return Err(CUDA_ERROR_INVALID_CONTEXT);
        }
        check_shape(r.grid, r.block)?;
        let program = f.program.clone();
        let name = f.name.clone();
        let allowed = crate::device::effective_dynamic(f);
        if u64::from(r.shared) > allowed
            || static_shared(&program) + u64::from(r.shared) > SHARED_OPTIN
        {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        if let Some(c) = r.cluster {
            let size: u64 = c.iter().map(|&x| u64::from(x)).product();
            let limit = if f.non_portable_cluster {
                CLUSTER_MAX
            } else {
                CLUSTER_PORTABLE
            };
            if size == 0 || size > limit || (0..3).any(|k| !r.grid[k].is_multiple_of(c[k])) {
                return Err(CUDA_ERROR_INVALID_CLUSTER_SIZE);
            }
        }
        let module_handle = f.module;
        // the launch's memory: every allocation, then the module's
        // variables, moved into the launch and back after it
        let mut memory: Vec<(u64, Vec<u8>)> = self
            .memory
            .allocations
            .iter_mut()
            .map(|(&b, a)| (b, std::mem::take(&mut a.bytes)))
            .collect();
        let allocations = memory.len();
        if let Some(m) = self.modules.get_mut(&module_handle) {
            memory.extend(
                m.variables
                    .iter_mut()
                    .map(|v| (v.addr, std::mem::take(&mut v.bytes))),
            );
        }
        let mut launch = sim::Launch::new(
            r.grid,
            r.block,
            r.params.into_iter().map(Arg::Bytes).collect(),
        );
        launch.cluster = r.cluster;
        // the module's constant bank as the host left it
        if let Some(m) = self.modules.get(&module_handle) {
            if !m.const_bank.is_empty() {
                launch.consts = Some(m.const_bank.clone());
            }
        }
        launch.dynamic_shared = u64::from(r.shared);
        launch.step_budget = self.config.step_budget;
        launch.memory = memory;
        let result = sim::run_parallel(&program, &launch, self.config.threads);
        let (outs, code): (Vec<(u64, Vec<u8>)>, _) = match result {
            Ok(out) => {
                let code = Ok(self.report(&name, &out));
                let fill = self.config.fill;
                let outs = out
                    .memory
                    .into_iter()
                    .map(|b| {
                        let mut bytes = b.bytes;
                        if let Some(fill) = fill {
                            // only the bits the spec leaves unspecified
                            for (x, &u) in bytes.iter_mut().zip(&b.unspecified_bits) {
                                *x = (*x & !u) | (fill & u);
                            }
                        }
                        (b.addr, bytes)
                    })
                    .collect();
                (outs, code)
            }
            Err(e) => {
                self.write_report(&format!("ptx-libcuda: kernel `{name}` not launched: {e}"));
                (std::mem::take(&mut launch.memory), Err(launch_error(&e)))
            }
        };
        // the bytes back where they came from
        let mut outs = outs.into_iter();
        for ((_, a), (_, bytes)) in self.memory.allocations.iter_mut().zip(outs.by_ref()) {
            a.bytes = bytes;
        }
        debug_assert_eq!(allocations, self.memory.allocations.len());
        if let Some(m) = self.modules.get_mut(&module_handle) {
            for (v, (_, bytes)) in m.variables.iter_mut().zip(outs) {
                v.bytes = bytes;
            }
        }
        match code {
            Ok(None) => Ok(()),
            Ok(Some(fault)) => {
                if let Some(c) = self.contexts.get_mut(&context) {
                    c.sticky = Some(fault);
                }
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    /// Reports the threads a run stopped (and, when verbose, the undefined
    /// results it met); the fault the host sees, if any.
    fn report(&self, kernel: &str, out: &Outcome) -> Option<CUresult> {
        let mut text = String::new();
        const SHOWN: usize = 16;
        for r in out.reports.iter().take(SHOWN) {
            text.push_str(&describe_report(kernel, r));
            text.push('\n');
        }
        if out.reports.len() > SHOWN {
            text.push_str(&format!(
                "ptx-libcuda: kernel `{kernel}`: {} more thread(s) stopped\n",
                out.reports.len() - SHOWN
            ));
        }
        if self.config.verbose {
            for r in out.undefined_results.iter().take(SHOWN) {
                text.push_str(&describe_report(kernel, r));
                text.push('\n');
            }
        }
        if !text.is_empty() {
            self.write_report(text.trim_end());
        }
        let fault = out.reports.first().map(|r| fault_of(&r.kind));
        fault.or(out.budget_exhausted.then_some(CUDA_ERROR_LAUNCH_TIMEOUT))
    }

    /// Writes lines to the report file, or to standard error.
    pub fn write_report(&self, text: &str) {
        match &self.config.report {
            Some(path) => {
                let f = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path);
                match f {
                    Ok(mut f) => {
                        let _ = writeln!(f, "{text}");
                    }
                    Err(e) => {
                        let _ = writeln!(
                            std::io::stderr(),
                            "{text}\n(ptx-libcuda: {}: {e})",
                            path.display()
                        );
                    }
                }
            }
            None => {
                let _ = writeln!(std::io::stderr(), "{text}");
            }
        }
    }
}

/// The driver's checks of a launch's dimensions: each at least 1 and at
/// most the device's limit, and at most 1024 threads a CTA
/// (`CUDA_ERROR_INVALID_VALUE` otherwise).
pub fn check_shape(grid: [u32; 3], block: [u32; 3]) -> Result<(), CUresult> {
    let threads: u64 = block.iter().map(|&x| u64::from(x)).product();
    let ok = (0..3)
        .all(|k| (1..=MAX_GRID[k]).contains(&grid[k]) && (1..=MAX_BLOCK[k]).contains(&block[k]))
        && threads <= MAX_THREADS;
    if ok {
        Ok(())
    } else {
        Err(CUDA_ERROR_INVALID_VALUE)
    }
}

/// The driver error of a launch the simulator refused to start.
fn launch_error(e: &sim::LaunchError) -> CUresult {
    match e {
        sim::LaunchError::Overlap(..) => CUDA_ERROR_UNKNOWN,
        _ => CUDA_ERROR_INVALID_VALUE,
    }
}

/// The error a real device gives for each way the model stops a thread:
/// - undefined behaviour of a misaligned access (a rule that speaks of
///   alignment): `CUDA_ERROR_MISALIGNED_ADDRESS`;
/// - other undefined behaviour of an address (outside every object, a
///   window the space does not have): `CUDA_ERROR_ILLEGAL_ADDRESS`;
/// - any other undefined behaviour, and control flow or an address that
///   depends on unspecified bits: `CUDA_ERROR_LAUNCH_FAILED` ("unspecified
///   launch failure");
/// - `trap` (PTX ISA 9.7.17: "Abort execution and generate an interrupt to
///   the host CPU"): `CUDA_ERROR_ILLEGAL_INSTRUCTION`;
/// - the step budget, and a thread that waits forever (a device would
///   hang until the watchdog): `CUDA_ERROR_LAUNCH_TIMEOUT`;
/// - calls nested deeper than the model allows: `CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES`.
pub fn fault_of(kind: &StopKind) -> CUresult {
    match kind {
        StopKind::Undefined(u) => {
            let rule = u.rule.to_ascii_lowercase();
            if rule.contains("align") {
                CUDA_ERROR_MISALIGNED_ADDRESS
            } else if u.section == sim::Undefined::MODEL
                || rule.contains("address")
                || rule.contains("window")
            {
                CUDA_ERROR_ILLEGAL_ADDRESS
            } else {
                CUDA_ERROR_LAUNCH_FAILED
            }
        }
        StopKind::Indeterminate(_) => CUDA_ERROR_LAUNCH_FAILED,
        StopKind::Trap => CUDA_ERROR_ILLEGAL_INSTRUCTION,
        StopKind::Budget | StopKind::Deadlock(_) => CUDA_ERROR_LAUNCH_TIMEOUT,
        StopKind::Resource(_) => CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES,
    }
}

/// One line: the kernel, the thread, the instruction and the clause.
pub fn describe_report(kernel: &str, r: &Report) -> String {
    let what = match &r.kind {
        StopKind::Undefined(u) => u.to_string(),
        StopKind::Indeterminate(w) => format!("indeterminate: {w}"),
        StopKind::Deadlock(w) => format!("deadlock: {w}"),
        StopKind::Budget => "the step budget ran out (PTX_LIBCUDA_STEP_BUDGET)".into(),
        StopKind::Resource(w) => format!("out of a resource: {w}"),
        StopKind::Trap => "trap (PTX ISA 9.7.17)".into(),
    };
    let note = if r.note.is_empty() {
        String::new()
    } else {
        format!(" ({})", r.note)
    };
    format!(
        "ptx-libcuda: kernel `{kernel}`: ctaid {:?} tid {:?} at `{}` (byte {}): {what}{note}",
        r.thread.ctaid, r.thread.tid, r.instruction, r.offset
    )
}
