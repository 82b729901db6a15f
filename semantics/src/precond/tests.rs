//! The table against the catalogue and the spec's list of sections that
//! name undefined behaviour.

use super::table::{self, for_row, listed};
use super::*;
use crate::catalogue::Catalogue;

/// The sections of PTX ISA 9.7.9 whose text says "undefined", found with
/// `grep -n -i undefined` over `ptx-isa-9.7.9-data-movement-and-conversion.md`
/// and the heading above each hit; plus 9.7.9.9, 9.7.9.10 and 9.7.9.11, whose
/// accesses fall under 6.4.1's alignment rule ("If an address is not
/// properly aligned, the resulting behavior is undefined").
const UNDEFINED_SECTIONS: &[&str] = &[
    "9.7.9.5",
    "9.7.9.6",
    "9.7.9.8",
    "9.7.9.9",
    "9.7.9.10",
    "9.7.9.11",
    "9.7.9.12",
    "9.7.9.13",
    "9.7.9.14",
    "9.7.9.16",
    "9.7.9.17",
    "9.7.9.18",
    "9.7.9.20",
    "9.7.9.25.3.1",
    "9.7.9.25.3.2",
    "9.7.9.25.4.1",
    "9.7.9.25.4.2",
    "9.7.9.25.4.3",
    "9.7.9.25.5.2",
    "9.7.9.26",
];

#[test]
fn every_row_whose_section_names_undefined_is_listed() {
    let mut missing = Vec::new();
    for form in &Catalogue::get().forms {
        let row = form.row;
        if UNDEFINED_SECTIONS.contains(&row.section) && !listed(row.id) {
            missing.push(format!("{} ({})", row.id, row.section));
        }
    }
    assert!(
        missing.is_empty(),
        "rows with no preconditions: {missing:?}"
    );
}

#[test]
fn every_listed_row_exists() {
    let ids: Vec<&str> = Catalogue::get().forms.iter().map(|f| f.row.id).collect();
    for p in table::all() {
        assert!(!p.rule.is_empty() && !p.section.is_empty(), "{}", p.id);
    }
    for id in [
        "cvta.to",
        "mapa",
        "shfl.sync",
        "cp.async.ca",
        "ld.weak.cop",
        "st.bulk",
    ] {
        assert!(ids.contains(&id), "{id}");
        assert!(!for_row(id).is_empty(), "{id}");
    }
}

#[test]
fn every_load_and_store_must_be_aligned() {
    for form in &Catalogue::get().forms {
        let id = form.row.id;
        let access = ["ld.", "ldu", "st."].iter().any(|p| id.starts_with(p)) && id != "st.bulk";
        if access {
            assert!(for_row(id).contains(&&table::ALIGNED), "{id}");
        }
    }
}

fn env() -> Env {
    Env {
        rank: 1,
        cluster_size: 4,
        param_bytes: 16,
        const_bytes: 32,
        ..Env::default()
    }
}

/// Boundaries worked out by hand from the SM90 profile: the shared window
/// is `[0x7fe0_0000_0000, +4 GiB)`, CTA `r` owns `[r << 24, (r + 1) << 24)`.
#[test]
fn boundaries_of_the_shared_windows() {
    let p = WindowProfile::SM90;
    let cta1 = 0x7fe0_0100_0000u64;
    let check = |pre: &Precondition, a: u64| holds(&p, &pre.holds, &Env { a, ..env() });
    assert!(check(&table::CVTA_TO_SHARED_CTA, cta1));
    assert!(check(&table::CVTA_TO_SHARED_CTA, cta1 + 0xff_ffff));
    assert!(!check(&table::CVTA_TO_SHARED_CTA, cta1 + 0x100_0000));
    assert!(!check(&table::CVTA_TO_SHARED_CTA, cta1 - 1));
    // the cluster has 4 CTAs: parts 0..4
    assert!(check(&table::CVTA_TO_SHARED_CLUSTER, 0x7fe0_0000_0000));
    assert!(check(&table::CVTA_TO_SHARED_CLUSTER, 0x7fe0_03ff_ffff));
    assert!(!check(&table::CVTA_TO_SHARED_CLUSTER, 0x7fe0_0400_0000));
    assert!(!check(&table::CVTA_TO_SHARED_CLUSTER, 0x7fdf_ffff_ffff));
    // the parameter window: 16 bytes at 0x7fdf_da28_0210
    assert!(check(&table::CVTA_TO_PARAM, 0x7fdf_da28_021f));
    assert!(!check(&table::CVTA_TO_PARAM, 0x7fdf_da28_0220));
}

