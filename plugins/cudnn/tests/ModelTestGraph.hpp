// The FlatBuffer graph builders and decline checks the cuDNN engine's translation tests share
// (ModelTests.cpp, SdpaModelTests.cpp): readModel runs without a GPU.
#pragma once

#include "Graph.hpp"

#include "check.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;
using namespace hipdnngo::cudnn;

namespace
{

// TestGraph builds a hipDNN Graph FlatBuffer tensor by tensor and node by node.
struct TestGraph
{
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<fbs::TensorAttributes>> tensors;
    std::vector<flatbuffers::Offset<fbs::Node>> nodes;
    void tensor(int64_t uid, fbs::DataType t, std::vector<int64_t> dims, std::vector<int64_t> strides, bool virt = false)
    {
        tensors.push_back(fbs::CreateTensorAttributesDirect(fbb, uid, nullptr, t, &strides, &dims, virt));
    }
    // ragged: a tensor whose batches start at the element offsets held by tensor `offsets`.
    void ragged(int64_t uid, fbs::DataType t, std::vector<int64_t> dims, std::vector<int64_t> strides, int64_t offsets,
                int64_t multiplier = 1)
    {
        tensors.push_back(fbs::CreateTensorAttributesDirect(fbb, uid, nullptr, t, &strides, &dims, false,
                                                            fbs::TensorValue::NONE, 0, false, offsets, 16, multiplier));
    }
    void node(fbs::NodeAttributes type, flatbuffers::Offset<void> attrs)
    {
        nodes.push_back(fbs::CreateNodeDirect(fbb, "n", fbs::DataType::FLOAT, type, attrs));
    }
    const fbs::Graph* finish()
    {
        fbb.Finish(
            fbs::CreateGraphDirect(fbb, "g", fbs::DataType::FLOAT, fbs::DataType::FLOAT, fbs::DataType::FLOAT, &tensors, &nodes));
        return fbs::GetGraph(fbb.GetBufferPointer());
    }
};

inline void pointwise(TestGraph& g, fbs::PointwiseMode m, int64_t in0, int64_t in1, int64_t out)
{
    g.node(fbs::NodeAttributes::PointwiseAttributes,
           fbs::CreatePointwiseAttributes(
               g.fbb, m, flatbuffers::nullopt, flatbuffers::nullopt, flatbuffers::nullopt, flatbuffers::nullopt, in0,
               in1 >= 0 ? flatbuffers::Optional<int64_t>(in1) : flatbuffers::nullopt, flatbuffers::nullopt, out)
               .Union());
}

inline bool throwsUnsupported(const fbs::Graph* g, const char* needle)
{
    try
    {
        readModel(*g);
    }
    catch(const Unsupported& e)
    {
        return std::strstr(e.what(), needle) != nullptr;
    }
    return false;
}

// declineOf is readModel's decline message for g, "" when it translates.
inline std::string declineOf(const fbs::Graph* g)
{
    try
    {
        readModel(*g);
    }
    catch(const Unsupported& e)
    {
        return e.what();
    }
    return "";
}
} // namespace

// sdpaGraph: Q, K, V, O (uids 1-4, type t, dims d, strides st) and one SDPA node over them;
// `more` adds attributes (and g.tensor calls made before it add tensors such as stats).
template <typename More>
const fbs::Graph* sdpaGraph(TestGraph& g, fbs::DataType t, const std::vector<int64_t>& d, const std::vector<int64_t>& st, More&& more)
{
    for(int64_t uid = 1; uid <= 4; ++uid)
        g.tensor(uid, t, d, st);
    fbs::SdpaAttributesBuilder b(g.fbb);
    b.add_q_tensor_uid(1);
    b.add_k_tensor_uid(2);
    b.add_v_tensor_uid(3);
    b.add_o_tensor_uid(4);
    more(b);
    const auto attrs = b.Finish();
    g.node(fbs::NodeAttributes::SdpaAttributes, attrs.Union());
    return g.finish();
}

// sdpaBwdNode adds an SDPA backward node over tensors 1-9 (q k v o do stats dq dk dv, made by
// the caller) to g; `more` adds attributes. Returns the finished graph.
template <typename More>
const fbs::Graph* sdpaBwdNode(TestGraph& g, More&& more)
{
    fbs::SdpaBackwardAttributesBuilder b(g.fbb);
    b.add_q_tensor_uid(1);
    b.add_k_tensor_uid(2);
    b.add_v_tensor_uid(3);
    b.add_o_tensor_uid(4);
    b.add_do_tensor_uid(5);
    b.add_stats_tensor_uid(6);
    b.add_dq_tensor_uid(7);
    b.add_dk_tensor_uid(8);
    b.add_dv_tensor_uid(9);
    more(b);
    const auto attrs = b.Finish();
    g.node(fbs::NodeAttributes::SdpaBackwardAttributes, attrs.Union());
    return g.finish();
}
