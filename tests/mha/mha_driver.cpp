// mha_driver.cpp - PyTorch's cuDNN attention (aten/src/ATen/native/cudnn/MHA.cpp) on hipDNN.
//
// Each case (dense / nested, forward / backward, causal, GQA, bias, padding, dropout; fp16 and
// bf16) runs through
//   - "graph": the driver's own cuDNN-frontend graphs with MHA.cpp's node settings (mha_graphs.h),
//   - "aten":  PyTorch's four at::native entry points, when built with MHA_DRIVER_ENTRY_POINTS and
//              linked with a fetched MHA.cpp (tests/mha/run_fetched_mha.sh),
// and every output is compared with a double-precision attention (mha_case.h). One line per
// checked output: case, path, output, max |error|, bound, verdict. Exit status 1 on any failure.
//
//   mha_driver [--path graph|aten|both] [--only SUBSTRING] [--dump DIR] [--list]
//
// Dropout has no CPU engine (hipDNN's CPU engines decline Philox dropout by name): on the host
// build a dropout case passes only if it is declined with a message naming dropout; with device
// memory (MHA_STANDIN_CUDA) it runs and is checked exactly, with V one-hot so every O element is
// either 0 (dropped) or P / (1 - p); the dropped fraction must be near p and a rerun bit-identical.
#include <ATen/ATen.h>
#include <ATen/cudnn/Utils.h>
#ifdef MHA_DRIVER_ENTRY_POINTS
#include <ATen/native/cudnn/MHA.h>
#endif

#include <cstdio>
#include <string>

#include "mha_cases.h"
#include "mha_dump.h"
#include "mha_graphs.h"
#include "mha_tensors.h"

using namespace mha;

