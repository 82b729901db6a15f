//! Launching a prepared kernel: the grid, the arguments, and what comes
//! back (the buffers, with their unspecified bytes, and a report for each
//! thread that stopped).

use super::undefined::Undefined;
use super::window::WindowProfile;

/// A kernel argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A global buffer: the simulator places it at `addr` (or, with none,
    /// after the previous one) and passes its address.
    Buffer { addr: Option<u64>, bytes: Vec<u8> },
    /// The parameter's bytes, little-endian (as many as the parameter has;
    /// fewer are zero-extended).
    Bytes(Vec<u8>),
    /// A tensor map in the model's encoding
    /// ([`crate::tensor::TensorMap::to_bytes`]), its `globalAddress` the
    /// address of the buffer of argument `buffer` plus `offset` (`None`:
    /// the map's own address).
    TensorMap {
        map: crate::tensor::TensorMap,
        buffer: Option<usize>,
        offset: u64,
    },
}

impl Arg {
    pub fn u32(v: u32) -> Arg {
        Arg::Bytes(v.to_le_bytes().to_vec())
    }

    pub fn u64(v: u64) -> Arg {
        Arg::Bytes(v.to_le_bytes().to_vec())
    }
}

/// A modelled multicast object (PTX ISA 9.7.9.14): `multimem` accesses to
/// `[addr, addr + size)` reach the same offset of each member buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Multicast {
    pub addr: u64,
    pub size: u64,
    /// Base addresses of global buffers (each at least `size` bytes).
    pub members: Vec<u64>,
}

/// How to run a kernel.
#[derive(Clone, Debug)]
pub struct Launch {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Cluster shape; the kernel's `.reqnctapercluster` when `None`, else
    /// one CTA.
    pub cluster: Option<[u32; 3]>,
    /// Bytes of dynamic shared memory (`.extern .shared` arrays).
    pub dynamic_shared: u64,
    pub args: Vec<Arg>,
    pub multicast: Vec<Multicast>,
    /// Global memory beside the arguments' buffers, each at its address
    /// with its bytes: what a kernel reaches through addresses it does not
    /// get as a buffer argument (pointers inside a structure parameter).
    /// An entry at the address of one of the module's `.global` variables
    /// ([`module_variables`]), as long as the variable, gives the
    /// variable's bytes in place of its initial value (a driver keeps a
    /// module's variables from launch to launch).
    pub memory: Vec<(u64, Vec<u8>)>,
    /// Thread-instructions the run may execute before it is stopped.
    pub step_budget: u64,
    pub profile: WindowProfile,
    /// When asynchronous operations read, write and complete.
    pub schedule: Schedule,
    /// The module's constant bank (`.const` variables) in place of its
    /// initial bytes ([`constant_bank`]), as long as it: a driver keeps the
    /// host's writes to `__constant__` variables from launch to launch.
    /// Ignored when its length differs.
    pub consts: Option<Vec<u8>>,
    /// Whether plain accesses that race leave the bits they could change
    /// unspecified, with a report (`machine/race.rs`). On by default: the
    /// model's answer. A caller that wants one execution's values, as a
    /// litmus run does (its tests race on purpose, and the interleaving the
    /// interpreter runs is one execution the memory model allows), turns it
    /// off.
    pub races: bool,
}

/// When the steps of asynchronous operations happen (an operation reads
/// its source, writes its destination, then completes: a complete-tx, or
/// its group's completion). A program that waits as the spec asks gets the
/// same bits under every schedule.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Schedule {
    /// Every step at once, when the operation is issued.
    #[default]
    Eager,
    /// As late as possible: a step happens only when no thread can go on
    /// without it (every thread waits or has ended), oldest operation
    /// first.
    Late,
    /// Seeded: after each instruction that touches memory or an mbarrier,
    /// while operations are pending, a random step or none; a `try_wait`
    /// whose phase is incomplete may return false (its time limit).
    Random(u64),
    /// The choice at each decision point given: 0 no step, `i` the step of
    /// the `i`-th enabled operation (oldest first); 0 past the end. The
    /// outcome records every point's choice and number of options
    /// ([`Outcome::choices`]), so that a caller can visit every schedule.
    Script(Vec<u16>),
}

impl Launch {
    pub fn new(grid: [u32; 3], block: [u32; 3], args: Vec<Arg>) -> Launch {
        Launch {
            grid,
            block,
            cluster: None,
            dynamic_shared: 0,
            args,
            multicast: Vec::new(),
            memory: Vec::new(),
            step_budget: 1 << 32,
            profile: WindowProfile::SM90,
            schedule: Schedule::Eager,
            consts: None,
            races: true,
        }
    }
}

