//! The syntax tree of a PTX litmus test: the init block, the threads with
//! their placement and code, and the final condition. Instructions are typed
//! here (strength, scope, proxy, operands); what they mean for the memory
//! model is left to `ptx-memmodel`.

use std::fmt;

/// One litmus test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Litmus {
    /// The name after `PTX` on the first line.
    pub name: String,
    /// The text between the name line and the init block (usually quoted
    /// comments), trimmed; it may not contain `{`.
    pub docs: String,
    /// The init block, in written order.
    pub init: Vec<Init>,
    pub threads: Vec<Thread>,
    pub condition: Condition,
}

/// An item of the init block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Init {
    /// `x = 0;`, or with a state space `shared x = 0;` (an extension; the
    /// default is global memory).
    Location {
        name: String,
        space: Space,
        value: i64,
        /// For shared memory, the CTA whose shared memory holds it:
        /// `shared(cta 1) x = 0;`. Without it, each access is to the
        /// accessing thread's own CTA.
        owner: Option<u32>,
    },
    /// `P1:r0 = 0;`
    Register {
        thread: u32,
        reg: String,
        value: i64,
    },
    /// `y @ generic aliases x;`: `y` is a virtual alias of `x`, accessed
    /// through `proxy` (PTX ISA 8.2.2, 8.6).
    Alias {
        name: String,
        proxy: AliasProxy,
        target: String,
    },
    /// `mbarrier bar = 2;` (an extension): an mbarrier object whose current
    /// phase expects 2 arrivals (PTX ISA 9.7.13.15). `mbarrier bar;`
    /// declares one left uninitialised, for `mbarrier.init` to set up.
    Mbarrier { name: String, count: Option<i64> },
}

/// The state space of a location (an extension; the Dat3M tests have only
/// global memory).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    Global,
    Shared,
}

/// The proxy named in an alias declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AliasProxy {
    Generic,
    Texture,
    Surface,
    Constant,
}

/// A thread: `P0@cta 0,gpu 0`, or with the extension `P0@cta 0,cluster 0,gpu 0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thread {
    pub id: u32,
    pub cta: u32,
    /// `None` when not written: the CTA is then a cluster of its own.
    pub cluster: Option<u32>,
    pub gpu: u32,
    pub code: Vec<Instr>,
}

/// Memory-ordering semantics written on an instruction (PTX ISA 8.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sem {
    Weak,
    Relaxed,
    Acquire,
    Release,
    AcqRel,
    Sc,
}

/// Scopes (PTX ISA 8.5). `Cluster` is an extension of the Dat3M format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    Cta,
    Cluster,
    Gpu,
    Sys,
}

/// How a load reaches memory: `ld`, `tld` (texture), `suld` (surface),
/// `cold` (constant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoadKind {
    Ld,
    Tld,
    Suld,
    Cold,
}

/// How a store, atomic or reduction reaches memory: generic (`st`, `atom`,
/// `red`) or surface (`sust`, `suatom`, `sured`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WriteKind {
    Generic,
    Surface,
}

/// Binary operations of atomics, reductions and local arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    And,
    Or,
    Xor,
    Min,
    Max,
}

/// Comparisons of branches and conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A register or an immediate.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    Reg(String),
    Imm(i64),
}

/// The read-modify-write of an `atom`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AtomOp {
    Bin(BinOp, Operand),
    Exch(Operand),
    /// `cas r, x, expected, new`
    Cas(Operand, Operand),
}

/// What a `fence.proxy` orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProxyFence {
    /// `fence.proxy.alias`: virtual aliases (PTX ISA 8.6).
    Alias,
    /// `fence.proxy.generic|texture|surface|constant` (the Dat3M forms).
    Proxy(AliasProxy),
    /// `fence.proxy.async{.global|.shared::cta|.shared::cluster}` (PTX ISA
    /// 9.7.13.4): between the generic and the async proxy, limited to a state
    /// space when one is named.
    Async(Option<AsyncSpace>),
    /// `fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster`
    /// and `fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster`:
    /// the uni-directional generic-to-async (release) or async-to-generic
    /// (acquire) proxy fences (PTX ISA 9.7.13.4).
    AsyncGeneric { release: bool, space: AsyncSpace },
    /// `fence.mbarrier_init.release.cluster`: orders prior `mbarrier.init`
    /// operations only (PTX ISA 9.7.13.4).
    MbarrierInit,
}

