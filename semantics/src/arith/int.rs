//! Integer arithmetic (PTX ISA 9.7.1), extended-precision arithmetic
//! (9.7.2) and logic and shift (9.7.8). Operands are the low bits of a
//! `u64`; results are returned in the low bits, the rest zero. Bit
//! positions, shift amounts and field lengths are `u32`s, as in the spec.

use super::{Carry, IntResult};

/// An integer instruction type: `.u16 .u32 .u64 .s16 .s32 .s64` (and the
/// `.b` types, which behave as the unsigned ones here).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IntType {
    pub bits: u32,
    pub signed: bool,
}

pub const U16: IntType = IntType {
    bits: 16,
    signed: false,
};
pub const U32: IntType = IntType {
    bits: 32,
    signed: false,
};
pub const U64: IntType = IntType {
    bits: 64,
    signed: false,
};
pub const S16: IntType = IntType {
    bits: 16,
    signed: true,
};
pub const S32: IntType = IntType {
    bits: 32,
    signed: true,
};
pub const S64: IntType = IntType {
    bits: 64,
    signed: true,
};

impl IntType {
    /// The type a PTX suffix names (`.u32`, `.b64`...).
    pub fn from_ptx(name: &str) -> Option<IntType> {
        let name = name.strip_prefix('.').unwrap_or(name);
        let (signed, width) = match name.as_bytes().first()? {
            b'u' | b'b' => (false, &name[1..]),
            b's' => (true, &name[1..]),
            _ => return None,
        };
        let bits = match width {
            "8" => 8,
            "16" => 16,
            "32" => 32,
            "64" => 64,
            _ => return None,
        };
        Some(IntType { bits, signed })
    }
    /// The width in bits, taken into 1..=64 so that no width panics (PTX's
    /// are 8, 16, 32 and 64).
    pub const fn width(self) -> u32 {
        if self.bits == 0 {
            1
        } else if self.bits > 64 {
            64
        } else {
            self.bits
        }
    }
    /// All ones in the type's width.
    pub const fn mask(self) -> u64 {
        if self.width() >= 64 {
            u64::MAX
        } else {
            (1u64 << self.width()) - 1
        }
    }
    /// The value the low bits of `x` hold.
    pub const fn value(self, x: u64) -> i128 {
        let x = x & self.mask();
        if self.signed && (x >> (self.width() - 1)) & 1 == 1 {
            x as i128 - (1i128 << self.width())
        } else {
            x as i128
        }
    }
    /// The smallest and largest values of the type.
    pub const fn min(self) -> i128 {
        if self.signed {
            -(1i128 << (self.width() - 1))
        } else {
            0
        }
    }
    pub const fn max(self) -> i128 {
        if self.signed {
            (1i128 << (self.width() - 1)) - 1
        } else {
            (1i128 << self.width()) - 1
        }
    }
    /// `v` modulo `2^bits`, as register bits.
    pub const fn wrap(self, v: i128) -> u64 {
        (v as u64) & self.mask()
    }
    /// `v` clamped to the type's range: "`.sat` limits result to
    /// `MININT..MAXINT` (no overflow)".
    pub const fn saturate(self, v: i128) -> u64 {
        let v = if v < self.min() {
            self.min()
        } else if v > self.max() {
            self.max()
        } else {
            v
        };
        self.wrap(v)
    }
    const fn double(self) -> IntType {
        IntType {
            bits: self.bits.saturating_mul(2),
            signed: self.signed,
        }
    }
}

/// `.hi`, `.lo` or `.wide` of `mul`/`mad` (PTX ISA 9.7.1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MulMode {
    Lo,
    Hi,
    Wide,
}

// ---------------------------------------------------------------- 9.7.1

