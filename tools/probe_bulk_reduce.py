#!/usr/bin/env python3
"""Probes the element-wise results of `cp.reduce.async.bulk` on the GPU.

usage: probe_bulk_reduce.py [--ptx-only DIR] [--one NAME] [--jobs N]

For every variant (`.redOp`, `.type`, `.noftz`) of the `.global` destination
(PTX ISA 9.7.9.25.4.2), a kernel for sm_90 copies the chosen source elements
into shared memory, runs `fence.proxy.async.shared::cta` and a barrier, and
one thread issues

    cp.reduce.async.bulk.global.shared::cta.bulk_group.OP{.noftz}.TYPE [dst], [smem], size;
    cp.async.bulk.commit_group; cp.async.bulk.wait_group 0;

onto global memory that holds the chosen old values. The host reads the
result back and prints one line per element:

    OP TYPE NOFTZ OLD SRC RESULT        (NOFTZ is `noftz` or `-`; hex bits)

The `.shared::cluster` destination is not probed. Variants outside the
spec's table ("extra") are assembled with ptxas too, and run where ptxas
and the driver take them; their lines carry the same format and a
`# extra` header before them.

Each variant runs in its own process (a faulting kernel cannot spoil the
others). The PTX is loaded with the driver's JIT (`cupy.cuda.function.Module
().load`), falling back to a cubin from ptxas. Needs CuPy and NumPy; ptxas
is optional (used for verdicts and as the fallback).
"""
import concurrent.futures as cf
import os
import random
import shutil
import subprocess
import sys
import tempfile

import numpy as np

# ---------------------------------------------------------------- variants

# (op, type, noftz, in the spec's .global table)
TABLE = [
    ("and", "b32", False), ("or", "b32", False), ("xor", "b32", False),
    ("and", "b64", False), ("or", "b64", False), ("xor", "b64", False),
    ("add", "u32", False), ("add", "s32", False), ("add", "u64", False),
    ("add", "f32", False), ("add", "f64", False),
    ("add", "f16", True), ("add", "bf16", True),
    ("inc", "u32", False), ("dec", "u32", False),
    ("min", "u32", False), ("max", "u32", False),
    ("min", "s32", False), ("max", "s32", False),
    ("min", "u64", False), ("max", "u64", False),
    ("min", "s64", False), ("max", "s64", False),
    ("min", "f16", False), ("max", "f16", False),
    ("min", "bf16", False), ("max", "bf16", False),
]
# Outside the table: what ptxas and the hardware make of them.
EXTRA = [
    ("min", "f16", True), ("max", "f16", True),
    ("min", "bf16", True), ("max", "bf16", True),
    ("add", "f16", False), ("add", "bf16", False),
    ("add", "f32", True),
    ("min", "f32", False), ("max", "f64", False),
    ("add", "s64", False), ("inc", "u64", False),
]

WIDTH = {"b32": 32, "u32": 32, "s32": 32, "f32": 32,
         "b64": 64, "u64": 64, "s64": 64, "f64": 64,
         "f16": 16, "bf16": 16}
NP = {16: np.uint16, 32: np.uint32, 64: np.uint64}


def name(v):
    op, ty, noftz = v
    return f"{op}.{'noftz.' if noftz else ''}{ty}"


# ---------------------------------------------------------------- values

