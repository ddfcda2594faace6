#include "engine/core/feature_map.h"

#include "engine/core/attention_ops.h"

namespace adala {

FeatureMapImpl::FeatureMapImpl(FeatureMapKind kind, int64_t num_heads, int64_t head_dim)
    : kind_(kind), head_dim_(head_dim) {
  if (kind == FeatureMapKind::Hedgehog) {
    q = register_module("q", HedgehogFeatureMap(num_heads, head_dim));
    k = register_module("k", HedgehogFeatureMap(num_heads, head_dim));
  }
}

int64_t FeatureMapImpl::feature_dim() const {
  return kind_ == FeatureMapKind::Hedgehog ? 2 * head_dim_ : head_dim_;
}

torch::Tensor FeatureMapImpl::stateless(const torch::Tensor& x) const {
  return kind_ == FeatureMapKind::Relu ? torch::relu(x) : elu_plus_one(x);
}

torch::Tensor FeatureMapImpl::query_features(const torch::Tensor& x) {
  return kind_ == FeatureMapKind::Hedgehog ? q->forward(x) : stateless(x);
}

torch::Tensor FeatureMapImpl::key_features(const torch::Tensor& x) {
  return kind_ == FeatureMapKind::Hedgehog ? k->forward(x) : stateless(x);
}

}  // namespace adala
