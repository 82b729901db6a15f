// Exercises cluster addressing (sm_90): cooperative_groups cluster map_shared_rank/block_rank/sync (mapa, getctarank, %cluster_ctarank) plus inline-asm mapa/getctarank and ld/st.shared::cluster.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define CLUSTER_DIMS(x, y, z)
#else
#define CLUSTER_DIMS(x, y, z) __cluster_dims__(x, y, z)
#endif

extern "C" __global__ void CLUSTER_DIMS(2, 1, 1) cluster_dsmem(const int* in, int* out)
{
    __shared__ int s_val[128];
    s_val[threadIdx.x & 127] = in[blockIdx.x * blockDim.x + threadIdx.x];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    unsigned nblk = cluster.num_blocks();
    dim3 bidx = cluster.block_index();
    cluster.sync();
    unsigned peer = (rank + 1) % nblk;
    int* remote = cluster.map_shared_rank(s_val, peer);
    int r = remote[(threadIdx.x + 1) & 127];
    cluster.sync();
    out[blockIdx.x * blockDim.x + threadIdx.x] = r + (int)rank + (int)bidx.x + (int)cluster.query_shared_rank(remote);
#else
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = s_val[(threadIdx.x + 1) & 127];
#endif
}

__global__ void CLUSTER_DIMS(4, 1, 1) cluster_asm(unsigned* out)
{
    __shared__ unsigned s_u[32];
    s_u[threadIdx.x & 31] = threadIdx.x;
    unsigned r = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    unsigned a = (unsigned)__cvta_generic_to_shared(&s_u[threadIdx.x & 31]);
    unsigned rank, ra, owner, owner64, v;
    unsigned long long ga;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(ra) : "r"(a), "r"((rank + 1) & 3));
    asm volatile("mapa.u64 %0, %1, %2;" : "=l"(ga) : "l"(&s_u[0]), "r"((rank + 2) & 3));
    asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(owner) : "r"(ra));
    asm volatile("getctarank.u64 %0, %1;" : "=r"(owner64) : "l"(ga));
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(ra) : "memory");
    asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(ra + 4), "r"(v) : "memory");
    asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
    r = v + owner + owner64;
#endif
    out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

__global__ void cluster_special_regs(unsigned* out)
{
    unsigned r = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cg::cluster_group cluster = cg::this_cluster();
    dim3 d = cluster.dim_blocks();
    r = cluster.block_rank() + d.x + d.y + d.z + cluster.num_threads() + cluster.thread_rank();
    r += __clusterIdx().x + __clusterDim().y + __clusterRelativeBlockIdx().z + __clusterRelativeBlockRank()
       + __clusterSizeInBlocks() + __clusterGridDimInClusters().x;
#endif
    out[threadIdx.x] = r;
}
