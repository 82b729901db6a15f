//! Every `cvt` and `cvt.pack` form of the catalogue, read a second time
//! from its text (`cvt.rn.relu.satfinite.f16x2.f32`) into the oracle's own
//! description, beside the model's `Conversion` for the same text (the
//! thing under test). Whether sm_90 ran the form comes from the hardware
//! baseline's list of forms (corpus/cvt/hardware/sm_90/forms.tsv).

use crate::engine::Mode;
use crate::format::{float_named, Fp, Int};
use ptx_semantics::catalogue::Catalogue;
use ptx_semantics::cvt::Conversion;
use std::collections::HashSet;

/// An operand type of a conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    Int(Int),
    Float(Fp),
    /// `lanes` values of `of`, each in `lane_bits` bits, lane 0 (operand
    /// `a`, or the upper bits of a packed source) most significant.
    Pack {
        of: Fp,
        lanes: u32,
        lane_bits: u32,
    },
}

impl Operand {
    fn named(name: &str) -> Option<Operand> {
        let int = |bits, signed| Some(Operand::Int(Int { bits, signed }));
        match name {
            "u8" => int(8, false),
            "u16" => int(16, false),
            "u32" => int(32, false),
            "u64" => int(64, false),
            "s8" => int(8, true),
            "s16" => int(16, true),
            "s32" => int(32, true),
            "s64" => int(64, true),
            _ => {
                if let Some(f) = float_named(name) {
                    return Some(Operand::Float(f));
                }
                let (base, lanes) = name
                    .strip_suffix("x2")
                    .map(|b| (b, 2))
                    .or_else(|| name.strip_suffix("x4").map(|b| (b, 4)))?;
                let of = float_named(base)?;
                // Lanes are 16 bits for `.f16`/`.bf16`, 4 for `.e2m1`,
                // otherwise 8 ("with 2 MSB bits padded with zeros" for FP6).
                let lane_bits = match of.width() {
                    16 => 16,
                    4 => 4,
                    _ => 8,
                };
                Some(Operand::Pack {
                    of,
                    lanes,
                    lane_bits,
                })
            }
        }
    }
}

/// The rounding a form names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    Ieee(Mode),
    /// `.rs`: random bits from the last operand.
    Stochastic,
}

/// What the oracle reads from a form's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    pub dst: Operand,
    pub src: Operand,
    pub round: Option<Rounding>,
    /// `.rni .rzi .rmi .rpi`.
    pub integral: bool,
    pub ftz: bool,
    pub sat: bool,
    pub relu: bool,
    pub satfinite: bool,
    /// `cvt.pack`: the convert type and whether operand `c` is present.
    pub pack: Option<(Int, bool)>,
}

/// The conversion families counts are kept by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// Float to float, scalar.
    F2f,
    /// Float to an integral value in the same format (`.rni` ...).
    F2fIntegral,
    F2i,
    I2f,
    I2i,
    /// `cvt` with an `x2`/`x4` operand.
    Packed,
    /// `cvt.pack`.
    CvtPack,
}

impl Family {
    pub fn name(self) -> &'static str {
        match self {
            Family::F2f => "f2f",
            Family::F2fIntegral => "f2f-integral",
            Family::F2i => "f2i",
            Family::I2f => "i2f",
            Family::I2i => "i2i",
            Family::Packed => "packed",
            Family::CvtPack => "cvt.pack",
        }
    }
}

