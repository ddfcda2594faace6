#pragma once
// What `adala plan` was asked (the command line, app/cli/plan_command.cpp) and its checks: each
// bad value is a PlanInputError naming the option, thrown before anything trains. Plain C++.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/model/attention_plan.h"
#include "engine/plan/plan_choice.h"

namespace adala::plan {

class PlanInputError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

inline constexpr int64_t kMinPlanResolution = 16;
inline constexpr int64_t kMaxPlanResolution = 4096;
inline constexpr double kDefaultTargetGap = 1.0;  // points

struct PlanRequest {
  std::string source;      // an experiment JSON, or a run folder / id / name
  int64_t resolution = 0;  // --res
  std::optional<double> target_gap, target_ms;
  bool train = false;      // Stages 1-3 for all-linear, the choice and its ranked neighbours
  bool train_all = false;  // ... for every candidate (implies train)
  // --train-plans: all-linear, these candidates by name, then the choice; "singles" stands for
  // every softmax-<i> (implies train). Checked against the candidates once they are known.
  std::vector<std::string> train_plans;
  int64_t window = kDefaultAttentionWindow;  // 0: no window+linear candidate
  int64_t held_out = 2000;                   // the last N training images
  std::string out_dir;                       // "": <runs_dir>/<name>-<timestamp>-plan
  std::string db;                            // "": the default database; "none": record nothing
  std::string device;                        // "": the config's
  int repeats = 5;                           // timed forward passes per measured point
};

// The checks that need no model: --res range, the targets (one at most, gap >= 0, ms > 0),
// --window (0 or odd >= 1), --held-out >= 1, --repeats 1..1000, a source given.
void check_plan_request(const PlanRequest& request);
// --res against the model: a multiple of its patch size.
void check_plan_resolution(int64_t resolution, int64_t patch_size);
// --held-out against the training data: at least one image must stay for training.
void check_held_out(int64_t held_out, int64_t training_images);

// The target: --target-ms, else --target-gap (default kDefaultTargetGap points).
PlanTarget plan_target(const PlanRequest& request);

}  // namespace adala::plan
