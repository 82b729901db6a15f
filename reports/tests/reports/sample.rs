//! A small run built by hand, with every kind of group the reports treat
//! differently. Totals and families are summed from the groups.

use ptx_reports::{
    CaseFailure, Counts, Field, GroupResult, Implementation, Results, SuiteInfo, SCHEMA,
};
use std::collections::BTreeMap;

pub const SCRIPT: &str = "<script>alert(1)</script>";

pub fn field(name: &str, hex: &str, decoded: &str) -> Field {
    Field {
        name: name.into(),
        hex: hex.into(),
        decoded: decoded.into(),
    }
}

fn counts(pass: u64, fail: u64, skip: u64, error: u64) -> Counts {
    Counts {
        pass,
        fail,
        skip,
        error,
        known: 0,
    }
}

fn group(id: &str, family: &str, form: &str, section: &str, c: Counts) -> GroupResult {
    GroupResult {
        id: id.into(),
        family: family.into(),
        form: form.into(),
        section: section.into(),
        provenance: "hardware".into(),
        counts: c,
        reason: None,
        seconds: 0.25,
        failures: vec![],
        digests: None,
        expect: None,
        detected: None,
    }
}

/// `prmt.b32/random` case `k`: `d` differs.
pub fn prmt_failure(k: usize) -> CaseFailure {
    CaseFailure {
        case: format!("prmt.b32/random#{k}"),
        inputs: vec![
            field("a", &format!("{:#010x}", 0x1000 + k), ""),
            field("c", "0x00003210", ""),
        ],
        expected: vec![field("d", &format!("{:#010x}", 0x2000 + k), "")],
        actual: vec![field("d", "0xdeadbeef", "")],
        mask: "0x00000000".into(),
    }
}

