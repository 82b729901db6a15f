// Exercises mov from special registers (%tid, %ctaid, %ntid, %nctaid, %laneid, %warpid, %smid, %clock64, %globaltimer, %lanemask_*, %dynamic_smem_size, %clusterid...) and mov.b64/b32 pack/unpack.
#include <cstdint>

extern "C" __global__ void sregs_builtin(unsigned* out)
{
    unsigned t = threadIdx.x + threadIdx.y * 7 + threadIdx.z * 13;
    unsigned b = blockIdx.x + blockIdx.y * 5 + blockIdx.z * 11;
    unsigned d = blockDim.x * blockDim.y * blockDim.z;
    unsigned g = gridDim.x + gridDim.y + gridDim.z;
    out[b * d + t] = t ^ b ^ d ^ g ^ warpSize;
}

__global__ void sregs_asm(unsigned* out, unsigned long long* out64)
{
    unsigned lane, warp, nwarp, sm, nsm, ltmask, lemask, gtmask, gemask, eqmask, dsmem, tsmem, gridid_lo, clk;
    unsigned long long clk64, gt, gridid;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(warp));
    asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(nwarp));
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsm));
    asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(ltmask));
    asm volatile("mov.u32 %0, %%lanemask_le;" : "=r"(lemask));
    asm volatile("mov.u32 %0, %%lanemask_gt;" : "=r"(gtmask));
    asm volatile("mov.u32 %0, %%lanemask_ge;" : "=r"(gemask));
    asm volatile("mov.u32 %0, %%lanemask_eq;" : "=r"(eqmask));
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dsmem));
    asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(tsmem));
    asm volatile("mov.u32 %0, %%clock;" : "=r"(clk));
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(clk64));
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt));
    asm volatile("mov.u64 %0, %%gridid;" : "=l"(gridid));
    gridid_lo = (unsigned)gridid;
    unsigned tid_x, ntid_y, ctaid_z, nctaid_x;
    asm volatile("mov.u32 %0, %%tid.x;" : "=r"(tid_x));
    asm volatile("mov.u32 %0, %%ntid.y;" : "=r"(ntid_y));
    asm volatile("mov.u32 %0, %%ctaid.z;" : "=r"(ctaid_z));
    asm volatile("mov.u32 %0, %%nctaid.x;" : "=r"(nctaid_x));
    out[threadIdx.x] = lane ^ warp ^ nwarp ^ sm ^ nsm ^ ltmask ^ lemask ^ gtmask ^ gemask ^ eqmask ^ dsmem
                     ^ tsmem ^ gridid_lo ^ clk ^ tid_x ^ ntid_y ^ ctaid_z ^ nctaid_x;
    out64[threadIdx.x] = clk64 + gt + clock64();
}

__global__ void sregs_cluster(unsigned* out)
{
    unsigned r = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    unsigned cid, ncid, crank, cnrank, ctaid_in_cl, is_expl;
    asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
    asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(ncid));
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(crank));
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(cnrank));
    asm volatile("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(ctaid_in_cl));
    asm volatile("{\n\t.reg .pred p;\n\tmov.pred p, %%is_explicit_cluster;\n\tselp.u32 %0, 1, 0, p;\n}" : "=r"(is_expl));
    r = cid ^ ncid ^ crank ^ cnrank ^ ctaid_in_cl ^ is_expl;
#endif
    out[threadIdx.x] = r;
}

__global__ void mov_pack(const unsigned long long* in, unsigned long long* out)
{
    unsigned long long v = in[threadIdx.x];
    unsigned lo, hi;
    asm("mov.b64 {%0, %1}, %2;" : "=r"(lo), "=r"(hi) : "l"(v));
    unsigned long long w;
    asm("mov.b64 %0, {%1, %2};" : "=l"(w) : "r"(hi), "r"(lo));
    unsigned short h0, h1;
    asm("mov.b32 {%0, %1}, %2;" : "=h"(h0), "=h"(h1) : "r"(lo));
    unsigned x;
    asm("mov.b32 %0, {%1, %2};" : "=r"(x) : "h"(h1), "h"(h0));
    double d = __longlong_as_double((long long)w);
    int dlo = __double2loint(d), dhi = __double2hiint(d);
    double e = __hiloint2double(dlo, dhi);
    out[threadIdx.x] = w + x + (unsigned long long)__double_as_longlong(e);
}
