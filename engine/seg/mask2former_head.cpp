#include "engine/seg/mask2former_head.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include <torch/nn/functional/activation.h>
#include <torch/nn/functional/pixelshuffle.h>
#include <torch/nn/init.h>

#include "engine/seg/linear_head.h"

namespace adala {

namespace {

void require(bool ok, const std::string& field, const std::string& reason) {
  if (!ok) throw std::invalid_argument("mask2former." + field + ": " + reason);
}

void xavier(const torch::nn::Linear& l) {
  torch::NoGradGuard g;
  torch::nn::init::xavier_uniform_(l->weight);
  if (l->bias.defined()) l->bias.zero_();
}

}  // namespace

void Mask2FormerOptions::validate() const {
  require(embed_dim > 0, "embed_dim", "must be > 0");
  require(num_levels >= 1, "num_levels", "must be >= 1");
  require(num_classes >= 1, "num_classes", "must be >= 1");
  require(num_queries >= 1, "num_queries", "must be >= 1");
  require(hidden_dim > 0 && hidden_dim % 4 == 0, "hidden_dim", "must be a positive multiple of 4");
  require(num_heads >= 1 && hidden_dim % num_heads == 0, "num_heads", "must divide hidden_dim");
  require(num_layers >= 1, "num_layers", "must be >= 1");
  require(ffn_dim >= 1, "ffn_dim", "must be >= 1");
  require(mask_dim >= 1, "mask_dim", "must be >= 1");
  check_head_upsample(upsample, "Mask2FormerHead");
}

torch::Tensor sine_position_encoding(int64_t h, int64_t w, int64_t dim) {
  const int64_t feats = dim / 2;
  const double scale = 2.0 * M_PI, eps = 1e-6;
  auto y = (torch::arange(1, h + 1, torch::kFloat) / (double(h) + eps) * scale)
               .view({h, 1})
               .expand({h, w});
  auto x = (torch::arange(1, w + 1, torch::kFloat) / (double(w) + eps) * scale)
               .view({1, w})
               .expand({h, w});
  auto i = torch::arange(feats, torch::kFloat);
  auto dim_t = torch::pow(10000.0, 2.0 * torch::floor(i / 2.0) / double(feats));
  auto encode = [&](const torch::Tensor& c) {
    auto p = c.unsqueeze(-1) / dim_t;  // (h, w, feats)
    auto even = p.index({"...", torch::indexing::Slice(0, torch::indexing::None, 2)}).sin();
    auto odd = p.index({"...", torch::indexing::Slice(1, torch::indexing::None, 2)}).cos();
    return torch::stack({even, odd}, -1).flatten(-2);
  };
  return torch::cat({encode(y), encode(x)}, -1).reshape({h * w, 2 * feats});
}

DecoderAttentionImpl::DecoderAttentionImpl(int64_t dim, int64_t num_heads) : num_heads_(num_heads) {
  q_proj = register_module("q_proj", torch::nn::Linear(dim, dim));
  k_proj = register_module("k_proj", torch::nn::Linear(dim, dim));
  v_proj = register_module("v_proj", torch::nn::Linear(dim, dim));
  out_proj = register_module("out_proj", torch::nn::Linear(dim, dim));
  for (auto* l : {&q_proj, &k_proj, &v_proj, &out_proj}) xavier(*l);
}

torch::Tensor DecoderAttentionImpl::forward(const torch::Tensor& query, const torch::Tensor& key,
                                            const torch::Tensor& value,
                                            const torch::Tensor& blocked) {
  const int64_t b = query.size(0), l = query.size(1), s = key.size(1), d = query.size(2);
  const int64_t hd = d / num_heads_;
  auto heads = [&](const torch::Tensor& t, int64_t n) {
    return t.view({b, n, num_heads_, hd}).transpose(1, 2);  // (B, h, n, hd)
  };
  auto q = heads(q_proj->forward(query), l) * (1.0 / std::sqrt(double(hd)));
  auto k = heads(k_proj->forward(key), s);
  auto v = heads(v_proj->forward(value), s);
  auto scores = torch::matmul(q, k.transpose(-2, -1));  // (B, h, L, S)
  if (blocked.defined())
    scores = scores.masked_fill(blocked.unsqueeze(1), -std::numeric_limits<float>::infinity());
  auto out = torch::matmul(torch::softmax(scores, -1), v);
  return out_proj->forward(out.transpose(1, 2).reshape({b, l, d}));
}

Mask2FormerDecoderLayerImpl::Mask2FormerDecoderLayerImpl(int64_t dim, int64_t num_heads,
                                                         int64_t ffn_dim) {
  cross_attn = register_module("cross_attn", DecoderAttention(dim, num_heads));
  self_attn = register_module("self_attn", DecoderAttention(dim, num_heads));
  norm1 = register_module("norm1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim})));
  norm2 = register_module("norm2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim})));
  norm3 = register_module("norm3", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim})));
  fc1 = register_module("fc1", torch::nn::Linear(dim, ffn_dim));
  fc2 = register_module("fc2", torch::nn::Linear(ffn_dim, dim));
  xavier(fc1);
  xavier(fc2);
}

