// Bad input through the shim: each case asserts the documented error code and that the
// message says what was wrong (names the node, tensor or setter). Also UID semantics (set UIDs
// honoured, unset ones assigned around them, duplicates refused) and the plan filters.
#include "shim_test.h"

#include <cudnn_frontend/experimental/sm100_sdpa_prefill_engine.h>
#include <cudnn_frontend/experimental/sm90_sdpa_prefill_engine.h>

namespace {

using EC = fe::error_code_t;

// A small valid graph: C = A + B on [2, 3].
struct AddGraph {
    fe::graph::Graph g;
    std::shared_ptr<fe::graph::Tensor_attributes> A, B, C;
    AddGraph() {
        g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
        A = st_tensor(g, "A", {2, 3});
        B = st_tensor(g, "B", {2, 3});
        C = g.pointwise(A, B, fe::graph::Pointwise_attributes().set_name("add").set_mode(fe::PointwiseMode_t::ADD));
        C->set_output(true);
    }
};

void
missing_and_mismatched() {
    {  // a tensor without dims
        fe::graph::Graph g;
        auto X = g.tensor(fe::graph::Tensor_attributes().set_name("X").set_data_type(fe::DataType_t::FLOAT));
        (void)g.pointwise(X, fe::graph::Pointwise_attributes().set_mode(fe::PointwiseMode_t::RELU_FWD));
        CHECK_FE_ERR(EC::ATTRIBUTE_NOT_SET, "Tensor 'X' dims not set", g.validate());
        CHECK_FE_ERR(EC::ATTRIBUTE_NOT_SET, "Tensor 'X' dims not set", g.build_operation_graph(st_handle()));
    }
    {  // dims and strides of different rank
        fe::graph::Graph g;
        auto X = g.tensor(fe::graph::Tensor_attributes().set_name("X").set_dim({2, 3}).set_stride({1}));
        (void)X;
        CHECK_FE_ERR(EC::ATTRIBUTE_NOT_SET, "Tensor 'X' does not equal dimensionality", g.validate());
    }
    {  // no data type anywhere
        fe::graph::Graph g;
        auto X = g.tensor(fe::graph::Tensor_attributes().set_name("X").set_dim({2, 3}).set_stride({3, 1}));
        (void)g.pointwise(X, fe::graph::Pointwise_attributes().set_mode(fe::PointwiseMode_t::RELU_FWD))->set_output(true);
        CHECK_FE_OK(g.validate());
        CHECK_FE_ERR(EC::ATTRIBUTE_NOT_SET, "Tensor 'X' data type not set", g.build_operation_graph(st_handle()));
    }
    {  // matmul with mismatched K
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType_t::FLOAT);
        auto A = st_tensor(g, "A", {1, 4, 5}), B = st_tensor(g, "B", {1, 6, 3});
        (void)g.matmul(A, B, fe::graph::Matmul_attributes().set_name("mm"));
        CHECK_FE_ERR(EC::INVALID_VALUE, "matmul 'mm': A [1,4,5] has K=5 but B [1,6,3] has K=6", g.validate());
    }
    {  // conv whose channels do not match the filter
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType_t::FLOAT);
        auto X = st_tensor(g, "X", {1, 3, 8, 8}), Wt = st_tensor(g, "W", {4, 2, 3, 3});
        (void)g.conv_fprop(X, Wt, fe::graph::Conv_fprop_attributes().set_name("c").set_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1}));
        CHECK_FE_ERR(EC::INVALID_VALUE, "conv_fprop 'c': X has 3 channels, not a multiple of W's 2", g.validate());
    }
    {  // conv without its geometry
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType_t::FLOAT);
        auto X = st_tensor(g, "X", {1, 2, 8, 8}), Wt = st_tensor(g, "W", {4, 2, 3, 3});
        (void)g.conv_fprop(X, Wt, fe::graph::Conv_fprop_attributes().set_name("c").set_stride({1, 1}).set_dilation({1, 1}));
        CHECK_FE_ERR(EC::ATTRIBUTE_NOT_SET, "conv_fprop 'c': pre_padding not set", g.validate());
    }
    {  // conv with a missing input
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType_t::FLOAT);
        auto X = st_tensor(g, "X", {1, 2, 8, 8});
        (void)g.conv_fprop(X, nullptr, fe::graph::Conv_fprop_attributes().set_name("c").set_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1}));
        CHECK_FE_ERR(EC::ATTRIBUTE_NOT_SET, "conv_fprop 'c': input W not set", g.validate());
    }
    {  // dgrad cannot infer DX
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType_t::FLOAT);
        auto DY = st_tensor(g, "DY", {1, 4, 8, 8}), Wt = st_tensor(g, "W", {4, 2, 3, 3});
        (void)g.conv_dgrad(DY, Wt, fe::graph::Conv_dgrad_attributes().set_name("d").set_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1}));
        CHECK_FE_ERR(EC::ATTRIBUTE_NOT_SET, "conv_dgrad 'd': For dgrad node, output dimension inferencing is not possible", g.validate());
    }
    {  // operands that do not broadcast
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType_t::FLOAT);
        auto A = st_tensor(g, "A", {2, 3}), B = st_tensor(g, "B", {4, 3});
        (void)g.pointwise(A, B, fe::graph::Pointwise_attributes().set_name("p").set_mode(fe::PointwiseMode_t::ADD));
        CHECK_FE_ERR(EC::SHAPE_DEDUCTION_FAILED, "pointwise 'p': dimensions mismatch as broadcasting", g.validate());
    }
    {  // an output the user shaped wrongly
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType_t::FLOAT);
        auto A = st_tensor(g, "A", {2, 3});
        auto Y = g.pointwise(A, fe::graph::Pointwise_attributes().set_name("p").set_mode(fe::PointwiseMode_t::EXP));
        Y->set_dim({3, 3}).set_stride({3, 1});
        CHECK_FE_ERR(EC::INVALID_VALUE, "pointwise 'p': input 'A' [2,3] does not broadcast to the output [3,3]", g.validate());
    }
    {  // missing modes and phases
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType_t::FLOAT);
        auto X = st_tensor(g, "X", {2, 3, 1, 1}), S = st_tensor(g, "S", {1, 3, 1, 1}), B = st_tensor(g, "B", {1, 3, 1, 1});
        auto eps = g.tensor(fe::graph::Tensor_attributes(1e-5f));
        (void)g.layernorm(X, S, B, fe::graph::Layernorm_attributes().set_name("ln").set_epsilon(eps));
        CHECK_FE_ERR(EC::ATTRIBUTE_NOT_SET, "layernorm 'ln': forward phase not set (set_forward_phase)", g.validate());
        fe::graph::Graph g2;
        auto X2 = st_tensor(g2, "X", {2, 3});
        (void)g2.pointwise(X2, fe::graph::Pointwise_attributes().set_name("p"));
        CHECK_FE_ERR(EC::ATTRIBUTE_NOT_SET, "pointwise 'p': pointwise mode not set", g2.validate());
        fe::graph::Graph g3;
        auto X3 = st_tensor(g3, "X", {2, 3});
        (void)g3.reduction(X3, fe::graph::Reduction_attributes().set_name("r"));
        CHECK_FE_ERR(EC::ATTRIBUTE_NOT_SET, "reduction 'r': reduction mode not set", g3.validate());
    }
}

