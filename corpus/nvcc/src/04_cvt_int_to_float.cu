// Exercises cvt int->float with float rounding (.rn/.rz/.rm/.rp): __int2float_r*, __uint2float_r*, __ll2float_r*, __ull2float_r*.
extern "C" __global__ void i2f_round(const int* a, const unsigned* b, const long long* c,
                                     const unsigned long long* d, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float r = 0.f;
    r += __int2float_rn(a[i]);
    r += __int2float_rz(a[i]);
    r += __int2float_ru(a[i]);
    r += __int2float_rd(a[i]);
    r += __uint2float_rn(b[i]);
    r += __uint2float_rz(b[i]);
    r += __uint2float_ru(b[i]);
    r += __uint2float_rd(b[i]);
    r += __ll2float_rn(c[i]);
    r += __ll2float_rz(c[i]);
    r += __ll2float_ru(c[i]);
    r += __ll2float_rd(c[i]);
    r += __ull2float_rn(d[i]);
    r += __ull2float_rz(d[i]);
    r += __ull2float_ru(d[i]);
    r += __ull2float_rd(d[i]);
    out[i] = r;
}

__global__ void narrow_i2f(const signed char* a, const unsigned char* b, const short* c,
                           const unsigned short* d, float* out)
{
    int i = threadIdx.x;
    out[i] = (float)a[i] + (float)b[i] + (float)c[i] + (float)d[i];
}

__global__ void i2f_asm(const short* s, const unsigned char* u, float* out)
{
    int i = threadIdx.x;
    float a, b;
    short sv = s[i];
    unsigned short uv = u[i];
    asm volatile("cvt.rn.f32.s16 %0, %1;" : "=f"(a) : "h"(sv));
    asm volatile("cvt.rz.f32.u16 %0, %1;" : "=f"(b) : "h"(uv));
    double d;
    asm volatile("cvt.rn.f64.s16 %0, %1;" : "=d"(d) : "h"(sv));
    out[i] = a + b + (float)d;
}
