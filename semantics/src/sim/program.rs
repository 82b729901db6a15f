//! A kernel prepared for the interpreter: instructions decoded once into a
//! compact form (registers as slot numbers, qualifiers as enums, variable
//! addresses resolved), with the layout of its state spaces. The decoded
//! form is public so that other readers (the symbolic executor of
//! `ptx-ub`) walk the same instructions the interpreter runs.

use super::prmt::PrmtMode;
use super::shfl::ShflMode;
use super::space::Space;

/// A register slot: 64 bits per thread; `.b128` registers take two.
pub type Reg = u32;

/// Where an operand's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    Reg(Reg),
    /// A `.b128` register (two slots, low first).
    Reg128(Reg),
    Imm(u64),
    Sreg(Sreg),
    /// The shared-space address of a `.shared` variable: the executing
    /// CTA's part of the cluster's shared space plus this offset.
    SharedAddr(u64),
    /// A value the spec does not fix (a function's address).
    Unspecified,
}

/// Special registers (PTX ISA 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sreg {
    Tid(u8),
    Ntid(u8),
    Laneid,
    Warpid,
    Nwarpid,
    Ctaid(u8),
    Nctaid(u8),
    Smid,
    Nsmid,
    Gridid,
    LanemaskEq,
    LanemaskLe,
    LanemaskLt,
    LanemaskGe,
    LanemaskGt,
    ClusterCtarank,
    ClusterNctarank,
    ClusterCtaid(u8),
    ClusterNctaid(u8),
    Clusterid(u8),
    Nclusterid(u8),
    IsExplicitCluster,
    DynamicSmemSize,
    TotalSmemSize,
    /// `%clock`, `%clock64`, `%globaltimer`...: values the model does not fix.
    Volatile,
}

/// An integer operation's type: width and signedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntTy {
    pub bits: u8,
    pub signed: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    MulLo,
    MulHi,
    MulWide,
    Min,
    Max,
    Div,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Not,
    Cnot,
    Neg,
    Abs,
    Popc,
    Clz,
    Brev,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoolOp {
    And,
    Or,
    Xor,
}

/// A memory operation's ordering qualifiers (PTX ISA 9.7.9.8, 9.7.9.11),
/// kept for the rules that depend on the space an address resolves to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Weak,
    /// `.volatile`, `.relaxed`, `.acquire`, `.release`: "may be used only
    /// with .global and .shared spaces and with generic addressing, where
    /// the address points to .global or .shared space".
    Strong,
    /// `.mmio`: "may be used only with .global space and with generic
    /// addressing, where the address points to .global space".
    Mmio,
}

/// `ld`, `ldu`, `ld.global.nc` or `st`, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    pub space: Space,
    /// Bytes of one element.
    pub size: u8,
    pub signed: bool,
    /// The registers (or values, for `st`) of the vector, `None` for `_`.
    pub regs: Vec<Option<Src>>,
    /// Width in bits of each destination register (`ld`).
    pub reg_bits: Vec<u16>,
    pub addr: Addr,
    pub order: Order,
    /// A qualifier that needs the address to be in the global window
    /// (cache hints, prefetch sizes, eviction priorities, `.nc`, `ldu`,
    /// 256-bit vectors), with the rule that says so.
    pub global_only: Option<&'static crate::precond::Precondition>,
}

/// `[base + offset]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Addr {
    pub base: Src,
    pub offset: i64,
}

/// The kind of `createpolicy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// `createpolicy.fractional`: the fraction operand (an f32 register or
    /// immediate), or none (1.0).
    Fractional(Option<Src>),
    /// `createpolicy.range{.global}`: address, primary size, total size.
    Range {
        addr: Addr,
        space: Space,
        primary: Src,
        total: Src,
    },
    /// `createpolicy.cvt`: from a CUDA access property.
    Cvt(Src),
}

/// `multimem` operation and element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MultimemOp {
    LdReduce(RedOp),
    St,
    Red(RedOp),
}

