// Exercises cp.async via inline asm: .ca/.cg, cp-size 4/8/16, src-size zfill, .L2::128B/.L2::256B prefetch, ignore-src predicate, commit_group, wait_group, wait_all, cp.async.mbarrier.arrive.
#include <cstdint>

__device__ __forceinline__ unsigned smem_u32(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

extern "C" __global__ void cp_async_variants(const int* __restrict__ g, int* out, int valid)
{
    __shared__ __align__(16) int s[8 * 128];
    int t = threadIdx.x;
    unsigned d = smem_u32(&s[4 * t]);
    const int* src = g + 4 * t;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(d), "l"(src) : "memory");
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(d + 512), "l"(src) : "memory");
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(d + 1024), "l"(src) : "memory");
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(d + 2048), "l"(src) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;" :: "r"(d + 3072), "l"(src) : "memory");
    asm volatile("cp.async.ca.shared.global.L2::256B [%0], [%1], 16;" :: "r"(d), "l"(src + 4) : "memory");
    int n = t < valid ? 16 : 0;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(d + 1024), "l"(src), "r"(n) : "memory");
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ge.s32 p, %2, %3;\n\t"
                 "cp.async.ca.shared.global [%0], [%1], 16, p;\n}"
                 :: "r"(d + 2048), "l"(src), "r"(t), "r"(valid) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 1;" ::: "memory");
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
#else
    s[4 * t] = src[0];
#endif
    __syncthreads();
    out[t] = s[(4 * t + 5) & 1023];
}

extern "C" __global__ void cp_async_mbarrier_arrive(const int4* __restrict__ g, int* out)
{
    __shared__ __align__(16) int4 s[128];
    __shared__ __align__(8) unsigned long long bar;
    int t = threadIdx.x;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    unsigned b = smem_u32(&bar);
    if (t == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(b), "r"((unsigned)blockDim.x) : "memory");
    __syncthreads();
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(smem_u32(&s[t])), "l"(g + t) : "memory");
    asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" :: "r"(b) : "memory");
    asm volatile("cp.async.mbarrier.arrive.shared.b64 [%0];" :: "r"(b) : "memory");
    unsigned long long state;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(b) : "memory");
    unsigned done = 0;
    while (!done) {
        asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.shared.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done) : "r"(b), "l"(state) : "memory");
    }
#else
    s[t] = g[t];
    __syncthreads();
#endif
    int4 v = s[(t + 1) & 127];
    out[t] = v.x + v.w;
}
