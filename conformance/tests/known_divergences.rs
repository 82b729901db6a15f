//! `conform run --known`: a case that differs from the spec exactly as a
//! documented divergence says is `known`, not `fail`; anything else that
//! differs still fails. The implementation is `conform-faulty` with the
//! seeded fault `rm-rp-swapped` (it computes `.rp` for `.rm` and the
//! reverse), and the lists say so, wholly or in part, or wrongly.

use std::path::{Path, PathBuf};
use std::process::Command;

const CONFORM: &str = env!("CARGO_BIN_EXE_conform");
const FAULTY: &str = env!("CARGO_BIN_EXE_conform-faulty");

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("conform-known-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn run(suite: &Path, out: &Path, known: &Path) -> (i32, serde_json::Value) {
    let o = Command::new(CONFORM)
        .args([
            "run",
            "--impl",
            &format!("command:{FAULTY}"),
            "-q",
            "--suite",
        ])
        .arg(suite)
        .arg("--out")
        .arg(out)
        .arg("--known")
        .arg(known)
        .env("PTX_CONFORM_FAULT", "rm-rp-swapped")
        .output()
        .unwrap();
    let text = std::fs::read_to_string(out.join("results.json"))
        .unwrap_or_else(|e| panic!("no results ({e}): {}", String::from_utf8_lossy(&o.stderr)));
    (
        o.status.code().unwrap_or(-1),
        serde_json::from_str(&text).unwrap(),
    )
}

#[test]
fn only_what_the_list_explains_is_known() {
    let dir = scratch("t");
    let suite = dir.join("suite");
    let o = Command::new(CONFORM)
        .args(["gen", "-q", "--random", "256", "--out"])
        .arg(&suite)
        .args(["--filter", "cvt.rm.f16.f32*", "--filter", "cvt.rp.f16.f32*"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let list = |name: &str, lines: &[&str]| {
        let p = dir.join(name);
        std::fs::write(&p, format!("# form\trule\twhy\n{}\n", lines.join("\n"))).unwrap();
        p
    };
    let both = list(
        "both.tsv",
        &[
            "cvt.rm.f16.f32\tas:cvt.rp.f16.f32\tit rounds up",
            "cvt.rp.f16.f32\tas:cvt.rm.f16.f32\tit rounds down",
        ],
    );
    let one = list(
        "one.tsv",
        &["cvt.rm.f16.f32\tas:cvt.rp.f16.f32\tit rounds up"],
    );
    let wrong = list(
        "wrong.tsv",
        &[
            "cvt.rm.f16.f32\tas:cvt.rz.f16.f32\tit truncates",
            "cvt.rp.f16.f32\tas:cvt.rz.f16.f32\tit truncates",
        ],
    );
    // every difference documented: known, exit 0
    let (code, r) = run(&suite, &dir.join("out-both"), &both);
    assert_eq!(code, 0, "{}", r["totals"]);
    assert_eq!(r["totals"]["fail"], 0);
    assert!(r["totals"]["known"].as_u64().unwrap() > 0);
    let g = r["groups"].as_array().unwrap();
    let rm = g.iter().find(|g| g["id"] == "cvt.rm.f16.f32/edge").unwrap();
    assert_eq!(rm["reason"], "it rounds up");
    assert!(r["implementation"]["details"]["known_divergences"]
        .as_str()
        .unwrap()
        .ends_with("both.tsv"));
    // one form listed: the other still fails
    let (code, r) = run(&suite, &dir.join("out-one"), &one);
    assert_eq!(code, 1);
    for g in r["groups"].as_array().unwrap() {
        let id = g["id"].as_str().unwrap();
        if id.starts_with("cvt.rm.") {
            assert_eq!(g["counts"]["fail"], 0, "{id}");
        } else {
            assert!(g["counts"]["fail"].as_u64().unwrap() > 0, "{id}");
            assert_eq!(g["counts"]["known"], 0, "{id}");
        }
    }
    // a list that does not describe what the implementation does explains
    // nothing that differs
    let (code, r) = run(&suite, &dir.join("out-wrong"), &wrong);
    assert_eq!(code, 1);
    assert!(r["totals"]["fail"].as_u64().unwrap() > 0);
    // the JUnit report skips known groups, the HTML counts them
    let junit = std::fs::read_to_string(dir.join("out-both/junit.xml")).unwrap();
    assert!(
        junit.contains("differ as a documented divergence: it rounds up"),
        "{junit}"
    );
    assert!(!junit.contains("<failure"), "{junit}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_shipped_sm_90_list_loads_and_a_bad_list_is_a_usage_error() {
    let dir = scratch("bad");
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.tsv");
    std::fs::write(&bad, "cvt.rn.f16.f32\tas:cvt.nonsense\twhy\n").unwrap();
    for (known, ok) in [("sm_90", true), (bad.to_str().unwrap(), false)] {
        let o = Command::new(CONFORM)
            .args([
                "run",
                "--impl",
                "simulator",
                "-q",
                "--filter",
                "prmt.b32*",
                "--known",
                known,
                "--out",
            ])
            .arg(dir.join(format!("out-{ok}")))
            .env("PTX_CONFORM_CACHE", dir.join("cache"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        if ok {
            assert!(o.status.success(), "{err}");
        } else {
            assert_eq!(o.status.code(), Some(2), "{err}");
            assert!(
                err.contains("bad.tsv:1: `cvt.nonsense` is no conversion form"),
                "{err}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The shipped sm_90 list covers the bulk-reduction divergence
/// (corpus/suite/sm_90/bulk-divergences.tsv): in the two `.add.f32`
/// groups with subnormals, a row is known exactly when it holds
/// `reduce_sm90`'s bits (subnormals kept), and the spec's own expected row
/// is not explained where the two differ.
#[test]
fn the_bulk_reduction_divergence_is_known_exactly() {
    use ptx_conformance::run::known::Known;
    use ptx_gen::suite::{bulk, Options};
    let known = Known::load("sm_90").unwrap();
    let mut groups = 0;
    let mut differing_rows = 0;
    for p in bulk::plans() {
        let b = p.build(&Options::default()).unwrap();
        let g = &b.group;
        let rule = known.for_group(g);
        if !bulk::divergent(&g.id) {
            assert!(rule.is_none(), "{}", g.id);
            continue;
        }
        let rule = rule.unwrap_or_else(|| panic!("{}: not in the list", g.id));
        groups += 1;
        let sm90 = bulk::sm90_rows(&b).unwrap();
        let (irow, orow) = (g.input.row as usize, g.output.row as usize);
        for (k, (inp, hw)) in b.input.chunks(irow).zip(sm90.chunks(orow)).enumerate() {
            let mask = (!b.mask.is_empty()).then(|| &b.mask[k * orow..(k + 1) * orow]);
            let spec = &b.expected[k * orow..(k + 1) * orow];
            assert!(rule.explains(g, inp, hw, mask), "{} row {k}", g.id);
            if spec != hw {
                differing_rows += 1;
                assert!(!rule.explains(g, inp, spec, mask), "{} row {k}", g.id);
            }
            // a bit the mask does not free, changed
            if let Some(j) = (0..hw.len()).find(|&j| mask.is_none_or(|m| m[j] != 0xff)) {
                let free = mask.map_or(0, |m| m[j]);
                let bit = (0..8).map(|b| 1u8 << b).find(|b| free & b == 0).unwrap();
                let mut wrong = hw.to_vec();
                wrong[j] ^= bit;
                assert!(!rule.explains(g, inp, &wrong, mask), "{} row {k}", g.id);
            }
        }
    }
    assert_eq!(groups, 2);
    assert!(differing_rows > 0);
}