/// The operation of `atom`/`red` (PTX ISA 9.7.13): one of
/// the reductions it shares with `cp.reduce.async.bulk`, `.exch` or `.cas`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomOp {
    Reduce(super::reduce::BulkRedOp),
    Exch,
    Cas,
}

/// `atom` or `red` (PTX ISA 9.7.13.5, 9.7.13.6): an indivisible
/// read-modify-write of each element at `acc` (whose `regs` holds one
/// `None` per register of the vector, `acc.size` bytes each, so that the
/// whole vector is checked and resolved as `ld`/`st` check and resolve
/// theirs).
#[derive(Clone, Debug, PartialEq)]
pub struct Atomic {
    pub op: AtomOp,
    /// The element type of a reduction (`.f16`/`.bf16` for the packed
    /// `.f16x2`/`.bf16x2`). `.exch` and `.cas` only move bits: their width
    /// is `acc.size`'s (2 for `.b16`, 16 for `.b128`).
    pub ty: super::reduce::BulkRedType,
    /// `.f16x2`/`.bf16x2`: each register holds two elements of `ty`, the
    /// low half first.
    pub packed: bool,
    /// `atom` (true) or `red`.
    pub returns: bool,
    /// The registers that receive the old values (`atom`), one per
    /// register of the vector; empty for `red`. A `.b128` register takes
    /// two slots.
    pub d: Vec<Reg>,
    /// Operand `b`, one per register of the vector.
    pub b: Vec<Src>,
    /// The new value of `.cas` (`Src::Imm(0)` otherwise).
    pub c: Src,
    pub acc: Access,
}

impl Atomic {
    /// Bytes the instruction reads and writes: the vector's size, which
    /// is also its alignment (PTX ISA 6.4.1).
    pub fn bytes(&self) -> u64 {
        u64::from(self.acc.size) * self.acc.regs.len() as u64
    }

    /// Whether it has a vector qualifier (`.v2`, `.v4`, `.v8`).
    pub fn is_vector(&self) -> bool {
        self.acc.regs.len() > 1
    }
}