void
unsupported() {
    {  // a node no hipDNN engine implements: Tier-2 stub, refused by name at validate and build
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType_t::FLOAT);
        auto X = st_tensor(g, "X", {4, 32});
        (void)g.block_scale_quantize(X, fe::graph::Block_scale_quantize_attributes().set_name("q").set_block_size(32));
        CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "block_scale_quantize 'q': no hipDNN engine implements block-scale quantization", g.validate());
        CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "block_scale_quantize 'q'", g.build_operation_graph(st_handle()));
        fe::graph::Graph g2;
        auto X2 = st_tensor(g2, "X", {4, 32}), S2 = st_tensor(g2, "S", {4, 1});
        (void)g2.block_scale_dequantize(X2, S2, fe::graph::Block_scale_dequantize_attributes().set_block_size(32));
        CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "block_scale_dequantize '0': no hipDNN engine implements", g2.validate());
    }
    {  // a value the backend cannot express (a BOOLEAN compute type: hipDNN's graph schema has no
       // BOOLEAN DataType) makes the graph unsupported, naming the node and the reason
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType_t::FLOAT);
        auto X = st_tensor(g, "X", {2, 3});
        (void)g.pointwise(X, fe::graph::Pointwise_attributes().set_name("relu").set_mode(fe::PointwiseMode_t::RELU_FWD)
                                 .set_compute_data_type(fe::DataType_t::BOOLEAN))
            ->set_output(true);
        const fe::error_t e = g.build_operation_graph(st_handle());
        CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "pointwise 'relu': setting attribute", e);
        CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "HIPDNN_DATA_BOOLEAN", e);
    }
    {  // every node declared as a Tier-2 stub is refused by name
        struct Case {
            const char* want;
            std::function<void(fe::graph::Graph&, std::shared_ptr<fe::graph::Tensor_attributes>)> add;
        };
        using namespace fe::graph;
        std::vector<Case> cases = {
            {"genstats 'gs': not supported", [](Graph& g, auto x) { (void)g.genstats(x, Genstats_attributes().set_name("gs")); }},
            {"bn_finalize 'bf': not supported", [](Graph& g, auto x) { (void)g.bn_finalize(x, x, x, x, x, x, BN_finalize_attributes().set_name("bf")); }},
            {"dbn_weight 'dw': not supported", [](Graph& g, auto x) { (void)g.dbn_weight(x, x, x, x, x, DBN_weight_attributes().set_name("dw")); }},
            {"instancenorm 'in': not supported", [](Graph& g, auto x) { (void)g.instancenorm(x, x, x, Instancenorm_attributes().set_name("in")); }},
            {"instancenorm_backward 'ib': not supported", [](Graph& g, auto x) { (void)g.instancenorm_backward(x, x, x, Instancenorm_backward_attributes().set_name("ib")); }},
            {"adalayernorm 'al': not supported", [](Graph& g, auto x) { (void)g.adalayernorm(x, x, x, AdaLayernorm_attributes().set_name("al")); }},
            {"adalayernorm_backward 'ab': not supported", [](Graph& g, auto x) { (void)g.adalayernorm_backward(x, x, x, AdaLayernorm_backward_attributes().set_name("ab")); }},
            {"reshape 'rs': not supported", [](Graph& g, auto x) { (void)g.reshape(x, Reshape_attributes().set_name("rs").set_dim({6})); }},
            {"transpose 'tp': not supported", [](Graph& g, auto x) { (void)g.transpose(x, Transpose_attributes().set_name("tp").set_permutation({1, 0})); }},
            {"slice 'sl': not supported", [](Graph& g, auto x) { (void)g.slice(x, Slice_attributes().set_name("sl").set_slices({{0, 1}, {0, 3}})); }},
            {"concatenate 'cc': not supported", [](Graph& g, auto x) { (void)g.concatenate({x, x}, Concatenate_attributes().set_name("cc").set_axis(0)); }},
            {"rng 'rn': not supported", [](Graph& g, auto x) { (void)g.rng(x, x, Rng_attributes().set_name("rn").set_distribution(fe::RngDistribution_t::BERNOULLI)); }},
        };
        for (auto const& c : cases) {
            Graph g;
            c.add(g, st_tensor(g, "X", {2, 3}));
            CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, c.want, g.validate());
            CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, c.want, g.build_operation_graph(st_handle()));
        }
    }
    {  // pointwise modes hipDNN lacks
        for (auto m : {fe::PointwiseMode_t::MOD, fe::PointwiseMode_t::POW, fe::PointwiseMode_t::COS}) {
            fe::graph::Graph g;
            auto X = st_tensor(g, "X", {2, 3}), Y = st_tensor(g, "Y", {2, 3});
            (void)g.pointwise(X, Y, fe::graph::Pointwise_attributes().set_name("p").set_mode(m));
            std::string want = std::string("pointwise 'p': pointwise mode ") + fe::detail::name(m) + " is not supported by hipDNN";
            CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, want.c_str(), g.validate());
        }
    }
    {  // resample modes hipDNN lacks
        fe::graph::Graph g;
        auto X = st_tensor(g, "X", {1, 1, 4, 4});
        (void)g.resample(X, fe::graph::Resample_attributes().set_name("rs").set_resampling_mode(fe::ResampleMode_t::BILINEAR).set_window({2, 2}).set_stride({2, 2}).set_pre_padding({0, 0}).set_post_padding({0, 0}));
        CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "resample 'rs': resampling mode BILINEAR is not supported by hipDNN", g.validate());
    }
    {  // setters that cannot be honoured
        AddGraph a;  // dynamic shapes build a plan per shape (test_shim_plans)
        a.g.set_dynamic_shape_enabled(true).set_override_shape_enabled(true);
        CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "set_override_shape_enabled(true)", a.g.validate());
        AddGraph c;
        c.g.set_device_properties(std::make_shared<const fe::DeviceProperties>());
        CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "set_device_properties", c.g.validate());
        AddGraph d;  // advisory CUDA targets are accepted
        d.g.set_sm_count(132).set_sm_version(90);
        CHECK_FE_OK(d.g.validate());
    }
    {  // matmul overrides
        fe::graph::Graph g;
        auto A = st_tensor(g, "A", {1, 4, 5}), B = st_tensor(g, "B", {1, 5, 3}), M = st_tensor(g, "M", {1, 1, 1});
        (void)g.matmul(A, B, fe::graph::Matmul_attributes().set_name("mm").set_m_override(M));
        CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "matmul 'mm': set_m_override is not supported by hipDNN", g.validate());
    }
    {  // a data type hipDNN does not have
        fe::graph::Graph g;
        auto X = g.tensor(fe::graph::Tensor_attributes().set_name("X").set_dim({2, 4}).set_stride({4, 1}).set_data_type(fe::DataType_t::INT8x4));
        (void)g.pointwise(X, fe::graph::Pointwise_attributes().set_mode(fe::PointwiseMode_t::IDENTITY))->set_output(true).set_data_type(fe::DataType_t::FLOAT);
        CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "Tensor 'X' has data type INT8x4, which hipDNN does not have", g.build_operation_graph(st_handle()));
    }
    {  // a shared-memory limit cannot be honoured
        AddGraph a;
        CHECK(st_build(a.g, "add"));
        a.g.deselect_shared_mem_greater_than(1024);
        CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "deselect_shared_mem_greater_than(1024)", a.g.check_support(st_handle()));
    }
}

