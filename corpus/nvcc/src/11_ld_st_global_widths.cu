// Exercises ld/st.global of every width and vector shape: char, short, int, long long, float, double, float2, float4, int4, double2, uchar4, short2, longlong2.
struct Bufs {
    const signed char* c; const unsigned char* uc; const short* s; const unsigned short* us;
    const int* i; const unsigned* u; const long long* ll; const unsigned long long* ull;
    const float* f; const double* d;
};

__global__ void ld_scalars(Bufs b, double* out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    double r = 0;
    r += b.c[t];
    r += b.uc[t];
    r += b.s[t];
    r += b.us[t];
    r += b.i[t];
    r += b.u[t];
    r += (double)b.ll[t];
    r += (double)b.ull[t];
    r += b.f[t];
    r += b.d[t];
    out[t] = r;
}

extern "C" __global__ void ld_st_vectors(const float2* f2, const float4* f4, const int4* i4,
                                         const double2* d2, const uchar4* c4, const short2* s2,
                                         const longlong2* l2, const int2* i2, const char2* c2,
                                         float4* of4, int4* oi4, double2* od2, uchar4* oc4, short2* os2,
                                         longlong2* ol2, float2* of2, int2* oi2, char2* oc2)
{
    int t = threadIdx.x;
    float2 a = f2[t];
    float4 b = f4[t];
    int4 c = i4[t];
    double2 d = d2[t];
    uchar4 e = c4[t];
    short2 s = s2[t];
    longlong2 l = l2[t];
    int2 ii = i2[t];
    char2 cc = c2[t];
    of4[t] = make_float4(b.x + a.x, b.y + a.y, b.z, b.w);
    oi4[t] = make_int4(c.x, c.y + ii.x, c.z + ii.y, c.w);
    od2[t] = make_double2(d.y, d.x);
    oc4[t] = make_uchar4(e.w, e.z, e.y, e.x);
    os2[t] = make_short2(s.y, s.x);
    ol2[t] = make_longlong2(l.y, l.x);
    of2[t] = make_float2(a.y, a.x);
    oi2[t] = make_int2(ii.y, ii.x);
    oc2[t] = make_char2(cc.y, cc.x);
}

__global__ void st_scalars(signed char* c, unsigned char* uc, short* s, unsigned short* us, int* i,
                           long long* ll, float* f, double* d, int v)
{
    int t = threadIdx.x;
    c[t] = (signed char)v;
    uc[t] = (unsigned char)(v >> 8);
    s[t] = (short)v;
    us[t] = (unsigned short)(v >> 16);
    i[t] = v;
    ll[t] = (long long)v << 20;
    f[t] = (float)v;
    d[t] = (double)v;
}

// offsets in addresses: [reg+imm]
__global__ void ld_offsets(const int* p, int* q)
{
    int t = threadIdx.x * 8;
    q[t] = p[t] + p[t + 1] + p[t + 2] + p[t + 7];
    q[t + 3] = p[t - 1];
}
