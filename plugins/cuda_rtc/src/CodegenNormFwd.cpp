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
    // Threads per row: about 16 elements per thread by default.
    int tpr = k.threads;
    if(tpr == 0)
    {
        tpr = 32;
        while(tpr < 1024 && static_cast<int64_t>(tpr) * 16 < N)
            tpr *= 2;
    }
    int rpb = k.rowsPerBlock != 0 ? k.rowsPerBlock : std::max(1, 128 / tpr);
    while(rpb > 1 && tpr * rpb > 1024)
        rpb /= 2;
    const int64_t nch = (N + static_cast<int64_t>(tpr) * vec - 1) / (static_cast<int64_t>(tpr) * vec);
    const bool cached = nch * vec <= 64;
    const bool twoPass = k.twoPass != 0; // default (-1) and 1: two passes
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
    const int W = std::min(tpr, 32), NW = tpr / 32;

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

    std::ostringstream os;
    os << prelude() << "\n";
    // The row reduction: shuffles within groups of W lanes, then across the NW warps of a row.
    os << "__device__ inline float hd_row_sum(float v, float* sh, int lane)\n{\n";
    os << "#pragma unroll\n    for(int o = " << W / 2 << "; o > 0; o >>= 1)\n        v += __shfl_xor_sync(0xffffffffu, v, o);\n";
    if(NW > 1)
    {
        os << "    __syncthreads();\n    if((lane & 31) == 0)\n        sh[lane >> 5] = v;\n    __syncthreads();\n";
        os << "    v = 0.0f;\n#pragma unroll\n    for(int w = 0; w < " << NW << "; ++w)\n        v += sh[w];\n";
    }
    else
    {
        os << "    (void)sh;\n    (void)lane;\n";
    }
    os << "    return v;\n}\n\n";
    const std::string kname = layer ? "hd_layernorm_fwd" : "hd_rmsnorm_fwd";
    std::ostringstream body;
    const std::string in1 = "        ";
    const std::string in3 = "                ";

    body << "    typedef " << idx << " idx_t;\n";
    body << "    const int lane = threadIdx.x % " << tpr << ";\n";
    body << "    const int rloc = threadIdx.x / " << tpr << ";\n";
    body << "    const idx_t row = (idx_t)blockIdx.x * " << rpb << " + rloc;\n";
    body << "    const bool active = " << (partialRows ? "row < (idx_t)" + std::to_string(rows) : std::string("true")) << ";\n";
    body << "    __shared__ float hd_sh[" << rpb << "][" << std::max(NW, 1) << "];\n";
    body << "    float* sh = hd_sh[rloc];\n";
    body << "    const idx_t xrow = active ? (idx_t)" << offsetExpr(x, space, 0, from, "row") << " : (idx_t)0;\n";
    if(!ys.empty())
        body << "    const idx_t yrow = active ? (idx_t)" << offsetExpr(y, space, 0, from, "row") << " : (idx_t)0;\n";
    if(eps.scalarArg())
        body << "    const float eps = " << es << ";\n";
    else
        body << "    const float eps = hd_ld_" << dtypeName(eps.dt) << "(" << es << "[0]);\n";
    const std::string vt = std::string("hd_vec<") + storageType(x.dt) + ", " + std::to_string(vec) + ">";
    // The loop header over this thread's chunks, with the column of the chunk's first element.
    auto chunkLoop = [&](std::ostream& o, bool unroll) {
        if(unroll)
            o << "#pragma unroll\n";
        o << "    for(int c = 0; c < " << nch << "; ++c)\n    {\n";
        o << in1 << "const idx_t col0 = ((idx_t)c * " << tpr << " + lane) * " << vec << ";\n";
        o << in1 << "if(" << colGuard("col0") << ")\n" << in1 << "{\n";
        o << in1 << "    const " << vt << " xv = *reinterpret_cast<const " << vt << "*>(" << xs << " + xrow + col0);\n";
    };
    if(cached)
    {
        body << "    float xr[" << nch * vec << "];\n";
        chunkLoop(body, true);
        body << "#pragma unroll\n" << in1 << "    for(int e = 0; e < " << vec << "; ++e)\n";
        body << in1 << "        xr[c * " << vec << " + e] = hd_ld_" << X << "(xv.v[e]);\n";
        body << in1 << "}\n" << in1 << "else\n" << in1 << "{\n";
        body << "#pragma unroll\n" << in1 << "    for(int e = 0; e < " << vec << "; ++e)\n" << in1 << "        xr[c * " << vec << " + e] = 0.0f;\n";
        body << in1 << "}\n    }\n";
    }
    // Statistics.
    auto sumPass = [&](const std::string& acc, const std::string& term) {
        body << "    float " << acc << " = 0.0f;\n";
        if(cached)
        {
            body << "#pragma unroll\n    for(int i = 0; i < " << nch * vec << "; ++i)\n    {\n";
            body << in1 << "const float xe = xr[i];\n";
            body << in1 << "if(" << colGuard("((idx_t)(i / " + std::to_string(vec) + ") * " + std::to_string(tpr) + " + lane) * " + std::to_string(vec)) << ")\n";
            body << in1 << "    " << acc << " += " << term << ";\n    }\n";
        }
        else
        {
            chunkLoop(body, false);
            body << "#pragma unroll\n" << in1 << "    for(int e = 0; e < " << vec << "; ++e)\n" << in1 << "    {\n";
            body << in1 << "        const float xe = hd_ld_" << X << "(xv.v[e]);\n";
            body << in1 << "        " << acc << " += " << term << ";\n" << in1 << "    }\n";
            body << in1 << "}\n    }\n";
        }
    };
    const std::string invN = lit(1.0 / static_cast<double>(N));
    if(layer && twoPass)
    {
        sumPass("acc1", "xe");
        body << "    const float mean = hd_row_sum(acc1, sh, lane) * " << invN << ";\n";
        sumPass("acc2", "(xe - mean) * (xe - mean)");
        body << "    const float var = hd_row_sum(acc2, sh, lane) * " << invN << ";\n";
    }
    else if(layer)
    {
        // One pass: the sum and the sum of squares in the same sweep.
        body << "    float acc1 = 0.0f, acc2 = 0.0f;\n";
        if(cached)
        {
            body << "#pragma unroll\n    for(int i = 0; i < " << nch * vec << "; ++i)\n    {\n";
            body << in1 << "const float xe = xr[i];\n";
            body << in1 << "acc1 += xe;\n" << in1 << "acc2 += xe * xe;\n    }\n";
        }
        else
        {
            chunkLoop(body, false);
            body << "#pragma unroll\n" << in1 << "    for(int e = 0; e < " << vec << "; ++e)\n" << in1 << "    {\n";
            body << in1 << "        const float xe = hd_ld_" << X << "(xv.v[e]);\n";
            body << in1 << "        acc1 += xe;\n" << in1 << "        acc2 += xe * xe;\n" << in1 << "    }\n";
            body << in1 << "}\n    }\n";
        }
        body << "    const float mean = hd_row_sum(acc1, sh, lane) * " << invN << ";\n";
        body << "    const float var = fmaxf(hd_row_sum(acc2, sh, lane) * " << invN << " - mean * mean, 0.0f);\n";
    }
    else
    {
        sumPass("acc2", "xe * xe");
        body << "    const float mean = 0.0f;\n";
        body << "    const float var = hd_row_sum(acc2, sh, lane) * " << invN << ";\n";
    }
    body << "    const float rinv = 1.0f / sqrtf(var + eps);\n";
    if(!ms.empty() || !is.empty())
    {
        body << "    if(active && lane == 0)\n    {\n";
        if(!ms.empty())
        {
            const Tensor& m = p.t(nf.mean);
            body << in1 << ms << "[" << offsetExpr(m, space, 0, from, "row") << "] = hd_st_" << dtypeName(m.dt) << "(mean);\n";
        }
        if(!is.empty())
        {
            const Tensor& v = p.t(nf.inv);
            body << in1 << is << "[" << offsetExpr(v, space, 0, from, "row") << "] = hd_st_" << dtypeName(v.dt) << "(rinv);\n";
        }
        body << "    }\n";
    }
    // Output: y = (x - mean) * rinv * scale (+ bias), then the epilogue.
    const Tensor& sc = p.t(nf.scale);
    const std::string scOff = offsetExpr(sc, space, from, R, "col");
    std::string biOff;
    if(nf.bias >= 0)
        biOff = offsetExpr(p.t(nf.bias), space, from, R, "col");
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
    const std::string epilogue = ch.emit(in3);
    const std::string Y = dtypeName(y.dt);
    const std::string yvt = std::string("hd_vec<") + storageType(y.dt) + ", " + std::to_string(vec) + ">";

    if(cached)
    {
        body << "#pragma unroll\n    for(int c = 0; c < " << nch << "; ++c)\n    {\n";
        body << in1 << "const idx_t col0 = ((idx_t)c * " << tpr << " + lane) * " << vec << ";\n";
        body << in1 << "if(" << colGuard("col0") << ")\n" << in1 << "{\n";
    }
    else
    {
        chunkLoop(body, false);
    }
    if(!ys.empty())
        body << in1 << "    " << yvt << " yw;\n";
    // scale / bias: when packed along the row, `vec` of them per chunk with the widest aligned
    // vector accesses (at most 16 bytes each); else one load per element.
    auto paramLoads = [&](const Tensor& t, const std::string& name, const std::string& off, const std::string& dest) {
        if(off != "col" || vec == 1)
            return false;
        const int bytes = dtypeBytes(t.dt);
        int w = vec;
        while(w > 1 && (w * bytes > 16 || t.alignment % (w * bytes) != 0))
            w /= 2;
        if(w == 1)
            return false;
        const std::string vt = std::string("hd_vec<") + storageType(t.dt) + ", " + std::to_string(w) + ">";
        body << in1 << "    float " << dest << "[" << vec << "];\n";
        body << "#pragma unroll\n" << in1 << "    for(int h = 0; h < " << vec / w << "; ++h)\n" << in1 << "    {\n";
        body << in3 << "const " << vt << " pv = *reinterpret_cast<const " << vt << "*>(" << name << " + col0 + h * " << w << ");\n";
        body << "#pragma unroll\n" << in3 << "for(int e = 0; e < " << w << "; ++e)\n";
        body << in3 << "    " << dest << "[h * " << w << " + e] = hd_ld_" << dtypeName(t.dt) << "(pv.v[e]);\n";
        body << in1 << "    }\n";
        return true;
    };
    const bool scVec = paramLoads(sc, ss, scOff, "sv");
    const bool biVec = nf.bias >= 0 && paramLoads(p.t(nf.bias), bs, biOff, "bv");
    body << "#pragma unroll\n" << in1 << "    for(int e = 0; e < " << vec << "; ++e)\n" << in1 << "    {\n";
    body << in3 << "const idx_t col = col0 + e;\n";
    body << in3 << "const idx_t li = row * " << N << " + col;\n";
    body << in3 << "(void)li;\n";
    body << in3 << "const float xe = " << (cached ? "xr[c * " + std::to_string(vec) + " + e]" : "hd_ld_" + X + "(xv.v[e])")
         << ";\n";
    body << in3 << "float yv = (xe - mean) * rinv * "
         << (scVec ? std::string("sv[e]") : "hd_ld_" + std::string(dtypeName(sc.dt)) + "(" + ss + "[" + scOff + "])");
    if(nf.bias >= 0)
        body << " + " << (biVec ? std::string("bv[e]") : "hd_ld_" + std::string(dtypeName(p.t(nf.bias).dt)) + "(" + bs + "[" + biOff + "])");
    body << ";\n";
    // y's stored bits, converted once; the epilogue (if any) reads the value they hold.
    if(!ys.empty())
    {
        body << in3 << "yw.v[e] = hd_st_" << Y << "(yv);\n";
        if(!epilogue.empty())
            body << in3 << "yv = hd_ld_" << Y << "(yw.v[e]);\n";
    }
    else if(!epilogue.empty())
        body << in3 << "yv = hd_rnd_" << Y << "(yv);\n";
    body << epilogue;
    body << in1 << "    }\n";
    if(!ys.empty())
        body << in1 << "    *reinterpret_cast<" << yvt << "*>(" << ys << " + yrow + col0) = yw;\n";
    body << in1 << "}\n    }\n";

    os << "extern \"C\" __global__ void __launch_bounds__(" << (tpr * rpb) << ") " << kname << "(" << prm.signature() << ")\n{\n" << body.str() << "}\n";
    Generated g;
    g.source = os.str();
    g.launches.push_back({kname, static_cast<unsigned>((rows + rpb - 1) / rpb), static_cast<unsigned>(tpr * rpb), prm.args});
    g.config = "vector_width=" + std::to_string(vec) + ",threads=" + std::to_string(tpr) + ",rows_per_block="
               + std::to_string(rpb) + ",two_pass=" + (layer ? std::to_string(twoPass ? 1 : 0) : std::string("-"))
               + (cached ? ",registers" : ",reread");
    return g;
}

} // namespace hipdnngo::cuda_rtc::codegen
