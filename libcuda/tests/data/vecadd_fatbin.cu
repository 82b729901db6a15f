// The source of the fat binaries beside it (vecadd_*.fatbin): a vector add
// that reads an initialised __constant__ scale and counts its launches in a
// __device__ variable. Built with nvcc 13.0 as docs/libcuda.md ("Fat binaries") says;
// with -DWITH_MAIN it is also a CUDA runtime program.
extern "C" {
__constant__ float scale = 0.5f;
__device__ unsigned int launches;

__global__ void vecadd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = scale * (a[i] + b[i]);
    if (i == 0) atomicAdd(&launches, 1u);
}
}

#ifdef WITH_MAIN
#include <cstdio>
int main() {
    const int n = 1000;
    float a[n], b[n], c[n];
    for (int i = 0; i < n; i++) { a[i] = i; b[i] = 2 * i; }
    float *da, *db, *dc;
    cudaError_t e = cudaMalloc(&da, n * 4);
    printf("cudaMalloc: %s\n", cudaGetErrorString(e));
    if (e != cudaSuccess) return 1;
    cudaMalloc(&db, n * 4); cudaMalloc(&dc, n * 4);
    cudaMemcpy(da, a, n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, n * 4, cudaMemcpyHostToDevice);
    vecadd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
    vecadd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
    e = cudaDeviceSynchronize();
    printf("launch: %s / %s\n", cudaGetErrorString(cudaGetLastError()), cudaGetErrorString(e));
    cudaMemcpy(c, dc, n * 4, cudaMemcpyDeviceToHost);
    unsigned int count = 0;
    e = cudaMemcpyFromSymbol(&count, launches, 4);
    printf("cudaMemcpyFromSymbol: %s\n", cudaGetErrorString(e));
    int bad = 0;
    for (int i = 0; i < n; i++) bad += c[i] != 0.5f * (3 * i);
    printf("wrong sums: %d, launches: %u\n", bad, count);
    return bad != 0 || count != 2;
}
#endif
