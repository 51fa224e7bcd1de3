// Composite ops (SDPA, batchnorm inference) replaced by the ops their lowering emits.
#include "Composite.hpp"

#include <algorithm>

namespace hipdnngo::cudnn
{

int64_t elementSize(cudnnDataType_t t)
{
    switch(t)
    {
    case CUDNN_DATA_DOUBLE:
    case CUDNN_DATA_INT64: return 8;
    case CUDNN_DATA_HALF:
    case CUDNN_DATA_BFLOAT16: return 2;
    case CUDNN_DATA_INT8:
    case CUDNN_DATA_UINT8:
    case CUDNN_DATA_BOOLEAN:
    case CUDNN_DATA_FP8_E4M3:
    case CUDNN_DATA_FP8_E5M2: return 1;
    default: return 4;
    }
}

void expandComposites(Model& m)
{
    int64_t maxUid = 0;
    for(const TensorSpec& t : m.tensors)
        maxUid = std::max(maxUid, t.uid);
    std::vector<OpSpec> out;
    for(OpSpec& op : m.ops)
    {
        if(op.kind != OpKind::Composite)
        {
            out.push_back(op);
            continue;
        }
        CompositeBuilder g{m, std::max<int64_t>(maxUid + 1, kSyntheticUid), {}};
        op.lower(m, op, g);
        out.insert(out.end(), g.ops.begin(), g.ops.end());
        maxUid = g.next;
    }
    m.ops = std::move(out);
}

} // namespace hipdnngo::cudnn
