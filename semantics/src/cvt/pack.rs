//! `cvt.pack` (PTX ISA 9.7.9.22): "Convert two 32-bit integers `a` and `b`
//! into specified type and pack the results into `d`."

use super::convert::{Converted, Flags, SAT_INT_CLAUSE};
use super::format::IntFormat;
use super::FormError;
use crate::catalogue::Binding;

/// `cvt.pack.sat.convertType.abType{.cType}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PackOp {
    /// `.convertType`: `.u16 .s16 .u8 .s8 .u4 .s4 .u2 .s2`.
    pub convert: IntFormat,
    /// Whether operand `c` is present (every width but 16).
    pub with_c: bool,
}

impl PackOp {
    pub fn from_binding(b: &Binding) -> Result<PackOp, FormError> {
        let name = b.get("convertType").unwrap_or("");
        let convert = match name {
            ".u16" => (16, false),
            ".s16" => (16, true),
            ".u8" => (8, false),
            ".s8" => (8, true),
            ".u4" => (4, false),
            ".s4" => (4, true),
            ".u2" => (2, false),
            ".s2" => (2, true),
            other => return Err(FormError::UnknownType(other.to_string())),
        };
        Ok(PackOp {
            convert: IntFormat {
                bits: convert.0,
                signed: convert.1,
            },
            with_c: b.get("cType").is_some(),
        })
    }

    pub fn source_count(&self) -> usize {
        2 + self.with_c as usize
    }

    pub fn source_widths(&self) -> Vec<u32> {
        vec![32; self.source_count()]
    }

    /// The semantics block of 9.7.9.22: clamp `a` and `b` to the convert
    /// type's range ("with saturation"), put `tb` in the low `size` bits
    /// and `ta` above it, and fill the rest from the low bits of `c`.
    pub fn eval(&self, sources: &[u64]) -> Converted {
        let t = self.convert;
        let size = t.bits;
        let mut flags = Flags::default();
        let mut clamp = |v: u64| {
            let v = v as u32 as i32 as i128;
            let c = v.clamp(t.min(), t.max());
            if c != v {
                flags |= Flags::SATURATED;
            }
            c as u64 & t.mask()
        };
        let ta = clamp(sources[0]);
        let tb = clamp(sources[1]);
        let mut d = tb | (ta << size);
        if self.with_c && size < 16 {
            let c = sources[2] & 0xffff_ffff;
            d |= (c << (2 * size)) & 0xffff_ffff;
        }
        Converted {
            bits: d,
            unspecified: 0,
            flags,
            clause: if flags.contains(Flags::SATURATED) {
                Some(SAT_INT_CLAUSE)
            } else {
                None
            },
        }
    }
}
