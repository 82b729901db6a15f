//! The concrete domain: conditions evaluated over `u64` and `bool`, as the
//! simulator checks them for each executing thread.

use super::table::Precondition;
use super::{eval_cond, Cond, Domain, Var};
use crate::sim::undefined::Undefined;
use crate::sim::window::{Place, WindowProfile};

/// The values of the [`Var`]s for one execution of one instruction; a var
/// an instruction does not have reads 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Env {
    pub a: u64,
    pub b: u64,
    pub addr: u64,
    pub addr2: u64,
    pub mbar: u64,
    pub size: u64,
    pub cp_size: u64,
    pub src_size: u64,
    pub mask: u64,
    pub cta_mask: u64,
    pub map: u64,
    pub lane: u64,
    pub rank: u64,
    pub cluster_size: u64,
    pub param_bytes: u64,
    pub const_bytes: u64,
    pub coord: u64,
    pub box_offset: u64,
    pub map_rank: u64,
    pub dim: u64,
    pub lower: u64,
    pub upper: u64,
    pub map_valid: u64,
    pub red_type: u64,
}

impl Env {
    /// The thread's place in its cluster and the sizes of its spaces.
    pub fn at(place: &Place) -> Env {
        Env {
            rank: u64::from(place.rank),
            cluster_size: u64::from(place.cluster_size),
            param_bytes: place.param_bytes,
            const_bytes: place.const_bytes,
            ..Env::default()
        }
    }

    pub fn get(&self, v: Var) -> u64 {
        match v {
            Var::A => self.a,
            Var::B => self.b,
            Var::Addr => self.addr,
            Var::Addr2 => self.addr2,
            Var::Mbar => self.mbar,
            Var::Size => self.size,
            Var::CpSize => self.cp_size,
            Var::SrcSize => self.src_size,
            Var::Mask => self.mask,
            Var::CtaMask => self.cta_mask,
            Var::Map => self.map,
            Var::Lane => self.lane,
            Var::Rank => self.rank,
            Var::ClusterSize => self.cluster_size,
            Var::ParamBytes => self.param_bytes,
            Var::ConstBytes => self.const_bytes,
            Var::Coord => self.coord,
            Var::BoxOffset => self.box_offset,
            Var::MapRank => self.map_rank,
            Var::Dim => self.dim,
            Var::Lower => self.lower,
            Var::Upper => self.upper,
            Var::MapValid => self.map_valid,
            Var::RedType => self.red_type,
        }
    }
}

/// `u64` and `bool`, the vars read from an [`Env`].
pub struct Concrete<'e>(pub &'e Env);

impl Domain for Concrete<'_> {
    type Bv = u64;
    type Bool = bool;
    fn lit(&self, v: u64) -> u64 {
        v
    }
    fn var(&self, v: Var) -> u64 {
        self.0.get(v)
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a.wrapping_add(*b)
    }
    fn sub(&self, a: &u64, b: &u64) -> u64 {
        a.wrapping_sub(*b)
    }
    fn and(&self, a: &u64, b: &u64) -> u64 {
        a & b
    }
    fn shr(&self, a: &u64, b: &u64) -> u64 {
        // as SMT-LIB's bvlshr: a shift by the width or more gives 0
        u32::try_from(*b)
            .ok()
            .and_then(|s| a.checked_shr(s))
            .unwrap_or(0)
    }
    fn ult(&self, a: &u64, b: &u64) -> bool {
        a < b
    }
    fn eq(&self, a: &u64, b: &u64) -> bool {
        a == b
    }
    fn truth(&self, v: bool) -> bool {
        v
    }
    fn not(&self, a: &bool) -> bool {
        !a
    }
    fn all(&self, xs: &[bool]) -> bool {
        xs.iter().all(|x| *x)
    }
    fn any(&self, xs: &[bool]) -> bool {
        xs.iter().any(|x| *x)
    }
}

/// Whether `c` holds in `env`.
pub fn holds(p: &WindowProfile, c: &Cond, env: &Env) -> bool {
    eval_cond(&Concrete(env), p, c)
}

/// `Ok` when the precondition holds, else the undefined case it names.
pub fn check(p: &WindowProfile, pre: &Precondition, env: &Env) -> Result<(), Undefined> {
    if holds(p, &pre.holds, env) {
        Ok(())
    } else {
        Err(pre.undefined())
    }
}
