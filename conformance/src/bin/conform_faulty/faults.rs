//! The seeded faults, one row each: its name, the families whose results
//! it changes, what goes wrong, and the faulty function (`cvt.rs`,
//! `regs.rs`). `Fault::apply` runs the faulty function on every case of a
//! group and overwrites the output rows where it disagrees with the model,
//! so a fault changes exactly the cases its bug reaches.

use crate::cvt::{self, ConversionFault};
use crate::job::{field, write, Job};
use crate::regs::{self, MovPackFault, MovUnpackFault, PrmtFault, ShflFault};
use ptx_semantics::catalogue::Catalogue;
use ptx_semantics::cvt::Conversion;
use ptx_semantics::sim::{mov_pack, mov_unpack, prmt, PrmtMode, ShflMode};

/// How a fault computes its results.
#[derive(Clone, Copy)]
pub enum Effect {
    /// `cvt` and `cvt.pack`.
    Conversion(ConversionFault),
    Prmt(PrmtFault),
    MovPack(MovPackFault),
    MovUnpack(MovUnpackFault),
    Shfl(ShflFault),
}

pub struct Fault {
    pub name: &'static str,
    /// The suite families (`Group::family`) whose results it changes.
    pub families: &'static [&'static str],
    /// What the implementation does wrong, in one line.
    pub about: &'static str,
    pub effect: Effect,
}

const fn fault(
    name: &'static str,
    families: &'static [&'static str],
    about: &'static str,
    effect: Effect,
) -> Fault {
    Fault {
        name,
        families,
        about,
        effect,
    }
}

use Effect::{Conversion as C, MovPack, MovUnpack, Prmt, Shfl};
const CVT: &[&str] = &["cvt"];
const PACK: &[&str] = &["cvt.pack"];
const BOTH: &[&str] = &["cvt", "cvt.pack"];
const PRMT: &[&str] = &["prmt"];
const MOV: &[&str] = &["mov"];
const SHFL: &[&str] = &["shfl.sync"];

