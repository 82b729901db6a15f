//! Implementations a suite runs against: the simulator (in process), any
//! program through the command protocol (docs/implementations.md), and the
//! CUDA driver (`cuda.rs`).

use ptx_gen::suite::manifest::Group;
use ptx_reports::Implementation as Info;
use ptx_semantics::catalogue::{PtxVersion, Target};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One launch to run: a group's kernel with its input buffer.
pub struct Job<'a> {
    pub group: &'a Group,
    /// The kernel's PTX text, and its path in the suite.
    pub ptx: &'a str,
    pub ptx_path: &'a Path,
    pub input: &'a [u8],
    /// How long the implementation may take.
    pub timeout: Duration,
}

/// Why a group could not run; its cases end as `error`.
#[derive(Debug)]
pub struct RunError(pub String);

/// What an implementation made of a group whose cases the spec leaves
/// undefined (`expect: undefined`).
#[derive(Debug, PartialEq, Eq)]
pub enum Detection {
    /// It reported the undefined behaviour: what it said.
    Detected(String),
    /// It did not: what it did instead (ran to the end, reported another
    /// clause).
    Missed(String),
}

pub trait Implementation: Sync {
    /// What the implementation is and claims.
    fn info(&self) -> Info;

    /// Why a group is outside what it claims (then it is skipped).
    fn unsupported(&self, g: &Group) -> Option<String> {
        claims(&self.info(), g)
    }

    /// Runs the group's kernel; the output buffer's bytes.
    fn run(&self, job: &Job) -> Result<Vec<u8>, RunError>;

    /// How many groups [`Implementation::run_batch`] takes at once. With
    /// 1, the default, the runner calls [`Implementation::run`] for each
    /// group.
    fn batch(&self) -> usize {
        1
    }

    /// Runs several groups' kernels (groups whose cases are defined): one
    /// result per job, in order, each what [`Implementation::run`] would
    /// give it.
    fn run_batch(&self, jobs: &[Job]) -> Vec<Result<Vec<u8>, RunError>> {
        jobs.iter().map(|j| self.run(j)).collect()
    }

    /// Runs the kernel of a group whose cases are undefined and says
    /// whether the implementation reported it (docs/implementations.md
    /// says how each one does). By default none does: a run that ends is
    /// a miss, and one that cannot run an error.
    fn run_undefined(&self, job: &Job) -> Result<Detection, RunError> {
        self.run(job)
            .map(|_| Detection::Missed("the kernel ran to its end".into()))
    }
}

/// Whether `info`'s PTX version and targets cover the group's; the reason
/// when not.
pub fn claims(info: &Info, g: &Group) -> Option<String> {
    let have = PtxVersion::parse(&info.ptx_version);
    let need = PtxVersion::parse(&g.ptx_version);
    if let (Some(h), Some(n)) = (have, need) {
        if n > h {
            return Some(format!(
                "needs PTX ISA {}; {} claims {}",
                g.ptx_version, info.name, info.ptx_version
            ));
        }
    }
    if info.targets.iter().any(|t| t == "*") || info.targets.contains(&g.target) {
        return None;
    }
    // a plain target runs on any plain target at least as high
    let need = Target::parse(&g.target);
    let ok = info
        .targets
        .iter()
        .filter_map(|t| Target::parse(t))
        .any(|t| {
            need.as_ref().is_some_and(|n| {
                n.suffix == ptx_semantics::catalogue::target::TargetSuffix::Plain
                    && t.number >= n.number
            })
        });
    if ok {
        None
    } else {
        Some(format!(
            "needs {}; {} claims {}",
            g.target,
            info.name,
            info.targets.join(", ")
        ))
    }
}

/// The model's kernel interpreter.
pub struct Simulator;

impl Implementation for Simulator {
    fn info(&self) -> Info {
        Info {
            name: "simulator".into(),
            version: format!("ptx-conform {}", env!("CARGO_PKG_VERSION")),
            ptx_version: "8.7".into(),
            targets: vec!["*".into()],
            details: [(
                "windows".to_string(),
                "the sm_90 generic-address window profile".to_string(),
            )]
            .into(),
        }
    }

    fn run(&self, job: &Job) -> Result<Vec<u8>, RunError> {
        let out = self.launch(job)?;
        if let Some(r) = out.reports.first() {
            return Err(RunError(format!(
                "{} thread(s) stopped; the first, ctaid {:?} tid {:?} at `{}`: {:?}",
                out.reports.len(),
                r.thread.ctaid,
                r.thread.tid,
                r.instruction,
                r.kind
            )));
        }
        out.buffers
            .into_iter()
            .nth(1)
            .map(|b| b.bytes)
            .ok_or_else(|| RunError("no output buffer came back".into()))
    }