/// The groups, in suite order:
/// 0 `cvt.rn.f16.f32/edge`: 10 pass, 3 fail (all 3 listed), spec-only;
/// 1 `cvt.rz.f32.f64/random`: 16 pass;
/// 2 `prmt.b32/random`: 7 pass, 25 fail, 22 listed (more than the HTML shows);
/// 3 `st.global.u32/edge`: 8 error, a reason with markup and two lines;
/// 4 `ld.global.nc.v2.f32/edge`: 4 skip;
/// 5 `mov.b32/<script>`: 2 pass, 2 skip, markup in its id, form and reason;
/// 6 `mov.b64/empty`: no cases;
/// 7 `ld.global.u32/edge`: 4 skip, the same reason as group 4.
pub fn run() -> Results {
    let mut g0 = group(
        "cvt.rn.f16.f32/edge",
        "cvt",
        "cvt.rn.f16.f32",
        "9.7.9.21",
        counts(10, 3, 0, 0),
    );
    g0.provenance = "spec".into();
    g0.failures = vec![
        CaseFailure {
            case: "cvt.rn.f16.f32/edge#4".into(),
            inputs: vec![field("a", "0x477ff000", "65520")],
            expected: vec![field("d", "0x7c00", "inf")],
            actual: vec![field("d", "0x7bff", "65504")],
            mask: "0x0000".into(),
        },
        CaseFailure {
            case: "cvt.rn.f16.f32/edge#9".into(),
            inputs: vec![field("a", "0x33000001", "2.9802326e-8")],
            expected: vec![field("d", "0x0001", "5.9604645e-8")],
            actual: vec![field("d", "0x0000", "0")],
            mask: "0x0000".into(),
        },
        CaseFailure {
            case: "cvt.rn.f16.f32/edge#11".into(),
            inputs: vec![field("a", "0x7fc00001", "nan")],
            expected: vec![field("d", "0x7e00", "nan")],
            actual: vec![field("d", "0x7e01", "nan")],
            mask: "0x0000".into(),
        },
    ];
    let g1 = group(
        "cvt.rz.f32.f64/random",
        "cvt",
        "cvt.rz.f32.f64",
        "9.7.9.21",
        counts(16, 0, 0, 0),
    );
    let mut g2 = group(
        "prmt.b32/random",
        "prmt",
        "prmt.b32",
        "9.7.9.7",
        counts(7, 25, 0, 0),
    );
    g2.failures = (0..22).map(prmt_failure).collect();
    let mut g3 = group(
        "st.global.u32/edge",
        "st",
        "st.global.u32",
        "9.7.9.10",
        counts(0, 0, 0, 8),
    );
    g3.reason = Some(format!(
        "ptxas said {SCRIPT} & \"quoted\" 'words'\nsecond line\tafter a tab"
    ));
    let mut g4 = group(
        "ld.global.nc.v2.f32/edge",
        "ld",
        "ld.global.nc.v2.f32",
        "9.7.9.9",
        counts(0, 0, 4, 0),
    );
    g4.reason = Some("needs sm_100a | sm_101a".into());
    let mut g5 = group(
        &format!("mov.b32/{SCRIPT}"),
        "mov",
        &format!("mov.b32{SCRIPT}"),
        "9.7.9.1",
        counts(2, 0, 2, 0),
    );
    g5.reason = Some(format!("2 cases need sm_90 & {SCRIPT}"));
    let g6 = group(
        "mov.b64/empty",
        "mov",
        "mov.b64",
        "9.7.9.1",
        counts(0, 0, 0, 0),
    );
    let mut g7 = group(
        "ld.global.u32/edge",
        "ld",
        "ld.global.u32",
        "9.7.9.8",
        counts(0, 0, 4, 0),
    );
    g7.reason = Some("needs sm_100a | sm_101a".into());
    let groups = vec![g0, g1, g2, g3, g4, g5, g6, g7];

    let mut totals = Counts::default();
    let mut families: BTreeMap<String, Counts> = BTreeMap::new();
    for g in &groups {
        totals.merge(&g.counts);
        families
            .entry(g.family.clone())
            .or_default()
            .merge(&g.counts);
    }
    Results {
        schema: SCHEMA.into(),
        implementation: Implementation {
            name: "command:./my-ptx-vm".into(),
            version: "my-ptx-vm 2.3.1".into(),
            ptx_version: "8.5".into(),
            targets: vec!["sm_80".into(), "sm_90".into()],
            details: BTreeMap::from([("device".to_string(), "virtual <GPU> 7".to_string())]),
        },
        suite: SuiteInfo {
            path: "suites/small.suite".into(),
            seed: 987654321,
            generator: "ptx-gen 0.1.0".into(),
            groups: 12,
            cases: 120,
        },
        started: "2026-11-02T10:00:00Z".into(),
        duration_s: 75.0,
        complete: false,
        totals,
        families,
        groups,
    }
}

/// The same run, complete and with only passing groups.
pub fn passing_run() -> Results {
    let mut r = run();
    r.groups
        .retain(|g| g.counts.fail == 0 && g.counts.error == 0);
    r.complete = true;
    r.suite.groups = r.groups.len();
    r.totals = Counts::default();
    r.families.clear();
    for g in &r.groups {
        r.totals.merge(&g.counts);
        r.families
            .entry(g.family.clone())
            .or_default()
            .merge(&g.counts);
    }
    r.suite.cases = r.totals.total();
    r
}

/// Group counts per family, by the rule the reports document: error if any
/// case could not run, else fail if any failed, else skip if some were
/// skipped and none passed, else pass.
pub fn groups_by_family(r: &Results) -> BTreeMap<String, Counts> {
    let mut m: BTreeMap<String, Counts> = BTreeMap::new();
    for g in &r.groups {
        let c = &g.counts;
        let e = m.entry(g.family.clone()).or_default();
        if c.error > 0 {
            e.error += 1;
        } else if c.fail > 0 {
            e.fail += 1;
        } else if c.pass == 0 && c.skip > 0 {
            e.skip += 1;
        } else {
            e.pass += 1;
        }
    }
    m
}
