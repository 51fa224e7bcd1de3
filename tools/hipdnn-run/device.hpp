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

// DeviceTimer times device work with CUDA events on the null stream (hipdnn-run's handle has no
// stream): a start and a stop event around each run, so a run's time is the device's, without
// the host's synchronize or launch gaps between runs.
class DeviceTimer
{
public:
    DeviceTimer() = default;
    DeviceTimer(const DeviceTimer&) = delete;
    DeviceTimer& operator=(const DeviceTimer&) = delete;
    ~DeviceTimer();

    bool create(int runs, std::string* error);
    bool record(int run, bool stop, std::string* error);
    // elapsedMs waits for the last event and gives each run's milliseconds.
    bool elapsedMs(std::vector<double>* out, std::string* error);

private:
    std::vector<void*> events_;
};

// deviceAvailable reports whether a CUDA runtime with a device can be opened (*why if not).
bool deviceAvailable(std::string* why);

} // namespace hdrun
