#include "engine/model/block.h"

#include <torch/autograd.h>

#include "engine/model/numerical_health.h"

namespace adala {

namespace {
torch::nn::LayerNorm layer_norm(int64_t dim, double eps) {
  return torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim}).eps(eps));
}
}  // namespace

BlockImpl::BlockImpl(const ViTConfig& c) {
  norm1 = register_module("norm1", layer_norm(c.embed_dim, c.norm_eps));
  attn = register_module(
      "attn", Attention(c.embed_dim, c.num_heads, c.qkv_bias, c.linear_attention_eps,
                        feature_map_kind_from_string(c.feature_map), performer_options(c)));
  if (c.layer_scale) ls1 = register_module("ls1", LayerScale(c.embed_dim, c.layer_scale_init));
  norm2 = register_module("norm2", layer_norm(c.embed_dim, c.norm_eps));
  mlp = register_module("mlp", Mlp(c.embed_dim, c.mlp_hidden()));
  if (c.layer_scale) ls2 = register_module("ls2", LayerScale(c.embed_dim, c.layer_scale_init));
}

torch::Tensor BlockImpl::residual_attn(const torch::Tensor& x, const torch::Tensor& a) {
  return x + (ls1 ? ls1->forward(a) : a);
}

torch::Tensor BlockImpl::residual_mlp(const torch::Tensor& x) {
  auto m = mlp->forward(norm2->forward(x));
  return x + (ls2 ? ls2->forward(m) : m);
}

void BlockImpl::set_index(int64_t index) {
  index_ = index;
  attn->linear->set_block_index(index);
}

torch::Tensor BlockImpl::forward(const torch::Tensor& x) {
  auto out = residual_mlp(residual_attn(x, attn->forward(norm1->forward(x))));
  // Linear-path blocks only: a softmax teacher beside the student must not mix in its values.
  if (HealthProbe* probe = HealthProbe::current(); probe && attn->mode() != AttentionMode::Softmax)
    probe->record_block_output(index_, out);
  return out;
}

torch::Tensor BlockImpl::forward_softmax(const torch::Tensor& x) {
  return residual_mlp(residual_attn(x, attn->forward_softmax(norm1->forward(x))));
}

BlockAlignmentOutput BlockImpl::forward_alignment(const torch::Tensor& x) {
  BlockAlignmentOutput out;
  torch::Tensor h;
  {
    torch::NoGradGuard no_grad;
    h = norm1->forward(x);
    out.softmax_attn = attn->forward_softmax(h);
    out.next = residual_mlp(residual_attn(x, out.softmax_attn));
  }
  out.linear_attn = attn->forward_linear(h.detach());
  return out;
}

}  // namespace adala
