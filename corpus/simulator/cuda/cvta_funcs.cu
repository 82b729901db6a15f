// The CUDA C++ address space conversion functions (CUDA C++ Programming
// Guide 10.16, `__cvta_*`) and address-space predicates, compiled to PTX by
// nvcc; the PTX nvcc made runs on the GPU and on the simulator.
// One CTA of 64 threads. Thread t writes 16 words at out[16*t]:
//  0..5  classification bits of six pointers (shared 1, global 2, local 4,
//        constant 8, grid constant 16), picked at run time through `sel`
//  6     round-trip flags: bit 0 shared through 32 bits, 1 local through 32
//        bits, 2 constant through 32 bits, 3 global, 4 grid constant,
//        5 consecutive shared words are 4 apart in the shared space,
//        6 the shared representation fits in 32 bits
//  7..11 loads through the pointers converted back to generic
//  12    the low word of the grid-constant parameter read generically
//  13..15 zero
#include <cstddef>
#include <cstdint>

__constant__ unsigned c_tab[16] = {0x10203040u, 0x50607080u, 0x90a0b0c0u, 0xd0e0f000u,
                                   1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 12u};
__device__ unsigned g_tab[64];

__device__ __forceinline__ unsigned classify(const void* p)
{
    return (__isShared(p) ? 1u : 0u) | (__isGlobal(p) ? 2u : 0u) | (__isLocal(p) ? 4u : 0u) |
           (__isConstant(p) ? 8u : 0u) | (__isGridConstant(p) ? 16u : 0u);
}

extern "C" __global__ void cvta_funcs(const unsigned* in, unsigned* out,
                                      const __grid_constant__ unsigned long long k, int sel)
{
    __shared__ unsigned s_buf[64];
    unsigned l_buf[8];
    const int t = threadIdx.x;
    s_buf[t] = in[t] ^ 0x5a5a5a5au;
    g_tab[t] = in[t] + 7u;
    for (int i = 0; i < 8; ++i) l_buf[i] = in[(t + i) & 63] * 3u;
    __syncthreads();

    const void* ps = &s_buf[(t + 1) & 63];
    const void* pl = &l_buf[t & 7];
    const void* pc = &c_tab[t & 15];
    const void* pg = &g_tab[(t + 2) & 63];
    const void* pi = &in[t];
    const void* pk = &k;
    const void* ptrs[6] = {ps, pl, pc, pg, pi, pk};
    unsigned* o = out + 16 * t;
    for (int i = 0; i < 6; ++i) o[i] = classify(ptrs[(i + sel) % 6]);

    unsigned f = 0;
    const uint32_t s32 = (uint32_t)__cvta_generic_to_shared(ps);
    f |= (__cvta_shared_to_generic((size_t)s32) == ps) ? 1u : 0u;
    const uint32_t l32 = (uint32_t)__cvta_generic_to_local(pl);
    f |= (__cvta_local_to_generic((size_t)l32) == pl) ? 2u : 0u;
    const uint32_t c32 = (uint32_t)__cvta_generic_to_constant(pc);
    f |= (__cvta_constant_to_generic((size_t)c32) == pc) ? 4u : 0u;
    const size_t g64 = __cvta_generic_to_global(pg);
    f |= (__cvta_global_to_generic(g64) == pg) ? 8u : 0u;
    const size_t k64 = __cvta_generic_to_grid_constant(pk);
    f |= (__cvta_grid_constant_to_generic(k64) == pk) ? 16u : 0u;
    const size_t s_next = __cvta_generic_to_shared(&s_buf[(t + 2) & 63]);
    f |= (((t + 2) & 63) == ((t + 1) & 63) + 1) ? ((s_next - s32 == 4) ? 32u : 0u) : 32u;
    f |= (__cvta_generic_to_shared(ps) >> 32) == 0 ? 64u : 0u;
    o[6] = f;

    o[7] = *(const unsigned*)__cvta_shared_to_generic((size_t)s32);
    o[8] = *(const unsigned*)__cvta_local_to_generic((size_t)l32);
    o[9] = *(const unsigned*)__cvta_constant_to_generic((size_t)c32);
    o[10] = *(const unsigned*)__cvta_global_to_generic(g64);
    o[11] = *(const unsigned*)pi;
    o[12] = (unsigned)*(const unsigned long long*)__cvta_grid_constant_to_generic(k64);
    o[13] = 0;
    o[14] = 0;
    o[15] = 0;
}
