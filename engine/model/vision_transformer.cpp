#include "engine/model/vision_transformer.h"

#include <cmath>
#include <stdexcept>

#include <torch/autograd.h>
#include <torch/nn/functional/upsampling.h>
#include <torch/nn/init.h>

namespace adala {

namespace {

void init_linear(const torch::nn::Linear& layer) {
  torch::NoGradGuard no_grad;
  torch::nn::init::normal_(layer->weight, 0.0, 0.02);
  layer->weight.clamp_(-0.04, 0.04);  // truncated at two standard deviations, as timm
  if (layer->bias.defined()) layer->bias.zero_();
}

}  // namespace

torch::Tensor interpolate_pos_embed(const torch::Tensor& pos_embed, int64_t num_prefix,
                                    int64_t new_h, int64_t new_w) {
  const int64_t patches = pos_embed.size(1) - num_prefix;
  const auto old = static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(patches))));
  if (old * old != patches)
    throw std::invalid_argument("pos_embed patch part (" + std::to_string(patches) +
                                " slots) is not a square grid");
  if (old == new_h && old == new_w) return pos_embed;
  const int64_t dim = pos_embed.size(2);
  auto prefix = pos_embed.narrow(1, 0, num_prefix);
  auto grid = pos_embed.narrow(1, num_prefix, patches)
                  .reshape({1, old, old, dim})
                  .permute({0, 3, 1, 2})
                  .to(torch::kFloat);
  namespace F = torch::nn::functional;
  auto resized = F::interpolate(grid, F::InterpolateFuncOptions()
                                          .size(std::vector<int64_t>{new_h, new_w})
                                          .mode(torch::kBicubic)
                                          .align_corners(false));
  resized = resized.permute({0, 2, 3, 1}).reshape({1, new_h * new_w, dim}).to(pos_embed.dtype());
  return torch::cat({prefix, resized}, 1);
}

