// onednn_sdpa_layout: SDPA on HIPDNNGO_ONEDNN with the rows of its tensors placed by the caller,
// where the placement goes wrong (the graph tests in graphs/ check the values on well-formed data).
// Paged K / V caches (forward):
//  - the table entries past a batch's seq_len_kv name no block (-5 and 1000), and the cache
//    blocks no valid key uses hold NaN: neither may be read, so O must be finite and equal to the
//    CPU reference engine's O on the same data (within 1e-5);
//  - an entry a valid key uses that names no block fails the execute with BAD_PARAM and a message
//    naming the entry, its value and the cache's size; so does a seq_len_kv above Skv.
// Ragged (THD) Q, K, V, O:
//  - O's elements past the valid rows of the last batch keep the caller's values (rows past the
//    lengths do not exist and are not written); the valid rows equal the reference engine's;
//  - an offset whose batch would reach past the tensor's span, and output batches that overlap
//    (ascending offsets, and descending ones), fail with BAD_PARAM naming them, before O is
//    written.
// After each rejected call the plan runs correctly again.
// Sequence lengths: a serving-sized graph (B 8, H 8, Sq 512, Skv 32768, D 128) plans with well
// under 1 GiB of workspace: its [B, H, Sq, Skv] scores (4 GiB) are never materialised; a paged
// fp16 forward and a bf16 backward plan with per-thread blocks only (no whole-tensor copies).
#include "TestPlan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <thread>

namespace
{

using testplan::ck;

// ---- paged ----

// q, o [B=2, H=2, Sq=4, D=8]; k, v caches [6 blocks, Hk=1, 4 rows, 8]; tables [2, P=3] so that
// Skv = 3 * 4 = 12 (cuDNN's inference without max_seq_len_kv).
constexpr int64_t B = 2, H = 2, Sq = 4, D = 8, Blocks = 6, Block = 4, P = 3, Skv = P * Block;
const char* const kGraph = R"({"name": "sdpa_paged", "compute_data_type": "float", "intermediate_data_type": "float",
 "io_data_type": "float", "is_override_shape_enabled": false, "tensors": [
 {"uid": 1, "name": "q", "data_type": "float", "dims": [2, 2, 4, 8], "strides": [64, 32, 8, 1], "virtual": false},
 {"uid": 2, "name": "k", "data_type": "float", "dims": [6, 1, 4, 8], "strides": [32, 32, 8, 1], "virtual": false},
 {"uid": 3, "name": "v", "data_type": "float", "dims": [6, 1, 4, 8], "strides": [32, 32, 8, 1], "virtual": false},
 {"uid": 4, "name": "o", "data_type": "float", "dims": [2, 2, 4, 8], "strides": [64, 32, 8, 1], "virtual": false},
 {"uid": 5, "name": "seq_len_q", "data_type": "int32", "dims": [2, 1, 1, 1], "strides": [1, 1, 1, 1], "virtual": false},
 {"uid": 6, "name": "seq_len_kv", "data_type": "int32", "dims": [2, 1, 1, 1], "strides": [1, 1, 1, 1], "virtual": false},
 {"uid": 7, "name": "page_table_k", "data_type": "int32", "dims": [2, 3], "strides": [3, 1], "virtual": false},
 {"uid": 8, "name": "page_table_v", "data_type": "int32", "dims": [2, 3], "strides": [3, 1], "virtual": false}],
 "nodes": [{"type": "SdpaAttributes", "name": "sdpa", "compute_data_type": "float",
  "inputs": {"q_tensor_uid": 1, "k_tensor_uid": 2, "v_tensor_uid": 3, "seq_len_q_tensor_uid": 5,
   "seq_len_kv_tensor_uid": 6, "page_table_k_tensor_uid": 7, "page_table_v_tensor_uid": 8},
  "outputs": {"o_tensor_uid": 4},
  "attributes": {"causal_mask": false, "diagonal_alignment": "TOP_LEFT"}}]})";

struct Data
{
    std::vector<float> q, k, v;
    std::vector<int32_t> lq{4, 3}, lkv{6, 9}, tableK, tableV;
};