#[test]
fn ranks_alignment_and_masks() {
    let p = WindowProfile::SM90;
    let with = |pre: &Precondition, e: Env| holds(&p, &pre.holds, &e);
    assert!(with(&table::MAPA_RANK, Env { b: 3, ..env() }));
    assert!(!with(&table::MAPA_RANK, Env { b: 4, ..env() }));
    assert!(!with(
        &table::MAPA_RANK,
        Env {
            b: u64::from(u32::MAX),
            ..env()
        }
    ));
    let aligned = |addr, size| {
        with(
            &table::ALIGNED,
            Env {
                addr,
                size,
                ..env()
            },
        )
    };
    assert!(aligned(0x1000, 16) && aligned(0x1008, 8) && !aligned(0x1008, 16));
    let member = |mask, lane| {
        with(
            &table::SHFL_MEMBER,
            Env {
                mask,
                lane,
                ..env()
            },
        )
    };
    assert!(member(0x8000_0000, 31) && !member(0x7fff_ffff, 31) && member(1, 0));
    let src = |src_size, cp_size| {
        with(
            &table::CP_ASYNC_SRC_SIZE,
            Env {
                src_size,
                cp_size,
                ..env()
            },
        )
    };
    assert!(src(16, 16) && src(0, 4) && !src(17, 16) && !src(5, 4));
    let fraction = |f: f32| {
        with(
            &table::POLICY_FRACTION,
            Env {
                a: u64::from(f.to_bits()),
                ..env()
            },
        )
    };
    assert!(fraction(1.0) && fraction(f32::MIN_POSITIVE) && fraction(0.5));
    assert!(!fraction(0.0) && !fraction(-0.0) && !fraction(1.0000001) && !fraction(f32::NAN));
    assert!(!fraction(-0.5));
}

/// Every precondition a selection function of the asynchronous and
/// mbarrier instructions gives is in `table::all()` (so the boundary
/// suite's list and the docs see it), with its section and sentence.
#[test]
fn every_selected_precondition_is_listed() {
    use table::MbarOp;
    let all = table::all();
    let mut selected: Vec<&'static Precondition> = Vec::new();
    let ops = [
        MbarOp::Init,
        MbarOp::Inval,
        MbarOp::ExpectTx,
        MbarOp::CompleteTx,
        MbarOp::CpAsyncArrive,
        MbarOp::Bulk,
        MbarOp::StAsync,
        MbarOp::Wait { parity: false },
        MbarOp::Wait { parity: true },
    ];
    let arrives = (0..8).map(|k| MbarOp::Arrive {
        drop: k & 1 == 1,
        count: k & 2 == 2,
        tx: k & 4 == 4,
    });
    for op in ops.into_iter().chain(arrives) {
        for space in [Space::Generic, Space::SharedCta, Space::SharedCluster] {
            let pres = table::mbarrier(op, space);
            assert!(pres.contains(&&table::MBAR_ALIGNED), "{op:?} {space:?}");
            selected.extend(pres);
        }
    }
    for generic in [false, true] {
        selected.extend(table::st_async(generic));
        selected.extend(table::st_bulk(generic));
    }
    selected.push(table::bulk_multicast());
    selected.push(&table::ST_ASYNC_SAME_CTA);
    for space in [Space::SharedCta, Space::SharedCluster] {
        selected.extend(table::tensor_copy(table::TensorWay::Load(space)));
    }
    selected.extend(table::tensor_copy(table::TensorWay::Store));
    selected.push(table::tensor_mbar(false));
    selected.push(table::tensor_mbar(true));
    selected.extend((1..=5).filter_map(table::im2col_offset));
    for space in [Space::Generic, Space::Global, Space::SharedCta] {
        selected.extend(table::tensormap_replace(space));
    }
    selected.extend(
        crate::tensor::Field::ALL
            .into_iter()
            .filter_map(table::tensormap_replace_value),
    );
    for p in selected {
        assert!(all.iter().any(|q| std::ptr::eq(*q, p)), "{}", p.id);
        assert!(!p.rule.is_empty() && !p.section.is_empty(), "{}", p.id);
    }
    let mut ids: Vec<&str> = all.iter().map(|p| p.id).collect();
    ids.sort_unstable();
    let n = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), n, "precondition ids are unique");
}

