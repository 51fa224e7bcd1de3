// hipdnn_fb_golden: writes golden flatbuffers built with the flatc-generated
// C++ code, for the Go tests in internal/fb (golden_cpp_test.go) to read back.
//
//   hipdnn_fb_golden <output-dir>
//
// The objects and the value rule below are mirrored by internal/fb/golden_test.go
// (goldenGraph & co.); change both together. Value rule for the attribute
// table of NodeAttributes tag k, field slot s:
//   long / int fields          k*1000 + s
//   float fields               k + s/4
//   [long] fields              {k, s, -1}
//   [int] fields               {k, s}
//   [ubyte] fields             {k, s, 255, 0}
//   string fields              "k<k>s<s>"
//   bool with default false    true
//   optional bool (= null)     false (present)
//   enums                      the largest value the enum declares
#include <hipdnn_flatbuffers_sdk/device_properties_generated.h>
#include <hipdnn_flatbuffers_sdk/engine_details_generated.h>
#include <hipdnn_flatbuffers_sdk/engine_prediction_generated.h>
#include <hipdnn_flatbuffers_sdk/execution_plan_generated.h>
#include <hipdnn_flatbuffers_sdk/graph_generated.h>
#include <hipdnn_flatbuffers_sdk/serialized_graph_and_plan_generated.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

