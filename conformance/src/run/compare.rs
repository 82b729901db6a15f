//! Case-by-case comparison of an implementation's output buffer with the
//! expected rows, outside the don't-care mask.

use ptx_gen::suite::manifest::{Field as FieldSpec, Group, Layout};
use ptx_reports::{CaseFailure, Field, GroupResult, Status};
use ptx_semantics::cvt::format::Format;

/// Counts the group's cases and keeps the first `max_failures` failures.
#[allow(clippy::too_many_arguments)] // the buffers of one group, each its own slice
pub fn group(
    g: &Group,
    input: &[u8],
    expected: &[u8],
    mask: &[u8],
    actual: &[u8],
    max_failures: usize,
    known: Option<&super::known::Rule>,
    r: &mut GroupResult,
) {
    if actual.len() != expected.len() {
        r.counts.add(Status::Error, g.cases);
        r.reason = Some(format!(
            "the output buffer has {} bytes, expected {}",
            actual.len(),
            expected.len()
        ));
        return;
    }
    let row = g.output.row as usize;
    let irow = g.input.row as usize;
    for i in 0..g.cases as usize {
        let span = i * row..(i + 1) * row;
        let (e, a) = (&expected[span.clone()], &actual[span.clone()]);
        let m = if mask.is_empty() {
            None
        } else {
            Some(&mask[span])
        };
        let differs = e
            .iter()
            .zip(a)
            .enumerate()
            .any(|(k, (x, y))| (x ^ y) & !m.map_or(0, |m| m[k]) != 0);
        if !differs {
            r.counts.pass += 1;
            continue;
        }
        let inp = &input[i * irow..(i + 1) * irow];
        if let Some(k) = known.filter(|k| k.explains(g, inp, a, m)) {
            r.counts.known += 1;
            if r.reason.is_none() {
                r.reason = Some(k.why.clone());
            }
            continue;
        }
        r.counts.fail += 1;
        if r.failures.len() < max_failures {
            r.failures.push(CaseFailure {
                case: format!("{}#{i}", g.id),
                inputs: fields(&g.input, inp),
                expected: fields(&g.output, e),
                actual: fields(&g.output, a),
                mask: m.map_or_else(|| "0x0".to_string(), hex_le),
            });
        }
    }
}

/// The digests of a group's input and of its output outside the mask.
pub fn digests(input: &[u8], actual: &[u8], mask: &[u8]) -> ptx_reports::Digests {
    let fold = |bytes: &mut dyn Iterator<Item = u8>| {
        let mut h = 0u64;
        for (i, b) in bytes.enumerate() {
            h = h.wrapping_add(ptx_gen::rng::mix(i as u64 ^ (u64::from(b) << 56)));
        }
        format!("{h:016x}")
    };
    let masked = actual
        .iter()
        .enumerate()
        .map(|(k, b)| b & !mask.get(k).copied().unwrap_or(0));
    ptx_reports::Digests {
        input: fold(&mut input.iter().copied()),
        output: fold(&mut masked.into_iter()),
    }
}

/// Little-endian bytes as one hex number.
fn hex_le(b: &[u8]) -> String {
    let digits: String = b.iter().rev().map(|x| format!("{x:02x}")).collect();
    let t = digits.trim_start_matches('0');
    format!("0x{}", if t.is_empty() { "0" } else { t })
}

fn fields(l: &Layout, row: &[u8]) -> Vec<Field> {
    l.fields
        .iter()
        .map(|f| {
            let v = l.read(row, f);
            Field {
                name: f.name.clone(),
                hex: format!("0x{v:0w$x}", w = f.bytes as usize * 2),
                decoded: decode(f, v),
            }
        })
        .collect()
}

/// A value in words, by the field's PTX type (empty for bit types).
pub fn decode(f: &FieldSpec, v: u128) -> String {
    if f.ty.starts_with('b') {
        return String::new();
    }
    match Format::from_ptx(&format!(".{}", f.ty)) {
        Some(fmt) => {
            let width = fmt.width();
            let bits = if width >= 64 {
                v as u64
            } else {
                (v as u64) & ((1u64 << width) - 1)
            };
            crate::eval::describe(&fmt, bits)
        }
        None => String::new(),
    }
}
