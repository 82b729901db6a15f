//! Prints a hand-built results file with many groups and a few failures,
//! errors and skips, to try the reports on (`tools/report_screenshot.sh`):
//!
//!     cargo run -p ptx-reports --example sample > /tmp/sample.json
//!     cargo run -p ptx-reports --example sample -- --groups 200 --interrupted
//!
//! The values are made up; only their shape is that of a real run.

use ptx_reports::{
    CaseFailure, Counts, Field, GroupResult, Implementation, Results, Status, SuiteInfo, SCHEMA,
};
use std::collections::BTreeMap;

/// Families with a form, a spec section and a kind of group each.
const FAMILIES: &[(&str, &[&str], &str)] = &[
    (
        "cvt",
        &[
            "cvt.rn.f16.f32",
            "cvt.rz.f32.f64",
            "cvt.rni.s32.f32",
            "cvt.rn.satfinite.e4m3x2.f32",
            "cvt.rn.bf16x2.f32",
        ],
        "9.7.9.21",
    ),
    (
        "cvt.pack",
        &["cvt.pack.sat.u8.s32.b32", "cvt.pack.sat.s16.s32"],
        "9.7.9.22",
    ),
    ("mov", &["mov.b32", "mov.b64", "mov.b64 {lo,hi}"], "9.7.9.1"),
    (
        "prmt",
        &["prmt.b32", "prmt.b32.f4e", "prmt.b32.b4e", "prmt.b32.rc8"],
        "9.7.9.7",
    ),
    (
        "shfl.sync",
        &[
            "shfl.sync.up.b32",
            "shfl.sync.down.b32",
            "shfl.sync.bfly.b32",
            "shfl.sync.idx.b32",
        ],
        "9.7.9.6",
    ),
    (
        "ld",
        &["ld.global.u32", "ld.shared.v4.u32", "ld.global.nc.v2.f32"],
        "9.7.9.8",
    ),
    ("st", &["st.global.u32", "st.shared.v2.u64"], "9.7.9.10"),
    (
        "cvta",
        &["cvta.to.global.u64", "cvta.shared.u64"],
        "9.7.9.17",
    ),
];

const KINDS: &[&str] = &["edge", "random", "spaced", "exhaustive"];

fn main() {
    let mut groups_wanted = 2400usize;
    let mut complete = true;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--groups" => {
                groups_wanted = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--groups N")
            }
            "--interrupted" => complete = false,
            other => panic!("unknown argument {other} (--groups N, --interrupted)"),
        }
    }

    let mut groups = Vec::new();
    let mut i = 0usize;
    'outer: loop {
        for (family, forms, section) in FAMILIES {
            for form in *forms {
                for kind in KINDS {
                    if groups.len() == groups_wanted {
                        break 'outer;
                    }
                    groups.push(group(i, family, form, section, kind));
                    i += 1;
                }
            }
        }
    }
    let suite_groups = groups_wanted;
    if !complete {
        groups.truncate(groups.len() * 2 / 3);
    }

    let mut totals = Counts::default();
    let mut families: BTreeMap<String, Counts> = BTreeMap::new();
    for g in &groups {
        totals.merge(&g.counts);
        families
            .entry(g.family.clone())
            .or_default()
            .merge(&g.counts);
    }
    let results = Results {
        schema: SCHEMA.to_string(),
        implementation: Implementation {
            name: "simulator".into(),
            version: "ptx-conform 0.1.0 (simulator)".into(),
            ptx_version: "8.7".into(),
            targets: vec!["sm_80".into(), "sm_90".into(), "sm_90a".into()],
            details: BTreeMap::from([
                ("semantics".to_string(), "ptx-semantics 0.1.0".to_string()),
                ("threads".to_string(), "2".to_string()),
            ]),
        },
        suite: SuiteInfo {
            path: "suites/data-movement-2026-11.suite".into(),
            seed: 20261101,
            generator: "ptx-gen 0.1.0".into(),
            groups: suite_groups,
            cases: suite_groups as u64 * 256,
        },
        started: "2026-11-02T09:14:03Z".into(),
        duration_s: groups.iter().map(|g| g.seconds).sum::<f64>() + 1.7,
        complete,
        totals,
        families,
        groups,
    };
    println!(
        "{}",
        serde_json::to_string_pretty(&results).expect("results serialize")
    );
}

