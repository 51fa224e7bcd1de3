// Loads libhipdnngo_cudnn.so with cuDNN made unavailable (HIPDNNGO_CUDNN_LIBRARY names a
// library that does not exist): see UnavailablePlugin.hpp for what is checked.
#include "UnavailablePlugin.hpp"

int main()
{
    return checkUnavailablePlugin({"hipdnn_cudnn_plugin_tests", "HIPDNNGO_CUDNN_PLUGIN", CUDNN_PLUGIN_PATH, "HIPDNNGO_CUDNN",
                                   "_ZN8hipdnngo5cudnn3apiEv", "cuDNN", {"cuDNN not found", "CUDA runtime not found"}});
}
