// The dispatch tables: which family reads each hipDNN node type and builds each OpKind.
#include "Ops.hpp"

namespace hipdnngo::cudnn
{

namespace
{

using NA = fbs::NodeAttributes;

// A node type missing here is declined by name ("is not translated to cuDNN by this engine yet").
const NodeReaderRow kNodeReaders[] = {
    {NA::ConvolutionFwdAttributes, readConvFwd},
    {NA::ConvolutionBwdAttributes, readConvDgrad},
    {NA::ConvolutionWrwAttributes, readConvWgrad},
    {NA::MatmulAttributes, readMatmul},
    {NA::PointwiseAttributes, readPointwise},
    {NA::ReductionAttributes, readReduction},
    {NA::LayernormAttributes, readLayernorm},
    {NA::RMSNormAttributes, readRmsnorm},
    {NA::BatchnormAttributes, readBatchnorm},
    {NA::BatchnormBackwardAttributes, readNormBackward},
    {NA::LayernormBackwardAttributes, readNormBackward},
    {NA::RMSNormBackwardAttributes, readNormBackward},
    {NA::BatchnormInferenceAttributes, readBatchnormInference},
    {NA::SdpaAttributes, readSdpaFwd},
    {NA::SdpaBackwardAttributes, readSdpaBwd},
    {NA::ResampleFwdAttributes, readResampleFwd},
    {NA::ResampleBwdAttributes, readResampleBwd},
};

// OpKind::Composite has no builder: expandComposites replaces it before anything is built.
const OpBuilderRow kOpBuilders[] = {
    {OpKind::ConvFwd, buildConv},
    {OpKind::ConvDgrad, buildConv},
    {OpKind::ConvWgrad, buildConv},
    {OpKind::Matmul, buildMatmul},
    {OpKind::Pointwise, buildPointwise},
    {OpKind::Reduction, buildReduction},
    {OpKind::NormFwd, buildNormFwd},
    {OpKind::NormBwd, buildNormBwd},
    {OpKind::Reshape, buildReshape},
    {OpKind::SdpaFwd, buildSdpaFwd},
    {OpKind::Rng, buildRng},
    {OpKind::PagedCacheLoad, buildPagedCacheLoad},
    {OpKind::ResampleFwd, buildResample},
    {OpKind::ResampleBwd, buildResample},
};

} // namespace

const NodeReaderRow* findNodeReader(fbs::NodeAttributes type)
{
    for(const NodeReaderRow& row : kNodeReaders)
        if(row.type == type)
            return &row;
    return nullptr;
}

OpBuilder findOpBuilder(OpKind kind)
{
    for(const OpBuilderRow& row : kOpBuilders)
        if(row.kind == kind)
            return row.build;
    return nullptr;
}

} // namespace hipdnngo::cudnn
