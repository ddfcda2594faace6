#pragma once
// Performer's FAVOR+ feature map (Choromanski et al. 2021), positive random features whose dot
// products estimate the softmax kernel without bias:
//   phi(x) = exp(W x' - |x'|^2 / 2) / sqrt(m),   x' = x d^(-1/4)   (d = head_dim)
//   E_W[phi(q) . phi(k)] = exp(q . k / sqrt(d))
// W holds m rows per head, drawn as orthogonal random features: blocks of d orthonormal
// directions (QR of a Gaussian matrix, signs fixed so that each block is Haar-distributed)
// stacked and cut to m rows, each row rescaled by the norm of an independent Gaussian
// d-vector, so that every row alone is N(0, I_d) (performer-pytorch's
// gaussian_orthogonal_random_matrix with scaling 0).
//
// W is a pure function of (seed, block, draw): every process and data-parallel rank that
// builds the same model draws the same W, and a redraw needs no communication. It is also a
// buffer, saved with the weights (safetensors files, stage checkpoints, exports), so that a
// saved student predicts with the W it was trained with whatever the file's config says.
#include <ATen/ATen.h>

#include <cstdint>

namespace adala {

struct ViTConfig;

struct PerformerOptions {
  int64_t features = 0;         // m; 0: performer_default_features(head_dim)
  int64_t redraw_interval = 0;  // training-mode forward calls per draw of W; 0: W never changes
  int64_t seed = 0;
};

// The model's performer_features, performer_redraw_interval and performer_seed.
PerformerOptions performer_options(const ViTConfig& config);

// max(d, floor(d ln d)): performer-pytorch's default (d ln d) for its usual head widths,
// never fewer features than the head has dimensions.
int64_t performer_default_features(int64_t head_dim);

// The floor added to every stabilised feature (below), relative to the largest feature (1):
// it keeps every normaliser positive. performer-pytorch adds 1e-4, but the keys' stabiliser is
// shared by the whole head, so the features that carry a query's attention can be far below
// the head's largest; rel. error of the output vs the unstabilised kernel, d = 16, m = 266,
// N = 197, tokens ~ N(0, s^2 I), float32:
//   floor   s = 1    s = 2    s = 3    s = 6
//   1e-4    0.091    0.33     0.57     0.93
//   1e-6    1.1e-3   0.011    0.083    0.72
//   1e-12   5e-7     7e-7     8e-7     0.012
constexpr double kPerformerFeatureEps = 1e-12;

// The seed of draw `draw` of block `block` (splitmix64 over the three).
uint64_t performer_draw_seed(int64_t seed, int64_t block, int64_t draw);

// (heads, features, head_dim) float64 on the CPU: one W per head, drawn from `seed` alone.
at::Tensor orthogonal_gaussian_projection(int64_t heads, int64_t features, int64_t head_dim,
                                          uint64_t seed);

// Which constant is taken out of the exponent before exp. A constant per query token or per
// (batch, head) over all keys cancels in phi(Q)(phi(K)^T V) / phi(Q)(phi(K)^T 1): it scales a
// query's numerator and denominator alike, or every key alike.
enum class PerformerStabiliser {
  None,      // phi exactly as above (the kernel estimate; under- or overflows for large inputs)
  PerToken,  // queries: the largest exponent of each token
  PerHead,   // keys: the largest exponent over all tokens and features of each (batch, head)
};

// x: (B, H, N, d), projection: (H, m, d) -> (B, H, N, m) in x's type. With a stabiliser s the
// features are exp(W x' - |x'|^2 / 2 - s) + eps: the factor sqrt(m) exp(-s) is left out (it
// cancels) so that the largest feature is 1 and eps floors the features at eps times it. Without
// one, phi(x) + eps / sqrt(m). s is detached: a constant that cancels has no gradient.
at::Tensor performer_features(const at::Tensor& x, const at::Tensor& projection,
                              PerformerStabiliser stabiliser, double eps);

// phi_q (B, H, N, m) divided per query by its normaliser phi(q) . sum_n phi(k_n), phi_k
// (B, H, N', m): a per-query constant, which cancels, after which every normaliser is 1. The
// stabilised features' normalisers lie anywhere from ~1e-10 to N, so an absolute eps added to
// them (the linear attention's, up to 1e-3 in half precision) would bias the output as the
// floor above does; against 1 it is a relative eps.
at::Tensor performer_unit_normalised_queries(const at::Tensor& phi_q, const at::Tensor& phi_k);

}  // namespace adala
