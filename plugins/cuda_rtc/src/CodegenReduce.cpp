// CodegenReduce: Reductions, with a pointwise epilogue. One op family of the code generator (Codegen.cpp
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

// Reduction: `threads` threads per output element (rows_per_block outputs per block), each
// striding over the reduced elements; vector loads when the reduced axes are the packed
// trailing axes of the input. A pointwise prologue computes each reduced element from the
// tensors it reads (scalar loads). Then the pointwise epilogue on the reduced value.
Generated genReduce(const Program& p, const Knobs& k)
{
    using M = fbs::ReductionMode;
    const Reduce& rd = p.red;
    const Tensor& in = p.t(rd.in);
    const Tensor& out = p.t(rd.out);
    const std::vector<int64_t>& dims = rd.inDims;
    const int R = static_cast<int>(dims.size());
    std::vector<bool> kept(static_cast<size_t>(R)), red(static_cast<size_t>(R));
    for(int d = 0; d < R; ++d)
    {
        red[static_cast<size_t>(d)] = out.dims[static_cast<size_t>(d)] == 1 && dims[static_cast<size_t>(d)] != 1;
        kept[static_cast<size_t>(d)] = !red[static_cast<size_t>(d)];
    }
    const int64_t rows = rd.rows, members = rd.members;
    const std::string mOff = offsetMaskExpr(in, dims, red, "m");
    // Vector loads: the reduced part is packed ("m") and rows start on a vector boundary.
    auto vecOk = [&](int v) {
        if(mOff != "m" || members % v != 0 || in.alignment % (v * dtypeBytes(in.dt)) != 0 || v * dtypeBytes(in.dt) > 16)
            return false;
        const std::vector<int64_t> e = effStrides(in, dims);
        for(int d = 0; d < R; ++d)
            if(kept[static_cast<size_t>(d)] && e[static_cast<size_t>(d)] % v != 0)
                return false;
        return true;
    };
    int vec = !p.pre.empty() ? 1 : k.vec != 0 ? k.vec : 16 / dtypeBytes(in.dt);
    while(vec > 1 && !vecOk(vec))
        vec /= 2;
    int tpr = k.threads;
    if(tpr == 0)
    {
        tpr = 32;
        while(tpr < 512 && static_cast<int64_t>(tpr) * vec * 8 < members)
            tpr *= 2;
    }
    int rpb = k.rowsPerBlock != 0 ? k.rowsPerBlock : std::max(1, 256 / tpr);
    while(rpb > 1 && tpr * rpb > 1024)
        rpb /= 2;
    const std::string idx = std::max(extent(in), in.elements()) < (int64_t{1} << 31) ? "unsigned" : "long long";

    std::string init, acc, comb, fin;
    switch(static_cast<M>(rd.mode))
    {
    case M::ADD: init = "0.0f", acc = "a + v", comb = "a + b", fin = "a"; break;
    case M::AVG: init = "0.0f", acc = "a + v", comb = "a + b", fin = "a * " + lit(1.0 / static_cast<double>(members)); break;
    case M::NORM1: init = "0.0f", acc = "a + fabsf(v)", comb = "a + b", fin = "a"; break;
    case M::NORM2: init = "0.0f", acc = "a + v * v", comb = "a + b", fin = "sqrtf(a)"; break;
    case M::MUL: init = "1.0f", acc = "a * v", comb = "a * b", fin = "a"; break;
    case M::MUL_NO_ZEROS: init = "1.0f", acc = "(v != 0.0f ? a * v : a)", comb = "a * b", fin = "a"; break;
    case M::MIN_OP: init = "HD_INF", acc = "hd_min(a, v)", comb = "hd_min(a, b)", fin = "a"; break;
    case M::MAX_OP: init = "(-HD_INF)", acc = "hd_max(a, v)", comb = "hd_max(a, b)", fin = "a"; break;
    case M::AMAX: init = "0.0f", acc = "hd_max(a, fabsf(v))", comb = "hd_max(a, b)", fin = "a"; break;
    default: throw Unsupported(std::string("reduction mode ") + reductionName(rd.mode) + " has no code generator");
    }

    Params prm(p);
    const std::string ins = p.pre.empty() ? prm.name(rd.in, false) : std::string();
    const std::string I = dtypeName(in.dt);
    const std::string vt = std::string("hd_vec<") + storageType(in.dt) + ", " + std::to_string(vec) + ">";
    const std::string in1 = "        ", in2 = "            ";
    std::ostringstream b;
    b << "    typedef " << idx << " idx_t;\n";
    b << "    const int lane = threadIdx.x % " << tpr << ";\n";
    b << "    const int rloc = threadIdx.x / " << tpr << ";\n";
    b << "    const idx_t row = (idx_t)blockIdx.x * " << rpb << " + rloc;\n";
    b << "    const bool active = row < (idx_t)" << rows << ";\n";
    b << "    __shared__ float hd_sh[" << rpb << "][" << std::max(tpr / 32, 1) << "];\n";
    b << "    float* sh = hd_sh[rloc];\n";
    // The prologue's tensors: each one's offset is its row part (once per row) plus its member part.
    std::map<int64_t, std::string> rowBase;
    auto basedOffset = [&](int64_t uid) {
        const Tensor& t = p.t(uid);
        auto it = rowBase.find(uid);
        if(it == rowBase.end())
        {
            const std::string bn = "base" + std::to_string(rowBase.size());
            b << "    const idx_t " << bn << " = active ? (idx_t)" << offsetMaskExpr(t, dims, kept, "row") << " : (idx_t)0;\n";
            it = rowBase.emplace(uid, bn).first;
        }
        return it->second + " + " + offsetMaskExpr(t, dims, red, "m");
    };
    if(p.pre.empty())
        b << "    const idx_t base = active ? (idx_t)" << offsetMaskExpr(in, dims, kept, "row") << " : (idx_t)0;\n";
    else
        for(const PwOp& op : p.pre)
        {
            for(int i = 0; i < pwArity(op.mode); ++i)
                if(!p.t(op.in[i]).isVirtual && !p.t(op.in[i]).scalarArg())
                    basedOffset(op.in[i]);
            if(!p.t(op.out).isVirtual)
                basedOffset(op.out);
        }
    b << "    float a = " << init << ";\n";
    b << "    if(active)\n    {\n";
    b << in1 << "for(idx_t m0 = (idx_t)lane * " << vec << "; m0 < (idx_t)" << members << "; m0 += " << tpr * vec << ")\n"
      << in1 << "{\n";
    if(vec > 1)
    {
        b << in2 << "const " << vt << " xv = *reinterpret_cast<const " << vt << "*>(" << ins << " + base + m0);\n";
        b << "#pragma unroll\n" << in2 << "for(int e = 0; e < " << vec << "; ++e)\n" << in2 << "{\n";
        b << in2 << "    const float v = hd_ld_" << I << "(xv.v[e]);\n";
        b << in2 << "    a = " << acc << ";\n" << in2 << "}\n";
    }
    else if(p.pre.empty())
    {
        b << in2 << "const idx_t m = m0;\n";
        b << in2 << "const float v = hd_ld_" << I << "(" << ins << "[base + " << mOff << "]);\n";
        b << in2 << "a = " << acc << ";\n";
    }
    else
    {
        b << in2 << "const idx_t m = m0;\n";
        Chain pro{p, {}, {}, {}, {}, &p.pre};
        pro.load = [&](int64_t uid) {
            const Tensor& t = p.t(uid);
            const std::string n = prm.name(uid, false);
            return t.scalarArg() ? n : "hd_ld_" + std::string(dtypeName(t.dt)) + "(" + n + "[" + basedOffset(uid) + "])";
        };
        pro.store = [&](int64_t uid, const std::string& v) {
            return prm.name(uid, true) + "[" + basedOffset(uid) + "] = hd_st_" + dtypeName(p.t(uid).dt) + "(" + v + ");";
        };
        // GEN_INDEX: the coordinate on a kept axis comes from the row, on a reduced axis from m.
        pro.genIndex = [&](const PwOp& op) -> std::string {
            const int64_t axis = op.axis + (R - p.t(op.out).rank());
            if(op.axis < 0 || axis >= R)
                throw Unsupported("pointwise gen_index: axis outside the output's rank");
            const bool onRow = kept[static_cast<size_t>(axis)];
            int64_t P = 1;
            for(int d = R - 1; d > axis; --d)
                if(kept[static_cast<size_t>(d)] == onRow)
                    P *= dims[static_cast<size_t>(d)];
            return std::string("(float)((") + (onRow ? "row" : "m") + " / " + std::to_string(P) + ") % "
                   + std::to_string(dims[static_cast<size_t>(axis)]) + ")";
        };
        b << pro.emit(in2);
        b << in2 << "const float v = " << pro.val.at(rd.in) << ";\n";
        b << in2 << "a = " << acc << ";\n";
    }
    b << in1 << "}\n    }\n";
    b << "    a = hd_row_reduce(a, sh, lane);\n";
    b << "    if(active && lane == 0)\n    {\n";
    b << in1 << "const idx_t li = row;\n" << in1 << "(void)li;\n";
    b << in1 << "const float rv = hd_rnd_" << dtypeName(out.dt) << "(" << fin << ");\n";
    const std::vector<int64_t>& space = p.space;
    const int RS = static_cast<int>(space.size());
    if(!out.isVirtual)
    {
        const std::string os_ = prm.name(rd.out, true);
        b << in1 << os_ << "[" << offsetExpr(out, space, 0, RS, "li") << "] = hd_st_" << dtypeName(out.dt) << "(rv);\n";
    }
    Chain ch{p, {}, {}, {}, {}};
    ch.val[rd.out] = "rv";
    ch.load = [&](int64_t uid) {
        const Tensor& t = p.t(uid);
        const std::string n = prm.name(uid, false);
        if(t.scalarArg())
            return n;
        return "hd_ld_" + std::string(dtypeName(t.dt)) + "(" + n + "[" + offsetExpr(t, space, 0, RS, "li") + "])";
    };
    ch.store = [&](int64_t uid, const std::string& v) {
        const Tensor& t = p.t(uid);
        return prm.name(uid, true) + "[" + offsetExpr(t, space, 0, RS, "li") + "] = hd_st_" + dtypeName(t.dt) + "(" + v + ");";
    };
    ch.genIndex = [&](const PwOp& op) -> std::string {
        const int64_t axis = op.axis + (RS - p.t(op.out).rank());
        if(op.axis < 0 || axis >= RS)
            throw Unsupported("pointwise gen_index: axis outside the output's rank");
        int64_t P = 1;
        for(int d = RS - 1; d > axis; --d)
            P *= space[static_cast<size_t>(d)];
        return "(float)((li / " + std::to_string(P) + ") % " + std::to_string(space[static_cast<size_t>(axis)]) + ")";
    };
    b << ch.emit(in1);
    b << "    }\n";

    std::ostringstream os;
    os << prelude() << "\n" << rowReduceFunction(tpr, "hd_row_reduce", comb);
    os << "extern \"C\" __global__ void __launch_bounds__(" << (tpr * rpb) << ") hd_reduce(" << prm.signature() << ")\n{\n" << b.str() << "}\n";
    Generated g;
    g.source = os.str();
    g.launches.push_back({"hd_reduce", static_cast<unsigned>((rows + rpb - 1) / rpb), static_cast<unsigned>(tpr * rpb), prm.args});
    g.config = "vector_width=" + std::to_string(vec) + ",threads=" + std::to_string(tpr) + ",rows_per_block=" + std::to_string(rpb);
    return g;
}

} // namespace hipdnngo::cuda_rtc::codegen
