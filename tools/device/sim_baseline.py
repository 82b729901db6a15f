#!/usr/bin/env python3
"""Runs the simulator's baseline kernels on the GPU and records what the
hardware did, for the CI test that checks the simulator against it.

    python3 tools/device/sim_baseline.py CORPUS OUT

CORPUS is corpus/simulator (cases.json, kernels/, cuda/); OUT receives
  baseline.jsonl  one line per case: buffers' device addresses, contents
                  before (`in`, left out for poison: 0xA5 bytes) and after
                  run 1 (`out`, left out when unchanged), and the byte ranges
                  that differed between two runs with different poison in
                  the output buffers (`unstable`: unwritten or unstable)
  probe.json      the window layout measured by cuda/window_probe.cu
  cvta_funcs.ptx  the PTX nvcc made of cuda/cvta_funcs.cu
  versions.txt    GPU, driver, ptxas, nvcc and CuPy versions
  log.txt         what happened, case by case
PTX is assembled with ptxas -arch=sm_90 and loaded as a cubin. Every case
runs twice: once with its output buffers filled with 0xA5, once with 0x5A.
"""
import json
import os
import subprocess
import sys
import time
import traceback
import zlib

import numpy as np
import cupy as cp

CORPUS, OUT = sys.argv[1], sys.argv[2]
BUILD = "/tmp/sim_baseline_build"
os.makedirs(BUILD, exist_ok=True)
os.makedirs(OUT, exist_ok=True)
LOG = open(os.path.join(OUT, "log.txt"), "a")


def log(*a):
    print(*a, file=LOG, flush=True)
    print(*a, flush=True)


def sh(cmd, timeout=300):
    r = subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=timeout)
    return r.returncode, r.stdout + r.stderr


