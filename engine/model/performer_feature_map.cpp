#include "engine/model/performer_feature_map.h"

#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <cmath>
#include <tuple>

#include "engine/model/vit_config.h"

namespace adala {

namespace {

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

PerformerOptions performer_options(const ViTConfig& c) {
  return {c.performer_features, c.performer_redraw_interval, c.performer_seed};
}

int64_t performer_default_features(int64_t head_dim) {
  const double d = static_cast<double>(head_dim);
  return std::max(head_dim, static_cast<int64_t>(std::floor(d * std::log(d))));
}

uint64_t performer_draw_seed(int64_t seed, int64_t block, int64_t draw) {
  uint64_t s = splitmix64(static_cast<uint64_t>(seed));
  s = splitmix64(s ^ static_cast<uint64_t>(block));
  return splitmix64(s ^ static_cast<uint64_t>(draw));
}

at::Tensor orthogonal_gaussian_projection(int64_t heads, int64_t features, int64_t head_dim,
                                          uint64_t seed) {
  at::Generator gen = at::detail::createCPUGenerator(seed);
  const auto options = at::TensorOptions().dtype(at::kDouble);
  const int64_t blocks = (features + head_dim - 1) / head_dim;
  at::Tensor q, r;
  std::tie(q, r) = at::linalg_qr(at::randn({heads, blocks, head_dim, head_dim}, gen, options));
  // Q D with D = sign(diag R) is Haar-distributed; Q alone is not (LAPACK's sign convention
  // favours some directions, and the estimate would be biased).
  auto signs = at::diagonal(r, 0, -2, -1).sign();
  signs = at::where(signs == 0, at::ones_like(signs), signs);
  q = q * signs.unsqueeze(-2);
  // The columns of each Q are the block's orthonormal directions.
  auto directions =
      q.transpose(-2, -1).reshape({heads, blocks * head_dim, head_dim}).narrow(1, 0, features);
  auto norms = at::randn({heads, features, head_dim}, gen, options).norm(2, {-1}, true);
  return (directions * norms).contiguous();
}

at::Tensor performer_features(const at::Tensor& x, const at::Tensor& projection,
                              PerformerStabiliser stabiliser, double eps) {
  const int64_t d = x.size(-1), m = projection.size(-2);
  const auto scaled = x * std::pow(static_cast<double>(d), -0.25);
  const auto w = projection.to(x.device(), x.scalar_type());
  // (B, H, N, d) @ (H, d, m) broadcasts over the batch.
  auto exponent = at::matmul(scaled, w.transpose(-2, -1)) - 0.5 * scaled.square().sum(-1, true);
  switch (stabiliser) {
    case PerformerStabiliser::None:
      return (at::exp(exponent) + eps) * (1.0 / std::sqrt(static_cast<double>(m)));
    case PerformerStabiliser::PerToken:
      exponent = exponent - std::get<0>(exponent.detach().max(-1, true));
      break;
    case PerformerStabiliser::PerHead:
      exponent = exponent - exponent.detach().amax({-2, -1}, true);
      break;
  }
  return at::exp(exponent) + eps;
}

at::Tensor performer_unit_normalised_queries(const at::Tensor& phi_q, const at::Tensor& phi_k) {
  return phi_q / at::matmul(phi_q, phi_k.sum(-2, true).transpose(-2, -1));
}

}  // namespace adala
