// Exercises .shared: static and dynamic (extern) shared memory, ld/st.shared of all widths and vectors, shared::cta qualifiers.
#include <cuda_fp16.h>

extern "C" __global__ void shared_static(const float* in, float* out)
{
    __shared__ float s_f[256];
    __shared__ double s_d[64];
    __shared__ float4 s_f4[64];
    __shared__ unsigned char s_c[256];
    __shared__ short s_s[128];
    __shared__ long long s_l[32];
    int t = threadIdx.x;
    s_f[t] = in[t];
    s_d[t & 63] = in[t] * 2.0;
    s_f4[t & 63] = make_float4(in[t], 1.f, 2.f, 3.f);
    s_c[t] = (unsigned char)t;
    s_s[t & 127] = (short)t;
    s_l[t & 31] = (long long)t << 32;
    __syncthreads();
    float4 v = s_f4[(t + 1) & 63];
    out[t] = s_f[255 - t] + (float)s_d[(t + 3) & 63] + v.x + v.w + s_c[(t * 7) & 255] + s_s[(t + 5) & 127]
           + (float)(s_l[(t + 1) & 31] >> 32);
}

extern __shared__ unsigned char dyn_smem[];

__global__ void shared_dynamic(const int* in, int* out, int n)
{
    int* s_i = reinterpret_cast<int*>(dyn_smem);
    int2* s_i2 = reinterpret_cast<int2*>(dyn_smem + n * sizeof(int));
    __half2* s_h2 = reinterpret_cast<__half2*>(dyn_smem + n * sizeof(int) + n * sizeof(int2));
    int t = threadIdx.x;
    for (int k = t; k < n; k += blockDim.x) {
        s_i[k] = in[k];
        s_i2[k] = make_int2(in[k], -in[k]);
        s_h2[k] = __floats2half2_rn((float)in[k], 1.f);
    }
    __syncthreads();
    int r = 0;
    for (int k = 0; k < n; ++k) {
        int2 v = s_i2[(k + t) % n];
        r += s_i[k] * v.x - v.y + (int)__low2float(s_h2[k]);
    }
    out[t] = r;
}

__global__ void shared_double_buffer(const float* in, float* out, int iters)
{
    __shared__ float buf[2][128];
    int t = threadIdx.x;
    buf[0][t] = in[t];
    __syncthreads();
    for (int it = 0; it < iters; ++it) {
        int cur = it & 1;
        buf[cur ^ 1][t] = 0.5f * (buf[cur][t] + buf[cur][(t + 1) & 127]);
        __syncthreads();
    }
    out[t] = buf[iters & 1][t];
}

__global__ void shared_asm(unsigned* out)
{
    __shared__ unsigned s_u[64];
    unsigned a = (unsigned)__cvta_generic_to_shared(&s_u[threadIdx.x & 63]);
    unsigned v;
    asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"((unsigned)threadIdx.x) : "memory");
    asm volatile("st.shared::cta.b32 [%0+4], %1;" :: "r"(a), "r"(7u) : "memory");
    __syncthreads();
    asm volatile("ld.shared::cta.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
    unsigned v2a, v2b;
    asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(v2a), "=r"(v2b) : "r"(a & ~7u) : "memory");
    out[threadIdx.x] = v + v2a + v2b;
}
