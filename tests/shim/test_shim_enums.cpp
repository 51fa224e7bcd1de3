// Every frontend enum value through the shim's mapping onto hipDNN's C enums: values hipDNN has
// map to the matching enumerator and back; values it lacks are refused (convert returns false)
// and are the ones docs/cudnn-shim.md lists as not supported.
#include "shim_test.h"

#include <set>

namespace {

namespace d = fe::detail;

void
data_types() {
    std::set<fe::DataType_t> lacking = {fe::DataType_t::NOT_SET, fe::DataType_t::INT8x4, fe::DataType_t::UINT8x4,
                                        fe::DataType_t::INT8x32, fe::DataType_t::FAST_FLOAT_FOR_FP8,
                                        fe::DataType_t::COMPLEX_FP32, fe::DataType_t::COMPLEX_FP64};
    std::set<int> seen;
    for (int v = 0; v <= static_cast<int>(fe::DataType_t::COMPLEX_FP64); ++v) {
        auto t = static_cast<fe::DataType_t>(v);
        hipdnnDataType_t h;
        bool ok = d::convert(t, h);
        CHECK(ok == !lacking.count(t));
        if (ok) CHECK(seen.insert(static_cast<int>(h)).second);  // one-to-one
        CHECK(std::string(d::name(t)) != "UNKNOWN");
    }
    hipdnnDataType_t h;
    CHECK(d::convert(fe::DataType_t::FLOAT, h) && h == HIPDNN_DATA_FLOAT);
    CHECK(d::convert(fe::DataType_t::BFLOAT16, h) && h == HIPDNN_DATA_BFLOAT16);
    CHECK(d::convert(fe::DataType_t::FP8_E4M3, h) && h == HIPDNN_DATA_FP8_E4M3);
}

void
pointwise_modes() {
    std::set<fe::PointwiseMode_t> lacking = {fe::PointwiseMode_t::NOT_SET, fe::PointwiseMode_t::MOD,
                                             fe::PointwiseMode_t::POW, fe::PointwiseMode_t::COS};
    std::set<int> seen;
    for (int v = 0; v <= static_cast<int>(fe::PointwiseMode_t::RECIPROCAL); ++v) {
        auto m = static_cast<fe::PointwiseMode_t>(v);
        hipdnnPointwiseMode_t h;
        bool ok = d::convert(m, h);
        CHECK(ok == !lacking.count(m));
        if (ok) {
            CHECK(seen.insert(static_cast<int>(h)).second);
            CHECK(d::pointwise_arity(m) >= 1);
        }
        CHECK(std::string(d::name(m)) != "UNKNOWN");
    }
    CHECK(seen.size() == 47);  // every hipDNN pointwise mode is reachable
}

void
other_modes() {
    std::set<int> seen;
    for (int v = 0; v <= static_cast<int>(fe::ReductionMode_t::MUL_NO_ZEROS); ++v) {
        hipdnnReduceTensorOp_t h;
        bool ok = d::convert(static_cast<fe::ReductionMode_t>(v), h);
        CHECK(ok == (v != 0));
        if (ok) CHECK(seen.insert(h).second);
    }
    CHECK(seen.size() == 9);
    hipdnnConvolutionMode_t cm;
    CHECK(!d::convert(fe::ConvolutionMode_t::NOT_SET, cm));
    CHECK(d::convert(fe::ConvolutionMode_t::CONVOLUTION, cm) && cm == HIPDNN_CONVOLUTION);
    CHECK(d::convert(fe::ConvolutionMode_t::CROSS_CORRELATION, cm) && cm == HIPDNN_CROSS_CORRELATION);
    hipdnnNormFwdPhase_t ph;
    CHECK(!d::convert(fe::NormFwdPhase_t::NOT_SET, ph));
    CHECK(d::convert(fe::NormFwdPhase_t::INFERENCE, ph) && ph == HIPDNN_NORM_FWD_INFERENCE);
    CHECK(d::convert(fe::NormFwdPhase_t::TRAINING, ph) && ph == HIPDNN_NORM_FWD_TRAINING);
    hipdnnResampleMode_t rm;
    CHECK(d::convert(fe::ResampleMode_t::MAXPOOL, rm) && rm == HIPDNN_RESAMPLE_MAXPOOL);
    CHECK(d::convert(fe::ResampleMode_t::AVGPOOL_INCLUDE_PADDING, rm) && rm == HIPDNN_RESAMPLE_AVGPOOL_INCLUDE_PADDING);
    CHECK(d::convert(fe::ResampleMode_t::AVGPOOL_EXCLUDE_PADDING, rm) && rm == HIPDNN_RESAMPLE_AVGPOOL_EXCLUDE_PADDING);
    CHECK(!d::convert(fe::ResampleMode_t::BILINEAR, rm) && !d::convert(fe::ResampleMode_t::NEAREST, rm));
    hipdnnPaddingMode_t pm;
    CHECK(d::convert(fe::PaddingMode_t::NEG_INF_PAD, pm) && pm == HIPDNN_PADDING_NEG_INF_PAD);
    CHECK(d::convert(fe::PaddingMode_t::ZERO_PAD, pm) && pm == HIPDNN_PADDING_ZERO_PAD);
    CHECK(!d::convert(fe::PaddingMode_t::EDGE_VAL_PAD, pm));
}

void
notes() {
    // Numerical notes: the same list in the same order on both sides, round trip exact.
    for (int v = 1; v <= static_cast<int>(fe::NumericalNote_t::STRICT_NAN_PROP); ++v) {
        auto n = static_cast<fe::NumericalNote_t>(v);
        hipdnnBackendNumericalNote_t h;
        CHECK(d::convert(n, h));
        CHECK(d::from_backend(h) == n);
    }
    hipdnnBackendNumericalNote_t h;
    CHECK(d::convert(fe::NumericalNote_t::NONDETERMINISTIC, h) && h == HIPDNN_NUMERICAL_NOTE_NONDETERMINISTIC);
    CHECK(!d::convert(fe::NumericalNote_t::NOT_SET, h));
    // Behaviour notes: two have hipDNN counterparts; the CUDA-only ones do not.
    hipdnnBackendBehaviorNote_t b;
    CHECK(d::convert(fe::BehaviorNote_t::RUNTIME_COMPILATION, b) && d::from_backend(b) == fe::BehaviorNote_t::RUNTIME_COMPILATION);
    CHECK(d::convert(fe::BehaviorNote_t::SUPPORTS_CUDA_GRAPH_NATIVE_API, b) && b == HIPDNN_BEHAVIOR_NOTE_SUPPORTS_GRAPH_CAPTURE);
    for (auto n : {fe::BehaviorNote_t::REQUIRES_FILTER_INT8x32_REORDER, fe::BehaviorNote_t::REQUIRES_BIAS_INT8x32_REORDER,
                   fe::BehaviorNote_t::CUBLASLT_DEPENDENCY, fe::BehaviorNote_t::NOT_SET})
        CHECK(!d::convert(n, b));
}

void
error_codes() {
    for (int v = 0; v <= static_cast<int>(fe::error_code_t::NVRTC_COMPILATION_FAILED); ++v)
        CHECK(std::string(fe::to_string(static_cast<fe::error_code_t>(v))) != "UNKNOWN");
    CHECK(std::string(fe::to_string(fe::error_code_t::GRAPH_NOT_SUPPORTED)) == "GRAPH_NOT_SUPPORTED");
}

void
version() {
    static_assert(CUDNN_FRONTEND_VERSION == 12300, "pinned to cudnn-frontend 1.23.0");
    static_assert(CUDNN_FRONTEND_MAJOR_VERSION == 1 && CUDNN_FRONTEND_MINOR_VERSION == 23 &&
                      CUDNN_FRONTEND_PATCH_VERSION == 0,
                  "version macros");
}

}  // namespace

int
main() {
    data_types();
    pointwise_modes();
    other_modes();
    notes();
    error_codes();
    version();
    return st_finish("test_shim_enums");
}
