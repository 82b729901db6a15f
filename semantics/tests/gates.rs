//! PTX ISA versions and targets of what the catalogues do not describe
//! (`ptx_semantics::gates`): for each family, a module at the boundary
//! version or target that the "PTX ISA Notes" and "Target ISA Notes" of its
//! section accept, and one just below that they refuse. The verdicts come
//! from the notes as `semantics/src/gates.rs` states them (ptxas 13.0 gave
//! the same verdict wherever the real-world variants hold the form,
//! corpus/realworld/README.md); every module was written for this test.

mod common;

use common::cases::{findings, Case};
use ptx_semantics::catalogue::{PtxVersion, Target};
use ptx_semantics::gates;
use ptx_semantics::ptx::ast::{Item, Stmt};
use ptx_semantics::ptx::parse;

/// A kernel of `body` under `.version` and `.target`, with registers
/// `%r<8>` (b32), `%rd<8>` (b64), `%p<4>` (pred) and a shared `.b64 bar`.
fn module(version: &str, target: &str, body: &str) -> String {
    format!(
        ".version {version}\n.target {target}\n.address_size 64\n\
         .entry k()\n{{\n .reg .b32 %r<8>;\n .reg .b64 %rd<8>;\n .reg .pred %p<4>;\n\
         .shared .align 8 .b64 bar;\n {body}\n ret;\n}}\n"
    )
}

/// The cases of this file, each in [`module`].
fn run(cases: &[Case]) {
    common::cases::run(cases, module);
}

/// `cp.async.mbarrier.arrive` keeps its gate (its first word is 9.7.9's
/// `cp`); the rest of `mbarrier`, `fence`/`membar` and `bar`/`barrier` are
/// rows of `catalogue::arith`, checked in `tests/sync_checks.rs`.
#[test]
fn cp_async_mbarrier_arrive_gates() {
    run(&[
        // 9.7.13.15.15 cp.async.mbarrier.arrive: PTX ISA 7.0, sm_80.
        ("7.0", "sm_80", "cp.async.mbarrier.arrive.b64 [bar];", None),
        (
            "7.0",
            "sm_75",
            "cp.async.mbarrier.arrive.b64 [bar];",
            Some("`cp.async.mbarrier.arrive` needs target sm_80"),
        ),
        // "Support for sub-qualifier ::cta on .shared introduced in PTX ISA
        // version 7.8."
        (
            "7.7",
            "sm_80",
            "cp.async.mbarrier.arrive.shared::cta.b64 [bar];",
            Some("the `.shared::cta` state space needs PTX ISA 7.8"),
        ),
    ]);
}

#[test]
fn synchronisation_gates() {
    run(&[
        // 9.7.13.7 red.async: PTX ISA 8.1, sm_90.
        (
            "8.1",
            "sm_90",
            "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r1], %r2, [%r3];",
            None,
        ),
        (
            "8.0",
            "sm_90",
            "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r1], %r2, [%r3];",
            Some("`red.async` needs PTX ISA 8.1"),
        ),
        // 9.7.13.14 elect.sync: PTX ISA 8.0, sm_90.
        ("8.0", "sm_90", "elect.sync %r1|%p1, 0xffffffff;", None),
        (
            "8.0",
            "sm_89",
            "elect.sync %r1|%p1, 0xffffffff;",
            Some("`elect.sync` needs target sm_90"),
        ),
        // 9.7.13.16 tensormap.cp_fenceproxy: PTX ISA 8.3, sm_90.
        (
            "8.3",
            "sm_90",
            "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd1], [%r1], 128;",
            None,
        ),
        (
            "8.2",
            "sm_90",
            "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd1], [%r1], 128;",
            Some("`tensormap.cp_fenceproxy` needs PTX ISA 8.3"),
        ),
        // 9.7.13.17 clusterlaunchcontrol: PTX ISA 8.6, sm_100;
        // `.multicast::cluster::all` on a and f targets only.
        (
            "8.6",
            "sm_100",
            "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [%r1], [%r2];",
            None,
        ),
        (
            "8.6",
            "sm_90a",
            "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [%r1], [%r2];",
            Some("`clusterlaunchcontrol` needs target sm_100"),
        ),
        (
            "8.6",
            "sm_100a",
            "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128 [%r1], [%r2];",
            None,
        ),
        (
            "8.6",
            "sm_100",
            "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128 [%r1], [%r2];",
            Some("the `.multicast::cluster::all` qualifier needs target"),
        ),
        // 9.7.19 setmaxnreg: sm_90a, and a or f targets of later families.
        ("8.0", "sm_90a", "setmaxnreg.inc.sync.aligned.u32 240;", None),
        ("8.8", "sm_100f", "setmaxnreg.dec.sync.aligned.u32 32;", None),
        ("8.8", "sm_120a", "setmaxnreg.dec.sync.aligned.u32 32;", None),
        (
            "8.0",
            "sm_90",
            "setmaxnreg.inc.sync.aligned.u32 240;",
            Some("`setmaxnreg` needs target sm_90a"),
        ),
        (
            "8.6",
            "sm_100",
            "setmaxnreg.inc.sync.aligned.u32 240;",
            Some("`setmaxnreg` needs target"),
        ),
    ]);
}

