#include "Graph.hpp"

#include <hipdnn_plugin_sdk/helpers/PluginHelpers.hpp>

#include <algorithm>
#include <numeric>
#include <optional>

namespace hipdnngo::onednn
{

int64_t Tensor::elements() const
{
    int64_t n = 1;
    for(int64_t d : dims)
        n *= d;
    return n;
}

std::string Tensor::label() const { return "uid " + std::to_string(uid) + (name.empty() ? "" : " ('" + name + "')"); }

size_t dataTypeSize(fbs::DataType t)
{
    switch(t)
    {
    case fbs::DataType::FLOAT:
    case fbs::DataType::INT32: return 4;
    case fbs::DataType::HALF:
    case fbs::DataType::BFLOAT16: return 2;
    case fbs::DataType::INT8:
    case fbs::DataType::UINT8: return 1;
    default: return 0;
    }
}

TensorTable::TensorTable(const fbs::Graph& graph)
{
    if(graph.tensors() == nullptr)
        return;
    for(const fbs::TensorAttributes* t : *graph.tensors())
    {
        if(t == nullptr)
            throw Unsupported("graph has a null tensor entry");
        Tensor info;
        info.index = static_cast<int>(tensors_.size());
        info.uid = t->uid();
        info.name = t->name() ? t->name()->str() : "";
        const std::string what = "tensor " + info.label();
        if(byUid_.count(info.uid) != 0)
            throw Unsupported(what + " appears twice");
        info.dtype = t->data_type();
        if(t->ragged_offset_tensor_uid().has_value() || t->ragged_offset_multiplier() != 1)
            throw Unsupported(what + ": ragged tensors are not supported");
        const size_t rank = t->dims() ? t->dims()->size() : 0;
        const size_t nstrides = t->strides() ? t->strides()->size() : 0;
        if(rank != nstrides)
            throw Unsupported(what + ": " + std::to_string(rank) + " dims but " + std::to_string(nstrides) + " strides");
        if(rank == 0 || rank > 12)
            throw Unsupported(what + ": rank " + std::to_string(rank) + " (supported: 1 to 12)");
        for(size_t d = 0; d < rank; ++d)
        {
            info.dims.push_back(t->dims()->Get(static_cast<flatbuffers::uoffset_t>(d)));
            info.strides.push_back(t->strides()->Get(static_cast<flatbuffers::uoffset_t>(d)));
            if(info.dims.back() < 1 || info.strides.back() < 0)
                throw Unsupported(what + ": dims must be >= 1 and strides >= 0");
        }
        info.isVirtual = t->virtual_();
        info.isPassByValue = t->is_runtime_pass_by_value();
        if(const std::optional<double> v = hipdnn_plugin_sdk::constantValue<Unsupported>(*t))
        {
            info.isConstant = true;
            info.value = *v;
        }
        if(info.isConstant || info.isPassByValue)
        {
            if(info.elements() != 1)
                throw Unsupported(what + ": a scalar tensor must hold one element");
            for(int64_t& s : info.strides)
                s = 1;
        }
        // Types are checked where the tensor is used (a node may read an INT64 tensor we never
        // touch); dataTypeSize() == 0 means the engine cannot address it.
        byUid_[info.uid] = info.index;
        tensors_.push_back(std::move(info));
    }
}

const Tensor* TensorTable::find(int64_t uid) const
{
    const auto it = byUid_.find(uid);
    return it == byUid_.end() ? nullptr : &tensors_[static_cast<size_t>(it->second)];
}

bool isDensePermutation(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides, std::vector<int>* order)
{
    const int rank = static_cast<int>(dims.size());
    std::vector<int> idx(static_cast<size_t>(rank));
    std::iota(idx.begin(), idx.end(), 0);
    // Outermost first: larger stride first; among equal strides (size-1 dims) keep logical order.
    std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) {
        if(strides[static_cast<size_t>(a)] != strides[static_cast<size_t>(b)])
            return strides[static_cast<size_t>(a)] > strides[static_cast<size_t>(b)];
        return a < b;
    });
    int64_t expect = 1;
    for(int i = rank - 1; i >= 0; --i)
    {
        const size_t d = static_cast<size_t>(idx[static_cast<size_t>(i)]);
        if(dims[d] != 1 && strides[d] != expect)
            return false;
        expect *= dims[d];
    }
    if(order)
        *order = idx;
    return true;
}

std::vector<int64_t> denseStrides(const std::vector<int64_t>& dims, const std::vector<int>& order)
{
    std::vector<int64_t> s(dims.size(), 1);
    int64_t acc = 1;
    for(int i = static_cast<int>(order.size()) - 1; i >= 0; --i)
    {
        const size_t d = static_cast<size_t>(order[static_cast<size_t>(i)]);
        s[d] = acc;
        acc *= dims[d];
    }
    return s;
}

std::vector<int> channelsLastOrder(int rank)
{
    std::vector<int> o{0};
    for(int d = 2; d < rank; ++d)
        o.push_back(d);
    o.push_back(1);
    return o;
}

std::vector<int> channelsFirstOrder(int rank)
{
    std::vector<int> o(static_cast<size_t>(rank));
    std::iota(o.begin(), o.end(), 0);
    return o;
}

} // namespace hipdnngo::onednn
