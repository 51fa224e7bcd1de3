#include "plugin/GraphModel.hpp"

#include <hipdnn_plugin_sdk/helpers/TensorTable.hpp>

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
    // The SDK reader runs the shared checks; scalars get zero strides (one element, whatever
    // the declared strides). What is left here is the engine's own: its data types.
    const hipdnn_plugin_sdk::TensorTable<Unsupported> read(graph, {0, kMaxRank, int64_t{0}, /*allowRagged*/ true});
    tensors_.reserve(read.size());
    for(const hipdnn_plugin_sdk::TensorRecord& r : read.all())
    {
        const std::optional<DataType> dtype = mapDataType(r.dtype);
        if(!dtype)
        {
            const char* typeName = fbs::EnumNameDataType(r.dtype);
            throw Unsupported("tensor " + r.label() + ": data type "
                              + (typeName && *typeName ? std::string(typeName) : std::to_string(static_cast<int>(r.dtype)))
                              + " is not supported");
        }
        TensorInfo info;
        info.index = r.index;
        info.uid = r.uid;
        info.name = r.name;
        info.shape = TensorView::make(nullptr, *dtype, r.dims, r.strides);
        info.isVirtual = r.isVirtual;
        info.isConstant = r.isConstant;
        info.constantValue = r.value;
        info.isPassByValue = r.isPassByValue;
        info.raggedOffsetUid = r.raggedOffsetUid;
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
