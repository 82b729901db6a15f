//! Inputs on both sides of a precondition's boundary, chosen by Z3: the
//! largest value of one var for which the precondition holds and the
//! smallest larger value for which it does not (the last address inside a
//! window and the first outside; the largest legal size and the next).
//! The preconditions an instruction checks before this one hold on both
//! sides, so that the undefined side breaks this one and no other. Both
//! sides are checked with the concrete interpreter before they are
//! returned, so the two readings of the precondition agree at the edge.

use ptx_semantics::precond::{self, eval_cond, table, Env, Precondition, Var};
use ptx_semantics::sim::WindowProfile;
use serde::Serialize;
use z3::ast::{Bool, BV};
use z3::{Optimize, SatResult};

use crate::z3dom::{lit, Terms, Z3};

/// One boundary: the environment on the defined side and on the
/// undefined side; they differ only in `var`.
#[derive(Clone, Debug, Serialize)]
pub struct Boundary {
    pub precondition: &'static str,
    pub section: &'static str,
    pub var: &'static str,
    #[serde(skip)]
    pub moved: Var,
    pub defined: u64,
    pub undefined: u64,
    #[serde(skip)]
    pub env: Env,
}

/// A precondition, the var to move, and the values of the others.
#[derive(Clone, Debug)]
pub struct Edge {
    pub pre: &'static Precondition,
    pub var: Var,
    pub fixed: Env,
    /// The preconditions the instruction checks before `pre`: they hold
    /// on both sides.
    pub before: Vec<&'static Precondition>,
    /// The values `var` may take, both ends included (`None`: every
    /// 64-bit value): an alignment rule has its edges everywhere, and a
    /// range picks one. A range written high end first, `(hi, lo)`, asks
    /// for the lower edge instead: the smallest value where the
    /// precondition holds and the largest smaller one where it does not
    /// (`mbarrier.init`'s count of 1 and 0).
    pub range: Option<(u64, u64)>,
}

impl Edge {
    /// An edge over every value of `var`, with no earlier precondition.
    pub fn new(pre: &'static Precondition, var: Var, fixed: Env) -> Edge {
        Edge {
            pre,
            var,
            fixed,
            before: Vec::new(),
            range: None,
        }
    }
}

fn set(env: &mut Env, v: Var, x: u64) {
    match v {
        Var::A => env.a = x,
        Var::B => env.b = x,
        Var::Addr => env.addr = x,
        Var::Addr2 => env.addr2 = x,
        Var::Mbar => env.mbar = x,
        Var::Size => env.size = x,
        Var::CpSize => env.cp_size = x,
        Var::SrcSize => env.src_size = x,
        Var::Mask => env.mask = x,
        Var::CtaMask => env.cta_mask = x,
        Var::Map => env.map = x,
        Var::Lane => env.lane = x,
        Var::Rank => env.rank = x,
        Var::ClusterSize => env.cluster_size = x,
        Var::ParamBytes => env.param_bytes = x,
        Var::ConstBytes => env.const_bytes = x,
        Var::Coord => env.coord = x,
        Var::BoxOffset => env.box_offset = x,
        Var::MapRank => env.map_rank = x,
        Var::Dim => env.dim = x,
        Var::Lower => env.lower = x,
        Var::Upper => env.upper = x,
        Var::MapValid => env.map_valid = x,
        Var::RedType => env.red_type = x,
    }
}

const ALL_VARS: [Var; 24] = [
    Var::A,
    Var::B,
    Var::Addr,
    Var::Addr2,
    Var::Mbar,
    Var::Size,
    Var::CpSize,
    Var::SrcSize,
    Var::Mask,
    Var::CtaMask,
    Var::Map,
    Var::Lane,
    Var::Rank,
    Var::ClusterSize,
    Var::ParamBytes,
    Var::ConstBytes,
    Var::Coord,
    Var::BoxOffset,
    Var::MapRank,
    Var::Dim,
    Var::Lower,
    Var::Upper,
    Var::MapValid,
    Var::RedType,
];

