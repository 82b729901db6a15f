#!/usr/bin/env python3
"""Sweeps tensor copies (`cp.async.bulk.tensor`, PTX ISA 9.7.9.25.5.2), tiled
and im2col, on the GPU and records what lands in memory, for the model's
tests (conformance/tests/tensor_hardware.rs, tensor_im2col_hardware.rs;
semantics/src/tensor).

usage: tensor_sweep.py --out DIR [--loads N] [--stores N] [--verdicts N] ...
       tensor_sweep.py --out DIR --phases DCO --file im2col-sweep.jsonl.gz
       tensor_sweep.py --reduce IN OUT     (the corpus copy: fewer kept bytes)
       tensor_sweep.py --dry | --ptx-only FILE

The corpus (corpus/tensor/sm_90) is `--reduce` of a run with the defaults
(seed 16) on an H100: tensor-sweep.jsonl.gz of the tiled phases,
im2col-sweep.jsonl.gz of the im2col ones.

Phases (each run by child processes: a launch that faults loses its
context, so the batch is run again one configuration a process, the
faulting one recorded as an `F` record and skipped):

  V  driver verdicts: random `cuTensorMapEncodeTiled` calls, most breaking
     one documented rule; the driver's return code.
  L  loads: per configuration (rank x type x box x element strides x swizzle
     x OOB fill x L2 promotion x box position: inside, across an edge,
     outside), a map from `cuTensorMapEncodeTiled` passed as a `.param
     .align 64 .b8 map[128]` kernel parameter, and one CTA that poisons its
     shared memory, runs `mbarrier.arrive.expect_tx` of the model's box size
     and

       cp.async.bulk.tensor.<r>d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
           [dst], [map, {c0, ..}], [mbar];

     waits with a bounded `mbarrier.try_wait.parity` loop and copies its
     shared memory out. A wait that gives up counts the bytes the phase
     still lacks (`mbarrier.complete_tx` of 1 until it completes: `df`); a
     completed phase is checked for late bytes (an arrive on the next phase
     must complete it: else `ov`).
  X  loads at coordinates near -2^31 and 2^31.
  E  loads with elementStrides[0] of 2 to 8 (no interleave).
  S  stores: shared memory filled from a known pattern, then

       cp.async.bulk.tensor.<r>d.global.shared::cta.tile.bulk_group [map, {..}], [src];

     into a global window holding another pattern; the window's digest.
  M  loads whose first coordinate misaligns the box (expected to fault).
  R  loads to shared addresses 16- but not 128-byte aligned (expected to
     fault).
  I  interleaved layouts (a first look; kept as it was run).
  N  interleaved layouts (`CU_TENSOR_MAP_INTERLEAVE_16B`, `_32B`; PTX ISA
     5.5.6), rank 3 to 5 x type x box x element strides x swizzle (every
     mode, the driver's verdict recorded) x OOB fill x box position. The
     load of phase L with `expect_tx` of IV_BIG bytes (more than any box):
     the wait gives up, the kernel tops the phase up one byte at a time, so
     the complete-tx count is IV_BIG - df whatever the layout; the whole
     shared window (IV_REGION bytes, poisoned) is read back, its digest kept,
     and the bytes from the destination to the last written 16-byte chunk
     (`B`; `bl` their length). Written to its own file:

       tensor_sweep.py --out DIR --phases N --file interleave-sweep.jsonl.gz
  T  interleaved stores: the maps of phase N (coordinates non-negative, no
     two elements at one address), the store of phase S; the window's digest,
     its changed 16-byte granules (`wc`, [first, end) ranges from `w`) and,
     for every third, its bytes (`W`, base64). Written to its own file:

       tensor_sweep.py --out DIR --phases T --file interleave-store-sweep.jsonl.gz
  Q  interleaved im2col loads: phase C's maps with 16- or 32-byte
     interleave (integer types but for the last QV_FLOATS), measured as
     phase N's (expect_tx of IV_BIG, the complete-tx count `tx`, the whole
     window's digest, the bytes to the last written chunk `B`, every load's).
     The filter base is drawn inside the Bounding Boxes of the
     non-interleaved reading, so about half the loads fault (an interleaved
     map's boxes are on dimensions 0 to rank - 3: im2col.rs, interpretation
     14) and each fault costs a process. The corpus file:

       tensor_sweep.py --out DIR --phases Q --interleave-im2col 300 --max-starts 200 \
           --file interleave-im2col-sweep.jsonl.gz

im2col phases (their records carry `lc`, `uc` corners, `cpp` channels per
pixel, `ppc` pixels per column, `off` the im2col offsets; the V records
`"mode":"im2col"`):

  D  driver verdicts: random `cuTensorMapEncodeIm2col` calls, most breaking
     one rule (or probing a bound: the column size, the box's area).
  C  loads: per configuration (rank 3 to 5 x type x channels x pixels x
     corners, negative ones included x element strides x swizzle x OOB
     fill x filter base, offsets and image in the box, across its edges or
     outside the tensor), a map from `cuTensorMapEncodeIm2col` and

       cp.async.bulk.tensor.<r>d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes
           [dst], [map, {c0, ..}], [mbar], {off0, ..};

     checked as the tiled loads are (digest, complete-tx, every 16th load's
     bytes kept, `--dump` writes the bytes of the first `--dump-loads`).
  O  loads with an operand the spec leaves undefined, one a launch: the
     filter base outside the Bounding Box, an im2col offset past its range,
     rows not a multiple of 16 bytes, a misaligned first channel or shared
     address (faults expected on most).

Shared memory is sized for the box (or column) as the hardware lays it
out: rows padded to the swizzle span under a swizzle mode (`smem_extent`,
`ic_extent`). Global memory holds pattern words (splitmix64,
`pattern_word` in semantics/src/tensor/mod.rs); shared memory is poisoned
with `poison_word`; digests are `digest` of the same file. Every record is
one JSON line (gzip) in DIR/tensor-sweep.jsonl.gz (or `--file`): a header
(`"k":"H"`, with each process's timings), then `V`, `L`, `S`, `E` (a failed
batch) and `F` records; every 64th plain load and every 16th im2col load
keeps its bytes (`B`, base64), as does every load of the other phases.

Needs NumPy and the CUDA driver (libcuda.so.1); no nvcc or CuPy: the PTX is
loaded with cuModuleLoadDataEx and maps are made with
cuTensorMapEncodeTiled and cuTensorMapEncodeIm2col, through ctypes.
TENSOR_SWEEP_FAKE=1 runs the orchestration against a fake device (no GPU),
for testing this script.
"""
import argparse
import base64
import ctypes
import gzip
import json
import os
import random
import subprocess
import sys
import time

import numpy as np

# ------------------------------------------------------------- shared with Rust

M64 = (1 << 64) - 1
C1 = np.uint64(0x9E3779B97F4A7C15)
C2 = np.uint64(0x632BE59BD9B4E019)