#[test]
fn tcgen05_gates() {
    run(&[
        // 9.7.16: PTX ISA 8.6; sm_100a, sm_101a/sm_110a, and the f targets
        // of families 10 and 11 from PTX ISA 8.8.
        ("8.6", "sm_100a", "tcgen05.fence::before_thread_sync;", None),
        ("8.8", "sm_100f", "tcgen05.wait::ld.sync.aligned;", None),
        ("8.8", "sm_103a", "tcgen05.wait::st.sync.aligned;", None),
        (
            "8.6",
            "sm_100",
            "tcgen05.fence::before_thread_sync;",
            Some("`tcgen05` needs target"),
        ),
        (
            "8.8",
            "sm_120a",
            "tcgen05.fence::after_thread_sync;",
            Some("`tcgen05` needs target"),
        ),
        (
            "8.5",
            "sm_90a",
            "tcgen05.fence::after_thread_sync;",
            Some("`tcgen05` needs PTX ISA 8.6"),
        ),
        // tcgen05.shift: architecture-specific targets only.
        ("8.6", "sm_100a", "tcgen05.shift.cta_group::1.down [%r1];", None),
        ("8.8", "sm_103a", "tcgen05.shift.cta_group::2.down [%r1];", None),
        (
            "8.8",
            "sm_100f",
            "tcgen05.shift.cta_group::1.down [%r1];",
            Some("`tcgen05.shift` needs target"),
        ),
        // tcgen05.ld.red: PTX ISA 8.8; sm_101a/sm_110a, sm_103f.
        (
            "8.8",
            "sm_103a",
            "tcgen05.ld.red.sync.aligned.32x32b.x2.u32.min {%r1, %r2}, %r3, [%r4];",
            None,
        ),
        (
            "8.8",
            "sm_100a",
            "tcgen05.ld.red.sync.aligned.32x32b.x2.u32.min {%r1, %r2}, %r3, [%r4];",
            Some("`tcgen05.ld.red` needs target"),
        ),
        // tcgen05.mma qualifiers: `.kind::mxf4nvf4` PTX ISA 8.7,
        // `.block16` 8.8, `.scale_vec::NX` on a targets only.
        (
            "8.7",
            "sm_100a",
            "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X [%r1], %rd1, %rd2, %r2, [%r3], [%r4], %p1;",
            None,
        ),
        (
            "8.6",
            "sm_100a",
            "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X [%r1], %rd1, %rd2, %r2, [%r3], [%r4], %p1;",
            Some("the `.kind::mxf4nvf4`/`.scale_vec::4X` qualifier needs PTX ISA 8.7"),
        ),
        (
            "8.8",
            "sm_100f",
            "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16 [%r1], %rd1, %rd2, %r2, [%r3], [%r4], %p1;",
            None,
        ),
        (
            "8.7",
            "sm_100a",
            "tcgen05.mma.cta_group::1.kind::mxf4.block_scale.block32 [%r1], %rd1, %rd2, %r2, [%r3], [%r4], %p1;",
            Some("the `.block16`/`.block32` qualifier needs PTX ISA 8.8"),
        ),
        (
            "8.8",
            "sm_100f",
            "tcgen05.mma.cta_group::1.kind::mxf4.block_scale.scale_vec::2X [%r1], %rd1, %rd2, %r2, [%r3], [%r4], %p1;",
            Some("a `.scale_vec::NX` qualifier needs target"),
        ),
        (
            "8.8",
            "sm_103a",
            "tcgen05.mma.cta_group::1.kind::mxf4.block_scale.scale_vec::2X [%r1], %rd1, %rd2, %r2, [%r3], [%r4], %p1;",
            None,
        ),
    ]);
}

