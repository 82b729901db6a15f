#!/usr/bin/env python3
"""Runs ptxas on every kernel of the legality corpus and records its verdict.

Run on the device machine from the repository root, for either corpus:
    python3 tools/device/ptxas_verdicts.py .carry/legality "$OUT"
    python3 tools/device/ptxas_verdicts.py .carry/legality-syntax "$OUT"
(both made by `conform legality gen [--syntax] --out DIR`).
Reads DIR/manifest.tsv (id, target) and DIR/kernels/ID.ptx; writes
OUT/verdicts.jsonl with {"id", "rc", "msg"} per kernel (msg: ptxas's first
three message lines, the file name removed) and OUT/ptxas_version.txt.
"""
import concurrent.futures as cf
import json
import os
import shutil
import subprocess
import sys

if len(sys.argv) != 3:
    sys.exit("usage: ptxas_verdicts.py CORPUS_DIR OUT_DIR")
corpus, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
version = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout
open(os.path.join(out, "ptxas_version.txt"), "w").write(version)

jobs = [line.rstrip("\n").split("\t") for line in open(os.path.join(corpus, "manifest.tsv")) if line.strip()]


def run(job):
    vid, target = job
    path = os.path.join(corpus, "kernels", vid + ".ptx")
    try:
        p = subprocess.run([ptxas, "-arch=" + target, "-o", "/dev/null", path],
                           capture_output=True, text=True, timeout=60)
        rc, text = p.returncode, p.stderr + p.stdout
    except subprocess.TimeoutExpired:
        rc, text = -1, "timeout"
    lines = [l.replace(path, "FILE") for l in text.splitlines() if l.strip()]
    return {"id": vid, "rc": rc, "msg": " | ".join(lines[:3])}


with cf.ThreadPoolExecutor(max_workers=os.cpu_count() or 8) as pool:
    results = list(pool.map(run, jobs))
with open(os.path.join(out, "verdicts.jsonl"), "w") as f:
    for r in results:
        f.write(json.dumps(r) + "\n")
ok = sum(1 for r in results if r["rc"] == 0)
print(version.strip().splitlines()[-1] if version.strip() else "ptxas: unknown")
print(f"{len(results)} kernels: {ok} accepted, {len(results) - ok} rejected")
