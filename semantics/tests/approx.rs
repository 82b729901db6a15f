//! The approximate floating-point instructions (PTX ISA 9.7.3.8,
//! 9.7.3.13-22, 9.7.4.9-10) as bounds: the spec's tables of special values
//! row by row, intervals that hold the `f64` reference and widen with the
//! bound, and the bound arithmetic at binade edges, each expected value
//! worked out from the spec's text (not from the code under test).
//!
//! `check_gpu_sweep` (ignored) is the checker `tools/device/approx_sweep.py`
//! runs on the GPU machine over every output it gathered.

use ptx_semantics::arith::approx::{self, ApproxForm, Bound, FORMS};
use ptx_semantics::arith::float::{BF16, F16, F32, F64};

fn form(text: &str) -> ApproxForm {
    ApproxForm::parse(text).unwrap_or_else(|| panic!("{text} is not a form"))
}

fn f32_bits(x: f32) -> u64 {
    u64::from(x.to_bits())
}

/// The result of a one-source `.f32` form on `x`.
fn on(text: &str, x: u64) -> approx::Approx {
    form(text).eval(x, 0)
}

const NAN32: u64 = 0x7fc0_0000;
const PINF32: u64 = 0x7f80_0000;
const NINF32: u64 = 0xff80_0000;
const NZ32: u64 = 0x8000_0000;
const ONE32: u64 = 0x3f80_0000;
const SUB32: u64 = 0x0000_0001;

fn exact(r: approx::Approx) -> u64 {
    assert_eq!(r.bound, Bound::Exact, "{r:?}");
    r.nominal
}

fn is_any_nan(r: approx::Approx) -> bool {
    r.bound == Bound::AnyNan
}

