#!/usr/bin/env python3
"""Solve time of `conform ub` per kernel over PTX files: median and max.

Usage: tools/ub_bench.py CONFORM FILE.ptx... (prints one line per kernel, then
a summary). Replays are left out: the time is the symbolic search with its
solver queries, as `solve_ms` in the JSON output."""
import json, statistics, subprocess, sys

conform, files = sys.argv[1], sys.argv[2:]
times, failed, witnesses, unknown, findings = [], [], 0, 0, 0
for f in files:
    out = subprocess.run([conform, "ub", f, "--json", "--no-replay"], capture_output=True, text=True)
    if out.returncode == 2:
        failed.append((f, out.stderr.strip().splitlines()[-1] if out.stderr else ""))
        continue
    for k in json.loads(out.stdout)["kernels"]:
        times.append(k["solve_ms"])
        findings += len(k["findings"])
        witnesses += sum(1 for x in k["findings"] if x["verdict"] == "witness")
        unknown += sum(1 for x in k["findings"] if x["verdict"] == "unknown")
        print(f"{k['solve_ms']:9.1f} ms  {len(k['findings']):4} preconditions  {f} {k['kernel']}")
print(f"kernels: {len(times)}; files that could not be analysed: {len(failed)}")
for f, why in failed:
    print(f"  {f}: {why}")
if times:
    print(f"solve time per kernel: median {statistics.median(times):.1f} ms, max {max(times):.1f} ms, total {sum(times)/1e3:.2f} s")
print(f"preconditions answered: {findings}; witnesses: {witnesses}; unknown: {unknown}")
