#pragma once
// The planner's held-out slice: the last N images of the training data (never the test split),
// on which it measures each block's sensitivity and each plan's top-1 before Stage 2; and the
// experiment the planner trains with, whose training data ends before that slice.
#include <cstdint>
#include <memory>

#include "engine/data/dataset.h"
#include "engine/train/config/experiment_config.h"
#include "engine/train/stage_data.h"

namespace adala::plan {

// Items [first, first + count) of `base`, renumbered from 0.
class SliceDataset : public Dataset {
 public:
  SliceDataset(std::shared_ptr<const Dataset> base, int64_t first, int64_t count);
  int64_t size() const override { return count_; }
  Sample get(int64_t index) const override;
  std::string item_name(int64_t index) const override;
  int64_t channels() const override { return base_->channels(); }
  std::vector<std::string> class_names() const override { return base_->class_names(); }
  std::string describe() const override;

 private:
  std::shared_ptr<const Dataset> base_;
  int64_t first_, count_;
};

// data.train as configured (its limit applied), opened (nothing decoded).
StageData open_training_data(const ExperimentConfig& config);

// The last `held_out` items of `train`, with its evaluation transform. Throws PlanInputError
// (plan_request.h) when nothing would be left for training.
StageData held_out_slice(const StageData& train, int64_t held_out);

// The experiment with data.train (and data.alignment where it reads data.train's images)
// limited to the first `training_images - held_out` items, re-validated: the runs the planner
// starts never train on the held-out slice.
ExperimentConfig config_without_held_out(const ExperimentConfig& config, int64_t training_images,
                                         int64_t held_out);

}  // namespace adala::plan
