#!/usr/bin/env python3
"""Writes corpus/simulator/cases.json (and regenerates the generated
kernels): the simulator's baseline cases, run on the GPU by
tools/device/sim_baseline.py and on the simulator by the CI test
conformance/tests/sim_baseline.rs. Run from the repository root.

A case: `name`, `family` (for the per-family counts), `ptx` (a file under
corpus/simulator, or `nvcc:cvta_funcs` for the PTX nvcc makes of
cuda/cvta_funcs.cu), `kernel`, `grid`, `block`, `args` and `compare` (the
output buffers, by argument index, and the element size in bytes that
comparisons count; no buffers for the cases that are only recorded). An
argument is a buffer (`buffer`: bytes, `init`: `random`, `poison`,
`u32`/`u64` with `values`, or `probes`) or a scalar (`u32`, `u64`). The
arithmetic cases come from tools/sim/gen_arith_kernels.py."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import gen_alu_kernel  # noqa: E402
import gen_arith_kernels  # noqa: E402
import gen_ldst_kernels  # noqa: E402


def buf(n, init="poison", values=None):
    d = {"buffer": n, "init": init}
    if values is not None:
        d["values"] = values
    return d


def case(name, family, ptx, kernel, grid, block, args, outputs, elem=4):
    g = list(grid) + [1] * (3 - len(grid))
    b = list(block) + [1] * (3 - len(block))
    return {"name": name, "family": family, "ptx": ptx, "kernel": kernel, "grid": g, "block": b,
            "args": args, "compare": {"args": outputs, "elem": elem}}


def shfl_table():
    bs = [0, 1, 2, 3, 7, 16, 31, 32, 33, 0xFFFFFFFF]
    cs = [0x1F, 0x0, 0x7, 0x181F, 0x1C0F, 0x1F00, 0x101F, 0xFFFFFFFF]
    tab = []
    for b in bs:
        for c in cs:
            tab += [b, c]
    return tab


def window_probes():
    """(anchor, delta) pairs for addr_probe: each window's edges and inside,
    relative to this launch's windows (anchors: 0 zero, 1 shared, 2 local,
    3 const, 4 param). The sizes come from the window probe: CTA parts of
    16 MiB in a 4 GiB shared window, a 16 MiB local window, the module's
    64 bytes of constants, the kernel's 20 bytes of parameters."""
    mib16, gib4 = 1 << 24, 1 << 32
    pts = []
    for d in [0, 1, 0x3FF, 0x400, 0x404, mib16 - 1, mib16, mib16 + 0x400, 2 * mib16 - 1, 2 * mib16,
              2 * mib16 + 0x400, 3 * mib16, 15 * mib16, 16 * mib16, 255 * mib16, gib4 - 1, gib4,
              gib4 + mib16, -1, -mib16, -gib4]:
        pts.append((1, d))
    for d in [-1, 0, 0x1000, mib16 - 0x100, mib16 - 1, mib16, mib16 + 1, -mib16]:
        pts.append((2, d))
    for d in [-1, 0, 63, 64, 65, 0x1000, 0x10000]:
        pts.append((3, d))
    for d in [-0x211, -0x210, -1, 0, 8, 19, 20, 21, 22, 0x1000]:
        pts.append((4, d))
    for a in [0, 1, 0x1000, 0xFFFFFFFF, 1 << 32, (1 << 47) - 1, 1 << 47, (1 << 48) - 1, 1 << 48,
              1 << 56, 1 << 63, (1 << 64) - 1]:
        pts.append((0, a))
    vals = []
    for anchor, delta in pts:
        vals += [anchor, delta & ((1 << 64) - 1)]
    return vals


def prmt_selectors():
    # every nibble in every position, then structured and random ones
    vals = [0x1111 * i for i in range(16)]
    vals += [0x3210, 0x7654, 0x0123, 0x4567, 0x8888, 0xFEDC, 0xBA98, 0x5140, 0xFFFFFFFF, 0xFFFF0000]
    vals += list(range(16))
    return vals