void
uids() {
    {  // set UIDs are honoured; unset ones are assigned around them
        AddGraph a;
        a.A->set_uid(1);
        a.C->set_uid(3);
        CHECK(st_build(a.g, "uids"));
        CHECK(a.A->get_uid() == 1);
        CHECK(a.C->get_uid() == 3);
        CHECK(a.B->has_uid() && a.B->get_uid() == 2);
        fe::graph::Tensor_attributes t;
        CHECK_FE_OK(a.g.query_tensor_attributes_of_uid(2, t));
        CHECK(t.get_name() == "B");
        CHECK_FE_ERR(EC::INVALID_VALUE, "No matching tensor for uid 99", a.g.query_tensor_attributes_of_uid(99, t));
    }
    {  // tensor_like copies shape and type but not the UID
        AddGraph a;
        a.A->set_uid(5);
        auto L = a.g.tensor_like(a.A, "like_A");
        CHECK(!L->has_uid() && L->get_name() == "like_A" && L->get_dim() == a.A->get_dim() &&
              L->get_data_type() == a.A->get_data_type());
    }
    {  // duplicates are refused, naming both tensors
        AddGraph a;
        a.A->set_uid(7);
        a.B->set_uid(7);
        CHECK_FE_ERR(EC::INVALID_VALUE, "uid 7 for tensor named B has been already assigned to another tensor (A)", a.g.validate());
    }
}

