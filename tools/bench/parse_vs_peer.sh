#!/usr/bin/env bash
# Parse speed of ptx-semantics against the PyPI package `ptx-parser` 0.1.3
# ("Fast PTX parser ... built with Rust"), on the same module, in one run.
# The peer is installed into a throw-away venv under /tmp, never into the repo.
# It parses only 4 of the 39 sm_90 files of corpus/nvcc/ptx (it rejects
# `.func (.param ...) name(...)` return lists), so the module is built from those 4.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=/tmp/ptx-conform-peer
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q ptx-parser==0.1.3
"$venv/bin/python" - <<'PY'
import glob, time, ptx_parser
good = []
for f in sorted(glob.glob('corpus/nvcc/ptx/*.sm_90.ptx')):
    try:
        ptx_parser.parse_ptx(open(f).read()); good.append(f)
    except Exception:
        pass
print(f"peer parses {len(good)} of {len(glob.glob('corpus/nvcc/ptx/*.sm_90.ptx'))} sm_90 corpus files")
body = ''.join(l for f in good for l in open(f)
               if not l.lstrip().startswith(('.version', '.target', '.address_size')))
src = '.version 9.0\n.target sm_90\n.address_size 64\n'
while len(src) < 1_400_000:
    src += body
open('/tmp/ptx-conform-peer.ptx', 'w').write(src)
ts = []
for _ in range(21):
    t = time.perf_counter(); ptx_parser.parse_ptx(src); ts.append(time.perf_counter() - t)
ts.sort()
print(f"peer ptx-parser 0.1.3: {len(src)/1e6:.2f} MB, median {ts[10]*1e3:.1f} ms, {len(src)/1e6/ts[10]:.1f} MB/s")
PY
PTX_BENCH_FILE=/tmp/ptx-conform-peer.ptx cargo bench -q -p ptx-semantics --bench parse_check 2>/dev/null | grep -v '^$'
