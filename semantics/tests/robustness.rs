//! Mutation fuzzing of the PTX front end and checker: no input, however
//! broken, makes `parse` or `check_module` panic or hang; every parse error
//! is located within the input; and whatever parses prints back to the same
//! tree.
//!
//! Inputs are mutations of the nvcc corpus and the hand-written samples,
//! made deterministically from a SplitMix64 stream per input index; one
//! mutation splices in vector register syntax (declarations, element
//! selectors, whole vectors, vector `mov`, `reg+imm`), well formed or not.
//! Every checker diagnostic is located within the input, and a module that
//! checks clean loads into the simulator without a panic.
//! `PTX_FUZZ_ITERS` sets how many inputs to run (default 20,000),
//! `PTX_FUZZ_SEED` the base seed, and `PTX_FUZZ_ONLY=i` reruns one input.
//! Failing inputs are written under the target's tmp folder.

use ptx_semantics::check::{check_module, Options};
use ptx_semantics::ptx::{line_col, FunctionKind, Stmt};
use ptx_semantics::ptx::{parse, print, Item, Module};
use ptx_semantics::sim::{self, WindowProfile};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Largest input tried.
const MAX_INPUT: usize = 64 * 1024;
/// An input that takes longer than this is reported as a hang.
const HANG_LIMIT: Duration = Duration::from_secs(20);
const DEFAULT_ITERS: u64 = 20_000;
const DEFAULT_SEED: u64 = 0x5054_585f_4655_5a5a;

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, good enough to fuzz.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// Tokens spliced into inputs: punctuation, directives, number prefixes,
/// and shapes that have broken parsers before.
const DICTIONARY: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    ";",
    ",",
    ":",
    "<",
    ">",
    "=",
    "!",
    "@",
    "@!",
    "|",
    "+",
    "-",
    "+-",
    "*",
    "/",
    "%",
    "~",
    "::",
    ".",
    "\"",
    "/*",
    "*/",
    "//",
    "\n",
    "\r\n",
    "\0",
    "\u{FEFF}",
    "é",
    ".reg",
    ".entry",
    ".func",
    ".param",
    ".global",
    ".shared",
    ".const",
    ".local",
    ".version",
    ".target",
    ".address_size",
    ".align",
    ".align 0",
    ".v4",
    ".v8",
    ".ptr",
    ".visible",
    ".extern",
    ".weak",
    ".common",
    ".pragma",
    ".loc",
    ".file",
    ".section",
    ".maxntid",
    ".noreturn",
    ".attribute(",
    "%r<",
    "%r<4294967295>",
    "%r<16777216>",
    "%tid.x",
    "_",
    "generic(",
    "0f",
    "0d",
    "0x",
    "0b",
    "0f3F800000",
    "0d3FF0000000000000",
    "1.5e308",
    "1e999",
    "0",
    "1U",
    "-1",
    "18446744073709551615",
    "18446744073709551616",
    "9223372036854775808",
    "-9223372036854775808",
    "4294967295",
    "4294967296",
    "340282366920938463463374607431768211456",
    "<<",
    ">>",
    "<< 127",
    "/ 0",
    "% 0",
    "ld.global.v4.u32",
    "mov.u32",
    "call.uni",
    "bra",
    "ret;",
    "$L__BB0_1:",
    // vector registers and their elements (PTX ISA 5.4.2, 6.4.3)
    ".reg .v2 .u32 v;",
    ".reg .v4 .b16 w;",
    ".reg .v8 .b32 e;",
    ".reg .v2 .pred pv;",
    ".v2",
    ".x",
    ".y",
    ".z",
    ".w",
    ".r",
    ".g",
    ".b",
    ".a",
    ".q",
    "v.x",
    "v.w",
    "v.q",
    "%r1.x",
    "%rd1 + 1",
    "%r1-4",
    "+ 4",
    "mov.v4.u16",
    "mov.v2.u32 v, v;",
    // prototypes, call target lists and call-site parameters (PTX ISA
    // 9.7.12.5, 11.4)
    ".callprototype",
    ".calltargets",
    "proto: .callprototype (.param .b32 _) _ (.param .b32 _);",
    "proto: .callprototype (.reg .f64) _ (.reg .s64);",
    "tgts: .calltargets f, g;",
    "call (pr), %rd1, (pa), proto;",
    "call (pr), f, (5);",
    ".param .align 8 .b8 pa[16];",
    ".param .b64 pr;",
    "_",
];

