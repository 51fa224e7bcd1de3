// The pointwise modes of the graph wire format as the engines describe them: the name each
// message uses and how many inputs each mode reads (the schema carries neither the arity nor
// lower-case names). One table, indexed by the wire's PointwiseMode number, so that every
// engine names and checks a mode the same way; plugins/sdk/pointwise_modes_test.cpp holds the
// names to the schema's enum.
#pragma once

#include <cstddef>

namespace hipdnn_plugin_sdk
{

struct PointwiseModeInfo
{
    const char* name; // the schema's enum name in lower case ("relu_fwd")
    int arity; // inputs read: in_0 (GEN_INDEX reads it for its shape only), in_1, in_2
};

// kPointwiseModes[m] describes wire mode m (0: UNSET, no mode).
inline constexpr PointwiseModeInfo kPointwiseModes[] = {
    {"unset", 0},
    {"abs", 1},
    {"add", 2},
    {"add_square", 2},
    {"binary_select", 3},
    {"ceil", 1},
    {"cmp_eq", 2},
    {"cmp_ge", 2},
    {"cmp_gt", 2},
    {"cmp_le", 2},
    {"cmp_lt", 2},
    {"cmp_neq", 2},
    {"div", 2},
    {"elu_bwd", 2},
    {"elu_fwd", 1},
    {"erf", 1},
    {"exp", 1},
    {"floor", 1},
    {"gelu_approx_tanh_bwd", 2},
    {"gelu_approx_tanh_fwd", 1},
    {"gelu_bwd", 2},
    {"gelu_fwd", 1},
    {"gen_index", 1},
    {"identity", 1},
    {"log", 1},
    {"logical_and", 2},
    {"logical_not", 1},
    {"logical_or", 2},
    {"max_op", 2},
    {"min_op", 2},
    {"mul", 2},
    {"neg", 1},
    {"reciprocal", 1},
    {"relu_bwd", 2},
    {"relu_fwd", 1},
    {"rsqrt", 1},
    {"sigmoid_bwd", 2},
    {"sigmoid_fwd", 1},
    {"sin", 1},
    {"softplus_bwd", 2},
    {"softplus_fwd", 1},
    {"sqrt", 1},
    {"sub", 2},
    {"swish_bwd", 2},
    {"swish_fwd", 1},
    {"tan", 1},
    {"tanh_bwd", 2},
    {"tanh_fwd", 1},
};

inline constexpr int kPointwiseModeCount = static_cast<int>(sizeof kPointwiseModes / sizeof kPointwiseModes[0]);

// pointwiseModeName: the mode's name, "unknown" for a number outside the wire's enum.
inline constexpr const char* pointwiseModeName(int wireMode)
{
    return wireMode >= 0 && wireMode < kPointwiseModeCount ? kPointwiseModes[wireMode].name : "unknown";
}

// pointwiseArity: how many inputs the mode reads, 0 for UNSET and numbers outside the enum.
inline constexpr int pointwiseArity(int wireMode)
{
    return wireMode >= 0 && wireMode < kPointwiseModeCount ? kPointwiseModes[wireMode].arity : 0;
}

} // namespace hipdnn_plugin_sdk
