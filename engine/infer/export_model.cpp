#include "engine/infer/export_model.h"

#include <ATen/ATen.h>

#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "engine/io/safetensors.h"
#include "engine/model/attention_plan.h"
#include "engine/model/vit_config_json.h"
#include "engine/infer/inference_model.h"

namespace adala {

namespace {

// "blocks.7.attn.linear.qkv.weight" -> block 7, rest "attn.linear.qkv.weight"; -1 outside blocks.
std::pair<int64_t, std::string> split_block(const std::string& name) {
  if (name.rfind("blocks.", 0) != 0) return {-1, name};
  const size_t dot = name.find('.', 7);
  return {std::stoll(name.substr(7, dot - 7)), name.substr(dot + 1)};
}

}  // namespace

ExportSummary export_model(const std::string& weights, const std::string& out,
                           const InferenceLoadOptions& options,
                           const std::vector<std::string>& class_names) {
  InferenceModel m = load_inference_model(weights, c10::Device(c10::kCPU), options);
  if (!class_names.empty()) {
    if (int64_t(class_names.size()) != m.data.num_classes)
      throw std::runtime_error(std::to_string(class_names.size()) + " class names, but " + weights +
                               " has " + std::to_string(m.data.num_classes) + " outputs");
    m.data.label_names = class_names;
    // The same checks as when the file is read back (distinct, non-empty names).
    pretrained_config_from_json(pretrained_config_to_json(m.data));
  }
  const auto modes = m.model->attention_modes();
  ExportSummary summary;
  summary.preprocessing_note = m.preprocessing_note;
  for (auto mode : modes) {
    ++(mode == AttentionMode::Softmax ? summary.softmax_blocks : summary.linear_blocks);
    summary.window_blocks += mode == AttentionMode::WindowLinear;
  }

  std::vector<std::pair<std::string, at::Tensor>> tensors;
  std::vector<std::pair<std::string, at::Tensor>> all;
  for (const auto& kv : m.model->named_parameters(true)) all.emplace_back(kv.key(), kv.value());
  for (const auto& kv : m.model->named_buffers(true)) all.emplace_back(kv.key(), kv.value());
  for (const auto& [name, tensor] : all) {
    auto [block, rest] = split_block(name);
    std::string export_name = name;
    if (block >= 0) {
      const bool linear = modes.at(size_t(block)) != AttentionMode::Softmax;
      const bool linear_branch = rest.rfind("attn.linear.", 0) == 0;
      const bool softmax_branch = !linear_branch && rest.rfind("attn.", 0) == 0;
      if ((linear && softmax_branch) || (!linear && linear_branch)) {
        ++summary.dropped_tensors;
        continue;
      }
      if (linear_branch)
        export_name = "blocks." + std::to_string(block) + ".attn." + rest.substr(12);
    }
    at::Tensor t = tensor.detach().to(at::kCPU);
    if (t.is_floating_point()) t = t.to(at::kFloat);
    summary.parameters += t.numel();
    tensors.emplace_back(export_name, t.contiguous());
  }
  summary.tensors = int64_t(tensors.size());

  std::map<std::string, std::string> metadata{
      {"format", "pt"},
      {"adala.format", "adala-vit-export/1"},
      {"adala.config", vit_config_to_json(m.model->config()).dump()},
      {kPretrainedConfigKey, pretrained_config_to_json(m.data).dump()},
      {"adala.exported_from", weights}};
  for (auto& [key, value] : attention_plan_metadata(m.model->attention_plan()))
    metadata[key] = value;
  write_safetensors(out, tensors, metadata);
  return summary;
}

}  // namespace adala
