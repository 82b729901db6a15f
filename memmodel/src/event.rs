//! Events: what one instruction contributes to an execution (PTX ISA 8.4,
//! Operation types). A load gives a read, a store a write, an atomic a read
//! and a write tied by `rmw`, a fence or barrier one fence event; the
//! asynchronous copies give events that the issuing thread performs outside
//! program order (PTX ISA 8.9.1.1).

pub use ptx_litmus::{AsyncSpace, Scope, Sem, Space};

/// A memory proxy (PTX ISA 8.6): the method by which an operation reaches memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Proxy {
    Generic,
    Texture,
    Surface,
    Constant,
    /// The asynchronous proxy of bulk copies (PTX ISA 9.7.9.25.2).
    Async,
    /// The tensormap proxy: "The `tensorMap` is accessed in tensormap
    /// proxy" (PTX ISA 9.7.9.25.5.2).
    Tensormap,
}

impl Proxy {
    pub fn as_str(self) -> &'static str {
        match self {
            Proxy::Generic => "generic",
            Proxy::Texture => "texture",
            Proxy::Surface => "surface",
            Proxy::Constant => "constant",
            Proxy::Async => "async",
            Proxy::Tensormap => "tensormap",
        }
    }
}

/// What an event is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The hypothetical initial write of a location (PTX ISA 8.2.6).
    Init,
    Read,
    Write,
    /// `fence.sc` or `fence.acq_rel`.
    MemoryFence,
    /// `fence.proxy.{generic,texture,surface,constant,async}`; for the async
    /// proxy, `space` limits it to one state space, and `direction` makes it
    /// uni-directional (`fence.proxy.async::generic.{release,acquire}`,
    /// and both `fence.proxy.tensormap::generic` forms, which order the
    /// generic proxy before the tensormap proxy). `range` is the location
    /// of the `[addr], size` operands
    /// (`fence.proxy.tensormap::generic.acquire`): the fence orders
    /// accesses to it only.
    ProxyFence {
        space: Option<AsyncSpace>,
        direction: Option<Direction>,
        range: Option<usize>,
    },
    /// `fence.mbarrier_init.release.cluster`: a release fence for prior
    /// `mbarrier.init` operations only.
    MbarrierInitFence,
    /// `fence.proxy.alias`
    AliasFence,
    /// The implicit generic-async proxy fence that follows the completion of
    /// a bulk copy (PTX ISA 9.7.9.25.2).
    BulkCompletion,
    /// `bar.cta.sync` or `bar.cta.arrive`.
    Barrier(Barrier),
    /// `cp.async.wait_group`, `cp.async.wait_all`, `cp.async.bulk.wait_group`.
    AsyncWait,
    /// An arrive-on of `count` (negative: the pending count grows, as
    /// `cp.async.mbarrier.arrive` does at issue), after an expect-tx of `tx`
    /// bytes (`mbarrier.arrive.expect_tx`). The shapes built: count 1 with
    /// any `tx` (`mbarrier.arrive{.expect_tx}`, or with tx 0 the
    /// asynchronous arrive-on of `cp.async.mbarrier.arrive`), count -1 with
    /// tx 0 (the increment), count 0 with `tx` (a standalone expect-tx);
    /// `barrier::op_of` maps them onto `ptx_semantics::mbarrier::Op`.
    MbarrierArrive {
        mbar: usize,
        tx: i64,
        count: i64,
    },
    /// `mbarrier.init` with the expected arrival count.
    MbarrierInit {
        mbar: usize,
        count: i64,
    },
    /// A complete-tx of `bytes` on an mbarrier, performed when an
    /// asynchronous copy completes.
    CompleteTx {
        mbar: usize,
        bytes: i64,
    },
    /// `mbarrier.try_wait` / `test_wait`; `done` is the value it returned,
    /// `parity` the phase parity operand of the `.parity` form.
    MbarrierWait {
        mbar: usize,
        done: bool,
        parity: Option<i64>,
    },
    ClusterArrive,
    ClusterWait,
}

/// Which way a uni-directional proxy fence orders, named after the
/// `fence.proxy.async::generic` forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Generic-proxy operations before it, operations of the fence's proxy
    /// (async, tensormap) after.
    Release,
    /// Operations of the fence's proxy before it, generic-proxy operations
    /// after.
    Acquire,
}

/// The barrier operands of one `bar.cta` event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Barrier {
    pub arrive: bool,
    pub instance: i64,
    /// The logical barrier, for the named form `bar.cta.sync N, id{, count}`.
    pub id: Option<i64>,
    /// Whether `id` was an immediate.
    pub id_literal: bool,
    pub quorum: Option<i64>,
}

/// One event of an execution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The thread, or `None` for an initial write.
    pub thread: Option<u32>,
    /// The index of the instruction in its thread's code.
    pub pc: Option<usize>,
    pub kind: Kind,
    /// The location (an index into the program's locations) of a memory event.
    pub loc: Option<usize>,
    /// The value read or written.
    pub value: i64,
    pub sem: Sem,
    pub scope: Option<Scope>,
    pub proxy: Option<Proxy>,
    /// Performed asynchronously: not in program order (PTX ISA 8.9.1.1).
    pub is_async: bool,
    /// Part of an atomic read-modify-write.
    pub rmw: bool,
    /// The CTA `(gpu, cluster, cta)` the event is performed in, when not its
    /// thread's: an asynchronous copy into another CTA's shared memory.
    pub place: Option<(u32, u32, u32)>,
}

impl Event {
    pub fn is_read(&self) -> bool {
        self.kind == Kind::Read
    }

    pub fn is_write(&self) -> bool {
        matches!(self.kind, Kind::Write | Kind::Init)
    }

    pub fn is_memory(&self) -> bool {
        self.is_read() || self.is_write()
    }

    /// The mbarrier an event operates on.
    pub fn mbarrier(&self) -> Option<usize> {
        match self.kind {
            Kind::MbarrierArrive { mbar, .. }
            | Kind::MbarrierInit { mbar, .. }
            | Kind::CompleteTx { mbar, .. }
            | Kind::MbarrierWait { mbar, .. } => Some(mbar),
            _ => None,
        }
    }

    /// Arrive-on and complete-tx operations, and `barrier.cluster.arrive`:
    /// for the release and acquire patterns of PTX ISA 8.8 they are strong
    /// writes to the barrier object (`mbarrier.arrive.release [M]` is a
    /// release pattern there).
    pub fn is_barrier_write(&self) -> bool {
        matches!(
            self.kind,
            Kind::MbarrierArrive { .. } | Kind::CompleteTx { .. } | Kind::ClusterArrive
        )
    }

    /// Waits on an mbarrier or a cluster barrier: strong reads of the
    /// barrier object for the acquire patterns (`mbarrier.test_wait.acquire
    /// [M]` is an acquire pattern in PTX ISA 8.8).
    pub fn is_barrier_read(&self) -> bool {
        matches!(self.kind, Kind::MbarrierWait { .. } | Kind::ClusterWait)
    }

    /// The fences of the model's `F` set: memory fences, proxy fences, the
    /// implicit fence of a bulk completion, and CTA barriers.
    pub fn is_fence(&self) -> bool {
        matches!(
            self.kind,
            Kind::MemoryFence
                | Kind::ProxyFence { .. }
                | Kind::AliasFence
                | Kind::BulkCompletion
                | Kind::Barrier(_)
                | Kind::MbarrierInitFence
        )
    }
}
