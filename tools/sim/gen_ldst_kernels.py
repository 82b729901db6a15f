#!/usr/bin/env python3
"""Writes corpus/simulator/kernels/ldst.ptx and ldst_quals.ptx: ld, ldu,
ld.global.nc and st (PTX ISA 9.7.9.8 to 9.7.9.11) over every type and the
vector widths sm_90 runs (at most 128 bits a vector), and over their
qualifiers (memory order and scope, volatile, mmio, cache operators,
eviction priorities, prefetch sizes, cache hints). Also prints the case
names it expects in cases.json. Run from the repository root."""

TYPES = ["b8", "b16", "b32", "b64", "b128", "u8", "u16", "u32", "u64",
         "s8", "s16", "s32", "s64", "f32", "f64"]
HEAD = ".version 8.7\n.target sm_90\n.address_size 64\n"


def size(t):
    return int(t[1:]) // 8


def reg_type(t):
    """The register a value of type t is loaded into: 64 bits for integers
    and bit types (so extension is visible), the type itself otherwise."""
    if t in ("f32", "f64", "b128"):
        return t
    return t[0] + "64"


def vec_widths(t):
    if t == "b128":
        return [1]
    return [n for n in (1, 2, 4) if n * size(t) <= 16]


def prologue(w, name, comment):
    w(f"// {comment}")
    w(f".visible .entry {name}(\n\t.param .u64 psrc,\n\t.param .u64 pdst\n)\n{{")
    w("\t.reg .pred \t%p<4>;\n\t.reg .b32 \t%r<8>;\n\t.reg .b64 \t%rd<16>;")


def regs(w, rt, n):
    w(f"\t.reg .{rt} \t%v<{n}>;")


def thread_base(w, src_stride, dst_stride):
    w("\tld.param.u64 \t%rd1, [psrc];\n\tld.param.u64 \t%rd2, [pdst];")
    w("\tcvta.to.global.u64 \t%rd1, %rd1;\n\tcvta.to.global.u64 \t%rd2, %rd2;")
    w("\tmov.u32 \t%r1, %tid.x;")
    w(f"\tmul.wide.u32 \t%rd3, %r1, {src_stride};\n\tadd.s64 \t%rd4, %rd1, %rd3;")
    w(f"\tmul.wide.u32 \t%rd5, %r1, {dst_stride};\n\tadd.s64 \t%rd6, %rd2, %rd5;")


def vec(n):
    return "" if n == 1 else f".v{n}"


def operand(n):
    if n == 1:
        return "%v0"
    return "{" + ", ".join(f"%v{i}" for i in range(n)) + "}"


def matrix():
    out = [f"// ld, ldu, ld.global.nc and st over every type and vector width sm_90\n"
           f"// runs. Written by tools/sim/gen_ldst_kernels.py. One CTA of 64 threads.\n"
           f"// ld_T_vN: thread t loads N values of type T from src + t*N*size(T) into\n"
           f"// registers of 64 bits (integer and bit types: the extension shows) or of\n"
           f"// the type itself, and stores each register whole to dst + t*N*size(reg).\n"
           f"// st_T_vN: thread t loads N whole registers from src and stores them with\n"
           f"// st.global.vN.T (the low bits of each) to dst + t*N*size(T).\n"
           f"// ldu_/ldnc_T_vN: as ld_ with ldu.global and ld.global.nc.", HEAD]
    w = out.append
    names = []
    for t in TYPES:
        rt = reg_type(t)
        rs = size(rt)
        for n in vec_widths(t):
            for op, instr in (("ld", "ld.global"), ("ldu", "ldu.global"), ("ldnc", "ld.global.nc")):
                if op != "ld" and t not in ("u8", "s16", "b32", "f32", "b64", "f64", "b128", "s8", "u16"):
                    continue
                if op == "ldu" and n * size(t) > 16:
                    continue
                name = f"{op}_{t}_v{n}"
                names.append((name, n * size(t), n * rs))
                prologue(w, name, f"{instr}{vec(n)}.{t}")
                regs(w, rt, n)
                thread_base(w, n * size(t), n * rs)
                w(f"\t{instr}{vec(n)}.{t} \t{operand(n)}, [%rd4];")
                for i in range(n):
                    w(f"\tst.global.{'b' + str(rs * 8) if rt[0] in 'bus' else rt} \t[%rd6+{i * rs}], %v{i};")
                w("\tret;\n}\n")
            name = f"st_{t}_v{n}"
            names.append((name, n * rs, n * size(t)))
            prologue(w, name, f"st.global{vec(n)}.{t}")
            regs(w, rt, n)
            thread_base(w, n * rs, n * size(t))
            for i in range(n):
                w(f"\tld.global.{'b' + str(rs * 8) if rt[0] in 'bus' else rt} \t%v{i}, [%rd4+{i * rs}];")
            w(f"\tst.global{vec(n)}.{t} \t[%rd6], {operand(n)};")
            w("\tret;\n}\n")
    with open("corpus/simulator/kernels/ldst.ptx", "w") as f:
        f.write("\n".join(out))
    return names


