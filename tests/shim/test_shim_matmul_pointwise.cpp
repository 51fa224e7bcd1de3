// matmul and every pointwise mode hipDNN has, through the shim on the CPU engines, against
// double references (backward modes against a central difference of the forward reference);
// pass-by-value scalars, runtime and compile-time; upstream's output shape inference.
#include "shim_test.h"

namespace {

using PM = fe::PointwiseMode_t;

double
sigm(double x) {
    return 1.0 / (1.0 + std::exp(-x));
}

// fwd is the reference of a unary forward mode (default parameters: alpha 1, beta 1).
double
fwd(PM m, double x) {
    switch (m) {
        case PM::RELU_FWD: return x > 0 ? x : 0;
        case PM::TANH_FWD: return std::tanh(x);
        case PM::SIGMOID_FWD: return sigm(x);
        case PM::ELU_FWD: return x > 0 ? x : std::expm1(x);
        case PM::GELU_FWD: return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
        case PM::GELU_APPROX_TANH_FWD:
            return 0.5 * x * (1 + std::tanh(std::sqrt(2 / 3.14159265358979323846) * (x + 0.044715 * x * x * x)));
        case PM::SOFTPLUS_FWD: return std::log1p(std::exp(x));
        case PM::SWISH_FWD: return x * sigm(x);
        case PM::SQRT: return std::sqrt(x);
        case PM::ERF: return std::erf(x);
        case PM::IDENTITY: return x;
        case PM::EXP: return std::exp(x);
        case PM::LOG: return std::log(x);
        case PM::NEG: return -x;
        case PM::ABS: return std::fabs(x);
        case PM::CEIL: return std::ceil(x);
        case PM::FLOOR: return std::floor(x);
        case PM::RSQRT: return 1 / std::sqrt(x);
        case PM::SIN: return std::sin(x);
        case PM::TAN: return std::tan(x);
        case PM::LOGICAL_NOT: return x == 0 ? 1 : 0;
        case PM::RECIPROCAL: return 1 / x;
        default: return NAN;
    }
}

double
bin(PM m, double a, double b) {
    switch (m) {
        case PM::ADD: return a + b;
        case PM::SUB: return a - b;
        case PM::MUL: return a * b;
        case PM::DIV: return a / b;
        case PM::MAX: return std::max(a, b);
        case PM::MIN: return std::min(a, b);
        case PM::ADD_SQUARE: return a + b * b;
        case PM::CMP_EQ: return a == b;
        case PM::CMP_NEQ: return a != b;
        case PM::CMP_GT: return a > b;
        case PM::CMP_GE: return a >= b;
        case PM::CMP_LT: return a < b;
        case PM::CMP_LE: return a <= b;
        case PM::LOGICAL_AND: return a != 0 && b != 0;
        case PM::LOGICAL_OR: return a != 0 || b != 0;
        default: return NAN;
    }
}

// The backward mode of each forward mode: dy * f'(x), with IN_0 = dy and IN_1 = x.
PM
forward_of(PM m) {
    switch (m) {
        case PM::RELU_BWD: return PM::RELU_FWD;
        case PM::TANH_BWD: return PM::TANH_FWD;
        case PM::SIGMOID_BWD: return PM::SIGMOID_FWD;
        case PM::ELU_BWD: return PM::ELU_FWD;
        case PM::GELU_BWD: return PM::GELU_FWD;
        case PM::GELU_APPROX_TANH_BWD: return PM::GELU_APPROX_TANH_FWD;
        case PM::SOFTPLUS_BWD: return PM::SOFTPLUS_FWD;
        case PM::SWISH_BWD: return PM::SWISH_FWD;
        default: return PM::NOT_SET;
    }
}

const std::vector<int64_t> DIM = {2, 3, 5};
const size_t NEL = 30;

// run builds OUT = mode(inputs...) and checks it against want(i).
void
run(PM mode, int arity, bool positive, std::function<double(std::vector<std::vector<float>> const&, size_t)> want_of) {
    std::string what = std::string("pointwise ") + fe::detail::name(mode);
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    std::vector<std::shared_ptr<fe::graph::Tensor_attributes>> in;
    std::vector<std::vector<float>> data(arity, std::vector<float>(NEL));
    for (int i = 0; i < arity; ++i) {
        in.push_back(st_tensor(g, ("in" + std::to_string(i)).c_str(), DIM));
        st_fill(data[i], 100 + i, positive ? 0.25f : -2.f, 2.f);
    }
    if (arity == 3)
        for (size_t k = 0; k < NEL; ++k) data[2][k] = (k % 3 == 0) ? 1.f : 0.f;  // the selector
    if (mode == PM::LOGICAL_AND || mode == PM::LOGICAL_OR || mode == PM::LOGICAL_NOT)
        for (auto& d : data)
            for (size_t k = 0; k < NEL; ++k) d[k] = ((k * 7 + d.size()) % 3 == 0) ? 0.f : 1.f;
    if (mode == PM::CMP_EQ || mode == PM::CMP_NEQ || mode == PM::CMP_GE || mode == PM::CMP_LE)
        for (size_t k = 0; k < NEL; k += 4) data[1][k] = data[0][k];  // some equal pairs
    auto attrs = fe::graph::Pointwise_attributes().set_mode(mode);
    std::shared_ptr<fe::graph::Tensor_attributes> out;
    if (arity == 1) out = g.pointwise(in[0], attrs);
    if (arity == 2) out = g.pointwise(in[0], in[1], attrs);
    if (arity == 3) out = g.pointwise(in[0], in[1], in[2], attrs);
    out->set_output(true);
    if (!st_build(g, what.c_str())) return;
    CHECK(out->get_dim() == DIM);
    CHECK(out->get_stride() == st_packed(DIM));
    std::vector<float> y(NEL);
    Binding b{{out, y.data()}};
    for (int i = 0; i < arity; ++i) b[in[i]] = data[i].data();
    std::vector<double> want(NEL);
    for (size_t k = 0; k < NEL; ++k) want[k] = want_of(data, k);
    st_run_all(g, b, what.c_str(), [&](std::string const& e) { st_close(what.c_str(), e, y, want, 2e-3); });
}

void
pointwise_modes() {
    for (PM m : {PM::RELU_FWD, PM::TANH_FWD, PM::SIGMOID_FWD, PM::ELU_FWD, PM::GELU_FWD, PM::GELU_APPROX_TANH_FWD,
                 PM::SOFTPLUS_FWD, PM::SWISH_FWD, PM::ERF, PM::IDENTITY, PM::EXP, PM::NEG, PM::ABS, PM::CEIL,
                 PM::FLOOR, PM::SIN, PM::TAN, PM::LOGICAL_NOT})
        run(m, 1, false, [m](auto const& d, size_t k) { return fwd(m, d[0][k]); });
    for (PM m : {PM::SQRT, PM::LOG, PM::RSQRT, PM::RECIPROCAL})
        run(m, 1, true, [m](auto const& d, size_t k) { return fwd(m, d[0][k]); });
    for (PM m : {PM::ADD, PM::SUB, PM::MUL, PM::MAX, PM::MIN, PM::ADD_SQUARE, PM::CMP_EQ, PM::CMP_NEQ, PM::CMP_GT,
                 PM::CMP_GE, PM::CMP_LT, PM::CMP_LE, PM::LOGICAL_AND, PM::LOGICAL_OR})
        run(m, 2, false, [m](auto const& d, size_t k) { return bin(m, d[0][k], d[1][k]); });
    run(PM::DIV, 2, true, [](auto const& d, size_t k) { return double(d[0][k]) / d[1][k]; });
    for (PM m : {PM::RELU_BWD, PM::TANH_BWD, PM::SIGMOID_BWD, PM::ELU_BWD, PM::GELU_BWD, PM::GELU_APPROX_TANH_BWD,
                 PM::SOFTPLUS_BWD, PM::SWISH_BWD})
        run(m, 2, false, [m](auto const& d, size_t k) {
            double x = d[1][k], h = 1e-5;
            double slope = (fwd(forward_of(m), x + h) - fwd(forward_of(m), x - h)) / (2 * h);
            return d[0][k] * slope;
        });
    run(PM::BINARY_SELECT, 3, false, [](auto const& d, size_t k) { return d[2][k] != 0 ? d[0][k] : d[1][k]; });
}

// Scalars: x * 2.5 (runtime pass-by-value) + 0.5 (compile-time constant), scalar dims fitted
// to x's rank as upstream does.
void
scalars() {
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_intermediate_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    auto X = st_tensor(g, "X", DIM);
    auto two_and_half = std::make_shared<fe::graph::Tensor_attributes>(2.5f);
    auto half_c = g.tensor(0.5f, fe::graph::ScalarType::COMPILE_TIME_CONST);
    auto scaled = g.pointwise(X, two_and_half, fe::graph::Pointwise_attributes().set_mode(PM::MUL));
    auto Y = g.pointwise(scaled, half_c, fe::graph::Pointwise_attributes().set_mode(PM::ADD));
    Y->set_output(true);
    if (!st_build(g, "scalars")) return;
    CHECK(two_and_half->get_dim() == (std::vector<int64_t>{1, 1, 1}));
    CHECK(half_c->get_dim() == (std::vector<int64_t>{1, 1, 1}));
    std::vector<float> x(NEL), y(NEL);
    st_fill(x, 7);
    std::vector<double> want(NEL);
    for (size_t k = 0; k < NEL; ++k) want[k] = x[k] * 2.5 + 0.5;
    Binding b{{X, x.data()}, {Y, y.data()}};  // scalars need no pointer
    st_run_all(g, b, "scalars", [&](std::string const& e) { st_close("scalars", e, y, want); });
}

// A pass-by-value tensor without a value: its host pointer comes with each execute.
void
runtime_scalar() {
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    auto X = st_tensor(g, "X", DIM);
    auto S = g.tensor(fe::graph::Tensor_attributes().set_name("S").set_dim({1, 1, 1}).set_stride({1, 1, 1}).set_is_pass_by_value(true));
    auto Y = g.pointwise(X, S, fe::graph::Pointwise_attributes().set_mode(PM::MUL));
    Y->set_output(true);
    if (!st_build(g, "runtime scalar")) return;
    std::vector<float> x(NEL), y(NEL);
    st_fill(x, 17);
    alignas(16) float scale = 3.f;
    std::vector<double> want(NEL);
    for (size_t k = 0; k < NEL; ++k) want[k] = x[k] * 3.0;
    Binding b{{X, x.data()}, {S, &scale}, {Y, y.data()}};
    st_run_all(g, b, "runtime scalar", [&](std::string const& e) { st_close("runtime scalar", e, y, want); });
}

// Broadcasting: [2,3,5] + [1,1,5] gives [2,3,5] (upstream's broadcast rule).
void
broadcast() {
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    auto A = st_tensor(g, "A", DIM);
    auto B = st_tensor(g, "B", {1, 1, 5});
    auto Y = g.pointwise(A, B, fe::graph::Pointwise_attributes().set_mode(PM::SUB));
    Y->set_output(true);
    if (!st_build(g, "broadcast")) return;
    CHECK(Y->get_dim() == DIM);
    std::vector<float> a(NEL), bb(5), y(NEL);
    st_fill(a, 1);
    st_fill(bb, 2);
    std::vector<double> want(NEL);
    for (size_t k = 0; k < NEL; ++k) want[k] = double(a[k]) - bb[k % 5];
    Binding b{{A, a.data()}, {B, bb.data()}, {Y, y.data()}};
    st_run_all(g, b, "broadcast", [&](std::string const& e) { st_close("broadcast", e, y, want); });
}

void
matmul(std::vector<int64_t> ad, std::vector<int64_t> bd, const char* what) {
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    auto A = st_tensor(g, "A", ad);
    auto B = st_tensor(g, "B", bd);
    auto C = g.matmul(A, B, fe::graph::Matmul_attributes().set_name("mm"));
    C->set_output(true);
    if (!st_build(g, what)) return;
    int64_t batch = std::max(ad[0], bd[0]), M = ad[1], K = ad[2], N = bd[2];
    CHECK(C->get_dim() == (std::vector<int64_t>{batch, M, N}));
    CHECK(C->get_stride() == (std::vector<int64_t>{M * N, N, 1}));
    std::vector<float> a(ad[0] * M * K), bm(bd[0] * K * N), c(batch * M * N);
    st_fill(a, 11);
    st_fill(bm, 12);
    std::vector<double> want(c.size());
    for (int64_t z = 0; z < batch; ++z)
        for (int64_t i = 0; i < M; ++i)
            for (int64_t j = 0; j < N; ++j) {
                double acc = 0;
                for (int64_t k = 0; k < K; ++k)
                    acc += double(a[((ad[0] == 1 ? 0 : z) * M + i) * K + k]) * bm[((bd[0] == 1 ? 0 : z) * K + k) * N + j];
                want[(z * M + i) * N + j] = acc;
            }
    Binding b{{A, a.data()}, {B, bm.data()}, {C, c.data()}};
    st_run_all(g, b, what, [&](std::string const& e) { st_close(what, e, c, want); });
}

// serialize / deserialize of a built matmul: the restored graph executes by UID and gives the
// same numbers (on the GPU build through the cuDNN engine's serialized execution context).
void
serialized_matmul() {
    const char* what = "serialized matmul";
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    int64_t const Z = 2, M = 4, K = 6, N = 3;
    auto A = st_tensor(g, "A", {Z, M, K});
    auto B = st_tensor(g, "B", {Z, K, N});
    auto C = g.matmul(A, B, fe::graph::Matmul_attributes().set_name("mm"));
    C->set_output(true);
    A->set_uid(1);
    B->set_uid(2);
    C->set_uid(3);
    if (!st_build(g, what)) return;
    std::string name;
    CHECK_FE_OK(g.get_plan_name(name));
    if (!st_engine_runs(name)) {
        std::printf("%s: chosen plan is on %s, not run on this build\n", what, name.c_str());
        return;
    }
    std::vector<uint8_t> bytes;
    CHECK_FE_OK(g.serialize(bytes));
    fe::graph::Graph r;
    CHECK_FE_OK(r.deserialize(st_handle(), bytes));
    int64_t ws = 0;
    CHECK_FE_OK(r.get_workspace_size(ws));
    std::vector<float> a(Z * M * K), bm(Z * K * N), c(Z * M * N);
    st_fill(a, 21);
    st_fill(bm, 22);
    std::vector<double> want(c.size());
    for (int64_t z = 0; z < Z; ++z)
        for (int64_t i = 0; i < M; ++i)
            for (int64_t j = 0; j < N; ++j) {
                double acc = 0;
                for (int64_t k = 0; k < K; ++k) acc += double(a[(z * M + i) * K + k]) * bm[(z * K + k) * N + j];
                want[(z * M + i) * N + j] = acc;
            }
    Binding bind{{A, a.data()}, {B, bm.data()}, {C, c.data()}};
#ifdef ST_DEVICE_MEMORY
    DeviceCopies d(bind, ws);
    std::unordered_map<int64_t, void*> by_uid;
    for (auto const& kv : d.device) by_uid[kv.first->get_uid()] = kv.second;
    auto e = r.execute(st_handle(), by_uid, d.workspace);
    d.copy_back();
#else
    std::unordered_map<int64_t, void*> by_uid{{1, a.data()}, {2, bm.data()}, {3, c.data()}};
    std::vector<unsigned char> w(static_cast<size_t>(ws) + 16);
    auto e = r.execute(st_handle(), by_uid, w.data());
#endif
    if (e.is_bad()) {
        CHECK_FAIL("%s on %s: execute: %s: %s", what, name.c_str(), fe::to_string(e.code), e.err_msg.c_str());
        return;
    }
    st_close(what, name, c, want);
    std::printf("%s: ran on %s\n", what, name.c_str());
}

// Half and bfloat16 I/O with FLOAT compute: exact small values given and checked as bits.
void
reduced_precision(fe::DataType_t dt, uint16_t one, uint16_t two, uint16_t three, const char* what) {
    fe::graph::Graph g;
    g.set_io_data_type(dt).set_compute_data_type(fe::DataType_t::FLOAT);
    auto A = g.tensor(fe::graph::Tensor_attributes().set_name("A").set_dim({1, 4}).set_stride({4, 1}));
    auto B = g.tensor(fe::graph::Tensor_attributes().set_name("B").set_dim({1, 4}).set_stride({4, 1}));
    auto C = g.pointwise(A, B, fe::graph::Pointwise_attributes().set_mode(PM::ADD));
    C->set_output(true);
    if (!st_build(g, what)) return;
    CHECK(C->get_data_type() == dt);  // the graph's I/O type reached the output
    std::vector<uint16_t> a{one, two, one, two}, b{two, one, one, one}, c(4, 0);
    std::vector<uint16_t> want{three, three, two, three};
    Binding bind{{A, a.data()}, {B, b.data()}, {C, c.data()}};
    st_run_all(g, bind, what, [&](std::string const& e) {
        if (c != want) CHECK_FAIL("%s on %s: got %04x %04x %04x %04x", what, e.c_str(), c[0], c[1], c[2], c[3]);
    });
}

}  // namespace

