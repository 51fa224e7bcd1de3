#include "core/TensorView.hpp"

#include <sstream>

namespace hipdnngo::cpu_reference
{

TensorView TensorView::make(void* data, DataType dtype, const std::vector<int64_t>& dims, const std::vector<int64_t>& strides)
{
    if(dims.size() != strides.size())
    {
        throw KernelError("tensor view: " + std::to_string(dims.size()) + " dims but " + std::to_string(strides.size())
                          + " strides");
    }
    if(dims.size() > static_cast<size_t>(kMaxRank))
    {
        throw KernelError("tensor view: rank " + std::to_string(dims.size()) + " exceeds the supported maximum "
                          + std::to_string(kMaxRank));
    }
    TensorView v;
    v.data = data;
    v.dtype = dtype;
    v.rank = static_cast<int>(dims.size());
    for(int d = 0; d < v.rank; ++d)
    {
        if(dims[d] < 0)
        {
            throw KernelError("tensor view: negative dimension " + std::to_string(dims[d]));
        }
        v.dims[d] = dims[d];
        v.strides[d] = strides[d];
    }
    return v;
}

std::vector<int64_t> TensorView::packedStrides(const std::vector<int64_t>& dims)
{
    std::vector<int64_t> strides(dims.size());
    int64_t s = 1;
    for(size_t i = dims.size(); i-- > 0;)
    {
        strides[i] = s;
        s *= dims[i] > 0 ? dims[i] : 1;
    }
    return strides;
}

int64_t TensorView::elementCount() const
{
    int64_t n = 1;
    for(int d = 0; d < rank; ++d)
    {
        n *= dims[d];
    }
    return n;
}

int64_t TensorView::spanElements() const
{
    if(elementCount() == 0)
    {
        return 0;
    }
    int64_t maxOffset = 0;
    for(int d = 0; d < rank; ++d)
    {
        maxOffset += (dims[d] - 1) * strides[d];
    }
    return maxOffset + 1;
}

std::string TensorView::describe() const
{
    std::ostringstream os;
    os << dataTypeName(dtype) << '[';
    for(int d = 0; d < rank; ++d)
    {
        os << (d ? "," : "") << dims[d];
    }
    os << "]/[";
    for(int d = 0; d < rank; ++d)
    {
        os << (d ? "," : "") << strides[d];
    }
    os << ']';
    return os.str();
}

bool isBroadcastableTo(const TensorView& view, int rank, const int64_t* dims)
{
    if(view.rank > rank)
    {
        // Extra leading dimensions are allowed only when they are all 1.
        for(int d = 0; d < view.rank - rank; ++d)
        {
            if(view.dims[d] != 1)
            {
                return false;
            }
        }
    }
    for(int i = 1; i <= rank && i <= view.rank; ++i)
    {
        const int64_t have = view.dims[view.rank - i];
        if(have != 1 && have != dims[rank - i])
        {
            return false;
        }
    }
    return true;
}

TensorView broadcastTo(const TensorView& view, int rank, const int64_t* dims)
{
    if(rank > kMaxRank || !isBroadcastableTo(view, rank, dims))
    {
        std::ostringstream os;
        os << "cannot broadcast " << view.describe() << " to [";
        for(int d = 0; d < rank; ++d)
        {
            os << (d ? "," : "") << dims[d];
        }
        os << ']';
        throw KernelError(os.str());
    }
    TensorView out;
    out.data = view.data;
    out.dtype = view.dtype;
    out.rank = rank;
    for(int i = 1; i <= rank; ++i)
    {
        const int d = rank - i;
        out.dims[d] = dims[d];
        const int src = view.rank - i;
        out.strides[d] = (src >= 0 && view.dims[src] == dims[d]) ? view.strides[src] : 0;
    }
    return out;
}

} // namespace hipdnngo::cpu_reference