/// Why a launch cannot start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LaunchError {
    #[error("the kernel has {params} parameters but {args} arguments were given")]
    ArgCount { params: usize, args: usize },
    #[error("argument {index} has {given} bytes; parameter `{name}` has {size}")]
    ArgSize {
        index: usize,
        name: String,
        given: usize,
        size: u64,
    },
    #[error("buffers at {0:#x} and {1:#x} overlap")]
    Overlap(u64, u64),
    #[error("bad launch shape: {0}")]
    Shape(String),
    #[error("argument {index}: a tensor map's base is argument {buffer}, which is not a buffer")]
    MapBase { index: usize, buffer: usize },
}

/// A thread's coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ThreadId {
    pub ctaid: [u32; 3],
    pub tid: [u32; 3],
}

/// Why a thread stopped before it exited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StopKind {
    /// The thread did something the spec leaves undefined.
    Undefined(Undefined),
    /// The thread's control flow or an address depends on bits the spec
    /// leaves unspecified: the model cannot say what happens next.
    Indeterminate(&'static str),
    /// The thread waits forever (a barrier or a warp collective whose
    /// other members never come).
    Deadlock(String),
    /// The run's step budget ran out while the thread was still running.
    Budget,
    /// The thread needed more of a resource than the model gives a thread
    /// (calls nested deeper than [`crate::sim::CALL_DEPTH_LIMIT`]); what.
    Resource(String),
    /// The thread executed `trap` (PTX ISA 9.7.17): "Abort execution and
    /// generate an interrupt to the host CPU".
    Trap,
}

/// One stopped thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub thread: ThreadId,
    /// The instruction, as text, and its byte offset in the source.
    pub instruction: String,
    pub offset: u32,
    pub kind: StopKind,
    /// More about what happened (the operation a read raced with); empty
    /// when the kind says it all.
    pub note: String,
}

/// A global buffer after the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferOut {
    pub addr: u64,
    pub bytes: Vec<u8>,
    /// 1 for each byte whose value the spec leaves unspecified (wholly or
    /// in part); empty when every byte is determinate.
    pub unspecified: Vec<u8>,
    /// For each byte, the mask of its bits the spec leaves unspecified (a
    /// NaN's payload bits, the bits two racing stores differ in); empty
    /// when every byte is determinate.
    pub unspecified_bits: Vec<u8>,
}

impl BufferOut {
    /// A buffer from its bytes and its shadow (the unspecified bits of
    /// each byte).
    pub(crate) fn from_shadow(addr: u64, bytes: Vec<u8>, shadow: Vec<u8>) -> BufferOut {
        let (unspecified, unspecified_bits) = if shadow.iter().all(|&m| m == 0) {
            (Vec::new(), Vec::new())
        } else {
            (shadow.iter().map(|&m| u8::from(m != 0)).collect(), shadow)
        };
        BufferOut {
            addr,
            bytes,
            unspecified,
            unspecified_bits,
        }
    }
}

/// What a run produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// One per `Arg::Buffer`, in argument order.
    pub buffers: Vec<BufferOut>,
    /// One per [`Launch::memory`] entry, in order: its bytes after the run.
    pub memory: Vec<BufferOut>,
    pub reports: Vec<Report>,
    /// Threads that met an undefined *result* ("the resulting address is
    /// undefined") and went on with unspecified bits: the first
    /// [`Outcome::RESULTS_KEPT`] of them.
    pub undefined_results: Vec<Report>,
    /// Thread-instructions executed.
    pub steps: u64,
    /// Whether the step budget ran out.
    pub budget_exhausted: bool,
    /// Each decision point of the schedule: the choice taken and the
    /// number of choices there were.
    pub choices: Vec<(u16, u16)>,
}

impl Outcome {
    /// How many undefined results a run keeps.
    pub const RESULTS_KEPT: usize = 4096;
}

/// A module-scope `.global` variable as a launch places it: every kernel of
/// a module places the module's variables at the same addresses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleVariable {
    pub name: String,
    pub addr: u64,
    /// Its initial bytes (zero where the declaration gives none); as long
    /// as the variable.
    pub init: Vec<u8>,
}

/// The module's `.const` variables in declaration order, each with its
/// offset in the constant bank ([`constant_bank`]) as `addr`; its generic
/// address is the profile's `const_base` plus that offset.
pub fn module_constants(prog: &super::Program) -> Vec<ModuleVariable> {
    listed(&prog.const_vars)
}

/// The module's constant bank as the kernel starts with it (every `.const`
/// variable's initial bytes at its offset).
pub fn constant_bank(prog: &super::Program) -> Vec<u8> {
    prog.consts.clone()
}

