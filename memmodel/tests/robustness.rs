//! The model never panics: mutated litmus tests that still parse are
//! decided under both models or rejected with an error. Seeds are our own
//! tests and the Dat3M `Manual` tests. `MEMMODEL_FUZZ_ITERS` sets the number
//! of mutants (default 300).

use std::path::Path;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Replacements that keep a test parseable more often than random bytes do.
const SWAPS: &[(&str, &str)] = &[
    ("weak", "relaxed.gpu"),
    ("relaxed", "acquire"),
    ("release", "relaxed"),
    ("acquire", "relaxed"),
    ("cta", "cluster"),
    ("cluster", "sys"),
    ("gpu", "cta"),
    ("cta 1", "cta 0"),
    ("cluster 0", "cluster 1"),
    ("== 1", "== 0"),
    ("== 0", "!= 0"),
    ("exists", "forall"),
    ("forall", "~exists"),
    (", 1", ", 2"),
    ("wait_group 0", "wait_group 1"),
    ("mbarrier bar = 1", "mbarrier bar = 2"),
    ("fence.proxy.async", "fence.sc.cta"),
    ("x,", "y,"),
    ("bar.cta.sync 1", "bar.cta.arrive 1"),
];

fn seeds() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in [
        root.join("tests/litmus/cluster"),
        root.join("tests/litmus/async-proxy"),
        root.join("tests/litmus/cp-async"),
        root.join("tests/litmus/mbarrier"),
        root.join("../litmus/tests/dat3m-ptx/Manual"),
    ] {
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .expect("seed folder")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "litmus"))
            .collect();
        files.sort();
        out.extend(
            files
                .iter()
                .map(|p| std::fs::read_to_string(p).expect("read seed")),
        );
    }
    out
}

#[test]
fn mutated_tests_are_decided_or_rejected() {
    let seeds = seeds();
    let iters: usize = std::env::var("MEMMODEL_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let mut rng = Rng(0x0DDB_1A5E_5BAD_5EED);
    let mut decided = 0;
    for _ in 0..iters {
        let mut text = seeds[rng.below(seeds.len())].clone();
        for _ in 0..1 + rng.below(3) {
            let (from, to) = SWAPS[rng.below(SWAPS.len())];
            let hits: Vec<usize> = text.match_indices(from).map(|(i, _)| i).collect();
            if let Some(&at) = hits.get(rng.below(hits.len().max(1))) {
                text.replace_range(at..at + from.len(), to);
            }
        }
        let Ok(test) = ptx_litmus::parse(&text) else {
            continue;
        };
        for model in [ptx_memmodel::Model::Ptx75, ptx_memmodel::Model::Ptx60] {
            let r = std::panic::catch_unwind(|| ptx_memmodel::check(&test, model));
            match r {
                Err(_) => panic!("the model panicked under {}:\n{text}", model.name()),
                Ok(Ok(_)) => decided += 1,
                Ok(Err(_)) => {}
            }
        }
    }
    assert!(
        decided > iters / 4,
        "only {decided} decisions: the mutator breaks too much"
    );
}
