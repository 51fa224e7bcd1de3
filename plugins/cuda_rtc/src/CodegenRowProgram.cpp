// CodegenRowProgram: Row programs (softmax-like reduction -> pointwise patterns). One op family of the code generator (Codegen.cpp
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

// Row program (softmax-like): TPR threads per row keep their columns of every per-element value
// in registers; reductions combine across the row's threads; per-row values are scalars.
Generated genRowProgram(const Program& p, const Knobs& k)
{
    using M = fbs::ReductionMode;
    const RowProg& rp = p.rp;
    const std::vector<int64_t>& space = p.space;
    const int R = static_cast<int>(space.size());
    const int from = R - rp.k;
    const int64_t N = rp.n, rows = rp.rows;
    // Full tensors in memory (read or written): vector access needs their rows aligned.
    std::set<int64_t> fullMem;
    for(const RowOp& op : rp.ops)
    {
        for(int i = 0; i < (op.reduce ? 1 : pwArity(op.pw.mode)); ++i)
            if(!p.t(op.pw.in[i]).isVirtual && p.level(op.pw.in[i]) == Level::Full)
                fullMem.insert(op.pw.in[i]);
        if(!p.t(op.pw.out).isVirtual && op.level == Level::Full)
            fullMem.insert(op.pw.out);
    }
    auto rowAligned = [&](const Tensor& t, int v) { return rowsAligned(t, space, from, v); };
    int widest = 2;
    for(int64_t uid : fullMem)
        widest = std::max(widest, dtypeBytes(p.t(uid).dt));
    int vec = k.vec != 0 ? k.vec : 16 / widest;
    auto vecOk = [&](int v) {
        if(N % v != 0)
            return false;
        for(int64_t uid : fullMem)
            if(!rowAligned(p.t(uid), v))
                return false;
        return true;
    };
    while(vec > 1 && !vecOk(vec))
        vec /= 2;
    int tpr = k.threads;
    if(tpr == 0)
    {
        tpr = 32;
        while(tpr < 1024 && static_cast<int64_t>(tpr) * 8 < N)
            tpr *= 2;
    }
    while(tpr < 1024 && static_cast<int64_t>(tpr) * 32 < N)
        tpr *= 2;
    if(static_cast<int64_t>(tpr) * 32 < N)
        throw Unsupported("row program: rows of " + std::to_string(N) + " elements are longer than 32768");
    int rpb = k.rowsPerBlock != 0 ? k.rowsPerBlock : std::max(1, 128 / tpr);
    while(rpb > 1 && tpr * rpb > 1024)
        rpb /= 2;
    const int64_t nch = (N + static_cast<int64_t>(tpr) * vec - 1) / (static_cast<int64_t>(tpr) * vec);
    const int64_t nv = nch * vec;
    int64_t maxExtent = rows * N;
    for(const Tensor& t : p.tensors)
        if(!t.isVirtual && !t.scalarArg())
            maxExtent = std::max(maxExtent, extent(t));
    const std::string idx = maxExtent < (int64_t{1} << 31) ? "unsigned" : "long long";

    Params prm(p);
    const std::string in1 = "        ", in2 = "            ", in3 = "                ";
    std::ostringstream b;
    std::set<std::string> combs;
    std::map<int64_t, std::string> var; // uid -> "fN" (array) or "rN" (scalar)
    int nextVar = 0;
    const std::string colOf = "((idx_t)(i / " + std::to_string(vec) + ") * " + std::to_string(tpr) + " + lane) * "
                              + std::to_string(vec) + " + i % " + std::to_string(vec);
    const std::string valid = "active && col < (idx_t)" + std::to_string(N);
    b << "    typedef " << idx << " idx_t;\n";
    b << "    const int lane = threadIdx.x % " << tpr << ";\n";
    b << "    const int rloc = threadIdx.x / " << tpr << ";\n";
    b << "    const idx_t row = (idx_t)blockIdx.x * " << rpb << " + rloc;\n";
    b << "    const bool active = row < (idx_t)" << rows << ";\n";
    b << "    __shared__ float hd_sh[" << rpb << "][" << std::max(tpr / 32, 1) << "];\n";
    b << "    float* sh = hd_sh[rloc];\n";
    // value(uid) for element i (inside an element loop) or for the row.
    auto rowBase = [&](const Tensor& t) { return "(idx_t)" + offsetExpr(t, space, 0, from, "row"); };
    auto element = [&](int64_t uid) -> std::string {
        if(var.count(uid) != 0)
            return var[uid][0] == 'f' ? var[uid] + "[i]" : var[uid];
        const Tensor& t = p.t(uid);
        const Level l = p.level(uid);
        const std::string n = prm.name(uid, false);
        if(l == Level::Scalar)
            return n;
        if(l == Level::Row)
            return "hd_ld_" + std::string(dtypeName(t.dt)) + "(" + n + "[" + offsetExpr(t, space, 0, from, "row") + "])";
        if(l == Level::Param)
            return "hd_ld_" + std::string(dtypeName(t.dt)) + "(" + n + "[" + offsetExpr(t, space, from, R, "col") + "])";
        throw Unsupported("row program: internal: full tensor " + std::to_string(uid) + " not loaded");
    };
    auto loadFull = [&](int64_t uid) {
        const Tensor& t = p.t(uid);
        const std::string v = "f" + std::to_string(nextVar++);
        const std::string n = prm.name(uid, false);
        const std::string vt = std::string("hd_vec<") + storageType(t.dt) + ", " + std::to_string(vec) + ">";
        b << "    float " << v << "[" << nv << "];\n";
        b << "    {\n" << in1 << "const idx_t base = active ? " << rowBase(t) << " : (idx_t)0;\n";
        b << "#pragma unroll\n" << in1 << "for(int c = 0; c < " << nch << "; ++c)\n" << in1 << "{\n";
        b << in2 << "const idx_t col0 = ((idx_t)c * " << tpr << " + lane) * " << vec << ";\n";
        b << in2 << "if(active && col0 < (idx_t)" << N << ")\n" << in2 << "{\n";
        b << in3 << "const " << vt << " w = *reinterpret_cast<const " << vt << "*>(" << n << " + base + col0);\n";
        b << "#pragma unroll\n" << in3 << "for(int e = 0; e < " << vec << "; ++e)\n";
        b << in3 << "    " << v << "[c * " << vec << " + e] = hd_ld_" << dtypeName(t.dt) << "(w.v[e]);\n";
        b << in2 << "}\n" << in2 << "else\n" << in2 << "{\n";
        b << "#pragma unroll\n" << in3 << "for(int e = 0; e < " << vec << "; ++e)\n";
        b << in3 << "    " << v << "[c * " << vec << " + e] = 0.0f;\n" << in2 << "}\n" << in1 << "}\n    }\n";
        var[uid] = v;
    };
    for(const RowOp& op : rp.ops)
    {
        const int arity = op.reduce ? 1 : pwArity(op.pw.mode);
        for(int i = 0; i < arity; ++i)
            if(var.count(op.pw.in[i]) == 0 && p.level(op.pw.in[i]) == Level::Full)
                loadFull(op.pw.in[i]);
        const Tensor& o = p.t(op.pw.out);
        const std::string O = dtypeName(o.dt);
        if(op.reduce)
        {
            std::string init, acc, comb, fin = "a";
            switch(static_cast<M>(op.redMode))
            {
            case M::ADD: init = "0.0f", acc = "a + v", comb = "sum"; break;
            case M::AVG: init = "0.0f", acc = "a + v", comb = "sum", fin = "a * " + lit(1.0 / static_cast<double>(N)); break;
            case M::NORM1: init = "0.0f", acc = "a + fabsf(v)", comb = "sum"; break;
            case M::NORM2: init = "0.0f", acc = "a + v * v", comb = "sum", fin = "sqrtf(a)"; break;
            case M::MUL: init = "1.0f", acc = "a * v", comb = "prod"; break;
            case M::MUL_NO_ZEROS: init = "1.0f", acc = "(v != 0.0f ? a * v : a)", comb = "prod"; break;
            case M::MIN_OP: init = "HD_INF", acc = "hd_min(a, v)", comb = "min"; break;
            case M::MAX_OP: init = "(-HD_INF)", acc = "hd_max(a, v)", comb = "max"; break;
            case M::AMAX: init = "0.0f", acc = "hd_max(a, fabsf(v))", comb = "max"; break;
            default: throw Unsupported("reduction mode has no code generator");
            }
            combs.insert(comb);
            const std::string r = "r" + std::to_string(nextVar++);
            b << "    float " << r << ";\n    {\n" << in1 << "float a = " << init << ";\n";
            b << "#pragma unroll\n" << in1 << "for(int i = 0; i < " << nv << "; ++i)\n" << in1 << "{\n";
            b << in2 << "const idx_t col = " << colOf << ";\n";
            b << in2 << "const float v = " << var[op.pw.in[0]] << "[i];\n";
            b << in2 << "if(" << valid << ")\n" << in3 << "a = " << acc << ";\n" << in1 << "}\n";
            b << in1 << "a = hd_rr_" << comb << "(a, sh, lane);\n";
            b << in1 << r << " = hd_rnd_" << O << "(" << fin << ");\n    }\n";
            var[op.pw.out] = r;
        }
        else if(op.level == Level::Full)
        {
            const std::string f = "f" + std::to_string(nextVar++);
            b << "    float " << f << "[" << nv << "];\n";
            b << "#pragma unroll\n    for(int i = 0; i < " << nv << "; ++i)\n    {\n";
            b << in1 << "const idx_t col = " << colOf << ";\n" << in1 << "(void)col;\n";
            std::string a[3];
            for(int i = 0; i < arity; ++i)
            {
                a[i] = "in" + std::to_string(i);
                const bool guarded = var.count(op.pw.in[i]) == 0
                                     && (p.level(op.pw.in[i]) == Level::Param || p.level(op.pw.in[i]) == Level::Row);
                b << in1 << "const float " << a[i] << " = "
                  << (guarded ? "(" + valid + ") ? " + element(op.pw.in[i]) + " : 0.0f" : element(op.pw.in[i])) << ";\n";
            }
            b << in1 << f << "[i] = hd_rnd_" << O << "(" << pwExpr(op.pw, a[0], a[1], a[2]) << ");\n    }\n";
            var[op.pw.out] = f;
        }
        else
        {
            const std::string r = "r" + std::to_string(nextVar++);
            std::string a[3];
            b << "    float " << r << ";\n    {\n";
            for(int i = 0; i < arity; ++i)
            {
                a[i] = "in" + std::to_string(i);
                const bool fromMemory = var.count(op.pw.in[i]) == 0 && p.level(op.pw.in[i]) == Level::Row;
                b << in1 << "const float " << a[i] << " = "
                  << (fromMemory ? "active ? " + element(op.pw.in[i]) + " : 0.0f" : element(op.pw.in[i])) << ";\n";
            }
            b << in1 << r << " = hd_rnd_" << O << "(" << pwExpr(op.pw, a[0], a[1], a[2]) << ");\n    }\n";
            var[op.pw.out] = r;
        }
        // Store what the graph keeps.
        if(!o.isVirtual)
        {
            const std::string n = prm.name(op.pw.out, true);
            const std::string v = var[op.pw.out];
            if(op.level == Level::Full)
            {
                b << "    {\n" << in1 << "const idx_t base = active ? " << rowBase(o) << " : (idx_t)0;\n";
                b << "#pragma unroll\n" << in1 << "for(int i = 0; i < " << nv << "; ++i)\n" << in1 << "{\n";
                b << in2 << "const idx_t col = " << colOf << ";\n";
                b << in2 << "if(" << valid << ")\n" << in3 << n << "[base + col] = hd_st_" << O << "(" << v << "[i]);\n";
                b << in1 << "}\n    }\n";
            }
            else
            {
                b << "    if(active && lane == 0)\n" << in1 << n << "[" << offsetExpr(o, space, 0, from, "row") << "] = hd_st_" << O
                  << "(" << v << ");\n";
            }
        }
    }
    std::ostringstream os;
    os << prelude() << "\n";
    for(const std::string& c : combs)
        os << rowReduceFunction(tpr, "hd_rr_" + c,
                                c == "sum" ? "a + b" : c == "prod" ? "a * b" : c == "min" ? "hd_min(a, b)" : "hd_max(a, b)");
    os << "extern \"C\" __global__ void __launch_bounds__(" << tpr * rpb << ") hd_row_program(" << prm.signature() << ")\n{\n"
       << b.str() << "}\n";
    Generated g;
    g.source = os.str();
    g.launches.push_back({"hd_row_program", static_cast<unsigned>((rows + rpb - 1) / rpb), static_cast<unsigned>(tpr * rpb), prm.args});
    g.config = "vector_width=" + std::to_string(vec) + ",threads=" + std::to_string(tpr) + ",rows_per_block=" + std::to_string(rpb);
    return g;
}

} // namespace hipdnngo::cuda_rtc::codegen