/// The reduction of `bar{.cta}.red` / `barrier{.cta}.red` (PTX ISA
/// 9.7.13.1): "population-count (`.popc`), all-threads-True (`.and`), and
/// any-thread-True (`.or`)".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarRedOp {
    Popc,
    And,
    Or,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedOp {
    Add,
    Min,
    Max,
    And,
    Or,
    Xor,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// `mov` of a register, immediate or special register; `bits` is the
    /// destination width (1 for a predicate).
    Mov {
        d: Reg,
        a: Src,
        bits: u16,
    },
    /// `.b128` register to register or immediate.
    Mov128 {
        d: Reg,
        a: Src,
    },
    /// Packing `mov` (PTX ISA 9.7.9.4).
    Pack {
        d: Reg,
        width: u32,
        elems: Vec<Src>,
    },
    /// Unpacking `mov`; `None` for the sink `_`.
    Unpack {
        d: Vec<Option<Reg>>,
        width: u32,
        a: Src,
    },
    Bin {
        op: BinOp,
        ty: IntTy,
        d: Reg,
        a: Src,
        b: Src,
    },
    Un {
        op: UnOp,
        ty: IntTy,
        d: Reg,
        a: Src,
    },
    /// `mad.lo/.hi/.wide`: `op` is `MulLo`, `MulHi` or `MulWide`.
    Mad {
        op: BinOp,
        ty: IntTy,
        d: Reg,
        a: Src,
        b: Src,
        c: Src,
    },
    Setp {
        cmp: Cmp,
        ty: IntTy,
        /// `.lo .ls .hi .hs` compare unsigned whatever `ty` says.
        unsigned: bool,
        p: Option<Reg>,
        q: Option<Reg>,
        a: Src,
        b: Src,
        /// `setp.cmp.bool`: combine with predicate `c` (negated when set).
        combine: Option<(BoolOp, Src, bool)>,
    },
    Selp {
        d: Reg,
        a: Src,
        b: Src,
        c: Src,
        bits: u16,
    },
    Slct {
        d: Reg,
        a: Src,
        b: Src,
        c: Src,
        bits: u16,
        float_c: bool,
        /// `slct.ftz`: a subnormal `c` counts as a zero of its sign.
        ftz: bool,
    },
    Pred {
        op: BoolOp,
        d: Reg,
        a: Src,
        b: Src,
    },
    PredNot {
        d: Reg,
        a: Src,
    },
    /// `cvt` and `cvt.pack` (PTX ISA 9.7.9.21, 9.7.9.22): the conversion
    /// semantics of `crate::cvt`, the destination extended to its
    /// register's width.
    Convert {
        conv: Box<crate::cvt::Conversion>,
        d: Reg,
        srcs: Vec<Src>,
        reg_bits: u16,
    },
    Bfe {
        d: Reg,
        a: Src,
        pos: Src,
        len: Src,
        ty: IntTy,
    },
    /// An integer, logic, floating-point or comparison instruction run
    /// through `crate::arith` (PTX ISA 9.7.1-9.7.4, 9.7.7, 9.7.8).
    Arith(Box<super::arith::ArithInstr>),
    /// `set`, `slct`, the video instructions and the packed integer forms
    /// (PTX ISA 9.7.7.1, 9.7.7.4, 9.7.10, 9.7.11, 9.7.1), run through
    /// `crate::arith::video`.
    Video(Box<super::video::VideoInstr>),
    Prmt {
        d: Reg,
        a: Src,
        b: Src,
        c: Src,
        mode: Option<PrmtMode>,
    },
    Shfl {
        d: Reg,
        p: Option<Reg>,
        a: Src,
        b: Src,
        c: Src,
        /// `None` for the deprecated `shfl`.
        mask: Option<Src>,
        mode: ShflMode,
    },
    Ld(Box<Access>),
    St(Box<Access>),
    Cvta {
        d: Reg,
        a: Src,
        space: Space,
        to: bool,
        wide: bool,
    },
    Isspacep {
        p: Reg,
        a: Src,
        space: Space,
    },
    Mapa {
        d: Reg,
        a: Src,
        b: Src,
        generic: bool,
        wide: bool,
    },
    Getctarank {
        d: Reg,
        a: Src,
        generic: bool,
    },
    /// `prefetch`, `prefetchu`: the address is evaluated, nothing else.
    Prefetch {
        addr: Addr,
        space: Space,
        uniform: bool,
    },
    /// `applypriority` (`discard: false`) or `discard` (`true`) over
    /// `[a, a + size)`.
    CacheRange {
        addr: Addr,
        space: Space,
        size: u64,
        discard: bool,
    },
    Createpolicy {
        d: Reg,
        policy: Policy,
    },
    /// `atom`, `red` (PTX ISA 9.7.13).
    Atom(Box<Atomic>),
    /// `multimem.ld_reduce`, `.st`, `.red` (PTX ISA 9.7.9.14): `regs`
    /// holds one register per vector element (`.v2/.v4/.v8`), each `ty`
    /// wide; `fmt` is the float format of `.f16 .bf16 .f32 .f64` (`packed`
    /// for `.f16x2`/`.bf16x2`, two 16-bit elements per register).
    Multimem {
        op: MultimemOp,
        ty: IntTy,
        float: bool,
        regs: Vec<Option<Src>>,
        addr: Addr,
        fmt: Option<crate::sim::reduce::BulkRedType>,
        packed: bool,
    },
    /// `cp.async.ca/.cg.shared{::cta}.global [dst], [src], cp-size{,
    /// src-size}{, ignore-src}` (PTX ISA 9.7.9.25.3.1). The interpreter
    /// copies at once (completing early is one allowed behaviour of an
    /// asynchronous copy: the wait instructions then have nothing to do).
    CpAsync {
        dst: Addr,
        src: Addr,
        cp_size: u8,
        /// `src-size` (`None`: `cp-size`).
        src_size: Option<Src>,
        /// `ignore-src` (a predicate, negated when written `!p`).
        ignore_src: Option<(Src, bool)>,
    },
    /// The asynchronous instructions and the mbarrier object they complete
    /// through (PTX ISA 9.7.9.12, 9.7.9.13, 9.7.9.25, 9.7.13.15).
    Async(Box<AsyncInstr>),
    /// An instruction the interpreter does not model, kept by the lenient
    /// decoding of [`crate::sim::prepare_lenient`]: its destination
    /// registers (the first operand's) get values nobody knows.
    Opaque {
        dests: Vec<Reg>,
    },
    Bra {
        target: u32,
    },
    /// `call` (PTX ISA 9.7.12.5).
    Call(Box<Call>),
    /// `ret` in a device function (PTX ISA 9.7.12.6); a kernel's `ret` is
    /// [`Op::Exit`].
    Ret,
    Exit,
    BarSync {
        id: Src,
        count: Option<Src>,
    },
    /// `bar{.cta}.red.popc.u32 d, a{, b}, {!}c` and
    /// `bar{.cta}.red.{and,or}.pred p, a{, b}, {!}c` (and the
    /// `barrier{.cta}.red` spellings; PTX ISA 9.7.13.1): a `bar.sync` that
    /// also combines predicate `c` (negated when `negate`) of every
    /// participating thread and gives the result to each of them.
    BarRed {
        op: BarRedOp,
        d: Reg,
        id: Src,
        count: Option<Src>,
        c: Src,
        negate: bool,
    },
    /// `bar.arrive a, b` (PTX ISA 9.7.13.1): counts the thread at barrier
    /// `a` of `b` threads without waiting.
    BarArrive {
        id: Src,
        count: Src,
    },
    /// `trap` (PTX ISA 9.7.17): "Abort execution and generate an interrupt
    /// to the host CPU": the thread stops with a [`StopKind::Trap`]
    /// report.
    ///
    /// [`StopKind::Trap`]: crate::sim::StopKind::Trap
    Trap,
    WarpSync {
        mask: Src,
    },
    /// `activemask.b32 d` (PTX ISA 9.7.13): "An active thread will
    /// contribute 1 for its entry in the result and exited or inactive or
    /// predicated-off thread will contribute 0".
    Activemask {
        d: Reg,
    },
    /// `vote.sync`, `redux.sync`, `elect.sync` (PTX ISA 9.7.13): functions
    /// of the lanes of `mask`, waited for like `shfl.sync`'s.
    Warp {
        op: super::vote::WarpOp,
        /// `d` (a predicate for `vote.sync.{all,any,uni}`); `None` for
        /// the sink `_`.
        d: Option<Reg>,
        /// `elect.sync`'s `p`.
        p: Option<Reg>,
        /// The source (`Src::Imm(0)` for `elect.sync`), negated when
        /// `negate` (`vote.sync`'s `!a`).
        a: Src,
        negate: bool,
        mask: Src,
    },
    ClusterArrive,
    ClusterWait,
    /// `fence`/`membar` (not the proxy fences): orders memory only, which
    /// one interleaving does not need; the race check counts it as a
    /// synchronising step.
    Fence,
    Nop,
}

