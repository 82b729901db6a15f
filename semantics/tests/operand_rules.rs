//! Operand rules probed with ptxas 13.0 for sm_90 on small modules
//! (`tests/data/operand_rules`, with ptxas's exit status and message in
//! `verdicts.tsv`): the generic `prefetch.tensormap` refuses a `.const` or
//! `.param` variable's name ("State space mismatch between instruction and
//! address") and takes a `.global` one; the forms that name the space take
//! them; a predicated `ld.param`, repeated registers in a vector
//! destination (`{%r1, %r1}`: undefined by PTX ISA 6.4.3, accepted by
//! ptxas) are accepted; a vector of sinks only is refused. The checker must
//! give ptxas's verdict on each.

use ptx_semantics::catalogue::Target;
use ptx_semantics::check::{check_module, Options};
use ptx_semantics::ptx::parse;

#[test]
fn operands_get_ptxas_verdicts() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/operand_rules");
    let verdicts = std::fs::read_to_string(dir.join("verdicts.tsv")).unwrap();
    let mut wrong = Vec::new();
    let mut seen = 0;
    for line in verdicts.lines().filter(|l| !l.starts_with('#')) {
        let mut cols = line.split('\t');
        let (Some(file), Some(status)) = (cols.next(), cols.next()) else {
            continue;
        };
        let message = cols.next().unwrap_or("");
        let src = std::fs::read_to_string(dir.join(file)).unwrap();
        let options = Options {
            arch: Target::parse("sm_90"),
            ..Options::default()
        };
        let found = match parse(&src) {
            Ok(m) => check_module(&m, &options)
                .into_iter()
                .map(|d| d.message)
                .collect(),
            Err(e) => vec![e.message],
        };
        let rejects = status != "0";
        if found.is_empty() == rejects {
            wrong.push(format!(
                "{file}: ptxas {status} {message}; conform {found:?}"
            ));
        }
        seen += 1;
    }
    assert_eq!(seen, 13, "every probe has a verdict");
    assert!(
        wrong.is_empty(),
        "{} disagree:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
