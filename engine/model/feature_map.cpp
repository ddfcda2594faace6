#include "engine/model/feature_map.h"

#include <stdexcept>

#include <torch/autograd.h>

#include "engine/kernels/attention_ops.h"

namespace adala {

FeatureMapImpl::FeatureMapImpl(FeatureMapKind kind, int64_t num_heads, int64_t head_dim,
                               const PerformerOptions& performer)
    : kind_(kind), num_heads_(num_heads), head_dim_(head_dim), performer_(performer) {
  if (kind == FeatureMapKind::Hedgehog) {
    q = register_module("q", HedgehogFeatureMap(num_heads, head_dim));
    k = register_module("k", HedgehogFeatureMap(num_heads, head_dim));
  }
  if (kind == FeatureMapKind::Performer) {
    if (performer_.features < 0 || performer_.redraw_interval < 0 || performer_.seed < 0)
      throw std::invalid_argument(
          "FeatureMap: performer features, redraw interval and seed must be >= 0");
    if (performer_.features == 0) performer_.features = performer_default_features(head_dim);
    projection =
        register_buffer("projection", torch::empty({num_heads, performer_.features, head_dim}));
    calls = register_buffer("forward_calls", torch::tensor(int64_t{0}));
    draw(0);
  }
}

int64_t FeatureMapImpl::feature_dim() const {
  switch (kind_) {
    case FeatureMapKind::Hedgehog:
      return 2 * head_dim_;
    case FeatureMapKind::Performer:
      return performer_.features;
    default:
      return head_dim_;
  }
}

torch::Tensor FeatureMapImpl::stateless(const torch::Tensor& x) const {
  return kind_ == FeatureMapKind::Relu ? torch::relu(x) : elu_plus_one(x);
}

torch::Tensor FeatureMapImpl::query_features(const torch::Tensor& x) {
  if (kind_ == FeatureMapKind::Performer)
    return performer_features(x, projection, PerformerStabiliser::PerToken, kPerformerFeatureEps);
  return kind_ == FeatureMapKind::Hedgehog ? q->forward(x) : stateless(x);
}

torch::Tensor FeatureMapImpl::key_features(const torch::Tensor& x) {
  if (kind_ == FeatureMapKind::Performer)
    return performer_features(x, projection, PerformerStabiliser::PerHead, kPerformerFeatureEps);
  return kind_ == FeatureMapKind::Hedgehog ? k->forward(x) : stateless(x);
}

void FeatureMapImpl::draw(int64_t index) {
  const uint64_t seed = performer_draw_seed(performer_.seed, block_, index);
  const auto w = orthogonal_gaussian_projection(num_heads_, performer_.features, head_dim_, seed);
  torch::NoGradGuard no_grad;
  projection.copy_(w);
}

int64_t FeatureMapImpl::forward_calls() {
  if (kind_ != FeatureMapKind::Performer) return 0;
  if (calls.data_ptr() != calls_seen_data_ || calls._version() != calls_seen_version_) {
    calls_seen_ = calls.item<int64_t>();
    calls_seen_data_ = calls.data_ptr();
    calls_seen_version_ = calls._version();
  }
  return calls_seen_;
}

void FeatureMapImpl::store_calls(int64_t n) {
  {
    torch::NoGradGuard no_grad;
    calls.fill_(n);
  }
  calls_seen_ = n;
  calls_seen_data_ = calls.data_ptr();
  calls_seen_version_ = calls._version();
}

int64_t FeatureMapImpl::draw_index() {
  const int64_t n = forward_calls();
  return performer_.redraw_interval > 0 && n > 0 ? (n - 1) / performer_.redraw_interval : 0;
}

void FeatureMapImpl::begin_forward() {
  if (kind_ != FeatureMapKind::Performer || !is_training() || performer_.redraw_interval <= 0)
    return;
  const int64_t n = forward_calls();
  if (n > 0 && n % performer_.redraw_interval == 0) draw(n / performer_.redraw_interval);
  store_calls(n + 1);
}

void FeatureMapImpl::set_block_index(int64_t index) {
  block_ = index;
  if (kind_ == FeatureMapKind::Performer) draw(draw_index());
}

}  // namespace adala
