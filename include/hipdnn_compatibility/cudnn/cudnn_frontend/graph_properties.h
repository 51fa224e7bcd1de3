// graph_properties.h - Tensor_attributes and the per-node *_attributes classes: what user code
// fills in before handing tensors and attributes to Graph's node methods.
//
// Names, setters and the input_names / output_names enumerators are upstream's (cudnn-frontend
// 1.23), so user code compiles unchanged. Every setter only records; nothing is checked until
// Graph::validate(), which names the node and the tensor in its message.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "../cudnn_frontend_utils.h"
#include "context.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace graph {

// ScalarType says whether a scalar tensor's value may change between executions
// (RUNTIME_PARAM) or is part of the graph (COMPILE_TIME_CONST).
enum class ScalarType { RUNTIME_PARAM, COMPILE_TIME_CONST };

// Tensor_attributes describes one tensor of a graph: shape, layout, type, UID, and whether it
// is virtual (an intermediate the user never sees) or a scalar passed by value.
class Tensor_attributes {
   public:
    using uid_t            = int64_t;
    using pass_by_values_t = std::variant<int64_t, int32_t, half, float, double, nv_bfloat16>;

   private:
    std::string name;
    DataType_t data_type        = DataType_t::NOT_SET;
    std::vector<int64_t> dim    = {};
    std::vector<int64_t> stride = {};
    bool is_virtual             = false;

    std::optional<pass_by_values_t> pass_by_value               = std::nullopt;
    bool is_pass_by_value                                       = false;
    bool has_compile_time_constant                              = false;
    std::optional<pass_by_values_t> compile_time_constant_value = std::nullopt;

    TensorReordering_t reordering_type = TensorReordering_t::NONE;
    uid_t uid                          = 0;
    bool uid_assigned                  = false;

    std::shared_ptr<Tensor_attributes> ragged_offset;
    int64_t alignment        = 16;
    int64_t vector_count     = 1;
    int64_t vector_dimension = -1;

    template <typename T>
    void
    init_scalar(T const& v, DataType_t t, ScalarType kind) {
        if (kind == ScalarType::COMPILE_TIME_CONST) {
            compile_time_constant_value = v;
            has_compile_time_constant   = true;
        } else {
            pass_by_value = v;
        }
        is_pass_by_value = true;
        dim = stride = {1};
        data_type    = t;
    }

   public:
    // validate checks what a tensor must carry before lowering; messages name the tensor.
    error_t
    validate() const {
        if (dim.empty()) return {error_code_t::ATTRIBUTE_NOT_SET, "Tensor '" + name + "' dims not set."};
        if (stride.empty()) return {error_code_t::ATTRIBUTE_NOT_SET, "Tensor '" + name + "' strides not set."};
        if (dim.size() != stride.size())
            return {error_code_t::ATTRIBUTE_NOT_SET,
                    "Tensor '" + name + "' does not equal dimensionality in dim (" + std::to_string(dim.size()) +
                        ") and stride (" + std::to_string(stride.size()) + ")."};
        if (is_virtual && is_pass_by_value)
            return {error_code_t::ATTRIBUTE_NOT_SET,
                    "Tensor '" + name + "' can't be both virtual and pass_by_value at the same time."};
        if (pass_by_value.has_value() && !is_pass_by_value)
            return {error_code_t::ATTRIBUTE_NOT_SET,
                    "Tensor '" + name + "' can't be a fused scalar and not a pass_by_value tensor at the same time."};
        if (has_compile_time_constant && is_virtual)
            return {error_code_t::ATTRIBUTE_NOT_SET,
                    "Tensor '" + name + "' can't be both compile-time constant and virtual."};
        if (has_compile_time_constant && pass_by_value.has_value())
            return {error_code_t::ATTRIBUTE_NOT_SET,
                    "Tensor '" + name + "' can't have both compile-time constant and runtime pass_by_value."};
        return {error_code_t::OK, ""};
    }

    Tensor_attributes() = default;

