// node_interface.h - what every graph node does, and the lowering state nodes write into.
//
// A node checks its inputs (validate), derives the shapes and layouts of its outputs the way
// cudnn-frontend does (infer_properties_node), and lowers itself to one hipdnn operation
// descriptor (create_operation). Graph drives the three in node order, so a node sees its
// producers' outputs already inferred.
#pragma once

#include <memory>
#include <type_traits>
#include <sstream>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "backend/backend_descriptor.h"
#include "backend/convert.h"
#include "graph_helpers.h"
#include "graph_properties.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace detail {

// KeyWriter spells a node's attributes into Graph::key()'s text: every field that changes what
// the node computes, so graphs that differ in any of them get different keys.
class KeyWriter {
    std::string text;

   public:
    KeyWriter&
    add(const char* v) {
        text += v;
        text += ';';
        return *this;
    }
    KeyWriter&
    add(std::string const& v) {
        return add(v.c_str());
    }
    template <typename T>
    KeyWriter&
    add(T const& v) {
        if constexpr (std::is_enum_v<T>) {
            text += std::to_string(static_cast<long long>(v));
        } else if constexpr (std::is_floating_point_v<T>) {
            std::ostringstream o;  // exact: hex float
            o << std::hexfloat << v;
            text += o.str();
        } else {
            text += std::to_string(v);
        }
        text += ';';
        return *this;
    }
    template <typename T>
    KeyWriter&
    add(std::optional<T> const& v) {
        if (v) return add(*v);
        return add("-");
    }
    template <typename T>
    KeyWriter&
    add(std::vector<T> const& v) {
        text += '[';
        for (auto const& x : v) add(x);
        text += ']';
        return *this;
    }
    KeyWriter&
    add(cudnnFraction_t const& f) {
        return add(f.numerator).add(f.denominator);
    }
    std::string const&
    str() const {
        return text;
    }
};

// Lowering holds the descriptors made while a graph is lowered: one tensor descriptor per
// Tensor_attributes (shared by every node that names it) and the operations in node order.
struct Lowering {
    std::unordered_map<graph::Tensor_attributes const*, managed_descriptor> tensors;
    std::vector<managed_descriptor> operations;

    // tensor returns t's descriptor, creating and finalizing it on first use.
    error_t
    tensor(graph::TensorPtr const& t, managed_descriptor& out) {
        auto it = tensors.find(t.get());
        if (it != tensors.end()) {
            out = it->second;
            return {error_code_t::OK, ""};
        }
        std::string const what = "tensor '" + t->get_name() + "'";
        hipdnnDataType_t dt;
        if (t->get_data_type() == DataType_t::NOT_SET)
            return {error_code_t::ATTRIBUTE_NOT_SET,
                    "Tensor '" + t->get_name() +
                        "' data type not set (set it, or the graph's io/intermediate data type)."};
        if (!convert(t->get_data_type(), dt))
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    "Tensor '" + t->get_name() + "' has data type " + name(t->get_data_type()) +
                        ", which hipDNN does not have."};
        if (t->get_reordering_type() != TensorReordering_t::NONE)
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    "Tensor '" + t->get_name() + "': set_reordering_type is not supported by hipDNN."};
        if (t->get_vector_count() != 1)
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    "Tensor '" + t->get_name() + "': set_vector_count_and_dimension is not supported by hipDNN."};
        // A ragged (packed, THD) tensor names the tensor of its per-batch offsets; the offsets
        // tensor is lowered first and travels in the variant pack like any input.
        managed_descriptor ragged;
        if (auto const& r = t->get_ragged_offset()) {
            if (r.get() == t.get())
                return {error_code_t::INVALID_VALUE, "Tensor '" + t->get_name() + "' is its own ragged offset."};
            CHECK_CUDNN_FRONTEND_ERROR(tensor(r, ragged));
        }
        managed_descriptor d;
        CHECK_CUDNN_FRONTEND_ERROR(make_descriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, what, d));
        int64_t uid  = t->get_uid();
        bool virt    = t->get_is_virtual();
        auto dims    = t->get_dim();
        auto strides = t->get_stride();
        CHECK_CUDNN_FRONTEND_ERROR(set_attr(d, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid, what));
        CHECK_CUDNN_FRONTEND_ERROR(set_dtype(d, HIPDNN_ATTR_TENSOR_DATA_TYPE, dt, what));
        CHECK_CUDNN_FRONTEND_ERROR(set_i64s(d, HIPDNN_ATTR_TENSOR_DIMENSIONS, dims, what));
        CHECK_CUDNN_FRONTEND_ERROR(set_i64s(d, HIPDNN_ATTR_TENSOR_STRIDES, strides, what));
        CHECK_CUDNN_FRONTEND_ERROR(set_attr(d, HIPDNN_ATTR_TENSOR_IS_VIRTUAL, HIPDNN_TYPE_BOOLEAN, 1, &virt, what));
        std::string const n = t->get_name();
        if (!n.empty())
            CHECK_CUDNN_FRONTEND_ERROR(
                set_attr(d, HIPDNN_ATTR_TENSOR_NAME_EXT, HIPDNN_TYPE_CHAR, static_cast<int64_t>(n.size()), n.data(), what));
        // A scalar's value is part of the graph: upstream also fixes a runtime scalar's value at
        // build time (it is read from the Tensor_attributes then), so both kinds lower alike.
        std::vector<uint8_t> bytes;
        bool const has_value = t->scalar_bytes(bytes);
        if (t->get_is_pass_by_value() && !has_value) {
            // A pass-by-value tensor without a value: the caller's variant pack gives a host pointer.
            bool yes = true;
            CHECK_CUDNN_FRONTEND_ERROR(set_attr(d, HIPDNN_ATTR_TENSOR_IS_RUNTIME_PASS_BY_VALUE_EXT, HIPDNN_TYPE_BOOLEAN,
                                                1, &yes, what));
        }
        if (has_value)
            CHECK_CUDNN_FRONTEND_ERROR(set_attr(d, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR,
                                                static_cast<int64_t>(bytes.size()), bytes.data(), what));
        if (ragged) CHECK_CUDNN_FRONTEND_ERROR(set_desc(d, HIPDNN_ATTR_TENSOR_RAGGED_OFFSET_DESC, ragged, what));
        CHECK_CUDNN_FRONTEND_ERROR(finalize(d, what));
        tensors.emplace(t.get(), d);
        out = d;
        return {error_code_t::OK, ""};
    }
};

}  // namespace detail

