//! Undefined behaviour with Z3. A kernel runs symbolically: its parameters,
//! the thread's place in the launch (within stated bounds) and every loaded
//! value are Z3 terms; branches fork with their path conditions; loops
//! unroll to a bound. At each instruction with preconditions
//! ([`ptx_semantics::precond`]) the solver is asked whether the path can
//! reach the instruction with the precondition false: "cannot happen" when
//! it cannot, else a witness (parameters, geometry and thread), which
//! [`replay`] runs through the concrete simulator to confirm that the same
//! clause is hit at the same instruction (one it does not confirm is
//! reported unknown, as is what a search stopped at its limits had not
//! settled, each with its reason).

#![forbid(unsafe_code)]

mod alu;
mod arith;
#[cfg(test)]
mod arith_tests;
pub mod boundary;
#[cfg(test)]
mod call_tests;
mod exec;
mod flow;
mod fparith;
#[cfg(test)]
mod fparith_tests;
mod origin;
pub mod replay;
mod slice;
#[cfg(test)]
mod tests;
mod tmap;
mod z3dom;

use ptx_semantics::precond::Precondition;
use serde::Serialize;

pub use exec::{analyse, tensor_map_params};
pub use tmap::GivenMap;

/// Launch bounds: each dimension of the grid (in CTAs), the CTA (in
/// threads) and the cluster (in CTAs) ranges over `1..=max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Bounds {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub cluster: [u32; 3],
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            grid: [8, 1, 1],
            block: [256, 1, 1],
            cluster: [4, 1, 1],
        }
    }
}

/// How to search.
#[derive(Clone, Debug, Serialize)]
pub struct Options {
    pub bounds: Bounds,
    /// Turns a loop may take each time a path enters it (a loop is a
    /// strongly connected part of the control flow, entered at its header;
    /// one nested in another counts its turns afresh on each turn of the
    /// outer one).
    pub unroll: u32,
    /// Activations of one device function a path may be inside at once
    /// (recursion); a call past it stops the path, counted with the paths
    /// cut at the unroll bound.
    pub recursion: u32,
    /// Per-query solver timeout in milliseconds.
    pub timeout_ms: u32,
    /// Whether 64-bit parameters are taken to be global buffers:
    /// 256-byte aligned, in the simulator's global heap, each at least
    /// [`Options::BUFFER`] bytes from the next.
    pub pointer_params: bool,
    /// Paths explored at most (past it the search stops and says so).
    pub max_paths: usize,
    /// Time the search may take, in milliseconds (past it the search
    /// stops, and what it had not settled is reported unknown, with the
    /// paths it left open; a query gets no more than what is left).
    pub budget_ms: u64,
    /// Tensor maps kernel parameters hold: the rules on a map's fields
    /// (`table::TENSOR_MAP_RULES`) are asked of the copies whose
    /// `tensorMap` can be that parameter's address, and the replay puts
    /// the map's bytes (our encoding) in the parameter.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tensor_maps: Vec<GivenMap>,
}

impl Options {
    /// Bytes between two pointer parameters, and the size of each buffer a
    /// replay gives them.
    pub const BUFFER: u64 = 1 << 20;
}

impl Default for Options {
    fn default() -> Options {
        Options {
            bounds: Bounds::default(),
            unroll: 8,
            recursion: 2,
            timeout_ms: 1_000,
            pointer_params: true,
            max_paths: 1024,
            budget_ms: 2_000,
            tensor_maps: Vec::new(),
        }
    }
}

/// The answer for one precondition of one instruction.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Verdict {
    /// No path within the bounds reaches the instruction with the
    /// precondition false (or none reaches the instruction).
    CannotHappen,
    Witness(Witness),
    /// Not decided (never read as safe): the solver gave up on a query,
    /// the search stopped at a limit before every path that can reach the
    /// instruction was explored (`open` says where those paths were), or
    /// a witness was found that the replay did not confirm (`candidate`).
    /// `reason` says which, in words.
    Unknown {
        reason: String,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        open: Vec<Open>,
        #[serde(skip_serializing_if = "Option::is_none")]
        candidate: Option<Box<Witness>>,
    },
}

