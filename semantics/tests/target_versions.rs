//! `Target::min_ptx` against ptxas 13.0: corpus/legality/target-versions.tsv
//! holds its verdict on a trivial module of each `.target` under every PTX
//! ISA version from 1.0 to 9.0 (tools/legality/target_versions.sh, run on
//! the GPU machine). ptxas accepts exactly the versions from `min_ptx` on.

use ptx_semantics::catalogue::{PtxVersion, Target};

#[test]
fn min_ptx_is_where_ptxas_starts_accepting() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../corpus/legality/target-versions.tsv"
    );
    let text = std::fs::read_to_string(path).expect("corpus/legality/target-versions.tsv");
    let mut rows = 0;
    let mut wrong = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let target = Target::parse(f[0]).expect("a target");
        let (major, minor) = f[1].split_once('.').expect("a version");
        let version = PtxVersion::new(major.parse().unwrap(), minor.parse().unwrap());
        let ours = version >= target.min_ptx();
        let ptxas = f[3] == "accept";
        if ours != ptxas {
            wrong.push(format!("{line} (min_ptx {})", target.min_ptx()));
        }
        rows += 1;
    }
    assert_eq!(rows, 32 * 43, "one verdict per target and version");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
