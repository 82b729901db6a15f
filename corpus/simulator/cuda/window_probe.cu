// Measures the generic-address window layout of the GPU it runs on: where
// the shared (per CTA and per cluster), local, const and kernel-parameter
// windows lie, found by binary search with isspacep from an address known
// to be inside each, and how mapa, getctarank and cvta relate the CTAs of
// a cluster. Prints one JSON object. Run by tools/device/sim_baseline.py;
// the results become the window profile in semantics/src/sim/window.rs.
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

#define SPACES 8
// isspacep of each space, by index: global, shared, shared::cta,
// shared::cluster, local, const, param, param::entry
__device__ __noinline__ unsigned isp(uint64_t a, int s)
{
    unsigned r = 0;
    switch (s) {
    case 0: asm volatile("{.reg .pred p; isspacep.global p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(r) : "l"(a)); break;
    case 1: asm volatile("{.reg .pred p; isspacep.shared p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(r) : "l"(a)); break;
    case 2: asm volatile("{.reg .pred p; isspacep.shared::cta p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(r) : "l"(a)); break;
    case 3: asm volatile("{.reg .pred p; isspacep.shared::cluster p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(r) : "l"(a)); break;
    case 4: asm volatile("{.reg .pred p; isspacep.local p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(r) : "l"(a)); break;
    case 5: asm volatile("{.reg .pred p; isspacep.const p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(r) : "l"(a)); break;
    case 6: asm volatile("{.reg .pred p; isspacep.param p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(r) : "l"(a)); break;
    default: asm volatile("{.reg .pred p; isspacep.param::entry p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(r) : "l"(a)); break;
    }
    return r;
}

__device__ unsigned all_spaces(uint64_t a)
{
    unsigned bits = 0;
    for (int s = 0; s < SPACES; ++s) bits |= isp(a, s) << s;
    return bits;
}

struct Result {
    unsigned rank, nrank, ctaid, pad;
    unsigned long long sh_generic, sh_cta, sh_cluster;
    unsigned long long mapa_generic[4];
    unsigned mapa_shared[4];
    unsigned rank_of_mapa[4];
    unsigned bits_of_mapa[4];
    unsigned long long local_generic, local_addr, const_generic, const_addr;
    unsigned long long param_generic, param_addr, global_generic;
    unsigned long long lo[SPACES], hi[SPACES];
    unsigned long long inside[SPACES];
};

__constant__ unsigned c_tab[4] = {1, 2, 3, 4};
__device__ unsigned g_tab[4];

__global__ void __cluster_dims__(4, 1, 1) probe(Result* out, const __grid_constant__ unsigned long long k)
{
    __shared__ unsigned s_buf[64];
    volatile unsigned l_buf[4];
    s_buf[threadIdx.x] = threadIdx.x;
    l_buf[threadIdx.x & 3] = threadIdx.x;
    asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
    if (threadIdx.x == 0) {
        Result& r = out[blockIdx.x];
        asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r.rank));
        asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(r.nrank));
        r.ctaid = blockIdx.x;
        r.sh_generic = (uint64_t)&s_buf[0];
        r.sh_cta = __cvta_generic_to_shared(&s_buf[0]);
        asm volatile("cvta.to.shared::cluster.u64 %0, %1;" : "=l"(r.sh_cluster) : "l"(r.sh_generic));
        for (unsigned q = 0; q < 4; ++q) {
            asm volatile("mapa.u64 %0, %1, %2;" : "=l"(r.mapa_generic[q]) : "l"(r.sh_generic), "r"(q));
            asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r.mapa_shared[q]) : "r"((unsigned)r.sh_cta), "r"(q));
            asm volatile("getctarank.u64 %0, %1;" : "=r"(r.rank_of_mapa[q]) : "l"(r.mapa_generic[q]));
            r.bits_of_mapa[q] = all_spaces(r.mapa_generic[q]);
        }
        r.local_generic = (uint64_t)&l_buf[0];
        r.local_addr = __cvta_generic_to_local((const void*)&l_buf[0]);
        r.const_generic = (uint64_t)&c_tab[0];
        r.const_addr = __cvta_generic_to_constant(&c_tab[0]);
        r.param_generic = (uint64_t)&k;
        r.param_addr = __cvta_generic_to_grid_constant(&k);
        r.global_generic = (uint64_t)&g_tab[0];
        const uint64_t inside[SPACES] = {r.global_generic, r.sh_generic, r.sh_generic, r.sh_generic,
                                         r.local_generic, r.const_generic, r.param_generic, r.param_generic};
        for (int s = 0; s < SPACES; ++s) {
            uint64_t x = inside[s];
            r.inside[s] = x;
            if (!isp(x, s)) {
                r.lo[s] = r.hi[s] = ~0ull;
                continue;
            }
            uint64_t l = 0, h = x;
            while (l < h) {
                uint64_t m = l + (h - l) / 2;
                if (isp(m, s)) h = m; else l = m + 1;
            }
            r.lo[s] = l;
            l = x;
            h = ~0ull;
            while (l < h) {
                uint64_t m = l + (h - l) / 2 + 1;
                if (isp(m, s)) l = m; else h = m - 1;
            }
            r.hi[s] = l;
        }
    }
    asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
    g_tab[threadIdx.x & 3] = l_buf[threadIdx.x & 3] + s_buf[threadIdx.x] + c_tab[threadIdx.x & 3];
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("{\"error\": \"%s: %s\"}\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

int main()
{
    const int ctas = 8;
    Result* d = nullptr;
    CHECK(cudaMalloc(&d, ctas * sizeof(Result)));
    CHECK(cudaMemset(d, 0xa5, ctas * sizeof(Result)));
    probe<<<ctas, 64>>>(d, 0x0123456789abcdefull);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    Result h[ctas];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    const char* names[SPACES] = {"global", "shared", "shared::cta", "shared::cluster", "local", "const", "param", "param::entry"};
    printf("{\"ctas\": [\n");
    for (int c = 0; c < ctas; ++c) {
        const Result& r = h[c];
        printf("  {\"ctaid\": %u, \"rank\": %u, \"nrank\": %u, \"sh_generic\": %llu, \"sh_cta\": %llu, \"sh_cluster\": %llu,\n",
               r.ctaid, r.rank, r.nrank, r.sh_generic, r.sh_cta, r.sh_cluster);
        printf("   \"mapa_generic\": [%llu, %llu, %llu, %llu], \"mapa_shared\": [%u, %u, %u, %u],\n",
               r.mapa_generic[0], r.mapa_generic[1], r.mapa_generic[2], r.mapa_generic[3],
               r.mapa_shared[0], r.mapa_shared[1], r.mapa_shared[2], r.mapa_shared[3]);
        printf("   \"rank_of_mapa\": [%u, %u, %u, %u], \"bits_of_mapa\": [%u, %u, %u, %u],\n",
               r.rank_of_mapa[0], r.rank_of_mapa[1], r.rank_of_mapa[2], r.rank_of_mapa[3],
               r.bits_of_mapa[0], r.bits_of_mapa[1], r.bits_of_mapa[2], r.bits_of_mapa[3]);
        printf("   \"local_generic\": %llu, \"local_addr\": %llu, \"const_generic\": %llu, \"const_addr\": %llu,\n",
               r.local_generic, r.local_addr, r.const_generic, r.const_addr);
        printf("   \"param_generic\": %llu, \"param_addr\": %llu, \"global_generic\": %llu,\n",
               r.param_generic, r.param_addr, r.global_generic);
        printf("   \"windows\": {");
        for (int s = 0; s < SPACES; ++s)
            printf("%s\"%s\": [%llu, %llu, %llu]", s ? ", " : "", names[s], r.lo[s], r.hi[s], r.inside[s]);
        printf("}}%s\n", c + 1 < ctas ? "," : "");
    }
    printf("]}\n");
    return 0;
}
