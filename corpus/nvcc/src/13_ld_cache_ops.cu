// Exercises cache-operator loads: __ldg (ld.global.nc), __ldcg (.cg), __ldca (.ca), __ldcs (.cs), __ldlu (.lu), __ldcv (.cv) on scalar and vector types.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

extern "C" __global__ void ldg_all(const char* c, const unsigned char* uc, const short* s, const int* i,
                                   const long long* ll, const unsigned long long* ull, const float* f,
                                   const double* d, const float2* f2, const float4* f4, const int4* i4,
                                   const double2* d2, const int2* i2, const uchar4* c4,
                                   const __half* h, const __half2* h2, const __nv_bfloat16* bf,
                                   double* out)
{
    int t = threadIdx.x;
    double r = 0;
    r += __ldg(c + t);
    r += __ldg(uc + t);
    r += __ldg(s + t);
    r += __ldg(i + t);
    r += (double)__ldg(ll + t);
    r += (double)__ldg(ull + t);
    r += __ldg(f + t);
    r += __ldg(d + t);
    float2 a = __ldg(f2 + t);
    float4 b = __ldg(f4 + t);
    int4 e = __ldg(i4 + t);
    double2 g = __ldg(d2 + t);
    int2 k = __ldg(i2 + t);
    uchar4 u4 = __ldg(c4 + t);
    r += a.x + a.y + b.x + b.w + e.x + e.w + g.x + g.y + k.x + k.y + u4.x + u4.w;
    r += __half2float(__ldg(h + t));
    r += __low2float(__ldg(h2 + t));
    r += __bfloat162float(__ldg(bf + t));
    out[t] = r;
}

__global__ void ld_cache_hints(const int* i, const float4* f4, const double* d, const int4* i4,
                               const long long* ll, const float2* f2, float* out)
{
    int t = threadIdx.x;
    float r = 0;
    r += __ldcg(i + t);
    r += __ldca(i + t + 32);
    r += __ldcs(i + t + 64);
    r += __ldlu(i + t + 96);
    r += __ldcv(i + t + 128);
    float4 a = __ldcg(f4 + t);
    float4 b = __ldcs(f4 + t + 32);
    float4 c = __ldca(f4 + t + 64);
    float4 e = __ldlu(f4 + t + 96);
    float4 g = __ldcv(f4 + t + 128);
    r += a.x + b.y + c.z + e.w + g.x;
    r += (float)__ldcg(d + t) + (float)__ldcs(d + t + 1) + (float)__ldcv(d + t + 2);
    int4 v = __ldcg(i4 + t);
    int4 w = __ldlu(i4 + t + 1);
    r += v.x + w.y;
    r += (float)__ldca(ll + t) + (float)__ldcg(ll + t + 1);
    float2 h = __ldcs(f2 + t);
    r += h.x + h.y;
    out[t] = r;
}

// const __restrict__ lets nvcc choose ld.global.nc by itself
__global__ void restrict_nc(const float* __restrict__ a, const float4* __restrict__ b, float* __restrict__ out, int n)
{
    float s = 0.f;
    for (int k = threadIdx.x; k < n; k += blockDim.x) {
        float4 v = b[k];
        s += a[k] * v.x + v.y * v.z - v.w;
    }
    out[threadIdx.x] = s;
}
