// PlanBuilder: how a Plan is made. The core (PlanBuilder.cpp) walks the nodes in order, owns
// the tensor buffers, the workspace layout, the steps and the post-op chains; each op family
// plans its nodes in its own file under ops/ (one member function per node type), found through
// the table of ops/Registry.cpp. Adding a node type is one file (its planner and the tensors
// it reads) and one row there. Internal to the plugin: nothing here is exported.
#pragma once

#include "Plan.hpp"
#include "NormKernels.hpp"

#include <array>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hipdnngo::onednn
{

using dnnl::algorithm;
using mdesc = dnnl::memory::desc;
using dt = dnnl::memory::data_type;

constexpr size_t kAlign = 64;

inline size_t alignUp(size_t v) { return (v + kAlign - 1) / kAlign * kAlign; }

// mapType: the oneDNN data type of a hipDNN one, nullopt where the engine has none.
std::optional<dt> mapType(fbs::DataType t);

// sameLayout: strides a and b agree on every dim that is not 1.
bool sameLayout(const std::vector<int64_t>& dims, const std::vector<int64_t>& a, const std::vector<int64_t>& b);

// A unary pointwise mode as a oneDNN eltwise algorithm.
struct EltwiseOp
{
    algorithm alg;
    float alpha = 0.f, beta = 0.f;
};

// A binary pointwise mode as a oneDNN binary algorithm; swapped: the algorithm that gives the
// same result with the operands exchanged (nullopt when there is none).
struct BinaryOp
{
    algorithm alg;
    std::optional<algorithm> swapped;
};

// The pointwise mode tables (ops/Pointwise.cpp); post-op chains use them too.
std::string modeName(fbs::PointwiseMode m);
// mapUnary: nullopt when the mode is not unary or oneDNN has no equivalent; *why says which.
std::optional<EltwiseOp> mapUnary(const fbs::PointwiseAttributes& a, std::string* why);
std::optional<BinaryOp> mapBinary(fbs::PointwiseMode m);
// The backward eltwise modes: in_0 = dy, in_1 = x, out = dx.
std::optional<EltwiseOp> mapBackward(const fbs::PointwiseAttributes& a);

// broadcastTo: `dims` left-padded with 1s to target's rank; nullopt if the result does not
// broadcast to `target` (every dim 1 or equal).
std::optional<std::vector<int64_t>> broadcastTo(const std::vector<int64_t>& dims, const std::vector<int64_t>& target);

// slowImpl: oneDNN fell back to a reference or gemm-based kernel.
inline bool slowImpl(const api::Built& b)
{
    return b.impl.find("ref") != std::string::npos || b.impl.find("gemm") != std::string::npos;
}

// A post-op candidate absorbed from a following pointwise node.
struct PostOp
{
    bool binary = false;
    EltwiseOp elt{algorithm::eltwise_relu};
    algorithm bin = algorithm::binary_add;
    int src1 = -1; // tensor index of the other operand (binary)
    int out = -1; // the node's output tensor index
    std::string name;
};

// BoundOutput: where a primitive writes a tensor. Either the tensor's own buffer, or (reorder)
// a workspace copy in the primitive's layout, reordered into the tensor after the step
// (PlanBuilder::finishOutput).
struct BoundOutput
{
    Buffer tensor, written;
    bool reorder = false;
};

// InputCounter counts one more reader of a tensor uid (ignored when the graph has no such tensor):
// post-op fusion needs to know that an intermediate has exactly one reader.
class InputCounter
{
public:
    InputCounter(const TensorTable& tensors, std::vector<int>& consumers) : tensors_(tensors), consumers_(consumers) {}
    void operator()(int64_t uid) const
    {
        if(const Tensor* t = tensors_.find(uid))
            ++consumers_[static_cast<size_t>(t->index)];
    }

private:
    const TensorTable& tensors_;
    std::vector<int>& consumers_;
};

class PlanBuilder;

// OpFamilyRow is one node type: the PlanBuilder member that plans it and the function that
// reports the tensors it reads (ops/Registry.cpp).
struct OpFamilyRow
{
    fbs::NodeAttributes type;
    void (PlanBuilder::*plan)(const fbs::Node& n, const std::string& name);
    void (*inputs)(const fbs::Node& n, const InputCounter& reads);
};

// findOpFamily: the row of a node type, nullptr when the engine does not plan it.
const OpFamilyRow* findOpFamily(fbs::NodeAttributes type);

// The tensors each node type reads, one function per family file.
void convForwardInputs(const fbs::Node& n, const InputCounter& reads);
void convBackwardDataInputs(const fbs::Node& n, const InputCounter& reads);
void convBackwardWeightsInputs(const fbs::Node& n, const InputCounter& reads);
void matmulInputs(const fbs::Node& n, const InputCounter& reads);
void pointwiseInputs(const fbs::Node& n, const InputCounter& reads);
void reductionInputs(const fbs::Node& n, const InputCounter& reads);
void layernormInputs(const fbs::Node& n, const InputCounter& reads);
void layernormBackwardInputs(const fbs::Node& n, const InputCounter& reads);
void batchnormTrainingInputs(const fbs::Node& n, const InputCounter& reads);
void batchnormBackwardInputs(const fbs::Node& n, const InputCounter& reads);
void batchnormInferenceInputs(const fbs::Node& n, const InputCounter& reads);
void batchnormInferenceVarianceInputs(const fbs::Node& n, const InputCounter& reads);
void poolingForwardInputs(const fbs::Node& n, const InputCounter& reads);
void poolingBackwardInputs(const fbs::Node& n, const InputCounter& reads);
void sdpaForwardInputs(const fbs::Node& n, const InputCounter& reads);
void sdpaBackwardInputs(const fbs::Node& n, const InputCounter& reads);

// SdpaBand: an SDPA node's band attributes (forward and backward name them alike).
struct SdpaBand
{
    int64_t left = -1, right = -1; // -1: unbounded on that side
    bool bottomRight = false, causal = false, causalBottomRight = false;
};

template <typename Attrs>
SdpaBand sdpaBandOf(const Attrs& a)
{
    SdpaBand b;
    b.left = a.left_bound().has_value() && a.left_bound().value() >= 0 ? a.left_bound().value() : -1;
    b.right = a.right_bound().has_value() && a.right_bound().value() >= 0 ? a.right_bound().value() : -1;
    b.bottomRight = a.diagonal_alignment() == fbs::DiagonalAlignment::BOTTOM_RIGHT;
    b.causal = a.causal_mask();
    b.causalBottomRight = a.causal_mask_bottom_right();
    return b;
}
void rmsnormInputs(const fbs::Node& n, const InputCounter& reads);
void rmsnormBackwardInputs(const fbs::Node& n, const InputCounter& reads);

// PlanBuilder fills a Plan while walking the graph's nodes.
class PlanBuilder
{
public:
    // staged: compute every HALF / BFLOAT16 tensor in f32 (Plan's constructor decides).
    PlanBuilder(Plan& plan, const fbs::Graph& graph, bool build, bool staged)
        : p_(plan), g_(graph), build_(build), staged_(staged)
    {
    }

    void run();

    // ---- the op families (ops/*.cpp), each planning one node -------------------------------
    // ops/Conv.cpp
    void convForward(const fbs::Node& n, const std::string& name);
    void convBackwardData(const fbs::Node& n, const std::string& name);
    void convBackwardWeights(const fbs::Node& n, const std::string& name);
    // ops/Matmul.cpp
    void matmul(const fbs::Node& n, const std::string& name);
    // ops/Pointwise.cpp
    void pointwise(const fbs::Node& n, const std::string& name);
    // ops/Reduction.cpp
    void reduction(const fbs::Node& n, const std::string& name);
    // ops/Norms.cpp
    void layernorm(const fbs::Node& n, const std::string& name);
    void layernormBackward(const fbs::Node& n, const std::string& name);
    void batchnormTraining(const fbs::Node& n, const std::string& name);
    void batchnormBackward(const fbs::Node& n, const std::string& name);
    void batchnormInference(const fbs::Node& n, const std::string& name);
    void batchnormInferenceVariance(const fbs::Node& n, const std::string& name);
    // ops/Pooling.cpp
    void poolingForward(const fbs::Node& n, const std::string& name);
    void poolingBackward(const fbs::Node& n, const std::string& name);
    // ops/Sdpa.cpp
    void sdpaForward(const fbs::Node& n, const std::string& name);
    // ops/SdpaBackward.cpp
    void sdpaBackward(const fbs::Node& n, const std::string& name);
    // ops/RmsNorm.cpp
    void rmsnorm(const fbs::Node& n, const std::string& name);
    void rmsnormBackward(const fbs::Node& n, const std::string& name);

private:
    Plan& p_;
    const fbs::Graph& g_;
    bool build_;
    bool staged_;
    std::vector<const fbs::Node*> nodes_;
    std::vector<int> consumers_;
    std::vector<std::optional<Buffer>> loc_;
    size_t wsTop_ = 0;
    size_t scratchMax_ = 0;
    size_t next_ = 0; // index of the next node to plan
    bool viaF32_ = false; // the node being planned converts bf16/f16 inputs to f32 itself (SDPA)

    void countConsumers();

    // ---- tensors and buffers (PlanBuilder.cpp) ---------------------------------------------
    const Tensor& tensor(int64_t uid, const char* role, const std::string& node);
    static mdesc mdOf(const Tensor& t);
    static mdesc mdWith(const std::vector<int64_t>& dims, fbs::DataType type, const std::vector<int64_t>& strides);
    size_t allocate(size_t bytes);
    Buffer input(const Tensor& t, const std::string& node);
    Buffer output(const Tensor& t, const std::string& node);
    Buffer external(const Tensor& t);
    Buffer temp(const mdesc& md);
    void addStep(const api::Built& built, std::vector<Arg> args, const std::string& what);
    void addReorder(const mdesc& from, Buffer fromBuf, const mdesc& to, Buffer toBuf, const std::string& what);
    // addKernel: a step the engine computes itself (Plan.hpp, Kernel).
    void addKernel(std::vector<Buffer> bufs, std::function<void(void* const*)> run, const std::string& what);

    // ---- fp32 staging (PlanBuilder.cpp) ----------------------------------------------------
    // A staged tensor is computed in f32 (the table says FLOAT) while the caller's buffer holds
    // Plan::stored_. stageIn: an f32 copy in the workspace, widened before the first reader;
    // stageOut: the f32 buffer a node writes, narrowed into the caller's buffer by flushStaged
    // after the node's steps. Both keep the caller's strides, so layouts decide as natively.
    bool isStaged(const Tensor& t) const;
    Buffer stageIn(const Tensor& t);
    Buffer stageOut(const Tensor& t);
    void flushStaged();
    // rawStorage: for an engine kernel that reads and writes 16-bit data itself (NormKernels):
    // the storage type when every tensor of ins is a staged tensor not yet widened, every one
    // of outs a staged tensor nobody reads afterwards, all of one 16-bit type; then rawBuffer
    // binds the caller's buffers (no staging steps). nullopt: use input / output (f32).
    std::optional<Storage> rawStorage(std::initializer_list<const Tensor*> ins, std::initializer_list<const Tensor*> outs) const;
    // rawType: t's storage type when an engine kernel may bind t's own buffer in it (rawBuffer):
    // a staged tensor, not ragged, not yet widened (an input) or read by no later node (an output).
    std::optional<fbs::DataType> rawType(const Tensor& t, bool isOutput) const;
    Buffer rawBuffer(const Tensor& t, bool isOutput, const std::string& node);
    struct StagedOut
    {
        int tensor;
        Buffer f32;
    };
    std::vector<StagedOut> stagedOut_;

    // ---- ragged tensors (Ragged.cpp) -------------------------------------------------------
    // A ragged tensor is computed as a dense row-major copy: raggedIn gathers the rows that
    // exist, raggedOut is the buffer a node writes, scattered by flushStaged. A node that takes
    // ragged tensors claims each (claimRagged: the lengths that count its rows; the table then
    // holds the copy's strides) before binding it; binding an unclaimed one declines the graph.
    void claimRagged(const Tensor* t, const Tensor* lengths, const char* lengthsRole, const std::string& node);
    void requireClaimed(const Tensor& t) const;
    Buffer raggedIn(const Tensor& t, const std::string& node);
    Buffer raggedOut(const Tensor& t, const std::string& node);
    Buffer denseCopy(const Tensor& t);
    enum class RaggedStep
    {
        Gather, // check an input's offsets, then gather its rows (the others 0)
        Check, // check an output's offsets (overlap included) when it is bound
        Scatter, // scatter an output's valid rows after its node
    };
    void raggedStep(const Tensor& t, RaggedStep step, const Buffer& dense, const std::string& node);
    struct RaggedTensor
    {
        const Tensor* lengths = nullptr; // null: not claimed
        std::vector<int64_t> userStrides; // the caller's layout (the table has the copy's)
        int64_t userSpan = 0;
    };
    std::vector<RaggedTensor> ragged_; // per tensor index
    struct RaggedOut
    {
        int tensor;
        Buffer dense;
        std::string node;
    };
    std::vector<RaggedOut> raggedOut_;
    Buffer inputAs(const Tensor& t, const mdesc& have, const mdesc& want, const std::string& node, const std::string& what);
    BoundOutput bindOutput(const Tensor& t, const mdesc& written, bool reorder, const std::string& node);
    void finishOutput(const BoundOutput& o, const mdesc& written, const mdesc& want, const std::string& what);

    // fastest builds a primitive with the tensors' own layouts (build(false)) and, when oneDNN
    // would run that on a gemm or reference kernel, with layouts of oneDNN's choosing
    // (build(true)), reordered around it.
    template <typename Build>
    static api::Built fastest(Build&& build)
    {
        api::Built built = build(false);
        if(slowImpl(built))
        {
            try
            {
                api::Built alt = build(true);
                if(!slowImpl(alt))
                    built = alt;
            }
            catch(const dnnl::error&)
            {
            }
        }
        return built;
    }

    // ---- post-op chains (PlanBuilder.cpp) --------------------------------------------------
    std::vector<PostOp> collectChain(int out);
    mdesc src1Md(const Tensor& t, const std::vector<int64_t>& dims, std::optional<dt> as = std::nullopt);
    dnnl::primitive_attr attrFor(const std::vector<PostOp>& chain, size_t from, size_t to, const std::vector<int64_t>& dims,
                                 std::vector<Arg>* args, std::string* names);
    // markFused marks the intermediates of a chain fused into the primitive writing `out`
    // (chain[0, used)) as never materialised.
    void markFused(const std::vector<PostOp>& chain, size_t used, int out);
    mdesc nativeMd(const Tensor& t, bool* reorder);

    // ---- scalars and per-channel vectors (PlanBuilder.cpp) ---------------------------------
    double scalarValue(int64_t uid, const char* role, const std::string& node);
    static bool rowMajor(const Tensor& t);
    mdesc vectorMd(const Tensor& t, int64_t n, const char* role, const std::string& node);
    Buffer vin(const Tensor& t, int64_t n, const std::string& node);
    Buffer vout(const Tensor& t, int64_t n, const std::string& node);
    struct PendingOut
    {
        Buffer from;
        int tensor;
        int64_t n;
    };
    std::vector<PendingOut> pending_;
    void flushOutputs(const std::string& node);

    // ---- family helpers --------------------------------------------------------------------
    // ops/Conv.cpp
    template <typename Attrs>
    api::ConvGeometry geometry(const Attrs& a, int spatial, const std::string& node, const Tensor& w);
    struct ConvShape
    {
        int64_t groups = 1;
        mdesc userW; // the user's weights, grouped view when groups > 1
        mdesc anyW; // same dims, format any
    };
    ConvShape convShape(const Tensor& x, const Tensor& w, const Tensor& y, const std::string& node);
    template <typename Make>
    api::Built convBackwardBuilt(const Tensor& a, const Tensor& b, Make&& make, const std::string& node, const char* what);
    // ops/Matmul.cpp
    mdesc paddedMd(const Tensor& t, size_t rank);
    // ops/Norms.cpp
    Buffer statFromInverse(const mdesc& statMd, Buffer inv);
    void toInverse(const mdesc& statMd, Buffer buf, float eps);
    mdesc bnData(const Tensor& t, const std::string& node);
    void batchnormInferenceCore(const std::string& name, const Tensor& x, const Tensor& mean, const Tensor& inv,
                                const Tensor& scale, const Tensor& bias, const Tensor& y, std::optional<float> eps);
    // ops/Pooling.cpp
    const Tensor& maxPoolIndex(const fbs::ResampleBwdAttributes& a, const Tensor& dy, const std::string& name);
    Buffer indexAsWorkspace(const Tensor& index, const mdesc& wsMd, const Tensor& dy, const Tensor& dx,
                            const dnnl::memory::dims& padL, const dnnl::memory::dims& strides, const dnnl::memory::dims& kernel,
                            const std::string& name);
    // ops/RmsNorm.cpp
    RmsNormShape rmsShape(const Tensor& x, const Tensor& scale, const std::string& name);
    bool rmsVector(const Tensor& t, const Tensor& x, const RmsNormShape& s, const char* role, const std::string& name);
    void rmsData(const Tensor& t, const Tensor& x, const char* role, const std::string& name);
    void rmsStats(const Tensor& t, const RmsNormShape& s, const std::string& name);
    // ops/Sdpa.cpp
    struct SdpaShape;
    struct SdpaLayouts;
    struct SdpaPrimitives;
    struct SdpaStats;
    struct SdpaOperand;
    struct SdpaScores
    {
        Buffer q, k, s; // q and k as the score matmul read them; S
    };
    struct SdpaPaging;
    SdpaShape sdpaShape(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& o, const std::string& name,
                        const SdpaPaging* paging = nullptr);
    // ops/SdpaPaged.cpp: a forward's page tables (a default SdpaPaging when there are none; seqKv:
    // the node's seq_len_kv, required with them).
    SdpaPaging sdpaPaging(const fbs::SdpaAttributes& a, const Tensor& q, const Tensor& k, const Tensor& v, const Tensor* seqKv,
                          const std::string& name);
    struct SdpaScale;
    SdpaScale sdpaScale(flatbuffers::Optional<float> value, flatbuffers::Optional<int64_t> scaleUid, int64_t d,
                        const std::string& name);
    // sdpaScaleArgs: the runtime scale's argument of a matmul built with SdpaScale::attr.
    std::vector<Arg> sdpaScaleArgs(const SdpaScale& scale, const std::string& name);
    std::optional<size_t> sdpaBandMask(const SdpaBand& band, const SdpaShape& s, const std::string& name);
    // sdpaLengths: a node's seq_len_q / seq_len_kv tensor (null when absent), INT32, one per batch.
    const Tensor* sdpaLengths(flatbuffers::Optional<int64_t> uid, const char* role, int64_t batch, const std::string& name);
    SdpaLayouts sdpaLayouts(flatbuffers::Optional<int64_t> maskUid, const SdpaShape& s, bool mergeRows, const std::string& name);
    SdpaPrimitives sdpaPrimitives(const SdpaLayouts& l, const SdpaScale& scale, bool masked, const std::string& name);
    SdpaStats sdpaStatsLayout(const Tensor* stats, const Tensor* max, const Tensor* sumExp, bool padded, const SdpaShape& s,
                              const SdpaLayouts& l, const std::string& name);
    void addBiasKernel(const SdpaLayouts& l, const Buffer& scores, const Buffer& bias, const std::string& name);
    SdpaScores sdpaScores(const SdpaShape& s, const SdpaLayouts& l, const SdpaPrimitives& p, std::optional<size_t> mask,
                          const std::string& name);
    void sdpaSteps(const SdpaShape& s, const SdpaLayouts& l, const SdpaPrimitives& prims, std::optional<size_t> mask,
                   const SdpaStats* stats, const std::string& name);
    // sdpaVarlen: the forward with sequence lengths, over each batch's rows and keys only
    // (SdpaVarlen.cpp; the backward SdpaVarlenBackward.cpp); it replaces the dense steps whenever
    // the node has lengths.
    void sdpaVarlen(const SdpaShape& s, const SdpaLayouts& l, const SdpaScale& scale, const SdpaStats& st,
                    const std::string& name);
    void sdpaVarlenBackward(const SdpaShape& s, const SdpaLayouts& l, const SdpaScale& scale, const SdpaBand& band,
                            const Tensor* seqQ, const Tensor* seqKv, const Tensor& stats, const Tensor& dO, const Tensor& dQ,
                            const Tensor& dK, const Tensor& dV, const std::string& name);
    std::pair<Buffer, std::array<int64_t, 5>> sdpaBiasRows(const SdpaLayouts& l, const std::string& name);
    SdpaOperand sdpaVarlenOperand(const Tensor& t, const mdesc& user, const mdesc& dense, int64_t groups, const std::string& what,
                                  const std::string& name);
    SdpaOperand sdpaVarlenOutput(const Tensor& t, const mdesc& dense, int64_t groups, BoundOutput& bound, const std::string& name);
    void sdpaDbias(const Tensor& dBias, const Buffer& dS, int64_t B, int64_t H, int64_t Sq, int64_t Skv, const std::string& name);
};

} // namespace hipdnngo::onednn