/// The mbarrier rules: where the object may be for each instruction and
/// space, its alignment, the ranges of the operands. Worked by hand from
/// the SM90 profile (shared window at 0x7fe0_0000_0000, 16 MiB per CTA),
/// for the CTA of rank 1 in a cluster of 4.
#[test]
fn mbarrier_places_alignment_and_operands() {
    use table::MbarOp;
    let p = WindowProfile::SM90;
    let ok = |op: MbarOp, space: Space, mbar: u64, a: u64| -> Result<(), &'static str> {
        let e = Env { mbar, a, ..env() };
        for pre in table::mbarrier(op, space) {
            if !holds(&p, &pre.holds, &e) {
                return Err(pre.id);
            }
        }
        Ok(())
    };
    let own = 0x7fe0_0100_0400u64; // generic, rank 1's part
    let other = 0x7fe0_0200_0400u64; // rank 2's part
    let init = MbarOp::Init;
    assert_eq!(ok(init, Space::Generic, own, 1), Ok(()));
    assert_eq!(
        ok(init, Space::Generic, other, 1),
        Err("mbarrier.init.generic-shared::cta")
    );
    assert_eq!(
        ok(init, Space::Generic, 0x7f00_0000_0000, 1),
        Err("mbarrier.init.generic-shared::cta")
    );
    assert_eq!(
        ok(init, Space::Generic, own + 4, 1),
        Err("mbarrier.aligned")
    );
    assert_eq!(ok(init, Space::SharedCta, 0x100_0400, 1), Ok(()));
    assert_eq!(
        ok(init, Space::SharedCta, 0x200_0400, 1),
        Err("mbarrier.shared::cta")
    );
    // the count: 1 to 2^20 - 1
    assert_eq!(ok(init, Space::Generic, own, 0), Err("mbarrier.init.count"));
    assert_eq!(ok(init, Space::Generic, own, (1 << 20) - 1), Ok(()));
    assert_eq!(
        ok(init, Space::Generic, own, 1 << 20),
        Err("mbarrier.init.count")
    );
    // arrive and expect_tx may name another CTA of the cluster
    let arrive = |drop, count, tx| MbarOp::Arrive { drop, count, tx };
    for op in [arrive(false, false, false), arrive(true, true, false)] {
        assert_eq!(ok(op, Space::Generic, other, 1), Ok(()), "{op:?}");
        assert_eq!(ok(op, Space::SharedCluster, 0x200_0400, 1), Ok(()));
        assert_eq!(
            ok(op, Space::SharedCta, 0x200_0400, 1),
            Err("mbarrier.shared::cta")
        );
    }
    assert_eq!(
        ok(arrive(true, true, false), Space::Generic, own, 0),
        Err("mbarrier.arrive_drop.count")
    );
    assert_eq!(
        ok(arrive(false, true, false), Space::Generic, own, 1 << 20),
        Err("mbarrier.arrive.count")
    );
    // no count operand: the count is 1, nothing to check
    assert_eq!(
        ok(arrive(false, false, false), Space::Generic, own, 0),
        Ok(())
    );
    for op in [
        MbarOp::ExpectTx,
        MbarOp::CompleteTx,
        arrive(false, false, true),
    ] {
        assert_eq!(ok(op, Space::Generic, other, 0), Ok(()), "{op:?}");
        assert_eq!(ok(op, Space::Generic, other, (1 << 20) - 1), Ok(()));
        assert_eq!(
            ok(op, Space::Generic, other, 1 << 20),
            Err("mbarrier.tx-count")
        );
    }
    // the waits: the executing CTA's object; parity 0 or 1
    let wait = MbarOp::Wait { parity: true };
    assert_eq!(ok(wait, Space::SharedCta, 0x100_0400, 1), Ok(()));
    assert_eq!(
        ok(wait, Space::SharedCta, 0x100_0400, 2),
        Err("mbarrier.test_wait.parity")
    );
    assert_eq!(
        ok(wait, Space::Generic, other, 0),
        Err("mbarrier.test_wait.generic-shared::cta")
    );
    assert_eq!(
        ok(MbarOp::CpAsyncArrive, Space::Generic, other, 0),
        Err("cp.async.mbarrier.arrive.generic-shared::cta")
    );
    // a bulk copy to .shared::cta: the executing CTA's mbarrier; to
    // .shared::cluster: any CTA's
    assert_eq!(
        ok(MbarOp::Bulk, Space::SharedCta, 0x200_0400, 0),
        Err("mbarrier.shared::cta")
    );
    assert_eq!(
        ok(MbarOp::Bulk, Space::SharedCluster, 0x200_0400, 0),
        Ok(())
    );
    assert_eq!(
        ok(MbarOp::StAsync, Space::Generic, 0x7f00_0000_0000, 0),
        Err("st.async.mbar.generic-shared")
    );
    // the counts' sentences are crate::mbarrier's, which the simulator
    // reports for the object's own rules
    let u = crate::mbarrier::Undefined::INIT_COUNT;
    assert_eq!(
        (table::MBAR_INIT_COUNT.section, table::MBAR_INIT_COUNT.rule),
        (u.section, u.rule)
    );
}

