//! Undefined-behaviour preconditions as data: for each instruction form, the
//! conditions the spec puts on its operands and state ("otherwise the
//! behavior is undefined"), each with the sentence that says so.
//!
//! A condition is a small expression over 64-bit bit-vectors ([`Term`]) and
//! truth values ([`Cond`]). Its meaning is written once, in [`eval_term`] and
//! [`eval_cond`], over any [`Domain`]: the concrete domain ([`Concrete`],
//! `u64` and `bool`) is what the simulator checks every instruction with,
//! and `ptx-ub` gives the same functions a Z3 domain, so the simulator and
//! the solver read one definition and cannot drift apart. The window
//! predicates (`isspacep`) are conditions too ([`Cond::InSpace`]).
//!
//! Which forms have which preconditions is in [`table`].

mod concrete;
pub mod table;

pub use concrete::{check, holds, Concrete, Env};
pub use table::{for_row, Precondition, EXEMPT};

use crate::sim::space::Space;
use crate::sim::window::WindowProfile;

/// A named value a condition reads: an operand of the instruction, or the
/// executing thread's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Var {
    /// Operand `a` (for `cvta`, `isspacep`, `mapa`, `getctarank`: the
    /// address operand's value; for the mbarrier instructions: `count`,
    /// `txCount` or `phaseParity`).
    A,
    /// Operand `b` (`mapa`'s target rank).
    B,
    /// The effective address of a memory access (`[r+imm]` evaluated).
    Addr,
    /// A second effective address (`cp.async`'s and the bulk copies'
    /// source).
    Addr2,
    /// The address of an mbarrier object: the operand of the mbarrier
    /// instructions, `mbar` of the bulk copies and `st.async`.
    Mbar,
    /// Bytes the access must be aligned to (the access size).
    Size,
    /// `cp.async`'s `cp-size` (an immediate).
    CpSize,
    /// `cp.async`'s `src-size` operand (`cp-size` when absent).
    SrcSize,
    /// `shfl.sync`'s or `bar.warp.sync`'s `membermask`.
    Mask,
    /// `cp.async.bulk.multicast::cluster`'s 16-bit `ctaMask`.
    CtaMask,
    /// The generic address of a tensor copy's `tensorMap` operand.
    Map,
    /// `%laneid`.
    Lane,
    /// `%cluster_ctarank`.
    Rank,
    /// `%cluster_nctarank`.
    ClusterSize,
    /// Bytes of the kernel's parameters.
    ParamBytes,
    /// Bytes of the module's constant data.
    ConstBytes,
    /// One of a tensor copy's `tensorCoords` (a `.s32`, sign-extended to
    /// 64 bits).
    Coord,
    /// A tensor copy's box offset in bytes along dimension 0:
    /// `tensorCoords[0]` times the element size (a signed product, 64
    /// bits).
    BoxOffset,
    /// The rank of the tensor map a copy reads.
    MapRank,
    /// A tensor copy's `.dim`.
    Dim,
    /// An im2col map's Bounding Box along one spatial dimension: its
    /// lowest and highest coordinate, inclusive (signed, 64 bits).
    Lower,
    Upper,
    /// 1 when the tensor map a copy reads is a valid tensor-map object for
    /// the copy's mode, else 0.
    MapValid,
    /// 1 when `.redOp` and the map's element type are a combination of
    /// the table of PTX ISA 9.7.9.25.5.3, else 0.
    RedType,
}

impl Var {
    pub fn name(self) -> &'static str {
        match self {
            Var::A => "a",
            Var::B => "b",
            Var::Addr => "addr",
            Var::Addr2 => "src",
            Var::Mbar => "mbar",
            Var::Size => "size",
            Var::CpSize => "cp-size",
            Var::SrcSize => "src-size",
            Var::Mask => "membermask",
            Var::CtaMask => "ctaMask",
            Var::Map => "tensorMap",
            Var::Lane => "%laneid",
            Var::Rank => "%cluster_ctarank",
            Var::ClusterSize => "%cluster_nctarank",
            Var::ParamBytes => "param-bytes",
            Var::ConstBytes => "const-bytes",
            Var::Coord => "tensorCoords[i]",
            Var::BoxOffset => "box-offset",
            Var::MapRank => "map-rank",
            Var::Dim => ".dim",
            Var::Lower => "box-lower",
            Var::Upper => "box-upper",
            Var::MapValid => "map-valid",
            Var::RedType => "redop-type-valid",
        }
    }
}

