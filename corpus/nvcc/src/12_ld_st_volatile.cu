// Exercises ld.volatile/st.volatile in global, shared and generic spaces, plus spin loops on volatile flags.
__device__ volatile int g_flag;
__device__ int g_data[256];

extern "C" __global__ void volatile_global(volatile int* p, volatile double* d, volatile unsigned char* c, int n)
{
    int t = threadIdx.x;
    int s = 0;
    for (int k = 0; k < n; ++k) s += p[t + k];
    p[t] = s;
    d[t] = d[t + 1] * 2.0;
    c[t] = c[t + 1] + 1;
}

__global__ void volatile_shared(int* out)
{
    __shared__ volatile int s_v[64];
    __shared__ volatile long long s_l[64];
    int t = threadIdx.x;
    s_v[t] = t;
    s_l[t] = t * 3ll;
    __syncthreads();
    int r = s_v[(t + 1) & 63] + (int)s_l[(t + 2) & 63];
    out[t] = r;
}

__global__ void spin_wait(int* out)
{
    if (threadIdx.x == 0) {
        while (g_flag == 0) { }
        out[blockIdx.x] = g_data[blockIdx.x];
        g_flag = 0;
    }
}

__device__ __noinline__ int read_generic_volatile(volatile int* p) { return *p + p[1]; }

__global__ void volatile_generic(int* g, int* out)
{
    __shared__ int sh[32];
    sh[threadIdx.x & 31] = threadIdx.x;
    __syncthreads();
    volatile int* p = (threadIdx.x & 1) ? (volatile int*)g : (volatile int*)sh;
    out[threadIdx.x] = read_generic_volatile(p);
}