fn seed_paths() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("../corpus/nvcc/ptx");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .collect();
    files.sort();
    files.push(root.join("tests/data/sample.ptx"));
    files.push(root.join("tests/data/vectors.ptx"));
    files
}

fn seeds() -> Vec<Vec<u8>> {
    let seeds: Vec<Vec<u8>> = seed_paths()
        .iter()
        .map(|p| std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .collect();
    assert!(
        seeds.len() > 150,
        "corpus is missing: {} seeds",
        seeds.len()
    );
    seeds
}

/// A random range `start..end` of `len` bytes, mostly short.
fn range(rng: &mut SplitMix64, len: usize) -> (usize, usize) {
    let start = rng.below(len + 1);
    let max = if rng.chance(80) { 64 } else { len / 2 + 1 };
    let end = (start + rng.below(max + 1)).min(len);
    (start, end)
}

/// A statement of vector register syntax: a declaration, an element, a
/// whole vector, a vector `mov` or a `reg+imm` operand, well formed or
/// broken (a selector that is none, a selector on a scalar, a length that
/// does not match, a vector of predicates, a dangling `+`).
fn vector_snippet(rng: &mut SplitMix64) -> String {
    let pick = |rng: &mut SplitMix64, xs: &[&'static str]| xs[rng.below(xs.len())];
    let name = pick(
        rng,
        &["v", "w", "h", "foo", "%vv", "e", "%r1", "%rd1", "nope"],
    );
    let other = pick(rng, &["v", "w", "h", "foo", "%r2", "%rd2"]);
    let n = pick(rng, &["2", "4", "8", "3", "1", "16"]);
    let ty = pick(
        rng,
        &[
            ".u32", ".b16", ".u16", ".f32", ".u64", ".s32", ".pred", ".b128", ".u8",
        ],
    );
    let sel = pick(
        rng,
        &["x", "y", "z", "w", "r", "g", "b", "a", "q", "xy", "", "0"],
    );
    let imm = pick(rng, &["1", "-1", "0x10", "18446744073709551615", "x", ""]);
    match rng.below(16) {
        0 | 1 => format!(".reg .v{n} {ty} {name};"),
        2 => format!(".reg .v{n} {ty} {name}<4>;"),
        3 => format!("mov{ty} %r1, {name}.{sel};"),
        4 => format!("mov{ty} {name}.{sel}, %r1;"),
        5 => format!("ld.global.v{n}{ty} {name}, [%rd1];"),
        6 => format!("st.global.v{n}{ty} [%rd1+16], {name};"),
        7 => format!("mov.v{n}{ty} {name}, {{%r1, %r2, %r3, %r4}};"),
        8 => format!("mov.v{n}{ty} {{%r1, %r2}}, {name};"),
        9 => format!("mov.v{n}{ty} {name}, {other};"),
        10 => format!("mov.b32 {name}, {other};"),
        11 => format!("st{ty} [%rd1], {name} + {imm};"),
        12 => format!("add{ty} %r1, {name}.{sel} - {imm}, 1;"),
        13 => format!("cvt.u32{ty} %r1, {name}.{sel};"),
        14 => format!("mov{ty} {name}, {name}.{sel}.{sel};"),
        _ => format!("@{name}.{sel} mov.v{n}{ty} {name}.{sel}, {name};"),
    }
}

/// One random change to `buf`.
fn mutate_once(rng: &mut SplitMix64, buf: &mut Vec<u8>, seeds: &[Vec<u8>]) {
    let len = buf.len();
    match rng.below(14) {
        // Flip a bit (mostly within ASCII) or overwrite a byte.
        0 | 1 => {
            if len > 0 {
                let at = rng.below(len);
                if rng.chance(70) {
                    let bits = if rng.chance(95) { 7 } else { 8 };
                    buf[at] ^= 1 << rng.below(bits);
                } else {
                    const BYTES: &[u8] = b" \t\n{}[]()<>;,:.%@!|+-_0123456789xfdUabceLrp\"/*\\";
                    buf[at] = BYTES[rng.below(BYTES.len())];
                }
            }
        }
        2 => {
            let (a, b) = range(rng, len);
            buf.drain(a..b);
        }
        3 => {
            let (a, b) = range(rng, len);
            let chunk = buf[a..b].to_vec();
            let at = rng.below(len + 1);
            let times = if rng.chance(90) { 1 } else { 1 + rng.below(50) };
            for _ in 0..times {
                buf.splice(at..at, chunk.iter().copied());
            }
        }
        4 => {
            let n = 1 + rng.below(16);
            let bytes: Vec<u8> = (0..n).map(|_| (32 + rng.below(95)) as u8).collect();
            let at = rng.below(len + 1);
            buf.splice(at..at, bytes);
        }
        5..=7 => {
            let tok = DICTIONARY[rng.below(DICTIONARY.len())].as_bytes();
            let at = rng.below(len + 1);
            let spaced = rng.chance(50);
            let mut ins = Vec::with_capacity(tok.len() + 2);
            if spaced {
                ins.push(b' ');
            }
            ins.extend_from_slice(tok);
            if spaced {
                ins.push(b' ');
            }
            buf.splice(at..at, ins);
        }
        8 => {
            let open = [b"{", b"(", b"[", b"-", b"!", b"~"][rng.below(6)];
            let n = if rng.chance(70) { 200 } else { rng.below(5000) };
            let at = rng.below(len + 1);
            buf.splice(at..at, open.iter().copied().cycle().take(n));
        }
        9 => buf.truncate(rng.below(len + 1)),
        10 => {
            let other = &seeds[rng.below(seeds.len())];
            let cut = rng.below(len + 1);
            let from = rng.below(other.len() + 1);
            buf.truncate(cut);
            buf.extend_from_slice(&other[from..]);
        }
        // Keep one window of the input: smaller inputs, faster rounds.
        11 => {
            let a = rng.below(len + 1);
            let b = (a + rng.below(4096)).min(len);
            *buf = buf[a..b].to_vec();
        }
        // A line of vector syntax after some line of the input (mostly
        // inside a body, where statements go).
        12 => {
            let at = rng.below(len + 1);
            let at = buf[at..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(len, |p| at + p + 1);
            let line = format!("\t{}\n", vector_snippet(rng));
            buf.splice(at..at, line.bytes());
        }
        _ => {
            // Replace a run of digits with a big or odd number.
            if len > 0 {
                let at = rng.below(len);
                if let Some(p) = buf[at..].iter().position(u8::is_ascii_digit) {
                    let s = at + p;
                    let e = s + buf[s..].iter().take_while(|b| b.is_ascii_digit()).count();
                    let num = [
                        "0",
                        "4294967295",
                        "4294967296",
                        "18446744073709551615",
                        "18446744073709551616",
                        "99999999999999999999999999999999999999999",
                        "16777216",
                        "16777217",
                    ][rng.below(8)];
                    buf.splice(s..e, num.bytes());
                }
            }
        }
    }
}

/// Input number `index` of the stream seeded by `seed`.
fn make_input(seed: u64, index: u64, seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut rng = SplitMix64(seed ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93));
    let mut buf = seeds[rng.below(seeds.len())].clone();
    let most = if rng.chance(80) { 4 } else { 24 };
    let rounds = 1 + rng.below(most);
    for _ in 0..rounds {
        mutate_once(&mut rng, &mut buf, seeds);
        buf.truncate(MAX_INPUT);
    }
    buf
}

#[derive(Debug, PartialEq)]
enum Outcome {
    Parsed,
    Rejected,
}

/// Parses, checks and round-trips one input. `Err` describes a failure.
fn run_one(src: &str) -> Result<Outcome, String> {
    let result = catch_unwind(AssertUnwindSafe(|| match parse(src) {
        // bodies parsed after the module's items (as large modules are, on
        // two threads) give the same tree or the same error
        r if r != ptx_semantics::ptx::parse_split(src) => {
            let q = ptx_semantics::ptx::parse_split(src);
            Err(format!(
                "parsing the bodies apart gives another result: {:?} against {:?}",
                r.as_ref().err(),
                q.as_ref().err()
            ))
        }
        Err(e) => {
            if e.at as usize > src.len() {
                Err(format!(
                    "error offset {} beyond input length {}: {}",
                    e.at,
                    src.len(),
                    e.message
                ))
            } else {
                Ok(Outcome::Rejected)
            }
        }
        Ok(module) => {
            let diags = check_module(&module, &Options::default());
            if let Some(d) = diags.iter().find(|d| d.span.end as usize > src.len()) {
                return Err(format!(
                    "diagnostic span {}..{} beyond input length {}: {}",
                    d.span.start,
                    d.span.end,
                    src.len(),
                    d.message
                ));
            }
            // what checks clean loads into the simulator or is refused with
            // an error, never a panic (unless it declares so many registers
            // that naming each would take the time of many inputs)
            if diags.is_empty() && registers_declared(&module) <= 1 << 16 {
                for item in &module.items {
                    if let Item::Function(f) = item {
                        if f.kind == FunctionKind::Entry && f.body.is_some() {
                            let _ = sim::prepare(&module, &f.name, &WindowProfile::SM90);
                        }
                    }
                }
            }
            let text = print(&module);
            match parse(&text) {
                Ok(back) if back == module => Ok(Outcome::Parsed),
                Ok(back) => Err(first_difference(&module, &back)),
                Err(e) => Err(format!(
                    "printed text fails to parse at offset {}: {}",
                    e.at, e.message
                )),
            }
        }
    }));
    match result {
        Ok(r) => r,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "non-string panic".into());
            Err(format!("panic: {msg}"))
        }
    }
}

