// graph_properties_stubs.h - the *_attributes classes of nodes the shim declares but does not
// lower yet (Tier-2 stubs, docs/cudnn-shim.md): upstream's names, setters and input/output
// enumerators, so code using them compiles; Graph refuses the node by name at validate().
#pragma once

#include <optional>
#include <utility>

#include "graph_properties.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace graph {

class Genstats_attributes : public Attributes<Genstats_attributes> {
   public:
    enum class input_names { X };
    enum class output_names { SUM, SQ_SUM };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;
};

class BN_finalize_attributes : public Attributes<BN_finalize_attributes> {
   public:
    enum class input_names {
        SUM,
        SQ_SUM,
        SCALE,
        BIAS,
        EPSILON,
        ACCUM_COUNT,
        PREV_RUNNING_MEAN,
        PREV_RUNNING_VAR,
        MOMENTUM
    };
    enum class output_names { EQ_SCALE, EQ_BIAS, MEAN, INV_VARIANCE, NEXT_RUNNING_MEAN, NEXT_RUNNING_VAR };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;

    BN_finalize_attributes&
    set_previous_running_stats(TensorPtr& mean, TensorPtr& variance, TensorPtr& momentum) {
        inputs[input_names::PREV_RUNNING_MEAN] = mean;
        inputs[input_names::PREV_RUNNING_VAR]  = variance;
        inputs[input_names::MOMENTUM]          = momentum;
        return *this;
    }
};

class DBN_weight_attributes : public Attributes<DBN_weight_attributes> {
   public:
    enum class input_names { DY, X, SCALE, MEAN, INV_VARIANCE };
    enum class output_names { DSCALE, DBIAS, EQ_BIAS, EQ_SCALE_DY, EQ_SCALE_X };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;
};

class Instancenorm_attributes : public Attributes<Instancenorm_attributes> {
   public:
    NormFwdPhase_t forward_phase = NormFwdPhase_t::NOT_SET;
    enum class input_names { X, SCALE, BIAS, EPSILON };
    enum class output_names { Y, MEAN, INV_VARIANCE };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;

    Instancenorm_attributes&
    set_forward_phase(NormFwdPhase_t const value) {
        forward_phase = value;
        return *this;
    }
    Instancenorm_attributes&
    set_epsilon(TensorPtr& value) {
        inputs[input_names::EPSILON] = value;
        return *this;
    }
};

class Instancenorm_backward_attributes : public Attributes<Instancenorm_backward_attributes> {
   public:
    enum class input_names { DY, X, SCALE, MEAN, INV_VARIANCE };
    enum class output_names { DX, DSCALE, DBIAS };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;

    Instancenorm_backward_attributes&
    set_saved_mean_and_inv_variance(TensorPtr mean, TensorPtr inv_variance) {
        inputs[input_names::MEAN]         = mean;
        inputs[input_names::INV_VARIANCE] = inv_variance;
        return *this;
    }
};

class AdaLayernorm_attributes : public Attributes<AdaLayernorm_attributes> {
   public:
    NormFwdPhase_t forward_phase = NormFwdPhase_t::NOT_SET;
    enum class input_names { X, SCALE, BIAS, EPSILON };
    enum class output_names { Y, MEAN, INV_VARIANCE };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;

    AdaLayernorm_attributes&
    set_forward_phase(NormFwdPhase_t const value) {
        forward_phase = value;
        return *this;
    }
    AdaLayernorm_attributes&
    set_epsilon(TensorPtr value) {
        inputs[input_names::EPSILON] = std::move(value);
        return *this;
    }
};

class AdaLayernorm_backward_attributes : public Attributes<AdaLayernorm_backward_attributes> {
   public:
    enum class input_names { DY, X, SCALE, MEAN, INV_VARIANCE, EPSILON };
    enum class output_names { DX, DSCALE, DBIAS };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;

    AdaLayernorm_backward_attributes&
    set_saved_mean_and_inv_variance(TensorPtr mean, TensorPtr inv_variance) {
        inputs[input_names::MEAN]         = mean;
        inputs[input_names::INV_VARIANCE] = inv_variance;
        return *this;
    }
};

