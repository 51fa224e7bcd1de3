#include "plugin/GraphModel.hpp"

#include <hipdnn_plugin_sdk/helpers/PluginHelpers.hpp>

#include <algorithm>

namespace hipdnngo::cpu_reference
{

std::optional<DataType> mapDataType(fbs::DataType type)
{
    switch(type)
    {
    case fbs::DataType::FLOAT: return DataType::Float;
    case fbs::DataType::HALF: return DataType::Half;
    case fbs::DataType::BFLOAT16: return DataType::BFloat16;
    case fbs::DataType::DOUBLE: return DataType::Double;
    case fbs::DataType::UINT8: return DataType::Uint8;
    case fbs::DataType::INT32: return DataType::Int32;
    case fbs::DataType::INT8: return DataType::Int8;
    case fbs::DataType::INT64: return DataType::Int64;
    default: return std::nullopt;
    }
}

std::string TensorInfo::label() const { return "uid " + std::to_string(uid) + (name.empty() ? "" : " ('" + name + "')"); }

TensorTable::TensorTable(const fbs::Graph& graph)
{
    if(graph.tensors() == nullptr)
    {
        return;
    }
    for(const fbs::TensorAttributes* t : *graph.tensors())
    {
        if(t == nullptr)
        {
            throw Unsupported("graph has a null tensor entry");
        }
        TensorInfo info;
        info.index = static_cast<int>(tensors_.size());
        info.uid = t->uid();
        info.name = t->name() ? t->name()->str() : "";
        const std::string what = "tensor " + info.label();
        if(byUid_.count(info.uid) != 0)
        {
            throw Unsupported(what + " appears twice");
        }
        const std::optional<DataType> dtype = mapDataType(t->data_type());
        if(!dtype)
        {
            const char* typeName = fbs::EnumNameDataType(t->data_type());
            throw Unsupported(what + ": data type "
                              + (typeName && *typeName ? std::string(typeName) : std::to_string(static_cast<int>(t->data_type())))
                              + " is not supported");
        }
        if(t->ragged_offset_tensor_uid().has_value() || t->ragged_offset_multiplier() != 1)
        {
            throw Unsupported(what + ": ragged tensors are not supported");
        }
        const size_t rank = t->dims() ? t->dims()->size() : 0;
        const size_t strideCount = t->strides() ? t->strides()->size() : 0;
        if(rank != strideCount)
        {
            throw Unsupported(what + ": " + std::to_string(rank) + " dims but " + std::to_string(strideCount) + " strides");
        }
        if(rank > static_cast<size_t>(kMaxRank))
        {
            throw Unsupported(what + ": rank " + std::to_string(rank) + " exceeds " + std::to_string(kMaxRank));
        }
        std::vector<int64_t> dims(rank), strides(rank);
        for(size_t d = 0; d < rank; ++d)
        {
            dims[d] = t->dims()->Get(static_cast<flatbuffers::uoffset_t>(d));
            strides[d] = t->strides()->Get(static_cast<flatbuffers::uoffset_t>(d));
            if(dims[d] < 1 || strides[d] < 0)
            {
                throw Unsupported(what + ": dims must be >= 1 and strides >= 0");
            }
        }
        info.shape = TensorView::make(nullptr, *dtype, dims, strides);
        info.isVirtual = t->virtual_();
        info.isPassByValue = t->is_runtime_pass_by_value();
        const std::optional<double> constant = hipdnn_plugin_sdk::constantValue<Unsupported>(*t);
        if(constant)
        {
            info.isConstant = true;
            info.constantValue = *constant;
        }
        if(info.isConstant || info.isPassByValue)
        {
            if(info.shape.elementCount() != 1)
            {
                throw Unsupported(what + ": a scalar (constant or pass-by-value) tensor must hold one element");
            }
            if(info.isVirtual)
            {
                throw Unsupported(what + ": a scalar tensor cannot be virtual");
            }
            for(int d = 0; d < info.shape.rank; ++d)
            {
                info.shape.strides[d] = 0; // one element, whatever the declared strides
            }
        }
        byUid_[info.uid] = info.index;
        tensors_.push_back(std::move(info));
    }
}

const TensorInfo* TensorTable::find(int64_t uid) const
{
    const auto it = byUid_.find(uid);
    return it == byUid_.end() ? nullptr : &tensors_[static_cast<size_t>(it->second)];
}

bool isNonOverlapping(const TensorView& view)
{
    std::vector<std::pair<int64_t, int64_t>> dims; // stride, size
    for(int d = 0; d < view.rank; ++d)
    {
        if(view.dims[d] > 1)
        {
            dims.push_back({view.strides[d], view.dims[d]});
        }
    }
    std::sort(dims.begin(), dims.end());
    int64_t reach = 0; // largest offset reachable with the inner dims
    for(const auto& [stride, size] : dims)
    {
        if(stride <= reach)
        {
            return false;
        }
        reach += stride * (size - 1);
    }
    return true;
}

} // namespace hipdnngo::cpu_reference
