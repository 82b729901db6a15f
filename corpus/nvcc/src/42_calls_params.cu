// Calls: non-inlined device functions taking and returning structures by value through .param, recursion, indirect calls through function pointers (prototypes), virtual calls, printf (vprintf with a .param buffer).
#include <cstdio>
#include <cstdint>

struct Pair { uint32_t a; uint64_t b; float c[3]; };

__device__ __noinline__ Pair make_pair(uint32_t x, float y)
{
    Pair p;
    p.a = x * 3u;
    p.b = (uint64_t)x << 33;
    p.c[0] = y; p.c[1] = y * 2.f; p.c[2] = y + 1.f;
    return p;
}

__device__ __noinline__ uint64_t sum_pair(Pair p, uint32_t k)
{
    return p.a + p.b + (uint64_t)(p.c[k % 3]);
}

__device__ __noinline__ uint32_t fact(uint32_t n) { return n <= 1 ? 1 : n * fact(n - 1); }

__device__ __noinline__ uint32_t twice(uint32_t x) { return 2 * x; }
__device__ __noinline__ uint32_t square(uint32_t x) { return x * x; }
typedef uint32_t (*unary)(uint32_t);
__device__ unary table[2] = { twice, square };

struct Shape { __device__ virtual float area() const = 0; };
struct Square : Shape { float s; __device__ Square(float s) : s(s) {} __device__ float area() const override { return s * s; } };
struct Rect : Shape { float w, h; __device__ Rect(float w, float h) : w(w), h(h) {} __device__ float area() const override { return w * h; } };

extern "C" __global__ void calls(uint64_t* out, float* fout, const uint32_t* sel)
{
    uint32_t t = threadIdx.x;
    Pair p = make_pair(t, (float)t);
    out[t] = sum_pair(p, t) + fact(t & 7) + table[sel[t] & 1](t);
    Square sq{float(t)};
    Rect rc{float(t), 2.f};
    const Shape* s = (sel[t] & 2) ? static_cast<const Shape*>(&sq) : static_cast<const Shape*>(&rc);
    fout[t] = s->area();
    if (t == 0) printf("calls: %u %f\n", p.a, p.c[1]);
}
