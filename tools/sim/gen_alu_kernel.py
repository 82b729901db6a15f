#!/usr/bin/env python3
"""Writes corpus/simulator/kernels/alu.ptx: the plain integer, bit,
comparison, selection and predicate instructions (PTX ISA 9.7.1 to 9.7.8)
that kernels and our harnesses use besides 9.7.9, one per output word, with
random operands. Run from the repository root."""

OPS32 = [
    "add.u32 %o, %a, %b", "sub.u32 %o, %a, %b", "add.s32 %o, %a, 17", "sub.s32 %o, -5, %b",
    "mul.lo.u32 %o, %a, %b", "mul.hi.u32 %o, %a, %b", "mul.hi.s32 %o, %a, %b",
    "mul.lo.s32 %o, %a, -3",
    "mad.lo.u32 %o, %a, %b, %a", "mad.hi.u32 %o, %a, %b, %b", "mad.hi.s32 %o, %a, %b, %a",
    "shl.b32 %o, %a, %s", "shr.u32 %o, %a, %s", "shr.s32 %o, %a, %s", "shr.b32 %o, %a, %s",
    "and.b32 %o, %a, %b", "or.b32 %o, %a, %b", "xor.b32 %o, %a, %b", "not.b32 %o, %a",
    "min.u32 %o, %a, %b", "max.u32 %o, %a, %b", "min.s32 %o, %a, %b", "max.s32 %o, %a, %b",
    "neg.s32 %o, %a", "abs.s32 %o, %a",
    "div.u32 %o, %a, %nz", "rem.u32 %o, %a, %nz", "div.s32 %o, %a, %nzs", "rem.s32 %o, %a, %nzs",
    "cvt.u32.u16 %o, %h", "cvt.s32.s16 %o, %h", "cvt.s32.s8 %o, %a", "cvt.u32.u8 %o, %a",
    "cvt.u16.u32 %h2, %a; cvt.u32.u16 %o, %h2",
    "add.u16 %h2, %h, %h; cvt.u32.u16 %o, %h2",
    "mul.wide.u16 %o, %h, %h",
    "popc.b32 %o, %a", "clz.b32 %o, %a", "brev.b32 %o, %a",
    "bfe.u32 %o, %a, 5, 9", "bfe.s32 %o, %a, 7, 13",
    "selp.b32 %o, %a, %b, %plt",
    "slct.u32.s32 %o, %a, %b, %b",
]
CMPS = ["eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"]
OPS64 = [
    "add.s64 %O, %A, %B", "sub.s64 %O, %A, %B", "mul.lo.u64 %O, %A, %B",
    "mul.hi.u64 %O, %A, %B", "mul.hi.s64 %O, %A, %B",
    "mul.wide.u32 %O, %a, %b", "mul.wide.s32 %O, %a, %b",
    "mad.wide.u32 %O, %a, %b, %A", "mad.wide.s32 %O, %a, %b, %B",
    "shl.b64 %O, %A, %s", "shr.u64 %O, %A, %s", "shr.s64 %O, %A, %s",
    "and.b64 %O, %A, %B", "or.b64 %O, %A, %B", "xor.b64 %O, %A, %B", "not.b64 %O, %A",
    "cvt.u64.u32 %O, %a", "cvt.s64.s32 %O, %a", "cvt.u32.u64 %o, %A; cvt.u64.u32 %O, %o",
    "min.s64 %O, %A, %B", "max.u64 %O, %A, %B", "neg.s64 %O, %A",
    "div.u64 %O, %A, %NZ", "rem.s64 %O, %A, %NZ",
    "selp.b64 %O, %A, %B, %plt",
]