namespace graph {

// INode is one node of a Graph.
class INode {
   public:
    virtual ~INode() = default;

    // kind is the node's Graph method name ("conv_fprop"); label adds the node's name.
    virtual const char*
    kind() const = 0;
    virtual std::string
    node_name() const = 0;
    std::string
    label() const {
        return std::string(kind()) + " '" + node_name() + "'";
    }

    // validate_inputs checks that every required input is set.
    virtual error_t
    validate_inputs() const = 0;
    // fill_from_context gives unset types the graph's defaults and scalars their rank.
    virtual void
    fill_from_context() = 0;
    virtual error_t
    infer_properties_node() = 0;
    // validate_shapes checks the inferred shapes agree (mismatched operands).
    virtual error_t
    validate_shapes() const {
        return {error_code_t::OK, ""};
    }
    virtual void
    collect_tensors(std::vector<TensorPtr>& inputs, std::vector<TensorPtr>& outputs) const = 0;
    virtual error_t
    create_operation(detail::Lowering& lowering) const = 0;
    // append_key writes the node's kind and every attribute that is not a tensor (tensors are
    // keyed by Graph::key itself). Pure, so no node can leave its attributes out.
    virtual void
    append_key(detail::KeyWriter& k) const = 0;
    // wants_deterministic: the node asked for deterministic algorithms only (SDPA backward's
    // set_deterministic_algorithm); Graph then deselects NONDETERMINISTIC engine configs.
    virtual bool
    wants_deterministic() const {
        return false;
    }
};

// NodeBase implements the attribute bookkeeping every node shares.
template <typename AttrT>
class NodeBase : public INode {
   public:
    AttrT attributes;
    detail::Context context;

    NodeBase(AttrT&& a, detail::Context const& c) : attributes(std::move(a)), context(c) {}

    std::string
    node_name() const override {
        return attributes.name;
    }

    void
    collect_tensors(std::vector<TensorPtr>& ins, std::vector<TensorPtr>& outs) const override {
        for (auto const& kv : attributes.inputs)
            if (kv.second) ins.push_back(kv.second);
        for (auto const& kv : attributes.outputs)
            if (kv.second) outs.push_back(kv.second);
    }

    void
    fill_from_context() override {
        for (auto& kv : attributes.inputs)
            if (kv.second) kv.second->fill_from_context(context);
        for (auto& kv : attributes.outputs)
            if (kv.second) kv.second->fill_from_context(context);
        if (attributes.compute_data_type == DataType_t::NOT_SET)
            attributes.compute_data_type = context.get_compute_data_type();
        // A scalar takes the rank of the node's first ordinary tensor (dims and strides all 1).
        auto is_scalar = [](TensorPtr const& t) {
            return t && (t->get_pass_by_value().has_value() || t->get_has_compile_time_constant());
        };
        size_t rank = 0;
        for (auto const& kv : attributes.inputs)
            if (kv.second && !is_scalar(kv.second) && !kv.second->get_dim().empty()) {
                rank = kv.second->get_dim().size();
                break;
            }
        if (rank == 0) return;
        for (auto& kv : attributes.inputs)
            if (is_scalar(kv.second) && kv.second->get_dim().size() <= 1) {
                kv.second->set_dim(std::vector<int64_t>(rank, 1));
                kv.second->set_stride(std::vector<int64_t>(rank, 1));
            }
    }