    Tensor_attributes(float const& v) { init_scalar(v, DataType_t::FLOAT, ScalarType::RUNTIME_PARAM); }
    Tensor_attributes(half const& v) { init_scalar(v, DataType_t::HALF, ScalarType::RUNTIME_PARAM); }
    Tensor_attributes(nv_bfloat16 const& v) { init_scalar(v, DataType_t::BFLOAT16, ScalarType::RUNTIME_PARAM); }
    Tensor_attributes(int32_t const& v) { init_scalar(v, DataType_t::INT32, ScalarType::RUNTIME_PARAM); }
    Tensor_attributes(int64_t const& v) { init_scalar(v, DataType_t::INT64, ScalarType::RUNTIME_PARAM); }
    Tensor_attributes(double const& v) { init_scalar(v, DataType_t::DOUBLE, ScalarType::RUNTIME_PARAM); }

    Tensor_attributes(float const& v, ScalarType k) { init_scalar(v, DataType_t::FLOAT, k); }
    Tensor_attributes(half const& v, ScalarType k) { init_scalar(v, DataType_t::HALF, k); }
    Tensor_attributes(nv_bfloat16 const& v, ScalarType k) { init_scalar(v, DataType_t::BFLOAT16, k); }
    Tensor_attributes(int32_t const& v, ScalarType k) { init_scalar(v, DataType_t::INT32, k); }
    Tensor_attributes(int64_t const& v, ScalarType k) { init_scalar(v, DataType_t::INT64, k); }
    Tensor_attributes(double const& v, ScalarType k) { init_scalar(v, DataType_t::DOUBLE, k); }

    std::string
    get_name() const {
        return name;
    }
    auto
    set_name(std::string const& value) -> Tensor_attributes& {
        name = value;
        return *this;
    }

    DataType_t
    get_data_type() const {
        return data_type;
    }
    auto
    set_data_type(DataType_t const value) -> Tensor_attributes& {
        data_type = value;
        return *this;
    }

    std::vector<int64_t>
    get_dim() const {
        return dim;
    }
    auto
    set_dim(std::vector<int64_t> const& value) -> Tensor_attributes& {
        dim = value;
        return *this;
    }

    int64_t
    get_volume() const {
        int64_t v = 1;
        for (int64_t d : dim) v *= d;
        return v;
    }

    std::vector<int64_t>
    get_stride() const {
        return stride;
    }
    auto
    set_stride(std::vector<int64_t> const& value) -> Tensor_attributes& {
        stride = value;
        return *this;
    }

    bool
    get_is_virtual() const {
        return is_virtual;
    }
    auto
    set_is_virtual(bool const value) -> Tensor_attributes& {
        is_virtual = value;
        return *this;
    }
    // set_output(true) makes a node's output a real (non-virtual) tensor the user binds.
    auto
    set_output(bool const value) -> Tensor_attributes& {
        return set_is_virtual(!value);
    }

    std::optional<pass_by_values_t>
    get_pass_by_value() const {
        return pass_by_value;
    }
    bool
    get_is_pass_by_value() const {
        return is_pass_by_value;
    }
    auto
    set_is_pass_by_value(bool const value) -> Tensor_attributes& {
        is_pass_by_value = value;
        return *this;
    }

    bool
    get_has_compile_time_constant() const {
        return has_compile_time_constant;
    }
    std::optional<pass_by_values_t>
    get_compile_time_constant() const {
        return compile_time_constant_value;
    }
    auto
    set_compile_time_constant(pass_by_values_t const& value) -> Tensor_attributes& {
        compile_time_constant_value = value;
        has_compile_time_constant   = true;
        is_pass_by_value            = true;
        return *this;
    }
    auto
    set_as_runtime_parameter() -> Tensor_attributes& {
        is_pass_by_value            = true;
        has_compile_time_constant   = false;
        compile_time_constant_value = std::nullopt;
        return *this;
    }

    TensorReordering_t
    get_reordering_type() const {
        return reordering_type;
    }
    auto
    set_reordering_type(TensorReordering_t const value) -> Tensor_attributes& {
        reordering_type = value;
        return *this;
    }

    int64_t
    get_alignment() const {
        return alignment;
    }
    auto
    set_alignment(int64_t const value) -> Tensor_attributes& {
        alignment = value;
        return *this;
    }

