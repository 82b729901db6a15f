//! Fat binaries: the containers nvcc puts a program's device code in, and
//! the wrapper `__cudaRegisterFatBinary` passes. This module reads them and
//! picks the PTX entry that suits the device; loading that text is
//! `module::load`'s work. The layout is not published by NVIDIA: every field
//! read here was observed in images nvcc 13.0 made (docs/libcuda.md, "Fat
//! binaries", says where), and a field this module does not need is not
//! read. Any size or offset that points past the image, or a compressed
//! entry that does not decompress to the size its header gives, is
//! [`FatbinError::Invalid`] (`CUDA_ERROR_INVALID_IMAGE`).

use ptx_semantics::catalogue::target::{Target, TargetSuffix};

/// The first word of a fat binary (little-endian `50 ed 55 ba`).
pub const FATBIN_MAGIC: u32 = 0xba55_ed50;
/// The first word of the wrapper (`__fatBinC_Wrapper_t`) that nvcc's host
/// code passes to `__cudaRegisterFatBinary`: magic, version, then a pointer
/// to the fat binary.
pub const WRAPPER_MAGIC: u32 = 0x4662_43b1;
/// The fat binary header: magic (u32), version (u16), header size (u16),
/// size of the entries after the header (u64).
pub const HEADER_SIZE: usize = 16;
/// An entry's header, as short as nvcc 13.0 writes one (ELF entries).
const ENTRY_HEADER_MIN: usize = 64;
/// Entry kinds.
pub const KIND_PTX: u16 = 1;
pub const KIND_ELF: u16 = 2;
/// The flag of an entry whose payload is a Zstandard frame (RFC 8878):
/// every entry `-Xfatbin -compress-all` made, and the PTX entries nvcc
/// 13.0 makes by default.
pub const FLAG_ZSTD: u64 = 0x8000;
/// The flag older fatbinary tools are reported to give LZ4-compressed
/// entries (LZ4 block format). Not seen in nvcc 13.0's images; read as the
/// LZ4 block format description defines the block.
pub const FLAG_LZ4: u64 = 0x2000;
/// The most a compressed entry may claim to decompress to (an image that
/// claims more is refused rather than allocated).
const MAX_DECOMPRESSED: u64 = 1 << 30;

/// Why an image does not give a PTX text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FatbinError {
    /// A size, offset or compressed payload that does not hold together.
    Invalid(String),
    /// No PTX entry runs on a compute capability 9.0 device (cubins only,
    /// or PTX for newer architectures).
    NoPtx(String),
}

/// One entry of a fat binary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub kind: u16,
    /// The architecture number (`90` for sm_90 / compute_90).
    pub arch: u32,
    pub flags: u64,
    /// The payload as stored (compressed or not).
    pub payload: Vec<u8>,
    /// The size the payload decompresses to (0 when it is not compressed).
    pub decompressed_size: u64,
    /// The compressed bytes of the payload (the rest is padding).
    pub compressed_size: u32,
}

