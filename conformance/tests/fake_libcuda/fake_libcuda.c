/* A stand-in for the CUDA driver library, for testing how `conform run
 * --impl cuda` runs groups (tests/cuda_batches.rs): what the runner does
 * with JIT errors, faults, timeouts and a dying worker, without a GPU.
 *
 * A "kernel" writes a hash of its entry's body text (from its parameter
 * list to the first line that is a lone `}`), mixed with its input, into
 * its whole output buffer: the same text gives the same bytes, in a module
 * of its own or merged with others. Markers in the PTX text:
 *   FAULT       in a body: the launch faults; as on driver 580, the process
 *               is spoiled (every later call, a new context too, fails);
 *   HANG        in a body: the kernel never ends (cuStreamQuery: not ready);
 *   frobnicate  anywhere: the JIT fails with an error log;
 *   CRASH       anywhere: the JIT aborts the process. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int CUresult;
static int poisoned = 0, hung = 0, contexts = 0;

typedef struct { char *text; } Module;
typedef struct { const char *body; size_t len; } Function;
typedef struct { uint64_t p; size_t n; } Alloc;
#define ALLOCS 4096
static Alloc allocs[ALLOCS];

CUresult cuInit(unsigned flags) { return 0; }
CUresult cuDriverGetVersion(int *v) { *v = 13000; return 0; }
CUresult cuDeviceGetCount(int *c) { *c = 1; return 0; }
CUresult cuDeviceGet(int *d, int ordinal) { *d = 0; return 0; }
CUresult cuDeviceGetName(char *name, int len, int d) { strncpy(name, "Fake GPU", len); return 0; }
/* compute capability 9.0 (attributes 75 and 76); 132 of anything else */
CUresult cuDeviceGetAttribute(int *v, int a, int d) { *v = a == 75 ? 9 : a == 76 ? 0 : 132; return 0; }
CUresult cuCtxCreate_v2(void **c, unsigned flags, int d) {
    if (poisoned) return 700;
    *c = (void *)(intptr_t)++contexts;
    return 0;
}
CUresult cuCtxDestroy_v2(void *c) { return 0; }
CUresult cuCtxSetCurrent(void *c) { return 0; }
CUresult cuCtxSynchronize(void) { return poisoned ? 700 : 0; }

CUresult cuModuleLoadDataEx(void **m, const void *image, unsigned n, int *options, void **values) {
    if (poisoned) return 700;
    const char *text = image;
    if (strstr(text, "CRASH")) abort();
    if (strstr(text, "frobnicate")) {
        for (unsigned i = 0; i < n; i++)
            if (options[i] == 5) /* CU_JIT_ERROR_LOG_BUFFER */
                snprintf(values[i], 200, "ptxas application ptx input, line 7; error   : "
                         "Not a name of any known instruction: 'frobnicate'");
        return 218;
    }
    Module *module = malloc(sizeof *module);
    module->text = strdup(text);
    *m = module;
    return 0;
}
CUresult cuModuleGetFunction(void **f, void *m, const char *name) {
    Module *module = m;
    char pattern[256];
    snprintf(pattern, sizeof pattern, ".entry %s(", name);
    char *at = strstr(module->text, pattern);
    if (!at) return 500;
    char *body = at + strlen(pattern), *end = strstr(body, "\n}");
    if (!end) end = body + strlen(body);
    Function *function = malloc(sizeof *function);
    function->body = body;
    function->len = end - body;
    *f = function;
    return 0;
}
CUresult cuModuleUnload(void *m) {
    Module *module = m;
    free(module->text);
    free(module);
    return 0;
}
CUresult cuFuncSetAttribute(void *f, int a, int v) { return 0; }

CUresult cuMemAlloc_v2(uint64_t *p, size_t n) {
    if (poisoned) return 700;
    for (int i = 0; i < ALLOCS; i++)
        if (!allocs[i].p) {
            *p = (uint64_t)malloc(n);
            allocs[i] = (Alloc){*p, n};
            return 0;
        }
    return 2;
}
CUresult cuMemFree_v2(uint64_t p) {
    for (int i = 0; i < ALLOCS; i++)
        if (allocs[i].p == p) allocs[i].p = 0;
    free((void *)p);
    return 0;
}
static size_t size_of(uint64_t p) {
    for (int i = 0; i < ALLOCS; i++)
        if (allocs[i].p == p) return allocs[i].n;
    return 0;
}
CUresult cuMemsetD8_v2(uint64_t p, unsigned char c, size_t n) {
    if (poisoned) return 700;
    memset((void *)p, c, n);
    return 0;
}
CUresult cuMemcpyHtoD_v2(uint64_t d, const void *s, size_t n) {
    if (poisoned) return 700;
    memcpy((void *)d, s, n);
    return 0;
}
CUresult cuMemcpyDtoH_v2(void *d, uint64_t s, size_t n) {
    if (poisoned) return 700;
    memcpy(d, (void *)s, n);
    return 0;
}

static CUresult run(Function *f, void **params) {
    if (poisoned) return 700;
    if (memmem(f->body, f->len, "FAULT", 5)) { poisoned = 1; return 0; }
    if (memmem(f->body, f->len, "HANG", 4)) { hung = 1; return 0; }
    uint64_t in = *(uint64_t *)params[0], out = *(uint64_t *)params[1];
    size_t n = size_of(out), ni = size_of(in);
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < f->len; i++) h = (h ^ (unsigned char)f->body[i]) * 1099511628211ull;
    unsigned char *o = (void *)out, *ip = (void *)in;
    for (size_t i = 0; i < n; i++) o[i] = (unsigned char)((h >> (i % 8 * 8)) ^ (ni ? ip[i % ni] : 0));
    return 0;
}
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                        unsigned bz, unsigned shared, void *stream, void **params, void **extra) {
    return run(f, params);
}
CUresult cuLaunchKernelEx(const void *config, void *f, void **params, void **extra) {
    return run(f, params);
}
CUresult cuStreamQuery(void *s) { return poisoned ? 700 : hung ? 600 : 0; }
CUresult cuGetErrorName(CUresult e, const char **s) {
    *s = e == 700 ? "CUDA_ERROR_ILLEGAL_ADDRESS" : e == 218 ? "CUDA_ERROR_INVALID_PTX" : "CUDA_ERROR_UNKNOWN";
    return 0;
}
CUresult cuGetErrorString(CUresult e, const char **s) {
    *s = e == 700 ? "an illegal memory access was encountered"
       : e == 218 ? "a PTX JIT compilation failed" : "an unknown error";
    return 0;
}
