// Exercises mov of addresses: global/shared/const variable addresses, function addresses through device function pointers, and indirect calls (call via register with prototype).
__device__ int g_counter;
__device__ float g_table[128];
__constant__ int c_sel[4];

typedef float (*binop_t)(float, float);

__device__ __noinline__ float op_add(float a, float b) { return a + b; }
__device__ __noinline__ float op_mul(float a, float b) { return a * b; }
__device__ __noinline__ float op_max(float a, float b) { return fmaxf(a, b); }

__device__ binop_t d_ops[3] = { op_add, op_mul, op_max };

extern "C" __global__ void call_indirect(const float* a, const float* b, float* out, int which)
{
    int t = threadIdx.x;
    binop_t f;
    switch ((which + t) % 3) {
    case 0: f = op_add; break;
    case 1: f = op_mul; break;
    default: f = op_max; break;
    }
    float r = f(a[t], b[t]);
    r += d_ops[c_sel[t & 3] % 3](r, 1.f);
    out[t] = r;
}

__global__ void addr_of_vars(unsigned long long* out)
{
    __shared__ int s_x[16];
    s_x[threadIdx.x & 15] = threadIdx.x;
    out[0] = (unsigned long long)&g_counter;
    out[1] = (unsigned long long)&g_table[threadIdx.x & 127];
    out[2] = (unsigned long long)&s_x[threadIdx.x & 15];
    out[3] = (unsigned long long)&c_sel[1];
    out[4] = (unsigned long long)&op_add;
    out[5] = (unsigned long long)&d_ops[0];
}

__global__ void mov_asm(unsigned long long* out)
{
    unsigned long long a;
    asm volatile("mov.u64 %0, g_table;" : "=l"(a));
    unsigned long long b;
    asm volatile("mov.u64 %0, g_counter;" : "=l"(b));
    float f;
    asm volatile("mov.f32 %0, 0f3F800000;" : "=f"(f));
    double d;
    asm volatile("mov.f64 %0, 0d3FF0000000000000;" : "=d"(d));
    unsigned p;
    asm volatile("{\n\t.reg .pred q, r;\n\tsetp.ne.u32 q, %1, 0;\n\tmov.pred r, q;\n\tselp.u32 %0, 3, 4, r;\n}"
                 : "=r"(p) : "r"((unsigned)threadIdx.x));
    out[threadIdx.x] = a + b + __float_as_uint(f) + (unsigned long long)__double_as_longlong(d) + p;
}
