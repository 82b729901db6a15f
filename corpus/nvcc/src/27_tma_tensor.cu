// Exercises tensor (TMA) copies (sm_90): cp.async.bulk.tensor 1d/2d/3d load (incl. multicast), store, reduce, prefetch.tensor, prefetch.tensormap, with a __grid_constant__ tensor map parameter.
#include <cstdint>

struct alignas(64) TMap { char b[128]; };

__device__ __forceinline__ unsigned smem_u32(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define SM90 1
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define CLUSTER_DIMS(x, y, z)
#else
#define CLUSTER_DIMS(x, y, z) __cluster_dims__(x, y, z)
#endif

__device__ __forceinline__ void wait_parity(unsigned bar, unsigned phase)
{
#ifdef SM90
    unsigned done = 0;
    while (!done) {
        asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done) : "r"(bar), "r"(phase) : "memory");
    }
#endif
}

extern "C" __global__ void tma_load_2d(const __grid_constant__ TMap tmap, float* out, int x0, int y0)
{
    __shared__ __align__(128) float tile[64 * 64];
    __shared__ __align__(8) unsigned long long bar;
    unsigned sb = smem_u32(&bar);
#ifdef SM90
    uint64_t tm = reinterpret_cast<uint64_t>(&tmap);
    if (threadIdx.x == 0) {
        asm volatile("prefetch.tensormap [%0];" :: "l"(tm) : "memory");
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(sb), "r"(1u) : "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(sb), "r"(64u * 64u * 4u) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                     :: "r"(smem_u32(tile)), "l"(tm), "r"(x0), "r"(y0), "r"(sb) : "memory");
    }
    __syncthreads();
    wait_parity(sb, 0);
#endif
    out[threadIdx.x] = tile[threadIdx.x * 17 & 4095];
}

extern "C" __global__ void tma_load_1d_3d(const __grid_constant__ TMap t1, const __grid_constant__ TMap t3,
                                         float* out, int x, int y, int z)
{
    __shared__ __align__(128) float a[256];
    __shared__ __align__(128) float b[8 * 8 * 8];
    __shared__ __align__(8) unsigned long long bar;
    unsigned sb = smem_u32(&bar);
#ifdef SM90
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(sb) : "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(sb), "r"(1024u + 2048u) : "memory");
        asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
                     :: "r"(smem_u32(a)), "l"(&t1), "r"(x), "r"(sb) : "memory");
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                     :: "r"(smem_u32(b)), "l"(&t3), "r"(x), "r"(y), "r"(z), "r"(sb) : "memory");
    }
    __syncthreads();
    wait_parity(sb, 0);
#endif
    out[threadIdx.x] = a[threadIdx.x & 255] + b[threadIdx.x & 511];
}

extern "C" __global__ void CLUSTER_DIMS(2, 1, 1) tma_multicast(const __grid_constant__ TMap tmap, float* out, int x0, int y0)
{
    __shared__ __align__(128) float tile[32 * 32];
    __shared__ __align__(8) unsigned long long bar;
    unsigned sb = smem_u32(&bar);
#ifdef SM90
    if (threadIdx.x == 0) {
        unsigned short mask = 0x3;
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(sb) : "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(sb), "r"(4096u) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
                     " [%0], [%1, {%2, %3}], [%4], %5;"
                     :: "r"(smem_u32(tile)), "l"(&tmap), "r"(x0), "r"(y0), "r"(sb), "h"(mask) : "memory");
    }
    __syncthreads();
    wait_parity(sb, 0);
#endif
    out[threadIdx.x] = tile[threadIdx.x & 1023];
}

extern "C" __global__ void tma_store_reduce_prefetch(const __grid_constant__ TMap tmap, const float* in, int x0, int y0)
{
    __shared__ __align__(128) float tile[64 * 64];
    for (int k = threadIdx.x; k < 64 * 64; k += blockDim.x) tile[k] = in[k];
#ifdef SM90
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];"
                     :: "l"(&tmap), "r"(x0), "r"(y0) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
                     :: "l"(&tmap), "r"(x0), "r"(y0), "r"(smem_u32(tile)) : "memory");
        asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];"
                     :: "l"(&tmap), "r"(x0), "r"(y0 + 64), "r"(smem_u32(tile)) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
    __syncthreads();
#endif
}
