#pragma once
// Gradient checkpointing of a transformer block (torch.utils.checkpoint's idea, which
// LibTorch lacks): the forward pass keeps only the block's input; the backward pass runs the
// block again with grad on and differentiates that. Activation memory per block drops from
// everything its backward needs (softmax attention: heads x N^2 floats) to one (B, N, D)
// tensor, for one extra forward pass. Gradients equal the plain path's (no randomness runs in
// a block here: no dropout, no drop path).
#include <torch/types.h>

#include "engine/model/block.h"

namespace adala {

// block(x), checkpointed when grad mode is on and anything requires grad; plain otherwise.
torch::Tensor checkpointed_block_forward(Block& block, const torch::Tensor& x);

}  // namespace adala