#[test]
fn bulk_copies_and_st_async_between_ctas() {
    let p = WindowProfile::SM90;
    let with = |pre: &Precondition, e: Env| holds(&p, &pre.holds, &e);
    // shared::cta -> shared::cluster: another CTA's part (rank 1 runs)
    let other = |addr| with(&table::BULK_DST_OTHER_CTA, Env { addr, ..env() });
    assert!(other(0x200_0000) && other(0x0ff_fff0) && !other(0x100_0000) && !other(0x1ff_fff0));
    // ctaMask: a cluster of 4 has bits 0 to 3 (the operand is 16 bits)
    let mask = |cta_mask, cluster_size| {
        with(
            &table::BULK_CTA_MASK,
            Env {
                cta_mask,
                cluster_size,
                ..env()
            },
        )
    };
    assert!(mask(0xf, 4) && !mask(0x10, 4) && mask(0x1_0003, 4) && mask(0xffff, 16));
    assert!(mask(0x1, 1) && !mask(0x2, 1));
    // st.async: a and mbar in one CTA, generic or shared::cluster alike
    assert_eq!(p.shared_base % (1 << p.rank_shift), 0);
    let same = |addr, mbar| {
        with(
            &table::ST_ASYNC_SAME_CTA,
            Env {
                addr,
                mbar,
                ..env()
            },
        )
    };
    assert!(same(0x200_0010, 0x200_0400) && !same(0x200_0010, 0x300_0400));
    assert!(same(0x7fe0_0200_0010, 0x7fe0_0200_0400));
    assert!(!same(0x7fe0_0200_0010, 0x7fe0_0100_0400));
}

