//! The element-wise meaning of `cp.reduce.async.bulk` (PTX ISA
//! 9.7.9.25.4.2): how one destination element `mem` and the corresponding
//! source element `src` combine under `.redOp` and `.type`.
//!
//! What the section says, and what this module takes from it:
//!
//! * the table of valid `.redOp` × element type for each `.dst` (and the
//!   `.add.noftz` syntax, `.dst = .global` only, `.type = { .f16, .bf16 }`):
//!   [`allowed`];
//! * "The bit-size operations are `.and`, `.or`, and `.xor`."
//! * "The integer operations are `.add`, `.inc`, `.dec`, `.min`, and
//!   `.max`. The `.inc` and `.dec` operations return a result in the range
//!   `[0..x]` where `x` is the value at the source state space." The
//!   operations are those of `red`/`atom` (9.7.13.5/9.7.13.6):
//!   `inc(r, s) = (r >= s) ? 0 : r+1`, `dec(r, s) = (r==0 || r > s) ? s : r-1`,
//!   `r` the memory element, `s` the source element. `.add` wraps; `.min`
//!   and `.max` compare as signed for `.s32`/`.s64`, as unsigned otherwise.
//! * "The floating point operation `.add` rounds to the nearest even. The
//!   current implementation of `cp.reduce.async.bulk.add.f32` flushes
//!   subnormal inputs and results to sign-preserving zero. The
//!   `cp.reduce.async.bulk.add.f16` and `cp.reduce.async.bulk.add.bf16`
//!   operations require `.noftz` qualifier. It preserves input and result
//!   subnormals, and does not flush them to zero." `.add.f64` keeps
//!   subnormals (nothing says otherwise).
//!
//! sm_90 does not flush: its `.add.f32` keeps subnormal inputs and results
//! ([`reduce_sm90`] gives its bits; [`reduce`] follows the spec).
//!
//! Where the section is silent, the bits returned are what sm_90 produced
//! (an H100, driver 580.159.04, ptxas 13.0; `tools/probe_bulk_reduce.py`,
//! `corpus/bulk-reduce/sm_90/probe.txt`), and the mask frees the bits the
//! spec leaves open:
//!
//! * A NaN produced by `.add` (a NaN operand, or infinities of opposite
//!   signs): the spec says nothing, so the result is "a NaN": exponent all
//!   ones, sign and significand free (the mask; a nonzero significand is
//!   implied, as in `cvt`'s unspecified NaN). sm_90 gives the canonical NaN
//!   for `.f32` (`0x7fffffff`), `.f16` and `.bf16` (`0x7fff`); for `.f64` it
//!   passes a NaN operand through unchanged, the source's first, then the
//!   memory's (a signalling NaN stays signalling), and gives
//!   `0xfff8000000000000` for `inf + -inf`.
//! * `.min`/`.max` of `.f16`/`.bf16`: the section does not define them;
//!   the model takes the half-precision `min`/`max` instructions' rules
//!   (9.7.4, without `.NaN`, `.ftz`, `.xorsign`): if one operand is NaN
//!   the result is the other, if both are NaN the result is NaN (sign and
//!   significand free; sm_90 gives the canonical `0x7fff`), "+0.0 > -0.0",
//!   subnormals kept. sm_90 agrees on every probed pair, signalling NaNs
//!   included.
//!
//! Combinations outside the table get the natural extension (integer rules
//! on the element's bits, unsigned unless the type is signed; float `.min`
//! and `.max` as above; `noftz` ignored: no `.f16`/`.bf16` result is ever
//! flushed); callers check [`allowed`] first.

/// `.redOp` of `cp.reduce.async.bulk`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BulkRedOp {
    And,
    Or,
    Xor,
    Add,
    Inc,
    Dec,
    Min,
    Max,
}

/// `.type` of `cp.reduce.async.bulk`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BulkRedType {
    B32,
    B64,
    U32,
    S32,
    U64,
    S64,
    F32,
    F64,
    F16,
    Bf16,
}

/// Which (op, type, dst space) the spec's table allows (`global_dst`: true
/// = `.global`, false = `.shared::cluster`), and whether `.noftz` is
/// required or allowed: `.noftz` goes with `.add` of `.f16`/`.bf16` into
/// `.global` and nothing else, and that `.add` requires it.
pub fn allowed(op: BulkRedOp, ty: BulkRedType, global_dst: bool, noftz: bool) -> bool {
    use BulkRedOp::*;
    use BulkRedType::*;
    if noftz {
        return global_dst && op == Add && matches!(ty, F16 | Bf16);
    }
    if global_dst {
        match op {
            // .f16/.bf16 only in the `.add.noftz` form.
            Add => matches!(ty, U32 | S32 | U64 | F32 | F64),
            Min | Max => matches!(ty, U32 | S32 | U64 | S64 | F16 | Bf16),
            Inc | Dec => ty == U32,
            And | Or | Xor => matches!(ty, B32 | B64),
        }
    } else {
        match op {
            Add => matches!(ty, U32 | S32 | U64),
            Min | Max => matches!(ty, U32 | S32),
            Inc | Dec => ty == U32,
            And | Or | Xor => ty == B32,
        }
    }
}

/// The size of one element in bytes.
pub fn element_bytes(ty: BulkRedType) -> usize {
    use BulkRedType::*;
    match ty {
        F16 | Bf16 => 2,
        B32 | U32 | S32 | F32 => 4,
        B64 | U64 | S64 | F64 => 8,
    }
}

/// The new memory element: the old element `mem` combined with the source
/// element `src` (bits, zero-extended to `u64`; higher bits are ignored).
/// Returns the bits and a mask of unspecified bits (nonzero only where the
/// spec leaves the result free: the sign and significand of a NaN result).
pub fn reduce(op: BulkRedOp, ty: BulkRedType, noftz: bool, mem: u64, src: u64) -> (u64, u64) {
    reduce_with(op, ty, noftz, mem, src, true)
}

/// What sm_90 writes: [`reduce`]'s bits, except that `.add.f32` keeps
/// subnormal inputs and results (plain IEEE 754 addition, nearest even),
/// against the spec's "flushes subnormal inputs and results to
/// sign-preserving zero" (`corpus/bulk-reduce/sm_90/probe.txt`: 389 of
/// the 3,598 non-NaN `.add.f32` pairs have a subnormal input or result,
/// none was flushed, and on 257 of them flushing would give other bits).
/// The mask is [`reduce`]'s.
pub fn reduce_sm90(op: BulkRedOp, ty: BulkRedType, noftz: bool, mem: u64, src: u64) -> (u64, u64) {
    reduce_with(op, ty, noftz, mem, src, false)
}