namespace
{

int64_t L(int k, int s) { return int64_t(k) * 1000 + s; }
int32_t I(int k, int s) { return int32_t(k * 1000 + s); }
float F(int k, int s) { return float(k) + float(s) * 0.25f; }
std::vector<int64_t> LV(int k, int s) { return {k, s, -1}; }
std::vector<int32_t> IV(int k, int s) { return {k, s}; }
std::vector<uint8_t> BV(int k, int s) { return {uint8_t(k), uint8_t(s), 255, 0}; }
std::string S(int k, int s) { return "k" + std::to_string(k) + "s" + std::to_string(s); }

bool writeFile(const std::string& dir, const char* name, const uint8_t* data, size_t size)
{
    std::string path = dir + "/" + name;
    FILE* f = std::fopen(path.c_str(), "wb");
    if(f == nullptr)
    {
        std::perror(path.c_str());
        return false;
    }
    bool ok = std::fwrite(data, 1, size, f) == size;
    ok = (std::fclose(f) == 0) && ok;
    if(ok)
        std::printf("wrote %s (%zu bytes)\n", path.c_str(), size);
    return ok;
}

// One attribute table per NodeAttributes member, every field set.
Offset<void> fullAttributes(FlatBufferBuilder& b, fbs::NodeAttributes tag)
{
    const int k = int(tag);
    switch(tag)
    {
    case fbs::NodeAttributes::BatchnormInferenceAttributes:
    {
        fbs::BatchnormInferenceAttributesBuilder t(b);
        t.add_x_tensor_uid(L(k, 0));
        t.add_mean_tensor_uid(L(k, 1));
        t.add_inv_variance_tensor_uid(L(k, 2));
        t.add_scale_tensor_uid(L(k, 3));
        t.add_bias_tensor_uid(L(k, 4));
        t.add_y_tensor_uid(L(k, 5));
        return t.Finish().Union();
    }
    case fbs::NodeAttributes::PointwiseAttributes:
    {
        fbs::PointwiseAttributesBuilder t(b);
        t.add_operation(fbs::PointwiseMode::TANH_FWD);
        t.add_relu_lower_clip(F(k, 1));
        t.add_relu_upper_clip(F(k, 2));
        t.add_relu_lower_clip_slope(F(k, 3));
        t.add_axis_tensor_uid(L(k, 4));
        t.add_in_0_tensor_uid(L(k, 5));
        t.add_in_1_tensor_uid(L(k, 6));
        t.add_in_2_tensor_uid(L(k, 7));
        t.add_out_0_tensor_uid(L(k, 8));
        t.add_swish_beta(F(k, 9));
        t.add_elu_alpha(F(k, 10));
        t.add_softplus_beta(F(k, 11));
        return t.Finish().Union();
    }
    case fbs::NodeAttributes::BatchnormBackwardAttributes:
    {
        auto peer = b.CreateVector(LV(k, 5));
        fbs::BatchnormBackwardAttributesBuilder t(b);
        t.add_dy_tensor_uid(L(k, 0));
        t.add_x_tensor_uid(L(k, 1));
        t.add_mean_tensor_uid(L(k, 2));
        t.add_inv_variance_tensor_uid(L(k, 3));
        t.add_scale_tensor_uid(L(k, 4));
        t.add_peer_stats_tensor_uid(peer);
        t.add_dx_tensor_uid(L(k, 6));
        t.add_dscale_tensor_uid(L(k, 7));
        t.add_dbias_tensor_uid(L(k, 8));
        return t.Finish().Union();
    }
    case fbs::NodeAttributes::BatchnormAttributes:
    {
        auto peer = b.CreateVector(LV(k, 4));
        fbs::BatchnormAttributesBuilder t(b);
        t.add_x_tensor_uid(L(k, 0));
        t.add_scale_tensor_uid(L(k, 1));
        t.add_bias_tensor_uid(L(k, 2));
        t.add_epsilon_tensor_uid(L(k, 3));
        t.add_peer_stats_tensor_uid(peer);
        t.add_prev_running_mean_tensor_uid(L(k, 5));
        t.add_prev_running_variance_tensor_uid(L(k, 6));
        t.add_momentum_tensor_uid(L(k, 7));
        t.add_y_tensor_uid(L(k, 8));
        t.add_mean_tensor_uid(L(k, 9));
        t.add_inv_variance_tensor_uid(L(k, 10));
        t.add_next_running_mean_tensor_uid(L(k, 11));
        t.add_next_running_variance_tensor_uid(L(k, 12));
        return t.Finish().Union();
    }
    case fbs::NodeAttributes::ConvolutionFwdAttributes:
    {
        auto pre = b.CreateVector(LV(k, 3));
        auto post = b.CreateVector(LV(k, 4));
        auto stride = b.CreateVector(LV(k, 5));
        auto dil = b.CreateVector(LV(k, 6));
        auto flops = b.CreateString(S(k, 8));
        auto bytes = b.CreateString(S(k, 9));
        fbs::ConvolutionFwdAttributesBuilder t(b);
        t.add_x_tensor_uid(L(k, 0));
        t.add_w_tensor_uid(L(k, 1));
        t.add_y_tensor_uid(L(k, 2));
        t.add_pre_padding(pre);
        t.add_post_padding(post);
        t.add_stride(stride);
        t.add_dilation(dil);
        t.add_conv_mode(fbs::ConvMode::CROSS_CORRELATION);
        t.add_umd_flops(flops);
        t.add_umd_bytes(bytes);
        return t.Finish().Union();
    }
    case fbs::NodeAttributes::ConvolutionBwdAttributes:
    {
        auto pre = b.CreateVector(LV(k, 3));
        auto post = b.CreateVector(LV(k, 4));
        auto stride = b.CreateVector(LV(k, 5));
        auto dil = b.CreateVector(LV(k, 6));
        auto flops = b.CreateString(S(k, 8));
        auto bytes = b.CreateString(S(k, 9));
        fbs::ConvolutionBwdAttributesBuilder t(b);
        t.add_dy_tensor_uid(L(k, 0));
        t.add_w_tensor_uid(L(k, 1));
        t.add_dx_tensor_uid(L(k, 2));
        t.add_pre_padding(pre);
        t.add_post_padding(post);
        t.add_stride(stride);
        t.add_dilation(dil);
        t.add_conv_mode(fbs::ConvMode::CROSS_CORRELATION);
        t.add_umd_flops(flops);
        t.add_umd_bytes(bytes);
        return t.Finish().Union();
    }
    case fbs::NodeAttributes::ConvolutionWrwAttributes:
    {
        auto pre = b.CreateVector(LV(k, 3));
        auto post = b.CreateVector(LV(k, 4));
        auto stride = b.CreateVector(LV(k, 5));
        auto dil = b.CreateVector(LV(k, 6));
        auto flops = b.CreateString(S(k, 8));
        auto bytes = b.CreateString(S(k, 9));
        fbs::ConvolutionWrwAttributesBuilder t(b);
        t.add_x_tensor_uid(L(k, 0));
        t.add_dy_tensor_uid(L(k, 1));
        t.add_dw_tensor_uid(L(k, 2));
        t.add_pre_padding(pre);
        t.add_post_padding(post);
        t.add_stride(stride);
        t.add_dilation(dil);
        t.add_conv_mode(fbs::ConvMode::CROSS_CORRELATION);
        t.add_umd_flops(flops);
        t.add_umd_bytes(bytes);
        return t.Finish().Union();
    }
    case fbs::NodeAttributes::BatchnormInferenceAttributesVarianceExt:
    {
        fbs::BatchnormInferenceAttributesVarianceExtBuilder t(b);
        t.add_x_tensor_uid(L(k, 0));
        t.add_mean_tensor_uid(L(k, 1));
        t.add_variance_tensor_uid(L(k, 2));
        t.add_scale_tensor_uid(L(k, 3));
        t.add_bias_tensor_uid(L(k, 4));
        t.add_y_tensor_uid(L(k, 5));
        t.add_epsilon_tensor_uid(L(k, 6));
        return t.Finish().Union();
    }
    case fbs::NodeAttributes::MatmulAttributes:
    {
        auto flops = b.CreateString(S(k, 3));
        auto bytes = b.CreateString(S(k, 4));
        fbs::MatmulAttributesBuilder t(b);
        t.add_a_tensor_uid(L(k, 0));
        t.add_b_tensor_uid(L(k, 1));
        t.add_c_tensor_uid(L(k, 2));
        t.add_umd_flops(flops);
        t.add_umd_bytes(bytes);
        return t.Finish().Union();
    }
    case fbs::NodeAttributes::RMSNormAttributes:
    {
        fbs::RMSNormAttributesBuilder t(b);
        t.add_x_tensor_uid(L(k, 0));
        t.add_scale_tensor_uid(L(k, 1));
        t.add_epsilon_tensor_uid(L(k, 2));
        t.add_y_tensor_uid(L(k, 3));
        t.add_bias_tensor_uid(L(k, 4));
        t.add_inv_rms_tensor_uid(L(k, 5));
        t.add_forward_phase(fbs::NormFwdPhase::TRAINING);
        return t.Finish().Union();
    }
    case fbs::NodeAttributes::LayernormAttributes:
    {
        fbs::LayernormAttributesBuilder t(b);
        t.add_x_tensor_uid(L(k, 0));
        t.add_scale_tensor_uid(L(k, 1));
        t.add_bias_tensor_uid(L(k, 2));
        t.add_epsilon_tensor_uid(L(k, 3));
        t.add_y_tensor_uid(L(k, 4));
        t.add_normalized_dim_count(L(k, 5));
        t.add_mean_tensor_uid(L(k, 6));
        t.add_inv_variance_tensor_uid(L(k, 7));
        t.add_forward_phase(fbs::NormFwdPhase::TRAINING);
        return t.Finish().Union();
    }
    case fbs::NodeAttributes::SdpaAttributes:
    {
        auto flops = b.CreateString(S(k, 41));
        auto bytes = b.CreateString(S(k, 42));
        fbs::SdpaAttributesBuilder t(b);
        t.add_q_tensor_uid(L(k, 0));
        t.add_k_tensor_uid(L(k, 1));
        t.add_v_tensor_uid(L(k, 2));
        t.add_o_tensor_uid(L(k, 3));
        t.add_attn_mask_tensor_uid(L(k, 4));
        t.add_scale_tensor_uid(L(k, 5));
        t.add_seq_len_q_tensor_uid(L(k, 6));
        t.add_seq_len_kv_tensor_uid(L(k, 7));
        t.add_seed_tensor_uid(L(k, 8));
        t.add_offset_tensor_uid(L(k, 9));
        t.add_dropout_mask_tensor_uid(L(k, 10));
        t.add_dropout_scale_tensor_uid(L(k, 11));
        t.add_page_table_k_tensor_uid(L(k, 12));
        t.add_page_table_v_tensor_uid(L(k, 13));
        t.add_block_mask_tensor_uid(L(k, 14));
        t.add_sink_token_tensor_uid(L(k, 15));
        t.add_descale_q_tensor_uid(L(k, 16));
        t.add_descale_k_tensor_uid(L(k, 17));
        t.add_descale_v_tensor_uid(L(k, 18));
        t.add_descale_s_tensor_uid(L(k, 19));
        t.add_scale_s_tensor_uid(L(k, 20));
        t.add_scale_o_tensor_uid(L(k, 21));
        t.add_stats_tensor_uid(L(k, 22));
        t.add_max_tensor_uid(L(k, 23));
        t.add_sum_exp_tensor_uid(L(k, 24));
        t.add_rng_dump_tensor_uid(L(k, 25));
        t.add_amax_s_tensor_uid(L(k, 26));
        t.add_amax_o_tensor_uid(L(k, 27));
        t.add_generate_stats(false);
        t.add_alibi_mask(true);
        t.add_padding_mask(true);
        t.add_causal_mask(true);
        t.add_causal_mask_bottom_right(true);
        t.add_dropout_probability(F(k, 33));
        t.add_attn_scale_value(F(k, 34));
        t.add_left_bound(L(k, 35));
        t.add_right_bound(L(k, 36));
        t.add_max_seq_len_kv(I(k, 37));
        t.add_diagonal_alignment(fbs::DiagonalAlignment::BOTTOM_RIGHT);
        t.add_mma_core_mode(fbs::DataType::FP8_E5M2_FNUZ);
        t.add_implementation(fbs::AttentionImplementation::UNIFIED);
        t.add_umd_flops(flops);
        t.add_umd_bytes(bytes);
        return t.Finish().Union();
    }
    case fbs::NodeAttributes::BlockScaleDequantizeAttributes:
    {
        auto bs = b.CreateVector(IV(k, 3));
        fbs::BlockScaleDequantizeAttributesBuilder t(b);
        t.add_x_tensor_uid(L(k, 0));
        t.add_scale_tensor_uid(L(k, 1));
        t.add_y_tensor_uid(L(k, 2));
        t.add_block_size(bs);
        t.add_is_negative_scale(true);
        return t.Finish().Union();
    }
    case fbs::NodeAttributes::BlockScaleQuantizeAttributes:
    {
        fbs::BlockScaleQuantizeAttributesBuilder t(b);
        t.add_x_tensor_uid(L(k, 0));
        t.add_y_tensor_uid(L(k, 1));
        t.add_scale_tensor_uid(L(k, 2));
        t.add_block_size(I(k, 3));
        t.add_axis(L(k, 4));
        t.add_transpose(true);
        return t.Finish().Union();
    }
    case fbs::NodeAttributes::SdpaBackwardAttributes:
    {
        fbs::SdpaBackwardAttributesBuilder t(b);
        t.add_q_tensor_uid(L(k, 0));
        t.add_k_tensor_uid(L(k, 1));
        t.add_v_tensor_uid(L(k, 2));
        t.add_o_tensor_uid(L(k, 3));
        t.add_do_tensor_uid(L(k, 4));
        t.add_stats_tensor_uid(L(k, 5));
        t.add_dq_tensor_uid(L(k, 6));
        t.add_dk_tensor_uid(L(k, 7));
        t.add_dv_tensor_uid(L(k, 8));
        t.add_scale_tensor_uid(L(k, 9));
        t.add_attn_mask_tensor_uid(L(k, 10));
        t.add_seq_len_q_tensor_uid(L(k, 11));
        t.add_seq_len_kv_tensor_uid(L(k, 12));
        t.add_seed_tensor_uid(L(k, 13));
        t.add_offset_tensor_uid(L(k, 14));
        t.add_dropout_mask_tensor_uid(L(k, 15));
        t.add_dropout_scale_tensor_uid(L(k, 16));
        t.add_dropout_scale_inv_tensor_uid(L(k, 17));
        t.add_dbias_tensor_uid(L(k, 18));
        t.add_alibi_mask(true);
        t.add_padding_mask(true);
        t.add_causal_mask(true);
        t.add_causal_mask_bottom_right(true);
        t.add_dropout_probability(F(k, 23));
        t.add_attn_scale_value(F(k, 24));
        t.add_left_bound(L(k, 25));
        t.add_right_bound(L(k, 26));
        t.add_diagonal_alignment(fbs::DiagonalAlignment::BOTTOM_RIGHT);
        return t.Finish().Union();
    }
    case fbs::NodeAttributes::CustomOpAttributes:
    {
        auto id = b.CreateString(S(k, 0));
        auto in = b.CreateVector(LV(k, 1));
        auto out = b.CreateVector(LV(k, 2));
        auto data = b.CreateVector(BV(k, 3));
        fbs::CustomOpAttributesBuilder t(b);
        t.add_custom_op_id(id);
        t.add_input_tensor_uids(in);
        t.add_output_tensor_uids(out);
        t.add_data(data);
        t.add_test_generation_marker(I(k, 4));
        return t.Finish().Union();
    }
    case fbs::NodeAttributes::RMSNormBackwardAttributes:
    {
        fbs::RMSNormBackwardAttributesBuilder t(b);
        t.add_dy_tensor_uid(L(k, 0));
        t.add_x_tensor_uid(L(k, 1));
        t.add_scale_tensor_uid(L(k, 2));
        t.add_inv_rms_tensor_uid(L(k, 3));
        t.add_dx_tensor_uid(L(k, 4));
        t.add_dscale_tensor_uid(L(k, 5));
        t.add_dbias_tensor_uid(L(k, 6));
        return t.Finish().Union();
    }
    case fbs::NodeAttributes::ReductionAttributes:
    {
        fbs::ReductionAttributesBuilder t(b);
        t.add_mode(fbs::ReductionMode::MUL_NO_ZEROS);
        t.add_in_tensor_uid(L(k, 1));
        t.add_out_tensor_uid(L(k, 2));
        t.add_is_deterministic(true);
        return t.Finish().Union();
    }
    case fbs::NodeAttributes::ResampleFwdAttributes:
    {
        auto pre = b.CreateVector(LV(k, 3));
        auto post = b.CreateVector(LV(k, 4));
        auto stride = b.CreateVector(LV(k, 5));
        auto window = b.CreateVector(LV(k, 6));
        fbs::ResampleFwdAttributesBuilder t(b);
        t.add_x_tensor_uid(L(k, 0));
        t.add_y_tensor_uid(L(k, 1));
        t.add_index_tensor_uid(L(k, 2));
        t.add_pre_padding(pre);
        t.add_post_padding(post);
        t.add_stride(stride);
        t.add_window(window);
        t.add_resample_mode(fbs::ResampleMode::AVGPOOL_INCLUDE_PADDING);
        t.add_padding_mode(fbs::PaddingMode::ZERO_PAD);
        t.add_generate_index(false);
        return t.Finish().Union();
    }
    case fbs::NodeAttributes::LayernormBackwardAttributes:
    {
        fbs::LayernormBackwardAttributesBuilder t(b);
        t.add_dy_tensor_uid(L(k, 0));
        t.add_x_tensor_uid(L(k, 1));
        t.add_scale_tensor_uid(L(k, 2));
        t.add_mean_tensor_uid(L(k, 3));
        t.add_inv_variance_tensor_uid(L(k, 4));
        t.add_epsilon_tensor_uid(L(k, 5));
        t.add_dx_tensor_uid(L(k, 6));
        t.add_dscale_tensor_uid(L(k, 7));
        t.add_dbias_tensor_uid(L(k, 8));
        t.add_normalized_dim_count(L(k, 9));
        return t.Finish().Union();
    }
    case fbs::NodeAttributes::ResampleBwdAttributes:
    {
        auto pre = b.CreateVector(LV(k, 3));
        auto post = b.CreateVector(LV(k, 4));
        auto stride = b.CreateVector(LV(k, 5));
        auto window = b.CreateVector(LV(k, 6));
        fbs::ResampleBwdAttributesBuilder t(b);
        t.add_dy_tensor_uid(L(k, 0));
        t.add_dx_tensor_uid(L(k, 1));
        t.add_index_tensor_uid(L(k, 2));
        t.add_pre_padding(pre);
        t.add_post_padding(post);
        t.add_stride(stride);
        t.add_window(window);
        t.add_resample_mode(fbs::ResampleMode::AVGPOOL_INCLUDE_PADDING);
        t.add_padding_mode(fbs::PaddingMode::ZERO_PAD);
        return t.Finish().Union();
    }
    case fbs::NodeAttributes::MoeGroupedMatmulAttributes:
    {
        fbs::MoeGroupedMatmulAttributesBuilder t(b);
        t.add_token_tensor_uid(L(k, 0));
        t.add_weight_tensor_uid(L(k, 1));
        t.add_first_token_offset_tensor_uid(L(k, 2));
        t.add_token_index_tensor_uid(L(k, 3));
        t.add_token_ks_tensor_uid(L(k, 4));
        t.add_output_tensor_uid(L(k, 5));
        t.add_mode(fbs::MoeGroupedMatmulMode::SCATTER);
        t.add_top_k(I(k, 7));
        return t.Finish().Union();
    }
    case fbs::NodeAttributes::MoeGroupedMatmulBwdAttributes:
    {
        fbs::MoeGroupedMatmulBwdAttributesBuilder t(b);
        t.add_doutput_tensor_uid(L(k, 0));
        t.add_token_tensor_uid(L(k, 1));
        t.add_first_token_offset_tensor_uid(L(k, 2));
        t.add_dweight_tensor_uid(L(k, 3));
        return t.Finish().Union();
    }
    case fbs::NodeAttributes::NONE: break;
    }
    return 0;
}

Offset<fbs::TensorAttributes> valueTensor(FlatBufferBuilder& b, int64_t uid, const char* name, fbs::DataType dt,
                                          fbs::TensorValue tag, Offset<void> value)
{
    auto n = b.CreateString(name);
    auto dims = b.CreateVector(std::vector<int64_t>{1});
    auto strides = b.CreateVector(std::vector<int64_t>{1});
    fbs::TensorAttributesBuilder t(b);
    t.add_uid(uid);
    t.add_name(n);
    t.add_data_type(dt);
    t.add_strides(strides);
    t.add_dims(dims);
    t.add_value_type(tag);
    t.add_value(value);
    return t.Finish();
}

// graph.bin: every tensor-attribute field, every TensorValue member, a node of
// every NodeAttributes member, every Graph field.
std::vector<uint8_t> buildGraph()
{
    FlatBufferBuilder b;
    std::vector<Offset<fbs::TensorAttributes>> tensors;
    {
        auto n = b.CreateString("x");
        auto strides = b.CreateVector(std::vector<int64_t>{24, 8, 1});
        auto dims = b.CreateVector(std::vector<int64_t>{2, 3, 8});
        fbs::TensorAttributesBuilder t(b);
        t.add_uid(1);
        t.add_name(n);
        t.add_data_type(fbs::DataType::FLOAT);
        t.add_strides(strides);
        t.add_dims(dims);
        t.add_virtual_(true);
        t.add_is_runtime_pass_by_value(true);
        t.add_ragged_offset_tensor_uid(0); // optional: present although 0
        t.add_alignment(64);
        t.add_ragged_offset_multiplier(4);
        tensors.push_back(t.Finish());
    }
    // Struct union members are written out of line (CreateStruct) before the table.
    tensors.push_back(valueTensor(b, 11, "v_f32", fbs::DataType::FLOAT, fbs::TensorValue::Float32Value,
                                  b.CreateStruct(fbs::Float32Value(1.5f)).Union()));
    tensors.push_back(valueTensor(b, 12, "v_f16", fbs::DataType::HALF, fbs::TensorValue::Float16Value,
                                  b.CreateStruct(fbs::Float16Value(-2.25f)).Union()));
    tensors.push_back(valueTensor(b, 13, "v_bf16", fbs::DataType::BFLOAT16, fbs::TensorValue::BFloat16Value,
                                  b.CreateStruct(fbs::BFloat16Value(3.0f)).Union()));
    tensors.push_back(valueTensor(b, 14, "v_f8", fbs::DataType::FP8_E4M3, fbs::TensorValue::Float8Value,
                                  b.CreateStruct(fbs::Float8Value(0x7e)).Union()));
    tensors.push_back(valueTensor(b, 15, "v_i32", fbs::DataType::INT32, fbs::TensorValue::Int32Value,
                                  b.CreateStruct(fbs::Int32Value(-123456)).Union()));
    tensors.push_back(valueTensor(b, 16, "v_f64", fbs::DataType::DOUBLE, fbs::TensorValue::Float64Value,
                                  b.CreateStruct(fbs::Float64Value(2.718281828459045)).Union()));
    tensors.push_back(valueTensor(b, 17, "v_i64", fbs::DataType::INT64, fbs::TensorValue::Int64Value,
                                  b.CreateStruct(fbs::Int64Value(-9000000000123LL)).Union()));
    tensors.push_back(valueTensor(b, 18, "v_bool", fbs::DataType::UINT8, fbs::TensorValue::BoolValue,
                                  b.CreateStruct(fbs::BoolValue(true)).Union()));
    {
        // Defaults only: alignment 16, multiplier 1 and is_runtime_pass_by_value
        // false are elided, ragged_offset_tensor_uid is absent.
        auto dims = b.CreateVector(std::vector<int64_t>{4});
        fbs::TensorAttributesBuilder t(b);
        t.add_uid(100);
        t.add_dims(dims);
        t.add_alignment(16);
        t.add_ragged_offset_multiplier(1);
        t.add_is_runtime_pass_by_value(false);
        tensors.push_back(t.Finish());
    }

    std::vector<Offset<fbs::Node>> nodes;
    for(int k = 1; k <= 23; ++k)
    {
        auto tag = fbs::NodeAttributes(k);
        auto attrs = fullAttributes(b, tag);
        auto name = b.CreateString("node" + std::to_string(k));
        nodes.push_back(fbs::CreateNode(b, name, fbs::DataType(k % 17 + 1), tag, attrs));
    }

    auto name = b.CreateString("golden_graph");
    auto tv = b.CreateVector(tensors);
    auto nv = b.CreateVector(nodes);
    const uint8_t idBytes[16] = {0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef};
    fbs::Uuid id(flatbuffers::span<const uint8_t, 16>(idBytes, 16));
    fbs::EngineApiVersion ver(1, 2, 3);
    fbs::GraphBuilder g(b);
    g.add_name(name);
    g.add_compute_data_type(fbs::DataType::FLOAT);
    g.add_intermediate_data_type(fbs::DataType::HALF);
    g.add_io_data_type(fbs::DataType::BFLOAT16);
    g.add_tensors(tv);
    g.add_nodes(nv);
    g.add_preferred_engine_id(-5);
    g.add_is_override_shape_enabled(true);
    g.add_min_required_engine_api_version(&ver);
    g.add_id(&id);
    b.Finish(g.Finish()); // Graph has no file identifier
    return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

// graph_minimal.bin: nothing optional set anywhere (absence / default checks).
std::vector<uint8_t> buildMinimalGraph()
{
    FlatBufferBuilder b;
    std::vector<Offset<fbs::TensorAttributes>> tensors;
    {
        fbs::TensorAttributesBuilder t(b);
        t.add_uid(7);
        tensors.push_back(t.Finish());
    }
    std::vector<Offset<fbs::Node>> nodes;
    {
        fbs::PointwiseAttributesBuilder p(b);
        const int k = int(fbs::NodeAttributes::PointwiseAttributes); // golden rule, like the full tables
        p.add_in_0_tensor_uid(L(k, 5));
        p.add_out_0_tensor_uid(L(k, 8));
        auto a = p.Finish().Union();
        nodes.push_back(fbs::CreateNode(b, 0, fbs::DataType::UNSET, fbs::NodeAttributes::PointwiseAttributes, a));
    }
    {
        fbs::SdpaAttributesBuilder s(b);
        const int k = int(fbs::NodeAttributes::SdpaAttributes);
        s.add_q_tensor_uid(L(k, 0));
        s.add_k_tensor_uid(L(k, 1));
        s.add_v_tensor_uid(L(k, 2));
        s.add_o_tensor_uid(L(k, 3));
        auto a = s.Finish().Union();
        nodes.push_back(fbs::CreateNode(b, 0, fbs::DataType::UNSET, fbs::NodeAttributes::SdpaAttributes, a));
    }
    auto tv = b.CreateVector(tensors);
    auto nv = b.CreateVector(nodes);
    fbs::GraphBuilder g(b);
    g.add_tensors(tv);
    g.add_nodes(nv);
    b.Finish(g.Finish());
    return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

Offset<fbs::KnobSetting> intSetting(FlatBufferBuilder& b, const char* id, int64_t v)
{
    auto n = b.CreateString(id);
    auto val = fbs::CreateIntValue(b, v);
    return fbs::CreateKnobSetting(b, n, fbs::KnobValue::IntValue, val.Union());
}
Offset<fbs::KnobSetting> floatSetting(FlatBufferBuilder& b, const char* id, double v)
{
    auto n = b.CreateString(id);
    auto val = fbs::CreateFloatValue(b, v);
    return fbs::CreateKnobSetting(b, n, fbs::KnobValue::FloatValue, val.Union());
}
Offset<fbs::KnobSetting> stringSetting(FlatBufferBuilder& b, const char* id, const char* v)
{
    auto n = b.CreateString(id);
    auto val = fbs::CreateStringValue(b, b.CreateString(v));
    return fbs::CreateKnobSetting(b, n, fbs::KnobValue::StringValue, val.Union());
}

std::vector<uint8_t> buildEngineConfig()
{
    FlatBufferBuilder b;
    std::vector<Offset<fbs::KnobSetting>> knobs{
        intSetting(b, "global.benchmarking", 42),
        floatSetting(b, "plugin.float", 0.125),
        stringSetting(b, "plugin.string", "fast"),
    };
    auto kv = b.CreateVector(knobs);
    auto metric = b.CreateString("time");
    b.Finish(fbs::CreateEngineConfig(b, int64_t(0x123456789abcdef0LL), kv, metric));
    return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

std::vector<uint8_t> buildEngineDetails()
{
    FlatBufferBuilder b;
    std::vector<Offset<fbs::Knob>> knobs;
    {
        auto id = b.CreateString("global.deterministic");
        auto desc = b.CreateString("deterministic kernels");
        auto dv = fbs::CreateIntValue(b, 1);
        auto valid = b.CreateVector(std::vector<int64_t>{0, 4, 8});
        auto c = fbs::CreateIntConstraint(b, -4, 64, 4, valid);
        knobs.push_back(fbs::CreateKnob(b, id, desc, fbs::KnobValue::IntValue, dv.Union(), fbs::KnobConstraint::IntConstraint,
                                        c.Union(), false));
    }
    {
        auto id = b.CreateString("plugin.ratio");
        auto desc = b.CreateString("ratio");
        auto dv = fbs::CreateFloatValue(b, 0.5);
        auto c = fbs::CreateFloatConstraint(b, 0.25, 2.5);
        knobs.push_back(fbs::CreateKnob(b, id, desc, fbs::KnobValue::FloatValue, dv.Union(), fbs::KnobConstraint::FloatConstraint,
                                        c.Union(), true));
    }
    {
        auto id = b.CreateString("plugin.algo");
        auto desc = b.CreateString("algorithm");
        auto dv = fbs::CreateStringValue(b, b.CreateString("auto"));
        std::vector<Offset<flatbuffers::String>> choices{b.CreateString("auto"), b.CreateString("direct"),
                                                         b.CreateString("winograd")};
        auto valid = b.CreateVector(choices);
        auto c = fbs::CreateStringConstraint(b, 16, valid);
        knobs.push_back(fbs::CreateKnob(b, id, desc, fbs::KnobValue::StringValue, dv.Union(),
                                        fbs::KnobConstraint::StringConstraint, c.Union(), false));
    }
    {
        // step left at its default 1 (elided), no valid_values.
        auto id = b.CreateString("plugin.free");
        auto dv = fbs::CreateIntValue(b, 7);
        fbs::IntConstraintBuilder cb(b);
        cb.add_min_value(1);
        cb.add_max_value(9);
        auto c = cb.Finish();
        knobs.push_back(fbs::CreateKnob(b, id, 0, fbs::KnobValue::IntValue, dv.Union(), fbs::KnobConstraint::IntConstraint,
                                        c.Union(), false));
    }
    {
        // Unconstrained: constraint NONE (both slots absent).
        auto id = b.CreateString("plugin.unconstrained");
        auto dv = fbs::CreateStringValue(b, b.CreateString("x"));
        fbs::KnobBuilder kb(b);
        kb.add_knob_id(id);
        kb.add_default_value_type(fbs::KnobValue::StringValue);
        kb.add_default_value(dv.Union());
        knobs.push_back(kb.Finish());
    }
    auto kv = b.CreateVector(knobs);
    auto notes = b.CreateVector(std::vector<int32_t>{0, 2, 5});
    auto name = b.CreateString("golden_engine");

    std::vector<Offset<fbs::KnobSetting>> settings{stringSetting(b, "plugin.algo", "direct")};
    auto sv = b.CreateVector(settings);
    auto cid = b.CreateString("c0");
    auto kf = b.CreateString("{\"tile\":64}");
    std::vector<Offset<fbs::EngineCandidate>> cands{fbs::CreateEngineCandidate(b, cid, sv, kf)};
    auto cv = b.CreateVector(cands);
    auto page = fbs::CreateEngineCandidatePage(b, b.CreateString("g-1"), b.CreateString("d-0"), b.CreateString("gfx942"),
                                               b.CreateString("{\"n\":1}"), b.CreateString("{\"cu\":304}"), 10, 2, cv,
                                               b.CreateString("golden"), b.CreateString("ued-1"));
    b.Finish(fbs::CreateEngineDetails(b, -77, kv, notes, name, page));
    return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

std::vector<uint8_t> buildEnginePrediction()
{
    FlatBufferBuilder b;
    std::vector<Offset<fbs::KnobSetting>> knobs{intSetting(b, "global.benchmarking", 1)};
    auto kv = b.CreateVector(knobs);
    auto cfg = fbs::CreateEngineConfig(b, 99, kv, b.CreateString("tflops"));
    auto p = fbs::CreateEnginePrediction(b, 99, fbs::PredictionKind::CONFIGURATION, fbs::PredictionStatus::AVAILABLE, 12.5,
                                         b.CreateString("uhd-1"), b.CreateString("ok"), cfg, b.CreateString("{}"),
                                         b.CreateString("{\"m\":128}"), b.CreateString("tflops"));
    b.Finish(p);
    return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

std::vector<uint8_t> buildExecutionPlan()
{
    FlatBufferBuilder b;
    auto uids = b.CreateVector(std::vector<int64_t>{1, 2, 3});
    auto payload = b.CreateVector(std::vector<uint8_t>{0xde, 0xad, 0xbe, 0xef});
    auto aligns = b.CreateVector(std::vector<int64_t>{16, 64, 256});
    b.Finish(fbs::CreateSerializedExecutionPlan(b, 1, 99, 4096, uids, payload, true, aligns));
    return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

std::vector<uint8_t> buildGraphAndPlan(const std::vector<uint8_t>& graph, const std::vector<uint8_t>& plan)
{
    FlatBufferBuilder b;
    auto gb = b.CreateVector(graph);
    auto pb = b.CreateVector(plan);
    fbs::FinishSerializedGraphAndPlanBuffer(b, fbs::CreateSerializedGraphAndPlan(b, gb, pb));
    return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

std::vector<uint8_t> buildDeviceProperties()
{
    FlatBufferBuilder b;
    auto arch = b.CreateString("gfx942:sramecc+:xnack-");
    // device_id 0 differs from the default -1, so it must be written.
    fbs::FinishDevicePropertiesBuffer(b, fbs::CreateDeviceProperties(b, 0, 304, uint64_t(206158430208ULL), arch));
    return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

} // namespace

int main(int argc, char** argv)
{
    if(argc != 2)
    {
        std::fprintf(stderr, "usage: %s <output-dir>\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    struct Out
    {
        const char* name;
        std::vector<uint8_t> data;
    };
    auto minimal = buildMinimalGraph();
    auto plan = buildExecutionPlan();
    std::vector<Out> outs{
        {"graph.bin", buildGraph()},
        {"graph_minimal.bin", minimal},
        {"engine_config.bin", buildEngineConfig()},
        {"engine_details.bin", buildEngineDetails()},
        {"engine_prediction.bin", buildEnginePrediction()},
        {"execution_plan.bin", plan},
        {"graph_and_plan.bin", buildGraphAndPlan(minimal, plan)},
        {"device_properties.bin", buildDeviceProperties()},
    };
    for(const auto& o : outs)
    {
        if(!writeFile(dir, o.name, o.data.data(), o.data.size()))
            return 1;
    }
    return 0;
}