/// How many registers (vector elements counted) a module's functions
/// declare.
fn registers_declared(module: &Module) -> u64 {
    fn count(stmts: &[Stmt]) -> u64 {
        stmts
            .iter()
            .map(|s| match s {
                Stmt::Var(v) if v.space == ".reg" => {
                    let per = u64::from(v.vector.unwrap_or(1));
                    v.names
                        .iter()
                        .map(|d| per * u64::from(d.range.unwrap_or(1)))
                        .sum()
                }
                Stmt::Block(inner, _) => count(inner),
                _ => 0,
            })
            .sum()
    }
    module
        .items
        .iter()
        .map(|i| match i {
            Item::Function(f) => f.body.as_deref().map_or(0, count),
            _ => 0,
        })
        .sum()
}

/// The first top-level item where a module and its reprint differ.
fn first_difference(a: &Module, b: &Module) -> String {
    let show = |item: &Item| {
        let text = print(&Module {
            items: vec![item.clone()],
        });
        text.chars().take(2000).collect::<String>()
    };
    for (i, (x, y)) in a.items.iter().zip(&b.items).enumerate() {
        if x != y {
            return format!(
                "parse(print(m)) differs from m at item {i}:\n{}\n--- reads back as ---\n{}",
                show(x),
                show(y)
            );
        }
    }
    format!(
        "parse(print(m)) has {} items, m has {}",
        b.items.len(),
        a.items.len()
    )
}

