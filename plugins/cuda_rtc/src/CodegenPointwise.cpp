// CodegenPointwise: Pointwise chains of any rank with broadcasting. One op family of the code generator (Codegen.cpp
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
// Pointwise: a grid-stride loop over chunks of `vec` elements of the space. Tensors packed like
// the space are read and written with vector accesses; broadcast ones through their offsets.
Generated genPointwise(const Program& p, const Knobs& k)
{
    const std::vector<int64_t>& space = p.space;
    const int R = static_cast<int>(space.size());
    int64_t total = 1;
    for(int64_t d : space)
        total *= d;
    // Tensors in memory, and which are packed like the space.
    std::set<int64_t> mem, dense;
    std::set<int64_t> produced;
    for(const PwOp& op : p.pw)
    {
        for(int i = 0; i < pwArity(op.mode); ++i)
            if(produced.count(op.in[i]) == 0 && !p.t(op.in[i]).scalarArg())
                mem.insert(op.in[i]);
        produced.insert(op.out);
        if(!p.t(op.out).isVirtual)
            mem.insert(op.out);
    }
    int64_t maxExtent = total;
    for(int64_t uid : mem)
    {
        const Tensor& t = p.t(uid);
        maxExtent = std::max(maxExtent, extent(t));
        if(offsetExpr(t, space, 0, R, "li") == "li")
            dense.insert(uid);
    }
    const std::string idx = maxExtent < (int64_t{1} << 31) ? "unsigned" : "long long";
    // Vector width: the largest that divides the space and that every packed tensor's alignment allows.
    auto vecOk = [&](int v) {
        if(total % v != 0)
            return false;
        for(int64_t uid : dense)
        {
            const Tensor& t = p.t(uid);
            if(t.alignment % (v * dtypeBytes(t.dt)) != 0 || v * dtypeBytes(t.dt) > 16)
                return false;
        }
        return true;
    };
    int vec = k.vec;
    if(vec == 0)
    {
        int widest = 2;
        for(int64_t uid : dense)
            widest = std::max(widest, dtypeBytes(p.t(uid).dt));
        vec = 16 / widest;
    }
    while(vec > 1 && !vecOk(vec))
        vec /= 2;
    const int block = k.threads != 0 ? k.threads : 256;
    const int64_t chunks = total / vec;
    // One chunk at a time per thread; once there are enough chunks for every SM to stay full, a
    // grid of a quarter of the chunks, so that each thread walks four a grid stride apart. A
    // standalone kernel of this shape (1 GiB add -> mul -> GELU, bf16, H100) ran at 0.99 of
    // the copy, against 0.90 with one chunk per thread and 0.87-0.91 with four chunks loaded
    // together before the chain (this engine's earlier form: 0.93 in the engine).
    const int64_t perThread = chunks >= (int64_t{1} << 20) ? 4 : 1;
    const int64_t grid = std::min<int64_t>((chunks + block * perThread - 1) / (block * perThread), int64_t{1} << 20);

    Params prm(p);
    const std::string ind = "            ";
    std::vector<int64_t> vecIn, vecOut;
    for(int64_t uid : mem)
        if(dense.count(uid) != 0 && vec > 1)
            (produced.count(uid) ? vecOut : vecIn).push_back(uid);
    Chain ch{p, {}, {}, {}, {}};
    for(int64_t uid : vecIn)
    {
        const Tensor& t = p.t(uid);
        ch.val[uid] = "hd_ld_" + std::string(dtypeName(t.dt)) + "(r" + std::to_string(prm.index(uid)) + ".v[e])";
    }
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
        if(std::find(vecOut.begin(), vecOut.end(), uid) != vecOut.end())
            return "w" + std::to_string(prm.index(uid)) + ".v[e] = hd_st_" + dtypeName(t.dt) + "(" + v + ");";
        return n + "[" + offsetExpr(t, space, 0, R, "li") + "] = hd_st_" + dtypeName(t.dt) + "(" + v + ");";
    };
    ch.genIndex = [&](const PwOp& op) {
        const Tensor& o = p.t(op.out);
        const int64_t axis = op.axis + (R - o.rank());
        if(op.axis < 0 || axis >= R)
            throw Unsupported("pointwise gen_index: axis " + std::to_string(op.axis) + " outside the output's rank");
        int64_t P = 1;
        for(int d = R - 1; d > axis; --d)
            P *= space[static_cast<size_t>(d)];
        return "(float)((li / " + std::to_string(P) + ") % " + std::to_string(space[static_cast<size_t>(axis)]) + ")";
    };
    // Broadcast inputs whose value is the same for a whole chunk (their stride is 0 over inner
    // dims whose extent is a multiple of the vector width, as a per-channel bias is over H x W)
    // are loaded and converted once per chunk, not once per element.
    std::vector<int64_t> perChunk;
    if(vec > 1)
        for(int64_t uid : mem)
        {
            if(dense.count(uid) != 0 || produced.count(uid) != 0)
                continue;
            const std::vector<int64_t> e = effStrides(p.t(uid), space);
            int64_t run = 1;
            for(int d = R - 1; d >= 0 && (e[static_cast<size_t>(d)] == 0 || space[static_cast<size_t>(d)] == 1); --d)
                run *= space[static_cast<size_t>(d)];
            if(run % vec == 0)
            {
                perChunk.push_back(uid);
                prm.name(uid, false);
                ch.val[uid] = "h" + std::to_string(prm.index(uid));
            }
        }
    // Vector inputs are declared before the chain so that their loads are issued first.
    for(int64_t uid : vecIn)
        prm.name(uid, false);
    const std::string chain = ch.emit(ind);
    for(int64_t uid : vecOut)
        prm.name(uid, true);

    std::ostringstream os;
    os << prelude() << "\n";
    os << "extern \"C\" __global__ void __launch_bounds__(" << (block) << ") hd_pointwise(" << prm.signature() << ")\n{\n";
    os << "    typedef " << idx << " idx_t;\n";
    // A grid-stride loop over the chunks: the vector inputs are loaded first, then the chain runs
    // over the chunk's elements.
    os << "    for(idx_t c = (idx_t)blockIdx.x * blockDim.x + threadIdx.x; c < (idx_t)" << chunks
       << "; c += (idx_t)gridDim.x * blockDim.x)\n    {\n";
    os << "        const idx_t base = c * " << vec << ";\n";
    for(int64_t uid : vecIn)
    {
        const std::string vt = std::string("hd_vec<") + storageType(p.t(uid).dt) + ", " + std::to_string(vec) + ">";
        os << "        const " << vt << " r" << prm.index(uid) << " = *reinterpret_cast<const " << vt << "*>(" << prm.names[uid]
           << " + base);\n";
    }
    for(int64_t uid : perChunk)
    {
        const Tensor& t = p.t(uid);
        os << "        const float h" << prm.index(uid) << " = hd_ld_" << dtypeName(t.dt) << "(" << prm.names[uid] << "["
           << offsetExpr(t, space, 0, R, "base") << "]);\n";
    }
    for(int64_t uid : vecOut)
        os << "        hd_vec<" << storageType(p.t(uid).dt) << ", " << vec << "> w" << prm.index(uid) << ";\n";
    os << "#pragma unroll\n        for(int e = 0; e < " << vec << "; ++e)\n        {\n";
    os << "            const idx_t li = base + e;\n";
    os << "            (void)li;\n";
    os << chain;
    os << "        }\n";
    for(int64_t uid : vecOut)
    {
        const std::string vt = std::string("hd_vec<") + storageType(p.t(uid).dt) + ", " + std::to_string(vec) + ">";
        os << "        *reinterpret_cast<" << vt << "*>(" << prm.names[uid] << " + base) = w" << prm.index(uid) << ";\n";
    }
    os << "    }\n}\n";

    Generated g;
    g.source = os.str();
    g.launches.push_back({"hd_pointwise", static_cast<unsigned>(std::max<int64_t>(grid, 1)), static_cast<unsigned>(block), prm.args});
    g.config = "vector_width=" + std::to_string(vec) + ",threads=" + std::to_string(block) + ",chunks_per_thread=" + std::to_string(perThread);
    return g;
}

} // namespace hipdnngo::cuda_rtc::codegen