    int64_t
    get_vector_count() const {
        return vector_count;
    }
    int64_t
    get_vector_dimension() const {
        return vector_dimension;
    }
    auto
    set_vector_count_and_dimension(int64_t const count, int64_t const dimension) -> Tensor_attributes& {
        vector_count     = count;
        vector_dimension = dimension;
        return *this;
    }

    uid_t
    get_uid() const {
        return uid;
    }
    // has_uid answers whether a UID was set (upstream returns it as a uid_t).
    uid_t
    has_uid() const {
        return uid_assigned;
    }
    auto
    clear_uid(void) -> Tensor_attributes& {
        uid          = 0;
        uid_assigned = false;
        return *this;
    }
    auto
    set_uid(uid_t value) -> Tensor_attributes& {
        uid          = value;
        uid_assigned = true;
        return *this;
    }

    std::shared_ptr<Tensor_attributes>
    get_ragged_offset() {
        return ragged_offset;
    }
    auto
    set_ragged_offset(std::shared_ptr<Tensor_attributes> const& value) -> Tensor_attributes& {
        ragged_offset = value;
        return *this;
    }

    // fill_from_context gives an untyped tensor the graph's I/O or intermediate type.
    auto
    fill_from_context(detail::Context const& context) -> Tensor_attributes& {
        if (data_type == DataType_t::NOT_SET)
            data_type = is_virtual ? context.get_intermediate_data_type() : context.get_io_data_type();
        return *this;
    }

    // scalar_bytes copies the scalar's value (runtime or compile-time) into out; false when the
    // tensor carries no value.
    bool
    scalar_bytes(std::vector<uint8_t>& out) const {
        auto const& v = pass_by_value.has_value() ? pass_by_value : compile_time_constant_value;
        if (!v.has_value()) return false;
        std::visit(
            [&out](auto const& x) {
                out.resize(sizeof x);
                std::memcpy(out.data(), &x, sizeof x);
            },
            *v);
        return true;
    }
};

// Attributes is the part every node's attributes share: a name and a compute type.
template <typename DerivedT>
class Attributes {
    DerivedT&
    self() {
        return *static_cast<DerivedT*>(this);
    }

   public:
    std::string name;
    DataType_t compute_data_type = DataType_t::NOT_SET;

    DerivedT&
    set_name(std::string const& value) {
        name = value;
        return self();
    }
    DerivedT&
    set_compute_data_type(DataType_t value) {
        compute_data_type = value;
        return self();
    }
    std::string
    get_name() const {
        return name;
    }
    DataType_t
    get_compute_data_type() const {
        return compute_data_type;
    }
};

// Convolution geometry shared by fprop, dgrad and wgrad.
template <typename DerivedT>
class Conv_attributes_base : public Attributes<DerivedT> {
    DerivedT&
    self() {
        return *static_cast<DerivedT*>(this);
    }

   public:
    std::vector<int64_t> pre_padding;
    std::vector<int64_t> post_padding;
    std::vector<int64_t> stride;
    std::vector<int64_t> dilation;
    ConvolutionMode_t math_mode = ConvolutionMode_t::CROSS_CORRELATION;

    ConvolutionMode_t
    get_convolution_mode() const {
        return math_mode;
    }
    DerivedT&
    set_convolution_mode(ConvolutionMode_t m) {
        math_mode = m;
        return self();
    }
    std::vector<int64_t>
    get_pre_padding() const {
        return pre_padding;
    }
    std::vector<int64_t>
    get_post_padding() const {
        return post_padding;
    }
    DerivedT&
    set_padding(std::vector<int64_t> value) {
        pre_padding = post_padding = value;
        return self();
    }
    DerivedT&
    set_pre_padding(std::vector<int64_t> value) {
        pre_padding = value;
        return self();
    }
    DerivedT&
    set_post_padding(std::vector<int64_t> value) {
        post_padding = value;
        return self();
    }
    std::vector<int64_t>
    get_stride() const {
        return stride;
    }
    DerivedT&
    set_stride(std::vector<int64_t> value) {
        stride = value;
        return self();
    }
    std::vector<int64_t>
    get_dilation() const {
        return dilation;
    }
    DerivedT&
    set_dilation(std::vector<int64_t> value) {
        dilation = value;
        return self();
    }
};

using TensorPtr = std::shared_ptr<Tensor_attributes>;

