//! The syntax axis of the legality corpus: legal base samples of every
//! catalogue form, each with one operand rewritten into another operand
//! syntax of PTX ISA 5.4 and 6.4 (a vector variable, an element selector, an
//! immediate, `reg+imm`, `var+imm`, braces of selectors, the sink `_`).
//! ptxas decides which are legal. Qualifiers, operand kinds and targets are
//! the catalogue axis's business (the parent module).

use super::{
    join, natural_reg, pick_setting, reg, render, sample_operands, symbol, Rng, Sampled, Variant,
};
use ptx_semantics::catalogue::grammar::{Form, OperandKind as Want};
use ptx_semantics::catalogue::types::ptx_type;
use ptx_semantics::catalogue::Catalogue;

/// The `axis` of every variant made here.
pub const AXIS: &str = "syntax";

/// The mutations of the syntax axis, one per operand syntax.
pub const MUTATIONS: &[&str] = &[
    // the base sample: plain registers
    "syntax-reg",
    // `ld.v4.b32 vv4_b32, [a]`: a vector variable as the whole vector
    "syntax-vector-var",
    // `vv2_b32.y`, `vv4_b32.a`: one element in a scalar position
    "syntax-selector",
    // an immediate in a source position
    "syntax-imm",
    // `%t_b64_0+8` as a source
    "syntax-reg-imm",
    // `gvar+8` as a source, `[gvar+8]` as an address
    "syntax-var-imm",
    // `{vv4_b32.x, vv4_b32.y, ...}`, or registers and selectors mixed
    "syntax-braces",
    // `_` as (an element of) the destination
    "syntax-sink",
];

/// Element types of the vector variables the kernel declares. PTX ISA 5.4.2:
/// "Vectors of length 2 and 4 of scalar types are supported ... Vectors
/// cannot exceed 128-bits in length", so `.v4` stops at 32-bit elements and
/// there are no `.v8` variables (`.v8` is an `ld`/`st` qualifier only).
const VECTOR_TYPES: &[&str] = &[
    ".b16", ".b32", ".b64", ".u16", ".u32", ".u64", ".s16", ".s32", ".s64", ".f16", ".f32", ".f64",
];

/// Base-sample attempts per form before the form is given up as having no
/// legal sample the checker accepts.
const TRIES: usize = 40;

/// Variants per base sample and mutation (`syntax-imm` takes every source).
const PER_MUTATION: usize = 2;

fn bits(ty: &str) -> u32 {
    ptx_type(ty).map_or(32, |t| t.bits)
}

/// The declared vector variable of `n` elements of register type `ty`.
fn vector_var(n: usize, ty: &str) -> Option<String> {
    let fits = VECTOR_TYPES.contains(&ty) && matches!(n, 2 | 4) && n as u32 * bits(ty) <= 128;
    fits.then(|| format!("vv{n}_{}", ty.trim_start_matches('.')))
}

/// The `.reg .v2 .b32 vv2_b32;` lines of the syntax axis's kernels.
pub fn vector_declarations() -> String {
    let mut s = String::new();
    for n in [2, 4] {
        for ty in VECTOR_TYPES {
            if let Some(name) = vector_var(n, ty) {
                s.push_str(&format!("\t.reg .v{n} {ty} {name};\n"));
            }
        }
    }
    s
}

/// The selector of element `k`, spelled `.x .y .z .w` or `.r .g .b .a`.
fn selector(k: usize, rgba: bool) -> &'static str {
    let names = if rgba {
        [".r", ".g", ".b", ".a"]
    } else {
        [".x", ".y", ".z", ".w"]
    };
    names[k % 4]
}

/// The widest vector variable of element type `ty` no longer than `len`.
fn widest(ty: &str, len: usize) -> Option<usize> {
    [4, 2]
        .into_iter()
        .find(|&n| n <= len.max(2) && vector_var(n, ty).is_some())
}

