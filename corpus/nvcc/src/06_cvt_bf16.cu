// Exercises bf16/bf16x2 conversions: __float2bfloat16(_rn/_rz), __bfloat162float, __floats2bfloat162_rn, __float22bfloat162_rn, bf16<->int.
#include <cuda_bf16.h>

__global__ void f32_to_bf16(const float* __restrict__ x, __nv_bfloat16* b, __nv_bfloat162* b2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    float w = x[i + n];
    b[4 * i + 0] = __float2bfloat16(v);
    b[4 * i + 1] = __float2bfloat16_rn(v);
    b[4 * i + 2] = __float2bfloat16_rz(v);
    b[4 * i + 3] = __float2bfloat16_ru(v);
    b2[2 * i + 0] = __floats2bfloat162_rn(v, w);
    b2[2 * i + 1] = __float22bfloat162_rn(make_float2(w, v));
}

extern "C" __global__ void bf16_to_f32(const __nv_bfloat16* b, const __nv_bfloat162* b2, float* out, float2* out2)
{
    int i = threadIdx.x;
    out[i] = __bfloat162float(b[i]) + __low2float(b2[i]) + __high2float(b2[i]);
    out2[i] = __bfloat1622float2(b2[i]);
}

__global__ void bf16_int(const __nv_bfloat16* b, const int* ii, int* oi, __nv_bfloat16* ob)
{
    int i = threadIdx.x;
    __nv_bfloat16 v = b[i];
    oi[i] = __bfloat162int_rn(v) + __bfloat162int_rz(v) + (int)__bfloat162uint_rd(v) + (int)__bfloat162short_ru(v);
    __nv_bfloat16 a = __int2bfloat16_rn(ii[i]);
    __nv_bfloat16 c = __double2bfloat16((double)ii[i] * 0.5);
    ob[i] = __hadd(a, c);
}

__global__ void bf16_asm(const float* x, unsigned* out)
{
    int i = threadIdx.x;
    float a = x[i], b = x[i + 32];
    unsigned r0, r1;
    unsigned short s0, s1;
    asm volatile("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r0) : "f"(a), "f"(b));
    asm volatile("cvt.rz.relu.bf16x2.f32 %0, %1, %2;" : "=r"(r1) : "f"(a), "f"(b));
    asm volatile("cvt.rn.bf16.f32 %0, %1;" : "=h"(s0) : "f"(a));
    asm volatile("cvt.rz.bf16.f32 %0, %1;" : "=h"(s1) : "f"(b));
    float back = 0.f;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("cvt.rn.satfinite.bf16.f32 %0, %1;" : "=h"(s1) : "f"(b));
    asm volatile("cvt.f32.bf16 %0, %1;" : "=f"(back) : "h"(s0));
    unsigned short s2;
    asm volatile("cvt.rn.bf16.f16 %0, %1;" : "=h"(s2) : "h"(s1));
    s1 ^= s2;
#endif
    out[i] = r0 ^ r1 ^ s0 ^ s1 ^ __float_as_uint(back);
}
