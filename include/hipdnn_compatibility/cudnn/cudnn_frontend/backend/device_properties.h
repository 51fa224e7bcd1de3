// device_properties.h - DeviceProperties, declared so code that makes one compiles. Planning
// for a device other than the handle's is CUDA-only: Graph::set_device_properties with a value
// is a Tier-2 stub (the next validate() returns GRAPH_NOT_SUPPORTED naming the setter).
#pragma once

#include <cstdint>

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {

class DeviceProperties {
    int32_t device_id = 0;

   public:
    DeviceProperties() = default;
    DeviceProperties&
    set_device_id(int32_t id) {
        device_id = id;
        return *this;
    }
    int32_t
    get_device_id() const {
        return device_id;
    }
};

}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
