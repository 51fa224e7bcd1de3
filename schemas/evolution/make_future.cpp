// hipdnn_evolution_make_future: writes the "future" schema evolution fixtures, Graph buffers
// a newer frontend might send, built with the C++ code flatc generates from the test-only
// schema variant in schemas/evolution/future/ (README.md there says what it adds).
//
//   hipdnn_evolution_make_future <output-dir>
//
// internal/wire/evolution_test.go and internal/descriptors/evolution_test.go restate the
// expected graphs; change them together with this file.
#include <graph_generated.h>

#include <fixture_io.hpp>

#include <array>
#include <cstdio>
#include <string>
#include <vector>

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;
using evolution::packed;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

namespace
{

constexpr int64_t kCpuReferenceEngineId = -7424244430098340505; // HIPDNNGO_CPU_REFERENCE

// The id every future fixture carries: 00112233-4455-4677-8899-aabbccddeeff.
const std::array<uint8_t, 16> kGraphId = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x46, 0x77,
                                          0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};

struct Tensor
{
    int64_t uid;
    const char* name;
    std::vector<int64_t> dims;
    bool virtual_ = false;
    fbs::DataType type = fbs::DataType::FLOAT;
    fbs::TensorValue value_type = fbs::TensorValue::NONE;
    Offset<void> value = 0; // made with CreateStruct before the tensor
};

// A tensor with (future) or without the future trailing fields set.
Offset<fbs::TensorAttributes> tensor(FlatBufferBuilder& b, const Tensor& t, bool future)
{
    auto name = b.CreateString(t.name);
    auto strides = b.CreateVector(packed(t.dims));
    auto dims = b.CreateVector(t.dims);
    Offset<flatbuffers::String> tag = 0;
    Offset<flatbuffers::Vector<int64_t>> blocks = 0;
    if(future)
    {
        tag = b.CreateString(std::string("layout-of-") + t.name);
        blocks = b.CreateVector(std::vector<int64_t>{t.uid, 4, 4});
    }
    return fbs::CreateTensorAttributes(b, t.uid, name, t.type, strides, dims, t.virtual_, t.value_type, t.value, false,
                                       flatbuffers::nullopt, 16, 1, tag, future ? 0.5f : 0.0f, blocks);
}

Offset<fbs::Node> node(FlatBufferBuilder& b, const char* name, fbs::NodeAttributes tag, Offset<void> attributes, bool future)
{
    auto n = b.CreateString(name);
    Offset<flatbuffers::Vector<Offset<flatbuffers::String>>> tags = 0;
    if(future)
    {
        std::vector<Offset<flatbuffers::String>> v = {b.CreateString("fused"), b.CreateString(name)};
        tags = b.CreateVector(v);
    }
    return fbs::CreateNode(b, n, fbs::DataType::FLOAT, tag, attributes, future ? 3 : 0, tags);
}

Offset<void> pointwise(FlatBufferBuilder& b, fbs::PointwiseMode mode, int64_t in0, flatbuffers::Optional<int64_t> in1,
                       int64_t out, bool future)
{
    Offset<fbs::FuturePointwiseParams> params = 0;
    if(future)
    {
        auto label = b.CreateString("future-params");
        auto taps = b.CreateVector(std::vector<int32_t>{1, 2, 3});
        params = fbs::CreateFuturePointwiseParams(b, 0.75, label, taps);
    }
    return fbs::CreatePointwiseAttributes(b, mode, flatbuffers::nullopt, flatbuffers::nullopt, flatbuffers::nullopt,
                                          flatbuffers::nullopt, in0, in1, flatbuffers::nullopt, out, flatbuffers::nullopt,
                                          flatbuffers::nullopt, flatbuffers::nullopt, future ? 2 : 0, params)
        .Union();
}

// 2-D cross-correlation (or `mode`), padding 1, stride 1, dilation 1.
Offset<void> convolution(FlatBufferBuilder& b, int64_t x, int64_t w, int64_t y, fbs::ConvMode mode, bool future)
{
    auto pre = b.CreateVector(std::vector<int64_t>{1, 1});
    auto post = b.CreateVector(std::vector<int64_t>{1, 1});
    auto stride = b.CreateVector(std::vector<int64_t>{1, 1});
    auto dilation = b.CreateVector(std::vector<int64_t>{1, 1});
    Offset<flatbuffers::Vector<uint8_t>> hint = 0;
    if(future)
        hint = b.CreateVector(std::vector<uint8_t>{0xde, 0xad, 0xbe, 0xef});
    return fbs::CreateConvolutionFwdAttributes(b, x, w, y, pre, post, stride, dilation, mode, 0, 0, future ? 42 : 0, hint)
        .Union();
}

