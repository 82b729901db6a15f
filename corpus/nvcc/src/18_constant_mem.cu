// Exercises .const state space: __constant__ scalars, arrays, structs and vectors (ld.const), constant banks via indexed and uniform access.
struct Coeffs { float a[4]; double d; int n; };

__constant__ float c_f[256];
__constant__ double c_d[32];
__constant__ int4 c_i4[16];
__constant__ Coeffs c_coef;
__constant__ unsigned char c_bytes[64];
__constant__ long long c_ll[8];
__constant__ short c_s[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };

extern "C" __global__ void const_uniform(float* out)
{
    int t = threadIdx.x;
    float s = c_coef.a[0] + c_coef.a[3] + (float)c_coef.d + c_coef.n;
    out[t] = s * t + c_f[7];
}

__global__ void const_indexed(const int* idx, double* out)
{
    int t = threadIdx.x;
    int i = idx[t];
    int4 v = c_i4[i & 15];
    double r = c_f[i & 255] + c_d[i & 31] + v.x + v.w + c_bytes[i & 63] + (double)c_ll[i & 7] + c_s[i & 15];
    for (int k = 0; k < c_coef.n; ++k) r += c_coef.a[k & 3];
    out[t] = r;
}

__global__ void const_asm(float* out)
{
    float v;
    asm volatile("ld.const.f32 %0, [c_f+16];" : "=f"(v));
    out[threadIdx.x] = v;
}
