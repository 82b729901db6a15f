//! The rules on a tensor map's fields (`table::TENSOR_MAP_RULES`) for a
//! map the search is given (`conform ub --tensor-map PARAM=FIELDS`): what
//! the map says, read with the functions the simulator reads it with, and
//! the vars of those rules as terms, each the given map's where the copy's
//! `tensorMap` operand is that parameter's address and a value under which
//! the rule holds elsewhere (a map the search does not know stays the
//! simulator's).

use ptx_semantics::precond::table::{self, Precondition};
use ptx_semantics::precond::Var;
use ptx_semantics::sim::program::{TensorDir, TensorInstr};
use ptx_semantics::sim::reduce;
use ptx_semantics::tensor::{self, Interleave, MapText, Mode, TensorError, TensorMap};
use serde::Serialize;
use z3::ast::{Bool, BV};

use crate::alu::low;
use crate::z3dom::{lit, Terms};

/// A tensor map a kernel parameter holds.
#[derive(Clone, Debug, Serialize)]
pub struct GivenMap {
    /// The parameter: a 128-byte `.param` of the kernel.
    pub param: String,
    /// Its fields, in the text form of `conform exec --arg tmap:`.
    #[serde(serialize_with = "as_text")]
    pub map: MapText,
}

fn as_text<S: serde::Serializer>(m: &MapText, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&m.to_string())
}

/// What a given map says to one tensor copy, found as the simulator finds
/// it (`sim/machine/exec/asynch/tensor.rs`).
struct Facts {
    rank: u32,
    /// `validate`, the copy's mode and the im2col map rules.
    valid: bool,
    /// Whether the copy goes on to the rules past validity (a type or
    /// layout the model does not define, or a gather4 map of another
    /// rank, stops it before them).
    further: bool,
    /// The element size the box's alignment counts in (`None`: an
    /// interleaved map, whose dimension 0 counts slices).
    elem: Option<u64>,
    /// `.redOp` and the element type are in the table.
    red_ok: bool,
    /// An im2col load's Bounding Box for each coordinate of a spatial
    /// dimension: (coordinate index, lowest, highest).
    filter: Vec<(usize, i64, i64)>,
}

fn facts(map: &TensorMap, ins: &TensorInstr) -> Facts {
    let shape = if ins.im2col || ins.im2col_w.is_some() {
        tensor::im2col_bytes(map).map(|_| ())
    } else if ins.rows4 {
        map.validate()
            .map_err(TensorError::InvalidMap)
            .and_then(|_| tensor::gather4_shape(map).map(|_| ()))
    } else {
        map.validate()
            .map_err(TensorError::InvalidMap)
            .and_then(|_| tensor::box_shape(map).map(|_| ()))
    };
    let invalid = matches!(
        shape,
        Err(TensorError::InvalidMap(_) | TensorError::WrongMode)
    );
    let further = shape.is_ok()
        && !map.data_type.is_packed()
        && (!ins.rows4 || map.rank == 2)
        && !(ins.rows4 && map.interleave != Interleave::None);
    let elem = match map.interleave {
        Interleave::None => map.elem_size().map(u64::from),
        _ => None,
    };
    let red_ok = match ins.dir {
        TensorDir::Store {
            reduce: Some(op), ..
        } => reduce::tensor_type(op, map.data_type).is_some(),
        _ => true,
    };
    let mut filter = Vec::new();
    if let (true, None, Mode::Im2col(ic), false) = (
        ins.im2col,
        ins.im2col_w,
        map.mode,
        matches!(ins.dir, TensorDir::Store { .. }),
    ) {
        // the spatial dimensions W, H, D: 1 to rank - 2, or 0 to rank - 3
        // in an interleaved map (tensor::im2col's `spatial` and `bounds`)
        let r = map.rank as usize;
        let start = usize::from(map.interleave == Interleave::None);
        for i in start..(start + r.saturating_sub(2)) {
            let k = i - start;
            let lo = i64::from(ic.lower_corner[k]);
            let hi = map.global_dims[i] as i64 - 1 + i64::from(ic.upper_corner[k]);
            filter.push((i, lo, hi));
        }
    }
    Facts {
        rank: map.rank,
        valid: !invalid,
        further,
        elem,
        red_ok,
        filter,
    }
}

/// `.s32` `x` (the low 32 bits), sign-extended to 64 bits.
fn s32(x: &BV) -> BV {
    low(x, 32).sign_ext(32)
}

fn flag(b: bool) -> BV {
    lit(u64::from(b))
}

