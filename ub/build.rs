//! Stops the build with one line saying what to install when Z3's C
//! library, or on Linux the C++ runtime's development files it links, is
//! missing, instead of a linker error at the very end. The z3
//! crate links the system `libz3`; this looks for it where the linker
//! would: `Z3_LIBRARY_PATH_OVERRIDE`, `LIBRARY_PATH`, the usual library
//! folders, and the loader's cache. `PTX_CONFORM_NO_Z3_CHECK=1` skips the
//! look (for a libz3 in a place this does not know).

use std::path::Path;

fn main() {
    println!("cargo:rerun-if-env-changed=Z3_LIBRARY_PATH_OVERRIDE");
    println!("cargo:rerun-if-env-changed=LIBRARY_PATH");
    println!("cargo:rerun-if-env-changed=PTX_CONFORM_NO_Z3_CHECK");
    if std::env::var_os("PTX_CONFORM_NO_Z3_CHECK").is_some() {
        return;
    }
    let mut dirs: Vec<String> = Vec::new();
    for var in ["Z3_LIBRARY_PATH_OVERRIDE", "LIBRARY_PATH"] {
        if let Ok(v) = std::env::var(var) {
            dirs.extend(v.split(':').filter(|d| !d.is_empty()).map(String::from));
        }
    }
    let target = std::env::var("TARGET").unwrap_or_default();
    let multiarch = target.replace("-unknown-linux-gnu", "-linux-gnu");
    for d in [
        "/usr/lib",
        "/usr/lib64",
        "/usr/local/lib",
        "/usr/local/lib64",
        "/opt/homebrew/lib",
        "/lib",
    ] {
        dirs.push(d.to_string());
        dirs.push(format!("{d}/{multiarch}"));
    }
    let found = dirs.iter().any(|d| {
        ["libz3.so", "libz3.dylib", "libz3.a", "libz3.lib", "z3.lib"]
            .iter()
            .any(|f| Path::new(d).join(f).exists())
    }) || std::process::Command::new("ldconfig")
        .arg("-p")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("libz3.so"));
    if !found {
        panic!(
            "Z3's C library (libz3) was not found. Install it (Debian/Ubuntu: `apt-get install libz3-dev`; \
             Fedora: `dnf install z3-devel`; macOS: `brew install z3`), or build without `conform ub`: \
             `cargo build --release -p ptx-conformance --no-default-features --features cuda`. \
             (PTX_CONFORM_NO_Z3_CHECK=1 skips this check.)"
        );
    }
    // Z3 is C++: on Linux the link needs libstdc++'s development files,
    // which a C compiler alone may not bring (Debian's gcc without g++)
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
        if let Ok(o) = std::process::Command::new(cc)
            .arg("-print-file-name=libstdc++.so")
            .output()
        {
            let path = String::from_utf8_lossy(&o.stdout);
            if o.status.success() && !path.trim().starts_with('/') {
                panic!(
                    "The C++ standard library's development files (libstdc++.so), which linking \
                     Z3 needs, were not found. Install them (Debian/Ubuntu: `apt-get install g++`; \
                     Fedora: `dnf install gcc-c++`), or build without `conform ub`: \
                     `cargo build --release -p ptx-conformance --no-default-features --features cuda`. \
                     (PTX_CONFORM_NO_Z3_CHECK=1 skips this check.)"
                );
            }
        }
    }
}
