// Exercises .param passing: kernels taking structs by value, arrays in structs, __restrict__ pointers, many scalar types; noinline .func calls with params/return values (call, ld.param/st.param), recursion, loops and branches.
struct Vec3 { float x, y, z; };
struct Mixed { char c; short s; int i; long long ll; float f; double d; unsigned char bytes[5]; };
struct Big { int a[16]; double w[4]; };
struct __align__(16) Aligned { float4 v; int tag; };

__device__ __noinline__ Vec3 cross(Vec3 a, Vec3 b)
{
    Vec3 r = { a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x };
    return r;
}

__device__ __noinline__ double mix_sum(Mixed m) { return m.c + m.s + m.i + (double)m.ll + m.f + m.d + m.bytes[4]; }

__device__ __noinline__ Big scale_big(const Big& b, int k)
{
    Big r;
    for (int j = 0; j < 16; ++j) r.a[j] = b.a[j] * k;
    for (int j = 0; j < 4; ++j) r.w[j] = b.w[j] * k;
    return r;
}

__device__ __noinline__ unsigned long long fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ void out_params(int a, int* q, float* f, unsigned char c, short s)
{
    *q = a * c + s;
    *f = (float)a / (float)(c + 1);
}

__device__ __noinline__ float4 ret_vec(float4 a, Aligned b) { return make_float4(a.x + b.v.x, a.y, a.z, a.w + b.tag); }

extern "C" __global__ void by_value(Vec3 a, Vec3 b, Mixed m, Big big, Aligned al, Vec3* __restrict__ out,
                                   double* __restrict__ dout, int* __restrict__ iout, float4* f4out)
{
    int t = threadIdx.x;
    out[t] = cross(a, b);
    Big s = scale_big(big, t);
    dout[t] = mix_sum(m) + s.w[t & 3] + s.a[t & 15];
    int q;
    float f;
    out_params(t, &q, &f, m.bytes[t % 5], m.s);
    iout[t] = q + (int)f + (int)fib(t & 7);
    f4out[t] = ret_vec(al.v, al);
}

__global__ void many_scalars(signed char a, unsigned char b, short c, unsigned short d, int e, unsigned f,
                             long long g, unsigned long long h, float i, double j, bool k, const int* p,
                             double* out)
{
    double r = a + b + c + d + e + f + (double)g + (double)h + i + j + (k ? 1 : 0) + p[threadIdx.x];
    out[threadIdx.x] = r;
}

__global__ void loops_branches(const int* __restrict__ in, int* __restrict__ out, int n, int mode)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int acc = 0;
    for (int k = 0; k < n; ++k) {
        int v = in[k * blockDim.x + threadIdx.x];
        if (v < 0) continue;
        if (v > 1000) break;
        switch (mode) {
        case 0: acc += v; break;
        case 1: acc ^= v; break;
        case 2: acc = max(acc, v); break;
        default: acc -= v; break;
        }
    }
    int j = 0;
    do { acc = acc * 3 + 1; ++j; } while ((acc & 1) && j < 10);
    out[t] = (t & 1) ? acc : -acc;
}
