//! `conform-faulty`: an implementation for `conform run --impl
//! command:PROGRAM` (docs/implementations.md) that runs each kernel on the
//! model's simulator and, when `PTX_CONFORM_FAULT=NAME` is set, gives the
//! results one seeded fault: a bug of a kind real PTX implementations have
//! had, applied to exactly the cases that bug would change. It shows that
//! the conformance suite catches such bugs (docs/seeded-faults.md,
//! `conformance/tests/seeded_faults.rs`); the faults themselves are
//! `faults.rs`.
//!
//! ```text
//! conform-faulty --capabilities     what it claims, as JSON
//! conform-faulty --list             the faults: name, families, what goes wrong
//! conform-faulty job.json           runs one group (the command protocol)
//! ```
//!
//! Exit codes: 0 `out.bin` written (or the listing printed), 1 the kernel
//! could not run, 2 usage error, unreadable job or unknown fault, 3 the
//! kernel met undefined behaviour (standard error names the clause).

#[path = "conform_faulty/cvt.rs"]
mod cvt;
#[path = "conform_faulty/faults.rs"]
mod faults;
#[path = "conform_faulty/job.rs"]
mod job;
#[path = "conform_faulty/regs.rs"]
mod regs;

use anyhow::{anyhow, bail, Context, Result};
use faults::Fault;
use std::process::ExitCode;

/// The variable naming the fault to seed.
const FAULT_VAR: &str = "PTX_CONFORM_FAULT";

const USAGE: &str = "usage: conform-faulty --capabilities | --list | JOB.json
The simulator behind the command protocol (docs/implementations.md); with
PTX_CONFORM_FAULT=NAME set, its results carry the seeded fault NAME
(`--list` names them; docs/seeded-faults.md).";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.as_slice() {
        [a] if a == "--capabilities" => capabilities(),
        [a] if a == "--list" => {
            list();
            Ok(ExitCode::SUCCESS)
        }
        [a] if a == "--help" || a == "-h" => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        [job] if !job.starts_with('-') => run(job),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("conform-faulty: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// The fault `PTX_CONFORM_FAULT` names, if any.
fn seeded() -> Result<Option<&'static Fault>> {
    match std::env::var(FAULT_VAR) {
        Err(_) => Ok(None),
        Ok(name) if name.is_empty() => Ok(None),
        Ok(name) => faults::find(&name).map(Some).ok_or_else(|| {
            anyhow!("{FAULT_VAR}={name}: no such fault (`conform-faulty --list` names them)")
        }),
    }
}

fn capabilities() -> Result<ExitCode> {
    let fault = seeded()?.map_or("none", |f| f.name);
    let caps = serde_json::json!({
        "version": format!("conform-faulty {} (fault: {fault})", env!("CARGO_PKG_VERSION")),
        "ptx_version": "8.7",
        "targets": ["*"],
    });
    println!("{caps}");
    Ok(ExitCode::SUCCESS)
}

fn list() {
    for f in faults::FAULTS {
        println!("{:<32} {:<14} {}", f.name, f.families.join(","), f.about);
    }
}

/// Runs one group: the kernel on the simulator, then the seeded fault on
/// its output rows; writes the output buffer.
fn run(path: &str) -> Result<ExitCode> {
    let fault = seeded()?;
    let path = std::path::Path::new(path);
    let dir = path.parent().unwrap_or(std::path::Path::new("."));
    let text = std::fs::read_to_string(path).with_context(|| format!("{}", path.display()))?;
    let job: job::Job =
        serde_json::from_str(&text).with_context(|| format!("{}", path.display()))?;
    if job.protocol != job::PROTOCOL {
        bail!(
            "{}: protocol `{}`, expected {}",
            path.display(),
            job.protocol,
            job::PROTOCOL
        );
    }
    let (input, out_param, output) = match job.simulate(dir) {
        Ok(r) => r,
        Err(e) => {
            // exit 3: the kernel's behaviour (or a result) is undefined
            let code = match e.strip_prefix(job::UNDEFINED) {
                Some(what) => {
                    eprintln!("{what}");
                    3
                }
                None => {
                    eprintln!("conform-faulty: {}: {e}", job.group);
                    1
                }
            };
            return Ok(ExitCode::from(code));
        }
    };
    let mut output = output;
    if let Some(f) = fault {
        f.apply(&job, &input, &mut output)
            .map_err(|e| anyhow!("{}: fault {}: {e}", job.group, f.name))?;
    }
    let out_path = dir.join(&out_param.file);
    std::fs::write(&out_path, &output).with_context(|| format!("{}", out_path.display()))?;
    Ok(ExitCode::SUCCESS)
}
