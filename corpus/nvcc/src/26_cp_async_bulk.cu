// Exercises bulk async copies (sm_90): cp.async.bulk global->shared::cluster with mbarrier complete_tx, shared::cta->global bulk_group, cp.reduce.async.bulk, commit/wait_group, cp.async.bulk.prefetch.L2.
#include <cstdint>

__device__ __forceinline__ unsigned smem_u32(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define SM90 1
#endif

extern "C" __global__ void bulk_g2s(const float* __restrict__ g, float* out, unsigned bytes)
{
    __shared__ __align__(128) float s[1024];
    __shared__ __align__(8) unsigned long long bar;
#ifdef SM90
    unsigned sb = smem_u32(&bar);
    unsigned sd = smem_u32(s);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(sb), "r"(1u) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned long long st;
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;" : "=l"(st) : "r"(sb), "r"(bytes) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     :: "r"(sd), "l"(g), "r"(bytes), "r"(sb) : "memory");
        asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" :: "l"(g + 1024), "r"(bytes) : "memory");
    }
    unsigned done = 0;
    while (!done) {
        asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done) : "r"(sb), "r"(0u) : "memory");
    }
#else
    for (int k = threadIdx.x; k < 1024; k += blockDim.x) s[k] = g[k];
    __syncthreads();
#endif
    out[threadIdx.x] = s[(threadIdx.x * 3) & 1023];
}

extern "C" __global__ void bulk_s2g(const float* in, float* g, unsigned* gu, unsigned bytes)
{
    __shared__ __align__(128) float s[1024];
    __shared__ __align__(128) unsigned su[256];
    for (int k = threadIdx.x; k < 1024; k += blockDim.x) s[k] = in[k] * 2.f;
    for (int k = threadIdx.x; k < 256; k += blockDim.x) su[k] = (unsigned)k;
#ifdef SM90
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                     :: "l"(g), "r"(smem_u32(s)), "r"(bytes) : "memory");
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], %2;"
                     :: "l"(gu), "r"(smem_u32(su)), "r"(1024u) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
#else
    __syncthreads();
    for (int k = threadIdx.x; k < 1024; k += blockDim.x) g[k] = s[k];
#endif
}

extern "C" __global__ void bulk_s2s_cluster(float* out)
{
    __shared__ __align__(128) float src[256];
    __shared__ __align__(128) float dst[256];
    __shared__ __align__(8) unsigned long long bar;
    src[threadIdx.x & 255] = (float)threadIdx.x;
#ifdef SM90
    unsigned sb = smem_u32(&bar);
    if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(sb), "r"(1u) : "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(sb), "r"(1024u) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     :: "r"(smem_u32(dst)), "r"(smem_u32(src)), "r"(1024u), "r"(sb) : "memory");
    }
    unsigned done = 0;
    while (!done) {
        asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done) : "r"(sb), "r"(0u) : "memory");
    }
#else
    __syncthreads();
    dst[threadIdx.x & 255] = src[threadIdx.x & 255];
#endif
    out[threadIdx.x] = dst[(threadIdx.x + 1) & 255];
}

// L2 cache hint variant
__global__ void bulk_cache_hint(const float* g, unsigned bytes, float* out)
{
    __shared__ __align__(128) float s[512];
    __shared__ __align__(8) unsigned long long bar;
#ifdef SM90
    unsigned sb = smem_u32(&bar);
    if (threadIdx.x == 0) {
        unsigned long long pol;
        asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(sb) : "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(sb), "r"(bytes) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;"
                     :: "r"(smem_u32(s)), "l"(g), "r"(bytes), "r"(sb), "l"(pol) : "memory");
        asm volatile("cp.async.bulk.prefetch.L2.global.L2::cache_hint [%0], %1, %2;" :: "l"(g), "r"(bytes), "l"(pol) : "memory");
    }
    __syncthreads();
    unsigned done = 0;
    while (!done) {
        asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done) : "r"(sb), "r"(0u) : "memory");
    }
#endif
    out[threadIdx.x] = s[threadIdx.x & 511];
}