fn invalid(what: impl Into<String>) -> FatbinError {
    FatbinError::Invalid(format!("ptx-libcuda: invalid fat binary: {}", what.into()))
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// The whole size of the fat binary whose first [`HEADER_SIZE`] bytes are
/// `header`: header size plus the size of the entries. `None` when the
/// magic is not a fat binary's or the sizes overflow.
pub fn total_size(header: &[u8]) -> Option<usize> {
    if u32_at(header, 0)? != FATBIN_MAGIC {
        return None;
    }
    let header_size = u16_at(header, 6)? as u64;
    let size = u64_at(header, 8)?;
    usize::try_from(header_size.checked_add(size)?).ok()
}

/// The entries of the fat binary `image` (which starts with its header).
pub fn entries(image: &[u8]) -> Result<Vec<Entry>, FatbinError> {
    if u32_at(image, 0) != Some(FATBIN_MAGIC) {
        return Err(invalid("no fat binary magic"));
    }
    let header_size = u16_at(image, 6).ok_or_else(|| invalid("truncated header"))? as usize;
    let total =
        total_size(image).ok_or_else(|| invalid("truncated header, or sizes that overflow"))?;
    if header_size < HEADER_SIZE || total > image.len() {
        return Err(invalid(format!(
            "header size {header_size} and total size {total} do not fit the image of {} bytes",
            image.len()
        )));
    }
    let mut out = Vec::new();
    let mut at = header_size;
    while at < total {
        let field = |r: Option<u64>| r.ok_or_else(|| invalid(format!("entry at {at} truncated")));
        let kind = field(u16_at(image, at).map(u64::from))? as u16;
        let entry_header = field(u32_at(image, at + 4).map(u64::from))? as usize;
        let payload_size = field(u64_at(image, at + 8))?;
        if entry_header < ENTRY_HEADER_MIN {
            return Err(invalid(format!(
                "entry at {at}: header size {entry_header} under {ENTRY_HEADER_MIN}"
            )));
        }
        let start = at
            .checked_add(entry_header)
            .ok_or_else(|| invalid("entry offset overflows"))?;
        let end = usize::try_from(payload_size)
            .ok()
            .and_then(|s| start.checked_add(s))
            .filter(|&e| e <= total)
            .ok_or_else(|| {
                invalid(format!(
                    "entry at {at}: payload of {payload_size} bytes runs past the end ({total})"
                ))
            })?;
        let compressed_size = field(u32_at(image, at + 16).map(u64::from))? as u32;
        let arch = field(u32_at(image, at + 28).map(u64::from))? as u32;
        let flags = field(u64_at(image, at + 40))?;
        let decompressed_size = field(u64_at(image, at + 56))?;
        out.push(Entry {
            kind,
            arch,
            flags,
            payload: image[start..end].to_vec(),
            decompressed_size,
            compressed_size,
        });
        at = end;
    }
    Ok(out)
}

impl Entry {
    /// The payload, decompressed if its flags say it is compressed.
    pub fn contents(&self) -> Result<Vec<u8>, FatbinError> {
        let compressed = self.flags & (FLAG_ZSTD | FLAG_LZ4) != 0;
        if !compressed {
            return Ok(self.payload.clone());
        }
        if self.decompressed_size > MAX_DECOMPRESSED
            || self.decompressed_size == 0
            || self.compressed_size == 0
        {
            return Err(invalid(format!(
                "a compressed entry claims {} bytes from {} compressed",
                self.decompressed_size, self.compressed_size
            )));
        }
        let input = self
            .payload
            .get(..self.compressed_size as usize)
            .ok_or_else(|| invalid("compressed size past the payload"))?;
        let mut out = vec![0u8; self.decompressed_size as usize];
        let n = if self.flags & FLAG_ZSTD != 0 {
            zstd_decode(input, &mut out)?
        } else {
            lz4_block_decode(input, &mut out)?
        };
        if n != out.len() {
            return Err(invalid(format!(
                "an entry decompressed to {n} bytes, its header says {}",
                out.len()
            )));
        }
        Ok(out)
    }
}

/// Decodes the Zstandard frames `input` into `out`; the bytes written.
fn zstd_decode(input: &[u8], out: &mut [u8]) -> Result<usize, FatbinError> {
    // the decoder is not documented never to panic on hostile input: a
    // panic is an image that does not decode
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        ruzstd::decoding::FrameDecoder::new().decode_all(input, out)
    }))
    .map_err(|_| invalid("a Zstandard payload does not decode"))?
    .map_err(|e| invalid(format!("a Zstandard payload does not decode: {e}")))
}

/// Decodes one LZ4 block (the LZ4 block format description: sequences of
/// a token, literal length bytes, literals, a 2-byte little-endian offset
/// and match length bytes; the last sequence has literals only) into
/// `out`; the bytes written.
pub fn lz4_block_decode(input: &[u8], out: &mut [u8]) -> Result<usize, FatbinError> {
    let bad = || invalid("an LZ4 payload does not decode");
    let mut i = 0;
    let mut o = 0;
    // a length field: 15 in the token's nibble means more bytes follow,
    // each added, until one under 255
    let length = |nibble: usize, i: &mut usize| -> Result<usize, FatbinError> {
        let mut n = nibble;
        if nibble == 15 {
            loop {
                let b = *input.get(*i).ok_or_else(bad)? as usize;
                *i += 1;
                n = n.checked_add(b).ok_or_else(bad)?;
                if b != 255 {
                    break;
                }
            }
        }
        Ok(n)
    };
    while i < input.len() {
        let token = input[i] as usize;
        i += 1;
        let literals = length(token >> 4, &mut i)?;
        let src = input.get(i..i + literals).ok_or_else(bad)?;
        out.get_mut(o..o + literals)
            .ok_or_else(bad)?
            .copy_from_slice(src);
        i += literals;
        o += literals;
        if i == input.len() {
            break; // the last sequence: literals only
        }
        let offset = u16_at(input, i).ok_or_else(bad)? as usize;
        i += 2;
        if offset == 0 || offset > o {
            return Err(bad());
        }
        let len = length(token & 15, &mut i)? + 4;
        if o + len > out.len() {
            return Err(bad());
        }
        // byte by byte: a match may overlap the bytes it writes
        for k in 0..len {
            out[o + k] = out[o + k - offset];
        }
        o += len;
    }
    Ok(o)
}

