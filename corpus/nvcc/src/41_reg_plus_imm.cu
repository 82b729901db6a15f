// Inline PTX with register-plus-immediate and variable-plus-immediate operands outside brackets: a store's source `r + 8`, mov of `r + 1`, addresses of shared and global variables plus offsets, generic addresses of named variables.
#include <cstdint>

__device__ uint32_t gtable[64];

extern "C" __global__ void reg_plus_imm(uint64_t* out, uint32_t* out32)
{
    __shared__ uint32_t stile[64];
    uint64_t base = reinterpret_cast<uint64_t>(out) + 8 * threadIdx.x;
    asm volatile("st.global.u64 [%0], %0 + 8;" : : "l"(base) : "memory");
    uint32_t t = threadIdx.x;
    uint32_t u;
    asm volatile("mov.u32 %0, %1 + 1;" : "=r"(u) : "r"(t));
    stile[threadIdx.x] = u;
    __syncthreads();
    uint64_t ga, sa;
    asm volatile("mov.u64 %0, gtable + 16;" : "=l"(ga));
    asm volatile("cvta.shared.u64 %0, %1;" : "=l"(sa) : "l"(static_cast<uint64_t>(__cvta_generic_to_shared(stile))));
    uint32_t x;
    asm volatile("ld.shared.u32 %0, [%1 + 4];" : "=r"(x) : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(stile))));
    out32[threadIdx.x] = x + static_cast<uint32_t>(ga) + static_cast<uint32_t>(sa) + gtable[threadIdx.x & 63];
}
