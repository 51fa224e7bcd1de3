// The dispatch table: which PlanBuilder member plans each hipDNN node type and which tensors
// the node reads. A node type missing here is declined ("is not implemented by the oneDNN engine").
#include "../PlanBuilder.hpp"

namespace hipdnngo::onednn
{

namespace
{

using NA = fbs::NodeAttributes;
using PB = PlanBuilder;

const OpFamilyRow kOpFamilies[] = {
    {NA::ConvolutionFwdAttributes, &PB::convForward, convForwardInputs},
    {NA::ConvolutionBwdAttributes, &PB::convBackwardData, convBackwardDataInputs},
    {NA::ConvolutionWrwAttributes, &PB::convBackwardWeights, convBackwardWeightsInputs},
    {NA::MatmulAttributes, &PB::matmul, matmulInputs},
    {NA::PointwiseAttributes, &PB::pointwise, pointwiseInputs},
    {NA::BatchnormInferenceAttributes, &PB::batchnormInference, batchnormInferenceInputs},
    {NA::BatchnormInferenceAttributesVarianceExt, &PB::batchnormInferenceVariance, batchnormInferenceVarianceInputs},
    {NA::LayernormAttributes, &PB::layernorm, layernormInputs},
    {NA::LayernormBackwardAttributes, &PB::layernormBackward, layernormBackwardInputs},
    {NA::BatchnormAttributes, &PB::batchnormTraining, batchnormTrainingInputs},
    {NA::BatchnormBackwardAttributes, &PB::batchnormBackward, batchnormBackwardInputs},
    {NA::ReductionAttributes, &PB::reduction, reductionInputs},
    {NA::ResampleFwdAttributes, &PB::poolingForward, poolingForwardInputs},
    {NA::ResampleBwdAttributes, &PB::poolingBackward, poolingBackwardInputs},
    {NA::SdpaAttributes, &PB::sdpaForward, sdpaForwardInputs},
    {NA::SdpaBackwardAttributes, &PB::sdpaBackward, sdpaBackwardInputs},
    {NA::RMSNormAttributes, &PB::rmsnorm, rmsnormInputs},
    {NA::RMSNormBackwardAttributes, &PB::rmsnormBackward, rmsnormBackwardInputs},
};

} // namespace

const OpFamilyRow* findOpFamily(fbs::NodeAttributes type)
{
    for(const OpFamilyRow& row : kOpFamilies)
        if(row.type == type)
            return &row;
    return nullptr;
}

} // namespace hipdnngo::onednn
