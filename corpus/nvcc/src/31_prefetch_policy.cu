// Exercises prefetch/prefetchu, applypriority, discard, createpolicy (fractional/range/cvt) and .L2::cache_hint loads/stores via inline asm (sm_80+).
#include <cuda_runtime.h>

extern "C" __global__ void prefetch_all(const float* g, float* out)
{
    int t = threadIdx.x;
    float l_buf[8];
    for (int k = 0; k < 8; ++k) l_buf[k] = g[k + t];
    const float* p = g + 32 * t;
    asm volatile("prefetch.global.L1 [%0];" :: "l"(p));
    asm volatile("prefetch.global.L2 [%0];" :: "l"(p + 1024));
    asm volatile("prefetch.global.L2::evict_last [%0];" :: "l"(p + 2048));
    asm volatile("prefetch.global.L2::evict_normal [%0];" :: "l"(p + 3072));
    asm volatile("prefetch.L1 [%0];" :: "l"(p + 4096));
    asm volatile("prefetch.L2 [%0];" :: "l"(p + 5120));
    asm volatile("prefetch.local.L1 [%0];" :: "l"((unsigned long long)__cvta_generic_to_local(&l_buf[t & 7])));
    asm volatile("prefetchu.L1 [%0];" :: "l"(p + 6144));
    out[t] = l_buf[t & 7];
}

__global__ void priority_discard(float* g)
{
    float* p = g + 32 * threadIdx.x;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("applypriority.global.L2::evict_normal [%0], 128;" :: "l"(p) : "memory");
    asm volatile("applypriority.L2::evict_normal [%0], 128;" :: "l"(p + 32) : "memory");
    asm volatile("discard.global.L2 [%0], 128;" :: "l"(p + 64) : "memory");
    asm volatile("discard.L2 [%0], 128;" :: "l"(p + 96) : "memory");
#endif
}

__global__ void policies(const float* g, float* out, unsigned long long prop)
{
    int t = threadIdx.x;
    float r = g[t];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    unsigned long long p0, p1, p2, p3, p4, p5;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p0));
    asm volatile("createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %0, 0.5;" : "=l"(p1));
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0;" : "=l"(p2));
    asm volatile("createpolicy.range.L2::evict_last.L2::evict_first.b64 %0, [%1], 0x100000, 0x200000;" : "=l"(p3) : "l"(g));
    asm volatile("createpolicy.range.global.L2::evict_normal.b64 %0, [%1], %2, %3;" : "=l"(p4) : "l"(g), "r"(4096u), "r"(8192u));
    asm volatile("createpolicy.cvt.L2.b64 %0, %1;" : "=l"(p5) : "l"(prop));
    float a, b;
    asm volatile("ld.global.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(a) : "l"(g + t), "l"(p0));
    asm volatile("ld.global.nc.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(b) : "l"(g + t + 32), "l"(p1));
    float4 v;
    asm volatile("ld.global.L2::cache_hint.v4.f32 {%0, %1, %2, %3}, [%4], %5;"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(g + 4 * t), "l"(p2));
    r += a + b + v.x + v.w;
    asm volatile("st.global.L2::cache_hint.f32 [%0], %1, %2;" :: "l"(out + t + 32), "f"(r), "l"(p3) : "memory");
    asm volatile("st.global.L1::no_allocate.L2::cache_hint.f32 [%0], %1, %2;" :: "l"(out + t + 64), "f"(r), "l"(p4 ^ p5) : "memory");
#endif
    out[t] = r;
}

// plain read-modify-write loop for contrast (no hints)
__global__ void access_property_api(float* g, int n)
{
    for (int k = threadIdx.x; k < n; k += blockDim.x) g[k] *= 2.f;
}
