#include "engine/train/config/config_reader.h"
#include "engine/train/config/segmentation_config.h"

namespace adala {

namespace {

// Epochs of a head on the frozen backbone before fine-tuning: only where the backbone trains.
int64_t read_probe_epochs(ConfigReader& r, bool train_backbone) {
  const int64_t epochs = r.integer("probe_epochs", 0, 0, kMaxProbeEpochs);
  if (epochs > 0 && !train_backbone)
    throw ConfigError(r.field("probe_epochs"),
                      "a frozen backbone's head is all probe: set \"train_backbone\": true or "
                      "drop probe_epochs");
  return epochs;
}

// A head's sub-patch factor: 1 (the patch grid) up to the patch size (pixel by pixel), a
// divisor of the patch size so that sub-patches tile the image.
int64_t read_head_upsample(ConfigReader& r, const ViTConfig& model) {
  const int64_t u = r.integer("upsample", 1, 1, model.patch_size);
  if (model.patch_size % u != 0)
    throw ConfigError(r.field("upsample"), std::to_string(u) + " does not divide the patch size " +
                                               std::to_string(model.patch_size));
  return u;
}

// The scene layout fields segmentation.data and segmentation.pretrain.data share: the side,
// the garment count and size, the background's colour range.
void read_scene_layout(ConfigReader& d, SegmentationDataConfig& c, const ViTConfig& model) {
  c.image_size = d.integer("image_size", c.image_size, model.patch_size, 4096);
  if (c.image_size % model.patch_size != 0)
    throw ConfigError(d.field("image_size"),
                      "must be a multiple of the patch size " + std::to_string(model.patch_size));
  c.min_garments = d.integer("min_garments", c.min_garments, 0, 64);
  c.max_garments = d.integer("max_garments", c.max_garments, c.min_garments, 64);
  c.min_scale = d.number("min_scale", c.min_scale, 0.0, 1.0, true);
  c.max_scale = d.number("max_scale", c.max_scale, c.min_scale, 1.0);
  c.background_min = d.number("background_min", c.background_min, 0.0, 1.0);
  c.background_max = d.number("background_max", c.background_max, c.background_min, 1.0);
}

// segmentation.data: the data set, its folder, the scene layout and the split sizes.
SegmentationDataConfig read_segmentation_data(ConfigReader d, const ViTConfig& model,
                                              const std::string& default_root) {
  SegmentationDataConfig c;
  c.dataset = d.string("dataset", c.dataset, {"fashion-mnist-scenes", "ade20k"});
  const bool ade = c.dataset == "ade20k";
  c.root = d.string("root", ade ? "" : default_root);
  if (ade && c.root.empty())
    throw ConfigError(d.field("root"), "an ade20k data set needs its folder");
  read_scene_layout(d, c, model);
  c.train_images = d.integer("train_images", c.train_images, ade ? 0 : 1, int64_t(1) << 30);
  c.val_images = d.integer("val_images", c.val_images, ade ? 0 : 1, int64_t(1) << 30);
  c.threshold = d.number("threshold", c.threshold, 0.0, 0.99);
  c.reduce_zero_label = d.boolean("reduce_zero_label", c.reduce_zero_label);
  c.num_classes = d.integer("num_classes", c.num_classes, 1, 254);
  d.finish();
  return c;
}

GradientCheckpointing read_gradient_checkpointing(ConfigReader& r) {
  const std::string gc = r.string("gradient_checkpointing", "auto", {"auto", "on", "off"});
  return gc == "on"    ? GradientCheckpointing::On
         : gc == "off" ? GradientCheckpointing::Off
                       : GradientCheckpointing::Auto;
}

// The fields of the segmentation block itself, between its data and its heads: the backbone,
// how it trains, the resolution sweep and the evaluation.
void read_job_fields(ConfigReader& r, SegmentationConfig& s, const ViTConfig& model) {
  s.teacher = r.string("teacher", "");
  s.head = r.string("head", s.head, {"linear", "mask2former", "both"});
  s.adaptation_images = r.integer("adaptation_images", 0, 0, int64_t(1) << 30);
  if (s.adaptation_images > 0 && s.data.dataset != "fashion-mnist-scenes")
    throw ConfigError(r.field("adaptation_images"),
                      "makes scenes: it needs \"dataset\": \"fashion-mnist-scenes\"");
  s.train_backbone = r.boolean("train_backbone", s.train_backbone);
  s.backbone_lr_scale = r.number("backbone_lr_scale", s.backbone_lr_scale, 0.0, 10.0);
  s.layer_decay = r.number("layer_decay", s.layer_decay, 0.0, 1.0, true);
  s.gradient_checkpointing = read_gradient_checkpointing(r);
  s.sweep_resolutions = r.integers("sweep_resolutions", {}, model.patch_size, 4096);
  for (int64_t res : s.sweep_resolutions)
    if (res % model.patch_size != 0)
      throw ConfigError(r.field("sweep_resolutions"), std::to_string(res) +
                                                          " is not a multiple of the patch size " +
                                                          std::to_string(model.patch_size));
  s.sweep_val_images = r.integer("sweep_val_images", s.sweep_val_images, 1, 100000);
  s.results_images = r.integer("results_images", s.results_images, 0, 100000);
  s.eval_batch_size = r.integer("eval_batch_size", s.eval_batch_size, 1, 4096);
}

// The optimisation every head and the scene teacher start from.
StageConfig head_stage_defaults() {
  StageConfig defaults;
  defaults.epochs = 10;
  defaults.batch_size = 16;
  defaults.lr = 1e-3;
  defaults.weight_decay = 1e-4;
  defaults.log_every = 10;
  return defaults;
}

// segmentation.linear: the blocks it reads, its sub-patch factor and its training.
void read_linear_head(ConfigReader l, SegmentationConfig& s, const ViTConfig& model,
                      const StageConfig& defaults) {
  s.linear_blocks = read_distinct_blocks(l, "blocks", {model.depth}, model.depth);
  s.linear_upsample = read_head_upsample(l, model);
  s.linear_probe_epochs = read_probe_epochs(l, s.train_backbone);
  s.linear_training = read_stage_config(l, defaults);
}

// segmentation.mask2former: the decoder's shape, the blocks it reads, its losses' weights and
// its training.
void read_mask2former_head(ConfigReader m, SegmentationConfig& s, const ViTConfig& model,
                           const StageConfig& head_defaults) {
  auto& c = s.mask2former;
  c.num_queries = m.integer("num_queries", c.num_queries, 1, 1024);
  c.hidden_dim = m.integer("hidden_dim", c.hidden_dim, 4, 4096);
  if (c.hidden_dim % 4 != 0) throw ConfigError(m.field("hidden_dim"), "must be a multiple of 4");
  c.num_heads = m.integer("num_heads", c.num_heads, 1, 64);
  if (c.hidden_dim % c.num_heads != 0)
    throw ConfigError(m.field("num_heads"),
                      "must divide hidden_dim " + std::to_string(c.hidden_dim));
  c.num_layers = m.integer("num_layers", c.num_layers, 1, 64);
  c.ffn_dim = m.integer("ffn_dim", c.ffn_dim, 1, 65536);
  c.num_points = m.integer("num_points", c.num_points, 0, int64_t(1) << 24);
  c.upsample = read_head_upsample(m, model);
  c.probe_epochs = read_probe_epochs(m, s.train_backbone);
  std::vector<int64_t> blocks;
  for (int64_t b = std::max<int64_t>(1, model.depth - 2); b <= model.depth; ++b)
    blocks.push_back(b);
  c.feature_blocks = read_distinct_blocks(m, "feature_blocks", blocks, model.depth);
  c.class_weight = m.number("class_weight", c.class_weight, 0.0, 1000.0);
  c.mask_weight = m.number("mask_weight", c.mask_weight, 0.0, 1000.0);
  c.dice_weight = m.number("dice_weight", c.dice_weight, 0.0, 1000.0);
  c.no_object_weight = m.number("no_object_weight", c.no_object_weight, 0.0, 1.0);
  StageConfig m2f_defaults = head_defaults;
  m2f_defaults.lr = 3e-4;
  m2f_defaults.weight_decay = 0.05;
  s.mask2former_training = read_stage_config(m, m2f_defaults);
}

// segmentation.pretrain: the scene teacher's checkpoint, its scenes (segmentation.data's unless
// it has its own layout) and its training.
ScenePretrainConfig read_scene_pretrain(ConfigReader p, const SegmentationDataConfig& data,
                                        const ViTConfig& model, const StageConfig& head_defaults) {
  ScenePretrainConfig c;
  c.present = true;
  c.init = p.string("init", "");
  if (c.init.empty())
    throw ConfigError(p.field("init"), "the classification checkpoint the teacher starts from");
  c.images = p.integer("images", c.images, 1, int64_t(1) << 30);
  c.data = data;
  if (p.has("data")) {
    ConfigReader d = p.child("data");
    read_scene_layout(d, c.data, model);
    d.finish();
  }
  c.first_scene = p.integer("first_scene", c.first_scene, 0, int64_t(1) << 40);
  StageConfig defaults = head_defaults;
  defaults.epochs = 4;
  defaults.batch_size = 32;
  c.training = read_stage_config(p, defaults);
  return c;
}

}  // namespace

SegmentationConfig read_segmentation_config(ConfigReader r, const ViTConfig& model,
                                            const std::string& default_root) {
  SegmentationConfig s;
  s.present = true;
  s.data = read_segmentation_data(r.child("data"), model, default_root);
  read_job_fields(r, s, model);
  const StageConfig head_defaults = head_stage_defaults();
  read_linear_head(r.child("linear"), s, model, head_defaults);
  read_mask2former_head(r.child("mask2former"), s, model, head_defaults);
  if (r.has("pretrain"))
    s.pretrain = read_scene_pretrain(r.child("pretrain"), s.data, model, head_defaults);
  r.finish();
  return s;
}

}  // namespace adala
