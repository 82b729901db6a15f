#!/usr/bin/env python3
"""Solve time of `conform ub` per kernel over PTX files: median and max.

Usage: tools/ub_bench.py [--replay] CONFORM FILE.ptx... (prints one line per
kernel, then a summary). The time is the symbolic search with its solver
queries, as `solve_ms` in the JSON output; replays are never in it. Without
--replay they are not run (--no-replay); with it every witness is replayed
through the simulator and the summary counts them: confirmed, not confirmed
(each listed with what the simulator did instead; `conform ub` reports such
a finding unknown, its witness as the candidate) and not possible (the
simulator cannot run the kernel). Every unknown is listed with its reason,
the kernels over 2 s are counted, and so are the instructions the search
does not interpret (`opaque`: their results are unknowns) and those met on a
path whose results it leaves unknown (`unread`: float forms without a term,
approximate forms, conversions, video instructions, the unmodelled ones)."""
import json, statistics, subprocess, sys

args = sys.argv[1:]
replay = "--replay" in args
args = [a for a in args if a != "--replay"]
conform, files = args[0], args[1:]
times, failed, witnesses, unknown, findings, opaque, unread = [], [], 0, 0, 0, 0, 0
unknowns = []
replays = {"confirmed": 0, "not-confirmed": 0, "impossible": 0}
not_confirmed = []
for f in files:
    cmd = [conform, "ub", f, "--json"] + ([] if replay else ["--no-replay"])
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode == 2:
        failed.append((f, out.stderr.strip().splitlines()[-1] if out.stderr else ""))
        continue
    for k in json.loads(out.stdout)["kernels"]:
        times.append(k["solve_ms"])
        opaque += k.get("opaque", 0)
        unread += k.get("unread", 0)
        findings += len(k["findings"])
        witnesses += sum(1 for x in k["findings"] if x["verdict"] == "witness")
        unknown += sum(1 for x in k["findings"] if x["verdict"] == "unknown")
        for x in k["findings"]:
            if x["verdict"] == "unknown":
                unknowns.append(f"{f}:{x['line']}: {k['kernel']}: {x['precondition']['id']}: {x.get('reason') or '(no reason)'}")
            r = x.get("replay")
            if r is None or (x["verdict"] != "witness" and "candidate" not in x):
                continue
            replays[r["replay"]] += 1
            if r["replay"] != "confirmed":
                what = r.get("what") or r.get("why") or ""
                not_confirmed.append(f"{f}:{x['line']}: {k['kernel']}: {x['precondition']['id']}: {r['replay']}: {what}")
        print(f"{k['solve_ms']:9.1f} ms  {len(k['findings']):4} preconditions  {f} {k['kernel']}")
print(f"kernels: {len(times)}; files that could not be analysed: {len(failed)}")
for f, why in failed:
    print(f"  {f}: {why}")
if times:
    q = statistics.quantiles(times, n=10)[-1] if len(times) > 1 else times[0]
    under = sum(1 for t in times if t < 100)
    over = sum(1 for t in times if t >= 2000)
    print(f"solve time per kernel: median {statistics.median(times):.1f} ms, 90th percentile {q:.1f} ms, max {max(times):.1f} ms, under 100 ms {under}, 2 s or more {over}, total {sum(times)/1e3:.2f} s")
print(f"preconditions answered: {findings}; witnesses: {witnesses}; unknown: {unknown}")
print(f"instructions not interpreted by the search: {opaque}")
print(f"instructions met whose results the search leaves unknown: {unread}")
for line in unknowns:
    print(f"  unknown: {line}")
if replay:
    print(f"replays: {replays['confirmed']} confirmed, {replays['not-confirmed']} not confirmed, {replays['impossible']} not possible")
    for line in not_confirmed:
        print(f"  {line}")
