#!/usr/bin/env python3
"""Compare `conform check` with ptxas line by line on `.target`/`.version`
variants of real-world PTX (made on the GPU machine by ptxas_variants.sh).

    python3 tools/realworld/variants.py PTX_DIR VAR_DIR [--conform PATH] [--jobs N]

PTX_DIR holds <name>.<arch>.ptx; VAR_DIR the variants' ptxas output
(<name>.<arch>.{t,v}.<value>.err and rc.txt). Each variant is rebuilt here
the same way (the `.target` or `.version` line replaced) and checked with
`conform check --json --target T` (T: the variant's target, or the file's
arch for a version variant). Prints file-level agreement, then the lines
ptxas flags and we do not (grouped by instruction family and message) and
the lines we flag and ptxas does not. Variants for an architecture ptxas
does not know (its "is not defined for option 'gpu-name'") count as agreeing
when `conform` refuses the --target too.
"""
import argparse, collections, concurrent.futures as cf, json, os, re, subprocess, tempfile

IN_979 = ("mov", "shfl", "prmt", "ld", "ldu", "st", "st.async", "st.bulk", "multimem", "prefetch",
          "prefetchu", "applypriority", "discard", "createpolicy", "isspacep", "cvta", "cvt", "mapa",
          "getctarank", "cp.async", "cp.reduce", "tensormap.replace")


def family(text):
    words = text.split()
    if not words:
        return ""
    w = words[1] if words[0].startswith("@") and len(words) > 1 else words[0]
    parts = w.rstrip(";").split(".")
    if parts[0] in ("cp", "tcgen05", "multimem", "mbarrier", "fence", "barrier", "tensormap",
                    "clusterlaunchcontrol", "red", "ld", "st"):
        fam = ".".join(parts[:2])
        if fam == "cp.async" and "mbarrier" in parts[2:3]:
            return "cp.async.mbarrier"
        if fam == "cp.async" and parts[2:3] == ["bulk"]:
            return "cp.async.bulk"
        return fam
    return parts[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ptx_dir")
    ap.add_argument("var_dir")
    ap.add_argument("--conform", default="target/release/conform")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    rows = [l.split() for l in open(os.path.join(args.var_dir, "rc.txt")) if l.strip()]
    work = tempfile.mkdtemp(prefix="variants.")
    sources = {}

    def source(base):
        if base not in sources:
            sources[base] = open(os.path.join(args.ptx_dir, base + ".ptx")).read()
        return sources[base]

    def ptxas_lines(base, kind, value):
        text = open(os.path.join(args.var_dir, f"{base}.{kind}.{value}.err")).read()
        lines = collections.defaultdict(list)
        for l in text.splitlines():
            m = re.match(r"ptxas (.*?), line (\d+); error\s*: (.*)", l)
            # errors placed in ptxas's own macro files are the module's, not a line's
            if m and not m.group(1).startswith("<"):
                lines[int(m.group(2))].append(m.group(3))
        return lines

    def job(row):
        base, kind, value, rc = row
        src = source(base)
        if kind == "t":
            text, arch = re.sub(r"(?m)^\.target .*$", f".target {value}", src), value
        else:
            text, arch = re.sub(r"(?m)^\.version .*$", f".version {value}", src), base.rsplit(".", 1)[1]
        path = os.path.join(work, f"{base}.{kind}.{value}.ptx")
        with open(path, "w") as f:
            f.write(text)
        p = subprocess.run([args.conform, "check", "--json", "--target", arch, path],
                           capture_output=True, text=True)
        os.remove(path)
        ours = collections.defaultdict(list)
        for l in p.stdout.splitlines():
            try:
                d = json.loads(l)
            except ValueError:
                continue
            if d.get("severity", "error") == "error":
                ours[d.get("line") or 0].append(f"[{d.get('rule')}] {d.get('message')}")
        return row, int(rc), p.returncode, ptxas_lines(base, kind, value), ours

    with cf.ThreadPoolExecutor(args.jobs) as ex:
        results = list(ex.map(job, rows))
    files = collections.Counter()
    missed, extra, example = collections.Counter(), collections.Counter(), {}
    norm = lambda s: re.sub(r"sm_\w+|\d+\.\d+", "X", s)
    unread = [0]
    for (base, kind, value, _), rc, orc, theirs, ours in results:
        pv = "accept" if rc == 0 else "reject"
        ov = {0: "accept", 1: "reject"}.get(orc, "refused --target")
        files[(pv, ov)] += 1
        lines = source(base).splitlines()
        text = lambda n: lines[n - 1].strip() if 0 < n <= len(lines) else ""
        for n in set(theirs) - set(ours):
            key = (family(text(n)), norm(theirs[n][0]))
            missed[key] += 1
            example.setdefault(("m",) + key, f"{base} {kind} {value} line {n}")
        # ptxas stops reading at some errors (a fatal one, or too many):
        # lines past the last one it reported were not examined
        last = max(theirs) if theirs else 0
        for n in set(ours) - set(theirs):
            if rc != 0 and n > last:
                unread[0] += 1
                continue
            key = (family(text(n)), norm(ours[n][0])[:150])
            extra[key] += 1
            example.setdefault(("e",) + key, f"{base} {kind} {value} line {n}")
    print("variants (ptxas, ours):", ", ".join(f"{a}/{b}: {c}" for (a, b), c in sorted(files.items())))
    for title, table, tag in (("lines ptxas flags and conform does not", missed, "m"),
                              ("lines conform flags and ptxas does not", extra, "e")):
        inside = sum(c for (fam, _), c in table.items()
                     if any(fam == x or fam.startswith(x + ".") for x in IN_979) and fam != "cp.async.mbarrier")
        print(f"\n{title}: {sum(table.values())} ({inside} on 9.7.9 instructions)")
        for (fam, msg), c in table.most_common():
            print(f"{c:7d}  {fam:28s} {msg[:110]}   e.g. {example[(tag, fam, msg)]}")
    print(f"\nlines conform flags past the last line ptxas reported in a file it rejects "
          f"(not examined by ptxas): {unread[0]}")


if __name__ == "__main__":
    main()