/// The tensor copies' and `tensormap.replace`'s rules on their operands,
/// worked by hand from the SM90 profile (parameter window at
/// 0x7fdf_da28_0210, shared window at 0x7fe0_0000_0000, 16 MiB a CTA),
/// for the CTA of rank 1 in a cluster of 4; the value ranges are the
/// sentences of `tensor::replace::RULES`.
#[test]
fn tensor_operands_alignment_windows_and_values() {
    use crate::tensor::replace::RULES;
    let p = WindowProfile::SM90;
    let shared = 0x7fe0_0000_0000u64;
    let holds = |pre: &Precondition, e: Env| check(&p, pre, &e).is_ok();
    let map = |m: u64| Env {
        map: m,
        param_bytes: 256,
        ..env()
    };
    // a parameter map: aligned in the parameter space, not as an address
    let param = 0x7fdf_da28_0210u64;
    assert!(holds(&table::TENSOR_MAP_SPACE, map(param)));
    assert!(holds(&table::TENSOR_MAP_ALIGNED, map(param + 64)));
    assert!(!holds(&table::TENSOR_MAP_ALIGNED, map(param + 16)));
    // a global map: the address's alignment; a shared one: outside
    assert!(holds(&table::TENSOR_MAP_ALIGNED, map(0x7f00_0000_0040)));
    assert!(!holds(&table::TENSOR_MAP_ALIGNED, map(0x7f00_0000_0050)));
    assert!(!holds(&table::TENSOR_MAP_SPACE, map(shared + 0x100_0400)));
    // the shared address: 128 bytes
    let at = |a: u64| Env {
        addr: a,
        param_bytes: 256,
        ..env()
    };
    assert!(holds(&table::TENSOR_SMEM_ALIGNED, at(0x100_0480)));
    assert!(!holds(&table::TENSOR_SMEM_ALIGNED, at(0x100_0470)));
    // the mbarrier in the destination's CTA
    let both = |a: u64, m: u64| Env {
        addr: a,
        mbar: m,
        ..env()
    };
    assert!(holds(
        &table::TENSOR_MBAR_SAME_CTA,
        both(0x100_0400, 0x100_0008)
    ));
    assert!(!holds(
        &table::TENSOR_MBAR_SAME_CTA,
        both(0x200_0400, 0x100_0008)
    ));
    // im2col offsets by .dim
    let a = |v: u64| Env { a: v, ..env() };
    assert!(table::im2col_offset(3).is_none());
    let four = table::im2col_offset(4).unwrap();
    assert!(holds(four, a(255)) && !holds(four, a(256)));
    let five = table::im2col_offset(5).unwrap();
    assert!(holds(five, a(31)) && !holds(five, a(32)));
    // tensormap.replace: the param window is not .global here; the own
    // CTA's shared memory is .shared::cta, another CTA's is not
    let w = &table::TENSORMAP_REPLACE_WINDOW;
    assert!(holds(w, at(0x7f00_0000_0000)));
    assert!(!holds(w, at(param + 64)));
    assert!(holds(w, at(shared + 0x100_0400)));
    assert!(!holds(w, at(shared + 0x200_0400)));
    assert!(holds(
        &table::TENSORMAP_REPLACE_ALIGNED,
        at(0x7f00_0000_0040)
    ));
    assert!(!holds(
        &table::TENSORMAP_REPLACE_ALIGNED,
        at(0x7f00_0000_0020)
    ));
    use crate::tensor::Field;
    let value = |f: Field| table::tensormap_replace_value(f).unwrap();
    let edges: [(Field, u64, u64); 6] = [
        (Field::Rank, 4, 5),
        (Field::BoxDim, 256, 257),
        (Field::BoxDim, 1, 0),
        (Field::GlobalDim, 1, 0),
        (Field::ElementStride, 8, 9),
        (Field::GlobalStride, (1 << 40) - 16, 1 << 40),
    ];
    for (f, ok, bad) in edges {
        assert!(holds(value(f), a(ok)) && !holds(value(f), a(bad)), "{f:?}");
    }
    assert!(!holds(value(Field::GlobalAddress), a(0x7f00_0000_0008)));
    // the sentences are replace's own
    for f in Field::ALL {
        if let Some(pre) = table::tensormap_replace_value(f) {
            assert!(RULES.iter().any(|r| r.text == pre.rule), "{}", pre.id);
        }
    }
}

