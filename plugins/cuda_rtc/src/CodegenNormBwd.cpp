// CodegenNormBwd: Layernorm and RMSNorm backward. One op family of the code generator (Codegen.cpp
// dispatches; CodegenCommon.hpp has what the families share).
#include "CodegenCommon.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <sstream>

namespace hipdnngo::cuda_rtc::codegen
{

namespace
{

// ---------------------------------------------------------------------------------------------
// Norm backward. Kernel 1: blocks walk over groups of RPB rows (a grid of at most kBwdBlocks
// blocks); each thread keeps its columns of x and dy in registers, computes dx for the row and
// accumulates dscale / dbias partial sums for its columns across the rows it visits, then writes
// them to the workspace (one row of partials per (block, row slot)). Kernel 2 adds the partials
// of each column in a fixed order: deterministic, no atomics.
constexpr int64_t kBwdBlocks = 256; // when the device's SM count is unknown (host-side tests)

} // namespace

Generated genNormBwd(const Program& p, const Knobs& k)
{
    const NormBwd& nb = p.bwd;
    const std::vector<int64_t>& space = p.space;
    const int R = static_cast<int>(space.size());
    const int from = R - nb.k;
    const Tensor& x = p.t(nb.x);
    const Tensor& dy = p.t(nb.dy);
    const Tensor& dx = p.t(nb.dx);
    const bool layer = nb.kind == NormKind::Layer;
    const int64_t N = nb.n, rows = nb.rows;
    auto rowAligned = [&](const Tensor& t, int v) { return rowsAligned(t, space, from, v); };
    auto vecOk = [&](int v) { return N % v == 0 && rowAligned(x, v) && rowAligned(dy, v) && rowAligned(dx, v); };
    int vec = k.vec != 0 ? k.vec : 16 / std::max({dtypeBytes(x.dt), dtypeBytes(dy.dt), dtypeBytes(dx.dt)});
    while(vec > 1 && !vecOk(vec))
        vec /= 2;
    // Threads per row: at most 32 values of x (and of dy) per thread, so that both stay in registers.
    int tpr = k.threads;
    if(tpr == 0)
    {
        tpr = 32;
        while(tpr < 1024 && static_cast<int64_t>(tpr) * 16 < N)
            tpr *= 2;
    }
    while(tpr < 1024 && static_cast<int64_t>(tpr) * 32 < N)
        tpr *= 2;
    if(static_cast<int64_t>(tpr) * 32 < N)
        throw Unsupported("norm backward: rows of " + std::to_string(N) + " elements are longer than 32768");
    int rpb = k.rowsPerBlock != 0 ? k.rowsPerBlock : std::max(1, 128 / tpr);
    while(rpb > 1 && tpr * rpb > 1024)
        rpb /= 2;
    const int64_t nch = (N + static_cast<int64_t>(tpr) * vec - 1) / (static_cast<int64_t>(tpr) * vec);
    const int64_t nv = nch * vec;
    const int64_t nrb = (rows + rpb - 1) / rpb;
    // One block per SM: the blocks hold a row's columns in registers, so no second one fits, and
    // a second wave would leave most SMs idle at its end (H100, layernorm 8192^2 bf16: 256 blocks
    // 1.80 TB/s, 132 blocks 2.13 TB/s).
    const int64_t grid = std::min(nrb, k.sms > 0 ? static_cast<int64_t>(k.sms) : kBwdBlocks);
    const int64_t slots = grid * rpb;
    const bool withBias = nb.dbias >= 0;

    int64_t maxExtent = std::max<int64_t>(rows * N, slots * N * 2);
    for(const Tensor& t : p.tensors)
        if(!t.isVirtual && !t.scalarArg())
            maxExtent = std::max(maxExtent, extent(t));
    const std::string idx = maxExtent < (int64_t{1} << 31) ? "unsigned" : "long long";

    Params prm(p);
    const std::string xs = prm.name(nb.x, false), dys = prm.name(nb.dy, false), ss = prm.name(nb.scale, false);
    std::string ms, is, es;
    if(nb.inv >= 0)
    {
        if(layer)
            ms = prm.name(nb.mean, false);
        is = prm.name(nb.inv, false);
    }
    else
    {
        es = prm.name(nb.eps, false);
    }
    const std::string dxs = prm.name(nb.dx, true);
    prm.decls.push_back("float* __restrict__ hd_ws");
    Arg wsArg;
    wsArg.kind = Arg::Workspace;
    wsArg.uid = 0;
    prm.args.push_back(wsArg);
    const std::string X = dtypeName(x.dt), DY = dtypeName(dy.dt), DX = dtypeName(dx.dt);
    const Tensor& sc = p.t(nb.scale);
    const std::string in1 = "        ", in2 = "            ", in3 = "                ";
    const std::string invN = lit(1.0 / static_cast<double>(N));

    std::ostringstream b;
    b << "    typedef " << idx << " idx_t;\n";
    b << "    const int lane = threadIdx.x % " << tpr << ";\n";
    b << "    const int rloc = threadIdx.x / " << tpr << ";\n";
    b << "    __shared__ float hd_sh[" << rpb << "][" << std::max(tpr / 32, 1) << "];\n";
    b << "    float* sh = hd_sh[rloc];\n";
    b << "    float sr[" << nv << "], pds[" << nv << "], pdb[" << nv << "];\n";
    b << "#pragma unroll\n    for(int i = 0; i < " << nv << "; ++i)\n    {\n";
    b << in1 << "const idx_t col = ((idx_t)(i / " << vec << ") * " << tpr << " + lane) * " << vec << " + i % " << vec << ";\n";
    b << in1 << "sr[i] = col < (idx_t)" << N << " ? hd_ld_" << dtypeName(sc.dt) << "(" << ss << "["
      << offsetExpr(sc, space, from, R, "col") << "]) : 0.0f;\n";
    b << in1 << "pds[i] = 0.0f;\n" << in1 << "pdb[i] = 0.0f;\n    }\n";
    if(!es.empty())
    {
        const Tensor& eps = p.t(nb.eps);
        b << "    const float eps = " << (eps.scalarArg() ? es : "hd_ld_" + std::string(dtypeName(eps.dt)) + "(" + es + "[0])")
          << ";\n";
    }
    b << "    for(idx_t rb = blockIdx.x; rb < (idx_t)" << nrb << "; rb += gridDim.x)\n    {\n";
    b << in1 << "const idx_t row = rb * " << rpb << " + rloc;\n";
    b << in1 << "const bool active = row < (idx_t)" << rows << ";\n";
    b << in1 << "const idx_t xrow = active ? (idx_t)" << offsetExpr(x, space, 0, from, "row") << " : (idx_t)0;\n";
    b << in1 << "const idx_t dyrow = active ? (idx_t)" << offsetExpr(dy, space, 0, from, "row") << " : (idx_t)0;\n";
    b << in1 << "const idx_t dxrow = active ? (idx_t)" << offsetExpr(dx, space, 0, from, "row") << " : (idx_t)0;\n";
    b << in1 << "float xr[" << nv << "], dr[" << nv << "];\n";
    b << "#pragma unroll\n" << in1 << "for(int c = 0; c < " << nch << "; ++c)\n" << in1 << "{\n";
    b << in2 << "const idx_t col0 = ((idx_t)c * " << tpr << " + lane) * " << vec << ";\n";
    b << in2 << "if(active && col0 < (idx_t)" << N << ")\n" << in2 << "{\n";
    const std::string vx = std::string("hd_vec<") + storageType(x.dt) + ", " + std::to_string(vec) + ">";
    const std::string vdy = std::string("hd_vec<") + storageType(dy.dt) + ", " + std::to_string(vec) + ">";
    const std::string vdx = std::string("hd_vec<") + storageType(dx.dt) + ", " + std::to_string(vec) + ">";
    b << in3 << "const " << vx << " xv = *reinterpret_cast<const " << vx << "*>(" << xs << " + xrow + col0);\n";
    b << in3 << "const " << vdy << " dv = *reinterpret_cast<const " << vdy << "*>(" << dys << " + dyrow + col0);\n";
    b << "#pragma unroll\n" << in3 << "for(int e = 0; e < " << vec << "; ++e)\n" << in3 << "{\n";
    b << in3 << "    xr[c * " << vec << " + e] = hd_ld_" << X << "(xv.v[e]);\n";
    b << in3 << "    dr[c * " << vec << " + e] = hd_ld_" << DY << "(dv.v[e]);\n" << in3 << "}\n";
    b << in2 << "}\n" << in2 << "else\n" << in2 << "{\n";
    b << "#pragma unroll\n" << in3 << "for(int e = 0; e < " << vec << "; ++e)\n";
    b << in3 << "    xr[c * " << vec << " + e] = dr[c * " << vec << " + e] = 0.0f;\n";
    b << in2 << "}\n" << in1 << "}\n";
    // valid(i): element i of this thread is a column of an active row.
    const std::string valid = "active && ((idx_t)(i / " + std::to_string(vec) + ") * " + std::to_string(tpr) + " + lane) * "
                              + std::to_string(vec) + " < (idx_t)" + std::to_string(N);
    if(!is.empty())
    {
        const Tensor& inv = p.t(nb.inv);
        b << in1 << "const float mean = " << (layer ? "active ? hd_ld_" + std::string(dtypeName(p.t(nb.mean).dt)) + "(" + ms + "["
                                                         + offsetExpr(p.t(nb.mean), space, 0, from, "row") + "]) : 0.0f"
                                                   : std::string("0.0f"))
          << ";\n";
        b << in1 << "const float rinv = active ? hd_ld_" << dtypeName(inv.dt) << "(" << is << "["
          << offsetExpr(inv, space, 0, from, "row") << "]) : 0.0f;\n";
    }
    else
    {
        // layernorm without saved statistics: recompute them (two passes over the registers).
        b << in1 << "float acc = 0.0f;\n";
        b << "#pragma unroll\n" << in1 << "for(int i = 0; i < " << nv << "; ++i)\n" << in2 << "acc += xr[i];\n";
        b << in1 << "const float mean = hd_row_sum(acc, sh, lane) * " << invN << ";\n";
        b << in1 << "float acc2 = 0.0f;\n";
        b << "#pragma unroll\n" << in1 << "for(int i = 0; i < " << nv << "; ++i)\n";
        b << in2 << "if(" << valid << ")\n" << in3 << "acc2 += (xr[i] - mean) * (xr[i] - mean);\n";
        b << in1 << "const float rinv = 1.0f / sqrtf(hd_row_sum(acc2, sh, lane) * " << invN << " + eps);\n";
    }
    b << in1 << "float ag = 0.0f, agx = 0.0f;\n";
    b << "#pragma unroll\n" << in1 << "for(int i = 0; i < " << nv << "; ++i)\n" << in1 << "{\n";
    b << in2 << "if(" << valid << ")\n" << in2 << "{\n";
    b << in3 << "const float g = dr[i] * sr[i];\n";
    b << in3 << "ag += g;\n" << in3 << "agx += g * (xr[i] - mean) * rinv;\n" << in2 << "}\n" << in1 << "}\n";
    if(layer)
        b << in1 << "const float mg = hd_row_sum(ag, sh, lane) * " << invN << ";\n";
    else
        b << in1 << "const float mg = 0.0f;\n" << in1 << "(void)ag;\n";
    b << in1 << "const float mgx = hd_row_sum(agx, sh, lane) * " << invN << ";\n";
    b << "#pragma unroll\n" << in1 << "for(int c = 0; c < " << nch << "; ++c)\n" << in1 << "{\n";
    b << in2 << "const idx_t col0 = ((idx_t)c * " << tpr << " + lane) * " << vec << ";\n";
    b << in2 << "if(active && col0 < (idx_t)" << N << ")\n" << in2 << "{\n";
    b << in3 << vdx << " w;\n";
    b << "#pragma unroll\n" << in3 << "for(int e = 0; e < " << vec << "; ++e)\n" << in3 << "{\n";
    b << in3 << "    const int i = c * " << vec << " + e;\n";
    b << in3 << "    const float xh = (xr[i] - mean) * rinv;\n";
    b << in3 << "    const float g = dr[i] * sr[i];\n";
    b << in3 << "    w.v[e] = hd_st_" << DX << "(rinv * (g - mg - xh * mgx));\n";
    b << in3 << "    pds[i] += dr[i] * xh;\n" << in3 << "    pdb[i] += dr[i];\n" << in3 << "}\n";
    b << in3 << "*reinterpret_cast<" << vdx << "*>(" << dxs << " + dxrow + col0) = w;\n";
    b << in2 << "}\n" << in1 << "}\n    }\n";
    // Partials: slot (block, rloc), dscale then dbias.
    b << "    const idx_t slot = (idx_t)blockIdx.x * " << rpb << " + rloc;\n";
    b << "#pragma unroll\n    for(int i = 0; i < " << nv << "; ++i)\n    {\n";
    b << in1 << "const idx_t col = ((idx_t)(i / " << vec << ") * " << tpr << " + lane) * " << vec << " + i % " << vec << ";\n";
    b << in1 << "if(col < (idx_t)" << N << ")\n" << in1 << "{\n";
    b << in2 << "hd_ws[slot * " << N << " + col] = pds[i];\n";
    if(withBias)
        b << in2 << "hd_ws[(idx_t)" << slots * N << " + slot * " << N << " + col] = pdb[i];\n";
    b << in1 << "}\n    }\n";

    // Kernel 2: the parameter gradients.
    Params prm2(p);
    const Tensor& dsc = p.t(nb.dscale);
    const std::string dss = prm2.name(nb.dscale, true);
    std::string dbs;
    if(withBias)
        dbs = prm2.name(nb.dbias, true);
    prm2.decls.push_back("const float* __restrict__ hd_ws");
    prm2.args.push_back(wsArg);
    std::ostringstream b2;
    b2 << "    typedef " << idx << " idx_t;\n";
    b2 << "    for(idx_t col = (idx_t)blockIdx.x * blockDim.x + threadIdx.x; col < (idx_t)" << N
       << "; col += (idx_t)gridDim.x * blockDim.x)\n    {\n";
    b2 << in1 << "float s = 0.0f, t = 0.0f;\n";
    b2 << in1 << "for(idx_t q = 0; q < (idx_t)" << slots << "; ++q)\n" << in1 << "{\n";
    b2 << in2 << "s += hd_ws[q * " << N << " + col];\n";
    if(withBias)
        b2 << in2 << "t += hd_ws[(idx_t)" << slots * N << " + q * " << N << " + col];\n";
    b2 << in1 << "}\n";
    b2 << in1 << dss << "[" << offsetExpr(dsc, space, from, R, "col") << "] = hd_st_" << dtypeName(dsc.dt) << "(s);\n";
    if(withBias)
    {
        const Tensor& dbi = p.t(nb.dbias);
        b2 << in1 << dbs << "[" << offsetExpr(dbi, space, from, R, "col") << "] = hd_st_" << dtypeName(dbi.dt) << "(t);\n";
    }
    else
    {
        b2 << in1 << "(void)t;\n";
    }
    b2 << "    }\n";

    std::ostringstream os;
    os << prelude() << "\n" << rowSumFunction(tpr);
    const std::string k1 = layer ? "hd_layernorm_bwd" : "hd_rmsnorm_bwd";
    const std::string k2 = layer ? "hd_layernorm_bwd_params" : "hd_rmsnorm_bwd_params";
    os << "extern \"C\" __global__ void __launch_bounds__(" << (tpr * rpb) << ") " << k1 << "(" << prm.signature() << ")\n{\n" << b.str() << "}\n\n";
    os << "extern \"C\" __global__ void __launch_bounds__(" << (256) << ") " << k2 << "(" << prm2.signature() << ")\n{\n" << b2.str() << "}\n";
    Generated g;
    g.source = os.str();
    g.launches.push_back({k1, static_cast<unsigned>(grid), static_cast<unsigned>(tpr * rpb), prm.args});
    g.launches.push_back({k2, static_cast<unsigned>(std::min<int64_t>((N + 255) / 256, 65535)), 256u, prm2.args});
    g.workspace = static_cast<size_t>(slots * N * (withBias ? 2 : 1)) * sizeof(float);
    g.config = "vector_width=" + std::to_string(vec) + ",threads=" + std::to_string(tpr) + ",rows_per_block=" + std::to_string(rpb)
               + ",blocks=" + std::to_string(grid);
    return g;
}

} // namespace hipdnngo::cuda_rtc::codegen
