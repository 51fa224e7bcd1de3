// CodegenNormFwd: Layernorm and RMSNorm forward, with a pointwise epilogue. One op family of the code generator (Codegen.cpp
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

// ---------------------------------------------------------------------------------------------
// Norm forward: TPR threads per row, RPB rows per block; each thread holds its part of the row
// in registers when it fits (NCH chunks of VEC elements), else rereads it.
Generated genNormFwd(const Program& p, const Knobs& k)
{
    const NormFwd& nf = p.norm;
    const std::vector<int64_t>& space = p.space;
    const int R = static_cast<int>(space.size());
    const int from = R - nf.k;
    const Tensor& x = p.t(nf.x);
    const Tensor& y = p.t(nf.y);
    const bool layer = nf.kind == NormKind::Layer;
    const int64_t N = nf.n, rows = nf.rows;

    // Vector width: x and y (when stored) rows must start on a vector boundary.
    auto rowAligned = [&](const Tensor& t, int v) { return rowsAligned(t, space, from, v); };
    auto vecOk = [&](int v) { return N % v == 0 && rowAligned(x, v) && (y.isVirtual || rowAligned(y, v)); };
    int vec = k.vec != 0 ? k.vec : 16 / dtypeBytes(x.dt);
    while(vec > 1 && !vecOk(vec))
        vec /= 2;
    // Threads per row: about 16 elements per thread up to 256 threads, about 32 beyond (H200, bf16
    // rows of 8192: 3.64-3.87 TB/s with 256 threads against 3.20-3.70 with 512; more rows per
    // block or walking blocks were no faster).
    int tpr = k.threads;
    if(tpr == 0)
    {
        tpr = 32;
        while(tpr < 1024 && static_cast<int64_t>(tpr) * (tpr < 256 ? 16 : 32) < N)
            tpr *= 2;
    }
    int rpb = k.rowsPerBlock != 0 ? k.rowsPerBlock : std::max(1, 128 / tpr);
    while(rpb > 1 && tpr * rpb > 1024)
        rpb /= 2;
    const int64_t nch = (N + static_cast<int64_t>(tpr) * vec - 1) / (static_cast<int64_t>(tpr) * vec);
    const bool cached = nch * vec <= 64;
    const bool twoPass = k.twoPass != 0; // default (-1) and 1: two passes
    // 2: each thread's mean and squared deviations over its registers, merged in one reduction
    // (as exact as two passes, with one block reduction instead of two); needs x in registers.
    const bool merged = layer && k.twoPass == 2 && cached;
    // The guards a thread needs only where the shape leaves threads without a row or columns
    // (known here, so the common shapes compile without them).
    const bool partialRows = rows % rpb != 0;
    const bool partialCols = N % (static_cast<int64_t>(tpr) * vec) != 0;
    const std::string inRow = partialRows ? "active" : "true";
    auto colGuard = [&](const std::string& col0) {
        if(!partialCols)
            return inRow;
        return (partialRows ? std::string("active && ") : std::string()) + col0 + " < (idx_t)" + std::to_string(N);
    };
    const int NW = tpr / 32;

    int64_t maxExtent = std::max<int64_t>(rows * N, extent(x));
    for(const Tensor& t : p.tensors)
        if(!t.isVirtual && !t.scalarArg())
            maxExtent = std::max(maxExtent, extent(t));
    const std::string idx = maxExtent < (int64_t{1} << 31) ? "unsigned" : "long long";

    Params prm(p);
    const std::string xs = prm.name(nf.x, false);
    const std::string ss = prm.name(nf.scale, false);
    const std::string bs = nf.bias >= 0 ? prm.name(nf.bias, false) : "";
    const Tensor& eps = p.t(nf.eps);
    const std::string es = prm.name(nf.eps, false);
    const std::string ys = y.isVirtual ? "" : prm.name(nf.y, true);
    const std::string ms = nf.mean >= 0 && layer ? prm.name(nf.mean, true) : "";
    const std::string is = nf.inv >= 0 ? prm.name(nf.inv, true) : "";
    const std::string X = dtypeName(x.dt);

    // The grid: one block per RPB rows, or (blocks_per_sm) a grid of that many blocks per SM
    // walking over the rows. A walking block loads scale and bias into registers once and
    // issues the loads of its next row before it reduces the current one.
    const int64_t nrb = (rows + rpb - 1) / rpb;
    const int64_t grid = k.blocksPerSm > 0 ? std::min(nrb, k.blocksPerSm * smCount(k)) : nrb;
    const bool walk = grid < nrb;
    const bool prefetch = walk && cached; // also: packed scale / bias held in registers for the whole row

    std::ostringstream os;
    os << prelude() << "\n" << rowSumFunction(tpr);
    if(merged)
        os << rowMeanVarFunction(tpr, partialCols ? 0 : nch * vec);
    const std::string kname = layer ? "hd_layernorm_fwd" : "hd_rmsnorm_fwd";
    std::ostringstream body;
    const std::string i1 = "        ", i2 = "            ", i3 = "                ", i4 = "                    ";
    const std::string V = std::to_string(vec), T = std::to_string(tpr), NV = std::to_string(nch * vec);
    const std::string vt = std::string("hd_vec<") + storageType(x.dt) + ", " + V + ">";

    body << "    typedef " << idx << " idx_t;\n";
    body << "    const int lane = threadIdx.x % " << tpr << ";\n";
    body << "    const int rloc = threadIdx.x / " << tpr << ";\n";
    body << "    __shared__ float hd_sh[" << rpb << "][" << (merged ? 3 : 2) * std::max(NW, 1) << "];\n";
    body << "    float* sh = hd_sh[rloc];\n";
    if(eps.scalarArg())
        body << "    const float eps = " << es << ";\n";
    else
        body << "    const float eps = hd_ld_" << dtypeName(eps.dt) << "(" << es << "[0]);\n";

    // scale / bias packed along the row: `vec` of them per chunk with the widest aligned vector
    // accesses (at most 16 bytes each), into dest[c * vec + e] when held for the whole row (prefetch), else
    // into dest[e] for chunk c alone.
    const Tensor& sc = p.t(nf.scale);
    const std::string scOff = offsetExpr(sc, space, from, R, "col");
    std::string biOff;
    if(nf.bias >= 0)
        biOff = offsetExpr(p.t(nf.bias), space, from, R, "col");
    auto paramWidth = [&](const Tensor& t, const std::string& off) {
        if(off != "col" || vec == 1)
            return 1;
        const int bytes = dtypeBytes(t.dt);
        int w = vec;
        while(w > 1 && (w * bytes > 16 || t.alignment % (w * bytes) != 0))
            w /= 2;
        return w;
    };
    const int scW = paramWidth(sc, scOff);
    const int biW = nf.bias >= 0 ? paramWidth(p.t(nf.bias), biOff) : 1;
    auto paramLoads = [&](std::ostream& o, const std::string& in, const Tensor& t, const std::string& name, int w,
                          const std::string& dest, const std::string& at) {
        const std::string pvt = std::string("hd_vec<") + storageType(t.dt) + ", " + std::to_string(w) + ">";
        o << "#pragma unroll\n" << in << "for(int h = 0; h < " << vec / w << "; ++h)\n" << in << "{\n";
        o << in << "    const " << pvt << " pv = *reinterpret_cast<const " << pvt << "*>(" << name << " + col0 + h * " << w << ");\n";
        o << "#pragma unroll\n" << in << "    for(int e = 0; e < " << w << "; ++e)\n";
        o << in << "        " << dest << "[" << at << "h * " << w << " + e] = hd_ld_" << dtypeName(t.dt) << "(pv.v[e]);\n";
        o << in << "}\n";
    };
    if(prefetch && (scW > 1 || biW > 1))
    {
        if(scW > 1)
            body << "    float sv[" << NV << "];\n";
        if(biW > 1)
            body << "    float bv[" << NV << "];\n";
        body << "#pragma unroll\n    for(int c = 0; c < " << nch << "; ++c)\n    {\n";
        body << i1 << "const idx_t col0 = ((idx_t)c * " << T << " + lane) * " << V << ";\n";
        if(partialCols)
            body << i1 << "if(col0 >= (idx_t)" << N << ")\n" << i2 << "continue;\n";
        if(scW > 1)
            paramLoads(body, i1, sc, ss, scW, "sv", "c * " + V + " + ");
        if(biW > 1)
            paramLoads(body, i1, p.t(nf.bias), bs, biW, "bv", "c * " + V + " + ");
        body << "    }\n";
    }
    // loadRow: this thread's chunks of x for row `r` into registers `dst`.
    auto loadRow = [&](std::ostream& o, const std::string& in, const std::string& dst, const std::string& r, const std::string& act) {
        o << "#pragma unroll\n" << in << "for(int c = 0; c < " << nch << "; ++c)\n" << in << "{\n";
        o << in << "    const idx_t col0 = ((idx_t)c * " << T << " + lane) * " << V << ";\n";
        o << in << "    if(" << act << (partialCols ? " && col0 < (idx_t)" + std::to_string(N) : std::string()) << ")\n";
        o << in << "        " << dst << "[c] = *reinterpret_cast<const " << vt << "*>(" << xs << " + (idx_t)"
          << offsetExpr(x, space, 0, from, r) << " + col0);\n";
        o << in << "}\n";
    };
    if(prefetch)
    {
        body << "    " << vt << " xa[" << nch << "];\n";
        body << "    {\n" << i1 << "const idx_t row = (idx_t)blockIdx.x * " << rpb << " + rloc;\n";
        loadRow(body, i1, "xa", "row", partialRows ? "row < (idx_t)" + std::to_string(rows) : std::string("true"));
        body << "    }\n";
    }

    body << "    for(idx_t rb = blockIdx.x; rb < (idx_t)" << nrb << "; rb += gridDim.x)\n    {\n";
    body << i1 << "const idx_t row = rb * " << rpb << " + rloc;\n";
    body << i1 << "const bool active = " << (partialRows ? "row < (idx_t)" + std::to_string(rows) : std::string("true")) << ";\n";
    body << i1 << "(void)active;\n";
    body << i1 << "const idx_t xrow = active ? (idx_t)" << offsetExpr(x, space, 0, from, "row") << " : (idx_t)0;\n";
    if(!ys.empty())
        body << i1 << "const idx_t yrow = active ? (idx_t)" << offsetExpr(y, space, 0, from, "row") << " : (idx_t)0;\n";
    if(prefetch)
    {
        body << i1 << "(void)xrow;\n";
        body << i1 << vt << " xb[" << nch << "];\n";
        body << i1 << "{\n" << i2 << "const idx_t nrow = row + (idx_t)gridDim.x * " << rpb << ";\n";
        loadRow(body, i2, "xb", "nrow",
                "rb + gridDim.x < (idx_t)" + std::to_string(nrb) + (partialRows ? " && nrow < (idx_t)" + std::to_string(rows) : ""));
        body << i1 << "}\n";
    }
    // The loop header over this thread's chunks, with the column of the chunk's first element.
    auto chunkLoop = [&](std::ostream& o, bool unroll) {
        if(unroll)
            o << "#pragma unroll\n";
        o << i1 << "for(int c = 0; c < " << nch << "; ++c)\n" << i1 << "{\n";
        o << i2 << "const idx_t col0 = ((idx_t)c * " << T << " + lane) * " << V << ";\n";
        o << i2 << "if(" << colGuard("col0") << ")\n" << i2 << "{\n";
        if(!prefetch)
            o << i3 << "const " << vt << " xv = *reinterpret_cast<const " << vt << "*>(" << xs << " + xrow + col0);\n";
        else
            o << i3 << "const " << vt << " xv = xa[c];\n" << i3 << "(void)col0;\n";
    };
    if(cached)
    {
        body << i1 << "float xr[" << NV << "];\n";
        chunkLoop(body, true);
        body << "#pragma unroll\n" << i3 << "for(int e = 0; e < " << V << "; ++e)\n";
        body << i4 << "xr[c * " << V << " + e] = hd_ld_" << X << "(xv.v[e]);\n";
        body << i2 << "}\n" << i2 << "else\n" << i2 << "{\n";
        body << "#pragma unroll\n" << i3 << "for(int e = 0; e < " << V << "; ++e)\n" << i4 << "xr[c * " << V << " + e] = 0.0f;\n";
        body << i2 << "}\n" << i1 << "}\n";
    }
    // Statistics.
    auto sumPass = [&](const std::string& acc, const std::string& term) {
        body << i1 << "float " << acc << " = 0.0f;\n";
        if(cached)
        {
            body << "#pragma unroll\n" << i1 << "for(int i = 0; i < " << NV << "; ++i)\n" << i1 << "{\n";
            body << i2 << "const float xe = xr[i];\n";
            body << i2 << "if(" << colGuard("((idx_t)(i / " + V + ") * " + T + " + lane) * " + V) << ")\n";
            body << i3 << acc << " += " << term << ";\n" << i1 << "}\n";
        }
        else
        {
            chunkLoop(body, false);
            body << "#pragma unroll\n" << i3 << "for(int e = 0; e < " << V << "; ++e)\n" << i3 << "{\n";
            body << i4 << "const float xe = hd_ld_" << X << "(xv.v[e]);\n";
            body << i4 << acc << " += " << term << ";\n" << i3 << "}\n";
            body << i2 << "}\n" << i1 << "}\n";
        }
    };
    const std::string invN = lit(1.0 / static_cast<double>(N));
    if(merged)
    {
        sumPass("acc1", "xe"); // the zeros of columns past the row add nothing
        if(partialCols)
        {
            body << i1 << "float cnt = 0.0f;\n";
            body << "#pragma unroll\n" << i1 << "for(int c = 0; c < " << nch << "; ++c)\n";
            body << i2 << "cnt += " << colGuard("((idx_t)c * " + T + " + lane) * " + V) << " ? " << V << ".0f : 0.0f;\n";
            body << i1 << "float mean = cnt > 0.0f ? acc1 / cnt : 0.0f;\n";
        }
        else
        {
            body << i1 << "float cnt = " << lit(static_cast<double>(nch * vec)) << ";\n";
            body << i1 << "float mean = acc1 * " << lit(1.0 / static_cast<double>(nch * vec)) << ";\n";
        }
        sumPass("acc2", "(xe - mean) * (xe - mean)");
        body << i1 << "hd_row_meanvar(mean, acc2, cnt, sh, lane);\n";
        body << i1 << "const float var = acc2 * " << invN << ";\n";
    }
    else if(layer && twoPass)
    {
        sumPass("acc1", "xe");
        body << i1 << "const float mean = hd_row_sum(acc1, sh, lane) * " << invN << ";\n";
        sumPass("acc2", "(xe - mean) * (xe - mean)");
        body << i1 << "const float var = hd_row_sum(acc2, sh, lane) * " << invN << ";\n";
    }
    else if(layer)
    {
        // One pass: the sum and the sum of squares in the same sweep, reduced together.
        body << i1 << "float acc1 = 0.0f, acc2 = 0.0f;\n";
        if(cached)
        {
            body << "#pragma unroll\n" << i1 << "for(int i = 0; i < " << NV << "; ++i)\n" << i1 << "{\n";
            body << i2 << "const float xe = xr[i];\n";
            body << i2 << "acc1 += xe;\n" << i2 << "acc2 += xe * xe;\n" << i1 << "}\n";
        }
        else
        {
            chunkLoop(body, false);
            body << "#pragma unroll\n" << i3 << "for(int e = 0; e < " << V << "; ++e)\n" << i3 << "{\n";
            body << i4 << "const float xe = hd_ld_" << X << "(xv.v[e]);\n";
            body << i4 << "acc1 += xe;\n" << i4 << "acc2 += xe * xe;\n" << i3 << "}\n";
            body << i2 << "}\n" << i1 << "}\n";
        }
        body << i1 << "hd_row_sum2(acc1, acc2, sh, lane);\n";
        body << i1 << "const float mean = acc1 * " << invN << ";\n";
        body << i1 << "const float var = fmaxf(acc2 * " << invN << " - mean * mean, 0.0f);\n";
    }
    else
    {
        sumPass("acc2", "xe * xe");
        body << i1 << "const float mean = 0.0f;\n";
        body << i1 << "const float var = hd_row_sum(acc2, sh, lane) * " << invN << ";\n";
    }
    body << i1 << "const float rinv = 1.0f / sqrtf(var + eps);\n";
    if(!ms.empty() || !is.empty())
    {
        body << i1 << "if(active && lane == 0)\n" << i1 << "{\n";
        if(!ms.empty())
        {
            const Tensor& m = p.t(nf.mean);
            body << i2 << ms << "[" << offsetExpr(m, space, 0, from, "row") << "] = hd_st_" << dtypeName(m.dt) << "(mean);\n";
        }
        if(!is.empty())
        {
            const Tensor& v = p.t(nf.inv);
            body << i2 << is << "[" << offsetExpr(v, space, 0, from, "row") << "] = hd_st_" << dtypeName(v.dt) << "(rinv);\n";
        }
        body << i1 << "}\n";
    }
    // Output: y = (x - mean) * rinv * scale (+ bias), then the epilogue.
    Chain ch{p, {}, {}, {}, {}};
    ch.load = [&](int64_t uid) {
        const Tensor& t = p.t(uid);
        const std::string n = prm.name(uid, false);
        if(t.scalarArg())
            return n;
        return "hd_ld_" + std::string(dtypeName(t.dt)) + "(" + n + "[" + offsetExpr(t, space, 0, R, "li") + "])";
    };
    ch.store = [&](int64_t uid, const std::string& v) {
        const Tensor& t = p.t(uid);
        const std::string n = prm.name(uid, true);
        return n + "[" + offsetExpr(t, space, 0, R, "li") + "] = hd_st_" + dtypeName(t.dt) + "(" + v + ");";
    };
    ch.genIndex = [&](const PwOp& op) -> std::string {
        const int64_t axis = op.axis + (R - p.t(op.out).rank());
        if(op.axis < 0 || axis >= R)
            throw Unsupported("pointwise gen_index: axis outside the output's rank");
        int64_t P = 1;
        for(int d = R - 1; d > axis; --d)
            P *= space[static_cast<size_t>(d)];
        return "(float)((li / " + std::to_string(P) + ") % " + std::to_string(space[static_cast<size_t>(axis)]) + ")";
    };
    ch.val[nf.y] = "yv";
    const std::string epilogue = ch.emit(i4);
    const std::string Y = dtypeName(y.dt);
    const std::string yvt = std::string("hd_vec<") + storageType(y.dt) + ", " + V + ">";

    if(cached)
    {
        body << "#pragma unroll\n" << i1 << "for(int c = 0; c < " << nch << "; ++c)\n" << i1 << "{\n";
        body << i2 << "const idx_t col0 = ((idx_t)c * " << T << " + lane) * " << V << ";\n";
        body << i2 << "if(" << colGuard("col0") << ")\n" << i2 << "{\n";
    }
    else
    {
        chunkLoop(body, false);
    }
    if(!ys.empty())
        body << i3 << yvt << " yw;\n";
    std::string scE = "hd_ld_" + std::string(dtypeName(sc.dt)) + "(" + ss + "[" + scOff + "])";
    std::string biE = nf.bias >= 0 ? "hd_ld_" + std::string(dtypeName(p.t(nf.bias).dt)) + "(" + bs + "[" + biOff + "])" : "";
    if(scW > 1)
    {
        scE = prefetch ? "sv[c * " + V + " + e]" : "sv[e]";
        if(!prefetch)
        {
            body << i3 << "float sv[" << V << "];\n";
            paramLoads(body, i3, sc, ss, scW, "sv", "");
        }
    }
    if(biW > 1)
    {
        biE = prefetch ? "bv[c * " + V + " + e]" : "bv[e]";
        if(!prefetch)
        {
            body << i3 << "float bv[" << V << "];\n";
            paramLoads(body, i3, p.t(nf.bias), bs, biW, "bv", "");
        }
    }
    body << "#pragma unroll\n" << i3 << "for(int e = 0; e < " << V << "; ++e)\n" << i3 << "{\n";
    body << i4 << "const idx_t col = col0 + e;\n";
    body << i4 << "const idx_t li = row * " << N << " + col;\n";
    body << i4 << "(void)li;\n";
    body << i4 << "const float xe = " << (cached ? "xr[c * " + V + " + e]" : "hd_ld_" + X + "(xv.v[e])") << ";\n";
    body << i4 << "float yv = (xe - mean) * rinv * " << scE;
    if(nf.bias >= 0)
        body << " + " << biE;
    body << ";\n";
    // y's stored bits, converted once; the epilogue (if any) reads the value they hold.
    if(!ys.empty())
    {
        body << i4 << "yw.v[e] = hd_st_" << Y << "(yv);\n";
        if(!epilogue.empty())
            body << i4 << "yv = hd_ld_" << Y << "(yw.v[e]);\n";
    }
    else if(!epilogue.empty())
        body << i4 << "yv = hd_rnd_" << Y << "(yv);\n";
    body << epilogue;
    body << i3 << "}\n";
    if(!ys.empty())
        body << i3 << "*reinterpret_cast<" << yvt << "*>(" << ys << " + yrow + col0) = yw;\n";
    body << i2 << "}\n" << i1 << "}\n";
    if(prefetch)
        body << "#pragma unroll\n" << i1 << "for(int c = 0; c < " << nch << "; ++c)\n" << i2 << "xa[c] = xb[c];\n";
    body << "    }\n";

    os << "extern \"C\" __global__ void __launch_bounds__(" << (tpr * rpb) << ") " << kname << "(" << prm.signature() << ")\n{\n" << body.str() << "}\n";
    Generated g;
    g.source = os.str();
    g.launches.push_back({kname, static_cast<unsigned>(grid), static_cast<unsigned>(tpr * rpb), prm.args});
    g.config = "vector_width=" + V + ",threads=" + T + ",rows_per_block=" + std::to_string(rpb) + ",two_pass="
               + (layer ? std::to_string(merged ? 2 : twoPass ? 1 : 0) : std::string("-")) + (cached ? ",registers" : ",reread")
               + (walk ? ",blocks=" + std::to_string(grid) : std::string());
    return g;
}

} // namespace hipdnngo::cuda_rtc::codegen
