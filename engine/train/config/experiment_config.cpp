#include "engine/train/config/experiment_config.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <variant>

#include "engine/model/weights_file_config.h"
#include "engine/model/overloaded.h"
#include "engine/data/fashion_mnist.h"
#include "engine/train/config/config_reader.h"
#include "engine/train/stage_catalog.h"

namespace adala {

StageConfig read_stage_config(ConfigReader r, const StageConfig& d, bool feature_alignment) {
  StageConfig s;
  s.enabled = r.boolean("enabled", d.enabled);
  s.epochs = r.integer("epochs", d.epochs, 0, 100000);
  s.max_steps = r.integer("max_steps", d.max_steps, 0, kMaxConfigCount);
  s.batch_size = r.integer("batch_size", d.batch_size, 1, 65536);
  s.lr = r.number("lr", d.lr, 0.0, 10.0, true);
  s.min_lr = r.number("min_lr", d.min_lr, 0.0, 10.0);
  s.weight_decay = r.number("weight_decay", d.weight_decay, 0.0, 10.0);
  s.warmup_steps = r.integer("warmup_steps", d.warmup_steps, 0, kMaxConfigCount);
  s.grad_clip = r.number("grad_clip", d.grad_clip, 0.0, 1e6);
  s.label_smoothing = r.number("label_smoothing", d.label_smoothing, 0.0, 0.999);
  s.augment = r.boolean("augment", d.augment);
  s.checkpoint_every = r.integer("checkpoint_every", d.checkpoint_every, 0, kMaxConfigCount);
  s.log_every = r.integer("log_every", d.log_every, 1, kMaxConfigCount);
  s.precision = r.string("precision", d.precision, {"fp32", "bf16", "fp16"});
  s.linear_eps = r.number("linear_eps", d.linear_eps, 0.0, 1.0);
  s.loss_scaling = r.string("loss_scaling", d.loss_scaling, {"auto", "dynamic", "off"});
  s.loss_scale_init = r.number("loss_scale_init", d.loss_scale_init, 0.0, 1e30, true);
  s.loss_scale_growth_interval =
      r.integer("loss_scale_growth_interval", d.loss_scale_growth_interval, 1, kMaxConfigCount);
  s.normaliser_threshold = r.number("normaliser_threshold", d.normaliser_threshold, 0.0, 1e6);
  s.trainable = r.string("trainable", d.trainable, {"all", "qkv"});
  s.align_blocks = read_distinct_blocks(r, "align_blocks", d.align_blocks, kMaxConfigCount);
  r.finish();
  if (!feature_alignment && s.trainable != "all")
    throw ConfigError(r.field("trainable"), "\"" + s.trainable +
                                                "\" is for stages.feature_alignment only "
                                                "(allowed here: all)");
  if (!feature_alignment && !s.align_blocks.empty())
    throw ConfigError(r.field("align_blocks"), "is for stages.feature_alignment only");
  if (s.min_lr > s.lr) throw ConfigError(r.field("min_lr"), "must not exceed lr");
  if (s.enabled && s.epochs == 0 && s.max_steps == 0)
    throw ConfigError(r.field("epochs"), "an enabled stage needs epochs > 0 or max_steps > 0");
  return s;
}

namespace {

// The model of a teacher file, for a config that names no preset.
ViTConfig model_of_weights(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw ConfigError(
        "teacher.weights",
        "file not found: " + path + " (needed to deduce the model: model.preset is left out)");
  try {
    return config_of_weights_file(path);
  } catch (const std::exception& e) {
    throw ConfigError("teacher.weights",
                      std::string("cannot deduce the model (give model.preset): ") + e.what());
  }
}

ViTConfig read_model(ConfigReader r, const std::string& teacher_weights, ExperimentConfig& c) {
  std::vector<std::string> presets = vit_preset_names();
  ViTConfig m;
  c.model_from_weights = !r.has("preset") && !teacher_weights.empty();
  // Without model.num_classes the head has as many classes as data.train (a preset's own count,
  // often 0 for the ImageNet-free backbones, and a checkpoint's head are only starting points).
  c.num_classes_from_data = !r.has("num_classes");
  if (c.model_from_weights) {
    m = model_of_weights(teacher_weights);
  } else {
    m = vit_preset(r.string("preset", "fmnist_tiny", presets));
  }
  for (const auto& field : vit_config_fields()) {
    std::visit(
        Overloaded{
            [&](std::string ViTConfig::*text) {
              m.*text = r.string(field.name, m.*text,
                                 field.choices ? *field.choices : std::vector<std::string>{});
            },
            [&](int64_t ViTConfig::*integer) {
              m.*integer =
                  r.integer(field.name, m.*integer, int64_t(field.min), int64_t(field.max));
            },
            [&](double ViTConfig::*number) {
              m.*number =
                  r.number(field.name, m.*number, field.min, field.max, field.min_exclusive);
            },
            [&](bool ViTConfig::*boolean) { m.*boolean = r.boolean(field.name, m.*boolean); }},
        field.member);
  }
  r.finish();
  if (m.embed_dim % m.num_heads != 0)
    throw ConfigError(r.field("num_heads"), "embed_dim " + std::to_string(m.embed_dim) +
                                                " is not divisible by num_heads " +
                                                std::to_string(m.num_heads));
  if (m.img_size < m.patch_size)
    throw ConfigError(r.field("patch_size"), "larger than img_size " + std::to_string(m.img_size));
  if (m.img_size % m.patch_size != 0)
    throw ConfigError(r.field("patch_size"),
                      std::to_string(m.patch_size) + " does not divide img_size " +
                          std::to_string(m.img_size) + " (the last " +
                          std::to_string(m.img_size % m.patch_size) + " pixels would be cropped)");
  return m;
}

}  // namespace

const StageConfig& ExperimentConfig::stage(int index) const {
  switch (index) {
    case 0:
      return teacher;
    case 1:
      return attention_alignment;
    case 2:
      return feature_alignment;
    case 3:
      return fine_tuning;
    default:
      throw std::out_of_range("stage index must be " + stage_index_range());
  }
}

AttentionPlan student_attention_plan(const ExperimentConfig& c) {
  if (c.attention.modes.empty())
    return uniform_attention_plan(c.model.depth,
                                  attention_mode_from_string(method_attention_mode(c.method)),
                                  c.attention.window);
  if (int64_t(c.attention.modes.size()) != c.model.depth)
    throw ConfigError("attention.blocks", std::to_string(c.attention.modes.size()) +
                                              " entries for a model of " +
                                              std::to_string(c.model.depth) + " blocks");
  return c.attention;
}

ExperimentConfig parse_experiment_config(const Json& document) {
  ConfigReader root(document, "");
  ExperimentConfig c;
  c.name = root.string("name", c.name);
  if (c.name.empty() || c.name.find('/') != std::string::npos)
    throw ConfigError("name", "must be non-empty and contain no '/'");
  c.seed = root.integer("seed", c.seed, 0, kMaxConfigCount);
  c.device = root.string("device", c.device);
  if (c.device != "auto" && c.device != "cpu" && c.device.rfind("cuda", 0) != 0)
    throw ConfigError("device",
                      "unknown value \"" + c.device + "\" (allowed: auto, cpu, cuda, cuda:N)");
  c.threads = root.integer("threads", c.threads, 0, 1024);
  {
    ConfigReader t = root.child("teacher");
    c.teacher_weights = t.string("weights", "");
    t.finish();
  }
  c.method = linearisation_method_from_string(
      root.string("method", to_string(c.method), linearisation_method_names()));
  c.lora_rank = root.integer("lora_rank", c.lora_rank, 1, 4096);
  c.lora_alpha = root.number("lora_alpha", c.lora_alpha, 0.0, 1e6, true);
  c.attention_rows = root.integer("attention_rows", c.attention_rows, 1, 1 << 20);
  c.model = read_model(root.child("model"), c.teacher_weights, c);
  if (const std::string needed = method_feature_map(c.method); !needed.empty()) {
    // lolcats and hedgehog learn the Hedgehog feature map, performer uses Performer's: the
    // method's map is theirs unless the config says otherwise, which is an error.
    const auto model = document.find("model");
    if (model != document.end() && model->is_object() && model->contains("feature_map") &&
        c.model.feature_map != needed)
      throw ConfigError("model.feature_map",
                        "method \"" + std::string(to_string(c.method)) + "\" uses the " + needed +
                            " feature map; leave model.feature_map out or "
                            "set it to \"" +
                            needed + "\" (got \"" + c.model.feature_map + "\")");
    c.model.feature_map = needed;
  }
  c.attention = read_attention_plan(root.child("attention"), c.model, c.method, c.device);
  if (c.method == LinearisationMethod::Lolcats && c.lora_rank > c.model.embed_dim)
    throw ConfigError("lora_rank", std::to_string(c.lora_rank) + " exceeds the model's width " +
                                       std::to_string(c.model.embed_dim) + " (model.embed_dim)");
  c.data = read_data_config(root.child("data"), c.model);
  {
    ConfigReader s = root.child("stages");
    StageConfig teacher_defaults;
    teacher_defaults.epochs = 5;
    teacher_defaults.augment = true;
    teacher_defaults.label_smoothing = 0.1;
    c.teacher = read_stage_config(s.child(stage_name(0)), teacher_defaults);
    StageConfig align_defaults;
    align_defaults.weight_decay = 0.0;
    c.attention_alignment = read_stage_config(s.child(stage_name(1)), align_defaults);
    c.feature_alignment = read_stage_config(s.child(stage_name(2)), align_defaults, true);
    StageConfig finetune_defaults;
    finetune_defaults.lr = 2e-4;
    c.fine_tuning = read_stage_config(s.child(stage_name(3)), finetune_defaults);
    s.finish();
    for (const int64_t b : c.feature_alignment.align_blocks)
      if (b > c.model.depth)
        throw ConfigError(std::string("stages.") + stage_name(2) + ".align_blocks",
                          "block " + std::to_string(b) + " outside 1.." +
                              std::to_string(c.model.depth) + " (the model's depth)");
    for (int i = 0; i < kStageCount; ++i)
      if (c.device == "cpu" && c.stage(i).precision == "fp16")
        throw ConfigError(std::string("stages.") + stage_name(i) + ".precision",
                          "fp16 needs a CUDA device (LibTorch's CPU autocast supports bf16 only; "
                          "device is \"cpu\")");
  }
  if (root.has("segmentation"))
    c.segmentation = read_segmentation_config(root.child("segmentation"), c.model, c.data.root);
  {
    ConfigReader o = root.child("output");
    c.runs_dir = o.string("runs_dir", c.runs_dir);
    o.finish();
  }
  root.finish();
  c.source = document;
  return c;
}

Json resolve_config_paths(Json doc, const std::filesystem::path& base_dir) {
  if (!doc.is_object()) return doc;
  auto resolve = [&](Json& value) {
    if (!value.is_string()) return;  // the parser names the wrong type
    const std::filesystem::path p(value.get<std::string>());
    if (p.empty() || !p.is_relative()) return;
    value = Json(std::filesystem::absolute(base_dir / p).lexically_normal().string());
  };
  // The model may be read from teacher.weights, so it is resolved before anything is parsed.
  if (auto t = doc.find("teacher"); t != doc.end() && t->is_object())
    if (auto w = t->find("weights"); w != t->end()) resolve(*w);
  if (auto d = doc.find("data"); d != doc.end() && d->is_object())
    for (const char* key : {"train", "eval", "alignment"})
      if (auto source = d->find(key); source != d->end() && source->is_object())
        for (const char* field : {"root", "list", "classes"})
          if (auto v = source->find(field); v != source->end()) resolve(*v);
  if (auto seg = doc.find("segmentation"); seg != doc.end() && seg->is_object()) {
    if (auto t = seg->find("teacher"); t != seg->end()) resolve(*t);
    if (auto p = seg->find("pretrain"); p != seg->end() && p->is_object())
      if (auto init = p->find("init"); init != p->end()) resolve(*init);
  }
  return doc;
}

ExperimentConfig parse_experiment_text(const std::string& text,
                                       const std::filesystem::path& base_dir) {
  return parse_experiment_config(resolve_config_paths(parse_json_strict(text), base_dir));
}

ExperimentConfig load_experiment_config(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw ConfigError(path, "is a folder, not a config file (give the path of a .json file)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path, "cannot open the config file");
  std::stringstream ss;
  ss << in.rdbuf();
  Json doc;
  try {
    doc = parse_json_strict(ss.str());
  } catch (const JsonError& e) {
    throw ConfigError(path, e.what());
  }
  doc = resolve_config_paths(std::move(doc), std::filesystem::path(path).parent_path());
  ExperimentConfig config = parse_experiment_config(doc);
  // A relative teacher.weights is relative to the config file; the run keeps the absolute path.
  if (!config.teacher_weights.empty()) {
    const std::filesystem::path weights =
        std::filesystem::path(config.teacher_weights).lexically_normal();
    if (!std::filesystem::exists(weights))
      throw ConfigError("teacher.weights", "file not found: " + weights.string());
    config.teacher_weights = std::filesystem::absolute(weights).string();
    config.source["teacher"]["weights"] = Json(config.teacher_weights);
  }
  return config;
}

}  // namespace adala
