/*
 * hipdnn_plugin_sdk/EngineNames.h
 *
 * The registry of known engine names (RFC 0003). An engine's id is the FNV-1a hash of its name
 * (helpers/EngineId.h), so a name, once published, never changes. To register a name, add one
 * line X(NAME) to HIPDNN_PLUGIN_ENGINE_NAMES: names are UPPER_CASE with a vendor prefix.
 *
 * An engine whose name is not listed still works: the host logs one WARN for it when its
 * plugin loads. The registry lets the host and tools tell known engines from typos, and lets
 * a test prove that no two registered names hash to the same id.
 *
 * Benchmark builds: compile a plugin with HIPDNN_BENCHMARK_MODE defined and every name made by
 * HIPDNN_ENGINE_NAME(NAME) / HIPDNN_REGISTER_ENGINE(NAME) carries the prefix "BENCHMARK_", so
 * the engine under test gets its own id beside the released one. The host treats
 * "BENCHMARK_<registered name>" as registered.
 *
 * Usable from C99 (the name list, the prefix, a name array) and C++17 (constexpr ids).
 * Not part of AMD's SDK: AMD's registry (data_sdk EngineNames.hpp) is C++ only.
 */
#ifndef HIPDNN_PLUGIN_SDK_ENGINE_NAMES_H
#define HIPDNN_PLUGIN_SDK_ENGINE_NAMES_H

#include <hipdnn_plugin_sdk/helpers/EngineId.h>

/* One line per registered engine name. */
#define HIPDNN_PLUGIN_ENGINE_NAMES(X) \
    X(MIOPEN_ENGINE)                  \
    X(MIOPEN_ENGINE_DETERMINISTIC)    \
    X(HIPBLASLT_ENGINE)               \
    X(ASM_SDPA_ENGINE)                \
    X(ROCKE_ENGINE)                   \
    X(HIP_MLOPS_ENGINE)               \
    X(HIP_KERNEL_ENGINE)              \
    X(HIP_FLASH2_ENGINE)              \
    X(FUSILLI_ENGINE)                 \
    X(HIPDNNGO_CPU_REFERENCE)         \
    X(HIPDNNGO_ONEDNN)                \
    X(HIPDNNGO_CUDNN)                 \
    X(HIPDNNGO_CUDA_RTC)

/* The registered engines that read and write host memory only (their plugins also answer
 * hipdnnEnginePluginIsHostMemoryEngine_ext; a test keeps the two in step). Frontends that know
 * their buffers are device memory (the cuDNN-frontend shim in a CUDA program) leave these out. */
#define HIPDNN_PLUGIN_HOST_MEMORY_ENGINE_NAMES(X) \
    X(HIPDNNGO_CPU_REFERENCE)                     \
    X(HIPDNNGO_ONEDNN)

/*
 * Configuration-index knobs (a naming rule, no entry point). An engine with several
 * configurations of its own for a graph (the cuDNN engine: cuDNN's ranked engine configs) may
 * publish them as one integer knob whose id ends in HIPDNN_PLUGIN_CONFIG_KNOB_SUFFIX, with range
 * [-1, n-1] over the graph's n configurations, best first. -1 lets the engine choose; the knob's
 * default value is the index that choice resolves to, or -1 when unknown. A frontend that lists
 * every configuration, as cuDNN-frontend's create_execution_plans does, makes one engine config
 * per other index.
 */
#define HIPDNN_PLUGIN_CONFIG_KNOB_SUFFIX ".config"

/* The benchmark-mode prefix, and the name an engine reports in this build. */
#define HIPDNN_BENCHMARK_ENGINE_PREFIX "BENCHMARK_"
#ifdef HIPDNN_BENCHMARK_MODE
#define HIPDNN_ENGINE_NAME_PREFIX HIPDNN_BENCHMARK_ENGINE_PREFIX
#else
#define HIPDNN_ENGINE_NAME_PREFIX ""
#endif
#define HIPDNN_ENGINE_NAME(name) HIPDNN_ENGINE_NAME_PREFIX #name

/* Element of a name array: static const char* const names[] = {HIPDNN_PLUGIN_ENGINE_NAMES(HIPDNN_ENGINE_NAME_ELEMENT)}; */
#define HIPDNN_ENGINE_NAME_ELEMENT(name) #name,
/* Counts the registry: size_t n = 0 HIPDNN_PLUGIN_ENGINE_NAMES(HIPDNN_ENGINE_NAME_COUNT); */
#define HIPDNN_ENGINE_NAME_COUNT(name) +1

#if defined(__cplusplus) && __cplusplus >= 201703L
#include <array>
#include <cstddef>
#include <string_view>

namespace hipdnn_plugin_sdk::engine_names
{

/*
 * HIPDNN_REGISTER_ENGINE(NAME) declares, in the enclosing namespace,
 *   inline constexpr std::string_view NAME;      the name this build reports (prefixed in
 *                                                benchmark mode)
 *   inline constexpr int64_t NAME_ID;            its engine id
 * Every registered name is declared here; a plugin may use the macro for a name of its own.
 */
#define HIPDNN_REGISTER_ENGINE(name)                                  \
    inline constexpr std::string_view name = HIPDNN_ENGINE_NAME(name); \
    inline constexpr int64_t name##_ID = ::hipdnn_plugin_sdk::engineNameToId(name);

HIPDNN_PLUGIN_ENGINE_NAMES(HIPDNN_REGISTER_ENGINE)

/* Every registered name, unprefixed, in registry order. */
inline constexpr std::array all = {HIPDNN_PLUGIN_ENGINE_NAMES(HIPDNN_ENGINE_NAME_ELEMENT)};

/* Whether name is registered, also with the benchmark prefix. */
constexpr bool isRegistered(std::string_view name) noexcept
{
    constexpr std::string_view prefix = HIPDNN_BENCHMARK_ENGINE_PREFIX;
    if(name.substr(0, prefix.size()) == prefix)
    {
        name.remove_prefix(prefix.size());
    }
    for(std::string_view known : all)
    {
        if(known == name)
        {
            return true;
        }
    }
    return false;
}

} // namespace hipdnn_plugin_sdk::engine_names
#endif

#endif /* HIPDNN_PLUGIN_SDK_ENGINE_NAMES_H */
