#pragma once
// Hedgehog's training signal: how far a linear attention's weights are from the softmax
// attention's, on a sample of query rows (a full N x N comparison would cost what linear
// attention saves).
//
// For each sampled query row r (per batch and head), with target p_r = softmax(q_r K^T * scale)
// and prediction a_r = phi(q_r) phi(K)^T / (phi(q_r) . sum_n phi(k_n) + eps):
//   loss = mean over (batch, head, r) of sum_n p_rn (log p_rn - log a_rn)
// i.e. the soft-label cross-entropy -sum_n p_rn log a_rn minus the softmax weights' own entropy.
// The entropy does not depend on the feature map, so the gradients are Hedgehog's cross-entropy
// gradients, and the loss is 0 exactly when the two rows coincide (>= 0 while the linear row
// sums to 1, i.e. up to eps). Predicted weights are floored at 1e-30 before the log (relu
// features can give exact zeros). Arithmetic in float32 (float64 for float64 inputs); call it
// inside an Fp32Region under autocast.
#include <ATen/ATen.h>

#include <cstdint>
#include <vector>

#include "engine/model/feature_map.h"

namespace adala {

// `count` distinct query rows out of num_tokens, ascending, drawn with a seeded std::mt19937_64
// (the same rows for the same seed on every platform); every row when count >= num_tokens.
std::vector<int64_t> sample_query_rows(int64_t num_tokens, int64_t count, uint64_t seed);

// target, predicted: (..., R, N) rows of attention weights -> scalar, the mean over rows of
// sum_n target (log target - log predicted). The target is treated as constant (detached).
at::Tensor attention_weight_cross_entropy(const at::Tensor& target, const at::Tensor& predicted);

// The loss above for per-head q, k (B, H, N, head_dim) and a block's feature map, on the given
// query rows: softmax weights with `scale` (1 / sqrt(head_dim) for a ViT), linear weights with
// `eps`. Gradients flow to the feature map (and to q, k through the linear weights only).
at::Tensor hedgehog_attention_loss(const at::Tensor& q, const at::Tensor& k,
                                   FeatureMapImpl& feature_map, const std::vector<int64_t>& rows,
                                   double scale, double eps);

}  // namespace adala