class Conv_fprop_attributes : public Conv_attributes_base<Conv_fprop_attributes> {
   public:
    enum class input_names { X, W };
    enum class output_names { Y };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;
};

class Conv_dgrad_attributes : public Conv_attributes_base<Conv_dgrad_attributes> {
   public:
    enum class input_names { DY, W };
    enum class output_names { DX };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;
};

class Conv_wgrad_attributes : public Conv_attributes_base<Conv_wgrad_attributes> {
   public:
    enum class input_names { DY, X };
    enum class output_names { DW };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;
};

class Matmul_attributes : public Attributes<Matmul_attributes> {
   public:
    double padding_value = 0.0;
    enum class input_names { A, B, M_override, N_override, K_override };
    enum class output_names { C };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;

    Matmul_attributes&
    set_m_override(TensorPtr const& value) {
        inputs[input_names::M_override] = value;
        return *this;
    }
    Matmul_attributes&
    set_n_override(TensorPtr const& value) {
        inputs[input_names::N_override] = value;
        return *this;
    }
    Matmul_attributes&
    set_k_override(TensorPtr const& value) {
        inputs[input_names::K_override] = value;
        return *this;
    }
    Matmul_attributes&
    set_padding(double const padding_val) {
        padding_value = padding_val;
        return *this;
    }
};

class Pointwise_attributes : public Attributes<Pointwise_attributes> {
   public:
    PointwiseMode_t mode = PointwiseMode_t::NOT_SET;
    std::optional<int64_t> axis;
    std::optional<float> relu_lower_clip;
    std::optional<float> relu_upper_clip;
    std::optional<float> relu_lower_clip_slope;
    std::optional<float> swish_beta;
    std::optional<float> elu_alpha;
    std::optional<float> softplus_beta;

    enum class input_names { IN_0, IN_1, IN_2 };
    enum class output_names { OUT_0 };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;

    Pointwise_attributes&
    set_mode(PointwiseMode_t const value) {
        mode = value;
        return *this;
    }
    PointwiseMode_t
    get_mode() const {
        return mode;
    }
    std::optional<int64_t>
    get_axis() const {
        return axis;
    }
    Pointwise_attributes&
    set_axis(int64_t const a) {
        axis = a;
        return *this;
    }
    Pointwise_attributes&
    set_relu_lower_clip_slope(float const v) {
        relu_lower_clip_slope = v;
        return *this;
    }
    Pointwise_attributes&
    set_relu_lower_clip(float const v) {
        relu_lower_clip = v;
        return *this;
    }
    Pointwise_attributes&
    set_relu_upper_clip(float const v) {
        relu_upper_clip = v;
        return *this;
    }
    Pointwise_attributes&
    set_swish_beta(float const v) {
        swish_beta = v;
        return *this;
    }
    std::optional<float>
    get_swish_beta() const {
        return swish_beta;
    }
    Pointwise_attributes&
    set_elu_alpha(float const v) {
        elu_alpha = v;
        return *this;
    }
    Pointwise_attributes&
    set_softplus_beta(float const v) {
        softplus_beta = v;
        return *this;
    }
};

class Reduction_attributes : public Attributes<Reduction_attributes> {
   public:
    std::optional<ReductionMode_t> mode;
    bool is_deterministic = false;
    enum class input_names { X };
    enum class output_names { Y };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;

    std::optional<ReductionMode_t>
    get_mode() const {
        return mode;
    }
    Reduction_attributes&
    set_mode(ReductionMode_t value) {
        mode = value;
        return *this;
    }
    bool
    get_is_deterministic() const {
        return is_deterministic;
    }
    Reduction_attributes&
    set_is_deterministic(bool value) {
        is_deterministic = value;
        return *this;
    }
};

class Batchnorm_attributes : public Attributes<Batchnorm_attributes> {
   public:
    enum class input_names { X, SCALE, BIAS, PREV_RUNNING_MEAN, PREV_RUNNING_VAR, EPSILON, MOMENTUM };
    enum class output_names { Y, MEAN, INV_VARIANCE, NEXT_RUNNING_MEAN, NEXT_RUNNING_VAR };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;
    std::vector<TensorPtr> peer_stats;