/// What an mbarrier instruction does (PTX ISA 9.7.13.15).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MbarKind {
    /// `mbarrier.arrive`: with `drop` `arrive_drop`; `tx` present for
    /// `.expect_tx`.
    Arrive {
        drop: bool,
        no_complete: bool,
    },
    ExpectTx,
    CompleteTx,
}

/// An asynchronous instruction or an mbarrier instruction, decoded.
#[derive(Clone, Debug, PartialEq)]
pub enum AsyncInstr {
    /// `mbarrier.init [addr], count`.
    MbarInit {
        addr: Addr,
        space: Space,
        count: Src,
    },
    /// `mbarrier.inval [addr]`.
    MbarInval { addr: Addr, space: Space },
    /// `mbarrier.arrive{.expect_tx}`, `arrive_drop`, `expect_tx`,
    /// `complete_tx`; `d` receives the state (`None` for `_` or none).
    MbarUpdate {
        kind: MbarKind,
        d: Option<Reg>,
        addr: Addr,
        space: Space,
        count: Option<Src>,
        tx: Option<Src>,
    },
    /// `mbarrier.test_wait` / `try_wait` (`blocking`), with a state or
    /// (`parity`) a phase parity.
    MbarWait {
        d: Reg,
        addr: Addr,
        space: Space,
        token: Src,
        parity: bool,
        blocking: bool,
    },
    /// `mbarrier.pending_count d, state`.
    MbarPendingCount { d: Reg, state: Src },
    /// `cp.async.mbarrier.arrive{.noinc}`.
    CpAsyncArrive {
        addr: Addr,
        space: Space,
        noinc: bool,
    },
    /// `cp.async.bulk` and `cp.reduce.async.bulk` (PTX ISA 9.7.9.25.4).
    Bulk {
        dst: Addr,
        dst_space: Space,
        src: Addr,
        src_space: Space,
        size: Src,
        /// The mbarrier of `.mbarrier::complete_tx::bytes`; `None` for
        /// `.bulk_group`.
        mbar: Option<Addr>,
        /// `.multicast::cluster`'s `ctaMask`.
        cta_mask: Option<Src>,
        /// `.cp_mask`'s `byteMask`.
        byte_mask: Option<Src>,
        reduce: Option<(
            crate::sim::reduce::BulkRedOp,
            crate::sim::reduce::BulkRedType,
            bool,
        )>,
        /// The form's preconditions (size, alignment, own CTA).
        pre: &'static [&'static crate::precond::Precondition],
    },
    /// `cp.async.bulk.prefetch.L2.global [addr], size`.
    BulkPrefetch { addr: Addr, size: Src },
    /// `cp.async.bulk.commit_group`.
    BulkCommit,
    /// `cp.async.bulk.wait_group{.read} n`.
    BulkWait { n: u32, read: bool },
    /// `cp.async.commit_group`.
    CpCommit,
    /// `cp.async.wait_group n`; `cp.async.wait_all` is a commit and
    /// `wait_group 0` (`all`).
    CpWait { n: u32, all: bool },
    /// `st.async.weak...mbarrier::complete_tx::bytes [a], b, [mbar]`:
    /// `elem` bytes per value.
    StAsync {
        addr: Addr,
        space: Space,
        elem: u8,
        srcs: Vec<Src>,
        mbar: Addr,
    },
    /// `red.async.relaxed.cluster{.shared::cluster}.mbarrier::complete_tx::bytes.op.type
    /// [a], b, [mbar]` (PTX ISA 9.7.13.7): one element of `op`/`ty`
    /// reduced into `a` asynchronously, completing `elem` bytes on `mbar`.
    RedAsync {
        addr: Addr,
        space: Space,
        op: crate::sim::reduce::BulkRedOp,
        ty: crate::sim::reduce::BulkRedType,
        src: Src,
        mbar: Addr,
    },
    /// `st.bulk [a], size, 0`.
    StBulk { addr: Addr, space: Space, size: Src },
    /// `fence.proxy.async{.space}` (`None`: every space).
    FenceProxyAsync { space: Option<Space> },
    /// `cp.async.bulk.tensor`, `cp.reduce.async.bulk.tensor`,
    /// `cp.async.bulk.prefetch.tensor` (PTX ISA 9.7.9.25.5).
    Tensor(TensorInstr),
    /// `tensormap.replace.tile.field{.ss}.b1024.type [addr], {ord,} new_val`
    /// (PTX ISA 9.7.9.26).
    TensormapReplace {
        addr: Addr,
        space: Space,
        /// The field qualifier (`.box_dim`, ...).
        field: String,
        ord: u32,
        value: Src,
    },
    /// `fence.proxy.tensormap::generic.{release,acquire}` (the tensormap
    /// proxy's fence; PTX ISA 9.7.13.4).
    FenceProxyTensormap,
}