LD_QUALS = [
    "ld.global", "ld", "ld.weak.global", "ld.volatile.global", "ld.volatile",
    "ld.relaxed.cta.global", "ld.relaxed.cluster.global", "ld.relaxed.gpu.global",
    "ld.relaxed.sys.global", "ld.relaxed.gpu",
    "ld.acquire.cta.global", "ld.acquire.cluster.global", "ld.acquire.gpu.global",
    "ld.acquire.sys.global", "ld.acquire.sys",
    "ld.mmio.relaxed.sys.global", "ld.mmio.relaxed.sys",
    "ld.global.ca", "ld.global.cg", "ld.global.cs", "ld.global.lu", "ld.global.cv", "ld.cg",
    "ld.global.L1::evict_normal", "ld.global.L1::evict_unchanged", "ld.global.L1::evict_first",
    "ld.global.L1::evict_last", "ld.global.L1::no_allocate", "ld.L1::evict_last",
    "ld.global.L2::64B", "ld.global.L2::128B", "ld.global.L2::256B", "ld.L2::128B",
    "ld.global.L2::cache_hint", "ld.L2::cache_hint", "ld.global.L1::evict_last.L2::cache_hint",
    "ld.global.L2::cache_hint.L2::256B", "ld.relaxed.gpu.global.L2::cache_hint",
    "ld.global.ca.L2::64B", "ld.weak.global.cg.L2::cache_hint",
    "ld.global.nc", "ld.global.ca.nc", "ld.global.cg.nc", "ld.global.cs.nc",
    "ld.global.nc.L1::evict_first", "ld.global.nc.L1::no_allocate", "ld.global.nc.L2::128B",
    "ld.global.nc.L2::cache_hint", "ld.global.nc.L1::evict_last.L2::cache_hint.L2::256B",
    "ldu.global", "ldu",
]
ST_QUALS = [
    "st.global", "st", "st.weak.global", "st.volatile.global", "st.volatile",
    "st.relaxed.cta.global", "st.relaxed.cluster.global", "st.relaxed.gpu.global",
    "st.relaxed.sys.global", "st.relaxed.sys",
    "st.release.cta.global", "st.release.cluster.global", "st.release.gpu.global",
    "st.release.sys.global", "st.release.gpu",
    "st.mmio.relaxed.sys.global", "st.mmio.relaxed.sys",
    "st.global.wb", "st.global.cg", "st.global.cs", "st.global.wt", "st.cs",
    "st.global.L1::evict_normal", "st.global.L1::evict_unchanged", "st.global.L1::evict_first",
    "st.global.L1::evict_last", "st.global.L1::no_allocate", "st.L1::no_allocate",
    "st.global.L2::cache_hint", "st.L2::cache_hint", "st.global.L1::evict_first.L2::cache_hint",
    "st.relaxed.gpu.global.L2::cache_hint", "st.global.cg.L2::cache_hint",
]


def quals():
    out = ["// ld, ld.global.nc, ldu and st (PTX ISA 9.7.9.8 to 9.7.9.11) with each\n"
           "// qualifier sm_90 runs; none changes the value moved. Written by\n"
           "// tools/sim/gen_ldst_kernels.py. One CTA of 64 threads.\n"
           "// ld_quals, ldnc_quals, ldu_quals: slot k of thread t is ld<k>.u32 of\n"
           "// src[64k + t] (the list in the code), stored to dst[64k + t].\n"
           "// st_quals: st<k>.u32 of src[64k + t] to dst[64k + t]. Cache hints use\n"
           "// a fractional evict_last policy.", HEAD]
    w = out.append
    groups = (
        ("ld_quals", [q for q in LD_QUALS if q.startswith("ld") and ".nc" not in q and not q.startswith("ldu")], True),
        ("ldnc_quals", [q for q in LD_QUALS if ".nc" in q], True),
        ("ldu_quals", [q for q in LD_QUALS if q.startswith("ldu")], True),
        ("st_quals", ST_QUALS, False),
    )
    sizes = {}
    for name, table, is_ld in groups:
        sizes[name] = len(table)
        w(f".visible .entry {name}(\n\t.param .u64 psrc,\n\t.param .u64 pdst\n)\n{{")
        w("\t.reg .b32 \t%r<8>;\n\t.reg .b64 \t%rd<16>;\n\t.reg .f32 \t%f1;")
        w("\tld.param.u64 \t%rd1, [psrc];\n\tld.param.u64 \t%rd2, [pdst];")
        w("\tmov.u32 \t%r1, %tid.x;\n\tmul.wide.u32 \t%rd3, %r1, 4;")
        w("\tadd.s64 \t%rd4, %rd1, %rd3;\n\tadd.s64 \t%rd5, %rd2, %rd3;")
        w("\tcvta.to.global.u64 \t%rd6, %rd4;\n\tcvta.to.global.u64 \t%rd7, %rd5;")
        w("\tmov.f32 \t%f1, 0f3F800000;")
        w("\tcreatepolicy.fractional.L2::evict_last.b64 \t%rd8, %f1;")
        for k, q in enumerate(table):
            generic = ".global" not in q
            src = "%rd4" if generic else "%rd6"
            dst = "%rd5" if generic else "%rd7"
            hint = ", %rd8" if "cache_hint" in q else ""
            off = 256 * k
            w(f"\t// {k}: {q}")
            if is_ld:
                w(f"\t{q}.u32 \t%r2, [{src}+{off}]{hint};")
                w(f"\tst.global.u32 \t[%rd7+{off}], %r2;")
            else:
                w(f"\tld.global.u32 \t%r2, [%rd6+{off}];")
                w(f"\t{q}.u32 \t[{dst}+{off}], %r2{hint};")
        w("\tret;\n}\n")
    with open("corpus/simulator/kernels/ldst_quals.ptx", "w") as f:
        f.write("\n".join(out))
    return sizes


if __name__ == "__main__":
    for name, src_bytes, dst_bytes in matrix():
        print(name, src_bytes, dst_bytes)
    print("quals", quals())
