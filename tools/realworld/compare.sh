#!/usr/bin/env bash
# Compare ptxas's verdicts on the real-world corpus with `conform check`'s.
#
#   bash tools/realworld/compare.sh RESULTS_DIR
#
# RESULTS_DIR holds what the compile run (kept outside the repository) left on the GPU
# machine: verdicts.jsonl and ptx.tar.xz (or ptx.tar.gz, or .partN pieces).
# Hand-written PTX is read from .carry/realworld/src (copies kept outside git).
# Writes corpus/realworld/results.tsv and prints the figures.
#   (id, kind, arch, ptxas verdict, our verdict, our first message, ptxas message)
# Environment: CONFORM (default ./target/release/conform), RESULTS_TSV, JOBS.
set -euo pipefail
RES=${1:?usage: compare.sh RESULTS_DIR}
ROOT=$(pwd)
CONFORM=${CONFORM:-$ROOT/target/release/conform}
RESULTS_TSV=${RESULTS_TSV:-$ROOT/corpus/realworld/results.tsv}
LIST=${LIST:-$ROOT/corpus/realworld/sources.tsv}
CORPUS=${CORPUS:-$ROOT/.carry/realworld/src}
JOBS=${JOBS:-$(nproc)}

if [ ! -x "$CONFORM" ]; then
  cargo build --release -p ptx-conformance --bin conform
fi
[ -f "$RES/verdicts.jsonl" ] || { echo "no $RES/verdicts.jsonl" >&2; exit 2; }