/// Every row of the spec's tables of special values (9.7.3.13-22), with
/// and without `.ftz`.
#[test]
fn special_value_tables() {
    for ftz in ["", ".ftz"] {
        let t = |op: &str| format!("{op}.approx{ftz}.f32");
        // 9.7.3.13 rcp: -Inf -> -0.0, -0.0 -> -Inf, +0.0 -> +Inf, +Inf -> +0.0, NaN -> NaN
        assert_eq!(exact(on(&t("rcp"), NINF32)), NZ32);
        assert_eq!(exact(on(&t("rcp"), NZ32)), NINF32);
        assert_eq!(exact(on(&t("rcp"), 0)), PINF32);
        assert_eq!(exact(on(&t("rcp"), PINF32)), 0);
        assert!(is_any_nan(on(&t("rcp"), NAN32)));
        // 9.7.3.15 sqrt: -Inf, -normal -> NaN; -0.0 -> -0.0; +0.0 -> +0.0; +Inf -> +Inf
        assert!(is_any_nan(on(&t("sqrt"), NINF32)));
        assert!(is_any_nan(on(&t("sqrt"), f32_bits(-4.0))));
        assert_eq!(exact(on(&t("sqrt"), NZ32)), NZ32);
        assert_eq!(exact(on(&t("sqrt"), 0)), 0);
        assert_eq!(exact(on(&t("sqrt"), PINF32)), PINF32);
        // 9.7.3.16 rsqrt: -0.0 -> -Inf, +0.0 -> +Inf, +Inf -> +0.0
        assert!(is_any_nan(on(&t("rsqrt"), f32_bits(-1.0))));
        assert_eq!(exact(on(&t("rsqrt"), NZ32)), NINF32);
        assert_eq!(exact(on(&t("rsqrt"), 0)), PINF32);
        assert_eq!(exact(on(&t("rsqrt"), PINF32)), 0);
        // 9.7.3.18 sin: ±Inf -> NaN, -0.0 -> -0.0, +0.0 -> +0.0
        assert!(is_any_nan(on(&t("sin"), PINF32)));
        assert!(is_any_nan(on(&t("sin"), NINF32)));
        assert_eq!(exact(on(&t("sin"), NZ32)), NZ32);
        assert_eq!(exact(on(&t("sin"), 0)), 0);
        // 9.7.3.19 cos: ±0.0 -> +1.0
        assert_eq!(exact(on(&t("cos"), NZ32)), ONE32);
        assert_eq!(exact(on(&t("cos"), 0)), ONE32);
        assert!(is_any_nan(on(&t("cos"), NINF32)));
        // 9.7.3.20 lg2: ±0.0 -> -Inf, +Inf -> +Inf, -normal -> NaN
        assert_eq!(exact(on(&t("lg2"), NZ32)), NINF32);
        assert_eq!(exact(on(&t("lg2"), 0)), NINF32);
        assert_eq!(exact(on(&t("lg2"), PINF32)), PINF32);
        assert!(is_any_nan(on(&t("lg2"), f32_bits(-0.75))));
        // 9.7.3.21 ex2: -Inf -> +0.0, ±0.0 -> +1.0, +Inf -> +Inf
        assert_eq!(exact(on(&t("ex2"), NINF32)), 0);
        assert_eq!(exact(on(&t("ex2"), NZ32)), ONE32);
        assert_eq!(exact(on(&t("ex2"), PINF32)), PINF32);
    }
    // 9.7.3.22 tanh: -Inf -> -1.0, ±0 kept, +Inf -> 1.0; "The subnormal
    // inputs gets passed through to the output".
    let t = "tanh.approx.f32";
    assert_eq!(exact(on(t, NINF32)), 0xbf80_0000);
    assert_eq!(exact(on(t, PINF32)), ONE32);
    assert_eq!(exact(on(t, NZ32)), NZ32);
    assert_eq!(exact(on(t, 0x8000_0005)), 0x8000_0005);
    // .ftz: "flushes subnormal inputs ... to sign-preserving zero": a
    // subnormal reads as a signed zero and takes that zero's row.
    assert_eq!(exact(on("rcp.approx.ftz.f32", SUB32 | NZ32)), NINF32);
    assert_eq!(exact(on("sqrt.approx.ftz.f32", SUB32 | NZ32)), NZ32);
    assert_eq!(exact(on("lg2.approx.ftz.f32", SUB32)), NINF32);
    assert_eq!(exact(on("ex2.approx.ftz.f32", SUB32)), ONE32);
    // Without .ftz a subnormal is a finite input: bounded, not a table row.
    assert!(matches!(
        on("rcp.approx.f32", SUB32).bound,
        Bound::Within { .. }
    ));
}