def main():
    gen_alu_kernel.main()
    names = gen_ldst_kernels.matrix()
    qual_sizes = gen_ldst_kernels.quals()
    cases = []
    n = 1024
    sel = prmt_selectors()
    cases.append(case("prmt_modes", "prmt", "kernels/prmt.ptx", "prmt_modes", [4], [256],
                      [buf(4 * n, "random"), buf(4 * n, "random"), buf(4 * n, "u32", sel), buf(28 * n), {"u32": n}],
                      [3]))
    # the selector buffer: the structured values first, random words after
    cases[-1]["args"][2] = {"buffer": 4 * n, "init": "u32",
                            "values": sel + [(0x9E3779B9 * (i + 1)) & 0xFFFFFFFF for i in range(n - len(sel))]}
    cases.append(case("prmt_imm", "prmt", "kernels/prmt.ptx", "prmt_imm", [1], [1], [buf(32)], [0]))
    cases.append(case("mov_pack", "mov", "kernels/mov.ptx", "mov_pack", [1], [64],
                      [buf(1024, "random"), buf(8192)], [1], 8))
    cases.append(case("mov_pack8", "mov", "kernels/mov8.ptx", "mov_pack8", [1], [64],
                      [buf(256, "random"), buf(512)], [1]))
    cases.append(case("mov_sreg", "mov", "kernels/mov.ptx", "mov_sreg", [4, 3, 1], [16, 3, 2],
                      [buf(112 * 96 * 12)], [0]))
    cases.append(case("mov_addr", "mov", "kernels/mov.ptx", "mov_addr", [1], [64], [buf(64 * 64)], [0]))
    tab = shfl_table()
    k = len(tab) // 2
    cases.append(case("shfl_modes", "shfl.sync", "kernels/shfl.ptx", "shfl_modes", [1], [64],
                      [buf(256, "random"), buf(4 * len(tab), "u32", tab), buf(k * 4 * 64 * 8), {"u32": k}], [2]))
    cases.append(case("shfl_imm", "shfl.sync", "kernels/shfl.ptx", "shfl_imm", [1], [32],
                      [buf(128, "random"), buf(512)], [1]))
    for name, src, dst in names:
        op = name.split("_")[0]
        family = {"ld": "ld", "ldu": "ldu", "ldnc": "ld.global.nc", "st": "st"}[op]
        cases.append(case(name, family, "kernels/ldst.ptx", name, [1], [64],
                          [buf(64 * src, "random"), buf(64 * dst)], [1], 1 if dst < 4 else 4))
    for name, slots in qual_sizes.items():
        family = {"ld_quals": "ld", "ldnc_quals": "ld.global.nc", "ldu_quals": "ldu", "st_quals": "st"}[name]
        cases.append(case(name, family, "kernels/ldst_quals.ptx", name, [1], [64],
                          [buf(256 * slots, "random"), buf(256 * slots)], [1]))
    cases.append(case("space_shared", "ld/st shared", "kernels/spaces.ptx", "space_shared", [1], [64],
                      [buf(512, "random"), buf(64 * 64)], [1]))
    cases.append(case("space_local", "ld/st local", "kernels/spaces.ptx", "space_local", [1], [64],
                      [buf(512, "random"), buf(64 * 32)], [1]))
    cases.append(case("space_const", "ld const", "kernels/spaces.ptx", "space_const", [1], [64],
                      [buf(16, "random"), buf(64 * 32)], [1]))
    cases.append(case("space_param", "ld param", "kernels/spaces.ptx", "space_param", [1], [1],
                      [buf(32), {"u32": 0x89ABCDEF}, {"u64": 0x0123456789ABCDEF}, {"u32": 0x80000005}], [0]))
    cases.append(case("addr_spaces", "cvta/isspacep", "kernels/addr.ptx", "addr_spaces", [2], [64],
                      [buf(256, "random"), buf(128 * 64), {"u64": 0x1122334455667788}], [1]))
    probes = window_probes()
    cases.append(case("addr_probe", "isspacep", "kernels/addr.ptx", "addr_probe", [2], [128],
                      [buf(8 * len(probes), "u64", probes), buf(2 * 4 * len(probes) // 2),
                       {"u32": len(probes) // 2}], [1]))
    cases.append(case("cluster_mapa", "mapa/getctarank", "kernels/cluster.ptx", "cluster_mapa", [8], [64],
                      [buf(8 * 64 * 64)], [0]))
    cases.append(case("hints", "prefetch/applypriority/createpolicy/discard", "kernels/hints.ptx", "hints",
                      [1], [64], [buf(256, "random"), buf(256, "random"), buf(64 * 64)], [2]))
    cases.append(case("alu", "integer (not 9.7.9)", "kernels/alu.ptx", "alu", [2], [128],
                      [buf(8 * 256, "random"), buf(464 * 256)], [1]))
    cases.append(case("cvta_funcs", "__cvta_* (CUDA C++)", "nvcc:cvta_funcs", "cvta_funcs", [1], [64],
                      [buf(256, "random"), buf(64 * 64), {"u64": 0x0123456789ABCDEF}, {"u32": 0}], [1]))
    # the arithmetic families (issue 18): kernels/{int,float,cmp,atom,warp}.ptx,
    # then kernels/{setslct,video,packed,match}.ptx
    cases += gen_arith_kernels.cases()
    # last: warps where only some lanes take part (the riskiest on hardware)
    cases.append(case("shfl_partial", "shfl.sync", "kernels/shfl.ptx", "shfl_partial", [1], [32],
                      [buf(128, "random"), buf(1024)], [1]))
    with open("corpus/simulator/cases.json", "w") as f:
        json.dump({"cases": cases}, f, indent=1)
        f.write("\n")
    print(len(cases), "cases")


if __name__ == "__main__":
    main()
