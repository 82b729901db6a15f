//! Every PTX instruction name (PTX ISA 9.7), so that the checker can tell a
//! misspelt opcode from an instruction outside section 9.7.9. The
//! arithmetic, comparison and logic instructions of 9.7.1-9.7.7 have forms
//! of their own (`catalogue::arith`); for the others (control flow,
//! synchronisation, video, texture, warp-level matrix...) the checker
//! checks the opcode and the names the operands use.

/// Opcodes of PTX ISA 9.7 outside 9.7.9, first word only.
static OTHER_OPCODES: &[&str] = &[
    "abs",
    "activemask",
    "add",
    "addc",
    "alloca",
    "and",
    "atom",
    "bar",
    "barrier",
    "bfe",
    "bfi",
    "bfind",
    "bmsk",
    "bra",
    "brev",
    "brkpt",
    "brx",
    "call",
    "clusterlaunchcontrol",
    "clz",
    "cnot",
    "copysign",
    "cos",
    "cp",
    "div",
    "dp2a",
    "dp4a",
    "elect",
    "exit",
    "ex2",
    "fence",
    "fma",
    "fns",
    "getnctarank",
    "griddepcontrol",
    "istypep",
    "ld",
    "ldmatrix",
    "lg2",
    "lop3",
    "mad",
    "mad24",
    "madc",
    "match",
    "max",
    "mbarrier",
    "membar",
    "min",
    "mma",
    "movmatrix",
    "mul",
    "mul24",
    "nanosleep",
    "neg",
    "not",
    "or",
    "pmevent",
    "popc",
    "rcp",
    "red",
    "redux",
    "rem",
    "ret",
    "rsqrt",
    "sad",
    "selp",
    "set",
    "setmaxnreg",
    "setp",
    "shf",
    "shl",
    "shr",
    "sin",
    "slct",
    "sqrt",
    "st",
    "stackrestore",
    "stacksave",
    "stmatrix",
    "sub",
    "subc",
    "suld",
    "suq",
    "sured",
    "sust",
    "szext",
    "tanh",
    "tcgen05",
    "tensormap",
    "testp",
    "tex",
    "tld4",
    "trap",
    "txq",
    "vabsdiff",
    "vabsdiff2",
    "vabsdiff4",
    "vadd",
    "vadd2",
    "vadd4",
    "vavrg2",
    "vavrg4",
    "vmad",
    "vmax",
    "vmax2",
    "vmax4",
    "vmin",
    "vmin2",
    "vmin4",
    "vote",
    "vset",
    "vset2",
    "vset4",
    "vshl",
    "vshr",
    "vsub",
    "vsub2",
    "vsub4",
    "wgmma",
    "wmma",
    "xor",
];

/// Whether `opcode` (first word) names a PTX instruction. Asked for
/// every instruction outside the catalogue, so a hash set rather than a
/// scan of the list.
pub fn is_ptx_opcode(opcode: &str) -> bool {
    static SET: std::sync::OnceLock<std::collections::HashSet<&'static str, crate::check::Fnv>> =
        std::sync::OnceLock::new();
    SET.get_or_init(|| OTHER_OPCODES.iter().copied().collect())
        .contains(opcode)
}

/// Instructions whose first words look like a 9.7.9 instruction but belong
/// to other sections (`cp.async.mbarrier.arrive` is PTX ISA 9.7.13).
static OUTSIDE_PREFIXES: &[&str] = &["cp.async.mbarrier.arrive", "tensormap.cp_fenceproxy"];

/// Whether this instruction belongs to a section other than 9.7.9 although
/// its opcode is shared with one that does.
pub fn outside_catalogue(ins: &crate::ptx::Instruction) -> bool {
    let full = ins.full_opcode();
    OUTSIDE_PREFIXES
        .iter()
        .any(|p| full.starts_with(p) && full[p.len()..].chars().next().is_none_or(|c| c == '.'))
}

/// Whether a brace list of one element may stand for a scalar operand of
/// `opcode` (`ld.global.b32 {%r1}, [%rd1]`, as LLVM's NVPTX back end writes
/// it): ptxas 13.0 takes it for `ld`, `ldu`, `st` (`st.async` included) and
/// either side of `mov`, and refuses it for every other instruction probed
/// (`semantics/tests/brace_rules.rs`). The checker and the simulator's
/// decoder both ask here.
pub fn braces_may_hold_a_scalar(opcode: &str) -> bool {
    matches!(opcode, "ld" | "ldu" | "st" | "mov")
}
