// HIPDNNGO_CUDA_RTC without a GPU: the applicability of graphs (what is taken, what is declined
// and why), the code generator for every pattern, dtype and knob set, and the generated source.
//
//   hipdnn_cuda_rtc_unit_tests unit OUTDIR   applicability, generation, and each source compiled
//                                            with the host C++ compiler -fsyntax-only against
//                                            cuda_host_builtins.hpp; the prelude's fp16/bf16
//                                            conversions run on the host against FloatFormats.h
//   hipdnn_cuda_rtc_unit_tests corpus DIR    which graphs of the JSON corpus the engine takes (and
//                                            why it declines the rest); named samples must be taken
//   hipdnn_cuda_rtc_unit_tests nvrtc OUTDIR  each source compiled for real by NVRTC (dlopened),
//                                            for sm_$HIPDNNGO_CUDA_RTC_TEST_CC (default 90); exits
//                                            77 (ctest: skipped) when NVRTC cannot be opened
#include "Codegen.hpp"
#include "CudaApi.hpp"
#include "Model.hpp"
#include "Runtime.hpp"

#include "Graphs.hpp"
#include "check.h"

#include <hipdnn_backend.h>

#include <dirent.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace hipdnngo::cuda_rtc;
using namespace rtc_test;

namespace
{

struct Case
{
    std::string name;
    std::vector<uint8_t> graph;
    Knobs knobs;
};

const fbs::Graph& view(const std::vector<uint8_t>& b) { return *flatbuffers::GetRoot<fbs::Graph>(b.data()); }

std::string declineOf(const std::vector<uint8_t>& g)
{
    try
    {
        generate(readProgram(view(g)), Knobs{});
    }
    catch(const Unsupported& e)
    {
        return e.what();
    }
    return "";
}

const fbs::DataType kTypes[] = {fbs::DataType::FLOAT, fbs::DataType::HALF, fbs::DataType::BFLOAT16};
const char* typeName(fbs::DataType t) { return t == fbs::DataType::FLOAT ? "f32" : t == fbs::DataType::HALF ? "f16" : "bf16"; }

std::vector<Case> cases()
{
    std::vector<Case> out;
    for(fbs::DataType dt : kTypes)
    {
        const std::string d = typeName(dt);
        out.push_back({"pw_chain_" + d, pointwiseChainGraph(dt, {2, 8, 16, 16}), {}});
        out.push_back({"pw_chain_" + d + "_vec1", pointwiseChainGraph(dt, {2, 8, 16, 16}), {1, 128, 0, -1}});
        out.push_back({"pw_chain_odd_" + d, pointwiseChainGraph(dt, {3, 5, 7, 9}), {}});
        for(fbs::DataType pdt : {fbs::DataType::FLOAT, dt})
        {
            const std::string pd = std::string("_p") + typeName(pdt);
            out.push_back({"ln_train_" + d + pd, layernormGraph(dt, pdt, {8, 1024}, 1, true), {}});
            out.push_back({"ln_infer_" + d + pd, layernormGraph(dt, pdt, {4, 3, 768}, 1, false), {}});
        }
        out.push_back({"ln_k2_" + d, layernormGraph(dt, dt, {2, 3, 4}, 2, true), {}});
        out.push_back({"ln_epilogue_" + d, layernormGraph(dt, fbs::DataType::FLOAT, {16, 4096}, 1, true, true), {}});
        out.push_back({"ln_onepass_" + d, layernormGraph(dt, dt, {8, 8192}, 1, true), {0, 256, 1, 0}});
        out.push_back({"ln_warp_rows_" + d, layernormGraph(dt, dt, {100, 256}, 1, true), {0, 32, 4, 1}});
        out.push_back({"ln_reread_" + d, layernormGraph(dt, dt, {4, 20000}, 1, true), {0, 32, 0, 1}});
        // Blocks that walk over the rows (blocks_per_sm): the registers path with scale and
        // bias held and the next row prefetched, with partial rows and columns; and rereading.
        out.push_back({"ln_walk_" + d, layernormGraph(dt, dt, {1001, 1000}, 1, true), {0, 64, 2, 0, 1}});
        out.push_back({"ln_walk_reread_" + d, layernormGraph(dt, dt, {1200, 20000}, 1, true), {0, 32, 0, 1, 1}});
        out.push_back({"rms_walk_" + d, rmsnormGraph(dt, fbs::DataType::FLOAT, {700, 2048}, false, true), {0, 0, 0, -1, 2}});
        out.push_back({"ln_reread_onepass_" + d, layernormGraph(dt, dt, {4, 20000}, 1, true), {0, 32, 0, 0}});
        // Merged statistics (two_pass=2): equal counts across 8 warps; counts that differ (1023
        // columns, 2 warps); one warp per row, 4 rows per block.
        out.push_back({"ln_merged_" + d, layernormGraph(dt, fbs::DataType::FLOAT, {8, 8192}, 1, true), {0, 256, 1, 2}});
        out.push_back({"ln_merged_odd_" + d, layernormGraph(dt, dt, {5, 1023}, 1, true), {0, 64, 0, 2}});
        out.push_back({"ln_merged_warp_" + d, layernormGraph(dt, dt, {100, 256}, 1, false), {0, 32, 4, 2}});
        out.push_back({"ln_odd_" + d, layernormGraph(dt, dt, {5, 1023}, 1, false), {}});
        out.push_back({"rms_" + d, rmsnormGraph(dt, fbs::DataType::FLOAT, {8, 4096}, false, true), {}});
        out.push_back({"rms_bias_" + d, rmsnormGraph(dt, dt, {3, 7, 512}, true, false), {0, 64, 2, -1}});
        out.push_back({"rms_reread_" + d, rmsnormGraph(dt, dt, {2, 40000}, false, true), {0, 64, 0, -1}});
        out.push_back({"bn_infer_relu_" + d, batchnormInferenceGraph(dt, {4, 32, 7, 7}, false), {}});
        out.push_back({"bn_infer_var_relu_" + d, batchnormInferenceGraph(dt, {2, 16, 8, 8}, true), {}});
        out.push_back({"red_rows_sum_" + d, reductionGraph(dt, fbs::ReductionMode::ADD, {64, 1024}, {64, 1}), {}});
        out.push_back({"red_channels_avg_" + d, reductionGraph(dt, fbs::ReductionMode::AVG, {4, 32, 7, 7}, {1, 32, 1, 1}), {}});
        out.push_back({"red_all_norm2_" + d, reductionGraph(dt, fbs::ReductionMode::NORM2, {3, 5, 7}, {1, 1, 1}, true), {}});
        out.push_back({"red_mid_max_" + d, reductionGraph(dt, fbs::ReductionMode::MAX_OP, {6, 50, 9}, {6, 1, 9}), {0, 64, 2, -1}});
        out.push_back({"red_prologue_channels_" + d, prologueReductionGraph(dt, {4, 32, 7, 7}, {1, 32, 1, 1}, true), {}});
        out.push_back({"red_prologue_mid_" + d, prologueReductionGraph(dt, {6, 50, 9}, {6, 1, 9}, false), {0, 64, 2, -1}});
        out.push_back({"red_prologue_index_kept_" + d, prologueIndexGraph(dt, {4, 6, 5}, {1, 6, 1}, 1), {}});
        out.push_back({"red_prologue_index_reduced_" + d, prologueIndexGraph(dt, {4, 6, 5}, {1, 6, 1}, 2), {}});
        out.push_back({"bn_train_" + d, batchnormTrainingGraph(dt, {4, 16, 7, 7}, false), {}});
        out.push_back({"bn_train_relu_" + d, batchnormTrainingGraph(dt, {2, 8, 5, 3}, true), {0, 64, 0, -1}});
        out.push_back({"bn_bwd_" + d, batchnormBackwardGraph(dt, {4, 16, 7, 7}), {}});
        out.push_back({"softmax_" + d, softmaxGraph(dt, {64, 1024}, false), {}});
        out.push_back({"softmax_stats_odd_" + d, softmaxGraph(dt, {7, 1000}, true), {0, 32, 4, -1}});
        out.push_back({"center_" + d, centerGraph(dt, {5, 3, 256}), {}});
        out.push_back({"residual_ln_" + d, residualNormGraph(dt, fbs::DataType::FLOAT, {16, 1024}, true), {}});
        out.push_back({"residual_rms_" + d, residualNormGraph(dt, dt, {9, 768}, false), {}});
        out.push_back({"ln_bwd_saved_" + d, layernormBwdGraph(dt, fbs::DataType::FLOAT, {64, 1024}, true), {}});
        out.push_back({"ln_bwd_recompute_" + d, layernormBwdGraph(dt, dt, {37, 1000}, false), {}});
        out.push_back({"ln_bwd_warp_" + d, layernormBwdGraph(dt, dt, {100, 256}, true), {0, 32, 4, -1}});
        out.push_back({"ln_bwd_big_" + d, layernormBwdGraph(dt, dt, {8, 8192}, true), {0, 256, 1, -1}});
        out.push_back({"ln_bwd_walk_" + d, layernormBwdGraph(dt, fbs::DataType::FLOAT, {600, 4096}, true), {0, 0, 0, -1, 2}});
        out.push_back({"rms_bwd_" + d, rmsnormBwdGraph(dt, fbs::DataType::FLOAT, {64, 4096}, false), {}});
        out.push_back({"rms_bwd_bias_odd_" + d, rmsnormBwdGraph(dt, dt, {5, 1023}, true), {}});
    }
    for(int m = 1; m <= 9; ++m)
        out.push_back({std::string("red_") + reductionName(m), reductionGraph(fbs::DataType::FLOAT, static_cast<fbs::ReductionMode>(m),
                                                                              {10, 300}, {10, 1}), {}});
    // Every pointwise mode, fp32, and in bf16 too.
    for(int m = 1; m <= static_cast<int>(fbs::PointwiseMode::TANH_FWD); ++m)
        for(fbs::DataType dt : {fbs::DataType::FLOAT, fbs::DataType::BFLOAT16})
        {
            const auto mode = static_cast<fbs::PointwiseMode>(m);
            out.push_back({std::string("pw_") + pwModeName(m) + "_" + typeName(dt), singleModeGraph(mode, pwArity(m), dt), {}});
        }
    return out;
}

bool writeFile(const std::string& path, const std::string& text)
{
    std::ofstream o(path);
    o << text;
    return static_cast<bool>(o);
}

std::string sh(const std::string& s) { return "'" + s + "'"; }

void declineTests()
{
    // Graphs outside the patterns, each with the reason.
    {
        G g;
        g.tensor({1, "a", fbs::DataType::FLOAT, {4, 4}}).tensor({2, "b", fbs::DataType::FLOAT, {4, 4}});
        g.tensor({3, "c", fbs::DataType::FLOAT, {4, 4}});
        g.node(fbs::NodeAttributes::MatmulAttributes, fbs::CreateMatmulAttributes(g.fbb(), 1, 2, 3).Union());
        const std::string why = declineOf(g.finish());
        CHECK_MSG(why.find("MatmulAttributes") != std::string::npos && why.find("not a pattern") != std::string::npos,
                  "matmul declined: %s", why.c_str());
    }
    {
        G g;
        g.tensor({1, "x", fbs::DataType::INT8, {4, 4}}).tensor({2, "y", fbs::DataType::INT8, {4, 4}});
        g.pointwise({fbs::PointwiseMode::RELU_FWD, 1, -1, -1, 2});
        const std::string why = declineOf(g.finish());
        CHECK_MSG(why.find("data type INT8") != std::string::npos, "int8 declined: %s", why.c_str());
    }
    {
        // RMSNorm whose scale normalizes a middle axis only.
        G g;
        g.tensor({kX, "x", fbs::DataType::FLOAT, {2, 4, 8}}).tensor({kScale, "s", fbs::DataType::FLOAT, {4, 1}});
        g.tensor({kEps, "e", fbs::DataType::FLOAT, {1}, false, 1e-5}).tensor({kY, "y", fbs::DataType::FLOAT, {2, 4, 8}});
        g.rmsnorm(kX, kScale, kEps, kY);
        const std::string why = declineOf(g.finish());
        CHECK_MSG(why.find("not the trailing axes") != std::string::npos, "middle-axis rmsnorm declined: %s", why.c_str());
    }
    {
        // layernorm over a transposed x: the row is not contiguous.
        G g;
        g.tensor({kX, "x", fbs::DataType::FLOAT, {8, 16}, false, NAN, {1, 8}});
        g.tensor({kScale, "s", fbs::DataType::FLOAT, {16}}).tensor({kBias, "b", fbs::DataType::FLOAT, {16}});
        g.tensor({kEps, "e", fbs::DataType::FLOAT, {1}, false, 1e-5}).tensor({kY, "y", fbs::DataType::FLOAT, {8, 16}});
        g.layernorm(kX, kScale, kBias, kEps, kY, 1);
        const std::string why = declineOf(g.finish());
        CHECK_MSG(why.find("packed") != std::string::npos, "transposed layernorm declined: %s", why.c_str());
    }
    {
        G g;
        g.tensor({1, "x", fbs::DataType::FLOAT, {4, 4}}).tensor({2, "y", fbs::DataType::FLOAT, {4, 4}});
        g.tensor({3, "z", fbs::DataType::FLOAT, {4, 1}});
        g.pointwise({fbs::PointwiseMode::RELU_FWD, 1, -1, -1, 2}).pointwise({fbs::PointwiseMode::NEG, 1, -1, -1, 3});
        const std::string why = declineOf(g.finish());
        CHECK_MSG(why.find("different dims") != std::string::npos, "outputs of different dims declined: %s", why.c_str());
    }
    {
        G g;
        g.tensor({1, "x", fbs::DataType::FLOAT, {4, 5}}).tensor({2, "b", fbs::DataType::FLOAT, {4}});
        g.tensor({3, "y", fbs::DataType::FLOAT, {4, 5}});
        g.pointwise({fbs::PointwiseMode::ADD, 1, 2, -1, 3});
        const std::string why = declineOf(g.finish());
        CHECK_MSG(why.find("does not broadcast") != std::string::npos, "non-broadcast input declined: %s", why.c_str());
    }
    {
        G g;
        g.tensor({kX, "x", fbs::DataType::FLOAT, {4, 8}}).tensor({kScale, "s", fbs::DataType::FLOAT, {8}});
        g.tensor({kBias, "b", fbs::DataType::FLOAT, {8}}).tensor({kEps, "e", fbs::DataType::FLOAT, {1}, false, 1e-5});
        g.tensor({kY, "y", fbs::DataType::FLOAT, {4, 8}}).tensor({20, "w", fbs::DataType::FLOAT, {8, 8}});
        g.tensor({21, "o", fbs::DataType::FLOAT, {4, 8}});
        g.layernorm(kX, kScale, kBias, kEps, kY, 1);
        g.node(fbs::NodeAttributes::MatmulAttributes, fbs::CreateMatmulAttributes(g.fbb(), kY, 20, 21).Union());
        const std::string why = declineOf(g.finish());
        CHECK_MSG(why.find("only pointwise nodes") != std::string::npos, "layernorm -> matmul declined: %s",
                  why.c_str());
    }
    {
        // A prologue that does not feed the reduction, and an epilogue that reads the prologue's output.
        G g;
        g.tensor({kX, "x", fbs::DataType::FLOAT, {4, 8, 3}}).tensor({kT0, "x2", fbs::DataType::FLOAT, {4, 8, 3}});
        g.tensor({kY, "out", fbs::DataType::FLOAT, {1, 8, 1}});
        g.pointwise({fbs::PointwiseMode::NEG, kX, -1, -1, kT0});
        g.node(fbs::NodeAttributes::ReductionAttributes, fbs::CreateReductionAttributes(g.fbb(), fbs::ReductionMode::ADD, kX, kY).Union());
        const std::string why = declineOf(g.finish());
        CHECK_MSG(why.find("trailing axes only") != std::string::npos
                      && why.find("is not written by the pointwise nodes before it") != std::string::npos,
                  "prologue that does not feed the reduction declined: %s", why.c_str());
        G h;
        h.tensor({kX, "x", fbs::DataType::FLOAT, {4, 8, 3}}).tensor({kT0, "x2", fbs::DataType::FLOAT, {4, 8, 3}});
        h.tensor({kY, "out", fbs::DataType::FLOAT, {1, 8, 1}, true}).tensor({kT0 + 1, "o2", fbs::DataType::FLOAT, {4, 8, 3}});
        h.pointwise({fbs::PointwiseMode::NEG, kX, -1, -1, kT0});
        h.node(fbs::NodeAttributes::ReductionAttributes, fbs::CreateReductionAttributes(h.fbb(), fbs::ReductionMode::ADD, kT0, kY).Union());
        h.pointwise({fbs::PointwiseMode::ADD, kY, kT0, -1, kT0 + 1});
        const std::string why2 = declineOf(h.finish());
        CHECK_MSG(why2.find("after the reduction reads tensor 10, which is per element of the reduction's input") != std::string::npos,
                  "epilogue reading the prologue's output declined: %s", why2.c_str());
    }
    {
        bool threw = false;
        try
        {
            checkKnobs({3, 0, 0, -1});
        }
        catch(const Unsupported& e)
        {
            threw = std::string(e.what()).find("vector_width") != std::string::npos;
        }
        CHECK_MSG(threw, "vector_width 3 is refused");
    }
    // And what is taken.
    CHECK_MSG(declineOf(layernormGraph(fbs::DataType::BFLOAT16, fbs::DataType::FLOAT, {8192, 8192}, 1, true)).empty(),
              "bf16 layernorm 8192x8192 is taken");
    CHECK_MSG(declineOf(rmsnormGraph(fbs::DataType::HALF, fbs::DataType::HALF, {32768, 4096}, false, true)).empty(),
              "fp16 rmsnorm is taken");
    CHECK_MSG(declineOf(pointwiseChainGraph(fbs::DataType::FLOAT, {2, 3, 4, 5})).empty(), "pointwise chain is taken");
    CHECK_MSG(declineOf(layernormBwdGraph(fbs::DataType::BFLOAT16, fbs::DataType::FLOAT, {8192, 8192}, true)).empty(),
              "bf16 layernorm backward 8192x8192 is taken");
    {
        const std::string why = declineOf(layernormBwdGraph(fbs::DataType::FLOAT, fbs::DataType::FLOAT, {2, 40000}, true));
        CHECK_MSG(why.find("longer than 32768") != std::string::npos, "very long backward rows declined: %s", why.c_str());
        const Generated g = generate(readProgram(view(layernormBwdGraph(fbs::DataType::BFLOAT16, fbs::DataType::FLOAT,
                                                                           {8192, 8192}, true))),
                                     Knobs{});
        // One block per SM (132 where the device is unknown), a row of dscale and dbias partials each.
        CHECK_MSG(g.launches.size() == 2 && g.workspace == 132u * 8192 * 2 * 4 && g.launches[0].grid == 132,
                  "backward: two kernels, %u blocks and %zu bytes of partials", g.launches[0].grid, g.workspace);
    }
    // The default configurations the H100 / H200 sweeps chose: forward rows of 4096 and 8192 both
    // with 256 threads (16 and 32 elements each), 16384 with 512; a pointwise chain one chunk per thread.
    for(auto [cols, threads] : {std::pair<int64_t, unsigned>{2048, 128}, {4096, 256}, {8192, 256}, {16384, 512}})
    {
        const Generated g = generate(readProgram(view(layernormGraph(fbs::DataType::BFLOAT16, fbs::DataType::FLOAT,
                                                                     {64, cols}, 1, true))),
                                     Knobs{});
        CHECK_MSG(g.launches.size() == 1 && g.launches[0].block == threads && g.launches[0].grid == 64,
                  "layernorm forward, rows of %lld: %u threads, %u blocks (want %u, 64)", static_cast<long long>(cols),
                  g.launches[0].block, g.launches[0].grid, threads);
    }
    // two_pass=2 merges each thread's statistics in one reduction where x stays in registers, and
    // falls back to two passes where the row is reread.
    {
        const Program p = readProgram(view(layernormGraph(fbs::DataType::BFLOAT16, fbs::DataType::FLOAT, {64, 8192}, 1, true)));
        const Generated m = generate(p, Knobs{0, 0, 0, 2});
        CHECK_MSG(m.config.find("two_pass=2,registers") != std::string::npos && m.source.find("hd_row_meanvar(mean, acc2, cnt") != std::string::npos
                      && m.source.find("hd_row_sum(") == m.source.rfind("hd_row_sum("),
                  "merged statistics: %s", m.config.c_str());
        const Generated r = generate(readProgram(view(layernormGraph(fbs::DataType::FLOAT, fbs::DataType::FLOAT, {4, 20000}, 1, true))),
                                     Knobs{0, 32, 0, 2});
        CHECK_MSG(r.config.find("two_pass=1,reread") != std::string::npos && r.source.find("hd_row_meanvar") == std::string::npos,
                  "merged statistics on a reread row: %s", r.config.c_str());
        std::string why;
        try
        {
            generate(p, Knobs{0, 0, 0, 3});
        }
        catch(const Unsupported& e)
        {
            why = e.what();
        }
        CHECK_MSG(why == "knob two_pass 3 (allowed: -1 auto, 0, 1, 2)", "two_pass 3: %s", why.c_str());
    }
    {
        const Generated g = generate(readProgram(view(pointwiseChainGraph(fbs::DataType::BFLOAT16, {32, 64, 512, 512}))), Knobs{});
        CHECK_MSG(g.launches.size() == 1 && g.launches[0].block == 256 && g.launches[0].grid == 32u * 64 * 512 * 512 / 8 / 256 / 4
                      && g.config.find("chunks_per_thread=4") != std::string::npos,
                  "pointwise 1 GiB bf16: %u blocks of %u (%s)", g.launches[0].grid, g.launches[0].block, g.config.c_str());
    }
    {
        const Program p = readProgram(view(layernormGraph(fbs::DataType::FLOAT, fbs::DataType::FLOAT, {4, 3, 768}, 1, true)));
        CHECK(p.pattern == Pattern::NormFwd && p.norm.rows == 12 && p.norm.n == 768 && p.norm.k == 1);
        const Program r = readProgram(view(reductionGraph(fbs::DataType::FLOAT, fbs::ReductionMode::ADD, {4, 32, 7, 7}, {1, 32, 1, 1})));
        CHECK(r.pattern == Pattern::Reduce && r.red.rows == 32 && r.red.members == 4 * 49);
        // Pointwise nodes before a reduction over non-trailing axes: its prologue; over trailing
        // axes the same graph is a row program.
        const Program pr = readProgram(view(prologueReductionGraph(fbs::DataType::BFLOAT16, {4, 32, 7, 7}, {1, 32, 1, 1}, true)));
        CHECK(pr.pattern == Pattern::Reduce && pr.pre.size() == 2 && pr.pw.empty() && pr.red.rows == 32 && pr.red.members == 4 * 49);
        CHECK_MSG(pr.summary == "sub+mul+reduction_add(fp32 4x32x7x7 -> 1x32x1x1)", "summary %s", pr.summary.c_str());
        const Program prow = readProgram(view(prologueReductionGraph(fbs::DataType::FLOAT, {6, 50}, {6, 1}, false)));
        CHECK(prow.pattern == Pattern::RowProgram && prow.rp.rows == 6);
        const Program sm = readProgram(view(softmaxGraph(fbs::DataType::BFLOAT16, {4096, 4096}, false)));
        CHECK(sm.pattern == Pattern::RowProgram && sm.rp.rows == 4096 && sm.rp.n == 4096 && sm.rp.ops.size() == 5);
        const Program ce = readProgram(view(centerGraph(fbs::DataType::FLOAT, {5, 3, 256})));
        CHECK(ce.pattern == Pattern::RowProgram && ce.rp.rows == 15);
        const Program rl = readProgram(view(residualNormGraph(fbs::DataType::BFLOAT16, fbs::DataType::FLOAT, {16, 1024}, true)));
        CHECK(rl.pattern == Pattern::RowProgram && rl.rp.n == 1024 && rl.rp.ops.size() == 12);
        const Program q = readProgram(view(rmsnormGraph(fbs::DataType::FLOAT, fbs::DataType::FLOAT, {6, 512}, true, true)));
        CHECK(q.pattern == Pattern::NormFwd && q.norm.kind == NormKind::Rms && q.norm.rows == 6 && q.norm.n == 512);
    }
}

// The prelude's conversions on the host against the SDK's FloatFormats.h: every binary16 and
// bfloat16 value decoded, and a sweep of floats (every 2^12th bit pattern plus the rounding
// boundaries around each binary16 value) encoded.
const char* kConversionMain = R"HD(
#include <hipdnn_plugin_sdk/helpers/FloatFormats.h>
#include <cstdio>
#include <initializer_list>
thread_local hd_dim3 threadIdx, blockIdx, blockDim, gridDim;
static bool same(float a, float b) { return (a != a && b != b) || __float_as_uint(a) == __float_as_uint(b); }
int main()
{
    long bad = 0;
    for(unsigned h = 0; h < 65536; ++h)
    {
        if(!same(hd_h2f((unsigned short)h), hipdnnHalfToFloat((uint16_t)h)))
            bad++, (bad < 5 ? std::printf("h2f %04x\n", h) : 0);
        if(!same(hd_b2f((unsigned short)h), hipdnnBfloat16ToFloat((uint16_t)h)))
            bad++, (bad < 5 ? std::printf("b2f %04x\n", h) : 0);
    }
    auto enc = [&](float f) {
        const unsigned short a = hd_f2h(f), b = hipdnnFloatToHalf(f);
        const bool nan = f != f;
        if(nan ? ((a & 0x7c00u) != 0x7c00u || (a & 0x3ffu) == 0) : a != b)
            bad++, (bad < 10 ? std::printf("f2h %08x: %04x want %04x\n", __float_as_uint(f), a, b) : 0);
        const unsigned short c = hd_f2b(f), d = hipdnnFloatToBfloat16(f);
        if(nan ? ((c & 0x7f80u) != 0x7f80u || (c & 0x7fu) == 0) : c != d)
            bad++, (bad < 10 ? std::printf("f2b %08x: %04x want %04x\n", __float_as_uint(f), c, d) : 0);
    };
    for(unsigned long u = 0; u < 0x100000000ul; u += 4093)
        enc(__uint_as_float((unsigned)u));
    for(unsigned h = 0; h < 0x7c00; ++h)
    {
        const float lo = hipdnnHalfToFloat((uint16_t)h), hi = hipdnnHalfToFloat((uint16_t)(h + 1));
        const float mid = 0.5f * (lo + hi);
        for(float f : {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e9f), lo, -mid, -lo})
            enc(f);
    }
    for(unsigned b = 0; b < 0x7f80; ++b)
    {
        const unsigned u = (unsigned)b << 16;
        for(unsigned d : {0x8000u, 0x7fffu, 0x8001u, 0x0001u, 0xffffu})
            enc(__uint_as_float(u + d)), enc(-__uint_as_float(u + d));
    }
    std::printf("conversions: %ld mismatches\n", bad);
    return bad == 0 ? 0 : 1;
}
)HD";

