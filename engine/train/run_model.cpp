#include "engine/train/run_model.h"

#include "engine/io/safetensors.h"
#include "engine/model/attention_plan.h"
#include "engine/model/load_weights.h"
#include "engine/model/weights_file_config.h"

namespace adala {

VisionTransformer load_run_model(const ExperimentConfig& c, const std::string& path,
                                 const c10::Device& device, bool allow_nonfinite, EventSink& sink) {
  ViTConfig config = c.model;
  config.num_classes = head_classes_of_weights_file(path);
  VisionTransformer model(config);
  model->to(device);
  // The plan the file records (a student's window+linear blocks hold a mixing gamma).
  if (const auto plan =
          attention_plan_from_metadata(SafetensorsReader(path).metadata(), model->depth(), path))
    model->set_attention_plan(*plan);
  LoadOptions options;
  options.strict = true;
  options.interpolate_pos_embed = true;
  options.allow_nonfinite = allow_nonfinite;
  const LoadReport report = load_weights(model, path, options);
  for (const auto& note : report.notes)
    if (note.rfind("warning: ", 0) == 0)
      sink.on_event(LogEvent{LogEvent::Level::Warning, path + ": " + note.substr(9)});
  return model;
}

VisionTransformer load_run_model_for_eval(const ExperimentConfig& config, const std::string& path,
                                          const c10::Device& device) {
  NullSink quiet;
  VisionTransformer model = load_run_model(config, path, device, /*allow_nonfinite=*/false, quiet);
  model->eval();
  return model;
}

}  // namespace adala