namespace {

int failures = 0, checks = 0;

void
report(Case const& c, const char* path, const char* what, Check const& r) {
    ++checks;
    if (!r.ok()) ++failures;
    std::printf("%-34s %-5s %-5s max_err %.3e bound %.3e %s\n", c.name.c_str(), path, what, r.err, r.bound,
                r.ok() ? "PASS" : "FAIL");
}
void
verdict(Case const& c, const char* path, bool ok, std::string const& msg) {
    ++checks;
    if (!ok) ++failures;
    std::printf("%-34s %-5s %s %s\n", c.name.c_str(), path, ok ? "PASS" : "FAIL", msg.c_str());
}

#ifdef MHA_STANDIN_CUDA
constexpr bool kDropoutRuns = true;
#else
constexpr bool kDropoutRuns = false;
#endif

// Inputs: a case's logical values and the reference.
struct Inputs {
    Logical Q, K, V, B, dO, O;  // O: the forward reference rounded to the I/O type (backward input)
    Ref r;
    std::vector<float> lse;     // reference logsumexp, fp32
};

Inputs
makeInputs(Case const& c) {
    Inputs in;
    in.Q = randomLogical(c.b, c.hq, c.sq, c.d, 11, c.bf16);
    in.K = randomLogical(c.b, c.hk, c.skv, c.d, 12, c.bf16);
    in.V = randomLogical(c.b, c.hv, c.skv, c.dv, 13, c.bf16);
    if (c.dropout != 0)  // one-hot V: O[i, j] = P[i, j] * keep / (1 - p) shows each dropped element
        for (int64_t bi = 0; bi < c.b; ++bi)
            for (int64_t h = 0; h < c.hv; ++h)
                for (int64_t j = 0; j < c.skv; ++j)
                    for (int64_t e = 0; e < c.dv; ++e) in.V(bi, h, j, e) = e == j ? 1 : 0;
    if (c.bias) in.B = randomLogical(1, c.hq, c.sq, c.skv, 14, c.bf16);
    in.r  = forward(c, in.Q, in.K, in.V, c.bias ? &in.B : nullptr);
    in.O  = in.r.O;
    for (auto& x : in.O.v) x = fromIo(toIo(static_cast<float>(x), c.bf16), c.bf16);
    in.dO = randomLogical(c.b, c.hq, c.sq, c.dv, 15, c.bf16);
    in.lse.assign(in.r.lse.begin(), in.r.lse.end());
    if (c.backward) backward(c, in.r, in.Q, in.K, in.V, in.O, in.dO);
    return in;
}

// statsTensor: the reference logsumexp as the backward reads it: dense [b, hq, sq, 1] packed,
// nested [T, hq, 1] (token-major).
at::Tensor
statsTensor(Case const& c, Inputs const& in) {
    if (!c.nested) return floatTensor(in.lse, {c.b, c.hq, c.sq, 1});
    auto cum = cumulative(c.seq_q);
    std::vector<float> v(static_cast<size_t>(cum.back() * c.hq), 0);
    for (int64_t bi = 0; bi < c.b; ++bi)
        for (int64_t h = 0; h < c.hq; ++h)
            for (int64_t i = 0; i < c.lenQ(bi); ++i)
                v[static_cast<size_t>((cum[static_cast<size_t>(bi)] + i) * c.hq + h)] = in.lse[static_cast<size_t>((bi * c.hq + h) * c.sq + i)];
    return floatTensor(v, {cum.back(), c.hq, 1});
}

Logical
loadStats(Case const& c, at::Tensor const& t) {
    auto raw  = t.hostElements();
    Logical s = Logical{c.b, c.hq, c.sq, 1, std::vector<double>(static_cast<size_t>(c.b * c.hq * c.sq), 0)};
    auto cum  = c.nested ? cumulative(c.seq_q) : std::vector<int64_t>{};
    for (int64_t bi = 0; bi < c.b; ++bi)
        for (int64_t h = 0; h < c.hq; ++h)
            for (int64_t i = 0; i < c.sq; ++i) {
                if (c.nested && i >= c.lenQ(bi)) continue;
                size_t const n = c.nested ? static_cast<size_t>((cum[static_cast<size_t>(bi)] + i) * c.hq + h)
                                          : static_cast<size_t>((bi * c.hq + h) * c.sq + i);
                float f;
                std::memcpy(&f, raw.data() + 4 * n, 4);
                s(bi, h, i, 0) = f;
            }
    return s;
}

// Device buffers for one run.
struct Run {
    at::Tensor q, k, v, bias, o, dO, stats, cumQ, cumKv, seed, offset;
};

Run
makeRun(Case const& c, Inputs const& in) {
    Run r;
    r.q = store(in.Q, layoutOf(c, c.hq, c.sq, c.d, true), c.bf16, c, true);
    r.k = store(in.K, layoutOf(c, c.hk, c.skv, c.d, false), c.bf16, c, false);
    r.v = store(in.V, layoutOf(c, c.hv, c.skv, c.dv, false), c.bf16, c, false);
    if (c.bias) r.bias = store(in.B, Layout{Layout::BHSD, 1, c.hq, c.sq, c.skv, {}}, c.bf16, c, true);
    if (c.backward) {
        r.o     = store(in.O, layoutOf(c, c.hq, c.sq, c.dv, true), c.bf16, c, true);
        r.dO    = store(in.dO, layoutOf(c, c.hq, c.sq, c.dv, true), c.bf16, c, true);
        r.stats = statsTensor(c, in);
    }
    if (c.nested || c.padding) {
        std::vector<int64_t> lq(static_cast<size_t>(c.b)), lk(static_cast<size_t>(c.b));
        for (int64_t bi = 0; bi < c.b; ++bi) lq[static_cast<size_t>(bi)] = c.lenQ(bi), lk[static_cast<size_t>(bi)] = c.lenKv(bi);
        r.cumQ  = intTensor(cumulative(lq), {c.b + 1}, at::kInt);
        r.cumKv = intTensor(cumulative(lk), {c.b + 1}, at::kInt);
    }
    r.seed   = intTensor({1234}, {1}, at::kLong);
    r.offset = intTensor({0}, {1}, at::kLong);
    return r;
}

// rows: which logical rows an output is compared on.
auto qRows(Case const& c, Inputs const& in) {
    return [&c, &in](int64_t bi, int64_t h, int64_t i) { return in.r.row[static_cast<size_t>((bi * c.hq + h) * c.sq + i)]; };
}
auto kvRows(Case const& c) {
    return [&c](int64_t bi, int64_t, int64_t i) { return rowExists(c, bi, i, false); };
}

// checkResults compares what a path produced with the reference (forward: O and Stats; backward:
// dQ, dK, dV); dropout forward results are checked by dropoutCheck instead.
void
checkResults(Case const& c, const char* path, Inputs const& in, at::Tensor const& o, at::Tensor const* stats,
             at::Tensor const* dq, at::Tensor const* dk, at::Tensor const* dv, bool statsChecked = true) {
    if (!c.backward) {
        report(c, path, "O", compare(load(o, c, c.hq, c.sq, c.dv, true), in.r.O, 4, c.bf16, qRows(c, in)));
        if (stats && statsChecked) {
            Logical want{c.b, c.hq, c.sq, 1, in.r.lse};
            Check s = compare(loadStats(c, *stats), want, 1, c.bf16, qRows(c, in));
            s.bound = 1e-3 * std::max(1.0, s.bound / ioEps(c.bf16));  // fp32 output: relative 1e-3
            report(c, path, "Stats", s);
        }
        return;
    }
    report(c, path, "dQ", compare(load(*dq, c, c.hq, c.sq, c.d, true), in.r.dQ, 8, c.bf16, qRows(c, in)));
    report(c, path, "dK", compare(load(*dk, c, c.hk, c.skv, c.d, false), in.r.dK, 8, c.bf16, kvRows(c)));
    report(c, path, "dV", compare(load(*dv, c, c.hv, c.skv, c.dv, false), in.r.dV, 8, c.bf16, kvRows(c)));
}

// dropoutCheck: with one-hot V each O[i, j] is 0 or P[i, j] / (1 - p).
void
dropoutCheck(Case const& c, const char* path, Inputs const& in, at::Tensor const& o, at::Tensor const& again) {
    Logical got = load(o, c, c.hq, c.sq, c.dv, true);
    double worst = 0;
    int64_t n = 0, dropped = 0;
    for (int64_t bi = 0; bi < c.b; ++bi)
        for (int64_t h = 0; h < c.hq; ++h)
            for (int64_t i = 0; i < c.sq; ++i)
                for (int64_t j = 0; j < c.skv; ++j) {
                    size_t const row = static_cast<size_t>((bi * c.hq + h) * c.sq + i);
                    double const p   = in.r.P[row * static_cast<size_t>(c.skv) + static_cast<size_t>(j)];
                    if (!in.r.row[row] || p == 0) continue;
                    double const g = got(bi, h, i, j), kept = p / (1 - c.dropout);
                    ++n;
                    if (g == 0) ++dropped;
                    else worst = std::max(worst, std::fabs(g - kept));
                }
    double const frac = n ? double(dropped) / double(n) : 0, sigma = std::sqrt(c.dropout * (1 - c.dropout) / std::max<int64_t>(n, 1));
    report(c, path, "O", Check{worst, 4 * ioEps(c.bf16)});
    verdict(c, path, std::fabs(frac - c.dropout) <= 5 * sigma,
            "dropped fraction " + std::to_string(frac) + " (p " + std::to_string(c.dropout) + ", 5 sigma " + std::to_string(5 * sigma) + ")");
    verdict(c, path, o.hostElements() == again.hostElements(), "rerun with the same seed and offset is bit-identical");
}

// declinedForDropout: on the host build a dropout case must be refused, and the error must say
// why: the shim's message carries each engine's reason (the reference engine's "dropout ... is not
// supported"). The same case without dropout runs (its twin "dense fwd stats bshd"), so the refusal
// is the dropout's.
void
declinedForDropout(Case const& c, const char* path, std::string const& msg) {
    bool const named = msg.find("ropout") != std::string::npos;
    verdict(c, path, named, std::string("declined on the CPU engines, naming the dropout: ") + msg.substr(0, 300));
}

// ---- path "graph": the driver's own graphs ----
void
runGraph(Case const& c, Inputs const& in, Dump* dump) {
    Run run = makeRun(c, in);
    Tensors ts;
    ts.scale = c.scale;
    auto& t  = ts.t;
    t[kQ] = run.q, t[kK] = run.k, t[kV] = run.v;
    if (c.bias) t[kBias] = run.bias;
    if (c.dropout != 0) t[kSeed] = run.seed, t[kOffset] = run.offset;
    if (c.nested || c.padding) {
        t[kSeqQ]  = at::diff(run.cumQ, 1, 0);
        t[kSeqKv] = at::diff(run.cumKv, 1, 0);
    }
    if (c.nested) {
        t[kRagQ] = run.cumQ.mul(c.hq * c.d), t[kRagK] = run.cumKv.mul(c.hk * c.d), t[kRagV] = run.cumKv.mul(c.hv * c.dv);
        t[kRagO] = run.cumQ.mul(c.hq * c.dv), t[kRagStats] = run.cumQ.mul(c.hq);
    }
    auto g = newGraph(c);
    if (!c.backward) {
        t[kO] = store(Logical{c.b, c.hq, c.sq, c.dv, std::vector<double>(static_cast<size_t>(c.b * c.hq * c.sq * c.dv), 0)},
                      layoutOf(c, c.hq, c.sq, c.dv, true), c.bf16, c, true);
        // Stats start zeroed, so a result left unwritten cannot pass.
        int64_t const rows = c.nested ? cumulative(c.seq_q).back() : c.b * c.sq;
        if (c.stats) t[kStats] = floatTensor(std::vector<float>(static_cast<size_t>(rows * c.hq), 0),
                                             c.nested ? std::vector<int64_t>{rows, c.hq, 1} : std::vector<int64_t>{c.b, c.hq, c.sq, 1});
        else t.erase(kRagStats);
    } else {
        t[kO] = run.o, t[kdO] = run.dO, t[kStats] = run.stats;
        t[kdQ] = at::empty_like(run.q), t[kdK] = at::empty_like(run.k), t[kdV] = at::empty_like(run.v);
    }
    cudnnHandle_t h = at::native::getCudnnHandle();
    fe::error_t e   = c.backward ? buildBackward(*g, c, ts, h) : buildForward(*g, c, ts, h);
    if (!e.is_good()) {
        if (c.dropout != 0 && !kDropoutRuns) { declinedForDropout(c, "graph", e.get_message()); return; }
        verdict(c, "graph", false, "build failed: " + e.get_message());
        return;
    }
    if (c.dropout != 0 && !kDropoutRuns) { verdict(c, "graph", false, "a CPU engine took a dropout graph"); return; }
    e = execute(*g, ts, h);
    if (!e.is_good()) { verdict(c, "graph", false, "execute failed: " + e.get_message()); return; }
    if (c.dropout != 0) {
        at::Tensor first = at::empty_like(t[kO]);
        first.setHostElements(t[kO].hostElements());
        e = execute(*g, ts, h);
        if (!e.is_good()) { verdict(c, "graph", false, "second execute failed: " + e.get_message()); return; }
        dropoutCheck(c, "graph", in, first, t[kO]);
    } else if (!c.backward) {
        checkResults(c, "graph", in, t[kO], c.stats ? &t[kStats] : nullptr, nullptr, nullptr, nullptr);
    } else {
        checkResults(c, "graph", in, t[kO], nullptr, &t[kdQ], &t[kdK], &t[kdV]);
    }
    if (dump) dump->write(c, "graph", t);
}

#ifdef MHA_DRIVER_ENTRY_POINTS
// ---- path "aten": PyTorch's entry points ----

// The backend's last ERROR log line (a synchronous log sink, registered in main): MHA.cpp checks
// only is_good() of execute, so the engine's reason is read from the log.
std::string&
lastLoggedErrorSlot() {
    static std::string s;
    return s;
}
std::string
lastLoggedError() {
    return lastLoggedErrorSlot();
}
void
logSink(hipdnnUserLogCallbackHandle_t, hipdnnSeverity_t, const char* message) {
    lastLoggedErrorSlot() = message;
}

// overlappingStats: MHA.cpp's nested forward binds cum_seqlen_q itself as the stats' ragged
// offset, while the stats tensor it declares ([b, h_q, s_q, 1], strides {h_q s_q, 1, h_q, 1})
// holds h_q floats per token (its backward binds cum_seqlen_q * h_q). With h_q > 1 the batches'
// stats overlap, and the CPU reference engine refuses the execution by name.
bool
overlappingStats(Case const& c) {
    return c.nested && !c.backward && c.stats && c.hq > 1;
}
void
runAten(Case const& c, Inputs const& in, Dump* dump) {
    if (c.padding) return;  // MHA.cpp's dense entry points take no sequence lengths
    Run run = makeRun(c, in);
    std::optional<at::Tensor> bias;
    if (c.bias) bias = run.bias;
    at::Tensor o, stats, dq, dk, dv;
    auto call = [&]() {
        if (!c.backward && !c.nested)
            at::native::run_cudnn_SDP_fprop(c.b, c.hq, c.sq, c.skv, c.d, c.dv, c.scale, c.stats, c.causal, c.dropout, run.q,
                                            run.k, run.v, bias, stats, o, run.seed, run.offset);
        else if (!c.backward)
            at::native::run_cudnn_SDP_fprop_nestedtensor(c.b, c.hq, c.hk, c.hv, c.sq, c.skv, c.d, c.dv, c.scale, c.stats,
                                                         c.causal, c.dropout, run.cumQ, run.cumKv, run.q, run.k, run.v,
                                                         bias, stats, o, run.seed, run.offset);
        else if (!c.nested)
            at::native::run_cudnn_SDP_bprop(c.b, c.hq, c.sq, c.skv, c.d, c.dv, c.scale, c.causal, static_cast<float>(c.dropout),
                                            run.q, run.k, run.v, bias, run.o, run.dO, run.stats, dq, dk, dv, run.seed,
                                            run.offset);
        else
            at::native::run_cudnn_SDP_bprop_nestedtensor(c.b, c.hq, c.hk, c.hv, c.sq, c.skv, c.d, c.dv, c.scale, c.causal,
                                                         static_cast<float>(c.dropout), run.cumQ, run.cumKv, run.q, run.k,
                                                         run.v, bias, run.o, run.dO, run.stats, dq, dk, dv, run.seed,
                                                         run.offset);
    };
    if (c.backward) dq = at::empty_like(run.q), dk = at::empty_like(run.k), dv = at::empty_like(run.v);
    lastLoggedErrorSlot().clear();
    try {
        call();
    } catch (std::exception const& ex) {
        if (c.dropout != 0 && !kDropoutRuns) { declinedForDropout(c, "aten", ex.what()); return; }
        if (overlappingStats(c)) {
            // MHA.cpp discards execute's message; the backend's error log line has it.
            std::string const msg = lastLoggedError();
            bool const named      = msg.find("overlapping") != std::string::npos;
            verdict(c, "aten", named, std::string("refused as expected (MHA.cpp binds cum_seqlen_q, not cum_seqlen_q * h_q, "
                                                  "as the stats' ragged offset): ") + msg.substr(msg.find("sdpa:") == std::string::npos ? 0 : msg.find("sdpa:")));
            return;
        }
        verdict(c, "aten", false, std::string("threw: ") + ex.what());
        return;
    }
    if (c.dropout != 0 && !kDropoutRuns) { verdict(c, "aten", false, "a CPU engine took a dropout graph"); return; }
    if (c.dropout != 0) {
        at::Tensor first = at::empty_like(o);
        first.setHostElements(o.hostElements());
        call();
        dropoutCheck(c, "aten", in, first, o);
        return;
    }
    // Nested forward stats with h_q > 1 (see overlappingStats): a cuDNN run that accepts the
    // offsets gets O checked and its stats reported, not required.
    bool const statsChecked = !overlappingStats(c);
    checkResults(c, "aten", in, o, c.stats ? &stats : nullptr, &dq, &dk, &dv, statsChecked);
    if (!statsChecked && c.stats && !c.backward) {
        Logical want{c.b, c.hq, c.sq, 1, in.r.lse};
        Check s = compare(loadStats(c, stats), want, 1, c.bf16, qRows(c, in));
        std::printf("%-34s %-5s Stats max_err %.3e INFO (not required: MHA.cpp's stats ragged offset is cum_seqlen_q, not * h_q)\n",
                    c.name.c_str(), "aten", s.err);
    }
    if (dump) {
        std::unordered_map<int64_t, at::Tensor> t{{kQ, run.q}, {kK, run.k}, {kV, run.v}};
        if (c.bias) t[kBias] = run.bias;
        if (c.backward) t[kO] = run.o, t[kdO] = run.dO, t[kStats] = run.stats, t[kdQ] = dq, t[kdK] = dk, t[kdV] = dv;
        else t[kO] = o;
        if (!c.backward && c.stats) t[kStats] = stats;
        dump->write(c, "aten", t);
    }
}
#endif

}  // namespace

