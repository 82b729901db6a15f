//! The model against the oracles, every conversion form of the catalogue.
//! Sizes are for CI (two cores, well under a minute in release); the
//! `cross-check` binary runs the same with larger counts, and
//! `PTX_ORACLE_SCALE=N` multiplies the random counts here.

use ptx_oracles::apfloat_engine::ApfloatEngine;
use ptx_oracles::check::{check_forms, check_rows, Report, KNOWN};
use ptx_oracles::engine::{Engine, IntResult, Mode};
use ptx_oracles::format::{Fp, Int};
use ptx_oracles::forms::{all_forms, CvtForm, Family, Operand, Rounding, Spec};
use ptx_oracles::inputs::{rows, Sizes};
use ptx_oracles::ptx::{expect, Expect, Lane};
use ptx_semantics::catalogue::Catalogue;
use ptx_semantics::cvt::Conversion;

fn scale() -> usize {
    std::env::var("PTX_ORACLE_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

fn form(text: &str) -> CvtForm {
    all_forms()
        .into_iter()
        .find(|f| f.text == text)
        .unwrap_or_else(|| panic!("{text} is not a catalogue form"))
}

fn assert_agrees(name: &str, report: &Report) {
    println!("{name}\n{report}");
    let t = report.total();
    assert!(t.inputs > 0, "{name}: nothing checked");
    assert!(
        report.skipped.is_empty(),
        "{name}: forms not expressed: {:?}",
        report.skipped
    );
    assert_eq!(t.mismatches, 0, "{name}: the model and the oracle disagree");
}

/// rustc_apfloat: every 16-bit source (and source lane) exhaustively,
/// random values for wider ones.
#[test]
fn apfloat_oracle_agrees_with_the_model() {
    let forms = all_forms();
    let sizes = Sizes {
        exhaustive_bits: 16,
        random: 2500 * scale(),
        seed: 1,
    };
    let report = check_forms(&forms, &mut ApfloatEngine::default(), &sizes, 20);
    assert_agrees("rustc_apfloat", &report);
    assert_eq!(report.total().forms, forms.len());
    assert!(report.total().inputs > 10_000_000);
}

#[cfg(feature = "z3")]
mod z3 {
    use super::*;
    use ptx_oracles::engine::MODES;
    use ptx_oracles::z3_engine::Z3Engine;

    fn run(name: &str, pick: impl Fn(Family) -> bool) {
        let forms: Vec<CvtForm> = all_forms()
            .into_iter()
            .filter(|f| pick(f.spec.family()))
            .collect();
        let sizes = Sizes {
            exhaustive_bits: 8,
            random: 48 * scale(),
            seed: 2,
        };
        let report = check_forms(&forms, &mut Z3Engine::new(), &sizes, 20);
        assert_agrees(name, &report);
        assert_eq!(report.total().forms, forms.len());
    }

    /// Z3 (split in two tests so that both cores work): float results.
    #[test]
    fn z3_oracle_agrees_with_the_model_on_float_results() {
        run("z3, float results", |f| {
            matches!(f, Family::F2f | Family::F2fIntegral | Family::Packed)
        });
    }

    #[test]
    fn z3_oracle_agrees_with_the_model_on_integers() {
        run("z3, integer sources or results", |f| {
            matches!(f, Family::F2i | Family::I2f | Family::I2i | Family::CvtPack)
        });
    }

    /// The two engines agree with each other on raw IEEE roundings.
    #[test]
    fn z3_and_apfloat_round_alike() {
        let (f32_, f16_, bf16_, f64_) = (
            Fp::ieee(8, 24),
            Fp::ieee(5, 11),
            Fp::ieee(8, 8),
            Fp::ieee(11, 53),
        );
        let mut z = Z3Engine::new();
        let mut a = ApfloatEngine::default();
        let xs = ptx_oracles::inputs::some_f32(300, 3);
        for &x in &xs {
            if f32_.decode(x) == (ptx_oracles::format::Class::Nan { neg: x >> 31 == 1 }) {
                continue;
            }
            for m in MODES {
                for d in [f16_, bf16_, Fp::ieee(5, 3), Fp::ieee(11, 4), Fp::ieee(2, 2)] {
                    assert_eq!(
                        z.convert(f32_, x, d, m),
                        a.convert(f32_, x, d, m),
                        "{x:#x} {m:?} {d:?}"
                    );
                }
                assert_eq!(z.round_integral(f32_, x, m), a.round_integral(f32_, x, m));
                for i in [
                    Int {
                        bits: 8,
                        signed: true,
                    },
                    Int {
                        bits: 64,
                        signed: false,
                    },
                ] {
                    assert_eq!(
                        z.convert_to_int(f32_, x, m, i),
                        a.convert_to_int(f32_, x, m, i)
                    );
                }
                let i = Int {
                    bits: 32,
                    signed: true,
                };
                assert_eq!(
                    z.convert_from_int(i, x, f16_, m),
                    a.convert_from_int(i, x, f16_, m)
                );
                assert_eq!(
                    z.convert(f64_, (x << 29) | x, f32_, m),
                    a.convert(f64_, (x << 29) | x, f32_, m)
                );
            }
        }
    }

    /// The Z3 engine can fail: a flipped rounding mode is caught.
    #[test]
    fn z3_a_wrong_rounding_mode_is_caught() {
        let f = form("cvt.rn.f16.f32");
        let sizes = Sizes {
            exhaustive_bits: 8,
            random: 0,
            seed: 1,
        };
        let mut wrong = Flipped(Z3Engine::new());
        let mut report = Report::new(1);
        check_rows(&f, &mut wrong, &rows(&f.spec, &sizes), &mut report);
        assert!(report.total().mismatches > 0, "{report}");
    }
}

/// An engine that rounds ties away from zero where it is asked for ties to
/// even, and up where asked toward zero: a deliberately wrong reference.
struct Flipped<E>(E);

impl<E: Engine> Engine for Flipped<E> {
    fn name(&self) -> &'static str {
        "flipped"
    }
    fn convert(&mut self, src: Fp, x: u64, dst: Fp, mode: Mode) -> Option<u64> {
        self.0.convert(src, x, dst, flip(mode))
    }
    fn round_integral(&mut self, f: Fp, x: u64, mode: Mode) -> Option<u64> {
        self.0.round_integral(f, x, flip(mode))
    }
    fn convert_to_int(&mut self, src: Fp, x: u64, mode: Mode, dst: Int) -> Option<IntResult> {
        self.0.convert_to_int(src, x, flip(mode), dst)
    }
    fn convert_from_int(&mut self, src: Int, x: u64, dst: Fp, mode: Mode) -> Option<u64> {
        self.0.convert_from_int(src, x, dst, flip(mode))
    }
    fn evaluations(&self) -> u64 {
        self.0.evaluations()
    }
}

fn flip(m: Mode) -> Mode {
    match m {
        Mode::NearestEven => Mode::NearestAway,
        Mode::TowardZero => Mode::Up,
        other => other,
    }
}

/// Whether every source value of the form is exact in its destination
/// (then no rounding mode can matter).
fn exact(spec: &Spec) -> bool {
    let lane = |o: Operand| match o {
        Operand::Pack { of, .. } => Operand::Float(of),
        o => o,
    };
    match (lane(spec.dst), lane(spec.src)) {
        // `.sat` leaves only 0 and 1.
        (Operand::Float(_), Operand::Int(_)) if spec.sat => true,
        (Operand::Float(d), Operand::Int(s)) => s.bits - s.signed as u32 <= d.precision(),
        (Operand::Float(d), Operand::Float(s)) if !spec.integral => {
            let sub = |f: Fp| f.emin() - f.mb as i32;
            s.precision() <= d.precision()
                && s.max_value().top() <= d.max_value().top()
                && sub(s) >= sub(d)
        }
        _ => false,
    }
}

/// The comparison can fail: flipping the reference's rounding mode (ties
/// away for ties to even, upward for toward zero) is caught on every form
/// that rounds in those modes, so the inputs reach every rounding
/// threshold.
#[test]
fn a_wrong_rounding_mode_is_caught() {
    let sizes = Sizes {
        exhaustive_bits: 16,
        random: 64,
        seed: 1,
    };
    let mut tried = 0;
    for f in all_forms() {
        let flips = matches!(
            f.spec.round,
            Some(Rounding::Ieee(Mode::NearestEven | Mode::TowardZero))
        );
        if !flips || exact(&f.spec) {
            continue;
        }
        tried += 1;
        let mut report = Report::new(1);
        check_rows(
            &f,
            &mut Flipped(ApfloatEngine::default()),
            &rows(&f.spec, &sizes),
            &mut report,
        );
        assert!(
            report.total().mismatches > 0,
            "{}: not caught\n{report}",
            f.text
        );
    }
    assert!(tried > 250, "{tried}");
}

/// The comparison can fail on PTX's own rules: the model of a neighbouring
/// form (another modifier, the other lane order) is told apart.
#[test]
fn a_wrong_form_is_caught() {
    let sizes = Sizes {
        exhaustive_bits: 16,
        random: 64,
        seed: 1,
    };
    for (oracle, model) in [
        ("cvt.rn.relu.f16.f32", "cvt.rn.f16.f32"),
        ("cvt.rn.satfinite.f16.f32", "cvt.rn.f16.f32"),
        ("cvt.rn.f16.f32", "cvt.rn.sat.f16.f32"),
        ("cvt.ftz.f32.f32", "cvt.f32.f32"),
        ("cvt.rmi.ftz.s32.f32", "cvt.rmi.s32.f32"),
        ("cvt.rn.f16x2.f32", "cvt.rz.f16x2.f32"),
        ("cvt.rn.f16x2.e4m3x2", "cvt.rn.f16x2.e5m2x2"),
        ("cvt.pack.sat.s16.s32", "cvt.pack.sat.u16.s32"),
    ] {
        let mut f = form(oracle);
        f.model = form(model).model;
        let mut report = Report::new(1);
        check_rows(
            &f,
            &mut ApfloatEngine::default(),
            &rows(&f.spec, &sizes),
            &mut report,
        );
        assert!(
            report.total().mismatches > 0,
            "{oracle} vs the model of {model}: not caught"
        );
    }
    // Lane order: the model asked about (b, a), the oracle about (a, b).
    let f = form("cvt.rn.f16x2.f32");
    let mut differ = 0;
    for r in rows(&f.spec, &sizes) {
        let model = f.model.eval(&[r[1], r[0]]).unwrap().bits;
        if let Some(Expect::Lanes { lanes, .. }) =
            expect(&mut ApfloatEngine::default(), &f.spec, &r)
        {
            if lanes != [Lane::Bits(model >> 16), Lane::Bits(model & 0xffff)] {
                differ += 1;
            }
        }
    }
    assert!(differ > 0, "swapped lanes not told apart");
    // `.rs`: the model given other random bits than the oracle.
    for text in [
        "cvt.rs.f16x2.f32",
        "cvt.rs.bf16x2.f32",
        "cvt.rs.satfinite.e4m3x4.f32",
        "cvt.rs.satfinite.e2m3x4.f32",
        "cvt.rs.satfinite.e2m1x4.f32",
    ] {
        let f = form(text);
        let mut differ = 0;
        for r in rows(&f.spec, &sizes) {
            let mut other = r.clone();
            *other.last_mut().unwrap() ^= 0x0f0f_0f0f;
            let (Ok(model), Some(Expect::Lanes { lanes, lane_bits })) = (
                f.model.eval(&other),
                expect(&mut ApfloatEngine::default(), &f.spec, &r),
            ) else {
                continue;
            };
            let n = lanes.len() as u32;
            for (i, l) in lanes.iter().enumerate() {
                let b = (model.bits >> ((n - 1 - i as u32) * lane_bits)) & ((1 << lane_bits) - 1);
                if matches!(l, Lane::Bits(o) if *o != b) {
                    differ += 1;
                }
            }
        }
        assert!(differ > 0, "{text}: other random bits not told apart");
    }
}

/// The one disagreement the oracles found (a model bug, since fixed) stays
/// fixed: -(2^127 + 2^104) under `.rz.satfinite` is above MAX_NORM, so
/// PTX ISA 9.7.9.21 `.satfinite` defines the lane as positive MAX_NORM
/// (0xfe), although rounding toward zero lands on MAX_NORM and the format
/// has no sign; the other lane is 1.0 (0x7f).
#[test]
fn ue8m0_negative_above_max_norm_is_defined() {
    for text in [
        "cvt.rz.satfinite.ue8m0x2.f32",
        "cvt.rz.satfinite.ue8m0x2.bf16x2",
    ] {
        let f = form(text);
        // a = 1.0 (upper lane), b = -(2^127 + 2^104); for `.bf16x2`, one
        // register holding 1.0 (upper half) and -(2^127 + 2^120).
        let row = if text.ends_with(".f32") {
            vec![0x3f80_0000, 0xff00_0001]
        } else {
            vec![0x3f80_ff01]
        };
        let mut report = Report::new(4);
        check_rows(
            &f,
            &mut ApfloatEngine::default(),
            std::slice::from_ref(&row),
            &mut report,
        );
        let t = report.total();
        assert_eq!((t.mismatches, t.known), (0, 0), "{text}: {report}");
        let c = f.model.eval(&row).unwrap();
        assert_eq!((c.bits, c.unspecified), (0x7ffe, 0), "{text}");
    }
    assert!(KNOWN.is_empty());
}

/// Every conversion form the catalogue resolves is read by the oracle, with
/// the model's operand shapes, and each family has forms.
#[test]
fn every_catalogue_form_is_covered() {
    let forms = all_forms();
    assert!(forms.len() > 900, "{}", forms.len());
    for f in &forms {
        assert_eq!(
            f.spec.source_widths(),
            f.model.source_widths(),
            "{}",
            f.text
        );
        // The form resolves and is the same conversion the model reads.
        let b = Catalogue::get().resolve_text(&f.text).expect("resolves");
        assert_eq!(
            Conversion::from_binding(&b).ok(),
            Some(f.model),
            "{}",
            f.text
        );
    }
    let on_hw = forms.iter().filter(|f| f.on_hardware).count();
    assert_eq!(on_hw, 864, "every sm_90 baseline form is a catalogue form");
    for fam in [
        Family::F2f,
        Family::F2fIntegral,
        Family::F2i,
        Family::I2f,
        Family::I2i,
        Family::Packed,
        Family::CvtPack,
    ] {
        assert!(forms.iter().any(|f| f.spec.family() == fam), "{fam:?}");
    }
    // sm_90 rejects FP6, FP4, UE8M0, `.rs` and the x4 packs.
    for f in forms.iter().filter(|f| {
        [".e2m3", ".e3m2", ".e2m1", ".ue8m0", ".rs.", "x4"]
            .iter()
            .any(|s| f.text.contains(s))
    }) {
        assert!(!f.on_hardware, "{}", f.text);
    }
}
