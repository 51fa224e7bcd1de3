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

// StubNode keeps the attributes (so their tensors stay alive) but never lowers them. It does not
// rely on the attributes' layout, so every *_attributes class can be stubbed.
template <typename AttrT>
class StubNode : public INode {
    AttrT attributes;
    const char* kind_;
    std::string reason_;

    error_t
    refuse() const {
        // The marker lets reports tell a shim stub from an engine gap.
        return {error_code_t::GRAPH_NOT_SUPPORTED, label() + ": " + reason_ + " [Tier-2 stub]"};
    }

   public:
    StubNode(AttrT&& a, detail::Context const&, const char* kind, std::string reason)
        : attributes(std::move(a)), kind_(kind), reason_(std::move(reason)) {}

    const char*
    kind() const override {
        return kind_;
    }
    std::string
    node_name() const override {
        return attributes.name;
    }
    error_t
    validate_inputs() const override {
        return refuse();
    }
    void
    fill_from_context() override {}
    error_t
    infer_properties_node() override {
        return refuse();
    }
    void
    collect_tensors(std::vector<TensorPtr>&, std::vector<TensorPtr>&) const override {}
    error_t
    create_operation(detail::Lowering&) const override {
        return refuse();
    }
    // A stub never builds, so its kind and name are key enough.
    void
    append_key(detail::KeyWriter& k) const override {
        k.add(kind_).add(attributes.name);
    }
};

}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
