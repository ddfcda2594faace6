#include "engine/plan/plan_cost_model.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "engine/measure/flop_model.h"

namespace adala::plan {

double plan_gmacs(const ViTConfig& config, const AttentionPlan& plan, int64_t resolution) {
  return model_flops(config, plan, resolution, resolution).total() * 1e-9;
}

double block_activation_bytes(const ViTConfig& c, AttentionMode mode, int64_t resolution,
                              int64_t window) {
  const double grid = double(resolution / c.patch_size);
  const double n = grid * grid + double(c.num_prefix_tokens());
  const double d_model = double(c.embed_dim), heads = double(c.num_heads);
  const double d = double(c.head_dim());
  const double resident = 2.0 * n * d_model;           // the block's input, the attention input
  double attention = 3.0 * n * d_model + n * d_model;  // q, k, v and the output
  if (mode == AttentionMode::Softmax) {
    attention += 2.0 * heads * n * n;  // scores and probabilities
  } else {
    attention += 2.0 * heads * n * d + heads * d * (d + 1.0) + heads * n;
    if (mode == AttentionMode::WindowLinear) {
      const double w2 = double(window) * double(window);
      attention += 2.0 * heads * n * std::min(w2, n);
    }
  }
  const double mlp = 2.0 * n * double(c.mlp_hidden());
  return 4.0 * (resident + std::max(attention, mlp));
}

double plan_activation_bytes(const ViTConfig& config, const AttentionPlan& plan,
                             int64_t resolution) {
  double peak = 0;
  for (auto mode : plan.modes)
    peak = std::max(peak, block_activation_bytes(config, mode, resolution, plan.window));
  return peak;
}

CostCalibration calibrate_costs(const std::vector<MeasuredCost>& points) {
  std::vector<MeasuredCost> ok;
  for (const auto& p : points)
    if (std::isfinite(p.ms) && p.gmacs > 0) ok.push_back(p);
  if (ok.empty()) throw std::invalid_argument("calibrate_costs: no measured point");
  CostCalibration cal;
  cal.points = int(ok.size());
  double mean_x = 0, mean_y = 0;
  for (const auto& p : ok) mean_x += p.gmacs, mean_y += p.ms;
  mean_x /= double(ok.size()), mean_y /= double(ok.size());
  double sxx = 0, sxy = 0;
  for (const auto& p : ok) {
    sxx += (p.gmacs - mean_x) * (p.gmacs - mean_x);
    sxy += (p.gmacs - mean_x) * (p.ms - mean_y);
  }
  const double slope = sxx > 0 ? sxy / sxx : -1;
  if (ok.size() >= 2 && sxx > 1e-12 * mean_x * mean_x && slope >= 0) {
    cal.slope_ms_per_gmac = slope;
    cal.intercept_ms = mean_y - slope * mean_x;
  } else {
    double ratio = 0;
    for (const auto& p : ok) ratio += p.ms / p.gmacs;
    cal.slope_ms_per_gmac = ratio / double(ok.size());
    cal.intercept_ms = 0;
  }
  double scale = 0;
  int scaled = 0;
  for (const auto& p : ok)
    if (std::isfinite(p.peak_bytes) && p.modelled_bytes > 0)
      scale += p.peak_bytes / p.modelled_bytes, ++scaled;
  cal.memory_scale = scaled ? scale / scaled : 1.0;
  return cal;
}

}  // namespace adala::plan
