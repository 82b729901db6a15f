//! The oracle's own table of number formats (PTX ISA 5.2.5 "Alternate
//! Floating-Point Data Formats" and 9.7.9.21), declared here again and on
//! purpose not taken from the model, with exact decoding and encoding.
//! Rounding is not done here: that is the engines' business (`engine.rs`).

/// Which encodings of a float format are not finite numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Specials {
    /// IEEE 754 interchange: the all-ones exponent is infinity (zero
    /// significand) or NaN.
    Ieee,
    /// `.e4m3`: no infinity; `S.1111.111` is the only NaN, the rest of the
    /// all-ones exponent are normal numbers.
    E4m3,
    /// `.e2m3`, `.e3m2`, `.e2m1`: every encoding is a number.
    None,
    /// `.ue8m0`: no sign, no significand, no zero: `2^(E-127)`; `0xff` is
    /// NaN.
    Ue8m0,
}

/// A binary float format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fp {
    pub name: &'static str,
    /// Exponent field width.
    pub eb: u32,
    /// Stored significand field width (the leading bit is implicit).
    pub mb: u32,
    pub signed: bool,
    pub specials: Specials,
    /// Where the value sits in its register: `.tf32` is an `.f32` layout
    /// whose 13 low bits are zero.
    pub reg_shift: u32,
}

impl Fp {
    /// An IEEE 754 interchange format with `eb` exponent bits and precision
    /// `sb` (leading bit included), as Z3 names its sorts.
    pub const fn ieee(eb: u32, sb: u32) -> Fp {
        Fp {
            name: "ieee",
            eb,
            mb: sb - 1,
            signed: true,
            specials: Specials::Ieee,
            reg_shift: 0,
        }
    }
    /// Width of the value in bits (register padding aside).
    pub const fn width(&self) -> u32 {
        self.signed as u32 + self.eb + self.mb
    }
    /// Significand precision, leading bit included.
    pub const fn precision(&self) -> u32 {
        self.mb + 1
    }
    pub const fn bias(&self) -> i32 {
        (1 << (self.eb - 1)) - 1
    }
    /// The exponent (of the leading bit) of the smallest normal number.
    pub const fn emin(&self) -> i32 {
        match self.specials {
            Specials::Ue8m0 => -self.bias(),
            _ => 1 - self.bias(),
        }
    }
    pub const fn sign_bit(&self) -> u64 {
        if self.signed {
            1 << (self.width() - 1)
        } else {
            0
        }
    }
    const fn exp_all_ones(&self) -> u64 {
        (1 << self.eb) - 1
    }
    pub const fn has_inf(&self) -> bool {
        matches!(self.specials, Specials::Ieee)
    }
    pub const fn has_nan(&self) -> bool {
        !matches!(self.specials, Specials::None)
    }
    /// Positive infinity (IEEE formats only).
    pub const fn inf_bits(&self) -> u64 {
        self.exp_all_ones() << self.mb
    }
    /// The largest finite value's encoding, positive (MAX_NORM).
    pub const fn max_bits(&self) -> u64 {
        let man = (1u64 << self.mb) - 1;
        match self.specials {
            Specials::Ieee => ((self.exp_all_ones() - 1) << self.mb) | man,
            Specials::E4m3 => (self.exp_all_ones() << self.mb) | (man - 1),
            Specials::None => (self.exp_all_ones() << self.mb) | man,
            Specials::Ue8m0 => self.exp_all_ones() - 1,
        }
    }
    /// MAX_NORM as an exact value.
    pub fn max_value(&self) -> Num {
        match self.decode(self.max_bits()) {
            Class::Num(n) => n,
            _ => unreachable!("MAX_NORM is a number"),
        }
    }
    /// Reads an encoding (value layout, not register layout).
    pub fn decode(&self, bits: u64) -> Class {
        let neg = bits & self.sign_bit() != 0;
        let e = (bits >> self.mb) & self.exp_all_ones();
        let m = bits & ((1u64 << self.mb) - 1);
        match self.specials {
            Specials::Ieee if e == self.exp_all_ones() => {
                return if m == 0 {
                    Class::Inf { neg }
                } else {
                    Class::Nan { neg }
                };
            }
            Specials::E4m3 if e == self.exp_all_ones() && m == (1 << self.mb) - 1 => {
                return Class::Nan { neg };
            }
            Specials::Ue8m0 => {
                return if e == self.exp_all_ones() {
                    Class::Nan { neg: false }
                } else {
                    Class::Num(Num {
                        neg: false,
                        sig: 1,
                        exp: e as i32 - self.bias(),
                    })
                };
            }
            _ => {}
        }
        if e == 0 && m == 0 {
            return Class::Zero { neg };
        }
        let (sig, biased) = if e == 0 {
            (m, 1)
        } else {
            (m | (1 << self.mb), e as i32)
        };
        Class::Num(Num {
            neg,
            sig: sig as u128,
            exp: biased - self.bias() - self.mb as i32,
        })
    }
    /// Whether an encoding is a subnormal number.
    pub fn is_subnormal(&self, bits: u64) -> bool {
        matches!(self.decode(bits), Class::Num(n) if n.top() < self.emin())
    }
    /// The encoding of an exact value, if the format holds it exactly
    /// (value layout). Zero keeps its sign.
    pub fn encode(&self, v: Num) -> Option<u64> {
        let sign = if v.neg {
            if !self.signed {
                return None;
            }
            self.sign_bit()
        } else {
            0
        };
        if v.sig == 0 {
            return match self.specials {
                Specials::Ue8m0 => None,
                _ => Some(sign),
            };
        }
        let v = v.normalised();
        let top = v.top();
        if v.cmp_abs(&self.max_value()) == std::cmp::Ordering::Greater {
            return None;
        }
        if let Specials::Ue8m0 = self.specials {
            if v.sig != 1 || top < self.emin() {
                return None;
            }
            return Some((top + self.bias()) as u64);
        }
        // The exponent of the last significand bit the format can hold.
        let lsb = if top < self.emin() {
            self.emin() - self.mb as i32
        } else {
            top - self.mb as i32
        };
        if v.exp < lsb {
            return None;
        }
        let sig = v.sig << (v.exp - lsb);
        let biased = if top < self.emin() {
            0
        } else {
            (top + self.bias()) as u64
        };
        let man = (sig as u64) & ((1u64 << self.mb) - 1);
        Some(sign | (biased << self.mb) | man)
    }
    /// An encoding moved into its register layout.
    pub const fn to_reg(&self, bits: u64) -> u64 {
        bits << self.reg_shift
    }
}

