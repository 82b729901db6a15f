//! Conformance suites: groups of cases, each group a PTX kernel (from a
//! Tera template per instruction family) with input rows and the model's
//! expected output rows and don't-care masks, written as a folder with a
//! YAML manifest (docs/suite-format.md). Generation is deterministic: the
//! same seed and filter give a byte-identical folder.

pub mod addr;
pub mod approx;
pub mod boundary;
pub mod bulk;
pub mod cp_async;
pub mod cvt;
mod forms;
pub mod manifest;
pub mod mem;
pub mod regs;
mod templates;
pub mod tensor;
pub mod tensormap;

use manifest::{Group, Layout, Manifest, Provenance, FORMAT};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What to generate.
#[derive(Clone, Debug)]
pub struct Options {
    /// Seed of the random vectors.
    pub seed: u64,
    /// Glob patterns over group ids and forms (`cvt.*.f16.*`, `prmt*`);
    /// empty: every group.
    pub filter: Vec<String>,
    /// Random rows per group for sources too wide to sweep.
    pub random: usize,
    /// The edges of preconditions to add groups for, with the values on
    /// both sides (`conform gen --ub-boundary`); empty in the default
    /// suite.
    pub ub_boundary: Vec<boundary::Solved>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            seed: DEFAULT_SEED,
            filter: Vec::new(),
            random: 4096,
            ub_boundary: Vec::new(),
        }
    }
}

/// The seed of the default suite.
pub const DEFAULT_SEED: u64 = 1;

/// One group, built: its manifest entry (paths not yet set), kernel text and
/// rows.
pub struct Built {
    pub group: Group,
    pub ptx: String,
    pub input: Vec<u8>,
    pub expected: Vec<u8>,
    /// Empty when no bit is don't-care.
    pub mask: Vec<u8>,
}

/// Computes a group's rows (`None`: the group has no defined case).
type Builder = Box<dyn Fn(&Options) -> Option<Built> + Send + Sync>;

/// A group the suite will have, before its rows are computed.
pub struct Plan {
    pub id: String,
    pub form: String,
    build: Builder,
}

impl Plan {
    pub fn new(
        id: String,
        form: String,
        build: impl Fn(&Options) -> Option<Built> + Send + Sync + 'static,
    ) -> Plan {
        Plan {
            id,
            form,
            build: Box::new(build),
        }
    }

    pub fn build(&self, opts: &Options) -> Option<Built> {
        (self.build)(opts)
    }
}

/// Every group of the default suite, in suite order.
pub fn plans() -> Vec<Plan> {
    let mut p = cvt::plans();
    p.extend(regs::plans());
    p.extend(mem::plans());
    p.extend(addr::plans());
    p.extend(cp_async::plans());
    p.extend(bulk::plans());
    p.extend(tensor::plans());
    p.extend(tensormap::plans());
    p.extend(approx::plans());
    p
}

/// The groups `opts` asks for, before the filter: the default suite's,
/// then those at the edges of `opts.ub_boundary`.
pub fn plans_for(opts: &Options) -> Vec<Plan> {
    let mut p = plans();
    p.extend(boundary::plans(&opts.ub_boundary));
    p
}

/// Whether a plan passes the filter.
pub fn selected(plan: &Plan, filter: &[glob::Pattern]) -> bool {
    filter.is_empty()
        || filter
            .iter()
            .any(|f| f.matches(&plan.id) || f.matches(&plan.form))
}

/// Parses `--filter` patterns.
pub fn patterns(filter: &[String]) -> Result<Vec<glob::Pattern>, String> {
    filter
        .iter()
        .map(|f| glob::Pattern::new(f).map_err(|e| format!("--filter `{f}`: {e}")))
        .collect()
}

/// The program and version written into suites and kernels.
pub fn generator() -> String {
    format!("ptx-conform {}", env!("CARGO_PKG_VERSION"))
}

/// Writes the suite into `out`, which must not exist yet: everything goes
/// into a temporary folder beside it that is renamed into place at the end,
/// so that an interrupted run leaves nothing that looks like a suite.
/// `progress(done, total)` is called as groups finish.
pub fn write(
    out: &Path,
    opts: &Options,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Manifest, String> {
    if out.exists() {
        return Err(format!(
            "{}: already exists (choose a new folder, or remove it)",
            out.display()
        ));
    }
    let filter = patterns(&opts.filter)?;
    let plans: Vec<Plan> = plans_for(opts)
        .into_iter()
        .filter(|p| selected(p, &filter))
        .collect();
    if plans.is_empty() {
        return Err("no group matches the filter".into());
    }
    let tmp = temp_sibling(out);
    let _ = std::fs::remove_dir_all(&tmp);
    let result = write_into(&tmp, &plans, opts, threads, progress).and_then(|m| {
        std::fs::rename(&tmp, out)
            .map_err(|e| format!("{} -> {}: {e}", tmp.display(), out.display()))?;
        Ok(m)
    });
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    result
}

fn temp_sibling(out: &Path) -> PathBuf {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "suite".into());
    out.with_file_name(format!(".{name}.partial-{}", std::process::id()))
}

