//! Declarations the simulator does not keep bytes for are refused when the
//! kernel is loaded, never allocated: a variable moved past its space's
//! limit by its alignment (`.align 4294967296`), or larger than the space.

use ptx_semantics::ptx::parse;
use ptx_semantics::sim::{self, LoadError, WindowProfile};

fn load(decl: &str) -> Result<(), LoadError> {
    let src = format!(
        ".version 8.7\n.target sm_90\n.address_size 64\n{decl}\n.visible .entry k()\n{{\n\tret;\n}}\n"
    );
    let module = parse(&src).expect("parses");
    sim::prepare(&module, "k", &WindowProfile::SM90).map(|_| ())
}

fn refused(decl: &str, why: &str) {
    match load(decl) {
        Err(LoadError::Unsupported { why: w, .. }) => assert!(w.contains(why), "{decl}: {w}"),
        other => panic!("{decl}: expected a refusal naming `{why}`, got {other:?}"),
    }
}

#[test]
fn variables_within_their_space_load() {
    for decl in [
        ".const .align 4 .b8 c[1024];",
        ".const .align 16 .b8 c[65520];",
        ".global .align 256 .b8 g[4096];",
        ".shared .align 128 .b8 s[65536];",
    ] {
        assert!(load(decl).is_ok(), "{decl}");
    }
}

#[test]
fn an_alignment_past_the_space_is_refused() {
    refused(
        ".const .b8 c0[4];\n.const .align 4294967296 .b8 c1[256];",
        "64 KB",
    );
    refused(
        ".const .align 65536 .b8 c0[4];\n.const .align 65536 .b8 c1[4];",
        "64 KB",
    );
    refused(
        ".shared .align 1073741824 .b8 s0[4];\n.shared .align 1073741824 .b8 s1[4];",
        "227 KB",
    );
    refused(
        ".global .align 1099511627776 .b8 g0[4];\n.global .align 1099511627776 .b8 g1[4];",
        ".global",
    );
}

#[test]
fn a_space_too_large_is_refused() {
    refused(".const .b8 c[65537];", "64 KB");
    refused(".shared .b8 s[232449];", "227 KB");
}
