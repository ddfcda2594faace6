#include "app/cli/inference_options.h"

namespace adala::cli {

void add_checkpoint_options(CLI::App& app, CheckpointOptions& o) {
  const std::string group = "Preprocessing (default: the checkpoint's adala.pretrained_cfg)";
  app.add_option("--interpolation", o.interpolation, "resize filter: bilinear or bicubic")
      ->check(CLI::IsMember({"bilinear", "bicubic"}))
      ->group(group);
  app.add_option("--crop-mode", o.crop_mode,
                 "center: shorter side to res / crop-pct, centre crop; squash: both sides to "
                 "res / crop-pct (aspect not kept), centre crop; none: images already res x res")
      ->check(CLI::IsMember({"center", "squash", "none"}))
      ->group(group);
  app.add_option("--crop-pct", o.crop_pct, "the centre crop's share of the resized side, (0, 1]")
      ->check(CLI::Range(1e-6, 1.0))
      ->group(group);
  app.add_option("--mean", o.mean, "per-channel mean, e.g. 0.5,0.5,0.5 (one value: all)")
      ->delimiter(',')
      ->group(group);
  app.add_option("--std", o.std, "per-channel std, e.g. 0.5,0.5,0.5 (one value: all)")
      ->delimiter(',')
      ->group(group);
  const std::string model = "Architecture (for files without adala.config)";
  app.add_option("--heads", o.heads,
                 "attention heads (the tensors cannot say it; needed when no preset fits)")
      ->check(positive_number())
      ->group(model);
  app.add_option("--model-config", o.model_config,
                 "a JSON file of ViTConfig fields (optional \"preset\" to start from)")
      ->group(model);
}

InferenceLoadOptions CheckpointOptions::load_options() const {
  InferenceLoadOptions l;
  if (!interpolation.empty()) l.preprocessing.interpolation = interpolation;
  if (!crop_mode.empty()) l.preprocessing.crop_mode = crop_mode;
  if (crop_pct > 0.0) l.preprocessing.crop_pct = crop_pct;
  if (!mean.empty()) l.preprocessing.mean = mean;
  if (!std.empty()) l.preprocessing.std = std;
  l.architecture.heads = heads;
  if (!model_config.empty()) l.architecture.model = read_model_config_file(model_config);
  return l;
}

}  // namespace adala::cli
