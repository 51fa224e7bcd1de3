/*
 * hipdnn_plugin_sdk/helpers/EngineId.h
 *
 * Engine ids and heuristic policy ids are derived from names: the 64-bit FNV-1a hash of the
 * name's bytes (no terminator, no case folding), reinterpreted as a two's-complement int64_t.
 * A NULL or empty name maps to 0, not to the FNV offset basis.
 *
 *   offset basis 0xcbf29ce484222325, prime 0x100000001b3, per byte: h ^= byte; h *= prime.
 *
 * The host checks, for every engine a plugin names through hipdnnEnginePluginGetEngineName,
 * that hipdnnPluginEngineNameToId(name) equals the engine id (the same rule applies to policy
 * names). Usable from C (C99 or later) and C++.
 */
#ifndef HIPDNN_PLUGIN_SDK_HELPERS_ENGINE_ID_H
#define HIPDNN_PLUGIN_SDK_HELPERS_ENGINE_ID_H

#include <stddef.h>
#include <stdint.h>

#define HIPDNN_PLUGIN_FNV1A64_OFFSET_BASIS 0xcbf29ce484222325ULL
#define HIPDNN_PLUGIN_FNV1A64_PRIME 0x100000001b3ULL

/* Two's-complement reinterpretation of a uint64_t without implementation-defined casts. */
static inline int64_t hipdnnPluginUint64ToInt64(uint64_t value)
{
    if(value <= (uint64_t)INT64_MAX)
    {
        return (int64_t)value;
    }
    return -(int64_t)(UINT64_MAX - value) - 1;
}

/* Engine id of a named engine. NULL or "" -> 0. */
static inline int64_t hipdnnPluginEngineNameToId(const char* name)
{
    uint64_t hash = HIPDNN_PLUGIN_FNV1A64_OFFSET_BASIS;
    const unsigned char* byte = (const unsigned char*)name;
    if(name == NULL || name[0] == '\0')
    {
        return 0;
    }
    for(; *byte != 0; ++byte)
    {
        hash ^= (uint64_t)*byte;
        hash *= HIPDNN_PLUGIN_FNV1A64_PRIME;
    }
    return hipdnnPluginUint64ToInt64(hash);
}

/* Policy id of a heuristic policy name; the same hash as engine ids. */
static inline int64_t hipdnnPluginPolicyNameToId(const char* name)
{
    return hipdnnPluginEngineNameToId(name);
}

/*
 * Writes the canonical hex rendering of an engine id into out (at least 19 bytes): "0x" and
 * 16 upper-case hex digits of the two's-complement value, e.g. -2 -> "0xFFFFFFFFFFFFFFFE".
 * Returns out.
 */
static inline char* hipdnnPluginFormatEngineIdHex(int64_t engine_id, char* out)
{
    static const char digits[] = "0123456789ABCDEF";
    uint64_t value = (uint64_t)engine_id;
    int i;
    out[0] = '0';
    out[1] = 'x';
    for(i = 17; i >= 2; --i)
    {
        out[i] = digits[value & 0xFu];
        value >>= 4;
    }
    out[18] = '\0';
    return out;
}

#if defined(__cplusplus) && __cplusplus >= 201703L
#include <string_view>

namespace hipdnn_plugin_sdk
{

/* Compile-time variant for C++17: constexpr int64_t id = engineNameToId("MY_VENDOR_ENGINE"); */
constexpr int64_t engineNameToId(std::string_view name) noexcept
{
    if(name.empty())
    {
        return 0;
    }
    uint64_t hash = HIPDNN_PLUGIN_FNV1A64_OFFSET_BASIS;
    for(char c : name)
    {
        hash ^= static_cast<uint64_t>(static_cast<unsigned char>(c));
        hash *= HIPDNN_PLUGIN_FNV1A64_PRIME;
    }
    return hash <= static_cast<uint64_t>(INT64_MAX)
               ? static_cast<int64_t>(hash)
               : -static_cast<int64_t>(UINT64_MAX - hash) - 1;
}

constexpr int64_t policyNameToId(std::string_view name) noexcept
{
    return engineNameToId(name);
}

} // namespace hipdnn_plugin_sdk
#endif

#endif /* HIPDNN_PLUGIN_SDK_HELPERS_ENGINE_ID_H */
