//! The `cvt` and `cvt.pack` forms of the catalogue, each with the
//! registers a kernel gives its operands: the forms the conformance suite
//! and the hardware harness run.

use crate::cvt::{exhaustive_possible, InputSet};
use ptx_semantics::catalogue::grammar::Form;
use ptx_semantics::catalogue::{Catalogue, PtxVersion, Target};
use ptx_semantics::check::{check_module, Options};
use ptx_semantics::cvt::format::Format;
use ptx_semantics::cvt::{extend_to_register, Conversion};

/// A conversion form with the registers a kernel gives its operands.
#[derive(Clone, Debug)]
pub struct CvtForm {
    /// The instruction without operands: `cvt.rn.f16.f32`.
    pub text: String,
    pub conv: Conversion,
    /// Destination register width.
    pub dest_reg: u32,
    /// Source register widths.
    pub source_regs: Vec<u32>,
}

impl CvtForm {
    /// The value the destination register holds, as the model says, and
    /// the don't-care mask.
    pub fn model(&self, row: &[u64]) -> Option<(u64, u64)> {
        let c = self.conv.eval(row).ok()?;
        let bits = match &self.conv {
            Conversion::Cvt(op) => extend_to_register(&op.dst, c.bits, self.dest_reg),
            Conversion::Pack(_) => c.bits,
        };
        Some((bits, c.unspecified))
    }

    /// Which input sets the form is run on.
    pub fn sets(&self, random: usize, seed: u64) -> Vec<(&'static str, InputSet)> {
        let mut s = vec![("edge", InputSet::Edge)];
        if exhaustive_possible(&self.conv) {
            s.push(("exhaustive", InputSet::Exhaustive));
        } else {
            s.push((
                "random",
                InputSet::Random {
                    count: random,
                    seed,
                },
            ));
        }
        s
    }

    /// The input sets of the conformance suite: [`CvtForm::sets`] (those
    /// the hardware baseline ran), plus the double-rounding integers where
    /// the form has any.
    pub fn suite_sets(&self, random: usize, seed: u64) -> Vec<(&'static str, InputSet)> {
        let mut s = self.sets(random, seed);
        if let Conversion::Cvt(op) = &self.conv {
            if !crate::cvt::double_rounding_values(&op.src, &op.dst).is_empty() {
                s.push(("double-rounding", InputSet::DoubleRounding));
            }
        }
        s
    }

    /// Whether the form takes `.f32` sources only (then it is also swept
    /// over all 2^32 inputs through a digest).
    pub fn f32_sources(&self) -> bool {
        match &self.conv {
            Conversion::Cvt(op) => {
                op.src == Format::from_ptx(".f32").unwrap()
                    && !matches!(
                        op.round,
                        Some(ptx_semantics::cvt::round::Round::Stochastic { .. })
                    )
            }
            Conversion::Pack(_) => false,
        }
    }
}

fn reg_bits(width: u32) -> u32 {
    match width {
        0..=16 => 16,
        17..=32 => 32,
        _ => 64,
    }
}

/// Every qualifier sequence a form's grammar accepts, in syntax order.
fn spellings(form: &Form) -> Vec<String> {
    let mut out = vec![form.opcode.clone()];
    for slot in &form.slots {
        let mut choices: Vec<String> = vec![String::new()];
        for part in &slot.parts {
            choices = choices
                .iter()
                .flat_map(|c| part.choices.iter().map(move |q| format!("{c}{q}")))
                .collect();
        }
        if slot.optional {
            choices.insert(0, String::new());
        }
        out = out
            .iter()
            .flat_map(|o| choices.iter().map(move |c| format!("{o}{c}")))
            .collect();
    }
    out
}

/// Every `cvt` and `cvt.pack` form of the catalogue that the model says
/// `target` accepts under PTX `version`, with the registers a kernel gives
/// it: the forms whose kernel (`kernel` writes it) the checker accepts.
pub fn forms(version: &str, target: &str, kernel: impl Fn(&CvtForm) -> String) -> Vec<CvtForm> {
    let cat = Catalogue::get();
    let opts = Options {
        ptx: PtxVersion::parse(version),
        target: Target::parse(target),
        threads: Some(1),
    };
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for form in cat
        .forms
        .iter()
        .filter(|f| matches!(f.row.instr, "cvt" | "cvt.pack"))
    {
        for text in spellings(form) {
            if seen.contains(&text) {
                continue;
            }
            let Ok(b) = cat.resolve_text(&text) else {
                continue;
            };
            let Ok(conv) = Conversion::from_binding(&b) else {
                continue;
            };
            // "A source register wider than the specified type may be used,
            // except when the source operand has `.bf16` or `.bf16x2`
            // format" (and ptxas 13.0 asks the same of the integer partner
            // of a `.bf16`): exact registers there. "When converting to
            // `.e2m1x2` ..., the destination operand `d` has `.b8` type",
            // and from it "source operand `a` has `.b8` type": `.b8`
            // registers.
            let exact = text.contains(".bf16") || text.contains(".e2m1x2");
            let hw = CvtForm {
                dest_reg: if exact {
                    conv.dest_width()
                } else {
                    reg_bits(conv.dest_width()).max(match conv {
                        // Narrow integers land in a 32-bit register, to see
                        // the sign extension.
                        Conversion::Cvt(op) if matches!(op.dst, Format::Int(_)) => 32,
                        _ => 16,
                    })
                },
                source_regs: conv
                    .source_widths()
                    .into_iter()
                    .map(|w| if exact { w } else { reg_bits(w) })
                    .collect(),
                text: text.clone(),
                conv,
            };
            let Ok(module) = ptx_semantics::ptx::parse(&kernel(&hw)) else {
                continue;
            };
            if check_module(&module, &opts).is_empty() {
                seen.insert(text);
                out.push(hw);
            }
        }
    }
    out
}