/// `add{.sat}.type` (PTX ISA 9.7.1.1): "`d = a + b;`"; "`.sat` limits
/// result to `MININT..MAXINT` (no overflow) for the size of the
/// operation. Applies only to `.s32` type." Without `.sat` the sum wraps.
pub fn add(ty: IntType, sat: bool, a: u64, b: u64) -> u64 {
    let v = ty.value(a) + ty.value(b);
    if sat {
        ty.saturate(v)
    } else {
        ty.wrap(v)
    }
}

/// `sub{.sat}.type` (PTX ISA 9.7.1.2): "`d = a - b;`", `.sat` as for `add`.
pub fn sub(ty: IntType, sat: bool, a: u64, b: u64) -> u64 {
    let v = ty.value(a) - ty.value(b);
    if sat {
        ty.saturate(v)
    } else {
        ty.wrap(v)
    }
}

/// Lane-wise `op` on `lanes` lanes of `lane` type packed in `a`, `b`
/// (lane 0 in the low bits).
fn lanes(lane: IntType, n: u32, a: u64, b: u64, op: impl Fn(u64, u64) -> u64) -> u64 {
    let mut d = 0;
    for i in 0..n {
        let s = i * lane.bits;
        d |= (op((a >> s) & lane.mask(), (b >> s) & lane.mask()) & lane.mask()) << s;
    }
    d
}

/// `add{.sat}.u8x4`/`.s8x4` (PTX ISA 9.7.1.1, PTX 9.2): "Quarter-word
/// operands are then added in parallel"; `.sat` per lane.
pub fn add_x4(signed: bool, sat: bool, a: u32, b: u32) -> u32 {
    let lane = IntType { bits: 8, signed };
    lanes(lane, 4, a as u64, b as u64, |x, y| add(lane, sat, x, y)) as u32
}

/// `sub{.sat}.u8x4`/`.s8x4` (PTX ISA 9.7.1.2, PTX 9.2).
pub fn sub_x4(signed: bool, sat: bool, a: u32, b: u32) -> u32 {
    let lane = IntType { bits: 8, signed };
    lanes(lane, 4, a as u64, b as u64, |x, y| sub(lane, sat, x, y)) as u32
}

/// `neg.s8x4` (PTX ISA 9.7.1.11, PTX 9.2): "`d[i] = -iA[i];`" (wraps).
pub fn neg_s8x4(a: u32) -> u32 {
    let lane = IntType {
        bits: 8,
        signed: true,
    };
    lanes(lane, 4, a as u64, 0, |x, _| neg(lane, x)) as u32
}

/// The full product `a * b` of two values of `ty`.
fn product(ty: IntType, a: u64, b: u64) -> i128 {
    // Both factors fit 64 bits signed or unsigned; the product of two
    // 64-bit unsigned values fits u128, of signed ones i128.
    ty.value(a).wrapping_mul(ty.value(b))
}

/// The full product's bits, `2n` of them (exact in u128 for every type).
fn product_bits(ty: IntType, a: u64, b: u64) -> u128 {
    if ty.signed {
        product(ty, a, b) as u128
    } else {
        (ty.value(a) as u128) * (ty.value(b) as u128)
    }
}

/// `mul.mode.type` (PTX ISA 9.7.1.3): "`t = a * b; n = bitwidth of type;
/// d = t;` (for .wide) `d = t<2n-1..n>;` (for .hi) `d = t<n-1..0>;` (for
/// .lo)". "The `.wide` suffix is supported only for 16- and 32-bit integer
/// types"; `.wide` returns `2n` bits (for a 64-bit type, which the spec
/// does not allow, the low 64).
pub fn mul(ty: IntType, mode: MulMode, a: u64, b: u64) -> u64 {
    let t = product_bits(ty, a, b);
    match mode {
        MulMode::Lo => (t as u64) & ty.mask(),
        MulMode::Hi => ((t >> ty.width()) as u64) & ty.mask(),
        MulMode::Wide => (t as u64) & ty.double().mask(),
    }
}