/// 9.7.4.9-10 on `.f16`/`.bf16`, and 9.7.3.14/17 on `.f64`.
#[test]
fn half_and_double_tables() {
    let ex2h = form("ex2.approx.f16");
    assert_eq!(exact(ex2h.eval(0xfc00, 0)), 0);
    assert_eq!(exact(ex2h.eval(0x8000, 0)), 0x3c00);
    assert_eq!(exact(ex2h.eval(0x7c00, 0)), 0x7c00);
    // .f16: "subnormal inputs are supported": 2^(tiny) is bounded near 1.0
    assert!(matches!(ex2h.eval(0x0001, 0).bound, Bound::Within { .. }));
    // ex2.approx.ftz.bf16: "-subnormal -> +1.0", "+subnormal -> +1.0"
    let ex2b = form("ex2.approx.ftz.bf16");
    assert_eq!(exact(ex2b.eval(0x8001, 0)), 0x3f80);
    assert_eq!(exact(ex2b.eval(0x0001, 0)), 0x3f80);
    let tanhh = form("tanh.approx.f16");
    assert_eq!(exact(tanhh.eval(0xfc00, 0)), 0xbc00);
    assert_eq!(exact(tanhh.eval(0x7c00, 0)), 0x3c00);
    assert_eq!(exact(tanhh.eval(0x8000, 0)), 0x8000);
    let tanhb = form("tanh.approx.bf16");
    assert_eq!(exact(tanhb.eval(0xff80, 0)), 0xbf80);
    // rcp.approx.ftz.f64 reads a[63:32] only: -Inf -> -0.0, ±subnormal ->
    // ±Inf, "Input NaNs map to a canonical NaN with encoding
    // 0x7fffffff00000000"; a NaN whose upper word is infinity is infinity.
    let rcpd = form("rcp.approx.ftz.f64");
    assert_eq!(exact(rcpd.eval(0xfff0_0000_0000_0000, 0)), 1 << 63);
    assert_eq!(
        exact(rcpd.eval(0x8000_0000_0000_0001, 0)),
        0xfff0_0000_0000_0000
    );
    assert_eq!(
        exact(rcpd.eval(0x000f_ffff_0000_0000, 0)),
        0x7ff0_0000_0000_0000
    );
    assert_eq!(
        exact(rcpd.eval(0x7ff8_0000_0000_0000, 0)),
        0x7fff_ffff_0000_0000
    );
    assert_eq!(exact(rcpd.eval(0x7ff0_0000_0000_0001, 0)), 0);
    // A finite input: "a fast, gross approximation" without a bound: the
    // upper word is open, "d[31:0] = 0x00000000".
    let r = rcpd.eval(2f64.to_bits(), 0);
    assert_eq!(
        r.bound,
        Bound::Open {
            open: 0xffff_ffff_0000_0000
        }
    );
    assert_eq!(r.nominal, 0.5f64.to_bits());
    assert!(r.contains(&F64, 0x1234_5678_0000_0000));
    assert!(!r.contains(&F64, 0x3fe0_0000_0000_0001));
    // rsqrt.approx.ftz.f64: -Inf -> NaN, -subnormal -> -Inf
    let rsqd = form("rsqrt.approx.ftz.f64");
    assert!(is_any_nan(rsqd.eval(0xfff0_0000_0000_0000, 0)));
    assert_eq!(
        exact(rsqd.eval(0x8000_0001_0000_0000, 0)),
        0xfff0_0000_0000_0000
    );
    assert_eq!(exact(rsqd.eval(0x7ff0_0000_0000_0000, 0)), 0);
    // rsqrt.approx.f64: 9.7.3.16's table; no bound for finite inputs
    let rsq = form("rsqrt.approx.f64");
    assert_eq!(exact(rsq.eval(0, 0)), 0x7ff0_0000_0000_0000);
    assert!(matches!(
        rsq.eval(4f64.to_bits(), 0).bound,
        Bound::Open { open: u64::MAX }
    ));
}

/// 9.7.3.8: "For 2^126 < |b| < 2^128, if a is infinity, div.approx.f32
/// returns NaN, otherwise it returns a sign-preserving zero."
#[test]
fn div_approx_with_a_huge_divisor() {
    let d = form("div.approx.f32");
    let big = f32_bits(2f32.powi(127));
    assert_eq!(exact(d.eval(ONE32, big)), 0);
    assert_eq!(exact(d.eval(ONE32 | NZ32, big)), NZ32);
    assert_eq!(exact(d.eval(f32_bits(3e38), big | NZ32)), NZ32);
    assert!(is_any_nan(d.eval(PINF32, big)));
    // |b| = 2^126 exactly is in the bounded range: 2^127 / 2^126 = 2
    let r = d.eval(big, f32_bits(2f32.powi(126)));
    assert!(r.contains(&F32, f32_bits(2.0)));
    // div.full has no such rule: 1 / 2^127 = 2^-127 (subnormal) within 2 ulps
    let r = form("div.full.f32").eval(ONE32, big);
    assert!(r.contains(&F32, 0x0040_0000), "{r:?}");
    assert!(!r.contains(&F32, 0));
    // ... and with .ftz the subnormal quotient flushes to +0.0: exact
    assert_eq!(exact(form("div.full.ftz.f32").eval(ONE32, big)), 0);
}