/// The boundary of `edge` (`None` when the precondition never holds, or
/// never fails above its largest defined value).
pub fn boundary(edge: &Edge, profile: &WindowProfile) -> Option<Boundary> {
    let x = BV::new_const("x", 64);
    let mut terms = Terms::default();
    for v in ALL_VARS {
        let t = if v == edge.var {
            x.clone()
        } else {
            lit(edge.fixed.get(v))
        };
        terms = terms.with(v, t);
    }
    let holds = eval_cond(&Z3(&terms), profile, &edge.pre.holds);
    let earlier: Vec<Bool> = edge
        .before
        .iter()
        .map(|p| eval_cond(&Z3(&terms), profile, &p.holds))
        .collect();
    // the lower edge: a range given high end first
    let below = matches!(edge.range, Some((a, b)) if a > b);
    let largest = |extra: Option<u64>, want: bool| -> Option<u64> {
        let opt = Optimize::new();
        opt.assert(if want { holds.clone() } else { holds.not() });
        for e in &earlier {
            opt.assert(e);
        }
        if let Some((a, b)) = edge.range {
            opt.assert(x.bvuge(lit(a.min(b))));
            opt.assert(x.bvule(lit(a.max(b))));
        }
        match (extra, below) {
            // the smallest value above `d` that breaks the precondition
            (Some(d), false) => {
                opt.assert(x.bvugt(lit(d)));
                opt.minimize(&x);
            }
            (None, false) => opt.maximize(&x),
            // below: the largest value under `d` that breaks it
            (Some(d), true) => {
                opt.assert(x.bvult(lit(d)));
                opt.maximize(&x);
            }
            (None, true) => opt.minimize(&x),
        }
        if opt.check(&[]) != SatResult::Sat {
            return None;
        }
        opt.get_model()?.eval(&x, true)?.as_u64()
    };
    let defined = largest(None, true)?;
    let undefined = largest(Some(defined), false)?;
    // both sides, read concretely
    let mut d = edge.fixed;
    set(&mut d, edge.var, defined);
    let mut u = edge.fixed;
    set(&mut u, edge.var, undefined);
    let earlier_hold = |env: &Env| {
        edge.before
            .iter()
            .all(|p| precond::holds(profile, &p.holds, env))
    };
    let concrete_agrees = precond::holds(profile, &edge.pre.holds, &d)
        && !precond::holds(profile, &edge.pre.holds, &u)
        && earlier_hold(&d)
        && earlier_hold(&u);
    concrete_agrees.then_some(Boundary {
        precondition: edge.pre.id,
        section: edge.pre.section,
        var: edge.var.name(),
        moved: edge.var,
        defined,
        undefined,
        env: edge.fixed,
    })
}