#[test]
fn special_register_type_and_pragma_gates() {
    run(&[
        // 10.17: %cluster_ctarank PTX ISA 7.8, sm_90.
        ("7.8", "sm_90", "mov.u32 %r1, %cluster_ctarank;", None),
        (
            "7.8",
            "sm_89",
            "mov.u32 %r1, %cluster_ctarank;",
            Some("`%cluster_ctarank` needs target sm_90"),
        ),
        // %reserved_smem_offset_begin: PTX ISA 7.6, sm_80.
        (
            "7.6",
            "sm_80",
            "mov.u32 %r1, %reserved_smem_offset_begin;",
            None,
        ),
        (
            "7.5",
            "sm_80",
            "mov.u32 %r1, %reserved_smem_offset_begin;",
            Some("a `%reserved_smem_offset_*` register needs PTX ISA 7.6"),
        ),
        // %current_graph_exec: PTX ISA 8.0.
        ("8.0", "sm_80", "mov.u64 %rd1, %current_graph_exec;", None),
        (
            "7.8",
            "sm_80",
            "mov.u64 %rd1, %current_graph_exec;",
            Some("`%current_graph_exec` needs PTX ISA 8.0"),
        ),
        // %globaltimer: PTX ISA 3.1, sm_30.
        ("7.0", "sm_80", "mov.u64 %rd1, %globaltimer;", None),
        // 5.2.1: `.b128` from PTX ISA 8.3.
        ("8.3", "sm_80", ".reg .b128 %q;", None),
        (
            "8.2",
            "sm_80",
            ".reg .b128 %q;",
            Some("the `.b128` type needs PTX ISA 8.3"),
        ),
        // 12: "enable_smem_spilling" from PTX ISA 8.7.
        ("8.7", "sm_80", ".pragma \"enable_smem_spilling\";", None),
        (
            "8.6",
            "sm_80",
            ".pragma \"enable_smem_spilling\";",
            Some("the `enable_smem_spilling` pragma needs PTX ISA 8.7"),
        ),
    ]);
}

#[test]
fn video_matrix_and_misc_gates() {
    run(&[
        // 9.7.18: SIMD video PTX ISA 3.0, sm_30.
        ("3.0", "sm_30", "vadd2.u32.u32.u32 %r1, %r2, %r3, %r4;", None),
        (
            "2.3",
            "sm_30",
            "vadd2.u32.u32.u32 %r1, %r2, %r3, %r4;",
            Some("the SIMD video instructions needs PTX ISA 3.0"),
        ),
        // 9.7.14: mma PTX ISA 6.4, sm_70.
        (
            "6.4",
            "sm_70",
            "mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16 {%r1, %r2, %r3, %r4}, {%r1, %r2}, {%r3, %r4}, {%r1, %r2, %r3, %r4};",
            None,
        ),
        (
            "6.3",
            "sm_70",
            "mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16 {%r1, %r2, %r3, %r4}, {%r1, %r2}, {%r3, %r4}, {%r1, %r2, %r3, %r4};",
            Some("`mma` needs PTX ISA 6.4"),
        ),
        // 9.7.14.5.15: ldmatrix's `::cta` sub-qualifier PTX ISA 7.8.
        (
            "7.8",
            "sm_80",
            "ldmatrix.sync.aligned.m8n8.x1.shared::cta.b16 {%r1}, [%r2];",
            None,
        ),
        (
            "7.7",
            "sm_80",
            "ldmatrix.sync.aligned.m8n8.x1.shared::cta.b16 {%r1}, [%r2];",
            Some("the `.shared::cta` state space needs PTX ISA 7.8"),
        ),
        // 9.7.14.5.14: mma with `.e4m3`/`.e5m2` PTX ISA 8.4, sm_89.
        (
            "8.4",
            "sm_89",
            "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 {%r1, %r2, %r3, %r4}, {%r1, %r2, %r3, %r4}, {%r1, %r2}, {%r1, %r2, %r3, %r4};",
            None,
        ),
        (
            "8.4",
            "sm_86",
            "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 {%r1, %r2, %r3, %r4}, {%r1, %r2, %r3, %r4}, {%r1, %r2}, {%r1, %r2, %r3, %r4};",
            Some("an `.e4m3`/`.e5m2` type needs target sm_89"),
        ),
        // 9.7.13.12: redux.sync `.f32` PTX ISA 8.6, sm_100a (sm_100f).
        ("8.6", "sm_100a", "redux.sync.max.NaN.f32 %r1, %r2, -1;", None),
        (
            "8.6",
            "sm_90a",
            "redux.sync.max.NaN.f32 %r1, %r2, -1;",
            Some("the `.f32` type needs target sm_100a or sm_100f"),
        ),
        // Checked with ptxas 13.0 on small modules (2026-11-27): sparse
        // `wgmma` PTX ISA 8.2 ("Feature 'Sparse WGMMA with floating point
        // types' requires PTX ISA .version 8.2"), `.kind::i8` on the
        // architecture-specific targets only ("not supported on .target
        // 'sm_100f'"), the `used_bytes_mask` pragma PTX ISA 8.3.
        (
            "8.2",
            "sm_90a",
            "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%r1, %r2, %r3, %r4}, %rd1, %rd2, %r1, 0, %p1, 1, 1, 0, 0;",
            None,
        ),
        (
            "8.1",
            "sm_90a",
            "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%r1, %r2, %r3, %r4}, %rd1, %rd2, %r1, 0, %p1, 1, 1, 0, 0;",
            Some("`wgmma.mma_async.sp` needs PTX ISA 8.2"),
        ),
        (
            "8.8",
            "sm_100a",
            "tcgen05.mma.cta_group::1.kind::i8 [%r1], %rd1, %rd2, %r2, %p1;",
            None,
        ),
        (
            "8.8",
            "sm_100f",
            "tcgen05.mma.cta_group::1.kind::i8 [%r1], %rd1, %rd2, %r2, %p1;",
            Some("the `.kind::i8` qualifier needs target sm_100a"),
        ),
        (
            "8.3",
            "sm_80",
            ".pragma \"used_bytes_mask 0xfff\";\n ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];",
            None,
        ),
        (
            "8.2",
            "sm_80",
            ".pragma \"used_bytes_mask 0xfff\";\n ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];",
            Some("needs PTX ISA 8.3"),
        ),
        // 9.7.19: setmaxnreg aside, nanosleep PTX ISA 6.3, sm_70.
        ("6.3", "sm_70", "nanosleep.u32 %r1;", None),
        (
            "6.3",
            "sm_62",
            "nanosleep.u32 %r1;",
            Some("`nanosleep` needs target sm_70"),
        ),
    ]);
}