fn group(i: usize, family: &str, form: &str, section: &str, kind: &str) -> GroupResult {
    let id = format!("{form}/{kind}/{}", i / 100);
    let cases = 256u64;
    let mut counts = Counts::default();
    let mut reason = None;
    let mut failures = Vec::new();
    let provenance = if i % 3 == 0 { "spec" } else { "hardware" };
    if form.contains("e4m3") && kind == "edge" && i < 300 {
        // A few failing groups of a conversion with saturation.
        counts.add(Status::Fail, 3 + i as u64 % 40);
        counts.add(Status::Pass, cases - counts.fail);
        let n = counts.fail.min(25);
        for k in 0..n {
            failures.push(fp8_failure(&id, k));
        }
    } else if form == "prmt.b32.rc8" && kind == "random" && i < 400 {
        counts.add(Status::Fail, 1);
        counts.add(Status::Pass, cases - 1);
        failures.push(CaseFailure {
            case: format!("{id}#131"),
            inputs: vec![
                field("a", "0x80ff7f01", ""),
                field("b", "0x00000000", ""),
                field("c", "0x00000082", ""),
            ],
            expected: vec![field("d", "0xffffffff", "")],
            actual: vec![field("d", "0x80808080", "")],
            mask: "0x00000000".into(),
        });
    } else if family == "st" && kind == "exhaustive" && i % 7 == 0 {
        counts.add(Status::Error, cases);
        reason = Some(format!(
            "ptxas rejected the kernel (exit 255):\nptxas /tmp/conform-{i}.ptx, line 31; error   : \
             Unknown modifier '.v2.u64' for instruction 'st'\nptxas fatal   : Ptx assembly aborted due to errors"
        ));
    } else if form == "cvt.rn.bf16x2.f32" && kind != "edge" {
        counts.add(Status::Skip, cases);
        reason = Some("needs PTX ISA 8.1 and sm_89 (cvt.rn.bf16x2.f32 with .relu)".into());
    } else if family == "ld" && kind == "exhaustive" {
        counts.add(Status::Skip, cases);
        reason = Some("not selected (--only cvt,prmt,mov,shfl)".into());
    } else {
        counts.add(Status::Pass, cases);
    }
    GroupResult {
        id,
        family: family.into(),
        form: form.into(),
        section: section.into(),
        provenance: provenance.into(),
        counts,
        reason,
        seconds: 0.004 + (i % 13) as f64 * 0.0031,
        failures,
        digests: None,
        expect: None,
        detected: None,
    }
}

fn fp8_failure(id: &str, k: u64) -> CaseFailure {
    // Inputs just above the largest finite e4m3 value, which .satfinite
    // should clamp to 448 (0x7e); the made-up implementation gives NaN.
    let bits = 0x43e0_0000u32 + (k as u32) * 0x0002_0000;
    let value = f32::from_bits(bits);
    CaseFailure {
        case: format!("{id}#{}", 40 + 3 * k),
        inputs: vec![
            field("a", &format!("{bits:#010x}"), &format!("{value}")),
            field("b", "0x3f800000", "1"),
        ],
        expected: vec![field("d", "0x387e", "{1, 448}")],
        actual: vec![field("d", "0x387f", "{1, nan}")],
        mask: "0x0000".into(),
    }
}

fn field(name: &str, hex: &str, decoded: &str) -> Field {
    Field {
        name: name.into(),
        hex: hex.into(),
        decoded: decoded.into(),
    }
}
