// Exercises .local state space: dynamically indexed local arrays (ld.local/st.local), local structs, and stack frames of noinline functions.
struct Item { int key; float val; double w; };

__device__ __noinline__ float reduce_local(const float* arr, int n)
{
    float s = 0.f;
    for (int k = 0; k < n; ++k) s += arr[k];
    return s;
}

extern "C" __global__ void local_array(const float* in, const int* idx, float* out, int n)
{
    float buf[64];
    int t = threadIdx.x;
    for (int k = 0; k < 64; ++k) buf[k] = in[t * 64 + k];
    for (int k = 0; k < n; ++k) {
        int j = idx[k] & 63;
        buf[j] += buf[(j + 7) & 63];
    }
    out[t] = buf[idx[t] & 63] + reduce_local(buf, 64);
}

__global__ void local_types(const int* idx, double* out)
{
    unsigned char cb[32];
    short sb[32];
    long long lb[16];
    double db[16];
    Item items[8];
    int t = threadIdx.x;
    for (int k = 0; k < 32; ++k) { cb[k] = (unsigned char)(k * t); sb[k] = (short)(k - t); }
    for (int k = 0; k < 16; ++k) { lb[k] = (long long)k << 33; db[k] = k * 0.25; }
    for (int k = 0; k < 8; ++k) { items[k].key = k; items[k].val = (float)k; items[k].w = k * 2.0; }
    int i = idx[t];
    Item it = items[i & 7];
    out[t] = cb[i & 31] + sb[(i >> 1) & 31] + (double)lb[i & 15] + db[(i >> 2) & 15] + it.key + it.val + it.w;
}

__global__ void local_vector(const int* idx, float4* out)
{
    float4 v[16];
    int t = threadIdx.x;
    for (int k = 0; k < 16; ++k) v[k] = make_float4((float)k, (float)t, (float)(k + t), 1.f);
    out[t] = v[idx[t] & 15];
}

__global__ void local_asm(int* out)
{
    int r;
    asm volatile("{\n\t.local .align 8 .b8 lbuf[16];\n\t.reg .u64 a;\n\tmov.u64 a, lbuf;\n\t"
                 "st.local.u32 [a], %1;\n\tst.local.u32 [a+4], %1;\n\tld.local.u32 %0, [a+4];\n}"
                 : "=r"(r) : "r"((int)threadIdx.x));
    out[threadIdx.x] = r;
}
