// Exercises ld/st qualifiers via inline asm: .weak/.relaxed/.acquire/.release/.volatile/.mmio, scopes, .L1::evict_*, .L2::64B/128B/256B prefetch sizes, vectors, ld.param.
#include <cstdint>

extern "C" __global__ void ld_sem_scope(const unsigned* p, unsigned* q, unsigned long long* w)
{
    int t = threadIdx.x;
    const unsigned* a = p + t;
    unsigned r0, r1, r2, r3, r4, r5;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(r0) : "l"(a) : "memory");
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(r1) : "l"(a) : "memory");
    asm volatile("ld.relaxed.sys.global.u32 %0, [%1];" : "=r"(r2) : "l"(a) : "memory");
    asm volatile("ld.acquire.cta.u32 %0, [%1];" : "=r"(r3) : "l"(a) : "memory");
    asm volatile("ld.weak.global.u32 %0, [%1];" : "=r"(r4) : "l"(a) : "memory");
    asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(r5) : "l"(a) : "memory");
    unsigned sum = r0 + r1 + r2 + r3 + r4 + r5;
    asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" :: "l"(q + t), "r"(sum) : "memory");
    asm volatile("st.release.sys.global.u32 [%0], %1;" :: "l"(q + t + 32), "r"(sum) : "memory");
    asm volatile("st.release.cta.u32 [%0], %1;" :: "l"(q + t + 64), "r"(sum) : "memory");
    asm volatile("st.volatile.global.u32 [%0], %1;" :: "l"(q + t + 96), "r"(sum) : "memory");
    unsigned long long m;
    asm volatile("ld.mmio.relaxed.sys.global.u64 %0, [%1];" : "=l"(m) : "l"(w + t) : "memory");
    asm volatile("st.mmio.relaxed.sys.global.u64 [%0], %1;" :: "l"(w + t + 32), "l"(m) : "memory");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    unsigned r6;
    asm volatile("ld.acquire.cluster.global.u32 %0, [%1];" : "=r"(r6) : "l"(a) : "memory");
    asm volatile("st.release.cluster.global.u32 [%0], %1;" :: "l"(q + t + 128), "r"(r6) : "memory");
#endif
}

__global__ void ld_eviction(const float* p, float* q)
{
    int t = threadIdx.x;
    float a, b, c, d, e, f, g;
    asm volatile("ld.global.L1::evict_last.f32 %0, [%1];" : "=f"(a) : "l"(p + t));
    asm volatile("ld.global.L1::evict_first.f32 %0, [%1];" : "=f"(b) : "l"(p + t + 32));
    asm volatile("ld.global.L1::no_allocate.f32 %0, [%1];" : "=f"(c) : "l"(p + t + 64));
    asm volatile("ld.global.L2::64B.f32 %0, [%1];" : "=f"(d) : "l"(p + t + 96));
    asm volatile("ld.global.L2::128B.f32 %0, [%1];" : "=f"(e) : "l"(p + t + 128));
    asm volatile("ld.global.L2::256B.f32 %0, [%1];" : "=f"(f) : "l"(p + t + 160));
    asm volatile("ld.global.nc.L1::evict_last.L2::128B.f32 %0, [%1];" : "=f"(g) : "l"(p + t + 192));
    float4 v;
    asm volatile("ld.global.ca.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p + 4 * t));
    double2 dv;
    asm volatile("ld.global.cg.v2.f64 {%0, %1}, [%2];" : "=d"(dv.x), "=d"(dv.y) : "l"(p + 8 * t));
    float s = a + b + c + d + e + f + g + v.x + v.w + (float)dv.x + (float)dv.y;
    asm volatile("st.global.L1::no_allocate.f32 [%0], %1;" :: "l"(q + t), "f"(s));
    asm volatile("st.global.cs.v2.f32 [%0], {%1, %2};" :: "l"(q + 2 * t + 64), "f"(s), "f"(a));
    asm volatile("st.global.wb.v4.u32 [%0], {%1, %2, %3, %4};" :: "l"(q + 4 * t + 256),
                 "r"(1u), "r"(2u), "r"(__float_as_uint(s)), "r"(4u));
}

__global__ void ld_wide_sm100(const float* p, float* q)
{
    float s = 0.f;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
    int t = threadIdx.x;
    float v0, v1, v2, v3, v4, v5, v6, v7;
    asm volatile("ld.global.v8.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8];"
                 : "=f"(v0), "=f"(v1), "=f"(v2), "=f"(v3), "=f"(v4), "=f"(v5), "=f"(v6), "=f"(v7)
                 : "l"(p + 8 * t));
    s = v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7;
    asm volatile("st.global.v8.f32 [%0], {%1, %1, %1, %1, %1, %1, %1, %1};" :: "l"(q + 8 * t), "f"(s));
#else
    s = p[threadIdx.x];
#endif
    q[threadIdx.x] = s;
}

__global__ void ld_unified_and_sink(const int* p, int* q)
{
    int r;
    asm volatile("ld.global.nc.b32 %0, [%1];" : "=r"(r) : "l"(p));
    int u;
    asm volatile("ld.global.nc.L1::no_allocate.b32 %0, [%1];" : "=r"(u) : "l"(p + 1));
    q[threadIdx.x] = r + u;
}