/// The rules on a tensor map's fields read as the model's functions check
/// them: the box's alignment as `tile_load` finds it (f32 and u8 maps,
/// negative first coordinates included), a store's coordinates as `.s32`,
/// the im2col filter's corner against an inclusive, signed Bounding Box.
#[test]
fn tensor_map_field_rules_agree_with_the_model() {
    use crate::sim::undefined::Effect;
    use crate::tensor::{tile_load, MapText, TensorError};
    let p = WindowProfile::SM90;
    let with = |pre: &Precondition, e: Env| holds(&p, &pre.holds, &e);
    let zeros = |_: u64, n: usize| Some(vec![0u8; n]);
    for (fields, elem) in [
        ("type=f32,dims=64x32,box=32x8,base=0x100000", 4i64),
        ("type=u8,dims=64x32,box=16x8,base=0x100000", 1),
    ] {
        let map = MapText::parse(fields).unwrap().map;
        for c0 in -40i32..40 {
            let model = tile_load(&map, &[c0, 0], 0, &zeros);
            let misaligned = matches!(model, Err(TensorError::MisalignedBox { .. }));
            let e = Env {
                box_offset: (i64::from(c0) * elem) as u64,
                ..env()
            };
            assert_eq!(
                with(&table::TENSOR_BOX_ALIGNED, e),
                !misaligned,
                "{fields} {c0}"
            );
        }
    }
    let coord = |c: i32| Env {
        coord: i64::from(c) as u64,
        ..env()
    };
    for (c, ok) in [
        (0, true),
        (1, true),
        (i32::MAX, true),
        (-1, false),
        (i32::MIN, false),
    ] {
        assert_eq!(with(&table::TENSOR_COORD_NON_NEGATIVE, coord(c)), ok, "{c}");
    }
    let inside = |c: i32, lower: i64, upper: i64| {
        let e = Env {
            lower: lower as u64,
            upper: upper as u64,
            ..coord(c)
        };
        with(&table::TENSOR_IM2COL_FILTER, e)
    };
    for (c, ok) in [(-2, false), (-1, true), (0, true), (8, true), (9, false)] {
        assert_eq!(inside(c, -1, 8), ok, "{c}");
    }
    assert!(!inside(i32::MIN, -1, 8) && !inside(i32::MAX, -1, 8));
    assert!(inside(-5, -7, -3) && !inside(-2, -7, -3));
    let dim = |map_rank: u64, dim: u64| Env {
        map_rank,
        dim,
        ..env()
    };
    assert!(with(&table::TENSOR_MAP_DIM, dim(2, 2)));
    assert!(!with(&table::TENSOR_MAP_DIM, dim(3, 2)));
    for pre in table::TENSOR_MAP_RULES {
        assert_eq!(pre.effect, Effect::Behaviour, "{}", pre.id);
        assert!(table::all().contains(pre), "{}", pre.id);
    }
}

