#!/usr/bin/env bash
# Run vosen/ptx_tests (a public test suite of PTX instructions that speaks the CUDA
# driver API and checks each result against a reference computed on the CPU) against
# a libcuda: ours (target/release/libcuda.so) or NVIDIA's.
#
#   bash tools/libcuda/ptx_tests.sh CHECKOUT [CASES] [LIBCUDA]
#
# CHECKOUT: a clone of https://github.com/vosen/ptx_tests (kept outside this repository;
# measured at 76d4dce). It is copied to a temporary folder and changed there only: each
# test runs CASES inputs (default 1048576) instead of 2^32, random tests CASES random
# inputs from the suite's seed, range tests one input from each of CASES equal buckets of
# their range (tests whose range is smaller run whole). The build needs a nightly Rust
# (the suite's rust-toolchain.toml) and network access for its crates.
# Writes the suite's output to ptx_tests.log in the current folder and prints a summary.
# PTX_LIBCUDA_* settings pass through (PTX_LIBCUDA_UNSPECIFIED=keep compares the
# simulator's own bits; the default fill shows which results depend on open bits).
set -euo pipefail
SRC=${1:?usage: ptx_tests.sh CHECKOUT [CASES] [LIBCUDA]}
CASES=${2:-1048576}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LIB=${3:-$ROOT/target/release/libcuda.so}
WORK=$(mktemp -d /tmp/ptx_tests.XXXXXX)
trap 'rm -rf "$WORK/src"' EXIT
cp -r "$SRC" "$WORK/src"
python3 - "$WORK/src/src/test.rs" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
def sub(old, new):
    global s
    if old not in s:
        sys.exit(f"ptx_tests.sh: the suite's test.rs changed; not found: {old!r}")
    s = s.replace(old, new)
sub("    let total_elements = 2.pow(32);\n",
    "    let total_elements: usize = sample_cases().unwrap_or(1usize << 32);\n")
sub("    let total_elements = Test::MAX_VALUE as usize + 1;\n",
    "    let full_elements = Test::MAX_VALUE as usize + 1;\n"
    "    let total_elements = match sample_cases() { Some(n) if n < full_elements => n, _ => full_elements };\n"
    "    let stride = full_elements / total_elements;\n")
sub("            let input = t.generate((elment_start + i) as u32);\n",
    "            let k = elment_start + i;\n"
    "            let index = if stride > 1 { k * stride + (k.wrapping_mul(2654435761) % stride) } else { k };\n"
    "            let input = t.generate(index as u32);\n")
s += """
/// Scaled-down runs (added by ptx-conform's tools/libcuda/ptx_tests.sh): PTX_TESTS_CASES=N.
fn sample_cases() -> Option<usize> {
    std::env::var("PTX_TESTS_CASES").ok().and_then(|v| v.parse().ok())
}
"""
open(p, "w").write(s)
PY
(cd "$WORK/src" && CARGO_TARGET_DIR="$WORK/target" cargo build --release --quiet)
BIN="$WORK/target/release/ptx_tests"
set +e
PTX_TESTS_CASES=$CASES "$BIN" "$LIB" > ptx_tests.log 2>&1
set -e
ok=$(grep -c ': OK$' ptx_tests.log || true)
fail=$(grep -c ': FAIL' ptx_tests.log || true)
echo "ptx_tests against $LIB, $CASES cases a test: $ok passed, $fail failed (ptx_tests.log)"
grep ': FAIL' ptx_tests.log | cut -d: -f1 | sed 's/^/  failed: /' || true
