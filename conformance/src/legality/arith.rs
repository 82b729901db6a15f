//! The arithmetic axis of the legality corpus: single-instruction kernels
//! of every row of the arithmetic catalogue (PTX ISA 9.7.1-9.7.7,
//! `ptx_semantics::catalogue::arith`), legal samples and single mutations
//! of them (a qualifier dropped, added or replaced, a register of another
//! type or width, an immediate, special register or variable in a source,
//! a predicate negated or paired, an operand dropped or added, another
//! target or PTX version). ptxas decides which are legal; its verdicts live
//! in corpus/legality/arith.

use super::{join, reg, render, sample_operands, Rng, Sampled, Variant, REG_TYPES};
use ptx_semantics::catalogue::arith;
use ptx_semantics::catalogue::grammar::{Form, OperandKind as Want};
use ptx_semantics::catalogue::types::ptx_type;
use ptx_semantics::catalogue::{PtxVersion, Target};

/// The `axis` of every variant made here.
pub const AXIS: &str = "arith";

/// Targets: the first ptxas 13.0 takes (sm_75), the half-precision and
/// `.xorsign` steps (sm_80, sm_86), bf16 arithmetic (sm_90) and the
/// `.f32x2` and mixed-precision forms (sm_100).
pub const TARGETS: &[&str] = &["sm_75", "sm_80", "sm_86", "sm_90", "sm_100"];
pub const VERSIONS: &[&str] = &[
    "7.0", "7.2", "7.4", "7.6", "7.8", "8.0", "8.2", "8.5", "8.6", "8.7", "8.8",
];

/// Qualifiers foreign to most forms, for `add-qual` and `replace-qual`.
const EXTRA_QUALS: &[&str] = &[
    ".rn", ".rz", ".ftz", ".sat", ".approx", ".full", ".relu", ".NaN", ".wide", ".lo", ".hi",
    ".cc", ".f32", ".f64", ".f16", ".bf16", ".u32", ".s64", ".b32", ".pred",
];

/// A target, and a PTX version that knows it nine times in ten.
fn pick_setting(rng: &mut Rng) -> (String, String) {
    let target = rng.pick(TARGETS).to_string();
    let least = Target::parse(&target)
        .map(|t| t.min_ptx())
        .unwrap_or(PtxVersion::new(7, 0));
    let fitting: Vec<&str> = VERSIONS
        .iter()
        .copied()
        .filter(|v| PtxVersion::parse(v).is_some_and(|v| v >= least))
        .collect();
    let ptx = if rng.chance(90) && !fitting.is_empty() {
        rng.pick(&fitting).to_string()
    } else {
        rng.pick(VERSIONS).to_string()
    };
    (target, ptx)
}

/// A sample of the form, steered towards one `conform check` accepts when
/// `legal` (ptxas still decides).
fn sample(form: &Form, legal: bool, rng: &mut Rng) -> (String, String, Vec<String>, Vec<Sampled>) {
    let mut last = None;
    for _ in 0..if legal { 30 } else { 1 } {
        let (target, ptx) = pick_setting(rng);
        let (quals, mut ops) = sample_operands(form, rng);
        sink_state(form, &quals, &mut ops, rng);
        let texts: Vec<String> = ops.iter().map(|o| o.text.clone()).collect();
        let v = Variant {
            target: target.clone(),
            ptx: ptx.clone(),
            instr: join(&form.opcode, &quals, &texts),
            ..Variant::default()
        };
        let ok = crate::check::check_source(render(&v).as_bytes(), &Default::default()).is_empty();
        last = Some((target, ptx, quals, ops));
        if ok {
            break;
        }
    }
    last.unwrap_or_default()
}

/// The `state` destination of an `mbarrier` arrive as the sink `_`: always
/// on a `.shared::cluster` mbarrier ("mbarrier.arrive{.sem}{.scope}{.shared::cluster}.b64
/// _, [addr]", PTX ISA 9.7.13.15.13), one time in four elsewhere.
fn sink_state(form: &Form, quals: &[String], ops: &mut [Sampled], rng: &mut Rng) {
    if form.opcode != "mbarrier" {
        return;
    }
    if let Some(first) = ops.first_mut() {
        let cluster = quals.iter().any(|q| q == ".shared::cluster");
        if first.spec == 0 && first.name == "state" && (cluster || rng.chance(25)) {
            first.text = "_".into();
        }
    }
}

/// A register of the same kind as `ty` but another width, if any.
fn other_width(ty: &str, rng: &mut Rng) -> Option<String> {
    let t = ptx_type(ty)?;
    let same_kind: Vec<&&str> = REG_TYPES
        .iter()
        .filter(|r| {
            ptx_type(r).is_some_and(|x| x.kind == t.kind && x.bits != t.bits && x.bits <= 64)
        })
        .collect();
    if same_kind.is_empty() {
        return None;
    }
    let ty: &&&str = rng.pick(&same_kind);
    Some(reg(ty, 5))
}

fn is_source(o: &Sampled) -> bool {
    o.spec > 0 || o.kinds.contains(&Want::Imm)
}

