#include "engine/kernels/attention_ops.h"

#include <stdexcept>

#include <torch/version.h>

// LibTorch 2.1 and later: at::scaled_dot_product_attention with a scale argument.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 1)
#define ADALA_HAVE_SDPA 1
#endif

namespace adala {

at::Tensor elu_plus_one(const at::Tensor& x) {
  // LibTorch's CPU kernels lack clamp for half types: evaluate in float32 there.
  if (x.is_cpu() && (x.scalar_type() == at::kHalf || x.scalar_type() == at::kBFloat16))
    return elu_plus_one(x.to(at::kFloat)).to(x.scalar_type());
  return at::where(x >= 0, x + 1, at::exp(at::clamp_max(x, 0)));
}

at::Tensor softmax_attention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                             double scale) {
#ifdef ADALA_HAVE_SDPA
  // On CUDA, LibTorch's fused kernels (flash / memory-efficient attention): its fastest softmax
  // attention, which also keeps no N x N probabilities for the backward.
  if (q.is_cuda()) return at::scaled_dot_product_attention(q, k, v, {}, 0.0, false, scale);
#endif
  auto scores = at::matmul(q * scale, k.transpose(-2, -1));
  return at::matmul(at::softmax(scores, -1), v);
}

at::Tensor softmax_attention_chunked(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                     double scale, int64_t chunk) {
  if (chunk <= 0) throw std::invalid_argument("softmax_attention_chunked: chunk must be > 0");
  const int64_t n = q.size(-2);
  if (n <= chunk) return softmax_attention(q, k, v, scale);
  auto out = at::empty(q.sizes(), q.options());
  auto kt = k.transpose(-2, -1);
  for (int64_t start = 0; start < n; start += chunk) {
    const int64_t len = std::min(chunk, n - start);
    auto qc = q.narrow(-2, start, len);
    auto probs = at::softmax(at::matmul(qc * scale, kt), -1);
    out.narrow(-2, start, len).copy_(at::matmul(probs, v));
  }
  return out;
}

at::Tensor linear_attention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                            double eps) {
  const auto out_type = q.scalar_type();
  const auto type = out_type == at::kDouble ? at::kDouble : at::kFloat;
  auto qf = elu_plus_one(q.to(type));
  auto kf = elu_plus_one(k.to(type));
  // Pad V with a column of ones so the normaliser comes out of the same matmul.
  auto ones = at::ones({v.size(0), v.size(1), v.size(2), 1}, v.options().dtype(type));
  auto v1 = at::cat({v.to(type), ones}, -1);
  auto kv = at::matmul(kf.transpose(-2, -1), v1);  // (B, H, d, d + 1)
  auto numden = at::matmul(qf, kv);                // (B, H, N, d + 1)
  const int64_t d = v.size(-1);
  auto out = numden.narrow(-1, 0, d) / (numden.narrow(-1, d, 1) + eps);
  return out.to(out_type);
}

at::Tensor softmax_attention_row(const at::Tensor& q, const at::Tensor& k, double scale) {
  return at::softmax(at::mv(k, q) * scale, 0);
}

at::Tensor linear_attention_row(const at::Tensor& q, const at::Tensor& k, double eps) {
  auto weights = at::mv(elu_plus_one(k.to(at::kFloat)), elu_plus_one(q.to(at::kFloat)));
  return weights / (weights.sum() + eps);
}

}  // namespace adala