fn save_failure(index: u64, input: &[u8]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ptx-fuzz-failures");
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(format!("input-{index}.ptx"));
    let _ = std::fs::write(&path, input);
    path
}

fn env_u64(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    let v = v.trim().replace('_', "");
    Some(
        v.parse()
            .unwrap_or_else(|_| panic!("{name} must be a number, not {v:?}")),
    )
}

#[derive(Default)]
struct Tally {
    inputs: AtomicU64,
    parsed: AtomicU64,
    rejected: AtomicU64,
    not_utf8: AtomicU64,
    bytes: AtomicU64,
    failures: Mutex<Vec<String>>,
    slowest: Mutex<(Duration, u64)>,
}

#[test]
fn mutated_corpus_never_panics() {
    let seeds = Arc::new(seeds());
    let seed = env_u64("PTX_FUZZ_SEED").unwrap_or(DEFAULT_SEED);
    let only = env_u64("PTX_FUZZ_ONLY");
    let iters = env_u64("PTX_FUZZ_ITERS").unwrap_or(DEFAULT_ITERS);
    let (first, end) = match only {
        Some(i) => (i, i + 1),
        None => (0, iters),
    };
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(16);
    let tally = Arc::new(Tally::default());
    let next = Arc::new(AtomicU64::new(first));
    let stop = Arc::new(AtomicBool::new(false));
    // Per worker: the input in flight (u64::MAX when idle) and since when.
    let in_flight: Arc<Vec<(AtomicU64, AtomicU64)>> = Arc::new(
        (0..threads)
            .map(|_| (AtomicU64::new(u64::MAX), AtomicU64::new(0)))
            .collect(),
    );
    let clock = Instant::now();
    let done = Arc::new(AtomicUsize::new(0));

    // A hang cannot be caught: the watchdog names the input and aborts.
    let watchdog = {
        let (in_flight, done, seeds) = (in_flight.clone(), done.clone(), seeds.clone());
        std::thread::spawn(move || {
            while done.load(Ordering::SeqCst) < threads {
                std::thread::sleep(Duration::from_millis(100));
                let now = clock.elapsed().as_millis() as u64;
                for (idx, since) in in_flight.iter() {
                    let i = idx.load(Ordering::SeqCst);
                    let t = since.load(Ordering::SeqCst);
                    if i != u64::MAX && now.saturating_sub(t) > HANG_LIMIT.as_millis() as u64 {
                        let path = save_failure(i, &make_input(seed, i, &seeds));
                        eprintln!(
                            "input {i} (seed {seed:#x}) has run for over {HANG_LIMIT:?}: \
                             saved to {}; rerun with PTX_FUZZ_ONLY={i}",
                            path.display()
                        );
                        std::process::abort();
                    }
                }
            }
        })
    };

    std::thread::scope(|s| {
        for w in 0..threads {
            let (seeds, tally, next, stop, in_flight, done) =
                (&seeds, &tally, &next, &stop, &in_flight, &done);
            s.spawn(move || {
                // Counts this worker out even if it panics.
                struct Done<'a>(&'a AtomicUsize);
                impl Drop for Done<'_> {
                    fn drop(&mut self) {
                        self.0.fetch_add(1, Ordering::SeqCst);
                    }
                }
                let _done = Done(done);
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= end || stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let input = make_input(seed, i, seeds);
                    tally.inputs.fetch_add(1, Ordering::Relaxed);
                    let Ok(src) = std::str::from_utf8(&input) else {
                        // Callers turn bytes into text; not ours to test.
                        tally.not_utf8.fetch_add(1, Ordering::Relaxed);
                        continue;
                    };
                    tally.bytes.fetch_add(src.len() as u64, Ordering::Relaxed);
                    in_flight[w]
                        .1
                        .store(clock.elapsed().as_millis() as u64, Ordering::SeqCst);
                    in_flight[w].0.store(i, Ordering::SeqCst);
                    let t0 = Instant::now();
                    let r = run_one(src);
                    let took = t0.elapsed();
                    in_flight[w].0.store(u64::MAX, Ordering::SeqCst);
                    {
                        let mut slow = tally.slowest.lock().expect("tally lock");
                        if took > slow.0 {
                            *slow = (took, i);
                        }
                    }
                    match r {
                        Ok(Outcome::Parsed) => {
                            tally.parsed.fetch_add(1, Ordering::Relaxed);
                        }
                        Ok(Outcome::Rejected) => {
                            tally.rejected.fetch_add(1, Ordering::Relaxed);
                        }
                        Err(why) => {
                            let path = save_failure(i, &input);
                            let mut f = tally.failures.lock().expect("tally lock");
                            f.push(format!(
                                "input {i}: {why} (saved to {}; rerun with PTX_FUZZ_ONLY={i})",
                                path.display()
                            ));
                            if f.len() >= 20 {
                                stop.store(true, Ordering::SeqCst);
                            }
                        }
                    }
                }
            });
        }
    });
    let _ = watchdog.join();

    let secs = clock.elapsed().as_secs_f64();
    let inputs = tally.inputs.load(Ordering::Relaxed);
    let (slow, slow_i) = *tally.slowest.lock().expect("tally lock");
    println!(
        "fuzz: seed {seed:#x}, {inputs} inputs ({} parsed, {} rejected, {} not UTF-8 skipped), \
         {:.1} MiB, {threads} threads, {secs:.1} s; slowest input {slow_i} took {:.1} ms",
        tally.parsed.load(Ordering::Relaxed),
        tally.rejected.load(Ordering::Relaxed),
        tally.not_utf8.load(Ordering::Relaxed),
        tally.bytes.load(Ordering::Relaxed) as f64 / (1024.0 * 1024.0),
        slow.as_secs_f64() * 1e3,
    );
    let failures = tally.failures.lock().expect("tally lock");
    assert!(
        failures.is_empty(),
        "{} failing input(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
    if only.is_none() {
        assert_eq!(inputs, iters, "every input ran");
    }
}

