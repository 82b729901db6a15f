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
