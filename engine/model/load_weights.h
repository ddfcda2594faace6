#pragma once
// Loading and saving VisionTransformer weights as safetensors.
//
// load_weights maps the checkpoint's names to ours (weight_mapping.h: timm, Meta DINOv2,
// Hugging Face DINOv2), reconciles the position-embedding layout, then compares every tensor
// with the model before copying anything:
//   missing     model tensors the file does not provide
//   unexpected  file tensors the model has no place for (checkpoint names)
//   misshapen   "name: checkpoint [a, b] vs model [c, d]"
// Strict mode refuses the file (WeightLoadError listing all of them) and leaves the model
// untouched; non-strict mode loads what fits and returns the report.
// The Stage-1 linear branch (blocks.{i}.attn.linear.*) that softmax checkpoints lack is, by
// default, initialised from the block's freshly loaded qkv/proj instead of being "missing".
// Its learned feature map (blocks.{i}.attn.linear.feature_map.*, hedgehog), which neither
// softmax nor elu1 checkpoints have, then keeps its initialisation (the identity) instead.
#include <ATen/ATen.h>
#include <c10/core/Device.h>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/io/safetensors.h"
#include "engine/model/vision_transformer.h"
#include "engine/model/weights_file_config.h"

namespace adala {

struct LoadOptions {
  bool strict = true;
  // Linear-branch tensors absent from the file are copied from the softmax qkv/proj; feature-map
  // tensors absent from it keep their initialisation.
  bool init_missing_linear_from_softmax = true;
  // false: head.* is neither loaded nor required (fine-tuning with a new classifier).
  bool load_head = true;
  ReadMode mode = ReadMode::Mmap;
  // pos_embed with another square grid is resampled bicubically instead of being misshapen.
  bool interpolate_pos_embed = false;
  // false: a tensor holding NaN or Inf is refused (NonFiniteWeightsError naming it); true: it
  // loads, with a "warning: ..." note per such tensor in the report.
  bool allow_nonfinite = false;
};

struct LoadReport {
  std::string format;                     // to_string(CheckpointFormat)
  std::vector<std::string> loaded;        // our names
  std::vector<std::string> missing;       // our names
  std::vector<std::string> unexpected;    // checkpoint names
  std::vector<std::string> misshapen;     // "name: checkpoint [a, b] vs model [c, d]"
  std::vector<std::string> initialised;   // linear branch copied from softmax
  std::vector<std::string> kept_initial;  // feature map absent from the file, left as initialised
  std::vector<std::string> skipped;  // deliberately not used (mask_token, head with !load_head)
  std::vector<std::string> notes;    // conversions: pos_embed fold, dtype, SwiGLU, q/k/v...

  bool ok() const { return missing.empty() && unexpected.empty() && misshapen.empty(); }
  // Counts on the first line, then one line per missing/unexpected/misshapen tensor and note.
  std::string summary() const;
};

class WeightLoadError : public std::runtime_error {
 public:
  WeightLoadError(const std::string& source, LoadReport report);
  const LoadReport& report() const { return report_; }

 private:
  LoadReport report_;
};

// A checkpoint tensor holds NaN or Inf values (and LoadOptions::allow_nonfinite is false).
class NonFiniteWeightsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

LoadReport load_weights(VisionTransformer& model, const std::string& path,
                        const LoadOptions& options = {});
LoadReport load_weights(VisionTransformer& model, std::map<std::string, at::Tensor> tensors,
                        const LoadOptions& options = {});

// Every parameter and buffer under our names, as float32, with metadata "adala.config" (the
// ViTConfig as JSON), the attention plan ("adala.attention_modes": "softmax,linear,...", and
// "adala.attention_window" when a block runs window+linear: attention_plan.h), "adala.format"
// plus the caller's entries.
void save_weights(VisionTransformer& model, const std::string& path,
                  const std::map<std::string, std::string>& metadata = {});

// Rebuilds a model from a file: the config comes from the hint's model, "adala.config" or the
// tensor shapes, with the hint's head count (config_of_safetensors); weights load
// strictly (non-finite values refused) after the plan the metadata records is set (modes and
// window: attention_plan.h; none recorded: every block softmax); then moved to device. Names
// that `adala export` gave a linear path's feature map and window mixing
// (blocks.{i}.attn.{feature_map,window_mixing}.*) load into blocks.{i}.attn.linear.*.
VisionTransformer load_model(const std::string& path, const c10::Device& device,
                             ReadMode mode = ReadMode::Mmap, const ArchitectureHint& hint = {});

}  // namespace adala
