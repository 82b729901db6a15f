// Exercises prmt: __byte_perm with constant and variable selectors, and prmt.b32 modes (.f4e/.b4e/.rc8/.ecl/.ecr/.rc16) via inline asm.
extern "C" __global__ void byte_perm(const unsigned* a, const unsigned* b, const unsigned* sel, unsigned* out)
{
    int t = threadIdx.x;
    unsigned x = a[t], y = b[t];
    unsigned r = 0;
    r ^= __byte_perm(x, y, 0x3210);
    r ^= __byte_perm(x, y, 0x0123);
    r ^= __byte_perm(x, y, 0x7654);
    r ^= __byte_perm(x, 0, 0x4441);
    r ^= __byte_perm(x, y, 0x5140);
    r ^= __byte_perm(x, y, sel[t]);
    out[t] = r;
}

__global__ void prmt_modes(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* out)
{
    int t = threadIdx.x;
    unsigned x = a[t], y = b[t], s = c[t];
    unsigned r0, r1, r2, r3, r4, r5, r6;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r0) : "r"(x), "r"(y), "r"(s));
    asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r1) : "r"(x), "r"(y), "r"(s));
    asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(r2) : "r"(x), "r"(y), "r"(s));
    asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(r3) : "r"(x), "r"(y), "r"(s));
    asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(r4) : "r"(x), "r"(y), "r"(s));
    asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(r5) : "r"(x), "r"(y), "r"(s));
    asm("prmt.b32.rc16 %0, %1, %2, 0x2;" : "=r"(r6) : "r"(x), "r"(y));
    out[t] = r0 ^ r1 ^ r2 ^ r3 ^ r4 ^ r5 ^ r6;
}

// byte swaps / extraction that nvcc lowers to prmt
__global__ void byte_ops(const unsigned* a, const unsigned char* b, unsigned* out)
{
    int t = threadIdx.x;
    unsigned x = a[t];
    unsigned sw = (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24);
    uchar4 u = make_uchar4(b[4 * t], b[4 * t + 1], b[4 * t + 2], b[4 * t + 3]);
    unsigned packed = (unsigned)u.x | ((unsigned)u.y << 8) | ((unsigned)u.z << 16) | ((unsigned)u.w << 24);
    out[t] = sw ^ packed ^ __byte_perm(sw, packed, 0x1357);
}
