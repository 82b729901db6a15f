//! The ptxas legality corpus: single-instruction kernels built from the
//! catalogue's forms and from mutations of them (a qualifier dropped, added,
//! replaced or moved; an operand of another type, kind or count; another
//! PTX version or target). ptxas's verdict on each, measured on the device
//! machine, is the oracle; `conform check` must agree with it. The operand
//! syntax (vector variables, selectors, `reg+imm`...) is a second axis, in
//! [`syntax`], with a corpus of its own.
//!
//! A variant is stored as one JSON line; the kernel around its instruction
//! comes from [`render`], so the corpus on disk stays small and the kernels
//! can be rebuilt byte for byte.

use ptx_semantics::catalogue::grammar::{Form, OperandKind as Want, Presence, TypeRef, VecLen};
use ptx_semantics::catalogue::types::ptx_type;
use ptx_semantics::catalogue::{Catalogue, PtxVersion, Target};
use serde::{Deserialize, Serialize};

pub mod arith;
pub mod syntax;

/// One kernel of the corpus.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Variant {
    pub id: String,
    /// The instruction of the spec's list the variant started from.
    pub family: String,
    /// The catalogue row it started from.
    pub form: String,
    /// How it was made: `base`, `drop-qual`, `add-qual`, `swap-type`...
    pub mutation: String,
    pub target: String,
    pub ptx: String,
    /// The instruction line, without its `;`.
    pub instr: String,
    /// Which corpus axis made it: empty for the catalogue axis (qualifiers,
    /// operand kinds, versions), `syntax` for the operand-syntax axis
    /// ([`syntax::generate`]), whose kernels also declare vector variables.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub axis: String,
    /// The operand the syntax axis rewrote (`d`, `[a]`), empty otherwise.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub operand: String,
}

/// ptxas's verdict on one variant.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Verdict {
    pub id: String,
    /// ptxas's exit status: 0 legal.
    pub rc: i32,
    /// The first lines of ptxas's messages.
    pub msg: String,
}

/// A small deterministic generator (SplitMix64), so that a seed gives the
/// same corpus everywhere.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Targets and PTX versions the corpus spans.
pub const TARGETS: &[&str] = &["sm_80", "sm_90", "sm_100a"];
pub const VERSIONS: &[&str] = &[
    "7.0", "7.4", "7.6", "7.8", "8.0", "8.3", "8.5", "8.6", "8.7",
];

/// Register types the kernel template declares (`.b128` only from PTX 8.3).
pub(crate) const REG_TYPES: &[&str] = &[
    ".pred", ".b16", ".b32", ".b64", ".u16", ".u32", ".u64", ".s16", ".s32", ".s64", ".f16",
    ".f32", ".f64", ".b128",
];

/// The register of a declared type: `%t_b32_3`.
pub(crate) fn reg(ty: &str, i: usize) -> String {
    format!("%t_{}_{i}", ty.trim_start_matches('.'))
}

/// The kernel around one instruction.
pub fn render(v: &Variant) -> String {
    let ptx = PtxVersion::parse(&v.ptx).unwrap_or(PtxVersion::new(8, 7));
    let mut s = format!(
        ".version {}\n.target {}\n.address_size 64\n\n\
         .global .align 16 .b8 gvar[256];\n\
         .const .align 16 .b8 cvar[256];\n\
         .func fn_dev(.param .b32 fp0)\n{{\n\tret;\n}}\n\n\
         .visible .entry kern(\n\t.param .u64 kp0,\n\t.param .align 16 .b8 kp1[64]\n)\n{{\n\
         \t.shared .align 128 .b8 svar[1024];\n\
         \t.local .align 16 .b8 lvar[256];\n",
        v.ptx, v.target
    );
    for ty in REG_TYPES {
        if *ty == ".b128" && ptx < PtxVersion::new(8, 3) {
            continue;
        }
        s.push_str(&format!(
            "\t.reg {ty} %t_{}_<8>;\n",
            ty.trim_start_matches('.')
        ));
    }
    if v.axis == syntax::AXIS {
        s.push_str(&syntax::vector_declarations());
    }
    s.push_str(&format!("\t{};\n\tret;\n}}\n", v.instr));
    s
}

