//! The job of the command protocol (`job.json`, docs/implementations.md),
//! the kernel run on the simulator, and access to the rows of its buffers
//! by the layouts the job gives.

use ptx_gen::suite::manifest::{Field, Layout};
use serde::Deserialize;
use std::path::Path;

pub const PROTOCOL: &str = "ptx-conform-command/1";

/// How [`Job::simulate`]'s error starts when a thread met undefined
/// behaviour, or kept an undefined result.
pub const UNDEFINED: &str = "undefined: ";

/// `job.json`.
#[derive(Debug, Deserialize)]
pub struct Job {
    pub protocol: String,
    pub group: String,
    pub form: String,
    pub cases: u64,
    pub input_layout: Layout,
    pub output_layout: Layout,
    pub kernel: String,
    pub entry: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    #[serde(default = "one")]
    pub cluster: [u32; 3],
    pub params: Vec<Param>,
}

fn one() -> [u32; 3] {
    [1, 1, 1]
}

/// A global buffer parameter: read from `file`, or (with `fill`) made of
/// `bytes` bytes of `fill` and written to `file` after the kernel; or a
/// tensor map (`tensor_map`, the text form of
/// `ptx_semantics::tensor::MapText`, `base=in|out`).
#[derive(Debug, Deserialize)]
pub struct Param {
    #[serde(default)]
    pub file: String,
    #[serde(default)]
    pub bytes: usize,
    pub fill: Option<u8>,
    pub tensor_map: Option<String>,
}

impl Job {
    /// Runs the kernel on the model's simulator: the input buffer, the
    /// output parameter and the output buffer's bytes.
    pub fn simulate(&self, dir: &Path) -> Result<(Vec<u8>, &Param, Vec<u8>), String> {
        use ptx_semantics::sim::{prepare, run, Arg, Launch, WindowProfile};
        let kernel = dir.join(&self.kernel);
        let ptx =
            std::fs::read_to_string(&kernel).map_err(|e| format!("{}: {e}", kernel.display()))?;
        let module =
            ptx_semantics::ptx::parse(&ptx).map_err(|e| format!("{}: {e}", kernel.display()))?;
        let prog = prepare(&module, &self.entry, &WindowProfile::SM90)
            .map_err(|e| format!("{}: {e}", kernel.display()))?;
        let mut args = Vec::new();
        for p in &self.params {
            if let Some(t) = &p.tensor_map {
                args.push(ptx_conformance::run::impls::tensor_map_arg(t)?);
                continue;
            }
            let bytes = match p.fill {
                Some(fill) => vec![fill; p.bytes],
                None => {
                    let path = dir.join(&p.file);
                    let b = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                    if b.len() != p.bytes {
                        return Err(format!(
                            "{}: {} bytes, the job says {}",
                            path.display(),
                            b.len(),
                            p.bytes
                        ));
                    }
                    b
                }
            };
            args.push(Arg::Buffer { addr: None, bytes });
        }
        let out_index = self
            .params
            .iter()
            .position(|p| p.fill.is_some())
            .ok_or("the job has no output parameter (one with `fill`)")?;
        let in_index = self
            .params
            .iter()
            .position(|p| p.fill.is_none() && p.tensor_map.is_none())
            .ok_or("the job has no input parameter")?;
        let input = match &args[in_index] {
            Arg::Buffer { bytes, .. } => bytes.clone(),
            Arg::Bytes(_) | Arg::TensorMap { .. } => {
                return Err("the input parameter is not a buffer".into())
            }
        };
        let mut launch = Launch::new(self.grid, self.block, args);
        launch.cluster = Some(self.cluster);
        let out = run(&prog, &launch).map_err(|e| e.to_string())?;
        let undefined = out
            .reports
            .iter()
            .chain(&out.undefined_results)
            .find_map(|r| match &r.kind {
                ptx_semantics::sim::StopKind::Undefined(u) => Some(format!(
                    "undefined behaviour: ctaid {:?} tid {:?} at `{}`: PTX ISA {}: {}",
                    r.thread.ctaid, r.thread.tid, r.instruction, u.section, u.rule
                )),
                _ => None,
            });
        if let Some(what) = undefined {
            return Err(format!("{UNDEFINED}{what}"));
        }
        if let Some(r) = out.reports.first() {
            return Err(format!(
                "{} thread(s) stopped; the first, ctaid {:?} tid {:?} at `{}`: {:?}",
                out.reports.len(),
                r.thread.ctaid,
                r.thread.tid,
                r.instruction,
                r.kind
            ));
        }
        let output = out
            .buffers
            .into_iter()
            .nth(out_index)
            .map(|b| b.bytes)
            .ok_or("no output buffer came back")?;
        Ok((input, &self.params[out_index], output))
    }

    /// Case `i`'s input row.
    pub fn input_row<'a>(&self, input: &'a [u8], i: usize) -> &'a [u8] {
        let r = self.input_layout.row as usize;
        &input[i * r..(i + 1) * r]
    }

    /// Case `i`'s output row.
    pub fn output_row<'a>(&self, output: &'a mut [u8], i: usize) -> &'a mut [u8] {
        let r = self.output_layout.row as usize;
        &mut output[i * r..(i + 1) * r]
    }
}

/// A named field of a layout.
pub fn field<'a>(l: &'a Layout, name: &str) -> Result<&'a Field, String> {
    l.fields
        .iter()
        .find(|f| f.name == name)
        .ok_or_else(|| format!("the layout has no field `{name}`"))
}

/// Writes the low bytes of `v` into a field of a row.
pub fn write(row: &mut [u8], f: &Field, v: u128) {
    let s = f.offset as usize;
    row[s..s + f.bytes as usize].copy_from_slice(&v.to_le_bytes()[..f.bytes as usize]);
}
