// The HIPDNNGO_CUDA_RTC engine's reading of a hipDNN graph: which fused pattern it is (a
// pointwise DAG, a row-wise norm forward with a pointwise epilogue, ...), its tensors and
// nodes, or the reason the engine declines it. No CUDA here: the model is what the code
// generator (Codegen.hpp) turns into CUDA C++ source, and what the applicability test reads.
#pragma once

#include <hipdnn_flatbuffers_sdk/graph_generated.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace hipdnngo::cuda_rtc
{

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;

// Unsupported: the graph is well formed but this engine does not run it (the reason).
struct Unsupported : std::runtime_error
{
    explicit Unsupported(const std::string& reason) : std::runtime_error(reason) {}
};

// Element types in memory. Arithmetic is always fp32.
enum class DType
{
    F32,
    F16,
    BF16,
};
const char* dtypeName(DType t);
int dtypeBytes(DType t);

struct Tensor
{
    int64_t uid = 0;
    std::string name;
    DType dt = DType::F32;
    std::vector<int64_t> dims, strides;
    int64_t alignment = 16; // bytes, as the graph declares it (the host checks it before execute)
    bool isVirtual = false;
    bool isConstant = false; // a compile-time scalar (value)
    bool byValue = false; // a runtime pass-by-value scalar: a host pointer at execute
    fbs::DataType wireType = fbs::DataType::FLOAT; // the graph's type (scalars may be double, ...)
    double value = 0.0;

    int rank() const { return static_cast<int>(dims.size()); }
    int64_t elements() const;
    bool scalarArg() const { return isConstant || byValue; } // passed by value to the kernel
};

// One pointwise node. Mode numbers are the wire's PointwiseMode.
struct PwOp
{
    int mode = 0;
    int64_t in[3] = {-1, -1, -1};
    int64_t out = -1;
    float reluLo = 0.0f, reluHi = std::numeric_limits<float>::infinity(), reluSlope = 0.0f;
    float swishBeta = 1.0f, eluAlpha = 1.0f, softplusBeta = 1.0f;
    int64_t axis = -1; // GEN_INDEX
};
const char* pwModeName(int mode);
int pwArity(int mode);

enum class Pattern
{
    Pointwise, // a DAG of pointwise nodes over one iteration space
    NormFwd, // layernorm / RMSNorm forward over trailing axes, then pointwise nodes on y
    NormBwd, // layernorm / RMSNorm backward over trailing axes: dx, dscale, dbias
    Reduce, // pointwise nodes on the input (a prologue), a reduction over any axes, pointwise nodes on its output
    BnFwd, // batchnorm training forward (statistics per channel, axis 1), then pointwise nodes on y
    BnBwd, // batchnorm backward with the saved statistics
    RowProgram, // reductions over the trailing axes interleaved with pointwise nodes (softmax, ...)
};

enum class NormKind
{
    Layer,
    Rms,
};

struct NormFwd
{
    NormKind kind = NormKind::Layer;
    bool training = false; // layernorm forward_phase TRAINING (mean and inv_variance written when given)
    int64_t x = -1, scale = -1, bias = -1, eps = -1, y = -1, mean = -1, inv = -1;
    int k = 1; // the trailing k axes of x are normalized
    int64_t rows = 1, n = 1; // rows (product of the kept dims) of n elements
};

struct NormBwd
{
    NormKind kind = NormKind::Layer;
    int64_t dy = -1, x = -1, scale = -1, mean = -1, inv = -1, eps = -1, dx = -1, dscale = -1, dbias = -1;
    int k = 1;
    int64_t rows = 1, n = 1;
};

struct Reduce
{
    int mode = 0; // wire ReductionMode
    int64_t in = -1, out = -1;
    std::vector<int64_t> inDims; // the reduction's space (the program's space is out's dims)
    int64_t rows = 1, members = 1; // outputs and elements reduced into each
};
const char* reductionName(int mode);

struct Batchnorm
{
    int64_t x = -1, scale = -1, bias = -1, eps = -1, momentum = -1, prevMean = -1, prevVar = -1, y = -1, mean = -1, inv = -1,
            nextMean = -1, nextVar = -1; // forward
    int64_t dy = -1, dx = -1, dscale = -1, dbias = -1; // backward (mean, inv: the saved inputs)
    int64_t channels = 1, members = 1; // C, and N * spatial elements per channel
};

// RowProgram: every tensor is per element of x's shape (Full), per row (Row: the trailing k axes
// are 1), per normalized position broadcast over the rows (Param) or a scalar argument.
enum class Level
{
    Full,
    Row,
    Param,
    Scalar,
};

struct RowOp
{
    bool reduce = false;
    int redMode = 0; // reduce: wire ReductionMode
    PwOp pw; // pointwise (reduce: pw.in[0] is the input, pw.out the output)
    Level level = Level::Full; // of the output
};

struct RowProg
{
    std::vector<RowOp> ops;
    int k = 1;
    int64_t rows = 1, n = 1;
};

struct Program
{
    Pattern pattern = Pattern::Pointwise;
    std::vector<Tensor> tensors;
    std::vector<PwOp> pw; // pointwise nodes in graph order (the chain, or the norm's epilogue)
    std::vector<PwOp> pre; // Reduce: the pointwise nodes before the reduction, over its input's space
    NormFwd norm;
    NormBwd bwd;
    Reduce red;
    Batchnorm bn;
    RowProg rp;
    Level level(int64_t uid) const; // RowProgram: the tensor's level (throws when it has none)
    std::vector<int64_t> space; // iteration space: the output dims (pointwise), x's dims (norm)
    std::string summary; // "layernorm_fwd(bf16 8192x8192)+mul" for messages

    const Tensor& t(int64_t uid) const;
    bool has(int64_t uid) const;
};

// readProgram throws Unsupported with the reason for any graph the engine does not cover.
Program readProgram(const fbs::Graph& graph);

} // namespace hipdnngo::cuda_rtc