/// A path the search had not finished when it stopped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Open {
    /// The instruction it was at (index, text, byte offset).
    pub pc: usize,
    pub instruction: String,
    pub offset: u32,
    /// The loops it was in, outermost first.
    pub loops: Vec<Turns>,
}

/// A loop an open path was in, and how far.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Turns {
    /// The loop's header (index, text, byte offset).
    pub pc: usize,
    pub instruction: String,
    pub offset: u32,
    /// Turns taken since the path entered the loop, of at most `bound`
    /// (`--unroll`).
    pub turns: u32,
    pub bound: u32,
}

/// Inputs that reach an undefined case.
#[derive(Clone, Debug, Serialize)]
pub struct Witness {
    /// Each parameter's value (little-endian bytes as a number for those of
    /// at most 8 bytes; wider ones as hex bytes).
    pub params: Vec<(String, String)>,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub cluster: [u32; 3],
    pub ctaid: [u32; 3],
    pub tid: [u32; 3],
    /// The precondition's operands at the instruction (`addr`, `size`...).
    pub values: Vec<(String, u64)>,
    /// Values the path loaded from global memory: address, bytes, value.
    pub loads: Vec<(u64, u8, u64)>,
    /// Values the precondition's operands depend on that the search does
    /// not know (the replay computes them; where they decide the outcome
    /// it may not confirm the witness).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub depends_on: Vec<Dependence>,
    #[serde(skip)]
    pub(crate) param_bytes: Vec<Vec<u8>>,
}

/// An instruction whose result the search took to be any value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Dependence {
    pub pc: usize,
    pub instruction: String,
    pub offset: u32,
    /// Why the search does not know its result, in words.
    pub why: &'static str,
}

/// What the replay through the simulator found.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "replay", rename_all = "kebab-case")]
pub enum Replay {
    /// The witness thread hit the same clause at the same instruction.
    Confirmed,
    /// It did not; what happened instead.
    NotConfirmed { what: String },
    /// The simulator cannot run the kernel (an instruction it does not model).
    Impossible { why: String },
}

/// One precondition of one instruction.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    /// Index of the decoded instruction.
    pub pc: usize,
    pub instruction: String,
    /// Byte offset of the instruction in the source.
    pub offset: u32,
    #[serde(serialize_with = "precondition_id")]
    pub precondition: &'static Precondition,
    #[serde(flatten)]
    pub verdict: Verdict,
    pub replay: Option<Replay>,
}

fn precondition_id<S: serde::Serializer>(
    p: &&'static Precondition,
    s: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct;
    let mut st = s.serialize_struct("Precondition", 4)?;
    st.serialize_field("id", p.id)?;
    st.serialize_field("section", p.section)?;
    st.serialize_field("rule", p.rule)?;
    st.serialize_field(
        "effect",
        match p.effect {
            ptx_semantics::sim::Effect::Behaviour => "behaviour",
            ptx_semantics::sim::Effect::Result => "result",
        },
    )?;
    st.end()
}

/// The search over one kernel.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    pub kernel: String,
    pub findings: Vec<Finding>,
    /// Paths explored to their end.
    pub paths: usize,
    /// Paths cut at the unroll bound (whether each could happen is not
    /// asked), and whether a limit (paths or time) stopped the search: the
    /// verdicts hold within these bounds.
    pub unroll_cut: usize,
    pub path_limit_hit: bool,
    /// Which limit stopped the search, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    pub queries: usize,
    /// Wall time of the search (solver included), in milliseconds.
    pub solve_ms: f64,
    /// Instructions the symbolic executor does not interpret (their
    /// results are unconstrained).
    pub opaque: usize,
    /// Instructions met on some path whose results the search leaves
    /// unknown (float forms it has no term for, the approximate forms,
    /// conversions, video instructions, the unmodelled ones...).
    pub unread: usize,
}

impl Analysis {
    pub fn witnesses(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| matches!(f.verdict, Verdict::Witness(_)))
            .count()
    }

    pub fn unknowns(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| matches!(f.verdict, Verdict::Unknown { .. }))
            .count()
    }
}

/// Why a kernel cannot be analysed.
#[derive(Debug)]
pub enum Error {
    Load(ptx_semantics::sim::LoadError),
}

impl std::error::Error for Error {}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Load(e) => write!(f, "{e}"),
        }
    }
}