int
main(int argc, char** argv) {
    std::string path = "graph", only, dumpDir;
#ifdef MHA_DRIVER_ENTRY_POINTS
    path = "both";
#endif
    bool list = false;
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // every verdict reaches the log, even before a crash
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--path" && i + 1 < argc) path = argv[++i];
        else if (a == "--only" && i + 1 < argc) only = argv[++i];
        else if (a == "--dump" && i + 1 < argc) dumpDir = argv[++i];
        else if (a == "--list") list = true;
        else { std::fprintf(stderr, "usage: %s [--path graph|aten|both] [--only SUBSTRING] [--dump DIR] [--list]\n", argv[0]); return 2; }
    }
#ifndef MHA_DRIVER_ENTRY_POINTS
    if (path != "graph") { std::fprintf(stderr, "--path %s: this build has no MHA.cpp (build with run_fetched_mha.sh)\n", path.c_str()); return 2; }
#endif
#ifdef MHA_DRIVER_ENTRY_POINTS
    static int sinkCookie = 0;
    hipdnnSeverity_t level = HIPDNN_SEV_OFF;
    if (hipdnnBackendGetGlobalLogLevel_ext(&level) == HIPDNN_STATUS_SUCCESS && level > HIPDNN_SEV_ERROR)
        hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_ERROR);
    hipdnnSetUserLogCallback_ext(logSink, HIPDNN_SEV_ERROR, HIPDNN_LOG_CALLBACK_SYNC, &sinkCookie);
#endif
    std::unique_ptr<Dump> dump;
    if (!dumpDir.empty()) dump = std::make_unique<Dump>(dumpDir);
    for (Case const& c : cases()) {
        if (!only.empty() && c.name.find(only) == std::string::npos) continue;
        if (list) { std::printf("%s\n", c.name.c_str()); continue; }
        Inputs in = makeInputs(c);
        try {
            if (path != "aten") runGraph(c, in, dump.get());
#ifdef MHA_DRIVER_ENTRY_POINTS
            if (path != "graph") runAten(c, in, dump.get());
#endif
        } catch (std::exception const& ex) {
            verdict(c, path.c_str(), false, std::string("threw: ") + ex.what());
        }
    }
    if (dump) dump->finish();
#ifdef MHA_DRIVER_ENTRY_POINTS
    hipdnnSetUserLogCallback_ext(logSink, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, &sinkCookie);
#endif
    if (list) return 0;
    std::printf("mha_driver: %d of %d checks failed\n", failures, checks);
    return failures ? 1 : 0;
}
