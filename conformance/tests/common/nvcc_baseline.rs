//! The nvcc corpus's kernels against the GPU (`corpus/simulator/nvcc-cases.json`,
//! `nvcc-baseline-h100.jsonl.gz`): the cases, what the GPU did with them, a run
//! of each on the simulator with the same inputs and buffer addresses, and
//! the comparison. The format is `corpus/simulator/cases.json`'s with the
//! additions `tools/sim/gen_nvcc_cases.py` describes (cluster dimensions,
//! dynamic shared memory, structure parameters, global memory beside the
//! arguments, an element size per compared argument); the device side is
//! `tools/device/sim_baseline.py --cases nvcc-cases.json`.
#![allow(dead_code)]

use ptx_conformance::baseline as simbase;
use ptx_semantics::sim::{self, Arg, Launch, Outcome, StopKind, WindowProfile};
use ptx_semantics::tensor::{DataType, Interleave, L2Promotion, OobFill, TensorMap};
use serde::Deserialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Deserialize)]
pub struct Cases {
    pub cases: Vec<Case>,
    /// Kernels with no case, and why.
    #[serde(default)]
    pub left_out: Vec<LeftOut>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct LeftOut {
    pub ptx: String,
    pub kernel: String,
    pub reason: String,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Case {
    pub name: String,
    pub family: String,
    /// Relative to `corpus/simulator`.
    pub ptx: String,
    pub kernel: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    #[serde(default)]
    pub cluster: Option<[u32; 3]>,
    /// Bytes of dynamic shared memory.
    #[serde(default)]
    pub shared: u64,
    pub args: Vec<Spec>,
    /// Global buffers that are no argument (reached through pointers
    /// inside a structure parameter).
    #[serde(default)]
    pub memory: Vec<Spec>,
    pub compare: Compare,
    #[serde(default)]
    pub note: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Spec {
    Buffer {
        buffer: usize,
        /// `random`, `poison`, `u32` or `u64` (with `values`).
        init: String,
        #[serde(default)]
        values: Vec<u64>,
    },
    /// A tensor map over memory buffer `mem` or argument buffer `buf`,
    /// from byte `offset`: the GPU had the driver's encoding of `tmap`, the
    /// model gets its own.
    TensorMap {
        tmap: TmapFields,
        #[serde(default)]
        mem: Option<usize>,
        #[serde(default)]
        buf: Option<usize>,
        #[serde(default)]
        offset: u64,
    },
    /// A parameter given as bytes; at each `(offset, memory, add)` the
    /// address of memory buffer `memory` plus `add`.
    Param {
        param: usize,
        bytes: String,
        #[serde(default)]
        ptrs: Vec<(usize, usize, u64)>,
    },
    U32 {
        u32: u64,
    },
    U64 {
        u64: u64,
    },
}

/// `cuTensorMapEncodeTiled`'s arguments (driver codes).
#[derive(Clone, Debug, Deserialize)]
pub struct TmapFields {
    #[serde(rename = "type")]
    pub data_type: u32,
    pub rank: u32,
    pub dims: Vec<u64>,
    /// Bytes, dimensions 1 to rank - 1.
    pub strides: Vec<u64>,
    #[serde(rename = "box")]
    pub box_dims: Vec<u32>,
    pub estrides: Vec<u32>,
    pub interleave: u32,
    pub swizzle: u32,
    pub l2: u32,
    pub fill: u32,
}

impl TmapFields {
    /// The model's map of these fields at `global_address`; `None` for a
    /// code the model has no variant for.
    pub fn map(&self, global_address: u64) -> Option<TensorMap> {
        let (swizzle, atomicity) = TensorMap::from_driver_swizzle(self.swizzle)?;
        let mut m = TensorMap {
            data_type: DataType::from_driver(self.data_type)?,
            rank: self.rank,
            global_address,
            interleave: Interleave::from_code(self.interleave)?,
            swizzle,
            atomicity,
            l2_promotion: L2Promotion::from_code(self.l2)?,
            oob_fill: OobFill::from_code(self.fill)?,
            ..TensorMap::default()
        };
        for (i, &d) in self.dims.iter().take(5).enumerate() {
            m.global_dims[i] = d;
        }
        for (i, &s) in self.strides.iter().take(4).enumerate() {
            m.global_strides[i] = s;
        }
        for (i, &b) in self.box_dims.iter().take(5).enumerate() {
            m.box_dims[i] = b;
        }
        for (i, &e) in self.estrides.iter().take(5).enumerate() {
            m.element_strides[i] = e;
        }
        Some(m)
    }
}

#[derive(Clone, Debug, Deserialize)]
pub struct Compare {
    /// Output buffers, by argument index.
    pub args: Vec<usize>,
    /// Bytes per compared element, one per entry of `args`.
    pub elem: Vec<usize>,
}

pub use simbase::{hex, load_baseline, profile_for, to_hex, Record, RecordArg};

/// Why a case's elements were not compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotRun {
    /// The GPU did not run it (its error).
    Gpu(String),
    /// The model refuses the kernel (`sim::prepare` or the launch).
    Refused(String),
    /// The model stopped threads (undefined behaviour, a deadlock, an
    /// indeterminate branch, the budget): the first report and the count.
    Stopped(String, usize),
}

/// The comparison of one case.
#[derive(Clone, Debug, Default)]
pub struct Comparison {
    pub name: String,
    /// Elements compared (defined in the model, stable on the GPU).
    pub compared: usize,
    /// (argument, element index, model bytes, GPU bytes).
    pub differing: Vec<(usize, usize, String, String)>,
    /// Elements left out: the model says some of their bits are
    /// unspecified.
    pub unspecified: usize,
    /// Elements left out: the GPU wrote them differently in two runs (or
    /// not at all).
    pub unstable: usize,
    pub not_run: Option<NotRun>,
}

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

pub fn load_cases(repo: &Path) -> Result<Cases, String> {
    let path = repo.join("corpus/simulator/nvcc-cases.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parsed PTX files, each read once.
#[derive(Default)]
pub struct Modules {
    parsed: HashMap<String, Result<ptx_semantics::ptx::Module, String>>,
}

impl Modules {
    pub fn get(&mut self, repo: &Path, ptx: &str) -> Result<&ptx_semantics::ptx::Module, String> {
        let entry = self.parsed.entry(ptx.to_string()).or_insert_with(|| {
            let path = repo.join("corpus/simulator").join(ptx);
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            ptx_semantics::ptx::parse(&text).map_err(|e| format!("{ptx}: {e}"))
        });
        entry.as_ref().map_err(|e| e.clone())
    }
}

fn buffer_bytes(spec: &Spec, r: &RecordArg) -> Result<(u64, Vec<u8>), String> {
    match (spec, r) {
        (Spec::Buffer { buffer, .. }, RecordArg::Buffer { addr, input, .. }) => Ok((
            *addr,
            match input {
                Some(h) => hex(h)?,
                None => vec![simbase::POISON; *buffer],
            },
        )),
        _ => Err("a buffer in the case is no buffer in the record".into()),
    }
}

/// Runs a case on the simulator with the inputs (and addresses) of `rec`.
pub fn simulate(
    modules: &mut Modules,
    repo: &Path,
    case: &Case,
    rec: &Record,
) -> Result<Outcome, NotRun> {
    simulate_on(modules, repo, case, rec, 1)
}

/// [`simulate`], the clusters on up to `workers` threads
/// (`sim::run_parallel`: the same outcome).
pub fn simulate_on(
    modules: &mut Modules,
    repo: &Path,
    case: &Case,
    rec: &Record,
    workers: usize,
) -> Result<Outcome, NotRun> {
    let module = modules.get(repo, &case.ptx).map_err(NotRun::Refused)?;
    let profile = profile_for(rec, WindowProfile::SM90);
    let prog = sim::prepare(module, &case.kernel, &profile)
        .map_err(|e| NotRun::Refused(format!("{e}")))?;
    let bad = |m: String| NotRun::Refused(format!("{}: {m}", case.name));
    if rec.args.len() != case.args.len() || rec.memory.len() != case.memory.len() {
        return Err(bad("the record's arguments are not the case's".into()));
    }
    let mut args = Vec::new();
    for (spec, r) in case.args.iter().zip(&rec.args) {
        args.push(match (spec, r) {
            (Spec::Buffer { .. }, _) => {
                let (addr, bytes) = buffer_bytes(spec, r).map_err(bad)?;
                Arg::Buffer {
                    addr: Some(addr),
                    bytes,
                }
            }
            (
                Spec::TensorMap {
                    tmap,
                    mem,
                    buf,
                    offset,
                },
                RecordArg::Param { .. },
            ) => {
                let base = match mem.map(|m| rec.memory.get(m)) {
                    Some(Some(RecordArg::Buffer { addr, .. })) => addr.wrapping_add(*offset),
                    Some(_) => return Err(bad("a tensor map over no memory buffer".into())),
                    None => 0,
                };
                let map = tmap
                    .map(base)
                    .ok_or_else(|| bad("a tensor map field the model has no variant for".into()))?;
                Arg::TensorMap {
                    map,
                    buffer: *buf,
                    offset: if buf.is_some() { *offset } else { 0 },
                }
            }
            (_, RecordArg::Param { param }) => Arg::Bytes(hex(param).map_err(bad)?),
            (_, RecordArg::U32 { u32 }) => Arg::u32(*u32 as u32),
            (_, RecordArg::U64 { u64 }) => Arg::u64(*u64),
            _ => return Err(bad("argument kinds differ".into())),
        });
    }
    let mut launch = Launch::new(case.grid, case.block, args);
    for (spec, r) in case.memory.iter().zip(&rec.memory) {
        launch.memory.push(buffer_bytes(spec, r).map_err(bad)?);
    }
    launch.cluster = case.cluster;
    launch.dynamic_shared = case.shared;
    launch.profile = profile;
    launch.step_budget = 1 << 28;
    let out = if workers > 1 {
        sim::run_parallel(&prog, &launch, workers)
    } else {
        sim::run(&prog, &launch)
    };
    out.map_err(|e| NotRun::Refused(format!("{e}")))
}

/// The first report of a run, in words.
pub fn describe(r: &sim::Report) -> String {
    let what = match &r.kind {
        StopKind::Undefined(u) => format!("undefined: {u:?}"),
        StopKind::Indeterminate(s) => format!("indeterminate: {s}"),
        StopKind::Deadlock(s) => format!("deadlock: {s}"),
        StopKind::Budget => "step budget".to_string(),
        StopKind::Resource(s) => format!("resource: {s}"),
        StopKind::Trap => "trap".to_string(),
    };
    format!(
        "ctaid {:?} tid {:?} `{}`: {what}",
        r.thread.ctaid, r.thread.tid, r.instruction
    )
}

/// Compares the simulator with the GPU on one case. A case the GPU did not
/// run, the model refuses, or where the model stops a thread (after
/// undefined behaviour nothing is defined; after a stop of the model's own
/// making nothing is known) compares nothing.
pub fn compare(modules: &mut Modules, repo: &Path, case: &Case, rec: &Record) -> Comparison {
    let mut cmp = Comparison {
        name: case.name.clone(),
        ..Comparison::default()
    };
    if !rec.ok {
        cmp.not_run = Some(NotRun::Gpu(rec.error.clone().unwrap_or_default()));
        return cmp;
    }
    let out = match simulate(modules, repo, case, rec) {
        Ok(o) => o,
        Err(e) => {
            cmp.not_run = Some(e);
            return cmp;
        }
    };
    if let Some(r) = out.reports.first() {
        cmp.not_run = Some(NotRun::Stopped(describe(r), out.reports.len()));
        return cmp;
    }
    let buffer_args: Vec<usize> = case
        .args
        .iter()
        .enumerate()
        .filter(|(_, a)| matches!(a, Spec::Buffer { .. }))
        .map(|(i, _)| i)
        .collect();
    for (&arg, &elem) in case.compare.args.iter().zip(&case.compare.elem) {
        let (
            Some(pos),
            Some(RecordArg::Buffer {
                input,
                out: gpu_out,
                unstable,
                ..
            }),
        ) = (
            buffer_args.iter().position(|&i| i == arg),
            rec.args.get(arg),
        )
        else {
            cmp.not_run = Some(NotRun::Refused(format!(
                "compared argument {arg} is not a buffer"
            )));
            return cmp;
        };
        let model = &out.buffers[pos];
        let gpu = match (gpu_out, input) {
            (Some(h), _) | (None, Some(h)) => hex(h).unwrap_or_default(),
            (None, None) => vec![simbase::POISON; model.bytes.len()],
        };
        let mut shaky = vec![false; gpu.len()];
        for [a, b] in unstable {
            for x in shaky.iter_mut().take(*b).skip(*a) {
                *x = true;
            }
        }
        let e = elem.max(1);
        for (k, chunk) in gpu.chunks(e).enumerate() {
            let range = k * e..(k * e + chunk.len());
            if model
                .unspecified
                .get(range.clone())
                .is_some_and(|u| u.iter().any(|&x| x != 0))
            {
                cmp.unspecified += 1;
                continue;
            }
            if shaky[range.clone()].iter().any(|&x| x) {
                cmp.unstable += 1;
                continue;
            }
            cmp.compared += 1;
            let m = model.bytes.get(range).unwrap_or(&[]);
            if m != chunk {
                cmp.differing.push((arg, k, to_hex(m), to_hex(chunk)));
            }
        }
    }
    cmp
}

/// A record with inputs made here, for running a case on the model alone:
/// random bytes from a fixed generator, poison, or the listed values;
/// buffers placed one after another in the global heap.
pub fn synthetic_record(case: &Case, profile: &WindowProfile) -> Record {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15 ^ case.name.len() as u64;
    let mut next_addr = profile.global_heap + 0x10_0000;
    let mut buffer = |buffer: usize, init: &str, values: &[u64]| {
        let bytes: Option<Vec<u8>> = match init {
            "poison" => None,
            "u32" | "u64" => {
                let w = if init == "u32" { 4 } else { 8 };
                let mut b = vec![0u8; buffer];
                for (k, v) in values.iter().enumerate() {
                    if (k + 1) * w <= b.len() {
                        b[k * w..(k + 1) * w].copy_from_slice(&v.to_le_bytes()[..w]);
                    }
                }
                Some(b)
            }
            _ => Some(simbase::random_bytes(&mut state, buffer)),
        };
        let addr = next_addr;
        next_addr += (buffer as u64).div_ceil(512) * 512 + 512;
        RecordArg::Buffer {
            addr,
            input: bytes.map(|b| to_hex(&b)),
            out: None,
            unstable: Vec::new(),
        }
    };
    let memory: Vec<RecordArg> = case
        .memory
        .iter()
        .map(|s| match s {
            Spec::Buffer {
                buffer: n,
                init,
                values,
            } => buffer(*n, init, values),
            _ => RecordArg::U32 { u32: 0 },
        })
        .collect();
    let addr_of = |m: usize| match memory.get(m) {
        Some(RecordArg::Buffer { addr, .. }) => *addr,
        _ => 0,
    };
    let args = case
        .args
        .iter()
        .map(|s| match s {
            Spec::Buffer {
                buffer: n,
                init,
                values,
            } => buffer(*n, init, values),
            Spec::Param { bytes, ptrs, .. } => {
                let mut b = hex(bytes).unwrap_or_default();
                for &(off, m, add) in ptrs {
                    if off + 8 <= b.len() {
                        b[off..off + 8]
                            .copy_from_slice(&addr_of(m).wrapping_add(add).to_le_bytes());
                    }
                }
                RecordArg::Param { param: to_hex(&b) }
            }
            // the map's bytes are the driver's: the model makes its own
            Spec::TensorMap { .. } => RecordArg::Param {
                param: String::new(),
            },
            Spec::U32 { u32 } => RecordArg::U32 { u32: *u32 },
            Spec::U64 { u64 } => RecordArg::U64 { u64: *u64 },
        })
        .collect();
    Record {
        name: case.name.clone(),
        ok: true,
        error: None,
        args,
        memory,
    }
}