/// Which way a tensor instruction moves data.
#[derive(Clone, Debug, PartialEq)]
pub enum TensorDir {
    /// global -> shared: into `dst` (`.shared::cta` or `.shared::cluster`),
    /// completing on `mbar`; `cta_mask` for `.multicast::cluster`.
    Load {
        dst: Addr,
        dst_space: Space,
        mbar: Addr,
        cta_mask: Option<Src>,
        /// `.cta_group::2`: the mbarrier may be the peer-CTA's.
        cta_pair: bool,
    },
    /// shared::cta -> global, `.bulk_group`; with `reduce`, the
    /// `cp.reduce.async.bulk.tensor` operation.
    Store {
        src: Addr,
        reduce: Option<crate::sim::reduce::BulkRedOp>,
    },
    /// `cp.async.bulk.prefetch.tensor`: no memory effect.
    Prefetch,
}

/// A decoded tensor copy.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorInstr {
    pub dir: TensorDir,
    /// The `.dim` (number of coordinates).
    pub dim: u32,
    /// `.im2col` (with the offsets operand `im2colInfo`) rather than `.tile`.
    pub im2col: bool,
    /// `.tile::gather4` or `.tile::scatter4` (`coords` are `{col_idx,
    /// row_idx0, .., row_idx3}`).
    pub rows4: bool,
    /// `.im2col::w` (`Some(false)`) or `.im2col::w::128` (`Some(true)`):
    /// `offsets` are `{wHalo, wOffset}`.
    pub im2col_w: Option<bool>,
    /// The generic address of the tensor map.
    pub map: Addr,
    pub coords: Vec<Src>,
    pub offsets: Vec<Src>,
}

