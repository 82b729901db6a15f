// Vector types in CUDA C++: float4/int4/uint2/double2 loads and stores, half2 and bfloat162 packing (mov.b32 with braces), char4 byte access, and vector shuffles.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdint>

extern "C" __global__ void vector_types(const float4* __restrict__ f4, const int4* __restrict__ i4,
                                        const uint2* __restrict__ u2, const double2* __restrict__ d2,
                                        const char4* __restrict__ c4, float4* out, __half2* h2, __nv_bfloat162* b2)
{
    uint32_t t = threadIdx.x;
    float4 a = f4[t];
    int4 b = i4[t];
    uint2 c = u2[t];
    double2 d = d2[t];
    char4 e = c4[t];
    float4 r;
    r.x = a.x + (float)b.x + (float)c.x + (float)d.x + (float)e.x;
    r.y = a.y + (float)b.y + (float)c.y + (float)d.y + (float)e.y;
    r.z = a.z + (float)b.z + (float)e.z;
    r.w = a.w + (float)b.w + (float)e.w;
    r.x = __shfl_xor_sync(0xffffffffu, r.x, 1);
    out[t] = r;
    h2[t] = __floats2half2_rn(r.x, r.y);
    b2[t] = __floats2bfloat162_rn(r.z, r.w);
    __half2 h = h2[t ^ 1];
    h2[t] = __halves2half2(__high2half(h), __low2half(h));
}