int unitMode(const std::string& dir)
{
    declineTests();
    const std::string cxx = HD_CXX;
    const std::string inc = HD_TEST_DIR;
    const std::string sdk = HD_SDK_INCLUDE;
    int compiled = 0;
    for(const Case& c : cases())
    {
        check_context = c.name.c_str();
        Generated g;
        try
        {
            g = generate(readProgram(view(c.graph)), c.knobs);
        }
        catch(const Unsupported& e)
        {
            CHECK_FAIL("generate: %s", e.what());
            continue;
        }
        CHECK(!g.launches.empty() && g.launches[0].block >= 32 && g.launches[0].block <= 1024 && g.launches[0].grid >= 1);
        CHECK(g.source.find("#include") == std::string::npos); // no headers: HIP-clean and NVRTC needs none
        const std::string path = dir + "/" + c.name + ".cu";
        CHECK(writeFile(path, "// config: " + g.config + "\n" + g.source));
        const std::string cmd = cxx + " -std=c++17 -fsyntax-only -Wall -Wno-unknown-pragmas -Wno-unused-function -x c++ -include "
                                + sh(inc + "/cuda_host_builtins.hpp") + " " + sh(path) + " 2>&1";
        FILE* pipe = popen(cmd.c_str(), "r");
        std::string outText;
        char buf[512];
        while(pipe != nullptr && fgets(buf, sizeof buf, pipe) != nullptr)
            outText += buf;
        const int rc = pipe != nullptr ? pclose(pipe) : -1;
        CHECK_MSG(rc == 0 && outText.empty(), "host syntax check of %s (%s):\n%s", path.c_str(), g.config.c_str(), outText.c_str());
        compiled++;
    }
    check_context = "conversions";
    const std::string conv = dir + "/conversions.cpp";
    CHECK(writeFile(conv, "#include \"cuda_host_builtins.hpp\"\n#include <cmath>\n" + prelude() + kConversionMain));
    const std::string exe = dir + "/conversions";
    const std::string build = cxx + " -std=c++17 -O1 -I " + sh(inc) + " -I " + sh(sdk) + " " + sh(conv) + " -o " + sh(exe);
    CHECK_MSG(std::system(build.c_str()) == 0, "compile %s", conv.c_str());
    CHECK_MSG(std::system(sh(exe).c_str()) == 0, "prelude conversions match FloatFormats.h");
    std::printf("%d generated sources pass the host syntax check (in %s)\n", compiled, dir.c_str());
    return check_finish("hipdnn_cuda_rtc_unit_tests");
}

