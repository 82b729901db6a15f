// Exercises shfl.sync in all modes (idx/up/down/bfly) with widths and many types (int, unsigned, long long, float, double, half2, bfloat162).
#include <cuda_fp16.h>
#include <cuda_bf16.h>

extern "C" __global__ void shfl_modes(const int* in, int* out, int lane_src)
{
    int t = threadIdx.x;
    int v = in[t];
    int r = 0;
    r += __shfl_sync(0xffffffffu, v, lane_src);
    r += __shfl_sync(0xffffffffu, v, lane_src, 16);
    r += __shfl_up_sync(0xffffffffu, v, 1);
    r += __shfl_up_sync(0xffffffffu, v, 2, 8);
    r += __shfl_down_sync(0xffffffffu, v, 4);
    r += __shfl_down_sync(0x0000ffffu, v, 1, 16);
    r += __shfl_xor_sync(0xffffffffu, v, 1);
    r += __shfl_xor_sync(0xffffffffu, v, 3, 4);
    out[t] = r;
}

__global__ void shfl_types(const double* d, const long long* l, const float* f, const unsigned* u,
                           const __half2* h, const __nv_bfloat162* b, double* out)
{
    int t = threadIdx.x;
    double dv = __shfl_down_sync(0xffffffffu, d[t], 1);
    long long lv = __shfl_xor_sync(0xffffffffu, l[t], 2);
    float fv = __shfl_up_sync(0xffffffffu, f[t], 3);
    unsigned uv = __shfl_sync(0xffffffffu, u[t], 0);
    unsigned long long ul = __shfl_sync(0xffffffffu, (unsigned long long)u[t] << 20, 5);
    __half2 hv = __shfl_xor_sync(0xffffffffu, h[t], 4);
    __nv_bfloat162 bv = __shfl_down_sync(0xffffffffu, b[t], 8);
    __half hh = __shfl_sync(0xffffffffu, __low2half(h[t]), 31);
    out[t] = dv + (double)lv + fv + uv + (double)ul + __low2float(hv) + __high2float(bv) + __half2float(hh);
}

__device__ __forceinline__ float warp_reduce(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__global__ void shfl_reduce(const float* in, float* out, int n)
{
    float s = 0.f;
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x) s += in[k];
    s = warp_reduce(s);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, s);
}

__global__ void shfl_asm(const unsigned* in, unsigned* out)
{
    unsigned v = in[threadIdx.x];
    unsigned r0, r1;
    asm volatile("{\n\t.reg .pred p;\n\tshfl.sync.idx.b32 %0|p, %2, 0, 0x1f, 0xffffffff;\n\t"
                 "selp.u32 %1, 1, 0, p;\n}" : "=r"(r0), "=r"(r1) : "r"(v));
    unsigned r2;
    asm volatile("shfl.sync.bfly.b32 %0, %1, 0x10, 0x1f, %2;" : "=r"(r2) : "r"(v), "r"(0xffffffffu));
    out[threadIdx.x] = r0 + r1 + r2;
}
