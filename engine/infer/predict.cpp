#include "engine/infer/predict.h"

#include <ATen/ATen.h>
#include <torch/utils.h>

#include <limits>
#include <stdexcept>

#include "engine/model/linear_eps_scope.h"
#include "engine/runtime/precision.h"
#include "engine/train/stage_data.h"

namespace adala {

TransformSpec inference_transform(const InferenceModel& model, const InferOptions& options) {
  if (options.resolution > 0 && options.resolution % model.model->config().patch_size != 0)
    throw std::runtime_error("--res " + std::to_string(options.resolution) +
                             ": not a multiple of the patch size " +
                             std::to_string(model.model->config().patch_size));
  return evaluation_transform(model.data, options.resolution);
}

void run_inference_batches(const InferenceModel& model, const ImageInput& input,
                           const InferOptions& options,
                           const std::function<at::Tensor(const at::Tensor&)>& forward,
                           const std::function<void(const Batch&, const at::Tensor&)>& fn) {
  StageData data;
  data.dataset = input.dataset;
  data.transform = inference_transform(model, options);
  data.decode_threads = options.decode_threads;
  data.prefetch = 2;
  torch::NoGradGuard no_grad;
  const Precision precision = precision_from_string(options.precision);
  check_precision_supported(precision, model.device);
  // The half-precision eps for the duration (the model's own again afterwards).
  const LinearEpsScope eps_scope(*model.model, precision);
  const AutocastScope autocast(model.device, precision);
  data = for_device(data, model.device);
  auto loader = make_evaluation_loader(data, options.batch_size);
  for (int64_t step = 0; step < evaluation_steps(data, options.batch_size); ++step) {
    const Batch b = loader->batch(step);
    // Pinned and non-blocking on CUDA (to_device), the same tensor on CPU.
    fn(b, forward(to_device(b.images, model.device)).to(at::kCPU).to(at::kFloat));
  }
}

PredictResult predict(InferenceModel& model, const std::vector<ImageInput>& inputs,
                      const PredictOptions& options) {
  const int64_t classes = model.model->config().num_classes;
  if (classes <= 0)
    throw std::runtime_error(model.path +
                             ": the model has no classifier head (num_classes 0); adala embed "
                             "gives its features");
  PredictResult result;
  result.class_names = options.class_names.empty() ? model.data.label_names : options.class_names;
  if (!result.class_names.empty() && int64_t(result.class_names.size()) != classes)
    throw std::runtime_error(std::to_string(result.class_names.size()) +
                             " class names, but the model has " + std::to_string(classes) +
                             " outputs");
  const int64_t top = std::min(options.top, classes);
  const int64_t top5 = std::min<int64_t>(5, classes);
  result.confusion = at::zeros({classes, classes}, at::kLong);
  int64_t* confusion = result.confusion.data_ptr<int64_t>();
  std::vector<at::Tensor> logits;
  auto forward = [&](const at::Tensor& images) { return model.model->forward(images); };
  for (const ImageInput& input : inputs) {
    std::vector<int64_t> label_map;
    InputAccuracy accuracy;
    accuracy.origin = input.origin;
    if (input.class_folders) {
      std::string note;
      label_map = map_input_classes(input, result.class_names, classes, note);
      if (!note.empty()) result.notes.push_back(note);
    }
    run_inference_batches(model, input, options, forward,
                          [&](const Batch& b, const at::Tensor& out) {
                            logits.push_back(out);
                            const auto [scores, indices] = at::softmax(out, 1).topk(top, 1);
                            const at::Tensor best5 = std::get<1>(out.topk(top5, 1));
                            for (int64_t i = 0; i < out.size(0); ++i) {
                              Prediction p;
                              p.path = input.dataset->item_name(b.indices[size_t(i)]);
                              const int64_t label = b.labels[i].item<int64_t>();
                              if (!label_map.empty() && label >= 0)
                                p.label = label_map[size_t(label)];
                              for (int64_t k = 0; k < top; ++k) {
                                p.top_index.push_back(indices[i][k].item<int64_t>());
                                p.top_score.push_back(scores[i][k].item<double>());
                              }
                              if (p.label >= 0) {
                                ++accuracy.images;
                                // Top-1 as the pipeline counts it: the arg-max of the logits.
                                const int64_t predicted = out[i].argmax().item<int64_t>();
                                if (predicted == p.label) ++accuracy.correct;
                                if (best5[i].eq(p.label).any().item<bool>())
                                  ++accuracy.correct_top5;
                                ++confusion[p.label * classes + predicted];
                              }
                              result.items.push_back(std::move(p));
                            }
                          });
    if (input.class_folders) result.accuracy.push_back(accuracy);
  }
  result.logits = logits.empty() ? at::empty({0, classes}) : at::cat(logits, 0);
  return result;
}

std::vector<double> PredictResult::per_class_accuracy() const {
  std::vector<double> out;
  if (!confusion.defined()) return out;
  const int64_t k = confusion.size(0);
  const int64_t* m = confusion.data_ptr<int64_t>();
  for (int64_t c = 0; c < k; ++c) {
    int64_t total = 0;
    for (int64_t j = 0; j < k; ++j) total += m[c * k + j];
    out.push_back(total > 0 ? double(m[c * k + c]) / double(total)
                            : std::numeric_limits<double>::quiet_NaN());
  }
  return out;
}

}  // namespace adala
