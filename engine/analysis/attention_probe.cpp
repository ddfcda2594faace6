#include "engine/analysis/attention_probe.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

#include <torch/autograd.h>

#include "engine/core/attention_ops.h"

namespace adala {

namespace {

std::vector<float> to_vector(const at::Tensor& t) {
  auto c = t.to(at::kCPU, at::kFloat).contiguous();
  const float* p = c.data_ptr<float>();
  return std::vector<float>(p, p + c.numel());
}

void check_index(const char* what, int64_t value, int64_t size) {
  if (value < 0 || value >= size)
    throw std::out_of_range(std::string("AttentionProbe: ") + what + " " + std::to_string(value) +
                            " out of range [0, " + std::to_string(size) + ")");
}

}  // namespace

double attention_row_kl(const std::vector<float>& p, const std::vector<float>& q) {
  if (p.size() != q.size()) throw std::invalid_argument("attention_row_kl: rows differ in length");
  constexpr double kFloor = 1e-12;
  double kl = 0.0;
  for (size_t i = 0; i < p.size(); ++i) {
    const double a = std::max(double(p[i]), kFloor), b = std::max(double(q[i]), kFloor);
    kl += a * std::log(a / b);
  }
  return kl;
}

double attention_row_mse(const std::vector<float>& p, const std::vector<float>& q) {
  if (p.size() != q.size()) throw std::invalid_argument("attention_row_mse: rows differ in length");
  if (p.empty()) return 0.0;
  double sum = 0.0;
  for (size_t i = 0; i < p.size(); ++i) {
    const double d = double(p[i]) - double(q[i]);
    sum += d * d;
  }
  return sum / double(p.size());
}

AttentionProbe::AttentionProbe(VisionTransformer model, const at::Tensor& image)
    : model_(std::move(model)) {
  const auto& cfg = model_->config();
  at::Tensor img = image.dim() == 3 ? image.unsqueeze(0) : image;
  if (img.dim() != 4 || img.size(0) != 1)
    throw std::invalid_argument("AttentionProbe: expected one image (1, C, H, W)");
  if (img.size(1) != cfg.in_chans)
    throw std::invalid_argument("AttentionProbe: the image has " + std::to_string(img.size(1)) +
                                " channels, the model expects " + std::to_string(cfg.in_chans));
  const int64_t p = cfg.patch_size;
  if (img.size(2) % p != 0 || img.size(3) % p != 0 || img.size(2) < p || img.size(3) < p)
    throw std::invalid_argument("AttentionProbe: image " + std::to_string(img.size(2)) + "x" +
                                std::to_string(img.size(3)) + " is not a multiple of the patch size " +
                                std::to_string(p));
  depth_ = model_->depth();
  heads_ = cfg.num_heads;
  head_dim_ = cfg.head_dim();
  prefix_ = cfg.num_prefix_tokens();
  grid_h_ = img.size(2) / p;
  grid_w_ = img.size(3) / p;
  tokens_ = prefix_ + grid_h_ * grid_w_;

  const auto t0 = std::chrono::steady_clock::now();
  torch::NoGradGuard no_grad;
  model_->eval();
  // Bound the softmax score buffer of the forward pass (exact result, chunked queries).
  model_->set_softmax_chunk(std::max<int64_t>(16, kSoftmaxChunkBudget / std::max<int64_t>(1, tokens_)));
  const auto device = model_->pos_embed.device();
  auto x = model_->prepare_tokens(img.to(device, at::kFloat));
  const int64_t dim = cfg.embed_dim;
  blocks_.reserve(static_cast<size_t>(depth_));
  for (int64_t b = 0; b < depth_; ++b) {
    auto block = model_->block(b);
    auto h = block->attention_input(x);
    BlockCache c;
    c.x = h[0].contiguous();
    c.softmax_keys = block->attn->project_softmax(h).k[0].contiguous();
    c.linear_keys = block->attn->linear->project(h).k[0].contiguous();
    // Query rows of each path's qkv projection: output features [0, D) are Q, head-major.
    c.wq_softmax = block->attn->qkv->weight.narrow(0, 0, dim).contiguous();
    if (block->attn->qkv->bias.defined()) c.bq_softmax = block->attn->qkv->bias.narrow(0, 0, dim).contiguous();
    c.wq_linear = block->attn->linear->qkv->weight.narrow(0, 0, dim).contiguous();
    if (block->attn->linear->qkv->bias.defined())
      c.bq_linear = block->attn->linear->qkv->bias.narrow(0, 0, dim).contiguous();
    c.scale = block->attn->scale();
    c.eps = block->attn->linear->eps();
    blocks_.push_back(std::move(c));
    if (b + 1 < depth_) x = block->forward(x);
  }
  forward_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int64_t AttentionProbe::cache_bytes() const {
  int64_t bytes = 0;
  for (const auto& c : blocks_)
    for (const auto* t : {&c.x, &c.softmax_keys, &c.linear_keys})
      bytes += t->numel() * static_cast<int64_t>(t->element_size());
  return bytes;
}

AttentionRowPair AttentionProbe::rows(int64_t block, int64_t head, int64_t query) const {
  check_index("block", block, depth_);
  check_index("head", head, heads_);
  check_index("query", query, tokens_);
  torch::NoGradGuard no_grad;
  const auto& c = blocks_[static_cast<size_t>(block)];
  const auto xq = c.x[query];
  auto project = [&](const at::Tensor& w, const at::Tensor& bias) {
    auto q = at::mv(w.narrow(0, head * head_dim_, head_dim_), xq);
    if (bias.defined()) q = q + bias.narrow(0, head * head_dim_, head_dim_);
    return q;
  };
  AttentionRowPair out;
  out.softmax = to_vector(softmax_attention_row(project(c.wq_softmax, c.bq_softmax), c.softmax_keys[head], c.scale));
  out.linear = to_vector(linear_attention_row(project(c.wq_linear, c.bq_linear), c.linear_keys[head], c.eps));
  out.kl = attention_row_kl(out.softmax, out.linear);
  out.mse = attention_row_mse(out.softmax, out.linear);
  return out;
}

std::vector<AttentionRowPair> AttentionProbe::all_heads(int64_t block, int64_t query, bool with_rows) const {
  std::vector<AttentionRowPair> out;
  out.reserve(static_cast<size_t>(heads_));
  for (int64_t h = 0; h < heads_; ++h) {
    out.push_back(rows(block, h, query));
    if (!with_rows) {
      out.back().softmax = {};
      out.back().linear = {};
    }
  }
  return out;
}

}  // namespace adala
