//! The packing and unpacking `mov` (PTX ISA 9.7.9.4).

/// `mov.bW d, {a, b}` / `{a, b, c, d}`: "pack two 8-bit elements into
/// .b16: `d = a.x | (a.y << 8)`", ..., "pack two 64-bit elements into
/// .b128: `d = a.x | (a.y << 64)`". `width` is the instruction type's width
/// (16, 32, 64 or 128) and `elems` the vector, first element lowest; each
/// element contributes its low `width / elems.len()` bits ("Both the
/// overall size of the vector and the size of the scalar must match the
/// size of the instruction type"). `None` for a shape the spec does not
/// have (the catalogue rejects those before this is called).
pub fn mov_pack(width: u32, elems: &[u128]) -> Option<u128> {
    let n = elems.len() as u32;
    if !matches!(width, 16 | 32 | 64 | 128) || !matches!(n, 2 | 4) || width / n < 8 {
        return None;
    }
    let bits = width / n;
    let mask = low_mask(bits);
    Some(
        elems
            .iter()
            .enumerate()
            .fold(0u128, |d, (i, e)| d | ((e & mask) << (bits * i as u32))),
    )
}

/// `mov.bW {d.x, d.y} / {d.x, d.y, d.z, d.w}, a`: "unpack 16-bit elements
/// from .b32: `{ d.x, d.y } = { a[0..15], a[16..31] }`", and so on: element
/// `i` of `count` is bits `[i*w, (i+1)*w)` of `a`, `w = width / count`.
/// Only the first `count` entries of the result are meaningful.
pub fn mov_unpack(width: u32, count: usize, a: u128) -> Option<[u128; 4]> {
    let n = count as u32;
    if !matches!(width, 16 | 32 | 64 | 128) || !matches!(n, 2 | 4) || width / n < 8 {
        return None;
    }
    let bits = width / n;
    let mask = low_mask(bits);
    let mut out = [0u128; 4];
    for (i, o) in out.iter_mut().enumerate().take(count) {
        *o = (a >> (bits * i as u32)) & mask;
    }
    Some(out)
}

fn low_mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Semantics block of 9.7.9.4, one line each.
    #[test]
    fn spec_semantics() {
        // d = a.x | (a.y << 8)
        assert_eq!(mov_pack(16, &[0x12, 0x34]), Some(0x3412));
        // d = a.x | (a.y << 8) | (a.z << 16) | (a.w << 24)
        assert_eq!(mov_pack(32, &[1, 2, 3, 4]), Some(0x0403_0201));
        // d = a.x | (a.y << 16)
        assert_eq!(mov_pack(32, &[0xbeef, 0xdead]), Some(0xdead_beef));
        // d = a.x | (a.y << 16) | (a.z << 32) | (a.w << 48)
        assert_eq!(mov_pack(64, &[1, 2, 3, 4]), Some(0x0004_0003_0002_0001));
        // d = a.x | (a.y << 32)
        assert_eq!(
            mov_pack(64, &[0x89ab_cdef, 0x0123_4567]),
            Some(0x0123_4567_89ab_cdef)
        );
        // d = a.x | (a.y << 32) | (a.z << 64) | (a.w << 96)
        assert_eq!(
            mov_pack(128, &[1, 2, 3, 4]),
            Some((4u128 << 96) | (3 << 64) | (2 << 32) | 1)
        );
        // d = a.x | (a.y << 64)
        assert_eq!(mov_pack(128, &[5, 6]), Some((6u128 << 64) | 5));
        // { d.x, d.y } = { a[0..7], a[8..15] }
        assert_eq!(
            mov_unpack(16, 2, 0x3412).map(|v| [v[0], v[1]]),
            Some([0x12, 0x34])
        );
        // { d.x, d.y, d.z, d.w } = { a[0..15], a[16..31], a[32..47], a[48..63] }
        assert_eq!(mov_unpack(64, 4, 0x0004_0003_0002_0001), Some([1, 2, 3, 4]));
        // { d.x, d.y } = { a[0..63], a[64..127] }
        assert_eq!(
            mov_unpack(128, 2, (6u128 << 64) | 5).map(|v| [v[0], v[1]]),
            Some([5, 6])
        );
    }

    #[test]
    fn elements_contribute_only_their_width() {
        // a wider register as element: only the element's bits count
        assert_eq!(mov_pack(32, &[0xffff_1234, 0x5678]), Some(0x5678_1234));
    }

    #[test]
    fn shapes_outside_the_spec_are_refused() {
        assert_eq!(mov_pack(8, &[1, 2]), None);
        assert_eq!(mov_pack(16, &[1, 2, 3, 4]), None);
        assert_eq!(mov_pack(32, &[1, 2, 3]), None);
        assert_eq!(mov_unpack(64, 8, 0), None);
    }
}