    /// Detected when a thread stopped with, or kept an undefined result
    /// of, the clause the group's precondition names (its section and
    /// rule); a stop for another reason, or another clause, is a miss.
    fn run_undefined(&self, job: &Job) -> Result<Detection, RunError> {
        use ptx_semantics::sim::StopKind;
        let out = self.launch(job)?;
        let want = job.group.boundary.as_ref();
        let said = |r: &ptx_semantics::sim::Report| {
            format!(
                "ctaid {:?} tid {:?} at `{}`: {}",
                r.thread.ctaid,
                r.thread.tid,
                r.instruction,
                match &r.kind {
                    StopKind::Undefined(u) => format!("PTX ISA {}: {}", u.section, u.rule),
                    other => format!("{other:?}"),
                }
            )
        };
        let all: Vec<&ptx_semantics::sim::Report> =
            out.reports.iter().chain(&out.undefined_results).collect();
        let hit = all.iter().find(|r| match (&r.kind, want) {
            (StopKind::Undefined(u), Some(b)) => u.section == b.section && u.rule == b.rule,
            (StopKind::Undefined(_), None) => true,
            _ => false,
        });
        Ok(match (hit, all.first()) {
            (Some(r), _) => Detection::Detected(said(r)),
            (None, Some(r)) => Detection::Missed(format!("another outcome: {}", said(r))),
            (None, None) => Detection::Missed("the kernel ran to its end".into()),
        })
    }
}

impl Simulator {
    /// Runs the group's kernel to its end, every stop and undefined result
    /// kept.
    fn launch(&self, job: &Job) -> Result<ptx_semantics::sim::Outcome, RunError> {
        use ptx_semantics::sim::{prepare, run, Arg, Launch, WindowProfile};
        let g = job.group;
        let module = ptx_semantics::ptx::parse(job.ptx)
            .map_err(|e| RunError(format!("{}: {e}", job.ptx_path.display())))?;
        let prog = prepare(&module, &g.entry, &WindowProfile::SM90)
            .map_err(|e| RunError(format!("{}: {e}", job.ptx_path.display())))?;
        let mut args = vec![
            Arg::Buffer {
                addr: None,
                bytes: job.input.to_vec(),
            },
            Arg::Buffer {
                addr: None,
                bytes: vec![POISON; g.output_bytes()],
            },
        ];
        for t in &g.tensor_maps {
            args.push(tensor_map_arg(t).map_err(RunError)?);
        }
        let mut launch = Launch::new(g.grid, g.block, args);
        launch.cluster = Some(g.cluster);
        run(&prog, &launch).map_err(|e| RunError(e.to_string()))
    }
}

/// A group's tensor map (`base=in` or `base=out`) as the simulator's
/// argument: the model's encoding, its address the buffer's.
pub fn tensor_map_arg(text: &str) -> Result<ptx_semantics::sim::Arg, String> {
    use ptx_semantics::tensor::{Base, MapText};
    let m = MapText::parse(text).map_err(|e| format!("tensor map `{text}`: {e}"))?;
    let buffer = match &m.base {
        Base::Named(n) if n == "in" => 0,
        Base::Named(n) if n == "out" => 1,
        _ => {
            return Err(format!(
                "tensor map `{text}`: its base is not `in` or `out`"
            ))
        }
    };
    Ok(ptx_semantics::sim::Arg::TensorMap {
        map: m.map,
        buffer: Some(buffer),
        offset: m.offset,
    })
}

/// What output buffers hold before a run, so that bytes an implementation
/// does not write show up.
pub const POISON: u8 = 0xa5;

/// Any program, through the command protocol: for each group it is run as
/// `PROGRAM JOB.json` in a fresh folder holding `kernel.ptx` and `in.bin`,
/// and must write `out.bin`; `PROGRAM --capabilities` prints what it claims.
pub struct Command {
    pub program: PathBuf,
    pub info: Info,
    pub scratch: PathBuf,
}

impl Command {
    pub fn new(program: &str, scratch: PathBuf) -> Result<Command, String> {
        let program = PathBuf::from(program);
        let out = std::process::Command::new(&program)
            .arg("--capabilities")
            .output()
            .map_err(|e| format!("{}: {e}", program.display()))?;
        let mut info = Info {
            name: format!("command:{}", program.display()),
            version: String::new(),
            ptx_version: "8.7".into(),
            targets: vec!["*".into()],
            details: Default::default(),
        };
        if out.status.success() {
            let caps: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| {
                format!(
                    "{} --capabilities: not JSON ({e}); see docs/implementations.md",
                    program.display()
                )
            })?;
            if let Some(v) = caps.get("version").and_then(|v| v.as_str()) {
                info.version = v.to_string();
            }
            if let Some(v) = caps.get("ptx_version").and_then(|v| v.as_str()) {
                info.ptx_version = v.to_string();
            }
            if let Some(t) = caps.get("targets").and_then(|v| v.as_array()) {
                info.targets = t
                    .iter()
                    .filter_map(|t| t.as_str().map(String::from))
                    .collect();
            }
        }
        Ok(Command {
            program,
            info,
            scratch,
        })
    }
}

