#include "engine/train/run_preflight.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>

#include "engine/runtime/device.h"
#include "engine/model/load_weights.h"
#include "engine/runtime/precision.h"
#include "engine/model/weights_file_config.h"
#include "engine/model/vision_transformer.h"
#include "engine/data/fashion_mnist.h"
#include "engine/train/stage_catalog.h"

namespace adala {

namespace {

void check_stages(const std::vector<int>& stages) {
  if (stages.empty()) throw ConfigError("--stages", "no stage selected");
  std::set<int> seen;
  check_stage_indices(stages);
  for (int s : stages) {
    if (!seen.insert(s).second)
      throw ConfigError("--stages", "stage " + std::to_string(s) + " is listed twice");
  }
}

void check_model_fits_data(const ViTConfig& m, const std::string& root, bool classes_from_data) {
  ImageSetShape shape;
  try {
    shape = probe_fashion_mnist(root, "train");
    probe_fashion_mnist(root, "test");
  } catch (const std::exception& e) {
    throw ConfigError("data.root", e.what());
  }
  if (m.in_chans != shape.channels)
    throw ConfigError("model.in_chans", std::to_string(m.in_chans) + ", but the Fashion-MNIST " +
                                            "images in " + root + " have " +
                                            std::to_string(shape.channels) + " channel");
  if (!classes_from_data && m.num_classes != shape.classes)
    throw ConfigError("model.num_classes", std::to_string(m.num_classes) +
                                               ", but Fashion-MNIST has " +
                                               std::to_string(shape.classes) + " classes");
  for (int64_t side : {shape.rows, shape.cols})
    if (side % m.patch_size != 0)
      throw ConfigError("model.patch_size",
                        std::to_string(m.patch_size) + " does not divide the " +
                            std::to_string(side) + "-pixel side of the images in " + root +
                            " (the last " + std::to_string(side % m.patch_size) +
                            " pixels would be cropped)");
}

void check_teacher(const ExperimentConfig& c, const PipelineOptions& options) {
  if (!options.run_dir.empty() && std::filesystem::exists(stage_output_path(options.run_dir, 0)))
    return;  // a resumed run uses the teacher it saved
  if (c.teacher_weights.empty()) {
    if (std::find(options.stages.begin(), options.stages.end(), 0) == options.stages.end())
      throw ConfigError("teacher.weights", "no teacher: select stage 0 or give pretrained weights");
    return;
  }
  try {
    // As the pipeline loads it: the file's own head (Stage 3 replaces one that does not fit the
    // data), position embeddings resampled to the run's input size.
    ViTConfig config = c.model;
    config.num_classes = head_classes_of_weights_file(c.teacher_weights);
    VisionTransformer model(config);
    LoadOptions load;
    load.interpolate_pos_embed = true;
    load.allow_nonfinite = options.allow_nonfinite;
    load_weights(model, c.teacher_weights, load);
  } catch (const std::exception& e) {
    throw ConfigError("teacher.weights", e.what());
  }
}

}  // namespace

// A stage precision the run's device cannot take (fp16 on a CPU, also where "auto" resolves to
// one) is refused before the run is recorded, not when the stage starts.
static void check_stage_precisions(const ExperimentConfig& c, const PipelineOptions& options) {
  c10::Device device(c10::kCPU);
  try {
    device = resolve_device(options.device, c.device);
  } catch (const std::exception&) {
    return;  // an unusable device is reported where the run opens it, as before
  }
  for (int s : options.stages) {
    const std::string field = std::string("stages.") + stage_name(s) + ".precision";
    try {
      check_precision_supported(precision_from_string(c.stage(s).precision), device);
    } catch (const std::invalid_argument& e) {
      throw ConfigError(field, e.what());
    }
  }
}

void check_run_inputs(const ExperimentConfig& config, const PipelineOptions& options) {
  check_stages(options.stages);
  check_stage_precisions(config, options);
  const std::string root =
      config.data.root.empty() ? default_fashion_mnist_root() : config.data.root;
  // The Fashion-MNIST idx headers against the model; other sources are checked when the
  // pipeline opens them (open_pipeline_data), before anything trains.
  if (config.data.train.source == "fashion-mnist")
    check_model_fits_data(config.model, root, config.num_classes_from_data);
  check_teacher(config, options);
}

}  // namespace adala
