// kernel_cache.h - KernelCache. Upstream shares one compiled kernel among the dynamic-shape
// graphs that hold the cache. hipDNN builds a plan per shape (its engines cache plans by graph),
// so this cache only records that a graph built its plans with it: is_finalized() turns true
// after the first build, as upstream's does.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "../../cudnn_frontend_utils.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {

class KernelCache {
   public:
    KernelCache() = default;
    std::string
    describe() const {
        return "KernelCache (hipDNN shim): " + std::to_string(build_count()) + " graph(s) built with it\n";
    }
    bool
    is_finalized() const {
        return builds_.load(std::memory_order_relaxed) > 0;
    }
    error_t
    status() const {
        return {error_code_t::OK, ""};
    }
    // The JSON form is cuDNN's compiled kernels; there is nothing of the kind to save or load.
    error_t
    to_json(std::string& str_json) const {
        str_json.clear();
        return {error_code_t::GRAPH_NOT_SUPPORTED,
                "KernelCache::to_json: hipDNN keeps no compiled kernels in the cache to serialize."};
    }
    error_t
    from_json(std::string const& json_cache) {
        (void)json_cache;
        return {error_code_t::GRAPH_NOT_SUPPORTED,
                "KernelCache::from_json: hipDNN keeps no compiled kernels in the cache to deserialize."};
    }
    // record_build is called by Graph::build_plans for each graph built with this cache.
    void
    record_build() {
        builds_.fetch_add(1, std::memory_order_relaxed);
    }
    int64_t
    build_count() const {
        return builds_.load(std::memory_order_relaxed);
    }

   private:
    std::atomic<int64_t> builds_{0};
};

}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
