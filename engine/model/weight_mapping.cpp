#include "engine/model/weight_mapping.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace adala {

namespace {

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

bool is_number(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::vector<std::string> split_dots(const std::string& s) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t dot = s.find('.', start);
    parts.push_back(s.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return parts;
}

// "blocks.{chunk}.{i}.rest" (Meta's block_chunks) -> true.
bool is_chunked_block_name(const std::string& name) {
  if (!starts_with(name, "blocks.")) return false;
  auto parts = split_dots(name);
  return parts.size() >= 4 && is_number(parts[1]) && is_number(parts[2]);
}

bool all_have_prefix(const std::vector<std::string>& names, const std::string& prefix) {
  if (names.empty()) return false;
  return std::all_of(names.begin(), names.end(),
                     [&](const std::string& n) { return starts_with(n, prefix); });
}

std::string strip_module_prefix(const std::string& name, size_t levels) {
  return name.substr(levels * std::string("module.").size());
}

size_t module_prefix_levels(const std::vector<std::string>& names) {
  size_t levels = 0;
  std::string prefix = "module.";
  while (all_have_prefix(names, prefix)) {
    ++levels;
    prefix += "module.";
  }
  return levels;
}

std::string hf_strip(const std::string& name) {
  return starts_with(name, "dinov2.") ? name.substr(7) : name;
}

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}

}  // namespace

const char* to_string(CheckpointFormat format) {
  switch (format) {
    case CheckpointFormat::Timm:
      return "timm";
    case CheckpointFormat::Adala:
      return "adala";
    case CheckpointFormat::MetaDinov2:
      return "meta-dinov2";
    case CheckpointFormat::HuggingFaceDinov2:
      return "hf-dinov2";
    case CheckpointFormat::Unknown:
      return "unknown";
  }
  return "unknown";
}

std::string describe(CheckpointFormat format) {
  switch (format) {
    case CheckpointFormat::Timm:
      return "timm (our names; no linear-attention branch)";
    case CheckpointFormat::Adala:
      return "adala (timm names + Stage-1 linear-attention branch)";
    case CheckpointFormat::MetaDinov2:
      return "Meta DINOv2 (register_tokens, mask_token, pos_embed with cls slot, "
             "blocks.{chunk}.{i})";
    case CheckpointFormat::HuggingFaceDinov2:
      return "Hugging Face DINOv2 (embeddings.*, encoder.layer.{i}.*, separate q/k/v)";
    case CheckpointFormat::Unknown:
      return "unknown (no ViT tensor names recognised)";
  }
  return "unknown";
}

CheckpointFormat detect_checkpoint_format(const std::vector<std::string>& raw) {
  const size_t levels = module_prefix_levels(raw);
  std::vector<std::string> names;
  for (const auto& n : raw) names.push_back(strip_module_prefix(n, levels));

  for (const auto& n0 : names) {
    const std::string n = hf_strip(n0);
    if (starts_with(n, "embeddings.") || starts_with(n, "encoder.layer.") ||
        starts_with(n, "layernorm."))
      return CheckpointFormat::HuggingFaceDinov2;
  }
  for (const auto& n : names) {
    if (n == "mask_token" || n == "register_tokens" || is_chunked_block_name(n) ||
        n.find(".mlp.w12.") != std::string::npos || n.find(".mlp.w3.") != std::string::npos)
      return CheckpointFormat::MetaDinov2;
  }
  bool vit_like = false;
  for (const auto& n : names) {
    if (n.find(".attn.linear.") != std::string::npos) return CheckpointFormat::Adala;
    if (starts_with(n, "patch_embed.") || starts_with(n, "blocks.") || n == "pos_embed" ||
        n == "cls_token")
      vit_like = true;
  }
  return vit_like ? CheckpointFormat::Timm : CheckpointFormat::Unknown;
}

KeyMapping plan_key_mapping(const std::vector<std::string>& names) {
  return plan_key_mapping(names, detect_checkpoint_format(names));
}

