#include "engine/plan/plan_request.h"

#include <cmath>

#include <fmt/format.h>

namespace adala::plan {

void check_plan_request(const PlanRequest& r) {
  if (r.source.empty()) throw PlanInputError("missing CONFIG or RUN (see adala plan --help)");
  if (r.resolution < kMinPlanResolution || r.resolution > kMaxPlanResolution)
    throw PlanInputError(fmt::format("--res {}: out of range ({}..{} pixels)", r.resolution,
                                     kMinPlanResolution, kMaxPlanResolution));
  if (r.target_gap && r.target_ms)
    throw PlanInputError(
        "--target-gap and --target-ms: give one target (an accuracy gap or a latency)");
  if (r.target_gap && !(std::isfinite(*r.target_gap) && *r.target_gap >= 0))
    throw PlanInputError(
        fmt::format("--target-gap {:g}: must be a gap of >= 0 points", *r.target_gap));
  if (r.target_ms && !(std::isfinite(*r.target_ms) && *r.target_ms > 0))
    throw PlanInputError(fmt::format("--target-ms {:g}: must be > 0 ms", *r.target_ms));
  if (r.window != 0) {
    if (const std::string problem = attention_window_problem(r.window); !problem.empty())
      throw PlanInputError(
          fmt::format("--window {}: {} (0: no window+linear candidate)", r.window, problem));
  }
  if (r.held_out < 1)
    throw PlanInputError(fmt::format("--held-out {}: must be >= 1 image", r.held_out));
  if (r.repeats < 1 || r.repeats > 1000)
    throw PlanInputError(fmt::format("--repeats {}: must be 1..1000", r.repeats));
}

void check_plan_resolution(int64_t resolution, int64_t patch_size) {
  if (patch_size > 0 && resolution % patch_size != 0)
    throw PlanInputError(
        fmt::format("--res {}: not a multiple of the model's patch size {} (model.patch_size)",
                    resolution, patch_size));
}

void check_held_out(int64_t held_out, int64_t training_images) {
  if (held_out >= training_images)
    throw PlanInputError(fmt::format(
        "--held-out {}: the training data has {} images; the held-out slice must leave some "
        "for training (use fewer)",
        held_out, training_images));
}

PlanTarget plan_target(const PlanRequest& r) {
  PlanTarget t;
  if (r.target_ms) {
    t.kind = PlanTarget::Kind::Ms;
    t.value = *r.target_ms;
  } else {
    t.kind = PlanTarget::Kind::Gap;
    t.value = r.target_gap.value_or(kDefaultTargetGap);
  }
  return t;
}

}  // namespace adala::plan