/// What a hand-written input must do.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Want {
    Parse,
    Reject,
    /// Either, as long as nothing panics.
    Survive,
}

fn nasty_inputs() -> Vec<(&'static str, String, Want)> {
    let entry = |body: &str| {
        format!(
            ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{{\n{body}\n}}\n"
        )
    };
    let sample = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/sample.ptx"),
    )
    .expect("sample.ptx");
    let long_ident = "a".repeat(10_000);
    let digits = "7".repeat(1000);
    vec![
        ("empty file", String::new(), Want::Parse),
        ("only whitespace", " \t\r\n\n ".into(), Want::Parse),
        (
            "only comments",
            "// a\n/* b\n c */ // d\n/**/".into(),
            Want::Parse,
        ),
        (
            "unterminated block comment",
            ".version 9.0 /* abc".into(),
            Want::Reject,
        ),
        ("lone `/*`", "/*".into(), Want::Reject),
        ("`/*/`", "/*/".into(), Want::Reject),
        ("unterminated string", ".file 1 \"abc".into(), Want::Reject),
        (
            "string ending in a backslash",
            ".file 1 \"abc\\".into(),
            Want::Reject,
        ),
        (
            "string with a newline",
            ".file 1 \"ab\nc\"".into(),
            Want::Reject,
        ),
        (
            "100k nested braces in a body",
            entry(&"{".repeat(100_000)),
            Want::Reject,
        ),
        (
            "100k nested closed braces in a body",
            entry(&format!("{}{}", "{".repeat(100_000), "}".repeat(100_000))),
            Want::Reject,
        ),
        (
            "100k braces at module scope",
            "{".repeat(100_000),
            Want::Reject,
        ),
        (
            "100k nested parens in an operand",
            entry(&format!("mov.u32 %r1, {};", "(".repeat(100_000))),
            Want::Reject,
        ),
        (
            "100k nested brackets in an operand",
            entry(&format!("mov.u32 %r1, {};", "[".repeat(100_000))),
            Want::Reject,
        ),
        (
            "100k nested vector braces in an operand",
            entry(&format!("mov.u32 %r1, {};", "{".repeat(100_000))),
            Want::Reject,
        ),
        (
            "100k nested initializer braces",
            format!(".global .u32 x[1] = {};", "{".repeat(100_000)),
            Want::Reject,
        ),
        (
            "100k unary minus signs",
            entry(&format!("mov.u32 %r1, {}1;", "-".repeat(100_000))),
            Want::Parse,
        ),
        // Found by fuzzing: each `!` printed as `!(...)` doubled the depth,
        // so the printed text failed to parse.
        (
            "59 `!` signs (printed deeper than read)",
            entry(&format!(
                ".reg .pred p;\nsetp.ge.s32{} p, %r10, %r11;",
                "!".repeat(59)
            )),
            Want::Parse,
        ),
        (
            "100-term sum with a symbol (printed fully parenthesised)",
            entry(&format!("mov.u64 %rd1, x{};", "+1".repeat(100))),
            Want::Parse,
        ),
        // Found by fuzzing: `+%r8` read as an immediate printed as `%r8`,
        // which reads back as a name.
        ("`+%r8` operand", entry("mov.u32 +%r8, x;"), Want::Parse),
        ("`x+y` operand", entry("mov.u64 %rd1, x+y;"), Want::Parse),
        ("`+x+8` operand", entry("mov.u64 %rd1, +x+8;"), Want::Parse),
        ("`!(x)` operand", entry("mov.u64 %rd1, !(x);"), Want::Parse),
        (
            "call list led by an immediate",
            entry("call f, (+1, x), (+-2), (+!(y));"),
            Want::Parse,
        ),
        (
            "`[x-8]` at the depth limit",
            format!(
                ".entry k()\n{{{}ld.u32 %r1, [x-8];{}}}",
                "{".repeat(62),
                "}".repeat(62)
            ),
            Want::Parse,
        ),
        (
            "`+x + y` at the depth limit",
            format!(
                ".entry k()\n{{{}mov.u64 %rd1, x+y;{}}}",
                "{".repeat(61),
                "}".repeat(61)
            ),
            Want::Parse,
        ),
        (
            "100k `!` signs",
            entry(&format!("mov.u32 %r1, {}%p;", "!".repeat(100_000))),
            Want::Reject,
        ),
        (
            "100k-term sum",
            entry(&format!("mov.u32 %r1, 1{};", "+1".repeat(100_000))),
            Want::Survive,
        ),
        (
            "100k nested `.section` braces",
            format!(".section .x {}", "{".repeat(100_000)),
            Want::Reject,
        ),
        (
            "10k-long identifier",
            entry(&format!(
                ".reg .b32 %{long_ident};\nmov.u32 %{long_ident}, 1;"
            )),
            Want::Parse,
        ),
        (
            "10k-long function name",
            format!(".entry {long_ident}()\n{{\nret;\n}}\n"),
            Want::Parse,
        ),
        (
            "1000-digit number",
            entry(&format!("mov.u32 %r1, {digits};")),
            Want::Reject,
        ),
        (
            "1000-digit array size",
            format!(".global .b8 x[{digits}];"),
            Want::Reject,
        ),
        (
            "1000-digit float",
            entry(&format!("mov.f64 %fd1, {digits}.5;")),
            Want::Survive,
        ),
        ("NUL bytes", ".version 9.0\0\n\0".into(), Want::Reject),
        ("NUL in a body", entry("mov.u32 %r1,\0 1;"), Want::Reject),
        (
            "CRLF line endings",
            sample.replace('\n', "\r\n"),
            Want::Parse,
        ),
        (
            "huge .version",
            ".version 4294967296.99999999999999999999".into(),
            Want::Reject,
        ),
        (
            "largest .version",
            ".version 4294967295.4294967295".into(),
            Want::Parse,
        ),
        (".version without a number", ".version".into(), Want::Reject),
        (".version 1e5", ".version 1e5".into(), Want::Reject),
        (
            "%r<4294967295>",
            entry(".reg .b32 %r<4294967295>;"),
            Want::Reject,
        ),
        (
            "%r<18446744073709551616>",
            entry(".reg .b32 %r<18446744073709551616>;"),
            Want::Reject,
        ),
        (
            "largest register range",
            entry(".reg .b32 %r<16777216>;\nmov.u32 %r16777215, 1;"),
            Want::Parse,
        ),
        (".align 0", ".global .align 0 .b32 x;".into(), Want::Reject),
        (".align 3", ".global .align 3 .b32 x;".into(), Want::Reject),
        (
            ".align 2^63",
            ".global .align 9223372036854775808 .b32 x;".into(),
            Want::Parse,
        ),
        (
            ".align 2^64",
            ".global .align 18446744073709551616 .b32 x;".into(),
            Want::Reject,
        ),
        (
            "division by zero",
            entry("mov.u32 %r1, 1 / 0;"),
            Want::Reject,
        ),
        (
            "remainder by zero",
            entry("mov.u32 %r1, 1 % 0;"),
            Want::Reject,
        ),
        (
            "i64::MIN / -1",
            entry("mov.s64 %rd1, (-9223372036854775808) / -1;"),
            Want::Parse,
        ),
        (
            "huge shifts",
            entry("mov.u64 %rd1, (1 << 200) + (1 >> -1) + (-1 << 64);"),
            Want::Parse,
        ),
        (
            "address offset out of range",
            entry("ld.u32 %r1, [%rd1+18446744073709551616];"),
            Want::Reject,
        ),
        (
            "largest address offsets",
            entry("ld.u32 %r1, [%rd1+-9223372036854775808];\nld.u32 %r1, [18446744073709551615];"),
            Want::Parse,
        ),
        (
            "`0f` with no digits",
            entry("mov.f32 %f1, 0f;"),
            Want::Reject,
        ),
        (
            "`0x` with no digits",
            entry("mov.u32 %r1, 0x;"),
            Want::Reject,
        ),
        ("lone dot", ".".into(), Want::Reject),
        ("lone percent", "%".into(), Want::Reject),
        ("lone at", entry("@"), Want::Reject),
        ("`.entry` at end of file", ".entry".into(), Want::Reject),
        (
            "`.entry k(` at end of file",
            ".entry k(".into(),
            Want::Reject,
        ),
        ("`.loc` at end of file", ".loc".into(), Want::Parse),
        (
            "`.pragma` not closed",
            ".pragma \"nounroll\"".into(),
            Want::Reject,
        ),
        (
            "`.attribute(` not closed",
            ".global .attribute(.managed".into(),
            Want::Reject,
        ),
        (
            "byte-order mark",
            "\u{FEFF}.version 9.0".into(),
            Want::Reject,
        ),
        (
            "non-ASCII identifier",
            entry("mov.u32 %é, 1;"),
            Want::Reject,
        ),
        ("`::` alone", entry("mov::x.u32 %r1, 1;"), Want::Reject),
        (
            "dangling `::`",
            entry("ld.shared::.u32 %r1, [x];"),
            Want::Survive,
        ),
        ("empty address", entry("ld.u32 %r1, [];"), Want::Reject),
        ("`@!` with no predicate", entry("@! ;"), Want::Reject),
        (
            "nine array dimensions",
            ".global .b8 x[1][1][1][1][1][1][1][1][1];".into(),
            Want::Reject,
        ),
        (
            "generic without a name",
            entry("mov.u64 %rd1, generic();"),
            Want::Reject,
        ),
        (
            "pair of pairs",
            entry("shfl.sync.bfly.b32 %r1|%p1|%p2, %r2, 1, 31, -1;"),
            Want::Survive,
        ),
    ]
}

