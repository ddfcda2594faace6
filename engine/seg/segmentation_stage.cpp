#include "engine/seg/segmentation_stage.h"

#include <fmt/format.h>
#include <chrono>

#include <torch/autograd.h>

#include "engine/train/stages.h"
#include "engine/train/training_loop.h"

namespace adala {

std::vector<at::Tensor> cache_features(SegmentationModel& model, const at::Tensor& images,
                                       const c10::Device& device, int64_t batch_size) {
  torch::NoGradGuard no_grad;
  std::vector<std::vector<at::Tensor>> parts;
  for (int64_t start = 0; start < images.size(0); start += batch_size) {
    const int64_t len = std::min(batch_size, images.size(0) - start);
    auto feats = model->features(images.narrow(0, start, len).to(device));
    if (parts.empty()) parts.resize(feats.size());
    for (size_t l = 0; l < feats.size(); ++l) parts[l].push_back(feats[l].to(at::kHalf).cpu());
  }
  std::vector<at::Tensor> out;
  for (auto& p : parts) out.push_back(at::cat(p));
  return out;
}

void SegmentationStage::run(SegmentationModel& model, const SegmentationDataset& train) {
  const auto& seg = ctx_.config.segmentation;
  const bool tune = seg.train_backbone;
  const StageConfig& cfg = model->options().head == SegmentationHeadKind::Linear
                               ? seg.linear_training
                               : seg.mask2former_training;
  const auto device = ctx_.device;
  model->to(device);
  model->train();
  if (!tune) model->backbone->eval();

  std::vector<at::Tensor> cache;
  if (!tune) {
    const auto t0 = std::chrono::steady_clock::now();
    model->backbone->eval();
    cache = cache_features(model, train.images, device, seg.eval_batch_size);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double mb = 0;
    for (const auto& c : cache) mb += double(c.numel()) * 2.0 / 1e6;
    ctx_.log(fmt::format("{}: cached frozen-backbone features of {} images ({:.0f} MB) in {:.1f} s",
                         stage_, train.size(), mb, s));
  }
  const uint64_t seed = uint64_t(ctx_.config.seed) + 30;
  TrainingLoopSpec spec{stage_, cfg, train.size(), seed, ""};
  TrainingLoop::ScaledParams params{{model->head_parameters(), 1.0}};
  if (tune) params.push_back({trainable_parameters(model->backbone, false), seg.backbone_lr_scale});
  TrainingLoop loop(spec, *model, params, ctx_.sink, ctx_.control);
  loop.run([&](const at::Tensor& idx, int64_t step) {
    std::vector<at::Tensor> feats;
    if (tune) {
      feats = model->features(train.images.index_select(0, idx).to(device));
    } else {
      for (const auto& c : cache) feats.push_back(c.index_select(0, idx).to(device).to(at::kFloat));
    }
    StepOutput out;
    auto masks = train.masks.index_select(0, idx).to(device);
    out.loss = model->loss(feats, masks, seed * 1000003ull + uint64_t(step), &out.extra);
    return out;
  });
  model->eval();
}

}  // namespace adala
