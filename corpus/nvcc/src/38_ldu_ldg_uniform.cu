// Exercises ldu.global (inline asm, scalar and vector) and uniform loads that nvcc may emit as ld.global.nc / ldu from const __restrict__ pointers.
extern "C" __global__ void ldu_asm(const float* p, const int* q, const double* d, float* out)
{
    float a;
    int b;
    double c;
    asm volatile("ldu.global.f32 %0, [%1];" : "=f"(a) : "l"(p));
    asm volatile("ldu.global.b32 %0, [%1+4];" : "=r"(b) : "l"(q));
    asm volatile("ldu.global.f64 %0, [%1];" : "=d"(c) : "l"(d));
    float4 v;
    asm volatile("ldu.global.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p + 4));
    int2 w;
    asm volatile("ldu.global.v2.s32 {%0, %1}, [%2];" : "=r"(w.x), "=r"(w.y) : "l"(q + 8));
    unsigned short h;
    asm volatile("ldu.global.u16 %0, [%1];" : "=h"(h) : "l"(q + 16));
    unsigned short byte8;
    asm volatile("ldu.u8 %0, [%1];" : "=h"(byte8) : "l"(q + 20));
    out[threadIdx.x] = a + b + (float)c + v.x + v.w + w.x + w.y + h + byte8;
}

__global__ void uniform_restrict(const float* __restrict__ coef, const float* __restrict__ x, float* out, int n)
{
    float c0 = coef[0], c1 = coef[1], c2 = coef[2];
    for (int k = threadIdx.x; k < n; k += blockDim.x) out[k] = c0 + x[k] * (c1 + x[k] * c2);
}