    Batchnorm_attributes&
    set_previous_running_stats(TensorPtr& mean, TensorPtr& variance, TensorPtr& momentum) {
        inputs[input_names::PREV_RUNNING_MEAN] = mean;
        inputs[input_names::PREV_RUNNING_VAR]  = variance;
        inputs[input_names::MOMENTUM]          = momentum;
        return *this;
    }
    Batchnorm_attributes&
    set_epsilon(TensorPtr& value) {
        inputs[input_names::EPSILON] = value;
        return *this;
    }
    Batchnorm_attributes&
    set_peer_stats(std::vector<TensorPtr> const& stats) {
        peer_stats = stats;
        return *this;
    }
};

class Batchnorm_inference_attributes : public Attributes<Batchnorm_inference_attributes> {
   public:
    enum class input_names { X, MEAN, INV_VARIANCE, SCALE, BIAS };
    enum class output_names { Y };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;
};

class Batchnorm_backward_attributes : public Attributes<Batchnorm_backward_attributes> {
   public:
    enum class input_names { DY, X, SCALE, MEAN, INV_VARIANCE };
    enum class output_names { DX, DSCALE, DBIAS };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;
    std::vector<TensorPtr> peer_stats;

    Batchnorm_backward_attributes&
    set_saved_mean_and_inv_variance(TensorPtr mean, TensorPtr inv_variance) {
        inputs[input_names::MEAN]         = mean;
        inputs[input_names::INV_VARIANCE] = inv_variance;
        return *this;
    }
    Batchnorm_backward_attributes&
    set_peer_stats(std::vector<TensorPtr> const& stats) {
        peer_stats = stats;
        return *this;
    }
};

class Layernorm_attributes : public Attributes<Layernorm_attributes> {
   public:
    NormFwdPhase_t forward_phase = NormFwdPhase_t::NOT_SET;
    enum class input_names { X, SCALE, BIAS, EPSILON };
    enum class output_names { Y, MEAN, INV_VARIANCE };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;

    Layernorm_attributes&
    set_forward_phase(NormFwdPhase_t const value) {
        forward_phase = value;
        return *this;
    }
    Layernorm_attributes&
    set_epsilon(TensorPtr& value) {
        inputs[input_names::EPSILON] = value;
        return *this;
    }
    Layernorm_attributes&
    set_epsilon(float const value) {
        inputs[input_names::EPSILON] = std::make_shared<Tensor_attributes>(value);
        return *this;
    }
};

class Layernorm_backward_attributes : public Attributes<Layernorm_backward_attributes> {
   public:
    enum class input_names { DY, X, SCALE, MEAN, INV_VARIANCE, EPSILON };
    enum class output_names { DX, DSCALE, DBIAS };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;

    Layernorm_backward_attributes&
    set_saved_mean_and_inv_variance(TensorPtr mean, TensorPtr inv_variance) {
        inputs[input_names::MEAN]         = mean;
        inputs[input_names::INV_VARIANCE] = inv_variance;
        return *this;
    }
};

class Rmsnorm_attributes : public Attributes<Rmsnorm_attributes> {
   public:
    NormFwdPhase_t forward_phase = NormFwdPhase_t::NOT_SET;
    enum class input_names { X, SCALE, BIAS, EPSILON };
    enum class output_names { Y, INV_VARIANCE };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;

    Rmsnorm_attributes&
    set_forward_phase(NormFwdPhase_t const value) {
        forward_phase = value;
        return *this;
    }
    Rmsnorm_attributes&
    set_bias(TensorPtr& value) {
        inputs[input_names::BIAS] = value;
        return *this;
    }
    Rmsnorm_attributes&
    set_epsilon(TensorPtr& value) {
        inputs[input_names::EPSILON] = value;
        return *this;
    }
};

class Rmsnorm_backward_attributes : public Attributes<Rmsnorm_backward_attributes> {
   public:
    std::optional<bool> use_dbias;
    enum class input_names { DY, X, SCALE, INV_VARIANCE };
    enum class output_names { DX, DSCALE, DBIAS };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;

    Rmsnorm_backward_attributes&
    has_dbias(bool value) {
        use_dbias = value;
        return *this;
    }
};