/// The register type that holds a value of type `want` most naturally.
pub(crate) fn natural_reg(want: &str) -> &'static str {
    let Some(t) = ptx_type(want) else {
        return ".b32";
    };
    if let Some(r) = REG_TYPES.iter().find(|r| **r == t.name) {
        return r;
    }
    match t.bits {
        1 => ".pred",
        8 | 16 => ".b16",
        32 => ".b32",
        64 => ".b64",
        _ => ".b128",
    }
}

/// One operand of a sampled instruction, with what the catalogue says of
/// its position (the syntax axis rewrites operands from this).
#[derive(Clone, Debug)]
pub(crate) struct Sampled {
    pub text: String,
    /// The operand's name in the catalogue row (`d`, `[a]`, `cache-policy`).
    pub name: String,
    /// Index of the operand in the row's operand list.
    pub spec: usize,
    /// The kinds the position accepts, and the one sampled.
    pub kinds: Vec<Want>,
    pub kind: Want,
    /// The value type of the position (`.b32`).
    pub ty: String,
    /// The vector length of a `vec` position.
    pub len: usize,
    /// Whether a `|p` partner was appended.
    pub partner: bool,
}

/// The instruction text of a form with slots and operands chosen at random.
fn sample(form: &Form, rng: &mut Rng) -> (Vec<String>, Vec<String>) {
    let (quals, ops) = sample_operands(form, rng);
    (quals, ops.into_iter().map(|o| o.text).collect())
}

/// [`sample`], keeping each operand's position facts.
pub(crate) fn sample_operands(form: &Form, rng: &mut Rng) -> (Vec<String>, Vec<Sampled>) {
    let mut quals: Vec<String> = Vec::new();
    let mut chosen: Vec<(String, String)> = Vec::new();
    for slot in &form.slots {
        if slot.optional && !rng.chance(45) {
            continue;
        }
        for part in &slot.parts {
            let q = rng.pick(&part.choices).clone();
            chosen.push((part.name.trim_start_matches('.').to_string(), q.clone()));
            quals.push(q);
        }
    }
    let get = |slot: &str| {
        chosen
            .iter()
            .find(|(n, _)| n == slot)
            .map(|(_, q)| q.clone())
    };
    let space = quals
        .iter()
        .find(|q| {
            [".shared", ".global", ".const", ".local", ".param"]
                .iter()
                .any(|s| q.starts_with(s))
        })
        .cloned()
        .unwrap_or_default();
    let mut ops = Vec::new();
    for (index, spec) in form.operands.iter().enumerate() {
        let present = match &spec.presence {
            Presence::Required => true,
            Presence::IfQualifier(q) => quals.contains(q),
            Presence::Optional => rng.chance(50),
        };
        if !present {
            continue;
        }
        let ty = match &spec.ty {
            Some(TypeRef::Slot(s)) => get(s).unwrap_or_else(|| ".b32".into()),
            Some(TypeRef::Literal(t)) => t.clone(),
            Some(TypeRef::Divided(s, n)) => {
                let bits = get(s).and_then(|q| ptx_type(&q)).map_or(32, |t| t.bits / n);
                format!(".b{bits}")
            }
            None => ".b32".into(),
        };
        let kind = *rng.pick(&spec.kinds);
        let mut text = operand_text(kind, &ty, spec, &get, &space, &quals, rng);
        let partner =
            spec.pred_partner == Some(true) || (spec.pred_partner == Some(false) && rng.chance(50));
        if partner {
            text = format!("{text}|{}", reg(".pred", 1));
        }
        ops.push(Sampled {
            text,
            name: spec.name.clone(),
            spec: index,
            kinds: spec.kinds.clone(),
            kind,
            len: vec_len(spec, &get),
            ty,
            partner,
        });
    }
    (quals, ops)
}

/// The length of a `vec` position: fixed, or from a slot (`.v4` gives 4).
fn vec_len(
    spec: &ptx_semantics::catalogue::OperandSpec,
    get: &dyn Fn(&str) -> Option<String>,
) -> usize {
    match &spec.vec_len {
        Some(VecLen::Fixed(n)) => *n,
        Some(VecLen::Slot(s)) => get(s)
            .and_then(|q| q.strip_prefix(".v").and_then(|n| n.parse().ok()))
            .unwrap_or(2),
        None => 2,
    }
}

