//! The `conform` binary as a user meets it: exit codes, the diagnostic
//! format, `--help`, and agreement with ptxas on the legality corpus.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn conform(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_conform"))
        .args(args)
        .current_dir(repo())
        .output()
        .expect("conform runs")
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("conform-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn kernel(body: &str, version: &str, target: &str) -> String {
    format!(
        ".version {version}\n.target {target}\n.address_size 64\n\n.visible .entry k(.param .u64 p)\n{{\n\t.reg .b16 %h<4>;\n\t.reg .b32 %r<4>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<4>;\n{body}\n\tret;\n}}\n"
    )
}

macro_rules! code {
    ($out:expr) => {
        $out.status.code().expect("exit code")
    };
}

#[test]
fn legal_file_exits_zero_silently() {
    let f = temp_file(
        "ok.ptx",
        &kernel("\tcvt.rn.f16.f32 %h1, %f1;", "8.0", "sm_90"),
    );
    let out = conform(&["check", f.to_str().unwrap()]);
    assert_eq!(code!(out), 0, "{}", String::from_utf8_lossy(&out.stdout));
    assert!(out.stdout.is_empty());
}

#[test]
fn illegal_file_reports_location_caret_rule_and_section() {
    // cvt from f32 to f16 must round (PTX ISA 9.7.9.21).
    let f = temp_file(
        "bad.ptx",
        &kernel("\tcvt.f16.f32 %h1, %f1;", "8.0", "sm_90"),
    );
    let out = conform(&["check", f.to_str().unwrap()]);
    assert_eq!(code!(out), 1);
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text.lines().next().unwrap();
    assert!(
        first.starts_with(&format!("{}:11:2: error: ", f.display())),
        "{text}"
    );
    assert!(text.contains("  | \tcvt.f16.f32 %h1, %f1;"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.trim_start_matches("  | ").trim() == "^".repeat("cvt.f16.f32".len())),
        "{text}"
    );
    assert!(text.contains("= rule: "), "{text}");
    assert!(text.contains("PTX ISA 9.7.9.21"), "{text}");
}

#[test]
fn version_and_target_come_from_the_module_unless_overridden() {
    // cvt.rn.satfinite.e4m3x2.f32 needs sm_89 or higher.
    let body = "\tcvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2;";
    let f = temp_file("fp8.ptx", &kernel(body, "8.1", "sm_90"));
    assert_eq!(code!(conform(&["check", f.to_str().unwrap()])), 0);
    let out = conform(&["check", "--target", "sm_80", f.to_str().unwrap()]);
    assert_eq!(code!(out), 1);
    assert!(String::from_utf8_lossy(&out.stdout).contains("rule: target"));
    let out = conform(&["check", "--ptx", "7.0", f.to_str().unwrap()]);
    assert_eq!(code!(out), 1);
    assert!(String::from_utf8_lossy(&out.stdout).contains("rule: ptx-version"));
}

#[test]
fn target_is_the_architecture_as_ptxas_arch_means_it() {
    // an sm_80 module compiles for sm_90; an sm_90a one only for sm_90a
    let body = "\tcvt.rn.f16.f32 %h1, %f1;";
    let old = temp_file("arch80.ptx", &kernel(body, "8.1", "sm_80"));
    let old = old.to_str().unwrap();
    assert_eq!(code!(conform(&["check", "--target", "sm_90", old])), 0);
    assert_eq!(code!(conform(&["check", "--target", "sm_90a", old])), 0);
    let out = conform(&["check", "--target", "sm_75", old]);
    assert_eq!(code!(out), 1);
    assert!(String::from_utf8_lossy(&out.stdout).contains("cannot be compiled for sm_75"));
    let a = temp_file("arch90a.ptx", &kernel(body, "8.1", "sm_90a"));
    let a = a.to_str().unwrap();
    assert_eq!(code!(conform(&["check", "--target", "sm_90a", a])), 0);
    assert_eq!(code!(conform(&["check", "--target", "sm_90", a])), 1);
    assert_eq!(code!(conform(&["check", "--target", "sm_100a", a])), 1);
    // an architecture ptxas 13.0 does not take is a usage error
    assert_eq!(code!(conform(&["check", "--target", "sm_70", old])), 2);
    // --override-target replaces the module's own: fp8 needs sm_89
    let fp8 = "\tcvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2;";
    let f = temp_file("fp8-90.ptx", &kernel(fp8, "8.1", "sm_90"));
    let f = f.to_str().unwrap();
    assert_eq!(code!(conform(&["check", "--target", "sm_100", f])), 0);
    assert_eq!(
        code!(conform(&["check", "--override-target", "sm_80", f])),
        1
    );
}

