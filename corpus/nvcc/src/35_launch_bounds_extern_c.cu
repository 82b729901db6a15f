// Exercises kernel attributes: __launch_bounds__ (maxntid/minnctapersm/maxnctapercluster), __cluster_dims__ (reqnctapercluster), __maxnreg__, extern "C" vs mangled names, templates and namespaces.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define CLUSTER_DIMS(x, y, z)
#define LB3(a, b, c) __launch_bounds__(a, b)
#else
#define CLUSTER_DIMS(x, y, z) __cluster_dims__(x, y, z)
#define LB3(a, b, c) __launch_bounds__(a, b, c)
#endif

extern "C" __global__ void __launch_bounds__(256) lb_256(float* out) { out[threadIdx.x] = (float)threadIdx.x; }

extern "C" __global__ void __launch_bounds__(128, 4) lb_128_4(const float* in, float* out)
{
    out[blockIdx.x * 128 + threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x] * 2.f;
}

__global__ void LB3(128, 2, 4) lb_cluster_max(int* out) { out[threadIdx.x] = blockIdx.x; }

__global__ void CLUSTER_DIMS(2, 2, 1) clustered_2x2(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x; }

__global__ void __maxnreg__(64) maxnreg_64(const double* in, double* out)
{
    double a = in[threadIdx.x];
    out[threadIdx.x] = a * a + 1.0;
}

namespace ns {
template <typename T, int N>
__global__ void templ_kernel(const T* in, T* out)
{
    T acc = T(0);
#pragma unroll
    for (int k = 0; k < N; ++k) acc += in[threadIdx.x * N + k];
    out[threadIdx.x] = acc;
}
template __global__ void templ_kernel<float, 4>(const float*, float*);
template __global__ void templ_kernel<double, 2>(const double*, double*);
template __global__ void templ_kernel<unsigned char, 8>(const unsigned char*, unsigned char*);
template __global__ void templ_kernel<long long, 3>(const long long*, long long*);
}

extern "C" __device__ __noinline__ int c_linkage_helper(int x) { return x * 7 + 1; }

extern "C" __global__ void uses_c_helper(int* out) { out[threadIdx.x] = c_linkage_helper(threadIdx.x); }
