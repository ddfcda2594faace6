#pragma once
// The feature map of one linear-attention module, phi in phi(Q) (phi(K)^T V): stateless for
// elu1 and relu; for hedgehog two learned maps, one for queries and one for keys, whose
// parameters are, under the module's name "feature_map" in LinearAttention,
//   blocks.{i}.attn.linear.feature_map.q.weight   (heads, head_dim, head_dim)
//   blocks.{i}.attn.linear.feature_map.k.weight   (heads, head_dim, head_dim)
#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>

#include "engine/core/feature_map_kind.h"
#include "engine/core/hedgehog_feature_map.h"

namespace adala {

class FeatureMapImpl : public torch::nn::Module {
 public:
  FeatureMapImpl(FeatureMapKind kind, int64_t num_heads, int64_t head_dim);

  FeatureMapKind kind() const { return kind_; }
  // Features per token and head: head_dim, or 2 * head_dim for hedgehog.
  int64_t feature_dim() const;
  // (B, heads, N, head_dim) -> (B, heads, N, feature_dim()), in the input's type.
  torch::Tensor query_features(const torch::Tensor& q);
  torch::Tensor key_features(const torch::Tensor& k);

  HedgehogFeatureMap q{nullptr};  // hedgehog only
  HedgehogFeatureMap k{nullptr};  // hedgehog only

 private:
  torch::Tensor stateless(const torch::Tensor& x) const;

  FeatureMapKind kind_;
  int64_t head_dim_;
};
TORCH_MODULE(FeatureMap);

}  // namespace adala
