//! What the environment chooses, read once by `cuInit`.

use ptx_semantics::catalogue::PtxVersion;
use std::path::PathBuf;

/// The byte that stands for every byte whose value the spec leaves
/// unspecified when the host reads it (`PTX_LIBCUDA_UNSPECIFIED`: a byte
/// value, or `keep` for the bits the simulator happened to compute).
pub const DEFAULT_FILL: u8 = 0xcd;
/// Device memory the library hands out (`PTX_LIBCUDA_MEMORY`): what
/// `cuDeviceTotalMem` reports.
pub const DEFAULT_MEMORY: u64 = 8 << 30;
/// Thread-instructions a launch may run (`PTX_LIBCUDA_STEP_BUDGET`): the
/// simulator's own default.
pub const DEFAULT_STEP_BUDGET: u64 = 1 << 32;

/// The library's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// `None`: leave the simulator's bytes (`PTX_LIBCUDA_UNSPECIFIED=keep`).
    /// The simulator marks unspecified bits a byte at a time, so a byte
    /// with one unspecified bit is replaced whole.
    pub fill: Option<u8>,
    /// Where reports of stopped threads go: appended to this file, or
    /// standard error when `None` (`PTX_LIBCUDA_REPORT`).
    pub report: Option<PathBuf>,
    pub total_memory: u64,
    pub step_budget: u64,
    /// Also report the undefined results a launch met, not only the
    /// threads it stopped (`PTX_LIBCUDA_VERBOSE` set to anything but
    /// empty or `0`).
    pub verbose: bool,
    /// Threads a launch's clusters run on (`PTX_LIBCUDA_THREADS`; default:
    /// the machine's cores). The outcome is the one-thread outcome
    /// (`sim::run_parallel`).
    pub threads: usize,
    /// `PTX_LIBCUDA_DRIVER_VERSION`: the CUDA release the driver reports
    /// (`cuDriverGetVersion`), 12080 or 13000, and with it the newest PTX
    /// ISA modules may have ([`ptx_isa`]).
    pub driver_version: i32,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            fill: Some(DEFAULT_FILL),
            report: None,
            total_memory: DEFAULT_MEMORY,
            step_budget: DEFAULT_STEP_BUDGET,
            verbose: false,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            driver_version: crate::DRIVER_VERSION,
        }
    }
}

impl Config {
    /// The settings from a look-up of environment variables (`std::env::var`
    /// in the library; a table in tests). A value that does not parse keeps
    /// the default.
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Config {
        let d = Config::default();
        Config {
            fill: match var("PTX_LIBCUDA_UNSPECIFIED") {
                Some(v) if v.trim() == "keep" => None,
                Some(v) => parse_number(&v)
                    .and_then(|v| u8::try_from(v).ok())
                    .map_or(d.fill, Some),
                None => d.fill,
            },
            report: var("PTX_LIBCUDA_REPORT")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
            total_memory: var("PTX_LIBCUDA_MEMORY")
                .and_then(|v| parse_number(&v))
                .filter(|&v| v > 0)
                .unwrap_or(d.total_memory),
            step_budget: var("PTX_LIBCUDA_STEP_BUDGET")
                .and_then(|v| parse_number(&v))
                .filter(|&v| v > 0)
                .unwrap_or(d.step_budget),
            verbose: var("PTX_LIBCUDA_VERBOSE").is_some_and(|v| !v.is_empty() && v != "0"),
            threads: var("PTX_LIBCUDA_THREADS")
                .and_then(|v| parse_number(&v))
                .filter(|&v| (1..=1024).contains(&v))
                .map_or(d.threads, |v| v as usize),
            driver_version: var("PTX_LIBCUDA_DRIVER_VERSION")
                .and_then(|v| parse_number(&v))
                .filter(|v| DRIVER_VERSIONS.iter().any(|&(d, _)| d as u64 == *v))
                .map_or(d.driver_version, |v| v as i32),
        }
    }
}

/// A decimal number, or a hexadecimal one after `0x`.
/// The CUDA releases the driver may report, with the newest PTX ISA each
/// one's JIT takes (PTX ISA release notes: PTX ISA 8.7 came with CUDA 12.8,
/// 9.0 with CUDA 13.0). 13.0 is for programs built by nvcc 13.0, whose
/// runtime wants a 13.0 driver and whose PTX is `.version 9.0`.
pub const DRIVER_VERSIONS: &[(i32, PtxVersion)] = &[
    (12080, PtxVersion { major: 8, minor: 7 }),
    (13000, PtxVersion { major: 9, minor: 0 }),
];

/// The newest PTX ISA the driver of `driver_version` takes.
pub fn ptx_isa(driver_version: i32) -> PtxVersion {
    DRIVER_VERSIONS
        .iter()
        .find(|&&(d, _)| d == driver_version)
        .map_or(crate::module::PTX_ISA, |&(_, v)| v)
}

/// The driver version the environment asks for, before `cuInit` has read
/// the settings.
pub fn driver_version_from_env() -> i32 {
    Config::from_env(|k| std::env::var(k).ok()).driver_version
}

pub fn parse_number(text: &str) -> Option<u64> {
    let t = text.trim();
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => t.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(pairs: &[(&str, &str)]) -> Config {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Config::from_env(|k| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()))
    }

    #[test]
    fn settings_from_the_environment() {
        assert_eq!(with(&[]), Config::default());
        assert_eq!(
            with(&[("PTX_LIBCUDA_UNSPECIFIED", "0x5a")]).fill,
            Some(0x5a)
        );
        assert_eq!(with(&[("PTX_LIBCUDA_UNSPECIFIED", "17")]).fill, Some(17));
        assert_eq!(with(&[("PTX_LIBCUDA_UNSPECIFIED", "keep")]).fill, None);
        // not a byte: the default
        assert_eq!(
            with(&[("PTX_LIBCUDA_UNSPECIFIED", "0x100")]).fill,
            Some(DEFAULT_FILL)
        );
        assert_eq!(
            with(&[("PTX_LIBCUDA_UNSPECIFIED", "lots")]).fill,
            Some(DEFAULT_FILL)
        );
        assert_eq!(
            with(&[("PTX_LIBCUDA_STEP_BUDGET", "0")]).step_budget,
            DEFAULT_STEP_BUDGET
        );
        assert_eq!(with(&[("PTX_LIBCUDA_MEMORY", "0x1000")]).total_memory, 4096);
        assert!(with(&[("PTX_LIBCUDA_VERBOSE", "1")]).verbose);
        assert!(!with(&[("PTX_LIBCUDA_VERBOSE", "0")]).verbose);
        assert_eq!(
            with(&[("PTX_LIBCUDA_REPORT", "/tmp/r.txt")]).report,
            Some(PathBuf::from("/tmp/r.txt"))
        );
    }

    #[test]
    fn driver_version_and_its_ptx_isa() {
        let version = |v: &str| with(&[("PTX_LIBCUDA_DRIVER_VERSION", v)]).driver_version;
        assert_eq!(Config::default().driver_version, 12080);
        assert_eq!(version("13000"), 13000);
        assert_eq!(version("12080"), 12080);
        // releases the driver does not offer keep the default
        assert_eq!(version("12090"), 12080);
        assert_eq!(version("thirteen"), 12080);
        assert_eq!(ptx_isa(13000), PtxVersion { major: 9, minor: 0 });
        assert_eq!(ptx_isa(12080), PtxVersion { major: 8, minor: 7 });
    }
}
