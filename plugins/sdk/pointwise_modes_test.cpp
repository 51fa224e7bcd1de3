// PointwiseModes.hpp against the schema: one entry per wire PointwiseMode, each named as the
// schema's enum in lower case, and the arity of the modes whose inputs the docs name.
#include <hipdnn_flatbuffers_sdk/graph_generated.h>
#include <hipdnn_plugin_sdk/helpers/PointwiseModes.hpp>

#include <cctype>
#include <cstdio>
#include <string>

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;
namespace sdk = hipdnn_plugin_sdk;

int main()
{
    int failed = 0;
    auto check = [&](bool ok, const std::string& what) {
        if(!ok)
        {
            std::printf("FAIL %s\n", what.c_str());
            failed++;
        }
    };
    const int last = static_cast<int>(fbs::PointwiseMode::MAX);
    check(sdk::kPointwiseModeCount == last + 1,
          "the table has " + std::to_string(sdk::kPointwiseModeCount) + " entries, the schema " + std::to_string(last + 1));
    for(int m = 0; m <= last && m < sdk::kPointwiseModeCount; ++m)
    {
        std::string want = fbs::EnumNamePointwiseMode(static_cast<fbs::PointwiseMode>(m));
        for(char& c : want)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        check(want == sdk::pointwiseModeName(m), "mode " + std::to_string(m) + ": " + sdk::pointwiseModeName(m) + ", schema " + want);
        const int arity = sdk::pointwiseArity(m);
        check(m == 0 ? arity == 0 : arity >= 1 && arity <= 3, "mode " + want + ": arity " + std::to_string(arity));
        // Every backward activation reads dy and x.
        if(want.size() > 4 && want.compare(want.size() - 4, 4, "_bwd") == 0)
            check(arity == 2, "backward mode " + want + " reads dy and x");
    }
    check(sdk::pointwiseArity(static_cast<int>(fbs::PointwiseMode::BINARY_SELECT)) == 3, "binary_select reads three inputs");
    check(sdk::pointwiseArity(static_cast<int>(fbs::PointwiseMode::GEN_INDEX)) == 1, "gen_index reads in_0 (its shape)");
    check(sdk::pointwiseArity(static_cast<int>(fbs::PointwiseMode::ADD_SQUARE)) == 2, "add_square reads two inputs");
    check(std::string(sdk::pointwiseModeName(-1)) == "unknown" && sdk::pointwiseArity(last + 1) == 0, "numbers outside the enum");
    std::printf("pointwise_modes_test: %s\n", failed == 0 ? "all checks passed" : "checks failed");
    return failed == 0 ? 0 : 1;
}
