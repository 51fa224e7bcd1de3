// hipdnn_fb_verify: runs the flatc-generated C++ Verifier over one buffer.
//
//   hipdnn_fb_verify [kind] <file>
//
// kind is one of graph (default), engine_config, engine_details,
// engine_prediction, execution_plan, graph_and_plan, device_properties.
// Exit status: 0 verified, 1 rejected, 2 usage or I/O error.
//
// After a successful verification a short canonical dump goes to stdout, read
// back through the C++ accessors, so a caller can compare values too
// (internal/fb/verify_test.go does, for Go-built buffers). For a graph:
//   graph <name> <compute> <intermediate> <io> tensors=<n> nodes=<n>
//   preferred_engine_id <v>|absent
//   min_version <major>.<minor>.<patch>|absent
//   id <32 hex digits>|absent
//   tensor <uid> <value kind> <value>      (one per tensor; value kind NONE: no value)
//   node <index> <NodeAttributes tag>
#include <hipdnn_flatbuffers_sdk/device_properties_generated.h>
#include <hipdnn_flatbuffers_sdk/engine_details_generated.h>
#include <hipdnn_flatbuffers_sdk/engine_prediction_generated.h>
#include <hipdnn_flatbuffers_sdk/execution_plan_generated.h>
#include <hipdnn_flatbuffers_sdk/graph_generated.h>
#include <hipdnn_flatbuffers_sdk/serialized_graph_and_plan_generated.h>

#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;

namespace
{

bool readFile(const char* path, std::vector<uint8_t>& out)
{
    FILE* f = std::fopen(path, "rb");
    if(f == nullptr)
    {
        std::perror(path);
        return false;
    }
    uint8_t buf[65536];
    size_t n;
    while((n = std::fread(buf, 1, sizeof buf, f)) > 0)
        out.insert(out.end(), buf, buf + n);
    bool ok = !std::ferror(f);
    std::fclose(f);
    return ok;
}

bool verifyRoot(const uint8_t* data, size_t size, bool (*fn)(flatbuffers::Verifier&))
{
    flatbuffers::Verifier v(data, size);
    return fn(v);
}

void dumpTensorValue(const fbs::TensorAttributes* t)
{
    std::printf("tensor %" PRId64 " %s", t->uid(), fbs::EnumNameTensorValue(t->value_type()));
    switch(t->value_type())
    {
    case fbs::TensorValue::Float32Value: std::printf(" %.9g", double(t->value_as_Float32Value()->value())); break;
    case fbs::TensorValue::Float16Value: std::printf(" %.9g", double(t->value_as_Float16Value()->value())); break;
    case fbs::TensorValue::BFloat16Value: std::printf(" %.9g", double(t->value_as_BFloat16Value()->value())); break;
    case fbs::TensorValue::Float8Value: std::printf(" %u", unsigned(t->value_as_Float8Value()->value())); break;
    case fbs::TensorValue::Int32Value: std::printf(" %d", int(t->value_as_Int32Value()->value())); break;
    case fbs::TensorValue::Float64Value: std::printf(" %.17g", t->value_as_Float64Value()->value()); break;
    case fbs::TensorValue::Int64Value: std::printf(" %" PRId64, t->value_as_Int64Value()->value()); break;
    case fbs::TensorValue::BoolValue: std::printf(" %s", t->value_as_BoolValue()->value() ? "true" : "false"); break;
    default: break;
    }
    std::printf("\n");
}

void dumpGraph(const fbs::Graph* g)
{
    std::printf("graph %s %s %s %s tensors=%u nodes=%u\n", g->name() ? g->name()->c_str() : "-",
                fbs::EnumNameDataType(g->compute_data_type()), fbs::EnumNameDataType(g->intermediate_data_type()),
                fbs::EnumNameDataType(g->io_data_type()), g->tensors() ? g->tensors()->size() : 0u,
                g->nodes() ? g->nodes()->size() : 0u);
    if(g->preferred_engine_id().has_value())
        std::printf("preferred_engine_id %" PRId64 "\n", *g->preferred_engine_id());
    else
        std::printf("preferred_engine_id absent\n");
    if(const auto* v = g->min_required_engine_api_version())
        std::printf("min_version %u.%u.%u\n", v->major(), v->minor(), v->patch());
    else
        std::printf("min_version absent\n");
    if(const auto* id = g->id())
    {
        std::printf("id ");
        for(uint8_t byte : *id->bytes())
            std::printf("%02x", unsigned(byte));
        std::printf("\n");
    }
    else
    {
        std::printf("id absent\n");
    }
    if(g->tensors())
        for(const auto* t : *g->tensors())
            dumpTensorValue(t);
    if(g->nodes())
    {
        unsigned i = 0;
        for(const auto* n : *g->nodes())
            std::printf("node %u %s\n", i++, fbs::EnumNameNodeAttributes(n->attributes_type()));
    }
}

} // namespace

int main(int argc, char** argv)
{
    std::string kind = "graph";
    const char* path = nullptr;
    if(argc == 2)
    {
        path = argv[1];
    }
    else if(argc == 3)
    {
        kind = argv[1];
        path = argv[2];
    }
    else
    {
        std::fprintf(stderr, "usage: %s [kind] <file>\n", argv[0]);
        return 2;
    }
    std::vector<uint8_t> data;
    if(!readFile(path, data))
        return 2;
    const uint8_t* p = data.data();
    const size_t n = data.size();

    bool ok = false;
    if(kind == "graph")
    {
        ok = verifyRoot(p, n, fbs::VerifyGraphBuffer);
        if(ok)
            dumpGraph(fbs::GetGraph(p));
    }
    else if(kind == "engine_config")
    {
        ok = verifyRoot(p, n, fbs::VerifyEngineConfigBuffer);
    }
    else if(kind == "engine_details")
    {
        ok = verifyRoot(p, n, fbs::VerifyEngineDetailsBuffer);
    }
    else if(kind == "engine_prediction")
    {
        ok = verifyRoot(p, n, fbs::VerifyEnginePredictionBuffer);
    }
    else if(kind == "execution_plan")
    {
        ok = verifyRoot(p, n, fbs::VerifySerializedExecutionPlanBuffer);
    }
    else if(kind == "device_properties")
    {
        // VerifyDevicePropertiesBuffer also requires the "HDDP" identifier.
        ok = verifyRoot(p, n, fbs::VerifyDevicePropertiesBuffer);
    }
    else if(kind == "graph_and_plan")
    {
        // The container needs "HDGP"; the embedded blobs must verify on their own.
        ok = verifyRoot(p, n, fbs::VerifySerializedGraphAndPlanBuffer);
        if(ok)
        {
            const auto* c = fbs::GetSerializedGraphAndPlan(p);
            const auto* g = c->graph_blob();
            ok = g != nullptr && g->size() > 0 && verifyRoot(g->data(), g->size(), fbs::VerifyGraphBuffer);
            if(ok && c->plan_blob() != nullptr && c->plan_blob()->size() > 0)
                ok = verifyRoot(c->plan_blob()->data(), c->plan_blob()->size(), fbs::VerifySerializedExecutionPlanBuffer);
        }
    }
    else
    {
        std::fprintf(stderr, "unknown kind %s\n", kind.c_str());
        return 2;
    }
    if(!ok)
    {
        std::fprintf(stderr, "%s: %s buffer rejected by the Verifier\n", path, kind.c_str());
        return 1;
    }
    std::printf("ok %s %zu bytes\n", kind.c_str(), n);
    return 0;
}
