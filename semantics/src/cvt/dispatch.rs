//! Calls the conversion functions with constant formats for the pairs PTX
//! has, so that each pair gets code specialised to its formats (the generic
//! call remains for the rest). Meaning lives in `convert.rs`; this file only
//! chooses which copy of it runs.

use super::convert::{self, Converted, Modifiers};
use super::format::{
    id, FloatFormat, IntFormat, BF16, E2M1, E2M3, E3M2, E4M3, E5M2, F16, F32, F64, TF32, UE8M0,
};
use super::round::Round;

macro_rules! pairs {
    ($s:ident, $d:ident, $a:ident, $r:ident, $m:ident; $(($S:ident, $D:ident)),* $(,)?) => {
        match ($s.id, $d.id) {
            $( (id::$S, id::$D) => convert::float_to_float(&$S, &$D, $a, $r, $m), )*
            _ => convert::float_to_float($s, $d, $a, $r, $m),
        }
    };
}

#[inline]
pub fn float_to_float(
    s: &FloatFormat,
    d: &FloatFormat,
    a: u64,
    round: Round,
    m: Modifiers,
) -> Converted {
    pairs!(s, d, a, round, m;
        (F32, F16), (F32, BF16), (F32, TF32), (F32, F64), (F32, E4M3), (F32, E5M2),
        (F32, E2M3), (F32, E3M2), (F32, E2M1), (F32, UE8M0),
        (F64, F32), (F64, F16), (F64, BF16),
        (F16, F32), (F16, F64), (F16, BF16), (F16, E4M3), (F16, E5M2),
        (BF16, F32), (BF16, F64), (BF16, F16), (BF16, UE8M0),
        (E4M3, F16), (E5M2, F16), (E2M3, F16), (E3M2, F16), (E2M1, F16), (UE8M0, BF16),
    )
}

#[inline]
pub fn float_to_int(
    s: &FloatFormat,
    d: IntFormat,
    a: u64,
    round: Round,
    m: Modifiers,
) -> Converted {
    match s.id {
        id::F32 => convert::float_to_int(&F32, d, a, round, m),
        id::F64 => convert::float_to_int(&F64, d, a, round, m),
        id::F16 => convert::float_to_int(&F16, d, a, round, m),
        id::BF16 => convert::float_to_int(&BF16, d, a, round, m),
        _ => convert::float_to_int(s, d, a, round, m),
    }
}

#[inline]
pub fn int_to_float(
    s: IntFormat,
    d: &FloatFormat,
    a: u64,
    round: Round,
    m: Modifiers,
) -> Converted {
    match d.id {
        id::F32 => convert::int_to_float(s, &F32, a, round, m),
        id::F64 => convert::int_to_float(s, &F64, a, round, m),
        id::F16 => convert::int_to_float(s, &F16, a, round, m),
        id::BF16 => convert::int_to_float(s, &BF16, a, round, m),
        _ => convert::int_to_float(s, d, a, round, m),
    }
}
