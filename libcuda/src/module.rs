//! Modules from PTX text: what `cuModuleLoadData` does in place of the JIT.
//! The text is parsed and checked as ptxas would for an sm_90 device
//! (`ptx_semantics::check`), and each kernel is prepared for the simulator
//! when the host asks for it (`cuModuleGetFunction`), so that a module whose
//! unused kernels hold something the simulator does not model still loads.

use crate::types::*;
use ptx_semantics::catalogue::{PtxVersion, Target};
use ptx_semantics::ptx;
use ptx_semantics::sim::{self, Program, WindowProfile};
use std::collections::HashMap;
use std::sync::Arc;

/// The newest PTX ISA version the library takes: that of the CUDA release
/// it reports (`cuDriverGetVersion` gives [`crate::DRIVER_VERSION`], CUDA
/// 12.8, whose PTX ISA is 8.7) and what the simulator claims in `conform
/// run`.
pub const PTX_ISA: PtxVersion = PtxVersion { major: 8, minor: 7 };

/// The device's compute capability as targets: `sm_90`, and the
/// architecture-specific `sm_90a`, whose accelerated features only a device
/// of exactly compute capability 9.0 has (PTX ISA 11.1.2, `.target`).
pub fn device_targets() -> [Target; 2] {
    [
        Target::parse("sm_90").unwrap_or(Target {
            number: 90,
            suffix: ptx_semantics::catalogue::target::TargetSuffix::Plain,
        }),
        Target::parse("sm_90a").unwrap_or(Target {
            number: 90,
            suffix: ptx_semantics::catalogue::target::TargetSuffix::Arch,
        }),
    ]
}

/// A module-scope `.global` variable with its current bytes.
#[derive(Clone, Debug)]
pub struct Variable {
    pub name: String,
    pub addr: u64,
    pub bytes: Vec<u8>,
}

/// A loaded module.
#[derive(Debug)]
pub struct Module {
    pub context: u64,
    pub ast: ptx::Module,
    /// The `.entry` functions with a body, by name.
    pub entries: Vec<String>,
    /// Functions handed out, by kernel name.
    pub functions: HashMap<String, u64>,
    pub variables: Vec<Variable>,
    /// The module's constant bank (`.const` variables, `__constant__` in
    /// CUDA C++), kept from launch to launch: the host writes it through
    /// the variables' generic addresses.
    pub const_bank: Vec<u8>,
    /// Each `.const` variable: its name, offset in the bank and size.
    pub constants: Vec<(String, u64, usize)>,
    pub ptx_version: PtxVersion,
}

/// Why a text does not load: the result code and the log for the
/// `CU_JIT_ERROR_LOG_BUFFER`.
#[derive(Debug)]
pub struct LoadFailure {
    pub code: CUresult,
    pub log: String,
}

fn fail(code: CUresult, log: impl Into<String>) -> LoadFailure {
    LoadFailure {
        code,
        log: log.into(),
    }
}