/// What an encoding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Nan { neg: bool },
    Inf { neg: bool },
    Zero { neg: bool },
    Num(Num),
}

/// An exact nonzero (or, where said, zero) value `(-1)^neg * sig * 2^exp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Num {
    pub neg: bool,
    pub sig: u128,
    pub exp: i32,
}

impl Num {
    pub fn new(neg: bool, sig: u128, exp: i32) -> Num {
        Num { neg, sig, exp }
    }
    /// The power of two `2^exp`.
    pub fn pow2(exp: i32) -> Num {
        Num::new(false, 1, exp)
    }
    /// The same value with an odd significand (zero stays zero).
    pub fn normalised(self) -> Num {
        if self.sig == 0 {
            return Num { exp: 0, ..self };
        }
        let tz = self.sig.trailing_zeros();
        Num {
            sig: self.sig >> tz,
            exp: self.exp + tz as i32,
            ..self
        }
    }
    /// The exponent of the leading bit.
    pub fn top(&self) -> i32 {
        self.exp + 127 - self.sig.leading_zeros() as i32
    }
    pub fn negate(self) -> Num {
        Num {
            neg: !self.neg,
            ..self
        }
    }
    pub fn abs(self) -> Num {
        Num { neg: false, ..self }
    }
    /// Compares magnitudes exactly.
    pub fn cmp_abs(&self, o: &Num) -> std::cmp::Ordering {
        use std::cmp::Ordering::*;
        match (self.sig == 0, o.sig == 0) {
            (true, true) => return Equal,
            (true, false) => return Less,
            (false, true) => return Greater,
            _ => {}
        }
        let (a, b) = (self.normalised(), o.normalised());
        if a.top() != b.top() {
            return a.top().cmp(&b.top());
        }
        // Same leading exponent: align to the smaller exponent (both fit,
        // as each significand is odd and below 2^128).
        let e = a.exp.min(b.exp);
        let sa = a.sig << (a.exp - e);
        let sb = b.sig << (b.exp - e);
        sa.cmp(&sb)
    }
    /// `|self| - |o|` for `|self| >= |o|`, both with exponents within 127
    /// of each other's lowest bit.
    pub fn abs_diff(&self, o: &Num) -> Num {
        let e = self.exp.min(o.exp);
        let a = self.sig << (self.exp - e);
        let b = if o.sig == 0 { 0 } else { o.sig << (o.exp - e) };
        Num::new(false, a - b, e)
    }
}

/// An integer format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Int {
    pub bits: u32,
    pub signed: bool,
}

