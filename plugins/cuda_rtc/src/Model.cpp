// The model's vocabulary (names, tensors, iteration levels), the helpers every reader shares, and
// readProgram, which picks the reader: a row program (ModelRowProgram.cpp) or a single fused
// pattern (ModelSingle.cpp); norm and batchnorm checks are in ModelNorm.cpp.
#include "ModelRead.hpp"

#include <hipdnn_plugin_sdk/helpers/PluginHelpers.hpp>
#include <hipdnn_plugin_sdk/helpers/PointwiseModes.hpp>
#include <hipdnn_plugin_sdk/helpers/TensorTable.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace hipdnngo::cuda_rtc
{

const char* dtypeName(DType t)
{
    switch(t)
    {
    case DType::F32: return "fp32";
    case DType::F16: return "fp16";
    case DType::BF16: return "bf16";
    }
    return "?";
}

const char* reductionName(int mode)
{
    static const char* const names[] = {"unset", "add", "mul", "min", "max", "amax", "avg", "norm1", "norm2", "mul_no_zeros"};
    return mode >= 0 && mode <= 9 ? names[mode] : "unknown";
}

int dtypeBytes(DType t) { return t == DType::F32 ? 4 : 2; }

int64_t Tensor::elements() const
{
    int64_t n = 1;
    for(int64_t d : dims)
        n *= d;
    return n;
}

const Tensor& Program::t(int64_t uid) const
{
    for(const Tensor& x : tensors)
        if(x.uid == uid)
            return x;
    throw Unsupported("tensor uid " + std::to_string(uid) + " is not in the graph");
}

bool Program::has(int64_t uid) const
{
    for(const Tensor& x : tensors)
        if(x.uid == uid)
            return true;
    return false;
}

const char* pwModeName(int mode) { return hipdnn_plugin_sdk::pointwiseModeName(mode); }

// pwArity: the inputs whose values a node reads; GEN_INDEX reads only in_0's shape, so none.
int pwArity(int mode)
{
    return mode == static_cast<int>(fbs::PointwiseMode::GEN_INDEX) ? 0 : hipdnn_plugin_sdk::pointwiseArity(mode);
}

// The readers' shared helpers (ModelRead.hpp).
namespace model
{

std::string dimsText(const std::vector<int64_t>& d)
{
    std::string s;
    for(size_t i = 0; i < d.size(); ++i)
        s += (i ? "x" : "") + std::to_string(d[i]);
    return s;
}

// alignedDims: t's dims right-aligned to `rank` (leading 1s), or empty when t's rank is larger.
std::vector<int64_t> aligned(const std::vector<int64_t>& dims, size_t rank)
{
    if(dims.size() > rank)
        return {};
    std::vector<int64_t> out(rank, 1);
    std::copy(dims.begin(), dims.end(), out.begin() + static_cast<std::ptrdiff_t>(rank - dims.size()));
    return out;
}

bool broadcastsTo(const Tensor& t, const std::vector<int64_t>& space)
{
    const std::vector<int64_t> a = aligned(t.dims, space.size());
    if(a.empty())
        return false;
    for(size_t d = 0; d < space.size(); ++d)
        if(a[d] != 1 && a[d] != space[d])
            return false;
    return true;
}

std::vector<Tensor> readTensors(const fbs::Graph& graph)
{
    const hipdnn_plugin_sdk::TensorTable<Unsupported> table(graph, {0, 8, std::nullopt});
    std::vector<Tensor> out;
    for(const hipdnn_plugin_sdk::TensorRecord& r : table.all())
    {
        Tensor t;
        t.uid = r.uid;
        t.name = r.name;
        t.dims = r.dims;
        t.strides = r.strides;
        t.isVirtual = r.isVirtual;
        t.isConstant = r.isConstant;
        t.byValue = r.isPassByValue;
        t.value = r.value;
        t.wireType = r.dtype;
        t.alignment = graph.tensors()->Get(static_cast<flatbuffers::uoffset_t>(r.index))->alignment();
        if(t.dims.empty()) // a rank-0 scalar: one element
        {
            t.dims = {1};
            t.strides = {1};
        }
        switch(r.dtype)
        {
        case fbs::DataType::FLOAT: t.dt = DType::F32; break;
        case fbs::DataType::HALF: t.dt = DType::F16; break;
        case fbs::DataType::BFLOAT16: t.dt = DType::BF16; break;
        default:
            // Scalars travel as fp32 kernel arguments whatever their type, if it is a float type.
            if(t.scalarArg() && (r.dtype == fbs::DataType::DOUBLE))
            {
                t.dt = DType::F32;
                break;
            }
            throw Unsupported("tensor " + r.label() + ": data type " + std::string(fbs::EnumNameDataType(r.dtype))
                              + " (supported: FLOAT, HALF, BFLOAT16)");
        }
        out.push_back(std::move(t));
    }
    return out;
}

PwOp readPointwise(const fbs::PointwiseAttributes& a)
{
    PwOp p;
    p.mode = static_cast<int>(a.operation());
    if(p.mode < 1 || p.mode > static_cast<int>(fbs::PointwiseMode::TANH_FWD))
        throw Unsupported("pointwise mode " + std::to_string(p.mode) + " is unknown");
    if(a.relu_lower_clip().has_value())
        p.reluLo = a.relu_lower_clip().value();
    if(a.relu_upper_clip().has_value())
        p.reluHi = a.relu_upper_clip().value();
    if(a.relu_lower_clip_slope().has_value())
        p.reluSlope = a.relu_lower_clip_slope().value();
    if(a.swish_beta().has_value())
        p.swishBeta = a.swish_beta().value();
    if(a.elu_alpha().has_value())
        p.eluAlpha = a.elu_alpha().value();
    if(a.softplus_beta().has_value())
        p.softplusBeta = a.softplus_beta().value();
    const int arity = pwArity(p.mode);
    if(p.mode == static_cast<int>(fbs::PointwiseMode::GEN_INDEX))
    {
        if(!a.axis_tensor_uid().has_value())
            throw Unsupported("pointwise gen_index needs an axis");
        p.axis = a.axis_tensor_uid().value();
    }
    else
    {
        p.in[0] = a.in_0_tensor_uid();
    }
    if(arity >= 2)
    {
        if(!a.in_1_tensor_uid().has_value())
            throw Unsupported(std::string("pointwise ") + pwModeName(p.mode) + " needs in_1");
        p.in[1] = a.in_1_tensor_uid().value();
    }
    if(arity >= 3)
    {
        if(!a.in_2_tensor_uid().has_value())
            throw Unsupported(std::string("pointwise ") + pwModeName(p.mode) + " needs in_2");
        p.in[2] = a.in_2_tensor_uid().value();
    }
    if((p.mode == static_cast<int>(fbs::PointwiseMode::SOFTPLUS_FWD) || p.mode == static_cast<int>(fbs::PointwiseMode::SOFTPLUS_BWD))
       && p.softplusBeta == 0.0f)
        throw Unsupported("pointwise softplus: softplus_beta must not be 0");
    p.out = a.out_0_tensor_uid();
    return p;
}

// checkPointwiseDag checks pointwise nodes against an iteration space: every node's
// inputs exist and broadcast to the space, its output has the space's dims (virtual
// intermediates may be smaller only when no GEN_INDEX reads their shape), each tensor is written
// once, and no node reads a tensor a later node writes. `produced` holds the tensors written
// before the first of these nodes (a norm's y), `written` those the graph writes besides them.
void checkPointwiseDag(const Program& p, const std::vector<PwOp>& ops, const std::vector<int64_t>& space,
                       std::set<int64_t> produced, std::set<int64_t> written)
{
    for(const PwOp& op : ops)
        written.insert(op.out);
    for(const PwOp& op : ops)
    {
        const std::string what = std::string("pointwise ") + pwModeName(op.mode);
        for(int i = 0; i < pwArity(op.mode); ++i)
        {
            const Tensor& t = p.t(op.in[i]);
            if(produced.count(t.uid) == 0 && written.count(t.uid) != 0)
                throw Unsupported(what + ": input " + std::to_string(t.uid) + " is written by the graph after it is read");
            if(t.isVirtual && produced.count(t.uid) == 0)
                throw Unsupported(what + ": virtual input " + std::to_string(t.uid) + " is read before it is written");
            if(!broadcastsTo(t, space))
                throw Unsupported(what + ": input " + std::to_string(t.uid) + " [" + dimsText(t.dims)
                                  + "] does not broadcast to [" + dimsText(space) + "]");
        }
        const Tensor& o = p.t(op.out);
        if(o.scalarArg())
            throw Unsupported(what + ": output " + std::to_string(o.uid) + " is a scalar argument");
        if(produced.count(o.uid) != 0)
            throw Unsupported(what + ": tensor " + std::to_string(o.uid) + " is written twice");
        const std::vector<int64_t> a = aligned(o.dims, space.size());
        if(a != space)
        {
            if(!o.isVirtual || op.mode == static_cast<int>(fbs::PointwiseMode::GEN_INDEX) || !broadcastsTo(o, space))
                throw Unsupported(what + ": output " + std::to_string(o.uid) + " [" + dimsText(o.dims)
                                  + "] is not the iteration space [" + dimsText(space) + "]");
        }
        produced.insert(o.uid);
    }
}

bool sameAligned(const Tensor& t, const std::vector<int64_t>& dims)
{
    return aligned(t.dims, dims.size()) == dims;
}

} // namespace model

using namespace model;

Level Program::level(int64_t uid) const
{
    const Tensor& x = t(uid);
    if(x.scalarArg())
        return Level::Scalar;
    const int R = static_cast<int>(space.size());
    const int from = R - rp.k;
    std::vector<int64_t> rowDims = space;
    for(int d = from; d < R; ++d)
        rowDims[static_cast<size_t>(d)] = 1;
    if(sameAligned(x, space))
        return Level::Full;
    if(sameAligned(x, rowDims))
        return Level::Row;
    const std::vector<int64_t> a = aligned(x.dims, space.size());
    bool param = !a.empty();
    for(int d = 0; param && d < R; ++d)
        param = d < from ? a[static_cast<size_t>(d)] == 1
                         : (a[static_cast<size_t>(d)] == 1 || a[static_cast<size_t>(d)] == space[static_cast<size_t>(d)]);
    if(param)
        return Level::Param;
    throw Unsupported("row program: tensor " + std::to_string(uid) + " [" + dimsText(x.dims)
                      + "] is neither per element, per row nor broadcast over the rows of [" + dimsText(space) + "]");
}

Program readProgram(const fbs::Graph& graph)
{
    const std::string host = hipdnn_plugin_sdk::hostFeatureProblem(graph);
    if(!host.empty())
        throw Unsupported(host);
    Program p;
    p.tensors = readTensors(graph);
    if(graph.nodes() == nullptr || graph.nodes()->size() == 0)
        throw Unsupported("graph has no nodes");
    bool maybeRows = false;
    const bool rows = isRowProgram(graph, &maybeRows);
    if(!maybeRows)
        return rows ? readRowProgram(graph, std::move(p)) : readSingle(graph, std::move(p));
    // One reduction among pointwise nodes: a single reduction (with a prologue and an epilogue)
    // or a row program may take it. The likelier reader first; when neither does, both reasons.
    using Reader = Program (*)(const fbs::Graph&, Program);
    const Reader first = rows ? readRowProgram : readSingle, second = rows ? readSingle : readRowProgram;
    Program copy = p;
    try
    {
        return first(graph, std::move(p));
    }
    catch(const Unsupported& a)
    {
        try
        {
            return second(graph, std::move(copy));
        }
        catch(const Unsupported& b)
        {
            throw Unsupported(std::string(a.what()) + (rows ? "; as a reduction with a pointwise prologue: " : "; as a row program: ")
                              + b.what());
        }
    }
}

} // namespace hipdnngo::cuda_rtc