/// `mad.mode{.sat}.type` (PTX ISA 9.7.1.4): "`d = t + c;` (for .wide)
/// `d = t<2n-1..n> + c;` (for .hi) `d = t<n-1..0> + c;` (for .lo)";
/// "`.sat` limits result to `MININT..MAXINT` (no overflow) for the size of
/// the operation. Applies only to `.s32` type in `.hi` mode." `c` (and `d`)
/// are `2n` bits wide for `.wide`.
pub fn mad(ty: IntType, mode: MulMode, sat: bool, a: u64, b: u64, c: u64) -> u64 {
    let half = mul(ty, mode, a, b);
    let dty = if mode == MulMode::Wide {
        ty.double()
    } else {
        ty
    };
    let v = dty.value(half) + dty.value(c);
    if sat {
        dty.saturate(v)
    } else {
        dty.wrap(v)
    }
}

/// The 48-bit product of `mul24`/`mad24`: "Compute the product of two
/// 24-bit integer values held in 32-bit source registers" (the low 24 bits
/// of each, sign-extended for `.s32`).
fn product24(signed: bool, a: u32, b: u32) -> u64 {
    let t24 = IntType { bits: 24, signed };
    (t24.value(a as u64) * t24.value(b as u64)) as u64 & ((1 << 48) - 1)
}

/// `mul24.mode.type` (PTX ISA 9.7.1.5): "`t = a * b; d = t<47..16>;` (for
/// .hi) `d = t<31..0>;` (for .lo)".
pub fn mul24(signed: bool, hi: bool, a: u32, b: u32) -> u32 {
    let t = product24(signed, a, b);
    if hi {
        (t >> 16) as u32
    } else {
        t as u32
    }
}

/// `mad24.mode{.sat}.type` (PTX ISA 9.7.1.6): "`d = t<47..16> + c;` (for
/// .hi) `d = t<31..0> + c;` (for .lo)"; "`.sat` limits result of 32-bit
/// signed addition to `MININT..MAXINT` (no overflow). Applies only to
/// `.s32` type in .hi mode."
pub fn mad24(signed: bool, hi: bool, sat: bool, a: u32, b: u32, c: u32) -> u32 {
    let ty = IntType { bits: 32, signed };
    add(ty, sat, mul24(signed, hi, a, b) as u64, c as u64) as u32
}

/// `sad.type` (PTX ISA 9.7.1.7): "`d = c + ((a<b) ? b-a : a-b);`" (wraps).
pub fn sad(ty: IntType, a: u64, b: u64, c: u64) -> u64 {
    let (x, y) = (ty.value(a), ty.value(b));
    ty.wrap(ty.value(c) + (x - y).abs())
}

/// The clause that leaves division by zero open.
pub const DIV_ZERO: &str =
    "PTX ISA 9.7.1.8/9.7.1.9: \"Division by zero yields an unspecified, machine-specific value.\"";
/// The clause that leaves `rem` of negative numbers open.
pub const REM_NEGATIVE: &str = "PTX ISA 9.7.1.9: \"The behavior for negative numbers is \
     machine-dependent and depends on whether divide rounds towards zero or negative infinity.\"";
/// The overflow of `MININT / -1`, on which the spec is silent.
pub const DIV_OVERFLOW: &str =
    "PTX ISA 9.7.1.8 is silent on `MININT / -1` (the quotient does not fit)";

/// `div.type` (PTX ISA 9.7.1.8): "`d = a / b;`"; "Division by zero yields
/// an unspecified, machine-specific value": then we give all ones (sm_90's,
/// every width), marked unspecified. Quotients round toward zero (the spec names no direction
/// for `div`; `rem`'s note admits both; sm_90 truncates); `MININT / -1`
/// wraps to `MININT` (as on sm_90), marked unspecified (the spec is silent).
pub fn div(ty: IntType, a: u64, b: u64) -> IntResult {
    let (x, y) = (ty.value(a), ty.value(b));
    if y == 0 {
        return IntResult {
            bits: ty.mask(),
            unspecified: Some(DIV_ZERO),
        };
    }
    let q = x / y;
    IntResult {
        bits: ty.wrap(q),
        unspecified: (q > ty.max()).then_some(DIV_OVERFLOW),
    }
}

