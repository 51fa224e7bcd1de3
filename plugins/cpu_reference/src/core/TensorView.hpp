// TensorView: a non-owning strided view of a tensor in host memory, the one type every CPU
// reference kernel takes.
//
// A view is a base pointer, an element type, a rank and per-dimension sizes and strides, both
// counted in ELEMENTS (not bytes), exactly like hipDNN's TensorAttributes. Dimensions are in
// hipDNN's logical order (N, C, spatial… for conv/pool tensors; batch…, M, N for matmul); the
// strides carry the memory layout, so NCHW, NHWC, any permutation, broadcast (stride 0) and
// size-1 dimensions with arbitrary strides are all just views.
//
// Element access converts on the fly: load<double>/load<float> widen any element type to the
// accumulator, store(double) rounds back (round-to-nearest-even for half and bfloat16,
// truncation toward zero with saturation for integers, 0/1 for booleans).
#pragma once

#include "core/DataType.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <string>
#include <vector>

namespace hipdnngo::cpu_reference
{

// kMaxRank is the largest rank a TensorView holds (hipDNN graphs use at most 6 today).
constexpr int kMaxRank = 8;

struct TensorView
{
    void* data = nullptr; // element [0,…,0]; may be null for shape-only views (validation)
    DataType dtype = DataType::Float;
    int rank = 0;
    int64_t dims[kMaxRank] = {};
    int64_t strides[kMaxRank] = {}; // in elements; 0 means broadcast along that dimension

    // make builds a view; throws KernelError when the rank exceeds kMaxRank, the sizes differ or
    // a dimension is negative.
    static TensorView make(void* data, DataType dtype, const std::vector<int64_t>& dims, const std::vector<int64_t>& strides);

    // packedStrides returns row-major strides for dims (last dimension contiguous).
    static std::vector<int64_t> packedStrides(const std::vector<int64_t>& dims);

    // elementCount is the product of the dims (1 for rank 0).
    int64_t elementCount() const;

    // offsetOf returns the element offset of the multi-index `index` (rank entries).
    int64_t offsetOf(const int64_t* index) const
    {
        int64_t off = 0;
        for(int d = 0; d < rank; ++d)
        {
            off += index[d] * strides[d];
        }
        return off;
    }

    // spanElements returns how many elements the view reaches from `data` (max offset + 1);
    // the plugin uses it to size workspace tensors. Requires non-negative strides.
    int64_t spanElements() const;

    // describe renders "half[2,3,4]/[12,4,1]" for error messages.
    std::string describe() const;

    // load reads the element at `offset` (elements from data) widened to Acc (float or double).
    template <typename Acc>
    Acc load(int64_t offset) const;