/// Every verdict of ptxas 13.0 on a trivial module of each `.target` for
/// each `-arch` (corpus/legality/arch-matrix.tsv) is `Target::compiles_for`'s,
/// where ptxas takes the architecture at all.
#[test]
fn arch_matrix_agrees_with_ptxas() {
    use ptx_semantics::catalogue::Target;
    let text = std::fs::read_to_string(repo().join("corpus/legality/arch-matrix.tsv")).unwrap();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let (t, a) = (Target::parse(f[0]).unwrap(), Target::parse(f[1]).unwrap());
        let ours = a.is_ptxas_arch() && t.compiles_for(a);
        assert_eq!(ours, f[2] == "accept", "{line}");
        n += 1;
    }
    assert_eq!(n, 23 * 23);
}

#[test]
fn syntax_errors_are_located_not_panics() {
    let f = temp_file("syntax.ptx", ".version 8.0\n.target sm_90\n.entry k( {\n");
    let out = conform(&["check", f.to_str().unwrap()]);
    assert_eq!(code!(out), 1);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("syntax.ptx:3:"), "{text}");
    assert!(String::from_utf8_lossy(&out.stderr).is_empty());
}

#[test]
fn usage_errors_exit_two() {
    assert_eq!(code!(conform(&["check"])), 2);
    assert_eq!(
        code!(conform(&["check", "--target", "sm_nine", "x.ptx"])),
        2
    );
    assert_eq!(code!(conform(&["check", "--ptx", "eight", "x.ptx"])), 2);
    assert_eq!(code!(conform(&["check", "/no/such/file.ptx"])), 2);
    assert_eq!(code!(conform(&["no-such-command"])), 2);
}

#[test]
fn json_output_is_one_object_per_finding() {
    let f = temp_file(
        "json.ptx",
        &kernel(
            "\tcvt.f16.f32 %h1, %f1;\n\tprmt.b16 %r1, %r2, %r3, %r1;",
            "8.0",
            "sm_90",
        ),
    );
    let out = conform(&["check", "--json", f.to_str().unwrap()]);
    assert_eq!(code!(out), 1);
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["line"], 11);
    assert_eq!(lines[1]["line"], 12);
}

#[test]
fn help_explains_check() {
    let out = conform(&["check", "--help"]);
    assert_eq!(code!(out), 0);
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in ["--target", "--ptx", "Exit codes", "file:line:col"] {
        assert!(text.contains(needle), "--help lacks {needle}:\n{text}");
    }
}

/// PTX ISA 9.7.9 legality: `conform check` agrees with ptxas 13.0 on every
/// variant of the committed corpus but the listed divergences, and on at
/// least 99% of all variants.
#[test]
fn agrees_with_ptxas_on_the_legality_corpus() {
    let report = ptx_conformance::legality_cmd::compare(&repo().join("corpus/legality")).unwrap();
    println!("{}", report.table());
    let (agree, total) = report.totals();
    assert!(total >= 5000, "corpus too small: {total}");
    assert!(
        report.disagreements.is_empty(),
        "unlisted disagreements:\n{}",
        report.disagreements.join("\n")
    );
    assert!(
        report.stale.is_empty(),
        "divergence entries that now agree: {:?}",
        report.stale
    );
    assert!(
        agree * 100 >= total * 99,
        "agreement {agree}/{total} below 99%"
    );
}

