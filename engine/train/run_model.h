#pragma once
// A model read from a weights file for a run: the run's model config with the file's
// classifier width (a pretrained head may differ from the data's; Stage 3 replaces it), and
// position embeddings resampled to the run's input size, and the attention plan the file
// records ("adala.attention_modes", attention_plan.h; none: every block softmax). Loading is
// strict: every tensor must fit.
#include <string>

#include <c10/core/Device.h>

#include "engine/model/vision_transformer.h"
#include "engine/train/events.h"
#include "engine/train/config/experiment_config.h"

namespace adala {

// Throws for a file that does not fit; a non-finite weight is an error naming the tensor unless
// allow_nonfinite (then a warning on `sink`, as are the loader's other warnings).
VisionTransformer load_run_model(const ExperimentConfig& config, const std::string& path,
                                 const c10::Device& device, bool allow_nonfinite, EventSink& sink);

// For measuring and evaluating: strict about non-finite weights, loader warnings dropped, in
// eval mode.
VisionTransformer load_run_model_for_eval(const ExperimentConfig& config, const std::string& path,
                                          const c10::Device& device);

}  // namespace adala