    // store writes v, converted to dtype, at `offset`.
    void store(int64_t offset, double v) const;
    void store(int64_t offset, float v) const { storeFloat(offset, v); }

private:
    void storeFloat(int64_t offset, float v) const;
};

// KernelError is thrown by kernels and view helpers for invalid shapes or parameters; the
// plugin maps it to HIPDNN_PLUGIN_STATUS_BAD_PARAM with its message.
struct KernelError : std::exception
{
    explicit KernelError(std::string msg) : message(std::move(msg)) {}
    const char* what() const noexcept override { return message.c_str(); }
    std::string message;
};

// broadcastTo returns `view` seen with `rank`/`dims` by NumPy rules: dimensions are aligned at
// the right, missing leading dimensions and size-1 dimensions get stride 0. Throws KernelError
// if a dimension is neither equal nor 1.
TensorView broadcastTo(const TensorView& view, int rank, const int64_t* dims);

// isBroadcastableTo reports whether broadcastTo(view, rank, dims) would succeed.
bool isBroadcastableTo(const TensorView& view, int rank, const int64_t* dims);

// ---------------------------------------------------------------------------------------------
// inline element access

template <typename Acc>
inline Acc TensorView::load(int64_t offset) const
{
    const char* base = static_cast<const char*>(data);
    switch(dtype)
    {
    case DataType::Float:
    {
        float v;
        std::memcpy(&v, base + offset * 4, 4);
        return static_cast<Acc>(v);
    }
    case DataType::Half:
    {
        uint16_t v;
        std::memcpy(&v, base + offset * 2, 2);
        return static_cast<Acc>(hipdnnHalfToFloat(v));
    }
    case DataType::BFloat16:
    {
        uint16_t v;
        std::memcpy(&v, base + offset * 2, 2);
        return static_cast<Acc>(hipdnnBfloat16ToFloat(v));
    }
    case DataType::Double:
    {
        double v;
        std::memcpy(&v, base + offset * 8, 8);
        return static_cast<Acc>(v);
    }
    case DataType::Int8: return static_cast<Acc>(reinterpret_cast<const int8_t*>(base)[offset]);
    case DataType::Uint8: return static_cast<Acc>(reinterpret_cast<const uint8_t*>(base)[offset]);
    case DataType::Int32:
    {
        int32_t v;
        std::memcpy(&v, base + offset * 4, 4);
        return static_cast<Acc>(v);
    }
    case DataType::Int64:
    {
        int64_t v;
        std::memcpy(&v, base + offset * 8, 8);
        return static_cast<Acc>(v);
    }
    case DataType::Boolean: return reinterpret_cast<const uint8_t*>(base)[offset] != 0 ? Acc(1) : Acc(0);
    }
    return Acc(0);
}

namespace detail
{
template <typename T>
inline T saturatingCast(double v)
{
    if(std::isnan(v))
    {
        return T(0);
    }
    const double t = std::trunc(v);
    // Compare against the exact power-of-two bounds so int64 never converts an out-of-range value.
    constexpr double hiExclusive = static_cast<double>(std::numeric_limits<T>::max()) + 1.0;
    constexpr double lo = static_cast<double>(std::numeric_limits<T>::min());
    if(t >= hiExclusive)
    {
        return std::numeric_limits<T>::max();
    }
    if(t <= lo)
    {
        return std::numeric_limits<T>::min();
    }
    return static_cast<T>(t);
}
} // namespace detail

inline void TensorView::store(int64_t offset, double v) const
{
    char* base = static_cast<char*>(data);
    switch(dtype)
    {
    case DataType::Float:
    {
        const float f = static_cast<float>(v);
        std::memcpy(base + offset * 4, &f, 4);
        return;
    }
    case DataType::Half:
    {
        const uint16_t h = hipdnnDoubleToHalf(v);
        std::memcpy(base + offset * 2, &h, 2);
        return;
    }
    case DataType::BFloat16:
    {
        const uint16_t h = hipdnnDoubleToBfloat16(v);
        std::memcpy(base + offset * 2, &h, 2);
        return;
    }
    case DataType::Double: std::memcpy(base + offset * 8, &v, 8); return;
    case DataType::Int8: reinterpret_cast<int8_t*>(base)[offset] = detail::saturatingCast<int8_t>(v); return;
    case DataType::Uint8: reinterpret_cast<uint8_t*>(base)[offset] = detail::saturatingCast<uint8_t>(v); return;
    case DataType::Int32:
    {
        const int32_t i = detail::saturatingCast<int32_t>(v);
        std::memcpy(base + offset * 4, &i, 4);
        return;
    }
    case DataType::Int64:
    {
        const int64_t i = detail::saturatingCast<int64_t>(v);
        std::memcpy(base + offset * 8, &i, 8);
        return;
    }
    case DataType::Boolean: reinterpret_cast<uint8_t*>(base)[offset] = v != 0.0 ? 1 : 0; return;
    }
}

inline void TensorView::storeFloat(int64_t offset, float v) const
{
    if(dtype == DataType::Float)
    {
        std::memcpy(static_cast<char*>(data) + offset * 4, &v, 4);
        return;
    }
    store(offset, static_cast<double>(v)); // exact widening, then one rounding
}

} // namespace hipdnngo::cpu_reference