/// `rem.type` (PTX ISA 9.7.1.9): "`d = a % b;`"; "Division by zero yields
/// an unspecified, machine-specific value" (we give sm_90's, all ones); "The behavior for
/// negative numbers is machine-dependent and depends on whether divide
/// rounds towards zero or negative infinity": for a signed type with a
/// negative operand we give the remainder of division toward zero (sign of
/// `a`), marked unspecified.
pub fn rem(ty: IntType, a: u64, b: u64) -> IntResult {
    let (x, y) = (ty.value(a), ty.value(b));
    if y == 0 {
        return IntResult {
            bits: ty.mask(),
            unspecified: Some(DIV_ZERO),
        };
    }
    IntResult {
        bits: ty.wrap(x % y),
        unspecified: (x < 0 || y < 0).then_some(REM_NEGATIVE),
    }
}

/// `abs.type` (PTX ISA 9.7.1.10): "`d = |a|;`", "Only for signed
/// integers". The spec is silent on `|MININT|`, which does not fit; it
/// wraps to `MININT`.
pub fn abs(ty: IntType, a: u64) -> u64 {
    ty.wrap(ty.value(a).abs())
}

/// `neg.type` (PTX ISA 9.7.1.11): "`d = -a;`" (wraps: `-MININT` is
/// `MININT`).
pub fn neg(ty: IntType, a: u64) -> u64 {
    ty.wrap(-ty.value(a))
}

/// `min{.relu}.type` (PTX ISA 9.7.1.12): "`d = (a < b) ? a : b;` // Integer
/// (signed and unsigned)"; "`min.relu.{s16x2, s32}` clamps the result to 0
/// if negative."
pub fn min(ty: IntType, relu: bool, a: u64, b: u64) -> u64 {
    let v = ty.value(a).min(ty.value(b));
    ty.wrap(if relu { v.max(0) } else { v })
}

/// `max{.relu}.type` (PTX ISA 9.7.1.13): "`d = (a > b) ? a : b;`";
/// "`max.relu.{s16x2, s32}` clamps the result to 0 if negative."
pub fn max(ty: IntType, relu: bool, a: u64, b: u64) -> u64 {
    let v = ty.value(a).max(ty.value(b));
    ty.wrap(if relu { v.max(0) } else { v })
}

/// `min{.relu}.u16x2`/`.s16x2` (PTX ISA 9.7.1.12): "forms input vectors by
/// half word values from source operands. Half-word operands are then
/// processed in parallel".
pub fn min_x2(signed: bool, relu: bool, a: u32, b: u32) -> u32 {
    let lane = IntType { bits: 16, signed };
    lanes(lane, 2, a as u64, b as u64, |x, y| min(lane, relu, x, y)) as u32
}

/// `max{.relu}.u16x2`/`.s16x2` (PTX ISA 9.7.1.13).
pub fn max_x2(signed: bool, relu: bool, a: u32, b: u32) -> u32 {
    let lane = IntType { bits: 16, signed };
    lanes(lane, 2, a as u64, b as u64, |x, y| max(lane, relu, x, y)) as u32
}

/// `popc.type` (PTX ISA 9.7.1.14, `.b32`/`.b64`): "Count the number of one
/// bits in `a`"; `d` is `.u32`.
pub fn popc(bits: u32, a: u64) -> u32 {
    (a & IntType {
        bits,
        signed: false,
    }
    .mask())
    .count_ones()
}

