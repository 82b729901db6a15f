//! The search follows calls (PTX ISA 9.7.12.5, "Arguments are
//! pass-by-value"): a misaligned address made in the caller and used in
//! the callee is a witness (the search once stepped over calls and called
//! every precondition inside a function "cannot happen"); values passed
//! through `.param` arguments and return values, and through old-style
//! `.reg` parameters, keep what they are, so an aligned argument is
//! proved aligned; indirect calls reach the function the pointer names;
//! recursion stops at the unroll bound. Every witness is replayed on the
//! simulator.

use crate::{analyse, replay, Options, Replay, Verdict};
use ptx_semantics::ptx;

const HEAD: &str = ".version 8.0\n.target sm_90\n.address_size 64\n";

/// A device function `f(p)` that loads a `.u32` at `p` (a `.u8` when not
/// `check_inside`: no alignment is then assumed past it) and returns `p`,
/// and a kernel calling it with `a + offset`, masked to a multiple of 4
/// when `mask`, that loads a `.u32` at the returned pointer.
fn caller_callee(offset: u32, mask: bool, indirect: bool, check_inside: bool) -> String {
    let inner = if check_inside { "u32" } else { "u8" };
    let masked = if mask { "and.b64 %rd2, %rd2, -4;" } else { "" };
    let call = if indirect {
        "mov.u64 %rd9, f;\n  call (pr), %rd9, (pa), proto;"
    } else {
        "call (pr), f, (pa);"
    };
    format!(
        "{HEAD}
.visible .func (.param .u64 r) f(.param .u64 p)
{{
  .reg .u64 %rd<3>;
  .reg .u32 %r<2>;
  ld.param.u64 %rd1, [p];
  ld.global.{inner} %r1, [%rd1];
  st.param.u64 [r], %rd1;
  ret;
}}
.visible .entry k(.param .u64 a)
{{
  .reg .u64 %rd<10>;
  .reg .u32 %r<3>;
  ld.param.u64 %rd1, [a];
  add.u64 %rd2, %rd1, {offset};
  {masked}
  {{
  proto: .callprototype (.param .u64 _) _ (.param .u64 _);
  .param .u64 pa;
  .param .u64 pr;
  st.param.u64 [pa], %rd2;
  {call}
  ld.param.u64 %rd3, [pr];
  }}
  ld.global.u32 %r2, [%rd3];
  ret;
}}
"
    )
}

/// The verdict at the first instruction starting with `text`, for the
/// alignment precondition, and whether the simulator, replaying a witness,
/// confirms it.
fn aligned_verdict(src: &str, text: &str) -> (Verdict, bool) {
    let m = ptx::parse(src).unwrap_or_else(|e| panic!("{}: {src}", e.message));
    let a = analyse(&m, "k", &Options::default()).expect("the kernel loads");
    let f = a
        .findings
        .iter()
        .find(|f| f.instruction.starts_with(text) && f.precondition.id == "access.aligned")
        .unwrap_or_else(|| panic!("no finding at {text}: {:?}", a.findings));
    let confirmed = matches!(
        replay::replay(&m, "k", &Options::default(), f),
        Some(Replay::Confirmed)
    );
    (f.verdict.clone(), confirmed)
}

fn is_witness(v: &(Verdict, bool)) -> bool {
    matches!(v, (Verdict::Witness(_), true))
}

#[test]
fn a_misaligned_argument_is_a_witness_in_the_callee() {
    for indirect in [false, true] {
        let src = caller_callee(1, false, indirect, true);
        let inside = aligned_verdict(&src, "ld.global.u32 %r1");
        assert!(is_witness(&inside), "indirect {indirect}: {inside:?}");
        // the returned pointer is the same misaligned one (when the callee
        // does not assume it aligned by loading a `.u32` there first)
        let src = caller_callee(1, false, indirect, false);
        let after = aligned_verdict(&src, "ld.global.u32 %r2");
        assert!(is_witness(&after), "indirect {indirect}: {after:?}");
    }
}

#[test]
fn an_aligned_argument_is_proved_aligned_through_the_call() {
    for indirect in [false, true] {
        for offset in [0, 4, 1, 3] {
            for (inside, at) in [(true, "ld.global.u32 %r1"), (false, "ld.global.u32 %r2")] {
                let src = caller_callee(offset, true, indirect, inside);
                let v = aligned_verdict(&src, at);
                assert!(
                    matches!(v.0, Verdict::CannotHappen),
                    "offset {offset}, indirect {indirect}, {at}: {v:?}"
                );
            }
        }
    }
}