F16_SPECIAL = [
    0x0000, 0x8000, 0x0001, 0x8001, 0x0200, 0x8200, 0x03FF, 0x83FF,
    0x0400, 0x8400, 0x3C00, 0xBC00, 0x3E00, 0xC000, 0x7BFF, 0xFBFF,
    0x7C00, 0xFC00,
    0x7E00, 0x7FFF, 0xFE00, 0x7E01, 0xFFFF, 0x7F55,   # quiet NaNs
    0x7C01, 0x7D55, 0xFC01, 0x7DFF,                   # signalling NaNs
]
BF16_SPECIAL = [
    0x0000, 0x8000, 0x0001, 0x8001, 0x0040, 0x8040, 0x007F, 0x807F,
    0x0080, 0x8080, 0x3F80, 0xBF80, 0x3FC0, 0xC000, 0x7F7F, 0xFF7F,
    0x7F80, 0xFF80,
    0x7FC0, 0x7FFF, 0xFFC0, 0x7FC1, 0xFFFF, 0x7FD5,
    0x7F81, 0x7FAA, 0xFF81, 0x7FBF,
]
F32_SPECIAL = [
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x00400000, 0x80400000,
    0x007FFFFF, 0x807FFFFF, 0x00800000, 0x80800000, 0x00C00000, 0x80C00000,
    0x00800001, 0x01000000, 0x3F800000, 0xBF800000, 0x3F800001, 0x33800000,
    0x33800001, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000,
    0x7FC00000, 0x7FFFFFFF, 0xFFC00000, 0x7FC00123, 0xFFFFFFFF,
    0x7F800001, 0x7FA00000, 0xFF800001, 0x7FBFFFFF,
]
F64_SPECIAL = [
    0x0000000000000000, 0x8000000000000000, 0x0000000000000001, 0x8000000000000001,
    0x000FFFFFFFFFFFFF, 0x800FFFFFFFFFFFFF, 0x0010000000000000, 0x8010000000000000,
    0x0018000000000000, 0x8018000000000000, 0x3FF0000000000000, 0xBFF0000000000000,
    0x3FF0000000000001, 0x3CA0000000000000, 0x3CA0000000000001,
    0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF, 0x7FF0000000000000, 0xFFF0000000000000,
    0x7FF8000000000000, 0x7FFFFFFFFFFFFFFF, 0xFFF8000000000000, 0x7FF8000000000123,
    0x7FF0000000000001, 0x7FF4000000000000, 0xFFF0000000000001,
]
INT32_SPECIAL = [0, 1, 2, 3, 5, 0x7FFFFFFE, 0x7FFFFFFF, 0x80000000, 0x80000001,
                 0xFFFFFFFD, 0xFFFFFFFE, 0xFFFFFFFF, 0x12345678, 0xDEADBEEF]
INT64_SPECIAL = [0, 1, 2, 5, 0xFFFFFFFF, 0x100000000, 0x7FFFFFFFFFFFFFFF,
                 0x8000000000000000, 0x8000000000000001, 0xFFFFFFFFFFFFFFFE,
                 0xFFFFFFFFFFFFFFFF, 0x0123456789ABCDEF, 0xFEDCBA9876543210]

# Rounding cases for .add.noftz.f16/.bf16 (old, src).
F16_ROUND = [
    (0x3C00, 0x1000), (0x3C01, 0x1000), (0x3C00, 0x1001), (0x3C00, 0x9000),
    (0x3C00, 0x9001), (0x7BFF, 0x4C00), (0x7BFF, 0x4BFF), (0xFBFF, 0xCC00),
    (0x03FF, 0x0001), (0x0400, 0x8001), (0x3C00, 0xBC00), (0xBC00, 0x3C00),
    (0x8000, 0x8000), (0x8001, 0x0001), (0x0001, 0x8001), (0x6800, 0x0001),
]
BF16_ROUND = [
    (0x3F80, 0x3B80), (0x3F81, 0x3B80), (0x3F80, 0x3B81), (0x3F80, 0xBB80),
    (0x3F80, 0xBB81), (0x7F7F, 0x7380), (0x7F7F, 0x737F), (0xFF7F, 0xF380),
    (0x007F, 0x0001), (0x0080, 0x8001), (0x3F80, 0xBF80), (0xBF80, 0x3F80),
    (0x8000, 0x8000), (0x8001, 0x0001), (0x7F00, 0x0001), (0x4000, 0x3B80),
]
F32_ROUND = [
    (0x3F800000, 0x33800000), (0x3F800001, 0x33800000), (0x3F800000, 0x33800001),
    (0x00C00000, 0x80800000), (0x80C00000, 0x00800000), (0x00800001, 0x80800000),
    (0x00000001, 0x00800000), (0x80000001, 0x00000000), (0x80000001, 0x80000000),
    (0x00000001, 0x80000001), (0x007FFFFF, 0x007FFFFF), (0x7F7FFFFF, 0x73800000),
    (0x7F7FFFFF, 0x737FFFFF),
]


def rand_bits(rng, width, n):
    return [rng.getrandbits(width) for _ in range(n)]


def near_pairs(rng, width, ebits, n):
    """Pairs whose exponents lie close, so that the sum rounds."""
    mbits = width - 1 - ebits
    out = []
    for _ in range(n):
        a = rng.getrandbits(width)
        ea = (a >> mbits) & ((1 << ebits) - 1)
        eb = max(0, min((1 << ebits) - 2, ea + rng.randint(-(mbits + 3), 2)))
        b = (rng.getrandbits(1) << (width - 1)) | (eb << mbits) | rng.getrandbits(mbits)
        out.append((a, b))
    return out


