// CompositeBuilder: how a composite node (SDPA forward and backward, batchnorm inference) is
// lowered into the backend operations cuDNN has. Intermediates are new tensors with synthetic
// uids (from 2^40 up, past any graph uid), virtual unless they must live in the workspace.
#pragma once

#include "Ops.hpp"

#include <cstring>

namespace hipdnngo::cudnn
{

// kSyntheticUid is the first uid expandComposites gives an intermediate.
constexpr int64_t kSyntheticUid = int64_t{1} << 40;

struct CompositeBuilder
{
    Model& m;
    int64_t next;
    std::vector<OpSpec> ops;

    TensorSpec& add(cudnnDataType_t t, std::vector<int64_t> dims, bool isVirtual = true)
    {
        TensorSpec s;
        s.uid = next++;
        s.dtype = t;
        s.dims = std::move(dims);
        s.strides.assign(s.dims.size(), 1);
        for(size_t i = s.dims.size() - 1; i-- > 0;)
            s.strides[i] = s.strides[i + 1] * s.dims[i + 1];
        s.isVirtual = isVirtual;
        m.tensors.push_back(s);
        return m.tensors.back();
    }
    // addWorkspace adds a non-virtual intermediate held in the engine's part of the workspace,
    // 256-byte aligned.
    TensorSpec& addWorkspace(cudnnDataType_t t, std::vector<int64_t> dims)
    {
        TensorSpec& s = add(t, std::move(dims), false);
        int64_t n = 1;
        for(int64_t d : s.dims)
            n *= d;
        s.wsOffset = m.wsBytes;
        m.wsBytes += (n * elementSize(t) + 255) / 256 * 256;
        return s;
    }
    void rng(int64_t seed, int64_t offset, int64_t y, double keep)
    {
        OpSpec op;
        op.kind = OpKind::Rng;
        op.t = {seed, offset, y, -1, -1, -1, -1};
        op.keepProbability = keep;
        ops.push_back(op);
    }
    void pagedCacheLoad(int64_t container, int64_t pageTable, int64_t seqLen, int64_t y)
    {
        OpSpec op;
        op.kind = OpKind::PagedCacheLoad;
        op.t = {container, pageTable, seqLen, y, -1, -1, -1};
        ops.push_back(op);
    }
    void reshape(int64_t x, int64_t y)
    {
        OpSpec op;
        op.kind = OpKind::Reshape;
        op.t = {x, y, -1, -1, -1, -1, -1};
        ops.push_back(op);
    }
    int64_t constant(float v)
    {
        TensorSpec& s = add(CUDNN_DATA_FLOAT, std::vector<int64_t>(4, 1), false);
        s.constant = s.byValue = true;
        std::memcpy(s.value.data(), &v, sizeof v);
        return s.uid;
    }
    // deviceConstant adds fp32 constants that live in device memory (TensorSpec::deviceValues).
    int64_t deviceConstant(std::vector<int64_t> dims, std::vector<float> values)
    {
        TensorSpec& s = add(CUDNN_DATA_FLOAT, std::move(dims), false);
        s.deviceValues = std::move(values);
        return s.uid;
    }
    int64_t constantInt(int32_t v)
    {
        TensorSpec& s = add(CUDNN_DATA_INT32, std::vector<int64_t>(4, 1), false);
        s.constant = s.byValue = true;
        std::memcpy(s.value.data(), &v, sizeof v);
        return s.uid;
    }
    OpSpec& pointwise(int mode, int64_t a, int64_t b, int64_t c, int64_t out, cudnnDataType_t compute = CUDNN_DATA_FLOAT)
    {
        OpSpec op;
        op.kind = OpKind::Pointwise;
        op.mode = mode;
        op.compute = compute;
        op.t = {a, b, c, out, -1, -1, -1};
        op.reluLower = op.reluUpper = op.reluSlope = op.swishBeta = op.eluAlpha = op.softplusBeta =
            std::numeric_limits<float>::quiet_NaN();
        ops.push_back(op);
        return ops.back();
    }
    void reduce(int mode, int64_t x, int64_t y)
    {
        OpSpec op;
        op.kind = OpKind::Reduction;
        op.mode = mode;
        op.t = {x, y, -1, -1, -1, -1, -1};
        ops.push_back(op);
    }
    OpSpec& matmul(int64_t a, int64_t b, int64_t c)
    {
        OpSpec op;
        op.kind = OpKind::Matmul;
        op.t = {a, b, c, -1, -1, -1, -1};
        ops.push_back(op);
        return ops.back();
    }
};

// expandComposites replaces every OpKind::Composite op by what its lowering emits, in place.
void expandComposites(Model& m);

} // namespace hipdnngo::cudnn