/// `cp.reduce.async.bulk.tensor` (PTX ISA 9.7.9.25.5.3): its section
/// names the operations and element types but, unlike the non-tensor
/// section, says nothing of rounding or of flushing subnormals, so
/// `.add.f32` is plain IEEE 754 addition, nearest even, subnormals kept
/// (the H100 agrees: `27_tma_store_reduce_prefetch` of the nvcc corpus,
/// corpus/simulator/README.md). Otherwise [`reduce`].
pub fn reduce_tensor(
    op: BulkRedOp,
    ty: BulkRedType,
    noftz: bool,
    mem: u64,
    src: u64,
) -> (u64, u64) {
    reduce_with(op, ty, noftz, mem, src, false)
}

fn reduce_with(
    op: BulkRedOp,
    ty: BulkRedType,
    noftz: bool,
    mem: u64,
    src: u64,
    flush_f32: bool,
) -> (u64, u64) {
    use BulkRedOp::*;
    let _ = noftz; // no `.f16`/`.bf16` result is flushed, `.noftz` or not
    let bits = element_bytes(ty) as u32 * 8;
    let m = width_mask(bits);
    let (a, b) = (mem & m, src & m);
    let fmt = Fmt::of(ty);
    match op {
        And => (a & b, 0),
        Or => (a | b, 0),
        Xor => (a ^ b, 0),
        Add => match fmt {
            Some(f) => f.add(a, b, flush_f32 && ty == BulkRedType::F32),
            None => (a.wrapping_add(b) & m, 0),
        },
        // inc(r, s) = (r >= s) ? 0 : r+1
        Inc => (if a >= b { 0 } else { a + 1 }, 0),
        // dec(r, s) = (r == 0 || r > s) ? s : r-1
        Dec => (if a == 0 || a > b { b } else { a - 1 }, 0),
        Min | Max => {
            let want_min = op == Min;
            if let Some(f) = fmt {
                return f.min_max(a, b, want_min);
            }
            let a_less = if matches!(ty, BulkRedType::S32 | BulkRedType::S64) {
                sext(a, bits) < sext(b, bits)
            } else {
                a < b
            };
            (if a_less == want_min { a } else { b }, 0)
        }
    }
}

fn width_mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

fn sext(x: u64, bits: u32) -> i64 {
    let s = 64 - bits;
    ((x << s) as i64) >> s
}

/// A binary floating-point format: `e` exponent bits, `m` stored
/// significand bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Fmt {
    e: u32,
    m: u32,
}

/// A finite value `(-1)^neg * sig * 2^exp`.
#[derive(Clone, Copy, Debug)]
struct Finite {
    neg: bool,
    sig: u64,
    exp: i32,
}

impl Fmt {
    const F16: Fmt = Fmt { e: 5, m: 10 };
    const BF16: Fmt = Fmt { e: 8, m: 7 };
    const F32: Fmt = Fmt { e: 8, m: 23 };
    const F64: Fmt = Fmt { e: 11, m: 52 };

    fn of(ty: BulkRedType) -> Option<Fmt> {
        match ty {
            BulkRedType::F16 => Some(Fmt::F16),
            BulkRedType::Bf16 => Some(Fmt::BF16),
            BulkRedType::F32 => Some(Fmt::F32),
            BulkRedType::F64 => Some(Fmt::F64),
            _ => None,
        }
    }

    fn width(self) -> u32 {
        1 + self.e + self.m
    }
    fn sign(self) -> u64 {
        1u64 << (self.e + self.m)
    }
    fn man_mask(self) -> u64 {
        (1u64 << self.m) - 1
    }
    fn exp_field(self, x: u64) -> u64 {
        (x >> self.m) & ((1u64 << self.e) - 1)
    }
    fn max_field(self) -> u64 {
        (1u64 << self.e) - 1
    }
    fn inf(self) -> u64 {
        self.max_field() << self.m
    }
    fn is_nan(self, x: u64) -> bool {
        self.exp_field(x) == self.max_field() && x & self.man_mask() != 0
    }
    fn is_inf(self, x: u64) -> bool {
        x & !self.sign() == self.inf()
    }
    fn is_subnormal(self, x: u64) -> bool {
        self.exp_field(x) == 0 && x & self.man_mask() != 0
    }
    fn bias(self) -> i32 {
        (1i32 << (self.e - 1)) - 1
    }
    /// The exponent of the least significant bit of a subnormal.
    fn q_min(self) -> i32 {
        1 - self.bias() - self.m as i32
    }
    /// The canonical NaN, `0x7fff…`: what sm_90 writes for a NaN result
    /// of `.add.f32`/`.add.noftz.f16`/`.add.noftz.bf16` and for `.min`/`.max`
    /// of two NaNs.
    fn canonical_nan(self) -> u64 {
        width_mask(self.width()) >> 1
    }
    /// The bits of a NaN result the spec leaves free: sign and significand.
    fn nan_free(self) -> u64 {
        self.sign() | self.man_mask()
    }

    fn decode(self, x: u64) -> Finite {
        let field = self.exp_field(x);
        let man = x & self.man_mask();
        let neg = x & self.sign() != 0;
        if field == 0 {
            Finite {
                neg,
                sig: man,
                exp: self.q_min(),
            }
        } else {
            Finite {
                neg,
                sig: man | (1u64 << self.m),
                exp: field as i32 - self.bias() - self.m as i32,
            }
        }
    }

    /// `.add`: round to nearest even; with `ftz`, subnormal inputs and
    /// results become zeros of their sign.
    fn add(self, a: u64, b: u64, ftz: bool) -> (u64, u64) {
        if self.is_nan(a) || self.is_nan(b) {
            return (self.nan_from_add(a, b), self.nan_free());
        }
        match (self.is_inf(a), self.is_inf(b)) {
            (true, true) if a != b => return (self.nan_from_inf(), self.nan_free()),
            (true, _) => return (a, 0),
            (_, true) => return (b, 0),
            _ => {}
        }
        let flush = |x: u64| {
            if ftz && self.is_subnormal(x) {
                x & self.sign()
            } else {
                x
            }
        };
        let r = self.add_finite(flush(a), flush(b));
        (flush(r), 0)
    }

    /// The NaN sm_90 writes when an operand of `.add` is NaN.
    fn nan_from_add(self, mem: u64, src: u64) -> u64 {
        if self == Fmt::F64 {
            // DADD passes the source's NaN, else the memory's, unchanged.
            if self.is_nan(src) {
                src
            } else {
                mem
            }
        } else {
            self.canonical_nan()
        }
    }

