#include "Graph.hpp"

#include <algorithm>
#include <numeric>
#include <optional>

namespace hipdnngo::onednn
{

int64_t spanOf(const Tensor& t)
{
    int64_t span = 1;
    for(size_t d = 0; d < t.dims.size(); ++d)
        span += (t.dims[d] - 1) * t.strides[d];
    return span;
}

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
