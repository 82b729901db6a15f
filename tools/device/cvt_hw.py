#!/usr/bin/env python3
"""Runs the conversion kernels written by `conform cvt-hw gen` on the GPU.

usage: cvt_hw.py WORKDIR [--arch sm_90]

For every form: ptxas compiles k/<id>.ptx (its exit status and first message
go to ptxas.tsv); each input set runs twice, with the output buffer poisoned
with two different patterns, and the two results must agree (every element
written, deterministic); the output goes to out/<id>.<set>.bin. Forms with a
dg/<id>.ptx kernel are also swept over all 2^32 inputs through a digest
(digests.tsv). Needs CuPy and ptxas.
"""
import concurrent.futures as cf
import os
import subprocess
import sys

import cupy as cp
import numpy as np

POISON = (np.uint64(0xDEADBEEFDEADBEEF), np.uint64(0x0123456789ABCDEF))


def ptxas(path, arch):
    cubin = path[:-4] + ".cubin"
    r = subprocess.run(["ptxas", f"-arch={arch}", "-o", cubin, path], capture_output=True, text=True)
    msg = (r.stderr.strip().splitlines() or [""])[0]
    return r.returncode, msg.replace("\t", " ")


def main():
    work = sys.argv[1]
    arch = sys.argv[sys.argv.index("--arch") + 1] if "--arch" in sys.argv else "sm_90"
    forms = []
    with open(os.path.join(work, "manifest.tsv")) as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            sets = [c.split(":") for c in cols[3:]]
            forms.append((cols[0], cols[1], int(cols[2]), sets))
    paths = [os.path.join(work, "k", f"{i}.ptx") for i, _, _, _ in forms]
    digest_paths = [os.path.join(work, "dg", f"{i}.ptx") for i, _, _, _ in forms]
    digest_paths = [p for p in digest_paths if os.path.exists(p)]
    with cf.ThreadPoolExecutor(os.cpu_count()) as ex:
        verdicts = list(ex.map(lambda p: ptxas(p, arch), paths))
        dverdicts = dict(zip(digest_paths, ex.map(lambda p: ptxas(p, arch), digest_paths)))
    with open(os.path.join(work, "ptxas.tsv"), "w") as f:
        for (i, text, _, _), (rc, msg) in zip(forms, verdicts):
            f.write(f"{i}\t{rc}\t{msg}\n")
    print(f"ptxas: {sum(1 for v in verdicts if v[0] == 0)} of {len(forms)} forms accepted", flush=True)

    inputs = {}
    bad = 0
    for (i, text, k, sets), (rc, _) in zip(forms, verdicts):
        if rc != 0:
            continue
        fn = cp.RawModule(path=os.path.join(work, "k", f"{i}.cubin")).get_function("k")
        for name, rows, key in sets:
            if key not in inputs:
                inputs.clear()
                inputs[key] = cp.asarray(np.fromfile(os.path.join(work, "in", f"{key}.bin"), dtype=np.uint64))
            d_in = inputs[key]
            n = d_in.size // k
            out = cp.empty(n, dtype=cp.uint64)
            results = []
            for poison in POISON:
                out.fill(poison)
                fn(((n + 255) // 256,), (256,), (d_in, out, np.uint32(n)))
                results.append(out.get())
            differ = int(np.count_nonzero(results[0] != results[1]))
            if differ:
                bad += 1
                print(f"{text} {name}: {differ} elements differ between runs", flush=True)
            results[0].tofile(os.path.join(work, "out", f"{i}.{name}.bin"))
    cp.cuda.Device().synchronize()
    print(f"ran {len(forms)} forms; {bad} with elements unwritten or nondeterministic", flush=True)

    with open(os.path.join(work, "digests.tsv"), "w") as f:
        for (i, text, _, _), (rc, _) in zip(forms, verdicts):
            p = os.path.join(work, "dg", f"{i}.ptx")
            if rc != 0 or p not in dverdicts or dverdicts[p][0] != 0:
                continue
            fn = cp.RawModule(path=p[:-4] + ".cubin").get_function("dg")
            acc = cp.zeros(1, dtype=cp.uint64)
            fn((8192,), (256,), (acc,))
            f.write(f"{i}\t{int(acc.get()[0]):016x}\n")
    print("digests done", flush=True)


if __name__ == "__main__":
    main()
