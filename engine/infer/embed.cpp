#include "engine/infer/embed.h"

#include <ATen/ATen.h>

#include <stdexcept>

#include "engine/json/json.h"
#include "engine/io/safetensors.h"

namespace adala {

const char* to_string(TokenSelection tokens) {
  switch (tokens) {
    case TokenSelection::Cls:
      return "cls";
    case TokenSelection::Patch:
      return "patch";
    case TokenSelection::All:
      return "all";
  }
  return "?";
}

TokenSelection token_selection_from_string(const std::string& name) {
  if (name == "cls") return TokenSelection::Cls;
  if (name == "patch") return TokenSelection::Patch;
  if (name == "all") return TokenSelection::All;
  throw std::invalid_argument("unknown token selection \"" + name +
                              "\" (allowed: cls, patch, all)");
}

Embeddings embed_images(InferenceModel& model, const std::vector<ImageInput>& inputs,
                        TokenSelection tokens, const InferOptions& options) {
  const ViTConfig& config = model.model->config();
  if (tokens == TokenSelection::Cls && !config.class_token)
    throw std::runtime_error(model.path +
                             ": the model has no class token; use --tokens patch or all");
  Embeddings e;
  e.tokens = tokens;
  e.resolution = inference_transform(model, options).resolution;
  bool labelled = !inputs.empty();
  for (const auto& in : inputs)
    labelled = labelled && in.class_folders &&
               in.dataset->class_names() == inputs.front().dataset->class_names();
  if (labelled) e.class_names = inputs.front().dataset->class_names();
  const int64_t prefix = config.num_prefix_tokens();
  auto forward = [&](const at::Tensor& images) {
    const at::Tensor f = model.model->forward_features(images);
    switch (tokens) {
      case TokenSelection::Cls:
        return f.select(1, 0);
      case TokenSelection::Patch:
        return f.narrow(1, prefix, f.size(1) - prefix);
      case TokenSelection::All:
        break;
    }
    return f;
  };
  std::vector<at::Tensor> features, labels;
  for (const auto& input : inputs)
    run_inference_batches(model, input, options, forward,
                          [&](const Batch& b, const at::Tensor& out) {
                            features.push_back(out.contiguous());
                            labels.push_back(b.labels);
                            for (int64_t index : b.indices)
                              e.paths.push_back(input.dataset->item_name(index));
                          });
  e.features = at::cat(features, 0);
  if (labelled) e.labels = at::cat(labels, 0).to(at::kLong);
  return e;
}

void write_embeddings(const std::string& path, const Embeddings& e, const std::string& weights) {
  std::vector<std::pair<std::string, at::Tensor>> tensors{{"features", e.features}};
  if (e.labels.defined()) tensors.emplace_back("labels", e.labels);
  std::map<std::string, std::string> meta{{"adala.embed.weights", weights},
                                          {"adala.embed.tokens", to_string(e.tokens)},
                                          {"adala.embed.resolution", std::to_string(e.resolution)},
                                          {"adala.embed.paths", Json(e.paths).dump()}};
  if (e.labels.defined()) meta["adala.embed.label_names"] = Json(e.class_names).dump();
  write_safetensors(path, tensors, meta);
}

}  // namespace adala
