#pragma once
// Numerical health of the linear-attention blocks during a forward pass. While a HealthProbe
// is installed on a thread (HealthProbe::Scope), every linear-attention module and every
// linear-mode block of a model running on that thread reports to it, by block index:
//   - the normaliser phi(Q)(phi(K)^T 1) (without eps): its smallest value and the share of
//     (batch, head, query) entries below a threshold (only when normaliser statistics are on:
//     they cost one more phi pass over Q and K);
//   - the number of non-finite values in the attention output and in the block output;
//   - the largest |value| of the block output.
// Values stay on the device as 0-d tensors until values() copies them to the host at once.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace adala {

struct BlockHealth {
  int64_t block = -1;
  double min_normaliser = -1.0;  // -1: not measured
  double low_normaliser_share = -1.0;
  double attention_nonfinite = 0.0;
  double activation_nonfinite = -1.0;  // -1: block output not seen (Stage 1 runs no block)
  double max_abs_activation = -1.0;
};

class HealthProbe {
 public:
  explicit HealthProbe(double normaliser_threshold = 1e-4, bool normaliser_stats = true)
      : threshold_(normaliser_threshold), normaliser_stats_(normaliser_stats) {}

  // Installs `probe` for this thread while alive (nullptr: none); restores the previous one.
  class Scope {
   public:
    explicit Scope(HealthProbe* probe);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    HealthProbe* previous_;
  };
  static HealthProbe* current();

  // Called by the model (no gradient is taken; q, k are (B, H, N, d) before phi).
  void record_attention(int64_t block, const at::Tensor& q, const at::Tensor& k,
                        const at::Tensor& output);
  // The same for a feature map other than elu1, from phi(q), phi(k) (B, H, N, F) as computed.
  void record_attention_features(int64_t block, const at::Tensor& phi_q, const at::Tensor& phi_k,
                                 const at::Tensor& output);
  void record_block_output(int64_t block, const at::Tensor& output);

  bool empty() const { return tensors_.empty(); }
  void clear() { tensors_.clear(); }
  double threshold() const { return threshold_; }
  void set_normaliser_stats(bool on) { normaliser_stats_ = on; }
  // Per block, in block order (one device-to-host copy). A block seen more than once in the
  // pass keeps the worst of each value.
  std::vector<BlockHealth> values() const;

 private:
  struct Slots {
    at::Tensor min_normaliser, low_share, attention_nonfinite, activation_nonfinite, max_abs;
  };
  double threshold_;
  bool normaliser_stats_;
  std::map<int64_t, Slots> tensors_;

  // The smallest normaliser and the share below the threshold, from (B, H, N) normalisers.
  void record_normalisers(Slots& s, const at::Tensor& den);
};

// The first block (in block order) with a non-finite attention output or activation, and what
// was found there ("linear attention output: 12 non-finite values"); block -1 when none.
struct NonFiniteLocation {
  int64_t block = -1;
  std::string what;
};
NonFiniteLocation first_nonfinite_block(const std::vector<BlockHealth>& health);

}  // namespace adala
