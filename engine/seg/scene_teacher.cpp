#include "engine/seg/scene_teacher.h"

#include <fmt/format.h>
#include <algorithm>
#include <chrono>
#include <filesystem>

#include <torch/utils.h>

#include "engine/data/segmentation_scenes.h"
#include "engine/model/load_weights.h"
#include "engine/model/patch_recut.h"
#include "engine/runtime/device.h"
#include "engine/seg/segmentation_job.h"
#include "engine/seg/segmentation_stage.h"
#include "engine/seg/segmentation_sweep.h"
#include "engine/train/config/pretrained_config.h"
#include "engine/train/stage_checkpoint.h"

namespace adala {

namespace fs = std::filesystem;

std::string scene_teacher_checkpoint_path(const std::string& out_path) {
  return out_path + ".checkpoint";
}

SceneTeacherResult pretrain_scene_teacher(const ExperimentConfig& config,
                                          const std::string& out_path,
                                          const std::string& device_name, EventSink& sink,
                                          JobControl& control) {
  const auto& seg = config.segmentation;
  if (!seg.present) throw ConfigError("segmentation", "the config has no \"segmentation\" block");
  if (!seg.pretrain.present)
    throw ConfigError("segmentation.pretrain", "the config says nothing about the scene teacher");
  if (seg.data.dataset != "fashion-mnist-scenes")
    throw ConfigError("segmentation.data.dataset",
                      "the scene teacher trains on fashion-mnist-scenes");
  const std::string& init = seg.pretrain.init;
  if (!fs::exists(init)) throw ConfigError("segmentation.pretrain.init", "file not found: " + init);
  const c10::Device device = resolve_device(device_name, config.device);
  if (config.threads > 0) configure_threads(static_cast<int>(config.threads));
  const fs::path out(out_path);
  if (out.has_parent_path()) fs::create_directories(out.parent_path());
  StageContext ctx{config, device, sink, control, ""};

  VisionTransformer classifier = load_model(init, device);
  ViTConfig target = config.model;
  target.img_size = seg.data.image_size;
  target.num_classes = classifier->config().num_classes;
  torch::manual_seed(uint64_t(config.seed) + 11);
  VisionTransformer vit = recut_patches(classifier, target);
  vit->set_attention_mode(AttentionMode::Softmax);
  ctx.log(fmt::format("scene teacher: {} re-cut from patch {} at {} px to patch {} at {} px", init,
                      classifier->config().patch_size, classifier->config().img_size,
                      target.patch_size, target.img_size));

  const SceneOptions o = scene_options(seg.pretrain.data);
  SceneGenerator gen =
      make_scene_generator(scene_garment_root(seg.data), "training", o, uint64_t(config.seed));
  // uint8: 80,000 scenes of 112 px take 3 GB instead of 12.
  const SegmentationDataset scenes =
      gen.generate(seg.pretrain.images, seg.pretrain.first_scene, at::kByte);
  const SegmentationDataset val = load_segmentation_split(config, "validation");
  ctx.log(fmt::format(
      "scene teacher: {} pretraining scenes of {} px, {}-{} garments (from scene {}); {} "
      "validation scenes of {} px",
      scenes.size(), o.image_size, o.min_garments, o.max_garments, seg.pretrain.first_scene,
      val.size(), seg.data.image_size));

  SegmentationModelOptions mo;
  mo.head = SegmentationHeadKind::Linear;
  mo.num_classes = val.num_classes();
  mo.blocks = {vit->depth()};
  SegmentationModel model(vit, mo);
  SegmentationTraining training;
  training.optimisation = seg.pretrain.training;
  training.train_backbone = true;
  training.backbone_lr_scale = 1.0;
  training.checkpointing = seg.gradient_checkpointing;
  training.checkpoint_path = scene_teacher_checkpoint_path(out_path);
  SceneTeacherResult result;
  result.resumed_from_step = std::max<int64_t>(0, checkpoint_step(training.checkpoint_path));
  if (result.resumed_from_step > 0)
    ctx.log(fmt::format("scene teacher: resuming at step {} from {} (delete it to start over)",
                        result.resumed_from_step, training.checkpoint_path));
  const auto t0 = std::chrono::steady_clock::now();
  SegmentationStage(ctx, "scene_pretraining", training).run(model, scenes);
  result.train_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  result.validation = evaluate_segmentation(model, val, device, seg.eval_batch_size);
  sink.on_event(
      EvalMetrics{"scene_pretraining", "miou", result.validation.confusion.mean_iou(), 0});
  ctx.log(fmt::format("scene teacher: validation mIoU {:.2f} with its pretraining head",
                      100.0 * result.validation.confusion.mean_iou()));

  vit->reset_head(0);
  TransformSpec grey;
  grey.preprocess = "none";
  grey.resolution = target.img_size;
  grey.mean = {0.0};
  grey.std = {1.0};
  const PretrainedConfig data_settings = pretrained_config_for(vit->config(), grey, {});
  save_weights(vit, out_path,
               {{"adala.stage", "scene_pretraining"},
                {"adala.experiment", config.name},
                {kPretrainedConfigKey, pretrained_config_to_json(data_settings).dump()}});
  fs::remove(training.checkpoint_path);
  sink.on_event(ArtifactEvent{"scene_pretraining", "weights", out_path});
  result.path = out_path;
  return result;
}

}  // namespace adala
