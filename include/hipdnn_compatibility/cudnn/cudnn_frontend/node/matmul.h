// matmul.h - Graph::matmul: C = A x B over the last two dimensions, batch dimensions
// broadcast; lowered to a hipdnn matmul operation.
//
// Shape inference (as upstream): C = [max(batch_A, batch_B)..., M, N], row-major when the
// user gives no strides. M/N/K overrides and padding are Tier-2 stubs: hipDNN's matmul has no
// such attributes, so a graph that sets them is refused by name.
#pragma once

#include "../node_interface.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace graph {

class MatmulNode : public NodeBase<Matmul_attributes> {
    using A = Matmul_attributes;

   public:
    using NodeBase::NodeBase;
    void
    append_key(detail::KeyWriter& k) const override {
        k.add(kind()).add(attributes.compute_data_type).add(attributes.padding_value);
    }

    const char*
    kind() const override {
        return "matmul";
    }

    error_t
    validate_inputs() const override {
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::A, "A"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::B, "B"));
        const char* overrides[] = {"set_m_override", "set_n_override", "set_k_override"};
        A::input_names slots[]  = {A::input_names::M_override, A::input_names::N_override, A::input_names::K_override};
        for (int i = 0; i < 3; ++i)
            if (get(attributes.inputs, slots[i]))
                return {error_code_t::GRAPH_NOT_SUPPORTED,
                        label() + ": " + overrides[i] + " is not supported by hipDNN (no ragged matmul)."};
        if (attributes.padding_value != 0.0)
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    label() + ": set_padding is not supported by hipDNN (no padded matmul)."};
        return {error_code_t::OK, ""};
    }

    error_t
    infer_properties_node() override {
        auto a = get(attributes.inputs, A::input_names::A), b = get(attributes.inputs, A::input_names::B);
        auto c = get(attributes.outputs, A::output_names::C);
        auto ad = a->get_dim(), bd = b->get_dim();
        if (ad.size() < 2 || ad.size() != bd.size())
            return {error_code_t::INVALID_VALUE, label() + ": A " + detail::dims_to_string(ad) + " and B " +
                                                     detail::dims_to_string(bd) +
                                                     " must have the same rank, at least 2."};
        if (c->get_dim().empty()) {
            std::vector<int64_t> cd(ad.size());
            size_t const g = ad.size() - 2;
            for (size_t i = 0; i < g; ++i) cd[i] = std::max(ad[i], bd[i]);
            cd[g]     = ad[g];
            cd[g + 1] = bd[g + 1];
            c->set_dim(cd);
        }
        if (c->get_stride().empty()) {
            auto cd = c->get_dim();
            c->set_stride(detail::generate_stride(cd, detail::generate_row_major_stride_order(cd.size())));
        }
        return {error_code_t::OK, ""};
    }

    error_t
    validate_shapes() const override {
        auto a = get(attributes.inputs, A::input_names::A), b = get(attributes.inputs, A::input_names::B);
        auto c  = get(attributes.outputs, A::output_names::C);
        auto ad = a->get_dim(), bd = b->get_dim(), cd = c->get_dim();
        size_t const g = ad.size() - 2;
        if (ad[g + 1] != bd[g])
            return {error_code_t::INVALID_VALUE, label() + ": A " + detail::dims_to_string(ad) + " has K=" +
                                                     std::to_string(ad[g + 1]) + " but B " +
                                                     detail::dims_to_string(bd) + " has K=" + std::to_string(bd[g]) +
                                                     "."};
        for (size_t i = 0; i < g; ++i)
            if (ad[i] != bd[i] && ad[i] != 1 && bd[i] != 1)
                return {error_code_t::INVALID_VALUE, label() + ": batch dimension " + std::to_string(i) + " of A " +
                                                         detail::dims_to_string(ad) + " and B " +
                                                         detail::dims_to_string(bd) + " do not broadcast."};
        if (cd.size() != ad.size() || cd[g] != ad[g] || cd[g + 1] != bd[g + 1])
            return {error_code_t::INVALID_VALUE, label() + ": C " + detail::dims_to_string(cd) +
                                                     " does not match A " + detail::dims_to_string(ad) + " x B " +
                                                     detail::dims_to_string(bd) + "."};
        return {error_code_t::OK, ""};
    }

    error_t
    create_operation(detail::Lowering& L) const override {
        detail::managed_descriptor op;
        hipdnnDataType_t comp = HIPDNN_DATA_FLOAT;
        CHECK_CUDNN_FRONTEND_ERROR(compute_type(comp));
        CHECK_CUDNN_FRONTEND_ERROR(begin(HIPDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR, op));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_MATMUL_ADESC, get(attributes.inputs, A::input_names::A)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_MATMUL_BDESC, get(attributes.inputs, A::input_names::B)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_MATMUL_CDESC, get(attributes.outputs, A::output_names::C)));
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_dtype(op, HIPDNN_ATTR_MATMUL_COMP_TYPE, comp, label()));
        return finish(L, op);
    }
};

}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
