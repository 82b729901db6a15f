//! Calls the conversion functions with constant formats for the pairs PTX
//! has, so that each pair gets code specialised to its formats (the generic
//! call remains for the rest), one value at a time or over a slice with the
//! choice made once. Meaning lives in `convert.rs`; this file only chooses
//! which copy of it runs.

use super::convert::{self, Converted, Modifiers};
use super::format::{by_id, id, FloatFormat, IntFormat};
use super::round::Round;

/// `float_to_float` with the formats of ids `S` and `D`.
#[inline(always)]
fn f2f<const S: u8, const D: u8>(a: u64, round: Round, m: Modifiers) -> Converted {
    convert::float_to_float(&const { by_id(S) }, &const { by_id(D) }, a, round, m)
}

/// [`f2f`] over a slice, bits only.
fn f2f_batch<const S: u8, const D: u8>(
    src: &[u64],
    mask: u64,
    dst: &mut [u64],
    round: Round,
    m: Modifiers,
) {
    for (d, &a) in dst.iter_mut().zip(src) {
        *d = f2f::<S, D>(a & mask, round, m).bits;
    }
}

/// The pairs with code of their own, as one `match` on the ids: `$one`
/// names the function to call with the pair's ids as const parameters,
/// `$generic` the expression for the other pairs.
macro_rules! pairs {
    ($ids:expr, $one:ident $args:tt, $generic:expr) => {{
        use id::*;
        pairs!(@ $ids, $one $args, $generic;
            (F32, F16), (F32, BF16), (F32, TF32), (F32, F64), (F32, E4M3), (F32, E5M2),
            (F32, E2M3), (F32, E3M2), (F32, E2M1), (F32, UE8M0),
            (F64, F32), (F64, F16), (F64, BF16),
            (F16, F32), (F16, F64), (F16, BF16), (F16, E4M3), (F16, E5M2),
            (BF16, F32), (BF16, F64), (BF16, F16), (BF16, UE8M0),
            (E4M3, F16), (E5M2, F16), (E2M3, F16), (E3M2, F16), (E2M1, F16), (UE8M0, BF16),
            (F32, F32), (F64, F64), (F16, F16))
    }};
    (@ $ids:expr, $one:ident $args:tt, $generic:expr; $(($S:ident, $D:ident)),*) => {
        match $ids {
            $( ($S, $D) => $one::<$S, $D> $args, )*
            _ => $generic,
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
    pairs!(
        (s.id, d.id),
        f2f(a, round, m),
        convert::float_to_float(s, d, a, round, m)
    )
}

/// [`float_to_float`] over a slice: `dst[i]` from `src[i] & mask`, bits
/// only. (So are the other `_batch` functions.)
pub fn float_to_float_batch(
    s: &FloatFormat,
    d: &FloatFormat,
    src: &[u64],
    mask: u64,
    dst: &mut [u64],
    round: Round,
    m: Modifiers,
) {
    pairs!(
        (s.id, d.id),
        f2f_batch(src, mask, dst, round, m),
        for (o, &a) in dst.iter_mut().zip(src) {
            *o = convert::float_to_float(s, d, a & mask, round, m).bits;
        }
    )
}

/// The float formats with code of their own for conversions to and from
/// integers, and for rounding to an integral value.
macro_rules! floats {
    ($f:expr, $one:ident $args:tt, $generic:expr) => {{
        use id::*;
        match $f {
            F32 => $one::<F32> $args,
            F64 => $one::<F64> $args,
            F16 => $one::<F16> $args,
            BF16 => $one::<BF16> $args,
            _ => $generic,
        }
    }};
}

#[inline(always)]
fn f2i<const S: u8>(d: IntFormat, a: u64, round: Round, m: Modifiers) -> Converted {
    convert::float_to_int(&const { by_id(S) }, d, a, round, m)
}

fn f2i_batch<const S: u8>(
    d: IntFormat,
    src: &[u64],
    mask: u64,
    dst: &mut [u64],
    round: Round,
    m: Modifiers,
) {
    for (o, &a) in dst.iter_mut().zip(src) {
        *o = f2i::<S>(d, a & mask, round, m).bits;
    }
}

#[inline]
pub fn float_to_int(
    s: &FloatFormat,
    d: IntFormat,
    a: u64,
    round: Round,
    m: Modifiers,
) -> Converted {
    floats!(
        s.id,
        f2i(d, a, round, m),
        convert::float_to_int(s, d, a, round, m)
    )
}

/// [`float_to_int`] over a slice, bits only.
pub fn float_to_int_batch(
    s: &FloatFormat,
    d: IntFormat,
    src: &[u64],
    mask: u64,
    dst: &mut [u64],
    round: Round,
    m: Modifiers,
) {
    floats!(
        s.id,
        f2i_batch(d, src, mask, dst, round, m),
        for (o, &a) in dst.iter_mut().zip(src) {
            *o = convert::float_to_int(s, d, a & mask, round, m).bits;
        }
    )
}

#[inline(always)]
fn i2f<const D: u8>(s: IntFormat, a: u64, round: Round, m: Modifiers) -> Converted {
    convert::int_to_float(s, &const { by_id(D) }, a, round, m)
}

fn i2f_batch<const D: u8>(
    s: IntFormat,
    src: &[u64],
    mask: u64,
    dst: &mut [u64],
    round: Round,
    m: Modifiers,
) {
    for (o, &a) in dst.iter_mut().zip(src) {
        *o = i2f::<D>(s, a & mask, round, m).bits;
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
    floats!(
        d.id,
        i2f(s, a, round, m),
        convert::int_to_float(s, d, a, round, m)
    )
}

/// [`int_to_float`] over a slice, bits only.
pub fn int_to_float_batch(
    s: IntFormat,
    d: &FloatFormat,
    src: &[u64],
    mask: u64,
    dst: &mut [u64],
    round: Round,
    m: Modifiers,
) {
    floats!(
        d.id,
        i2f_batch(s, src, mask, dst, round, m),
        for (o, &a) in dst.iter_mut().zip(src) {
            *o = convert::int_to_float(s, d, a & mask, round, m).bits;
        }
    )
}

fn integral_batch<const F: u8>(
    src: &[u64],
    mask: u64,
    dst: &mut [u64],
    round: Round,
    m: Modifiers,
) {
    let f = const { by_id(F) };
    for (o, &a) in dst.iter_mut().zip(src) {
        *o = convert::float_to_integral(&f, a & mask, round, m).bits;
    }
}

/// `convert::float_to_integral` over a slice, bits only.
pub fn float_to_integral_batch(
    f: &FloatFormat,
    src: &[u64],
    mask: u64,
    dst: &mut [u64],
    round: Round,
    m: Modifiers,
) {
    floats!(
        f.id,
        integral_batch(src, mask, dst, round, m),
        for (o, &a) in dst.iter_mut().zip(src) {
            *o = convert::float_to_integral(f, a & mask, round, m).bits;
        }
    )
}
