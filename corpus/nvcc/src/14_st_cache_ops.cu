// Exercises cache-operator stores: __stwb (.wb), __stcg (.cg), __stcs (.cs), __stwt (.wt) on scalar and vector types.
extern "C" __global__ void st_cache_hints(int* i, float* f, double* d, float4* f4, int4* i4, long long* ll,
                                          float2* f2, double2* d2, unsigned char* uc, short* s, int v)
{
    int t = threadIdx.x;
    __stwb(i + t, v);
    __stcg(i + t + 32, v + 1);
    __stcs(i + t + 64, v + 2);
    __stwt(i + t + 96, v + 3);
    __stwb(f + t, (float)v);
    __stcg(f + t + 32, (float)v * 2.f);
    __stcs(d + t, (double)v);
    __stwt(d + t + 32, (double)v * 0.5);
    __stcg(f4 + t, make_float4(1.f, 2.f, (float)v, 4.f));
    __stcs(f4 + t + 32, make_float4((float)t, 2.f, 3.f, 4.f));
    __stwt(i4 + t, make_int4(t, v, t + v, 0));
    __stwb(i4 + t + 32, make_int4(v, t, 0, 1));
    __stcg(ll + t, (long long)v * t);
    __stcs(f2 + t, make_float2((float)v, (float)t));
    __stwt(d2 + t, make_double2((double)v, (double)t));
    __stcg(uc + t, (unsigned char)v);
    __stcs(s + t, (short)v);
}
