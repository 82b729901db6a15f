//! The width of `.global` and generic addresses (issue 17, real-world
//! files): ptxas 13.0 refuses a 32-bit register as such an address, with or
//! without `.address_size 64` (with none it takes the module as 32-bit, which
//! it no longer compiles), and an immediate `.global` address. Each module
//! below was given to ptxas 13.0 (`-arch=sm_80` and `-arch=sm_90`, on the GPU
//! machine, 2026-11-27); the verdicts are kept here as data and the checker
//! must give the same for each architecture.

use ptx_semantics::catalogue::Target;
use ptx_semantics::check::{check_module, Options};
use ptx_semantics::ptx::parse;

/// The kernel bodies probed (parameter, body).
fn body(name: &str) -> (&'static str, &'static str) {
    match name {
        "global_r32" => (
            ".param .u32 p",
            "ld.param.u32 %r1, [p];\n st.global.u32 [%r1], %r1;",
        ),
        "generic_r32" => (
            ".param .u32 p",
            "ld.param.u32 %r1, [p];\n st.u32 [%r1], %r1;",
        ),
        "const_r32" => (
            ".param .u32 p",
            "ld.param.u32 %r1, [p];\n ld.const.u32 %r2, [%r1];",
        ),
        "local_r32" => (
            ".param .u32 p",
            "ld.param.u32 %r1, [p];\n st.local.u32 [%r1], %r1;",
        ),
        "shared_r32" => (
            ".param .u32 p",
            "ld.param.u32 %r1, [p];\n st.shared.u32 [%r1], %r1;",
        ),
        "atom_global_r32" => (
            ".param .u32 p",
            "ld.param.u32 %r1, [p];\n atom.global.add.u32 %r2, [%r1], 1;",
        ),
        "atom_generic_r32" => (
            ".param .u32 p",
            "ld.param.u32 %r1, [p];\n atom.add.u32 %r2, [%r1], 1;",
        ),
        "red_global_r32" => (
            ".param .u32 p",
            "ld.param.u32 %r1, [p];\n red.global.add.u32 [%r1], 1;",
        ),
        "prefetch_r32" => (
            ".param .u32 p",
            "ld.param.u32 %r1, [p];\n prefetch.global.L2 [%r1];",
        ),
        "ld_global_r32" => (
            ".param .u32 p",
            "ld.param.u32 %r1, [p];\n ld.global.u32 %r2, [%r1];",
        ),
        "ld_global_nc_r32" => (
            ".param .u32 p",
            "ld.param.u32 %r1, [p];\n ld.global.nc.u32 %r2, [%r1];",
        ),
        "isspacep_r32" => (
            ".param .u32 p",
            "ld.param.u32 %r1, [p];\n isspacep.global %p1, %r1;",
        ),
        "cvta_to_u32" => (
            ".param .u32 p",
            "ld.param.u32 %r1, [p];\n cvta.to.global.u32 %r2, %r1;",
        ),
        "cvta_shared_u32" => (
            ".param .u32 p",
            ".shared .u32 sh;\n cvta.shared.u32 %r1, sh;",
        ),
        "mov_shared_r32" => (".param .u32 p", ".shared .u32 sh;\n mov.u32 %r1, sh;"),
        "global_imm" => (".param .u32 p", "st.global.u32 [16], %r1;"),
        "tex_none" => (".param .u32 p", "mov.u32 %r1, 1;"),
        other => panic!("no body {other}"),
    }
}

fn header(config: &str) -> &'static str {
    match config {
        "v70_as64" => ".version 7.0\n.target sm_80\n.address_size 64\n",
        "v70_noas" => ".version 7.0\n.target sm_80\n",
        "v21_noas" => ".version 2.1\n.target sm_20\n",
        other => panic!("no header {other}"),
    }
}

