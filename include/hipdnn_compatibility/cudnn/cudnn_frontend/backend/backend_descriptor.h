// backend_descriptor.h - the one owner type for the hipdnnBackendDescriptor_t objects the shim
// creates, and the one place a hipdnn status becomes an error_t.
//
// Why one owner: every descriptor the shim makes (tensors, operations, the graph, heuristics,
// engine configs, plans, variant packs) is destroyed exactly once, when the last shared owner
// goes, whatever path an error takes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../../cudnn_frontend_utils.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace detail {

// last_backend_error is the calling thread's hipdnn last-error message.
inline std::string
last_backend_error() {
    char buf[1024];
    buf[0] = '\0';
    hipdnnGetLastErrorString(buf, sizeof buf);
    return std::string(buf);
}

// backend_error turns a failed hipdnn call into an error_t with code `code`, naming what the
// shim was doing (`what`), the hipdnn status and the backend's own message.
inline error_t
backend_error(hipdnnStatus_t st, error_code_t code, std::string const& what) {
    std::string msg = what + " failed: " + hipdnnGetErrorString(st);
    std::string detail = last_backend_error();
    if (!detail.empty()) msg += ": " + detail;
    return {code, msg};
}

// backend_descriptor owns one hipdnnBackendDescriptor_t.
class backend_descriptor {
   public:
    explicit backend_descriptor(hipdnnBackendDescriptorType_t kind) : kind_(kind) {
        status_ = hipdnnBackendCreateDescriptor(kind, &desc_);
    }
    // backend_descriptor(kind, raw) takes ownership of a descriptor the backend made (a
    // deserialized plan, say).
    backend_descriptor(hipdnnBackendDescriptorType_t kind, hipdnnBackendDescriptor_t raw) : kind_(kind), desc_(raw) {}
    ~backend_descriptor() {
        if (desc_ != nullptr) hipdnnBackendDestroyDescriptor(desc_);
    }
    backend_descriptor(backend_descriptor const&) = delete;
    backend_descriptor& operator=(backend_descriptor const&) = delete;

    hipdnnBackendDescriptor_t
    get_ptr() const {
        return desc_;
    }
    hipdnnStatus_t
    get_status() const {
        return status_;
    }
    hipdnnBackendDescriptorType_t
    kind() const {
        return kind_;
    }

   private:
    hipdnnBackendDescriptorType_t kind_;
    hipdnnBackendDescriptor_t desc_ = nullptr;
    hipdnnStatus_t status_          = HIPDNN_STATUS_SUCCESS;
};

using managed_descriptor = std::shared_ptr<backend_descriptor>;

inline managed_descriptor
adopt_descriptor(hipdnnBackendDescriptor_t raw, hipdnnBackendDescriptorType_t kind) {
    return std::make_shared<backend_descriptor>(kind, raw);
}

// make_descriptor creates a descriptor of `kind`; `what` names it in the error.
inline error_t
make_descriptor(hipdnnBackendDescriptorType_t kind, std::string const& what, managed_descriptor& out) {
    out = std::make_shared<backend_descriptor>(kind);
    if (out->get_status() != HIPDNN_STATUS_SUCCESS)
        return backend_error(out->get_status(), error_code_t::CUDNN_BACKEND_API_FAILED, "creating " + what);
    return {error_code_t::OK, ""};
}

// set_attr sets one attribute; the error names `what` (the node or tensor) and the attribute.
// A value hipDNN cannot express (HIPDNN_STATUS_NOT_SUPPORTED, say a BOOLEAN compute type, which
// the graph schema lacks) makes the graph unsupported, as upstream reports what cuDNN cannot run;
// any other failure is an API failure.
inline error_t
set_attr(managed_descriptor const& d,
         hipdnnBackendAttributeName_t name,
         hipdnnBackendAttributeType_t type,
         int64_t count,
         const void* value,
         std::string const& what) {
    hipdnnStatus_t st = hipdnnBackendSetAttribute(d->get_ptr(), name, type, count, value);
    if (st != HIPDNN_STATUS_SUCCESS)
        return backend_error(st,
                             st == HIPDNN_STATUS_NOT_SUPPORTED ? error_code_t::GRAPH_NOT_SUPPORTED
                                                               : error_code_t::CUDNN_BACKEND_API_FAILED,
                             what + ": setting attribute " + std::to_string(int(name)));
    return {error_code_t::OK, ""};
}

inline error_t
set_desc(managed_descriptor const& d,
         hipdnnBackendAttributeName_t name,
         managed_descriptor const& value,
         std::string const& what) {
    hipdnnBackendDescriptor_t raw = value->get_ptr();
    return set_attr(d, name, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &raw, what);
}

inline error_t
set_i64s(managed_descriptor const& d,
         hipdnnBackendAttributeName_t name,
         std::vector<int64_t> const& v,
         std::string const& what) {
    return set_attr(d, name, HIPDNN_TYPE_INT64, static_cast<int64_t>(v.size()), v.data(), what);
}

inline error_t
set_dtype(managed_descriptor const& d, hipdnnBackendAttributeName_t name, hipdnnDataType_t v, std::string const& what) {
    return set_attr(d, name, HIPDNN_TYPE_DATA_TYPE, 1, &v, what);
}

inline error_t
set_name(managed_descriptor const& d, std::string const& name, std::string const& what) {
    if (name.empty()) return {error_code_t::OK, ""};
    return set_attr(d, HIPDNN_ATTR_OPERATION_NAME_EXT, HIPDNN_TYPE_CHAR, static_cast<int64_t>(name.size()),
                    name.data(), what);
}

// finalize finalizes d; a refusal is GRAPH_NOT_SUPPORTED with the backend's reason.
inline error_t
finalize(managed_descriptor const& d, std::string const& what) {
    hipdnnStatus_t st = hipdnnBackendFinalize(d->get_ptr());
    if (st != HIPDNN_STATUS_SUCCESS) {
        auto code = st == HIPDNN_STATUS_NOT_SUPPORTED ? error_code_t::GRAPH_NOT_SUPPORTED
                                                      : error_code_t::CUDNN_BACKEND_API_FAILED;
        return backend_error(st, code, "finalizing " + what);
    }
    return {error_code_t::OK, ""};
}

}  // namespace detail
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