torch::Tensor Mask2FormerDecoderLayerImpl::forward(torch::Tensor x, const torch::Tensor& query_pos,
                                                   const torch::Tensor& memory,
                                                   const torch::Tensor& memory_pos,
                                                   const torch::Tensor& blocked) {
  x = norm1->forward(x + cross_attn->forward(x + query_pos, memory + memory_pos, memory, blocked));
  auto qk = x + query_pos;
  x = norm2->forward(x + self_attn->forward(qk, qk, x));
  return norm3->forward(x + fc2->forward(torch::relu(fc1->forward(x))));
}

Mask2FormerHeadImpl::Mask2FormerHeadImpl(Mask2FormerOptions o) : options_(o) {
  options_.validate();
  const int64_t hd = o.hidden_dim;
  level_norms = register_module("level_norms", torch::nn::ModuleList());
  input_proj = register_module("input_proj", torch::nn::ModuleList());
  for (int64_t l = 0; l < o.num_levels; ++l) {
    level_norms->push_back(torch::nn::LayerNorm(torch::nn::LayerNormOptions({o.embed_dim})));
    torch::nn::Linear proj(o.embed_dim, hd);
    xavier(proj);
    input_proj->push_back(proj);
  }
  level_embed = register_parameter("level_embed", torch::zeros({o.num_levels, hd}));
  query_feat = register_parameter("query_feat", torch::zeros({o.num_queries, hd}));
  query_embed = register_parameter("query_embed", torch::zeros({o.num_queries, hd}));
  {
    torch::NoGradGuard g;
    torch::nn::init::normal_(level_embed, 0.0, 0.02);
    torch::nn::init::normal_(query_feat, 0.0, 1.0);
    torch::nn::init::normal_(query_embed, 0.0, 1.0);
  }
  pixel_in = register_module("pixel_in", torch::nn::Conv2d(torch::nn::Conv2dOptions(
                                             o.embed_dim * o.num_levels, o.mask_dim, 1)));
  pixel_norm = register_module("pixel_norm", torch::nn::GroupNorm(torch::nn::GroupNormOptions(
                                                 o.mask_dim % 8 == 0 ? 8 : 1, o.mask_dim)));
  pixel_out = register_module(
      "pixel_out", torch::nn::Conv2d(
                       torch::nn::Conv2dOptions(o.mask_dim, o.mask_dim * o.upsample * o.upsample, 3)
                           .padding(1)));
  layers = register_module("layers", torch::nn::ModuleList());
  for (int64_t i = 0; i < o.num_layers; ++i)
    layers->push_back(Mask2FormerDecoderLayer(hd, o.num_heads, o.ffn_dim));
  decoder_norm =
      register_module("decoder_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({hd})));
  class_embed = register_module("class_embed", torch::nn::Linear(hd, o.num_classes + 1));
  mask_fc1 = register_module("mask_fc1", torch::nn::Linear(hd, hd));
  mask_fc2 = register_module("mask_fc2", torch::nn::Linear(hd, hd));
  mask_fc3 = register_module("mask_fc3", torch::nn::Linear(hd, o.mask_dim));
}

Mask2FormerHeadImpl::Prediction Mask2FormerHeadImpl::predict(const torch::Tensor& queries,
                                                             const torch::Tensor& mask_features) {
  Prediction p;
  auto x = decoder_norm->forward(queries);
  p.class_logits = class_embed->forward(x);
  auto embed = mask_fc3->forward(torch::relu(mask_fc2->forward(torch::relu(mask_fc1->forward(x)))));
  const auto b = mask_features.size(0), gh = mask_features.size(2), gw = mask_features.size(3);
  p.mask_logits = torch::bmm(embed, mask_features.flatten(2)).view({b, queries.size(1), gh, gw});
  // Next layer's cross-attention sees only where this mask is on; an empty mask sees all.
  auto on_grid = p.mask_logits.detach();
  if (options_.upsample > 1) on_grid = torch::avg_pool2d(on_grid, options_.upsample);
  auto blocked = on_grid.flatten(2).lt(0.0);  // sigmoid < 0.5
  auto all_blocked = blocked.all(-1, true);
  p.blocked = blocked.logical_and(all_blocked.logical_not());
  return p;
}

torch::Tensor Mask2FormerHeadImpl::pixel_decoder(const std::vector<torch::Tensor>& grids) {
  auto out =
      pixel_out->forward(torch::relu(pixel_norm->forward(pixel_in->forward(torch::cat(grids, 1)))));
  namespace F = torch::nn::functional;
  if (options_.upsample == 1) return out;
  return F::pixel_shuffle(out, F::PixelShuffleFuncOptions(options_.upsample));
}

Mask2FormerOutput Mask2FormerHeadImpl::forward(const std::vector<torch::Tensor>& levels,
                                               int64_t grid_h, int64_t grid_w) {
  const auto& o = options_;
  if (int64_t(levels.size()) != o.num_levels)
    throw std::invalid_argument("Mask2FormerHead: expected " + std::to_string(o.num_levels) +
                                " feature levels, got " + std::to_string(levels.size()));
  const int64_t b = levels[0].size(0);
  std::vector<torch::Tensor> memory, grids;
  for (int64_t l = 0; l < o.num_levels; ++l) {
    auto normed = level_norms[size_t(l)]->as<torch::nn::LayerNorm>()->forward(levels[size_t(l)]);
    grids.push_back(tokens_to_grid(normed, grid_h, grid_w));
    memory.push_back(input_proj[size_t(l)]->as<torch::nn::Linear>()->forward(normed) +
                     level_embed[l]);
  }
  auto mask_features = pixel_decoder(grids);
  auto pos =
      sine_position_encoding(grid_h, grid_w, o.hidden_dim).to(mask_features.device()).unsqueeze(0);
  auto query_pos = query_embed.unsqueeze(0).expand({b, -1, -1});
  auto x = query_feat.unsqueeze(0).expand({b, -1, -1});

  Mask2FormerOutput out;
  auto pred = predict(x, mask_features);
  for (int64_t i = 0; i < o.num_layers; ++i) {
    out.class_logits.push_back(pred.class_logits);
    out.mask_logits.push_back(pred.mask_logits);
    auto layer = layers[size_t(i)]->as<Mask2FormerDecoderLayer>();
    x = layer->forward(x, query_pos, memory[size_t(i % o.num_levels)], pos, pred.blocked);
    pred = predict(x, mask_features);
  }
  out.class_logits.push_back(pred.class_logits);
  out.mask_logits.push_back(pred.mask_logits);
  return out;
}

}  // namespace adala
