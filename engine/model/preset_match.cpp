#include "engine/model/preset_match.h"

#include <cmath>
#include <set>
#include <stdexcept>

namespace adala {

namespace {

const std::vector<int64_t>* find(const ShapeMap& s, const std::string& name) {
  auto it = s.find(name);
  return it == s.end() ? nullptr : &it->second;
}

int64_t square_root(int64_t n) {
  if (n <= 0) return -1;
  auto r = static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(n))));
  return r * r == n ? r : -1;
}

int64_t preset_pos_prefix(const ViTConfig& c) {
  return c.no_embed_class ? 0 : c.num_prefix_tokens();
}

struct Comparison {
  std::vector<std::string> required;  // architecture differences: not this preset
  std::vector<std::string> soft;      // differences loading can bridge
};

std::string vs(const std::string& what, int64_t have, int64_t preset) {
  return what + " " + std::to_string(have) + " vs " + std::to_string(preset);
}

Comparison compare(const VitShapeSummary& s, const ViTConfig& c) {
  Comparison r;
  auto req = [&](bool same, const std::string& what) {
    if (!same) r.required.push_back(what);
  };
  auto yes_no = [](bool b) { return std::string(b ? "yes" : "no"); };
  req(s.embed_dim == c.embed_dim, vs("embed_dim", s.embed_dim, c.embed_dim));
  req(s.depth == c.depth, vs("depth", s.depth, c.depth));
  req(s.patch_size == c.patch_size, vs("patch", s.patch_size, c.patch_size));
  req(s.in_chans == c.in_chans, vs("in_chans", s.in_chans, c.in_chans));
  req(s.mlp_hidden == c.mlp_hidden(), vs("mlp hidden", s.mlp_hidden, c.mlp_hidden()));
  req(s.num_register_tokens == c.num_register_tokens,
      vs("registers", s.num_register_tokens, c.num_register_tokens));
  req(s.class_token == c.class_token,
      "class token " + yes_no(s.class_token) + " vs " + yes_no(c.class_token));
  req(s.layer_scale == c.layer_scale,
      "LayerScale " + yes_no(s.layer_scale) + " vs " + yes_no(c.layer_scale));
  req(s.qkv_bias == c.qkv_bias, "qkv bias " + yes_no(s.qkv_bias) + " vs " + yes_no(c.qkv_bias));
  if (s.img_size() > 0 && s.img_size() != c.img_size)
    r.soft.push_back(vs("image size", s.img_size(), c.img_size) + " (position grid " +
                     std::to_string(s.grid) + "x" + std::to_string(s.grid) + ")");
  if (s.pos_prefix >= 0 && s.pos_prefix != preset_pos_prefix(c)) {
    std::string why = vs("pos_embed prefix slots", s.pos_prefix, preset_pos_prefix(c));
    if (s.pos_prefix == 1 && preset_pos_prefix(c) == 0 && c.class_token)
      why += " (the cls slot is folded into cls_token when loading)";
    else if (s.pos_prefix == 0 && preset_pos_prefix(c) == 1 && c.num_register_tokens == 0)
      why += " (a zero cls slot is inserted when loading)";
    r.soft.push_back(why);
  }
  if (s.num_classes != c.num_classes)
    r.soft.push_back(vs("head classes", s.num_classes, c.num_classes));
  return r;
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? "; " : "") + v[i];
  return out;
}

}  // namespace

std::string VitShapeSummary::to_string() const {
  if (!valid) return "not a ViT (no patch_embed.proj.weight [D, C, p, p])";
  std::string s = "D=" + std::to_string(embed_dim) + " depth=" + std::to_string(depth) +
                  " patch=" + std::to_string(patch_size) + " in=" + std::to_string(in_chans) +
                  " mlp=" + std::to_string(mlp_hidden);
  if (class_token) s += " cls";
  if (num_register_tokens) s += " reg=" + std::to_string(num_register_tokens);
  if (layer_scale) s += " ls";
  if (qkv_bias) s += " qkv_bias";
  if (grid > 0)
    s += " pos=" + std::to_string(pos_prefix) + "+" + std::to_string(grid) + "x" +
         std::to_string(grid) + " (img " + std::to_string(img_size()) + ")";
  else if (pos_len >= 0)
    s += " pos=" + std::to_string(pos_len) + " (not a square grid)";
  s += " head=" + std::to_string(num_classes);
  if (linear_branch) s += " +linear-branch";
  return s;
}

