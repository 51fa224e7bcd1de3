// CodegenBatchnorm: Batchnorm inference, training forward and backward. One op family of the code generator (Codegen.cpp
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

// Batchnorm. Kernel 1: one block per channel, `threads` threads striding over the channel's
// N * spatial elements (any strides): the statistics (two passes for the forward), written to
// the workspace and to the requested outputs. Kernel 2: a grid-stride pass over x applying them
// (then the forward's pointwise epilogue).
std::string scalarValue(const Program& p, Params& prm, int64_t uid)
{
    const Tensor& t = p.t(uid);
    const std::string n = prm.name(uid, false);
    return t.scalarArg() ? n : "hd_ld_" + std::string(dtypeName(t.dt)) + "(" + n + "[0])";
}

} // namespace

Generated genBatchnorm(const Program& p, const Knobs& k)
{
    const Batchnorm& bn = p.bn;
    const bool fwd = p.pattern == Pattern::BnFwd;
    const std::vector<int64_t>& space = p.space;
    const int R = static_cast<int>(space.size());
    const Tensor& x = p.t(bn.x);
    const int64_t C = bn.channels, Mcount = bn.members;
    std::vector<bool> red(static_cast<size_t>(R), true), chan(static_cast<size_t>(R), false);
    red[1] = false;
    chan[1] = true;
    int tpr = k.threads;
    if(tpr == 0)
    {
        tpr = 32;
        while(tpr < 1024 && static_cast<int64_t>(tpr) * 8 < Mcount)
            tpr *= 2;
    }
    int64_t maxExtent = x.elements();
    for(const Tensor& t : p.tensors)
        if(!t.isVirtual && !t.scalarArg())
            maxExtent = std::max(maxExtent, extent(t));
    const std::string idx = maxExtent < (int64_t{1} << 31) ? "unsigned" : "long long";
    const std::string in1 = "        ", in2 = "            ";
    const std::string invM = lit(1.0 / static_cast<double>(Mcount));
    Arg wsArg;
    wsArg.kind = Arg::Workspace;

    // Kernel 1: statistics per channel.
    Params p1(p);
    const std::string xs = p1.name(bn.x, false);
    std::string dys;
    if(!fwd)
        dys = p1.name(bn.dy, false);
    auto member = [&](const Tensor& t, const std::string& base) {
        return base + "[" + offsetMaskExpr(t, space, chan, "c") + " + " + offsetMaskExpr(t, space, red, "m") + "]";
    };
    std::ostringstream b1;
    b1 << "    typedef " << idx << " idx_t;\n";
    b1 << "    const idx_t c = blockIdx.x;\n";
    b1 << "    const int lane = threadIdx.x;\n";
    b1 << "    __shared__ float hd_sh[" << 2 * std::max(tpr / 32, 1) << "];\n";
    b1 << "    float* sh = hd_sh;\n";
    if(fwd)
    {
        b1 << "    float a = 0.0f;\n";
        b1 << "    for(idx_t m = lane; m < (idx_t)" << Mcount << "; m += " << tpr << ")\n";
        b1 << in1 << "a += hd_ld_" << dtypeName(x.dt) << "(" << member(x, xs) << ");\n";
        b1 << "    const float mean = hd_row_sum(a, sh, lane) * " << invM << ";\n";
        b1 << "    float q = 0.0f;\n";
        b1 << "    for(idx_t m = lane; m < (idx_t)" << Mcount << "; m += " << tpr << ")\n    {\n";
        b1 << in1 << "const float d = hd_ld_" << dtypeName(x.dt) << "(" << member(x, xs) << ") - mean;\n";
        b1 << in1 << "q += d * d;\n    }\n";
        b1 << "    const float var = hd_row_sum(q, sh, lane) * " << invM << ";\n";
        b1 << "    const float rinv = 1.0f / sqrtf(var + " << scalarValue(p, p1, bn.eps) << ");\n";
        b1 << "    if(lane == 0)\n    {\n";
        b1 << in1 << "hd_ws[c] = mean;\n" << in1 << "hd_ws[" << C << " + c] = rinv;\n";
        auto perChannelStore = [&](int64_t uid, const std::string& v) {
            const Tensor& t = p.t(uid);
            b1 << in1 << p1.name(uid, true) << "[" << offsetMaskExpr(t, space, chan, "c") << "] = hd_st_" << dtypeName(t.dt) << "("
               << v << ");\n";
        };
        auto perChannelLoad = [&](int64_t uid) {
            const Tensor& t = p.t(uid);
            return "hd_ld_" + std::string(dtypeName(t.dt)) + "(" + p1.name(uid, false) + "[" + offsetMaskExpr(t, space, chan, "c")
                   + "])";
        };
        if(bn.mean >= 0)
            perChannelStore(bn.mean, "mean");
        if(bn.inv >= 0)
            perChannelStore(bn.inv, "rinv");
        if(bn.momentum >= 0)
            b1 << in1 << "const float mom = " << scalarValue(p, p1, bn.momentum) << ";\n";
        if(bn.nextMean >= 0)
            perChannelStore(bn.nextMean, "(1.0f - mom) * " + perChannelLoad(bn.prevMean) + " + mom * mean");
        if(bn.nextVar >= 0)
            perChannelStore(bn.nextVar, "(1.0f - mom) * " + perChannelLoad(bn.prevVar) + " + mom * var * "
                                            + lit(static_cast<double>(Mcount) / static_cast<double>(Mcount - 1)));
        b1 << "    }\n";
    }
    else
    {
        const std::string ms = p1.name(bn.mean, false), is = p1.name(bn.inv, false);
        b1 << "    const float mean = hd_ld_" << dtypeName(p.t(bn.mean).dt) << "(" << ms << "["
           << offsetMaskExpr(p.t(bn.mean), space, chan, "c") << "]);\n";
        b1 << "    const float rinv = hd_ld_" << dtypeName(p.t(bn.inv).dt) << "(" << is << "["
           << offsetMaskExpr(p.t(bn.inv), space, chan, "c") << "]);\n";
        b1 << "    float sb = 0.0f, ss = 0.0f;\n";
        b1 << "    for(idx_t m = lane; m < (idx_t)" << Mcount << "; m += " << tpr << ")\n    {\n";
        b1 << in1 << "const float g = hd_ld_" << dtypeName(p.t(bn.dy).dt) << "(" << member(p.t(bn.dy), dys) << ");\n";
        b1 << in1 << "sb += g;\n";
        b1 << in1 << "ss += g * (hd_ld_" << dtypeName(x.dt) << "(" << member(x, xs) << ") - mean) * rinv;\n    }\n";
        b1 << "    hd_row_sum2(sb, ss, sh, lane);\n";
        b1 << "    if(lane == 0)\n    {\n";
        b1 << in1 << "hd_ws[c] = mean;\n" << in1 << "hd_ws[" << C << " + c] = rinv;\n";
        b1 << in1 << "hd_ws[" << 2 * C << " + c] = sb;\n" << in1 << "hd_ws[" << 3 * C << " + c] = ss;\n";
        for(int64_t uid : {bn.dscale, bn.dbias})
        {
            const Tensor& t = p.t(uid);
            b1 << in1 << p1.name(uid, true) << "[" << offsetMaskExpr(t, space, chan, "c") << "] = hd_st_" << dtypeName(t.dt) << "("
               << (uid == bn.dscale ? "ss" : "sb") << ");\n";
        }
        b1 << "    }\n";
    }
    p1.decls.push_back("float* __restrict__ hd_ws");
    p1.args.push_back(wsArg);

    // Kernel 2: apply.
    Params p2(p);
    int64_t P1 = 1;
    for(int d = R - 1; d > 1; --d)
        P1 *= space[static_cast<size_t>(d)];
    const int block = 256;
    const int64_t total = x.elements();
    std::ostringstream b2;
    b2 << "    typedef " << idx << " idx_t;\n";
    b2 << "    for(idx_t li = (idx_t)blockIdx.x * blockDim.x + threadIdx.x; li < (idx_t)" << total
       << "; li += (idx_t)gridDim.x * blockDim.x)\n    {\n";
    b2 << in1 << "const idx_t c = (li / " << P1 << ") % " << C << ";\n";
    b2 << in1 << "const float mean = hd_ws[c], rinv = hd_ws[" << C << " + c];\n";
    auto full = [&](int64_t uid, bool write) {
        const Tensor& t = p.t(uid);
        return p2.name(uid, write) + "[" + offsetExpr(t, space, 0, R, "li") + "]";
    };
    b2 << in1 << "const float xe = hd_ld_" << dtypeName(x.dt) << "(" << full(bn.x, false) << ");\n";
    b2 << in1 << "const float sc = hd_ld_" << dtypeName(p.t(bn.scale).dt) << "(" << full(bn.scale, false) << ");\n";
    if(fwd)
    {
        const Tensor& y = p.t(bn.y);
        b2 << in1 << "const float yv = hd_rnd_" << dtypeName(y.dt) << "(sc * ((xe - mean) * rinv) + hd_ld_"
           << dtypeName(p.t(bn.bias).dt) << "(" << full(bn.bias, false) << "));\n";
        if(!y.isVirtual)
            b2 << in1 << full(bn.y, true) << " = hd_st_" << dtypeName(y.dt) << "(yv);\n";
        Chain ch{p, {}, {}, {}, {}};
        ch.val[bn.y] = "yv";
        ch.load = [&](int64_t uid) {
            const Tensor& t = p.t(uid);
            return t.scalarArg() ? p2.name(uid, false) : "hd_ld_" + std::string(dtypeName(t.dt)) + "(" + full(uid, false) + ")";
        };
        ch.store = [&](int64_t uid, const std::string& v) {
            return full(uid, true) + " = hd_st_" + std::string(dtypeName(p.t(uid).dt)) + "(" + v + ");";
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
        b2 << ch.emit(in1);
    }
    else
    {
        const Tensor& dxT = p.t(bn.dx);
        b2 << in1 << "const float g = hd_ld_" << dtypeName(p.t(bn.dy).dt) << "(" << full(bn.dy, false) << ");\n";
        b2 << in1 << "const float xh = (xe - mean) * rinv;\n";
        b2 << in1 << full(bn.dx, true) << " = hd_st_" << dtypeName(dxT.dt) << "(sc * rinv * (g - hd_ws[" << 2 * C << " + c] * "
           << invM << " - xh * hd_ws[" << 3 * C << " + c] * " << invM << "));\n";
    }
    b2 << "    }\n";
    p2.decls.push_back("const float* __restrict__ hd_ws");
    p2.args.push_back(wsArg);

    std::ostringstream os;
    os << prelude() << "\n" << rowSumFunction(tpr);
    const std::string k1 = fwd ? "hd_batchnorm_stats" : "hd_batchnorm_bwd_stats";
    const std::string k2 = fwd ? "hd_batchnorm_apply" : "hd_batchnorm_bwd_dx";
    os << "extern \"C\" __global__ void __launch_bounds__(" << (tpr) << ") " << k1 << "(" << p1.signature() << ")\n{\n" << b1.str() << "}\n\n";
    os << "extern \"C\" __global__ void __launch_bounds__(" << (block) << ") " << k2 << "(" << p2.signature() << ")\n{\n" << b2.str() << "}\n";
    Generated g;
    g.source = os.str();
    g.launches.push_back({k1, static_cast<unsigned>(C), static_cast<unsigned>(tpr), p1.args});
    g.launches.push_back({k2, static_cast<unsigned>(std::min<int64_t>((total + block - 1) / block, int64_t{1} << 20)),
                          static_cast<unsigned>(block), p2.args});
    g.workspace = static_cast<size_t>((fwd ? 2 : 4) * C) * sizeof(float);
    g.config = "threads=" + std::to_string(tpr);
    return g;
}

} // namespace hipdnngo::cuda_rtc::codegen
