// Exercises cvt to tf32 via inline asm: cvt.rna.tf32.f32 (sm_80), cvt.rna.satfinite.tf32.f32 (sm_90), cvt.rn/.rz.satfinite.tf32.f32 (sm_100).


__global__ void tf32_rna(const float* __restrict__ x, unsigned* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cvt.rna.tf32.f32 %0, %1;" : "=r"(r0) : "f"(x[i]));
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("cvt.rna.satfinite.tf32.f32 %0, %1;" : "=r"(r1) : "f"(x[i]));
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
    asm volatile("cvt.rn.satfinite.tf32.f32 %0, %1;" : "=r"(r2) : "f"(x[i]));
    asm volatile("cvt.rz.satfinite.tf32.f32 %0, %1;" : "=r"(r3) : "f"(x[i]));
#endif
    out[i] = r0 ^ r1 ^ r2 ^ r3;
}

extern "C" __global__ void tf32_loop(const float* x, unsigned* out, int n)
{
    unsigned acc = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        unsigned r = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x[i]));
#endif
        acc += r;
    }
    out[threadIdx.x] = acc;
}
