// Exercises ld/st with memory-order semantics (ld.acquire/ld.relaxed/st.release, scopes) via cuda::atomic_ref load/store.
#include <cuda/atomic>

extern "C" __global__ void atomic_ref_global(int* flag, int* data, long long* wide, int* out)
{
    int t = threadIdx.x;
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    cuda::atomic_ref<int, cuda::thread_scope_system> d(data[t]);
    cuda::atomic_ref<long long, cuda::thread_scope_block> w(wide[t]);
    if (t == 0) {
        d.store(42, cuda::memory_order_relaxed);
        f.store(1, cuda::memory_order_release);
    }
    int r = 0;
    while (f.load(cuda::memory_order_acquire) == 0) { }
    r += d.load(cuda::memory_order_relaxed);
    r += d.load(cuda::memory_order_seq_cst);
    w.store((long long)r, cuda::memory_order_relaxed);
    r += (int)w.load(cuda::memory_order_acquire);
    out[t] = r;
}

__global__ void atomic_ref_shared(float* out)
{
    __shared__ float s_val[32];
    __shared__ unsigned s_flag;
    int t = threadIdx.x;
    cuda::atomic_ref<float, cuda::thread_scope_block> v(s_val[t & 31]);
    cuda::atomic_ref<unsigned, cuda::thread_scope_block> fl(s_flag);
    v.store((float)t, cuda::memory_order_relaxed);
    if (t == 0) fl.store(1u, cuda::memory_order_release);
    __syncthreads();
    float r = v.load(cuda::memory_order_relaxed);
    if (fl.load(cuda::memory_order_acquire)) r += 1.f;
    out[t] = r;
}

__global__ void atomic_ref_double(double* p, double* out)
{
    cuda::atomic_ref<double, cuda::thread_scope_device> a(p[threadIdx.x]);
    a.store(1.5, cuda::memory_order_release);
    out[threadIdx.x] = a.load(cuda::memory_order_acquire);
}