/// A file name from a group id.
pub fn file_stem(id: &str) -> String {
    id.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

fn write_into(
    dir: &Path,
    plans: &[Plan],
    opts: &Options,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Manifest, String> {
    let io = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
    for sub in ["kernels", "data"] {
        let p = dir.join(sub);
        std::fs::create_dir_all(&p).map_err(|e| io(&p, e))?;
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::atomic::AtomicUsize::new(0);
    type Slot = std::sync::Mutex<Option<Result<Option<Group>, String>>>;
    let slots: Vec<Slot> = plans.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if i >= plans.len() {
                    break;
                }
                let r = match plans[i].build(opts) {
                    None => Ok(None),
                    Some(b) => write_group(dir, b).map(Some),
                };
                *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
                let d = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                progress(d, plans.len());
            });
        }
    });
    let mut groups = Vec::new();
    for slot in slots {
        if let Some(g) = slot
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .transpose()?
        {
            groups.extend(g);
        }
    }
    let manifest = Manifest {
        format: FORMAT.to_string(),
        generator: generator(),
        seed: opts.seed,
        filter: opts.filter.clone(),
        cases: groups.iter().map(|g| g.cases).sum(),
        groups,
    };
    let text = serde_yaml_ng::to_string(&manifest).map_err(|e| e.to_string())?;
    let path = dir.join("manifest.yaml");
    std::fs::write(&path, text).map_err(|e| io(&path, e))?;
    Ok(manifest)
}

fn write_group(dir: &Path, b: Built) -> Result<Group, String> {
    let mut g = b.group;
    let stem = file_stem(&g.id);
    g.kernel = format!("kernels/{stem}.ptx");
    g.data = format!("data/{stem}.bin");
    g.masked = !b.mask.is_empty();
    debug_assert_eq!(b.input.len(), g.input_bytes());
    debug_assert_eq!(b.expected.len(), g.output_bytes());
    let io = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
    let kp = dir.join(&g.kernel);
    std::fs::write(&kp, b.ptx).map_err(|e| io(&kp, e))?;
    let dp = dir.join(&g.data);
    let mut f = std::io::BufWriter::new(std::fs::File::create(&dp).map_err(|e| io(&dp, e))?);
    f.write_all(&b.input)
        .and_then(|_| f.write_all(&b.expected))
        .and_then(|_| f.write_all(&b.mask))
        .and_then(|_| f.flush())
        .map_err(|e| io(&dp, e))?;
    Ok(g)
}

/// A 1-D launch for `cases` threads.
pub fn launch_1d(cases: u64) -> ([u32; 3], [u32; 3]) {
    let block = cases.clamp(1, 256) as u32;
    let grid = cases.div_ceil(block as u64).max(1) as u32;
    ([grid, 1, 1], [block, 1, 1])
}

/// The manifest entry of a 1-D group, before the writer sets its paths.
#[allow(clippy::too_many_arguments)]
pub fn group_1d(
    id: String,
    family: &str,
    form: &str,
    section: &str,
    (ptx_version, target): (&str, &str),
    provenance: Provenance,
    note: String,
    cases: u64,
    input: Layout,
    output: Layout,
) -> Group {
    let (grid, block) = launch_1d(cases);
    Group {
        id,
        family: family.to_string(),
        form: form.to_string(),
        section: section.to_string(),
        ptx_version: ptx_version.to_string(),
        target: target.to_string(),
        provenance,
        note,
        kernel: String::new(),
        entry: "k".to_string(),
        grid,
        block,
        cluster: [1, 1, 1],
        cases,
        data: String::new(),
        input,
        output,
        masked: false,
        expect: manifest::Expect::Defined,
        boundary: None,
        tensor_maps: Vec::new(),
    }
}

/// Appends the low `bytes` bytes of `v`, little-endian.
pub fn push_le(buf: &mut Vec<u8>, v: u128, bytes: u32) {
    buf.extend_from_slice(&v.to_le_bytes()[..bytes as usize]);
}