/// The state-space restriction of `fence.proxy.async`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AsyncSpace {
    Global,
    SharedCta,
    SharedCluster,
}

impl AsyncSpace {
    pub fn as_str(self) -> &'static str {
        match self {
            AsyncSpace::Global => "global",
            AsyncSpace::SharedCta => "shared::cta",
            AsyncSpace::SharedCluster => "shared::cluster",
        }
    }
}

/// How an asynchronous bulk copy signals completion (PTX ISA 9.7.9.25.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BulkCompletion {
    /// `.mbarrier::complete_tx::bytes` with the mbarrier operand; with
    /// `.multicast::cluster`, one mbarrier per destination CTA, written
    /// `bar0+bar1`.
    Mbarrier(Vec<String>),
    /// `.bulk_group`
    BulkGroup,
}

/// The tensor operand of a tensor copy (an extension): `map[t0+t1]`, the
/// tensor map `map`, read in the tensormap proxy ("The `tensorMap` is
/// accessed in tensormap proxy", PTX ISA 9.7.9.25.5.2), and the tensors in
/// global memory its value selects (0: `t0`, 1: `t1`, ...), standing for
/// the map's `.global_address` field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorRef {
    pub map: String,
    pub tensors: Vec<String>,
}

impl fmt::Display for TensorRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]", self.map, self.tensors.join("+"))
    }
}

