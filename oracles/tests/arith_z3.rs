//! The IEEE-exact floating-point instructions of the model
//! (`ptx_semantics::arith::float`: `add`, `sub`, `mul`, `fma`, `div.rnd`,
//! `rcp.rnd`, `sqrt.rnd`; PTX ISA 9.7.3, 9.7.4) against Z3's
//! floating-point theory, in the four rounding modes PTX names (`.rn`,
//! `.rz`, `.rm`, `.rp`) and the four IEEE formats (f16, bf16, f32, f64),
//! without `.ftz`/`.sat`/`.relu`, whose rules the arithmetic tests of the
//! semantics crate check against rustc_apfloat. A NaN result must be a NaN
//! (PTX fixes its bits by its own rule, the canonical NaN); every other
//! result must have Z3's bits exactly. `PTX_ORACLE_SCALE=N` multiplies the
//! random counts.
#![cfg(feature = "z3")]

use ptx_oracles::engine::Mode;
use ptx_oracles::format::Fp;
use ptx_oracles::z3_arith::{z3_fp, FpOp};
use ptx_semantics::arith::float::{self, FloatFormat, FpMods, FpResult, BF16, F16, F32, F64};
use ptx_semantics::cvt::round::Round;

fn scale() -> usize {
    std::env::var("PTX_ORACLE_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

/// A small deterministic generator (xorshift64*), so failures repeat.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// The model's format and the oracle's own declaration of it.
fn formats() -> [(&'static str, &'static FloatFormat, Fp); 4] {
    [
        ("f16", &F16, Fp::ieee(5, 11)),
        ("bf16", &BF16, Fp::ieee(8, 8)),
        ("f32", &F32, Fp::ieee(8, 24)),
        ("f64", &F64, Fp::ieee(11, 53)),
    ]
}

/// Encodings at the edges of a format, written from its field widths.
fn edges(f: Fp) -> Vec<u64> {
    let mb = f.mb;
    let exp = |e: u64| e << mb;
    let all = (1u64 << f.eb) - 1;
    let one = exp(f.bias() as u64);
    let mut v = vec![
        0,
        1,             // least subnormal
        (1 << mb) - 1, // greatest subnormal
        exp(1),        // least normal
        exp(1) + 1,
        one,
        one + 1,
        one - 1,               // just under 1
        one | (1 << (mb - 1)), // 1.5
        exp(f.bias() as u64 + 1) - 1,
        exp(all) - 1, // greatest finite
        exp(all - 1),
        exp(all),                   // infinity
        exp(all) | (1 << (mb - 1)), // quiet NaN
        exp(all) | 1,               // signalling NaN
    ];
    let neg: Vec<u64> = v.iter().map(|b| b | f.sign_bit()).collect();
    v.extend(neg);
    v
}

fn random(f: Fp, rng: &mut Rng) -> u64 {
    let w = f.width();
    let mask = if w == 64 { u64::MAX } else { (1 << w) - 1 };
    let r = rng.next() & mask;
    // One draw in four lands near 1.0 so that sums cancel and quotients
    // and roots round near halfway.
    if rng.next() & 3 == 0 {
        let one = (f.bias() as u64) << f.mb;
        let jitter = rng.next() % (8 << f.mb);
        (r & f.sign_bit()) | (one - (4 << f.mb) + jitter)
    } else {
        r
    }
}

fn is_nan(f: Fp, bits: u64) -> bool {
    let all = ((1u64 << f.eb) - 1) << f.mb;
    bits & all == all && bits & ((1 << f.mb) - 1) != 0
}

fn model(op: FpOp, fmt: &FloatFormat, round: Round, [a, b, c]: [u64; 3]) -> FpResult {
    let m = FpMods::default();
    match op {
        FpOp::Add => float::add(fmt, round, m, a, b),
        FpOp::Sub => float::sub(fmt, round, m, a, b),
        FpOp::Mul => float::mul(fmt, round, m, a, b),
        FpOp::Fma => float::fma(fmt, round, m, a, b, c),
        FpOp::Div => float::div(fmt, round, m, a, b),
        FpOp::Rcp => float::rcp(fmt, round, m, a),
        FpOp::Sqrt => float::sqrt(fmt, round, m, a),
    }
}

const MODES: [(Round, Mode, &str); 4] = [
    (Round::NearestEven, Mode::NearestEven, "rn"),
    (Round::TowardZero, Mode::TowardZero, "rz"),
    (Round::Down, Mode::Down, "rm"),
    (Round::Up, Mode::Up, "rp"),
];

/// Every operand tuple for an operation: edges crossed with edges (for
/// `fma`, edges for two operands and a random third), then random tuples.
fn tuples(op: FpOp, f: Fp, rng: &mut Rng, randoms: usize) -> Vec<[u64; 3]> {
    let e = edges(f);
    let mut out = Vec::new();
    match op.arity() {
        1 => out.extend(e.iter().map(|&a| [a, 0, 0])),
        2 => {
            for &a in &e {
                out.extend(e.iter().map(|&b| [a, b, 0]));
            }
        }
        _ => {
            for &a in &e {
                for &b in &e {
                    out.push([a, b, random(f, rng)]);
                }
            }
            for &c in &e {
                out.push([random(f, rng), random(f, rng), c]);
            }
        }
    }
    for _ in 0..randoms {
        out.push([random(f, rng), random(f, rng), random(f, rng)]);
    }
    out
}

fn check(op: FpOp) {
    let randoms = 2000 * scale();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ op as u64);
    let mut checked = 0usize;
    let mut wrong = Vec::new();
    for (name, fmt, f) in formats() {
        let inputs = tuples(op, f, &mut rng, randoms);
        for (round, mode, rname) in MODES {
            for t in &inputs {
                let got = model(op, fmt, round, *t);
                let want = z3_fp(op, f, mode, t[0], t[1], t[2]);
                checked += 1;
                let ok = if is_nan(f, want) {
                    is_nan(f, got.bits)
                } else {
                    got.bits == want && got.unspecified == 0
                };
                if !ok && wrong.len() < 20 {
                    wrong.push(format!(
                        "{op:?}.{rname}.{name} {:x?}: model {:#x} (open {:#x}), Z3 {want:#x}",
                        &t[..op.arity()],
                        got.bits,
                        got.unspecified
                    ));
                }
            }
        }
    }
    println!("{op:?}: {checked} results checked against Z3");
    assert!(checked > 1000);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn add_agrees_with_z3() {
    check(FpOp::Add);
}

#[test]
fn sub_agrees_with_z3() {
    check(FpOp::Sub);
}

#[test]
fn mul_agrees_with_z3() {
    check(FpOp::Mul);
}

#[test]
fn fma_agrees_with_z3() {
    check(FpOp::Fma);
}

#[test]
fn div_agrees_with_z3() {
    check(FpOp::Div);
}

#[test]
fn rcp_agrees_with_z3() {
    check(FpOp::Rcp);
}

#[test]
fn sqrt_agrees_with_z3() {
    check(FpOp::Sqrt);
}
