#!/usr/bin/env python3
"""Writes corpus/simulator/nvcc-cases.json: one case for every sm_90 entry
kernel of the nvcc corpus (corpus/nvcc/ptx/*.sm_90.ptx), with arguments
chosen from the kernel's CUDA source (corpus/nvcc/src) so that every access
stays inside its buffer, and the kernels the harness cannot launch listed
with the reason.

    tools/sim/gen_nvcc_cases.py        # from the repository root

The format is corpus/simulator/cases.json's, plus:
  "cluster": [x, y, z]   launch with these cluster dimensions
                         (cuLaunchKernelEx); absent: none asked for (a
                         kernel's own .reqnctapercluster still applies)
  "shared": N            bytes of dynamic shared memory
  "memory": [buffer...]  global buffers that are no kernel argument (the
                         kernel reaches them through pointers inside a
                         structure parameter); inputs only, never compared
  {"param": N, "bytes": HEX, "ptrs": [[OFFSET, MEM, ADD], ...]}
                         a parameter of N bytes given as bytes, with the
                         address of memory buffer MEM plus ADD written at
                         OFFSET (8 bytes, little-endian)
  {"tmap": FIELDS, "mem": K | "buf": K, "offset": B}
                         a CUtensorMap (see tmap() below) over memory
                         buffer K or argument buffer K, from byte B
  "compare": {"args": [...], "elem": [...]}
                         the element size per compared argument
and "left_out": [{"ptx", "kernel", "reason"}] for the kernels not run.
Case names are "<source number>_<kernel name without mangling>".
"""
import json
import os
import random
import re
import struct
import sys

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PTX_DIR = os.path.join(REPO, "corpus", "nvcc", "ptx")
OUT = os.path.normpath(os.path.join(REPO, "corpus", "simulator", "nvcc-cases.json"))

# ---------------------------------------------------------------------------
# input values


def rng_for(key):
    return random.Random(key)


F32_EDGES = [
    0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999997, 127.5, -128.5, 255.5,
    256.0, 32767.5, -32768.5, 65504.0, 65519.99, 65520.0, -65536.0, 448.0, 464.0, 57344.0,
    61440.0, 2.0 ** 31, -(2.0 ** 31), 2.0 ** 32, 2.0 ** 63, -(2.0 ** 63), 2.0 ** 64, 1e10, -1e10,
    3.4028235e38, -3.4028235e38, 1.1754944e-38, 1e-40, -1e-40, 1.4e-45, 6e-8, 2.9802322e-8,
    0.1, -0.1, 3.0, 1e-5, 4194304.5, 8388607.5, 16777217.0,
]
F32_SPECIAL = [0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001, 0x7FFFFFFF]


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def f32_values(n, key, specials=True):
    """Edge cases first (ties, bounds of every integer and narrow float
    format, subnormals; infinities and NaNs when `specials`), then random
    values of every magnitude and both signs."""
    r = rng_for(key)
    vals = [f32_bits(x) for x in F32_EDGES]
    if specials:
        vals += F32_SPECIAL
    while len(vals) < n:
        k = r.random()
        if k < 0.6:
            x = r.uniform(-1, 1) * 2.0 ** r.randint(-20, 20)
        elif k < 0.8:
            x = r.uniform(-1, 1) * 2.0 ** r.randint(-126, 127)
        elif k < 0.9:
            x = float(r.randint(-300, 300)) + r.choice([0.0, 0.5, 0.25, 0.75])
        else:
            bits = r.getrandbits(32)
            if specials or (bits >> 23) & 0xFF != 0xFF:
                vals.append(bits)
            continue
        vals.append(f32_bits(x))
    return vals[:n]


F64_EDGES = [
    0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 127.5, -128.5, 255.5, 65535.5, 65504.0,
    65520.0, 2.0 ** 31, -(2.0 ** 31) - 0.5, 2.0 ** 32, 2.0 ** 53 + 1, 2.0 ** 63, 2.0 ** 64,
    -(2.0 ** 63), 3.4028235677973366e38, 3.4028235677973366e38 * 1.0000001, 1e300, -1e300,
    1.1754943508222875e-38, 1.401298464324817e-45, 7e-46, 2.2250738585072014e-308, 5e-324,
    0.1, 1.0000000596046448, 1.0000000894069672, 16777217.0,
]
F64_SPECIAL = [0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0x7FF0000000000001]


def f64_values(n, key, specials=True):
    r = rng_for(key)
    vals = [f64_bits(x) for x in F64_EDGES]
    if specials:
        vals += F64_SPECIAL
    while len(vals) < n:
        k = r.random()
        if k < 0.6:
            x = r.uniform(-1, 1) * 2.0 ** r.randint(-30, 40)
        elif k < 0.85:
            x = r.uniform(-1, 1) * 2.0 ** r.randint(-1022, 1023)
        elif k < 0.95:
            x = float(r.randint(-70000, 70000)) + r.choice([0.0, 0.5, 0.25])
        else:
            bits = r.getrandbits(64)
            if specials or (bits >> 52) & 0x7FF != 0x7FF:
                vals.append(bits)
            continue
        vals.append(f64_bits(x))
    return vals[:n]


