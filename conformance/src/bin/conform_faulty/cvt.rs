//! Seeded faults in `cvt` and `cvt.pack` (PTX ISA 9.7.9.21, 9.7.9.22). Each
//! function is a buggy implementation of the conversions it touches: from a
//! form and one case's source operands it gives the destination register
//! as that implementation would, or `None` for a form the bug leaves alone.
//! Most re-evaluate the model with one thing changed (a rounding mode, a
//! modifier, a source read the wrong way); the rest change the lanes the
//! bug reaches. Cases the bug does not reach come out as the model says.

use ptx_semantics::cvt::convert::Flags;
use ptx_semantics::cvt::format::{
    FloatFormat, Format, IntFormat, BF16, E4M3, F16, F32, F64, TF32, UE8M0,
};
use ptx_semantics::cvt::nan::{self, NanRule};
use ptx_semantics::cvt::round::{decode, round_to_integer, Decoded, Round};
use ptx_semantics::cvt::{extend_to_register, Conversion, CvtOp, PackOp};

/// A conversion fault: the destination register (`reg` bits wide) for
/// the form and the source operands, or `None` where the bug does not act.
pub type ConversionFault = fn(&Conversion, &[u64], u32) -> Option<u64>;

/// The destination register as the model gives it; `None` where the
/// result is undefined (such cases are not in a suite).
pub fn register(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let c = conv.eval(s).ok()?;
    Some(match conv {
        Conversion::Cvt(op) => extend_to_register(&op.dst, c.bits, reg),
        Conversion::Pack(_) => c.bits,
    })
}

fn cvt_op(conv: &Conversion) -> Option<&CvtOp> {
    match conv {
        Conversion::Cvt(op) => Some(op),
        Conversion::Pack(_) => None,
    }
}

/// The form with `change` made to it, evaluated.
fn with(conv: &Conversion, s: &[u64], reg: u32, change: impl FnOnce(&mut CvtOp)) -> Option<u64> {
    let mut m = *cvt_op(conv)?;
    change(&mut m);
    register(&Conversion::Cvt(m), s, reg)
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}

fn is_nan(f: &FloatFormat, bits: u64) -> bool {
    matches!(decode(f, bits & mask(f.width())), Decoded::Nan { .. })
}

fn is_subnormal(f: &FloatFormat, bits: u64) -> bool {
    let b = bits & mask(f.width());
    (b >> f.man_bits) & mask(f.exp_bits) == 0 && b & mask(f.man_bits) != 0
}

/// A value of `f` as it sits in a register (`.tf32` in the `.f32` layout).
fn stored(f: &FloatFormat, v: u64) -> u64 {
    if f.id == TF32.id {
        v << 13
    } else {
        v
    }
}

fn stochastic(op: &CvtOp) -> bool {
    matches!(op.round, Some(Round::Stochastic { .. }))
}

/// One float lane of a float-to-float conversion: the source value and
/// format, the destination format and where the lane sits in the result.
struct Lane {
    src: FloatFormat,
    bits: u64,
    dst: FloatFormat,
    shift: u32,
    width: u32,
}

