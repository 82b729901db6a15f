//! `conform eval "INSTR" OPERAND...`: evaluates an instruction form whose
//! operands are registers (`cvt` and `cvt.pack`, and through
//! [`crate::eval_reg`] `prmt`, the packing and unpacking `mov`, and `shfl`
//! over a whole warp) on given source values, and prints the destination as
//! hex and decoded, with the flags and the spec clause behind any special
//! case. `--batch` reads one line of
//! space-separated hex source operands per input from stdin and writes one
//! line per input: the destination in hex, or `undef`.

use crate::eval_reg::{self, RegForm, Warp};
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use ptx_semantics::catalogue::Catalogue;
use ptx_semantics::cvt::format::{FloatFormat, Format};
use ptx_semantics::cvt::round::{decode, Decoded};
use ptx_semantics::cvt::{Conversion, CvtOp, EvalError};
use std::io::{BufRead, Write};
use std::process::ExitCode;

#[derive(Args)]
#[command(
    after_help = "Operands are hex bit patterns (0x3f800000) or typed literals: integers (-5) for \
integer sources, decimals and inf, -inf, nan for float sources (rounded to nearest even).\n\
Examples:\n  conform eval cvt.rn.f16.f32 1.5\n  conform eval cvt.rn.satfinite.e4m3x2.f32 448 -1e9\n  \
printf '3f800000\\n7f800001\\n' | conform eval cvt.rn.f16.f32 --batch\n  \
conform eval prmt.b32 0x44332211 0x88776655 0x3210\n  conform eval mov.b64 0x1 0x2\n  \
conform eval mov.b32 --unpack 4 0x44332211\n  conform eval shfl.sync.bfly.b32 lane 1 0x1f 0xffffffff\n\
shfl operands are one value for every lane, 32 comma-separated values (lane 0 first), or `lane`; \
in --batch each line is the 32 values of a, then b, c (and membermask)."
)]
pub struct EvalArgs {
    /// The instruction form, without operands: `cvt.rn.f16.f32`.
    pub instr: String,
    /// Source operand values, in operand order (`a`, `b`, ..., `rbits`).
    #[arg(allow_hyphen_values = true)]
    pub operands: Vec<String>,
    /// Read hex source operands from stdin, one input per line; write one
    /// destination per line (hex, or `undef`).
    #[arg(long)]
    pub batch: bool,
    /// With --batch: write each destination as `BITS:MASK`, the mask
    /// holding the bits the spec leaves unspecified (don't-care).
    #[arg(long, requires = "batch")]
    pub mask: bool,
    /// Write JSON: one object (with --batch, one object per input line)
    /// with each destination's bits, its unspecified mask, the flags and
    /// the spec clause.
    #[arg(long)]
    pub json: bool,
    /// For `mov.bW`: unpack the source into this many elements (2 or 4)
    /// rather than pack the sources.
    #[arg(long, value_name = "N", conflicts_with = "pack")]
    pub unpack: Option<usize>,
    /// For `mov.bW`: pack this many elements (2 or 4); without it, as many
    /// as there are operands (needed with `--batch`).
    #[arg(long, value_name = "N")]
    pub pack: Option<usize>,
    /// For `shfl`: the lanes that execute the instruction.
    #[arg(long, value_name = "MASK", default_value = "0xffffffff", value_parser = eval_reg::parse_mask)]
    pub active: u32,
    /// For `shfl`: the lanes that have exited (lanes neither active nor
    /// exited are inactive).
    #[arg(long, value_name = "MASK", default_value = "0", value_parser = eval_reg::parse_mask)]
    pub exited: u32,
}

fn resolve(instr: &str) -> Result<Conversion> {
    let text = instr.trim().trim_end_matches(';');
    if text.contains(char::is_whitespace) {
        bail!("give the instruction form without operands (for example `cvt.rn.f16.f32`), and the values after it");
    }
    let b = Catalogue::get()
        .resolve_text(text)
        .map_err(|_| anyhow!("`{text}` is not an instruction form of the catalogue"))?;
    Conversion::from_binding(&b)
        .map_err(|e| anyhow!("`{text}`: {e} (conform eval knows cvt and cvt.pack forms)"))
}

/// The format of source operand `i` of a form.
fn source_format(conv: &Conversion, i: usize) -> Option<Format> {
    match conv {
        Conversion::Cvt(op) if i < op.source_count() - stochastic(op) as usize => Some(op.src),
        _ => None,
    }
}

fn stochastic(op: &CvtOp) -> bool {
    matches!(
        op.round,
        Some(ptx_semantics::cvt::round::Round::Stochastic { .. })
    )
}

