//! `conform eval` for the register forms of the simulator: `prmt` in every
//! mode, the packing and unpacking `mov`, and `shfl.sync`/`shfl` over a
//! whole warp. The values come from `ptx_semantics::sim`, the functions the
//! kernel interpreter runs.

use crate::eval::{json_value, Style};
use anyhow::{anyhow, bail, Result};
use ptx_semantics::catalogue::{split_opcode, Catalogue};
use ptx_semantics::sim::{
    mov_pack, mov_unpack, prmt, shfl, shfl_sync, PrmtMode, ShflLane, ShflMode, ShflOut, Undefined,
};
use std::io::Write;

/// A register form that is not a conversion.
pub enum RegForm {
    /// `prmt.b32{.mode}`: sources `a b c`.
    Prmt(Option<PrmtMode>),
    /// `mov.bW d, {a, b[, c, d]}`: one source per element.
    MovPack { width: u32, elems: usize },
    /// `mov.bW {d.x, ...}, a`: one source, `elems` destinations.
    MovUnpack { width: u32, elems: usize },
    /// `shfl.sync.mode.b32` (`sync`) or `shfl.mode.b32`: sources
    /// `a b c [membermask]`, each one value for every lane or a list of 32.
    Shfl { mode: ShflMode, sync: bool },
}

/// Which lanes of the warp take part in a shuffle.
#[derive(Clone, Copy, Debug)]
pub struct Warp {
    /// Lanes that execute the instruction.
    pub active: u32,
    /// Lanes that have exited (the others neither execute nor have exited).
    pub exited: u32,
}

impl RegForm {
    /// The form named by `text` (`prmt.b32.f4e`, `mov.b64`,
    /// `shfl.sync.bfly.b32`), or `None` when the opcode is none of these.
    /// `operands` is how many source values were given, which tells a
    /// packing `mov` how many elements it has; `unpack` asks for the
    /// unpacking `mov` into that many elements.
    pub fn resolve(text: &str, operands: usize, unpack: Option<usize>) -> Result<Option<RegForm>> {
        let (opcode, quals) = split_opcode(text);
        if !matches!(opcode, "prmt" | "mov" | "shfl") {
            return Ok(None);
        }
        let cat = Catalogue::get();
        let forms = cat
            .resolve_all(opcode, &quals)
            .map_err(|_| anyhow!("`{text}` is not an instruction form of the catalogue"))?;
        let ids: Vec<&str> = forms.iter().map(|b| b.form.row.id).collect();
        let b = &forms[0];
        let form = match opcode {
            "prmt" => RegForm::Prmt(b.get("mode").and_then(PrmtMode::from_qualifier)),
            "shfl" => {
                let mode = b
                    .get("mode")
                    .and_then(ShflMode::from_qualifier)
                    .ok_or_else(|| anyhow!("`{text}`: no shuffle mode"))?;
                RegForm::Shfl {
                    mode,
                    sync: ids.contains(&"shfl.sync"),
                }
            }
            _ => {
                let width = quals
                    .iter()
                    .find_map(|q| q.strip_prefix(".b").and_then(|w| w.parse().ok()))
                    .ok_or_else(|| anyhow!("`{text}`: give a .bW type"))?;
                let (id, elems) = match unpack {
                    Some(n) => (format!("mov.unpack.v{n}"), n),
                    None => (format!("mov.pack.v{operands}"), operands),
                };
                if !ids.contains(&id.as_str()) {
                    bail!(
                        "`{text}` has no {} form with {elems} elements (conform eval knows the \
                         packing mov: `mov.b32 A B`, and the unpacking one: `mov.b32 --unpack 2 A`)",
                        if unpack.is_some() { "unpacking" } else { "packing" }
                    );
                }
                if unpack.is_some() {
                    RegForm::MovUnpack { width, elems }
                } else {
                    RegForm::MovPack { width, elems }
                }
            }
        };
        Ok(Some(form))
    }

    /// How many source operands the form takes.
    pub fn source_count(&self) -> usize {
        match self {
            RegForm::Prmt(_) => 3,
            RegForm::MovPack { elems, .. } => *elems,
            RegForm::MovUnpack { .. } => 1,
            RegForm::Shfl { sync, .. } => 3 + *sync as usize,
        }
    }

    /// Prints the destination(s) for the given operand texts.
    pub fn run(&self, operands: &[String], warp: Warp, style: Style) -> Result<()> {
        if operands.len() != self.source_count() {
            bail!(
                "this form takes {} source operand(s), got {}",
                self.source_count(),
                operands.len()
            );
        }
        match self {
            RegForm::Shfl { mode, sync } => {
                let lanes = warp_lanes(operands, warp)?;
                if style == Style::Json {
                    println!("{}", shuffle_json(*mode, *sync, &lanes));
                    return Ok(());
                }
                for line in shuffle_report(*mode, *sync, &lanes) {
                    println!("{line}");
                }
            }
            _ => {
                let values = operands
                    .iter()
                    .map(|t| scalar(t))
                    .collect::<Result<Vec<_>>>()?;
                let width = self.register_bits();
                let dests = self.scalar_eval(&values)?;
                if style == Style::Json {
                    println!("{}", self.scalar_json(&dests));
                    return Ok(());
                }
                for (name, v) in dests {
                    println!("{name} = 0x{v:0w$x}", w = (width / 4) as usize);
                }
            }
        }
        Ok(())
    }

