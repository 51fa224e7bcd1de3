// oss_engine_interface.h - upstream's "open-source engine" interface (experimental): attention
// kernels that cudnn-frontend compiles with NVRTC and launches itself, outside cuDNN. They are
// CUDA kernels, so in the shim they are Tier-2 stubs: check_support() refuses with the engine's
// name, and build() / execute() refuse too. The types carry upstream's names and signatures.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../../cudnn_frontend_utils.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace experimental {

struct AttentionShape_t {
    uint32_t b, q_h, k_h, v_h, s_q, s_kv, d_qk, d_v;
};

class IOssSdpaEngine {
   public:
    virtual ~IOssSdpaEngine() = default;
    virtual error_t
    check_support(AttentionShape_t shape, int sm_version) = 0;
    virtual error_t
    build() = 0;
    virtual error_t
    execute(int batch,
            int heads_q,
            int heads_kv,
            int seq_q,
            int seq_kv,
            int d,
            void* d_Q,
            std::vector<int64_t> const& q_strides,
            void* d_K,
            std::vector<int64_t> const& k_strides,
            void* d_V,
            std::vector<int64_t> const& v_strides,
            void* d_O,
            std::vector<int64_t> const& o_strides,
            void* d_max,
            std::vector<int64_t> const& max_strides,
            void* d_sum_exp,
            std::vector<int64_t> const& se_strides,
            void* workspace,
            int device,
            cudaStream_t stream,
            std::optional<float> user_attn_scale = std::nullopt) = 0;
    static int64_t
    get_workspace_size() {
        return 16;
    }
};

namespace detail {
// OssSdpaEngineStub refuses every phase, naming the engine.
class OssSdpaEngineStub : public IOssSdpaEngine {
    const char* name_;

    error_t
    refuse(const char* phase) const {
        return {error_code_t::GRAPH_NOT_SUPPORTED,
                std::string(name_) + "::" + phase +
                    ": NVRTC-compiled CUDA attention kernels are not supported by the shim [Tier-2 stub]"};
    }

   public:
    explicit OssSdpaEngineStub(const char* name) : name_(name) {}
    error_t
    check_support(AttentionShape_t, int) override {
        return refuse("check_support");
    }
    error_t
    build() override {
        return refuse("build");
    }
    error_t
    execute(int, int, int, int, int, int, void*, std::vector<int64_t> const&, void*, std::vector<int64_t> const&,
            void*, std::vector<int64_t> const&, void*, std::vector<int64_t> const&, void*,
            std::vector<int64_t> const&, void*, std::vector<int64_t> const&, void*, int, cudaStream_t,
            std::optional<float> = std::nullopt) override {
        return refuse("execute");
    }
};
}  // namespace detail

}  // namespace experimental
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