int nvrtcMode(const std::string& dir)
{
    Api a;
    std::string why;
    if(!loadNvrtc(&a, &why))
    {
        std::printf("SKIP: %s; the generated sources are compiled by NVRTC only where it is present\n", why.c_str());
        return 77;
    }
    const char* ccEnv = std::getenv("HIPDNNGO_CUDA_RTC_TEST_CC");
    const int cc = ccEnv != nullptr ? std::atoi(ccEnv) : 90;
    const std::string arch = targetArch(a, cc);
    std::printf("NVRTC %d.%d (%s), target %s\n", a.nvrtcMajor, a.nvrtcMinor, a.nvrtcPath.c_str(), arch.c_str());
    CHECK_MSG(!arch.empty(), "NVRTC supports an architecture at or below %d", cc);
    int n = 0;
    for(const Case& c : cases())
    {
        check_context = c.name.c_str();
        const Generated g = generate(readProgram(view(c.graph)), c.knobs);
        std::string image, log;
        const bool ok = nvrtcCompile(a, g.source, arch, &image, &log);
        CHECK_MSG(ok, "NVRTC: %s", log.c_str());
        if(!ok)
            writeFile(dir + "/" + c.name + ".failed.cu", g.source);
        n += ok ? 1 : 0;
    }
    std::printf("%d generated sources compiled by NVRTC for %s\n", n, arch.c_str());
    return check_finish("hipdnn_cuda_rtc_unit_tests nvrtc");
}

