#!/usr/bin/env python3
"""Probes `tensormap.replace` (PTX ISA 9.7.9.26) on the GPU: replaces fields
of tensor maps made by `cuTensorMapEncodeTiled`, uses each replaced map in a
tiled `cp.async.bulk.tensor` load and records what lands in shared memory,
for the model's test (conformance/tests/tensormap_replace_hardware.rs;
semantics/src/tensor/replace.rs).

usage: tensormap_replace_probe.py --out DIR [--seed N] [--scale K]
       tensormap_replace_probe.py --dry | --ptx-only FILE

Phases (each run by child processes; a launch that faults loses its
context, so the rest of the phase goes on in a new process, the faulting
configuration recorded as an `F` record):

  P  legality: small modules with one `tensormap.replace` (or fence) form
     each, loaded with cuModuleLoadDataEx for sm_90a; the JIT's verdict.
     The forms it accepts make up the probe kernel.
  R  valid replacements: per configuration, a map from
     cuTensorMapEncodeTiled copied to its own 256-byte slot of global
     memory; one CTA (thread 0) runs 1 to 4 replacements on it

       tensormap.replace.tile.<field>{.global,.shared::cta,}.b1024.<type> [map], {ord,} new_val;

     in global memory (`.global` or a generic address) or on a copy in
     shared memory (`.shared::cta` or a generic address; then copied back to
     global), then

       fence.proxy.tensormap::generic.release.gpu;
       fence.proxy.tensormap::generic.acquire.gpu [map], 128;

     and a load `cp.async.bulk.tensor.<r>d.shared::cluster.global.tile.
     mbarrier::complete_tx::bytes` with the map, its complete-tx counted as
     tensor_sweep.py's L phase does (expected bytes of the replaced map;
     `df` the bytes still lacking when the wait gave up, `ov` late bytes).
  N  the fence: the same with the two fences left out, with and without a
     load of the map before the replacement (`pre`), and controls with the
     fences (observation).
  U  replacements the model refuses (a value out of range, an `ord` past the
     rank, a map the replacement leaves invalid, ...): what the GPU does
     (the load's bytes and delivered byte count, or its fault).
  K  where an H100 parts from the spec: the type replaced away from a
     driver-encoded .tf32 / .tf32.ftz (and histories through the replace
     alone), global dimensions above 2^31 (by the replace and the driver).
  W  the configurations of U and K without the load: the map's bytes after
     the replacements (`m1`), beside the driver's encoding of the new fields
     (`md`) where it has one.

The corpus (corpus/tensor/sm_90/replace-probe.jsonl.gz) is one run with the
defaults (seed 7, scale 1) on an H100.

Records (one JSON line each, gzip, DIR/replace-probe.jsonl.gz): `H` header,
`P` legality verdicts, `R` runs (phase R, N, U, K or W), `F` faulting launches,
`E` failed batches, `V` base maps the driver refused. A run record holds the
base map by its driver fields (t r d s b e il sw l2 f a, as tensor_sweep.py
writes them; `a` the byte offset of globalAddress in the pattern buffer),
the replacements `reps` as [qualifier, ord, new_val] (for
`.global_address` new_val is the offset in the buffer; the kernel adds the
buffer's address), `space`, `fence`, `pre`, the coordinates `c` of the load
of `.dim` `dim`, the shared offset `o`, the expected byte count `x`, the
read-back size `n`, the kernel's status (`st` waited, `sa` shared address,
`df`, `ov`, `pst` the pre-use load waited), the digest `h` of the `n` bytes
of shared memory from the 1024-byte aligned base, and for a sample the
bytes (`B`, base64, from `o`) and the maps before and after (`m0`, `m1`,
hex).

Global memory holds pattern words, shared memory is poisoned, digests are
those of semantics/src/tensor/mod.rs (imported from tensor_sweep.py).
TENSORMAP_REPLACE_FAKE=1 runs the orchestration against a fake device.
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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tensor_sweep import (ESIZE, FLOAT, GSIZE, MAXBOX, SW_BYTES, digest,  # noqa: E402
                          gen_config, pattern, poison)

NT = 128
TRIES = 4000
SLACK = 256
UEXT = 32768               # shared bytes read back for a refused configuration
UTX = 36864                # the byte count those expect: more than any box there
HDR = 32
SLOT = HDR + 1024 + UEXT + SLACK     # output bytes per configuration
MSLOT = 256                # bytes per map slot in global memory
# driver type code -> Table 33 (.elemtype) code
PTX_TYPE = [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 8, 11, 12]
SPACES = ["global", "shared", "generic-global", "generic-shared"]
FORMS = [".global", ".shared::cta", ""]
FORM_OF = {"global": 0, "shared": 1, "generic-global": 2, "generic-shared": 2}

# ------------------------------------------------------------- the ops

FIELD2 = ["box_dim", "global_dim", "global_stride", "element_stride"]
FIELD3 = {"elemtype": 16, "interleave_layout": 3, "swizzle_mode": 5, "swizzle_atomicity": 4, "fill_mode": 2}
WIDE = {"global_address", "global_stride"}


def candidate_ops():
    """Every (field, ord, immediate) the probe kernel may hold: ord 0..4 of
    each .field2, every Table 33 value of each .field3."""
    ops = [("global_address", None, None), ("rank", None, None)]
    for f in FIELD2:
        ops += [(f, o, None) for o in range(5)]
    for f, n in FIELD3.items():
        ops += [(f, None, v) for v in range(n)]
    return ops


def op_text(form, op, vreg32="%r34", vreg64="%rd10", addr="%rd11"):
    f, o, v = op
    ty = ".b64" if f in WIDE else ".b32"
    val = vreg64 if f in WIDE else (str(v) if v is not None else vreg32)
    ordt = f"{o}, " if o is not None else ""
    return f"tensormap.replace.tile.{f}{form}.b1024{ty} [{addr}], {ordt}{val};"


# ------------------------------------------------------------- legality probes

def probe_module(instr, version="8.3", target="sm_90a"):
    return "\n".join([
        f".version {version}", f".target {target}", ".address_size 64", "",
        ".visible .entry k(.param .u64 k_p)", "{",
        "\t.reg .b32 %r<8>;", "\t.reg .b64 %rd<8>;",
        "\tld.param.u64 %rd1, [k_p];", "\tmov.b32 %r1, 5;", "\tmov.b64 %rd2, 4096;",
        "\tmov.b32 %r2, 1;",
        f"\t{instr}", "\tret;", "}", ""])


def legality_probes(ops):
    """(name, params, module text): params say what the form is, for the
    model's verdict in the test."""
    out = []

    def add(name, instr, version="8.3", target="sm_90a", **p):
        p.update(version=version, target=target)
        out.append((name, p, probe_module(instr, version, target)))

    def rep(field, form=".global", ord_=None, val=None, ty=None, mode="tile"):
        ty = ty or (".b64" if field in WIDE else ".b32")
        v = "%rd2" if ty == ".b64" else "%r1"
        if val is not None:
            v = str(val)
        o = "" if ord_ is None else f"{ord_}, "
        return f"tensormap.replace.{mode}.{field}{form}.b1024{ty} [%rd1], {o}{v};"

    def params(field, form=".global", ord_=None, val=None, ty=None, mode="tile"):
        return dict(field=field, form=form, ord=ord_, val=("reg" if val is None else val),
                    ty=ty or (".b64" if field in WIDE else ".b32"), mode=mode)

    for op in ops:
        f, o, v = op
        name = f"op {f}" + (f" ord {o}" if o is not None else "") + (f" = {v}" if v is not None else "")
        add(name, rep(f, ord_=o, val=v), **params(f, ord_=o, val=v))
    # versions and targets of the forms with their own notes
    for v, ver in ((13, "8.7"), (15, "9.0")):
        add(f"elemtype {v} at PTX {ver}", rep("elemtype", val=v), ver, **params("elemtype", val=v))
    add("swizzle_mode 4 at PTX 8.8", rep("swizzle_mode", val=4), "8.8", **params("swizzle_mode", val=4))
    add("swizzle_atomicity 0 at PTX 8.6", rep("swizzle_atomicity", val=0), "8.6", **params("swizzle_atomicity", val=0))
    add("box_dim on sm_90", rep("box_dim", ord_=0), target="sm_90", **params("box_dim", ord_=0))
    add("box_dim at PTX 8.2", rep("box_dim", ord_=0), "8.2", **params("box_dim", ord_=0))
    # types
    for f, ty in (("global_address", ".b32"), ("global_stride", ".b32"), ("box_dim", ".b64"),
                  ("rank", ".b64"), ("elemtype", ".b64")):
        o = 0 if f in FIELD2 else None
        val = 7 if f == "elemtype" else None
        add(f"{f} as {ty}", rep(f, ord_=o, val=val, ty=ty), **params(f, ord_=o, val=val, ty=ty))
    # ord
    for f in ("box_dim", "global_stride"):
        add(f"{f} ord 5", rep(f, ord_=5), **params(f, ord_=5))
    add("box_dim ord in a register", "tensormap.replace.tile.box_dim.global.b1024.b32 [%rd1], %r2, %r1;",
        **params("box_dim", ord_="reg"))
    add("box_dim without ord", "tensormap.replace.tile.box_dim.global.b1024.b32 [%rd1], %r1;",
        **params("box_dim", ord_=None))
    add("rank with an ord", "tensormap.replace.tile.rank.global.b1024.b32 [%rd1], 0, %r1;",
        **params("rank", ord_=0))
    # .field3 values: a register, the `x` entries
    add("elemtype in a register", rep("elemtype"), **params("elemtype"))
    for f, n in FIELD3.items():
        add(f"{f} = {n} (x)", rep(f, val=n), "9.0", **params(f, val=n))
    # immediates of the other fields out of range
    for f, o, val in (("rank", None, 5), ("rank", None, 4), ("box_dim", 0, 0), ("box_dim", 0, 257),
                      ("element_stride", 0, 9), ("element_stride", 0, 0), ("global_dim", 0, 0),
                      ("global_stride", 0, 8), ("global_address", None, 8)):
        add(f"{f} immediate {val}", rep(f, ord_=o, val=val), **params(f, ord_=o, val=val))
    # mode and state spaces
    add("im2col mode", rep("rank", mode="im2col"), **params("rank", mode="im2col"))
    add("shared::cluster", rep("rank", form=".shared::cluster"), **params("rank", form=".shared::cluster"))
    add("shared::cta, 32-bit address", "tensormap.replace.tile.rank.shared::cta.b1024.b32 [%r2], %r1;",
        **params("rank", form=".shared::cta"))
    add("shared::cta, 64-bit address", rep("rank", form=".shared::cta"), **params("rank", form=".shared::cta"))
    add("generic", rep("rank", form=""), **params("rank", form=""))
    # the fences
    for name, size, instr in (("fence release", None, "fence.proxy.tensormap::generic.release.gpu;"),
                              ("fence acquire 128", 128, "fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;"),
                              ("fence acquire 64", 64, "fence.proxy.tensormap::generic.acquire.gpu [%rd1], 64;")):
        out.append((name, dict(fence=True, size=size, version="8.3", target="sm_90a"), probe_module(instr)))
    return out