/// `clz.type` (PTX ISA 9.7.1.15, `.b32`/`.b64`): "Count the number of
/// leading zeros in `a` starting with the most-significant bit"; `d` is
/// `.u32` (32 or 64 for a zero input).
pub fn clz(bits: u32, a: u64) -> u32 {
    let bits = bits.clamp(1, 64);
    let a = a & IntType {
        bits,
        signed: false,
    }
    .mask();
    a.leading_zeros() - (64 - bits)
}

/// `bfind{.shiftamt}.type` (PTX ISA 9.7.1.16): "For unsigned integers,
/// `bfind` returns the bit position of the most significant 1. For signed
/// integers, `bfind` returns the bit position of the most significant 0
/// for negative inputs and the most significant 1 for non-negative inputs.
/// If `.shiftamt` is specified, `bfind` returns the shift amount needed to
/// left-shift the found bit into the most-significant bit position.
/// `bfind` returns 0xffffffff if no non-sign bit is found."
pub fn bfind(ty: IntType, shiftamt: bool, a: u64) -> u32 {
    let msb = ty.width() - 1;
    let mut a = a & ty.mask();
    if ty.signed && (a >> msb) & 1 == 1 {
        a = !a & ty.mask();
    }
    if a == 0 {
        return u32::MAX;
    }
    let pos = 63 - a.leading_zeros();
    if shiftamt {
        msb - pos
    } else {
        pos
    }
}

/// `fns.b32` (PTX ISA 9.7.1.17): "find the n-th (given by `offset`) set bit
/// in `mask` from the `base` bit, and store the bit position in `d`. If not
/// found, store 0xffffffff in `d`." "Operand `base` must be <= 31,
/// otherwise behavior is undefined": `None` then.
pub fn fns(mask: u32, base: u32, offset: i32) -> Option<u32> {
    if base > 31 {
        return None;
    }
    let bit = |p: i64| (mask >> p) & 1 == 1;
    if offset == 0 {
        return Some(if bit(base as i64) { base } else { u32::MAX });
    }
    let mut count = offset.unsigned_abs() - 1;
    let inc: i64 = if offset > 0 { 1 } else { -1 };
    let mut pos = base as i64;
    while (0..32).contains(&pos) {
        if bit(pos) {
            if count == 0 {
                return Some(pos as u32);
            }
            count -= 1;
        }
        pos += inc;
    }
    Some(u32::MAX)
}

/// `brev.type` (PTX ISA 9.7.1.18, `.b32`/`.b64`): "Perform bitwise reversal
/// of input."
pub fn brev(bits: u32, a: u64) -> u64 {
    let bits = bits.clamp(1, 64);
    a.reverse_bits() >> (64 - bits)
}

/// `bfe.type` (PTX ISA 9.7.1.19): "Extract bit field from `a` and place the
/// zero or sign-extended result in `d`. Source `b` gives the bit field
/// starting bit position, and source `c` gives the bit field length in
/// bits." "`pos = b & 0xff; len = c & 0xff;` ... `sbit = a[min(pos+len-1,
/// msb)]` ... `d[i] = (i<len && pos+i<=msb) ? a[pos+i] : sbit;`"; "If the
/// bit field length is zero, the result is zero."
pub fn bfe(ty: IntType, a: u64, b: u32, c: u32) -> u64 {
    let msb = ty.width() - 1;
    let (pos, len) = (b & 0xff, c & 0xff);
    let sbit = if !ty.signed || len == 0 {
        false
    } else {
        (a >> (pos + len - 1).min(msb)) & 1 == 1
    };
    let mut d = 0u64;
    for i in 0..=msb {
        let bit = if i < len && pos + i <= msb {
            (a >> (pos + i)) & 1 == 1
        } else {
            sbit
        };
        d |= (bit as u64) << i;
    }
    d
}

