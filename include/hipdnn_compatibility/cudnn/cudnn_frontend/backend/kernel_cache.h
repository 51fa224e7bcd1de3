// kernel_cache.h - KernelCache, declared so code that makes one compiles. hipDNN has no
// dynamic-shape kernel cache: Graph::set_kernel_cache with a cache is a Tier-2 stub (the next
// validate() returns GRAPH_NOT_SUPPORTED naming the setter).
#pragma once

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {

class KernelCache {
   public:
    KernelCache() = default;
    bool
    is_finalized() const {
        return false;
    }
};

}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
