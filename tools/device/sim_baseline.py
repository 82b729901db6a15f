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

    python3 tools/device/sim_baseline.py CORPUS OUT --cases FILE

runs the cases of FILE (a path under CORPUS, e.g. nvcc-cases.json, whose PTX
paths may point out of CORPUS: ../nvcc/ptx/NAME.sm_90.ptx) instead, into
OUT/baseline.jsonl, without the CUDA builds. Such a file may also give a
case "cluster" dimensions, "memory" (global buffers that are no argument)
and arguments {"param": N, "bytes": HEX, "ptrs": [[OFFSET, MEM, ADD]]} or
{"tmap": FIELDS, "mem"|"buf": K, "offset": B} (a cuTensorMapEncodeTiled
map): a case that uses any of them is launched through cuLaunchKernelEx,
and its record gains "memory" and {"param": HEX} (the bytes passed).
"""
import json
import os
import subprocess
import sys
import time
import traceback
import zlib

import ctypes

import numpy as np
import cupy as cp

CORPUS, OUT = sys.argv[1], sys.argv[2]
CASES = "cases.json"
if "--cases" in sys.argv:
    CASES = sys.argv[sys.argv.index("--cases") + 1]
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


class LaunchAttribute(ctypes.Structure):
    """CUlaunchAttribute: an id, padding to 8 bytes, a 64-byte value."""
    _fields_ = [("id", ctypes.c_int), ("pad", ctypes.c_char * 4), ("value", ctypes.c_uint32 * 16)]


class LaunchConfig(ctypes.Structure):
    """CUlaunchConfig."""
    _fields_ = [("grid", ctypes.c_uint * 3), ("block", ctypes.c_uint * 3), ("shared", ctypes.c_uint),
                ("stream", ctypes.c_void_p), ("attrs", ctypes.POINTER(LaunchAttribute)),
                ("num_attrs", ctypes.c_uint)]


CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4
LIBCUDA = None


def launch_ex(fn, grid, block, shared, cluster, params):
    """cuLaunchKernelEx with each parameter's bytes as given, and cluster
    dimensions when asked for."""
    global LIBCUDA
    if LIBCUDA is None:
        LIBCUDA = ctypes.CDLL("libcuda.so.1")
    bufs = [ctypes.create_string_buffer(bytes(p), max(len(p), 1)) for p in params]
    ptrs = (ctypes.c_void_p * max(len(bufs), 1))(*[ctypes.cast(b, ctypes.c_void_p) for b in bufs])
    cfg = LaunchConfig()
    cfg.grid[:] = list(grid)
    cfg.block[:] = list(block)
    cfg.shared = shared
    cfg.stream = None
    attrs = (LaunchAttribute * 1)()
    if cluster:
        attrs[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
        attrs[0].value[0], attrs[0].value[1], attrs[0].value[2] = cluster
        cfg.attrs = ctypes.cast(attrs, ctypes.POINTER(LaunchAttribute))
        cfg.num_attrs = 1
    else:
        cfg.num_attrs = 0
    func = getattr(fn, "kernel", fn)  # a RawKernel's cupy.cuda.Function
    rc = LIBCUDA.cuLaunchKernelEx(ctypes.byref(cfg), ctypes.c_void_p(func.ptr), ptrs, None)
    if rc != 0:
        raise RuntimeError(f"cuLaunchKernelEx: CUresult {rc}")


def needs_launch_ex(case):
    return "cluster" in case or "memory" in case or any("param" in a or "tmap" in a for a in case["args"])


def encode_tiled(t, gaddr):
    """cuTensorMapEncodeTiled of the fields `t` (nvcc-cases.json) at global
    address `gaddr`: the map's 128 bytes."""
    global LIBCUDA
    if LIBCUDA is None:
        LIBCUDA = ctypes.CDLL("libcuda.so.1")
    r = t["rank"]
    raw = ctypes.create_string_buffer(128 + 64)
    addr = (ctypes.addressof(raw) + 63) // 64 * 64  # CUtensorMap is 64-byte aligned
    dims = (ctypes.c_uint64 * 5)(*(t["dims"] + [1] * 5)[:5])
    strides = (ctypes.c_uint64 * 5)(*(t["strides"] + [0] * 5)[:5])
    box = (ctypes.c_uint32 * 5)(*(t["box"] + [1] * 5)[:5])
    es = (ctypes.c_uint32 * 5)(*(t["estrides"] + [1] * 5)[:5])
    f = LIBCUDA.cuTensorMapEncodeTiled
    f.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p, ctypes.c_void_p,
                  ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                  ctypes.c_int, ctypes.c_int]
    rc = f(ctypes.c_void_p(addr), t["type"], r, ctypes.c_void_p(gaddr), ctypes.cast(dims, ctypes.c_void_p),
           ctypes.cast(strides, ctypes.c_void_p), ctypes.cast(box, ctypes.c_void_p),
           ctypes.cast(es, ctypes.c_void_p), t["interleave"], t["swizzle"], t["l2"], t["fill"])
    if rc != 0:
        raise RuntimeError(f"cuTensorMapEncodeTiled: CUresult {rc}")
    return ctypes.string_at(addr, 128)


