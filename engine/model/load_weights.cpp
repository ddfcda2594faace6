#include "engine/model/load_weights.h"

#include <torch/autograd.h>

#include "engine/json/json.h"
#include "engine/model/attention_plan.h"
#include "engine/model/preset_match.h"
#include "engine/model/vit_config_json.h"
#include "engine/model/weight_mapping.h"
#include "engine/model/weights_file_config.h"

namespace adala {

namespace {

const std::string kLinearInfix = ".attn.linear.";

bool is_linear_branch(const std::string& name) {
  return name.find(kLinearInfix) != std::string::npos;
}

std::string softmax_counterpart(const std::string& name) {
  std::string out = name;
  const size_t at = out.find(kLinearInfix);
  out.replace(at, kLinearInfix.size(), ".attn.");
  return out;
}

bool is_feature_map(const std::string& name) {
  return name.find(kLinearInfix + "feature_map.") != std::string::npos;
}

bool is_head(const std::string& name) { return name.rfind("head.", 0) == 0; }

std::string shape_str(at::IntArrayRef s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

std::string dtype_label(at::ScalarType t) {
  try {
    return safetensors_dtype_name(t);
  } catch (const SafetensorsError&) {
    return c10::toString(t);
  }
}

std::vector<std::pair<std::string, at::Tensor>> model_tensors(VisionTransformer& model) {
  std::vector<std::pair<std::string, at::Tensor>> out;
  for (const auto& kv : model->named_parameters(true)) out.emplace_back(kv.key(), kv.value());
  for (const auto& kv : model->named_buffers(true)) out.emplace_back(kv.key(), kv.value());
  return out;
}

// `adala export` names a linear block's linear path as the block's attention
// (blocks.{i}.attn.linear.X -> blocks.{i}.attn.X): its feature map and window mixing, which have
// no softmax counterpart, go back under the linear path they belong to.
void restore_exported_linear_names(std::map<std::string, at::Tensor>& ours,
                                   const std::map<std::string, at::Tensor>& model,
                                   std::map<std::string, std::string>& origin) {
  std::vector<std::pair<std::string, std::string>> renames;
  for (const auto& kv : ours) {
    const std::string& name = kv.first;
    const size_t at = name.find(".attn.");
    if (name.rfind("blocks.", 0) != 0 || at == std::string::npos || model.count(name)) continue;
    const std::string rest = name.substr(at + 6);
    if (rest.rfind("feature_map.", 0) != 0 && rest.rfind("window_mixing.", 0) != 0) continue;
    const std::string target = name.substr(0, at) + kLinearInfix + rest;
    if (model.count(target) && !ours.count(target)) renames.emplace_back(name, target);
  }
  for (const auto& [from, to] : renames) {
    ours[to] = ours.at(from);
    ours.erase(from);
    const auto o = origin.find(from);
    origin[to] = o == origin.end() ? from : o->second;
    if (o != origin.end()) origin.erase(from);
  }
}

// Maps the checkpoint's names to ours (weight_mapping.h), noting in `r` what the mapping dropped,
// could not represent or explained. The checkpoint's own tensors are released once mapped.
MappedTensors map_checkpoint_names(std::map<std::string, at::Tensor> tensors, LoadReport& r) {
  std::vector<std::string> names;
  for (const auto& kv : tensors) names.push_back(kv.first);
  const KeyMapping plan = plan_key_mapping(names);
  r.format = to_string(plan.format);
  for (const auto& d : plan.dropped) r.skipped.push_back(d + " (not used by this model)");
  for (const auto& u : plan.unsupported) r.unexpected.push_back(u);
  r.notes.insert(r.notes.end(), plan.notes.begin(), plan.notes.end());
  MappedTensors mapped = apply_key_mapping(plan, tensors);
  tensors.clear();
  r.notes.insert(r.notes.end(), mapped.notes.begin(), mapped.notes.end());
  return mapped;
}

// Brings the checkpoint's pos_embed to the model's layout (cls slot) and, where asked, grid.
void fit_pos_embed(std::map<std::string, at::Tensor>& ours, VisionTransformer& model,
                   const LoadOptions& o, LoadReport& r) {
  const ViTConfig& cfg = model->config();
  const int64_t model_pos_len = model->pos_embed.size(1);
  const std::string pos_note = adjust_pos_embed_layout(ours, model_pos_len, cfg.no_embed_class,
                                                       cfg.class_token, cfg.num_register_tokens);
  if (!pos_note.empty()) r.notes.push_back(pos_note);
  if (!o.interpolate_pos_embed) return;
  auto it = ours.find("pos_embed");
  const int64_t prefix = cfg.no_embed_class ? 0 : cfg.num_prefix_tokens();
  if (it != ours.end() && it->second.dim() == 3 && it->second.size(0) == 1 &&
      it->second.size(2) == cfg.embed_dim && it->second.size(1) != model_pos_len &&
      it->second.size(1) > prefix) {
    const int64_t g = cfg.grid_size();
    try {
      const auto before = it->second.sizes().vec();
      it->second = interpolate_pos_embed(it->second, prefix, g, g);
      r.notes.push_back("pos_embed: resampled bicubically from " + shape_str(before) + " to " +
                        shape_str(it->second.sizes()));
    } catch (const std::exception& e) {
      r.notes.push_back(std::string("pos_embed: cannot resample: ") + e.what());
    }
  }
}

// Our name, with the checkpoint name(s) it came from where they differ.
std::string origin_label(const std::map<std::string, std::string>& origin,
                         const std::string& name) {
  auto it = origin.find(name);
  if (it == origin.end() || it->second == name) return name;
  return name + " (from " + it->second + ")";
}

// The checkpoint's tensors the model has no place for: skipped (the head, not loaded) or
// unexpected, by their checkpoint names.
void report_unused_tensors(const MappedTensors& mapped,
                           const std::map<std::string, at::Tensor>& by_name, const LoadOptions& o,
                           LoadReport& r) {
  for (const auto& [name, t] : mapped.tensors) {
    auto it = mapped.origin.find(name);
    const std::string from = it == mapped.origin.end() ? name : it->second;
    if (!o.load_head && is_head(name)) {
      r.skipped.push_back(from + " (load_head = false)");
      continue;
    }
    if (by_name.count(name)) continue;
    r.unexpected.push_back(from == name ? name : from + " (as " + name + ")");
  }
}

// What loading will do, decided before any tensor of the model changes.
struct LoadMatch {
  std::vector<std::pair<at::Tensor, at::Tensor>> copies;  // dst, src; one per r.loaded
  std::vector<std::string> to_initialise;                 // linear branch from softmax
};

// Matches every model tensor with the checkpoint's: loaded, initialised from softmax, kept as
// initialised, missing or misshapen; notes the dtype conversions the copies make.
LoadMatch match_model_tensors(const std::vector<std::pair<std::string, at::Tensor>>& targets,
                              const std::map<std::string, at::Tensor>& by_name,
                              const MappedTensors& mapped, const LoadOptions& o, LoadReport& r) {
  LoadMatch match;
  std::map<std::string, int> conversions;
  for (const auto& [name, dst] : targets) {
    if (!o.load_head && is_head(name)) continue;
    auto it = mapped.tensors.find(name);
    if (it == mapped.tensors.end()) {
      if (is_linear_branch(name) && o.init_missing_linear_from_softmax) {
        if (is_feature_map(name)) {
          r.kept_initial.push_back(name);
          continue;
        }
        auto soft = by_name.find(softmax_counterpart(name));
        if (soft != by_name.end() && soft->second.sizes() == dst.sizes()) {
          match.to_initialise.push_back(name);
          continue;
        }
      }
      r.missing.push_back(name);
      continue;
    }
    const at::Tensor& src = it->second;
    if (src.sizes() != dst.sizes()) {
      r.misshapen.push_back(origin_label(mapped.origin, name) + ": checkpoint " +
                            shape_str(src.sizes()) + " vs model " + shape_str(dst.sizes()));
      continue;
    }
    if (src.scalar_type() != dst.scalar_type())
      ++conversions[dtype_label(src.scalar_type()) + " -> " + dtype_label(dst.scalar_type())];
    match.copies.emplace_back(dst, src);
    r.loaded.push_back(name);
  }
  for (const auto& [what, n] : conversions)
    r.notes.push_back("converted " + std::to_string(n) + " tensor" + (n == 1 ? "" : "s") + " " +
                      what);
  return match;
}

// Refuses (or, with allow_nonfinite, notes) each tensor to be loaded that holds NaN or Inf.
void check_finite_copies(const LoadMatch& match, const std::map<std::string, std::string>& origin,
                         const LoadOptions& o, const std::string& source, LoadReport& r) {
  for (size_t i = 0; i < match.copies.size(); ++i) {
    const at::Tensor& src = match.copies[i].second;
    if (!src.is_floating_point()) continue;
    const int64_t bad = src.numel() - at::isfinite(src).sum().item<int64_t>();
    if (bad == 0) continue;
    const std::string what = "tensor \"" + origin_label(origin, r.loaded[i]) + "\" holds " +
                             std::to_string(bad) + " non-finite value" + (bad == 1 ? "" : "s") +
                             " (NaN or Inf) of " + std::to_string(src.numel());
    if (!o.allow_nonfinite)
      throw NonFiniteWeightsError(source + ": " + what +
                                  "; refusing to load it (--allow-nonfinite loads it anyway)");
    r.notes.push_back("warning: " + what);
  }
}

LoadReport load_impl(VisionTransformer& model, std::map<std::string, at::Tensor> tensors,
                     const LoadOptions& o, const std::string& source) {
  LoadReport r;
  MappedTensors mapped = map_checkpoint_names(std::move(tensors), r);
  fit_pos_embed(mapped.tensors, model, o, r);

  const auto targets = model_tensors(model);
  const std::map<std::string, at::Tensor> by_name(targets.begin(), targets.end());
  restore_exported_linear_names(mapped.tensors, by_name, mapped.origin);
  const LoadMatch match = match_model_tensors(targets, by_name, mapped, o, r);
  report_unused_tensors(mapped, by_name, o, r);

  r.initialised = match.to_initialise;
  if (o.strict && !r.ok()) throw WeightLoadError(source, r);
  check_finite_copies(match, mapped.origin, o, source, r);

  torch::NoGradGuard no_grad;
  for (const auto& [dst, src] : match.copies) dst.copy_(src);
  for (const auto& name : match.to_initialise)
    by_name.at(name).copy_(by_name.at(softmax_counterpart(name)));
  return r;
}

}  // namespace

std::string LoadReport::summary() const {
  std::string s = "format " + format + ": " + std::to_string(loaded.size()) + " loaded, " +
                  std::to_string(initialised.size()) + " initialised from softmax, " +
                  std::to_string(missing.size()) + " missing, " +
                  std::to_string(unexpected.size()) + " unexpected, " +
                  std::to_string(misshapen.size()) + " misshapen, " +
                  std::to_string(skipped.size()) + " skipped";
  for (const auto& n : missing) s += "\n  missing: " + n;
  for (const auto& n : unexpected) s += "\n  unexpected: " + n;
  for (const auto& n : misshapen) s += "\n  misshapen: " + n;
  for (const auto& n : skipped) s += "\n  skipped: " + n;
  for (const auto& n : kept_initial) s += "\n  kept as initialised: " + n;
  for (const auto& n : notes) s += "\n  note: " + n;
  return s;
}

WeightLoadError::WeightLoadError(const std::string& source, LoadReport report)
    : std::runtime_error(source + ": the weights do not fit the model: " + report.summary()),
      report_(std::move(report)) {}

LoadReport load_weights(VisionTransformer& model, const std::string& path,
                        const LoadOptions& options) {
  SafetensorsReader reader(path, options.mode);
  return load_impl(model, reader.load_all(), options, path);
}

LoadReport load_weights(VisionTransformer& model, std::map<std::string, at::Tensor> tensors,
                        const LoadOptions& options) {
  return load_impl(model, std::move(tensors), options, "tensors");
}

void save_weights(VisionTransformer& model, const std::string& path,
                  const std::map<std::string, std::string>& metadata) {
  std::vector<std::pair<std::string, at::Tensor>> tensors;
  for (const auto& [name, t] : model_tensors(model)) {
    auto cpu = t.detach().to(at::kCPU);
    if (cpu.is_floating_point()) cpu = cpu.to(at::kFloat);
    tensors.emplace_back(name, cpu);
  }
  std::map<std::string, std::string> meta = metadata;
  meta["adala.format"] = "adala-vit/1";
  meta["adala.config"] = vit_config_to_json(model->config()).dump();
  for (auto& [key, value] : attention_plan_metadata(model->attention_plan())) meta[key] = value;
  write_safetensors(path, tensors, meta);
}

VisionTransformer load_model(const std::string& path, const c10::Device& device, ReadMode mode,
                             const ArchitectureHint& hint) {
  SafetensorsReader reader(path, mode);
  const auto& meta = reader.metadata();
  const ViTConfig config = config_of_safetensors(reader, path, hint);
  VisionTransformer model(config);
  // The plan first: a window+linear block's mixing gamma is one of the file's tensors.
  if (const auto plan = attention_plan_from_metadata(meta, model->depth(), path)) {
    try {
      model->set_attention_plan(*plan);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(path + ": metadata \"" + kAttentionModesKey + "\": " + e.what());
    }
  }
  LoadOptions options;
  options.mode = mode;
  load_impl(model, reader.load_all(), options, path);
  model->to(device);
  return model;
}

}  // namespace adala