/// Preconditions with the terms of their vars, in the order asked.
pub(crate) type Asked = Vec<(&'static Precondition, Terms)>;

/// The map-field rules of copy `ins` as (precondition, terms), in the
/// simulator's order, split where the search asks the multicast's
/// `ctaMask` between them: (the rank and validity; the rest). `at` are the
/// given maps with their parameters' generic addresses; `base` the terms
/// of the copy's operand rules (with `Var::Map`); `coords` the
/// coordinates' values.
pub(crate) fn rules(
    at: &[(u64, &MapText)],
    ins: &TensorInstr,
    base: &Terms,
    coords: &[BV],
) -> (Asked, Asked) {
    let (mut first, mut rest) = (Vec::new(), Vec::new());
    let Some(map) = base.get(Var::Map).cloned() else {
        return (first, rest);
    };
    let given: Vec<(Bool, Facts)> = at
        .iter()
        .map(|(addr, m)| (map.eq(lit(*addr)), facts(&m.map, ins)))
        .collect();
    if given.is_empty() {
        return (first, rest);
    }
    // the given map's value where the operand is its parameter's address,
    // `otherwise` elsewhere
    let pick = |f: &dyn Fn(&Facts) -> Option<BV>, otherwise: BV| -> BV {
        given
            .iter()
            .rev()
            .fold(otherwise.clone(), |acc, (here, facts)| {
                here.ite(&f(facts).unwrap_or_else(|| otherwise.clone()), &acc)
            })
    };
    // the rules past the map's validity apply where it is valid
    let on = |f: &Facts| f.valid && f.further;
    let dim = lit(u64::from(ins.dim));
    if !ins.rows4 {
        let t = base
            .clone()
            .with(Var::Dim, dim.clone())
            .with(Var::MapRank, pick(&|f| Some(lit(u64::from(f.rank))), dim));
        first.push((&table::TENSOR_MAP_DIM, t));
    }
    let t = base
        .clone()
        .with(Var::MapValid, pick(&|f| Some(flag(f.valid)), flag(true)));
    first.push((&table::TENSOR_MAP_VALID, t));
    if let TensorDir::Store {
        reduce: Some(_), ..
    } = ins.dir
    {
        let t = base.clone().with(
            Var::RedType,
            pick(&|f| Some(flag(f.red_ok || !on(f))), flag(true)),
        );
        rest.push((&table::TENSOR_RED_TYPE, t));
    }
    if let Some(c0) = coords.first() {
        let offset = pick(
            &|f| match (on(f), f.elem) {
                (true, Some(e)) => Some(s32(c0).bvmul(lit(e))),
                _ => None,
            },
            lit(0),
        );
        rest.push((
            &table::TENSOR_BOX_ALIGNED,
            base.clone().with(Var::BoxOffset, offset),
        ));
    }
    match ins.dir {
        TensorDir::Store { .. } => {
            for c in coords {
                let v = pick(&|f| on(f).then(|| s32(c)), lit(0));
                rest.push((
                    &table::TENSOR_COORD_NON_NEGATIVE,
                    base.clone().with(Var::Coord, v),
                ));
            }
        }
        _ => {
            // the filter's corner, dimension by dimension: the coordinate
            // between the bounds (0, 0 and 0 where another map is read)
            let dims: usize = given.iter().map(|(_, f)| f.filter.len()).max().unwrap_or(0);
            for k in 0..dims {
                let part = |f: &Facts| f.filter.get(k).copied().filter(|_| on(f));
                let coord = pick(
                    &|f| part(f).and_then(|(i, ..)| coords.get(i).map(s32)),
                    lit(0),
                );
                let lower = pick(&|f| part(f).map(|(_, lo, _)| lit(lo as u64)), lit(0));
                let upper = pick(&|f| part(f).map(|(.., hi)| lit(hi as u64)), lit(0));
                let t = base
                    .clone()
                    .with(Var::Coord, coord)
                    .with(Var::Lower, lower)
                    .with(Var::Upper, upper);
                rest.push((&table::TENSOR_IM2COL_FILTER, t));
            }
        }
    }
    (first, rest)
}

/// The bytes of map `m` (our encoding) with its global address resolved:
/// `base=argN` is the value of parameter `N` (its first 8 bytes, of
/// `param_bytes`), an address itself.
pub(crate) fn bytes(m: &MapText, param_bytes: &[Vec<u8>]) -> [u8; 128] {
    let base = match &m.base {
        tensor::Base::Arg(n) => param_bytes.get(*n).map_or(0, |b| {
            let mut x = [0u8; 8];
            let k = b.len().min(8);
            x[..k].copy_from_slice(&b[..k]);
            u64::from_le_bytes(x)
        }),
        tensor::Base::Addr(a) => *a,
        tensor::Base::Named(_) => 0,
    };
    m.at(base).to_bytes()
}
