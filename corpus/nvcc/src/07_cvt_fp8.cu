// Exercises fp8 (e4m3/e5m2) conversions from cuda_fp8.h: __nv_cvt_float2_to_fp8x2, __nv_cvt_fp8x2_to_halfraw2, __nv_fp8_e4m3 etc. (native cvt on sm_89+).
#include <cuda_fp8.h>

__global__ void to_fp8(const float2* __restrict__ x, const __half2* h, const __nv_bfloat162* b,
                       __nv_fp8x2_storage_t* o, __nv_fp8_storage_t* o1, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float2 v = x[i];
    o[6 * i + 0] = __nv_cvt_float2_to_fp8x2(v, __NV_SATFINITE, __NV_E4M3);
    o[6 * i + 1] = __nv_cvt_float2_to_fp8x2(v, __NV_SATFINITE, __NV_E5M2);
    o[6 * i + 2] = __nv_cvt_float2_to_fp8x2(v, __NV_NOSAT, __NV_E4M3);
    __half2_raw hr = static_cast<__half2_raw>(h[i]);
    o[6 * i + 3] = __nv_cvt_halfraw2_to_fp8x2(hr, __NV_SATFINITE, __NV_E4M3);
    o[6 * i + 4] = __nv_cvt_halfraw2_to_fp8x2(hr, __NV_SATFINITE, __NV_E5M2);
    __nv_bfloat162_raw br = static_cast<__nv_bfloat162_raw>(b[i]);
    o[6 * i + 5] = __nv_cvt_bfloat16raw2_to_fp8x2(br, __NV_SATFINITE, __NV_E4M3);
    o1[2 * i + 0] = __nv_cvt_float_to_fp8(v.x, __NV_SATFINITE, __NV_E4M3);
    o1[2 * i + 1] = __nv_cvt_double_to_fp8((double)v.y, __NV_SATFINITE, __NV_E5M2);
}

extern "C" __global__ void from_fp8(const __nv_fp8x2_storage_t* in, const __nv_fp8_storage_t* in1,
                                   __half2* out, __half* out1)
{
    int i = threadIdx.x;
    __half2_raw a = __nv_cvt_fp8x2_to_halfraw2(in[i], __NV_E4M3);
    __half2_raw b = __nv_cvt_fp8x2_to_halfraw2(in[i], __NV_E5M2);
    out[2 * i + 0] = __half2(a);
    out[2 * i + 1] = __half2(b);
    __half_raw c = __nv_cvt_fp8_to_halfraw(in1[i], __NV_E4M3);
    out1[i] = __half(c);
}

__global__ void fp8_classes(const float* x, float* y)
{
    int i = threadIdx.x;
    __nv_fp8_e4m3 a(x[i]);
    __nv_fp8_e5m2 b(x[i + 32]);
    __nv_fp8x2_e4m3 c(make_float2(x[i], x[i + 1]));
    __nv_fp8x4_e5m2 d(make_float4(x[i], x[i + 1], x[i + 2], x[i + 3]));
    float2 cf = float2(c);
    float4 df = float4(d);
    y[i] = float(a) + float(b) + cf.x + cf.y + df.x + df.w;
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
#define HAVE_FP8_CVT 1
#endif

__global__ void fp8_asm(const float* x, unsigned* out)
{
    int i = threadIdx.x;
    unsigned r = 0;
#ifdef HAVE_FP8_CVT
    float a = x[i], b = x[i + 32];
    unsigned short p0, p1, p2;
    unsigned h0, h1;
    asm volatile("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(p0) : "f"(a), "f"(b));
    asm volatile("cvt.rn.satfinite.relu.e5m2x2.f32 %0, %1, %2;" : "=h"(p1) : "f"(a), "f"(b));
    asm volatile("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(h0) : "h"(p0));
    asm volatile("cvt.rn.relu.f16x2.e5m2x2 %0, %1;" : "=r"(h1) : "h"(p1));
    asm volatile("cvt.rn.satfinite.e4m3x2.f16x2 %0, %1;" : "=h"(p2) : "r"(h1));
    r = h0 ^ h1 ^ p2;
#endif
    out[i] = r;
}
