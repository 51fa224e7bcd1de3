// Device memory for hipdnn-run's --device mode: the CUDA runtime opened with dlopen at first
// use (libcudart.so.13, then .12; never linked), so the tool builds and runs without CUDA.
#pragma once

#include "buffers.hpp"

#include <string>
#include <vector>

namespace hdrun
{

// DeviceMirror holds one device copy of every host buffer of a run (pass-by-value scalars stay
// host pointers) and of the workspace.
class DeviceMirror
{
public:
    DeviceMirror() = default;
    DeviceMirror(const DeviceMirror&) = delete;
    DeviceMirror& operator=(const DeviceMirror&) = delete;
    ~DeviceMirror();

    // upload allocates and copies every input; false with *error when no CUDA runtime/device.
    bool upload(const Buffers& host, std::string* error);
    // download copies every buffer back into the host buffers (after a synchronize).
    bool download(const Buffers& host, std::string* error);
    bool synchronize(std::string* error);
    bool allocateWorkspace(int64_t bytes, std::string* error);

    const std::vector<void*>& pointers() const { return ptrs_; } // in Buffers::all() order
    void* workspace() const { return workspace_; }

private:
    std::vector<void*> ptrs_;
    std::vector<bool> owned_;
    void* workspace_ = nullptr;
};

// deviceAvailable reports whether a CUDA runtime with a device can be opened (*why if not).
bool deviceAvailable(std::string* why);

} // namespace hdrun
