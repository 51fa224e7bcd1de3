// hipdnn-run: load a hipDNN JSON graph, build an execution plan on an engine, run it on host
// buffers filled from a seeded generator, time it and optionally check every output against an
// independent double-precision reference (reference.hpp).
//
// Exit codes: 0 ran (and passed the check, or had nothing it could check), 1 wrong results / non-finite outputs / API failure,
// 2 not supported (no engine applies, or the backend does not support the graph), 3 the backend
// rejects the graph file as invalid, 4 skipped by a --max-* budget, 64 usage error.
#include "buffers.hpp"
#include "device.hpp"
#include "graph_model.hpp"
#include "hdtool.h"
#include "reference.hpp"

#include <hipdnn_plugin_sdk/EngineNames.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace
{

enum ExitCode
{
    kPass = 0,
    kFail = 1,
    kNotSupported = 2,
    kInvalid = 3,
    kSkipped = 4,
    kUsage = 64
};

struct Options
{
    std::string file;
    std::string engine;
    int iters = 10;
    bool check = false;
    uint64_t seed = 1;
    bool quiet = false;
    double maxMiB = 0; // 0: no budget
    double maxGflop = 0;
    std::string dumpDir; // --dump: write tensors as .npy files
    std::string loadDir; // --load: read inputs from .npy files (as --dump writes them)
    std::string outputsFrom; // --outputs-from: check these .npy files instead of the engine's results
    std::vector<std::pair<std::string, int64_t>> knobs; // --knob ID=VALUE (integer knobs of --engine)
    bool referenceOnly = false; // --reference-only: no engine, no comparison
    int device = -1; // --device 1 / --host 0 / auto -1: device memory for a GPU engine (HIPDNNGO_CUDNN)
};

void usage(FILE* f)
{
    std::fprintf(f,
                 "usage: hipdnn-run FILE.json [--engine NAME] [--iters N] [--check] [--seed S] [--quiet]\n"
                 "                  [--max-mib M] [--max-gflop G]\n"
                 "\n"
                 "Loads a hipDNN JSON graph (hipdnnBackendCreateAndDeserializeJsonGraph_ext), builds a plan on\n"
                 "the engine NAME (or the first result of the FALLBACK heuristic), allocates host buffers for\n"
                 "every non-virtual, non-constant tensor, fills inputs from a seeded generator (values in\n"
                 "[-1,1); positive or non-zero where the consuming op needs it; valid sequence lengths,\n"
                 "page indices and max-pool indices (a random position inside each output's window, flat\n"
                 "within its (n, c) input plane); epsilon 1e-5), runs once to warm up and N times timed\n"
                 "(default 10).\n"
                 "\n"
                 "  --check      compare every output with hipdnn-run's own double-precision reference\n"
                 "  --device     run on device memory (CUDA runtime, dlopened): copy inputs in, results out;\n"
                 "               the default for an engine not registered as host-memory (EngineNames.h:\n"
                 "               HIPDNNGO_CUDNN, HIPDNNGO_CUDA_RTC); --host forces host memory\n"
                 "  --quiet      print only the RESULT line (and failing checks)\n"
                 "  --max-mib M  skip (exit 4) when the tensors and workspace need more than M MiB\n"
                 "  --max-gflop G  with --check: skip when the reference needs more than G GFLOP\n"
                 "  --dump DIR   write every buffer (DIR/t<uid>.npy) and, with --check, every reference\n"
                 "               output (DIR/ref<uid>.npy) as float64 arrays in logical (dims) order\n"
                 "  --load DIR   read the inputs that DIR/t<uid>.npy holds (float64, logical order, as\n"
                 "               --dump writes them) instead of filling them\n"
                 "  --reference-only  build no plan and run no engine: fill the inputs and compute the\n"
                 "               reference only (with --dump, to inspect it)\n"
                 "  --knob ID=V  with --engine: set the engine's integer knob ID to V (repeatable), e.g.\n"
                 "               --knob cudnn.config=3 for the cuDNN engine's fourth cuDNN config\n"
                 "  --outputs-from DIR  after executing, replace every output with DIR/t<uid>.npy before\n"
                 "               the check (to show the checker fails a known-wrong result)\n"
                 "Device memory runs are timed with CUDA events around each execute; host runs by the\n"
                 "host clock.\n"
                 "\n"
                 "Reference ops: %s.\n"
                 "Tolerance per element: |got - ref| <= E + 2u(T)|ref| + a(T), T the output type;\n"
                 "  u: double 2^-53, float 2^-24, half 2^-11, bfloat16 2^-8; a: float/bfloat16 2^-126,\n"
                 "  half 2^-24, double 2^-1022; E: 8*sqrt(K)*u(c)*sum|terms| per K-term sum and\n"
                 "  8*u(c)*|value| per computed value (c: the node's compute type, float when unset),\n"
                 "  8*u(c)*s per activation of the form x*g(x) (GELU, swish: s = |x|; softplus,\n"
                 "  ELU: s = max(1, |x|)), whose intermediates are as large as s however small the value,\n"
                 "  u(V)*|value| per virtual tensor of type V, input errors propagated to first order.\n"
                 "  Integer outputs: exact (trunc of the reference) unless ref +- E crosses an integer.\n"
                 "  Every output must be finite unless the reference is the same non-finite value.\n"
                 "\n"
                 "Exit codes: 0 pass, 1 fail or API error, 2 not supported, 3 invalid graph, 4 skipped.\n",
                 hdrun::refOpNames().c_str());
}

bool parseArgs(int argc, char** argv, Options* o)
{
    for(int i = 1; i < argc; ++i)
    {
        std::string a = argv[i];
        auto next = [&](const char* what) -> const char* {
            if(i + 1 >= argc)
            {
                std::fprintf(stderr, "hipdnn-run: %s needs a value\n", what);
                return nullptr;
            }
            return argv[++i];
        };
        if(a == "-h" || a == "--help")
        {
            usage(stdout);
            std::exit(0);
        }
        else if(a == "--knob")
        {
            const char* v = next("--knob");
            if(!v)
                return false;
            const std::string kv = v;
            const size_t eq = kv.find('=');
            char* end = nullptr;
            const long long value = eq == std::string::npos ? 0 : std::strtoll(kv.c_str() + eq + 1, &end, 10);
            if(eq == std::string::npos || eq == 0 || end == nullptr || *end != '\0' || end == kv.c_str() + eq + 1)
            {
                std::fprintf(stderr, "hipdnn-run: --knob wants ID=INTEGER, got '%s'\n", v);
                return false;
            }
            o->knobs.emplace_back(kv.substr(0, eq), static_cast<int64_t>(value));
        }
        else if(a == "--outputs-from")
        {
            const char* v = next("--outputs-from");
            if(!v)
                return false;
            o->outputsFrom = v;
        }
        else if(a == "--engine")
        {
            const char* v = next("--engine");
            if(!v)
                return false;
            o->engine = v;
        }
        else if(a == "--iters")
        {
            const char* v = next("--iters");
            if(!v)
                return false;
            o->iters = std::atoi(v);
            if(o->iters < 1)
            {
                std::fprintf(stderr, "hipdnn-run: --iters must be >= 1\n");
                return false;
            }
        }
        else if(a == "--seed")
        {
            const char* v = next("--seed");
            if(!v)
                return false;
            o->seed = std::strtoull(v, nullptr, 0);
        }
        else if(a == "--max-mib")
        {
            const char* v = next("--max-mib");
            if(!v)
                return false;
            o->maxMiB = std::atof(v);
        }
        else if(a == "--max-gflop")
        {
            const char* v = next("--max-gflop");
            if(!v)
                return false;
            o->maxGflop = std::atof(v);
        }
        else if(a == "--dump")
        {
            const char* v = next("--dump");
            if(!v)
                return false;
            o->dumpDir = v;
        }
        else if(a == "--load")
        {
            const char* v = next("--load");
            if(!v)
                return false;
            o->loadDir = v;
        }
        else if(a == "--reference-only")
            o->referenceOnly = true;
        else if(a == "--check")
            o->check = true;
        else if(a == "--device")
            o->device = 1;
        else if(a == "--host")
            o->device = 0;
        else if(a == "--quiet")
            o->quiet = true;
        else if(!a.empty() && a[0] == '-')
        {
            std::fprintf(stderr, "hipdnn-run: unknown option %s\n", a.c_str());
            return false;
        }
        else if(o->file.empty())
            o->file = a;
        else
        {
            std::fprintf(stderr, "hipdnn-run: more than one graph file given\n");
            return false;
        }
    }
    if(o->file.empty())
    {
        usage(stderr);
        return false;
    }
    if(!o->knobs.empty() && o->engine.empty())
    {
        std::fprintf(stderr, "hipdnn-run: --knob needs --engine (knobs belong to one engine)\n");
        return false;
    }
    return true;
}

std::string oneLine(std::string s)
{
    for(char& c : s)
    {
        if(c == '\n' || c == '\r')
            c = ' ';
    }
    return s;
}

// The run's state; descriptors are destroyed in reverse order of creation.
struct Run
{
    Options opt;
    hipdnnHandle_t handle = nullptr;
    std::vector<hipdnnBackendDescriptor_t> descriptors;
    std::string summary; // engine/timing text for the RESULT line

    ~Run()
    {
        for(size_t i = descriptors.size(); i-- > 0;)
        {
            hipdnnBackendDestroyDescriptor(descriptors[i]);
        }
        if(handle)
        {
            hipdnnDestroy(handle);
        }
    }

    hipdnnBackendDescriptor_t own(hipdnnBackendDescriptor_t d)
    {
        descriptors.push_back(d);
        return d;
    }

    int result(int code, const std::string& word, const std::string& detail)
    {
        std::string line = "RESULT: " + word;
        if(!detail.empty())
            line += " (" + oneLine(detail) + ")";
        if(!summary.empty())
            line += " [" + summary + "]";
        std::printf("%s\n", line.c_str());
        std::fflush(stdout);
        return code;
    }

    // apiFail maps a failed call to the exit code: NOT_SUPPORTED is "not supported", BAD_PARAM
    // while loading the graph is "invalid graph", anything else an error.
    int apiFail(hipdnnStatus_t s, const char* what, bool loadingGraph)
    {
        char msg[HIPDNN_ERROR_STRING_MAX_LENGTH + 64];
        hd_report(s, what, msg, sizeof msg);
        if(s == HIPDNN_STATUS_NOT_SUPPORTED)
            return result(kNotSupported, "NOT SUPPORTED", msg);
        if(loadingGraph && (s == HIPDNN_STATUS_BAD_PARAM || s == HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED))
            return result(kInvalid, "INVALID", std::string("the backend rejects the graph: ") + msg);
        return result(kFail, "ERROR", std::string(what) + ": " + msg);
    }
};

// whyNoEngine asks the engines why they do not apply: it repeats the heuristic query with the
// backend's INFO messages captured (engines log their applicability decisions at INFO) and
// returns the "not applicable" / "not supported" ones.
std::string whyNoEngine(hipdnnBackendDescriptor_t graph)
{
    static hd_log_capture capture;
    hd_capture_begin(&capture);
    hipdnnBackendDescriptor_t heur = nullptr;
    hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
    if(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, &heur) == HIPDNN_STATUS_SUCCESS)
    {
        hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph);
        hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode);
        hipdnnBackendFinalize(heur);
        hipdnnBackendDestroyDescriptor(heur);
    }
    hd_capture_end(&capture);
    char scratch[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnGetLastErrorString(scratch, sizeof scratch);
    std::string reasons;
    for(int i = 0; i < capture.count; ++i)
    {
        std::string msg = capture.lines[i];
        if(msg.find("not applicable") == std::string::npos && msg.find("not supported") == std::string::npos)
            continue;
        reasons += (reasons.empty() ? "" : "; ") + msg;
    }
    return reasons;
}