    /// The NaN sm_90 writes for `inf + -inf`.
    fn nan_from_inf(self) -> u64 {
        if self == Fmt::F64 {
            0xfff8_0000_0000_0000
        } else {
            self.canonical_nan()
        }
    }

    /// The correctly rounded (nearest even) sum of two finite values,
    /// computed exactly in integers.
    fn add_finite(self, a: u64, b: u64) -> u64 {
        let (x, y) = (self.decode(a), self.decode(b));
        if x.sig == 0 && y.sig == 0 {
            // -0 + -0 = -0; any other sum of zeros is +0.
            return if x.neg && y.neg { self.sign() } else { 0 };
        }
        if y.sig == 0 {
            return a;
        }
        if x.sig == 0 {
            return b;
        }
        // `x` the one with the larger exponent.
        let (x, y) = if x.exp >= y.exp { (x, y) } else { (y, x) };
        let d = (x.exp - y.exp) as u32;
        // Below `GUARD` bits under `x`'s last bit, `y` only decides which
        // side of a rounding boundary the sum lies on: it is replaced by
        // one unit there (a value strictly between 0 and 1 such unit would
        // do as well, and `x`'s shifted significand minus such a value is
        // never a midpoint, as midpoints are multiples of 2).
        const GUARD: u32 = 4;
        let (xs, ys, e) = if d < self.m + 1 + GUARD {
            (u128::from(x.sig) << d, u128::from(y.sig), y.exp)
        } else {
            (u128::from(x.sig) << GUARD, 1u128, x.exp - GUARD as i32)
        };
        let (neg, n) = if x.neg == y.neg {
            (x.neg, xs + ys)
        } else if xs >= ys {
            (x.neg, xs - ys)
        } else {
            (y.neg, ys - xs)
        };
        if n == 0 {
            // An exact zero from opposite signs: +0 when rounding to nearest.
            return 0;
        }
        self.round(neg, n, e)
    }

    /// `(-1)^neg * n * 2^e` rounded to nearest even, overflowing to
    /// infinity.
    fn round(self, neg: bool, n: u128, e: i32) -> u64 {
        let len = 128 - n.leading_zeros() as i32;
        // Exponent of the last kept bit: `m + 1` bits for a normal number,
        // the subnormal quantum at the bottom.
        let q = (e + len - 1 - self.m as i32).max(self.q_min());
        let (mut sig, mut q) = if q <= e {
            (n << (e - q) as u32, q)
        } else {
            let shift = (q - e) as u32;
            let kept = n >> shift;
            let rem = n & ((1u128 << shift) - 1);
            let half = 1u128 << (shift - 1);
            let up = rem > half || (rem == half && kept & 1 == 1);
            (kept + u128::from(up), q)
        };
        if sig >> (self.m + 1) != 0 {
            sig >>= 1;
            q += 1;
        }
        let sign = if neg { self.sign() } else { 0 };
        let sig = sig as u64;
        if sig >> self.m == 0 {
            // Subnormal (or zero, which cannot happen here).
            return sign | sig;
        }
        let field = q + self.m as i32 + self.bias();
        if field >= self.max_field() as i32 {
            return sign | self.inf();
        }
        sign | ((field as u64) << self.m) | (sig & self.man_mask())
    }

    /// `.min`/`.max` with the half-precision `min`/`max` rules: a NaN
    /// operand yields the other, two NaNs the canonical NaN (sign and
    /// significand free), `-0 < +0`, subnormals kept.
    fn min_max(self, a: u64, b: u64, want_min: bool) -> (u64, u64) {
        match (self.is_nan(a), self.is_nan(b)) {
            (true, true) => return (self.canonical_nan(), self.nan_free()),
            (true, false) => return (b, 0),
            (false, true) => return (a, 0),
            _ => {}
        }
        let key = |x: u64| -> i64 {
            let mag = (x & !self.sign()) as i64;
            if x & self.sign() != 0 {
                -mag - 1
            } else {
                mag
            }
        };
        let a_less = key(a) < key(b);
        (if a_less == want_min { a } else { b }, 0)
    }
}

/// The element type `cp.reduce.async.bulk.tensor` reads the map's type as
/// (PTX ISA 9.7.9.25.5.3's table; `.and/.or/.xor` take `.u32` and `.s32`
/// maps as `.b32` and `.u64` maps as `.b64`), with `.noftz` (only
/// `.f32.ftz` flushes); `None` where the table has no entry (the
/// reduction is undefined).
pub fn tensor_type(op: BulkRedOp, ty: crate::tensor::DataType) -> Option<(BulkRedType, bool)> {
    use crate::tensor::DataType as D;
    use BulkRedOp::*;
    let t = match (op, ty) {
        (And | Or | Xor, D::U32 | D::S32) => BulkRedType::B32,
        // `.s64` maps are not `.b64` here: every bitwise reduction of an
        // `.s64` map faults on an H100 (CUDA_ERROR_ILLEGAL_INSTRUCTION;
        // docs/tensor-observations.md), `.s32` ones run as `.b32`
        (And | Or | Xor, D::U64) => BulkRedType::B64,
        (Add | Min | Max | Inc | Dec, D::U32) => BulkRedType::U32,
        (Add | Min | Max, D::S32) => BulkRedType::S32,
        (Add | Min | Max, D::U64) => BulkRedType::U64,
        (Min | Max, D::S64) => BulkRedType::S64,
        (Add, D::F32 | D::F32Ftz) => BulkRedType::F32,
        (Add | Min | Max, D::F16) => BulkRedType::F16,
        (Add | Min | Max, D::Bf16) => BulkRedType::Bf16,
        _ => return None,
    };
    Some((t, ty != D::F32Ftz))
}

