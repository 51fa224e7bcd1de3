// plans.h - the execution-plan candidates of one graph: the engine configs hipDNN's heuristic
// ranked, the filters user code applied (notes, engine names, workspace), and the plans built.
//
// Candidates keep the heuristic's order; "built" means the backend finalized an execution plan
// for the config, which is also how hipDNN says a config supports the graph.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "backend/backend_descriptor.h"
#include "backend/convert.h"
#include "backend/device_buffers.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace graph {

class Execution_plan_list {
   public:
    struct Candidate {
        detail::managed_descriptor config;
        detail::managed_descriptor plan;  // null until built
        std::string name;                 // the engine's name
        int64_t engine_id = -1;
        std::vector<NumericalNote_t> numerical_notes;
        std::vector<BehaviorNote_t> behavior_notes;
        int64_t workspace = 0;
        std::string excluded;  // why a filter or the backend ruled it out; empty when usable
        bool described = false;  // name, notes and config workspace read (on first need)
        bool finalized = false;  // the config is finalized on first use: a plain build uses one
    };

    // The heuristic's ranked configs are read lazily: create_execution_plans reads the first one
    // only (a plain build uses no other) and keeps the heuristic; the rest are read, all at once,
    // when a filter, a failed build or an index reaches them.
    detail::managed_descriptor heuristic;  // set while candidates [1, from_heuristic) are unread
    int64_t from_heuristic = 0;            // candidates [0, from_heuristic) came from the heuristic
    bool alternatives_listed = false;      // Graph::list_alternatives ran