#[rustfmt::skip]
pub const FAULTS: &[Fault] = &[
    // The six of issue 5.
    fault("sat-signed-symmetric", BOTH, "signed saturation (.sat, the float-to-int clamp, cvt.pack.sat) clamps to [-MAX, MAX]: MIN becomes MIN+1", C(cvt::sat_signed_symmetric)),
    fault("denormals-flushed-without-ftz", CVT, ".f32 subnormal inputs read as zero on forms without .ftz", C(cvt::denormals_flushed_without_ftz)),
    fault("rz-int-to-float-away", CVT, ".rz integer-to-float conversions round away from zero", C(cvt::rz_int_to_float_away)),
    fault("prmt-sign-ff", PRMT, "prmt's sign replication gives 0xff whatever the sign of the byte", Prmt(regs::prmt_sign_ff)),
    fault("shfl-ignores-membermask", SHFL, "shfl.sync runs on the whole warp, lanes outside membermask (guard false) included", Shfl(regs::shfl_ignores_membermask)),
    fault("nan-sign-kept", CVT, "a negative NaN keeps its sign where sm_90 gives the canonical NaN (cvt.rn.f16.f32 0xffc00000 -> 0xffff)", C(cvt::nan_sign_kept)),
    // Rounding.
    fault("rn-ties-away", CVT, ".rn rounds ties away from zero", C(cvt::rn_ties_away)),
    fault("rni-ties-away", CVT, ".rni rounds ties away from zero (round() for rint())", C(cvt::rni_ties_away)),
    fault("rni-magic-unguarded", CVT, "cvt.rni.f32.f32 as (|x| + 2^23) - 2^23 without the |x| >= 2^23 guard", C(cvt::rni_magic_unguarded)),
    fault("rm-rp-swapped", CVT, ".rm/.rmi and .rp/.rpi swapped", C(cvt::rm_rp_swapped)),
    fault("rna-as-rn", CVT, ".rna rounds ties to even", C(cvt::rna_as_rn)),
    fault("rs-rbits-swapped", CVT, ".rs to an x2 pack rounds operand a with the low half of rbits, b with the high", C(cvt::rs_rbits_swapped)),
    fault("ue8m0-rp-as-rz", CVT, ".rp to .ue8m0x2 rounds toward zero (the exponent taken as it is)", C(cvt::ue8m0_rp_as_rz)),
    fault("bf16-truncates", CVT, "cvt.rn.bf16{x2}.f32 keeps the upper 16 bits of the .f32 (NaNs included)", C(cvt::bf16_truncates)),
    fault("f64-to-half-through-f32", CVT, ".f64 to .f16/.bf16 converted through .f32 (double rounding)", C(cvt::f64_to_half_through_f32)),
    fault("int64-to-f32-through-f64", CVT, "64-bit integers to .f32 converted through .f64 (double rounding)", C(cvt::int64_to_f32_through_f64)),
    fault("int-to-bf16-through-f32", CVT, "integers to .bf16 converted through .f32 (double rounding)", C(cvt::int_to_bf16_through_f32)),
    fault("directed-overflow-to-inf", CVT, "overflow under rounding toward zero gives infinity, not MAX_NORM", C(cvt::directed_overflow_to_inf)),
    // Special values and modifiers.
    fault("nan-payload-dropped", CVT, "NaNs that sm_90 passes on with their payload (f64 narrowing/widening, cvt.f32.f32) become canonical", C(cvt::nan_payload_dropped)),
    fault("nan-to-int-indefinite", CVT, "NaN to a 32-bit integer gives 0x80000000 (x86's integer indefinite), not 0", C(cvt::nan_to_int_indefinite)),
    fault("float-to-int-wraps", CVT, "out-of-range float-to-int results keep their low bits instead of clamping", C(cvt::float_to_int_wraps)),
    fault("relu-ignored", CVT, ".relu ignored", C(cvt::relu_ignored)),
    fault("satfinite-ignored", CVT, ".satfinite ignored: overflow gives infinity", C(cvt::satfinite_ignored)),
    fault("e4m3-nan-to-max", CVT, "NaN to .e4m3 gives MAX_NORM (the FP6/FP4 rule) instead of NaN", C(cvt::e4m3_nan_to_max)),
    fault("int-sat-ignored", CVT, "cvt.sat between integers truncates instead of clamping", C(cvt::int_sat_ignored)),
    fault("sat-nan-kept", CVT, ".sat to a float type lets NaN through instead of giving +0", C(cvt::sat_nan_kept)),
    fault("sat-no-lower-clamp", CVT, ".sat to a float type clamps above 1.0 only: negative results stay", C(cvt::sat_no_lower_clamp)),
    fault("ftz-results-kept", CVT, ".ftz flushes subnormal .f32 inputs but not subnormal .f32 results", C(cvt::ftz_results_kept)),
    fault("ftz-sign-lost", CVT, ".ftz flushes to +0 instead of a sign-preserving zero", C(cvt::ftz_sign_lost)),
    fault("f16-subnormal-results-flushed", CVT, "subnormal .f16 results flushed to zero", C(cvt::f16_subnormal_results_flushed)),
    fault("f16-subnormal-inputs-flushed", CVT, "subnormal .f16 sources read as zero", C(cvt::f16_subnormal_inputs_flushed)),
    fault("tf32-low-bits-kept", CVT, ".tf32 results keep the 13 low bits of the source", C(cvt::tf32_low_bits_kept)),
    // Operands, registers and lanes.
    fault("unsigned-read-as-signed", CVT, "unsigned integer sources converted to float as if signed", C(cvt::unsigned_read_as_signed)),
    fault("narrow-source-reads-register", CVT, "8-bit integer sources read as the whole 16-bit register", C(cvt::narrow_source_reads_register)),
    fault("narrow-signed-zero-extended", CVT, ".s8/.s16 results zero-extended in their 32-bit register", C(cvt::narrow_signed_zero_extended)),
    fault("x2-halves-swapped", CVT, "x2 results with operand a in the low half", C(cvt::x2_halves_swapped)),
    fault("pack-operands-swapped", PACK, "cvt.pack puts a in the low bits and b above", C(cvt::pack_operands_swapped)),
    fault("pack-no-lower-clamp", PACK, "cvt.pack.sat clamps from above only (its pseudo-code read literally)", C(cvt::pack_no_lower_clamp)),
    fault("prmt-f4e-b4e-swapped", PRMT, "prmt .f4e and .b4e mixed up", Prmt(regs::prmt_f4e_b4e_swapped)),
    fault("prmt-ecl-ecr-swapped", PRMT, "prmt .ecl and .ecr mixed up", Prmt(regs::prmt_ecl_ecr_swapped)),
    fault("prmt-rc16-wrong-bit", PRMT, "prmt .rc16 picks the half with c[1] instead of c[0]", Prmt(regs::prmt_rc16_wrong_bit)),
    fault("mov-pack-reversed", MOV, "the packing mov puts the elements in reverse order", MovPack(regs::mov_pack_reversed)),
    fault("mov-unpack-reversed", MOV, "the unpacking mov gives the elements in reverse order", MovUnpack(regs::mov_unpack_reversed)),
    fault("shfl-p-requires-member", SHFL, "shfl.sync's p is false when the source lane is outside membermask", Shfl(regs::shfl_p_requires_member)),
    fault("shfl-up-p-off-by-one", SHFL, "shfl.sync.up's p is j > maxLane instead of j >= maxLane", Shfl(regs::shfl_up_p_off_by_one)),
    fault("shfl-ignores-segmask", SHFL, "shfl.sync's clamp ignores the segment mask c[12:8]", Shfl(regs::shfl_ignores_segmask)),
    fault("shfl-b-unmasked", SHFL, "shfl.sync reads all of b instead of b[4:0]", Shfl(regs::shfl_b_unmasked)),
];