INT_EDGES = [0, 1, -1, 2, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769, 65535,
             65536, 2 ** 31 - 1, -(2 ** 31), 2 ** 24 + 1, -(2 ** 24) - 1, 1000, -1000, 7, 8, 15, 16]


def int_values(n, key, bits=32, lo=None, hi=None):
    """Signed integers: the boundaries of every narrower width, then random
    (in [lo, hi] when given)."""
    r = rng_for(key)
    if lo is not None:
        return [r.randint(lo, hi) & ((1 << bits) - 1) for _ in range(n)]
    vals = list(INT_EDGES)
    if bits == 64:
        vals += [2 ** 32, -(2 ** 32), 2 ** 63 - 1, -(2 ** 63), 2 ** 53 + 1, 2 ** 40 + 12345]
    while len(vals) < n:
        w = r.choice([8, 16, 24, 32] + ([48, 64] if bits == 64 else []))
        vals.append(r.getrandbits(w) - (1 << (w - 1)))
    return [v & ((1 << bits) - 1) for v in vals[:n]]


def f16_bits(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]


def half_values(n, key, specials=True):
    """binary16 bit patterns: edges, then random finite values (every bit
    pattern when `specials`)."""
    r = rng_for(key)
    vals = [0x0000, 0x8000, 0x3C00, 0xBC00, 0x3800, 0x3E00, 0x4100, 0x7BFF, 0xFBFF, 0x0001,
            0x03FF, 0x0400, 0x5BF8, 0x5C00, 0xD800]
    if specials:
        vals += [0x7C00, 0xFC00, 0x7E00, 0x7C01]
    while len(vals) < n:
        b = r.getrandbits(16)
        if specials or (b >> 10) & 0x1F != 0x1F:
            vals.append(b)
    return vals[:n]


def bf16_values(n, key, specials=True):
    r = rng_for(key)
    vals = [0x0000, 0x8000, 0x3F80, 0xBF80, 0x3F00, 0x3FC0, 0x4020, 0x7F7F, 0xFF7F, 0x0001,
            0x007F, 0x0080, 0x4F00, 0xCF00, 0x4380]
    if specials:
        vals += [0x7F80, 0xFF80, 0x7FC0, 0x7F81]
    while len(vals) < n:
        b = r.getrandbits(16)
        if specials or (b >> 7) & 0xFF != 0xFF:
            vals.append(b)
    return vals[:n]


