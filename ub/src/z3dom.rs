//! The Z3 domain of the precondition language: the same
//! [`eval_cond`](ptx_semantics::precond::eval_cond) the simulator runs over
//! `u64`, here over 64-bit bit-vectors.

use ptx_semantics::precond::{Domain, Var};
use z3::ast::{Bool, BV};

/// The vars of one instruction's preconditions as terms (a missing one
/// reads 0, as in [`ptx_semantics::precond::Env`]).
#[derive(Clone, Default)]
pub struct Terms {
    pub vars: Vec<(Var, BV)>,
}

impl Terms {
    pub fn with(mut self, v: Var, t: BV) -> Terms {
        self.vars.retain(|(w, _)| *w != v);
        self.vars.push((v, t));
        self
    }

    pub fn get(&self, v: Var) -> Option<&BV> {
        self.vars.iter().find(|(w, _)| *w == v).map(|(_, t)| t)
    }
}

pub struct Z3<'t>(pub &'t Terms);

pub fn lit(v: u64) -> BV {
    BV::from_u64(v, 64)
}

impl Domain for Z3<'_> {
    type Bv = BV;
    type Bool = Bool;
    fn lit(&self, v: u64) -> BV {
        lit(v)
    }
    fn var(&self, v: Var) -> BV {
        self.0.get(v).cloned().unwrap_or_else(|| lit(0))
    }
    fn add(&self, a: &BV, b: &BV) -> BV {
        a.bvadd(b)
    }
    fn sub(&self, a: &BV, b: &BV) -> BV {
        a.bvsub(b)
    }
    fn and(&self, a: &BV, b: &BV) -> BV {
        a.bvand(b)
    }
    fn shr(&self, a: &BV, b: &BV) -> BV {
        a.bvlshr(b)
    }
    fn ult(&self, a: &BV, b: &BV) -> Bool {
        a.bvult(b)
    }
    fn eq(&self, a: &BV, b: &BV) -> Bool {
        a.eq(b)
    }
    fn truth(&self, v: bool) -> Bool {
        Bool::from_bool(v)
    }
    fn not(&self, a: &Bool) -> Bool {
        a.not()
    }
    fn all(&self, xs: &[Bool]) -> Bool {
        Bool::and(xs)
    }
    fn any(&self, xs: &[Bool]) -> Bool {
        Bool::or(xs)
    }
}