void
plans_and_execute() {
    {  // steps out of order
        AddGraph a;
        CHECK_FE_ERR(EC::HEURISTIC_QUERY_FAILED, "call build_operation_graph first", a.g.create_execution_plans({fe::HeurMode_t::A}));
        CHECK_FE_OK(a.g.validate());
        CHECK_FE_OK(a.g.build_operation_graph(st_handle()));
        CHECK_FE_OK(a.g.create_execution_plans({fe::HeurMode_t::A, fe::HeurMode_t::FALLBACK}));
        std::vector<float> x(6), y(6), z(6);
        Binding b{{a.A, x.data()}, {a.B, y.data()}, {a.C, z.data()}};
        CHECK_FE_ERR(EC::GRAPH_EXECUTION_FAILED, "call build_plans first", a.g.execute(st_handle(), b, nullptr));
    }
    {  // a missing pointer
        AddGraph a;
        CHECK(st_build(a.g, "add"));
        std::vector<float> x(6), z(6);
        Binding b{{a.A, x.data()}, {a.C, z.data()}};
        CHECK_FE_ERR(EC::INVALID_VARIANT_PACK, "execute: no pointer for tensor 'B'", a.g.execute(st_handle(), b, nullptr));
    }
    {  // plan filters: by engine name, and every engine deselected
        AddGraph a;
        CHECK_FE_OK(a.g.validate());
        CHECK_FE_OK(a.g.build_operation_graph(st_handle()));
        CHECK_FE_OK(a.g.create_execution_plans({fe::HeurMode_t::B}));
        CHECK(a.g.get_execution_plan_count() >= 1);
        a.g.deselect_engines({"HIPDNNGO_ONEDNN"});
        a.g.deselect_numeric_notes({fe::NumericalNote_t::NONDETERMINISTIC});  // the CPU engines are deterministic
        CHECK_FE_OK(a.g.check_support(st_handle()));
        std::vector<fe::BehaviorNote_t> notes;  // as upstream, only build_plans chooses the plan
        CHECK_FE_ERR(EC::INVALID_VALUE, "no plan has been chosen yet", a.g.get_behavior_notes(notes));
        CHECK_FE_OK(a.g.get_behavior_notes_for_plan_at_index(0, notes));
        CHECK_FE_OK(a.g.build_plans(st_handle()));
        CHECK_FE_OK(a.g.get_behavior_notes(notes));
        std::string name;
        CHECK_FE_OK(a.g.get_plan_name(name));
        CHECK(name == "HIPDNNGO_CPU_REFERENCE");
        std::vector<float> x{1, 2, 3, 4, 5, 6}, y{6, 5, 4, 3, 2, 1}, z(6);
        Binding b{{a.A, x.data()}, {a.B, y.data()}, {a.C, z.data()}};
        int64_t ws = -1;
        CHECK_FE_OK(a.g.get_workspace_size(ws));
        std::vector<unsigned char> w(ws + 16);
        CHECK_FE_OK(a.g.execute(st_handle(), b, w.data()));
        CHECK(z == std::vector<float>(6, 7.f));
        CHECK_FE_ERR(EC::INVALID_VALUE, "plan index 42 is out of range", a.g.get_plan_name_at_index(42, name));

        // The heuristic's configs past the first are read on demand: naming and building the
        // second candidate reads it.
        AddGraph lazy;
        CHECK_FE_OK(lazy.g.validate());
        CHECK_FE_OK(lazy.g.build_operation_graph(st_handle()));
        CHECK_FE_OK(lazy.g.create_execution_plans({fe::HeurMode_t::A}));
        CHECK(lazy.g.get_execution_plan_count() >= 2);
        std::string first, second;
        CHECK_FE_OK(lazy.g.get_plan_name_at_index(0, first));
        CHECK_FE_OK(lazy.g.get_plan_name_at_index(1, second));
        CHECK(!first.empty() && !second.empty() && first != second);
        CHECK_FE_OK(lazy.g.build_plan_at_index(st_handle(), 1));
        int64_t lazy_ws = -1;
        CHECK_FE_OK(lazy.g.get_workspace_size_plan_at_index(1, lazy_ws));
        CHECK(lazy_ws >= 0);

        AddGraph none;
        CHECK_FE_OK(none.g.validate());
        CHECK_FE_OK(none.g.build_operation_graph(st_handle()));
        CHECK_FE_OK(none.g.create_execution_plans({fe::HeurMode_t::A}));
        none.g.deselect_engines({"HIPDNNGO_ONEDNN", "HIPDNNGO_CPU_REFERENCE"});
        CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "deselected by name", none.g.check_support(st_handle()));

        AddGraph part;  // as upstream, a name deselects every engine whose name contains it
        CHECK_FE_OK(part.g.validate());
        CHECK_FE_OK(part.g.build_operation_graph(st_handle()));
        CHECK_FE_OK(part.g.create_execution_plans({fe::HeurMode_t::A}));
        part.g.deselect_engines({"CPU_REF"});
        CHECK_FE_OK(part.g.build_plans(st_handle(), fe::BuildPlanPolicy_t::HEURISTICS_CHOICE));
        std::string chosen;
        CHECK_FE_OK(part.g.get_plan_name(chosen));
        CHECK(chosen == "HIPDNNGO_ONEDNN");
        AddGraph all;
        CHECK_FE_OK(all.g.validate());
        CHECK_FE_OK(all.g.build_operation_graph(st_handle()));
        CHECK_FE_OK(all.g.create_execution_plans({fe::HeurMode_t::A}));
        all.g.deselect_engines({"GO_"});
        CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "deselected by name (GO_)", all.g.check_support(st_handle()));
    }
    {  // other ways to plan and bind: an explicit engine id, a sorted pointer array, and a tensor
       // map keyed by copies of the graph's tensors (bound by UID, as upstream does)
        AddGraph a;
        CHECK(st_build(a.g, "add"));
        AddGraph b;
        CHECK_FE_OK(b.g.validate());
        CHECK_FE_OK(b.g.build_operation_graph(st_handle()));
        CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "create_execution_plan: knob type 2 has no counterpart",
                     b.g.create_execution_plan(1, {{fe::KnobType_t::TILE_SIZE, 1}}));
        std::string first;
        CHECK_FE_OK(a.g.get_plan_name(first));
        CHECK_FE_ERR(EC::CUDNN_BACKEND_API_FAILED, "engine 12345", b.g.create_execution_plan(12345, {}));
        std::vector<float> x{1, 2, 3, 4, 5, 6}, y{1, 1, 1, 1, 1, 1}, z(6);
        void* sorted[3] = {x.data(), y.data(), z.data()};  // UIDs 1 (A), 2 (B), 3 (C)
        int64_t ws = 0;
        CHECK_FE_OK(a.g.get_workspace_size(ws));
        std::vector<unsigned char> w(ws + 16);
        CHECK_FE_OK(a.g.execute(st_handle(), sorted, 3, w.data()));
        CHECK(z == (std::vector<float>{2, 3, 4, 5, 6, 7}));
        CHECK_FE_ERR(EC::INVALID_VARIANT_PACK, "execute: 2 pointers given, the graph binds 3", a.g.execute(st_handle(), sorted, 2, w.data()));
        auto A2 = std::make_shared<fe::graph::Tensor_attributes>(*a.A), B2 = std::make_shared<fe::graph::Tensor_attributes>(*a.B),
             C2 = std::make_shared<fe::graph::Tensor_attributes>(*a.C);
        std::fill(z.begin(), z.end(), 0.f);
        Binding copies{{A2, x.data()}, {B2, y.data()}, {C2, z.data()}};
        CHECK_FE_OK(a.g.execute(st_handle(), copies, w.data()));
        CHECK(z == (std::vector<float>{2, 3, 4, 5, 6, 7}));
    }
    {  // warmup, print, and CUDA graphs refused for a CPU plan
        AddGraph a;
        CHECK_FE_ERR(EC::GRAPH_EXECUTION_FAILED, "call build_plans first", a.g.warmup(st_handle()));
        CHECK(st_build(a.g, "add"));
        CHECK_FE_OK(a.g.warmup(st_handle()));
        CHECK(a.g.print().find("pointwise 'add'") != std::string::npos);
        Binding b;
        std::unordered_map<int64_t, void*> m;
        cudaGraph_t cg = nullptr;
        CHECK_FE_ERR(EC::INVALID_VALUE, "populate_cuda_graph: the CUDA graph is null", a.g.populate_cuda_graph(st_handle(), b, nullptr, cg));
        cg = reinterpret_cast<cudaGraph_t>(&b);  // never dereferenced: the CPU plan is refused first
        CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "cannot be captured: it lacks the behavior note SUPPORTS_CUDA_GRAPH_NATIVE_API", a.g.populate_cuda_graph(st_handle(), b, nullptr, cg));
        CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "update_cuda_graph: plan 0 (", a.g.update_cuda_graph(st_handle(), m, nullptr, cg));
    }
    {  // autotune with a binding that lacks the graph's tensors: every plan fails, by name
        AddGraph a;
        CHECK(st_build(a.g, "add"));
        std::unordered_map<int64_t, void*> m;
        CHECK_FE_ERR(EC::GRAPH_EXECUTION_FAILED, "autotune: no built plan executed", a.g.autotune(st_handle(), m, nullptr));
    }
}

