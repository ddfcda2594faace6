// `adala inspect-weights FILE.safetensors`: what a weight file holds and which ViT it fits.
// Reads the header only; tensor data is never touched, so any size of file is quick.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "app/cli/inference_options.h"
#include "engine/json/json.h"
#include "engine/model/preset_match.h"
#include "engine/io/safetensors.h"
#include "engine/model/weight_mapping.h"
#include "engine/model/weights_file_config.h"
#include "engine/infer/preprocessing.h"
#include "engine/train/config/pretrained_config.h"

namespace adala::cli {

namespace {

std::string shape_string(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string one_line(std::string text, size_t limit) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  if (text.size() > limit) text = text.substr(0, limit - 3) + "...";
  return text;
}

// The model and the preprocessing that predict / embed / export would use with the same options
// (still from the header alone), or why they cannot load the file.
void print_what_commands_use(const SafetensorsReader& reader, const std::string& path,
                             const CheckpointOptions& options) {
  ViTConfig config;
  InferenceLoadOptions load;
  try {
    load = options.load_options();
    config = config_of_safetensors(reader, path, load.architecture);
  } catch (const std::exception& e) {
    std::printf("uses      cannot load: %s\n", e.what());
    return;
  }
  const auto& meta = reader.metadata();
  std::string source = load.architecture.model      ? "--model-config"
                       : meta.count("adala.config") ? "adala.config"
                       : config.name != "custom"    ? "the preset its shapes fit"
                                                    : "its shapes and --heads";
  if (load.architecture.heads > 0 && source != "its shapes and --heads")
    source += ", heads from --heads";
  std::printf(
      "uses      %s (from %s): D=%lld depth=%lld heads=%lld patch=%lld img=%lld classes=%lld\n",
      config.name.c_str(), source.c_str(), static_cast<long long>(config.embed_dim),
      static_cast<long long>(config.depth), static_cast<long long>(config.num_heads),
      static_cast<long long>(config.patch_size), static_cast<long long>(config.img_size),
      static_cast<long long>(config.num_classes));
  try {
    const PretrainedConfig data = apply_preprocessing_overrides(
        pretrained_config_from_metadata(meta, config), load.preprocessing);
    const std::string note = assumed_preprocessing_note(path, meta.count(kPretrainedConfigKey) > 0,
                                                        data, load.preprocessing);
    std::printf("data      %s, %lld classes%s (%s)\n", describe_preprocessing(data).c_str(),
                static_cast<long long>(data.num_classes),
                data.label_names.empty() ? "" : " (named)",
                note.empty() ? "from the file and the options" : "assumed in part");
    if (!note.empty()) std::printf("          note: %s\n", note.c_str());
  } catch (const std::exception& e) {
    std::printf("data      malformed: %s\n", e.what());
  }
}

void print_file_sizes(const SafetensorsReader& reader, const std::string& path, ReadMode mode) {
  const uint64_t data_bytes = reader.file_size() - 8 - reader.header_size();
  std::printf("file      %s\n", path.c_str());
  std::printf("          %llu bytes: 8 + %llu header + %llu data (%s read)\n",
              static_cast<unsigned long long>(reader.file_size()),
              static_cast<unsigned long long>(reader.header_size()),
              static_cast<unsigned long long>(data_bytes),
              mode == ReadMode::Mmap ? "mmap" : "stream");
}

void print_key_mapping(const KeyMapping& plan) {
  std::printf("format    %s: %s\n", to_string(plan.format), describe(plan.format).c_str());
  for (const auto& n : plan.notes) std::printf("          note: %s\n", n.c_str());
  if (!plan.dropped.empty())
    std::printf("          %zu tensor(s) not used by our model (e.g. %s)\n", plan.dropped.size(),
                plan.dropped[0].c_str());
  if (!plan.unsupported.empty())
    std::printf("          %zu tensor(s) unsupported (e.g. %s)\n", plan.unsupported.size(),
                plan.unsupported[0].c_str());
}

void print_metadata(const std::map<std::string, std::string>& meta) {
  if (meta.empty()) {
    std::printf("metadata  (none)\n");
  } else {
    std::printf("metadata  %zu entr%s\n", meta.size(), meta.size() == 1 ? "y" : "ies");
    for (const auto& [k, v] : meta) std::printf("  %s = %s\n", k.c_str(), one_line(v, 160).c_str());
  }
}

// One row per tensor (name, dtype, shape, MB), then the totals.
void print_tensor_table(const std::vector<TensorInfo>& tensors) {
  size_t name_width = 4, dtype_width = 5, shape_width = 5;
  for (const auto& t : tensors) {
    name_width = std::max(name_width, std::min<size_t>(t.name.size(), 72));
    dtype_width = std::max(dtype_width, t.dtype.size());
    shape_width = std::max(shape_width, shape_string(t.shape).size());
  }
  std::printf("\n  %-*s  %-*s  %-*s  %10s\n", static_cast<int>(name_width), "name",
              static_cast<int>(dtype_width), "dtype", static_cast<int>(shape_width), "shape", "MB");
  uint64_t total_bytes = 0;
  int64_t total_params = 0;
  std::map<std::string, size_t> by_dtype;
  for (const auto& t : tensors) {
    std::printf("  %-*s  %-*s  %-*s  %10.4f\n", static_cast<int>(name_width), t.name.c_str(),
                static_cast<int>(dtype_width), t.dtype.c_str(), static_cast<int>(shape_width),
                shape_string(t.shape).c_str(), static_cast<double>(t.nbytes()) / 1e6);
    total_bytes += t.nbytes();
    total_params += t.numel();
    ++by_dtype[t.dtype];
  }
  std::string dtypes;
  for (const auto& [d, n] : by_dtype)
    dtypes += (dtypes.empty() ? "" : ", ") + d + " x" + std::to_string(n);
  std::printf("\ntotals    %zu tensors, %lld parameters, %llu bytes (%.3f MB)%s%s%s\n",
              tensors.size(), static_cast<long long>(total_params),
              static_cast<unsigned long long>(total_bytes), static_cast<double>(total_bytes) / 1e6,
              dtypes.empty() ? "" : "  [", dtypes.c_str(), dtypes.empty() ? "" : "]");
}

// The ViT the (renamed) shapes describe, the heads of adala.config, and the presets they fit.
void print_model_fit(const ShapeMap& ours, const std::map<std::string, std::string>& meta) {
  const VitShapeSummary summary = summarise_vit_shapes(ours);
  std::printf("model     %s\n", summary.to_string().c_str());
  for (const auto& p : summary.problems) std::printf("          problem: %s\n", p.c_str());
  if (auto it = meta.find("adala.config"); it != meta.end()) {
    try {
      const Json config = parse_json_strict(it->second);
      if (auto heads = config.find("num_heads");
          heads != config.end() && heads->is_number_integer())
        std::printf("          heads %lld (from adala.config)\n", heads->get<long long>());
    } catch (const JsonError& e) {
      std::printf("          adala.config is not valid JSON: %s\n", e.what());
    }
  }
  const PresetGuess guess = guess_preset(ours);
  std::string matches;
  for (const auto& m : guess.matches) matches += (matches.empty() ? "" : ", ") + m;
  std::printf("presets   %s\n", matches.empty() ? "(none fit)" : matches.c_str());
  if (!guess.best.empty() || !guess.reason.empty())
    std::printf("best      %s%s%s\n", guess.best.c_str(), guess.best.empty() ? "" : ": ",
                guess.reason.c_str());
}

}  // namespace

int inspect_weights_command(const Args& args) {
  CLI::App app{
      "Lists every tensor (name, dtype, shape, MB), totals, the file's metadata, the checkpoint "
      "naming it uses (timm, adala, meta-dinov2, hf-dinov2) and the ViT presets its shapes fit. "
      "Only the header is read.",
      "adala inspect-weights"};
  prepare_command_app(app);
  std::string path;
  bool stream = false;
  CheckpointOptions checkpoint;
  app.add_option("FILE", path, "a .safetensors file")->required();
  app.add_flag("--stream", stream, "read with plain file reads instead of mmap");
  add_checkpoint_options(app, checkpoint);
  if (!parse_command_line(app, args)) return 0;
  const ReadMode mode = stream ? ReadMode::Stream : ReadMode::Mmap;
  SafetensorsReader reader(path, mode);
  print_file_sizes(reader, path, mode);

  std::vector<std::string> names;
  ShapeMap shapes;
  for (const auto& t : reader.tensors()) {
    names.push_back(t.name);
    shapes[t.name] = t.shape;
  }
  const KeyMapping plan = plan_key_mapping(names);
  print_key_mapping(plan);
  print_metadata(reader.metadata());
  print_tensor_table(reader.tensors());
  print_model_fit(apply_key_mapping(plan, shapes), reader.metadata());
  print_what_commands_use(reader, path, checkpoint);
  return 0;
}

}  // namespace adala::cli
