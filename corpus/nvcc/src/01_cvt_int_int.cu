// Exercises cvt between integer types of every width and signedness (s8/u8/s16/u16/s32/u32/s64/u64).
#include <cstdint>

template <typename D, typename S>
__device__ __noinline__ D conv(S s) { return static_cast<D>(s); }

extern "C" __global__ void cvt_int_narrow(const long long* __restrict__ in,
                                          signed char* o8, unsigned char* ou8,
                                          short* o16, unsigned short* ou16,
                                          int* o32, unsigned* ou32, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long v = in[i];
    o8[i]   = (signed char)v;
    ou8[i]  = (unsigned char)v;
    o16[i]  = (short)v;
    ou16[i] = (unsigned short)v;
    o32[i]  = (int)v;
    ou32[i] = (unsigned)v;
}

extern "C" __global__ void cvt_int_widen(const signed char* s8, const unsigned char* u8,
                                         const short* s16, const unsigned short* u16,
                                         const int* s32, const unsigned* u32,
                                         long long* out_s, unsigned long long* out_u, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long a = (long long)s8[i] + (long long)s16[i] + (long long)s32[i];
    unsigned long long b = (unsigned long long)u8[i] + (unsigned long long)u16[i] + (unsigned long long)u32[i];
    // sign/zero extension of narrow values held in registers
    int x = s32[i];
    a += (signed char)x;
    a += (short)x;
    b += (unsigned char)x;
    b += (unsigned short)x;
    out_s[i] = a;
    out_u[i] = b;
}

__global__ void cvt_int_noinline(const int* in, long long* out)
{
    int t = threadIdx.x;
    int v = in[t];
    long long r = 0;
    r += conv<signed char>(v);
    r += conv<unsigned char>(v);
    r += conv<short>(v);
    r += conv<unsigned short>(v);
    r += conv<long long>(v);
    r += (long long)conv<unsigned long long>(conv<unsigned>(v));
    r += conv<int>(conv<unsigned long long>((unsigned long long)v * 3u));
    r += conv<short>(conv<signed char>(v));
    r += conv<unsigned short>(conv<unsigned char>(v));
    out[t] = r;
}

// explicit cvt via inline asm, including saturating integer conversions
__global__ void cvt_int_asm(const int* in, int* out)
{
    int t = threadIdx.x;
    int v = in[t];
    long long w = in[t + 32];
    int r0, r1, r2, r3;
    unsigned short h;
    asm volatile("cvt.sat.s8.s32 %0, %1;" : "=r"(r0) : "r"(v));
    asm volatile("cvt.sat.u8.s32 %0, %1;" : "=r"(r1) : "r"(v));
    asm volatile("cvt.sat.s16.s32 %0, %1;" : "=r"(r2) : "r"(v));
    asm volatile("cvt.sat.s32.s64 %0, %1;" : "=r"(r3) : "l"(w));
    asm volatile("cvt.u16.u32 %0, %1;" : "=h"(h) : "r"(v));
    long long e;
    asm volatile("cvt.s64.s16 %0, %1;" : "=l"(e) : "h"(h));
    out[t] = r0 + r1 + r2 + r3 + (int)e;
}