// serialize / deserialize: a built graph's bytes make a new graph that executes, bound by UID;
// bad bytes are refused with the backend's reason.
void
serialization() {
    AddGraph a;
    a.A->set_uid(10);
    a.B->set_uid(20);
    a.C->set_uid(30);
    std::vector<uint8_t> bytes;
    CHECK_FE_ERR(EC::GRAPH_EXECUTION_FAILED, "call build_plans first", a.g.serialize(bytes));
    if (!st_build(a.g, "serialize")) return;
    CHECK_FE_OK(a.g.serialize(bytes));
    CHECK(!bytes.empty());
    fe::graph::Graph restored;
    CHECK_FE_OK(restored.deserialize(st_handle(), bytes));
    std::vector<float> x{1, 2, 3, 4, 5, 6}, y{10, 20, 30, 40, 50, 60}, z(6);
    std::unordered_map<int64_t, void*> by_uid{{10, x.data()}, {20, y.data()}, {30, z.data()}};
    int64_t ws = 0;
    CHECK_FE_OK(restored.get_workspace_size(ws));
    std::vector<unsigned char> w(ws + 16);
    CHECK_FE_OK(restored.execute(st_handle(), by_uid, w.data()));
    CHECK(z == (std::vector<float>{11, 22, 33, 44, 55, 66}));
    // The restored graph still describes its tensors by UID (the shim's records after the plan).
    fe::graph::Tensor_attributes t;
    CHECK_FE_OK(restored.query_tensor_attributes_of_uid(20, t));
    CHECK(t.get_name() == a.B->get_name() && t.get_dim() == a.B->get_dim() && t.get_stride() == a.B->get_stride() &&
          t.get_data_type() == fe::DataType_t::FLOAT);
    CHECK_FE_ERR(EC::INVALID_VALUE, "No matching tensor for uid 99", restored.query_tensor_attributes_of_uid(99, t));
    {
        auto damaged = bytes;
        damaged[damaged.size() - 30] ^= 0xFF;  // inside the last record
        fe::graph::Graph d;
        auto e = d.deserialize(st_handle(), damaged);
        CHECK(e.is_bad());
    }
    by_uid.erase(20);
    CHECK_FE_ERR(EC::INVALID_VARIANT_PACK, "(uid 20)", restored.execute(st_handle(), by_uid, w.data()));
    // Serializing the restored graph again is not offered yet (it holds the plan only).
    std::vector<uint8_t> again;
    CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "a deserialized graph cannot be serialized again", restored.serialize(again));
    fe::graph::Graph bad;
    CHECK_FE_ERR(EC::INVALID_VALUE, "deserialize: no bytes given", bad.deserialize(st_handle(), {}));
    std::vector<uint8_t> garbage(64, 0xAB);
    CHECK_FE_ERR(EC::INVALID_VALUE, "deserialize failed: HIPDNN_STATUS_BAD_PARAM", bad.deserialize(st_handle(), garbage));
}

