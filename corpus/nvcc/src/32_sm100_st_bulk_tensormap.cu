// Exercises sm_100a/sm_90a-only data movement: st.bulk (sm_100) and tensormap.replace on shared::cta and global tensor maps (sm_90a/sm_100a); guarded so the file compiles for every arch.
#include <cstdint>

struct alignas(64) TMap { char b[128]; };

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
#define HAVE_ST_BULK 1
#endif
#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || defined(__CUDA_ARCH_FEAT_SM100_ALL)
#define HAVE_TENSORMAP_REPLACE 1
#endif

extern "C" __global__ void st_bulk_zero(float* out, unsigned bytes)
{
    __shared__ __align__(128) float s[2048];
#ifdef HAVE_ST_BULK
    unsigned a = (unsigned)__cvta_generic_to_shared(s);
    if (threadIdx.x == 0) {
        // 64-bit size operand: ptxas 13.0 rejected the 32-bit size form here
        asm volatile("st.bulk.weak.shared::cta [%0], %1, 0;" :: "r"(a), "l"((unsigned long long)bytes) : "memory");
        asm volatile("st.bulk.weak [%0], %1, 0;" :: "l"(s + 1024), "l"(4096ull) : "memory");
        asm volatile("st.bulk [%0], 1024, 0;" :: "l"(s + 512) : "memory");
    }
#else
    for (int k = threadIdx.x; k < 2048; k += blockDim.x) s[k] = 0.f;
#endif
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x & 2047];
}

extern "C" __global__ void tensormap_edit(const __grid_constant__ TMap tmap, TMap* gmaps, unsigned long long new_addr,
                                          unsigned dim, unsigned long long stride)
{
    __shared__ __align__(128) TMap smap;
    if (threadIdx.x < 32) reinterpret_cast<uint32_t*>(&smap)[threadIdx.x] = reinterpret_cast<const uint32_t*>(&tmap)[threadIdx.x];
    __syncthreads();
#ifdef HAVE_TENSORMAP_REPLACE
    if (threadIdx.x == 0) {
        unsigned sa = (unsigned)__cvta_generic_to_shared(&smap);
        asm volatile("tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;" :: "r"(sa), "l"(new_addr) : "memory");
        asm volatile("tensormap.replace.tile.rank.shared::cta.b1024.b32 [%0], %1;" :: "r"(sa), "r"(1u) : "memory");
        asm volatile("tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 0, %1;" :: "r"(sa), "r"(dim) : "memory");
        asm volatile("tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 1, %1;" :: "r"(sa), "r"(dim) : "memory");
        asm volatile("tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%0], 0, %1;" :: "r"(sa), "l"(stride) : "memory");
        asm volatile("tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%0], 0, %1;" :: "r"(sa), "r"(1u) : "memory");
        asm volatile("tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%0], 7;" :: "r"(sa) : "memory");
        asm volatile("tensormap.replace.tile.interleave_layout.shared::cta.b1024.b32 [%0], 0;" :: "r"(sa) : "memory");
        asm volatile("tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%0], 3;" :: "r"(sa) : "memory");
        asm volatile("tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [%0], 0;" :: "r"(sa) : "memory");
        asm volatile("tensormap.replace.tile.global_address.global.b1024.b64 [%0], %1;" :: "l"(gmaps), "l"(new_addr) : "memory");
        asm volatile("tensormap.replace.tile.rank.b1024.b32 [%0], %1;" :: "l"(gmaps + 1), "r"(2u) : "memory");
#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
        asm volatile("tensormap.replace.tile.swizzle_atomicity.shared::cta.b1024.b32 [%0], 1;" :: "r"(sa) : "memory");
#endif
    }
    __syncthreads();
#endif
    if (threadIdx.x < 32)
        reinterpret_cast<uint32_t*>(gmaps)[threadIdx.x] = reinterpret_cast<const uint32_t*>(&smap)[threadIdx.x];
}