# ------------------------------------------------------------- the probe kernel

def ptx_text(ops, forms=(0, 1, 2)):
    """The probe kernel, holding the `ops` (those the JIT accepted) in the
    state-space `forms` (indices of FORMS)."""
    nops = len(ops)
    L = [".version 8.3", ".target sm_90a", ".address_size 64", "",
         ".extern .shared .align 16 .b8 dsm[];", ".shared .align 128 .b8 smap[128];",
         ".shared .align 8 .b64 mbar0;", ".shared .align 8 .b64 mbar1;", "",
         ".visible .entry rp(",
         "\t.param .u64 p_map, .param .u64 p_out,",
         "\t.param .u32 p_c0, .param .u32 p_c1, .param .u32 p_c2, .param .u32 p_c3, .param .u32 p_c4,",
         "\t.param .u32 p_dst, .param .u32 p_tx, .param .u32 p_words, .param .u32 p_dim,",
         "\t.param .u32 p_flags, .param .u32 p_n,",
         "\t.param .u32 p_op0, .param .u32 p_op1, .param .u32 p_op2, .param .u32 p_op3,",
         "\t.param .u64 p_v0, .param .u64 p_v1, .param .u64 p_v2, .param .u64 p_v3,",
         "\t.param .u32 p_pdim, .param .u32 p_ptx",
         ")", "{",
         "\t.reg .pred %p<24>;", "\t.reg .b32 %r<64>;", "\t.reg .b64 %rd<24>;", ""]
    a = L.append
    for i, n in enumerate(["map", "out"]):
        a(f"\tld.param.u64 %rd{1 + i}, [p_{n}];")
    for i in range(5):
        a(f"\tld.param.u32 %r{1 + i}, [p_c{i}];")
    for reg, n in ((6, "dst"), (7, "tx"), (8, "words"), (21, "dim"), (22, "flags"), (23, "n"),
                   (24, "op0"), (25, "op1"), (26, "op2"), (27, "op3"), (28, "pdim"), (29, "ptx")):
        a(f"\tld.param.u32 %r{reg}, [p_{n}];")
    for i in range(4):
        a(f"\tld.param.u64 %rd{6 + i}, [p_v{i}];")
    a("\tcvta.to.global.u64 %rd2, %rd2;\n\tcvta.to.global.u64 %rd15, %rd1;")
    a("\tmov.u32 %r9, dsm;\n\tadd.u32 %r9, %r9, 1023;\n\tand.b32 %r9, %r9, 0xFFFFFC00;")
    a("\tmov.u32 %r10, %tid.x;\n\tmov.u32 %r30, mbar0;\n\tmov.u32 %r11, mbar1;\n\tmov.u32 %r32, smap;")
    a("\tadd.u32 %r15, %r9, %r6;\n\tmov.u32 %r36, 0;")
    a("\tsetp.ne.u32 %p2, %r10, 0;")

    def poison_loop(tag):
        a(f"\tmov.u32 %r12, %r10;\n$POI{tag}:\n\tsetp.ge.u32 %p1, %r12, %r8;\n\t@%p1 bra $POID{tag};")
        a("\tmad.lo.u32 %r13, %r12, 0x9E3779B1, 0x7F4A7C15;\n\tshl.b32 %r14, %r12, 2;\n\tadd.u32 %r14, %r14, %r9;")
        a(f"\tst.shared.u32 [%r14], %r13;\n\tadd.u32 %r12, %r12, {NT};\n\tbra $POI{tag};\n$POID{tag}:")

    def load(tag, dim, mbar):
        """thread 0: issue the load of `.dim` in register `dim`."""
        for d in range(1, 6):
            a(f"\tsetp.eq.u32 %p3, {dim}, {d};\n\t@%p3 bra $LD{tag}{d};")
        a(f"\tbra $LD{tag}X;")
        for d in range(1, 6):
            coords = ", ".join(f"%r{1 + i}" for i in range(d))
            a(f"$LD{tag}{d}:\n\tcp.async.bulk.tensor.{d}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
              f" [%r15], [%rd1, {{{coords}}}], [{mbar}];\n\tbra $LD{tag}X;")
        a(f"$LD{tag}X:")

    poison_loop("A")
    a("\t@%p2 bra $INITD;")
    a("\tmbarrier.init.shared::cta.b64 [%r30], 1;\n\tmbarrier.init.shared::cta.b64 [%r11], 1;\n$INITD:")
    a("\tfence.proxy.async.shared::cta;\n\tbar.sync 0;")
    # ---- the load before the replacement (flag 8)
    a("\tand.b32 %r37, %r22, 8;\n\tsetp.eq.u32 %p4, %r37, 0;\n\t@%p4 bra $PRED;")
    a("\t@%p2 bra $PREW;")
    a("\tmbarrier.arrive.expect_tx.shared::cta.b64 _, [%r30], %r29;")
    load("P", "%r28", "%r30")
    a("\tmov.u32 %r16, 0;\n$PRET:\n\tmbarrier.try_wait.parity.shared::cta.b64 %p5, [%r30], 0;")
    a(f"\t@%p5 bra $PREOK;\n\tadd.u32 %r16, %r16, 1;\n\tsetp.lt.u32 %p6, %r16, {TRIES};\n\t@%p6 bra $PRET;\n\tbra $PREW;")
    a("$PREOK:\n\tmov.u32 %r36, 1;\n$PREW:\n\tbar.sync 0;")
    poison_loop("B")
    a("\tfence.proxy.async.shared::cta;\n\tbar.sync 0;\n$PRED:")
    # ---- the replacements (thread 0)
    a("\t@%p2 bra $REPD;")
    a("\tand.b32 %r31, %r22, 3;")
    a("\tsetp.eq.u32 %p7, %r31, 1;\n\tsetp.eq.u32 %p8, %r31, 3;\n\tor.pred %p9, %p7, %p8;")
    a("\tcvt.u64.u32 %rd12, %r32;\n\tcvta.shared.u64 %rd13, %rd12;")
    a("\t@!%p9 bra $CPIND;")
    for k in range(16):
        a(f"\tld.global.u64 %rd14, [%rd15+{8 * k}];\n\tst.shared.u64 [%r32+{8 * k}], %rd14;")
    a("$CPIND:")
    # the address and form: space 0 .global [map], 1 .shared::cta [smap], 2 generic [map], 3 generic [smap]
    a("\tmov.u64 %rd11, %rd15;\n\tmov.u32 %r38, 0;")
    a("\t@%p7 mov.u64 %rd11, %rd12;\n\t@%p7 mov.u32 %r38, 1;")
    a("\tsetp.eq.u32 %p10, %r31, 2;\n\t@%p10 mov.u64 %rd11, %rd1;\n\t@%p10 mov.u32 %r38, 2;")
    a("\t@%p8 mov.u64 %rd11, %rd13;\n\t@%p8 mov.u32 %r38, 2;")
    a(f"\tmul.lo.u32 %r38, %r38, {nops};")
    a("\tmov.u32 %r35, 0;\n$RLOOP:\n\tsetp.ge.u32 %p11, %r35, %r23;\n\t@%p11 bra $RDONE;")
    a("\tmov.u32 %r33, %r24;\n\tmov.u64 %rd10, %rd6;")
    for k in range(1, 4):
        a(f"\tsetp.eq.u32 %p12, %r35, {k};\n\t@%p12 mov.u32 %r33, %r{24 + k};\n\t@%p12 mov.u64 %rd10, %rd{6 + k};")
    a("\tcvt.u32.u64 %r34, %rd10;\n\tadd.u32 %r39, %r38, %r33;")
    for form in forms:
        for j in range(nops):
            a(f"\tsetp.eq.u32 %p13, %r39, {form * nops + j};\n\t@%p13 bra $OP{form * nops + j};")
    a("\tbra $RNEXT;")
    for form in forms:
        for j, op in enumerate(ops):
            a(f"$OP{form * nops + j}:\n\t{op_text(FORMS[form], op)}\n\tbra $RNEXT;")
    a("$RNEXT:\n\tadd.u32 %r35, %r35, 1;\n\tbra $RLOOP;\n$RDONE:")
    a("\t@!%p9 bra $CPOUTD;")
    for k in range(16):
        a(f"\tld.shared.u64 %rd14, [%r32+{8 * k}];\n\tst.global.u64 [%rd15+{8 * k}], %rd14;")
    a("$CPOUTD:")
    a("\tand.b32 %r37, %r22, 4;\n\tsetp.eq.u32 %p14, %r37, 0;\n\t@%p14 bra $FENCED;")
    a("\tfence.proxy.tensormap::generic.release.gpu;")
    a("\tfence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;")
    a("$FENCED:")
    # ---- the load
    a("\tmbarrier.arrive.expect_tx.shared::cta.b64 _, [%r11], %r7;")
    a("\tand.b32 %r37, %r22, 16;\n\tsetp.ne.u32 %p21, %r37, 0;\n\t@%p21 bra $LDMX;")
    load("M", "%r21", "%r11")
    a("$REPD:")
    a("\tmov.u32 %r16, 0;\n\tmov.u32 %r17, 0;")
    a("$WAIT:\n\tmbarrier.try_wait.parity.shared::cta.b64 %p15, [%r11], 0;\n\t@%p15 bra $WAITED;")
    a(f"\tadd.u32 %r16, %r16, 1;\n\tsetp.lt.u32 %p16, %r16, {TRIES};\n\t@%p16 bra $WAIT;\n\tbra $WDONE;")
    a("$WAITED:\n\tmov.u32 %r17, 1;\n$WDONE:\n\tbar.sync 0;")
    a("\tmov.u32 %r18, 0;\n\tmov.u32 %r20, 0;\n\t@%p2 bra $COUNTED;")
    a("\tsetp.ne.u32 %p17, %r17, 0;\n\t@%p17 bra $SETTLE;")
    a("$DEF:\n\tmbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r11], 1;\n\tadd.u32 %r18, %r18, 1;")
    a("\tmbarrier.test_wait.parity.shared::cta.b64 %p18, [%r11], 0;\n\t@%p18 bra $OVER;")
    a("\tsetp.lt.u32 %p19, %r18, 262144;\n\t@%p19 bra $DEF;\n\tbra $COUNTED;")
    a("$SETTLE:\n\tnanosleep.u32 2000;")
    a("$OVER:\n\tmbarrier.arrive.shared::cta.b64 %rd5, [%r11];\n\tnanosleep.u32 500;")
    a("\tmbarrier.test_wait.parity.shared::cta.b64 %p20, [%r11], 1;\n\tselp.u32 %r20, 0, 1, %p20;")
    a("$COUNTED:\n\tbar.sync 0;")
    a("\tmov.u32 %r12, %r10;\n$CPY:\n\tsetp.ge.u32 %p1, %r12, %r8;\n\t@%p1 bra $CPYD;")
    a("\tshl.b32 %r14, %r12, 2;\n\tadd.u32 %r19, %r14, %r9;\n\tld.shared.u32 %r13, [%r19];")
    a(f"\tcvt.u64.u32 %rd3, %r14;\n\tadd.u64 %rd4, %rd2, %rd3;\n\tst.global.u32 [%rd4+{HDR}], %r13;")
    a(f"\tadd.u32 %r12, %r12, {NT};\n\tbra $CPY;\n$CPYD:")
    a("\t@%p2 bra $END;")
    a("\tst.global.v4.u32 [%rd2], {%r17, %r15, %r18, %r20};")
    a("\tmov.u32 %r40, 0;\n\tst.global.v4.u32 [%rd2+16], {%r36, %r40, %r40, %r40};")
    a("$END:\n\tret;\n}\n")
    return "\n".join(L)


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
        L.cuMemcpyHtoD_v2.argtypes = [ctypes.c_uint64, ctypes.c_void_p, ctypes.c_size_t]
        L.cuMemcpyDtoH_v2.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_size_t]
        L.cuMemAlloc_v2.argtypes = [ctypes.POINTER(ctypes.c_uint64), ctypes.c_size_t]
        L.cuModuleUnload.argtypes = [ctypes.c_void_p]
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
        self.name, self.driver = name.value.decode(), ver.value
        self._mapbuf = ctypes.create_string_buffer(128 + 64)
        self.map_addr = (ctypes.addressof(self._mapbuf) + 63) & ~63
        self.fn = None

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

    def try_module(self, text):
        """JIT `text`: (return code, error log); the module is unloaded."""
        mod = ctypes.c_void_p()
        logsz = 1 << 14
        log = ctypes.create_string_buffer(logsz)
        opts = (ctypes.c_int * 2)(5, 6)  # CU_JIT_ERROR_LOG_BUFFER, _SIZE_BYTES
        vals = (ctypes.c_void_p * 2)(ctypes.cast(log, ctypes.c_void_p), ctypes.c_void_p(logsz))
        r = self.lib.cuModuleLoadDataEx(ctypes.byref(mod), ctypes.c_char_p(text.encode() + b"\0"), 2, opts, vals)
        if r == 0:
            self.lib.cuModuleUnload(mod)
        return r, log.value.decode(errors="replace")

    def module(self, text):
        mod = ctypes.c_void_p()
        logsz = 1 << 16
        log = ctypes.create_string_buffer(logsz)
        opts = (ctypes.c_int * 2)(5, 6)
        vals = (ctypes.c_void_p * 2)(ctypes.cast(log, ctypes.c_void_p), ctypes.c_void_p(logsz))
        r = self.lib.cuModuleLoadDataEx(ctypes.byref(mod), ctypes.c_char_p(text.encode() + b"\0"), 2, opts, vals)
        if r != 0:
            raise RuntimeError(f"cuModuleLoadDataEx: {self.err(r)}: {log.value.decode(errors='replace')[:3000]}")
        f = ctypes.c_void_p()
        self.ok(self.lib.cuModuleGetFunction(ctypes.byref(f), mod, b"rp"), "cuModuleGetFunction")
        self.mod, self.fn = mod, f

    def encode(self, c, gaddr):
        r = c["r"]
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

    def map_bytes(self):
        return ctypes.string_at(self.map_addr, 128)

    def launch(self, params, smem):
        ptrs = [ctypes.cast(ctypes.pointer(p), ctypes.c_void_p) for p in params]
        arr = (ctypes.c_void_p * len(ptrs))(*[p.value for p in ptrs])
        return self.lib.cuLaunchKernel(self.fn, 1, 1, 1, NT, 1, 1, smem, None,
                                       ctypes.cast(arr, ctypes.c_void_p), None)