/// One instruction of a thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Instr {
    /// `LC00:`
    Label(String),
    /// `ld.sem{.scope} r, x` (and `tld`, `suld`, `cold`).
    Load {
        kind: LoadKind,
        sem: Sem,
        scope: Option<Scope>,
        dst: String,
        loc: String,
    },
    /// `st.sem{.scope} x, v` (and `sust`).
    Store {
        kind: WriteKind,
        sem: Sem,
        scope: Option<Scope>,
        loc: String,
        value: Operand,
    },
    /// `atom.sem.scope.op r, x, v{, w}` (and `suatom`).
    Atom {
        kind: WriteKind,
        sem: Sem,
        scope: Scope,
        op: AtomOp,
        dst: String,
        loc: String,
    },
    /// `red.sem.scope.op x, v` (and `sured`).
    Red {
        kind: WriteKind,
        sem: Sem,
        scope: Scope,
        op: BinOp,
        loc: String,
        value: Operand,
    },
    /// Register arithmetic: `ld r, v` (a move) or `add r, a, b` and friends.
    Local {
        op: Option<BinOp>,
        dst: String,
        a: Operand,
        b: Option<Operand>,
    },
    /// `fence.sem.scope` with `sem` one of `acq_rel`, `sc`.
    Fence { sem: Sem, scope: Scope },
    /// `fence.proxy.KIND`
    ProxyFence(ProxyFence),
    /// `bar.cta.sync N{, id{, count}}` or `bar.cta.arrive N{, id{, count}}`:
    /// `N` names the barrier instance; `id` the logical barrier (PTX ISA
    /// 9.7.13.1).
    Barrier {
        arrive: bool,
        instance: i64,
        id: Option<Operand>,
        quorum: Option<Operand>,
    },
    /// `barrier.cluster.arrive{.release|.relaxed}` (an extension).
    ClusterArrive { sem: Sem },
    /// `barrier.cluster.wait{.acquire}` (an extension).
    ClusterWait,
    /// `beq a, b, LABEL` and friends.
    Branch {
        cond: CmpOp,
        a: Operand,
        b: Operand,
        target: String,
    },
    /// `goto LABEL`
    Goto(String),
    /// `cp.async.ca.shared.global dst, src, size` (an extension, PTX ISA
    /// 9.7.9.25.3.1); `cg` when `cache_global`.
    CpAsync {
        cache_global: bool,
        dst: String,
        src: String,
        size: i64,
    },
    /// `cp.async.commit_group`
    CpAsyncCommit,
    /// `cp.async.wait_group N`
    CpAsyncWaitGroup(i64),
    /// `cp.async.wait_all`
    CpAsyncWaitAll,
    /// `cp.async.bulk{.tensor.1d}.DST.SRC.COMPLETION dst, src, size{, mbar}`
    /// (an extension, PTX ISA 9.7.9.25.4): `dst_space` and `src_space` are
    /// the qualifiers as written (`shared::cluster`, `global`, ...).
    CpAsyncBulk {
        tensor: bool,
        dst_space: String,
        src_space: String,
        completion: BulkCompletion,
        /// The destination; with `.multicast::cluster` one per destination
        /// CTA, written `d0+d1` (PTX ISA: "the same CTA-relative offset as
        /// `dstMem` in the shared memory of each destination CTA").
        dst: Vec<String>,
        src: String,
        size: i64,
    },
    /// `cp.async.bulk.tensor.1d.DST.SRC.COMPLETION` with a tensor operand
    /// (an extension, PTX ISA 9.7.9.25.5.2): a load `d, map[t0+t1], size,
    /// mbar` (global to shared; with `.multicast::cluster` one destination
    /// and one mbarrier per CTA, `d0+d1`) or a store `map[t0+t1], s, size`
    /// (shared to global). The copy reads the map, then moves one value
    /// between the tensor the map selects and the shared operand.
    CpAsyncBulkTensor {
        dst_space: String,
        src_space: String,
        completion: BulkCompletion,
        tensor: TensorRef,
        /// The shared-memory side: the destinations of a load, or the one
        /// source of a store.
        shared: Vec<String>,
        size: i64,
    },
    /// `tensormap.replace.tile.FIELD{.global|.shared::cta}.b1024.TYPE map,
    /// {ord,} value` (an extension, PTX ISA 9.7.9.26): "treated as a weak
    /// memory operation, on the entire 1024-bit opaque tensor-map object".
    /// `TYPE` follows from the field (`.b64` for `.global_address` and
    /// `.global_stride`, else `.b32`).
    TensormapReplace {
        field: String,
        space: Option<String>,
        ord: Option<i64>,
        map: String,
        value: Operand,
    },
    /// `fence.proxy.tensormap::generic.release.SCOPE` and
    /// `fence.proxy.tensormap::generic.acquire.SCOPE addr, 128` (an
    /// extension, PTX ISA 9.7.13.4): uni-directional proxy fences from the
    /// generic proxy to the tensormap proxy; `addr` is written for the
    /// acquire form only.
    TensormapFence {
        sem: Sem,
        scope: Scope,
        addr: Option<String>,
    },
    /// `cp.reduce.async.bulk.DST.SRC.COMPLETION.OP.TYPE dst, src, size{, mbar}`
    /// (an extension, PTX ISA 9.7.9.25.4.2): `dst = dst OP src`, each
    /// reduction `.relaxed.gpu`.
    CpReduceAsyncBulk {
        dst_space: String,
        src_space: String,
        completion: BulkCompletion,
        op: BinOp,
        dst: String,
        src: String,
        size: i64,
    },
    /// `cp.async.mbarrier.arrive{.noinc}.shared::cta.b64 mbar` (an
    /// extension, PTX ISA 9.7.13.15): an arrive-on triggered when the
    /// thread's prior `cp.async` operations complete.
    CpAsyncMbarrierArrive { noinc: bool, mbar: String },
    /// `mbarrier.init.shared::cta.b64 mbar, count` (PTX ISA 9.7.13.15.9).
    MbarrierInit { mbar: String, count: i64 },
    /// `cp.async.bulk.commit_group`
    CpAsyncBulkCommit,
    /// `cp.async.bulk.wait_group{.read} N`
    CpAsyncBulkWaitGroup { read: bool, n: i64 },
    /// `st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 dst, v, mbar`
    /// (an extension, PTX ISA 9.7.9.12).
    StAsync {
        dst: String,
        value: Operand,
        mbar: String,
    },
    /// `mbarrier.arrive{.expect_tx}.sem.scope mbar{, tx}` (an extension, PTX
    /// ISA 9.7.13.15.13); `expect_tx` holds the byte count.
    MbarrierArrive {
        sem: Sem,
        scope: Scope,
        mbar: String,
        expect_tx: Option<i64>,
    },
    /// `mbarrier.try_wait.sem.scope r, mbar` or `test_wait` (an extension,
    /// PTX ISA 9.7.13.15.16): `r` is 1 when the current phase has completed.
    MbarrierTestWait {
        try_wait: bool,
        sem: Sem,
        scope: Scope,
        dst: String,
        mbar: String,
        /// `.parity` with the phase parity operand (0 or 1); without it the
        /// wait tests the phase of the thread's latest arrive on the
        /// mbarrier (its `state` operand), or the first phase.
        parity: Option<i64>,
    },
}