// A unary mode given IN_0 twice (NVIDIA's int8 sample: pointwise(x, x, IDENTITY)) runs as the
// unary mode; a different tensor past the arity is refused, since it would be unused.
void
repeated_operand() {
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    auto A = st_tensor(g, "A", DIM);
    auto Y = g.pointwise(A, A, fe::graph::Pointwise_attributes().set_mode(PM::IDENTITY));
    Y->set_output(true);
    if (!st_build(g, "IDENTITY(A, A)")) return;
    std::vector<float> a(NEL), y(NEL);
    st_fill(a, 3);
    std::vector<double> want(a.begin(), a.end());
    Binding b{{A, a.data()}, {Y, y.data()}};
    st_run_all(g, b, "IDENTITY(A, A)", [&](std::string const& e) { st_close("IDENTITY(A, A)", e, y, want); });
    fe::graph::Graph g2;
    g2.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    auto A2 = st_tensor(g2, "A", DIM), B2 = st_tensor(g2, "B", DIM);
    (void)g2.pointwise(A2, B2, fe::graph::Pointwise_attributes().set_name("id").set_mode(PM::IDENTITY));
    CHECK_FE_ERR(fe::error_code_t::INVALID_VALUE, "pointwise 'id': pointwise mode IDENTITY takes 1 input(s); IN_1 'B' would be unused",
                 g2.validate());
}

int
main() {
    reduced_precision(fe::DataType_t::HALF, 0x3C00, 0x4000, 0x4200, "pointwise ADD (HALF)");
    reduced_precision(fe::DataType_t::BFLOAT16, 0x3F80, 0x4000, 0x4040, "pointwise ADD (BFLOAT16)");
    pointwise_modes();
    scalars();
    runtime_scalar();
    broadcast();
    repeated_operand();
    matmul({2, 4, 6}, {2, 6, 3}, "matmul");
    matmul({1, 4, 6}, {3, 6, 5}, "matmul (A broadcast over batch)");
    serialized_matmul();
    return st_finish("test_shim_matmul_pointwise");
}
