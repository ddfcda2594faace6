#include "engine/model/attention_weight_loss.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

#include "engine/kernels/linear_attention_features.h"

namespace adala {

std::vector<int64_t> sample_query_rows(int64_t num_tokens, int64_t count, uint64_t seed) {
  if (num_tokens < 0 || count < 0)
    throw std::invalid_argument("sample_query_rows: num_tokens and count must be >= 0");
  std::vector<int64_t> rows(static_cast<size_t>(num_tokens));
  std::iota(rows.begin(), rows.end(), int64_t(0));
  if (count >= num_tokens) return rows;
  // A partial Fisher-Yates shuffle with the generator's raw output (std::uniform_int_distribution
  // differs between standard libraries; the modulo bias is below 2^-40 for any real N).
  std::mt19937_64 generator(seed);
  for (int64_t i = 0; i < count; ++i) {
    const auto remaining = static_cast<uint64_t>(num_tokens - i);
    const int64_t j = i + static_cast<int64_t>(generator() % remaining);
    std::swap(rows[size_t(i)], rows[size_t(j)]);
  }
  rows.resize(size_t(count));
  std::sort(rows.begin(), rows.end());
  return rows;
}

at::Tensor attention_weight_cross_entropy(const at::Tensor& target, const at::Tensor& predicted) {
  if (target.sizes() != predicted.sizes())
    throw std::invalid_argument(
        "attention_weight_cross_entropy: target and predicted differ in "
        "shape");
  const auto type = predicted.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
  auto p = target.detach().to(type);
  auto a = predicted.to(type);
  // xlogy(0, .) = 0: a target weight that underflowed to 0 contributes nothing.
  auto per_row = (at::xlogy(p, p) - at::xlogy(p, at::clamp_min(a, 1e-30))).sum(-1);
  return per_row.mean();
}

at::Tensor hedgehog_attention_loss(const at::Tensor& q, const at::Tensor& k,
                                   FeatureMapImpl& feature_map, const std::vector<int64_t>& rows,
                                   double scale, double eps) {
  if (q.dim() != 4 || k.dim() != 4)
    throw std::invalid_argument("hedgehog_attention_loss: q and k must be (B, H, N, head_dim)");
  for (int64_t r : rows)
    if (r < 0 || r >= q.size(2))
      throw std::invalid_argument("hedgehog_attention_loss: query row " + std::to_string(r) +
                                  " is outside 0.." + std::to_string(q.size(2) - 1));
  const auto type = q.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
  auto index = at::tensor(rows, at::TensorOptions().dtype(at::kLong).device(q.device()));
  auto q_rows = q.to(type).index_select(2, index);  // (B, H, R, d)
  auto kf = k.to(type);
  at::Tensor target;
  {
    c10::NoGradGuard no_grad;
    target = at::softmax(at::matmul(q_rows.detach() * scale, kf.detach().transpose(-2, -1)), -1);
  }
  auto predicted = linear_attention_weight_rows(feature_map.query_features(q_rows),
                                                feature_map.key_features(kf), eps);
  return attention_weight_cross_entropy(target, predicted);
}

}  // namespace adala
