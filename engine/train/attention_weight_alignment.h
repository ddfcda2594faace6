#pragma once
// Stage 1 of the hedgehog method (linearisation_method.h): every block's feature map learns,
// alone, to make the linear attention weights match the softmax attention weights on sampled
// query rows (the cross-entropy of attention_weight_loss.h), from the teacher's block inputs.
#include <ATen/ATen.h>

#include <cstdint>
#include <vector>

#include "engine/model/vision_transformer.h"
#include "engine/train/training_loop.h"

namespace adala {

// Loss of one batch: the mean over blocks of hedgehog_attention_loss on `rows` query rows drawn
// by sample_query_rows(tokens, rows, seed), the same rows in every block; q and k are the
// block's linear-path projections of norm1(x), without gradient (only the feature map learns),
// x the teacher's (softmax) block input. per_block_mse holds each block's cross-entropy. With
// `aligned` (one entry per block; empty: every block) only those blocks count, the others'
// per_block_mse entries are NaN.
StepOutput attention_weight_alignment_loss(VisionTransformer& teacher, const at::Tensor& batch,
                                           int64_t rows, uint64_t seed,
                                           const std::vector<bool>& aligned = {});

// The feature-map parameters of every block's linear attention (none for elu1 and relu), or of
// the blocks whose entry in `blocks` is true.
std::vector<at::Tensor> feature_map_parameters(VisionTransformer& model,
                                               const std::vector<bool>& blocks = {});

}  // namespace adala
