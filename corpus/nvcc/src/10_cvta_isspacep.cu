// Exercises cvta in all directions (__cvta_generic_to_* and __cvta_*_to_generic) and isspacep (__isShared/__isGlobal/__isLocal/__isConstant/__isGridConstant).
#include <cstddef>

__constant__ float c_table[64];
__device__ int g_var[64];

__device__ __noinline__ size_t to_space(const void* p, int which)
{
    switch (which) {
    case 0: return __cvta_generic_to_shared(p);
    case 1: return __cvta_generic_to_global(p);
    case 2: return __cvta_generic_to_local(p);
    default: return __cvta_generic_to_constant(p);
    }
}

__device__ __noinline__ int classify(const void* p)
{
    int r = 0;
    if (__isShared(p)) r |= 1;
    if (__isGlobal(p)) r |= 2;
    if (__isLocal(p)) r |= 4;
    if (__isConstant(p)) r |= 8;
    return r;
}

extern "C" __global__ void cvta_all(float* gp, size_t* out, int* kinds, int sel)
{
    __shared__ float s_buf[128];
    float l_buf[16];
    int t = threadIdx.x;
    for (int k = 0; k < 16; ++k) l_buf[k] = gp[k + t];
    s_buf[t] = gp[t];
    __syncthreads();

    const void* ptrs[4] = { &s_buf[t], gp + t, &l_buf[t & 15], &c_table[t & 63] };
    out[4 * t + 0] = __cvta_generic_to_shared(ptrs[0]);
    out[4 * t + 1] = __cvta_generic_to_global(ptrs[1]);
    out[4 * t + 2] = __cvta_generic_to_local(ptrs[2]);
    out[4 * t + 3] = __cvta_generic_to_constant(ptrs[3]);
    out[4 * t + 0] += to_space(ptrs[sel & 3], sel);
    kinds[t] = classify(ptrs[sel & 3]) + classify(&g_var[t]);
}

__global__ void cvta_back(size_t saddr, size_t gaddr, size_t caddr, float* out)
{
    __shared__ float s_buf[32];
    s_buf[threadIdx.x & 31] = (float)threadIdx.x;
    __syncthreads();
    const float* s = (const float*)__cvta_shared_to_generic(saddr + 4 * (threadIdx.x & 31));
    const float* g = (const float*)__cvta_global_to_generic(gaddr);
    const float* c = (const float*)__cvta_constant_to_generic(caddr);
    float l_buf[8];
    for (int k = 0; k < 8; ++k) l_buf[k] = g[k] * 2.f;
    size_t la = __cvta_generic_to_local(&l_buf[threadIdx.x & 7]);
    const float* l = (const float*)__cvta_local_to_generic(la);
    out[threadIdx.x] = *s + *g + *c + *l + s_buf[0];
}

struct Params { int a[8]; float scale; };

__global__ void is_grid_constant(const __grid_constant__ Params p, int* out)
{
    const int* q = &p.a[threadIdx.x & 7];
    int r = __isGridConstant(q) ? 1 : 0;
    out[threadIdx.x] = r + *q;
}

__global__ void cvta_asm(const float* gp, unsigned long long* out)
{
    __shared__ int s_x[4];
    s_x[threadIdx.x & 3] = 1;
    unsigned long long r0, r1, r2, r3;
    asm volatile("cvta.to.global.u64 %0, %1;" : "=l"(r0) : "l"(gp));
    asm volatile("cvta.global.u64 %0, %1;" : "=l"(r1) : "l"(r0));
    asm volatile("cvta.to.shared.u64 %0, %1;" : "=l"(r3) : "l"(&s_x[0]));
    asm volatile("cvta.shared.u64 %0, %1;" : "=l"(r2) : "l"(r3));
    unsigned p;
    asm volatile("{\n\t.reg .pred q;\n\tisspacep.global q, %1;\n\tselp.u32 %0, 1, 0, q;\n}" : "=r"(p) : "l"(gp));
    out[threadIdx.x] = r0 + r1 + r2 + p;
}
