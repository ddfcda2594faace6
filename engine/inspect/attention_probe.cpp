#include "engine/inspect/attention_probe.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

#include <torch/autograd.h>

#include "engine/kernels/attention_ops.h"

namespace adala {

namespace {

// CPU float32, contiguous, detached: what the row loops read.
at::Tensor host(const at::Tensor& t) {
  return t.detach().to(at::kCPU, at::kFloat).contiguous().clone();
}

void check_index(const char* what, int64_t value, int64_t size) {
  if (value < 0 || value >= size)
    throw std::out_of_range(std::string("AttentionProbe: ") + what + " " + std::to_string(value) +
                            " out of range [0, " + std::to_string(size) + ")");
}

// The image as the (1, C, H, W) batch the model accepts: its channels, sides that are
// multiples of the patch size.
at::Tensor probe_image(const at::Tensor& image, const ViTConfig& cfg) {
  at::Tensor img = image.dim() == 3 ? image.unsqueeze(0) : image;
  if (img.dim() != 4 || img.size(0) != 1)
    throw std::invalid_argument("AttentionProbe: expected one image (1, C, H, W)");
  if (img.size(1) != cfg.in_chans)
    throw std::invalid_argument("AttentionProbe: the image has " + std::to_string(img.size(1)) +
                                " channels, the model expects " + std::to_string(cfg.in_chans));
  const int64_t p = cfg.patch_size;
  if (img.size(2) % p != 0 || img.size(3) % p != 0 || img.size(2) < p || img.size(3) < p)
    throw std::invalid_argument("AttentionProbe: image " + std::to_string(img.size(2)) + "x" +
                                std::to_string(img.size(3)) +
                                " is not a multiple of the patch size " + std::to_string(p));
  return img;
}

// Progress of the forward pass in units of query chunks (a linear block counts as one unit: it
// is O(N d^2)); a callback that returns false stops it (ProbeCancelled).
class ForwardProgress {
 public:
  ForwardProgress(const std::function<bool(double)>& progress,
                  const std::vector<AttentionMode>& modes, int64_t depth, int64_t tokens,
                  int64_t chunk)
      : progress_(progress) {
    const double chunks_per_block = std::ceil(double(tokens) / double(chunk));
    for (int64_t b = 0; b + 1 < depth; ++b)
      total_units_ += modes[size_t(b)] == AttentionMode::Softmax ? chunks_per_block : 1.0;
  }

  void report(double units) {
    done_units_ += units;
    if (progress_ && !progress_(std::min(1.0, done_units_ / total_units_))) throw ProbeCancelled();
  }

