#pragma once
// `adala predict`: class scores of images through a checkpoint, with the checkpoint's own
// evaluation transform, and top-1 on inputs that are class folders.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/data/batch_loader.h"
#include "engine/infer/image_inputs.h"
#include "engine/infer/inference_model.h"

namespace adala {

struct InferOptions {
  int64_t resolution = 0;  // > 0: this input size instead of the checkpoint's
  int64_t batch_size = 64;
  int64_t decode_threads = 2;
  // "fp32", or "bf16" / "fp16" autocast (engine/runtime/precision.h): linear attention stays in
  // float32, with eps at least 1e-5 in half precision.
  std::string precision = "fp32";
};

struct PredictOptions : InferOptions {
  int64_t top = 5;
  std::vector<std::string> class_names;  // non-empty: overrides the checkpoint's names
};

struct Prediction {
  std::string path;
  int64_t label = -1;  // the model output of its class folder; -1: unlabelled
  std::vector<int64_t> top_index;
  std::vector<double> top_score;  // softmax probabilities, best first
};

struct InputAccuracy {
  std::string origin;
  int64_t images = 0, correct = 0;
  int64_t correct_top5 = 0;  // the label among the 5 highest logits (all of them when <= 5)
  double top1() const { return images > 0 ? double(correct) / double(images) : 0.0; }
  double top5() const { return images > 0 ? double(correct_top5) / double(images) : 0.0; }
};

struct PredictResult {
  std::vector<Prediction> items;         // in input order
  at::Tensor logits;                     // (images, num_classes) float32, CPU
  std::vector<std::string> class_names;  // the model's outputs (empty: unnamed)
  std::vector<InputAccuracy> accuracy;   // one per class-folder input
  // (num_classes, num_classes) int64 over every labelled image: row = label, column = arg-max.
  at::Tensor confusion;
  std::vector<std::string> notes;

  // Per class of the confusion matrix: correct / labelled (NaN for a class with no images).
  std::vector<double> per_class_accuracy() const;
};

// The evaluation transform `model` uses at options.resolution (0: its own).
TransformSpec inference_transform(const InferenceModel& model, const InferOptions& options);

// Calls fn(batch, logits-or-features) for every batch of `input`, in order, with the
// evaluation transform; `forward` maps images (B, C, H, W) on the model's device to a tensor.
void run_inference_batches(const InferenceModel& model, const ImageInput& input,
                           const InferOptions& options,
                           const std::function<at::Tensor(const at::Tensor&)>& forward,
                           const std::function<void(const Batch&, const at::Tensor&)>& fn);

// Throws std::runtime_error when the model has no classifier head or the class names do not
// fit it, and for any unusable image (naming the file).
PredictResult predict(InferenceModel& model, const std::vector<ImageInput>& inputs,
                      const PredictOptions& options);

}  // namespace adala