/// `bfi.type` (PTX ISA 9.7.1.20): "Align and insert a bit field from `a`
/// into `b`" ... "`f = b; for (i=0; i<len && pos+i<=msb; i++) f[pos+i] =
/// a[i];`" with `pos = c & 0xff`, `len = d & 0xff`.
pub fn bfi(bits: u32, a: u64, b: u64, c: u32, d: u32) -> u64 {
    let bits = bits.clamp(1, 64);
    let (pos, len) = (c & 0xff, d & 0xff);
    let mut f = b & IntType {
        bits,
        signed: false,
    }
    .mask();
    let mut i = 0;
    while i < len && pos + i < bits {
        f = (f & !(1 << (pos + i))) | (((a >> i) & 1) << (pos + i));
        i += 1;
    }
    f
}

/// `.clamp` or `.wrap` of `bmsk`, `szext` and `shf`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShiftMode {
    Clamp,
    Wrap,
}

/// `bmsk.mode.b32` (PTX ISA 9.7.1.22): "Generates a 32-bit mask starting
/// from the bit position specified in operand `a`, and of the width
/// specified in operand `b`." Follows the spec's pseudocode (`a1 = a &
/// 0x1f; mask0 = (~0) << a1; ... d = mask0 & ~mask1;`).
pub fn bmsk(mode: ShiftMode, a: u32, b: u32) -> u32 {
    let a1 = a & 0x1f;
    let mut mask0 = u32::MAX << a1;
    let b1 = b & 0x1f;
    let sum = a1 + b1;
    let mut mask1 = if sum >= 32 { 0 } else { u32::MAX << sum };
    let mut position_overflow = false;
    let mut width_overflow = false;
    if mode == ShiftMode::Clamp {
        if a >= 32 {
            position_overflow = true;
            mask0 = 0;
        }
        if b >= 32 {
            width_overflow = true;
        }
    }
    if sum >= 32 || position_overflow || width_overflow {
        mask1 = 0;
    } else if b1 == 0 {
        mask1 = u32::MAX;
    }
    mask0 & !mask1
}

/// `szext.mode.type` (PTX ISA 9.7.1.23): "Sign-extends or zero-extends an
/// N-bit value from operand `a` where N is specified in operand `b`." "If
/// the value of N is 0, then the result of `szext` is 0." Follows the spec's
/// pseudocode (`b1 = b & 0x1f; too_large = (b >= 32 && .mode == .clamp)`
/// ... `d = (a & ~mask) | (sign_bit ? mask | 0)`).
pub fn szext(signed: bool, mode: ShiftMode, a: u32, b: u32) -> u32 {
    let b1 = b & 0x1f;
    let too_large = b >= 32 && mode == ShiftMode::Clamp;
    let mask = if too_large { 0 } else { u32::MAX << b1 };
    let sign_pos = b1.wrapping_sub(1) & 0x1f;
    let sign_bit = !(b1 == 0 || too_large || !signed) && (a >> sign_pos) & 1 == 1;
    (a & !mask) | if sign_bit { mask } else { 0 }
}

/// `dp4a.atype.btype` (PTX ISA 9.7.1.24): "Four-way byte dot product which
/// is accumulated in 32-bit result" ... "`for (i = 0; i < 4; ++i) d +=
/// Va[i] * Vb[i];`" (bytes sign- or zero-extended by their type; the sum
/// wraps in 32 bits).
pub fn dp4a(a_signed: bool, b_signed: bool, a: u32, b: u32, c: u32) -> u32 {
    let byte =
        |x: u32, i: u32, s: bool| IntType { bits: 8, signed: s }.value((x >> (8 * i)) as u64);
    let mut d = c as i128;
    for i in 0..4 {
        d += byte(a, i, a_signed) * byte(b, i, b_signed);
    }
    d as u32
}

