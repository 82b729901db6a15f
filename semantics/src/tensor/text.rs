//! A tensor map written as text, the form `conform exec --arg tmap:...` and
//! the suites' manifests use: comma-separated `key=value` fields, lists
//! with `x` (dimension 0 first).
//!
//! ```text
//! type=f32,dims=64x32,strides=256,box=32x8,swizzle=128B,base=arg0+0
//! ```
//!
//! | key | value | default |
//! |-----|-------|---------|
//! | `type` | `u8 u16 u32 s32 u64 s64 f16 f32 f64 bf16 f32.ftz tf32 tf32.ftz` | required |
//! | `dims` | `globalDim`, 1 to 5 numbers (the rank) | required |
//! | `strides` | `globalStrides` in bytes, rank - 1 numbers | dense: each dimension's bytes, rounded up to 16 |
//! | `box` | `boxDim` (tiled) | required for a tiled map |
//! | `estrides` | `elementStrides` | all 1 |
//! | `interleave` | `none 16B 32B` | `none` |
//! | `swizzle` | `none 32B 64B 128B 96B` | `none` |
//! | `atomicity` | `16B 32B 32B_flip_8B 64B` | `16B` |
//! | `l2` | `none 64B 128B 256B` | `none` |
//! | `fill` | `zero nan` | `zero` |
//! | `base` | `argN` (a buffer argument, by index), `in`/`out` (a suite's buffers) or an address, with `+OFFSET` | required |
//! | `lower`, `upper` | im2col `pixelBoxLowerCorner`/`UpperCorner` (rank - 2 numbers, may be negative); makes the map im2col | |
//! | `channels`, `pixels` | im2col `channelsPerPixel`, `pixelsPerColumn` | |

use super::map::{
    Atomicity, DataType, Im2col, Interleave, L2Promotion, Mode, OobFill, Swizzle, TensorMap,
};
use std::fmt;

/// Where the map's `globalAddress` points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Base {
    /// The buffer of kernel argument `n`.
    Arg(usize),
    /// A buffer named by the caller (`in`, `out`).
    Named(String),
    /// An address.
    Addr(u64),
}

/// A map from text: the fields, and where its global address points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapText {
    pub map: TensorMap,
    pub base: Base,
    /// Bytes past the base.
    pub offset: u64,
}

/// A field the text gets wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextError {
    pub key: String,
    pub why: String,
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tensor map field `{}`: {}", self.key, self.why)
    }
}

impl std::error::Error for TextError {}

fn bad(key: &str, why: impl Into<String>) -> TextError {
    TextError {
        key: key.into(),
        why: why.into(),
    }
}

fn number(key: &str, s: &str) -> Result<i128, TextError> {
    let s = s.trim();
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let v = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => i128::from_str_radix(h, 16),
        None => s.parse::<i128>(),
    }
    .map_err(|_| bad(key, format!("`{s}` is not a number")))?;
    Ok(if neg { -v } else { v })
}

fn list(key: &str, s: &str, lo: i128, hi: i128) -> Result<Vec<i128>, TextError> {
    let v = s
        .split('x')
        .map(|p| number(key, p))
        .collect::<Result<Vec<_>, _>>()?;
    if v.is_empty() || v.len() > 5 {
        return Err(bad(key, "1 to 5 numbers, separated by `x`"));
    }
    if let Some(x) = v.iter().find(|&&x| x < lo || x > hi) {
        return Err(bad(key, format!("{x} is out of range ({lo} to {hi})")));
    }
    Ok(v)
}

fn pick<T: Copy>(key: &str, s: &str, names: &[(&str, T)]) -> Result<T, TextError> {
    names
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(s))
        .map(|&(_, v)| v)
        .ok_or_else(|| {
            let all: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
            bad(key, format!("`{s}` is not one of {}", all.join(", ")))
        })
}

const SWIZZLES: [(&str, Swizzle); 5] = [
    ("none", Swizzle::None),
    ("32B", Swizzle::B32),
    ("64B", Swizzle::B64),
    ("128B", Swizzle::B128),
    ("96B", Swizzle::B96),
];
const ATOMICITIES: [(&str, Atomicity); 4] = [
    ("16B", Atomicity::B16),
    ("32B", Atomicity::B32),
    ("32B_flip_8B", Atomicity::B32Flip8),
    ("64B", Atomicity::B64),
];
const INTERLEAVES: [(&str, Interleave); 3] = [
    ("none", Interleave::None),
    ("16B", Interleave::B16),
    ("32B", Interleave::B32),
];
const L2S: [(&str, L2Promotion); 4] = [
    ("none", L2Promotion::None),
    ("64B", L2Promotion::B64),
    ("128B", L2Promotion::B128),
    ("256B", L2Promotion::B256),
];
const FILLS: [(&str, OobFill); 2] = [("zero", OobFill::Zero), ("nan", OobFill::NanRequestZeroFma)];