// Finishes the Graph. min == nullptr leaves min_required_engine_api_version out.
void finishGraph(FlatBufferBuilder& b, const char* name, const std::vector<Offset<fbs::TensorAttributes>>& tensors,
                 const std::vector<Offset<fbs::Node>>& nodes, const fbs::EngineApiVersion* min, bool future)
{
    auto n = b.CreateString(name);
    auto ts = b.CreateVector(tensors);
    auto ns = b.CreateVector(nodes);
    Offset<flatbuffers::String> note = 0;
    if(future)
        note = b.CreateString("written by a newer frontend");
    const fbs::Uuid id(flatbuffers::span<const uint8_t, 16>(kGraphId.data(), 16));
    const fbs::EngineApiVersion origin(9, 9, 9);
    auto g =
        fbs::CreateGraph(b, n, fbs::DataType::FLOAT, fbs::DataType::FLOAT, fbs::DataType::FLOAT, ts, ns, kCpuReferenceEngineId,
                         false, min, &id, note, future ? 0xFFFF0000FFFFull : 0, future ? &origin : nullptr);
    b.Finish(g);
}

bool write(const std::string& dir, const char* file, FlatBufferBuilder& b)
{
    return evolution::writeGraph(dir, file, b, [](flatbuffers::Verifier& v) { return fbs::VerifyGraphBuffer(v); });
}

// future_fields.bin: conv -> add bias -> relu with every future trailing field set (Graph,
// Node, TensorAttributes, ConvolutionFwdAttributes, PointwiseAttributes, a nested unknown
// table), and only known enum values, union tags and data types.
bool futureFields(const std::string& dir)
{
    FlatBufferBuilder b;
    const std::vector<Tensor> ts = {
        {1, "x", {1, 2, 5, 5}},
        {2, "w", {3, 2, 3, 3}},
        {3, "conv_out", {1, 3, 5, 5}, true},
        {4, "bias", {1, 3, 1, 1}},
        {5, "biased", {1, 3, 5, 5}, true},
        {6, "y", {1, 3, 5, 5}},
    };
    std::vector<Offset<fbs::TensorAttributes>> tensors;
    for(const auto& t : ts)
        tensors.push_back(tensor(b, t, true));
    std::vector<Offset<fbs::Node>> nodes;
    auto conv = convolution(b, 1, 2, 3, fbs::ConvMode::CROSS_CORRELATION, true);
    nodes.push_back(node(b, "conv", fbs::NodeAttributes::ConvolutionFwdAttributes, conv, true));
    auto add = pointwise(b, fbs::PointwiseMode::ADD, 3, int64_t(4), 5, true);
    nodes.push_back(node(b, "bias", fbs::NodeAttributes::PointwiseAttributes, add, true));
    auto relu = pointwise(b, fbs::PointwiseMode::RELU_FWD, 5, flatbuffers::nullopt, 6, true);
    nodes.push_back(node(b, "relu", fbs::NodeAttributes::PointwiseAttributes, relu, true));
    const fbs::EngineApiVersion min(1, 0, 0);
    finishGraph(b, "evolution_future_fields", tensors, nodes, &min, true);
    return write(dir, "future_fields.bin", b);
}

// A relu graph x (uid 1) -> y (uid 2) whose one tensor, node or mode is from the future.
bool futureRelu(const std::string& dir, const char* file, fbs::DataType xType, fbs::PointwiseMode mode,
                const fbs::EngineApiVersion* min)
{
    FlatBufferBuilder b;
    Tensor x{1, "x", {2, 3}};
    x.type = xType;
    std::vector<Offset<fbs::TensorAttributes>> tensors = {tensor(b, x, true), tensor(b, {2, "y", {2, 3}}, true)};
    auto act = pointwise(b, mode, 1, flatbuffers::nullopt, 2, true);
    std::vector<Offset<fbs::Node>> nodes = {node(b, "act", fbs::NodeAttributes::PointwiseAttributes, act, true)};
    finishGraph(b, "evolution_future_relu", tensors, nodes, min, true);
    return write(dir, file, b);
}