impl Int {
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
        if self.bits >= 64 {
            u64::MAX
        } else {
            (1 << self.bits) - 1
        }
    }
    /// The value of the low `bits` bits.
    pub const fn read(&self, x: u64) -> i128 {
        let v = x & self.mask();
        if self.signed && (v >> (self.bits - 1)) & 1 == 1 {
            v as i128 - (1i128 << self.bits)
        } else {
            v as i128
        }
    }
}

macro_rules! formats {
    ($($name:ident = $text:literal ($eb:literal, $mb:literal, $signed:literal, $sp:ident, reg << $shift:literal);)*) => {
        $(pub const $name: Fp = Fp {
            name: $text,
            eb: $eb,
            mb: $mb,
            signed: $signed,
            specials: Specials::$sp,
            reg_shift: $shift,
        };)*
        /// Every float format `cvt` names.
        pub const FLOATS: &[Fp] = &[$($name),*];
    };
}

// One line per format: exponent bits, stored significand bits, sign,
// special values, register placement.
formats! {
    F16 = "f16" (5, 10, true, Ieee, reg << 0);
    BF16 = "bf16" (8, 7, true, Ieee, reg << 0);
    TF32 = "tf32" (8, 10, true, Ieee, reg << 13);
    F32 = "f32" (8, 23, true, Ieee, reg << 0);
    F64 = "f64" (11, 52, true, Ieee, reg << 0);
    E5M2 = "e5m2" (5, 2, true, Ieee, reg << 0);
    E4M3 = "e4m3" (4, 3, true, E4m3, reg << 0);
    E3M2 = "e3m2" (3, 2, true, None, reg << 0);
    E2M3 = "e2m3" (2, 3, true, None, reg << 0);
    E2M1 = "e2m1" (2, 1, true, None, reg << 0);
    UE8M0 = "ue8m0" (8, 0, false, Ue8m0, reg << 0);
}

/// The format a PTX type name (without the dot and the pack suffix) names.
pub fn float_named(name: &str) -> Option<Fp> {
    FLOATS.iter().copied().find(|f| f.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(f: &Fp, bits: u64) -> f64 {
        match f.decode(bits) {
            Class::Num(n) => {
                let v = n.sig as f64 * 2f64.powi(n.exp);
                if n.neg {
                    -v
                } else {
                    v
                }
            }
            Class::Zero { .. } => 0.0,
            Class::Inf { neg } => {
                if neg {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                }
            }
            Class::Nan { .. } => f64::NAN,
        }
    }

    /// MAX_NORM of each format as the PTX ISA and the OCP formats give it.
    #[test]
    fn largest_values() {
        for (f, v) in [
            (F16, 65504.0),
            (BF16, 3.3895313892515355e38),
            (F32, f32::MAX as f64),
            (F64, f64::MAX),
            (E5M2, 57344.0),
            (E4M3, 448.0),
            (E3M2, 28.0),
            (E2M3, 7.5),
            (E2M1, 6.0),
            (UE8M0, 2f64.powi(127)),
        ] {
            assert_eq!(value(&f, f.max_bits()), v, "{}", f.name);
        }
    }

    #[test]
    fn specials() {
        assert!(matches!(E4M3.decode(0x7f), Class::Nan { .. }));
        assert_eq!(value(&E4M3, 0x7e), 448.0);
        assert_eq!(value(&E4M3, 0x78), 256.0);
        assert_eq!(value(&E4M3, 0x01), 2f64.powi(-9));
        assert_eq!(value(&E2M1, 0x1), 0.5);
        assert_eq!(value(&E2M3, 0x1), 0.125);
        assert_eq!(value(&E3M2, 0x1), 0.0625);
        assert_eq!(value(&UE8M0, 0), 2f64.powi(-127));
        assert!(matches!(UE8M0.decode(0xff), Class::Nan { .. }));
        assert!(matches!(E5M2.decode(0x7c), Class::Inf { neg: false }));
    }

    /// Every encoding of every format up to 16 bits decodes and encodes
    /// back to itself.
    #[test]
    fn encode_inverts_decode() {
        for f in FLOATS.iter().filter(|f| f.width() <= 16) {
            for bits in 0..1u64 << f.width() {
                match f.decode(bits) {
                    Class::Num(n) => assert_eq!(f.encode(n), Some(bits), "{} {bits:#x}", f.name),
                    Class::Zero { neg } => {
                        assert_eq!(f.encode(Num::new(neg, 0, 0)), Some(bits))
                    }
                    _ => {}
                }
            }
        }
    }
}
