// An engine's own configurations through the shim: an engine that publishes a
// configuration-index knob (HIPDNN_PLUGIN_CONFIG_KNOB_SUFFIX) gets one plan candidate per other
// index, as cuDNN-frontend lists every cuDNN config, and a workspace limit chooses among them.
// Only the test plugin libtest_config_knob_plugin.so is loaded: one engine, knob `test.config`
// over [-1, 3] with default 1, 1000 workspace bytes per index. The test engine computes nothing,
// so this checks the list, the filters and the plans, not numbers (the cuDNN engine's configs are
// checked on the H200 by NVIDIA's autotuning and matmul samples).
#include "shim_test.h"

#include <hipdnn_backend.h>

namespace {

// A finalized operation graph of one pointwise add.
struct AddGraph {
    fe::graph::Graph g;
    std::shared_ptr<fe::graph::Tensor_attributes> A, B, C;
    AddGraph() {
        g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
        A = st_tensor(g, "A", {2, 3});
        B = st_tensor(g, "B", {2, 3});
        C = g.pointwise(A, B, fe::graph::Pointwise_attributes().set_name("add").set_mode(fe::PointwiseMode_t::ADD));
        C->set_output(true);
        CHECK_FE_OK(g.validate());
        CHECK_FE_OK(g.build_operation_graph(st_handle()));
        CHECK_FE_OK(g.create_execution_plans({fe::HeurMode_t::A}));
    }
};

void
plain_build_lists_nothing_more() {
    AddGraph a;
    CHECK_FE_OK(a.g.check_support());
    CHECK_FE_OK(a.g.build_plans());
    int64_t ws = -1;
    CHECK_FE_OK(a.g.get_workspace_size(ws));
    CHECK(ws == 1000);  // the engine's own choice: index 1
    // The count lists the others: indices 0, 2 and 3 after the default; the chosen plan stays.
    CHECK(a.g.get_execution_plan_count() == 4);
    CHECK_FE_OK(a.g.get_workspace_size(ws));
    CHECK(ws == 1000);
    std::string name;
    CHECK_FE_OK(a.g.get_plan_name(name));
    CHECK(name == "TEST_CONFIG_KNOB_ENGINE");
}

void
build_all() {
    AddGraph a;
    CHECK(a.g.get_execution_plan_count() == 4);
    CHECK_FE_OK(a.g.build_plans(fe::BuildPlanPolicy_t::ALL));
    int64_t const want[] = {1000, 0, 2000, 3000};
    for (int64_t i = 0; i < 4; ++i) {
        int64_t ws = -1;
        CHECK_FE_OK(a.g.get_workspace_size_plan_at_index(i, ws));
        if (ws != want[i]) CHECK_FAIL("plan %lld: workspace %lld, want %lld", (long long)i, (long long)ws, (long long)want[i]);
        std::string name;
        CHECK_FE_OK(a.g.get_plan_name_at_index(i, name));
        CHECK(name == "TEST_CONFIG_KNOB_ENGINE");
    }
}

// NVIDIA's autotuning sample: a workspace limit set before the plans are built rules out the
// configurations that need more, and the first that fits is chosen.
void
workspace_limit() {
    AddGraph a;
    a.g.deselect_workspace_greater_than(500);
    CHECK_FE_OK(a.g.check_support());
    CHECK_FE_OK(a.g.build_plans(fe::BuildPlanPolicy_t::ALL));
    int64_t ws = -1;
    CHECK_FE_OK(a.g.get_workspace_size(ws));
    CHECK(ws == 0);
    CHECK(a.g.get_execution_plan_count() == 4);
    CHECK_FE_ERR(fe::error_code_t::GRAPH_EXECUTION_FAILED, "has no built execution plan",
                 a.g.get_workspace_size_plan_at_index(2, ws));
    CHECK_FE_ERR(fe::error_code_t::GRAPH_EXECUTION_PLAN_CREATION_FAILED,
                 "plan 3 (TEST_CONFIG_KNOB_ENGINE) needs 3000 bytes of workspace, more than 500.",
                 a.g.build_plan_at_index(3));
    AddGraph none;
    none.g.deselect_engines({"TEST_CONFIG"});
    CHECK_FE_ERR(fe::error_code_t::GRAPH_NOT_SUPPORTED, "deselected by name (TEST_CONFIG)", none.g.check_support());
}

}  // namespace

int
main() {
    // Before the first handle: load the test plugin only.
    const char* files[] = {SHIM_TEST_CONFIG_KNOB_PLUGIN};
    if (hipdnnSetEnginePluginPaths_ext(1, files, HIPDNN_PLUGIN_LOADING_ABSOLUTE) != HIPDNN_STATUS_SUCCESS)
        CHECK_FAIL("hipdnnSetEnginePluginPaths_ext(%s) failed", files[0]);
    plain_build_lists_nothing_more();
    build_all();
    workspace_limit();
    return st_finish("test_shim_alternatives");
}
