//! The video instructions (PTX ISA 9.7.10 scalar, 9.7.11 SIMD) as pure
//! functions on register bits.
