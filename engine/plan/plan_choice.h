#pragma once
// How `adala plan` picks a plan: a plan's predicted final gap is alpha times its held-out top-1
// drop before Stage 2 (points), alpha being what Stages 2-3 leave of the all-linear student's
// drop (calibrate_alpha; 1 without a trained all-linear student: no recovery assumed); the
// choice is the cheapest plan meeting a gap target, or the most accurate meeting a latency
// target. Plain C++ (no LibTorch).
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace adala::plan {

struct AlphaCalibration {
  double alpha = 1.0;
  bool calibrated = false;
  std::string note;  // how it was obtained, for the report
};

// alpha = (teacher_test - student_test) / (teacher_held_out - linear_held_out), both in points:
// the trained all-linear student's final gap on the test split over its drop on the held-out
// slice before Stage 2. Clamped to >= 0. Not calibrated (alpha 1, a note saying why) when a
// value is not finite or the drop is below 0.1 points (too small to divide by).
AlphaCalibration calibrate_alpha(double teacher_held_out, double linear_held_out,
                                 double teacher_test, double student_test);
// The uncalibrated default: alpha 1, conservative.
AlphaCalibration uncalibrated_alpha();

// Points: alpha * 100 * (teacher_held_out - plan_held_out).
double predicted_gap(double alpha, double teacher_held_out, double plan_held_out);

struct ChoiceInput {
  std::string name;
  double gmacs = 0;       // at the target resolution
  double peak_bytes = 0;  // predicted, at the target resolution
  double predicted_ms = std::numeric_limits<double>::quiet_NaN();   // at the target resolution
  double predicted_gap = std::numeric_limits<double>::quiet_NaN();  // points
};

struct PlanTarget {
  enum class Kind { Gap, Ms } kind = Kind::Gap;
  double value = 1.0;  // points, or ms per image
};
std::string describe_target(const PlanTarget& target, int64_t resolution);

struct PlanChoice {
  int index = -1;      // into the inputs; -1: no plan meets the target
  std::string reason;  // why this one, or why none
};

// Gap target: the cheapest (GMACs, then peak bytes, then predicted gap) of the plans whose
// predicted gap <= target. Ms target: the most accurate (predicted gap, then GMACs) of those
// whose predicted ms <= target. None: index -1 and a reason naming the closest plan.
PlanChoice choose_plan(const std::vector<ChoiceInput>& inputs, const PlanTarget& target,
                       int64_t resolution);

}  // namespace adala::plan
