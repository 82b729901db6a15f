//! The simulator's GPU baseline (`corpus/simulator`): the cases, what an
//! NVIDIA GPU did with them, and the comparison of the simulator with it.
//! The device side is `tools/device/sim_baseline.py`; the CI test is
//! `conformance/tests/sim_baseline.rs`.

use ptx_semantics::sim::{self, Arg, Launch, Outcome, WindowProfile};
use serde::Deserialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// `corpus/simulator/cases.json`.
#[derive(Clone, Debug, Deserialize)]
pub struct Cases {
    pub cases: Vec<Case>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Case {
    pub name: String,
    pub family: String,
    /// A file under `corpus/simulator`, or `nvcc:NAME` for the PTX nvcc
    /// made of `cuda/NAME.cu` (kept as `nvcc/NAME.ptx`).
    pub ptx: String,
    pub kernel: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub args: Vec<ArgSpec>,
    pub compare: Compare,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum ArgSpec {
    Buffer {
        buffer: usize,
        /// `random`, `poison`, `u32` or `u64` (with `values`).
        init: String,
        #[serde(default)]
        values: Vec<u64>,
    },
    U32 {
        u32: u64,
    },
    U64 {
        u64: u64,
    },
}

#[derive(Clone, Debug, Deserialize)]
pub struct Compare {
    /// Output buffers, by argument index.
    pub args: Vec<usize>,
    /// Bytes per compared element.
    pub elem: usize,
}

/// One line of the baseline: what the GPU did.
#[derive(Clone, Debug, Deserialize)]
pub struct Record {
    pub name: String,
    pub ok: bool,
    #[serde(default)]
    pub error: Option<String>,
    #[serde(default)]
    pub args: Vec<RecordArg>,
    /// Global buffers that are no argument (the nvcc corpus's cases reach
    /// them through pointers inside structure parameters).
    #[serde(default)]
    pub memory: Vec<RecordArg>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum RecordArg {
    Buffer {
        addr: u64,
        /// Contents before the launch; absent for poison (0xA5 bytes).
        #[serde(default, rename = "in")]
        input: Option<String>,
        /// Contents after; absent when unchanged.
        #[serde(default)]
        out: Option<String>,
        /// Byte ranges that differed between two runs with different
        /// poison: unwritten or unstable.
        #[serde(default)]
        unstable: Vec<[usize; 2]>,
    },
    /// A structure parameter's bytes as passed (addresses filled in).
    Param {
        param: String,
    },
    U32 {
        u32: u64,
    },
    U64 {
        u64: u64,
    },
}

/// The poison the runner fills output buffers with (first run).
pub const POISON: u8 = 0xA5;

/// The comparison of one case.
#[derive(Clone, Debug, Default)]
pub struct Comparison {
    pub name: String,
    pub family: String,
    /// Elements compared (defined in the model, stable on the GPU).
    pub compared: usize,
    /// Elements where the model and the GPU differ: (argument, element
    /// index, model bytes, GPU bytes).
    pub differing: Vec<(usize, usize, String, String)>,
    /// Elements left out: the model says some bits are unspecified.
    pub unspecified: usize,
    /// Of those, the elements whose unspecified bytes the model prints as
    /// the GPU wrote them (issue 19: the model's concrete bits for what
    /// the spec leaves free should be sm_90's): (argument, element index,
    /// model bytes, GPU bytes) of the others.
    pub unspecified_as_gpu: usize,
    /// Elements with unspecified bits whose defined bits were compared (and
    /// agree).
    pub partly: usize,
    pub unspecified_other: Vec<(usize, usize, String, String)>,
    /// Elements left out: the GPU wrote them differently in two runs.
    pub unstable: usize,
    /// What the simulator reported (threads that stopped).
    pub reports: Vec<String>,
}

/// The bytes of a hex string (two digits a byte, no prefix).
pub fn hex(s: &str) -> Result<Vec<u8>, String> {
    if !s.len().is_multiple_of(2) {
        return Err("odd hex length".into());
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).map_err(|e| e.to_string()))
        .collect()
}

/// `n` bytes from a xorshift generator: the stand-in for a random
/// buffer's contents where no GPU recorded them.
pub fn random_bytes(state: &mut u64, n: usize) -> Vec<u8> {
    (0..n)
        .map(|_| {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            (*state >> 24) as u8
        })
        .collect()
}

/// Two hex digits a byte.
pub fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

pub fn corpus_dir(repo: &Path) -> PathBuf {
    repo.join("corpus/simulator")
}

pub fn load_cases(repo: &Path) -> Result<Cases, String> {
    let path = corpus_dir(repo).join("cases.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// One line per case, as `tools/device/sim_baseline.py` writes them; a
/// name ending in `.gz` is read through gzip (the recorded baselines are
/// kept compressed).
pub fn load_baseline(path: &Path) -> Result<HashMap<String, Record>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let text = if path.extension().is_some_and(|e| e == "gz") {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut text)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        text
    } else {
        String::from_utf8(bytes).map_err(|e| format!("{}: {e}", path.display()))?
    };
    let mut out = HashMap::new();
    for (k, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let r: Record = serde_json::from_str(line)
            .map_err(|e| format!("{} line {}: {e}", path.display(), k + 1))?;
        out.insert(r.name.clone(), r);
    }
    Ok(out)
}

/// The PTX text of a case.
pub fn case_ptx(repo: &Path, case: &Case) -> Result<String, String> {
    let path = match case.ptx.strip_prefix("nvcc:") {
        Some(name) => corpus_dir(repo).join("nvcc").join(format!("{name}.ptx")),
        None => corpus_dir(repo).join(&case.ptx),
    };
    std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The windows' bases move from launch to launch on the GPU (only their
/// sizes and strides are properties of the GPU), and the buffers of a
/// recorded case may lie where the profile's bases put a window. The
/// kernels' outputs do not depend on the bases, so the comparison moves
/// the windows, 64 GiB at a time (every alignment kept), until no buffer
/// of the case overlaps one.
pub fn profile_for(rec: &Record, base: WindowProfile) -> WindowProfile {
    let buffers: Vec<(u64, u64)> = rec
        .args
        .iter()
        .chain(&rec.memory)
        .filter_map(|a| match a {
            RecordArg::Buffer {
                addr, input, out, ..
            } => {
                let len = input
                    .as_ref()
                    .or(out.as_ref())
                    .map_or(0, |h| h.len() as u64 / 2);
                Some((*addr, addr.saturating_add(len.max(1 << 20))))
            }
            _ => None,
        })
        .collect();
    let mut p = base;
    for _ in 0..64 {
        let windows = [
            (p.shared_base, p.shared_base + p.shared_size),
            (p.local_base, p.local_base + p.local_size),
            (p.const_base, p.const_base + (1 << 16)),
            (p.param_base, p.param_base + (1 << 12)),
        ];
        let clash = buffers
            .iter()
            .any(|&(a, b)| windows.iter().any(|&(x, y)| a < y && x < b));
        if !clash {
            break;
        }
        let step = 64u64 << 30;
        p.shared_base -= step;
        p.local_base -= step;
        p.const_base -= step;
        p.param_base -= step;
    }
    p
}

/// Runs a case on the simulator with the inputs (and buffer addresses) the
/// GPU had.
pub fn simulate(
    repo: &Path,
    case: &Case,
    rec: &Record,
    profile: WindowProfile,
) -> Result<Outcome, String> {
    simulate_on(repo, case, rec, profile, 1)
}

/// [`simulate`], the clusters on up to `workers` threads
/// ([`sim::run_parallel`]: the same outcome).
pub fn simulate_on(
    repo: &Path,
    case: &Case,
    rec: &Record,
    profile: WindowProfile,
    workers: usize,
) -> Result<Outcome, String> {
    let text = case_ptx(repo, case)?;
    let module = ptx_semantics::ptx::parse(&text).map_err(|e| format!("{}: {e}", case.ptx))?;
    let prog =
        sim::prepare(&module, &case.kernel, &profile).map_err(|e| format!("{}: {e}", case.name))?;
    if rec.args.len() != case.args.len() {
        return Err(format!(
            "{}: the baseline has {} arguments, the case {}",
            case.name,
            rec.args.len(),
            case.args.len()
        ));
    }
    let mut args = Vec::new();
    for (spec, r) in case.args.iter().zip(&rec.args) {
        args.push(match (spec, r) {
            (ArgSpec::Buffer { buffer, .. }, RecordArg::Buffer { addr, input, .. }) => {
                Arg::Buffer {
                    addr: Some(*addr),
                    bytes: match input {
                        Some(h) => hex(h)?,
                        None => vec![POISON; *buffer],
                    },
                }
            }
            (_, RecordArg::U32 { u32 }) => Arg::u32(*u32 as u32),
            (_, RecordArg::U64 { u64 }) => Arg::u64(*u64),
            _ => return Err(format!("{}: argument kinds differ", case.name)),
        });
    }
    let mut launch = Launch::new(case.grid, case.block, args);
    launch.profile = profile;
    launch.step_budget = 1 << 30;
    let out = if workers > 1 {
        sim::run_parallel(&prog, &launch, workers)
    } else {
        sim::run(&prog, &launch)
    };
    out.map_err(|e| format!("{}: {e}", case.name))
}

/// Compares the simulator with the GPU on one case.
pub fn compare(
    repo: &Path,
    case: &Case,
    rec: &Record,
    profile: WindowProfile,
) -> Result<Comparison, String> {
    let out = simulate(repo, case, rec, profile_for(rec, profile))?;
    let mut cmp = Comparison {
        name: case.name.clone(),
        family: case.family.clone(),
        reports: out
            .reports
            .iter()
            .map(|r| {
                format!(
                    "{:?} {:?} `{}`: {:?}",
                    r.thread.ctaid, r.thread.tid, r.instruction, r.kind
                )
            })
            .collect(),
        ..Comparison::default()
    };
    // buffers come back in argument order
    let buffer_args: Vec<usize> = case
        .args
        .iter()
        .enumerate()
        .filter(|(_, a)| matches!(a, ArgSpec::Buffer { .. }))
        .map(|(i, _)| i)
        .collect();
    for &arg in &case.compare.args {
        let Some(pos) = buffer_args.iter().position(|&i| i == arg) else {
            return Err(format!(
                "{}: compared argument {arg} is not a buffer",
                case.name
            ));
        };
        let model = &out.buffers[pos];
        let RecordArg::Buffer {
            input,
            out: gpu_out,
            unstable,
            ..
        } = &rec.args[arg]
        else {
            return Err(format!(
                "{}: argument {arg} is not a buffer in the baseline",
                case.name
            ));
        };
        let gpu = match (gpu_out, input) {
            (Some(h), _) | (None, Some(h)) => hex(h)?,
            (None, None) => vec![POISON; model.bytes.len()],
        };
        let mut shaky = vec![false; gpu.len()];
        for [a, b] in unstable {
            for x in shaky.iter_mut().take(*b).skip(*a) {
                *x = true;
            }
        }
        let e = case.compare.elem.max(1);
        for (k, chunk) in gpu.chunks(e).enumerate() {
            let range = k * e..(k * e + chunk.len());
            if model
                .unspecified
                .get(range.clone())
                .is_some_and(|u| u.iter().any(|&x| x != 0))
            {
                cmp.unspecified += 1;
                if !shaky[range.clone()].iter().any(|&x| x) {
                    let m = &model.bytes[range.clone()];
                    // the bits the model defines in the element must be
                    // the GPU's (each byte's mask of open bits)
                    if let Some(bits) = model.unspecified_bits.get(range.clone()) {
                        if m.iter()
                            .zip(chunk)
                            .zip(bits)
                            .any(|((a, b), &open)| (a ^ b) & !open != 0)
                        {
                            cmp.differing.push((arg, k, to_hex(m), to_hex(chunk)));
                            continue;
                        }
                        cmp.partly += 1;
                    }
                    let u = &model.unspecified[range.clone()];
                    let same = m
                        .iter()
                        .zip(chunk)
                        .zip(u)
                        .all(|((a, b), &x)| x == 0 || a == b);
                    if same {
                        cmp.unspecified_as_gpu += 1;
                    } else {
                        cmp.unspecified_other
                            .push((arg, k, to_hex(m), to_hex(chunk)));
                    }
                }
                continue;
            }
            if shaky[range.clone()].iter().any(|&x| x) {
                cmp.unstable += 1;
                continue;
            }
            cmp.compared += 1;
            let m = &model.bytes[range];
            if m != chunk {
                cmp.differing.push((arg, k, to_hex(m), to_hex(chunk)));
            }
        }
    }
    Ok(cmp)
}

/// A record with inputs made here, for running a case without a GPU
/// baseline: random bytes from a fixed generator, poison, or the listed
/// values; buffers placed one after another in the global heap.
pub fn synthetic_record(case: &Case, profile: &WindowProfile) -> Record {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15 ^ case.name.len() as u64;
    let mut next_addr = profile.global_heap + 0x10_0000;
    let mut args = Vec::new();
    for spec in &case.args {
        args.push(match spec {
            ArgSpec::Buffer {
                buffer,
                init,
                values,
            } => {
                let bytes: Option<Vec<u8>> = match init.as_str() {
                    "poison" => None,
                    "u32" | "u64" => {
                        let w = if init == "u32" { 4 } else { 8 };
                        let mut b = vec![0u8; *buffer];
                        for (k, v) in values.iter().enumerate() {
                            let le = v.to_le_bytes();
                            if (k + 1) * w <= b.len() {
                                b[k * w..(k + 1) * w].copy_from_slice(&le[..w]);
                            }
                        }
                        Some(b)
                    }
                    _ => Some(random_bytes(&mut state, *buffer)),
                };
                let addr = next_addr;
                next_addr += (*buffer as u64).div_ceil(512) * 512 + 512;
                RecordArg::Buffer {
                    addr,
                    input: bytes.map(|b| to_hex(&b)),
                    out: None,
                    unstable: Vec::new(),
                }
            }
            ArgSpec::U32 { u32 } => RecordArg::U32 { u32: *u32 },
            ArgSpec::U64 { u64 } => RecordArg::U64 { u64: *u64 },
        });
    }
    Record {
        name: case.name.clone(),
        ok: true,
        error: None,
        args,
        memory: Vec::new(),
    }
}