VisionTransformerImpl::VisionTransformerImpl(ViTConfig config) : config_(std::move(config)) {
  config_.validate();
  const auto& c = config_;
  patch_embed = register_module("patch_embed", PatchEmbed(c.in_chans, c.embed_dim, c.patch_size));
  if (c.class_token) cls_token = register_parameter("cls_token", torch::zeros({1, 1, c.embed_dim}));
  if (c.num_register_tokens > 0)
    reg_token =
        register_parameter("reg_token", torch::zeros({1, c.num_register_tokens, c.embed_dim}));
  const int64_t pos_len =
      c.grid_size() * c.grid_size() + (c.no_embed_class ? 0 : c.num_prefix_tokens());
  pos_embed = register_parameter("pos_embed", torch::zeros({1, pos_len, c.embed_dim}));
  blocks = register_module("blocks", torch::nn::ModuleList());
  for (int64_t i = 0; i < c.depth; ++i) {
    Block b(c);
    b->set_index(i);
    b->attn->linear->set_token_grid(c.num_prefix_tokens(), c.grid_size(), c.grid_size());
    blocks->push_back(b);
    block_list_.push_back(b);
  }
  norm = register_module(
      "norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.embed_dim}).eps(c.norm_eps)));
  {
    torch::NoGradGuard no_grad;
    torch::nn::init::normal_(pos_embed, 0.0, 0.02);
    if (cls_token.defined()) torch::nn::init::normal_(cls_token, 0.0, 1e-6);
    if (reg_token.defined()) torch::nn::init::normal_(reg_token, 0.0, 1e-6);
  }
  for (auto& b : block_list_) {
    init_linear(b->attn->qkv);
    init_linear(b->attn->proj);
    init_linear(b->mlp->fc1);
    init_linear(b->mlp->fc2);
  }
  init_linear_from_softmax();
  reset_head(c.num_classes);
}

void VisionTransformerImpl::reset_head(int64_t num_classes) {
  if (head) {
    // ModuleHolder names cannot be unregistered; replace in place through the registry.
    unregister_module("head");
    head = nullptr;
  }
  config_.num_classes = num_classes;
  if (num_classes > 0) {
    head = register_module("head", torch::nn::Linear(config_.embed_dim, num_classes));
    torch::NoGradGuard no_grad;
    torch::nn::init::normal_(head->weight, 0.0, 0.01);
    head->bias.zero_();
    head->to(pos_embed.device());
  }
}

torch::Tensor VisionTransformerImpl::prepare_tokens(const torch::Tensor& images) {
  const auto& c = config_;
  auto x = patch_embed->forward(images);
  const int64_t b = x.size(0);
  const int64_t gh = images.size(2) / c.patch_size, gw = images.size(3) / c.patch_size;
  // Window+linear blocks place their windows on this grid.
  for (auto& block : block_list_)
    block->attn->linear->set_token_grid(c.num_prefix_tokens(), gh, gw);
  const int64_t pos_prefix = c.no_embed_class ? 0 : c.num_prefix_tokens();
  auto pos = interpolate_pos_embed(pos_embed, pos_prefix, gh, gw);
  std::vector<torch::Tensor> prefix;
  if (cls_token.defined()) prefix.push_back(cls_token.expand({b, -1, -1}));
  if (reg_token.defined()) prefix.push_back(reg_token.expand({b, -1, -1}));
  if (c.no_embed_class) {
    x = x + pos;
    if (prefix.empty()) return x;
    prefix.push_back(x);
    return torch::cat(prefix, 1);
  }
  if (!prefix.empty()) {
    prefix.push_back(x);
    x = torch::cat(prefix, 1);
  }
  return x + pos;
}

torch::Tensor VisionTransformerImpl::forward_features(const torch::Tensor& images) {
  auto x = prepare_tokens(images);
  for (auto& b : block_list_) x = b->forward(x);
  return norm->forward(x);
}

torch::Tensor VisionTransformerImpl::forward_head(const torch::Tensor& features) {
  if (!head) throw std::logic_error("forward_head: the model has no classifier head");
  auto pooled = config_.class_token ? features.select(1, 0)
                                    : features
                                          .narrow(1, config_.num_prefix_tokens(),
                                                  features.size(1) - config_.num_prefix_tokens())
                                          .mean(1);
  return head->forward(pooled);
}

torch::Tensor VisionTransformerImpl::forward(const torch::Tensor& images) {
  return forward_head(forward_features(images));
}

std::vector<torch::Tensor> VisionTransformerImpl::hidden_states(const torch::Tensor& images) {
  std::vector<torch::Tensor> states;
  auto x = prepare_tokens(images);
  for (auto& b : block_list_) {
    states.push_back(x);
    x = b->forward(x);
  }
  states.push_back(x);
  return states;
}

void VisionTransformerImpl::set_attention_mode(AttentionMode mode) {
  for (auto& b : block_list_) b->attn->set_mode(mode);
}

void VisionTransformerImpl::set_attention_mode(int64_t block, AttentionMode mode) {
  block_list_.at(static_cast<size_t>(block))->attn->set_mode(mode);
}

std::vector<AttentionMode> VisionTransformerImpl::attention_modes() const {
  std::vector<AttentionMode> modes;
  for (const auto& b : block_list_) modes.push_back(b->attn->mode());
  return modes;
}

void VisionTransformerImpl::set_attention_plan(const AttentionPlan& plan) {
  if (static_cast<int64_t>(plan.modes.size()) != depth())
    throw std::invalid_argument("attention plan: " + std::to_string(plan.modes.size()) +
                                " modes for a model of " + std::to_string(depth()) + " blocks");
  if (const std::string problem = attention_window_problem(plan.window); !problem.empty())
    throw std::invalid_argument("attention plan: the window " + problem);
  for (size_t i = 0; i < block_list_.size(); ++i) {
    block_list_[i]->attn->set_window(plan.window);
    block_list_[i]->attn->set_mode(plan.modes[i]);
  }
}

AttentionPlan VisionTransformerImpl::attention_plan() const {
  AttentionPlan plan;
  plan.modes = attention_modes();
  plan.window = block_list_.empty() ? kDefaultAttentionWindow : block_list_.front()->attn->window();
  for (const auto& b : block_list_)
    if (b->attn->linear->window() > 0) {
      plan.window = b->attn->linear->window();
      break;
    }
  return plan;
}

void VisionTransformerImpl::set_linear_paths(const AttentionPlan& plan) {
  if (static_cast<int64_t>(plan.modes.size()) != depth())
    throw std::invalid_argument("attention plan: " + std::to_string(plan.modes.size()) +
                                " modes for a model of " + std::to_string(depth()) + " blocks");
  for (size_t i = 0; i < block_list_.size(); ++i) {
    const bool window = plan.modes[i] == AttentionMode::WindowLinear;
    if (window) block_list_[i]->attn->set_window(plan.window);
    block_list_[i]->attn->linear->set_window(window ? plan.window : 0);
  }
}

void VisionTransformerImpl::set_softmax_chunk(int64_t chunk) {
  for (auto& b : block_list_) b->attn->set_softmax_chunk(chunk);
}

void VisionTransformerImpl::init_linear_from_softmax() {
  for (auto& b : block_list_) b->attn->init_linear_from_softmax();
}

std::vector<torch::Tensor> VisionTransformerImpl::linear_attention_parameters() {
  return linear_attention_parameters(std::vector<bool>(block_list_.size(), true));
}

std::vector<torch::Tensor> VisionTransformerImpl::linear_attention_parameters(
    const std::vector<bool>& blocks) {
  std::vector<torch::Tensor> params;
  for (size_t i = 0; i < block_list_.size(); ++i)
    if (i < blocks.size() && blocks[i])
      for (auto& p : block_list_[i]->attn->linear->parameters()) params.push_back(p);
  return params;
}

namespace {

void copy_by_name(const torch::OrderedDict<std::string, torch::Tensor>& src,
                  torch::OrderedDict<std::string, torch::Tensor> dst) {
  for (auto& kv : dst) {
    const auto* s = src.find(kv.key());
    if (!s) throw std::invalid_argument("copy_weights: source has no tensor " + kv.key());
    if (s->sizes() != kv.value().sizes())
      throw std::invalid_argument("copy_weights: shape mismatch for " + kv.key());
    kv.value().copy_(*s);
  }
}

}  // namespace

void copy_weights(VisionTransformer& from, VisionTransformer& to) {
  torch::NoGradGuard no_grad;
  copy_by_name(from->named_parameters(), to->named_parameters());
  copy_by_name(from->named_buffers(), to->named_buffers());
}

VisionTransformer clone_model(VisionTransformer& model, const torch::Device& device) {
  VisionTransformer copy(model->config());
  copy->to(device);
  // Modes and windows first: a window+linear path's mixing gamma is one of the weights.
  for (int64_t i = 0; i < model->depth(); ++i) {
    Attention from = model->block(i)->attn;
    Attention to = copy->block(i)->attn;
    to->set_window(from->window());
    to->set_mode(from->mode());
    to->linear->set_window(from->linear->window());
  }
  copy_weights(model, copy);
  return copy;
}

}  // namespace adala