/// `dp2a.mode.atype.btype` (PTX ISA 9.7.1.25): "Two-way 16-bit to 8-bit dot
/// product which is accumulated in 32-bit result" ... "`b_select = (.mode
/// == .lo) ? 0 : 2; for (i = 0; i < 2; ++i) d += Va[i] * Vb[b_select +
/// i];`".
pub fn dp2a(hi: bool, a_signed: bool, b_signed: bool, a: u32, b: u32, c: u32) -> u32 {
    let half = |i: u32| {
        IntType {
            bits: 16,
            signed: a_signed,
        }
        .value((a >> (16 * i)) as u64)
    };
    let byte = |i: u32| {
        IntType {
            bits: 8,
            signed: b_signed,
        }
        .value((b >> (8 * i)) as u64)
    };
    let sel = if hi { 2 } else { 0 };
    let mut d = c as i128;
    for i in 0..2 {
        d += half(i) * byte(sel + i);
    }
    d as u32
}

// ---------------------------------------------------------------- 9.7.2

/// `add.cc.type` (PTX ISA 9.7.2.1, `.u32 .s32 .u64 .s64`): "Performs integer
/// addition and writes the carry-out value into the condition code
/// register." "Behavior is the same for unsigned and signed integers."
pub fn add_cc(bits: u32, a: u64, b: u64) -> (u64, Carry) {
    addc(bits, a, b, Carry(false))
}

/// `addc{.cc}.type` (PTX ISA 9.7.2.2): "`d = a + b + CC.CF;`"; with `.cc`
/// "the carry-out value [is written] into the condition code register".
pub fn addc(bits: u32, a: u64, b: u64, cf: Carry) -> (u64, Carry) {
    let m = IntType {
        bits,
        signed: false,
    }
    .mask() as u128;
    let t = (a as u128 & m) + (b as u128 & m) + cf.0 as u128;
    ((t & m) as u64, Carry(t > m))
}

/// `sub.cc.type` (PTX ISA 9.7.2.3): "Performs integer subtraction and writes
/// the carry-out value into the condition code register." The carry-out of
/// a subtraction is its borrow, as `subc` (`d = a - (b + CC.CF)`) reads it.
pub fn sub_cc(bits: u32, a: u64, b: u64) -> (u64, Carry) {
    subc(bits, a, b, Carry(false))
}

/// `subc{.cc}.type` (PTX ISA 9.7.2.4): "`d = a - (b + CC.CF);`"; with `.cc`
/// the borrow out.
pub fn subc(bits: u32, a: u64, b: u64, cf: Carry) -> (u64, Carry) {
    let m = IntType {
        bits,
        signed: false,
    }
    .mask() as u128;
    let sub = (b as u128 & m) + cf.0 as u128;
    let x = a as u128 & m;
    (((x.wrapping_sub(sub)) & m) as u64, Carry(sub > x))
}

/// `mad{.hi,.lo}.cc.type` (PTX ISA 9.7.2.5, `.u32 .s32 .u64 .s64`):
/// "Multiplies two values, extracts either the high or low part of the
/// result, and adds a third value. Writes the result to the destination
/// register and the carry-out from the addition into the condition code
/// register."
pub fn mad_cc(ty: IntType, hi: bool, a: u64, b: u64, c: u64) -> (u64, Carry) {
    madc(ty, hi, a, b, c, Carry(false))
}

/// `madc{.hi,.lo}{.cc}.type` (PTX ISA 9.7.2.6): "`d = t<63..32> + c +
/// CC.CF;`" (`.hi`) or "`d = t<31..0> + c + CC.CF;`" (`.lo`); `.cc` writes
/// the carry-out.
pub fn madc(ty: IntType, hi: bool, a: u64, b: u64, c: u64, cf: Carry) -> (u64, Carry) {
    let mode = if hi { MulMode::Hi } else { MulMode::Lo };
    addc(ty.bits, mul(ty, mode, a, b), c, cf)
}

// ---------------------------------------------------------------- 9.7.8