WORK=$(mktemp -d /tmp/realworld-cmp.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# --- unpack the PTX that nvcc produced --------------------------------------
shopt -s nullglob
parts=("$RES"/ptx.tar.xz.part* )
if ((${#parts[@]})); then cat "${parts[@]}" | xz -dc | tar -x -C "$WORK"
elif [ -f "$RES/ptx.tar.xz" ]; then xz -dc "$RES/ptx.tar.xz" | tar -x -C "$WORK"
else
  parts=("$RES"/ptx.tar.gz.part* )
  if ((${#parts[@]})); then cat "${parts[@]}" | tar -xz -C "$WORK"
  elif [ -f "$RES/ptx.tar.gz" ]; then tar -xzf "$RES/ptx.tar.gz" -C "$WORK"
  elif [ -d "$RES/ptx" ]; then ln -s "$(cd "$RES/ptx" && pwd)" "$WORK/ptx"
  fi
fi
shopt -u nullglob

# --- run conform and tally --------------------------------------------------
python3 - "$RES/verdicts.jsonl" "$WORK" "$CONFORM" "$LIST" "$CORPUS" "$RESULTS_TSV" "$JOBS" <<'PY'
import collections, concurrent.futures as cf, json, os, subprocess, sys

verdicts, work, conform, lst, corpus, out_tsv, jobs = sys.argv[1:8]
jobs = int(jobs)

paths = {}  # id -> source file for hand-written PTX
with open(lst) as f:
    next(f)
    for line in f:
        kind, repo, commit, path, incs, ident = line.rstrip("\n").split("\t")
        if kind == "ptx":
            paths[ident] = os.path.join(corpus, repo.replace("/", "__"), path)

rows = [json.loads(l) for l in open(verdicts) if l.strip()]
todo = []   # (row, file)
for r in rows:
    if r.get("skipped") or r.get("ptxas_rc") is None:
        continue
    if r["kind"] == "ptx":
        f = paths.get(r["id"])
    else:
        f = os.path.join(work, "ptx", f"{r['id']}.{r['arch']}.ptx")
    if f and os.path.isfile(f):
        todo.append((r, f))
    else:
        r["_missing"] = True


def check(files, arch):
    """conform check a batch; returns {file: (verdict, first message)}."""
    p = subprocess.run([conform, "check", "--json", "--target", arch, *files],
                       capture_output=True, text=True, errors="replace")
    if p.returncode not in (0, 1):
        if len(files) > 1:   # isolate the file that broke the batch
            res = {}
            for f in files:
                res.update(check([f], arch))
            return res
        msg = (p.stderr.strip().splitlines() or [f"exit {p.returncode}"])[0]
        return {files[0]: ("error", msg[:300])}
    res = {f: ("accept", "") for f in files}
    for line in p.stdout.splitlines():
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if d.get("severity", "error") != "error":
            continue
        f = d.get("file")
        key = f if f in res else next((x for x in files if os.path.samefile(x, f)), None) \
            if f and os.path.exists(f) else None
        if key and res[key][0] == "accept":
            res[key] = ("reject", f"{d.get('line')}:{d.get('column')}: [{d.get('rule')}] {d.get('message')}")
    if p.returncode == 1 and all(v[0] == "accept" for v in res.values()):
        # rejected, but no finding named a file: fall back to one file at a time
        if len(files) > 1:
            res = {}
            for f in files:
                res.update(check([f], arch))
        else:
            res[files[0]] = ("reject", (p.stdout.strip().splitlines() or p.stderr.strip().splitlines() or ["?"])[0][:300])
    return res


by_arch = collections.defaultdict(list)
for r, f in todo:
    by_arch[r["arch"]].append(f)
ours = {}
with cf.ThreadPoolExecutor(jobs) as ex:
    futs = []
    for arch, files in by_arch.items():
        files = sorted(set(files))
        for i in range(0, len(files), 100):
            futs.append((arch, ex.submit(check, files[i:i + 100], arch)))
    for arch, fu in futs:
        for f, v in fu.result().items():
            ours[(f, arch)] = v

tally = collections.Counter()
fp_msgs, fn_msgs = collections.Counter(), collections.Counter()
os.makedirs(os.path.dirname(out_tsv), exist_ok=True)
clean = lambda s: " ".join(str(s or "").split())[:300]
with open(out_tsv, "w") as o:
    o.write("id\tkind\tarch\tptxas\tours\tour_first_message\tptxas_message\n")
    for r, f in todo:
        # an exit status of 128 + a signal (139: SIGSEGV) is ptxas crashing: no
        # verdict; 255 is its status for errors
        rc = r["ptxas_rc"]
        pv = "accept" if rc == 0 else ("crash" if 128 < rc < 255 else "reject")
        ov, om = ours.get((f, r["arch"]), ("error", "not checked"))
        o.write("\t".join([r["id"], r["kind"], r["arch"], pv, ov, clean(om), clean(r.get("ptxas_msg"))]) + "\n")
        cls = {("accept", "accept"): "both_accept", ("reject", "reject"): "both_reject",
               ("accept", "reject"): "false_positive", ("reject", "accept"): "false_negative"}.get((pv, ov), "our_error")
        if pv == "crash":
            cls = "ptxas_crash"
            if ov == "error":
                cls = "our_error"

        tally[(r["kind"], cls)] += 1
        tally[("all", cls)] += 1
        if cls == "false_positive":
            rule = om.split(": [", 1)[1].split("]", 1)[0] if ": [" in om else "?"
            fp_msgs[f"[{rule}] " + (om.split("] ", 1)[-1])[:80]] += 1
        if cls == "false_negative":
            fn_msgs[clean(r.get("ptxas_msg")).split(";")[-1][:90]] += 1

nv = collections.Counter()
for r in rows:
    if r["kind"] == "cu":
        nv["skipped" if r.get("skipped") else ("nvcc_ok" if r.get("nvcc_rc") == 0 else "nvcc_fail")] += 1
print(f"verdict rows: {len(rows)}; checked: {len(todo)}; "
      f"missing PTX: {sum(1 for r in rows if r.get('_missing'))}")
print(f".cu x arch: {dict(nv)}")
print(f"distinct .cu compiled by nvcc (any arch): "
      f"{len({r['id'] for r in rows if r['kind'] == 'cu' and r.get('nvcc_rc') == 0})}")
print("kind\tboth_accept\tboth_reject\tfalse_positive\tfalse_negative\tour_error\tptxas_crash")
for k in ("cu", "ptx", "all"):
    print("\t".join([k] + [str(tally[(k, c)]) for c in
                           ("both_accept", "both_reject", "false_positive", "false_negative", "our_error",
                            "ptxas_crash")]))
if fp_msgs:
    print("\nfalse positives by our rule:")
    for m, n in fp_msgs.most_common(15):
        print(f"  {n:5d}  {m}")
if fn_msgs:
    print("\nfalse negatives by ptxas message:")
    for m, n in fn_msgs.most_common(15):
        print(f"  {n:5d}  {m}")
print(f"\nwrote {out_tsv}")
PY