// writeNpy writes a float64 array in NumPy's .npy format (version 1.0).
bool writeNpy(const std::string& path, const std::vector<int64_t>& dims, const std::vector<double>& v)
{
    std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (";
    for(size_t i = 0; i < dims.size(); ++i)
        header += std::to_string(dims[i]) + (dims.size() == 1 ? "," : (i + 1 < dims.size() ? ", " : ""));
    header += "), }";
    while((10 + header.size() + 1) % 64 != 0)
        header += ' ';
    header += '\n';
    FILE* f = std::fopen(path.c_str(), "wb");
    if(!f)
        return false;
    const unsigned char magic[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
    const unsigned char len[2] = {static_cast<unsigned char>(header.size() & 0xFF),
                                  static_cast<unsigned char>(header.size() >> 8)};
    bool ok = std::fwrite(magic, 1, 8, f) == 8 && std::fwrite(len, 1, 2, f) == 2
              && std::fwrite(header.data(), 1, header.size(), f) == header.size()
              && std::fwrite(v.data(), sizeof(double), v.size(), f) == v.size();
    return std::fclose(f) == 0 && ok;
}

// definedRows: for attention outputs, how many rows of each batch an engine writes when the
// graph gives sequence lengths (O, stats and dQ follow seq_len_q; dK and dV follow seq_len_kv);
// the rows past them are undefined and keep the output poison.
std::map<int64_t, std::vector<int64_t>> definedRows(const hdrun::Graph& g, const hdrun::Buffers& buffers)
{
    std::map<int64_t, std::vector<int64_t>> out;
    auto lengths = [&](int64_t uid) {
        std::vector<int64_t> v;
        const hdrun::Tensor* t = uid >= 0 ? g.tensor(uid) : nullptr;
        if(t != nullptr)
            for(double x : buffers.dense(*t))
                v.push_back(static_cast<int64_t>(x));
        return v;
    };
    for(const hdrun::Node& n : g.nodes)
    {
        const bool fwd = n.type == "SdpaAttributes", bwd = n.type == "SdpaBackwardAttributes";
        if(!fwd && !bwd)
            continue;
        const std::vector<int64_t> q = lengths(n.uid("seq_len_q_tensor_uid")), kv = lengths(n.uid("seq_len_kv_tensor_uid"));
        for(const char* key : {"o_tensor_uid", "stats_tensor_uid", "dq_tensor_uid"})
            if(!q.empty() && n.uid(key) >= 0 && (fwd || std::string(key) == "dq_tensor_uid"))
                out[n.uid(key)] = q;
        for(const char* key : {"dk_tensor_uid", "dv_tensor_uid"})
            if(bwd && !kv.empty() && n.uid(key) >= 0)
                out[n.uid(key)] = kv;
    }
    return out;
}

bool dumpTensors(const std::string& dir, const hdrun::Graph& g, const hdrun::Buffers& buffers,
                 const std::map<int64_t, hdrun::RefTensor>* refs)
{
    bool ok = true;
    for(const auto& b : buffers.all())
    {
        if(!hdrun::dtypeIsFloat(b.tensor->dtype) && !hdrun::dtypeIsInt(b.tensor->dtype))
            continue;
        ok = writeNpy(dir + "/t" + std::to_string(b.tensor->uid) + ".npy", b.tensor->dims, buffers.dense(*b.tensor)) && ok;
    }
    if(refs)
    {
        for(const auto& kv : *refs)
        {
            const hdrun::Tensor* t = g.tensor(kv.first);
            if(t)
                ok = writeNpy(dir + "/ref" + std::to_string(kv.first) + ".npy", kv.second.dims, kv.second.v) && ok;
        }
    }
    return ok;
}

// readNpy reads a float64 C-order array as writeNpy writes it from an open file; false when the
// file holds another kind.
bool readNpy(FILE* f, std::vector<int64_t>* dims, std::vector<double>* v)
{
    unsigned char head[10];
    std::string header;
    if(std::fread(head, 1, 10, f) != 10 || head[0] != 0x93 || head[6] != 1)
        return false;
    header.resize(static_cast<size_t>(head[8] | (head[9] << 8)));
    if(std::fread(&header[0], 1, header.size(), f) != header.size() || header.find("'descr': '<f8'") == std::string::npos
       || header.find("'fortran_order': False") == std::string::npos)
        return false;
    const size_t open = header.find("'shape': ("), close = header.find(')', open);
    if(open == std::string::npos || close == std::string::npos)
        return false;
    const std::string shape = header.substr(open + 10, close - open - 10);
    int64_t n = 1;
    dims->clear();
    for(size_t pos = 0; pos < shape.size();)
    {
        const size_t comma = shape.find(',', pos);
        const std::string item = shape.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        if(item.find_first_of("0123456789") != std::string::npos)
        {
            dims->push_back(std::atoll(item.c_str()));
            n *= dims->back();
        }
        pos = comma == std::string::npos ? shape.size() : comma + 1;
    }
    v->resize(static_cast<size_t>(n));
    return std::fread(v->data(), sizeof(double), v->size(), f) == v->size();
}

// loadTensors replaces the filled inputs (or, with outputs, the results, each of which dir must
// hold) that dir holds as t<uid>.npy; "" or what went wrong.
std::string loadTensors(const std::string& dir, hdrun::Buffers& buffers, bool outputs = false)
{
    for(const auto& b : buffers.all())
    {
        if(b.output != outputs)
            continue;
        const std::string path = dir + "/t" + std::to_string(b.tensor->uid) + ".npy";
        FILE* f = std::fopen(path.c_str(), "rb");
        if(!f && outputs)
            return "cannot read " + path;
        if(!f)
            continue; // not in the dump: keep the filled values
        std::vector<int64_t> dims;
        std::vector<double> v;
        const bool ok = readNpy(f, &dims, &v);
        std::fclose(f);
        if(!ok)
            return path + " is not a float64 array as --dump writes them";
        if(dims != b.tensor->dims)
            return path + " has shape " + hdrun::dimsText(dims) + ", tensor uid " + std::to_string(b.tensor->uid) + " is "
                   + hdrun::dimsText(b.tensor->dims);
        buffers.setDense(*b.tensor, v);
    }
    return "";
}

// fillInputs fills the inputs by rule, then reads those --load names; "" or what went wrong.
std::string fillInputs(const hdrun::Graph& g, const Options& opt, hdrun::Buffers& buffers)
{
    buffers.fill(g, hdrun::fillRules(g), opt.seed);
    if(opt.loadDir.empty())
        return "";
    const std::string why = loadTensors(opt.loadDir, buffers);
    return why.empty() ? "" : "--load: " + why;
}

// reducedReductionU is the unit roundoff a plan's engine config announces for its sums: 2^-13
// with REDUCED_PRECISION_REDUCTION (Hopper's fp8 tensor cores keep about 14 significant bits
// while they accumulate), else 0 (the compute type's).
double reducedReductionU(hipdnnBackendDescriptor_t cfg)
{
    hipdnnBackendNumericalNote_t notes[HIPDNN_NUMERICAL_NOTE_TYPE_COUNT];
    int64_t n = 0;
    if(hipdnnBackendGetAttribute(cfg, HIPDNN_ATTR_ENGINE_NUMERICAL_NOTE, HIPDNN_TYPE_NUMERICAL_NOTE,
                                 HIPDNN_NUMERICAL_NOTE_TYPE_COUNT, &n, notes)
       != HIPDNN_STATUS_SUCCESS)
        return 0;
    for(int64_t i = 0; i < n && i < HIPDNN_NUMERICAL_NOTE_TYPE_COUNT; ++i)
        if(notes[i] == HIPDNN_NUMERICAL_NOTE_REDUCED_PRECISION_REDUCTION)
            return 1.0 / 8192;
    return 0;
}

// hostMemoryEngine: the registered engines that read host memory only (EngineNames.h); every
// other engine (cuDNN, CUDA RTC) gets device memory by default.
bool hostMemoryEngine(const std::string& name)
{
#define HDRUN_HOST_NAME(n) #n,
    static const char* const kHost[] = {HIPDNN_PLUGIN_HOST_MEMORY_ENGINE_NAMES(HDRUN_HOST_NAME)};
#undef HDRUN_HOST_NAME
    for(const char* h : kHost)
        if(name == h || name == std::string(HIPDNN_BENCHMARK_ENGINE_PREFIX) + h)
            return true;
    return false;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n == 0 ? 0 : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

std::string engineName(hipdnnHandle_t handle, int64_t id)
{
    size_t len = 0;
    if(hipdnnGetEngineNameById_ext(handle, id, nullptr, &len) != HIPDNN_STATUS_SUCCESS || len == 0)
    {
        char scratch[HIPDNN_ERROR_STRING_MAX_LENGTH];
        hipdnnGetLastErrorString(scratch, sizeof scratch);
        return "(unknown)";
    }
    std::string name(len, '\0');
    if(hipdnnGetEngineNameById_ext(handle, id, &name[0], &len) != HIPDNN_STATUS_SUCCESS)
        return "(unknown)";
    name.resize(std::strlen(name.c_str()));
    return name;
}

std::string mib(double bytes)
{
    char b[64];
    std::snprintf(b, sizeof b, "%.1f MiB", bytes / 1048576.0);
    return b;
}

int runMain(Run& r)
{
    const Options& opt = r.opt;
#define API(call, what, loading)                 \
    do                                           \
    {                                            \
        hipdnnStatus_t s_ = (call);              \
        if(s_ != HIPDNN_STATUS_SUCCESS)          \
            return r.apiFail(s_, what, loading); \
    } while(0)

    std::ifstream in(opt.file, std::ios::binary);
    if(!in)
        return r.result(kFail, "ERROR", "cannot read " + opt.file);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());

    API(hipdnnCreate(&r.handle), "hipdnnCreate", false);
    hipdnnBackendDescriptor_t graph = nullptr;
    API(hipdnnBackendCreateAndDeserializeJsonGraph_ext(&graph, text.data(), text.size()),
        "hipdnnBackendCreateAndDeserializeJsonGraph_ext", true);
    r.own(graph);
    API(hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &r.handle),
        "set HIPDNN_ATTR_OPERATIONGRAPH_HANDLE", true);
    API(hipdnnBackendFinalize(graph), "finalize the operation graph", true);

    // The canonical JSON of what the backend loaded: one spelling for every corpus dialect.
    size_t jsonSize = 0;
    API(hipdnnBackendGetSerializedJsonGraph_ext(graph, 0, &jsonSize, nullptr), "hipdnnBackendGetSerializedJsonGraph_ext", false);
    std::string canonical(jsonSize, '\0');
    API(hipdnnBackendGetSerializedJsonGraph_ext(graph, jsonSize, &jsonSize, reinterpret_cast<char*>(&canonical[0])),
        "hipdnnBackendGetSerializedJsonGraph_ext", false);
    canonical.resize(std::strlen(canonical.c_str()));
    hdrun::Graph g;
    std::string err;
    if(!hdrun::loadGraph(canonical, &g, &err))
        return r.result(kFail, "ERROR", "cannot read the backend's canonical JSON: " + err);
    if(!opt.quiet)
    {
        std::string ops;
        for(const auto& n : g.nodes)
            ops += (ops.empty() ? "" : ", ") + n.type;
        std::printf("graph: %s \"%s\": %zu nodes (%s), %zu tensors\n", opt.file.c_str(), g.name.c_str(), g.nodes.size(),
                    ops.c_str(), g.tensors.size());
        std::printf("library: hipDNN backend %s\n", hipdnnVersionString_ext());
    }

    if(opt.referenceOnly)
    {
        hdrun::Buffers buffers;
        if(!buffers.allocate(g, &err))
            return r.result(kFail, "ERROR", err);
        const std::string why = fillInputs(g, opt, buffers);
        if(!why.empty())
            return r.result(kFail, "ERROR", why);
        std::map<int64_t, hdrun::RefTensor> refs;
        hdrun::CheckResult cr = hdrun::checkGraph(g, buffers, opt.quiet, false, &refs);
        if(!opt.dumpDir.empty() && !dumpTensors(opt.dumpDir, g, buffers, &refs))
            return r.result(kFail, "ERROR", "cannot write the dump to " + opt.dumpDir);
        return r.result(kPass, "REFERENCE ONLY",
                        std::to_string(refs.size()) + " reference output(s), " + std::to_string(cr.uncheckedNodes)
                            + " node(s) without reference");
    }

    // Engine selection and plan: the timed "plan build".
    const double t0 = hd_now();
    hipdnnBackendDescriptor_t cfg = nullptr;
    std::string how;
    if(!opt.engine.empty())
    {
        int64_t id = 0;
        API(hipdnnGetEngineIdByName_ext(r.handle, opt.engine.c_str(), &id), "hipdnnGetEngineIdByName_ext", false);
        hipdnnBackendDescriptor_t engine = nullptr;
        API(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, &engine), "create ENGINE", false);
        r.own(engine);
        API(hipdnnBackendSetAttribute(engine, HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph),
            "set HIPDNN_ATTR_ENGINE_OPERATION_GRAPH", false);
        API(hipdnnBackendSetAttribute(engine, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &id),
            "set HIPDNN_ATTR_ENGINE_GLOBAL_INDEX", false);
        {
            hipdnnStatus_t s = hipdnnBackendFinalize(engine);
            if(s != HIPDNN_STATUS_SUCCESS)
            {
                char msg[HIPDNN_ERROR_STRING_MAX_LENGTH + 64];
                hd_report(s, "finalize the engine", msg, sizeof msg);
                std::string why = whyNoEngine(graph);
                return r.result(kNotSupported, "NOT SUPPORTED",
                                "engine " + opt.engine + " does not apply to this graph: " + msg
                                    + (why.empty() ? "" : "; " + why));
            }
        }
        API(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &cfg), "create ENGINECFG", false);
        r.own(cfg);
        API(hipdnnBackendSetAttribute(cfg, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &engine),
            "set HIPDNN_ATTR_ENGINECFG_ENGINE", false);
        for(const auto& [id, value] : opt.knobs)
        {
            hipdnnBackendDescriptor_t choice = nullptr;
            API(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR, &choice), "create KNOB_CHOICE", false);
            r.own(choice);
            API(hipdnnBackendSetAttribute(choice, HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE, HIPDNN_TYPE_CHAR,
                                          static_cast<int64_t>(id.size()), id.data()),
                "set HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE", false);
            API(hipdnnBackendSetAttribute(choice, HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, HIPDNN_TYPE_INT64, 1, &value),
                "set HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE", false);
            API(hipdnnBackendFinalize(choice), "finalize the knob choice", false);
            API(hipdnnBackendSetAttribute(cfg, HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &choice),
                "set HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES", false);
        }
        API(hipdnnBackendFinalize(cfg), "finalize the engine config", false);
        how = "by name";
    }
    else
    {
        hipdnnBackendDescriptor_t heur = nullptr;
        hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
        API(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, &heur), "create ENGINEHEUR", false);
        r.own(heur);
        API(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph),
            "set HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH", false);
        API(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode),
            "set HIPDNN_ATTR_ENGINEHEUR_MODE", false);
        API(hipdnnBackendFinalize(heur), "finalize the engine heuristic", false);
        int64_t count = 0;
        API(hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, nullptr),
            "query HIPDNN_ATTR_ENGINEHEUR_RESULTS", false);
        if(count < 1)
        {
            std::string why = whyNoEngine(graph);
            return r.result(kNotSupported, "NOT SUPPORTED",
                            "no engine supports this graph: "
                                + (why.empty() ? "the FALLBACK heuristic returned no configuration" : why));
        }
        API(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &cfg), "create ENGINECFG", false);
        r.own(cfg);
        int64_t got = 0;
        API(hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &got, &cfg),
            "get HIPDNN_ATTR_ENGINEHEUR_RESULTS", false);
        API(hipdnnBackendFinalize(cfg), "finalize the engine config", false);
        how = "first of " + std::to_string(count) + " from the FALLBACK heuristic";
    }
    hipdnnBackendDescriptor_t plan = nullptr;
    API(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &plan), "create EXECUTION_PLAN", false);
    r.own(plan);
    API(hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cfg),
        "set HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG", false);
    API(hipdnnBackendFinalize(plan), "finalize the execution plan", false);
    const double buildMs = (hd_now() - t0) * 1e3;

    int64_t engineId = 0, wsSize = 0;
    API(hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_GLOBAL_INDEX_EXT, HIPDNN_TYPE_INT64, 1, nullptr,
                                  &engineId),
        "get HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_GLOBAL_INDEX_EXT", false);
    API(hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, nullptr, &wsSize),
        "get HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE", false);
    const std::string ename = engineName(r.handle, engineId);
    char idText[32];
    std::snprintf(idText, sizeof idText, "0x%016llX", static_cast<unsigned long long>(engineId));
    if(!opt.quiet)
    {
        std::printf("engine: %s (id %s), %s\n", ename.c_str(), idText, how.c_str());
        std::printf("plan build: %.3f ms (%s + engine config + plan finalize), workspace %lld bytes\n", buildMs,
                    opt.engine.empty() ? "heuristic" : "engine", static_cast<long long>(wsSize));
        // The plan as the backend describes it (engine, knob choices, workspace, numerical notes).
        int64_t len = 0;
        if(hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_JSON_REPRESENTATION, HIPDNN_TYPE_CHAR, 0, &len, nullptr)
               == HIPDNN_STATUS_SUCCESS
           && len > 0)
        {
            std::string json(static_cast<size_t>(len) + 1, '\0');
            if(hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_JSON_REPRESENTATION, HIPDNN_TYPE_CHAR,
                                         static_cast<int64_t>(json.size()), &len, json.data())
               == HIPDNN_STATUS_SUCCESS)
                std::printf("plan: %s\n", json.c_str());
        }
    }
    char sum[160];
    std::snprintf(sum, sizeof sum, "engine %s, plan %.2f ms", ename.c_str(), buildMs);
    r.summary = sum;

    // Budgets.
    double bytes = static_cast<double>(std::max<int64_t>(wsSize, 0));
    for(const auto& t : g.tensors)
        bytes += static_cast<double>(hdrun::tensorBytes(t));
    if(opt.maxMiB > 0 && bytes > opt.maxMiB * 1048576.0)
        return r.result(kSkipped, "SKIP", "tensors and workspace need " + mib(bytes) + ", budget " + mib(opt.maxMiB * 1048576.0));
    const double flops = hdrun::estimateFlops(g);
    if(opt.check && opt.maxGflop > 0 && flops > opt.maxGflop * 1e9)
    {
        char b[128];
        std::snprintf(b, sizeof b, "reference needs about %.1f GFLOP, budget %.1f GFLOP", flops / 1e9, opt.maxGflop);
        return r.result(kSkipped, "SKIP", b);
    }

    hdrun::Buffers buffers;
    if(!buffers.allocate(g, &err) || !buffers.allocateWorkspace(wsSize, &err))
        return r.result(kFail, "ERROR", err);
    const std::string why = fillInputs(g, opt, buffers);
    if(!why.empty())
        return r.result(kFail, "ERROR", why);

    std::vector<int64_t> uids;
    std::vector<void*> ptrs;
    for(const auto& b : buffers.all())
    {
        uids.push_back(b.tensor->uid);
        ptrs.push_back(b.data);
    }
    void* ws = buffers.workspace();
    // Device memory for a GPU engine: copy the seeded inputs over, and the results back below.
    const bool onDevice = opt.device == 1 || (opt.device < 0 && !hostMemoryEngine(ename));
    hdrun::DeviceMirror mirror;
    if(onDevice)
    {
        if(!mirror.upload(buffers, &err) || !mirror.allocateWorkspace(wsSize, &err))
            return r.result(kFail, "ERROR", "--device: " + err);
        ptrs = mirror.pointers();
        ws = mirror.workspace();
        if(!opt.quiet)
            std::printf("device memory: inputs copied to the device, results copied back\n");
    }
    hipdnnBackendDescriptor_t pack = nullptr;
    API(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &pack), "create VARIANT_PACK", false);
    r.own(pack);
    API(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, static_cast<int64_t>(uids.size()),
                                  uids.data()),
        "set HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS", false);
    API(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR,
                                  static_cast<int64_t>(ptrs.size()), ptrs.data()),
        "set HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS", false);
    API(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &ws),
        "set HIPDNN_ATTR_VARIANT_PACK_WORKSPACE", false);
    API(hipdnnBackendFinalize(pack), "finalize the variant pack", false);

    API(hipdnnBackendExecute(r.handle, plan, pack), "hipdnnBackendExecute (warm-up)", false);
    // Device memory: each run timed by CUDA events around it; host memory: the host clock.
    std::vector<double> times;
    hdrun::DeviceTimer timer;
    if(onDevice && !timer.create(opt.iters, &err))
        return r.result(kFail, "ERROR", "--device: " + err);
    for(int i = 0; i < opt.iters; ++i)
    {
        const double s = hd_now();
        if(onDevice && !timer.record(i, false, &err))
            return r.result(kFail, "ERROR", err);
        API(hipdnnBackendExecute(r.handle, plan, pack), "hipdnnBackendExecute", false);
        if(onDevice && !timer.record(i, true, &err))
            return r.result(kFail, "ERROR", err);
        if(!onDevice)
            times.push_back((hd_now() - s) * 1e3);
    }
    if(onDevice && !timer.elapsedMs(&times, &err))
        return r.result(kFail, "ERROR", err);
    if(onDevice && !mirror.download(buffers, &err))
        return r.result(kFail, "ERROR", "--device: " + err);
    if(!opt.outputsFrom.empty())
    {
        // --outputs-from: check values written elsewhere instead of the engine's (the checker's
        // own test: a wrong result must fail).
        const std::string why = loadTensors(opt.outputsFrom, buffers, true);
        if(!why.empty())
            return r.result(kFail, "ERROR", "--outputs-from: " + why);
    }
    const double med = median(times);
    if(!opt.quiet)
    {
        std::printf("execute: median %.3f ms of %d (min %.3f, max %.3f; %s), after 1 warm-up; %s of tensors and workspace\n",
                    med, opt.iters, *std::min_element(times.begin(), times.end()), *std::max_element(times.begin(), times.end()),
                    onDevice ? "CUDA events" : "host clock", mib(static_cast<double>(buffers.totalBytes())).c_str());
    }
    std::snprintf(sum, sizeof sum, "engine %s, plan %.2f ms, execute %.3f ms median of %d", ename.c_str(), buildMs, med,
                  opt.iters);
    r.summary = sum;

    if(!opt.check)
    {
        if(!opt.dumpDir.empty() && !dumpTensors(opt.dumpDir, g, buffers, nullptr))
            return r.result(kFail, "ERROR", "cannot write the dump to " + opt.dumpDir);
        const std::map<int64_t, std::vector<int64_t>> rows = definedRows(g, buffers);
        int64_t nonFinite = 0;
        for(const auto& b : buffers.all())
        {
            if(!b.output || !hdrun::dtypeIsFloat(b.tensor->dtype))
                continue;
            auto it = rows.find(b.tensor->uid);
            nonFinite += buffers.nonFinite(*b.tensor, it == rows.end() ? nullptr : &it->second);
        }
        if(nonFinite > 0)
            return r.result(kFail, "FAIL", std::to_string(nonFinite) + " non-finite output values");
        return r.result(kPass, "RAN", "outputs finite; no --check");
    }

    const double c0 = hd_now();
    std::map<int64_t, hdrun::RefTensor> refs;
    hdrun::CheckResult cr =
        hdrun::checkGraph(g, buffers, opt.quiet, true, opt.dumpDir.empty() ? nullptr : &refs, reducedReductionU(cfg));
    const double checkS = hd_now() - c0;
    if(!opt.dumpDir.empty() && !dumpTensors(opt.dumpDir, g, buffers, &refs))
        return r.result(kFail, "ERROR", "cannot write the dump to " + opt.dumpDir);
    std::string detail = std::to_string(cr.checkedTensors) + " output(s) checked";
    if(cr.failedTensors > 0)
        detail += ", " + std::to_string(cr.failedTensors) + " FAILED";
    char numbers[160];
    std::snprintf(numbers, sizeof numbers, ", max |err| %.3g, max err/tol %.3g, %lld non-finite; reference %.2f s",
                  cr.maxAbsError, cr.maxTolRatio, static_cast<long long>(cr.nonFinite), checkS);
    detail += numbers;
    if(cr.uncheckedNodes > 0)
        detail += "; unchecked: " + cr.uncheckedWhy;
    if(cr.failedTensors > 0 || cr.nonFinite > 0)
        return r.result(kFail, "FAIL", detail);
    if(cr.checkedTensors == 0)
        return r.result(kPass, "UNCHECKED", detail);
    return r.result(kPass, "PASS", detail);
#undef API
}

} // namespace

int main(int argc, char** argv)
{
    Run r;
    if(!parseArgs(argc, argv, &r.opt))
        return kUsage;
    return runMain(r);
}
