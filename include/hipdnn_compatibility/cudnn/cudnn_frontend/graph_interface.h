// graph_interface.h - Graph: the cudnn-frontend v9 graph, lowered onto hipdnn_backend.
//
// Flow (as upstream): add tensors and nodes; validate() checks inputs and infers every output's
// shape; build_operation_graph(handle) assigns UIDs and lowers to one hipdnn operation graph;
// create_execution_plans / check_support / build_plans pick engine configs; execute binds
// pointers by UID and runs the chosen plan.
//
// Errors: every method returns error_t with a message naming the node, tensor or setter. A node
// or setter the shim declares but cannot honour is a Tier-2 stub: it is recorded here and the
// next validate() or build_operation_graph() returns GRAPH_NOT_SUPPORTED naming it.
//
// Concurrency: building is single-threaded, like upstream. execute() may be called from several
// threads on a built graph; its variant-pack cache is behind a mutex.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "backend/device_properties.h"
#include "backend/cuda_graph.h"
#include "backend/kernel_cache.h"
#include "backend/plan_timer.h"
#include "node/batchnorm.h"
#include "node/batchnorm_inference.h"
#include "node/conv_dgrad.h"
#include "node/conv_fprop.h"
#include "node/conv_wgrad.h"
#include "node/dbn.h"
#include "node/dln.h"
#include "node/layernorm.h"
#include "node/matmul.h"
#include "node/pointwise.h"
#include "node/reduction.h"
#include "node/resample.h"
#include "node/rmsnorm.h"
#include "node/sdpa.h"
#include "node/stub.h"
#include "graph_properties_stubs.h"
#include "graph_properties_attention_stubs.h"
#include "plans.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace graph {

class Graph {
    using uid_t = Tensor_attributes::uid_t;

    detail::Context context;
    std::vector<std::shared_ptr<INode>> sub_nodes;
    std::vector<TensorPtr> graph_inputs;   // made by tensor() / tensor_like()
    std::vector<std::string> unsupported;  // Tier-2 stubs hit by setters
    std::shared_ptr<KernelCache> kernel_cache;  // set_kernel_cache (dynamic shapes)

    bool validated = false;
    std::vector<TensorPtr> restored_tensors;  // the tensors a deserialize() brought back
    std::shared_ptr<std::remove_pointer_t<hipdnnHandle_t>> own_handle;  // build without a handle
    hipdnnHandle_t handle_ = nullptr;
    detail::managed_descriptor operation_graph;
    detail::Lowering lowering;
    std::vector<uid_t> variant_uids;        // sorted UIDs execute() must be given
    std::vector<TensorPtr> variant_tensors;  // the tensors of variant_uids, same order
    std::unordered_map<uid_t, TensorPtr> uid_to_tensor;
    mutable Execution_plan_list plans;  // mutable: engine names and notes are read on first use
    mutable std::vector<int64_t> engine_ids;  // get_engine_count's engines (list_engines)
    mutable bool engines_listed = false;

    // The last variant pack, reused while the pointers repeat (a fresh pack costs microseconds).
    struct PackCache {
        std::mutex mu;
        int64_t plan_index = -1;
        std::vector<void*> ptrs;
        void* workspace = nullptr;
        detail::managed_descriptor pack;
    };
    std::shared_ptr<PackCache> pack_cache = std::make_shared<PackCache>();
    std::shared_ptr<detail::capture_stream> capture = std::make_shared<detail::capture_stream>();  // CUDA graphs

    static constexpr const char* kFp8BackwardStub =
        "not supported: hipDNN's SDPA backward operation has no fp8 descale, scale or amax attributes.";

    template <typename N, typename A>
    void
    add_node(A&& attributes) {
        sub_nodes.push_back(std::make_shared<N>(std::forward<A>(attributes), context));
    }

    template <typename A>
    void
    add_stub(A&& attributes, const char* kind, std::string reason) {
        sub_nodes.push_back(std::make_shared<StubNode<std::decay_t<A>>>(std::forward<A>(attributes), context, kind,
                                                                         std::move(reason)));
    }

    template <typename A>
    void
    name_node(A& attributes) {
        if (attributes.name.empty()) attributes.name = std::to_string(sub_nodes.size());
    }

    static TensorPtr
    output_tensor(std::string const& name) {
        auto t = std::make_shared<Tensor_attributes>();
        t->set_name(name).set_is_virtual(true);
        return t;
    }

    // all_tensors lists every tensor of the graph once, inputs first, in a stable order.
    std::vector<TensorPtr>
    all_tensors() const {
        std::vector<TensorPtr> out;
        std::unordered_set<Tensor_attributes const*> seen;
        // A ragged tensor's offsets tensor belongs to the graph too (UID, variant pack).
        auto add = [&](TensorPtr const& t) {
            if (t && t->get_ragged_offset() && seen.insert(t->get_ragged_offset().get()).second)
                out.push_back(t->get_ragged_offset());
            if (t && seen.insert(t.get()).second) out.push_back(t);
        };
        for (auto const& t : graph_inputs) add(t);
        for (auto const& n : sub_nodes) {
            std::vector<TensorPtr> ins, outs;
            n->collect_tensors(ins, outs);
            for (auto const& t : ins) add(t);
            for (auto const& t : outs) add(t);
        }
        return out;
    }

    error_t
    assign_uids() {
        auto tensors = all_tensors();
        std::unordered_map<uid_t, Tensor_attributes const*> used;
        for (auto const& t : tensors) {
            if (!t->has_uid()) continue;
            auto it = used.find(t->get_uid());
            if (it != used.end())
                return {error_code_t::INVALID_VALUE, "uid " + std::to_string(t->get_uid()) + " for tensor named " +
                                                         t->get_name() +
                                                         " has been already assigned to another tensor (" +
                                                         it->second->get_name() + ")."};
            used.emplace(t->get_uid(), t.get());
        }
        uid_t next = 1;
        for (auto const& t : tensors) {
            if (t->has_uid()) continue;
            while (used.count(next)) ++next;
            t->set_uid(next);
            used.emplace(next, t.get());
        }
        uid_to_tensor.clear();
        variant_uids.clear();
        for (auto const& t : tensors) {
            uid_to_tensor[t->get_uid()] = t;
            bool scalar = t->get_pass_by_value().has_value() || t->get_has_compile_time_constant();
            if (!t->get_is_virtual() && !scalar) variant_uids.push_back(t->get_uid());
        }
        std::sort(variant_uids.begin(), variant_uids.end());
        variant_tensors.clear();
        for (uid_t u : variant_uids) variant_tensors.push_back(uid_to_tensor[u]);
        return {error_code_t::OK, ""};
    }

    error_t
    ensure_handle(hipdnnHandle_t handle) {
        if (handle != nullptr) {
            handle_ = handle;
            return {error_code_t::OK, ""};
        }
        if (!own_handle) {
            hipdnnHandle_t h = nullptr;
            hipdnnStatus_t st = hipdnnCreate(&h);
            if (st != HIPDNN_STATUS_SUCCESS)
                return detail::backend_error(st, error_code_t::HANDLE_ERROR, "creating a handle for build_operation_graph()");
            own_handle.reset(h, [](hipdnnHandle_t p) { hipdnnDestroy(p); });
        }
        handle_ = own_handle.get();
        return {error_code_t::OK, ""};
    }

    static void
    warn_once(HeurMode_t mode) {
        static std::once_flag b, os;
        auto warn = [](const char* m) {
            CUDNN_FE_LOG_LABEL_ENDL("WARN: HeurMode_t::" << m
                                    << " is not honoured by hipDNN; the backend's policy order ranks the engines.");
        };
        if (mode == HeurMode_t::B) std::call_once(b, warn, "B");
        if (mode == HeurMode_t::OPENSOURCE) std::call_once(os, warn, "OPENSOURCE");
    }

    error_t
    missing_pointer(size_t i) const {
        std::string const name = i < variant_tensors.size() ? variant_tensors[i]->get_name() : std::string();
        return {error_code_t::INVALID_VARIANT_PACK,
                "execute: no pointer for tensor '" + name + "' (uid " + std::to_string(variant_uids[i]) + ")."};
    }