#[test]
fn nasty_inputs_are_handled() {
    let mut failures = Vec::new();
    for (name, src, want) in nasty_inputs() {
        let t0 = Instant::now();
        let outcome = run_one(&src);
        let took = t0.elapsed();
        let ok = match (&outcome, want) {
            (Err(_), _) => false,
            (Ok(_), Want::Survive) => true,
            (Ok(o), Want::Parse) => *o == Outcome::Parsed,
            (Ok(o), Want::Reject) => *o == Outcome::Rejected,
        };
        if !ok {
            let detail = match parse(&src) {
                Ok(_) => "it parsed".to_string(),
                Err(e) => format!("parse error at {}: {}", e.at, e.message),
            };
            failures.push(format!(
                "{name}: wanted {want:?}, got {outcome:?} ({detail})"
            ));
        }
        if took > Duration::from_secs(5) {
            failures.push(format!("{name}: took {took:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Broken vector syntax is refused at its own line (by the parser or the
/// checker), never with a panic, and what the checker refuses the
/// simulator refuses too or loads.
#[test]
fn malformed_vector_syntax_is_located() {
    let head = ".version 8.7\n.target sm_90\n.address_size 64\n\
        .visible .entry k(.param .u64 p)\n{\n\t.reg .v2 .u32 v;\n\t.reg .v4 .u32 w;\n\
        \t.reg .v2 .b16 h;\n\t.reg .u32 %r<4>;\n\t.reg .u64 %rd<4>;\n\t.reg .pred %p<2>;\n";
    let line = head.matches('\n').count() + 1;
    for bad in [
        "mov.u32 %r1, v.q;",
        "mov.u32 %r1, v.z;",
        "mov.u32 %r1, v.xy;",
        "mov.u32 %r1, %r2.x;",
        "mov.u32 %r1, nope.x;",
        "mov.u32 %r1, v.;",
        "mov.u32 %r1, v..x;",
        "st.global.v2.u32 [%rd1], w;",
        "ld.global.v4.u32 v, [%rd1];",
        "mov.v4.u32 w, v;",
        "mov.v2.u32 v, {%r1};",
        "mov.v3.u32 v, v;",
        "mov.b64 h, %rd1;",
        "mov.u32 %r1, v;",
        "ld.global.u32 %r1, [v];",
        "st.global.u64 [%rd1], %rd1 +;",
        "st.global.u64 [%rd1], %rd1 + %rd2;",
        "st.global.u64 [%rd1], %p1 + 1;",
        "ld.global.u32 %r1 + 1, [%rd1];",
        ".reg .v2 .pred pv;",
        ".reg .v4 .f64 big;",
        ".reg .v8 .b32 e;",
        ".reg .v2 .v4 .u32 twice;",
        "@v.x mov.u32 %r1, 1;",
    ] {
        let src = format!("{head}\t{bad}\n\tret;\n}}\n");
        let outcome = run_one(&src);
        assert!(outcome.is_ok(), "{bad}: {outcome:?}");
        let at = match parse(&src) {
            Err(e) => e.at,
            Ok(m) => {
                let diags = check_module(&m, &Options::default());
                let d = diags
                    .first()
                    .unwrap_or_else(|| panic!("{bad}: checks clean"));
                d.span.start
            }
        };
        assert_eq!(line_col(&src, at).0, line, "{bad}: located elsewhere");
    }
}

/// CRLF text parses to the same tree as LF text.
#[test]
fn crlf_reads_like_lf() {
    let sample = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/sample.ptx"),
    )
    .expect("sample.ptx");
    let lf = parse(&sample).expect("sample parses");
    let crlf = parse(&sample.replace('\n', "\r\n")).expect("CRLF sample parses");
    assert_eq!(lf, crlf);
}

/// The mutator is deterministic: the same seed and index give the same input.
#[test]
fn inputs_are_reproducible() {
    let seeds = seeds();
    for i in [0, 1, 999, 123_456] {
        assert_eq!(
            make_input(DEFAULT_SEED, i, &seeds),
            make_input(DEFAULT_SEED, i, &seeds)
        );
    }
    assert_ne!(
        make_input(DEFAULT_SEED, 0, &seeds),
        make_input(DEFAULT_SEED, 1, &seeds)
    );
}
