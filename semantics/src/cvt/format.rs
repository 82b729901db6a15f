//! The number formats `cvt` and `cvt.pack` convert between, each declared
//! once, as data (PTX ISA 5.2.5 "Alternate Floating-Point Data Formats" and
//! 9.7.9.21): widths, exponent and significand fields, which special values
//! exist, and the canonical NaN.

/// Which special values a float format has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Specials {
    /// IEEE 754 interchange layout: the all-ones exponent holds infinities
    /// and NaNs (`.f16`, `.bf16`, `.tf32`, `.f32`, `.f64`, `.e5m2`).
    Ieee,
    /// No infinities; only the all-ones exponent with an all-ones significand
    /// is NaN (`.e4m3`: `S.1111.111`).
    NanOnly,
    /// Every encoding is a finite number (`.e2m3`, `.e3m2`, `.e2m1`).
    Finite,
    /// Unsigned, exponent only, no zero: `2^(e-127)`, and `0xff` is NaN
    /// (`.ue8m0`).
    ExponentOnly,
}

/// A binary floating-point format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FloatFormat {
    /// The PTX name without the pack suffix (`f16`, `e4m3`).
    pub name: &'static str,
    /// A small number unique to the format (for fast dispatch).
    pub id: u8,
    pub exp_bits: u32,
    /// Stored significand bits (the leading bit is implicit).
    pub man_bits: u32,
    /// Whether there is a sign bit.
    pub signed: bool,
    pub specials: Specials,
    /// The NaN a conversion produces where a canonical NaN is asked for
    /// (`.relu`, `.satfinite`), `None` where the format has no NaN.
    pub canonical_nan: Option<u64>,
}

impl FloatFormat {
    /// Width in bits of one value.
    pub const fn width(&self) -> u32 {
        self.signed as u32 + self.exp_bits + self.man_bits
    }
    /// Significand precision, implicit bit included.
    pub const fn precision(&self) -> u32 {
        self.man_bits + 1
    }
    pub const fn bias(&self) -> i32 {
        (1 << (self.exp_bits - 1)) - 1
    }
    /// The exponent of the smallest normal number (for `.ue8m0`, of the
    /// smallest number).
    pub const fn emin(&self) -> i32 {
        match self.specials {
            Specials::ExponentOnly => -self.bias(),
            _ => 1 - self.bias(),
        }
    }
    /// The largest biased exponent of a finite number.
    pub const fn max_biased_exp(&self) -> u32 {
        match self.specials {
            Specials::Ieee | Specials::ExponentOnly => (1 << self.exp_bits) - 2,
            Specials::NanOnly | Specials::Finite => (1 << self.exp_bits) - 1,
        }
    }
    /// The exponent of the largest finite number.
    pub const fn emax(&self) -> i32 {
        self.max_biased_exp() as i32 - self.bias()
    }
    /// The significand (implicit bit included) of the largest finite number.
    pub const fn max_sig(&self) -> u64 {
        match self.specials {
            Specials::NanOnly => (1 << self.precision()) - 2,
            _ => (1 << self.precision()) - 1,
        }
    }
    /// The encoding of the largest finite number (MAX_NORM), positive.
    pub const fn max_norm(&self) -> u64 {
        let man = self.max_sig() & ((1u64 << self.man_bits) - 1);
        ((self.max_biased_exp() as u64) << self.man_bits) | man
    }
    pub const fn sign_mask(&self) -> u64 {
        if self.signed {
            1 << (self.width() - 1)
        } else {
            0
        }
    }
    pub const fn has_inf(&self) -> bool {
        matches!(self.specials, Specials::Ieee)
    }
    pub const fn has_zero(&self) -> bool {
        !matches!(self.specials, Specials::ExponentOnly)
    }
    /// Positive infinity, where the format has one.
    pub const fn inf(&self) -> u64 {
        ((1u64 << self.exp_bits) - 1) << self.man_bits
    }
}

/// An integer format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IntFormat {
    pub bits: u32,
    pub signed: bool,
}

impl IntFormat {
    pub const fn min(&self) -> i128 {
        if self.signed {
            -(1i128 << (self.bits - 1))
        } else {
            0
        }
    }
    pub const fn max(&self) -> i128 {
        if self.signed {
            (1i128 << (self.bits - 1)) - 1
        } else {
            (1i128 << self.bits) - 1
        }
    }
    pub const fn mask(&self) -> u64 {
        if self.bits == 64 {
            u64::MAX
        } else {
            (1u64 << self.bits) - 1
        }
    }
    /// The value of `bits` read in this format.
    pub const fn read(&self, bits: u64) -> i128 {
        let v = bits & self.mask();
        if self.signed && self.bits < 128 && (v >> (self.bits - 1)) & 1 == 1 {
            v as i128 - (1i128 << self.bits)
        } else {
            v as i128
        }
    }
}

