// Exercises f16/f16x2 conversions: __float2half_rn/rz/ru/rd, __half2float, __float22half2_rn, __half22float2, half<->int, __double2half.
#include <cuda_fp16.h>

__global__ void f32_to_f16(const float* __restrict__ x, __half* h, __half2* h2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    float w = x[i + n];
    h[4 * i + 0] = __float2half_rn(v);
    h[4 * i + 1] = __float2half_rz(v);
    h[4 * i + 2] = __float2half_ru(v);
    h[4 * i + 3] = __float2half_rd(v);
    h2[2 * i + 0] = __float22half2_rn(make_float2(v, w));
    h2[2 * i + 1] = __floats2half2_rn(w, v);
}

extern "C" __global__ void f16_to_f32(const __half* h, const __half2* h2, float* out, float2* out2)
{
    int i = threadIdx.x;
    out[i] = __half2float(h[i]) + __low2float(h2[i]) + __high2float(h2[i]);
    out2[i] = __half22float2(h2[i]);
}

__global__ void f16_int(const __half* h, int* oi, short* os, unsigned* ou, long long* oll, __half* oh,
                        const int* ii, const long long* il)
{
    int i = threadIdx.x;
    __half v = h[i];
    oi[i] = __half2int_rn(v) + __half2int_rz(v) + __half2int_ru(v) + __half2int_rd(v);
    os[i] = __half2short_rn(v) + __half2short_rz(v);
    ou[i] = __half2uint_rn(v) + __half2uint_rz(v);
    oll[i] = __half2ll_rn(v) + __half2ll_rz(v);
    __half a = __int2half_rn(ii[i]);
    __half b = __int2half_rz(ii[i]);
    __half c = __ll2half_rn(il[i]);
    __half d = __short2half_rn((short)ii[i]);
    __half e = __uint2half_rn((unsigned)ii[i]);
    oh[i] = __hadd(__hadd(a, b), __hadd(c, __hadd(d, e)));
}

__global__ void f64_to_f16(const double* x, __half* h)
{
    int i = threadIdx.x;
    h[i] = __double2half(x[i]);
}

__global__ void f16_asm(const float* x, unsigned* out)
{
    int i = threadIdx.x;
    float a = x[i], b = x[i + 32];
    unsigned r0, r1;
    unsigned short s0;
    asm volatile("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r0) : "f"(a), "f"(b));
    asm volatile("cvt.rn.relu.f16x2.f32 %0, %1, %2;" : "=r"(r1) : "f"(a), "f"(b));
    asm volatile("cvt.rn.f16.f32 %0, %1;" : "=h"(s0) : "f"(a));
    float back;
    asm volatile("cvt.f32.f16 %0, %1;" : "=f"(back) : "h"(s0));
    out[i] = r0 ^ r1 ^ s0 ^ __float_as_uint(back);
}
