// CodegenCommon.hpp: what the code generator's op families (Codegen*.cpp) share: literals,
// tensor offset expressions, kernel parameters (Params), the pointwise expression of a node and
// chains of them (Chain), row-reduction helpers, and one entry point per family.
#pragma once

#include "Codegen.hpp"

#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace hipdnngo::cuda_rtc::codegen
{

// lit: a float literal of v (NaN and infinities through the prelude's macros).
std::string lit(double v);
const char* storageType(DType t);
std::vector<int64_t> effStrides(const Tensor& t, const std::vector<int64_t>& space);
bool rowsAligned(const Tensor& t, const std::vector<int64_t>& space, int from, int v);
std::string offsetExpr(const Tensor& t, const std::vector<int64_t>& space, int from, int to, const std::string& var);
int64_t extent(const Tensor& t);
std::string pwExpr(const PwOp& op, const std::string& a, const std::string& b, const std::string& c);
bool isPow2(int v);
// smCount: the device's SM count for grids of walking blocks, 132 where it is unknown (host-side tests).
inline int64_t smCount(const Knobs& k) { return k.sms > 0 ? k.sms : 132; }
// rowSumFunction: hd_row_sum (a row's sum across its TPR threads; sh holds TPR / 32 floats) and
// hd_row_sum2 (two sums at once; sh holds 2 * TPR / 32 floats).
std::string rowSumFunction(int tpr);
// rowMeanVarFunction: hd_row_meanvar, merging each thread's (mean, M2, count) into the row's
// across its TPR threads in one reduction (sh holds 3 * TPR / 32 floats). perThread > 0: every
// thread holds that many elements (the counts are constants); 0: counts travel with the values.
std::string rowMeanVarFunction(int tpr, int64_t perThread);
std::string offsetMaskExpr(const Tensor& t, const std::vector<int64_t>& space, const std::vector<bool>& mask, const std::string& var);
std::string rowReduceFunction(int tpr, const std::string& name, const std::string& comb);

// Params collects kernel parameters and their execute-time arguments, one per tensor.
struct Params
{
    const Program& p;
    std::vector<std::string> decls;
    std::vector<Arg> args;
    std::map<int64_t, std::string> names; // uid -> parameter name

    explicit Params(const Program& prog) : p(prog) {}

    int index(int64_t uid) const
    {
        for(size_t i = 0; i < p.tensors.size(); ++i)
            if(p.tensors[i].uid == uid)
                return static_cast<int>(i);
        return -1;
    }

    // name declares the tensor as a parameter on first use: a scalar argument (float s<i>)
    // or a pointer (const / writable T* t<i>).
    std::string name(int64_t uid, bool write)
    {
        auto it = names.find(uid);
        if(it != names.end())
            return it->second;
        const Tensor& t = p.t(uid);
        const std::string i = std::to_string(index(uid));
        std::string n;
        Arg a;
        a.uid = uid;
        if(t.scalarArg())
        {
            n = "sc" + i;
            decls.push_back("const float " + n);
            a.kind = t.isConstant ? Arg::ConstF : Arg::HostF;
            a.value = static_cast<float>(t.value);
            a.hostType = t.wireType;
        }
        else
        {
            n = "t" + i;
            decls.push_back(std::string(write ? "" : "const ") + storageType(t.dt) + "* __restrict__ " + n);
            a.kind = Arg::Ptr;
        }
        args.push_back(a);
        names[uid] = n;
        return n;
    }

    std::string signature() const
    {
        std::string s;
        for(size_t i = 0; i < decls.size(); ++i)
            s += (i ? ",\n    " : "\n    ") + decls[i];
        return s;
    }
};

// Chain emits the pointwise nodes for one element: `val` maps uids to the fp32 variables that
// hold them; `load(uid)` gives the fp32 expression of an input not yet in `val`; `store(uid,
// v)` the statement that writes a non-virtual output (empty: the caller stores it).
struct Chain
{
    const Program& p;
    std::map<int64_t, std::string> val;
    std::function<std::string(int64_t)> load;
    std::function<std::string(int64_t, const std::string&)> store;
    std::function<std::string(const PwOp&)> genIndex;
    const std::vector<PwOp>* ops = nullptr; // the nodes to emit: p.pw unless set (a reduction's prologue)

    std::string emit(const std::string& ind)
    {
        std::ostringstream os;
        for(const PwOp& op : ops != nullptr ? *ops : p.pw)
        {
            std::string in[3];
            for(int i = 0; i < pwArity(op.mode); ++i)
            {
                const int64_t uid = op.in[i];
                if(val.count(uid) == 0)
                {
                    const std::string v = "v" + std::to_string(val.size());
                    os << ind << "const float " << v << " = " << load(uid) << ";\n";
                    val[uid] = v;
                }
                in[i] = val[uid];
            }
            const Tensor& o = p.t(op.out);
            const std::string v = "v" + std::to_string(val.size());
            const std::string e = op.mode == static_cast<int>(fbs::PointwiseMode::GEN_INDEX) ? genIndex(op)
                                                                                                 : pwExpr(op, in[0], in[1], in[2]);
            // Each node's result is rounded to its output's type, as the reference stores it.
            os << ind << "const float " << v << " = hd_rnd_" << dtypeName(o.dt) << "(" << e << ");\n";
            val[op.out] = v;
            if(!o.isVirtual)
                os << ind << store(op.out, v) << "\n";
        }
        return os.str();
    }
};

Generated genPointwise(const Program& p, const Knobs& k);
Generated genNormFwd(const Program& p, const Knobs& k);
Generated genNormBwd(const Program& p, const Knobs& k);
Generated genReduce(const Program& p, const Knobs& k);
Generated genBatchnorm(const Program& p, const Knobs& k);
Generated genRowProgram(const Program& p, const Knobs& k);

} // namespace hipdnngo::cuda_rtc::codegen