macro_rules! float {
    ($name:ident = $text:literal #$id:literal ($e:literal, $m:literal, $signed:literal, $sp:ident, $nan:expr)) => {
        pub const $name: FloatFormat = FloatFormat {
            name: $text,
            id: $id,
            exp_bits: $e,
            man_bits: $m,
            signed: $signed,
            specials: Specials::$sp,
            canonical_nan: $nan,
        };
    };
}

// One line per format: exponent bits, stored significand bits, sign,
// specials, canonical NaN. The canonical NaNs are the encodings sm_90
// produces for `.relu` and for NaN inputs where it canonicalises (see
// `nan.rs` and corpus/cvt/hardware); `.tf32`'s is written in its register
// (`.f32`) layout, low 13 bits clear.
float!(F16 = "f16" #0 (5, 10, true, Ieee, Some(0x7fff)));
float!(BF16 = "bf16" #1 (8, 7, true, Ieee, Some(0x7fff)));
float!(TF32 = "tf32" #2 (8, 10, true, Ieee, Some(0x7fff_e000)));
float!(F32 = "f32" #3 (8, 23, true, Ieee, Some(0x7fff_ffff)));
float!(F64 = "f64" #4 (11, 52, true, Ieee, Some(0x7fff_ffff_ffff_ffff)));
float!(E4M3 = "e4m3" #5 (4, 3, true, NanOnly, Some(0x7f)));
float!(E5M2 = "e5m2" #6 (5, 2, true, Ieee, Some(0x7f)));
float!(E2M3 = "e2m3" #7 (2, 3, true, Finite, None));
float!(E3M2 = "e3m2" #8 (3, 2, true, Finite, None));
float!(E2M1 = "e2m1" #9 (2, 1, true, Finite, None));
float!(UE8M0 = "ue8m0" #10 (8, 0, false, ExponentOnly, Some(0xff)));

/// The formats' ids, for patterns.
pub mod id {
    pub const F16: u8 = 0;
    pub const BF16: u8 = 1;
    pub const TF32: u8 = 2;
    pub const F32: u8 = 3;
    pub const F64: u8 = 4;
    pub const E4M3: u8 = 5;
    pub const E5M2: u8 = 6;
    pub const E2M3: u8 = 7;
    pub const E3M2: u8 = 8;
    pub const E2M1: u8 = 9;
    pub const UE8M0: u8 = 10;
}

/// Every float format, for lookups and tests.
pub static FLOATS: &[FloatFormat] = &[
    F16, BF16, TF32, F32, F64, E4M3, E5M2, E2M3, E3M2, E2M1, UE8M0,
];

/// The float format with id `i` (for code specialised on a format id
/// through a const parameter); `.f32` for an id no format has.
pub const fn by_id(i: u8) -> FloatFormat {
    match i {
        id::F16 => F16,
        id::BF16 => BF16,
        id::TF32 => TF32,
        id::F64 => F64,
        id::E4M3 => E4M3,
        id::E5M2 => E5M2,
        id::E2M3 => E2M3,
        id::E3M2 => E3M2,
        id::E2M1 => E2M1,
        id::UE8M0 => UE8M0,
        _ => F32,
    }
}

/// A `cvt` operand type: a scalar, or a pack of `lanes` narrow values
/// (`.f16x2`, `.e4m3x4`) each held in `lane_bits` bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    Int(IntFormat),
    Float(FloatFormat),
    Pack {
        of: FloatFormat,
        lanes: u32,
        lane_bits: u32,
    },
}

impl Format {
    /// The format a PTX type qualifier names (`.s32`, `.e4m3x2`).
    pub fn from_ptx(name: &str) -> Option<Format> {
        let int = |bits, signed| Some(Format::Int(IntFormat { bits, signed }));
        let pack = |of, lanes, lane_bits| {
            Some(Format::Pack {
                of,
                lanes,
                lane_bits,
            })
        };
        match name.strip_prefix('.').unwrap_or(name) {
            "u8" => int(8, false),
            "u16" => int(16, false),
            "u32" => int(32, false),
            "u64" => int(64, false),
            "s8" => int(8, true),
            "s16" => int(16, true),
            "s32" => int(32, true),
            "s64" => int(64, true),
            "f16" => Some(Format::Float(F16)),
            "bf16" => Some(Format::Float(BF16)),
            "tf32" => Some(Format::Float(TF32)),
            "f32" => Some(Format::Float(F32)),
            "f64" => Some(Format::Float(F64)),
            "f16x2" => pack(F16, 2, 16),
            "bf16x2" => pack(BF16, 2, 16),
            "e4m3x2" => pack(E4M3, 2, 8),
            "e5m2x2" => pack(E5M2, 2, 8),
            "e4m3x4" => pack(E4M3, 4, 8),
            "e5m2x4" => pack(E5M2, 4, 8),
            // "each 8-bit output will have 2 MSB bits padded with zeros"
            "e2m3x2" => pack(E2M3, 2, 8),
            "e3m2x2" => pack(E3M2, 2, 8),
            "e2m3x4" => pack(E2M3, 4, 8),
            "e3m2x4" => pack(E3M2, 4, 8),
            "e2m1x2" => pack(E2M1, 2, 4),
            "e2m1x4" => pack(E2M1, 4, 4),
            "ue8m0x2" => pack(UE8M0, 2, 8),
            _ => None,
        }
    }

    /// Width in bits of the whole operand.
    pub fn width(&self) -> u32 {
        match self {
            Format::Int(i) => i.bits,
            Format::Float(f) => match f.name {
                // `.tf32` lives in a 32-bit register in `.f32` layout.
                "tf32" => 32,
                _ => f.width(),
            },
            Format::Pack {
                lanes, lane_bits, ..
            } => lanes * lane_bits,
        }
    }

    /// The PTX name, with its pack suffix.
    pub fn ptx_name(&self) -> String {
        match self {
            Format::Int(i) => format!(".{}{}", if i.signed { 's' } else { 'u' }, i.bits),
            Format::Float(f) => format!(".{}", f.name),
            Format::Pack { of, lanes, .. } => format!(".{}x{lanes}", of.name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Largest finite values as PTX ISA 5.2.5 and IEEE 754 give them.
    #[test]
    fn max_norm_values() {
        let value = |f: &FloatFormat| f.max_sig() as f64 * 2f64.powi(f.emax() - f.man_bits as i32);
        assert_eq!(value(&F16), 65504.0);
        assert_eq!(value(&E4M3), 448.0);
        assert_eq!(value(&E5M2), 57344.0);
        assert_eq!(value(&E2M3), 7.5);
        assert_eq!(value(&E3M2), 28.0);
        assert_eq!(value(&E2M1), 6.0);
        assert_eq!(value(&UE8M0), 2f64.powi(127));
        assert_eq!(
            value(&BF16),
            f32::MAX as f64 - 2f64.powi(104) * (2f64.powi(16) - 1.0)
        );
        assert_eq!(F16.max_norm(), 0x7bff);
        assert_eq!(E4M3.max_norm(), 0x7e);
        assert_eq!(E5M2.max_norm(), 0x7b);
        assert_eq!(E2M3.max_norm(), 0x1f);
        assert_eq!(E3M2.max_norm(), 0x1f);
        assert_eq!(E2M1.max_norm(), 0x7);
        assert_eq!(UE8M0.max_norm(), 0xfe);
        assert_eq!(F32.max_norm(), f32::MAX.to_bits() as u64);
    }

    #[test]
    fn ids_are_unique_and_named() {
        let ids = [
            id::F16,
            id::BF16,
            id::TF32,
            id::F32,
            id::F64,
            id::E4M3,
            id::E5M2,
            id::E2M3,
            id::E3M2,
            id::E2M1,
            id::UE8M0,
        ];
        for (f, i) in FLOATS.iter().zip(ids) {
            assert_eq!(f.id, i, "{}", f.name);
            assert_eq!(by_id(i), *f);
        }
    }

    #[test]
    fn names_round_trip() {
        for name in [
            ".u8", ".s64", ".f16", ".bf16x2", ".e2m1x4", ".ue8m0x2", ".tf32",
        ] {
            assert_eq!(Format::from_ptx(name).unwrap().ptx_name(), name);
        }
        assert_eq!(Format::from_ptx(".e2m1x4").unwrap().width(), 16);
        assert_eq!(Format::from_ptx(".e3m2x4").unwrap().width(), 32);
        assert_eq!(Format::from_ptx(".tf32").unwrap().width(), 32);
    }
}
