//! The `cvt` and `cvt.pack` forms of the catalogue, each with the
//! registers a kernel gives its operands: the forms the conformance suite
//! and the hardware harness run.

use crate::cvt::{exhaustive_possible, InputSet};
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
        Some((self.register(c.bits), c.unspecified))
    }

    /// The register value the model gives `bits` of the destination
    /// format (`extend_to_register` for `cvt`).
    pub fn register(&self, bits: u64) -> u64 {
        match &self.conv {
            Conversion::Cvt(op) => extend_to_register(&op.dst, bits, self.dest_reg),
            Conversion::Pack(_) => bits,
        }
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

/// Every `cvt` and `cvt.pack` form of the catalogue that the model says
/// `target` accepts under PTX `version`, with the registers a kernel gives
/// it: the forms whose kernel (`kernel` writes it) the checker accepts.
pub fn forms(version: &str, target: &str, kernel: impl Fn(&CvtForm) -> String) -> Vec<CvtForm> {
    let cat = Catalogue::get();
    let opts = options(version, target);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for form in cat
        .forms
        .iter()
        .filter(|f| matches!(f.row.instr, "cvt" | "cvt.pack"))
    {
        for text in form.spellings(&|_, _| true) {
            if seen.contains(&text) {
                continue;
            }
            if let Some(hw) = accepted(&text, &opts, &kernel) {
                seen.insert(text);
                out.push(hw);
            }
        }
    }
    out
}

/// The form spelled `text`, as [`forms`] would give it, if it is one.
pub fn form(
    text: &str,
    version: &str,
    target: &str,
    kernel: impl Fn(&CvtForm) -> String,
) -> Option<CvtForm> {
    accepted(text, &options(version, target), &kernel)
}

fn options(version: &str, target: &str) -> Options {
    Options {
        ptx: PtxVersion::parse(version),
        target: Target::parse(target),
        threads: Some(1),
        ..Options::default()
    }
}

/// The form spelled `text` with its registers, if it is a conversion whose
/// kernel the checker accepts under `opts`.
fn accepted(text: &str, opts: &Options, kernel: &impl Fn(&CvtForm) -> String) -> Option<CvtForm> {
    let b = Catalogue::get().resolve_text(text).ok()?;
    let conv = Conversion::from_binding(&b).ok()?;
    // "A source register wider than the specified type may be used, except
    // when the source operand has `.bf16` or `.bf16x2` format" (and ptxas
    // 13.0 asks the same of the integer partner of a `.bf16`): exact
    // registers there. "When converting to `.e2m1x2` ..., the destination
    // operand `d` has `.b8` type", and from it "source operand `a` has `.b8`
    // type": `.b8` registers.
    let exact = text.contains(".bf16") || text.contains(".e2m1x2");
    let hw = CvtForm {
        dest_reg: if exact {
            conv.dest_width()
        } else {
            reg_bits(conv.dest_width()).max(match conv {
                // Narrow integers land in a 32-bit register, to see the sign
                // extension.
                Conversion::Cvt(op) if matches!(op.dst, Format::Int(_)) => 32,
                _ => 16,
            })
        },
        source_regs: conv
            .source_widths()
            .into_iter()
            .map(|w| if exact { w } else { reg_bits(w) })
            .collect(),
        text: text.to_string(),
        conv,
    };
    let module = ptx_semantics::ptx::parse(&kernel(&hw)).ok()?;
    check_module(&module, opts).is_empty().then_some(hw)
}

/// The model over runs of consecutive rows, in batches
/// (`Conversion::eval_batch`), with its column buffers kept between calls.
pub struct Batch {
    columns: Vec<Vec<u64>>,
    /// The destination register values of the last [`Batch::eval`].
    pub registers: Vec<u64>,
}

impl Batch {
    /// Buffers for `rows` rows of `form`.
    pub fn new(form: &CvtForm, rows: usize) -> Batch {
        Batch {
            columns: vec![vec![0; rows]; form.conv.source_count()],
            registers: vec![0; rows],
        }
    }

    /// The register values of rows `first..first + n` (at most the rows
    /// given to `new`) into `registers[..n]`, operand `j` of row `x` being
    /// `operand(x, j)`. Rows the model leaves undefined get 0; the result
    /// is their number.
    pub fn eval(
        &mut self,
        form: &CvtForm,
        first: u64,
        n: usize,
        operand: impl Fn(u64, usize) -> u64,
    ) -> usize {
        for (j, col) in self.columns.iter_mut().enumerate() {
            for (i, v) in col[..n].iter_mut().enumerate() {
                *v = operand(first + i as u64, j);
            }
        }
        let cols: Vec<&[u64]> = self.columns.iter().map(|c| &c[..n]).collect();
        let out = &mut self.registers[..n];
        let undefined = match form.conv.eval_batch(&cols, out) {
            Ok(u) => u,
            Err(_) => {
                out.fill(0);
                n
            }
        };
        if let Conversion::Cvt(op) = &form.conv {
            for r in out.iter_mut() {
                *r = extend_to_register(&op.dst, *r, form.dest_reg);
            }
        }
        undefined
    }
}