fn parse_hex(s: &str) -> Option<u64> {
    let h = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .unwrap_or(s);
    u64::from_str_radix(h, 16).ok()
}

/// An operand as bits of its format.
fn operand_bits(text: &str, fmt: Option<Format>) -> Result<u64> {
    if text.starts_with("0x") || text.starts_with("0X") {
        return parse_hex(text).ok_or_else(|| anyhow!("`{text}` is not a hex value"));
    }
    match fmt {
        Some(Format::Int(i)) => {
            let v: i128 = text
                .parse()
                .with_context(|| format!("`{text}` is not an integer"))?;
            if v < i.min() || v > i.max() {
                bail!("{text} does not fit {}", Format::Int(i).ptx_name());
            }
            Ok(v as u64 & i.mask())
        }
        Some(Format::Float(f)) => {
            let v: f64 = match text.to_ascii_lowercase().as_str() {
                "nan" => f64::NAN,
                "-nan" => -f64::NAN,
                "inf" | "+inf" => f64::INFINITY,
                "-inf" => f64::NEG_INFINITY,
                t => t
                    .parse()
                    .with_context(|| format!("`{text}` is not a number"))?,
            };
            Ok(float_bits(&f, v))
        }
        _ => parse_hex(text)
            .ok_or_else(|| anyhow!("`{text}`: give packed and random-bit operands in hex")),
    }
}

/// `v` in format `f`, rounded to nearest even (through the model's own
/// `cvt.rn.<f>.f64`).
fn float_bits(f: &FloatFormat, v: f64) -> u64 {
    if f.name == "f64" {
        return v.to_bits();
    }
    let op = CvtOp {
        dst: Format::Float(*f),
        src: Format::from_ptx(".f64").expect("f64"),
        round: Some(ptx_semantics::cvt::round::Round::NearestEven),
        integer_rounding: false,
        mods: Default::default(),
    };
    op.eval_scalar(v.to_bits()).bits
}

/// A value of a format, in words.
pub fn describe(fmt: &Format, bits: u64) -> String {
    match fmt {
        Format::Int(i) => format!("{}", i.read(bits)),
        Format::Float(f) => describe_float(f, if f.name == "tf32" { bits >> 13 } else { bits }),
        Format::Pack {
            of,
            lanes,
            lane_bits,
        } => {
            let parts: Vec<String> = (0..*lanes)
                .map(|l| {
                    let shift = (lanes - 1 - l) * lane_bits;
                    describe_float(of, (bits >> shift) & ((1u64 << lane_bits) - 1))
                })
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
    }
}

fn describe_float(f: &FloatFormat, bits: u64) -> String {
    match decode(f, bits) {
        Decoded::Zero { neg } => (if neg { "-0" } else { "0" }).to_string(),
        Decoded::Inf { neg } => (if neg { "-inf" } else { "inf" }).to_string(),
        Decoded::Nan { neg, .. } => (if neg { "-nan" } else { "nan" }).to_string(),
        Decoded::Finite { neg, sig, exp } => {
            let v = sig as f64 * 2f64.powi(exp);
            format!("{}{v:e}", if neg { "-" } else { "" })
        }
    }
}

/// How destinations are written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Hex bits.
    Plain,
    /// `BITS:MASK`.
    Mask,
    /// JSON objects.
    Json,
}

impl EvalArgs {
    fn style(&self) -> Style {
        if self.json {
            Style::Json
        } else if self.mask {
            Style::Mask
        } else {
            Style::Plain
        }
    }
}

/// `{"bits": "0x..", "unspecified": "0x.."}` for one destination.
pub fn json_value(bits: u128, unspecified: u128, hex_width: usize) -> serde_json::Value {
    serde_json::json!({
        "bits": format!("0x{bits:0hex_width$x}"),
        "unspecified": format!("0x{unspecified:0hex_width$x}"),
    })
}

