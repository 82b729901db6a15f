#!/usr/bin/env python3
"""Runs every approximate floating-point form sm_90 has (PTX ISA 9.7.3.8,
9.7.3.13-22, 9.7.4.9-10) on the GPU over edge values and many seeded random
inputs, and checks each result against the model's bound.

    python3 tools/device/approx_sweep.py CHECKER OUT [N]

CHECKER is the test binary of semantics/tests/approx.rs (its ignored test
`check_gpu_sweep` reads the GPU's outputs and writes, per form, the values
outside the model's bound and the largest error in the spec's unit); OUT
receives
  summary.json    per form: inputs, values by bound kind, values outside the
                  bound (with the cases), the largest error per rule of the
                  spec, the seed and the counts of edge and random inputs
  sample.tsv.gz   form, index, a, b, d (hex) for every edge input, the first
                  1024 random inputs, the worst inputs and every input
                  outside the bound: what the CI test rechecks
  versions.txt    GPU, driver, ptxas and CuPy versions
  log.txt         what happened
Inputs: `.f32` and `.f64` forms take the edge values (for `div`, every pair
of them) then N (default 2^20) random registers, SplitMix64 from the seed
FNV-1a-64(form) (the first output is input 0; a register takes the output's
low bits, `div`'s `b` bits 32..63 of the same output): uniform over the
encodings, so every binade is drawn alike. 16-bit forms take every
encoding; their x2 forms pair lane 0 = i with lane 1 = (i * 40503 + 12345)
mod 2^16, so each lane sees every encoding. Each launch runs twice, its
output poisoned with 0xA5 then 0x5A bytes: both runs must agree.
"""
import gzip
import json
import os
import subprocess
import sys
import time

import numpy as np
import cupy as cp

CHECKER, OUT = sys.argv[1], sys.argv[2]
N = int(sys.argv[3]) if len(sys.argv) > 3 else 1 << 20
WORK = "/tmp/approx_sweep"
os.makedirs(WORK, exist_ok=True)
os.makedirs(OUT, exist_ok=True)
LOG = open(os.path.join(OUT, "log.txt"), "a")
SAMPLE_RANDOM = 1024

# (form, register bits, sources): the rows of semantics/src/arith/approx.rs FORMS
FORMS = [
    ("div.approx.f32", 32, 2), ("div.approx.ftz.f32", 32, 2),
    ("div.full.f32", 32, 2), ("div.full.ftz.f32", 32, 2),
    ("rcp.approx.f32", 32, 1), ("rcp.approx.ftz.f32", 32, 1), ("rcp.approx.ftz.f64", 64, 1),
    ("sqrt.approx.f32", 32, 1), ("sqrt.approx.ftz.f32", 32, 1),
    ("rsqrt.approx.f32", 32, 1), ("rsqrt.approx.ftz.f32", 32, 1),
    ("rsqrt.approx.f64", 64, 1), ("rsqrt.approx.ftz.f64", 64, 1),
    ("sin.approx.f32", 32, 1), ("sin.approx.ftz.f32", 32, 1),
    ("cos.approx.f32", 32, 1), ("cos.approx.ftz.f32", 32, 1),
    ("lg2.approx.f32", 32, 1), ("lg2.approx.ftz.f32", 32, 1),
    ("ex2.approx.f32", 32, 1), ("ex2.approx.ftz.f32", 32, 1),
    ("ex2.approx.f16", 16, 1), ("ex2.approx.f16x2", 32, 1),
    ("ex2.approx.ftz.bf16", 16, 1), ("ex2.approx.ftz.bf16x2", 32, 1),
    ("tanh.approx.f32", 32, 1), ("tanh.approx.f16", 16, 1), ("tanh.approx.f16x2", 32, 1),
    ("tanh.approx.bf16", 16, 1), ("tanh.approx.bf16x2", 32, 1),
]

NP = {16: np.uint16, 32: np.uint32, 64: np.uint64}


def log(*a):
    print(*a, file=LOG, flush=True)
    print(*a, flush=True)


def sh(cmd, timeout=300):
    r = subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=timeout)
    return r.returncode, r.stdout + r.stderr