fn operand_text(
    kind: Want,
    ty: &str,
    spec: &ptx_semantics::catalogue::OperandSpec,
    get: &dyn Fn(&str) -> Option<String>,
    space: &str,
    quals: &[String],
    rng: &mut Rng,
) -> String {
    let i = rng.below(4);
    match kind {
        Want::Reg => reg(natural_reg(ty), i),
        Want::Pred => reg(".pred", i),
        Want::Imm => {
            let name = spec.name.to_ascii_lowercase();
            if ty.starts_with(".f") && !name.contains("size") {
                rng.pick(&["0f3F800000", "0d3FF0000000000000", "0f00000000"])
                    .to_string()
            } else if name.contains("size") {
                rng.pick(&["4", "8", "16", "128", "256"]).to_string()
            } else {
                rng.pick(&["0", "1", "4", "16", "31", "0x3210", "-1", "2"])
                    .to_string()
            }
        }
        Want::Addr => address(space, rng),
        Want::TensorAddr => {
            let dim = quals
                .iter()
                .find_map(|q| {
                    q.strip_prefix('.')
                        .and_then(|d| d.strip_suffix('d'))
                        .and_then(|d| d.parse::<usize>().ok())
                })
                .unwrap_or(2);
            let coords: Vec<String> = (0..dim).map(|k| reg(".b32", k)).collect();
            format!("[{}, {{{}}}]", reg(".b64", i), coords.join(", "))
        }
        Want::Vec => {
            let len = vec_len(spec, get);
            let r = natural_reg(ty);
            let items: Vec<String> = (0..len).map(|k| reg(r, k)).collect();
            format!("{{{}}}", items.join(", "))
        }
        Want::Sym => symbol(space).to_string(),
        Want::Sreg => {
            if ptx_type(ty).is_some_and(|t| t.bits == 64) {
                "%clock64".into()
            } else {
                rng.pick(&["%tid.x", "%laneid", "%ctaid.y"]).to_string()
            }
        }
    }
}

pub(crate) fn symbol(space: &str) -> &'static str {
    if space.starts_with(".shared") {
        "svar"
    } else if space.starts_with(".const") {
        "cvar"
    } else if space.starts_with(".local") {
        "lvar"
    } else if space.starts_with(".param") {
        "kp1"
    } else {
        "gvar"
    }
}

fn address(space: &str, rng: &mut Rng) -> String {
    let sym = symbol(space);
    match rng.below(4) {
        0 => format!("[{sym}]"),
        1 => format!("[{sym}+16]"),
        2 if space.starts_with(".shared") => format!("[{}]", reg(".b32", 2)),
        _ => format!("[{}]", reg(".b64", rng.below(4))),
    }
}

pub(crate) fn join(opcode: &str, quals: &[String], ops: &[String]) -> String {
    let mut s = opcode.to_string();
    for q in quals {
        s.push_str(q);
    }
    if !ops.is_empty() {
        s.push(' ');
        s.push_str(&ops.join(", "));
    }
    s
}

/// A target, and a PTX version that knows it nine times in ten.
pub(crate) fn pick_setting(rng: &mut Rng) -> (String, String) {
    let target = rng.pick(TARGETS).to_string();
    let t = Target::parse(&target)
        .map(|t| t.min_ptx())
        .unwrap_or(PtxVersion::new(7, 0));
    let fitting: Vec<&str> = VERSIONS
        .iter()
        .copied()
        .filter(|v| PtxVersion::parse(v).is_some_and(|v| v >= t))
        .collect();
    let ptx = if rng.chance(90) && !fitting.is_empty() {
        rng.pick(&fitting).to_string()
    } else {
        rng.pick(VERSIONS).to_string()
    };
    (target, ptx)
}