/// Loads PTX text into a module of `context`; a `.version` newer than
/// `ptx_isa` (the driver's, `config::ptx_isa`) is refused.
pub fn load(context: u64, text: &str, ptx_isa: PtxVersion) -> Result<Module, LoadFailure> {
    let ast = ptx::parse(text).map_err(|e| {
        let (line, col) = ptx::line_col(text, e.at);
        fail(
            CUDA_ERROR_INVALID_PTX,
            format!(
                "ptx-libcuda: line {line}, column {col}: syntax error: {}",
                e.message
            ),
        )
    })?;
    let mut version = None;
    let mut targets = Vec::new();
    for item in &ast.items {
        match item {
            ptx::Item::Version { major, minor, .. } if version.is_none() => {
                version = Some(PtxVersion {
                    major: *major,
                    minor: *minor,
                })
            }
            ptx::Item::Target { names, .. } if targets.is_empty() => targets = names.clone(),
            _ => {}
        }
    }
    let version = version
        .ok_or_else(|| fail(CUDA_ERROR_INVALID_PTX, "ptx-libcuda: no .version directive"))?;
    if version > ptx_isa {
        return Err(fail(
            CUDA_ERROR_UNSUPPORTED_PTX_VERSION,
            format!("ptx-libcuda: PTX ISA {version} is newer than the {ptx_isa} this driver takes"),
        ));
    }
    // the module's own target must be one a compute capability 9.0 device
    // runs (PTX ISA `.target`: code for `sm_90a` runs on that device only,
    // code for a plain `sm_XY` on any device of at least that capability)
    let own = targets.iter().find_map(|t| Target::parse(t));
    let arch = own.and_then(|t| device_targets().into_iter().find(|&a| t.compiles_for(a)));
    let Some(arch) = arch else {
        return Err(fail(
            CUDA_ERROR_NO_BINARY_FOR_GPU,
            format!(
                "ptx-libcuda: the module's .target {} does not run on a compute capability 9.0 device",
                targets.join(", ")
            ),
        ));
    };
    let options = ptx_semantics::check::Options {
        arch: Some(arch),
        ..Default::default()
    };
    let diags = ptx_semantics::check::check_module(&ast, &options);
    if !diags.is_empty() {
        let log = diags
            .iter()
            .take(20)
            .map(|d| {
                let (line, col) = ptx::line_col(text, d.span.start);
                format!(
                    "ptx-libcuda: line {line}, column {col}: {} [{}]",
                    d.message, d.rule
                )
            })
            .collect::<Vec<_>>()
            .join("\n");
        return Err(fail(CUDA_ERROR_INVALID_PTX, log));
    }
    let entries: Vec<String> = ast
        .items
        .iter()
        .filter_map(|it| match it {
            ptx::Item::Function(f) if f.kind == ptx::FunctionKind::Entry && f.body.is_some() => {
                Some(f.name.clone())
            }
            _ => None,
        })
        .collect();
    let mut module = Module {
        context,
        ast,
        entries,
        functions: HashMap::new(),
        variables: Vec::new(),
        const_bank: Vec::new(),
        constants: Vec::new(),
        ptx_version: version,
    };
    module.variables = module.place_variables();
    module.place_constants();
    Ok(module)
}

impl Module {
    /// Prepares kernel `name` for the simulator.
    pub fn prepare(&self, name: &str) -> Result<Program, sim::LoadError> {
        sim::prepare(&self.ast, name, &WindowProfile::SM90)
    }

    /// The module's constant bank and `.const` variables (the same for
    /// every kernel of the module), from the first kernel that prepares.
    fn place_constants(&mut self) {
        if let Some(p) = self.entries.iter().find_map(|e| self.prepare(e).ok()) {
            self.const_bank = sim::launch::constant_bank(&p);
            self.constants = sim::launch::module_constants(&p)
                .into_iter()
                .map(|v| (v.name, v.addr, v.init.len()))
                .collect();
        }
    }

    /// The generic address of the `.const` variable at `offset` of the bank.
    pub fn constant_address(offset: u64) -> u64 {
        WindowProfile::SM90.const_base + offset
    }

    /// The module's `.global` variables where the simulator places them
    /// (the same for every kernel of the module): from the first kernel
    /// that prepares. None when no kernel does.
    fn place_variables(&self) -> Vec<Variable> {
        let has_globals = self
            .ast
            .items
            .iter()
            .any(|it| matches!(it, ptx::Item::Var(v) if v.space == ".global"));
        if !has_globals {
            return Vec::new();
        }
        self.entries
            .iter()
            .find_map(|e| self.prepare(e).ok())
            .map(|p| {
                sim::launch::module_variables(&p)
                    .into_iter()
                    .map(|v| Variable {
                        name: v.name,
                        addr: v.addr,
                        bytes: v.init,
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// A kernel handed out by `cuModuleGetFunction`.
#[derive(Debug)]
pub struct Function {
    pub module: u64,
    pub name: String,
    pub program: Arc<Program>,
    /// `CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES`.
    pub max_dynamic_shared: u32,
    /// `CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED`.
    pub non_portable_cluster: bool,
    /// `CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT` (kept, unused).
    pub carveout: i32,
    pub ptx_version: PtxVersion,
}
