#include "engine/measure/flop_model.h"

#include <fmt/printf.h>
#include <cstdio>
#include <stdexcept>

#include "engine/kernels/window_linear_attention.h"

namespace adala {

ModelFlops model_flops(const ViTConfig& c, AttentionMode mode, int64_t height, int64_t width,
                       int64_t window) {
  ModelFlops f;
  const double patches = double(height / c.patch_size) * double(width / c.patch_size);
  const double n = patches + double(c.num_prefix_tokens());
  const double d_model = double(c.embed_dim), d_head = double(c.head_dim());
  f.tokens = static_cast<int64_t>(n);
  f.depth = c.depth;
  f.patch_embed = patches * double(c.in_chans * c.patch_size * c.patch_size) * d_model;
  f.per_layer.qkv = 3.0 * n * d_model * d_model;
  f.per_layer.proj = n * d_model * d_model;
  f.per_layer.mlp = 2.0 * n * d_model * double(c.mlp_hidden());
  if (mode == AttentionMode::Softmax) {
    f.per_layer.attention = 2.0 * n * n * d_model;  // Q K^T and A V
  } else if (mode == AttentionMode::WindowLinear) {
    WindowLinearAttentionOptions o;
    o.grid_height = height / c.patch_size;
    o.grid_width = width / c.patch_size;
    o.prefix_tokens = c.num_prefix_tokens();
    o.window = window;
    f.per_layer.attention = double(c.num_heads) * window_linear_attention_macs(
                                                      o, c.head_dim(), c.head_dim(), c.head_dim());
  } else {
    // phi(K)^T [V | 1] and phi(Q) (that): the ones column is the normaliser.
    f.per_layer.attention = 2.0 * n * d_model * (d_head + 1.0);
  }
  f.head = c.num_classes > 0 ? d_model * double(c.num_classes) : 0.0;
  return f;
}

ModelFlops model_flops(const ViTConfig& c, const AttentionPlan& plan, int64_t height,
                       int64_t width) {
  ModelFlops f = model_flops(c, AttentionMode::Softmax, height, width);
  if (plan.modes.empty()) return f;
  double attention = 0;
  for (auto mode : plan.modes)
    attention += model_flops(c, mode, height, width, plan.window).per_layer.attention;
  f.per_layer.attention = attention / double(plan.modes.size());
  return f;
}

double attention_kernel_macs(AttentionMode mode, int64_t batch_heads, int64_t n, int64_t head_dim) {
  if (mode == AttentionMode::WindowLinear)
    throw std::invalid_argument(
        "attention_kernel_macs: window+linear attention's count needs its grid "
        "(window_linear_attention_macs)");
  const double bh = double(batch_heads), nn = double(n), d = double(head_dim);
  return mode == AttentionMode::Softmax ? 2.0 * bh * nn * nn * d : 2.0 * bh * nn * d * (d + 1.0);
}

std::string format_flops_report(const ViTConfig& c, int64_t height, int64_t width) {
  const auto s = model_flops(c, AttentionMode::Softmax, height, width);
  const auto l = model_flops(c, AttentionMode::Linear, height, width);
  std::string out;
  auto add = [&](const char* format, auto... args) { out += fmt::sprintf(format, args...); };
  const double g = 1e-9;
  add("FLOP model: %s at %lldx%lld, N = %lld tokens, D = %lld, heads = %lld, d = %lld, depth = "
      "%lld\n",
      c.name.c_str(), (long long)height, (long long)width, (long long)s.tokens,
      (long long)c.embed_dim, (long long)c.num_heads, (long long)c.head_dim(), (long long)c.depth);
  add("convention: 1 multiply-add (MAC) = 1 FLOP, as fvcore and the ViT-AdaLA paper; x2 for\n"
      "torch.utils.flop_counter's 2 FLOPs per MAC. Matmuls and convolutions only.\n\n");
  add("%-28s %14s %14s\n", "GMACs", "softmax", "linear");
  add("%-28s %14.3f %14.3f\n", "patch embed", s.patch_embed * g, l.patch_embed * g);
  add("%-28s %14.3f %14.3f\n", "qkv (per layer)", s.per_layer.qkv * g, l.per_layer.qkv * g);
  add("%-28s %14.3f %14.3f\n", "attention (per layer)", s.per_layer.attention * g,
      l.per_layer.attention * g);
  add("%-28s %14.3f %14.3f\n", "proj (per layer)", s.per_layer.proj * g, l.per_layer.proj * g);
  add("%-28s %14.3f %14.3f\n", "mlp (per layer)", s.per_layer.mlp * g, l.per_layer.mlp * g);
  add("%-28s %14.3f %14.3f\n", "head", s.head * g, l.head * g);
  add("%-28s %14.2f %14.2f   (ratio %.3f)\n", "attention-only (paper conv.)",
      s.attention_only() * g, l.attention_only() * g, l.attention_only() / s.attention_only());
  add("%-28s %14.2f %14.2f   (ratio %.3f)\n", "whole model, 1 FLOP/MAC", s.total() * g,
      l.total() * g, l.total() / s.total());
  add("%-28s %14.2f %14.2f\n", "whole model, 2 FLOPs/MAC", 2 * s.total() * g, 2 * l.total() * g);
  add("\nattention-only = patch embed + depth x (qkv + attention + proj): (4ND^2 + 2N^2D)L + PE "
      "for\n"
      "softmax, (4ND^2 + 2ND(d+1))L + PE for linear.\n");
  if (c.embed_dim == 1024 && c.depth == 24 && c.patch_size == 16 && height == 1024 &&
      width == 1024) {
    add("paper (ViT-L, 1024^2): %.1f -> %.2f GFLOPs; ours attention-only: %.1f -> %.2f "
        "(%+.2f%%, %+.2f%%)\n",
        kPaperViTL1024SoftmaxGFlops, kPaperViTL1024LinearGFlops, s.attention_only() * g,
        l.attention_only() * g,
        100.0 * (s.attention_only() * g / kPaperViTL1024SoftmaxGFlops - 1.0),
        100.0 * (l.attention_only() * g / kPaperViTL1024LinearGFlops - 1.0));
    add("so the paper's figures count the attention sub-layers and the patch embedding only (no\n"
        "MLP), N = 4097 tokens, 1 MAC = 1 FLOP; the whole model is %.1f -> %.1f GMACs.\n",
        s.total() * g, l.total() * g);
  }
  return out;
}

}  // namespace adala