class Resample_attributes : public Attributes<Resample_attributes> {
   public:
    std::optional<bool> generate_index;
    ResampleMode_t resample_mode = ResampleMode_t::NOT_SET;
    PaddingMode_t padding_mode   = PaddingMode_t::NOT_SET;
    std::vector<cudnnFraction_t> pre_padding;
    std::vector<cudnnFraction_t> post_padding;
    std::vector<cudnnFraction_t> stride;
    std::vector<cudnnFraction_t> window;
    enum class input_names { X };
    enum class output_names { Y, Index };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;

   private:
    static std::vector<cudnnFraction_t>
    whole(std::vector<int64_t> const& v) {
        std::vector<cudnnFraction_t> out;
        for (int64_t x : v) out.push_back(cudnnFraction_t{x, 1});
        return out;
    }

   public:
    auto
    set_resampling_mode(ResampleMode_t const& value) -> Resample_attributes& {
        resample_mode = value;
        return *this;
    }
    auto
    set_padding_mode(PaddingMode_t const& value) -> Resample_attributes& {
        padding_mode = value;
        return *this;
    }
    auto
    set_window(std::vector<int64_t> const& value) -> Resample_attributes& {
        window = whole(value);
        return *this;
    }
    auto
    set_window(std::vector<cudnnFraction_t> const& value) -> Resample_attributes& {
        window = value;
        return *this;
    }
    auto
    set_stride(std::vector<int64_t> const& value) -> Resample_attributes& {
        stride = whole(value);
        return *this;
    }
    auto
    set_stride(std::vector<cudnnFraction_t> const& value) -> Resample_attributes& {
        stride = value;
        return *this;
    }
    auto
    set_pre_padding(std::vector<int64_t> const& value) -> Resample_attributes& {
        pre_padding = whole(value);
        return *this;
    }
    auto
    set_pre_padding(std::vector<cudnnFraction_t> const& value) -> Resample_attributes& {
        pre_padding = value;
        return *this;
    }
    auto
    set_post_padding(std::vector<int64_t> const& value) -> Resample_attributes& {
        post_padding = whole(value);
        return *this;
    }
    auto
    set_post_padding(std::vector<cudnnFraction_t> const& value) -> Resample_attributes& {
        post_padding = value;
        return *this;
    }
    auto
    set_generate_index(bool const value) -> Resample_attributes& {
        generate_index = value;
        return *this;
    }
    auto
    set_is_inference(bool const value) -> Resample_attributes& {
        return set_generate_index(!value);
    }
};

class Block_scale_quantize_attributes : public Attributes<Block_scale_quantize_attributes> {
   public:
    std::optional<int32_t> block_size;
    std::optional<int64_t> axis;
    bool transpose = false;
    enum class input_names { X };
    enum class output_names { Y, scale };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;

    Block_scale_quantize_attributes&
    set_block_size(int32_t const value) {
        block_size = value;
        return *this;
    }
    Block_scale_quantize_attributes&
    set_axis(int64_t const value) {
        axis = value;
        return *this;
    }
    Block_scale_quantize_attributes&
    set_transpose(bool const value) {
        transpose = value;
        return *this;
    }
};

class Block_scale_dequantize_attributes : public Attributes<Block_scale_dequantize_attributes> {
   public:
    std::vector<int32_t> block_size;
    bool is_negative_scale = false;
    enum class input_names { X, scale };
    enum class output_names { Y };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;

    Block_scale_dequantize_attributes&
    set_block_size(int32_t const value, int32_t idx = 0) {
        if (idx >= 0) {
            if (block_size.size() <= static_cast<size_t>(idx)) block_size.resize(idx + 1, 1);
            block_size[idx] = value;
        }
        return *this;
    }
    Block_scale_dequantize_attributes&
    set_block_size(const int32_t* values, int32_t len = 1) {
        block_size.assign(values, values + (len > 0 ? len : 0));
        return *this;
    }
    Block_scale_dequantize_attributes&
    set_block_size(const std::vector<int32_t>& values) {
        block_size = values;
        return *this;
    }
    bool
    get_is_negative_scale() const {
        return is_negative_scale;
    }
    Block_scale_dequantize_attributes&
    set_is_negative_scale(bool value) {
        is_negative_scale = value;
        return *this;
    }
};

}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