/// The module's `.global` variables that a launch of `prog` places, in
/// declaration order. PTX ISA 5.1.4: "The global (`.global`) state space is
/// memory that is accessible by all threads in a context"; a driver gives
/// the host their addresses and keeps their bytes from launch to launch.
pub fn module_variables(prog: &super::Program) -> Vec<ModuleVariable> {
    listed(&prog.globals)
}

fn listed(vars: &[super::program::GlobalVar]) -> Vec<ModuleVariable> {
    vars.iter()
        .map(|g| ModuleVariable {
            name: g.name.clone(),
            addr: g.addr,
            init: g.init.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{prepare, run};

    const SRC: &str = "
.version 8.7
.target sm_90
.address_size 64
.visible .global .align 4 .u32 counter = 7;
.visible .entry k(.param .u64 p)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [p];
    ld.global.u32 %r1, [counter];
    add.u32 %r2, %r1, 1;
    st.global.u32 [counter], %r2;
    st.global.u32 [%rd1], %r1;
    ret;
}
";

    fn program() -> crate::sim::Program {
        let module = crate::ptx::parse(SRC).unwrap();
        prepare(&module, "k", &WindowProfile::SM90).unwrap()
    }

    #[test]
    fn module_variables_are_listed_with_their_initial_bytes() {
        let vars = module_variables(&program());
        assert_eq!(vars.len(), 1);
        assert_eq!(vars[0].name, "counter");
        assert_eq!(vars[0].init, 7u32.to_le_bytes());
        // placed in the global part, outside every other window
        let p = WindowProfile::SM90;
        assert!(vars[0].addr >= p.global_heap && vars[0].addr < p.const_base);
    }

    #[test]
    fn memory_comes_back_and_replaces_a_variable_s_bytes() {
        let prog = program();
        let var = module_variables(&prog)[0].addr;
        let buffer = WindowProfile::SM90.global_heap + (1 << 32);
        let mut launch = Launch::new([1, 1, 1], [1, 1, 1], vec![Arg::u64(buffer)]);
        // the variable's bytes as a caller kept them: 41, not the initial 7
        launch.memory = vec![(buffer, vec![0; 4]), (var, 41u32.to_le_bytes().to_vec())];
        let out = run(&prog, &launch).unwrap();
        assert!(out.reports.is_empty(), "{:?}", out.reports);
        assert_eq!(out.memory.len(), 2);
        assert_eq!(
            (out.memory[0].addr, &out.memory[0].bytes[..]),
            (buffer, &41u32.to_le_bytes()[..])
        );
        assert_eq!(
            (out.memory[1].addr, &out.memory[1].bytes[..]),
            (var, &42u32.to_le_bytes()[..])
        );
        // without the entry, the variable starts from its initial value
        launch.memory.truncate(1);
        let out = run(&prog, &launch).unwrap();
        assert_eq!(out.memory[0].bytes, 7u32.to_le_bytes());
    }

    #[test]
    fn a_constant_bank_replaces_the_module_s() {
        let src = "
.version 8.7
.target sm_90
.address_size 64
.const .align 4 .u32 pad = 1;
.const .align 4 .u32 scale = 3;
.visible .entry k(.param .u64 p)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [p];
    ld.const.u32 %r1, [scale];
    st.global.u32 [%rd1], %r1;
    ret;
}
";
        let module = crate::ptx::parse(src).unwrap();
        let prog = prepare(&module, "k", &WindowProfile::SM90).unwrap();
        let vars = module_constants(&prog);
        assert_eq!(vars.len(), 2);
        assert_eq!((vars[1].name.as_str(), vars[1].addr), ("scale", 4));
        assert_eq!(vars[1].init, 3u32.to_le_bytes());
        let mut bank = constant_bank(&prog);
        assert_eq!(bank, [1, 0, 0, 0, 3, 0, 0, 0]);
        let out = |launch: &Launch| run(&prog, launch).unwrap().buffers[0].bytes.clone();
        let mut launch = Launch::new(
            [1, 1, 1],
            [1, 1, 1],
            vec![Arg::Buffer {
                addr: None,
                bytes: vec![0; 4],
            }],
        );
        assert_eq!(out(&launch), 3u32.to_le_bytes());
        bank[4..8].copy_from_slice(&9u32.to_le_bytes());
        launch.consts = Some(bank);
        assert_eq!(out(&launch), 9u32.to_le_bytes());
        // a bank of another length is ignored
        launch.consts = Some(vec![7; 4]);
        assert_eq!(out(&launch), 3u32.to_le_bytes());
    }
}