/// A number of the window layout ([`WindowProfile`]): a constant of the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    SharedBase,
    SharedSize,
    /// `1 << rank_shift`: bytes of one CTA's part of the shared window.
    PartSize,
    RankShift,
    LocalBase,
    LocalSize,
    ConstBase,
    ParamBase,
    ParamSlack,
}

impl Field {
    pub fn value(self, p: &WindowProfile) -> u64 {
        match self {
            Field::SharedBase => p.shared_base,
            Field::SharedSize => p.shared_size,
            Field::PartSize => 1u64 << p.rank_shift,
            Field::RankShift => u64::from(p.rank_shift),
            Field::LocalBase => p.local_base,
            Field::LocalSize => p.local_size,
            Field::ConstBase => p.const_base,
            Field::ParamBase => p.param_base,
            Field::ParamSlack => p.param_slack,
        }
    }
}

/// A 64-bit bit-vector expression (arithmetic wraps, as on the machine).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    Lit(u64),
    Var(Var),
    Profile(Field),
    Add(&'static Term, &'static Term),
    Sub(&'static Term, &'static Term),
    And(&'static Term, &'static Term),
    /// Logical shift right.
    Shr(&'static Term, &'static Term),
}

/// A truth value over terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cond {
    True,
    /// Unsigned `<`.
    Ult(&'static Term, &'static Term),
    /// Unsigned `<=`.
    Ule(&'static Term, &'static Term),
    Eq(&'static Term, &'static Term),
    /// `x % n == 0` for a power of two `n` (`x & (n - 1) == 0`).
    Aligned(&'static Term, &'static Term),
    /// Bit `k` of `x` is set (`(x >> k) & 1 == 1`).
    Bit(&'static Term, &'static Term),
    /// The generic address falls in the state space's window: the meaning
    /// of `isspacep.space` (PTX ISA 9.7.9.19); see [`in_space`].
    InSpace(Space, &'static Term),
    Not(&'static Cond),
    All(&'static [Cond]),
    Any(&'static [Cond]),
}

/// The operations a domain interprets terms and conditions with: `u64` and
/// `bool` for the simulator, Z3 bit-vectors and Booleans for the solver.
pub trait Domain {
    type Bv: Clone;
    type Bool: Clone;
    fn lit(&self, v: u64) -> Self::Bv;
    fn var(&self, v: Var) -> Self::Bv;
    fn add(&self, a: &Self::Bv, b: &Self::Bv) -> Self::Bv;
    fn sub(&self, a: &Self::Bv, b: &Self::Bv) -> Self::Bv;
    fn and(&self, a: &Self::Bv, b: &Self::Bv) -> Self::Bv;
    fn shr(&self, a: &Self::Bv, b: &Self::Bv) -> Self::Bv;
    fn ult(&self, a: &Self::Bv, b: &Self::Bv) -> Self::Bool;
    fn eq(&self, a: &Self::Bv, b: &Self::Bv) -> Self::Bool;
    fn truth(&self, v: bool) -> Self::Bool;
    fn not(&self, a: &Self::Bool) -> Self::Bool;
    fn all(&self, xs: &[Self::Bool]) -> Self::Bool;
    fn any(&self, xs: &[Self::Bool]) -> Self::Bool;
}

/// The value of a term.
pub fn eval_term<D: Domain>(d: &D, p: &WindowProfile, t: &Term) -> D::Bv {
    match *t {
        Term::Lit(v) => d.lit(v),
        Term::Var(v) => d.var(v),
        Term::Profile(f) => d.lit(f.value(p)),
        Term::Add(a, b) => d.add(&eval_term(d, p, a), &eval_term(d, p, b)),
        Term::Sub(a, b) => d.sub(&eval_term(d, p, a), &eval_term(d, p, b)),
        Term::And(a, b) => d.and(&eval_term(d, p, a), &eval_term(d, p, b)),
        Term::Shr(a, b) => d.shr(&eval_term(d, p, a), &eval_term(d, p, b)),
    }
}

/// The value of a condition.
pub fn eval_cond<D: Domain>(d: &D, p: &WindowProfile, c: &Cond) -> D::Bool {
    match *c {
        Cond::True => d.truth(true),
        Cond::Ult(a, b) => d.ult(&eval_term(d, p, a), &eval_term(d, p, b)),
        Cond::Ule(a, b) => {
            let lt = d.ult(&eval_term(d, p, b), &eval_term(d, p, a));
            d.not(&lt)
        }
        Cond::Eq(a, b) => d.eq(&eval_term(d, p, a), &eval_term(d, p, b)),
        Cond::Aligned(x, n) => {
            let n = eval_term(d, p, n);
            let low = d.sub(&n, &d.lit(1));
            d.eq(&d.and(&eval_term(d, p, x), &low), &d.lit(0))
        }
        Cond::Bit(x, k) => {
            let shifted = d.shr(&eval_term(d, p, x), &eval_term(d, p, k));
            d.eq(&d.and(&shifted, &d.lit(1)), &d.lit(1))
        }
        Cond::InSpace(space, g) => in_space(d, p, space, &eval_term(d, p, g)),
        Cond::Not(a) => d.not(&eval_cond(d, p, a)),
        Cond::All(xs) => {
            let v: Vec<D::Bool> = xs.iter().map(|x| eval_cond(d, p, x)).collect();
            d.all(&v)
        }
        Cond::Any(xs) => {
            let v: Vec<D::Bool> = xs.iter().map(|x| eval_cond(d, p, x)).collect();
            d.any(&v)
        }
    }
}

/// `g - base < size`: `g` in the window `[base, base + size)`.
fn within<D: Domain>(d: &D, g: &D::Bv, base: u64, size: &D::Bv) -> D::Bool {
    d.ult(&d.sub(g, &d.lit(base)), size)
}

/// `isspacep.space` of generic address `g` (PTX ISA 9.7.9.19): "Write
/// predicate register `p` with `1` if generic address a falls within the
/// specified state space window and with `0` otherwise." The layout comes
/// from the profile; what it records:
/// - `.shared::cta` is the executing CTA's part of the shared window only
///   ("`isspacep.shared::cta` will return 1 only if the address is of a
///   variable declared in the executing CTA"), `.shared::cluster` the whole
///   shared window ("will return 1 for every shared memory address that is
///   accessible to the threads in the cluster").
/// - "`isspacep.global` returns `1` for Kernel Function Parameters as
///   `.param` window is contained within the `.global` window": the global
///   window is everything outside the shared, local and const windows. (The
///   spec does not say whether the const window is in the global window; on
///   the H200 `isspacep.global` is 0 there: see `window.rs`.)
pub fn in_space<D: Domain>(d: &D, p: &WindowProfile, space: Space, g: &D::Bv) -> D::Bool {
    let shared = || within(d, g, p.shared_base, &d.lit(p.shared_size));
    let local = || within(d, g, p.local_base, &d.lit(p.local_size));
    let constant = || within(d, g, p.const_base, &d.var(Var::ConstBytes));
    match space {
        Space::Global => {
            let outside = [d.not(&shared()), d.not(&local()), d.not(&constant())];
            d.all(&outside)
        }
        Space::SharedCta => {
            let s = d.sub(g, &d.lit(p.shared_base));
            let rank = d.shr(&s, &d.lit(u64::from(p.rank_shift)));
            let own = d.eq(&rank, &d.var(Var::Rank));
            d.all(&[shared(), own])
        }
        Space::SharedCluster => shared(),
        Space::Local => local(),
        Space::Const => constant(),
        Space::ParamEntry => {
            let size = d.add(&d.var(Var::ParamBytes), &d.lit(p.param_slack));
            within(d, g, p.param_base, &size)
        }
        Space::ParamFunc | Space::Generic => d.truth(false),
    }
}

#[cfg(test)]
mod tests;