// makeData: batch 0 uses blocks 4, 1 (6 keys: pages 0-1), batch 1 blocks 0, 5, 2 (9 keys); block 3
// is used by nobody and holds NaN, as do the rows of block 1 past key 5 of batch 0 (rows 2-3)
// and of block 2 past key 8 of batch 1 (rows 1-3). Page 2 of batch 0 is past its length.
Data makeData()
{
    Data d;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for(int64_t i = 0; i < B * H * Sq * D; ++i)
        d.q.push_back(static_cast<float>((i * 7 + 3) % 11) / 8.f - 0.6f);
    d.k.assign(static_cast<size_t>(Blocks * Block * D), nan);
    d.v.assign(d.k.size(), nan);
    d.tableK = {4, 1, -5, 0, 5, 2};
    d.tableV = {4, 1, 1000, 0, 5, 2};
    for(int64_t b = 0; b < B; ++b)
        for(int64_t j = 0; j < d.lkv[static_cast<size_t>(b)]; ++j)
        {
            const int64_t row = d.tableK[static_cast<size_t>(b * P + j / Block)] * Block + j % Block;
            for(int64_t e = 0; e < D; ++e)
            {
                const size_t at = static_cast<size_t>(row * D + e);
                d.k[at] = static_cast<float>((row * 5 + e * 3) % 13) / 10.f - 0.5f;
                d.v[at] = static_cast<float>((row * 3 + e * 7) % 17) / 8.f - 1.f;
            }
        }
    return d;
}

// run executes the plan into a fresh O; returns the status and the last error.
hipdnnStatus_t run(hipdnnHandle_t h, const testplan::Plan& plan, Data& d, std::vector<float>* o, std::string* error)
{
    o->assign(d.q.size(), -7.f);
    return testplan::execute(h, plan, {1, 2, 3, 4, 5, 6, 7, 8},
                             {d.q.data(), d.k.data(), d.v.data(), o->data(), d.lq.data(), d.lkv.data(), d.tableK.data(),
                              d.tableV.data()},
                             error);
}

int checkPaged(hipdnnHandle_t h)
{
    int failures = 0;
    Data d = makeData();
    const testplan::Plan onednn(h, kGraph, "HIPDNNGO_ONEDNN"), reference(h, kGraph, "HIPDNNGO_CPU_REFERENCE");
    std::vector<float> o, want;
    std::string error;
    ck(run(h, reference, d, &want, &error), "reference engine");
    // compare: O against the reference engine's (finite, within 1e-5).
    auto compare = [&](const char* when) {
        for(size_t i = 0; i < o.size(); ++i)
            if(!std::isfinite(o[i]) || std::fabs(o[i] - want[i]) > 1e-5f)
            {
                std::fprintf(stderr, "FAIL: %s: O[%zu] = %g, the reference engine gives %g\n", when, i, o[i], want[i]);
                ++failures;
                return;
            }
    };
    ck(run(h, onednn, d, &o, &error), "oneDNN engine");
    compare("entries past seq_len_kv naming no block, NaN in blocks no key uses");

    struct Bad
    {
        bool values;
        size_t entry;
        int32_t value;
        int32_t lkv1; // seq_len_kv[1]
        const char* want;
    } bads[] = {
        {false, 4, 6, 9, "page_table_k[1][1] = 6 names no block of the 6-block cache"},
        {true, 0, -1, 9, "page_table_v[0][0] = -1 names no block of the 6-block cache"},
        {false, 0, 4, Skv + 1, "seq_len_kv[1] = 13 is outside [0, 12]"},
    };
    for(const Bad& b : bads)
    {
        Data e = d;
        (b.values ? e.tableV : e.tableK)[b.entry] = b.value;
        e.lkv[1] = b.lkv1;
        const hipdnnStatus_t s = run(h, onednn, e, &o, &error);
        if(s != HIPDNN_STATUS_PLUGIN_ERROR || error.find(b.want) == std::string::npos
           || error.find("HIPDNN_PLUGIN_STATUS_BAD_PARAM") == std::string::npos)
        {
            std::fprintf(stderr, "FAIL: got %s \"%s\", want PLUGIN_ERROR with HIPDNN_PLUGIN_STATUS_BAD_PARAM and \"%s\"\n",
                         hipdnnGetErrorString(s), error.c_str(), b.want);
            ++failures;
        }
        ck(run(h, onednn, d, &o, &error), "execute after a rejected page table");
        compare("after a rejected page table");
    }
    if(failures == 0)
        std::printf("PASS: paged K / V on HIPDNNGO_ONEDNN: entries and blocks past seq_len_kv are not read; a bad entry "
                    "or length is rejected with BAD_PARAM naming it; the plan runs again afterwards\n");
    return failures;
}

