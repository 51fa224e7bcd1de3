// sm100_sdpa_prefill_engine.h - upstream's SM100 SDPA prefill engine (experimental), a Tier-2
// stub in the shim: see oss_engine_interface.h.
#pragma once

#include "oss_engine_interface.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace experimental {

class Sm100SdpaPrefillEngine : public detail::OssSdpaEngineStub {
   public:
    Sm100SdpaPrefillEngine() : detail::OssSdpaEngineStub("Sm100SdpaPrefillEngine") {}
    static int64_t
    get_workspace_size() {
        return 16;
    }
};

}  // namespace experimental
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