def run_case_ex(case, path):
    """A case with cluster dimensions, structure parameters or memory beside
    the arguments: launched through cuLaunchKernelEx."""
    name = case["name"]
    fn = module(path).get_function(case["kernel"])
    specs = case["args"]
    mems = case.get("memory", [])
    devs = [None] * len(specs)
    mdevs = [None] * len(mems)
    runs = []
    for poison in (0xA5, 0x5A):
        hosts, mhosts = [], []
        for k, spec in enumerate(mems):
            host = fill(spec, spec["buffer"], poison, name + "/memory", k)
            mhosts.append(host)
            if mdevs[k] is None:
                mdevs[k] = cp.empty(spec["buffer"], dtype=np.uint8)
            mdevs[k].set(host)
        params = []
        for i, spec in enumerate(specs):
            if "buffer" in spec and devs[i] is None:
                devs[i] = cp.empty(spec["buffer"], dtype=np.uint8)
        for i, spec in enumerate(specs):
            if "buffer" in spec:
                host = fill(spec, spec["buffer"], poison, name, i)
                hosts.append(host)
                devs[i].set(host)
                params.append(int(devs[i].data.ptr).to_bytes(8, "little"))
            elif "tmap" in spec:
                hosts.append(None)
                base = mdevs[spec["mem"]] if "mem" in spec else devs[spec["buf"]]
                params.append(encode_tiled(spec["tmap"], int(base.data.ptr) + spec.get("offset", 0)))
            elif "param" in spec:
                hosts.append(None)
                b = bytearray(bytes.fromhex(spec["bytes"]))
                for off, mem, add in spec.get("ptrs", []):
                    b[off:off + 8] = ((int(mdevs[mem].data.ptr) + add) % (1 << 64)).to_bytes(8, "little")
                params.append(bytes(b))
            elif "u32" in spec:
                hosts.append(None)
                params.append((int(spec["u32"]) & 0xFFFFFFFF).to_bytes(4, "little"))
            elif "u64" in spec:
                hosts.append(None)
                params.append((int(spec["u64"]) & ((1 << 64) - 1)).to_bytes(8, "little"))
            else:
                raise ValueError(f"bad arg {spec}")
        cp.cuda.Device().synchronize()
        launch_ex(fn, case["grid"], case["block"], case.get("shared", 0), case.get("cluster"), params)
        cp.cuda.Device().synchronize()
        runs.append((hosts, [d.get() if d is not None else None for d in devs],
                     mhosts, [d.get() for d in mdevs], params))
    (in1, out1, min1, mout1, params1), (_, out2, _, mout2, _) = runs

    def buffer_record(spec, dev, before, after1, after2):
        rec = {"addr": int(dev.data.ptr)}
        if spec.get("init", "poison") != "poison":
            rec["in"] = before.tobytes().hex()
        if not np.array_equal(before, after1):
            rec["out"] = after1.tobytes().hex()
        rec["unstable"] = ranges(after1 != after2)
        return rec

    rec_args = []
    for i, spec in enumerate(specs):
        if "buffer" in spec:
            rec_args.append(buffer_record(spec, devs[i], in1[i], out1[i], out2[i]))
        elif "param" in spec or "tmap" in spec:
            rec_args.append({"param": params1[i].hex()})
        elif "u32" in spec:
            rec_args.append({"u32": int(spec["u32"]) & 0xFFFFFFFF})
        else:
            rec_args.append({"u64": int(spec["u64"]) & ((1 << 64) - 1)})
    rec_mem = [buffer_record(spec, mdevs[k], min1[k], mout1[k], mout2[k]) for k, spec in enumerate(mems)]
    return rec_args, rec_mem