    error_t
    read_heuristic_configs() {
        if (!heuristic) return {error_code_t::OK, ""};
        std::vector<detail::managed_descriptor> cfgs(static_cast<size_t>(from_heuristic));
        std::vector<hipdnnBackendDescriptor_t> raw;
        for (auto& c : cfgs) {
            CHECK_CUDNN_FRONTEND_ERROR(detail::make_descriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, "engine config", c));
            raw.push_back(c->get_ptr());
        }
        int64_t got          = 0;
        hipdnnStatus_t const st = hipdnnBackendGetAttribute(heuristic->get_ptr(), HIPDNN_ATTR_ENGINEHEUR_RESULTS,
                                                            HIPDNN_TYPE_BACKEND_DESCRIPTOR, from_heuristic, &got,
                                                            raw.data());
        if (st != HIPDNN_STATUS_SUCCESS)
            return detail::backend_error(st, error_code_t::HEURISTIC_QUERY_FAILED, "reading the heuristic's engine configs");
        for (int64_t i = 0; i < from_heuristic && i < got; ++i)
            if (!candidates[static_cast<size_t>(i)].config) candidates[static_cast<size_t>(i)].config = cfgs[static_cast<size_t>(i)];
        heuristic.reset();
        return {error_code_t::OK, ""};
    }

    // finalized_config reads (when still unread) and finalizes c's config once, on first need, so
    // a build that uses the first candidate pays for no other.
    error_t
    finalized_config(Candidate& c) {
        if (c.finalized) return {error_code_t::OK, ""};
        if (!c.config) CHECK_CUDNN_FRONTEND_ERROR(read_heuristic_configs());
        if (!c.config)
            return {error_code_t::HEURISTIC_QUERY_FAILED,
                    "the heuristic returned fewer engine configs than it counted (" + std::to_string(from_heuristic) + ")."};
        CHECK_CUDNN_FRONTEND_ERROR(detail::finalize(c.config, "engine config"));
        c.finalized = true;
        return {error_code_t::OK, ""};
    }

    // describe reads c's engine name and id, its notes and its config's workspace from the
    // backend. Lazy because a plain build needs none of it; a failed query leaves a field empty.
    void
    describe(Candidate& c) {
        if (c.described) return;
        c.described = true;
        if (finalized_config(c).is_bad()) return;
        auto const cfg   = c.config->get_ptr();
        int64_t n        = 0;
        hipdnnBackendNumericalNote_t notes[HIPDNN_NUMERICAL_NOTE_TYPE_COUNT];
        if (hipdnnBackendGetAttribute(cfg, HIPDNN_ATTR_ENGINE_NUMERICAL_NOTE, HIPDNN_TYPE_NUMERICAL_NOTE,
                                      HIPDNN_NUMERICAL_NOTE_TYPE_COUNT, &n, notes) == HIPDNN_STATUS_SUCCESS)
            for (int64_t i = 0; i < n; ++i) c.numerical_notes.push_back(detail::from_backend(notes[i]));
        int64_t ws = 0;
        if (!c.plan && hipdnnBackendGetAttribute(cfg, HIPDNN_ATTR_ENGINECFG_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, &n,
                                                 &ws) == HIPDNN_STATUS_SUCCESS)
            c.workspace = ws;
        detail::managed_descriptor engine;
        if (detail::make_descriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, "engine", engine).is_bad()) return;
        hipdnnBackendDescriptor_t eraw = engine->get_ptr();
        if (hipdnnBackendGetAttribute(cfg, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n, &eraw) !=
            HIPDNN_STATUS_SUCCESS)
            return;
        char name[256] = {0};
        if (hipdnnBackendGetAttribute(eraw, HIPDNN_ATTR_ENGINE_NAME_EXT, HIPDNN_TYPE_CHAR, sizeof name - 1, &n, name) ==
            HIPDNN_STATUS_SUCCESS)
            c.name = std::string(name);
        hipdnnBackendGetAttribute(eraw, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &n, &c.engine_id);
        hipdnnBackendBehaviorNote_t bnotes[HIPDNN_BEHAVIOR_NOTE_TYPE_COUNT];
        if (hipdnnBackendGetAttribute(eraw, HIPDNN_ATTR_ENGINE_BEHAVIOR_NOTE, HIPDNN_TYPE_BEHAVIOR_NOTE,
                                      HIPDNN_BEHAVIOR_NOTE_TYPE_COUNT, &n, bnotes) == HIPDNN_STATUS_SUCCESS)
            for (int64_t i = 0; i < n; ++i) {
                auto b = detail::from_backend(bnotes[i]);
                if (b != BehaviorNote_t::NOT_SET) c.behavior_notes.push_back(b);
            }
    }

    bool
    has_filters() const {
        return !deselected_numeric.empty() || !selected_numeric.empty() || !deselected_behavior.empty() ||
               !selected_behavior.empty() || !deselected_engines.empty() || max_workspace >= 0 ||
               detail::device_buffers();
    }

    std::vector<Candidate> candidates;
    int64_t candidate = -1;  // the plan execute() uses

    std::vector<NumericalNote_t> deselected_numeric, selected_numeric;
    std::vector<BehaviorNote_t> deselected_behavior, selected_behavior;
    std::vector<std::string> deselected_engines;
    int64_t max_workspace = -1;

    // apply_filters marks the candidates the user's filters rule out, naming the filter.
    void
    apply_filters() {
        auto has = [](auto const& v, auto x) { return std::find(v.begin(), v.end(), x) != v.end(); };
        if (!has_filters()) return;
        for (auto& c : candidates) {
            if (!c.excluded.empty()) continue;
            describe(c);
            for (auto n : deselected_numeric)
                if (has(c.numerical_notes, n)) c.excluded = "has a deselected numerical note";
            for (auto n : selected_numeric)
                if (!has(c.numerical_notes, n)) c.excluded = "lacks a selected numerical note";
            for (auto n : deselected_behavior)
                if (has(c.behavior_notes, n)) c.excluded = "has a deselected behavior note";
            for (auto n : selected_behavior)
                if (!has(c.behavior_notes, n)) c.excluded = "lacks a selected behavior note";
            // As upstream: a deselected name rules out every engine whose name contains it.
            for (auto const& d : deselected_engines)
                if (!d.empty() && c.name.find(d) != std::string::npos) c.excluded = "deselected by name (" + d + ")";
            if (detail::device_buffers() && detail::is_host_memory_engine(c.name))
                c.excluded = "reads host memory only, and a CUDA program's buffers are device memory";
            if (max_workspace >= 0 && c.workspace > max_workspace)
                c.excluded = "needs " + std::to_string(c.workspace) + " bytes of workspace, more than " +
                             std::to_string(max_workspace);
        }
    }

    // build builds candidate i's plan; a refusal is recorded on the candidate.
    error_t
    build(int64_t i) {
        if (i < 0 || i >= static_cast<int64_t>(candidates.size()))
            return {error_code_t::INVALID_VALUE, "plan index " + std::to_string(i) + " is out of range [0, " +
                                                     std::to_string(candidates.size()) + ")."};
        auto& c = candidates[i];
        if (c.plan) return {error_code_t::OK, ""};
        if (!c.excluded.empty())
            return {error_code_t::GRAPH_EXECUTION_PLAN_CREATION_FAILED,
                    "plan " + std::to_string(i) + " (" + c.name + ") " + c.excluded + "."};
        auto cfg_err = finalized_config(c);
        if (cfg_err.is_bad()) {
            c.excluded = "was refused by the backend (" + cfg_err.err_msg + ")";
            return {error_code_t::GRAPH_EXECUTION_PLAN_CREATION_FAILED, cfg_err.err_msg};
        }
        detail::managed_descriptor plan;
        CHECK_CUDNN_FRONTEND_ERROR(
            detail::make_descriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, "execution plan", plan));
        CHECK_CUDNN_FRONTEND_ERROR(
            detail::set_desc(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, c.config, "execution plan"));
        auto err = detail::finalize(plan, "execution plan " + std::to_string(i));
        if (err.is_bad()) {
            describe(c);
            err.err_msg += " (engine " + c.name + ")";
            c.excluded = "was refused by the backend (" + err.err_msg + ")";
            return {error_code_t::GRAPH_EXECUTION_PLAN_CREATION_FAILED, err.err_msg};
        }
        int64_t n = 0, ws = 0;
        if (hipdnnBackendGetAttribute(plan->get_ptr(), HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1,
                                      &n, &ws) == HIPDNN_STATUS_SUCCESS)
            c.workspace = ws;
        c.plan = plan;
        return {error_code_t::OK, ""};
    }

    // first_buildable builds candidates in order until one builds; GRAPH_NOT_SUPPORTED lists
    // why each was ruled out when none does.
    error_t
    first_buildable(int64_t& index) {
        std::string why;
        for (size_t i = 0; i < candidates.size(); ++i) {
            auto err = build(static_cast<int64_t>(i));
            if (err.is_good()) {
                index = static_cast<int64_t>(i);
                return {error_code_t::OK, ""};
            }
            describe(candidates[i]);
            why += "; " + candidates[i].name + ": " + (candidates[i].excluded.empty() ? err.err_msg : candidates[i].excluded);
        }
        if (candidates.empty())
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    "no execution plan candidates: call create_execution_plans first, or no engine supports the graph."};
        return {error_code_t::GRAPH_NOT_SUPPORTED, "no engine config supports the graph" + why};
    }

    error_t
    is_plan_index_executable(int64_t i) const {
        if (i < 0 || i >= static_cast<int64_t>(candidates.size()) || !candidates[i].plan)
            return {error_code_t::GRAPH_EXECUTION_FAILED,
                    "plan index " + std::to_string(i) + " has no built execution plan (call build_plans first)."};
        return {error_code_t::OK, ""};
    }
};

}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