// ---- ragged ----

// q, k, v, o [B=2, H=2, S=4, D=8] in THD order (strides [64, 8, 16, 1]: a batch's rows are
// token-major), all on int32 offsets [B + 1]: batches packed back to back by their lengths.
const char* const kRaggedGraph = R"({"name": "sdpa_ragged", "compute_data_type": "float",
 "intermediate_data_type": "float", "io_data_type": "float", "is_override_shape_enabled": false, "tensors": [
 {"uid": 1, "name": "q", "data_type": "float", "dims": [2, 2, 4, 8], "strides": [64, 8, 16, 1], "virtual": false,
  "ragged_offset_tensor_uid": 7},
 {"uid": 2, "name": "k", "data_type": "float", "dims": [2, 2, 4, 8], "strides": [64, 8, 16, 1], "virtual": false,
  "ragged_offset_tensor_uid": 8},
 {"uid": 3, "name": "v", "data_type": "float", "dims": [2, 2, 4, 8], "strides": [64, 8, 16, 1], "virtual": false,
  "ragged_offset_tensor_uid": 8},
 {"uid": 4, "name": "o", "data_type": "float", "dims": [2, 2, 4, 8], "strides": [64, 8, 16, 1], "virtual": false,
  "ragged_offset_tensor_uid": 7},
 {"uid": 5, "name": "seq_len_q", "data_type": "int32", "dims": [2, 1, 1, 1], "strides": [1, 1, 1, 1], "virtual": false},
 {"uid": 6, "name": "seq_len_kv", "data_type": "int32", "dims": [2, 1, 1, 1], "strides": [1, 1, 1, 1], "virtual": false},
 {"uid": 7, "name": "offsets_q", "data_type": "int32", "dims": [3], "strides": [1], "virtual": false},
 {"uid": 8, "name": "offsets_kv", "data_type": "int32", "dims": [3], "strides": [1], "virtual": false}],
 "nodes": [{"type": "SdpaAttributes", "name": "sdpa", "compute_data_type": "float",
  "inputs": {"q_tensor_uid": 1, "k_tensor_uid": 2, "v_tensor_uid": 3, "seq_len_q_tensor_uid": 5,
   "seq_len_kv_tensor_uid": 6},
  "outputs": {"o_tensor_uid": 4},
  "attributes": {"causal_mask": false, "diagonal_alignment": "TOP_LEFT", "padding_mask": true}}]})";

