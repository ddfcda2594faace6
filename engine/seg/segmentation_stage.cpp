#include "engine/seg/segmentation_stage.h"

#include <fmt/format.h>
#include <chrono>
#include <cmath>
#include <set>

#include <torch/autograd.h>

#include "engine/train/stages.h"

namespace adala {

std::vector<at::Tensor> cache_features(SegmentationModel& model, const at::Tensor& images,
                                       const c10::Device& device, int64_t batch_size) {
  torch::NoGradGuard no_grad;
  std::vector<std::vector<at::Tensor>> parts;
  for (int64_t start = 0; start < images.size(0); start += batch_size) {
    const int64_t len = std::min(batch_size, images.size(0) - start);
    auto feats = model->features(float_images(images.narrow(0, start, len).to(device)));
    if (parts.empty()) parts.resize(feats.size());
    for (size_t l = 0; l < feats.size(); ++l) parts[l].push_back(feats[l].to(at::kHalf).cpu());
  }
  std::vector<at::Tensor> out;
  for (auto& p : parts) out.push_back(at::cat(p));
  return out;
}

SegmentationTraining head_training(const SegmentationConfig& seg, SegmentationHeadKind head) {
  SegmentationTraining t;
  t.optimisation =
      head == SegmentationHeadKind::Linear ? seg.linear_training : seg.mask2former_training;
  t.train_backbone = seg.train_backbone;
  t.backbone_lr_scale = seg.backbone_lr_scale;
  t.layer_decay = seg.layer_decay;
  t.checkpointing = seg.gradient_checkpointing;
  t.probe_epochs =
      head == SegmentationHeadKind::Linear ? seg.linear_probe_epochs : seg.mask2former.probe_epochs;
  return t;
}

TrainingLoop::ScaledParams layer_decayed_parameters(VisionTransformer& vit, double scale,
                                                    double decay) {
  const auto trainable = trainable_parameters(vit, false);
  std::set<const void*> wanted;
  for (const auto& p : trainable) wanted.insert(p.unsafeGetTensorImpl());
  const int64_t depth = vit->depth();
  // Group g: 0 the embeddings, 1 + i block i, depth + 1 the rest.
  std::vector<std::vector<at::Tensor>> groups(size_t(depth + 2));
  for (const auto& item : vit->named_parameters(true)) {
    if (!wanted.count(item.value().unsafeGetTensorImpl())) continue;
    const std::string& name = item.key();
    size_t g = size_t(depth + 1);
    if (name.rfind("blocks.", 0) == 0) {
      g = 1 + size_t(std::stoll(name.substr(7, name.find('.', 7) - 7)));
    } else if (name.rfind("patch_embed.", 0) == 0 || name == "pos_embed" || name == "cls_token" ||
               name == "reg_token") {
      g = 0;
    }
    groups[g].push_back(item.value());
  }
  TrainingLoop::ScaledParams out;
  for (size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].empty()) continue;
    const double power = g == 0 ? double(depth + 1) : double(int64_t(depth + 1) - int64_t(g));
    out.push_back({groups[g], scale * std::pow(decay, power)});
  }
  return out;
}

bool checkpoint_blocks(GradientCheckpointing mode, int64_t image_size, int64_t patch_size) {
  if (mode != GradientCheckpointing::Auto) return mode == GradientCheckpointing::On;
  const int64_t grid = image_size / patch_size;
  return grid * grid >= kCheckpointTokensThreshold;
}

void SegmentationStage::run(SegmentationModel& model, const SegmentationDataset& train) {
  model->to(ctx_.device);
  if (training_.probe_epochs_run() > 0) {
    StageConfig probe = training_.optimisation;
    probe.epochs = training_.probe_epochs_run();
    ctx_.log(fmt::format("{}: the head first learns on the frozen backbone for {} epoch(s)", stage_,
                         probe.epochs));
    train_pass(model, train, false, probe, stage_ + "_probe", "");
  }
  train_pass(model, train, training_.train_backbone, training_.optimisation, stage_,
             training_.checkpoint_path);
}

void SegmentationStage::train_pass(SegmentationModel& model, const SegmentationDataset& train,
                                   bool tune, const StageConfig& cfg, const std::string& stage,
                                   const std::string& checkpoint_path) {
  const auto& seg = ctx_.config.segmentation;
  const auto device = ctx_.device;
  model->train();
  if (!tune) model->backbone->eval();

  std::vector<at::Tensor> cache;
  if (!tune) {
    const auto t0 = std::chrono::steady_clock::now();
    cache = cache_features(model, train.images, device, seg.eval_batch_size);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double mb = 0;
    for (const auto& c : cache) mb += double(c.numel()) * 2.0 / 1e6;
    ctx_.log(fmt::format("{}: cached frozen-backbone features of {} images ({:.0f} MB) in {:.1f} s",
                         stage, train.size(), mb, s));
  } else {
    const bool checkpoint =
        checkpoint_blocks(training_.checkpointing, train.images.size(-1), model->patch_size());
    model->set_checkpoint_blocks(checkpoint);
    ctx_.log(fmt::format("{}: backbone fine-tuned at {:g} x the head's lr, layer decay {:g}{}",
                         stage, training_.backbone_lr_scale, training_.layer_decay,
                         checkpoint ? ", blocks checkpointed" : ""));
  }
  const uint64_t seed = uint64_t(ctx_.config.seed) + 30;
  TrainingLoopSpec spec{stage, cfg, train.size(), seed, checkpoint_path};
  TrainingLoop::ScaledParams params{{model->head_parameters(), 1.0}};
  if (tune)
    for (auto& group : layer_decayed_parameters(model->backbone, training_.backbone_lr_scale,
                                                training_.layer_decay))
      params.push_back(std::move(group));
  TrainingLoop loop(spec, *model, params, ctx_.sink, ctx_.control);
  loop.run([&](const at::Tensor& idx, int64_t step) {
    std::vector<at::Tensor> feats;
    if (tune) {
      feats = model->features(float_images(train.images.index_select(0, idx).to(device)));
    } else {
      for (const auto& c : cache) feats.push_back(c.index_select(0, idx).to(device).to(at::kFloat));
    }
    StepOutput out;
    auto masks = train.masks.index_select(0, idx).to(device);
    out.loss = model->loss(feats, masks, seed * 1000003ull + uint64_t(step), &out.extra);
    return out;
  });
  model->set_checkpoint_blocks(false);
  model->eval();
}

}  // namespace adala