/// Where a call's argument or return value lives in the caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actual {
    /// A `.param` variable of the caller: its offset in the thread's local
    /// frame (where the model keeps `.param::func` variables) and its size.
    Param { offset: u64, size: u64 },
    /// A register (`bits` wide; `.b128` takes two slots).
    Reg { slot: Reg, bits: u16 },
    /// An immediate argument.
    Imm(u64),
    /// `_`: a return value nobody reads.
    Sink,
}

/// A function's formal parameter or return parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Formal {
    /// A `.param` parameter at this offset of the local frame.
    Param { offset: u64, size: u64 },
    /// A `.reg` parameter of an old-style function.
    Reg { slot: Reg, bits: u16 },
}

impl Formal {
    /// Bytes the parameter holds.
    pub fn bytes(self) -> u64 {
        match self {
            Formal::Param { size, .. } => size,
            Formal::Reg { bits, .. } => u64::from(bits).div_ceil(8),
        }
    }
}

/// What a `call` calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Callee {
    /// A function by name: its index in [`Program::functions`].
    Direct(u32),
    /// A function pointer in a register, with a prototype or a list of
    /// targets (the model resolves the pointer among every function's
    /// address).
    Indirect(Src),
}

/// A decoded `call`: "Arguments are pass-by-value" (PTX ISA 9.7.12.5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub callee: Callee,
    pub rets: Vec<Actual>,
    pub args: Vec<Actual>,
}

/// The first address the model gives a function (`mov.u64 d, fname`):
/// under 2^32, so that `mov.u32 d, fname` holds the same address; far
/// from every window and the heap, so that data accesses through it are
/// outside every object.
pub const FUNCTION_BASE: u64 = 0x0100_0000;
/// Bytes between two functions' addresses.
pub const FUNCTION_STRIDE: u64 = 0x100;

/// A `.func` of the module the kernel may reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    pub name: String,
    /// Its address: [`FUNCTION_BASE`] plus a multiple of
    /// [`FUNCTION_STRIDE`].
    pub addr: u64,
    /// Its first instruction; `None` for a declaration with no body (an
    /// external function, such as the CUDA runtime's `vprintf`).
    pub entry: Option<u32>,
    /// Its register slots `[lo, hi)`: saved and restored around each call,
    /// so that every activation has registers of its own.
    pub slots: (u32, u32),
    /// Its `.param` and `.local` bytes in the local frame `[lo, hi)`, saved
    /// and restored the same way.
    pub frame: (u64, u64),
    pub params: Vec<Formal>,
    pub returns: Vec<Formal>,
}