/// Every bounded interval holds the correctly rounded `f64` reference, is
/// ordered, and its ends are not NaN; over every form on seeded inputs
/// across all binades.
#[test]
fn intervals_hold_the_reference() {
    let mut state = 0x5eed_u64;
    let mut checked = 0;
    for f in FORMS {
        let w = f.fmt.width();
        let mask = if w == 64 { u64::MAX } else { (1 << w) - 1 };
        for _ in 0..20_000 {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let z = mix(state);
            let (a, b) = (z & mask, (z >> 32) & mask);
            let r = f.eval(a, b);
            assert!(
                r.contains(f.fmt, r.nominal),
                "{} {a:#x} {b:#x} {r:?}",
                f.ptx()
            );
            if let Bound::Within { lo, hi } = r.bound {
                assert!(approx::key(f.fmt, lo) < approx::key(f.fmt, hi));
                let x = f64::from_bits(r.reference);
                // the reference's two neighbours in the format are inside
                let down = approx::round_f64(f.fmt, x, ptx_semantics::cvt::round::Round::Down);
                let up = approx::round_f64(f.fmt, x, ptx_semantics::cvt::round::Round::Up);
                if !f.ftz {
                    assert!(r.contains(f.fmt, down) && r.contains(f.fmt, up), "{r:?}");
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 300_000, "{checked}");
}

/// A larger bound gives a wider interval: the interval under `n + 1` ulps
/// (or a larger relative or absolute bound) contains the one under `n`.
#[test]
fn wider_bounds_give_wider_intervals() {
    let mut state = 7u64;
    for _ in 0..50_000 {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let z = mix(state);
        let x = f32::from_bits(z as u32) as f64;
        if !x.is_finite() {
            continue;
        }
        for fmt in [&F32, &F16, &BF16] {
            let pairs = [
                (approx::ulps(fmt, x, 1, ""), approx::ulps(fmt, x, 2, "")),
                (
                    approx::rel(fmt, x, 2f64.powi(-22), ""),
                    approx::rel(fmt, x, 2f64.powi(-20), ""),
                ),
                (
                    approx::abs(fmt, x, 2f64.powi(-20), ""),
                    approx::abs(fmt, x, 2f64.powi(-14), ""),
                ),
            ];
            for (narrow, wide) in pairs {
                let (nl, nh) = bounds(fmt, narrow);
                let (wl, wh) = bounds(fmt, wide);
                assert!(wl <= nl && nh <= wh, "{x} {narrow:?} {wide:?}");
            }
        }
    }
}

fn bounds(fmt: &ptx_semantics::arith::float::FloatFormat, r: approx::Approx) -> (i64, i64) {
    let (lo, hi) = r.interval().expect("an interval");
    (approx::key(fmt, lo), approx::key(fmt, hi))
}

/// The ulp arithmetic at binade edges, worked by hand: rcp.approx.f32 of
/// 3.0 (1 ulp): 1/3 lies between 0x3eaaaaaa and 0x3eaaaaab, ulp 2^-25;
/// within 1 ulp of it lie 0x3eaaaaaa and 0x3eaaaaab only by distance, and
/// one step from the correctly rounded 0x3eaaaaab gives 0x3eaaaaac.
/// At a power of two the binade below has half the spacing: 1/0.5 = 2.0
/// exactly (ulp 2^-22 above, 2^-23 below): one ulp of 2.0 reaches down to
/// 2 - 2^-22 = 0x3ffffffe; one step from 0x40000000 reaches 0x3fffffff.
#[test]
fn ulp_bounds_at_binade_edges() {
    let r = on("rcp.approx.f32", f32_bits(3.0));
    assert_eq!(r.interval(), Some((0x3eaa_aaaa, 0x3eaa_aaac)));
    assert_eq!(r.nominal, 0x3eaa_aaab);
    let r = on("rcp.approx.f32", f32_bits(0.5));
    assert_eq!(r.interval(), Some((0x3fff_fffe, 0x4000_0001)));
    // 2 ulps (ex2, div): 2^1 = 2.0 exactly: [2 - 2*2^-22, 2 + 2*2^-22]
    let r = on("ex2.approx.f32", ONE32);
    assert_eq!(r.interval(), Some((0x3fff_fffc, 0x4000_0002)));
    // Just outside fails, just inside passes.
    assert!(r.contains(&F32, 0x4000_0002) && !r.contains(&F32, 0x4000_0003));
    assert!(r.contains(&F32, 0x3fff_fffc) && !r.contains(&F32, 0x3fff_fffb));
    // Overflow: 2^128 is beyond the largest finite value: +Inf is its
    // correctly rounded value (two steps below it: 0x7f7ffffe); 2 ulps of
    // its binade (2^105 each) reach down to 2^128 - 2^106 = 0x7f7ffffc.
    let r = on("ex2.approx.f32", f32_bits(128.0));
    assert_eq!(r.nominal, PINF32);
    assert_eq!(r.interval(), Some((0x7f7f_fffc, PINF32)));
    // Relative 2^-23 (sqrt) of 4.0: 2 * (1 ± 2^-23) = 2 ± 2^-22: one ulp of
    // the binade above 2.0, two of the binade below.
    let r = on("sqrt.approx.f32", f32_bits(4.0));
    assert_eq!(r.interval(), Some((0x3fff_fffe, 0x4000_0001)));
    // Absolute 2^-22 (lg2 on (0.5, 2)) at 1.0: log2(1) = 0, every value of
    // magnitude up to 2^-22.
    let r = on("lg2.approx.f32", ONE32);
    assert_eq!(r.interval(), Some((0xb480_0000, 0x3480_0000)));
}

/// Absolute bounds of sin/cos by range: 2^-20.5 within [-2pi, 2pi], 2^-14.7
/// within [-100pi, 100pi], nothing beyond.
#[test]
fn sin_cos_ranges() {
    let near = on("sin.approx.f32", f32_bits(1.0));
    let far = on("sin.approx.f32", f32_bits(100.0));
    let beyond = on("sin.approx.f32", f32_bits(400.0));
    let width = |r: approx::Approx| {
        let (lo, hi) = r.interval().unwrap();
        f32::from_bits(hi as u32) as f64 - f32::from_bits(lo as u32) as f64
    };
    // 2 * 2^-20.5 = 2^-19.5 wide, less the rounding at both ends
    assert!((width(near) - 2f64.powf(-19.5)).abs() < 2f64.powi(-23));
    assert!((width(far) - 2f64.powf(-13.7)).abs() < 2f64.powi(-22));
    assert_eq!(beyond.bound, Bound::Open { open: 0xffff_ffff });
}

/// The simulator's bits: an interval leaves the whole lane open, a table
/// value none; packed lanes are independent.
#[test]
fn register_results_mark_bounded_lanes_open() {
    let (d, open) = form("ex2.approx.f16x2").eval_register(0x3c00_0000, 0);
    assert_eq!(d & 0xffff, 0x3c00);
    assert_eq!(d >> 16, 0x4000);
    assert_eq!(open, 0xffff_0000);
    let (_, open) = form("div.approx.f32").eval_register(NAN32, ONE32);
    assert_eq!(open, 0x807f_ffff);
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The checker `tools/device/approx_sweep.py` runs beside the GPU: for
/// every form it read from `$APPROX_SWEEP_DIR/FORM.{a,b,d}.bin` (raw
/// little-endian registers), one JSON line in `FORM.check.json`: the count
/// of values by bound kind, the values outside the model's bound (first
/// 64 in full), the largest error in the spec's unit per rule, and the
/// indices of the worst inputs.
#[test]
#[ignore = "run by tools/device/approx_sweep.py on the GPU machine"]
fn check_gpu_sweep() {
    let Ok(dir) = std::env::var("APPROX_SWEEP_DIR") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    std::thread::scope(|s| {
        for f in FORMS {
            let dir = dir.clone();
            s.spawn(move || check_form(&dir, f));
        }
    });
}

fn read_regs(path: &std::path::Path, bytes: usize) -> Option<Vec<u64>> {
    let data = std::fs::read(path).ok()?;
    Some(
        data.chunks_exact(bytes)
            .map(|c| {
                let mut b = [0u8; 8];
                b[..bytes].copy_from_slice(c);
                u64::from_le_bytes(b)
            })
            .collect(),
    )
}

fn check_form(dir: &std::path::Path, f: &ApproxForm) {
    use std::collections::BTreeMap;
    use std::fmt::Write;
    let name = f.ptx();
    let bytes = (f.reg_bits() / 8) as usize;
    let Some(a) = read_regs(&dir.join(format!("{name}.a.bin")), bytes) else {
        return;
    };
    let b = read_regs(&dir.join(format!("{name}.b.bin")), bytes).unwrap_or_default();
    let Some(d) = read_regs(&dir.join(format!("{name}.d.bin")), bytes) else {
        return;
    };
    let lanes = if f.packed { 2 } else { 1 };
    let w = f.fmt.width();
    let lane_mask = if w == 64 { u64::MAX } else { (1 << w) - 1 };
    let mut kinds = [0u64; 4];
    let mut outside = 0u64;
    let mut cases = String::new();
    // rule -> (limit, max error, index, count)
    let mut errors: BTreeMap<&str, (f64, f64, usize, u64)> = BTreeMap::new();
    let mut worst: Vec<(f64, usize)> = Vec::new();
    for (i, (&ai, &di)) in a.iter().zip(&d).enumerate() {
        let bi = b.get(i).copied().unwrap_or(0);
        let rs = f.eval_lanes(ai, bi);
        for (lane, r) in rs.iter().enumerate().take(lanes) {
            let y = (di >> (w * lane as u32)) & lane_mask;
            kinds[match r.bound {
                Bound::Exact => 0,
                Bound::AnyNan => 1,
                Bound::Within { .. } => 2,
                Bound::Open { .. } => 3,
            }] += 1;
            if !r.contains(f.fmt, y) {
                outside += 1;
                if outside <= 64 {
                    let (lo, hi) = r.interval().unwrap_or((r.nominal, r.nominal));
                    let _ = write!(
                        cases,
                        "{}[{i},{lane},\"{ai:#x}\",\"{bi:#x}\",\"{y:#x}\",\"{lo:#x}\",\"{hi:#x}\",{:?}]",
                        if cases.is_empty() { "" } else { "," },
                        r.rule
                    );
                }
            }
            if let (Some(e), Some(limit)) = (r.error(f.fmt, y), r.limit()) {
                let e = e.min(f64::MAX);
                let slot = errors.entry(r.rule).or_insert((limit, -1.0, 0, 0));
                slot.3 += 1;
                if e > slot.1 {
                    slot.1 = e;
                    slot.2 = i;
                }
                worst.push((e / limit, i));
            }
        }
    }
    worst.sort_by(|x, y| y.0.total_cmp(&x.0));
    worst.dedup_by_key(|x| x.1);
    let worst: Vec<String> = worst.iter().take(8).map(|x| x.1.to_string()).collect();
    let errs: Vec<String> = errors
        .iter()
        .map(|(rule, (limit, max, at, n))| {
            format!("{{\"rule\":{rule:?},\"limit\":{limit:e},\"max\":{max:e},\"at\":{at},\"values\":{n}}}")
        })
        .collect();
    let line = format!(
        "{{\"form\":\"{name}\",\"inputs\":{},\"values\":{},\"exact\":{},\"any_nan\":{},\"within\":{},\"open\":{},\"outside\":{outside},\"outside_cases\":[{cases}],\"errors\":[{}],\"worst\":[{}]}}\n",
        a.len(),
        a.len() * lanes,
        kinds[0],
        kinds[1],
        kinds[2],
        kinds[3],
        errs.join(","),
        worst.join(",")
    );
    std::fs::write(dir.join(format!("{name}.check.json")), line).expect("write the check");
}