/// Every kernel of the corpus is rebuilt from its record exactly as it was
/// sent to ptxas (the template is part of the corpus' meaning).
#[test]
fn corpus_kernels_render_deterministically() {
    let text = std::fs::read_to_string(repo().join("corpus/legality/variants.jsonl")).unwrap();
    let first: ptx_conformance::legality::Variant =
        serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let a = ptx_conformance::legality::render(&first);
    assert_eq!(a, ptx_conformance::legality::render(&first));
    assert!(a.contains(&format!("\t{};\n", first.instr)));
    assert!(a.starts_with(&format!(
        ".version {}\n.target {}\n",
        first.ptx, first.target
    )));
}

/// A fresh path for a run's `--out` (not created).
fn temp_out(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("conform-cli-{}-{name}", std::process::id()))
}

// See: issue 5 (`--impl cuda`): a driver library that cannot be loaded is a
// usage error naming the path, never a panic, and leaves no results folder.
#[test]
fn cuda_with_a_missing_libcuda_exits_two_naming_it() {
    let out_dir = temp_out("missing-libcuda");
    let out = conform(&[
        "run",
        "--impl",
        "cuda",
        "--libcuda",
        "/nonexistent.so",
        "--filter",
        "prmt*",
        "--out",
        out_dir.to_str().unwrap(),
        "-q",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(code!(out), 2, "{err}");
    assert!(err.contains("/nonexistent.so"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(!out_dir.exists());
}

// See: issue 5: a file that is no shared library, and one without the
// driver API, are each named with the loader's reason.
#[test]
fn cuda_with_a_libcuda_that_is_no_driver_exits_two() {
    let not_a_library = repo().join("Cargo.toml");
    let out = conform(&[
        "run",
        "--impl",
        "cuda",
        "--libcuda",
        not_a_library.to_str().unwrap(),
        "--out",
        temp_out("not-a-library").to_str().unwrap(),
        "-q",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(code!(out), 2, "{err}");
    assert!(err.contains("Cargo.toml: cannot be loaded"), "{err}");
}

// See: issue 5: on a machine without CUDA `--impl cuda` fails with a clear
// message (exit 2); with a GPU it runs. Either way, no panic.
#[test]
fn cuda_without_libcuda_fails_cleanly_or_runs() {
    let out_dir = temp_out("default-libcuda");
    let out = conform(&[
        "run",
        "--impl",
        "cuda",
        "--filter",
        "prmt.b32/*",
        "--out",
        out_dir.to_str().unwrap(),
        "-q",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(matches!(code!(out), 0..=2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    if code!(out) == 2 {
        assert!(err.contains("--impl cuda: "), "{err}");
    }
    let _ = std::fs::remove_dir_all(&out_dir);
}

#[test]
fn an_endless_input_ends_with_an_error_not_a_hang() {
    // /dev/zero never ends; every command reads at most 256 MiB of a file
    for args in [
        &["check", "/dev/zero"][..],
        &["exec", "/dev/zero", "--kernel", "k"][..],
        &["litmus", "check", "/dev/zero"][..],
    ] {
        let o = conform(args);
        // `litmus check` reports a file's error on stdout and goes on
        let err = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stderr),
            String::from_utf8_lossy(&o.stdout)
        );
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("/dev/zero: more than 256 MiB"),
            "{args:?}: {err}"
        );
    }
    // a buffer argument is bounded the same way
    let ptx = temp_file("buf.ptx", &kernel("", "8.0", "sm_90"));
    let o = conform(&[
        "exec",
        ptx.to_str().unwrap(),
        "--kernel",
        "k",
        "--arg",
        "buf:0x100000000000",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("buffers hold 0 to 256 MiB"), "{err}");
}
