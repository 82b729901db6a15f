// Exercises cvt float<->int with explicit integer rounding (.rni/.rzi/.rmi/.rpi) via __float2int_*, __float2uint_*, __float2ll_*, __float2ull_*.
extern "C" __global__ void f2i_round(const float* __restrict__ x, int* oi, unsigned* ou,
                                     long long* oll, unsigned long long* oull, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    oi[4 * i + 0] = __float2int_rn(v);
    oi[4 * i + 1] = __float2int_rz(v);
    oi[4 * i + 2] = __float2int_ru(v);
    oi[4 * i + 3] = __float2int_rd(v);
    ou[4 * i + 0] = __float2uint_rn(v);
    ou[4 * i + 1] = __float2uint_rz(v);
    ou[4 * i + 2] = __float2uint_ru(v);
    ou[4 * i + 3] = __float2uint_rd(v);
    oll[4 * i + 0] = __float2ll_rn(v);
    oll[4 * i + 1] = __float2ll_rz(v);
    oll[4 * i + 2] = __float2ll_ru(v);
    oll[4 * i + 3] = __float2ll_rd(v);
    oull[4 * i + 0] = __float2ull_rn(v);
    oull[4 * i + 1] = __float2ull_rz(v);
    oull[4 * i + 2] = __float2ull_ru(v);
    oull[4 * i + 3] = __float2ull_rd(v);
}

// C casts: float -> narrow ints (cvt.rzi.s32.f32 then narrowing, or direct cvt to s16/u8)
__global__ void f2i_casts(const float* x, signed char* a, unsigned char* b, short* c, unsigned short* d)
{
    int i = threadIdx.x;
    float v = x[i];
    a[i] = (signed char)v;
    b[i] = (unsigned char)v;
    c[i] = (short)v;
    d[i] = (unsigned short)v;
}

__global__ void f_round_to_int_float(const float* x, float* y)
{
    int i = threadIdx.x;
    float v = x[i];
    y[5 * i + 0] = truncf(v);   // cvt.rzi.f32.f32
    y[5 * i + 1] = rintf(v);    // cvt.rni.f32.f32
    y[5 * i + 2] = floorf(v);   // cvt.rmi.f32.f32
    y[5 * i + 3] = ceilf(v);    // cvt.rpi.f32.f32
    y[5 * i + 4] = __saturatef(v); // cvt.sat.f32.f32
}

__global__ void f_asm_cvt(const float* x, int* y)
{
    int i = threadIdx.x;
    float v = x[i];
    int a, b;
    float c;
    asm volatile("cvt.rni.ftz.s32.f32 %0, %1;" : "=r"(a) : "f"(v));
    asm volatile("cvt.rzi.sat.u32.f32 %0, %1;" : "=r"(b) : "f"(v));
    asm volatile("cvt.rni.ftz.sat.f32.f32 %0, %1;" : "=f"(c) : "f"(v));
    y[i] = a + b + __float_as_int(c);
}
