// The part of a hipDNN JSON graph hipdnn-run needs: tensors (uid, dims, strides, type, virtual,
// constant value, pass-by-value) and nodes (type, compute type, named fields), read from the
// canonical JSON the backend writes (hipdnnBackendGetSerializedJsonGraph_ext).
#pragma once

#include "hdjson.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hdrun
{

enum class DType
{
    Unset,
    Float,
    Half,
    BFloat16,
    Double,
    Uint8,
    Int32,
    Int8,
    Int64,
    Fp8E4M3,
    Fp8E5M2,
    Other // a type hipdnn-run can allocate but neither fill nor check (fp8, fp4, int4, ...)
};

const char* dtypeName(DType t);
int dtypeSize(DType t); // bytes per element; 0 when unknown
bool dtypeIsFloat(DType t); // float, half, bfloat16, double, fp8 (e4m3, e5m2)
bool dtypeIsInt(DType t); // uint8, int8, int32, int64
double dtypeUnitRoundoff(DType t); // 2^-p of the type's significand; 0 for integers
// parseDType maps a JSON data type spelling; *size receives the element size for Other types.
DType parseDType(const std::string& name, int* size);

struct Tensor
{
    int64_t uid = 0;
    std::string name;
    std::string dtypeText;
    DType dtype = DType::Unset;
    int elemSize = 0;
    std::vector<int64_t> dims, strides;
    bool isVirtual = false;
    bool hasValue = false; // compile-time constant (TensorAttributes.value)
    double value = 0;
    bool passByValue = false; // runtime pass-by-value scalar
    bool ragged = false; // ragged_offset_tensor_uid set
    int64_t raggedUid = -1; // its offsets tensor: batch b starts at element offsets[b]

    int64_t numel() const; // product of dims (1 for rank 0)
    int64_t span() const; // max element offset + 1 (0 for an empty tensor)
    std::string shape() const; // "[2,3,4] float"
};

struct Node
{
    std::string type; // "ConvolutionFwdAttributes", ...
    std::string name;
    DType compute = DType::Unset;
    std::string computeText;
    const hdjson::Value* json = nullptr;
    std::vector<int64_t> inputs, outputs; // every tensor uid the node reads / writes

    // field returns the named field from any section (inputs, outputs, attributes,
    // parameters), or nullptr when absent or null.
    const hdjson::Value* field(const std::string& key) const;
    int64_t uid(const std::string& key) const; // a *_tensor_uid field, or -1
    bool flag(const std::string& key) const; // a boolean field, false when absent
    std::string str(const std::string& key) const; // a string field, "" when absent
    std::vector<int64_t> ints(const std::string& key) const; // an integer list field
    std::string label() const; // "conv_fprop (ConvolutionFwdAttributes)"
};

struct Graph
{
    hdjson::Value doc;
    std::string name;
    std::vector<Tensor> tensors;
    std::vector<Node> nodes;
    std::map<int64_t, size_t> byUid;

    const Tensor* tensor(int64_t uid) const;
    bool isOutput(int64_t uid) const; // written by some node
};

// loadGraph parses canonical graph JSON. Returns false with *error set when the text is not a
// graph hipdnn-run can read.
bool loadGraph(const std::string& json, Graph* g, std::string* error);

} // namespace hdrun
