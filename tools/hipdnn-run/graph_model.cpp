#include "graph_model.hpp"

#include <cmath>
#include <sstream>

namespace hdrun
{

namespace
{

struct DTypeRow
{
    DType t;
    const char* name;
    int size;
    double u;
};

const DTypeRow kTypes[] = {
    {DType::Unset, "unset", 0, 0},
    {DType::Float, "float", 4, 5.9604644775390625e-8},
    {DType::Half, "half", 2, 4.8828125e-4},
    {DType::BFloat16, "bfloat16", 2, 3.90625e-3},
    {DType::Double, "double", 8, 1.1102230246251565e-16},
    {DType::Uint8, "uint8", 1, 0},
    {DType::Int32, "int32", 4, 0},
    {DType::Int8, "int8", 1, 0},
    {DType::Int64, "int64", 8, 0},
    {DType::Fp8E4M3, "fp8_e4m3", 1, 0.0625},
    {DType::Fp8E5M2, "fp8_e5m2", 1, 0.125},
};

const DTypeRow* row(DType t)
{
    for(const auto& r : kTypes)
    {
        if(r.t == t)
        {
            return &r;
        }
    }
    return nullptr;
}

} // namespace

const char* dtypeName(DType t)
{
    const DTypeRow* r = row(t);
    return r ? r->name : "other";
}

int dtypeSize(DType t)
{
    const DTypeRow* r = row(t);
    return r ? r->size : 0;
}

bool dtypeIsFloat(DType t)
{
    return t == DType::Float || t == DType::Half || t == DType::BFloat16 || t == DType::Double || t == DType::Fp8E4M3
           || t == DType::Fp8E5M2;
}

bool dtypeIsInt(DType t) { return t == DType::Uint8 || t == DType::Int8 || t == DType::Int32 || t == DType::Int64; }

double dtypeUnitRoundoff(DType t)
{
    const DTypeRow* r = row(t);
    return r ? r->u : 0;
}

DType parseDType(const std::string& name, int* size)
{
    std::string l;
    for(char c : name)
    {
        l.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
    }
    if(l == "float16")
    {
        l = "half";
    }
    for(const auto& r : kTypes)
    {
        if(l == r.name)
        {
            *size = r.size;
            return r.t;
        }
    }
    // Other fp8 variants are one byte; sub-byte types cannot be laid out by element here.
    *size = l.rfind("fp8", 0) == 0 ? 1 : 0;
    return DType::Other;
}

int64_t Tensor::numel() const
{
    int64_t n = 1;
    for(int64_t d : dims)
    {
        n *= d;
    }
    return n;
}

int64_t Tensor::span() const
{
    int64_t off = 0;
    for(size_t i = 0; i < dims.size(); ++i)
    {
        if(dims[i] <= 0)
        {
            return 0;
        }
        int64_t s = i < strides.size() ? strides[i] : 0;
        off += (dims[i] - 1) * (s < 0 ? -s : s);
    }
    return off + 1;
}

std::string Tensor::shape() const
{
    std::ostringstream os;
    os << '[';
    for(size_t i = 0; i < dims.size(); ++i)
    {
        os << (i ? "," : "") << dims[i];
    }
    os << "] " << dtypeText;
    return os.str();
}

const hdjson::Value* Node::field(const std::string& key) const
{
    static const char* kSections[] = {"inputs", "outputs", "attributes", "parameters"};
    for(const char* s : kSections)
    {
        const hdjson::Value* sec = json->get(s);
        if(sec != nullptr)
        {
            const hdjson::Value* v = sec->get(key);
            if(v != nullptr)
            {
                return v;
            }
        }
    }
    return json->get(key);
}

int64_t Node::uid(const std::string& key) const
{
    const hdjson::Value* v = field(key);
    return (v != nullptr && v->isNumber()) ? v->asInt(-1) : -1;
}

bool Node::flag(const std::string& key) const
{
    const hdjson::Value* v = field(key);
    return v != nullptr && v->isBool() && v->boolean;
}

std::string Node::str(const std::string& key) const
{
    const hdjson::Value* v = field(key);
    return v != nullptr ? v->asString() : std::string();
}

std::vector<int64_t> Node::ints(const std::string& key) const
{
    std::vector<int64_t> out;
    const hdjson::Value* v = field(key);
    if(v != nullptr && v->isArray())
    {
        for(const auto& it : v->items)
        {
            out.push_back(it.asInt());
        }
    }
    return out;
}

std::string Node::label() const { return (name.empty() ? std::string("(unnamed)") : "\"" + name + "\"") + " (" + type + ")"; }

const Tensor* Graph::tensor(int64_t uid) const
{
    auto it = byUid.find(uid);
    return it == byUid.end() ? nullptr : &tensors[it->second];
}

bool Graph::isOutput(int64_t uid) const
{
    for(const auto& n : nodes)
    {
        for(int64_t o : n.outputs)
        {
            if(o == uid)
            {
                return true;
            }
        }
    }
    return false;
}

namespace
{

bool intList(const hdjson::Value* v, std::vector<int64_t>* out)
{
    out->clear();
    if(v == nullptr)
    {
        return true;
    }
    if(!v->isArray())
    {
        return false;
    }
    for(const auto& it : v->items)
    {
        if(!it.isInteger())
        {
            return false;
        }
        out->push_back(it.asInt());
    }
    return true;
}

void collectUids(const hdjson::Value* sec, std::vector<int64_t>* out)
{
    if(sec == nullptr || !sec->isObject())
    {
        return;
    }
    for(const auto& m : sec->members)
    {
        // axis_tensor_uid is an axis index, not a tensor uid.
        if(m.first == "axis_tensor_uid")
        {
            continue;
        }
        bool isUidKey = m.first.size() >= 4
                        && (m.first.find("tensor_uid") != std::string::npos || m.first.find("_uids") != std::string::npos);
        if(!isUidKey)
        {
            continue;
        }
        if(m.second.isInteger())
        {
            out->push_back(m.second.asInt());
        }
        else if(m.second.isArray())
        {
            for(const auto& it : m.second.items)
            {
                if(it.isInteger())
                {
                    out->push_back(it.asInt());
                }
            }
        }
    }
}

} // namespace

bool loadGraph(const std::string& json, Graph* g, std::string* error)
{
    if(!hdjson::parse(json.data(), json.size(), &g->doc, error))
    {
        return false;
    }
    g->name = g->doc.get("name") ? g->doc.get("name")->asString() : "";
    const hdjson::Value* tensors = g->doc.get("tensors");
    const hdjson::Value* nodes = g->doc.get("nodes");
    if(tensors == nullptr || !tensors->isArray() || nodes == nullptr || !nodes->isArray())
    {
        *error = "graph JSON has no \"tensors\" or \"nodes\" array";
        return false;
    }
    for(const auto& tv : tensors->items)
    {
        Tensor t;
        const hdjson::Value* uid = tv.get("uid");
        if(uid == nullptr || !uid->isInteger())
        {
            *error = "a tensor has no integer uid";
            return false;
        }
        t.uid = uid->asInt();
        t.name = tv.get("name") ? tv.get("name")->asString() : "";
        t.dtypeText = tv.get("data_type") ? tv.get("data_type")->asString() : "unset";
        t.dtype = parseDType(t.dtypeText, &t.elemSize);
        if(!intList(tv.get("dims"), &t.dims) || !intList(tv.get("strides"), &t.strides))
        {
            *error = "tensor uid " + std::to_string(t.uid) + ": dims/strides are not integer lists";
            return false;
        }
        if(t.strides.size() != t.dims.size())
        {
            *error = "tensor uid " + std::to_string(t.uid) + ": dims and strides differ in length";
            return false;
        }
        t.isVirtual = tv.get("virtual") && tv.get("virtual")->isBool() && tv.get("virtual")->boolean;
        if(const hdjson::Value* v = tv.get("value"))
        {
            t.hasValue = true;
            t.value = v->isBool() ? (v->boolean ? 1.0 : 0.0) : v->asDouble();
        }
        t.passByValue = tv.get("is_runtime_pass_by_value") && tv.get("is_runtime_pass_by_value")->boolean;
        if(const hdjson::Value* r = tv.get("ragged_offset_tensor_uid"))
        {
            t.ragged = true;
            t.raggedUid = r->asInt(-1);
        }
        g->byUid[t.uid] = g->tensors.size();
        g->tensors.push_back(std::move(t));
    }
    for(const auto& nv : nodes->items)
    {
        Node n;
        n.json = &nv;
        n.type = nv.get("type") ? nv.get("type")->asString() : "";
        n.name = nv.get("name") ? nv.get("name")->asString() : "";
        n.computeText = nv.get("compute_data_type") ? nv.get("compute_data_type")->asString() : "unset";
        int size = 0;
        n.compute = parseDType(n.computeText, &size);
        collectUids(nv.get("inputs"), &n.inputs);
        collectUids(nv.get("outputs"), &n.outputs);
        g->nodes.push_back(std::move(n));
    }
    // Node::json points into g->doc, which no longer moves.
    return true;
}

} // namespace hdrun