/// `exists`, `~exists` or `forall`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quantifier {
    Exists,
    NotExists,
    Forall,
}

/// The final condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    pub quantifier: Quantifier,
    pub expr: Expr,
}

/// A boolean expression over final register and memory values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    Not(Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Cmp(Value, CmpOp, Value),
}

/// A term of a condition.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// `P0:r1` (or `0:r1`).
    Reg {
        thread: u32,
        reg: String,
    },
    /// `x`: the final value of a location.
    Loc(String),
    Const(i64),
}

impl Litmus {
    /// The thread with this id, if declared.
    pub fn thread(&self, id: u32) -> Option<&Thread> {
        self.threads.iter().find(|t| t.id == id)
    }
}

impl Sem {
    pub fn as_str(self) -> &'static str {
        match self {
            Sem::Weak => "weak",
            Sem::Relaxed => "relaxed",
            Sem::Acquire => "acquire",
            Sem::Release => "release",
            Sem::AcqRel => "acq_rel",
            Sem::Sc => "sc",
        }
    }
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Cta => "cta",
            Scope::Cluster => "cluster",
            Scope::Gpu => "gpu",
            Scope::Sys => "sys",
        }
    }
}

impl BinOp {
    pub fn as_str(self) -> &'static str {
        match self {
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul => "mul",
            BinOp::Div => "div",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Xor => "xor",
            BinOp::Min => "min",
            BinOp::Max => "max",
        }
    }

    /// Applies the operation to 64-bit values, wrapping; `None` for a
    /// division by zero.
    pub fn apply(self, a: i64, b: i64) -> Option<i64> {
        Some(match self {
            BinOp::Add => a.wrapping_add(b),
            BinOp::Sub => a.wrapping_sub(b),
            BinOp::Mul => a.wrapping_mul(b),
            BinOp::Div => {
                if b == 0 {
                    return None;
                }
                a.wrapping_div(b)
            }
            BinOp::And => a & b,
            BinOp::Or => a | b,
            BinOp::Xor => a ^ b,
            BinOp::Min => a.min(b),
            BinOp::Max => a.max(b),
        })
    }
}

impl CmpOp {
    /// The branch mnemonic (`beq`...).
    pub fn branch_mnemonic(self) -> &'static str {
        match self {
            CmpOp::Eq => "beq",
            CmpOp::Ne => "bne",
            CmpOp::Lt => "blt",
            CmpOp::Le => "ble",
            CmpOp::Gt => "bgt",
            CmpOp::Ge => "bge",
        }
    }

    /// The operator in a condition (`==`...).
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }

    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }
}

impl AliasProxy {
    pub fn as_str(self) -> &'static str {
        match self {
            AliasProxy::Generic => "generic",
            AliasProxy::Texture => "texture",
            AliasProxy::Surface => "surface",
            AliasProxy::Constant => "constant",
        }
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Reg(r) => f.write_str(r),
            Operand::Imm(v) => write!(f, "{v}"),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Reg { thread, reg } => write!(f, "P{thread}:{reg}"),
            Value::Loc(l) => f.write_str(l),
            Value::Const(v) => write!(f, "{v}"),
        }
    }
}
