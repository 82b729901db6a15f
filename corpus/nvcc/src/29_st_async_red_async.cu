// Exercises st.async and red.async to remote shared::cluster memory with mbarrier complete_tx (sm_90), plus st.async.release.global (sm_100 guarded).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define CLUSTER_DIMS(x, y, z)
#else
#define CLUSTER_DIMS(x, y, z) __cluster_dims__(x, y, z)
#endif

__device__ __forceinline__ unsigned smem_u32(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

extern "C" __global__ void CLUSTER_DIMS(2, 1, 1) st_async_remote(unsigned* out, unsigned long long* out64)
{
    __shared__ __align__(16) unsigned s_buf[256];
    __shared__ __align__(8) unsigned long long bar;
    unsigned r = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    unsigned rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    unsigned sb = smem_u32(&bar);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(sb) : "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(sb), "r"(4u * 4u + 8u + 16u + 4u * 3u) : "memory");
    }
    asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
    if (threadIdx.x == 0) {
        unsigned peer = rank ^ 1u;
        unsigned rb, rbar;
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(rb) : "r"(smem_u32(s_buf)), "r"(peer));
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(rbar) : "r"(sb), "r"(peer));
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];"
                     :: "r"(rb), "r"(rank), "r"(rbar) : "memory");
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];"
                     :: "r"(rb + 4), "r"(7u), "r"(rbar) : "memory");
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.s32 [%0], %1, [%2];"
                     :: "r"(rb + 8), "r"(-1), "r"(rbar) : "memory");
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.f32 [%0], %1, [%2];"
                     :: "r"(rb + 12), "f"(1.5f), "r"(rbar) : "memory");
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.u64 [%0], %1, [%2];"
                     :: "r"(rb + 16), "l"(0x1234ull), "r"(rbar) : "memory");
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%0], {%1, %2, %3, %4}, [%5];"
                     :: "r"(rb + 32), "r"(1u), "r"(2u), "r"(3u), "r"(4u), "r"(rbar) : "memory");
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.f32 [%0], {%1, %2}, [%3];"
                     :: "r"(rb + 48), "f"(2.f), "f"(3.f), "r"(rbar) : "memory");
        asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%0], %1, [%2];"
                     :: "r"(rb + 64), "r"(1u), "r"(rbar) : "memory");
        asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.max.s32 [%0], %1, [%2];"
                     :: "r"(rb + 68), "r"(5), "r"(rbar) : "memory");
        asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32 [%0], %1, [%2];"
                     :: "r"(rb + 72), "r"(100u), "r"(rbar) : "memory");
        asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u64 [%0], %1, [%2];"
                     :: "r"(rb + 80), "l"(1ull), "r"(rbar) : "memory");
    }
    unsigned done = 0;
    while (!done) {
        asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done) : "r"(sb), "r"(0u) : "memory");
    }
    r = s_buf[threadIdx.x & 31];
    asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
#endif
    out[blockIdx.x * blockDim.x + threadIdx.x] = r;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
    asm volatile("st.async.release.gpu.global.u32 [%0], %1;" :: "l"(out + 1024), "r"(r) : "memory");
    asm volatile("st.async.release.sys.global.u64 [%0], %1;" :: "l"(out64), "l"((unsigned long long)r) : "memory");
#else
    out64[0] = r;
#endif
}