def mix(z):
    with np.errstate(over="ignore"):
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def pattern(seed, nbytes):
    """Bytes 0..nbytes of pattern `seed` (nbytes a multiple of 8)."""
    k = np.arange(nbytes // 8, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + (k + np.uint64(1)) * C1
    return mix(z).astype("<u8")


def digest(u8):
    """`digest` of a uint8 array whose length is a multiple of 8."""
    n = len(u8)
    w = np.ascontiguousarray(u8).view("<u8")
    i = np.arange(len(w), dtype=np.uint64)
    with np.errstate(over="ignore"):
        v = mix(w ^ (i * C1 + C2))
        s = int(v.sum(dtype=np.uint64))
    return (s + n) & M64


def poison(nwords):
    w = np.arange(nwords, dtype=np.uint64)
    return ((w * 0x9E3779B1 + 0x7F4A7C15) & 0xFFFFFFFF).astype("<u4")


# ------------------------------------------------------------- the model's box size

ESIZE = [1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4]
FLOAT = {6, 7, 8, 9, 10, 11, 12}
SW_BYTES = {0: 0, 1: 32, 2: 64, 3: 128}


def box_counts(c):
    """Elements per dimension (interpretation 1 of semantics/src/tensor/tile.rs)."""
    out = []
    for i in range(c["r"]):
        b, s = c["b"][i], c["e"][i]
        out.append(b if (i == 0 and c["il"] == 0) else -(-b // s))
    return out


def box_bytes(c):
    """Bytes the copy counts (complete-tx): the rows, unpadded."""
    n = box_counts(c)
    row = -(-(n[0] * ESIZE[c["t"]]) // 16) * 16
    rows = 1
    for k in n[1:]:
        rows *= k
    return row * rows


def smem_extent(c):
    """Bytes the box spans in shared memory: under a swizzle mode each row
    takes the whole swizzle span (an H100 leaves the rest unwritten)."""
    n = box_counts(c)
    row = -(-(n[0] * ESIZE[c["t"]]) // 16) * 16
    pitch = max(row, SW_BYTES[c["sw"]])
    rows = 1
    for k in n[1:]:
        rows *= k
    return pitch * rows


# ------------------------------------------------------------- PTX

NT = 128  # threads per CTA
TRIES = 4000


def ptx_text():
    return ptx_text_tile(im2col=True)


def ptx_text_tile(im2col=False):
    parts = [".version 8.0", ".target sm_90a", ".address_size 64", "",
             ".extern .shared .align 16 .b8 dsm[];", ""]
    for r in range(1, 6):
        coords = ", ".join(f"%r{1 + i}" for i in range(r))
        parts.append(f"""
.visible .entry ld{r}(
\t.param .align 64 .b8 ld{r}_map[128],
\t.param .u64 ld{r}_out,
\t.param .u32 ld{r}_c0, .param .u32 ld{r}_c1, .param .u32 ld{r}_c2, .param .u32 ld{r}_c3, .param .u32 ld{r}_c4,
\t.param .u32 ld{r}_dst,
\t.param .u32 ld{r}_tx,
\t.param .u32 ld{r}_words
)
{{
\t.reg .pred %p<10>;
\t.reg .b32 %r<32>;
\t.reg .b64 %rd<8>;
\t.shared .align 8 .b64 mbar;

\tmov.b64 %rd1, ld{r}_map;
\tcvta.param.u64 %rd1, %rd1;
\tld.param.u64 %rd2, [ld{r}_out];
\tcvta.to.global.u64 %rd2, %rd2;
\tld.param.u32 %r1, [ld{r}_c0];
\tld.param.u32 %r2, [ld{r}_c1];
\tld.param.u32 %r3, [ld{r}_c2];
\tld.param.u32 %r4, [ld{r}_c3];
\tld.param.u32 %r5, [ld{r}_c4];
\tld.param.u32 %r6, [ld{r}_dst];
\tld.param.u32 %r7, [ld{r}_tx];
\tld.param.u32 %r8, [ld{r}_words];
\tmov.u32 %r9, dsm;
\tadd.u32 %r9, %r9, 1023;
\tand.b32 %r9, %r9, 0xFFFFFC00;
\tmov.u32 %r10, %tid.x;
\tmov.u32 %r11, mbar;
\tadd.u32 %r15, %r9, %r6;
\tmov.u32 %r12, %r10;
$L{r}_POI:
\tsetp.ge.u32 %p1, %r12, %r8;
\t@%p1 bra $L{r}_POID;
\tmad.lo.u32 %r13, %r12, 0x9E3779B1, 0x7F4A7C15;
\tshl.b32 %r14, %r12, 2;
\tadd.u32 %r14, %r14, %r9;
\tst.shared.u32 [%r14], %r13;
\tadd.u32 %r12, %r12, {NT};
\tbra $L{r}_POI;
$L{r}_POID:
\tsetp.ne.u32 %p2, %r10, 0;
\t@%p2 bra $L{r}_INITD;
\tmbarrier.init.shared::cta.b64 [%r11], 1;
$L{r}_INITD:
\tfence.proxy.async.shared::cta;
\tbar.sync 0;
\t@%p2 bra $L{r}_ISSUED;
\tmbarrier.arrive.expect_tx.shared::cta.b64 _, [%r11], %r7;
\tcp.async.bulk.tensor.{r}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r15], [%rd1, {{{coords}}}], [%r11];
$L{r}_ISSUED:
\tmov.u32 %r16, 0;
\tmov.u32 %r17, 0;
$L{r}_WAIT:
\tmbarrier.try_wait.parity.shared::cta.b64 %p3, [%r11], 0;
\t@%p3 bra $L{r}_WAITED;
\tadd.u32 %r16, %r16, 1;
\tsetp.lt.u32 %p4, %r16, {TRIES};
\t@%p4 bra $L{r}_WAIT;
\tbra $L{r}_WDONE;
$L{r}_WAITED:
\tmov.u32 %r17, 1;
$L{r}_WDONE:
\tbar.sync 0;
\tmov.u32 %r18, 0;
\tmov.u32 %r20, 0;
\t@%p2 bra $L{r}_COUNTED;
\tsetp.ne.u32 %p5, %r17, 0;
\t@%p5 bra $L{r}_SETTLE;
$L{r}_DEF:
\tmbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r11], 1;
\tadd.u32 %r18, %r18, 1;
\tmbarrier.test_wait.parity.shared::cta.b64 %p6, [%r11], 0;
\t@%p6 bra $L{r}_OVER;
\tsetp.lt.u32 %p7, %r18, 262144;
\t@%p7 bra $L{r}_DEF;
\tbra $L{r}_COUNTED;
$L{r}_SETTLE:
\tnanosleep.u32 2000;
$L{r}_OVER:
\tmbarrier.arrive.shared::cta.b64 %rd5, [%r11];
\tnanosleep.u32 500;
\tmbarrier.test_wait.parity.shared::cta.b64 %p8, [%r11], 1;
\tselp.u32 %r20, 0, 1, %p8;
$L{r}_COUNTED:
\tbar.sync 0;
\tmov.u32 %r12, %r10;
$L{r}_CPY:
\tsetp.ge.u32 %p1, %r12, %r8;
\t@%p1 bra $L{r}_CPYD;
\tshl.b32 %r14, %r12, 2;
\tadd.u32 %r19, %r14, %r9;
\tld.shared.u32 %r13, [%r19];
\tcvt.u64.u32 %rd3, %r14;
\tadd.u64 %rd4, %rd2, %rd3;
\tst.global.u32 [%rd4+16], %r13;
\tadd.u32 %r12, %r12, {NT};
\tbra $L{r}_CPY;
$L{r}_CPYD:
\t@%p2 bra $L{r}_END;
\tst.global.v4.u32 [%rd2], {{%r17, %r15, %r18, %r20}};
$L{r}_END:
\tret;
}}

.visible .entry st{r}(
\t.param .align 64 .b8 st{r}_map[128],
\t.param .u64 st{r}_src,
\t.param .u32 st{r}_c0, .param .u32 st{r}_c1, .param .u32 st{r}_c2, .param .u32 st{r}_c3, .param .u32 st{r}_c4,
\t.param .u32 st{r}_dst,
\t.param .u32 st{r}_words
)
{{
\t.reg .pred %p<4>;
\t.reg .b32 %r<24>;
\t.reg .b64 %rd<8>;

\tmov.b64 %rd1, st{r}_map;
\tcvta.param.u64 %rd1, %rd1;
\tld.param.u64 %rd2, [st{r}_src];
\tcvta.to.global.u64 %rd2, %rd2;
\tld.param.u32 %r1, [st{r}_c0];
\tld.param.u32 %r2, [st{r}_c1];
\tld.param.u32 %r3, [st{r}_c2];
\tld.param.u32 %r4, [st{r}_c3];
\tld.param.u32 %r5, [st{r}_c4];
\tld.param.u32 %r6, [st{r}_dst];
\tld.param.u32 %r8, [st{r}_words];
\tmov.u32 %r9, dsm;
\tadd.u32 %r9, %r9, 1023;
\tand.b32 %r9, %r9, 0xFFFFFC00;
\tadd.u32 %r15, %r9, %r6;
\tmov.u32 %r10, %tid.x;
\tmov.u32 %r12, %r10;
$S{r}_CPY:
\tsetp.ge.u32 %p1, %r12, %r8;
\t@%p1 bra $S{r}_CPYD;
\tshl.b32 %r14, %r12, 2;
\tcvt.u64.u32 %rd3, %r14;
\tadd.u64 %rd4, %rd2, %rd3;
\tld.global.u32 %r13, [%rd4];
\tadd.u32 %r19, %r14, %r15;
\tst.shared.u32 [%r19], %r13;
\tadd.u32 %r12, %r12, {NT};
\tbra $S{r}_CPY;
$S{r}_CPYD:
\tfence.proxy.async.shared::cta;
\tbar.sync 0;
\tsetp.ne.u32 %p2, %r10, 0;
\t@%p2 bra $S{r}_END;
\tcp.async.bulk.tensor.{r}d.global.shared::cta.tile.bulk_group [%rd1, {{{coords}}}], [%r15];
\tcp.async.bulk.commit_group;
\tcp.async.bulk.wait_group 0;
$S{r}_END:
\tret;
}}
""")
    if im2col:
        for r in range(3, 6):
            parts.append(im2col_kernel(r))
    return "\n".join(parts)


def im2col_kernel(r):
    """The `ld{r}` kernel with an im2col copy: `ic{r}` takes the im2col
    offsets as three `.u16` parameters (the first r - 2 are used)."""
    coords = ", ".join(f"%r{1 + i}" for i in range(r))
    offs = ", ".join(f"%rs{1 + i}" for i in range(r - 2))
    text = ptx_text_load(r)
    text = text.replace(f"ld{r}", f"ic{r}").replace(f"$L{r}_", f"$C{r}_")
    text = text.replace(f"\t.param .u32 ic{r}_dst,",
                        f"\t.param .u16 ic{r}_f0, .param .u16 ic{r}_f1, .param .u16 ic{r}_f2,\n\t.param .u32 ic{r}_dst,")
    text = text.replace("\t.reg .b64 %rd<8>;", "\t.reg .b64 %rd<8>;\n\t.reg .b16 %rs<4>;", 1)
    text = text.replace(f"\tld.param.u32 %r6, [ic{r}_dst];",
                        f"\tld.param.u16 %rs1, [ic{r}_f0];\n\tld.param.u16 %rs2, [ic{r}_f1];\n"
                        f"\tld.param.u16 %rs3, [ic{r}_f2];\n\tld.param.u32 %r6, [ic{r}_dst];")
    old = (f"\tcp.async.bulk.tensor.{r}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
           f"[%r15], [%rd1, {{{coords}}}], [%r11];")
    assert old in text
    text = text.replace(old, f"\tcp.async.bulk.tensor.{r}d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes "
                             f"[%r15], [%rd1, {{{coords}}}], [%r11], {{{offs}}};")
    return text


def ptx_text_load(r):
    """The text of kernel `ld{r}` alone."""
    text = ptx_text_tile()
    start = text.index(f".visible .entry ld{r}(")
    end = text.index(f".visible .entry st{r}(")
    return text[start:end]


# ------------------------------------------------------------- CUDA through ctypes

class Cuda:
    def __init__(self):
        self.lib = ctypes.CDLL("libcuda.so.1")
        L = self.lib
        L.cuLaunchKernel.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 7 + [ctypes.c_void_p] * 3
        L.cuTensorMapEncodeTiled.argtypes = [
            ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p,
            ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
            ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int]
        L.cuTensorMapEncodeIm2col.argtypes = [
            ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p,
            ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
            ctypes.c_uint, ctypes.c_uint, ctypes.c_void_p,
            ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int]
        L.cuMemcpyHtoD_v2.argtypes = [ctypes.c_uint64, ctypes.c_void_p, ctypes.c_size_t]
        L.cuMemcpyDtoH_v2.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_size_t]
        L.cuMemAlloc_v2.argtypes = [ctypes.POINTER(ctypes.c_uint64), ctypes.c_size_t]
        self.ok(L.cuInit(0), "cuInit")
        dev = ctypes.c_int()
        self.ok(L.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
        ctx = ctypes.c_void_p()
        self.ok(L.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
        self.ok(L.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
        name = ctypes.create_string_buffer(256)
        L.cuDeviceGetName(name, 256, dev)
        ver = ctypes.c_int()
        L.cuDriverGetVersion(ctypes.byref(ver))
        self.name = name.value.decode()
        self.driver = ver.value
        # A 64-byte aligned host buffer for the maps (the driver: "tensorMap
        # address must be aligned to 64 bytes").
        self._mapbuf = ctypes.create_string_buffer(128 + 64)
        self.map_addr = (ctypes.addressof(self._mapbuf) + 63) & ~63

    def err(self, r):
        s = ctypes.c_char_p()
        self.lib.cuGetErrorName(r, ctypes.byref(s))
        return s.value.decode() if s.value else str(r)

    def ok(self, r, what):
        if r != 0:
            raise RuntimeError(f"{what}: {self.err(r)} ({r})")

    def alloc(self, n):
        p = ctypes.c_uint64()
        self.ok(self.lib.cuMemAlloc_v2(ctypes.byref(p), n), "cuMemAlloc")
        return p.value

    def htod(self, dptr, arr):
        arr = np.ascontiguousarray(arr)
        self.ok(self.lib.cuMemcpyHtoD_v2(dptr, arr.ctypes.data, arr.nbytes), "cuMemcpyHtoD")

    def dtoh(self, arr, dptr):
        self.ok(self.lib.cuMemcpyDtoH_v2(arr.ctypes.data, dptr, arr.nbytes), "cuMemcpyDtoH")

    def sync(self):
        return self.lib.cuCtxSynchronize()

    def module(self, text):
        mod = ctypes.c_void_p()
        # JIT with an error log.
        logsz = 1 << 16
        log = ctypes.create_string_buffer(logsz)
        opts = (ctypes.c_int * 2)(5, 6)  # CU_JIT_ERROR_LOG_BUFFER, _SIZE_BYTES
        vals = (ctypes.c_void_p * 2)(ctypes.cast(log, ctypes.c_void_p), ctypes.c_void_p(logsz))
        r = self.lib.cuModuleLoadDataEx(ctypes.byref(mod), ctypes.c_char_p(text.encode() + b"\0"), 2, opts, vals)
        if r != 0:
            raise RuntimeError(f"cuModuleLoadDataEx: {self.err(r)}: {log.value.decode(errors='replace')[:2000]}")
        self.mod = mod
        self.fns = {}
        for r_ in range(1, 6):
            for k in ("ld", "st", "ic"):
                if k == "ic" and r_ < 3:
                    continue
                f = ctypes.c_void_p()
                self.ok(self.lib.cuModuleGetFunction(ctypes.byref(f), mod, f"{k}{r_}".encode()), "cuModuleGetFunction")
                self.fns[f"{k}{r_}"] = f

    def encode(self, c, gaddr):
        """cuTensorMapEncodeTiled of configuration `c` at global address
        `gaddr` into the map buffer; the driver's return code."""
        r = c["r"]
        # arrays of 8 entries: a rank past 5 (a verdict probe) reads no further
        dims = (ctypes.c_uint64 * 8)(*(c["d"] + [1] * 8)[:8])
        strides = (ctypes.c_uint64 * 8)(*(c["s"] + [16] * 8)[:8])
        box = (ctypes.c_uint32 * 8)(*(c["b"] + [1] * 8)[:8])
        es = (ctypes.c_uint32 * 8)(*(c["e"] + [1] * 8)[:8])
        ctypes.memset(self.map_addr, 0, 128)
        return self.lib.cuTensorMapEncodeTiled(
            ctypes.c_void_p(self.map_addr), c["t"], r, ctypes.c_void_p(gaddr),
            ctypes.cast(dims, ctypes.c_void_p), ctypes.cast(strides, ctypes.c_void_p),
            ctypes.cast(box, ctypes.c_void_p), ctypes.cast(es, ctypes.c_void_p),
            c["il"], c["sw"], c["l2"], c["f"])

    def encode_im2col(self, c, gaddr):
        """cuTensorMapEncodeIm2col of im2col configuration `c` (corners
        `lc`, `uc`, `cpp` channels per pixel, `ppc` pixels per column)."""
        r = c["r"]
        dims = (ctypes.c_uint64 * 8)(*(c["d"] + [1] * 8)[:8])
        strides = (ctypes.c_uint64 * 8)(*(c["s"] + [16] * 8)[:8])
        lower = (ctypes.c_int * 8)(*(c["lc"] + [0] * 8)[:8])
        upper = (ctypes.c_int * 8)(*(c["uc"] + [0] * 8)[:8])
        es = (ctypes.c_uint32 * 8)(*(c["e"] + [1] * 8)[:8])
        ctypes.memset(self.map_addr, 0, 128)
        return self.lib.cuTensorMapEncodeIm2col(
            ctypes.c_void_p(self.map_addr), c["t"], r, ctypes.c_void_p(gaddr),
            ctypes.cast(dims, ctypes.c_void_p), ctypes.cast(strides, ctypes.c_void_p),
            ctypes.cast(lower, ctypes.c_void_p), ctypes.cast(upper, ctypes.c_void_p),
            c["cpp"], c["ppc"], ctypes.cast(es, ctypes.c_void_p),
            c["il"], c["sw"], c["l2"], c["f"])

    def map_bytes(self):
        return ctypes.string_at(self.map_addr, 128)

    def launch(self, name, params, smem):
        """params: ctypes objects, the first the 128-byte map (passed by the
        map buffer's address)."""
        ptrs = [ctypes.c_void_p(self.map_addr)] + [ctypes.cast(ctypes.pointer(p), ctypes.c_void_p) for p in params]
        arr = (ctypes.c_void_p * len(ptrs))(*[p.value for p in ptrs])
        return self.lib.cuLaunchKernel(self.fns[name], 1, 1, 1, NT, 1, 1, smem, None,
                                       ctypes.cast(arr, ctypes.c_void_p), None)


# ------------------------------------------------------------- configurations

GSIZE = 8 << 20           # global source bytes
MAXBOX = 16384            # largest box in shared memory
SLACK = 256               # bytes after the box that are read back
SLOT = 1024 + MAXBOX + SLACK + 16   # output bytes per configuration (+16 header)


def rup(x, m):
    return -(-x // m) * m


def gen_config(rng, kind):
    """A valid configuration for the driver (it may still refuse), as a
    dict: t type, r rank, d dims, s strides, b box, e element strides, il,
    sw, l2, f fill, a byte offset of the global address in the buffer, c
    coordinates, o shared offset of the destination from a 1024-byte
    aligned base, pos the box position class."""
    while True:
        t = rng.randrange(13)
        es = ESIZE[t]
        if kind == "I":
            il = rng.choice([1, 2])
        else:
            il = 0
        r = rng.randint(3, 5) if il else rng.choice([1, 2, 2, 3, 3, 4, 5])
        if il == 2:
            sw = 1
        else:
            sw = rng.choice([0, 0, 1, 2, 3, 3])
        f = rng.choice([0, 1]) if t in FLOAT else 0
        l2 = rng.randrange(4)
        # box dimension 0
        if il == 0:
            cap = SW_BYTES[sw] if sw else min(256 * es, rng.choice([64, 128, 256, 512, 1024]))
            inner = 16 * rng.randint(1, max(1, cap // 16))
            if inner // es > 256:
                inner = 256 * es
            b0 = inner // es
        else:
            slice_ = 16 if il == 1 else 32
            # the driver wants boxDim[0] * elementSize a multiple of 16 here too
            b0 = rng.choice([slice_ // es] * 3 + [16 * rng.randint(1, 4) // es])
            b0 = max(1, min(256, b0))
        e = [rng.choice([1, 1, 1, 2, 3, 8]) for _ in range(r)]
        if il == 0:
            e[0] = rng.randint(2, 8) if kind == "E" else 1
        b = [b0]
        # outer boxes within the size limit
        budget = rng.choice([1024, 2048, 4096, 4096, 8192, MAXBOX])
        row = max(rup((b0 if il == 0 else -(-b0 // e[0])) * es, 16), SW_BYTES[sw])
        total = row
        for i in range(1, r):
            hi = max(1, min(256, (budget // total) * e[i]))
            bi = rng.randint(1, min(hi, rng.choice([2, 4, 8, 16, 64, 256])))
            b.append(bi)
            total *= -(-bi // e[i])
        if total > MAXBOX:
            continue
        # global dims
        d = []
        for i in range(r):
            span = b[i] if (i == 0 and il == 0) else (-(-b[i] // e[i]) - 1) * e[i] + 1
            if i == 0 and il:
                # an interleaved slice: dimension 0 is the 16 or 32 bytes mostly
                d.append(rng.choice([slice_ // es, slice_ // es, rng.randint(1, 80)]))
            else:
                d.append(rng.randint(1, span * 2 + 8) if rng.random() < 0.9 else rng.randint(1, 700))
        # strides
        align = 32 if il == 2 else 16
        s = []
        prev = d[0] * es
        for i in range(1, r):
            if rng.random() < 0.05:
                st = align * rng.randint(1, 8)          # rows may overlap
            else:
                st = rup(prev, align) + align * rng.choice([0, 0, 1, 3])
            s.append(st)
            prev = st * d[i]
        foot = d[0] * es + sum((d[i] - 1) * s[i - 1] for i in range(1, r))
        if foot > GSIZE // 2:
            continue
        gal = 32 if il == 2 else 16
        a = rng.randrange(0, (GSIZE - foot - 64) // gal) * gal
        # coordinates
        pos = "far" if kind == "X" else rng.choices(["in", "edge", "out"], [48, 37, 15])[0]
        c = []
        for i in range(r):
            span = b[i] if (i == 0 and il == 0) else (-(-b[i] // e[i]) - 1) * e[i] + 1
            lo_in, hi_in = 0, max(0, d[i] - span)
            if pos == "in" or (pos != "far" and rng.random() < 0.5):
                ci = rng.randint(lo_in, hi_in) if d[i] >= span else rng.randint(-span + 1, d[i] - 1)
            elif pos == "edge":
                ci = rng.choice([rng.randint(-span + 1, 0), rng.randint(max(0, d[i] - span), d[i] - 1)])
            elif pos == "out":
                ci = rng.choice([rng.randint(-span - 40, -span), rng.randint(d[i], d[i] + 40)])
            else:
                ci = rng.choice([-(1 << 31), (1 << 31) - 16, -(1 << 31) + 16 * rng.randint(0, 20),
                                 (1 << 31) - 16 * rng.randint(1, 20), rng.randint(-(1 << 31), (1 << 31) - 16)])
            c.append(ci)
        # PTX 5.5.3.1: "The address of the bounding Box must also be aligned
        # to 16 bytes": the first coordinate a multiple of 16 / element size
        # (an H100 faults otherwise; phase M checks that on a few).
        m = 16 // es
        if kind == "M":
            c[0] = (c[0] // m) * m + rng.randint(1, m - 1)
        else:
            c[0] = (c[0] // m) * m
        if kind == "R":
            # not 128-byte aligned (the CUDA guide asks for 128)
            o = 128 * rng.randrange(8) + 16 * rng.randint(1, 7)
        else:
            o = 128 * rng.randrange(8)
        return dict(t=t, r=r, d=d, s=s, b=b, e=e, il=il, sw=sw, l2=l2, f=f, a=a, c=c, o=o, pos=pos)


IV_BIG = 49152            # expect_tx of phase N: more than any box delivers
IV_REGION = 46 * 1024     # shared bytes phase N poisons and reads back
IV_SLOT = IV_REGION + 16


def iv_counts(c):
    """Phase N's guess of the box (for sizing only): dimension 0 in slices
    of 16 or 32 bytes, every dimension ceil(boxDim / elementStrides)."""
    return [-(-c["b"][i] // c["e"][i]) for i in range(c["r"])]


def iv_extent(c):
    """A generous bound of the bytes such a box spans in shared memory."""
    n = iv_counts(c)
    sl = 16 if c["il"] == 1 else 32
    row = max(n[0] * sl, (c["b"][0] * ESIZE[c["t"]] + 15) // 16 * 16, SW_BYTES[c["sw"]])
    rows = 1
    for k in n[1:]:
        rows *= k
    return row * rows


def gen_interleave(rng):
    """A phase N configuration: an interleaved map (rank 3 to 5). Global
    sizes are chosen so that dimension 0 read as slices (16 or 32 bytes an
    element) or as elements stays inside the global buffer."""
    while True:
        t = rng.randrange(13)
        es = ESIZE[t]
        il = rng.choice([1, 2])
        sl = 16 if il == 1 else 32
        r = rng.randint(3, 5)
        if il == 2:
            sw = rng.choice([1, 1, 1, 0, 2, 3])
        else:
            sw = rng.choice([0, 0, 1, 2, 3])
        f = rng.choice([0, 1]) if t in FLOAT else 0
        l2 = rng.randrange(4)
        simple = rng.random() < 0.25
        m = 16 // es  # boxDim[0] * elementSize a multiple of 16
        b0 = m * rng.choice([1, 1, 1, 2, 2, 3, 4]) if rng.random() < 0.85 else m * rng.randint(1, 16)
        b0 = min(b0, 256 // m * m)
        e = [1] * r if simple else [rng.choice([1, 1, 1, 2, 3, 8]) for _ in range(r)]
        b = [b0]
        budget = rng.choice([512, 1024, 2048, 4096, 8192])
        n0 = -(-b0 // e[0])
        total = max(n0 * sl, SW_BYTES[sw])
        for i in range(1, r):
            hi = max(1, min(256, (budget // total) * e[i]))
            bi = rng.randint(1, min(hi, rng.choice([1, 2, 4, 8, 16])))
            b.append(bi)
            total *= -(-bi // e[i])
        c = dict(t=t, r=r, b=b, e=e, il=il, sw=sw, l2=l2, f=f)
        if iv_extent(c) > 16384:
            continue
        d = []
        for i in range(r):
            span = (-(-b[i] // e[i]) - 1) * e[i] + 1
            d.append(rng.randint(1, span * 2 + 4) if rng.random() < 0.9 else rng.randint(1, 300))
        # strides: a row holds d[0] slices (the widest reading)
        s = []
        prev = d[0] * max(sl, es)
        for i in range(1, r):
            if rng.random() < 0.05:
                st = sl * rng.randint(1, 8)
            else:
                st = rup(prev, sl) + sl * rng.choice([0, 0, 1, 3])
            s.append(st)
            prev = st * d[i]
        foot = d[0] * max(sl, es) + sum((d[i] - 1) * s[i - 1] for i in range(1, r))
        if foot > GSIZE // 2:
            continue
        # 64 KiB clear of the buffer's ends (coordinates out of bounds are
        # not read, but keep room for a reading of the layout we lack)
        a = (65536 + rng.randrange(0, (GSIZE - foot - 2 * 65536) // sl) * sl)
        pos = "in" if simple else rng.choices(["in", "edge", "out"], [50, 35, 15])[0]
        cc = []
        for i in range(r):
            span = (-(-b[i] // e[i]) - 1) * e[i] + 1
            if pos == "in" or rng.random() < 0.5:
                ci = rng.randint(0, d[i] - span) if d[i] >= span else rng.randint(-span + 1, d[i] - 1)
            elif pos == "edge":
                ci = rng.choice([rng.randint(-span + 1, 0), rng.randint(max(0, d[i] - span), d[i] - 1)])
            else:
                ci = rng.choice([rng.randint(-span - 20, -span), rng.randint(d[i], d[i] + 20)])
            cc.append(ci)
        o = 128 * rng.randrange(8)
        c.update(d=d, s=s, a=a, c=cc, o=o, pos=pos)
        return c


def gen_store(rng):
    """A store configuration: coordinates non-negative (PTX 9.7.9.25.5.1), the
    tensor small enough for a 16 KiB window."""
    while True:
        c = gen_config(rng, "L")
        r = c["r"]
        c["c"] = [max(0, x) for x in c["c"]]
        es = ESIZE[c["t"]]
        extent = c["d"][0] * es
        overlap = False
        for i in range(1, r):
            if c["s"][i - 1] < extent:
                overlap = True  # two elements at one address: the order of the writes would matter
            extent = c["s"][i - 1] * c["d"][i]
        foot = c["d"][0] * es + sum((c["d"][i] - 1) * c["s"][i - 1] for i in range(1, r))
        if foot <= 16384 and not overlap:
            c["foot"] = foot
            return c


def gen_interleave_store(rng):
    """A phase T configuration: a phase N map whose tensor fits a 16 KiB
    window, coordinates non-negative (PTX 9.7.9.25.5.1), rows not
    overlapping (dimension 0 read as slices)."""
    while True:
        c = gen_interleave(rng)
        r = c["r"]
        c["c"] = [max(0, x) for x in c["c"]]
        sl = 16 if c["il"] == 1 else 32
        extent = c["d"][0] * max(sl, ESIZE[c["t"]])
        overlap = False
        for i in range(1, r):
            if c["s"][i - 1] < extent:
                overlap = True
            extent = c["s"][i - 1] * c["d"][i]
        foot = c["d"][0] * max(sl, ESIZE[c["t"]]) + sum((c["d"][i] - 1) * c["s"][i - 1] for i in range(1, r))
        if foot <= 16384 and not overlap:
            c["foot"] = foot
            return c


BREAKS = ["rank0", "rank6", "il_rank2", "addr8", "addr16_il32", "dim0", "dimbig", "stride8",
          "stridebig", "stride16_il32", "box0", "box257", "inner", "es0", "es9", "swinner",
          "il32_sw", "nan_int", "overlap", "type13", "type14", "type15", "sw4", "sw5", "sw6",
          "sw7", "il3", "l24", "oob2", "dimmax", "valid", "valid", "valid"]


def gen_verdict(rng):
    """A configuration that breaks (at most) one rule, for the driver's verdict."""
    c = gen_config(rng, rng.choice(["L", "L", "I"]))
    why = rng.choice(BREAKS)
    r = c["r"]
    ga = 1 << 20  # placeholder address offset (only alignment matters)
    if why == "rank0":
        c["r"] = 0
    elif why == "rank6":
        c["r"] = 6
    elif why == "il_rank2":
        c["il"] = 1
        c["r"] = 2
    elif why == "addr8":
        ga += 8
    elif why == "addr16_il32":
        c["il"], c["sw"] = 2, 1
        ga += 16
    elif why == "dim0":
        c["d"][rng.randrange(r)] = 0
    elif why == "dimbig":
        c["d"][rng.randrange(r)] = (1 << 32) + rng.choice([0, 1])
    elif why == "dimmax":
        c["d"][rng.randrange(r)] = rng.choice([1 << 31, (1 << 32) - 1])
    elif why == "stride8" and r > 1:
        c["s"][rng.randrange(r - 1)] += 8
    elif why == "stridebig" and r > 1:
        c["s"][rng.randrange(r - 1)] = (1 << 40) + rng.choice([-16, 0, 16])
    elif why == "stride16_il32" and r > 2:
        c["il"], c["sw"] = 2, 1
        c["s"][0] = 16 * (2 * rng.randint(1, 20) + 1)
    elif why == "box0":
        c["b"][rng.randrange(r)] = 0
    elif why == "box257":
        c["b"][rng.randrange(r)] = rng.choice([257, 300, 512])
    elif why == "inner":
        c["il"] = 0
        c["b"][0] = rng.randint(1, 40)
    elif why in ("area0", "area1"):
        # globalDim + upper - lower = 0 (no filter base fits) or 1
        d = c["d"][i + 1]
        lo = rng.randint(-min(lim, 8), min(lim - 1, 3))
        up = lo - d + (why == "area1")
        if -lim <= up < lim:
            c["lc"][i], c["uc"][i] = lo, up
        else:
            why += "-skipped"
    elif why == "colbytes":
        row, c["ppc"] = rng.choice(IC_COLBYTES)
        c["t"] = rng.choice([k for k in range(13) if row // ESIZE[k] <= 256])
        c["cpp"] = row // ESIZE[c["t"]]
        c["sw"], c["f"] = 0, 0
        c["d"][0] = c["cpp"]
    elif why == "es0":
        c["e"][rng.randrange(r)] = 0
    elif why == "es9":
        c["e"][rng.randrange(r)] = rng.choice([9, 16])
    elif why == "swinner":
        c["il"] = 0
        c["sw"] = rng.choice([1, 2, 3])
        c["b"][0] = rup(SW_BYTES[c["sw"]] + 16 * rng.randint(1, 8), 16) // ESIZE[c["t"]]
    elif why == "il32_sw":
        c["il"] = 2
        c["sw"] = rng.choice([0, 2, 3])
    elif why == "nan_int":
        c["t"] = rng.choice([0, 1, 2, 3, 4, 5])
        c["f"] = 1
        c["b"][0] = max(1, 16 // ESIZE[c["t"]])
    elif why == "overlap" and r > 1:
        c["s"][rng.randrange(r - 1)] = 16
    elif why in ("type13", "type14", "type15"):
        c["t"] = int(why[4:])
        c["f"] = 0
        c["b"][0] = rng.choice([128, 64, 32])
        c["d"][0] = rng.choice([128, 256, 130])
    elif why in ("sw4", "sw5", "sw6", "sw7"):
        c["sw"] = int(why[2:])
        c["il"] = 0
    elif why == "il3":
        c["il"] = 3
    elif why == "l24":
        c["l2"] = 4
    elif why == "oob2":
        c["f"] = 2
    c["why"] = why
    c["ga"] = ga
    return c


# ------------------------------------------------------------- im2col

IC_LIMIT = {3: 1 << 15, 4: 1 << 7, 5: 1 << 4}      # corners in [-L, L - 1]
IC_OFFMAX = {3: (1 << 16) - 1, 4: (1 << 8) - 1, 5: (1 << 5) - 1}


def ic_row(c):
    """Bytes of one pixel's row (interpretation 7 of semantics/src/tensor/
    im2col.rs): the channels, rounded up to 16."""
    return rup(c["cpp"] * ESIZE[c["t"]], 16)


def ic_bytes(c):
    """Bytes the copy counts (complete-tx)."""
    return ic_row(c) * c["ppc"]


def ic_extent(c):
    """Bytes the column spans in shared memory (rows padded to the swizzle
    span under a swizzle mode)."""
    return max(ic_row(c), SW_BYTES.get(c["sw"], 0)) * c["ppc"]


def ic_box(c, i):
    """The Bounding Box [lo, hi] of spatial dimension i (1 to r - 2)."""
    return c["lc"][i - 1], c["d"][i] - 1 + c["uc"][i - 1]


def ic_pixels(c):
    """The pixel coordinates the copy reads (interpretations 3 to 5 of
    im2col.rs): for classifying a configuration, not for checking it."""
    r, e = c["r"], c["e"]
    base = list(c["c"])
    out = []
    for _ in range(c["ppc"]):
        p = list(base)
        for i in range(1, r - 1):
            p[i] += c["off"][i - 1]
        out.append(p)
        i = 1
        while True:
            base[i] += e[i]
            if i == r - 1:
                break
            lo, hi = ic_box(c, i)
            if base[i] > hi:
                base[i] = lo
                i += 1
            else:
                break
    return out


def ic_position(c):
    """in: every element read lies in the tensor; out: none does; edge."""
    d, es = c["d"], ESIZE[c["t"]]
    c0 = c["c"][0]
    ch_in = max(0, min(c["cpp"], d[0] - c0) - max(0, -c0))
    n_in = 0
    for p in ic_pixels(c):
        if all(0 <= p[i] < d[i] for i in range(1, c["r"])):
            n_in += 1
    if n_in == 0 or ch_in == 0:
        return "out"
    if n_in == c["ppc"] and ch_in == c["cpp"]:
        return "in"
    return "edge"


def gen_im2col(rng, why="plain"):
    """An im2col configuration the driver should accept: t type, r rank, d
    dims (C, W, H, D, N), s strides, e element strides, lc / uc corners (W
    first), cpp channels per pixel, ppc pixels per column, c coordinates,
    off im2col offsets (W first), a, o, sw, l2, f as for tiled loads. `why`
    asks for one odd operand: outside (filter base outside the box),
    offrange (an offset past its range), narrow (a row not a multiple of 16
    bytes), misal (first channel not 16-byte aligned), smem16 (shared
    address 16- but not 128-byte aligned)."""
    while True:
        t = rng.randrange(13)
        es = ESIZE[t]
        r = rng.choice([3, 4, 5])
        ns = r - 2
        if why == "offrange":
            r = rng.choice([4, 5])
            ns = r - 2
        sw = rng.choice([0, 0, 1, 2, 3, 3])
        f = rng.choice([0, 1]) if t in FLOAT else 0
        l2 = rng.randrange(4)
        cap = SW_BYTES[sw] if sw else min(256 * es, rng.choice([32, 64, 128, 256, 512]))
        inner = 16 * rng.randint(1, max(1, cap // 16))
        cpp = max(1, min(256, inner // es))
        if why == "narrow":
            sw = 0
            cpp = rng.choice([k for k in range(1, 33) if (k * es) % 16])
        row = rup(cpp * es, 16)
        pitch = max(row, SW_BYTES[sw])
        ppc = rng.randint(1, min(1024, MAXBOX // pitch, rng.choice([4, 16, 64, 64, 256, 1024])))
        dC = rng.choice([cpp, cpp, 2 * cpp, rng.randint(1, 2 * cpp + 8)])
        ds = [rng.randint(1, rng.choice([3, 8, 12, 24, 40])) for _ in range(ns)]
        dN = rng.randint(1, 6)
        d = [dC] + ds + [dN]
        lim = IC_LIMIT[r]
        lc, uc = [], []
        for i in range(ns):
            while True:
                lo = rng.choice([0, 0, 0, -1, -1, -2, -3, 1, 2, rng.randint(-lim, lim - 1)])
                up = rng.choice([0, 0, 0, -1, -1, -2, -3, 1, 2, rng.randint(-lim, lim - 1)])
                lo = max(-lim, min(lim - 1, lo))
                up = max(-lim, min(lim - 1, up))
                if ds[i] - 1 + up >= lo and (ds[i] - 1 + up - lo) < 4096:
                    break
            lc.append(lo)
            uc.append(up)
        e = [rng.choice([1, 1, 1, 1, 2, 3, 8]) for _ in range(r)]
        # strides
        s = []
        prev = dC * es
        for i in range(1, r):
            if rng.random() < 0.05:
                st = 16 * rng.randint(1, 8)
            else:
                st = rup(prev, 16) + 16 * rng.choice([0, 0, 1, 3])
            s.append(st)
            prev = st * d[i]
        foot = dC * es + sum((d[i] - 1) * s[i - 1] for i in range(1, r))
        if foot > GSIZE // 2:
            continue
        a = rng.randrange(0, (GSIZE - foot - 64) // 16) * 16
        # coordinates: channel, filter base (in the box), image
        m = 16 // es
        c0 = rng.choice([0, 0, 0, 0, m * rng.randint(-(cpp // m) - 1, dC // m + 1)])
        if why == "misal":
            c0 = m * rng.randint(0, 4) + rng.randint(1, m - 1)
        c = [c0]
        for i in range(1, r - 1):
            lo, hi = ic_box(dict(d=d, lc=lc, uc=uc), i)
            if rng.random() < 0.3:
                ci = lo + e[i] * rng.randint(0, (hi - lo) // e[i])
            else:
                ci = rng.randint(lo, hi)
            c.append(ci)
        if why == "outside":
            i = rng.randint(1, r - 2)
            lo, hi = ic_box(dict(d=d, lc=lc, uc=uc), i)
            c[i] = rng.choice([lo - rng.randint(1, 4), hi + rng.randint(1, 4)])
        c.append(rng.choice([0, 0, rng.randint(0, dN - 1), rng.randint(0, dN - 1), rng.randint(-2, dN + 1)]))
        omax = IC_OFFMAX[r]
        off = [rng.choice([0] * 6 + [1, 1, 2, 3, rng.randint(0, 4), rng.randint(0, min(omax, 40))]
                          + [rng.randint(0, omax)] * (rng.random() < 0.3)) for _ in range(ns)]
        if rng.random() < 0.8:
            # mostly offsets that keep some pixels inside (a filter smaller than the image)
            off = [min(x, max(0, ds[i] - 1 - max(0, lc[i]))) for i, x in enumerate(off)]
        if why == "offrange":
            off[rng.randrange(ns)] = rng.randint(omax + 1, min(0xFFFF, 4 * omax + 3))
        o = 128 * rng.randrange(8)
        if why == "smem16":
            o += 16 * rng.randint(1, 7)
        cfg = dict(t=t, r=r, d=d, s=s, e=e, il=0, sw=sw, l2=l2, f=f, a=a, c=c, o=o,
                   lc=lc, uc=uc, cpp=cpp, ppc=ppc, off=off)
        cfg["pos"] = ic_position(cfg) if why in ("plain", "narrow", "smem16") else why
        if why != "plain":
            cfg["why"] = why
        return cfg


def gen_im2col_interleave(rng, floats=False):
    """A phase Q configuration: a phase C map (cuTensorMapEncodeIm2col) with
    16- or 32-byte interleave, of an integer type (`floats`: a float type).
    Sized so that both
    readings of the channels (elements or 16/32-byte slices) keep the column
    under 16 KiB and the tensor inside the global buffer, 64 KiB clear of
    its ends."""
    while True:
        c = gen_im2col(rng)
        r = c["r"]
        t = rng.randrange(6, 13) if floats else rng.randrange(6)
        c["t"], c["f"] = t, (rng.choice([0, 1]) if t in FLOAT else 0)
        es = ESIZE[t]
        m = 16 // es
        il = rng.choice([1, 2])
        sl = 16 if il == 1 else 32
        sw = rng.choice([1, 1, 1, 0, 2, 3]) if il == 2 else rng.choice([0, 0, 1, 2, 3])
        # channels: a multiple of 16 bytes as elements mostly; a few slices
        cpp = rng.choice([m, m, m, 2 * m, sl // es, 4 * m, m * rng.randint(1, 8)] * 3 + [rng.randint(1, 4)])
        cpp = max(1, min(256, cpp))
        pitch = max(cpp * max(sl, es), rup(cpp * es, 16), SW_BYTES[sw])
        ppc = rng.randint(1, max(1, min(256, 16384 // pitch, rng.choice([1, 2, 4, 16, 64, 256]))))
        dC = rng.choice([sl // es, sl // es, cpp, 2 * cpp, rng.randint(1, 8), rng.randint(1, 2 * cpp + 8)])
        d = [max(1, dC)] + c["d"][1:]
        s = []
        prev = d[0] * max(sl, es)
        for i in range(1, r):
            if rng.random() < 0.05:
                st = sl * rng.randint(1, 8)
            else:
                st = rup(prev, sl) + sl * rng.choice([0, 0, 1, 3])
            s.append(st)
            prev = st * d[i]
        foot = d[0] * max(sl, es) + sum((d[i] - 1) * s[i - 1] for i in range(1, r))
        if foot > GSIZE // 2:
            continue
        a = 65536 + rng.randrange(0, (GSIZE - foot - 2 * 65536) // sl) * sl
        cc = list(c["c"])
        cc[0] = rng.choice([0, 0, 0, 0, m * rng.randint(-2, 2), m * rng.randint(0, max(0, d[0] // m))])
        c.update(il=il, sw=sw, cpp=cpp, ppc=ppc, d=d, s=s, a=a, c=cc, pos="il")
        c["pos"] = ic_position(c)
        return c


QV_FLOATS = 12            # phase Q's loads of a float type


def qv_extent(c):
    """A generous bound of the bytes phase Q's column spans."""
    sl = 16 if c["il"] == 1 else 32
    es = ESIZE[c["t"]]
    return max(c["cpp"] * max(sl, es), rup(c["cpp"] * es, 16), SW_BYTES[c["sw"]]) * c["ppc"]


IC_ODD = ["outside"] * 16 + ["offrange"] * 10 + ["narrow"] * 12 + ["misal"] * 4 + ["smem16"] * 2

IC_BREAKS = ["rank2", "rank6", "lc_lo", "lc_hi", "uc_lo", "uc_hi", "corner_edge", "cpp0", "cpp257",
             "cpp256", "ppc0", "ppc1025", "ppc1024", "narrow", "swinner", "empty", "es0", "es9",
             "nan_int", "il1", "il2", "addr8", "dim0", "dimbig", "stride8", "stridebig", "type13",
             "type15", "sw4", "sw5", "sw6", "l24", "oob2", "valid", "valid", "valid",
             "area0", "area1", "colbytes", "colbytes"]

# Column sizes (pixelsPerColumn x channelsPerPixel x element size) around
# where the driver stops encoding: 256-byte rows, 896 to 944 pixels, and
# 2048-byte rows, 112 to 118 pixels.
IC_COLBYTES = [(256, p) for p in (896, 900, 904, 906, 907, 908, 909, 910, 912, 920, 930, 944)] + \
              [(2048, p) for p in (112, 113, 114, 115, 118)]


def gen_im2col_verdict(rng):
    """An im2col configuration that breaks (at most) one rule."""
    c = gen_im2col(rng)
    why = rng.choice(IC_BREAKS)
    r = c["r"]
    lim = IC_LIMIT[r]
    es = ESIZE[c["t"]]
    ga = 1 << 20
    i = rng.randrange(r - 2)
    if why == "rank2":
        c["r"] = 2
    elif why == "rank6":
        c["r"] = 6
    elif why == "lc_lo":
        c["lc"][i] = -lim - rng.choice([1, 1, 7])
    elif why == "lc_hi":
        c["lc"][i] = lim + rng.choice([0, 0, 7])
    elif why == "uc_lo":
        c["uc"][i] = -lim - rng.choice([1, 1, 7])
    elif why == "uc_hi":
        c["uc"][i] = lim + rng.choice([0, 0, 7])
    elif why == "corner_edge":
        c["lc"][i] = rng.choice([-lim, lim - 1])
        c["uc"][i] = rng.choice([-lim, lim - 1])
    elif why == "cpp0":
        c["cpp"] = 0
    elif why == "cpp257":
        c["sw"], c["cpp"] = 0, rng.choice([257, 512])
    elif why == "cpp256":
        c["sw"], c["cpp"] = 0, 256
    elif why == "ppc0":
        c["ppc"] = 0
    elif why == "ppc1025":
        c["ppc"] = rng.choice([1025, 2048])
    elif why == "ppc1024":
        c["ppc"] = 1024
    elif why == "narrow":
        c["sw"] = 0
        c["cpp"] = rng.choice([k for k in range(1, 33) if (k * es) % 16])
    elif why == "swinner":
        c["sw"] = rng.choice([1, 2, 3])
        c["cpp"] = min(256, rup(SW_BYTES[c["sw"]] + 16 * rng.randint(1, 8), 16) // es)
    elif why == "empty":
        # upper end below the lower corner
        d = c["d"][i + 1]
        lo = rng.randint(max(-lim, 1 - lim), min(lim - 1, 3))
        up = lo - d - rng.randint(0, 2)
        if -lim <= up:
            c["lc"][i], c["uc"][i] = lo, up
        else:
            why = "empty-skipped"
    elif why in ("area0", "area1"):
        # globalDim + upper - lower = 0 (no filter base fits) or 1
        d = c["d"][i + 1]
        lo = rng.randint(-min(lim, 8), min(lim - 1, 3))
        up = lo - d + (why == "area1")
        if -lim <= up < lim:
            c["lc"][i], c["uc"][i] = lo, up
        else:
            why += "-skipped"
    elif why == "colbytes":
        row, c["ppc"] = rng.choice(IC_COLBYTES)
        c["t"] = rng.choice([k for k in range(13) if row // ESIZE[k] <= 256])
        c["cpp"] = row // ESIZE[c["t"]]
        c["sw"], c["f"] = 0, 0
        c["d"][0] = c["cpp"]
    elif why == "es0":
        c["e"][rng.randrange(r)] = 0
    elif why == "es9":
        c["e"][rng.randrange(r)] = rng.choice([9, 16])
    elif why == "nan_int":
        c["t"] = rng.choice([0, 1, 2, 3, 4, 5])
        c["f"] = 1
        c["sw"] = 0
    elif why == "il1":
        c["il"] = 1
    elif why == "il2":
        c["il"], c["sw"] = 2, 1
        c["cpp"] = max(1, 32 // es)
    elif why == "addr8":
        ga += 8
    elif why == "dim0":
        c["d"][rng.randrange(r)] = 0
    elif why == "dimbig":
        c["d"][rng.randrange(r)] = (1 << 32) + rng.choice([0, 1])
    elif why == "stride8":
        c["s"][rng.randrange(r - 1)] += 8
    elif why == "stridebig":
        c["s"][rng.randrange(r - 1)] = (1 << 40) + rng.choice([-16, 0, 16])
    elif why in ("type13", "type15"):
        c["t"] = int(why[4:])
        c["f"] = 0
        c["cpp"] = 128
        c["sw"] = 0
        c["d"][0] = 128
    elif why in ("sw4", "sw5", "sw6"):
        c["sw"] = int(why[2:])
        c["cpp"] = max(1, min(c["cpp"], 128 // es))
    elif why == "l24":
        c["l2"] = 4
    elif why == "oob2":
        c["f"] = 2
    c["why"] = why
    c["ga"] = ga
    return c


def phase_im2col_verdicts(cu, args, out):
    rng = random.Random(args.seed * 7 + 2)
    base = cu.alloc(4 << 20)
    t0 = time.time()
    n = 0
    for _ in range(args.im2col_verdicts):
        c = gen_im2col_verdict(rng)
        ga = rup(base, 1024) + c["ga"]
        r = c["r"]
        rr = max(1, min(5, r))
        cc = dict(c)
        for key, fill in (("d", 1), ("e", 1)):
            cc[key] = (c[key] + [fill] * 5)[:rr]
        cc["s"] = (c["s"] + [16] * 4)[:max(0, rr - 1)]
        cc["lc"] = (c["lc"] + [0] * 3)[:max(0, rr - 2)]
        cc["uc"] = (c["uc"] + [0] * 3)[:max(0, rr - 2)]
        rc = cu.encode_im2col(cc, ga)
        rec = {"k": "V", "mode": "im2col", "why": c["why"], "t": c["t"], "r": r, "ga": ga % 1024,
               "d": cc["d"], "s": cc["s"], "e": cc["e"], "lc": cc["lc"], "uc": cc["uc"],
               "cpp": c["cpp"], "ppc": c["ppc"], "il": c["il"], "sw": c["sw"], "l2": c["l2"],
               "f": c["f"], "rc": rc}
        out.write(json.dumps(rec, separators=(",", ":")) + "\n")
        n += 1
    dt = time.time() - t0
    return {"verdicts": n, "verdict_seconds": round(dt, 3)}


# ------------------------------------------------------------- phases

def phase_verdicts(cu, args, out):
    rng = random.Random(args.seed * 7 + 1)
    base = cu.alloc(4 << 20)
    t0 = time.time()
    n = 0
    for _ in range(args.verdicts):
        c = gen_verdict(rng)
        ga = rup(base, 1024) + c["ga"]
        r = c["r"]
        cc = dict(c)
        # the encode call reads arrays of rank entries; keep the lists long enough
        rr = max(1, min(5, r))
        for key, fill in (("d", 1), ("b", 1), ("e", 1)):
            cc[key] = (c[key] + [fill] * 5)[:rr]
        cc["s"] = (c["s"] + [16] * 4)[:max(0, rr - 1)]
        cc["r"] = r
        rc = cu.encode(cc, ga)
        rec = {"k": "V", "why": c["why"], "t": c["t"], "r": r, "ga": ga % 1024, "d": cc["d"], "s": cc["s"],
               "b": cc["b"], "e": cc["e"], "il": c["il"], "sw": c["sw"], "l2": c["l2"], "f": c["f"],
               "rc": rc}
        out.write(json.dumps(rec, separators=(",", ":")) + "\n")
        n += 1
    dt = time.time() - t0
    return {"verdicts": n, "verdict_seconds": round(dt, 3)}


def configs_for(kind, args):
    """The phase's configurations, the same in every process of the phase."""
    rng = random.Random(args.seed * 1000 + ord(kind))
    n = phase_count(kind, args)
    if kind == "S":
        return [gen_store(rng) for _ in range(n)]
    if kind == "C":
        return [gen_im2col(rng) for _ in range(n)]
    if kind == "O":
        return [gen_im2col(rng, IC_ODD[k % len(IC_ODD)]) for k in range(n)]
    if kind == "N":
        return [gen_interleave(rng) for _ in range(n)]
    if kind == "T":
        return [gen_interleave_store(rng) for _ in range(n)]
    if kind == "Q":
        # (the float types last, as the corpus file was run)
        return [gen_im2col_interleave(rng, k >= n - QV_FLOATS) for k in range(n)]
    return [gen_config(rng, kind) for _ in range(n)]


def phase_count(kind, args):
    return {"L": args.loads, "I": args.interleaved, "R": args.unaligned, "X": args.far,
            "E": args.estride, "S": args.stores, "M": args.misaligned, "C": args.im2col,
            "O": args.im2col_odd, "N": args.interleave,
            "T": args.interleave_stores, "Q": args.interleave_im2col}[kind]


def refusal(kind, c, rc):
    if kind in IM2COL:
        return {"k": "V", "mode": "im2col", "why": "sweep-" + kind + "-" + c.get("why", "plain"),
                "t": c["t"], "r": c["r"], "ga": c["a"] % 1024, "d": c["d"], "s": c["s"], "e": c["e"],
                "lc": c["lc"], "uc": c["uc"], "cpp": c["cpp"], "ppc": c["ppc"], "il": c["il"],
                "sw": c["sw"], "l2": c["l2"], "f": c["f"], "rc": rc}
    return {"k": "V", "why": "sweep-" + kind, "t": c["t"], "r": c["r"], "ga": c["a"] % 1024, "d": c["d"],
            "s": c["s"], "b": c["b"], "e": c["e"], "il": c["il"], "sw": c["sw"], "l2": c["l2"], "f": c["f"], "rc": rc}


# the load phases of im2col copies
IM2COL = "COQ"
# the load phases that measure the complete-tx count and read the whole window
WHOLE = "NQ"


def emit(out, rec):
    out.write(json.dumps(rec, separators=(",", ":")) + "\n")


def phase_loads(cu, args, out, kind, dumpf):
    """Configurations [start, end) of load phase `kind`, `batch` launches
    between synchronizations. Exits 3 after a failed batch."""
    configs = configs_for(kind, args)
    end = min(args.end if args.end is not None else len(configs), len(configs))
    cu.module(ptx_text())
    g = pattern(args.seed, GSIZE)
    gbase = rup(cu.alloc(GSIZE + 4096), 1024)
    cu.htod(gbase, g)
    batch = args.batch
    slot = IV_SLOT if kind in WHOLE else SLOT
    outbuf = cu.alloc(batch * slot)
    host = np.zeros(batch * slot, dtype=np.uint8)
    if kind in WHOLE:
        pz = poison(IV_REGION // 4).view(np.uint8).reshape(-1, 16)
    t0 = time.time()
    pos = args.start
    n = refused = bytes_cmp = 0
    while pos < end:
        pend = []
        stop = min(pos + batch, end)
        for idx in range(pos, stop):
            c = dict(configs[idx])
            k = idx - pos
            im2col = kind in IM2COL
            rc = cu.encode_im2col(c, gbase + c["a"]) if im2col else cu.encode(c, gbase + c["a"])
            if rc != 0:
                refused += 1
                emit(out, refusal(kind, c, rc))
                continue
            if kind in WHOLE:
                c["x"], c["ext"], c["n"] = IV_BIG, (qv_extent(c) if im2col else iv_extent(c)), IV_REGION
            else:
                c["x"] = ic_bytes(c) if im2col else box_bytes(c)
                c["ext"] = ic_extent(c) if im2col else smem_extent(c)
                c["n"] = rup(c["o"] + c["ext"] + SLACK, 16)
            coords = [ctypes.c_int32(x) for x in (c["c"] + [0] * (5 - c["r"]))]
            if im2col:
                coords += [ctypes.c_uint16(x & 0xFFFF) for x in (c["off"] + [0] * 3)[:3]]
            params = [ctypes.c_uint64(outbuf + k * slot)] + coords + [
                ctypes.c_uint32(c["o"]), ctypes.c_uint32(c["x"]), ctypes.c_uint32(c["n"] // 4)]
            if args.maps and idx % args.maps == 0:
                c["m"] = cu.map_bytes().hex()
            r = cu.launch(f"{'ic' if im2col else 'ld'}{c['r']}", params, 1024 + c["n"])
            if r != 0:
                pend.append((k, idx, c))
                break
            pend.append((k, idx, c))
        r = cu.sync()
        if r != 0:
            emit(out, {"k": "E", "phase": kind, "error": cu.err(r), "first": pos, "end": stop})
            if stop - pos == 1 and pend:
                c = pend[0][2]
                c.update({"k": "F", "phase": kind, "i": pos, "error": cu.err(r)})
                emit(out, c)
            out.flush()
            sys.exit(3)
        cu.dtoh(host, outbuf)
        for k, idx, c in pend:
            sl_ = host[k * slot:(k + 1) * slot]
            hdr = sl_[:16].view("<u4")
            region = sl_[16:16 + c["n"]]
            c["st"], c["sa"], c["df"], c["ov"] = int(hdr[0]), int(hdr[1]), int(hdr[2]), int(hdr[3])
            c["h"] = f"{digest(region):016x}"
            c["i"] = idx
            seg = region[c["o"]:c["o"] + c["ext"] + 64]
            bad = c["st"] != 1 or c["df"] or c["ov"]
            if kind in WHOLE:
                # the complete-tx count; the bytes to the last written chunk
                c["tx"] = IV_BIG - c["df"] if c["st"] == 0 and c["df"] < IV_BIG else None
                written = np.nonzero((region.reshape(-1, 16) != pz).any(axis=1))[0]
                last = int(written[-1]) * 16 + 16 if len(written) else 0
                c["lo"] = int(written[0]) * 16 if len(written) else 0
                c["bl"] = max(0, last - c["o"])
                c["B"] = base64.b64encode(region[c["o"]:c["o"] + c["bl"]].tobytes()).decode()
                bytes_cmp += c["tx"] or 0
                c["k"] = "L"
                c["phase"] = kind
                c["i"] = idx
                emit(out, c)
                n += 1
                continue
            if kind == "C":
                # (a sample only, bad or not: the dump holds the rest)
                keep = args.im2col_sample and idx % args.im2col_sample == 0
            else:
                keep = (args.sample and idx % args.sample == 0) or bad or kind != "L"
            if keep:
                c["B"] = base64.b64encode(seg.tobytes()).decode()
            if dumpf is not None and idx < args.dump_loads:
                c["fo"] = dumpf.write(seg.tobytes())
            bytes_cmp += c["x"]
            c["k"] = "L"
            c["phase"] = kind
            emit(out, c)
            n += 1
        pos = stop
    dt = time.time() - t0
    return {"configs": n, "refused": refused, "seconds": round(dt, 3), "box_bytes": bytes_cmp}


def phase_stores(cu, args, out, kind="S"):
    configs = configs_for(kind, args)
    end = min(args.end if args.end is not None else len(configs), len(configs))
    cu.module(ptx_text())
    ssize = 1 << 16
    sseed = args.seed + 101
    tseed = args.seed + 202
    src = pattern(sseed, ssize)
    sbase = rup(cu.alloc(ssize + 1024), 1024)
    cu.htod(sbase, src)
    batch = args.batch
    tsize = batch * 16640
    tpat = pattern(tseed, tsize)
    tbase = rup(cu.alloc(tsize + 4096), 1024)
    host = np.zeros(tsize, dtype=np.uint8)
    rng = random.Random(args.seed * 77 + args.start)
    t0 = time.time()
    pos = args.start
    n = refused = written = 0
    while pos < end:
        cu.htod(tbase, tpat)
        pend = []
        woff = 0
        idx = pos
        while idx < end and idx - pos < batch:
            c = dict(configs[idx])
            # window [w, w + wn): 32 bytes before the tensor, 64 after
            wn = rup(32 + c.pop("foot") + 64, 256)
            if woff + wn > tsize:
                break
            c["w"], c["a"], c["wn"] = woff, woff + 32, wn
            woff += wn
            idx += 1
            rc = cu.encode(c, tbase + c["a"])
            if rc != 0:
                refused += 1
                emit(out, refusal(kind, c, rc))
                continue
            if kind == "T":
                # (the swizzle moves chunks anywhere in a 128-byte line)
                c["x"], c["ext"] = 0, rup(max(iv_extent(c), 128), 128)
            else:
                c["x"] = box_bytes(c)
                c["ext"] = smem_extent(c)
            c["so"] = 16 * rng.randrange((ssize - c["ext"]) // 16)
            coords = [ctypes.c_int32(x) for x in (c["c"] + [0] * (5 - c["r"]))]
            params = [ctypes.c_uint64(sbase + c["so"])] + coords + [ctypes.c_uint32(c["o"]), ctypes.c_uint32(c["ext"] // 4)]
            c["i"] = idx - 1
            r = cu.launch(f"st{c['r']}", params, 1024 + c["o"] + c["ext"] + 16)
            pend.append(c)
            if r != 0:
                break
        r = cu.sync()
        if r != 0:
            emit(out, {"k": "E", "phase": kind, "error": cu.err(r), "first": pos, "end": idx})
            if idx - pos == 1 and pend:
                c = pend[0]
                c.update({"k": "F", "phase": kind, "error": cu.err(r)})
                emit(out, c)
            out.flush()
            sys.exit(3)
        cu.dtoh(host, tbase)
        for c in pend:
            win = host[c['w']:c['w'] + c['wn']]
            c["h"] = f"{digest(win):016x}"
            c["k"] = "S"
            if kind == "T":
                c["phase"] = kind
                ch = (win.reshape(-1, 16) != tpat.view(np.uint8)[c['w']:c['w'] + c['wn']].reshape(-1, 16)).any(axis=1)
                runs, k0 = [], None
                for k, v in enumerate(list(ch) + [False]):
                    if v and k0 is None:
                        k0 = k
                    elif not v and k0 is not None:
                        runs.append([k0 * 16, k * 16])
                        k0 = None
                c["wc"] = runs
                c["x"] = sum(b - a for a, b in runs)
                if c["i"] % 3 == 0:
                    c["W"] = base64.b64encode(win.tobytes()).decode()
            n += 1
            written += c["x"]
            emit(out, c)
        pos = idx
    dt = time.time() - t0
    return {"configs": n, "refused": refused, "seconds": round(dt, 3), "box_bytes": written,
            "sseed": sseed, "tseed": tseed, "ssize": ssize}


class Dump:
    """Bytes of loads, in files of at most 15 MB (the device tool's limit is
    16 MiB a file), opened at the first write."""

    def __init__(self, out, phase):
        self.out, self.phase, self.idx, self.f = out, phase, 0, None

    def write(self, b):
        if self.f is None or self.f.tell() + len(b) > 15_000_000:
            if self.f is not None:
                self.f.close()
                self.idx += 1
            self.f = open(os.path.join(self.out, f"dump-{self.phase}{self.idx}.bin"), "wb")
        pos = [self.idx, self.f.tell()]
        self.f.write(b)
        return pos


class FakeCuda:
    """For testing this script without a GPU (TENSOR_SWEEP_FAKE=1): every
    map is accepted, a launch with an unaligned destination faults."""

    name, driver, map_addr = "fake", 0, 0

    def __init__(self):
        self.bad = False

    def err(self, r):
        return f"FAKE_ERROR_{r}"

    def alloc(self, n):
        return 1 << 32

    def htod(self, dptr, arr):
        pass

    def dtoh(self, arr, dptr):
        arr[:] = 0

    def sync(self):
        r, self.bad = (715 if self.bad else 0), False
        return r

    def module(self, text):
        pass

    def encode(self, c, gaddr):
        return 1 if c["il"] == 2 and c["sw"] != 1 else 0

    def encode_im2col(self, c, gaddr):
        return 1 if not (3 <= c["r"] <= 5) or c["cpp"] == 0 or c["ppc"] == 0 else 0

    def map_bytes(self):
        return bytes(128)

    def launch(self, name, params, smem):
        if params[-3 if name.startswith(("ld", "ic")) else -2].value % 128:
            self.bad = True
        return 0


def run_phase(args):
    cu = FakeCuda() if os.environ.get("TENSOR_SWEEP_FAKE") else Cuda()
    path = os.path.join(args.work, f"part-{args.phase}.jsonl")
    dumpf = Dump(args.out, f"{args.phase}{args.start}-") if args.dump and args.phase in "LIC" else None
    with open(path, "a") as out:
        if args.phase == "V":
            info = phase_verdicts(cu, args, out)
        elif args.phase == "D":
            info = phase_im2col_verdicts(cu, args, out)
        elif args.phase in "ST":
            info = phase_stores(cu, args, out, args.phase)
        else:
            info = phase_loads(cu, args, out, args.phase, dumpf)
        info.update({"device": cu.name, "driver": cu.driver, "start": args.start, "batch": args.batch})
        emit(out, {"k": "P", "phase": args.phase, **info})
    print(json.dumps({"phase": args.phase, **info}), flush=True)


def child(args, ph, start, end, batch):
    cmd = [sys.executable, __file__, "--phase", ph, "--start", str(start), "--batch", str(batch),
           "--out", args.out, "--work", args.work, "--seed", str(args.seed),
           "--loads", str(args.loads), "--interleaved", str(args.interleaved), "--interleave", str(args.interleave), "--interleave-stores", str(args.interleave_stores), "--interleave-im2col", str(args.interleave_im2col), "--unaligned", str(args.unaligned),
           "--far", str(args.far), "--estride", str(args.estride), "--stores", str(args.stores),
           "--misaligned", str(args.misaligned),
           "--verdicts", str(args.verdicts), "--sample", str(args.sample), "--maps", str(args.maps),
           "--dump-loads", str(args.dump_loads), "--im2col", str(args.im2col),
           "--im2col-odd", str(args.im2col_odd), "--im2col-verdicts", str(args.im2col_verdicts),
           "--im2col-sample", str(args.im2col_sample)] + (["--dump"] if args.dump else [])
    if end is not None:
        cmd += ["--end", str(end)]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=args.phase_timeout)
    except subprocess.TimeoutExpired:
        return "timeout", ""
    return r.returncode, r.stdout + r.stderr[-1500:]


def last_error(args, ph):
    path = os.path.join(args.work, f"part-{ph}.jsonl")
    err = None
    for line in open(path):
        if line.startswith('{"k":"E"'):
            err = json.loads(line)
    return err


def run_isolating(args, ph):
    """Runs phase `ph`; a batch whose launches fault is run again one
    configuration at a time, each fault recorded (`F`) and skipped."""
    total = 1 if ph in "VD" else phase_count(ph, args)
    batch = 1 if ph in "RMO" else 512
    max_starts = args.odd_starts if ph == "O" else args.max_starts + (QV_FLOATS if ph == "Q" else 0)
    pos, iso_end, starts, log = 0, -1, 0, []
    t0 = time.time()
    while pos < total and starts < max_starts:
        starts += 1
        if pos < iso_end:
            rc, text = child(args, ph, pos, iso_end, 1)
            b = 1
        else:
            rc, text = child(args, ph, pos, None, batch)
            b = batch
        log.append(text.strip()[-400:])
        if rc == 0:
            pos = iso_end if pos < iso_end else total
            continue
        err = last_error(args, ph) if rc == 3 else None
        if err is None:
            log.append(f"phase {ph}: child ended with {rc} at {pos}")
            break
        if b == 1:
            pos = err["first"] + 1
        else:
            pos, iso_end = err["first"], err["end"]
    return {"phase": ph, "starts": starts, "seconds": round(time.time() - t0, 3), "reached": pos, "total": total}, log


def reduce(src, dst):
    """The corpus copy of a sweep: every record, the full bytes (B) of every
    128th plain load, every 32nd im2col load, every 10th load of the
    far-coordinate and element-stride phases and of every interleaved and
    odd-operand one kept (and of any load whose completion went wrong), the
    driver's map bytes (m) of every 2000th."""
    with gzip.open(src, "rt") as f, gzip.open(dst, "wt", compresslevel=9) as out:
        for line in f:
            r = json.loads(line)
            if r.get("k") == "L":
                ph, i = r.get("phase", "L"), r["i"]
                keep = ((ph == "L" and i % 128 == 0) or (ph in "XE" and i % 10 == 0)
                        or (ph == "C" and i % 32 == 0) or ph not in "LXEC"
                        or r.get("st") != 1 or r.get("df") or r.get("ov"))
                if not keep:
                    r.pop("B", None)
                if i % 2000:
                    r.pop("m", None)
            out.write(json.dumps(r, separators=(",", ":")) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=".")
    ap.add_argument("--work", default="/tmp/tensor-sweep", help="where the phases write their parts")
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--loads", type=int, default=24000)
    ap.add_argument("--interleaved", type=int, default=30)
    ap.add_argument("--interleave", type=int, default=3000, help="interleaved loads (phase N)")
    ap.add_argument("--interleave-stores", type=int, default=1500, help="interleaved stores (phase T)")
    ap.add_argument("--interleave-im2col", type=int, default=1500, help="interleaved im2col loads (phase Q)")
    ap.add_argument("--unaligned", type=int, default=4)
    ap.add_argument("--misaligned", type=int, default=4)
    ap.add_argument("--far", type=int, default=400)
    ap.add_argument("--estride", type=int, default=400)
    ap.add_argument("--stores", type=int, default=6000)
    ap.add_argument("--verdicts", type=int, default=4000)
    ap.add_argument("--sample", type=int, default=64)
    ap.add_argument("--im2col", type=int, default=8000, help="im2col loads (phase C)")
    ap.add_argument("--im2col-odd", type=int, default=len(IC_ODD),
                    help="im2col loads with an odd operand, one a launch (phase O)")
    ap.add_argument("--im2col-verdicts", type=int, default=3000, help="cuTensorMapEncodeIm2col calls (phase D)")
    ap.add_argument("--im2col-sample", type=int, default=16, help="keep the bytes of every N-th im2col load")
    ap.add_argument("--odd-starts", type=int, default=24, help="processes phase O may start")
    ap.add_argument("--file", default="tensor-sweep.jsonl.gz", help="the merged sweep file's name in --out")
    ap.add_argument("--maps", type=int, default=200, help="keep the driver's 128 bytes of every N-th map")
    ap.add_argument("--dump", action="store_true")
    ap.add_argument("--dump-loads", type=int, default=8000, help="dump the bytes of the first N plain loads")
    ap.add_argument("--phase-timeout", type=int, default=150)
    ap.add_argument("--max-starts", type=int, default=8, help="processes a phase may start (one per fault)")
    ap.add_argument("--phases", default="VLSXEMRI",
                    help="V L S X E M R I N T (tiled), D C O Q (im2col: verdicts, loads, odd operands, interleaved)")
    ap.add_argument("--phase", help=argparse.SUPPRESS)
    ap.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--end", type=int, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--batch", type=int, default=512, help=argparse.SUPPRESS)
    ap.add_argument("--ptx-only", help="write the PTX to this file and stop")
    ap.add_argument("--dry", action="store_true", help="generate configurations only (no GPU)")
    ap.add_argument("--reduce", nargs=2, metavar=("IN", "OUT"),
                    help="write a sweep file with the bytes (B) of a sample only (the corpus's)")
    args = ap.parse_args()
    if args.reduce:
        reduce(*args.reduce)
        return
    if args.ptx_only:
        with open(args.ptx_only, "w") as f:
            f.write(ptx_text())
        return
    if args.dry:
        for kind in "LXEIRSMCONTQ":
            cs = configs_for(kind, args)
            if kind in IM2COL:
                for c in cs:
                    ic_bytes(c)
            elif kind in "NT":
                for c in cs:
                    iv_extent(c)
            elif kind not in "ST":
                for c in cs:
                    box_bytes(c)
        rng = random.Random(args.seed)
        for _ in range(2000):
            gen_verdict(rng)
            gen_im2col_verdict(rng)
        print("dry run ok; selftest digest", f"{digest(pattern(1, 1024).view(np.uint8)):016x}")
        return
    if args.phase:
        run_phase(args)
        return
    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.work, exist_ok=True)
    for ph in args.phases:
        p = os.path.join(args.work, f"part-{ph}.jsonl")
        if os.path.exists(p):
            os.remove(p)
    t0 = time.time()
    summary = {}
    for ph in args.phases:
        info, log = run_isolating(args, ph)
        summary[ph] = info
        print(json.dumps(info), flush=True)
        for l in log[-3:]:
            print("  " + l.replace("\n", "\n  "), flush=True)
    # merge
    sel = pattern(1, 1024).view(np.uint8)
    path = os.path.join(args.out, args.file)
    children = []
    with gzip.open(path, "wt") as out:
        lines = []
        for ph in args.phases:
            p = os.path.join(args.work, f"part-{ph}.jsonl")
            if not os.path.exists(p):
                continue
            for line in open(p):
                if line.startswith('{"k":"P"'):
                    children.append(json.loads(line))
                else:
                    lines.append(line)
        hdr = {"k": "H", "seed": args.seed, "gsize": GSIZE, "slack": SLACK, "tries": TRIES, "threads": NT,
               "maxbox": MAXBOX,
               "selftest": {"seed": 1, "n": 1024, "digest": f"{digest(sel):016x}"},
               "phases": summary, "processes": children, "wall_seconds": round(time.time() - t0, 3)}
        out.write(json.dumps(hdr, separators=(",", ":")) + "\n")
        out.writelines(lines)
    print(json.dumps({k: v for k, v in hdr.items() if k != "processes"}))


if __name__ == "__main__":
    main()