int checkRagged(hipdnnHandle_t h)
{
    constexpr int64_t Span = 2 * 4 * 2 * 8, Row = 2 * 8; // elements of the box; of one token (H * D)
    std::vector<float> q(Span), k(Span), v(Span);
    for(int64_t i = 0; i < Span; ++i)
    {
        q[static_cast<size_t>(i)] = static_cast<float>((i * 7 + 3) % 11) / 8.f - 0.6f;
        k[static_cast<size_t>(i)] = static_cast<float>((i * 5 + 1) % 13) / 10.f - 0.5f;
        v[static_cast<size_t>(i)] = static_cast<float>((i * 3 + 2) % 17) / 8.f - 1.f;
    }
    std::vector<int32_t> lq{3, 2}, lkv{4, 3}, offQ{0, 3 * Row, 5 * Row}, offKv{0, 4 * Row, 7 * Row};
    auto run = [&](const testplan::Plan& plan, std::vector<int32_t>& oq, std::vector<float>* o, std::string* error) {
        o->assign(static_cast<size_t>(Span), -7.f);
        return testplan::execute(h, plan, {1, 2, 3, 4, 5, 6, 7, 8},
                                 {q.data(), k.data(), v.data(), o->data(), lq.data(), lkv.data(), oq.data(), offKv.data()},
                                 error);
    };
    int failures = 0;
    const testplan::Plan onednn(h, kRaggedGraph, "HIPDNNGO_ONEDNN"), reference(h, kRaggedGraph, "HIPDNNGO_CPU_REFERENCE");
    std::vector<float> o, want;
    std::string error;
    ck(run(reference, offQ, &want, &error), "reference engine");
    auto compare = [&](const char* when) {
        for(int64_t i = 0; i < Span; ++i)
        {
            const size_t at = static_cast<size_t>(i);
            const bool exists = i < 5 * Row; // the 3 + 2 valid tokens
            if(exists ? std::fabs(o[at] - want[at]) > 1e-5f : o[at] != -7.f)
            {
                std::fprintf(stderr, "FAIL: ragged, %s: O[%lld] = %g, want %g%s\n", when, static_cast<long long>(i), o[at],
                             exists ? want[at] : -7.f, exists ? " (the reference engine's)" : " (past the valid rows: untouched)");
                ++failures;
                return;
            }
        }
    };
    ck(run(onednn, offQ, &o, &error), "oneDNN engine");
    compare("valid rows against the reference engine, the rest untouched");
    struct Bad
    {
        std::vector<int32_t> offsets; // of q and o
        const char* want;
    } bads[] = {
        // Batch 1's 2 tokens from element 100 reach element 100 + Row + Row - 1 = 131, past the 128 of the box.
        {{0, 100, 5 * Row}, "ragged offset of uid 1 ('q') batch 1 = 100 with 2 rows reaches past the tensor's 128 elements"},
        // Batch 0's 3 tokens reach element 3 * Row - 1; batch 1 starts at 2 * Row (ascending offsets).
        {{0, 2 * Row, 5 * Row}, "ragged output uid 4 ('o') has overlapping batches (0 and 1)"},
        // Descending offsets: batch 0 at [Row, 4 * Row), batch 1 at [0, 2 * Row).
        {{Row, 0, 5 * Row}, "ragged output uid 4 ('o') has overlapping batches (0 and 1)"},
    };
    for(Bad& b : bads)
    {
        const hipdnnStatus_t s = run(onednn, b.offsets, &o, &error);
        if(s != HIPDNN_STATUS_PLUGIN_ERROR || error.find(b.want) == std::string::npos
           || error.find("HIPDNN_PLUGIN_STATUS_BAD_PARAM") == std::string::npos)
        {
            std::fprintf(stderr, "FAIL: ragged: got %s \"%s\", want PLUGIN_ERROR with HIPDNN_PLUGIN_STATUS_BAD_PARAM and \"%s\"\n",
                         hipdnnGetErrorString(s), error.c_str(), b.want);
            ++failures;
        }
        // Rejected before any scatter: O is as the caller left it.
        for(float x : o)
            if(x != -7.f)
            {
                std::fprintf(stderr, "FAIL: ragged: O was written by a rejected call (%s)\n", b.want);
                ++failures;
                break;
            }
        ck(run(onednn, offQ, &o, &error), "execute after a rejected offset");
        compare("after a rejected offset");
    }
    if(failures == 0)
        std::printf("PASS: ragged Q, K, V, O on HIPDNNGO_ONEDNN: valid rows as on the reference engine, rows past the "
                    "lengths not written; offsets reaching past the span or overlapping in O are rejected with BAD_PARAM "
                    "naming them, before anything is written\n");
    return failures;
}

// ---- sequence lengths: workspace ----

int checkVarlenWorkspace(hipdnnHandle_t h)
{
    const std::string graph = R"({"name": "sdpa_serving", "compute_data_type": "float", "intermediate_data_type": "float",
 "io_data_type": "float", "is_override_shape_enabled": false, "tensors": [
 {"uid": 1, "name": "q", "data_type": "float", "dims": [8, 8, 512, 128], "strides": [524288, 65536, 128, 1], "virtual": false},
 {"uid": 2, "name": "k", "data_type": "float", "dims": [8, 8, 32768, 128], "strides": [33554432, 4194304, 128, 1], "virtual": false},
 {"uid": 3, "name": "v", "data_type": "float", "dims": [8, 8, 32768, 128], "strides": [33554432, 4194304, 128, 1], "virtual": false},
 {"uid": 4, "name": "o", "data_type": "float", "dims": [8, 8, 512, 128], "strides": [524288, 65536, 128, 1], "virtual": false},
 {"uid": 5, "name": "seq_len_q", "data_type": "int32", "dims": [8, 1, 1, 1], "strides": [1, 1, 1, 1], "virtual": false},
 {"uid": 6, "name": "seq_len_kv", "data_type": "int32", "dims": [8, 1, 1, 1], "strides": [1, 1, 1, 1], "virtual": false}],
 "nodes": [{"type": "SdpaAttributes", "name": "sdpa", "compute_data_type": "float",
  "inputs": {"q_tensor_uid": 1, "k_tensor_uid": 2, "v_tensor_uid": 3, "seq_len_q_tensor_uid": 5, "seq_len_kv_tensor_uid": 6},
  "outputs": {"o_tensor_uid": 4},
  "attributes": {"causal_mask_bottom_right": true, "padding_mask": true, "diagonal_alignment": "BOTTOM_RIGHT"}}]})";
    const testplan::Plan p(h, graph, "HIPDNNGO_ONEDNN");
    if(p.workspaceSize >= (int64_t{1} << 30))
    {
        std::fprintf(stderr, "FAIL: sequence lengths: the serving graph asks for %lld bytes of workspace (its padded scores)\n",
                     static_cast<long long>(p.workspaceSize));
        return 1;
    }
    std::printf("PASS: sequence lengths: the serving graph (padded scores 4 GiB) plans with %lld MiB of workspace\n",
                static_cast<long long>(p.workspaceSize >> 20));
    return 0;
}