    /// The destinations as JSON: each with its bits and an unspecified
    /// mask (`prmt` and `mov` leave no bit unspecified).
    fn scalar_json(&self, dests: &[(&'static str, u128)]) -> serde_json::Value {
        let w = (self.register_bits() / 4) as usize;
        let list: Vec<serde_json::Value> = dests
            .iter()
            .map(|(name, v)| {
                let mut j = json_value(*v, 0, w);
                j["name"] = serde_json::json!(name);
                j
            })
            .collect();
        serde_json::json!({ "destinations": list })
    }

    /// `--batch`: one input per line of hex words; one output line each.
    pub fn batch(
        &self,
        input: &mut impl std::io::BufRead,
        out: &mut impl Write,
        style: Style,
    ) -> Result<()> {
        let mut line = String::new();
        let mut lineno = 0usize;
        let mut words: Vec<u128> = Vec::new();
        loop {
            line.clear();
            if input.read_line(&mut line)? == 0 {
                return Ok(());
            }
            lineno += 1;
            words.clear();
            for w in line.split_ascii_whitespace() {
                words.push(
                    parse_hex(w).ok_or_else(|| anyhow!("<stdin>:{lineno}: `{w}` is not hex"))?,
                );
            }
            match self {
                RegForm::Shfl { mode, sync } => {
                    let want = 32 + 2 + *sync as usize;
                    if words.len() != want {
                        bail!(
                            "<stdin>:{lineno}: expected {want} words (32 values of a, then b, c{}), got {}",
                            if *sync { ", membermask" } else { "" },
                            words.len()
                        );
                    }
                    let w32 = |i: usize| words[i] as u32;
                    let lanes: [ShflLane; 32] = std::array::from_fn(|i| ShflLane::Executes {
                        a: w32(i),
                        b: w32(32),
                        c: w32(33),
                        membermask: if *sync { w32(34) } else { u32::MAX },
                    });
                    if style == Style::Json {
                        writeln!(out, "{}", shuffle_json(*mode, *sync, &lanes))?;
                        continue;
                    }
                    let outs = shuffle(*mode, *sync, &lanes);
                    let text: Vec<String> = outs
                        .iter()
                        .map(|o| match (o, style) {
                            (Some(Ok(r)), Style::Mask) => {
                                format!("{:x}:{:x}", r.d.bits, r.d.unspecified)
                            }
                            (Some(Ok(r)), _) if r.d.is_known() => format!("{:x}", r.d.bits),
                            _ => "undef".to_string(),
                        })
                        .collect();
                    writeln!(out, "{}", text.join(" "))?;
                }
                _ => {
                    if words.len() != self.source_count() {
                        bail!(
                            "<stdin>:{lineno}: expected {} operand(s), got {}",
                            self.source_count(),
                            words.len()
                        );
                    }
                    let ds = self.scalar_eval(&words)?;
                    if style == Style::Json {
                        writeln!(out, "{}", self.scalar_json(&ds))?;
                        continue;
                    }
                    let text: Vec<String> = ds
                        .iter()
                        .map(|(_, v)| match style {
                            Style::Mask => format!("{v:x}:0"),
                            _ => format!("{v:x}"),
                        })
                        .collect();
                    writeln!(out, "{}", text.join(" "))?;
                }
            }
        }
    }

    /// The width of a source or destination register of `prmt` and `mov`.
    fn register_bits(&self) -> u32 {
        match self {
            RegForm::Prmt(_) | RegForm::Shfl { .. } => 32,
            RegForm::MovPack { width, .. } => *width,
            RegForm::MovUnpack { width, elems } => width / *elems as u32,
        }
    }

    /// The named destinations of `prmt` and `mov`.
    fn scalar_eval(&self, v: &[u128]) -> Result<Vec<(&'static str, u128)>> {
        Ok(match self {
            RegForm::Prmt(mode) => {
                let r = |i: usize| -> Result<u32> {
                    u32::try_from(v[i]).map_err(|_| anyhow!("prmt operands are 32-bit"))
                };
                vec![("d", u128::from(prmt(*mode, r(0)?, r(1)?, r(2)?)))]
            }
            RegForm::MovPack { width, .. } => {
                let elem_bits = width / v.len() as u32;
                if let Some(e) = v
                    .iter()
                    .find(|e| e.checked_shr(elem_bits).unwrap_or(0) != 0)
                {
                    bail!("0x{e:x} does not fit a {elem_bits}-bit element");
                }
                vec![(
                    "d",
                    mov_pack(*width, v).ok_or_else(|| anyhow!("no such packing mov"))?,
                )]
            }
            RegForm::MovUnpack { width, elems } => {
                if *width < 128 && v[0] >> width != 0 {
                    bail!("0x{:x} does not fit .b{width}", v[0]);
                }
                let d = mov_unpack(*width, *elems, v[0])
                    .ok_or_else(|| anyhow!("no such unpacking mov"))?;
                ["d.x", "d.y", "d.z", "d.w"]
                    .into_iter()
                    .zip(d)
                    .take(*elems)
                    .collect()
            }
            RegForm::Shfl { .. } => bail!("shfl is evaluated over a warp"),
        })
    }
}

type LaneResult = Option<Result<ShflOut, &'static Undefined>>;

fn shuffle(mode: ShflMode, sync: bool, lanes: &[ShflLane; 32]) -> [LaneResult; 32] {
    if sync {
        shfl_sync(mode, lanes)
    } else {
        shfl(mode, lanes).map(|o| o.map(Ok))
    }
}

/// Every lane as JSON: whether it executes, its `d` (bits and unspecified
/// mask), `p`, the lane `d` came from, and the clause where the result or
/// the behaviour is undefined.
fn shuffle_json(mode: ShflMode, sync: bool, lanes: &[ShflLane; 32]) -> serde_json::Value {
    let list: Vec<serde_json::Value> = shuffle(mode, sync, lanes)
        .iter()
        .enumerate()
        .map(|(i, o)| match o {
            None => serde_json::json!({ "lane": i, "executes": false }),
            Some(Err(u)) => serde_json::json!({
                "lane": i, "undefined": true, "clause": u.to_string(),
            }),
            Some(Ok(r)) => {
                let mut j = json_value(u128::from(r.d.bits), u128::from(r.d.unspecified), 8);
                j["lane"] = serde_json::json!(i);
                j["p"] = serde_json::json!(r.p);
                j["source"] = serde_json::json!(r.source);
                j["clause"] = serde_json::json!(r.why.map(|u| u.to_string()));
                j
            }
        })
        .collect();
    serde_json::json!({ "lanes": list })
}

/// One line per lane: its `d` and `p`, the lane `d` came from, and the
/// clause where the result or the behaviour is undefined.
pub fn shuffle_report(mode: ShflMode, sync: bool, lanes: &[ShflLane; 32]) -> Vec<String> {
    shuffle(mode, sync, lanes)
        .iter()
        .enumerate()
        .map(|(i, o)| match o {
            None => format!("lane {i:2}: does not execute"),
            Some(Err(u)) => format!("lane {i:2}: {u}"),
            Some(Ok(r)) => {
                let d = if r.d.is_known() {
                    format!("0x{:08x}", r.d.bits)
                } else {
                    "unspecified".to_string()
                };
                let mut s = format!(
                    "lane {i:2}: d = {d}  p = {}  (from lane {})",
                    r.p as u8, r.source
                );
                if let Some(u) = r.why {
                    s.push_str(&format!("  because: {u}"));
                }
                s
            }
        })
        .collect()
}

/// The warp's lanes from the operand texts: each operand is one value for
/// every lane, a comma-separated list of 32 values (lane 0 first), or the
/// word `lane` (each lane's own id).
fn warp_lanes(operands: &[String], warp: Warp) -> Result<[ShflLane; 32]> {
    let per_lane: Vec<[u32; 32]> = operands
        .iter()
        .map(|t| lane_values(t))
        .collect::<Result<_>>()?;
    Ok(std::array::from_fn(|i| {
        if warp.active & (1 << i) != 0 {
            ShflLane::Executes {
                a: per_lane[0][i],
                b: per_lane[1][i],
                c: per_lane[2][i],
                membermask: per_lane.get(3).map_or(u32::MAX, |m| m[i]),
            }
        } else if warp.exited & (1 << i) != 0 {
            ShflLane::Exited
        } else {
            ShflLane::Inactive
        }
    }))
}

fn lane_values(text: &str) -> Result<[u32; 32]> {
    if text == "lane" {
        return Ok(std::array::from_fn(|i| i as u32));
    }
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let value = |t: &str| -> Result<u32> {
        u32::try_from(scalar(t)?).map_err(|_| anyhow!("`{t}` does not fit 32 bits"))
    };
    match parts.len() {
        1 => Ok([value(parts[0])?; 32]),
        32 => {
            let mut out = [0u32; 32];
            for (o, p) in out.iter_mut().zip(&parts) {
                *o = value(p)?;
            }
            Ok(out)
        }
        n => bail!("`{text}`: give one value, 32 comma-separated values or `lane`, not {n}"),
    }
}

/// A hex (`0x1f`) or decimal operand.
fn scalar(text: &str) -> Result<u128> {
    if let Some(h) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        return u128::from_str_radix(h, 16).map_err(|_| anyhow!("`{text}` is not a hex value"));
    }
    text.parse()
        .map_err(|_| anyhow!("`{text}` is not a value (give hex 0x... or an unsigned decimal)"))
}

fn parse_hex(s: &str) -> Option<u128> {
    let h = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .unwrap_or(s);
    u128::from_str_radix(h, 16).ok()
}

/// Parses a lane mask option (`0xffffffff`, decimal).
pub fn parse_mask(text: &str) -> Result<u32, String> {
    scalar(text)
        .ok()
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| format!("`{text}` is not a 32-bit lane mask"))
}
