// Exercises multimem.ld_reduce / multimem.st / multimem.red via inline asm (sm_90; emitted only, never run: needs multicast objects).
extern "C" __global__ void multimem_ops(float* mc_f, unsigned* mc_u, unsigned long long* mc_ull, float* out)
{
    float r = 0.f;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    int t = threadIdx.x;
    float f;
    unsigned u;
    unsigned long long ull;
    asm volatile("multimem.ld_reduce.relaxed.sys.global.add.f32 %0, [%1];" : "=f"(f) : "l"(mc_f + t) : "memory");
    asm volatile("multimem.ld_reduce.acquire.gpu.global.add.u32 %0, [%1];" : "=r"(u) : "l"(mc_u + t) : "memory");
    asm volatile("multimem.ld_reduce.weak.global.min.u32 %0, [%1];" : "=r"(u) : "l"(mc_u + t + 32) : "memory");
    asm volatile("multimem.ld_reduce.and.b32 %0, [%1];" : "=r"(u) : "l"(mc_u + t + 64) : "memory");
    asm volatile("multimem.ld_reduce.relaxed.sys.global.max.u64 %0, [%1];" : "=l"(ull) : "l"(mc_ull + t) : "memory");
    float4 v;
    asm volatile("multimem.ld_reduce.relaxed.sys.global.add.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(mc_f + 4 * t) : "memory");
    unsigned h2;
    asm volatile("multimem.ld_reduce.relaxed.sys.global.add.acc::f32.f16x2 %0, [%1];" : "=r"(h2) : "l"(mc_u + t) : "memory");
    unsigned b2a, b2b;
    asm volatile("multimem.ld_reduce.relaxed.sys.global.add.acc::f32.v2.bf16x2 {%0, %1}, [%2];"
                 : "=r"(b2a), "=r"(b2b) : "l"(mc_u + 2 * t) : "memory");
    asm volatile("multimem.st.relaxed.sys.global.f32 [%0], %1;" :: "l"(mc_f + t), "f"(f) : "memory");
    asm volatile("multimem.st.release.gpu.global.u32 [%0], %1;" :: "l"(mc_u + t), "r"(u) : "memory");
    asm volatile("multimem.st.weak.global.v4.f32 [%0], {%1, %2, %3, %4};"
                 :: "l"(mc_f + 4 * t), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w) : "memory");
    asm volatile("multimem.red.relaxed.sys.global.add.u32 [%0], %1;" :: "l"(mc_u + t), "r"(1u) : "memory");
    asm volatile("multimem.red.release.gpu.global.add.f32 [%0], %1;" :: "l"(mc_f + t), "f"(1.f) : "memory");
    asm volatile("multimem.red.relaxed.gpu.global.add.u64 [%0], %1;" :: "l"(mc_ull + t), "l"(2ull) : "memory");
    asm volatile("multimem.red.relaxed.sys.global.add.v2.f16x2 [%0], {%1, %2};" :: "l"(mc_u + 2 * t), "r"(h2), "r"(h2) : "memory");
    r = f + (float)u + (float)ull + v.x + (float)(h2 ^ b2a ^ b2b);
#endif
    out[threadIdx.x] = r;
}