// perThreadBound: the workspace allowed to a plan of per-thread blocks: 9 MiB per thread the
// engine may use (OMP_NUM_THREADS or the CPU's count, the larger) and 32 MiB.
int64_t perThreadBound()
{
    const char* env = std::getenv("OMP_NUM_THREADS");
    const int64_t threads = std::max<int64_t>({1, env ? std::atoll(env) : 0, static_cast<int64_t>(std::thread::hardware_concurrency())});
    return (int64_t{9} * threads + 32) << 20;
}

// checkNoCopies: graph plans on HIPDNNGO_ONEDNN within perThreadBound(); `copies` says what whole
// f32 copies would cost.
int checkNoCopies(hipdnnHandle_t h, const std::string& graph, const char* what, const char* copies)
{
    const testplan::Plan p(h, graph, "HIPDNNGO_ONEDNN");
    const int64_t bound = perThreadBound();
    if(p.workspaceSize >= bound)
    {
        std::fprintf(stderr, "FAIL: %s: %lld bytes of workspace, over the %lld of per-thread blocks (whole-tensor copies?)\n",
                     what, static_cast<long long>(p.workspaceSize), static_cast<long long>(bound));
        return 1;
    }
    std::printf("PASS: %s plans with %lld MiB of workspace (bound %lld MiB; %s)\n", what,
                static_cast<long long>(p.workspaceSize >> 20), static_cast<long long>(bound >> 20), copies);
    return 0;
}

// A paged fp16 serving graph (B 8, H 32, Hk 8, Sq 512; caches of 4096 blocks of 64 rows, Skv
// 32768): Q, K, V and O are read and written in place, a block at a time.
int checkPagedHalfWorkspace(hipdnnHandle_t h)
{
    const std::string graph = R"({"name": "sdpa_paged_serving", "compute_data_type": "float", "intermediate_data_type": "float",
 "io_data_type": "half", "is_override_shape_enabled": false, "tensors": [
 {"uid": 1, "name": "q", "data_type": "half", "dims": [8, 32, 512, 128], "strides": [2097152, 65536, 128, 1], "virtual": false},
 {"uid": 2, "name": "k", "data_type": "half", "dims": [4096, 8, 64, 128], "strides": [65536, 8192, 128, 1], "virtual": false},
 {"uid": 3, "name": "v", "data_type": "half", "dims": [4096, 8, 64, 128], "strides": [65536, 8192, 128, 1], "virtual": false},
 {"uid": 4, "name": "o", "data_type": "half", "dims": [8, 32, 512, 128], "strides": [2097152, 65536, 128, 1], "virtual": false},
 {"uid": 5, "name": "seq_len_q", "data_type": "int32", "dims": [8, 1, 1, 1], "strides": [1, 1, 1, 1], "virtual": false},
 {"uid": 6, "name": "seq_len_kv", "data_type": "int32", "dims": [8, 1, 1, 1], "strides": [1, 1, 1, 1], "virtual": false},
 {"uid": 7, "name": "page_table_k", "data_type": "int32", "dims": [8, 512], "strides": [512, 1], "virtual": false},
 {"uid": 8, "name": "page_table_v", "data_type": "int32", "dims": [8, 512], "strides": [512, 1], "virtual": false}],
 "nodes": [{"type": "SdpaAttributes", "name": "sdpa", "compute_data_type": "float",
  "inputs": {"q_tensor_uid": 1, "k_tensor_uid": 2, "v_tensor_uid": 3, "seq_len_q_tensor_uid": 5,
   "seq_len_kv_tensor_uid": 6, "page_table_k_tensor_uid": 7, "page_table_v_tensor_uid": 8},
  "outputs": {"o_tensor_uid": 4},
  "attributes": {"causal_mask_bottom_right": true, "padding_mask": true, "diagonal_alignment": "BOTTOM_RIGHT",
   "max_seq_len_kv": 32768}}]})";
    return checkNoCopies(h, graph, "the paged fp16 serving graph", "an f32 copy of Q alone is 64 MiB, of a cache's keys 1 GiB");
}

