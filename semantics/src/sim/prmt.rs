//! `prmt` (PTX ISA 9.7.9.7): pick four bytes out of a register pair.

/// The permute modes of `prmt`; `None` in [`prmt`] is the generic form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PrmtMode {
    /// `.f4e`, forward 4 extract.
    F4e,
    /// `.b4e`, backward 4 extract.
    B4e,
    /// `.rc8`, replicate 8.
    Rc8,
    /// `.ecl`, edge clamp left.
    Ecl,
    /// `.ecr`, edge clamp right.
    Ecr,
    /// `.rc16`, replicate 16.
    Rc16,
}

impl PrmtMode {
    pub const ALL: [PrmtMode; 6] = [
        PrmtMode::F4e,
        PrmtMode::B4e,
        PrmtMode::Rc8,
        PrmtMode::Ecl,
        PrmtMode::Ecr,
        PrmtMode::Rc16,
    ];

    /// From the qualifier (`.f4e`), dot included.
    pub fn from_qualifier(q: &str) -> Option<PrmtMode> {
        Some(match q {
            ".f4e" => PrmtMode::F4e,
            ".b4e" => PrmtMode::B4e,
            ".rc8" => PrmtMode::Rc8,
            ".ecl" => PrmtMode::Ecl,
            ".ecr" => PrmtMode::Ecr,
            ".rc16" => PrmtMode::Rc16,
            _ => return None,
        })
    }

    /// The source byte of each destination byte `[d.b0, d.b1, d.b2, d.b3]`
    /// for selector `c[1:0]`: the mode table of 9.7.9.7, row by row (the
    /// table lists `d.b3` first).
    fn sources(self, sel: u32) -> [u32; 4] {
        let s = sel & 3;
        match self {
            // f4e: 0 -> 3 2 1 0, 1 -> 4 3 2 1, 2 -> 5 4 3 2, 3 -> 6 5 4 3
            PrmtMode::F4e => [s, s + 1, s + 2, s + 3],
            // b4e: 0 -> 5 6 7 0, 1 -> 6 7 0 1, 2 -> 7 0 1 2, 3 -> 0 1 2 3
            PrmtMode::B4e => [s, (s + 7) & 7, (s + 6) & 7, (s + 5) & 7],
            // rc8: every byte is byte s
            PrmtMode::Rc8 => [s; 4],
            // ecl: 0 -> 3 2 1 0, 1 -> 3 2 1 1, 2 -> 3 2 2 2, 3 -> 3 3 3 3
            PrmtMode::Ecl => [s, s.max(1), s.max(2), 3],
            // ecr: 0 -> 0 0 0 0, 1 -> 1 1 1 0, 2 -> 2 2 1 0, 3 -> 3 2 1 0
            PrmtMode::Ecr => [0, s.min(1), s.min(2), s],
            // rc16: 0 -> 1 0 1 0, 1 -> 3 2 3 2, 2 -> 1 0 1 0, 3 -> 3 2 3 2
            PrmtMode::Rc16 => {
                let lo = (s & 1) * 2;
                [lo, lo + 1, lo, lo + 1]
            }
        }
    }
}

/// `prmt.b32{.mode} d, a, b, c` (PTX ISA 9.7.9.7).
///
/// "The bytes in the two source registers are numbered from 0 to 7:
/// `{b, a} = {{b7, b6, b5, b4}, {b3, b2, b1, b0}}`." In the generic form
/// (`mode` is `None`) each destination byte has a 4-bit selector in `c`
/// (`d.b0` in `c[3:0]` up to `d.b3` in `c[15:12]`): "The 3 lsbs of the
/// selection value specify which of the 8 source bytes should be moved into
/// the target position. The msb defines if the byte value should be copied,
/// or if the sign (msb of the byte) should be replicated over all 8 bits".
/// With a mode, "the two lsb's of operand `c`" pick a row of the mode's
/// table, and "the sign extension is only performed as part of generic
/// form". Every input gives a defined result.
#[inline]
pub fn prmt(mode: Option<PrmtMode>, a: u32, b: u32, c: u32) -> u32 {
    let tmp64 = (u64::from(b) << 32) | u64::from(a);
    let byte = |i: u32| ((tmp64 >> (8 * (i & 7))) & 0xff) as u32;
    let mut d = 0u32;
    match mode {
        None => {
            for k in 0..4 {
                let ctl = (c >> (4 * k)) & 0xf;
                let v = byte(ctl & 7);
                let v = if ctl & 8 != 0 {
                    if v & 0x80 != 0 {
                        0xff
                    } else {
                        0
                    }
                } else {
                    v
                };
                d |= v << (8 * k);
            }
        }
        Some(m) => {
            for (k, src) in m.sources(c).into_iter().enumerate() {
                d |= byte(src) << (8 * k);
            }
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mode table of 9.7.9.7, transcribed as printed: for each mode and
    /// selector, the sources of `d.b3 d.b2 d.b1 d.b0`.
    const TABLE: &[(PrmtMode, [[u32; 4]; 4])] = &[
        (
            PrmtMode::F4e,
            [[3, 2, 1, 0], [4, 3, 2, 1], [5, 4, 3, 2], [6, 5, 4, 3]],
        ),
        (
            PrmtMode::B4e,
            [[5, 6, 7, 0], [6, 7, 0, 1], [7, 0, 1, 2], [0, 1, 2, 3]],
        ),
        (
            PrmtMode::Rc8,
            [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
        ),
        (
            PrmtMode::Ecl,
            [[3, 2, 1, 0], [3, 2, 1, 1], [3, 2, 2, 2], [3, 3, 3, 3]],
        ),
        (
            PrmtMode::Ecr,
            [[0, 0, 0, 0], [1, 1, 1, 0], [2, 2, 1, 0], [3, 2, 1, 0]],
        ),
        (
            PrmtMode::Rc16,
            [[1, 0, 1, 0], [3, 2, 3, 2], [1, 0, 1, 0], [3, 2, 3, 2]],
        ),
    ];

    /// Source bytes numbered 0..7 hold 0x10..0x17, so the result names
    /// its sources.
    const A: u32 = 0x1312_1110;
    const B: u32 = 0x1716_1514;

    #[test]
    fn modes_follow_the_table() {
        for (mode, rows) in TABLE {
            for (sel, row) in rows.iter().enumerate() {
                let want = row.iter().fold(0u32, |acc, s| (acc << 8) | (0x10 + s));
                // Only c[1:0] matters: higher bits must not change the result.
                for high in [0u32, 0xffff_fff0, 0x1234_5670] {
                    let c = high | sel as u32;
                    assert_eq!(prmt(Some(*mode), A, B, c), want, "{mode:?} c={c:#x}");
                }
            }
        }
    }

    #[test]
    fn generic_form_selects_and_sign_extends() {
        // d.b0 <- c[3:0], .. d.b3 <- c[15:12]
        assert_eq!(prmt(None, A, B, 0x3210), A);
        assert_eq!(prmt(None, A, B, 0x7654), B);
        assert_eq!(prmt(None, A, B, 0x0123), 0x1011_1213);
        // msb set: replicate the sign of the selected byte
        assert_eq!(prmt(None, 0x0000_8000, 0, 0x9999), 0xffff_ffff);
        assert_eq!(prmt(None, 0x0000_7f00, 0, 0x9999), 0);
        assert_eq!(prmt(None, 0x8000_7f00, 0, 0x0b01), 0x00ff_007f);
        // bits above c[15:0] are not selectors
        assert_eq!(prmt(None, A, B, 0xffff_3210), A);
    }
}