def main():
    n32 = len(OPS32) + 2 * len(CMPS) + 3
    stride = 4 * n32 + 8 * len(OPS64)
    stride = (stride + 15) // 16 * 16
    out = []
    w = out.append
    w("// Plain integer, bit, comparison, selection and predicate instructions")
    w("// (PTX ISA 9.7.1 to 9.7.8) that kernels and our harnesses use besides")
    w("// 9.7.9, with random operands. Written by tools/sim/gen_alu_kernel.py.")
    w(".version 8.7\n.target sm_90\n.address_size 64\n")
    w(f"// Thread i reads a = in[2i], b = in[2i+1] (32-bit words) and writes {stride} bytes")
    w(f"// at out + {stride}*i: {n32} 32-bit results, then {len(OPS64)} 64-bit ones.")
    w(".visible .entry alu(\n\t.param .u64 pin,\n\t.param .u64 pout\n)\n{")
    w("\t.reg .pred \t%p<8>;\n\t.reg .pred \t%plt;\n\t.reg .b16 \t%h, %h2;\n\t.reg .b32 \t%r<16>;")
    w("\t.reg .b32 \t%a, %b, %s, %o, %nz, %nzs;\n\t.reg .b64 \t%rd<16>;\n\t.reg .b64 \t%A, %B, %O, %NZ;")
    w("\tld.param.u64 \t%rd1, [pin];\n\tld.param.u64 \t%rd2, [pout];")
    w("\tcvta.to.global.u64 \t%rd1, %rd1;\n\tcvta.to.global.u64 \t%rd2, %rd2;")
    w("\tmov.u32 \t%r1, %ctaid.x;\n\tmov.u32 \t%r2, %ntid.x;\n\tmov.u32 \t%r3, %tid.x;")
    w("\tmad.lo.s32 \t%r4, %r1, %r2, %r3;")
    w("\tmul.wide.u32 \t%rd3, %r4, 8;\n\tadd.s64 \t%rd4, %rd1, %rd3;")
    w("\tld.global.v2.u32 \t{%a, %b}, [%rd4];")
    w(f"\tmul.wide.u32 \t%rd5, %r4, {stride};\n\tadd.s64 \t%rd6, %rd2, %rd5;")
    w("\t// operands: shift amount 0..63, non-zero divisors, a 16-bit part, 64-bit pairs")
    w("\tand.b32 \t%s, %b, 63;\n\tor.b32 \t%nz, %b, 1;\n\tor.b32 \t%nzs, %b, 0x100;")
    w("\tcvt.u16.u32 \t%h, %a;")
    w("\tmov.b64 \t%A, {%a, %b};\n\tmov.b64 \t%B, {%b, %a};\n\tor.b64 \t%NZ, %B, 1;")
    w("\tsetp.lt.u32 \t%plt, %a, %b;")
    off = 0

    def store32():
        nonlocal off
        w(f"\tst.global.u32 \t[%rd6+{off}], %o;")
        off += 4

    for op in OPS32:
        w("\t" + op.replace("; ", ";\n\t") + ";")
        store32()
    for c in CMPS:
        for ty in ["u32", "s32"]:
            if c in ("lo", "ls", "hi", "hs"):
                ty, src = ("u32", "%a, %b") if ty == "u32" else ("u32", "%b, %a")
            else:
                src = "%a, %b"
            w(f"\tsetp.{c}.{ty} \t%p1, {src};")
            w("\tselp.u32 \t%o, 1, 0, %p1;")
            store32()
    w("\tsetp.lt.u32 \t%p1, %a, %b;\n\tsetp.gt.s32 \t%p2, %a, 0;")
    w("\tand.pred \t%p3, %p1, %p2;\n\tor.pred \t%p4, %p1, %p2;")
    w("\txor.pred \t%p5, %p1, %p2;\n\tnot.pred \t%p6, %p1;")
    w("\tselp.u32 \t%r5, 1, 0, %p3;\n\tselp.u32 \t%r6, 2, 0, %p4;")
    w("\tselp.u32 \t%r7, 4, 0, %p5;\n\tselp.u32 \t%r8, 8, 0, %p6;")
    w("\tor.b32 \t%o, %r5, %r6;\n\tor.b32 \t%o, %o, %r7;\n\tor.b32 \t%o, %o, %r8;")
    store32()
    w("\tsetp.lt.and.u32 \t%p1|%p2, %a, %b, %p4;")
    w("\tselp.u32 \t%r5, 1, 0, %p1;\n\tselp.u32 \t%r6, 2, 0, %p2;\n\tor.b32 \t%o, %r5, %r6;")
    store32()
    w("\tsetp.ge.or.s32 \t%p1|%p2, %a, %b, !%p3;")
    w("\tselp.u32 \t%r5, 1, 0, %p1;\n\tselp.u32 \t%r6, 2, 0, %p2;\n\tor.b32 \t%o, %r5, %r6;")
    store32()
    assert off == 4 * n32
    for op in OPS64:
        w("\t" + op.replace("; ", ";\n\t") + ";")
        w(f"\tst.global.u64 \t[%rd6+{off}], %O;")
        off += 8
    w("\tret;\n}")
    with open("corpus/simulator/kernels/alu.ptx", "w") as f:
        f.write("\n".join(out) + "\n")
    print("alu.ptx: stride", stride)


if __name__ == "__main__":
    main()
