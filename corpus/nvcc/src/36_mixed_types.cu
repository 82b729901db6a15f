// Exercises mixed-type arithmetic that forces conversions between double, float, half2, bfloat162, long long and unsigned char inside loops.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

extern "C" __global__ void mixed_loop(const unsigned char* __restrict__ u8, const __half2* __restrict__ h2,
                                      const __nv_bfloat162* __restrict__ b2, const long long* __restrict__ ll,
                                      double* __restrict__ out, __half2* oh, __nv_bfloat162* ob, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    double acc = 0.0;
    __half2 hacc = __float2half2_rn(0.f);
    __nv_bfloat162 bacc = __float2bfloat162_rn(0.f);
    for (int k = t; k < n; k += gridDim.x * blockDim.x) {
        unsigned char c = u8[k];
        float2 hf = __half22float2(h2[k]);
        float2 bf = __bfloat1622float2(b2[k]);
        long long l = ll[k];
        acc += (double)c + hf.x * (double)hf.y + bf.x - bf.y + (double)l * 1e-9;
        hacc = __hadd2(hacc, __floats2half2_rn((float)c, (float)(l & 0xff)));
        bacc = __hadd2(bacc, __floats2bfloat162_rn(hf.x, bf.y));
        if (acc > 1e12) acc = (double)(long long)acc;
    }
    out[t] = acc;
    oh[t] = hacc;
    ob[t] = bacc;
}

__global__ void narrowing_chain(const double* d, unsigned char* uc, __half* h, __nv_bfloat16* b, long long* l)
{
    int t = threadIdx.x;
    double v = d[t];
    float f = (float)v;
    uc[t] = (unsigned char)f;
    h[t] = __double2half(v);
    b[t] = __float2bfloat16(f);
    l[t] = (long long)v + (long long)uc[t];
}

__global__ void half_to_double(const __half* h, const __nv_bfloat16* b, double* out)
{
    int t = threadIdx.x;
    out[t] = (double)__half2float(h[t]) + (double)__bfloat162float(b[t]) + (double)(float)b[t];
}