/// The PTX text a compute capability 9.0 device loads from the fat binary
/// `image`: of the PTX entries whose architecture `sm_XY` compiles for
/// sm_90 (PTX ISA `.target`: code for a plain target runs on devices of at
/// least that capability; [`Target::compiles_for`]), the highest,
/// decompressed, cut at its first NUL.
pub fn device_ptx(image: &[u8]) -> Result<String, FatbinError> {
    let all = entries(image)?;
    let device = Target {
        number: 90,
        suffix: TargetSuffix::Plain,
    };
    let best = all
        .iter()
        .filter(|e| e.kind == KIND_PTX)
        .filter(|e| {
            Target {
                number: e.arch,
                suffix: TargetSuffix::Plain,
            }
            .compiles_for(device)
        })
        .max_by_key(|e| e.arch);
    let Some(entry) = best else {
        let list: Vec<String> = all
            .iter()
            .map(|e| {
                let kind = match e.kind {
                    KIND_PTX => "PTX",
                    KIND_ELF => "ELF",
                    _ => "unknown",
                };
                format!("{kind} sm_{}", e.arch)
            })
            .collect();
        return Err(FatbinError::NoPtx(format!(
            "ptx-libcuda: no PTX for compute capability 9.0 or lower in the fat binary \
             (entries: {}); this library runs PTX only, not cubins",
            if list.is_empty() {
                "none".to_string()
            } else {
                list.join(", ")
            }
        )));
    };
    let mut text = entry.contents()?;
    if let Some(nul) = text.iter().position(|&b| b == 0) {
        text.truncate(nul);
    }
    String::from_utf8(text).map_err(|_| invalid("the PTX entry is not UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lz4_literals_and_overlapping_match() {
        // "abc" as literals, then a match of offset 3, length 6 (nibble 2
        // + 4), then the literal "x": the block format's worked shape
        let block = [0x32, b'a', b'b', b'c', 3, 0, 0x10, b'x'];
        let mut out = [0u8; 10];
        assert_eq!(lz4_block_decode(&block, &mut out), Ok(10));
        assert_eq!(&out, b"abcabcabcx");
        // an offset before the start, and an output too small
        assert!(lz4_block_decode(&[0x10, b'a', 2, 0], &mut [0u8; 8]).is_err());
        assert!(lz4_block_decode(&block, &mut [0u8; 9]).is_err());
    }

    #[test]
    fn lz4_long_lengths() {
        // 15 + 5 = 20 literal bytes, then a match of 4 + 15 + 1 = 20
        let mut block = vec![0xff, 5];
        block.extend((0..20u8).map(|k| b'a' + k));
        block.extend([20, 0, 1, 0x00]);
        let mut out = [0u8; 41];
        assert_eq!(lz4_block_decode(&block, &mut out), Ok(40));
        assert_eq!(out[20..40], out[..20]);
    }

    #[test]
    fn sizes_past_the_end_are_invalid() {
        let mut image = vec![0u8; 16];
        image[..4].copy_from_slice(&FATBIN_MAGIC.to_le_bytes());
        image[6] = 16;
        image[8] = 64; // 64 bytes of entries that are not there
        assert!(matches!(entries(&image), Err(FatbinError::Invalid(_))));
        image[8] = 0; // no entries: no PTX
        assert!(matches!(device_ptx(&image), Err(FatbinError::NoPtx(_))));
    }
}
