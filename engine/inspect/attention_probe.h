#pragma once
// Softmax-vs-linear attention rows of one image, on demand.
//
// The probe runs the model once over the image (any resolution the model accepts: position
// embeddings interpolate) and caches, per block, what one attention row needs: the block's
// attention input norm1(x) (to project a query), the softmax path's keys and the linear
// path's feature-mapped keys phi(K), each (heads, N, head_dim), on the CPU in float32. A row then
// costs O(N * d): no N x N matrix is ever formed, so a 1024 x 1024 image stays interactive.
//
// Hidden states follow the model's own attention modes (a teacher propagates through softmax
// attention, a student through its plan: softmax, linear and window+linear blocks); the
// forward pass chunks softmax queries so it never holds more than ~kSoftmaxChunkBudget scores
// and can report progress and be cancelled between chunks.
//
// The API is plain C++ (std::vector<float>) so Qt widgets can draw the rows without torch.
#include <ATen/ATen.h>

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

#include "engine/model/vision_transformer.h"

namespace adala {

// One query's row of each attention matrix, over all N tokens (prefix tokens first).
struct AttentionRowPair {
  std::vector<float> softmax;  // sums to 1
  std::vector<float> linear;   // sums to 1 - O(eps)
  double kl = 0.0;             // KL(softmax || linear), natural log
  double mse = 0.0;            // mean over the N entries of (softmax - linear)^2
};

// KL(p || q) = sum p log(p / q) with both clamped below at 1e-12, and the mean squared error.
double attention_row_kl(const std::vector<float>& p, const std::vector<float>& q);
double attention_row_mse(const std::vector<float>& p, const std::vector<float>& q);

// Thrown by the constructor when the progress callback asks it to stop.
class ProbeCancelled : public std::runtime_error {
 public:
  ProbeCancelled() : std::runtime_error("attention probe cancelled") {}
};

struct ProbeOptions {
  // Called during the forward pass with the fraction done in [0, 1] (at least once per
  // block, and per softmax query chunk); returning false stops it (ProbeCancelled).
  std::function<bool(double fraction)> progress;
};

class AttentionProbe {
 public:
  // image: (1, C, H, W) (or (C, H, W)), float; H and W must be multiples of the patch size.
  // The model is used in eval mode without gradients and is kept (shared) by the probe.
  // Cost: one forward pass, O(N^2 d) per softmax-propagating block (a patch-4 model at
  // 1024 x 1024, N = 65537, takes minutes on two cores; the same model in linear mode or a
  // patch-16 model, N = 4097, about a second); every row afterwards is O(N d).
  AttentionProbe(VisionTransformer model, const at::Tensor& image,
                 const ProbeOptions& options = {});

  int64_t depth() const { return depth_; }
  int64_t num_heads() const { return heads_; }
  int64_t head_dim() const { return head_dim_; }
  int64_t num_tokens() const { return tokens_; }         // N = prefix + grid_h * grid_w
  int64_t num_prefix_tokens() const { return prefix_; }  // class + register tokens
  int64_t grid_height() const { return grid_h_; }
  int64_t grid_width() const { return grid_w_; }
  // Token index of patch (row, col) of the grid.
  int64_t patch_token(int64_t row, int64_t col) const { return prefix_ + row * grid_w_ + col; }
  double forward_seconds() const { return forward_seconds_; }
  // Bytes held by the per-block caches.
  int64_t cache_bytes() const;

  // Rows of block `block`, head `head`, query token `query` (0 <= query < N). Thread-safe
  // for concurrent readers (the caches are immutable after construction). The linear row of a
  // window+linear path is its attention: softmax weights on the query's k x k window (and the
  // prefix tokens), gamma phi(q) . phi(k) on the other keys, one normaliser.
  AttentionRowPair rows(int64_t block, int64_t head, int64_t query) const;
  // KL and MSE of every head for one query (the inspector's per-head table).
  std::vector<AttentionRowPair> all_heads(int64_t block, int64_t query,
                                          bool with_rows = false) const;

  // Attention rollout (Abnar & Zuidema 2020) of token `query`, over all N tokens: row `query`
  // of (0.5 A_{L-1} + 0.5 I) ... (0.5 A_0 + 0.5 I), with A_b block b's attention averaged over
  // heads, of the softmax path or of the linear path (its rows phi(q_i) phi(K)^T renormalised
  // to sum to 1 exactly). Propagated backwards as a row vector, r <- 0.5 A_b^T r + 0.5 r, so no
  // N x N matrix is held: a softmax block in chunks of query rows (O(N^2 d) per head), a
  // linear block as phi(K) (phi(Q)^T (r / den)) in O(N d), a window+linear block row by row
  // (its rows as rows() gives them) in O(N^2 d) as a softmax block. Sums to 1. `progress` (fraction
  // done) may return false to stop (ProbeCancelled).
  std::vector<float> rollout(int64_t query, bool linear,
                             const std::function<bool(double)>& progress = {}) const;

  // Scores held at once by the forward pass's chunked softmax (per head and batch item).
  static constexpr int64_t kSoftmaxChunkBudget = int64_t(1) << 24;

 private:
  struct BlockCache {
    at::Tensor x;                     // (N, D) norm1 output: queries are projected from it
    at::Tensor softmax_keys;          // (heads, N, d)
    at::Tensor linear_keys;           // (heads, N, f), phi(K): the block's own feature map
    FeatureMap feature_map{nullptr};  // the block's learned / non-default map; null: ELU + 1
    at::Tensor wq_softmax, bq_softmax, wq_linear, bq_linear;  // (D, D), (D) or undefined
    double scale = 1.0;
    double eps = 1e-6;
    // A window+linear linear path (attention_plan.h): its k (0: plain linear attention), the
    // linear path's keys before phi (heads, N, d) for the window's scores, gamma per head.
    int64_t window = 0;
    at::Tensor linear_raw_keys;
    std::vector<double> gamma;
  };
  // Block c's window+linear row weights for query `query` of head `head` (un-normalised: the
  // window's exp(s - m) and gamma phi(q) . phi(k) outside it), from the linear path's projected
  // query and its phi.
  std::vector<double> window_row_weights(const BlockCache& c, int64_t head, int64_t query,
                                         const std::vector<double>& q,
                                         const std::vector<double>& phi_q) const;
  bool in_window(const BlockCache& c, int64_t query, int64_t key) const;

  VisionTransformer model_;
  std::vector<BlockCache> blocks_;
  int64_t depth_ = 0, heads_ = 0, head_dim_ = 0, tokens_ = 0, prefix_ = 0, grid_h_ = 0, grid_w_ = 0;
  double forward_seconds_ = 0.0;
};

}  // namespace adala