def fnv1a64(text):
    h = 0xcbf29ce484222325
    for c in text.encode():
        h = ((h ^ c) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def splitmix(seed, n):
    """The first n outputs of SplitMix64(seed) (gen/src/rng.rs)."""
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + (np.arange(1, n + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15))
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def f32(x):
    return int(np.float32(x).view(np.uint32))


def edges32():
    pos = [0, 1, 2, 0x7FFFFF, 0x800000, 0x800001, 0x3F000000, 0x3EFFFFFF, 0x3F000001,
           0x3F800000, 0x3F7FFFFF, 0x3F800001, 0x40000000, 0x3FFFFFFF, 0x40000001,
           0x40400000, 0x7F7FFFFF, 0x7F800000, 0x7FC00000, 0x7F800001, 0x7FFFFFFF,
           0x7E800000, 0x7E7FFFFF, 0x7E800001, 0x7F000000, 0x7F7FFFFE, 0x00800000 + 5,
           0x01000000, 0x00400000, f32(2 * np.pi), f32(2 * np.pi) + 1, f32(2 * np.pi) - 1,
           f32(100 * np.pi), f32(100 * np.pi) + 1, f32(100 * np.pi) - 1, f32(np.pi), f32(np.pi / 2),
           f32(1e30), f32(1e-30), f32(127.0), f32(128.0), f32(127.99999), f32(126.0), f32(149.0),
           f32(150.0), f32(0.6931472), f32(9.0), f32(0.1), f32(10.0), f32(20.0), f32(0.00048828125)]
    out = []
    for p in pos:
        out += [p, p | 0x80000000]
    return sorted(set(out))


def edges16(bf):
    if bf:
        pos = [0, 1, 0x7F, 0x80, 0x3F80, 0x3F7F, 0x4000, 0x7F7F, 0x7F80, 0x7FC0, 0x7F81, 0x4300, 0x42FE]
    else:
        pos = [0, 1, 0x3FF, 0x400, 0x3C00, 0x3BFF, 0x3C01, 0x4000, 0x7BFF, 0x7C00, 0x7E00, 0x7C01,
               0x4C00, 0x4BFF, 0xC00 | 0x4800]
    out = []
    for p in pos:
        out += [p, p | 0x8000]
    return sorted(set(out))


def edges64():
    pos = [0, 1, 0x000FFFFF00000000, 0x0000000100000000, 0x0010000000000000, 0x3FF0000000000000,
           0x3FF00000FFFFFFFF, 0x3FEFFFFFFFFFFFFF, 0x4000000000000000, 0x4010000000000000,
           0x3FE0000000000000, 0x7FEFFFFFFFFFFFFF, 0x7FE0000000000000, 0x7FF0000000000000,
           0x7FF8000000000000, 0x7FF0000000000001, 0x7FF0000100000000, 0x7FFFFFFFFFFFFFFF,
           0x0000000080000000, 0x3FF8000000000000, 0x4024000000000000]
    out = []
    for p in pos:
        out += [p, p | (1 << 63)]
    return sorted(set(out))


def inputs(form, bits, srcs):
    """(a, b or None, edge count, random count, seed)."""
    seed = fnv1a64(form)
    ty = form.rsplit(".", 1)[1]
    if ty in ("f16", "bf16"):
        a = np.arange(1 << 16, dtype=np.uint16)
        return a, None, 0, 0, seed
    if ty in ("f16x2", "bf16x2"):
        i = np.arange(1 << 16, dtype=np.uint32)
        a = (i | (((i * 40503 + 12345) & 0xFFFF) << 16)).astype(np.uint32)
        return a, None, 0, 0, seed
    z = splitmix(seed, N)
    if bits == 64:
        e = np.array(edges64(), dtype=np.uint64)
        return np.concatenate([e, z]), None, len(e), N, seed
    e = np.array(edges32(), dtype=np.uint32)
    lo = (z & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    if srcs == 1:
        return np.concatenate([e, lo]), None, len(e), N, seed
    hi = (z >> np.uint64(32)).astype(np.uint32)
    ea = np.repeat(e, len(e))
    eb = np.tile(e, len(e))
    return np.concatenate([ea, lo]), np.concatenate([eb, hi]), len(ea), N, seed


def kernel(form, bits, srcs):
    b = bits // 8
    ops = "%a, %b" if srcs == 2 else "%a"
    lines = [
        ".version 8.7", ".target sm_90", ".address_size 64", "",
        ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pd, .param .u32 n)", "{",
        "\t.reg .pred %p;", "\t.reg .b32 %i, %t, %c, %w, %n;", "\t.reg .b64 %off, %ra, %rb, %rd;",
        f"\t.reg .b{bits} %a, %b, %d;",
        "\tmov.u32 %t, %tid.x;", "\tmov.u32 %c, %ctaid.x;", "\tmov.u32 %w, %ntid.x;",
        "\tmad.lo.u32 %i, %c, %w, %t;", "\tld.param.u32 %n, [n];",
        "\tsetp.ge.u32 %p, %i, %n;", "\t@%p ret;",
        f"\tmul.wide.u32 %off, %i, {b};",
        "\tld.param.u64 %ra, [pa];", "\tcvta.to.global.u64 %ra, %ra;", "\tadd.u64 %ra, %ra, %off;",
        f"\tld.global.b{bits} %a, [%ra];",
    ]
    if srcs == 2:
        lines += ["\tld.param.u64 %rb, [pb];", "\tcvta.to.global.u64 %rb, %rb;",
                  "\tadd.u64 %rb, %rb, %off;", f"\tld.global.b{bits} %b, [%rb];"]
    lines += [
        f"\t{form} %d, {ops};",
        "\tld.param.u64 %rd, [pd];", "\tcvta.to.global.u64 %rd, %rd;", "\tadd.u64 %rd, %rd, %off;",
        f"\tst.global.b{bits} [%rd], %d;", "\tret;", "}", "",
    ]
    return "\n".join(lines)


def run_form(form, bits, srcs):
    a, b, n_edge, n_rand, seed = inputs(form, bits, srcs)
    ptx = kernel(form, bits, srcs)
    stem = os.path.join(WORK, form)
    with open(stem + ".ptx", "w") as f:
        f.write(ptx)
    rc, text = sh(f"ptxas -arch=sm_90 -o '{stem}.cubin' '{stem}.ptx'")
    if rc != 0:
        log(f"{form}: ptxas failed: {text}")
        return None
    mod = cp.RawModule(path=stem + ".cubin")
    fn = mod.get_function("k")
    n = len(a)
    da = cp.asarray(a)
    db = cp.asarray(b if b is not None else a)
    outs = []
    for poison in (0xA5, 0x5A):
        dd = cp.full(n * bits // 8, poison, dtype=cp.uint8)
        block = 256
        grid = (n + block - 1) // block
        fn((grid,), (block,), (da, db, dd, np.uint32(n)))
        cp.cuda.Device().synchronize()
        outs.append(cp.asnumpy(dd).view(NP[bits]))
    d = outs[0]
    unstable = int(np.count_nonzero(outs[0] != outs[1]))
    a.astype(NP[bits]).tofile(stem + ".a.bin")
    if b is not None:
        b.astype(NP[bits]).tofile(stem + ".b.bin")
    d.tofile(stem + ".d.bin")
    return dict(a=a, b=b, d=d, edges=n_edge, random=n_rand, seed=seed, unstable=unstable)


def main():
    t0 = time.time()
    lines = []
    for cmd in ["nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader",
                "ptxas --version"]:
        rc, text = sh(cmd)
        lines.append(f"$ {cmd}\n{text.strip()}")
    lines.append(f"cupy {cp.__version__}")
    with open(os.path.join(OUT, "versions.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    log("\n".join(lines))
    runs = {}
    for form, bits, srcs in FORMS:
        r = run_form(form, bits, srcs)
        if r is not None:
            runs[form] = r
            log(f"{form}: {len(r['a'])} inputs, unstable {r['unstable']} ({time.time() - t0:.1f}s)")
    rc, text = sh(f"APPROX_SWEEP_DIR={WORK} '{CHECKER}' --ignored --exact check_gpu_sweep", 600)
    log(f"checker rc {rc}\n{text[-3000:]}")
    summary = {"versions": lines, "random_per_form": N, "forms": []}
    sample = []
    for form, bits, srcs in FORMS:
        r = runs.get(form)
        path = os.path.join(WORK, form + ".check.json")
        if r is None or not os.path.exists(path):
            summary["forms"].append({"form": form, "error": "did not run or was not checked"})
            continue
        check = json.load(open(path))
        check.update(seed=f"{r['seed']:#018x}", edge_inputs=r["edges"], random_inputs=r["random"],
                     unstable=r["unstable"])
        summary["forms"].append(check)
        n = len(r["a"])
        if r["edges"] or r["random"]:
            idx = set(range(min(n, r["edges"] + SAMPLE_RANDOM)))
        else:
            idx = set(range(0, n, 64))  # 16-bit forms: every 64th encoding
        idx |= set(check.get("worst", []))
        idx |= {c[0] for c in check.get("outside_cases", [])}
        w = bits // 4
        for i in sorted(idx):
            b = r["b"][i] if r["b"] is not None else 0
            sample.append(f"{form}\t{i}\t{int(r['a'][i]):0{w}x}\t{int(b):0{w}x}\t{int(r['d'][i]):0{w}x}")
    with open(os.path.join(OUT, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    with gzip.open(os.path.join(OUT, "sample.tsv.gz"), "wt") as f:
        f.write("# form\tindex\ta\tb\td (hex registers; b is 0 for one-source forms)\n")
        f.write("\n".join(sample) + "\n")
    log(f"done in {time.time() - t0:.1f}s; {len(sample)} sample rows")


main()
