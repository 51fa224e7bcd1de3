// stub.h - a Tier-2 stub: a node the shim declares (so code compiles) but does not lower.
// It stays in the graph and makes the next validate() / build_operation_graph() return
// GRAPH_NOT_SUPPORTED with a message naming the node and the reason, never a fake success.
#pragma once

#include <string>

#include "../node_interface.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace graph {

template <typename AttrT>
class StubNode : public NodeBase<AttrT> {
    const char* kind_;
    std::string reason_;

   public:
    StubNode(AttrT&& a, detail::Context const& c, const char* kind, std::string reason)
        : NodeBase<AttrT>(std::move(a), c), kind_(kind), reason_(std::move(reason)) {}

    const char*
    kind() const override {
        return kind_;
    }

    error_t
    validate_inputs() const override {
        return {error_code_t::GRAPH_NOT_SUPPORTED, this->label() + ": " + reason_};
    }

    error_t
    infer_properties_node() override {
        return {error_code_t::GRAPH_NOT_SUPPORTED, this->label() + ": " + reason_};
    }

    error_t
    create_operation(detail::Lowering&) const override {
        return {error_code_t::GRAPH_NOT_SUPPORTED, this->label() + ": " + reason_};
    }
};

}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