def versions():
    lines = []
    for cmd in ["nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader",
                "ptxas --version", "nvcc --version"]:
        rc, text = sh(cmd)
        lines.append(f"$ {cmd}\n{text.strip()}")
    lines.append(f"cupy {cp.__version__}")
    with open(os.path.join(OUT, "versions.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    log("\n".join(lines))


def build_cuda():
    rc, text = sh(f"nvcc -arch=sm_90 -O3 -ptx {CORPUS}/cuda/cvta_funcs.cu -o {BUILD}/cvta_funcs.ptx")
    log("nvcc cvta_funcs:", rc, text.strip()[:2000])
    if rc == 0:
        sh(f"cp {BUILD}/cvta_funcs.ptx {OUT}/cvta_funcs.ptx")
    rc, text = sh(f"nvcc -arch=sm_90 -O3 {CORPUS}/cuda/window_probe.cu -o {BUILD}/window_probe")
    log("nvcc window_probe:", rc, text.strip()[:2000])
    if rc == 0:
        rc, text = sh(f"timeout 60 {BUILD}/window_probe")
        log("window_probe:", rc)
        with open(os.path.join(OUT, "probe.json"), "w") as f:
            f.write(text)


def fill(spec, n, poison, name, idx):
    init = spec.get("init", "poison")
    if init == "poison":
        return np.full(n, poison, dtype=np.uint8)
    if init == "random":
        rng = np.random.default_rng(zlib.crc32(f"{name}/{idx}".encode()))
        return rng.integers(0, 256, n, dtype=np.uint8)
    if init in ("u32", "u64"):
        dt = np.uint32 if init == "u32" else np.uint64
        vals = np.array([int(v) & ((1 << (32 if init == "u32" else 64)) - 1) for v in spec["values"]], dtype=dt)
        raw = vals.view(np.uint8)
        buf = np.zeros(n, dtype=np.uint8)
        buf[: len(raw)] = raw[:n]
        return buf
    raise ValueError(f"unknown init {init}")


MODULES = {}


def module(ptx_path):
    if ptx_path not in MODULES:
        cubin = os.path.join(BUILD, os.path.basename(ptx_path) + ".cubin")
        rc, text = sh(f"ptxas -arch=sm_90 {ptx_path} -o {cubin}")
        if rc != 0:
            MODULES[ptx_path] = RuntimeError("ptxas: " + text.strip()[:1500])
        else:
            MODULES[ptx_path] = cp.RawModule(path=cubin)
    m = MODULES[ptx_path]
    if isinstance(m, Exception):
        raise m
    return m


def ranges(mask):
    idx = np.flatnonzero(mask)
    out = []
    if len(idx) == 0:
        return out
    start = prev = int(idx[0])
    for i in idx[1:]:
        i = int(i)
        if i != prev + 1:
            out.append([start, prev + 1])
            start = i
        prev = i
    out.append([start, prev + 1])
    return out


def run_case(case):
    name = case["name"]
    ptx = case["ptx"]
    path = os.path.join(BUILD, "cvta_funcs.ptx") if ptx == "nvcc:cvta_funcs" else os.path.join(CORPUS, ptx)
    fn = module(path).get_function(case["kernel"])
    specs = case["args"]
    outputs = []
    devs = [None] * len(specs)
    for poison in (0xA5, 0x5A):
        args = []
        hosts = []
        for i, spec in enumerate(specs):
            if "buffer" in spec:
                host = fill(spec, spec["buffer"], poison, name, i)
                hosts.append(host)
                if devs[i] is None:
                    devs[i] = cp.empty(spec["buffer"], dtype=np.uint8)
                devs[i].set(host)
                args.append(devs[i])
            elif "u32" in spec:
                hosts.append(None)
                args.append(np.uint32(int(spec["u32"]) & 0xFFFFFFFF))
            elif "u64" in spec:
                hosts.append(None)
                args.append(np.uint64(int(spec["u64"]) & ((1 << 64) - 1)))
            else:
                raise ValueError(f"bad arg {spec}")
        cp.cuda.Device().synchronize()
        fn(tuple(case["grid"]), tuple(case["block"]), tuple(args), shared_mem=case.get("shared", 0))
        cp.cuda.Device().synchronize()
        outputs.append((hosts, [d.get() if d is not None else None for d in devs]))
    (in1, out1), (_, out2) = outputs
    rec_args = []
    for i, spec in enumerate(specs):
        if "buffer" in spec:
            rec = {"addr": int(devs[i].data.ptr)}
            if spec.get("init", "poison") != "poison":
                rec["in"] = in1[i].tobytes().hex()
            if not np.array_equal(in1[i], out1[i]):
                rec["out"] = out1[i].tobytes().hex()
            rec["unstable"] = ranges(out1[i] != out2[i])
            rec_args.append(rec)
        elif "u32" in spec:
            rec_args.append({"u32": int(spec["u32"]) & 0xFFFFFFFF})
        else:
            rec_args.append({"u64": int(spec["u64"]) & ((1 << 64) - 1)})
    return rec_args


def run_group(ptx):
    """Runs the cases of one PTX file in this process (a child of main), so
    that a fault or a hang loses only that file's cases."""
    cases = [c for c in json.load(open(os.path.join(CORPUS, "cases.json")))["cases"] if c["ptx"] == ptx]
    with open(os.path.join(OUT, "baseline.jsonl"), "a") as f:
        for case in cases:
            t = time.time()
            try:
                args = run_case(case)
                rec = {"name": case["name"], "ok": True, "args": args}
                status = "ok"
            except Exception as e:  # noqa: BLE001
                rec = {"name": case["name"], "ok": False, "error": f"{type(e).__name__}: {e}"[:3000]}
                status = "FAILED " + rec["error"][:300]
                log(traceback.format_exc()[-1500:])
            f.write(json.dumps(rec) + "\n")
            f.flush()
            log(f"{case['name']}: {status} ({time.time() - t:.2f} s)")


def main():
    t0 = time.time()
    if len(sys.argv) > 4 and sys.argv[3] == "--group":
        run_group(sys.argv[4])
        return
    versions()
    build_cuda()
    open(os.path.join(OUT, "baseline.jsonl"), "w").close()
    cases = json.load(open(os.path.join(CORPUS, "cases.json")))["cases"]
    groups = []
    for c in cases:
        if c["ptx"] not in groups:
            groups.append(c["ptx"])
    for ptx in groups:
        try:
            r = subprocess.run([sys.executable, __file__, CORPUS, OUT, "--group", ptx], timeout=150)
            log(f"group {ptx}: exit {r.returncode}")
        except subprocess.TimeoutExpired:
            log(f"group {ptx}: TIMED OUT")
    done = [json.loads(l) for l in open(os.path.join(OUT, "baseline.jsonl"))]
    ok = sum(1 for d in done if d["ok"])
    log(f"done: {ok} ok, {len(done) - ok} failed or missing of {len(cases)}, {time.time() - t0:.1f} s")


if __name__ == "__main__":
    main()
