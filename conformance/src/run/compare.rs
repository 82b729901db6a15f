//! Case-by-case comparison of an implementation's output buffer with the
//! expected rows, outside the don't-care mask, and with the bounds of the
//! approximate floating-point groups: an output field `NAME` whose input
//! row has fields `lo(NAME)` and `hi(NAME)` must lie in `[lo, hi]` (both
//! NaN: be a NaN; docs/suite-format.md).

use ptx_gen::suite::manifest::{Field as FieldSpec, Group, Layout};
use ptx_reports::{CaseFailure, Field, GroupResult, Status};
use ptx_semantics::arith::approx::key;
use ptx_semantics::cvt::format::{FloatFormat, Format};

/// An output field with a bound: the field and its `lo(NAME)` and
/// `hi(NAME)` input fields.
struct Bounded<'a> {
    out: &'a FieldSpec,
    lo: &'a FieldSpec,
    hi: &'a FieldSpec,
    fmt: FloatFormat,
}

/// The output fields of `g` that carry a bound in the input row.
fn bounded(g: &Group) -> Vec<Bounded<'_>> {
    g.output
        .fields
        .iter()
        .filter_map(|out| {
            let find = |n: String| g.input.fields.iter().find(|f| f.name == n);
            let lo = find(format!("lo({})", out.name))?;
            let hi = find(format!("hi({})", out.name))?;
            let Some(Format::Float(fmt)) = Format::from_ptx(&format!(".{}", out.ty)) else {
                return None;
            };
            Some(Bounded { out, lo, hi, fmt })
        })
        .collect()
}

fn is_nan(fmt: &FloatFormat, bits: u64) -> bool {
    let exp = (bits >> fmt.man_bits) & ((1 << fmt.exp_bits) - 1);
    exp == (1 << fmt.exp_bits) - 1 && bits & ((1 << fmt.man_bits) - 1) != 0
}

impl Bounded<'_> {
    fn read(&self, l: &Layout, row: &[u8], f: &FieldSpec) -> u64 {
        l.read(row, f) as u64
    }

    /// Whether the value in the output row `a` meets the bound in the input
    /// row `inp`: `[lo, hi]` in float order (no NaN), any NaN when both
    /// ends are NaN; equal ends ask for nothing beyond the mask check.
    fn holds(&self, g: &Group, inp: &[u8], a: &[u8]) -> bool {
        let (lo, hi) = (
            self.read(&g.input, inp, self.lo),
            self.read(&g.input, inp, self.hi),
        );
        let y = self.read(&g.output, a, self.out);
        let fmt = &self.fmt;
        if is_nan(fmt, lo) {
            return is_nan(fmt, y);
        }
        lo == hi || (!is_nan(fmt, y) && (key(fmt, lo)..=key(fmt, hi)).contains(&key(fmt, y)))
    }

    /// The expected field in words: `within [lo .. hi]` or `any NaN`; `None`
    /// for equal ends (an exact value, the plain field says it).
    fn expected(&self, g: &Group, inp: &[u8], e: &[u8]) -> Option<Field> {
        let (lo, hi) = (
            self.read(&g.input, inp, self.lo),
            self.read(&g.input, inp, self.hi),
        );
        let w = self.out.bytes as usize * 2;
        let hex = format!("0x{:0w$x}", self.read(&g.output, e, self.out));
        if is_nan(&self.fmt, lo) {
            return Some(Field::any_nan(&self.out.name, hex));
        }
        if lo == hi {
            return None;
        }
        let end = |v: u64| format!("0x{v:0w$x} ({})", decode(self.out, u128::from(v)));
        Some(Field::within(&self.out.name, hex, &end(lo), &end(hi)))
    }
}

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
    let bounds = bounded(g);
    for i in 0..g.cases as usize {
        let span = i * row..(i + 1) * row;
        let (e, a) = (&expected[span.clone()], &actual[span.clone()]);
        let m = if mask.is_empty() {
            None
        } else {
            Some(&mask[span])
        };
        let inp = &input[i * irow..(i + 1) * irow];
        let differs = e
            .iter()
            .zip(a)
            .enumerate()
            .any(|(k, (x, y))| (x ^ y) & !m.map_or(0, |m| m[k]) != 0)
            || bounds.iter().any(|b| !b.holds(g, inp, a));
        if !differs {
            r.counts.pass += 1;
            continue;
        }
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
                expected: expected_fields(g, &bounds, inp, e),
                actual: fields(&g.output, a),
                mask: m.map_or_else(|| "0x0".to_string(), hex_le),
            });
        }
    }
}

/// The expected row's fields, a bounded field's in the words of its bound.
fn expected_fields(g: &Group, bounds: &[Bounded], inp: &[u8], e: &[u8]) -> Vec<Field> {
    fields(&g.output, e)
        .into_iter()
        .map(|f| {
            bounds
                .iter()
                .find(|b| b.out.name == f.name)
                .and_then(|b| b.expected(g, inp, e))
                .unwrap_or(f)
        })
        .collect()
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