namespace {

void map_identity(KeyMapping& m, const std::string& source, const std::string& target) {
  m.entries.push_back({target, {source}});
}

// Meta's DINOv2: register_tokens -> reg_token, blocks.{chunk}.{i} -> blocks.{i}, mask_token
// dropped, SwiGLU feed-forward unsupported.
void map_meta_dinov2(const std::vector<std::string>& names, size_t levels, KeyMapping& m) {
  bool swiglu = false;
  for (const auto& source : names) {
    std::string n = strip_module_prefix(source, levels);
    if (n == "mask_token") {
      m.dropped.push_back(source);
      continue;
    }
    if (n == "register_tokens") {
      map_identity(m, source, "reg_token");
      continue;
    }
    if (is_chunked_block_name(n)) {
      auto parts = split_dots(n);  // blocks, chunk, i, rest...
      parts.erase(parts.begin() + 1);
      n = join(parts, ".");
    }
    if (n.find(".mlp.w12.") != std::string::npos || n.find(".mlp.w3.") != std::string::npos) {
      m.unsupported.push_back(source);
      swiglu = true;
      continue;
    }
    map_identity(m, source, n);
  }
  if (swiglu)
    m.notes.push_back(
        "SwiGLU feed-forward (mlp.w12 / mlp.w3, as in DINOv2 ViT-g) is not "
        "supported: our blocks use fc1 -> GELU -> fc2");
}

// (layer, suffix) -> the query, key and value source names of Hugging Face's separate q/k/v.
using HfQkvSources = std::map<std::pair<int64_t, std::string>, std::array<std::string, 3>>;

// One Hugging Face name under "encoder.layer.", without its prefix `n`: mapped to our block's
// name, set aside as a q/k/v part, or unsupported (returns true: SwiGLU).
bool map_hf_layer_tensor(const std::string& source, const std::string& n, KeyMapping& m,
                         HfQkvSources& qkv) {
  auto parts = split_dots(n);
  if (parts.size() < 4 || !is_number(parts[2])) {
    map_identity(m, source, n);
    return false;
  }
  const int64_t layer = std::stoll(parts[2]);
  const std::string rest = join(std::vector<std::string>(parts.begin() + 3, parts.end()), ".");
  const std::string block = "blocks." + parts[2] + ".";
  static const char* kQkv[3] = {"attention.attention.query.", "attention.attention.key.",
                                "attention.attention.value."};
  for (int k = 0; k < 3; ++k) {
    if (starts_with(rest, kQkv[k])) {
      qkv[{layer, rest.substr(std::string(kQkv[k]).size())}][static_cast<size_t>(k)] = source;
      return false;
    }
  }
  if (starts_with(rest, "attention.output.dense."))
    map_identity(m, source, block + "attn.proj." + rest.substr(23));
  else if (rest == "layer_scale1.lambda1")
    map_identity(m, source, block + "ls1.gamma");
  else if (rest == "layer_scale2.lambda1")
    map_identity(m, source, block + "ls2.gamma");
  else if (starts_with(rest, "norm1.") || starts_with(rest, "norm2.") ||
           starts_with(rest, "mlp.fc1.") || starts_with(rest, "mlp.fc2."))
    map_identity(m, source, block + rest);
  else if (starts_with(rest, "mlp.weights_in.") || starts_with(rest, "mlp.weights_out.")) {
    m.unsupported.push_back(source);
    return true;
  } else {
    map_identity(m, source, n);
  }
  return false;
}

// Each layer's query, key and value concatenated into our qkv; a layer missing one of them keeps
// the ones it has under their own names, with a note.
void merge_hf_qkv(const HfQkvSources& qkv, size_t levels, KeyMapping& m) {
  static const char* kLetters[3] = {"query", "key", "value"};
  for (const auto& [key, sources] : qkv) {
    const std::string target = "blocks." + std::to_string(key.first) + ".attn.qkv." + key.second;
    if (!sources[0].empty() && !sources[1].empty() && !sources[2].empty()) {
      m.entries.push_back({target, {sources[0], sources[1], sources[2]}});
      continue;
    }
    std::string have;
    for (size_t k = 0; k < 3; ++k) {
      if (sources[k].empty()) continue;
      map_identity(m, sources[k], hf_strip(strip_module_prefix(sources[k], levels)));
      have += (have.empty() ? "" : ", ") + std::string(kLetters[k]);
    }
    m.notes.push_back(target + ": the checkpoint has only " + have +
                      " (query, key and value are needed)");
  }
}

// Hugging Face's DINOv2: embeddings.* and layernorm.* to ours, encoder.layer.{i}.* to our
// blocks with q/k/v concatenated, mask_token dropped, SwiGLU feed-forward unsupported.
void map_hf_dinov2(const std::vector<std::string>& names, size_t levels, KeyMapping& m) {
  HfQkvSources qkv;
  bool swiglu = false;
  for (const auto& source : names) {
    const std::string n = hf_strip(strip_module_prefix(source, levels));
    if (n == "embeddings.mask_token") {
      m.dropped.push_back(source);
    } else if (n == "embeddings.cls_token") {
      map_identity(m, source, "cls_token");
    } else if (n == "embeddings.register_tokens") {
      map_identity(m, source, "reg_token");
    } else if (n == "embeddings.position_embeddings") {
      map_identity(m, source, "pos_embed");
    } else if (starts_with(n, "embeddings.patch_embeddings.projection.")) {
      map_identity(m, source, "patch_embed.proj." + n.substr(39));
    } else if (starts_with(n, "layernorm.")) {
      map_identity(m, source, "norm." + n.substr(10));
    } else if (starts_with(n, "encoder.layer.")) {
      if (map_hf_layer_tensor(source, n, m, qkv)) swiglu = true;
    } else {
      map_identity(m, source, n);
    }
  }
  merge_hf_qkv(qkv, levels, m);
  if (swiglu)
    m.notes.push_back(
        "SwiGLU feed-forward (mlp.weights_in / mlp.weights_out) is not "
        "supported: our blocks use fc1 -> GELU -> fc2");
}

}  // namespace

