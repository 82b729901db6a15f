//! The checker on whole-module declaration rules ptxas 13.0 enforces
//! beyond the grammar (found on hand-written PTX of public projects,
//! corpus/realworld): incomplete arrays, the vector qualifier's place,
//! `.noreturn` on kernels, `.abi_preserve`'s PTX version. Each module is
//! given with ptxas 13.0's verdict (`-arch=sm_90 -c`, run on the GPU
//! machine 2026-11-27; `None`: accepted;
//! `Some(text)`: rejected, and our message contains `text`).

use ptx_semantics::check::{check_module, Options};
use ptx_semantics::ptx::parse;

fn module(version: &str, target: &str, items: &str) -> String {
    format!(".version {version}\n.target {target}\n.address_size 64\n{items}\n")
}

/// Parse and check; a parse error counts as a finding with its message.
fn findings(src: &str) -> Vec<String> {
    match parse(src) {
        Ok(m) => check_module(&m, &Options::default())
            .into_iter()
            .map(|d| d.message)
            .collect(),
        Err(e) => vec![e.to_string()],
    }
}

#[test]
fn declarations_get_ptxas_verdicts() {
    // (PTX version, target, module items, ptxas 13.0 -arch=sm_90 -c).
    let rows: &[(&str, &str, &str, Option<&str>)] = &[
        // Incomplete arrays: sized by an initializer, or `.extern`.
        (
            "6.5",
            "sm_70",
            ".const .b32 foobar[];",
            Some("incomplete type"),
        ),
        ("6.5", "sm_70", ".global .u32 g[];", Some("incomplete type")),
        ("6.5", "sm_70", ".global .u32 g[] = {1, 2, 3};", None),
        // Texturing modes (PTX ISA 5.3): a `.samplerref` needs the
        // independent mode; a `.texref` is taken in both.
        (
            "6.5",
            "sm_70",
            ".global .samplerref s;\n.entry k() { ret; }",
            Some("texmode_independent"),
        ),
        (
            "6.5",
            "sm_70, texmode_unified",
            ".global .samplerref s;\n.entry k() { ret; }",
            Some("texmode_independent"),
        ),
        (
            "6.5",
            "sm_70, texmode_independent",
            ".global .samplerref s;\n.entry k() { ret; }",
            None,
        ),
        (
            "6.5",
            "sm_70",
            ".entry k(.param .samplerref ps) { ret; }",
            Some("texmode_independent"),
        ),
        (
            "6.5",
            "sm_70, texmode_unified",
            ".entry k(.param .samplerref ps) { ret; }",
            Some("texmode_independent"),
        ),
        (
            "6.5",
            "sm_70, texmode_independent",
            ".entry k(.param .samplerref ps) { ret; }",
            None,
        ),
        (
            "6.5",
            "sm_70",
            ".global .texref t;\n.entry k() { ret; }",
            None,
        ),
        (
            "6.5",
            "sm_70, texmode_unified",
            ".global .texref t;\n.entry k() { ret; }",
            None,
        ),
        (
            "6.5",
            "sm_70, texmode_independent",
            ".global .texref t;\n.entry k() { ret; }",
            None,
        ),
        (
            "6.5",
            "sm_70",
            ".global .b32 a[][2] = {{1, 2}, {3, 4}};",
            None,
        ),
        ("6.5", "sm_70", ".extern .shared .b32 dyn[];", None),
        ("6.5", "sm_70", ".extern .global .b32 ext[];", None),
        (
            "6.5",
            "sm_70",
            ".visible .func f() {\n.shared .b32 local_dyn[];\nret;\n}",
            Some("incomplete type"),
        ),
        (
            "6.5",
            "sm_70",
            ".visible .func f() {\n.shared .b32 sized[4];\nret;\n}",
            None,
        ),
        // Kernel parameters need a size.
        (
            "6.5",
            "sm_70",
            ".visible .entry k(.param .b32 p[])\n{\nret;\n}",
            Some("incomplete array"),
        ),
        (
            "6.5",
            "sm_70",
            ".visible .entry k(.param .b32 p[4])\n{\nret;\n}",
            None,
        ),
        // The vector qualifier precedes the type.
        (
            "6.5",
            "sm_70",
            ".visible .func f()\n{\n.reg .b32 .v2 v;\nret;\n}",
            Some("must come before the type"),
        ),
        (
            "6.5",
            "sm_70",
            ".visible .func f()\n{\n.local .b32 .v2 v;\nret;\n}",
            Some("must come before the type"),
        ),
        (
            "6.5",
            "sm_70",
            ".visible .func f()\n{\n.reg .v2 .b32 v;\n.local .v2 .b32 w;\nret;\n}",
            None,
        ),
        // A parameter list takes vector `.reg`s but no vector `.param`.
        (
            "6.5",
            "sm_70",
            ".visible .func f(.param .b32 .v2 x)\n{\nret;\n}",
            Some("must come before the type"),
        ),
        (
            "8.5",
            "sm_90",
            ".visible .func f(.param .v2 .b32 x)\n{\nret;\n}",
            Some("cannot be a vector"),
        ),
        (
            "8.5",
            "sm_90",
            ".visible .func (.param .v2 .b32 r) f()\n{\nret;\n}",
            Some("cannot be a vector"),
        ),
        (
            "8.5",
            "sm_90",
            ".visible .entry k(.param .v2 .b32 x)\n{\nret;\n}",
            Some("cannot be a vector"),
        ),
        (
            "6.5",
            "sm_70",
            ".visible .func f(.reg .v2 .b32 x)\n{\nret;\n}",
            None,
        ),
        // `.noreturn` is for device functions.
        (
            "6.4",
            "sm_70",
            ".visible .entry k() .noreturn\n{\ntrap;\n}",
            Some("`.noreturn` applies to a `.func`"),
        ),
        (
            "6.4",
            "sm_70",
            ".visible .func f() .noreturn\n{\ntrap;\n}",
            None,
        ),
        // `.abi_preserve` from PTX ISA 9.0 and sm_80 on.
        (
            "8.5",
            "sm_90",
            ".visible .func f() .abi_preserve 4\n{\nret;\n}",
            Some("needs PTX ISA 9.0"),
        ),
        (
            "9.0",
            "sm_70",
            ".visible .func f() .abi_preserve 4\n{\nret;\n}",
            Some("needs `.target sm_80`"),
        ),
        (
            "9.0",
            "sm_80",
            ".visible .func f() .abi_preserve 4\n{\nret;\n}",
            None,
        ),
        (
            "9.0",
            "sm_90",
            ".visible .func f() .abi_preserve_control 4\n{\nret;\n}",
            None,
        ),
        (
            "9.0",
            "sm_90",
            ".visible .func f()\n{\np: .callprototype _ (.param .u32 a) .abi_preserve 4;\nret;\n}",
            None,
        ),
        (
            "9.0",
            "sm_75",
            ".visible .func f()\n{\np: .callprototype _ (.param .u32 a) .abi_preserve 4;\nret;\n}",
            Some("needs `.target sm_80`"),
        ),
    ];
    let mut wrong = Vec::new();
    for (version, target, items, want) in rows {
        let got = findings(&module(version, target, items));
        let ok = match want {
            None => got.is_empty(),
            Some(text) => got.iter().any(|m| m.contains(text)),
        };
        if !ok {
            wrong.push(format!("{items}: want {want:?}, got {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// `%r<10>` declares `%r0` .. `%r9`: ptxas 13.0 (`-arch=sm_90 -c`) takes
/// `%r9` and `%r05` (as `%r5`), and calls `%r10` an "Unknown symbol".
#[test]
fn parameterized_names_stop_at_their_count() {
    for (reg, ok) in [
        ("%r9", true),
        ("%r05", true),
        ("%r00", true),
        ("%r10", false),
    ] {
        let src = module(
            "8.0",
            "sm_90",
            &format!(".visible .entry k()\n{{\n.reg .b32 %r<10>;\nmov.b32 {reg}, 1;\nret;\n}}"),
        );
        let got = findings(&src);
        if ok {
            assert!(got.is_empty(), "{reg}: {got:?}");
        } else {
            assert!(
                got.iter().any(|m| m.contains("is not declared")),
                "{reg}: {got:?}"
            );
        }
    }
}

/// Instructions outside the catalogue (their forms are not checked): the
/// names their operands use must still be declared, as ptxas 13.0 says
/// "Unknown symbol" otherwise; labels, prototypes and `WARP_SZ` are names
/// too. (Each module with ptxas 13.0's verdict, `-arch=sm_90 -c`.)
#[test]
fn names_outside_the_catalogue_are_declared() {
    let body = |instrs: &str| {
        module(
            "8.0",
            "sm_90",
            &format!(
                ".visible .func g(.param .b32 a)\n{{\nret;\n}}\n\
                 .visible .entry k(.param .u64 p)\n{{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n\
                 .reg .b64 %rd<2>;\n{instrs}\nret;\n}}"
            ),
        )
    };
    let ok = [
        "add.u32 %r1, %r2, %r3;",
        "add.u32 %r1, %r2, WARP_SZ;",
        // byte and half-word selectors of the video instructions (forms
        // ptxas took in corpus/simulator/kernels/video.ptx)
        "vadd.u32.u32.s32 %r1, %r2.b0, %r3;",
        "vadd2.u32.u32.s32.sat %r1.h0, %r2.h01, %r3.h20, %r1;",
        "L1:\nsetp.eq.u32 %p1, %r1, 0;\n@%p1 bra L1;",
        "bra.uni DONE;\nDONE:",
        "{\n.param .b32 arg;\nst.param.b32 [arg], %r1;\ncall.uni g, (arg);\n}",
        "mov.u64 %rd1, g;\nproto: .callprototype _ (.param .b32 _);\n{\n.param .b32 arg;\nst.param.b32 [arg], %r1;\ncall %rd1, (arg), proto;\n}",
    ];
    for src in ok {
        let got = findings(&body(src));
        assert!(got.is_empty(), "{src}: {got:?}");
    }
    let bad = [
        ("add.u32 %r1, %r2, %r9;", "%r9"),
        ("add.u32 %r1, %r2, %q1;", "%q1"),
        ("vadd.u32.u32.s32 %r1, %r9.b0, %r3;", "%r9"),
        ("@%p1 bra NOWHERE;", "NOWHERE"),
        ("selp.b32 %r1, %r2, %r3, %p5;", "%p5"),
        ("call.uni h, (%r1);", "h"),
    ];
    for (src, name) in bad {
        let got = findings(&body(src));
        assert!(
            got.iter()
                .any(|m| m.contains(name) && m.contains("not declared")),
            "{src}: {got:?}"
        );
    }
}