// future_node.bin: relu, then a node of NodeAttributes member 24 (FutureOpAttributes).
bool futureNode(const std::string& dir)
{
    FlatBufferBuilder b;
    std::vector<Offset<fbs::TensorAttributes>> tensors = {
        tensor(b, {1, "x", {2, 3}}, true), tensor(b, {2, "mid", {2, 3}, true}, true), tensor(b, {3, "y", {2, 3}}, true)};
    auto relu = pointwise(b, fbs::PointwiseMode::RELU_FWD, 1, flatbuffers::nullopt, 2, true);
    auto fut = fbs::CreateFutureOpAttributes(b, 2, 3, 0.5f).Union();
    std::vector<Offset<fbs::Node>> nodes = {node(b, "relu", fbs::NodeAttributes::PointwiseAttributes, relu, true),
                                            node(b, "future_op", fbs::NodeAttributes::FutureOpAttributes, fut, true)};
    const fbs::EngineApiVersion min(1, 0, 0);
    finishGraph(b, "evolution_future_node", tensors, nodes, &min, true);
    return write(dir, "future_node.bin", b);
}

// future_conv_mode.bin: one convolution whose conv_mode is ConvMode 3.
bool futureConvMode(const std::string& dir)
{
    FlatBufferBuilder b;
    std::vector<Offset<fbs::TensorAttributes>> tensors = {tensor(b, {1, "x", {1, 2, 5, 5}}, true),
                                                          tensor(b, {2, "w", {3, 2, 3, 3}}, true),
                                                          tensor(b, {3, "y", {1, 3, 5, 5}}, true)};
    auto conv = convolution(b, 1, 2, 3, fbs::ConvMode::FUTURE_DEFORMABLE, true);
    std::vector<Offset<fbs::Node>> nodes = {node(b, "conv", fbs::NodeAttributes::ConvolutionFwdAttributes, conv, true)};
    const fbs::EngineApiVersion min(1, 0, 0);
    finishGraph(b, "evolution_future_conv_mode", tensors, nodes, &min, true);
    return write(dir, "future_conv_mode.bin", b);
}

// future_value_kind.bin: y = x * s where the constant s carries TensorValue member 9.
bool futureValueKind(const std::string& dir)
{
    FlatBufferBuilder b;
    Tensor s{3, "s", {1, 1}};
    s.value_type = fbs::TensorValue::FutureInt8Value;
    s.value = b.CreateStruct(fbs::FutureInt8Value(-5)).Union();
    std::vector<Offset<fbs::TensorAttributes>> tensors = {tensor(b, {1, "x", {2, 3}}, true), tensor(b, {2, "y", {2, 3}}, true),
                                                          tensor(b, s, true)};
    auto mul = pointwise(b, fbs::PointwiseMode::MUL, 1, int64_t(3), 2, true);
    std::vector<Offset<fbs::Node>> nodes = {node(b, "scale", fbs::NodeAttributes::PointwiseAttributes, mul, true)};
    const fbs::EngineApiVersion min(1, 0, 0);
    finishGraph(b, "evolution_future_value_kind", tensors, nodes, &min, true);
    return write(dir, "future_value_kind.bin", b);
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
    const fbs::EngineApiVersion v100(1, 0, 0), v150(1, 5, 0);
    bool ok = futureFields(dir);
    ok = futureRelu(dir, "future_datatype.bin", fbs::DataType::FUTURE_FP8_E3M4, fbs::PointwiseMode::RELU_FWD, &v100) && ok;
    ok =
        futureRelu(dir, "future_pointwise_mode.bin", fbs::DataType::FLOAT, fbs::PointwiseMode::FUTURE_HARDSWISH_FWD, &v100) && ok;
    ok = futureRelu(dir, "future_min_version.bin", fbs::DataType::FLOAT, fbs::PointwiseMode::RELU_FWD, &v150) && ok;
    ok = futureNode(dir) && ok;
    ok = futureConvMode(dir) && ok;
    ok = futureValueKind(dir) && ok;
    return ok ? 0 : 1;
}