/// Old-style `.reg` parameters (PTX ISA 7.1 style functions with register
/// parameters): the value passes as with `.param`.
#[test]
fn register_parameters_pass_their_values() {
    for (offset, witness) in [(2u32, true), (8, false)] {
        let src = format!(
            "{HEAD}
.visible .func (.reg .u64 r) g(.reg .u64 p)
{{
  .reg .u32 %r<2>;
  ld.global.u32 %r1, [p];
  mov.u64 r, p;
  ret;
}}
.visible .entry k(.param .u64 a)
{{
  .reg .u64 %rd<4>;
  .reg .u32 %r<2>;
  ld.param.u64 %rd1, [a];
  and.b64 %rd1, %rd1, -16;
  add.u64 %rd2, %rd1, {offset};
  call (%rd3), g, (%rd2);
  ret;
}}
"
        );
        let v = aligned_verdict(&src, "ld.global.u32 %r1");
        assert_eq!(is_witness(&v), witness, "offset {offset}: {v:?}");
        if !witness {
            assert!(matches!(v.0, Verdict::CannotHappen), "{v:?}");
        }
    }
}

/// A function calling itself: the search stops at the unroll bound and
/// says so; the misaligned load in the first activation is still found.
#[test]
fn recursion_stops_at_the_bound() {
    let src = format!(
        "{HEAD}
.visible .func (.param .u64 r) h(.param .u64 p)
{{
  .reg .u64 %rd<4>;
  .reg .u32 %r<2>;
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r1, [%rd1];
  add.u64 %rd2, %rd1, 4;
  {{
  .param .u64 q;
  .param .u64 s;
  st.param.u64 [q], %rd2;
  call (s), h, (q);
  ld.param.u64 %rd3, [s];
  }}
  st.param.u64 [r], %rd3;
  ret;
}}
.visible .entry k(.param .u64 a)
{{
  .reg .u64 %rd<4>;
  ld.param.u64 %rd1, [a];
  add.u64 %rd2, %rd1, 2;
  {{
  .param .u64 pa;
  .param .u64 pr;
  st.param.u64 [pa], %rd2;
  call (pr), h, (pa);
  }}
  ret;
}}
"
    );
    let m = ptx::parse(&src).unwrap();
    let a = analyse(&m, "k", &Options::default()).expect("loads");
    assert!(a.unroll_cut > 0, "the recursion is cut: {a:?}");
    let v = aligned_verdict(&src, "ld.global.u32 %r1");
    assert!(is_witness(&v), "{v:?}");
}

/// A `.local` variable written and read back at a known place keeps its
/// value (a masked, aligned pointer stays provably aligned), and a generic
/// store into it through `cvta.local` replaces that value (the misaligned
/// one it writes is found): the search keeps the thread's frame bytes it
/// can place, and forgets those a store it cannot place may overwrite.
#[test]
fn local_bytes_written_and_read_back_keep_their_value() {
    for (overwrite, witness) in [(false, false), (true, true)] {
        let over = if overwrite {
            "cvta.local.u64 %rd4, %rd2;\n  add.u64 %rd5, %rd1, 2;\n  st.u64 [%rd4], %rd5;"
        } else {
            ""
        };
        let src = format!(
            "{HEAD}
.visible .entry k(.param .u64 a)
{{
  .reg .u64 %rd<8>;
  .reg .u32 %r<2>;
  .local .align 8 .b8 buf[16];
  ld.param.u64 %rd1, [a];
  and.b64 %rd6, %rd1, -16;
  mov.u64 %rd2, buf;
  st.local.u64 [%rd2], %rd6;
  {over}
  ld.local.u64 %rd3, [%rd2];
  ld.global.u32 %r1, [%rd3];
  ret;
}}
"
        );
        let v = aligned_verdict(&src, "ld.global.u32 %r1");
        if witness {
            assert!(is_witness(&v), "overwritten: {v:?}");
        } else {
            assert!(matches!(v.0, Verdict::CannotHappen), "kept: {v:?}");
        }
    }
}
