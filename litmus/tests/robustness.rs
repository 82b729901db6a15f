//! Mutated litmus files never make the reader panic: each one either parses
//! (and then round-trips) or is rejected with an error located inside the
//! input. `LITMUS_FUZZ_ITERS` sets the number of mutants (default 3000).

use std::path::Path;

/// A small deterministic generator (xorshift64*), so failures reproduce.
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

/// Characters that matter to the grammar, plus a few that do not belong.
const ALPHABET: &[&str] = &[
    "|",
    ";",
    ",",
    ":",
    "@",
    "{",
    "}",
    "(",
    ")",
    "~",
    "/\\",
    "\\/",
    "==",
    "!=",
    "=",
    "\"",
    "(*",
    "*)",
    "\n",
    " ",
    "P",
    "0",
    "9",
    "-",
    "0x",
    "r1",
    "x",
    "LC00",
    "ld.",
    "st.",
    ".weak",
    ".gpu",
    "exists",
    "forall",
    "é",
    "\t",
    "[",
    "]",
    "99999999999999999999",
];

fn mutate(rng: &mut Rng, src: &str) -> String {
    let mut s: Vec<char> = src.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(s.len() + 1);
        match rng.below(3) {
            0 if !s.is_empty() => {
                let end = (at + 1 + rng.below(8)).min(s.len());
                s.drain(at.min(s.len())..end);
            }
            1 => {
                let piece: Vec<char> = ALPHABET[rng.below(ALPHABET.len())].chars().collect();
                let at = at.min(s.len());
                s.splice(at..at, piece);
            }
            _ => {
                if at < s.len() {
                    let piece: Vec<char> = ALPHABET[rng.below(ALPHABET.len())].chars().collect();
                    s.splice(at..at + 1, piece);
                }
            }
        }
    }
    s.into_iter().collect()
}

#[test]
fn mutants_parse_or_fail_with_a_location() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/dat3m-ptx/Manual");
    let mut seeds: Vec<String> = std::fs::read_dir(&dir)
        .expect("read seeds")
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "litmus").then(|| std::fs::read_to_string(p).ok())?
        })
        .collect();
    seeds.sort();
    assert!(seeds.len() > 50, "seed corpus missing");
    let iters: usize = std::env::var("LITMUS_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut parsed, mut rejected) = (0usize, 0usize);
    for _ in 0..iters {
        let seed = &seeds[rng.below(seeds.len())];
        let input = mutate(&mut rng, seed);
        let result = std::panic::catch_unwind(|| ptx_litmus::parse(&input));
        match result {
            Err(_) => panic!("the reader panicked on:\n{input}"),
            Ok(Ok(test)) => {
                parsed += 1;
                let again = ptx_litmus::parse(&ptx_litmus::print(&test));
                assert_eq!(again.as_ref(), Ok(&test), "round trip failed for:\n{input}");
            }
            Ok(Err(e)) => {
                rejected += 1;
                let lines = input.split('\n').count();
                assert!(
                    e.line >= 1 && e.line <= lines,
                    "line {} out of range for:\n{input}",
                    e.line
                );
                assert!(e.col >= 1, "column 0 for:\n{input}");
            }
        }
    }
    // Both outcomes must occur, or the mutator is not exercising the reader.
    assert!(
        parsed > 0 && rejected > 0,
        "parsed {parsed}, rejected {rejected}"
    );
}
