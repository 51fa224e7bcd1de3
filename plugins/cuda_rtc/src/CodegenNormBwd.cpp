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
// Norm backward. Kernel 1: blocks walk over groups of RPB rows (by default one block per SM);
// each thread keeps its columns of x and dy in registers, computes dx for the row and
// accumulates dscale / dbias partial sums for its columns across the rows it visits, then writes
// them to the workspace (one row of partials per (block, row slot)). Kernel 2 adds the partials
// of each column in a fixed order: deterministic, no atomics.
constexpr int kParamCols = 32; // kernel 2: columns per block (one warp wide) ...
constexpr int kParamGroups = 8; // ... times groups of slots, each summed by one thread

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
    // One block per SM by default: the blocks hold a row's columns in registers, so no second one
    // fits, and a second wave would leave most SMs idle at its end (H100, layernorm 8192^2 bf16:
    // 256 blocks 1.80 TB/s, 132 blocks 2.13 TB/s).
    const int64_t grid = std::min(nrb, std::max(k.blocksPerSm, 1) * smCount(k));
    const int64_t slots = grid * rpb;
    const bool withBias = nb.dbias >= 0;
    // A block with more rows to walk issues the loads of its next row before it reduces the
    // current one.
    const bool prefetch = grid < nrb;

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
    const std::string V = std::to_string(vec), T = std::to_string(tpr);
    const std::string vx = std::string("hd_vec<") + storageType(x.dt) + ", " + V + ">";
    const std::string vdy = std::string("hd_vec<") + storageType(dy.dt) + ", " + V + ">";
    const std::string vdx = std::string("hd_vec<") + storageType(dx.dt) + ", " + V + ">";

    std::ostringstream b;
    b << "    typedef " << idx << " idx_t;\n";
    b << "    const int lane = threadIdx.x % " << tpr << ";\n";
    b << "    const int rloc = threadIdx.x / " << tpr << ";\n";
    b << "    __shared__ float hd_sh[" << rpb << "][" << 2 * std::max(tpr / 32, 1) << "];\n";
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
    // loadRow: this thread's chunks of x and dy for row `r`, kept in their stored form (half the
    // registers for fp16 / bf16) and converted where they are used.
    auto loadRow = [&](const std::string& in, const std::string& xd, const std::string& dd, const std::string& r,
                       const std::string& act) {
        b << in << vx << " " << xd << "[" << nch << "];\n" << in << vdy << " " << dd << "[" << nch << "];\n";
        b << "#pragma unroll\n" << in << "for(int c = 0; c < " << nch << "; ++c)\n" << in << "{\n";
        b << in << "    const idx_t col0 = ((idx_t)c * " << T << " + lane) * " << V << ";\n";
        b << in << "    if(" << act << " && col0 < (idx_t)" << N << ")\n" << in << "    {\n";
        b << in << "        " << xd << "[c] = *reinterpret_cast<const " << vx << "*>(" << xs << " + (idx_t)"
          << offsetExpr(x, space, 0, from, r) << " + col0);\n";
        b << in << "        " << dd << "[c] = *reinterpret_cast<const " << vdy << "*>(" << dys << " + (idx_t)"
          << offsetExpr(dy, space, 0, from, r) << " + col0);\n";
        b << in << "    }\n" << in << "    else\n" << in << "    {\n";
        b << "#pragma unroll\n" << in << "        for(int e = 0; e < " << V << "; ++e)\n";
        b << in << "            " << xd << "[c].v[e] = " << dd << "[c].v[e] = 0;\n";
        b << in << "    }\n" << in << "}\n";
    };
    if(prefetch)
    {
        b << "    idx_t row = (idx_t)blockIdx.x * " << rpb << " + rloc;\n";
        loadRow("    ", "xa", "da", "row", "row < (idx_t)" + std::to_string(rows));
    }
    b << "    for(idx_t rb = blockIdx.x; rb < (idx_t)" << nrb << "; rb += gridDim.x)\n    {\n";
    b << in1 << (prefetch ? "" : "const idx_t ") << "row = rb * " << rpb << " + rloc;\n";
    b << in1 << "const bool active = row < (idx_t)" << rows << ";\n";
    b << in1 << "const idx_t dxrow = active ? (idx_t)" << offsetExpr(dx, space, 0, from, "row") << " : (idx_t)0;\n";
    if(prefetch)
    {
        b << in1 << "const idx_t nrow = row + (idx_t)gridDim.x * " << rpb << ";\n";
        loadRow(in1, "xn", "dn", "nrow", "rb + gridDim.x < (idx_t)" + std::to_string(nrb) + " && nrow < (idx_t)" + std::to_string(rows));
    }
    else
    {
        loadRow(in1, "xa", "da", "row", "active");
    }
    // xe(i), de(i): element i of this thread's part of the row, as fp32.
    auto xe = [&](const std::string& i) { return "hd_ld_" + X + "(xa[(" + i + ") / " + V + "].v[(" + i + ") % " + V + "])"; };
    auto de = [&](const std::string& i) { return "hd_ld_" + DY + "(da[(" + i + ") / " + V + "].v[(" + i + ") % " + V + "])"; };
    // valid(i): element i of this thread is a column of an active row.
    const std::string valid = "active && ((idx_t)(i / " + V + ") * " + T + " + lane) * " + V + " < (idx_t)" + std::to_string(N);
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
        b << "#pragma unroll\n" << in1 << "for(int i = 0; i < " << nv << "; ++i)\n" << in2 << "acc += " << xe("i") << ";\n";
        b << in1 << "const float mean = hd_row_sum(acc, sh, lane) * " << invN << ";\n";
        b << in1 << "float acc2 = 0.0f;\n";
        b << "#pragma unroll\n" << in1 << "for(int i = 0; i < " << nv << "; ++i)\n";
        b << in2 << "if(" << valid << ")\n" << in3 << "acc2 += (" << xe("i") << " - mean) * (" << xe("i") << " - mean);\n";
        b << in1 << "const float rinv = 1.0f / sqrtf(hd_row_sum(acc2, sh, lane) * " << invN << " + eps);\n";
    }
    b << in1 << "float ag = 0.0f, agx = 0.0f;\n";
    b << "#pragma unroll\n" << in1 << "for(int i = 0; i < " << nv << "; ++i)\n" << in1 << "{\n";
    b << in2 << "if(" << valid << ")\n" << in2 << "{\n";
    b << in3 << "const float g = " << de("i") << " * sr[i];\n";
    b << in3 << "ag += g;\n" << in3 << "agx += g * (" << xe("i") << " - mean) * rinv;\n" << in2 << "}\n" << in1 << "}\n";
    if(layer)
        b << in1 << "hd_row_sum2(ag, agx, sh, lane);\n" << in1 << "const float mg = ag * " << invN << ";\n"
          << in1 << "const float mgx = agx * " << invN << ";\n";
    else
        b << in1 << "const float mg = 0.0f;\n" << in1 << "(void)ag;\n"
          << in1 << "const float mgx = hd_row_sum(agx, sh, lane) * " << invN << ";\n";
    b << "#pragma unroll\n" << in1 << "for(int c = 0; c < " << nch << "; ++c)\n" << in1 << "{\n";
    b << in2 << "const idx_t col0 = ((idx_t)c * " << T << " + lane) * " << V << ";\n";
    b << in2 << "if(active && col0 < (idx_t)" << N << ")\n" << in2 << "{\n";
    b << in3 << vdx << " w;\n";
    b << "#pragma unroll\n" << in3 << "for(int e = 0; e < " << V << "; ++e)\n" << in3 << "{\n";
    b << in3 << "    const int i = c * " << V << " + e;\n";
    b << in3 << "    const float xh = (" << xe("i") << " - mean) * rinv;\n";
    b << in3 << "    const float d = " << de("i") << ";\n";
    b << in3 << "    w.v[e] = hd_st_" << DX << "(rinv * (d * sr[i] - mg - xh * mgx));\n";
    b << in3 << "    pds[i] += d * xh;\n" << in3 << "    pdb[i] += d;\n" << in3 << "}\n";
    b << in3 << "*reinterpret_cast<" << vdx << "*>(" << dxs << " + dxrow + col0) = w;\n";
    b << in2 << "}\n" << in1 << "}\n";
    if(prefetch)
        b << "#pragma unroll\n" << in1 << "for(int c = 0; c < " << nch << "; ++c)\n" << in1 << "{\n"
          << in2 << "xa[c] = xn[c];\n" << in2 << "da[c] = dn[c];\n" << in1 << "}\n";
    b << "    }\n";
    // Partials: slot (block, rloc), dscale then dbias.
    b << "    const idx_t slot = (idx_t)blockIdx.x * " << rpb << " + rloc;\n";
    b << "#pragma unroll\n    for(int i = 0; i < " << nv << "; ++i)\n    {\n";
    b << in1 << "const idx_t col = ((idx_t)(i / " << vec << ") * " << tpr << " + lane) * " << vec << " + i % " << vec << ";\n";
    b << in1 << "if(col < (idx_t)" << N << ")\n" << in1 << "{\n";
    b << in2 << "hd_ws[slot * " << N << " + col] = pds[i];\n";
    if(withBias)
        b << in2 << "hd_ws[(idx_t)" << slots * N << " + slot * " << N << " + col] = pdb[i];\n";
    b << in1 << "}\n    }\n";

    // Kernel 2: the parameter gradients. A block takes kParamCols columns; its kParamGroups rows
    // of threads each add every kParamGroups-th slot, then one thread per column adds the groups.
    Params prm2(p);
    const Tensor& dsc = p.t(nb.dscale);
    const std::string dss = prm2.name(nb.dscale, true);
    std::string dbs;
    if(withBias)
        dbs = prm2.name(nb.dbias, true);
    prm2.decls.push_back("const float* __restrict__ hd_ws");
    prm2.args.push_back(wsArg);
    std::ostringstream b2;
    const std::string PC = std::to_string(kParamCols), PG = std::to_string(kParamGroups);
    b2 << "    typedef " << idx << " idx_t;\n";
    b2 << "    __shared__ float hd_ps[2][" << PG << "][" << PC << "];\n";
    b2 << "    const int cx = threadIdx.x % " << PC << ", gy = threadIdx.x / " << PC << ";\n";
    b2 << "    const idx_t col = (idx_t)blockIdx.x * " << PC << " + cx;\n";
    b2 << "    float s = 0.0f, t = 0.0f;\n";
    b2 << "    if(col < (idx_t)" << N << ")\n    {\n";
    b2 << in1 << "for(idx_t q = gy; q < (idx_t)" << slots << "; q += " << PG << ")\n" << in1 << "{\n";
    b2 << in2 << "s += hd_ws[q * " << N << " + col];\n";
    if(withBias)
        b2 << in2 << "t += hd_ws[(idx_t)" << slots * N << " + q * " << N << " + col];\n";
    b2 << in1 << "}\n    }\n";
    b2 << "    hd_ps[0][gy][cx] = s;\n    hd_ps[1][gy][cx] = t;\n    __syncthreads();\n";
    b2 << "    if(gy != 0 || col >= (idx_t)" << N << ")\n        return;\n";
    b2 << "#pragma unroll\n    for(int g = 1; g < " << PG << "; ++g)\n    {\n";
    b2 << in1 << "s += hd_ps[0][g][cx];\n" << in1 << "t += hd_ps[1][g][cx];\n    }\n";
    b2 << "    " << dss << "[" << offsetExpr(dsc, space, from, R, "col") << "] = hd_st_" << dtypeName(dsc.dt) << "(s);\n";
    if(withBias)
    {
        const Tensor& dbi = p.t(nb.dbias);
        b2 << "    " << dbs << "[" << offsetExpr(dbi, space, from, R, "col") << "] = hd_st_" << dtypeName(dbi.dt) << "(t);\n";
    }
    else
    {
        b2 << "    (void)t;\n";
    }

    std::ostringstream os;
    os << prelude() << "\n" << rowSumFunction(tpr);
    const std::string k1 = layer ? "hd_layernorm_bwd" : "hd_rmsnorm_bwd";
    const std::string k2 = layer ? "hd_layernorm_bwd_params" : "hd_rmsnorm_bwd_params";
    os << "extern \"C\" __global__ void __launch_bounds__(" << (tpr * rpb) << ") " << k1 << "(" << prm.signature() << ")\n{\n" << b.str() << "}\n\n";
    os << "extern \"C\" __global__ void __launch_bounds__(" << kParamCols * kParamGroups << ") " << k2 << "(" << prm2.signature() << ")\n{\n" << b2.str() << "}\n";
    Generated g;
    g.source = os.str();
    g.launches.push_back({k1, static_cast<unsigned>(grid), static_cast<unsigned>(tpr * rpb), prm.args});
    g.launches.push_back({k2, static_cast<unsigned>((N + kParamCols - 1) / kParamCols), static_cast<unsigned>(kParamCols * kParamGroups),
                          prm2.args});
    g.workspace = static_cast<size_t>(slots * N * (withBias ? 2 : 1)) * sizeof(float);
    g.config = "vector_width=" + std::to_string(vec) + ",threads=" + std::to_string(tpr) + ",rows_per_block=" + std::to_string(rpb)
               + ",blocks=" + std::to_string(grid);
    return g;
}

} // namespace hipdnngo::cuda_rtc::codegen
