// hipdnn_evolution_make_past: writes the "past" schema evolution fixtures, Graph buffers an
// older frontend might send, built with the C++ code flatc generates from the test-only schema
// variant in schemas/evolution/past/: Graph without min_required_engine_api_version and id,
// TensorAttributes without ragged_offset_tensor_uid / alignment / ragged_offset_multiplier,
// SdpaAttributes without implementation and umd_*, NodeAttributes with 20 members.
//
//   hipdnn_evolution_make_past <output-dir>
//
// internal/wire/evolution_test.go and internal/descriptors/evolution_test.go restate the
// expected graphs; change them together with this file.
#include <graph_generated.h>

#include <fixture_io.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;
using evolution::packed;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::nullopt;
using flatbuffers::Offset;

namespace
{

Offset<fbs::TensorAttributes> tensor(FlatBufferBuilder& b, int64_t uid, const char* name, const std::vector<int64_t>& dims,
                                     fbs::TensorValue value_type = fbs::TensorValue::NONE, Offset<void> value = 0)
{
    auto n = b.CreateString(name);
    auto strides = b.CreateVector(packed(dims));
    auto d = b.CreateVector(dims);
    return fbs::CreateTensorAttributes(b, uid, n, fbs::DataType::FLOAT, strides, d, false, value_type, value, false);
}

void finishGraph(FlatBufferBuilder& b, const char* name, const std::vector<Offset<fbs::TensorAttributes>>& tensors,
                 Offset<fbs::Node> only)
{
    auto n = b.CreateString(name);
    auto ts = b.CreateVector(tensors);
    auto ns = b.CreateVector(std::vector<Offset<fbs::Node>>{only});
    auto g = fbs::CreateGraph(b, n, fbs::DataType::FLOAT, fbs::DataType::FLOAT, fbs::DataType::FLOAT, ts, ns);
    b.Finish(g);
}

bool write(const std::string& dir, const char* file, FlatBufferBuilder& b)
{
    return evolution::writeGraph(dir, file, b, [](flatbuffers::Verifier& v) { return fbs::VerifyGraphBuffer(v); });
}

// past_sdpa.bin: o = softmax(q k^T * 0.125) v with a bottom-right diagonal and explicit stats
// generation off; q [1,2,4,8], k and v [1,2,6,8].
bool pastSdpa(const std::string& dir)
{
    FlatBufferBuilder b;
    std::vector<Offset<fbs::TensorAttributes>> tensors = {tensor(b, 1, "q", {1, 2, 4, 8}), tensor(b, 2, "k", {1, 2, 6, 8}),
                                                          tensor(b, 3, "v", {1, 2, 6, 8}), tensor(b, 4, "o", {1, 2, 4, 8})};
    fbs::SdpaAttributesBuilder s(b);
    s.add_q_tensor_uid(1);
    s.add_k_tensor_uid(2);
    s.add_v_tensor_uid(3);
    s.add_o_tensor_uid(4);
    s.add_generate_stats(false);
    s.add_attn_scale_value(0.125f);
    s.add_diagonal_alignment(fbs::DiagonalAlignment::BOTTOM_RIGHT);
    s.add_mma_core_mode(fbs::DataType::FLOAT);
    auto sdpa = s.Finish().Union();
    auto name = b.CreateString("attention");
    auto n = fbs::CreateNode(b, name, fbs::DataType::FLOAT, fbs::NodeAttributes::SdpaAttributes, sdpa);
    finishGraph(b, "evolution_past_sdpa", tensors, n);
    return write(dir, "past_sdpa.bin", b);
}

// past_pointwise.bin: y = x * c with c a compile-time constant 2.0 (TensorValue, which the
// past schema already had).
bool pastPointwise(const std::string& dir)
{
    FlatBufferBuilder b;
    auto two = b.CreateStruct(fbs::Float32Value(2.0f)).Union();
    std::vector<Offset<fbs::TensorAttributes>> tensors = {
        tensor(b, 1, "x", {2, 3}), tensor(b, 2, "c", {1, 1}, fbs::TensorValue::Float32Value, two), tensor(b, 3, "y", {2, 3})};
    auto mul =
        fbs::CreatePointwiseAttributes(b, fbs::PointwiseMode::MUL, nullopt, nullopt, nullopt, nullopt, 1, int64_t(2), nullopt, 3)
            .Union();
    auto name = b.CreateString("scale");
    auto n = fbs::CreateNode(b, name, fbs::DataType::FLOAT, fbs::NodeAttributes::PointwiseAttributes, mul);
    finishGraph(b, "evolution_past_pointwise", tensors, n);
    return write(dir, "past_pointwise.bin", b);
}

} // namespace

int main(int argc, char** argv)
{
    if(argc != 2)
    {
        std::fprintf(stderr, "usage: %s <output-dir>\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    bool ok = pastSdpa(dir);
    ok = pastPointwise(dir) && ok;
    return ok ? 0 : 1;
}