/// The boundaries of the preconditions that have a natural "largest legal
/// value": a CTA of rank 1 in a cluster of 4, 16 bytes of parameters.
pub fn standard() -> Vec<Edge> {
    let at = Env {
        rank: 1,
        cluster_size: 4,
        param_bytes: 16,
        const_bytes: 64,
        ..Env::default()
    };
    vec![
        Edge::new(&table::CVTA_TO_SHARED_CTA, Var::A, at),
        Edge::new(&table::CVTA_TO_SHARED_CLUSTER, Var::A, at),
        Edge::new(&table::CVTA_TO_PARAM, Var::A, at),
        Edge::new(&table::CVTA_TO_CONST, Var::A, at),
        Edge::new(&table::CVTA_SHARED_CTA, Var::A, at),
        Edge::new(&table::MAPA_RANK, Var::B, at),
        Edge::new(
            &table::CP_ASYNC_SRC_SIZE,
            Var::SrcSize,
            Env { cp_size: 16, ..at },
        ),
        Edge::new(&table::LD_PARAM_ENTRY, Var::Addr, Env { size: 4, ..at }),
        Edge::new(&table::POLICY_SIZES, Var::B, Env { a: 0, ..at }),
        Edge::new(&table::MBAR_INIT_COUNT, Var::A, at),
        Edge {
            range: Some((u64::MAX, 0)),
            ..Edge::new(&table::MBAR_INIT_COUNT, Var::A, at)
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The edges worked out by hand from the spec's rules and the SM90
    /// profile (shared window at 0x7fe0_0000_0000, 16 MiB per CTA; params
    /// at 0x7fdf_da28_0210; const at 0x7fdf_d280_0000).
    #[test]
    fn boundaries_sit_where_the_rules_put_them() {
        let want: &[(&str, u64, u64)] = &[
            ("cvta.to.shared::cta", 0x7fe0_01ff_ffff, 0x7fe0_0200_0000),
            (
                "cvta.to.shared::cluster",
                0x7fe0_03ff_ffff,
                0x7fe0_0400_0000,
            ),
            ("cvta.to.param::entry", 0x7fdf_da28_021f, 0x7fdf_da28_0220),
            ("cvta.to.const", 0x7fdf_d280_003f, 0x7fdf_d280_0040),
            ("cvta.shared::cta", 0x01ff_ffff, 0x0200_0000),
            ("mapa.rank", 3, 4),
            ("cp.async.src-size", 16, 17),
            ("ld.param::entry", 12, 13),
            ("createpolicy.range.sizes", 1 << 32, (1 << 32) + 1),
            ("mbarrier.init.count", (1 << 20) - 1, 1 << 20),
            ("mbarrier.init.count", 1, 0),
        ];
        let p = WindowProfile::SM90;
        let got: Vec<(&str, u64, u64)> = standard()
            .iter()
            .filter_map(|e| boundary(e, &p))
            .map(|b| (b.precondition, b.defined, b.undefined))
            .collect();
        assert_eq!(got, want);
        // edges with no suite groups
        let at = Env {
            rank: 1,
            cluster_size: 4,
            ..Env::default()
        };
        let more = [
            Edge::new(&table::MBAR_TX_COUNT, Var::A, at),
            Edge::new(&table::MBAR_PARITY, Var::A, at),
            Edge {
                range: Some((0, 0xffff)),
                ..Edge::new(&table::BULK_CTA_MASK, Var::CtaMask, at)
            },
        ];
        let got: Vec<(&str, u64, u64)> = more
            .iter()
            .filter_map(|e| boundary(e, &p))
            .map(|b| (b.precondition, b.defined, b.undefined))
            .collect();
        let want: &[(&str, u64, u64)] = &[
            ("mbarrier.tx-count", (1 << 20) - 1, 1 << 20),
            ("mbarrier.test_wait.parity", 1, 2),
            ("cp.async.bulk.multicast.cta-mask", 0xf, 0x10),
        ];
        assert_eq!(got, want);
    }

    /// Earlier preconditions hold on both sides, and a range picks one
    /// edge of an alignment rule: a 4-byte ld.param::entry at offset 12 of
    /// 16 bytes is the last legal one, and 13 is misaligned, so the first
    /// undefined one that is aligned is 16; a 16-byte access at offset 16
    /// from a 256-aligned base is aligned, 17 is not.
    #[test]
    fn earlier_preconditions_hold_and_ranges_bound() {
        let p = WindowProfile::SM90;
        let at = Env {
            param_bytes: 16,
            size: 4,
            ..Env::default()
        };
        let mut e = Edge::new(&table::LD_PARAM_ENTRY, Var::Addr, at);
        let plain = boundary(&e, &p).unwrap();
        assert_eq!((plain.defined, plain.undefined), (12, 13));
        e.before = vec![&table::ALIGNED];
        let b = boundary(&e, &p).unwrap();
        assert_eq!((b.defined, b.undefined), (12, 16));
        let base = 0x7f00_0000_0000;
        let mut e = Edge::new(
            &table::ALIGNED,
            Var::Addr,
            Env {
                size: 16,
                ..Env::default()
            },
        );
        e.range = Some((base, base + 31));
        let b = boundary(&e, &p).unwrap();
        assert_eq!((b.defined, b.undefined), (base + 16, base + 17));
        // no value in range breaks it: no edge
        e.range = Some((base, base));
        assert!(boundary(&e, &p).is_none());
    }
}
