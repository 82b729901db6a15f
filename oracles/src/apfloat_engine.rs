//! The rustc_apfloat engine: LLVM's APFloat in Rust. Its own formats
//! (`Half`, `BFloat`, `Single`, `Double`, `Float8E5M2`) are used where
//! they exist; the other IEEE layouts the oracle asks for (`.tf32` and the
//! helper layouts for the narrow formats, see `ptx.rs`) are declared here
//! as apfloat `Semantics`, one line each, from their exponent width and
//! precision alone.

use crate::engine::{Engine, IntResult, Mode};
use crate::format::{Fp, Int};
use rustc_apfloat::ieee::{BFloatS, DoubleS, Float8E5M2S, HalfS, IeeeFloat, Semantics, SingleS};
use rustc_apfloat::{Float, FloatConvert, Round, Status};

macro_rules! layouts {
    ($($name:ident ($bits:literal : $eb:literal);)*) => {
        $(
            #[doc = concat!("IEEE layout with ", stringify!($eb), " exponent bits in ", stringify!($bits), " bits.")]
            pub struct $name;
            impl Semantics for $name {
                const BITS: usize = $bits;
                const EXP_BITS: usize = $eb;
            }
        )*
    };
}

layouts! {
    Tf32S (19 : 8);
    Wide24S (35 : 11);
    Wide4S (15 : 11);
    Wide3S (14 : 11);
    Wide2S (13 : 11);
    E4P4S (8 : 4);
    E2P4S (6 : 2);
    E3P3S (6 : 3);
    E2P2S (4 : 2);
}

fn round(mode: Mode) -> Round {
    match mode {
        Mode::NearestEven => Round::NearestTiesToEven,
        Mode::NearestAway => Round::NearestTiesToAway,
        Mode::TowardZero => Round::TowardZero,
        Mode::Down => Round::TowardNegative,
        Mode::Up => Round::TowardPositive,
    }
}

/// Runs `$body` with `$t` bound to the semantics of `$f` (an `Fp`), or
/// evaluates to `None` when apfloat has no such layout here.
macro_rules! with_layout {
    ($f:expr, $t:ident => $body:expr) => {{
        let f: Fp = $f;
        match (f.eb, f.precision()) {
            (5, 11) => {
                type $t = HalfS;
                $body
            }
            (8, 8) => {
                type $t = BFloatS;
                $body
            }
            (8, 24) => {
                type $t = SingleS;
                $body
            }
            (11, 53) => {
                type $t = DoubleS;
                $body
            }
            (5, 3) => {
                type $t = Float8E5M2S;
                $body
            }
            (8, 11) => {
                type $t = Tf32S;
                $body
            }
            (11, 24) => {
                type $t = Wide24S;
                $body
            }
            (11, 4) => {
                type $t = Wide4S;
                $body
            }
            (11, 3) => {
                type $t = Wide3S;
                $body
            }
            (11, 2) => {
                type $t = Wide2S;
                $body
            }
            (4, 4) => {
                type $t = E4P4S;
                $body
            }
            (2, 4) => {
                type $t = E2P4S;
                $body
            }
            (3, 3) => {
                type $t = E3P3S;
                $body
            }
            (2, 2) => {
                type $t = E2P2S;
                $body
            }
            _ => None,
        }
    }};
}

fn convert_into<S: Semantics, D: Semantics>(x: u64, mode: Mode) -> Option<u64>
where
    IeeeFloat<S>: FloatConvert<IeeeFloat<D>>,
{
    let v = IeeeFloat::<S>::from_bits(x as u128);
    let r: IeeeFloat<D> = v.convert_r(round(mode), &mut false).value;
    Some(r.to_bits() as u64)
}

fn convert_from<S: Semantics>(x: u64, dst: Fp, mode: Mode) -> Option<u64> {
    with_layout!(dst, D => convert_into::<S, D>(x, mode))
}

fn integral<S: Semantics>(x: u64, mode: Mode) -> Option<u64> {
    let v = IeeeFloat::<S>::from_bits(x as u128);
    Some(v.round_to_integral(round(mode)).value.to_bits() as u64)
}

fn to_int<S: Semantics>(x: u64, mode: Mode, dst: Int) -> Option<IntResult> {
    let v = IeeeFloat::<S>::from_bits(x as u128);
    let r = v.to_i128_r(128, round(mode), &mut false);
    if r.status.intersects(Status::INVALID_OP) {
        return Some(if v.is_negative() {
            IntResult::Below
        } else {
            IntResult::Above
        });
    }
    Some(if r.value < dst.min() {
        IntResult::Below
    } else if r.value > dst.max() {
        IntResult::Above
    } else {
        IntResult::Value(r.value)
    })
}

fn from_int<D: Semantics>(src: Int, x: u64, mode: Mode) -> Option<u64> {
    let v = src.read(x);
    let r = IeeeFloat::<D>::from_i128_r(v, round(mode)).value;
    Some(r.to_bits() as u64)
}

/// rustc_apfloat as an oracle engine.
#[derive(Default)]
pub struct ApfloatEngine {
    evaluated: u64,
}

impl Engine for ApfloatEngine {
    fn name(&self) -> &'static str {
        "rustc_apfloat"
    }
    fn convert(&mut self, src: Fp, x: u64, dst: Fp, mode: Mode) -> Option<u64> {
        self.evaluated += 1;
        with_layout!(src, S => convert_from::<S>(x, dst, mode))
    }
    fn round_integral(&mut self, f: Fp, x: u64, mode: Mode) -> Option<u64> {
        self.evaluated += 1;
        with_layout!(f, S => integral::<S>(x, mode))
    }
    fn convert_to_int(&mut self, src: Fp, x: u64, mode: Mode, dst: Int) -> Option<IntResult> {
        self.evaluated += 1;
        with_layout!(src, S => to_int::<S>(x, mode, dst))
    }
    fn convert_from_int(&mut self, src: Int, x: u64, dst: Fp, mode: Mode) -> Option<u64> {
        self.evaluated += 1;
        with_layout!(dst, D => from_int::<D>(src, x, mode))
    }
    fn evaluations(&self) -> u64 {
        self.evaluated
    }
}
