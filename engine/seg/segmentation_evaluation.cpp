#include "engine/seg/segmentation_evaluation.h"

#include <chrono>

#include <torch/autograd.h>

namespace adala {

SegmentationEvaluation evaluate_segmentation(SegmentationModel& model,
                                             const SegmentationDataset& data,
                                             const c10::Device& device, int64_t batch_size,
                                             int64_t keep, int64_t ignore_index) {
  const auto t0 = std::chrono::steady_clock::now();
  torch::NoGradGuard no_grad;
  const bool was_training = model->is_training();
  model->eval();
  SegmentationEvaluation e{ConfusionMatrix(data.num_classes(), ignore_index), {}, {}, 0.0};
  ClassesPerImageBreakdown breakdown(data.num_classes(), data.background, ignore_index);
  keep = std::min(keep, data.size());
  std::vector<at::Tensor> kept;
  for (int64_t start = 0; start < data.size(); start += batch_size) {
    const int64_t len = std::min(batch_size, data.size() - start);
    auto labels = model->predict(float_images(data.images.narrow(0, start, len).to(device))).cpu();
    const auto truth = data.masks.narrow(0, start, len);
    e.confusion.add(labels, truth);
    breakdown.add(labels, truth);
    if (start < keep)
      kept.push_back(labels.narrow(0, 0, std::min(len, keep - start)).to(at::kByte));
  }
  e.by_classes_per_image = breakdown.groups();
  e.predictions = kept.empty() ? at::empty({0}, at::kByte) : at::cat(kept);
  model->train(was_training);
  e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return e;
}

}  // namespace adala
