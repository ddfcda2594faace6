#include "engine/plan/plan_choice.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace adala::plan {

AlphaCalibration uncalibrated_alpha() {
  AlphaCalibration a;
  a.note =
      "alpha = 1 (not calibrated: no trained all-linear student; conservative, assumes Stages "
      "2-3 recover nothing)";
  return a;
}

AlphaCalibration calibrate_alpha(double teacher_held_out, double linear_held_out,
                                 double teacher_test, double student_test) {
  const double drop = 100.0 * (teacher_held_out - linear_held_out);
  const double gap = 100.0 * (teacher_test - student_test);
  AlphaCalibration a;
  if (!std::isfinite(drop) || !std::isfinite(gap)) {
    a.note = "alpha = 1 (not calibrated: the all-linear student's top-1 is not known)";
    return a;
  }
  if (drop < 0.1) {
    a.note = fmt::format(
        "alpha = 1 (not calibrated: all-linear's held-out drop, {:.2f} pt, is too small to "
        "divide by)",
        drop);
    return a;
  }
  a.alpha = std::max(0.0, gap / drop);
  a.calibrated = true;
  a.note = fmt::format(
      "alpha = {:.3f}, calibrated on the trained all-linear student: final gap {:.2f} pt (test) "
      "/ drop before Stage 2 {:.2f} pt (held-out)",
      a.alpha, gap, drop);
  return a;
}

double predicted_gap(double alpha, double teacher_held_out, double plan_held_out) {
  return alpha * 100.0 * (teacher_held_out - plan_held_out);
}

std::string describe_target(const PlanTarget& t, int64_t resolution) {
  return t.kind == PlanTarget::Kind::Gap
             ? fmt::format("predicted gap <= {:g} pt", t.value)
             : fmt::format("predicted latency <= {:g} ms/img at {}px", t.value, resolution);
}

PlanChoice choose_plan(const std::vector<ChoiceInput>& in, const PlanTarget& target,
                       int64_t resolution) {
  PlanChoice choice;
  const bool gap = target.kind == PlanTarget::Kind::Gap;
  auto meets = [&](const ChoiceInput& c) {
    return gap ? std::isfinite(c.predicted_gap) && c.predicted_gap <= target.value + 1e-9
               : std::isfinite(c.predicted_ms) && c.predicted_ms <= target.value;
  };
  auto better = [&](const ChoiceInput& a, const ChoiceInput& b) {
    if (gap) {
      if (a.gmacs != b.gmacs) return a.gmacs < b.gmacs;
      if (a.peak_bytes != b.peak_bytes) return a.peak_bytes < b.peak_bytes;
      return a.predicted_gap < b.predicted_gap;
    }
    if (a.predicted_gap != b.predicted_gap) return a.predicted_gap < b.predicted_gap;
    return a.gmacs < b.gmacs;
  };
  int met = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    if (!meets(in[i])) continue;
    ++met;
    if (choice.index < 0 || better(in[i], in[size_t(choice.index)])) choice.index = int(i);
  }
  const std::string wanted = describe_target(target, resolution);
  if (choice.index >= 0) {
    const ChoiceInput& c = in[size_t(choice.index)];
    choice.reason =
        gap ? fmt::format(
                  "{}: the cheapest of the {} plans with a {} ({:.4f} GMACs at {}px, predicted "
                  "gap {:.2f} pt)",
                  c.name, met, wanted, c.gmacs, resolution, c.predicted_gap)
            : fmt::format(
                  "{}: the most accurate of the {} plans with a {} (predicted gap {:.2f} pt, "
                  "{:.3f} ms/img)",
                  c.name, met, wanted, c.predicted_gap, c.predicted_ms);
    return choice;
  }
  // None: name the closest.
  int closest = -1;
  for (size_t i = 0; i < in.size(); ++i) {
    const double v = gap ? in[i].predicted_gap : in[i].predicted_ms;
    if (!std::isfinite(v)) continue;
    const double best = closest < 0 ? 0
                        : gap       ? in[size_t(closest)].predicted_gap
                                    : in[size_t(closest)].predicted_ms;
    if (closest < 0 || v < best) closest = int(i);
  }
  if (closest < 0) {
    choice.reason = "no plan meets the target (" + wanted + "): no plan has a prediction";
  } else {
    const ChoiceInput& c = in[size_t(closest)];
    choice.reason =
        gap ? fmt::format("no plan meets the target ({}): the closest is {} at {:.2f} pt", wanted,
                          c.name, c.predicted_gap)
            : fmt::format(
                  "no plan meets the target ({}): the fastest is {} at {:.3f} ms/img predicted",
                  wanted, c.name, c.predicted_ms);
  }
  return choice;
}

}  // namespace adala::plan