def run_case(case):
    name = case["name"]
    ptx = case["ptx"]
    path = os.path.join(BUILD, "cvta_funcs.ptx") if ptx == "nvcc:cvta_funcs" else os.path.join(CORPUS, ptx)
    if needs_launch_ex(case):
        return run_case_ex(case, path)
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


def recorded():
    path = os.path.join(OUT, "baseline.jsonl")
    if not os.path.exists(path):
        return set()
    return {json.loads(l)["name"] for l in open(path) if l.strip()}


def run_group(ptx):
    """Runs the cases of one PTX file in this process (a child of main), so
    that a fault or a hang loses only that file's cases. With --cases, the
    cases already recorded are skipped, and the process ends after a case
    that failed (a fault spoils the CUDA context): main starts it again for
    the rest."""
    cases = [c for c in json.load(open(os.path.join(CORPUS, CASES)))["cases"] if c["ptx"] == ptx]
    if CASES != "cases.json":
        done = recorded()
        cases = [c for c in cases if c["name"] not in done]
    with open(os.path.join(OUT, "baseline.jsonl"), "a") as f:
        for case in cases:
            t = time.time()
            if CASES != "cases.json":
                with open(os.path.join(OUT, "started.txt"), "w") as s:
                    s.write(case["name"])
            try:
                args = run_case(case)
                rec = {"name": case["name"], "ok": True, "args": args}
                if isinstance(args, tuple):
                    rec["args"], rec["memory"] = args
                    if not rec["memory"]:
                        del rec["memory"]
                status = "ok"
            except Exception as e:  # noqa: BLE001
                rec = {"name": case["name"], "ok": False, "error": f"{type(e).__name__}: {e}"[:3000]}
                status = "FAILED " + rec["error"][:300]
                log(traceback.format_exc()[-1500:])
            f.write(json.dumps(rec) + "\n")
            f.flush()
            log(f"{case['name']}: {status} ({time.time() - t:.2f} s)")
            if not rec["ok"] and CASES != "cases.json":
                return


def run_group_again(ptx, cases):
    """The cases of one PTX file from a --cases file: a process for the
    file, and a new one after each case that failed or hung (30 s), until
    every case has a record."""
    names = [c["name"] for c in cases if c["ptx"] == ptx]
    for _ in range(len(names)):
        left = [n for n in names if n not in recorded()]
        if not left:
            return
        started = os.path.join(OUT, "started.txt")
        if os.path.exists(started):
            os.remove(started)
        try:
            r = subprocess.run([sys.executable, __file__, CORPUS, OUT, "--group", ptx, "--cases", CASES],
                               timeout=30)
            log(f"group {ptx}: exit {r.returncode}")
        except subprocess.TimeoutExpired:
            name = open(started).read().strip() if os.path.exists(started) else left[0]
            log(f"group {ptx}: {name} TIMED OUT")
            with open(os.path.join(OUT, "baseline.jsonl"), "a") as f:
                f.write(json.dumps({"name": name, "ok": False, "error": "timed out (30 s)"}) + "\n")
        still = [n for n in names if n not in recorded()]
        if still == left:
            # no progress (the process died before a record): give up on the first
            with open(os.path.join(OUT, "baseline.jsonl"), "a") as f:
                f.write(json.dumps({"name": left[0], "ok": False, "error": "the process ended without a record"}) + "\n")


def main():
    t0 = time.time()
    if "--group" in sys.argv:
        run_group(sys.argv[sys.argv.index("--group") + 1])
        return
    versions()
    if CASES == "cases.json":
        build_cuda()
    open(os.path.join(OUT, "baseline.jsonl"), "w").close()
    cases = json.load(open(os.path.join(CORPUS, CASES)))["cases"]
    groups = []
    for c in cases:
        if c["ptx"] not in groups:
            groups.append(c["ptx"])
    for ptx in groups:
        if CASES != "cases.json":
            run_group_again(ptx, cases)
            continue
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