/// The rules of the arithmetic, atomic and warp instructions (issue 18),
/// worked by hand: `fns`'s base against `arith::int::fns` (which refuses a
/// base above 31), barrier identifiers 0..=15 and counts in warps, the
/// windows a generic `atom` may use (SM90: shared at 0x7fe0_0000_0000,
/// local at 0x7fdf_ddff_0000... as `isspacep` says), the member bit.
#[test]
fn arithmetic_atomic_and_warp_rules() {
    let p = WindowProfile::SM90;
    let with = |pre: &Precondition, e: Env| holds(&p, &pre.holds, &e);
    for base in 0..70u32 {
        let ok = with(
            &table::FNS_BASE,
            Env {
                b: u64::from(base),
                ..env()
            },
        );
        assert_eq!(ok, base <= 31, "{base}");
        let sim = crate::arith::int::fns(0xf0f0, base, 1).is_some();
        assert_eq!(ok, sim, "{base}");
    }
    let bar = |a, b| with(&table::BAR_OPERANDS, Env { a, b, ..env() });
    assert!(bar(0, 0) && bar(15, 32) && bar(15, 1024));
    assert!(!bar(16, 0) && !bar(0, 48) && !bar(0, 1) && !bar(u64::MAX, 0));
    let arrive = |a, b| with(&table::BAR_ARRIVE_OPERANDS, Env { a, b, ..env() });
    assert!(arrive(0, 32) && arrive(15, 1024));
    assert!(!arrive(0, 0) && !arrive(16, 32) && !arrive(0, 48));
    let in_window = |space: Space, addr| {
        let e = Env { addr, ..env() };
        crate::precond::holds(&p, &Cond::InSpace(space, &Term::Var(Var::Addr)), &e)
    };
    let shared = 0x7fe0_0000_0010u64;
    let local = p.local_base + 16;
    let constant = p.const_base;
    let global = 0x7f00_0000_0000u64;
    assert!(in_window(Space::Local, local) && in_window(Space::Const, constant));
    for pre in [&table::ATOM_GENERIC_SPACE, &table::RED_GENERIC_SPACE] {
        let at = |addr| with(pre, Env { addr, ..env() });
        assert!(at(shared) && at(global), "{}", pre.id);
        assert!(!at(local) && !at(constant), "{}", pre.id);
    }
    for pre in [
        &table::BAR_WARP_SYNC_MEMBER,
        &table::VOTE_SYNC_MEMBER,
        &table::REDUX_SYNC_MEMBER,
        &table::ELECT_SYNC_MEMBER,
        &table::MATCH_SYNC_MEMBER,
    ] {
        let member = |mask, lane| {
            with(
                pre,
                Env {
                    mask,
                    lane,
                    ..env()
                },
            )
        };
        assert!(member(1 << 7, 7) && !member(!(1u64 << 7), 7) && !member(0, 0));
    }
    // the selection: alignment, then the window (generic only), then the
    // cache hint's global rule (generic with the hint only)
    assert_eq!(table::atom(false, false, true), vec![&table::ALIGNED]);
    assert_eq!(
        table::atom(true, true, true),
        vec![
            &table::ALIGNED,
            &table::RED_GENERIC_SPACE,
            &table::HINT_GLOBAL
        ]
    );
    assert_eq!(
        table::atom(false, true, false),
        vec![&table::ALIGNED, &table::ATOM_GENERIC_SPACE]
    );
    // the simulator's own warp clauses are the table's
    use crate::sim::vote::{warp_sync, VoteMode, WarpLane, WarpOp};
    let lanes: [WarpLane; 32] = std::array::from_fn(|_| WarpLane::Executes {
        a: 1,
        membermask: 0xffff_fffe,
    });
    for op in [
        WarpOp::Vote(VoteMode::Ballot),
        WarpOp::Elect,
        WarpOp::Match {
            all: false,
            wide: false,
        },
    ] {
        match warp_sync(op, &lanes)[0] {
            Some(Err(u)) => {
                let pre = table::warp_member(op);
                assert_eq!((u.section, u.rule), (pre.section, pre.rule));
            }
            ref other => panic!("{other:?}"),
        }
    }
    let all = table::all();
    for pre in [
        &table::FNS_BASE,
        &table::ATOM_GENERIC_SPACE,
        &table::RED_GENERIC_SPACE,
        &table::BAR_WARP_SYNC_MEMBER,
        &table::VOTE_SYNC_MEMBER,
        &table::REDUX_SYNC_MEMBER,
        &table::ELECT_SYNC_MEMBER,
        &table::MATCH_SYNC_MEMBER,
        &table::BAR_OPERANDS,
        &table::BAR_ARRIVE_OPERANDS,
    ] {
        assert!(all.iter().any(|q| std::ptr::eq(*q, pre)), "{}", pre.id);
    }
}