class FakeCuda:
    """For testing this script without a GPU: every module and map is
    accepted, a launch whose flags ask for a 16-byte aligned map faults."""

    name, driver = "fake", 0

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
        r, self.bad = (700 if self.bad else 0), False
        return r

    def try_module(self, text):
        for line in text.splitlines():
            if line.strip().startswith("tensormap.replace"):
                f = line.split(".")[3]
                imm = line.rstrip(";").split(",")[-1].strip()
                v = int(imm) if imm.isdigit() and f in FIELD3 else None
                if not spec_legal_sm90a(f, None, v):
                    return 218, "fake: not on sm_90a"
        return 0, ""

    def module(self, text):
        pass

    def encode(self, c, gaddr):
        return 0

    def map_bytes(self):
        return bytes(128)

    def launch(self, params, smem):
        if params[0].value % 64:
            self.bad = True
        return 0


# ------------------------------------------------------------- the model's box, in Python

def es_of(c):
    return ESIZE[c["t"]]


def counts(c):
    out = []
    for i in range(c["r"]):
        b, s = c["b"][i], max(1, c["e"][i])
        out.append(b if (i == 0 and c["il"] == 0) else -(-b // s))
    return out


def box_bytes(c):
    n = counts(c)
    row = -(-(n[0] * es_of(c)) // 16) * 16
    rows = 1
    for k in n[1:]:
        rows *= k
    return row * rows


def smem_extent(c):
    n = counts(c)
    row = -(-(n[0] * es_of(c)) // 16) * 16
    pitch = max(row, SW_BYTES[c["sw"]])
    rows = 1
    for k in n[1:]:
        rows *= k
    return pitch * rows


def rup(x, m):
    return -(-x // m) * m


def span(c, i):
    if i == 0 and c["il"] == 0:
        return c["b"][0]
    n = -(-c["b"][i] // max(1, c["e"][i]))
    return (n - 1) * c["e"][i] + 1


def reach(c):
    """One past the highest byte offset (from the buffer's start) an
    in-bounds element of the box reads, 0 when none is in bounds."""
    es = es_of(c)
    top = c["a"]
    for i in range(c["r"]):
        lo, n = c["c"][i], counts(c)[i]
        step = 1 if (i == 0 and c["il"] == 0) else c["e"][i]
        xs = [lo + j * step for j in range(n)] if n < 4096 else [lo + (n - 1) * step]
        ins = [x for x in xs if 0 <= x < c["d"][i]]
        if not ins:
            return 0
        top += max(ins) * (es if i == 0 else c["s"][i - 1])
    return top + es


def valid(c):
    """The driver's rules (the model's validate_on(90)) on a non-interleaved
    or interleaved tiled configuration, plus what the probe needs: the box
    fits the shared window, the reads fit the buffer, the box is 16-byte
    aligned."""
    r, es = c["r"], es_of(c)
    if not 1 <= r <= 5 or (c["il"] and r < 3):
        return False
    if c["a"] % 16 or (c["il"] == 2 and c["a"] % 32):
        return False
    if any(not 1 <= c["d"][i] <= 1 << 32 for i in range(r)):
        return False
    if any(c["s"][i] % 16 or c["s"][i] >= 1 << 40 or (c["il"] == 2 and c["s"][i] % 32) for i in range(r - 1)):
        return False
    if any(not 1 <= c["b"][i] <= 256 or not 1 <= c["e"][i] <= 8 for i in range(r)):
        return False
    if (c["b"][0] * es) % 16:
        return False
    if c["il"] == 0 and c["sw"] and c["b"][0] * es > SW_BYTES[c["sw"]]:
        return False
    if c["il"] == 2 and c["sw"] != 1:
        return False
    if c["f"] == 1 and c["t"] not in FLOAT:
        return False
    if smem_extent(c) > MAXBOX or (c["c"][0] * es) % 16:
        return False
    return reach(c) <= GSIZE - 64


def clone(c):
    return json.loads(json.dumps(c))


# ------------------------------------------------------------- replacement generators

def new_box0(rng, c, t=None, sw=None):
    es = ESIZE[c["t"] if t is None else t]
    sw = c["sw"] if sw is None else sw
    cap = min(256 * es, SW_BYTES[sw] if sw else rng.choice([64, 128, 256, 512, 1024]))
    return 16 * rng.randint(1, max(1, cap // 16)) // es


def align_c0(c):
    m = 16 // es_of(c)
    c["c"][0] = (c["c"][0] // m) * m


def g_address(rng, c):
    align = rng.choice([16, 16, 32, 64, 1024])
    c["a"] = align * rng.randrange(0, (GSIZE // 2) // align)
    return [("global_address", None, c["a"])]


def g_rank(rng, c):
    r = c["r"]
    how = rng.choice(["down", "up", "up", "same", "downup"])
    if how == "down" and r > 1:
        r2 = rng.randint(1, r - 1)
        c["r"] = r2
        for k in "dbec":
            c[k] = c[k][:r2]
        c["s"] = c["s"][:r2 - 1]
        return [("rank", None, r2 - 1)]
    if how == "downup" and r > 1:
        r2 = rng.randint(1, r - 1)
        return [("rank", None, r2 - 1), ("rank", None, r - 1)]
    if how.startswith("up") and r < 5:
        r2 = rng.randint(r + 1, 5)
        reps = [("rank", None, r2 - 1)]
        c["r"] = r2
        for i in range(r, r2):
            d = rng.randint(1, 6)
            b = rng.randint(1, 4)
            e = rng.choice([1, 1, 2])
            prev = c["d"][i - 1] * (es_of(c) if i == 1 else c["s"][i - 2])
            s = rup(prev, 16) + 16 * rng.choice([0, 0, 1])
            c["d"].append(d)
            c["b"].append(b)
            c["e"].append(e)
            c["s"].append(s)
            c["c"].append(rng.randint(-1, d))
            reps += [("global_dim", i, d), ("box_dim", i, b), ("element_stride", i, e), ("global_stride", i - 1, s)]
        return reps
    return [("rank", None, r - 1)]


def g_box(rng, c):
    i = rng.randrange(c["r"])
    if i == 0:
        v = new_box0(rng, c)
    else:
        v = rng.choice([1, 2, 3, rng.randint(1, 16), rng.randint(1, 256)])
    c["b"][i] = v
    return [("box_dim", i, v)]


def g_dim(rng, c):
    i = rng.randrange(c["r"])
    sp = span(c, i)
    v = rng.choice([1, rng.randint(1, sp + 8), max(1, c["c"][i] + rng.randint(0, sp)),
                    rng.randint(1, 2 * sp + 40), rng.randint(1, 1 << 20), 1 << 31, (1 << 31) - 1])
    v = max(1, min(v, 1 << 31))
    c["d"][i] = v
    return [("global_dim", i, v)]


def g_stride(rng, c):
    if c["r"] < 2:
        return None
    i = rng.randrange(c["r"] - 1)
    prev = c["d"][i] * (es_of(c) if i == 0 else c["s"][i - 1])
    v = rng.choice([16 * rng.randint(1, 8), rup(prev, 16), rup(prev, 16) + 16 * rng.randint(1, 9),
                    16 * rng.randint(1, 4096), 0])
    c["s"][i] = v
    return [("global_stride", i, v)]


def g_estride(rng, c):
    i = rng.randrange(c["r"])
    v = rng.randint(1, 8)
    c["e"][i] = v
    return [("element_stride", i, v)]


def g_elemtype(rng, c):
    t2 = rng.choice([t for t in range(13) if t != c["t"] and (c["f"] == 0 or t in FLOAT)])
    reps = [("elemtype", None, PTX_TYPE[t2])]
    c["t"] = t2
    es = ESIZE[t2]
    if (c["b"][0] * es) % 16 or c["b"][0] > 256 or (c["sw"] and c["b"][0] * es > SW_BYTES[c["sw"]]):
        c["b"][0] = new_box0(rng, c)
        reps.insert(rng.randrange(2), ("box_dim", 0, c["b"][0]))
    align_c0(c)
    return reps


def g_interleave(rng, c):
    if c["il"]:
        reps = [("interleave_layout", None, 0)]
        c["il"] = 0
        if c["sw"] and c["b"][0] * es_of(c) > SW_BYTES[c["sw"]]:
            reps.append(("swizzle_mode", None, 0))
            c["sw"] = 0
        return reps
    return [("interleave_layout", None, 0)]


def g_swizzle(rng, c):
    sw2 = rng.choice([s for s in range(4) if s != c["sw"]])
    reps = [("swizzle_mode", None, sw2)]
    c["sw"] = sw2
    if sw2 and c["b"][0] * es_of(c) > SW_BYTES[sw2]:
        c["b"][0] = new_box0(rng, c)
        reps.insert(rng.randrange(2), ("box_dim", 0, c["b"][0]))
    return reps


def g_fill(rng, c):
    if c["t"] not in FLOAT:
        return None
    f2 = rng.choice([0, 1, 1 - c["f"]])
    c["f"] = f2
    return [("fill_mode", None, f2)]


GENS = {"global_address": g_address, "rank": g_rank, "box_dim": g_box, "global_dim": g_dim,
        "global_stride": g_stride, "element_stride": g_estride, "elemtype": g_elemtype,
        "interleave_layout": g_interleave, "swizzle_mode": g_swizzle, "fill_mode": g_fill}
# configurations per class, at --scale 1
COUNTS = {"global_address": 120, "rank": 160, "box_dim": 150, "global_dim": 150, "global_stride": 130,
          "element_stride": 120, "elemtype": 150, "interleave_layout": 70, "swizzle_mode": 130,
          "fill_mode": 90, "multi": 160}


def spec_legal_sm90a(f, o, v):
    """What PTX 9.7.9.26 allows on sm_90a (for --dry and the fake device)."""
    if f == "swizzle_atomicity":
        return False
    top = {"elemtype": 12, "swizzle_mode": 3}.get(f, FIELD3.get(f, 99) - 1)
    return v is None or v <= top


def tf32_kept(c0, reps):
    """Whether a replacement moves the type away from .tf32 or .tf32.ftz
    (an H100 keeps the tf32 bit then: phase K)."""
    t = c0["t"]
    for f, _o, v in reps:
        if f == "elemtype":
            t2 = PTX_TYPE.index(v)
            if t in (11, 12) and t2 not in (11, 12):
                return True
            t = t2
    return False


def legal_op(legal, f, o, v):
    return legal.get(json.dumps([f, o, v]), False)


def space_of(legal, i):
    """The i-th state space, cycling through those whose form the JIT took."""
    sp = [s for s in SPACES if FORM_OF[s] in legal.get("forms", [0, 1, 2])]
    return sp[i % len(sp)]


def reps_legal(legal, reps):
    for f, o, v in reps:
        key = (f, o, v if f in FIELD3 else None)
        if not legal_op(legal, *key):
            return False
    return True


def base(rng, kind="L"):
    c = gen_config(rng, kind)
    for k in ("pos",):
        c.pop(k, None)
    return c


def gen_valid(rng, cls, legal, i):
    """A configuration of class `cls` whose replaced map is valid."""
    for _ in range(200):
        kind = "I" if (cls == "interleave_layout" and rng.random() < 0.7) else "L"
        c = base(rng, kind)
        if cls == "fill_mode" and c["t"] not in FLOAT:
            continue
        c0 = clone(c)
        if cls == "multi":
            reps = []
            for _ in range(rng.randint(2, 4)):
                g = GENS[rng.choice([k for k in GENS if k != "interleave_layout"])]
                more = g(rng, c)
                if more is None:
                    continue
                reps += more
            if not reps or len(reps) > 4:
                continue
        else:
            reps = GENS[cls](rng, c)
            if reps is None or len(reps) > 4:
                continue
        if not valid(c) or not reps_legal(legal, reps) or tf32_kept(c0, reps):
            continue
        return dict(cls=cls, base=c0, reps=reps, after=c, space=space_of(legal, i), fence=1, pre=0)
    raise RuntimeError(f"no valid configuration of class {cls}")


def gen_interleaved(rng, legal, i):
    """Into an interleaved layout: the map valid, the layout not modelled."""
    for _ in range(200):
        c = base(rng)
        if c["r"] < 3:
            continue
        c0 = clone(c)
        il = rng.choice([1, 1, 2])
        reps = [("interleave_layout", None, il)]
        c["il"] = il
        if il == 2:
            c["a"] = c["a"] // 32 * 32
            c["s"] = [rup(s, 32) for s in c["s"]]
            reps = [("global_address", None, c["a"])] + [("global_stride", k, s) for k, s in enumerate(c["s"])] + reps
            if c["sw"] != 1:
                reps.append(("swizzle_mode", None, 1))
                c["sw"] = 1
        if len(reps) > 4 or not valid(c) or not reps_legal(legal, reps):
            continue
        return dict(cls="interleave_layout into", base=c0, reps=reps, after=c, space=space_of(legal, i), fence=1,
                    pre=0,
                    observe=1)
    raise RuntimeError("no interleaved configuration")


def gen_unset_rank(rng, legal, i):
    """The rank raised, the new dimensions' fields left as the driver
    encoded them (observation)."""
    for _ in range(200):
        c = base(rng)
        if c["r"] == 5:
            continue
        c0 = clone(c)
        r2 = rng.randint(c["r"] + 1, 5)
        for _k in range(c["r"], r2):
            c["c"].append(rng.choice([0, 0, 1, -1]))
            c["d"].append(1)
            c["b"].append(1)
            c["e"].append(1)
            c["s"].append(0)
        c["r"] = r2
        return dict(cls="rank up, new dimensions not set", base=c0, reps=[("rank", None, r2 - 1)], after=c,
                    space=space_of(legal, i), fence=1, pre=0, observe=1)


def configs_R(args, legal):
    rng = random.Random(args.seed * 1000 + 1)
    out = []
    k = 0
    for cls, n in COUNTS.items():
        for _ in range(max(1, int(n * args.scale))):
            out.append(gen_valid(rng, cls, legal, k))
            k += 1
    for _ in range(max(1, int(30 * args.scale))):
        out.append(gen_interleaved(rng, legal, k))
        k += 1
    for _ in range(max(1, int(30 * args.scale))):
        out.append(gen_unset_rank(rng, legal, k))
        k += 1
    # a map at a 64-byte (not 128-byte) aligned address
    for _ in range(max(1, int(20 * args.scale))):
        x = gen_valid(rng, rng.choice(["box_dim", "global_dim", "global_address"]), legal, k)
        x["slot"] = 64
        x["cls"] = "map 64-byte aligned"
        out.append(x)
        k += 1
    return out


def configs_N(args, legal):
    """The fences left out (fence 0), with and without a load of the map
    before the replacement; controls with the fences and the early load."""
    rng = random.Random(args.seed * 1000 + 2)
    out = []
    k = 0
    for fence, pre, n in ((0, 0, 64), (0, 1, 64), (1, 1, 32)):
        for _ in range(max(1, int(n * args.scale))):
            x = gen_valid(rng, "global_address", legal, k)
            # the two maps load different bytes: some element in bounds, another address
            while reach(x["base"]) == 0 or x["base"]["a"] == x["after"]["a"]:
                x = gen_valid(rng, "global_address", legal, k)
            x.update(fence=fence, pre=pre, cls=f"fence {fence} pre {pre}")
            out.append(x)
            k += 1
    return out


def configs_U(args, legal):
    """Replacements the model refuses, at the replace or at the use."""
    rng = random.Random(args.seed * 1000 + 3)
    out = []

    def add(cls, c0, reps, after=None, dim=None):
        if not reps_legal(legal, reps):
            return
        x = dict(cls=cls, base=c0, reps=reps, after=after or clone(c0), space=space_of(legal, len(out)), fence=1,
                 pre=0)
        if dim is not None:
            x["dim"] = dim
        out.append(x)

    def b(r_min=1, r_max=5, kind="L", types=range(13), align=16):
        while True:
            c = base(rng, kind)
            if (r_min <= c["r"] <= r_max and c["t"] in types and c["a"] % align == 0
                    and all(x % align == 0 for x in c["s"])):
                return c

    reps_n = max(1, int(round(args.scale * 2)))
    for _ in range(reps_n):
        c = b()
        for v in (0, 257, 300, 512):
            add("box_dim out of range", c, [("box_dim", rng.randrange(c["r"]), v)])
        c = b()
        for v in (0, 9, 16):
            add("element_stride out of range", c, [("element_stride", rng.randrange(c["r"]), v)])
        c = b()
        add("global_dim 0", c, [("global_dim", rng.randrange(c["r"]), 0)])
        c = b(2)
        for v in (8, c["s"][0] + 8, 1 << 40, (1 << 40) + 16):
            add("global_stride out of range", c, [("global_stride", 0, v)])
        c = b()
        for d in (8, 4, 1):
            add("global_address misaligned", c, [("global_address", None, c["a"] + d)])
        c = b()
        for v in (5, 6, 7, 8, 255):
            add("rank out of range", c, [("rank", None, v)])
        # ord past the rank: alone, and (CUTLASS's order) before the rank is raised
        c = b(1, 4)
        r = c["r"]
        add("ord past the rank", c, [("box_dim", r, 2)])
        add("ord past the rank", c, [("global_dim", r, 3)])
        if r >= 1:
            d, bx = rng.randint(2, 5), rng.randint(1, 3)
            prev = c["d"][r - 1] * (es_of(c) if r == 1 else c["s"][r - 2])
            s = rup(prev, 16)
            add("ord past the rank, then the rank raised", c,
                [("global_dim", r, d), ("box_dim", r, bx), ("global_stride", r - 1, s), ("rank", None, r)],
                dim=r + 1)
        # cross-field rules, at the use
        c = b()
        if c["t"] not in (0,):
            t2 = 0  # u8: boxDim[0] bytes shrink
            if c["b"][0] * ESIZE[t2] % 16:
                add("elemtype leaves boxDim[0] bytes not a multiple of 16", c, [("elemtype", None, PTX_TYPE[t2])])
        c = b()
        if c["b"][0] * es_of(c) > 32:
            add("swizzle span narrower than the box", c, [("swizzle_mode", None, 1)])
        # a 4-byte float type becomes .u32: only the fill rule breaks
        c = b(types=(7, 10))
        add("OOB-NaN fill on an integer type", c, [("fill_mode", None, 1), ("elemtype", None, PTX_TYPE[2])])
        c = b(types=range(6))
        add("OOB-NaN fill on an integer type", c, [("fill_mode", None, 1)])
        c = b(1, 2)
        add("interleave on rank < 3", c, [("interleave_layout", None, 1)])
        c = b(3, 5, align=32)
        if c["sw"] != 1:
            add("32B interleave without 32B swizzle", c, [("interleave_layout", None, 2)])
        # the load's .dim not the map's rank
        c = b(2, 4)
        add("load .dim not the rank", c, [("rank", None, c["r"])], dim=c["r"])
        # a map 16-byte aligned only
        c = b()
        x = dict(cls="map 16-byte aligned", base=c, reps=[("box_dim", 0, c["b"][0])], after=clone(c),
                 space=space_of(legal, 0), fence=1, pre=0, slot=16)
        out.append(x)
    # field3 values past Table 33, where the JIT accepted them
    for f, n in FIELD3.items():
        if legal_op(legal, f, None, n):
            add(f"{f} past Table 33", b(), [(f, None, n)])
    return out


def with_type(rng, c, t2):
    """`c` with element type t2 (driver code), the box's inner size mended:
    the replacements."""
    reps = [("elemtype", None, PTX_TYPE[t2])]
    c["t"] = t2
    es = ESIZE[t2]
    if (c["b"][0] * es) % 16 or (c["sw"] and c["b"][0] * es > SW_BYTES[c["sw"]]):
        c["b"][0] = new_box0(rng, c)
        reps.append(("box_dim", 0, c["b"][0]))
    align_c0(c)
    return reps


def configs_K(args, legal):
    """What an H100 does apart from the spec: the type replaced away from
    .tf32 / .tf32.ftz, and large global dimensions (by the replace and by
    the driver)."""
    rng = random.Random(args.seed * 1000 + 4)
    out = []

    def b(types, in_bounds=True):
        while True:
            c = base(rng)
            if c["t"] in types and c["f"] == 0 and (reach(c) > 0 or not in_bounds):
                return c

    def add(cls, c0, reps, c):
        if valid(c) and reps_legal(legal, reps) and len(reps) <= 4:
            out.append(dict(cls=cls, base=c0, reps=reps, after=c, space=space_of(legal, len(out)), fence=1, pre=0))
            return True
        return False

    for t0, targets in ((11, range(13)), (12, (7, 10, 11, 2, 6))):
        for t2 in targets:
            if t2 == t0:
                continue
            while True:
                c = b((t0,))
                c0 = clone(c)
                if add("elemtype from a driver-encoded .tf32", c0, with_type(rng, c, t2), c):
                    break
    # histories through the replace alone
    for path in ((7, 11, 7), (7, 11, 2), (11, 2, 11), (11, 7, 11), (2, 11, 2), (7, 12, 10)):
        while True:
            c = b((path[0],))
            c0 = clone(c)
            reps = []
            for t2 in path[1:]:
                reps += with_type(rng, c, t2)
            if add("elemtype history " + "-".join(str(PTX_TYPE[t]) for t in path), c0, reps, c):
                break
    # large global dimensions: by the replace, by the driver
    for v in ((1 << 31) + 1, 3 << 30, (1 << 32) - 16, (1 << 32) - 2, (1 << 32) - 1):
        for outer in (False, True):
            while True:
                c = b(range(13))
                if outer and c["r"] < 2:
                    continue
                i = rng.randrange(1, c["r"]) if outer else 0
                c0 = clone(c)
                c["d"][i] = v
                if add(f"global_dim {v:#x} by the replace", c0, [("global_dim", i, v)], c):
                    break
    for v in ((1 << 31) + 1, (1 << 32) - 1, 1 << 32):
        while True:
            c = b(range(13))
            c["d"][rng.randrange(c["r"])] = v
            if add(f"global_dim {v:#x} by the driver", clone(c), [], c):
                break
    return out


def configs_W(args, legal):
    """The configurations of phases U and K without the load: the map's
    bytes after the replacements."""
    out = []
    for ph in "UK":
        for i, x in enumerate(configs_for(ph, args, legal)):
            out.append(dict(x, noload=1, src=[ph, i]))
    return out


def configs_for(phase, args, legal):
    return {"R": configs_R, "N": configs_N, "U": configs_U, "K": configs_K, "W": configs_W}[phase](args, legal)


# ------------------------------------------------------------- running

def op_index(ops, f, o, v):
    key = (f, o, v if f in FIELD3 else None)
    return ops.index(key)


def emit(out, rec):
    out.write(json.dumps(rec, separators=(",", ":")) + "\n")


def phase_legality(cu, args, out):
    ops = candidate_ops()
    legal = {}
    t0 = time.time()
    n = 0
    for name, p, text in legality_probes(ops):
        rc, log = cu.try_module(text)
        emit(out, {"k": "P", "name": name, "params": p, "ptx": text, "rc": rc, "error": cu.err(rc) if rc else "",
                   "log": log.strip()[:400]})
        if name.startswith("op "):
            f, o, v = ops[n]
            legal[json.dumps([f, o, v])] = rc == 0
            n += 1
    accepted = [op for op in ops if legal[json.dumps(list(op))]]
    forms = []
    for f in range(3):
        rc, log = cu.try_module(ptx_text(accepted, [f]))
        emit(out, {"k": "P", "name": f"probe kernel, form {FORMS[f] or 'generic'}", "params": {}, "ptx": "",
                   "rc": rc, "error": cu.err(rc) if rc else "", "log": log.strip()[:1500]})
        if rc == 0:
            forms.append(f)
    legal["forms"] = forms
    rc, log = cu.try_module(ptx_text(accepted, forms))
    emit(out, {"k": "P", "name": "probe kernel", "params": {}, "ptx": "", "rc": rc,
               "error": cu.err(rc) if rc else "", "log": log.strip()[:2000], "ops": len(accepted), "forms": forms})
    with open(os.path.join(args.work, "legal.json"), "w") as f:
        json.dump(legal, f)
    return {"probes": len(legality_probes(ops)), "accepted_ops": len(accepted), "seconds": round(time.time() - t0, 3),
            "kernel_rc": rc}


def load_legal(args):
    with open(os.path.join(args.work, "legal.json")) as f:
        legal = json.load(f)
    ops = [tuple(json.loads(k)) for k, ok in legal.items() if k != "forms" and ok]
    return legal, ops


def phase_run(cu, args, out, phase):
    legal, ops = load_legal(args)
    configs = configs_for(phase, args, legal)
    end = min(args.end if args.end is not None else len(configs), len(configs))
    cu.module(ptx_text(ops, legal["forms"]))
    g = pattern(args.seed, GSIZE)
    gbase = rup(cu.alloc(GSIZE + 4096), 1024)
    cu.htod(gbase, g)
    batch = args.batch
    outbuf = cu.alloc(batch * SLOT)
    host = np.zeros(batch * SLOT, dtype=np.uint8)
    mbase = rup(cu.alloc(len(configs) * MSLOT + 1024), 1024)
    mhost = np.zeros(batch * MSLOT, dtype=np.uint8)
    t0 = time.time()
    pos = args.start
    n = refused = 0
    while pos < end:
        pend = []
        stop = min(pos + batch, end)
        mhost[:] = 0
        recs = []
        for idx in range(pos, stop):
            x = clone(configs[idx])
            c0, after = x["base"], x["after"]
            rc = cu.encode(c0, gbase + c0["a"])
            if rc != 0:
                refused += 1
                emit(out, {"k": "V", "phase": phase, "i": idx, "base": c0, "rc": rc})
                continue
            k = idx - pos
            slot_off = k * MSLOT + x.get("slot", 0)
            m0 = cu.map_bytes()
            mhost[slot_off:slot_off + 128] = np.frombuffer(m0, dtype=np.uint8)
            recs.append((k, idx, x, m0, slot_off))
        cu.htod(mbase + pos * MSLOT, mhost[:(stop - pos) * MSLOT])
        for k, idx, x, m0, slot_off in recs:
            c0, after = x["base"], x["after"]
            refusing = phase == "U"
            dim = x.get("dim", after["r"])
            coords = (after["c"] + [0] * 5)[:5] if not refusing else (c0["c"] + [0] * 5)[:5]
            if refusing:
                dim = x.get("dim", c0["r"])
                # coordinates for the rank the load names
                coords = (c0["c"] + [0] * 5)[:5]
            if x.get("noload"):
                xb, ext = 0, 0
            elif refusing or x.get("observe"):
                xb, ext = UTX, UEXT
            else:
                xb, ext = box_bytes(after), smem_extent(after)
            if x["pre"]:
                ext = max(ext, smem_extent(c0))
            nbytes = rup(c0["o"] + ext + SLACK, 16)
            ops_i, vals = [], []
            for f, o, v in x["reps"]:
                ops_i.append(op_index(ops, f, o, v))
                vals.append(v + gbase if f == "global_address" else v)
            while len(ops_i) < 4:
                ops_i.append(0)
                vals.append(0)
            flags = (SPACES.index(x["space"]) | (4 if x["fence"] else 0) | (8 if x["pre"] else 0)
                     | (16 if x.get("noload") else 0))
            params = [ctypes.c_uint64(mbase + pos * MSLOT + slot_off), ctypes.c_uint64(outbuf + k * SLOT)]
            params += [ctypes.c_int32(v) for v in coords]
            params += [ctypes.c_uint32(c0["o"]), ctypes.c_uint32(xb), ctypes.c_uint32(nbytes // 4),
                       ctypes.c_uint32(dim), ctypes.c_uint32(flags), ctypes.c_uint32(len(x["reps"]))]
            params += [ctypes.c_uint32(v) for v in ops_i]
            params += [ctypes.c_uint64(v & ((1 << 64) - 1)) for v in vals]
            params += [ctypes.c_uint32(c0["r"]), ctypes.c_uint32(box_bytes(c0))]
            rec = {"k": "R", "phase": phase, "i": idx, "cls": x["cls"], "base": c0,
                   "reps": [[f, 0 if o is None else o, v] for f, o, v in x["reps"]],
                   "space": x["space"], "fence": x["fence"], "pre": x["pre"], "c": coords[:dim],
                   "dim": dim, "o": c0["o"], "x": xb, "n": nbytes, "slot": x.get("slot", 0),
                   "observe": x.get("observe", 0)}
            if phase not in "UW":
                rec["after"] = {k: after[k] for k in ("t", "r", "d", "s", "b", "e", "il", "sw", "f", "a")}
            if x.get("src"):
                rec["src"] = x["src"]
            # the driver's encoding of the replaced fields, beside the replace's
            if (phase == "R" and idx % args.maps == 0) or phase == "K" or (phase == "W" and x["src"][0] == "K"):
                if cu.encode(after, gbase + after["a"]) == 0:
                    rec["md"] = cu.map_bytes().hex()
            if x["pre"]:
                rec["px"] = box_bytes(c0)
            r = cu.launch(params, 1024 + nbytes)
            pend.append((k, idx, rec, m0, slot_off))
            if r != 0:
                break
        r = cu.sync()
        if r != 0:
            emit(out, {"k": "E", "phase": phase, "error": cu.err(r), "first": pos, "end": stop})
            if stop - pos == 1 and pend:
                rec = pend[0][2]
                rec.update({"k": "F", "error": cu.err(r), "m0": pend[0][3].hex()})
                emit(out, rec)
            out.flush()
            sys.exit(3)
        cu.dtoh(host, outbuf)
        mafter = np.zeros((stop - pos) * MSLOT, dtype=np.uint8)
        cu.dtoh(mafter, mbase + pos * MSLOT)
        for k, idx, rec, m0, slot_off in pend:
            slot = host[k * SLOT:(k + 1) * SLOT]
            hdr = slot[:HDR].view("<u4")
            region = slot[HDR:HDR + rec["n"]]
            rec["st"], rec["sa"], rec["df"], rec["ov"], rec["pst"] = (int(hdr[0]), int(hdr[1]), int(hdr[2]),
                                                                      int(hdr[3]), int(hdr[4]))
            rec["h"] = f"{digest(region):016x}"
            keep = phase != "R" or idx % args.sample == 0 or rec["st"] != 1 or rec["df"] or rec["ov"]
            if keep:
                seg = region[rec["o"]:]
                if phase != "R" or rec["observe"]:
                    seg = seg[:2048]
                rec["B"] = base64.b64encode(seg.tobytes()).decode()
            # 32-bit words of the window the copy changed (no longer the poison)
            rec["chg"] = int(np.count_nonzero(region.view("<u4") != poison(rec["n"] // 4)))
            if phase != "R" or idx % args.maps == 0:
                rec["m0"] = m0.hex()
                rec["m1"] = mafter[slot_off:slot_off + 128].tobytes().hex()
            emit(out, rec)
            n += 1
        pos = stop
    return {"configs": n, "refused": refused, "seconds": round(time.time() - t0, 3)}


def run_phase(args):
    cu = FakeCuda() if os.environ.get("TENSORMAP_REPLACE_FAKE") else Cuda()
    path = os.path.join(args.work, f"part-{args.phase}.jsonl")
    with open(path, "a") as out:
        if args.phase == "P":
            info = phase_legality(cu, args, out)
        else:
            info = phase_run(cu, args, out, args.phase)
        info.update({"device": cu.name, "driver": cu.driver, "start": args.start, "batch": args.batch})
        emit(out, {"k": "X", "phase": args.phase, **info})
    print(json.dumps({"phase": args.phase, **info}), flush=True)


def child(args, ph, start, batch):
    cmd = [sys.executable, __file__, "--phase", ph, "--start", str(start), "--batch", str(batch),
           "--out", args.out, "--work", args.work, "--seed", str(args.seed), "--scale", str(args.scale),
           "--sample", str(args.sample), "--maps", str(args.maps)]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=args.phase_timeout)
    except subprocess.TimeoutExpired:
        return "timeout", ""
    return r.returncode, r.stdout + r.stderr[-3000:]


def last_error(args, ph):
    err = None
    for line in open(os.path.join(args.work, f"part-{ph}.jsonl")):
        if line.startswith('{"k":"E"'):
            err = json.loads(line)
    return err


def run_isolating(args, ph, total):
    """Runs phase `ph`; after a failed batch the phase goes on one
    configuration a launch from the batch's first, each fault recorded and
    skipped, in a new process each."""
    batch = 1 if ph in "UK" else args.batch
    pos, single_until, starts, log = 0, -1, 0, []
    t0 = time.time()
    while pos < total and starts < args.max_starts:
        starts += 1
        b = 1 if pos < single_until else batch
        rc, text = child(args, ph, pos, b)
        log.append(text.strip()[-600:])
        if rc == 0:
            pos = total
            continue
        err = last_error(args, ph) if rc == 3 else None
        if err is None:
            log.append(f"phase {ph}: child ended with {rc} at {pos}")
            break
        if err["end"] - err["first"] == 1:
            pos = err["first"] + 1
        else:
            pos, single_until = err["first"], err["end"]
    return {"phase": ph, "starts": starts, "seconds": round(time.time() - t0, 3), "reached": pos,
            "total": total}, log


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=".")
    ap.add_argument("--work", default="/tmp/tensormap-replace")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--scale", type=float, default=1.0, help="configurations per class, times the defaults")
    ap.add_argument("--sample", type=int, default=8, help="keep the bytes of every N-th valid run")
    ap.add_argument("--maps", type=int, default=8, help="keep the maps of every N-th valid run")
    ap.add_argument("--phases", default="PRNUKW")
    ap.add_argument("--phase-timeout", type=int, default=120)
    ap.add_argument("--max-starts", type=int, default=100, help="processes a phase may start (one per fault)")
    ap.add_argument("--phase", help=argparse.SUPPRESS)
    ap.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--end", type=int, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--batch", type=int, default=256, help=argparse.SUPPRESS)
    ap.add_argument("--ptx-only", help="write the probe kernel (every candidate op) to this file and stop")
    ap.add_argument("--dry", action="store_true", help="generate the configurations only (no GPU)")
    args = ap.parse_args()
    if args.ptx_only:
        with open(args.ptx_only, "w") as f:
            f.write(ptx_text(candidate_ops()))
            for name, _p, text in legality_probes(candidate_ops()):
                f.write(f"\n// ---- probe: {name}\n{text}")
        return
    if args.dry:
        legal = {json.dumps(list(op)): spec_legal_sm90a(*op) for op in candidate_ops()}
        for ph in "RNUKW":
            cs = configs_for(ph, args, legal)
            by = {}
            for x in cs:
                by[x["cls"]] = by.get(x["cls"], 0) + 1
            print(ph, len(cs), json.dumps(by))
        return
    if args.phase:
        run_phase(args)
        return
    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.work, exist_ok=True)
    for ph in "PRNUKW":
        p = os.path.join(args.work, f"part-{ph}.jsonl")
        if os.path.exists(p):
            os.remove(p)
    t0 = time.time()
    summary = {}
    for ph in args.phases:
        if ph == "P":
            rc, text = child(args, "P", 0, 1)
            info, log = {"phase": "P", "rc": rc}, [text.strip()[-1500:]]
        else:
            legal, _ops = load_legal(args)
            info, log = run_isolating(args, ph, len(configs_for(ph, args, legal)))
        summary[ph] = info
        print(json.dumps(info), flush=True)
        for line in log[-3:]:
            print("  " + line.replace("\n", "\n  "), flush=True)
    path = os.path.join(args.out, "replace-probe.jsonl.gz")
    procs, lines = [], []
    for ph in args.phases:
        p = os.path.join(args.work, f"part-{ph}.jsonl")
        if not os.path.exists(p):
            continue
        for line in open(p):
            (procs if line.startswith('{"k":"X"') else lines).append(line)
    sel = pattern(1, 1024).view(np.uint8)
    hdr = {"k": "H", "seed": args.seed, "scale": args.scale, "gsize": GSIZE, "slack": SLACK, "tries": TRIES,
           "threads": NT, "hdr": HDR, "utx": UTX, "uext": UEXT,
           "selftest": {"seed": 1, "n": 1024, "digest": f"{digest(sel):016x}"},
           "phases": summary, "processes": [json.loads(p) for p in procs],
           "wall_seconds": round(time.time() - t0, 3)}
    with gzip.open(path, "wt", compresslevel=9) as out:
        out.write(json.dumps(hdr, separators=(",", ":")) + "\n")
        out.writelines(lines)
    print(json.dumps({k: v for k, v in hdr.items() if k != "processes"}))


if __name__ == "__main__":
    main()