   protected:
    // need checks that input `slot` (spelled `what`) is set.
    template <typename Map, typename Key>
    error_t
    need(Map const& m, Key k, const char* what) const {
        auto it = m.find(k);
        if (it == m.end() || !it->second)
            return {error_code_t::ATTRIBUTE_NOT_SET, label() + ": input " + what + " not set."};
        return {error_code_t::OK, ""};
    }

    template <typename Map, typename Key>
    static TensorPtr
    get(Map const& m, Key k) {
        auto it = m.find(k);
        return it == m.end() ? nullptr : it->second;
    }

    // compute_type is the node's compute type in hipDNN terms; FLOAT when nothing set it.
    error_t
    compute_type(hipdnnDataType_t& out) const {
        DataType_t t = attributes.compute_data_type == DataType_t::NOT_SET ? DataType_t::FLOAT
                                                                            : attributes.compute_data_type;
        if (!detail::convert(t, out))
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    label() + ": compute data type " + detail::name(t) + " is not a hipDNN type."};
        return {error_code_t::OK, ""};
    }

    // operand sets tensor `t` as attribute `attr` of op (creating the tensor's descriptor).
    error_t
    operand(detail::Lowering& L,
            detail::managed_descriptor const& op,
            hipdnnBackendAttributeName_t attr,
            TensorPtr const& t) const {
        if (!t) return {error_code_t::OK, ""};
        detail::managed_descriptor td;
        CHECK_CUDNN_FRONTEND_ERROR(L.tensor(t, td));
        return detail::set_desc(op, attr, td, label());
    }

    // begin creates the op descriptor of `kind` and names it after the node.
    error_t
    begin(hipdnnBackendDescriptorType_t kind, detail::managed_descriptor& op) const {
        CHECK_CUDNN_FRONTEND_ERROR(detail::make_descriptor(kind, label(), op));
        return detail::set_name(op, attributes.name, label());
    }

    // finish finalizes op and appends it to the graph's operations.
    error_t
    finish(detail::Lowering& L, detail::managed_descriptor const& op) const {
        CHECK_CUDNN_FRONTEND_ERROR(detail::finalize(op, label()));
        L.operations.push_back(op);
        return {error_code_t::OK, ""};
    }
};

// same_dims_or_error names both tensors when their shapes differ.
inline error_t
same_dims_or_error(std::string const& label, TensorPtr const& a, TensorPtr const& b) {
    if (a && b && a->get_dim() != b->get_dim())
        return {error_code_t::INVALID_VALUE,
                label + ": tensor '" + a->get_name() + "' " + detail::dims_to_string(a->get_dim()) +
                    " and tensor '" + b->get_name() + "' " + detail::dims_to_string(b->get_dim()) +
                    " must have the same shape."};
    return {error_code_t::OK, ""};
}

// infer_like copies shape and layout from src into dst where dst has none.
inline void
infer_like(TensorPtr const& dst, TensorPtr const& src) {
    if (!dst || !src) return;
    if (dst->get_dim().empty()) dst->set_dim(src->get_dim());
    if (dst->get_stride().empty()) dst->set_stride(src->get_stride());
}

// infer_nhwc gives dst a dense channels-last layout when it has no strides yet.
inline void
infer_nhwc(TensorPtr const& dst) {
    if (!dst || dst->get_dim().empty() || !dst->get_stride().empty()) return;
    auto d = dst->get_dim();
    dst->set_stride(detail::generate_stride(d, detail::generate_NHWC_stride_order(static_cast<int64_t>(d.size()))));
}

// infer_per_channel shapes dst as [1, C, 1, ...] of x when dst has no dims, channels-last.
inline void
infer_per_channel(TensorPtr const& dst, std::vector<int64_t> const& x_dim) {
    if (!dst || x_dim.size() < 2) return;
    if (dst->get_dim().empty()) {
        std::vector<int64_t> d(x_dim.size(), 1);
        d[1] = x_dim[1];
        dst->set_dim(d);
    }
    infer_nhwc(dst);
}

// infer_preserving shapes dst's strides in the stride order of `like`.
inline void
infer_preserving(TensorPtr const& dst, std::vector<int64_t> const& like_stride) {
    if (!dst || dst->get_dim().empty() || !dst->get_stride().empty()) return;
    std::vector<int64_t> order;
    (void)detail::generate_stride_order_preserving_format(like_stride, dst->get_dim().size(), order);
    dst->set_stride(detail::generate_stride(dst->get_dim(), order));
}

}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