// The error macros work in user code that sees the frontend only through the alias.
fe::error_t
macro_user(bool fail) {
    RETURN_CUDNN_FRONTEND_ERROR_IF(fail, fe::error_code_t::INVALID_VALUE, "asked to fail");
    CHECK_CUDNN_FRONTEND_ERROR(fe::error_t());
    return {fe::error_code_t::OK, ""};
}

void
macros() {
    CHECK_FE_ERR(EC::INVALID_VALUE, "asked to fail", macro_user(true));
    CHECK_FE_OK(macro_user(false));
    fe::error_t e{EC::GRAPH_NOT_SUPPORTED, "x"};
    CHECK(e.is_bad() && e == EC::GRAPH_NOT_SUPPORTED && e.get_message() == "x");
}

// The fp8 attention backward, MoE and the other nodes declared for NVIDIA's samples are Tier-2
// stubs: each is refused by name, at validate and at build, and marked as a stub (SDPA forward
// and backward are lowered: test_shim_attention).
void
attention_and_moe_stubs() {
    using namespace fe::graph;
    using T = std::shared_ptr<Tensor_attributes>;
    struct Case {
        const char* want;
        std::function<void(Graph&, T)> add;
    };
    std::vector<Case> cases = {
        {"sdpa_fp8_backward 'b8': not supported",
         [](Graph& g, T x) {
             (void)g.sdpa_fp8_backward(x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x,
                                       SDPA_fp8_backward_attributes().set_name("b8"));
         }},
        {"sdpa_fp8_backward 'bm': not supported",
         [](Graph& g, T x) {
             (void)g.sdpa_fp8_backward(x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x,
                                       SDPA_fp8_backward_attributes().set_name("bm"));
         }},
        {"moe_grouped_matmul 'moe': not supported",
         [](Graph& g, T x) {
             (void)g.moe_grouped_matmul(x, x, x, x, x, Moe_grouped_matmul_attributes().set_name("moe").set_top_k(2));
         }},
        {"moe_grouped_matmul_bwd 'mb': not supported",
         [](Graph& g, T x) { (void)g.moe_grouped_matmul_bwd(x, x, x, Moe_grouped_matmul_bwd_attributes().set_name("mb")); }},
    };
    for (auto const& c : cases) {
        Graph g;
        c.add(g, st_tensor(g, "X", {1, 2, 4, 8}));
        CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, c.want, g.validate());
        CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "[Tier-2 stub]", g.validate());
        CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, c.want, g.build_operation_graph(st_handle()));
    }
    // The experimental NVRTC prefill engines and device-properties descriptors are CUDA-only.
    fe::experimental::Sm90SdpaPrefillEngine e90;
    fe::experimental::Sm100SdpaPrefillEngine e100;
    fe::experimental::AttentionShape_t shape = {1, 1, 1, 1, 128, 128, 64, 64};
    CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "Sm90SdpaPrefillEngine::check_support", e90.check_support(shape, 90));
    CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "Sm90SdpaPrefillEngine::build", e90.build());
    CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "Sm100SdpaPrefillEngine::check_support", e100.check_support(shape, 100));
    fe::DeviceProperties props;
    CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "DeviceProperties::build", props.set_device_id(0).build());
}

// Graph::key: equal for graphs built alike, different when a shape or a node attribute differs.
void
graph_key() {
    auto make = [](int64_t n, fe::PointwiseMode_t mode) {
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
        auto A = st_tensor(g, "A", {n, 8}), B = st_tensor(g, "B", {n, 8});
        g.pointwise(A, B, fe::graph::Pointwise_attributes().set_mode(mode))->set_output(true);
        CHECK_FE_OK(g.validate());
        return g.key();
    };
    CHECK(make(4, fe::PointwiseMode_t::ADD) == make(4, fe::PointwiseMode_t::ADD));
    CHECK(make(4, fe::PointwiseMode_t::ADD) != make(4, fe::PointwiseMode_t::MUL));
    CHECK(make(4, fe::PointwiseMode_t::ADD) != make(5, fe::PointwiseMode_t::ADD));
}

}  // namespace

int
main() {
    missing_and_mismatched();
    unsupported();
    uids();
    plans_and_execute();
    serialization();
    macros();
    attention_and_moe_stubs();
    graph_key();
    return st_finish("test_shim_errors");
}
