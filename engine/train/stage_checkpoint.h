#pragma once
// A resumable stage checkpoint: the trained module's tensors, the optimiser state and the
// step reached, written atomically (temp file + rename) in LibTorch's archive format.
#include <torch/nn/module.h>
#include <torch/optim/optimizer.h>

#include <map>
#include <string>

namespace adala {

// Named tensors kept beside the model and optimiser (the loss scaler's state, counters).
using CheckpointExtras = std::map<std::string, torch::Tensor>;

void save_stage_checkpoint(const std::string& path, torch::nn::Module& module,
                           torch::optim::Optimizer& optimizer, int64_t step,
                           const CheckpointExtras& extras = {});
// Restores module and optimiser in place; returns the step. Throws std::runtime_error with the
// path when the file is missing or does not match the module. `extras` (when given) receives
// every extra tensor whose key it already holds and the file has (older files have none).
int64_t load_stage_checkpoint(const std::string& path, torch::nn::Module& module,
                              torch::optim::Optimizer& optimizer,
                              CheckpointExtras* extras = nullptr);
// Step stored in a checkpoint, or -1 when there is none.
int64_t checkpoint_step(const std::string& path);
// Loads only the module tensors (a cancelled stage's checkpoint can be inspected this way).
int64_t load_checkpoint_weights(const std::string& path, torch::nn::Module& module);

}  // namespace adala
