#include "engine/model/attention.h"

#include <cmath>
#include <stdexcept>

#include <torch/autograd.h>

#include "engine/kernels/attention_ops.h"
#include "engine/kernels/linear_attention_autograd.h"
#include "engine/kernels/linear_attention_blocked.h"
#include "engine/kernels/linear_attention_features.h"
#include "engine/kernels/linear_attention_padded.h"
#include "engine/kernels/linear_training_kernel.h"
#include "engine/kernels/window_linear_attention.h"
#include "engine/model/numerical_health.h"
#include "engine/runtime/precision.h"
#include "engine/kernels/softmax_attention_heads.h"

namespace adala {
namespace {

// Whether the attention of these projections is part of an autograd graph.
bool needs_autograd(const HeadProjections& h) {
  return c10::GradMode::is_enabled() &&
         (h.q.requires_grad() || h.k.requires_grad() || h.v.requires_grad());
}

}  // namespace

HeadProjections split_heads(const torch::Tensor& qkv, int64_t num_heads) {
  const int64_t b = qkv.size(0), n = qkv.size(1), d = qkv.size(2) / (3 * num_heads);
  auto parts = qkv.reshape({b, n, 3, num_heads, d}).permute({2, 0, 3, 1, 4});
  return {parts[0], parts[1], parts[2]};
}

torch::Tensor merge_heads(const torch::Tensor& x) { return x.transpose(1, 2).flatten(2); }

WindowMixingImpl::WindowMixingImpl(int64_t num_heads) {
  log_gamma = register_parameter("log_gamma", torch::zeros({num_heads}));
}

LinearAttentionImpl::LinearAttentionImpl(int64_t dim, int64_t num_heads, bool qkv_bias, double eps,
                                         FeatureMapKind feature_map_kind,
                                         const PerformerOptions& performer)
    : num_heads_(num_heads), eps_(eps) {
  qkv = register_module("qkv",
                        torch::nn::Linear(torch::nn::LinearOptions(dim, 3 * dim).bias(qkv_bias)));
  proj = register_module("proj", torch::nn::Linear(dim, dim));
  if (feature_map_kind != FeatureMapKind::Elu1)
    feature_map = register_module(
        "feature_map", FeatureMap(feature_map_kind, num_heads, dim / num_heads, performer));
}

void LinearAttentionImpl::set_block_index(int64_t index) {
  block_index_ = index;
  if (feature_map) feature_map->set_block_index(index);
}

HeadProjections LinearAttentionImpl::project(const torch::Tensor& x) {
  return split_heads(qkv_forward(x), num_heads_);
}

void LinearAttentionImpl::set_window(int64_t window) {
  if (window < 0 || (window > 0 && window % 2 == 0))
    throw std::invalid_argument(
        "LinearAttention: the window must be odd and >= 1 (or 0: none), got " +
        std::to_string(window));
  if (window > 0 && feature_map_kind() == FeatureMapKind::Performer)
    throw std::invalid_argument(
        "LinearAttention: window+linear attention needs a feature map without a per-query "
        "stabiliser (elu1, relu or hedgehog), not performer");
  window_ = window;
  if (window > 0 && !window_mixing) {
    window_mixing = register_module("window_mixing", WindowMixing(num_heads_));
    window_mixing->to(qkv->weight.device(), qkv->weight.scalar_type());
  } else if (window == 0 && window_mixing) {
    unregister_module("window_mixing");
    window_mixing = nullptr;
  }
}

void LinearAttentionImpl::set_token_grid(int64_t prefix, int64_t grid_height, int64_t grid_width) {
  prefix_tokens_ = prefix;
  grid_height_ = grid_height;
  grid_width_ = grid_width;
}

torch::Tensor LinearAttentionImpl::forward(const torch::Tensor& x) {
  auto h = project(x);
  // Under autocast the projections come out in bf16 / fp16: phi, phi(K)^T V, the normaliser and
  // the division run in float32 with autocast off (the kernels would otherwise run their
  // matmuls in the lower precision too); the output projection is autocast again.
  if (autocast_active()) h = {h.q.to(torch::kFloat), h.k.to(torch::kFloat), h.v.to(torch::kFloat)};
  if (window_ > 0) return forward_with_window(h);
  if (feature_map) return forward_with_feature_map(h);
  // Training (Stages 1 to 3, the segmentation heads' backbone, `bench scaling --train-step`)
  // runs the fused autograd kernel. At inference the head-parallel blocked kernel is ~10x
  // faster than the batched formula at every length measured (5 to 16384 tokens, `adala bench
  // attention`); it falls back to the padded form off CPU and to linear_attention itself with
  // fewer heads than threads.
  const bool needs_grad = needs_autograd(h);
  torch::Tensor out;
  {
    const Fp32Region fp32;
    if (!needs_grad)
      out = linear_attention_blocked(h.q, h.k, h.v, eps_);
    else if (linear_training_kernel() == LinearTrainingKernel::Fused)
      out = linear_attention_autograd(h.q, h.k, h.v, eps_);  // off CPU: the padded form
    else if (linear_training_kernel() == LinearTrainingKernel::Padded)
      out = linear_attention_padded(h.q, h.k, h.v, eps_);
    else
      out = linear_attention(h.q, h.k, h.v, eps_);
  }
  return project_output(merge_heads(out), h);
}

torch::Tensor LinearAttentionImpl::forward_with_feature_map(const HeadProjections& h) {
  // phi itself runs in the float32 region too (hedgehog's W x and softmax included).
  torch::Tensor phi_q, phi_k, out;
  feature_map->begin_forward();
  {
    const Fp32Region fp32;
    phi_q = feature_map->query_features(h.q);
    phi_k = feature_map->key_features(h.k);
    if (feature_map->kind() == FeatureMapKind::Performer)
      phi_q = performer_unit_normalised_queries(phi_q, phi_k);
    out = linear_attention_from_features(phi_q, phi_k, h.v, eps_);
  }
  out = proj_forward(merge_heads(out));
  if (HealthProbe* probe = HealthProbe::current())
    probe->record_attention_features(block_index_, phi_q, phi_k, out);
  return out;
}

torch::Tensor LinearAttentionImpl::forward_with_window(const HeadProjections& h) {
  WindowLinearAttentionOptions o;
  o.window = window_;
  o.prefix_tokens = prefix_tokens_;
  const int64_t tokens = h.q.size(2);
  if (prefix_tokens_ + grid_height_ * grid_width_ == tokens) {
    o.grid_height = grid_height_;
    o.grid_width = grid_width_;
  } else {
    // Tokens not from the last prepare_tokens: a square grid after the prefix, if they make one.
    const int64_t patches = tokens - prefix_tokens_;
    auto side =
        static_cast<int64_t>(std::llround(std::sqrt(double(std::max<int64_t>(patches, 0)))));
    if (patches <= 0 || side * side != patches)
      throw std::invalid_argument(
          "window+linear attention (block " + std::to_string(block_index_) +
          "): " + std::to_string(tokens) + " tokens are not " + std::to_string(prefix_tokens_) +
          " prefix tokens and a square patch grid, and no grid was set for them");
    o.grid_height = o.grid_width = side;
  }
  torch::Tensor phi_q, phi_k, out;
  if (feature_map) feature_map->begin_forward();
  {
    const Fp32Region fp32;
    phi_q = feature_map ? feature_map->query_features(h.q) : elu_plus_one(h.q);
    phi_k = feature_map ? feature_map->key_features(h.k) : elu_plus_one(h.k);
    out = window_linear_attention(h.q, h.k, phi_q, phi_k, h.v, o, window_mixing->gamma());
  }
  out = proj_forward(merge_heads(out));
  if (HealthProbe* probe = HealthProbe::current())
    probe->record_attention_features(block_index_, phi_q, phi_k, out);
  return out;
}

torch::Tensor LinearAttentionImpl::project_output(const torch::Tensor& merged,
                                                  const HeadProjections& h) {
  auto out = proj_forward(merged);
  if (HealthProbe* probe = HealthProbe::current())
    probe->record_attention(block_index_, h.q, h.k, out);
  return out;
}

torch::Tensor LinearAttentionImpl::qkv_forward(const torch::Tensor& x) {
  return qkv_lora ? qkv_lora->forward(x) : qkv->forward(x);
}

torch::Tensor LinearAttentionImpl::proj_forward(const torch::Tensor& x) {
  return proj_lora ? proj_lora->forward(x) : proj->forward(x);
}

void LinearAttentionImpl::add_lora(int64_t rank, double alpha) {
  if (has_lora()) throw std::logic_error("LinearAttention::add_lora: LoRA is already present");
  // The wrappers share the layers' weight and bias and take over their names.
  qkv_lora = LoraLinear(qkv, rank, alpha);
  proj_lora = LoraLinear(proj, rank, alpha);
  unregister_module("qkv");
  unregister_module("proj");
  register_module("qkv", qkv_lora);
  register_module("proj", proj_lora);
}

void LinearAttentionImpl::merge_lora() {
  if (!has_lora()) return;
  {
    torch::NoGradGuard no_grad;
    for (auto* pair : {&qkv_lora, &proj_lora}) {
      LoraLinearImpl& l = **pair;
      l.weight.add_(torch::matmul(l.lora_B, l.lora_A).to(l.weight.scalar_type()) * l.scaling());
    }
  }
  unregister_module("qkv");
  unregister_module("proj");
  qkv_lora = nullptr;
  proj_lora = nullptr;
  register_module("qkv", qkv);
  register_module("proj", proj);
}

AttentionImpl::AttentionImpl(int64_t dim, int64_t num_heads, bool qkv_bias, double linear_eps,
                             FeatureMapKind feature_map, const PerformerOptions& performer)
    : num_heads_(num_heads), scale_(1.0 / std::sqrt(static_cast<double>(dim / num_heads))) {
  if (dim % num_heads != 0) throw std::invalid_argument("Attention: dim must divide by heads");
  qkv = register_module("qkv",
                        torch::nn::Linear(torch::nn::LinearOptions(dim, 3 * dim).bias(qkv_bias)));
  proj = register_module("proj", torch::nn::Linear(dim, dim));
  linear = register_module(
      "linear", LinearAttention(dim, num_heads, qkv_bias, linear_eps, feature_map, performer));
}

HeadProjections AttentionImpl::project_softmax(const torch::Tensor& x) {
  return split_heads(qkv->forward(x), num_heads_);
}

torch::Tensor AttentionImpl::forward_softmax(const torch::Tensor& x) {
  auto h = project_softmax(x);
  if (SoftmaxHeadsScope::active() && !needs_autograd(h) && h.q.is_cpu() &&
      h.q.scalar_type() == torch::kFloat)
    return proj->forward(merge_heads(softmax_attention_heads(h.q, h.k, h.v, scale_)));
  auto out = softmax_chunk_ > 0 ? softmax_attention_chunked(h.q, h.k, h.v, scale_, softmax_chunk_)
                                : softmax_attention(h.q, h.k, h.v, scale_);
  return proj->forward(merge_heads(out));
}

torch::Tensor AttentionImpl::forward(const torch::Tensor& x) {
  return linear_path_ ? forward_linear(x) : forward_softmax(x);
}

AttentionMode AttentionImpl::mode() const {
  if (!linear_path_) return AttentionMode::Softmax;
  return linear->window() > 0 ? AttentionMode::WindowLinear : AttentionMode::Linear;
}

void AttentionImpl::set_mode(AttentionMode mode) {
  if (mode == AttentionMode::WindowLinear) linear->set_window(window_);
  if (mode == AttentionMode::Linear) linear->set_window(0);
  linear_path_ = mode != AttentionMode::Softmax;
}

void AttentionImpl::set_window(int64_t window) {
  if (window < 1 || window % 2 == 0)
    throw std::invalid_argument("Attention: the window must be odd and >= 1, got " +
                                std::to_string(window));
  window_ = window;
  if (linear->window() > 0) linear->set_window(window);
}

void AttentionImpl::init_linear_from_softmax() {
  torch::NoGradGuard no_grad;
  linear->qkv->weight.copy_(qkv->weight);
  if (qkv->bias.defined() && linear->qkv->bias.defined()) linear->qkv->bias.copy_(qkv->bias);
  linear->proj->weight.copy_(proj->weight);
  linear->proj->bias.copy_(proj->bias);
}

}  // namespace adala
