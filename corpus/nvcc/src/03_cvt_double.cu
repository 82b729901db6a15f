// Exercises cvt with f64: __double2float_r*, __double2int_r*, __double2uint_r*, __double2ll_r*, __double2ull_r*, int/ll->double, f32<->f64.
__global__ void d2x(const double* __restrict__ x, float* of, int* oi, unsigned* ou,
                    long long* oll, unsigned long long* oull)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double v = x[i];
    of[4 * i + 0] = __double2float_rn(v);
    of[4 * i + 1] = __double2float_rz(v);
    of[4 * i + 2] = __double2float_ru(v);
    of[4 * i + 3] = __double2float_rd(v);
    oi[4 * i + 0] = __double2int_rn(v);
    oi[4 * i + 1] = __double2int_rz(v);
    oi[4 * i + 2] = __double2int_ru(v);
    oi[4 * i + 3] = __double2int_rd(v);
    ou[4 * i + 0] = __double2uint_rn(v);
    ou[4 * i + 1] = __double2uint_rz(v);
    ou[4 * i + 2] = __double2uint_ru(v);
    ou[4 * i + 3] = __double2uint_rd(v);
    oll[4 * i + 0] = __double2ll_rn(v);
    oll[4 * i + 1] = __double2ll_rz(v);
    oll[4 * i + 2] = __double2ll_ru(v);
    oll[4 * i + 3] = __double2ll_rd(v);
    oull[4 * i + 0] = __double2ull_rn(v);
    oull[4 * i + 1] = __double2ull_rz(v);
    oull[4 * i + 2] = __double2ull_ru(v);
    oull[4 * i + 3] = __double2ull_rd(v);
}

extern "C" __global__ void x2d(const int* a, const unsigned* b, const long long* c,
                               const unsigned long long* d, const float* f, double* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double r = 0.0;
    r += __int2double_rn(a[i]);
    r += __uint2double_rn(b[i]);
    r += __ll2double_rn(c[i]);
    r += __ll2double_rz(c[i]);
    r += __ll2double_ru(c[i]);
    r += __ll2double_rd(c[i]);
    r += __ull2double_rn(d[i]);
    r += __ull2double_rz(d[i]);
    r += __ull2double_ru(d[i]);
    r += __ull2double_rd(d[i]);
    r += (double)f[i];              // cvt.f64.f32
    r += trunc(r) + floor(r) + ceil(r) + rint(r); // cvt.r?i.f64.f64
    out[i] = r;
}

__global__ void d_casts(const double* x, signed char* a, unsigned short* b, float* c)
{
    int i = threadIdx.x;
    double v = x[i];
    a[i] = (signed char)v;
    b[i] = (unsigned short)v;
    c[i] = (float)v;
}
