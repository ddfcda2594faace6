#pragma once
// What a plan costs at a resolution, before anything runs: multiply-adds from the analytic FLOP
// model (engine/measure/flop_model.h; window+linear blocks through window_linear_attention_macs)
// and a memory model, the activation bytes each block holds at batch 1 in float32; then both
// tied to the machine by measured points (calibrate_costs): milliseconds as a line through the
// measured (GMACs, ms) points, bytes scaled by measured / modelled.
#include <cstdint>
#include <limits>
#include <vector>

#include "engine/model/attention_plan.h"
#include "engine/model/vit_config.h"

namespace adala::plan {

// GMACs of one forward pass of one image of side `resolution` (1 MAC = 1 FLOP).
double plan_gmacs(const ViTConfig& config, const AttentionPlan& plan, int64_t resolution);

// Bytes of the activations one block holds at its peak at batch 1, float32: the block's input
// and the attention input, then the larger of its attention phase (q, k, v, the output and the
// mode's own tensors: softmax the H x N x N scores and their probabilities; linear phi(Q),
// phi(K), the H x d x (d + 1) state and the normaliser; window+linear the same plus the
// H x N x k^2 window scores and weights) and its MLP phase (the hidden layer and its GELU).
double block_activation_bytes(const ViTConfig& config, AttentionMode mode, int64_t resolution,
                              int64_t window = kDefaultAttentionWindow);
// The model's modelled peak: the largest block's (the blocks run one after the other).
double plan_activation_bytes(const ViTConfig& config, const AttentionPlan& plan,
                             int64_t resolution);

// One measured plan at one resolution, beside what the model says of it.
struct MeasuredCost {
  double gmacs = 0;
  double modelled_bytes = 0;
  double ms = std::numeric_limits<double>::quiet_NaN();
  double peak_bytes = std::numeric_limits<double>::quiet_NaN();
};

// ms = intercept + slope * GMACs; bytes = memory_scale * modelled bytes.
struct CostCalibration {
  double intercept_ms = 0, slope_ms_per_gmac = 0;
  double memory_scale = 1;
  int points = 0;  // finite measured points used
  double predicted_ms(double gmacs) const { return intercept_ms + slope_ms_per_gmac * gmacs; }
  double predicted_bytes(double modelled) const { return memory_scale * modelled; }
};

// From the finite measured points: with two or more of different GMACs, the least-squares line
// (its slope at least 0; a negative fit falls back to the proportional one); with one (or all at
// the same GMACs), ms proportional to GMACs through the mean ratio. memory_scale: the mean of
// measured / modelled bytes. No point: throws std::invalid_argument.
CostCalibration calibrate_costs(const std::vector<MeasuredCost>& points);

}  // namespace adala::plan