/// `and`, `or`, `xor` (PTX ISA 9.7.8.1-9.7.8.3): bitwise, in the type's
/// width (`.pred` is one bit).
pub fn and(bits: u32, a: u64, b: u64) -> u64 {
    a & b
        & IntType {
            bits,
            signed: false,
        }
        .mask()
}
pub fn or(bits: u32, a: u64, b: u64) -> u64 {
    (a | b)
        & IntType {
            bits,
            signed: false,
        }
        .mask()
}
pub fn xor(bits: u32, a: u64, b: u64) -> u64 {
    (a ^ b)
        & IntType {
            bits,
            signed: false,
        }
        .mask()
}

/// `not.type` (PTX ISA 9.7.8.4): "Invert the bits in `a`."
pub fn not(bits: u32, a: u64) -> u64 {
    !a & IntType {
        bits,
        signed: false,
    }
    .mask()
}

/// `cnot.type` (PTX ISA 9.7.8.5): "`d = (a==0) ? 1 : 0;`"
pub fn cnot(bits: u32, a: u64) -> u64 {
    (a & IntType {
        bits,
        signed: false,
    }
    .mask()
        == 0) as u64
}

/// `lop3.b32` (PTX ISA 9.7.8.6): "Compute bitwise logical operation on
/// inputs `a`, `b`, `c`" where `immLut` is the truth table: for each bit,
/// the result is bit `(a << 2) | (b << 1) | c` of `immLut` (`0xF0`, `0xCC`,
/// `0xAA` stand for `a`, `b`, `c`).
pub fn lop3(a: u32, b: u32, c: u32, imm_lut: u8) -> u32 {
    let mut d = 0;
    for k in 0..8u32 {
        if (imm_lut >> k) & 1 == 1 {
            let pick = |x: u32, bit: u32| if (k >> bit) & 1 == 1 { x } else { !x };
            d |= pick(a, 2) & pick(b, 1) & pick(c, 0);
        }
    }
    d
}

/// `lop3.BoolOp.b32 d|p, a, b, c, immLut, q` (PTX ISA 9.7.8.6): "`d = F(a,
/// b, c); if (BoolOp specified) { p = (d != 0) BoolOp q; }`", `.BoolOp` one
/// of `.and`, `.or` (`and` is true for `.and`).
pub fn lop3_pred(a: u32, b: u32, c: u32, imm_lut: u8, and: bool, q: bool) -> (u32, bool) {
    let d = lop3(a, b, c, imm_lut);
    let p = if and { d != 0 && q } else { d != 0 || q };
    (d, p)
}

/// `shf.dir.mode.b32` (PTX ISA 9.7.8.7): "`n = (.mode == .clamp) ? min(c,
/// 32) : c & 0x1f;`" then of the 64-bit `[b, a]` shifted by `n`: "For
/// `shf.l`, the most-significant 32-bits of the result are written into
/// `d`; for `shf.r`, the least-significant 32-bits".
pub fn shf(left: bool, mode: ShiftMode, a: u32, b: u32, c: u32) -> u32 {
    let n = match mode {
        ShiftMode::Clamp => c.min(32),
        ShiftMode::Wrap => c & 0x1f,
    };
    let v = ((b as u64) << 32) | a as u64;
    if left {
        ((v << n) >> 32) as u32
    } else {
        (v >> n) as u32
    }
}

/// `shl.type` (PTX ISA 9.7.8.8): "Shift `a` left by the amount specified by
/// unsigned 32-bit value in `b`." "Shift amounts greater than the register
/// width N are clamped to N."
pub fn shl(bits: u32, a: u64, b: u32) -> u64 {
    let bits = bits.clamp(1, 64);
    if b >= bits {
        0
    } else {
        (a << b)
            & IntType {
                bits,
                signed: false,
            }
            .mask()
    }
}

/// `shr.type` (PTX ISA 9.7.8.9): "Signed shifts fill with the sign bit,
/// unsigned and untyped shifts fill with 0." "Shift amounts greater than
/// the register width N are clamped to N."
pub fn shr(ty: IntType, a: u64, b: u32) -> u64 {
    let n = b.min(ty.width());
    ty.wrap(ty.value(a) >> n)
}