/// (header, body, ptxas -arch=sm_80 rejects, ptxas -arch=sm_90 rejects).
const VERDICTS: &[(&str, &str, bool, bool)] = &[
    ("v21_noas", "atom_generic_r32", true, true),
    ("v21_noas", "atom_global_r32", true, true),
    ("v21_noas", "const_r32", false, false),
    ("v21_noas", "cvta_shared_u32", true, true),
    ("v21_noas", "cvta_to_u32", true, true),
    ("v21_noas", "generic_r32", true, true),
    ("v21_noas", "global_imm", true, true),
    ("v21_noas", "global_r32", true, true),
    ("v21_noas", "isspacep_r32", false, false),
    ("v21_noas", "ld_global_nc_r32", true, true),
    ("v21_noas", "ld_global_r32", true, true),
    ("v21_noas", "local_r32", false, false),
    ("v21_noas", "mov_shared_r32", false, false),
    ("v21_noas", "prefetch_r32", true, true),
    ("v21_noas", "red_global_r32", true, true),
    ("v21_noas", "shared_r32", false, false),
    ("v21_noas", "tex_none", false, false),
    ("v70_as64", "atom_generic_r32", true, true),
    ("v70_as64", "atom_global_r32", true, true),
    ("v70_as64", "const_r32", false, false),
    ("v70_as64", "cvta_shared_u32", true, true),
    ("v70_as64", "cvta_to_u32", true, true),
    ("v70_as64", "generic_r32", true, true),
    ("v70_as64", "global_imm", true, true),
    ("v70_as64", "global_r32", true, true),
    ("v70_as64", "isspacep_r32", false, false),
    ("v70_as64", "ld_global_nc_r32", true, true),
    ("v70_as64", "ld_global_r32", true, true),
    ("v70_as64", "local_r32", false, false),
    ("v70_as64", "mov_shared_r32", false, false),
    ("v70_as64", "prefetch_r32", true, true),
    ("v70_as64", "red_global_r32", true, true),
    ("v70_as64", "shared_r32", false, false),
    ("v70_as64", "tex_none", false, false),
    ("v70_noas", "atom_generic_r32", true, true),
    ("v70_noas", "atom_global_r32", true, true),
    ("v70_noas", "const_r32", false, false),
    ("v70_noas", "cvta_shared_u32", true, true),
    ("v70_noas", "cvta_to_u32", true, true),
    ("v70_noas", "generic_r32", true, true),
    ("v70_noas", "global_imm", true, true),
    ("v70_noas", "global_r32", true, true),
    ("v70_noas", "isspacep_r32", false, false),
    ("v70_noas", "ld_global_nc_r32", true, true),
    ("v70_noas", "ld_global_r32", true, true),
    ("v70_noas", "local_r32", false, false),
    ("v70_noas", "mov_shared_r32", false, false),
    ("v70_noas", "prefetch_r32", true, true),
    ("v70_noas", "red_global_r32", true, true),
    ("v70_noas", "shared_r32", false, false),
    ("v70_noas", "tex_none", false, false),
];

#[test]
fn address_widths_get_ptxas_verdicts() {
    let mut wrong = Vec::new();
    for &(config, name, sm80, sm90) in VERDICTS {
        let (param, text) = body(name);
        let src = format!(
            "{}.global .u32 gv;\n.entry k ({param})\n{{\n .reg .u32 %r<4>;\n .reg .u64 %rd<4>;\n .reg .pred %p<2>;\n {text}\n exit;\n}}\n",
            header(config)
        );
        let module = parse(&src).expect("probe modules parse");
        for (arch, rejects) in [("sm_80", sm80), ("sm_90", sm90)] {
            let options = Options {
                arch: Target::parse(arch),
                ..Options::default()
            };
            let found = check_module(&module, &options);
            if found.is_empty() == rejects {
                wrong.push(format!(
                    "{config} {name} {arch}: ptxas {}, conform {:?}",
                    if rejects { "rejects" } else { "accepts" },
                    found.iter().map(|d| &d.message).collect::<Vec<_>>()
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} disagree:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// `.address_size 32`: ptxas 13.0 refuses it for every architecture it
/// compiles for (sm_75, sm_80, sm_86, sm_89: "32-Bit compilation is no
/// longer supported"; sm_90: "32-Bit ABI ... is not supported on sm_90 or
/// higher"), with or without an instruction in the kernel.
#[test]
fn address_size_32_is_refused_everywhere() {
    for body in ["", "ld.param.u32 %r1, [p];\n st.global.u32 [%r1], %r1;"] {
        let src = format!(
            ".version 7.0\n.target sm_75\n.address_size 32\n.entry k (.param .u32 p)\n{{\n .reg .u32 %r<4>;\n {body}\n exit;\n}}\n"
        );
        let module = parse(&src).expect("probe modules parse");
        for arch in ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90"] {
            let options = Options {
                arch: Target::parse(arch),
                ..Options::default()
            };
            let found = check_module(&module, &options);
            assert!(
                found.iter().any(|d| d.message.contains(".address_size 32")),
                "{arch}: {found:?}"
            );
        }
    }
}