    // run_bound executes plan_index with bound[i] the pointer of variant_uids[i]. The last
    // variant pack is reused while pointers, workspace and plan repeat: the steady state
    // allocates nothing and makes one backend call.
    error_t
    run_bound(hipdnnHandle_t handle, void* const* bound, void* workspace, int64_t plan_index) const {
        CHECK_CUDNN_FRONTEND_ERROR(plans.is_plan_index_executable(plan_index));
        size_t const n = variant_uids.size();
        auto& cache    = *pack_cache;
        std::lock_guard<std::mutex> lock(cache.mu);
        bool const same = cache.pack && cache.plan_index == plan_index && cache.workspace == workspace &&
                          cache.ptrs.size() == n && std::equal(cache.ptrs.begin(), cache.ptrs.end(), bound);
        if (!same) {
            detail::managed_descriptor pack;
            CHECK_CUDNN_FRONTEND_ERROR(detail::make_descriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, "variant pack", pack));
            CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64,
                                                        static_cast<int64_t>(n), variant_uids.data(), "variant pack"));
            CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR,
                                                        static_cast<int64_t>(n), bound, "variant pack"));
            CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1,
                                                        &workspace, "variant pack"));
            CHECK_CUDNN_FRONTEND_ERROR(detail::finalize(pack, "variant pack"));
            cache.pack = pack;
            cache.ptrs.assign(bound, bound + n);
            cache.workspace  = workspace;
            cache.plan_index = plan_index;
        }
        hipdnnStatus_t st = hipdnnBackendExecute(handle, plans.candidates[plan_index].plan->get_ptr(), cache.pack->get_ptr());
        if (st != HIPDNN_STATUS_SUCCESS)
            return detail::backend_error(st, error_code_t::GRAPH_EXECUTION_FAILED, "execute");
        return {error_code_t::OK, ""};
    }

    // Pointer arrays of up to kStackSlots tensors live on the stack.
    static constexpr size_t kStackSlots = 32;

    error_t
    execute_impl(hipdnnHandle_t handle,
                 std::unordered_map<int64_t, void*> const& ptrs,
                 void* workspace,
                 int64_t plan_index) const {
        size_t const n = variant_uids.size();
        void* stack[kStackSlots];
        std::vector<void*> heap(n > kStackSlots ? n : 0);
        void** bound = n > kStackSlots ? heap.data() : stack;
        for (size_t i = 0; i < n; ++i) {
            auto it = ptrs.find(variant_uids[i]);
            if (it == ptrs.end()) return missing_pointer(i);
            bound[i] = it->second;
        }
        return run_bound(handle, bound, workspace, plan_index);
    }

    // execute_impl for a tensor map: looked up by the graph's own tensors; a map keyed by other
    // Tensor_attributes objects (same UIDs) goes through the UID map, as upstream binds by UID.
    error_t
    execute_impl(hipdnnHandle_t handle,
                 std::unordered_map<std::shared_ptr<Tensor_attributes>, void*> const& ptrs,
                 void* workspace,
                 int64_t plan_index) const {
        size_t const n = variant_uids.size();
        if (variant_tensors.size() != n) return execute_impl(handle, by_uid(ptrs), workspace, plan_index);
        void* stack[kStackSlots];
        std::vector<void*> heap(n > kStackSlots ? n : 0);
        void** bound = n > kStackSlots ? heap.data() : stack;
        for (size_t i = 0; i < n; ++i) {
            auto it = ptrs.find(variant_tensors[i]);
            if (it == ptrs.end()) return execute_impl(handle, by_uid(ptrs), workspace, plan_index);
            bound[i] = it->second;
        }
        return run_bound(handle, bound, workspace, plan_index);
    }

    static constexpr const char* kNoCudaRuntime =
        "CUDA graphs need CUDA's runtime header (cuda_runtime_api.h) on the include path when the shim is "
        "included.";

    // can_capture: a graph to fill, a chosen plan, and a plan whose work is all stream work.
    error_t
    can_capture(char const* caller, cudaGraph_t cuda_graph) const {
        if (cuda_graph == nullptr)
            return {error_code_t::INVALID_VALUE, std::string(caller) + ": the CUDA graph is null."};
        CHECK_CUDNN_FRONTEND_ERROR(plans.is_plan_index_executable(plans.candidate));
        auto& c = plans.candidates[plans.candidate];
        plans.describe(c);
        if (std::find(c.behavior_notes.begin(), c.behavior_notes.end(),
                      BehaviorNote_t::SUPPORTS_CUDA_GRAPH_NATIVE_API) == c.behavior_notes.end())
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    std::string(caller) + ": plan " + std::to_string(plans.candidate) + " (" + c.name +
                        ") cannot be captured: it lacks the behavior note SUPPORTS_CUDA_GRAPH_NATIVE_API "
                        "(hipDNN's SUPPORTS_GRAPH_CAPTURE)."};
        return {error_code_t::OK, ""};
    }

    static std::unordered_map<int64_t, void*>
    by_uid(std::unordered_map<std::shared_ptr<Tensor_attributes>, void*> const& m) {
        std::unordered_map<int64_t, void*> out;
        for (auto const& kv : m) out.emplace(kv.first->get_uid(), kv.second);
        return out;
    }

   public:
    Graph() = default;

    // ----- graph-wide settings -----
    Graph&
    set_intermediate_data_type(DataType_t type) {
        context.set_intermediate_data_type(type);
        return *this;
    }
    Graph&
    set_io_data_type(DataType_t type) {
        context.set_io_data_type(type);
        return *this;
    }
    Graph&
    set_compute_data_type(DataType_t type) {
        context.set_compute_data_type(type);
        return *this;
    }
    Graph&
    set_name(std::string const& name) {
        context.set_name(name);
        return *this;
    }
    // Dynamic shapes are a build-time saving upstream (one kernel serves many shapes through the
    // kernel cache). hipDNN builds a plan per shape, which computes the same results, so the flag
    // is accepted and only changes key(); the engines' own plan caches make a repeated shape cheap.
    Graph&
    set_dynamic_shape_enabled(bool is_enabled) {
        context.set_dynamic_shape_enabled(is_enabled);
        return *this;
    }
    Graph&
    set_override_shape_enabled(bool is_enabled) {
        context.set_override_shape_enabled(is_enabled);
        if (is_enabled)
            unsupported.push_back("set_override_shape_enabled(true): not supported by the shim yet.");
        return *this;
    }
    // set_sm_count / set_sm_version are advisory CUDA targets; hipDNN plans for the handle's
    // device, so they are kept and ignored.
    Graph&
    set_sm_count(int32_t count) {
        context.set_sm_count(count);
        return *this;
    }
    Graph&
    set_sm_version(int32_t version) {
        context.set_sm_version(version);
        return *this;
    }
    // set_kernel_cache is accepted with dynamic shapes (above): the cache records the graphs that
    // built plans with it, and plans are never shared through it.
    Graph&
    set_kernel_cache(std::shared_ptr<KernelCache> cache) {
        kernel_cache = std::move(cache);
        return *this;
    }
    Graph&
    set_device_properties(std::shared_ptr<const DeviceProperties> device_prop) {
        if (device_prop)
            unsupported.push_back("set_device_properties: hipDNN plans for the handle's device only.");
        return *this;
    }

    // ----- tensors -----
    std::shared_ptr<Tensor_attributes>
    tensor(Tensor_attributes const& t) {
        auto p = std::make_shared<Tensor_attributes>(t);
        graph_inputs.push_back(p);
        return p;
    }
    std::shared_ptr<Tensor_attributes>
    tensor(float const& scalar, ScalarType scalar_type) {
        return tensor(Tensor_attributes(scalar, scalar_type));
    }
    std::shared_ptr<Tensor_attributes>
    tensor(half const& scalar, ScalarType scalar_type) {
        return tensor(Tensor_attributes(scalar, scalar_type));
    }
    std::shared_ptr<Tensor_attributes>
    tensor(nv_bfloat16 const& scalar, ScalarType scalar_type) {
        return tensor(Tensor_attributes(scalar, scalar_type));
    }
    std::shared_ptr<Tensor_attributes>
    tensor(int32_t const& scalar, ScalarType scalar_type) {
        return tensor(Tensor_attributes(scalar, scalar_type));
    }
    std::shared_ptr<Tensor_attributes>
    tensor(int64_t const& scalar, ScalarType scalar_type) {
        return tensor(Tensor_attributes(scalar, scalar_type));
    }
    std::shared_ptr<Tensor_attributes>
    tensor(double const& scalar, ScalarType scalar_type) {
        return tensor(Tensor_attributes(scalar, scalar_type));
    }
    // tensor_like copies t's properties (virtual flag included, as upstream) into a new graph
    // input, without its UID and with `name`.
    std::shared_ptr<Tensor_attributes>
    tensor_like(std::shared_ptr<Tensor_attributes> const& t, std::string const& name = std::string{}) {
        auto p = std::make_shared<Tensor_attributes>(*t);
        p->clear_uid();
        p->set_name(name);
        graph_inputs.push_back(p);
        return p;
    }

    error_t
    query_tensor_attributes_of_uid(int64_t const uid, Tensor_attributes& tensor) const {
        for (auto const& t : all_tensors())
            if (t->has_uid() && t->get_uid() == uid) {
                tensor = *t;
                return {error_code_t::OK, ""};
            }
        for (auto const& t : restored_tensors)  // after deserialize()
            if (t->get_uid() == uid) {
                tensor = *t;
                return {error_code_t::OK, ""};
            }
        return {error_code_t::INVALID_VALUE, "No matching tensor for uid " + std::to_string(uid) + "."};
    }

    // ----- nodes -----
    std::shared_ptr<Tensor_attributes>
    conv_fprop(std::shared_ptr<Tensor_attributes> x, std::shared_ptr<Tensor_attributes> w, Conv_fprop_attributes a) {
        name_node(a);
        auto Y = output_tensor(a.name + "::Y");
        a.outputs[Conv_fprop_attributes::output_names::Y] = Y;
        a.inputs[Conv_fprop_attributes::input_names::X]   = x;
        a.inputs[Conv_fprop_attributes::input_names::W]   = w;
        add_node<ConvolutionNode>(std::move(a));
        return Y;
    }

    std::shared_ptr<Tensor_attributes>
    conv_dgrad(std::shared_ptr<Tensor_attributes> dy, std::shared_ptr<Tensor_attributes> w, Conv_dgrad_attributes a) {
        name_node(a);
        auto DX = output_tensor(a.name + "::DX");
        a.outputs[Conv_dgrad_attributes::output_names::DX] = DX;
        a.inputs[Conv_dgrad_attributes::input_names::DY]   = dy;
        a.inputs[Conv_dgrad_attributes::input_names::W]    = w;
        add_node<DgradNode>(std::move(a));
        return DX;
    }

    std::shared_ptr<Tensor_attributes>
    conv_wgrad(std::shared_ptr<Tensor_attributes> dy, std::shared_ptr<Tensor_attributes> x, Conv_wgrad_attributes a) {
        name_node(a);
        auto DW = output_tensor(a.name + "::DW");
        a.outputs[Conv_wgrad_attributes::output_names::DW] = DW;
        a.inputs[Conv_wgrad_attributes::input_names::DY]   = dy;
        a.inputs[Conv_wgrad_attributes::input_names::X]    = x;
        add_node<WgradNode>(std::move(a));
        return DW;
    }

    std::shared_ptr<Tensor_attributes>
    matmul(std::shared_ptr<Tensor_attributes> a_t, std::shared_ptr<Tensor_attributes> b_t, Matmul_attributes a) {
        name_node(a);
        auto C = output_tensor(a.name + "::C");
        a.outputs[Matmul_attributes::output_names::C] = C;
        a.inputs[Matmul_attributes::input_names::A]   = a_t;
        a.inputs[Matmul_attributes::input_names::B]   = b_t;
        add_node<MatmulNode>(std::move(a));
        return C;
    }

    std::shared_ptr<Tensor_attributes>
    pointwise(std::shared_ptr<Tensor_attributes> in0, Pointwise_attributes a) {
        return pointwise_n(std::move(a), in0, nullptr, nullptr);
    }
    std::shared_ptr<Tensor_attributes>
    pointwise(std::shared_ptr<Tensor_attributes> in0, std::shared_ptr<Tensor_attributes> in1, Pointwise_attributes a) {
        return pointwise_n(std::move(a), in0, in1, nullptr);
    }
    std::shared_ptr<Tensor_attributes>
    pointwise(std::shared_ptr<Tensor_attributes> in0,
              std::shared_ptr<Tensor_attributes> in1,
              std::shared_ptr<Tensor_attributes> in2,
              Pointwise_attributes a) {
        return pointwise_n(std::move(a), in0, in1, in2);
    }

    std::shared_ptr<Tensor_attributes>
    reduction(std::shared_ptr<Tensor_attributes> x, Reduction_attributes a) {
        name_node(a);
        auto Y = output_tensor(a.name + "::Y");
        a.outputs[Reduction_attributes::output_names::Y] = Y;
        a.inputs[Reduction_attributes::input_names::X]   = x;
        add_node<ReductionNode>(std::move(a));
        return Y;
    }

    std::array<std::shared_ptr<Tensor_attributes>, 5>
    batchnorm(std::shared_ptr<Tensor_attributes> x,
              std::shared_ptr<Tensor_attributes> scale,
              std::shared_ptr<Tensor_attributes> bias,
              Batchnorm_attributes a) {
        using N = Batchnorm_attributes;
        name_node(a);
        auto Y       = output_tensor(a.name + "::Y");
        auto MEAN    = output_tensor(a.name + "::MEAN");
        auto INV_VAR = output_tensor(a.name + "::INV_VARIANCE");
        TensorPtr NEXT_MEAN, NEXT_VAR;
        if (a.inputs[N::input_names::PREV_RUNNING_MEAN] && a.inputs[N::input_names::PREV_RUNNING_VAR] &&
            a.inputs[N::input_names::MOMENTUM]) {
            NEXT_MEAN = output_tensor(a.name + "::NEXT_RUNNING_MEAN");
            NEXT_VAR  = output_tensor(a.name + "::NEXT_RUNNING_VAR");
        }
        a.outputs[N::output_names::Y]                 = Y;
        a.outputs[N::output_names::MEAN]              = MEAN;
        a.outputs[N::output_names::INV_VARIANCE]      = INV_VAR;
        a.outputs[N::output_names::NEXT_RUNNING_MEAN] = NEXT_MEAN;
        a.outputs[N::output_names::NEXT_RUNNING_VAR]  = NEXT_VAR;
        a.inputs[N::input_names::X]                   = x;
        a.inputs[N::input_names::SCALE]               = scale;
        a.inputs[N::input_names::BIAS]                = bias;
        add_node<BatchNormNode>(std::move(a));
        return {Y, MEAN, INV_VAR, NEXT_MEAN, NEXT_VAR};
    }

    std::shared_ptr<Tensor_attributes>
    batchnorm_inference(std::shared_ptr<Tensor_attributes> x,
                        std::shared_ptr<Tensor_attributes> mean,
                        std::shared_ptr<Tensor_attributes> inv_variance,
                        std::shared_ptr<Tensor_attributes> scale,
                        std::shared_ptr<Tensor_attributes> bias,
                        Batchnorm_inference_attributes a) {
        using N = Batchnorm_inference_attributes;
        name_node(a);
        auto Y                              = output_tensor(a.name + "::Y");
        a.outputs[N::output_names::Y]       = Y;
        a.inputs[N::input_names::X]         = x;
        a.inputs[N::input_names::MEAN]      = mean;
        a.inputs[N::input_names::INV_VARIANCE] = inv_variance;
        a.inputs[N::input_names::SCALE]     = scale;
        a.inputs[N::input_names::BIAS]      = bias;
        add_node<BatchNormInferenceNode>(std::move(a));
        return Y;
    }

    std::array<std::shared_ptr<Tensor_attributes>, 3>
    batchnorm_backward(std::shared_ptr<Tensor_attributes> dy,
                       std::shared_ptr<Tensor_attributes> x,
                       std::shared_ptr<Tensor_attributes> scale,
                       Batchnorm_backward_attributes a) {
        using N = Batchnorm_backward_attributes;
        name_node(a);
        auto DX = output_tensor(a.name + "::DX"), DSCALE = output_tensor(a.name + "::DSCALE"),
             DBIAS = output_tensor(a.name + "::DBIAS");
        a.outputs[N::output_names::DX]     = DX;
        a.outputs[N::output_names::DSCALE] = DSCALE;
        a.outputs[N::output_names::DBIAS]  = DBIAS;
        a.inputs[N::input_names::DY]       = dy;
        a.inputs[N::input_names::X]        = x;
        a.inputs[N::input_names::SCALE]    = scale;
        add_node<DBNNode>(std::move(a));
        return {DX, DSCALE, DBIAS};
    }

    std::array<std::shared_ptr<Tensor_attributes>, 3>
    layernorm(std::shared_ptr<Tensor_attributes> x,
              std::shared_ptr<Tensor_attributes> scale,
              std::shared_ptr<Tensor_attributes> bias,
              Layernorm_attributes a) {
        using N = Layernorm_attributes;
        name_node(a);
        auto Y = output_tensor(a.name + "::Y");
        TensorPtr MEAN, INV_VAR;
        if (a.forward_phase == NormFwdPhase_t::TRAINING) {
            MEAN    = output_tensor(a.name + "::MEAN");
            INV_VAR = output_tensor(a.name + "::INV_VARIANCE");
            a.outputs[N::output_names::MEAN]         = MEAN;
            a.outputs[N::output_names::INV_VARIANCE] = INV_VAR;
        }
        a.outputs[N::output_names::Y]   = Y;
        a.inputs[N::input_names::X]     = x;
        a.inputs[N::input_names::SCALE] = scale;
        a.inputs[N::input_names::BIAS]  = bias;
        add_node<LayerNormNode>(std::move(a));
        return {Y, MEAN, INV_VAR};
    }

    std::array<std::shared_ptr<Tensor_attributes>, 3>
    layernorm_backward(std::shared_ptr<Tensor_attributes> dy,
                       std::shared_ptr<Tensor_attributes> x,
                       std::shared_ptr<Tensor_attributes> scale,
                       Layernorm_backward_attributes a) {
        using N = Layernorm_backward_attributes;
        name_node(a);
        auto DX = output_tensor(a.name + "::DX"), DSCALE = output_tensor(a.name + "::DSCALE"),
             DBIAS = output_tensor(a.name + "::DBIAS");
        a.outputs[N::output_names::DX]     = DX;
        a.outputs[N::output_names::DSCALE] = DSCALE;
        a.outputs[N::output_names::DBIAS]  = DBIAS;
        a.inputs[N::input_names::DY]       = dy;
        a.inputs[N::input_names::X]        = x;
        a.inputs[N::input_names::SCALE]    = scale;
        add_node<DLNNode>(std::move(a));
        return {DX, DSCALE, DBIAS};
    }

    std::array<std::shared_ptr<Tensor_attributes>, 2>
    rmsnorm(std::shared_ptr<Tensor_attributes> x, std::shared_ptr<Tensor_attributes> scale, Rmsnorm_attributes a) {
        using N = Rmsnorm_attributes;
        name_node(a);
        auto Y = output_tensor(a.name + "::Y");
        TensorPtr INV_VAR;
        if (a.forward_phase == NormFwdPhase_t::TRAINING) {
            INV_VAR                                  = output_tensor(a.name + "::INV_VARIANCE");
            a.outputs[N::output_names::INV_VARIANCE] = INV_VAR;
        }
        a.outputs[N::output_names::Y]   = Y;
        a.inputs[N::input_names::X]     = x;
        a.inputs[N::input_names::SCALE] = scale;
        add_node<RMSNormNode>(std::move(a));
        return {Y, INV_VAR};
    }

    std::array<std::shared_ptr<Tensor_attributes>, 3>
    rmsnorm_backward(std::shared_ptr<Tensor_attributes> dy,
                     std::shared_ptr<Tensor_attributes> x,
                     std::shared_ptr<Tensor_attributes> scale,
                     std::shared_ptr<Tensor_attributes> inv_variance,
                     Rmsnorm_backward_attributes a) {
        using N = Rmsnorm_backward_attributes;
        name_node(a);
        auto DX = output_tensor(a.name + "::DX"), DSCALE = output_tensor(a.name + "::DSCALE");
        TensorPtr DBIAS;
        if (a.use_dbias.value_or(false)) DBIAS = output_tensor(a.name + "::DBIAS");
        a.outputs[N::output_names::DX]     = DX;
        a.outputs[N::output_names::DSCALE] = DSCALE;
        a.outputs[N::output_names::DBIAS]  = DBIAS;
        a.inputs[N::input_names::DY]       = dy;
        a.inputs[N::input_names::X]        = x;
        a.inputs[N::input_names::SCALE]    = scale;
        a.inputs[N::input_names::INV_VARIANCE] = inv_variance;
        add_node<DRMSNormNode>(std::move(a));
        return {DX, DSCALE, DBIAS};
    }

    std::array<std::shared_ptr<Tensor_attributes>, 2>
    resample(std::shared_ptr<Tensor_attributes> x, Resample_attributes a) {
        using N = Resample_attributes;
        name_node(a);
        auto Y = output_tensor(a.name + "::Y");
        TensorPtr INDEX;
        // Only max pooling has an index output (upstream returns none for the other modes).
        if (a.generate_index.value_or(false) && a.resample_mode == ResampleMode_t::MAXPOOL)
            INDEX = output_tensor(a.name + "::Index");
        a.outputs[N::output_names::Y]     = Y;
        a.outputs[N::output_names::Index] = INDEX;
        a.inputs[N::input_names::X]       = x;
        add_node<ResampleNode>(std::move(a));
        return {Y, INDEX};
    }

    std::array<std::shared_ptr<Tensor_attributes>, 2>
    block_scale_quantize(std::shared_ptr<Tensor_attributes> x, Block_scale_quantize_attributes a) {
        using N = Block_scale_quantize_attributes;
        name_node(a);
        auto Y = output_tensor(a.name + "::Y"), S = output_tensor(a.name + "::scale");
        a.outputs[N::output_names::Y]     = Y;
        a.outputs[N::output_names::scale] = S;
        a.inputs[N::input_names::X]       = x;
        add_stub(std::move(a), "block_scale_quantize", "no hipDNN engine implements block-scale quantization yet.");
        return {Y, S};
    }

    std::shared_ptr<Tensor_attributes>
    block_scale_dequantize(std::shared_ptr<Tensor_attributes> x,
                           std::shared_ptr<Tensor_attributes> scale,
                           Block_scale_dequantize_attributes a) {
        using N = Block_scale_dequantize_attributes;
        name_node(a);
        auto Y                            = output_tensor(a.name + "::Y");
        a.outputs[N::output_names::Y]     = Y;
        a.inputs[N::input_names::X]       = x;
        a.inputs[N::input_names::scale]   = scale;
        add_stub(std::move(a), "block_scale_dequantize", "no hipDNN engine implements block-scale dequantization yet.");
        return Y;
    }

    // ----- nodes declared but not lowered yet: Tier-2 stubs refused by name at validate() -----
    std::array<std::shared_ptr<Tensor_attributes>, 2>
    genstats(std::shared_ptr<Tensor_attributes> x, Genstats_attributes a) {
        using N = Genstats_attributes;
        name_node(a);
        auto SUM = output_tensor(a.name + "::SUM"), SQ_SUM = output_tensor(a.name + "::SQ_SUM");
        a.inputs[N::input_names::X]       = x;
        a.outputs[N::output_names::SUM]    = SUM;
        a.outputs[N::output_names::SQ_SUM] = SQ_SUM;
        add_stub(std::move(a), "genstats", "not supported by the shim yet (hipDNN has no statistics-generation node).");
        return {SUM, SQ_SUM};
    }

    std::array<std::shared_ptr<Tensor_attributes>, 6>
    bn_finalize(std::shared_ptr<Tensor_attributes> sum,
                std::shared_ptr<Tensor_attributes> sq_sum,
                std::shared_ptr<Tensor_attributes> scale,
                std::shared_ptr<Tensor_attributes> bias,
                std::shared_ptr<Tensor_attributes> epsilon,
                std::shared_ptr<Tensor_attributes> accum_count,
                BN_finalize_attributes a) {
        using N = BN_finalize_attributes;
        name_node(a);
        std::array<std::shared_ptr<Tensor_attributes>, 6> out = {
            output_tensor(a.name + "::EQ_SCALE"),     output_tensor(a.name + "::EQ_BIAS"),
            output_tensor(a.name + "::MEAN"),         output_tensor(a.name + "::INV_VARIANCE"),
            output_tensor(a.name + "::NEXT_RUNNING_MEAN"), output_tensor(a.name + "::NEXT_RUNNING_VAR")};
        a.inputs[N::input_names::SUM]         = sum;
        a.inputs[N::input_names::SQ_SUM]      = sq_sum;
        a.inputs[N::input_names::SCALE]       = scale;
        a.inputs[N::input_names::BIAS]        = bias;
        a.inputs[N::input_names::EPSILON]     = epsilon;
        a.inputs[N::input_names::ACCUM_COUNT] = accum_count;
        add_stub(std::move(a), "bn_finalize", "not supported by the shim yet (hipDNN has no batch-norm finalize node).");
        return out;
    }

    std::array<std::shared_ptr<Tensor_attributes>, 5>
    dbn_weight(std::shared_ptr<Tensor_attributes> dy,
               std::shared_ptr<Tensor_attributes> x,
               std::shared_ptr<Tensor_attributes> mean,
               std::shared_ptr<Tensor_attributes> inv_variance,
               std::shared_ptr<Tensor_attributes> scale,
               DBN_weight_attributes a) {
        using N = DBN_weight_attributes;
        name_node(a);
        std::array<std::shared_ptr<Tensor_attributes>, 5> out = {
            output_tensor(a.name + "::DSCALE"), output_tensor(a.name + "::DBIAS"),
            output_tensor(a.name + "::EQ_SCALE_DY"), output_tensor(a.name + "::EQ_SCALE_X"),
            output_tensor(a.name + "::EQ_BIAS")};
        a.inputs[N::input_names::DY]           = dy;
        a.inputs[N::input_names::X]            = x;
        a.inputs[N::input_names::MEAN]         = mean;
        a.inputs[N::input_names::INV_VARIANCE] = inv_variance;
        a.inputs[N::input_names::SCALE]        = scale;
        add_stub(std::move(a), "dbn_weight", "not supported by the shim yet; use batchnorm_backward.");
        return out;
    }

    std::array<std::shared_ptr<Tensor_attributes>, 3>
    instancenorm(std::shared_ptr<Tensor_attributes> x,
                 std::shared_ptr<Tensor_attributes> scale,
                 std::shared_ptr<Tensor_attributes> bias,
                 Instancenorm_attributes a) {
        return norm_stub(std::move(a), x, scale, bias, "instancenorm",
                         "not supported by the shim yet (hipDNN has no instance-norm node).");
    }

    std::array<std::shared_ptr<Tensor_attributes>, 3>
    adalayernorm(std::shared_ptr<Tensor_attributes> x,
                 std::shared_ptr<Tensor_attributes> scale,
                 std::shared_ptr<Tensor_attributes> bias,
                 AdaLayernorm_attributes a) {
        return norm_stub(std::move(a), x, scale, bias, "adalayernorm",
                         "not supported by the shim yet (hipDNN has no adaptive layer-norm node).");
    }

    std::array<std::shared_ptr<Tensor_attributes>, 3>
    instancenorm_backward(std::shared_ptr<Tensor_attributes> dy,
                          std::shared_ptr<Tensor_attributes> x,
                          std::shared_ptr<Tensor_attributes> scale,
                          Instancenorm_backward_attributes a) {
        return norm_backward_stub(std::move(a), dy, x, scale, "instancenorm_backward",
                                  "not supported by the shim yet (hipDNN has no instance-norm node).");
    }

    std::array<std::shared_ptr<Tensor_attributes>, 3>
    adalayernorm_backward(std::shared_ptr<Tensor_attributes> dy,
                          std::shared_ptr<Tensor_attributes> x,
                          std::shared_ptr<Tensor_attributes> scale,
                          AdaLayernorm_backward_attributes a) {
        return norm_backward_stub(std::move(a), dy, x, scale, "adalayernorm_backward",
                                  "not supported by the shim yet (hipDNN has no adaptive layer-norm node).");
    }

    std::shared_ptr<Tensor_attributes>
    reshape(std::shared_ptr<Tensor_attributes> x, Reshape_attributes a) {
        return unary_stub(std::move(a), x, "reshape", "not supported by the shim yet (hipDNN has no reshape node).");
    }

    std::shared_ptr<Tensor_attributes>
    transpose(std::shared_ptr<Tensor_attributes> x, Transpose_attributes a) {
        return unary_stub(std::move(a), x, "transpose", "not supported by the shim yet (hipDNN has no transpose node).");
    }

    std::shared_ptr<Tensor_attributes>
    slice(std::shared_ptr<Tensor_attributes> x, Slice_attributes a) {
        return unary_stub(std::move(a), x, "slice", "not supported by the shim yet (hipDNN has no slice node).");
    }

    std::shared_ptr<Tensor_attributes>
    concatenate(std::vector<std::shared_ptr<Tensor_attributes>> x, Concatenate_attributes a) {
        name_node(a);
        auto Y                                            = output_tensor(a.name + "::Y");
        a.inputs                                          = std::move(x);
        a.outputs[Concatenate_attributes::output_names::Y] = Y;
        add_stub(std::move(a), "concatenate", "not supported by the shim yet (hipDNN has no concatenate node).");
        return Y;
    }

    std::shared_ptr<Tensor_attributes>
    rng(std::shared_ptr<Tensor_attributes> seed, std::shared_ptr<Tensor_attributes> offset, Rng_attributes a) {
        name_node(a);
        auto Y                                      = output_tensor(a.name + "::Y");
        a.inputs[Rng_attributes::input_names::Seed]   = seed;
        a.inputs[Rng_attributes::input_names::Offset] = offset;
        a.outputs[Rng_attributes::output_names::Y]    = Y;
        add_stub(std::move(a), "rng", "not supported by the shim yet (hipDNN has no random-number node).");
        return Y;
    }

    // ----- attention (node/sdpa.h); the fp8 backward and MoE are Tier-2 stubs -----
    std::array<std::shared_ptr<Tensor_attributes>, 2>
    sdpa(std::shared_ptr<Tensor_attributes> q,
         std::shared_ptr<Tensor_attributes> k,
         std::shared_ptr<Tensor_attributes> v,
         SDPA_attributes a) {
        using N = SDPA_attributes;
        name_node(a);
        auto O = output_tensor(a.name + "::O");
        // Stats exists when asked for, as upstream returns it.
        TensorPtr Stats;
        if (a.generate_stats.value_or(false)) Stats = output_tensor(a.name + "::Stats");
        a.inputs[N::input_names::Q]       = q;
        a.inputs[N::input_names::K]       = k;
        a.inputs[N::input_names::V]       = v;
        a.outputs[N::output_names::O]     = O;
        a.outputs[N::output_names::Stats] = Stats;
        if (a.mma_core_mode == DataType_t::NOT_SET) a._set_mma_core_mode(DataType_t::HALF);  // as upstream
        sub_nodes.push_back(std::make_shared<SDPANode>(std::move(a), context, "sdpa"));
        return {O, Stats};
    }

    // sdpa_fp8 with descales and scales (Amax_S and Amax_O out).
    std::array<std::shared_ptr<Tensor_attributes>, 4>
    sdpa_fp8(std::shared_ptr<Tensor_attributes> q,
             std::shared_ptr<Tensor_attributes> k,
             std::shared_ptr<Tensor_attributes> v,
             std::shared_ptr<Tensor_attributes> descale_q,
             std::shared_ptr<Tensor_attributes> descale_k,
             std::shared_ptr<Tensor_attributes> descale_v,
             std::shared_ptr<Tensor_attributes> descale_s,
             std::shared_ptr<Tensor_attributes> scale_s,
             std::shared_ptr<Tensor_attributes> scale_o,
             SDPA_fp8_attributes a) {
        using N = SDPA_fp8_attributes;
        name_node(a);
        auto O = output_tensor(a.name + "::O"), AS = output_tensor(a.name + "::Amax_S"),
             AO = output_tensor(a.name + "::Amax_O");
        TensorPtr Stats;
        if (a.generate_stats.value_or(false)) Stats = output_tensor(a.name + "::Stats");
        a.inputs[N::input_names::Q]         = q;
        a.inputs[N::input_names::K]         = k;
        a.inputs[N::input_names::V]         = v;
        a.inputs[N::input_names::Descale_Q] = descale_q;
        a.inputs[N::input_names::Descale_K] = descale_k;
        a.inputs[N::input_names::Descale_V] = descale_v;
        a.inputs[N::input_names::Descale_S] = descale_s;
        a.inputs[N::input_names::Scale_S]   = scale_s;
        a.inputs[N::input_names::Scale_O]   = scale_o;
        a.outputs[N::output_names::O]       = O;
        a.outputs[N::output_names::Stats]   = Stats;
        a.outputs[N::output_names::Amax_S]  = AS;
        a.outputs[N::output_names::Amax_O]  = AO;
        if (a.mma_core_mode == DataType_t::NOT_SET) a._set_mma_core_mode(DataType_t::FP8_E4M3);  // as upstream
        sub_nodes.push_back(std::make_shared<SDPANode>(std::move(a), context, "sdpa_fp8"));
        return {O, Stats, AS, AO};
    }

    // sdpa_fp8 of MXFP8 inputs: block descales only, no amax outputs.
    std::array<std::shared_ptr<Tensor_attributes>, 3>
    sdpa_fp8(std::shared_ptr<Tensor_attributes> q,
             std::shared_ptr<Tensor_attributes> k,
             std::shared_ptr<Tensor_attributes> v,
             std::shared_ptr<Tensor_attributes> descale_q,
             std::shared_ptr<Tensor_attributes> descale_k,
             std::shared_ptr<Tensor_attributes> descale_v,
             SDPA_fp8_attributes a) {
        using N = SDPA_fp8_attributes;
        name_node(a);
        auto O = output_tensor(a.name + "::O"), AO = output_tensor(a.name + "::Amax_O");
        TensorPtr Stats;
        if (a.generate_stats.value_or(false)) Stats = output_tensor(a.name + "::Stats");
        a.inputs[N::input_names::Q]         = q;
        a.inputs[N::input_names::K]         = k;
        a.inputs[N::input_names::V]         = v;
        a.inputs[N::input_names::Descale_Q] = descale_q;
        a.inputs[N::input_names::Descale_K] = descale_k;
        a.inputs[N::input_names::Descale_V] = descale_v;
        a.outputs[N::output_names::O]       = O;
        a.outputs[N::output_names::Stats]   = Stats;
        a.outputs[N::output_names::Amax_O]  = AO;
        if (a.mma_core_mode == DataType_t::NOT_SET) a._set_mma_core_mode(DataType_t::FP8_E4M3);  // as upstream
        sub_nodes.push_back(std::make_shared<SDPANode>(std::move(a), context, "sdpa_fp8"));
        return {O, Stats, AO};
    }

    std::array<std::shared_ptr<Tensor_attributes>, 3>
    sdpa_backward(std::shared_ptr<Tensor_attributes> q,
                  std::shared_ptr<Tensor_attributes> k,
                  std::shared_ptr<Tensor_attributes> v,
                  std::shared_ptr<Tensor_attributes> o,
                  std::shared_ptr<Tensor_attributes> dO,
                  std::shared_ptr<Tensor_attributes> stats,
                  SDPA_backward_attributes a) {
        using N = SDPA_backward_attributes;
        name_node(a);
        auto dQ = output_tensor(a.name + "::dQ"), dK = output_tensor(a.name + "::dK"),
             dV = output_tensor(a.name + "::dV");
        a.inputs[N::input_names::Q]     = q;
        a.inputs[N::input_names::K]     = k;
        a.inputs[N::input_names::V]     = v;
        a.inputs[N::input_names::O]     = o;
        a.inputs[N::input_names::dO]    = dO;
        a.inputs[N::input_names::Stats] = stats;
        a.outputs[N::output_names::dQ]  = dQ;
        a.outputs[N::output_names::dK]  = dK;
        a.outputs[N::output_names::dV]  = dV;
        add_node<SDPABackwardNode>(std::move(a));
        return {dQ, dK, dV};
    }

    // sdpa_fp8_backward with per-tensor descales and scales: dQ, dK, dV and their amaxes, amax dP.
    std::array<std::shared_ptr<Tensor_attributes>, 7>
    sdpa_fp8_backward(std::shared_ptr<Tensor_attributes> q,
                      std::shared_ptr<Tensor_attributes> k,
                      std::shared_ptr<Tensor_attributes> v,
                      std::shared_ptr<Tensor_attributes> o,
                      std::shared_ptr<Tensor_attributes> dO,
                      std::shared_ptr<Tensor_attributes> stats,
                      std::shared_ptr<Tensor_attributes> descale_q,
                      std::shared_ptr<Tensor_attributes> descale_k,
                      std::shared_ptr<Tensor_attributes> descale_v,
                      std::shared_ptr<Tensor_attributes> descale_o,
                      std::shared_ptr<Tensor_attributes> descale_dO,
                      std::shared_ptr<Tensor_attributes> descale_s,
                      std::shared_ptr<Tensor_attributes> descale_dP,
                      std::shared_ptr<Tensor_attributes> scale_s,
                      std::shared_ptr<Tensor_attributes> scale_dQ,
                      std::shared_ptr<Tensor_attributes> scale_dK,
                      std::shared_ptr<Tensor_attributes> scale_dV,
                      std::shared_ptr<Tensor_attributes> scale_dP,
                      SDPA_fp8_backward_attributes a) {
        using N = SDPA_fp8_backward_attributes;
        name_node(a);
        std::array<std::shared_ptr<Tensor_attributes>, 7> out = {
            output_tensor(a.name + "::dQ"),      output_tensor(a.name + "::dK"),
            output_tensor(a.name + "::dV"),      output_tensor(a.name + "::Amax_dQ"),
            output_tensor(a.name + "::Amax_dK"), output_tensor(a.name + "::Amax_dV"),
            output_tensor(a.name + "::Amax_dP")};
        a.inputs[N::input_names::Q]          = q;
        a.inputs[N::input_names::K]          = k;
        a.inputs[N::input_names::V]          = v;
        a.inputs[N::input_names::O]          = o;
        a.inputs[N::input_names::dO]         = dO;
        a.inputs[N::input_names::Stats]      = stats;
        a.inputs[N::input_names::Descale_Q]  = descale_q;
        a.inputs[N::input_names::Descale_K]  = descale_k;
        a.inputs[N::input_names::Descale_V]  = descale_v;
        a.inputs[N::input_names::Descale_O]  = descale_o;
        a.inputs[N::input_names::Descale_dO] = descale_dO;
        a.inputs[N::input_names::Descale_S]  = descale_s;
        a.inputs[N::input_names::Descale_dP] = descale_dP;
        a.inputs[N::input_names::Scale_S]    = scale_s;
        a.inputs[N::input_names::Scale_dQ]   = scale_dQ;
        a.inputs[N::input_names::Scale_dK]   = scale_dK;
        a.inputs[N::input_names::Scale_dV]   = scale_dV;
        a.inputs[N::input_names::Scale_dP]   = scale_dP;
        add_stub(std::move(a), "sdpa_fp8_backward", kFp8BackwardStub);
        return out;
    }

    // sdpa_fp8_backward of MXFP8 inputs (transposed operands and their block descales): dQ, dK,
    // dV and their amaxes.
    std::array<std::shared_ptr<Tensor_attributes>, 6>
    sdpa_fp8_backward(std::shared_ptr<Tensor_attributes> q,
                      std::shared_ptr<Tensor_attributes> q_t,
                      std::shared_ptr<Tensor_attributes> k,
                      std::shared_ptr<Tensor_attributes> k_t,
                      std::shared_ptr<Tensor_attributes> v,
                      std::shared_ptr<Tensor_attributes> o_f16,
                      std::shared_ptr<Tensor_attributes> dO_f16,
                      std::shared_ptr<Tensor_attributes> dO,
                      std::shared_ptr<Tensor_attributes> dO_t,
                      std::shared_ptr<Tensor_attributes> stats,
                      std::shared_ptr<Tensor_attributes> descale_q,
                      std::shared_ptr<Tensor_attributes> descale_q_t,
                      std::shared_ptr<Tensor_attributes> descale_k,
                      std::shared_ptr<Tensor_attributes> descale_k_t,
                      std::shared_ptr<Tensor_attributes> descale_v,
                      std::shared_ptr<Tensor_attributes> descale_dO,
                      std::shared_ptr<Tensor_attributes> descale_dO_t,
                      SDPA_fp8_backward_attributes a) {
        using N = SDPA_fp8_backward_attributes;
        name_node(a);
        std::array<std::shared_ptr<Tensor_attributes>, 6> out = {
            output_tensor(a.name + "::dQ"),      output_tensor(a.name + "::dK"),
            output_tensor(a.name + "::dV"),      output_tensor(a.name + "::Amax_dQ"),
            output_tensor(a.name + "::Amax_dK"), output_tensor(a.name + "::Amax_dV")};
        a.inputs[N::input_names::Q]            = q;
        a.inputs[N::input_names::Q_T]          = q_t;
        a.inputs[N::input_names::K]            = k;
        a.inputs[N::input_names::K_T]          = k_t;
        a.inputs[N::input_names::V]            = v;
        a.inputs[N::input_names::O]            = o_f16;
        a.inputs[N::input_names::dO_f16]       = dO_f16;
        a.inputs[N::input_names::dO]           = dO;
        a.inputs[N::input_names::dO_T]         = dO_t;
        a.inputs[N::input_names::Stats]        = stats;
        a.inputs[N::input_names::Descale_Q]    = descale_q;
        a.inputs[N::input_names::Descale_Q_T]  = descale_q_t;
        a.inputs[N::input_names::Descale_K]    = descale_k;
        a.inputs[N::input_names::Descale_K_T]  = descale_k_t;
        a.inputs[N::input_names::Descale_V]    = descale_v;
        a.inputs[N::input_names::Descale_dO]   = descale_dO;
        a.inputs[N::input_names::Descale_dO_T] = descale_dO_t;
        add_stub(std::move(a), "sdpa_fp8_backward", kFp8BackwardStub);
        return out;
    }

    [[deprecated]] std::array<std::shared_ptr<Tensor_attributes>, 2>
    scaled_dot_product_flash_attention(std::shared_ptr<Tensor_attributes> q,
                                       std::shared_ptr<Tensor_attributes> k,
                                       std::shared_ptr<Tensor_attributes> v,
                                       SDPA_attributes attributes) {
        return sdpa(q, k, v, attributes);
    }

    [[deprecated]] std::array<std::shared_ptr<Tensor_attributes>, 3>
    scaled_dot_product_flash_attention_backward(std::shared_ptr<Tensor_attributes> q,
                                                std::shared_ptr<Tensor_attributes> k,
                                                std::shared_ptr<Tensor_attributes> v,
                                                std::shared_ptr<Tensor_attributes> o,
                                                std::shared_ptr<Tensor_attributes> dO,
                                                std::shared_ptr<Tensor_attributes> stats,
                                                SDPA_backward_attributes attributes) {
        return sdpa_backward(q, k, v, o, dO, stats, attributes);
    }

    std::shared_ptr<Tensor_attributes>
    moe_grouped_matmul(std::shared_ptr<Tensor_attributes> token,
                       std::shared_ptr<Tensor_attributes> weight,
                       std::shared_ptr<Tensor_attributes> first_token_offset,
                       std::shared_ptr<Tensor_attributes> token_index,
                       std::shared_ptr<Tensor_attributes> token_ks,
                       Moe_grouped_matmul_attributes a) {
        using N = Moe_grouped_matmul_attributes;
        name_node(a);
        auto Out                                    = output_tensor(a.name + "::Output");
        a.inputs[N::input_names::Token]             = token;
        a.inputs[N::input_names::Weight]            = weight;
        a.inputs[N::input_names::FirstTokenOffset]  = first_token_offset;
        a.inputs[N::input_names::TokenIndex]        = token_index;
        a.inputs[N::input_names::TokenKs]           = token_ks;
        a.outputs[N::output_names::Output]          = Out;
        add_stub(std::move(a), "moe_grouped_matmul",
                 "not supported by the shim yet (hipDNN has no MoE grouped-matmul engine).");
        return Out;
    }

    std::shared_ptr<Tensor_attributes>
    moe_grouped_matmul_bwd(std::shared_ptr<Tensor_attributes> doutput,
                           std::shared_ptr<Tensor_attributes> token,
                           std::shared_ptr<Tensor_attributes> first_token_offset,
                           Moe_grouped_matmul_bwd_attributes a) {
        using N = Moe_grouped_matmul_bwd_attributes;
        name_node(a);
        auto DW                                    = output_tensor(a.name + "::DWeight");
        a.inputs[N::input_names::DOutput]          = doutput;
        a.inputs[N::input_names::Token]            = token;
        a.inputs[N::input_names::FirstTokenOffset] = first_token_offset;
        a.outputs[N::output_names::DWeight]        = DW;
        add_stub(std::move(a), "moe_grouped_matmul_bwd",
                 "not supported by the shim yet (hipDNN has no MoE grouped-matmul engine).");
        return DW;
    }

    // ----- validation and lowering -----

    // validate checks every node's inputs and infers its outputs, in node order.
    error_t
    validate() {
        CUDNN_FE_LOG_BANNER("VALIDATING GRAPH");
        if (!unsupported.empty()) return {error_code_t::GRAPH_NOT_SUPPORTED, unsupported.front()};
        for (auto const& t : graph_inputs) CHECK_CUDNN_FRONTEND_ERROR(t->validate());
        for (auto const& n : sub_nodes) {
            CHECK_CUDNN_FRONTEND_ERROR(n->validate_inputs());
            n->fill_from_context();
            std::vector<TensorPtr> ins, outs;
            n->collect_tensors(ins, outs);
            for (auto const& t : ins) {
                auto err = t->validate();
                if (err.is_bad()) return {err.code, n->label() + ": " + err.err_msg};
            }
            CHECK_CUDNN_FRONTEND_ERROR(n->infer_properties_node());
            for (auto const& t : outs) {
                auto err = t->validate();
                if (err.is_bad()) return {err.code, n->label() + ": " + err.err_msg};
            }
            CHECK_CUDNN_FRONTEND_ERROR(n->validate_shapes());
        }
        // A duplicate UID is caught here already, as upstream does.
        std::unordered_map<uid_t, std::string> used;
        for (auto const& t : all_tensors()) {
            if (!t->has_uid()) continue;
            auto it = used.find(t->get_uid());
            if (it != used.end())
                return {error_code_t::INVALID_VALUE, "uid " + std::to_string(t->get_uid()) + " for tensor named " +
                                                         t->get_name() +
                                                         " has been already assigned to another tensor (" +
                                                         it->second + ")."};
            used.emplace(t->get_uid(), t->get_name());
        }
        validated = true;
        return {error_code_t::OK, ""};
    }

    error_t
    build_operation_graph(cudnnHandle_t handle) {
        CUDNN_FE_LOG_BANNER("BUILD OP GRAPH");
        if (!validated) CHECK_CUDNN_FRONTEND_ERROR(validate());
        if (!unsupported.empty()) return {error_code_t::GRAPH_NOT_SUPPORTED, unsupported.front()};
        if (sub_nodes.empty()) return {error_code_t::GRAPH_NOT_SUPPORTED, "the graph has no nodes."};
        CHECK_CUDNN_FRONTEND_ERROR(ensure_handle(handle));
        CHECK_CUDNN_FRONTEND_ERROR(assign_uids());
        lowering = detail::Lowering{};
        for (auto const& n : sub_nodes) CHECK_CUDNN_FRONTEND_ERROR(n->create_operation(lowering));
        detail::managed_descriptor g;
        CHECK_CUDNN_FRONTEND_ERROR(detail::make_descriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, "operation graph", g));
        std::vector<hipdnnBackendDescriptor_t> ops;
        for (auto const& op : lowering.operations) ops.push_back(op->get_ptr());
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR,
                                                    static_cast<int64_t>(ops.size()), ops.data(), "operation graph"));
        CHECK_CUDNN_FRONTEND_ERROR(
            detail::set_attr(g, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &handle_, "operation graph"));
        std::string const gname = context.get_name();
        if (!gname.empty())
            CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(g, HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT, HIPDNN_TYPE_CHAR,
                                                        static_cast<int64_t>(gname.size()), gname.data(),
                                                        "operation graph"));
        CHECK_CUDNN_FRONTEND_ERROR(detail::finalize(g, "operation graph"));
        operation_graph = g;
        plans           = Execution_plan_list{};
        for (auto const& n : sub_nodes)  // set_deterministic_algorithm, by meaning
            if (n->wants_deterministic()) plans.deselected_numeric.push_back(NumericalNote_t::NONDETERMINISTIC);
        engine_ids.clear();
        engines_listed = false;
        return {error_code_t::OK, ""};
    }

    error_t
    build_operation_graph() {
        return build_operation_graph(nullptr);
    }

    // ----- plans -----

    // create_execution_plans asks hipDNN's heuristic for ranked engine configs. Every mode maps
    // onto the backend's one heuristic mode and its policy order (docs/cudnn-shim.md); several
    // modes give the same list once.
    error_t
    create_execution_plans(std::vector<HeurMode_t> const& modes) {
        if (!operation_graph)
            return {error_code_t::HEURISTIC_QUERY_FAILED, "create_execution_plans: call build_operation_graph first."};
        for (auto m : modes) warn_once(m);
        plans.candidates.clear();
        plans.candidate           = -1;
        plans.alternatives_listed = false;
        CHECK_CUDNN_FRONTEND_ERROR(query_heuristic(plans, "create_execution_plans"));
        if (plans.candidates.empty()) {
            // The backend leaves each engine's reason as the last error; read once: reading clears it.
            std::string const why = detail::last_backend_error();
            return {error_code_t::HEURISTIC_QUERY_FAILED,
                    "create_execution_plans: " + (why.empty() ? std::string("no engine of hipDNN can run this graph") : why)};
        }
        return {error_code_t::OK, ""};
    }

    // query_heuristic appends hipDNN's ranked engine configs for the operation graph to `into`
    // (backend heuristic, HIPDNN_HEUR_MODE_FALLBACK, the configured policy order). Only the first
    // config is read now; the others when needed (plans.h).
    error_t
    query_heuristic(Execution_plan_list& into, char const* caller) const {
        detail::managed_descriptor heur;
        CHECK_CUDNN_FRONTEND_ERROR(detail::make_descriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, "engine heuristic", heur));
        CHECK_CUDNN_FRONTEND_ERROR(
            detail::set_desc(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, operation_graph, "engine heuristic"));
        hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
        CHECK_CUDNN_FRONTEND_ERROR(
            detail::set_attr(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode, "engine heuristic"));
        auto err = detail::finalize(heur, "engine heuristic");
        if (err.is_bad()) return {error_code_t::HEURISTIC_QUERY_FAILED, err.err_msg};
        int64_t count = 0;
        hipdnnStatus_t st = hipdnnBackendGetAttribute(heur->get_ptr(), HIPDNN_ATTR_ENGINEHEUR_RESULTS,
                                                      HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, nullptr);
        if (st != HIPDNN_STATUS_SUCCESS) return detail::backend_error(st, error_code_t::HEURISTIC_QUERY_FAILED, caller);
        into.heuristic.reset();
        into.from_heuristic = 0;
        if (count <= 0) return {error_code_t::OK, ""};
        detail::managed_descriptor first;
        CHECK_CUDNN_FRONTEND_ERROR(detail::make_descriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, "engine config", first));
        hipdnnBackendDescriptor_t raw = first->get_ptr();
        int64_t got                   = 0;
        st = hipdnnBackendGetAttribute(heur->get_ptr(), HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR,
                                       1, &got, &raw);
        if (st != HIPDNN_STATUS_SUCCESS) return detail::backend_error(st, error_code_t::HEURISTIC_QUERY_FAILED, caller);
        if (got <= 0) return {error_code_t::OK, ""};
        into.candidates.resize(static_cast<size_t>(count));
        into.candidates[0].config = first;
        into.from_heuristic       = count;
        if (count > 1) into.heuristic = heur;
        return {error_code_t::OK, ""};
    }

    // list_engines fills engine_ids once: the distinct hipDNN engines that apply to the graph, in
    // the heuristic's order. Index i of get_engine_count's range is engine_ids[i].
    error_t
    list_engines(char const* caller) const {
        if (engines_listed) return {error_code_t::OK, ""};
        if (!operation_graph)
            return {error_code_t::GRAPH_EXECUTION_PLAN_CREATION_FAILED,
                    std::string(caller) + ": call build_operation_graph first."};
        Execution_plan_list all;
        CHECK_CUDNN_FRONTEND_ERROR(query_heuristic(all, caller));
        for (auto& c : all.candidates) {
            all.describe(c);
            if (detail::device_buffers() && detail::is_host_memory_engine(c.name)) continue;  // device_buffers.h
            if (c.engine_id != -1 && std::find(engine_ids.begin(), engine_ids.end(), c.engine_id) == engine_ids.end())
                engine_ids.push_back(c.engine_id);
        }
        engines_listed = true;
        return {error_code_t::OK, ""};
    }

    // make_engine_config makes and finalizes a config of hipDNN engine `id` on the operation
    // graph, with integer knob `knob` set to `value` when a knob is named.
    error_t
    make_engine_config(int64_t id, std::string const& knob, int64_t value, std::string const& what,
                       detail::managed_descriptor& cfg) const {
        detail::managed_descriptor engine;
        CHECK_CUDNN_FRONTEND_ERROR(detail::make_descriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, what, engine));
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_desc(engine, HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, operation_graph, what));
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(engine, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &id, what));
        CHECK_CUDNN_FRONTEND_ERROR(detail::finalize(engine, what));
        CHECK_CUDNN_FRONTEND_ERROR(detail::make_descriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, "engine config", cfg));
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_desc(cfg, HIPDNN_ATTR_ENGINECFG_ENGINE, engine, "engine config"));
        if (!knob.empty()) {
            detail::managed_descriptor choice;
            CHECK_CUDNN_FRONTEND_ERROR(detail::make_descriptor(HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR, "knob choice", choice));
            CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(choice, HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE, HIPDNN_TYPE_CHAR,
                                                        static_cast<int64_t>(knob.size()), knob.data(), "knob choice"));
            CHECK_CUDNN_FRONTEND_ERROR(
                detail::set_attr(choice, HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, HIPDNN_TYPE_INT64, 1, &value, "knob choice"));
            CHECK_CUDNN_FRONTEND_ERROR(detail::finalize(choice, "knob choice " + knob));
            CHECK_CUDNN_FRONTEND_ERROR(detail::set_desc(cfg, HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES, choice, "engine config"));
        }
        return detail::finalize(cfg, "engine config of " + what);
    }

    // config_knob finds the configuration-index knob (HIPDNN_PLUGIN_CONFIG_KNOB_SUFFIX in
    // EngineNames.h) of candidate c's engine on this graph: its id, largest index and default
    // index. False when the engine has none or offers a single configuration.
    bool
    config_knob(Execution_plan_list::Candidate& c, std::string& id, int64_t& last, int64_t& dflt) const {
        if (plans.finalized_config(c).is_bad()) return false;
        detail::managed_descriptor engine;
        if (detail::make_descriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, "engine", engine).is_bad()) return false;
        hipdnnBackendDescriptor_t eraw = engine->get_ptr();
        int64_t n = 0;
        if (hipdnnBackendGetAttribute(c.config->get_ptr(), HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                                      &n, &eraw) != HIPDNN_STATUS_SUCCESS ||
            hipdnnBackendGetAttribute(eraw, HIPDNN_ATTR_ENGINE_KNOB_INFO, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &n,
                                      nullptr) != HIPDNN_STATUS_SUCCESS ||
            n <= 0)
            return false;
        std::vector<detail::managed_descriptor> infos(static_cast<size_t>(n));
        std::vector<hipdnnBackendDescriptor_t> raw;
        for (auto& k : infos) {
            if (detail::make_descriptor(HIPDNN_BACKEND_KNOB_INFO_DESCRIPTOR, "knob info", k).is_bad()) return false;
            raw.push_back(k->get_ptr());
        }
        int64_t got = 0;
        if (hipdnnBackendGetAttribute(eraw, HIPDNN_ATTR_ENGINE_KNOB_INFO, HIPDNN_TYPE_BACKEND_DESCRIPTOR, n, &got,
                                      raw.data()) != HIPDNN_STATUS_SUCCESS)
            return false;
        std::string const suffix = HIPDNN_PLUGIN_CONFIG_KNOB_SUFFIX;
        for (int64_t i = 0; i < got && i < n; ++i) {
            char name[256] = {0};
            int64_t len = 0, lo = 0, hi = 0, d = -1, type = 0;
            if (hipdnnBackendGetAttribute(raw[i], HIPDNN_ATTR_KNOB_INFO_TYPE, HIPDNN_TYPE_CHAR, sizeof name - 1, &len,
                                          name) != HIPDNN_STATUS_SUCCESS)
                continue;
            std::string const knob(name);
            if (knob.size() <= suffix.size() || knob.compare(knob.size() - suffix.size(), suffix.size(), suffix) != 0)
                continue;
            if (hipdnnBackendGetAttribute(raw[i], HIPDNN_ATTR_KNOB_INFO_DEFAULT_VALUE_TYPE, HIPDNN_TYPE_INT64, 1, &len,
                                          &type) != HIPDNN_STATUS_SUCCESS ||
                type != HIPDNN_TYPE_INT64 ||
                hipdnnBackendGetAttribute(raw[i], HIPDNN_ATTR_KNOB_INFO_MINIMUM_VALUE, HIPDNN_TYPE_INT64, 1, &len, &lo) !=
                    HIPDNN_STATUS_SUCCESS ||
                hipdnnBackendGetAttribute(raw[i], HIPDNN_ATTR_KNOB_INFO_MAXIMUM_VALUE, HIPDNN_TYPE_INT64, 1, &len, &hi) !=
                    HIPDNN_STATUS_SUCCESS ||
                hipdnnBackendGetAttribute(raw[i], HIPDNN_ATTR_KNOB_INFO_DEFAULT_VALUE, HIPDNN_TYPE_INT64, 1, &len, &d) !=
                    HIPDNN_STATUS_SUCCESS)
                continue;
            if (lo != -1 || hi < 1) return false;
            id   = knob;
            last = hi;
            dflt = d;
            return true;
        }
        return false;
    }

    // list_alternatives puts, after each of the heuristic's candidates whose engine publishes a
    // configuration-index knob, one candidate per other index: the cuDNN engine's other cuDNN
    // configs, as upstream lists every cuDNN config. An alternative that rounds its inputs down
    // (DOWN_CONVERT_INPUTS: TF32 on fp32 data) where the default config does not is left out, so
    // an fp32 graph keeps fp32 arithmetic. Once per plan list, and only when more than the first
    // candidate is asked for (the count, build_plans(ALL), a workspace limit), so a plain build
    // reads no knob.
    error_t
    list_alternatives() const {
        if (plans.alternatives_listed) return {error_code_t::OK, ""};
        plans.alternatives_listed = true;
        CHECK_CUDNN_FRONTEND_ERROR(plans.read_heuristic_configs());
        auto has = [](auto const& v, auto x) { return std::find(v.begin(), v.end(), x) != v.end(); };
        std::vector<Execution_plan_list::Candidate> out;
        int64_t chosen = -1;
        for (size_t i = 0; i < plans.candidates.size(); ++i) {
            auto& c = plans.candidates[i];
            std::vector<Execution_plan_list::Candidate> alts;
            std::string knob;
            int64_t last = 0, dflt = -1;
            if (static_cast<int64_t>(i) < plans.from_heuristic && c.excluded.empty() && config_knob(c, knob, last, dflt)) {
                plans.describe(c);
                bool const keeps_inputs = !has(c.numerical_notes, NumericalNote_t::DOWN_CONVERT_INPUTS);
                for (int64_t r = 0; r <= last; ++r) {
                    if (r == dflt) continue;
                    Execution_plan_list::Candidate a;
                    if (make_engine_config(c.engine_id, knob, r, c.name + " " + knob + "=" + std::to_string(r), a.config)
                            .is_bad())
                        continue;
                    a.finalized = true;
                    hipdnnBackendNumericalNote_t notes[HIPDNN_NUMERICAL_NOTE_TYPE_COUNT];
                    int64_t n = 0;
                    if (keeps_inputs &&
                        hipdnnBackendGetAttribute(a.config->get_ptr(), HIPDNN_ATTR_ENGINE_NUMERICAL_NOTE,
                                                  HIPDNN_TYPE_NUMERICAL_NOTE, HIPDNN_NUMERICAL_NOTE_TYPE_COUNT, &n,
                                                  notes) == HIPDNN_STATUS_SUCCESS &&
                        std::find(notes, notes + n, HIPDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS) != notes + n)
                        continue;
                    alts.push_back(std::move(a));
                }
            }
            if (static_cast<int64_t>(i) == plans.candidate) chosen = static_cast<int64_t>(out.size());
            out.push_back(std::move(c));
            for (auto& a : alts) out.push_back(std::move(a));
        }
        plans.from_heuristic += static_cast<int64_t>(out.size() - plans.candidates.size());
        plans.candidates = std::move(out);
        plans.candidate  = chosen;
        return {error_code_t::OK, ""};
    }

    // create_execution_plan adds the config of one engine: `engine_id` is an index into
    // get_engine_count's range (hipDNN's applicable engines, in the heuristic's order) or a hipDNN
    // engine id. hipDNN engines publish no knob of cuDNN's KnobType_t, so knobs must be empty.
    error_t
    create_execution_plan(int64_t const engine_id, std::unordered_map<KnobType_t, int64_t> const& knobs) {
        if (!knobs.empty())
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    "create_execution_plan: knob type " + std::to_string(static_cast<int>(knobs.begin()->first)) +
                        " has no counterpart in hipDNN's engines (get_knobs_for_engine lists none)."};
        if (!operation_graph)
            return {error_code_t::GRAPH_EXECUTION_PLAN_CREATION_FAILED,
                    "create_execution_plan: call build_operation_graph first."};
        int64_t id = engine_id;
        if (engine_id >= 0 && list_engines("create_execution_plan").is_good() &&
            engine_id < static_cast<int64_t>(engine_ids.size()))
            id = engine_ids[static_cast<size_t>(engine_id)];
        detail::managed_descriptor cfg;
        CHECK_CUDNN_FRONTEND_ERROR(make_engine_config(id, "", 0, "engine " + std::to_string(engine_id), cfg));
        Execution_plan_list::Candidate c;
        c.config    = cfg;
        c.finalized = true;
        plans.candidates.push_back(std::move(c));
        return {error_code_t::OK, ""};
    }

    // As upstream counts every cuDNN config, the count includes the engines' own configurations
    // (list_alternatives).
    int64_t
    get_execution_plan_count() const {
        (void)list_alternatives();
        return static_cast<int64_t>(plans.candidates.size());
    }

    // get_engine_count counts hipDNN's engines that apply to the graph (upstream counts every
    // cuDNN engine; hipDNN engine ids are name hashes, so the range 0..count-1 indexes this list).
    error_t
    get_engine_count(int64_t& count) {
        count = 0;
        CHECK_CUDNN_FRONTEND_ERROR(list_engines("get_engine_count"));
        count = static_cast<int64_t>(engine_ids.size());
        return {error_code_t::OK, ""};
    }
    // get_knobs_for_engine lists no knobs: hipDNN's engine knobs have no cuDNN KnobType_t.
    error_t
    get_knobs_for_engine(int64_t const engine, std::vector<Knob>& knobs) {
        knobs.clear();
        CHECK_CUDNN_FRONTEND_ERROR(list_engines("get_knobs_for_engine"));
        if (engine < 0 || engine >= static_cast<int64_t>(engine_ids.size()))
            return {error_code_t::INVALID_VALUE, "get_knobs_for_engine: engine " + std::to_string(engine) +
                                                     " is out of range [0, " + std::to_string(engine_ids.size()) +
                                                     ") (get_engine_count)."};
        return {error_code_t::OK, ""};
    }

    // check_support succeeds when some remaining candidate builds (hipDNN decides support when
    // it finalizes a plan, so the plan is built here and kept). As upstream, it does not choose
    // the plan execute() uses: build_plans does, and get_behavior_notes fails until then.
    error_t
    check_support(cudnnHandle_t h) {
        (void)h;
        return check_support();
    }
    error_t
    check_support() {
        if (!unsupported.empty()) return {error_code_t::GRAPH_NOT_SUPPORTED, unsupported.front()};
        if (plans.max_workspace >= 0) CHECK_CUDNN_FRONTEND_ERROR(list_alternatives());
        plans.apply_filters();
        int64_t index = -1;
        return plans.first_buildable(index);
    }

    error_t
    build_plans(cudnnHandle_t const& handle,
                BuildPlanPolicy_t const policy     = BuildPlanPolicy_t::HEURISTICS_CHOICE,
                bool const do_multithreaded_builds = false) {
        (void)handle;
        return build_plans(policy, do_multithreaded_builds);
    }
    error_t
    build_plans(BuildPlanPolicy_t const policy = BuildPlanPolicy_t::HEURISTICS_CHOICE,
                bool const do_multithreaded_builds = false) {
        (void)do_multithreaded_builds;  // plans build one after another
        if (!unsupported.empty()) return {error_code_t::GRAPH_NOT_SUPPORTED, unsupported.front()};
        if (plans.max_workspace >= 0 || policy == BuildPlanPolicy_t::ALL) CHECK_CUDNN_FRONTEND_ERROR(list_alternatives());
        plans.apply_filters();
        int64_t index = -1;
        CHECK_CUDNN_FRONTEND_ERROR(plans.first_buildable(index));
        if (plans.candidate < 0 || !plans.candidates[plans.candidate].plan) plans.candidate = index;
        if (policy == BuildPlanPolicy_t::ALL)
            for (size_t i = 0; i < plans.candidates.size(); ++i) (void)plans.build(static_cast<int64_t>(i));
        if (kernel_cache) kernel_cache->record_build();
        return {error_code_t::OK, ""};
    }

    error_t
    build_plan_at_index(cudnnHandle_t const& handle, int64_t index) {
        (void)handle;
        return build_plan_at_index(index);
    }
    error_t
    build_plan_at_index(int64_t index) {
        CHECK_CUDNN_FRONTEND_ERROR(list_alternatives());
        plans.apply_filters();
        CHECK_CUDNN_FRONTEND_ERROR(plans.build(index));
        plans.candidate = index;  // as upstream: execute() runs the plan built last
        return {error_code_t::OK, ""};
    }

    error_t
    build(cudnnHandle_t const& handle,
          std::vector<HeurMode_t> const& modes,
          BuildPlanPolicy_t const policy     = BuildPlanPolicy_t::HEURISTICS_CHOICE,
          bool const do_multithreaded_builds = false) {
        CHECK_CUDNN_FRONTEND_ERROR(validate());
        CHECK_CUDNN_FRONTEND_ERROR(build_operation_graph(handle));
        CHECK_CUDNN_FRONTEND_ERROR(create_execution_plans(modes));
        CHECK_CUDNN_FRONTEND_ERROR(check_support());
        return build_plans(policy, do_multithreaded_builds);
    }
    error_t
    build(std::vector<HeurMode_t> const& modes,
          BuildPlanPolicy_t const policy     = BuildPlanPolicy_t::HEURISTICS_CHOICE,
          bool const do_multithreaded_builds = false) {
        return build(nullptr, modes, policy, do_multithreaded_builds);
    }

    // ----- plan filters (applied at check_support / build_plans) -----
    Graph&
    deselect_workspace_greater_than(int64_t const workspace) {
        plans.max_workspace = workspace;
        return *this;
    }
    // deselect_shared_mem_greater_than: plans do not expose shared-memory use, so a limit cannot
    // be honoured and is refused (a zero limit means "no limit" and is accepted).
    Graph&
    deselect_shared_mem_greater_than(int64_t const shared_mem) {
        if (shared_mem != 0)
            unsupported.push_back("deselect_shared_mem_greater_than(" + std::to_string(shared_mem) +
                                  "): hipDNN plans do not report shared-memory use.");
        return *this;
    }
    Graph&
    deselect_engines(std::vector<std::string> const& engine_names) {
        plans.deselected_engines.insert(plans.deselected_engines.end(), engine_names.begin(), engine_names.end());
        return *this;
    }
    Graph&
    select_behavior_notes(std::vector<BehaviorNote_t> const& notes) {
        plans.selected_behavior.insert(plans.selected_behavior.end(), notes.begin(), notes.end());
        return *this;
    }
    Graph&
    select_numeric_notes(std::vector<NumericalNote_t> const& notes) {
        plans.selected_numeric.insert(plans.selected_numeric.end(), notes.begin(), notes.end());
        return *this;
    }
    Graph&
    deselect_behavior_notes(std::vector<BehaviorNote_t> const& notes) {
        plans.deselected_behavior.insert(plans.deselected_behavior.end(), notes.begin(), notes.end());
        return *this;
    }
    Graph&
    deselect_numeric_notes(std::vector<NumericalNote_t> const& notes) {
        plans.deselected_numeric.insert(plans.deselected_numeric.end(), notes.begin(), notes.end());
        return *this;
    }

    error_t
    get_behavior_notes_for_plan_at_index(int64_t const index, std::vector<BehaviorNote_t>& notes) const {
        if (index < 0 || index >= static_cast<int64_t>(plans.candidates.size()))
            return {error_code_t::INVALID_VALUE, "plan index " + std::to_string(index) + " is out of range."};
        plans.describe(plans.candidates[index]);
        notes = plans.candidates[index].behavior_notes;
        return {error_code_t::OK, ""};
    }
    error_t
    get_behavior_notes(std::vector<BehaviorNote_t>& notes) const {
        if (plans.candidate < 0)
            return {error_code_t::INVALID_VALUE,
                    "get_behavior_notes: no plan has been chosen yet (build_plans chooses one; "
                    "get_behavior_notes_for_plan_at_index reads a candidate's notes before that)."};
        return get_behavior_notes_for_plan_at_index(plans.candidate, notes);
    }

    // ----- plan queries -----
    error_t
    get_plan_name(std::string& name) const {
        return get_plan_name_at_index(plans.candidate, name);
    }
    error_t
    get_plan_name_at_index(int64_t plan_index, std::string& name) const {
        if (plan_index < 0 || plan_index >= static_cast<int64_t>(plans.candidates.size()))
            return {error_code_t::INVALID_VALUE, "plan index " + std::to_string(plan_index) + " is out of range."};
        plans.describe(plans.candidates[plan_index]);
        name = plans.candidates[plan_index].name;
        return {error_code_t::OK, ""};
    }
    error_t
    get_workspace_size(int64_t& cudnn_workspace_size) const {
        return get_workspace_size_plan_at_index(plans.candidate, cudnn_workspace_size);
    }
    error_t
    get_workspace_size_plan_at_index(int64_t plan_index, int64_t& cudnn_workspace_size) const {
        CHECK_CUDNN_FRONTEND_ERROR(plans.is_plan_index_executable(plan_index));
        cudnn_workspace_size = plans.candidates[plan_index].workspace;
        return {error_code_t::OK, ""};
    }
    int64_t
    get_workspace_size() const {
        return get_workspace_size_plan_at_index(plans.candidate);
    }
    int64_t
    get_workspace_size_plan_at_index(int64_t plan_index) const {
        int64_t ws = 0;
        auto err   = get_workspace_size_plan_at_index(plan_index, ws);
        return err.is_good() ? ws : -1;
    }
    int64_t
    get_autotune_workspace_size() const {
        int64_t m = 0;
        for (auto const& c : plans.candidates)
            if (c.plan) m = std::max(m, c.workspace);
        return m;
    }

    // ----- execution -----
    error_t
    execute(cudnnHandle_t handle,
            std::unordered_map<std::shared_ptr<Tensor_attributes>, void*>& tensor_to_pointer_map,
            void* workspace) const {
        return execute_impl(handle, tensor_to_pointer_map, workspace, plans.candidate);
    }
    error_t
    execute(cudnnHandle_t handle, std::unordered_map<int64_t, void*>& tensor_uid_to_pointer_map, void* workspace) const {
        return execute_impl(handle, tensor_uid_to_pointer_map, workspace, plans.candidate);
    }
    // The shape-override overload is a Tier-2 stub until the shim lowers override shapes.
    error_t
    execute(cudnnHandle_t handle,
            std::unordered_map<int64_t, void*>& tensor_uid_to_pointer_map,
            void* workspace,
            std::vector<int64_t> const& override_uids,
            std::vector<std::vector<int64_t>> const& override_shapes,
            std::vector<std::vector<int64_t>> const& override_strides) const {
        if (!override_uids.empty() || !override_shapes.empty() || !override_strides.empty())
            return {error_code_t::GRAPH_NOT_SUPPORTED, "execute with shape overrides is not supported by the shim yet."};
        return execute(handle, tensor_uid_to_pointer_map, workspace);
    }
    // execute with pointers in ascending UID order of the graph's non-virtual tensors.
    error_t
    execute(cudnnHandle_t handle, void** sorted_user_ptrs, int n_user, void* workspace) const {
        if (n_user != static_cast<int>(variant_uids.size()))
            return {error_code_t::INVALID_VARIANT_PACK, "execute: " + std::to_string(n_user) +
                                                            " pointers given, the graph binds " +
                                                            std::to_string(variant_uids.size()) + "."};
        return run_bound(handle, sorted_user_ptrs, workspace, plans.candidate);
    }
    error_t
    execute_plan_at_index(cudnnHandle_t handle,
                          std::unordered_map<std::shared_ptr<Tensor_attributes>, void*>& tensor_to_pointer_map,
                          void* workspace,
                          int64_t plan_index) const {
        return execute_impl(handle, tensor_to_pointer_map, workspace, plan_index);
    }
    error_t
    execute_plan_at_index(cudnnHandle_t handle,
                          std::unordered_map<int64_t, void*>& tensor_uid_to_pointer_map,
                          void* workspace,
                          int64_t plan_index) const {
        return execute_impl(handle, tensor_uid_to_pointer_map, workspace, plan_index);
    }

    // ----- CUDA graphs (backend/cuda_graph.h) -----
    error_t
    populate_cuda_graph(cudnnHandle_t handle,
                        std::unordered_map<std::shared_ptr<Tensor_attributes>, void*>& tensor_to_pointer_map,
                        void* workspace,
                        cudaGraph_t cudnn_cuda_graph) {
        auto m = by_uid(tensor_to_pointer_map);
        return populate_cuda_graph(handle, m, workspace, cudnn_cuda_graph);
    }
    // populate_cuda_graph adds one child node to the empty graph given: the plan's execution with
    // these pointers, captured from a stream.
    error_t
    populate_cuda_graph(cudnnHandle_t handle,
                        std::unordered_map<Tensor_attributes::uid_t, void*>& uid_to_device_ptrs,
                        void* workspace,
                        cudaGraph_t cudnn_cuda_graph) {
        CHECK_CUDNN_FRONTEND_ERROR(can_capture("populate_cuda_graph", cudnn_cuda_graph));
#ifdef HIPDNN_CUDNN_SHIM_HAVE_CUDA_RUNTIME
        size_t nodes  = 0;
        cudaError_t e = cudaGraphGetNodes(cudnn_cuda_graph, nullptr, &nodes);
        if (e != cudaSuccess) return detail::cuda_failed("cudaGraphGetNodes", e);
        if (nodes != 0)
            return {error_code_t::INVALID_VALUE,
                    "populate_cuda_graph: the CUDA graph given has " + std::to_string(nodes) +
                        " nodes; it must be empty (update_cuda_graph relies on it)."};
        cudaGraph_t child = nullptr;
        CHECK_CUDNN_FRONTEND_ERROR(capture->capture(
            handle, [&] { return execute_impl(handle, uid_to_device_ptrs, workspace, plans.candidate); }, &child));
        cudaGraphNode_t node = nullptr;
        e                    = cudaGraphAddChildGraphNode(&node, cudnn_cuda_graph, nullptr, 0, child);
        (void)cudaGraphDestroy(child);  // the node holds a copy
        if (e != cudaSuccess) return detail::cuda_failed("cudaGraphAddChildGraphNode", e);
        return {error_code_t::OK, ""};
#else
        (void)handle, (void)uid_to_device_ptrs, (void)workspace;
        return {error_code_t::GRAPH_NOT_SUPPORTED, "populate_cuda_graph: " + std::string(kNoCudaRuntime)};
#endif
    }
    error_t
    update_cuda_graph(cudnnHandle_t handle,
                      std::unordered_map<std::shared_ptr<Tensor_attributes>, void*>& tensor_to_pointer_map,
                      void* workspace,
                      cudaGraph_t cudnn_cuda_graph) {
        auto m = by_uid(tensor_to_pointer_map);
        return update_cuda_graph(handle, m, workspace, cudnn_cuda_graph);
    }
    // update_cuda_graph captures the plan again with the new pointers and copies the new nodes'
    // parameters into the child graph populate_cuda_graph made (the nodes and shape stay, so an
    // instantiated graph takes the update).
    error_t
    update_cuda_graph(cudnnHandle_t handle,
                      std::unordered_map<Tensor_attributes::uid_t, void*>& uid_to_device_ptrs,
                      void* workspace,
                      cudaGraph_t cudnn_cuda_graph) {
        CHECK_CUDNN_FRONTEND_ERROR(can_capture("update_cuda_graph", cudnn_cuda_graph));
#ifdef HIPDNN_CUDNN_SHIM_HAVE_CUDA_RUNTIME
        size_t nodes         = 1;
        cudaGraphNode_t node = nullptr;
        cudaError_t e        = cudaGraphGetNodes(cudnn_cuda_graph, &node, &nodes);
        if (e != cudaSuccess) return detail::cuda_failed("cudaGraphGetNodes", e);
        cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
        if (nodes == 1 && node) (void)cudaGraphNodeGetType(node, &type);
        if (nodes != 1 || type != cudaGraphNodeTypeGraph)
            return {error_code_t::INVALID_VALUE,
                    "update_cuda_graph: the CUDA graph given must hold exactly the one child-graph node "
                    "populate_cuda_graph made."};
        cudaGraph_t inner = nullptr;
        e = cudaGraphChildGraphNodeGetGraph(node, &inner);  // owned by the node
        if (e != cudaSuccess) return detail::cuda_failed("cudaGraphChildGraphNodeGetGraph", e);
        cudaGraph_t fresh = nullptr;
        CHECK_CUDNN_FRONTEND_ERROR(capture->capture(
            handle, [&] { return execute_impl(handle, uid_to_device_ptrs, workspace, plans.candidate); }, &fresh));
        auto err = detail::copy_node_params(inner, fresh);
        (void)cudaGraphDestroy(fresh);
        return err;
#else
        (void)handle, (void)uid_to_device_ptrs, (void)workspace;
        return {error_code_t::GRAPH_NOT_SUPPORTED, "update_cuda_graph: " + std::string(kNoCudaRuntime)};
#endif
    }

    // warmup: hipDNN plans are ready once built (no lazy kernel loading to trigger), so it only
    // checks that there is a built plan.
    error_t
    warmup(cudnnHandle_t handle) {
        (void)handle;
        return plans.is_plan_index_executable(plans.candidate);
    }

    // key: a hash of everything that decides what the graph computes (context types, every
    // tensor's name, type, shape, layout, UID and scalar value, every node's kind, attributes and
    // operands), for caches of built graphs as upstream's samples keep them. remove_shape leaves
    // dims and strides out (upstream's dynamic-shape key).
    size_t
    key(bool remove_shape) {
        detail::KeyWriter k;
        k.add(context.get_io_data_type()).add(context.get_intermediate_data_type()).add(context.get_compute_data_type());
        auto tensors = all_tensors();
        std::unordered_map<Tensor_attributes const*, size_t> index;
        for (auto const& t : tensors) {
            index.emplace(t.get(), index.size());
            std::vector<uint8_t> bytes;
            bool const has_value = t->scalar_bytes(bytes);
            k.add(t->get_name()).add(t->get_data_type()).add(t->get_is_virtual()).add(t->get_is_pass_by_value());
            k.add(t->has_uid() ? t->get_uid() : int64_t{-1}).add(t->get_reordering_type());
            if (!remove_shape) k.add(t->get_dim()).add(t->get_stride());
            k.add(has_value ? std::vector<int>(bytes.begin(), bytes.end()) : std::vector<int>{});
        }
        for (auto const& n : sub_nodes) {
            n->append_key(k);
            std::vector<TensorPtr> ins, outs;
            n->collect_tensors(ins, outs);
            std::vector<int64_t> wiring;
            for (auto const& t : ins) wiring.push_back(t ? static_cast<int64_t>(index[t.get()]) : -1);
            wiring.push_back(-2);
            for (auto const& t : outs) wiring.push_back(t ? static_cast<int64_t>(index[t.get()]) : -1);
            k.add(wiring);
        }
        return std::hash<std::string>{}(k.str());
    }

    size_t
    key() {
        return key(context.get_dynamic_shape_enabled());
    }

    // print lists the graph's nodes (upstream prints its JSON form, which the shim does not have).
    std::string
    print(void) const {
        std::string out = "graph '" + context.get_name() + "':";
        for (auto const& n : sub_nodes) out += " " + n->label() + ";";
        return out;
    }

    // autotune runs every built plan on the caller's buffers (a warm-up, then timed runs until one
    // is no longer 5 % faster than the best, at most 100) and orders the candidates fastest first,
    // as upstream does; execute() then uses index 0. Plans that fail are logged and go last.
    error_t
    autotune(cudnnHandle_t handle,
             std::unordered_map<int64_t, void*>& tensor_uid_to_pointer_map,
             void* workspace,
             void* user_impl = nullptr) {
        (void)user_impl;  // reserved upstream too
        constexpr int kMaxRuns    = 100;
        constexpr float kImproves = 0.95f;
        struct Timed {
            size_t index;
            float ms;
        };
        std::vector<Timed> timed;
        detail::plan_timer timer(handle);
        for (size_t i = 0; i < plans.candidates.size(); ++i) {
            if (!plans.candidates[i].plan) continue;
            auto const index = static_cast<int64_t>(i);
            auto warm        = execute_plan_at_index(handle, tensor_uid_to_pointer_map, workspace, index);
            if (warm.is_bad()) {
                CUDNN_FE_LOG_LABEL_ENDL("WARN: autotune: plan " << i << " failed its warm-up: " << warm.err_msg);
                continue;
            }
            float best = std::numeric_limits<float>::max();
            for (int run = 0; run < kMaxRuns; ++run) {
                timer.start();
                auto err       = execute_plan_at_index(handle, tensor_uid_to_pointer_map, workspace, index);
                float const ms = timer.stop();
                if (err.is_bad()) continue;
                bool const improved = ms / best < kImproves;
                best                = std::min(best, ms);
                if (!improved) break;
            }
            plans.describe(plans.candidates[i]);
            CUDNN_FE_LOG_LABEL_ENDL("autotune: plan " << i << " (" << plans.candidates[i].name << ") took " << best
                                                      << " ms");
            timed.push_back({i, best});
        }
        if (timed.empty())
            return {error_code_t::GRAPH_EXECUTION_FAILED,
                    "autotune: no built plan executed (call build_plans first; the log says why each failed)."};
        std::stable_sort(timed.begin(), timed.end(), [](Timed const& a, Timed const& b) { return a.ms < b.ms; });
        std::vector<Execution_plan_list::Candidate> order;
        std::vector<bool> taken(plans.candidates.size(), false);
        for (auto const& t : timed) {
            order.push_back(std::move(plans.candidates[t.index]));
            taken[t.index] = true;
        }
        for (size_t i = 0; i < plans.candidates.size(); ++i)
            if (!taken[i]) order.push_back(std::move(plans.candidates[i]));
        plans.candidates = std::move(order);
        plans.candidate  = 0;
        {
            std::lock_guard<std::mutex> lock(pack_cache->mu);
            pack_cache->plan_index = -1;  // indices moved
            pack_cache->pack.reset();
        }
        CUDNN_FE_LOG_LABEL_ENDL("autotune: timed " << timed.size() << " plans; plan 0 is now "
                                                   << plans.candidates[0].name);
        return {error_code_t::OK, ""};
    }
    error_t
    autotune(cudnnHandle_t handle,
             std::unordered_map<std::shared_ptr<Tensor_attributes>, void*>& tensor_to_pointer_map,
             void* workspace,
             void* user_impl = nullptr) {
        auto m = by_uid(tensor_to_pointer_map);
        return autotune(handle, m, workspace, user_impl);
    }
    // serialize writes the operation graph and the plan execute() uses into one hipDNN
    // graph-and-plan container; deserialize restores an executable graph from it (bind by UID).
    error_t
    serialize(std::vector<uint8_t>& data) const {
        data.clear();
        CHECK_CUDNN_FRONTEND_ERROR(plans.is_plan_index_executable(plans.candidate));
        if (!operation_graph)
            return {error_code_t::GRAPH_NOT_SUPPORTED, "serialize: a deserialized graph cannot be serialized again yet."};
        auto plan = plans.candidates[plans.candidate].plan->get_ptr();
        size_t n  = 0;
        hipdnnStatus_t st = hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(operation_graph->get_ptr(), plan, 0, &n, nullptr);
        if (st == HIPDNN_STATUS_SUCCESS) {
            data.resize(n);
            st = hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(operation_graph->get_ptr(), plan, n, &n, data.data());
            if (st == HIPDNN_STATUS_SUCCESS) data.resize(n);  // the second call reports the bytes written
        }
        if (st != HIPDNN_STATUS_SUCCESS) {
            data.clear();
            return detail::backend_error(st, error_code_t::GRAPH_EXECUTION_PLAN_CREATION_FAILED, "serialize");
        }
        append_tensor_trailer(data, n);
        return {error_code_t::OK, ""};
    }

    error_t
    deserialize(cudnnHandle_t handle, std::vector<uint8_t> const& data) {
        if (data.empty()) return {error_code_t::INVALID_VALUE, "deserialize: no bytes given."};
        CHECK_CUDNN_FRONTEND_ERROR(ensure_handle(handle));
        // The shim's trailer (tensor attributes, for query_tensor_attributes_of_uid) follows the
        // backend's container; bytes without one are a bare container.
        size_t backend_bytes = data.size();
        std::vector<TensorPtr> tensors;
        CHECK_CUDNN_FRONTEND_ERROR(read_tensor_trailer(data, backend_bytes, tensors));
        hipdnnBackendDescriptor_t raw = nullptr;
        hipdnnStatus_t st = hipdnnBackendCreateAndDeserializeExecutionPlan_ext(handle_, &raw, data.data(), backend_bytes);
        if (st != HIPDNN_STATUS_SUCCESS) return detail::backend_error(st, error_code_t::INVALID_VALUE, "deserialize");
        auto plan = detail::adopt_descriptor(raw, HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
        int64_t count = 0;
        st = hipdnnBackendGetAttribute(raw, HIPDNN_ATTR_EXECUTION_PLAN_TENSOR_UIDS_EXT, HIPDNN_TYPE_INT64, 0, &count, nullptr);
        std::vector<uid_t> uids(static_cast<size_t>(count));
        if (st == HIPDNN_STATUS_SUCCESS && count > 0)
            st = hipdnnBackendGetAttribute(raw, HIPDNN_ATTR_EXECUTION_PLAN_TENSOR_UIDS_EXT, HIPDNN_TYPE_INT64, count,
                                           &count, uids.data());
        if (st != HIPDNN_STATUS_SUCCESS) return detail::backend_error(st, error_code_t::INVALID_VALUE, "deserialize");
        // The plan lists every tensor's UID; the virtual ones (known from the records) take no
        // pointer in the variant pack.
        for (auto const& t : tensors)
            if (t->get_is_virtual()) uids.erase(std::remove(uids.begin(), uids.end(), t->get_uid()), uids.end());
        std::sort(uids.begin(), uids.end());
        Execution_plan_list::Candidate c;
        c.plan = plan;
        int64_t n = 0, ws = 0;
        if (hipdnnBackendGetAttribute(raw, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, &n, &ws) ==
            HIPDNN_STATUS_SUCCESS)
            c.workspace = ws;
        c.described = true;  // no config to read names from; the plan alone was restored
        plans           = Execution_plan_list{};
        plans.candidates.push_back(std::move(c));
        plans.candidate = 0;
        variant_uids    = std::move(uids);
        variant_tensors.clear();
        uid_to_tensor.clear();
        restored_tensors = std::move(tensors);
        pack_cache  = std::make_shared<PackCache>();
        validated   = true;
        return {error_code_t::OK, ""};
    }

   private:
    // The trailer: one record per tensor with a UID (uid, name, data type, dims, strides, virtual,
    // pass-by-value), then the record count, the backend container's length and a magic word.
    static constexpr uint64_t kTrailerMagic = 0x3130534f4e445048ULL;  // "HPDNSO01"

    static void
    put_u64(std::vector<uint8_t>& out, uint64_t v) {
        for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
    }
    static bool
    get_u64(std::vector<uint8_t> const& in, size_t& at, size_t end, uint64_t& v) {
        if (end < 8 || at > end - 8) return false;
        v = 0;
        for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(in[at + i]) << (8 * i);
        at += 8;
        return true;
    }

    void
    append_tensor_trailer(std::vector<uint8_t>& data, size_t backend_bytes) const {
        uint64_t records = 0;
        for (auto const& t : all_tensors()) {
            if (!t->has_uid()) continue;
            ++records;
            put_u64(data, static_cast<uint64_t>(t->get_uid()));
            std::string const name = t->get_name();
            put_u64(data, name.size());
            data.insert(data.end(), name.begin(), name.end());
            put_u64(data, static_cast<uint64_t>(t->get_data_type()));
            auto dims = t->get_dim(), strides = t->get_stride();
            put_u64(data, dims.size());
            for (auto d : dims) put_u64(data, static_cast<uint64_t>(d));
            put_u64(data, strides.size());
            for (auto d : strides) put_u64(data, static_cast<uint64_t>(d));
            put_u64(data, (t->get_is_virtual() ? 1u : 0u) | (t->get_is_pass_by_value() ? 2u : 0u));
        }
        put_u64(data, records);
        put_u64(data, backend_bytes);
        put_u64(data, kTrailerMagic);
    }

    static error_t
    read_tensor_trailer(std::vector<uint8_t> const& data, size_t& backend_bytes, std::vector<TensorPtr>& tensors) {
        backend_bytes = data.size();
        size_t at     = data.size() >= 24 ? data.size() - 24 : 0;
        uint64_t records = 0, length = 0, magic = 0;
        if (data.size() < 24 || !get_u64(data, at, data.size(), records) || !get_u64(data, at, data.size(), length) ||
            !get_u64(data, at, data.size(), magic) || magic != kTrailerMagic)
            return {error_code_t::OK, ""};  // a bare backend container
        auto bad = [] {  // made only when returned: an error_t logs where it is made
            return error_t{error_code_t::INVALID_VALUE, "deserialize: the tensor records after the plan are damaged."};
        };
        if (length > data.size() - 24) return bad();
        size_t const end = data.size() - 24;
        at               = static_cast<size_t>(length);
        for (uint64_t r = 0; r < records; ++r) {
            uint64_t uid, len, dt, nd, ns, flags;
            if (!get_u64(data, at, end, uid) || !get_u64(data, at, end, len) || len > end - at) return bad();
            std::string name(data.begin() + static_cast<std::ptrdiff_t>(at),
                             data.begin() + static_cast<std::ptrdiff_t>(at + len));
            at += len;
            if (!get_u64(data, at, end, dt) || !get_u64(data, at, end, nd) || nd > (end - at) / 8) return bad();
            std::vector<int64_t> dims(nd), strides;
            for (auto& d : dims) get_u64(data, at, end, reinterpret_cast<uint64_t&>(d));
            if (!get_u64(data, at, end, ns) || ns > (end - at) / 8) return bad();
            strides.resize(ns);
            for (auto& d : strides) get_u64(data, at, end, reinterpret_cast<uint64_t&>(d));
            if (!get_u64(data, at, end, flags) || flags > 3u || dt > static_cast<uint64_t>(DataType_t::COMPLEX_FP64))
                return bad();
            auto t = std::make_shared<Tensor_attributes>();
            t->set_uid(static_cast<int64_t>(uid)).set_name(name).set_data_type(static_cast<DataType_t>(dt));
            t->set_dim(dims).set_stride(strides).set_is_virtual((flags & 1u) != 0);
            if (flags & 2u) t->set_is_pass_by_value(true);
            tensors.push_back(std::move(t));
        }
        if (at != end) return bad();
        backend_bytes = static_cast<size_t>(length);
        return {error_code_t::OK, ""};
    }

    template <typename A>
    std::array<std::shared_ptr<Tensor_attributes>, 3>
    norm_stub(A a, TensorPtr x, TensorPtr scale, TensorPtr bias, const char* kind, const char* reason) {
        name_node(a);
        auto Y = output_tensor(a.name + "::Y");
        TensorPtr MEAN, INV_VAR;
        if (a.forward_phase == NormFwdPhase_t::TRAINING) {
            MEAN    = output_tensor(a.name + "::MEAN");
            INV_VAR = output_tensor(a.name + "::INV_VARIANCE");
        }
        a.inputs[A::input_names::X]     = x;
        a.inputs[A::input_names::SCALE] = scale;
        a.inputs[A::input_names::BIAS]  = bias;
        a.outputs[A::output_names::Y]   = Y;
        add_stub(std::move(a), kind, reason);
        return {Y, MEAN, INV_VAR};
    }

    template <typename A>
    std::array<std::shared_ptr<Tensor_attributes>, 3>
    norm_backward_stub(A a, TensorPtr dy, TensorPtr x, TensorPtr scale, const char* kind, const char* reason) {
        name_node(a);
        auto DX = output_tensor(a.name + "::DX"), DSCALE = output_tensor(a.name + "::DSCALE"),
             DBIAS = output_tensor(a.name + "::DBIAS");
        a.inputs[A::input_names::DY]    = dy;
        a.inputs[A::input_names::X]     = x;
        a.inputs[A::input_names::SCALE] = scale;
        add_stub(std::move(a), kind, reason);
        return {DX, DSCALE, DBIAS};
    }

    template <typename A>
    std::shared_ptr<Tensor_attributes>
    unary_stub(A a, TensorPtr x, const char* kind, const char* reason) {
        name_node(a);
        auto Y                        = output_tensor(a.name + "::Y");
        a.inputs[A::input_names::X]   = x;
        a.outputs[A::output_names::Y] = Y;
        add_stub(std::move(a), kind, reason);
        return Y;
    }

    std::shared_ptr<Tensor_attributes>
    pointwise_n(Pointwise_attributes a, TensorPtr in0, TensorPtr in1, TensorPtr in2) {
        using N = Pointwise_attributes;
        name_node(a);
        auto OUT                          = output_tensor(a.name + "::OUT_0");
        a.outputs[N::output_names::OUT_0] = OUT;
        a.inputs[N::input_names::IN_0]    = in0;
        if (in1) a.inputs[N::input_names::IN_1] = in1;
        if (in2) a.inputs[N::input_names::IN_2] = in2;
        add_node<PointwiseNode>(std::move(a));
        return OUT;
    }
};

// Streaming a graph prints print()'s summary, as upstream streams its print().
static inline std::ostream&
operator<<(std::ostream& os, Graph const& graph) {
    os << graph.print();
    return os;
}

}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