/// Builds the arithmetic corpus: `per_form` base samples of every row (half
/// of them steered towards forms the checker accepts), each with three
/// single mutations, and half of them again under another setting.
/// Deterministic in `seed`.
pub fn generate(seed: u64, per_form: usize) -> Vec<Variant> {
    let cat = arith::catalogue();
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for form in &cat.forms {
        let mut same_opcode: Vec<String> = cat
            .forms
            .iter()
            .filter(|f| f.opcode == form.opcode)
            .flat_map(|f| f.qualifiers().map(|q| q.to_string()))
            .chain(EXTRA_QUALS.iter().map(|q| q.to_string()))
            .collect();
        same_opcode.sort();
        same_opcode.dedup();
        for round in 0..per_form {
            let (target, ptx, quals, ops) = sample(form, round % 2 == 0, &mut rng);
            let texts: Vec<String> = ops.iter().map(|o| o.text.clone()).collect();
            out.push(Variant {
                id: String::new(),
                family: form.row.instr.to_string(),
                form: form.row.id.to_string(),
                mutation: "base".into(),
                target,
                ptx,
                instr: join(&form.opcode, &quals, &texts),
                axis: AXIS.to_string(),
                operand: String::new(),
            });
            // Mutations keep the base's setting: take it back for each.
            let setting = out.last().map(|v| (v.target.clone(), v.ptx.clone()));
            for _ in 0..3 {
                let mut q = quals.clone();
                let mut o = texts.clone();
                let mut operand = String::new();
                let sources: Vec<usize> = (0..ops.len()).filter(|&i| is_source(&ops[i])).collect();
                let m = match rng.below(13) {
                    0 if !q.is_empty() => {
                        q.remove(rng.below(q.len()));
                        "drop-qual"
                    }
                    1 => {
                        let at = rng.below(q.len() + 1);
                        q.insert(at, rng.pick(&same_opcode).clone());
                        "add-qual"
                    }
                    2 if !q.is_empty() => {
                        let at = rng.below(q.len());
                        q[at] = rng.pick(&same_opcode).clone();
                        "replace-qual"
                    }
                    3 if !o.is_empty() => {
                        let at = rng.below(o.len());
                        let ty: &&str = rng.pick(&REG_TYPES[..REG_TYPES.len() - 1]);
                        o[at] = reg(ty, 5);
                        operand = ops[at].name.clone();
                        "swap-type"
                    }
                    4 if !o.is_empty() => {
                        let at = rng.below(o.len());
                        match other_width(&ops[at].ty, &mut rng) {
                            Some(r) => o[at] = r,
                            None => continue,
                        }
                        operand = ops[at].name.clone();
                        "wide-reg"
                    }
                    5 if !o.is_empty() => {
                        o.remove(rng.below(o.len()));
                        "drop-operand"
                    }
                    6 => {
                        o.push(reg(".b32", 6));
                        "add-operand"
                    }
                    7 if !sources.is_empty() => {
                        let at = *rng.pick(&sources);
                        o[at] = rng.pick(&["1", "-1", "0x3C00", "7"]).to_string();
                        operand = ops[at].name.clone();
                        "int-imm"
                    }
                    8 if !sources.is_empty() => {
                        let at = *rng.pick(&sources);
                        o[at] = rng.pick(&["0f3F800000", "0d3FF0000000000000"]).to_string();
                        operand = ops[at].name.clone();
                        "float-imm"
                    }
                    9 if !sources.is_empty() => {
                        let at = *rng.pick(&sources);
                        o[at] = rng
                            .pick(&["%tid.x", "%clock64", "gvar", "svar", "gvar+8"])
                            .to_string();
                        operand = ops[at].name.clone();
                        "sreg-or-var"
                    }
                    10 if !o.is_empty() => {
                        let at = rng.below(o.len());
                        o[at] = format!("!{}", reg(".pred", 2));
                        operand = ops[at].name.clone();
                        "negated-pred"
                    }
                    // A brace list or an address takes no `|p` partner (it
                    // would not parse).
                    11 if !o.is_empty() && !o[0].starts_with(['{', '[']) => {
                        match o[0].split_once('|') {
                            Some((d, _)) => o[0] = d.to_string(),
                            None => o[0] = format!("{}|{}", o[0], reg(".pred", 1)),
                        }
                        operand = ops[0].name.clone();
                        "pred-partner"
                    }
                    _ => {
                        // The same instruction under another setting.
                        let (target, ptx) = pick_setting(&mut rng);
                        out.push(Variant {
                            id: String::new(),
                            family: form.row.instr.to_string(),
                            form: form.row.id.to_string(),
                            mutation: "retarget".into(),
                            target,
                            ptx,
                            instr: join(&form.opcode, &q, &o),
                            axis: AXIS.to_string(),
                            operand: String::new(),
                        });
                        continue;
                    }
                };
                if let Some((target, ptx)) = &setting {
                    out.push(Variant {
                        id: String::new(),
                        family: form.row.instr.to_string(),
                        form: form.row.id.to_string(),
                        mutation: m.to_string(),
                        target: target.clone(),
                        ptx: ptx.clone(),
                        instr: join(&form.opcode, &q, &o),
                        axis: AXIS.to_string(),
                        operand,
                    });
                }
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|v| seen.insert((v.instr.clone(), v.target.clone(), v.ptx.clone())));
    for (i, v) in out.iter_mut().enumerate() {
        v.id = format!("a{i:05}");
    }
    out.extend(probes());
    out
}

/// Hand-picked single instructions, one per question the rows answer that
/// random samples rarely ask (which comparison operators each type takes,
/// whether a predicate may be an immediate, which modifiers are required,
/// whether a register may be wider than the instruction type...):
/// `(target, ptx, instruction)`.
pub const PROBES: &[(&str, &str, &str)] = &[
    // Required modifiers and their absence.
    ("sm_90", "8.0", "mul.u32 %t_u32_0, %t_u32_1, %t_u32_2"),
    ("sm_90", "8.0", "mul.wide.u64 %t_u64_0, %t_u64_1, %t_u64_2"),
    (
        "sm_90",
        "8.0",
        "mad.wide.u64 %t_u64_0, %t_u64_1, %t_u64_2, %t_u64_3",
    ),
    (
        "sm_90",
        "8.0",
        "mad.cc.u32 %t_u32_0, %t_u32_1, %t_u32_2, %t_u32_3",
    ),
    (
        "sm_90",
        "8.0",
        "madc.u32 %t_u32_0, %t_u32_1, %t_u32_2, %t_u32_3",
    ),
    (
        "sm_90",
        "8.0",
        "mad.f32 %t_f32_0, %t_f32_1, %t_f32_2, %t_f32_3",
    ),
    (
        "sm_90",
        "8.0",
        "mad.f64 %t_f64_0, %t_f64_1, %t_f64_2, %t_f64_3",
    ),
    (
        "sm_90",
        "8.0",
        "fma.f32 %t_f32_0, %t_f32_1, %t_f32_2, %t_f32_3",
    ),
    ("sm_90", "8.0", "div.f32 %t_f32_0, %t_f32_1, %t_f32_2"),
    ("sm_90", "8.0", "div.f64 %t_f64_0, %t_f64_1, %t_f64_2"),
    ("sm_90", "8.0", "div.full.f64 %t_f64_0, %t_f64_1, %t_f64_2"),
    (
        "sm_90",
        "8.0",
        "div.approx.f64 %t_f64_0, %t_f64_1, %t_f64_2",
    ),
    (
        "sm_90",
        "8.0",
        "div.rn.ftz.f64 %t_f64_0, %t_f64_1, %t_f64_2",
    ),
    ("sm_90", "8.0", "rcp.f32 %t_f32_0, %t_f32_1"),
    ("sm_90", "8.0", "rcp.approx.f64 %t_f64_0, %t_f64_1"),
    ("sm_90", "8.0", "sqrt.f32 %t_f32_0, %t_f32_1"),
    ("sm_90", "8.0", "sqrt.approx.f64 %t_f64_0, %t_f64_1"),
    ("sm_90", "8.0", "rsqrt.f32 %t_f32_0, %t_f32_1"),
    ("sm_90", "8.0", "sin.f32 %t_f32_0, %t_f32_1"),
    ("sm_90", "8.0", "sin.approx.f64 %t_f64_0, %t_f64_1"),
    ("sm_90", "8.0", "lg2.approx.f64 %t_f64_0, %t_f64_1"),
    ("sm_90", "8.0", "ex2.f32 %t_f32_0, %t_f32_1"),
    ("sm_90", "8.0", "ex2.approx.bf16 %t_b16_0, %t_b16_1"),
    ("sm_90", "8.0", "ex2.approx.ftz.f16 %t_f16_0, %t_f16_1"),
    ("sm_90", "8.0", "tanh.f32 %t_f32_0, %t_f32_1"),
    ("sm_90", "8.0", "tanh.approx.f64 %t_f64_0, %t_f64_1"),
    // Qualifiers on the wrong type.
    ("sm_90", "8.0", "add.rn.u32 %t_u32_0, %t_u32_1, %t_u32_2"),
    ("sm_90", "8.0", "add.sat.u32 %t_u32_0, %t_u32_1, %t_u32_2"),
    ("sm_90", "8.0", "add.sat.f64 %t_f64_0, %t_f64_1, %t_f64_2"),
    ("sm_90", "8.0", "add.ftz.f64 %t_f64_0, %t_f64_1, %t_f64_2"),
    (
        "sm_90",
        "8.0",
        "mad.lo.f32 %t_f32_0, %t_f32_1, %t_f32_2, %t_f32_3",
    ),
    ("sm_90", "8.0", "mul.lo.f32 %t_f32_0, %t_f32_1, %t_f32_2"),
    (
        "sm_90",
        "8.0",
        "fma.rn.ftz.f64 %t_f64_0, %t_f64_1, %t_f64_2, %t_f64_3",
    ),
    (
        "sm_90",
        "8.0",
        "fma.rz.f16 %t_f16_0, %t_f16_1, %t_f16_2, %t_f16_3",
    ),
    (
        "sm_90",
        "8.0",
        "fma.rn.relu.f32 %t_f32_0, %t_f32_1, %t_f32_2, %t_f32_3",
    ),
    (
        "sm_90",
        "8.0",
        "fma.rn.sat.bf16 %t_b16_0, %t_b16_1, %t_b16_2, %t_b16_3",
    ),
    ("sm_90", "8.0", "min.NaN.f64 %t_f64_0, %t_f64_1, %t_f64_2"),
    ("sm_90", "8.0", "min.relu.u32 %t_u32_0, %t_u32_1, %t_u32_2"),
    (
        "sm_90",
        "8.0",
        "min.relu.s16x2 %t_b32_0, %t_b32_1, %t_b32_2",
    ),
    (
        "sm_90",
        "8.0",
        "max.relu.u16x2 %t_b32_0, %t_b32_1, %t_b32_2",
    ),
    ("sm_90", "8.0", "sub.u16x2 %t_b32_0, %t_b32_1, %t_b32_2"),
    ("sm_90", "8.0", "neg.u32 %t_u32_0, %t_u32_1"),
    ("sm_90", "8.0", "abs.u32 %t_u32_0, %t_u32_1"),
    ("sm_90", "8.0", "abs.ftz.f64 %t_f64_0, %t_f64_1"),
    ("sm_90", "8.0", "copysign.f16 %t_f16_0, %t_f16_1, %t_f16_2"),
    ("sm_90", "8.0", "testp.finite.f16 %t_pred_0, %t_f16_1"),
    ("sm_90", "8.0", "mul24.lo.u16 %t_u16_0, %t_u16_1, %t_u16_2"),
    (
        "sm_90",
        "8.0",
        "mad24.lo.sat.s32 %t_s32_0, %t_s32_1, %t_s32_2, %t_s32_3",
    ),
    (
        "sm_90",
        "8.0",
        "mad.lo.sat.s32 %t_s32_0, %t_s32_1, %t_s32_2, %t_s32_3",
    ),
    ("sm_90", "8.0", "cnot.pred %t_pred_0, %t_pred_1"),
    (
        "sm_90",
        "8.0",
        "selp.f16 %t_f16_0, %t_f16_1, %t_f16_2, %t_pred_0",
    ),
    (
        "sm_90",
        "8.0",
        "slct.f16.s32 %t_f16_0, %t_f16_1, %t_f16_2, %t_s32_0",
    ),
    ("sm_90", "8.0", "shl.u32 %t_u32_0, %t_u32_1, 2"),
    (
        "sm_90",
        "8.0",
        "shf.l.b32 %t_b32_0, %t_b32_1, %t_b32_2, %t_u32_3",
    ),
    ("sm_90", "8.0", "bfind.shiftamt.b32 %t_u32_0, %t_b32_1"),
    // Comparison operators by type.
    ("sm_90", "8.0", "setp.lt.b32 %t_pred_0, %t_b32_1, %t_b32_2"),
    ("sm_90", "8.0", "setp.lo.s32 %t_pred_0, %t_s32_1, %t_s32_2"),
    ("sm_90", "8.0", "setp.lo.b32 %t_pred_0, %t_b32_1, %t_b32_2"),
    ("sm_90", "8.0", "setp.equ.s32 %t_pred_0, %t_s32_1, %t_s32_2"),
    ("sm_90", "8.0", "setp.nan.u32 %t_pred_0, %t_u32_1, %t_u32_2"),
    ("sm_90", "8.0", "setp.lo.f32 %t_pred_0, %t_f32_1, %t_f32_2"),
    ("sm_90", "8.0", "setp.hs.f64 %t_pred_0, %t_f64_1, %t_f64_2"),
    (
        "sm_90",
        "8.0",
        "setp.lt.ftz.f64 %t_pred_0, %t_f64_1, %t_f64_2",
    ),
    (
        "sm_90",
        "8.0",
        "setp.eq.ftz.s32 %t_pred_0, %t_s32_1, %t_s32_2",
    ),
    ("sm_90", "8.0", "setp.lo.f16 %t_pred_0, %t_f16_1, %t_f16_2"),
    ("sm_90", "8.0", "setp.equ.f16 %t_pred_0, %t_f16_1, %t_f16_2"),
    (
        "sm_90",
        "8.0",
        "set.lo.u32.f32 %t_u32_0, %t_f32_1, %t_f32_2",
    ),
    (
        "sm_90",
        "8.0",
        "set.equ.u32.s32 %t_u32_0, %t_s32_1, %t_s32_2",
    ),
    (
        "sm_90",
        "8.0",
        "set.eq.ftz.u32.f64 %t_u32_0, %t_f64_1, %t_f64_2",
    ),
    (
        "sm_90",
        "8.0",
        "set.eq.f32.f16 %t_f32_0, %t_f16_1, %t_f16_2",
    ),
    (
        "sm_90",
        "8.0",
        "set.eq.u16.f32 %t_u16_0, %t_f32_1, %t_f32_2",
    ),
    (
        "sm_90",
        "8.0",
        "set.eq.f16.u32 %t_f16_0, %t_u32_1, %t_u32_2",
    ),
    (
        "sm_90",
        "8.0",
        "set.lo.f16.u32 %t_f16_0, %t_u32_1, %t_u32_2",
    ),
    // Predicate destinations and partners.
    ("sm_90", "8.0", "setp.lt.s32 %t_s32_0, %t_s32_1, %t_s32_2"),
    (
        "sm_90",
        "8.0",
        "setp.lt.s32 %t_pred_0|%t_pred_1, %t_s32_1, %t_s32_2",
    ),
    (
        "sm_90",
        "8.0",
        "setp.eq.f16x2 %t_pred_0, %t_b32_1, %t_b32_2",
    ),
    (
        "sm_90",
        "8.0",
        "setp.eq.f16 %t_pred_0|%t_pred_1, %t_f16_1, %t_f16_2",
    ),
    (
        "sm_90",
        "8.0",
        "setp.eq.bf16 %t_pred_0|%t_pred_1, %t_b16_1, %t_b16_2",
    ),
    ("sm_90", "8.0", "setp.lt.s32 _, %t_s32_1, %t_s32_2"),
    (
        "sm_90",
        "8.0",
        "setp.lt.s32 %t_pred_0|_, %t_s32_1, %t_s32_2",
    ),
    ("sm_90", "8.0", "testp.finite.f32 %t_b32_0, %t_f32_1"),
    // Predicate sources: immediates, negation.
    ("sm_90", "8.0", "selp.b32 %t_b32_0, %t_b32_1, %t_b32_2, 1"),
    (
        "sm_90",
        "8.0",
        "selp.b32 %t_b32_0, %t_b32_1, %t_b32_2, !%t_pred_0",
    ),
    (
        "sm_90",
        "8.0",
        "selp.b32 %t_b32_0, %t_b32_1, %t_b32_2, %t_b32_3",
    ),
    (
        "sm_90",
        "8.0",
        "setp.eq.and.s32 %t_pred_0, %t_s32_1, %t_s32_2, 1",
    ),
    (
        "sm_90",
        "8.0",
        "setp.eq.and.s32 %t_pred_0, %t_s32_1, %t_s32_2, !%t_pred_3",
    ),
    ("sm_90", "8.0", "and.pred %t_pred_0, %t_pred_1, !%t_pred_2"),
    ("sm_90", "8.0", "or.pred %t_pred_0, !%t_pred_1, %t_pred_2"),
    ("sm_90", "8.0", "and.pred %t_pred_0, %t_pred_1, 1"),
    ("sm_90", "8.0", "not.pred %t_pred_0, !%t_pred_1"),
    ("sm_90", "8.0", "and.b32 %t_b32_0, !%t_pred_1, %t_b32_2"),
    ("sm_90", "8.0", "and.b32 %t_b32_0, %t_pred_1, %t_b32_2"),
    ("sm_90", "8.0", "and.pred %t_pred_0, %t_b32_1, %t_pred_2"),
    ("sm_90", "8.0", "and.b16 %t_b16_0, %t_b16_1, %t_b16_2"),
    ("sm_90", "8.0", "and.u32 %t_u32_0, %t_u32_1, %t_u32_2"),
    ("sm_90", "8.0", "not.b32 %t_b32_0, 1"),
    (
        "sm_90",
        "8.2",
        "lop3.or.b32 %t_b32_0|%t_pred_0, %t_b32_1, %t_b32_2, %t_b32_3, 0x80, %t_pred_1",
    ),
    (
        "sm_90",
        "8.0",
        "lop3.b32 %t_b32_0, %t_b32_1, %t_b32_2, %t_b32_3, %t_b32_0",
    ),
    // Register widths and kinds.
    ("sm_90", "8.0", "add.u32 %t_u64_0, %t_u32_1, %t_u32_2"),
    ("sm_90", "8.0", "add.u32 %t_u32_0, %t_u64_1, %t_u32_2"),
    ("sm_90", "8.0", "add.u32 %t_b64_0, %t_u32_1, %t_u32_2"),
    ("sm_90", "8.0", "add.u16 %t_u32_0, %t_u16_1, %t_u16_2"),
    ("sm_90", "8.0", "add.u32 %t_f32_0, %t_u32_1, %t_u32_2"),
    ("sm_90", "8.0", "add.f32 %t_u32_0, %t_f32_1, %t_f32_2"),
    ("sm_90", "8.0", "add.f32 %t_b32_0, %t_b32_1, %t_f32_2"),
    ("sm_90", "8.0", "add.f16 %t_u16_0, %t_f16_1, %t_f16_2"),
    ("sm_90", "8.0", "add.bf16 %t_f16_0, %t_b16_1, %t_b16_2"),
    ("sm_90", "8.0", "add.f16x2 %t_f32_0, %t_b32_1, %t_b32_2"),
    ("sm_90", "8.0", "add.s32 %t_u32_0, %t_s32_1, %t_u32_2"),
    ("sm_90", "8.0", "shl.b64 %t_b64_0, %t_b64_1, %t_b64_2"),
    ("sm_90", "8.0", "shl.b64 %t_b64_0, %t_b64_1, %t_u16_2"),
    ("sm_90", "8.0", "shr.s32 %t_s32_0, %t_s32_1, %t_s32_2"),
    ("sm_90", "8.0", "bfe.u32 %t_u32_0, %t_u32_1, %t_u64_2, 8"),
    (
        "sm_90",
        "8.0",
        "bfe.u64 %t_u64_0, %t_u64_1, %t_u32_2, %t_u32_3",
    ),
    ("sm_90", "8.0", "popc.b64 %t_u64_0, %t_b64_1"),
    ("sm_90", "8.0", "clz.b32 %t_s32_0, %t_b32_1"),
    ("sm_90", "8.0", "fns.b32 %t_b32_0, %t_b32_1, %t_f32_2, 1"),
    ("sm_90", "8.0", "mul.wide.u32 %t_u32_0, %t_u32_1, %t_u32_2"),
    ("sm_90", "8.0", "mul.wide.s16 %t_s32_0, %t_s16_1, %t_s16_2"),
    (
        "sm_90",
        "8.0",
        "mad.wide.s32 %t_s64_0, %t_s32_1, %t_s32_2, %t_s32_3",
    ),
    (
        "sm_90",
        "8.0",
        "dp4a.u32.s32 %t_u32_0, %t_u32_1, %t_s32_2, %t_s32_3",
    ),
    (
        "sm_90",
        "8.0",
        "dp4a.u32.u32 %t_u64_0, %t_u32_1, %t_u32_2, %t_u32_3",
    ),
    ("sm_90", "8.0", "cnot.b16 %t_u16_0, %t_s16_1"),
    // Immediates.
    ("sm_90", "8.0", "add.f32 %t_f32_0, %t_f32_1, 1"),
    ("sm_90", "8.0", "add.f64 %t_f64_0, %t_f64_1, 0f3F800000"),
    (
        "sm_90",
        "8.0",
        "add.f32 %t_f32_0, %t_f32_1, 0d3FF0000000000000",
    ),
    ("sm_90", "8.0", "add.u32 %t_u32_0, %t_u32_1, 0f3F800000"),
    ("sm_90", "8.0", "add.f16 %t_f16_0, %t_f16_1, 0x3C00"),
    ("sm_90", "8.0", "add.bf16 %t_b16_0, %t_b16_1, 0x3F80"),
    ("sm_90", "8.0", "add.f16x2 %t_b32_0, %t_b32_1, 0x3C003C00"),
    ("sm_90", "8.0", "sub.s32 %t_s32_0, 0, %t_s32_1"),
    ("sm_90", "8.0", "add.s32 %t_s32_0, 1, 2"),
    ("sm_90", "8.0", "add.u32 1, %t_u32_1, 2"),
    ("sm_90", "8.0", "mul.wide.u32 %t_u64_0, %t_u32_1, 4"),
    (
        "sm_90",
        "8.0",
        "selp.f32 %t_f32_0, 0f3F800000, 0f00000000, %t_pred_1",
    ),
    (
        "sm_90",
        "8.0",
        "setp.lt.f32 %t_pred_0, %t_f32_1, 0f00000000",
    ),
    ("sm_90", "8.0", "setp.lt.f32 %t_pred_0, %t_f32_1, 0"),
    ("sm_90", "8.0", "add.u16x2 %t_b32_0, %t_b32_1, 0x00010001"),
    // Special registers and variables as sources.
    ("sm_90", "8.0", "add.u32 %t_u32_0, %tid.x, 1"),
    ("sm_90", "8.0", "mul.wide.u16 %t_u32_0, %ctaid.x, %ntid.x"),
    (
        "sm_90",
        "8.0",
        "mad.lo.s32 %t_s32_0, %ctaid.x, %ntid.x, %tid.x",
    ),
    ("sm_90", "8.0", "add.u64 %t_u64_0, %clock64, 1"),
    ("sm_90", "8.0", "add.u32 %t_u32_0, %clock64, 1"),
    ("sm_90", "8.0", "setp.eq.u32 %t_pred_0, %laneid, 0"),
    ("sm_90", "8.0", "add.f32 %t_f32_0, %tid.x, %t_f32_1"),
    ("sm_90", "8.0", "add.u64 %t_u64_0, gvar, 8"),
    ("sm_90", "8.0", "add.u64 %t_u64_0, gvar+8, %t_u64_1"),
    ("sm_90", "8.0", "add.u32 %t_u32_0, svar, 4"),
    ("sm_90", "8.0", "add.u32 %t_u32_0, gvar, 4"),
    ("sm_90", "8.0", "add.u64 %t_u64_0, kp0, 4"),
    ("sm_90", "8.0", "add.u64 %t_u64_0, fn_dev, 4"),
    ("sm_90", "8.0", "add.u64 gvar, %t_u64_1, 4"),
    ("sm_90", "8.0", "add.u32 %t_u32_0, %t_u32_1+4, 1"),
    // Versions and targets.
    ("sm_80", "8.0", "add.bf16 %t_b16_0, %t_b16_1, %t_b16_2"),
    ("sm_90", "7.8", "add.rz.bf16 %t_b16_0, %t_b16_1, %t_b16_2"),
    (
        "sm_80",
        "7.0",
        "fma.rn.bf16 %t_b16_0, %t_b16_1, %t_b16_2, %t_b16_3",
    ),
    (
        "sm_75",
        "7.0",
        "fma.rn.bf16 %t_b16_0, %t_b16_1, %t_b16_2, %t_b16_3",
    ),
    (
        "sm_75",
        "7.0",
        "fma.rn.relu.f16 %t_f16_0, %t_f16_1, %t_f16_2, %t_f16_3",
    ),
    ("sm_75", "7.0", "min.f16 %t_f16_0, %t_f16_1, %t_f16_2"),
    ("sm_75", "7.0", "min.NaN.f32 %t_f32_0, %t_f32_1, %t_f32_2"),
    (
        "sm_80",
        "7.2",
        "min.xorsign.abs.f32 %t_f32_0, %t_f32_1, %t_f32_2",
    ),
    (
        "sm_86",
        "7.1",
        "min.xorsign.abs.f32 %t_f32_0, %t_f32_1, %t_f32_2",
    ),
    (
        "sm_86",
        "7.2",
        "min.xorsign.abs.bf16 %t_b16_0, %t_b16_1, %t_b16_2",
    ),
    (
        "sm_90",
        "8.7",
        "min.f32 %t_f32_0, %t_f32_1, %t_f32_2, %t_f32_3",
    ),
    (
        "sm_100",
        "8.8",
        "min.f32 %t_f32_0, %t_f32_1, %t_f32_2, %t_f32_3",
    ),
    (
        "sm_100",
        "8.8",
        "max.NaN.abs.f32 %t_f32_0, %t_f32_1, %t_f32_2, %t_f32_3",
    ),
    ("sm_90", "8.7", "add.f32x2 %t_b64_0, %t_b64_1, %t_b64_2"),
    ("sm_100", "8.6", "add.rn.f32x2 %t_b64_0, %t_b64_1, %t_b64_2"),
    (
        "sm_100",
        "8.6",
        "fma.rn.f32x2 %t_b64_0, %t_b64_1, %t_b64_2, %t_b64_3",
    ),
    (
        "sm_100",
        "8.6",
        "add.rn.f32.f16 %t_f32_0, %t_f16_1, %t_f32_2",
    ),
    (
        "sm_90",
        "8.6",
        "add.rn.f32.f16 %t_f32_0, %t_f16_1, %t_f32_2",
    ),
    (
        "sm_100",
        "8.6",
        "fma.rn.f32.bf16 %t_f32_0, %t_b16_1, %t_b16_2, %t_f32_3",
    ),
    (
        "sm_100",
        "8.6",
        "mul.rn.f32.f16 %t_f32_0, %t_f16_1, %t_f32_2",
    ),
    ("sm_80", "7.8", "add.u16x2 %t_b32_0, %t_b32_1, %t_b32_2"),
    ("sm_90", "7.8", "add.u16x2 %t_b32_0, %t_b32_1, %t_b32_2"),
    ("sm_80", "7.8", "min.relu.s32 %t_s32_0, %t_s32_1, %t_s32_2"),
    ("sm_75", "7.0", "tanh.approx.f32 %t_f32_0, %t_f32_1"),
    ("sm_80", "7.8", "tanh.approx.bf16 %t_b16_0, %t_b16_1"),
    ("sm_80", "7.8", "ex2.approx.ftz.bf16x2 %t_b32_0, %t_b32_1"),
    ("sm_80", "7.4", "szext.wrap.u32 %t_u32_0, %t_u32_1, 8"),
    ("sm_80", "7.4", "bmsk.clamp.b32 %t_b32_0, 4, 8"),
    (
        "sm_90",
        "8.0",
        "lop3.and.b32 %t_b32_0|%t_pred_0, %t_b32_1, %t_b32_2, %t_b32_3, 0x80, %t_pred_1",
    ),
    ("sm_90", "7.8", "add.cc.u64 %t_u64_0, %t_u64_1, %t_u64_2"),
    (
        "sm_90",
        "7.8",
        "madc.hi.cc.s64 %t_s64_0, %t_s64_1, %t_s64_2, %t_s64_3",
    ),
    (
        "sm_90",
        "7.8",
        "fma.rn.oob.f16 %t_f16_0, %t_f16_1, %t_f16_2, %t_f16_3",
    ),
    (
        "sm_90",
        "8.1",
        "fma.rn.oob.relu.bf16x2 %t_b32_0, %t_b32_1, %t_b32_2, %t_b32_3",
    ),
    (
        "sm_80",
        "8.1",
        "fma.rn.oob.f16 %t_f16_0, %t_f16_1, %t_f16_2, %t_f16_3",
    ),
    // Qualifier order.
    ("sm_90", "8.0", "add.f32.rn %t_f32_0, %t_f32_1, %t_f32_2"),
    ("sm_90", "8.0", "mul.u32.lo %t_u32_0, %t_u32_1, %t_u32_2"),
    ("sm_90", "8.0", "setp.s32.lt %t_pred_0, %t_s32_1, %t_s32_2"),
    (
        "sm_90",
        "8.0",
        "setp.and.lt.s32 %t_pred_0, %t_s32_1, %t_s32_2, %t_pred_1",
    ),
    (
        "sm_90",
        "8.0",
        "set.eq.f32.u32 %t_u32_0, %t_f32_1, %t_f32_2",
    ),
    ("sm_90", "8.0", "add.u32.cc %t_u32_0, %t_u32_1, %t_u32_2"),
    (
        "sm_90",
        "8.0",
        "min.abs.xorsign.f32 %t_f32_0, %t_f32_1, %t_f32_2",
    ),
    (
        "sm_90",
        "8.0",
        "min.xorsign.f32 %t_f32_0, %t_f32_1, %t_f32_2",
    ),
    ("sm_90", "8.0", "min.abs.f32 %t_f32_0, %t_f32_1, %t_f32_2"),
    (
        "sm_90",
        "8.0",
        "dp2a.u32.s32.hi %t_u32_0, %t_u32_1, %t_s32_2, %t_u32_3",
    ),
    (
        "sm_90",
        "8.0",
        "mad.cc.lo.u32 %t_u32_0, %t_u32_1, %t_u32_2, %t_u32_3",
    ),
    (
        "sm_90",
        "8.0",
        "madc.cc.hi.u32 %t_u32_0, %t_u32_1, %t_u32_2, %t_u32_3",
    ),
    ("sm_90", "8.0", "mul24.u32.lo %t_u32_0, %t_u32_1, %t_u32_2"),
    ("sm_90", "8.0", "mul.u32.wide %t_u64_0, %t_u32_1, %t_u32_2"),
    (
        "sm_90",
        "8.0",
        "mul.wide.lo.u32 %t_u64_0, %t_u32_1, %t_u32_2",
    ),
    // Register kinds of the packed forms.
    ("sm_90", "8.0", "add.u16x2 %t_u32_0, %t_u32_1, %t_u32_2"),
    ("sm_90", "8.0", "min.s16x2 %t_b32_0, %t_s32_1, %t_b32_2"),
    ("sm_90", "8.0", "max.u16x2 %t_f32_0, %t_b32_1, %t_b32_2"),
    ("sm_100", "8.6", "add.f32x2 %t_u64_0, %t_u64_1, %t_u64_2"),
    ("sm_100", "8.6", "add.f32x2 %t_b64_0, %t_f64_1, %t_b64_2"),
    (
        "sm_100",
        "8.6",
        "fma.rn.f32x2 %t_b64_0, %t_b64_1, %t_b64_2, %t_s64_3",
    ),
    ("sm_90", "8.0", "add.f16x2 %t_u32_0, %t_b32_1, %t_b32_2"),
    ("sm_90", "8.0", "add.bf16x2 %t_b32_0, %t_s32_1, %t_b32_2"),
    ("sm_90", "8.0", "add.f16 %t_b16_0, %t_s16_1, %t_f16_2"),
    // `.pred` beside a floating-point type.
    ("sm_90", "8.0", "add.f32.pred %t_f32_0, %t_f32_1, %t_f32_2"),
    (
        "sm_90",
        "8.0",
        "mul.rn.f32.pred %t_f32_0, %t_f32_1, %t_f32_2",
    ),
    (
        "sm_90",
        "8.0",
        "fma.rn.f32.pred %t_f32_0, %t_f32_1, %t_f32_2, %t_f32_3",
    ),
    (
        "sm_90",
        "8.0",
        "div.rn.f32.pred %t_f32_0, %t_f32_1, %t_f32_2",
    ),
    (
        "sm_90",
        "8.0",
        "div.full.f32.pred %t_f32_0, %t_f32_1, %t_f32_2",
    ),
    ("sm_90", "8.0", "sqrt.rn.f32.pred %t_f32_0, %t_f32_1"),
    ("sm_90", "8.0", "abs.f32.pred %t_f32_0, %t_f32_1"),
    ("sm_90", "8.0", "ex2.approx.f32.pred %t_f32_0, %t_f32_1"),
    (
        "sm_90",
        "8.0",
        "setp.lt.f32.pred %t_pred_0, %t_f32_1, %t_f32_2",
    ),
    (
        "sm_90",
        "8.0",
        "selp.f32.pred %t_f32_0, %t_f32_1, %t_f32_2, %t_pred_0",
    ),
    ("sm_90", "8.0", "add.f64.pred %t_f64_0, %t_f64_1, %t_f64_2"),
    ("sm_90", "8.0", "testp.finite.f32.pred %t_pred_0, %t_f32_1"),
    ("sm_90", "8.0", "add.u32.pred %t_u32_0, %t_u32_1, %t_u32_2"),
    // Repeated qualifiers.
    ("sm_90", "8.0", "add.cc.cc.u32 %t_u32_0, %t_u32_1, %t_u32_2"),
    (
        "sm_90",
        "8.0",
        "addc.cc.cc.u32 %t_u32_0, %t_u32_1, %t_u32_2",
    ),
    (
        "sm_90",
        "8.0",
        "mad.lo.cc.cc.u32 %t_u32_0, %t_u32_1, %t_u32_2, %t_u32_3",
    ),
    (
        "sm_90",
        "8.0",
        "madc.lo.cc.cc.u32 %t_u32_0, %t_u32_1, %t_u32_2, %t_u32_3",
    ),
    (
        "sm_90",
        "8.0",
        "div.approx.approx.f32 %t_f32_0, %t_f32_1, %t_f32_2",
    ),
    (
        "sm_90",
        "8.0",
        "min.NaN.NaN.f32 %t_f32_0, %t_f32_1, %t_f32_2",
    ),
    ("sm_90", "8.0", "mul.lo.lo.u32 %t_u32_0, %t_u32_1, %t_u32_2"),
    (
        "sm_90",
        "8.0",
        "add.ftz.ftz.f32 %t_f32_0, %t_f32_1, %t_f32_2",
    ),
    ("sm_90", "8.0", "and.b32.b32 %t_b32_0, %t_b32_1, %t_b32_2"),
    (
        "sm_90",
        "8.0",
        "fma.rn.sat.sat.f32 %t_f32_0, %t_f32_1, %t_f32_2, %t_f32_3",
    ),
    (
        "sm_90",
        "8.0",
        "mad.hi.sat.sat.s32 %t_s32_0, %t_s32_1, %t_s32_2, %t_s32_3",
    ),
    // Sinks.
    ("sm_90", "8.0", "testp.finite.f32 _, %t_f32_1"),
    ("sm_90", "8.0", "add.u32 _, %t_u32_1, %t_u32_2"),
    (
        "sm_90",
        "8.0",
        "setp.lt.s32 _|%t_pred_0, %t_s32_1, %t_s32_2",
    ),
    ("sm_90", "8.0", "setp.eq.f16x2 _|_, %t_b32_1, %t_b32_2"),
    (
        "sm_90",
        "8.2",
        "lop3.or.b32 %t_b32_0|_, %t_b32_1, %t_b32_2, %t_b32_3, 0x80, %t_pred_1",
    ),
    (
        "sm_90",
        "8.0",
        "setp.eq.and.s32 _, %t_s32_1, %t_s32_2, %t_pred_1",
    ),
    // Names and constant expressions as sources.
    ("sm_90", "8.0", "add.u32 %t_u32_0, fn_dev, 1"),
    ("sm_90", "8.0", "add.u64 %t_u64_0, kp0+4, 1"),
    ("sm_90", "8.0", "add.u32 %t_u32_0, svar+4, 1"),
    ("sm_90", "8.0", "add.u16 %t_u16_0, gvar+8, 1"),
    ("sm_90", "8.0", "add.u64 %t_u64_0, gvar+0, 1"),
    ("sm_90", "8.0", "setp.eq.u64 %t_pred_0, gvar+8, %t_u64_1"),
    (
        "sm_90",
        "8.0",
        "selp.b32 %t_b32_0, %t_b32_1, %t_b32_2, 0f3F800000",
    ),
    ("sm_90", "8.0", "selp.b32 %t_b32_0, %t_b32_1, %t_b32_2, 2"),
    ("sm_90", "8.0", "add.u32 %t_u32_0, %t_u32_1+4, %t_u32_2-4"),
    ("sm_90", "8.0", "add.f32 %t_f32_0, %t_f32_1+4, %t_f32_2"),
    // Negated predicates where a packed source goes.
    (
        "sm_90",
        "8.0",
        "set.lt.u32.bf16x2 %t_u32_0, !%t_pred_1, %t_b32_2",
    ),
    (
        "sm_90",
        "8.0",
        "setp.lt.bf16x2 %t_pred_0|%t_pred_1, %t_b32_1, !%t_pred_2",
    ),
    (
        "sm_90",
        "8.0",
        "set.lt.u32.f16x2 %t_u32_0, %t_b32_1, !%t_pred_2",
    ),
    (
        "sm_90",
        "8.0",
        "setp.lt.f16x2 %t_pred_0|%t_pred_1, %t_b32_1, !%t_pred_2",
    ),
    ("sm_90", "8.0", "add.bf16x2 %t_b32_0, %t_b32_1, !%t_pred_2"),
    (
        "sm_90",
        "8.0",
        "setp.lt.bf16 %t_pred_0, %t_b16_1, !%t_pred_2",
    ),
    // Immediates in packed and predicate positions.
    (
        "sm_90",
        "8.0",
        "set.eq.and.f16x2.f16x2 %t_b32_0, %t_b32_1, %t_b32_2, 1",
    ),
    (
        "sm_90",
        "8.0",
        "setp.eq.and.f16x2 %t_pred_0|%t_pred_1, %t_b32_1, %t_b32_2, 1",
    ),
    (
        "sm_90",
        "8.0",
        "setp.eq.and.bf16x2 %t_pred_0|%t_pred_1, %t_b32_1, %t_b32_2, 1",
    ),
    (
        "sm_90",
        "8.0",
        "setp.eq.and.f16 %t_pred_0, %t_f16_1, %t_f16_2, 0",
    ),
    (
        "sm_90",
        "8.0",
        "set.eq.and.u32.bf16 %t_u32_0, %t_b16_1, %t_b16_2, 0",
    ),
    ("sm_90", "8.0", "setp.eq.f16 %t_pred_0, %t_f16_1, 0x3C00"),
    (
        "sm_90",
        "8.0",
        "set.eq.f16.f32 %t_f16_0, %t_f32_1, 0f3F800000",
    ),
    (
        "sm_90",
        "8.0",
        "set.eq.ftz.f16.f16 %t_f16_0, %t_f16_1, %t_f16_2",
    ),
    (
        "sm_90",
        "8.0",
        "set.eq.ftz.f16.f32 %t_f16_0, %t_f32_1, %t_f32_2",
    ),
    ("sm_90", "8.0", "fns.b32 %t_b32_0, 0f3F800000, 1, 2"),
    ("sm_90", "8.0", "popc.b64 %t_u32_0, 0d3FF0000000000000"),
    ("sm_90", "8.0", "shl.b64 %t_b64_0, 0d3FF0000000000000, 2"),
    ("sm_90", "8.0", "shl.b32 %t_b32_0, %t_b32_1, 0f3F800000"),
    // atom and red (PTX ISA 9.7.13.5, 9.7.13.6): where the manual's parts
    // disagree or are silent. The example `red.global.acquire.sys.add.u32`
    // against ".sem = {.relaxed, .release}".
    ("sm_90", "8.0", "red.global.acquire.sys.add.u32 [gvar], 1"),
    ("sm_90", "8.0", "red.global.acq_rel.gpu.add.u32 [gvar], 1"),
    // `.cas` has no `.level::cache_hint` in the syntax block.
    (
        "sm_90",
        "8.0",
        "atom.global.cas.L2::cache_hint.b32 %t_b32_0, [gvar], %t_b32_1, %t_b32_2, %t_b64_0",
    ),
    // Notes: "Simple reductions may be specified by using the bit bucket
    // destination operand _".
    ("sm_90", "8.0", "atom.global.add.u32 _, [gvar], 1"),
    (
        "sm_90",
        "8.1",
        "atom.global.v2.f32.add {_, %t_f32_1}, [gvar], {%t_f32_2, %t_f32_3}",
    ),
    // Operations on types the "Atom Scalar Type Operations" table leaves out.
    ("sm_90", "8.0", "atom.global.and.u32 %t_u32_0, [gvar], %t_u32_1"),
    ("sm_90", "8.0", "atom.global.or.s64 %t_s64_0, [gvar], %t_s64_1"),
    ("sm_90", "8.0", "atom.global.exch.u32 %t_u32_0, [gvar], %t_u32_1"),
    (
        "sm_90",
        "8.0",
        "atom.global.cas.u32 %t_u32_0, [gvar], %t_u32_1, %t_u32_2",
    ),
    ("sm_90", "8.0", "atom.global.add.b32 %t_b32_0, [gvar], %t_b32_1"),
    ("sm_90", "8.0", "atom.global.min.b32 %t_b32_0, [gvar], %t_b32_1"),
    ("sm_90", "8.0", "atom.global.min.f32 %t_f32_0, [gvar], %t_f32_1"),
    ("sm_90", "8.0", "atom.global.max.f64 %t_f64_0, [gvar], %t_f64_1"),
    // `.min`/`.max` of the half types: in the vector forms only.
    (
        "sm_90",
        "8.1",
        "atom.global.min.noftz.f16 %t_f16_0, [gvar], %t_f16_1",
    ),
    (
        "sm_90",
        "8.1",
        "red.global.max.noftz.bf16x2 [gvar], %t_b32_1",
    ),
    ("sm_90", "8.0", "atom.global.add.s64 %t_s64_0, [gvar], %t_s64_1"),
    ("sm_90", "8.0", "atom.global.inc.s32 %t_s32_0, [gvar], %t_s32_1"),
    ("sm_90", "8.0", "red.global.dec.u64 [gvar], %t_u64_1"),
    ("sm_90", "8.0", "atom.global.exch.b16 %t_b16_0, [gvar], %t_b16_1"),
    ("sm_90", "8.0", "atom.global.add.u16 %t_u16_0, [gvar], %t_u16_1"),
    // Immediates and registers.
    ("sm_90", "8.0", "atom.global.add.f32 %t_f32_0, [gvar], 1"),
    (
        "sm_90",
        "8.0",
        "atom.global.add.noftz.f16 %t_f16_0, [gvar], 0x3C00",
    ),
    (
        "sm_90",
        "8.0",
        "atom.global.add.noftz.f16x2 %t_b32_0, [gvar], %t_b32_1",
    ),
    (
        "sm_90",
        "8.0",
        "atom.global.add.noftz.bf16 %t_f16_0, [gvar], %t_f16_1",
    ),
    ("sm_90", "8.0", "atom.global.add.u32 %t_u64_0, [gvar], 1"),
    ("sm_90", "8.0", "atom.global.add.u32 %t_u32_0, [gvar], %tid.x"),
    (
        "sm_90",
        "8.3",
        "atom.global.exch.b128 %t_b128_0, [gvar], 0",
    ),
    // `.mmio` (ld, st, red.async have it; atom and red do not) and `.weak`.
    (
        "sm_90",
        "8.2",
        "atom.mmio.relaxed.sys.global.add.u32 %t_u32_0, [gvar], 1",
    ),
    ("sm_90", "8.0", "atom.weak.global.add.u32 %t_u32_0, [gvar], 1"),
    // `.sem` without `.scope`, qualifiers out of the syntax's order.
    (
        "sm_90",
        "8.0",
        "atom.global.cluster.relaxed.add.u32 %t_u32_0, [gvar], 1",
    ),
    (
        "sm_90",
        "8.0",
        "atom.relaxed.global.cas.b32 %t_b32_0, [gvar], %t_b32_1, %t_b32_2",
    ),
    (
        "sm_90",
        "8.1",
        "atom.global.v8.f16.max.noftz {%t_f16_0, %t_f16_1, %t_f16_2, %t_f16_3, %t_f16_4, %t_f16_5, %t_f16_6, %t_f16_7}, [gvar], {%t_f16_0, %t_f16_1, %t_f16_2, %t_f16_3, %t_f16_4, %t_f16_5, %t_f16_6, %t_f16_7}",
    ),
    // Version and target notes.
    (
        "sm_90",
        "8.3",
        "atom.global.sys.cas.b128 %t_b128_0, [gvar], %t_b128_1, %t_b128_2",
    ),
    (
        "sm_90",
        "8.4",
        "atom.global.sys.cas.b128 %t_b128_0, [gvar], %t_b128_1, %t_b128_2",
    ),
    (
        "sm_90",
        "8.8",
        "atom.global.add.noftz.f32 %t_f32_0, [gvar], %t_f32_1",
    ),
    (
        "sm_90",
        "8.0",
        "atom.global.v2.f32.add {%t_f32_0, %t_f32_1}, [gvar], {%t_f32_2, %t_f32_3}",
    ),
    (
        "sm_80",
        "8.1",
        "atom.global.v2.f32.add {%t_f32_0, %t_f32_1}, [gvar], {%t_f32_2, %t_f32_3}",
    ),
    (
        "sm_90",
        "8.1",
        "atom.shared.v2.f32.add {%t_f32_0, %t_f32_1}, [svar], {%t_f32_2, %t_f32_3}",
    ),
    (
        "sm_80",
        "8.0",
        "atom.global.cluster.add.u32 %t_u32_0, [gvar], 1",
    ),
    (
        "sm_90",
        "8.0",
        "atom.shared::cluster.add.L2::cache_hint.u32 %t_u32_0, [svar], 1, %t_b64_0",
    ),
    // Synchronisation (9.7.13.1-4, 9.7.13.15): qualifier order, which the
    // rows leave free for `mbarrier` and fix for the rest.
    ("sm_90", "8.6", "mbarrier.b64.init.shared [svar], 1"),
    ("sm_90", "8.6", "mbarrier.init.b64.shared::cta [svar], 1"),
    (
        "sm_90",
        "8.6",
        "mbarrier.arrive.shared::cta.release.cta.b64 %t_b64_0, [svar]",
    ),
    (
        "sm_90",
        "8.6",
        "mbarrier.arrive.cta.release.shared::cta.b64 %t_b64_0, [svar]",
    ),
    (
        "sm_90",
        "8.6",
        "mbarrier.expect_tx.arrive.shared::cta.b64 %t_b64_0, [svar], 16",
    ),
    (
        "sm_90",
        "8.6",
        "mbarrier.try_wait.shared::cta.parity.b64 %t_pred_0, [svar], %t_u32_0",
    ),
    ("sm_90", "8.6", "fence.gpu.sc"),
    ("sm_90", "8.6", "fence.sc.acq_rel.gpu"),
    ("sm_90", "8.6", "fence.release.proxy.tensormap::generic.gpu"),
    ("sm_90", "8.6", "fence.proxy.async.shared"),
    ("sm_90", "8.6", "fence.proxy.async.shared::cta.global"),
    ("sm_90", "8.6", "bar.sync.cta 0"),
    ("sm_90", "8.6", "barrier.aligned.sync 0"),
    ("sm_90", "8.6", "barrier.cluster.arrive.aligned.release"),
    ("sm_90", "8.6", "bar.red.popc.u32 %t_u32_0, 0, %t_pred_0, %t_pred_1"),
    // The sink: on a `.shared::cta` arrive, on a cluster arrive with a
    // register, on the other mbarrier destinations.
    ("sm_90", "8.6", "mbarrier.arrive.shared::cta.b64 _, [svar]"),
    (
        "sm_90",
        "8.6",
        "mbarrier.arrive.relaxed.cluster.shared::cluster.b64 %t_b64_0, [svar]",
    ),
    (
        "sm_90",
        "8.6",
        "mbarrier.test_wait.shared::cta.b64 _, [svar], %t_b64_0",
    ),
    ("sm_90", "8.6", "mbarrier.pending_count.b64 _, %t_b64_0"),
    // Versions and targets the notes name and the variants did not show:
    // `.acquire`/`.release` thread fences before PTX ISA 7.0, membar.proxy,
    // a count on arrive_drop without `.noComplete` below sm_90.
    ("sm_75", "6.3", "fence.acquire.gpu"),
    ("sm_75", "6.3", "fence.release.cta"),
    ("sm_80", "7.5", "membar.proxy.alias"),
    ("sm_90", "8.0", "membar.proxy.async"),
    ("sm_80", "7.0", "mbarrier.arrive_drop.shared.b64 %t_b64_0, [svar], 1"),
    ("sm_80", "7.8", "mbarrier.arrive_drop.shared.b64 %t_b64_0, [svar], 1"),
    ("sm_80", "8.0", "mbarrier.arrive_drop.release.cta.shared.b64 %t_b64_0, [svar]"),
    ("sm_75", "6.3", "bar.warp.sync -1"),
    ("sm_80", "7.0", "membar.sys"),
    // Operand types: 64-bit and float registers for the 32-bit operands.
    ("sm_90", "8.6", "bar.sync %t_b64_0"),
    ("sm_90", "8.6", "bar.sync %t_f32_0"),
    ("sm_90", "8.6", "bar.warp.sync %t_f32_0"),
    ("sm_90", "8.6", "mbarrier.init.shared::cta.b64 [svar], %t_b64_0"),
    (
        "sm_90",
        "8.6",
        "mbarrier.arrive.shared::cta.b64 %t_f64_0, [svar]",
    ),
    (
        "sm_90",
        "8.6",
        "fence.proxy.tensormap::generic.acquire.gpu [gvar], 128",
    ),
    (
        "sm_90",
        "8.6",
        "fence.proxy.tensormap::generic.acquire.gpu [%t_b64_0], 0x80",
    ),
];

/// The probes as variants (family: the opcode; mutation `probe`).
pub fn probes() -> Vec<Variant> {
    PROBES
        .iter()
        .enumerate()
        .map(|(i, (target, ptx, instr))| Variant {
            id: format!("p{i:04}"),
            family: instr.split(['.', ' ']).next().unwrap_or("").to_string(),
            form: "probe".into(),
            mutation: "probe".into(),
            target: target.to_string(),
            ptx: ptx.to_string(),
            instr: instr.to_string(),
            axis: AXIS.to_string(),
            operand: String::new(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same seed gives the same corpus; every kernel parses; every
    /// row of the arithmetic catalogue has a base sample.
    #[test]
    fn deterministic_parsable_and_covering() {
        let a = generate(7, 2);
        let b = generate(7, 2);
        assert_eq!(a, b);
        for v in &a {
            let src = render(v);
            assert!(
                ptx_semantics::ptx::parse(&src).is_ok(),
                "{}: {}",
                v.id,
                v.instr
            );
        }
        for form in &arith::catalogue().forms {
            assert!(
                a.iter()
                    .any(|v| v.form == form.row.id && v.mutation == "base"),
                "no base sample of {}",
                form.row.id
            );
        }
        let ids: std::collections::HashSet<&str> = a.iter().map(|v| v.id.as_str()).collect();
        assert_eq!(ids.len(), a.len(), "ids are unique");
    }
}
