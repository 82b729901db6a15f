/* A driver-API program as a user writes one, against the simulator's
 * libcuda: loads PTX text, adds two vectors, checks the sums on the host,
 * then launches a kernel that reads past its buffer and prints the error
 * the synchronisation returns. The declarations are those of cuda.h (the
 * versioned names it maps to), written out so that no CUDA toolkit is
 * needed:
 *
 *     cc -o vecadd libcuda/samples/vecadd.c -Ltarget/release -lcuda
 *     LD_LIBRARY_PATH=target/release ./vecadd
 *
 * Exit status 0 when every sum is right and the fault was reported. */
#include <stdio.h>
#include <stdint.h>
#include <stddef.h>

typedef int CUresult;
typedef int CUdevice;
typedef uint64_t CUdeviceptr;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUstream;

CUresult cuInit(unsigned);
CUresult cuDeviceGet(CUdevice *, int);
CUresult cuDeviceGetName(char *, int, CUdevice);
CUresult cuCtxCreate_v2(CUcontext *, unsigned, CUdevice);
CUresult cuCtxDestroy_v2(CUcontext);
CUresult cuCtxSynchronize(void);
CUresult cuModuleLoadData(CUmodule *, const void *);
CUresult cuModuleGetFunction(CUfunction *, CUmodule, const char *);
CUresult cuMemAlloc_v2(CUdeviceptr *, size_t);
CUresult cuMemFree_v2(CUdeviceptr);
CUresult cuMemcpyHtoD_v2(CUdeviceptr, const void *, size_t);
CUresult cuMemcpyDtoH_v2(void *, CUdeviceptr, size_t);
CUresult cuLaunchKernel(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                        unsigned, CUstream, void **, void **);
CUresult cuGetErrorName(CUresult, const char **);

static const char *PTX =
    ".version 8.7\n.target sm_90\n.address_size 64\n"
    ".visible .entry vecadd(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p; .reg .b32 %r<6>; .reg .f32 %f<4>; .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [a]; ld.param.u64 %rd2, [b]; ld.param.u64 %rd3, [c];\n"
    "  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "  setp.ge.u32 %p, %r5, %r1;\n"
    "  @%p bra DONE;\n"
    "  mul.wide.u32 %rd4, %r5, 4;\n"
    "  add.s64 %rd5, %rd1, %rd4; add.s64 %rd6, %rd2, %rd4; add.s64 %rd7, %rd3, %rd4;\n"
    "  ld.global.f32 %f1, [%rd5]; ld.global.f32 %f2, [%rd6];\n"
    "  add.rn.f32 %f3, %f1, %f2;\n"
    "  st.global.f32 [%rd7], %f3;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

#define CHECK(call)                                                              \
    do {                                                                         \
        CUresult r_ = (call);                                                    \
        if (r_ != 0) {                                                           \
            const char *name_ = "?";                                             \
            cuGetErrorName(r_, &name_);                                          \
            printf("%s: %s\n", #call, name_);                                    \
            return 1;                                                            \
        }                                                                        \
    } while (0)

enum { N = 1000 };

int main(void) {
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction f;
    char name[128];
    static float a[N], b[N], c[N];
    CUdeviceptr da, db, dc;
    unsigned n = N;
    for (int i = 0; i < N; i++) {
        a[i] = (float)i * 0.25f;
        b[i] = 1.0f / (float)(i + 1);
    }
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuDeviceGetName(name, sizeof name, dev));
    printf("device: %s\n", name);
    CHECK(cuCtxCreate_v2(&ctx, 0, dev));
    CHECK(cuModuleLoadData(&mod, PTX));
    CHECK(cuModuleGetFunction(&f, mod, "vecadd"));
    CHECK(cuMemAlloc_v2(&da, sizeof a));
    CHECK(cuMemAlloc_v2(&db, sizeof b));
    CHECK(cuMemAlloc_v2(&dc, sizeof c));
    CHECK(cuMemcpyHtoD_v2(da, a, sizeof a));
    CHECK(cuMemcpyHtoD_v2(db, b, sizeof b));
    void *params[] = {&da, &db, &dc, &n};
    CHECK(cuLaunchKernel(f, (N + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, params, NULL));
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH_v2(c, dc, sizeof c));
    for (int i = 0; i < N; i++) {
        if (c[i] != a[i] + b[i]) {
            printf("c[%d] = %a, expected %a\n", i, c[i], a[i] + b[i]);
            return 1;
        }
    }
    printf("vecadd: %d sums right\n", N);
    /* n past the end of the buffers: the simulator stops the first thread
     * that reads outside them, and the synchronisation says so */
    n = N + 1;
    CHECK(cuLaunchKernel(f, (N + 256) / 256, 1, 1, 256, 1, 1, 0, NULL, params, NULL));
    CUresult r = cuCtxSynchronize();
    const char *fault = "?";
    cuGetErrorName(r, &fault);
    printf("past the end: %s\n", fault);
    CHECK(cuCtxDestroy_v2(ctx));
    return r == 700 ? 0 : 1;
}