/// One element of a vector variable in a scalar position; one time in six
/// an element past a `.v2`'s end (`vv2_b32.z`), which ptxas must reject.
fn one_element(ty: &str, rng: &mut Rng) -> Option<String> {
    let n = *rng.pick(&[2usize, 4]);
    let n = if vector_var(n, ty).is_some() { n } else { 2 };
    let var = vector_var(n, ty)?;
    let k = if n == 2 && rng.chance(16) {
        2 + rng.below(2)
    } else {
        rng.below(n)
    };
    Some(format!("{var}{}", selector(k, rng.chance(50))))
}

/// An immediate of type `ty`, legal there or not.
fn immediate(ty: &str, rng: &mut Rng) -> String {
    match (ty.starts_with(".f"), bits(ty)) {
        (true, 64) => "0d3FF0000000000000".into(),
        (true, 16) => "0x3C00".into(),
        (true, _) => "0f3F800000".into(),
        _ if ty == ".pred" => "1".into(),
        _ => rng.pick(&["1", "4", "-1", "0x10"]).to_string(),
    }
}

/// The registers of a vector operand, as the catalogue axis writes them.
fn registers(o: &Sampled) -> Vec<String> {
    (0..o.len).map(|k| reg(natural_reg(&o.ty), k)).collect()
}

fn braces(items: &[String]) -> String {
    format!("{{{}}}", items.join(", "))
}

/// Whether the operand is the instruction's destination: the first operand
/// of the row, when that position takes registers only (`d`, `p`,
/// `cache-policy` of `createpolicy`; `st`'s first operand is an address).
fn is_destination(o: &Sampled) -> bool {
    o.spec == 0
        && o.kinds
            .iter()
            .all(|k| matches!(k, Want::Reg | Want::Pred | Want::Vec))
}

/// A scalar value position: one that takes a register or an immediate.
fn is_scalar_value(o: &Sampled) -> bool {
    o.kind != Want::Vec && o.kinds.iter().any(|k| matches!(k, Want::Reg | Want::Imm))
}

/// A legal base sample: a setting and an instruction `conform check`
/// accepts.
struct Base {
    target: String,
    ptx: String,
    quals: Vec<String>,
    ops: Vec<Sampled>,
}

fn legal_sample(form: &Form, rng: &mut Rng) -> Option<Base> {
    for _ in 0..TRIES {
        let (target, ptx) = pick_setting(rng);
        let (quals, ops) = sample_operands(form, rng);
        let texts: Vec<String> = ops.iter().map(|o| o.text.clone()).collect();
        let v = Variant {
            target: target.clone(),
            ptx: ptx.clone(),
            instr: join(&form.opcode, &quals, &texts),
            ..Variant::default()
        };
        let findings = crate::check::check_source(render(&v).as_bytes(), &Default::default());
        if findings.is_empty() {
            return Some(Base {
                target,
                ptx,
                quals,
                ops,
            });
        }
    }
    None
}

