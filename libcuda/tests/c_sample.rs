//! samples/vecadd.c, a C program written against the driver API, built
//! with the system's C compiler, linked with `-lcuda` and run with
//! `LD_LIBRARY_PATH` at the built `libcuda.so`: how a user runs a program on
//! the simulator. The release library is built when missing (`cargo build
//! --release -p ptx-libcuda`); without a C compiler the test says so and
//! passes.

use std::path::{Path, PathBuf};
use std::process::Command;

fn release_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"))
        .join("release")
}

/// Builds the release library (`cargo build --release -p ptx-libcuda`, the
/// target directory this test runs from) when it is missing, so that
/// `cargo test` alone runs this test; whether it is there after.
fn build_library(lib: &Path) -> bool {
    if lib.is_file() {
        return true;
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
    let status = Command::new(cargo)
        .args([
            "build",
            "--release",
            "-q",
            "-p",
            "ptx-libcuda",
            "--manifest-path",
        ])
        .arg(&manifest)
        .status();
    assert!(
        status.as_ref().is_ok_and(|s| s.success()),
        "cargo build --release -p ptx-libcuda: {status:?}"
    );
    lib.is_file()
}

#[test]
fn a_c_program_runs_on_the_simulator() {
    let lib_dir = release_dir();
    if !build_library(&lib_dir.join("libcuda.so")) {
        eprintln!("skipped: {}/libcuda.so is missing", lib_dir.display());
        return;
    }
    let dir = std::env::temp_dir().join(format!("ptx-libcuda-c-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let exe = dir.join("vecadd");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/vecadd.c");
    let built = Command::new("cc")
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .arg(format!("-L{}", lib_dir.display()))
        .arg("-lcuda")
        .status();
    match built {
        Ok(s) if s.success() => {}
        other => {
            eprintln!("skipped: no C compiler built the sample ({other:?})");
            return;
        }
    }
    let report = dir.join("report.txt");
    let out = Command::new(&exe)
        .env("LD_LIBRARY_PATH", &lib_dir)
        .env("PTX_LIBCUDA_REPORT", &report)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("ptx-conform simulator"), "{stdout}");
    assert!(stdout.contains("vecadd: 1000 sums right"), "{stdout}");
    assert!(
        stdout.contains("past the end: CUDA_ERROR_ILLEGAL_ADDRESS"),
        "{stdout}"
    );
    // the thread of index 1000, the first past the buffers
    let text = std::fs::read_to_string(&report).unwrap();
    assert!(text.contains("ctaid [3, 0, 0] tid [232, 0, 0]"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
