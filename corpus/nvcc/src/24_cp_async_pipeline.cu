// Exercises cp.async (ca/cg, 4/8/16 bytes) with cp.async.commit_group/wait_group through the __pipeline_* API of cuda_pipeline.h.
#include <cuda_pipeline.h>

extern "C" __global__ void pipeline_copy(const float4* __restrict__ g16, const float2* __restrict__ g8,
                                         const float* __restrict__ g4, float* out, int n)
{
    __shared__ float4 s16[128];
    __shared__ float2 s8[128];
    __shared__ float s4[128];
    int t = threadIdx.x;
    float acc = 0.f;
    for (int base = 0; base < n; base += 128) {
        __pipeline_memcpy_async(&s16[t], &g16[base + t], sizeof(float4));
        __pipeline_memcpy_async(&s8[t], &g8[base + t], sizeof(float2));
        __pipeline_memcpy_async(&s4[t], &g4[base + t], sizeof(float));
        __pipeline_commit();
        __pipeline_wait_prior(0);
        __syncthreads();
        acc += s16[(t + 1) & 127].x + s8[(t + 2) & 127].y + s4[(t + 3) & 127];
        __syncthreads();
    }
    out[t] = acc;
}

__global__ void pipeline_multistage(const int4* __restrict__ g, int* out, int stages)
{
    __shared__ int4 s[4][64];
    int t = threadIdx.x;
    for (int st = 0; st < 3; ++st) {
        __pipeline_memcpy_async(&s[st][t], &g[st * 64 + t], sizeof(int4));
        __pipeline_commit();
    }
    int r = 0;
    for (int st = 0; st < stages; ++st) {
        __pipeline_wait_prior(2);
        __syncthreads();
        int4 v = s[st & 3][(t + 5) & 63];
        r += v.x + v.y + v.z + v.w;
        __syncthreads();
        __pipeline_memcpy_async(&s[(st + 3) & 3][t], &g[(st + 3) * 64 + t], sizeof(int4));
        __pipeline_commit();
    }
    __pipeline_wait_prior(0);
    out[t] = r;
}

__global__ void pipeline_zfill(const float4* g, float* out, int n)
{
    __shared__ float4 s[64];
    int t = threadIdx.x;
    // zero-fill variant: src size < dst size
    __pipeline_memcpy_async(&s[t], &g[t], sizeof(float4), t < n ? 0 : sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[t] = s[(t + 1) & 63].x;
}