class Reshape_attributes : public Attributes<Reshape_attributes> {
    std::vector<int64_t> dim;
    std::vector<int64_t> stride;
    ReshapeMode_t reshape_mode = ReshapeMode_t::VIEW_ONLY;

   public:
    enum class input_names { X };
    enum class output_names { Y };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;

    std::vector<int64_t>
    get_dim() const {
        return dim;
    }
    auto
    set_dim(std::vector<int64_t> const& value) -> Reshape_attributes& {
        dim = value;
        return *this;
    }
    std::vector<int64_t>
    get_stride() const {
        return stride;
    }
    auto
    set_stride(std::vector<int64_t> const& value) -> Reshape_attributes& {
        stride = value;
        return *this;
    }
    ReshapeMode_t
    get_reshape_mode() const {
        return reshape_mode;
    }
    auto
    set_reshape_mode(ReshapeMode_t const& value) -> Reshape_attributes& {
        reshape_mode = value;
        return *this;
    }
};

class Transpose_attributes : public Attributes<Transpose_attributes> {
    std::vector<int64_t> permutation;

   public:
    enum class input_names { X };
    enum class output_names { Y };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;

    std::vector<int64_t>
    get_permutation() const {
        return permutation;
    }
    auto
    set_permutation(std::vector<int64_t> const& value) -> Transpose_attributes& {
        permutation = value;
        return *this;
    }
};

class Slice_attributes : public Attributes<Slice_attributes> {
    std::vector<std::pair<int64_t, int64_t>> slices;
    std::vector<int64_t> slice_strides = {1};

   public:
    enum class input_names { X };
    enum class output_names { Y };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;

    Slice_attributes&
    set_slices(std::vector<std::pair<int64_t, int64_t>> const value) {
        slices = value;
        return *this;
    }
    Slice_attributes&
    set_strides(std::vector<int64_t> const value) {
        slice_strides = value;
        return *this;
    }
};

class Concatenate_attributes : public Attributes<Concatenate_attributes> {
    std::optional<int64_t> axis;
    std::optional<int64_t> in_place_index;

   public:
    std::vector<TensorPtr> inputs;
    enum class output_names { Y };
    std::unordered_map<output_names, TensorPtr> outputs;

    Concatenate_attributes&
    set_axis(int64_t const value) {
        axis = value;
        return *this;
    }
    Concatenate_attributes&
    set_in_place_index(int64_t const value) {
        in_place_index = value;
        return *this;
    }
};

class Rng_attributes : public Attributes<Rng_attributes> {
    RngDistribution_t distribution = RngDistribution_t::NOT_SET;
    std::vector<int64_t> dim;
    std::vector<int64_t> stride;
    std::optional<int64_t> seed;
    std::optional<double> bernoulli_probability;

   public:
    enum class input_names { Seed, Offset };
    enum class output_names { Y };
    std::unordered_map<input_names, TensorPtr> inputs;
    std::unordered_map<output_names, TensorPtr> outputs;

    std::vector<int64_t>
    get_dim() const {
        return dim;
    }
    auto
    set_dim(std::vector<int64_t> const& value) -> Rng_attributes& {
        dim = value;
        return *this;
    }
    std::vector<int64_t>
    get_stride() const {
        return stride;
    }
    auto
    set_stride(std::vector<int64_t> const& value) -> Rng_attributes& {
        stride = value;
        return *this;
    }
    RngDistribution_t
    get_distribution() const {
        return distribution;
    }
    Rng_attributes&
    set_distribution(RngDistribution_t value) {
        distribution = value;
        return *this;
    }
    std::optional<int64_t>
    get_seed() const {
        return seed;
    }
    Rng_attributes&
    set_seed(std::optional<int64_t> value) {
        seed = value;
        return *this;
    }
    std::optional<double>
    get_bernoulli_probability() const {
        return bernoulli_probability;
    }
    Rng_attributes&
    set_bernoulli_probability(std::optional<double> value) {
        bernoulli_probability = value;
        return *this;
    }
};

}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
