// Exercises the libcu++ <cuda/ptx> wrappers (sm_90): mbarrier_init, mbarrier_arrive_expect_tx, cp_async_bulk (g2s and s2g), fence_proxy_async, bulk commit/wait_group, get_sreg_laneid.
#include <cuda/ptx>
#include <cstdint>

extern "C" __global__ void ptx_wrappers(const float* __restrict__ g, float* gout, unsigned* lanes)
{
    __shared__ __align__(128) float s[1024];
    __shared__ __align__(8) uint64_t bar;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    namespace ptx = cuda::ptx;
    lanes[threadIdx.x] = ptx::get_sreg_laneid();
    if (threadIdx.x == 0) ptx::mbarrier_init(&bar, 1u);
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, 4096u);
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, s, g, 4096u, &bar);
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 0u)) { }
    for (int k = threadIdx.x; k < 1024; k += blockDim.x) s[k] *= 2.f;
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, gout, s, 4096u);
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    }
#else
    for (int k = threadIdx.x; k < 1024; k += blockDim.x) gout[k] = 2.f * g[k];
    lanes[threadIdx.x] = threadIdx.x & 31;
#endif
}
