// Loads libhipdnngo_cuda_rtc.so with the CUDA driver made unavailable (HIPDNNGO_CUDA_RTC_LIBCUDA
// names a library that does not exist; on a machine without a GPU it is missing anyway): see
// UnavailablePlugin.hpp for what is checked.
#include "UnavailablePlugin.hpp"

int main()
{
    return checkUnavailablePlugin({"hipdnn_cuda_rtc_plugin_tests", "HIPDNNGO_CUDA_RTC_PLUGIN", CUDA_RTC_PLUGIN_PATH,
                                   "HIPDNNGO_CUDA_RTC", "_ZN8hipdnngo8cuda_rtc3apiEv", "the CUDA driver",
                                   {"CUDA driver not found", "no CUDA device", "NVRTC not found"}});
}