/// Builds the corpus: `per_form` base samples of every form, each with
/// mutations, over the targets and versions above.
pub fn generate(seed: u64, per_form: usize) -> Vec<Variant> {
    let cat = Catalogue::get();
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let pool: Vec<String> = {
        let mut all: Vec<String> = cat
            .forms
            .iter()
            .flat_map(|f| f.qualifiers().map(|q| q.to_string()))
            .collect();
        all.sort();
        all.dedup();
        all
    };
    for form in &cat.forms {
        let same_opcode: Vec<String> = {
            let mut q: Vec<String> = cat
                .forms
                .iter()
                .filter(|f| f.opcode == form.opcode)
                .flat_map(|f| f.qualifiers().map(|q| q.to_string()))
                .collect();
            q.sort();
            q.dedup();
            q
        };
        for round in 0..per_form {
            let (target, ptx) = pick_setting(&mut rng);
            // Half the base samples are steered towards forms the checker
            // calls legal (ptxas still decides), so legal kernels are not rare.
            let mut sampled = sample(form, &mut rng);
            if round % 2 == 0 {
                for _ in 0..12 {
                    let v = Variant {
                        target: target.clone(),
                        ptx: ptx.clone(),
                        instr: join(&form.opcode, &sampled.0, &sampled.1),
                        ..Variant::default()
                    };
                    if crate::check::check_source(render(&v).as_bytes(), &Default::default())
                        .is_empty()
                    {
                        break;
                    }
                    sampled = sample(form, &mut rng);
                }
            }
            let (quals, ops) = sampled;
            let mut first = Some((target, ptx));
            let mut push = |mutation: &str, quals: &[String], ops: &[String], rng: &mut Rng| {
                let (target, ptx) = first.take().unwrap_or_else(|| pick_setting(rng));
                out.push(Variant {
                    id: String::new(),
                    family: form.row.instr.to_string(),
                    form: form.row.id.to_string(),
                    mutation: mutation.to_string(),
                    target,
                    ptx,
                    instr: join(&form.opcode, quals, ops),
                    ..Variant::default()
                });
            };
            push("base", &quals, &ops, &mut rng);
            for _ in 0..2 {
                let mut q = quals.clone();
                let mut o = ops.clone();
                let m = match rng.below(9) {
                    0 if !q.is_empty() => {
                        q.remove(rng.below(q.len()));
                        "drop-qual"
                    }
                    1 => {
                        let extra = rng.pick(&same_opcode).clone();
                        let at = rng.below(q.len() + 1);
                        q.insert(at, extra);
                        "add-qual"
                    }
                    2 if !q.is_empty() => {
                        let at = rng.below(q.len());
                        q[at] = rng.pick(&same_opcode).clone();
                        "replace-qual"
                    }
                    3 if q.len() >= 2 => {
                        let a = rng.below(q.len());
                        let b = rng.below(q.len());
                        q.swap(a, b);
                        "swap-quals"
                    }
                    4 if !o.is_empty() => {
                        let at = rng.below(o.len());
                        let ty: &&str = rng.pick(&REG_TYPES[..REG_TYPES.len() - 1]);
                        o[at] = reg(ty, 5);
                        "swap-type"
                    }
                    5 if !o.is_empty() => {
                        o.remove(rng.below(o.len()));
                        "drop-operand"
                    }
                    6 => {
                        o.push(reg(".b32", 6));
                        "add-operand"
                    }
                    7 if !o.is_empty() => {
                        let at = rng.below(o.len());
                        o[at] = rng
                            .pick(&["7", "[gvar]", "svar", "{%t_b32_1, %t_b32_2}", "%t_u64_3"])
                            .to_string();
                        "swap-kind"
                    }
                    _ => {
                        let extra = rng.pick(&pool).clone();
                        let at = rng.below(q.len() + 1);
                        q.insert(at, extra);
                        "foreign-qual"
                    }
                };
                push(m, &q, &o, &mut rng);
            }
            // The same base instruction under other versions and targets.
            if rng.chance(50) {
                push("retarget", &quals, &ops, &mut rng);
            }
        }
    }
    // Drop exact duplicates, then number.
    let mut seen = std::collections::HashSet::new();
    out.retain(|v| seen.insert((v.instr.clone(), v.target.clone(), v.ptx.clone())));
    for (i, v) in out.iter_mut().enumerate() {
        v.id = format!("v{i:05}");
    }
    out
}
