// Exercises cvt.pack.sat (s16/u16 two-operand and s8/u8/s4/u4/s2/u2 three-operand forms) via inline asm.
__global__ void pack16(const int* __restrict__ a, const int* __restrict__ b, unsigned* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned d0, d1;
    asm volatile("cvt.pack.sat.s16.s32 %0, %1, %2;" : "=r"(d0) : "r"(a[i]), "r"(b[i]));
    asm volatile("cvt.pack.sat.u16.s32 %0, %1, %2;" : "=r"(d1) : "r"(a[i]), "r"(b[i]));
    out[2 * i] = d0;
    out[2 * i + 1] = d1;
}

extern "C" __global__ void pack8(const int4* __restrict__ v, unsigned* out)
{
    int i = threadIdx.x;
    int4 x = v[i];
    unsigned lo, d;
    asm volatile("cvt.pack.sat.s8.s32.b32 %0, %1, %2, 0;" : "=r"(lo) : "r"(x.z), "r"(x.w));
    asm volatile("cvt.pack.sat.s8.s32.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(x.x), "r"(x.y), "r"(lo));
    unsigned u;
    asm volatile("cvt.pack.sat.u8.s32.b32 %0, %1, %2, %3;" : "=r"(u) : "r"(x.x), "r"(x.y), "r"(d));
    out[i] = d ^ u;
}

__global__ void pack_subbyte(const int* a, unsigned* out)
{
    int i = threadIdx.x;
    unsigned r4 = 0, r2 = 0, q4 = 0, q2 = 0;
    asm volatile("cvt.pack.sat.s4.s32.b32 %0, %1, %2, %3;" : "=r"(r4) : "r"(a[i]), "r"(a[i + 1]), "r"(0u));
    asm volatile("cvt.pack.sat.u4.s32.b32 %0, %1, %2, %3;" : "=r"(q4) : "r"(a[i]), "r"(a[i + 1]), "r"(r4));
    asm volatile("cvt.pack.sat.s2.s32.b32 %0, %1, %2, %3;" : "=r"(r2) : "r"(a[i]), "r"(a[i + 2]), "r"(q4));
    asm volatile("cvt.pack.sat.u2.s32.b32 %0, %1, %2, %3;" : "=r"(q2) : "r"(a[i]), "r"(a[i + 2]), "r"(r2));
    out[i] = q2;
}
