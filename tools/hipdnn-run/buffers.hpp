// Host buffers for a graph's non-virtual tensors: allocation, seeded filling of inputs by role,
// and element access by logical index.
#pragma once

#include "graph_model.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hdrun
{

// loadElement / storeElement read and write element `offset` (in elements) of a buffer of type t.
// Floating types round to nearest even; integer types truncate toward zero and saturate.
double loadElement(DType t, const void* base, int64_t offset);
void storeElement(DType t, void* base, int64_t offset, double v);

// forEachIndex calls f(index, linear) for every multi-index of dims in row-major order.
template <class F>
void forEachIndex(const std::vector<int64_t>& dims, F&& f)
{
    int64_t total = 1;
    for(int64_t d : dims)
    {
        total *= d;
    }
    if(total <= 0)
    {
        return;
    }
    std::vector<int64_t> idx(dims.size(), 0);
    for(int64_t lin = 0; lin < total; ++lin)
    {
        f(idx, lin);
        for(size_t d = dims.size(); d-- > 0;)
        {
            if(++idx[d] < dims[d])
            {
                break;
            }
            idx[d] = 0;
        }
    }
}

// forEachOffsets calls f(linear, offsets) for every multi-index of dims in row-major order, where
// offsets[k] = Σ index[d]·strides[k][d], maintained incrementally.
template <size_t K, class F>
void forEachOffsets(const std::vector<int64_t>& dims, const std::array<const std::vector<int64_t>*, K>& strides, F&& f)
{
    int64_t total = 1;
    for(int64_t d : dims)
    {
        total *= d;
    }
    if(total <= 0)
    {
        return;
    }
    const size_t rank = dims.size();
    std::vector<int64_t> idx(rank, 0);
    std::array<int64_t, K> off{};
    for(int64_t lin = 0; lin < total; ++lin)
    {
        f(lin, off.data());
        for(size_t d = rank; d-- > 0;)
        {
            for(size_t k = 0; k < K; ++k)
            {
                off[k] += (*strides[k])[d];
            }
            if(++idx[d] < dims[d])
            {
                break;
            }
            for(size_t k = 0; k < K; ++k)
            {
                off[k] -= (*strides[k])[d] * dims[d];
            }
            idx[d] = 0;
        }
    }
}

// How an input tensor is filled.
struct FillRule
{
    enum Kind
    {
        Uniform, // floats in [-1, 1); integers in [0, 3]
        Positive, // [0.25, 1): variances, logarithm and square-root operands
        NonZero, // ±[0.5, 1): divisors
        Constant, // every element = value
        SeqLen, // integers in [1, limit] (valid sequence lengths)
        PageTable, // valid block indices in [0, limit), scattered (5·i + 3 mod limit)
        RaggedOffset, // cumulative batch spans of the ragged tensor `raggedOf` with the lengths
        // in tensor `lengthsOf` (filled after every other input)
        Zero,
        PoolIndex // max-pool argmax: a random in-range position of each output's window, as the
        // flat index within its (n, c) input plane; -1 where the window is all padding
    } kind = Uniform;
    double value = 0;
    int64_t limit = 0;
    // PoolIndex geometry, per spatial dimension: input size, window, stride, pre-padding.
    std::vector<int64_t> in, window, stride, pre;
    int64_t raggedOf = -1, lengthsOf = -1; // RaggedOffset: the ragged tensor, its seq_len tensor
    std::string why; // the role that chose the rule, for --verbose output
};

// fillRules decides, from the nodes that read each tensor, how to fill it.
std::map<int64_t, FillRule> fillRules(const Graph& g);

struct HostBuffer
{
    const Tensor* tensor = nullptr;
    void* data = nullptr;
    size_t bytes = 0;
    bool output = false;
};

class Buffers
{
public:
    Buffers() = default;
    Buffers(const Buffers&) = delete;
    Buffers& operator=(const Buffers&) = delete;
    ~Buffers();

    // allocate makes a buffer for every non-virtual, non-constant tensor (span elements, 64-byte
    // aligned; pass-by-value scalars get one element). Returns false with *error on failure.
    bool allocate(const Graph& g, std::string* error);
    // fill writes seeded inputs by rule and poisons outputs (all bytes 0xFF: NaN / -1).
    void fill(const Graph& g, const std::map<int64_t, FillRule>& rules, uint64_t seed);
    bool allocateWorkspace(int64_t bytes, std::string* error);

    const HostBuffer* find(int64_t uid) const;
    const std::vector<HostBuffer>& all() const { return list_; }
    void* workspace() const { return workspace_; }
    size_t totalBytes() const;

    // dense reads the tensor's elements in row-major logical order; setDense writes them. A
    // ragged tensor's batch b starts at offsets[b] (its offsets tensor's buffer); elements that
    // fall outside its span read as NaN and are not written.
    std::vector<double> dense(const Tensor& t) const;
    void setDense(const Tensor& t, const std::vector<double>& v);
    // nonFinite counts the NaN or infinite elements of t among those an engine defines. rows, when
    // given, holds per batch how many rows (dim 2 of a rank-4 [B, H, S, D] tensor) exist, as
    // sequence lengths do for attention: rows past it are not data (they keep the output
    // poison). Elements of a ragged tensor outside its buffer (dense's NaN placeholders) are never
    // counted.
    int64_t nonFinite(const Tensor& t, const std::vector<int64_t>* rows = nullptr) const;

private:
    std::vector<int64_t> raggedOffsets(const Tensor& t) const;
    template <class F>
    void forEachElement(const Tensor& t, F&& f) const;

    std::vector<HostBuffer> list_;
    void* workspace_ = nullptr;
    size_t workspaceBytes_ = 0;
};

// tensorBytes: bytes hipdnn-run allocates for t (0 for virtual tensors and constants).
size_t tensorBytes(const Tensor& t);

} // namespace hdrun