fn name_of<T: PartialEq + Copy>(v: T, names: &[(&'static str, T)]) -> &'static str {
    names.iter().find(|(_, x)| *x == v).map_or("?", |(n, _)| n)
}

impl MapText {
    /// Reads the text. Checks the syntax and each value's range; whether
    /// the fields make a valid map is [`TensorMap::validate`]'s.
    pub fn parse(text: &str) -> Result<MapText, TextError> {
        let mut map = TensorMap::default();
        let mut dims = None;
        let mut strides = None;
        let mut boxd = None;
        let mut estrides = None;
        let mut base = None;
        let mut ty = None;
        let mut ic = Im2col::default();
        let mut im2col = false;
        for part in text.split(',').filter(|p| !p.trim().is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| bad(part.trim(), "expected KEY=VALUE"))?;
            let (k, v) = (k.trim(), v.trim());
            match k {
                "type" => {
                    ty = Some(
                        DataType::ALL
                            .into_iter()
                            .find(|t| t.name() == v)
                            .ok_or_else(|| bad(k, format!("`{v}` is not an element type")))?,
                    )
                }
                "dims" => dims = Some(list(k, v, 0, u64::MAX as i128)?),
                "strides" => strides = Some(list(k, v, 0, u64::MAX as i128)?),
                "box" => boxd = Some(list(k, v, 0, u32::MAX as i128)?),
                "estrides" => estrides = Some(list(k, v, 0, u32::MAX as i128)?),
                "interleave" => map.interleave = pick(k, v, &INTERLEAVES)?,
                "swizzle" => map.swizzle = pick(k, v, &SWIZZLES)?,
                "atomicity" => map.atomicity = pick(k, v, &ATOMICITIES)?,
                "l2" => map.l2_promotion = pick(k, v, &L2S)?,
                "fill" => map.oob_fill = pick(k, v, &FILLS)?,
                "base" => {
                    let (b, off) = match v.split_once('+') {
                        Some((b, o)) => (b.trim(), number(k, o)?),
                        None => (v, 0),
                    };
                    if !(0..=u64::MAX as i128).contains(&off) {
                        return Err(bad(k, "the offset is out of range"));
                    }
                    let b = if let Some(n) = b.strip_prefix("arg") {
                        Base::Arg(n.parse().map_err(|_| bad(k, format!("`{b}`: argN with N a number")))?)
                    } else if b == "in" || b == "out" {
                        Base::Named(b.into())
                    } else {
                        let a = number(k, b)?;
                        if !(0..=u64::MAX as i128).contains(&a) {
                            return Err(bad(k, "the address is out of range"));
                        }
                        Base::Addr(a as u64)
                    };
                    base = Some((b, off as u64));
                }
                "lower" | "upper" => {
                    im2col = true;
                    let c = list(k, v, i32::MIN as i128, i32::MAX as i128)?;
                    if c.len() > 3 {
                        return Err(bad(k, "1 to 3 numbers (rank - 2)"));
                    }
                    let dst = if k == "lower" { &mut ic.lower_corner } else { &mut ic.upper_corner };
                    for (d, x) in dst.iter_mut().zip(c) {
                        *d = x as i32;
                    }
                }
                "channels" | "pixels" => {
                    im2col = true;
                    let n = number(k, v)?;
                    if !(0..=u32::MAX as i128).contains(&n) {
                        return Err(bad(k, "out of range"));
                    }
                    if k == "channels" {
                        ic.channels_per_pixel = n as u32;
                    } else {
                        ic.pixels_per_column = n as u32;
                    }
                }
                _ => return Err(bad(k, "unknown key (type, dims, strides, box, estrides, interleave, swizzle, atomicity, l2, fill, base, lower, upper, channels, pixels)")),
            }
        }
        map.data_type = ty.ok_or_else(|| bad("type", "missing"))?;
        let dims = dims.ok_or_else(|| bad("dims", "missing"))?;
        let rank = dims.len();
        map.rank = rank as u32;
        for (i, d) in dims.iter().enumerate() {
            map.global_dims[i] = *d as u64;
        }
        let es = u64::from(map.data_type.size().unwrap_or(1));
        match strides {
            Some(s) => {
                if s.len() != rank - 1 {
                    return Err(bad(
                        "strides",
                        format!("{} numbers for a rank-{rank} map (rank - 1)", s.len()),
                    ));
                }
                for (i, x) in s.iter().enumerate() {
                    map.global_strides[i] = *x as u64;
                }
            }
            None => {
                let mut acc = map.global_dims[0].saturating_mul(es).div_ceil(16) * 16;
                for i in 1..rank {
                    map.global_strides[i - 1] = acc;
                    acc = acc.saturating_mul(map.global_dims[i]);
                }
            }
        }
        if let Some(e) = estrides {
            if e.len() != rank {
                return Err(bad(
                    "estrides",
                    format!("{} numbers for a rank-{rank} map", e.len()),
                ));
            }
            for (i, x) in e.iter().enumerate() {
                map.element_strides[i] = *x as u32;
            }
        }
        if im2col {
            map.mode = Mode::Im2col(ic);
            map.box_dims = [1; 5];
            if boxd.is_some() {
                return Err(bad("box", "an im2col map has no boxDim (its box comes from lower, upper, channels, pixels)"));
            }
        } else {
            let b = boxd.ok_or_else(|| bad("box", "missing"))?;
            if b.len() != rank {
                return Err(bad(
                    "box",
                    format!("{} numbers for a rank-{rank} map", b.len()),
                ));
            }
            for (i, x) in b.iter().enumerate() {
                map.box_dims[i] = *x as u32;
            }
        }
        let (base, offset) =
            base.ok_or_else(|| bad("base", "missing (argN, in, out or an address)"))?;
        if let Base::Addr(a) = base {
            map.global_address = a.wrapping_add(offset);
        }
        Ok(MapText { map, base, offset })
    }

    /// The map with its global address at `addr` (the base's) plus the
    /// offset.
    pub fn at(&self, addr: u64) -> TensorMap {
        TensorMap {
            global_address: addr.wrapping_add(self.offset),
            ..self.map
        }
    }
}

impl fmt::Display for MapText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = &self.map;
        let r = m.rank as usize;
        let join = |v: &[u64]| {
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join("x")
        };
        write!(
            f,
            "type={},dims={}",
            m.data_type.name(),
            join(&m.global_dims[..r])
        )?;
        if r > 1 {
            write!(f, ",strides={}", join(&m.global_strides[..r - 1]))?;
        }
        let u = |v: &[u32]| v.iter().map(|&x| u64::from(x)).collect::<Vec<_>>();
        match m.mode {
            Mode::Tiled => write!(f, ",box={}", join(&u(&m.box_dims[..r])))?,
            Mode::Im2col(ic) => {
                let n = r.saturating_sub(2).clamp(1, 3);
                let j = |v: &[i32]| {
                    v.iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join("x")
                };
                write!(
                    f,
                    ",lower={},upper={},channels={},pixels={}",
                    j(&ic.lower_corner[..n]),
                    j(&ic.upper_corner[..n]),
                    ic.channels_per_pixel,
                    ic.pixels_per_column
                )?;
            }
        }
        if m.element_strides[..r].iter().any(|&e| e != 1) {
            write!(f, ",estrides={}", join(&u(&m.element_strides[..r])))?;
        }
        if m.interleave != Interleave::None {
            write!(f, ",interleave={}", name_of(m.interleave, &INTERLEAVES))?;
        }
        if m.swizzle != Swizzle::None {
            write!(f, ",swizzle={}", name_of(m.swizzle, &SWIZZLES))?;
        }
        if m.atomicity != Atomicity::B16 {
            write!(f, ",atomicity={}", name_of(m.atomicity, &ATOMICITIES))?;
        }
        if m.l2_promotion != L2Promotion::None {
            write!(f, ",l2={}", name_of(m.l2_promotion, &L2S))?;
        }
        if m.oob_fill != OobFill::Zero {
            write!(f, ",fill={}", name_of(m.oob_fill, &FILLS))?;
        }
        match &self.base {
            Base::Arg(n) => write!(f, ",base=arg{n}")?,
            Base::Named(n) => write!(f, ",base={n}")?,
            Base::Addr(a) => write!(f, ",base={:#x}", a)?,
        }
        if self.offset != 0 {
            write!(f, "+{}", self.offset)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_reads_back_what_it_prints() {
        for t in [
            "type=f32,dims=64x32,strides=256,box=32x8,swizzle=128B,base=arg0",
            "type=u8,dims=100,box=16,base=in+4096",
            "type=bf16,dims=8x8x8x8x8,strides=16x128x1024x8192,box=8x2x2x2x2,estrides=1x2x1x1x2,l2=128B,fill=nan,base=0x7f0000100000",
            "type=f16,dims=16x10x10,strides=32x320,lower=-1,upper=1,channels=16,pixels=8,base=out",
        ] {
            let m = MapText::parse(t).unwrap();
            assert_eq!(m.to_string(), t);
            assert_eq!(MapText::parse(&m.to_string()).unwrap(), m);
        }
    }

    #[test]
    fn dense_strides_by_default_and_errors_name_the_key() {
        let m = MapText::parse("type=f32,dims=5x3x2,box=4x1x1,base=arg1").unwrap();
        // 5 f32 = 20 bytes, rounded up to 32; then 32 * 3
        assert_eq!(&m.map.global_strides[..2], &[32, 96]);
        assert_eq!(m.base, Base::Arg(1));
        for (t, key) in [
            ("type=f33,dims=4,box=4,base=arg0", "type"),
            (
                "type=f32,dims=4x4,strides=16x16,box=4x4,base=arg0",
                "strides",
            ),
            ("type=f32,dims=4,box=4x1,base=arg0", "box"),
            ("type=f32,dims=4,box=4,swizzle=16B,base=arg0", "swizzle"),
            ("type=f32,dims=4,box=4", "base"),
            ("type=f32,dims=4,box=4,base=argx", "base"),
            ("type=f32,dims=4,box=4,base=arg0,color=red", "color"),
            ("type=f32,box=4,base=arg0", "dims"),
            ("type=f32,dims=1x2x3x4x5x6,box=4,base=arg0", "dims"),
        ] {
            assert_eq!(MapText::parse(t).unwrap_err().key, key, "{t}");
        }
    }
}