KeyMapping plan_key_mapping(const std::vector<std::string>& names, CheckpointFormat format) {
  KeyMapping m;
  m.format = format;
  const size_t levels = module_prefix_levels(names);
  if (levels > 0)
    m.notes.push_back("stripped a \"" + std::string("module.") + "\" prefix (x" +
                      std::to_string(levels) + ") from every name");
  if (format == CheckpointFormat::MetaDinov2)
    map_meta_dinov2(names, levels, m);
  else if (format == CheckpointFormat::HuggingFaceDinov2)
    map_hf_dinov2(names, levels, m);
  else
    for (const auto& source : names) map_identity(m, source, strip_module_prefix(source, levels));
  return m;
}

namespace {

std::vector<int64_t> shape_of(const at::Tensor& t) { return t.sizes().vec(); }
std::vector<int64_t> shape_of(const std::vector<int64_t>& s) { return s; }

bool concatenable(const std::vector<std::vector<int64_t>>& shapes) {
  for (const auto& s : shapes) {
    if (s.empty() || s.size() != shapes[0].size()) return false;
    for (size_t d = 1; d < s.size(); ++d)
      if (s[d] != shapes[0][d]) return false;
  }
  return true;
}

at::Tensor concat(const std::vector<at::Tensor>& parts) {
  std::vector<at::Tensor> same;
  for (const auto& p : parts) same.push_back(p.to(parts[0].scalar_type()));
  return at::cat(same, 0);
}

std::vector<int64_t> concat(const std::vector<std::vector<int64_t>>& parts) {
  auto out = parts[0];
  for (size_t i = 1; i < parts.size(); ++i) out[0] += parts[i][0];
  return out;
}

std::string shape_str(const std::vector<int64_t>& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

template <typename T>
void apply_plan(const KeyMapping& mapping, const std::map<std::string, T>& in,
                std::map<std::string, T>& out, std::map<std::string, std::string>* origin,
                std::vector<std::string>* notes) {
  auto put = [&](const std::string& target, T value, const std::string& from) {
    if (out.count(target)) {
      // Two checkpoint names claim one of ours: keep the first, surface the second as is.
      if (notes)
        notes->push_back(from + " maps to " + target + ", which another tensor already filled");
      out[from] = std::move(value);
      if (origin) (*origin)[from] = from;
      return;
    }
    out[target] = std::move(value);
    if (origin) (*origin)[target] = from;
  };
  for (const auto& e : mapping.entries) {
    std::vector<T> parts;
    std::vector<std::vector<int64_t>> shapes;
    for (const auto& s : e.sources) {
      auto it = in.find(s);
      if (it == in.end()) break;
      parts.push_back(it->second);
      shapes.push_back(shape_of(it->second));
    }
    if (parts.size() != e.sources.size()) continue;  // a plan for other names
    if (parts.size() == 1) {
      put(e.target, parts[0], e.sources[0]);
      continue;
    }
    if (!concatenable(shapes)) {
      std::string detail;
      for (size_t i = 0; i < parts.size(); ++i)
        detail += (i ? ", " : "") + e.sources[i] + " " + shape_str(shapes[i]);
      if (notes) notes->push_back(e.target + ": cannot concatenate " + detail);
      for (size_t i = 0; i < parts.size(); ++i) put(e.sources[i], parts[i], e.sources[i]);
      continue;
    }
    put(e.target, concat(parts), join(e.sources, " + "));
  }
}

}  // namespace

MappedTensors apply_key_mapping(const KeyMapping& mapping,
                                const std::map<std::string, at::Tensor>& tensors) {
  MappedTensors out;
  apply_plan(mapping, tensors, out.tensors, &out.origin, &out.notes);
  return out;
}

std::map<std::string, std::vector<int64_t>> apply_key_mapping(
    const KeyMapping& mapping, const std::map<std::string, std::vector<int64_t>>& shapes) {
  std::map<std::string, std::vector<int64_t>> out;
  apply_plan(mapping, shapes, out, nullptr, nullptr);
  return out;
}

std::string adjust_pos_embed_layout(std::map<std::string, at::Tensor>& ours, int64_t model_pos_len,
                                    bool model_no_embed_class, bool model_class_token,
                                    int64_t model_num_registers) {
  auto pos_it = ours.find("pos_embed");
  if (pos_it == ours.end() || pos_it->second.dim() != 3) return "";
  at::Tensor pos = pos_it->second;
  const int64_t len = pos.size(1), dim = pos.size(2);
  auto cls_it = ours.find("cls_token");
  if (len == model_pos_len + 1 && model_no_embed_class && model_class_token &&
      cls_it != ours.end() && cls_it->second.dim() == 3 && cls_it->second.size(0) == 1 &&
      cls_it->second.size(1) == 1 && cls_it->second.size(2) == dim) {
    const auto type = cls_it->second.scalar_type();
    cls_it->second = (cls_it->second.to(at::kFloat) + pos.narrow(1, 0, 1).to(at::kFloat)).to(type);
    pos_it->second = pos.narrow(1, 1, len - 1).contiguous();
    return "pos_embed: folded the checkpoint's cls slot into cls_token (checkpoint " +
           shape_str(pos.sizes().vec()) + ", model has no_embed_class)";
  }
  if (len + 1 == model_pos_len && !model_no_embed_class && model_class_token &&
      model_num_registers == 0) {
    pos_it->second = at::cat({at::zeros({1, 1, dim}, pos.options()), pos}, 1);
    return "pos_embed: inserted a zero cls slot (checkpoint " + shape_str(pos.sizes().vec()) +
           " has none; its cls_token already carries the position)";
  }
  return "";
}

}  // namespace adala
