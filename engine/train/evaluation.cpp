#include <torch/autograd.h>

#include <cmath>

#include "engine/train/data_parallel.h"
#include "engine/train/stages.h"

namespace adala {

std::vector<at::Tensor> trainable_parameters(VisionTransformer& model, bool include_head) {
  const auto modes = model->attention_modes();
  std::vector<at::Tensor> params;
  for (const auto& p : model->named_parameters()) {
    const std::string& name = p.key();
    if (!include_head && name.rfind("head.", 0) == 0) continue;
    if (name.rfind("blocks.", 0) == 0) {
      const auto block = std::stol(name.substr(7));
      const bool linear_mode = modes[size_t(block)] != AttentionMode::Softmax;
      const bool linear_param = name.find(".attn.linear.") != std::string::npos;
      const bool softmax_param = !linear_param && name.find(".attn.") != std::string::npos;
      if (linear_mode && softmax_param) continue;
      if (!linear_mode && linear_param) continue;
    }
    params.push_back(p.value());
  }
  return params;
}

void log_skipped_images(const StageContext& ctx, const std::string& stage,
                        const BatchLoader& loader) {
  const auto names = loader.bad_image_names();
  if (names.empty()) return;
  std::string message = stage + ": skipped " + std::to_string(names.size()) + " bad image(s):";
  for (size_t i = 0; i < names.size() && i < 20; ++i) message += " " + names[i];
  if (names.size() > 20) message += " ...";
  ctx.sink.on_event(LogEvent{LogEvent::Level::Warning, message});
  // Counted in the run database too (an evaluation row of the stage).
  ctx.sink.on_event(EvalMetrics{stage, "skipped_images", double(names.size()), 0});
}

double evaluate_top1(VisionTransformer& model, const StageData& data, const c10::Device& device,
                     DataParallel* parallel, int64_t batch_size) {
  if (data.size() == 0) return 0.0;
  const int64_t first = parallel ? parallel->rank() : 0;
  const int64_t stride = parallel ? parallel->world_size() : 1;
  torch::NoGradGuard no_grad;
  const bool was_training = model->is_training();
  model->eval();
  int64_t correct = 0;
  auto loader = make_evaluation_loader(for_device(data, device), batch_size);
  for (int64_t step = first; step < evaluation_steps(data, batch_size); step += stride) {
    Batch b = loader->batch(step);
    correct += model->forward(to_device(b.images, device))
                   .argmax(1)
                   .eq(to_device(b.labels, device))
                   .sum()
                   .item<int64_t>();
  }
  model->train(was_training);
  if (parallel) {
    at::Tensor total = at::full({1}, double(correct), at::kDouble);
    parallel->all_reduce_sum(total);
    correct = int64_t(std::llround(total.item<double>()));
  }
  return double(correct) / double(data.size());
}

double evaluate_top1(VisionTransformer& model, const ImageDataset& data, const c10::Device& device,
                     int64_t batch_size) {
  torch::NoGradGuard no_grad;
  const bool was_training = model->is_training();
  model->eval();
  int64_t correct = 0;
  for (int64_t start = 0; start < data.size(); start += batch_size) {
    const int64_t len = std::min(batch_size, data.size() - start);
    auto images = data.images.narrow(0, start, len).to(device);
    auto labels = data.labels.narrow(0, start, len).to(device);
    correct += model->forward(images).argmax(1).eq(labels).sum().item<int64_t>();
  }
  model->train(was_training);
  return data.size() > 0 ? double(correct) / double(data.size()) : 0.0;
}

}  // namespace adala
