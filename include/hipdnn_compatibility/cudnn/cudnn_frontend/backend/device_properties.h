// device_properties.h - DeviceProperties, declared so code that makes one compiles. Planning
// for a device other than the handle's is CUDA-only: Graph::set_device_properties with a value
// is a Tier-2 stub (the next validate() returns GRAPH_NOT_SUPPORTED naming the setter).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../../cudnn_frontend_utils.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {

class DeviceProperties {
    int32_t device_id    = 0;
    cudnnHandle_t handle = nullptr;

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
    DeviceProperties&
    set_handle(cudnnHandle_t h) {
        handle = h;
        return *this;
    }
    std::string
    describe() const {
        return "DeviceProperties(device_id=" + std::to_string(device_id) + ")";
    }
    // A device-properties descriptor is how cuDNN plans for a device it does not run on; hipDNN
    // plans for the handle's device only, so building, serializing or loading one is refused.
    error_t
    status() const {
        return {error_code_t::OK, ""};
    }
    error_t
    build() {
        return {error_code_t::GRAPH_NOT_SUPPORTED,
                "DeviceProperties::build: device-properties descriptors are CUDA-only (hipDNN plans for the "
                "handle's device), not supported by the shim yet."};
    }
    error_t
    serialize(std::vector<uint8_t>& serialization_buf) const {
        (void)serialization_buf;
        return {error_code_t::GRAPH_NOT_SUPPORTED,
                "DeviceProperties::serialize: device-properties descriptors are CUDA-only, not supported by the shim "
                "yet."};
    }
    error_t
    deserialize(const std::vector<uint8_t>& serialized_buf) {
        (void)serialized_buf;
        return {error_code_t::GRAPH_NOT_SUPPORTED,
                "DeviceProperties::deserialize: device-properties descriptors are CUDA-only, not supported by the "
                "shim yet."};
    }
};

}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
