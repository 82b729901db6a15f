// Inline PTX with vector register variables: .v2/.v4 declarations, element selectors (.x .y .z .w and .r .g .b .a), whole-vector ld/st operands, vector mov with braces, and mov.b32/b64 packing through a vector variable.
#include <cstdint>

extern "C" __global__ void vector_regs(const uint32_t* __restrict__ in, uint32_t* out, uint16_t* hout)
{
    const uint32_t* p = in + 4 * threadIdx.x;
    uint32_t a, b, c, d;
    asm volatile("{\n\t"
                 ".reg .v4 .u32 w;\n\t"
                 "ld.global.v4.u32 w, [%4];\n\t"
                 "mov.u32 %0, w.x;\n\t"
                 "mov.u32 %1, w.y;\n\t"
                 "mov.u32 %2, w.z;\n\t"
                 "mov.u32 %3, w.w;\n\t"
                 "}"
                 : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                 : "l"(p));
    uint32_t packed;
    asm volatile("{\n\t"
                 ".reg .v2 .u16 h;\n\t"
                 ".reg .u16 lo, hi;\n\t"
                 "cvt.u16.u32 lo, %1;\n\t"
                 "cvt.u16.u32 hi, %2;\n\t"
                 "mov.v2.u16 h, {lo, hi};\n\t"
                 "mov.b32 %0, h;\n\t"
                 "}"
                 : "=r"(packed)
                 : "r"(a), "r"(b));
    uint32_t r, g;
    asm volatile("{\n\t"
                 ".reg .v4 .u32 col;\n\t"
                 "mov.u32 col.r, %2;\n\t"
                 "mov.u32 col.g, %3;\n\t"
                 "mov.u32 col.b, %2;\n\t"
                 "mov.u32 col.a, %3;\n\t"
                 "add.u32 %0, col.r, col.b;\n\t"
                 "add.u32 %1, col.g, col.a;\n\t"
                 "}"
                 : "=r"(r), "=r"(g)
                 : "r"(c), "r"(d));
    uint32_t* q = out + 4 * threadIdx.x;
    asm volatile("{\n\t"
                 ".reg .v4 .u32 o;\n\t"
                 "mov.v4.u32 o, {%1, %2, %3, %4};\n\t"
                 "st.global.v4.u32 [%0], o;\n\t"
                 "}"
                 :
                 : "l"(q), "r"(packed), "r"(r), "r"(g), "r"(a ^ d)
                 : "memory");
    uint16_t h0;
    asm volatile("{\n\t"
                 ".reg .v2 .u16 hv;\n\t"
                 "mov.b32 hv, %1;\n\t"
                 "cvt.u16.u16 %0, hv.y;\n\t"
                 "}"
                 : "=h"(h0)
                 : "r"(packed));
    hout[threadIdx.x] = h0;
}

extern "C" __global__ void vector_regs_64(const uint64_t* __restrict__ in, uint64_t* out)
{
    uint64_t v;
    asm volatile("{\n\t"
                 ".reg .v2 .u64 pair;\n\t"
                 ".reg .v2 .u32 halves;\n\t"
                 "ld.global.v2.u64 pair, [%1];\n\t"
                 "mov.b64 halves, pair.y;\n\t"
                 "mov.b64 %0, {halves.y, halves.x};\n\t"
                 "}"
                 : "=l"(v)
                 : "l"(in + 2 * threadIdx.x));
    out[threadIdx.x] = v;
}