pub fn run(mut a: EvalArgs) -> Result<ExitCode> {
    // operands may start with `-` (negative numbers, `-inf`), so a flag
    // written after them arrives as an operand: take it back
    let mut operands = Vec::new();
    let mut words = std::mem::take(&mut a.operands).into_iter();
    while let Some(o) = words.next() {
        let mut value = |flag: &str| words.next().ok_or_else(|| anyhow!("{flag} needs a value"));
        match o.as_str() {
            "--json" => a.json = true,
            "--mask" => a.mask = true,
            "--batch" => a.batch = true,
            "--active" => {
                a.active = eval_reg::parse_mask(&value("--active")?)
                    .map_err(|e| anyhow!("--active: {e}"))?
            }
            "--exited" => {
                a.exited = eval_reg::parse_mask(&value("--exited")?)
                    .map_err(|e| anyhow!("--exited: {e}"))?
            }
            "--pack" => a.pack = Some(value("--pack")?.parse().context("--pack: a count")?),
            "--unpack" => a.unpack = Some(value("--unpack")?.parse().context("--unpack: a count")?),
            _ => operands.push(o),
        }
    }
    a.operands = operands;
    if a.mask && !a.batch {
        bail!("--mask goes with --batch (a single evaluation prints the mask already)");
    }
    let text = a.instr.trim().trim_end_matches(';');
    let style = a.style();
    if let Some(form) = RegForm::resolve(text, a.pack.unwrap_or(a.operands.len()), a.unpack)? {
        if a.batch {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
            form.batch(&mut std::io::stdin().lock(), &mut out, style)?;
            out.flush()?;
        } else {
            let warp = Warp {
                active: a.active,
                exited: a.exited & !a.active,
            };
            form.run(&a.operands, warp, style)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let conv = resolve(&a.instr)?;
    if a.batch {
        return batch(&conv, style);
    }
    let n = conv.source_count();
    if a.operands.len() != n {
        bail!(
            "`{}` takes {n} source operand(s), got {}",
            a.instr,
            a.operands.len()
        );
    }
    let sources: Vec<u64> = a
        .operands
        .iter()
        .enumerate()
        .map(|(i, t)| operand_bits(t, source_format(&conv, i)))
        .collect::<Result<_>>()?;
    let width = conv.dest_width();
    let hex_width = width.div_ceil(4) as usize;
    if style == Style::Json {
        println!("{}", cvt_json(&conv, &sources, hex_width));
        return Ok(ExitCode::SUCCESS);
    }
    match conv.eval(&sources) {
        Ok(c) => {
            let dst = match &conv {
                Conversion::Cvt(op) => Some(op.dst),
                Conversion::Pack(_) => None,
            };
            let decoded =
                dst.map_or_else(|| format!("{}", c.bits as u32), |d| describe(&d, c.bits));
            println!("d = 0x{:0hex_width$x}  ({decoded})", c.bits);
            if c.unspecified != 0 {
                println!("unspecified bits: 0x{:0hex_width$x}", c.unspecified);
            }
            let flags = c.flags.names();
            if !flags.is_empty() {
                println!("flags: {}", flags.join(", "));
            }
            if let Some(clause) = c.clause {
                println!("because: {clause}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(EvalError::Undefined(u)) => {
            println!("d = undefined");
            println!("because: {}", u.clause);
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => Err(e.into()),
    }
}

/// One conversion's result as JSON: the sources, the destination's bits
/// and unspecified mask, the flags and the clause; or that it is
/// undefined, with the clause.
fn cvt_json(conv: &Conversion, sources: &[u64], hex_width: usize) -> serde_json::Value {
    let src: Vec<String> = sources.iter().map(|s| format!("0x{s:x}")).collect();
    match conv.eval(sources) {
        Ok(c) => {
            let mut v = json_value(u128::from(c.bits), u128::from(c.unspecified), hex_width);
            v["sources"] = serde_json::json!(src);
            v["flags"] = serde_json::json!(c.flags.names());
            v["clause"] = serde_json::json!(c.clause);
            v
        }
        Err(EvalError::Undefined(u)) => serde_json::json!({
            "sources": src,
            "undefined": true,
            "clause": u.clause,
        }),
        Err(e) => serde_json::json!({ "sources": src, "error": e.to_string() }),
    }
}

fn batch(conv: &Conversion, style: Style) -> Result<ExitCode> {
    let hex_width = conv.dest_width().div_ceil(4) as usize;
    let n = conv.source_count();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut line = String::new();
    let mut sources = vec![0u64; n];
    let mut lineno = 0usize;
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            break;
        }
        lineno += 1;
        let mut k = 0;
        for word in line.split_ascii_whitespace() {
            if k == n {
                bail!("<stdin>:{lineno}: more than {n} operand(s)");
            }
            sources[k] =
                parse_hex(word).ok_or_else(|| anyhow!("<stdin>:{lineno}: `{word}` is not hex"))?;
            k += 1;
        }
        if k != n {
            bail!("<stdin>:{lineno}: expected {n} operand(s), got {k}");
        }
        match (style, conv.eval(&sources)) {
            (Style::Json, _) => writeln!(out, "{}", cvt_json(conv, &sources, hex_width))?,
            (Style::Mask, Ok(c)) => writeln!(out, "{:x}:{:x}", c.bits, c.unspecified)?,
            (_, Ok(c)) => writeln!(out, "{:x}", c.bits)?,
            (_, Err(_)) => out.write_all(b"undef\n")?,
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
