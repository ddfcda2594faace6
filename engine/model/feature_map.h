#pragma once
// The feature map of one linear-attention module, phi in phi(Q) (phi(K)^T V): stateless for
// elu1 and relu; for hedgehog two learned maps, one for queries and one for keys, whose
// parameters are, under the module's name "feature_map" in LinearAttention,
//   blocks.{i}.attn.linear.feature_map.q.weight   (heads, head_dim, head_dim)
//   blocks.{i}.attn.linear.feature_map.k.weight   (heads, head_dim, head_dim)
// and for performer two buffers (not parameters: no optimiser sees them), saved with the
// weights like any buffer:
//   blocks.{i}.attn.linear.feature_map.projection      (heads, m, head_dim) float32: W
//   blocks.{i}.attn.linear.feature_map.forward_calls   () int64: training-mode forward calls
//                                                      counted for redraws (0 without them)
#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>

#include "engine/model/feature_map_kind.h"
#include "engine/model/hedgehog_feature_map.h"
#include "engine/model/performer_feature_map.h"

namespace adala {

class FeatureMapImpl : public torch::nn::Module {
 public:
  FeatureMapImpl(FeatureMapKind kind, int64_t num_heads, int64_t head_dim,
                 const PerformerOptions& performer = {});

  FeatureMapKind kind() const { return kind_; }
  // Features per token and head: head_dim, 2 * head_dim for hedgehog, m for performer.
  int64_t feature_dim() const;
  // (B, heads, N, head_dim) -> (B, heads, N, feature_dim()), in the input's type. Performer's
  // are stabilised (per query token, per (batch, head) over the keys), so they are meant for
  // one phi(Q) (phi(K)^T V) / phi(Q) (phi(K)^T 1) together, where the stabilisers cancel.
  torch::Tensor query_features(const torch::Tensor& q);
  torch::Tensor key_features(const torch::Tensor& k);

  // LinearAttention's forward calls it once before the features. Performer in training mode
  // with a redraw interval I: call n (from 0) runs with draw n / I of W, redrawn as n reaches
  // a multiple of I. Eval mode, no interval, other maps: nothing happens.
  void begin_forward();
  // The block index selects the block's own stream of W draws (performer: W is drawn again
  // from it, so this belongs to building the model, before any weights are loaded).
  void set_block_index(int64_t index);
  // Performer: training-mode forward calls so far (counted only with a redraw interval), and
  // which draw of W is current.
  int64_t forward_calls();
  int64_t draw_index();

  HedgehogFeatureMap q{nullptr};  // hedgehog only
  HedgehogFeatureMap k{nullptr};  // hedgehog only
  torch::Tensor projection;       // performer only
  torch::Tensor calls;            // performer only: the "forward_calls" buffer

 private:
  torch::Tensor stateless(const torch::Tensor& x) const;
  void draw(int64_t index);
  void store_calls(int64_t n);

  FeatureMapKind kind_;
  int64_t num_heads_;
  int64_t head_dim_;
  PerformerOptions performer_;
  int64_t block_ = -1;
  // A host copy of the forward_calls buffer, so that counting needs no device sync. It is read
  // again whenever the buffer was replaced or written from outside (loading copies into it or
  // swaps its storage, moving the module swaps its storage): the storage address and version
  // counter it was last seen with tell.
  int64_t calls_seen_ = 0;
  const void* calls_seen_data_ = nullptr;
  int64_t calls_seen_version_ = -1;
};
TORCH_MODULE(FeatureMap);

}  // namespace adala
