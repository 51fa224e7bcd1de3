// The cuDNN engine's reading of a hipDNN Graph: a plain model (tensors and ops, ranks padded to
// one common rank) built from the FlatBuffer without touching cuDNN, a canonical key of that
// model for the plan cache, and the translation of the model into cuDNN backend descriptors.
// Graph.cpp is the core; each op family reads and builds its ops in src/ops/ (ops/Ops.hpp).
#pragma once

#include "CudnnApi.hpp"

#include <hipdnn_flatbuffers_sdk/graph_generated.h>

#include <array>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace hipdnngo::cudnn
{

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;

// Unsupported: the graph is well formed but this engine (or cuDNN) cannot run it.
struct Unsupported : std::runtime_error
{
    explicit Unsupported(const std::string& reason) : std::runtime_error(reason) {}
};

// Desc owns one cuDNN backend descriptor.
class Desc
{
public:
    explicit Desc(cudnnBackendDescriptorType_t type);
    ~Desc();
    Desc(const Desc&) = delete;
    Desc& operator=(const Desc&) = delete;
    cudnnBackendDescriptor_t get() const { return d_; }
    cudnnBackendDescriptor_t* addr() { return &d_; }

    // set / finalize throw Unsupported with cuDNN's reason, naming `what`.
    void set(cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type, int64_t count, const void* values,
             const char* what);
    void setDesc(cudnnBackendAttributeName_t name, const Desc& other, const char* what);
    void setInt(cudnnBackendAttributeName_t name, int64_t v, const char* what) { set(name, CUDNN_TYPE_INT64, 1, &v, what); }
    void finalize(const char* what);

private:
    cudnnBackendDescriptor_t d_ = nullptr;
};
using DescPtr = std::shared_ptr<Desc>;

struct TensorSpec
{
    int64_t uid = 0;
    cudnnDataType_t dtype = CUDNN_DATA_FLOAT;
    std::vector<int64_t> dims, strides; // padded to the graph rank
    int64_t alignment = 16;
    bool isVirtual = false;
    bool byValue = false; // constant or runtime pass-by-value scalar: host pointer at execute
    bool constant = false;
    std::array<unsigned char, 16> value{}; // constant's bytes in dtype
    // >= 0: an intermediate cuDNN needs in memory (not virtual) that no graph tensor holds; it
    // lives at this offset in the engine's part of the workspace (Model::wsBytes).
    int64_t wsOffset = -1;
    // Non-empty: fp32 constants the engine keeps in device memory, one copy per translated graph
    // and device (GraphEntry), fed through the variant pack (ALiBi slopes).
    std::vector<float> deviceValues;
    // Ragged (packed variable-length) layouts: the uid of the tensor of per-batch element
    // offsets (cuDNN's RAGGED_OFFSET_DESC), -1 when the tensor is not ragged. Only SDPA's
    // lowering takes ragged tensors; it sets raggedTaken on those it accepts.
    int64_t raggedOffset = -1;
    bool raggedTaken = false;
};

enum class OpKind
{
    ConvFwd,
    ConvDgrad,
    ConvWgrad,
    Matmul,
    Pointwise,
    Reduction,
    NormFwd,
    NormBwd,
    Reshape, // a view: x and y share memory, y's strides permute x's
    Rng, // Bernoulli mask from a Philox seed and offset
    PagedCacheLoad, // K or V gathered from a paged cache by a page table (SDPA forward)
    ResampleFwd,
    ResampleBwd,
    SdpaFwd, // cuDNN's single SDPA forward operation (9.13.1+): q k v o stats scale
    Composite, // placeholder while reading (SDPA, batchnorm inference); lowered into the kinds above
};

struct Model;
struct CompositeBuilder;
struct OpSpec;
// CompositeLowering emits the ops that stand for one OpKind::Composite op (ops/Composite.hpp).
using CompositeLowering = void (*)(Model& m, const OpSpec& op, CompositeBuilder& g);

struct OpSpec
{
    OpKind kind = OpKind::Pointwise;
    cudnnDataType_t compute = CUDNN_DATA_FLOAT;
    int mode = 0; // conv mode / pointwise mode / reduction op / norm mode / resample mode
    int phase = 0; // norm: cudnnBackendNormFwdPhase_t; resample: cudnnPaddingMode_t
    // Tensor uids; -1 when absent. Meaning per kind:
    //   conv fwd x w y | dgrad dy w dx | wgrad x dy dw | matmul a b c | pointwise in0 in1 in2 out
    //   reduction x y | norm x scale bias eps y mean invvar | norm bwd x dy scale mean invvar eps dx
    //   reshape x y | resample fwd x y | resample bwd dy dx | rng seed offset y
    //   paged cache load container pageTable seqLen y
    std::array<int64_t, 7> t{-1, -1, -1, -1, -1, -1, -1};
    std::vector<int64_t> prePad, postPad, stride, dilation, window; // window: resample
    // pointwise scalars (NaN = unset)
    static constexpr float kUnset = std::numeric_limits<float>::quiet_NaN();
    float reluLower = kUnset, reluUpper = kUnset, reluSlope = kUnset, swishBeta = kUnset, eluAlpha = kUnset,
          softplusBeta = kUnset;
    int64_t axis = -1;
    double keepProbability = 0; // rng: P(1)
    // norm fwd (batchnorm training): momentum, prev running mean/var, next running mean/var;
    // norm bwd: dscale, dbias in extra[0], extra[1]
    std::array<int64_t, 5> extra{-1, -1, -1, -1, -1};
    int64_t mOverride = -1, nOverride = -1, kOverride = -1; // matmul: GEMM size override tensors (seq lens)
    // OpKind::Composite only, during readModel: the lowering and the node it reads.
    CompositeLowering lower = nullptr;
    const fbs::SdpaAttributes* sdpa = nullptr;
    const fbs::SdpaBackwardAttributes* sdpaBwd = nullptr;
    const fbs::BatchnormInferenceAttributes* bnInference = nullptr;
};

// Model is a graph as the engine understands it.
struct Model
{
    int rank = 0;
    std::vector<TensorSpec> tensors;
    std::vector<OpSpec> ops;
    std::string key; // canonical bytes of everything above: the plan-cache key
    std::string summary; // "conv_fwd+pointwise(add)+..." for messages
    // Numerics the translation itself decides, reported as numerical notes next to cuDNN's:
    bool sdpaNarrowP = false; // an SDPA's probabilities are rounded to a narrower Q type for P.V
    bool fp32Gemm = false; // an all-fp32 graph with a convolution or matmul (ops with TF32 kernels)
    bool fp32Matmul = false; // an all-fp32 graph with a matmul
    bool matmulGelu = false; // a matmul's output feeds exact (erf) GELU_FWD directly
    bool fp8Gemm = false; // a convolution or matmul reading fp8 (Hopper accumulates it in ~14 bits)
    int64_t wsBytes = 0; // workspace of the tensors with wsOffset >= 0; cuDNN's own follows it
    // Translation choices: SDPA forward nodes may become cuDNN's single SDPA operation
    // (unifiedSdpa, set by the caller before reading); unifiedSdpaAuto: an AUTO node did, so the
    // composite pattern is the fallback when cuDNN offers no config for it.
    bool unifiedSdpa = false;
    bool unifiedSdpaAuto = false;

    const TensorSpec* find(int64_t uid) const;
    TensorSpec* find(int64_t uid);
};

// readModel throws Unsupported for anything the engine does not translate. unifiedSdpa: the
// loaded cuDNN has the single SDPA forward operation (9.13.1+), which nodes with implementation
// AUTO use where they fit it, as cudnn-frontend does; UNIFIED needs it.
Model readModel(const fbs::Graph& graph, bool unifiedSdpa = false);
constexpr size_t kUnifiedSdpaVersion = 91301;

// OpGraph is a finalized cuDNN operation graph and every descriptor it references.
struct OpGraph
{
    std::vector<DescPtr> keep;
    DescPtr graph;
};

// buildOpGraph translates the model on `handle`; throws Unsupported with cuDNN's reason.
std::shared_ptr<OpGraph> buildOpGraph(const Model& m, cudnnHandle_t handle);

} // namespace hipdnngo::cudnn