/// The fault called `name`.
pub fn find(name: &str) -> Option<&'static Fault> {
    FAULTS.iter().find(|f| f.name == name)
}

/// What a group's form is, for the faults.
enum Family {
    Conversion(Conversion),
    Prmt(Option<PrmtMode>),
    Mov(u32),
    Shfl(ShflMode),
    Other,
}

fn family(form: &str) -> Result<Family, String> {
    // `cvt.` and `cvt.pack.`, not `cvta` (a family of its own)
    if form.starts_with("cvt.") {
        let b = Catalogue::get()
            .resolve_text(form)
            .map_err(|e| format!("`{form}`: not a catalogue form ({e:?})"))?;
        return Conversion::from_binding(&b)
            .map(Family::Conversion)
            .map_err(|e| format!("`{form}`: {e}"));
    }
    if let Some(rest) = form.strip_prefix("prmt.b32") {
        return match rest {
            "" => Ok(Family::Prmt(None)),
            q => PrmtMode::from_qualifier(q)
                .map(|m| Family::Prmt(Some(m)))
                .ok_or_else(|| format!("`{form}`: unknown prmt mode")),
        };
    }
    if let Some(w) = form.strip_prefix("mov.b") {
        return w
            .parse()
            .map(Family::Mov)
            .map_err(|_| format!("`{form}`: not a mov.bW form"));
    }
    if let Some(rest) = form.strip_prefix("shfl.sync") {
        let mode = rest.strip_suffix(".b32").unwrap_or(rest);
        return ShflMode::from_qualifier(mode)
            .map(Family::Shfl)
            .ok_or_else(|| format!("`{form}`: unknown shfl mode"));
    }
    Ok(Family::Other)
}