// A bf16 backward with lengths (B 8, H 32, Hk 8, S 2048, D 128): Q, K, V, O, dO in and dQ, dK, dV
// out, each read or written a block of rows at a time.
int checkBackwardBf16Workspace(hipdnnHandle_t h)
{
    const std::string graph = R"({"name": "sdpa_bwd_lengths", "compute_data_type": "float", "intermediate_data_type": "float",
 "io_data_type": "bfloat16", "is_override_shape_enabled": false, "tensors": [
 {"uid": 1, "name": "q", "data_type": "bfloat16", "dims": [8, 32, 2048, 128], "strides": [8388608, 262144, 128, 1], "virtual": false},
 {"uid": 2, "name": "k", "data_type": "bfloat16", "dims": [8, 8, 2048, 128], "strides": [2097152, 262144, 128, 1], "virtual": false},
 {"uid": 3, "name": "v", "data_type": "bfloat16", "dims": [8, 8, 2048, 128], "strides": [2097152, 262144, 128, 1], "virtual": false},
 {"uid": 4, "name": "o", "data_type": "bfloat16", "dims": [8, 32, 2048, 128], "strides": [8388608, 262144, 128, 1], "virtual": false},
 {"uid": 5, "name": "do", "data_type": "bfloat16", "dims": [8, 32, 2048, 128], "strides": [8388608, 262144, 128, 1], "virtual": false},
 {"uid": 6, "name": "stats", "data_type": "float", "dims": [8, 32, 2048, 1], "strides": [65536, 2048, 1, 1], "virtual": false},
 {"uid": 7, "name": "seq_len_q", "data_type": "int32", "dims": [8, 1, 1, 1], "strides": [1, 1, 1, 1], "virtual": false},
 {"uid": 8, "name": "seq_len_kv", "data_type": "int32", "dims": [8, 1, 1, 1], "strides": [1, 1, 1, 1], "virtual": false},
 {"uid": 9, "name": "dq", "data_type": "bfloat16", "dims": [8, 32, 2048, 128], "strides": [8388608, 262144, 128, 1], "virtual": false},
 {"uid": 10, "name": "dk", "data_type": "bfloat16", "dims": [8, 8, 2048, 128], "strides": [2097152, 262144, 128, 1], "virtual": false},
 {"uid": 11, "name": "dv", "data_type": "bfloat16", "dims": [8, 8, 2048, 128], "strides": [2097152, 262144, 128, 1], "virtual": false}],
 "nodes": [{"type": "SdpaBackwardAttributes", "name": "sdpa_bwd", "compute_data_type": "float",
  "inputs": {"q_tensor_uid": 1, "k_tensor_uid": 2, "v_tensor_uid": 3, "o_tensor_uid": 4, "do_tensor_uid": 5,
   "stats_tensor_uid": 6, "seq_len_q_tensor_uid": 7, "seq_len_kv_tensor_uid": 8},
  "outputs": {"dq_tensor_uid": 9, "dk_tensor_uid": 10, "dv_tensor_uid": 11},
  "attributes": {"padding_mask": true, "causal_mask": true, "diagonal_alignment": "TOP_LEFT"}}]})";
    return checkNoCopies(h, graph, "the bf16 backward with lengths", "an f32 copy of Q, O, dO or dQ is 256 MiB each");
}

int check(hipdnnHandle_t h)
{
    return checkPaged(h) + checkRagged(h) + checkVarlenWorkspace(h) + checkPagedHalfWorkspace(h) + checkBackwardBf16Workspace(h);
}

} // namespace

int main() { return testplan::runWithHandle(check); }