/// One element of `multimem.ld_reduce`/`multimem.red` (PTX ISA 9.7.9.14):
/// `x` combined with `y` under `op`, element-wise over the two 16-bit
/// halves of a `.f16x2`/`.bf16x2` register when `packed` ("`.f16x2`...
/// operate on packed data"), with [`reduce_sm90`]'s meaning of each
/// element (integer operations on the type's bits, `.add` rounding to
/// nearest even with subnormals kept, `.min`/`.max` of half precision as
/// 9.7.4's). Returns the bits and the mask of bits the spec leaves open.
pub fn multimem_combine(
    op: BulkRedOp,
    ty: BulkRedType,
    packed: bool,
    x: u64,
    y: u64,
) -> (u64, u64) {
    if !packed {
        return reduce_sm90(op, ty, true, x, y);
    }
    let mut out = (0u64, 0u64);
    for lane in 0..2 {
        let s = 16 * lane;
        let (v, m) = reduce_sm90(op, ty, true, (x >> s) & 0xffff, (y >> s) & 0xffff);
        out.0 |= (v & 0xffff) << s;
        out.1 |= (m & 0xffff) << s;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::BulkRedOp::*;
    use super::BulkRedType::*;
    use super::*;

    fn r(op: BulkRedOp, ty: BulkRedType, mem: u64, src: u64) -> u64 {
        let (bits, free) = reduce(op, ty, matches!(ty, F16 | Bf16) && op == Add, mem, src);
        assert_eq!(
            free, 0,
            "{op:?} {ty:?} {mem:#x} {src:#x}: unexpected free bits"
        );
        bits
    }

    const OPS: [BulkRedOp; 8] = [And, Or, Xor, Add, Inc, Dec, Min, Max];
    const TYPES: [BulkRedType; 10] = [B32, B64, U32, S32, U64, S64, F32, F64, F16, Bf16];

    #[test]
    fn table() {
        // The table of 9.7.9.25.4.2, written out row by row.
        let cluster: &[(BulkRedOp, &[BulkRedType])] = &[
            (Add, &[U32, S32, U64]),
            (Min, &[U32, S32]),
            (Max, &[U32, S32]),
            (Inc, &[U32]),
            (Dec, &[U32]),
            (And, &[B32]),
            (Or, &[B32]),
            (Xor, &[B32]),
        ];
        let global: &[(BulkRedOp, &[BulkRedType])] = &[
            (Add, &[U32, S32, U64, F32, F64, F16, Bf16]),
            (Min, &[U32, S32, U64, S64, F16, Bf16]),
            (Max, &[U32, S32, U64, S64, F16, Bf16]),
            (Inc, &[U32]),
            (Dec, &[U32]),
            (And, &[B32, B64]),
            (Or, &[B32, B64]),
            (Xor, &[B32, B64]),
        ];
        let mut count = 0;
        for op in OPS {
            for ty in TYPES {
                let in_cluster = cluster.iter().any(|(o, t)| *o == op && t.contains(&ty));
                let in_global = global.iter().any(|(o, t)| *o == op && t.contains(&ty));
                let half_add = op == Add && matches!(ty, F16 | Bf16);
                assert_eq!(
                    allowed(op, ty, false, false),
                    in_cluster,
                    "{op:?} {ty:?} cluster"
                );
                assert!(!allowed(op, ty, false, true), "{op:?} {ty:?} cluster noftz");
                // `.add.f16`/`.add.bf16` "require `.noftz` qualifier".
                assert_eq!(
                    allowed(op, ty, true, false),
                    in_global && !half_add,
                    "{op:?} {ty:?} global"
                );
                assert_eq!(
                    allowed(op, ty, true, true),
                    half_add,
                    "{op:?} {ty:?} global noftz"
                );
                count += usize::from(allowed(op, ty, true, false) || allowed(op, ty, true, true));
            }
        }
        assert_eq!(count, 27);
        assert_eq!(element_bytes(F16), 2);
        assert_eq!(element_bytes(Bf16), 2);
        assert_eq!(element_bytes(S32), 4);
        assert_eq!(element_bytes(F32), 4);
        assert_eq!(element_bytes(B64), 8);
        assert_eq!(element_bytes(F64), 8);
    }

    #[test]
    fn bitwise_and_integer_add() {
        assert_eq!(r(And, B32, 0xf0f0_ff00, 0x0ff0_f0f0), 0x00f0_f000);
        assert_eq!(r(Or, B32, 0xf0f0_0000, 0x0000_000f), 0xf0f0_000f);
        assert_eq!(
            r(Xor, B64, u64::MAX, 0x0123_4567_89ab_cdef),
            0xfedc_ba98_7654_3210
        );
        // High bits beyond the element are ignored.
        assert_eq!(r(Or, B32, 0xffff_ffff_0000_0000, 1), 1);
        // Wrapping add.
        assert_eq!(r(Add, U32, 0xffff_ffff, 2), 1);
        assert_eq!(r(Add, S32, 0x7fff_ffff, 1), 0x8000_0000);
        assert_eq!(r(Add, U64, u64::MAX, u64::MAX), u64::MAX - 1);
    }

    #[test]
    fn inc_dec_wrap() {
        // inc: (old >= src) ? 0 : old + 1
        assert_eq!(r(Inc, U32, 4, 5), 5);
        assert_eq!(r(Inc, U32, 5, 5), 0);
        assert_eq!(r(Inc, U32, 6, 5), 0);
        assert_eq!(r(Inc, U32, 0, 0), 0);
        assert_eq!(r(Inc, U32, 0xffff_fffe, 0xffff_ffff), 0xffff_ffff);
        assert_eq!(r(Inc, U32, 0xffff_ffff, 0xffff_ffff), 0);
        assert_eq!(
            r(Inc, U32, 0x8000_0000, 0x7fff_ffff),
            0,
            "compared as unsigned"
        );
        // dec: (old == 0 || old > src) ? src : old - 1
        assert_eq!(r(Dec, U32, 0, 5), 5);
        assert_eq!(r(Dec, U32, 6, 5), 5);
        assert_eq!(r(Dec, U32, 5, 5), 4);
        assert_eq!(r(Dec, U32, 1, 5), 0);
        assert_eq!(r(Dec, U32, 0, 0), 0);
        assert_eq!(r(Dec, U32, 3, 0), 0);
        assert_eq!(r(Dec, U32, 0, 0xffff_ffff), 0xffff_ffff);
        assert_eq!(r(Dec, U32, 0xffff_ffff, 0x7fff_ffff), 0x7fff_ffff);
        // Results lie in [0..src].
        for old in [0u64, 1, 2, 7, 0xffff_ffff] {
            for src in [0u64, 1, 3, 7, 0xffff_ffff] {
                assert!(r(Inc, U32, old, src) <= src);
                assert!(r(Dec, U32, old, src) <= src);
            }
        }
    }

    #[test]
    fn integer_min_max() {
        // s32: -5 < -3, -1 < 1.
        assert_eq!(r(Min, S32, 0xffff_fffb, 0xffff_fffd), 0xffff_fffb);
        assert_eq!(r(Max, S32, 0xffff_fffb, 0xffff_fffd), 0xffff_fffd);
        assert_eq!(r(Min, S32, 0xffff_ffff, 1), 0xffff_ffff);
        assert_eq!(r(Max, S32, 0x8000_0000, 0x7fff_ffff), 0x7fff_ffff);
        // u32: the same bits compare as unsigned.
        assert_eq!(r(Min, U32, 0xffff_ffff, 1), 1);
        assert_eq!(r(Max, U32, 0x8000_0000, 0x7fff_ffff), 0x8000_0000);
        // 64-bit.
        assert_eq!(r(Min, S64, u64::MAX, 0), u64::MAX);
        assert_eq!(r(Min, U64, u64::MAX, 0), 0);
        assert_eq!(
            r(Max, S64, 0x8000_0000_0000_0000, 0x7fff_ffff_ffff_ffff),
            0x7fff_ffff_ffff_ffff
        );
        assert_eq!(
            r(Max, U64, 0x8000_0000_0000_0000, 0x7fff_ffff_ffff_ffff),
            0x8000_0000_0000_0000
        );
    }

    #[test]
    fn f32_add_flushes() {
        let one = 0x3f80_0000;
        assert_eq!(r(Add, F32, one, one), 0x4000_0000);
        // A subnormal input counts as zero: 2^-126 + 2^-149 = 2^-126.
        assert_eq!(r(Add, F32, 0x0000_0001, 0x0080_0000), 0x0080_0000);
        assert_eq!(r(Add, F32, 0x0000_0001, 0x0000_0001), 0);
        // -2^-149 + +0 = -0 + +0 = +0; -2^-149 + -0 = -0.
        assert_eq!(r(Add, F32, 0x8000_0001, 0x0000_0000), 0);
        // A subnormal result: 1.5 * 2^-126 - 2^-126 = 2^-127 -> +0; its negation -> -0.
        assert_eq!(r(Add, F32, 0x00c0_0000, 0x8080_0000), 0);
        assert_eq!(r(Add, F32, 0x80c0_0000, 0x0080_0000), 0x8000_0000);
        // Signed zeros.
        assert_eq!(r(Add, F32, 0x8000_0000, 0x8000_0000), 0x8000_0000);
        assert_eq!(r(Add, F32, 0x8000_0000, 0x0000_0000), 0);
        assert_eq!(r(Add, F32, one, 0xbf80_0000), 0);
        assert_eq!(r(Add, F32, 0x8000_0001, 0x8000_0000), 0x8000_0000);
        // Ties to even: 1 + 2^-24 = 1; (1 + 2^-23) + 2^-24 = 1 + 2^-22.
        assert_eq!(r(Add, F32, one, 0x3380_0000), one);
        assert_eq!(r(Add, F32, 0x3f80_0001, 0x3380_0000), 0x3f80_0002);
        assert_eq!(r(Add, F32, one, 0x3380_0001), 0x3f80_0001);
        // Overflow.
        assert_eq!(r(Add, F32, 0x7f7f_ffff, 0x7f7f_ffff), 0x7f80_0000);
        // MAX + ulp/2 (2^103) is a tie between MAX (odd) and 2^128: infinity.
        assert_eq!(r(Add, F32, 0x7f7f_ffff, 0x7300_0000), 0x7f80_0000);
        assert_eq!(r(Add, F32, 0x7f7f_ffff, 0x72ff_ffff), 0x7f7f_ffff);
        assert_eq!(r(Add, F32, 0x7f7f_ffff, 0x7380_0000), 0x7f80_0000);
        assert_eq!(r(Add, F32, 0xff80_0000, one), 0xff80_0000);
    }

    #[test]
    fn f64_add_keeps_subnormals() {
        assert_eq!(r(Add, F64, 1, 1), 2);
        assert_eq!(r(Add, F64, 0x000f_ffff_ffff_ffff, 1), 0x0010_0000_0000_0000);
        assert_eq!(
            r(Add, F64, 0x0018_0000_0000_0000, 0x8010_0000_0000_0000),
            0x0008_0000_0000_0000
        );
        assert_eq!(
            r(Add, F64, 0x3ff0_0000_0000_0000, 0x3ca0_0000_0000_0000),
            0x3ff0_0000_0000_0000
        );
        assert_eq!(
            r(Add, F64, 0x3ff0_0000_0000_0001, 0x3ca0_0000_0000_0000),
            0x3ff0_0000_0000_0002
        );
    }

    #[test]
    fn half_add_noftz() {
        // f16: subnormals kept.
        assert_eq!(r(Add, F16, 0x0001, 0x0001), 0x0002);
        assert_eq!(r(Add, F16, 0x03ff, 0x0001), 0x0400);
        assert_eq!(r(Add, F16, 0x0400, 0x8001), 0x03ff);
        assert_eq!(r(Add, F16, 0x8001, 0x0001), 0x0000);
        assert_eq!(r(Add, F16, 0x8000, 0x8000), 0x8000);
        // Ties: 1 + 2^-11 -> 1; (1 + 2^-10) + 2^-11 -> 1 + 2^-9.
        assert_eq!(r(Add, F16, 0x3c00, 0x1000), 0x3c00);
        assert_eq!(r(Add, F16, 0x3c01, 0x1000), 0x3c02);
        // Just above the tie (2^-11 + 2^-21): up. A rounding that truncates
        // the f64 sum's low word gets this one wrong.
        assert_eq!(r(Add, F16, 0x3c00, 0x1001), 0x3c01);
        assert_eq!(r(Add, F16, 0x3c00, 0x9001), 0x3bff);
        // 65504 + 16 is a tie between 65504 (odd) and 65536: infinity.
        assert_eq!(r(Add, F16, 0x7bff, 0x4c00), 0x7c00);
        assert_eq!(r(Add, F16, 0x7bff, 0x4bff), 0x7bff);
        assert_eq!(r(Add, F16, 0xfbff, 0xcc00), 0xfc00);
        // bf16: tie 1 + 2^-8 -> 1; (1 + 2^-7) + 2^-8 -> 1 + 2^-6.
        assert_eq!(r(Add, Bf16, 0x3f80, 0x3b80), 0x3f80);
        assert_eq!(r(Add, Bf16, 0x3f81, 0x3b80), 0x3f82);
        assert_eq!(r(Add, Bf16, 0x3f80, 0x3b81), 0x3f81);
        assert_eq!(r(Add, Bf16, 0x0001, 0x0001), 0x0002);
        assert_eq!(r(Add, Bf16, 0x007f, 0x0001), 0x0080);
        assert_eq!(r(Add, Bf16, 0x3f80, 0xbf80), 0x0000);
        // A huge exponent gap: the small one only breaks no tie.
        assert_eq!(r(Add, Bf16, 0x7f00, 0x0001), 0x7f00);
        // MAX + ulp/2 (2^119) is a tie between MAX (odd) and 2^128: infinity.
        assert_eq!(r(Add, Bf16, 0x7f7f, 0x7b00), 0x7f80);
        assert_eq!(r(Add, Bf16, 0x7f7f, 0x7aff), 0x7f7f);
        assert_eq!(r(Add, Bf16, 0x7f7f, 0x7380), 0x7f7f);
        // noftz given or not, the same value.
        assert_eq!(reduce(Add, F16, false, 0x0001, 0x0001), (0x0002, 0));
    }

    #[test]
    fn nan_results() {
        // .add with a NaN operand or inf - inf: a NaN, sign and significand free.
        let cases: &[(BulkRedType, u64, u64, u64, u64)] = &[
            (F32, 0x7fc0_0000, 0x3f80_0000, 0x7fff_ffff, 0x807f_ffff),
            (F32, 0x7f80_0000, 0xff80_0000, 0x7fff_ffff, 0x807f_ffff),
            (F16, 0x7c01, 0x3c00, 0x7fff, 0x83ff),
            (F16, 0x7c00, 0xfc00, 0x7fff, 0x83ff),
            (Bf16, 0x3f80, 0xffc1, 0x7fff, 0x807f),
            (
                F64,
                0x7ff0_0000_0000_0001,
                0x3ff0_0000_0000_0000,
                0x7ff0_0000_0000_0001,
                0x800f_ffff_ffff_ffff,
            ),
            (
                F64,
                0x7ff8_0000_0000_0000,
                0xfff0_0000_0000_0001,
                0xfff0_0000_0000_0001,
                0x800f_ffff_ffff_ffff,
            ),
            (
                F64,
                0x7ff0_0000_0000_0000,
                0xfff0_0000_0000_0000,
                0xfff8_0000_0000_0000,
                0x800f_ffff_ffff_ffff,
            ),
        ];
        for &(ty, a, b, bits, free) in cases {
            let (got, mask) = reduce(Add, ty, matches!(ty, F16 | Bf16), a, b);
            assert_eq!((got, mask), (bits, free), "add {ty:?} {a:#x} {b:#x}");
            let f = Fmt::of(ty).unwrap();
            assert!(f.is_nan(got));
            assert_eq!(mask & f.inf(), 0, "the exponent is fixed");
        }
        // Infinities of the same sign, and inf + finite.
        assert_eq!(r(Add, F32, 0x7f80_0000, 0x7f80_0000), 0x7f80_0000);
        assert_eq!(r(Add, F16, 0xfc00, 0x7bff), 0xfc00);
    }

    #[test]
    fn half_min_max() {
        for ty in [F16, Bf16] {
            let (one, two, qnan, snan, nqnan) = match ty {
                F16 => (0x3c00, 0x4000, 0x7e01, 0x7c01, 0xfe00),
                _ => (0x3f80, 0x4000, 0x7fc1, 0x7f81, 0xffc0),
            };
            assert_eq!(r(Min, ty, one, two), one);
            assert_eq!(r(Max, ty, one, two), two);
            assert_eq!(r(Min, ty, one | 0x8000, two), one | 0x8000);
            assert_eq!(r(Max, ty, one | 0x8000, two | 0x8000), one | 0x8000);
            // -0 < +0, either order.
            assert_eq!(r(Min, ty, 0x0000, 0x8000), 0x8000);
            assert_eq!(r(Min, ty, 0x8000, 0x0000), 0x8000);
            assert_eq!(r(Max, ty, 0x0000, 0x8000), 0x0000);
            assert_eq!(r(Max, ty, 0x8000, 0x0000), 0x0000);
            // Subnormals kept: min(+0, 2^-min) = +0; max = the subnormal.
            assert_eq!(r(Min, ty, 0x0001, 0x0000), 0x0000);
            assert_eq!(r(Max, ty, 0x0001, 0x0000), 0x0001);
            assert_eq!(r(Min, ty, 0x8001, 0x0001), 0x8001);
            // One NaN (quiet, signalling, negative): the other operand.
            for nan in [qnan, snan, nqnan] {
                for op in [Min, Max] {
                    assert_eq!(r(op, ty, nan, one), one);
                    assert_eq!(r(op, ty, 0x8001, nan), 0x8001);
                    assert_eq!(r(op, ty, nan, 0x8000), 0x8000);
                }
            }
            // Two NaNs: canonical NaN, sign and significand free.
            let free = if ty == F16 { 0x83ff } else { 0x807f };
            assert_eq!(reduce(Min, ty, false, qnan, snan), (0x7fff, free));
            assert_eq!(reduce(Max, ty, false, nqnan, qnan), (0x7fff, free));
        }
    }

    // ------------------------------------------------ independent checks

    /// A 16-bit format for the reference: decoding through the `half` crate.
    #[derive(Clone, Copy)]
    enum H {
        F16,
        Bf16,
    }

    impl H {
        fn to_f64(self, x: u16) -> f64 {
            match self {
                H::F16 => half::f16::from_bits(x).to_f64(),
                H::Bf16 => half::bf16::from_bits(x).to_f64(),
            }
        }
        fn round_f64(self, x: f64) -> u16 {
            match self {
                H::F16 => half::f16::from_f64(x).to_bits(),
                H::Bf16 => half::bf16::from_f64(x).to_bits(),
            }
        }
        fn max_finite(self) -> u16 {
            match self {
                H::F16 => 0x7bff,
                H::Bf16 => 0x7f7f,
            }
        }
        /// The value one step above the largest finite: where infinity sits
        /// for rounding (2^16, 2^128).
        fn overflow(self) -> f64 {
            match self {
                H::F16 => 65536.0,
                H::Bf16 => 2f64.powi(128),
            }
        }
        fn ty(self) -> BulkRedType {
            match self {
                H::F16 => F16,
                H::Bf16 => Bf16,
            }
        }
        fn is_finite(self, x: u16) -> bool {
            x & 0x7fff <= self.max_finite()
        }
    }

    /// Position in value order (both zeros at 0), for finite values.
    fn ord(x: u16) -> i32 {
        let mag = i32::from(x & 0x7fff);
        if x & 0x8000 != 0 {
            -mag
        } else {
            mag
        }
    }

    fn unord(o: i32) -> u16 {
        if o < 0 {
            0x8000 | (-o) as u16
        } else {
            o as u16
        }
    }

    /// The nearest-even rounding of the exact sum of two finite 16-bit
    /// values, found independently of the module: the sum is held exactly
    /// as `s + t` (Knuth's two-sum in f64), and compared with the midpoints
    /// between neighbouring representable values (each exact in f64).
    fn reference_add(h: H, a: u16, b: u16) -> u16 {
        let (x, y) = (h.to_f64(a), h.to_f64(b));
        let s = x + y;
        let bb = s - x;
        let t = (x - (s - bb)) + (y - bb);
        if s == 0.0 && t == 0.0 {
            return if a == 0x8000 && b == 0x8000 {
                0x8000
            } else {
                0
            };
        }
        let value = |o: i32| -> f64 {
            let max = i32::from(h.max_finite());
            if o > max {
                h.overflow()
            } else if o < -max {
                -h.overflow()
            } else {
                h.to_f64(unord(o))
            }
        };
        // Is the exact sum above (1), below (-1) or at (0) `m`?
        let cmp = |m: f64| -> i32 {
            if s > m || (s == m && t > 0.0) {
                1
            } else if s < m || t < 0.0 {
                -1
            } else {
                0
            }
        };
        let start = h.round_f64(s);
        let mut o = if h.is_finite(start) {
            ord(start)
        } else if s > 0.0 {
            i32::from(h.max_finite())
        } else {
            -i32::from(h.max_finite())
        };
        let max = i32::from(h.max_finite());
        loop {
            let up = cmp((value(o) + value(o + 1)) / 2.0);
            let down = cmp((value(o - 1) + value(o)) / 2.0);
            if up > 0 || (up == 0 && unord(o) & 1 == 1) {
                o += 1;
            } else if down < 0 || (down == 0 && unord(o) & 1 == 1) {
                o -= 1;
            } else {
                break;
            }
            if o > max {
                return inf_bits(h);
            }
            if o < -max {
                return inf_bits(h) | 0x8000;
            }
        }
        let bits = unord(o);
        if bits & 0x7fff == 0 {
            // A rounded zero from a nonzero exact sum cannot happen (the
            // sums are multiples of the least subnormal); keep the sign.
            return if s < 0.0 { 0x8000 } else { 0 };
        }
        bits
    }

    fn inf_bits(h: H) -> u16 {
        match h {
            H::F16 => 0x7c00,
            H::Bf16 => 0x7f80,
        }
    }

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            // xorshift64*
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
    }

    /// Checks `reduce` against the reference, and against the `half`
    /// crate's rounding of the f64 sum (pushing disagreements on
    /// `half_diff`) and of the f32 sum (asserted: rounding the exact sum to
    /// f32 first is innocuous, as 24 >= 2p + 2 for p = 11 and p = 8 bits,
    /// Figueroa's condition for a sum).
    fn check_pair(h: H, a: u16, b: u16, half_diff: &mut Vec<(u16, u16, u16, u16)>) {
        if !h.is_finite(a) || !h.is_finite(b) {
            return;
        }
        let (got, free) = reduce(Add, h.ty(), true, u64::from(a), u64::from(b));
        assert_eq!(free, 0);
        let want = reference_add(h, a, b);
        assert_eq!(got, u64::from(want), "{:?} add {a:#06x} + {b:#06x}", h.ty());
        let sum = h.to_f64(a) + h.to_f64(b);
        let via_f32 = match h {
            H::F16 => half::f16::from_f32(sum as f32).to_bits(),
            H::Bf16 => half::bf16::from_f32(sum as f32).to_bits(),
        };
        assert_eq!(
            got,
            u64::from(via_f32),
            "{:?} add {a:#06x} + {b:#06x} (via f32)",
            h.ty()
        );
        let via_half = h.round_f64(sum);
        if u64::from(via_half) != got {
            half_diff.push((a, b, got as u16, via_half));
        }
    }

    /// Whether `half::f16::from_f64` rounds from the whole f64: its software
    /// path (`from_f64_const`, and `from_f64` on a CPU without F16C or FP16)
    /// drops the low 32 bits of the significand first, and so rounds
    /// 1 + 2^-11 + 2^-21 (exact in f64, the sum of `0x3c00` and `0x1001`)
    /// down to 1 as if it were a tie.
    fn half_f16_from_f64_whole() -> bool {
        let s = 1.0 + 2f64.powi(-11) + 2f64.powi(-21);
        assert_eq!(
            half::f16::from_f64_const(s).to_bits(),
            0x3c00,
            "half's software path changed"
        );
        half::f16::from_f64(s).to_bits() == 0x3c01
    }

    fn sweep(h: H) -> (usize, Vec<(u16, u16, u16, u16)>) {
        let mut diff = Vec::new();
        let mut n = 0;
        // Every pair with both operands among the subnormals, the smallest
        // normals and their negations.
        let small: Vec<u16> = (0u16..0x0900).chain(0x8000..0x8900).step_by(3).collect();
        for &a in &small {
            for &b in &small {
                check_pair(h, a, b, &mut diff);
                n += 1;
            }
        }
        // All of [1, 4) against a spread of operands of both signs.
        let (lo, hi) = match h {
            H::F16 => (0x3c00u16, 0x4400u16),
            H::Bf16 => (0x3f80u16, 0x4080u16),
        };
        for a in lo..hi {
            for k in 0..256u16 {
                let b = k.wrapping_mul(0x0101).wrapping_add(a.wrapping_mul(7)) ^ (k << 8);
                check_pair(h, a, b, &mut diff);
                check_pair(h, a, b ^ 0x8000, &mut diff);
                n += 2;
            }
        }
        // Random pairs, half of them with nearby exponents.
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ matches!(h, H::Bf16) as u64);
        let mbits = match h {
            H::F16 => 10,
            H::Bf16 => 7,
        };
        for i in 0..2_000_000u32 {
            let x = rng.next();
            let a = x as u16;
            let b = if i % 2 == 0 {
                (x >> 16) as u16
            } else {
                let shift = ((x >> 40) % (mbits as u64 + 4)) as u16;
                let e = (a & 0x7fff) >> mbits;
                let e = e.saturating_sub(shift).max(1);
                ((x >> 16) as u16 & (0x8000 | ((1 << mbits) - 1))) | (e << mbits)
            };
            check_pair(h, a, b, &mut diff);
            n += 1;
        }
        (n, diff)
    }

    #[test]
    fn f16_add_against_reference_and_half() {
        let (n, diff) = sweep(H::F16);
        assert!(n > 2_000_000);
        // The f64 sum of two f16 is exact, so `half`'s rounding of it is a
        // second reference, where `half` rounds from the whole f64 (with
        // F16C it goes through f32, which is innocuous here).
        if !half_f16_from_f64_whole() {
            eprintln!(
                "half::f16::from_f64 truncates here: {} of {n} differ, not checked",
                diff.len()
            );
            return;
        }
        assert!(
            diff.is_empty(),
            "{} of {n} differ from half::f16::from_f64, e.g. {:x?}",
            diff.len(),
            &diff[..diff.len().min(5)]
        );
    }

    #[test]
    fn bf16_add_against_reference_and_half() {
        let (n, diff) = sweep(H::Bf16);
        assert!(n > 2_000_000);
        // `half::bf16::from_f64` always drops the f64's low 32 bits, and
        // the f64 sum of two bf16 need not be exact; neither matters for a
        // sum of two bf16: a tie needs the round bit from the smaller
        // operand, whose 8 bits then reach no lower than 2^-16 relative to
        // the larger, above what is dropped (2^-20); and a gap past 53 bits
        // leaves the larger operand, as it should.
        assert!(
            diff.is_empty(),
            "{} of {n} differ from half::bf16::from_f64, e.g. {:x?}",
            diff.len(),
            &diff[..diff.len().min(5)]
        );
    }

    #[test]
    fn f32_f64_add_against_host() {
        // Without subnormals anywhere, `.add.f32` is IEEE addition, and so
        // is `.add.f64` always: compare with the host's.
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let mut checked = 0;
        for i in 0..2_000_000u32 {
            let x = rng.next();
            let a = x as u32;
            let b = if i % 2 == 0 {
                (x >> 32) as u32
            } else {
                // An exponent up to 31 below `a`'s: sums that round.
                let e = ((a >> 23) & 0xff).saturating_sub((x >> 59) as u32);
                (e << 23) | ((x >> 32) as u32 & 0x807f_ffff)
            };
            let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
            if fa.is_nan() || fb.is_nan() || fa.is_subnormal() || fb.is_subnormal() {
                continue;
            }
            let host = fa + fb;
            if host.is_nan() || host.is_subnormal() {
                continue;
            }
            assert_eq!(
                reduce(Add, F32, false, u64::from(a), u64::from(b)),
                (u64::from(host.to_bits()), 0),
                "{a:#x} + {b:#x}"
            );
            let (da, db) = (
                f64::from_bits(x),
                f64::from_bits(x.rotate_left(7 + (i % 50))),
            );
            if !da.is_nan() && !db.is_nan() && !(da + db).is_nan() {
                assert_eq!(
                    reduce(Add, F64, false, da.to_bits(), db.to_bits()),
                    ((da + db).to_bits(), 0)
                );
            }
            checked += 1;
        }
        assert!(checked > 1_000_000);
        // f64 subnormals against the host too.
        for i in 0..100_000u64 {
            let a = rng.next() & 0x801f_ffff_ffff_ffff;
            let b = rng.next() & 0x801f_ffff_ffff_ffff ^ (i & 1) << 63;
            let host = f64::from_bits(a) + f64::from_bits(b);
            assert_eq!(
                reduce(Add, F64, false, a, b),
                (host.to_bits(), 0),
                "{a:#x} + {b:#x}"
            );
        }
    }

    // ------------------------------------------------ the GPU probe

    fn parse_op(s: &str) -> BulkRedOp {
        match s {
            "and" => And,
            "or" => Or,
            "xor" => Xor,
            "add" => Add,
            "inc" => Inc,
            "dec" => Dec,
            "min" => Min,
            "max" => Max,
            _ => panic!("op {s}"),
        }
    }

    fn parse_ty(s: &str) -> BulkRedType {
        match s {
            "b32" => B32,
            "b64" => B64,
            "u32" => U32,
            "s32" => S32,
            "u64" => U64,
            "s64" => S64,
            "f32" => F32,
            "f64" => F64,
            "f16" => F16,
            "bf16" => Bf16,
            _ => panic!("type {s}"),
        }
    }

    fn hex(s: &str) -> u64 {
        u64::from_str_radix(s.trim_start_matches("0x"), 16).expect(s)
    }

    /// Every line of `corpus/bulk-reduce/sm_90/probe.txt` (an H100): the
    /// hardware's result equals [`reduce_sm90`]'s bits exactly (the model
    /// gives sm_90's choice where the spec leaves one), and lies within the
    /// spec's freedom ([`reduce`]: equal outside the mask) on every line
    /// but the `.add.f32` ones the spec's flushing would change.
    #[test]
    fn sm_90_probe() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../corpus/bulk-reduce/sm_90/probe.txt"
        );
        let text = std::fs::read_to_string(path).expect("corpus/bulk-reduce/sm_90/probe.txt");
        let (mut checked, mut free_used, mut flush_divergence) = (0usize, 0usize, 0usize);
        let mut variants = std::collections::BTreeSet::new();
        let mut bad = Vec::new();
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let f: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(f.len(), 6, "{line}");
            let (op, ty, noftz) = (parse_op(f[0]), parse_ty(f[1]), f[2] == "noftz");
            assert!(
                allowed(op, ty, true, noftz),
                "a variant outside the table: {line}"
            );
            let (old, src, hw) = (hex(f[3]), hex(f[4]), hex(f[5]));
            let (observed, free) = reduce_sm90(op, ty, noftz, old, src);
            if observed != hw {
                bad.push(format!("{line}: not reduce_sm90's {observed:#x}"));
            }
            let (spec, spec_free) = reduce(op, ty, noftz, old, src);
            assert_eq!(free, spec_free);
            if (spec ^ hw) & !free != 0 {
                let f32_sub = |x: u64| x & 0x7f80_0000 == 0 && x & 0x007f_ffff != 0;
                if op == Add && ty == F32 && (f32_sub(old) || f32_sub(src) || f32_sub(hw)) {
                    flush_divergence += 1;
                } else {
                    bad.push(format!(
                        "{line}: outside the spec's freedom (spec {spec:#x}, free {free:#x})"
                    ));
                }
            }
            free_used += usize::from(free != 0);
            variants.insert((f[0], f[1], f[2]));
            checked += 1;
        }
        assert!(
            bad.is_empty(),
            "{} of {checked} lines disagree:\n{}",
            bad.len(),
            bad[..bad.len().min(20)].join("\n")
        );
        assert_eq!(variants.len(), 27, "every .global variant of the table");
        assert!(checked > 30_000);
        assert!(free_used > 1_000);
        // The divergence: sm_90 does not flush `.add.f32` subnormals.
        assert!(flush_divergence > 100, "{flush_divergence}");
        eprintln!(
            "probe: {checked} lines, {free_used} with free NaN bits, {flush_divergence} .add.f32 lines unflushed against the spec"
        );
    }
}
