// context.h - the graph-wide defaults every node falls back on: I/O, intermediate and compute
// data types, the graph's name, and the CUDA-only knobs code may set (kept, never used).
#pragma once

#include <cstdint>
#include <string>

#include "../cudnn_frontend_utils.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace detail {

class Context {
    DataType_t compute_data_type      = DataType_t::NOT_SET;
    DataType_t intermediate_data_type = DataType_t::NOT_SET;
    DataType_t io_data_type           = DataType_t::NOT_SET;
    std::string name;
    int32_t sm_count        = -1;
    int32_t sm_version      = -1;
    bool dynamic_shape      = false;
    bool override_shape     = false;

   public:
    Context&
    set_intermediate_data_type(DataType_t const type) {
        intermediate_data_type = type;
        return *this;
    }
    Context&
    set_io_data_type(DataType_t const type) {
        io_data_type = type;
        return *this;
    }
    Context&
    set_compute_data_type(DataType_t const type) {
        compute_data_type = type;
        return *this;
    }
    Context&
    set_name(std::string const& n) {
        name = n;
        return *this;
    }
    Context&
    set_sm_count(int32_t c) {
        sm_count = c;
        return *this;
    }
    Context&
    set_sm_version(int32_t v) {
        sm_version = v;
        return *this;
    }
    Context&
    set_dynamic_shape_enabled(bool v) {
        dynamic_shape = v;
        return *this;
    }
    Context&
    set_override_shape_enabled(bool v) {
        override_shape = v;
        return *this;
    }

    DataType_t
    get_io_data_type() const {
        return io_data_type;
    }
    DataType_t
    get_intermediate_data_type() const {
        return intermediate_data_type;
    }
    DataType_t
    get_compute_data_type() const {
        return compute_data_type;
    }
    std::string
    get_name() const {
        return name;
    }
    int32_t
    get_sm_count() const {
        return sm_count;
    }
    int32_t
    get_sm_version() const {
        return sm_version;
    }
    bool
    get_dynamic_shape_enabled() const {
        return dynamic_shape;
    }
    bool
    get_override_shape_enabled() const {
        return override_shape;
    }
};

}  // namespace detail
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