def cases(v):
    op, ty, _ = v
    w = WIDTH[ty]
    rng = random.Random(f"{op}.{ty}")
    if ty in ("f16", "bf16", "f32", "f64"):
        special = {"f16": F16_SPECIAL, "bf16": BF16_SPECIAL,
                   "f32": F32_SPECIAL, "f64": F64_SPECIAL}[ty]
        pairs = [(a, b) for a in special for b in special]
        if op == "add":
            pairs += {"f16": F16_ROUND, "bf16": BF16_ROUND, "f32": F32_ROUND}.get(ty, [])
            ebits = {"f16": 5, "bf16": 8, "f32": 8, "f64": 11}[ty]
            n = 1024 if w == 64 else 2048
            pairs += near_pairs(rng, w, ebits, n)
            pairs += list(zip(rand_bits(rng, w, n // 2), rand_bits(rng, w, n // 2)))
        else:
            pairs += list(zip(rand_bits(rng, w, 768), rand_bits(rng, w, 768)))
    else:
        special = INT64_SPECIAL if w == 64 else INT32_SPECIAL
        pairs = [(a, b) for a in special for b in special]
        if op in ("inc", "dec"):
            small = [0, 1, 2, 3, 4, 5, 6]
            pairs += [(a, b) for a in small for b in small]
        pairs += list(zip(rand_bits(rng, w, 512), rand_bits(rng, w, 512)))
    return pairs


# ---------------------------------------------------------------- PTX

CHUNK = 32768  # bytes of shared memory one launch reduces

PTX = """\
.version 8.0
.target sm_90
.address_size 64

.visible .entry k(.param .u64 p_src, .param .u64 p_dst, .param .u32 p_n)
{{
    .reg .b32 %r<10>;
    .reg .b64 %rd<8>;
    .reg .pred %p<4>;
    .shared .align 128 .b8 sm[{chunk}];

    ld.param.u64 %rd1, [p_src];
    ld.param.u64 %rd2, [p_dst];
    ld.param.u32 %r1, [p_n];
    cvta.to.global.u64 %rd1, %rd1;
    cvta.to.global.u64 %rd2, %rd2;
    mov.u32 %r2, %tid.x;
    mov.u32 %r4, %ntid.x;
    shl.b32 %r5, %r4, 2;
    shl.b32 %r3, %r2, 2;
    mov.u32 %r8, sm;
COPY:
    setp.ge.u32 %p1, %r3, %r1;
    @%p1 bra COPIED;
    cvt.u64.u32 %rd3, %r3;
    add.u64 %rd4, %rd1, %rd3;
    ld.global.b32 %r6, [%rd4];
    add.u32 %r7, %r8, %r3;
    st.shared.b32 [%r7], %r6;
    add.u32 %r3, %r3, %r5;
    bra COPY;
COPIED:
    fence.proxy.async.shared::cta;
    bar.sync 0;
    setp.ne.u32 %p2, %r2, 0;
    @%p2 bra END;
    cp.reduce.async.bulk.global.shared::cta.bulk_group.{op} [%rd2], [%r8], %r1;
    cp.async.bulk.commit_group;
    cp.async.bulk.wait_group 0;
END:
    ret;
}}
"""


def ptx_text(v):
    op, ty, noftz = v
    return PTX.format(chunk=CHUNK, op=f"{op}{'.noftz' if noftz else ''}.{ty}")


def find_ptxas():
    for p in (shutil.which("ptxas"), "/usr/local/cuda/bin/ptxas"):
        if p and os.path.exists(p):
            return p
    return None


def ptxas(path, exe):
    cubin = path[:-4] + ".cubin"
    r = subprocess.run([exe, "-arch=sm_90", "-o", cubin, path], capture_output=True, text=True)
    msg = " ".join((r.stderr or r.stdout).split())[:300]
    return r.returncode, msg, cubin


# ---------------------------------------------------------------- one variant

def run_one(v, workdir):
    """Runs one variant in this process; prints its lines."""
    import cupy as cp

    op, ty, noftz = v
    w = WIDTH[ty]
    dt = NP[w]
    path = os.path.join(workdir, name(v).replace(".", "_") + ".ptx")
    with open(path, "w") as f:
        f.write(ptx_text(v))
    fn = None
    how = ""
    try:
        mod = cp.cuda.function.Module()
        mod.load(ptx_text(v).encode() + b"\0")
        fn = mod.get_function("k")
        how = "driver JIT of the PTX"
    except Exception as e:  # noqa: BLE001
        how = f"driver JIT failed ({type(e).__name__}: {e}); "
        exe = find_ptxas()
        if exe is None:
            print(f"# {name(v)}: not run: {how}no ptxas")
            return
        rc, msg, cubin = ptxas(path, exe)
        if rc != 0:
            print(f"# {name(v)}: not run: {how}ptxas: {msg}")
            return
        fn = cp.RawModule(path=cubin).get_function("k")
        how += "ptxas cubin"
    pairs = cases(v)
    per = CHUNK * 8 // w
    lines = []
    for i in range(0, len(pairs), per):
        part = pairs[i:i + per]
        n = len(part)
        padded = -(-n * w // 8 // 16) * 16 * 8 // w
        old = np.zeros(padded, dtype=dt)
        src = np.zeros(padded, dtype=dt)
        old[:n] = [a for a, _ in part]
        src[:n] = [b for _, b in part]
        # Reinterpret as 32-bit words for the copy loop.
        d_src = cp.asarray(src.view(np.uint32))
        d_dst = cp.asarray(old.view(np.uint32))
        fn((1,), (128,), (d_src, d_dst, np.uint32(padded * w // 8)))
        cp.cuda.Device().synchronize()
        res = cp.asnumpy(d_dst).view(dt)
        digits = w // 4
        for j, (a, b) in enumerate(part):
            lines.append(f"{op} {ty} {'noftz' if noftz else '-'} "
                         f"0x{a:0{digits}x} 0x{b:0{digits}x} 0x{int(res[j]):0{digits}x}")
    print(f"# {name(v)}: {len(lines)} elements ({how})")
    print("\n".join(lines))
    sys.stdout.flush()


# ---------------------------------------------------------------- driver

def header():
    out = []
    try:
        import cupy as cp
        props = cp.cuda.runtime.getDeviceProperties(0)
        nm = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
        out.append(f"# device: {nm}, sm_{props['major']}{props['minor']}")
        out.append(f"# driver: {cp.cuda.runtime.driverGetVersion()}, runtime: {cp.cuda.runtime.runtimeGetVersion()}, cupy {cp.__version__}")
    except Exception as e:  # noqa: BLE001
        out.append(f"# device query failed: {e}")
    try:
        smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30).stdout.strip()
        out.append(f"# nvidia-smi: {smi}")
    except Exception:  # noqa: BLE001
        pass
    exe = find_ptxas()
    if exe:
        ver = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout.strip().splitlines()
        out.append(f"# ptxas: {ver[-1] if ver else '?'}")
    return out


def main():
    args = sys.argv[1:]
    workdir = tempfile.mkdtemp(prefix="bulkred")
    if "--ptx-only" in args:
        d = args[args.index("--ptx-only") + 1]
        os.makedirs(d, exist_ok=True)
        for v in TABLE + EXTRA:
            with open(os.path.join(d, name(v).replace(".", "_") + ".ptx"), "w") as f:
                f.write(ptx_text(v))
        return
    if "--one" in args:
        key = args[args.index("--one") + 1]
        v = next(v for v in TABLE + EXTRA if name(v) == key)
        run_one(v, workdir)
        return
    jobs = int(args[args.index("--jobs") + 1]) if "--jobs" in args else 6
    print("\n".join(header()))
    print("# format: OP TYPE NOFTZ OLD SRC RESULT (hex bits; RESULT = the destination element after "
          "cp.reduce.async.bulk.global.shared::cta.bulk_group with OLD in global memory and SRC in shared memory)")
    exe = find_ptxas()
    rejected = set()
    if exe:
        for v in TABLE + EXTRA:
            path = os.path.join(workdir, "v_" + name(v).replace(".", "_") + ".ptx")
            with open(path, "w") as f:
                f.write(ptx_text(v))
            rc, msg, _ = ptxas(path, exe)
            kind = "table" if v in TABLE else "extra"
            if rc != 0:
                rejected.add(v)
            print(f"# ptxas {kind} {name(v)}: {'accepted' if rc == 0 else 'rejected'} {msg}".rstrip())
    sys.stdout.flush()

    def sub(v):
        r = subprocess.run([sys.executable, os.path.abspath(__file__), "--one", name(v)],
                           capture_output=True, text=True, timeout=240)
        text = r.stdout
        if r.returncode != 0:
            tail = " | ".join(r.stderr.strip().splitlines()[-3:])
            text += f"# {name(v)}: process failed rc={r.returncode}: {tail}\n"
        return v, text

    # Extras that ptxas rejected are not run (the driver's JIT is the same
    # assembler); table variants always are.
    todo = TABLE + [v for v in EXTRA if v not in rejected]
    with cf.ThreadPoolExecutor(jobs) as ex:
        results = dict(ex.map(sub, todo))
    for v in TABLE:
        sys.stdout.write(results[v])
    print("# extra: variants outside the spec's table (PTX ISA 9.7.9.25.4.2) that ptxas accepted")
    for v in EXTRA:
        if v in results:
            sys.stdout.write(results[v])
    sys.stdout.flush()


if __name__ == "__main__":
    main()