// The graph corpus (JSON, through the backend's deserializer): which graphs the engine takes,
// and why it declines the others. Graphs named in `mustTake` must be taken.
void listJson(const std::string& dir, std::vector<std::string>* out)
{
    DIR* d = opendir(dir.c_str());
    if(d == nullptr)
        return;
    while(dirent* e = readdir(d))
    {
        const std::string n = e->d_name;
        if(n == "." || n == "..")
            continue;
        const std::string path = dir + "/" + n;
        if(n.size() > 5 && n.compare(n.size() - 5, 5, ".json") == 0)
            out->push_back(path);
        else if(e->d_type == DT_DIR)
            listJson(path, out);
    }
    closedir(d);
}

int corpusMode(const std::string& dir)
{
    std::vector<std::string> files;
    listJson(dir, &files);
    std::sort(files.begin(), files.end());
    // (samples/sample_rmsnorm.json normalizes the channel axis of NCHW: declined, not trailing.)
    const char* mustTake[] = {"samples/sample_layernorm.json", "samples/sample_relu.json",
                              "samples/sample_reduction.json", "samples/sample_layernorm_backward.json",
                              "samples/sample_rmsnorm_backward.json", "fork_zpengmei/sample_batchnorm_inference.json",
                              "fork_zpengmei/sample_batchnorm_inference_variance.json", "fork_zpengmei/sample_batchnorm_training.json",
                              "fork_zpengmei/sample_batchnorm_backward.json",
                              "orchestrator_test_graphs/batchnorm_inference_fp32_nchw.json"};
    int taken = 0, declined = 0, unread = 0;
    for(const std::string& f : files)
    {
        std::ifstream in(f);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        hipdnnBackendDescriptor_t g = nullptr;
        size_t size = 0;
        if(hipdnnBackendCreateAndDeserializeJsonGraph_ext(&g, text.data(), text.size()) != HIPDNN_STATUS_SUCCESS
           || hipdnnBackendGetSerializedBinaryGraph_ext(g, 0, &size, nullptr) != HIPDNN_STATUS_SUCCESS)
        {
            if(g != nullptr)
                hipdnnBackendDestroyDescriptor(g);
            unread++;
            continue;
        }
        std::vector<uint8_t> bytes(size);
        hipdnnBackendGetSerializedBinaryGraph_ext(g, size, &size, bytes.data());
        hipdnnBackendDestroyDescriptor(g);
        flatbuffers::Verifier v(bytes.data(), bytes.size());
        std::string why;
        if(!v.VerifyBuffer<fbs::Graph>(nullptr))
            why = "not a valid graph buffer";
        else
            why = declineOf(bytes);
        const std::string rel = f.substr(dir.size() + 1);
        if(why.empty())
        {
            taken++;
            std::printf("TAKEN     %s\n", rel.c_str());
        }
        else
        {
            declined++;
            std::printf("DECLINED  %s: %s\n", rel.c_str(), why.c_str());
        }
        for(const char* m : mustTake)
            if(rel == m)
                CHECK_MSG(why.empty(), "%s is taken (%s)", m, why.c_str());
    }
    std::printf("corpus %s: %d taken, %d declined, %d not read by the backend\n", dir.c_str(), taken, declined, unread);
    return check_finish("hipdnn_cuda_rtc_unit_tests corpus");
}

} // namespace

int main(int argc, char** argv)
{
    const std::string mode = argc > 1 ? argv[1] : "unit";
    const std::string dir = argc > 2 ? argv[2] : ".";
    std::system(("mkdir -p " + sh(dir)).c_str());
    if(mode == "corpus")
        return corpusMode(dir);
    return mode == "nvrtc" ? nvrtcMode(dir) : unitMode(dir);
}