/// The exit status of `PROGRAM job.json` that says "the kernel's behaviour
/// (or a result) is undefined, and here is what I found" (on standard
/// error).
pub const EXIT_UNDEFINED: i32 = 3;

/// How `PROGRAM job.json` ended.
enum Ended {
    /// Exit 0: the output buffer.
    Ran(Vec<u8>),
    /// Exit [`EXIT_UNDEFINED`]: what it said on standard error.
    Undefined(String),
}

impl Command {
    /// Runs one job in a fresh folder (removed after).
    fn invoke(&self, job: &Job) -> Result<Ended, RunError> {
        let g = job.group;
        let dir = self.scratch.join(super::file_stem(&g.id));
        let err = |e: std::io::Error| RunError(format!("{}: {e}", dir.display()));
        std::fs::create_dir_all(&dir).map_err(err)?;
        std::fs::write(dir.join("kernel.ptx"), job.ptx).map_err(err)?;
        std::fs::write(dir.join("in.bin"), job.input).map_err(err)?;
        let mut spec = serde_json::json!({
            "protocol": "ptx-conform-command/1",
            "group": g.id,
            "form": g.form,
            "cases": g.cases,
            "input_layout": g.input,
            "output_layout": g.output,
            "kernel": "kernel.ptx",
            "entry": g.entry,
            "ptx_version": g.ptx_version,
            "target": g.target,
            "grid": g.grid,
            "block": g.block,
            "cluster": g.cluster,
            "params": [
                {"name": "in", "file": "in.bin", "bytes": job.input.len()},
                {"name": "out", "file": "out.bin", "bytes": g.output_bytes(), "fill": POISON}
            ]
        });
        if let Some(params) = spec["params"].as_array_mut() {
            for (k, t) in g.tensor_maps.iter().enumerate() {
                params.push(serde_json::json!({"name": format!("map{k}"), "tensor_map": t}));
            }
        }
        if !g.expect.is_defined() {
            spec["expect"] = serde_json::json!("undefined");
        }
        if let Some(b) = &g.boundary {
            spec["boundary"] = serde_json::json!(b);
        }
        std::fs::write(dir.join("job.json"), spec.to_string()).map_err(err)?;
        let mut child = std::process::Command::new(
            std::fs::canonicalize(&self.program).unwrap_or_else(|_| self.program.clone()),
        )
        .arg("job.json")
        .current_dir(&dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| RunError(format!("{}: {e}", self.program.display())))?;
        let status = wait_timeout(&mut child, job.timeout)?;
        let stderr = |child: &mut std::process::Child| {
            let mut msg = String::new();
            if let Some(mut e) = child.stderr.take() {
                use std::io::Read;
                let _ = e.read_to_string(&mut msg);
            }
            let msg: String = msg.chars().take(400).collect();
            msg.trim().to_string()
        };
        let result = match status {
            None => Err(RunError(format!(
                "ran past the timeout ({} s) and was killed",
                job.timeout.as_secs_f64()
            ))),
            Some(s) if s.code() == Some(EXIT_UNDEFINED) => Ok(Ended::Undefined(stderr(&mut child))),
            Some(s) if !s.success() => {
                Err(RunError(format!("exited with {s}: {}", stderr(&mut child))))
            }
            Some(_) => {
                let out = std::fs::read(dir.join("out.bin")).map_err(err)?;
                if out.len() != g.output_bytes() {
                    Err(RunError(format!(
                        "out.bin has {} bytes, expected {}",
                        out.len(),
                        g.output_bytes()
                    )))
                } else {
                    Ok(Ended::Ran(out))
                }
            }
        };
        let _ = std::fs::remove_dir_all(&dir);
        result
    }
}

impl Implementation for Command {
    fn info(&self) -> Info {
        self.info.clone()
    }

    fn run(&self, job: &Job) -> Result<Vec<u8>, RunError> {
        match self.invoke(job)? {
            Ended::Ran(out) => Ok(out),
            Ended::Undefined(what) => Err(RunError(format!(
                "exited with {EXIT_UNDEFINED} (undefined behaviour): {what}"
            ))),
        }
    }

    /// Exit 3 is a detection (standard error says what); exit 0 a miss.
    fn run_undefined(&self, job: &Job) -> Result<Detection, RunError> {
        Ok(match self.invoke(job)? {
            Ended::Undefined(what) => Detection::Detected(what),
            Ended::Ran(_) => Detection::Missed("exited 0: the kernel ran to its end".into()),
        })
    }
}

/// Waits for `child` at most `timeout`; kills it past that (`None`).
fn wait_timeout(
    child: &mut std::process::Child,
    timeout: Duration,
) -> Result<Option<std::process::ExitStatus>, RunError> {
    let start = std::time::Instant::now();
    let mut pause = Duration::from_millis(1);
    loop {
        match child.try_wait() {
            Ok(Some(s)) => return Ok(Some(s)),
            Ok(None) if start.elapsed() >= timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Ok(None);
            }
            Ok(None) => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
            }
            Err(e) => return Err(RunError(e.to_string())),
        }
    }
}
