// The cuDNN engine's op families: what each one reads from a hipDNN node and which cuDNN
// descriptors it builds. Graph.cpp (the core) owns the model, the tensor table and the plan-cache
// key; it finds a family through the two tables of ops/Registry.cpp. Adding a node type is one
// file here (its read and build functions) and one row in each table it needs.
#pragma once

#include "Graph.hpp"

#include <limits>
#include <string>
#include <vector>

namespace hipdnngo::cudnn
{

// ReadState is what reading one node may change beyond its own OpSpec: the model (summary,
// later the tensors) and the rank constraints the core applies once every node is read.
struct ReadState
{
    Model& model;
    int minRank = 3;
    bool spatial = false; // convolution or pooling: one rank for all tensors
    int64_t resampleIn = -1; // a pooling's input (x, or dy backward)
};

// NodeReader fills `op` (kind, tensor uids, attributes; compute type already set) from a node of
// its attribute type and appends the op's name to the model's summary. Throws Unsupported.
using NodeReader = void (*)(const fbs::Node& node, OpSpec& op, ReadState& state);

struct NodeReaderRow
{
    fbs::NodeAttributes type;
    NodeReader read;
};

// BuildContext hands an op family the operation graph being built and its tensor descriptors,
// each made once per uid on first use (Graph.cpp); the order of first use is the order in which
// cuDNN sees them, so a family asks for its tensors in a fixed order.
class BuildContext
{
public:
    BuildContext(const Model& model, OpGraph& graph) : model_(model), graph_(graph) {}
    const Desc& tensor(int64_t uid);
    // keep holds a descriptor the operation references for the operation graph's lifetime.
    void keep(DescPtr d) { graph_.keep.push_back(std::move(d)); }

private:
    const Model& model_;
    OpGraph& graph_;
    std::vector<std::pair<int64_t, DescPtr>> tensors_;
};

// OpBuilder makes the finalized cuDNN operation descriptor of one op; descriptors it references
// (convolution, matmul, pointwise ... descriptors) go to ctx.keep first.
using OpBuilder = DescPtr (*)(const OpSpec& op, BuildContext& ctx);

struct OpBuilderRow
{
    OpKind kind;
    OpBuilder build;
};

// The tables (ops/Registry.cpp). A node type without a reader row is declined by name; an
// OpKind without a builder row is an internal error.
const NodeReaderRow* findNodeReader(fbs::NodeAttributes type);
OpBuilder findOpBuilder(OpKind kind);

// ---- helpers the families share --------------------------------------------------------------

// requireKnown declines a value beyond this build's schema (a newer writer's graph, kept opaque
// by the host): the engine cannot know what it asks for, so it never maps it to a default.
template <typename E>
void requireKnown(E v, E max, const char* what)
{
    const int n = static_cast<int>(v);
    if(n < 0 || n > static_cast<int>(max))
        throw Unsupported(std::string(what) + " value " + std::to_string(n) + " is not known to this engine (a newer schema)");
}

inline std::vector<int64_t> longs(const flatbuffers::Vector<int64_t>* v)
{
    std::vector<int64_t> out;
    if(v != nullptr)
        out.assign(v->begin(), v->end());
    return out;
}

inline int64_t uidOrAbsent(const flatbuffers::Optional<int64_t>& o) { return o.has_value() ? o.value() : int64_t{-1}; }

// floatOrUnset maps an absent optional scalar to OpSpec::kUnset (NaN), which the builders skip.
inline float floatOrUnset(const flatbuffers::Optional<float>& o)
{
    return o.has_value() ? o.value() : std::numeric_limits<float>::quiet_NaN();
}

int64_t elementSize(cudnnDataType_t t);

// ---- the families ----------------------------------------------------------------------------

// ops/Conv.cpp
void readConvFwd(const fbs::Node& node, OpSpec& op, ReadState& state);
void readConvDgrad(const fbs::Node& node, OpSpec& op, ReadState& state);
void readConvWgrad(const fbs::Node& node, OpSpec& op, ReadState& state);
DescPtr buildConv(const OpSpec& op, BuildContext& ctx);

// ops/Matmul.cpp
void readMatmul(const fbs::Node& node, OpSpec& op, ReadState& state);
DescPtr buildMatmul(const OpSpec& op, BuildContext& ctx);

// ops/Pointwise.cpp
void readPointwise(const fbs::Node& node, OpSpec& op, ReadState& state);
DescPtr buildPointwise(const OpSpec& op, BuildContext& ctx);

// ops/Reduction.cpp
void readReduction(const fbs::Node& node, OpSpec& op, ReadState& state);
DescPtr buildReduction(const OpSpec& op, BuildContext& ctx);

// ops/Norms.cpp
void readLayernorm(const fbs::Node& node, OpSpec& op, ReadState& state);
void readRmsnorm(const fbs::Node& node, OpSpec& op, ReadState& state);
void readBatchnorm(const fbs::Node& node, OpSpec& op, ReadState& state);
void readNormBackward(const fbs::Node& node, OpSpec& op, ReadState& state);
void readBatchnormInference(const fbs::Node& node, OpSpec& op, ReadState& state);
DescPtr buildNormFwd(const OpSpec& op, BuildContext& ctx);
DescPtr buildNormBwd(const OpSpec& op, BuildContext& ctx);

// ops/Resample.cpp
void readResampleFwd(const fbs::Node& node, OpSpec& op, ReadState& state);
void readResampleBwd(const fbs::Node& node, OpSpec& op, ReadState& state);
DescPtr buildResample(const OpSpec& op, BuildContext& ctx);

// ops/Sdpa.cpp (also the Rng and Reshape ops its lowering emits)
void readSdpaFwd(const fbs::Node& node, OpSpec& op, ReadState& state);
void readSdpaBwd(const fbs::Node& node, OpSpec& op, ReadState& state);
DescPtr buildRng(const OpSpec& op, BuildContext& ctx);
DescPtr buildReshape(const OpSpec& op, BuildContext& ctx);
DescPtr buildSdpaFwd(const OpSpec& op, BuildContext& ctx);

// ops/PagedCache.cpp (the paged K/V caches of SDPA forward)
DescPtr buildPagedCacheLoad(const OpSpec& op, BuildContext& ctx);

} // namespace hipdnngo::cudnn