/// The lanes of a float-to-float conversion, as `CvtOp::eval` pairs them
/// (lane 0, operand `a`, is the most significant).
fn lanes(op: &CvtOp, s: &[u64]) -> Vec<Lane> {
    match (op.dst, op.src) {
        (Format::Float(d), Format::Float(f)) => vec![Lane {
            src: f,
            bits: s[0] & mask(f.width()),
            dst: d,
            shift: 0,
            width: Format::Float(d).width(),
        }],
        (
            Format::Pack {
                of,
                lanes,
                lane_bits,
            },
            Format::Float(f),
        ) => (0..lanes)
            .map(|i| Lane {
                src: f,
                bits: s[i as usize] & mask(f.width()),
                dst: of,
                shift: (lanes - 1 - i) * lane_bits,
                width: lane_bits,
            })
            .collect(),
        (
            Format::Pack {
                of,
                lanes,
                lane_bits,
            },
            Format::Pack {
                of: f,
                lane_bits: sl,
                ..
            },
        ) => (0..lanes)
            .map(|i| Lane {
                src: f,
                bits: (s[0] >> ((lanes - 1 - i) * sl)) & mask(sl),
                dst: of,
                shift: (lanes - 1 - i) * lane_bits,
                width: lane_bits,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The destination's float lanes: format, shift and width.
fn dest_lanes(op: &CvtOp) -> Vec<(FloatFormat, u32, u32)> {
    match op.dst {
        Format::Float(d) => vec![(d, 0, op.dst.width())],
        Format::Pack {
            of,
            lanes,
            lane_bits,
        } => (0..lanes).map(|i| (of, i * lane_bits, lane_bits)).collect(),
        Format::Int(_) => Vec::new(),
    }
}

fn set_lane(r: u64, shift: u32, width: u32, v: u64) -> u64 {
    (r & !(mask(width) << shift)) | ((v & mask(width)) << shift)
}

/// The NaN rule of the form for one lane (`nan.rs`).
fn nan_rule(op: &CvtOp, l: &Lane) -> NanRule {
    let integral = op.integer_rounding && op.src == op.dst;
    nan::rule(
        &l.src,
        &l.dst,
        op.round,
        integral,
        op.mods.ftz,
        op.mods.satfinite,
    )
}

/// Signed saturation clamps to `[-MAX, MAX]` instead of `[MIN, MAX]`
/// (a clamp written on the magnitude): a result of exactly MIN becomes
/// MIN + 1. Acts wherever a signed result is clamped: float to signed
/// integer (clamped by default, PTX ISA 9.7.9.21), `cvt.sat` between
/// integers, and the signed `cvt.pack.sat`.
pub fn sat_signed_symmetric(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    match conv {
        Conversion::Pack(p) if p.convert.signed => Some(pack(p, s, PackBug::Symmetric)),
        Conversion::Pack(_) => None,
        Conversion::Cvt(op) => {
            let Format::Int(d) = op.dst else { return None };
            let clamps = match op.src {
                Format::Float(f) => !is_nan(&f, s[0]),
                Format::Int(_) => op.mods.sat,
                Format::Pack { .. } => false,
            };
            if !d.signed || !clamps {
                return None;
            }
            let c = conv.eval(s).ok()?;
            let v = d.read(c.bits).max(-d.max());
            Some(extend_to_register(&op.dst, v as u64 & d.mask(), reg))
        }
    }
}

/// `.f32` subnormal inputs read as (signed) zero without `.ftz`: a
/// denormals-are-zero mode left on.
pub fn denormals_flushed_without_ftz(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    if op.mods.ftz || op.src != Format::Float(F32) {
        return None;
    }
    let values = op.source_count() - stochastic(op) as usize;
    let mut t = s.to_vec();
    for v in &mut t[..values] {
        if is_subnormal(&F32, *v) {
            *v &= F32.sign_mask();
        }
    }
    register(conv, &t, reg)
}

/// `.rz` integer-to-float conversions round away from zero (the rounding
/// increment applied whenever bits are dropped).
pub fn rz_int_to_float_away(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    let (Format::Float(_), Format::Int(src)) = (op.dst, op.src) else {
        return None;
    };
    if op.round != Some(Round::TowardZero) {
        return None;
    }
    let away = if src.read(s[0]) < 0 {
        Round::Down
    } else {
        Round::Up
    };
    with(conv, s, reg, |m| m.round = Some(away))
}

/// A negative NaN keeps its sign where sm_90 gives the destination's
/// canonical (positive) NaN (`cvt.rn.f16.f32 0xffc00000` gives `0xffff`,
/// not `0x7fff`; docs/cvt-observations.md).
pub fn nan_sign_kept(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    if op.mods.sat || op.mods.relu {
        return None;
    }
    let mut r = register(conv, s, reg)?;
    for l in lanes(op, s) {
        let negative_nan = matches!(decode(&l.src, l.bits), Decoded::Nan { neg: true, .. });
        if negative_nan && l.dst.canonical_nan.is_some() && nan_rule(op, &l) == NanRule::Canonical {
            r |= stored(&l.dst, l.dst.sign_mask()) << l.shift;
        }
    }
    Some(r)
}

/// `.rn` rounds ties away from zero (`.rna`'s rule).
pub fn rn_ties_away(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    if op.round != Some(Round::NearestEven) || op.integer_rounding {
        return None;
    }
    with(conv, s, reg, |m| m.round = Some(Round::NearestAway))
}

/// `.rni` rounds ties away from zero (C's `round` where `rint` is meant).
pub fn rni_ties_away(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    if op.round != Some(Round::NearestEven) || !op.integer_rounding {
        return None;
    }
    with(conv, s, reg, |m| m.round = Some(Round::NearestAway))
}

/// `.rm`/`.rmi` and `.rp`/`.rpi` swapped.
pub fn rm_rp_swapped(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let swapped = match cvt_op(conv)?.round {
        Some(Round::Down) => Round::Up,
        Some(Round::Up) => Round::Down,
        _ => return None,
    };
    with(conv, s, reg, |m| m.round = Some(swapped))
}

/// `.rna` rounds ties to even.
pub fn rna_as_rn(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    if cvt_op(conv)?.round != Some(Round::NearestAway) {
        return None;
    }
    with(conv, s, reg, |m| m.round = Some(Round::NearestEven))
}

/// NaN converted to an integer gives x86's "integer indefinite" (the
/// 32-bit `0x80000000`, or `1 << 63` for 64-bit destinations, narrowed to
/// the destination) where PTX ISA 9.7.9.21 gives 0.
pub fn nan_to_int_indefinite(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    let (Format::Int(d), Format::Float(f)) = (op.dst, op.src) else {
        return None;
    };
    if !is_nan(&f, s[0]) {
        return None;
    }
    let v = if d.bits == 64 {
        1 << 63
    } else {
        0x8000_0000 & d.mask()
    };
    Some(extend_to_register(&op.dst, v, reg))
}

/// Float-to-integer conversions wrap instead of clamping: the rounded
/// value goes through a 64-bit integer (out of its range: x86's
/// `1 << 63`) and keeps its low bits.
pub fn float_to_int_wraps(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    let (Format::Int(d), Format::Float(f)) = (op.dst, op.src) else {
        return None;
    };
    let round = op.round.unwrap_or(Round::NearestEven);
    let value: Option<i128> = match decode(&f, s[0] & mask(f.width())) {
        Decoded::Nan { .. } => return None,
        Decoded::Zero { .. } => Some(0),
        Decoded::Inf { .. } => None,
        Decoded::Finite { neg, sig, exp } => {
            if op.mods.ftz && f.id == F32.id && sig < 1 << F32.man_bits {
                Some(0)
            } else {
                let (mag, _) = round_to_integer(neg, sig, exp, round);
                (mag < 1 << 64).then(|| if neg { -(mag as i128) } else { mag as i128 })
            }
        }
    };
    let bits = match value {
        Some(v) if v >= d.min() && v <= d.max() => return None,
        Some(v) if v >= i64::MIN as i128 => v as u64,
        _ => 1 << 63,
    };
    Some(extend_to_register(&op.dst, bits & d.mask(), reg))
}

/// `.relu` ignored.
pub fn relu_ignored(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    if !cvt_op(conv)?.mods.relu {
        return None;
    }
    with(conv, s, reg, |m| m.mods.relu = false)
}

/// `.satfinite` ignored (overflow gives infinity where the format has
/// one).
pub fn satfinite_ignored(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    if !cvt_op(conv)?.mods.satfinite {
        return None;
    }
    with(conv, s, reg, |m| m.mods.satfinite = false)
}

/// `cvt.sat` between integers truncates instead of clamping.
pub fn int_sat_ignored(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    if !(op.mods.sat && matches!((op.dst, op.src), (Format::Int(_), Format::Int(_)))) {
        return None;
    }
    with(conv, s, reg, |m| m.mods.sat = false)
}

/// `.ftz` flushes `.f32` subnormal inputs but not subnormal `.f32`
/// results (a flush done on the way in only). NaN inputs are left alone:
/// their rule depends on `.ftz` otherwise.
pub fn ftz_results_kept(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    if !op.mods.ftz
        || op.dst != Format::Float(F32)
        || lanes(op, s).iter().any(|l| is_nan(&l.src, l.bits))
    {
        return None;
    }
    let mut t = s.to_vec();
    if op.src == Format::Float(F32) && is_subnormal(&F32, t[0]) {
        t[0] &= F32.sign_mask();
    }
    with(conv, &t, reg, |m| m.mods.ftz = false)
}

/// `.ftz` flushes to `+0` instead of a sign-preserving zero.
pub fn ftz_sign_lost(conv: &Conversion, s: &[u64], _reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    let Format::Float(d) = op.dst else {
        return None;
    };
    if !op.mods.ftz {
        return None;
    }
    let c = conv.eval(s).ok()?;
    (c.flags.contains(Flags::FLUSHED) && c.bits == stored(&d, d.sign_mask())).then_some(0)
}

/// `.f16` results that are subnormal are flushed to a signed zero (a
/// half-precision unit without subnormals).
pub fn f16_subnormal_results_flushed(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    let mut r = register(conv, s, reg)?;
    for (f, shift, width) in dest_lanes(op) {
        let v = (r >> shift) & mask(width);
        if f.id == F16.id && is_subnormal(&F16, v) {
            r = set_lane(r, shift, width, v & F16.sign_mask());
        }
    }
    Some(r)
}

/// `.f16` subnormal sources read as a signed zero (no `.ftz` asks for
/// that; PTX's `.ftz` concerns `.f32` only).
pub fn f16_subnormal_inputs_flushed(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    let mut t = s.to_vec();
    match op.src {
        Format::Float(f) if f.id == F16.id => {
            if is_subnormal(&F16, t[0]) {
                t[0] &= F16.sign_mask();
            }
        }
        Format::Pack {
            of,
            lanes,
            lane_bits,
        } if of.id == F16.id => {
            for i in 0..lanes {
                let v = (t[0] >> (i * lane_bits)) & mask(lane_bits);
                if is_subnormal(&F16, v) {
                    t[0] = set_lane(t[0], i * lane_bits, lane_bits, v & F16.sign_mask());
                }
            }
        }
        _ => return None,
    }
    register(conv, &t, reg)
}

/// An unsigned integer source converted to float as if signed (`u32`
/// values from 2^31 up come out negative).
pub fn unsigned_read_as_signed(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    let (Format::Float(_), Format::Int(src)) = (op.dst, op.src) else {
        return None;
    };
    if src.signed {
        return None;
    }
    with(conv, s, reg, |m| {
        m.src = Format::Int(IntFormat {
            bits: src.bits,
            signed: true,
        })
    })
}

/// `.s8`/`.s16` results zero-extended in a wider register (PTX ISA
/// 9.7.9.21: "sign-extended to the destination register width for signed
/// integers").
pub fn narrow_signed_zero_extended(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    let Format::Int(d) = op.dst else { return None };
    if !d.signed || reg <= d.bits {
        return None;
    }
    Some(register(conv, s, reg)? & d.mask())
}

/// The two halves of an `x2` result swapped (operand `a` in the low half;
/// PTX ISA 9.7.9.21 puts it in the upper).
pub fn x2_halves_swapped(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let Format::Pack {
        lanes: 2,
        lane_bits,
        ..
    } = cvt_op(conv)?.dst
    else {
        return None;
    };
    let r = register(conv, s, reg)?;
    Some(((r & mask(lane_bits)) << lane_bits) | (r >> lane_bits))
}

/// A NaN converted to `.e4m3` with `.satfinite` gives MAX_NORM (the FP6
/// and FP4 rule) instead of NaN.
pub fn e4m3_nan_to_max(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    let mut r = register(conv, s, reg)?;
    for l in lanes(op, s) {
        if l.dst.id == E4M3.id && is_nan(&l.src, l.bits) {
            r = set_lane(r, l.shift, l.width, E4M3.max_norm());
        }
    }
    Some(r)
}

/// `.rn` to `.bf16` from `.f32` truncates: the upper 16 bits of the
/// source, NaNs and all (a signalling NaN with a low payload becomes an
/// infinity). Forms with modifiers are left alone.
pub fn bf16_truncates(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    let to_bf16 = match op.dst {
        Format::Float(d) | Format::Pack { of: d, .. } => d.id == BF16.id,
        Format::Int(_) => false,
    };
    if !to_bf16
        || op.src != Format::Float(F32)
        || op.round != Some(Round::NearestEven)
        || op.mods != Default::default()
    {
        return None;
    }
    let mut r = register(conv, s, reg)?;
    for l in lanes(op, s) {
        r = set_lane(r, l.shift, l.width, l.bits >> 16);
    }
    Some(r)
}

/// `.tf32` results keep the source's 13 low bits (rounded, but the mask
/// that clears them forgotten). Zero, infinite and NaN results are left
/// alone.
pub fn tf32_low_bits_kept(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    if op.dst != Format::Float(TF32)
        || !matches!(decode(&F32, s[0] & mask(32)), Decoded::Finite { .. })
    {
        return None;
    }
    let r = register(conv, s, reg)?;
    if r & 0x7fff_ffff == 0 || (r >> 23) & 0xff == 0xff {
        return None;
    }
    Some(r | (s[0] & 0x1fff))
}

/// `.sat` on a float destination lets a NaN through (the pair's NaN)
/// where PTX ISA 9.7.9.21 says "`NaN` results are flushed to positive
/// zero".
pub fn sat_nan_kept(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    if !op.mods.sat || !lanes(op, s).iter().any(|l| is_nan(&l.src, l.bits)) {
        return None;
    }
    with(conv, s, reg, |m| m.mods.sat = false)
}

/// `.sat` on a float destination clamps above 1.0 only: negative results
/// stay negative (PTX ISA 9.7.9.21: "limits the result to the range
/// [0.0, 1.0]").
pub fn sat_no_lower_clamp(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    let Format::Float(d) = op.dst else {
        return None;
    };
    if !op.mods.sat || lanes(op, s).iter().any(|l| is_nan(&l.src, l.bits)) {
        return None;
    }
    let unclamped = with(conv, s, reg, |m| m.mods.sat = false)?;
    (unclamped & stored(&d, d.sign_mask()) != 0).then_some(unclamped)
}

/// A NaN that sm_90 passes on with its payload (`.f64` narrowing and
/// widening, `cvt.f32.f32`) becomes the canonical NaN instead.
pub fn nan_payload_dropped(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    if op.mods.sat || op.mods.relu {
        return None;
    }
    let mut r = register(conv, s, reg)?;
    for l in lanes(op, s) {
        let Some(canonical) = l.dst.canonical_nan else {
            continue;
        };
        if is_nan(&l.src, l.bits) && matches!(nan_rule(op, &l), NanRule::Quiet | NanRule::Preserve)
        {
            r = set_lane(r, l.shift, l.width, canonical);
        }
    }
    Some(r)
}

/// Overflow under a rounding toward zero (`.rz`; `.rm` for positive,
/// `.rp` for negative values) gives infinity instead of MAX_NORM (IEEE
/// 754 7.4, which PTX follows).
pub fn directed_overflow_to_inf(conv: &Conversion, s: &[u64], _reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    let Format::Float(d) = op.dst else {
        return None;
    };
    if !d.has_inf() || op.mods.satfinite {
        return None;
    }
    let c = conv.eval(s).ok()?;
    if !c.flags.contains(Flags::OVERFLOW) || c.flags.contains(Flags::SATURATED) {
        return None;
    }
    let sign = stored(&d, d.sign_mask());
    if c.bits & !sign != stored(&d, d.max_norm()) {
        return None;
    }
    Some((c.bits & sign) | stored(&d, d.inf()))
}

/// `cvt.pack.sat` read from the pseudo-code of 9.7.9.22 as printed (`ta =
/// a < MIN ? MIN : a; ta = a > MAX ? MAX : a;`): no clamp from below, so a
/// value under MIN keeps its low bits.
pub fn pack_no_lower_clamp(conv: &Conversion, s: &[u64], _reg: u32) -> Option<u64> {
    match conv {
        Conversion::Pack(p) => Some(pack(p, s, PackBug::NoLowerClamp)),
        Conversion::Cvt(_) => None,
    }
}

/// `cvt.pack` with `a` and `b` in each other's place (`a` in the low
/// bits).
pub fn pack_operands_swapped(conv: &Conversion, s: &[u64], _reg: u32) -> Option<u64> {
    match conv {
        Conversion::Pack(p) => Some(pack(p, s, PackBug::Swapped)),
        Conversion::Cvt(_) => None,
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum PackBug {
    /// Clamps to `[-MAX, MAX]`.
    Symmetric,
    /// Clamps from above only.
    NoLowerClamp,
    /// `a` below `b`.
    Swapped,
}

/// `cvt.pack.sat` (PTX ISA 9.7.9.22) with one bug.
fn pack(p: &PackOp, s: &[u64], bug: PackBug) -> u64 {
    let t = p.convert;
    let size = t.bits;
    let lowest = match bug {
        PackBug::Symmetric => -t.max(),
        PackBug::NoLowerClamp => i128::MIN,
        PackBug::Swapped => t.min(),
    };
    let clamp = |v: u64| (v as u32 as i32 as i128).clamp(lowest, t.max()) as u64 & t.mask();
    let (ta, tb) = (clamp(s[0]), clamp(s[1]));
    let mut d = if bug == PackBug::Swapped {
        ta | (tb << size)
    } else {
        tb | (ta << size)
    };
    if p.with_c && size < 16 {
        d |= ((s[2] & 0xffff_ffff) << (2 * size)) & 0xffff_ffff;
    }
    d
}

/// The conversion done in two steps through the intermediate format
/// `mid`, each rounded in the form's mode (software that converts through
/// `float` or `double`): under `.rn` the second rounding can land on a tie
/// the first one made. NaN sources are left alone (their rule is the
/// direct pair's).
fn through(conv: &Conversion, s: &[u64], reg: u32, mid: FloatFormat) -> Option<u64> {
    let op = cvt_op(conv)?;
    let src_width = op.src.width();
    if let Format::Float(f) = op.src {
        if is_nan(&f, s[0]) {
            return None;
        }
    }
    let first = CvtOp {
        dst: Format::Float(mid),
        src: op.src,
        round: op.round,
        integer_rounding: false,
        mods: Default::default(),
    };
    let m = first.eval(&[s[0] & mask(src_width)]).ok()?.bits;
    let second = CvtOp {
        src: Format::Float(mid),
        ..*op
    };
    register(&Conversion::Cvt(second), &[m], reg)
}

/// `.f64` to `.f16`/`.bf16` through `.f32` (double rounding).
pub fn f64_to_half_through_f32(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    let (Format::Float(d), Format::Float(f)) = (op.dst, op.src) else {
        return None;
    };
    if f.id != F64.id || !(d.id == F16.id || d.id == BF16.id) {
        return None;
    }
    through(conv, s, reg, F32)
}

/// 64-bit integers to `.f32` through `.f64` (double rounding: `(float)(double)x`).
pub fn int64_to_f32_through_f64(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    let (Format::Float(d), Format::Int(i)) = (op.dst, op.src) else {
        return None;
    };
    if d.id != F32.id || i.bits != 64 {
        return None;
    }
    through(conv, s, reg, F64)
}

/// Integers to `.bf16` through `.f32` (double rounding: a `bfloat16`
/// built from a `float`).
pub fn int_to_bf16_through_f32(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    let (Format::Float(d), Format::Int(_)) = (op.dst, op.src) else {
        return None;
    };
    if d.id != BF16.id {
        return None;
    }
    through(conv, s, reg, F32)
}

/// `cvt.rni.f32.f32` by the round-to-integer trick `(|x| + 2^23) - 2^23`
/// (sign put back), without the guard for `|x| >= 2^23`: odd integers
/// between 2^23 and 2^24 are rounded to even.
pub fn rni_magic_unguarded(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    if op.dst != Format::Float(F32)
        || op.src != op.dst
        || !op.integer_rounding
        || op.round != Some(Round::NearestEven)
        || op.mods != Default::default()
    {
        return None;
    }
    let x = f32::from_bits(s[0] as u32);
    if !x.is_finite() {
        return None;
    }
    let magic = 8_388_608.0f32;
    let r = ((x.abs() + magic) - magic).copysign(x);
    Some(extend_to_register(&op.dst, u64::from(r.to_bits()), reg))
}

/// `.rs` to a two-lane pack with the halves of `rbits` swapped (operand
/// `a` rounded with the low 16 bits; PTX ISA 9.7.9.21 gives it the upper
/// ones).
pub fn rs_rbits_swapped(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    if !stochastic(op) || !matches!(op.dst, Format::Pack { lanes: 2, .. }) {
        return None;
    }
    let mut t = s.to_vec();
    let r = t.last_mut()?;
    *r = ((*r & 0xffff) << 16) | ((*r >> 16) & 0xffff);
    register(conv, &t, reg)
}

/// `.rp` to `.ue8m0x2` rounds toward zero (the exponent field taken as
/// it is).
pub fn ue8m0_rp_as_rz(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    let Format::Pack { of, .. } = op.dst else {
        return None;
    };
    if of.id != UE8M0.id || op.round != Some(Round::Up) {
        return None;
    }
    with(conv, s, reg, |m| m.round = Some(Round::TowardZero))
}

/// An 8-bit integer source read as the whole 16-bit register that holds
/// it (PTX ISA 9.7.9.21: "The lower `n` bits corresponding to the
/// instruction-type width are used in the conversion").
pub fn narrow_source_reads_register(conv: &Conversion, s: &[u64], reg: u32) -> Option<u64> {
    let op = cvt_op(conv)?;
    let Format::Int(src) = op.src else {
        return None;
    };
    if src.bits != 8 {
        return None;
    }
    with(conv, s, reg, |m| {
        m.src = Format::Int(IntFormat {
            bits: 16,
            signed: src.signed,
        })
    })
}