def pack_u16(vals):
    """16-bit values as the u32 words of a buffer (little-endian)."""
    if len(vals) % 2:
        vals = vals + [0]
    return [vals[2 * k] | (vals[2 * k + 1] << 16) for k in range(len(vals) // 2)]


def pack_bytes(b):
    b = bytes(b) + bytes((-len(b)) % 4)
    return list(struct.unpack("<%dI" % (len(b) // 4), b))


# ---------------------------------------------------------------------------
# argument specs


def rand(nbytes):
    return {"buffer": nbytes, "init": "random"}


def poison(nbytes):
    return {"buffer": nbytes, "init": "poison"}


def u32s(vals, nbytes=None):
    return {"buffer": nbytes or 4 * len(vals), "init": "u32", "values": [v & 0xFFFFFFFF for v in vals]}


def u64s(vals, nbytes=None):
    return {"buffer": nbytes or 8 * len(vals), "init": "u64", "values": [v & (2 ** 64 - 1) for v in vals]}


def f32s(n, key, specials=True):
    return u32s(f32_values(n, key, specials))


def f64s(n, key, specials=True):
    return u64s(f64_values(n, key, specials))


def i32s(n, key, **kw):
    return u32s(int_values(n, key, 32, **kw))


def i64s(n, key, **kw):
    return u64s(int_values(n, key, 64, **kw))


def halves(n, key, specials=True):
    return u32s(pack_u16(half_values(n, key, specials)))


def bf16s(n, key, specials=True):
    return u32s(pack_u16(bf16_values(n, key, specials)))


def u32(v):
    return {"u32": v & 0xFFFFFFFF}


def u64(v):
    return {"u64": v & (2 ** 64 - 1)}


def tmap(dims, box, mem=None, buf=None, offset=0, elem=4, dtype=7):
    """A CUtensorMap parameter: a tiled map (no interleave, swizzle or L2
    promotion, zero fill) of `dims` elements of `elem` bytes (driver data
    type `dtype`, 7: FLOAT32), packed, its box `box`, over memory buffer
    `mem` or argument buffer `buf` from byte `offset`. The GPU gets
    cuTensorMapEncodeTiled's bytes, the model its own encoding of the same
    fields."""
    strides, s = [], elem
    for d in dims[:-1]:
        s *= d
        strides.append(s)
    t = {"type": dtype, "rank": len(dims), "dims": dims, "strides": strides, "box": box,
         "estrides": [1] * len(dims), "interleave": 0, "swizzle": 0, "l2": 0, "fill": 0}
    spec = {"tmap": t, "offset": offset}
    if mem is not None:
        spec["mem"] = mem
    else:
        spec["buf"] = buf
    return spec


def param(b, ptrs=()):
    return {"param": len(b), "bytes": bytes(b).hex(), "ptrs": [list(p) for p in ptrs]}


class Out:
    """An output buffer (poison before the launch), compared in elements of
    `elem` bytes."""

    def __init__(self, nbytes, elem=4, spec=None):
        self.spec = spec or poison(nbytes)
        self.elem = elem


def io(spec, elem=4):
    """A buffer read and written by the kernel: its initial contents given,
    compared afterwards."""
    return Out(0, elem, spec)


# ---------------------------------------------------------------------------
# the cases, per source file

CASES = []
LEFT_OUT = []


def ptx_of(src):
    return f"../nvcc/ptx/{src}.sm_90.ptx"


def case(src, kernel, args, grid=(1, 1, 1), block=(64, 1, 1), name=None, cluster=None, shared=0,
         memory=None, skip=(), note=None):
    """`skip`: compared arguments left out, with the reason (in `note`)."""
    specs, cmp_args, elems = [], [], []
    for i, a in enumerate(args):
        if isinstance(a, Out):
            specs.append(a.spec)
            if i not in skip:
                cmp_args.append(i)
                elems.append(a.elem)
        else:
            specs.append(a)
    short = name or demangle(kernel)
    c = {
        "name": f"{src[:2]}_{short}",
        "family": f"nvcc/{src}",
        "ptx": ptx_of(src),
        "kernel": kernel,
        "grid": list(grid),
        "block": list(block),
        "args": specs,
        "compare": {"args": cmp_args, "elem": elems},
    }
    if cluster:
        c["cluster"] = list(cluster)
    if shared:
        c["shared"] = shared
    if memory:
        c["memory"] = memory
    if note:
        c["note"] = note
    CASES.append(c)


def leave_out(src, kernel, reason):
    LEFT_OUT.append({"ptx": ptx_of(src), "kernel": kernel, "reason": reason})


def demangle(k):
    m = re.match(r"_Z(\d+)(\w+)", k)
    if m:
        return m.group(2)[: int(m.group(1))]
    m = re.match(r"_ZN2ns12templ_kernelI(\w)Li(\d)E", k)
    if m:
        return f"templ_kernel_{m.group(1)}{m.group(2)}"
    return k


def entries():
    """Every sm_90 entry kernel: (source, kernel)."""
    out = []
    for f in sorted(os.listdir(PTX_DIR)):
        if not f.endswith(".sm_90.ptx"):
            continue
        src = f[: -len(".sm_90.ptx")]
        text = open(os.path.join(PTX_DIR, f)).read()
        for m in re.finditer(r"\.entry\s+([\w$]+)", text):
            out.append((src, m.group(1)))
    return out


def by_name(src, short):
    """The mangled name of kernel `short` in `src`."""
    for s, k in ENTRIES:
        if s == src and (k == short or demangle(k) == short):
            return k
    raise KeyError(f"{src}: no kernel {short}")


ENTRIES = entries()


def K(src, short, args, **kw):
    case(src, by_name(src, short), args, **kw)


def gen():
    T = 64
    # 01: integer conversions
    s = "01_cvt_int_int"
    K(s, "cvt_int_narrow", [i64s(128, "01a"), Out(128, 1), Out(128, 1), Out(256, 2), Out(256, 2),
                            Out(512, 4), Out(512, 4), u32(128)], grid=(2, 1, 1))
    K(s, "cvt_int_widen", [u32s(pack_bytes(int_values(128, "01b", 8)), 128),
                           u32s(pack_bytes(int_values(128, "01c", 8)), 128),
                           u32s(pack_u16(int_values(128, "01d", 16))),
                           u32s(pack_u16(int_values(128, "01e", 16))),
                           i32s(128, "01f"), i32s(128, "01g"), Out(1024, 8), Out(1024, 8), u32(128)],
      grid=(2, 1, 1))
    K(s, "cvt_int_noinline", [i32s(T, "01h"), Out(8 * T, 8)])
    K(s, "cvt_int_asm", [i32s(96, "01i"), Out(4 * T)])
    # 02: float to integer
    s = "02_cvt_float_int_round"
    K(s, "f2i_round", [f32s(128, "02a"), Out(2048), Out(2048), Out(4096, 8), Out(4096, 8), u32(128)],
      grid=(2, 1, 1))
    K(s, "f2i_casts", [f32s(T, "02b"), Out(T, 1), Out(T, 1), Out(2 * T, 2), Out(2 * T, 2)])
    K(s, "f_round_to_int_float", [f32s(T, "02c"), Out(20 * T)])
    K(s, "f_asm_cvt", [f32s(T, "02d"), Out(4 * T)])
    # 03: double
    s = "03_cvt_double"
    K(s, "d2x", [f64s(128, "03a"), Out(2048), Out(2048), Out(2048), Out(4096, 8), Out(4096, 8)],
      grid=(2, 1, 1))
    K(s, "x2d", [i32s(128, "03b"), i32s(128, "03c"), i64s(128, "03d"), i64s(128, "03e"),
                 f32s(128, "03f"), Out(1024, 8)], grid=(2, 1, 1))
    K(s, "d_casts", [f64s(T, "03g"), Out(T, 1), Out(2 * T, 2), Out(4 * T)])
    # 04: integer to float
    s = "04_cvt_int_to_float"
    K(s, "i2f_round", [i32s(128, "04a"), i32s(128, "04b"), i64s(128, "04c"), i64s(128, "04d"),
                       Out(512)], grid=(2, 1, 1))
    K(s, "narrow_i2f", [rand(T), rand(T), rand(2 * T), rand(2 * T), Out(4 * T)])
    K(s, "i2f_asm", [rand(2 * T), rand(T), Out(4 * T)])
    # 05: half
    s = "05_cvt_half"
    K(s, "f32_to_f16", [f32s(256, "05a"), Out(1024, 2), Out(1024, 2), u32(128)], grid=(2, 1, 1))
    K(s, "f16_to_f32", [halves(T, "05b"), halves(2 * T, "05c"), Out(4 * T), Out(8 * T)])
    K(s, "f16_int", [halves(T, "05d"), Out(4 * T), Out(2 * T, 2), Out(4 * T), Out(8 * T, 8),
                     Out(2 * T, 2), i32s(T, "05e"), i64s(T, "05f")])
    K(s, "f64_to_f16", [f64s(T, "05g"), Out(2 * T, 2)])
    K(s, "f16_asm", [f32s(96, "05h"), Out(4 * T)])
    # 06: bfloat16
    s = "06_cvt_bf16"
    K(s, "f32_to_bf16", [f32s(256, "06a"), Out(1024, 2), Out(1024, 2), u32(128)], grid=(2, 1, 1))
    K(s, "bf16_to_f32", [bf16s(T, "06b"), bf16s(2 * T, "06c"), Out(4 * T), Out(8 * T)])
    K(s, "bf16_int", [bf16s(T, "06d"), i32s(T, "06e"), Out(4 * T), Out(2 * T, 2)])
    K(s, "bf16_asm", [f32s(96, "06f"), Out(4 * T)])
    # 07: fp8
    s = "07_cvt_fp8"
    K(s, "to_fp8", [f32s(256, "07a"), halves(256, "07b"), bf16s(256, "07c"), Out(1536, 2),
                    Out(256, 1), u32(128)], grid=(2, 1, 1))
    K(s, "from_fp8", [rand(2 * T), rand(T), Out(8 * T, 2), Out(2 * T, 2)])
    K(s, "fp8_classes", [f32s(96, "07d"), Out(4 * T)])
    K(s, "fp8_asm", [f32s(96, "07e"), Out(4 * T)])
    # 08: tf32
    s = "08_cvt_tf32_asm"
    K(s, "tf32_rna", [f32s(128, "08a"), Out(512), u32(128)], grid=(2, 1, 1))
    K(s, "tf32_loop", [f32s(200, "08b"), Out(4 * T), u32(200)])
    # 09: cvt.pack
    s = "09_cvt_pack_asm"
    K(s, "pack16", [i32s(128, "09a"), i32s(128, "09b"), Out(1024), u32(128)], grid=(2, 1, 1))
    K(s, "pack8", [i32s(4 * T, "09c"), Out(4 * T)])
    K(s, "pack_subbyte", [i32s(T + 2, "09d", lo=-12, hi=12), Out(4 * T)])
    # 10: cvta, isspacep
    s = "10_cvta_isspacep"
    K(s, "cvta_all", [f32s(80, "10a"), Out(32 * T, 8), Out(4 * T), u32(1)])
    # the first (only) .shared variable of cvta_back is at shared address
    # 0x400 on sm_90 (corpus/simulator/README.md, window layout), c_table
    # at offset 0 of the module's constant bank
    K(s, "cvta_back", [u64(0x400), param(bytes(8), [(0, 0, 0)]), u64(0), Out(128)], block=(32, 1, 1),
      memory=[f32s(32, "10b")])
    K(s, "is_grid_constant", [param(struct.pack("<8if", 1, -2, 3, 40, 500, -6000, 70000, 2 ** 31 - 1, 0.5)),
                              Out(4 * T)])
    K(s, "cvta_asm", [f32s(4, "10c"), Out(8 * T, 8)])
    # 11: ld/st widths
    s = "11_ld_st_global_widths"
    mem = [rand(128), rand(128), rand(256), rand(256), i32s(128, "11a"), i32s(128, "11b"),
           i64s(128, "11c"), i64s(128, "11d"), f32s(128, "11e"), f64s(128, "11f")]
    K(s, "ld_scalars", [param(bytes(80), [(8 * k, k, 0) for k in range(10)]), Out(1024, 8), u32(128)],
      grid=(2, 1, 1), memory=mem)
    K(s, "ld_st_vectors", [f32s(2 * T, "11g"), f32s(4 * T, "11h"), rand(16 * T), f64s(2 * T, "11i"),
                           rand(4 * T), rand(4 * T), rand(16 * T), rand(8 * T), rand(2 * T),
                           Out(16 * T), Out(16 * T), Out(16 * T, 8), Out(4 * T, 1), Out(4 * T, 2),
                           Out(16 * T, 8), Out(8 * T), Out(8 * T), Out(2 * T, 1)])
    K(s, "st_scalars", [Out(T, 1), Out(T, 1), Out(2 * T, 2), Out(2 * T, 2), Out(4 * T), Out(8 * T, 8),
                        Out(4 * T), Out(8 * T, 8), u32(-123456789)])
    # p[t - 1] for t = 0: p points 64 bytes into its buffer
    K(s, "ld_offsets", [param(bytes(8), [(0, 0, 64)]), Out(2048)], memory=[i32s(16 + 8 * T, "11j")])
    # 12: volatile
    s = "12_ld_st_volatile"
    # one warp: each thread reads its neighbours' words and writes its own
    K(s, "volatile_global", [io(i32s(40, "12a")), io(f64s(40, "12b"), 8),
                             io(u32s(pack_bytes(int_values(40, "12c", 8)))), u32(4)],
      block=(32, 1, 1))
    K(s, "volatile_shared", [Out(4 * T)])
    leave_out(s, by_name(s, "spin_wait"),
              "spins until the module variable g_flag is nonzero, which only the host would set")
    K(s, "volatile_generic", [i32s(2, "12d"), Out(4 * T)])
    # 13: ld cache operators
    s = "13_ld_cache_ops"
    K(s, "ldg_all", [rand(T), rand(T), rand(2 * T), i32s(T, "13a"), i64s(T, "13b"), i64s(T, "13c"),
                     f32s(T, "13d"), f64s(T, "13e"), f32s(2 * T, "13f"), f32s(4 * T, "13g"),
                     i32s(4 * T, "13h"), f64s(2 * T, "13i"), i32s(2 * T, "13j"), rand(4 * T),
                     halves(T, "13k"), halves(2 * T, "13l"), bf16s(T, "13m"), Out(8 * T, 8)])
    K(s, "ld_cache_hints", [i32s(192, "13n"), f32s(4 * 192, "13o"), f64s(66, "13p"), i32s(4 * 65, "13q"),
                            i64s(65, "13r"), f32s(2 * T, "13s"), Out(4 * T)])
    K(s, "restrict_nc", [f32s(200, "13t"), f32s(800, "13u"), Out(4 * T), u32(200)])
    # 14: st cache operators; one warp (thread t + 32 would write i[t + 32] too)
    s = "14_st_cache_ops"
    K(s, "st_cache_hints", [Out(512), Out(256), Out(512, 8), Out(1024), Out(1024), Out(256, 8),
                            Out(256), Out(512, 8), Out(32, 1), Out(64, 2), u32(7)], block=(32, 1, 1))
    # 15: cuda::atomic_ref
    s = "15_atomic_ref_ld_st"
    K(s, "atomic_ref_global", [io(u32s([0])), io(i32s(T, "15a")), io(i64s(T, "15b"), 8), Out(4 * T)])
    K(s, "atomic_ref_shared", [Out(4 * T)])
    K(s, "atomic_ref_double", [Out(8 * T, 8), Out(8 * T, 8)])
    # 16: ld/st qualifiers; one warp (q + t + 32 is another thread's q + t)
    s = "16_ld_st_asm_qualifiers"
    K(s, "ld_sem_scope", [i32s(32, "16a"), Out(640), io(i64s(64, "16b"), 8)], block=(32, 1, 1))
    K(s, "ld_eviction", [f32s(512, "16c"), Out(2048)])
    K(s, "ld_wide_sm100", [f32s(T, "16d"), Out(4 * T)])
    K(s, "ld_unified_and_sink", [i32s(2, "16e"), Out(4 * T)])
    # 17: local memory
    s = "17_local_arrays"
    K(s, "local_array", [f32s(64 * 32, "17a"), rand(4 * 32), Out(128), u32(16)], block=(32, 1, 1))
    K(s, "local_types", [rand(4 * T), Out(8 * T, 8)])
    K(s, "local_vector", [rand(4 * T), Out(16 * T)])
    K(s, "local_asm", [Out(4 * T)])
    # 18: constant memory (the module's __constant__ data: zero but c_s)
    s = "18_constant_mem"
    K(s, "const_uniform", [Out(4 * T)])
    K(s, "const_indexed", [rand(4 * T), Out(8 * T, 8)])
    K(s, "const_asm", [Out(4 * T)])
    # 19: shared memory; 256 threads so that every element read was written
    s = "19_shared_static_dynamic"
    K(s, "shared_static", [f32s(256, "19a"), Out(1024)], block=(256, 1, 1))
    K(s, "shared_dynamic", [i32s(128, "19b", lo=-1000, hi=1000), Out(4 * T), u32(128)], shared=2048)
    K(s, "shared_double_buffer", [f32s(128, "19c"), Out(512), u32(5)], block=(128, 1, 1))
    K(s, "shared_asm", [Out(128)], block=(32, 1, 1))
    # 20: shfl
    s = "20_shfl"
    # __shfl_down_sync(0x0000ffff, ...) runs in all 32 lanes: undefined for
    # lanes 16-31 (PTX ISA 9.7.9.6); with 16 threads it is not
    K(s, "shfl_modes", [i32s(T, "20a"), Out(4 * T), u32(5)])
    K(s, "shfl_modes", [i32s(16, "20a"), Out(64), u32(5)], block=(16, 1, 1), name="shfl_modes_16")
    K(s, "shfl_types", [f64s(T, "20b"), i64s(T, "20c"), f32s(T, "20d"), i32s(T, "20e"),
                        halves(2 * T, "20f"), bf16s(2 * T, "20g"), Out(8 * T, 8)])
    # one atomicAdd per warp into 0.0: two warps in all, so the sum does not
    # depend on their order
    K(s, "shfl_reduce", [f32s(200, "20h", specials=False), io(u32s([0])), u32(200)], grid=(2, 1, 1),
      block=(32, 1, 1))
    K(s, "shfl_asm", [i32s(T, "20i"), Out(4 * T)])
    # 21: prmt
    s = "21_prmt"
    K(s, "byte_perm", [rand(4 * T), rand(4 * T), rand(4 * T), Out(4 * T)])
    K(s, "prmt_modes", [rand(4 * T), rand(4 * T), rand(4 * T), Out(4 * T)])
    K(s, "byte_ops", [rand(4 * T), rand(4 * T), Out(4 * T)])
    # 22: special registers
    s = "22_mov_special_regs"
    K(s, "sregs_builtin", [Out(1024)], grid=(2, 2, 1), block=(8, 2, 2))
    K(s, "sregs_asm", [Out(4 * T), Out(8 * T, 8)])
    K(s, "sregs_cluster", [Out(4 * T)], cluster=(1, 1, 1))
    K(s, "mov_pack", [i64s(T, "22a"), Out(8 * T, 8)])
    # 23: mov of addresses, function pointers
    s = "23_mov_addr_funcptr"
    K(s, "call_indirect", [f32s(T, "23a"), f32s(T, "23b"), Out(4 * T), u32(1)])
    leave_out(s, by_name(s, "addr_of_vars"),
              "stores the addresses of module variables and of a function (where the driver put "
              "them), every thread into the same six words")
    leave_out(s, by_name(s, "mov_asm"),
              "stores the sum of the addresses of two module variables (where the driver put them)")
    # 24: cp.async through cuda_pipeline.h
    s = "24_cp_async_pipeline"
    K(s, "pipeline_copy", [f32s(4 * 256, "24a"), f32s(2 * 256, "24b"), f32s(256, "24c"), Out(512),
                           u32(256)], block=(128, 1, 1))
    K(s, "pipeline_multistage", [rand(16 * 7 * 64), Out(4 * T), u32(4)])
    K(s, "pipeline_zfill", [f32s(4 * T, "24e"), Out(4 * T), u32(40)])
    # 25: cp.async
    s = "25_cp_async_asm"
    K(s, "cp_async_variants", [i32s(4 * T + 8, "25a"), Out(4 * T), u32(40)])
    K(s, "cp_async_mbarrier_arrive", [i32s(4 * 128, "25b"), Out(512)], block=(128, 1, 1))
    # 26: bulk copies
    s = "26_cp_async_bulk"
    K(s, "bulk_g2s", [f32s(2048, "26a"), Out(4 * T), u32(4096)])
    K(s, "bulk_s2g", [f32s(1024, "26b"), Out(4096), io(i32s(256, "26c")), u32(4096)])
    K(s, "bulk_s2s_cluster", [Out(1024)], block=(256, 1, 1))
    K(s, "bulk_cache_hint", [f32s(512, "26d"), u32(2048), Out(4 * T)])
    # 27: tensor maps
    s = "27_tma_tensor"
    # a 64 x 64 box at (16, 4) of a 72 x 72 tensor: the columns past 72 are
    # out of bounds (zero fill)
    K(s, "tma_load_2d", [tmap([72, 72], [64, 64], mem=0), Out(1024), u32(16), u32(4)], block=(256, 1, 1),
      memory=[rand(4 * 72 * 72)])
    K(s, "tma_load_1d_3d", [tmap([300], [256], mem=0), tmap([12, 10, 9], [8, 8, 8], mem=1), Out(2048),
                            u32(4), u32(2), u32(1)], block=(512, 1, 1),
      memory=[f32s(300, "27a", specials=False), f32s(1080, "27b", specials=False)])
    # __cluster_dims__(2, 1, 1): each CTA multicasts the same box to both
    K(s, "tma_multicast", [tmap([40, 40], [32, 32], mem=0), Out(512), u32(4), u32(8)], grid=(2, 1, 1),
      block=(128, 1, 1), memory=[rand(4 * 40 * 40)])
    # the tensor lies in `in` after the 64 x 64 floats the kernel reads:
    # the store writes rows 0-63, the reduction adds into rows 64-127
    K(s, "tma_store_reduce_prefetch", [tmap([64, 128], [64, 64], buf=1, offset=16384),
                                       io(rand(16384 + 32768)), u32(0), u32(0)], block=(128, 1, 1))
    # 28: clusters (__cluster_dims__ in the PTX)
    s = "28_cluster_mapa_getctarank"
    K(s, "cluster_dsmem", [i32s(512, "28a"), Out(2048)], grid=(4, 1, 1), block=(128, 1, 1))
    # thread t stores to s_u[t + 1] of the next CTA: s_u has 32 words, so
    # 32 threads would store past it (outside every object); 31 do not
    K(s, "cluster_asm", [Out(512)], grid=(4, 1, 1), block=(31, 1, 1))
    K(s, "cluster_special_regs", [Out(4 * T)])
    # 29: st.async, red.async (out64[0] is written by every thread)
    s = "29_st_async_red_async"
    K(s, "st_async_remote", [Out(512), Out(8, 8)], grid=(2, 1, 1), skip=(1,),
      note="out64[0] is written by every thread with its own value")
    # 30: multimem
    s = "30_multimem"
    leave_out(s, by_name(s, "multimem_ops"),
              "needs a multicast object (cuMulticastCreate), which must not be made on these machines "
              "(NVLink multicast is kept off)")
    # 31: prefetch, policies
    s = "31_prefetch_policy"
    K(s, "prefetch_all", [rand(4 * 8192), Out(4 * T)])
    K(s, "priority_discard", [io(f32s(2176, "31b"))])
    K(s, "policies", [f32s(132, "31c"), Out(384), u64(0)], block=(32, 1, 1))
    K(s, "access_property_api", [io(f32s(200, "31d")), u32(200)])
    # 32: sm_100 st.bulk, tensormap.replace (sm_90: the fallbacks)
    s = "32_sm100_st_bulk_tensormap"
    K(s, "st_bulk_zero", [Out(4 * T), u32(4096)])
    tm = bytes(rng_for("32a").getrandbits(8) for _ in range(128))
    K(s, "tensormap_edit", [param(tm), Out(256), u64(0x10000), u32(64), u64(256)])
    # 33: sm_100a conversions (sm_90: zeros, and the fallback)
    s = "33_cvt_narrow_fp_sm100"
    K(s, "cvt_fp4_fp6", [f32s(96, "33a"), Out(4 * T)])
    K(s, "cvt_rs", [f32s(160, "33b"), rand(4 * T), Out(4 * T)])
    K(s, "cvt_fallback", [f32s(T, "33c"), Out(4 * T)])
    # 34: parameters, structures, calls
    s = "34_params_structs_funcs"
    vec_a = struct.pack("<3f", 1.5, -2.25, 3.0)
    vec_b = struct.pack("<3f", 0.5, 4.0, -1.75)
    mixed = struct.pack("<bxhiqf4xd5B3x", -7, 300, -70000, 2 ** 40 + 3, 2.5, -0.125, 1, 2, 3, 4, 250)
    big = struct.pack("<16i4d", *[(k * 37 - 200) for k in range(16)], 0.5, -1.25, 3.0, 1e10)
    aligned = struct.pack("<4fi12x", 1.0, 2.0, 3.0, 4.0, 9)
    K(s, "by_value", [param(vec_a), param(vec_b), param(mixed), param(big), param(aligned),
                      Out(12 * T), Out(8 * T, 8), Out(4 * T), Out(16 * T)])
    K(s, "many_scalars", [param(struct.pack("<b", -5)), param(struct.pack("<B", 200)),
                          param(struct.pack("<h", -3000)), param(struct.pack("<H", 60000)),
                          param(struct.pack("<i", -123456)), param(struct.pack("<I", 3000000000)),
                          param(struct.pack("<q", -(2 ** 40))), param(struct.pack("<Q", 2 ** 63 + 5)),
                          param(struct.pack("<f", 0.1)), param(struct.pack("<d", -2.5)),
                          param(struct.pack("<B", 1)), i32s(T, "34a"), Out(8 * T, 8)])
    for mode in range(4):
        K(s, "loops_branches", [i32s(8 * T, f"34b{mode}", lo=-200, hi=1100), Out(512), u32(8), u32(mode)],
          grid=(2, 1, 1), name=f"loops_branches_mode{mode}")
    # 35: launch bounds, clusters, templates, extern "C"
    s = "35_launch_bounds_extern_c"
    K(s, "lb_256", [Out(1024)], block=(256, 1, 1))
    K(s, "lb_128_4", [f32s(256, "35a"), Out(1024)], grid=(2, 1, 1), block=(128, 1, 1))
    K(s, "lb_cluster_max", [Out(512)], block=(128, 1, 1))
    K(s, "clustered_2x2", [Out(256)], grid=(2, 2, 1), block=(32, 1, 1))
    K(s, "maxnreg_64", [f64s(T, "35b"), Out(8 * T, 8)])
    K(s, "uses_c_helper", [Out(4 * T)])
    K(s, "templ_kernel_f4", [f32s(4 * T, "35c"), Out(4 * T)])
    K(s, "templ_kernel_d2", [f64s(2 * T, "35d"), Out(8 * T, 8)])
    K(s, "templ_kernel_h8", [rand(8 * T), Out(T, 1)])
    K(s, "templ_kernel_x3", [i64s(3 * T, "35e"), Out(8 * T, 8)])
    # 36: mixed types
    s = "36_mixed_types"
    K(s, "mixed_loop", [rand(300), halves(600, "36a", specials=False), bf16s(600, "36b", specials=False),
                        i64s(300, "36c"), Out(1024, 8), Out(512, 2), Out(512, 2), u32(300)], grid=(2, 1, 1))
    K(s, "narrowing_chain", [f64s(T, "36d"), Out(T, 1), Out(2 * T, 2), Out(2 * T, 2), Out(8 * T, 8)])
    K(s, "half_to_double", [halves(T, "36e"), bf16s(T, "36f"), Out(8 * T, 8)])
    # 37: cuda::memcpy_async, cooperative groups
    s = "37_memcpy_async_barrier"
    K(s, "cuda_barrier_copy", [f32s(1024, "37a"), Out(4096), u32(1024)], block=(128, 1, 1))
    K(s, "cg_memcpy", [i32s(2048, "37b"), Out(512)], grid=(2, 1, 1))
    K(s, "cuda_memcpy_async_thread", [f64s(256, "37c"), Out(2048, 8)], block=(256, 1, 1))
    # 38: ldu
    s = "38_ldu_ldg_uniform"
    K(s, "ldu_asm", [f32s(8, "38a"), i32s(24, "38b"), f64s(1, "38c"), Out(4 * T)])
    K(s, "uniform_restrict", [f32s(3, "38d"), f32s(200, "38e"), Out(800), u32(200)])
    # 39: cuda::ptx wrappers
    s = "39_cuda_ptx_wrappers"
    K(s, "ptx_wrappers", [f32s(1024, "39a"), Out(4096), Out(4 * T)])
    # 40-43
    K("40_inline_vector_regs", "vector_regs", [rand(16 * T), Out(16 * T), Out(2 * T, 2)])
    K("40_inline_vector_regs", "vector_regs_64", [rand(16 * T), Out(8 * T, 8)])
    K("41_reg_plus_imm", "reg_plus_imm", [Out(8 * T, 8), Out(4 * T)], skip=(1,),
      note="out32 adds the address of the module variable gtable (where the driver put it)")
    K("42_calls_params", "calls", [Out(8 * T, 8), Out(4 * T), rand(4 * T)])
    K("43_vector_types", "vector_types", [f32s(4 * T, "43a"), i32s(4 * T, "43b"), i32s(2 * T, "43c"),
                                          f64s(2 * T, "43d"), rand(4 * T), Out(16 * T), Out(4 * T, 2),
                                          Out(4 * T, 2)])


def main():
    gen()
    covered = {(c["ptx"], c["kernel"]) for c in CASES} | {(l["ptx"], l["kernel"]) for l in LEFT_OUT}
    missing = [(s, k) for s, k in ENTRIES if (ptx_of(s), k) not in covered]
    if missing:
        sys.exit(f"kernels with no case and no reason: {missing}")
    names = [c["name"] for c in CASES]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        sys.exit(f"duplicate case names: {sorted(dup)}")
    with open(OUT, "w") as f:
        # one case a line: the file stays small and diffs stay readable
        f.write('{\n "cases": [\n')
        f.write(",\n".join("  " + json.dumps(c) for c in CASES))
        f.write('\n ],\n "left_out": [\n')
        f.write(",\n".join("  " + json.dumps(l) for l in LEFT_OUT))
        f.write("\n ]\n}\n")
    print(f"{len(ENTRIES)} entry kernels: {len(CASES)} cases, {len(LEFT_OUT)} left out -> {OUT}")


if __name__ == "__main__":
    main()