/// An instruction with its guard (`@p` / `@!p`).
#[derive(Clone, Debug, PartialEq)]
pub struct Instr {
    pub guard: Option<(Reg, bool)>,
    pub op: Op,
}

/// A kernel parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamInfo {
    pub name: String,
    /// Offset in the kernel's parameter space.
    pub offset: u64,
    pub size: u64,
}

/// A module-scope `.global` variable, placed by the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GlobalVar {
    pub name: String,
    pub addr: u64,
    pub init: Vec<u8>,
}

/// A kernel ready to run.
#[derive(Clone, Debug)]
pub struct Program {
    pub kernel: String,
    pub(crate) code: Vec<Instr>,
    /// Per instruction: its text and byte offset in the source.
    pub(crate) text: Vec<(String, u32)>,
    pub(crate) slots: u32,
    pub params: Vec<ParamInfo>,
    pub param_bytes: u64,
    /// Offset in a CTA's shared part just past the static variables.
    pub(crate) shared_end: u64,
    /// Bytes of `.local` variables per thread, and their first local
    /// address.
    pub(crate) local_bytes: u64,
    pub(crate) local_frame: u64,
    /// The module's constant bank.
    pub(crate) consts: Vec<u8>,
    pub(crate) globals: Vec<GlobalVar>,
    /// The module's `.const` variables: `addr` their offset in `consts`.
    pub(crate) const_vars: Vec<GlobalVar>,
    /// The module's device functions the kernel may reach.
    pub(crate) functions: Vec<Function>,
    /// `.reqnctapercluster` (or `.explicitcluster` with no size: `None`).
    pub cluster_dims: Option<[u32; 3]>,
    /// Whether the kernel declares a `.shared` array of no size: its
    /// bytes are the launch's dynamic shared memory.
    pub dynamic_shared: bool,
    pub explicit_cluster: bool,
}

impl Program {
    /// The decoded instructions: the kernel's, ending in the `exit` of a
    /// kernel that falls off its end, then each device function's.
    pub fn code(&self) -> &[Instr] {
        &self.code
    }

    /// Instruction `pc` as text, and its byte offset in the source.
    pub fn text(&self, pc: usize) -> Option<(&str, u32)> {
        self.text.get(pc).map(|(t, o)| (t.as_str(), *o))
    }

    /// The device functions the kernel may reach, in [`Callee::Direct`]'s
    /// numbering.
    pub fn functions(&self) -> &[Function] {
        &self.functions
    }

    /// Register slots per thread.
    pub fn slots(&self) -> u32 {
        self.slots
    }

    /// The address of a thread's first local byte: a `.param::func` or
    /// `.local` access at `a` reaches byte `a - local_frame()` of the
    /// thread's frame, where [`Formal::Param`] and [`Actual::Param`] count
    /// their offsets from.
    pub fn local_frame(&self) -> u64 {
        self.local_frame
    }

    /// The end of the module's global variables in the global window (the
    /// simulator places them from the heap's start), or `None` when it has
    /// none.
    pub fn globals_end(&self) -> Option<u64> {
        self.globals
            .iter()
            .map(|g| g.addr + g.init.len() as u64)
            .max()
    }

    /// Bytes of the CTA's shared part up to the end of its static
    /// variables (the reserved bytes included).
    pub fn static_shared_end(&self) -> u64 {
        self.shared_end
    }

    /// Bytes of the module's constant data.
    pub fn const_bytes(&self) -> u64 {
        self.consts.len() as u64
    }

    /// Number of decoded instructions.
    pub fn len(&self) -> usize {
        self.code.len()
    }

    pub fn is_empty(&self) -> bool {
        self.code.is_empty()
    }
}