/// The gates that need operands (`gates::instruction_operands`), asked of
/// each instruction of a parsed module directly.
fn operand_gates(version: &str, target: &str, body: &str) -> Vec<&'static str> {
    let m = parse(&module(version, target, body)).expect("module parses");
    let ptx = PtxVersion::parse(version).expect("version");
    let tgt = Target::parse(target).expect("target");
    let mut failed = Vec::new();
    for item in &m.items {
        let Item::Function(f) = item else { continue };
        for stmt in f.body.iter().flatten() {
            let Stmt::Instr(ins) = stmt else { continue };
            for g in gates::instruction_operands(&ins.opcode, &ins.quals, &ins.operands) {
                if !g.req.allows_ptx(ptx) || !g.req.allows_target(tgt) {
                    failed.push(g.what);
                }
            }
        }
    }
    failed
}

#[test]
fn operand_dependent_gates() {
    // 9.7.16: scale-input-d on sm_100a and family 10 only.
    let scaled =
        "tcgen05.mma.cta_group::1.kind::tf32 [%r1], %rd1, %rd2, %r2, {%r3, %r4, %r5, %r6}, %p1, 0;";
    let unscaled = "tcgen05.mma.cta_group::1.kind::tf32 [%r1], %rd1, %rd2, %r2, %p1;";
    assert!(operand_gates("8.6", "sm_100a", scaled).is_empty());
    assert!(operand_gates("8.8", "sm_103a", scaled).is_empty());
    assert_eq!(
        operand_gates("9.0", "sm_110a", scaled),
        ["the `scale-input-d` operand"]
    );
    assert!(operand_gates("9.0", "sm_110a", unscaled).is_empty());
}

#[test]
fn instructions_without_gates_allocate_nothing() {
    let quals = vec![".sync".to_string(), ".aligned".to_string()];
    let none = gates::instruction("trap", &quals);
    assert!(none.is_empty());
    assert_eq!(none.capacity(), 0);
    assert!(gates::special_register("%r12").is_none());
    assert!(gates::special_register("%tid.x").is_none());
    assert!(gates::pragma("unknown_pragma").is_none());
}

/// PTX ISA 11.4: the cluster directives of a kernel need PTX ISA 7.8 and
/// sm_90.
#[test]
fn cluster_directive_gates() {
    let kernel = |version: &str, target: &str| {
        format!(
            ".version {version}\n.target {target}\n.address_size 64\n\
             .entry k() .explicitcluster .reqnctapercluster 2, 1, 1\n{{\n ret;\n}}\n"
        )
    };
    assert!(findings(&kernel("7.8", "sm_90")).is_empty());
    let old = findings(&kernel("7.7", "sm_90"));
    assert!(
        old.iter()
            .filter(|m| m.contains("cluster directive needs PTX ISA 7.8"))
            .count()
            == 2,
        "{old:?}"
    );
    let low = findings(&kernel("7.8", "sm_89"));
    assert!(
        low.iter()
            .filter(|m| m.contains("cluster directive needs target sm_90"))
            .count()
            == 2,
        "{low:?}"
    );
}