/// The rewrites of operand `o` that `mutation` makes (empty: not
/// applicable there).
fn rewrites(mutation: &str, o: &Sampled, space: &str, rng: &mut Rng) -> Vec<String> {
    let dest = is_destination(o);
    let elem = natural_reg(&o.ty);
    let partner = |text: String| {
        if o.partner {
            format!("{text}|{}", reg(".pred", 1))
        } else {
            text
        }
    };
    match mutation {
        "syntax-vector-var" if o.kind == Want::Vec => vector_var(o.len, elem).into_iter().collect(),
        "syntax-selector" if is_scalar_value(o) && o.kinds.contains(&Want::Reg) => {
            one_element(elem, rng).map(partner).into_iter().collect()
        }
        "syntax-imm" if !dest && o.kind == Want::Vec => {
            let mut items = registers(o);
            let at = rng.below(items.len().max(1));
            if let Some(item) = items.get_mut(at) {
                *item = immediate(&o.ty, rng);
            }
            vec![braces(&items)]
        }
        "syntax-imm"
            if !dest && matches!(o.kind, Want::Reg | Want::Pred | Want::Sym | Want::Sreg) =>
        {
            vec![immediate(&o.ty, rng)]
        }
        "syntax-reg-imm" if !dest && is_scalar_value(o) && o.ty != ".pred" => {
            let k = rng.pick(&["1", "4", "8"]);
            vec![format!("{}+{k}", reg(elem, rng.below(4)))]
        }
        "syntax-var-imm" if o.kind == Want::Addr => vec![format!("[{}+8]", symbol(space))],
        "syntax-var-imm"
            if !dest && o.ty != ".pred" && (is_scalar_value(o) || o.kinds.contains(&Want::Sym)) =>
        {
            vec![format!("{}+8", symbol(space))]
        }
        "syntax-braces" if o.kind == Want::Vec => {
            let Some(n) = widest(elem, o.len) else {
                return Vec::new();
            };
            let var = vector_var(n, elem).unwrap_or_default();
            let rgba = rng.chance(50);
            let selectors: Vec<String> = (0..o.len)
                .map(|k| format!("{var}{}", selector(k % n, rgba)))
                .collect();
            let mut mixed = selectors.clone();
            if let (Some(first), Some(r)) = (mixed.first_mut(), registers(o).first()) {
                *first = r.clone();
            }
            vec![braces(&selectors), braces(&mixed)]
        }
        "syntax-sink" if dest && o.kind == Want::Vec => {
            let mut items = registers(o);
            let at = rng.below(items.len().max(1));
            if let Some(item) = items.get_mut(at) {
                *item = "_".into();
            }
            vec![braces(&items)]
        }
        "syntax-sink" if dest => vec![partner("_".into())],
        _ => Vec::new(),
    }
}

/// Builds the syntax corpus: `per_form` legal base samples of every form,
/// each as is (`syntax-reg`) and with its operands rewritten by every
/// mutation that applies, up to [`PER_MUTATION`] positions each (every
/// source position for `syntax-imm`). Deterministic in `seed`.
pub fn generate(seed: u64, per_form: usize) -> Vec<Variant> {
    let cat = Catalogue::get();
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for form in &cat.forms {
        for _ in 0..per_form {
            let Some(base) = legal_sample(form, &mut rng) else {
                continue;
            };
            let space = base
                .quals
                .iter()
                .find(|q| {
                    [".shared", ".global", ".const", ".local", ".param"]
                        .iter()
                        .any(|s| q.starts_with(s))
                })
                .cloned()
                .unwrap_or_default();
            let texts: Vec<String> = base.ops.iter().map(|o| o.text.clone()).collect();
            let mut push = |mutation: &str, operand: &str, ops: &[String]| {
                out.push(Variant {
                    id: String::new(),
                    family: form.row.instr.to_string(),
                    form: form.row.id.to_string(),
                    mutation: mutation.to_string(),
                    target: base.target.clone(),
                    ptx: base.ptx.clone(),
                    instr: join(&form.opcode, &base.quals, ops),
                    axis: AXIS.to_string(),
                    operand: operand.to_string(),
                });
            };
            push("syntax-reg", "", &texts);
            for mutation in &MUTATIONS[1..] {
                let mut made: Vec<(usize, String)> = Vec::new();
                for (at, o) in base.ops.iter().enumerate() {
                    for text in rewrites(mutation, o, &space, &mut rng) {
                        made.push((at, text));
                    }
                }
                let keep = if *mutation == "syntax-imm" {
                    made.len()
                } else {
                    PER_MUTATION
                };
                while made.len() > keep {
                    made.remove(rng.below(made.len()));
                }
                for (at, text) in made {
                    let mut ops = texts.clone();
                    ops[at] = text;
                    push(mutation, &base.ops[at].name, &ops);
                }
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|v| seen.insert((v.instr.clone(), v.target.clone(), v.ptx.clone())));
    for (i, v) in out.iter_mut().enumerate() {
        v.id = format!("s{i:05}");
    }
    out
}