VitShapeSummary summarise_vit_shapes(const ShapeMap& shapes) {
  VitShapeSummary s;
  const auto* pw = find(shapes, "patch_embed.proj.weight");
  if (!pw || pw->size() != 4 || (*pw)[2] != (*pw)[3]) return s;
  s.valid = true;
  s.embed_dim = (*pw)[0];
  s.in_chans = (*pw)[1];
  s.patch_size = (*pw)[2];
  s.class_token = find(shapes, "cls_token") != nullptr;
  if (const auto* r = find(shapes, "reg_token"); r && r->size() == 3)
    s.num_register_tokens = (*r)[1];
  if (const auto* h = find(shapes, "head.weight"); h && h->size() == 2) s.num_classes = (*h)[0];
  std::set<int64_t> blocks;
  for (const auto& [name, shape] : shapes) {
    if (name.rfind("blocks.", 0) != 0) continue;
    const size_t dot = name.find('.', 7);
    if (dot == std::string::npos) continue;
    const std::string idx = name.substr(7, dot - 7);
    if (idx.empty() || idx.find_first_not_of("0123456789") != std::string::npos) continue;
    blocks.insert(std::stoll(idx));
    if (name.find(".attn.linear.") != std::string::npos) s.linear_branch = true;
  }
  s.depth = static_cast<int64_t>(blocks.size());
  if (!blocks.empty() && *blocks.rbegin() != s.depth - 1)
    s.problems.push_back("block indices are not 0.." + std::to_string(s.depth - 1));
  s.layer_scale = find(shapes, "blocks.0.ls1.gamma") != nullptr;
  s.qkv_bias = find(shapes, "blocks.0.attn.qkv.bias") != nullptr;
  if (const auto* f = find(shapes, "blocks.0.mlp.fc1.weight"); f && f->size() == 2)
    s.mlp_hidden = (*f)[0];
  if (const auto* p = find(shapes, "pos_embed"); p && p->size() == 3) {
    s.pos_len = (*p)[1];
    const int64_t prefix = (s.class_token ? 1 : 0) + s.num_register_tokens;
    for (int64_t candidate : {int64_t{0}, int64_t{s.class_token ? 1 : 0}, prefix}) {
      const int64_t g = square_root(s.pos_len - candidate);
      if (g > 0) {
        s.pos_prefix = candidate;
        s.grid = g;
        break;
      }
    }
    if (s.grid < 0)
      s.problems.push_back("pos_embed has " + std::to_string(s.pos_len) +
                           " slots: no square patch grid after the prefix");
  }
  return s;
}

std::vector<std::string> matching_presets(const ShapeMap& shapes) {
  return guess_preset(shapes).matches;
}

PresetGuess guess_preset(const ShapeMap& shapes) {
  PresetGuess g;
  const auto s = summarise_vit_shapes(shapes);
  if (!s.valid) {
    g.reason = s.to_string();
    return g;
  }
  size_t best_soft = SIZE_MAX, closest_req = SIZE_MAX;
  std::string closest, closest_why;
  for (const auto& name : vit_preset_names()) {
    const ViTConfig c = vit_preset(name);
    const auto cmp = compare(s, c);
    if (cmp.required.empty()) {
      g.matches.push_back(name);
      if (cmp.soft.size() < best_soft) {
        best_soft = cmp.soft.size();
        g.best = name;
        g.exact = cmp.soft.empty();
        g.reason = cmp.soft.empty()
                       ? "architecture, image size, pos_embed layout and head all agree"
                       : "architecture agrees; differs in " + join(cmp.soft);
      }
    } else if (cmp.required.size() < closest_req) {
      closest_req = cmp.required.size();
      closest = name;
      closest_why = join(cmp.required);
    }
  }
  if (g.matches.empty()) {
    g.best = closest;
    g.reason = "no preset fits; closest is " + closest + " (differs in " + closest_why + ")";
  } else {
    g.reason += "; heads are not recorded in the shapes (preset has " +
                std::to_string(vit_preset(g.best).num_heads) + ")";
  }
  return g;
}

ViTConfig config_from_shapes(const ShapeMap& shapes, int64_t heads) {
  const auto g = guess_preset(shapes);
  const auto s = summarise_vit_shapes(shapes);
  ViTConfig c;
  if (!g.matches.empty()) {
    c = vit_preset(g.best);
  } else if (heads > 0 && s.valid && s.depth > 0 && s.mlp_hidden > 0 && s.problems.empty()) {
    // No preset, but the user gave what the shapes cannot say: the rest is read off them.
    c.name = "custom";
    c.embed_dim = s.embed_dim;
    c.depth = s.depth;
    c.patch_size = s.patch_size;
    c.in_chans = s.in_chans;
    c.mlp_ratio = double(s.mlp_hidden) / double(s.embed_dim);
    // mlp_hidden() truncates: keep the ratio on the right side of the integer.
    if (c.mlp_hidden() != s.mlp_hidden)
      c.mlp_ratio = (double(s.mlp_hidden) + 0.5) / double(s.embed_dim);
    c.qkv_bias = s.qkv_bias;
    c.class_token = s.class_token;
    c.num_register_tokens = s.num_register_tokens;
    c.layer_scale = s.layer_scale;
  } else {
    throw std::invalid_argument("no ViT preset fits these tensors: " + g.reason);
  }
  if (s.img_size() > 0) c.img_size = s.img_size();
  if (s.pos_prefix == 0 && c.num_prefix_tokens() > 0)
    c.no_embed_class = true;
  else if (s.pos_prefix > 0 && s.pos_prefix == c.num_prefix_tokens())
    c.no_embed_class = false;
  else if (s.pos_prefix > 0)
    c.no_embed_class = true;  // Meta layout: cls slot only, folded into cls_token at load
  c.num_classes = s.num_classes;
  if (heads > 0) c.num_heads = heads;
  c.validate();
  return c;
}

}  // namespace adala
