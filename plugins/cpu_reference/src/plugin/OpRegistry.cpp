#include "plugin/OpRegistry.hpp"

#include <algorithm>

namespace hipdnngo::cpu_reference
{
namespace
{

// kOps: every node type this engine runs. Node types absent here (block-scale (de)quantize,
// custom ops, MoE grouped matmul ± backward) make a graph not applicable.
const OpEntry kOps[] = {
    {fbs::NodeAttributes::ConvolutionFwdAttributes, "ConvolutionFwd", prepareConvolutionFwd},
    {fbs::NodeAttributes::ConvolutionBwdAttributes, "ConvolutionBwdData", prepareConvolutionBwdData},
    {fbs::NodeAttributes::ConvolutionWrwAttributes, "ConvolutionBwdFilter", prepareConvolutionBwdFilter},
    {fbs::NodeAttributes::MatmulAttributes, "Matmul", prepareMatmul},
    {fbs::NodeAttributes::PointwiseAttributes, "Pointwise", preparePointwise},
    {fbs::NodeAttributes::ReductionAttributes, "Reduction", prepareReduction},
    {fbs::NodeAttributes::ResampleFwdAttributes, "ResampleFwd", prepareResampleFwd},
    {fbs::NodeAttributes::ResampleBwdAttributes, "ResampleBwd", prepareResampleBwd},
    {fbs::NodeAttributes::BatchnormInferenceAttributes, "BatchnormInference", prepareBatchnormInference},
    {fbs::NodeAttributes::BatchnormInferenceAttributesVarianceExt, "BatchnormInferenceVariance",
     prepareBatchnormInferenceVariance},
    {fbs::NodeAttributes::BatchnormAttributes, "Batchnorm", prepareBatchnormTraining},
    {fbs::NodeAttributes::BatchnormBackwardAttributes, "BatchnormBackward", prepareBatchnormBackward},
    {fbs::NodeAttributes::LayernormAttributes, "Layernorm", prepareLayernorm},
    {fbs::NodeAttributes::LayernormBackwardAttributes, "LayernormBackward", prepareLayernormBackward},
    {fbs::NodeAttributes::RMSNormAttributes, "RMSNorm", prepareRmsnorm},
    {fbs::NodeAttributes::RMSNormBackwardAttributes, "RMSNormBackward", prepareRmsnormBackward},
    {fbs::NodeAttributes::SdpaAttributes, "Sdpa", prepareSdpaForward},
    {fbs::NodeAttributes::SdpaBackwardAttributes, "SdpaBackward", prepareSdpaBackward},
};

std::string nodeLabel(const fbs::Node& node, int position, const char* op)
{
    std::string label = "node " + std::to_string(position);
    if(node.name() && node.name()->size() > 0)
        label += " ('" + node.name()->str() + "'";
    else
        label += " (";
    label += std::string(node.name() && node.name()->size() > 0 ? ", " : "") + op + ")";
    return label;
}

// A value a newer writer may use that this engine's schema lacks. Prepare functions map only
// the values they know, and some fields they ignore or default, so such a value is declined
// here rather than read as something it is not.
template <typename E>
bool outOfSchema(E v)
{
    return flatbuffers::IsOutRange(v, E::MIN, E::MAX);
}

std::string unknownValueOf(const fbs::Node& node)
{
    auto value = [](const char* field, auto v) { return std::string(field) + " value " + std::to_string(static_cast<int>(v)); };
    if(outOfSchema(node.compute_data_type()))
        return value("compute_data_type", node.compute_data_type());
    switch(node.attributes_type())
    {
    case fbs::NodeAttributes::SdpaAttributes:
    {
        const auto* a = node.attributes_as_SdpaAttributes();
        if(outOfSchema(a->diagonal_alignment()))
            return value("diagonal_alignment", a->diagonal_alignment());
        if(outOfSchema(a->implementation()))
            return value("implementation", a->implementation());
        if(outOfSchema(a->mma_core_mode()))
            return value("mma_core_mode", a->mma_core_mode());
        break;
    }
    case fbs::NodeAttributes::SdpaBackwardAttributes:
    {
        const auto* a = node.attributes_as_SdpaBackwardAttributes();
        if(outOfSchema(a->diagonal_alignment()))
            return value("diagonal_alignment", a->diagonal_alignment());
        break;
    }
    case fbs::NodeAttributes::ResampleFwdAttributes:
    {
        const auto* a = node.attributes_as_ResampleFwdAttributes();
        if(outOfSchema(a->resample_mode()))
            return value("resample_mode", a->resample_mode());
        if(outOfSchema(a->padding_mode()))
            return value("padding_mode", a->padding_mode());
        break;
    }
    case fbs::NodeAttributes::ResampleBwdAttributes:
    {
        const auto* a = node.attributes_as_ResampleBwdAttributes();
        if(outOfSchema(a->resample_mode()))
            return value("resample_mode", a->resample_mode());
        if(outOfSchema(a->padding_mode()))
            return value("padding_mode", a->padding_mode());
        break;
    }
    case fbs::NodeAttributes::LayernormAttributes:
    {
        const auto* a = node.attributes_as_LayernormAttributes();
        if(outOfSchema(a->forward_phase()))
            return value("forward_phase", a->forward_phase());
        break;
    }
    case fbs::NodeAttributes::RMSNormAttributes:
    {
        const auto* a = node.attributes_as_RMSNormAttributes();
        if(outOfSchema(a->forward_phase()))
            return value("forward_phase", a->forward_phase());
        break;
    }
    default: break;
    }
    return "";
}

} // namespace

const OpEntry* findOp(fbs::NodeAttributes type)
{
    for(const OpEntry& e : kOps)
        if(e.type == type)
            return &e;
    return nullptr;
}

NodeContext::NodeContext(const fbs::Node& n, const TensorTable& t, int position)
    : node(n), tensors(t), name(nodeLabel(n, position, findOp(n.attributes_type()) ? findOp(n.attributes_type())->name : "?"))
{
}

int NodeContext::input(int64_t uid, const char* role)
{
    const TensorInfo* t = tensors.find(uid);
    require(t != nullptr, std::string(role) + " tensor uid " + std::to_string(uid) + " is not in the graph");
    inputs_.push_back(t->index);
    return t->index;
}

int NodeContext::output(int64_t uid, const char* role)
{
    const TensorInfo* t = tensors.find(uid);
    require(t != nullptr, std::string(role) + " tensor uid " + std::to_string(uid) + " is not in the graph");
    require(!t->isConstant && !t->isPassByValue,
            std::string(role) + " tensor " + t->label() + " is a scalar input and cannot be written");
    require(isNonOverlapping(t->shape), std::string(role) + " tensor " + t->label() + " " + t->shape.describe()
                                            + " has overlapping elements and cannot be written");
    outputs_.push_back(t->index);
    return t->index;
}

int NodeContext::raggedOffsets(int index, const char* role)
{
    const TensorInfo& t = tensors.all()[static_cast<size_t>(index)];
    if(!t.raggedOffsetUid)
        return -1;
    claimedRagged_.push_back(index);
    const int offsets = input(*t.raggedOffsetUid, (std::string(role) + " ragged offsets").c_str());
    require(!tensors.all()[static_cast<size_t>(offsets)].raggedOffsetUid,
            std::string("the ragged offsets of ") + role + " are themselves ragged");
    return offsets;
}

const TensorView& NodeContext::shape(int index) const { return tensors.all()[static_cast<size_t>(index)].shape; }

void NodeContext::requireFloating(std::initializer_list<int> indices) const
{
    for(int i : indices)
    {
        const TensorInfo& t = tensors.all()[static_cast<size_t>(i)];
        require(isFloatingPoint(t.shape.dtype), "tensor " + t.label() + " has type " + dataTypeName(t.shape.dtype)
                                                    + "; only float, half, bfloat16 and double are supported");
    }
}

void NodeContext::require(bool ok, const std::string& reason) const
{
    if(!ok)
        throw Unsupported(name + ": " + reason);
}

void NodeContext::check(const std::string& kernelReason) const
{
    if(!kernelReason.empty())
        throw Unsupported(name + ": " + kernelReason);
}

Accumulator NodeContext::accumulator() const
{
    return node.compute_data_type() == fbs::DataType::DOUBLE ? Accumulator::Double : Accumulator::Auto;
}

std::unique_ptr<PreparedNode> NodeContext::makeNode(std::function<void(const TensorBindings&)> run)
{
    for(const std::vector<int>* bound : {&inputs_, &outputs_})
        for(int i : *bound)
        {
            const TensorInfo& t = tensors.all()[static_cast<size_t>(i)];
            require(!t.raggedOffsetUid || std::find(claimedRagged_.begin(), claimedRagged_.end(), i) != claimedRagged_.end(),
                    "tensor " + t.label() + " is ragged; this node does not take ragged tensors");
        }
    auto prepared = std::make_unique<PreparedNode>(name, std::move(run));
    prepared->inputs = inputs_;
    prepared->outputs = outputs_;
    return prepared;
}

std::unique_ptr<PreparedNode> prepareNode(const fbs::Node& node, const TensorTable& tensors, int position)
{
    const fbs::NodeAttributes type = node.attributes_type();
    const OpEntry* entry = findOp(type);
    if(entry == nullptr || node.attributes() == nullptr)
    {
        const char* typeName = fbs::EnumNameNodeAttributes(type);
        throw Unsupported("node " + std::to_string(position) + ": node type "
                          + (typeName && *typeName ? std::string(typeName) : "#" + std::to_string(static_cast<int>(type)))
                          + " is not supported by the CPU reference engine");
    }
    NodeContext ctx(node, tensors, position);
    const std::string unknown = unknownValueOf(node);
    ctx.require(unknown.empty(), unknown + " is not one this engine knows");
    return entry->prepare(ctx);
}

} // namespace hipdnngo::cpu_reference
