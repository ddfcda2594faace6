#pragma once
// `adala export`: a checkpoint as a clean deployment file. Each block keeps only the attention
// it runs, under timm's names (a linear or window+linear block's blocks.{i}.attn.linear.* become
// blocks.{i}.attn.*: qkv, proj, and its feature map and window mixing gamma if any; the unused
// branch is dropped), with the model config, the attention plan (attention_plan.h) and the data
// settings in the metadata, so load_inference_model (and so `adala predict`) rebuilds the same
// model from it with no flags.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/infer/inference_model.h"

namespace adala {

struct ExportSummary {
  int64_t tensors = 0, parameters = 0;
  int64_t linear_blocks = 0, softmax_blocks = 0;  // linear counts window+linear blocks too
  int64_t window_blocks = 0;                      // of them, window+linear
  int64_t dropped_tensors = 0;                    // the branches that never run
  std::string preprocessing_note;  // the values assumed and now recorded (preprocessing.h)
};

// `options` say what the file cannot (its architecture, preprocessing); they are written into
// the exported metadata, with `class_names` (non-empty: one per output of the head), so the
// next command needs no flags. Throws std::runtime_error naming the file (unreadable weights,
// bad metadata, class names that do not fit the head, write failure).
ExportSummary export_model(const std::string& weights, const std::string& out,
                           const InferenceLoadOptions& options = {},
                           const std::vector<std::string>& class_names = {});

}  // namespace adala