impl Fault {
    /// Recomputes every case of the group the fault reaches and overwrites
    /// its output row where the faulty result differs from the model's;
    /// how many cases changed.
    pub fn apply(&self, job: &Job, input: &[u8], output: &mut [u8]) -> Result<usize, String> {
        let cases = job.cases as usize;
        if input.len() < cases * job.input_layout.row as usize
            || output.len() < cases * job.output_layout.row as usize
        {
            return Err("the buffers are shorter than the job's cases and rows".into());
        }
        let inputs = |i: usize| -> Vec<u128> {
            let row = job.input_row(input, i);
            job.input_layout
                .fields
                .iter()
                .map(|f| job.input_layout.read(row, f))
                .collect()
        };
        let mut changed = 0;
        match (self.effect, family(&job.form)?) {
            (Effect::Conversion(f), Family::Conversion(conv)) => {
                let d = field(&job.output_layout, "d")?;
                let reg = d.bytes * 8;
                let keep = if reg >= 64 { u64::MAX } else { (1 << reg) - 1 };
                for i in 0..cases {
                    let s: Vec<u64> = inputs(i).into_iter().map(|v| v as u64).collect();
                    let Some(model) = cvt::register(&conv, &s, reg) else {
                        continue;
                    };
                    match f(&conv, &s, reg) {
                        Some(bad) if bad & keep != model => {
                            write(job.output_row(output, i), d, u128::from(bad & keep));
                            changed += 1;
                        }
                        _ => {}
                    }
                }
            }
            (Effect::Prmt(f), Family::Prmt(mode)) => {
                let d = field(&job.output_layout, "d")?;
                for i in 0..cases {
                    let v = inputs(i);
                    let (a, b, c) = (v[0] as u32, v[1] as u32, v[2] as u32);
                    let bad = f(mode, a, b, c);
                    if bad != prmt(mode, a, b, c) {
                        write(job.output_row(output, i), d, u128::from(bad));
                        changed += 1;
                    }
                }
            }
            // packing: elements `e0`.. in, one `v` out (a plain `mov.bW`,
            // `v` in and out, is neither shape)
            (Effect::MovPack(f), Family::Mov(width))
                if job.input_layout.fields.len() > 1 && field(&job.output_layout, "v").is_ok() =>
            {
                let v = field(&job.output_layout, "v")?;
                for i in 0..cases {
                    let elems = inputs(i);
                    let bad = f(width, &elems).ok_or("not a mov shape")?;
                    if Some(bad) != mov_pack(width, &elems) {
                        write(job.output_row(output, i), v, bad);
                        changed += 1;
                    }
                }
            }
            (Effect::MovUnpack(f), Family::Mov(width))
                if job.output_layout.fields.len() > 1 && field(&job.input_layout, "v").is_ok() =>
            {
                let count = job.output_layout.fields.len();
                for i in 0..cases {
                    let a = inputs(i)[0];
                    let bad = f(width, count, a).ok_or("not a mov shape")?;
                    if Some(bad) != mov_unpack(width, count, a) {
                        let row = job.output_row(output, i);
                        for (fl, e) in job.output_layout.fields.iter().zip(bad) {
                            write(row, fl, e);
                        }
                        changed += 1;
                    }
                }
            }
            (Effect::Shfl(f), Family::Shfl(mode)) => {
                let outs: Vec<_> = (0..32)
                    .map(|l| {
                        Ok((
                            field(&job.output_layout, &format!("d{l}"))?,
                            field(&job.output_layout, &format!("p{l}"))?,
                        ))
                    })
                    .collect::<Result<_, String>>()?;
                let ins: Vec<usize> = ["b", "c", "membermask"]
                    .iter()
                    .map(|n| {
                        job.input_layout
                            .fields
                            .iter()
                            .position(|f| f.name == *n)
                            .ok_or_else(|| format!("the input layout has no field `{n}`"))
                    })
                    .collect::<Result<_, String>>()?;
                for i in 0..cases {
                    let v = inputs(i);
                    let (b, c, m) = (v[ins[0]] as u32, v[ins[1]] as u32, v[ins[2]] as u32);
                    // what the kernel stores for a lane: d from the source
                    // lane's `a` (a0..a31 lead the row) and p; 0 and 0
                    // where the shuffle does not execute
                    let stores = |r: Option<(u32, bool)>| match r {
                        Some((j, p)) => (v[j as usize] as u32, u32::from(p)),
                        None => (0, 0),
                    };
                    let mut any = false;
                    for (lane, (d, p)) in outs.iter().enumerate() {
                        let lane = lane as u32;
                        let bad = f(mode, lane, b, c, m);
                        if bad == regs::shfl_correct(mode, lane, b, c, m) {
                            continue;
                        }
                        let (dv, pv) = stores(bad);
                        let row = job.output_row(output, i);
                        write(row, d, u128::from(dv));
                        write(row, p, u128::from(pv));
                        any = true;
                    }
                    changed += usize::from(any);
                }
            }
            _ => {}
        }
        Ok(changed)
    }
}
