#pragma once
#include <c10/core/Device.h>

#include <memory>
#include <string>

#include "engine/train/cancellation.h"
#include "engine/train/data_parallel.h"
#include "engine/train/events.h"
#include "engine/train/config/experiment_config.h"
#include "engine/train/stage_catalog.h"

namespace adala {

// What every stage needs from the job that runs it.
struct StageContext {
  const ExperimentConfig& config;
  c10::Device device;
  EventSink& sink;
  JobControl& control;
  std::string run_dir;  // checkpoints go to run_dir/checkpoints/<stage>.pt
  // Data parallelism over processes (engine/dist); null for one process.
  std::shared_ptr<DataParallel> parallel = nullptr;
  // Steps of each training stage to profile (TrainingLoopSpec::profile_steps); 0: none.
  int64_t profile_steps = 0;
  std::string checkpoint_path(const std::string& stage) const {
    return run_dir.empty() ? std::string() : run_dir + "/checkpoints/" + stage + ".pt";
  }
  void log(const std::string& message) const {
    sink.on_event(LogEvent{LogEvent::Level::Info, message});
  }
};

}  // namespace adala