 private:
  const std::function<bool(double)>& progress_;
  double total_units_ = 1.0, done_units_ = 0.0;
};

// A softmax block's attention sub-layer, its queries in chunks so that progress and
// cancellation reach inside a long block.
at::Tensor chunked_softmax_attention(Block& block, const HeadProjections& heads, int64_t tokens,
                                     int64_t chunk, ForwardProgress& progress) {
  const auto& q = heads.q;
  auto kt = heads.k.transpose(-2, -1);
  auto out = at::empty(q.sizes(), q.options());
  for (int64_t start = 0; start < tokens; start += chunk) {
    const int64_t len = std::min(chunk, tokens - start);
    auto probs = at::softmax(at::matmul(q.narrow(-2, start, len) * block->attn->scale(), kt), -1);
    out.narrow(-2, start, len).copy_(at::matmul(probs, heads.v));
    progress.report(1.0);
  }
  return block->attn->proj->forward(merge_heads(out));
}

// The block's own forward (BlockImpl::forward) from its attention input h, with the softmax
// path chunked.
at::Tensor block_forward(Block& block, const at::Tensor& x, const at::Tensor& h,
                         const HeadProjections& softmax_heads, int64_t tokens, int64_t chunk,
                         ForwardProgress& progress) {
  at::Tensor a;
  if (block->attn->mode() == AttentionMode::Softmax) {
    a = chunked_softmax_attention(block, softmax_heads, tokens, chunk, progress);
  } else {
    a = block->attn->forward_linear(h);
    progress.report(1.0);
  }
  auto y = x + (block->ls1 ? block->ls1->forward(a) : a);
  auto m = block->mlp->forward(block->norm2->forward(y));
  return y + (block->ls2 ? block->ls2->forward(m) : m);
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

AttentionProbe::AttentionProbe(VisionTransformer model, const at::Tensor& image,
                               const ProbeOptions& options)
    : model_(std::move(model)) {
  const auto& cfg = model_->config();
  const at::Tensor img = probe_image(image, cfg);
  const int64_t p = cfg.patch_size;
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
  const auto device = model_->pos_embed.device();
  const int64_t dim = cfg.embed_dim;
  // Softmax blocks are evaluated one query chunk at a time (exact, memory-lean, cancellable).
  const int64_t chunk = std::max<int64_t>(16, kSoftmaxChunkBudget / std::max<int64_t>(1, tokens_));
  ForwardProgress progress(options.progress, model_->attention_modes(), depth_, tokens_, chunk);
  progress.report(0.0);

  auto x = model_->prepare_tokens(img.to(device, at::kFloat));
  blocks_.reserve(static_cast<size_t>(depth_));
  for (int64_t b = 0; b < depth_; ++b) {
    auto block = model_->block(b);
    auto h = block->attention_input(x);
    auto softmax_heads = block->attn->project_softmax(h);
    BlockCache c;
    c.x = host(h[0]);
    c.softmax_keys = host(softmax_heads.k[0]);
    // phi(K) with the block's own feature map (elu1, relu, hedgehog, ...), as training used it.
    const auto linear_k = block->attn->linear->project(h).k.to(at::kFloat);
    c.feature_map = block->attn->linear->feature_map;
    c.linear_keys =
        host(c.feature_map ? c.feature_map->key_features(linear_k)[0] : elu_plus_one(linear_k[0]));
    if (const int64_t window = block->attn->linear->window(); window > 0) {
      c.window = window;
      c.linear_raw_keys = host(linear_k[0]);
      const auto gamma = host(block->attn->linear->window_mixing->gamma());
      c.gamma.assign(gamma.data_ptr<float>(), gamma.data_ptr<float>() + gamma.numel());
    }
    // Query rows of each path's qkv projection: output features [0, D) are Q, head-major.
    c.wq_softmax = host(block->attn->qkv->weight.narrow(0, 0, dim));
    if (block->attn->qkv->bias.defined())
      c.bq_softmax = host(block->attn->qkv->bias.narrow(0, 0, dim));
    c.wq_linear = host(block->attn->linear->qkv->weight.narrow(0, 0, dim));
    if (block->attn->linear->qkv->bias.defined())
      c.bq_linear = host(block->attn->linear->qkv->bias.narrow(0, 0, dim));
    c.scale = block->attn->scale();
    c.eps = block->attn->linear->eps();
    blocks_.push_back(std::move(c));
    if (b + 1 == depth_) break;
    x = block_forward(block, x, h, softmax_heads, tokens_, chunk, progress);
  }
  progress.report(1.0);
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
  // Plain loops over the cached float buffers: a row is O(N d) and so small that LibTorch's
  // dispatch and intra-op pool (shared with a training job on another thread) would dominate.
  const auto& c = blocks_[static_cast<size_t>(block)];
  const int64_t n = tokens_, d = head_dim_, dim = heads_ * head_dim_;
  const float* xq = c.x.data_ptr<float>() + query * dim;
  auto project = [&](const at::Tensor& w, const at::Tensor& bias) {
    std::vector<double> q(static_cast<size_t>(d));
    const float* wp = w.data_ptr<float>() + head * d * dim;
    const float* bp = bias.defined() ? bias.data_ptr<float>() + head * d : nullptr;
    for (int64_t i = 0; i < d; ++i) {
      double acc = bp ? bp[i] : 0.0;
      for (int64_t j = 0; j < dim; ++j) acc += double(wp[i * dim + j]) * xq[j];
      q[static_cast<size_t>(i)] = acc;
    }
    return q;
  };
  AttentionRowPair out;
  out.softmax.resize(static_cast<size_t>(n));
  out.linear.resize(static_cast<size_t>(n));
  {  // softmax(K q * scale)
    const auto q = project(c.wq_softmax, c.bq_softmax);
    const float* k = c.softmax_keys.data_ptr<float>() + head * n * d;
    std::vector<double> s(static_cast<size_t>(n));
    double top = -INFINITY;
    for (int64_t t = 0; t < n; ++t) {
      double acc = 0.0;
      for (int64_t i = 0; i < d; ++i) acc += double(k[t * d + i]) * q[static_cast<size_t>(i)];
      s[static_cast<size_t>(t)] = acc * c.scale;
      top = std::max(top, acc * c.scale);
    }
    double sum = 0.0;
    for (auto& v : s) sum += (v = std::exp(v - top));
    for (int64_t t = 0; t < n; ++t)
      out.softmax[static_cast<size_t>(t)] = float(s[static_cast<size_t>(t)] / sum);
  }
  {  // phi(K) phi(q) / (1^T phi(K) phi(q) + eps) (the keys are cached as phi(K))
    auto q = project(c.wq_linear, c.bq_linear);
    const std::vector<double> q_raw = q;       // the window's scores use the query before phi
    const int64_t f = c.linear_keys.size(-1);  // feature width: d, or 2d for hedgehog
    if (c.feature_map) {
      // The map is per head (hedgehog learns one per head): this query in its head's slot.
      auto one = at::zeros({1, heads_, 1, d}, at::kFloat);
      auto slot = one.accessor<float, 4>();
      for (int64_t i = 0; i < d; ++i) slot[0][head][0][i] = float(q[static_cast<size_t>(i)]);
      FeatureMap map = c.feature_map;  // a holder copy: the module's forward is not const
      const auto phi = map->query_features(one)[0][head][0].contiguous();
      q.assign(phi.data_ptr<float>(), phi.data_ptr<float>() + f);
    } else {
      for (auto& v : q) v = v >= 0.0 ? v + 1.0 : std::exp(v);
    }
    std::vector<double> w(static_cast<size_t>(n));
    double sum = 0.0;
    if (c.window > 0) {
      w = window_row_weights(c, head, query, q_raw, q);
      for (double v : w) sum += v;
    } else {
      const float* k = c.linear_keys.data_ptr<float>() + head * n * f;
      for (int64_t t = 0; t < n; ++t) {
        double acc = 0.0;
        for (int64_t i = 0; i < f; ++i) acc += double(k[t * f + i]) * q[static_cast<size_t>(i)];
        w[static_cast<size_t>(t)] = acc;
        sum += acc;
      }
      sum += c.eps;
    }
    for (int64_t t = 0; t < n; ++t)
      out.linear[static_cast<size_t>(t)] = float(w[static_cast<size_t>(t)] / sum);
  }
  out.kl = attention_row_kl(out.softmax, out.linear);
  out.mse = attention_row_mse(out.softmax, out.linear);
  return out;
}

bool AttentionProbe::in_window(const BlockCache& c, int64_t query, int64_t key) const {
  if (query < prefix_ || key < prefix_) return true;
  const int64_t r = (c.window - 1) / 2;
  const int64_t yq = (query - prefix_) / grid_w_, xq = (query - prefix_) % grid_w_;
  const int64_t yk = (key - prefix_) / grid_w_, xk = (key - prefix_) % grid_w_;
  return std::abs(yq - yk) <= r && std::abs(xq - xk) <= r;
}

std::vector<double> AttentionProbe::window_row_weights(const BlockCache& c, int64_t head,
                                                       int64_t query, const std::vector<double>& q,
                                                       const std::vector<double>& phi_q) const {
  const int64_t n = tokens_, d = head_dim_, f = c.linear_keys.size(-1);
  const float* k = c.linear_raw_keys.data_ptr<float>() + head * n * d;
  const float* pk = c.linear_keys.data_ptr<float>() + head * n * f;
  std::vector<double> w(static_cast<size_t>(n));
  double top = -INFINITY;
  for (int64_t t = 0; t < n; ++t) {
    if (!in_window(c, query, t)) continue;
    double acc = 0.0;
    for (int64_t i = 0; i < d; ++i) acc += double(k[t * d + i]) * q[static_cast<size_t>(i)];
    w[static_cast<size_t>(t)] = acc * c.scale;
    top = std::max(top, acc * c.scale);
  }
  const double gamma = c.gamma[static_cast<size_t>(head)];
  for (int64_t t = 0; t < n; ++t) {
    auto& v = w[static_cast<size_t>(t)];
    if (in_window(c, query, t)) {
      v = std::exp(v - top);
      continue;
    }
    double acc = 0.0;
    for (int64_t i = 0; i < f; ++i) acc += double(pk[t * f + i]) * phi_q[static_cast<size_t>(i)];
    v = gamma * acc;
  }
  return w;
}

std::vector<AttentionRowPair> AttentionProbe::all_heads(int64_t block, int64_t query,
                                                        bool with_rows) const {
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

namespace {

// Queries of one block, (heads, N, d): x W^T + b, head-major (as rows() projects one).
at::Tensor block_queries(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b,
                         int64_t heads) {
  auto q = at::matmul(x, w.t());
  if (b.defined()) q = q + b;
  return q.view({x.size(0), heads, -1}).permute({1, 0, 2}).contiguous();
}

// phi(Q) of a block's queries (heads, N, d) with its feature map; null: ELU + 1.
at::Tensor query_features(FeatureMap map, const at::Tensor& q) {
  // `map` is a holder copy: the module's forward is not const.
  if (map) return map->query_features(q.unsqueeze(0))[0].to(at::kFloat);
  return elu_plus_one(q);
}

}  // namespace

std::vector<float> AttentionProbe::rollout(int64_t query, bool linear,
                                           const std::function<bool(double)>& progress) const {
  check_index("query", query, tokens_);
  torch::NoGradGuard no_grad;
  const int64_t n = tokens_;
  // Row vector r, float64 so that twelve blocks of averaging stay exact to float precision.
  auto r = at::zeros({n}, at::kDouble);
  r[query] = 1.0;
  const int64_t chunk = std::max<int64_t>(16, kSoftmaxChunkBudget / std::max<int64_t>(1, n));
  for (int64_t b = depth_ - 1; b >= 0; --b) {
    const auto& c = blocks_[static_cast<size_t>(b)];
    auto y = at::zeros({n}, at::kDouble);  // sum over heads of A_h^T r
    if (!linear) {
      const auto q = block_queries(c.x, c.wq_softmax, c.bq_softmax, heads_);
      for (int64_t h = 0; h < heads_; ++h) {
        const auto kt = c.softmax_keys[h].t();
        for (int64_t start = 0; start < n; start += chunk) {
          const int64_t len = std::min(chunk, n - start);
          const auto probs = at::softmax(
              at::matmul(q[h].narrow(0, start, len), kt).mul_(c.scale).to(at::kDouble), -1);
          y += at::matmul(r.narrow(0, start, len), probs);
          // Checked per chunk: a softmax block at N = 65537 takes minutes on two cores.
          const double within = double(h * n + start + len) / double(heads_ * n);
          if (progress && !progress((double(depth_ - 1 - b) + within) / double(depth_)))
            throw ProbeCancelled();
        }
      }
    } else if (c.window > 0) {
      // Row by row, as rows() gives them (O(N^2 d) per head, as a softmax block).
      const auto q = block_queries(c.x, c.wq_linear, c.bq_linear, heads_);
      const auto phi_q = query_features(c.feature_map, q).to(at::kDouble).contiguous();
      const auto qd = q.to(at::kDouble).contiguous();
      const int64_t d = head_dim_, f = phi_q.size(-1);
      auto yd = y.accessor<double, 1>();
      const auto ra = r.accessor<double, 1>();
      for (int64_t h = 0; h < heads_; ++h) {
        for (int64_t i = 0; i < n; ++i) {
          if (ra[i] == 0.0) continue;
          const double* qi = qd.data_ptr<double>() + (h * n + i) * d;
          const double* pi = phi_q.data_ptr<double>() + (h * n + i) * f;
          const auto w = window_row_weights(c, h, i, std::vector<double>(qi, qi + d),
                                            std::vector<double>(pi, pi + f));
          double sum = 0.0;
          for (double v : w) sum += v;
          for (int64_t t = 0; t < n; ++t) yd[t] += ra[i] * w[static_cast<size_t>(t)] / sum;
        }
        if (progress &&
            !progress((double(depth_ - 1 - b) + double(h + 1) / double(heads_)) / double(depth_)))
          throw ProbeCancelled();
      }
    } else {
      const auto q = block_queries(c.x, c.wq_linear, c.bq_linear, heads_);
      const auto phi_q = query_features(c.feature_map, q);
      const auto phi_k = c.linear_keys.to(at::kDouble);  // (heads, N, f)
      const auto pq = phi_q.to(at::kDouble);             // (heads, N, f)
      for (int64_t h = 0; h < heads_; ++h) {
        // A_h = diag(1 / den) phi(Q_h) phi(K_h)^T with den = phi(Q_h) (phi(K_h)^T 1).
        const auto den = at::matmul(pq[h], phi_k[h].sum(0));  // (N)
        const auto state = at::matmul(pq[h].t(), r / den);    // (f)
        y += at::matmul(phi_k[h], state);                     // (N)
      }
    }
    r = y.div_(double(heads_)).mul_(0.5).add_(r, 0.5);
    if (progress && !progress(double(depth_ - b) / double(depth_))) throw ProbeCancelled();
  }
  const auto out = r.to(at::kFloat).contiguous();
  return std::vector<float>(out.data_ptr<float>(), out.data_ptr<float>() + n);
}

}  // namespace adala