impl Spec {
    /// Reads a form's text. `None` for text that is not a conversion the
    /// oracle knows.
    pub fn parse(text: &str) -> Option<Spec> {
        let mut words = text.split('.');
        if words.next()? != "cvt" {
            return None;
        }
        let mut spec = Spec {
            dst: Operand::Int(Int {
                bits: 32,
                signed: false,
            }),
            src: Operand::Int(Int {
                bits: 32,
                signed: false,
            }),
            round: None,
            integral: false,
            ftz: false,
            sat: false,
            relu: false,
            satfinite: false,
            pack: None,
        };
        let mut types = Vec::new();
        let mut is_pack = false;
        for w in words {
            let mode = |m| Some(Rounding::Ieee(m));
            match w {
                "pack" => is_pack = true,
                "rn" => spec.round = mode(Mode::NearestEven),
                "rna" => spec.round = mode(Mode::NearestAway),
                "rz" => spec.round = mode(Mode::TowardZero),
                "rm" => spec.round = mode(Mode::Down),
                "rp" => spec.round = mode(Mode::Up),
                "rs" => spec.round = Some(Rounding::Stochastic),
                "rni" | "rzi" | "rmi" | "rpi" => {
                    spec.integral = true;
                    spec.round = mode(match w {
                        "rni" => Mode::NearestEven,
                        "rzi" => Mode::TowardZero,
                        "rmi" => Mode::Down,
                        _ => Mode::Up,
                    });
                }
                "ftz" => spec.ftz = true,
                "sat" => spec.sat = true,
                "relu" => spec.relu = true,
                "satfinite" => spec.satfinite = true,
                t => types.push(t),
            }
        }
        if is_pack {
            // cvt.pack.sat.convertType.abType{.cType}
            let Some(Operand::Int(convert)) = types.first().and_then(|t| match *t {
                "u2" => Some(Operand::Int(Int {
                    bits: 2,
                    signed: false,
                })),
                "s2" => Some(Operand::Int(Int {
                    bits: 2,
                    signed: true,
                })),
                "u4" => Some(Operand::Int(Int {
                    bits: 4,
                    signed: false,
                })),
                "s4" => Some(Operand::Int(Int {
                    bits: 4,
                    signed: true,
                })),
                t => Operand::named(t),
            }) else {
                return None;
            };
            spec.pack = Some((convert, types.len() == 3));
            spec.dst = Operand::Int(convert);
            return Some(spec);
        }
        // The first type written is the destination.
        let [d, a] = types[..] else { return None };
        spec.dst = Operand::named(d)?;
        spec.src = Operand::named(a)?;
        Some(spec)
    }

    pub fn family(&self) -> Family {
        if self.pack.is_some() {
            return Family::CvtPack;
        }
        match (self.dst, self.src) {
            (Operand::Pack { .. }, _) | (_, Operand::Pack { .. }) => Family::Packed,
            (Operand::Int(_), Operand::Int(_)) => Family::I2i,
            (Operand::Int(_), Operand::Float(_)) => Family::F2i,
            (Operand::Float(_), Operand::Int(_)) => Family::I2f,
            (Operand::Float(d), Operand::Float(s)) if self.integral && d == s => {
                Family::F2fIntegral
            }
            _ => Family::F2f,
        }
    }

    /// How many source operands the form takes, and each one's width.
    pub fn source_widths(&self) -> Vec<u32> {
        if let Some((_, with_c)) = self.pack {
            return vec![32; if with_c { 3 } else { 2 }];
        }
        let mut w = match (self.dst, self.src) {
            (Operand::Pack { lanes, .. }, Operand::Float(f)) => vec![f.width(); lanes as usize],
            (
                _,
                Operand::Pack {
                    lanes, lane_bits, ..
                },
            ) => vec![lanes * lane_bits],
            (_, Operand::Float(f)) => vec![f.width()],
            (_, Operand::Int(i)) => vec![i.bits],
        };
        if self.round == Some(Rounding::Stochastic) {
            w.push(32);
        }
        w
    }
}

/// One form: its text, the model's reading, the oracle's reading.
#[derive(Clone, Debug)]
pub struct CvtForm {
    pub text: String,
    pub model: Conversion,
    pub spec: Spec,
    /// Whether sm_90 ran it (the hardware baseline has it).
    pub on_hardware: bool,
}

const SM90_FORMS: &str = include_str!("../../corpus/cvt/hardware/sm_90/forms.tsv");

/// Every conversion form the catalogue resolves, once each, in catalogue
/// order.
pub fn all_forms() -> Vec<CvtForm> {
    let on_hw: HashSet<&str> = SM90_FORMS
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split('\t').next())
        .collect();
    let cat = Catalogue::get();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for g in cat
        .forms
        .iter()
        .filter(|f| matches!(f.row.instr, "cvt" | "cvt.pack"))
    {
        for text in g.spellings(&|_, _| true) {
            if seen.contains(&text) {
                continue;
            }
            let Ok(b) = cat.resolve_text(&text) else {
                continue;
            };
            let Ok(model) = Conversion::from_binding(&b) else {
                continue;
            };
            let Some(spec) = Spec::parse(&text) else {
                continue;
            };
            seen.insert(text.clone());
            out.push(CvtForm {
                on_hardware: on_hw.contains(text.as_str()),
                text,
                model,
                spec,
            });
        }
    }
    out
}
