// Exercises cuda::memcpy_async with cuda::barrier and cooperative_groups::memcpy_async/wait (lowered to cp.async / cp.async.bulk and mbarrier ops).
#include <cuda/barrier>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

extern "C" __global__ void cuda_barrier_copy(const float* __restrict__ in, float* out, int n)
{
    __shared__ __align__(16) float s[512];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.num_threads());
    block.sync();
    for (int base = 0; base < n; base += 512) {
        cuda::memcpy_async(block, s, in + base, cuda::aligned_size_t<16>(sizeof(float) * 512), bar);
        bar.arrive_and_wait();
        out[base + threadIdx.x] = s[(threadIdx.x * 5) & 511];
        block.sync();
    }
}

__global__ void cg_memcpy(const int* __restrict__ in, int* out)
{
    __shared__ __align__(16) int s[1024];
    auto block = cg::this_thread_block();
    cg::memcpy_async(block, s, in + blockIdx.x * 1024, sizeof(int) * 1024);
    cg::wait(block);
    out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x * 3) & 1023];
}

__global__ void cuda_memcpy_async_thread(const double* __restrict__ in, double* out)
{
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ __align__(16) double s[256];
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    cuda::memcpy_async(&s[threadIdx.x], &in[threadIdx.x], cuda::aligned_size_t<8>(sizeof(double)), bar);
    bar.arrive_and_wait();
    out[threadIdx.x] = s[(threadIdx.x + 1) & 255];
}
